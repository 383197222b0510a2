# libFuzzer targets (tests/fuzz), included from Makefile.am.  They are
# built with clang (-fsanitize=fuzzer,address,undefined) when configure
# found one that can (HAVE_LIBFUZZER, $(CLANG)); gcc builds everything
# else.  The sources a target reads are compiled once by clang into
# tests/fuzz/obj/, beside the targets.  `make check` runs a few seconds
# of each (tests/fuzz/smoke.sh, a TAP SKIP without clang); `make fuzz`
# runs each for FUZZ_SECONDS (tests/fuzz/run.sh); `make fuzz-pack` makes
# FUZZ_PACK, a copy that runs on another machine (tests/fuzz/README.md).

fuzz_names = ijvm jas conf mal mic1 sym pm pmic dbg expr batch dap
fuzz_bins = $(fuzz_names:%=tests/fuzz/fuzz-%)

fuzz_core_objs = $(patsubst %.c,tests/fuzz/obj/%.o,$(filter %.c,$(core_sources)))
fuzz_dbg_objs = $(patsubst %.c,tests/fuzz/obj/%.o,$(filter %.c,$(dbg_sources)))
fuzz_expr_objs = tests/fuzz/obj/src/dbg/expr.o tests/fuzz/obj/src/dbg/coreset.o
fuzz_batch_objs = tests/fuzz/obj/src/batch/batch.o
fuzz_dap_objs = $(patsubst %.c,tests/fuzz/obj/%.o,$(filter %.c,$(dap_sources)))

fuzz_cflags = -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined
fuzz_link_flags = -fsanitize=fuzzer,address,undefined
fuzz_cppflags = $(AM_CPPFLAGS) -I$(srcdir)/src/dbg -I$(srcdir)/src/batch \
	-I$(srcdir)/src/dap $(JSON_C_CFLAGS) -I$(srcdir)/tests/fuzz
fuzz_headers = $(wildcard $(srcdir)/src/*/*.h $(srcdir)/src/core/*.def \
	$(srcdir)/tests/fuzz/*.h)

tests/fuzz/obj/%.o: $(srcdir)/%.c $(fuzz_headers)
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(CLANG) $(fuzz_cppflags) $(WARN_CFLAGS) $(fuzz_cflags) \
	    -c -o $@ $<

tests/fuzz/fuzz-dbg: tests/fuzz/obj/tests/fuzz/fuzz-dbg.o \
	    $(fuzz_dbg_objs) $(fuzz_core_objs)
	$(AM_V_CCLD)$(CLANG) $(fuzz_link_flags) -o $@ $^ -lm
tests/fuzz/fuzz-batch: tests/fuzz/obj/tests/fuzz/fuzz-batch.o \
	    $(fuzz_batch_objs) $(fuzz_dbg_objs) $(fuzz_core_objs)
	$(AM_V_CCLD)$(CLANG) $(fuzz_link_flags) -o $@ $^ -lm
tests/fuzz/fuzz-dap: tests/fuzz/obj/tests/fuzz/fuzz-dap.o \
	    $(fuzz_dap_objs) $(fuzz_dbg_objs) $(fuzz_core_objs)
	$(AM_V_CCLD)$(CLANG) $(fuzz_link_flags) -o $@ $^ $(JSON_C_LIBS) -lm
tests/fuzz/fuzz-expr: tests/fuzz/obj/tests/fuzz/fuzz-expr.o \
	    $(fuzz_expr_objs) $(fuzz_core_objs)
	$(AM_V_CCLD)$(CLANG) $(fuzz_link_flags) -o $@ $^ -lm
tests/fuzz/fuzz-%: tests/fuzz/obj/tests/fuzz/fuzz-%.o $(fuzz_core_objs)
	$(AM_V_CCLD)$(CLANG) $(fuzz_link_flags) -o $@ $^ -lm

if HAVE_LIBFUZZER
check_SCRIPTS = $(fuzz_bins)
fuzz: $(fuzz_bins) src/ijvm-as$(EXEEXT) src/mic1-as$(EXEEXT) \
	    src/pmic-cc$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/tests/fuzz/run.sh $(FUZZ_SECONDS)
# a copy of the targets that runs on another machine (run.sh --pack)
fuzz-pack: $(fuzz_bins) src/ijvm-as$(EXEEXT) src/mic1-as$(EXEEXT) \
	    src/pmic-cc$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/tests/fuzz/run.sh --pack $(FUZZ_PACK)
else
fuzz fuzz-pack:
	@echo "make $@: configure found no clang that builds" \
	    "-fsanitize=fuzzer (apt-get install clang)"; exit 1
endif
FUZZ_SECONDS = 60
FUZZ_PACK = micdb-fuzz
.PHONY: fuzz fuzz-pack

shell_tests += tests/fuzz/smoke.sh
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/README.md \
	$(fuzz_names:%=$(srcdir)/tests/fuzz/fuzz-%.c) \
	$(wildcard $(srcdir)/tests/fuzz/*.h) \
	$(wildcard $(srcdir)/tests/fuzz/dict/*.dict) \
	$(wildcard $(srcdir)/tests/fuzz/seeds/*/*)
MOSTLYCLEANFILES += $(fuzz_bins)
.PRECIOUS: tests/fuzz/obj/tests/fuzz/%.o
