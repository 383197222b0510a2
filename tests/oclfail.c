/*
 * tests/oclfail.so: an LD_PRELOAD shim that makes one OpenCL call of
 * micdb fail, so that tests/oclfail.sh can walk every way the device can
 * fail under a run, a debugger session and a benchmark (doc/architecture.md,
 * "When the device fails").  It is a test instrument, never installed and
 * not a user knob, so it lives here and not in micdb(1).
 *
 * Every cl* entry point micdb calls that can fail at run time is wrapped:
 * the wrapper counts the call in its kind and hands it to the real one
 * (dlsym(RTLD_NEXT)), or, for the chosen call, returns the chosen error
 * without calling it.  Kinds:
 *
 *   alloc    clCreateBuffer
 *   enqueue  clEnqueue{Read,Write,Copy,Fill}Buffer, clEnqueueNDRangeKernel
 *   map      clEnqueueMapBuffer, clEnqueueUnmapMemObject
 *   finish   clFinish
 *   build    clCreateProgramWithSource, clBuildProgram, clCreateKernel
 *   setup    clCreateContext, clCreateCommandQueue, clSetKernelArg
 *
 * OCLFAIL=KIND:N[:ERROR] fails the N-th call (from 1) of KIND with ERROR
 * (a CL_* name or a number; CL_OUT_OF_RESOURCES by default).
 * OCLFAIL_REPORT=FILE appends, at exit, one line per call site:
 *   KIND FIRST-INDEX CALLS micdb+OFFSET/CALLER
 * in the order the sites were first reached, and a line "KIND total N"
 * per kind; the test fails each site at its first call, so every site is
 * hit at least once however many calls a run makes.
 *
 * Only calls made from the main program count: POCL may call the API
 * itself, and those calls are neither counted nor failed, so the indices
 * a test reads from a report are the ones it can fail in the next run.
 * A site is the call's return address in micdb and the one of the
 * function that made it (_Unwind_Backtrace, from libgcc_s, linked in:
 * backtrace(3) would dlopen it, which LeakSanitizer reports; micdb wraps most calls in small
 * helpers such as ocl_read_buf, whose one return address would lump
 * together every read), kept as offsets into the executable so that they
 * read the same in every run (PIE) and addr2line can name them.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

enum kind { K_ALLOC, K_ENQUEUE, K_MAP, K_FINISH, K_BUILD, K_SETUP, K_N };
static const char *const kind_names[K_N] = {
	"alloc", "enqueue", "map", "finish", "build", "setup"
};

#define MAX_SITES 512
static struct site {
	int		 kind;
	uintptr_t	 off, caller;
	unsigned long	 first;
	unsigned long	 calls;
} sites[MAX_SITES];
static int nsites;
static unsigned long counts[K_N];

static int fail_kind = -1;
static unsigned long fail_at;
static cl_int fail_err = CL_OUT_OF_RESOURCES;
static uintptr_t exe_base, exe_lo, exe_hi;	/* micdb's code */
static int ready;

static const struct {
	const char	*name;
	cl_int		 code;
} errs[] = {
	{ "CL_OUT_OF_RESOURCES", CL_OUT_OF_RESOURCES },
	{ "CL_OUT_OF_HOST_MEMORY", CL_OUT_OF_HOST_MEMORY },
	{ "CL_MEM_OBJECT_ALLOCATION_FAILURE", CL_MEM_OBJECT_ALLOCATION_FAILURE },
	{ "CL_INVALID_COMMAND_QUEUE", CL_INVALID_COMMAND_QUEUE },
	{ "CL_BUILD_PROGRAM_FAILURE", CL_BUILD_PROGRAM_FAILURE },
	{ "CL_MAP_FAILURE", CL_MAP_FAILURE },
	{ "CL_DEVICE_NOT_AVAILABLE", CL_DEVICE_NOT_AVAILABLE },
	{ "CL_INVALID_VALUE", CL_INVALID_VALUE },
};

static int
exe_range(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	/* The first object is the executable itself. */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo, hi;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		lo = info->dlpi_addr + ph->p_vaddr;
		hi = lo + ph->p_memsz;
		if (exe_lo == 0 || lo < exe_lo)
			exe_lo = lo;
		if (hi > exe_hi)
			exe_hi = hi;
	}
	exe_base = info->dlpi_addr;
	return 1;
}

static void
report(void)
{
	const char *path = getenv("OCLFAIL_REPORT");
	FILE *f;

	if (path == NULL || (f = fopen(path, "a")) == NULL)
		return;
	for (int i = 0; i < nsites; i++)
		fprintf(f, "%s %lu %lu micdb+0x%lx/0x%lx\n",
		    kind_names[sites[i].kind], sites[i].first, sites[i].calls,
		    (unsigned long)sites[i].off, (unsigned long)sites[i].caller);
	for (int k = 0; k < K_N; k++)
		fprintf(f, "%s total %lu\n", kind_names[k], counts[k]);
	fclose(f);
}

static void
setup(void)
{
	const char *s = getenv("OCLFAIL");

	ready = 1;
	dl_iterate_phdr(exe_range, NULL);
	atexit(report);
	if (s == NULL || *s == '\0')
		return;
	for (int k = 0; k < K_N; k++) {
		size_t n = strlen(kind_names[k]);

		if (strncmp(s, kind_names[k], n) == 0 && s[n] == ':') {
			char *end;

			fail_kind = k;
			fail_at = strtoul(s + n + 1, &end, 10);
			if (*end == ':') {
				end++;
				fail_err = (cl_int)strtol(end, NULL, 0);
				for (size_t e = 0; e < sizeof errs / sizeof errs[0];
				    e++)
					if (strcmp(end, errs[e].name) == 0)
						fail_err = errs[e].code;
			}
			return;
		}
	}
	fprintf(stderr, "oclfail: bad OCLFAIL=%s (KIND:N[:ERROR])\n", s);
	abort();
}

static int
in_exe(void *p)
{
	return (uintptr_t)p >= exe_lo && (uintptr_t)p < exe_hi;
}

struct frames {
	void	*pc[16];
	int	 n;
};

static _Unwind_Reason_Code
one_frame(struct _Unwind_Context *ctx, void *arg)
{
	struct frames *f = arg;

	f->pc[f->n++] = (void *)_Unwind_GetIP(ctx);
	return f->n < 16 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

/* Count a call of KIND from RET; nonzero when this call is to fail. */
static int
hit(int kind, void *ret)
{
	struct frames fr = { .n = 0 };
	uintptr_t off, caller = 0;
	unsigned long n;
	int i, nf;

	if (!ready)
		setup();
	if (!in_exe(ret))
		return 0;
	off = (uintptr_t)ret - exe_base;
	_Unwind_Backtrace(one_frame, &fr);
	nf = fr.n;
	for (i = 0; i < nf - 1; i++)
		if (fr.pc[i] == ret) {
			if (in_exe(fr.pc[i + 1]))
				caller = (uintptr_t)fr.pc[i + 1] - exe_base;
			break;
		}
	n = ++counts[kind];
	for (i = 0; i < nsites; i++)
		if (sites[i].kind == kind && sites[i].off == off &&
		    sites[i].caller == caller)
			break;
	if (i == nsites && nsites < MAX_SITES) {
		sites[nsites].kind = kind;
		sites[nsites].off = off;
		sites[nsites].caller = caller;
		sites[nsites].first = n;
		nsites++;
	}
	if (i < nsites)
		sites[i].calls++;
	return kind == fail_kind && n == fail_at;
}

#define REAL(name) \
	static __typeof__(name) *real; \
	if (real == NULL) \
		real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/* A create call: NULL and the error in *errcode_ret. */
#define FAIL_CREATE(kind) \
	if (hit(kind, __builtin_return_address(0))) { \
		if (errcode_ret != NULL) \
			*errcode_ret = fail_err; \
		return NULL; \
	}
#define FAIL_CALL(kind) \
	if (hit(kind, __builtin_return_address(0))) \
		return fail_err

cl_mem
clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host,
    cl_int *errcode_ret)
{
	REAL(clCreateBuffer);
	FAIL_CREATE(K_ALLOC);
	return real(c, flags, size, host, errcode_ret);
}

cl_int
clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool block, size_t off,
    size_t size, void *p, cl_uint nw, const cl_event *wl, cl_event *ev)
{
	REAL(clEnqueueReadBuffer);
	FAIL_CALL(K_ENQUEUE);
	return real(q, m, block, off, size, p, nw, wl, ev);
}

cl_int
clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool block,
    size_t off, size_t size, const void *p, cl_uint nw, const cl_event *wl,
    cl_event *ev)
{
	REAL(clEnqueueWriteBuffer);
	FAIL_CALL(K_ENQUEUE);
	return real(q, m, block, off, size, p, nw, wl, ev);
}

cl_int
clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
    size_t soff, size_t doff, size_t size, cl_uint nw, const cl_event *wl,
    cl_event *ev)
{
	REAL(clEnqueueCopyBuffer);
	FAIL_CALL(K_ENQUEUE);
	return real(q, src, dst, soff, doff, size, nw, wl, ev);
}

cl_int
clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pat,
    size_t psize, size_t off, size_t size, cl_uint nw, const cl_event *wl,
    cl_event *ev)
{
	REAL(clEnqueueFillBuffer);
	FAIL_CALL(K_ENQUEUE);
	return real(q, m, pat, psize, off, size, nw, wl, ev);
}

cl_int
clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
    const size_t *goff, const size_t *gsize, const size_t *lsize, cl_uint nw,
    const cl_event *wl, cl_event *ev)
{
	REAL(clEnqueueNDRangeKernel);
	FAIL_CALL(K_ENQUEUE);
	return real(q, k, dim, goff, gsize, lsize, nw, wl, ev);
}

void *
clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool block,
    cl_map_flags flags, size_t off, size_t size, cl_uint nw,
    const cl_event *wl, cl_event *ev, cl_int *errcode_ret)
{
	REAL(clEnqueueMapBuffer);
	FAIL_CREATE(K_MAP);
	return real(q, m, block, flags, off, size, nw, wl, ev, errcode_ret);
}

cl_int
clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *p, cl_uint nw,
    const cl_event *wl, cl_event *ev)
{
	REAL(clEnqueueUnmapMemObject);
	FAIL_CALL(K_MAP);
	return real(q, m, p, nw, wl, ev);
}

cl_int
clFinish(cl_command_queue q)
{
	REAL(clFinish);
	FAIL_CALL(K_FINISH);
	return real(q);
}

cl_program
clCreateProgramWithSource(cl_context c, cl_uint n, const char **src,
    const size_t *len, cl_int *errcode_ret)
{
	REAL(clCreateProgramWithSource);
	FAIL_CREATE(K_BUILD);
	return real(c, n, src, len, errcode_ret);
}

cl_int
clBuildProgram(cl_program p, cl_uint nd, const cl_device_id *d,
    const char *opts, void (CL_CALLBACK *notify)(cl_program, void *),
    void *data)
{
	REAL(clBuildProgram);
	FAIL_CALL(K_BUILD);
	return real(p, nd, d, opts, notify, data);
}

cl_kernel
clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret)
{
	REAL(clCreateKernel);
	FAIL_CREATE(K_BUILD);
	return real(p, name, errcode_ret);
}

cl_context
clCreateContext(const cl_context_properties *props, cl_uint nd,
    const cl_device_id *d,
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
    void *data, cl_int *errcode_ret)
{
	REAL(clCreateContext);
	FAIL_CREATE(K_SETUP);
	return real(props, nd, d, notify, data, errcode_ret);
}

cl_command_queue
clCreateCommandQueue(cl_context c, cl_device_id d,
    cl_command_queue_properties props, cl_int *errcode_ret)
{
	REAL(clCreateCommandQueue);
	FAIL_CREATE(K_SETUP);
	return real(c, d, props, errcode_ret);
}

cl_int
clSetKernelArg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
	REAL(clSetKernelArg);
	FAIL_CALL(K_SETUP);
	return real(k, i, size, v);
}
