/*
 * micdb run: load the programs, step the machine until every core has
 * halted or faulted, and pass the cores' output through.
 *
 * Output (doc/debugger.md section 1): with one core (or --output raw) bytes go
 * to stdout as the core writes them; with more, every core's output is
 * cut into lines and each line printed as "[core N] text" when its newline
 * arrives, so no core's line is ever split by another's.  Faults are one
 * line each on stderr when they happen.  Input for core 0 comes from
 * --input or stdin, read only when core 0 is about to execute IN, so
 * interactive programs work and programs that never read do not block.
 *
 * SIGINT stops the run at a step boundary (exit 3) with the output so far
 * flushed: nothing is lost.  SIGTERM stops it the same way and then ends
 * the process by that signal, as it always did (status 143).  Either
 * signal, the step limit and a deadlock say where the cores that have not
 * ended are: the census of the debugger's `info cores`, grouped by place
 * (places.h), a screenful at most.
 *
 * On a terminal a progress line on stderr says, from the first second
 * on, what a long run does (doc/debugger.md section 1).  The clock is read
 * a few times per engine run, that is per about a tenth of a second
 * (or per trace line, which costs far more than a clock read), and the
 * cores are counted only when the line is redrawn, four times a second:
 * nothing that a run's speed could notice.  The line is erased before
 * anything else is written to the terminal and at the end.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#ifdef HAVE_ENGINE_OCL
#include "engine-ocl.h"
#endif
#include "ijvm.h"
#include "opts.h"
#include "levels.h"
#include "places.h"
#include "ref.h"
#include "run.h"
#include "session.h"
#include "trace.h"

static const char run_usage[] =
"usage: micdb run [options] PROGRAM\n"
"       micdb run [options] --program FILE:RANGE [--program FILE:RANGE...] [PROGRAM]\n"
"Run a .jas or .ijvm program on an emulated many-core machine to completion\n"
"and print what its cores write.\n"
"\n"
"  --cores N            number of cores (default 1, or as --program ranges need)\n"
"  --program FILE:RANGE run FILE on cores RANGE (e.g. 0-511 or 0-7,12): MIMD\n"
"  --input FILE         input bytes for core 0 (default: standard input)\n"
"  --max-steps N        stop after N steps (exit 3)\n"
"  --output raw|lines   raw: pass bytes through; lines (default with more\n"
"                       than one core): prefix each line with [core N]\n"
"  --stack-words N      private stack words per core (default 4096)\n"
"  --heap-words N       shared heap words (default 1048576)\n"
"  --warp-width W       warp width for divergence records, 1..64 (default 32)\n"
"  --engine ENGINE      ref: the level's C golden model; native: the program\n"
"                       (ISA) or control store (mic, pmic) pre-decoded, run\n"
"                       on the host; opencl: the level's OpenCL kernel.\n"
"                       Default: the fastest for the level, cores, threads\n"
"                       and device: on a GPU opencl from 128 (ISA) or 256\n"
"                       (micro levels) cores per thread where the native\n"
"                       engines run translated (x86-64), 64 or 32 where\n"
"                       they interpret, native below; on a CPU device\n"
"                       (POCL) native, unless its compute units outnumber\n"
"                       32 (ISA) or 16 x the threads (4 or 2 interpreted)\n"
"                       and the cores fill them; micdb bench reports the\n"
"                       crossover\n"
"  --threads N          host threads of the native engines, 1..256 (default:\n"
"                       the processors this process may use: its CPU\n"
"                       affinity and cgroup quota); results are the same\n"
"                       at every count\n"
"  --device SEL         OpenCL device: index, P:D or name substring\n"
"                       (default: MICDB_DEVICE, else the first GPU, else CPU)\n"
"  --level isa|mic|pmic execution level: isa (default); mic: Tanenbaum's\n"
"                       Mic-1 running a microprogram, one step a micro-cycle;\n"
"                       pmic: the PMIC of the Monzali thesis, three compute\n"
"                       units a cycle, one step a cycle\n"
"  --microcode FILE     microprogram: for --level mic .mal or .mic1 (default\n"
"                       the project's mic1.mal), for --level pmic .pm or\n"
"                       .pmic (default the project's pmic.pm)\n"
"  --fork-join          fork-join model: the k-th INVOKEVIRTUAL that main\n"
"                       executes is carried out by core k alone and skipped\n"
"                       (0 pushed) by the others; a core back in main from\n"
"                       its call waits until no core runs (the join)\n"
"  --trace FILE         write a trace of the run: JSON lines (.jsonl, and any\n"
"                       other name), Perfetto (.json), VCD (.vcd) or an SVG\n"
"                       timeline (.svg)\n"
"  --trace-format F     jsonl: one line per step with the traced cores'\n"
"                       registers; perfetto: divergence counters, method\n"
"                       frames, waits and faults for ui.perfetto.dev; vcd:\n"
"                       the traced cores' registers for GTKWave; svg: each\n"
"                       warp's efficiency and paths and the cores' status\n"
"                       over the run (default: from the file name)\n"
"  --trace-cores SET    the cores with their own track or signals, e.g.\n"
"                       0-7,12 (default: the first warp)\n"
"  -h, --help           show this help\n"
"\n"
"On a terminal, a run that lasts more than a second shows a progress line\n"
"on stderr (steps, cores running / waiting / halted / faulted, instructions\n"
"per second), erased at the end.  Ctrl-C, SIGTERM, --max-steps and a\n"
"deadlock print where the cores that have not ended are: the census of the\n"
"debugger's info cores, grouped by status and PC, a screenful at most.\n"
"At --level mic a run that shows the Mic-1 microprogram's missing checks\n"
"(a core below its frame, a fault they lead to, or the ISA level faulting\n"
"the same program for one of them) ends with the debugger's note on them.\n"
"\n"
"Exit status: 0 every core halted, 1 a core faulted, 2 bad input or usage\n"
"or output that cannot be written, 3 step limit reached, deadlock or\n"
"interrupted (SIGTERM: killed by it).\n";

/* The progress line: shown after PROGRESS_DELAY seconds, redrawn every
 * PROGRESS_EVERY seconds (a few times a second, as top and rsync do). */
#define PROGRESS_DELAY	1.0
#define PROGRESS_EVERY	0.25
/* An engine run's target length (run_loop): short beside the progress
 * line's redraw and a user's patience with output, long beside a run's
 * fixed cost. */
#define RUN_SLICE	0.1
/* Lines of the census of the cores that have not ended: a screenful. */
#define CENSUS_LINES	20

struct progress {
	int		 on;           /* stderr is a terminal */
	int		 shown;        /* a line is on it now */
	int		 tty_out;      /* stdout is a terminal too */
	double		 start;        /* when the run began (seconds) */
	double		 last;         /* when the line was last drawn */
	uint64_t	 last_insns;   /* instructions retired then */
	uint64_t	 last_step;    /* machine steps then */
};

struct run {
	struct machine		 m;
	struct engine		 e;
	const struct micdb_opts	*o;
	int			 input_fd;     /* -1: no lazy input */
	int			 input_eof;
	int			 raw;          /* pass bytes through */
	struct trace		*trace;        /* --trace; NULL: none */
	uint32_t		 trace_steps;  /* steps a run may record
					          (the engine keeps the
					          records); 0: one a run */
	/* engine_run.current under such a trace (current_cores), and
	 * whether the last run left the other cores behind */
	uint32_t		*current;
	size_t			 ncurrent;
	int			 behind;
	uint8_t			*reported;     /* faults already printed */
	int			 any_fault;
	struct microcode	 mc;           /* micro levels: the microprogram */
	struct engine_bp	*in_bps;       /* IN instructions of core 0 */
	size_t			 nin_bps;
	uint8_t			*core0;        /* core set {0} for in_bps */
	struct buf		 fed;          /* every input byte core 0 got */
	struct progress		 prog;
};

/* The id of the breakpoints that wait for input: no user id reaches it. */
#define RUN_INPUT_BP	0xFFFFFFFFu

/* 0, or the signal (SIGINT, SIGTERM) that asked the run to stop. */
static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	interrupted = sig;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
progress_init(struct run *r)
{
	r->prog.on = isatty(STDERR_FILENO);
	r->prog.tty_out = isatty(STDOUT_FILENO);
	r->prog.start = r->prog.last = now();
}

/* Erase the line (carriage return, clear to the end of the line). */
static void
progress_clear(struct run *r)
{
	if (!r->prog.shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	r->prog.shown = 0;
}

/* "12.3M": a rate in three digits. */
static void
human(double v, char *text, size_t size)
{
	static const char unit[] = " kMGT";
	int u = 0;

	while (v >= 999.5 && u < 4) {
		v /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(text, size, "%.0f", v);
	else
		snprintf(text, size, "%.*f%c", v < 9.95 ? 2 : v < 99.5 ? 1 : 0,
		    v, unit[u]);
}

static void
progress_tick(struct run *r)
{
	struct progress *p = &r->prog;
	struct ref_summary sum;
	struct winsize ws;
	uint64_t insns = 0;
	double t, dt;
	char line[256], rate[16], cycles[16];
	int len, cols = 80;

	if (!p->on)
		return;
	t = now();
	if (t - p->start < PROGRESS_DELAY || t - p->last < PROGRESS_EVERY)
		return;
	ref_count(&r->m, &sum);
	for (uint32_t c = 0; c < r->m.cfg.ncores; c++)
		insns += r->m.cores[c].steps;
	dt = t - p->last;
	human((double)(insns - p->last_insns) / dt, rate, sizeof rate);
	human((double)(r->m.step - p->last_step) / dt, cycles, sizeof cycles);
	len = snprintf(line, sizeof line, "micdb run: step %llu: %u running, "
	    "%u waiting, %u halted, %u faulted; %s instr/s",
	    (unsigned long long)r->m.step, sum.running + sum.joining,
	    sum.waiting, sum.halted, sum.faulted, rate);
	if (r->o->level != LEVEL_ISA && len > 0 && (size_t)len < sizeof line)
		snprintf(line + len, sizeof line - (size_t)len,
		    ", %s cycles/s", cycles);
	/* one line: longer than the terminal, it would wrap and \r could
	 * not erase it */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		cols = ws.ws_col;
	if (cols - 1 < (int)sizeof line)
		line[cols - 1] = '\0';
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	p->shown = 1;
	p->last = t;
	p->last_insns = insns;
	p->last_step = r->m.step;
}

/* A message on stderr, the progress line out of its way first. */
static void
say(struct run *r)
{
	fflush(stdout);
	progress_clear(r);
}

/* Pass complete lines (or all bytes when raw) of every core to stdout. */
static void
drain_output(struct run *r, int final)
{
	for (uint32_t c = 0; c < r->m.cfg.ncores; c++) {
		struct buf *out = &r->m.io[c].out;
		size_t start = 0;

		if (out->len == 0)
			continue;
		if (r->prog.tty_out)
			progress_clear(r);
		if (r->raw) {
			fwrite(out->data, 1, out->len, stdout);
			out->len = 0;
			continue;
		}
		for (size_t i = 0; i < out->len; i++) {
			if (out->data[i] != '\n')
				continue;
			printf("[core %u] %.*s\n", c, (int)(i - start),
			    (const char *)out->data + start);
			start = i + 1;
		}
		if (final && start < out->len) {
			printf("[core %u] %.*s\n", c, (int)(out->len - start),
			    (const char *)out->data + start);
			start = out->len;
		}
		memmove(out->data, out->data + start, out->len - start);
		out->len -= start;
	}
}

/*
 * Input is read lazily: while core 0 has no input left, every IN of its
 * program is a breakpoint for core 0, so the engine stops (at a
 * consistent cut) just before an IN would push 0, and we read then.  A
 * byte 0xFC that is an operand, not an opcode, is never a PC, so marking
 * every such byte is harmless.  The native engines look at a breakpoint
 * only when a core reaches its address, so a program that never reads
 * pays nothing for it.
 */
static void
find_input_points(struct run *r)
{
	const struct program *p = r->m.progs[r->m.cores[0].prog];

	r->core0 = xcalloc(r->m.cfg.ncores, 1);
	r->core0[0] = 1;
	if (r->o->level != LEVEL_ISA) {
		/* the micro engines break on MPCs: IN's microcode starts at
		 * its opcode's address (Mic-1 and PMIC alike) */
		r->in_bps = xcalloc(1, sizeof *r->in_bps);
		r->in_bps[0].id = RUN_INPUT_BP;
		r->in_bps[0].pc = OP_IN;
		r->in_bps[0].cores = r->core0;
		r->in_bps[0].on = ENGINE_BP_ON_MPC;
		r->nin_bps = 1;
		return;
	}
	for (uint32_t a = 0; a < p->text_size; a++) {
		if (p->text[a] != OP_IN)
			continue;
		r->in_bps = xreallocarray(r->in_bps, r->nin_bps + 1,
		    sizeof *r->in_bps);
		r->in_bps[r->nin_bps].id = RUN_INPUT_BP;
		r->in_bps[r->nin_bps].pc = (int32_t)a;
		r->in_bps[r->nin_bps].cores = r->core0;
		r->nin_bps++;
	}
}

static int
input_wanted(const struct run *r)
{
	const struct core_io *io = &r->m.io[0];

	return r->input_fd >= 0 && !r->input_eof && io->in_pos >= io->in_len;
}

static void
read_input(struct run *r)
{
	uint8_t chunk[4096];
	ssize_t n;

	say(r);			/* a prompt must show before we wait */
	do
		n = read(r->input_fd, chunk, sizeof chunk);
	while (n < 0 && errno == EINTR && !interrupted);
	if (n <= 0)
		r->input_eof = 1;
	else {
		r->e.ops->add_input(&r->e, 0, chunk, (size_t)n);
		buf_put(&r->fed, chunk, (size_t)n);
	}
}

static void
report_faults(struct run *r)
{
	for (uint32_t i = 0; i < r->m.cfg.ncores; i++) {
		const struct core *c = &r->m.cores[i];
		const struct ijvm_opinfo *info;
		const struct program *p;
		const struct symbol *sym;
		struct buf facts = { 0 };

		if (c->status != CORE_ERROR || r->reported[i])
			continue;
		r->reported[i] = 1;
		r->any_fault = 1;
		info = ijvm_builtin(c->fault_op);
		p = r->m.progs[c->prog];
		say(r);
		engine_fault_facts(&r->e, i, r->o->level != LEVEL_ISA, &facts);
		fprintf(stderr, "micdb: core %u: %s%.*s at pc 0x%04x (opcode "
		    "0x%02x %s", i, ijvm_fault_message(c->fault),
		    (int)facts.len, facts.data ? (char *)facts.data : "",
		    (uint32_t)c->fault_pc, c->fault_op,
		    info ? info->name : "unknown");
		buf_free(&facts);
		sym = c->fault_pc >= 0 ? program_method_at(p,
		    (uint32_t)c->fault_pc) : NULL;
		if (sym != NULL)
			fprintf(stderr, " in %s", sym->name);
		if (c->fault_pc >= 0 && program_line_at(p,
		    (uint32_t)c->fault_pc) != 0)
			fprintf(stderr, ", %s line %u", p->path,
			    program_line_at(p, (uint32_t)c->fault_pc));
		fprintf(stderr, ")\n");
	}
}

/* What the trace reads after a step (trace.h). */
static void
trace_view_of(struct run *r, struct trace_view *v)
{
	memset(v, 0, sizeof *v);
	v->m = &r->m;
	v->level = r->o->level;
	if (v->level != LEVEL_ISA && r->e.ops->level_state != NULL)
		v->level_state = r->e.ops->level_state(&r->e);
	v->syms = v->level != LEVEL_ISA ? &r->mc.syms : NULL;
	v->e = &r->e;
}

/* The run's steps into the trace: the engine's records of them, or
 * the machine after a one-step run; -1 once a write failed (a full
 * disk: stop the run). */
static int
trace_step(struct run *r)
{
	struct trace_view v;

	trace_view_of(r, &v);
	return trace_record_engine(r->trace, &v);
}

/*
 * The cores an engine run under a trace with records leaves current
 * (engine.h engine_run.current): the traced ones, which the trace reads
 * from the machine, and core 0, whose input run_loop looks at; the
 * others wait for the checks between runs (cores_whole), which come as
 * often as without a trace, where a traced run ends wherever the
 * records are full (doc/performance.md section 25.4).
 */
static void
current_cores(struct run *r)
{
	uint32_t n;
	const uint32_t *list = trace_cores(r->trace, &n);

	r->current = xcalloc((size_t)n + 1, sizeof *r->current);
	if (n == 0 || list[0] != 0)
		r->current[r->ncurrent++] = 0;
	memcpy(r->current + r->ncurrent, list, (size_t)n * sizeof *list);
	r->ncurrent += n;
}

/* Every core's registers current again, after a run that left some
 * behind; -1 (said) on a device failure. */
static int
cores_whole(struct run *r)
{
	char *cause = NULL;

	if (!r->behind)
		return 0;
	r->behind = 0;
	if (r->e.ops->sync_cores(&r->e, &cause) != 0) {
		say(r);
		fprintf(stderr, "micdb: %s\n", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/*
 * Where the cores that have not ended (running, waiting, joining) are,
 * after the line that says why the run stopped: the census of `info
 * cores` grouped by place, largest group first, CENSUS_LINES groups at
 * most ("79 cores running at 0x00c6 (half+12, collatz.jas:120): ...").
 */
static void
report_where(struct run *r)
{
	struct places v;
	struct buf out = { 0 };
	uint8_t *sel = xcalloc(r->m.cfg.ncores, 1);
	uint32_t n = 0, more;

	memset(&v, 0, sizeof v);
	v.m = &r->m;
	v.level = r->o->level;
	if (v.level != LEVEL_ISA && r->e.ops->level_state != NULL)
		v.level_state = r->e.ops->level_state(&r->e);
	v.focus = UINT32_MAX;
	for (uint32_t c = 0; c < r->m.cfg.ncores; c++) {
		int st = r->m.cores[c].status;

		sel[c] = st == CORE_RUNNING || st == CORE_WAITING ||
		    st == CORE_JOINING;
		n += sel[c];
	}
	buf_printf(&out, "micdb: ");
	places_counts(&v, &out);
	if (n > 0) {
		more = places_by_pc(&v, sel, CENSUS_LINES, &out);
		if (more > 0)
			buf_printf(&out, "  ... and %u more group%s\n", more,
			    more == 1 ? "" : "s");
	}
	fwrite(out.data, 1, out.len, stderr);
	buf_free(&out);
	free(sel);
}

/*
 * Whether the program, run again at the ISA level on the same input,
 * faults where the Mic-1 microprogram does not look: operand-stack
 * underflow or a local index (doc/ijvm.md section 3).  The ISA run gets
 * the Mic-1 run's steps (micro-cycles, more than its instructions) as its
 * bound, so it costs a fraction of the run it checks.  An engine that
 * cannot open, or a run that does not end in the bound, says no.
 */
static int
isa_faults_unchecked(struct run *r, const struct loaded *l,
    const struct machine_config *cfg)
{
	struct machine m;
	struct engine e;
	struct engine_run er;
	struct engine_stop stop;
	uint64_t budget = r->m.step;
	char *cause = NULL;
	int found = 0;

	if (machine_init(&m, cfg, l->ptrs, l->nprogs, l->core_prog,
	    &cause) != 0) {
		free(cause);
		return 0;
	}
	if (r->m.fork_join)
		machine_fork_join(&m);
	if (level_engine_open(&e, &m, LEVEL_ISA, r->o->engine, r->o->device,
	    r->o->threads, NULL, &cause) != 0) {
		free(cause);
		machine_free(&m);
		return 0;
	}
	if (r->fed.len > 0)
		e.ops->add_input(&e, 0, r->fed.data, r->fed.len);
	memset(&er, 0, sizeof er);
	er.interrupt = &interrupted;
	while (m.step < budget) {
		er.max_steps = budget - m.step;
		if (e.ops->run(&e, &er, &stop, &cause) != 0) {
			free(cause);
			break;
		}
		if (stop.reason != STOP_STEPS && stop.reason != STOP_FAULT)
			break;
	}
	for (uint32_t i = 0; i < m.cfg.ncores && !found; i++)
		found = m.cores[i].status == CORE_ERROR &&
		    (m.cores[i].fault == FAULT_STACK_UNDERFLOW ||
		    m.cores[i].fault == FAULT_LOCAL_INDEX);
	engine_free(&e);
	machine_free(&m);
	return found;
}

/*
 * The Mic-1 microprogram does not check operand-stack underflow or local
 * indices (doc/ijvm.md section 3): a run at that level that shows it ends
 * with the note the debugger gives when it switches to Mic-1.  It shows
 * it when a core is below its frame's floor, when a core faulted where a
 * broken frame leads (outside its regions, IRETURN's underflow check, a
 * link pointer outside the stack), or, for a run that ended, when the ISA
 * level faults the same program with a check Mic-1 lacks.
 */
static void
mic1_note(struct run *r, const struct loaded *l,
    const struct machine_config *cfg, int ended)
{
	int show = 0;

	if (r->o->level != LEVEL_MIC)
		return;
	for (uint32_t i = 0; i < r->m.cfg.ncores && !show; i++) {
		const struct core *c = &r->m.cores[i];
		int32_t floor;

		show = c->status == CORE_ERROR ? c->fault == FAULT_MEM_RANGE ||
		    c->fault == FAULT_STACK_UNDERFLOW ||
		    c->fault == FAULT_STACK_ACCESS :
		    ref_frame_floor(&r->m, i, &floor) == 0 && c->sp < floor;
	}
	if (!show && ended && !interrupted)
		show = isa_faults_unchecked(r, l, cfg);
	if (show) {
		say(r);
		fprintf(stderr, "micdb: %s\n", session_mic1_note);
	}
}

static int
run_loop(struct run *r)
{
	struct engine_run er;
	struct engine_stop stop;
	char *cause = NULL;
	/* Engine runs of about RUN_SLICE seconds, output and the step
	 * limit looked at between them: the first of about four million
	 * core-steps, then twice as many steps while a run takes less
	 * than half a slice, half as many above two slices but never fewer
	 * than the first (shorter runs would not open the host engines'
	 * windows, which would make them slower still).  A run's fixed cost
	 * (at many cores the window's copy, an OpenCL read-back of every
	 * core) is then a small part of it on any machine (doc/performance.md
	 * section 19.4).  A trace needs every step: an engine that keeps
	 * trace records runs as without a trace (up to what its records
	 * hold), else the trace reads the machine after one-step runs;
	 * both look at the cores' output and faults (a pass over every
	 * core) only as often as a run without it (sections 25, 25.1). */
	const uint64_t least = 1 + (4u << 20) / r->m.cfg.ncores;
	uint64_t every = least, chunk, since = 0;
	double t0;

	memset(&er, 0, sizeof er);
	er.interrupt = &interrupted;
	er.current = r->current;
	er.ncurrent = r->ncurrent;
	for (;;) {
		chunk = !r->trace ? every : r->trace_steps == 0 ? 1 :
		    every < r->trace_steps ? every : r->trace_steps;
		er.max_steps = chunk;
		if (r->o->max_steps) {
			if (r->m.step >= r->o->max_steps) {
				drain_output(r, 1);
				say(r);
				fprintf(stderr, "micdb: stopped after %llu steps "
				    "with cores still running (raise "
				    "--max-steps)\n",
				    (unsigned long long)r->m.step);
				report_where(r);
				return EXIT_STOPPED;
			}
			if (er.max_steps > r->o->max_steps - r->m.step)
				er.max_steps = r->o->max_steps - r->m.step;
		}
		/* breakpoints are not checked where a run starts */
		if (input_wanted(r) && r->m.cores[0].status == CORE_RUNNING &&
		    (r->o->level != LEVEL_ISA ? r->m.cores[0].mpc == OP_IN :
		    machine_fetch_byte(&r->m, 0, r->m.cores[0].pc) == OP_IN))
			read_input(r);
		er.bps = input_wanted(r) ? r->in_bps : NULL;
		er.nbps = er.bps ? r->nin_bps : 0;
		t0 = now();
		if (r->e.ops->run(&r->e, &er, &stop, &cause) != 0) {
			drain_output(r, 1);
			say(r);
			fprintf(stderr, "micdb: %s\n", cause);
			free(cause);
			return EXIT_USAGE;
		}
		r->behind = r->current != NULL && stop.reason == STOP_STEPS;
		if (r->trace && stop.steps_run > 0 && trace_step(r) != 0) {
			/* the commit of the trace says what failed */
			drain_output(r, 1);
			return EXIT_USAGE;
		}
		if (stop.reason == STOP_STEPS && stop.steps_run == chunk &&
		    (chunk == every || r->current != NULL)) {
			/* a run that full records ended says what one of
			 * `every` steps would take: the checks between runs
			 * then come as often as without a trace */
			double dt = (now() - t0) * (double)every /
			    (double)chunk;

			if (dt < RUN_SLICE / 2 && every < UINT64_MAX / 2)
				every *= 2;
			else if (dt > RUN_SLICE * 2 && every / 2 >= least)
				every /= 2;
		}
		since += stop.steps_run;
		if (since >= every || stop.reason != STOP_STEPS ||
		    (r->o->max_steps && r->m.step >= r->o->max_steps)) {
			if (cores_whole(r) != 0) {
				drain_output(r, 1);
				return EXIT_USAGE;
			}
			drain_output(r, 0);
			report_faults(r);
			progress_tick(r);
			since = 0;
		}
		switch (stop.reason) {
		case STOP_STEPS:
		case STOP_FAULT:
			break;
		case STOP_BREAKPOINT:
			read_input(r);
			break;
		case STOP_DONE:
			drain_output(r, 1);
			return r->any_fault ? EXIT_FAULTED : EXIT_ALL_HALTED;
		case STOP_DEADLOCK:
			drain_output(r, 1);
			say(r);
			fprintf(stderr, "micdb: deadlock at step %llu: cores wait "
			    "at a barrier that cannot complete\n",
			    (unsigned long long)r->m.step);
			report_where(r);
			return EXIT_STOPPED;
		case STOP_INTERRUPT:
			drain_output(r, 1);
			say(r);
			fprintf(stderr, "micdb: %s after %llu steps\n",
			    interrupted == SIGTERM ? "terminated" :
			    "interrupted", (unsigned long long)r->m.step);
			report_where(r);
			return EXIT_STOPPED;
		}
	}
}

static int
check_supported(const struct micdb_opts *o, char **cause)
{
	if (o->microcode != NULL && o->level == LEVEL_ISA) {
		*cause = xasprintf("--microcode needs --level mic or --level "
		    "pmic");
		return -1;
	}
	if (o->batch_path) {
		*cause = xasprintf("--batch belongs to the debugger (micdb "
		    "--batch FILE PROGRAM), not to micdb run");
		return -1;
	}
	return 0;
}

static int
engine_create(struct run *r, char **cause)
{
	if (r->o->level != LEVEL_ISA) {
		if (microcode_load(&r->mc, r->o->level, r->o->microcode,
		    cause) != 0)
			return -1;
	}
	return level_engine_open(&r->e, &r->m, r->o->level, r->o->engine,
	    r->o->device, r->o->threads, &r->mc, cause);
}

static void
run_free(struct run *r)
{
	trace_abort(r->trace);		/* a run that failed: no trace */
	engine_free(&r->e);
	microcode_free(&r->mc);
	free(r->reported);
	free(r->current);
	free(r->in_bps);
	free(r->core0);
	buf_free(&r->fed);
	machine_free(&r->m);
}

static int
setup_input(struct run *r, char **cause)
{
	r->input_fd = -1;
	if (r->o->input_path != NULL) {
		uint8_t *data;
		size_t len;

		if (read_file(r->o->input_path, &data, &len, cause) != 0)
			return -1;
		r->e.ops->add_input(&r->e, 0, data, len);
		buf_put(&r->fed, data, len);
		free(data);
		r->input_eof = 1;
		return 0;
	}
	r->input_fd = STDIN_FILENO;
	return 0;
}

int
run_main(int argc, char **argv)
{
	struct micdb_opts o;
	struct loaded l;
	struct run r;
	struct sigaction sa, old;
	struct machine_config cfg;
	char *cause = NULL;
	const char *why;
	int rc;

	memset(&r, 0, sizeof r);
	if ((rc = opts_start(&o, argc, argv, run_usage, &cause)) == 1)
		return 0;
	if (rc != 0 || check_supported(&o, &cause) != 0)
		goto usage;
	if (opts_load(&o, &l, &cause) != 0)
		goto usage;
	cfg.ncores = l.ncores;
	cfg.stack_words = o.stack_words;
	cfg.heap_words = o.heap_words;
	cfg.warp_width = o.warp_width;
	if (machine_init(&r.m, &cfg, l.ptrs, l.nprogs, l.core_prog,
	    &cause) != 0) {
		loaded_free(&l);
		goto usage;
	}
	if (o.fork_join)
		machine_fork_join(&r.m);
	r.o = &o;
	r.raw = opts_output_raw(&o, cfg.ncores);
	r.reported = xcalloc(cfg.ncores, 1);
	if (engine_create(&r, &cause) != 0)
		goto fail;
	find_input_points(&r);
	if (setup_input(&r, &cause) != 0)
		goto fail;
	/* The trace is written whole or not at all (struct atomic_file):
	 * a run that ends, faults or hits its step limit commits it; an
	 * interrupt (SIGINT), a failed write, SIGTERM or SIGHUP leave the
	 * file that was there as it was, and no temporary behind. */
	if (o.trace_path) {
		struct trace_view v;

		trace_view_of(&r, &v);
		if (trace_open(&r.trace, o.trace_path, o.trace_format,
		    o.trace_cores, &v, &cause) != 0)
			goto fail;
		if (trace_engine_start(r.trace, &v, &r.trace_steps) != 0)
			r.trace_steps = 0;
		else if (r.e.ops->sync_cores != NULL)
			current_cores(&r);
		atomic_cleanup_on_signals();
	}
	/* without SA_RESTART (signal() sets it): a Ctrl-C must end the
	 * read that waits for input (read_input), not only a run */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	/* SIGTERM: stop and say where the cores are, then end by it (below);
	 * one the caller ignores stays ignored */
	if (sigaction(SIGTERM, NULL, &old) != 0 || old.sa_handler != SIG_IGN)
		sigaction(SIGTERM, &sa, NULL);
	progress_init(&r);
	rc = run_loop(&r);
	if (cores_whole(&r) != 0)
		rc = EXIT_USAGE;
	progress_clear(&r);
	mic1_note(&r, &l, &cfg, rc == EXIT_ALL_HALTED || rc == EXIT_FAULTED);
	if ((why = stdout_failed()) != NULL) {
		fprintf(stderr, "micdb: cannot write output: %s\n", why);
		rc = EXIT_USAGE;
	}
	if (r.trace != NULL && interrupted && rc != EXIT_USAGE) {
		fprintf(stderr, "micdb: interrupted: no trace written, %s "
		    "is as it was\n", o.trace_path);
		trace_abort(r.trace);
		r.trace = NULL;
	} else if (r.trace != NULL) {
		if (trace_close(r.trace, &cause) != 0) {
			fprintf(stderr, "micdb run: %s\n", cause);
			free(cause);
			rc = EXIT_USAGE;
		}
		r.trace = NULL;
	}
	run_free(&r);
	loaded_free(&l);
	opts_free(&o);
	if (interrupted == SIGTERM) {
		/* the status says what ended the run, as before */
		fflush(NULL);
		signal(SIGTERM, SIG_DFL);
		raise(SIGTERM);
	}
	return rc;
fail:
	run_free(&r);
	loaded_free(&l);
usage:
	fprintf(stderr, "micdb run: %s\n", cause);
	free(cause);
	opts_free(&o);
	return EXIT_USAGE;
}
