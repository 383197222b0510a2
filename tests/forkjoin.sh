#!/bin/sh
# The fork-join model (doc/manycore.md section 1, --fork-join) at 1, 33
# and 1,000 cores, at every level and on every engine: programs/forksum.jas
# (a fork per core, ATOMICADD into a global) and programs/forkcall.jas
# (forked methods that call methods, recursion included) print what the
# reference interpreter prints, and the reference prints the closed form.
# Then what the flag changes (without it every core carries out every
# call), the help text, and the status of joining cores in a trace.
. "$(dirname "$0")/lib.sh"

ocl=1
"$MICDB" devices >/dev/null 2>&1 || ocl=0
[ "$ocl" -eq 1 ] || echo "# no OpenCL device: the opencl engine is skipped"

# fib(c & 7) summed over the cores c < N
fibsum() {
	awk -v n="$1" 'BEGIN { split("0 1 1 2 3 5 8 13", f, " ");
	    for (c = 0; c < n; c++) s += f[c % 8 + 1]; print s }'
}

for n in 1 33 1000; do
	for prog in forksum forkcall; do
		case $prog in
		forksum) total=$((10 * n * (10 * n + 1) / 2)) ;;
		forkcall) total=$(fibsum "$n") ;;
		esac
		"$MICDB" run --engine ref --fork-join --cores "$n" \
		    "$PROGRAMS/$prog.jas" </dev/null >"$TMP/ref" 2>"$TMP/err"
		rc=$?
		[ "$rc" -eq 0 ] && grep -q "total = $total\$" "$TMP/ref"
		ok $? "$prog at $n cores: the reference prints total = $total"
		[ "$rc" -eq 0 ] || diag "$(head -c 500 "$TMP/err")"
		sort_cores "$TMP/ref" >"$TMP/ref.sorted"
		for run in isa:native isa:opencl mic:ref mic:opencl pmic:ref \
		    pmic:opencl; do
			level=${run%:*}
			engine=${run#*:}
			[ "$engine" = opencl ] && [ "$ocl" -eq 0 ] && continue
			"$MICDB" run --level "$level" --engine "$engine" \
			    --fork-join --cores "$n" "$PROGRAMS/$prog.jas" \
			    </dev/null >"$TMP/out" 2>"$TMP/err"
			rc=$?
			sort_cores "$TMP/out" >"$TMP/out.sorted"
			[ "$rc" -eq 0 ] && cmp -s "$TMP/ref.sorted" "$TMP/out.sorted"
			ok $? "$prog at $n cores, $level level, $engine engine: as the reference"
			[ "$rc" -eq 0 ] || diag "exit $rc" "$(head -c 500 "$TMP/err")"
		done
	done
done

# Without --fork-join every core carries out every call of main.
"$MICDB" run --engine ref --cores 8 "$PROGRAMS/forksum.jas" </dev/null \
    >"$TMP/out" 2>&1
grep -q "total = 25920\$" "$TMP/out"
ok $? "forksum without --fork-join: every core adds the whole sum"

"$MICDB" run --help >"$TMP/help" 2>&1
grep -q -- "--fork-join" "$TMP/help"
ok $? "micdb run --help describes --fork-join"

# The trace names the status of joining cores: core 0 returns from part
# while the other cores are still skipping or inside theirs.
"$MICDB" run --engine ref --fork-join --cores 4 --trace "$TMP/trace" \
    "$PROGRAMS/forksum.jas" </dev/null >/dev/null 2>&1
grep -q '"joining"' "$TMP/trace"
ok $? "micdb run --trace shows joining cores"

done_testing
