# Shared helpers of the shell tests: TAP output (automake's tap-driver
# counts every check) and the paths of the binaries under test.
# The -asan binaries are the same programs built with ASan/UBSan; error
# paths and fuzzing use them so a crash or leak fails the test.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
MICDB=$top_builddir/src/micdb
IJVM_AS=$top_builddir/src/ijvm-as
IJVM_DIS=$top_builddir/src/ijvm-dis
MICDB_ASAN=$top_builddir/tests/micdb-asan
IJVM_AS_ASAN=$top_builddir/tests/ijvm-as-asan
IJVM_DIS_ASAN=$top_builddir/tests/ijvm-dis-asan
PROGRAMS=$top_srcdir/programs
TMP=$top_builddir/tests/tmp/$(basename "$0" .sh).$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT
# huge requests must come back as NULL so micdb can say what to do
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
# LeakSanitizer's tracer crashes walking the stale dynamic-TLS blocks that
# POCL's dlopen'ed compiler leaves behind; micdb keeps no heap pointers in
# thread-local storage, so not scanning TLS loses no leak.
# tests/lsan.supp: what POCL's compiler keeps when it builds a kernel (a
# cold kernel cache) is not a leak of micdb's.
export LSAN_OPTIONS="use_tls=0:print_suppressions=0:suppressions=$top_srcdir/tests/lsan.supp"

tap_n=0
tap_failed=0

ok() {
	# ok CONDITION-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# run_cmd OUT ERR CMD...: run CMD, stdout/stderr to files, status in $rc
run_cmd() {
	out=$1 err=$2
	shift 2
	"$@" >"$out" 2>"$err" </dev/null
	rc=$?
}

# expect_rc WANT DESCRIPTION (after run_cmd)
expect_rc() {
	[ "$rc" -eq "$1" ]
	ok $? "$2 (exit $1)"
	[ "$rc" -eq "$1" ] || { diag "exit status $rc"; diag "$(head -c 2000 "$err")"; }
}

# expect_err PATTERN DESCRIPTION: stderr matches the fixed string
expect_err() {
	grep -qF -- "$1" "$err"
	ok $? "$2"
	grep -qF -- "$1" "$err" || { diag "stderr lacks: $1"; diag "$(head -c 2000 "$err")"; }
}

# no_sanitizer_report DESCRIPTION
no_sanitizer_report() {
	! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$err"
	ok $? "$1: no sanitizer report"
}

# The sample programs, as every level's run tests walk them.
# sort_cores FILE: FILE sorted by core (stable), since only each core's
# own line order is deterministic.
sort_cores() {
	sort -s -k2,2n "$1"
}

# same_output OUT WANT: status 0 when OUT is WANT, both sorted by core
# (left in $TMP/out.sorted and $TMP/want.sorted for a diagnostic).
same_output() {
	sort_cores "$1" >"$TMP/out.sorted"
	sort_cores "$2" >"$TMP/want.sorted"
	cmp -s "$TMP/out.sorted" "$TMP/want.sorted"
}

# sample NAME: programs/NAME's source in $jas (empty for a sample run
# from its options alone, the MIMD pair), its stdin in $input and the
# options of its first variant in $opts.
sample() {
	jas=$PROGRAMS/$1.jas
	[ -f "$jas" ] || jas=""
	input=/dev/null
	[ -f "$PROGRAMS/$1.input" ] && input=$PROGRAMS/$1.input
	opts=$(sample_opts "$1" 1)
}

# sample_variants NAME: how many variants NAME.opts lists (one a line), 1
# without it.
sample_variants() {
	n=1
	[ -f "$PROGRAMS/$1.opts" ] && n=$(wc -l <"$PROGRAMS/$1.opts")
	[ "$n" -ge 1 ] || n=1
	echo "$n"
}

# sample_opts NAME I: the options of NAME's variant I (empty if none).
sample_opts() {
	[ -f "$PROGRAMS/$1.opts" ] && sed -n "${2}p" "$PROGRAMS/$1.opts"
	return 0
}

# fault_opts JAS: the options of the fault demo JAS in $opts.
fault_opts() {
	opts=""
	[ -f "${1%.jas}.opts" ] && opts=$(cat "${1%.jas}.opts")
	return 0
}

# ---- waiting for a state (never for a time) ---------------------------
# A test waits for what it needs (a file, a line, a process's state) with
# a generous bound, so that a loaded machine only makes it slower (make
# check-stress runs the timing-sensitive tests beside two CPU hogs).

# wait_until SECONDS CMD...: run CMD every 0.05 s (the poll interval of a
# bounded wait, nothing depends on its length) until it succeeds; status
# 1 when SECONDS have passed without
wait_until() {
	_n=$(($1 * 20))
	shift
	until "$@"; do
		[ $_n -gt 0 ] || return 1
		sleep 0.05
		_n=$((_n - 1))
	done
}

gone() {	# PID: the process has ended
	! kill -0 "$1" 2>/dev/null
}

# catches PID SIGNUM: the process has a handler for the signal (the
# SigCgt mask of /proc/PID/status), e.g. micdb run once it is running
catches() {
	_m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$_m" ] && [ $(( (0x$_m >> ($2 - 1)) & 1 )) -eq 1 ]
}

# cpu_ticks PID: the user and system CPU time the process has used, in
# clock ticks (/proc/PID/stat), empty once it is gone
cpu_ticks() {
	# the fields after the command name, which may hold spaces
	sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null |
	    awk '{ print $12 + $13 }'
}

# ran_for PID TICKS-SINCE TICKS: the process has used TICKS clock ticks of
# CPU since it had used TICKS-SINCE (a state of the process, which a
# loaded machine only delays)
ran_for() {
	_t=$(cpu_ticks "$1")
	[ -n "$_t" ] && [ $((_t - $2)) -ge "$3" ]
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
