#!/bin/sh
# with-load.sh COMMAND [ARG...]: run COMMAND with two CPU-bound processes
# beside it the whole time, and exit with COMMAND's status.  `make
# check-stress` runs the timing-sensitive tests this way (issue 28: the
# suite must pass on a loaded machine of two cores, not only a quiet one).
#
# The hogs are `stress-ng --cpu 2` where it is installed (a Debian package
# that ./quickstart check installs), else two `yes >/dev/null`.  Each runs
# in a process group of its own (setsid), which is killed however this
# script ends (exit, INT, TERM, HUP); each also ends by itself after
# HOG_LIMIT seconds, so that not even a SIGKILL of this script leaves
# one spinning.  If a hog is gone before COMMAND ends, the run was not
# loaded, and the script says so and fails.
set -u

HOG_LIMIT=${HOG_LIMIT:-7200}
if [ $# -eq 0 ]; then
	echo "usage: with-load.sh COMMAND [ARG...]" >&2
	exit 2
fi

pids=""
stop_hogs() {
	for p in $pids; do
		kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null
	done
	for p in $pids; do
		wait "$p" 2>/dev/null
	done
	pids=""
}
trap 'stop_hogs' EXIT
trap 'stop_hogs; exit 130' INT
trap 'stop_hogs; exit 143' TERM
trap 'stop_hogs; exit 129' HUP

# hog CMD...: CMD in a new session (its own process group), bounded
hog() {
	if command -v setsid >/dev/null 2>&1; then
		setsid timeout "$HOG_LIMIT" "$@" </dev/null >/dev/null 2>&1 &
	else
		timeout "$HOG_LIMIT" "$@" </dev/null >/dev/null 2>&1 &
	fi
	pids="$pids $!"
}

if command -v stress-ng >/dev/null 2>&1; then
	what="stress-ng --cpu 2"
	hog stress-ng --cpu 2 --quiet
else
	what="two 'yes >/dev/null'"
	hog yes
	hog yes
fi
echo "with-load: $what beside: $*"

"$@"
status=$?

for p in $pids; do
	if ! kill -0 "$p" 2>/dev/null; then
		echo "with-load: a CPU hog ($what) ended before the command" \
		    "did: the run was not loaded" >&2
		[ $status -eq 0 ] && status=1
	fi
done
stop_hogs
exit $status
