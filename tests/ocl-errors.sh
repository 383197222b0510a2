#!/bin/sh
# The OpenCL engine's errors: one clear message and exit 2, never a crash:
# a bad device selection, no OpenCL platform, a missing or broken kernel,
# a machine too big for the device, a device list that cannot be
# written.  Drives the engine through tests/ocl-run (a stand-in for
# micdb run --engine opencl).
. "$(dirname "$0")/lib.sh"

RUN=$top_builddir/tests/ocl-run
HELLO=$PROGRAMS/hello.jas
cd "$TMP" || exit 1

run_cmd o e "$RUN" devices
if grep -q "no OpenCL platform" "$err"; then
	echo "1..0 # SKIP no OpenCL platform"
	exit 77
fi
expect_rc 0 "devices lists the devices"
grep -q "^\*" "$out"
ok $? "devices marks the default with *"
"$RUN" devices >/dev/full 2>"$err" </dev/null
rc=$?
expect_rc 2 "devices to a full disk"
expect_err "cannot write the list: No space left on device" \
    "devices to a full disk: the reason is given"

# --- device selection ----------------------------------------------------
run_cmd o e "$RUN" --device nosuch-device "$HELLO"
expect_rc 2 "unknown device name"
expect_err "--device nosuch-device: no device matches" "unknown name is explained"
expect_err "micdb devices" "unknown name says how to list devices"

run_cmd o e "$RUN" --device 99 "$HELLO"
expect_rc 2 "device index out of range"
expect_err "--device 99: there" "index out of range is explained"

run_cmd o e env MICDB_DEVICE=7:3 "$RUN" "$HELLO"
expect_rc 2 "MICDB_DEVICE naming no device"
expect_err "MICDB_DEVICE 7:3: there is no device 3 on platform 7" \
	"MICDB_DEVICE is named in the message"

run_cmd o e "$RUN" --device 0:0 "$HELLO"
expect_rc 0 "--device 0:0 runs"
run_cmd o e "$RUN" --device 0 "$HELLO"
expect_rc 0 "--device 0 runs"

# --- no platform at all ---------------------------------------------------
mkdir -p "$TMP/no-icd"
run_cmd o e env OCL_ICD_VENDORS="$TMP/no-icd" "$RUN" devices
expect_rc 2 "devices without a platform"
expect_err "install pocl-opencl-icd" "no platform says what to install"
run_cmd o e env OCL_ICD_VENDORS="$TMP/no-icd" "$RUN" "$HELLO"
expect_rc 2 "run without a platform"
expect_err "install pocl-opencl-icd" "run without a platform says what to install"

# --- kernel sources --------------------------------------------------------
run_cmd o e env MICDB_KERNEL_DIR=/nonexistent "$RUN" "$HELLO"
expect_rc 2 "missing kernel directory"
expect_err "/nonexistent/isa.cl" "missing kernel names the path tried"
expect_err "MICDB_KERNEL_DIR" "missing kernel says what to set"

mkdir -p "$TMP/kernels"
cp "$top_srcdir/src/core/memmap.h" "$top_srcdir/src/core/context.h" \
	"$top_srcdir/src/core/ijvm-ops.def" "$top_srcdir/src/core/faults.def" \
	"$top_srcdir/src/core/forkjoin.h" "$top_srcdir/src/core/tracebuf.h" \
	"$TMP/kernels/"
printf '__kernel void isa_run(void) { this is not OpenCL C; }\n' \
	>"$TMP/kernels/isa.cl"
run_cmd o e env MICDB_KERNEL_DIR="$TMP/kernels" "$RUN" "$HELLO"
expect_rc 2 "kernel that does not compile"
expect_err "building kernel $TMP/kernels/isa.cl failed" "build failure is explained"
grep -q "error" "$err"
ok $? "build failure shows the build log"

# The installed layout: kernels next to the headers they include.
cp "$top_srcdir/kernels/isa.cl" "$top_srcdir/kernels/launch.h" \
	"$top_srcdir/kernels/launch-trace.h" "$TMP/kernels/"
run_cmd o e env MICDB_KERNEL_DIR="$TMP/kernels" "$RUN" "$HELLO"
expect_rc 0 "kernels and headers in one directory build and run"
grep -q "Hello" "$out"
ok $? "the program's output comes through"

# --- too big for the device ------------------------------------------------
# 2^16 cores x 2048 stack words: 512 MiB of stacks, on a device that
# says it has 256 MiB (device_mib: on POCL the device's memory is the
# host's, and filling it for real only gets this test killed).  Stacks
# in a buffer of their own (zero_copy=0, as on a GPU) are limited by
# the device's largest allocation, which device_mib lowers too.
run_cmd o e env MICDB_OCL_TEST=zero_copy=0,device_mib=256 "$RUN" \
    --cores 65536 --stack-words 2048 "$HELLO"
expect_rc 2 "machine too big for the device"
expect_err "lower --cores or --stack-words" "too big says what to lower"
expect_err "not enough device memory for 65536 cores" \
	"too big names the device memory and the core count"
expect_err "512 MiB of stacks in one buffer, the device allows 256 MiB" \
	"too big says how much it needs and what the device allows"
# Stacks shared with the host are cut into chunks the device can
# allocate, and on a device that shares the host's memory only what the
# host can give limits them (tests/ocl-memlimit.sh).
run_cmd o e env MICDB_OCL_TEST=device_mib=256 "$RUN" --cores 65536 \
    --stack-words 2048 "$HELLO"
expect_rc 0 "shared stacks beyond the device's reported memory"

# --- the test switch -------------------------------------------------------
run_cmd o e env MICDB_OCL_TEST=layout=gpu,nosuch=1 "$RUN" "$HELLO"
expect_rc 2 "MICDB_OCL_TEST with an unknown key"
expect_err 'unknown key "nosuch"' "the unknown key is named"
expect_err "layout, zero_copy, io_cap" "the valid keys are listed"
run_cmd o e env MICDB_OCL_TEST=layout=sideways "$RUN" "$HELLO"
expect_rc 2 "MICDB_OCL_TEST with a bad value"
expect_err "layout takes cpu or gpu" "a bad word names the valid ones"
run_cmd o e env MICDB_OCL_TEST=k=0 "$RUN" "$HELLO"
expect_rc 2 "MICDB_OCL_TEST with a number out of range"
expect_err "k takes a number from 1 to" "a bad number names the range"

done_testing
