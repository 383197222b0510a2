#!/bin/sh
# The debugger's batch transcripts.  tests/batch/NAME.cmd is run from
# tests/batch as
#     micdb --batch NAME.cmd ARGS
# where ARGS is the script's "# args:" line; the transcript on stdout must
# equal NAME.expected (the diff is shown otherwise), standard error must
# be empty, and the exit status must be the "# exit:" line (default 0).
# Each script runs again under the ASan/UBSan build of micdb, which must
# write the same transcript and report nothing.  Then the usage errors of
# micdb --batch (exit 2), and a transcript that cannot be written (exit 2).
#
# MICDB_BATCH / MICDB_BATCH_ASAN name other binaries to test (a
# developer's build of batch_main).
. "$(dirname "$0")/lib.sh"

DIR=$top_srcdir/tests/batch
BIN=${MICDB_BATCH:-$MICDB}
SAN=${MICDB_BATCH_ASAN:-$MICDB_ASAN}

printf 'quit\n' >"$TMP/probe.cmd"
if ! "$BIN" --batch "$TMP/probe.cmd" "$PROGRAMS/hello.jas" \
    >"$TMP/probe.out" 2>&1 </dev/null &&
    grep -q "not part of this build" "$TMP/probe.out"; then
	echo "1..0 # SKIP micdb --batch does not reach batch_main yet"
	exit 0
fi

for script in "$DIR"/*.cmd; do
	name=$(basename "$script" .cmd)
	args=$(sed -n 's/^# args: //p' "$script" | head -n 1)
	want=$(sed -n 's/^# exit: //p' "$script" | head -n 1)
	[ -n "$want" ] || want=0
	# shellcheck disable=SC2086
	(cd "$DIR" && "$BIN" --batch "$name.cmd" $args </dev/null \
	    >"$TMP/$name.out" 2>"$TMP/$name.err")
	rc=$?
	[ "$rc" -eq "$want" ]
	ok $? "$name: exit status $want"
	[ "$rc" -eq "$want" ] || diag "exit status $rc" "$(head -c 2000 "$TMP/$name.err")"
	cmp -s "$DIR/$name.expected" "$TMP/$name.out"
	ok $? "$name: transcript matches $name.expected"
	cmp -s "$DIR/$name.expected" "$TMP/$name.out" ||
		diag "$(diff -u "$DIR/$name.expected" "$TMP/$name.out" | head -60)"
	[ ! -s "$TMP/$name.err" ]
	ok $? "$name: nothing on standard error"
	if [ -x "$SAN" ]; then
		# shellcheck disable=SC2086
		(cd "$DIR" && "$SAN" --batch "$name.cmd" $args </dev/null \
		    >"$TMP/$name.san" 2>"$TMP/$name.sanerr")
		cmp -s "$TMP/$name.out" "$TMP/$name.san"
		ok $? "$name: the sanitizer build writes the same transcript"
		err=$TMP/$name.sanerr
		no_sanitizer_report "$name"
	fi
done

# The transcripts of the levels do not depend on the engine: the ones
# written with --engine ref again on the OpenCL engines (ISA and Mic-1
# kernels, POCL on the CPU), where there is a device.
if "$BIN" devices >/dev/null 2>&1; then
	for name in level mpc reverse forkjoin; do
		args=$(sed -n 's/^# args: //p' "$DIR/$name.cmd" | head -n 1 |
		    sed 's/--engine ref/--engine opencl/')
		# shellcheck disable=SC2086
		(cd "$DIR" && "$BIN" --batch "$name.cmd" $args </dev/null \
		    >"$TMP/$name.ocl" 2>"$TMP/$name.oclerr")
		cmp -s "$DIR/$name.expected" "$TMP/$name.ocl"
		ok $? "$name: the OpenCL engines write the same transcript"
		cmp -s "$DIR/$name.expected" "$TMP/$name.ocl" ||
			diag "$(diff -u "$DIR/$name.expected" "$TMP/$name.ocl" |
			    head -30)" "$(head -c 1000 "$TMP/$name.oclerr")"
	done
else
	echo "# no OpenCL device: the engine comparison is skipped"
fi

# Every level's default engine for these core counts is the native one
# (levels.c): every script writes the same transcript on the other host
# engine, watchpoints included (the native ISA engine stops at a change
# itself, the reference one step at a time), micro levels and level
# switches included (the native micro engines keep the golden model's
# state).
for script in "$DIR"/*.cmd; do
	name=$(basename "$script" .cmd)
	args=$(sed -n 's/^# args: //p' "$script" | head -n 1)
	case "$args" in
	*--engine\ opencl*) continue ;;
	*--engine\ ref*) other=native
		args=$(echo "$args" | sed 's/--engine ref/--engine native/') ;;
	*) other=ref; args="--engine ref $args" ;;
	esac
	# shellcheck disable=SC2086
	(cd "$DIR" && "$BIN" --batch "$name.cmd" $args </dev/null \
	    >"$TMP/$name.other" 2>"$TMP/$name.othererr")
	# info warps names the engine that has no kernel paths
	sed 's/for the native engine/for the reference engine/' \
	    "$TMP/$name.other" >"$TMP/$name.othersed"
	cmp -s "$DIR/$name.expected" "$TMP/$name.othersed"
	ok $? "$name: the $other engine writes the same transcript"
	cmp -s "$DIR/$name.expected" "$TMP/$name.othersed" ||
		diag "$(diff -u "$DIR/$name.expected" "$TMP/$name.othersed" |
		    head -30)" "$(head -c 1000 "$TMP/$name.othererr")"
done

# Usage and input errors: exit 2, one line on standard error.
out=$TMP/usage.out
err=$TMP/usage.err
run_cmd "$out" "$err" "$BIN" --batch "$TMP/missing.cmd" "$PROGRAMS/hello.jas"
expect_rc 2 "a missing script"
expect_err "missing.cmd" "the missing script is named"
run_cmd "$out" "$err" "$BIN" --batch "$TMP/probe.cmd" "$TMP/missing.jas"
expect_rc 2 "a missing program"
run_cmd "$out" "$err" "$BIN" --batch "$TMP/probe.cmd" --level mic \
    --engine ref "$PROGRAMS/hello.jas"
expect_rc 0 "--level mic is accepted"
run_cmd "$out" "$err" "$BIN" --batch "$TMP/probe.cmd" --level vax \
    "$PROGRAMS/hello.jas"
expect_rc 2 "--level vax"
expect_err "unknown level 'vax'" "--level vax says why"
# PMIC is another engineer's level: refused with a reason until the
# factory has it, accepted after.
run_cmd "$out" "$err" "$BIN" --batch "$TMP/probe.cmd" --level pmic \
    "$PROGRAMS/hello.jas"
if [ "$rc" -eq 2 ] && grep -q pmic "$err"; then
	ok 0 "--level pmic is refused with a reason naming pmic"
else
	expect_rc 0 "--level pmic runs"
fi
run_cmd "$out" "$err" "$BIN" --batch "$TMP/probe.cmd" --level mic \
    --microcode "$TMP/missing.mal" "$PROGRAMS/hello.jas"
expect_rc 2 "--microcode of a missing file"
expect_err "missing.mal" "the missing microprogram is named"
printf 'Main1 PC = PC + 1; fetch; goto (MBR)\nbad1 FOO = H; goto Main1\n' \
    >"$TMP/bad.mal"
run_cmd "$out" "$err" "$BIN" --batch "$TMP/probe.cmd" --microcode \
    "$TMP/bad.mal" "$PROGRAMS/hello.jas"
expect_rc 2 "--microcode with assembler errors (even at --level isa)"
expect_err "bad.mal:2:" "assembler errors as file:line:column"
# A .mic1 control store: without symbols, MPC breakpoints take
# addresses only; with the FILE.sym that mic1-as -s writes, labels too.
MIC1_AS=$top_builddir/src/mic1-as
"$MIC1_AS" -o "$TMP/m.mic1" "$top_srcdir/microcode/mic1.mal"
printf 'break mpc Main1\nbreak mpc 2\nstepi 4\ninfo level\nset level isa\n' \
    >"$TMP/mic1.cmd"
run_cmd "$out" "$err" "$BIN" --batch "$TMP/mic1.cmd" --level mic \
    --engine ref --microcode "$TMP/m.mic1" "$PROGRAMS/hello.jas"
expect_rc 1 "a .mic1 without symbols: break mpc LABEL fails"
grep -q "m.mic1 has no symbols: give an address" "$out"
ok $? "a .mic1 without symbols: break mpc says to give an address"
grep -q "breakpoint 1 hit by core 0 \[1 of 1\] at MPC 0x002" "$out"
ok $? "a .mic1 without symbols: break mpc ADDR stops"
grep -q "level: mic (microprogram m.mic1)" "$out"
ok $? "a .mic1 without symbols: info level names it"
"$MIC1_AS" -o "$TMP/s.mic1" -s "$TMP/s.sym" "$top_srcdir/microcode/mic1.mal"
run_cmd "$out" "$err" "$BIN" --batch "$TMP/mic1.cmd" --level mic \
    --engine ref --microcode "$TMP/s.mic1" "$PROGRAMS/hello.jas"
expect_rc 0 "a .mic1 with its .sym: every command works"
grep -q "breakpoint 1 at MPC 0x002 (Main1, mic1.mal:" "$out"
ok $? "a .mic1 with its .sym: break mpc LABEL"
run_cmd "$out" "$err" "$BIN" --batch "$TMP/probe.cmd" --cores 0 \
    "$PROGRAMS/hello.jas"
expect_rc 2 "--cores 0"
run_cmd "$out" "$err" "$BIN" -x "$TMP/probe.cmd"
expect_rc 2 "no program"

# A transcript that cannot be written is an error, not a silently
# truncated file: a full disk gives exit 2 and the reason.
printf 'info cores\ncontinue\n' >"$TMP/full.cmd"
"$BIN" --batch "$TMP/full.cmd" "$PROGRAMS/hello.jas" >/dev/full \
    2>"$err" </dev/null
rc=$?
expect_rc 2 "a transcript to a full disk"
expect_err "cannot write the transcript: No space left on device" \
    "a transcript to a full disk: the reason is given"
done_testing
