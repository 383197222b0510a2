#!/bin/sh
# tests/fuzz/run.sh [SECONDS] [TARGET...]: run each libFuzzer target of
# tests/fuzz (all of them by default) for SECONDS (default 60), one at a
# time and niced, over a corpus seeded from the project's own files
# (programs/, microcode/, tests/batch/*.cmd, what the built assemblers
# make of them) and tests/fuzz/seeds/TARGET (hand-written seeds and every
# input that once found a bug).  Prints, per target, the executions and
# libFuzzer's coverage (cov: edges, ft: features); a crash is kept in
# tests/fuzz/work/TARGET/ and fails the run.
#
# tests/fuzz/run.sh --tap SECONDS: the same as a TAP test (make check's
# smoke, tests/fuzz/smoke.sh): first every seed once, then SECONDS of
# fuzzing, one check per target.
#
# Environment: top_srcdir, top_builddir (default: this script's tree);
# FUZZ_WORK, where the corpora, logs and crashes go (tests/fuzz/work).
set -u

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
export top_srcdir top_builddir
tap=0
if [ "${1:-}" = --tap ]; then
	tap=1
	shift
fi
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-ijvm jas conf mal mic1 sym pm pmic dbg expr batch}
fuzzdir=$top_builddir/tests/fuzz
work=${FUZZ_WORK:-$fuzzdir/work}

if [ $tap = 1 ] && [ ! -x "$fuzzdir/fuzz-ijvm" ]; then
	echo "1..0 # SKIP no libFuzzer targets (configure found no clang that builds -fsanitize=fuzzer)"
	exit 77
fi

# seed TARGET DIR: the generated part of TARGET's corpus, into DIR.
seed() {
	s=$top_srcdir
	b=$top_builddir
	case $1 in
	jas)
		cp "$s"/programs/*.jas "$s"/programs/faults/*.jas \
		    "$s"/tests/batch/*.jas "$s"/tests/limits/*.jas "$2"/ ;;
	ijvm)
		for f in "$s"/programs/*.jas "$s"/programs/faults/*.jas; do
			"$b"/src/ijvm-as -o "$2/$(basename "$f" .jas).ijvm" \
			    "$f" 2>/dev/null
		done ;;
	conf)
		cp "$s"/programs/imul/imul.conf "$2"/ ;;
	mal)
		cp "$s"/microcode/mic1.mal "$s"/tests/*.mal \
		    "$s"/programs/imul/imul.mal "$2"/
		for f in "$s"/tests/batch/*.mal; do
			cp "$f" "$2/batch-$(basename "$f")"
		done ;;
	mic1)
		for f in "$s"/microcode/mic1.mal "$s"/tests/batch/*.mal; do
			"$b"/src/mic1-as -o "$2/$(basename "$f" .mal).mic1" \
			    "$f" 2>/dev/null
		done ;;
	sym)
		"$b"/src/mic1-as -o /dev/null -s "$2/mic1.sym" \
		    "$s"/microcode/mic1.mal 2>/dev/null
		"$b"/src/pmic-cc -o /dev/null -s "$2/pmic.sym" \
		    "$s"/microcode/pmic.pm 2>/dev/null ;;
	pm)
		cp "$s"/microcode/pmic.pm "$2"/ ;;
	pmic)
		"$b"/src/pmic-cc -o "$2/pmic.pmic" "$s"/microcode/pmic.pm \
		    2>/dev/null ;;
	dbg)
		# the first byte picks the level: '0' ISA, '1' Mic-1, '2' PMIC
		k=0
		for f in "$s"/tests/batch/*.cmd; do
			printf "%s" $((k % 3)) | cat - "$f" >"$2/$(basename "$f")"
			k=$((k + 1))
		done ;;
	batch)
		cp "$s"/tests/batch/*.cmd "$s"/programs/demo.cmd "$2"/ ;;
	esac
	if [ -d "$s/tests/fuzz/seeds/$1" ]; then
		cp "$s/tests/fuzz/seeds/$1"/* "$2"/
	fi
	return 0
}

n=0
for t in $targets; do
	n=$((n + 1))
done
[ $tap = 1 ] && echo "1..$n"
i=0
failed=0
total=0
for t in $targets; do
	i=$((i + 1))
	bin=$fuzzdir/fuzz-$t
	dir=$work/$t
	mkdir -p "$dir/corpus" "$dir/seeds"
	rm -f "$dir"/seeds/*
	seed "$t" "$dir/seeds"
	dict=$top_srcdir/tests/fuzz/dict/$t.dict
	set -- -dict="$dict" -artifact_prefix="$dir/" -timeout=20 \
	    -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1
	start=$(date +%s)
	rc=0
	if [ $tap = 1 ]; then
		# every seed (and every past finding) once, then a short fuzz
		nice "$bin" "$@" "$dir"/seeds/* >"$dir/log" 2>&1 || rc=$?
		[ $rc = 0 ] && { nice "$bin" "$@" -max_total_time="$secs" \
		    "$dir/corpus" "$dir/seeds" >>"$dir/log" 2>&1 || rc=$?; }
	else
		nice -n 19 "$bin" "$@" -max_total_time="$secs" \
		    "$dir/corpus" "$dir/seeds" >"$dir/log" 2>&1 || rc=$?
	fi
	took=$(( $(date +%s) - start ))
	total=$((total + took))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
	cov=$(grep -E '^#[0-9]+' "$dir/log" | tail -1 |
	    sed -n 's/.*\(cov: [0-9]* ft: [0-9]*\).*/\1/p')
	line="fuzz-$t: ${execs:-?} execs in ${took}s, ${cov:-no coverage line}"
	if [ $tap = 1 ]; then
		if [ $rc = 0 ]; then
			echo "ok $i - $line"
		else
			echo "not ok $i - fuzz-$t failed (exit $rc); its log:"
			sed 's/^/# /' "$dir/log" | grep -v '^# #[0-9]' | tail -40
		fi
	else
		if [ $rc = 0 ]; then
			echo "$line"
		else
			echo "$line: FAILED (exit $rc), see $dir/log"
			ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* \
			    "$dir"/oom-* 2>/dev/null
		fi
	fi
	[ $rc = 0 ] || failed=1
done
[ $tap = 1 ] || echo "total: ${total}s of fuzzing"
exit $failed
