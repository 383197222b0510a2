/*
 * The OpenCL engine's insides, shared by its files (src/ocl/ocl-*.c); the
 * public interface is engine-ocl.h.  The machine lives in device
 * buffers, a level's kernel (kernels/isa.cl, mic.cl, pmic.cl) steps
 * every core, the host copy (e->m) is refreshed from the context buffer
 * where launches changed it (block marks, ocl-readback.c).  One host
 * engine for every level: what differs between levels (kernel, the
 * per-core section after the warp records, the control store, the host
 * state such as struct mic1_state, what a breakpoint compares) comes
 * from a struct ocl_level (ocl-level.h); the ISA level's is in
 * ocl-setup.c, the micro levels' are in engine-ocl-mic.c and
 * engine-ocl-pmic.c.
 *
 * Buffers: the context (context.h: header, core blocks, warp records),
 * the stacks, the globals, the heap, the programs' text and constant
 * pools with a program table (read-only), per-core output and input
 * areas, the breakpoint table and the scheduler-locking mask.
 *
 * The files, by responsibility, each calling only the ones above it in
 * this list (a chain, no two files calling each other):
 *   ocl-tuning.c    the tuning table, MICDB_OCL_TEST;
 *   ocl-buffers.c   device buffers, the host view of the context (mapped
 *                   or copied), the mirror, stacks shared with the host
 *                   or moved as the rows in use, layout planning,
 *                   mem_need;
 *   ocl-readback.c  the context into struct core and back, block marks,
 *                   news, the output drain;
 *   ocl-launch.c    one launch: input fed, kernel run, where it ended,
 *                   barrier release, adaptive K;
 *   ocl-ckpt.c      checkpoints, restore and replay to a cut;
 *   ocl-run.c       advancing to a consistent cut, stops, run();
 *   ocl-ops.c       the engine operations (memory, input, save/load,
 *                   warps, free);
 *   ocl-setup.c     kernel builds, program upload, creation.
 */
#ifndef MICDB_OCL_ENGINE_H
#define MICDB_OCL_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "engine-ocl.h"
#include "ocl-level.h"
#include "ocl.h"
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
/* Entries of the per-status counts: a power of two above CORE_NSTATUS,
 * so that a status indexes them with a mask. */
#define OCL_NCNT        8

struct ocl_ckpt {
	int		 valid;
	/* shared stacks (struct ocl_engine): the words in use of every
	 * core's stack, kept on the host, core after core */
	uint32_t	*slen;
	int32_t		*stack;
	size_t		 stack_cap;
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

/* The work-group targets (wg_target) of the GPU and CPU layouts, which
 * the default engine's rule also reads (engine_ocl_device_props). */
#define OCL_WG_GPU 128
#define OCL_WG_CPU 32

/*
 * The tuning table: every choice of how the engine runs that differs by
 * device, filled once at creation (ocl_tuning_init) from the device's
 * kind, and overridden only by MICDB_OCL_TEST (tests run every device's
 * paths on POCL).  Nothing else in the engine reads the environment
 * (ocl.c reads MICDB_DEVICE and MICDB_KERNEL_DIR).
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
	 * warp instructions, 0 between work-group barriers elsewhere. */
	int		 warpsync;
	/* isa.cl's software prefetch distance with the CPU layout on a CPU
	 * (a GPU's coalesced loads need none; NVIDIA refuses it). */
	int		 prefetch;
	/* The one-step program writes m->cores itself on a CPU device with
	 * a mapped context; on a GPU its writes would cross the bus. */
	int		 mirror;
	/* Host threads for conversions and news of at least convert_min
	 * cores: one thread converting a million cores is a large part of
	 * a GPU's run.  The threads this process may use (par_cpus), and
	 * OCL_CONVERT_SHARE cores for each of them: the threads are started
	 * per conversion, which pays only where each one's share takes
	 * several times a thread's start and join (doc/performance.md
	 * section 23: both scale with the processor, the count with the
	 * machine). */
#define OCL_CONVERT_SHARE 8192u
	uint32_t	 host_threads, convert_min;
	/* Tests only: fixed steps per launch (0: adapt), cores that ignore
	 * the stop word (CTX_F_DRIFT: cuts are replayed), a device of at
	 * most device_mib MiB (0: as it says), one allocation of at most
	 * alloc_kib KiB (0: as it says), a host that gives at most
	 * host_mib MiB (0: as it says; ocl_mem_limit). */
	uint64_t	 steps;
	int		 drift;
	/* Tests only: 0 declines traces through the engine (engine.h
	 * trace_start), so that the writer reads the machine after every
	 * one-step run, the path the engine's records are compared with;
	 * trace_steps, the most steps a run records (the runs of micdb run
	 * that end at full records, doc/performance.md section 25.4). */
	int		 trace;
	uint32_t	 trace_steps;
	uint64_t	 device_mib;
	uint64_t	 alloc_kib;
	uint64_t	 host_mib;
};

/* Bytes of a trace's buffer (struct ocl_engine b_trace) at most, and
 * steps: the steps a launch may run while tracing. */
#define OCL_TRACE_BYTES (64u << 20)
#define OCL_TRACE_STEPS 4096u

/* ocl-tuning.c: the table for a device of these kinds (nv: NVIDIA's
 * compiler), with
 * MICDB_OCL_TEST's overrides; -1 with *cause if that is malformed (the
 * table then holds the defaults). */
int	ocl_tuning_init(struct ocl_tuning *t, int gpu, int cpu, int nv,
	    char **cause);

/* One engine: what engine.h's struct engine keeps in impl. */
struct ocl_engine {
	struct machine		*m;        /* the host copy (e->m) */
	const struct ocl_level	*lv;       /* what differs by level */
	void			*st;       /* the level's host state */
	struct engine_ops	 ops;      /* ocl_engine_ops, level names */
	char			*devname;  /* "platform / device" */
	struct ocl_tuning	 tune;     /* the choices made per device */
	struct ocl_mem_limit	 mem;      /* what limits the buffers */
	cl_context		 cl;
	cl_command_queue	 q;        /* in order: reads follow launches */
	cl_program		 prog;     /* the step loop's build */
	cl_kernel		 kern;     /* its step kernel */
	/* One-step launches (K = 1) with the records, at a level that has
	 * them (ocl_level.fold1_name): a build of the kernel without the
	 * step loop's records (prog1, kern1), and its fold kernel (fold1,
	 * launch.h); step1 says whether there are such kernels. */
	cl_program		 prog1;
	cl_kernel		 kern1, fold1;
	int			 step1;
	/* The mirror (context.h CTX_HC_*): on a CPU device the one-step
	 * kernel writes the registers of the cores that ran into m->cores
	 * itself, through b_mirror, a buffer over m->cores, which the host
	 * keeps mapped but during such a launch.  It saves the conversion
	 * of every core that ran. */
	int			 mirror;
	cl_mem			 b_mirror;
	void			*hmirror;  /* mapped: m->cores; NULL: not */

	/* Buffers (see the top): context, stacks, globals, heap, text,
	 * constant pools, program table, output and input areas,
	 * breakpoint table, scheduler-locking mask. */
	cl_mem	 b_ctx, b_stacks, b_globals, b_heap, b_text, b_cp, b_progs;
	cl_mem	 b_out, b_in, b_bps, b_mask;
	cl_mem	 c_ctx, c_stacks, c_globals, c_heap;  /* checkpoint copies */
	cl_mem	 b_side;          /* the level's read-only side buffer */
	/* Stacks shared with the host (ocl_share_stacks): on a zero-copy
	 * device with the blocked layout the stack buffers are m->stacks
	 * itself, so nothing is uploaded or read back and only the pages
	 * cores wrote are resident.  Where the device limits one
	 * allocation they are nchunks buffers of chunk_cores cores each
	 * (chunks[0] is b_stacks), and a launch runs a chunk at a time
	 * (the kernels index a chunk from the launch's global offset). */
	int	 shared_stacks;
	cl_mem	*chunks;
	uint32_t nchunks, chunk_cores;
	/* Otherwise snapshots read the rows in use (ocl_get_stacks): the
	 * kernel that finds them (launch.h launch_stack_used) and its
	 * result word, made on first use. */
	cl_kernel k_used;
	cl_mem	 b_used;
	size_t	 text_bytes;      /* of b_text, padding included */
	int	 ckpt_ok;         /* 1 allocated, 0 not yet, -1 impossible */

	/* Geometry (ocl_plan): cores, warps, warp width, work-group size. */
	uint32_t ncores, nwarps, W, wg;
	size_t	 gsize;           /* global size: ncores rounded up to wg */
	/* context.h's layout: strides of a core's fields, offsets of the
	 * core blocks and of the warp records */
	uint32_t core_stride, field_stride, cores_off, warps_off;
	uint32_t sec_off;         /* the level's section (ocl-level.h) */
	uint32_t blocks_off, nblocks;  /* block marks (context.h) */
	uint32_t steprec_off;          /* one-step records (context.h) */
	int	 interleaved;     /* stack layout */
	uint32_t out_cap, in_cap; /* bytes of each core's I/O areas */
	size_t	 ctx_words, stack_words_total;  /* buffer sizes, words */

	/* The host view of the context.  On a CPU device the buffer is
	 * host memory (CL_MEM_ALLOC_HOST_PTR) and hctx is it, mapped
	 * (zero_copy): reading back copies nothing; hctx is valid only
	 * while mapped (mapped), and is unmapped before anything on the
	 * queue touches the buffer.  Elsewhere hctx is a copy in pinned
	 * host memory: b_host (CL_MEM_ALLOC_HOST_PTR), mapped for the
	 * engine's life, so that reads and writes of the context are DMA
	 * at the bus's speed (a pageable copy is several times slower).
	 * It is a malloc'd copy only where the device cannot give pinned
	 * memory. */
	uint32_t *hctx;
	cl_mem	 b_host;
	int	 zero_copy, mapped;
	/* A copy (not zero_copy) that holds what the device has, no launch
	 * or restore since it was read: all of it (ctx_fresh), or the part
	 * that run() reads (ctx_fresh_cores, see ocl_ctx_fetch_cores). */
	int	 ctx_fresh, ctx_fresh_cores;
	/* The host copy m->cores, kept proportional to what launches
	 * change (ocl-readback.c).  Between runs it is whole, but for the
	 * cores a run's engine_run.current left out (engine.h), until
	 * sync_cores.  During a run
	 * the status of every core is exact in stat (a status changes only
	 * with news, whose blocks ocl_absorb_news reads, or at a barrier
	 * release), and so are cnt, the cores per status.  m->cores may be
	 * behind in the blocks that ran since launch id `since` (0: none
	 * did) and in the blocks marked stale (news read into stat only,
	 * or a release); every run() ends with those converted once
	 * (ocl_sync_cores, or ocl_sync_some for engine_run.current), and
	 * so does anything that reads m->cores in between. */
	uint32_t launch_id;       /* of the last launch, never 0 */
	uint32_t since;
	uint32_t cnt[OCL_NCNT];   /* per enum core_status */
	uint8_t	*stat;            /* per core: its status, exact */
	uint8_t	*stale;           /* per block: m->cores behind */
	int	 any_stale;       /* some block is stale */
	struct ocl_news news;     /* of the last launch with news */
	int	 quiet;           /* the last launch was quiet */
	uint32_t hdr[CTX_HEADER_WORDS];  /* staging for header words */

	/* run state */
	uint8_t	*seen;            /* faults already noted, as engine-ref */
	int	 pending_release; /* released on the host, not yet on device:
				     the status released (CORE_WAITING, or
				     CORE_JOINING for the join), or 0 */
	uint64_t k_fixed;         /* steps per launch; 0: adapt */
	uint64_t k_adapt;         /* the adapted K (ocl_launch) */

	/* breakpoint table and mask as last uploaded */
	uint32_t *bp_words;       /* the table's words */
	size_t	 bp_nwords, nbps, bp_cap;  /* its words, entries, capacity */
	uint8_t	*mask_host;       /* per core: may run */
	int	 mask_valid;      /* mask_host is on the device */

	/* cores that have had input: their areas are refreshed on demand */
	uint32_t *in_cores;
	uint8_t	*in_dirty;        /* per entry of in_cores */
	uint8_t	*in_listed;       /* per core */
	size_t	 n_in_cores;

	uint8_t	*outbuf;          /* staging for the output areas */

	struct ocl_ckpt ck;       /* the checkpoint (ocl-ckpt.c) */
	struct engine_stats stats;  /* engine_ocl_stats */
	struct engine_warp_record *warps;  /* engine_ocl_warps' copy */

	/* A trace through the engine (engine.h trace_start, tracebuf.h):
	 * prog and kern are then the step loop's traced build, every
	 * launch fills b_trace (tr_cap steps of tr_sw words) and is read
	 * into tr_host at its steps' places from the run's start, step
	 * tr_base; tr_done steps of the run are a cut the run accepted.
	 * b_tslot: per core its slot among the tr_cores traced ones, each
	 * of tr_cw words (the level's TB_CORE_WORDS). */
	int	 tracing;
	cl_mem	 b_trace, b_tslot;
	uint32_t tr_cores, tr_cw, tr_sw, tr_cap;
	uint32_t *tr_host;        /* pinned where b_trhost is not NULL */
	cl_mem	 b_trhost;
	uint64_t tr_base, tr_done;
	int	 warps_fresh;     /* warps holds the last run's records */
};

#define CORE_WORD(o, c, f) \
	((size_t)CTX_CORE_WORD((o)->cores_off, (o)->core_stride, \
	    (o)->field_stride, (size_t)(c), (size_t)(f)))
#define CF(o, c, f) ((o)->hctx[CORE_WORD(o, c, f)])

#define TRY(o, call, what) do { \
	cl_int err_ = (call); \
	if (err_ != CL_SUCCESS) { \
		*cause = ocl_cl_failure((o), (what), err_); \
		return -1; \
	} \
} while (0)

/* Core c's status is st now, in stat and cnt. */
static inline void
ocl_set_stat(uint8_t *stat, uint32_t *cnt, uint32_t c, uint8_t st)
{
	if (st != stat[c]) {
		cnt[stat[c] & (OCL_NCNT - 1)]--;
		cnt[st & (OCL_NCNT - 1)]++;
		stat[c] = st;
	}
}

/*
 * The text buffer (ocl_upload_programs): the programs' texts one after
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

/* ocl-buffers.c: device buffers, the host view of the context, layout */
double	ocl_now(void);
/* The message of a failed call; counts it (stats.failures). */
char	*ocl_cl_failure(struct ocl_engine *o, const char *call,
	    cl_int err);
int	ocl_mkbuf(struct ocl_engine *o, cl_mem *b, size_t bytes,
	    cl_mem_flags fl, char **cause);
int	ocl_write_buf(struct ocl_engine *o, cl_mem b, size_t off, size_t bytes,
	    const void *p, char **cause);
int	ocl_read_buf(struct ocl_engine *o, cl_mem b, size_t off, size_t bytes,
	    void *p, char **cause);
int	ocl_ctx_open(struct ocl_engine *o, char **cause);
int	ocl_ctx_close(struct ocl_engine *o, char **cause);
int	ocl_mirror_map(struct ocl_engine *o, char **cause);
int	ocl_mirror_unmap(struct ocl_engine *o, char **cause);
void	ocl_mirror_reclaim(struct ocl_engine *o);
int	ocl_mirror_make(struct ocl_engine *o, char **cause);
int	ocl_ctx_put(struct ocl_engine *o, size_t word, size_t nwords,
	    char **cause);
int	ocl_ctx_fetch(struct ocl_engine *o, char **cause);
int	ocl_ctx_fetch_cores(struct ocl_engine *o, char **cause);
int	ocl_write_core_field(struct ocl_engine *o, uint32_t c, uint32_t f,
	    uint32_t v, char **cause);
int	ocl_share_stacks(struct ocl_engine *o, char **cause);
int	ocl_enqueue_run(struct ocl_engine *o, cl_kernel k, char **cause);
int	ocl_put_stacks(struct ocl_engine *o, const uint32_t *slen,
	    const int32_t *words, char **cause);
int	ocl_get_stacks(struct ocl_engine *o, uint32_t *slen, int32_t **words,
	    size_t *nwords, char **cause);
int	ocl_upload_stacks(struct ocl_engine *o, char **cause);
int	ocl_download_stacks(struct ocl_engine *o, char **cause);
int	ocl_copy_buf(struct ocl_engine *o, cl_mem from, cl_mem to,
	    size_t bytes, char **cause);
size_t	ocl_heap_bytes(const struct ocl_engine *o);
void	ocl_release_all(struct ocl_engine *o);
/* engine_ocl_mem_limit for an engine's tuning (device_mib, alloc_kib,
 * host_mib and zero_copy). */
void	ocl_mem_limit(const struct ocl_tuning *t, uint64_t global_mem,
	    uint64_t max_alloc, struct ocl_mem_limit *lim);
int	ocl_plan(struct ocl_engine *o, const struct ocl_device *d,
	    char **cause);
int	ocl_host_copy(struct ocl_engine *o);
/* Zeroed host memory that read-backs fill fast (pinned, in *buf, where
 * the device gives it), or NULL; freed by ocl_pinned_free. */
void	*ocl_pinned_alloc(struct ocl_engine *o, size_t bytes, cl_mem *buf);
void	ocl_pinned_free(struct ocl_engine *o, cl_mem buf, void *p);

/* ocl-readback.c: the context into struct core, news, output */
void	ocl_level_section(const struct ocl_engine *o, struct ocl_section *s);
/* The host copy into the context; stat and cnt recounted from it. */
void	ocl_cores_to_ctx(struct ocl_engine *o);
void	ocl_ctx_to_cores(struct ocl_engine *o);
void	ocl_absorb_news(struct ocl_engine *o);
int	ocl_sync_cores(struct ocl_engine *o, char **cause);
int	ocl_sync_some(struct ocl_engine *o, const uint32_t *list, size_t n,
	    char **cause);
int	ocl_drain_output(struct ocl_engine *o, char **cause);
/* Before core c's output grows: its length goes to the checkpoint's list
 * (the first time since the checkpoint), so a restore can cut it back. */
void	ocl_ckpt_note_output(struct ocl_engine *o, uint32_t c);

/* ocl-ckpt.c: checkpoints and replay */
int	ocl_ckpt_alloc(struct ocl_engine *o);
int	ocl_ckpt_take(struct ocl_engine *o, char **cause);
int	ocl_ckpt_restore(struct ocl_engine *o, char **cause);
int	ocl_replay(struct ocl_engine *o, const struct engine_run *r,
	    uint64_t target, char **cause);

/* ocl-launch.c: one launch */
int	ocl_launch(struct ocl_engine *o, const struct engine_run *r,
	    uint32_t K, int checks, char **cause);
int	ocl_any_runnable(const struct ocl_engine *o, const uint8_t *mask);
void	ocl_release_barrier(struct ocl_engine *o);
void	ocl_trace_release(struct ocl_engine *o);
uint32_t	ocl_launch_end(const struct ocl_engine *o, const uint8_t *mask,
	    uint32_t K, int *overshoot);
uint32_t	ocl_choose_k(const struct ocl_engine *o, uint64_t remaining);

/* ocl-run.c: run() */
int	ocl_run(struct engine *e, const struct engine_run *r,
	    struct engine_stop *stop, char **cause);
int	ocl_sync_op(struct engine *e, char **cause);

/* ocl-ops.c: the engine operations */
int	ocl_at_boundary(struct engine *e, uint32_t core);
void	*ocl_level_state(struct engine *e);
extern const struct engine_ops ocl_engine_ops;

#endif
