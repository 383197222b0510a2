#!/bin/sh
# pmic-cc as a user meets it: usage and exit codes, the default output
# name, -o/-l/-s, the .pmic bytes (magic, size, the thesis' IADD at
# 0x60), all errors of a file in one run with no output written, micdb
# run --level pmic on the compiled store and on the source, and the man
# page (renders cleanly, documents every option).
. "$(dirname "$0")/lib.sh"

PMIC_CC=$top_builddir/src/pmic-cc
cd "$TMP" || exit 1

run_cmd o e "$PMIC_CC" --help
[ "$rc" -eq 0 ] && grep -q '^usage: pmic-cc' o
ok $? "pmic-cc --help: prints usage, exits 0"
run_cmd o e "$PMIC_CC"
expect_rc 2 "no input file"
expect_err "no input file given" "says what is missing"
run_cmd o e "$PMIC_CC" --bogus x.pm
expect_rc 2 "unknown option"
expect_err "unknown option '--bogus'" "names the option"
run_cmd o e "$PMIC_CC" x.pm -o
expect_rc 2 "option without its value"
run_cmd o e "$PMIC_CC" a.pm b.pm
expect_rc 2 "two input files"
run_cmd o e "$PMIC_CC" /nonexistent/x.pm
expect_rc 1 "unreadable source"
expect_err "/nonexistent/x.pm" "names the file"

cat >m.pm <<'PM'
# BIPUSH, the thesis' IADD, OUT, HALT
bipush { sp,mar = sp+one // tos,mdr = mbr1s // pc = pc+c2 : write // fetch }
iadd {
    mar,sp = sp-one : read;
    mdr,tos = mdr+tos // pc = pc+one : write // fetch
}
out { mar = -c3 // mdr = tos // sp = sp-one : write;
      mar = sp // pc = pc+one : read // fetch;
      tos = mdr }
halt { mar = -one : write : next halt }
PM
run_cmd o e "$PMIC_CC" m.pm -s m.sym -lm.lst
expect_rc 0 "a microprogram compiles"
[ -f m.pmic ]
ok $? "FILE.pm gives FILE.pmic"
[ "$(wc -c <m.pmic)" -eq 8196 ]
ok $? ".pmic is 8196 bytes"
[ "$(od -An -tx1 -N4 m.pmic | tr -d ' \n')" = "504d4943" ]
ok $? ".pmic starts with the magic 50 4D 49 43"
# IADD's first word: CU0 mar,sp = sp-one (EN, ALU 7, C MAR|SP, A SP),
# CU1 read; the next-address word present, to its second word.
[ "$(od -An -tx1 -j$((4 + 16 * 0x60)) -N8 m.pmic | tr -d ' \n')" = \
    "04e027eb02000000" ]
ok $? "IADD at 0x60: CU0 04e027eb, CU1 02000000 (read)"
grep -q '^0x060  04e027eb 02000000 00000000 8.*iadd *mar,sp = sp-one : read$' m.lst
ok $? "listing: address, 4 words, line, label, text"
head -1 m.sym | grep -q '^# mic1-as symbols 1$' &&
	grep -q "$(printf '^0x060\t4\tiadd\tmar,sp = sp-one : read$')" m.sym
ok $? "symbol file: one line per micro-instruction"
run_cmd o e "$PMIC_CC" -l m.pm -o m2.pmic
[ "$rc" -eq 0 ] && grep -q '^0x060' o && cmp -s m.pmic m2.pmic
ok $? "-l alone lists to standard output"
run_cmd o e "$PMIC_CC" -o - m.pm
[ "$rc" -eq 0 ] && cmp -s o m.pmic
ok $? "-o - writes the store to standard output"
run_cmd o e "$PMIC_CC" --output=other.bin --listing=l2 --symbols=s2 m.pm
[ "$rc" -eq 0 ] && cmp -s other.bin m.pmic && cmp -s l2 m.lst && cmp -s s2 m.sym
ok $? "long options give the same files"

# BIPUSH 40, BIPUSH 25, IADD, OUT, HALT
cat >p.jas <<'JAS'
.main
	BIPUSH 40
	BIPUSH 25
	IADD
	OUT
	HALT
.end-main
JAS
run_cmd o e "$MICDB" run --level pmic --microcode m.pmic p.jas
[ "$rc" -eq 0 ] && [ "$(cat o)" = "A" ]
ok $? "micdb run --level pmic --microcode m.pmic: 40 + 25 = 'A'"
run_cmd o e "$MICDB" run --level pmic --microcode m.pm --cores 2 p.jas
[ "$rc" -eq 0 ] && [ "$(cat o)" = "$(printf '[core 0] A\n[core 1] A')" ] ||
	[ "$rc" -eq 0 ] && [ "$(tr -d '\n' <o)" = "[core 0] A[core 1] A" ]
ok $? "... and from the source, on 2 cores"
printf 'iload { h = h }\n' >bad1.pm
run_cmd o e "$MICDB" run --level pmic --microcode bad1.pm p.jas
[ "$rc" -ne 0 ]
ok $? "an opcode without microcode faults the core"
run_cmd o e "$MICDB" run --microcode m.pm p.jas
expect_rc 2 "--microcode at the ISA level"
expect_err "--microcode needs --level mic or --level pmic" "says why"

cat >bad.pm <<'PM'
# three mistakes
a { h = foo : next a }
b { mar,sp = sp : read // read }
c { h = sp // h = lv : next nowhere }
PM
run_cmd o e "$PMIC_CC" bad.pm
expect_rc 1 "a source with errors"
[ "$(grep -c '^bad.pm:[0-9]*:[0-9]*: ' e)" -eq 4 ]
ok $? "every error, one per line, as file:line:column: message"
expect_err "bad.pm:2:9: unknown register 'foo'" "unknown register"
expect_err "bad.pm:3:27: 'read' twice in one micro-instruction" "read twice"
expect_err "bad.pm:4:15: register 'h' written by two compute units" \
    "two CUs writing one register"
expect_err "bad.pm:4:29: undefined label 'nowhere'" "undefined label"
expect_err "pmic-cc: 4 errors, no output written" "a summary line"
[ ! -f bad.pmic ]
ok $? "no output file after errors"
run_cmd o e "$MICDB" run --level pmic --microcode bad.pm p.jas
expect_rc 2 "micdb with a bad microprogram"
expect_err "bad.pm:2:9: unknown register 'foo'" "shows the compiler's errors"
printf 'junk' >junk.pmic
run_cmd o e "$MICDB" run --level pmic --microcode junk.pmic p.jas
expect_rc 2 "micdb with a bad .pmic"
expect_err "not a .pmic control store" "says what is wrong"

if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l \
	    "$top_srcdir/man/pmic-cc.1" >man.out 2>man.err
	[ $? -eq 0 ] && [ ! -s man.err ] && [ -s man.out ]
	ok $? "pmic-cc.1 renders without warnings"
	[ -s man.err ] && diag "$(head -5 man.err)"
else
	echo "ok $((tap_n = tap_n + 1)) # SKIP man is not installed"
fi
for opt in $("$PMIC_CC" --help | grep -o -- '--[a-z-]*' | sort -u); do
	grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$top_srcdir/man/pmic-cc.1"
	ok $? "pmic-cc.1 documents $opt"
done
done_testing
