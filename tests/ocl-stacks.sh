#!/bin/sh
# The OpenCL engine's stacks where the user looks (doc/performance.md,
# "Stacks shared with the host"): on a zero-copy device the stack
# buffers are the machine's own pages, read where a command looks at
# them; elsewhere (MICDB_OCL_TEST zero_copy=0, as on a GPU) they are a
# device buffer read back whole.  Random debugger sessions (stops at
# random steps and breakpoints, cores focused at random, many of them
# never looked at before, x of their frames, backtraces, frames,
# watchpoints on locals and globals, reverse steps and reverse-continue)
# must write the transcript of --engine ref on every stack path: shared
# (one buffer, and chunks of a small allocation limit, as a device that
# limits one allocation cuts them), read back whole (blocked and the GPU's
# interleaved layout).  Then a machine of 262,144 cores with default
# settings, more stack than POCL allows in one buffer and more than the
# device reports in all, opens and steps.
. "$(dirname "$0")/lib.sh"

if ! "$MICDB" devices >/dev/null 2>&1; then
	echo "1..0 # SKIP no OpenCL device"
	exit 0
fi

CORES=200
# One session per seed: awk's generator, seeded, is deterministic.
session() {
	awk -v seed="$1" -v n="$CORES" 'BEGIN {
		srand(seed)
		for (i = 0; i < 14; i++) {
			r = int(rand() * 9)
			c = int(rand() * n)
			if (r == 0)
				print "stepi " 1 + int(rand() * 60)
			else if (r == 1)
				print "break even core " c
			else if (r == 2) {
				print "break loop core " c
				print "continue"
				print "delete"
			} else if (r == 3)
				print "reverse-stepi " 1 + int(rand() * 8)
			else if (r == 4) {
				print "core " c
				print "watch n"
				print "continue"
				print "continue"
				print "reverse-continue"
				print "delete"
			} else if (r == 5)
				print "reverse-continue"
			else if (r == 6) {
				print "core " c
				print "backtrace"
				print "info frame"
			} else
				print "stepi " 1 + int(rand() * 5)
			print "core " int(rand() * n)
			print "x/6 $lv"
			print "x/3 $sp - 2"
			print "backtrace"
			print "print $step"
		}
	}'
}

PROG=$PROGRAMS/collatz.jas
for seed in 1 2 3 4 5; do
	session "$seed" >"$TMP/s$seed.cmd"
	"$MICDB" --batch "$TMP/s$seed.cmd" --engine ref --cores $CORES \
	    "$PROG" >"$TMP/s$seed.ref" 2>&1
	for cfg in "" alloc_kib=1024 \
	    layout=gpu,zero_copy=0 layout=cpu,zero_copy=0; do
		MICDB_OCL_TEST=$cfg "$MICDB" --batch "$TMP/s$seed.cmd" \
		    --engine opencl --cores $CORES "$PROG" \
		    >"$TMP/s$seed.ocl" 2>&1
		cmp -s "$TMP/s$seed.ref" "$TMP/s$seed.ocl"
		ok $? "session $seed, stacks ${cfg:-shared}: as the reference"
		cmp -s "$TMP/s$seed.ref" "$TMP/s$seed.ocl" || diag "$(diff -u \
		    "$TMP/s$seed.ref" "$TMP/s$seed.ocl" | head -40)"
	done
done

# Default settings (4,096 stack words): 4 GiB of stacks, more than POCL
# allocates at once, and more than the whole device it reports, which
# device_mib lowers further: on a zero-copy device only what the host can
# give limits them (ocl_mem_limit).  The need comes from the refusal of a
# host said to give 1 MiB; a host that cannot give twice that skips.
# Few commands: the machine is shared.
printf 'stepi 3\ncore 262143\nx/1 $sp\nreverse-stepi\nprint $step\n' \
    >"$TMP/big.cmd"
MICDB_OCL_TEST=host_mib=1 "$MICDB" --batch "$TMP/big.cmd" --engine opencl \
    --cores 262144 "$PROG" >"$TMP/big.out" 2>&1
need=$(sed -n 's/.*262144 cores: \([0-9.]*\) GiB needed,.*/\1/p' \
    "$TMP/big.out" | awk '{ printf "%d", $1 * 1024 + 0.5 }')
host=$("$top_builddir/tests/test-hostmem" probe)
host_mib=$(( ${host%% *} / 1048576 ))
diag "262,144 cores need ${need:-?} MiB; the host can give $host_mib MiB (${host#* })"
if [ -z "$need" ]; then
	ok 1 "262,144 cores: the refusal says what they need"
	diag "$(head -c 2000 "$TMP/big.out")"
elif [ "$host_mib" -lt $((need * 2)) ]; then
	for i in 1 2 3; do
		ok 0 "# SKIP the host gives $host_mib MiB, under twice $need MiB"
	done
else
	MICDB_OCL_TEST=device_mib=$((need / 2)) "$MICDB" --batch \
	    "$TMP/big.cmd" --engine opencl --cores 262144 "$PROG" \
	    >"$TMP/big.out" 2>&1
	ok $? "262,144 cores with default settings open and step"
	grep -q '^0x[0-9a-f]* <stack+[0-9]*, core 262143>:  262144$' \
	    "$TMP/big.out"
	ok $? "262,144 cores: the last core's top of stack, its id + 1"
	grep -q '^\$[0-9]* = 2$' "$TMP/big.out"
	ok $? "262,144 cores: reverse-stepi goes back"
	grep -q 'not enough' "$TMP/big.out" &&
	    diag "$(head -c 2000 "$TMP/big.out")"
fi

echo "1..$tap_n"
[ "$tap_failed" -eq 0 ]
