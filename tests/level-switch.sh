#!/bin/sh
# Switching levels changes nothing (doc/mic1.md section 5): every sample
# program that has an .expected output runs under micdb --batch once
# without switching and three times with set level switches at several
# points (from the ISA level, from --level mic and from --level pmic,
# with stepi and step between switches, some of them inside an
# instruction); the final state (info
# cores, info globals) must be the unswitched one and the cores' output
# must be the program's .expected.  The output comes back interleaved
# with the transcript: the transcript's own lines are dropped and, for a
# one-core machine (raw output), the line breaks too, since the
# transcript breaks a partial output line before each command.
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 1
# The micro level's default engine is the OpenCL kernel where the build
# has it; without a device, the C simulator.
engine=
"$MICDB" devices >/dev/null 2>&1 || engine="--engine ref"
plain=$TMP/plain.cmd
printf 'continue\ninfo cores\ninfo globals\n' >"$plain"
from_isa=$TMP/isa.cmd
printf '%s\n' 'set level mic' 'stepi 37' 'set level isa' 'step 11' \
    'set level mic' 'step 5' 'stepi 3' 'set level isa' 'set level mic' \
    'stepi 250' 'set level isa' 'continue' 'info cores' 'info globals' \
    >"$from_isa"
from_mic=$TMP/mic.cmd
printf '%s\n' 'stepi 101' 'set level isa' 'step 7' 'set level mic' \
    'stepi 13' 'set level isa' 'stepi 2' 'set level mic' 'step 3' \
    'stepi 1' 'continue' 'set level isa' 'info cores' 'info globals' \
    >"$from_mic"

from_pmic=$TMP/pmic.cmd
printf '%s\n' 'stepi 61' 'set level mic' 'stepi 17' 'set level isa' \
    'step 5' 'set level pmic' 'step 3' 'stepi 2' 'set level mic' \
    'stepi 9' 'set level pmic' 'continue' 'set level isa' 'info cores' \
    'info globals' >"$from_pmic"

# final STATE-FILE OUTPUT-FILE < transcript: split a transcript
final() {
	awk -v st="$1" -v out="$2" '
	    /^\(micdb\) info cores$/ { tail = 1 }
	    tail { print > st; next }
	    /^\(micdb\) / || /^level: / || /^core [0-9]+ / ||
	    /^  (in|next instruction) / || /^all cores / ||
	    /^\[switching focus/ || /^already at/ || /^note: / ||
	    /\.cmd:[0-9]+: / { next }
	    { print > out }'
	[ -f "$2" ] || : >"$2"
}

for prog in programs/*.jas; do
	name=$(basename "$prog" .jas)
	[ -f "programs/$name.expected" ] || continue
	opts=$(cat "programs/$name.opts" 2>/dev/null)
	input=
	[ -f "programs/$name.input" ] && input="--input programs/$name.input"
	# shellcheck disable=SC2086
	"$MICDB" --batch "$plain" $engine $opts $input "$prog" </dev/null \
	    | final "$TMP/$name.state0" "$TMP/$name.out0"
	for level in isa mic pmic; do
		script=$TMP/$level.cmd
		# shellcheck disable=SC2086
		"$MICDB" --batch "$script" --level $level $engine $opts $input \
		    "$prog" </dev/null 2>"$TMP/$name.err" |
		    final "$TMP/$name.state" "$TMP/$name.out"
		cmp -s "$TMP/$name.state0" "$TMP/$name.state"
		ok $? "$name: switched from --level $level, the final state is the unswitched one"
		cmp -s "$TMP/$name.state0" "$TMP/$name.state" ||
			diag "$(diff "$TMP/$name.state0" "$TMP/$name.state" | head -20)"
		if grep -q '^\[core ' "$TMP/$name.out"; then
			sort "$TMP/$name.out" >"$TMP/$name.got"
			sort "programs/$name.expected" >"$TMP/$name.want"
		else
			tr -d '\n' <"$TMP/$name.out" >"$TMP/$name.got"
			tr -d '\n' <"programs/$name.expected" >"$TMP/$name.want"
		fi
		cmp -s "$TMP/$name.want" "$TMP/$name.got"
		ok $? "$name: switched from --level $level, the output is $name.expected"
		cmp -s "$TMP/$name.want" "$TMP/$name.got" ||
			diag "$(diff "$TMP/$name.want" "$TMP/$name.got" | head -20)"
		[ ! -s "$TMP/$name.err" ]
		ok $? "$name: switched from --level $level, nothing on standard error"
	done
done
done_testing
