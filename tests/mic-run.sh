#!/bin/sh
# The micro level end to end, through the mic engine (tests/mic-run, a
# driver until micdb run --level mic exists): every sample program with
# microcode/mic1.mal prints its .expected output; the fault demos fail
# and name their fault; breakpoints stop on an MPC; microcode comes from
# .mal, .mic1 or MICDB_MICROCODE_DIR, and a bad one is refused clearly.
. "$(dirname "$0")/lib.sh"

MIC_RUN=$top_builddir/tests/mic-run
MIC1_AS=$top_builddir/src/mic1-as

for expected in "$PROGRAMS"/*.expected; do
	name=$(basename "$expected" .expected)
	sample "$name"
	# shellcheck disable=SC2086
	(cd "$top_srcdir" && "$MIC_RUN" --input "$input" $opts $jas \
		>"$TMP/out" 2>"$TMP/err")
	rc=$?
	[ "$rc" -eq 0 ]
	ok $? "$name [$opts] at the micro level: exits 0"
	[ "$rc" -eq 0 ] || diag "$(head -c 1000 "$TMP/err")"
	same_output "$TMP/out" "$expected"
	ok $? "$name [$opts] at the micro level: output matches"
done

# The fault demos, except underflow: the micro level does not check the
# operand stack against the frame (only the loader knows main's frame).
# return_main: mic1.mal checks IRETURN in main (LV at the stack base).
for name in array_oob stack_overflow missing_halt one_core_fails return_main; do
	jas=$PROGRAMS/faults/$name.jas
	fault_opts "$jas"
	# shellcheck disable=SC2086
	"$MIC_RUN" $opts "$jas" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ]
	ok $? "faults/$name at the micro level: exits 1"
	same_output "$TMP/out" "${jas%.jas}.expected"
	ok $? "faults/$name: output before the fault is all there"
	grep -qF -- "$(sed "s/: .*//" "${jas%.jas}.expected-stderr")" "$TMP/err"
	ok $? "faults/$name: stderr names the fault"
	grep -qF -- "$(sed "s/: .*//" "${jas%.jas}.expected-stderr")" "$TMP/err" ||
		diag "$(cat "$TMP/err")"
done

# Breakpoints compare the MPC: OUT's routine (0xFD) runs once per byte.
run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" --break 0xFD "$PROGRAMS/hello.jas"
[ "$rc" -eq 0 ] &&
	[ "$(grep -c '^break 0x0fd core 0 ' "$TMP/err")" -eq "$(wc -c <"$TMP/out")" ]
ok $? "a breakpoint on MPC 0xFD stops before every OUT"
run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" --cores 3 --break 0xF0 \
	"$PROGRAMS/collatz.jas"
[ "$(grep -c '^break 0x0f0 core ' "$TMP/err")" -ge 3 ]
ok $? "a breakpoint stops every core that reaches it"

# Where microcode comes from.
"$MIC1_AS" -o "$TMP/m.mic1" -s "$TMP/m.sym" "$top_srcdir/microcode/mic1.mal"
run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" --microcode "$TMP/m.mic1" \
	"$PROGRAMS/fib.jas"
[ "$rc" -eq 0 ] && cmp -s "$TMP/out" "$PROGRAMS/fib.expected"
ok $? "an assembled .mic1 runs like its .mal"
mkdir -p "$TMP/mc"
printf '.label nop1 0x00\nnop1 goto Main1\nMain1 H = FOO; goto nop1\n' \
	>"$TMP/mc/mic1.mal"
MICDB_MICROCODE_DIR=$TMP/mc "$MIC_RUN" "$PROGRAMS/hello.jas" \
	>"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
[ "$rc" -eq 2 ] && grep -q "mc/mic1.mal:3:11: unknown register 'FOO'" "$TMP/err"
ok $? "MICDB_MICROCODE_DIR names the default; assembler errors are shown"
head -c 100 "$TMP/m.mic1" >"$TMP/short.mic1"
run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" --microcode "$TMP/short.mic1" \
	"$PROGRAMS/hello.jas"
[ "$rc" -eq 2 ] && grep -q "short.mic1: a .mic1 file is 2564 bytes" "$TMP/err"
ok $? "a truncated .mic1 is refused with its name"
run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" --microcode "$PROGRAMS/hello.jas" \
	"$PROGRAMS/hello.jas"
[ "$rc" -eq 2 ] && grep -q "hello.jas:" "$TMP/err"
ok $? "a file that is neither MAL nor .mic1 gives assembler errors"
done_testing
