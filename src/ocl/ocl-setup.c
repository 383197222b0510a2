/*
 * The engine's creation (ocl-engine.h), at the top of the engine's
 * files: the device's tuning table filled (ocl-tuning.c), the kernels
 * built (the step program, and the one-step program where the level has
 * one), the buffers made, the programs uploaded (and predecoded for the
 * ISA level) and the machine written to the device.
 *
 * Invariant: a failed creation releases everything it made and says why
 * in *cause.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context.h"
#include "engine-ocl.h"
#include "memmap.h"
#include "ocl-engine.h"
#include "ocl-level.h"
#include "ocl.h"
#include "par.h"
#include "tracebuf.h"

/* ---- creation --------------------------------------------------------- */

static int
ocl_upload_programs(struct ocl_engine *o, char **cause)
{
	const struct machine *m = o->m;
	size_t tlen = 0, cplen = 0;
	uint8_t *text;
	int32_t *cp;
	uint32_t *pt;
	int rc = -1;

	/* TEXT_PAD: see engine_ocl_mem_need */
	for (size_t i = 0; i < m->nprogs; i++) {
		tlen += m->progs[i]->text_size;
		cplen += m->progs[i]->cp_size;
	}
	tlen += TEXT_PAD;
	text = xcalloc(tlen, 1);
	cp = xcalloc(cplen ? cplen : 1, sizeof *cp);
	pt = xcalloc(m->nprogs * CTX_PROG_WORDS, sizeof *pt);
	tlen = cplen = 0;
	for (size_t i = 0; i < m->nprogs; i++) {
		const struct program *p = m->progs[i];
		uint32_t *e = &pt[i * CTX_PROG_WORDS];

		e[CTX_P_TEXT_OFF] = (uint32_t)tlen;
		e[CTX_P_TEXT_SIZE] = p->text_size;
		e[CTX_P_CP_OFF] = (uint32_t)cplen;
		e[CTX_P_CP_SIZE] = p->cp_size;
		e[CTX_P_MAIN_NLOCALS] = p->main_nlocals;
		if (p->text_size)
			memcpy(text + tlen, p->text, p->text_size);
		if (p->cp_size)
			memcpy(cp + cplen, p->cp, p->cp_size * sizeof *cp);
		tlen += p->text_size;
		cplen += p->cp_size;
	}
	tlen += TEXT_PAD;
	o->text_bytes = tlen;
	if (ocl_mkbuf(o, &o->b_text, tlen, CL_MEM_READ_ONLY, cause) == 0 &&
	    ocl_mkbuf(o, &o->b_cp, cplen * 4, CL_MEM_READ_ONLY, cause) == 0 &&
	    ocl_mkbuf(o, &o->b_progs, m->nprogs * CTX_PROG_WORDS * 4,
	    CL_MEM_READ_ONLY, cause) == 0 &&
	    ocl_write_buf(o, o->b_text, 0, tlen, text, cause) == 0 &&
	    ocl_write_buf(o, o->b_cp, 0, cplen * 4, cp, cause) == 0 &&
	    ocl_write_buf(o, o->b_progs, 0, m->nprogs * CTX_PROG_WORDS * 4, pt,
	    cause) == 0)
		rc = 0;
	free(text);
	free(cp);
	free(pt);
	return rc;
}

static const struct ocl_level isa_level;

/* Whether the device's compiler is NVIDIA's (its build options, and the
 * kernels' inline PTX). */
static int
is_nvidia(const struct ocl_device *d)
{
	char ext[8192];

	return clGetDeviceInfo(d->device, CL_DEVICE_EXTENSIONS, sizeof ext,
	    ext, NULL) == CL_SUCCESS &&
	    strstr(ext, "cl_nv_compiler_options") != NULL;
}

/* The build options every program of the engine shares: the geometry,
 * and the tuning table's kernel choices. */
static char *
build_options(const struct ocl_engine *o)
{
	const struct ocl_tuning *t = &o->tune;
	char *isa, *opts;

	/* the ISA kernel's own: dispatch, vote, register cap */
	if (o->lv != &isa_level)
		isa = xstrdup("");
	else if (t->isa_maxrreg > 0)
		isa = xasprintf(" -DMICDB_ISA_PRED=%d -DMICDB_ISA_VOTE=%d "
		    "-cl-nv-maxrregcount=%d", t->isa_template, t->isa_vote,
		    t->isa_maxrreg);
	else
		isa = xasprintf(" -DMICDB_ISA_PRED=%d -DMICDB_ISA_VOTE=%d",
		    t->isa_template, t->isa_vote);
	/* the prefetch serves the CPU layout only */
	opts = xasprintf("-DMICDB_WARP_W=%u -DMICDB_WG_SIZE=%u "
	    "-DMICDB_STACK_INTERLEAVED=%d -DMICDB_PREFETCH=%d "
	    "-DMICDB_DIV_WARPSYNC=%d%s", o->W, o->wg, o->interleaved,
	    o->interleaved ? 0 : t->prefetch, t->warpsync, isa);
	free(isa);
	return opts;
}

/* The step kernel's arguments: the buffers, then the level's section
 * offset and scalars; *next (if not NULL) gets the index after them, a
 * traced build's first own one (launch.h LAUNCH_TRACE_ARGS). */
static int
set_run_args(struct ocl_engine *o, cl_kernel k, cl_uint *next, char **cause)
{
	cl_mem *args[12];
	cl_uint nargs = 11;

	args[0] = &o->b_ctx;
	args[1] = &o->b_stacks;
	args[2] = &o->b_globals;
	args[3] = &o->b_heap;
	args[4] = &o->b_text;
	args[5] = &o->b_cp;
	args[6] = &o->b_progs;
	args[7] = &o->b_out;
	args[8] = &o->b_in;
	args[9] = &o->b_bps;
	args[10] = &o->b_mask;
	if (o->b_side != NULL)
		args[nargs++] = &o->b_side;
	for (cl_uint i = 0; i < nargs; i++)
		TRY(o, clSetKernelArg(k, i, sizeof(cl_mem), args[i]),
		    "clSetKernelArg");
	if (o->lv->section_fields > 0) {
		cl_uint v[1 + OCL_MAX_SCALARS], n = 1;

		v[0] = o->sec_off;
		if (o->lv->scalars != NULL)
			n += o->lv->scalars(o->st, v + 1);
		for (cl_uint i = 0; i < n; i++)
			TRY(o, clSetKernelArg(k, nargs + i, sizeof v[i],
			    &v[i]), "clSetKernelArg");
		nargs += n;
	}
	/* only the one-step program writes it (MICDB_HOST_MIRROR) */
	if (o->lv->mirror) {
		const cl_mem *mb = k == o->kern1 && o->mirror ? &o->b_mirror :
		    NULL;

		TRY(o, clSetKernelArg(k, nargs, sizeof(cl_mem), mb),
		    "clSetKernelArg");
		nargs++;
	}
	if (next != NULL)
		*next = nargs;
	return 0;
}

/* The one-step program's kernels (see struct ocl_engine), once the
 * buffers exist. */
static int
step1_kernels(struct ocl_engine *o, char **cause)
{
	cl_int err;

	o->fold1 = clCreateKernel(o->prog1, o->lv->fold1_name, &err);
	if (err != CL_SUCCESS) {
		o->fold1 = NULL;
		*cause = ocl_cl_failure(o, "clCreateKernel", err);
		return -1;
	}
	o->kern1 = clCreateKernel(o->prog1, o->lv->kernel_name, &err);
	if (err != CL_SUCCESS) {
		o->kern1 = NULL;
		*cause = ocl_cl_failure(o, "clCreateKernel", err);
		return -1;
	}
	TRY(o, clSetKernelArg(o->fold1, 0, sizeof o->b_ctx, &o->b_ctx),
	    "clSetKernelArg");
	return set_run_args(o, o->kern1, NULL, cause);
}

/*
 * A trace through the engine (engine.h trace_start, launch.h's
 * MICDB_TRACE, doc/performance.md section 25.1): the step loop is built
 * again with the trace buffer's fill, and replaces the untraced build for
 * the engine's life; the one-step program is not used any more (its fold
 * keeps no per-step counters).  Every level: a traced core's words are
 * its level's (tracebuf.h TB_CORE_WORDS, doc/performance.md section
 * 25.2).
 */
static int
ocl_trace_start(struct engine *e, const uint32_t *list, uint32_t n,
    uint32_t *max_steps, char **cause)
{
	struct ocl_engine *o = e->impl;
	cl_device_id dev;
	cl_program prog = NULL;
	cl_kernel kern = NULL;
	cl_uint next;
	cl_int err;
	uint32_t *slot;
	char *opts, *full;
	const uint32_t cw = TB_CORE_WORDS(o->lv->level != LEVEL_ISA);
	size_t sw = TB_STEP_WORDS((size_t)o->nwarps, (size_t)n, cw), cap;
	int rc = -1;

	if (!o->tune.trace || o->W > 255 || sw * 4 > OCL_TRACE_BYTES) {
		*cause = xasprintf("the %s engine keeps no trace records here",
		    o->lv->name);
		return -1;
	}
	cap = OCL_TRACE_BYTES / (sw * 4);
	cap = cap > o->tune.trace_steps ? o->tune.trace_steps : cap;
	TRY(o, clGetCommandQueueInfo(o->q, CL_QUEUE_DEVICE, sizeof dev, &dev,
	    NULL), "clGetCommandQueueInfo");
	opts = build_options(o);
	full = xasprintf("%s -DMICDB_DIVERGENCE=1 -DMICDB_TRACE=1", opts);
	free(opts);
	err = ocl_build(o->cl, dev, o->lv->kernel_file, full, &prog, cause);
	free(full);
	if (err != 0)
		return -1;
	kern = clCreateKernel(prog, o->lv->kernel_name, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clCreateKernel", err);
		kern = NULL;
		goto out;
	}
	if (ocl_mkbuf(o, &o->b_trace, cap * sw * 4, CL_MEM_READ_WRITE,
	    cause) != 0 || ocl_mkbuf(o, &o->b_tslot, (size_t)o->ncores * 4,
	    CL_MEM_READ_ONLY, cause) != 0)
		goto out;
	/* every launch reads its records into it (doc/performance.md
	 * section 25.4) */
	o->tr_host = ocl_pinned_alloc(o, cap * sw * 4, &o->b_trhost);
	if (o->tr_host == NULL) {
		*cause = xasprintf("not enough host memory for the trace "
		    "records of %u cores: lower --cores", o->ncores);
		goto out;
	}
	slot = xmalloc((size_t)o->ncores * sizeof *slot);
	memset(slot, 0xFF, (size_t)o->ncores * sizeof *slot);
	for (uint32_t i = 0; i < n; i++)
		slot[list[i]] = i;
	err = ocl_write_buf(o, o->b_tslot, 0, (size_t)o->ncores * 4, slot,
	    cause);
	free(slot);
	if (err != 0 || set_run_args(o, kern, &next, cause) != 0)
		goto out;
	if ((err = clSetKernelArg(kern, next, sizeof o->b_trace,
	    &o->b_trace)) != CL_SUCCESS ||
	    (err = clSetKernelArg(kern, next + 1, sizeof o->b_tslot,
	    &o->b_tslot)) != CL_SUCCESS ||
	    (err = clSetKernelArg(kern, next + 2, sizeof n, &n)) !=
	    CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clSetKernelArg", err);
		goto out;
	}
	clReleaseKernel(o->kern);
	clReleaseProgram(o->prog);
	o->kern = kern;
	o->prog = prog;
	kern = NULL;
	prog = NULL;
	o->tracing = 1;
	o->tr_cores = n;
	o->tr_cw = cw;
	o->tr_sw = (uint32_t)sw;
	o->tr_cap = (uint32_t)cap;
	*max_steps = (uint32_t)cap;
	rc = 0;
out:
	if (kern != NULL)
		clReleaseKernel(kern);
	if (prog != NULL)
		clReleaseProgram(prog);
	return rc;
}

/*
 * The side buffer of a level whose kernel file predecodes the text
 * (ocl_level.predec_name): PREDEC_ENTRIES entries, filled by that kernel
 * once.
 */
static int
predecode(struct ocl_engine *o, char **cause)
{
	const cl_uint nprogs = (cl_uint)o->m->nprogs;
	const cl_uint n = (cl_uint)PREDEC_ENTRIES(o->text_bytes, nprogs);
	const cl_uint sw = o->m->cfg.stack_words;
	const size_t gsize = n;
	cl_kernel k;
	cl_int err;
	int rc = -1;

	if (ocl_mkbuf(o, &o->b_side, (size_t)n * PREDEC_ENTRY_BYTES,
	    CL_MEM_READ_WRITE, cause) != 0)
		return -1;
	k = clCreateKernel(o->prog, o->lv->predec_name, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clCreateKernel", err);
		return -1;
	}
	if ((err = clSetKernelArg(k, 0, sizeof o->b_text, &o->b_text)) !=
	    CL_SUCCESS ||
	    (err = clSetKernelArg(k, 1, sizeof o->b_cp, &o->b_cp)) !=
	    CL_SUCCESS ||
	    (err = clSetKernelArg(k, 2, sizeof o->b_progs, &o->b_progs)) !=
	    CL_SUCCESS ||
	    (err = clSetKernelArg(k, 3, sizeof nprogs, &nprogs)) !=
	    CL_SUCCESS ||
	    (err = clSetKernelArg(k, 4, sizeof n, &n)) != CL_SUCCESS ||
	    (err = clSetKernelArg(k, 5, sizeof sw, &sw)) != CL_SUCCESS ||
	    (err = clSetKernelArg(k, 6, sizeof o->b_side, &o->b_side)) !=
	    CL_SUCCESS)
		*cause = ocl_cl_failure(o, "clSetKernelArg", err);
	else if ((err = clEnqueueNDRangeKernel(o->q, k, 1, NULL, &gsize,
	    NULL, 0, NULL, NULL)) != CL_SUCCESS)
		*cause = ocl_cl_failure(o, "clEnqueueNDRangeKernel", err);
	else if ((err = clFinish(o->q)) != CL_SUCCESS)
		*cause = ocl_cl_failure(o, "clFinish", err);
	else
		rc = 0;
	clReleaseKernel(k);
	return rc;
}

static int
setup(struct ocl_engine *o, const struct ocl_device *d, char **cause)
{
	struct machine *m = o->m;
	cl_int err;
	char *opts, *full;
	uint32_t *hdr;

	o->cl = ocl_shared_context(d->device, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clCreateContext", err);
		o->cl = NULL;
		return -1;
	}
	o->q = clCreateCommandQueue(o->cl, d->device, 0, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clCreateCommandQueue", err);
		o->q = NULL;
		return -1;
	}
	/* One-step launches run a build without the step loop, where the
	 * level has its fold kernel. */
	o->step1 = o->lv->fold1_name != NULL;
	o->mirror = o->step1 && o->lv->mirror && o->zero_copy &&
	    o->tune.mirror;
	if (o->mirror && ocl_mirror_make(o, cause) != 0)
		return -1;
	opts = build_options(o);
	full = xasprintf("%s -DMICDB_DIVERGENCE=1", opts);
	err = ocl_build(o->cl, d->device, o->lv->kernel_file, full, &o->prog,
	    cause);
	free(full);
	if (err == 0 && o->step1) {
		full = xasprintf("%s -DMICDB_DIVERGENCE=2 "
		    "-DMICDB_HOST_MIRROR=%d", opts, o->mirror);
		err = ocl_build(o->cl, d->device, o->lv->kernel_file, full,
		    &o->prog1, cause);
		free(full);
	}
	free(opts);
	if (err != 0)
		return -1;
	o->kern = clCreateKernel(o->prog, o->lv->kernel_name, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_cl_failure(o, "clCreateKernel", err);
		o->kern = NULL;
		return -1;
	}

	/* Buffers; the big ones first so that "too big" fails early. */
	if (ocl_share_stacks(o, cause) != 0 || (!o->shared_stacks &&
	    ocl_mkbuf(o, &o->b_stacks, o->stack_words_total * 4,
	    CL_MEM_READ_WRITE, cause) != 0) ||
	    ocl_mkbuf(o, &o->b_ctx, o->ctx_words * 4, CL_MEM_READ_WRITE |
	    (o->zero_copy ? CL_MEM_ALLOC_HOST_PTR : 0), cause) != 0 ||
	    ocl_mkbuf(o, &o->b_globals, MM_GLOBALS_WORDS * 4, CL_MEM_READ_WRITE,
	    cause) != 0 ||
	    ocl_mkbuf(o, &o->b_heap, ocl_heap_bytes(o), CL_MEM_READ_WRITE,
	    cause) != 0 ||
	    ocl_mkbuf(o, &o->b_out, (size_t)o->ncores * o->out_cap,
	    CL_MEM_READ_WRITE, cause) != 0 ||
	    ocl_mkbuf(o, &o->b_in, (size_t)o->ncores * o->in_cap,
	    CL_MEM_READ_ONLY, cause) != 0 ||
	    ocl_mkbuf(o, &o->b_bps, 4 * o->lv->bp_words, CL_MEM_READ_ONLY,
	    cause) != 0 ||
	    ocl_mkbuf(o, &o->b_mask, o->ncores, CL_MEM_READ_ONLY, cause) != 0)
		return -1;
	o->bp_cap = o->lv->bp_words;
	if (ocl_upload_programs(o, cause) != 0)
		return -1;
	if (o->lv->side != NULL) {
		size_t n;
		const void *p = o->lv->side(o->st, &n);

		if (ocl_mkbuf(o, &o->b_side, n, CL_MEM_READ_ONLY, cause) != 0 ||
		    ocl_write_buf(o, o->b_side, 0, n, p, cause) != 0)
			return -1;
	} else if (o->lv->predec_name != NULL && predecode(o, cause) != 0)
		return -1;

	/* The context: header, cores, zeroed warp records. */
	if (o->zero_copy) {
		if (ocl_ctx_open(o, cause) != 0)
			return -1;
		memset(o->hctx, 0, o->ctx_words * 4);
	} else if (ocl_host_copy(o) != 0) {
		*cause = xasprintf("not enough host memory for the context of "
		    "%u cores: lower --cores", o->ncores);
		return -1;
	}
	hdr = o->hctx;
	hdr[CTX_H_MAGIC] = CTX_MAGIC;
	hdr[CTX_H_NCORES] = o->ncores;
	hdr[CTX_H_STACK_WORDS] = m->cfg.stack_words;
	hdr[CTX_H_HEAP_WORDS] = m->cfg.heap_words;
	hdr[CTX_H_WARP_W] = o->W;
	hdr[CTX_H_NWARPS] = o->nwarps;
	hdr[CTX_H_CORE_STRIDE] = o->core_stride;
	hdr[CTX_H_FIELD_STRIDE] = o->field_stride;
	hdr[CTX_H_CORES_OFF] = o->cores_off;
	hdr[CTX_H_WARPS_OFF] = o->warps_off;
	hdr[CTX_H_OUT_CAP] = o->out_cap;
	hdr[CTX_H_IN_CAP] = o->in_cap;
	hdr[CTX_H_NPROGS] = (uint32_t)m->nprogs;
	hdr[CTX_H_STACK_LAYOUT] = (uint32_t)o->interleaved;
	hdr[CTX_H_BLOCKS_OFF] = o->blocks_off;
	hdr[CTX_H_NBLOCKS] = o->nblocks;
	hdr[CTX_H_STEPREC_OFF] = o->steprec_off;
	hdr[CTX_H_HEAP_TOP] = m->heap_top;
	o->stat = xcalloc(o->ncores, 1);
	o->stale = xcalloc(o->nblocks, 1);
	ocl_cores_to_ctx(o);
	if (ocl_ctx_put(o, 0, o->ctx_words, cause) != 0 ||
	    ocl_upload_stacks(o, cause) != 0 ||
	    ocl_write_buf(o, o->b_globals, 0, MM_GLOBALS_WORDS * 4, m->globals,
	    cause) != 0 ||
	    ocl_write_buf(o, o->b_heap, 0, (size_t)m->cfg.heap_words * 4,
	    m->heap, cause) != 0)
		return -1;

	if (set_run_args(o, o->kern, NULL, cause) != 0 ||
	    (o->step1 && step1_kernels(o, cause) != 0))
		return -1;

	o->seen = xcalloc(o->ncores, 1);
	/* Faults from before (another level) are not news. */
	for (uint32_t c = 0; c < o->ncores && o->lv->old_faults_seen; c++)
		if (m->cores[c].status == CORE_ERROR)
			o->seen[c] = 1;
	o->mask_host = xcalloc(o->ncores, 1);
	o->in_listed = xcalloc(o->ncores, 1);
	o->outbuf = malloc((size_t)o->ncores * o->out_cap);
	if (o->outbuf == NULL) {
		*cause = xasprintf("not enough host memory for the output "
		    "areas of %u cores: lower --cores", o->ncores);
		return -1;
	}
	/* the checkpoint's buffers are set-up, not part of a run */
	(void)ocl_ckpt_alloc(o);
	o->k_adapt = K_START;
	o->k_fixed = o->tune.steps;
	/* Input that was given before the engine existed. */
	for (uint32_t c = 0; c < o->ncores; c++) {
		if (m->io[c].in_len <= m->io[c].in_pos)
			continue;
		o->in_listed[c] = 1;
		o->in_cores = xreallocarray(o->in_cores, o->n_in_cores + 1,
		    sizeof *o->in_cores);
		o->in_dirty = xrealloc(o->in_dirty, o->n_in_cores + 1);
		o->in_dirty[o->n_in_cores] = 1;
		o->in_cores[o->n_in_cores++] = c;
	}
	return 0;
}

/* The ISA level: the kernel writes a few fields of struct core and has
 * no state of its own. */
static const struct ocl_level isa_level = {
	.name = "opencl",
	.level = LEVEL_ISA,
	.kernel_file = "isa.cl",
	.kernel_name = "isa_run",
	.fold1_name = "isa_fold1",
	.predec_name = "isa_predec",
	.bp_words = CTX_BP_WORDS,
	.bp_on = ENGINE_BP_ON_PC,
	.mirror = 1,
};

int
engine_ocl_create(struct engine *e, struct machine *m,
    const char *device_sel, char **cause)
{
	return ocl_engine_create(e, m, &isa_level, NULL, device_sel, cause);
}

int
engine_ocl_device_props(const char *device_sel, int *cpu, uint32_t *units,
    uint32_t *group)
{
	struct ocl_devices l = { NULL, 0 };
	char *cause = NULL;
	size_t di;
	int rc = -1;

	if (ocl_devices_list(&l, &cause) == 0 && ocl_devices_select(&l,
	    device_sel, &di, &cause) == 0) {
		*cpu = (l.dev[di].type & CL_DEVICE_TYPE_CPU) != 0;
		*units = l.dev[di].compute_units;
		*group = (l.dev[di].type & CL_DEVICE_TYPE_GPU) ? OCL_WG_GPU :
		    OCL_WG_CPU;
		rc = 0;
	}
	free(cause);
	if (l.dev != NULL)
		ocl_devices_free(&l);
	return rc;
}

int
ocl_engine_create(struct engine *e, struct machine *m,
    const struct ocl_level *level, void *st, const char *device_sel,
    char **cause)
{
	struct ocl_devices l = { NULL, 0 };
	struct ocl_engine *o;
	struct ocl_device *d;
	size_t di;

	memset(e, 0, sizeof *e);
	if (ocl_devices_list(&l, cause) != 0 || ocl_devices_select(&l,
	    device_sel, &di, cause) != 0) {
		if (l.dev != NULL)
			ocl_devices_free(&l);
		if (level->free_state != NULL && st != NULL)
			level->free_state(st);
		return -1;
	}
	o = xcalloc(1, sizeof *o);
	o->m = m;
	o->lv = level;
	o->st = st;
	o->ops = ocl_engine_ops;
	o->ops.name = level->name;
	o->ops.level = level->level;
	o->ops.trace_start = ocl_trace_start;
	if (level->model != NULL) {
		o->ops.at_boundary = ocl_at_boundary;
		o->ops.level_state = ocl_level_state;
	}
	o->devname = xasprintf("%s / %s", l.dev[di].platform_name,
	    l.dev[di].name);
	d = &l.dev[di];
	if (ocl_tuning_init(&o->tune, (d->type & CL_DEVICE_TYPE_GPU) != 0,
	    (d->type & CL_DEVICE_TYPE_CPU) != 0, is_nvidia(d), cause) != 0) {
		ocl_devices_free(&l);
		ocl_release_all(o);
		return -1;
	}
	o->zero_copy = o->tune.zero_copy;
	ocl_mem_limit(&o->tune, d->global_mem, d->max_alloc, &o->mem);
	if (ocl_plan(o, &l.dev[di], cause) != 0 || setup(o, &l.dev[di],
	    cause) != 0) {
		ocl_devices_free(&l);
		ocl_release_all(o);
		return -1;
	}
	ocl_devices_free(&l);
	/* shared stacks are the host copy: snapshots read them there */
	if (o->shared_stacks) {
		o->ops.save_stacks = NULL;
		o->ops.load_stacks = NULL;
	}
	e->ops = &o->ops;
	e->m = m;
	e->impl = o;
	return 0;
}
