#!/bin/sh
# What the user sees when the OpenCL device fails (doc/architecture.md,
# "When the device fails"): every OpenCL call site micdb reaches is made
# to fail once, through tests/oclfail.so (an LD_PRELOAD shim; its header
# says how OCLFAIL and OCLFAIL_REPORT choose the call and report the
# sites), under the ASan/UBSan build of micdb, for
#   - micdb run at the ISA, Mic-1 and PMIC levels,
#   - a debugger session in --batch (stepi, continue, set level,
#     reverse-stepi at both levels),
#   - micdb bench on a tiny configuration, and micdb bench debugger.
# A clean run first reports the sites and the index of each one's first
# call; then each site fails at that call.  Every outcome must be:
#   - no hang (timeout) and no sanitizer report;
#   - micdb run: exit 2 and one message on stderr naming the failed
#     call and its CL_* error, and saying what to do (lower --cores, or
#     another --device, or --engine ref); or, for a call micdb can do
#     without, exit 0 and the clean run's output;
#   - micdb bench and bench debugger: the same message, and exit 2
#     (micdb(1): the device failed, as for micdb run), or exit 0 with
#     its row;
#   - the debugger: either the failed command reports the error in the
#     transcript and the commands after it still work (a last stepi
#     reaches the device again), or exit 2 with the same message as run.
# Then the terminal comes back from a device failure in the TUI (tmux).
# The cases run two at a time (OCLFAIL_JOBS).  A site is a call and the
# function that made it; one that run walked is not walked again.
#
# OCLFAIL_SCENARIOS (run-isa run-mic run-pmic session bench bench-dbg tui, all by
# default) picks the scenarios, for a developer chasing one finding.
. "$(dirname "$0")/lib.sh"

SHIM=$top_builddir/tests/oclfail.so
BIN=$MICDB_ASAN
SUM=$top_srcdir/tests/batch/sum.jas
MAL=$top_srcdir/microcode/mic1.mal
cd "$TMP" || exit 1

run_cmd o e "$MICDB" devices
if grep -q "no OpenCL platform" e; then
	echo "1..0 # SKIP no OpenCL platform"
	exit 77
fi
if [ ! -f "$SHIM" ]; then
	echo "1..0 # SKIP tests/oclfail.so was not built"
	exit 77
fi
# ASan wants to be the first library loaded; the shim comes first here,
# and being second is harmless for what ASan checks.
ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0
export ASAN_OPTIONS

# The debugger session: every command that reaches the device, at both
# levels, and a last stepi whose answer shows the session still works.
cat >session.cmd <<'EOF'
break loop
stepi 3
continue
info registers
set level mic
stepi 4
reverse-stepi 2
set level isa
stepi 2
reverse-stepi
continue
stepi
print 6*7
EOF

# scenario NAME: the arguments of NAME, one a line, into NAME.args
scenario() {
	name=$1
	case $name in
	run-isa) set -- run --engine opencl --cores 4 "$SUM" ;;
	run-mic) set -- run --engine opencl --level mic --microcode "$MAL" \
	    --cores 4 "$SUM" ;;
	run-pmic) set -- run --engine opencl --level pmic --cores 4 "$SUM" ;;
	session) set -- --batch session.cmd --engine opencl \
	    --microcode "$MAL" --cores 4 "$SUM" ;;
	bench) set -- bench --quick --cores 2 --workloads uniform --reps 5 \
	    --run-seconds 0.001 --steps-per-launch 4 --no-ref ;;
	bench-dbg) set -- bench debugger --cores 16 --reps 5 ;;
	esac
	printf '%s\n' "$@" >"$name.args"
}

# inject NAME [OCLFAIL]: run scenario NAME (the shim failing OCLFAIL),
# stdout/stderr in o/e; a clean run reports its sites in NAME.sites.
inject() {
	name=$1
	report=
	[ -n "${2:-}" ] || report=$TMP/$name.sites
	# shellcheck disable=SC2046
	(IFS='
'; exec env OCLFAIL="${2:-}" OCLFAIL_REPORT="$report" \
	    LD_PRELOAD="$SHIM" timeout 60 "$BIN" $(cat "$name.args")) \
	    >o 2>e </dev/null
	rc=$?
}

# check_failure NAME SITE: the outcome of NAME with SITE failed
check_failure() {
	name=$1 site=$2
	why=
	[ "$rc" -eq 124 ] && why="$why hung"
	grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' e &&
	    why="$why sanitizer"
	# the call and its error, and what to do
	msg_ok=0
	grep -qE 'cl[A-Z][A-Za-z]+ failed: CL_|failed \(CL_' e o &&
	    grep -qE -- '--cores|--device|--engine' e o && msg_ok=1
	case $name in
	run-*)
		# a call whose failure micdb can do without (a fallback, a
		# release at exit): the same output as the clean run
		if [ "$rc" -eq 0 ] && cmp -s o "$name.clean"; then
			:
		else
			[ "$rc" -eq 2 ] || why="$why exit-$rc"
			[ $msg_ok = 1 ] || why="$why no-message"
		fi ;;
	bench|bench-dbg)
		# micdb(1): a device that fails a measurement is exit 2.  Its
		# figures differ run to run, so doing without a call shows as
		# exit 0 with its row in the table (a warp record that could not
		# be read leaves that run's SIMD figures as last read: the
		# engine contract's warps() has no error to give)
		if [ "$rc" -eq 0 ] && grep -qE "^isa  *uniform  *2 |^ *16  *[0-9]" o
		then
			:
		else
			[ "$rc" -eq 2 ] || why="$why exit-$rc"
			[ $msg_ok = 1 ] || why="$why no-message"
		fi ;;
	session)
		if cmp -s o "$name.clean"; then
			:
		elif [ "$rc" -eq 2 ]; then
			[ $msg_ok = 1 ] || why="$why no-message"
		else
			[ $msg_ok = 1 ] || why="$why error-not-reported"
			# the last stepi reached the device again
			awk '/^\(micdb\) stepi$/ { s = "" } { s = s "\n" $0 }
			    END { exit s !~ /\ncore [0-9]+ (\([a-z]+\) )?at / }' o &&
			    tail -n 1 o | grep -q '= 42$' ||
			    why="$why did-not-recover"
		fi ;;
	esac
	[ -z "$why" ]
	ok $? "$name: $site fails: ${why:-handled}"
	if [ -n "$why" ]; then
		diag "exit $rc" "$(head -c 1500 e)"
		[ "$rc" -eq 2 ] || diag "$(diff "$name.clean" o | head -n 20)"
	fi
}

# The runner of one case, for xargs: N NAME OCLFAIL -> N.o N.e N.rc
cat >runner.sh <<'RUNNER'
n=$1 name=$2 spec=$3
IFS='
'
# shellcheck disable=SC2046
OCLFAIL=$spec LD_PRELOAD=$SHIM timeout 60 "$BIN" $(cat "$name.args") \
    >"$n.o" 2>"$n.e" </dev/null
echo $? >"$n.rc"
RUNNER
export SHIM BIN

# 1. each scenario runs clean and reports its sites; 2. every site fails
# at its first call, two cases at a time; 3. the outcomes are checked.
# A site that run walked already is not walked again by run, nor by
# bench or bench-dbg where the call is the same whatever called its
# function (the
# debugger walks all of its own: what it must do after a failure is not
# what they do).
walked=
n=0
: >cases
for name in ${OCLFAIL_SCENARIOS:-run-isa run-mic run-pmic session bench bench-dbg \
    tui}; do
	[ "$name" = tui ] && continue
	scenario "$name"
	inject "$name"
	mv o "$name.clean"
	[ "$rc" -eq 0 ]
	ok $? "$name: runs clean under the shim"
	[ "$rc" -eq 0 ] || diag "exit $rc" "$(head -c 1500 e)"
	grep -v ' total ' "$name.sites" >"$name.walk"
	while read -r kind first calls site; do
		case $name in
		run-*)
			case " $walked " in *" $kind/$site "*) continue ;; esac
			walked="$walked $kind/$site ${kind}/${site%/*}" ;;
		bench*)
			case " $walked " in *" $kind/${site%/*} "*) continue ;;
			esac ;;
		esac
		n=$((n + 1))
		echo "$n $name $kind:$first $site $calls" >>cases
	done <"$name.walk"
done
cut -d ' ' -f 1-3 cases | xargs -r -P "${OCLFAIL_JOBS:-2}" -n 3 sh runner.sh
while read -r i name spec site calls; do
	cp "$i.o" o
	cp "$i.e" e
	rc=$(cat "$i.rc")
	check_failure "$name" "$spec ($site, $calls calls)"
done <cases

# --- the TUI: the terminal comes back -----------------------------------
case " ${OCLFAIL_SCENARIOS:-tui} " in
*" tui "*) ;;
*) echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; exit ;;
esac
if ! command -v tmux >/dev/null 2>&1; then
	diag "the TUI cases need tmux: not run"
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit
fi
. "$top_srcdir/tests/tui-lib.sh"
MICDB=env
# the session cannot open: micdb says why and ends before the screen
start open 100 30 OCLFAIL=setup:1 LD_PRELOAD="$SHIM" "$BIN" \
    --engine opencl --cores 4 "$SUM"
see "TUI, no device context: the message" open "clCreateContext failed"
terminal_back open "TUI, no device context" 2
# the device fails in the middle of a continue: the command reports it
# and the session goes on, or micdb ends with exit 2.  The failure goes
# on the continue's first enqueue whose failure the session reports
# (some have a silent fallback), found with --batch sessions: the open's
# enqueues are counted, then the continue's are failed in turn.
printf 'quit\n' >"$TMP/open.cmd"
printf 'continue\nquit\n' >"$TMP/cont.cmd"
OCLFAIL_REPORT="$TMP/open.rep" LD_PRELOAD="$SHIM" "$BIN" --batch \
    "$TMP/open.cmd" --engine opencl --cores 4 "$SUM" >/dev/null 2>&1
OCLFAIL_REPORT="$TMP/cont.rep" LD_PRELOAD="$SHIM" "$BIN" --batch \
    "$TMP/cont.cmd" --engine opencl --cores 4 "$SUM" >/dev/null 2>&1
opened=$(sed -n 's/^enqueue total //p' "$TMP/open.rep" | tail -1)
ran=$(sed -n 's/^enqueue total //p' "$TMP/cont.rep" | tail -1)
at=$((${opened:-0} + 1))
while [ "$at" -le "${ran:-0}" ]; do
	OCLFAIL=enqueue:$at LD_PRELOAD="$SHIM" "$BIN" --batch "$TMP/cont.cmd" \
	    --engine opencl --cores 4 "$SUM" >"$TMP/cont.out" 2>&1
	grep -qF "CL_OUT_OF_RESOU" "$TMP/cont.out" && break
	at=$((at + 1))
done
start mid 100 30 OCLFAIL=enqueue:$at LD_PRELOAD="$SHIM" \
    "$BIN" --engine opencl --cores 4 "$SUM"
wait_for mid "(micdb core" 20
wait_for mid "sum.jas on 4 cores" 10
type_line mid "continue"
see "TUI, the device fails in a continue: the message" mid "CL_OUT_OF_RESOU"
if ! screen mid | grep -qF "AFTER-mid"; then
	type_line mid "print 6*7"
	see "TUI, after the failure: the session goes on" mid "= 42"
	type_line mid "quit"
	terminal_back mid "TUI, quit after the failure" 0
else
	terminal_back mid "TUI, the device fails in a continue" 2
fi

echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
