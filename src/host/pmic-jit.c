/*
 * The PMIC control store in x86-64 machine code (pmic-jit.h,
 * doc/performance.md section 24.5), built with the shared emitter
 * (x64.h).
 *
 * Every word is translated once, before the first run that uses it
 * (a lone core's, or a run-ahead window's), into a block
 * that runs one cycle as MFP_CYCLE (engine-pmic-fast.c) does and then
 * goes to the next word's block: a constant next address is a jump, JAMN
 * and JAMZ a test and a jump, JMPC a jump through a table of the blocks.
 * The words a dispatch may enter (0..255: the next address equals MBR0)
 * have a second block that counts the ISA instruction boundary first,
 * so that whether a core came by a dispatch is where it runs, not a
 * flag it tests; the table's upper half holds those.  A word with a
 * trap is a block that leaves at once (a PC breakpoint's only as a
 * dispatch enters it: MF_TRAPS looks at it only there); when the
 * engine's patch changes the traps, the store is translated again
 * before the next run that uses it, into the other of two buffers, so
 * that runs with a breakpoint and without it, alternating as a
 * debugger's do, translate once each.
 *
 * Host registers: the record (struct mfp_x) in RBX, the budget in RBP,
 * N and Z as the value CU0 last gave (N its sign, Z its being 0) in R8,
 * MAR, MDR, PC, MBR, SP, TOS, H and OPC in eight more; LV, CPP, G0, G1
 * and SID stay in the record; C2..C5 and the registers that read 0 are
 * immediates; the MBR views are derived from MBR where a unit reads
 * them.  RAX, RCX and RDX take the three units' outputs, which are
 * stored only after all three read their inputs; RSI a view and then
 * the memory word's address.
 *
 * A block, in MFP_CYCLE's order: the budget (its end leaves before the
 * word), the units, the tests that could send the cycle to the loop (a
 * WRITE outside the stack words the caller lets it write: the core's
 * stack, or a window's private run's words below pw, doc/manycore.md
 * section 4; a READ outside the core's stack and the constant pool; a
 * FETCH at or past the text's end), then
 * what it writes.  Every test comes before anything is written, so that
 * leaving there leaves the state before the word: the loop then runs the
 * word itself, through the golden model where it must.  Inside the
 * translated code MBR0 always comes from the text (the loop enters only
 * so, and a FETCH at or past the text's end leaves), which is what a
 * JMPC needs; a FETCH of the text's last bytes reads them out of line
 * and notes which it read (valid), as mfp_fetch does.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"
#include "pmic-jit.h"
#include "x64.h"

/* Host registers (the header comment). */
#define HX	X64_RBX
#define HLEFT	X64_RBP
#define HNZ	X64_R8
#define HT	X64_RSI
static const int hout[PMIC_NCU] = { X64_RAX, X64_RCX, X64_RDX };

/* Where each register lives: a host register, or -1 (the record). */
static int
pj_pin(uint32_t r)
{
	switch (r) {
	case PMIC_R_MAR:	return X64_R9;
	case PMIC_R_MDR:	return X64_R10;
	case PMIC_R_PC:		return X64_R11;
	case PMIC_R_MBR:	return X64_R12;
	case PMIC_R_SP:		return X64_R13;
	case PMIC_R_TOS:	return X64_R14;
	case PMIC_R_H:		return X64_R15;
	case PMIC_R_OPC:	return X64_RDI;
	default:		return -1;
	}
}

/* The pinned registers, in the order the entry loads them (RDI, the
 * argument, last). */
static const uint8_t pj_pinned[] = {
	PMIC_R_MAR, PMIC_R_MDR, PMIC_R_PC, PMIC_R_MBR, PMIC_R_SP,
	PMIC_R_TOS, PMIC_R_H, PMIC_R_OPC,
};

const uint8_t pmic_jit_creg[PMIC_NC] = {
	[PMIC_CB_MAR] = PMIC_R_MAR, [PMIC_CB_MDR] = PMIC_R_MDR,
	[PMIC_CB_PC] = PMIC_R_PC, [PMIC_CB_SP] = PMIC_R_SP,
	[PMIC_CB_LV] = PMIC_R_LV, [PMIC_CB_CPP] = PMIC_R_CPP,
	[PMIC_CB_TOS] = PMIC_R_TOS, [PMIC_CB_OPC] = PMIC_R_OPC,
	[PMIC_CB_H] = PMIC_R_H, [PMIC_CB_G0] = PMIC_R_G0,
	[PMIC_CB_G1] = PMIC_R_G1,
};

#define PJ_X(field)	X64_M(HX, (int32_t)offsetof(struct mfp_x, field))
#define PJ_R(r)		X64_M(HX, (int32_t)(offsetof(struct mfp_x, R) + \
			    4 * (r)))
#define PJ_FIX		(4 * PMIC_STORE_WORDS)   /* jumps to patch */
#define PJ_CODE		(1u << 20)               /* the buffer's bytes */

/* A translation of the store with one set of traps. */
struct pj_code {
	struct x64_buf	 buf;
	uint8_t		 trapped[PMIC_STORE_WORDS];   /* MF_TRAP_* bits */
	int		 made;      /* translated, sealed */
	size_t		 exit_at;   /* the common exit */
	/* each word's blocks: [0] as reached by a jump, [1] by a dispatch */
	size_t		 at[2][PMIC_STORE_WORDS];
	/* the dispatch table: [0, 512) plain blocks, [512, 1024) entries */
	const void	*tab[2 * PMIC_STORE_WORDS];
};

/* The last two translations are kept: a debugger's runs with a
 * breakpoint and without it, one after another, translate once each. */
struct pmic_jit {
	const struct pmic_store	*cs;
	struct pj_code	 code[2];
	struct pj_code	*c;         /* the one in use (or being made) */
	uint8_t		 want[PMIC_STORE_WORDS];      /* the traps now */
	int		 stale;     /* want is not c's */
	int		 broken;    /* translating failed: none */
	size_t		 nfix;
	struct { size_t at; uint32_t word; } fix[PJ_FIX];
};

/* The cycles translated, all translations together: a window's
 * private runs add at the same time (par.h). */
static struct par_count pj_ran;

uint64_t
pmic_jit_cycles(void)
{
	return par_count_sum(&pj_ran);
}

/* dst = register r as a unit reads it. */
static void
pj_load(struct x64_buf *b, int dst, uint32_t r)
{
	int mbr = pj_pin(PMIC_R_MBR), h = pj_pin(r);

	if (h >= 0) {
		x64_mov_rr(b, 0, dst, h);
		return;
	}
	switch (r) {
	case PMIC_R_MBR0:
		x64_mov_rr(b, 0, dst, mbr);
		x64_shift_ri(b, 0, X64_SHR, dst, 24);
		break;
	case PMIC_R_MBR1:
	case PMIC_R_MBR1S:
		x64_mov_rr(b, 0, dst, mbr);
		x64_shift_ri(b, 0, X64_SHL, dst, 8);
		x64_shift_ri(b, 0, r == PMIC_R_MBR1 ? X64_SHR : X64_SAR, dst,
		    24);
		break;
	case PMIC_R_MBR2:
		x64_mov_rr(b, 0, dst, mbr);
		x64_shift_ri(b, 0, X64_SHR, dst, 8);
		x64_movx8_rr(b, 0, dst, dst);
		break;
	case PMIC_R_MBR3:
		x64_movx8_rr(b, 0, dst, mbr);
		break;
	case PMIC_R_MBR12:
		x64_mov_rr(b, 0, dst, mbr);
		x64_shift_ri(b, 0, X64_SHR, dst, 8);
		x64_alu_ri(b, 0, X64_AND, dst, 0xFFFF);
		break;
	case PMIC_R_MBR12S:
		x64_mov_rr(b, 0, dst, mbr);
		x64_shift_ri(b, 0, X64_SHL, dst, 8);
		x64_shift_ri(b, 0, X64_SAR, dst, 16);
		break;
	case PMIC_R_C2: case PMIC_R_C3: case PMIC_R_C4: case PMIC_R_C5:
		x64_mov_ri32(b, dst, 2 + (r - PMIC_R_C2));
		break;
	case PMIC_R_LV: case PMIC_R_CPP: case PMIC_R_G0: case PMIC_R_G1:
	case PMIC_R_SID:
		x64_load(b, X64_LD_32, dst, PJ_R(r));
		break;
	default:	/* reads 0 */
		x64_mov_ri32(b, dst, 0);
		break;
	}
}

/* dst = dst op register r. */
static void
pj_op(struct x64_buf *b, enum x64_alu op, int dst, uint32_t r)
{
	int h = pj_pin(r);

	if (h >= 0)
		x64_alu_rr(b, 0, op, dst, h);
	else if (r >= PMIC_R_C2 && r <= PMIC_R_C5)
		x64_alu_ri(b, 0, op, dst, (int32_t)(2 + (r - PMIC_R_C2)));
	else if (r >= PMIC_NREG)
		x64_alu_ri(b, 0, op, dst, 0);
	else if (r == PMIC_R_LV || r == PMIC_R_CPP || r == PMIC_R_G0 ||
	    r == PMIC_R_G1 || r == PMIC_R_SID)
		x64_alu_rm(b, 0, op, dst, PJ_R(r));
	else {
		pj_load(b, HT, r);	/* a view of MBR */
		x64_alu_rr(b, 0, op, dst, HT);
	}
}

/* dst = CU word w's operation on the registers (pmic_alu_eval). */
static void
pj_unit(struct x64_buf *b, int dst, uint32_t w)
{
	uint32_t a = PMIC_CU_A(w), bb = PMIC_CU_B(w);

	switch (PMIC_CU_ALU(w)) {
	case PMIC_ALU_ZERO:	x64_mov_ri32(b, dst, 0); return;
	case PMIC_ALU_ONE:	x64_mov_ri32(b, dst, 1); return;
	case PMIC_ALU_MINUS1:	x64_mov_ri32(b, dst, 0xFFFFFFFFu); return;
	default:		break;
	}
	pj_load(b, dst, a);
	switch (PMIC_CU_ALU(w)) {
	case PMIC_ALU_A:	break;
	case PMIC_ALU_ADD:	pj_op(b, X64_ADD, dst, bb); break;
	case PMIC_ALU_ADD1:
		pj_op(b, X64_ADD, dst, bb);
		x64_alu_ri(b, 0, X64_ADD, dst, 1);
		break;
	case PMIC_ALU_INC:	x64_alu_ri(b, 0, X64_ADD, dst, 1); break;
	case PMIC_ALU_DEC:	x64_alu_ri(b, 0, X64_SUB, dst, 1); break;
	case PMIC_ALU_SUB:	pj_op(b, X64_SUB, dst, bb); break;
	case PMIC_ALU_NEG:	x64_unary(b, 0, X64_NEG, dst); break;
	case PMIC_ALU_NOT:	x64_unary(b, 0, X64_NOT, dst); break;
	case PMIC_ALU_AND:	pj_op(b, X64_AND, dst, bb); break;
	case PMIC_ALU_OR:	pj_op(b, X64_OR, dst, bb); break;
	case PMIC_ALU_SHL8:	x64_shift_ri(b, 0, X64_SHL, dst, 8); break;
	case PMIC_ALU_SRA8:	x64_shift_ri(b, 0, X64_SAR, dst, 8); break;
	default:		x64_shift_ri(b, 0, X64_SAR, dst, 1); break;
	}
}

/* A jump to word w's plain block (patched once every block is there). */
static void
pj_goto(struct pmic_jit *j, size_t fixup, uint32_t w)
{
	if (j->nfix == PJ_FIX) {
		j->c->buf.err = 1;
		return;
	}
	j->fix[j->nfix].at = fixup;
	j->fix[j->nfix++].word = w & (PMIC_STORE_WORDS - 1);
}

/* Leave before word w (ent: reached by a dispatch). */
static void
pj_leave(struct pmic_jit *j, uint32_t w, int ent)
{
	x64_mov_ri32(&j->c->buf, X64_RAX, w);
	x64_mov_ri32(&j->c->buf, X64_RCX, (uint32_t)ent);
	x64_jmp(&j->c->buf, j->c->exit_at);
}

/* A READ or WRITE's test: RSI = the word's address, or leave (the
 * fixups into *nf).  A WRITE's word must be below wwords (a private
 * run's pw; a READ and WRITE of one word in a cycle, the same). */
static void
pj_mem(struct pmic_jit *j, int mar, int rd, int wr, size_t *out,
    size_t *nf)
{
	struct x64_buf *b = &j->c->buf;
	size_t cp = 0, ok = 0;

	x64_lea(b, 0, HT, X64_M(mar, -MM_STACK_BASE));
	x64_alu_rm(b, 0, X64_CMP, HT, wr ? PJ_X(j.wwords) : PJ_X(j.swords));
	if (rd && !wr)
		cp = x64_jcc(b, X64_CC_AE, X64_FWD);
	else
		out[(*nf)++] = x64_jcc(b, X64_CC_AE, X64_FWD);
	x64_shift_ri(b, 1, X64_SHL, HT, 2);
	x64_alu_rm(b, 1, X64_ADD, HT, PJ_X(j.stack));
	if (!(rd && !wr))
		return;
	/* a READ of the constant pool (machine_word_at) */
	ok = x64_jmp(b, X64_FWD);
	x64_patch(b, cp, x64_here(b));
	x64_lea(b, 0, HT, X64_M(mar, -MM_CPP));
	x64_alu_rm(b, 0, X64_CMP, HT, PJ_X(j.cpsize));
	out[(*nf)++] = x64_jcc(b, X64_CC_AE, X64_FWD);
	x64_shift_ri(b, 1, X64_SHL, HT, 2);
	x64_alu_rm(b, 1, X64_ADD, HT, PJ_X(j.cp));
	x64_patch(b, ok, x64_here(b));
}

/* The next address (MFP_CYCLE's end). */
static void
pj_next(struct pmic_jit *j, const struct pmic_mi *mi)
{
	struct x64_buf *b = &j->c->buf;
	uint32_t next = PMIC_NEXT_ADDR(mi->next);
	int jamn = PMIC_TEST(mi->next, PMIC_BIT_JAMN);
	int jamz = PMIC_TEST(mi->next, PMIC_BIT_JAMZ);
	enum x64_cc cc = jamn && jamz ? X64_CC_LE : jamn ? X64_CC_S : X64_CC_Z;
	int mbr = pj_pin(PMIC_R_MBR);
	size_t skip;

	if (!PMIC_TEST(mi->next, PMIC_BIT_JMPC)) {
		if (jamn || jamz) {
			x64_test_rr(b, 0, HNZ, HNZ);
			pj_goto(j, x64_jcc(b, cc, X64_FWD),
			    next ^ (1u << PMIC_BIT_NEXT_JAM));
		}
		pj_goto(j, x64_jmp(b, X64_FWD), next);
		return;
	}
	/* JMPC: next | MBR0, a dispatch where that is MBR0 */
	x64_mov_rr(b, 0, X64_RAX, mbr);
	x64_shift_ri(b, 0, X64_SHR, X64_RAX, 24);
	x64_mov_ri(b, 1, X64_RDX, (uint64_t)(uintptr_t)j->c->tab);
	if (next == 0 && !jamn && !jamz) {
		x64_jmp_m(b, X64_MX(X64_RDX, X64_RAX, 8,
		    8 * PMIC_STORE_WORDS));
		return;
	}
	x64_mov_rr(b, 0, X64_RCX, X64_RAX);
	if (next != 0)
		x64_alu_ri(b, 0, X64_OR, X64_RCX, (int32_t)next);
	if (jamn || jamz) {
		x64_test_rr(b, 0, HNZ, HNZ);
		skip = x64_jcc(b, X64_CC_NOT(cc), X64_FWD);
		x64_alu_ri(b, 0, X64_XOR, X64_RCX,
		    1 << PMIC_BIT_NEXT_JAM);
		x64_patch(b, skip, x64_here(b));
	}
	x64_alu_rr(b, 0, X64_CMP, X64_RCX, X64_RAX);
	skip = x64_jcc(b, X64_CC_NE, X64_FWD);
	x64_jmp_m(b, X64_MX(X64_RDX, X64_RCX, 8, 8 * PMIC_STORE_WORDS));
	x64_patch(b, skip, x64_here(b));
	x64_jmp_m(b, X64_MX(X64_RDX, X64_RCX, 8, 0));
}

/* A FETCH of the text's last one to three bytes (jumped to from part,
 * back to back): MBR0 first, the bytes past the end 0, valid's bits
 * those of the bytes there (mfp_fetch). */
static void
pj_part(struct pmic_jit *j, size_t part, size_t back)
{
	struct x64_buf *b = &j->c->buf;
	int mbr = pj_pin(PMIC_R_MBR), pc = pj_pin(PMIC_R_PC);
	size_t end[2];

	x64_patch(b, part, x64_here(b));
	x64_load(b, X64_LD_64, X64_RAX, PJ_X(j.text));
	x64_load(b, X64_LD_U8, mbr, X64_MX(X64_RAX, pc, 1, 0));
	x64_shift_ri(b, 0, X64_SHL, mbr, 24);
	x64_mov_ri32(b, X64_RDX, 0x8);
	for (int i = 1; i <= 2; i++) {
		x64_lea(b, 0, X64_RCX, X64_M(pc, i));
		x64_alu_rm(b, 0, X64_CMP, X64_RCX, PJ_X(u.tsize));
		end[i - 1] = x64_jcc(b, X64_CC_AE, X64_FWD);
		x64_load(b, X64_LD_U8, X64_RCX, X64_MX(X64_RAX, pc, 1, i));
		x64_shift_ri(b, 0, X64_SHL, X64_RCX, (uint8_t)(24 - 8 * i));
		x64_alu_rr(b, 0, X64_OR, mbr, X64_RCX);
		x64_mov_ri32(b, X64_RDX, i == 1 ? 0xC : 0xE);
	}
	x64_patch(b, end[0], x64_here(b));
	x64_patch(b, end[1], x64_here(b));
	x64_store(b, 32, PJ_X(valid), X64_RDX);
	x64_jmp(b, back);
}

/* Word w's block (ent: as a dispatch enters it). */
static void
pj_word(struct pmic_jit *j, uint32_t w, int ent)
{
	struct x64_buf *b = &j->c->buf;
	const struct pmic_mi *mi = &j->cs->mi[w];
	size_t out[8], nf = 0, skip, part = 0, back = 0;
	int mar_cu = -1, pc_cu = -1, en[PMIC_NCU];
	int f = (int)PMIC_CU_MEM(mi->cu[0]), rd = (int)PMIC_CU_MEM(mi->cu[1]);
	int wr = (int)PMIC_CU_MEM(mi->cu[2]);

	j->c->at[ent][w] = x64_here(b);
	/* a PC breakpoint's word stops only a core that a dispatch
	 * brought there (MF_TRAPS) */
	if (j->c->trapped[w] & (ent ? 0xFF : MF_TRAP_SLOW | MF_TRAP_BP)) {
		pj_leave(j, w, ent);
		return;
	}
	x64_alu_ri(b, 1, X64_SUB, HLEFT, 1);
	out[nf++] = x64_jcc(b, X64_CC_B, X64_FWD);
	/* the units, from the registers as they are */
	for (int i = 0; i < PMIC_NCU; i++) {
		en[i] = (int)PMIC_CU_EN(mi->cu[i]);
		if (!en[i])
			continue;
		pj_unit(b, hout[i], mi->cu[i]);
		if (PMIC_CU_C(mi->cu[i]) & PMIC_C_MAR)
			mar_cu = i;
		if (PMIC_CU_C(mi->cu[i]) & PMIC_C_PC)
			pc_cu = i;
	}
	/* what could send the cycle to the loop */
	if (rd || wr)
		pj_mem(j, mar_cu >= 0 ? hout[mar_cu] : pj_pin(PMIC_R_MAR), rd,
		    wr, out, &nf);
	if (f) {	/* a FETCH at or past the text's end: a JMPC faults */
		x64_alu_rm(b, 0, X64_CMP, pc_cu >= 0 ? hout[pc_cu] :
		    pj_pin(PMIC_R_PC), PJ_X(u.tsize));
		out[nf++] = x64_jcc(b, X64_CC_AE, X64_FWD);
	}
	/* an instruction boundary: a dispatch to MBR0 from MBR's address */
	if (ent) {
		x64_alu_rm(b, 0, X64_CMP, pj_pin(PMIC_R_PC), PJ_X(mbr_addr));
		skip = x64_jcc(b, X64_CC_NE, X64_FWD);
		x64_incdec_m(b, 1, 0, PJ_X(u.steps));
		x64_store(b, 32, PJ_X(insn_pc), pj_pin(PMIC_R_PC));
		x64_patch(b, skip, x64_here(b));
	}
	if (en[0])
		x64_mov_rr(b, 0, HNZ, hout[0]);
	for (int i = 0; i < PMIC_NCU; i++) {
		uint32_t cb = PMIC_CU_C(mi->cu[i]);

		for (int k = 0; en[i] && k < PMIC_NC; k++) {
			int h = pj_pin(pmic_jit_creg[k]);

			if (!(cb & (1u << k)))
				continue;
			if (h >= 0)
				x64_mov_rr(b, 0, h, hout[i]);
			else
				x64_store(b, 32, PJ_R(pmic_jit_creg[k]),
				    hout[i]);
		}
	}
	if (wr)
		x64_store(b, 32, X64_M(HT, 0), pj_pin(PMIC_R_MDR));
	if (rd)
		x64_load(b, X64_LD_32, pj_pin(PMIC_R_MDR), X64_M(HT, 0));
	if (f) {	/* four bytes, or fewer at the end (pj_part) */
		x64_alu_rm(b, 0, X64_CMP, pj_pin(PMIC_R_PC), PJ_X(j.flim));
		part = x64_jcc(b, X64_CC_A, X64_FWD);
		x64_load(b, X64_LD_64, X64_RAX, PJ_X(j.text));
		x64_load(b, X64_LD_32, pj_pin(PMIC_R_MBR),
		    X64_MX(X64_RAX, pj_pin(PMIC_R_PC), 1, 0));
		x64_bswap(b, 0, pj_pin(PMIC_R_MBR));
		x64_store_i(b, 0, PJ_X(valid), 0xF);
		back = x64_here(b);
		x64_store(b, 32, PJ_X(mbr_addr), pj_pin(PMIC_R_PC));
	}
	pj_next(j, mi);
	/* leave before the word, the budget given back */
	for (size_t i = 0; i < nf; i++)
		x64_patch(b, out[i], x64_here(b));
	x64_alu_ri(b, 1, X64_ADD, HLEFT, 1);
	pj_leave(j, w, ent);
	if (f)
		pj_part(j, part, back);
}

/* The entry (the function C calls: RDI the record, RSI the block) and
 * the common exit (RAX the word not run, RCX whether a dispatch
 * entered it). */
static void
pj_frame(struct pmic_jit *j)
{
	struct x64_buf *b = &j->c->buf;

	x64_save_callee(b);
	x64_mov_rr(b, 1, HX, X64_RDI);
	x64_load(b, X64_LD_64, HLEFT, PJ_X(j.left));
	x64_load(b, X64_LD_32, HNZ, PJ_X(j.nz));
	for (size_t i = 0; i < sizeof pj_pinned; i++)
		x64_load(b, X64_LD_32, pj_pin(pj_pinned[i]),
		    PJ_R(pj_pinned[i]));
	x64_jmp_r(b, X64_RSI);

	j->c->exit_at = x64_here(b);
	x64_store(b, 32, PJ_X(j.mpc), X64_RAX);
	x64_store(b, 32, PJ_X(entry), X64_RCX);
	x64_store(b, 64, PJ_X(j.left), HLEFT);
	for (size_t i = 0; i < sizeof pj_pinned; i++)
		x64_store(b, 32, PJ_R(pj_pinned[i]), pj_pin(pj_pinned[i]));
	x64_mov_rr(b, 0, X64_RAX, HNZ);
	x64_shift_ri(b, 0, X64_SHR, X64_RAX, 31);
	x64_store(b, 32, PJ_X(n), X64_RAX);
	x64_mov_ri32(b, X64_RAX, 0);
	x64_test_rr(b, 0, HNZ, HNZ);
	x64_setcc(b, X64_CC_Z, X64_RAX);
	x64_store(b, 32, PJ_X(z), X64_RAX);
	x64_restore_ret(b);
}

/* Translate the whole store with the traps in j->want, into the
 * translation not in use (which then is): 0 or -1. */
static int
pj_translate(struct pmic_jit *j)
{
	struct x64_buf *b;

	j->c = j->c == &j->code[0] ? &j->code[1] : &j->code[0];
	b = &j->c->buf;
	j->c->made = 0;
	memcpy(j->c->trapped, j->want, sizeof j->want);
	if ((b->mem == NULL && x64_buf_init(b, PJ_CODE) != 0) ||
	    x64_reset(b) != 0)
		return -1;
	j->nfix = 0;
	pj_frame(j);
	for (uint32_t w = 0; w < PMIC_STORE_WORDS; w++) {
		x64_align(b, 16);
		pj_word(j, w, 0);
		if (w < 256) {
			x64_align(b, 16);
			pj_word(j, w, 1);
		} else
			j->c->at[1][w] = j->c->at[0][w];
	}
	for (size_t i = 0; i < j->nfix && !b->err; i++)
		x64_patch(b, j->fix[i].at, j->c->at[0][j->fix[i].word]);
	for (uint32_t w = 0; w < PMIC_STORE_WORDS; w++)
		for (int e = 0; e < 2; e++)
			j->c->tab[e * PMIC_STORE_WORDS + w] =
			    b->mem + j->c->at[e][w];
	if (x64_seal(b) != 0)
		return -1;
	j->c->made = 1;
	return 0;
}

/* j->c made for the traps wanted now: 0, or -1 where it cannot be. */
static int
pj_ready(struct pmic_jit *j)
{
	struct pj_code *o = j->c == &j->code[0] ? &j->code[1] : &j->code[0];

	if (!j->stale)
		return 0;
	j->stale = 0;
	if (o->made && memcmp(o->trapped, j->want, sizeof j->want) == 0) {
		j->c = o;	/* the other one kept */
		return 0;
	}
	return pj_translate(j);
}

struct pmic_jit *
pmic_jit_new(const struct pmic_store *cs, const uint8_t *trapped)
{
	struct pmic_jit *j;

	if (!X64_AVAILABLE)
		return NULL;
	/* translated before the first run that can use it (a lone
	 * core's pmic_jit_run, pmic_jit_prepare before windows): an
	 * engine of a few steps, or only watched runs, never is */
	j = xcalloc(1, sizeof *j);
	j->cs = cs;
	j->c = &j->code[0];
	memcpy(j->want, trapped, sizeof j->want);
	j->stale = 1;
	return j;
}

int
pmic_jit_usable(const struct pmic_jit *j)
{
	return j != NULL && !j->broken;
}

void
pmic_jit_prepare(struct pmic_jit *j)
{
	if (j != NULL && !j->broken && pj_ready(j) != 0)
		j->broken = 1;	/* the loop alone from now on */
}

int
pmic_jit_ready(const struct pmic_jit *j)
{
	return pmic_jit_usable(j) && !j->stale;
}

void
pmic_jit_free(struct pmic_jit *j)
{
	if (j == NULL)
		return;
	x64_buf_free(&j->code[0].buf);
	x64_buf_free(&j->code[1].buf);
	free(j);
}

void
pmic_jit_traps(struct pmic_jit *j, const uint8_t *trapped)
{
	if (j == NULL || memcmp(j->want, trapped, sizeof j->want) == 0)
		return;
	memcpy(j->want, trapped, sizeof j->want);
	j->stale = !j->c->made ||
	    memcmp(j->c->trapped, trapped, sizeof j->want) != 0;
}

typedef void pj_fn(struct mfp_x *x, const void *block);

uint64_t
pmic_jit_run(struct pmic_jit *j, struct mfp_x *x, uint32_t *mpc,
    uint64_t left, uint32_t wwords)
{
	const struct program *p = x->u.prog;
	uint32_t w = *mpc;
	uint64_t ran;

	/* a lone core's first usable run translates here; a private run
	 * comes only where that is done (pmic_jit_ready) */
	pmic_jit_prepare(j);
	if (j->broken)
		return 0;
	/* the states the blocks assume: MBR0 from the text, a dispatch's
	 * MPC its MBR0, N and Z from one value, a text of four bytes or
	 * more */
	if (!(x->valid & 8) || x->u.tsize < 4 || (x->n && x->z) ||
	    w >= PMIC_STORE_WORDS || (x->entry && w != x->R[PMIC_R_MBR] >> 24))
		return 0;
	x->j.stack = x->u.stack;
	x->j.swords = x->u.stack != NULL ? x->u.swords : 0;
	x->j.wwords = wwords < x->j.swords ? wwords : x->j.swords;
	x->j.cp = p->cp;
	x->j.cpsize = p->cp_size;
	x->j.text = x->u.text;
	x->j.flim = x->u.tsize - 4;
	x->j.nz = x->n ? 0x80000000u : x->z ? 0 : 1;
	x->j.left = left;
	((pj_fn *)x64_fn_at(&j->c->buf, 0))(x, j->c->tab[(x->entry ? 1 : 0) *
	    PMIC_STORE_WORDS + w]);
	*mpc = x->j.mpc;
	ran = left - x->j.left;
	par_count_add(&pj_ran, ran);
	return ran;
}
