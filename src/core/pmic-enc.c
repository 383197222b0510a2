/*
 * The PMIC encoding (pmic-enc.h): register and operation tables, the ALU,
 * the .pmic control-store file and the disassembler.  The simulator is
 * pmic-sim.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmic-enc.h"

static const char *const reg_names[PMIC_NREG] = {
	"mar", "mdr", "pc", "mbr", "mbr0", "mbr1", "mbr2", "mbr3",
	"mbr1s", "mbr12", "mbr12s", "sp", "lv", "cpp", "tos", "opc", "h",
	"g0", "g1", "c2", "c3", "c4", "c5", "sid",
};

/* C bits in order: the names of the writable registers. */
static const char *const c_names[PMIC_NC] = {
	"mar", "mdr", "pc", "sp", "lv", "cpp", "tos", "opc", "h", "g0", "g1",
};

static const char *const mem_names[PMIC_NCU] = { "fetch", "read", "write" };

const char *
pmic_reg_name(uint32_t r)
{
	return r < PMIC_NREG ? reg_names[r] : NULL;
}

const char *
pmic_c_name(int bit)
{
	return bit >= 0 && bit < PMIC_NC ? c_names[bit] : NULL;
}

const char *
pmic_mem_name(int cu)
{
	return cu >= 0 && cu < PMIC_NCU ? mem_names[cu] : NULL;
}

static int
name_eq(const char *name, size_t len, const char *lower)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (lower[i] == '\0' ||
		    tolower((unsigned char)name[i]) != lower[i])
			return 0;
	return lower[i] == '\0';
}

int
pmic_reg_lookup(const char *name, size_t len)
{
	for (int r = 0; r < PMIC_NREG; r++)
		if (name_eq(name, len, reg_names[r]))
			return r;
	return -1;
}

uint32_t
pmic_c_lookup(const char *name, size_t len)
{
	for (int i = 0; i < PMIC_NC; i++)
		if (name_eq(name, len, c_names[i]))
			return UINT32_C(1) << i;
	return 0;
}

int
pmic_alu_inputs(uint32_t alu)
{
	switch (alu) {
	case PMIC_ALU_ZERO:
	case PMIC_ALU_ONE:
	case PMIC_ALU_MINUS1:
		return 0;
	case PMIC_ALU_ADD:
	case PMIC_ALU_ADD1:
	case PMIC_ALU_SUB:
	case PMIC_ALU_AND:
	case PMIC_ALU_OR:
		return 3;
	default:
		return 1;
	}
}

/* ---- the control store --------------------------------------------------- */

void
pmic_store_init(struct pmic_store *cs)
{
	memset(cs, 0, sizeof *cs);
}

int
pmic_store_parse(struct pmic_store *cs, const char *path,
    const uint8_t *data, size_t len, char **cause)
{
	uint32_t magic;

	if (len < 4) {
		*cause = xasprintf("%s: not a .pmic control store (%zu bytes; "
		    "a .pmic file is %d)", path, len, PMIC_FILE_SIZE);
		return -1;
	}
	magic = get_be32(data);
	if (magic == 0x43494D50u) {
		*cause = xasprintf("%s: byte-swapped .pmic magic: the file was "
		    "written little-endian; recompile it with pmic-cc", path);
		return -1;
	}
	if (magic != PMIC_FILE_MAGIC) {
		*cause = xasprintf("%s: not a .pmic control store (magic "
		    "0x%08x, want 0x%08x)", path, magic, PMIC_FILE_MAGIC);
		return -1;
	}
	if (len != PMIC_FILE_SIZE) {
		*cause = xasprintf("%s: a .pmic file is %d bytes (magic and 512 "
		    "entries of 16 bytes), this one is %zu: %s", path,
		    PMIC_FILE_SIZE, len, len < PMIC_FILE_SIZE ? "truncated" :
		    "trailing data");
		return -1;
	}
	pmic_store_init(cs);
	for (int i = 0; i < PMIC_STORE_WORDS; i++) {
		const uint8_t *p = data + 4 + 16 * i;
		struct pmic_mi mi;
		int bad = -1;

		for (int k = 0; k < PMIC_NCU; k++)
			mi.cu[k] = get_be32(p + 4 * k);
		mi.next = get_be32(p + 12);
		for (int k = 0; k < PMIC_NCU && bad < 0; k++)
			if (mi.cu[k] & PMIC_CU_RESERVED)
				bad = k;
		if (bad >= 0 || (mi.next & PMIC_NEXT_RESERVED) ||
		    (!PMIC_TEST(mi.next, PMIC_BIT_PRESENT) &&
		    (mi.next | mi.cu[0] | mi.cu[1] | mi.cu[2]) != 0)) {
			*cause = xasprintf("%s: control-store word 0x%03x is "
			    "malformed (%s): recompile the source with pmic-cc",
			    path, i, bad >= 0 ? "reserved bits of a CU word "
			    "set" : (mi.next & PMIC_NEXT_RESERVED) ? "reserved bits "
			    "of the next-address word set" : "fields set in "
			    "an absent word");
			return -1;
		}
		cs->mi[i] = mi;
	}
	return 0;
}

int
pmic_store_load_file(struct pmic_store *cs, const char *path, char **cause)
{
	uint8_t *data;
	size_t len;
	int rc;

	if (read_file(path, &data, &len, cause) != 0)
		return -1;
	rc = pmic_store_parse(cs, path, data, len, cause);
	free(data);
	return rc;
}

void
pmic_store_write(const struct pmic_store *cs, struct buf *out)
{
	buf_put_be32(out, PMIC_FILE_MAGIC);
	for (int i = 0; i < PMIC_STORE_WORDS; i++) {
		for (int k = 0; k < PMIC_NCU; k++)
			buf_put_be32(out, cs->mi[i].cu[k]);
		buf_put_be32(out, cs->mi[i].next);
	}
}

/* ---- disassembler ------------------------------------------------------- */

static void
put_rvalue(struct buf *b, uint32_t w)
{
	const char *a = pmic_reg_name(pmic_cu_a(w));
	const char *bb = pmic_reg_name(pmic_cu_b(w));

	if (a == NULL)
		a = "?";
	if (bb == NULL)
		bb = "?";
	switch (pmic_cu_alu(w)) {
	case PMIC_ALU_ZERO:	buf_printf(b, "zero"); break;
	case PMIC_ALU_ONE:	buf_printf(b, "one"); break;
	case PMIC_ALU_MINUS1:	buf_printf(b, "-one"); break;
	case PMIC_ALU_A:	buf_printf(b, "%s", a); break;
	case PMIC_ALU_ADD:	buf_printf(b, "%s+%s", a, bb); break;
	case PMIC_ALU_ADD1:	buf_printf(b, "%s+%s+one", a, bb); break;
	case PMIC_ALU_INC:	buf_printf(b, "%s+one", a); break;
	case PMIC_ALU_DEC:	buf_printf(b, "%s-one", a); break;
	case PMIC_ALU_SUB:	buf_printf(b, "%s-%s", a, bb); break;
	case PMIC_ALU_NEG:	buf_printf(b, "-%s", a); break;
	case PMIC_ALU_NOT:	buf_printf(b, "not %s", a); break;
	case PMIC_ALU_AND:	buf_printf(b, "%s and %s", a, bb); break;
	case PMIC_ALU_OR:	buf_printf(b, "%s or %s", a, bb); break;
	case PMIC_ALU_SHL8:	buf_printf(b, "%s<<8", a); break;
	case PMIC_ALU_SRA8:	buf_printf(b, "%s>>8", a); break;
	default:		buf_printf(b, "%s>>1", a); break;
	}
}

void
pmic_disasm(const struct pmic_mi *mi, char *out, size_t n)
{
	struct buf b = { 0 };
	uint32_t nx = mi->next, na = pmic_next_addr(nx);
	int nalu = 0, nmem = 0;

	if (!PMIC_TEST(nx, PMIC_BIT_PRESENT)) {
		snprintf(out, n, "(no micro-instruction)");
		return;
	}
	for (int k = 0; k < PMIC_NCU; k++) {
		uint32_t w = mi->cu[k], c = pmic_cu_c(w);
		int first = 1;

		if (!pmic_cu_en(w))
			continue;
		if (nalu++)
			buf_printf(&b, " // ");
		for (int i = 0; i < PMIC_NC; i++)
			if (c & (UINT32_C(1) << i)) {
				buf_printf(&b, "%s%s", first ? "" : ",",
				    pmic_c_name(i));
				first = 0;
			}
		if (first)
			buf_printf(&b, "%s", k == 0 ? "z" : "-");
		buf_printf(&b, " = ");
		put_rvalue(&b, w);
	}
	for (int k = 0; k < PMIC_NCU; k++)
		if (pmic_cu_mem(mi->cu[k]))
			buf_printf(&b, "%s%s", nmem++ ? " // " :
			    nalu ? " : " : "", pmic_mem_name(k));
	if (nalu || nmem)
		buf_printf(&b, " : ");
	if (PMIC_TEST(nx, PMIC_BIT_JMPC))
		buf_printf(&b, "next %s", na == 0x100 ? "wide" : na == 0 ?
		    "dispatch" : "(mbr0 or ?)");
	else if (PMIC_TEST(nx, PMIC_BIT_JAMN) || PMIC_TEST(nx, PMIC_BIT_JAMZ))
		buf_printf(&b, "next (%s) 0x%03x else 0x%03x",
		    PMIC_TEST(nx, PMIC_BIT_JAMN) ? "n" : "z",
		    na ^ (1u << PMIC_BIT_NEXT_JAM), na);
	else
		buf_printf(&b, "next 0x%03x", na);
	buf_put_u8(&b, 0);
	snprintf(out, n, "%s", (char *)b.data);
	buf_free(&b);
}
