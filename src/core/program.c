/*
 * Loading and writing .ijvm images (doc/ijvm.md section 1), and the symbol and
 * line lookups every front end uses.
 *
 * The loader trusts nothing: every size is checked against what is left
 * of the input before anything is read or allocated, so any byte string
 * yields a program or one message naming the file and the problem.
 * The first two blocks are the constant pool and the text whatever
 * origins they claim (other tools write these fields loosely).
 * Blocks after the first two are only read when they are symbol blocks
 * (origins IJVM_SYM_METHODS and IJVM_SYM_LABELS); unknown blocks are
 * skipped, as the format allows.
 */
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "memmap.h"
#include "program.h"
#include "util.h"

static int
symbol_cmp(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

void
program_sort_symbols(struct symbol *syms, size_t n)
{
	if (n > 1)
		qsort(syms, n, sizeof *syms, symbol_cmp);
}

/* Parse one symbol block: {u32 address; NUL-terminated name}*. */
static int
load_symbols(const char *path, const uint8_t *p, uint32_t size,
    struct symbol **out, size_t *count, const char *what, char **cause)
{
	uint32_t off = 0;
	struct symbol *syms = NULL;
	size_t n = 0;

	while (off < size) {
		const uint8_t *nul;
		uint32_t addr;

		if (size - off < 5) {
			*cause = xasprintf("%s: truncated %s symbol block "
			    "(re-assemble the program)", path, what);
			goto fail;
		}
		addr = get_be32(p + off);
		off += 4;
		nul = memchr(p + off, '\0', size - off);
		if (nul == NULL) {
			*cause = xasprintf("%s: unterminated name in %s symbol "
			    "block (re-assemble the program)", path, what);
			goto fail;
		}
		syms = xreallocarray(syms, n + 1, sizeof *syms);
		syms[n].addr = addr;
		syms[n].name = xstrndup((const char *)p + off,
		    (size_t)(nul - (p + off)));
		n++;
		off += (uint32_t)(nul - (p + off)) + 1;
	}
	if (n)
		qsort(syms, n, sizeof *syms, symbol_cmp);
	*out = syms;
	*count = n;
	return 0;
fail:
	while (n > 0)
		free(syms[--n].name);
	free(syms);
	return -1;
}

int
program_load_ijvm(struct program *prog, const char *path,
    const uint8_t *data, size_t len, char **cause)
{
	struct program p;
	size_t off = 4;
	int block = 0;
	uint32_t magic;

	memset(&p, 0, sizeof p);
	if (len < 4) {
		*cause = xasprintf("%s: too short to be an IJVM binary "
		    "(%zu bytes; a .ijvm file starts with the magic 0x1DEADFAD)",
		    path, len);
		return -1;
	}
	magic = get_be32(data);
	if (magic != IJVM_MAGIC) {
		/* IJVM_MAGIC's bytes in the other order (1D EA DF AD
		 * read little-endian) */
		if (magic == 0xADDFEA1Du)
			*cause = xasprintf("%s: byte-swapped magic 0x%08X: the "
			    "file was written little-endian; IJVM binaries are "
			    "big-endian (re-assemble with ijvm-as)", path, magic);
		else
			*cause = xasprintf("%s: not an IJVM binary (magic "
			    "0x%08X, expected 0x1DEADFAD; assemble .jas sources "
			    "with ijvm-as or give the .jas file itself)", path,
			    magic);
		return -1;
	}
	while (off < len) {
		uint32_t origin, size;
		const uint8_t *body;

		if (len - off < 8) {
			*cause = xasprintf("%s: truncated block header at byte "
			    "%zu (%zu bytes left, a header needs 8)", path, off,
			    len - off);
			goto fail;
		}
		origin = get_be32(data + off);
		size = get_be32(data + off + 4);
		off += 8;
		if (size > len - off) {
			*cause = xasprintf("%s: block %d claims %u bytes but only "
			    "%zu remain in the file (truncated or corrupt)", path,
			    block, size, len - off);
			goto fail;
		}
		body = data + off;
		off += size;
		if (block == 0) {
			if (size % 4 != 0) {
				*cause = xasprintf("%s: constant pool size %u is "
				    "not a multiple of 4", path, size);
				goto fail;
			}
			if (size / 4 > IJVM_MAX_CP) {
				*cause = xasprintf("%s: constant pool of %u words "
				    "is larger than 16-bit indices can reach", path,
				    size / 4);
				goto fail;
			}
			p.cp_size = size / 4;
			p.cp = xcalloc(p.cp_size, sizeof *p.cp);
			for (uint32_t i = 0; i < p.cp_size; i++)
				p.cp[i] = (int32_t)get_be32(body + 4 * i);
		} else if (block == 1) {
			if (size > IJVM_MAX_TEXT) {
				*cause = xasprintf("%s: text of %u bytes is too "
				    "large (at most %u)", path, size, IJVM_MAX_TEXT);
				goto fail;
			}
			p.text_size = size;
			p.text = xmalloc(size);
			memcpy(p.text, body, size);
		} else if (origin == IJVM_SYM_METHODS && p.methods == NULL) {
			if (load_symbols(path, body, size, &p.methods,
			    &p.nmethods, "method", cause) != 0)
				goto fail;
		} else if (origin == IJVM_SYM_LABELS && p.labels == NULL) {
			if (load_symbols(path, body, size, &p.labels,
			    &p.nlabels, "label", cause) != 0)
				goto fail;
		}
		block++;
	}
	if (block < 2) {
		*cause = xasprintf("%s: %s block missing (a .ijvm file holds a "
		    "constant pool block, then a text block)", path,
		    block == 0 ? "constant pool" : "text");
		goto fail;
	}
	p.path = xstrdup(path);
	p.main_nlocals = program_main_nlocals(&p);
	*prog = p;
	return 0;
fail:
	program_free(&p);
	return -1;
}

static void
put_symbols(struct buf *b, uint32_t origin, const struct symbol *syms,
    size_t n)
{
	struct buf body = { 0 };

	for (size_t i = 0; i < n; i++) {
		buf_put_be32(&body, syms[i].addr);
		buf_put(&body, syms[i].name, strlen(syms[i].name) + 1);
	}
	buf_put_be32(b, origin);
	buf_put_be32(b, (uint32_t)body.len);
	buf_put(b, body.data, body.len);
	buf_free(&body);
}

void
program_write_ijvm(const struct program *prog, int with_symbols,
    uint8_t **data, size_t *len)
{
	struct buf b = { 0 };

	buf_put_be32(&b, IJVM_MAGIC);
	buf_put_be32(&b, MM_CP_BYTE);
	buf_put_be32(&b, prog->cp_size * 4);
	for (uint32_t i = 0; i < prog->cp_size; i++)
		buf_put_be32(&b, (uint32_t)prog->cp[i]);
	buf_put_be32(&b, 0);
	buf_put_be32(&b, prog->text_size);
	buf_put(&b, prog->text, prog->text_size);
	if (with_symbols) {
		put_symbols(&b, IJVM_SYM_METHODS, prog->methods,
		    prog->nmethods);
		put_symbols(&b, IJVM_SYM_LABELS, prog->labels, prog->nlabels);
	}
	*data = b.data;
	*len = b.len;
}

void
program_free(struct program *prog)
{
	for (size_t i = 0; i < prog->nmethods; i++)
		free(prog->methods[i].name);
	for (size_t i = 0; i < prog->nlabels; i++)
		free(prog->labels[i].name);
	free(prog->methods);
	free(prog->labels);
	free(prog->lines);
	free(prog->source);
	free(prog->text);
	free(prog->cp);
	free(prog->path);
	memset(prog, 0, sizeof *prog);
}

/*
 * Decode the instruction at addr with the built-in table: its size
 * (WIDE prefix included) or 0 when it runs past the text or is unknown.
 * Sets *local to the local index it names, or -1.
 */
static uint32_t
scan_insn(const struct program *prog, uint32_t addr, int32_t *local,
    int32_t *cpidx)
{
	const struct ijvm_opinfo *info;
	int wide = 0;
	uint32_t a = addr, size;

	*local = -1;
	*cpidx = -1;
	if (a >= prog->text_size)
		return 0;
	/* WIDE before an instruction it cannot widen is a one-byte
	 * instruction of its own (it faults when run), as the disassembler
	 * reads it: stopping the scan there missed the locals after it,
	 * and the disassembly then used undeclared ones (found by
	 * tests/fuzz/fuzz-ijvm) */
	if (prog->text[a] == OP_WIDE && a + 1 < prog->text_size) {
		const struct ijvm_opinfo *next = ijvm_builtin(prog->text[a + 1]);

		if (next != NULL && next->noperands > 0 &&
		    next->kind[0] == OPK_VARNUM) {
			wide = 1;
			a++;
		}
	}
	info = ijvm_builtin(prog->text[a]);
	if (info == NULL)
		return 0;
	size = (uint32_t)ijvm_insn_size(info, wide);
	if (size > prog->text_size - a)
		return 0;
	if (info->kind[0] == OPK_VARNUM)
		*local = wide ? get_be16(prog->text + a + 1) :
		    prog->text[a + 1];
	if (info->opcode == OP_INVOKEVIRTUAL)
		*cpidx = get_be16(prog->text + a + 1);
	return size + (uint32_t)wide;
}

uint32_t
program_main_end(const struct program *prog)
{
	uint32_t end = prog->text_size, addr = 0, size;
	int32_t local, cpidx;

	/* Symbols say where the first method starts. */
	for (size_t i = 0; i < prog->nmethods; i++)
		if (prog->methods[i].addr > 0 &&
		    prog->methods[i].addr < end)
			end = prog->methods[i].addr;
	/* Without them, the lowest method main's code calls bounds main:
	 * methods follow main in the standard layout. */
	while (addr < end && (size = scan_insn(prog, addr, &local,
	    &cpidx)) != 0) {
		if (cpidx >= 0 && (uint32_t)cpidx < prog->cp_size) {
			int32_t target = prog->cp[cpidx];

			if (target > 0 && (uint32_t)target < end)
				end = (uint32_t)target;
		}
		addr += size;
	}
	return end;
}

uint32_t
program_main_nlocals(const struct program *prog)
{
	uint32_t end = program_main_end(prog), addr = 0, size, n = 1;
	int32_t local, cpidx;

	while (addr < end && (size = scan_insn(prog, addr, &local,
	    &cpidx)) != 0) {
		if (local >= 0 && (uint32_t)local + 1 > n)
			n = (uint32_t)local + 1;
		addr += size;
	}
	return n;
}

const struct symbol *
program_method_at(const struct program *prog, uint32_t addr)
{
	const struct symbol *best = NULL;

	for (size_t i = 0; i < prog->nmethods; i++) {
		if (prog->methods[i].addr > addr)
			break;
		best = &prog->methods[i];
	}
	return best;
}

const struct symbol *
program_label_exact(const struct program *prog, uint32_t addr)
{
	for (size_t i = 0; i < prog->nlabels; i++)
		if (prog->labels[i].addr == addr)
			return &prog->labels[i];
	return NULL;
}

int
program_find_symbol(const struct program *prog, const char *name,
    uint32_t *addr)
{
	size_t ln = strlen(name);

	for (size_t i = 0; i < prog->nlabels; i++) {
		const char *full = prog->labels[i].name;
		const char *hash = strchr(full, '#');

		if (strcmp(full, name) == 0 ||
		    (hash != NULL && strlen(hash + 1) == ln &&
		    strcmp(hash + 1, name) == 0)) {
			*addr = prog->labels[i].addr;
			return 0;
		}
	}
	for (size_t i = 0; i < prog->nmethods; i++) {
		if (strcmp(prog->methods[i].name, name) == 0) {
			/* a method's code starts after its 4-byte header */
			*addr = prog->methods[i].addr +
			    (prog->methods[i].addr == 0 ? 0 : 4);
			return 0;
		}
	}
	return -1;
}

uint32_t
program_line_at(const struct program *prog, uint32_t addr)
{
	size_t lo = 0, hi = prog->nlines;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (prog->lines[mid].addr == addr)
			return prog->lines[mid].line;
		if (prog->lines[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}
