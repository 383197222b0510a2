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
 *         bits, SLL8 SRA1 F0 F1 ENA ENB INVA INC), MIR_C (the C-bus
 *         enables, bit 0 MAR .. bit 8 H), MIR_MEM and MIR_B (the B-bus
 *         source);
 *   pmic  the same registers, G0 and G1, MPC (the next address) and
 *         CU0 CU1 CU2 and NEXT, the words of the three compute units and
 *         the next-address word of the micro-instruction the cycle
 *         executed.
 *
 * A value is written when it changes, as the format intends; the values
 * are the machine's after the step, read from struct core and the level's
 * own state (struct mic1_core, struct pmic_core).  The ALU's and compute
 * units' inputs and results of a cycle are not kept by the golden models
 * and are not in the file.
 */
#include <stdlib.h>
#include <string.h>

#include "mic1.h"
#include "pmic.h"
#include "trace-int.h"

enum sig_kind {
	S_PC, S_SP, S_LV, S_TOS, S_OPCODE, S_MAR, S_MDR, S_MBR, S_CPP, S_OPC,
	S_H, S_MPC, S_N, S_Z, S_MIR_ADDR, S_MIR_JAM, S_MIR_ALU, S_MIR_C,
	S_MIR_MEM, S_MIR_B, S_G0, S_G1, S_CU0, S_CU1, S_CU2, S_NEXT,
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
};

static const struct sig pmic_sigs[] = {
	REGS(32), { "G0", 32, S_G0 }, { "G1", 32, S_G1 },
	{ "MPC", 9, S_MPC }, { "CU0", 32, S_CU0 }, { "CU1", 32, S_CU1 },
	{ "CU2", 32, S_CU2 }, { "NEXT", 32, S_NEXT },
};

struct vcd {
	const struct sig *sigs;
	size_t		 nsigs;
	uint32_t	*value;     /* per traced core and signal: last written */
	uint16_t	*mpc;       /* per traced core: the MPC before the cycle */
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

static uint32_t
value(const struct trace *t, const struct trace_view *v, uint32_t i,
    enum sig_kind kind)
{
	struct vcd *vc = t->st;
	uint32_t core = t->list[i];
	const struct core *c = &v->m->cores[core];
	const struct mic1_core *mc = NULL;
	const struct pmic_core *pc = NULL;
	const struct pmic_mi *mi = NULL;
	int b;

	if (v->level == LEVEL_MIC && t->level == LEVEL_MIC &&
	    v->level_state != NULL)
		mc = &((const struct mic1_state *)v->level_state)->core[core];
	if (v->level == LEVEL_PMIC && t->level == LEVEL_PMIC &&
	    v->level_state != NULL) {
		const struct pmic_state *ps = v->level_state;

		pc = &ps->core[core];
		if (vc->mpc[i] < PMIC_STORE_WORDS)
			mi = &ps->cs->mi[vc->mpc[i]];
	}
	switch (kind) {
	case S_PC:	return (uint32_t)c->pc;
	case S_SP:	return (uint32_t)c->sp;
	case S_LV:	return (uint32_t)c->lv;
	case S_TOS:	return (uint32_t)c->tos;
	case S_OPCODE:
		b = c->pc >= 0 ? machine_fetch_byte(v->m, core, c->pc) : -1;
		return b < 0 ? 0 : (uint32_t)b;
	case S_MAR:	return (uint32_t)c->mar;
	case S_MDR:	return (uint32_t)c->mdr;
	case S_MBR:	return (uint32_t)c->mbr;	/* cut to its bits */
	case S_CPP:	return (uint32_t)c->cpp;
	case S_OPC:	return (uint32_t)c->opc;
	case S_H:	return (uint32_t)c->h;
	case S_MPC:	return c->mpc;
	case S_N:	return c->n;
	case S_Z:	return c->z;
	case S_MIR_ADDR: return mc ? mic1_next(mc->mir) : 0;
	case S_MIR_JAM:	return mc ? mic1_jam(mc->mir) : 0;
	case S_MIR_ALU:	return mc ? mic1_alu(mc->mir) : 0;
	case S_MIR_C:	return mc ? mic1_cbus(mc->mir) : 0;
	case S_MIR_MEM:	return mc ? mic1_mem(mc->mir) : 0;
	case S_MIR_B:	return mc ? mic1_bsel(mc->mir) : 0;
	case S_G0:	return pc ? (uint32_t)pc->g0 : 0;
	case S_G1:	return pc ? (uint32_t)pc->g1 : 0;
	case S_CU0:	return mi ? mi->cu[0] : 0;
	case S_CU1:	return mi ? mi->cu[1] : 0;
	case S_CU2:	return mi ? mi->cu[2] : 0;
	case S_NEXT:	return mi ? mi->next : 0;
	}
	return 0;
}

/* The identifier of signal n: printable ASCII '!'..'~' in base 94. */
static void
ident(FILE *f, size_t n)
{
	do {
		fputc('!' + (int)(n % 94), f);
		n /= 94;
	} while (n > 0);
}

static void
put(FILE *f, const struct sig *s, size_t id, uint32_t val)
{
	if (s->bits == 1)
		fputc(val ? '1' : '0', f);
	else {
		int top = 31;

		fputc('b', f);
		while (top > 0 && !(val >> top & 1))
			top--;
		for (int b = top; b >= 0; b--)
			fputc('0' + (int)(val >> b & 1), f);
		fputc(' ', f);
	}
	ident(f, id);
	fputc('\n', f);
}

/* The values that changed (all with force), each traced core in turn. */
static void
dump(struct trace *t, const struct trace_view *v, int force)
{
	struct vcd *vc = t->st;
	int stamped = force;

	if (force)
		fprintf(t->af.f, "#%llu\n$dumpvars\n",
		    (unsigned long long)v->m->step);
	for (uint32_t i = 0; i < t->nlist; i++) {
		for (size_t k = 0; k < vc->nsigs; k++) {
			const struct sig *s = &vc->sigs[k];
			size_t id = i * vc->nsigs + k;
			uint32_t val;

			val = value(t, v, i, s->kind);
			if (s->bits < 32)
				val &= (UINT32_C(1) << s->bits) - 1;
			if (!force && vc->value[id] == val)
				continue;
			if (!stamped) {
				fprintf(t->af.f, "#%llu\n",
				    (unsigned long long)v->m->step);
				stamped = 1;
			}
			vc->value[id] = val;
			put(t->af.f, s, id, val);
		}
		vc->mpc[i] = v->m->cores[t->list[i]].mpc;
	}
	if (force)
		fprintf(t->af.f, "$end\n");
}

static void
vcd_start(struct trace *t, const struct trace_view *v)
{
	struct vcd *vc = xcalloc(1, sizeof *vc);
	FILE *f = t->af.f;

	t->st = vc;
	vc->sigs = sigs_of(t->level, &vc->nsigs);
	vc->value = xcalloc((size_t)t->nlist * vc->nsigs, sizeof *vc->value);
	vc->mpc = xcalloc(t->nlist, sizeof *vc->mpc);
	for (uint32_t i = 0; i < t->nlist; i++)
		vc->mpc[i] = v->m->cores[t->list[i]].mpc;
	fprintf(f, "$version micdb $end\n");
	fprintf(f, "$comment %s level, one time unit per %s $end\n",
	    level_name(t->level), t->level == LEVEL_ISA ? "step" :
	    "micro-cycle");
	fprintf(f, "$timescale 1ns $end\n");
	for (uint32_t i = 0; i < t->nlist; i++) {
		fprintf(f, "$scope module core%u $end\n", t->list[i]);
		for (size_t k = 0; k < vc->nsigs; k++) {
			const struct sig *s = &vc->sigs[k];

			fprintf(f, "$var wire %d ", s->bits);
			ident(f, i * vc->nsigs + k);
			if (s->bits == 1)
				fprintf(f, " %s $end\n", s->name);
			else
				fprintf(f, " %s [%d:0] $end\n", s->name,
				    s->bits - 1);
		}
		fprintf(f, "$upscope $end\n");
	}
	fprintf(f, "$enddefinitions $end\n");
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
	fprintf(t->af.f, "$comment step %llu: %s $end\n",
	    (unsigned long long)t->last_step, what);
}

static void
vcd_finish(struct trace *t)
{
	/* the last time, so that the viewer shows the last step's values */
	fprintf(t->af.f, "#%llu\n", (unsigned long long)t->last_step + 1);
}

static void
vcd_free(struct trace *t)
{
	struct vcd *vc = t->st;

	if (vc == NULL)
		return;
	free(vc->value);
	free(vc->mpc);
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
