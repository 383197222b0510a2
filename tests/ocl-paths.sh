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

# The default engine (micdb(1), --engine; levels.h): with a device
# selection that matches nothing, as with a GPU, the native engines below
# 128 (ISA) or 256 (micro levels) cores per host thread where they run
# translated (x86-64: this suite runs where executable memory is
# allowed), 64 or 32 where they interpret, OpenCL from there; a device
# selection that matches nothing fails the OpenCL engine and is ignored
# by the others.  On a CPU device the native engines unless its compute
# units outnumber 32 (ISA) or 16 x the threads (4 or 2 interpreted), and
# then OpenCL above 32 cores a unit of those (tests/test-dbg checks the
# rule at other unit counts).  Small stacks keep 32769 cores cheap.
for level in isa mic pmic; do
	if [ "$(uname -m)" = x86_64 ]; then
		x=256; [ $level = isa ] && x=128
	else
		x=32; [ $level = isa ] && x=64
	fi
	run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run \
	    --level $level --threads 2 --cores $((2 * x)) "$PROGRAMS/hello.jas"
	expect_rc 2 "--level $level: from $x cores a thread and no device, the default is OpenCL"
	expect_err "nosuch-device" "--level $level: the default run names the device it could not find"
	run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run \
	    --level $level --threads 2 --cores $((2 * x - 1)) "$PROGRAMS/hello.jas"
	expect_rc 0 "--level $level: micdb run defaults to the native engine below $x cores a thread"
done
# No OpenCL platform and no device asked for: the native engines run any
# size rather than the default failing; asked for, the device still fails.
mkdir -p "$TMP/no-icd"
run_cmd o e env OCL_ICD_VENDORS="$TMP/no-icd" "$MICDB" run --threads 2 \
    --cores 4096 --stack-words 64 "$PROGRAMS/hello.jas"
expect_rc 0 "no OpenCL platform: the default runs 4096 cores natively"
run_cmd o e env OCL_ICD_VENDORS="$TMP/no-icd" "$MICDB" run --threads 2 \
    --device 0 --cores 4096 --stack-words 64 "$PROGRAMS/hello.jas"
expect_rc 2 "no OpenCL platform, --device 0: the default fails"
expect_err "pocl-opencl-icd" "no OpenCL platform, --device 0: says what to install"
run_cmd o e env MICDB_DEVICE=nosuch-device "$MICDB" run --engine ref \
    "$PROGRAMS/hello.jas"
expect_rc 0 "--engine ref keeps the reference"
# On this CPU device (POCL), by its compute units, on one thread; the
# rule's ratios (levels.h) are those of the translated native engines
# on x86-64 (this suite runs where executable memory is allowed).
units=$("$MICDB" devices 2>/dev/null | sed -n 's/^\*.* CPU *\([0-9]*\) CUs.*/\1/p')
if [ -n "$units" ]; then
	printf 'stepi\ninfo warps\n' >"$TMP/warps.cmd"
	for level in isa mic; do
		if [ "$(uname -m)" = x86_64 ]; then
			r=16; [ $level = isa ] && r=32
		else
			r=2; [ $level = isa ] && r=4
		fi
		if [ "$units" -le $r ]; then
			n=32769 want=native
		else
			n=$((r * 32 + 1)) want=OpenCL
		fi
		run_cmd o e "$MICDB" --batch "$TMP/warps.cmd" --level $level \
		    --threads 1 --cores $n --stack-words 64 "$PROGRAMS/hello.jas"
		expect_rc 0 "--level $level on a CPU device: $n cores open"
		if [ $want = native ]; then
			grep -q "not available for the native engine" o
		else
			! grep -q "not available for the native engine" o
		fi
		ok $? "--level $level on a CPU device of $units units, one thread: $want at $n cores"
		run_cmd o e "$MICDB" --batch "$TMP/warps.cmd" --level $level \
		    --cores 32769 --stack-words 64 "$PROGRAMS/hello.jas"
		grep -q "not available for the native engine" o
		ok $? "--level $level on a CPU device, the default threads: native at 32769 cores"
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
