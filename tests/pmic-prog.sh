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
	[ "$rc" -eq 1 ] && grep -qF -- "$(sed "s/: .*//" "${jas%.jas}.expected-stderr")" \
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
# both_levels ARGS...: run the program at the ISA level and at the PMIC
# level; $want and $got are their exit statuses, the outputs in $TMP.
both_levels() {
	"$MICDB" run --engine ref "$@" </dev/null >"$TMP/isa.out" \
		2>"$TMP/isa.err"
	want=$?
	"$MICDB" run --engine ref --level pmic --microcode "$PM" "$@" \
		</dev/null >"$TMP/pm.out" 2>"$TMP/pm.err"
	got=$?
}
same_fault() {
	desc=$1
	shift
	both_levels "$@"
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

# same_ok DESCRIPTION ARGS...: both levels run to the end (exit 0) with the
# same output: the boundary case next to a fault must not fault.
same_ok() {
	desc=$1
	shift
	both_levels "$@"
	[ "$want" -eq 0 ] && [ "$got" -eq 0 ] &&
		cmp -s "$TMP/isa.out" "$TMP/pm.out"
	ok $? "$desc: runs to the end at both levels"
	[ "$want" -eq 0 ] && [ "$got" -eq 0 ] ||
		diag "ISA exit $want, PMIC exit $got: $(cat "$TMP/pm.err")"
}

# hexbin FILE HEX: the bytes of a hex string (no spaces) into FILE.
hexbin() {
	# shellcheck disable=SC2059
	printf "$(echo "$2" | awk '{
		h = "0123456789abcdef"
		for (i = 1; i < length($0); i += 2) {
			hi = index(h, substr($0, i, 1)) - 1
			lo = index(h, substr($0, i + 1, 1)) - 1
			printf "\\%03o", hi * 16 + lo
		}
	}')" >"$1"
}
# ijvmx FILE CP-WORDS-HEX TEXT-HEX: an .ijvm file, sizes computed.
ijvmx() {
	cpn=$(printf '%08x' $((${#2} / 2)))
	txn=$(printf '%08x' $((${#3} / 2)))
	hexbin "$1" "1deadfad00010000${cpn}${2}00000000${txn}${3}"
}

# frame NAME MAIN-LOCALS MAIN-LINES -- METHOD-LINES: main with that many
# locals (at least one), calling m(p, q) with locals r, s (nlocals 5 with
# OBJREF) when METHOD-LINES are given.
frame() {
	f=$TMP/$1.jas
	nl=$2
	shift 2
	{
		echo ".main"
		echo ".var"
		i=0
		while [ "$i" -lt "$nl" ]; do echo "v$i"; i=$((i + 1)); done
		echo ".end-var"
		while [ $# -gt 0 ] && [ "$1" != "--" ]; do
			echo "    $1"
			shift
		done
		echo "    HALT"
		echo ".end-main"
		if [ "$1" = "--" ]; then
			shift
			echo ".method m(p, q)"
			echo ".var"
			echo "r"
			echo "s"
			echo ".end-var"
			for l in "$@"; do echo "    $l"; done
			echo "    BIPUSH 0"
			echo "    IRETURN"
			echo ".end-method"
		fi
	} >"$f"
}
CALL="BIPUSH 0|BIPUSH 1|BIPUSH 2|INVOKEVIRTUAL m"

# Local indices: nlocals - 1 is fine, nlocals faults, in main (reached by
# a GOTO into code past main's end, since the loader sizes main's frame
# from main's own code) and in a method (nlocals 5), narrow and WIDE.
for form in "ILOAD %d|POP" "BIPUSH 3|ISTORE %d" "IINC %d 1" \
    "WIDE|ILOAD %d|POP" "BIPUSH 3|WIDE|ISTORE %d" "WIDE|IINC %d 1"; do
	for idx in 4 5; do
		# shellcheck disable=SC2059
		body=$(printf "$form" "$idx")
		IFS='|'
		# shellcheck disable=SC2086
		frame loc $((idx + 3)) $CALL POP -- $body
		unset IFS
		if [ "$idx" -eq 4 ]; then
			same_ok "method local $idx of 5 ($body)" "$TMP/loc.jas"
		else
			same_fault "method local $idx of 5 ($body)" "$TMP/loc.jas"
		fi
	done
done
# main: GOTO +6; INVOKEVIRTUAL 0 (never run: with cp[0] = 6 it makes the
# loader end main at 6, so main has 1 local); ILOAD i / WIDE ILOAD i; POP;
# HALT.
for idx in 00 01; do
	ijvmx "$TMP/ml.ijvm" 00000006 "a70006b6000015${idx}57ff"
	if [ "$idx" = 00 ]; then
		same_ok "main local 0 of 1 past main's code" "$TMP/ml.ijvm"
	else
		same_fault "main local 1 of 1 past main's code" "$TMP/ml.ijvm"
	fi
	ijvmx "$TMP/mw.ijvm" 00000006 "a70006b60000c41500${idx}57ff"
	if [ "$idx" = 00 ]; then
		same_ok "main WIDE local 0 of 1" "$TMP/mw.ijvm"
	else
		same_fault "main WIDE local 1 of 1" "$TMP/mw.ijvm"
	fi
done

# Underflow by exactly one: each popping opcode with one word fewer than
# it pops, in a main of 1 and of 3 locals and in a method, after the same
# code with enough words runs through.
for spec in "1 POP" "1 DUP|POP|POP" "2 SWAP|POP|POP" "2 IADD|POP" \
    "2 ISUB|POP" "2 IAND|POP" "2 IOR|POP" "1 ISTORE 0" "1 IFEQ l|l: NOP" \
    "1 IFLT l|l: NOP" "2 IF_ICMPEQ l|l: NOP" "1 PUTSTATIC g" \
    "1 ATOMICADD g|POP" "1 NEWARRAY|POP" "2 IALOAD|POP" "3 IASTORE" \
    "1 OUT"; do
	pops=${spec%% *}
	code=${spec#* }
	for where in main1 main3 method; do
		for short in 0 1; do
			# pops - short words; an array reference is the last
			words=$((pops - short))
			pre=NOP
			i=1
			while [ "$i" -le "$words" ]; do
				if [ "$i" -eq "$pops" ] && [ "$pops" -ge 2 ] &&
				    [ "${code#IA}" != "$code" ]; then
					pre="$pre|BIPUSH 1|NEWARRAY"
				else
					pre="$pre|BIPUSH 0"
				fi
				i=$((i + 1))
			done
			# local 0 of a method is its link word
			[ "$where" = method ] && code=$(echo "$code" |
				sed 's/ISTORE 0/ISTORE 1/')
			IFS='|'
			case $where in
			main1) # shellcheck disable=SC2086
				frame uf 1 $pre $code ;;
			main3) # shellcheck disable=SC2086
				frame uf 3 $pre $code ;;
			method) # shellcheck disable=SC2086
				frame uf 1 $CALL POP -- $pre $code ;;
			esac
			unset IFS
			sed -i 's/^\.main$/.global\ng\n.end-global\n.main/' \
				"$TMP/uf.jas"
			if [ "$short" -eq 0 ]; then
				same_ok "$code, $pops words, $where" "$TMP/uf.jas"
			else
				same_fault "$code, $((pops - 1)) words, $where" \
					"$TMP/uf.jas"
			fi
		done
	done
done
# IRETURN on an empty method stack; INVOKEVIRTUAL with one argument word
# too few (OBJREF and p, q needed: 3).
IFS='|'
# shellcheck disable=SC2086
frame ir 1 $CALL POP -- POP
unset IFS
same_fault "IRETURN on an empty method stack" "$TMP/ir.jas"
IFS='|'
# shellcheck disable=SC2086
frame iv 1 "BIPUSH 1" "BIPUSH 2" "INVOKEVIRTUAL m" -- NOP
unset IFS
same_fault "INVOKEVIRTUAL one argument short" "$TMP/iv.jas"

# Method address against the text: BIPUSH 0 INVOKEVIRTUAL 0 HALT, then a
# header 0001 0000 and one byte of code (HALT) at 6: cp[0] = 6 runs; the
# same text with cp[0] = 7 puts the header's end at the text size.
ijvmx "$TMP/ma.ijvm" 00000006 "1000b60000ff00010000ff"
same_ok "INVOKEVIRTUAL of the last method of the text" "$TMP/ma.ijvm"
ijvmx "$TMP/ma.ijvm" 00000007 "1000b60000ff00010000ff"
same_fault "INVOKEVIRTUAL with header + 4 = text size" "$TMP/ma.ijvm"
ijvmx "$TMP/ma.ijvm" 00001000 "1000b60000ff00010000ff"
same_fault "INVOKEVIRTUAL past the text" "$TMP/ma.ijvm"

# The rule that makes the runs below pass whatever the registers hold:
# every lower-half word at an unknown opcode writes only the scratch
# registers MAR, MDR, OPC and H (C bits 0, 1, 7, 8) and starts no memory
# operation, except the sinks that write "unknown opcode" to the error
# word.
"$PMIC_CC" --listing="$TMP/pm.lst" -o "$TMP/pm.pmic" "$PM" >/dev/null 2>&1
bad=""
while read -r addr cu0 cu1 cu2 next rest; do
	case $addr in 0x0??) ;; *) continue ;; esac
	op=${addr#0x0}
	grep -qi "^IJVM_OP([A-Z_]*, *0x$op," \
		"$top_srcdir/src/core/ijvm-ops.def" && continue
	case $rest in
	*"mar = -c2 // mdr = c2 : write : next badop") continue ;;
	esac
	for w in $cu0 $cu1 $cu2; do
		if [ $(((0x$w >> 10) & 0x7ff & ~0x183)) -ne 0 ] ||
		    [ $(((0x$w >> 25) & 1)) -ne 0 ]; then
			bad="$bad $addr"
			diag "$addr writes more than scratch: $rest"
			break
		fi
	done
done <"$TMP/pm.lst"
[ -z "$bad" ]
ok $? "lower-half words at unknown opcodes change only scratch registers${bad:+ (not:$bad)}"

# Unknown opcodes 0x01-0xFF: each faults "unknown opcode" at the ISA
# level's PC, from several states, since a lower-half word of a
# conditional pair (pmic-cc -l) must tell a dispatch from its conditional
# by the registers (see "Unknown opcodes" in pmic.pm): first in main with
# an empty stack and the frame cache clear; after a push, an ILOAD and an
# IINC (a valid cache, a non-empty stack); in a method (cp[0] = 8: nargs
# 2, nlocals 2) after ILOAD 0; and after WIDE (the ISA's report for WIDE
# before a byte without a wide form).  Every state must report as the ISA
# level does, byte for byte.
for op in $(awk 'BEGIN { for (i = 1; i < 256; i++) printf "%02x\n", i }'); do
	grep -qi "^IJVM_OP([A-Z_]*, *0x$op," "$top_srcdir/src/core/ijvm-ops.def" &&
		continue
	bad=""
	for state in main cached method wide; do
		case $state in
		main)	ijvmx "$TMP/op.ijvm" "" "${op}ffffff" ;;
		cached)	ijvmx "$TMP/op.ijvm" "" \
			    "100110021500840001${op}ffffff" ;;
		method)	ijvmx "$TMP/op.ijvm" 00000008 \
			    "10001001b60000ff0002000215001005${op}ffffff" ;;
		wide)	ijvmx "$TMP/op.ijvm" "" "1001c4${op}ffffff" ;;
		esac
		both_levels "$TMP/op.ijvm"
		if [ "$want" -ne 1 ] || [ "$got" -ne 1 ] ||
		    ! cmp -s "$TMP/isa.err" "$TMP/pm.err"; then
			bad="$bad $state"
			diag "0x$op $state: ISA (exit $want): $(cat "$TMP/isa.err")"
			diag "0x$op $state: PMIC (exit $got): $(cat "$TMP/pm.err")"
		fi
	done
	[ -z "$bad" ]
	ok $? "unknown opcode 0x$op faults as at the ISA level in main, with a cache, in a method and after WIDE${bad:+ (not:$bad)}"
done

# Inside an instruction pmic.pm may hold PC complemented (its mark for
# telling a check from an unknown opcode): the debugger still names the
# instruction the microcode runs, on both engines.  IFLT at gcd.jas:93
# marks PC in its first cycle.
cat >"$TMP/mid.cmd" <<'CMDS'
break 93
run
stepi
where
stepi
where
CMDS
for engine in ref opencl; do
	[ "$engine" = opencl ] && ! "$MICDB" devices >/dev/null 2>&1 && continue
	"$MICDB" --batch "$TMP/mid.cmd" --engine "$engine" --level pmic \
		--microcode "$PM" "$PROGRAMS/gcd.jas" </dev/null \
		>"$TMP/mid.out" 2>&1
	n_in=$(grep -c "^  in 0x00ad (gcd#loop+12, gcd.jas:93): IFLT" \
		"$TMP/mid.out")
	n_where=$(grep -c "^#0  0x00ad (gcd#loop+12, gcd.jas:93) in gcd" \
		"$TMP/mid.out")
	[ "$n_in" -eq 2 ] && [ "$n_where" -eq 2 ]
	ok $? "$engine: inside IFLT (PC marked) stepi and where name the IFLT"
	[ "$n_in" -eq 2 ] && [ "$n_where" -eq 2 ] ||
		diag "$(head -c 1500 "$TMP/mid.out")"
done

done_testing
