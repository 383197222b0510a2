#!/bin/sh
# The terminal under stress (issue 21, item 4): the TUI in tmux while it
# is busy.  A storm of resizes while a continue runs, Ctrl-C pressed
# again and again as runs launch, SIGTERM and SIGHUP while the screen is
# being redrawn (a run going on, resizes in flight), and input pasted far
# faster than micdb reads it, at the prompt and during a run (where it is
# kept and runs after the stop, doc/debugger.md section 3).  Each time
# the session must answer afterwards, or, for TERM and HUP, end with the
# terminal restored (echo and icanon on, the alternate screen left: see
# terminal_back in tests/tui-lib.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui-lib.sh"

P=$PROGRAMS
SPIN=$top_srcdir/tests/tui/spin.jas

# storm SESSION N: N resizes as fast as tmux takes them
storm() {
	_k=0
	while [ $_k -lt "$2" ]; do
		tm resize-window -t "$1" -x $((30 + (_k * 37) % 170)) \
		    -y $((6 + (_k * 13) % 55)) 2>/dev/null
		_k=$((_k + 1))
	done
}

# --- a resize storm while a continue runs ---------------------------------
start rs 120 40 --cores 4096 "$SPIN"
see "resize storm: started" rs "(micdb core 0 warp 0 lane 0)"
type_line rs "continue"
see "resize storm: the run goes" rs "RUNNING" 60
storm rs 60
tm resize-window -t rs -x 120 -y 40
see "resize storm: still running, redrawn at the last size" rs "RUNNING"
keys rs C-c
see "resize storm: Ctrl-C stops the run" rs "interrupted"
type_line rs "print 6 * 7"
see "resize storm: the session answers" rs "= 42"
# each pane's title, waited for: the panes are redrawn one by one after
# the last resize, and under load the command's answer may come first
for title in Code Registers Cores Warps Command; do
	see "resize storm: the $title pane is back at 120x40" rs "$title"
done
type_line rs "quit"
terminal_back rs "resize storm, then quit" 0

# --- Ctrl-C as runs launch, again and again ---------------------------------
# Each continue typed while the one before runs waits for its stop
# (typeahead); the Ctrl-Cs stop the runs as they come.  A line typed
# after them waits for them all: Ctrl-C is pressed while a run is left
# (one typed ahead may start after the last Ctrl-C) until it answers.
start cc 120 40 --cores 65536 --stack-words 256 "$P/collatz.jas"
see "Ctrl-C storm: started" cc "65536: 65536 run" 60
k=0
while [ $k -lt 8 ]; do
	type_line cc "continue"
	keys cc C-c
	k=$((k + 1))
done
see "Ctrl-C storm: the runs are interrupted" cc "interrupted" 60
type_line cc "print 1 + 1"
k=0
while [ $k -lt 1200 ] && ! screen cc | grep -qF '$1 = 2'; do
	screen cc | grep -qF "RUNNING" && keys cc C-c
	sleep 0.05
	k=$((k + 1))
done
see "Ctrl-C storm: after the runs the line typed last answers" cc "\$1 = 2" 60
keys cc C-c C-c C-c
see "Ctrl-C at the prompt does not end the session" cc \
    "Quit (quit or Ctrl-D"
type_line cc "print 5 * 5"
see "Ctrl-C storm: it still answers" cc "\$2 = 25" 60
keys cc C-d
terminal_back cc "Ctrl-C storm, then Ctrl-D" 0

# --- SIGTERM and SIGHUP mid-render ----------------------------------------
for sig in TERM HUP; do
	n=sig$sig
	start "$n" 120 40 --cores 4096 "$SPIN"
	see "SIG$sig mid-render: started" "$n" "(micdb core 0 warp 0 lane 0)"
	type_line "$n" "continue"
	see "SIG$sig mid-render: the run goes" "$n" "RUNNING" 60
	storm "$n" 10
	kill -"$sig" "$(cat "$TMP/$n.pid")"
	storm "$n" 10
	if [ "$sig" = TERM ]; then
		terminal_back "$n" "SIG$sig during a run and resizes" 143
	else
		terminal_back "$n" "SIG$sig during a run and resizes" 129
	fi
done

# --- input pasted faster than it is read -----------------------------------
# 300 commands in one paste at the prompt: every one is read, in order
# (the value history reaches $300).  Then 100 more while a run goes on.
start ps 120 40 --cores 64 "$P/collatz.jas"
see "paste: started" ps "(micdb core 0 warp 0 lane 0)"
k=1
: >"$TMP/paste"
while [ $k -le 300 ]; do
	echo "print $k * 1000" >>"$TMP/paste"
	k=$((k + 1))
done
tm load-buffer -b p1 "$TMP/paste"
tm paste-buffer -b p1 -t ps
see "paste: 300 lines at the prompt, the last one answered" ps \
    "\$300 = 300000" 60
start pr 120 40 --cores 4096 "$SPIN"
see "paste during a run: started" pr "(micdb core 0 warp 0 lane 0)"
type_line pr "continue"
see "paste during a run: the run goes" pr "RUNNING" 60
k=1
: >"$TMP/paste2"
while [ $k -le 100 ]; do
	echo "print $k + 7000" >>"$TMP/paste2"
	k=$((k + 1))
done
tm load-buffer -b p2 "$TMP/paste2"
tm paste-buffer -b p2 -t pr
# keys typed during a run are kept (tui.c, handle_key): the paste does
# not stop the run, Ctrl-C does, and then the 100 lines run in order
see_re "paste during a run: kept while the run goes on" pr \
    "Ctrl-C or Esc stops it; [0-9]+ keys typed ahead"
screen pr | grep -qF "RUNNING"
ok $? "paste during a run: the paste did not stop the run"
keys pr C-c
see "paste during a run: Ctrl-C stops it" pr "stopped: 4096 run" 60
see "paste during a run: then the 100 lines run, in order" pr \
    "\$100 = 7100" 60
type_line pr "print 9 * 9"
see "paste during a run: the session answers" pr "= 81" 60
# a line typed during a run that opens the pager gets the keys typed
# after it when they run after the stop, as it does when they are typed
# at the prompt (they once went to the command line instead: End moved
# readline's cursor, the help stayed at its first page)
type_line pr "continue"
see "pager after a run: the run goes" pr "RUNNING" 60
type_line pr "help"
keys pr End
keys pr C-c
see_re "pager after a run: End, typed ahead, went to the pager" pr \
    "Help  lines [0-9]+-([0-9]+) of \\1 " 60
keys pr q
wait_gone pr "> Help"
ok $? "pager after a run: q closes it"
# more than micdb keeps (65,536 keys): the rest are dropped, said once
type_line pr "continue"
see "typeahead overflow: the run goes" pr "RUNNING" 60
head -c 70000 /dev/zero | tr '\0' x >"$TMP/paste3"
tm load-buffer -b p3 "$TMP/paste3"
tm paste-buffer -b p3 -t pr
see "typeahead overflow: the keys beyond 65,536 are dropped, with a message" \
    pr "more than 65536 keys typed during the run: the rest are dropped" 60
see "typeahead overflow: 65,536 keys are kept" pr "65536 keys typed ahead" 60
keys pr C-c
see "typeahead overflow: Ctrl-C stops the run" pr "stopped: 4096 run" 60
keys pr C-u
type_line pr "print 6 * 6"
see "typeahead overflow: the kept keys were typed, C-u cleared them" pr \
    "\$102 = 36" 60
type_line ps "quit"
terminal_back ps "after a paste, quit" 0
type_line pr "quit"
terminal_back pr "after a paste during a run, quit" 0

done_testing
