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
# tests/fuzz/run.sh --fork N [SECONDS] [TARGET...]: every target at once,
# each with N worker processes (libFuzzer -fork=N) for SECONDS, going on
# past crashes, leaks, timeouts and running out of memory (each is kept
# as an artifact); then a table of executions, coverage, corpus size and
# findings per target.  For a machine with many cores: targets x N
# workers should be about its core count (12 targets x 5 on 64 cores).
#
# tests/fuzz/run.sh --pack DIR: a copy of the targets that runs on
# another Linux x86-64 machine without the source tree or a build: DIR
# gets the binaries, the dictionaries, every target's seed corpus (the
# generated part included), the few project files the targets read, and
# this script, which then runs there as DIR/run.sh [--fork N] SECONDS,
# and the shared libraries the binaries use beyond the C library (libc,
# libm, the loader): libstdc++, libgcc_s, json-c, in DIR/lib.  The other
# machine needs glibc 2.34 or later (tests/fuzz/README.md).
#
# tests/fuzz/run.sh --tap SECONDS: the same as a TAP test (make check's
# smoke, tests/fuzz/smoke.sh): first every seed once, then SECONDS of
# fuzzing, one check per target.
#
# Environment: top_srcdir, top_builddir (default: this script's tree);
# FUZZ_WORK, where the corpora, logs and crashes go (tests/fuzz/work).
set -u

here=$(cd "$(dirname "$0")" && pwd)
all="ijvm jas conf mal mic1 sym pm pmic dbg expr batch dap"
if [ -f "$here/PACKED" ]; then
	# a pack (--pack): everything is here
	top_srcdir=$here top_builddir=$here
	fuzzdir=$here/bin
	MICDB_MICROCODE_DIR=$here/microcode
	LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export MICDB_MICROCODE_DIR LD_LIBRARY_PATH
	packed=1
else
	: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
	: "${top_builddir:=$top_srcdir}"
	fuzzdir=$top_builddir/tests/fuzz
	packed=0
fi
export top_srcdir top_builddir
work=${FUZZ_WORK:-$here/work}
[ $packed = 1 ] || work=${FUZZ_WORK:-$fuzzdir/work}
mode=serial
fork=1
case ${1:-} in
--tap) mode=tap; shift ;;
--fork) mode=fork; fork=${2:?--fork needs a number of workers}; shift 2 ;;
--pack) mode=pack; pack=${2:?--pack needs a directory}; shift 2 ;;
esac
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-$all}

if [ $mode = tap ] && [ ! -x "$fuzzdir/fuzz-ijvm" ]; then
	echo "1..0 # SKIP no libFuzzer targets (configure found no clang that builds -fsanitize=fuzzer)"
	exit 77
fi

# seed TARGET DIR: the generated part of TARGET's corpus, into DIR.
seed() {
	s=$top_srcdir
	b=$top_builddir
	[ $packed = 1 ] || case $1 in
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
	# a pack's seeds/ holds the generated part too
	if [ $packed = 1 ] && [ -d "$here/seeds/$1" ]; then
		cp "$here/seeds/$1"/* "$2"/
	elif [ $packed = 0 ] && [ -d "$s/tests/fuzz/seeds/$1" ]; then
		cp "$s/tests/fuzz/seeds/$1"/* "$2"/
	fi
	return 0
}

dictdir=$top_srcdir/tests/fuzz/dict
[ $packed = 1 ] && dictdir=$here/dict

if [ $mode = pack ]; then
	mkdir -p "$pack/bin" "$pack/dict" "$pack/programs" "$pack/tests/dap" \
	    "$pack/microcode" "$pack/lib" || exit 1
	for t in $targets; do
		cp "$fuzzdir/fuzz-$t" "$pack/bin/" || exit 1
		cp "$dictdir/$t.dict" "$pack/dict/"
		rm -rf "$pack/seeds/$t"
		mkdir -p "$pack/seeds/$t"
		seed "$t" "$pack/seeds/$t"
	done
	# what the targets read: fuzz-batch's program, fuzz-dap's, the
	# default microprograms of fuzz-dbg's micro levels
	cp "$top_srcdir/programs/collatz.jas" "$pack/programs/"
	cp "$top_srcdir/tests/dap/sum.jas" "$pack/tests/dap/"
	cp "$top_srcdir/microcode/mic1.mal" "$top_srcdir/microcode/pmic.pm" \
	    "$pack/microcode/"
	# every shared library but the C library's own
	for t in $targets; do
		ldd "$fuzzdir/fuzz-$t"
	done | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
	    grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
	    while read -r lib; do
		cp -L "$lib" "$pack/lib/"
	done
	cp "$here/run.sh" "$pack/run.sh"
	date >"$pack/PACKED"
	echo "packed $(echo $targets | wc -w) targets into $pack: run $pack/run.sh --fork N SECONDS there"
	exit 0
fi

# figures LOG: "EXECS COV FT CORPUS" from a libFuzzer log ('?' if none)
figures() {
	e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1" | tail -1)
	last=$(grep -E '^#[0-9]+' "$1" | tail -1)
	[ -n "$e" ] || e=$(printf '%s\n' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
	c=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	f=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	k=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	echo "${e:-?} ${c:-?} ${f:-?} ${k:-?}"
}

# findings DIR: the artifacts libFuzzer kept in DIR
findings() {
	ls "$1"/crash-* "$1"/leak-* "$1"/timeout-* "$1"/oom-* 2>/dev/null |
	    wc -l
}

n=0
for t in $targets; do
	n=$((n + 1))
done
[ $mode = tap ] && echo "1..$n"
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
	set -- -dict="$dictdir/$t.dict" -artifact_prefix="$dir/" -timeout=20 \
	    -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1
	if [ $mode = fork ]; then
		# all at once; the table comes when they are done
		(cd "$dir" && nice "$bin" "$@" -fork="$fork" \
		    -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		    -max_total_time="$secs" corpus seeds >log 2>&1
		echo $? >"$dir/rc") &
		continue
	fi
	start=$(date +%s)
	rc=0
	if [ $mode = tap ]; then
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
	set -- $(figures "$dir/log")
	line="fuzz-$t: $1 execs in ${took}s, cov: $2 ft: $3"
	if [ $mode = tap ]; then
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
if [ $mode = fork ]; then
	wait
	printf '%-12s %12s %7s %8s %7s %8s  %s\n' target execs cov ft corpus \
	    findings status
	for t in $targets; do
		dir=$work/$t
		set -- $(figures "$dir/log")
		nf=$(findings "$dir")
		st=ok
		[ "$nf" -gt 0 ] && { st="see $dir"; failed=1; }
		[ "$(cat "$dir/rc" 2>/dev/null)" = 0 ] ||
		    { st="exit $(cat "$dir/rc" 2>/dev/null), see $dir/log"
		    failed=1; }
		printf '%-12s %12s %7s %8s %7s %8s  %s\n' "fuzz-$t" "$1" "$2" \
		    "$3" "$4" "$nf" "$st"
	done
	echo "$secs s of fuzzing, $fork workers per target"
elif [ $mode = serial ]; then
	echo "total: ${total}s of fuzzing"
fi
exit $failed
