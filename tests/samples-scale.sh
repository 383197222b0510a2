#!/bin/sh
# The samples end at the core counts programs/README.md names for them
# (its rows, "Checked at scale"), on the native engine, each within a
# step bound argued from the program below: a sample that loops on some
# cores (as collatz did from start 113,383 on, before triple) fails here
# with exit 3 and the census of where its cores are.  The bounds hold for
# every count up to the README's largest (1,048,576 unless it says
# otherwise); the runs use the largest count that takes a few seconds on a
# two-core CI machine, not the million itself, and the README says which.
#
# A step is a global step: every running core executes one instruction,
# so a bound is on the longest core's instructions (barrier waits
# included).  print_int (the samples' own) costs at most about 3,000: ten
# digits, each a pow10 call (<= 160) and a count loop (<= 9 x 9).
. "$(dirname "$0")/lib.sh"

# scale NAME CORES BOUND ARGS...: exit 0 within BOUND steps
scale() {
	name=$1 cores=$2 bound=$3
	shift 3
	run_cmd "$TMP/o" "$TMP/e" timeout 300 "$MICDB" run --engine native \
	    --cores "$cores" --max-steps "$bound" "$@"
	[ "$rc" -eq 0 ]
	ok $? "$name on $cores cores ends within $bound steps"
	[ "$rc" -eq 0 ] || diag "exit $rc" "$(head -c 2000 "$err")"
}

# output_has DESCRIPTION FIXED-STRING
output_has() {
	grep -qF -- "$2" "$TMP/o"
	ok $? "$1"
	grep -qF -- "$2" "$TMP/o" || diag "stdout lacks: $2" \
	    "$(head -c 1000 "$TMP/o")"
}

# collatz: core k runs from k + 1 <= N <= 1,048,577, and every start below
# 1,117,065 reaches 1 in at most 524 Collatz steps (the record below it,
# 837,799) or is stopped by triple at its overflow.  A Collatz step is at
# most ~25 instructions in main and triple plus half(n), whose loop turns
# at most 31 times at ~20 instructions: ~700.  Then three print_int:
# 524 x 700 + 10,000 < 400,000.  At 4,096 cores no start overflows.
scale collatz 4096 400000 "$PROGRAMS/collatz.jas"
[ "$(grep -c '^\[core [0-9]*\] collatz([0-9]*) = [0-9]* steps, peak [0-9]*$' \
    "$TMP/o")" -eq 4096 ]
ok $? "collatz on 4096 cores: a line from every core"
# The overflow: the same program with the starts moved to 113,380 + k
# (first the check that the edit took): 113,383's sequence passes 2^31.
sed 's/^OBJREF  *0xCAFE$/&\
BASE 113380/' "$PROGRAMS/collatz.jas" | awk '
	/^ *COREID/ && !done { print; getline; sub(/BIPUSH 1/, "LDC_W BASE");
	    done = 1 } { print }' >"$TMP/collatz-big.jas"
grep -q 'LDC_W BASE' "$TMP/collatz-big.jas" &&
    grep -q '^BASE 113380$' "$TMP/collatz-big.jas"
ok $? "collatz from 113,380: the variant is made"
scale "collatz from 113,380" 8 400000 "$TMP/collatz-big.jas"
output_has "collatz(113383): the overflow, and the core halts" \
    "[core 3] collatz(113383) = overflow at n = 827370449"
output_has "collatz(113384): the others as before" \
    "[core 4] collatz(113384) = 61 steps, peak 113384"

# workqueue: at most all ITEMS = 100 items on one core, item i by i + 1
# additions of ~8 instructions: < 85,000; then the barrier and core 0's
# two print_int: < 100,000 for any N.
scale workqueue 65536 100000 "$PROGRAMS/workqueue.jas"
output_has "workqueue on 65536 cores: the total" \
    "[core 0] total = 338350 from 100 items"

# matmul: at most the 8 rows on one core, each 16 fills (~30), 64
# shift-and-add products (32 turns of ~25 instructions) and 8 print_int:
# 8 x (500 + 51,200 + 24,000) < 610,000, then core 0's checksum of 64
# elements and a print_int: < 700,000 for any N.
scale matmul 8192 700000 "$PROGRAMS/matmul.jas"
output_has "matmul on 8192 cores: the checksum" \
    "[core 0] sum of all elements of C = -12160"

# parsum: mul(a, b) adds a b times (8 instructions a turn).  Every core:
# mul(SLICE, N) (8 N), a slice filled and one summed (100 elements of ~15
# instructions), two print_int: 8 N + 10,000; core 0 then adds N partial
# sums (~12 each) and computes the closed form mul(n / 2, n + 1) with
# n = 100 N (8 (100 N + 1)): all in all < 20,000 + 1,000 N.  The heap must
# hold 101 N words: 10,381 cores in the default heap.
scale parsum 10381 $((20000 + 1000 * 10381)) "$PROGRAMS/parsum.jas"
output_has "parsum on 10381 cores: the total matches its closed form" \
    ": OK"

# forksum and forkcall: main forks N calls on every core, a skipped fork
# ~15 instructions: 15 N; a part(k) ~150, a work(k) fib(7) (41 calls of
# ~25) and a print_int: < 5,000; the inline print of the total ~3,000:
# 10,000 + 20 N.  The run grows as N^2: 1,024 cores.
scale forksum 1024 $((10000 + 20 * 1024)) --fork-join "$PROGRAMS/forksum.jas"
output_has "forksum on 1024 cores: 1 + ... + 10240" "[core 0] total = 52433920"
scale forkcall 1024 $((10000 + 20 * 1024)) --fork-join \
    "$PROGRAMS/forkcall.jas"
output_has "forkcall on 1024 cores: 128 x 33" "[core 0] total = 4224"

# The bench workloads: ~20,000 (uniform), <= 13,200 (divergent) and ~8,000
# at 1,024 cores growing with log2 N (barrier) instructions per core
# (README): 100,000 bounds them all at any N up to 1,048,576.
for w in uniform divergent barrier; do
	scale "bench/$w" 8192 100000 --stack-words 32 "$PROGRAMS/bench/$w.jas"
	grep -q ' OK' "$TMP/o" && ! grep -q FAIL "$TMP/o"
	ok $? "bench/$w on 8192 cores checks out"
done

done_testing
