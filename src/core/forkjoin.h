/*
 * The fork-join model's per-core state (doc/manycore.md section 1), one
 * 32-bit word per core: struct core's fork (machine.h) on the host,
 * field CTX_C_FORK of the context buffer (context.h) on the device.
 * Only macros, so that C11 and OpenCL C 1.2 include the same file and
 * every engine reads the word the same way.
 *
 *   FJ_ON   the core runs under the fork-join model (set for every core
 *           of a --fork-join machine when it is made, never changed)
 *   FJ_IN   the core is inside its forked method: set by the INVOKEVIRTUAL
 *           it carries out, cleared by the IRETURN that brings it back
 *           into main (which also puts it at the join, CORE_JOINING)
 *   FJ_N    how many INVOKEVIRTUALs the core has executed in main,
 *           carried out or skipped (saturates at FJ_N)
 *
 * The rules, the same in ref.c, the native engine, the kernels and the
 * micro levels: the k-th INVOKEVIRTUAL executed in main (k = FJ_N before
 * it, counting from 0) is carried out by core k alone; every other core,
 * and every core when k >= N, skips it: it pops the object reference and
 * the arguments and pushes 0.  A skip makes the same checks as a call up
 * to the stack underflow one (it needs the callee's argument count), and
 * a faulting INVOKEVIRTUAL changes nothing, the count included.
 */
#ifndef MICDB_FORKJOIN_H
#define MICDB_FORKJOIN_H

#define FJ_ON       0x80000000u
#define FJ_IN       0x40000000u
#define FJ_N        0x3FFFFFFFu

/* The word after one more INVOKEVIRTUAL in main. */
#define FJ_COUNT(f) (((f) & FJ_N) == FJ_N ? (f) : (f) + 1u)
/* Whether core c carries out the INVOKEVIRTUAL in main that it is about
 * to execute (f: its word before it, FJ_ON set). */
#define FJ_MINE(f, c) (((f) & FJ_N) == (c))

#endif
