/*
 * VCD traces (IEEE 1364 value change dump, doc/debugger.md section 5) of
 * the traced cores, for GTKWave and Surfer: one scope per core ("core0",
 * ...), one time unit per global step, which at a micro level is one
 * micro-cycle.  The signals are those of the level the trace was opened
 * at, named as doc/mic1.md and doc/pmic.md name them:
 *
 *   isa   PC SP LV TOS and OPCODE, the opcode byte at PC (the next
 *         instruction);
 *   mic   the registers MAR MDR PC MBR SP LV CPP TOS OPC H, MPC, the
 *         flags N and Z, and the fields of MIR, the micro-instruction the
 *         cycle executed: MIR_ADDR, MIR_JAM, MIR_ALU (the shifter and ALU
 *         bits, SLL8 SRA1 F0 F1 ENA ENB INVA INC), MIR_C (the C bus's
 *         write enables, bit 0 MAR .. bit 8 H), MIR_MEM and MIR_B (the B
 *         field); then the datapath of that cycle: B_EN, the B bus's
 *         output enables as the B decoder drives them (bit 0 MDR .. bit 8
 *         OPC), ALU_A (H) and ALU_B (the B bus), the ALU's inputs,
 *         ALU_OUT, its output, and C_BUS, the shifter's output that the
 *         enabled registers take;
 *   pmic  the same registers, G0 and G1, MPC (the next address), N and Z
 *         (from CU0), CU0 CU1 CU2 and NEXT, the words of the three
 *         compute units and the next-address word of the micro-
 *         instruction the cycle executed, and each unit's A bus, B bus
 *         and result: CU0_A CU0_B CU0_OUT .. CU2_OUT.
 *
 * The golden models keep no ALU values between cycles, so the datapath
 * signals are derived here: from the core as it was before the cycle
 * (kept from the last step recorded) and the word it executed, through
 * the models' own definition of the cycle's first stage (mic1_dp_eval,
 * pmic_units_eval), never a second copy of the ALU.  They hold their
 * value while a core runs no cycle (waiting, halted).
 *
 * A value is written when it changes, as the format intends; the
 * registers are the machine's after the step, read from struct core and
 * the level's own state (struct mic1_core, struct pmic_core).
 */
#include <stdlib.h>
#include <string.h>

#include "mic1.h"
#include "pmic.h"
#include "trace-int.h"

enum sig_kind {
	S_PC, S_SP, S_LV, S_TOS, S_OPCODE, S_MAR, S_MDR, S_MBR, S_CPP, S_OPC,
	S_H, S_MPC, S_N, S_Z, S_MIR_ADDR, S_MIR_JAM, S_MIR_ALU, S_MIR_C,
	S_MIR_MEM, S_MIR_B, S_B_EN, S_ALU_A, S_ALU_B, S_ALU_OUT, S_C_BUS,
	S_G0, S_G1, S_CU0, S_CU1, S_CU2, S_NEXT,
	S_CU0_A, S_CU0_B, S_CU0_OUT, S_CU1_A, S_CU1_B, S_CU1_OUT,
	S_CU2_A, S_CU2_B, S_CU2_OUT,
	S_NKINDS
};

struct sig {
	const char	*name;
	int		 bits;
	enum sig_kind	 kind;
};

static const struct sig isa_sigs[] = {
	{ "PC", 32, S_PC }, { "SP", 32, S_SP }, { "LV", 32, S_LV },
	{ "TOS", 32, S_TOS }, { "OPCODE", 8, S_OPCODE },
};

/* the registers in doc/mic1.md's order; MBR is one byte at Mic-1, the
 * four-byte buffer MBR0..MBR3 at PMIC */
#define REGS(mbr_bits) \
	{ "MAR", 32, S_MAR }, { "MDR", 32, S_MDR }, { "PC", 32, S_PC }, \
	{ "MBR", mbr_bits, S_MBR }, { "SP", 32, S_SP }, { "LV", 32, S_LV }, \
	{ "CPP", 32, S_CPP }, { "TOS", 32, S_TOS }, { "OPC", 32, S_OPC }, \
	{ "H", 32, S_H }

static const struct sig mic_sigs[] = {
	REGS(8), { "MPC", 9, S_MPC }, { "N", 1, S_N }, { "Z", 1, S_Z },
	{ "MIR_ADDR", 9, S_MIR_ADDR }, { "MIR_JAM", 3, S_MIR_JAM },
	{ "MIR_ALU", 8, S_MIR_ALU }, { "MIR_C", 9, S_MIR_C },
	{ "MIR_MEM", 3, S_MIR_MEM }, { "MIR_B", 4, S_MIR_B },
	{ "B_EN", 9, S_B_EN }, { "ALU_A", 32, S_ALU_A },
	{ "ALU_B", 32, S_ALU_B }, { "ALU_OUT", 32, S_ALU_OUT },
	{ "C_BUS", 32, S_C_BUS },
};

static const struct sig pmic_sigs[] = {
	REGS(32), { "G0", 32, S_G0 }, { "G1", 32, S_G1 },
	{ "MPC", 9, S_MPC }, { "N", 1, S_N }, { "Z", 1, S_Z },
	{ "CU0", 32, S_CU0 }, { "CU1", 32, S_CU1 },
	{ "CU2", 32, S_CU2 }, { "NEXT", 32, S_NEXT },
	{ "CU0_A", 32, S_CU0_A }, { "CU0_B", 32, S_CU0_B },
	{ "CU0_OUT", 32, S_CU0_OUT }, { "CU1_A", 32, S_CU1_A },
	{ "CU1_B", 32, S_CU1_B }, { "CU1_OUT", 32, S_CU1_OUT },
	{ "CU2_A", 32, S_CU2_A }, { "CU2_B", 32, S_CU2_B },
	{ "CU2_OUT", 32, S_CU2_OUT },
};

/* What a traced core keeps between steps. */
struct vcd_core {
	struct core	 before;    /* as the last step recorded left it */
	struct pmic_core kbefore;   /* its PMIC side state (G0, G1) */
	uint32_t	 dp[S_NKINDS]; /* the datapath of its last cycle */
};

struct vcd {
	const struct sig *sigs;
	size_t		 nsigs;
	uint32_t	*value;     /* per traced core and signal: last written */
	struct vcd_core	*core;      /* per traced core */
	char		(*id)[5];   /* per signal: its identifier */
	uint8_t		*idlen;
};

static const struct sig *
sigs_of(enum level level, size_t *n)
{
	switch (level) {
	case LEVEL_MIC:
		*n = sizeof mic_sigs / sizeof mic_sigs[0];
		return mic_sigs;
	case LEVEL_PMIC:
		*n = sizeof pmic_sigs / sizeof pmic_sigs[0];
		return pmic_sigs;
	default:
		*n = sizeof isa_sigs / sizeof isa_sigs[0];
		return isa_sigs;
	}
}

/* The cycle core ran in the step just recorded, from the state before it
 * (vk->before) and the word it executed: the datapath signals. */
static void
datapath(const struct trace *t, const struct trace_view *v, uint32_t core,
    struct vcd_core *vk)
{
	const struct core *c = &v->m->cores[core];
	uint32_t *dp = vk->dp;

	if (v->level != t->level || v->level_state == NULL ||
	    c->cycles != vk->before.cycles + 1)
		return;		/* no cycle, or not one of this level */
	if (t->level == LEVEL_MIC) {
		const struct mic1_state *ms = v->level_state;
		uint64_t w = ms->core[core].mir;
		uint32_t b = mic1_bsel(w);
		struct mic1_dp d;

		mic1_dp_eval(&vk->before, w, &d);
		dp[S_B_EN] = b <= MIC1_B_OPC ? 1u << b : 0;
		dp[S_ALU_A] = d.a;
		dp[S_ALU_B] = d.b;
		dp[S_ALU_OUT] = d.out;
		dp[S_C_BUS] = d.c;
	} else if (t->level == LEVEL_PMIC) {
		const struct pmic_state *ps = v->level_state;
		struct pmic_dp d;

		if (vk->before.mpc >= PMIC_STORE_WORDS)
			return;
		pmic_units_eval(&vk->before, &vk->kbefore, core,
		    &ps->cs->mi[vk->before.mpc], &d);
		for (int u = 0; u < PMIC_NCU; u++) {
			dp[S_CU0_A + 3 * u] = d.a[u];
			dp[S_CU0_B + 3 * u] = d.b[u];
			dp[S_CU0_OUT + 3 * u] = d.out[u];
		}
	}
}

/* Every signal's value for traced core i after the step, into val. */
static void
values(const struct trace *t, const struct trace_view *v, uint32_t i,
    uint32_t *val)
{
	struct vcd *vc = t->st;
	struct vcd_core *vk = &vc->core[i];
	uint32_t core = t->list[i];
	const struct core *c = &v->m->cores[core];
	const struct mic1_core *mc = NULL;
	const struct pmic_core *pc = NULL;
	const struct pmic_mi *mi = NULL;
	int b;

	memcpy(val, vk->dp, sizeof vk->dp);
	val[S_PC] = (uint32_t)c->pc;
	val[S_SP] = (uint32_t)c->sp;
	val[S_LV] = (uint32_t)c->lv;
	val[S_TOS] = (uint32_t)c->tos;
	if (t->level == LEVEL_ISA) {
		b = c->pc >= 0 ? machine_fetch_byte(v->m, core, c->pc) : -1;
		val[S_OPCODE] = b < 0 ? 0 : (uint32_t)b;
		return;
	}
	val[S_MAR] = (uint32_t)c->mar;
	val[S_MDR] = (uint32_t)c->mdr;
	val[S_MBR] = (uint32_t)c->mbr;	/* cut to its bits */
	val[S_CPP] = (uint32_t)c->cpp;
	val[S_OPC] = (uint32_t)c->opc;
	val[S_H] = (uint32_t)c->h;
	val[S_MPC] = c->mpc;
	val[S_N] = c->n;
	val[S_Z] = c->z;
	if (v->level == LEVEL_MIC && t->level == LEVEL_MIC &&
	    v->level_state != NULL)
		mc = &((const struct mic1_state *)v->level_state)->core[core];
	if (v->level == LEVEL_PMIC && t->level == LEVEL_PMIC &&
	    v->level_state != NULL) {
		const struct pmic_state *ps = v->level_state;

		pc = &ps->core[core];
		if (vk->before.mpc < PMIC_STORE_WORDS)
			mi = &ps->cs->mi[vk->before.mpc];
	}
	val[S_MIR_ADDR] = mc ? mic1_next(mc->mir) : 0;
	val[S_MIR_JAM] = mc ? mic1_jam(mc->mir) : 0;
	val[S_MIR_ALU] = mc ? mic1_alu(mc->mir) : 0;
	val[S_MIR_C] = mc ? mic1_cbus(mc->mir) : 0;
	val[S_MIR_MEM] = mc ? mic1_mem(mc->mir) : 0;
	val[S_MIR_B] = mc ? mic1_bsel(mc->mir) : 0;
	val[S_G0] = pc ? (uint32_t)pc->g0 : 0;
	val[S_G1] = pc ? (uint32_t)pc->g1 : 0;
	val[S_CU0] = mi ? mi->cu[0] : 0;
	val[S_CU1] = mi ? mi->cu[1] : 0;
	val[S_CU2] = mi ? mi->cu[2] : 0;
	val[S_NEXT] = mi ? mi->next : 0;
}

/* The identifier of signal n: printable ASCII '!'..'~' in base 94. */
static size_t
ident(char *out, size_t n)
{
	size_t len = 0;

	do {
		out[len++] = (char)('!' + (int)(n % 94));
		n /= 94;
	} while (n > 0);
	return len;
}

static const char nibble[16][4] = {
	"0000", "0001", "0010", "0011", "0100", "0101", "0110", "0111",
	"1000", "1001", "1010", "1011", "1100", "1101", "1110", "1111",
};

/* "b1010 ID\n" (or "1ID\n" for one bit), in one write. */
static void
put(struct trace *t, const struct sig *s, size_t id, uint32_t val)
{
	struct vcd *vc = t->st;
	char line[48];
	size_t n = 0;

	if (s->bits == 1)
		line[n++] = val ? '1' : '0';
	else {
		int top = 31, lo;

		line[n++] = 'b';
		/* the first 1 bit (or bit 0): whole nibbles of zeros first */
		while (top > 3 && (val >> (top & ~3)) == 0)
			top = (top & ~3) - 1;
		while (top > 0 && !(val >> top & 1))
			top--;
		/* its nibble bit by bit, then the nibbles below it */
		lo = top & ~3;
		for (int b = top; b >= lo; b--)
			line[n++] = (char)('0' + (int)(val >> b & 1));
		for (int b = lo - 1; b >= 0; b -= 4) {
			memcpy(line + n, nibble[val >> (b - 3) & 0xF], 4);
			n += 4;
		}
		line[n++] = ' ';
	}
	memcpy(line + n, vc->id[id], vc->idlen[id]);
	n += vc->idlen[id];
	line[n++] = '\n';
	trace_put(t, line, n);
}

/* The values that changed (all with force), each traced core in turn. */
static void
dump(struct trace *t, const struct trace_view *v, int force)
{
	struct vcd *vc = t->st;
	int stamped = force;
	uint32_t val[S_NKINDS];

	if (force) {
		trace_putc(t, '#');
		trace_putu(t, v->m->step);
		trace_puts(t, "\n$dumpvars\n");
	}
	for (uint32_t i = 0; i < t->nlist; i++) {
		struct vcd_core *vk = &vc->core[i];
		uint32_t core = t->list[i];

		if (!force)
			datapath(t, v, core, vk);
		values(t, v, i, val);
		for (size_t k = 0; k < vc->nsigs; k++) {
			const struct sig *s = &vc->sigs[k];
			size_t id = i * vc->nsigs + k;
			uint32_t x = val[s->kind];

			if (s->bits < 32)
				x &= (UINT32_C(1) << s->bits) - 1;
			if (!force && vc->value[id] == x)
				continue;
			if (!stamped) {
				trace_putc(t, '#');
				trace_putu(t, v->m->step);
				trace_putc(t, '\n');
				stamped = 1;
			}
			vc->value[id] = x;
			put(t, s, id, x);
		}
		vk->before = v->m->cores[core];
		if (v->level == LEVEL_PMIC && t->level == LEVEL_PMIC &&
		    v->level_state != NULL)
			vk->kbefore = ((const struct pmic_state *)
			    v->level_state)->core[core];
	}
	if (force)
		trace_puts(t, "$end\n");
}

static void
vcd_start(struct trace *t, const struct trace_view *v)
{
	struct vcd *vc = xcalloc(1, sizeof *vc);
	size_t nid;

	t->st = vc;
	vc->sigs = sigs_of(t->level, &vc->nsigs);
	nid = (size_t)t->nlist * vc->nsigs;
	vc->value = xcalloc(nid, sizeof *vc->value);
	vc->core = xcalloc(t->nlist, sizeof *vc->core);
	vc->id = xcalloc(nid, sizeof *vc->id);
	vc->idlen = xcalloc(nid, 1);
	for (size_t n = 0; n < nid; n++)
		vc->idlen[n] = (uint8_t)ident(vc->id[n], n);
	/* before any cycle: the MIR fields show the word at MPC */
	for (uint32_t i = 0; i < t->nlist; i++)
		vc->core[i].before = v->m->cores[t->list[i]];
	trace_putf(t, "$version micdb $end\n");
	trace_putf(t, "$comment %s level, one time unit per %s $end\n",
	    level_name(t->level), t->level == LEVEL_ISA ? "step" :
	    "micro-cycle");
	trace_putf(t, "$timescale 1ns $end\n");
	for (uint32_t i = 0; i < t->nlist; i++) {
		trace_putf(t, "$scope module core%u $end\n", t->list[i]);
		for (size_t k = 0; k < vc->nsigs; k++) {
			const struct sig *s = &vc->sigs[k];
			size_t id = i * vc->nsigs + k;

			trace_putf(t, "$var wire %d %.*s", s->bits,
			    (int)vc->idlen[id], vc->id[id]);
			if (s->bits == 1)
				trace_putf(t, " %s $end\n", s->name);
			else
				trace_putf(t, " %s [%d:0] $end\n", s->name,
				    s->bits - 1);
		}
		trace_putf(t, "$upscope $end\n");
	}
	trace_putf(t, "$enddefinitions $end\n");
	dump(t, v, 1);
}

static void
vcd_record(struct trace *t, const struct trace_view *v)
{
	dump(t, v, 0);
}

static void
vcd_mark(struct trace *t, const struct trace_view *v, const char *what)
{
	(void)v;
	/* a comment where the viewer shows nothing: the file stays valid */
	trace_putf(t, "$comment step %llu: %s $end\n",
	    (unsigned long long)t->last_step, what);
}

static void
vcd_finish(struct trace *t)
{
	/* the last time, so that the viewer shows the last step's values */
	trace_putf(t, "#%llu\n", (unsigned long long)t->last_step + 1);
}

static void
vcd_free(struct trace *t)
{
	struct vcd *vc = t->st;

	if (vc == NULL)
		return;
	free(vc->value);
	free(vc->core);
	free(vc->id);
	free(vc->idlen);
	free(vc);
	t->st = NULL;
}

const struct trace_fmt trace_fmt_vcd = {
	.name = "vcd",
	.start = vcd_start,
	.record = vcd_record,
	.mark = vcd_mark,
	.finish = vcd_finish,
	.free = vcd_free,
};
