#!/bin/sh
# The fork-join model (doc/manycore.md section 1, --fork-join) at 1, 33
# and 1,000 cores, at every level and on every engine (at 1,000 cores the
# micro levels run the two programs with ATOMICADD): programs/forksum.jas
# (a fork per core, ATOMICADD into a global), programs/forkcall.jas
# (forked methods that call methods, recursion included) and a program
# whose forked methods meet at a BARRIER print what the reference
# interpreter prints, and the reference prints the closed form.
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

# BARRIER, globals, the heap and ATOMICADD beside fork-join: core 0
# allocates before the forks; each forked method writes its word, waits
# at a BARRIER (cores still skipping calls in main are running, so the
# barrier waits for them to fork too; joining cores would not count),
# then adds its neighbour's word to a global; after the join core 0
# checks the sum.
cat >"$TMP/barrier.jas" <<'JAS'
// fork-join beside BARRIER, globals and ATOMICADD (tests/forkjoin.sh)
.constant
OBJREF          0xCAFE
.end-constant

.global
data_ref
sum
.end-global

.main
.var
n
i
want
.end-var
                NCORES
                ISTORE n
                COREID
                IFEQ alloc
                GOTO go
alloc:          ILOAD n
                NEWARRAY
                PUTSTATIC data_ref
go:             BARRIER                 // every core sees data_ref
                BIPUSH 0
                ISTORE i
fork:           ILOAD i
                ILOAD n
                IF_ICMPEQ joined
                LDC_W OBJREF
                ILOAD i
                INVOKEVIRTUAL w
                POP
                IINC i 1
                GOTO fork
joined:         COREID
                IFEQ check
                HALT
check:          BIPUSH 0                // want = 1 + 2 + ... + n
                ISTORE want
                BIPUSH 0
                ISTORE i
add:            ILOAD i
                ILOAD n
                IF_ICMPEQ added
                IINC i 1
                ILOAD want
                ILOAD i
                IADD
                ISTORE want
                GOTO add
added:          GETSTATIC sum
                ILOAD want
                IF_ICMPEQ good
                BIPUSH 'B'
                OUT
                HALT
good:           BIPUSH 'O'
                OUT
                BIPUSH 'K'
                OUT
                BIPUSH 10
                OUT
                HALT
.end-main

// w(k): data[k] = k + 1; BARRIER (every forked core has written);
// sum += data[k + 1 mod N].
.method w(k)
.var
j
.end-var
                ILOAD k
                BIPUSH 1
                IADD
                DUP
                ISTORE j                // j = k + 1
                ILOAD k
                GETSTATIC data_ref
                IASTORE                 // data[k] = k + 1
                BARRIER
                ILOAD j
                NCORES
                IF_ICMPEQ wrap
                GOTO read
wrap:           BIPUSH 0
                ISTORE j
read:           ILOAD j
                GETSTATIC data_ref
                IALOAD
                ATOMICADD sum
                IRETURN
.end-method
JAS

# A BARRIER in main between two forks: it completes without the core
# waiting at the join, and that core meets it alone after the join; every
# core prints J and none deadlocks.
cat >"$TMP/joinbar.jas" <<'JAS'
// A BARRIER in main between two forks (tests/forkjoin.sh): core 0 is at
// the join while the others wait at the barrier, which completes without
// it; then core 1 forks, and core 0 meets the barrier alone after the join.
.constant
OBJREF          0xCAFE
.end-constant

.main
                LDC_W OBJREF
                INVOKEVIRTUAL f         // fork 0: core 0
                POP
                BARRIER
                LDC_W OBJREF
                INVOKEVIRTUAL f         // fork 1: core 1
                POP
                BIPUSH 'J'
                OUT
                BIPUSH 10
                OUT
                HALT
.end-main

.method f()
                BIPUSH 1
                IRETURN
.end-method
JAS

for n in 1 33 1000; do
	for prog in forksum forkcall barrier joinbar; do
		src=$PROGRAMS/$prog.jas
		case $prog in
		forksum) want="total = $((10 * n * (10 * n + 1) / 2))" ;;
		forkcall) want="total = $(fibsum "$n")" ;;
		barrier) want="OK" src=$TMP/barrier.jas ;;
		joinbar) want="J" src=$TMP/joinbar.jas ;;
		esac
		"$MICDB" run --engine ref --fork-join --cores "$n" "$src" \
		    </dev/null >"$TMP/ref" 2>"$TMP/err"
		rc=$?
		lines=1
		[ "$prog" = joinbar ] && lines=$n
		[ "$rc" -eq 0 ] &&
		    [ "$(grep -c "$want\$" "$TMP/ref")" -eq "$lines" ]
		ok $? "$prog at $n cores: the reference prints $want ($lines)"
		[ "$rc" -eq 0 ] || diag "$(head -c 500 "$TMP/err")"
		sort_cores "$TMP/ref" >"$TMP/ref.sorted"
		for run in isa:native isa:opencl mic:ref mic:opencl pmic:ref \
		    pmic:opencl; do
			level=${run%:*}
			engine=${run#*:}
			[ "$engine" = opencl ] && [ "$ocl" -eq 0 ] && continue
			# a thousand cores at a micro level take 4 s a run
			# here: there the programs with a shared word
			# (ATOMICADD, BARRIER) only, the calls at 1 and 33
			[ "$n" -ge 1000 ] && [ "$level" != isa ] &&
			    { [ "$prog" = forkcall ] || [ "$prog" = joinbar ]; } &&
			    continue
			"$MICDB" run --level "$level" --engine "$engine" \
			    --fork-join --cores "$n" "$src" \
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
