# Build rules of the OpenCL micro-level kernels (MIC, PMIC) and their
# engine, included from Makefile.am.  Adds to src_ocl_libocl_a_SOURCES,
# unit_tests, shell_tests and EXTRA_DIST like ocl.mk.

# Both levels' engines live in libocl with the ISA engine (the only code
# that includes CL/cl.h): an adapter and a context section each; their
# kernels are installed with every header they include.
src_ocl_libocl_a_SOURCES += \
	src/core/context-mic.h src/ocl/engine-ocl-mic.c src/ocl/engine-ocl-mic.h \
	src/core/context-pmic.h src/ocl/engine-ocl-pmic.c \
	src/ocl/engine-ocl-pmic.h
dist_kernels_DATA += \
	kernels/mic.cl \
	src/core/context-mic.h \
	src/core/mic1-word.h \
	kernels/pmic.cl \
	src/core/context-pmic.h \
	src/core/pmic-word.h

# Differential tests: each level's kernel against its C simulator (Mic-1,
# PMIC), cycle by cycle and by whole runs, on every sample and on
# generated programs, on the shared harness (tests/libocldiff.a, ocl.mk).
# Not built with ASan, like test-ocl-diff: the OpenCL runtime is not.
unit_tests += tests/test-ocl-mic-diff tests/test-ocl-pmic-diff
tests_test_ocl_mic_diff_SOURCES = tests/test-ocl-mic-diff.c tests/tap.h
tests_test_ocl_mic_diff_CPPFLAGS = $(ocl_test_cppflags)
tests_test_ocl_mic_diff_LDADD = $(ocl_diff_ldadd)
tests_test_ocl_pmic_diff_SOURCES = tests/test-ocl-pmic-diff.c tests/tap.h
tests_test_ocl_pmic_diff_CPPFLAGS = $(ocl_test_cppflags)
tests_test_ocl_pmic_diff_LDADD = $(ocl_diff_ldadd)

shell_tests += tests/ocl-mic-run.sh
