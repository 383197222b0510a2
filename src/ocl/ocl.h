/*
 * The OpenCL device layer: finding platforms and devices, choosing one,
 * locating and building the kernel sources, and naming OpenCL errors.
 * This directory is the only code that includes CL/cl.h
 * (doc/architecture.md, "The layers").
 *
 * Devices are numbered two ways: "P:D" (platform P, its device D) and a
 * flat index over all devices in that order.  A selection string is one
 * of those, or a case-insensitive substring of "platform / device"; it
 * comes from --device, else MICDB_DEVICE, else the default: the first GPU,
 * else the first CPU device, else the first device.
 */
#ifndef MICDB_OCL_H
#define MICDB_OCL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stddef.h>

struct ocl_device {
	cl_platform_id	 platform;
	cl_device_id	 device;
	unsigned	 pindex;         /* platform index */
	unsigned	 dindex;         /* device index in its platform */
	char		*platform_name;
	char		*name;           /* device name */
	char		*version;        /* CL_DEVICE_VERSION */
	char		*driver;         /* CL_DRIVER_VERSION, "?" if unknown */
	cl_device_type	 type;
	cl_uint		 compute_units;
	cl_ulong	 global_mem;     /* bytes */
	cl_ulong	 max_alloc;      /* largest single buffer */
	size_t		 max_wg;         /* largest work-group */
};

struct ocl_devices {
	struct ocl_device *dev;          /* in flat-index order */
	size_t		   n;
};

/* The CL_* name of an error code ("CL_OUT_OF_RESOURCES"); never NULL. */
const char	*ocl_error_name(cl_int err);
/* "CALL failed: CL_NAME", malloc'd: every OpenCL error goes through it. */
char		*ocl_error(const char *call, cl_int err);
/* The same for a device that failed at run time, saying what to do. */
char		*ocl_device_failure(const char *call, cl_int err);

/* All devices of all platforms.  -1 + *cause when there is none. */
int	 ocl_devices_list(struct ocl_devices *l, char **cause);
void	 ocl_devices_free(struct ocl_devices *l);
/* Flat index of the default device. */
size_t	 ocl_devices_default(const struct ocl_devices *l);
/* Resolve a selection (NULL: MICDB_DEVICE, then the default). */
int	 ocl_devices_select(const struct ocl_devices *l, const char *sel,
	    size_t *index, char **cause);
/* "CPU", "GPU", "ACCEL" or "OTHER". */
const char *ocl_device_type_name(cl_device_type type);

/*
 * Where the kernel sources are: $MICDB_KERNEL_DIR, else the source tree's
 * kernels/ when this binary lives in the build tree, else the installed
 * $(pkgdatadir)/kernels.  *options gets the -I options clBuildProgram
 * needs for the headers the kernels include.  Both malloc'd.
 */
int	 ocl_kernel_dir(char **dir, char **options, char **cause);
/*
 * The process's context for one device, created on first use and kept
 * (ocl.c says why), with a reference for the caller to release; NULL and
 * the clCreateContext error in *err when it cannot be made.
 */
cl_context ocl_shared_context(cl_device_id dev, cl_int *err);
/*
 * Read kernel file name from the kernel directory and build it for one
 * device with extra options.  A failed build returns the build log in
 * *cause.  In a shared context (ocl_shared_context) a program built
 * before from the same file with the same options is handed out again
 * (a new reference), not built again.
 */
int	 ocl_build(cl_context ctx, cl_device_id dev, const char *name,
	    const char *options, cl_program *prog, char **cause);

#endif
