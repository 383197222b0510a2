/*
 * Where a micro level's microprogram comes from (microcode.h): a control
 * store file written by mic1-as or pmic-cc (.mic1, .pmic, recognised by
 * its magic or its suffix, with the symbols of a sibling FILE.sym when
 * there is one), or a source (.mal, .pm) translated now by the level's
 * own translator; by default the microprogram installed with micdb, or
 * the source tree's when micdb runs from the build tree.
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

#include "mal.h"
#include "microcode.h"
#include "pmc.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif
#ifndef MICDB_PKGDATADIR
#define MICDB_PKGDATADIR "/usr/local/share/micdb"
#endif

/* A control-store file format and the translator of its source. */
struct format {
	uint32_t	 magic, magic_swapped;
	const char	*suffix;        /* ".mic1" */
	const char	*source;        /* the default microprogram's file */
	const char	*source_suffix; /* ".mal" */
	const char	*machine;       /* "Mic-1", for messages */
	enum level	 level;         /* parse and translate pick by it */
};

static const struct format formats[NLEVEL];

/* Is the file (its name, or a control store's magic) another micro
 * level's?  Its translator would call every line of it an error,
 * hundreds of lines where one says what to do. */
static const struct format *
other_level(const struct format *f, const char *path, uint32_t magic)
{
	const struct format *o = &formats[f->level == LEVEL_PMIC ?
	    LEVEL_MIC : LEVEL_PMIC];

	if (magic == f->magic || magic == f->magic_swapped ||
	    ends_with(path, f->suffix) || ends_with(path, f->source_suffix))
		return NULL;
	if (magic == o->magic || magic == o->magic_swapped ||
	    ends_with(path, o->suffix) || ends_with(path, o->source_suffix))
		return o;
	return NULL;
}

/* A control store file of the format's level into cs. */
static int
parse(const struct format *f, void *cs, const char *path,
    const uint8_t *data, size_t len, char **cause)
{
	return f->level == LEVEL_PMIC ?
	    pmic_store_parse(cs, path, data, len, cause) :
	    mic1_store_parse(cs, path, data, len, cause);
}

/* The level's translator: MAL (whose warnings go to warns) or PMIC (none:
 * warns stays empty). */
static int
translate(enum level level, const char *path, const char *src, size_t len,
    void *cs, struct mal_syms *syms, struct mal_errors *errs,
    struct mal_errors *warns)
{
	if (level == LEVEL_PMIC) {
		memset(warns, 0, sizeof *warns);
		return pmc_compile(path, src, len, cs, syms, errs);
	}
	return mal_assemble_warn(path, src, len, cs, syms, errs, warns);
}

static int
load_file(const struct format *f, const char *path, void *cs,
    struct mal_syms *syms, char **cause)
{
	struct mal_errors errs, warns;
	struct mal_syms tmp;
	const struct format *o;
	uint8_t *data;
	size_t len;
	uint32_t magic;
	int rc;

	if (syms != NULL)
		memset(syms, 0, sizeof *syms);
	if (read_file(path, &data, &len, cause) != 0)
		return -1;
	magic = len >= 4 ? get_be32(data) : 0;
	if ((o = other_level(f, path, magic)) != NULL) {
		*cause = xasprintf("%s is a %s microprogram: the %s level "
		    "takes a %s source or control store (%s, %s); use --level "
		    "%s for this one", path, o->machine,
		    level_name(f->level), f->machine, f->source_suffix,
		    f->suffix, level_name(o->level));
		free(data);
		return -1;
	}
	if (magic == f->magic || magic == f->magic_swapped ||
	    ends_with(path, f->suffix)) {
		size_t k = strlen(f->suffix);
		char *sympath, *ignored = NULL;
		struct mal_syms s;

		rc = parse(f, cs, path, data, len, cause);
		free(data);
		if (rc != 0 || syms == NULL)
			return rc;
		/* Symbols, if the translator's -s left them next to the
		 * store. */
		sympath = ends_with(path, f->suffix) ?
		    xasprintf("%.*s.sym", (int)(strlen(path) - k), path) :
		    xasprintf("%s.sym", path);
		if (access(sympath, R_OK) == 0 &&
		    mal_syms_load_file(&s, sympath, &ignored) == 0) {
			*syms = s;
			/* a .mic1 does not record where Main1 is; its
			 * symbols do */
			if (f->level == LEVEL_MIC)
				((struct mic1_store *)cs)->main1 = s.main1;
		}
		free(ignored);
		free(sympath);
		return 0;
	}
	rc = translate(f->level, path, (const char *)data, len, cs,
	    syms ? syms : &tmp, &errs, &warns);
	free(data);
	mal_errors_free(&warns);
	if (rc == 0) {
		if (syms == NULL)
			mal_syms_free(&tmp);
		return 0;
	}
	*cause = mal_errors_join(&errs);
	return -1;
}

static const struct format formats[NLEVEL] = {
	[LEVEL_MIC] = {
		.magic = MIC1_FILE_MAGIC,
		.magic_swapped = 0x78563412u,
		.suffix = ".mic1",
		.source = "mic1.mal",
		.source_suffix = ".mal",
		.machine = "Mic-1",
		.level = LEVEL_MIC,
	},
	[LEVEL_PMIC] = {
		.magic = PMIC_FILE_MAGIC,
		.magic_swapped = 0x43494D50u,
		.suffix = ".pmic",
		.source = "pmic.pm",
		.source_suffix = ".pm",
		.machine = "PMIC",
		.level = LEVEL_PMIC,
	},
};

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
data_path(const char *rel)
{
	char *exe, *src, *installed;
	int in_tree = 0;
	struct stat sb;

	/* Run from the build tree (an in-tree build puts the binaries
	 * under the source tree): the files being edited there. */
	src = realpath(MICDB_SRCDIR, NULL);
	if ((exe = exe_dir()) != NULL && src != NULL) {
		size_t k = strlen(src);

		in_tree = strncmp(exe, src, k) == 0 &&
		    (exe[k] == '/' || exe[k] == '\0');
	}
	free(exe);
	free(src);
	installed = xasprintf("%s/%s", MICDB_PKGDATADIR, rel);
	if (!in_tree && stat(installed, &sb) == 0)
		return installed;
	free(installed);
	src = xasprintf("%s/%s", MICDB_SRCDIR, rel);
	if (in_tree || stat(src, &sb) == 0)
		return src;
	free(src);
	return xasprintf("%s/%s", MICDB_PKGDATADIR, rel);
}

char *
microcode_default_path(enum level level)
{
	const char *env = getenv("MICDB_MICROCODE_DIR");
	char *rel, *path;

	if (env != NULL && *env != '\0')
		return xasprintf("%s/%s", env, formats[level].source);
	rel = xasprintf("microcode/%s", formats[level].source);
	path = data_path(rel);
	free(rel);
	return path;
}

int
microcode_load(struct microcode *mc, enum level level, const char *path,
    char **cause)
{
	void *cs;

	memset(mc, 0, sizeof *mc);
	mc->level = level;
	if (level != LEVEL_MIC && level != LEVEL_PMIC) {
		*cause = xasprintf("the %s level has no microprogram",
		    level_name(level));
		return -1;
	}
	cs = level == LEVEL_MIC ? (void *)&mc->cs : (void *)&mc->pcs;
	mc->path = path != NULL ? xstrdup(path) :
	    microcode_default_path(level);
	if (load_file(&formats[level], mc->path, cs, &mc->syms,
	    cause) != 0) {
		free(mc->path);
		mc->path = NULL;
		return -1;
	}
	mc->loaded = 1;
	return 0;
}

int
microcode_translate(enum level level, const char *path, const char *src,
    size_t len, struct buf *store, struct buf *listing,
    struct mal_syms *syms, struct mal_errors *errs, struct mal_errors *warns)
{
	struct microcode mc;

	memset(&mc, 0, sizeof mc);
	if (translate(level, path, src, len, level == LEVEL_PMIC ?
	    (void *)&mc.pcs : (void *)&mc.cs, syms, errs, warns) != 0)
		return -1;
	if (level == LEVEL_PMIC) {
		pmic_store_write(&mc.pcs, store);
		pmc_listing(&mc.pcs, syms, listing);
	} else {
		mic1_store_write(&mc.cs, store);
		mal_listing(&mc.cs, syms, listing);
	}
	return 0;
}

const void *
microcode_store(const struct microcode *mc)
{
	return mc->level == LEVEL_MIC ? (const void *)&mc->cs :
	    (const void *)&mc->pcs;
}

void
microcode_free(struct microcode *mc)
{
	if (mc->loaded)
		mal_syms_free(&mc->syms);
	free(mc->path);
	memset(mc, 0, sizeof *mc);
}
