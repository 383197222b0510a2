/*
 * The Mic-1 micro-architecture (mic1.md): the 36-bit micro-instruction
 * word, the 512-word control store with its .mic1 file format, and the C
 * simulator that is the golden model of the micro level (one micro-cycle
 * of one core with the book's memory timing).
 *
 * The simulator steps the same struct machine as the reference
 * interpreter: registers, MPC, N and Z live in struct core, memory goes
 * through machine_read_word/machine_write_word.  What struct core has no
 * field for yet - the READ/FETCH in flight, where MBR came from, the
 * device-word latches - lives in struct mic1_state, one struct mic1_core
 * per core, owned by whoever drives the level (the mic engine).  Those
 * fields are machine state, not simulator bookkeeping: a checkpoint or a
 * context buffer must carry them.
 *
 * Encoding, most significant bit first (mic1.md section 1):
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
 * Fields are read and written only through the macros below, as Lua's
 * lopcodes.h does: MIC1_POS_x and MIC1_SIZE_x place a field, MIC1_GET and
 * MIC1_SET extract and insert it, and the checked setters refuse values
 * that do not fit (a bug in the caller, not in a user's input).
 */
#ifndef MICDB_MIC1_H
#define MICDB_MIC1_H

#include <stddef.h>
#include <stdint.h>

#include "devword.h"
#include "machine.h"
#include "ref.h"
#include "util.h"

/* ---- the 36-bit word ------------------------------------------------- */

#define MIC1_WORD_BITS		36
#define MIC1_WORD_MASK		((UINT64_C(1) << MIC1_WORD_BITS) - 1)

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

/* A mask of n one bits starting at bit p. */
#define MIC1_MASK1(n, p)	((~((~UINT64_C(0)) << (n))) << (p))
/* Field f (B, MEM, C, ALU, JAM, NEXT) of word w. */
#define MIC1_GET(w, f) \
	((uint32_t)(((w) >> MIC1_POS_##f) & MIC1_MASK1(MIC1_SIZE_##f, 0)))
/* Word w with field f replaced by v (v must fit: see mic1_set). */
#define MIC1_SET(w, f, v) \
	(((w) & ~MIC1_MASK1(MIC1_SIZE_##f, MIC1_POS_##f)) | \
	    (((uint64_t)(v) << MIC1_POS_##f) & \
	    MIC1_MASK1(MIC1_SIZE_##f, MIC1_POS_##f)))

/* Single bits, as bit numbers of the whole word. */
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

/* C bus bits inside the C field (MAR is bit 0, H bit 8). */
enum mic1_c {
	MIC1_C_MAR = 0x001,
	MIC1_C_MDR = 0x002,
	MIC1_C_PC  = 0x004,
	MIC1_C_SP  = 0x008,
	MIC1_C_LV  = 0x010,
	MIC1_C_CPP = 0x020,
	MIC1_C_TOS = 0x040,
	MIC1_C_OPC = 0x080,
	MIC1_C_H   = 0x100,
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
	/* Not in the book's table but computed by the same ALU: B - A - 1
	 * (~A + B), so that one cycle can test B < A + 1, i.e. B <= A. */
	MIC1_F_B_SUB_A_1 = 0x3E, /* 111110 */
};

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

#define MIC1_STORE_WORDS	512
#define MIC1_MAIN1		0x002   /* Main1 of the standard layout */
#define MIC1_HALT_MPC		0x0FF   /* reaching it halts the core */
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

/* ---- the simulator ---------------------------------------------------- */

/* A READ or FETCH in flight (mic1_core.pending). */
#define MIC1_PEND_READ		0x1
#define MIC1_PEND_FETCH		0x2

/* Where MBR's byte came from (mic1_core.mbr_state). */
enum mic1_mbr {
	MIC1_MBR_RESET = 0,   /* never fetched: the start value 0, dispatchable */
	MIC1_MBR_FETCHED,     /* fetched from text byte mbr_addr */
	MIC1_MBR_INVALID,     /* fetched from outside the text: reads 0,
				 dispatching on it faults */
};

/*
 * Per-core state of the micro level that struct core has no field for.
 * Everything here is architectural (it changes what the core does next),
 * so it belongs in struct core eventually; see the report to the lead.
 */
struct mic1_core {
	int32_t		mar_latch;   /* MAR when the pending READ was issued */
	int32_t		pc_latch;    /* PC when the pending FETCH was issued */
	int32_t		mbr_addr;    /* byte address MBR was fetched from */
	int32_t		insn_pc;     /* PC at the last instruction boundary:
					the ISA instruction being executed,
					reported as fault_pc */
	DEV_LATCH_MEMBER;            /* devices -7, -8, -9 (devword.h) */
	uint8_t		pending;     /* MIC1_PEND_* in flight */
	uint8_t		mbr_state;   /* enum mic1_mbr */
	uint64_t	mir;         /* the last micro-instruction executed */
};

/* The micro level of one machine: the control store (not owned) and the
 * per-core side state (owned). */
struct mic1_state {
	const struct mic1_store	*cs;
	struct mic1_core	*core;     /* ncores entries */
	uint32_t		 ncores;
};

/* Side state for m's cores, all cleared (as after mic1_start_core). */
void	mic1_state_init(struct mic1_state *st, const struct machine *m,
	    const struct mic1_store *cs);
void	mic1_state_free(struct mic1_state *st);

/*
 * The micro level's start state of a core that machine_reset_core put at
 * the start of main (mic1.md section 4): MPC 0, PC -1, MBR 0, nothing in
 * flight.  The microprogram's word 0 then reaches Main1, whose fetch
 * reads main's first opcode.
 */
void	mic1_start_core(struct mic1_state *st, struct machine *m,
	    uint32_t core);

/*
 * One micro-cycle of one RUNNING core, in the order of mic1.md section 1:
 * MIR = store[MPC]; B bus; ALU; shifter; (1) C-bus writes; (2) the READ
 * or FETCH issued in the previous cycle completes (MDR <- mem[latched
 * MAR], MBR <- text[latched PC]); (3) a WRITE stores MDR at MAR (values
 * after step 1) and this cycle's READ/FETCH is issued, latching MAR/PC
 * after step 1; next MPC.  The B bus and ALU see MBR as held at the start
 * of the cycle (so goto3's H = MBR << 8 sees the byte fetched two cycles
 * earlier); JMPC ORs in MBR after step 2 (so wide1's goto (MBR OR 0x100)
 * dispatches on the byte that Main1 fetched).
 *
 * Faults (status ERROR, fault_pc = insn_pc): an absent word
 * (FAULT_NO_MICROINSTR), a READ or WRITE outside the memory map or of a
 * device word that does not take it, a WRITE to the constant pool
 * (FAULT_MEM_RANGE), JMPC on an invalid MBR (FAULT_PC_RANGE), the device
 * words' own faults.  A faulting cycle stops where it is: MPC stays at
 * the faulting word.  A core whose MPC becomes MIC1_HALT_MPC is HALTED.
 *
 * Returns 1 if the core ran a cycle (or faulted trying), 0 if it was not
 * RUNNING.
 */
int	mic1_cycle(struct mic1_state *st, struct machine *m, uint32_t core);

/* One global micro-step: a cycle of every RUNNING core allowed by mask,
 * in core order, then the barrier rule of ref_barrier_release; like
 * ref_step, m->step counts it.  sum may be NULL. */
void	mic1_step(struct mic1_state *st, struct machine *m,
	    const struct ref_mask *mask, struct ref_summary *sum);

/*
 * The core is at an ISA instruction boundary (mic1.md section 2): MPC is
 * Main1, nothing is in flight, and MBR holds the byte fetched from
 * address PC.  The last condition is what "MBR holds the opcode at PC"
 * means; it excludes the start state (PC -1, MBR never fetched).
 */
int	mic1_at_boundary(const struct mic1_state *st, const struct machine *m,
	    uint32_t core);
/* ISA -> micro: MPC = Main1, MBR = text[PC], TOS = mem[SP], nothing in
 * flight.  Any core; an ISA core is always at a boundary. */
void	mic1_enter(struct mic1_state *st, struct machine *m, uint32_t core);
/* Micro -> ISA: TOS = mem[SP].  0, or -1 when a RUNNING or WAITING core
 * is not at a boundary (run it to one first). */
int	mic1_leave(struct mic1_state *st, struct machine *m, uint32_t core);

#endif
