/*
 * Unit tests of the MAL micro-assembler (mal.c) and of the word encoding
 * it produces (mic1.h): every statement form, the ALU function table of
 * doc/mic1.md section 1, placement, every error message, the .mic1 format
 * (the spec's Main1 bytes), listings and symbol files.
 *
 * Sources are small strings; each test assembles one and looks at words
 * through the MIC1_GET accessors, so a change of the encoding shows here
 * as a wrong field, not as a wrong run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mal.h"
#include "mic1.h"
#include "microcode.h"
#include "tap.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif

/* Assemble src; 0 or -1.  On failure the errors stay in *errs. */
static int
as(const char *src, struct mic1_store *cs, struct mal_syms *syms,
    struct mal_errors *errs)
{
	return mal_assemble("t.mal", src, strlen(src), cs, syms, errs);
}

/* Assemble src that must be fine; returns the store (static). */
static const struct mic1_store *
good(const char *src)
{
	static struct mic1_store cs;
	struct mal_errors errs;

	if (as(src, &cs, NULL, &errs) != 0) {
		for (size_t i = 0; i < errs.count; i++)
			tap_diag("unexpected: %s", errs.msg[i]);
		mal_errors_free(&errs);
		mic1_store_init(&cs);
	}
	return &cs;
}

/* Assemble src that must fail with exactly one message containing want
 * (which starts with "t.mal:LINE:COL: "). */
static void
bad(const char *src, const char *want, const char *what)
{
	struct mic1_store cs;
	struct mal_errors errs;
	int rc = as(src, &cs, NULL, &errs);

	if (rc == 0) {
		ok(0, "error: %s (assembled)", what);
		return;
	}
	ok(errs.count >= 1 && strstr(errs.msg[0], want) != NULL,
	    "error: %s", what);
	if (errs.count < 1 || strstr(errs.msg[0], want) == NULL) {
		tap_diag("want: %s", want);
		for (size_t i = 0; i < errs.count; i++)
			tap_diag("got:  %s", errs.msg[i]);
	}
	mal_errors_free(&errs);
}

/* Does addr lead to want, directly or through words that only jump
 * (the added "goto" words)? */
static int
reaches(const struct mic1_store *cs, uint32_t addr, uint32_t want)
{
	for (int n = 0; n < 4; n++) {
		uint64_t w = cs->word[addr];

		if (addr == want)
			return 1;
		if (!cs->present[addr] || mic1_jam(w) != 0 || mic1_alu(w) != 0 ||
		    mic1_cbus(w) != 0 || mic1_mem(w) != 0)
			return 0;
		addr = mic1_next(w);
	}
	return 0;
}

/*
 * src assembles, with a warning that contains want, and the if at label
 * at reaches label t when its condition holds and f when not (directly
 * or through added goto words).
 */
static void
worked_around(const char *src, const char *want, const char *at,
    const char *t, const char *f, const char *what)
{
	struct mal_errors errs, warns;
	struct mal_syms syms;
	struct mic1_store cs;
	uint32_t ai, ti, fi;
	int found = 0;

	if (mal_assemble_warn("t.mal", src, strlen(src), &cs, &syms, &errs,
	    &warns) != 0) {
		ok(0, "worked around: %s (%s)", what, errs.msg[0]);
		mal_errors_free(&errs);
		mal_errors_free(&warns);
		return;
	}
	for (size_t i = 0; i < warns.count; i++)
		found |= strstr(warns.msg[i], want) != NULL;
	ok(found, "worked around: %s: the warning says so", what);
	if (!found)
		for (size_t i = 0; i < warns.count; i++)
			tap_diag("got:  %s", warns.msg[i]);
	if (mal_syms_find(&syms, at, &ai) == 0 &&
	    mal_syms_find(&syms, t, &ti) == 0 &&
	    mal_syms_find(&syms, f, &fi) == 0) {
		uint32_t next = mic1_next(cs.word[ai]);

		ok(reaches(&cs, next | 0x100, ti) && reaches(&cs, next, fi),
		    "worked around: %s: the "
		    "if reaches %s when taken, %s when not", what, t, f);
	} else {
		ok(0, "worked around: %s: labels in the symbols", what);
	}
	mal_syms_free(&syms);
	mal_errors_free(&warns);
}

/* The six function bits as the book's table writes them. */
static const char *
bits6(uint32_t alu)
{
	static char s[7];

	for (int i = 0; i < 6; i++)
		s[i] = (alu >> (5 - i)) & 1 ? '1' : '0';
	s[6] = '\0';
	return s;
}

static void
test_alu_table(void)
{
	/* doc/mic1.md section 1 / the book's Fig. 4-2: F0 F1 ENA ENB INVA INC. */
	static const struct {
		const char *expr, *bits, *what;
		uint32_t b;
	} t[] = {
		{ "H",           "011000", "A",       0 },
		{ "TOS",         "010100", "B",       MIC1_B_TOS },
		{ "NOT H",       "011010", "NOT A",   0 },
		{ "NOT OPC",     "101100", "NOT B",   MIC1_B_OPC },
		{ "H + LV",      "111100", "A + B",   MIC1_B_LV },
		{ "LV + H",      "111100", "B + A",   MIC1_B_LV },
		{ "H + SP + 1",  "111101", "A + B + 1", MIC1_B_SP },
		{ "SP + H + 1",  "111101", "B + A + 1", MIC1_B_SP },
		{ "1 + H + SP",  "111101", "1 + A + B", MIC1_B_SP },
		{ "H + 1",       "111001", "A + 1",   0 },
		{ "PC + 1",      "110101", "B + 1",   MIC1_B_PC },
		{ "MDR - H",     "111111", "B - A",   MIC1_B_MDR },
		{ "-H + MDR",    "111111", "-A + B",  MIC1_B_MDR },
		{ "CPP - 1",     "110110", "B - 1",   MIC1_B_CPP },
		{ "-H",          "111011", "-A",      0 },
		{ "H AND MBR",   "001100", "A AND B", MIC1_B_MBR },
		{ "MBRU AND H",  "001100", "B AND A", MIC1_B_MBRU },
		{ "H OR MBRU",   "011100", "A OR B",  MIC1_B_MBRU },
		{ "MBRU OR H",   "011100", "B OR A",  MIC1_B_MBRU },
		{ "0",           "010000", "0",       0 },
		{ "1",           "110001", "1",       0 },
		{ "-1",          "110010", "-1",      0 },
		{ "CPP - H - 1", "111110", "B - A - 1 (the extra one)",
		    MIC1_B_CPP },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char src[128];
		const struct mic1_store *cs;
		uint64_t w;

		snprintf(src, sizeof src, "a MDR = %s; goto a\n", t[i].expr);
		cs = good(src);
		w = cs->word[0];
		is_str(bits6(mic1_alu(w)), t[i].bits, "ALU %s: %s",
		    t[i].what, t[i].expr);
		if (t[i].b != 0)
			is_int(mic1_bsel(w), t[i].b, "ALU %s: B field",
			    t[i].what);
	}
	/* Each book function has its name for the debugger. */
	is_str(mic1_func_name(MIC1_F_B_SUB_A), "B-A", "function name B-A");
	is_str(mic1_func_name(MIC1_F_MINUS1), "-1", "function name -1");
	ok(mic1_func_name(0x01) == NULL, "no name for a non-function");
	/* Shifter. */
	is_int(mic1_alu(good("a H = MBR << 8; goto a\n")->word[0]) & 0xC0,
	    MIC1_ALU_SLL8, "<< 8 sets SLL8");
	is_int(mic1_alu(good("a H = MBR << 8; goto a\n")->word[0]) & 0x3F,
	    MIC1_F_B, "<< 8 leaves the function alone");
	is_int(mic1_alu(good("a OPC = H >> 1; goto a\n")->word[0]),
	    MIC1_ALU_SRA1 | MIC1_F_A, ">> 1 sets SRA1");
	is_int(mic1_alu(good("a H = MBRU OR H << 8; goto a\n")->word[0]),
	    MIC1_ALU_SLL8 | MIC1_F_OR, "the shift applies to the whole "
	    "expression");
}

static void
test_statements(void)
{
	const struct mic1_store *cs;
	uint64_t w;

	/* Main1 (doc/mic1.md section 1) and its exact word. */
	cs = good(".label Main1 0x02\nMain1 PC = PC + 1; fetch; goto (MBR)\n");
	w = cs->word[2];
	is_int(w, 0x004350211, "Main1 is 0x004350211");
	is_int(mic1_next(w), 0, "Main1: NEXT_ADDRESS 0");
	is_int(mic1_jam(w), MIC1_JAM_PC, "Main1: JMPC only");
	is_int(mic1_alu(w), 0x35, "Main1: ALU 00110101");
	is_int(mic1_cbus(w), MIC1_C_PC, "Main1: C = PC");
	is_int(mic1_mem(w), MIC1_MEM_FETCH, "Main1: FETCH");
	is_int(mic1_bsel(w), MIC1_B_PC, "Main1: B = PC");
	is_int(cs->main1, 2, "Main1's address is recorded");
	ok(cs->present[2] && !cs->present[0] && !cs->present[3],
	    "only defined words are present (no .default)");
	{
		struct buf b = { 0 };

		mic1_store_write(cs, &b);
		is_int(b.len, MIC1_FILE_SIZE, ".mic1 is 2564 bytes");
		ok(memcmp(b.data, "\x12\x34\x56\x78", 4) == 0,
		    ".mic1 magic 12 34 56 78");
		ok(memcmp(b.data + 4 + 2 * 5, "\x00\x43\x50\x21\x10", 5) == 0,
		    "Main1 is 00 43 50 21 10 in the .mic1 file");
		ok(memcmp(b.data + 4, "\x00\x00\x00\x00\x0f", 5) == 0,
		    "an absent word is 00 00 00 00 0f");
		buf_free(&b);
	}

	/* Chains, flags, memory, case. */
	w = good("a MAR = SP = SP + 1; goto a\n")->word[0];
	is_int(mic1_cbus(w), MIC1_C_MAR | MIC1_C_SP, "chain: two targets");
	w = good("a H=OPC=TOS=CPP=LV=SP=PC=MDR=MAR=0; goto a\n")->word[0];
	is_int(mic1_cbus(w), 0x1FF, "chain: all nine targets, no spaces");
	w = good("a N = OPC; goto a\n")->word[0];
	ok(mic1_cbus(w) == 0 && mic1_alu(w) == MIC1_F_B &&
	    mic1_bsel(w) == MIC1_B_OPC, "N = OPC: ALU runs, nothing stored");
	w = good("a Z = OPC - H; goto a\n")->word[0];
	ok(mic1_cbus(w) == 0 && mic1_alu(w) == MIC1_F_B_SUB_A,
	    "Z = OPC - H");
	w = good("a rd; goto a\n")->word[0];
	is_int(mic1_mem(w), MIC1_MEM_READ, "rd");
	w = good("a wr; goto a\n")->word[0];
	is_int(mic1_mem(w), MIC1_MEM_WRITE, "wr");
	w = good("a PC = MDR; rd; fetch; goto a\n")->word[0];
	is_int(mic1_mem(w), MIC1_MEM_READ | MIC1_MEM_FETCH, "rd with fetch");
	w = good("a mar = sp; RD; Goto a\n")->word[0];
	ok(mic1_cbus(w) == MIC1_C_MAR && mic1_mem(w) == MIC1_MEM_READ,
	    "registers and keywords are case-insensitive");
	w = good("a nop; goto a\n")->word[0];
	is_int(w & ~MIC1_MASK1(9, 27), 0, "nop: an empty word");
	w = good("a MAR = SP = MDR; goto a;\n")->word[0];
	is_int(mic1_cbus(w), MIC1_C_MAR | MIC1_C_SP, "a trailing ';'");

	/* Control. */
	cs = good(".label a 0x10\n.label b 0x20\na goto b\nb goto a\n");
	ok(mic1_next(cs->word[0x10]) == 0x20 && mic1_jam(cs->word[0x10]) == 0,
	    "goto L: NEXT_ADDRESS, no JAM");
	w = good("a goto (MBR OR 0x100)\n")->word[0];
	ok(mic1_next(w) == 0x100 && mic1_jam(w) == MIC1_JAM_PC,
	    "goto (MBR OR 0x100): JMPC, NEXT_ADDRESS 0x100");
	w = good("a goto (mbr)\n")->word[0];
	ok(mic1_next(w) == 0 && mic1_jam(w) == MIC1_JAM_PC,
	    "goto (MBR): JMPC, NEXT_ADDRESS 0");
	cs = good(".label a 0x10\na N = TOS; if (N) goto t; else goto f\n"
	    "t goto a\nf goto a\n");
	{
		uint32_t n = mic1_next(cs->word[0x10]);

		ok(mic1_jam(cs->word[0x10]) == MIC1_JAM_N,
		    "if (N): JAMN");
		ok(n < 0x100 && cs->present[n] && cs->present[n | 0x100] &&
		    mic1_next(cs->word[n | 0x100]) == 0x10,
		    "if: false target at X, true target at X | 0x100");
	}
	cs = good(".label a 0x10\na Z = TOS; if (Z) goto t; else goto f\n"
	    "t goto a\nf goto a\n");
	is_int(mic1_jam(cs->word[0x10]), MIC1_JAM_Z, "if (Z): JAMZ");

	/* Fall-through, label-only lines, unlabeled lines. */
	cs = good("a H = 1\n\tOPC = H\nb\n c goto a\n");
	ok(mic1_next(cs->word[0]) == 1 && mic1_next(cs->word[1]) == 2 &&
	    mic1_next(cs->word[2]) == 3 && mic1_next(cs->word[3]) == 0,
	    "a word without goto continues at the next line's word");
	is_int(cs->word[2] & ~MIC1_MASK1(9, 27), 0,
	    "a label alone on a line is an empty word");

	/* Shapes the classroom variants of mic1ijvm.mal use: each must
	 * give the word its tidy spelling gives. */
	{
		static const char *const same[][2] = {
			{ "a TOS = TOS <<8; goto a\n", "a TOS = TOS << 8; goto a\n" },
			{ "a OPC=OPC>>1; goto a\n", "a OPC = OPC >> 1; goto a\n" },
			{ "a Z=OPC; if(Z) goto a; else goto b\nb goto a\n",
			  "a Z = OPC; if (Z) goto a; else goto b\nb goto a\n" },
			{ "a N = OPC; if (N) goto a ; else goto b \nb goto a\n",
			  "a N = OPC; if (N) goto a; else goto b\nb goto a\n" },
			{ "a H = MDR; goto a// glued comment\n",
			  "a H = MDR; goto a\n" },
			{ "a MAR = SP + 1//; rd\n\tgoto a\n",
			  "a MAR = SP + 1\n\tgoto a\n" },
			{ "a rd; MAR = OPC - 1; goto a\n",
			  "a MAR = OPC - 1; rd; goto a\n" },
			{ "a rd; H=OPC+1; goto a\n", "a H = OPC + 1; rd; goto a\n" },
			{ "a TOS=MDR=-H;wr ; goto a\n",
			  "a MDR = TOS = -H; wr; goto a\n" },
			{ "a MDR=TOS=NOT TOS; goto a\n",
			  "a TOS = MDR = NOT TOS; goto a\n" },
			{ "a Z= OPC AND H; goto a\n", "a Z = H AND OPC; goto a\n" },
			{ "a CPP=H+CPP+1; goto a\n", "a CPP = CPP + H + 1; goto a\n" },
			{ "a H=OPC=OPC+H+1; goto a\n",
			  "a OPC = H = H + OPC + 1; goto a\n" },
			{ "a CPP=0; goto a\n", "a CPP = 0; goto a\n" },
			{ "a MDR=MDR-1; goto a\n", "a MDR = MDR - 1; goto a\n" },
			{ "a MAR = SP = MDR;\n\tgoto a\n",
			  "a MAR = SP = MDR\n\tgoto a\n" },
			{ "a OPC =TOS; goto a\n", "a OPC = TOS; goto a\n" },
			{ ".label  a 0x10   \n.label \tb\t\t0x11\na goto b\nb goto a\n",
			  ".label a 0x10\n.label b 0x11\na goto b\nb goto a\n" },
			{ "a\tH = LV\n        OPC=H+OPC\n\t  goto a\n",
			  "a H = LV\nOPC = H + OPC\ngoto a\n" },
		};
		struct mic1_store x;

		for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
			x = *good(same[i][1]);
			ok(memcmp(good(same[i][0])->word, x.word,
			    sizeof x.word) == 0, "variant shape: %s",
			    same[i][0]);
		}
	}
	/* Stacked labels: each an empty word falling into the next, so an
	 * if may name any of them. */
	cs = good(".label a 0x10\na Z = H; if (Z) goto t1; else goto f1\nt1\n"
	    "t2\nt3 H = 1; goto a\nf1\nf2 H = 0; goto a\n");
	{
		uint32_t n = mic1_next(cs->word[0x10]);

		ok(cs->present[n | 0x100] && (cs->word[n | 0x100] &
		    ~MIC1_MASK1(9, 27)) == 0 && mic1_next(cs->word[mic1_next(
		    cs->word[n | 0x100])]) != 0, "stacked labels: empty words "
		    "that fall through (true side)");
		ok((cs->word[n] & ~MIC1_MASK1(9, 27)) == 0 &&
		    mic1_alu(cs->word[mic1_next(cs->word[n])]) == MIC1_F_ZERO,
		    "stacked labels: the false side reaches f2");
	}
	/* Main1 goes where it fits when a variant anchors an opcode at 0x02
	 * (the machine finds it by its label). */
	cs = good(".label nop1 0x00\n.label sq1 0x02\n.default goto nop1\n"
	    "Main1 PC = PC + 1; fetch; goto (MBR)\nnop1 goto Main1\n"
	    "sq1 goto Main1\n");
	ok(cs->main1 != 0x02 && cs->main1 != 0 && cs->word[cs->main1] ==
	    0x004350211ull && mic1_next(cs->word[0]) == cs->main1,
	    "Main1 placed after an anchor takes 0x02");

	/* .default */
	cs = good(".default goto e\n.label e 0x1ff\ne goto e\nx goto e\n");
	ok(cs->present[5] && mic1_next(cs->word[5]) == 0x1FF &&
	    cs->present[0x1FE], ".default fills every unused word");
	ok(mic1_next(cs->word[0]) == 0x1FF && mic1_next(cs->word[1]) == 0x1FF,
	    "placed words keep their own contents");

	/* Comments everywhere. */
	cs = good("// head\n  // indented\na goto a // tail\n");
	ok(cs->present[0] && !cs->present[1], "comments make no words");
}

static void
test_placement(void)
{
	const struct mic1_store *cs;
	struct mal_errors errs;
	struct mic1_store st;
	uint32_t addr;

	/* Anchors first, then pairs, then the rest in source order. */
	cs = good(".label x 0x00\n.label m 0x03\n"
	    "m goto x\nx N = H; if (N) goto t; else goto f\n"
	    "y goto x\nt goto x\nf goto x\n");
	ok(cs->present[0] && cs->present[3], "anchored words at their "
	    "addresses");
	is_int(mic1_next(cs->word[0]), 1, "the if's false target: the "
	    "lowest X with X and X + 0x100 free");
	ok(cs->present[0x101], "its true target at X + 0x100");
	is_int(mic1_next(cs->word[3]), 0, "goto to an anchor");
	ok(cs->present[2] && !cs->present[4], "the rest: lowest free "
	    "address (y at 0x02)");

	/* A false target anchored forces the true target. */
	cs = good(".label f 0x40\na N = H; if (N) goto t; else goto f\n"
	    "t goto a\nf goto a\n");
	ok(cs->present[0x140] && cs->present[0x40],
	    "an anchored false target places the true target");
	cs = good(".label t 0x1a0\na N = H; if (N) goto t; else goto f\n"
	    "t goto a\nf goto a\n");
	ok(cs->present[0xa0] && mic1_next(cs->word[0]) == 0xa0,
	    "an anchored true target places the false target");

	/* One pair serves several ifs. */
	cs = good(".label a 0x10\n.label b 0x11\na N = H; if (N) goto t; "
	    "else goto f\nb Z = H; if (Z) goto t; else goto f\nt goto a\n"
	    "f goto b\n");
	ok(mic1_next(cs->word[0x10]) == mic1_next(cs->word[0x11]),
	    "two ifs with the same targets share the pair");

	/* .reserve keeps a range for anchors, if false targets, .default. */
	cs = good(".reserve 0x00 0xff\n.default goto e\n.label a 0x10\n"
	    "a N = H; if (N) goto t; else goto f\nb goto a\nt goto a\n"
	    "f goto a\ne goto e\n");
	ok(cs->present[0x101] && mic1_next(cs->word[0x101]) == 0x10 &&
	    cs->present[0x102] && mic1_next(cs->word[0x102]) == 0x102,
	    ".reserve: other words go above the range (b at 0x101, e at "
	    "0x102)");
	is_int(mic1_next(cs->word[0x10]), 0, ".reserve: the if's false target "
	    "may still use it");
	is_int(mic1_next(cs->word[0x05]), 0x102, ".reserve: reserved words "
	    "get the .default statement");
	bad(".reserve 0x10 0x05\na goto a\n", "t.mal:1:10: bad range 0x10-0x5",
	    ".reserve with FIRST > LAST");
	bad(".reserve 0x10\na goto a\n", "write .reserve 0xFIRST 0xLAST",
	    ".reserve without LAST");
	bad(".reserve 0x000 0x1ff\na goto a\n", "control store full",
	    ".reserve of everything leaves no room");

	/* The textbook dialect: Main1 lands at 0x02. */
	{
		char *path = xasprintf("%s/tests/textbook.mal", MICDB_SRCDIR);
		char *cause = NULL;
		struct microcode mc;

		if (microcode_load(&mc, LEVEL_MIC, path, &cause) != 0) {
			ok(0, "tests/textbook.mal assembles: %s", cause);
			free(cause);
		} else {
			ok(1, "tests/textbook.mal (textbook dialect) assembles");
			is_int(mc.cs.main1, 2, "its Main1 lands at 0x02");
			ok(mal_syms_find(&mc.syms, "F", &addr) == 0 &&
			    addr == 1, "F at 0x01");
			ok(mal_syms_find(&mc.syms, "T", &addr) == 0 &&
			    addr == 0x101, "T at 0x101");
			is_int(mc.cs.word[2], 0x004350211, "its Main1 word");
			ok(mal_syms_find(&mc.syms, "halt1", &addr) == 0 &&
			    addr == 0xff, "halt1 at 0xFF");
			microcode_free(&mc);
		}
		free(path);
	}

	/* Anchor conflicts and impossible pairs are errors. */
	ok(as(".label a 0x10\n.label b 0x10\na goto b\nb goto a\n", &st, NULL,
	    &errs) != 0 && errs.count == 1 &&
	    strstr(errs.msg[0], "t.mal:2:8: cannot place b at 0x010") != NULL,
	    "two anchors at one address");
	mal_errors_free(&errs);
}

static void
test_errors(void)
{
	bad("a FOO = H; goto a\n", "t.mal:1:3: unknown register 'FOO'",
	    "unknown target register");
	bad("a H = XYZ; goto a\n", "t.mal:1:7: unknown register 'XYZ'",
	    "unknown source register");
	bad("a H = SP + LV; goto a\n", "t.mal:1:12: two B sources (SP and LV)",
	    "two B sources");
	bad("a H = SP AND LV; goto a\n", "two B sources (SP and LV)",
	    "two B sources in AND");
	bad("a MAR = SP; rd; wr; goto a\n", "t.mal:1:17: READ with WRITE",
	    "READ with WRITE");
	bad("a wr; rd; goto a\n", "READ with WRITE", "WRITE with READ");
	bad("a goto nowhere\n", "t.mal:1:8: undefined label 'nowhere'",
	    "undefined label");
	bad("a N = H; if (N) goto a; else goto b\n",
	    "t.mal:1:35: undefined label 'b'", "undefined else label");
	bad("a H = H + H; goto a\n", "t.mal:1:11: H is the ALU's only A input",
	    "H twice");
	bad("a H = H - SP; goto a\n", "the ALU subtracts H from B",
	    "H - B");
	bad("a H = SP + 2; goto a\n", "t.mal:1:12: constant 2",
	    "constant other than 0, 1, -1");
	bad("a H = SP << 2; goto a\n", "t.mal:1:10: the shifter does only",
	    "bad shift");
	bad("a H = SP >> 8; goto a\n", "the shifter does only", "bad shift >>");
	bad("a H = -SP; goto a\n", "t.mal:1:7: bad ALU expression: not one "
	    "of the ALU's functions",
	    "-B is not an ALU function");
	bad("a H = SP -; goto a\n", "bad ALU expression", "dangling operator");
	bad("a H = ; goto a\n", "missing expression", "missing expression");
	bad("a H = MAR; goto a\n", "t.mal:1:7: MAR cannot be read",
	    "MAR as a source");
	bad("a MBR = H; goto a\n", "t.mal:1:3: MBR is loaded by fetch only",
	    "MBR as a target");
	bad("a N = H = TOS; goto a\n", "N and Z are flags", "N with a register");
	bad("a H = N; goto a\n", "N is a flag", "N as a source");
	bad("a H = TOS; OPC = TOS; goto a\n", "t.mal:1:12: a second assignment",
	    "two assignments");
	bad("a goto a; goto a\n", "t.mal:1:11: a second goto", "two gotos");
	bad("a goto a; N = H; if (N) goto a; else goto a\n", "an if after a "
	    "goto", "goto and if");
	bad("a else goto a\n", "else without an if", "else alone");
	bad("a N = H; if (N) goto a\n", "needs '; else goto LABEL'",
	    "if without else");
	bad("a if N goto a; else goto a\n", "bad if", "if without parentheses");
	bad("a goto (MBR OR 0x80)\n", "t.mal:1:16: goto (MBR OR x) takes "
	    "0x100 only", "multiway with another constant");
	bad("a goto (PC)\n", "must be followed by MBR", "multiway on PC");
	bad("a goto (MBR AND 1)\n", "bad multiway branch", "bad multiway");
	bad("a goto\n", "goto needs a label", "goto without label");
	bad("a goto rd\n", "'rd' is a reserved word", "reserved word as label");
	bad("a rd; rd; goto a\n", "rd given twice", "rd twice");
	bad("a H = 1 H\n", "t.mal:1:9: bad ALU expression: an operator or "
	    "';' expected before 'H'",
	    "missing semicolon");
	bad("a @\n", "t.mal:1:3: unexpected '@'", "stray character");
	bad("a H = 0x; goto a\n", "unexpected '0x'", "bad number");
	bad("a: goto a\n", "t.mal:1:2: no colon after a label", "colon");
	bad("a goto a\na goto a\n", "t.mal:2:1: label 'a' already defined at "
	    "line 1", "duplicate label");
	{
		/* Classroom variants anchor opcodes they never write. */
		struct mal_errors errs, warns;
		struct mic1_store cs;
		static const char src[] = ".label b 0x10\n.default goto a\n"
		    "a goto a\n";

		ok(mal_assemble_warn("t.mal", src, sizeof src - 1, &cs, NULL,
		    &errs, &warns) == 0 && warns.count == 1 &&
		    strcmp(warns.msg[0], "t.mal:1:8: warning: anchored label "
		    "'b' is never defined: 0x010 keeps the default word") == 0 &&
		    cs.present[0x10] && mic1_next(cs.word[0x10]) == 0,
		    "an anchor without its label: a warning, the .default word");
		mal_errors_free(&warns);
	}
	bad(".label a 0x10\n.label a 0x11\na goto a\n", "t.mal:2:8: label 'a' "
	    "is anchored twice", "anchor twice");
	bad(".label a 0x200\na goto a\n", "t.mal:1:10: address 0x200 is "
	    "outside", "anchor out of range");
	bad(".label a\na goto a\n", "write .label NAME 0xADDR", "bad .label");
	bad(".org 5\na goto a\n", "t.mal:1:1: unknown directive '.org' "
	    "(.label, .default or .reserve)",
	    "unknown directive");
	bad(".default nop\na goto a\n", ".default needs a goto", "default "
	    "without goto");
	bad(".default\na goto a\n", ".default needs a statement",
	    "empty default");
	bad(".default goto a\n.default goto a\na goto a\n", "t.mal:2:1: "
	    ".default given twice", "default twice");
	bad("a H = 1\n", "t.mal:1:1: the last micro-instruction needs a goto",
	    "fall off the end");
	bad("// nothing\n", "no micro-instructions", "empty program");
	/* strlen stops at the NUL above, so build that one by hand. */
	{
		static const char src[] = "a goto a\nb\0 goto a\n";
		struct mal_errors errs;
		struct mic1_store cs;

		ok(mal_assemble("t.mal", src, sizeof src - 1, &cs, NULL,
		    &errs) != 0 && errs.count == 1 &&
		    strstr(errs.msg[0], "t.mal:2:1: NUL byte") != NULL,
		    "error: NUL byte in the source");
		mal_errors_free(&errs);
	}
	/* An if whose targets cannot sit at X and X | 0x100 (classroom
	 * variants of mic1ijvm.mal jump to err1 at 0xFE) assembles with a
	 * warning and an added "goto target" word. */
	worked_around(".label f 0x140\na N = H; if (N) goto t; else goto f\n"
	    "t goto a\nf goto a\n", "false target is anchored at 0x100 or "
	    "above: the if reaches 'f' through an added word 'goto f'",
	    "a", "t", "f", "false target anchored in the high bank");
	worked_around(".label t 0x40\na N = H; if (N) goto t; else goto f\n"
	    "t goto a\nf goto a\n", "t.mal:2:22: warning: the true target is "
	    "anchored below 0x100", "a", "t", "f",
	    "true target anchored in the low bank");
	worked_around(".label f 0x40\n.label t 0x150\na N = H; if (N) goto t; "
	    "else goto f\nt goto a\nf goto a\n", "the anchors do not differ "
	    "in bit 8 only", "a", "t", "f", "anchored targets that do not pair");
	bad(".label f 0x40\n.label x 0x140\na N = H; if (N) goto t; else goto "
	    "f\nt goto a\nf goto a\nx goto a\n", "cannot place t at 0x140",
	    "the forced true target's word is taken");
	worked_around("a N = H; if (N) goto t; else goto f\nb N = H; if (N) "
	    "goto f; else goto t\nt goto a\nf goto a\n", "the false target "
	    "already pairs with another label", "b", "f", "t",
	    "crossed if targets");
	worked_around("a N = H; if (N) goto t; else goto f\nb N = H; if (N) "
	    "goto u; else goto f\nt goto a\nu goto a\nf goto a\n", "the "
	    "false target already pairs with another label", "b", "u", "f",
	    "one false target, two true targets");
	worked_around("a N = H; if (N) goto a; else goto a\n", "both targets "
	    "are one label", "a", "a", "a", "if with one target twice");
	worked_around(".label err1 0xFE\nb Z = H; if(Z) goto err1; else goto "
	    "c\nc goto b\nerr1 goto err1\n", "t.mal:2:21: warning: the true "
	    "target is anchored below 0x100: the if reaches 'err1' through an "
	    "added word 'goto err1' (one more cycle)", "b", "err1", "c",
	    "textbook variant: if (Z) goto err1");
	{
		/* 256 anchors fill the low bank: no pair fits. */
		struct buf b = { 0 };

		for (int i = 0; i < 256; i++)
			buf_printf(&b, ".label l%d 0x%x\n", i, i);
		for (int i = 0; i < 256; i++)
			buf_printf(&b, "l%d goto l0\n", i);
		buf_printf(&b, "a N = H; if (N) goto t; else goto f\nt goto a\n"
		    "f goto a\n");
		buf_put_u8(&b, 0);
		bad((const char *)b.data, "no free pair of words X, X + 0x100",
		    "no room for an if pair");
		b.len = 0;
		for (int i = 0; i < 513; i++)
			buf_printf(&b, "l%d goto l0\n", i);
		buf_put_u8(&b, 0);
		bad((const char *)b.data, "control store full",
		    "more than 512 words");
		buf_free(&b);
	}

	/* All errors in one run, each with its place. */
	{
		struct mal_errors errs;
		struct mic1_store cs;
		const char *src = "a H = FOO; goto a\nb goto c\n"
		    "d MAR = SP; rd; wr; goto a\ne H = SP + LV; goto a\n";

		ok(as(src, &cs, NULL, &errs) != 0 && errs.count == 3,
		    "syntax errors of every line are reported in one run");
		ok(errs.count == 3 && strncmp(errs.msg[0], "t.mal:1:", 8) == 0 &&
		    strncmp(errs.msg[1], "t.mal:3:", 8) == 0 &&
		    strncmp(errs.msg[2], "t.mal:4:", 8) == 0,
		    "... in line order");
		mal_errors_free(&errs);
		/* A file with only label errors reports all of them. */
		ok(as("a goto x\nb goto y\nc goto a\n", &cs, NULL, &errs) != 0 &&
		    errs.count == 2, "every undefined label is reported");
		mal_errors_free(&errs);
	}
}

static void
test_files(void)
{
	struct mic1_store cs, back;
	struct mal_syms syms, syms2;
	struct mal_errors errs;
	struct buf b = { 0 };
	char *cause = NULL;
	const struct mal_sym *s;
	uint32_t addr;
	const char *src = ".label Main1 0x02\n.default goto Main1\n"
	    "Main1 PC = PC + 1; fetch; goto (MBR)  // dispatch\n"
	    "x\tH  =\tLV\n  goto Main1\n";

	ok(as(src, &cs, &syms, &errs) == 0, "assemble with symbols");
	s = mal_syms_at(&syms, 2);
	ok(s != NULL && s->label && strcmp(s->label, "Main1") == 0 &&
	    s->line == 3 && strcmp(s->text, "PC = PC + 1; fetch; goto (MBR)")
	    == 0, "symbol of Main1: label, line, text without the comment");
	s = mal_syms_at(&syms, 0);
	ok(s != NULL && strcmp(s->text, "H = LV") == 0 && s->line == 4,
	    "statement text with whitespace collapsed");
	s = mal_syms_at(&syms, 1);
	ok(s != NULL && s->label == NULL && strcmp(s->text, "goto Main1") == 0,
	    "a word without label");
	s = mal_syms_at(&syms, 100);
	ok(s != NULL && s->is_default && s->line == 2 &&
	    strcmp(s->text, "goto Main1") == 0, "a .default word");
	ok(mal_syms_find(&syms, "x", &addr) == 0 && addr == 0, "find a label");
	ok(mal_syms_find(&syms, "nope", &addr) != 0, "unknown label");
	is_int(syms.n, 512, "one entry per word");

	/* Symbol file round trip. */
	mal_syms_write(&syms, &b);
	ok(mal_syms_parse(&syms2, "t.sym", (const char *)b.data, b.len,
	    &cause) == 0, "the symbol file parses back");
	ok(syms2.n == syms.n && syms2.main1 == 2 && syms2.file &&
	    strcmp(syms2.file, "t.mal") == 0, "... with file and main1");
	{
		int same = syms2.n == syms.n;

		for (size_t i = 0; same && i < syms.n; i++) {
			const struct mal_sym *p = &syms.sym[i], *q = &syms2.sym[i];

			same = p->addr == q->addr && p->line == q->line &&
			    p->is_default == q->is_default &&
			    strcmp(p->text, q->text) == 0 &&
			    ((!p->label && !q->label) || (p->label && q->label &&
			    strcmp(p->label, q->label) == 0));
		}
		ok(same, "... entry for entry");
	}
	mal_syms_free(&syms2);
	ok(mal_syms_parse(&syms2, "t.sym", "hello\n", 6, &cause) != 0 &&
	    strstr(cause, "t.sym:1: not a mic1-as symbol file") != NULL,
	    "symbol file: wrong header");
	free(cause);
	cause = NULL;
	{
		const char *t = "# mic1-as symbols 1\n0x002\tx\tMain1\tnop\n";

		ok(mal_syms_parse(&syms2, "t.sym", t, strlen(t), &cause) != 0 &&
		    strstr(cause, "t.sym:2: bad symbol line") != NULL,
		    "symbol file: bad line number field");
		free(cause);
		cause = NULL;
		t = "# mic1-as symbols 1\n0x003\t1\ta\tx\n0x002\t1\tb\ty\n";
		ok(mal_syms_parse(&syms2, "t.sym", t, strlen(t), &cause) != 0 &&
		    strstr(cause, "t.sym:3:") != NULL,
		    "symbol file: addresses must increase");
		free(cause);
		cause = NULL;
		t = "# mic1-as symbols 1\n0x200\t1\ta\tx\n";
		ok(mal_syms_parse(&syms2, "t.sym", t, strlen(t), &cause) != 0,
		    "symbol file: address out of range");
		free(cause);
		cause = NULL;
		/* Found by tests/fuzz/fuzz-sym: a line ending in several
		 * carriage returns kept all but one in its text, so that
		 * the file written back read differently. */
		t = "# mic1-as symbols 1\r\nfile\tm.mal\r\r\n"
		    "0x002\t1\ta\tnop\r\r\n";
		ok(mal_syms_parse(&syms2, "t.sym", t, strlen(t), &cause) == 0 &&
		    strcmp(syms2.file, "m.mal") == 0 &&
		    strcmp(syms2.sym[0].text, "nop") == 0,
		    "symbol file: every carriage return ends a line");
		mal_syms_free(&syms2);
		t = "# mic1-as symbols 1\n0x002\t1\ta\tnop\r\0\0 x\n";
		ok(mal_syms_parse(&syms2, "t.sym", t, 39, &cause) != 0 &&
		    strstr(cause, "t.sym:2: a NUL byte") != NULL,
		    "symbol file: a NUL byte is refused, with its line");
		free(cause);
		cause = NULL;
	}

	/* Listing. */
	b.len = 0;
	mal_listing(&cs, &syms, &b);
	buf_put_u8(&b, 0);
	ok(strstr((const char *)b.data, "0x002  0x004350211    3  Main1") !=
	    NULL, "listing: address, word, line, label");
	ok(strstr((const char *)b.data, "0x003-0x1ff") != NULL,
	    "listing: a run of .default words is one line");

	/* .mic1 round trip. */
	b.len = 0;
	mic1_store_write(&cs, &b);
	ok(mic1_store_parse(&back, "t.mic1", b.data, b.len, &cause) == 0,
	    ".mic1 parses back");
	ok(memcmp(back.word, cs.word, sizeof cs.word) == 0 &&
	    memcmp(back.present, cs.present, sizeof cs.present) == 0,
	    "... word for word, presence included");
	buf_free(&b);
	mal_syms_free(&syms);
}

static void
test_disasm(void)
{
	static const char *const lines[] = {
		"PC = PC + 1; fetch; goto (MBR)",
		"TOS = MDR = MDR - H; wr; goto 0x002",
		"H = H OR MBRU << 8; goto 0x000",
		"N = OPC; if (N) goto 0x101; else goto 0x001",
		"SP = MAR = SP - 1; rd; goto 0x000",
		"goto (MBR OR 0x100)",
		"MDR = CPP - H - 1; goto 0x000",
	};
	char out[128];

	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		char src[160];
		const struct mic1_store *cs;
		const char *want = lines[i];

		/* the same statements with labels where disasm prints
		 * addresses */
		snprintf(src, sizeof src, ".label a 0x000\n.label b 0x001\n"
		    ".label M 0x002\na %s\nb goto a\nM goto a\nt goto a\n", want);
		for (char *p = strstr(src, "goto 0x0"); p; p = strstr(p, "goto 0x0"))
			memcpy(p + 5, p[9] == '0' ? "a    " : p[9] == '1' ?
			    "b    " : "M    ", 5);
		{
			char *p = strstr(src, "goto 0x101; else goto b");

			if (p != NULL)
				memcpy(p + 5, "t    ", 5);
		}
		cs = good(src);
		mic1_disasm(cs->word[0], out, sizeof out);
		is_str(out, want, "disassembles: %s", want);
	}
}

/* Mutations of real sources and files must give a result or messages,
 * never a crash (the -asan build checks memory on every one). */
static void
test_fuzz(void)
{
	static const char *const files[] = { "microcode/mic1.mal",
	    "tests/textbook.mal" };
	uint64_t x = 0x2545F4914F6CDD1Dull;
	int runs = 0, crashes_would_show_above = 1;

	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char *path = xasprintf("%s/%s", MICDB_SRCDIR, files[f]);
		char *cause = NULL;
		uint8_t *src, *buf;
		size_t len;
		struct mic1_store cs;
		struct mal_syms syms;
		struct mal_errors errs;
		struct buf sb = { 0 }, mb = { 0 };

		if (read_file(path, &src, &len, &cause) != 0) {
			ok(0, "fuzz: read %s: %s", files[f], cause);
			free(cause);
			free(path);
			continue;
		}
		if (mal_assemble(path, (const char *)src, len, &cs, &syms,
		    &errs) == 0) {
			mal_syms_write(&syms, &sb);
			mic1_store_write(&cs, &mb);
			mal_syms_free(&syms);
		}
		mal_errors_free(&errs);
		buf = xmalloc(len + 64);
		for (int i = 0; i < 300; i++, runs++) {
			size_t n = len;
			static const char pool[] = "=;()+-<>.:/ \t\nHNZMBR01x";

			memcpy(buf, src, len);
			for (int k = 0; k < 1 + i % 8; k++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				switch (x % 4) {
				case 0:	/* replace a byte */
					buf[(x >> 8) % n] = (uint8_t)(x >> 32);
					break;
				case 1:	/* a syntax character */
					buf[(x >> 8) % n] = (uint8_t)pool[(x >> 32) %
					    (sizeof pool - 1)];
					break;
				case 2:	/* cut */
					n = (size_t)((x >> 8) % n) + 1;
					break;
				default: /* a word's worth of another line */
					if (n > 16) {
						size_t from = (x >> 8) % (n - 8);
						size_t to = (x >> 32) % (n - 8);

						memmove(buf + to, buf + from, 8);
					}
					break;
				}
			}
			if (mal_assemble("fuzz.mal", (const char *)buf, n, &cs,
			    &syms, &errs) == 0)
				mal_syms_free(&syms);
			else
				mal_errors_free(&errs);
			/* the symbol file and the .mic1 image, mutated */
			if (sb.len > 0) {
				uint8_t *t = xmalloc(sb.len);

				memcpy(t, sb.data, sb.len);
				t[(x >> 3) % sb.len] = (uint8_t)(x >> 40);
				if (mal_syms_parse(&syms, "f.sym", (char *)t,
				    (x >> 20) % sb.len + 1, &cause) == 0)
					mal_syms_free(&syms);
				else
					free(cause);
				cause = NULL;
				free(t);
			}
			if (mb.len > 0) {
				uint8_t *t = xmalloc(mb.len);

				memcpy(t, mb.data, mb.len);
				t[(x >> 5) % mb.len] ^= (uint8_t)(x >> 48);
				if (mic1_store_parse(&cs, "f.mic1", t, i % 2 ?
				    mb.len : (x >> 24) % mb.len, &cause) != 0)
					free(cause);
				cause = NULL;
				free(t);
			}
		}
		free(buf);
		free(src);
		free(path);
		buf_free(&sb);
		buf_free(&mb);
	}
	ok(runs == 600 && crashes_would_show_above, "fuzz: %d mutated "
	    "sources, symbol files and .mic1 images, no crash", runs);
}

int
main(void)
{
	test_alu_table();
	test_statements();
	test_placement();
	test_errors();
	test_files();
	test_disasm();
	test_fuzz();
	return done_testing();
}
