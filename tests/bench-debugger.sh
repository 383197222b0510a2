#!/bin/sh
# micdb bench debugger (doc/bench.md, "The debugger set"): a short run at
# small core counts on the test machine's OpenCL device, checked for the
# shape of its table and CSV, never for its figures: no test times
# anything.  Then bad input: one clear line, exit 2; a command the
# session refuses: exit 1.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
HEADER='device,program,cores,open_s,rss_mib,hwm_mib,stepi_ms,render_ms,reverse_stepi_ms,continue_ms,continue_steps'
COLLATZ=$top_srcdir/programs/collatz.jas

run_cmd out.txt err.txt "$MICDB" bench debugger --cores 32,65 --reps 5 \
	--csv d.csv
if [ "$rc" -eq 2 ] && grep -q "no OpenCL platform" err.txt; then
	echo "1..0 # SKIP no OpenCL platform"
	exit 77
fi
expect_rc 0 "bench debugger on 32 and 65 cores"
[ "$(head -n 1 d.csv)" = "$HEADER" ]
ok $? "CSV header is exactly doc/bench.md's"
[ "$(tail -n +2 d.csv | wc -l)" -eq 2 ]
ok $? "CSV has one row per core count"
# every figure a number, positive (steps at least 1); the device name may
# hold commas (quoted): count from the end
awk -F, 'NR > 1 {
	pos = "^[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$"
	for (i = NF - 7; i <= NF; i++)
		if ($i !~ pos || $i + 0 <= 0) bad = bad " field " i
	if ($(NF-9) != "collatz.jas") bad = bad " program"
	if ($(NF-8) != 32 && $(NF-8) != 65) bad = bad " cores"
	if ($NF + 0 < 1) bad = bad " continue_steps"
	if ($(NF-5) + 0 < $(NF-6) + 0) bad = bad " hwm < rss"
	if (bad != "") { print "row " NR ":" bad; bad = ""; fail = 1 }
} END { exit fail }' d.csv >fields.txt
ok $? "CSV figures parse: positive numbers, peak >= resident"
[ -s fields.txt ] && diag "$(cat fields.txt)"
grep -q '^micdb bench debugger: ' out.txt && grep -q 'driver ' out.txt
ok $? "the table names the device and the driver"
grep -q 'collatz.jas on the OpenCL engine' out.txt
ok $? "the table names the program and the engine"
grep -q 'stepi ms' out.txt && grep -q 'reverse-stepi ms' out.txt &&
	grep -q 'render ms' out.txt && grep -q 'continue ms' out.txt
ok $? "the table has every figure's column"
[ "$(grep -cE '^ +(32|65) +[0-9.]+ +[0-9]+ +[0-9]+  [0-9.]+ \[' out.txt)" \
	-eq 2 ]
ok $? "the table has a row per core count, with spreads"
[ "$(grep -c '^bench debugger: \[' err.txt)" -eq 2 ]
ok $? "one progress line per core count on stderr"

# A given program without --break: no continue figure, empty cells.
run_cmd out.txt err.txt "$MICDB" bench debugger --cores 8 --csv h.csv \
	"$top_srcdir/programs/hello.jas"
expect_rc 0 "a given program"
awk -F, 'NR == 2 { exit !($(NF-9) == "hello.jas" && $(NF-1) == "" &&
	$NF == "" && $(NF-4) != "") }' h.csv
ok $? "a given program without --break: continue cells empty, stepi not"

# --- bad input: one line, exit 2 ----------------------------------------
bad() {
	desc=$1 msg=$2
	shift 2
	run_cmd o.txt e.txt "$@"
	expect_rc 2 "$desc"
	expect_err "$msg" "$desc: says why"
	[ "$(wc -l <e.txt)" -eq 1 ]
	ok $? "$desc: one line"
}
B="$MICDB bench debugger --cores 8"
bad "bad core list" "bad core list '8,x'" $B --cores 8,x
bad "too few repetitions" "--reps needs a whole number from 5" $B --reps 2
bad "unknown option" "unknown option '--fast'" $B --fast
bad "two programs" "unexpected argument 'b.jas'" $B a.jas b.jas
bad "missing program" "cannot read nosuch.jas" $B nosuch.jas
bad "unwritable CSV" "/nonexistent/d.csv" $B --csv /nonexistent/d.csv

# a table or CSV that cannot be written (a full disk) is exit 2 with the
# reason, as an unwritable CSV, not a failed command (1)
"$MICDB" bench debugger --cores 32 >/dev/full 2>e.txt </dev/null
rc=$?; err=e.txt
expect_rc 2 "a table to a full disk"
expect_err "cannot write the table: No space left on device" \
    "a table to a full disk: says why"
run_cmd o.txt e.txt "$MICDB" bench debugger --cores 32 --csv /dev/full
expect_rc 2 "a CSV to a full disk"
expect_err "cannot write /dev/full: No space left on device" \
    "a CSV to a full disk: says why"

# a program the session cannot load is bad input like an unreadable one
# (exit 2, as micdb run); a command the session refuses is exit 1
printf 'not an instruction\n' >broken.jas
run_cmd o.txt e.txt $B broken.jas
expect_rc 2 "a program that does not assemble"
expect_err "broken.jas" "a program that does not assemble: names it"
run_cmd o.txt e.txt $B --reps 5 --break nosuchlabel "$COLLATZ"
expect_rc 1 "a breakpoint the session refuses"
expect_err "break nosuchlabel" "a breakpoint the session refuses: says which"

# collatz's default breakpoint on few cores: core N-1's sequence is too
# short for the continues at 8 cores (start 8: 4 turns), so another core
# of the last 64 takes it; at 1 core (start 1: one turn) no core can, and
# the table says so instead of failing the bench
run_cmd o.txt e.txt "$MICDB" bench debugger --cores 8
expect_rc 0 "8 cores: the default breakpoint"
awk '$1 == 8 && $(NF) ~ /^[0-9]+$/ && $(NF) > 0 { f = 1 } END { exit !f }' \
    o.txt
ok $? "8 cores: a continue figure, from a core whose loop is long enough"
run_cmd o.txt e.txt "$MICDB" bench debugger --cores 1
expect_rc 0 "1 core: no core's loop is long enough"
grep -q "^1 core: no continue figure: no core's loop turns 6 times" o.txt
ok $? "1 core: the table says why there is no continue figure"

run_cmd o.txt e.txt "$MICDB" bench debugger --help
expect_rc 0 "--help"
for opt in --cores --break --device --reps --csv --quick; do
	grep -q -- "$opt" o.txt
	ok $? "--help names $opt"
done

# --- the same under ASan/UBSan: no leak, no undefined behaviour -----------
if [ -x "$MICDB_ASAN" ]; then
	run_cmd o.txt e.txt "$MICDB_ASAN" bench debugger --cores 33
	expect_rc 0 "ASan build: a short run"
	no_sanitizer_report "ASan build: a short run"
else
	echo "ok $((tap_n + 1)) # SKIP no $MICDB_ASAN"
	tap_n=$((tap_n + 1))
fi

done_testing
