# Debugger engine build rules (src/dbg): the session over an engine, its
# commands, the session options (opts.c) and session_open, which the front
# ends (ui/, src/batch/) open their session with.  Included at the end of
# Makefile.am.  Everything is also linked into tests/test-dbg.
#
# The session opens engines through the factory (levels.c) and the Mic-1
# and PMIC engines, which micdb already links (Makefile.am, mic.mk,
# pmic.mk): dbg_sources,
# what test programs link, adds them; micdb takes dbg_session_sources so
# that no object is linked twice.

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
	src/dbg/session-open.c src/dbg/session-open.h \
	src/dbg/session-read.c \
	src/dbg/session-level.c \
	src/dbg/session-view.c \
	src/dbg/trace.c src/dbg/trace.h src/dbg/trace-int.h \
	src/dbg/trace-common.c \
	src/dbg/trace-perfetto.c \
	src/dbg/trace-svg.c \
	src/dbg/trace-vcd.c \
	src/dbg/watch.c

dbg_sources = $(dbg_session_sources) \
	src/dbg/levels.c src/dbg/levels.h

micdb_sources += $(dbg_session_sources)

unit_tests += tests/test-dbg
san_tests += tests/test-dbg-asan
shell_tests += tests/level-switch.sh
# traces (trace*.c): run, --batch and DAP alike, read back by Node.js
shell_tests += tests/trace.sh
EXTRA_DIST += tests/trace/check.js

tests_test_dbg_SOURCES = tests/test-dbg.c tests/tap.h $(dbg_sources)
tests_test_dbg_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg
tests_test_dbg_LDADD = src/core/libcore.a
tests_test_dbg_asan_SOURCES = $(tests_test_dbg_SOURCES)
tests_test_dbg_asan_LDADD = tests/libcoresan.a
tests_test_dbg_asan_CPPFLAGS = $(tests_test_dbg_CPPFLAGS)
tests_test_dbg_asan_CFLAGS = $(san_cflags)
tests_test_dbg_asan_LDFLAGS = $(SAN_CFLAGS)

unit_tests += tests/test-expr
san_tests += tests/test-expr-asan
tests_test_expr_SOURCES = tests/test-expr.c tests/tap.h src/dbg/expr.c \
	src/dbg/expr.h
tests_test_expr_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg
tests_test_expr_LDADD = src/core/libcore.a
tests_test_expr_asan_SOURCES = $(tests_test_expr_SOURCES) src/core/util.c
tests_test_expr_asan_CPPFLAGS = $(tests_test_expr_CPPFLAGS)
tests_test_expr_asan_CFLAGS = $(san_cflags)
tests_test_expr_asan_LDFLAGS = $(SAN_CFLAGS)

# Reverse execution, differentially, on the reference and OpenCL engines
# (not built with ASan, like the other OpenCL tests: the runtime is not).
unit_tests += tests/test-reverse
tests_test_reverse_SOURCES = tests/test-reverse.c tests/tap.h \
	$(dbg_sources)
tests_test_reverse_CPPFLAGS = $(AM_CPPFLAGS) -DHAVE_ENGINE_OCL \
	-I$(srcdir)/src/dbg -I$(srcdir)/src/ocl
tests_test_reverse_LDADD = src/ocl/libocl.a src/core/libcore.a \
	$(OPENCL_LIBS)
