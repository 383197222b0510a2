#!/bin/sh
# --threads and set threads (doc/debugger.md section 1): the native
# engines give the same results on any number of host threads.
#   - every sample's output (programs/NAME.expected, as the run tests
#     compare it) from micdb run --engine native at 2, 3 and 16 threads,
#     at every level: windows of many cores run their private runs on
#     the threads;
#   - the debugger's batch transcripts (tests/batch) on the native
#     engines with --threads 2: stepping, breakpoints, watchpoints,
#     reverse execution and level switches as on one thread;
#   - set threads / show threads, and the errors of --threads and set
#     threads (exit 2 or a refused command, one line saying why).
. "$(dirname "$0")/lib.sh"

# samples at every level, many cores where the sample allows
for name in collatz parsum workqueue matmul forksum; do
	sample "$name"
	for level in isa mic pmic; do
		for t in 2 3 16; do
			# shellcheck disable=SC2086
			"$MICDB" run --engine native --level $level --threads $t \
			    $opts "$jas" <"$input" >"$TMP/out" 2>"$TMP/err"
			rc=$?
			[ $rc -eq 0 ] && same_output "$TMP/out" "$PROGRAMS/$name.expected"
			ok $? "$name at the $level level, $t threads: the expected output"
			[ $rc -eq 0 ] || diag "exit $rc" "$(head -c 500 "$TMP/err")"
		done
	done
done

# above 1,024 cores a full run-ahead window is AHEAD_WINDOW_MIN (4,096)
# steps, more than the lone-core slices give (src/host/ahead.h): the
# samples above run 8 to 32 cores.  Here 2,048, against the reference
# (lines sorted: micdb run prints them as engine runs end, whose length
# differs between engines)
for case in "isa collatz" "mic workqueue" "pmic workqueue"; do
	set -- $case
	"$MICDB" run --engine ref --level "$1" --cores 2048 \
	    "$PROGRAMS/$2.jas" </dev/null 2>"$TMP/err" | sort >"$TMP/ref"
	for t in 3 16; do
		"$MICDB" run --engine native --level "$1" --threads $t \
		    --cores 2048 "$PROGRAMS/$2.jas" </dev/null 2>"$TMP/err" |
		    sort >"$TMP/out"
		[ -s "$TMP/ref" ] && cmp -s "$TMP/ref" "$TMP/out"
		ok $? "$2 at the $1 level, 2,048 cores, $t threads: the reference's lines"
	done
done

# the batch transcripts on the native engines, 2 threads
DIR=$top_srcdir/tests/batch
for script in "$DIR"/*.cmd; do
	name=$(basename "$script" .cmd)
	args=$(sed -n 's/^# args: //p' "$script" | head -n 1)
	want=$(sed -n 's/^# exit: //p' "$script" | head -n 1)
	[ -n "$want" ] || want=0
	case "$args" in
	*--engine\ opencl*) continue ;;
	*--engine\ ref*) args=$(echo "$args" | sed 's/--engine ref/--engine native/') ;;
	*) args="--engine native $args" ;;
	esac
	# shellcheck disable=SC2086
	(cd "$DIR" && "$MICDB" --batch "$name.cmd" --threads 2 $args \
	    </dev/null >"$TMP/$name.out" 2>"$TMP/$name.err")
	rc=$?
	# info warps names the engine that has no kernel paths (batch.sh)
	sed 's/for the native engine/for the reference engine/' \
	    "$TMP/$name.out" >"$TMP/$name.sed"
	[ "$rc" -eq "$want" ] && cmp -s "$DIR/$name.expected" "$TMP/$name.sed"
	ok $? "$name: the same transcript on 2 threads"
	[ "$rc" -eq "$want" ] || diag "exit $rc" "$(head -c 500 "$TMP/$name.err")"
	cmp -s "$DIR/$name.expected" "$TMP/$name.sed" ||
		diag "$(diff -u "$DIR/$name.expected" "$TMP/$name.sed" | head -30)"
done

# set threads and show threads
printf 'show threads\nset threads 3\nshow threads\nstepi 50\nset threads 1\ncontinue\n' \
    >"$TMP/set.cmd"
run_cmd "$TMP/set.out" "$TMP/set.err" "$MICDB" --batch "$TMP/set.cmd" \
    --engine native --cores 8 "$PROGRAMS/parsum.jas"
err=$TMP/set.err
expect_rc 0 "set threads in a script"
grep -qE '^threads: [0-9]+ \(default\)$' "$TMP/set.out"
ok $? "show threads names the default count"
grep -qx 'threads: 3' "$TMP/set.out"
ok $? "set threads 3 then show threads says 3"
printf 'set threads 0\n' >"$TMP/bad.cmd"
run_cmd "$TMP/bad.out" "$TMP/bad.err" "$MICDB" --batch "$TMP/bad.cmd" \
    "$PROGRAMS/hello.jas"
err=$TMP/bad.err
expect_rc 1 "set threads 0 is refused"
grep -qF "set threads needs a whole number from 1 to 256, not '0'" \
    "$TMP/bad.out" "$TMP/bad.err"
ok $? "set threads 0 says what to give"

# option errors: exit 2, one line
out=$TMP/o.out
err=$TMP/o.err
run_cmd "$out" "$err" "$MICDB" run --threads 0 "$PROGRAMS/hello.jas"
expect_rc 2 "micdb run --threads 0"
expect_err "--threads needs a whole number from 1 to 256, not '0'" \
    "--threads 0 says what to give"
run_cmd "$out" "$err" "$MICDB" run --threads many "$PROGRAMS/hello.jas"
expect_rc 2 "micdb run --threads many"
run_cmd "$out" "$err" "$MICDB" --batch "$TMP/set.cmd" --threads 257 \
    "$PROGRAMS/hello.jas"
expect_rc 2 "micdb --threads 257"
run_cmd "$out" "$err" "$MICDB" bench --threads 0
expect_rc 2 "micdb bench --threads 0"
expect_err "--threads needs a whole number" "bench --threads 0 says why"
done_testing
