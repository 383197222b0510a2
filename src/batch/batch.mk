# The batch front end (micdb --batch FILE / -x FILE), included from
# Makefile.am after src/dbg/dbg.mk.  It sits beside ui/ above the session
# (src/dbg): it opens a session with session_open and writes a transcript
# on stdout, which src/dbg never does.  tests/batch.sh drives it through
# src/micdb.

micdb_sources += src/batch/batch.c src/batch/batch.h

shell_tests += tests/batch.sh
EXTRA_DIST += \
	$(wildcard $(srcdir)/tests/batch/*.cmd) \
	$(wildcard $(srcdir)/tests/batch/*.expected) \
	$(wildcard $(srcdir)/tests/batch/*.jas) \
	$(wildcard $(srcdir)/tests/batch/*.mal)
