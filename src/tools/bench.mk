# micdb bench build rules (included from Makefile.am, after
# src/ocl/ocl.mk: bench drives the OpenCL engine and links libocl).
#
# src/tools/bench*.c is `micdb bench` (bench_main, bench.h): bench.c the
# options and the driver, bench-work.c the workloads and their machines,
# bench-measure.c the timed measurements, bench-report.c the table, CSV
# and plot, bench-scaling.c --scaling (the native engines' threads
# against as many one-thread runs at once), bench-debugger.c `micdb bench
# debugger` (the debugger's own figures on a session), bench-args.c what
# both commands take (lists, cores, the device), bench-int.h what they
# share; src/core/svg.c is the project's own log-log SVG plot (shared
# with the trace timeline).  tests/bench.sh runs a short benchmark on the
# test machine's device and checks the CSV, the plots and the error
# paths, never timings.  man/bench.man is the bench section of micdb(1),
# merged into man/micdb.1 by hand.

micdb_sources += src/tools/bench.c src/tools/bench.h \
	src/tools/bench-args.c src/tools/bench-debugger.c src/tools/bench-int.h \
	src/tools/bench-measure.c src/tools/bench-report.c src/tools/bench-scaling.c \
	src/tools/bench-work.c

# src/core/svg.c and bench*.c use log10, pow, floor, isfinite (libm)
micdb_libs += -lm

shell_tests += tests/bench.sh tests/bench-debugger.sh

