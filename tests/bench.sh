#!/bin/sh
# micdb bench: a short run on the test machine's OpenCL device (POCL) and
# its outputs, checked for shape and sense, never for speed: no test
# times anything (doc/bench.md).  Then every bad input: one clear line, exit
# 2; and a workload that fails its own check: exit 1.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
HEADER='device,level,workload,cores,steps_per_launch,instr_per_s,ref_instr_per_s,ratio_vs_ref,step_latency_ms,render_ms,bytes_per_core,simd_efficiency,cycles_per_instr,native_instr_per_s,native_vs_ref,default_engine,native_threads'

# --- the short run ------------------------------------------------------
run_cmd out.txt err.txt "$MICDB" bench --quick --cores 1,33 \
	--workloads uniform,divergent --reps 5 --csv b.csv --svg b.svg
if [ "$rc" -eq 2 ] && grep -q "no OpenCL platform" err.txt; then
	echo "1..0 # SKIP no OpenCL platform"
	exit 77
fi
expect_rc 0 "bench --quick on 1 and 33 cores"

[ "$(head -n 1 b.csv)" = "$HEADER" ]
ok $? "CSV header is exactly doc/bench.md's"
[ "$(tail -n +2 b.csv | wc -l)" -eq 4 ]
ok $? "CSV has one row per workload and core count"
for w in uniform divergent; do
	for n in 1 33; do
		# the device name may hold commas (quoted): count from the end
		[ "$(awk -F, -v w=$w -v n=$n 'NR > 1 && $(NF-14) == w &&
		    $(NF-13) == n' b.csv | wc -l)" -eq 1 ]
		ok $? "CSV row for $w on $n cores"
	done
done

# Every row: the level, numbers where figures apply, empty where not.
awk -F, 'NR > 1 {
	pos = "^[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$"
	if ($(NF-15) != "isa") bad = bad " level"
	if ($(NF-12) !~ pos || $(NF-12) + 0 < 1) bad = bad " steps_per_launch"
	if ($(NF-11) !~ pos || $(NF-11) + 0 <= 0) bad = bad " instr_per_s"
	if ($(NF-10) !~ pos || $(NF-10) + 0 <= 0) bad = bad " ref_instr_per_s"
	if ($(NF-9) !~ pos || $(NF-9) + 0 <= 0) bad = bad " ratio_vs_ref"
	if ($(NF-8) !~ pos || $(NF-8) + 0 <= 0) bad = bad " step_latency_ms"
	if ($(NF-7) !~ pos || $(NF-7) + 0 <= 0) bad = bad " render_ms"
	if ($(NF-6) !~ pos || $(NF-6) + 0 <= 0) bad = bad " bytes_per_core"
	if ($(NF-5) !~ pos || $(NF-5) + 0 <= 0 || $(NF-5) + 0 > 1)
		bad = bad " simd_efficiency"
	if ($(NF-4) != "") bad = bad " cycles_per_instr"
	if ($(NF-3) !~ pos || $(NF-3) + 0 <= 0) bad = bad " native_instr_per_s"
	if ($(NF-2) !~ pos || $(NF-2) + 0 <= 0) bad = bad " native_vs_ref"
	if ($(NF-1) != "native") bad = bad " default_engine"
	if ($NF !~ /^[1-9][0-9]*$/) bad = bad " native_threads"
	if (NF < 17) bad = bad " field count"
	if (bad != "") { print "row " NR ":" bad; bad = "" ; fail = 1 }
} END { exit fail }' b.csv >fields.txt
ok $? "CSV figures parse: positive where they apply, empty where not"
[ -s fields.txt ] && diag "$(cat fields.txt)"

# ratio_vs_ref is the ratio of the two throughputs it sits between
awk -F, 'NR > 1 { r = $(NF-11) / $(NF-10); d = r - $(NF-9);
	if (d < 0) d = -d; if (d > 0.001 * r + 0.0001) exit 1 }' b.csv
ok $? "ratio_vs_ref = instr_per_s / ref_instr_per_s"
awk -F, 'NR > 1 { r = $(NF-3) / $(NF-10); d = r - $(NF-2);
	if (d < 0) d = -d; if (d > 0.001 * r + 0.0001) exit 1 }' b.csv
ok $? "native_vs_ref = native_instr_per_s / ref_instr_per_s"

u=$(awk -F, 'NR > 1 && $(NF-14) == "uniform" && $(NF-13) == 33 {
	print $(NF-5) }' b.csv)
d=$(awk -F, 'NR > 1 && $(NF-14) == "divergent" && $(NF-13) == 33 {
	print $(NF-5) }' b.csv)
awk -v u="$u" -v d="$d" 'BEGIN { exit !(u + 0 >= d + 0 && u != "") }'
ok $? "uniform's SIMD efficiency ($u) >= divergent's ($d) at 33 cores"
w1=$(awk -F, 'NR > 1 && $(NF-13) == 1 { print $(NF-5); exit }' b.csv)
awk -v e="$w1" 'BEGIN { exit !(e + 0 > 0.031 && e + 0 < 0.032) }'
ok $? "one core in a warp of 32: SIMD efficiency 1/32 ($w1)"

# --- the table ------------------------------------------------------------
dev=$(awk -F, 'NR == 2 { sub(",isa,.*", ""); gsub("\"", ""); print }' b.csv)
grep -qF "micdb bench: $dev" out.txt
ok $? "the table names the device ($dev)"
grep -q "driver " out.txt
ok $? "the table names the driver"
for w in uniform divergent; do
	[ "$(grep -cE "^isa +$w +(1|33) " out.txt)" -eq 2 ]
	ok $? "the table has both core counts of $w"
done
grep -q "step ms" out.txt && grep -q "\[.*,.*\]" out.txt
ok $? "the table shows the spread [min, max]"
[ "$(grep -c '^bench: \[' err.txt)" -eq 4 ]
ok $? "one progress line per measurement on stderr"
# the default's crossover (levels.h): a CPU device's kernels win only
# where its compute units outnumber 32 x the native threads at the ISA
# level where the native engines run translated (x86-64: this suite runs
# where executable memory is allowed), 4 x where they interpret
units=$(sed -n 's/^micdb bench: .*(CPU, \([0-9]*\) compute units.*/\1/p' out.txt)
thr=$(sed -n 's/^native: .* on \([0-9]*\) host thread.*/\1/p' out.txt)
ratio=4; [ "$(uname -m)" = x86_64 ] && ratio=32
if [ -n "$units" ] && [ -n "$thr" ]; then
	if [ "$units" -le $((ratio * thr)) ]; then
		want="default native at every core count"
	else
		want="default OpenCL from $((ratio * thr * 32 + 1)) cores"
	fi
	grep -qE "^  isa +$want\$" out.txt
	ok $? "crossover: the rule's for $units compute units, $thr threads"
else
	ok 1 "crossover: the table names the CPU device's units and threads"
fi
[ "$(grep -cE '^ +(uniform|divergent) +measured: (native|OpenCL)' out.txt)" -eq 2 ]
ok $? "crossover: a measured one per workload"

# --- single: one core, then the few-core figure ---------------------------
run_cmd s.out s.err "$MICDB" bench --quick --no-ref --workloads single \
	--levels isa --cores 1 --csv s.csv
expect_rc 0 "bench --workloads single"
[ "$(awk -F, 'NR > 1 { printf "%s ", $(NF-13) }' s.csv)" = "1 2 4 32 " ]
ok $? "single runs on 1, 2, 4 and 32 cores, whatever --cores says"
awk -F, 'NR > 1 && !($(NF-3) + 0 > 0 && $(NF-2) == "") { exit 1 }' s.csv
ok $? "single: a native figure on every row, no ratio without --no-ref's reference"
grep -qE '^isa +single +32 .* native ' s.out
ok $? "single: the table's 32-core row names its default engine"

# --- the plot -------------------------------------------------------------
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout b.svg 2>xml.txt
	ok $? "the SVG is well-formed XML (xmllint)"
	[ -s xml.txt ] && diag "$(head -5 xml.txt)"
else
	head -n 1 b.svg | grep -q '^<?xml' &&
		tail -n 1 b.svg | grep -q '^</svg>$'
	ok $? "the SVG is a complete XML document"
fi
grep -q '<svg xmlns="http://www.w3.org/2000/svg" version="1.1"' b.svg
ok $? "the SVG is SVG 1.1"
# OpenCL and reference, for each of the two workloads
[ "$(grep -c '<polyline' b.svg)" -eq 4 ]
ok $? "one polyline per series (4)"
for w in uniform divergent; do
	grep -q ">isa $w, OpenCL<" b.svg && grep -q ">isa $w, reference" b.svg
	ok $? "the legend names $w on both engines"
done
grep -qF "$dev" b.svg
ok $? "the plot's title names the device"
for t in '>1<' '>10<' '>100<'; do
	grep -q "$t" b.svg
	ok $? "decade tick label $t on the cores axis"
done

# --- thread scaling (--scaling) -------------------------------------------
# uniform on 40 cores, --threads 3: rows at 1, 2 and 3 threads, copies
# from 2 on; single (one core) has no scaling rows
run_cmd sc.txt sc.err "$MICDB" bench --quick --no-ref --cores 40 \
	--workloads uniform,single --threads 3 --csv sc.csv \
	--scaling-svg sc.svg
expect_rc 0 "bench --scaling-svg on 3 threads"
# the rows between the header and the footnote; the level and workload
# columns are blank after a row's first line
awk '/^level workload +cores threads/ { on = 1; next }
    /^speedup:/ { on = 0 } on' sc.txt >sc.rows
[ "$(awk '{ print $($1 ~ /^[a-z]/ ? 4 : 2) }' sc.rows | tr '\n' ' ')" = "1 2 3 " ]
ok $? "--scaling: one row per thread count, 1, 2 and 3 (one workload)"
diag "$(cat sc.rows)"
grep -q '^isa   uniform  *40  *1  ' sc.rows
ok $? "--scaling: the first row names level, workload and cores"
# 1 thread: speedup 1.00 and no copies; 2 and 3: a rate, two speedups
# and a share, which is native / copies to the table's precision
awk 'NR == 1 { if ($8 != "1.00" || $9 != "-" || $NF != "-") bad = 1; next }
    { if ($6 !~ /^[0-9.]+$/ || $NF !~ /^[0-9.]+$/ || $(NF-1) !~ /^[0-9.]+$/)
	    bad = 1
      # share = speedup / copies speedup (both against one thread)
      d = $6 / $(NF-1) - $NF; if (d < 0) d = -d
      if (d > 0.02 + 0.01 * $NF) bad = 1
      # T processes on this machine: above 0, never above 2T (a copy
      # counted many times over, or a wrong runs factor, would be)
      if (!($(NF-1) > 0 && $(NF-1) <= 2 * $2)) bad = 1 }
    END { exit bad }' sc.rows
ok $? "--scaling: speedups, copies and share = native / copies"
grep -q '^single' sc.rows
[ $? -ne 0 ]
ok $? "--scaling: the one-core workload has no scaling rows"
[ "$(grep -c '<polyline' sc.svg)" -eq 3 ]
ok $? "--scaling-svg: threads, copies and the ideal line (3 polylines)"
grep -q '>isa uniform, 40 cores: native threads<' sc.svg &&
	grep -q '>isa uniform, 40 cores: one-thread copies' sc.svg &&
	grep -q '>ideal: speedup = threads<' sc.svg
ok $? "--scaling-svg: the legend names the row's two series and the ideal"
awk -F, 'NR > 1 && $NF != 3 { exit 1 }' sc.csv
ok $? "CSV native_threads is --threads (3)"
t=$(sed -n 's/.*native: .*, on \([0-9]*\) host threads\{0,1\} .*/\1/p' out.txt)
awk -F, -v t="$t" 'NR > 1 && $NF != t { exit 1 }' b.csv && [ -n "$t" ]
ok $? "CSV native_threads is the threads the table names ($t)"

# --- bad input: one line, exit 2 ------------------------------------------
bad() {
	# bad DESCRIPTION EXPECTED-MESSAGE ARGS...
	desc=$1 msg=$2
	shift 2
	run_cmd o.txt e.txt "$@"
	expect_rc 2 "$desc"
	expect_err "$msg" "$desc: says why"
	[ "$(wc -l <e.txt)" -eq 1 ]
	ok $? "$desc: one line"
}
B="$MICDB bench --quick --no-ref --cores 1 --workloads uniform"
bad "unknown workload" "unknown workload 'nosuch'" \
	$B --workloads uniform,nosuch
bad "unknown level" "unknown level 'asm'" $B --levels asm
bad "bad core list" "bad core list '1,x'" $B --cores 1,x
bad "zero cores" "bad core list '0'" $B --cores 0
bad "empty core list" "bad core list" $B --cores ''
bad "trailing comma" "bad core list '1,'" $B --cores 1,
# A table that cannot be written (a full disk) is exit 2 with the reason,
# as a file that cannot be opened, not a workload's failure (1).
$B >/dev/full 2>e.txt </dev/null
rc=$?; err=e.txt
expect_rc 2 "a table to a full disk"
expect_err "cannot write the table: No space left on device" \
    "a table to a full disk: says why"

# Every level has a kernel: the micro levels' figures and the Mic-1 / PMIC
# cycle ratio of doc/bench.md.
$B --levels mic,pmic --csv "$TMP/lv.csv" >"$TMP/lv.out" 2>"$TMP/lv.err"
ok $? "--levels mic,pmic runs"
# the native column: a figure where the level has a native engine, else
# empty with the reason under the table
for l in mic pmic; do
	v=$(awk -F, -v l=$l 'NR > 1 && $(NF-15) == l { print $(NF-3) }' \
	    "$TMP/lv.csv")
	if [ -n "$v" ]; then
		awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }'
	else
		grep -q "^native '-' at $l: ." "$TMP/lv.out"
	fi
	ok $? "--levels mic,pmic: $l's native figure or why there is none"
done
awk -F, 'NR > 1 && $(NF-1) !~ /^(native|opencl|ref)$/ { exit 1 }' "$TMP/lv.csv"
ok $? "--levels mic,pmic: default_engine names an engine"
grep -q '^pmic  *uniform  *1 ' "$TMP/lv.out"
ok $? "--levels mic,pmic: a pmic row"
grep -q '^Mic-1 / PMIC cycles per instruction:' "$TMP/lv.out" &&
	grep -q '^  uniform  *1 cores  [0-9.]* / [0-9.]* = [0-9.]*$' "$TMP/lv.out"
ok $? "--levels mic,pmic: the Mic-1 / PMIC cycle ratio"
bad "too few repetitions" "--reps needs a whole number from 5" $B --reps 3
bad "bad steps per launch" "bad --steps-per-launch" \
	$B --steps-per-launch 0
bad "bad run seconds" "--run-seconds needs" $B --run-seconds -1
bad "unknown option" "unknown option '--fast'" $B --fast
bad "stray argument" "unexpected argument 'x.jas'" $B x.jas
bad "unwritable CSV" "cannot write the CSV to /nonexistent/b.csv" \
	$B --csv /nonexistent/b.csv
bad "unwritable SVG" "cannot write the plot to /nonexistent/b.svg" \
	$B --svg /nonexistent/b.svg
bad "--scaling without a workload of many cores" \
	"--scaling needs a workload of many cores" \
	$MICDB bench --quick --no-ref --cores 1,40 --workloads single --scaling
bad "--scaling with one core only" "and a core count above 1" \
	$B --scaling
bad "unwritable scaling SVG" \
	"cannot write the scaling plot to /nonexistent/s.svg" \
	$B --cores 40 --scaling-svg /nonexistent/s.svg
bad "scaling SVG without a file" "option --scaling-svg needs a value" \
	$B --scaling-svg
bad "unknown device" "--device nosuch-device" $B --device nosuch-device
mkdir -p no-icd
bad "no OpenCL platform" "install pocl-opencl-icd" \
	env OCL_ICD_VENDORS="$TMP/no-icd" $B
bad "missing workload" "cannot load workload uniform" \
	env MICDB_BENCH_DIR="$TMP/nowhere" $B

run_cmd o.txt e.txt "$MICDB" bench --help
expect_rc 0 "--help"
for opt in --levels --workloads --cores --steps-per-launch --device --reps \
    --csv --svg --no-ref --quick --threads --scaling --scaling-svg; do
	grep -q -- "$opt" o.txt
	ok $? "--help names $opt"
done

# --- the same under ASan/UBSan: no leak, no undefined behaviour -----------
if [ -x "$MICDB_ASAN" ]; then
	run_cmd o.txt e.txt "$MICDB_ASAN" bench --quick --no-ref --cores 1,33 \
		--workloads uniform,mimd --csv a.csv --svg a.svg
	expect_rc 0 "ASan build: a short run"
	no_sanitizer_report "ASan build: a short run"
	# --scaling forks its copies (they end with _exit, unchecked by
	# LeakSanitizer); the parent's fork, pipes and waits are checked
	run_cmd o.txt e.txt "$MICDB_ASAN" bench --quick --no-ref --cores 33 \
		--workloads uniform --threads 2 --scaling-svg a2.svg
	expect_rc 0 "ASan build: --scaling"
	no_sanitizer_report "ASan build: --scaling"
	run_cmd o.txt e.txt "$MICDB_ASAN" bench --cores 1,x --csv a.csv
	expect_rc 2 "ASan build: a bad core list"
	no_sanitizer_report "ASan build: a bad core list"
else
	echo "ok $((tap_n + 1)) # SKIP no $MICDB_ASAN"
	tap_n=$((tap_n + 1))
fi

# --- a workload that fails its own check: exit 1 --------------------------
mkdir -p fail nook fault
printf '.main\n#print "uniform FAIL\\n"\nHALT\n.end-main\n' >fail/uniform.jas
printf '.main\n#print "done\\n"\nHALT\n.end-main\n' >nook/uniform.jas
printf '.main\nBIPUSH 1\nBIPUSH 0\nIADD\nPOP\nPOP\nHALT\n.end-main\n' \
	>fault/uniform.jas
run_cmd o.txt e.txt env MICDB_BENCH_DIR="$TMP/fail" $B
expect_rc 1 "a workload that prints FAIL"
expect_err "printed FAIL" "a FAIL is reported"
run_cmd o.txt e.txt env MICDB_BENCH_DIR="$TMP/nook" $B
expect_rc 1 "a workload that ends without its OK"
expect_err "no core printed 'uniform OK'" "a missing OK is reported"
run_cmd o.txt e.txt env MICDB_BENCH_DIR="$TMP/fault" $B
expect_rc 1 "a workload that faults"
expect_err "faulted" "a fault is reported"
[ ! -s o.txt ]
ok $? "a failed bench prints no table"

done_testing
