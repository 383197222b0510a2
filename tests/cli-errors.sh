#!/bin/sh
# Every bad input gets one clear message, the documented exit code, no
# crash and no sanitizer report: bad files, bad options, faults in guest
# programs.  Runs the ASan/UBSan builds of the tools.
. "$(dirname "$0")/lib.sh"

M=$MICDB_ASAN
cd "$TMP" || exit 1

# --- bad program files -------------------------------------------------
run_cmd o e "$M" run nosuch.ijvm
expect_rc 2 "missing file"
expect_err "cannot open nosuch.ijvm" "missing file is named"

printf '\312\376\272\276xxxxxxxx' >bad-magic.ijvm
run_cmd o e "$M" run bad-magic.ijvm
expect_rc 2 "wrong magic"
expect_err "bad-magic.ijvm: not an IJVM binary" "wrong magic is explained"
no_sanitizer_report "wrong magic"

# 0x1DEADFAD written little-endian: AD DF EA 1D
printf '\255\337\352\035\000\001\000\000\000\000\000\000' >swapped.ijvm
run_cmd o e "$M" run swapped.ijvm
expect_rc 2 "byte-swapped magic"
expect_err "byte-swapped" "byte-swapped magic is explained"

printf '\035\352\337\255\000\001\000' >trunc.ijvm
run_cmd o e "$M" run trunc.ijvm
expect_rc 2 "truncated header"
expect_err "truncated block header" "truncated header is explained"

printf '\035\352\337\255\000\001\000\000\000\000\000\010abcd' >short.ijvm
run_cmd o e "$M" run short.ijvm
expect_rc 2 "size past the end"
expect_err "claims 8 bytes but only 4 remain" "size past the end is explained"

printf '\035\352\337\255\000\001\000\000\000\000\000\003abc\000\000\000\000\000\000\000\001\377' >cp3.ijvm
run_cmd o e "$M" run cp3.ijvm
expect_rc 2 "constant pool size not a multiple of 4"
expect_err "not a multiple of 4" "cp size is explained"

: >empty.ijvm
run_cmd o e "$M" run empty.ijvm
expect_rc 2 "empty file"
expect_err "too short" "empty file is explained"

cat >syntax.jas <<'JAS'
.main
	BIPUSH 300
	IADDD
	GOTO nowhere
.end-main
JAS
run_cmd o e "$M" run syntax.jas
expect_rc 2 "assembly errors in a .jas PROGRAM"
expect_err "syntax.jas:2:" "first error has file:line"
expect_err "syntax.jas:3:" "second error reported in the same run"
expect_err "syntax.jas:4:" "third error reported in the same run"
no_sanitizer_report "assembly errors"

run_cmd o e "$IJVM_AS_ASAN" syntax.jas
expect_rc 1 "ijvm-as with errors"
[ ! -e syntax.ijvm ]
ok $? "ijvm-as writes nothing when the source has errors"
no_sanitizer_report "ijvm-as errors"

run_cmd o e "$IJVM_DIS_ASAN" bad-magic.ijvm
expect_rc 2 "ijvm-dis on a bad file"
expect_err "not an IJVM binary" "ijvm-dis explains"

# --- bad options -------------------------------------------------------
cat >ok.jas <<'JAS'
.main
	BIPUSH 65
	OUT
	HALT
.end-main
JAS
for args in "--cores 0" "--cores abc" "--cores -5" "--warp-width 65" \
    "--stack-words 3" "--level foo" "--engine gpu" "--output fancy" \
    "--bogus" "--program ok.jas" "--program ok.jas:5-2" "--max-steps 0"; do
	# shellcheck disable=SC2086
	run_cmd o e "$M" run $args ok.jas
	expect_rc 2 "micdb run $args"
	[ -s e ] && [ "$(wc -l <e)" -le 3 ]
	ok $? "micdb run $args: a short message"
done
run_cmd o e "$M" run
expect_rc 2 "micdb run without a program"
expect_err "no program given" "missing program is explained"
[ "$(wc -l <e)" -eq 1 ]
ok $? "missing program: one line"
expect_err "(usage: micdb run [options] PROGRAM)" \
	"missing program: the usage line, once"
run_cmd o e "$M" run ok.jas extra.jas
expect_rc 2 "two positional programs"
run_cmd o e "$M" run --cores 2 --program ok.jas:0-0
expect_rc 2 "a core without a program"
expect_err "core 1 has no program" "uncovered core is named"
run_cmd o e "$M" run --program ok.jas:0-3 --program ok.jas:3-5
expect_rc 2 "overlapping --program ranges"
expect_err "core 3 is given two programs" "overlap is named"
run_cmd o e "$M" run --cores 4 --program ok.jas:0-7 ok.jas
expect_rc 2 "--program range beyond --cores"
run_cmd o e "$M" run --cores 67108864 --stack-words 1000000 ok.jas
expect_rc 2 "absurd memory request"
expect_err "lower --cores" "memory error says what to do"
no_sanitizer_report "absurd memory request"
run_cmd o e "$M" run --input nosuch.txt ok.jas
expect_rc 2 "missing --input file"
run_cmd o e "$M" frobnicate.jas
expect_rc 2 "micdb on a missing PROGRAM"
expect_err "cannot open frobnicate.jas" "the debugger names the missing file"

# --- faults in guest programs ------------------------------------------
fault() {
	# fault NAME EXPECTED-MESSAGE-PART CORES BODY: BODY (printf format) is main
	{ echo ".main"; printf "$4"; echo ".end-main"; } >"$1.jas"
	run_cmd o e "$M" run --cores "$3" "$1.jas"
	expect_rc 1 "fault $1"
	expect_err "$2" "fault $1: message names the fault"
	grep -qE 'core [0-9]+: .* at pc 0x[0-9a-f]{4} \(opcode 0x[0-9a-f]{2} [A-Z_]+' e
	ok $? "fault $1: one line with core, pc and opcode"
	no_sanitizer_report "fault $1"
}
fault underflow "operand stack underflow" 1 '\tPOP\n\tHALT\n'
fault underflow2 "operand stack underflow" 1 '\tBIPUSH 1\n\tIADD\n\tHALT\n'
fault overflow "stack overflow" 1 'l:\tBIPUSH 1\n\tGOTO l\n'
fault runoff "ran past the end" 1 '\tBIPUSH 1\n'
fault err "ERR executed" 1 '\tERR\n'
fault cpindex "constant-pool index" 1 '\tLDC_W 5\n\tHALT\n'
fault bounds "array index out of bounds" 1 '\tBIPUSH 3\n\tNEWARRAY\n\tBIPUSH 0\n\tSWAP\n\tBIPUSH 7\n\tSWAP\n\tIALOAD\n\tHALT\n'
fault negsize "negative size" 1 '\tBIPUSH -1\n\tNEWARRAY\n\tHALT\n'
fault notarray "not an array" 1 '\tBIPUSH 0\n\tBIPUSH 9\n\tIALOAD\n\tHALT\n'
fault retmain "IRETURN from main" 1 '\tIRETURN\n'
fault onecore "underflow" 4 '\tCOREID\n\tIFEQ z\n\tHALT\nz:\tPOP\n\tHALT\n'
grep -q "core 0:" e && ! grep -q "core 1:" e
ok $? "only the faulting core is reported; the others halt normally"

# a custom opcode (no ISA semantics)
printf '0x68 IMUL // multiply\n' >imul.conf
printf '.main\n\tBIPUSH 3\n\tBIPUSH 4\n\tIMUL\n\tHALT\n.end-main\n' >imul.jas
"$IJVM_AS" -c imul.conf -o imul.ijvm imul.jas
run_cmd o e "$M" run imul.ijvm
expect_rc 1 "unknown (custom) opcode at the ISA level"
expect_err "--level mic" "says to switch to microcode"

# a microprogram of the other micro level: one line naming the level it
# is for, not its translator's error for every line of it
UC=$top_srcdir/microcode
cp "$top_builddir/microcode/mic1.mic1" other.mic1
for c in "pmic $UC/mic1.mal pmic:Mic-1:mic" "pmic other.mic1 pmic:Mic-1:mic" \
    "mic $UC/pmic.pm mic:PMIC:pmic"; do
	set -- $c
	run_cmd o e "$M" run --level "$1" --microcode "$2" "$PROGRAMS/hello.jas"
	expect_rc 2 "--level $1 --microcode $(basename "$2")"
	IFS=: read -r lv what other <<EOF2
$3
EOF2
	[ "$(wc -l <e)" -eq 1 ] &&
	    grep -q "is a $what microprogram: the $lv level takes.*use --level $other for this one" e
	ok $? "--level $1 --microcode $(basename "$2"): one line that names the level"
done
# at the ISA level a PMIC microprogram is kept for set level pmic
printf 'set level pmic\ninfo registers\n' >pm.cmd
"$top_builddir/src/pmic-cc" "$UC/pmic.pm" -o nosym.pmic 2>e
run_cmd o e "$M" --batch pm.cmd --microcode nosym.pmic "$PROGRAMS/hello.jas"
expect_rc 0 "--microcode FILE.pmic at the ISA level, then set level pmic"
grep -q "^level: pmic (microprogram nosym.pmic)" o
ok $? "a .pmic given at the ISA level is the PMIC level's"
# without its symbols the word at MPC is disassembled, not called absent
grep -q "^core 0 at MPC 0x010: mar,sp = sp+one" o &&
    grep -q "^MIR  at MPC 0x010: mar,sp" o && ! grep -q "no micro-instruction" o
ok $? "a .pmic without symbols: stop line and MIR show the word at MPC"

# --- step limit ---------------------------------------------------------
printf '.main\nl:\tGOTO l\n.end-main\n' >loop.jas
run_cmd o e "$M" run --max-steps 1000 loop.jas
expect_rc 3 "step limit"
expect_err "stopped after 1000 steps" "step limit is reported"

# output produced before a fault is not lost
printf '.main\n\tBIPUSH 72\n\tOUT\n\tBIPUSH 105\n\tOUT\n\tPOP\n.end-main\n' >partial.jas
run_cmd o e "$M" run partial.jas
expect_rc 1 "fault after output"
[ "$(cat o)" = "Hi" ]
ok $? "output before the fault is kept"
run_cmd o e "$M" run --cores 2 partial.jas
[ "$(cat o)" = "[core 0] Hi
[core 1] Hi" ]
ok $? "unfinished lines are flushed per core at the end"

# output that cannot be written is an error, not a silently lost one
"$M" run "$PROGRAMS/hello.jas" >/dev/full 2>e </dev/null
rc=$?; err=e
expect_rc 2 "output to a full disk"
expect_err "cannot write output: No space left on device" \
    "output to a full disk: the reason is given"
no_sanitizer_report "output to a full disk"

# so is help or a version that cannot be written: every tool's --help
for cmd in "$M --help" "$M --version" "$IJVM_AS --help" "$IJVM_DIS --help" \
    "$top_builddir/src/mic1-as --help" "$top_builddir/src/pmic-cc --help"; do
	# shellcheck disable=SC2086
	$cmd >/dev/full 2>e </dev/null
	rc=$?; err=e
	name="${cmd##*/} to a full disk"
	expect_rc 2 "$name"
	expect_err "cannot write standard output: No space left on device" \
	    "$name: the reason is given"
done

done_testing
