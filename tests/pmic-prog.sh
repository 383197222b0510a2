#!/bin/sh
# The project's PMIC microprogram (microcode/pmic.pm) against the ISA
# level: every sample program gives the same exit status and output (sorted
# by core, as programs.sh compares) at 1 and at 33 cores, the self-checking
# bench workloads check out, and the faults the microprogram detects stop
# the core with the same message, PC and source line as the ISA level.
. "$(dirname "$0")/lib.sh"

PM=$top_srcdir/microcode/pmic.pm
PMIC_CC=$top_builddir/src/pmic-cc

"$PMIC_CC" -o "$TMP/pmic.pmic" "$PM" >"$TMP/out" 2>"$TMP/err"
ok $? "pmic.pm compiles"
[ -s "$TMP/err" ] && diag "$(cat "$TMP/err")"

# same_run DESCRIPTION INPUT ARGS...: ISA and PMIC agree on the exit status
# and the output.
same_run() {
	desc=$1 input=$2
	shift 2
	(cd "$top_srcdir" && "$MICDB" run --engine ref "$@" \
		<"$input" >"$TMP/isa.out" 2>"$TMP/isa.err")
	want=$?
	(cd "$top_srcdir" && "$MICDB" run --engine ref --level pmic \
		--microcode "$PM" "$@" <"$input" >"$TMP/pm.out" 2>"$TMP/pm.err")
	got=$?
	sort_cores "$TMP/isa.out" >"$TMP/isa.sorted"
	sort_cores "$TMP/pm.out" >"$TMP/pm.sorted"
	[ "$want" -eq "$got" ] && cmp -s "$TMP/isa.sorted" "$TMP/pm.sorted"
	ok $? "$desc: PMIC gives the ISA level's exit status and output"
	if [ "$want" -ne "$got" ] || ! cmp -s "$TMP/isa.sorted" "$TMP/pm.sorted"
	then
		diag "exit $want at the ISA level, $got at PMIC"
		diag "$(diff "$TMP/isa.sorted" "$TMP/pm.sorted" | head -10)"
		diag "$(head -c 1000 "$TMP/pm.err")"
	fi
}

for expected in "$PROGRAMS"/*.expected; do
	name=$(basename "$expected" .expected)
	sample "$name"
	variants=$(sample_variants "$name")
	i=1
	while [ "$i" -le "$variants" ]; do
		opts=$(sample_opts "$name" "$i")
		# shellcheck disable=SC2086
		same_run "$name [$opts]" "$input" $opts $jas
		i=$((i + 1))
	done
	# 33 cores: a warp and one more, where the options leave it free.
	case " $opts " in
	*" --cores "*|*" --program "*) ;;
	*)	# shellcheck disable=SC2086
		same_run "$name [--cores 33]" "$input" --cores 33 $jas ;;
	esac
done

# The fault demos fault at PMIC too, naming the same fault.
for jas in "$PROGRAMS"/faults/*.jas; do
	name=$(basename "$jas" .jas)
	fault_opts "$jas"
	# shellcheck disable=SC2086
	"$MICDB" run --engine ref --level pmic --microcode "$PM" $opts "$jas" \
		</dev/null >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -qF -- "$(cat "${jas%.jas}.expected-stderr")" \
		"$TMP/err"
	ok $? "faults/$name: faults at PMIC and names the fault"
	[ "$rc" -eq 1 ] || diag "exit $rc: $(head -c 500 "$TMP/err")"
done

# The bench workloads check their own results.
for w in uniform divergent barrier; do
	for n in 1 33; do
		"$MICDB" run --engine ref --level pmic --microcode "$PM" \
			--cores $n "$PROGRAMS/bench/$w.jas" \
			</dev/null >"$TMP/out" 2>"$TMP/err"
		rc=$?
		[ "$rc" -eq 0 ] && grep -q ' OK' "$TMP/out" &&
			! grep -q FAIL "$TMP/out"
		ok $? "bench/$w on $n cores checks out at PMIC"
	done
done
"$MICDB" run --engine ref --level pmic --microcode "$PM" --cores 64 \
	--program "$PROGRAMS/bench/mimd0.jas:0-15" \
	--program "$PROGRAMS/bench/mimd1.jas:16-31" \
	--program "$PROGRAMS/bench/mimd2.jas:32-47" \
	--program "$PROGRAMS/bench/mimd3.jas:48-63" </dev/null >"$TMP/out" \
	2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] && grep -q OK "$TMP/out" && ! grep -q FAIL "$TMP/out"
ok $? "bench/mimd0-3 together on 64 cores check out at PMIC"

# Faults the microprogram detects: the same message, PC and line as the
# ISA level.  Binaries are written byte by byte where the assembler would
# refuse the program (unknown opcodes, WIDE IADD, a bad index or header).
#
# ijvm FILE CP-BYTES TEXT-BYTES: an .ijvm file from octal escapes; the
# sizes are given in octal escapes too by the callers below.
ijvm() {
	# shellcheck disable=SC2059
	printf "\035\352\337\255\000\001\000\000$2\000\000\000\000$3" >"$1"
}
same_fault() {
	desc=$1
	shift
	"$MICDB" run --engine ref "$@" </dev/null >"$TMP/isa.out" \
		2>"$TMP/isa.err"
	want=$?
	"$MICDB" run --engine ref --level pmic --microcode "$PM" "$@" \
		</dev/null >"$TMP/pm.out" 2>"$TMP/pm.err"
	got=$?
	[ "$want" -eq 1 ] && [ "$got" -eq 1 ] &&
		cmp -s "$TMP/isa.err" "$TMP/pm.err" &&
		cmp -s "$TMP/isa.out" "$TMP/pm.out"
	ok $? "$desc: PMIC reports the ISA level's fault"
	if [ "$want" -ne 1 ] || [ "$got" -ne 1 ] ||
	    ! cmp -s "$TMP/isa.err" "$TMP/pm.err"; then
		diag "ISA (exit $want): $(cat "$TMP/isa.err")"
		diag "PMIC (exit $got): $(cat "$TMP/pm.err")"
	fi
}

# empty constant pool; text "01 FF": an unknown opcode (and 0x0F, 0x11)
for op in 001 017 021; do
	ijvm "$TMP/op.ijvm" '\000\000\000\000' "\\000\\000\\000\\002\\$op\\377"
	same_fault "unknown opcode $op (octal)" "$TMP/op.ijvm"
done
# BIPUSH 1 BIPUSH 2 WIDE IADD HALT
ijvm "$TMP/wide.ijvm" '\000\000\000\000' \
	'\000\000\000\007\020\001\020\002\304\140\377'
same_fault "WIDE IADD" "$TMP/wide.ijvm"
# LDC_W 0x4000 HALT, with a one-word pool
ijvm "$TMP/ldc.ijvm" '\000\000\000\004\000\000\000\007' \
	'\000\000\000\004\023\100\000\377'
same_fault "LDC_W 0x4000" "$TMP/ldc.ijvm"
# BIPUSH 0 INVOKEVIRTUAL 0 HALT; cp[0] = 6: a header with nargs 0
ijvm "$TMP/nargs.ijvm" '\000\000\000\004\000\000\000\006' \
	'\000\000\000\013\020\000\266\000\000\377\000\000\000\000\377'
same_fault "INVOKEVIRTUAL of a method with nargs 0" "$TMP/nargs.ijvm"
# the same with cp[0] = -1
ijvm "$TMP/maddr.ijvm" '\000\000\000\004\377\377\377\377' \
	'\000\000\000\013\020\000\266\000\000\377\000\000\000\000\377'
same_fault "INVOKEVIRTUAL of a negative address" "$TMP/maddr.ijvm"

# jas NAME LINES...: a main of these instructions.
jas() {
	f=$TMP/$1.jas
	shift
	{
		echo ".main"
		echo ".var"
		echo "a"
		echo ".end-var"
		for l in "$@"; do echo "    $l"; done
		echo "    HALT"
		echo ".end-main"
	} >"$f"
}
jas retmain "BIPUSH 7" "IRETURN"
same_fault "IRETURN from main" "$TMP/retmain.jas"
jas pop "POP"
same_fault "POP on an empty stack" "$TMP/pop.jas"
jas out "OUT"
same_fault "OUT on an empty stack" "$TMP/out.jas"
for op in IADD ISUB IAND IOR; do
	jas alu "BIPUSH 1" "$op"
	same_fault "$op on a one-word stack" "$TMP/alu.jas"
done
jas notarray "BIPUSH 0" "BIPUSH 5" "IALOAD"
same_fault "IALOAD of a non-array" "$TMP/notarray.jas"
jas heapref "BIPUSH 2" "NEWARRAY" "ISTORE a" "BIPUSH 0" "ILOAD a" \
	"BIPUSH 1" "IADD" "IALOAD"
same_fault "IALOAD of a reference inside an array" "$TMP/heapref.jas"
jas negidx "BIPUSH 2" "NEWARRAY" "ISTORE a" "BIPUSH -1" "ILOAD a" "IALOAD"
same_fault "IALOAD at index -1" "$TMP/negidx.jas"
jas bigidx "BIPUSH 2" "NEWARRAY" "ISTORE a" "BIPUSH 2" "ILOAD a" "IALOAD"
same_fault "IALOAD at index length" "$TMP/bigidx.jas"
jas stidx "BIPUSH 2" "NEWARRAY" "ISTORE a" "BIPUSH 9" "BIPUSH -1" \
	"ILOAD a" "IASTORE"
same_fault "IASTORE at index -1" "$TMP/stidx.jas"
jas stref "BIPUSH 9" "BIPUSH 0" "BIPUSH 3" "IASTORE"
same_fault "IASTORE to a non-array" "$TMP/stref.jas"
jas negsize "BIPUSH -1" "NEWARRAY"
same_fault "NEWARRAY of a negative size" "$TMP/negsize.jas"
jas err "ERR"
same_fault "ERR" "$TMP/err.jas"

done_testing
