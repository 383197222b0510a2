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

# The default engine (micdb(1), --engine): native up to 512 cores at
# every level, whatever the device; above, OpenCL unless the device is a
# CPU, where native goes on at every count on two host threads or more
# and up to 32768 cores on one.  A device selection that
# matches nothing fails the OpenCL engine and is ignored by the others,
# and is no CPU.  Small stacks keep 32768 cores cheap.
for level in isa mic pmic; do
	run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run \
	    --level $level --cores 513 "$PROGRAMS/hello.jas"
	expect_rc 2 "--level $level: above 512 cores and no CPU device, the default is OpenCL"
	expect_err "nosuch-device" "--level $level: the default run names the device it could not find"
	run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run \
	    --level $level --cores 512 "$PROGRAMS/hello.jas"
	expect_rc 0 "--level $level: micdb run defaults to the native engine up to 512 cores"
done
run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run --engine ref \
    "$PROGRAMS/hello.jas"
expect_rc 0 "--engine ref keeps the reference"
# On this CPU device (POCL): on one host thread native up to 32768
# cores, OpenCL above; on two or more native at every count.
if "$MICDB" devices 2>/dev/null | grep -q "CPU"; then
	printf 'stepi\ninfo warps\n' >"$TMP/warps.cmd"
	for level in isa mic; do
		run_cmd o e "$MICDB" --batch "$TMP/warps.cmd" --level $level \
		    --threads 1 --cores 32768 --stack-words 64 "$PROGRAMS/hello.jas"
		grep -q "not available for the native engine" o
		ok $? "--level $level on a CPU device: native at 32768 cores"
		run_cmd o e "$MICDB" --batch "$TMP/warps.cmd" --level $level \
		    --threads 1 --cores 32769 --stack-words 64 "$PROGRAMS/hello.jas"
		expect_rc 0 "--level $level on a CPU device: 32769 cores open"
		! grep -q "not available for the native engine" o
		ok $? "--level $level on a CPU device, one thread: OpenCL above 32768 cores"
		run_cmd o e "$MICDB" --batch "$TMP/warps.cmd" --level $level \
		    --threads 2 --cores 32769 --stack-words 64 "$PROGRAMS/hello.jas"
		grep -q "not available for the native engine" o
		ok $? "--level $level on a CPU device, two threads: native above 32768 cores"
	done
fi

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
