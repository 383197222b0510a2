/*
 * The OpenCL device layer (see ocl.h): enumeration, selection, kernel
 * sources and builds, error names.
 *
 * A device list is built, used and freed by the caller, so a session can
 * list devices, pick one and go on without any global.  The one state
 * kept is what an engine's set-up would otherwise redo for every engine
 * of the process: one context per device (ocl_shared_context) and the
 * programs built in it (ocl_build), since a build costs the driver a
 * compiler run even when its own cache has the binary (POCL preprocesses
 * the source to find the entry; doc/performance.md section 21.1), and a
 * session's level switch, reverse execution or a test opens many.
 * Every OpenCL failure becomes a message that names the call and the
 * CL_* error, because a bare "-5" tells a user nothing.
 *
 * Kernel sources are data, read at start-up: an edited kernel needs no
 * rebuild of micdb, and an installed micdb finds them under
 * $(pkgdatadir)/kernels with the headers they include (ocl.mk installs
 * them together).  In the build tree the sources and the headers are in
 * their own places (kernels/, src/core/), hence the second -I.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ocl.h"
#include "util.h"

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

static const struct {
	cl_int		 code;
	const char	*name;
} ocl_errors[] = {
#define E(x) { x, #x }
	E(CL_SUCCESS),
	E(CL_DEVICE_NOT_FOUND),
	E(CL_DEVICE_NOT_AVAILABLE),
	E(CL_COMPILER_NOT_AVAILABLE),
	E(CL_MEM_OBJECT_ALLOCATION_FAILURE),
	E(CL_OUT_OF_RESOURCES),
	E(CL_OUT_OF_HOST_MEMORY),
	E(CL_PROFILING_INFO_NOT_AVAILABLE),
	E(CL_MEM_COPY_OVERLAP),
	E(CL_IMAGE_FORMAT_MISMATCH),
	E(CL_IMAGE_FORMAT_NOT_SUPPORTED),
	E(CL_BUILD_PROGRAM_FAILURE),
	E(CL_MAP_FAILURE),
	E(CL_MISALIGNED_SUB_BUFFER_OFFSET),
	E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
	E(CL_COMPILE_PROGRAM_FAILURE),
	E(CL_LINKER_NOT_AVAILABLE),
	E(CL_LINK_PROGRAM_FAILURE),
	E(CL_DEVICE_PARTITION_FAILED),
	E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
	E(CL_INVALID_VALUE),
	E(CL_INVALID_DEVICE_TYPE),
	E(CL_INVALID_PLATFORM),
	E(CL_INVALID_DEVICE),
	E(CL_INVALID_CONTEXT),
	E(CL_INVALID_QUEUE_PROPERTIES),
	E(CL_INVALID_COMMAND_QUEUE),
	E(CL_INVALID_HOST_PTR),
	E(CL_INVALID_MEM_OBJECT),
	E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
	E(CL_INVALID_IMAGE_SIZE),
	E(CL_INVALID_SAMPLER),
	E(CL_INVALID_BINARY),
	E(CL_INVALID_BUILD_OPTIONS),
	E(CL_INVALID_PROGRAM),
	E(CL_INVALID_PROGRAM_EXECUTABLE),
	E(CL_INVALID_KERNEL_NAME),
	E(CL_INVALID_KERNEL_DEFINITION),
	E(CL_INVALID_KERNEL),
	E(CL_INVALID_ARG_INDEX),
	E(CL_INVALID_ARG_VALUE),
	E(CL_INVALID_ARG_SIZE),
	E(CL_INVALID_KERNEL_ARGS),
	E(CL_INVALID_WORK_DIMENSION),
	E(CL_INVALID_WORK_GROUP_SIZE),
	E(CL_INVALID_WORK_ITEM_SIZE),
	E(CL_INVALID_GLOBAL_OFFSET),
	E(CL_INVALID_EVENT_WAIT_LIST),
	E(CL_INVALID_EVENT),
	E(CL_INVALID_OPERATION),
	E(CL_INVALID_GL_OBJECT),
	E(CL_INVALID_BUFFER_SIZE),
	E(CL_INVALID_MIP_LEVEL),
	E(CL_INVALID_GLOBAL_WORK_SIZE),
	E(CL_INVALID_PROPERTY),
	E(CL_INVALID_IMAGE_DESCRIPTOR),
	E(CL_INVALID_COMPILER_OPTIONS),
	E(CL_INVALID_LINKER_OPTIONS),
	E(CL_INVALID_DEVICE_PARTITION_COUNT),
	{ -69, "CL_INVALID_PIPE_SIZE" },
	{ -70, "CL_INVALID_DEVICE_QUEUE" },
	{ -71, "CL_INVALID_SPEC_ID" },
	{ -72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED" },
	{ CL_PLATFORM_NOT_FOUND_KHR, "CL_PLATFORM_NOT_FOUND_KHR" },
#undef E
};

const char *
ocl_error_name(cl_int err)
{
	for (size_t i = 0; i < sizeof ocl_errors / sizeof ocl_errors[0]; i++)
		if (ocl_errors[i].code == err)
			return ocl_errors[i].name;
	return "an unknown OpenCL error";
}

char *
ocl_error(const char *call, cl_int err)
{
	const char *name = ocl_error_name(err);

	if (strncmp(name, "CL_", 3) != 0)
		return xasprintf("%s failed: %s (%d)", call, name, (int)err);
	return xasprintf("%s failed: %s", call, name);
}

char *
ocl_device_failure(const char *call, cl_int err)
{
	char *msg = ocl_error(call, err), *full;

	full = xasprintf("the OpenCL device failed (%s): try again, pick "
	    "another with --device, or use --engine ref", msg);
	free(msg);
	return full;
}

const char *
ocl_device_type_name(cl_device_type type)
{
	if (type & CL_DEVICE_TYPE_GPU)
		return "GPU";
	if (type & CL_DEVICE_TYPE_CPU)
		return "CPU";
	if (type & CL_DEVICE_TYPE_ACCELERATOR)
		return "ACCEL";
	return "OTHER";
}

/* The info query of the device d, or of the platform p when d is NULL. */
static cl_int
get_info(cl_platform_id p, cl_device_id d, cl_uint what, size_t size,
    void *v, size_t *ret)
{
	return d != NULL ? clGetDeviceInfo(d, what, size, v, ret) :
	    clGetPlatformInfo(p, what, size, v, ret);
}

/* A string-valued info query (get_info), malloc'd ("?" when the driver
 * refuses). */
static char *
info_string(cl_platform_id p, cl_device_id d, cl_uint what)
{
	size_t n = 0;
	char *s;

	if (get_info(p, d, what, 0, NULL, &n) != CL_SUCCESS || n == 0)
		return xstrdup("?");
	s = xcalloc(1, n + 1);
	if (get_info(p, d, what, n, s, NULL) != CL_SUCCESS) {
		free(s);
		return xstrdup("?");
	}
	return s;
}

static char *
platform_string(cl_platform_id p, cl_platform_info what)
{
	return info_string(p, NULL, what);
}

static char *
device_string(cl_device_id d, cl_device_info what)
{
	char *s = info_string(NULL, d, what);

	/* Some drivers pad names with spaces. */
	for (size_t i = strlen(s); i > 0 && s[i - 1] == ' '; i--)
		s[i - 1] = '\0';
	return s;
}

static const char no_platform[] =
    "no OpenCL platform found: install pocl-opencl-icd (apt-get install "
    "pocl-opencl-icd) for the CPU, or your GPU's OpenCL driver";

int
ocl_devices_list(struct ocl_devices *l, char **cause)
{
	cl_platform_id *plats = NULL;
	cl_uint np = 0;
	cl_int err;

	memset(l, 0, sizeof *l);
	err = clGetPlatformIDs(0, NULL, &np);
	if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS &&
	    np == 0)) {
		*cause = xasprintf("%s", no_platform);
		return -1;
	}
	if (err != CL_SUCCESS) {
		*cause = ocl_error("clGetPlatformIDs", err);
		return -1;
	}
	plats = xcalloc(np, sizeof *plats);
	if ((err = clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
		free(plats);
		*cause = ocl_error("clGetPlatformIDs", err);
		return -1;
	}
	for (cl_uint p = 0; p < np; p++) {
		cl_device_id *devs;
		cl_uint nd = 0;

		/* A platform without devices is not an error: skip it. */
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL,
		    &nd) != CL_SUCCESS || nd == 0)
			continue;
		devs = xcalloc(nd, sizeof *devs);
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, devs,
		    NULL) != CL_SUCCESS) {
			free(devs);
			continue;
		}
		l->dev = xreallocarray(l->dev, l->n + nd, sizeof *l->dev);
		for (cl_uint d = 0; d < nd; d++) {
			struct ocl_device *o = &l->dev[l->n++];

			memset(o, 0, sizeof *o);
			o->platform = plats[p];
			o->device = devs[d];
			o->pindex = p;
			o->dindex = d;
			o->platform_name = platform_string(plats[p],
			    CL_PLATFORM_NAME);
			o->name = device_string(devs[d], CL_DEVICE_NAME);
			o->version = device_string(devs[d], CL_DEVICE_VERSION);
			o->driver = device_string(devs[d], CL_DRIVER_VERSION);
			clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof o->type,
			    &o->type, NULL);
			clGetDeviceInfo(devs[d], CL_DEVICE_MAX_COMPUTE_UNITS,
			    sizeof o->compute_units, &o->compute_units, NULL);
			clGetDeviceInfo(devs[d], CL_DEVICE_GLOBAL_MEM_SIZE,
			    sizeof o->global_mem, &o->global_mem, NULL);
			clGetDeviceInfo(devs[d], CL_DEVICE_MAX_MEM_ALLOC_SIZE,
			    sizeof o->max_alloc, &o->max_alloc, NULL);
			clGetDeviceInfo(devs[d], CL_DEVICE_MAX_WORK_GROUP_SIZE,
			    sizeof o->max_wg, &o->max_wg, NULL);
		}
		free(devs);
	}
	free(plats);
	if (l->n == 0) {
		*cause = xasprintf("OpenCL platforms were found but no device: "
		    "check the driver installation (clinfo -l shows what "
		    "the loader sees), or install pocl-opencl-icd");
		return -1;
	}
	return 0;
}

void
ocl_devices_free(struct ocl_devices *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->dev[i].platform_name);
		free(l->dev[i].name);
		free(l->dev[i].version);
		free(l->dev[i].driver);
	}
	free(l->dev);
	memset(l, 0, sizeof *l);
}

size_t
ocl_devices_default(const struct ocl_devices *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->dev[i].type & CL_DEVICE_TYPE_GPU)
			return i;
	for (size_t i = 0; i < l->n; i++)
		if (l->dev[i].type & CL_DEVICE_TYPE_CPU)
			return i;
	return 0;
}

/* Case-insensitive strstr. */
static int
contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay != '\0'; hay++) {
		size_t i;

		for (i = 0; i < n; i++)
			if (tolower((unsigned char)hay[i]) !=
			    tolower((unsigned char)needle[i]))
				break;
		if (i == n)
			return 1;
	}
	return n == 0;
}

static int
all_digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

int
ocl_devices_select(const struct ocl_devices *l, const char *sel,
    size_t *index, char **cause)
{
	const char *colon;
	const char *from = "--device";

	if (sel == NULL || *sel == '\0') {
		sel = getenv("MICDB_DEVICE");
		from = "MICDB_DEVICE";
	}
	if (sel == NULL || *sel == '\0') {
		*index = ocl_devices_default(l);
		return 0;
	}
	colon = strchr(sel, ':');
	if (colon != NULL && all_digits(sel, (size_t)(colon - sel)) &&
	    all_digits(colon + 1, strlen(colon + 1))) {
		unsigned long p = strtoul(sel, NULL, 10);
		unsigned long d = strtoul(colon + 1, NULL, 10);

		for (size_t i = 0; i < l->n; i++) {
			if (l->dev[i].pindex == p && l->dev[i].dindex == d) {
				*index = i;
				return 0;
			}
		}
		*cause = xasprintf("%s %s: there is no device %lu on platform "
		    "%lu: run micdb devices to list them", from, sel, d, p);
		return -1;
	}
	if (all_digits(sel, strlen(sel))) {
		unsigned long i = strtoul(sel, NULL, 10);

		if (i < l->n) {
			*index = i;
			return 0;
		}
		if (l->n == 1)
			*cause = xasprintf("%s %s: there is only one device "
			    "(0): run micdb devices to see it", from, sel);
		else
			*cause = xasprintf("%s %s: there are only %zu devices "
			    "(0 to %zu): run micdb devices to list them", from,
			    sel, l->n, l->n - 1);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		char *full = xasprintf("%s / %s", l->dev[i].platform_name,
		    l->dev[i].name);
		int hit = contains_nocase(full, sel);

		free(full);
		if (hit) {
			*index = i;
			return 0;
		}
	}
	*cause = xasprintf("%s %s: no device matches (give P:D, an index or "
	    "part of the name): run micdb devices to list them", from, sel);
	return -1;
}

/* Directory of the running binary, resolved; NULL if unknown. */
static char *
exe_dir(void)
{
	char buf[PATH_MAX], *slash, *real;
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL)
		return NULL;
	*slash = '\0';
	if ((real = realpath(buf, NULL)) == NULL)
		return NULL;
	return real;
}

/* Is dir equal to or below top (both resolved)? */
static int
is_below(const char *dir, const char *top)
{
	size_t n = strlen(top);

	return strncmp(dir, top, n) == 0 && (dir[n] == '\0' || dir[n] == '/');
}

int
ocl_kernel_dir(char **dir, char **options, char **cause)
{
	const char *env = getenv("MICDB_KERNEL_DIR");
	char *exe, *build;

	*dir = *options = NULL;
	if (env != NULL && *env != '\0') {
		*dir = xstrdup(env);
		*options = xasprintf("-I %s", env);
		return 0;
	}
	exe = exe_dir();
	build = realpath(MICDB_BUILDDIR, NULL);
	if (exe != NULL && build != NULL && is_below(exe, build)) {
		/* Kernels are sources: they live in the source tree, which
		 * is the build tree unless this is a VPATH build. */
		*dir = xasprintf("%s/kernels", MICDB_SRCDIR);
		*options = xasprintf("-I %s/kernels -I %s/src/core",
		    MICDB_SRCDIR, MICDB_SRCDIR);
	} else {
		*dir = xasprintf("%s/kernels", MICDB_PKGDATADIR);
		*options = xasprintf("-I %s/kernels", MICDB_PKGDATADIR);
	}
	free(exe);
	free(build);
	(void)cause;
	return 0;
}

/* The driver's build log, or NULL. */
static char *
build_log(cl_program prog, cl_device_id dev)
{
	size_t n = 0;
	char *log;

	if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL,
	    &n) != CL_SUCCESS || n == 0)
		return NULL;
	log = xcalloc(1, n + 1);
	if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log,
	    NULL) != CL_SUCCESS)
		log[0] = '\0';
	return log;
}

/* The contexts and programs kept for the process (see the top); under
 * kept_lock, since engines may be opened from more than one thread. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	cl_device_id	 dev;
	cl_context	 ctx;
} *kept_ctx;
static size_t nkept_ctx;
static struct {
	cl_context	 ctx;
	char		*key;            /* the source's path, the options */
	cl_program	 prog;
} *kept_prog;
static size_t nkept_prog;

cl_context
ocl_shared_context(cl_device_id dev, cl_int *err)
{
	cl_context ctx = NULL;

	*err = CL_SUCCESS;
	pthread_mutex_lock(&kept_lock);
	for (size_t i = 0; i < nkept_ctx && ctx == NULL; i++)
		if (kept_ctx[i].dev == dev)
			ctx = kept_ctx[i].ctx;
	if (ctx == NULL) {
		ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, err);
		if (*err == CL_SUCCESS) {
			kept_ctx = xreallocarray(kept_ctx, nkept_ctx + 1,
			    sizeof *kept_ctx);
			kept_ctx[nkept_ctx].dev = dev;
			kept_ctx[nkept_ctx++].ctx = ctx;
		} else
			ctx = NULL;
	}
	/* the caller's reference: it releases it as it would its own */
	if (ctx != NULL)
		clRetainContext(ctx);
	pthread_mutex_unlock(&kept_lock);
	return ctx;
}

/* A program built before in the shared context ctx with this key,
 * retained for the caller; NULL if none (or ctx is not shared). */
static cl_program
kept_program(cl_context ctx, const char *key, int *shared)
{
	*shared = 0;
	for (size_t i = 0; i < nkept_ctx; i++)
		*shared |= kept_ctx[i].ctx == ctx;
	for (size_t i = 0; i < nkept_prog && *shared; i++)
		if (kept_prog[i].ctx == ctx && strcmp(kept_prog[i].key,
		    key) == 0) {
			clRetainProgram(kept_prog[i].prog);
			return kept_prog[i].prog;
		}
	return NULL;
}

int
ocl_build(cl_context ctx, cl_device_id dev, const char *name,
    const char *options, cl_program *prog, char **cause)
{
	char *dir, *incs, *path, *opts, *msg, *key;
	int rc = -1;
	uint8_t *src;
	size_t len;
	const char *srcs[1];
	cl_int err, berr;
	int shared;

	*prog = NULL;
	if (ocl_kernel_dir(&dir, &incs, cause) != 0)
		return -1;
	path = xasprintf("%s/%s", dir, name);
	opts = xasprintf("-cl-std=CL1.2 %s %s", incs, options);
	key = xasprintf("%s\n%s", path, opts);
	pthread_mutex_lock(&kept_lock);
	if ((*prog = kept_program(ctx, key, &shared)) != NULL)
		goto done;
	if (read_file(path, &src, &len, &msg) != 0) {
		*cause = xasprintf("cannot read kernel source %s (%s): set "
		    "MICDB_KERNEL_DIR to the directory that holds %s, or "
		    "reinstall micdb", path, msg, name);
		free(msg);
		goto fail;
	}
	srcs[0] = (const char *)src;
	*prog = clCreateProgramWithSource(ctx, 1, srcs, &len, &err);
	free(src);
	if (err != CL_SUCCESS) {
		*cause = ocl_device_failure("clCreateProgramWithSource", err);
		*prog = NULL;
		goto fail;
	}
	berr = clBuildProgram(*prog, 1, &dev, opts, NULL, NULL);
	if (berr != CL_SUCCESS) {
		char *log = build_log(*prog, dev);

		*cause = xasprintf("building kernel %s failed (%s):\n%s", path,
		    ocl_error_name(berr), log && *log ? log :
		    "(the driver gave no build log: try again, pick another "
		    "device with --device, or use --engine ref)");
		free(log);
		clReleaseProgram(*prog);
		*prog = NULL;
		goto fail;
	}
	if (shared) {
		/* the kept reference; the caller has its own */
		kept_prog = xreallocarray(kept_prog, nkept_prog + 1,
		    sizeof *kept_prog);
		kept_prog[nkept_prog].ctx = ctx;
		kept_prog[nkept_prog].key = key;
		kept_prog[nkept_prog++].prog = *prog;
		clRetainProgram(*prog);
		key = NULL;
	}
done:
	rc = 0;
fail:
	pthread_mutex_unlock(&kept_lock);
	free(key);
	free(opts);
	free(dir);
	free(incs);
	free(path);
	return rc;
}
