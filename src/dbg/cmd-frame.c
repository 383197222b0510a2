/*
 * The focused core's registers and call frames: info registers, info
 * frame, backtrace/bt/where, and gdb's frame selection: up, down, frame,
 * info locals, info args.
 *
 * The selected frame (s->frame_sel, an index into session_frames' walk)
 * is where print and x look up locals (session.c) and what the stack
 * pane highlights (session_selected_frame); every stop and focus change
 * puts it back at 0, as gdb does.  frame prints gdb's two lines: "#1
 * 0x00c9 in half (n=27) at collatz.jas:113" and that source line.
 *
 * Frames are walked from LV through the link pointers with the rules of
 * the ISA level (ref.h: ref_frame_floor / ref_frame_nlocals): a method
 * frame's local 0 is the link pointer, the word address of the saved PC;
 * the saved LV follows it and is the frame's floor; its operand stack is
 * floor+1 .. SP.  main's frame has LV == MM_STACK_BASE and
 * main_nlocals locals.  The words are read through the engine, so the
 * walk works on any engine; a link that leaves the stack ends the walk
 * with a note instead of an error.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"
#include "ijvm.h"
#include "mic1.h"
#include "regs.h"

#define MAX_SHOWN    16    /* locals or stack words shown per frame */

/*
 * The micro-instruction about to execute (the word at MPC, which the
 * next cycle loads into MIR), field by field, and the memory operation
 * in flight: what a student reads off the datapath.
 */
static void
put_micro(struct session *s, uint32_t core, struct buf *out)
{
	const struct core *k = &s->m.cores[core];
	const struct microcode *mc = session_microcode(s, session_level(s));
	const struct mic1_state *st = session_level_state(s);
	uint64_t w;
	uint32_t jam, alu, cb, mem;
	const char *fn;
	char text[160];

	if (mc == NULL || k->mpc >= MIC1_STORE_WORDS)
		return;
	buf_printf(out, "MIR  at MPC ");
	session_describe_mpc(s, k->mpc, out);
	if (session_level(s) != LEVEL_MIC) {
		/* another word format (PMIC): its unit fields are its own */
		const struct mal_sym *sym = mal_syms_at(&mc->syms, k->mpc);

		if (sym != NULL && sym->text != NULL)
			buf_printf(out, ": %s\n", sym->text);
		else if (pmic_present(&mc->pcs, k->mpc)) {
			/* a .pmic without its symbols: disassembled */
			pmic_disasm(&mc->pcs.mi[k->mpc], text, sizeof text);
			buf_printf(out, ": %s\n", text);
		} else
			buf_printf(out, ": no micro-instruction (executing it "
			    "faults)\n");
		return;
	}
	if (!mc->cs.present[k->mpc]) {
		buf_printf(out, ": no micro-instruction (executing it faults)\n");
		return;
	}
	w = mc->cs.word[k->mpc];
	mic1_disasm(w, text, sizeof text);
	buf_printf(out, ": %s\n", text);
	jam = mic1_jam(w);
	alu = mic1_alu(w);
	cb = mic1_cbus(w);
	mem = mic1_mem(w);
	buf_printf(out, "     word 0x%09llx  NEXT_ADDRESS 0x%03x  JAM%s%s%s%s\n",
	    (unsigned long long)w, mic1_next(w), jam ? "" : " none",
	    jam & MIC1_JAM_PC ? " JMPC" : "", jam & MIC1_JAM_N ? " JAMN" : "",
	    jam & MIC1_JAM_Z ? " JAMZ" : "");
	fn = mic1_func_name(MIC1_ALU_FUNC(alu));
	if (fn == NULL)
		fn = MIC1_ALU_FUNC(alu) == 0 ? "0" :
		    "not in the book's table";
	buf_printf(out, "     ALU %s  F0 F1 ENA ENB INVA INC = %d %d %d %d %d %d"
	    "%s%s\n", fn, !!(alu & MIC1_ALU_F0),
	    !!(alu & MIC1_ALU_F1), !!(alu & MIC1_ALU_ENA),
	    !!(alu & MIC1_ALU_ENB), !!(alu & MIC1_ALU_INVA),
	    !!(alu & MIC1_ALU_INC), alu & MIC1_ALU_SLL8 ? "  SLL8" : "",
	    alu & MIC1_ALU_SRA1 ? "  SRA1" : "");
	buf_printf(out, "     C");
	if (cb == 0)
		buf_printf(out, " none");
	for (int bit = MIC1_SIZE_C - 1; bit >= 0; bit--)
		if (cb & (1u << bit))
			buf_printf(out, " %s", mic1_c_name(bit));
	buf_printf(out, "  MEM%s%s%s%s  B %s\n", mem ? "" : " none",
	    mem & MIC1_MEM_WRITE ? " WRITE" : "",
	    mem & MIC1_MEM_READ ? " READ" : "",
	    mem & MIC1_MEM_FETCH ? " FETCH" : "", mic1_b_name(mic1_bsel(w)));
	if (st == NULL)
		return;
	buf_printf(out, "pending:");
	if (st->core[core].pending == 0)
		buf_printf(out, " nothing in flight");
	if (st->core[core].pending & MIC1_PEND_READ)
		buf_printf(out, " READ of word 0x%x (MDR next cycle)",
		    (uint32_t)st->core[core].mar_latch);
	if (st->core[core].pending & MIC1_PEND_FETCH)
		buf_printf(out, " FETCH of byte 0x%04x (MBR next cycle)",
		    (uint32_t)st->core[core].pc_latch);
	buf_printf(out, "%s\n", session_at_boundary(s, core) ?
	    "; at an instruction boundary" : "");
}

/* One row of info registers. */
static void
put_reg(struct session *s, uint32_t core, int r, struct buf *out)
{
	int32_t v = reg_get(&s->m.cores[core], r);

	buf_printf(out, "%-4s 0x%08x %11d", reg_name(r), (uint32_t)v, v);
	if (r == REG_PC && session_level(s) == LEVEL_ISA) {
		buf_printf(out, "  ");
		session_describe_pc(s, core, v, out);
	} else if (r == REG_PC) {
		buf_printf(out, "  in ");
		session_describe_pc(s, core, session_core_pc(s, core), out);
	} else if (r == REG_MPC && session_level(s) != LEVEL_ISA) {
		buf_printf(out, "  ");
		session_describe_mpc(s, (uint32_t)v, out);
	}
	buf_printf(out, "\n");
}

/* A register name after info registers (pc, $sp, TOS), or -1 + *cause. */
static int
reg_arg(const char *word, char **cause)
{
	const char *name = word[0] == '$' ? word + 1 : word;
	const char *near = NULL;
	int r, bestd = 1000;

	if ((r = reg_find(name)) >= 0)
		return r;
	for (int k = 0; k < REG_COUNT; k++) {
		char lower[8];
		size_t i;
		int d;

		for (i = 0; reg_name(k)[i] != '\0' && i + 1 < sizeof lower; i++)
			lower[i] = (char)(reg_name(k)[i] | 0x20);
		lower[i] = '\0';
		if ((d = spelling_near(name, lower)) >= 0 && d < bestd) {
			bestd = d;
			near = reg_name(k);
		}
	}
	if (near != NULL)
		*cause = xasprintf("no register '%s' (did you mean '%s'?)", word,
		    near);
	else
		*cause = xasprintf("no register or core '%s' (registers: PC SP LV "
		    "CPP TOS OPC H MAR MDR MBR MPC N Z; a core is a number)",
		    word);
	return -1;
}

static int
cmd_info_registers_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint32_t core = s->focus, w = s->m.cfg.warp_width;
	const struct core *k;
	const char *p = c->args;
	char word[32];
	int regs[REG_COUNT * 2], nregs = 0;

	/* gdb's register names (info registers pc sp), and a core number */
	while (cmd_word(&p, word, sizeof word)) {
		uint64_t n;

		if (word[0] >= '0' && word[0] <= '9') {
			if (cmd_count(word, &n, cause) != 0)
				return -1;
			if (n >= s->m.cfg.ncores) {
				*cause = xasprintf("core %llu is out of range "
				    "(0-%u)", (unsigned long long)n,
				    s->m.cfg.ncores - 1);
				return -1;
			}
			core = (uint32_t)n;
			continue;
		}
		if (nregs == (int)(sizeof regs / sizeof regs[0])) {
			*cause = xasprintf("too many register names (at most %d)",
			    nregs);
			return -1;
		}
		if ((regs[nregs++] = reg_arg(word, cause)) < 0)
			return -1;
	}
	if (nregs > 0) {
		for (int i = 0; i < nregs; i++)
			put_reg(s, core, regs[i], out);
		return 0;
	}
	k = &s->m.cores[core];
	buf_printf(out, "core %u (warp %u lane %u): %s", core, core / w,
	    core % w, session_status_name(k->status));
	if (k->status == CORE_ERROR)
		buf_printf(out, " (%s at 0x%04x)", ijvm_fault_message(k->fault),
		    (uint32_t)k->fault_pc);
	buf_printf(out, ", %llu instructions", (unsigned long long)k->steps);
	if (session_level(s) != LEVEL_ISA)
		buf_printf(out, ", %llu micro-cycles",
		    (unsigned long long)k->cycles);
	buf_printf(out, "\n");
	for (int r = 0; r < REG_COUNT; r++)
		put_reg(s, core, r, out);
	if (session_level(s) != LEVEL_ISA)
		put_micro(s, core, out);
	return 0;
}

const struct cmd_entry cmd_info_registers_entry = {
	.name = "registers",
	.alias = "r reg",
	.usage = "info registers [CORE] [REGISTER...]",
	.summary = "registers of the focused core",
	.help = "the focused core's (or CORE's) registers, or only those named\n"
	    "(info registers pc sp, any case, $ optional): PC SP LV CPP TOS OPC\n"
	    "H MAR MDR MBR MPC N Z, in hex and decimal, with its status.  At a\n"
	    "micro level also the micro-instruction at MPC, field by field\n"
	    "(NEXT_ADDRESS, JAM bits, ALU function and shifter, C targets, MEM,\n"
	    "B source), and the READ or FETCH in flight.",
	.arg = ARG_TEXT,
	.exec = cmd_info_registers_exec,
};

/* "name=value" for local idx (names from the source, else local[N]). */
static void
put_local(struct buf *out, const struct dsym_method *dm, uint32_t idx,
    int32_t v)
{
	const char *name = dsym_local_name(dm, idx);

	if (name != NULL)
		buf_printf(out, "%s=%d", name, v);
	else
		buf_printf(out, "local[%u]=%d", idx, v);
}

static void
put_words(struct buf *out, const int32_t *w, int32_t n)
{
	int32_t first = n > MAX_SHOWN ? n - MAX_SHOWN : 0;

	if (first > 0)
		buf_printf(out, " ...");
	for (int32_t i = first; i < n; i++)
		buf_printf(out, " %d", w[i]);
}

/* One frame; returns 1 to go on with the caller (pc, lv, sp updated). */
static int
show_frame(struct session *s, uint32_t core, int depth, int32_t *pc,
    int32_t *lv, int32_t *sp, struct buf *out)
{
	const struct dsym_method *dm = session_method_at(s, core, *pc);
	const char *name = session_method_name(s, core, *pc);
	int32_t nlocals, link, floor, shown, nstack, *w, caller[2];
	char *cause = NULL;
	uint32_t first = 1, nparams;

	buf_printf(out, "#%-2d ", depth);
	session_describe_pc(s, core, *pc, out);
	buf_printf(out, " in %s", name ? name : "?");
	if (session_frame(s, core, *lv, &nlocals, &link, &cause) != 0) {
		buf_printf(out, "\n    (%s)\n", cause);
		free(cause);
		return 0;
	}
	shown = nlocals < 4096 ? nlocals : 4096;
	w = xcalloc((size_t)shown + 1, sizeof *w);
	if (shown > 0 && session_read(s, core, *lv, (uint32_t)shown, w,
	    &cause) != 0) {
		buf_printf(out, "\n    (%s)\n", cause);
		free(cause);
		free(w);
		return 0;
	}
	nparams = dm != NULL ? dm->nparams : 0;
	if (link < 0) {			/* main */
		first = 0;
		nparams = 0;
	} else {
		buf_printf(out, "(");
		for (uint32_t i = 1; i <= nparams && (int32_t)i < shown; i++) {
			buf_printf(out, "%s", i > 1 ? ", " : "");
			put_local(out, dm, i, w[i]);
		}
		buf_printf(out, ")");
	}
	buf_printf(out, "  [LV 0x%x]\n", (uint32_t)*lv);
	if ((int32_t)(first + nparams) < shown) {
		buf_printf(out, "    locals:");
		for (int32_t i = (int32_t)(first + nparams); i < shown &&
		    i < (int32_t)(first + nparams) + MAX_SHOWN; i++) {
			buf_printf(out, " ");
			put_local(out, dm, (uint32_t)i, w[i]);
		}
		if (shown > (int32_t)(first + nparams) + MAX_SHOWN)
			buf_printf(out, " ...");
		buf_printf(out, "\n");
	}
	free(w);
	floor = link < 0 ? *lv + nlocals - 1 : link + 1;
	nstack = *sp - floor;
	if (nstack > 0 && nstack < 1 << 20) {
		int32_t n = nstack > MAX_SHOWN ? MAX_SHOWN : nstack;

		w = xcalloc((size_t)n, sizeof *w);
		if (session_read(s, core, *sp - n + 1, (uint32_t)n, w,
		    &cause) == 0) {
			buf_printf(out, "    stack (%d word%s, top last):%s",
			    nstack, nstack == 1 ? "" : "s",
			    nstack > n ? " ..." : "");
			put_words(out, w, n);
			buf_printf(out, "\n");
		} else {
			buf_printf(out, "    (%s)\n", cause);
			free(cause);
			cause = NULL;
		}
		free(w);
	}
	if (link < 0)
		return 0;
	if (session_read(s, core, link, 2, caller, &cause) != 0) {
		buf_printf(out, "    (%s)\n", cause);
		free(cause);
		return 0;
	}
	buf_printf(out, "    link 0x%x: saved PC 0x%04x, saved LV 0x%x\n",
	    (uint32_t)link, (uint32_t)caller[0], (uint32_t)caller[1]);
	/* the caller's stack ends below this frame's link word */
	*sp = *lv - 1;
	*pc = caller[0];
	*lv = caller[1];
	return 1;
}

static int
frames(struct session *s, const char *args, struct buf *out, char **cause)
{
	const struct core *c = &s->m.cores[s->focus];
	int32_t pc = session_core_pc(s, s->focus);
	int32_t lv = c->lv, sp = c->sp;
	uint64_t limit = SESSION_MAX_FRAMES;
	int depth = 0;

	if (*args != '\0' && cmd_count(args, &limit, cause) != 0)
		return -1;
	if (limit == 0) {
		*cause = xasprintf("the frame count must be at least 1");
		return -1;
	}
	buf_printf(out, "core %u, %s\n", s->focus,
	    session_status_name(c->status));
	while (show_frame(s, s->focus, depth, &pc, &lv, &sp, out)) {
		if ((uint64_t)++depth >= limit) {
			buf_printf(out, "(more frames: backtrace N shows N)\n");
			break;
		}
	}
	return 0;
}

/* info frame [LEVEL]: the selected frame (or LEVEL) alone, in detail. */
static int
cmd_info_frame_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	const struct core *k = &s->m.cores[s->focus];
	int32_t pc = session_core_pc(s, s->focus), lv = k->lv, sp = k->sp;
	uint64_t level = s->frame_sel;
	struct buf skip = { 0 };
	int depth = 0;

	if (*c->args != '\0' && cmd_count(c->args, &level, cause) != 0)
		return -1;
	/* walk to it; the frames inside it are not shown */
	while ((uint64_t)depth < level && depth < SESSION_MAX_FRAMES) {
		skip.len = 0;
		if (!show_frame(s, s->focus, depth, &pc, &lv, &sp, &skip)) {
			buf_free(&skip);
			*cause = xasprintf("no frame at level %llu (core %u has %d "
			    "frame%s: backtrace lists them)",
			    (unsigned long long)level, s->focus, depth + 1,
			    depth == 0 ? "" : "s");
			return -1;
		}
		depth++;
	}
	buf_free(&skip);
	buf_printf(out, "stack level %d of core %u (%s), frame at LV 0x%x:\n",
	    depth, s->focus, session_status_name(k->status), (uint32_t)lv);
	(void)show_frame(s, s->focus, depth, &pc, &lv, &sp, out);
	return 0;
}

static int
cmd_backtrace_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	return frames(s, c->args, out, cause);
}

const struct cmd_entry cmd_info_frame_entry = {
	.name = "frame",
	.alias = "f",
	.usage = "info frame [LEVEL]",
	.summary = "the selected call frame in detail",
	.help = "the focused core's selected frame (up, down, frame select it;\n"
	    "LEVEL: that one instead): method and arguments, locals by name,\n"
	    "the operand stack (top last) and the link word with the saved PC\n"
	    "and LV.  backtrace shows every frame.",
	.arg = ARG_COUNT,
	.exec = cmd_info_frame_exec,
};

const struct cmd_entry cmd_backtrace_entry = {
	.name = "backtrace",
	.alias = "bt where",
	.usage = "backtrace [N]",
	.summary = "call frames of the focused core",
	.help = "the focused core's call frames, innermost first (at most N),\n"
	    "each as info frame shows one; info stack is the same",
	.arg = ARG_COUNT,
	.exec = cmd_backtrace_exec,
};

const struct cmd_entry cmd_info_stack_entry = {
	.name = "stack",
	.usage = "info stack [N]",
	.summary = "call frames of the focused core",
	.help = "the same as backtrace",
	.arg = ARG_COUNT,
	.exec = cmd_backtrace_exec,
};

/* --- frame selection: frame, up, down, info locals, info args ----------- */

/* The focused core's frames; 0, or -1 + *cause. */
static int
walk(struct session *s, struct session_frame **f, size_t *n, char **cause)
{
	if (!s->have_machine) {
		*cause = xasprintf("no stack (run starts the program)");
		return -1;
	}
	if (session_frames(s, s->focus, f, n, cause) != 0)
		return -1;
	if (s->frame_sel >= *n)	/* the stack changed under it */
		s->frame_sel = 0;
	return 0;
}

/* Line n (from 1) of a program's source: its text and length. */
static const char *
source_line(const struct program *p, uint32_t n, size_t *len)
{
	const char *q = p->source;

	if (q == NULL || n == 0)
		return NULL;
	while (--n > 0 && (q = strchr(q, '\n')) != NULL)
		q++;
	if (q == NULL || *q == '\0')
		return NULL;
	*len = strcspn(q, "\n");
	return q;
}

/*
 * The source line of a frame: frame 0's PC, a caller's call (the
 * instruction before its return address, as gdb shows the line of the
 * call, not of what follows it).
 */
static uint32_t
frame_src_line(const struct program *p, const struct session_frame *f,
    uint32_t level)
{
	uint32_t *a, at = (uint32_t)f->pc;
	size_t n;

	if (f->pc < 0 || (uint32_t)f->pc >= p->text_size)
		return 0;
	if (level > 0 && f->pc > 0) {
		n = loc_insns(p, f->pc - 1, &a);
		for (size_t i = 0; i < n; i++)
			if (a[i] < (uint32_t)f->pc)
				at = a[i];
		free(a);
	}
	return program_line_at(p, at);
}

/* gdb's "#1  0x00c9 in half (n=27) at collatz.jas:113" and the line. */
static void
frame_print(struct session *s, const struct session_frame *f,
    uint32_t level, struct buf *out)
{
	const struct program *p = session_prog(s, s->focus);
	uint32_t line = frame_src_line(p, f, level);
	const char *file = strrchr(p->path, '/'), *text;
	size_t len;

	file = file ? file + 1 : p->path;
	buf_printf(out, "#%-2u ", level);
	/* gdb leaves out the address where the frame is at a line's start */
	if (level > 0 || line == 0 || f->pc < 0 ||
	    program_line_at(p, (uint32_t)f->pc) == 0)
		buf_printf(out, "0x%04x in ", (uint32_t)f->pc);
	buf_printf(out, "%s (", f->method ? f->method : "??");
	for (uint32_t i = 1; f->link >= 0 && i <= f->nparams &&
	    (int32_t)i < f->nlocals && i < SESSION_FRAME_LOCALS; i++) {
		buf_printf(out, "%s", i > 1 ? ", " : "");
		if (f->locals[i].name != NULL)
			buf_printf(out, "%s=%d", f->locals[i].name,
			    f->locals[i].value);
		else
			buf_printf(out, "local[%u]=%d", i, f->locals[i].value);
	}
	buf_printf(out, ")");
	if (line != 0)
		buf_printf(out, " at %s:%u", file, line);
	buf_printf(out, "\n");
	if (f->note != NULL)
		buf_printf(out, "    (%s)\n", f->note);
	if (line != 0 && (text = source_line(p, line, &len)) != NULL)
		buf_printf(out, "%u\t%.*s\n", line, (int)len, text);
}

/* Select level (already checked) and print it. */
static int
select_print(struct session *s, uint32_t level, struct buf *out,
    char **cause)
{
	struct session_frame *f;
	size_t n;

	if (walk(s, &f, &n, cause) != 0)
		return -1;
	if (level >= n) {
		*cause = xasprintf("no frame at level %u (core %u has %zu "
		    "frame%s: backtrace lists them)", level, s->focus, n,
		    n == 1 ? "" : "s");
		session_frames_free(f, n);
		return -1;
	}
	s->frame_sel = level;
	frame_print(s, &f[level], level, out);
	session_frames_free(f, n);
	return 0;
}

/* An optional count argument (default 1) that fits a frame level. */
static int
frame_count(const struct cmd_call *c, uint64_t dflt, uint32_t *v,
    char **cause)
{
	uint64_t n = dflt;

	if (*c->args != '\0' && cmd_count(c->args, &n, cause) != 0)
		return -1;
	*v = n > SESSION_MAX_FRAMES ? SESSION_MAX_FRAMES : (uint32_t)n;
	return 0;
}

static int
cmd_frame_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	uint32_t level;

	if (frame_count(c, s->frame_sel, &level, cause) != 0)
		return -1;
	if (*c->args != '\0' && level >= SESSION_MAX_FRAMES) {
		*cause = xasprintf("no frame at level %s (backtrace lists them)",
		    c->args);
		return -1;
	}
	return select_print(s, level, out, cause);
}

static int
cmd_up_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	struct session_frame *f;
	size_t n;
	uint32_t by, to;

	if (frame_count(c, 1, &by, cause) != 0 || walk(s, &f, &n, cause) != 0)
		return -1;
	session_frames_free(f, n);
	if (s->frame_sel + 1 >= n) {
		*cause = xasprintf("initial frame selected; you cannot go up");
		return -1;
	}
	/* as gdb: as far as there are frames */
	to = s->frame_sel + by >= n ? (uint32_t)n - 1 : s->frame_sel + by;
	return select_print(s, to, out, cause);
}

static int
cmd_down_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	uint32_t by;

	if (frame_count(c, 1, &by, cause) != 0)
		return -1;
	if (s->frame_sel == 0) {
		*cause = xasprintf("bottom (innermost) frame selected; you "
		    "cannot go down");
		return -1;
	}
	return select_print(s, by >= s->frame_sel ? 0 : s->frame_sel - by,
	    out, cause);
}

const struct cmd_entry cmd_frame_entry = {
	.name = "frame",
	.alias = "f",
	.usage = "frame [LEVEL]",
	.summary = "select a call frame of the focused core",
	.help = "select frame LEVEL of the focused core (0: the innermost, as\n"
	    "backtrace numbers them) and show it as gdb does: level, address,\n"
	    "method and arguments, file and line, then that source line.\n"
	    "Without LEVEL, show the selected frame.  print, x, info locals,\n"
	    "info args and info frame read the selected frame; every stop and\n"
	    "every change of focus selects frame 0 again.",
	.arg = ARG_COUNT,
	.exec = cmd_frame_exec,
};

const struct cmd_entry cmd_up_entry = {
	.name = "up",
	.usage = "up [N]",
	.summary = "select the caller's frame",
	.help = "select the frame N levels (default 1) further out, towards\n"
	    "main, and show it as frame does",
	.arg = ARG_COUNT,
	.exec = cmd_up_exec,
};

const struct cmd_entry cmd_down_entry = {
	.name = "down",
	.alias = "do",
	.usage = "down [N]",
	.summary = "select the callee's frame",
	.help = "select the frame N levels (default 1) further in, towards the\n"
	    "frame that executes, and show it as frame does",
	.arg = ARG_COUNT,
	.exec = cmd_down_exec,
};

/* info locals / info args: "name = value" rows of the selected frame. */
static int
frame_vars(struct session *s, int args, struct buf *out, char **cause)
{
	struct session_frame *f, *fr;
	size_t n;
	uint32_t lo, hi, shown = 0;

	if (walk(s, &f, &n, cause) != 0)
		return -1;
	fr = &f[s->frame_sel];
	if (fr->note != NULL && fr->nlocals == 0) {
		*cause = xasprintf("%s", fr->note);
		session_frames_free(f, n);
		return -1;
	}
	/* a method's arguments: the OBJREF slot (the link pointer once
	 * the frame is built) and its parameters; main has none */
	lo = 0;
	hi = fr->link < 0 ? 0 : 1 + fr->nparams;
	if (!args) {
		lo = hi;
		hi = fr->nlocals < 0 ? 0 : (uint32_t)fr->nlocals;
	}
	if (hi > SESSION_FRAME_LOCALS)
		hi = SESSION_FRAME_LOCALS;
	for (uint32_t i = lo; i < hi && fr->locals != NULL; i++, shown++) {
		const char *name = fr->locals[i].name;

		if (args && i == 0)
			buf_printf(out, "OBJREF = 0x%x (the link pointer)\n",
			    (uint32_t)fr->locals[i].value);
		else if (name != NULL)
			buf_printf(out, "%s = %d\n", name, fr->locals[i].value);
		else
			buf_printf(out, "local[%u] = %d\n", i,
			    fr->locals[i].value);
	}
	if (shown == 0)
		buf_printf(out, "%s\n", args ? "No arguments." : "No locals.");
	session_frames_free(f, n);
	return 0;
}

static int
cmd_info_locals_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	return frame_vars(s, 0, out, cause);
}

static int
cmd_info_args_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	return frame_vars(s, 1, out, cause);
}

const struct cmd_entry cmd_info_locals_entry = {
	.name = "locals",
	.usage = "info locals",
	.summary = "local variables of the selected frame",
	.help = "the selected frame's locals (its .var names from the source,\n"
	    "else local[N]), one \"name = value\" a line; arguments are in\n"
	    "info args",
	.arg = ARG_NONE,
	.exec = cmd_info_locals_exec,
};

const struct cmd_entry cmd_info_args_entry = {
	.name = "args",
	.usage = "info args",
	.summary = "arguments of the selected frame",
	.help = "the selected frame's arguments: in a method the OBJREF slot\n"
	    "(which holds the link pointer once the frame is built) and the\n"
	    "parameters of its .method line; main has none",
	.arg = ARG_NONE,
	.exec = cmd_info_args_exec,
};
