#!/bin/sh
# micdb run uses the OpenCL engine for large machines unless --engine
# says otherwise, and
# the engine's read-back paths agree with the reference: zero-copy
# (mapped) and copied contexts, one step per launch (every launch has
# news; with and without a CPU device's mirror) and adaptive launches
# (most are quiet: only the header is read back until run() ends), tiny
# I/O areas (launches cut by I/O).
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
run_cmd o e "$MICDB" devices
if grep -q "no OpenCL platform" "$err"; then
	echo "1..0 # SKIP no OpenCL platform"
	exit 77
fi

# Above 32768 cores the default engine at the ISA level is OpenCL: a
# device selection that matches nothing fails the default run and is
# ignored by the reference; up to 32768 the default is the native engine,
# which needs no device (micdb(1), --engine).  Small stacks keep 32768
# cores cheap.
run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run --cores 32769 \
    --stack-words 64 "$PROGRAMS/hello.jas"
expect_rc 2 "micdb run defaults to the OpenCL engine above 32768 cores"
expect_err "nosuch-device" "the default run names the device it could not find"
run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run --cores 32768 \
    --stack-words 64 "$PROGRAMS/hello.jas"
expect_rc 0 "micdb run defaults to the native engine up to 32768 cores"
run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run --engine ref \
    "$PROGRAMS/hello.jas"
expect_rc 0 "--engine ref keeps the reference"

for prog in collatz parsum echo reverse workqueue; do
	opts=
	[ -f "$PROGRAMS/$prog.opts" ] && opts=$(cat "$PROGRAMS/$prog.opts")
	input=/dev/null
	[ -f "$PROGRAMS/$prog.input" ] && input=$PROGRAMS/$prog.input
	# shellcheck disable=SC2086
	"$MICDB" run --engine ref $opts "$PROGRAMS/$prog.jas" <"$input" \
	    >"$TMP/$prog.ref" 2>&1
	want=$?
	for v in zero_copy=1 zero_copy=0 k=1 k=1,mirror=0 \
	    zero_copy=0,io_cap=8 zero_copy=1,io_cap=8,layout=gpu; do
		# shellcheck disable=SC2086
		MICDB_OCL_TEST=$v "$MICDB" run $opts "$PROGRAMS/$prog.jas" <"$input" \
		    >"$TMP/$prog.ocl" 2>&1
		rc=$?
		[ "$rc" -eq "$want" ] && cmp -s "$TMP/$prog.ref" "$TMP/$prog.ocl"
		ok $? "$prog, MICDB_OCL_TEST=$v: same output and exit status as the reference"
		[ "$rc" -eq "$want" ] || diag "exit status $rc, want $want"
		cmp -s "$TMP/$prog.ref" "$TMP/$prog.ocl" ||
		    diag "$(diff "$TMP/$prog.ref" "$TMP/$prog.ocl" | head -20)"
	done
done
done_testing
