#!/bin/sh
# The PMIC level's translation into x86-64 code (src/host/pmic-jit.c,
# doc/performance.md section 24.5) and the interpreter it falls back to.
# tests/test-pmic-jit shows that the translated code runs (most of a
# sample's cycles) and ends every run as the golden model does; under
# tests/nojit.so, which refuses executable memory as a hardened kernel
# does, no cycle is translated and the engine's interpreter gives the
# same results: the differential test of the native engine
# (tests/test-native-pmic) on a few samples, test-pmic-jit, and `micdb
# run`, silent about it.
. "$(dirname "$0")/lib.sh"

SHIM=$top_builddir/tests/nojit.so
if [ ! -f "$SHIM" ]; then
	echo "1..0 # SKIP tests/nojit.so was not built"
	exit 77
fi
cd "$TMP" || exit 1

# passes LOG: a TAP log with tests and no failure
passes() {
	grep -q '^ok' "$1" && ! grep -q '^not ok' "$1"
}

run_cmd o e env top_srcdir="$top_srcdir" "$top_builddir/tests/test-pmic-jit"
passes o && [ "$rc" -eq 0 ]
ok $? "test-pmic-jit: the translated code runs, as the golden model"
passes o || diag "$(grep -A3 '^not ok' o | head -20)"

: >report
run_cmd o e env top_srcdir="$top_srcdir" LD_PRELOAD="$SHIM" \
	NOJIT_REPORT="$TMP/report" "$top_builddir/tests/test-pmic-jit" --none
passes o && [ "$rc" -eq 0 ]
ok $? "test-pmic-jit --none under nojit.so: the interpreter alone, the same"
passes o || diag "$(grep -A3 '^not ok' o | head -20)"
grep -q '^refused [1-9]' report
ok $? "nojit.so refused the translation's executable memory"

for s in programs/fib.jas programs/sieve.jas programs/wide.jas \
    programs/faults/underflow.jas programs/faults/array_oob.jas programs/bench/single.jas; do
	run_cmd o e env top_srcdir="$top_srcdir" LD_PRELOAD="$SHIM" \
		timeout 600 "$top_builddir/tests/test-native-pmic" "$s"
	passes o && [ "$rc" -eq 0 ]
	ok $? "test-native-pmic $s under nojit.so: the interpreter as the golden model"
	passes o || diag "$(grep -A3 '^not ok' o | head -20)"
done

run_cmd want e "$MICDB" run --level pmic "$PROGRAMS/collatz.jas"
expect_rc 0 "micdb run --level pmic collatz.jas"
run_cmd o e env LD_PRELOAD="$SHIM" "$MICDB" run --level pmic \
	"$PROGRAMS/collatz.jas"
expect_rc 0 "the same under nojit.so"
cmp -s o want && [ ! -s e ]
ok $? "under nojit.so: the same output, nothing said about it"

echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
