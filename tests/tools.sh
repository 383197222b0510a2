#!/bin/sh
# The command-line tools as a user meets them: --help of every command,
# default file names, -o, the instruction-set configuration file, input
# from stdin and from --input, multi-core output formats, --trace.
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1

for cmd in "$MICDB --help" "$MICDB run --help" "$MICDB devices --help" \
    "$MICDB --dap --help" "$IJVM_AS --help" "$IJVM_DIS --help"; do
	# shellcheck disable=SC2086
	run_cmd o e $cmd
	[ "$rc" -eq 0 ] && grep -q '^usage:' o
	ok $? "$(basename "${cmd%% *}") ${cmd#* }: prints usage, exits 0"
done
run_cmd o e "$MICDB" --version
[ "$rc" -eq 0 ] && grep -q '^micdb [0-9]' o
ok $? "micdb --version"

cat >hi.jas <<'JAS'
// prints "Hi" and a newline
.main
	BIPUSH 'H'
	OUT
	BIPUSH 'i'
	OUT
	BIPUSH 10
	OUT
	HALT
.end-main
JAS
run_cmd o e "$IJVM_AS" hi.jas
[ "$rc" -eq 0 ] && [ -f hi.ijvm ]
ok $? "ijvm-as FILE.jas writes FILE.ijvm"
run_cmd o e "$IJVM_AS" -o other.bin hi.jas
[ "$rc" -eq 0 ] && cmp -s hi.ijvm other.bin
ok $? "ijvm-as -o names the output"
# -o onto something that is not a regular file (a FIFO here, /dev/null
# in practice) writes into it: a rename would replace it with a file.
mkfifo fifo
cat fifo >from-fifo &
run_cmd o e "$IJVM_AS" -o fifo hi.jas
wait
[ "$rc" -eq 0 ] && [ -p fifo ] && cmp -s hi.ijvm from-fifo
ok $? "ijvm-as -o FIFO writes into the FIFO and leaves it a FIFO"
run_cmd o e "$IJVM_AS" --no-symbols -o nosym.ijvm hi.jas
[ "$rc" -eq 0 ] && [ "$(wc -c <nosym.ijvm)" -lt "$(wc -c <hi.ijvm)" ]
ok $? "--no-symbols leaves the symbol blocks out"
# magic, cp block (origin 0x10000, 0 bytes), text block (origin 0, 8 bytes)
od -An -tx1 nosym.ijvm | tr -d ' \n' >hex
[ "$(cat hex)" = "1deadfad0001000000000000000000000000000a1048fd1069fd100afdff" ]
ok $? "standard .ijvm layout, byte for byte"
[ "$(cat hex)" = "1deadfad0001000000000000000000000000000a1048fd1069fd100afdff" ] ||
	diag "got $(cat hex)"
run_cmd o e "$MICDB" run hi.ijvm
[ "$rc" -eq 0 ] && [ "$(cat o)" = "Hi" ]
ok $? "micdb run on the binary"
run_cmd o e "$MICDB" run --cores 3 hi.jas
[ "$(cat o)" = "[core 0] Hi
[core 1] Hi
[core 2] Hi" ]
ok $? "three cores: one prefixed line each"
run_cmd o e "$MICDB" run --cores 3 --output raw hi.jas
[ "$(cat o)" = "Hi
Hi
Hi" ]
ok $? "--output raw passes bytes through"
run_cmd o e "$MICDB" run --output lines hi.jas
[ "$rc" -eq 0 ] && [ "$(cat o)" = "[core 0] Hi" ]
ok $? "--output lines prefixes a lone core's lines too (asked for)"
run_cmd o e "$IJVM_DIS" hi.ijvm
[ "$rc" -eq 0 ] && grep -q "BIPUSH 72" o && grep -q "^.main" o
ok $? "ijvm-dis prints .jas"
run_cmd o e "$IJVM_DIS" -o hi-dis.jas hi.ijvm
[ "$rc" -eq 0 ] && [ -s hi-dis.jas ]
ok $? "ijvm-dis -o writes a file"

# input: stdin and --input
cat >cat.jas <<'JAS'
.main
l:	IN
	DUP
	IFEQ done
	OUT
	GOTO l
done:	POP
	HALT
.end-main
JAS
printf 'hello\n' | "$MICDB" run cat.jas >o 2>e
[ "$(cat o)" = "hello" ]
ok $? "core 0 reads standard input"
printf 'from file' >in.txt
run_cmd o e "$MICDB" run --input in.txt cat.jas
[ "$(cat o)" = "from file" ]
ok $? "--input FILE feeds core 0"
run_cmd o e "$MICDB" run --cores 2 --input in.txt cat.jas
[ "$(cat o)" = "[core 0] from file" ]
ok $? "other cores get no input (IN pushes 0)"

# instruction-set configuration file
printf '0x68 IMUL // multiply\n0x10 PUSHB byte // rename BIPUSH\n' >my.conf
printf '.main\n\tPUSHB 3\n\tPUSHB 4\n\tIMUL\n\tHALT\n.end-main\n' >imul.jas
run_cmd o e "$IJVM_AS" -c my.conf -o imul.ijvm imul.jas
[ "$rc" -eq 0 ] && od -An -tx1 imul.ijvm | tr -d ' \n' | grep -q '10031004' &&
	od -An -tx1 imul.ijvm | tr -d ' \n' | grep -q '68ff'
ok $? "ijvm-as -c adds IMUL and a new BIPUSH spelling"
run_cmd o e "$IJVM_DIS" -c my.conf imul.ijvm
grep -q IMUL o
ok $? "ijvm-dis -c shows the user instruction"
printf '0x68 IMUL bogus\n' >bad.conf
run_cmd o e "$IJVM_AS" -c bad.conf imul.jas
[ "$rc" -eq 1 ] && grep -q 'bad.conf:1:' e
ok $? "a bad configuration file is reported as file:line"

# the micro level through micdb run
run_cmd o e "$MICDB" run --level mic "$PROGRAMS/fib.jas"
[ "$rc" -eq 0 ] && cmp -s o "$PROGRAMS/fib.expected"
ok $? "micdb run --level mic gives the ISA level's output (fib)"
run_cmd o e "$MICDB" run --level mic "$PROGRAMS/faults/underflow.jas"
[ "$rc" -eq 0 ] && grep -q 'micdb: note: at the Mic-1 level the microprogram does not check operand-stack underflow' e
ok $? "micdb run --level mic notes what the Mic-1 level does not check"
run_cmd o e "$MICDB" run "$PROGRAMS/faults/underflow.jas"
[ "$rc" -eq 1 ] && ! grep -q 'note:' e
ok $? "the ISA level faults instead, without the note"
printf 'micro\n' | "$MICDB" run --level mic cat.jas >o 2>e
[ "$(cat o)" = "micro" ]
ok $? "--level mic: core 0 reads standard input"
run_cmd o e "$MICDB" run --level mic --cores 8 "$PROGRAMS/parsum.jas"
sort -s -k2,2n o >o.sorted
sort -s -k2,2n "$PROGRAMS/parsum.expected" >want.sorted
[ "$rc" -eq 0 ] && cmp -s o.sorted want.sorted
ok $? "--level mic on 8 cores (parsum: barriers, globals, heap)"
"$IJVM_AS" -c "$PROGRAMS/imul/imul.conf" -o imul2.ijvm "$PROGRAMS/imul/imul.jas"
run_cmd o e "$MICDB" run --level mic --microcode "$PROGRAMS/imul/imul.mal" imul2.ijvm
[ "$rc" -eq 0 ] && cmp -s o "$PROGRAMS/imul/imul.expected"
ok $? "a student's IMUL runs with --microcode at the micro level"
run_cmd o e "$MICDB" run imul2.ijvm
[ "$rc" -eq 1 ] && grep -q -- '--level mic' e
ok $? "the same program faults at the ISA level, saying to switch"
run_cmd o e "$MICDB" run --microcode x.mal hi.jas
[ "$rc" -eq 2 ] && grep -q 'needs --level mic' e
ok $? "--microcode without --level mic is refused"
run_cmd o e "$MICDB" run --level mic --microcode nosuch.mal hi.jas
[ "$rc" -eq 2 ] && grep -q 'nosuch.mal' e
ok $? "a missing microprogram is named"
run_cmd o e "$MICDB" run --level pmic --microcode nosuch.pm hi.jas
[ "$rc" -eq 2 ] && grep -q 'nosuch.pm' e
ok $? "--level pmic: a missing microprogram is named"

# --trace
run_cmd o e "$MICDB" run --trace trace.jsonl hi.jas
[ "$(wc -l <trace.jsonl)" -eq 7 ] && head -1 trace.jsonl | grep -q '"step":1'
ok $? "--trace writes one JSON line per step"

done_testing
