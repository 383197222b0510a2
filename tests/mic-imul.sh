#!/bin/sh
# The custom-instruction example: IMUL (0x68) is assembled with an
# instruction-set configuration file, runs at the micro level with the
# microprogram that implements it, and faults at the ISA level with a
# message that says to switch to the micro level.
. "$(dirname "$0")/lib.sh"

MIC_RUN=$top_builddir/tests/mic-run
MIC1_AS=$top_builddir/src/mic1-as
IMUL=$PROGRAMS/imul

run_cmd "$TMP/out" "$TMP/err" "$IJVM_AS" -c "$IMUL/imul.conf" \
	-o "$TMP/imul.ijvm" "$IMUL/imul.jas"
expect_rc 0 "imul.jas assembles with ijvm-as -c imul.conf"
run_cmd "$TMP/out" "$TMP/err" "$IJVM_AS" -o "$TMP/x.ijvm" "$IMUL/imul.jas"
expect_rc 1 "... and not without it"

run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" --microcode "$IMUL/imul.mal" \
	"$TMP/imul.ijvm"
expect_rc 0 "IMUL runs at the micro level with imul.mal"
cmp -s "$TMP/out" "$IMUL/imul.expected"
ok $? "products, wrapping ones included, and 10^0..10^9 by IMUL"
cmp -s "$TMP/out" "$IMUL/imul.expected" ||
	diag "$(diff "$IMUL/imul.expected" "$TMP/out" | head -10)"
"$MIC1_AS" -o "$TMP/imul.mic1" "$IMUL/imul.mal"
run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" --microcode "$TMP/imul.mic1" \
	"$TMP/imul.ijvm"
[ "$rc" -eq 0 ] && cmp -s "$TMP/out" "$IMUL/imul.expected"
ok $? "the same from the assembled imul.mic1"
run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" --cores 4 --microcode \
	"$IMUL/imul.mal" "$TMP/imul.ijvm"
[ "$rc" -eq 0 ] && [ "$(grep -c '^\[core 3\] 1000000000$' "$TMP/out")" -eq 1 ]
ok $? "on 4 cores"

run_cmd "$TMP/out" "$TMP/err" "$MICDB" run "$TMP/imul.ijvm"
expect_rc 1 "the ISA level faults on IMUL"
expect_err "run at the micro level" "... and says to switch to microcode"
expect_err "opcode 0x68" "... naming the opcode"
run_cmd "$TMP/out" "$TMP/err" "$MIC_RUN" "$TMP/imul.ijvm"
expect_rc 1 "microcode/mic1.mal does not know IMUL"
expect_err "unknown opcode" "... and reports an unknown opcode"

# imul.mal is microcode/mic1.mal plus the IMUL routine: keep them in step.
head -c "$(wc -c <"$top_srcdir/microcode/mic1.mal")" "$IMUL/imul.mal" |
	cmp -s - "$top_srcdir/microcode/mic1.mal"
ok $? "imul.mal starts with microcode/mic1.mal, unchanged"
done_testing
