/*
 * micdb devices: the OpenCL platforms and devices micdb can use, one line
 * each, with the default (or MICDB_DEVICE's choice) marked.  A command of
 * micdb like run.c's run_main; the listing itself is the device layer's
 * (src/ocl/ocl.h: ocl_devices_list and ocl_devices_select).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "ocl.h"
#include "util.h"

static const char devices_usage[] =
"usage: micdb devices\n"
"List the OpenCL platforms and devices micdb can use.  The device marked\n"
"with * is the default; choose another with --device P:D, --device INDEX,\n"
"--device NAME-PART or the MICDB_DEVICE environment variable.\n";

int
devices_main(int argc, char **argv)
{
	struct ocl_devices l;
	char *cause = NULL;
	const char *why;
	size_t def, sel;
	unsigned last_platform = (unsigned)-1;

	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 ||
		    strcmp(argv[1], "-h") == 0) {
			fputs(devices_usage, stdout);
			return 0;
		}
		fprintf(stderr, "micdb devices: unexpected argument %s\n%s",
		    argv[1], devices_usage);
		return 2;
	}
	if (ocl_devices_list(&l, &cause) != 0) {
		fprintf(stderr, "micdb: %s\n", cause);
		free(cause);
		return 2;
	}
	def = ocl_devices_default(&l);
	/* MICDB_DEVICE moves the mark: show what a run would use. */
	if (ocl_devices_select(&l, NULL, &sel, &cause) != 0) {
		fprintf(stderr, "micdb: %s\n", cause);
		free(cause);
		sel = def;
	}
	for (size_t i = 0; i < l.n; i++) {
		const struct ocl_device *d = &l.dev[i];

		if (d->pindex != last_platform) {
			printf("platform %u: %s\n", d->pindex, d->platform_name);
			last_platform = d->pindex;
		}
		printf("%c %2zu  %u:%u  %-5s  %3u CUs  %8.1f MiB  %s  %s\n",
		    i == sel ? '*' : ' ', i, d->pindex, d->dindex,
		    ocl_device_type_name(d->type), (unsigned)d->compute_units,
		    (double)d->global_mem / (1024.0 * 1024.0), d->version,
		    d->name);
	}
	ocl_devices_free(&l);
	/* a listing cut short by a full disk must not pass for the whole */
	if ((why = stdout_failed()) != NULL) {
		fprintf(stderr, "micdb devices: cannot write the list: %s\n",
		    why);
		return 2;
	}
	return 0;
}
