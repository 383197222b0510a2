# The Debug Adapter Protocol front end (micdb --dap), included from
# Makefile.am after src/dbg/dbg.mk.  It sits beside ui/ and src/batch/
# above the session (src/dbg) and reads and writes its messages with
# json-c (configure.ac says why).  tests/test-dap-msg fuzzes the message
# framing under ASan; tests/dap.sh drives src/micdb --dap through the DAP
# client library VS Code's own adapters are tested with (tests/dap/), and
# tests/grammars.sh checks the editor grammars (editors/vscode/).

dap_sources = \
	src/dap/dap.c src/dap/dap.h \
	src/dap/dap-bp.c \
	src/dap/dap-int.h \
	src/dap/dap-msg.c src/dap/dap-msg.h \
	src/dap/dap-talk.c \
	src/dap/dap-view.c

micdb_sources += $(dap_sources)
src_micdb_CPPFLAGS += -I$(srcdir)/src/dap $(JSON_C_CFLAGS)
micdb_libs += $(JSON_C_LIBS)

san_tests += tests/test-dap-msg-asan
tests_test_dap_msg_asan_SOURCES = tests/test-dap-msg.c tests/tap.h \
	src/dap/dap-msg.c src/dap/dap-msg.h
tests_test_dap_msg_asan_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/src/dap \
	$(JSON_C_CFLAGS)
tests_test_dap_msg_asan_CFLAGS = $(san_cflags)
tests_test_dap_msg_asan_LDFLAGS = $(SAN_CFLAGS)
tests_test_dap_msg_asan_LDADD = $(JSON_C_LIBS) tests/libcoresan.a

shell_tests += tests/dap.sh tests/grammars.sh
EXTRA_DIST += \
	tests/dap/package.json tests/dap/package-lock.json \
	tests/dap/need-npm.sh \
	$(wildcard $(srcdir)/tests/dap/*.js) \
	$(wildcard $(srcdir)/tests/dap/*.jas) \
	$(wildcard $(srcdir)/tests/grammars/*.test.*) \
	editors/vscode/package.json editors/vscode/README.md \
	editors/vscode/language-configuration-slash.json \
	editors/vscode/language-configuration-hash.json \
	$(wildcard $(srcdir)/editors/vscode/syntaxes/*.json)
