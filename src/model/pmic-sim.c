/*
 * The PMIC simulator, golden model of the PMIC level (pmic.h): one cycle
 * of one core steps the same struct machine as the reference interpreter
 * and the Mic-1 simulator; G0, G1, the MBR validity and the device
 * latches live in struct pmic_core beside it.
 *
 * Unlike Mic-1, every memory operation completes in the cycle that
 * issues it, so nothing is ever in flight: the state between two cycles
 * is the registers, MPC, N, Z and the side state.
 */
#include <stdlib.h>
#include <string.h>

#include "devword.h"
#include "ijvm.h"
#include "pmic.h"
#include "micro-sim.h"

/* Stop a core with a fault at the ISA instruction it is executing. */
static void
pmic_fault(struct pmic_state *st, struct machine *m, uint32_t core,
    int fault)
{
	ref_fault(m, core, fault, st->core[core].insn_pc);
}

/* MBR <- the 4 bytes at PC; bytes outside the text read 0, invalid. */
static void
pmic_fetch(struct pmic_core *k, struct machine *m, uint32_t core)
{
	struct core *c = &m->cores[core];
	uint32_t v = 0;

	k->mbr_valid = 0;
	for (int i = 0; i < 4; i++) {
		int byte = machine_fetch_byte(m, core,
		    (int32_t)((uint32_t)c->pc + (uint32_t)i));

		v = (v << 8) | (byte < 0 ? 0 : (uint32_t)byte);
		if (byte >= 0)
			k->mbr_valid |= (uint8_t)(8 >> i);
	}
	c->mbr = (int32_t)v;
	k->mbr_addr = c->pc;
}

/* ---- one cycle ---------------------------------------------------------- */

static uint32_t
pmic_reg(const struct core *c, const struct pmic_core *k, uint32_t core,
    uint32_t r)
{
	switch (r) {
	case PMIC_R_MAR:	return (uint32_t)c->mar;
	case PMIC_R_MDR:	return (uint32_t)c->mdr;
	case PMIC_R_PC:		return (uint32_t)c->pc;
	case PMIC_R_MBR:	return (uint32_t)c->mbr;
	case PMIC_R_MBR0:	return pmic_mbr_byte(c, 0);
	case PMIC_R_MBR1:	return pmic_mbr_byte(c, 1);
	case PMIC_R_MBR2:	return pmic_mbr_byte(c, 2);
	case PMIC_R_MBR3:	return pmic_mbr_byte(c, 3);
	case PMIC_R_MBR1S:
		return (uint32_t)(int32_t)(int8_t)pmic_mbr_byte(c, 1);
	case PMIC_R_MBR12:
		return pmic_mbr_byte(c, 1) << 8 | pmic_mbr_byte(c, 2);
	case PMIC_R_MBR12S:
		return (uint32_t)(int32_t)(int16_t)(pmic_mbr_byte(c, 1) << 8 |
		    pmic_mbr_byte(c, 2));
	case PMIC_R_SP:		return (uint32_t)c->sp;
	case PMIC_R_LV:		return (uint32_t)c->lv;
	case PMIC_R_CPP:	return (uint32_t)c->cpp;
	case PMIC_R_TOS:	return (uint32_t)c->tos;
	case PMIC_R_OPC:	return (uint32_t)c->opc;
	case PMIC_R_H:		return (uint32_t)c->h;
	case PMIC_R_G0:		return (uint32_t)k->g0;
	case PMIC_R_G1:		return (uint32_t)k->g1;
	case PMIC_R_C2:		return 2;
	case PMIC_R_C3:		return 3;
	case PMIC_R_C4:		return 4;
	case PMIC_R_C5:		return 5;
	case PMIC_R_SID:	return core;
	default:		return 0;
	}
}

static void
pmic_cwrite(struct core *c, struct pmic_core *k, uint32_t cbits, uint32_t v)
{
	int32_t s = (int32_t)v;

	micro_cwrite(c, cbits, s);
	if (cbits & PMIC_C_G0)  k->g0 = s;
	if (cbits & PMIC_C_G1)  k->g1 = s;
}

static int
pmic_boundary(const struct core *c, const struct pmic_core *k)
{
	return k->entry && (k->mbr_valid & 8) && k->mbr_addr == c->pc &&
	    c->mpc == pmic_mbr_byte(c, 0);
}

void
pmic_units_eval(const struct core *c, const struct pmic_core *k,
    uint32_t core, const struct pmic_mi *mi, struct pmic_dp *d)
{
	/* the three CUs read the registers as they are before any writes */
	for (int i = 0; i < PMIC_NCU; i++) {
		uint32_t w = mi->cu[i];

		d->a[i] = d->b[i] = d->out[i] = 0;
		if (!pmic_cu_en(w))
			continue;
		d->a[i] = pmic_reg(c, k, core, pmic_cu_a(w));
		d->b[i] = pmic_reg(c, k, core, pmic_cu_b(w));
		d->out[i] = pmic_alu_eval(pmic_cu_alu(w), d->a[i], d->b[i]);
	}
}

/* The compute units of word mi on core (c, k): N, Z and the C writes. */
static void
pmic_units(struct core *c, struct pmic_core *k, uint32_t core,
    const struct pmic_mi *mi)
{
	struct pmic_dp d;

	pmic_units_eval(c, k, core, mi, &d);
	if (pmic_cu_en(mi->cu[0])) {
		c->n = (uint8_t)(d.out[0] >> 31);
		c->z = (uint8_t)(d.out[0] == 0);
	}
	/* then they write, CU0 first (the compiler keeps the sets apart) */
	for (int i = 0; i < PMIC_NCU; i++)
		if (pmic_cu_en(mi->cu[i]))
			pmic_cwrite(c, k, pmic_cu_c(mi->cu[i]), d.out[i]);
}

int
pmic_cycle(struct pmic_state *st, struct machine *m, uint32_t core)
{
	struct core *c = &m->cores[core];
	struct pmic_core *k = &st->core[core];
	const struct pmic_mi *mi;
	uint32_t nx, mpc;
	int fault, cond;

	if (c->status != CORE_RUNNING)
		return 0;
	if (pmic_boundary(c, k)) {
		c->steps++;
		k->insn_pc = c->pc;
	} else if (k->entry && !(k->mbr_valid & 8)) {
		/* Entered with PC outside the text. */
		k->insn_pc = c->pc;
		pmic_fault(st, m, core, FAULT_PC_RANGE);
		return 1;
	}
	if (!pmic_present(st->cs, c->mpc)) {
		pmic_fault(st, m, core, FAULT_NO_MICROINSTR);
		return 1;
	}
	c->cycles++;
	mi = &st->cs->mi[c->mpc];

	pmic_units(c, k, core, mi);

	if (pmic_cu_mem(mi->cu[2])) {
		fault = devword_write(m, core, &k->dev, c->mar, c->mdr);
		if (fault != FAULT_NONE) {
			pmic_fault(st, m, core, fault);
			return 1;
		}
	}
	if (pmic_cu_mem(mi->cu[1])) {
		int32_t v;

		if ((fault = devword_read_now(m, core, &k->dev, c->mar, &v)) !=
		    FAULT_NONE) {
			pmic_fault(st, m, core, fault);
			return 1;
		}
		c->mdr = v;
	}
	if (pmic_cu_mem(mi->cu[0]))
		pmic_fetch(k, m, core);

	nx = mi->next;
	mpc = pmic_next_addr(nx);
	if (PMIC_TEST(nx, PMIC_BIT_JMPC)) {
		if (!(k->mbr_valid & 8)) {
			pmic_fault(st, m, core, FAULT_PC_RANGE);
			return 1;
		}
		mpc |= pmic_mbr_byte(c, 0);
	}
	cond = (PMIC_TEST(nx, PMIC_BIT_JAMN) && c->n) ||
	    (PMIC_TEST(nx, PMIC_BIT_JAMZ) && c->z);
	mpc ^= cond ? 1u << PMIC_BIT_NEXT_JAM : 0;
	c->mpc = (uint16_t)(mpc & (PMIC_STORE_WORDS - 1));
	k->entry = (uint8_t)(PMIC_TEST(nx, PMIC_BIT_JMPC) &&
	    c->mpc == pmic_mbr_byte(c, 0));
	return 1;
}

int32_t *
pmic_next_store(const struct pmic_state *st, struct machine *m,
    uint32_t core, uint32_t *n)
{
	const struct core *c = &m->cores[core];
	struct core after = *c;
	struct pmic_core kafter = st->core[core];
	const struct pmic_mi *mi;

	*n = 0;
	if (!pmic_present(st->cs, c->mpc))
		return NULL;
	mi = &st->cs->mi[c->mpc];
	if (!pmic_cu_mem(mi->cu[2]))
		return NULL;
	pmic_units(&after, &kafter, core, mi);	/* MAR and MDR it writes */
	return devword_write_span(m, core, &st->core[core].dev, after.mar,
	    after.mdr, n);
}

/* ---- switching levels --------------------------------------------------- */

int
pmic_at_boundary(const struct pmic_state *st, const struct machine *m,
    uint32_t core)
{
	return pmic_boundary(&m->cores[core], &st->core[core]);
}

/* pmic_enter but for TOS, which the caller loads (or knows). */
static void
pmic_enter_core(struct pmic_state *st, struct machine *m, uint32_t core)
{
	struct core *c = &m->cores[core];
	struct pmic_core *k = &st->core[core];

	pmic_fetch(k, m, core);
	c->mpc = (uint16_t)pmic_mbr_byte(c, 0);
	/* microcode/pmic.pm keeps a cache of the frame in G0/G1; another
	 * level may have called or returned since this level last ran, so
	 * enter with the cache empty (0 fails every check, which then
	 * rebuilds it from memory). */
	k->g0 = 0;
	k->g1 = 0;
	k->entry = 1;
	k->insn_pc = c->pc;
}

void
pmic_enter(struct pmic_state *st, struct machine *m, uint32_t core)
{
	pmic_enter_core(st, m, core);
	micro_load_tos(m, core);
}

/* A core at its start has TOS = the word at SP of its clear stack
 * already (machine.c core_start): reading that word would map the zero
 * page there, and the core's first push would then copy it and flush
 * the TLB of every thread running the process (doc/performance.md
 * section 19.4). */
void
pmic_start_core(struct pmic_state *st, struct machine *m, uint32_t core)
{
	memset(&st->core[core], 0, sizeof st->core[core]);
	pmic_enter_core(st, m, core);
}

/* The model (micro-sim.h), with pmic_state_init, pmic_state_free,
 * pmic_step, pmic_insn_pc and pmic_leave. */
MICRO_MODEL(pmic_model, pmic, struct pmic_state, struct pmic_store,
    LEVEL_PMIC);
