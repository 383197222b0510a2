# The tests of the native engines' host threads, included from
# Makefile.am: tests/test-threads (the pool, the default count, each
# level's engine on 3 threads), tests/threads.sh (--threads and set
# threads end to end), and the ThreadSanitizer build of test-threads.c
# (test-threads-tsan): the threaded windows (ahead.c, par.c) under clang
# -fsanitize=thread, which gcc's ASan build cannot check.  Built with $(CLANG) when configure found one that can
# (HAVE_TSAN); the core's sources are compiled once into tests/tsan/obj.
# make check runs it through tests/threads-tsan.sh (a TAP SKIP without).

tsan_core_objs = $(patsubst %.c,tests/tsan/obj/%.o,$(filter %.c,$(core_sources)))
tsan_cflags = -g -O1 -fno-omit-frame-pointer -fsanitize=thread
tsan_headers = $(wildcard $(srcdir)/src/*/*.h $(srcdir)/src/core/*.def \
	$(srcdir)/tests/*.h)

tests/tsan/obj/%.o: $(srcdir)/%.c $(tsan_headers)
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(CLANG) $(AM_CPPFLAGS) $(WARN_CFLAGS) $(tsan_cflags) \
	    -c -o $@ $<

tests/test-threads-tsan: tests/tsan/obj/tests/test-threads.o \
	    $(tsan_core_objs)
	$(AM_V_CCLD)$(CLANG) -fsanitize=thread -o $@ $^ -lm -lpthread

if HAVE_TSAN
tsan_check = tests/test-threads-tsan
endif

unit_tests += tests/test-threads
tests_test_threads_SOURCES = tests/test-threads.c tests/tap.h
tests_test_threads_LDADD = src/core/libcore.a
shell_tests += tests/threads.sh tests/threads-tsan.sh
EXTRA_DIST += tests/threads.sh tests/threads-tsan.sh
MOSTLYCLEANFILES += tests/test-threads-tsan
.PRECIOUS: tests/tsan/obj/tests/%.o
