#!/bin/sh
# Memory judged where it lives (doc/manycore.md, "Where memory is
# judged"): on a zero-copy device (POCL) the engine's buffers are host
# pages and only what the host can give limits them, however little
# global memory the device reports; on a device with memory of its own
# (zero_copy=0 stands for one) its global memory does.  Every refusal
# names the limit, its size and what to lower.
#
# MICDB_OCL_TEST fakes the figures (device_mib: a device that reports
# less; host_mib: a host that gives less), so that nothing here depends on
# this machine's memory: the machine's own need comes from micdb's
# refusal, and whether the host can hold it from the probe
# (tests/test-hostmem probe).
. "$(dirname "$0")/lib.sh"

if ! "$MICDB" devices >/dev/null 2>&1; then
	echo "1..0 # SKIP no OpenCL device"
	exit 0
fi

HELLO=$PROGRAMS/hello.jas
cd "$TMP" || exit 1
ARGS="--engine opencl --cores 65536 --stack-words 512"

# --- a host that cannot hold it: the host's limit is named ---------------
run_cmd o e env MICDB_OCL_TEST=host_mib=1 "$MICDB" run $ARGS "$HELLO"
expect_rc 2 "shared device, host of 1 MiB: refused"
expect_err "not enough memory for 65536 cores: " \
	"host refusal: names the core count, not the device"
expect_err "the host can give 1 MiB (MICDB_OCL_TEST host_mib)" \
	"host refusal: names the host's limit and its size"
expect_err ": lower --cores, --stack-words or --heap-words" \
	"host refusal: says what to lower"
# the machine's need, as the engine counts it
need=$(sed -n 's/.*: \([0-9]*\) MiB needed,.*/\1/p' "$err")
[ -n "$need" ] && [ "$need" -gt 1 ]
ok $? "host refusal: says how much is needed ($need MiB)"
need=${need:-0}

# --- a device that says it is small but shares the host: it opens ---------
host=$("$top_builddir/tests/test-hostmem" probe)
host_mib=$(( ${host%% *} / 1048576 ))
diag "the machine needs $need MiB; the host can give $host_mib MiB (${host#* })"
if [ "$host_mib" -ge $((need * 2)) ]; then
	run_cmd o e env MICDB_OCL_TEST=device_mib=$((need / 2)) \
	    "$MICDB" run $ARGS "$HELLO"
	expect_rc 0 "shared device reporting $((need / 2)) MiB: opens what the host holds"
	[ "$(grep -c '^\[core [0-9]*\] Hello, world!$' "$out")" -eq 65536 ]
	ok $? "shared device reporting $((need / 2)) MiB: every core ran"
else
	for i in 1 2; do
		ok 0 "# SKIP the host gives $host_mib MiB, under twice $need MiB"
	done
fi

# --- a device with memory of its own: its global memory is named ----------
# each buffer under the device's largest allocation (device_mib lowers
# it too), the whole not: the total is what refuses
run_cmd o e env MICDB_OCL_TEST=zero_copy=0,device_mib=$((need - 1)) \
    "$MICDB" run $ARGS "$HELLO"
expect_rc 2 "device of $((need - 1)) MiB: refused"
expect_err "not enough device memory for 65536 cores: $need MiB needed, the device's global memory is $((need - 1)) MiB: lower --cores, --stack-words or --heap-words" \
	"device refusal: names the device's global memory, its size and what to lower"
# and the host's figure does not count there
run_cmd o e env MICDB_OCL_TEST=zero_copy=0,host_mib=1 \
    "$MICDB" run $ARGS "$HELLO"
expect_rc 0 "device with memory of its own, host of 1 MiB: the host does not limit its buffers"

# --- the debugger opens by the same rule ---------------------------------
printf 'stepi\nprint $step\n' >"$TMP/s.cmd"
run_cmd o e env MICDB_OCL_TEST=host_mib=1 "$MICDB" --batch "$TMP/s.cmd" \
    $ARGS "$HELLO"
expect_rc 2 "debugger, host of 1 MiB: refused"
expect_err "the host can give 1 MiB (MICDB_OCL_TEST host_mib)" \
	"debugger refusal: names the host's limit"

# --- bench skips by the same rule -----------------------------------------
run_cmd o e env MICDB_OCL_TEST=host_mib=1 "$MICDB" bench debugger \
    --cores 32 --reps 5 --csv "$TMP/b.csv"
expect_rc 0 "bench debugger, host of 1 MiB: runs"
grep -q "skipped: not enough memory for 32 cores: .* the host can give 1 MiB (MICDB_OCL_TEST host_mib)" "$out"
ok $? "bench debugger, host of 1 MiB: skips the count, naming the host's limit"
grep -q "skipped" "$out" || diag "$(head -c 2000 "$out")"

done_testing
