# Helpers of the tmux tests (tests/tui.sh, tests/tui-stress.sh), sourced
# after tests/lib.sh: micdb runs in tmux on a private server, keys go in
# with send-keys, the screen comes back with capture-pane, and every
# check polls the screen until what it wants appears (or a timeout),
# never a fixed sleep.  The bounds are generous (30 s by default, more for
# runs): a loaded machine (CI, two CPU hogs beside the suite) must pass
# too, and a bound is only reached when something is wrong.  Each micdb
# runs inside a small shell script that,
# once micdb has ended, records its exit status and `stty -a`, so the
# tests see whether the terminal came back (terminal_back).
if ! command -v tmux >/dev/null 2>&1; then
	echo "1..0 # SKIP tmux is not installed"
	exit 77
fi
[ -n "$MICDB_TUI" ] && MICDB=$MICDB_TUI

SOCK=micdb-test-$$
tm() {
	tmux -L "$SOCK" -f /dev/null "$@"
}
cleanup() {
	tm kill-server >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# A readline init file of our own: the user's must not change the keys,
# and it shows that micdb reads one (a single Tab lists completions).
cat >"$TMP/inputrc" <<'EOF'
set show-all-if-ambiguous on
set bell-style none
EOF

# start NAME WIDTH HEIGHT ARGS...: micdb ARGS in session NAME
start() {
	name=$1 w=$2 h=$3
	shift 3
	{
		# a Ctrl-C for micdb reaches this shell too: survive it
		printf 'trap : INT\n'
		printf 'printf "BEFORE-%%s\\n" %s\n' "$name"
		printf 'INPUTRC=%s sh -c '\''echo $$ >%s; exec "$@"'\'' micdb' \
		    "$TMP/inputrc" "$TMP/$name.pid"
		printf ' "%s"' "$MICDB" "$@"
		printf '\necho $? >%s\n' "$TMP/$name.rc"
		printf 'stty -a >%s 2>&1\n' "$TMP/$name.stty"
		printf 'printf "AFTER-%%s\\n" %s\n' "$name"
		# the pane stays open for capture-pane: nothing waits for it
		printf 'exec sleep 600\n'
	} >"$TMP/$name.run"
	tm new-session -d -s "$name" -x "$w" -y "$h" "sh $TMP/$name.run"
}

screen() {
	tm capture-pane -p -t "$1" 2>/dev/null
}

# synced SESSION: the screen once all that micdb drew before the call
# has reached tmux, then the prompt's line as it was.  One frame of a
# large screen reaches tmux in pieces, top first, so a capture taken on
# seeing the status bar change may hold the panes of the frame before
# (a loaded machine showed it at 200x60).  A key typed now echoes after
# every byte already written: once its echo shows, the frame before it
# is whole.  The key is '%' at an empty prompt, taken back with C-u.
synced() {
	tm send-keys -t "$1" -l "%"
	wait_until 30 screen_matches "$1" '\) %$'
	screen "$1"
	keys "$1" C-u
	wait_until 30 screen_lacks "$1" ') %'
}

# screen_has SESSION FIXED-STRING, screen_lacks (the opposite),
# screen_matches SESSION EXTENDED-REGEX: the screen now
screen_has() {
	screen "$1" | grep -qF -- "$2"
}
screen_lacks() {
	! screen_has "$@"
}
screen_matches() {
	screen "$1" | grep -qE -- "$2"
}

# wait_for SESSION FIXED-STRING [SECONDS, default 30] (wait_until:
# tests/lib.sh)
wait_for() {
	wait_until "${3:-30}" screen_has "$1" "$2"
}

# wait_gone SESSION FIXED-STRING [SECONDS]
wait_gone() {
	wait_until "${3:-30}" screen_lacks "$1" "$2"
}

# see DESCRIPTION SESSION FIXED-STRING [SECONDS]
see() {
	wait_for "$2" "$3" "$4"
	_rc=$?
	ok $_rc "$1"
	if [ $_rc -ne 0 ]; then
		diag "the screen lacks: $3"
		screen "$2" | diag "$(cat)"
	fi
}

# see_re DESCRIPTION SESSION EXTENDED-REGEX [SECONDS]
see_re() {
	wait_until "${4:-30}" screen_matches "$2" "$3"
	_rc=$?
	ok $_rc "$1"
	if [ $_rc -ne 0 ]; then
		diag "no line matches: $3"
		screen "$2" | diag "$(cat)"
	fi
}

keys() {
	_s=$1
	shift
	tm send-keys -t "$_s" "$@"
}

# type SESSION TEXT: literal text, then Enter
type_line() {
	tm send-keys -t "$1" -l "$2"
	tm send-keys -t "$1" Enter
}

# type_slowly SESSION TEXT: TEXT one key at a time, each its own
# send-keys as a person types, then Enter
type_slowly() {
	_t=$2
	while [ -n "$_t" ]; do
		_rest=${_t#?}
		tm send-keys -t "$1" -l "${_t%"$_rest"}"
		_t=$_rest
	done
	tm send-keys -t "$1" Enter
}

# terminal_back NAME DESCRIPTION [WANT-RC]: micdb ended and the terminal
# is as the shell left it
terminal_back() {
	wait_for "$1" "AFTER-$1" 30
	ok $? "$2: micdb ended"
	grep -qE '(^|[ ;])echo( |$)' "$TMP/$1.stty" 2>/dev/null &&
	    grep -qE '(^|[ ;])icanon( |$)' "$TMP/$1.stty"
	ok $? "$2: echo and icanon are on again"
	screen "$1" | grep -qF "BEFORE-$1"
	ok $? "$2: the shell's screen is back (alternate screen left)"
	if [ -n "$3" ]; then
		[ "$(cat "$TMP/$1.rc" 2>/dev/null)" = "$3" ]
		ok $? "$2: exit status $3"
	fi
	! screen "$1" | grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:'
	ok $? "$2: no sanitizer report"
	if ! screen "$1" | grep -qF "AFTER-$1"; then
		diag "exit status: $(cat "$TMP/$1.rc" 2>/dev/null)"
		screen "$1" | diag "$(cat)"
	fi
}

# the number before "/cell" in the cores pane's title
cell_size() {
	screen "$1" | sed -n 's/.* \([0-9][0-9]*\)\/cell.*/\1/p' | head -n 1
}

# the global step count on the status bar
step_count() {
	screen "$1" | sed -n '1s/.* step \([0-9][0-9]*\).*/\1/p'
}


# step_changes SESSION N [SECONDS]: wait until the status bar's step
# count has changed N times (the screen is redrawn during a run)
step_changes() {
	_i=0 _n=0
	_last=$(step_count "$1")
	while [ "$_i" -lt $(( ${3:-60} * 20 )) ]; do
		_s=$(step_count "$1")
		if [ -n "$_s" ] && [ "$_s" != "$_last" ]; then
			_n=$((_n + 1))
			_last=$_s
		fi
		[ "$_n" -ge "$2" ] && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

# transcript SESSION FILE: every page of the command window's transcript,
# paged back with PgUp (the focus must be on the command window) until
# its first line, micdb's banner, shows; the screens go to FILE
transcript() {
	: >"$2"
	_p=0
	while [ "$_p" -lt 200 ]; do
		_was=$(screen "$1")
		printf '%s\n' "$_was" >>"$2"
		printf '%s\n' "$_was" | grep -qE '^micdb [^ ]+: ' && return 0
		keys "$1" PPage
		_i=0
		while [ "$_i" -lt 600 ] && [ "$(screen "$1")" = "$_was" ]; do
			sleep 0.05
			_i=$((_i + 1))
		done
		[ "$(screen "$1")" = "$_was" ] && return 1
		_p=$((_p + 1))
	done
	return 1
}
