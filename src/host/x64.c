/*
 * The x86-64 emitter (x64.h): the buffer's mapping and protection, and
 * the instruction encodings.  Every instruction goes through two
 * encoders, enc_r (a register operand in ModRM.rm) and enc_m (a memory
 * operand), which add the REX prefix, the ModRM and SIB bytes and the
 * displacement; each public function only names its opcode.  The Intel
 * SDM volume 2 (chapter 2, "Instruction Format") is the reference; the
 * unit test (tests/test-x64.c) checks encodings byte for byte.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "x64.h"

#if X64_AVAILABLE
#include <sys/mman.h>
#include <unistd.h>
#endif

int
x64_buf_init(struct x64_buf *b, size_t cap)
{
	memset(b, 0, sizeof *b);
#if X64_AVAILABLE
	{
		long pg = sysconf(_SC_PAGESIZE);
		size_t ps = pg > 0 ? (size_t)pg : 4096;
		void *p;

		cap = (cap + ps - 1) / ps * ps;
		p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		b->mem = p;
		b->cap = cap;
		return 0;
	}
#else
	(void)cap;
	errno = ENOSYS;
	return -1;
#endif
}

void
x64_buf_free(struct x64_buf *b)
{
#if X64_AVAILABLE
	if (b->mem != NULL)
		munmap(b->mem, b->cap);
#endif
	memset(b, 0, sizeof *b);
}

int
x64_seal(struct x64_buf *b)
{
	if (b->mem == NULL || b->err) {
		errno = ENOSPC;
		return -1;
	}
#if X64_AVAILABLE
	if (mprotect(b->mem, b->cap, PROT_READ | PROT_EXEC) != 0)
		return -1;
	b->sealed = 1;
	return 0;
#else
	errno = ENOSYS;
	return -1;
#endif
}

int
x64_usable(void)
{
	/* 0 not asked yet, 1 usable, 2 not */
	static _Atomic int known;
	int k = atomic_load_explicit(&known, memory_order_relaxed);

	if (k == 0) {
		struct x64_buf b;

		k = 2;
		if (x64_buf_init(&b, 1) == 0) {
			x64_ret(&b);
			if (x64_seal(&b) == 0)
				k = 1;
			x64_buf_free(&b);
		}
		atomic_store_explicit(&known, k, memory_order_relaxed);
	}
	return k == 1;
}

int
x64_unseal(struct x64_buf *b)
{
	if (b->mem == NULL) {
		errno = EINVAL;
		return -1;
	}
#if X64_AVAILABLE
	if (b->sealed && mprotect(b->mem, b->cap, PROT_READ | PROT_WRITE) != 0)
		return -1;
#endif
	b->sealed = 0;
	return 0;
}

int
x64_reset(struct x64_buf *b)
{
	if (x64_unseal(b) != 0)
		return -1;
	b->len = 0;
	b->err = 0;
	return 0;
}

x64_fn *
x64_fn_at(const struct x64_buf *b, size_t off)
{
	return (x64_fn *)(uintptr_t)(b->mem + off);
}

void
x64_byte(struct x64_buf *b, uint8_t v)
{
	if (b->len >= b->cap || b->sealed) {
		b->err = 1;
		return;
	}
	b->mem[b->len++] = v;
}

void
x64_u32(struct x64_buf *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		x64_byte(b, (uint8_t)(v >> (8 * i)));
}

static void
u64(struct x64_buf *b, uint64_t v)
{
	x64_u32(b, (uint32_t)v);
	x64_u32(b, (uint32_t)(v >> 32));
}

void
x64_align(struct x64_buf *b, size_t align)
{
	while (b->len & (align - 1))
		x64_byte(b, 0x90);
}

static int
fits8(int64_t v)
{
	return v >= -128 && v <= 127;
}

/* A REX prefix for W and the high bits of reg, index and rm/base, when
 * one is needed (force: an 8-bit operand among SPL..DIL). */
static void
rex(struct x64_buf *b, int w64, int reg, int index, int base, int force)
{
	uint8_t v = (uint8_t)(0x40 | (w64 ? 8 : 0) | ((reg & 8) ? 4 : 0) |
	    (index >= 0 && (index & 8) ? 2 : 0) |
	    (base >= 0 && (base & 8) ? 1 : 0));

	if (v != 0x40 || force)
		x64_byte(b, v);
}

/* Prefix pfx (0: none), REX, the opcode bytes, ModRM with reg and the
 * register rm. */
static void
enc_r(struct x64_buf *b, uint8_t pfx, int w64, int force, uint32_t opc,
    int nopc, int reg, int rm)
{
	if (pfx)
		x64_byte(b, pfx);
	rex(b, w64, reg, -1, rm, force);
	for (int i = nopc - 1; i >= 0; i--)
		x64_byte(b, (uint8_t)(opc >> (8 * i)));
	x64_byte(b, (uint8_t)(0xC0 | (reg & 7) << 3 | (rm & 7)));
}

/* The same with the memory operand m. */
static void
enc_m(struct x64_buf *b, uint8_t pfx, int w64, int force, uint32_t opc,
    int nopc, int reg, struct x64_mem m)
{
	static const uint8_t ss[9] = { [1] = 0, [2] = 1, [4] = 2, [8] = 3 };
	int sib = m.index != X64_NOREG || m.base == X64_NOREG ||
	    (m.base & 7) == X64_RSP;
	int mod, sc = (m.scale >= 1 && m.scale <= 8) ? ss[m.scale] : 0;

	if (pfx)
		x64_byte(b, pfx);
	rex(b, w64, reg, m.index, m.base, force);
	for (int i = nopc - 1; i >= 0; i--)
		x64_byte(b, (uint8_t)(opc >> (8 * i)));
	if (m.base == X64_NOREG)
		mod = 0;	/* [index * scale + disp32] or [disp32] */
	else if (m.disp == 0 && (m.base & 7) != X64_RBP)
		mod = 0;
	else
		mod = fits8(m.disp) ? 1 : 2;
	x64_byte(b, (uint8_t)(mod << 6 | (reg & 7) << 3 | (sib ? 4 :
	    (m.base & 7))));
	if (sib)
		x64_byte(b, (uint8_t)(sc << 6 |
		    (m.index == X64_NOREG ? 4 : (m.index & 7)) << 3 |
		    (m.base == X64_NOREG ? 5 : (m.base & 7))));
	if (mod == 1)
		x64_byte(b, (uint8_t)(int8_t)m.disp);
	else if (mod == 2 || m.base == X64_NOREG)
		x64_u32(b, (uint32_t)m.disp);
}

void
x64_mov_rr(struct x64_buf *b, int w64, int dst, int src)
{
	enc_r(b, 0, w64, 0, 0x89, 1, src, dst);
}

void
x64_mov_ri32(struct x64_buf *b, int dst, uint32_t imm)
{
	rex(b, 0, 0, -1, dst, 0);
	x64_byte(b, (uint8_t)(0xB8 + (dst & 7)));
	x64_u32(b, imm);
}

void
x64_mov_ri(struct x64_buf *b, int w64, int dst, uint64_t imm)
{
	if (!w64)
		imm = (uint32_t)imm;
	if (imm == 0)
		x64_alu_rr(b, 0, X64_XOR, dst, dst);
	else if (imm <= UINT32_MAX)
		x64_mov_ri32(b, dst, (uint32_t)imm);
	else if ((int64_t)imm >= INT32_MIN && (int64_t)imm < 0) {
		enc_r(b, 0, 1, 0, 0xC7, 1, 0, dst);
		x64_u32(b, (uint32_t)imm);
	} else {
		rex(b, 1, 0, -1, dst, 0);
		x64_byte(b, (uint8_t)(0xB8 + (dst & 7)));
		u64(b, imm);
	}
}

void
x64_load(struct x64_buf *b, enum x64_ld kind, int dst, struct x64_mem m)
{
	switch (kind) {
	case X64_LD_U8:	 enc_m(b, 0, 0, 0, 0x0FB6, 2, dst, m); break;
	case X64_LD_S8:	 enc_m(b, 0, 0, 0, 0x0FBE, 2, dst, m); break;
	case X64_LD_U16: enc_m(b, 0, 0, 0, 0x0FB7, 2, dst, m); break;
	case X64_LD_S16: enc_m(b, 0, 0, 0, 0x0FBF, 2, dst, m); break;
	case X64_LD_32:	 enc_m(b, 0, 0, 0, 0x8B, 1, dst, m); break;
	case X64_LD_S32Q: enc_m(b, 0, 1, 0, 0x63, 1, dst, m); break;
	case X64_LD_64:	 enc_m(b, 0, 1, 0, 0x8B, 1, dst, m); break;
	}
}

void
x64_store(struct x64_buf *b, int bits, struct x64_mem m, int src)
{
	if (bits == 8)
		enc_m(b, 0, 0, src >= 4 && src < 8, 0x88, 1, src, m);
	else
		enc_m(b, bits == 16 ? 0x66 : 0, bits == 64, 0, 0x89, 1, src,
		    m);
}

void
x64_store_i(struct x64_buf *b, int w64, struct x64_mem m, int32_t imm)
{
	enc_m(b, 0, w64, 0, 0xC7, 1, 0, m);
	x64_u32(b, (uint32_t)imm);
}

void
x64_movx8_rr(struct x64_buf *b, int sign, int dst, int src)
{
	enc_r(b, 0, 0, src >= 4 && src < 8, sign ? 0x0FBE : 0x0FB6, 2, dst,
	    src);
}

void
x64_movsxd_rr(struct x64_buf *b, int dst, int src)
{
	enc_r(b, 0, 1, 0, 0x63, 1, dst, src);
}

void
x64_lea(struct x64_buf *b, int w64, int dst, struct x64_mem m)
{
	enc_m(b, 0, w64, 0, 0x8D, 1, dst, m);
}

void
x64_alu_rr(struct x64_buf *b, int w64, enum x64_alu op, int dst, int src)
{
	enc_r(b, 0, w64, 0, (uint32_t)(op << 3 | 1), 1, src, dst);
}

/* Group 1 with an immediate on register dst, or on m where dst is
 * X64_NOREG: opcode 0x83 with a byte where imm fits one, else 0x81. */
static void
alu_imm(struct x64_buf *b, int w64, enum x64_alu op, int dst,
    struct x64_mem m, int32_t imm)
{
	uint32_t opc = fits8(imm) ? 0x83 : 0x81;

	if (dst != X64_NOREG)
		enc_r(b, 0, w64, 0, opc, 1, op, dst);
	else
		enc_m(b, 0, w64, 0, opc, 1, op, m);
	if (opc == 0x83)
		x64_byte(b, (uint8_t)(int8_t)imm);
	else
		x64_u32(b, (uint32_t)imm);
}

void
x64_alu_ri(struct x64_buf *b, int w64, enum x64_alu op, int dst,
    int32_t imm)
{
	alu_imm(b, w64, op, dst, X64_M(X64_NOREG, 0), imm);
}

void
x64_alu_rm(struct x64_buf *b, int w64, enum x64_alu op, int dst,
    struct x64_mem m)
{
	enc_m(b, 0, w64, 0, (uint32_t)(op << 3 | 3), 1, dst, m);
}

void
x64_alu_mr(struct x64_buf *b, int w64, enum x64_alu op, struct x64_mem m,
    int src)
{
	enc_m(b, 0, w64, 0, (uint32_t)(op << 3 | 1), 1, src, m);
}

void
x64_alu_mi(struct x64_buf *b, int w64, enum x64_alu op, struct x64_mem m,
    int32_t imm)
{
	alu_imm(b, w64, op, X64_NOREG, m, imm);
}

void
x64_test_rr(struct x64_buf *b, int w64, int a, int c)
{
	enc_r(b, 0, w64, 0, 0x85, 1, c, a);
}

void
x64_test_ri(struct x64_buf *b, int w64, int a, int32_t imm)
{
	enc_r(b, 0, w64, 0, 0xF7, 1, 0, a);
	x64_u32(b, (uint32_t)imm);
}

void
x64_unary(struct x64_buf *b, int w64, enum x64_un op, int dst)
{
	enc_r(b, 0, w64, 0, 0xF7, 1, op, dst);
}

void
x64_incdec(struct x64_buf *b, int w64, int down, int dst)
{
	enc_r(b, 0, w64, 0, 0xFF, 1, down ? 1 : 0, dst);
}

void
x64_incdec_m(struct x64_buf *b, int w64, int down, struct x64_mem m)
{
	enc_m(b, 0, w64, 0, 0xFF, 1, down ? 1 : 0, m);
}

void
x64_shift_ri(struct x64_buf *b, int w64, enum x64_shift op, int dst,
    uint8_t n)
{
	if (n == 1)
		enc_r(b, 0, w64, 0, 0xD1, 1, op, dst);
	else {
		enc_r(b, 0, w64, 0, 0xC1, 1, op, dst);
		x64_byte(b, n);
	}
}

void
x64_imul_rr(struct x64_buf *b, int w64, int dst, int src)
{
	enc_r(b, 0, w64, 0, 0x0FAF, 2, dst, src);
}

void
x64_setcc(struct x64_buf *b, enum x64_cc cc, int dst)
{
	enc_r(b, 0, 0, dst >= 4 && dst < 8, 0x0F90u | cc, 2, 0, dst);
}

void
x64_cmov(struct x64_buf *b, int w64, enum x64_cc cc, int dst, int src)
{
	enc_r(b, 0, w64, 0, 0x0F40u | cc, 2, dst, src);
}

void
x64_push(struct x64_buf *b, int r)
{
	rex(b, 0, 0, -1, r, 0);
	x64_byte(b, (uint8_t)(0x50 + (r & 7)));
}

void
x64_pop(struct x64_buf *b, int r)
{
	rex(b, 0, 0, -1, r, 0);
	x64_byte(b, (uint8_t)(0x58 + (r & 7)));
}

static const int x64_callee[] = {
	X64_RBX, X64_RBP, X64_R12, X64_R13, X64_R14, X64_R15
};

void
x64_save_callee(struct x64_buf *b)
{
	for (size_t i = 0; i < sizeof x64_callee / sizeof x64_callee[0]; i++)
		x64_push(b, x64_callee[i]);
}

void
x64_restore_ret(struct x64_buf *b)
{
	for (size_t i = sizeof x64_callee / sizeof x64_callee[0]; i-- > 0;)
		x64_pop(b, x64_callee[i]);
	x64_ret(b);
}

void
x64_ret(struct x64_buf *b)
{
	x64_byte(b, 0xC3);
}

void
x64_ud2(struct x64_buf *b)
{
	x64_byte(b, 0x0F);
	x64_byte(b, 0x0B);
}

/* The rel32 field just emitted, pointed at target unless X64_FWD. */
static size_t
rel32(struct x64_buf *b, size_t target)
{
	size_t at = b->len;

	x64_u32(b, 0);
	if (target != X64_FWD && !b->err)
		x64_patch(b, at, target);
	return at;
}

size_t
x64_jmp(struct x64_buf *b, size_t target)
{
	x64_byte(b, 0xE9);
	return rel32(b, target);
}

size_t
x64_jcc(struct x64_buf *b, enum x64_cc cc, size_t target)
{
	x64_byte(b, 0x0F);
	x64_byte(b, (uint8_t)(0x80 | cc));
	return rel32(b, target);
}

size_t
x64_call(struct x64_buf *b, size_t target)
{
	x64_byte(b, 0xE8);
	return rel32(b, target);
}

void
x64_poke32(struct x64_buf *b, size_t at, uint32_t v)
{
	if (b->sealed || at + 4 > b->len) {
		b->err = 1;
		return;
	}
	for (int i = 0; i < 4; i++)
		b->mem[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

void
x64_patch(struct x64_buf *b, size_t fixup, size_t target)
{
	x64_poke32(b, fixup, (uint32_t)(int32_t)((int64_t)target -
	    (int64_t)(fixup + 4)));
}

void
x64_jmp_r(struct x64_buf *b, int r)
{
	enc_r(b, 0, 0, 0, 0xFF, 1, 4, r);
}

void
x64_call_r(struct x64_buf *b, int r)
{
	enc_r(b, 0, 0, 0, 0xFF, 1, 2, r);
}

void
x64_jmp_m(struct x64_buf *b, struct x64_mem m)
{
	enc_m(b, 0, 0, 0, 0xFF, 1, 4, m);
}

void
x64_call_m(struct x64_buf *b, struct x64_mem m)
{
	enc_m(b, 0, 0, 0, 0xFF, 1, 2, m);
}

void
x64_call_abs(struct x64_buf *b, x64_fn *fn, int scratch)
{
	x64_mov_ri(b, 1, scratch, (uint64_t)(uintptr_t)fn);
	x64_call_r(b, scratch);
}

/* ---- added for the PMIC translation (pmic-jit.c) ------------------------ */

void
x64_bswap(struct x64_buf *b, int w64, int r)
{
	rex(b, w64, 0, -1, r, 0);
	x64_byte(b, 0x0F);
	x64_byte(b, (uint8_t)(0xC8 + (r & 7)));
}
