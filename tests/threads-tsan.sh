#!/bin/sh
# make check's ThreadSanitizer run of the native engines' host threads:
# tests/test-threads built with clang -fsanitize=thread (tests/threads.mk).
# Its own TAP lines must all pass and TSan must report nothing: a report
# (a data race between the window's threads) halts it with status 66.
# A TAP SKIP when configure found no clang that builds -fsanitize=thread.
. "$(dirname "$0")/lib.sh"

bin=$top_builddir/tests/test-threads-tsan
if [ ! -x "$bin" ]; then
	echo "1..0 # SKIP no ThreadSanitizer build (configure found no clang that builds -fsanitize=thread)"
	exit 0
fi
TSAN_OPTIONS=halt_on_error=1:exitcode=66 timeout 600 "$bin" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ]
ok $? "test-threads-tsan exits 0 (got $rc)"
[ $rc -eq 0 ] || diag "$(grep -A12 'ThreadSanitizer' "$TMP/err" | head -30)"
! grep -q 'WARNING: ThreadSanitizer' "$TMP/err"
ok $? "ThreadSanitizer reports no race"
! grep -q '^not ok' "$TMP/out" && grep -q '^ok' "$TMP/out"
ok $? "its own tests pass ($(grep -c '^ok' "$TMP/out") ok)"
grep '^not ok' "$TMP/out" | head -5 | while read -r l; do diag "$l"; done
done_testing
