/*
 * The layout of the Mic-1 micro-instruction word (doc/mic1.md section 1), in
 * one place for the host (mic1-enc.h includes it) and the OpenCL kernel
 * (kernels/mic.cl): only macros and enums on 32-bit unsigned values, so
 * that C11 and OpenCL C 1.2 include it, as context.h.  What needs the
 * 64-bit word as a C type (MIC1_WORD_MASK, MIC1_GET, MIC1_SET) is
 * mic1-enc.h's.
 *
 * Encoding, most significant bit first:
 *
 *   35     27 26 25 24 23 22 21 20 19 18 17 16 15          7 6 5 4 3    0
 *  +---------+--+--+--+--+--+--+--+--+--+--+--+-------------+-+-+-+------+
 *  |  NEXT   |J |J |J |S |S |F |F |E |E |I |I | C bus       |W|R|F|  B   |
 *  | ADDRESS |M |A |A |L |R |0 |1 |N |N |N |N | H OPC TOS   |R|D|E|      |
 *  |         |P |M |M |L |A |  |  |A |B |V |C | CPP LV SP   | | |T|      |
 *  |         |C |N |Z |8 |1 |  |  |  |  |A |  | PC MDR MAR  | | |C|      |
 *  +---------+--+--+--+--+--+--+--+--+--+--+--+-------------+-+-+-+------+
 *     NEXT    \---JAM--/ \---------- ALU ---------/     C        MEM    B
 *
 * Main1 (PC = PC + 1; fetch; goto (MBR)) is 0x004350211: JMPC, ALU
 * 00110101 (B + 1), C = PC, FETCH, B = PC.
 *
 * C bus bits, left to right: H OPC TOS CPP LV SP PC MDR MAR.
 * B field: 0 MDR, 1 PC, 2 MBR, 3 MBRU, 4 SP, 5 LV, 6 CPP, 7 TOS, 8 OPC,
 * 9-15 nothing (the bus reads 0).
 *
 * Fields are read and written only through these macros, as Lua's
 * opcode header does for its instructions: MIC1_POS_x and MIC1_SIZE_x place a field, MIC1_FIELD
 * extracts it (mic1-enc.h's MIC1_GET and MIC1_SET for the 64-bit word).
 *
 * The device words.  The kernel reads a word of the control store as two
 * 32-bit words (context-mic.h CTXM_CS_D0, CTXM_CS_D1), which the host
 * makes from the 36-bit word (src/ocl/engine-ocl-mic.c):
 *
 *   D0  bits 0..26 of the word: every field but NEXT at its place, so
 *       that MIC1_FIELD and MIC1_BIT_* read D0 as they read the word;
 *   D1  NEXT in bits 0..8, PRESENT in bit 9, and from bit 16 the B field
 *       as a one-hot mask (bit MIC1_D1_POS_ONEHOT + b for b up to
 *       MIC1_B_OPC, none for 9..15), so that the kernel selects the B
 *       bus with masks instead of a switch.
 */
#ifndef MICDB_MIC1_WORD_H
#define MICDB_MIC1_WORD_H

#define MIC1_WORD_BITS		36

#define MIC1_SIZE_B		4
#define MIC1_SIZE_MEM		3
#define MIC1_SIZE_C		9
#define MIC1_SIZE_ALU		8
#define MIC1_SIZE_JAM		3
#define MIC1_SIZE_NEXT		9

#define MIC1_POS_B		0
#define MIC1_POS_MEM		(MIC1_POS_B + MIC1_SIZE_B)	/* 4 */
#define MIC1_POS_C		(MIC1_POS_MEM + MIC1_SIZE_MEM)	/* 7 */
#define MIC1_POS_ALU		(MIC1_POS_C + MIC1_SIZE_C)	/* 16 */
#define MIC1_POS_JAM		(MIC1_POS_ALU + MIC1_SIZE_ALU)	/* 24 */
#define MIC1_POS_NEXT		(MIC1_POS_JAM + MIC1_SIZE_JAM)	/* 27 */

/* Inside ALU, the function select F0 F1 (0 AND, 1 OR, 2 NOT B, 3 sum). */
#define MIC1_SIZE_FN		2
#define MIC1_POS_FN		(MIC1_POS_ALU + 4)

/* n one bits, n < 32. */
#define MIC1_ONES(n)		((1u << (n)) - 1u)
/* Field f (B, MEM, C, ALU, FN, JAM, NEXT) of word w, or of D0 for any
 * field but NEXT. */
#define MIC1_FIELD(w, f) \
	(((w) >> MIC1_POS_##f) & MIC1_ONES(MIC1_SIZE_##f))

/* Single bits, as bit numbers of the whole word (and of D0). */
#define MIC1_BIT_FETCH		(MIC1_POS_MEM + 0)
#define MIC1_BIT_READ		(MIC1_POS_MEM + 1)
#define MIC1_BIT_WRITE		(MIC1_POS_MEM + 2)
#define MIC1_BIT_INC		(MIC1_POS_ALU + 0)
#define MIC1_BIT_INVA		(MIC1_POS_ALU + 1)
#define MIC1_BIT_ENB		(MIC1_POS_ALU + 2)
#define MIC1_BIT_ENA		(MIC1_POS_ALU + 3)
#define MIC1_BIT_F1		(MIC1_POS_ALU + 4)
#define MIC1_BIT_F0		(MIC1_POS_ALU + 5)
#define MIC1_BIT_SRA1		(MIC1_POS_ALU + 6)
#define MIC1_BIT_SLL8		(MIC1_POS_ALU + 7)
#define MIC1_BIT_JAMZ		(MIC1_POS_JAM + 0)
#define MIC1_BIT_JAMN		(MIC1_POS_JAM + 1)
#define MIC1_BIT_JMPC		(MIC1_POS_JAM + 2)
#define MIC1_TEST(w, bit)	((int)(((w) >> (bit)) & 1))
/* The same bit as 0u or 1u. */
#define MIC1_BITV(w, bit)	(((w) >> (bit)) & 1u)

/* Values inside the MEM, JAM and ALU fields. */
#define MIC1_MEM_FETCH		0x1
#define MIC1_MEM_READ		0x2
#define MIC1_MEM_WRITE		0x4
#define MIC1_JAM_Z		0x1
#define MIC1_JAM_N		0x2
#define MIC1_JAM_PC		0x4
#define MIC1_ALU_INC		0x01
#define MIC1_ALU_INVA		0x02
#define MIC1_ALU_ENB		0x04
#define MIC1_ALU_ENA		0x08
#define MIC1_ALU_F1		0x10
#define MIC1_ALU_F0		0x20
#define MIC1_ALU_SRA1		0x40
#define MIC1_ALU_SLL8		0x80
/* The six bits that choose the function (F0 F1 ENA ENB INVA INC). */
#define MIC1_ALU_FUNC(alu)	((alu) & 0x3F)
/* The function select (MIC1_SIZE_FN bits) of an ALU field's value. */
#define MIC1_ALU_FN(alu) \
	(((alu) >> (MIC1_POS_FN - MIC1_POS_ALU)) & MIC1_ONES(MIC1_SIZE_FN))
/* The shifter's left shift of a word (or D0), 8 or 0: bit SLL8 brought
 * to bit 3, one shift and one mask. */
#define MIC1_SLL8_SHIFT(w)	(((w) >> (MIC1_BIT_SLL8 - 3)) & 8u)

/* JAMN and JAMZ set this bit of NEXT_ADDRESS (the MPC's top bit). */
#define MIC1_BIT_NEXT_JAM	(MIC1_SIZE_NEXT - 1)

/* C bus bits inside the C field: bit numbers (MAR is bit 0, H bit 8)... */
enum mic1_cbit {
	MIC1_CB_MAR = 0, MIC1_CB_MDR, MIC1_CB_PC, MIC1_CB_SP, MIC1_CB_LV,
	MIC1_CB_CPP, MIC1_CB_TOS, MIC1_CB_OPC, MIC1_CB_H,
};
/* ...and masks. */
enum mic1_c {
	MIC1_C_MAR = 1 << MIC1_CB_MAR,
	MIC1_C_MDR = 1 << MIC1_CB_MDR,
	MIC1_C_PC  = 1 << MIC1_CB_PC,
	MIC1_C_SP  = 1 << MIC1_CB_SP,
	MIC1_C_LV  = 1 << MIC1_CB_LV,
	MIC1_C_CPP = 1 << MIC1_CB_CPP,
	MIC1_C_TOS = 1 << MIC1_CB_TOS,
	MIC1_C_OPC = 1 << MIC1_CB_OPC,
	MIC1_C_H   = 1 << MIC1_CB_H,
};

/* B field values. */
enum mic1_b {
	MIC1_B_MDR = 0, MIC1_B_PC, MIC1_B_MBR, MIC1_B_MBRU, MIC1_B_SP,
	MIC1_B_LV, MIC1_B_CPP, MIC1_B_TOS, MIC1_B_OPC,
	MIC1_B_NONE = 15,   /* 9 .. 15 all drive nothing */
};

/* The 16 ALU functions of the book's table, as F0 F1 ENA ENB INVA INC. */
enum mic1_func {
	MIC1_F_A      = 0x18,  /* 011000 */
	MIC1_F_B      = 0x14,  /* 010100 */
	MIC1_F_NOT_A  = 0x1A,  /* 011010 */
	MIC1_F_NOT_B  = 0x2C,  /* 101100 */
	MIC1_F_A_ADD_B   = 0x3C,  /* 111100 */
	MIC1_F_A_ADD_B_1 = 0x3D,  /* 111101 */
	MIC1_F_A_INC  = 0x39,  /* 111001 */
	MIC1_F_B_INC  = 0x35,  /* 110101 */
	MIC1_F_B_SUB_A = 0x3F, /* 111111 */
	MIC1_F_B_DEC  = 0x36,  /* 110110 */
	MIC1_F_NEG_A  = 0x3B,  /* 111011 */
	MIC1_F_AND    = 0x0C,  /* 001100 */
	MIC1_F_OR     = 0x1C,  /* 011100 */
	MIC1_F_ZERO   = 0x10,  /* 010000 */
	MIC1_F_ONE    = 0x31,  /* 110001 */
	MIC1_F_MINUS1 = 0x32,  /* 110010 */
	/* The textbook's Java assembler writes 1 as OR with INC and -1 as
	 * NOT A with A disabled; the ALU's INC after every function makes
	 * them mean what they say (doc/mic1.md section 1). */
	MIC1_F_ONE_OR    = 0x11,  /* 010001 */
	MIC1_F_MINUS1_OR = 0x12,  /* 010010 */
	/* Not in the book's table but computed by the same ALU: B - A - 1
	 * (~A + B), so that one cycle can test B < A + 1, i.e. B <= A. */
	MIC1_F_B_SUB_A_1 = 0x3E, /* 111110 */
};

/* The control store: an address is NEXT_ADDRESS wide. */
#define MIC1_STORE_WORDS	(1 << MIC1_SIZE_NEXT)	/* 512 */
#define MIC1_HALT_MPC		0x0FF   /* reaching it halts the core */

/* ---- the device words (above) ------------------------------------------ */
#define MIC1_D0_BITS		MIC1_POS_NEXT	/* bits 0..26 of the word */
#define MIC1_D1_BIT_PRESENT	MIC1_SIZE_NEXT	/* 9 */
#define MIC1_D1_PRESENT		(1u << MIC1_D1_BIT_PRESENT)
#define MIC1_D1_POS_ONEHOT	16
/* D0 of a word (the caller narrows a 64-bit word to 32 bits). */
#define MIC1_D0(w)		((w) & MIC1_ONES(MIC1_D0_BITS))
/* NEXT_ADDRESS of D1. */
#define MIC1_D1_NEXT(d1)	((d1) & MIC1_ONES(MIC1_SIZE_NEXT))
/* D1's one-hot bit of B field value b (0 for 9..15). */
#define MIC1_D1_ONEHOT(b) \
	((b) <= MIC1_B_OPC ? 1u << (MIC1_D1_POS_ONEHOT + (b)) : 0u)
/* The word's bits 0..31 and 32..35 from D0 and NEXT_ADDRESS. */
#define MIC1_DW_LO(d0, next)	(MIC1_D0(d0) | (next) << MIC1_POS_NEXT)
#define MIC1_DW_HI(next)	((next) >> (32 - MIC1_POS_NEXT))

#endif
