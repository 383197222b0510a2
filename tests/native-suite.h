/*
 * How much of tests/test-native.c runs in each build: the host thread
 * counts, the core counts of the samples and the generated programs'
 * seeds.  The plain build runs every combination the file's design
 * comment names; the sanitizer builds look for memory errors, which
 * neither the schedule nor the count changes, and take fewer, so that
 * ./quickstart check stays within its 20 minutes on two cores (issue
 * 28).  Included once, by test-native.c.
 */
#ifndef MICDB_NATIVE_SUITE_H
#define MICDB_NATIVE_SUITE_H

/* The native engine's host threads in the current test, and the counts
 * each test runs at. */
static uint32_t nthreads = 1;
/* The sanitizer builds check memory, not the schedule: they take the
 * thread counts in turn only, so that the suite keeps its time. */
#if defined(__SANITIZE_ADDRESS__)
static const int extra_threads = 0;
#else
static const int extra_threads = 1;
#endif
static const uint32_t thread_counts[] = { 1, 2, 3, 16 };
#define NTHREAD_COUNTS (sizeof thread_counts / sizeof thread_counts[0])

/* The core counts each sample runs at: within a warp, at its edges and
 * beyond it.  A second microprogram's pass and the sanitizer builds
 * take the fewest that still cross a warp (2 and 33): the first pass
 * of the plain build has the others, and the sanitizers look for
 * memory errors, which the counts do not change (the suite's time on a
 * 2-core machine, issue 28). */
static const uint32_t few_counts[] = { 2, 33 };
#if defined(__SANITIZE_ADDRESS__)
static const uint32_t *sample_counts = few_counts;
static size_t nsample_counts = sizeof few_counts / sizeof few_counts[0];
#else
static const uint32_t all_counts[] = { 1, 2, 3, 4, 32, 33 };
static const uint32_t *sample_counts = all_counts;
static size_t nsample_counts = sizeof all_counts / sizeof all_counts[0];
#endif

/* Mutants of each sample: a third of them in the sanitizer builds. */
#if defined(__SANITIZE_ADDRESS__)
#define MUTANTS(n) ((n) / 3 > 0 ? (n) / 3 : 1)
#else
#define MUTANTS(n) (n)
#endif

/* Generated racy programs: 24 seeds, 8 in the sanitizer builds (which
 * also take the thread counts in turn: see extra_threads). */
#if defined(__SANITIZE_ADDRESS__)
#define GEN_SEEDS 8
#else
#define GEN_SEEDS 24
#endif

#define WORK_CAP	2000000ull      /* core-steps of one whole-run mode */
/* The same, runs mode's runs of 10^8 steps at 1 core: long programs
 * (bench/single) compared to their end */
#define WORK_CAP1	40000000ull
/* Runs mode's series of runs of 7 steps: a run's boundaries in every
 * kind of instruction and micro-sequence, over the first RUN7_WORK
 * core-steps (the runs of 1,000 and 10^8 steps go on to WORK_CAP).  At
 * 1 core, runs of 7 to WORK_CAP1 were 400,000 runs of bench/single, a
 * tenth of test-native-pmic's time (issue 28). */
#define RUN7_WORK	300000ull
/* The core-steps a runs-mode series of runs of k steps goes on to; the
 * series alternate stop-on-fault on and off. */
static uint64_t
runs_cap(uint64_t k, uint32_t ncores)
{
	if (k < 1000)
		return RUN7_WORK;
	return ncores == 1 && k > 1000 ? WORK_CAP1 : WORK_CAP;
}

/* Breakpoint mode's runs: each stops at a hit and is compared; a loop
 * that hits a breakpoint every few steps reaches this long before
 * WORK_CAP (multiply: 3,000 stops, 10 s at PMIC, with 3,000). */
#define BP_RUNS		1000

/* Runs mode compares the memory (every core's stack, the globals, the
 * heap: 300 KB and more, most of the test's time when compared after
 * each of a long series of runs of 7 steps) after each of a series' first
 * RUN_MEM_FIRST runs, then after every RUN_MEM_EVERY-th and after the
 * last; the registers, counters, status, output, input position and
 * side state after every run.  Step mode compares the memory after every
 * step.  What this gives up: a word written wrong and then overwritten
 * with the right value within RUN_MEM_EVERY runs of 7 steps, past a
 * series' first RUN_MEM_FIRST runs (doc/performance.md section 21.1). */
#define RUN_MEM_FIRST	64
#define RUN_MEM_EVERY	16
static int cmp_memory = 1;	/* cmp_state compares the memory too */

#endif
