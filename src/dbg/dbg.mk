# Debugger engine build rules (src/dbg): the session over an engine, its
# commands, the session options (opts.c) and session_open, which the front
# ends (ui/, src/batch/) open their session with.  Included at the end of
# Makefile.am.  Everything is also linked into tests/test-dbg.
#
# The session opens engines through the factory (levels.c) and the Mic-1
# and PMIC engines, which micdb already links (Makefile.am, mic.mk,
# pmic.mk).  Every source but the two that ask whether the build has the
# OpenCL engine (levels.c, session-open.c: HAVE_ENGINE_OCL) is compiled
# once into src/dbg/libdbg.a, and once with the sanitizers into
# tests/libdbgsan.a; micdb, its sanitizer build and the test programs
# link those and compile only the two themselves.  Compiling the session
# again for each of them made the suite's build several times longer
# (doc/performance.md section 21.1).

dbg_session_sources = \
	src/dbg/bp.c src/dbg/bp.h \
	src/dbg/cmd.c src/dbg/cmd.h \
	src/dbg/cmd-break.c \
	src/dbg/cmd-data.c \
	src/dbg/cmd-display.c \
	src/dbg/cmd-focus.c \
	src/dbg/cmd-frame.c \
	src/dbg/cmd-info.c \
	src/dbg/cmd-lookup.c \
	src/dbg/cmd-mem.c \
	src/dbg/cmd-run.c \
	src/dbg/cmd-set.c \
	src/dbg/cmd-trace.c \
	src/dbg/session-trace.c \
	src/dbg/corelines.c src/dbg/corelines.h \
	src/dbg/coreset.c src/dbg/coreset.h \
	src/dbg/dbg.h \
	src/dbg/div.c \
	src/dbg/dsym.c src/dbg/dsym.h \
	src/dbg/expr.c src/dbg/expr.h \
	src/dbg/history.c src/dbg/history.h \
	src/dbg/hit.c \
	src/dbg/loc.c src/dbg/loc.h \
	src/dbg/opts.c src/dbg/opts.h \
	src/dbg/places.c src/dbg/places.h \
	src/dbg/regs.c src/dbg/regs.h \
	src/dbg/resume.c \
	src/dbg/reverse.c src/dbg/reverse.h \
	src/dbg/session.c src/dbg/session.h \
	src/dbg/session-read.c \
	src/dbg/session-level.c \
	src/dbg/session-view.c \
	src/dbg/trace.c src/dbg/trace.h src/dbg/trace-int.h \
	src/dbg/trace-common.c \
	src/dbg/trace-perfetto.c \
	src/dbg/trace-svg.c \
	src/dbg/trace-vcd.c \
	src/dbg/watch.c

# what each program compiles itself, with its own HAVE_ENGINE_OCL
dbg_own_sources = src/dbg/levels.c src/dbg/levels.h \
	src/dbg/session-open.c src/dbg/session-open.h
dbg_sources = $(dbg_session_sources) $(dbg_own_sources)

noinst_LIBRARIES += src/dbg/libdbg.a
src_dbg_libdbg_a_SOURCES = $(dbg_session_sources)
src_dbg_libdbg_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg
check_LIBRARIES += tests/libdbgsan.a
tests_libdbgsan_a_SOURCES = $(dbg_session_sources)
tests_libdbgsan_a_CPPFLAGS = $(src_dbg_libdbg_a_CPPFLAGS)
tests_libdbgsan_a_CFLAGS = $(san_cflags)

micdb_sources += src/dbg/session-open.c src/dbg/session-open.h

unit_tests += tests/test-dbg
san_tests += tests/test-dbg-asan
shell_tests += tests/level-switch.sh
# traces (trace*.c): run, --batch and DAP alike, read back by Node.js
shell_tests += tests/trace.sh
# traces through the OpenCL engine's records: the same bytes
shell_tests += tests/trace-ocl.sh
EXTRA_DIST += tests/trace/check.js

tests_test_dbg_SOURCES = tests/test-dbg.c tests/tap.h $(dbg_own_sources)
tests_test_dbg_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg
tests_test_dbg_LDADD = src/dbg/libdbg.a src/core/libcore.a
tests_test_dbg_asan_SOURCES = $(tests_test_dbg_SOURCES)
tests_test_dbg_asan_LDADD = tests/libdbgsan.a tests/libcoresan.a
tests_test_dbg_asan_CPPFLAGS = $(tests_test_dbg_CPPFLAGS)
tests_test_dbg_asan_CFLAGS = $(san_cflags)
tests_test_dbg_asan_LDFLAGS = $(SAN_CFLAGS)

unit_tests += tests/test-expr
san_tests += tests/test-expr-asan
tests_test_expr_SOURCES = tests/test-expr.c tests/tap.h
tests_test_expr_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg
tests_test_expr_LDADD = src/dbg/libdbg.a src/core/libcore.a
tests_test_expr_asan_SOURCES = $(tests_test_expr_SOURCES)
tests_test_expr_asan_CPPFLAGS = $(tests_test_expr_CPPFLAGS)
tests_test_expr_asan_LDADD = tests/libdbgsan.a tests/libcoresan.a
tests_test_expr_asan_CFLAGS = $(san_cflags)
tests_test_expr_asan_LDFLAGS = $(SAN_CFLAGS)

# Reverse execution, differentially, on the reference and OpenCL engines
# (not built with ASan, like the other OpenCL tests: the runtime is not).
unit_tests += tests/test-reverse
tests_test_reverse_SOURCES = tests/test-reverse.c tests/tap.h \
	$(dbg_own_sources)
tests_test_reverse_CPPFLAGS = $(AM_CPPFLAGS) -DHAVE_ENGINE_OCL \
	-I$(srcdir)/src/dbg -I$(srcdir)/src/ocl
tests_test_reverse_LDADD = src/dbg/libdbg.a $(ocl_test_ldadd)
