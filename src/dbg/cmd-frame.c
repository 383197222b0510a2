/*
 * The focused core's registers and call frames: info registers, info
 * frame and its gdb spellings backtrace/bt/where.
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

#define MAX_FRAMES   64
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

		buf_printf(out, ": %s\n", sym != NULL && sym->text != NULL ?
		    sym->text : "(no source text)");
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

static int
cmd_info_registers_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint32_t core = s->focus, w = s->m.cfg.warp_width;
	const struct core *k;

	if (*c->args != '\0') {
		uint64_t n;

		if (cmd_count(c->args, &n, cause) != 0)
			return -1;
		if (n >= s->m.cfg.ncores) {
			*cause = xasprintf("core %llu is out of range (0-%u)",
			    (unsigned long long)n, s->m.cfg.ncores - 1);
			return -1;
		}
		core = (uint32_t)n;
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
	for (int r = 0; r < REG_COUNT; r++) {
		int32_t v = reg_get(k, r);

		buf_printf(out, "%-4s 0x%08x %11d", reg_name(r), (uint32_t)v, v);
		if (r == REG_PC && session_level(s) == LEVEL_ISA) {
			buf_printf(out, "  ");
			session_describe_pc(s, core, v, out);
		} else if (r == REG_PC) {
			buf_printf(out, "  in ");
			session_describe_pc(s, core, session_core_pc(s, core),
			    out);
		} else if (r == REG_MPC && session_level(s) != LEVEL_ISA) {
			buf_printf(out, "  ");
			session_describe_mpc(s, (uint32_t)v, out);
		}
		buf_printf(out, "\n");
	}
	if (session_level(s) != LEVEL_ISA)
		put_micro(s, core, out);
	return 0;
}

const struct cmd_entry cmd_info_registers_entry = {
	.name = "registers",
	.alias = "r reg",
	.usage = "info registers [CORE]",
	.summary = "registers of the focused core",
	.help = "the focused core's (or CORE's) registers: PC SP LV CPP TOS OPC\n"
	    "H MAR MDR MBR MPC N Z, in hex and decimal, with its status.  At a\n"
	    "micro level also the micro-instruction at MPC, field by field\n"
	    "(NEXT_ADDRESS, JAM bits, ALU function and shifter, C targets, MEM,\n"
	    "B source), and the READ or FETCH in flight.",
	.arg = ARG_CORE,
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
	uint64_t limit = MAX_FRAMES;
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

static int
cmd_info_frame_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	return frames(s, c->args, out, cause);
}

const struct cmd_entry cmd_info_frame_entry = {
	.name = "frame",
	.alias = "f stack",
	.usage = "info frame [N]",
	.summary = "call frames of the focused core",
	.help = "the focused core's call frames, innermost first (at most N):\n"
	    "method and arguments, locals by name, the operand stack (top\n"
	    "last) and the link word with the saved PC and LV",
	.arg = ARG_COUNT,
	.exec = cmd_info_frame_exec,
};

const struct cmd_entry cmd_backtrace_entry = {
	.name = "backtrace",
	.alias = "bt where",
	.usage = "backtrace [N]",
	.summary = "call frames of the focused core",
	.help = "the same as info frame",
	.arg = ARG_COUNT,
	.exec = cmd_info_frame_exec,
};
