/*
 * Register table (see regs.h).  MPC, N and Z are narrower in struct core
 * (micro-level fields); reg_set keeps them in range by truncation, as
 * the hardware registers would.
 */
#include <strings.h>

#include "regs.h"

static const char *const names[REG_COUNT] = {
	"PC", "SP", "LV", "CPP", "TOS", "OPC", "H", "MAR", "MDR", "MBR",
	"MPC", "N", "Z",
};

const char *
reg_name(int r)
{
	return r >= 0 && r < REG_COUNT ? names[r] : "?";
}

int
reg_find(const char *name)
{
	for (int r = 0; r < REG_COUNT; r++)
		if (strcasecmp(name, names[r]) == 0)
			return r;
	return -1;
}

int32_t
reg_get(const struct core *c, int r)
{
	switch (r) {
	case REG_PC:  return c->pc;
	case REG_SP:  return c->sp;
	case REG_LV:  return c->lv;
	case REG_CPP: return c->cpp;
	case REG_TOS: return c->tos;
	case REG_OPC: return c->opc;
	case REG_H:   return c->h;
	case REG_MAR: return c->mar;
	case REG_MDR: return c->mdr;
	case REG_MBR: return c->mbr;
	case REG_MPC: return c->mpc;
	case REG_N:   return c->n;
	case REG_Z:   return c->z;
	}
	return 0;
}

void
reg_set(struct core *c, int r, int32_t v)
{
	switch (r) {
	case REG_PC:  c->pc = v; break;
	case REG_SP:  c->sp = v; break;
	case REG_LV:  c->lv = v; break;
	case REG_CPP: c->cpp = v; break;
	case REG_TOS: c->tos = v; break;
	case REG_OPC: c->opc = v; break;
	case REG_H:   c->h = v; break;
	case REG_MAR: c->mar = v; break;
	case REG_MDR: c->mdr = v; break;
	case REG_MBR: c->mbr = v & 0xff; break;
	case REG_MPC: c->mpc = (uint16_t)v; break;
	case REG_N:   c->n = (uint8_t)(v != 0); break;
	case REG_Z:   c->z = (uint8_t)(v != 0); break;
	}
}
