/*
 * Machine state: set-up, the memory map, the shared heap and console I/O.
 *
 * Every level (reference interpreter, micro-level simulators, the host
 * side of the OpenCL engine) sees memory only through this file, so the
 * map of memmap.h is enforced in one place:
 *
 *   constant pool  MM_CPP ..            read-only, the core's own program
 *   stack          MM_STACK_BASE ..     the calling core's region only
 *   globals        MM_GLOBALS_BASE ..   shared
 *   heap           MM_HEAP_BASE ..      shared, all heap_words of it
 *
 * Text is byte-addressed (machine_fetch_byte) and never word-accessible;
 * device words have side effects that belong to the level driving them,
 * so both give FAULT_MEM_RANGE here.
 *
 * Ownership: the machine owns cores, stacks, globals, heap and I/O
 * buffers.  The per-core arrays can be huge (--cores 1M x --stack-words),
 * so they are allocated with plain calloc and a failure is an error
 * message, not an abort as xcalloc would give.  The stacks are mapped
 * pages (stacks_alloc): zero until written, page-aligned, and resident
 * only where a core wrote, so nothing here may write a word that is
 * already zero (machine_reset_core clears only what was used); a
 * zero-copy OpenCL device runs on these very pages (doc/performance.md).
 *
 * Heap: a bump allocator (heap_top words used), never collected.  An
 * array is MM_ARRAY_TAG, length, elements; its reference is the word
 * address of the tag, so any level can check a reference by reading the
 * heap alone.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ijvm.h"
#include "machine.h"

/* The constant pool must end before the stack region starts: past that,
 * a word address CPP + index would name a stack word at the micro level. */
#define MM_CP_MAX_WORDS  (MM_STACK_BASE - MM_CPP)

static double
mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

/*
 * Zeroed pages for the stacks, taken from the kernel as they are first
 * written: a million cores of mostly unused stack cost what they use.
 * NULL on failure.
 */
static int32_t *
stacks_alloc(size_t bytes)
{
	void *p;

	p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void
stacks_free(struct machine *m)
{
	if (m->stacks != NULL)
		munmap(m->stacks, m->stacks_bytes ? m->stacks_bytes : 1);
	m->stacks = NULL;
}

/*
 * Words in use of w[0 .. n - 1]: the index past the last non-zero word.
 * Whole 64-byte lines are compared at once: on a mapped stack the unused
 * words are the shared zero page, always in cache, so a scan of a
 * million mostly empty stacks costs little and faults in nothing.
 */
uint32_t
machine_words_used(const int32_t *w, uint32_t n)
{
	while (n > 0 && (n & 15) != 0 && w[n - 1] == 0)
		n--;
	while (n >= 16) {
		const int32_t *l = w + n - 16;
		int32_t any = 0;

		for (int i = 0; i < 16; i++)
			any |= l[i];
		if (any != 0)
			break;
		n -= 16;
	}
	while (n > 0 && w[n - 1] == 0)
		n--;
	return n;
}

static void	core_start(struct machine *, uint32_t);

/* Check everything about a configuration before any allocation. */
static int
machine_check_config(const struct machine_config *cfg,
    const struct program **progs, size_t nprogs, const uint16_t *core_prog,
    char **cause)
{
	size_t i;
	uint32_t c;

	if (cfg->ncores < 1) {
		*cause = xasprintf("--cores must be at least 1");
		return -1;
	}
	/* Core ids and NCORES are pushed as 32-bit signed words. */
	if (cfg->ncores > INT32_MAX) {
		*cause = xasprintf("--cores %u is too many: at most %ld",
		    cfg->ncores, (long)INT32_MAX);
		return -1;
	}
	if (cfg->stack_words < 16) {
		*cause = xasprintf("--stack-words %u is too small: use at "
		    "least 16", cfg->stack_words);
		return -1;
	}
	if (cfg->stack_words > MM_MAX_STACK_WORDS) {
		*cause = xasprintf("--stack-words %u does not fit the stack "
		    "region: use at most %u", cfg->stack_words,
		    (unsigned)MM_MAX_STACK_WORDS);
		return -1;
	}
	if (cfg->heap_words > MM_MAX_HEAP_WORDS) {
		*cause = xasprintf("--heap-words %u is too large: use at "
		    "most %u", cfg->heap_words, (unsigned)MM_MAX_HEAP_WORDS);
		return -1;
	}
	if (cfg->warp_width < 1 || cfg->warp_width > 64) {
		*cause = xasprintf("warp width %u is out of range: use 1 to 64",
		    cfg->warp_width);
		return -1;
	}
	if (progs == NULL || nprogs == 0) {
		*cause = xasprintf("no program to run: load one first");
		return -1;
	}
	for (i = 0; i < nprogs; i++) {
		const struct program *p = progs[i];
		const char *name = p->path ? p->path : "program";

		if (p->main_nlocals < 1) {
			*cause = xasprintf("%s: main has no local words "
			    "(the loader reserves at least 1)", name);
			return -1;
		}
		if (p->main_nlocals >= cfg->stack_words) {
			*cause = xasprintf("%s: main needs %u local words but "
			    "the stack has %u: raise --stack-words", name,
			    p->main_nlocals, cfg->stack_words);
			return -1;
		}
		if (p->cp_size > MM_CP_MAX_WORDS) {
			*cause = xasprintf("%s: constant pool of %u words does "
			    "not fit the memory map (at most %u)", name,
			    p->cp_size, (unsigned)MM_CP_MAX_WORDS);
			return -1;
		}
	}
	if (core_prog != NULL) {
		for (c = 0; c < cfg->ncores; c++) {
			if (core_prog[c] >= nprogs) {
				*cause = xasprintf("core %u is given program %u "
				    "but only %zu are loaded", c,
				    (unsigned)core_prog[c], nprogs);
				return -1;
			}
		}
	}
	return 0;
}

int
machine_init(struct machine *m, const struct machine_config *cfg,
    const struct program **progs, size_t nprogs, const uint16_t *core_prog,
    char **cause)
{
	uint64_t ncores, per_core, total;
	uint32_t c;

	memset(m, 0, sizeof *m);
	if (machine_check_config(cfg, progs, nprogs, core_prog, cause) != 0)
		return -1;

	/* Everything that scales with the core count, in 64 bits: on a
	 * 32-bit size_t the product may not fit and must not wrap. */
	ncores = cfg->ncores;
	per_core = (uint64_t)cfg->stack_words * sizeof(int32_t) +
	    sizeof(struct core) + sizeof(struct core_io);
	total = ncores * per_core;	/* < 2^31 * 2^23: no wrap */
	/* The stacks first: they are the big one, and an absurd request
	 * should fail before anything else is mapped. */
	m->stacks_bytes = (size_t)ncores * cfg->stack_words *
	    sizeof *m->stacks;
	if (total <= SIZE_MAX &&
	    (m->stacks = stacks_alloc(m->stacks_bytes)) != NULL &&
	    (m->cores = calloc((size_t)ncores, sizeof *m->cores)) != NULL)
		m->io = calloc((size_t)ncores, sizeof *m->io);
	if (m->stacks == NULL || m->cores == NULL || m->io == NULL) {
		*cause = xasprintf("not enough memory for %u cores x %u stack "
		    "words (%.0f MiB): lower --cores or --stack-words",
		    cfg->ncores, cfg->stack_words, mib(total));
		goto fail;
	}
	m->globals = calloc(MM_GLOBALS_WORDS, sizeof *m->globals);
	/* A zero-word heap is legal (every NEWARRAY faults HEAP_FULL);
	 * allocate one word so that NULL always means failure. */
	m->heap = calloc(cfg->heap_words ? cfg->heap_words : 1,
	    sizeof *m->heap);
	if (m->globals == NULL || m->heap == NULL) {
		*cause = xasprintf("not enough memory for a heap of %u words "
		    "(%.0f MiB): lower --heap-words", cfg->heap_words,
		    mib((uint64_t)cfg->heap_words * sizeof(int32_t)));
		goto fail;
	}

	m->cfg = *cfg;
	m->progs = progs;
	m->nprogs = nprogs;
	/* the stacks are fresh pages: nothing to clear */
	for (c = 0; c < cfg->ncores; c++) {
		m->cores[c].prog = core_prog ? core_prog[c] : 0;
		core_start(m, c);
	}
	return 0;

fail:
	machine_free(m);	/* m->cfg is still zero: no io to walk */
	return -1;
}

void
machine_free(struct machine *m)
{
	uint32_t c;

	if (m->io != NULL) {
		for (c = 0; c < m->cfg.ncores; c++) {
			free(m->io[c].in);
			buf_free(&m->io[c].out);
		}
	}
	stacks_free(m);
	FREE_ALL(m->cores, m->io, m->globals, m->heap);
	memset(m, 0, sizeof *m);
}

uint32_t
machine_nwarps(const struct machine *m)
{
	uint32_t w = m->cfg.warp_width;

	return (m->cfg.ncores + w - 1) / w;
}

/* Registers and counters at the start of main, over a clear stack. */
static void
core_start(struct machine *m, uint32_t core)
{
	struct core *c = &m->cores[core];
	uint16_t prog = c->prog;
	const struct program *p = m->progs[prog];

	memset(c, 0, sizeof *c);
	c->prog = prog;
	c->lv = MM_STACK_BASE;
	c->sp = MM_STACK_BASE + (int32_t)p->main_nlocals - 1;
	c->tos = 0;	/* mem[sp] of a clear stack, unread: no page fault */
	c->cpp = MM_CPP;
	c->pc = 0;
	c->mpc = 0;
	c->status = CORE_RUNNING;
	c->fault = FAULT_NONE;
	c->fork = m->fork_join ? FJ_ON : 0;
}

/* Registers, counters and the stack region back to the start of main.
 * The program assignment and the console buffers stay: input already
 * typed and output not yet taken belong to the user, not to the run. */
void
machine_reset_core(struct machine *m, uint32_t core)
{
	int32_t *st = machine_stack_word(m, core, MM_STACK_BASE);

	/* only the words in use: the others are zero, maybe never mapped */
	memset(st, 0, (size_t)machine_words_used(st, m->cfg.stack_words) *
	    sizeof *st);
	core_start(m, core);
}

/*
 * Bytes of this process in swap ("VmSwap" of /proc/self/status), or -1
 * where that cannot be told (no /proc: another system).
 */
static long
swapped_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "VmSwap:", 7) == 0) {
			kib = strtol(line + 7, NULL, 10);
			break;
		}
	fclose(f);
	return kib;
}

void
machine_stacks_used(const struct machine *m, uint32_t *used)
{
	size_t sw = m->cfg.stack_words, page = (size_t)sysconf(_SC_PAGESIZE);
	size_t npages = (m->stacks_bytes + page - 1) / page;
	unsigned char *vec = malloc(npages ? npages : 1);

	/* A page never written is not resident, and neither is one in
	 * swap: mincore's answer counts only while nothing is swapped
	 * out, asked after it (nobody touches the stacks meanwhile, so a
	 * page swapped out before stays out). */
	if (vec != NULL && (mincore(m->stacks, m->stacks_bytes, vec) != 0 ||
	    swapped_kib() != 0)) {
		free(vec);
		vec = NULL;
	}
	for (size_t c = 0; c < m->cfg.ncores; c++) {
		const int32_t *st = m->stacks + c * sw;
		size_t lo = c * sw * 4, n = sw;

		/* from the top down, a page (or what of it is the core's)
		 * at a time: skipped unread where it was never written */
		while (n > 0) {
			size_t pg = (lo + (n - 1) * 4) / page;
			size_t first = pg * page > lo ?
			    (pg * page - lo) / 4 : 0;
			uint32_t k;

			if (vec != NULL && !(vec[pg] & 1)) {
				n = first;
				continue;
			}
			k = machine_words_used(st + first,
			    (uint32_t)(n - first));
			if (k > 0) {
				n = first + k;
				break;
			}
			n = first;
		}
		used[c] = (uint32_t)n;
	}
	free(vec);
}

void
machine_fork_join(struct machine *m)
{
	m->fork_join = 1;
	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		m->cores[c].fork |= FJ_ON;
}

void
machine_add_input(struct machine *m, uint32_t core, const uint8_t *data,
    size_t len)
{
	struct core_io *io = &m->io[core];

	if (len == 0)
		return;
	/* Drop what was consumed so a long session does not grow. */
	if (io->in_pos > 0) {
		memmove(io->in, io->in + io->in_pos, io->in_len - io->in_pos);
		io->in_len -= io->in_pos;
		io->in_pos = 0;
	}
	io->in = xrealloc(io->in, io->in_len + len);
	memcpy(io->in + io->in_len, data, len);
	io->in_len += len;
}

int
machine_take_input(struct machine *m, uint32_t core)
{
	struct core_io *io = &m->io[core];

	if (io->in_pos >= io->in_len)
		return -1;
	return io->in[io->in_pos++];
}

int
machine_read_word(const struct machine *m, uint32_t core, int32_t addr,
    int32_t *val)
{
	int writable;
	const int32_t *w = machine_word_at(m, core, addr, &writable);

	if (w == NULL)
		return FAULT_MEM_RANGE;
	*val = *w;
	return FAULT_NONE;
}

int
machine_write_word(struct machine *m, uint32_t core, int32_t addr,
    int32_t val)
{
	int writable;
	int32_t *w = machine_word_at(m, core, addr, &writable);

	if (w == NULL || !writable)
		return FAULT_MEM_RANGE;
	*w = val;
	return FAULT_NONE;
}

int
machine_fetch_byte(const struct machine *m, uint32_t core, int32_t addr)
{
	const struct program *p = m->progs[m->cores[core].prog];

	if (addr < 0 || (uint32_t)addr >= p->text_size)
		return -1;
	return p->text[addr];
}

int32_t
machine_new_array(struct machine *m, int32_t n, int *fault)
{
	uint32_t off = m->heap_top;

	if (n < 0) {
		*fault = FAULT_ARRAY_SIZE;
		return 0;
	}
	if ((uint64_t)n + MM_ARRAY_HDR > (uint64_t)m->cfg.heap_words - off) {
		*fault = FAULT_HEAP_FULL;
		return 0;
	}
	/* The words above heap_top are not necessarily zero: the micro
	 * levels may write anywhere in the heap region. */
	m->heap[off] = MM_ARRAY_TAG;
	m->heap[off + 1] = n;
	memset(&m->heap[off + MM_ARRAY_HDR], 0, (size_t)n * sizeof(int32_t));
	m->heap_top = off + MM_ARRAY_HDR + (uint32_t)n;
	*fault = FAULT_NONE;
	return MM_HEAP_BASE + (int32_t)off;
}

int
machine_array_elem(const struct machine *m, int32_t ref, int32_t i,
    int32_t *word_addr)
{
	int64_t off = (int64_t)ref - MM_HEAP_BASE;
	int32_t len;

	/* Only allocated words count: a forged tag above heap_top is not an
	 * array, and the length must keep the elements below heap_top. */
	if (off < 0 || off + MM_ARRAY_HDR > (int64_t)m->heap_top ||
	    m->heap[off] != MM_ARRAY_TAG)
		return FAULT_ARRAY_REF;
	len = m->heap[off + 1];
	if (len < 0 || off + MM_ARRAY_HDR + len > (int64_t)m->heap_top)
		return FAULT_ARRAY_REF;
	if (i < 0 || i >= len)
		return FAULT_ARRAY_BOUNDS;
	*word_addr = ref + MM_ARRAY_HDR + i;
	return FAULT_NONE;
}

void
ref_count(const struct machine *m, struct ref_summary *sum)
{
	uint32_t i;

	sum->running = sum->waiting = sum->halted = sum->faulted = 0;
	sum->joining = 0;
	sum->executed = 0;
	for (i = 0; i < m->cfg.ncores; i++) {
		switch (m->cores[i].status) {
		case CORE_RUNNING:
			sum->running++;
			break;
		case CORE_WAITING:
			sum->waiting++;
			break;
		case CORE_HALTED:
			sum->halted++;
			break;
		case CORE_JOINING:
			sum->joining++;
			break;
		default:
			sum->faulted++;
			break;
		}
	}
}
