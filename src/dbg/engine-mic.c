/*
 * The Mic-1 C simulator behind the engine interface (see engine-mic.h),
 * and the body every host micro-level engine shares (engine-pmic.c is
 * the PMIC level's descriptor over it).
 *
 * Like engine-ref.c, memory is the machine's own, so reads and writes are
 * direct and there is nothing to synchronise; a run steps micro-cycles
 * (mic1_step) and checks the stop conditions after every one of them, so
 * that every stop is a consistent cut in micro-steps.
 */
/* realpath, readlink, access: POSIX with XSI, not C11 (the curses flags
 * may define it already for the whole of micdb). */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine-mic.h"
#include "ijvm.h"
#include "ref.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif
#ifndef MICDB_PKGDATADIR
#define MICDB_PKGDATADIR "/usr/local/share/micdb"
#endif

/* ---- the micro engine body, shared by the micro levels ------------------ */

struct engine_micro {
	const struct engine_micro_level	*lv;
	void				*st;       /* lv->state_size bytes */
	uint8_t				*seen;     /* per core: fault reported */
};

void *
engine_micro_state(struct engine *e)
{
	return ((struct engine_micro *)e->impl)->st;
}

int
engine_micro_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct engine_micro *em = e->impl;

	(void)cause;
	return engine_host_run(e, r, stop, em->lv->step, em->st, em->seen,
	    ENGINE_BP_ON_MPC);
}

/* push_cores and sync_memory: memory and registers are the machine's
 * own, there is nothing to send. */
int
engine_micro_nothing(struct engine *e, char **cause)
{
	(void)e;
	(void)cause;
	return 0;
}

void
engine_micro_add_input(struct engine *e, uint32_t core, const uint8_t *data,
    size_t len)
{
	machine_add_input(e->m, core, data, len);
}

void
engine_micro_free(struct engine *e)
{
	struct engine_micro *em = e->impl;

	if (em != NULL) {
		em->lv->state_free(em->st);
		free(em->st);
		free(em->seen);
		free(em);
	}
	free(e->stop_cores);
	free(e->stop_bps);
	memset(e, 0, sizeof *e);
}

int
engine_micro_save(struct engine *e, void *out, size_t *bytes, char **cause)
{
	struct engine_micro *em = e->impl;
	void *side = em->lv->side(em->st, bytes);

	(void)cause;
	if (out != NULL)
		memcpy(out, side, *bytes);
	return 0;
}

int
engine_micro_load(struct engine *e, const void *side, char **cause)
{
	struct engine_micro *em = e->impl;
	size_t bytes;
	void *st = em->lv->side(em->st, &bytes);

	(void)cause;
	if (side != NULL)
		memcpy(st, side, bytes);
	for (uint32_t c = 0; c < e->m->cfg.ncores; c++)
		em->seen[c] = e->m->cores[c].status == CORE_ERROR;
	return 0;
}

int
engine_micro_at_boundary(struct engine *e, uint32_t core)
{
	struct engine_micro *em = e->impl;

	return em->lv->at_boundary(em->st, e->m, core);
}

int
engine_micro_create(struct engine *e, const struct engine_micro_level *lv,
    struct machine *m, const void *cs, char **cause)
{
	struct engine_micro *em;

	(void)cause;
	memset(e, 0, sizeof *e);
	em = xcalloc(1, sizeof *em);
	em->lv = lv;
	em->st = xcalloc(1, lv->state_size);
	lv->state_init(em->st, m, cs);
	em->seen = xcalloc(m->cfg.ncores, 1);
	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *core = &m->cores[c];

		/* Faults from before (another level) are not news. */
		if (core->status == CORE_ERROR)
			em->seen[c] = 1;
		if (core->steps == 0 && core->cycles == 0 &&
		    core->status == CORE_RUNNING)
			lv->start_core(em->st, m, c);
		else
			lv->enter(em->st, m, c);
	}
	e->ops = lv->ops;
	e->m = m;
	e->impl = em;
	return 0;
}

int
engine_micro_leave_all(struct engine *e, char **cause)
{
	struct engine_micro *em = e->impl;
	struct machine *m = e->m;

	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *core = &m->cores[c];

		if ((core->status == CORE_RUNNING ||
		    core->status == CORE_WAITING) &&
		    !em->lv->at_boundary(em->st, m, c)) {
			*cause = xasprintf("core %u is inside an instruction "
			    "(MPC 0x%03x): run it to the next boundary first",
			    c, (unsigned)core->mpc);
			return -1;
		}
	}
	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		(void)em->lv->leave(em->st, m, c);
	return 0;
}

/* ---- the Mic-1 level ----------------------------------------------------- */

static void
mic_init(void *st, const struct machine *m, const void *cs)
{
	mic1_state_init(st, m, cs);
}

static void
mic_fini(void *st)
{
	mic1_state_free(st);
}

static void
mic_start(void *st, struct machine *m, uint32_t core)
{
	mic1_start_core(st, m, core);
}

static void
mic_enter(void *st, struct machine *m, uint32_t core)
{
	mic1_enter(st, m, core);
}

static int
mic_leave(void *st, struct machine *m, uint32_t core)
{
	return mic1_leave(st, m, core);
}

static int
mic_boundary(const void *st, const struct machine *m, uint32_t core)
{
	return mic1_at_boundary(st, m, core);
}

static void
mic_step(void *st, struct machine *m, const struct ref_mask *mask,
    struct ref_summary *sum)
{
	mic1_step(st, m, mask, sum);
}

static const struct engine_ops mic_ops = ENGINE_MICRO_OPS("mic");

static void *
mic_side(void *st, size_t *bytes)
{
	struct mic1_state *ms = st;

	*bytes = (size_t)ms->ncores * sizeof *ms->core;
	return ms->core;
}

static const struct engine_micro_level mic_level = {
	.ops = &mic_ops,
	.state_size = sizeof(struct mic1_state),
	.state_init = mic_init,
	.state_free = mic_fini,
	.start_core = mic_start,
	.enter = mic_enter,
	.leave = mic_leave,
	.at_boundary = mic_boundary,
	.step = mic_step,
	.side = mic_side,
};

int
engine_mic_create(struct engine *e, struct machine *m,
    const struct mic1_store *cs, char **cause)
{
	return engine_micro_create(e, &mic_level, m, cs, cause);
}

struct mic1_state *
engine_mic_state(struct engine *e)
{
	return engine_micro_state(e);
}

int
engine_mic_leave_all(struct engine *e, char **cause)
{
	return engine_micro_leave_all(e, cause);
}

/* ---- microcode files ----------------------------------------------------- */

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

int
engine_micro_load_microcode(const struct engine_micro_format *f,
    const char *path, void *cs, struct mal_syms *syms, char **cause)
{
	struct mal_errors errs;
	struct mal_syms tmp;
	struct buf b = { 0 };
	uint8_t *data;
	size_t len;
	uint32_t magic;
	int rc;

	if (syms != NULL)
		memset(syms, 0, sizeof *syms);
	if (read_file(path, &data, &len, cause) != 0)
		return -1;
	magic = len >= 4 ? get_be32(data) : 0;
	if (magic == f->magic || magic == f->magic_swapped ||
	    has_suffix(path, f->suffix)) {
		size_t k = strlen(f->suffix);
		char *sympath, *ignored = NULL;
		struct mal_syms s;

		rc = f->parse(cs, path, data, len, cause);
		free(data);
		if (rc != 0 || syms == NULL)
			return rc;
		/* Symbols, if the translator's -s left them next to the
		 * store. */
		sympath = has_suffix(path, f->suffix) ?
		    xasprintf("%.*s.sym", (int)(strlen(path) - k), path) :
		    xasprintf("%s.sym", path);
		if (access(sympath, R_OK) == 0 &&
		    mal_syms_load_file(&s, sympath, &ignored) == 0) {
			*syms = s;
			if (f->syms_loaded != NULL)
				f->syms_loaded(cs, &s);
		}
		free(ignored);
		free(sympath);
		return 0;
	}
	rc = f->translate(path, (const char *)data, len, cs,
	    syms ? syms : &tmp, &errs);
	free(data);
	if (rc == 0) {
		if (syms == NULL)
			mal_syms_free(&tmp);
		return 0;
	}
	for (size_t i = 0; i < errs.count; i++)
		buf_printf(&b, "%s%s", i ? "\n" : "", errs.msg[i]);
	buf_put_u8(&b, 0);
	*cause = (char *)b.data;
	mal_errors_free(&errs);
	return -1;
}

static int
mic_parse(void *cs, const char *path, const uint8_t *data, size_t len,
    char **cause)
{
	return mic1_store_parse(cs, path, data, len, cause);
}

static int
mic_translate(const char *path, const char *src, size_t len, void *cs,
    struct mal_syms *syms, struct mal_errors *errs)
{
	return mal_assemble(path, src, len, cs, syms, errs);
}

/* A .mic1 does not record where Main1 is; its symbols do. */
static void
mic_syms_loaded(void *cs, const struct mal_syms *s)
{
	((struct mic1_store *)cs)->main1 = s->main1;
}

int
engine_mic_load_microcode(const char *path, struct mic1_store *cs,
    struct mal_syms *syms, char **cause)
{
	static const struct engine_micro_format mic1_format = {
		.magic = MIC1_FILE_MAGIC,
		.magic_swapped = 0x78563412u,
		.suffix = ".mic1",
		.parse = mic_parse,
		.translate = mic_translate,
		.syms_loaded = mic_syms_loaded,
	};

	return engine_micro_load_microcode(&mic1_format, path, cs, syms,
	    cause);
}

/* The directory of the running executable, NULL if unknown. */
static char *
exe_dir(void)
{
	char buf[4096];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

char *
engine_micro_default_microcode(const char *file)
{
	const char *env = getenv("MICDB_MICROCODE_DIR");
	char *exe, *src, *installed;
	int in_tree = 0;
	struct stat sb;

	if (env != NULL && *env != '\0')
		return xasprintf("%s/%s", env, file);
	/* Run from the build tree (an in-tree build puts the binaries
	 * under the source tree): the microcode being edited there. */
	src = realpath(MICDB_SRCDIR, NULL);
	if ((exe = exe_dir()) != NULL && src != NULL) {
		size_t k = strlen(src);

		in_tree = strncmp(exe, src, k) == 0 &&
		    (exe[k] == '/' || exe[k] == '\0');
	}
	free(exe);
	free(src);
	installed = xasprintf("%s/microcode/%s", MICDB_PKGDATADIR, file);
	if (!in_tree && stat(installed, &sb) == 0)
		return installed;
	free(installed);
	src = xasprintf("%s/microcode/%s", MICDB_SRCDIR, file);
	if (in_tree || stat(src, &sb) == 0)
		return src;
	free(src);
	return xasprintf("%s/microcode/%s", MICDB_PKGDATADIR, file);
}

char *
engine_mic_default_microcode(void)
{
	return engine_micro_default_microcode("mic1.mal");
}
