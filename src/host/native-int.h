/*
 * What the native ISA engine's two files share: engine-native.c (the
 * decoder, the threaded interpreter nat_exec, runs and the engine's
 * operations), native-ahead.c (run-ahead windows, which let a few
 * cores run at the speed of one) and native-jit.c (the translation into
 * x86-64 code that nat_exec runs a lone core's slices in).  Nothing else
 * includes this file.
 */
#ifndef MICDB_NATIVE_INT_H
#define MICDB_NATIVE_INT_H

#include <stdint.h>

#include "ahead.h"
#include "engine.h"
#include "native-jit.h"

/* Handlers.  The order is the label table's in nat_exec. */
enum nat_h {
	H_SLOW, H_BP, H_NOP, H_BIPUSH, H_PUSHK, H_ILOAD, H_ISTORE,
	H_ISTORE0, H_IINC, H_IINC0, H_POP, H_DUP, H_SWAP, H_IADD, H_ISUB,
	H_IAND, H_IOR, H_IFEQ, H_IFLT, H_ICMPEQ, H_GOTO, H_GETSTATIC,
	H_PUTSTATIC, H_INVOKE, H_IRETURN, H_IALOAD, H_COREID, H_NCORES,
	H_IN, H_OUT, H_HALT, H_BARRIER, H_SYNC,
};

/* One decoded slot. */
struct nat_insn {
	uint8_t		h;      /* handler, BP while a breakpoint is on it */
	uint8_t		real;   /* the decoded handler */
	uint8_t		len;    /* bytes, WIDE included */
	int32_t		a;      /* value, local index, target, global, callee */
	int32_t		b;      /* IINC constant; callee nargs | nloc << 16 */
};

struct nat_prog {
	struct nat_insn	*code;   /* text_size + 1 slots; the last is SLOW */
	struct nat_insn	*pcode;  /* the same, SYNC where code is shared */
	uint32_t	 size;
	struct nat_jit	*jit;    /* its translation (native-jit.c), or NULL */
	int		 nojit;  /* none can be had: never try again */
};

/* Why nat_exec returned. */
enum nat_ev {
	EV_BUDGET,      /* ran every step it was given */
	EV_STATUS,      /* the core stopped running (halt, barrier, fault) */
	EV_BP,          /* it is at a breakpoint (not executed) */
	EV_WATCH,       /* it changed a watched global or heap word */
	EV_SYNC,        /* private run: it is at a shared instruction */
};

struct native {
	struct nat_prog	*progs;        /* per machine program */
	uint8_t		*seen;         /* faults already reported */
	/* the current run */
	const struct engine_run *r;
	int		 wglobals;     /* a global is watched */
	int		 wheap;        /* a heap word is watched */
	uint8_t		*wlocal;       /* per core: it has a watched local */
	/* per core: the frame nat_exec left (valid within a run) */
	int32_t		*floor;
	uint32_t	*nlocals;
	uint8_t		*fvalid;
	struct engine_writer *writers;
	size_t		 nwriters;
	size_t		 capwriters;
	struct ahead	 ahead;        /* run-ahead windows (nat_ahead) */
	/* nat_exec, which the windows call through this so that
	 * native-ahead.c and engine-native.c do not call each other */
	uint64_t	(*exec)(struct engine *e, uint32_t core,
			    uint64_t budget, int first, enum nat_ev *ev,
			    int priv);
	struct par_pool	*pool;         /* their threads (NULL: one) */
};

/* engine-native.c: run core for at most budget instructions (see there). */
uint64_t nat_exec(struct engine *e, uint32_t core, uint64_t budget,
	    int first, enum nat_ev *ev, int priv);

/* native-ahead.c: one window of at most h steps (see there). */
uint64_t nat_ahead(struct engine *e, const struct engine_run *r, uint64_t h,
	    uint64_t *stop_at);

#endif
