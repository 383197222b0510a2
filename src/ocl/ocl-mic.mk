# Build rules of the OpenCL micro-level kernels (MIC, later PMIC) and
# their engine, included from Makefile.am.  Adds to micdb_sources,
# unit_tests, san_tests, shell_tests and EXTRA_DIST like ocl.mk.
