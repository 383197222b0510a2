/*
 * The Mic-1 encoding (mic1-enc.h): building a word from its fields, the
 * names a pane shows, the word as MAL-like text, and the control store
 * with its .mic1 file.  The simulator that runs the store is mic1.c
 * (src/model).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mic1-enc.h"

/* ---- encoding helpers ------------------------------------------------- */

int
mic1_make(uint64_t *w, uint32_t next, uint32_t jam, uint32_t alu,
    uint32_t c, uint32_t mem, uint32_t b)
{
	uint64_t v = 0;

	if (mic1_set(&v, MIC1_POS_NEXT, MIC1_SIZE_NEXT, next) != 0 ||
	    mic1_set(&v, MIC1_POS_JAM, MIC1_SIZE_JAM, jam) != 0 ||
	    mic1_set(&v, MIC1_POS_ALU, MIC1_SIZE_ALU, alu) != 0 ||
	    mic1_set(&v, MIC1_POS_C, MIC1_SIZE_C, c) != 0 ||
	    mic1_set(&v, MIC1_POS_MEM, MIC1_SIZE_MEM, mem) != 0 ||
	    mic1_set(&v, MIC1_POS_B, MIC1_SIZE_B, b) != 0)
		return -1;
	*w = v;
	return 0;
}

static const char *const mic1_b_names[] = {
	"MDR", "PC", "MBR", "MBRU", "SP", "LV", "CPP", "TOS", "OPC",
};

const char *
mic1_b_name(uint32_t b)
{
	return b < sizeof mic1_b_names / sizeof mic1_b_names[0] ?
	    mic1_b_names[b] : "none";
}

/* C field bit i, MAR = bit 0 .. H = bit 8. */
static const char *const mic1_c_names[] = {
	"MAR", "MDR", "PC", "SP", "LV", "CPP", "TOS", "OPC", "H",
};

const char *
mic1_c_name(int bit)
{
	return bit >= 0 && bit < MIC1_SIZE_C ? mic1_c_names[bit] : NULL;
}

/* The book's spelling of each function; "B" stands for the B source. */
static const struct {
	uint8_t		 func;
	const char	*name;
} mic1_funcs[] = {
	{ MIC1_F_A,         "A" },
	{ MIC1_F_B,         "B" },
	{ MIC1_F_NOT_A,     "NOT A" },
	{ MIC1_F_NOT_B,     "NOT B" },
	{ MIC1_F_A_ADD_B,   "A+B" },
	{ MIC1_F_A_ADD_B_1, "A+B+1" },
	{ MIC1_F_A_INC,     "A+1" },
	{ MIC1_F_B_INC,     "B+1" },
	{ MIC1_F_B_SUB_A,   "B-A" },
	{ MIC1_F_B_DEC,     "B-1" },
	{ MIC1_F_NEG_A,     "-A" },
	{ MIC1_F_AND,       "A AND B" },
	{ MIC1_F_OR,        "A OR B" },
	{ MIC1_F_ZERO,      "0" },
	{ MIC1_F_ONE,       "1" },
	{ MIC1_F_MINUS1,    "-1" },
	{ MIC1_F_B_SUB_A_1, "B-A-1" },
	{ MIC1_F_ONE_OR,    "1" },
	{ MIC1_F_MINUS1_OR, "-1" },
};

const char *
mic1_func_name(uint32_t func)
{
	for (size_t i = 0; i < sizeof mic1_funcs / sizeof mic1_funcs[0]; i++)
		if (mic1_funcs[i].func == func)
			return mic1_funcs[i].name;
	return NULL;
}

/* The right-hand side of an assignment in MAL spelling, "H" for A and
 * the B source's name for B; NULL for a function MAL cannot write. */
static const char *
mic1_expr(uint32_t func, const char *b, char *out, size_t n)
{
	switch (func) {
	case MIC1_F_A:		snprintf(out, n, "H"); break;
	case MIC1_F_B:		snprintf(out, n, "%s", b); break;
	case MIC1_F_NOT_A:	snprintf(out, n, "NOT H"); break;
	case MIC1_F_NOT_B:	snprintf(out, n, "NOT %s", b); break;
	case MIC1_F_A_ADD_B:	snprintf(out, n, "H + %s", b); break;
	case MIC1_F_A_ADD_B_1:	snprintf(out, n, "H + %s + 1", b); break;
	case MIC1_F_A_INC:	snprintf(out, n, "H + 1"); break;
	case MIC1_F_B_INC:	snprintf(out, n, "%s + 1", b); break;
	case MIC1_F_B_SUB_A:	snprintf(out, n, "%s - H", b); break;
	case MIC1_F_B_DEC:	snprintf(out, n, "%s - 1", b); break;
	case MIC1_F_NEG_A:	snprintf(out, n, "-H"); break;
	case MIC1_F_AND:	snprintf(out, n, "H AND %s", b); break;
	case MIC1_F_OR:		snprintf(out, n, "H OR %s", b); break;
	case MIC1_F_ZERO:	snprintf(out, n, "0"); break;
	case MIC1_F_ONE:
	case MIC1_F_ONE_OR:	snprintf(out, n, "1"); break;
	case MIC1_F_MINUS1:
	case MIC1_F_MINUS1_OR:	snprintf(out, n, "-1"); break;
	case MIC1_F_B_SUB_A_1:	snprintf(out, n, "%s - H - 1", b); break;
	default:		return NULL;
	}
	return out;
}

void
mic1_disasm(uint64_t w, char *out, size_t n)
{
	struct buf b = { 0 };
	uint32_t alu = mic1_alu(w), c = mic1_cbus(w), mem = mic1_mem(w);
	uint32_t jam = mic1_jam(w), next = mic1_next(w);
	char expr[64];
	int stmts = 0;

	if (c != 0 || alu != 0) {
		const char *e = mic1_expr(MIC1_ALU_FUNC(alu),
		    mic1_b_name(mic1_bsel(w)), expr, sizeof expr);

		for (int i = MIC1_SIZE_C - 1; i >= 0; i--)
			if (c & (1u << i))
				buf_printf(&b, "%s = ", mic1_c_names[i]);
		if (c == 0)
			buf_printf(&b, "%s = ", (jam & MIC1_JAM_Z) &&
			    !(jam & MIC1_JAM_N) ? "Z" : "N");
		if (e != NULL)
			buf_printf(&b, "%s", e);
		else
			buf_printf(&b, "alu(0x%02x, %s)", MIC1_ALU_FUNC(alu),
			    mic1_b_name(mic1_bsel(w)));
		if (alu & MIC1_ALU_SLL8)
			buf_printf(&b, " << 8");
		if (alu & MIC1_ALU_SRA1)
			buf_printf(&b, " >> 1");
		stmts++;
	}
	if (mem & MIC1_MEM_WRITE)
		buf_printf(&b, "%swr", stmts++ ? "; " : "");
	if (mem & MIC1_MEM_READ)
		buf_printf(&b, "%srd", stmts++ ? "; " : "");
	if (mem & MIC1_MEM_FETCH)
		buf_printf(&b, "%sfetch", stmts++ ? "; " : "");
	if (jam & MIC1_JAM_PC) {
		if (next == 0)
			buf_printf(&b, "%sgoto (MBR)", stmts++ ? "; " : "");
		else if (next == 0x100)
			buf_printf(&b, "%sgoto (MBR OR 0x100)",
			    stmts++ ? "; " : "");
		else
			buf_printf(&b, "%sgoto (MBR OR 0x%03X)",
			    stmts++ ? "; " : "", next);
	} else if (jam & (MIC1_JAM_N | MIC1_JAM_Z)) {
		if ((jam & MIC1_JAM_N) && (jam & MIC1_JAM_Z))
			buf_printf(&b, "%sif (N OR Z)", stmts++ ? "; " : "");
		else
			buf_printf(&b, "%sif (%s)", stmts++ ? "; " : "",
			    (jam & MIC1_JAM_N) ? "N" : "Z");
		buf_printf(&b, " goto 0x%03X; else goto 0x%03X",
		    next | (1u << MIC1_BIT_NEXT_JAM),
		    next & ~(1u << MIC1_BIT_NEXT_JAM));
	} else {
		buf_printf(&b, "%sgoto 0x%03X", stmts++ ? "; " : "", next);
	}
	buf_put_u8(&b, 0);
	snprintf(out, n, "%s", (const char *)b.data);
	buf_free(&b);
}

/* ---- the control store ------------------------------------------------- */

void
mic1_store_init(struct mic1_store *cs)
{
	memset(cs, 0, sizeof *cs);
	cs->main1 = MIC1_MAIN1;
}

int
mic1_store_parse(struct mic1_store *cs, const char *path,
    const uint8_t *data, size_t len, char **cause)
{
	uint32_t magic;

	if (len < 4) {
		*cause = xasprintf("%s: not a .mic1 control store (%zu bytes; "
		    "a .mic1 file is %d)", path, len, MIC1_FILE_SIZE);
		return -1;
	}
	magic = get_be32(data);
	if (magic == 0x78563412u) {
		*cause = xasprintf("%s: byte-swapped .mic1 magic: the file was "
		    "written little-endian; reassemble it with mic1-as", path);
		return -1;
	}
	if (magic != MIC1_FILE_MAGIC) {
		*cause = xasprintf("%s: not a .mic1 control store (magic "
		    "0x%08x, want 0x%08x)", path, magic, MIC1_FILE_MAGIC);
		return -1;
	}
	if (len != MIC1_FILE_SIZE) {
		*cause = xasprintf("%s: a .mic1 file is %d bytes (magic and 512 "
		    "entries of 5 bytes), this one is %zu: %s", path,
		    MIC1_FILE_SIZE, len, len < MIC1_FILE_SIZE ? "truncated" :
		    "trailing data");
		return -1;
	}
	mic1_store_init(cs);
	for (int i = 0; i < MIC1_STORE_WORDS; i++) {
		const uint8_t *p = data + 4 + 5 * i;
		uint64_t v = ((uint64_t)get_be32(p) << 8) | p[4];
		uint32_t tag = (uint32_t)(v & 0xF);

		if (tag == 0) {
			cs->word[i] = v >> 4;
			cs->present[i] = 1;
		} else if (tag == MIC1_FILE_ABSENT && (v >> 4) == 0) {
			cs->present[i] = 0;
		} else {
			*cause = xasprintf("%s: control-store word 0x%03x has "
			    "low bits 0x%x (a .mic1 entry ends in 0, or is "
			    "all zero with 0xf for an empty word)", path, i,
			    tag);
			return -1;
		}
	}
	return 0;
}

int
mic1_store_load_file(struct mic1_store *cs, const char *path, char **cause)
{
	uint8_t *data;
	size_t len;
	int rc;

	if (read_file(path, &data, &len, cause) != 0)
		return -1;
	rc = mic1_store_parse(cs, path, data, len, cause);
	free(data);
	return rc;
}

void
mic1_store_write(const struct mic1_store *cs, struct buf *out)
{
	buf_put_be32(out, MIC1_FILE_MAGIC);
	for (int i = 0; i < MIC1_STORE_WORDS; i++) {
		uint64_t v = cs->present[i] ?
		    (cs->word[i] & MIC1_WORD_MASK) << 4 : MIC1_FILE_ABSENT;

		buf_put_be32(out, (uint32_t)(v >> 8));
		buf_put_u8(out, (uint8_t)v);
	}
}
