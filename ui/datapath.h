/*
 * The Mic-1 and PMIC datapath pane's contents (datapath.c, pure): the
 * decoding of the word at MPC and the diagram as a character canvas with
 * roles.
 */
#ifndef MICDB_UI_DATAPATH_H
#define MICDB_UI_DATAPATH_H

#include <stddef.h>
#include <stdint.h>
#include "machine.h"
#include "mic1.h"
#include "pmic.h"
#include "program.h"

/* --- datapath.c: the Mic-1 datapath pane's contents (pure) ------------ */

/* What the diagram is drawn from: the focused core about to execute the
 * micro-instruction word at its MPC. */
struct dp_input {
	const struct core	*c;
	const struct core	*prev;    /* before the last run; NULL: none */
	const struct mic1_core	*mc;      /* pending READ/FETCH; NULL: unknown */
	const struct program	*prog;    /* the byte a pending FETCH gets */
	uint64_t		 word;    /* control_store[MPC] */
	int			 present; /* 0: no word there (it faults) */
	const char		*label;   /* MAL symbols; NULL: none */
	const char		*text;
};

/* The cycle, decoded, with the values it computes. */
struct dp_decode {
	int		 present;
	uint32_t	 mpc, bsel, f, cmask, mem, next, mpc_next;
	const char	*bname, *func;       /* func NULL: not a book function */
	int		 ena, enb, inva, inc, sll8, sra1;
	int32_t		 bval, aval, alu_out, shifted;
	int		 n, z;                /* of the ALU output */
	int		 jmpc, jamn, jamz;
	uint32_t	 jmpc_mbr;            /* MBR as JMPC ORs it in */
	int		 jmpc_known;          /* 0: a FETCH outside the text */
	uint8_t		 pending;             /* MIC1_PEND_* */
	int		 pend_known;
};
void	 dp_decode(const struct dp_input *in, struct dp_decode *d);

/* A character canvas with a role per cell (enum dp_role). */
enum dp_role { DPR_TEXT, DPR_ACTIVE, DPR_DIM, DPR_CHANGED, DPR_LABEL,
    DPR_ERROR };
#define DP_MAX_ROWS  64
#define DP_MAX_COLS  256
/* From this size on the full diagram, below it the compact form. */
#define DP_FULL_ROWS 11
#define DP_FULL_COLS 70
struct dp_canvas {
	int		 h, w;
	char		 ch[DP_MAX_ROWS][DP_MAX_COLS];
	uint8_t		 role[DP_MAX_ROWS][DP_MAX_COLS];
};
void	 dp_canvas_init(struct dp_canvas *cv, int h, int w);
void	 dp_render(const struct dp_input *in, struct dp_canvas *cv);
/* PMIC (doc/pmic.md): the three compute units of the word at MPC. */
struct dp_pmic_input {
	const struct core	*c;
	uint32_t		 core;    /* SID */
	const struct pmic_core	*pc;      /* G0, G1; NULL: unknown */
	const struct pmic_mi	*mi;
	int			 present;
	const char		*label, *text;
};
struct dp_pmic_cu {
	int		 en, mem, uses_a, uses_b, known;
	uint32_t	 alu, a, b, c;
	int32_t		 aval, bval, out;
};
struct dp_pmic_decode {
	struct dp_pmic_cu cu[PMIC_NCU];
	uint32_t	 next;
	int		 jamn, jamz, jmpc, n, z;
};
void	 dp_decode_pmic(const struct dp_pmic_input *in,
	    struct dp_pmic_decode *d);
void	 dp_render_pmic(const struct dp_pmic_input *in, struct dp_canvas *cv);
/* Row y as a string without trailing blanks (for tests). */
void	 dp_canvas_line(const struct dp_canvas *cv, int y, char *text,
	    size_t size);
#endif
