#!/bin/sh
# The native ISA engine where executable memory cannot be had (a
# hardened kernel, SELinux execmem): its translation into x86-64 code
# (native-jit.c, doc/performance.md section 24.6) is not built and the
# interpreter runs every step, silently and with the same results.
# tests/nojit.so refuses PROT_EXEC; under it, the translation's own test
# (which then expects no translated step), the ISA differential test on
# samples that reach calls, wide locals, arrays, faults and many cores,
# and micdb run of samples against their expected output.  The shim's
# report shows that it refused, so none of this passes by running the
# translation after all.
. "$(dirname "$0")/lib.sh"

NOJIT=$top_builddir/tests/nojit.so
export top_srcdir

LD_PRELOAD=$NOJIT NOJIT_REPORT=$TMP/report \
	"$top_builddir/tests/test-native-jit" >"$TMP/jit" 2>&1
ok $? "test-native-jit under nojit.so: the interpreter alone, as the reference"
grep -q 'without executable memory' "$TMP/jit"
ok $? "test-native-jit saw no executable memory"
grep -q '^refused [1-9]' "$TMP/report"
ok $? "nojit.so refused executable memory"

for s in programs/fib.jas programs/recsum.jas programs/wide.jas \
    programs/sieve.jas programs/faults/underflow.jas \
    programs/faults/return_main.jas programs/faults/stack_overflow.jas; do
	[ -f "$top_srcdir/$s" ] || continue
	LD_PRELOAD=$NOJIT "$top_builddir/tests/test-native" "$s" \
		>"$TMP/native" 2>&1
	ok $? "test-native $s under nojit.so"
	grep '^not ok' "$TMP/native" | head -3 | while read -r l; do diag "$l"; done
done

for s in fib recsum decimal; do
	LD_PRELOAD=$NOJIT NOJIT_REPORT=$TMP/run "$MICDB" run \
		"$PROGRAMS/$s.jas" >"$TMP/out" 2>&1
	cmp -s "$TMP/out" "$PROGRAMS/$s.expected"
	ok $? "micdb run $s under nojit.so: its expected output"
done
grep -q '^refused [1-9]' "$TMP/run"
ok $? "nojit.so refused micdb's executable memory"

echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
