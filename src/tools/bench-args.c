/*
 * What both bench commands (bench.c, bench-debugger.c) take: the items
 * of a comma-separated list, the --cores list, and the OpenCL device
 * they measure, named in their output.  Below both, so that neither
 * calls into the other for it.
 */
#include <stdlib.h>
#include <string.h>

#include "bench-int.h"
#include "ocl.h"
#include "util.h"

/* The next comma-separated item of *p, malloc'd; NULL at the end. */
char *
bench_next_item(const char **p)
{
	const char *s = *p, *e;

	if (*s == '\0')
		return NULL;
	e = strchr(s, ',');
	if (e == NULL)
		e = s + strlen(s);
	*p = *e == ',' ? e + 1 : e;
	return xstrndup(s, (size_t)(e - s));
}

int
bench_parse_list(const char *arg, const struct bench_list *l, uint64_t **v,
    size_t *n, char **cause)
{
	const char *p = arg;
	char *item;
	uint64_t *out = NULL;
	size_t k = 0;
	int bad = 0;

	while (!bad && (item = bench_next_item(&p)) != NULL) {
		unsigned long x = 0;

		bad = !(l->with_auto && strcmp(item, "auto") == 0) &&
		    parse_uint_option(item, 1, l->max, &x) != 0;
		free(item);
		out = xreallocarray(out, k + 1, sizeof *out);
		out[k++] = x;
	}
	if (bad || k == 0 || arg[strlen(arg) - 1] == ',') {
		free(out);
		*cause = xasprintf("bad %s '%s': give %s %lu separated by "
		    "commas, e.g. %s", l->what, arg, l->items, l->max,
		    l->example);
		return -1;
	}
	free(*v);
	*v = out;
	*n = k;
	return 0;
}

int
bench_parse_cores(struct bench_opts *o, const char *arg, char **cause)
{
	static const struct bench_list cores = { "core list",
	    "core counts from 1 to", "1,32,1024", 1ul << 26, 0 };
	uint64_t *v = NULL;

	if (bench_parse_list(arg, &cores, &v, &o->ncores, cause) != 0)
		return -1;
	/* the counts as the results keep them (n < 2^26) */
	free(o->cores);
	o->cores = xreallocarray(NULL, o->ncores, sizeof *o->cores);
	for (size_t i = 0; i < o->ncores; i++)
		o->cores[i] = (uint32_t)v[i];
	free(v);
	return 0;
}

/* ---- device ----------------------------------------------------------- */

int
bench_device_open(struct bench_device *d, const char *sel, char **cause)
{
	struct ocl_devices l;
	const struct ocl_device *od;
	size_t i;

	if (ocl_devices_list(&l, cause) != 0)
		return -1;
	if (ocl_devices_select(&l, sel, &i, cause) != 0) {
		ocl_devices_free(&l);
		return -1;
	}
	od = &l.dev[i];
	d->name = xasprintf("%s / %s", od->platform_name, od->name);
	d->version = xstrdup(od->version);
	d->driver = xstrdup(od->driver);
	d->type = ocl_device_type_name(od->type);
	d->units = od->compute_units;
	d->global_mem = od->global_mem;
	d->max_alloc = od->max_alloc;
	d->max_wg = od->max_wg ? od->max_wg : 1;
	d->is_gpu = (od->type & CL_DEVICE_TYPE_GPU) != 0;
	ocl_devices_free(&l);
	return 0;
}

void
bench_device_free(struct bench_device *d)
{
	free(d->name);
	free(d->version);
	free(d->driver);
}
