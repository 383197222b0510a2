/*
 * Device buffers and the host's view of the context (ocl-engine.h).
 *
 * Owns: buffer creation and plain reads and writes (every failure as a
 * message that says what to lower when it is memory), the host view of
 * the context, the mirror, the stacks' layouts, and the plan: layouts
 * and sizes from a machine's config, the tuning table and the device,
 * checked before anything is allocated against where the buffers live
 * (ocl_mem_limit: the host's memory on a zero-copy device, else the
 * device's; engine_ocl_mem_need and engine_ocl_mem_limit give bench the
 * same figures and rule).
 *
 * Invariants: on a zero-copy device hctx is the context buffer, mapped,
 * and valid only between ocl_ctx_open and ocl_ctx_close: nothing on the
 * queue touches the buffer while it is mapped.  Elsewhere hctx is a
 * pinned copy, current when ctx_fresh (all of it) or ctx_fresh_cores
 * (what run() reads) says so.  The mirror's buffer is mapped except
 * during a one-step launch.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"
#include "engine-ocl.h"
#include "hostmem.h"
#include "ijvm.h"
#include "memmap.h"
#include "ocl-engine.h"
#include "ocl-level.h"
#include "ocl.h"

/* the mirror's layout (context.h) is struct core's */
_Static_assert(offsetof(struct core, pc) == CTX_HC_PC, "CTX_HC_PC");
_Static_assert(offsetof(struct core, sp) == CTX_HC_SP, "CTX_HC_SP");
_Static_assert(offsetof(struct core, lv) == CTX_HC_LV, "CTX_HC_LV");
_Static_assert(offsetof(struct core, tos) == CTX_HC_TOS, "CTX_HC_TOS");
_Static_assert(offsetof(struct core, status) == CTX_HC_STATUS,
    "CTX_HC_STATUS");
_Static_assert(offsetof(struct core, fault) == CTX_HC_FAULT,
    "CTX_HC_FAULT");
_Static_assert(offsetof(struct core, fault_pc) == CTX_HC_FAULT_PC,
    "CTX_HC_FAULT_PC");
_Static_assert(offsetof(struct core, fault_op) == CTX_HC_FAULT_OP,
    "CTX_HC_FAULT_OP");
_Static_assert(offsetof(struct core, steps) == CTX_HC_STEPS,
    "CTX_HC_STEPS");
_Static_assert(offsetof(struct core, fork) == CTX_HC_FORK, "CTX_HC_FORK");
_Static_assert(sizeof(struct core) == CTX_HC_BYTES, "CTX_HC_BYTES");

double
ocl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
is_memory_error(cl_int err)
{
	return err == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
	    err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY ||
	    err == CL_INVALID_BUFFER_SIZE;
}

static char *
memory_message(const struct ocl_engine *o, const char *detail)
{
	return xasprintf("not enough device memory for %u cores: lower "
	    "--cores or --stack-words (%s)", o->ncores, detail);
}

/* A device call's failure as a message that says what to do: memory
 * failures what to lower, the others that the device is at fault
 * (doc/architecture.md, "When the device fails"). */
char *
ocl_cl_failure(struct ocl_engine *o, const char *call, cl_int err)
{
	char *msg, *full;

	o->stats.failures++;
	if (!is_memory_error(err))
		return ocl_device_failure(call, err);
	msg = ocl_error(call, err);
	full = memory_message(o, msg);
	free(msg);
	return full;
}

int
ocl_mkbuf(struct ocl_engine *o, cl_mem *b, size_t bytes, cl_mem_flags fl,
    char **cause)
{
	cl_int err;

	if (bytes == 0)
		bytes = 4;
	*b = clCreateBuffer(o->cl, fl, bytes, NULL, &err);
	if (err != CL_SUCCESS) {
		*b = NULL;
		*cause = ocl_cl_failure(o, "clCreateBuffer", err);
		return -1;
	}
	return 0;
}

int
ocl_write_buf(struct ocl_engine *o, cl_mem b, size_t off, size_t bytes,
    const void *p, char **cause)
{
	if (bytes == 0)
		return 0;
	TRY(o, clEnqueueWriteBuffer(o->q, b, CL_TRUE, off, bytes, p, 0, NULL,
	    NULL), "clEnqueueWriteBuffer");
	return 0;
}

int
ocl_read_buf(struct ocl_engine *o, cl_mem b, size_t off, size_t bytes, void *p,
    char **cause)
{
	if (bytes == 0)
		return 0;
	TRY(o, clEnqueueReadBuffer(o->q, b, CL_TRUE, off, bytes, p, 0, NULL,
	    NULL), "clEnqueueReadBuffer");
	return 0;
}

/* ---- the host view of the context ------------------------------------
 * ocl_ctx_open makes hctx usable (maps it on zero-copy devices), ocl_ctx_put
 * sends words edited in it (nothing to send when mapped: unmapping
 * does), ocl_ctx_close gives the buffer back to the queue, ocl_ctx_fetch makes
 * hctx hold what the device has. */

static int
ctx_map(struct ocl_engine *o, char **cause)
{
	cl_int err;
	void *p;

	p = clEnqueueMapBuffer(o->q, o->b_ctx, CL_TRUE, CL_MAP_READ |
	    CL_MAP_WRITE, 0, o->ctx_words * 4, 0, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clEnqueueMapBuffer", err);
		return -1;
	}
	o->hctx = p;
	o->mapped = 1;
	return 0;
}

int
ocl_ctx_open(struct ocl_engine *o, char **cause)
{
	if (o->zero_copy && !o->mapped)
		return ctx_map(o, cause);
	return 0;
}

int
ocl_ctx_close(struct ocl_engine *o, char **cause)
{
	if (!o->zero_copy || !o->mapped)
		return 0;
	o->mapped = 0;
	TRY(o, clEnqueueUnmapMemObject(o->q, o->b_ctx, o->hctx, 0, NULL, NULL),
	    "clEnqueueUnmapMemObject");
	o->hctx = NULL;
	return 0;
}

/* The mirror's buffer back to the host (blocking: after the launch that
 * wrote it), or to the device before a one-step launch. */
int
ocl_mirror_map(struct ocl_engine *o, char **cause)
{
	cl_int err;
	void *p;

	if (!o->mirror || o->hmirror != NULL)
		return 0;
	p = clEnqueueMapBuffer(o->q, o->b_mirror, CL_TRUE, CL_MAP_READ |
	    CL_MAP_WRITE, 0, (size_t)o->ncores * sizeof(struct core), 0, NULL,
	    NULL, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clEnqueueMapBuffer", err);
		return -1;
	}
	o->hmirror = p;
	return 0;
}

int
ocl_mirror_unmap(struct ocl_engine *o, char **cause)
{
	if (o->hmirror == NULL)
		return 0;
	TRY(o, clEnqueueUnmapMemObject(o->q, o->b_mirror, o->hmirror, 0, NULL,
	    NULL), "clEnqueueUnmapMemObject");
	o->hmirror = NULL;
	return 0;
}

/* After a failure between ocl_mirror_unmap and ocl_mirror_map: m->cores back
 * to the host, which goes on reading it; the failure already reported
 * is the one that counts. */
void
ocl_mirror_reclaim(struct ocl_engine *o)
{
	char *ignored = NULL;

	if (ocl_mirror_map(o, &ignored) != 0)
		free(ignored);
}

/*
 * The mirror: a buffer over m->cores, mapped.  POCL uses the host's
 * memory as it is (mapping returns m->cores and copies nothing, and the
 * kernel's writes land there); an implementation that kept a
 * copy would copy on every map and unmap, which is right, only slower.
 * Without the buffer the one-step program converts as the others do.
 */
int
ocl_mirror_make(struct ocl_engine *o, char **cause)
{
	cl_int err;

	o->b_mirror = clCreateBuffer(o->cl, CL_MEM_READ_WRITE |
	    CL_MEM_USE_HOST_PTR, (size_t)o->ncores * sizeof(struct core),
	    o->m->cores, &err);
	if (err != CL_SUCCESS) {
		o->b_mirror = NULL;
		o->mirror = 0;
		return 0;
	}
	return ocl_mirror_map(o, cause);
}

int
ocl_ctx_put(struct ocl_engine *o, size_t word, size_t nwords, char **cause)
{
	if (o->zero_copy)
		return 0;
	return ocl_write_buf(o, o->b_ctx, word * 4, nwords * 4, o->hctx + word,
	    cause);
}

int
ocl_ctx_fetch(struct ocl_engine *o, char **cause)
{
	if (o->zero_copy)
		return ocl_ctx_open(o, cause);
	if (o->ctx_fresh)
		return 0;
	if (ocl_read_buf(o, o->b_ctx, 0, o->ctx_words * 4, o->hctx, cause) != 0)
		return -1;
	o->ctx_fresh = o->ctx_fresh_cores = 1;
	return 0;
}

/* The per-core fields run() reads (conversion, news, ocl_launch_end, input
 * and output), low to high; the micro levels' extra registers follow. */
static const uint8_t run_fields[] = {
	CTX_C_PC, CTX_C_SP, CTX_C_LV, CTX_C_TOS, CTX_C_STATUS, CTX_C_FAULT,
	CTX_C_FAULT_PC, CTX_C_FAULT_OP, CTX_C_STEPS_LO, CTX_C_STEPS_HI,
	CTX_C_STOP_STEP, CTX_C_EVENT_STEP, CTX_C_LAST_STEP, CTX_C_OUT_LEN,
	CTX_C_IN_POS, CTX_C_FORK,
	CTX_C_CPP, CTX_C_OPC, CTX_C_H, CTX_C_MAR, CTX_C_MDR, CTX_C_MBR,
	CTX_C_MPC, CTX_C_N, CTX_C_Z, CTX_C_CYCLES_LO, CTX_C_CYCLES_HI,
};
#define RUN_FIELDS_ISA 16

/*
 * What run() reads of the context after launches: the header, the
 * fields of run_fields, the level's section and the block marks.  On
 * SoA each field is one span of the buffer, so a copied context reads
 * about half of the core blocks (the ISA level) and none of the warp
 * records, which only engine_ocl_warps wants (ocl_ctx_fetch).  On AoS (a
 * copied context there is a test setting) it is the whole context.
 */
int
ocl_ctx_fetch_cores(struct ocl_engine *o, char **cause)
{
	size_t nf = o->lv->all_fields ? sizeof run_fields : RUN_FIELDS_ISA;
	size_t npad = o->field_stride;
	cl_int err = CL_SUCCESS;

	if (o->zero_copy || o->core_stride != 1)
		return ocl_ctx_fetch(o, cause);
	if (o->ctx_fresh || o->ctx_fresh_cores)
		return 0;
	/* non-blocking reads, one wait: the queue is in order */
#define RD(off, n) do { \
	if (err == CL_SUCCESS && (n) > 0) \
		err = clEnqueueReadBuffer(o->q, o->b_ctx, CL_FALSE, \
		    (size_t)(off) * 4, (size_t)(n) * 4, o->hctx + (off), 0, \
		    NULL, NULL); \
} while (0)
	RD(0, CTX_HEADER_WORDS);
	for (size_t i = 0; i < nf; i++)
		RD(o->cores_off + run_fields[i] * npad, o->ncores);
	RD(o->sec_off, (size_t)o->lv->section_fields * npad);
	RD(o->blocks_off, 2 * (size_t)o->nblocks);
#undef RD
	if (err == CL_SUCCESS)
		err = clFinish(o->q);
	if (err != CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clEnqueueReadBuffer", err);
		return -1;
	}
	o->ctx_fresh_cores = 1;
	return 0;
}

/* hctx must be open. */
int
ocl_write_core_field(struct ocl_engine *o, uint32_t c, uint32_t f, uint32_t v,
    char **cause)
{
	size_t w = CORE_WORD(o, c, f);

	o->hctx[w] = v;
	return ocl_ctx_put(o, w, 1, cause);
}

/*
 * The stacks shared with the host (struct ocl_engine shared_stacks): the
 * buffers use m->stacks, whose pages the machine maps zeroed (machine.c),
 * one buffer per chunk of cores where one would exceed the device's
 * largest allocation.  Shared only where mapping a buffer gives back
 * m->stacks itself: an implementation that copied would make every
 * host read stale.  0 with shared_stacks set or not, -1 + *cause on a
 * device failure.
 */
int
ocl_share_stacks(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;
	size_t sw = m->cfg.stack_words, per = sw * 4, cc;
	cl_int err;

	o->shared_stacks = 0;
	/* where the device's memory is the host's, the stacks are shared */
	if (!o->zero_copy || o->interleaved)
		return 0;
	cc = o->mem.max_alloc / (per ? per : 1) / o->wg * o->wg;
	if (cc == 0)
		return 0;
	if (cc > o->gsize)
		cc = o->gsize;
	o->chunk_cores = (uint32_t)cc;
	o->nchunks = (uint32_t)((o->ncores + cc - 1) / cc);
	o->chunks = xcalloc(o->nchunks, sizeof *o->chunks);
	for (uint32_t i = 0; i < o->nchunks; i++) {
		size_t first = (size_t)i * cc, n = o->ncores - first;
		int32_t *host = m->stacks + first * sw;
		void *p;

		if (n > cc)
			n = cc;
		o->chunks[i] = clCreateBuffer(o->cl, CL_MEM_READ_WRITE |
		    CL_MEM_USE_HOST_PTR, n * per, host, &err);
		if (err != CL_SUCCESS) {
			o->chunks[i] = NULL;
			break;
		}
		p = clEnqueueMapBuffer(o->q, o->chunks[i], CL_TRUE,
		    CL_MAP_READ | CL_MAP_WRITE, 0, n * per, 0, NULL, NULL,
		    &err);
		if (err != CL_SUCCESS)
			break;
		err = clEnqueueUnmapMemObject(o->q, o->chunks[i], p, 0, NULL,
		    NULL);
		if (err == CL_SUCCESS)
			err = clFinish(o->q);
		if (err != CL_SUCCESS || p != host) {
			err = CL_INVALID_VALUE;
			break;
		}
	}
	if (err != CL_SUCCESS) {
		for (uint32_t i = 0; i < o->nchunks; i++)
			if (o->chunks[i] != NULL)
				clReleaseMemObject(o->chunks[i]);
		free(o->chunks);
		o->chunks = NULL;
		o->nchunks = 0;
		if (o->stack_words_total * 4 > o->mem.max_alloc) {
			char *detail = xasprintf("%.0f MiB of stacks in one "
			    "buffer, the device allows %.0f MiB",
			    (double)o->stack_words_total / 262144.0,
			    (double)o->mem.max_alloc / 1048576.0);

			*cause = memory_message(o, detail);
			free(detail);
			return -1;
		}
		return 0;
	}
	o->b_stacks = o->chunks[0];
	o->shared_stacks = 1;
	return 0;
}

/*
 * Enqueue a step kernel (the step loop's or the one-step one) over every
 * core: at once, or, with chunked shared stacks, a chunk at a time, each
 * launch with its chunk's buffer and the chunk's first core as global
 * offset (launch.h LAUNCH_STACK).  The in-order queue runs the chunks
 * one after another; they share the context, so a stop word lowered by
 * one chunk's cores cuts the later chunks' too, and a cut that an
 * earlier chunk overshot is replayed as any drift is (ocl-ckpt.c).
 */
int
ocl_enqueue_run(struct ocl_engine *o, cl_kernel k, char **cause)
{
	size_t local = o->wg;

	if (o->nchunks <= 1) {
		TRY(o, clEnqueueNDRangeKernel(o->q, k, 1, NULL, &o->gsize,
		    &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
		return 0;
	}
	for (uint32_t i = 0; i < o->nchunks; i++) {
		size_t off = (size_t)i * o->chunk_cores, n = o->gsize - off;

		if (n > o->chunk_cores)
			n = o->chunk_cores;
		TRY(o, clSetKernelArg(k, 1, sizeof(cl_mem), &o->chunks[i]),
		    "clSetKernelArg");
		TRY(o, clEnqueueNDRangeKernel(o->q, k, 1, &off, &n, &local, 0,
		    NULL, NULL), "clEnqueueNDRangeKernel");
	}
	return 0;
}

/*
 * Stacks not shared with the host as the words in use of each core
 * (slen[c] of them, core after core in words), the form of history
 * snapshots: the device clears the buffer and gets only those words,
 * a row of every core at a time on the interleaved layout.  A million
 * shallow stacks cost a few rows, not a copy of every stack.
 */
int
ocl_put_stacks(struct ocl_engine *o, const uint32_t *slen,
    const int32_t *words, char **cause)
{
	size_t sw = o->m->cfg.stack_words, n = o->ncores, used = 0, at = 0;
	uint32_t zero = 0;
	cl_int err = CL_SUCCESS;
	int32_t *t;

	for (size_t c = 0; c < n; c++)
		used = slen[c] > used ? slen[c] : used;
	TRY(o, clEnqueueFillBuffer(o->q, o->b_stacks, &zero, sizeof zero, 0,
	    o->stack_words_total * 4, 0, NULL, NULL), "clEnqueueFillBuffer");
	if (used == 0)
		return 0;
	if (!o->interleaved) {
		/* blocked (a copied CPU layout, tests): a write per core */
		for (size_t c = 0; c < n && err == CL_SUCCESS; c++) {
			if (slen[c] > 0)
				err = clEnqueueWriteBuffer(o->q, o->b_stacks,
				    CL_FALSE, c * sw * 4, slen[c] * 4ul,
				    words + at, 0, NULL, NULL);
			at += slen[c];
		}
		if (err == CL_SUCCESS)
			err = clFinish(o->q);
		TRY(o, err, "clEnqueueWriteBuffer");
		return 0;
	}
	t = calloc(used * n, 4);
	if (t == NULL) {
		*cause = xasprintf("not enough host memory to upload the "
		    "stacks: lower --cores or --stack-words");
		return -1;
	}
	for (size_t c = 0; c < n; c++) {
		for (size_t w = 0; w < slen[c]; w++)
			t[w * n + c] = words[at + w];
		at += slen[c];
	}
	err = ocl_write_buf(o, o->b_stacks, 0, used * n * 4, t, cause);
	free(t);
	return err == 0 ? 0 : -1;
}

/* One more than the highest non-zero stack word of any core, found on
 * the device (launch.h launch_stack_used). */
static int
stacks_used(struct ocl_engine *o, uint32_t *used, char **cause)
{
	cl_uint n = o->ncores, sw = o->m->cfg.stack_words;
	size_t g = (o->ncores + 63) / 64 * 64;
	cl_int err;

	*used = 0;
	if (o->k_used == NULL) {
		o->k_used = clCreateKernel(o->prog, "launch_stack_used", &err);
		if (err != CL_SUCCESS) {
			o->k_used = NULL;
			*cause = ocl_cl_failure(o, "clCreateKernel", err);
			return -1;
		}
		if (ocl_mkbuf(o, &o->b_used, 4, CL_MEM_READ_WRITE, cause) != 0)
			return -1;
	}
	if (ocl_write_buf(o, o->b_used, 0, 4, used, cause) != 0)
		return -1;
	TRY(o, clSetKernelArg(o->k_used, 0, sizeof o->b_stacks, &o->b_stacks),
	    "clSetKernelArg");
	TRY(o, clSetKernelArg(o->k_used, 1, sizeof n, &n), "clSetKernelArg");
	TRY(o, clSetKernelArg(o->k_used, 2, sizeof sw, &sw), "clSetKernelArg");
	TRY(o, clSetKernelArg(o->k_used, 3, sizeof o->b_used, &o->b_used),
	    "clSetKernelArg");
	TRY(o, clEnqueueNDRangeKernel(o->q, o->k_used, 1, NULL, &g, NULL, 0,
	    NULL, NULL), "clEnqueueNDRangeKernel");
	return ocl_read_buf(o, o->b_used, 0, 4, used, cause);
}

/* The stacks as ocl_put_stacks takes them, read from the device: the
 * rows in use only.  *words is malloc'd. */
int
ocl_get_stacks(struct ocl_engine *o, uint32_t *slen, int32_t **words,
    size_t *nwords, char **cause)
{
	size_t sw = o->m->cfg.stack_words, n = o->ncores, total = 0;
	uint32_t used;
	cl_int err = CL_SUCCESS;
	int32_t *t, *out;

	*words = NULL;
	*nwords = 0;
	if (stacks_used(o, &used, cause) != 0)
		return -1;
	t = malloc((used ? used : 1) * n * 4);
	if (t == NULL) {
		*cause = xasprintf("not enough host memory to read the stacks: "
		    "lower --cores or --stack-words");
		return -1;
	}
	/* t: word w of core c at w * n + c (interleaved), c * used + w */
	if (used > 0 && o->interleaved)
		err = clEnqueueReadBuffer(o->q, o->b_stacks, CL_FALSE, 0,
		    used * n * 4, t, 0, NULL, NULL);
	for (size_t c = 0; used > 0 && !o->interleaved && c < n &&
	    err == CL_SUCCESS; c++)
		err = clEnqueueReadBuffer(o->q, o->b_stacks, CL_FALSE,
		    c * sw * 4, used * 4ul, t + c * used, 0, NULL, NULL);
	if (err == CL_SUCCESS)
		err = clFinish(o->q);
	if (err != CL_SUCCESS) {
		free(t);
		*cause = ocl_cl_failure(o, "clEnqueueReadBuffer", err);
		return -1;
	}
#define T(c, w) (o->interleaved ? t[(w) * n + (c)] : t[(c) * used + (w)])
	for (size_t c = 0; c < n; c++) {
		uint32_t k = used;

		while (k > 0 && T(c, k - 1) == 0)
			k--;
		slen[c] = k;
		total += k;
	}
	out = malloc((total ? total : 1) * sizeof *out);
	if (out == NULL) {
		free(t);
		*cause = xasprintf("not enough host memory to read the stacks: "
		    "lower --cores or --stack-words");
		return -1;
	}
	total = 0;
	for (size_t c = 0; c < n; c++)
		for (uint32_t w = 0; w < slen[c]; w++)
			out[total++] = T(c, w);
#undef T
	free(t);
	*words = out;
	*nwords = total;
	return 0;
}

/* The host's stacks to the device: nothing to send when shared; else
 * as the words in use (ocl_put_stacks), or whole on the blocked layout,
 * where they are one copy. */
int
ocl_upload_stacks(struct ocl_engine *o, char **cause)
{
	const struct machine *m = o->m;
	size_t sw = m->cfg.stack_words, n = o->ncores, total = 0;
	uint32_t *slen;
	int32_t *w;
	int rc;

	if (o->shared_stacks)
		return 0;
	if (!o->interleaved)
		return ocl_write_buf(o, o->b_stacks, 0,
		    o->stack_words_total * 4, m->stacks, cause);
	slen = xcalloc(n, sizeof *slen);
	machine_stacks_used(m, slen);
	for (size_t c = 0; c < n; c++)
		total += slen[c];
	w = xcalloc(total ? total : 1, sizeof *w);
	total = 0;
	for (size_t c = 0; c < n; c++) {
		memcpy(w + total, m->stacks + c * sw, slen[c] * sizeof *w);
		total += slen[c];
	}
	rc = ocl_put_stacks(o, slen, w, cause);
	free(w);
	free(slen);
	return rc;
}

int
ocl_download_stacks(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;
	size_t sw = m->cfg.stack_words, n = o->stack_words_total;
	int32_t *t;
	int rc;

	if (o->shared_stacks) {
		TRY(o, clFinish(o->q), "clFinish");
		return 0;
	}
	if (!o->interleaved)
		return ocl_read_buf(o, o->b_stacks, 0, n * 4, m->stacks, cause);
	t = malloc(n * 4);
	if (t == NULL) {
		*cause = xasprintf("not enough host memory to read the stacks: "
		    "lower --cores or --stack-words");
		return -1;
	}
	rc = ocl_read_buf(o, o->b_stacks, 0, n * 4, t, cause);
	if (rc == 0)
		for (size_t c = 0; c < o->ncores; c++)
			for (size_t w = 0; w < sw; w++)
				m->stacks[c * sw + w] = t[CTX_STACK_INDEX(1, c,
				    w, (size_t)o->ncores, sw)];
	free(t);
	return rc;
}

int
ocl_copy_buf(struct ocl_engine *o, cl_mem from, cl_mem to, size_t bytes,
    char **cause)
{
	TRY(o, clEnqueueCopyBuffer(o->q, from, to, 0, 0, bytes, 0, NULL, NULL),
	    "clEnqueueCopyBuffer");
	return 0;
}

size_t
ocl_heap_bytes(const struct ocl_engine *o)
{
	return (size_t)(o->m->cfg.heap_words ? o->m->cfg.heap_words : 1) * 4;
}

void
ocl_release_all(struct ocl_engine *o)
{
	cl_mem *bufs[] = {
		&o->b_ctx, &o->b_stacks, &o->b_globals, &o->b_heap, &o->b_text,
		&o->b_cp, &o->b_progs, &o->b_out, &o->b_in, &o->b_bps,
		&o->b_mask, &o->c_ctx, &o->c_stacks, &o->c_globals, &o->c_heap,
		&o->b_side, &o->b_trace, &o->b_tslot,
	};

	/* the context outlives the engine (ocl_shared_context): what the
	 * queue still holds must be done before the memory it uses goes */
	if (o->q != NULL)
		(void)clFinish(o->q);
	/* chunks[0] is b_stacks, released with the others */
	for (uint32_t i = 1; i < o->nchunks; i++)
		clReleaseMemObject(o->chunks[i]);
	free(o->chunks);
	if (o->b_mirror != NULL) {
		if (o->hmirror != NULL)
			(void)clEnqueueUnmapMemObject(o->q, o->b_mirror,
			    o->hmirror, 0, NULL, NULL);
		(void)clFinish(o->q);
		clReleaseMemObject(o->b_mirror);
	}
	if (!o->zero_copy) {
		ocl_pinned_free(o, o->b_host, o->hctx);
		o->hctx = NULL;
	}
	ocl_pinned_free(o, o->b_trhost, o->tr_host);
	o->tr_host = NULL;
	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
		if (*bufs[i] != NULL) {
			if (bufs[i] == &o->b_ctx && o->mapped)
				(void)clEnqueueUnmapMemObject(o->q, o->b_ctx,
				    o->hctx, 0, NULL, NULL);
			clReleaseMemObject(*bufs[i]);
		}
	if (o->kern != NULL)
		clReleaseKernel(o->kern);
	if (o->k_used != NULL)
		clReleaseKernel(o->k_used);
	if (o->b_used != NULL)
		clReleaseMemObject(o->b_used);
	if (o->kern1 != NULL)
		clReleaseKernel(o->kern1);
	if (o->fold1 != NULL)
		clReleaseKernel(o->fold1);
	if (o->prog1 != NULL)
		clReleaseProgram(o->prog1);
	if (o->prog != NULL)
		clReleaseProgram(o->prog);
	if (o->q != NULL)
		clReleaseCommandQueue(o->q);
	if (o->cl != NULL)
		clReleaseContext(o->cl);
	free(o->devname);
	free(o->seen);
	free(o->stat);
	free(o->stale);
	free(o->bp_words);
	free(o->mask_host);
	free(o->in_cores);
	free(o->in_dirty);
	free(o->in_listed);
	free(o->outbuf);
	free(o->ck.out_cores);
	free(o->ck.out_len);
	free(o->ck.out_listed);
	free(o->ck.in_pos);
	free(o->ck.slen);
	free(o->ck.stack);
	free(o->warps);
	if (o->lv != NULL && o->lv->free_state != NULL && o->st != NULL)
		o->lv->free_state(o->st);
	free(o);
}

static uint32_t
clamp_u32(uint64_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : (uint32_t)v;
}

/* The sizes that follow from a machine's config and a device. */
struct geometry {
	uint32_t	wg;          /* work-group size */
	uint32_t	nwarps;
	uint32_t	nblocks;     /* block marks (context.h) */
	uint64_t	npad;        /* cores rounded up to whole groups */
	uint32_t	out_cap, in_cap;
	uint64_t	ctx_bytes, stack_bytes;
	int		interleaved; /* the GPU's stack layout */
};

static void
geometry(const struct machine_config *cfg, const struct ocl_tuning *t,
    size_t maxwg, uint32_t sec_fields, struct geometry *g)
{
	uint32_t n = cfg->ncores, W = cfg->warp_width, target = t->wg_target;

	/* Work-groups hold whole warps (the divergence records need
	 * local memory per warp), about the table's target. */
	g->wg = W * (W >= target ? 1 : target / W);
	while (g->wg > maxwg && g->wg > W)
		g->wg -= W;
	/* A machine of less than a warp: no idle lanes to carry. */
	if (n < W)
		g->wg = n;
	else if (g->wg > n)
		g->wg = (n + W - 1) / W * W;
	g->nwarps = (n + W - 1) / W;
	g->npad = ((uint64_t)n + g->wg - 1) / g->wg * g->wg;
	g->nblocks = (uint32_t)((g->npad + CTX_BLOCK_CORES - 1) >>
	    CTX_BLOCK_SHIFT);
	g->ctx_bytes = 4 * ((uint64_t)CTX_HEADER_WORDS + g->npad *
	    CTX_CORE_FIELDS + (uint64_t)g->nwarps * CTX_WARP_WORDS(W) +
	    g->npad * sec_fields + 2ull * g->nblocks + g->npad);
	g->stack_bytes = 4 * (uint64_t)n * cfg->stack_words;
	/* Interleaved indices are 32-bit in the kernel: the largest,
	 * stack_words * ncores - 1, must fit, which 2^32 words (a million
	 * cores of the default 4,096 words) still does. */
	g->interleaved = t->gpu_layout &&
	    g->stack_bytes / 4 <= (uint64_t)UINT32_MAX + 1;
	g->out_cap = clamp_u32((16u << 20) / n, 16, 65536) & ~3u;
	g->in_cap = clamp_u32((1u << 20) / n, 16, 4096) & ~3u;
	/* Testing: tiny areas, so that cores fill them within a launch. */
	if (t->io_cap > 0)
		g->out_cap = g->in_cap = t->io_cap;
}

void
engine_ocl_mem_need(const struct machine_config *cfg,
    const struct program *const *progs, size_t nprogs, int gpu,
    size_t max_wg, struct ocl_mem_need *need)
{
	uint64_t text = TEXT_PAD;

	engine_ocl_mem_need_fields(cfg, progs, nprogs, gpu, max_wg, 0, need);
	for (size_t i = 0; i < nprogs; i++)
		text += progs[i]->text_size;
	need->shared += PREDEC_ENTRY_BYTES * PREDEC_ENTRIES(text, nprogs);
}

void
engine_ocl_mem_need_fields(const struct machine_config *cfg,
    const struct program *const *progs, size_t nprogs, int gpu,
    size_t max_wg, uint32_t sec_fields, struct ocl_mem_need *need)
{
	struct geometry g;
	struct ocl_tuning t;
	uint64_t text = 0;
	char *cause = NULL;

	/* a bad MICDB_OCL_TEST is refused when the engine is created */
	if (ocl_tuning_init(&t, gpu, !gpu, 0, &cause) != 0)
		free(cause);
	geometry(cfg, &t, max_wg ? max_wg : 1, sec_fields, &g);
	/* text as ocl_upload_programs pads it */
	text = TEXT_PAD;
	for (size_t i = 0; i < nprogs; i++)
		text += progs[i]->text_size +
		    4ull * progs[i]->cp_size + 4ull * CTX_PROG_WORDS;
	need->ctx = g.ctx_bytes;
	need->stacks = g.stack_bytes;
	need->io = (uint64_t)cfg->ncores * (g.out_cap + g.in_cap + 1);
	need->shared = 4ull * MM_GLOBALS_WORDS + 4ull * cfg->heap_words +
	    text;
	need->ckpt = g.ctx_bytes + g.stack_bytes + 4ull * MM_GLOBALS_WORDS +
	    4ull * cfg->heap_words;
	need->host = (uint64_t)cfg->ncores * g.out_cap +
	    (gpu ? g.ctx_bytes : 0);
	need->stacks_shared = t.zero_copy && !g.interleaved;
}

void
ocl_mem_limit(const struct ocl_tuning *t, uint64_t global_mem,
    uint64_t max_alloc, struct ocl_mem_limit *lim)
{
	struct hostmem h;
	char *cause = NULL;

	/* tests: "too big" without filling the host for real */
	if (t->device_mib > 0) {
		const uint64_t cap = t->device_mib << 20;

		if (global_mem > cap)
			global_mem = cap;
		if (max_alloc > cap)
			max_alloc = cap;
	}
	if (t->alloc_kib > 0 && max_alloc > t->alloc_kib << 10)
		max_alloc = t->alloc_kib << 10;
	lim->max_alloc = max_alloc;
	lim->host.host = 1;
	if (hostmem_probe(NULL, &h, &cause) == 0) {
		lim->host.bytes = h.bytes;
		lim->host.name = h.name;
	} else {
		/* no /proc (not Linux): the device's own figure stands */
		free(cause);
		lim->host.bytes = UINT64_MAX;
		lim->host.name = "the host's memory";
	}
	if (t->host_mib > 0 && lim->host.bytes > t->host_mib << 20) {
		lim->host.bytes = t->host_mib << 20;
		lim->host.name = "MICDB_OCL_TEST host_mib";
	}
	if (t->zero_copy && lim->host.bytes != UINT64_MAX) {
		lim->buffers = lim->host;
	} else {
		lim->buffers.bytes = global_mem;
		lim->buffers.name = "the device's global memory";
		lim->buffers.host = 0;
	}
}

void
engine_ocl_mem_limit(int gpu, uint64_t global_mem, uint64_t max_alloc,
    struct ocl_mem_limit *lim)
{
	struct ocl_tuning t;
	char *cause = NULL;

	/* a bad MICDB_OCL_TEST is refused when the engine is created */
	if (ocl_tuning_init(&t, gpu, !gpu, 0, &cause) != 0)
		free(cause);
	ocl_mem_limit(&t, global_mem, max_alloc, lim);
}

char *
engine_ocl_mem_refusal(const struct ocl_mem_bound *b, uint32_t ncores,
    uint64_t need)
{
	char n[32], l[32];

	if (need <= b->bytes)
		return NULL;
	hostmem_size(need, n, sizeof n);
	hostmem_size(b->bytes, l, sizeof l);
	if (b->host)
		return xasprintf("not enough memory for %u cores: %s needed, "
		    "the host can give %s (%s): lower --cores, --stack-words "
		    "or --heap-words", ncores, n, l, b->name);
	return xasprintf("not enough device memory for %u cores: %s needed, "
	    "%s is %s: lower --cores, --stack-words or --heap-words", ncores,
	    n, b->name, l);
}

/* Choose layouts and sizes; check them against the device. */
int
ocl_plan(struct ocl_engine *o, const struct ocl_device *d, char **cause)
{
	const struct machine *m = o->m;
	const int gpu_layout = o->tune.gpu_layout;
	uint64_t total, npad, stack_bytes, ctx_bytes;
	size_t maxwg = d->max_wg ? d->max_wg : 1;
	struct geometry g;

	geometry(&m->cfg, &o->tune, maxwg, o->lv->section_fields, &g);
	o->ncores = m->cfg.ncores;
	o->W = m->cfg.warp_width;
	o->nwarps = g.nwarps;
	o->wg = g.wg;
	if (o->wg > maxwg) {
		*cause = xasprintf("the device runs work-groups of at most %zu "
		    "work-items, fewer than the warp width %u: lower "
		    "--warp-width", maxwg, o->W);
		return -1;
	}
	npad = g.npad;
	o->gsize = (size_t)npad;
	if (gpu_layout) {
		o->core_stride = 1;
		o->field_stride = (uint32_t)npad;
	} else {
		o->core_stride = CTX_CORE_FIELDS;
		o->field_stride = 1;
	}
	o->cores_off = CTX_HEADER_WORDS;
	ctx_bytes = g.ctx_bytes;
	o->warps_off = (uint32_t)(CTX_HEADER_WORDS + npad * CTX_CORE_FIELDS);
	o->sec_off = (uint32_t)(o->warps_off +
	    (uint64_t)o->nwarps * CTX_WARP_WORDS(o->W));
	o->blocks_off = (uint32_t)(o->sec_off +
	    npad * o->lv->section_fields);
	o->nblocks = g.nblocks;
	o->steprec_off = o->blocks_off + 2 * o->nblocks;
	stack_bytes = g.stack_bytes;
	o->interleaved = g.interleaved;
	o->out_cap = g.out_cap;
	o->in_cap = g.in_cap;
	total = ctx_bytes + stack_bytes + 4ull * MM_GLOBALS_WORDS +
	    4ull * m->cfg.heap_words +
	    (uint64_t)o->ncores * (o->out_cap + o->in_cap + 1);
	if (ctx_bytes / 4 >= UINT32_MAX) {
		*cause = memory_message(o, "the context buffer would need more "
		    "than 2^32 words");
		return -1;
	}
	/* Shared stacks are cut into chunks the device can allocate
	 * (ocl_share_stacks): only the context must fit in one. */
	if ((stack_bytes > o->mem.max_alloc && !(o->zero_copy &&
	    !o->interleaved)) ||
	    ctx_bytes > o->mem.max_alloc) {
		char *detail = xasprintf("%.0f MiB of stacks in one buffer, the "
		    "device allows %.0f MiB", (double)stack_bytes / 1048576.0,
		    (double)o->mem.max_alloc / 1048576.0);

		*cause = memory_message(o, detail);
		free(detail);
		return -1;
	}
	/* the buffers in all, where they live (ocl_mem_limit) */
	if ((*cause = engine_ocl_mem_refusal(&o->mem.buffers, o->ncores,
	    total)) != NULL)
		return -1;
	o->ctx_words = (size_t)(ctx_bytes / 4);
	o->stack_words_total = (size_t)(stack_bytes / 4);
	return 0;
}

/*
 * Zeroed host memory of bytes that read-backs fill at the device's
 * speed: pinned (a mapped CL_MEM_ALLOC_HOST_PTR buffer, *buf) where the
 * device can give it, else plain (*buf NULL); NULL when there is none.
 * A read into pageable memory goes through the driver's staging copies
 * (doc/performance.md section 25.4).  Zeroing also faults its pages in
 * now rather than in the first read-back.
 */
void *
ocl_pinned_alloc(struct ocl_engine *o, size_t bytes, cl_mem *buf)
{
	cl_int err;
	void *p;

	*buf = clCreateBuffer(o->cl, CL_MEM_READ_WRITE |
	    CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
	if (err == CL_SUCCESS) {
		p = clEnqueueMapBuffer(o->q, *buf, CL_TRUE, CL_MAP_READ |
		    CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
		if (err == CL_SUCCESS) {
			memset(p, 0, bytes);
			return p;
		}
		clReleaseMemObject(*buf);
	}
	*buf = NULL;
	return calloc(bytes, 1);
}

void
ocl_pinned_free(struct ocl_engine *o, cl_mem buf, void *p)
{
	if (buf == NULL) {
		free(p);
		return;
	}
	if (p != NULL)
		(void)clEnqueueUnmapMemObject(o->q, buf, p, 0, NULL, NULL);
	(void)clFinish(o->q);
	clReleaseMemObject(buf);
}

/* The host copy of the context on a device that is not zero-copy (see
 * hctx), pinned where the device can give it. */
int
ocl_host_copy(struct ocl_engine *o)
{
	o->hctx = ocl_pinned_alloc(o, o->ctx_words * 4, &o->b_host);
	return o->hctx != NULL ? 0 : -1;
}
