/*
 * The Mic-1 encoding (doc/mic1.md): the 36-bit micro-instruction word,
 * its fields and names, and the 512-word control store with its .mic1
 * file format.  A definition, below the assembler (mal.c) and the
 * simulator (mic1.h, src/model) that both use it; mic1-enc.c has the
 * functions.
 *
 * The word's layout is mic1-word.h's, which the OpenCL kernel shares;
 * here, what needs it as a 64-bit C type.
 */
#ifndef MICDB_MIC1_ENC_H
#define MICDB_MIC1_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "mic1-word.h"
#include "util.h"

/* ---- the 36-bit word ------------------------------------------------- */

#define MIC1_WORD_MASK		((UINT64_C(1) << MIC1_WORD_BITS) - 1)

/* A mask of n one bits starting at bit p. */
#define MIC1_MASK1(n, p)	((~((~UINT64_C(0)) << (n))) << (p))
/* Field f (B, MEM, C, ALU, JAM, NEXT) of word w. */
#define MIC1_GET(w, f)		((uint32_t)MIC1_FIELD(w, f))
/* Word w with field f replaced by v (v must fit: see mic1_set). */
#define MIC1_SET(w, f, v) \
	(((w) & ~MIC1_MASK1(MIC1_SIZE_##f, MIC1_POS_##f)) | \
	    (((uint64_t)(v) << MIC1_POS_##f) & \
	    MIC1_MASK1(MIC1_SIZE_##f, MIC1_POS_##f)))

/* Checked setter: 0, or -1 (word untouched) when v does not fit. */
static inline int
mic1_set(uint64_t *w, int pos, int size, uint32_t v)
{
	if (size < 32 && (v >> size) != 0)
		return -1;
	*w = (*w & ~MIC1_MASK1(size, pos)) |
	    ((uint64_t)v << pos);
	return 0;
}

static inline uint32_t mic1_next(uint64_t w)  { return MIC1_GET(w, NEXT); }
static inline uint32_t mic1_jam(uint64_t w)   { return MIC1_GET(w, JAM); }
static inline uint32_t mic1_alu(uint64_t w)   { return MIC1_GET(w, ALU); }
static inline uint32_t mic1_cbus(uint64_t w)  { return MIC1_GET(w, C); }
static inline uint32_t mic1_mem(uint64_t w)   { return MIC1_GET(w, MEM); }
static inline uint32_t mic1_bsel(uint64_t w)  { return MIC1_GET(w, B); }

/* Build a word from its fields; -1 if a field does not fit. */
int	mic1_make(uint64_t *w, uint32_t next, uint32_t jam, uint32_t alu,
	    uint32_t c, uint32_t mem, uint32_t b);

/* Names for display: B source ("MBRU"; "none" for 9..15), C target bit
 * i of the C field ("MAR" for bit 0), and the book's spelling of an ALU
 * function ("B+1"), NULL when the six bits are not one of the 16 (or
 * B-A-1). */
const char *mic1_b_name(uint32_t b);
const char *mic1_c_name(int bit);
const char *mic1_func_name(uint32_t func);

/*
 * The word as MAL-like text for a debugger pane: "PC = PC + 1; fetch;
 * goto (MBR)".  Targets of goto are addresses ("goto 0x0A3") since a
 * word carries no labels; mal_syms has the source text when there is one.
 */
void	mic1_disasm(uint64_t w, char *out, size_t n);

/* ---- the control store ------------------------------------------------ */

#define MIC1_MAIN1		0x002   /* Main1 of the standard layout */
#define MIC1_FILE_MAGIC		0x12345678u
#define MIC1_FILE_SIZE		(4 + MIC1_STORE_WORDS * 5)   /* 2564 */
/* Low nibble of a 40-bit .mic1 entry: 0 for a micro-instruction, 0xF
 * for a word that holds none (the word bits are then 0, which other
 * Mic-1 tools read as "goto 0x000"). */
#define MIC1_FILE_ABSENT	0xF

struct mic1_store {
	uint64_t	word[MIC1_STORE_WORDS];    /* 36 bits each */
	uint8_t		present[MIC1_STORE_WORDS]; /* 0: executing it faults */
	uint16_t	main1;                     /* address of Main1 */
};

/* Every word absent, Main1 at MIC1_MAIN1. */
void	mic1_store_init(struct mic1_store *cs);
/*
 * Parse a .mic1 image; path names it in messages.  0, or -1 with *cause
 * (wrong size or magic, a bad entry).  Main1 is taken to be MIC1_MAIN1.
 */
int	mic1_store_parse(struct mic1_store *cs, const char *path,
	    const uint8_t *data, size_t len, char **cause);
int	mic1_store_load_file(struct mic1_store *cs, const char *path,
	    char **cause);
/* Serialise to the .mic1 format (exactly MIC1_FILE_SIZE bytes). */
void	mic1_store_write(const struct mic1_store *cs, struct buf *out);

#endif
