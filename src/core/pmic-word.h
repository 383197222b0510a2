/*
 * The layout of the PMIC micro-instruction (doc/pmic.md), in one place for
 * the host (pmic-enc.h includes it) and the OpenCL kernel (kernels/pmic.cl):
 * only macros and enums on 32-bit unsigned values, so that C11 and
 * OpenCL C 1.2 include it, as context.h.  The kernel reads the four words
 * as they are (context-pmic.h).
 *
 * A micro-instruction is four 32-bit words: one per compute unit (CU0,
 * CU1, CU2) and one for the next address.
 *
 * CU word (CU0, CU1, CU2), bit 31 first:
 *
 *   31      27 26 25 24  21 20          10 9     5 4     0
 *  +----------+--+--+------+--------------+-------+-------+
 *  | 0        |EN|M | ALU  | C (11 bits)  | B     | A     |
 *  +----------+--+--+------+--------------+-------+-------+
 *
 *   A, B  readable register numbers (enum pmic_reg) driving the CU's A
 *         and B inputs; operations that take no B (or no A) ignore them;
 *   C     writable registers receiving the result (enum pmic_c bits);
 *   ALU   the operation (enum pmic_alu);
 *   M     this CU's memory operation: FETCH for CU0, READ for CU1,
 *         WRITE for CU2;
 *   EN    the CU computes this cycle.  N and Z are set from CU0's result
 *         when CU0's EN is set and keep their values otherwise, so a
 *         micro-instruction without an ALU operation may test the flags
 *         of an earlier one.  A CU without EN writes nothing.
 *   bits 27-31 are zero.
 *
 * Next-address word, bit 31 first:
 *
 *   31 30       12 11   10   9    8           0
 *  +--+-----------+----+----+----+-------------+
 *  |P | 0         |JMPC|JAMN|JAMZ| NEXT_ADDRESS|
 *  +--+-----------+----+----+----+-------------+
 *
 *   P     1 for a micro-instruction; an all-zero entry holds none and
 *         executing it faults (FAULT_NO_MICROINSTR);
 *   MPC = (NEXT_ADDRESS | (JMPC ? MBR0 : 0)) xor (JAMN & N | JAMZ & Z) << 8
 *
 * The xor is Mic-1's or whenever NEXT_ADDRESS has bit 8 clear, which is
 * how the compiler places conditionals when it can; it also lets a
 * conditional reach a target fixed below 0x100 (an opcode's entry), its
 * fall-through then lying at target + 0x100.  JMPC takes MBR0 as it is
 * after this cycle's fetch.
 */
#ifndef MICDB_PMIC_WORD_H
#define MICDB_PMIC_WORD_H

#define PMIC_NCU		3

#define PMIC_POS_A		0
#define PMIC_SIZE_A		5
#define PMIC_POS_B		5
#define PMIC_SIZE_B		5
#define PMIC_POS_C		10
#define PMIC_SIZE_C		11
#define PMIC_POS_ALU		21
#define PMIC_SIZE_ALU		4
#define PMIC_BIT_MEM		25
#define PMIC_BIT_EN		26

#define PMIC_POS_NEXT		0
#define PMIC_SIZE_NEXT		9
#define PMIC_BIT_JAMZ		9
#define PMIC_BIT_JAMN		10
#define PMIC_BIT_JMPC		11
#define PMIC_BIT_PRESENT	31

/* Bits 27..31 of a CU word, 12..30 of a next-address word: zero. */
#define PMIC_CU_RESERVED	(~0u << (PMIC_BIT_EN + 1))
#define PMIC_NEXT_RESERVED	((~0u << (PMIC_BIT_JMPC + 1)) & \
	~(1u << PMIC_BIT_PRESENT))
/* JAMN and JAMZ flip this bit of the next MPC (its top bit). */
#define PMIC_BIT_NEXT_JAM	(PMIC_SIZE_NEXT - 1)

/* The field of w at bit pos, size bits (size < 32), and bit `bit` of w,
 * as int and as 0u or 1u. */
#define PMIC_FIELD(w, pos, size) \
	(((w) >> (pos)) & ((1u << (size)) - 1u))
#define PMIC_TEST(w, bit)	((int)(((w) >> (bit)) & 1))
#define PMIC_BITV(w, bit)	(((w) >> (bit)) & 1u)
/* The fields of a CU word and of a next-address word. */
#define PMIC_CU_A(w)		PMIC_FIELD(w, PMIC_POS_A, PMIC_SIZE_A)
#define PMIC_CU_B(w)		PMIC_FIELD(w, PMIC_POS_B, PMIC_SIZE_B)
#define PMIC_CU_C(w)		PMIC_FIELD(w, PMIC_POS_C, PMIC_SIZE_C)
#define PMIC_CU_ALU(w)		PMIC_FIELD(w, PMIC_POS_ALU, PMIC_SIZE_ALU)
#define PMIC_CU_MEM(w)		PMIC_BITV(w, PMIC_BIT_MEM)
#define PMIC_CU_EN(w)		PMIC_BITV(w, PMIC_BIT_EN)
#define PMIC_NEXT_ADDR(w)	PMIC_FIELD(w, PMIC_POS_NEXT, PMIC_SIZE_NEXT)

/* The control store: an address is NEXT_ADDRESS wide. */
#define PMIC_STORE_WORDS	(1 << PMIC_SIZE_NEXT)	/* 512 */

/* Readable registers (A and B fields).  24..31 read 0. */
enum pmic_reg {
	PMIC_R_MAR = 0, PMIC_R_MDR, PMIC_R_PC, PMIC_R_MBR,
	PMIC_R_MBR0, PMIC_R_MBR1, PMIC_R_MBR2, PMIC_R_MBR3,
	PMIC_R_MBR1S, PMIC_R_MBR12, PMIC_R_MBR12S,
	PMIC_R_SP, PMIC_R_LV, PMIC_R_CPP, PMIC_R_TOS, PMIC_R_OPC, PMIC_R_H,
	PMIC_R_G0, PMIC_R_G1, PMIC_R_C2, PMIC_R_C3, PMIC_R_C4, PMIC_R_C5,
	PMIC_R_SID,
	PMIC_NREG,		/* 24 */
	PMIC_R_NONE = 31,
};

/* Writable registers: bit numbers of the C field... */
enum pmic_cbit {
	PMIC_CB_MAR = 0, PMIC_CB_MDR, PMIC_CB_PC, PMIC_CB_SP, PMIC_CB_LV,
	PMIC_CB_CPP, PMIC_CB_TOS, PMIC_CB_OPC, PMIC_CB_H, PMIC_CB_G0,
	PMIC_CB_G1,
};
/* ...and its bits. */
enum pmic_c {
	PMIC_C_MAR = 1 << PMIC_CB_MAR, PMIC_C_MDR = 1 << PMIC_CB_MDR,
	PMIC_C_PC  = 1 << PMIC_CB_PC,  PMIC_C_SP  = 1 << PMIC_CB_SP,
	PMIC_C_LV  = 1 << PMIC_CB_LV,  PMIC_C_CPP = 1 << PMIC_CB_CPP,
	PMIC_C_TOS = 1 << PMIC_CB_TOS, PMIC_C_OPC = 1 << PMIC_CB_OPC,
	PMIC_C_H   = 1 << PMIC_CB_H,   PMIC_C_G0  = 1 << PMIC_CB_G0,
	PMIC_C_G1  = 1 << PMIC_CB_G1,
};
#define PMIC_NC			11

/* ALU operations (the 16 of doc/pmic.md). */
enum pmic_alu {
	PMIC_ALU_ZERO = 0,	/* 0 */
	PMIC_ALU_ONE,		/* 1 */
	PMIC_ALU_MINUS1,	/* -1 */
	PMIC_ALU_A,		/* A */
	PMIC_ALU_ADD,		/* A + B */
	PMIC_ALU_ADD1,		/* A + B + 1 */
	PMIC_ALU_INC,		/* A + 1 */
	PMIC_ALU_DEC,		/* A - 1 */
	PMIC_ALU_SUB,		/* A - B */
	PMIC_ALU_NEG,		/* -A */
	PMIC_ALU_NOT,		/* not A */
	PMIC_ALU_AND,		/* A and B */
	PMIC_ALU_OR,		/* A or B */
	PMIC_ALU_SHL8,		/* A << 8 */
	PMIC_ALU_SRA8,		/* A >> 8, arithmetic */
	PMIC_ALU_SRA1,		/* A >> 1, arithmetic */
	PMIC_NALU,
};

#endif
