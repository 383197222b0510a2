/*
 * The registers a user can name (doc/debugger.md section 2): one table for
 * print, set var, conditions and info registers, so that the list and
 * its spelling exist once.
 */
#ifndef MICDB_REGS_H
#define MICDB_REGS_H

#include <stdint.h>

#include "machine.h"

enum reg {
	REG_PC, REG_SP, REG_LV, REG_CPP, REG_TOS, REG_OPC, REG_H, REG_MAR,
	REG_MDR, REG_MBR, REG_MPC, REG_N, REG_Z,
	REG_COUNT
};

/* Upper-case name of r. */
const char *reg_name(int r);
/* Register named name (any case), or -1. */
int	 reg_find(const char *name);
int32_t	 reg_get(const struct core *c, int r);
void	 reg_set(struct core *c, int r, int32_t v);

#endif
