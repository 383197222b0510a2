/*
 * PMIC, the parallel micro-architecture of the Monzali thesis (doc/pmic.md):
 * the micro-instruction encoding, the register numbering and the 512-word
 * control store with its .pmic file format (pmic-enc.c has the
 * functions).  A definition, below the compiler (pmc.c, src/asm) and the
 * simulator (pmic.h, src/model) that both use it; the bit layout,
 * pmic-word.h, is the contract between them and the OpenCL kernel.
 *
 * A micro-instruction is four 32-bit words, one per compute unit and
 * one for the next address: pmic-word.h has their layout, which the
 * OpenCL kernel shares.
 *
 * One cycle: MIR = store[MPC]; the three CUs compute from the registers
 * as they are at the start of the cycle; then, in this order, the ALU
 * results are written, WRITE (mem[MAR] <- MDR), READ (MDR <- mem[MAR]),
 * FETCH (MBR <- the 4 bytes at PC, MBR0 first), next MPC.  Memory
 * operations use MAR, MDR and PC as they are after the ALU writes.
 *
 * .pmic file: the magic 0x504D4943 ("PMIC"), then 512 entries of 16
 * bytes, each the CU0, CU1, CU2 and next-address words, big-endian
 * (8196 bytes).
 */
#ifndef MICDB_PMIC_ENC_H
#define MICDB_PMIC_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "pmic-word.h"
#include "util.h"

/* ---- the words --------------------------------------------------------- */

static inline uint32_t pmic_cu_a(uint32_t w)   { return PMIC_CU_A(w); }
static inline uint32_t pmic_cu_b(uint32_t w)   { return PMIC_CU_B(w); }
static inline uint32_t pmic_cu_c(uint32_t w)   { return PMIC_CU_C(w); }
static inline uint32_t pmic_cu_alu(uint32_t w) { return PMIC_CU_ALU(w); }
static inline int pmic_cu_mem(uint32_t w) { return (int)PMIC_CU_MEM(w); }
static inline int pmic_cu_en(uint32_t w)  { return (int)PMIC_CU_EN(w); }
static inline uint32_t pmic_next_addr(uint32_t w)
{ return PMIC_NEXT_ADDR(w); }

/* A CU word from its fields (each must fit: a caller's bug otherwise). */
static inline uint32_t
pmic_cu_make(int en, uint32_t alu, uint32_t a, uint32_t b, uint32_t c,
    int mem)
{
	return ((uint32_t)(en != 0) << PMIC_BIT_EN) |
	    ((uint32_t)(mem != 0) << PMIC_BIT_MEM) |
	    PMIC_FIELD(alu, 0, PMIC_SIZE_ALU) << PMIC_POS_ALU |
	    PMIC_FIELD(c, 0, PMIC_SIZE_C) << PMIC_POS_C |
	    PMIC_FIELD(b, 0, PMIC_SIZE_B) << PMIC_POS_B |
	    PMIC_FIELD(a, 0, PMIC_SIZE_A) << PMIC_POS_A;
}

/* Which inputs an operation reads: bit 0 A, bit 1 B. */
int		 pmic_alu_inputs(uint32_t alu);
/* The operation on a and b (unsigned, so that wrap-around is defined);
 * inline, so that the fast loop (engine-pmic-fast.c) runs the model's
 * own ALU. */
/* Arithmetic right shift written out: >> of a negative int is
 * implementation-defined. */
static inline uint32_t
pmic_sra(uint32_t v, int n)
{
	return (v >> n) | ((v & 0x80000000u) ? ~(0xFFFFFFFFu >> n) : 0);
}

static inline uint32_t
pmic_alu_eval(uint32_t alu, uint32_t a, uint32_t b)
{
	switch (alu) {
	case PMIC_ALU_ZERO:	return 0;
	case PMIC_ALU_ONE:	return 1;
	case PMIC_ALU_MINUS1:	return 0xFFFFFFFFu;
	case PMIC_ALU_A:	return a;
	case PMIC_ALU_ADD:	return a + b;
	case PMIC_ALU_ADD1:	return a + b + 1;
	case PMIC_ALU_INC:	return a + 1;
	case PMIC_ALU_DEC:	return a - 1;
	case PMIC_ALU_SUB:	return a - b;
	case PMIC_ALU_NEG:	return 0u - a;
	case PMIC_ALU_NOT:	return ~a;
	case PMIC_ALU_AND:	return a & b;
	case PMIC_ALU_OR:	return a | b;
	case PMIC_ALU_SHL8:	return a << 8;
	case PMIC_ALU_SRA8:	return pmic_sra(a, 8);
	default:		return pmic_sra(a, 1);
	}
}


/* Names as the language spells them (lower case): "mbr12s", NULL for a
 * number that is no register; the C bit i ("mar" for bit 0); the memory
 * operation of CU i ("fetch", "read", "write"). */
const char	*pmic_reg_name(uint32_t r);
const char	*pmic_c_name(int bit);
const char	*pmic_mem_name(int cu);
/* The register number of a name (case-insensitive), or -1; the C bit of
 * a writable register name, or 0. */
int		 pmic_reg_lookup(const char *name, size_t len);
uint32_t	 pmic_c_lookup(const char *name, size_t len);

/* A micro-instruction as PMIC source text (targets of next as addresses:
 * "mar,sp = sp-one : read : next 0x1a3"). */
struct pmic_mi;
void		 pmic_disasm(const struct pmic_mi *mi, char *out, size_t n);

/* ---- the control store -------------------------------------------------- */

#define PMIC_FILE_MAGIC		0x504D4943u
#define PMIC_FILE_SIZE		(4 + PMIC_STORE_WORDS * 16)	/* 8196 */

struct pmic_mi {
	uint32_t	cu[PMIC_NCU];
	uint32_t	next;     /* the next-address word; P clear: absent */
};

struct pmic_store {
	struct pmic_mi	mi[PMIC_STORE_WORDS];
};

static inline int
pmic_present(const struct pmic_store *cs, uint32_t addr)
{
	return addr < PMIC_STORE_WORDS &&
	    PMIC_TEST(cs->mi[addr].next, PMIC_BIT_PRESENT);
}

/* Every word absent. */
void	pmic_store_init(struct pmic_store *cs);
/* Parse a .pmic image; path names it in messages.  0, or -1 + *cause. */
int	pmic_store_parse(struct pmic_store *cs, const char *path,
	    const uint8_t *data, size_t len, char **cause);
int	pmic_store_load_file(struct pmic_store *cs, const char *path,
	    char **cause);
/* Serialise to the .pmic format (exactly PMIC_FILE_SIZE bytes). */
void	pmic_store_write(const struct pmic_store *cs, struct buf *out);

#endif
