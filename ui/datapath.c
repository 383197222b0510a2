/*
 * The Mic-1 datapath pane's contents, pure (no curses): what the
 * micro-instruction at the focused core's MPC will do this cycle
 * (doc/mic1.md section 1), decoded with the values it works on, and the
 * diagram drawn into a character canvas with a role per cell.  The pane
 * (pane-micro.c) copies the canvas to its window, the unit test reads it
 * as text.
 *
 * What the pane calls current is the word the core executes next (at
 * MPC), as the code pane's '>' marks the instruction about to run; MIR
 * on the registers pane is the word executed last.  The values are
 * computed here from the registers as they are now, which is what the
 * cycle will see: the B bus and the ALU read MBR as it is held during the
 * cycle, and N/Z come from this ALU output.  JMPC ORs in MBR after the
 * READ/FETCH issued in the previous cycle has completed, so with a FETCH
 * pending the next MPC uses the byte at the latched PC.
 *
 * Everything the diagram highlights is also in its text, so that it
 * reads without colour and in tmux's capture-pane: a register row says
 * "B>" when it drives the B bus, "<C" when the C bus writes it, "A>" for
 * H when the ALU's A input is enabled, and "addr", "data", "<mem" for
 * its part in a memory operation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "datapath.h"

static int32_t
b_value(const struct core *c, uint32_t b)
{
	switch (b) {
	case MIC1_B_MDR:  return c->mdr;
	case MIC1_B_PC:   return c->pc;
	case MIC1_B_MBR:  return (int32_t)(int8_t)(c->mbr & 0xff);
	case MIC1_B_MBRU: return (int32_t)(c->mbr & 0xff);
	case MIC1_B_SP:   return c->sp;
	case MIC1_B_LV:   return c->lv;
	case MIC1_B_CPP:  return c->cpp;
	case MIC1_B_TOS:  return c->tos;
	case MIC1_B_OPC:  return c->opc;
	default:          return 0;
	}
}

void
dp_decode(const struct dp_input *in, struct dp_decode *d)
{
	const struct core *c = in->c;
	uint64_t w = in->word;
	uint32_t alu = mic1_alu(w), jam = mic1_jam(w);
	uint32_t a, out;

	memset(d, 0, sizeof *d);
	d->present = in->present;
	d->mpc = c->mpc;
	d->bsel = mic1_bsel(w);
	d->bname = mic1_b_name(d->bsel);
	d->func = mic1_func_name(MIC1_ALU_FUNC(alu));
	d->ena = (alu & MIC1_ALU_ENA) != 0;
	d->enb = (alu & MIC1_ALU_ENB) != 0;
	d->inva = (alu & MIC1_ALU_INVA) != 0;
	d->inc = (alu & MIC1_ALU_INC) != 0;
	d->f = (alu >> 4) & 3;
	d->sll8 = (alu & MIC1_ALU_SLL8) != 0;
	d->sra1 = (alu & MIC1_ALU_SRA1) != 0;
	d->bval = b_value(c, d->bsel);
	a = d->ena ? (uint32_t)c->h : 0;
	if (d->inva)
		a = ~a;
	out = mic1_alu_eval(alu, (uint32_t)c->h, (uint32_t)d->bval);
	d->aval = (int32_t)a;
	d->alu_out = (int32_t)out;
	d->n = (int32_t)out < 0;
	d->z = out == 0;
	d->shifted = (int32_t)mic1_shifter(alu, out);
	d->cmask = mic1_cbus(w);
	d->mem = mic1_mem(w);
	d->jmpc = (jam & MIC1_JAM_PC) != 0;
	d->jamn = (jam & MIC1_JAM_N) != 0;
	d->jamz = (jam & MIC1_JAM_Z) != 0;
	d->next = mic1_next(w);
	d->pending = in->mc != NULL ? in->mc->pending : 0;
	d->pend_known = in->mc != NULL;
	/* MBR as JMPC sees it: after the pending FETCH completes */
	d->jmpc_mbr = (uint32_t)c->mbr & 0xff;
	d->jmpc_known = 1;
	if (d->pending & MIC1_PEND_FETCH) {
		int32_t pa = in->mc->pc_latch;

		if (in->prog != NULL && pa >= 0 &&
		    (uint32_t)pa < in->prog->text_size)
			d->jmpc_mbr = in->prog->text[pa];
		else
			d->jmpc_known = 0;
	}
	d->mpc_next = d->next;
	if ((d->jamn && d->n) || (d->jamz && d->z))
		d->mpc_next |= 0x100;
	if (d->jmpc)
		d->mpc_next |= d->jmpc_mbr;
	d->mpc_next &= MIC1_STORE_WORDS - 1;
}

/* --- the canvas -------------------------------------------------------------- */

void
dp_canvas_init(struct dp_canvas *cv, int h, int w)
{
	cv->h = h > DP_MAX_ROWS ? DP_MAX_ROWS : h < 0 ? 0 : h;
	cv->w = w > DP_MAX_COLS ? DP_MAX_COLS : w < 0 ? 0 : w;
	memset(cv->ch, ' ', sizeof cv->ch);
	memset(cv->role, DPR_TEXT, sizeof cv->role);
}

/* Text at (y, x), clipped; returns the column after it. */
static int
put(struct dp_canvas *cv, int y, int x, int role, const char *text)
{
	if (y < 0 || y >= cv->h)
		return x;
	for (; *text != '\0'; text++, x++)
		if (x >= 0 && x < cv->w) {
			cv->ch[y][x] = *text;
			cv->role[y][x] = (uint8_t)role;
		}
	return x;
}

static int
putf(struct dp_canvas *cv, int y, int x, int role, const char *fmt, ...)
    PRINTFLIKE(5, 6);

static int
putf(struct dp_canvas *cv, int y, int x, int role, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	return put(cv, y, x, role, text);
}

void
dp_canvas_line(const struct dp_canvas *cv, int y, char *text, size_t size)
{
	int n = cv->w;

	if (size == 0)
		return;
	if (y < 0 || y >= cv->h)
		n = 0;
	while (n > 0 && cv->ch[y][n - 1] == ' ')
		n--;
	if ((size_t)n >= size)
		n = (int)size - 1;
	if (n > 0)
		memcpy(text, cv->ch[y], (size_t)n);
	text[n] = '\0';
}

/* --- the registers and their parts in the cycle ------------------------------- */

enum { R_MAR, R_MDR, R_PC, R_MBR, R_SP, R_LV, R_CPP, R_TOS, R_OPC, R_H,
    R_COUNT };
static const char *const r_name[R_COUNT] = { "MAR", "MDR", "PC", "MBR",
    "SP", "LV", "CPP", "TOS", "OPC", "H" };
/* The C field bit of each register (MBR has none). */
static const int r_cbit[R_COUNT] = { MIC1_C_MAR, MIC1_C_MDR, MIC1_C_PC, 0,
    MIC1_C_SP, MIC1_C_LV, MIC1_C_CPP, MIC1_C_TOS, MIC1_C_OPC, MIC1_C_H };

static int32_t
r_value(const struct core *c, int r)
{
	switch (r) {
	case R_MAR: return c->mar;
	case R_MDR: return c->mdr;
	case R_PC:  return c->pc;
	case R_MBR: return c->mbr & 0xff;
	case R_SP:  return c->sp;
	case R_LV:  return c->lv;
	case R_CPP: return c->cpp;
	case R_TOS: return c->tos;
	case R_OPC: return c->opc;
	default:    return c->h;
	}
}

static void
r_text(int r, int32_t v, char *text, size_t size)
{
	if (r == R_MBR)
		snprintf(text, size, "0x%02x", (uint32_t)v & 0xff);
	else if (r == R_MAR || r == R_PC || r == R_SP || r == R_LV ||
	    r == R_CPP)
		snprintf(text, size, "0x%04x", (uint32_t)v);
	else
		snprintf(text, size, "%d", v);
}

/* Does register r drive the B bus? */
static int
r_drives_b(const struct dp_decode *d, int r)
{
	static const int of_b[9] = { R_MDR, R_PC, R_MBR, R_MBR, R_SP, R_LV,
	    R_CPP, R_TOS, R_OPC };

	return d->enb && d->bsel < 9 && of_b[d->bsel] == r;
}

/* Register r's tags: "B>", "<C", "A>", "addr", "data", "<mem". */
static void
r_tags(const struct dp_decode *d, int r, char *text, size_t size)
{
	const char *mem = "";

	if (r == R_MAR && (d->mem & (MIC1_MEM_READ | MIC1_MEM_WRITE)))
		mem = "addr";
	else if (r == R_PC && (d->mem & MIC1_MEM_FETCH))
		mem = "addr";
	else if (r == R_MDR && (d->pending & MIC1_PEND_READ))
		mem = "<mem";
	else if (r == R_MDR && (d->mem & MIC1_MEM_WRITE))
		mem = "data";
	else if (r == R_MBR && (d->pending & MIC1_PEND_FETCH))
		mem = "<mem";
	snprintf(text, size, "%-2s %-2s %s", r_drives_b(d, r) ? "B>" :
	    (r == R_H && d->ena) ? "A>" : "",
	    r_cbit[r] && (d->cmask & (unsigned)r_cbit[r]) ? "<C" : "", mem);
}

static int
r_active(const struct dp_decode *d, int r)
{
	char tags[32];
	const char *p;

	r_tags(d, r, tags, sizeof tags);
	for (p = tags; *p == ' '; p++)
		;
	return *p != '\0';
}

static void
mem_text(const struct dp_decode *d, char *text, size_t size)
{
	if (d->mem == 0)
		snprintf(text, size, "-");
	else
		snprintf(text, size, "%s%s%s%s%s",
		    d->mem & MIC1_MEM_READ ? "READ" : "",
		    (d->mem & MIC1_MEM_READ) && (d->mem & ~MIC1_MEM_READ & 7) ?
		    " " : "", d->mem & MIC1_MEM_WRITE ? "WRITE" : "",
		    (d->mem & MIC1_MEM_WRITE) && (d->mem & MIC1_MEM_FETCH) ?
		    " " : "", d->mem & MIC1_MEM_FETCH ? "FETCH" : "");
}

static void
pend_text(const struct dp_input *in, const struct dp_decode *d, char *text,
    size_t size)
{
	if (!d->pend_known)
		snprintf(text, size, "?");
	else if (d->pending == 0)
		snprintf(text, size, "none");
	else if (d->pending == MIC1_PEND_READ)
		snprintf(text, size, "READ of 0x%04x: MDR at the end of this "
		    "cycle", (uint32_t)in->mc->mar_latch);
	else if (d->pending == MIC1_PEND_FETCH)
		snprintf(text, size, "FETCH of 0x%04x: MBR at the end of this "
		    "cycle", (uint32_t)in->mc->pc_latch);
	else
		snprintf(text, size, "READ of 0x%04x, FETCH of 0x%04x",
		    (uint32_t)in->mc->mar_latch, (uint32_t)in->mc->pc_latch);
}

static void
func_text(const struct dp_decode *d, char *text, size_t size)
{
	if (d->func != NULL)
		snprintf(text, size, "%s", d->func);
	else
		snprintf(text, size, "F%d%d ENA%d ENB%d INVA%d INC%d",
		    d->f >> 1, d->f & 1, d->ena, d->enb, d->inva, d->inc);
}

static void
next_text(const struct dp_decode *d, char *text, size_t size)
{
	size_t n = (size_t)snprintf(text, size, "0x%03x", d->next);

	if (d->jamn && n < size)
		n += (size_t)snprintf(text + n, size - n, " JAMN(N=%d)", d->n);
	if (d->jamz && n < size)
		n += (size_t)snprintf(text + n, size - n, " JAMZ(Z=%d)", d->z);
	if (d->jmpc && n < size)
		n += (size_t)snprintf(text + n, size - n, " JMPC(MBR%s0x%02x)",
		    d->pending & MIC1_PEND_FETCH ? " fetched " : " ",
		    d->jmpc_mbr);
	if (n < size)
		snprintf(text + n, size - n, d->jmpc && !d->jmpc_known ?
		    " -> ?" : " -> 0x%03x", d->mpc_next);
}

static int
reg_changed(const struct dp_input *in, int r)
{
	return in->prev != NULL && r_value(in->prev, r) != r_value(in->c, r);
}

/*
 * The header row of both levels: the MPC, then the label and the
 * micro-instruction (its source text, or the disassembly the caller made);
 * 0 when there is no micro-instruction at the MPC (the row says so).
 */
static int
header_row(struct dp_canvas *cv, uint32_t mpc, int present, const char *label,
    const char *text)
{
	int x = putf(cv, 0, 0, DPR_LABEL, "MPC 0x%03x", mpc);

	if (!present) {
		put(cv, 0, x + 1, DPR_ERROR, "no micro-instruction here");
		return 0;
	}
	if (label != NULL)
		x = putf(cv, 0, x + 1, DPR_LABEL, "%s:", label);
	put(cv, 0, x + 1, DPR_ACTIVE, text);
	return 1;
}

/* The header row: where the core is in the microprogram. */
static void
header(const struct dp_input *in, const struct dp_decode *d,
    struct dp_canvas *cv)
{
	char dis[160];

	if (in->text == NULL)
		mic1_disasm(in->word, dis, sizeof dis);
	(void)header_row(cv, d->mpc, d->present, in->label,
	    in->text != NULL ? in->text : dis);
}

/* The full diagram: registers on the left, the cycle's units right. */
static void
render_full(const struct dp_input *in, const struct dp_decode *d,
    struct dp_canvas *cv)
{
	int rx = 27, y;
	char v[64], tags[32], text[160];
	int cmask_any = d->cmask != 0;

	header(in, d, cv);
	for (int r = 0; r < R_COUNT && 1 + r < cv->h; r++) {
		int act = d->present && r_active(d, r);
		int role = act ? DPR_ACTIVE : reg_changed(in, r) ?
		    DPR_CHANGED : DPR_TEXT;

		r_text(r, r_value(in->c, r), v, sizeof v);
		putf(cv, 1 + r, 0, role, "%-3s %-10s", r_name[r], v);
		r_tags(d, r, tags, sizeof tags);
		if (d->present)
			put(cv, 1 + r, 15, DPR_ACTIVE, tags);
		put(cv, 1 + r, rx - 2, DPR_DIM, "|");
	}
	if (!d->present)
		return;
	y = 1;
	if (d->enb)
		putf(cv, y++, rx, DPR_ACTIVE, "B bus  %s = %d", d->bname,
		    d->bval);
	else
		putf(cv, y++, rx, DPR_DIM, "B bus  %s (not enabled)",
		    d->bname);
	if (d->ena && d->inva)
		putf(cv, y++, rx, DPR_ACTIVE, "A      NOT H = %d (H = %d)",
		    d->aval, in->c->h);
	else if (d->ena)
		putf(cv, y++, rx, DPR_ACTIVE, "A      H = %d", in->c->h);
	else
		putf(cv, y++, rx, d->inva ? DPR_ACTIVE : DPR_DIM,
		    "A      %s (H not enabled)", d->inva ? "NOT 0 = -1" : "0");
	func_text(d, text, sizeof text);
	putf(cv, y++, rx, DPR_ACTIVE, "ALU    %s = %d", text, d->alu_out);
	putf(cv, y++, rx, DPR_DIM, "       F0F1 %d%d ENA %d ENB %d INVA %d "
	    "INC %d", d->f >> 1, d->f & 1, d->ena, d->enb, d->inva, d->inc);
	putf(cv, y++, rx, d->sll8 || d->sra1 ? DPR_ACTIVE : DPR_DIM,
	    "shift  %s -> %d", d->sll8 ? "SLL8" : d->sra1 ? "SRA1" : "none",
	    d->shifted);
	putf(cv, y++, rx, DPR_TEXT, "N %d  Z %d", d->n, d->z);
	{
		size_t n = 0;

		text[0] = '\0';
		for (int i = MIC1_SIZE_C - 1; i >= 0; i--)
			if (d->cmask & (1u << i))
				n += (size_t)snprintf(text + n, sizeof text - n,
				    "%s%s", n ? " " : "", mic1_c_name(i));
		putf(cv, y++, rx, cmask_any ? DPR_ACTIVE : DPR_DIM,
		    "C bus  %s", cmask_any ? text : "(nothing written)");
	}
	mem_text(d, text, sizeof text);
	putf(cv, y++, rx, d->mem ? DPR_ACTIVE : DPR_DIM, "memory %s", text);
	pend_text(in, d, text, sizeof text);
	putf(cv, y++, rx, d->pending ? DPR_ACTIVE : DPR_DIM, "pending %s",
	    text);
	next_text(d, text, sizeof text);
	putf(cv, y++, rx, DPR_ACTIVE, "next   %s", text);
}

/* 80x24 and other small panes: a few dense rows. */
static void
render_compact(const struct dp_input *in, const struct dp_decode *d,
    struct dp_canvas *cv)
{
	char text[160], f[64], mem[32], v[32];
	int y = 1, x = 0, cellw;

	header(in, d, cv);
	if (d->present) {
		func_text(d, f, sizeof f);
		mem_text(d, mem, sizeof mem);
		putf(cv, y++, 0, DPR_ACTIVE, "B=%s%s ALU %s=%d%s N%d Z%d "
		    "mem %s", d->bname, d->enb ? "" : "(off)", f, d->alu_out,
		    d->sll8 ? " SLL8" : d->sra1 ? " SRA1" : "", d->n, d->z,
		    mem);
		next_text(d, text, sizeof text);
		pend_text(in, d, v, sizeof v);
		putf(cv, y++, 0, DPR_ACTIVE, "next %s  pend %s", text,
		    d->pending ? (d->pending & MIC1_PEND_FETCH ? "FETCH" :
		    "READ") : d->pend_known ? "-" : "?");
	}
	/* registers as cells: "PC 0x0005 B><C" */
	cellw = 21;
	for (int r = 0; r < R_COUNT && y < cv->h; r++) {
		char tags[32], *p;
		int act = d->present && r_active(d, r);

		r_text(r, r_value(in->c, r), v, sizeof v);
		r_tags(d, r, tags, sizeof tags);
		/* squeeze the tags' spaces */
		for (p = tags; *p != '\0'; p++)
			if (*p == ' ' && (p[1] == ' ' || p[1] == '\0' ||
			    p == tags)) {
				memmove(p, p + 1, strlen(p));
				p--;
			}
		if (x + cellw > cv->w && x > 0) {
			x = 0;
			y++;
			if (y >= cv->h)
				break;
		}
		putf(cv, y, x, act ? DPR_ACTIVE : reg_changed(in, r) ?
		    DPR_CHANGED : DPR_TEXT, "%s %s %s", r_name[r], v,
		    d->present ? tags : "");
		x += cellw;
	}
}

void
dp_render(const struct dp_input *in, struct dp_canvas *cv)
{
	struct dp_decode d;

	dp_decode(in, &d);
	if (cv->w >= DP_FULL_COLS && cv->h >= DP_FULL_ROWS)
		render_full(in, &d, cv);
	else
		render_compact(in, &d, cv);
}

/* --- PMIC: three compute units (doc/pmic.md) ------------------------------------- */

static const char *const pmic_alu_text[PMIC_NALU] = { "0", "1", "-1", "A",
    "A + B", "A + B + 1", "A + 1", "A - 1", "A - B", "-A", "NOT A",
    "A AND B", "A OR B", "A << 8", "A >> 8", "A >> 1" };

/* A readable register's value; *known 0 when it lives in engine state
 * the pane was not given (G0, G1). */
static int32_t
pmic_value(const struct dp_pmic_input *in, uint32_t r, int *known)
{
	const struct core *c = in->c;
	uint32_t b1 = pmic_mbr_byte(c, 1), b2 = pmic_mbr_byte(c, 2);

	*known = 1;
	switch (r) {
	case PMIC_R_MAR:    return c->mar;
	case PMIC_R_MDR:    return c->mdr;
	case PMIC_R_PC:     return c->pc;
	case PMIC_R_MBR:    return c->mbr;
	case PMIC_R_MBR0: case PMIC_R_MBR1: case PMIC_R_MBR2: case PMIC_R_MBR3:
		return (int32_t)pmic_mbr_byte(c, (int)(r - PMIC_R_MBR0));
	case PMIC_R_MBR1S:  return (int32_t)(int8_t)b1;
	case PMIC_R_MBR12:  return (int32_t)(b1 << 8 | b2);
	case PMIC_R_MBR12S: return (int32_t)(int16_t)(b1 << 8 | b2);
	case PMIC_R_SP:     return c->sp;
	case PMIC_R_LV:     return c->lv;
	case PMIC_R_CPP:    return c->cpp;
	case PMIC_R_TOS:    return c->tos;
	case PMIC_R_OPC:    return c->opc;
	case PMIC_R_H:      return c->h;
	case PMIC_R_G0: case PMIC_R_G1:
		if (in->pc == NULL) {
			*known = 0;
			return 0;
		}
		return r == PMIC_R_G0 ? in->pc->g0 : in->pc->g1;
	case PMIC_R_C2: case PMIC_R_C3: case PMIC_R_C4: case PMIC_R_C5:
		return (int32_t)(r - PMIC_R_C2 + 2);
	case PMIC_R_SID:    return (int32_t)in->core;
	default:
		*known = 0;
		return 0;
	}
}

void
dp_decode_pmic(const struct dp_pmic_input *in, struct dp_pmic_decode *d)
{
	uint32_t nx = in->mi->next;

	memset(d, 0, sizeof *d);
	for (int k = 0; k < PMIC_NCU; k++) {
		struct dp_pmic_cu *u = &d->cu[k];
		uint32_t w = in->mi->cu[k], ins;
		int ka = 1, kb = 1;

		/* the unit's fields of its word; the rest follows if enabled */
		*u = (struct dp_pmic_cu){ .en = pmic_cu_en(w),
		    .mem = pmic_cu_mem(w), .alu = pmic_cu_alu(w),
		    .a = pmic_cu_a(w), .b = pmic_cu_b(w), .c = pmic_cu_c(w) };
		if (!u->en)
			continue;
		ins = (uint32_t)pmic_alu_inputs(u->alu);
		u->uses_a = (ins & 1) != 0;
		u->uses_b = (ins & 2) != 0;
		u->aval = u->uses_a ? pmic_value(in, u->a, &ka) : 0;
		u->bval = u->uses_b ? pmic_value(in, u->b, &kb) : 0;
		u->known = ka && kb;
		u->out = (int32_t)pmic_alu_eval(u->alu, (uint32_t)u->aval,
		    (uint32_t)u->bval);
	}
	d->n = d->cu[0].en && d->cu[0].known && d->cu[0].out < 0;
	d->z = d->cu[0].en && d->cu[0].known && d->cu[0].out == 0;
	d->next = pmic_next_addr(nx);
	d->jamn = PMIC_TEST(nx, PMIC_BIT_JAMN);
	d->jamz = PMIC_TEST(nx, PMIC_BIT_JAMZ);
	d->jmpc = PMIC_TEST(nx, PMIC_BIT_JMPC);
}

void
dp_render_pmic(const struct dp_pmic_input *in, struct dp_canvas *cv)
{
	struct dp_pmic_decode d;
	char text[160];
	int x, y = 1;

	if (in->text == NULL)
		pmic_disasm(in->mi, text, sizeof text);
	if (!header_row(cv, in->c->mpc, in->present, in->label,
	    in->text != NULL ? in->text : text))
		return;
	dp_decode_pmic(in, &d);
	for (int k = 0; k < PMIC_NCU && y < cv->h; k++, y++) {
		const struct dp_pmic_cu *u = &d.cu[k];
		size_t n = 0;

		if (!u->en) {
			putf(cv, y, 0, DPR_DIM, "CU%d  idle", k);
			continue;
		}
		n += (size_t)snprintf(text + n, sizeof text - n, "CU%d  ", k);
		if (u->uses_a)
			n += (size_t)snprintf(text + n, sizeof text - n,
			    "A=%s(%d) ", pmic_reg_name(u->a), u->aval);
		if (u->uses_b)
			n += (size_t)snprintf(text + n, sizeof text - n,
			    "B=%s(%d) ", pmic_reg_name(u->b), u->bval);
		if (u->known)
			n += (size_t)snprintf(text + n, sizeof text - n,
			    "%s = %d", pmic_alu_text[u->alu % PMIC_NALU], u->out);
		else
			n += (size_t)snprintf(text + n, sizeof text - n,
			    "%s = ?", pmic_alu_text[u->alu % PMIC_NALU]);
		if (u->c != 0) {
			n += (size_t)snprintf(text + n, sizeof text - n, " ->");
			for (int i = PMIC_NC - 1; i >= 0; i--)
				if (u->c & (1u << i))
					n += (size_t)snprintf(text + n,
					    sizeof text - n, " %s",
					    pmic_c_name(i));
		}
		if (u->mem && n < sizeof text)
			snprintf(text + n, sizeof text - n, "  %s",
			    pmic_mem_name(k));
		put(cv, y, 0, DPR_ACTIVE, text);
	}
	if (y < cv->h) {
		size_t n = (size_t)snprintf(text, sizeof text, "next 0x%03x",
		    d.next);

		if (d.jamn && n < sizeof text)
			n += (size_t)snprintf(text + n, sizeof text - n,
			    " JAMN(N=%d)", d.n);
		if (d.jamz && n < sizeof text)
			n += (size_t)snprintf(text + n, sizeof text - n,
			    " JAMZ(Z=%d)", d.z);
		if (d.jmpc && n < sizeof text)
			snprintf(text + n, sizeof text - n, " JMPC(MBR0 after "
			    "this cycle's fetch)");
		putf(cv, y++, 0, DPR_ACTIVE, "%s   N %d Z %d (CU0)", text,
		    d.n, d.z);
	}
	/* the registers the units read (r) and write (w), as cells */
	x = 0;
	for (uint32_t r = 0; r < PMIC_NREG && y < cv->h; r++) {
		char tags[16] = "", v[24];
		size_t n = 0;
		int known, active = 0;
		int32_t val = pmic_value(in, r, &known);

		if (r >= PMIC_R_MBR0 && r <= PMIC_R_MBR12S)
			continue;	/* bytes of MBR: in MBR */
		if (r >= PMIC_R_C2 && r <= PMIC_R_C5)
			continue;	/* constants */
		for (int k = 0; k < PMIC_NCU; k++) {
			const struct dp_pmic_cu *u = &d.cu[k];
			int rd = u->en && ((u->uses_a && u->a == r) ||
			    (u->uses_b && u->b == r));
			int wr = 0;

			for (int i = 0; i < PMIC_NC && u->en; i++)
				if ((u->c & (1u << i)) && strcmp(pmic_c_name(i),
				    pmic_reg_name(r)) == 0)
					wr = 1;
			if (rd && n + 3 < sizeof tags)
				n += (size_t)snprintf(tags + n, sizeof tags - n,
				    "r%d", k);
			if (wr && n + 3 < sizeof tags)
				n += (size_t)snprintf(tags + n, sizeof tags - n,
				    "w%d", k);
			active |= rd || wr;
		}
		if (!known)
			snprintf(v, sizeof v, "?");
		else if (r == PMIC_R_MBR)
			snprintf(v, sizeof v, "0x%08x", (uint32_t)val);
		else
			snprintf(v, sizeof v, "%d", val);
		if (x + 20 > cv->w && x > 0) {
			x = 0;
			y++;
			if (y >= cv->h)
				break;
		}
		putf(cv, y, x, active ? DPR_ACTIVE : DPR_TEXT, "%s %s %s",
		    pmic_reg_name(r), v, tags);
		x += 20;
	}
}
