#!/bin/sh
# micdb run says what a long run does (doc/debugger.md section 1): on a
# terminal a progress line on stderr that appears after a second, is
# redrawn while the run goes on and is erased at the end; nothing of it
# when stderr is not a terminal.  Ctrl-C, SIGTERM and --max-steps print
# where the cores that have not ended are: the census of info cores by
# place, with the method's label and the source line.  At --level mic a
# run that broke a rule the Mic-1 microprogram does not check ends with
# the debugger's note.
#
# tests/run/spin-some.jas: every fourth core calls forever(), which never
# returns; the others halt at once.  The reference engine steps every
# core at once, so at a stop the 16 of 64 spinning cores share one PC.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui-lib.sh"

spin=$top_srcdir/tests/run/spin-some.jas
counts="64 cores: 16 running, 0 waiting, 48 halted, 0 faulted"
place='16 cores running at 0x00[0-9a-f]{2} \((forever#)?loop(\+[0-9]+)?, spin-some\.jas:2[34]\): cores 0, 4, 8, 12 and 12 more'

# the step number of the progress line on the screen of session $1
progress_step() {
	screen "$1" | sed -n 's/.*micdb run: step \([0-9][0-9]*\):.*/\1/p' |
	    tail -n 1
}

# --- on a terminal -------------------------------------------------------

start prog 120 30 run --engine ref --cores 64 "$spin"
see "terminal: the progress line appears" prog "micdb run: step" 15
see_re "terminal: it counts the cores and the rate" prog \
    "step [0-9]+: 16 running, 0 waiting, 48 halted, 0 faulted; [0-9.]+[kMGT]? instr/s"
first=$(progress_step prog)
i=0 now=$first
while [ "$i" -lt 200 ] && { [ -z "$now" ] || [ "$now" = "$first" ]; }; do
	sleep 0.05
	now=$(progress_step prog)
	i=$((i + 1))
done
[ -n "$first" ] && [ -n "$now" ] && [ "$now" != "$first" ]
ok $? "terminal: the progress line is redrawn (step $first, then $now)"
[ "$(screen prog | grep -c 'micdb run: step')" -eq 1 ]
ok $? "terminal: one progress line, redrawn in place"
keys prog C-c
see "Ctrl-C: the step count" prog "micdb: interrupted after"
see "Ctrl-C: the census counts the cores" prog "micdb: $counts"
see_re "Ctrl-C: the looping cores by place, label and line" prog "$place"
! screen prog | grep -q "instr/s"
ok $? "Ctrl-C: the progress line is erased"
terminal_back prog "Ctrl-C" 3

# --- not a terminal ------------------------------------------------------

# signal_run SIGNAL: micdb run on spin-some.jas with stdout and stderr in
# files, sent SIGNAL once it has set its handlers (SIGINT, SIGTERM) and
# run on past the progress line's first second: 1.5 s of its own CPU
# time, which the reference engine, on one thread, spends in as much
# wall time or more.  Both are states of the process, which a loaded
# machine only delays (the bounds are generous); status in $rc.
handlers_set() {
	catches "$1" 2 && catches "$1" 15
}
signal_run() {
	"$MICDB" run --engine ref --cores 64 "$spin" >"$TMP/o" 2>"$TMP/e" \
	    </dev/null &
	_pid=$!
	if wait_until 60 handlers_set $_pid; then
		_t0=$(cpu_ticks $_pid)
		wait_until 120 ran_for $_pid "${_t0:-0}" 150 ||
		    diag "micdb run used less than 1.5 s of CPU in 120 s"
	else
		diag "micdb run set no handler for SIGINT and SIGTERM in 60 s"
	fi
	kill -"$1" $_pid 2>/dev/null
	wait $_pid
	rc=$?
}

signal_run INT
out=$TMP/o err=$TMP/e
expect_rc 3 "no terminal, SIGINT: interrupted"
! grep -q "instr/s" "$err" && ! grep -q "$(printf '\r')" "$err"
ok $? "no terminal: no progress line"
expect_err "$counts" "no terminal, SIGINT: the census counts the cores"
grep -qE -- "$place" "$err"
ok $? "no terminal, SIGINT: the looping cores by place"

signal_run TERM
expect_rc 143 "SIGTERM: micdb ends by the signal, as before"
expect_err "micdb: terminated after" "SIGTERM: says it was terminated"
grep -qE -- "$place" "$err"
ok $? "SIGTERM: the looping cores by place"

run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 64 \
    --max-steps 1000 "$spin"
expect_rc 3 "--max-steps: the step limit"
expect_err "stopped after 1000 steps with cores still running" \
    "--max-steps: says where it stopped"
expect_err "$counts" "--max-steps: the census counts the cores"
grep -qE -- "$place" "$err"
ok $? "--max-steps: the looping cores by place"
[ "$(grep -c 'cores\? running at' "$err")" -eq 1 ] &&
    ! grep -q "halted at" "$err"
ok $? "--max-steps: only the cores that have not ended are listed"

# A census over more places than a screen: capped, the rest counted.
# collatz at 256 cores: by step 500 the cores are spread over more
# places than that (their sequences differ).
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 256 \
    --max-steps 500 "$PROGRAMS/collatz.jas"
expect_rc 3 "--max-steps on collatz: the step limit"
n=$(grep -c '^  [0-9][0-9]* cores\? [a-z]* at ' "$err")
[ "$n" -eq 20 ] && grep -qE '^  \.\.\. and [0-9]+ more groups?$' "$err"
ok $? "a census of many places: 20 lines, then how many more"
[ "$n" -eq 20 ] || diag "$(cat "$err")"

# --- the Mic-1 note ----------------------------------------------------------

note="note: at the Mic-1 level the microprogram does not check operand-stack underflow"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --level mic --engine ref \
    "$PROGRAMS/faults/underflow.jas"
expect_rc 0 "--level mic, IADD on a one-word stack: the textbook's Mic-1 runs on"
expect_err "$note" "--level mic, IADD on a one-word stack: the debugger's note"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --level mic --engine ref \
    "$top_srcdir/tests/limits/underflow-loop.jas"
expect_rc 1 "--level mic, POP forever: faults outside the stack region"
expect_err "$note" "--level mic, POP forever: the note says why so late"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --level mic --engine ref \
    "$PROGRAMS/fib.jas"
expect_rc 0 "--level mic, fib: runs"
[ ! -s "$err" ]
ok $? "--level mic, fib: no note where no rule was broken"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref \
    "$PROGRAMS/faults/underflow.jas"
expect_rc 1 "ISA level: the underflow is a fault"
! grep -qF "$note" "$err"
ok $? "ISA level: no Mic-1 note"

done_testing
