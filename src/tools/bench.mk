# micdb bench build rules (included from Makefile.am, after
# src/ocl/ocl.mk: bench drives the OpenCL engine and links libocl).
#
# src/tools/bench.c is `micdb bench` (bench_main, bench.h); svg.c is the
# project's own log-log SVG plot.  tests/bench.sh runs a short benchmark
# on the test machine's device and checks the CSV, the plot and the error
# paths, never timings.  man/bench.man is the bench section of micdb(1),
# merged into man/micdb.1 by hand.

micdb_sources += \
	src/tools/bench.c \
	src/tools/bench.h \
	src/tools/svg.c \
	src/tools/svg.h

# svg.c and bench.c use log10, pow, floor (libm)
micdb_libs += -lm

shell_tests += tests/bench.sh

