/*
 * The micro kernels' address decode: mem_where_sel (kernels/launch.h,
 * the branch-free form that mic.cl and pmic.cl run every cycle) must
 * give the same kind and the same pointer as mem_where, the plain chain
 * of choices, for every address.  Run as a kernel on the default device,
 * over the edges of every region (one before, first, last, one after)
 * and some random addresses, for memory maps with tiny and maximal
 * stacks, an empty heap, and constant pools that reach into and past
 * the stack region (where the stack's pointer wins but the kind says
 * constant, as mem_where has it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memmap.h"
#include "ocl.h"
#include "tap.h"

static const char kernel_src[] =
    "#include \"memmap.h\"\n"
    "#include \"context.h\"\n"
    "#include \"launch.h\"\n"
    "__kernel void where(__global int *stk, __global int *globals,\n"
    "    __global int *heap, __global const int *cp,\n"
    "    __global const int *addrs, __global uint *out, uint sstride,\n"
    "    uint sw, uint heap_words, uint cpsize)\n"
    "{\n"
    "	const uint i = (uint)get_global_id(0);\n"
    "	__global int *p, *q;\n"
    "	const uint w1 = mem_where(addrs[i], stk, sstride, sw, globals,\n"
    "	    heap, heap_words, cp, cpsize, &p);\n"
    "	const uint w2 = mem_where_sel(addrs[i], stk, sstride, sw,\n"
    "	    globals, heap, heap_words, cp, cpsize, &q);\n"
    "	out[i] = w1 | w2 << 4 | (uint)(p != q) << 8;\n"
    "}\n";

#define MAXA 4096

struct map {
	uint32_t sw, heap_words, cpsize, sstride;
};

static size_t
edges(int32_t *a, size_t n, int32_t start, uint32_t size)
{
	const int64_t e[] = { (int64_t)start - 1, start, (int64_t)start + 1,
	    (int64_t)start + size - 1, (int64_t)start + size,
	    (int64_t)start + size + 1 };

	for (size_t i = 0; i < sizeof e / sizeof e[0] && n < MAXA; i++)
		if (e[i] >= INT32_MIN && e[i] <= INT32_MAX)
			a[n++] = (int32_t)e[i];
	return n;
}

static size_t
addresses(const struct map *m, int32_t *a, uint64_t seed)
{
	size_t n = 0;

	n = edges(a, n, MM_CPP, m->cpsize);
	n = edges(a, n, MM_STACK_BASE, m->sw);
	n = edges(a, n, MM_GLOBALS_BASE, MM_GLOBALS_WORDS);
	n = edges(a, n, MM_HEAP_BASE, m->heap_words);
	for (int32_t d = MM_DEV_TEXT_SIZE - 2; d <= 1; d++)
		a[n++] = d;
	a[n++] = INT32_MIN;
	a[n++] = INT32_MAX;
	while (n < MAXA) {
		/* xorshift; half of them near the regions */
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		a[n] = n % 2 ? (int32_t)(seed >> 32) :
		    (int32_t)((seed >> 40) % (MM_HEAP_BASE + 2 * m->heap_words +
		    16)) - 8;
		n++;
	}
	return n;
}

int
main(void)
{
	static const struct map maps[] = {
		{ 128, 1u << 20, 5, 1000 },
		{ 1, 0, 0, 1 },
		{ MM_MAX_STACK_WORDS, MM_MAX_HEAP_WORDS, 0x4000, 1 },
		/* constant pools over the stack's first words, and past
		 * the end of a small stack */
		{ 16, 100, 0x4000 + 8, 3 },
		{ 16, 100, 65536, 7 },
	};
	struct ocl_devices l;
	size_t di;
	char *cause = NULL, *dir = NULL, *opts = NULL;
	cl_int err;
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
	cl_kernel k;
	cl_mem b[6];
	const char *src = kernel_src;
	int32_t *addrs = calloc(MAXA, sizeof *addrs);
	uint32_t *out = calloc(MAXA, sizeof *out);

	if (ocl_devices_list(&l, &cause) != 0) {
		printf("1..0 # SKIP %s\n", cause);
		free(cause);
		return 77;
	}
	if (ocl_devices_select(&l, NULL, &di, &cause) != 0 ||
	    ocl_kernel_dir(&dir, &opts, &cause) != 0) {
		ok(0, "device and kernel directory: %s", cause);
		return done_testing();
	}
	ctx = clCreateContext(NULL, 1, &l.dev[di].device, NULL, NULL, &err);
	q = clCreateCommandQueue(ctx, l.dev[di].device, 0, &err);
	prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	err = clBuildProgram(prog, 1, &l.dev[di].device, opts, NULL, NULL);
	if (err != CL_SUCCESS) {
		static char log[65536];

		clGetProgramBuildInfo(prog, l.dev[di].device,
		    CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		ok(0, "test kernel builds: %s\n%s", ocl_error_name(err), log);
		return done_testing();
	}
	k = clCreateKernel(prog, "where", &err);
	for (int i = 0; i < 4; i++)
		b[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
	b[4] = clCreateBuffer(ctx, CL_MEM_READ_ONLY, MAXA * 4, NULL, &err);
	b[5] = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, MAXA * 4, NULL, &err);
	for (size_t mi = 0; mi < sizeof maps / sizeof maps[0]; mi++) {
		const struct map *m = &maps[mi];
		size_t n = addresses(m, addrs, 0x9E3779B97F4A7C15ull + mi);
		size_t bad = 0, kinds[3] = { 0 };

		memset(out, 0xFF, MAXA * 4);
		for (cl_uint i = 0; i < 6; i++)
			clSetKernelArg(k, i, sizeof b[i], &b[i]);
		clSetKernelArg(k, 6, 4, &m->sstride);
		clSetKernelArg(k, 7, 4, &m->sw);
		clSetKernelArg(k, 8, 4, &m->heap_words);
		clSetKernelArg(k, 9, 4, &m->cpsize);
		err = clEnqueueWriteBuffer(q, b[4], CL_TRUE, 0, n * 4, addrs,
		    0, NULL, NULL);
		if (err == CL_SUCCESS)
			err = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0,
			    NULL, NULL);
		if (err == CL_SUCCESS)
			err = clEnqueueReadBuffer(q, b[5], CL_TRUE, 0, n * 4,
			    out, 0, NULL, NULL);
		if (err != CL_SUCCESS) {
			ok(0, "map %zu: %s", mi, ocl_error_name(err));
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			const uint32_t w1 = out[i] & 15, w2 = out[i] >> 4 & 15;

			if (w1 < 3)
				kinds[w1]++;
			if (w1 != w2 || (out[i] >> 8) != 0) {
				if (bad++ < 5)
					tap_diag("address %d: mem_where kind "
					    "%u, mem_where_sel kind %u%s",
					    addrs[i], w1, w2, out[i] >> 8 ?
					    ", other pointer" : "");
			}
		}
		ok(bad == 0 && kinds[0] > 0 && kinds[1] > 0 &&
		    (m->cpsize == 0 || kinds[2] > 0),
		    "map %zu (stack %u words, heap %u, pool %u, stride %u): "
		    "%zu addresses, kinds %zu/%zu/%zu, %zu differ", mi, m->sw,
		    m->heap_words, m->cpsize, m->sstride, n, kinds[0],
		    kinds[1], kinds[2], bad);
	}
	for (int i = 0; i < 6; i++)
		clReleaseMemObject(b[i]);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	ocl_devices_free(&l);
	free(dir);
	free(opts);
	free(addrs);
	free(out);
	return done_testing();
}
