# OpenCL engine build rules (included from Makefile.am).
#
# src/ocl/libocl.a is the only code that includes CL/cl.h: the device
# layer (ocl.c) and the engine (ocl-*.c, with ocl-engine.h inside).  It
# knows where the build tree is (MICDB_BUILDDIR) so that a micdb run from
# the build tree reads the kernels from the source tree instead of
# $(pkgdatadir)/kernels.
# Kernels are installed with every header they include.

noinst_LIBRARIES += src/ocl/libocl.a
src_ocl_libocl_a_SOURCES = src/core/context.h src/core/tracebuf.h \
	src/ocl/engine-ocl.h src/ocl/ocl-engine.h src/ocl/ocl-level.h \
	src/ocl/ocl-buffers.c src/ocl/ocl-ckpt.c src/ocl/ocl-launch.c \
	src/ocl/ocl-ops.c src/ocl/ocl-readback.c src/ocl/ocl-run.c \
	src/ocl/ocl-setup.c src/ocl/ocl-tuning.c src/ocl/ocl.c src/ocl/ocl.h
src_ocl_libocl_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/ocl -DMICDB_BUILDDIR='"$(abs_top_builddir)"'

# libcore again after libocl: the archive needs core symbols that the
# objects before it may not have pulled in.
micdb_libs += src/ocl/libocl.a src/core/libcore.a $(OPENCL_LIBS)

kernelsdir = $(pkgdatadir)/kernels
dist_kernels_DATA = \
	kernels/fork.h \
	kernels/isa.cl \
	kernels/launch.h \
	kernels/launch-trace.h \
	src/core/context.h \
	src/core/faults.def \
	src/core/forkjoin.h \
	src/core/ijvm-ops.def \
	src/core/memmap.h \
	src/core/tracebuf.h

ocl_test_cppflags = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg -I$(srcdir)/src/ocl
ocl_test_ldadd = src/ocl/libocl.a src/core/libcore.a $(OPENCL_LIBS)

# Differential test: the OpenCL engine against the reference, step by
# step and by whole runs, on every sample and on generated programs.
# The harness every level's differential test shares (ocl-diff-lib.h) is
# compiled once, into tests/libocldiff.a (ocl-mic.mk has the others).
check_LIBRARIES += tests/libocldiff.a
tests_libocldiff_a_SOURCES = tests/ocl-diff-lib.c tests/ocl-diff-gen.c \
	tests/ocl-diff-lib.h tests/tap.h
tests_libocldiff_a_CPPFLAGS = $(ocl_test_cppflags)
ocl_diff_ldadd = tests/libocldiff.a $(ocl_test_ldadd)
unit_tests += tests/test-ocl-diff
tests_test_ocl_diff_SOURCES = tests/test-ocl-diff.c tests/tap.h
tests_test_ocl_diff_CPPFLAGS = $(ocl_test_cppflags)
tests_test_ocl_diff_LDADD = $(ocl_diff_ldadd)

# A small driver of either engine for the shell tests, until micdb run
# drives engines itself.
check_PROGRAMS += tests/ocl-run
tests_ocl_run_SOURCES = tests/ocl-run.c \
	src/tools/devices.c src/tools/devices.h
tests_ocl_run_CPPFLAGS = $(ocl_test_cppflags) -I$(srcdir)/src/tools
tests_ocl_run_LDADD = $(ocl_test_ldadd)

shell_tests += tests/ocl-errors.sh tests/ocl-paths.sh tests/ocl-stacks.sh

# Memory judged where it lives (ocl_mem_limit): the host's on a zero-copy
# device, the device's global memory elsewhere.
shell_tests += tests/ocl-memlimit.sh

# The block marks: the host converts only what launches changed, against
# the reference (ocl-readback.c, context.h).
unit_tests += tests/test-ocl-marks
tests_test_ocl_marks_SOURCES = tests/test-ocl-marks.c tests/tap.h
tests_test_ocl_marks_CPPFLAGS = $(ocl_test_cppflags)
tests_test_ocl_marks_LDADD = $(ocl_test_ldadd)

# The micro kernels' branch-free address decode against the plain one,
# as a kernel on the default device (kernels/launch.h).
unit_tests += tests/test-mem-where
tests_test_mem_where_SOURCES = tests/test-mem-where.c tests/tap.h
tests_test_mem_where_CPPFLAGS = $(ocl_test_cppflags)
tests_test_mem_where_LDADD = $(ocl_test_ldadd)
