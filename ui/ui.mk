# TUI build rules (ncurses + readline front end), included from
# Makefile.am.  The UI is compiled into src/micdb (tui_main, ui/tui.h);
# ui/test-tui checks its pure parts (layouts, the census of cores and
# warps at 65,536 cores, names, breakpoints and frames from the session's
# accessors, the datapath decoding and diagram) without a terminal,
# and tests/tui.sh drives the real micdb in tmux.

ui_sources = \
	ui/access.c ui/access.h \
	ui/census.c ui/census.h \
	ui/cmd-screen.c ui/screen.h \
	ui/complete.c ui/complete.h \
	ui/datapath.c ui/datapath.h \
	ui/draw.c \
	ui/layout.c ui/layout.h \
	ui/lines.c ui/lines.h \
	ui/listing.c \
	ui/message.c ui/message.h \
	ui/names.c ui/names.h \
	ui/pager.c ui/pager.h \
	ui/paint.c \
	ui/pane.h \
	ui/pane-code.c \
	ui/pane-cores.c \
	ui/pane-micro.c \
	ui/pane-text.c \
	ui/pane-warps.c \
	ui/render.c \
	ui/render.h \
	ui/term.c ui/term.h \
	ui/title.c ui/title.h \
	ui/tui.c \
	ui/tui.h

micdb_sources += $(ui_sources)
src_micdb_CPPFLAGS += -I$(srcdir)/ui $(NCURSES_CFLAGS) $(READLINE_CFLAGS)
micdb_libs += $(NCURSES_LIBS) $(READLINE_LIBS)

unit_tests += ui/test-tui
ui_test_tui_SOURCES = ui/test-tui.c ui/access.c ui/census.c ui/datapath.c \
	ui/layout.c \
	ui/lines.c ui/names.c ui/title.c ui/tui.h $(dbg_own_sources) \
	tests/tap.h
ui_test_tui_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg -I$(srcdir)/ui \
	-I$(srcdir)/src/ocl -I$(srcdir)/tests
ui_test_tui_LDADD = src/dbg/libdbg.a src/core/libcore.a
san_tests += ui/test-tui-asan
ui_test_tui_asan_SOURCES = $(ui_test_tui_SOURCES)
ui_test_tui_asan_LDADD = tests/libdbgsan.a tests/libcoresan.a
ui_test_tui_asan_CPPFLAGS = $(ui_test_tui_CPPFLAGS)
ui_test_tui_asan_CFLAGS = $(san_cflags)
ui_test_tui_asan_LDFLAGS = $(SAN_CFLAGS)

shell_tests += tests/tui.sh tests/tui-stress.sh tests/tui-layout.sh
EXTRA_DIST += tests/tui/spin.jas tests/tui-lib.sh
