#!/bin/sh
# mic1-as as a user meets it: usage and exit codes, default output name,
# -o/-l/-s, the .mic1 bytes of the spec (magic, Main1 = 00 43 50 21 10),
# all errors of a file in one run with no output written, the textbook
# dialect, and the man page (renders cleanly, documents every option).
. "$(dirname "$0")/lib.sh"

MIC1_AS=$top_builddir/src/mic1-as
cd "$TMP" || exit 1

run_cmd o e "$MIC1_AS" --help
[ "$rc" -eq 0 ] && grep -q '^usage: mic1-as' o
ok $? "mic1-as --help: prints usage, exits 0"
run_cmd o e "$MIC1_AS"
expect_rc 2 "no input file"
expect_err "no input file given" "says what is missing"
run_cmd o e "$MIC1_AS" --bogus x.mal
expect_rc 2 "unknown option"
run_cmd o e "$MIC1_AS" x.mal -o
expect_rc 2 "option without its value"
run_cmd o e "$MIC1_AS" a.mal b.mal
expect_rc 2 "two input files"
run_cmd o e "$MIC1_AS" /nonexistent/x.mal
expect_rc 1 "unreadable source"
expect_err "/nonexistent/x.mal" "names the file"

cp "$top_srcdir/microcode/mic1.mal" m.mal
run_cmd o e "$MIC1_AS" m.mal -l m.lst -s m.sym
expect_rc 0 "microcode/mic1.mal assembles"
[ -f m.mic1 ]
ok $? "FILE.mal gives FILE.mic1"
[ "$(wc -c <m.mic1)" -eq 2564 ]
ok $? ".mic1 is 2564 bytes"
[ "$(od -An -tx1 -N4 m.mic1 | tr -d ' \n')" = "12345678" ]
ok $? ".mic1 starts with the magic 12 34 56 78"
[ "$(od -An -tx1 -j14 -N5 m.mic1 | tr -d ' \n')" = "0043502110" ]
ok $? "Main1 (word 2) is 00 43 50 21 10"
grep -q '^0x002  0x004350211 .* Main1 *PC = PC + 1; fetch; goto (MBR)$' m.lst
ok $? "listing: address, word, line, label, statement"
head -1 m.sym | grep -q '^# mic1-as symbols 1$' &&
	grep -q "$(printf '^main1\t0x002$')" m.sym &&
	grep -q "$(printf '^0x002\t[0-9]*\tMain1\tPC = PC + 1; fetch; goto (MBR)$')" m.sym
ok $? "symbol file: header, main1, one line per word"
run_cmd o e "$MIC1_AS" -o - m.mal
[ "$rc" -eq 0 ] && cmp -s o m.mic1
ok $? "-o - writes the store to standard output"
run_cmd o e "$MIC1_AS" --output=other.bin --listing=l2 --symbols=s2 m.mal
[ "$rc" -eq 0 ] && cmp -s other.bin m.mic1 && cmp -s l2 m.lst && cmp -s s2 m.sym
ok $? "long options give the same files"

run_cmd o e "$MIC1_AS" -o tb.mic1 "$top_srcdir/tests/textbook.mal"
expect_rc 0 "the textbook dialect assembles"
[ "$(od -An -tx1 -j14 -N5 tb.mic1 | tr -d ' \n')" = "0043502110" ]
ok $? "... with its Main1 at 0x02"

# Shapes of classroom variants: warnings on stderr, exit 0, output written.
cat "$top_srcdir/tests/textbook.mal" "$top_srcdir/tests/textbook-variant.mal" \
	>variant.mal
run_cmd o e "$MIC1_AS" variant.mal
expect_rc 0 "a classroom variant (textbook.mal + textbook-variant.mal)"
[ "$(grep -c '^variant.mal:[0-9]*:[0-9]*: warning: ' e)" -eq 2 ] &&
	[ -f variant.mic1 ]
ok $? "... with its two warnings as file:line:column: warning: message"
expect_err "warning: anchored label 'missing1' is never defined" \
	"warns about an anchor without its routine"
expect_err "the if reaches 'err1' through an added word 'goto err1'" \
	"warns about the if to err1"

cat >bad.mal <<'MAL'
// three mistakes
a	H = FOO; goto a
b	MAR = SP; rd; wr; goto a
c	H = SP + LV; goto nowhere
MAL
run_cmd o e "$MIC1_AS" bad.mal
expect_rc 1 "a source with errors"
[ "$(grep -c '^bad.mal:[0-9]*:[0-9]*: ' e)" -eq 3 ]
ok $? "every error, one per line, as file:line:column: message"
expect_err "bad.mal:2:7: unknown register 'FOO'" "unknown register"
expect_err "bad.mal:3:17: READ with WRITE" "READ with WRITE"
expect_err "bad.mal:4:12: two B sources (SP and LV)" "two B sources"
expect_err "mic1-as: 3 errors, no output written" "a summary line"
[ ! -f bad.mic1 ]
ok $? "no output file after errors"
printf 'a goto a\nb goto nowhere\n' >undef.mal
run_cmd o e "$MIC1_AS" undef.mal
expect_rc 1 "an undefined label"
expect_err "undef.mal:2:8: undefined label 'nowhere'" "names it with its place"

# The man page renders without warnings and documents every option.
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l \
	    "$top_srcdir/man/mic1-as.1" >man.out 2>man.err
	[ $? -eq 0 ] && [ ! -s man.err ] && [ -s man.out ]
	ok $? "mic1-as.1 renders without warnings"
	[ -s man.err ] && diag "$(head -5 man.err)"
else
	echo "ok $((tap_n = tap_n + 1)) # SKIP man is not installed"
fi
for opt in $("$MIC1_AS" --help | grep -o -- '--[a-z-]*' | sort -u); do
	grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$top_srcdir/man/mic1-as.1"
	ok $? "mic1-as.1 documents $opt"
done
done_testing
