/*
 * The x86-64 emitter (src/host/x64.c): encodings byte for byte against
 * the GNU assembler's (the expected bytes are objdump's of the same
 * instructions, written down once), then small functions assembled,
 * sealed and run - arithmetic, a loop with a conditional jump patched
 * forward, loads and stores through every addressing form, a jump
 * table, a call of a C function - and the buffer's errors: running out
 * of room, and a seal refused (under tests/nojit.so, which refuses
 * PROT_EXEC, the run part checks that x64_seal says so and stops).
 * Off x86-64 the emitter is absent and the test skips.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "x64.h"

#if X64_AVAILABLE

static struct x64_buf B;

/* The bytes emitted since off equal want (n bytes). */
static void
is_bytes(size_t off, const char *want, size_t n, const char *what)
{
	int same = B.len - off == n && memcmp(B.mem + off, want, n) == 0;

	if (!ok(same, "encodes %s", what)) {
		printf("#   got");
		for (size_t i = off; i < B.len; i++)
			printf(" %02x", B.mem[i]);
		printf("\n");
	}
}

#define ENC(what, want, ...) do {					\
	size_t o_ = x64_here(&B);					\
	__VA_ARGS__;							\
	is_bytes(o_, want, sizeof want - 1, what);			\
} while (0)

static void
encodings(void)
{
	ENC("mov eax, ecx", "\x89\xc8", x64_mov_rr(&B, 0, X64_RAX, X64_RCX));
	ENC("mov rax, rcx", "\x48\x89\xc8", x64_mov_rr(&B, 1, X64_RAX, X64_RCX));
	ENC("mov r8d, 5", "\x41\xb8\x05\x00\x00\x00",
	    x64_mov_ri(&B, 0, X64_R8, 5));
	ENC("add rsp, 8", "\x48\x83\xc4\x08",
	    x64_alu_ri(&B, 1, X64_ADD, X64_RSP, 8));
	ENC("mov eax, [rsp+8]", "\x8b\x44\x24\x08",
	    x64_load(&B, X64_LD_32, X64_RAX, X64_M(X64_RSP, 8)));
	ENC("mov eax, [r13]", "\x41\x8b\x45\x00",
	    x64_load(&B, X64_LD_32, X64_RAX, X64_M(X64_R13, 0)));
	ENC("mov eax, [rbx+rcx*4+0x10]", "\x8b\x44\x8b\x10",
	    x64_load(&B, X64_LD_32, X64_RAX, X64_MX(X64_RBX, X64_RCX, 4, 16)));
	ENC("movzx eax, byte [rdi+rsi]", "\x0f\xb6\x04\x37",
	    x64_load(&B, X64_LD_U8, X64_RAX, X64_MX(X64_RDI, X64_RSI, 1, 0)));
	ENC("setl al", "\x0f\x9c\xc0", x64_setcc(&B, X64_CC_L, X64_RAX));
	ENC("setz sil", "\x40\x0f\x94\xc6", x64_setcc(&B, X64_CC_Z, X64_RSI));
	ENC("push r12", "\x41\x54", x64_push(&B, X64_R12));
	ENC("pop rbx", "\x5b", x64_pop(&B, X64_RBX));
	ENC("jmp [rax+rcx*8]", "\xff\x24\xc8",
	    x64_jmp_m(&B, X64_MX(X64_RAX, X64_RCX, 8, 0)));
	ENC("call r11", "\x41\xff\xd3", x64_call_r(&B, X64_R11));
	ENC("shl eax, 8", "\xc1\xe0\x08",
	    x64_shift_ri(&B, 0, X64_SHL, X64_RAX, 8));
	ENC("cmovne eax, edx", "\x0f\x45\xc2",
	    x64_cmov(&B, 0, X64_CC_NE, X64_RAX, X64_RDX));
	ENC("lea rax, [rdi+rsi*2+3]", "\x48\x8d\x44\x77\x03",
	    x64_lea(&B, 1, X64_RAX, X64_MX(X64_RDI, X64_RSI, 2, 3)));
	ENC("bswap eax", "\x0f\xc8", x64_bswap(&B, 0, X64_RAX));
	ENC("bswap r10d", "\x41\x0f\xca", x64_bswap(&B, 0, X64_R10));
	ENC("bswap rax", "\x48\x0f\xc8", x64_bswap(&B, 1, X64_RAX));
	ENC("mov [r12+0x100], r9d", "\x45\x89\x8c\x24\x00\x01\x00\x00",
	    x64_store(&B, 32, X64_M(X64_R12, 0x100), X64_R9));
	ENC("movsx r10d, byte [rbp-1]", "\x44\x0f\xbe\x55\xff",
	    x64_load(&B, X64_LD_S8, X64_R10, X64_M(X64_RBP, -1)));
	ENC("sub r15d, 0x12345", "\x41\x81\xef\x45\x23\x01\x00",
	    x64_alu_ri(&B, 0, X64_SUB, X64_R15, 0x12345));
	ENC("mov rax, -2", "\x48\xc7\xc0\xfe\xff\xff\xff",
	    x64_mov_ri(&B, 1, X64_RAX, (uint64_t)-2));
	ENC("mov [rdx], sil", "\x40\x88\x32",
	    x64_store(&B, 8, X64_M(X64_RDX, 0), X64_RSI));
	ENC("mov eax, [r8*4+0x40]", "\x42\x8b\x04\x85\x40\x00\x00\x00",
	    x64_load(&B, X64_LD_32, X64_RAX, X64_MX(X64_NOREG, X64_R8, 4, 0x40)));
	ENC("dec r14d", "\x41\xff\xce", x64_incdec(&B, 0, 1, X64_R14));
	ENC("neg rcx", "\x48\xf7\xd9", x64_unary(&B, 1, X64_NEG, X64_RCX));
	ENC("sar edx, 1", "\xd1\xfa", x64_shift_ri(&B, 0, X64_SAR, X64_RDX, 1));
	ENC("cmp dword [rdi+12], 7", "\x83\x7f\x0c\x07",
	    x64_alu_mi(&B, 0, X64_CMP, X64_M(X64_RDI, 12), 7));
	ENC("jmp rel32 back to itself", "\xe9\xfb\xff\xff\xff",
	    x64_jmp(&B, x64_here(&B)));
}

typedef uint32_t fn2(uint32_t, uint32_t);
typedef uint64_t fnp(const void *, uint64_t);

/* Start a function at a 16-byte boundary: its offset. */
static size_t
fn_start(void)
{
	x64_align(&B, 16);
	return x64_here(&B);
}

static uint32_t
c_helper(uint32_t a, uint32_t b)
{
	return a * 10 + b;
}

static uint32_t table_a(uint32_t a, uint32_t b) { return a + b; }
static uint32_t table_b(uint32_t a, uint32_t b) { return a - b; }

static void
functions(void)
{
	size_t f_alu, f_loop, f_mem, f_call, f_set, f_tab, fix, top, done;
	static const uint8_t bytes[8] = { 1, 0xff, 3, 4, 5, 6, 7, 8 };
	static uint32_t words[4] = { 10, 20, 30, 40 };
	static uintptr_t tab[2];
	fn2 *alu, *loop, *call, *set, *jt;
	fnp *mem;

	tab[0] = (uintptr_t)table_a;
	tab[1] = (uintptr_t)table_b;

	/* (a ^ ~b) + (a << 3) - (b >> 1), sar and neg along the way */
	f_alu = fn_start();
	x64_mov_rr(&B, 0, X64_RAX, X64_RSI);
	x64_unary(&B, 0, X64_NOT, X64_RAX);
	x64_alu_rr(&B, 0, X64_XOR, X64_RAX, X64_RDI);
	x64_mov_rr(&B, 0, X64_RCX, X64_RDI);
	x64_shift_ri(&B, 0, X64_SHL, X64_RCX, 3);
	x64_alu_rr(&B, 0, X64_ADD, X64_RAX, X64_RCX);
	x64_shift_ri(&B, 0, X64_SHR, X64_RSI, 1);
	x64_alu_rr(&B, 0, X64_SUB, X64_RAX, X64_RSI);
	x64_ret(&B);

	/* sum of 1..a (a loop: a forward jcc patched, a backward jmp) */
	f_loop = fn_start();
	x64_mov_ri(&B, 0, X64_RAX, 0);
	top = x64_here(&B);
	x64_test_rr(&B, 0, X64_RDI, X64_RDI);
	fix = x64_jcc(&B, X64_CC_Z, X64_FWD);
	x64_alu_rr(&B, 0, X64_ADD, X64_RAX, X64_RDI);
	x64_incdec(&B, 0, 1, X64_RDI);
	x64_jmp(&B, top);
	done = x64_here(&B);
	x64_patch(&B, fix, done);
	x64_ret(&B);

	/* bytes[1] sign-extended + bytes[2] + words[i] (base+index*4) */
	f_mem = fn_start();
	x64_load(&B, X64_LD_S8, X64_RAX, X64_M(X64_RDI, 1));
	x64_load(&B, X64_LD_U8, X64_RCX, X64_MX(X64_RDI, X64_NOREG, 1, 2));
	x64_alu_rr(&B, 0, X64_ADD, X64_RAX, X64_RCX);
	x64_mov_ri(&B, 1, X64_RDX, (uint64_t)(uintptr_t)words);
	x64_load(&B, X64_LD_32, X64_RCX, X64_MX(X64_RDX, X64_RSI, 4, 0));
	x64_alu_rr(&B, 0, X64_ADD, X64_RAX, X64_RCX);
	x64_store(&B, 32, X64_MX(X64_RDX, X64_RSI, 4, 0), X64_RAX);
	x64_ret(&B);

	/* c_helper(b, a) through an absolute call, the stack aligned */
	f_call = fn_start();
	x64_push(&B, X64_RBX);
	x64_mov_rr(&B, 0, X64_RBX, X64_RDI);
	x64_mov_rr(&B, 0, X64_RDI, X64_RSI);
	x64_mov_rr(&B, 0, X64_RSI, X64_RBX);
	x64_call_abs(&B, (x64_fn *)c_helper, X64_R11);
	x64_pop(&B, X64_RBX);
	x64_ret(&B);

	/* (a < b signed) + 2 * (a == b) via setcc, then cmov min */
	f_set = fn_start();
	x64_alu_rr(&B, 0, X64_CMP, X64_RDI, X64_RSI);
	x64_setcc(&B, X64_CC_L, X64_RSI);	/* sil: a REX byte */
	x64_movx8_rr(&B, 0, X64_RAX, X64_RSI);
	x64_setcc(&B, X64_CC_E, X64_RCX);
	x64_movx8_rr(&B, 0, X64_RCX, X64_RCX);
	x64_lea(&B, 0, X64_RAX, X64_MX(X64_RAX, X64_RCX, 2, 0));
	x64_ret(&B);

	/* tab[a & 1](a >> 1, b), through [base+index*8] */
	f_tab = fn_start();
	x64_mov_rr(&B, 0, X64_RAX, X64_RDI);
	x64_alu_ri(&B, 0, X64_AND, X64_RAX, 1);
	x64_shift_ri(&B, 0, X64_SHR, X64_RDI, 1);
	x64_mov_ri(&B, 1, X64_R10, (uint64_t)(uintptr_t)tab);
	x64_jmp_m(&B, X64_MX(X64_R10, X64_RAX, 8, 0));

	if (x64_seal(&B) != 0) {
		ok(errno == EACCES || errno == EPERM,
		    "a refused seal says why (errno %d)", errno);
		ok(B.sealed == 0, "a refused buffer stays unsealed");
		return;
	}
	ok(B.sealed, "sealed");
	alu = (fn2 *)x64_fn_at(&B, f_alu);
	loop = (fn2 *)x64_fn_at(&B, f_loop);
	mem = (fnp *)x64_fn_at(&B, f_mem);
	call = (fn2 *)x64_fn_at(&B, f_call);
	set = (fn2 *)x64_fn_at(&B, f_set);
	jt = (fn2 *)x64_fn_at(&B, f_tab);
	for (uint32_t a = 0; a < 70000; a += 6999)
		for (uint32_t b = 1; b < 4000000000u; b += 977777777u)
			if (alu(a, b) != (a ^ ~b) + (a << 3) - (b >> 1))
				ok(0, "alu(%u, %u) = %u", a, b, alu(a, b));
	ok(alu(5, 9) == (5u ^ ~9u) + 40 - 4, "xor, not, shl, shr, add, sub");
	is_int(loop(100, 0), 5050, "a loop with a patched forward jcc");
	is_int(loop(0, 0), 0, "the loop's exit at once");
	is_int(mem(bytes, 2), (uint64_t)(-1 + 3 + 30) & 0xffffffffu,
	    "sign- and zero-extending byte loads, a scaled 32-bit load");
	is_int(words[2], 32, "a scaled 32-bit store");
	is_int(call(3, 4), 43, "a call of a C function");
	is_int(set(1, 2), 1, "setl");
	is_int(set(2, 2), 2, "sete");
	is_int(set((uint32_t)-1, 2), 1, "setl is signed");
	is_int(jt(6, 5), 8, "a jump through a table, entry 0");
	is_int(jt(7, 5), (uint32_t)-2, "a jump through a table, entry 1");

	/* patch a sealed function: unseal, poke, seal */
	ok(x64_unseal(&B) == 0 && !B.sealed, "unsealed to patch");
	x64_patch(&B, fix, top);	/* the loop's exit now loops: undo */
	x64_patch(&B, fix, done);
	ok(x64_seal(&B) == 0, "sealed again");
	is_int(loop(10, 0), 55, "the patched code still runs");
}

static void
errors(void)
{
	struct x64_buf s;

	ok(x64_buf_init(&s, 1) == 0 && s.cap >= 1, "a small buffer maps");
	for (size_t i = 0; i <= s.cap; i++)
		x64_ret(&s);
	ok(s.err, "running out of room is recorded");
	ok(x64_seal(&s) == -1 && errno == ENOSPC,
	    "a buffer out of room cannot be sealed (ENOSPC)");
	ok(x64_reset(&s) == 0 && s.len == 0 && !s.err, "a reset empties it");
	x64_buf_free(&s);
	ok(s.mem == NULL, "freed");
	x64_buf_free(&s);	/* twice is harmless */
}

int
main(void)
{
	if (x64_buf_init(&B, 1 << 16) != 0) {
		printf("not ok 1 - mapping a code buffer: %s\n",
		    strerror(errno));
		printf("1..1\n");
		return 1;
	}
	encodings();
	functions();
	errors();
	x64_buf_free(&B);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#else

int
main(void)
{
	printf("1..0 # SKIP the x86-64 emitter is built on x86-64 only\n");
	return 0;
}

#endif
