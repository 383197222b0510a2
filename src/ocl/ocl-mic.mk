# Build rules of the OpenCL micro-level kernels (MIC, later PMIC) and
# their engine, included from Makefile.am.  Adds to micdb_sources,
# unit_tests, san_tests, shell_tests and EXTRA_DIST like ocl.mk.

# The MIC engine lives in libocl with the ISA engine (the only code that
# includes CL/cl.h); its kernel is installed with the header it adds.
src_ocl_libocl_a_SOURCES += \
	src/core/context-mic.h \
	src/ocl/engine-ocl-mic.c \
	src/ocl/engine-ocl-mic.h
dist_kernels_DATA += \
	kernels/mic.cl \
	src/core/context-mic.h \
	src/core/mic1-word.h

# Differential test: the MIC kernel against the C Mic-1 simulator, cycle
# by cycle and by whole runs, on every sample and on generated programs.
# Not built with ASan, like test-ocl-diff: the OpenCL runtime is not.
unit_tests += tests/test-ocl-mic-diff
tests_test_ocl_mic_diff_SOURCES = tests/test-ocl-mic-diff.c tests/tap.h \
	tests/ocl-diff-lib.c tests/ocl-diff-gen.c tests/ocl-diff-lib.h
tests_test_ocl_mic_diff_CPPFLAGS = $(ocl_test_cppflags) \
	-DMICDB_SRCDIR='"$(abs_top_srcdir)"'
tests_test_ocl_mic_diff_LDADD = $(ocl_test_ldadd)

shell_tests += tests/ocl-mic-run.sh

# The PMIC level of the shared OpenCL engine: its adapter, its context
# section and its kernel, installed with every header it includes.
src_ocl_libocl_a_SOURCES += \
	src/core/context-pmic.h \
	src/ocl/engine-ocl-pmic.c \
	src/ocl/engine-ocl-pmic.h
dist_kernels_DATA += \
	kernels/pmic.cl \
	src/core/context-pmic.h \
	src/core/pmic-word.h

# Differential test: the PMIC kernel against the C PMIC simulator, on the
# shared harness (tests/ocl-diff-lib.h) as the MIC kernel's test.
unit_tests += tests/test-ocl-pmic-diff
tests_test_ocl_pmic_diff_SOURCES = tests/test-ocl-pmic-diff.c tests/tap.h \
	tests/ocl-diff-lib.c tests/ocl-diff-gen.c tests/ocl-diff-lib.h
tests_test_ocl_pmic_diff_CPPFLAGS = $(ocl_test_cppflags) \
	-DMICDB_SRCDIR='"$(abs_top_srcdir)"'
tests_test_ocl_pmic_diff_LDADD = $(ocl_test_ldadd)
