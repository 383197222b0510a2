/*
 * Fuzz smoke test of everything that reads untrusted input: the .ijvm
 * loader, the .jas assembler, the configuration-file parser, the
 * disassembler and the reference interpreter running whatever loads.
 * Inputs are random bytes and mutations of the sample programs, from
 * fixed seeds so a failure reproduces.  Built with ASan/UBSan: the test
 * is that nothing crashes, leaks or hits undefined behaviour, and that
 * every rejection comes with a message.  FUZZ_ITERS=N (for a longer run
 * by hand; make check takes the default) tries N inputs of each kind
 * instead of 3,000.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "dis.h"
#include "ref.h"
#include "tap.h"

struct rng { uint64_t s; };

static uint32_t
rnd(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (uint32_t)(r->s >> 16);
}

struct corpus {
	struct buf	*item;
	size_t		 n;
};

static void
corpus_add(struct corpus *c, const void *p, size_t n)
{
	c->item = xreallocarray(c->item, c->n + 1, sizeof *c->item);
	memset(&c->item[c->n], 0, sizeof c->item[c->n]);
	buf_put(&c->item[c->n], p, n);
	c->n++;
}

/* Sample sources and their binaries. */
static void
load_samples(const char *dir, struct corpus *jas, struct corpus *bin)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		char *path;
		uint8_t *data, *out;
		size_t len, outlen;
		char *cause = NULL;
		struct program p;
		struct asm_errors errs = { 0 };

		if (n < 5 || strcmp(e->d_name + n - 4, ".jas") != 0)
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (read_file(path, &data, &len, &cause) == 0) {
			corpus_add(jas, data, len);
			if (asm_assemble(path, (char *)data, len, NULL, &p,
			    &errs) == 0) {
				program_write_ijvm(&p, 1, &out, &outlen);
				corpus_add(bin, out, outlen);
				free(out);
				program_free(&p);
			}
			asm_errors_free(&errs);
			free(data);
		}
		free(cause);
		free(path);
	}
	closedir(d);
}

static void
mutate(struct rng *r, struct buf *b)
{
	int rounds = 1 + (int)(rnd(r) % 4);

	for (int i = 0; i < rounds; i++) {
		size_t pos = b->len ? rnd(r) % b->len : 0;

		switch (rnd(r) % 6) {
		case 0:
			if (b->len)
				b->data[pos] ^= (uint8_t)(1u << (rnd(r) % 8));
			break;
		case 1:
			if (b->len)
				b->data[pos] = (uint8_t)rnd(r);
			break;
		case 2:
			b->len = pos;	/* truncate */
			break;
		case 3: {
			uint8_t v = (uint8_t)rnd(r);

			buf_put_u8(b, 0);
			memmove(b->data + pos + 1, b->data + pos,
			    b->len - pos - 1);
			b->data[pos] = v;
			break;
		}
		case 4:
			if (b->len > pos + 4) {
				static const uint8_t big[] = { 0x7F, 0xFF, 0xFF,
				    0xFF };
				memcpy(b->data + pos, big, 4);
			}
			break;
		default:
			if (b->len) {
				size_t from = rnd(r) % b->len;
				size_t n = rnd(r) % 16;

				if (from + n > b->len)
					n = b->len - from;
				{
					uint8_t tmp[16];

					memcpy(tmp, b->data + from, n);
					buf_put(b, tmp, n);
				}
			}
			break;
		}
	}
}

/* Run whatever loaded for a few steps on a small machine. */
static void
exercise(const struct program *p, struct rng *r)
{
	struct machine m;
	struct machine_config cfg = { 1 + rnd(r) % 3, 64, 256, 32 };
	const struct program *progs[1] = { p };
	char *cause = NULL;
	struct buf text = { 0 };
	char line[64];

	if (machine_init(&m, &cfg, progs, 1, NULL, &cause) == 0) {
		machine_add_input(&m, 0, (const uint8_t *)"xyz", 3);
		for (int i = 0; i < 500; i++)
			ref_step(&m, NULL, NULL);
		machine_free(&m);
	} else
		free(cause);
	cause = NULL;
	if (dis_program(p, NULL, &text, &cause) != 0)
		free(cause);
	buf_free(&text);
	for (uint32_t a = 0; a < p->text_size && a < 64; a++)
		dis_insn(p, NULL, a, line, sizeof line);
}

static int
fuzz_loader(struct rng *r, const struct corpus *bin, int iters)
{
	int rejected_with_msg = 0, total_rejected = 0;

	for (int i = 0; i < iters; i++) {
		struct buf b = { 0 };
		struct program p;
		char *cause = NULL;

		if (bin->n == 0 || i % 4 == 0) {
			size_t n = rnd(r) % 200;

			if (rnd(r) % 2)
				buf_put_be32(&b, 0x1DEADFAD);
			for (size_t k = 0; k < n; k++)
				buf_put_u8(&b, (uint8_t)rnd(r));
		} else {
			const struct buf *src = &bin->item[rnd(r) % bin->n];

			buf_put(&b, src->data, src->len);
			mutate(r, &b);
		}
		if (program_load_ijvm(&p, "fuzz.ijvm", b.data, b.len,
		    &cause) == 0) {
			exercise(&p, r);
			program_free(&p);
		} else {
			total_rejected++;
			if (cause != NULL && strlen(cause) > 10)
				rejected_with_msg++;
			free(cause);
		}
		buf_free(&b);
	}
	return total_rejected == rejected_with_msg;
}

static const char *const tokens[] = {
	".main", ".end-main", ".method f(a)", ".end-method", ".var", ".end-var",
	".constant", ".end-constant", ".global", ".end-global", "x:", "GOTO x",
	"BIPUSH 300", "ILOAD 70000", "#print \"a\\x41\"", "'", "\"", "IINC a",
	"INVOKEVIRTUAL f", "LDC_W 0", "WIDE", "\n", "//", "0x", "0b2", "-",
	"\r\n", "\t", " ", "\0",
};

static int
fuzz_assembler(struct rng *r, const struct corpus *jas, int iters)
{
	int ok_msgs = 1;

	for (int i = 0; i < iters; i++) {
		struct buf b = { 0 };
		struct program p;
		struct asm_errors errs = { 0 };

		if (jas->n > 0 && i % 3 != 0) {
			const struct buf *src = &jas->item[rnd(r) % jas->n];

			buf_put(&b, src->data, src->len);
			mutate(r, &b);
		}
		for (int k = (int)(rnd(r) % 6); k > 0; k--) {
			const char *t = tokens[rnd(r) % (sizeof tokens /
			    sizeof *tokens)];
			size_t pos = b.len ? rnd(r) % b.len : 0;
			size_t n = *t ? strlen(t) : 1;
			struct buf c = { 0 };

			buf_put(&c, b.data, pos);
			buf_put(&c, t, n);
			buf_put(&c, b.data + pos, b.len - pos);
			buf_free(&b);
			b = c;
		}
		if (asm_assemble("fuzz.jas", (char *)b.data, b.len, NULL, &p,
		    &errs) == 0) {
			exercise(&p, r);
			program_free(&p);
		} else {
			if (errs.count == 0)
				ok_msgs = 0;
			for (size_t k = 0; k < errs.count; k++)
				if (strncmp(errs.msg[k], "fuzz.jas:", 9) != 0)
					ok_msgs = 0;
		}
		asm_errors_free(&errs);
		buf_free(&b);
	}
	return ok_msgs;
}

static int
fuzz_config(struct rng *r, int iters)
{
	static const char *const words[] = { "0x68", "IMUL", "byte", "varnum",
	    "label", "offset", "index", "const", "global", "bogus", "//", "\n",
	    "0x1FF", "-1", " ", "0x", "\t", "x" };
	int good = 1;

	for (int i = 0; i < iters; i++) {
		struct ijvm_opset set;
		struct buf b = { 0 };
		char *cause = NULL;

		for (int k = (int)(rnd(r) % 12); k > 0; k--) {
			const char *w = words[rnd(r) % (sizeof words /
			    sizeof *words)];

			buf_put(&b, w, strlen(w));
			buf_put_u8(&b, rnd(r) % 3 ? ' ' : '\n');
		}
		ijvm_opset_init(&set);
		if (ijvm_opset_load_config(&set, "f.conf", (char *)b.data,
		    b.len, &cause) != 0) {
			if (cause == NULL || strncmp(cause, "f.conf:", 7) != 0)
				good = 0;
			free(cause);
		}
		ijvm_opset_free(&set);
		buf_free(&b);
	}
	return good;
}

int
main(void)
{
	const char *top = getenv("top_srcdir");
	struct corpus jas = { 0 }, bin = { 0 };
	struct rng r = { 0x9E3779B97F4A7C15ull };
	char *dir = xasprintf("%s/programs", top ? top : ".");
	const char *env = getenv("FUZZ_ITERS");
	char *end = NULL;
	long v = env != NULL ? strtol(env, &end, 10) : 3000;
	int iters = (int)v;

	/* a value that is not a count would fuzz nothing and pass */
	if (env != NULL && (*env == '\0' || *end != '\0' || v < 1 ||
	    v > 100000000)) {
		fprintf(stderr, "test-fuzz: FUZZ_ITERS='%s' is not a count "
		    "from 1 to 100000000; unset it for the default 3000\n",
		    env);
		free(dir);
		return 2;
	}
	load_samples(dir, &jas, &bin);
	ok(jas.n > 0, "found sample programs to mutate (%zu)", jas.n);
	ok(fuzz_loader(&r, &bin, iters),
	    "loader: %d random/mutated images, every rejection explained",
	    iters);
	ok(fuzz_assembler(&r, &jas, iters),
	    "assembler: %d random/mutated sources, errors as file:line", iters);
	ok(fuzz_config(&r, iters), "config parser: %d random files", iters);
	for (size_t i = 0; i < jas.n; i++)
		buf_free(&jas.item[i]);
	for (size_t i = 0; i < bin.n; i++)
		buf_free(&bin.item[i]);
	free(jas.item);
	free(bin.item);
	free(dir);
	return done_testing();
}
