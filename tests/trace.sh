#!/bin/sh
# Traces (doc/debugger.md section 5): micdb run --trace, the debugger's
# trace start/stop and DAP write the same file for the same run; the
# Perfetto JSON keeps the Trace Event Format and its counters are what
# info divergence and info cores print at the same steps; the VCD goes
# through GTKWave's vcd2fst and back with fst2vcd and its values are the
# golden model's (the reference engine's info registers) cycle by cycle
# at both micro levels, the datapath signals (the ALU's or the compute
# units' inputs and results, N and Z, the bus enables, the next address)
# checked against the registers before and after each cycle; a trace across reverse-stepi and set level stays
# valid; bad paths, formats and core sets are errors that leave no file;
# --trace and its companions are options of the debugger too (debugger.md
# section 1), and a companion without --trace is an error.
# tests/trace/check.js reads the files (Node.js, as the DAP tests).
. "$(dirname "$0")/lib.sh"

CHECK=$top_srcdir/tests/trace/check.js
FIB=$PROGRAMS/fib.jas
COLLATZ=$PROGRAMS/collatz.jas

if ! command -v node >/dev/null 2>&1; then
	echo "1..0 # SKIP node is not installed (./quickstart check)"
	exit 0
fi

# ---- the same run, three ways -----------------------------------------
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 4 \
    --trace "$TMP/run.json" "$FIB"
expect_rc 0 "micdb run --trace FILE.json"
[ "$(node "$CHECK" perfetto "$TMP/run.json")" = ok ]
ok $? "the Perfetto trace of fib keeps the format"
printf 'trace start %s\ncontinue\ntrace stop\n' "$TMP/batch.json" \
    >"$TMP/b.cmd"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch "$TMP/b.cmd" --engine ref \
    --cores 4 "$FIB"
cmp -s "$TMP/run.json" "$TMP/batch.json"
ok $? "trace start in --batch writes what micdb run writes"
printf 'continue\n' >"$TMP/c.cmd"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch "$TMP/c.cmd" --engine ref \
    --cores 4 --trace "$TMP/opt.json" "$FIB"
expect_rc 0 "micdb --batch --trace FILE (an option shared with micdb run)"
cmp -s "$TMP/run.json" "$TMP/opt.json"
ok $? "--batch --trace writes at the session's end what micdb run writes"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 4 \
    --trace "$TMP/run2.vcd" --trace-cores 1-2 "$FIB"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch "$TMP/c.cmd" --engine ref \
    --cores 4 --trace "$TMP/opt2.x" --trace-format vcd --trace-cores 1-2 \
    "$FIB"
cmp -s "$TMP/run2.vcd" "$TMP/opt2.x"
ok $? "--batch takes --trace-format and --trace-cores as micdb run does"
# a trace the session's end cannot write is said, and exit status 2
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch "$TMP/c.cmd" --engine ref \
    --cores 4 --trace /dev/full --trace-format jsonl "$FIB"
expect_rc 2 "--batch --trace to a full disk"
expect_err "cannot write /dev/full: No space left on device" \
    "--batch --trace to a full disk: the reason is given"
timeout 120 node "$CHECK" dap "$MICDB" "$FIB" 4 "$TMP/dap.json" \
    >"$TMP/dap.out" 2>&1
cmp -s "$TMP/run.json" "$TMP/dap.json"
ok $? "trace start through DAP's evaluate writes the same file"
grep -q "trace written to $TMP/dap.json" "$TMP/dap.out"
ok $? "DAP: trace stop says where the trace went"

for fmt in vcd jsonl; do
	run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 4 \
	    --level mic --max-steps 20000 --trace "$TMP/run.$fmt" "$FIB"
	printf 'trace start %s\ncontinue\n' "$TMP/batch.$fmt" >"$TMP/b.cmd"
	run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch "$TMP/b.cmd" \
	    --engine ref --cores 4 --level mic --max-steps 20000 "$FIB"
	cmp -s "$TMP/run.$fmt" "$TMP/batch.$fmt"
	ok $? "$fmt at the Mic-1 level: run and batch (closed at the end) agree"
done
[ "$(wc -l <"$TMP/run.jsonl")" -eq 20000 ] &&
    head -1 "$TMP/run.jsonl" | grep -q '^{"step":1,"cores":\[{"core":0'
ok $? "jsonl: a line per micro-cycle with the traced cores"

# ---- the SVG timeline --------------------------------------------------
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 64 \
    --trace "$TMP/run.svg" "$COLLATZ"
expect_rc 0 "micdb run --trace FILE.svg"
printf 'trace start %s\ncontinue\n' "$TMP/batch.svg" >"$TMP/b.cmd"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch "$TMP/b.cmd" --engine ref \
    --cores 64 "$COLLATZ"
cmp -s "$TMP/run.svg" "$TMP/batch.svg"
ok $? "svg: run and batch draw the same timeline"
head -1 "$TMP/run.svg" | grep -q '^<?xml' && tail -1 "$TMP/run.svg" |
    grep -q '^</svg>$' && grep -q '>warp 0<' "$TMP/run.svg" &&
    grep -q '>cores by status (of 64)<' "$TMP/run.svg"
ok $? "svg: a whole document with a row per warp and the status band"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$TMP/run.svg" 2>"$TMP/x.err"
	ok $? "svg: well-formed XML (xmllint)"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP xmllint is not installed"
fi
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 40 \
    --warp-width 1 --max-steps 2000 --trace "$TMP/w.svg" "$COLLATZ"
grep -q '>min<' "$TMP/w.svg" && grep -q '>max<' "$TMP/w.svg" &&
    ! grep -q '>warp 1<' "$TMP/w.svg" &&
    grep -q '2000, 4 a column<' "$TMP/w.svg"
ok $? "svg: 40 warps are summarized, 2000 steps averaged into 600 columns"

# ---- the counters against info divergence and info cores ----------------
: >"$TMP/c.cmd"
echo "trace start $TMP/c.json" >>"$TMP/c.cmd"
for i in 1 2 3 4 5 6; do
	printf 'stepi 700\ninfo trace\ninfo divergence\ninfo cores\n' \
	    >>"$TMP/c.cmd"
done
run_cmd "$TMP/c.out" "$TMP/e" "$MICDB" --batch "$TMP/c.cmd" --engine ref \
    --cores 32 "$COLLATZ"
echo "trace stop" >>"$TMP/c.cmd"
run_cmd "$TMP/c.out" "$TMP/e" "$MICDB" --batch "$TMP/c.cmd" --engine ref \
    --cores 32 "$COLLATZ"
[ "$(node "$CHECK" perfetto "$TMP/c.json")" = ok ]
ok $? "the Perfetto trace of collatz on 32 cores keeps the format"
# "STEP efficiency E running R waiting W halted H faulted F" per stop
awk '
/^tracing to .* to [0-9]+/ { for (i = 1; i <= NF; i++) if ($i == "to") s = $(i + 1); sub(/[^0-9].*/, "", s) }
/^now: no active lanes/ { e = "0.0" }
/^now: .*SIMD efficiency/ { e = $NF; sub(/%$/, "", e) }
/^[0-9]+ cores?: / { r = $3; w = $5; h = $7; f = $9
	print s, "efficiency", e, "running", r, "waiting", w, "halted", h, "faulted", f }
' "$TMP/c.out" >"$TMP/info.txt"
[ "$(wc -l <"$TMP/info.txt")" -eq 6 ]
ok $? "six stops read from info trace, info divergence and info cores"
: >"$TMP/trace.txt"
while read -r step rest; do
	echo "$step $(node "$CHECK" counters "$TMP/c.json" "$step")" \
	    >>"$TMP/trace.txt"
done <"$TMP/info.txt"
cmp -s "$TMP/info.txt" "$TMP/trace.txt"
ok $? "the counters equal info divergence and info cores at every stop"
cmp -s "$TMP/info.txt" "$TMP/trace.txt" ||
    diag "$(diff "$TMP/info.txt" "$TMP/trace.txt")"
grep -q '"name":"barrier wait"\|"name":"print_int"\|"name":"half"' \
    "$TMP/c.json"
ok $? "the cores' tracks have method frames"

# A fault and a breakpoint are instants on the core's track.
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 4 \
    --trace "$TMP/fault.json" "$PROGRAMS/faults/one_core_fails.jas"
expect_rc 1 "a run with a fault writes its trace"
[ "$(node "$CHECK" perfetto "$TMP/fault.json")" = ok ] &&
    grep -q '"ph":"i",.*"s":"t","name":"fault: ' "$TMP/fault.json"
ok $? "the fault is an instant on the faulting core's track"
printf 'trace start %s\nbreak fib\ncontinue\ncontinue\ntrace stop\n' \
    "$TMP/bp.json" >"$TMP/bp.cmd"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch "$TMP/bp.cmd" --engine ref \
    --cores 2 "$FIB"
[ "$(grep -c '"name":"breakpoint"' "$TMP/bp.json")" -ge 2 ] &&
    [ "$(node "$CHECK" perfetto "$TMP/bp.json")" = ok ]
ok $? "breakpoints hit are instants on the cores' tracks"

# Beyond TRACE_ALL_WARPS warps: the traced cores' warps and the summary.
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --engine ref --cores 40 \
    --warp-width 1 --max-steps 300 --trace "$TMP/w.json" \
    --trace-cores 3,39 "$COLLATZ"
grep -q '"name":"warp 39"' "$TMP/w.json" &&
    grep -q '"name":"warps","args":{"min active"' "$TMP/w.json" &&
    ! grep -q '"name":"warp 5"' "$TMP/w.json"
ok $? "40 warps: counters for the traced cores' warps and min/mean/max"

# ---- VCD: through GTKWave's FST and back, against the golden model -------
if command -v vcd2fst >/dev/null 2>&1 && command -v fst2vcd >/dev/null; then
	for level in mic pmic; do
		for prog in fib collatz; do
			: >"$TMP/g.cmd"
			printf 'trace start %s\ninfo registers\n' "$TMP/g.vcd" \
			    >>"$TMP/g.cmd"
			i=0
			while [ $i -lt 150 ]; do
				printf 'stepi\ninfo registers\n' >>"$TMP/g.cmd"
				i=$((i + 1))
			done
			echo "trace stop" >>"$TMP/g.cmd"
			run_cmd "$TMP/g.out" "$TMP/e" "$MICDB" --batch \
			    "$TMP/g.cmd" --engine ref --level $level \
			    "$PROGRAMS/$prog.jas"
			vcd2fst "$TMP/g.vcd" "$TMP/g.fst" >/dev/null 2>&1 &&
			    fst2vcd "$TMP/g.fst" >"$TMP/g2.vcd" 2>/dev/null
			ok $? "$prog at $level: vcd2fst and fst2vcd read the VCD"
			# the golden model's registers after each cycle
			awk -v level=$level '
			function hex(v) { sub(/^0x0*/, "", v); return v == "" ? "0" : v }
			/^core 0 .* micro-cycles?$/ { line = t++ }
			/^(PC|SP|LV|CPP|TOS|OPC|H|MAR|MDR|MBR|MPC|N|Z) +0x/ {
				v = $2
				if (level == "mic" && $1 == "MBR")	# 8 bits
					v = "0x" substr(v, length(v) - 1)
				if (level == "pmic" && ($1 == "N" || $1 == "Z"))
					next
				val[$1] = hex(v)
				if ($1 == (level == "mic" ? "Z" : "MPC")) {
					printf "%d", line
					n = split("MAR MDR PC MBR SP LV CPP TOS OPC H MPC" (level == "mic" ? " N Z" : ""), r, " ")
					for (i = 1; i <= n; i++) printf " %s=%s", r[i], val[r[i]]
					printf "\n"
				}
			}' "$TMP/g.out" >"$TMP/golden.txt"
			node "$CHECK" vcd "$TMP/g2.vcd" core0 | awk -v level=$level '
			{ printf "%s", $1
			  for (i = 2; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] ~ /^(MAR|MDR|PC|MBR|SP|LV|CPP|TOS|OPC|H|MPC)$/ ||
				    (level == "mic" && kv[1] ~ /^[NZ]$/))
					printf " %s", $i
			  }
			  printf "\n" }' | sed -n '1,151p' >"$TMP/vcd.txt"
			[ "$(wc -l <"$TMP/golden.txt")" -eq 151 ] &&
			    cmp -s "$TMP/golden.txt" "$TMP/vcd.txt"
			ok $? "$prog at $level: 150 cycles of the VCD equal the golden model's registers"
			cmp -s "$TMP/golden.txt" "$TMP/vcd.txt" ||
			    diag "$(diff "$TMP/golden.txt" "$TMP/vcd.txt" | head -8)"
			# the ALU's or compute units' inputs and results, N and
			# Z, the bus enables and the next address, each cycle
			node "$CHECK" datapath $level "$TMP/g.out" "$TMP/g2.vcd" \
			    core0 >"$TMP/dp.txt"
			[ "$(cat "$TMP/dp.txt")" = "ok 150 cycles" ]
			ok $? "$prog at $level: the datapath signals of 150 cycles equal the golden model's"
			[ "$(cat "$TMP/dp.txt")" = "ok 150 cycles" ] ||
			    diag "$(cat "$TMP/dp.txt")"
		done
	done
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP vcd2fst/fst2vcd (Debian gtkwave) not installed"
	done
fi

# ---- reverse-stepi and set level inside a trace --------------------------
for fmt in json vcd jsonl; do
	printf 'trace start %s\nstepi 10\nreverse-stepi 3\nstepi 5\nset level mic\nstepi 40\nreverse-stepi 2\nstepi 4\ninfo trace\ntrace stop\n' \
	    "$TMP/rv.$fmt" >"$TMP/rv.cmd"
	run_cmd "$TMP/rv.out" "$TMP/e" "$MICDB" --batch "$TMP/rv.cmd" \
	    --engine ref --cores 4 "$FIB"
	expect_rc 0 "$fmt: a trace across reverse-stepi and set level"
	grep -q '54 steps recorded from step 0 to 54, 3 marks' "$TMP/rv.out"
	ok $? "$fmt: info trace counts each step once and the three marks"
done
[ "$(node "$CHECK" perfetto "$TMP/rv.json")" = ok ]
ok $? "perfetto across reverse-stepi and set level keeps the format"
grep -q '"s":"g","name":"back to step 7"' "$TMP/rv.json" &&
    grep -q '"name":"level mic"' "$TMP/rv.json"
ok $? "perfetto marks going back and the level switch"
if command -v vcd2fst >/dev/null 2>&1; then
	vcd2fst "$TMP/rv.vcd" "$TMP/rv.fst" >/dev/null 2>&1
	ok $? "vcd across reverse-stepi and set level: vcd2fst reads it"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP vcd2fst (Debian gtkwave) not installed"
fi
node -e 'for (const l of require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n")) JSON.parse(l)' \
    "$TMP/rv.jsonl"
ok $? "jsonl across reverse-stepi and set level: every line is JSON"

# ---- errors: message, exit status, no file ----------------------------------
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --trace "$TMP/nodir/t.json" "$FIB"
expect_rc 2 "--trace into a missing directory"
expect_err "cannot create $TMP/nodir/t.json: No such file or directory" \
    "a bad trace path is named with the reason"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --trace "$TMP/f.json" \
    --trace-format svgz "$FIB"
expect_rc 2 "--trace-format svgz"
expect_err "unknown trace format 'svgz' (use jsonl, perfetto, vcd or svg)" \
    "a bad trace format names the good ones"
[ ! -e "$TMP/f.json" ]
ok $? "a bad trace format leaves no file"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --cores 4 --trace "$TMP/f.json" \
    --trace-cores 2-9 "$FIB"
expect_rc 2 "--trace-cores 2-9 on 4 cores"
expect_err "trace cores: " "a bad trace core set says so"
[ ! -e "$TMP/f.json" ]
ok $? "a bad trace core set leaves no file"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" run --trace-format vcd "$FIB"
expect_rc 2 "--trace-format without --trace"
expect_err "--trace-format needs --trace FILE" \
    "--trace-format without a file says so, not ignored"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch /dev/null --trace-cores 0 "$FIB"
expect_rc 2 "--batch --trace-cores without --trace"
expect_err "--trace-cores needs --trace FILE" \
    "--trace-cores without a file says so"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch /dev/null \
    --trace "$TMP/nodir/f.json" "$FIB"
expect_rc 2 "--batch --trace into a missing directory"
expect_err "cannot create $TMP/nodir/f.json" \
    "the debugger's --trace: a bad path is an error before any command"
printf 'trace stop\ntrace start\ntrace start %s bogus\ntrace start %s vcd 0 x\ntrace start %s\ntrace start %s\n' \
    "$TMP/f.json" "$TMP/f.json" "$TMP/nodir/t.vcd" "$TMP/f2.json" \
    >"$TMP/e.cmd"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --batch "$TMP/e.cmd" --engine ref "$FIB"
expect_rc 1 "--batch with bad trace commands"
err=$TMP/o	# --batch reports a command's error with the transcript
expect_err "e.cmd:1: no trace is being written (trace start FILE begins one)" \
    "trace stop without a trace"
expect_err "e.cmd:2: trace start needs a file" "trace start without a file"
expect_err "e.cmd:3: unknown trace format 'bogus'" "trace start: a bad format"
expect_err "e.cmd:4: unexpected 'x' after trace start" \
    "trace start: a word too many"
expect_err "e.cmd:5: cannot create $TMP/nodir/t.vcd" "trace start: a bad path"
[ -s "$TMP/f2.json" ] && [ "$(node "$CHECK" perfetto "$TMP/f2.json")" = ok ]
ok $? "the session's end closes an open trace into a whole file"

done_testing
