#!/bin/sh
# The fault rule of the micro levels (doc/ijvm.md section 3): a faulting
# program faults at a micro level where that level's microprogram checks
# the fault.  PMIC checks everything the ISA level checks; the Mic-1
# microprogram, in the textbook's 512-word store, checks operand-stack
# underflow only in IRETURN, so a program that pops below its frame runs
# on inside its stack region and faults later: where IRETURN finds the
# frame broken, or where the machine finds the core outside its region.
# The facts after the message (depth, address and region) are read from
# the state the fault leaves, alike on every engine this build has.  The
# debugger says once which checks the Mic-1 level lacks; micdb run
# --level mic says it at the end of the run.
. "$(dirname "$0")/lib.sh"

dir=$top_srcdir/tests/limits
engines=ref
"$MICDB" devices >/dev/null 2>&1 && engines="ref opencl"

# check LEVEL ENGINE PROGRAM STDOUT STDERR-TEXT
check() {
	run_cmd "$TMP/out" "$TMP/err" "$MICDB" run --level "$1" --engine "$2" \
	    "$dir/$3.jas"
	[ "$rc" -eq 1 ] && [ "$(cat "$TMP/out")" = "$4" ] &&
	    grep -qF -- "$5" "$TMP/err"
	ok $? "$3 at the $1 level ($2): $5"
	[ "$rc" -eq 1 ] && grep -qF -- "$5" "$TMP/err" ||
	    diag "exit $rc" "$(cat "$TMP/out" "$TMP/err")"
}

for e in $engines; do
	for l in isa pmic; do
		check $l "$e" underflow-loop A \
		    "operand stack underflow (pop below the current frame): depth 0 words, POP pops 1 at pc 0x0003 (opcode 0x57 POP"
		check $l "$e" underflow-in-frame "" \
		    "operand stack underflow (pop below the current frame): depth 0 words, POP pops 1 at pc 0x0010 (opcode 0x57 POP"
	done
	check mic "$e" underflow-loop A \
	    "memory access outside the regions this core may use: address 0x7fff, between the constant pool and the stack region at pc 0x0003 (opcode 0x57 POP"
	check mic "$e" underflow-in-frame "" \
	    "operand stack underflow (pop below the current frame): depth 0 words, IRETURN pops 1 at pc 0x0013 (opcode 0xac IRETURN"
	run_cmd "$TMP/out" "$TMP/err" "$MICDB" run --level mic --engine "$e" \
	    "$dir/underflow-loop.jas"
	[ "$(grep -c '^micdb: note: at the Mic-1 level' "$TMP/err")" -eq 1 ]
	ok $? "micdb run --level mic ($e) ends with the note once"
done

# The debugger says once, at the first switch to Mic-1, which checks stop.
printf '%s\n' 'set level mic' 'set level isa' 'set level mic' \
    'set level pmic' 'set level mic' >"$TMP/s.cmd"
run_cmd "$TMP/out" "$TMP/err" "$MICDB" --batch "$TMP/s.cmd" --engine ref \
    "$top_srcdir/programs/fib.jas"
[ "$rc" -eq 0 ] && [ "$(grep -c '^note: at the Mic-1 level the microprogram does not check operand-stack underflow' "$TMP/out")" -eq 1 ]
ok $? "set level mic says once that the Mic-1 level does not check underflow"
grep -q "set level mic" "$TMP/out" &&
    [ "$(sed -n '2,3p' "$TMP/out" | grep -c '^note: ')" -eq 1 ]
ok $? "the note comes with the first switch"
done_testing
