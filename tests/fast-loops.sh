#!/bin/sh
# The micro levels' fast loops (engine-mic1-fast.c, engine-pmic-fast.c)
# run a core's words back to back and leave that run only at a word
# with a trap, the golden model or the end of the budget
# (doc/performance.md section 24.3).  Each of these must stop exactly
# where the reference engine (the golden model, cycle by cycle) stops:
# a breakpoint on a word in the middle of a straight run of words, one
# on a PC, budgets (stepi) that end inside a run, a watch, and the run to
# the end; the native engine's transcript must be the reference's, line
# for line, at Mic-1 with the textbook's and micdb's microprograms and at
# PMIC.  At the ISA level, the commonest pairs of instructions (a fused
# handler for them was measured and dropped, doc/performance.md 24.3, and
# is the kind of fast path any later one would be): a breakpoint on each
# pair's second slot (tests/run/pairs.jas), budgets that end between the
# two, and watches on the locals a pair's ISTORE writes must stop where
# the reference does too, and an IRETURN through a link a push overwrote
# faults as the reference's.  The sanitizer build runs the same
# transcripts.
. "$(dirname "$0")/lib.sh"

# fast_loops LEVEL MICROCODE WORD: the transcript of both engines
fast_loops() {
	cat >"$TMP/cmds" <<EOC
break mpc $3
continue
info registers
continue
stepi 5
info registers
continue 3
stepi 1
info registers
delete
stepi 1234
info registers
break mpc $3
continue
stepi 7
info registers
delete
break pow10#loop
continue
continue
info registers
delete
watch local p
continue
continue
info registers
delete
continue
info registers
EOC
	for eng in ref native; do
		"$MICDB" --batch "$TMP/cmds" --engine $eng --level "$1" \
			--microcode "$top_srcdir/$2" "$PROGRAMS/fib.jas" \
			>"$TMP/$eng" 2>&1 </dev/null
		echo $? >"$TMP/$eng.rc"
	done
	cmp -s "$TMP/ref" "$TMP/native" &&
		cmp -s "$TMP/ref.rc" "$TMP/native.rc"
	ok $? "$1 with $2: the native engine stops where the reference does"
	cmp -s "$TMP/ref" "$TMP/native" ||
		diag "$(diff "$TMP/ref" "$TMP/native" | head -20)"
	[ "$(grep -c "^breakpoint [12] hit by core 0 .*($3," "$TMP/native")" -ge 4 ] &&
		grep -q "^breakpoint 3 hit by core 0" "$TMP/native" &&
		grep -q "^watchpoint 4" "$TMP/native" &&
		grep -q "halted" "$TMP/native"
	ok $? "$1 with $2: the breakpoints on $3 and a PC, the watch and the end were reached"
	grep -q "halted" "$TMP/native" || diag "$(tail -20 "$TMP/native")"
	err=$TMP/asan.err
	"$MICDB_ASAN" --batch "$TMP/cmds" --level "$1" \
		--microcode "$top_srcdir/$2" "$PROGRAMS/fib.jas" \
		>"$TMP/asan" 2>"$err" </dev/null
	cmp -s "$TMP/asan" "$TMP/native"
	ok $? "$1 with $2: the sanitizer build's transcript is the same"
	no_sanitizer_report "$1 with $2"
}

# isa_pairs: the ISA level's pairs, both engines and the sanitizer build
isa_pairs() {
	cat >"$TMP/cmds" <<EOC
break ii2
break isub2
break dup2
break ist2
break iand2
break istl2
continue
continue
continue
continue
continue
continue
info registers
continue 5
delete
break loop
continue
stepi 1
stepi 2
stepi 3
stepi 1
stepi 5
stepi 1
info registers
delete
watch local k
continue
continue
delete
watch local x
continue
info registers
continue
delete
continue
info registers
EOC
	jas=$top_srcdir/tests/run/pairs.jas
	for eng in ref native; do
		"$MICDB" --batch "$TMP/cmds" --engine $eng "$jas" \
			>"$TMP/$eng" 2>&1 </dev/null
		echo $? >"$TMP/$eng.rc"
	done
	cmp -s "$TMP/ref" "$TMP/native" &&
		cmp -s "$TMP/ref.rc" "$TMP/native.rc"
	ok $? "isa pairs: the native engine stops where the reference does"
	cmp -s "$TMP/ref" "$TMP/native" ||
		diag "$(diff "$TMP/ref" "$TMP/native" | head -20)"
	hits=0
	for n in 1 2 3 4 5 6; do
		grep -q "^breakpoint $n hit by core 0" "$TMP/native" &&
			hits=$((hits + 1))
	done
	[ "$hits" -eq 6 ] &&
		[ "$(grep -c "^watchpoint 8: .* changed" "$TMP/native")" -eq 2 ] &&
		[ "$(grep -c "^watchpoint 9: .* changed" "$TMP/native")" -eq 2 ] &&
		grep -q "all cores halted" "$TMP/native" &&
		[ "$(cat "$TMP/native.rc")" -eq 0 ]
	ok $? "isa pairs: every second slot's breakpoint, both watches and the end were reached"
	err=$TMP/asan.err
	"$MICDB_ASAN" --batch "$TMP/cmds" "$jas" >"$TMP/asan" 2>"$err" </dev/null
	cmp -s "$TMP/asan" "$TMP/native"
	ok $? "isa pairs: the sanitizer build's transcript is the same"
	no_sanitizer_report "isa pairs"
}

# A link that a push overwrote (tests/run/corrupt-link.jas): the one run
# from the start must fault as the reference does, through the
# translation and, under tests/nojit.so, the interpreter alone; neither
# may read through the link (both once did, and crashed).
isa_link() {
	jas=$top_srcdir/tests/run/corrupt-link.jas
	"$MICDB" run --engine ref "$jas" >"$TMP/lref" 2>&1
	echo $? >>"$TMP/lref"
	for pre in "" "$top_builddir/tests/nojit.so"; do
		LD_PRELOAD=$pre "$MICDB" run --engine native "$jas" \
			>"$TMP/lnat" 2>&1
		echo $? >>"$TMP/lnat"
		cmp -s "$TMP/lref" "$TMP/lnat"
		ok $? "isa corrupted link${pre:+ (nojit.so)}: the native engine faults as the reference"
		cmp -s "$TMP/lref" "$TMP/lnat" ||
			diag "$(diff "$TMP/lref" "$TMP/lnat" | head -5)"
	done
	grep -q 'corrupted link pointer' "$TMP/lref" &&
		[ "$(tail -1 "$TMP/lref")" -eq 1 ]
	ok $? "isa corrupted link: the reference names the fault, exit status 1"
}

isa_pairs
isa_link
fast_loops mic tests/textbook.mal iadd2
fast_loops mic microcode/mic1.mal iadd2
fast_loops pmic microcode/pmic.pm iadd3
done_testing
