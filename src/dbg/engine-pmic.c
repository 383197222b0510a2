/*
 * The PMIC C simulator behind the engine interface (see engine-pmic.h),
 * built as engine-mic.c is: memory is the machine's own, a run steps
 * cycles (pmic_step) and checks the stop conditions after each.
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

#include "engine-pmic.h"
#include "pmc.h"
#include "ijvm.h"
#include "ref.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif
#ifndef MICDB_PKGDATADIR
#define MICDB_PKGDATADIR "/usr/local/share/micdb"
#endif

struct engine_pmic {
	struct pmic_state	 st;
	uint8_t			*seen;     /* per core: fault already reported */
};

struct pmic_state *
engine_pmic_state(struct engine *e)
{
	return &((struct engine_pmic *)e->impl)->st;
}

static void
pmic_step_fn(void *arg, struct machine *m, const struct ref_mask *mask,
    struct ref_summary *sum)
{
	pmic_step(arg, m, mask, sum);
}

static int
pmic_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct engine_pmic *em = e->impl;

	(void)cause;
	return engine_host_run(e, r, stop, pmic_step_fn, &em->st, em->seen,
	    ENGINE_BP_ON_MPC);
}

static int
pmic_nothing(struct engine *e, char **cause)
{
	(void)e;
	(void)cause;
	return 0;
}

static void
pmic_add_input(struct engine *e, uint32_t core, const uint8_t *data,
    size_t len)
{
	machine_add_input(e->m, core, data, len);
}

static void
pmic_free(struct engine *e)
{
	struct engine_pmic *em = e->impl;

	if (em != NULL) {
		pmic_state_free(&em->st);
		free(em->seen);
		free(em);
	}
	free(e->stop_cores);
	free(e->stop_bps);
	memset(e, 0, sizeof *e);
}

static int
pmic_at_boundary_op(struct engine *e, uint32_t core)
{
	return pmic_at_boundary(engine_pmic_state(e), e->m, core);
}

static const struct engine_ops pmic_ops = {
	.name = "pmic",
	.run = pmic_run,
	.read_words = engine_host_read_words,
	.write_word = engine_host_write_word,
	.push_cores = pmic_nothing,
	.sync_memory = pmic_nothing,
	.add_input = pmic_add_input,
	.at_boundary = pmic_at_boundary_op,
	.free = pmic_free,
};

int
engine_pmic_create(struct engine *e, struct machine *m,
    const struct pmic_store *cs, char **cause)
{
	struct engine_pmic *em;

	(void)cause;
	memset(e, 0, sizeof *e);
	em = xcalloc(1, sizeof *em);
	pmic_state_init(&em->st, m, cs);
	em->seen = xcalloc(m->cfg.ncores, 1);
	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *core = &m->cores[c];

		/* Faults from before (another level) are not news. */
		if (core->status == CORE_ERROR)
			em->seen[c] = 1;
		if (core->steps == 0 && core->cycles == 0 &&
		    core->status == CORE_RUNNING)
			pmic_start_core(&em->st, m, c);
		else
			pmic_enter(&em->st, m, c);
	}
	e->ops = &pmic_ops;
	e->m = m;
	e->impl = em;
	return 0;
}

int
engine_pmic_leave_all(struct engine *e, char **cause)
{
	struct engine_pmic *em = e->impl;
	struct machine *m = e->m;

	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *core = &m->cores[c];

		if ((core->status == CORE_RUNNING ||
		    core->status == CORE_WAITING) &&
		    !pmic_at_boundary(&em->st, m, c)) {
			*cause = xasprintf("core %u is inside an instruction "
			    "(MPC 0x%03x): run it to the next boundary first",
			    c, (unsigned)core->mpc);
			return -1;
		}
	}
	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		(void)pmic_leave(&em->st, m, c);
	return 0;
}

/* ---- microcode files ----------------------------------------------------- */

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

int
engine_pmic_load_microcode(const char *path, struct pmic_store *cs,
    struct mal_syms *syms, char **cause)
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
	if (magic == PMIC_FILE_MAGIC || magic == 0x43494D50u ||
	    has_suffix(path, ".pmic")) {
		char *sympath, *ignored = NULL;
		struct mal_syms s;

		rc = pmic_store_parse(cs, path, data, len, cause);
		free(data);
		if (rc != 0 || syms == NULL)
			return rc;
		/* Symbols, if pmic-cc -s left them next to the store. */
		sympath = has_suffix(path, ".pmic") ?
		    xasprintf("%.*s.sym", (int)(strlen(path) - 5), path) :
		    xasprintf("%s.sym", path);
		if (access(sympath, R_OK) == 0 &&
		    mal_syms_load_file(&s, sympath, &ignored) == 0)
			*syms = s;
		free(ignored);
		free(sympath);
		return 0;
	}
	rc = pmc_compile(path, (const char *)data, len, cs,
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
engine_pmic_default_microcode(void)
{
	const char *env = getenv("MICDB_MICROCODE_DIR");
	char *exe, *src, *installed;
	int in_tree = 0;
	struct stat sb;

	if (env != NULL && *env != '\0')
		return xasprintf("%s/pmic.pm", env);
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
	installed = xasprintf("%s/microcode/pmic.pm", MICDB_PKGDATADIR);
	if (!in_tree && stat(installed, &sb) == 0)
		return installed;
	free(installed);
	src = xasprintf("%s/microcode/pmic.pm", MICDB_SRCDIR);
	if (in_tree || stat(src, &sb) == 0)
		return src;
	free(src);
	return xasprintf("%s/microcode/pmic.pm", MICDB_PKGDATADIR);
}
