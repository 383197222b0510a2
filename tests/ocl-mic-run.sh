#!/bin/sh
# micdb run --level mic|pmic --engine opencl (the MIC and PMIC kernels)
# end to end: every sample program prints its .expected output, as the C
# simulators do (tests/mic-run.sh); the fault demos fail with exit 1 and
# name their fault as the C simulator does; --level mic|pmic without
# --engine runs on the kernel too.
. "$(dirname "$0")/lib.sh"

if ! "$MICDB" devices >/dev/null 2>&1; then
	echo "1..0 # SKIP no OpenCL device"
	exit 77
fi

for level in mic pmic; do
for expected in "$PROGRAMS"/*.expected; do
	name=$(basename "$expected" .expected)
	sample "$name"
	# shellcheck disable=SC2086
	(cd "$top_srcdir" && "$MICDB" run --level $level --engine opencl $opts \
		$jas <"$input" >"$TMP/out" 2>"$TMP/err")
	rc=$?
	[ "$rc" -eq 0 ]
	ok $? "$name [$opts] on the $level kernel: exits 0"
	[ "$rc" -eq 0 ] || diag "$(head -c 1000 "$TMP/err")"
	same_output "$TMP/out" "$expected"
	ok $? "$name [$opts] on the $level kernel: output matches"
done

# The fault demos the micro level detects (see mic-run.sh): exit 1, the
# output before the fault, and a message.
for name in array_oob stack_overflow missing_halt one_core_fails; do
	jas=$PROGRAMS/faults/$name.jas
	fault_opts "$jas"
	# shellcheck disable=SC2086
	"$MICDB" run --level $level --engine opencl $opts "$jas" \
		</dev/null >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ]
	ok $? "faults/$name on the $level kernel: exits 1"
	same_output "$TMP/out" "${jas%.jas}.expected"
	ok $? "faults/$name on the $level kernel: output before the fault"
	[ -s "$TMP/err" ]
	ok $? "faults/$name on the $level kernel: says why"
	# the same message as the C simulator
	# shellcheck disable=SC2086
	"$MICDB" run --level $level --engine ref $opts "$jas" \
		</dev/null >/dev/null 2>"$TMP/err.ref"
	cmp -s "$TMP/err" "$TMP/err.ref"
	ok $? "faults/$name on the $level kernel: same message as --engine ref"
done

# The default engine of the level is the kernel: same output.
(cd "$top_srcdir" && "$MICDB" run --level $level --cores 4 \
	"$PROGRAMS/hello.jas" >"$TMP/out" 2>"$TMP/err")
ok $? "--level $level without --engine runs"
(cd "$top_srcdir" && "$MICDB" run --level $level --engine ref --cores 4 \
	"$PROGRAMS/hello.jas" >"$TMP/want" 2>&1)
cmp -s "$TMP/out" "$TMP/want"
ok $? "--level $level without --engine: same output as --engine ref"

done

# The installed layout: the kernels in one directory with the headers
# they include (micdb's kernel directory holds no src/core), each of
# which make install puts there (dist_kernels_DATA of src/ocl/*.mk).
mkdir -p "$TMP/kernels"
todo="mic.cl pmic.cl"
seen=""
while :; do
	# shellcheck disable=SC2086
	set -- $todo
	[ $# -gt 0 ] || break
	f=$1
	shift
	todo="$*"
	case " $seen " in *" $f "*) continue ;; esac
	seen="$seen $f"
	if [ -f "$top_srcdir/kernels/$f" ]; then
		src=$top_srcdir/kernels/$f
		inst=kernels/$f
	else
		src=$top_srcdir/src/core/$f
		inst=src/core/$f
	fi
	cp "$src" "$TMP/kernels/" 2>/dev/null
	ok $? "the kernels' $f exists"
	grep -q "^[[:space:]]*$inst\>" "$top_srcdir"/src/ocl/*.mk
	ok $? "$inst is installed with the kernels"
	todo="$todo $(sed -n 's/^#include "\(.*\)"/\1/p' "$src")"
done
for level in mic pmic; do
	(cd "$top_srcdir" && env MICDB_KERNEL_DIR="$TMP/kernels" "$MICDB" \
		run --level $level --engine opencl \
		"$PROGRAMS/hello.jas" </dev/null >"$TMP/out" 2>"$TMP/err")
	ok $? "the $level kernel builds from one directory with its headers"
	same_output "$TMP/out" "$PROGRAMS/hello.expected"
	ok $? "the $level kernel from one directory: output matches"
done

# A control store as the textbook's Java assembler writes it: 1 as OR with
# INC, -1 as NOT A with A off.  The kernel adds INC after every function,
# as the golden model does (doc/mic1.md section 1), so both run it alike;
# ERR, which builds its letters from 1 and -1, still prints ERROR.
MIC1_AS=$top_builddir/src/mic1-as
"$MIC1_AS" -o "$TMP/tb.mic1" "$top_srcdir/tests/textbook.mal" 2>"$TMP/err"
ok $? "tests/textbook.mal assembles"
perl -e '
	binmode STDIN; binmode STDOUT; local $/; my $d = <STDIN>; my $n = 0;
	for my $i (0 .. 511) {
		my $o = 4 + 5 * $i;
		my ($hi, $lo) = unpack("N C", substr($d, $o, 5));
		my $v = $hi * 256 + $lo;            # 40 bits: the word << 4
		next if ($v & 0xF) == 0xF;          # no word here
		my $alu = ($v >> 20) & 0xFF;
		my $to = ($alu & 0x3F) == 0x31 ? 0x11 :
		    ($alu & 0x3F) == 0x32 ? 0x12 : -1;
		next if $to < 0;
		$v = $v - ($alu << 20) + ((($alu & 0xC0) | $to) << 20);
		substr($d, $o, 5) = pack("N C", int($v / 256), $v % 256);
		$n++;
	}
	print $d; exit($n >= 6 ? 0 : 1);' <"$TMP/tb.mic1" >"$TMP/java.mic1"
ok $? "the textbook's encodings written into its store"
printf '.main\nBIPUSH 65\nOUT\nERR\n.end-main\n' >"$TMP/err.jas"
for e in ref opencl; do
	"$MICDB" run --level mic --engine $e --microcode "$TMP/java.mic1" \
		"$TMP/err.jas" </dev/null >"$TMP/out" 2>"$TMP/err"
	[ "$(cat "$TMP/out")" = AERROR ]
	ok $? "the textbook's encodings on the $e engine: ERR prints ERROR"
	[ "$(cat "$TMP/out")" = AERROR ] || diag "$(cat "$TMP/out" "$TMP/err")"
	"$MICDB" run --level mic --engine $e --microcode "$TMP/java.mic1" \
		"$PROGRAMS/fib.jas" </dev/null >"$TMP/out" 2>"$TMP/err"
	same_output "$TMP/out" "$PROGRAMS/fib.expected"
	ok $? "the textbook's encodings on the $e engine: fib runs"
done

done_testing
