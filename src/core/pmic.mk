# Build rules of the PMIC level (doc/pmic.md): compiler, golden-model
# simulator, its engine, pmic-cc and the project's PMIC microprogram,
# included from Makefile.am.
#
# src/core gains the PMIC encoding (pmic-enc.c), src/model its simulator
# (pmic-sim.c), src/asm the compiler of the PMIC language (pmc.c) and
# src/host the fast loop of its host engine (engine-pmic-fast.c) and
# that loop's translation into x86-64 code (pmic-jit.c);
# src/pmic-cc is the compiler's command line.  Every unit test is built twice, plain and
# with ASan/UBSan, as mic.mk does.

core_sources += \
	src/core/pmic-enc.c \
	src/core/pmic-enc.h \
	src/core/pmic-word.h \
	src/asm/pmc.c \
	src/asm/pmc.h \
	src/model/pmic-sim.c \
	src/model/pmic.h \
	src/host/engine-pmic-fast.c \
	src/host/pmic-jit.c \
	src/host/pmic-jit.h

bin_PROGRAMS += src/pmic-cc
src_pmic_cc_SOURCES = src/tools/pmic-cc.c src/tools/ucode-cli.c \
	src/tools/ucode-cli.h
src_pmic_cc_LDADD = src/core/libcore.a

dist_man_MANS += man/pmic-cc.1

# ---- tests ----------------------------------------------------------------

unit_tests += tests/test-pmc
tests_test_pmc_SOURCES = tests/test-pmc.c tests/tap.h
tests_test_pmc_LDADD = src/core/libcore.a

san_tests += tests/test-pmc-asan
tests_test_pmc_asan_SOURCES = tests/test-pmc.c tests/tap.h
tests_test_pmc_asan_LDADD = tests/libcoresan.a
tests_test_pmc_asan_CFLAGS = $(san_cflags)
tests_test_pmc_asan_LDFLAGS = $(SAN_CFLAGS)

unit_tests += tests/test-pmic
tests_test_pmic_SOURCES = tests/test-pmic.c tests/tap.h \
	tests/micro-test-util.h
tests_test_pmic_LDADD = src/core/libcore.a

san_tests += tests/test-pmic-asan
tests_test_pmic_asan_SOURCES = tests/test-pmic.c tests/tap.h \
	tests/micro-test-util.h
tests_test_pmic_asan_LDADD = tests/libcoresan.a
tests_test_pmic_asan_CFLAGS = $(san_cflags)
tests_test_pmic_asan_LDFLAGS = $(SAN_CFLAGS)

shell_tests += tests/pmic-cc.sh tests/pmic-prog.sh

unit_tests += tests/test-pmic-diff
tests_test_pmic_diff_SOURCES = tests/test-pmic-diff.c tests/tap.h \
	tests/micro-diff-lib.c tests/micro-diff-lib.h
tests_test_pmic_diff_LDADD = src/core/libcore.a

san_tests += tests/test-pmic-diff-asan
tests_test_pmic_diff_asan_SOURCES = tests/test-pmic-diff.c tests/tap.h \
	tests/micro-diff-lib.c tests/micro-diff-lib.h
tests_test_pmic_diff_asan_LDADD = tests/libcoresan.a
tests_test_pmic_diff_asan_CFLAGS = $(san_cflags)
tests_test_pmic_diff_asan_LDFLAGS = $(SAN_CFLAGS)

# The project's PMIC microprogram (the other engineer's microcode/pmic.pm),
# installed beside mic1.mal; micdb compiles it when it loads it.
dist_microcode_DATA += $(srcdir)/microcode/pmic.pm

# The micro levels' native engine against their golden models
# (tests/test-native.c built for each level; mic.mk has no PMIC store, so
# both builds live here, after both levels' sources).
native_test_sources = tests/test-native.c tests/native-gen.h \
	tests/native-suite.h tests/tap.h
unit_tests += tests/test-native-mic tests/test-native-pmic
san_tests += tests/test-native-mic-asan tests/test-native-pmic-asan
tests_test_native_mic_SOURCES = $(native_test_sources)
tests_test_native_mic_CPPFLAGS = $(AM_CPPFLAGS) -DNATIVE_LEVEL=LEVEL_MIC
tests_test_native_mic_LDADD = src/core/libcore.a
tests_test_native_pmic_SOURCES = $(native_test_sources)
tests_test_native_pmic_CPPFLAGS = $(AM_CPPFLAGS) -DNATIVE_LEVEL=LEVEL_PMIC
tests_test_native_pmic_LDADD = src/core/libcore.a
tests_test_native_mic_asan_SOURCES = $(native_test_sources)
tests_test_native_mic_asan_CPPFLAGS = $(tests_test_native_mic_CPPFLAGS)
tests_test_native_pmic_asan_SOURCES = $(native_test_sources)
tests_test_native_pmic_asan_CPPFLAGS = $(tests_test_native_pmic_CPPFLAGS)
tests_test_native_mic_asan_LDADD = tests/libcoresan.a
tests_test_native_pmic_asan_LDADD = tests/libcoresan.a
tests_test_native_mic_asan_CFLAGS = $(san_cflags)
tests_test_native_pmic_asan_CFLAGS = $(san_cflags)
tests_test_native_mic_asan_LDFLAGS = $(SAN_CFLAGS)
tests_test_native_pmic_asan_LDFLAGS = $(SAN_CFLAGS)

# The translation into x86-64 code runs, and the interpreter under
# tests/nojit.so (tests/pmic-jit.sh runs both).
unit_tests += tests/test-pmic-jit
san_tests += tests/test-pmic-jit-asan
tests_test_pmic_jit_SOURCES = tests/test-pmic-jit.c tests/tap.h
tests_test_pmic_jit_LDADD = src/core/libcore.a
tests_test_pmic_jit_asan_SOURCES = tests/test-pmic-jit.c tests/tap.h
tests_test_pmic_jit_asan_LDADD = tests/libcoresan.a
tests_test_pmic_jit_asan_CFLAGS = $(san_cflags)
tests_test_pmic_jit_asan_LDFLAGS = $(SAN_CFLAGS)
shell_tests += tests/pmic-jit.sh
