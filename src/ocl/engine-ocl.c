/*
 * The OpenCL engine (engine-ocl.h): the machine lives in device buffers,
 * a level's kernel (kernels/isa.cl, mic.cl, pmic.cl) steps every core,
 * the host copy (e->m) is refreshed from the context buffer where
 * launches changed it (block marks, below).  One host engine for every
 * level: what differs between levels (kernel, the per-core section after
 * the warp records, the control store, the host state such as struct
 * mic1_state, what a breakpoint compares) comes from a struct ocl_level
 * (ocl-level.h); the ISA level's is here, the micro levels' are in
 * engine-ocl-mic.c and engine-ocl-pmic.c.
 *
 * Buffers: the context (context.h: header, core blocks, warp records),
 * the stacks, the globals, the heap, the programs' text and constant
 * pools with a program table (read-only), per-core output and input
 * areas, the breakpoint table and the scheduler-locking mask.
 *
 * Launches and consistent cuts (manycore.md section 4).  A launch runs up
 * to K steps; K adapts so that the kernel runs 40-100 ms per launch (an
 * interrupt is seen within one launch), K = 1 when one step is asked
 * for.  The kernel cuts a launch short at the lowest boundary where a
 * core met a stop condition (stop_at), but cores that did not see that
 * word in time have run further: the host then restores a checkpoint and
 * replays, with the stop checks off, exactly up to the cut.  Only then
 * does it look at the stop, on the host copy and in the order
 * engine-ref.c uses (faults, every core done, breakpoints), so both
 * engines report the same reason, step and cores.
 *
 * Barriers complete between launches: a core that arrives stops for the
 * rest of its launch; when a launch ends with no core running and some
 * waiting, every core has stopped running by the largest step at which
 * one did (arrival, halt or fault), the barrier completes at that step,
 * exactly where the reference completes it, and the next launch releases
 * the waiting cores (CTX_F_RELEASE).
 *
 * Checkpoints: a device-side copy of the context, stacks, globals and
 * heap, with the host-side state that goes with it (step, output lengths,
 * input positions, a pending barrier release).  Its buffers are allocated
 * (and committed) when the engine is created.  One is taken before the
 * first launch of K > 1 of every run and refreshed when the launches
 * since the last one took more than CKPT_AGE seconds; one-step launches
 * never need one (a one-step launch cannot overshoot).  Output is
 * drained into m->io[].out after every launch and truncated back on a
 * restore; input positions are rewound.  This checkpoint + deterministic
 * replay is the mechanism reverse execution builds on: a ring of such
 * checkpoints, and replay from the nearest one to any earlier cut.  If
 * the device has no room for a checkpoint, every launch runs one step.
 *
 * Divergence records are kept in the context buffer by the kernel and
 * converted for engine_ocl_warps() on demand.
 *
 * Layouts, and every other choice that differs by device, are the
 * tuning table's (struct ocl_tuning): SoA context and interleaved stacks
 * on GPUs, AoS and blocked stacks on CPUs (context.h).
 *
 * Host work is proportional to what launches changed.  The kernels mark,
 * per block of 32 cores, the last launch in which one of them ran and
 * the last in which one had news (context.h block marks, written by
 * launch.h's LAUNCH_NOTE).  A launch with news reads only the statuses
 * (into stat, with cnt) and the stop, event and output words of its news
 * blocks; their registers wait, with everything else that ran, for the
 * one conversion at the end of run() (the blocks are marked stale), and
 * a barrier release changes stat alone.  Statuses stay exact on the
 * host, so cnt (cores per status) replaces ref_count, and launch_end,
 * drain_output, barrier release and any_runnable read the news blocks or
 * the counts (every core only when a stop cut the launch short, for the
 * overshoot check); a copied context reads back only what that needs
 * (SoA field spans, not the warp records); checkpoints list the cores
 * whose output grew.  A quiet launch reads back the header alone.
 *
 * On a CPU device a one-step launch leaves nothing to convert but its
 * news blocks: the one-step kernel writes the registers of the cores
 * that ran into m->cores itself (the mirror, struct ocl_engine).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "engine-ocl.h"
#include "ijvm.h"
#include "memmap.h"
#include "ocl-level.h"
#include "ocl.h"
#include "ref.h"

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
_Static_assert(sizeof(struct core) == CTX_HC_BYTES, "CTX_HC_BYTES");

#define CKPT_AGE        0.25    /* seconds of launches between checkpoints */
/* Adapt K to keep launches in this band.  K grows to about LAUNCH_MID_S:
 * with a lower floor K stayed wherever it first landed, and a launch's
 * fixed cost made the same workload run at different speeds. */
#define LAUNCH_MIN_S    0.04
#define LAUNCH_MAX_S    0.10
#define LAUNCH_MID_S    0.05
#define K_GROW          16      /* most K grows by after one launch */
#define K_START         64
#define K_MAX           (1u << 22)

struct ocl_ckpt {
	int		 valid;
	uint64_t	 step;            /* m->step it holds */
	uint32_t	 heap_top;        /* heap words it holds */
	int		 pending_release;
	/* Cores whose output grew since it was taken, with m->io[c].out.len
	 * then: a restore truncates those only. */
	uint32_t	*out_cores;
	size_t		*out_len;
	uint8_t		*out_listed;      /* per core: in out_cores */
	size_t		 nout, out_cap;
	size_t		*in_pos;          /* per input core */
	double		 age;             /* launch seconds since taken */
};

/* What the news blocks (context.h block marks) of the last launch that
 * had news hold: the lowest stop step, the highest event step, the span
 * of cores that wrote output. */
struct ocl_news {
	uint32_t	 cut, event;
	uint32_t	 out_lo, out_hi;  /* out_lo > out_hi: nobody wrote */
};

/*
 * The tuning table: every choice of how the engine runs that differs by
 * device, filled once at creation (ocl_tuning_init) from the device's
 * kind, and overridden only by MICDB_OCL_TEST (tests run every device's
 * paths on POCL).  Nothing else reads the environment.
 */
struct ocl_tuning {
	/* SoA context and interleaved stacks: a GPU warp's loads of one
	 * field are then one transaction; a CPU keeps a core's words on
	 * its cache lines (AoS, blocked stacks). */
	int		 gpu_layout;
	/* Map the context instead of copying it: a CPU device's memory is
	 * the host's. */
	int		 zero_copy;
	/* Work-items per group (whole warps): about 128 on a GPU for
	 * occupancy, 32 on a CPU, where POCL runs a group as loops between
	 * barriers. */
	uint32_t	 wg_target;
	/* Bytes of each core's output and input area; 0: by core count. */
	uint32_t	 io_cap;
	/* The ISA kernel's dispatch: the template group (isa.cl H_COMMON)
	 * on NVIDIA, where a divergent warp runs its simple opcodes in one
	 * pass; the switch elsewhere (POCL runs it faster). */
	int		 isa_template;
	/* isa.cl's chunk vote (inline PTX: NVIDIA only). */
	int		 isa_vote;
	/* NVIDIA's register cap for the ISA kernel (0: none): at 64 more
	 * warps fit an SM than at the compiler's own choice. */
	int		 isa_maxrreg;
	/* The records' fold (launch.h MICDB_DIV_WARPSYNC): 1 by NVIDIA's
	 * warp instructions, 0 between work-group barriers elsewhere; 2,
	 * for tests only, the warp fold through local memory. */
	int		 warpsync;
	/* isa.cl's software prefetch distance with the CPU layout on a CPU
	 * (a GPU's coalesced loads need none; NVIDIA refuses it). */
	int		 prefetch;
	/* The one-step program writes m->cores itself on a CPU device with
	 * a mapped context; on a GPU its writes would cross the bus. */
	int		 mirror;
	/* Host threads for conversions and news of at least convert_min
	 * cores. */
	uint32_t	 host_threads, convert_min;
	/* Tests only: fixed steps per launch (0: adapt), cores that ignore
	 * the stop word (CTX_F_DRIFT: cuts are replayed), a device of at
	 * most device_mib MiB (0: as it says). */
	uint64_t	 steps;
	int		 drift;
	uint64_t	 device_mib;
};

/* The table for a device of these kinds (nv: NVIDIA's compiler), with
 * MICDB_OCL_TEST's overrides; -1 with *cause if that is malformed (the
 * table then holds the defaults). */
int	ocl_tuning_init(struct ocl_tuning *t, int gpu, int cpu, int nv,
	    char **cause);

struct ocl_engine {
	struct machine		*m;
	const struct ocl_level	*lv;
	void			*st;      /* the level's host state */
	struct engine_ops	 ops;
	char			*devname;
	struct ocl_tuning	 tune;
	cl_ulong		 max_alloc;
	cl_ulong		 global_mem;
	cl_context		 cl;
	cl_command_queue	 q;
	cl_program		 prog;
	cl_kernel		 kern;
	/* One-step launches (K = 1) with the records, at a level that has
	 * them (ocl_level.fold1_name): a build of the kernel without the
	 * step loop's records, and its fold kernel (launch.h); step1 says
	 * whether there are such kernels. */
	cl_program		 prog1;
	cl_kernel		 kern1, fold1;
	int			 step1;
	/* The mirror (context.h CTX_HC_*): on a CPU device the one-step
	 * kernel writes the registers of the cores that ran into m->cores
	 * itself, through b_mirror, a buffer over m->cores, which the host
	 * keeps mapped but during such a launch.  It saves the conversion
	 * of every core that ran, which was a fifth of a one-step run's
	 * samples at 65,536 cores on POCL. */
	int			 mirror;
	cl_mem			 b_mirror;
	void			*hmirror;  /* mapped: m->cores; NULL: not */

	/* buffers; c_* are the checkpoint copies */
	cl_mem	 b_ctx, b_stacks, b_globals, b_heap, b_text, b_cp, b_progs;
	cl_mem	 b_out, b_in, b_bps, b_mask;
	cl_mem	 c_ctx, c_stacks, c_globals, c_heap;
	cl_mem	 b_side;          /* the level's read-only side buffer */
	size_t	 text_bytes;      /* of b_text, padding included */
	int	 ckpt_ok;         /* 1 allocated, 0 not yet, -1 impossible */

	/* geometry */
	uint32_t ncores, nwarps, W, wg;
	size_t	 gsize;           /* global size: ncores rounded up to wg */
	uint32_t core_stride, field_stride, cores_off, warps_off;
	uint32_t sec_off;         /* the level's section (ocl-level.h) */
	uint32_t blocks_off, nblocks;  /* block marks (context.h) */
	uint32_t steprec_off;          /* one-step records (context.h) */
	int	 interleaved;     /* stack layout */
	uint32_t out_cap, in_cap;
	size_t	 ctx_words, stack_words_total;

	/* The host view of the context.  On a CPU device the buffer is
	 * host memory (CL_MEM_ALLOC_HOST_PTR) and hctx is it, mapped
	 * (zero_copy): reading back copies nothing; hctx is valid only
	 * while mapped, and is unmapped before anything on the queue
	 * touches the buffer.  Elsewhere hctx is a copy in pinned host
	 * memory: b_host (CL_MEM_ALLOC_HOST_PTR), mapped for the engine's
	 * life, so that reads and writes of the context are DMA at the
	 * bus's speed (a pageable copy is several times slower).  It is a
	 * malloc'd copy only where the device cannot give pinned memory. */
	uint32_t *hctx;
	cl_mem	 b_host;
	int	 zero_copy, mapped;
	/* A copy (not zero_copy) that holds what the device has, no launch
	 * or restore since it was read: all of it (ctx_fresh), or the part
	 * that run() reads (ctx_fresh_cores, see ctx_fetch_cores). */
	int	 ctx_fresh, ctx_fresh_cores;
	/* The host copy m->cores, kept proportional to what launches
	 * change.  Between runs it is whole.  During a run the status of
	 * every core is exact in stat (a status changes only with news,
	 * whose blocks absorb_news reads, or at a barrier release), and so
	 * are cnt, the cores per status (no ref_count over a million cores
	 * per launch).  m->cores may be behind in the blocks that ran since
	 * launch id `since` (0: none did) and in the blocks marked stale
	 * (news read into stat only, or a release); every run() ends with
	 * those converted once (sync_cores), and so does anything that
	 * reads m->cores in between (converting news blocks at every
	 * launch converted a million cores several times a run). */
	uint32_t launch_id;       /* of the last launch, never 0 */
	uint32_t since;
	uint32_t cnt[4];          /* per enum core_status */
	uint8_t	*stat;            /* per core: its status, exact */
	uint8_t	*stale;           /* per block: m->cores behind */
	int	 any_stale;
	/* Conversions and news of at least tune.convert_min cores are split
	 * over tune.host_threads threads: one thread converting a million
	 * cores is a large part of a GPU's run. */
	struct ocl_news news;
	int	 quiet;           /* the last launch was quiet */
	uint32_t hdr[CTX_HEADER_WORDS];  /* staging for header words */

	/* run state */
	uint8_t	*seen;            /* faults already noted, as engine-ref */
	int	 pending_release; /* released on the host, not yet on device */
	uint64_t k_fixed;         /* 0: adapt */
	uint64_t k_adapt;

	/* breakpoint table and mask as last uploaded */
	uint32_t *bp_words;
	size_t	 bp_nwords, nbps, bp_cap;
	uint8_t	*mask_host;
	int	 mask_valid;

	/* cores that have had input: their areas are refreshed on demand */
	uint32_t *in_cores;
	uint8_t	*in_dirty;        /* per entry of in_cores */
	uint8_t	*in_listed;       /* per core */
	size_t	 n_in_cores;

	uint8_t	*outbuf;          /* staging for the output areas */

	struct ocl_ckpt ck;
	struct ocl_engine_stats stats;
	struct engine_warp_record *warps;
	int	 warps_fresh;
};

#define CORE_WORD(o, c, f) \
	((size_t)CTX_CORE_WORD((o)->cores_off, (o)->core_stride, \
	    (o)->field_stride, (size_t)(c), (size_t)(f)))
#define CF(o, c, f) ((o)->hctx[CORE_WORD(o, c, f)])

static double
now(void)
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

/* A device call's failure as a message; memory failures say what to do. */
static char *
cl_failure(const struct ocl_engine *o, const char *call, cl_int err)
{
	char *msg, *full;

	msg = ocl_error(call, err);
	if (!is_memory_error(err))
		return msg;
	full = memory_message(o, msg);
	free(msg);
	return full;
}

#define TRY(o, call, what) do { \
	cl_int err_ = (call); \
	if (err_ != CL_SUCCESS) { \
		*cause = cl_failure((o), (what), err_); \
		return -1; \
	} \
} while (0)

static int
mkbuf(struct ocl_engine *o, cl_mem *b, size_t bytes, cl_mem_flags fl,
    char **cause)
{
	cl_int err;

	if (bytes == 0)
		bytes = 4;
	*b = clCreateBuffer(o->cl, fl, bytes, NULL, &err);
	if (err != CL_SUCCESS) {
		*b = NULL;
		*cause = cl_failure(o, "clCreateBuffer", err);
		return -1;
	}
	return 0;
}

static int
write_buf(struct ocl_engine *o, cl_mem b, size_t off, size_t bytes,
    const void *p, char **cause)
{
	if (bytes == 0)
		return 0;
	TRY(o, clEnqueueWriteBuffer(o->q, b, CL_TRUE, off, bytes, p, 0, NULL,
	    NULL), "clEnqueueWriteBuffer");
	return 0;
}

static int
read_buf(struct ocl_engine *o, cl_mem b, size_t off, size_t bytes, void *p,
    char **cause)
{
	if (bytes == 0)
		return 0;
	TRY(o, clEnqueueReadBuffer(o->q, b, CL_TRUE, off, bytes, p, 0, NULL,
	    NULL), "clEnqueueReadBuffer");
	return 0;
}

/* ---- the host view of the context ------------------------------------
 * ctx_open makes hctx usable (maps it on zero-copy devices), ctx_put
 * sends words edited in it (nothing to send when mapped: unmapping
 * does), ctx_close gives the buffer back to the queue, ctx_fetch makes
 * hctx hold what the device has. */

static int
ctx_map(struct ocl_engine *o, char **cause)
{
	cl_int err;
	void *p;

	p = clEnqueueMapBuffer(o->q, o->b_ctx, CL_TRUE, CL_MAP_READ |
	    CL_MAP_WRITE, 0, o->ctx_words * 4, 0, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		*cause = cl_failure(o, "clEnqueueMapBuffer", err);
		return -1;
	}
	o->hctx = p;
	o->mapped = 1;
	return 0;
}

static int
ctx_open(struct ocl_engine *o, char **cause)
{
	if (o->zero_copy && !o->mapped)
		return ctx_map(o, cause);
	return 0;
}

static int
ctx_close(struct ocl_engine *o, char **cause)
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
static int
mirror_map(struct ocl_engine *o, char **cause)
{
	cl_int err;
	void *p;

	if (!o->mirror || o->hmirror != NULL)
		return 0;
	p = clEnqueueMapBuffer(o->q, o->b_mirror, CL_TRUE, CL_MAP_READ |
	    CL_MAP_WRITE, 0, (size_t)o->ncores * sizeof(struct core), 0, NULL,
	    NULL, &err);
	if (err != CL_SUCCESS) {
		*cause = cl_failure(o, "clEnqueueMapBuffer", err);
		return -1;
	}
	o->hmirror = p;
	return 0;
}

static int
mirror_unmap(struct ocl_engine *o, char **cause)
{
	if (o->hmirror == NULL)
		return 0;
	TRY(o, clEnqueueUnmapMemObject(o->q, o->b_mirror, o->hmirror, 0, NULL,
	    NULL), "clEnqueueUnmapMemObject");
	o->hmirror = NULL;
	return 0;
}

/* After a failure between mirror_unmap and mirror_map: m->cores back
 * to the host, which goes on reading it; the failure already reported
 * is the one that counts. */
static void
mirror_reclaim(struct ocl_engine *o)
{
	char *ignored = NULL;

	if (mirror_map(o, &ignored) != 0)
		free(ignored);
}

/*
 * The mirror: a buffer over m->cores, mapped.  POCL uses the host's
 * memory as it is (mapping returns m->cores and copies nothing, and the
 * kernel's writes land there: measured); an implementation that kept a
 * copy would copy on every map and unmap, which is right, only slower.
 * Without the buffer the one-step program converts as the others do.
 */
static int
mirror_make(struct ocl_engine *o, char **cause)
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
	return mirror_map(o, cause);
}

static int
ctx_put(struct ocl_engine *o, size_t word, size_t nwords, char **cause)
{
	if (o->zero_copy)
		return 0;
	return write_buf(o, o->b_ctx, word * 4, nwords * 4, o->hctx + word,
	    cause);
}

static int
ctx_fetch(struct ocl_engine *o, char **cause)
{
	if (o->zero_copy)
		return ctx_open(o, cause);
	if (o->ctx_fresh)
		return 0;
	if (read_buf(o, o->b_ctx, 0, o->ctx_words * 4, o->hctx, cause) != 0)
		return -1;
	o->ctx_fresh = o->ctx_fresh_cores = 1;
	return 0;
}

/* The per-core fields run() reads (conversion, news, launch_end, input
 * and output), low to high; the micro levels' extra registers follow. */
static const uint8_t run_fields[] = {
	CTX_C_PC, CTX_C_SP, CTX_C_LV, CTX_C_TOS, CTX_C_STATUS, CTX_C_FAULT,
	CTX_C_FAULT_PC, CTX_C_FAULT_OP, CTX_C_STEPS_LO, CTX_C_STEPS_HI,
	CTX_C_STOP_STEP, CTX_C_EVENT_STEP, CTX_C_LAST_STEP, CTX_C_OUT_LEN,
	CTX_C_IN_POS,
	CTX_C_CPP, CTX_C_OPC, CTX_C_H, CTX_C_MAR, CTX_C_MDR, CTX_C_MBR,
	CTX_C_MPC, CTX_C_N, CTX_C_Z, CTX_C_CYCLES_LO, CTX_C_CYCLES_HI,
};
#define RUN_FIELDS_ISA 15

/*
 * What run() reads of the context after launches: the header, the
 * fields of run_fields, the level's section and the block marks.  On
 * SoA each field is one span of the buffer, so a copied context reads
 * about half of the core blocks (the ISA level) and none of the warp
 * records, which only engine_ocl_warps wants (ctx_fetch).  On AoS (a
 * copied context there is a test setting) it is the whole context.
 */
static int
ctx_fetch_cores(struct ocl_engine *o, char **cause)
{
	size_t nf = o->lv->all_fields ? sizeof run_fields : RUN_FIELDS_ISA;
	size_t npad = o->field_stride;
	cl_int err = CL_SUCCESS;

	if (o->zero_copy || o->core_stride != 1)
		return ctx_fetch(o, cause);
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
		*cause = cl_failure(o, "clEnqueueReadBuffer", err);
		return -1;
	}
	o->ctx_fresh_cores = 1;
	return 0;
}

/* hctx must be open. */
static int
write_core_field(struct ocl_engine *o, uint32_t c, uint32_t f, uint32_t v,
    char **cause)
{
	size_t w = CORE_WORD(o, c, f);

	o->hctx[w] = v;
	return ctx_put(o, w, 1, cause);
}

/* ---- host copy <-> context ------------------------------------------- */

/* struct core <-> context fields.  A 64-bit counter is two entries, low
 * word first. */
static const struct core_field {
	uint8_t	f;        /* CTX_C_* */
	uint8_t	off;      /* offsetof(struct core, ...) */
	uint8_t	size;     /* bytes of the struct field */
	uint8_t	shift;    /* 32: the high word of a 64-bit field */
} core_fields[] = {
#define CFLD(f, m, sh) { f, offsetof(struct core, m), \
	sizeof(((struct core *)0)->m), sh }
	CFLD(CTX_C_PC, pc, 0),
	CFLD(CTX_C_SP, sp, 0),
	CFLD(CTX_C_LV, lv, 0),
	CFLD(CTX_C_CPP, cpp, 0),
	CFLD(CTX_C_TOS, tos, 0),
	CFLD(CTX_C_OPC, opc, 0),
	CFLD(CTX_C_H, h, 0),
	CFLD(CTX_C_MAR, mar, 0),
	CFLD(CTX_C_MDR, mdr, 0),
	CFLD(CTX_C_MBR, mbr, 0),
	CFLD(CTX_C_MPC, mpc, 0),
	CFLD(CTX_C_N, n, 0),
	CFLD(CTX_C_Z, z, 0),
	CFLD(CTX_C_STATUS, status, 0),
	CFLD(CTX_C_FAULT, fault, 0),
	CFLD(CTX_C_FAULT_PC, fault_pc, 0),
	CFLD(CTX_C_FAULT_OP, fault_op, 0),
	CFLD(CTX_C_PROG, prog, 0),
	CFLD(CTX_C_STEPS_LO, steps, 0),
	CFLD(CTX_C_STEPS_HI, steps, 32),
	CFLD(CTX_C_CYCLES_LO, cycles, 0),
	CFLD(CTX_C_CYCLES_HI, cycles, 32),
#undef CFLD
};
#define NCORE_FIELDS (sizeof core_fields / sizeof core_fields[0])

static uint32_t
field_get(const struct core *c, const struct core_field *d)
{
	const char *p = (const char *)c + d->off;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (d->size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	}
	memcpy(&v64, p, 8);
	return (uint32_t)(v64 >> d->shift);
}

static void
section(const struct ocl_engine *o, struct ocl_section *s)
{
	s->ctx = o->hctx;
	s->off = o->sec_off;
	s->core_stride = o->core_stride;
	s->field_stride = o->field_stride;
	s->nfields = o->lv->section_fields;
	s->ncores = o->ncores;
}

/* Core-major on AoS, field-major on SoA: both walk the context in
 * order, which matters at a million cores. */
static void
cores_to_ctx(struct ocl_engine *o)
{
	const struct core *k = o->m->cores;

	if (o->field_stride == 1) {
		for (uint32_t i = 0; i < o->ncores; i++)
			for (size_t j = 0; j < NCORE_FIELDS; j++)
				CF(o, i, core_fields[j].f) =
				    field_get(&k[i], &core_fields[j]);
	} else {
		for (size_t j = 0; j < NCORE_FIELDS; j++)
			for (uint32_t i = 0; i < o->ncores; i++)
				CF(o, i, core_fields[j].f) =
				    field_get(&k[i], &core_fields[j]);
	}
	if (o->lv->to_ctx != NULL) {
		struct ocl_section sec;

		section(o, &sec);
		o->lv->to_ctx(o->st, &sec);
	}
}

/* Recount cnt from the host copy (after host edits). */
static void
recount(struct ocl_engine *o)
{
	const struct core *k = o->m->cores;

	memset(o->cnt, 0, sizeof o->cnt);
	for (uint32_t i = 0; i < o->ncores; i++) {
		o->stat[i] = k[i].status;
		o->cnt[k[i].status & 3]++;
	}
}

/* Core c's status is st now, in stat and cnt. */
static inline void
set_stat(uint8_t *stat, uint32_t *cnt, uint32_t c, uint8_t st)
{
	if (st != stat[c]) {
		cnt[stat[c] & 3]--;
		cnt[st & 3]++;
		stat[c] = st;
	}
}

/* The status the host shows for device status v: a barrier release
 * that the device has not seen yet (the next launch does it) as done
 * already. */
static inline uint8_t
host_status(uint32_t v, int pending_release)
{
	return v == CORE_WAITING && pending_release ? CORE_RUNNING :
	    (uint8_t)v;
}

/*
 * Cores lo .. hi - 1 of the context into struct core and the level's
 * state, keeping cnt.  The fields the ISA kernel writes go straight into
 * struct core: the others (CPP, OPC, H, MAR, MDR, MBR, MPC, N, Z, PROG,
 * CYCLES) only the host writes at the ISA level, so its copy is already
 * right; a micro-level kernel writes them too (all_fields), and its
 * section.  One pointer per field and the strides in locals: in the
 * generic form (CORE_WORD per field, the engine's fields reloaded per
 * core, as struct core stores may alias them) this loop was most of a
 * one-step run at a million cores.  On SoA every field is a stream, on
 * AoS a core's block is two cache lines read in order.  hctx must be
 * open.
 */
static inline void
convert_cores(struct ocl_engine *o, uint32_t lo, uint32_t hi, const int all,
    uint32_t *restrict counts)
{
	struct core *restrict k = o->m->cores;
	const uint32_t *restrict x = o->hctx + o->cores_off;
	const size_t cs = o->core_stride, fs = o->field_stride;
#define FLD(f) const uint32_t *restrict f_##f = x + CTX_C_##f * fs
	FLD(PC); FLD(SP); FLD(LV); FLD(TOS); FLD(STATUS); FLD(FAULT);
	FLD(FAULT_PC); FLD(FAULT_OP); FLD(STEPS_LO); FLD(STEPS_HI);
	FLD(CPP); FLD(OPC); FLD(H); FLD(MAR); FLD(MDR); FLD(MBR); FLD(MPC);
	FLD(N); FLD(Z); FLD(CYCLES_LO); FLD(CYCLES_HI);
#undef FLD
	uint8_t *restrict stat = o->stat;
	const int release = o->pending_release;
	uint32_t cnt[4];

	memcpy(cnt, counts, sizeof cnt);
	for (size_t i = lo; i < hi; i++) {
		const size_t j = i * cs;
		struct core *c = &k[i];
		const uint8_t st = host_status(f_STATUS[j], release);

		set_stat(stat, cnt, (uint32_t)i, st);
		c->status = st;
		c->pc = (int32_t)f_PC[j];
		c->sp = (int32_t)f_SP[j];
		c->lv = (int32_t)f_LV[j];
		c->tos = (int32_t)f_TOS[j];
		c->fault = (uint8_t)f_FAULT[j];
		c->fault_pc = (int32_t)f_FAULT_PC[j];
		c->fault_op = (uint8_t)f_FAULT_OP[j];
		c->steps = (uint64_t)f_STEPS_HI[j] << 32 | f_STEPS_LO[j];
		if (!all)
			continue;
		c->cpp = (int32_t)f_CPP[j];
		c->opc = (int32_t)f_OPC[j];
		c->h = (int32_t)f_H[j];
		c->mar = (int32_t)f_MAR[j];
		c->mdr = (int32_t)f_MDR[j];
		c->mbr = (int32_t)f_MBR[j];
		c->mpc = (uint16_t)f_MPC[j];
		c->n = (uint8_t)f_N[j];
		c->z = (uint8_t)f_Z[j];
		c->cycles = (uint64_t)f_CYCLES_HI[j] << 32 | f_CYCLES_LO[j];
	}
	memcpy(counts, cnt, sizeof cnt);
}

/* 16: the processors of the GPU hosts the conversion was tuned on. */
#define CONV_THREADS_MAX 16

/* work(part) for t parts of size bytes each, parts 1 .. t - 1 on
 * threads of their own; one that cannot be started leaves its part to
 * this thread. */
static void
spread(uint32_t t, void *(*work)(void *), void *parts, size_t size)
{
	pthread_t th[CONV_THREADS_MAX];
	int started[CONV_THREADS_MAX] = { 0 };
	char *p = parts;

	for (uint32_t i = 1; i < t; i++)
		started[i] = pthread_create(&th[i], NULL, work,
		    p + i * size) == 0;
	work(p);
	for (uint32_t i = 1; i < t; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else
			work(p + i * size);
	}
}

/* A thread's share of a conversion; cnt gets its changes to the counts
 * (unsigned: a decrement below 0 wraps, and the sum comes out right). */
struct conv_part {
	struct ocl_engine *o;
	uint32_t	 lo, hi;
	uint32_t	 cnt[4];
};

static void *
convert_part(void *arg)
{
	struct conv_part *p = arg;

	/* one pass over struct core either way: all is a constant in each
	 * call, so each is a loop of its own */
	if (p->o->lv->all_fields)
		convert_cores(p->o, p->lo, p->hi, 1, p->cnt);
	else
		convert_cores(p->o, p->lo, p->hi, 0, p->cnt);
	return NULL;
}

static void
convert_range(struct ocl_engine *o, uint32_t lo, uint32_t hi)
{
	struct conv_part part[CONV_THREADS_MAX];
	uint32_t t = hi - lo >= o->tune.convert_min ? o->tune.host_threads : 1;

	if (t > hi - lo)
		t = hi - lo;
	if (t < 1)
		t = 1;
	for (uint32_t i = 0; i < t; i++) {
		part[i].o = o;
		part[i].lo = lo + (uint32_t)((uint64_t)(hi - lo) * i / t);
		part[i].hi = lo + (uint32_t)((uint64_t)(hi - lo) * (i + 1) / t);
		memset(part[i].cnt, 0, sizeof part[i].cnt);
	}
	spread(t, convert_part, part, sizeof part[0]);
	for (uint32_t i = 0; i < t; i++)
		for (int j = 0; j < 4; j++)
			o->cnt[j] += part[i].cnt[j];
	if (o->lv->from_ctx != NULL) {
		struct ocl_section sec;

		section(o, &sec);
		o->lv->from_ctx(o->st, &sec, lo, hi);
	}
}

/* Every core (a restore, where anything may have changed). */
static void
ctx_to_cores(struct ocl_engine *o)
{
	convert_range(o, 0, o->ncores);
	o->m->heap_top = o->hctx[CTX_H_HEAP_TOP];
	o->warps_fresh = 0;
	o->since = 0;
	memset(o->stale, 0, o->nblocks);
	o->any_stale = 0;
}

/* The block marks of array arr (CTX_B_*). */
static const uint32_t *
marks(const struct ocl_engine *o, uint32_t arr)
{
	return o->hctx + o->blocks_off + (size_t)arr * o->nblocks;
}

/* Is a mark from launch ids since .. launch_id (wrap-safe)? */
static int
mark_in(const struct ocl_engine *o, uint32_t mark, uint32_t since)
{
	return (uint32_t)(mark - since) <= (uint32_t)(o->launch_id - since);
}

/*
 * Which blocks a pass over the marks wants:
 *   NEWS_NOW  news in the last launch (absorb_news reads them);
 *   BEHIND    m->cores is behind: ran since launch `since` (0: none
 *             did), or marked stale.
 */
enum { NEWS_NOW, BEHIND };

static int
block_wanted(const struct ocl_engine *o, int what, uint32_t since,
    const uint32_t *ran, const uint32_t *news, uint32_t b)
{
	if (what == NEWS_NOW)
		return news[b] == o->launch_id;
	return o->stale[b] || (since != 0 && mark_in(o, ran[b], since));
}

/*
 * The next run of consecutive blocks from *b on, before block end, that
 * the pass `what` wants, as cores [*lo, *hi); 0 when there is none.
 * hctx must be open.
 */
static int
next_marked(const struct ocl_engine *o, int what, uint32_t since,
    uint32_t end, uint32_t *b, uint32_t *lo, uint32_t *hi)
{
	const uint32_t *ran = marks(o, CTX_B_RAN), *news = marks(o, CTX_B_NEWS);
	uint32_t i = *b, e;

	while (i < end && !block_wanted(o, what, since, ran, news, i))
		i++;
	if (i >= end)
		return 0;
	for (e = i + 1; e < end && block_wanted(o, what, since, ran, news, e);
	    e++)
		;
	*b = e;
	*lo = i << CTX_BLOCK_SHIFT;
	*hi = (uint64_t)e << CTX_BLOCK_SHIFT < o->ncores ?
	    e << CTX_BLOCK_SHIFT : o->ncores;
	return 1;
}

/* A thread's share of absorb_news: blocks b0 .. b1 - 1; cnt gets its
 * changes to the counts, as in struct conv_part. */
struct news_part {
	struct ocl_engine *o;
	uint32_t	 b0, b1;
	uint32_t	 cnt[4];
	uint32_t	 cut, event, out_lo, out_hi;
	int		 any;
};

static void *
absorb_part(void *arg)
{
	struct news_part *p = arg;
	struct ocl_engine *o = p->o;
	/* the fields as streams, in locals: stat's byte stores may alias
	 * anything, so CF() would reload the engine's fields per core */
	const uint32_t *restrict x = o->hctx + o->cores_off;
	const size_t cs = o->core_stride, fs = o->field_stride;
	const uint32_t *restrict f_st = x + CTX_C_STATUS * fs;
	const uint32_t *restrict f_stop = x + CTX_C_STOP_STEP * fs;
	const uint32_t *restrict f_ev = x + CTX_C_EVENT_STEP * fs;
	const uint32_t *restrict f_out = x + CTX_C_OUT_LEN * fs;
	const int release = o->pending_release;
	uint8_t *restrict stat = o->stat;
	uint32_t cnt[4] = { 0, 0, 0, 0 }, cut = CTX_NONE, event = 0;
	uint32_t out_lo = UINT32_MAX, out_hi = 0, b = p->b0, lo, hi;

	while (next_marked(o, NEWS_NOW, 0, p->b1, &b, &lo, &hi)) {
		memset(o->stale + (lo >> CTX_BLOCK_SHIFT), 1, b -
		    (lo >> CTX_BLOCK_SHIFT));
		for (uint32_t c = lo; c < hi; c++) {
			const size_t j = c * cs;
			set_stat(stat, cnt, c, host_status(f_st[j], release));
			cut = f_stop[j] < cut ? f_stop[j] : cut;
			event = f_ev[j] > event ? f_ev[j] : event;
			if (f_out[j] != 0) {
				out_lo = out_lo == UINT32_MAX ? c : out_lo;
				out_hi = c;
			}
		}
		p->any = 1;
	}
	memcpy(p->cnt, cnt, sizeof cnt);
	p->cut = cut;
	p->event = event;
	p->out_lo = out_lo;
	p->out_hi = out_hi;
	return NULL;
}

/*
 * After a launch with news: the statuses of the cores of its news blocks
 * (cnt follows), and what launch_end and drain_output need from them;
 * nothing outside those blocks has a stop record, an event or output.
 * Their other registers wait for sync_cores (the blocks are stale).
 * hctx must be open and current.  News of at least tune.convert_min
 * cores is split over the conversion's threads, in shares of equal news
 * (the launch in which a million cores halt is most of a run's news).
 */
static void
absorb_news(struct ocl_engine *o)
{
	struct ocl_news *nw = &o->news;
	struct news_part part[CONV_THREADS_MAX];
	const uint32_t *news = marks(o, CTX_B_NEWS);
	uint32_t t = 1, nnews = 0;

	if (o->tune.host_threads > 1 && o->ncores >= o->tune.convert_min)
		for (uint32_t b = 0; b < o->nblocks; b++)
			nnews += news[b] == o->launch_id;
	if ((uint64_t)nnews << CTX_BLOCK_SHIFT >= o->tune.convert_min)
		t = o->tune.host_threads;
	for (uint32_t i = 0, b = 0, seen = 0; i < t; i++) {
		/* share i ends after the news block that brings the news
		 * seen to nnews * (i + 1) / t */
		const uint32_t want = (uint32_t)((uint64_t)nnews * (i + 1) / t);

		memset(&part[i], 0, sizeof part[i]);
		part[i].o = o;
		part[i].b0 = b;
		while (i + 1 < t && b < o->nblocks && seen < want)
			seen += news[b++] == o->launch_id;
		part[i].b1 = i + 1 < t ? b : o->nblocks;
	}
	spread(t, absorb_part, part, sizeof part[0]);
	nw->cut = CTX_NONE;
	nw->event = 0;
	nw->out_lo = UINT32_MAX;
	nw->out_hi = 0;
	for (uint32_t i = 0; i < t; i++) {
		const struct news_part *p = &part[i];

		for (int j = 0; j < 4; j++)
			o->cnt[j] += p->cnt[j];
		o->any_stale |= p->any;
		nw->cut = p->cut < nw->cut ? p->cut : nw->cut;
		nw->event = p->event > nw->event ? p->event : nw->event;
		if (p->out_lo <= p->out_hi) {
			nw->out_lo = p->out_lo < nw->out_lo ? p->out_lo :
			    nw->out_lo;
			nw->out_hi = p->out_hi > nw->out_hi ? p->out_hi :
			    nw->out_hi;
		}
	}
}

/* Bring m->cores up to date where launches left them behind: the blocks
 * that ran since o->since, and the stale ones (news, a release). */
static int
sync_cores(struct ocl_engine *o, char **cause)
{
	uint32_t b = 0, lo, hi;

	if (o->since == 0 && !o->any_stale)
		return 0;
	if (ctx_fetch_cores(o, cause) != 0)
		return -1;
	while (next_marked(o, BEHIND, o->since, o->nblocks, &b, &lo, &hi))
		convert_range(o, lo, hi);
	o->warps_fresh = 0;
	o->since = 0;
	memset(o->stale, 0, o->nblocks);
	o->any_stale = 0;
	return 0;
}

/* Stacks in the device layout, from or to the host's blocked layout. */
static int
upload_stacks(struct ocl_engine *o, char **cause)
{
	const struct machine *m = o->m;
	size_t sw = m->cfg.stack_words, n = o->stack_words_total;
	int32_t *t;
	int rc;

	if (!o->interleaved)
		return write_buf(o, o->b_stacks, 0, n * 4, m->stacks, cause);
	t = malloc(n * 4);
	if (t == NULL) {
		*cause = xasprintf("not enough host memory to upload the stacks");
		return -1;
	}
	for (size_t c = 0; c < o->ncores; c++)
		for (size_t w = 0; w < sw; w++)
			t[CTX_STACK_INDEX(1, c, w, (size_t)o->ncores, sw)] =
			    m->stacks[c * sw + w];
	rc = write_buf(o, o->b_stacks, 0, n * 4, t, cause);
	free(t);
	return rc;
}

static int
download_stacks(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;
	size_t sw = m->cfg.stack_words, n = o->stack_words_total;
	int32_t *t;
	int rc;

	if (!o->interleaved)
		return read_buf(o, o->b_stacks, 0, n * 4, m->stacks, cause);
	t = malloc(n * 4);
	if (t == NULL) {
		*cause = xasprintf("not enough host memory to read the stacks");
		return -1;
	}
	rc = read_buf(o, o->b_stacks, 0, n * 4, t, cause);
	if (rc == 0)
		for (size_t c = 0; c < o->ncores; c++)
			for (size_t w = 0; w < sw; w++)
				m->stacks[c * sw + w] = t[CTX_STACK_INDEX(1, c,
				    w, (size_t)o->ncores, sw)];
	free(t);
	return rc;
}

/* ---- checkpoints ------------------------------------------------------ */

static int
copy_buf(struct ocl_engine *o, cl_mem from, cl_mem to, size_t bytes,
    char **cause)
{
	TRY(o, clEnqueueCopyBuffer(o->q, from, to, 0, 0, bytes, 0, NULL, NULL),
	    "clEnqueueCopyBuffer");
	return 0;
}

static size_t
heap_bytes(const struct ocl_engine *o)
{
	return (size_t)(o->m->cfg.heap_words ? o->m->cfg.heap_words : 1) * 4;
}

/*
 * Allocate the checkpoint buffers once; 0 if that is impossible.  setup
 * calls it, so that a run() does not pay for it: a driver that commits
 * memory on first use (NVIDIA's) does so in the fill, which also turns a
 * device too full for a checkpoint into "no checkpoint" (every launch
 * one step) here rather than into a failed copy in the middle of a run.
 */
static int
ckpt_alloc(struct ocl_engine *o)
{
	char *cause = NULL;
	cl_mem *c[4] = { &o->c_ctx, &o->c_stacks, &o->c_globals, &o->c_heap };
	size_t bytes[4] = { o->ctx_words * 4, o->stack_words_total * 4,
	    MM_GLOBALS_WORDS * 4, heap_bytes(o) };
	uint32_t zero = 0;
	int ok = 1;

	if (o->ckpt_ok != 0)
		return o->ckpt_ok > 0;
	for (size_t i = 0; i < 4 && ok; i++)
		ok = mkbuf(o, c[i], bytes[i], CL_MEM_READ_WRITE, &cause) == 0 &&
		    clEnqueueFillBuffer(o->q, *c[i], &zero, sizeof zero, 0,
		    bytes[i], 0, NULL, NULL) == CL_SUCCESS;
	if (ok)
		ok = clFinish(o->q) == CL_SUCCESS;
	if (!ok) {
		free(cause);
		for (size_t i = 0; i < 4; i++)
			if (*c[i] != NULL) {
				clReleaseMemObject(*c[i]);
				*c[i] = NULL;
			}
		o->ckpt_ok = -1;
		return 0;
	}
	o->ck.out_listed = xcalloc(o->ncores, 1);
	o->ckpt_ok = 1;
	return 1;
}

/*
 * Only the allocated heap (below heap_top) is copied: the kernel writes
 * nothing above it but NEWARRAY's fresh arrays, which a restore zeroes
 * (ckpt_restore), as the reference has them; a megaword heap copied
 * whole was most of a small machine's checkpoint.  m->heap_top is the
 * device's here: every launch reads it back.
 */
static int
ckpt_take(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;

	/* A micro-level program may write anywhere in the heap region,
	 * above heap_top too: its checkpoints hold the whole heap. */
	o->ck.heap_top = o->lv->whole_heap ? m->cfg.heap_words : m->heap_top;
	if (ctx_close(o, cause) != 0 ||
	    copy_buf(o, o->b_ctx, o->c_ctx, o->ctx_words * 4, cause) != 0 ||
	    copy_buf(o, o->b_stacks, o->c_stacks, o->stack_words_total * 4,
	    cause) != 0 ||
	    copy_buf(o, o->b_globals, o->c_globals, MM_GLOBALS_WORDS * 4,
	    cause) != 0 ||
	    (o->ck.heap_top > 0 && copy_buf(o, o->b_heap, o->c_heap,
	    (size_t)o->ck.heap_top * 4, cause) != 0))
		return -1;
	for (size_t i = 0; i < o->ck.nout; i++)
		o->ck.out_listed[o->ck.out_cores[i]] = 0;
	o->ck.nout = 0;
	o->ck.in_pos = xreallocarray(o->ck.in_pos, o->n_in_cores ?
	    o->n_in_cores : 1, sizeof *o->ck.in_pos);
	for (size_t i = 0; i < o->n_in_cores; i++)
		o->ck.in_pos[i] = m->io[o->in_cores[i]].in_pos;
	o->ck.step = m->step;
	o->ck.pending_release = o->pending_release;
	o->ck.age = 0;
	o->ck.valid = 1;
	o->stats.checkpoints++;
	return 0;
}

static int
ckpt_restore(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;
	uint32_t top = m->heap_top, zero = 0;

	o->ctx_fresh = o->ctx_fresh_cores = 0;
	if (ctx_close(o, cause) != 0 ||
	    copy_buf(o, o->c_ctx, o->b_ctx, o->ctx_words * 4, cause) != 0 ||
	    copy_buf(o, o->c_stacks, o->b_stacks, o->stack_words_total * 4,
	    cause) != 0 ||
	    copy_buf(o, o->c_globals, o->b_globals, MM_GLOBALS_WORDS * 4,
	    cause) != 0 ||
	    (o->ck.heap_top > 0 && copy_buf(o, o->c_heap, o->b_heap,
	    (size_t)o->ck.heap_top * 4, cause) != 0))
		return -1;
	/* arrays allocated after the checkpoint: unallocated words are 0 */
	if (!o->lv->whole_heap && top > o->ck.heap_top)
		TRY(o, clEnqueueFillBuffer(o->q, o->b_heap, &zero, sizeof zero,
		    (size_t)o->ck.heap_top * 4,
		    (size_t)(top - o->ck.heap_top) * 4, 0, NULL, NULL),
		    "clEnqueueFillBuffer");
	if (ctx_fetch_cores(o, cause) != 0)
		return -1;
	/* first: the host copy shows a pending release as done already */
	o->pending_release = o->ck.pending_release;
	ctx_to_cores(o);
	o->stats.restores++;
	for (size_t i = 0; i < o->ck.nout; i++) {
		uint32_t c = o->ck.out_cores[i];

		m->io[c].out.len = o->ck.out_len[i];
		o->ck.out_listed[c] = 0;
	}
	o->ck.nout = 0;
	for (size_t i = 0; i < o->n_in_cores; i++) {
		m->io[o->in_cores[i]].in_pos = o->ck.in_pos[i];
		o->in_dirty[i] = 1;
	}
	m->step = o->ck.step;
	return 0;
}

/* ---- one launch ------------------------------------------------------- */

/* Fill the input areas of cores whose pending input changed. */
static int
feed_input(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;

	for (size_t i = 0; i < o->n_in_cores; i++) {
		uint32_t c = o->in_cores[i];
		const struct core_io *io = &m->io[c];
		size_t pending = io->in_len - io->in_pos;
		uint32_t n = pending > o->in_cap ? o->in_cap : (uint32_t)pending;

		if (!o->in_dirty[i])
			continue;
		if (write_buf(o, o->b_in, (size_t)c * o->in_cap, n,
		    io->in + io->in_pos, cause) != 0 ||
		    write_core_field(o, c, CTX_C_IN_LEN, n, cause) != 0 ||
		    write_core_field(o, c, CTX_C_IN_MORE, pending > n,
		    cause) != 0)
			return -1;
		o->in_dirty[i] = 0;
	}
	return 0;
}

/* Output that core c is about to get: its length now goes to the
 * checkpoint's list the first time since the checkpoint. */
static void
ckpt_note_output(struct ocl_engine *o, uint32_t c)
{
	struct ocl_ckpt *ck = &o->ck;

	if (ck->out_listed == NULL || ck->out_listed[c])
		return;
	if (ck->nout == ck->out_cap) {
		ck->out_cap = ck->out_cap ? 2 * ck->out_cap : 64;
		ck->out_cores = xreallocarray(ck->out_cores, ck->out_cap,
		    sizeof *ck->out_cores);
		ck->out_len = xreallocarray(ck->out_len, ck->out_cap,
		    sizeof *ck->out_len);
	}
	ck->out_cores[ck->nout] = c;
	ck->out_len[ck->nout++] = o->m->io[c].out.len;
	ck->out_listed[c] = 1;
}

/* Append what the cores wrote in the last launch to m->io[].out: the
 * writers are in the news blocks (absorb_news found their span). */
static int
drain_output(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;
	uint32_t lo = o->news.out_lo, hi = o->news.out_hi;

	if (lo > hi)
		return 0;
	/* One read of the span that holds every writer. */
	if (read_buf(o, o->b_out, (size_t)lo * o->out_cap,
	    (size_t)(hi - lo + 1) * o->out_cap, o->outbuf, cause) != 0)
		return -1;
	for (uint32_t c = lo; c <= hi; c++) {
		uint32_t n = CF(o, c, CTX_C_OUT_LEN);

		if (n > o->out_cap)
			n = o->out_cap;
		if (n > 0) {
			ckpt_note_output(o, c);
			buf_put(&m->io[c].out, o->outbuf +
			    (size_t)(c - lo) * o->out_cap, n);
		}
	}
	return 0;
}

/*
 * Run steps 1..K from the current state (m->step).  checks: breakpoints
 * and stop-on-fault cut the launch.  Reads back the header, and the
 * context only when a core has news (CTX_H_NOTE, or a stop), reading
 * then the news blocks' statuses and stop words alone: the launch leaves
 * the registers of the cores that ran behind on the host (o->since, the
 * stale blocks), and a quiet one sets o->quiet.
 */
static int
launch(struct ocl_engine *o, const struct engine_run *r, uint32_t K,
    int checks, char **cause)
{
	struct machine *m = o->m;
	uint32_t *h = o->hdr;
	size_t local = o->wg;
	double t0 = now(), t_kernel;

	if (ctx_open(o, cause) != 0 || feed_input(o, cause) != 0)
		return -1;
	o->hctx[CTX_H_STEPS] = K;
	o->hctx[CTX_H_FLAGS] = CTX_F_DIVERGENCE |
	    (checks ? CTX_F_STOPS : 0) |
	    (r->stop_on_fault ? CTX_F_STOP_ON_FAULT : 0) |
	    (r->mask != NULL ? CTX_F_MASK : 0) |
	    (o->pending_release ? CTX_F_RELEASE : 0) |
	    (o->tune.drift ? CTX_F_DRIFT : 0);
	o->hctx[CTX_H_NBPS] = (uint32_t)o->nbps;
	o->hctx[CTX_H_STOP_AT] = K;
	o->hctx[CTX_H_NOTE] = 0;
	/* words STEPS .. LAUNCH_ID, HEAP_TOP among them: the device's,
	 * which the host copy holds (m->heap_top is read back every
	 * launch) */
	o->hctx[CTX_H_HEAP_TOP] = m->heap_top;
	if (++o->launch_id == 0)
		o->launch_id = 1;
	o->hctx[CTX_H_LAUNCH_ID] = o->launch_id;
	if (o->since == 0)
		o->since = o->launch_id;
	if (ctx_put(o, CTX_H_STEPS, CTX_H_LAUNCH_ID - CTX_H_STEPS + 1,
	    cause) != 0 || ctx_close(o, cause) != 0)
		return -1;
	o->ctx_fresh = o->ctx_fresh_cores = 0;
	if (K == 1 && o->step1) {
		size_t nw = o->nwarps;

		cl_int err;

		if (mirror_unmap(o, cause) != 0)
			return -1;
		err = clEnqueueNDRangeKernel(o->q, o->kern1, 1, NULL,
		    &o->gsize, &local, 0, NULL, NULL);
		if (err == CL_SUCCESS)
			err = clEnqueueNDRangeKernel(o->q, o->fold1, 1, NULL,
			    &nw, NULL, 0, NULL, NULL);
		if (err != CL_SUCCESS) {
			*cause = cl_failure(o, "clEnqueueNDRangeKernel", err);
			mirror_reclaim(o);
			return -1;
		}
	} else {
		TRY(o, clEnqueueNDRangeKernel(o->q, o->kern, 1, NULL,
		    &o->gsize, &local, 0, NULL, NULL),
		    "clEnqueueNDRangeKernel");
	}
	/* the in-order queue: this read waits for the kernel */
	if (read_buf(o, o->b_ctx, CTX_H_STEPS * 4, (CTX_H_NOTE - CTX_H_STEPS +
	    1) * 4, h + CTX_H_STEPS, cause) != 0) {
		mirror_reclaim(o);
		return -1;
	}
	if (o->mirror && K == 1) {
		if (mirror_map(o, cause) != 0)
			return -1;
		/* m->cores holds what this launch changed: behind only if
		 * an earlier launch left it so */
		if (o->since == o->launch_id)
			o->since = 0;
	}
	t_kernel = now() - t0;
	o->stats.launches++;
	o->stats.launch_steps += K;
	o->pending_release = 0;
	m->heap_top = h[CTX_H_HEAP_TOP];
	o->warps_fresh = 0;
	o->quiet = h[CTX_H_NOTE] == 0 && h[CTX_H_STOP_AT] == K;
	if (!o->quiet) {
		if (ctx_fetch_cores(o, cause) != 0)
			return -1;
		absorb_news(o);
		if (drain_output(o, cause) != 0)
			return -1;
	}
	for (size_t i = 0; i < o->n_in_cores && !o->quiet; i++) {
		uint32_t c = o->in_cores[i];
		uint32_t used = CF(o, c, CTX_C_IN_POS);

		if (used > 0) {
			m->io[c].in_pos += used;
			o->in_dirty[i] = 1;
		}
	}
	o->ck.age += now() - t0;
	/* Adapt K on full launches (short ones say nothing about speed),
	 * by the kernel's time alone: the read-back of a big context is a
	 * fixed cost that fewer steps would not shorten. */
	if (o->k_fixed == 0 && K == o->k_adapt) {
		/* Towards the middle of the band in one go where the launch
		 * was far too short (a GPU runs thousands of steps of a
		 * million cores in the band), by at most K_GROW. */
		if (t_kernel < LAUNCH_MIN_S && o->k_adapt < K_MAX) {
			double f = t_kernel > 0 ? LAUNCH_MID_S / t_kernel :
			    K_GROW;

			uint64_t k;

			f = f < 1.25 ? 1.25 : f > K_GROW ? K_GROW : f;
			k = (uint64_t)((double)o->k_adapt * f);
			o->k_adapt = k > o->k_adapt ? k : o->k_adapt + 1;
			if (o->k_adapt > K_MAX)
				o->k_adapt = K_MAX;
		} else if (t_kernel > LAUNCH_MAX_S && o->k_adapt > 1) {
			o->k_adapt /= 2;
		}
	}
	return 0;
}

/* Any core that may run (RUNNING and inside the mask)?  Statuses are
 * exact in stat, and counted. */
static int
any_runnable(const struct ocl_engine *o, const uint8_t *mask)
{
	if (o->cnt[CORE_RUNNING] == 0)
		return 0;
	if (mask == NULL)
		return 1;
	for (uint32_t c = 0; c < o->ncores; c++)
		if (o->stat[c] == CORE_RUNNING && mask[c])
			return 1;
	return 0;
}

/* ref_barrier_release, from the counts, in stat; m->cores follows at
 * the next sync_cores (the released cores' blocks are stale), the
 * device at the next launch. */
static void
release_barrier(struct ocl_engine *o)
{
	if (o->cnt[CORE_RUNNING] > 0 || o->cnt[CORE_WAITING] == 0)
		return;
	for (uint32_t c = 0; c < o->ncores; c++)
		if (o->stat[c] == CORE_WAITING) {
			set_stat(o->stat, o->cnt, c, CORE_RUNNING);
			o->stale[c >> CTX_BLOCK_SHIFT] = 1;
		}
	o->any_stale = 1;
	o->pending_release = 1;
}

/*
 * After a launch of K that had news: the boundary the machine really
 * reached (relative), and whether some core ran past it.  Stop records
 * give the cut; without any, a launch with cores still runnable reached
 * K, else it ended at the last step in which a core stopped running.
 * Every stop lowers stop_at (atomic_min), so with stop_at still K no
 * core stopped below K and none ran past K: the news blocks say it all.
 * Below K some core may have run past the cut, in any block: every core
 * is looked at (a breakpoint or fault stop, or an I/O area to serve).
 */
static uint32_t
launch_end(const struct ocl_engine *o, const uint8_t *mask, uint32_t K,
    int *overshoot)
{
	uint32_t cut = o->news.cut, last = 0, event = o->news.event;

	*overshoot = 0;
	if (o->hdr[CTX_H_STOP_AT] < K) {
		for (uint32_t c = 0; c < o->ncores; c++) {
			uint32_t l = CF(o, c, CTX_C_LAST_STEP);

			if (l > last)
				last = l;
		}
		*overshoot = cut != CTX_NONE && last > cut;
	}
	if (cut != CTX_NONE)
		return cut;
	if (any_runnable(o, mask))
		return K;
	return event;
}

static uint32_t
choose_k(const struct ocl_engine *o, uint64_t remaining)
{
	uint64_t k = o->k_fixed ? o->k_fixed : o->k_adapt;

	if (o->ckpt_ok < 0)
		k = 1;	/* no checkpoint: a launch must not overshoot */
	if (k > remaining)
		k = remaining;
	if (k > K_MAX)
		k = K_MAX;
	return k < 1 ? 1 : (uint32_t)k;
}

/*
 * Replay with the stop checks off from the restored checkpoint up to the
 * absolute step target.  Only a full output area or a dry input area can
 * cut a replay launch; one that overshoots is redone from a checkpoint
 * taken just before it, with K lowered to where it was cut (at K = 1
 * nothing can overshoot, so this ends).
 */
static int
replay(struct ocl_engine *o, const struct engine_run *r, uint64_t target,
    char **cause)
{
	struct machine *m = o->m;
	uint32_t kcap = UINT32_MAX;

	while (m->step < target) {
		uint32_t K = choose_k(o, target - m->step), end;
		int over;

		if (K > kcap)
			K = kcap;
		if (!any_runnable(o, r->mask))
			break;	/* cannot happen for the same machine */
		if (K > 1 && ckpt_take(o, cause) != 0)
			return -1;
		if (launch(o, r, K, 0, cause) != 0)
			return -1;
		if (o->quiet) {
			kcap = UINT32_MAX;
			m->step += K;
			continue;
		}
		end = launch_end(o, r->mask, K, &over);
		if (over) {
			if (ckpt_restore(o, cause) != 0)
				return -1;
			kcap = end > 0 ? end : 1;
			continue;
		}
		kcap = UINT32_MAX;
		m->step += end;
		release_barrier(o);
		if (end == 0)
			break;
	}
	return 0;
}

/*
 * One launch of at most K steps with the stop checks on, ending at a
 * consistent cut; *ran gets the steps the machine advanced.
 */
static int
advance(struct ocl_engine *o, const struct engine_run *r, uint32_t K,
    uint64_t *ran, char **cause)
{
	struct machine *m = o->m;
	uint64_t start = m->step;
	uint32_t end;
	int over;

	if (K > 1 && (!o->ck.valid || o->ck.age >= CKPT_AGE)) {
		if (!ckpt_alloc(o))
			K = 1;
		else if (ckpt_take(o, cause) != 0)
			return -1;
	}
	if (launch(o, r, K, 1, cause) != 0)
		return -1;
	if (o->quiet) {
		/* every running core ran K steps, nothing else changed */
		m->step = start + K;
		*ran = K;
		return 0;
	}
	end = launch_end(o, r->mask, K, &over);
	if (over) {
		if (ckpt_restore(o, cause) != 0 ||
		    replay(o, r, start + end, cause) != 0)
			return -1;
		/* the replay's launches were quiet or not, the cut was not */
		o->quiet = 0;
		if (sync_cores(o, cause) != 0)
			return -1;
	} else {
		m->step = start + end;
		release_barrier(o);
	}
	*ran = m->step - start;
	return 0;
}

/* ---- stops, as engine-ref.c reports them ----------------------------- */

/* Build the breakpoint table and upload it (and the mask) if changed. */
static int
upload_run_tables(struct ocl_engine *o, const struct engine_run *r,
    char **cause)
{
	size_t setw = (o->ncores + 31) / 32, nw = 0, nsets = 0;
	size_t bpw = o->lv->bp_words;
	uint32_t *w;

	for (size_t i = 0; i < r->nbps; i++)
		if (r->bps[i].cores != NULL)
			nsets++;
	nw = r->nbps * bpw + nsets * setw;
	w = xcalloc(nw ? nw : 1, sizeof *w);
	nsets = 0;
	for (size_t i = 0; i < r->nbps; i++) {
		const struct engine_bp *bp = &r->bps[i];
		uint32_t *e = &w[i * bpw];

		e[CTX_BP_PC] = (uint32_t)bp->pc;
		e[CTX_BP_ID] = bp->id;
		e[CTX_BP_SET] = CTX_NONE;
		/* the micro levels' fourth word: what it compares */
		if (bpw > CTX_BP_WORDS)
			e[CTX_BP_WORDS] = bp->on == ENGINE_BP_ON_MPC;
		if (bp->cores != NULL) {
			size_t off = r->nbps * bpw + nsets++ * setw;

			e[CTX_BP_SET] = (uint32_t)off;
			for (uint32_t c = 0; c < o->ncores; c++)
				if (bp->cores[c])
					w[off + c / 32] |= 1u << (c % 32);
		}
	}
	o->nbps = r->nbps;
	if (nw != o->bp_nwords || (nw > 0 &&
	    memcmp(w, o->bp_words, nw * 4) != 0)) {
		if (nw > o->bp_cap) {
			clReleaseMemObject(o->b_bps);
			o->b_bps = NULL;
			if (mkbuf(o, &o->b_bps, nw * 4, CL_MEM_READ_ONLY,
			    cause) != 0) {
				free(w);
				return -1;
			}
			o->bp_cap = nw;
			TRY(o, clSetKernelArg(o->kern, 9, sizeof o->b_bps,
			    &o->b_bps), "clSetKernelArg");
			if (o->kern1 != NULL)
				TRY(o, clSetKernelArg(o->kern1, 9,
				    sizeof o->b_bps, &o->b_bps),
				    "clSetKernelArg");
		}
		if (write_buf(o, o->b_bps, 0, nw * 4, w, cause) != 0) {
			free(w);
			return -1;
		}
		free(o->bp_words);
		o->bp_words = w;
		o->bp_nwords = nw;
	} else {
		free(w);
	}
	if (r->mask != NULL && (!o->mask_valid ||
	    memcmp(r->mask, o->mask_host, o->ncores) != 0)) {
		memcpy(o->mask_host, r->mask, o->ncores);
		if (write_buf(o, o->b_mask, 0, o->ncores, o->mask_host,
		    cause) != 0)
			return -1;
		o->mask_valid = 1;
	}
	return 0;
}

static int
run_launches(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct ocl_engine *o = e->impl;
	struct machine *m = e->m;
	const uint32_t *cnt = o->cnt;   /* ref_count's, kept by the engine */
	uint32_t faulted_before;

	engine_stop_reset(e, stop);
	if (cnt[CORE_RUNNING] + cnt[CORE_WAITING] == 0) {
		stop->reason = STOP_DONE;
		return 0;
	}
	if (upload_run_tables(o, r, cause) != 0)
		return -1;
	o->ck.valid = 0;	/* host edits since the last run */
	faulted_before = cnt[CORE_ERROR];
	while (stop->steps_run < r->max_steps) {
		uint64_t ran;

		if (r->interrupt != NULL && *r->interrupt) {
			stop->reason = STOP_INTERRUPT;
			return 0;
		}
		if (!any_runnable(o, r->mask)) {
			/* A step in which nothing can execute: the
			 * reference completes a barrier if it can and
			 * calls it a deadlock. */
			release_barrier(o);
			m->step++;
			stop->steps_run++;
			stop->reason = cnt[CORE_RUNNING] + cnt[CORE_WAITING] ==
			    0 ? STOP_DONE : STOP_DEADLOCK;
			return 0;
		}
		if (advance(o, r, choose_k(o, r->max_steps - stop->steps_run),
		    &ran, cause) != 0)
			return -1;
		stop->steps_run += ran;
		/* A quiet launch with the checks on: no core stopped
		 * running, faulted or met a breakpoint at any boundary. */
		if (o->quiet)
			continue;
		if (cnt[CORE_ERROR] > faulted_before) {
			if (sync_cores(o, cause) != 0)
				return -1;
			engine_note_faults(e, o->seen, stop, r->stop_on_fault);
			if (r->stop_on_fault) {
				stop->reason = STOP_FAULT;
				return 0;
			}
		}
		faulted_before = cnt[CORE_ERROR];
		if (cnt[CORE_RUNNING] + cnt[CORE_WAITING] == 0) {
			stop->reason = STOP_DONE;
			return 0;
		}
		/* The check looks at every running core's registers: those
		 * that ran must be converted first. */
		if (r->nbps > 0 && sync_cores(o, cause) != 0)
			return -1;
		if (r->nbps > 0 &&
		    engine_check_bps(e, r, stop, o->lv->bp_on)) {
			stop->reason = STOP_BREAKPOINT;
			return 0;
		}
	}
	stop->reason = STOP_STEPS;
	return 0;
}

/* Launches may leave m->cores behind; what run() returns never is. */
static int
ocl_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct ocl_engine *o = e->impl;

	return run_launches(e, r, stop, cause) != 0 ? -1 :
	    sync_cores(o, cause);
}

/* ---- memory ----------------------------------------------------------- */

/* A device word of a core's view of memory: its buffer and byte offset,
 * or 0 for the constant pool (*cp set) and -1 outside the map. */
static int
locate(struct ocl_engine *o, uint32_t core, int32_t addr, cl_mem *b,
    size_t *off, const int32_t **cp)
{
	const struct machine *m = o->m;
	const struct program *p = m->progs[m->cores[core].prog];
	int64_t a = addr;

	*cp = NULL;
	if (a >= MM_CPP && a < (int64_t)MM_CPP + p->cp_size) {
		*cp = &p->cp[a - MM_CPP];
		return 0;
	}
	if (a >= MM_STACK_BASE && a < (int64_t)MM_STACK_BASE +
	    m->cfg.stack_words) {
		*b = o->b_stacks;
		*off = 4 * CTX_STACK_INDEX(o->interleaved, (size_t)core,
		    (size_t)(a - MM_STACK_BASE), (size_t)o->ncores,
		    (size_t)m->cfg.stack_words);
		return 1;
	}
	if (a >= MM_GLOBALS_BASE && a < MM_GLOBALS_BASE + MM_GLOBALS_WORDS) {
		*b = o->b_globals;
		*off = 4 * (size_t)(a - MM_GLOBALS_BASE);
		return 1;
	}
	if (a >= MM_HEAP_BASE && a < (int64_t)MM_HEAP_BASE +
	    m->cfg.heap_words) {
		*b = o->b_heap;
		*off = 4 * (size_t)(a - MM_HEAP_BASE);
		return 1;
	}
	return -1;
}

static int
ocl_read_words(struct engine *e, uint32_t core, int32_t addr,
    uint32_t nwords, int32_t *out, char **cause)
{
	struct ocl_engine *o = e->impl;
	uint32_t i = 0;

	if (core >= o->ncores) {
		*cause = xasprintf("core %u does not exist (the machine has %u)",
		    core, o->ncores);
		return -1;
	}
	while (i < nwords) {
		int32_t a = (int32_t)((uint32_t)addr + i);
		const int32_t *cp;
		cl_mem b;
		size_t off, off2;
		uint32_t n = 1;
		int where = locate(o, core, a, &b, &off, &cp);

		if (where < 0) {
			*cause = xasprintf("address 0x%x is outside the memory "
			    "core %u can read", (uint32_t)a, core);
			return -1;
		}
		if (where == 0) {
			out[i++] = *cp;
			continue;
		}
		/* Extend over words that are contiguous on the device. */
		while (i + n < nwords) {
			cl_mem b2;
			const int32_t *cp2;

			if (locate(o, core, a + (int32_t)n, &b2, &off2,
			    &cp2) != 1 || b2 != b || off2 != off + 4 * n)
				break;
			n++;
		}
		if (read_buf(o, b, off, 4 * (size_t)n, out + i, cause) != 0)
			return -1;
		/* Keep the host copy in step with what was shown. */
		for (uint32_t j = 0; j < n; j++)
			(void)machine_write_word(e->m, core, a + (int32_t)j,
			    out[i + j]);
		i += n;
	}
	return 0;
}

static int
ocl_write_word(struct engine *e, uint32_t core, int32_t addr, int32_t val,
    char **cause)
{
	struct ocl_engine *o = e->impl;
	const int32_t *cp;
	cl_mem b;
	size_t off;

	if (core >= o->ncores || locate(o, core, addr, &b, &off, &cp) != 1 ||
	    machine_write_word(e->m, core, addr, val) != FAULT_NONE) {
		*cause = xasprintf("address 0x%x is outside the memory core %u "
		    "can write", (uint32_t)addr, core);
		return -1;
	}
	return write_buf(o, b, off, 4, &val, cause);
}

static int
ocl_push_cores(struct engine *e, char **cause)
{
	struct ocl_engine *o = e->impl;

	/* all of hctx goes down: its other words must be the device's
	 * (run() read only part of it, ctx_fetch_cores) */
	if (ctx_fetch(o, cause) != 0)
		return -1;
	cores_to_ctx(o);
	o->hctx[CTX_H_HEAP_TOP] = e->m->heap_top;
	/* The host copy is the truth now, releases included. */
	recount(o);
	o->since = 0;
	memset(o->stale, 0, o->nblocks);
	o->any_stale = 0;
	o->pending_release = 0;
	o->ck.valid = 0;
	return ctx_put(o, 0, o->ctx_words, cause);
}

static int
ocl_sync_memory(struct engine *e, char **cause)
{
	struct ocl_engine *o = e->impl;
	struct machine *m = e->m;

	if (download_stacks(o, cause) != 0 ||
	    read_buf(o, o->b_globals, 0, MM_GLOBALS_WORDS * 4, m->globals,
	    cause) != 0 ||
	    read_buf(o, o->b_heap, 0, (size_t)m->cfg.heap_words * 4, m->heap,
	    cause) != 0)
		return -1;
	return 0;
}

static void
ocl_add_input(struct engine *e, uint32_t core, const uint8_t *data,
    size_t len)
{
	struct ocl_engine *o = e->impl;
	size_t i;

	machine_add_input(e->m, core, data, len);
	if (!o->in_listed[core]) {
		o->in_listed[core] = 1;
		o->in_cores = xreallocarray(o->in_cores, o->n_in_cores + 1,
		    sizeof *o->in_cores);
		o->in_dirty = xrealloc(o->in_dirty, o->n_in_cores + 1);
		o->in_cores[o->n_in_cores++] = core;
	}
	for (i = 0; i < o->n_in_cores; i++)
		if (o->in_cores[i] == core)
			o->in_dirty[i] = 1;
}

/* ---- reverse execution (engine.h save/load) --------------------------- */

/*
 * The level's section of the context is its host state in context form
 * (to_ctx/from_ctx convert): a snapshot keeps those words, core-major,
 * whatever layout the device chose.  run() left hctx current.
 */
static int
ocl_save(struct engine *e, void *out, size_t *bytes, char **cause)
{
	struct ocl_engine *o = e->impl;
	size_t nf = o->lv->section_fields;
	uint32_t *w = out;
	struct ocl_section sec;

	*bytes = (size_t)o->ncores * nf * 4;
	if (nf == 0 || out == NULL)
		return 0;
	if (ctx_fetch_cores(o, cause) != 0)
		return -1;
	section(o, &sec);
	for (uint32_t c = 0; c < o->ncores; c++)
		for (uint32_t f = 0; f < nf; f++)
			w[(size_t)c * nf + f] = OCL_SEC(&sec, c, f);
	return 0;
}

/* The host copy is the whole truth: registers, the level's section,
 * memory and input go down as a fresh engine's would, and the
 * checkpoint is stale (ocl_push_cores). */
static int
ocl_load(struct engine *e, const void *side, char **cause)
{
	struct ocl_engine *o = e->impl;
	struct machine *m = e->m;
	size_t nf = o->lv->section_fields;

	/* before the edits: ocl_push_cores sends all of hctx */
	if (ctx_fetch(o, cause) != 0)
		return -1;
	if (nf > 0 && side != NULL && o->lv->from_ctx != NULL) {
		const uint32_t *w = side;
		struct ocl_section sec;

		section(o, &sec);
		for (uint32_t c = 0; c < o->ncores; c++)
			for (uint32_t f = 0; f < nf; f++)
				OCL_SEC(&sec, c, f) = w[(size_t)c * nf + f];
		o->lv->from_ctx(o->st, &sec, 0, o->ncores);
	}
	if (ocl_push_cores(e, cause) != 0 ||
	    upload_stacks(o, cause) != 0 ||
	    write_buf(o, o->b_globals, 0, MM_GLOBALS_WORDS * 4, m->globals,
	    cause) != 0 ||
	    write_buf(o, o->b_heap, 0, heap_bytes(o), m->heap, cause) != 0)
		return -1;
	for (uint32_t c = 0; c < o->ncores; c++)
		o->seen[c] = m->cores[c].status == CORE_ERROR;
	for (size_t i = 0; i < o->n_in_cores; i++)
		o->in_dirty[i] = 1;
	return 0;
}

static void
release_all(struct ocl_engine *o)
{
	cl_mem *bufs[] = {
		&o->b_ctx, &o->b_stacks, &o->b_globals, &o->b_heap, &o->b_text,
		&o->b_cp, &o->b_progs, &o->b_out, &o->b_in, &o->b_bps,
		&o->b_mask, &o->c_ctx, &o->c_stacks, &o->c_globals, &o->c_heap,
		&o->b_side,
	};

	if (o->b_mirror != NULL) {
		if (o->hmirror != NULL)
			(void)clEnqueueUnmapMemObject(o->q, o->b_mirror,
			    o->hmirror, 0, NULL, NULL);
		(void)clFinish(o->q);
		clReleaseMemObject(o->b_mirror);
	}
	if (o->b_host != NULL) {
		if (o->hctx != NULL)
			(void)clEnqueueUnmapMemObject(o->q, o->b_host, o->hctx,
			    0, NULL, NULL);
		(void)clFinish(o->q);
		clReleaseMemObject(o->b_host);
		o->hctx = NULL;
	}
	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
		if (*bufs[i] != NULL) {
			if (bufs[i] == &o->b_ctx && o->mapped)
				(void)clEnqueueUnmapMemObject(o->q, o->b_ctx,
				    o->hctx, 0, NULL, NULL);
			clReleaseMemObject(*bufs[i]);
		}
	if (o->kern != NULL)
		clReleaseKernel(o->kern);
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
	if (!o->zero_copy && o->b_host == NULL)
		free(o->hctx);
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
	free(o->warps);
	if (o->lv != NULL && o->lv->free_state != NULL && o->st != NULL)
		o->lv->free_state(o->st);
	free(o);
}

static void
ocl_free(struct engine *e)
{
	if (e->impl != NULL)
		release_all(e->impl);
	free(e->stop_cores);
	free(e->stop_bps);
	memset(e, 0, sizeof *e);
}

static int
ocl_at_boundary(struct engine *e, uint32_t core)
{
	struct ocl_engine *o = e->impl;

	return o->lv->model->at_boundary(o->st, e->m, core);
}

/* The model's state is the level state's first member (ocl-level.h). */
static void *
ocl_level_state(struct engine *e)
{
	struct ocl_engine *o = e->impl;

	return o->lv->model != NULL ? o->st : NULL;
}

static const struct engine_ops ocl_ops = {
	.name = "opencl",
	.kind = ENGINE_OPENCL,
	.level = LEVEL_ISA,
	.run = ocl_run,
	.read_words = ocl_read_words,
	.write_word = ocl_write_word,
	.push_cores = ocl_push_cores,
	.sync_memory = ocl_sync_memory,
	.add_input = ocl_add_input,
	.save = ocl_save,
	.load = ocl_load,
	.warps = engine_ocl_warps,
	.free = ocl_free,
};

/* ---- the tuning table ------------------------------------------------ */

/* The keys of MICDB_OCL_TEST, in struct ocl_tuning's order. */
enum {
	TK_LAYOUT, TK_ZERO_COPY, TK_WG, TK_IO_CAP, TK_DISPATCH, TK_WARPSYNC,
	TK_MIRROR, TK_HOST_THREADS, TK_CONVERT_MIN, TK_STEPS, TK_DRIFT,
	TK_DEVICE_MIB, TK_N
};

static const struct tuning_key {
	const char	*name;
	const char	*words[2];     /* values 0 and 1 by name, or NULL */
	unsigned long	 min, max;
} tuning_keys[TK_N] = {
	[TK_LAYOUT] = { "layout", { "cpu", "gpu" }, 0, 1 },
	[TK_ZERO_COPY] = { "zero_copy", { NULL, NULL }, 0, 1 },
	[TK_WG] = { "wg", { NULL, NULL }, 1, 1024 },
	[TK_IO_CAP] = { "io_cap", { NULL, NULL }, 1, 65536 },
	[TK_DISPATCH] = { "dispatch", { "switch", "template" }, 0, 1 },
	[TK_WARPSYNC] = { "warpsync", { NULL, NULL }, 0, 2 },
	[TK_MIRROR] = { "mirror", { NULL, NULL }, 0, 1 },
	[TK_HOST_THREADS] = { "host_threads", { NULL, NULL }, 1,
	    CONV_THREADS_MAX },
	[TK_CONVERT_MIN] = { "convert_min", { NULL, NULL }, 1, UINT32_MAX },
	[TK_STEPS] = { "k", { NULL, NULL }, 1, K_MAX },
	[TK_DRIFT] = { "drift", { NULL, NULL }, 0, 1 },
	[TK_DEVICE_MIB] = { "device_mib", { NULL, NULL }, 1, 1ul << 30 },
};

/* "key=value,...": the values in v, the keys given in *set.  -1 with
 * *cause naming the key and what it takes. */
static int
tuning_parse(const char *spec, unsigned long *v, unsigned *set, char **cause)
{
	char *copy = xstrdup(spec), *p, *next, *item, *eq;
	char keys[256];
	int rc = 0;

	*set = 0;
	keys[0] = '\0';
	for (int k = 0; k < TK_N; k++)
		snprintf(keys + strlen(keys), sizeof keys - strlen(keys),
		    "%s%s", k ? ", " : "", tuning_keys[k].name);
	for (p = copy; rc == 0 && p != NULL; p = next) {
		const struct tuning_key *t = NULL;
		int k;

		item = p;
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		if (*item == '\0')
			continue;
		if ((eq = strchr(item, '=')) != NULL)
			*eq++ = '\0';
		for (k = 0; k < TK_N && t == NULL; k++)
			if (strcmp(item, tuning_keys[k].name) == 0)
				t = &tuning_keys[k];
		k--;
		if (t == NULL) {
			*cause = xasprintf("MICDB_OCL_TEST: unknown key \"%s\" "
			    "(the keys: %s)", item, keys);
			rc = -1;
		} else if (eq != NULL && t->words[0] != NULL &&
		    (strcmp(eq, t->words[0]) == 0 ||
		    strcmp(eq, t->words[1]) == 0)) {
			v[k] = strcmp(eq, t->words[1]) == 0;
			*set |= 1u << k;
		} else if (eq != NULL && t->words[0] == NULL &&
		    parse_uint_option(eq, t->min, t->max, &v[k]) == 0) {
			*set |= 1u << k;
		} else if (t->words[0] != NULL) {
			*cause = xasprintf("MICDB_OCL_TEST: %s takes %s or %s",
			    t->name, t->words[0], t->words[1]);
			rc = -1;
		} else {
			*cause = xasprintf("MICDB_OCL_TEST: %s takes a number "
			    "from %lu to %lu", t->name, t->min, t->max);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

int
ocl_tuning_init(struct ocl_tuning *t, int gpu, int cpu, int nv,
    char **cause)
{
	const char *spec = getenv("MICDB_OCL_TEST");
	unsigned long v[TK_N];
	unsigned set = 0;
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	int rc = 0;

	if (spec != NULL && tuning_parse(spec, v, &set, cause) != 0) {
		set = 0;
		rc = -1;
	}
#define PICK(k, def) ((set & (1u << (k))) ? v[k] : (unsigned long)(def))
	t->gpu_layout = (int)PICK(TK_LAYOUT, gpu);
	t->zero_copy = (int)PICK(TK_ZERO_COPY, cpu);
	t->wg_target = (uint32_t)PICK(TK_WG, t->gpu_layout ? 128 : 32);
	t->io_cap = (uint32_t)PICK(TK_IO_CAP, 0);
	t->isa_template = (int)PICK(TK_DISPATCH, nv);
	t->isa_vote = nv;
	t->isa_maxrreg = nv ? 64 : 0;
	t->warpsync = (int)PICK(TK_WARPSYNC, nv);
	t->prefetch = gpu ? 0 : 8;
	t->mirror = (int)PICK(TK_MIRROR, !gpu);
	t->host_threads = (uint32_t)PICK(TK_HOST_THREADS,
	    nproc > CONV_THREADS_MAX ? CONV_THREADS_MAX : nproc > 1 ?
	    (uint32_t)nproc : 1);
	t->convert_min = (uint32_t)PICK(TK_CONVERT_MIN, 65536);
	t->steps = PICK(TK_STEPS, 0);
	t->drift = (int)PICK(TK_DRIFT, 0);
	t->device_mib = PICK(TK_DEVICE_MIB, 0);
#undef PICK
	return rc;
}

/* ---- creation --------------------------------------------------------- */

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
	g->out_cap = clamp_u32((16u << 20) / n, 16, 65536) & ~3u;
	g->in_cap = clamp_u32((1u << 20) / n, 16, 4096) & ~3u;
	/* Testing: tiny areas, so that cores fill them within a launch. */
	if (t->io_cap > 0)
		g->out_cap = g->in_cap = t->io_cap;
}

/*
 * The text buffer (upload_programs): the programs' texts one after
 * another, then TEXT_PAD zero bytes, so that a program of empty text
 * still has a byte at its offset for a kernel's clamped fetch (mic.cl
 * reads tx[0] when the PC is outside the text).  Texts were aligned to
 * 4 bytes for a word-wise fetch that no kernel makes any more.
 */
#define TEXT_PAD        1
/* The predecoded text (isa.cl isa_predec): an entry per byte of the text
 * buffer and one more per program. */
#define PREDEC_ENTRY_BYTES 16
#define PREDEC_ENTRIES(text_bytes, nprogs) ((text_bytes) + (nprogs))

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
	/* text as upload_programs pads it */
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
}

/* Choose layouts and sizes; check them against the device. */
static int
plan(struct ocl_engine *o, const struct ocl_device *d, char **cause)
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
	/* Interleaved indices are 32-bit in the kernel. */
	o->interleaved = gpu_layout && stack_bytes / 4 < UINT32_MAX;
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
	if (stack_bytes > d->max_alloc || ctx_bytes > d->max_alloc) {
		char *detail = xasprintf("%.0f MiB of stacks in one buffer, the "
		    "device allows %.0f MiB", (double)stack_bytes / 1048576.0,
		    (double)d->max_alloc / 1048576.0);

		*cause = memory_message(o, detail);
		free(detail);
		return -1;
	}
	if (total > d->global_mem) {
		char *detail = xasprintf("%.0f MiB needed, the device has "
		    "%.0f MiB", (double)total / 1048576.0,
		    (double)d->global_mem / 1048576.0);

		*cause = memory_message(o, detail);
		free(detail);
		return -1;
	}
	o->ctx_words = (size_t)(ctx_bytes / 4);
	o->stack_words_total = (size_t)(stack_bytes / 4);
	return 0;
}

static int
upload_programs(struct ocl_engine *o, char **cause)
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
	if (mkbuf(o, &o->b_text, tlen, CL_MEM_READ_ONLY, cause) == 0 &&
	    mkbuf(o, &o->b_cp, cplen * 4, CL_MEM_READ_ONLY, cause) == 0 &&
	    mkbuf(o, &o->b_progs, m->nprogs * CTX_PROG_WORDS * 4,
	    CL_MEM_READ_ONLY, cause) == 0 &&
	    write_buf(o, o->b_text, 0, tlen, text, cause) == 0 &&
	    write_buf(o, o->b_cp, 0, cplen * 4, cp, cause) == 0 &&
	    write_buf(o, o->b_progs, 0, m->nprogs * CTX_PROG_WORDS * 4, pt,
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

/*
 * The host copy of the context on a device that is not zero-copy:
 * pinned where the device can give it (see hctx), zeroed, which also
 * faults its pages in now rather than in the first read-back.
 */
static int
host_copy(struct ocl_engine *o)
{
	cl_int err;
	void *p;

	o->b_host = clCreateBuffer(o->cl, CL_MEM_READ_WRITE |
	    CL_MEM_ALLOC_HOST_PTR, o->ctx_words * 4, NULL, &err);
	if (err == CL_SUCCESS) {
		p = clEnqueueMapBuffer(o->q, o->b_host, CL_TRUE, CL_MAP_READ |
		    CL_MAP_WRITE, 0, o->ctx_words * 4, 0, NULL, NULL, &err);
		if (err == CL_SUCCESS) {
			o->hctx = p;
			memset(o->hctx, 0, o->ctx_words * 4);
			return 0;
		}
		clReleaseMemObject(o->b_host);
	}
	o->b_host = NULL;
	o->hctx = calloc(o->ctx_words, 4);
	return o->hctx != NULL ? 0 : -1;
}

/* The step kernel's arguments: the buffers, then the level's section
 * offset and scalars. */
static int
set_run_args(struct ocl_engine *o, cl_kernel k, char **cause)
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
	}
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
		*cause = ocl_error("clCreateKernel", err);
		return -1;
	}
	o->kern1 = clCreateKernel(o->prog1, o->lv->kernel_name, &err);
	if (err != CL_SUCCESS) {
		o->kern1 = NULL;
		*cause = ocl_error("clCreateKernel", err);
		return -1;
	}
	TRY(o, clSetKernelArg(o->fold1, 0, sizeof o->b_ctx, &o->b_ctx),
	    "clSetKernelArg");
	return set_run_args(o, o->kern1, cause);
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

	if (mkbuf(o, &o->b_side, (size_t)n * PREDEC_ENTRY_BYTES,
	    CL_MEM_READ_WRITE, cause) != 0)
		return -1;
	k = clCreateKernel(o->prog, o->lv->predec_name, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_error("clCreateKernel", err);
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
		*cause = ocl_error("clSetKernelArg", err);
	else if ((err = clEnqueueNDRangeKernel(o->q, k, 1, NULL, &gsize,
	    NULL, 0, NULL, NULL)) != CL_SUCCESS)
		*cause = ocl_error("clEnqueueNDRangeKernel", err);
	else if ((err = clFinish(o->q)) != CL_SUCCESS)
		*cause = ocl_error("clFinish", err);
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

	o->cl = clCreateContext(NULL, 1, &d->device, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_error("clCreateContext", err);
		o->cl = NULL;
		return -1;
	}
	o->q = clCreateCommandQueue(o->cl, d->device, 0, &err);
	if (err != CL_SUCCESS) {
		*cause = ocl_error("clCreateCommandQueue", err);
		o->q = NULL;
		return -1;
	}
	/* One-step launches run a build without the step loop, where the
	 * level has its fold kernel. */
	o->step1 = o->lv->fold1_name != NULL;
	o->mirror = o->step1 && o->lv->mirror && o->zero_copy &&
	    o->tune.mirror;
	if (o->mirror && mirror_make(o, cause) != 0)
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
		*cause = ocl_error("clCreateKernel", err);
		o->kern = NULL;
		return -1;
	}

	/* Buffers; the big ones first so that "too big" fails early. */
	if (mkbuf(o, &o->b_stacks, o->stack_words_total * 4,
	    CL_MEM_READ_WRITE, cause) != 0 ||
	    mkbuf(o, &o->b_ctx, o->ctx_words * 4, CL_MEM_READ_WRITE |
	    (o->zero_copy ? CL_MEM_ALLOC_HOST_PTR : 0), cause) != 0 ||
	    mkbuf(o, &o->b_globals, MM_GLOBALS_WORDS * 4, CL_MEM_READ_WRITE,
	    cause) != 0 ||
	    mkbuf(o, &o->b_heap, heap_bytes(o), CL_MEM_READ_WRITE,
	    cause) != 0 ||
	    mkbuf(o, &o->b_out, (size_t)o->ncores * o->out_cap,
	    CL_MEM_READ_WRITE, cause) != 0 ||
	    mkbuf(o, &o->b_in, (size_t)o->ncores * o->in_cap,
	    CL_MEM_READ_ONLY, cause) != 0 ||
	    mkbuf(o, &o->b_bps, 4 * o->lv->bp_words, CL_MEM_READ_ONLY,
	    cause) != 0 ||
	    mkbuf(o, &o->b_mask, o->ncores, CL_MEM_READ_ONLY, cause) != 0)
		return -1;
	o->bp_cap = o->lv->bp_words;
	if (upload_programs(o, cause) != 0)
		return -1;
	if (o->lv->side != NULL) {
		size_t n;
		const void *p = o->lv->side(o->st, &n);

		if (mkbuf(o, &o->b_side, n, CL_MEM_READ_ONLY, cause) != 0 ||
		    write_buf(o, o->b_side, 0, n, p, cause) != 0)
			return -1;
	} else if (o->lv->predec_name != NULL && predecode(o, cause) != 0)
		return -1;

	/* The context: header, cores, zeroed warp records. */
	if (o->zero_copy) {
		if (ctx_open(o, cause) != 0)
			return -1;
		memset(o->hctx, 0, o->ctx_words * 4);
	} else if (host_copy(o) != 0) {
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
	cores_to_ctx(o);
	o->stat = xcalloc(o->ncores, 1);
	o->stale = xcalloc(o->nblocks, 1);
	recount(o);
	if (ctx_put(o, 0, o->ctx_words, cause) != 0 ||
	    upload_stacks(o, cause) != 0 ||
	    write_buf(o, o->b_globals, 0, MM_GLOBALS_WORDS * 4, m->globals,
	    cause) != 0 ||
	    write_buf(o, o->b_heap, 0, (size_t)m->cfg.heap_words * 4, m->heap,
	    cause) != 0)
		return -1;

	if (set_run_args(o, o->kern, cause) != 0 ||
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
	(void)ckpt_alloc(o);
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
	o->ops = ocl_ops;
	o->ops.name = level->name;
	o->ops.level = level->level;
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
		release_all(o);
		return -1;
	}
	o->zero_copy = o->tune.zero_copy;
	/* tests: "too big for the device" where the device's memory is the
	 * host's and a real attempt would only exhaust it */
	if (o->tune.device_mib > 0) {
		const cl_ulong lim = (cl_ulong)o->tune.device_mib << 20;

		if (d->global_mem > lim)
			d->global_mem = lim;
		if (d->max_alloc > lim)
			d->max_alloc = lim;
	}
	o->max_alloc = l.dev[di].max_alloc;
	o->global_mem = l.dev[di].global_mem;
	if (plan(o, &l.dev[di], cause) != 0 || setup(o, &l.dev[di],
	    cause) != 0) {
		ocl_devices_free(&l);
		release_all(o);
		return -1;
	}
	ocl_devices_free(&l);
	e->ops = &o->ops;
	e->m = m;
	e->impl = o;
	return 0;
}

const struct engine_warp_record *
engine_ocl_warps(struct engine *e, size_t *nwarps)
{
	struct ocl_engine *o = e->impl;

	char *cause = NULL;

	if (nwarps != NULL)
		*nwarps = o->nwarps;
	if (o->warps == NULL)
		o->warps = xcalloc(o->nwarps ? o->nwarps : 1,
		    sizeof *o->warps);
	if (o->warps_fresh)
		return o->warps;
	/* run() reads back no warp records into a copied context
	 * (ctx_fetch_cores): they come here.  On a failure the records
	 * read as the last ones converted. */
	if (o->zero_copy ? ctx_open(o, &cause) != 0 : !o->ctx_fresh &&
	    read_buf(o, o->b_ctx, (size_t)o->warps_off * 4, (size_t)o->nwarps *
	    CTX_WARP_WORDS(o->W) * 4, o->hctx + o->warps_off, &cause) != 0) {
		free(cause);
		return o->warps;
	}
	for (uint32_t w = 0; w < o->nwarps; w++) {
		const uint32_t *r = o->hctx + o->warps_off +
		    (size_t)w * CTX_WARP_WORDS(o->W);
		struct engine_warp_record *d = &o->warps[w];

#define U64(lo) ((uint64_t)r[(lo) + 1] << 32 | r[lo])
		memset(d, 0, sizeof *d);
		d->steps = U64(CTX_W_STEPS_LO);
		d->active = U64(CTX_W_ACTIVE_LO);
		d->kpaths = U64(CTX_W_K_LO);
		d->last_active = U64(CTX_W_LAST_ACT_LO);
		d->last_converged = U64(CTX_W_LAST_CONV_LO);
		d->last_divergent = U64(CTX_W_LAST_DIV_LO);
		d->last_paths = r[CTX_W_LAST_PATHS];
		d->last_k = r[CTX_W_LAST_K];
		for (uint32_t n = 0; n < o->W; n++)
			d->hist[n] = U64(CTX_W_HIST + 2 * n);
#undef U64
	}
	o->warps_fresh = 1;
	return o->warps;
}

void
engine_ocl_set_steps_per_launch(struct engine *e, uint64_t k)
{
	struct ocl_engine *o = e->impl;

	o->k_fixed = k > K_MAX ? K_MAX : k;
}

void
engine_ocl_stats(struct engine *e, struct ocl_engine_stats *st)
{
	struct ocl_engine *o = e->impl;

	*st = o->stats;
}

const char *
engine_ocl_device_name(struct engine *e)
{
	struct ocl_engine *o = e->impl;

	return o->devname;
}
