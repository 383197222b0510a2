#!/bin/sh
# The interpreters where executable memory is refused: under
# tests/nojit.so (an LD_PRELOAD shim whose mmap and mprotect refuse
# PROT_EXEC, as SELinux's execmem or PaX do) the translations into host
# code cannot be made (doc/performance.md section 24.4), and micdb must
# run every level's interpreter instead, silently and as right as ever.
# Here: the emitter's refusal path (tests/test-x64), the Mic-1
# differential test (tests/test-native-mic, the native engine against
# the golden model) and tests/test-mic-jit, whose last check then wants
# no translated cycle, both through the interpreter; and `micdb run` of
# samples at the Mic-1 level, whose output must be the expected one,
# with nothing on stderr.  The shim's report shows that it refused
# something, so that a shim that failed to load cannot pass for it.
. "$(dirname "$0")/lib.sh"

SHIM=$top_builddir/tests/nojit.so
if [ ! -f "$SHIM" ]; then
	echo "1..0 # SKIP tests/nojit.so was not built"
	exit 77
fi
REP=$TMP/report

# under_shim NAME CMD...: run CMD under the shim, out/err in TMP/NAME.*
under_shim() {
	name=$1
	shift
	: >"$REP"
	LD_PRELOAD=$SHIM NOJIT_REPORT=$REP "$@" >"$TMP/$name.out" \
	    2>"$TMP/$name.err" </dev/null
	rc=$?
	refused=$(awk '{ n += $2 } END { print n + 0 }' "$REP")
}

under_shim x64 "$top_builddir/tests/test-x64"
ok $rc "test-x64 under the shim (exit $rc)"
grep -q "a refused seal says why" "$TMP/x64.out"
ok $? "test-x64 saw the seal refused"
[ "$rc" -eq 0 ] || diag "$(grep -v '^ok' "$TMP/x64.out" | head -20)"

under_shim jit "$top_builddir/tests/test-mic-jit"
ok $rc "test-mic-jit under the shim: the interpreter ran right, and alone (exit $rc)"
[ "$rc" -eq 0 ] || diag "$(grep -v '^ok' "$TMP/jit.out" | head -20)"
[ "$refused" -gt 0 ]
ok $? "the shim refused executable memory ($refused times)"

under_shim native "$top_builddir/tests/test-native-mic"
ok $rc "the Mic-1 differential test under the shim (exit $rc)"
[ "$rc" -eq 0 ] || diag "$(grep '^not ok' "$TMP/native.out" | head -20)"

for s in fib decimal gcd; do
	"$IJVM_AS" "$PROGRAMS/$s.jas" -o "$TMP/$s.ijvm" || exit 1
	under_shim "$s" "$MICDB" run --level mic \
	    --microcode "$top_srcdir/tests/textbook.mal" "$TMP/$s.ijvm"
	cmp -s "$TMP/$s.out" "$PROGRAMS/$s.expected" && [ "$rc" -eq 0 ] &&
	    [ ! -s "$TMP/$s.err" ] && [ "$refused" -gt 0 ]
	ok $? "micdb run of $s at the Mic-1 level under the shim"
done
echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
