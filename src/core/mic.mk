# Micro-architecture level build rules (MAL assembler, Mic-1 simulator),
# included from Makefile.am.
#
# src/core gains the Mic-1 encoding (mic1-enc.c), src/asm the MAL
# assembler (mal.c) and microcode.c, where microprograms come from,
# src/model the golden-model simulator (mic1.c, with micro-sim.c, what
# both micro levels' models share), src/host the engine that runs it
# behind the engine contract (engine-micro.c, with its fast loop and
# run-ahead); src/mic1-as is the assembler's command line.  These rules
# span the four folders, so they stay beside the definitions.
# microcode/*.mal are installed, with the default microprogram assembled,
# under $(pkgdatadir)/microcode, where an installed micdb looks for it.
# Every unit test is built twice, plain and with ASan/UBSan, as
# Makefile.am does for test-asm.

core_sources += \
	src/core/devword.c src/core/devword.h \
	src/core/mic1-enc.c src/core/mic1-enc.h src/core/mic1-word.h \
	src/asm/mal.c src/asm/mal.h src/asm/microcode.c src/asm/microcode.h \
	src/model/mic1.c src/model/mic1.h src/model/micro-model.c \
	src/model/micro-sim.c src/model/micro-sim.h \
	src/host/engine-micro.c src/host/engine-micro.h \
	src/host/engine-mic1-fast.c src/host/micro-ahead.c \
	src/host/mic1-jit.c src/host/mic1-jit.h \
	src/host/micro-fast.h

bin_PROGRAMS += src/mic1-as
src_mic1_as_SOURCES = src/tools/mic1-as.c src/tools/ucode-cli.c \
	src/tools/ucode-cli.h
src_mic1_as_LDADD = src/core/libcore.a

dist_man_MANS += man/mic1-as.1

# The microprograms, and the default one assembled (so that a user can
# load it without the assembler: micdb --microcode .../mic1.mic1).
microcodedir = $(pkgdatadir)/microcode
dist_microcode_DATA = $(srcdir)/microcode/mic1.mal
nodist_microcode_DATA = microcode/mic1.mic1
microcode/mic1.mic1: $(srcdir)/microcode/mic1.mal src/mic1-as$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) microcode && \
	src/mic1-as$(EXEEXT) -o $@ $(srcdir)/microcode/mic1.mal
MOSTLYCLEANFILES = microcode/mic1.mic1

# The custom-instruction example (IMUL), in its own directory so that
# the sample-program tests, which assemble programs/*.jas with the
# built-in instruction set, do not pick it up.
imuldir = $(pkgdatadir)/programs/imul
dist_imul_DATA = \
	$(srcdir)/programs/imul/imul.conf \
	$(srcdir)/programs/imul/imul.expected \
	$(srcdir)/programs/imul/imul.jas \
	$(srcdir)/programs/imul/imul.mal

# ---- tests ----------------------------------------------------------------

mic_cppflags = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg

unit_tests += tests/test-mal tests/test-mic1 tests/test-mic-diff
# The Mic-1 translation into host code ran, and ran right (and under
# tests/nojit.so, that none ran: tests/nojit.sh).
mic_jit_test = tests/test-mic-jit.c tests/tap.h tests/micro-diff-lib.c \
	tests/micro-diff-lib.h
unit_tests += tests/test-mic-jit
san_tests += tests/test-mic-jit-asan
tests_test_mic_jit_SOURCES = $(mic_jit_test)
tests_test_mic_jit_LDADD = src/core/libcore.a
tests_test_mic_jit_asan_SOURCES = $(mic_jit_test)
tests_test_mic_jit_asan_LDADD = tests/libcoresan.a
tests_test_mic_jit_asan_CFLAGS = $(san_cflags)
tests_test_mic_jit_asan_LDFLAGS = $(SAN_CFLAGS)
tests_test_mal_SOURCES = tests/test-mal.c tests/tap.h
tests_test_mal_LDADD = src/core/libcore.a
tests_test_mic1_SOURCES = tests/test-mic1.c tests/tap.h \
	tests/micro-test-util.h
tests_test_mic1_LDADD = src/core/libcore.a
tests_test_mic_diff_SOURCES = tests/test-mic-diff.c tests/tap.h \
	tests/micro-diff-lib.c tests/micro-diff-lib.h
tests_test_mic_diff_LDADD = src/core/libcore.a

san_tests += tests/test-mal-asan tests/test-mic1-asan tests/test-mic-diff-asan
tests_test_mal_asan_SOURCES = tests/test-mal.c tests/tap.h
tests_test_mal_asan_LDADD = tests/libcoresan.a
tests_test_mal_asan_CFLAGS = $(san_cflags)
tests_test_mal_asan_LDFLAGS = $(SAN_CFLAGS)
tests_test_mic1_asan_SOURCES = tests/test-mic1.c tests/tap.h \
	tests/micro-test-util.h
tests_test_mic1_asan_LDADD = tests/libcoresan.a
tests_test_mic1_asan_CFLAGS = $(san_cflags)
tests_test_mic1_asan_LDFLAGS = $(SAN_CFLAGS)
tests_test_mic_diff_asan_SOURCES = tests/test-mic-diff.c tests/tap.h \
	tests/micro-diff-lib.c tests/micro-diff-lib.h
tests_test_mic_diff_asan_LDADD = tests/libcoresan.a
tests_test_mic_diff_asan_CFLAGS = $(san_cflags)
tests_test_mic_diff_asan_LDFLAGS = $(SAN_CFLAGS)

# A driver of the micro levels' host engine for the shell tests
# (tests/mic-run.c says what it adds to micdb run).
check_PROGRAMS += tests/mic-run
tests_mic_run_SOURCES = tests/mic-run.c
tests_mic_run_CPPFLAGS = $(mic_cppflags)
tests_mic_run_LDADD = src/core/libcore.a

shell_tests += tests/mic-as.sh tests/mic-run.sh tests/mic-imul.sh
EXTRA_DIST += tests/textbook.mal tests/textbook-variant.mal
