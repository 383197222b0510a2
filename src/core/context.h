/*
 * The context buffer: the one layout of the device-side machine state that
 * the host (src/ocl/ocl-*.c) and every kernel in kernels/ share
 * (doc/manycore.md section 5).  Only macros and plain integer types, so that
 * C11 and OpenCL C 1.2 include the same file; everything is a 32-bit word.
 *
 *   word 0 ..                 header: machine geometry, launch parameters,
 *                             the shared words the kernel updates
 *                             atomically (stop_at, heap_top)
 *   CTX_H_CORES_OFF ..        the per-core register blocks
 *   CTX_H_WARPS_OFF ..        the per-warp divergence records
 *   (a level's own section, then)
 *   CTX_H_BLOCKS_OFF ..       the block marks: what a launch changed
 *   CTX_H_STEPREC_OFF ..      one word per core: its one-step record
 *
 * Per-core blocks, layout decision.  Field f of core c lives at
 *
 *     cores_off + c * core_stride + f * field_stride
 *
 * with both strides stored in the header, so the layout is a run-time
 * choice made once per device and no code outside CTX_CORE_WORD knows it:
 *   - AoS (core_stride = CTX_CORE_FIELDS, field_stride = 1) on CPUs: one
 *     core's 32 fields fill two cache lines that one thread owns;
 *   - SoA (core_stride = 1, field_stride = padded core count) on GPUs: the
 *     32 lanes of a warp load one field of 32 consecutive cores in one
 *     coalesced transaction.
 * The kernel reads a core's block once at the start of a launch and writes
 * it back once at the end, so the strides cost nothing per step.
 *
 * Stacks follow the same idea with a compile-time switch (the stack is
 * touched every step): word w of core c is at c * stack_words + w
 * (blocked, CPUs) or w * ncores + c (interleaved, GPUs); CTX_STACK_INDEX.
 *
 * Steps inside a launch are counted from 1 (relative to the global step
 * the launch starts from), so the kernel never does 64-bit arithmetic per
 * step; 64-bit counters are lo/hi word pairs updated once per launch.
 */
#ifndef MICDB_CONTEXT_H
#define MICDB_CONTEXT_H

#ifdef __OPENCL_VERSION__
typedef uint  ctx_u32;
typedef int   ctx_i32;
#else
#include <stdint.h>
typedef uint32_t ctx_u32;
typedef int32_t  ctx_i32;
#endif

#define CTX_MAGIC           0x4D434458u   /* "MCDX": layout version 1 */

/* ---- header words ---------------------------------------------------- */
#define CTX_H_MAGIC         0    /* CTX_MAGIC */
#define CTX_H_NCORES        1    /* cores of the machine */
#define CTX_H_STACK_WORDS   2    /* words of every core's stack region */
#define CTX_H_HEAP_WORDS    3    /* words of the shared heap */
#define CTX_H_WARP_W        4    /* warp width W, 1 .. 64 */
#define CTX_H_NWARPS        5    /* ceil(ncores / W) */
#define CTX_H_CORE_STRIDE   6    /* see above */
#define CTX_H_FIELD_STRIDE  7
#define CTX_H_CORES_OFF     8    /* word offset of the core blocks */
#define CTX_H_WARPS_OFF     9    /* word offset of the warp records */
#define CTX_H_OUT_CAP       10   /* bytes of each core's output area */
#define CTX_H_IN_CAP        11   /* bytes of each core's input area */
#define CTX_H_NPROGS        12   /* entries of the program table */
#define CTX_H_STACK_LAYOUT  13   /* 0 blocked, 1 interleaved */
#define CTX_H_BLOCKS_OFF    14   /* word offset of the block marks */
#define CTX_H_NBLOCKS       15   /* blocks of CTX_BLOCK_CORES cores */
/* launch parameters, written by the host before every launch */
#define CTX_H_STEPS         16   /* K: the launch runs steps 1 .. K */
#define CTX_H_FLAGS         17   /* CTX_F_* */
#define CTX_H_NBPS          18   /* entries of the breakpoint table */
/* shared words the kernel updates */
#define CTX_H_STOP_AT       19   /* atomic_min: no core executes a step
				    past it; starts at K */
#define CTX_H_HEAP_TOP      20   /* words of heap allocated (bump pointer,
				    compare-and-swap) */
#define CTX_H_NOTE          21   /* host clears it, a core that has news
				    for the host sets it (atomic_or): a
				    stop, an event, output or input used;
				    0 after a launch whose stop_at is still
				    K means every running core ran all K
				    steps and nothing else changed, so the
				    host need not read the core blocks */
#define CTX_H_LAUNCH_ID     22   /* host: a number no earlier launch of
				    this context had (never 0), that the
				    kernel writes into the block marks */
#define CTX_H_STEPREC_OFF   23   /* word offset of the one-step records:
				    after a one-step launch of a one-step
				    program (launch.h), word c is the
				    kernel path << 24 | the program path
				    of core c's step, CTX_NONE if it did
				    not run.  Core-major in every layout,
				    so that a warp's fold reads 32
				    consecutive words, not a word of 32
				    cores' blocks (AoS on a CPU) */
#define CTX_HEADER_WORDS    32

/* CTX_H_FLAGS */
#define CTX_F_STOPS         0x01 /* breakpoints and stop-on-fault cut the
				    launch (off while replaying) */
#define CTX_F_STOP_ON_FAULT 0x02
#define CTX_F_MASK          0x04 /* only cores with mask[c] != 0 run */
#define CTX_F_RELEASE       0x08 /* a barrier completed: WAITING cores
				    become RUNNING before step 1 */
#define CTX_F_DIVERGENCE    0x10 /* keep the per-warp records */
#define CTX_F_DRIFT         0x20 /* testing: ignore stop_at, as if every
				    work-group ran ahead (forces replays) */
#define CTX_F_JOIN          0x40 /* the fork-join's join completed:
				    JOINING cores become RUNNING before
				    step 1 (forkjoin.h) */

/* ---- per-core fields ------------------------------------------------- */
#define CTX_C_PC            0    /* registers, as struct core */
#define CTX_C_SP            1
#define CTX_C_LV            2
#define CTX_C_CPP           3
#define CTX_C_TOS           4
#define CTX_C_OPC           5
#define CTX_C_H             6
#define CTX_C_MAR           7
#define CTX_C_MDR           8
#define CTX_C_MBR           9
#define CTX_C_MPC           10
#define CTX_C_N             11
#define CTX_C_Z             12
#define CTX_C_STATUS        13   /* enum core_status */
#define CTX_C_FAULT         14   /* faults.def code */
#define CTX_C_FAULT_PC      15
#define CTX_C_FAULT_OP      16
#define CTX_C_PROG          17   /* index into the program table */
#define CTX_C_STEPS_LO      18   /* instructions retired, 64 bits */
#define CTX_C_STEPS_HI      19
#define CTX_C_CYCLES_LO     20   /* micro-cycles, 64 bits */
#define CTX_C_CYCLES_HI     21
/* written by every launch */
#define CTX_C_STOP_STEP     22   /* boundary where this core asked for a
				    stop, CTX_NONE if it did not */
#define CTX_C_STOP_BP       23   /* breakpoint id it hit there */
#define CTX_C_STOP_KIND     24   /* CTX_STOP_* */
#define CTX_C_EVENT_STEP    25   /* step in which it stopped running
				    (barrier, halt, fault), 0 if it did not */
#define CTX_C_LAST_STEP     26   /* last step it executed, 0 if none */
#define CTX_C_OUT_LEN       27   /* bytes it wrote to its output area */
#define CTX_C_IN_LEN        28   /* host: bytes in its input area */
#define CTX_C_IN_POS        29   /* kernel: bytes it consumed */
#define CTX_C_IN_MORE       30   /* host: more input waits beyond the area */
#define CTX_C_FORK          31   /* fork-join state, forkjoin.h's word */
#define CTX_CORE_FIELDS     32

#define CTX_NONE            0xFFFFFFFFu

/* ---- the host's struct core (machine.h), written by a kernel -----------
 * On a CPU device the one-step program also writes the registers of
 * every core that ran straight into the host's array of struct core (a
 * buffer over it, CL_MEM_USE_HOST_PTR), so that a one-step launch needs
 * no conversion pass over the context afterwards (src/ocl, "the
 * mirror").  Byte offsets; the host checks them against offsetof. */
#define CTX_HC_PC           0    /* int */
#define CTX_HC_SP           4
#define CTX_HC_LV           8
#define CTX_HC_TOS          16
#define CTX_HC_STATUS       44   /* uchar */
#define CTX_HC_FAULT        45   /* uchar */
#define CTX_HC_FAULT_PC     48   /* int */
#define CTX_HC_FAULT_OP     52   /* uchar */
#define CTX_HC_STEPS        56   /* 64 bits */
#define CTX_HC_FORK         72   /* uint */
#define CTX_HC_BYTES        80   /* sizeof (struct core) */

/* CTX_C_STOP_KIND */
#define CTX_STOP_BP         1    /* breakpoint at the boundary */
#define CTX_STOP_FAULT      2    /* faulted in that step, stop-on-fault */
#define CTX_STOP_IO         3    /* output area full or input area empty
				    with more to come: the host drains and
				    goes on, the user sees nothing */

/* Word index of field f of core c (c, f and the result fit 32 bits on
 * every machine the engine accepts: the host checks the buffer size). */
#define CTX_CORE_WORD(cores_off, core_stride, field_stride, c, f) \
	((cores_off) + (c) * (core_stride) + (f) * (field_stride))

/* ---- per-warp divergence records (doc/manycore.md section 3) -------------
 * Totals over the machine's life; a step counts for a warp when at least
 * one of its lanes executed in it (a lane that faults executed).  k is the
 * number of distinct handlers of the ISA kernel that the warp ran in the
 * step, HIST[n - 1] counts handler paths that n lanes took. */
#define CTX_W_STEPS_LO      0
#define CTX_W_STEPS_HI      1
#define CTX_W_ACTIVE_LO     2    /* sum of active lanes */
#define CTX_W_ACTIVE_HI     3
#define CTX_W_K_LO          4    /* sum of k */
#define CTX_W_K_HI          5
#define CTX_W_LAST_ACT_LO   6    /* last counted step: active lanes mask */
#define CTX_W_LAST_ACT_HI   7
#define CTX_W_LAST_CONV_LO  8    /* converged mask */
#define CTX_W_LAST_CONV_HI  9
#define CTX_W_LAST_DIV_LO   10   /* divergent mask */
#define CTX_W_LAST_DIV_HI   11
#define CTX_W_LAST_PATHS    12   /* distinct program paths (PCs) */
#define CTX_W_LAST_K        13   /* distinct kernel paths */
#define CTX_W_HIST          16   /* lo/hi pairs: HIST + 2 (n - 1) */
#define CTX_WARP_WORDS(w)   (CTX_W_HIST + 2 * (w))
/* Steps per chunk of a launch (launch.h MICDB_DIV_CHUNK's default): the
 * step loop folds its records, polls the stop word and, on NVIDIA, takes
 * the ISA kernel's warp vote once per chunk, counted from each launch's
 * start; the host's model of the records (test-ocl-diff) follows it. */
#define CTX_DIV_CHUNK       32

/* ---- breakpoint table (its own buffer) --------------------------------
 * nbps entries of CTX_BP_WORDS, then core-set bitmaps (bit c of word
 * c / 32 set: the breakpoint applies to core c). */
#define CTX_BP_PC           0
#define CTX_BP_ID           1
#define CTX_BP_SET          2    /* word offset of its bitmap, CTX_NONE: all
				    cores */
#define CTX_BP_WORDS        3

/* ---- program table (its own buffer) ----------------------------------- */
#define CTX_P_TEXT_OFF      0    /* byte offset in the text buffer */
#define CTX_P_TEXT_SIZE     1
#define CTX_P_CP_OFF        2    /* word offset in the constant-pool buffer */
#define CTX_P_CP_SIZE       3
#define CTX_P_MAIN_NLOCALS  4
#define CTX_PROG_WORDS      8

/* ---- block marks (after the level's section) ---------------------------
 * What a launch changed, so that the host's work after it is
 * proportional to that and not to the core count.  Cores are grouped in
 * blocks of CTX_BLOCK_CORES (block c >> CTX_BLOCK_SHIFT); two arrays of
 * nblocks words at blocks_off:
 *   RAN  block b holds the launch id of the last launch in which one of
 *        its cores executed a step (its block changed);
 *   NEWS block b holds the launch id of the last launch in which one of
 *        its cores had news (CTX_H_NOTE's condition).
 * Every core of a block that writes a mark writes the same value, so no
 * atomics; the host never clears them (launch ids only grow) and a
 * checkpoint restore brings back older ids, which match no later
 * launch. */
#define CTX_BLOCK_SHIFT     5
#define CTX_BLOCK_CORES     (1u << CTX_BLOCK_SHIFT)
#define CTX_B_RAN           0    /* array index: blocks_off + 0 */
#define CTX_B_NEWS          1    /* blocks_off + nblocks */

/* Word w (0 .. stack_words - 1) of core c's stack region. */
#define CTX_STACK_INDEX(interleaved, c, w, ncores, stack_words) \
	((interleaved) ? (w) * (ncores) + (c) : (c) * (stack_words) + (w))

#endif
