/*
 * A small x86-64 machine-code emitter, shared by the translations of the
 * levels into host code (doc/performance.md section 24.4): the Mic-1
 * translation (mic1-jit.c) and those of the other levels build their
 * code with it and never write bytes of their own.
 *
 * A code buffer (struct x64_buf) is one anonymous mapping, writable
 * while code is emitted and patched, read+exec once sealed: never both
 * at once (a W^X kernel refuses that, and a stray store must not become
 * code).  Where the kernel refuses executable memory (PROT_EXEC: SELinux
 * execmem, PaX, a seccomp filter) x64_seal fails, and the caller runs its
 * interpreter instead; so does every caller off x86-64, where
 * X64_AVAILABLE is 0 and x64_buf_init always fails.
 *
 * Emitting never fails on its own: a buffer that runs out of room
 * records it (err) and ignores the rest, and x64_seal then fails, so a
 * translation checks once, at the end.
 *
 * Operands: registers by number (enum x64_reg, the hardware's), a width
 * as w64 (0: 32-bit, whose result zero-extends into the whole register;
 * 1: 64-bit), memory as struct x64_mem (base + index * scale + disp;
 * X64_NOREG for an absent base or index, X64_M() and X64_MX() build
 * one).  Jumps: a jump's rel32 field has an offset in the buffer, its
 * fixup, which x64_patch points at any target later (X64_FWD as the
 * target of a jump whose target is not known yet); x64_here is where
 * the next byte goes.
 */
#ifndef MICDB_X64_H
#define MICDB_X64_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#define X64_AVAILABLE	1
#else
#define X64_AVAILABLE	0
#endif

/* The sixteen general registers, by their encoding. */
enum x64_reg {
	X64_RAX, X64_RCX, X64_RDX, X64_RBX, X64_RSP, X64_RBP, X64_RSI,
	X64_RDI, X64_R8, X64_R9, X64_R10, X64_R11, X64_R12, X64_R13,
	X64_R14, X64_R15,
	X64_NOREG = -1		/* an absent base or index */
};

/* Condition codes (jcc, setcc, cmov), by their encoding. */
enum x64_cc {
	X64_CC_O, X64_CC_NO, X64_CC_B, X64_CC_AE, X64_CC_E, X64_CC_NE,
	X64_CC_BE, X64_CC_A, X64_CC_S, X64_CC_NS, X64_CC_P, X64_CC_NP,
	X64_CC_L, X64_CC_GE, X64_CC_LE, X64_CC_G
};
#define X64_CC_Z	X64_CC_E
#define X64_CC_NZ	X64_CC_NE
/* The opposite condition. */
#define X64_CC_NOT(cc)	((enum x64_cc)((cc) ^ 1))

/* The two-operand ALU operations, by their /digit (the ModRM reg field
 * of opcodes 0x81 and 0x83). */
enum x64_alu {
	X64_ADD = 0, X64_OR = 1, X64_ADC = 2, X64_SBB = 3, X64_AND = 4,
	X64_SUB = 5, X64_XOR = 6, X64_CMP = 7
};

/* One-operand operations of group 0xF7/0xFF, by their /digit. */
enum x64_un { X64_NOT = 2, X64_NEG = 3 };

/* Shifts by an immediate, by their /digit (group 0xC1). */
enum x64_shift { X64_ROL = 0, X64_ROR = 1, X64_SHL = 4, X64_SHR = 5,
	X64_SAR = 7 };

/* What a load reads and how it widens: into a 32-bit register (its upper
 * half cleared) or, for X64_LD_S32Q and X64_LD_64, a 64-bit one. */
enum x64_ld {
	X64_LD_U8, X64_LD_S8, X64_LD_U16, X64_LD_S16, X64_LD_32,
	X64_LD_S32Q, X64_LD_64
};

/* A memory operand: [base + index * scale + disp]. */
struct x64_mem {
	int	 base;     /* enum x64_reg or X64_NOREG */
	int	 index;    /* enum x64_reg (not X64_RSP) or X64_NOREG */
	int	 scale;    /* 1, 2, 4 or 8 */
	int32_t	 disp;
};
#define X64_M(b, d)		((struct x64_mem){ (b), X64_NOREG, 1, (d) })
#define X64_MX(b, i, s, d)	((struct x64_mem){ (b), (i), (s), (d) })

/* A code buffer (one mapping; x64_buf_init, x64_buf_free). */
struct x64_buf {
	uint8_t	*mem;      /* the mapping, NULL when none */
	size_t	 cap;      /* its size */
	size_t	 len;      /* bytes emitted */
	int	 sealed;   /* read+exec now (else read+write) */
	int	 err;      /* out of room: the rest was dropped */
};

/* A jump target not known yet (x64_jmp, x64_jcc): patch it later. */
#define X64_FWD		SIZE_MAX

/* A function of the buffer, as C calls it (cast to its real type). */
typedef void x64_fn(void);

/* Map cap bytes (rounded up to pages), writable: 0, or -1 (errno set;
 * ENOSYS off x86-64) with b left empty, safe to free. */
int	 x64_buf_init(struct x64_buf *b, size_t cap);
void	 x64_buf_free(struct x64_buf *b);
/* Make the code read+exec: 0, or -1 when the kernel refuses it or the
 * buffer ran out of room (errno EACCES/EPERM, or ENOSPC); a buffer
 * that could not be sealed stays writable and must not be run. */
int	 x64_seal(struct x64_buf *b);
/* 1 if this process can run code it writes (x86-64, and the kernel
 * lets a page become executable), tried once: what the translations
 * need, and what the default engine's rule asks (levels.h). */
int	 x64_usable(void);
/* Make it writable again, to patch or append: 0 or -1 (errno). */
int	 x64_unseal(struct x64_buf *b);
/* Drop everything emitted (the mapping stays; unsealed). */
int	 x64_reset(struct x64_buf *b);
/* The code at offset off, callable once sealed. */
x64_fn	*x64_fn_at(const struct x64_buf *b, size_t off);

static inline size_t
x64_here(const struct x64_buf *b)
{
	return b->len;
}

/* Raw bytes (anything the functions below lack). */
void	 x64_byte(struct x64_buf *b, uint8_t v);
void	 x64_u32(struct x64_buf *b, uint32_t v);
/* Pad with NOPs to a multiple of align (a power of two). */
void	 x64_align(struct x64_buf *b, size_t align);

/* mov dst, src. */
void	 x64_mov_rr(struct x64_buf *b, int w64, int dst, int src);
/* mov dst, imm: the shortest form that gives the value (xor for 0
 * clobbers the flags; x64_mov_ri32 never does). */
void	 x64_mov_ri(struct x64_buf *b, int w64, int dst, uint64_t imm);
/* mov r32, imm32 (always five or six bytes, flags kept): patchable. */
void	 x64_mov_ri32(struct x64_buf *b, int dst, uint32_t imm);
/* Loads (enum x64_ld) and stores of 8, 16, 32 or 64 bits. */
void	 x64_load(struct x64_buf *b, enum x64_ld kind, int dst,
	    struct x64_mem m);
void	 x64_store(struct x64_buf *b, int bits, struct x64_mem m, int src);
/* mov dword/qword [m], imm32 (sign-extended for 64 bits). */
void	 x64_store_i(struct x64_buf *b, int w64, struct x64_mem m,
	    int32_t imm);
/* movzx/movsx dst, src's low 8 bits (sign: movsx). */
void	 x64_movx8_rr(struct x64_buf *b, int sign, int dst, int src);
/* movsxd dst64, src32. */
void	 x64_movsxd_rr(struct x64_buf *b, int dst, int src);
/* lea dst, [m]. */
void	 x64_lea(struct x64_buf *b, int w64, int dst, struct x64_mem m);

/* op dst, src; op dst, imm (imm8 form where it fits); op dst, [m];
 * op [m], src; op [m], imm. */
void	 x64_alu_rr(struct x64_buf *b, int w64, enum x64_alu op, int dst,
	    int src);
void	 x64_alu_ri(struct x64_buf *b, int w64, enum x64_alu op, int dst,
	    int32_t imm);
void	 x64_alu_rm(struct x64_buf *b, int w64, enum x64_alu op, int dst,
	    struct x64_mem m);
void	 x64_alu_mr(struct x64_buf *b, int w64, enum x64_alu op,
	    struct x64_mem m, int src);
void	 x64_alu_mi(struct x64_buf *b, int w64, enum x64_alu op,
	    struct x64_mem m, int32_t imm);
/* test a, b; test dst, imm. */
void	 x64_test_rr(struct x64_buf *b, int w64, int a, int c);
void	 x64_test_ri(struct x64_buf *b, int w64, int a, int32_t imm);
/* not/neg dst. */
void	 x64_unary(struct x64_buf *b, int w64, enum x64_un op, int dst);
/* inc/dec dst (dec: down) and [m]. */
void	 x64_incdec(struct x64_buf *b, int w64, int down, int dst);
void	 x64_incdec_m(struct x64_buf *b, int w64, int down,
	    struct x64_mem m);
/* shl/shr/sar/rol/ror dst, n (n & 31 or 63). */
void	 x64_shift_ri(struct x64_buf *b, int w64, enum x64_shift op, int dst,
	    uint8_t n);
/* imul dst, src. */
void	 x64_imul_rr(struct x64_buf *b, int w64, int dst, int src);
/* setcc dst8 (the low byte only: movzx it, or xor before). */
void	 x64_setcc(struct x64_buf *b, enum x64_cc cc, int dst);
/* cmovcc dst, src. */
void	 x64_cmov(struct x64_buf *b, int w64, enum x64_cc cc, int dst,
	    int src);

void	 x64_push(struct x64_buf *b, int r);
void	 x64_pop(struct x64_buf *b, int r);
/* Entry into and return from translated code called as a C function:
 * push the System V ABI's callee-saved registers (rbx, rbp, r12 to r15:
 * an even count, so the stack keeps its alignment), and pop them and
 * return.  Every translation saves all six, used or not. */
void	 x64_save_callee(struct x64_buf *b);
void	 x64_restore_ret(struct x64_buf *b);
void	 x64_ret(struct x64_buf *b);
void	 x64_ud2(struct x64_buf *b);

/* jmp/jcc rel32 to target (an offset in b, or X64_FWD): the fixup. */
size_t	 x64_jmp(struct x64_buf *b, size_t target);
size_t	 x64_jcc(struct x64_buf *b, enum x64_cc cc, size_t target);
/* call rel32 to target in b: the fixup. */
size_t	 x64_call(struct x64_buf *b, size_t target);
/* Point the rel32 at fixup at target (an offset in b); the buffer
 * must be writable. */
void	 x64_patch(struct x64_buf *b, size_t fixup, size_t target);
/* Write a 32-bit value at offset at (x64_mov_ri32's immediate is its
 * last four bytes). */
void	 x64_poke32(struct x64_buf *b, size_t at, uint32_t v);
/* jmp/call r; jmp/call qword [m] (a table of addresses). */
void	 x64_jmp_r(struct x64_buf *b, int r);
void	 x64_call_r(struct x64_buf *b, int r);
void	 x64_jmp_m(struct x64_buf *b, struct x64_mem m);
void	 x64_call_m(struct x64_buf *b, struct x64_mem m);
/* Call the C function fn through scratch (a caller-saved register the
 * call may clobber, e.g. X64_R11); the caller keeps the stack aligned
 * and the System V argument registers. */
void	 x64_call_abs(struct x64_buf *b, x64_fn *fn, int scratch);

/* ---- added for the PMIC translation (pmic-jit.c) ---------------------- */

/* bswap dst: its bytes reversed (a big-endian word loaded). */
void	 x64_bswap(struct x64_buf *b, int w64, int r);

#endif
