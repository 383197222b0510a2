#!/bin/sh
# Traces through the OpenCL engine's records (doc/performance.md sections
# 25.1 and 25.2, src/core/tracebuf.h): micdb run --trace on the OpenCL
# engine runs launches of many steps, at every level, and writes each step
# (an ISA step or a micro-cycle) from the trace buffer the kernel fills;
# the file must be byte for byte the one
# the writer makes from the whole machine after one-step runs
# (MICDB_OCL_TEST's trace=0 keeps the engine from keeping records), in
# every format, and so must micdb run's exit status, output and messages.
# The runs cover what cuts a launch or changes what the host shows after
# it: cores that halt or fault mid-launch, a barrier and a join that the
# host completes at a launch's end, input breakpoints (core 0 reading
# standard input), the step limit, an interrupt, replays to a cut
# (drift: cores that overrun it), the GPU layout, narrow warps, traced
# cores past the first warp and more warps than get their own track.  Racy programs (an
# ATOMICADD's old value, shared arrays) are not compared: their runs
# differ with the steps per launch themselves (doc/manycore.md, "Memory
# consistency").  At the micro levels the records hold what the VCD's
# registers, MIR fields and datapath and the Perfetto frames and labels
# are made from (the shadow machine and level state of src/dbg/trace.c):
# fib and collatz at Mic-1 and PMIC, a machine of less than a warp, a
# fault with a barrier, replays, input breakpoints; and runs that end at
# full records, after which only the traced cores are current.
. "$(dirname "$0")/lib.sh"

if "$MICDB" devices 2>&1 | grep -q "no OpenCL platform"; then
	echo "1..0 # SKIP no OpenCL platform"
	exit 77
fi
cd "$TMP" || exit 1

# same NAME TUNING STDIN ARGS...: the run through the records and the
# one through the machine agree in every format of $fmts.  Each case's
# formats are those that read something of their own (the suite's time,
# issue 28): the JSON lines hold every traced core's registers each
# step, the Perfetto file the counters, frames and labels; at the ISA
# level the VCD holds only registers the JSON lines have, and the SVG
# draws the counters the Perfetto file has, so those two run in the
# first case and at the micro levels (the VCD's MIR and datapath).
fmts="jsonl json vcd svg"
same() {
	name=$1 tune=$2 input=$3
	shift 3
	for fmt in $fmts; do
		MICDB_OCL_TEST=$tune "$MICDB" run --engine opencl \
		    --trace "new.$fmt" "$@" >o1 2>e1 <"$input"
		r1=$?
		MICDB_OCL_TEST=${tune:+$tune,}trace=0 "$MICDB" run \
		    --engine opencl --trace "old.$fmt" "$@" >o2 2>e2 <"$input"
		r2=$?
		# a kernel build with a cold cache may add the compiler's
		# "1 warning generated." to either
		grep -v ' generated\.$' e1 >m1
		grep -v ' generated\.$' e2 >m2
		[ "$r1" -eq "$r2" ] && [ -s "new.$fmt" ] &&
		    cmp -s "new.$fmt" "old.$fmt" && cmp -s o1 o2 && cmp -s m1 m2
		ok $? "$name: $fmt from the records is the machine's (exit $r1)"
		[ "$r1" -eq "$r2" ] || diag "exit $r1 and $r2" "$(head -3 e1)"
		cmp -s "new.$fmt" "old.$fmt" ||
		    diag "$(cmp "new.$fmt" "old.$fmt" 2>&1)" \
		    "$(diff "old.$fmt" "new.$fmt" 2>&1 | head -8)"
		rm -f "new.$fmt" "old.$fmt"
	done
}

P=$PROGRAMS
same "collatz, 64 warps, cores past the first warp, step limit" "" \
    /dev/null --cores 2048 --max-steps 1200 --trace-cores 5,100-130,2047 \
    "$P/collatz.jas"
fmts="jsonl json"
same "collatz to the end: cores halt mid-launch" "k=50" /dev/null \
    --cores 96 "$P/collatz.jas"
same "a fault and a barrier completed at a launch's end" "k=7" /dev/null \
    --cores 40 "$P/faults/one_core_fails.jas"
same "the same with replays to the cut" "drift=1" /dev/null \
    --cores 70 "$P/faults/one_core_fails.jas"
# one work-group (32 cores): the workers' ATOMICADDs of a step return
# their old values in the device's order between work-groups, which
# POCL's threads make timing-dependent, so 40 cores gave a TOS that
# differed between two runs of a loaded machine, trace or not
same "fork-join: the join completed at a launch's end" "" /dev/null \
    --fork-join --cores 32 "$P/forksum.jas"
same "input breakpoints cut launches" "" "$P/echo.input" --cores 3 \
    "$P/echo.jas"
same "GPU layout, warps of 16, replays" "drift=1,layout=gpu" /dev/null \
    --cores 2000 --warp-width 16 --max-steps 1500 --trace-cores 0-3,1999 \
    "$P/collatz.jas"
same "a stack overflow" "" /dev/null --cores 40 \
    "$P/faults/stack_overflow.jas"

# The micro levels: a traced core's words are the level's (tracebuf.h).
fmts="jsonl json vcd"
for lv in mic pmic; do
	same "$lv: fib on 4 cores, less than a warp" "" /dev/null --level $lv \
	    --cores 4 --max-steps 6000 "$P/fib.jas"
	same "$lv: a fault and a barrier completed at a launch's end" "k=7" \
	    /dev/null --level $lv --cores 40 "$P/faults/one_core_fails.jas"
	same "$lv: input breakpoints cut launches" "" "$P/echo.input" \
	    --level $lv --cores 3 "$P/echo.jas"
done
same "mic: collatz, 64 warps, cores past the first warp" "" /dev/null \
    --level mic --cores 2048 --max-steps 400 --trace-cores 5,100-130,2047 \
    "$P/collatz.jas"
same "pmic: collatz, GPU layout, warps of 16, replays" "drift=1,layout=gpu" \
    /dev/null --level pmic --cores 300 --warp-width 16 --max-steps 1500 \
    --trace-cores 0-3,299 "$P/collatz.jas"

# Runs that end at full records (trace_steps: as a million cores' records
# end them) leave the cores the trace does not read behind until the
# checks between runs (doc/performance.md section 25.4): core 0 untraced,
# halts, faults, input breakpoints and the step limit's census must be
# the machine's.  full NAME STEPS ARGS...: same, with runs of STEPS.
full() {
	fname=$1 fsteps=$2
	shift 2
	same "runs ended by full records: $fname" "trace_steps=$fsteps" \
	    /dev/null "$@"
}
fmts="jsonl json"
full "core 0 untraced" 7 --cores 2048 --max-steps 1200 \
    --trace-cores 5,100-130,2047 "$P/collatz.jas"
full "cores halt" 5 --cores 96 "$P/collatz.jas"
full "a fault and a barrier" 3 --cores 40 "$P/faults/one_core_fails.jas"
fmts="jsonl json vcd"
full "mic, input breakpoints" 7 --level mic --cores 2048 --max-steps 400 \
    --trace-cores 5,100-130,2047 "$P/collatz.jas"
full "pmic" 9 --level pmic --cores 64 --max-steps 3000 "$P/fib.jas"

# Where launches and runs end is the engine's affair: the same run's
# trace is the same file whatever the steps per launch (k) and the runs'
# lengths (trace_steps).  On NVIDIA the ISA kernel's vote once per chunk
# of steps (kernels/isa.cl, MICDB_ISA_VOTE), where chunks start with each
# launch, made the kernel paths (k) of a divergent warp depend on them:
# two runs of collatz on a million cores on an H200 differed in k.  With
# the template group, NVIDIA's dispatch, which is where the vote acts;
# POCL does not vote (a vote emulated in local memory failed this), so
# there this checks the rest of the records' path.
# bounds NAME ARGS...: json and svg agree over the tunings.
bounds() {
	bname=$1
	shift
	for fmt in json svg; do
		for tune in "" k=3 k=50 trace_steps=7 k=5,trace_steps=13; do
			MICDB_OCL_TEST=dispatch=template${tune:+,$tune} \
			    "$MICDB" run --engine opencl --trace "b.$fmt" "$@" \
			    >/dev/null 2>&1 </dev/null
			if [ -z "$tune" ]; then
				mv "b.$fmt" "ref.$fmt"
				ok $? "$bname: $fmt written"
				continue
			fi
			cmp -s "b.$fmt" "ref.$fmt"
			ok $? "$bname: $fmt with $tune is the one without"
			cmp -s "b.$fmt" "ref.$fmt" ||
			    diag "$(diff "ref.$fmt" "b.$fmt" 2>&1 | head -6)"
			rm -f "b.$fmt"
		done
	done
}
bounds "divergent collatz, 32 warps" --cores 1024 --max-steps 1000 \
    --trace-cores 0-63,700 "$P/collatz.jas"
bounds "collatz, cores halt" --cores 96 "$P/collatz.jas"

# Interrupted mid-run, between launches with records: no trace, the file
# that was there stays (SIGINT once micdb catches it and has run a while).
printf 'before\n' >int.json
"$MICDB" run --engine opencl --cores 65536 --trace int.json \
    "$P/collatz.jas" >o 2>e </dev/null &
pid=$!
wait_until 120 catches "$pid" 2
t=$(cpu_ticks "$pid")
wait_until 120 ran_for "$pid" "${t:-0}" 50
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 3 ] && [ "$(cat int.json)" = before ] &&
    grep -q "interrupted: no trace written" e
ok $? "an interrupt between launches with records writes no trace (exit $rc)"

# The records are what the run reads: a run traced through them keeps
# its launches of many steps, where the machine's path runs one step a
# launch.  Counted, not timed (doc/performance.md 25.1 has the times):
# the OpenCL calls that enqueue work (tests/oclfail.so's report, no call
# failed), at least 4 times fewer through the records.
enqueues() {
	rm -f rep
	env OCLFAIL_REPORT=rep LD_PRELOAD="$top_builddir/tests/oclfail.so" \
	    "$@" >/dev/null 2>&1 </dev/null
	awk '$1 == "enqueue" && $2 == "total" { print $3 }' rep
}
if [ -f "$top_builddir/tests/oclfail.so" ]; then
	args="run --engine opencl --cores 4096 --max-steps 300 --trace x.json"
	new=$(enqueues env MICDB_OCL_TEST= "$MICDB" $args "$P/collatz.jas")
	old=$(enqueues env MICDB_OCL_TEST=trace=0 "$MICDB" $args \
	    "$P/collatz.jas")
	[ -n "$new" ] && [ -n "$old" ] && [ $((4 * new)) -le "$old" ]
	ok $? "a trace through the records keeps the launches of many steps"
	diag "enqueued: ${new:-?} through the records, ${old:-?} through the machine"
	# a micro level on few cores, where one-step launches cost the most
	args="run --engine opencl --level mic --cores 4 --max-steps 20000"
	args="$args --trace x.vcd"
	new=$(enqueues env MICDB_OCL_TEST= "$MICDB" $args "$P/fib.jas")
	old=$(enqueues env MICDB_OCL_TEST=trace=0 "$MICDB" $args "$P/fib.jas")
	[ -n "$new" ] && [ -n "$old" ] && [ $((4 * new)) -le "$old" ]
	ok $? "at Mic-1 too"
	diag "enqueued: ${new:-?} through the records, ${old:-?} through the machine"
fi

done_testing
