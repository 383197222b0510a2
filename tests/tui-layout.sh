#!/bin/sh
# Every layout legible at 80x24, 100x30 and 200x60, at each level (isa,
# mic, pmic), and the screen saying what --batch says for the same stop
# (doc/debugger.md section 2: titles, one count, one message).
#
# For each size and level micdb stops at the same place as a --batch run
# of the same commands; then the screen is parsed:
#   - the numbers: the status bar's step and counts, the cores pane's
#     counts, the code pane's core and line, the registers' PC, steps,
#     MIR and micro-cycles are those --batch reports (never a number cut
#     short);
#   - nothing overlaps: every pane's title starts its row ("> Name" or
#     "  Name") at its column, and a pane with a neighbour on its right
#     keeps a rule ('|') in its last column on every row down to the
#     command window, which no text from either side crosses.
# Then the help pager (open, scroll, search, close), `:quit`, y/yes/n/no
# at the set level question, the IN hint, and one copy of a stop or an
# error line.
#
# MICDB_TUI=/path/to/micdb runs another binary (e.g. a private build).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui-lib.sh"

P=$PROGRAMS
CORES=64
# the stop every size and level is checked at: cores split between the
# breakpoint and a method, so both counts are non-zero
STOP_CMDS='break main#loop
continue
step 25'

# batch LEVEL: the --batch report of the stop into $TMP/batch.LEVEL
batch() {
	{
		[ "$1" != isa ] && echo "set level $1"
		echo "$STOP_CMDS"
		printf 'info registers\ninfo cores 0\nprint $step\n'
	} >"$TMP/cmds.$1"
	"$MICDB" --batch "$TMP/cmds.$1" --cores $CORES "$P/collatz.jas" \
	    >"$TMP/batch.$1" 2>&1
}

# The expected counts as the screen words them, from `info cores`:
# "64 cores: 33 running, 31 at a breakpoint, 0 waiting, 0 halted, ..."
counts_of() {
	sed -n 's/^[0-9]* cores: //p' "$1" | head -n 1 | tr ',' '\n' |
	    sed 's/^ *//' | awk '
		{
			n = $1
			$1 = ""
			sub(/^ /, "")
			w = $0
			if (w == "running") w = "run"
			else if (w == "at a breakpoint") w = "break"
			else if (w == "halted") w = "halt"
			else if (w == "faulted") w = "fault"
			else if (w == "waiting") w = "wait"
			if (n > 0) c[w] = n
		}
		END {	# the screen lists the classes in this order
			split("run halt fault wait break forked join", o, " ")
			s = ""
			for (i = 1; i <= 7; i++)
				if (o[i] in c)
					s = s (s == "" ? "" : " ") c[o[i]] " " o[i]
			print s
		}'
}

# overlap FILE: the rows where a rule column is crossed or a title is
# out of place (empty output: none)
overlap() {
	awk '
	{ row[NR] = $0 }
	/^(> |  )Command( |$)/ { cmd = NR }
	END {
		if (cmd == 0) { print "no Command title"; exit }
		# rule columns: a "|" just before a title ("  Name", "> Name")
		for (r = 2; r < cmd; r++) {
			s = row[r]
			for (c = 1; c < length(s); c++)
				if (substr(s, c, 1) == "|" &&
				    substr(s, c + 1, 3) ~ /^(> |  )[A-Z]$/ &&
				    !((c, "") in top)) {
					top[c, ""] = r
					cols[++n] = c
				}
		}
		for (k = 1; k <= n; k++) {
			c = cols[k]
			for (r = top[c, ""]; r < cmd; r++) {
				ch = substr(row[r], c, 1)
				if (ch != "|" && ch != " " && ch != "")
					printf "row %d column %d: %s crosses the " \
					    "rule\n", r, c, ch
			}
		}
		# every title starts its pane: at column 1, or after a rule
		for (r = 2; r <= cmd; r++) {
			s = row[r]
			while (match(s, /(> |  )(Code|Registers|Cores|Warps|Stack|Output|Datapath|Microcode|Command)  /)) {
				at = RSTART
				if (at > 1 && substr(s, at - 1, 1) != "|" &&
				    substr(s, 1, at - 1) !~ /^ *$/)
					printf "row %d: a title at column %d " \
					    "inside another pane\n", r, at
				s = substr(s, RSTART + RLENGTH)
				break
			}
		}
	}' "$1"
}

# title_of FILE NAME: the title row of pane NAME, from the name to the
# rule or the end of the row
title_of() {
	sed -n "s/.*\(> \|  \)$2  \([^|]*\).*/$2  \2/p" "$1" | head -n 1
}

for lv in isa mic pmic; do
	batch $lv
	b=$TMP/batch.$lv
	focus=$(sed -n 's/^core \([0-9]*\) (warp.*instructions.*/\1/p' "$b")
	insns=$(sed -n 's/^core [0-9]* (warp.*, \([0-9]*\) instructions.*/\1/p' \
	    "$b")
	pc=$(sed -n 's/^PC .* \(0x[0-9a-f]\{4\}\) (.*/\1/p' "$b" | head -n 1)
	line=$(sed -n 's/^PC .*collatz\.jas:\([0-9]*\)).*/\1/p' "$b" |
	    head -n 1)
	step=$(sed -n 's/^\$1 = \([0-9]*\)$/\1/p' "$b")
	counts=$(counts_of "$b")
	mir=$(sed -n 's/^ *word \(0x[0-9a-f]*\) .*/\1/p' "$b" | head -n 1)
	cycles=$(sed -n 's/^core [0-9]* (warp.*, \([0-9]*\) micro-cycles.*/\1/p' \
	    "$b")
	[ -n "$focus" ] && [ -n "$pc" ] && [ -n "$line" ] && [ -n "$step" ] &&
	    [ -n "$counts" ] && [ -n "$insns" ]
	ok $? "$lv: --batch reports the stop (core $focus, pc $pc, line $line, \
step $step, $counts)"
	if [ $lv = mic ]; then
		[ -n "$mir" ] && [ -n "$cycles" ]
		ok $? "mic: --batch reports MIR $mir and $cycles micro-cycles"
	fi

	for size in 80x24 100x30 200x60; do
		w=${size%x*} h=${size#*x} s=$lv$w
		start "$s" "$w" "$h" --cores $CORES "$P/collatz.jas"
		wait_for "$s" "(micdb core 0 warp 0 lane 0)"
		if [ $lv != isa ]; then
			type_line "$s" ":set level $lv"
			wait_for "$s" "level $lv  step"
		fi
		printf '%s\n' "$STOP_CMDS" | while IFS= read -r c; do
			type_line "$s" ":$c"
		done
		see "$lv $size: stopped where --batch stops" "$s" \
		    "(micdb core $focus warp 0 lane $focus)"
		wait_for "$s" "step $step"
		synced "$s" >"$TMP/scr"

		# the status bar: the step and the same counts as info cores
		st=$(sed -n 1p "$TMP/scr")
		case $st in
		*"step $step  "*"stopped: $counts"*) r=0 ;;
		*) r=1 ;;
		esac
		ok $r "$lv $size: status bar: step $step, stopped: $counts"
		[ $r -ne 0 ] && diag "status bar: $st"

		# the cores pane counts the same classes (when shown)
		t=$(title_of "$TMP/scr" Cores)
		shown=$(printf '%s\n' "$t" |
		    sed -n "s/.*  $CORES: \(.*\)/\1/p" | sed 's/  .*//')
		case $shown in
		"") r=0 ;;			# the counts dropped whole
		"$counts") r=0 ;;
		*...)				# cut between words: a prefix
			case "$counts " in
			"${shown%...} "*) r=0 ;;
			*) r=1 ;;
			esac ;;
		*) r=1 ;;			# another count
		esac
		ok $r "$lv $size: cores title counts as the status bar ($t)"

		# the code pane: the core, and a line number only if whole
		t=$(title_of "$TMP/scr" Code)
		case $t in
		*"core $focus at "*) r=0 ;;
		*) r=1 ;;
		esac
		ok $r "$lv $size: code title names core $focus ($t)"
		n=$(printf '%s\n' "$t" | sed -n 's/.*line \([0-9]*\).*/\1/p')
		[ -z "$n" ] || [ "$n" = "$line" ]
		ok $? "$lv $size: code title's line is $line or none (${n:-none})"

		# the registers: PC, steps, at the micro level MIR and cycles
		pc8=$(printf '0x%08x' "$pc")
		grep -qE "PC[ *]+($pc|$pc8)( |\$|\|)" "$TMP/scr"
		ok $? "$lv $size: registers: PC $pc"
		grep -qE "stp[ *]+$insns( |\$|\|)" "$TMP/scr"
		ok $? "$lv $size: registers: $insns steps"
		if [ $lv = mic ]; then
			grep -qE "MIR +$mir( |\$|\|)" "$TMP/scr"
			ok $? "$lv $size: registers: MIR $mir, whole"
			grep -qE "cyc[ *]+$cycles( |\$|\|)" "$TMP/scr"
			ok $? "$lv $size: registers: $cycles micro-cycles"
		fi
		# no "line N" anywhere on the screen but the right one
		! grep -oE "line [0-9]+" "$TMP/scr" | grep -qv "line $line\$"
		ok $? "$lv $size: every 'line N' on the screen is line $line"

		# nothing overlaps
		bad=$(overlap "$TMP/scr")
		[ -z "$bad" ]
		ok $? "$lv $size: no pane's text crosses into another's box"
		if [ -n "$bad" ]; then
			diag "$bad"
			diag "$(cat "$TMP/scr")"
		fi
		# the stop line once on the screen (transcript, not again on
		# the message line)
		[ "$(grep -c "breakpoint 1 hit by cores 2, 4" "$TMP/scr")" -le 1 ]
		ok $? "$lv $size: the stop line appears once"
		type_line "$s" ":quit"
		terminal_back "$s" "$lv $size: :quit" 0
	done
done

# --- 4,096 cores at 200 columns: a far core's title, numbers whole -------------

printf 'break finished\ncontinue\ncore 4033\ninfo registers\n' \
    >"$TMP/cmds.big"
"$MICDB" --batch "$TMP/cmds.big" --cores 4096 "$P/collatz.jas" \
    >"$TMP/batch.big" 2>&1
line=$(sed -n 's/^PC .*collatz\.jas:\([0-9]*\)).*/\1/p' "$TMP/batch.big" |
    head -n 1)
where=$(sed -n 's/^PC .* 0x[0-9a-f]\{4\} (\([^,]*\), collatz.*/\1/p' \
    "$TMP/batch.big" | head -n 1 | sed 's/^main#//')
[ -n "$line" ] && [ -n "$where" ]
ok $? "4096 cores: --batch puts core 4033 at $where, line $line"
start big 200 60 --cores 4096 "$P/collatz.jas"
wait_for big "(micdb core 0 warp 0 lane 0)"
for c in "break finished" continue "core 4033"; do
	type_line big ":$c"
done
see "4096 cores: the focus is core 4033" big "(micdb core 4033 warp 126 lane 1)"
synced big >"$TMP/scr"
t=$(title_of "$TMP/scr" Code)
case $t in
*"core 4033 at $where"*) r=0 ;;
*) r=1 ;;
esac
ok $r "4096 cores, 200 columns: the code title names core 4033 at $where ($t)"
n=$(printf '%s\n' "$t" | sed -n 's/.*line \([0-9]*\).*/\1/p')
[ -z "$n" ] || [ "$n" = "$line" ]
ok $? "4096 cores, 200 columns: its line is $line, whole (${n:-none})"
! grep -oE "line [0-9]+" "$TMP/scr" | grep -qv "line $line\$"
ok $? "4096 cores: every 'line N' on the screen is line $line"
bad=$(overlap "$TMP/scr")
[ -z "$bad" ]
ok $? "4096 cores: no pane's text crosses into another's box"
[ -n "$bad" ] && diag "$bad"
type_line big ":quit"
terminal_back big "4096 cores: :quit" 0

# --- one message, the engine named ----------------------------------------

start msg 100 30 --cores 64 "$P/collatz.jas"
wait_for msg "(micdb core 0 warp 0 lane 0)"
type_line msg ":nonsense"
see "an unknown command is reported" msg "unknown command"
[ "$(screen msg | grep -c "unknown command 'nonsense'")" -eq 1 ]
ok $? "the error appears once (not again on the message line)"
type_line msg ":focus cmd"
wait_for msg "> Command"
type_line msg ":quit"
terminal_back msg "':quit' typed in the command window quits" 0

start eng 200 60 --cores 64 "$P/collatz.jas"
wait_for eng "(micdb core 0 warp 0 lane 0)"
engine=$(screen eng | sed -n 's/.*(warp width [0-9]*), \([a-z0-9-]*\) engine.*/\1/p' |
    head -n 1)
[ -n "$engine" ]
ok $? "the banner names the engine ($engine)"
t=$(screen eng | grep -o "records no k" | head -n 1)
if [ -n "$t" ]; then
	screen eng | grep -qF "(the $engine engine records no k)"
	ok $? "the warps pane names the engine that runs ($engine)"
else
	screen eng | grep -qF "k: kernel paths"
	ok $? "the warps pane: the $engine engine records k"
fi
type_line eng ":quit"
terminal_back eng ":quit at 200x60" 0

# --- the help pager --------------------------------------------------------

printf 'help\n' >"$TMP/help.cmd"
"$MICDB" --batch "$TMP/help.cmd" "$P/collatz.jas" >"$TMP/help.out" 2>&1
first=$(sed -n 2p "$TMP/help.out")
total=$(($(wc -l <"$TMP/help.out") - 1))
[ -n "$first" ] && [ "$total" -gt 30 ]
ok $? "--batch help prints the list ($total lines)"

start pg 80 24 "$P/collatz.jas"
wait_for pg "(micdb)"
type_line pg ":help"
see "help opens the pager over the panes" pg "> Help  lines 1-"
see "the pager shows the text --batch prints" pg "$first"
rows=$(screen pg | sed -n 's/.*> Help  lines 1-\([0-9]*\) of \([0-9]*\).*/\1/p')
of=$(screen pg | sed -n 's/.*> Help  lines 1-[0-9]* of \([0-9]*\).*/\1/p')
[ -n "$of" ] && [ "$of" -ge "$total" ]
ok $? "the pager holds all of help (--batch's $total lines and the \
screen's own: $of)"
! screen pg | grep -q "Registers  core"
ok $? "the panes are under the pager"
keys pg NPage
see "PgDn scrolls a page" pg "> Help  lines $((rows + 1))-"
keys pg Home
see "Home goes back to the top" pg "> Help  lines 1-"
keys pg / w a t c h Enter
see_re "/ searches: the match is the first row" pg "^  watch "
n1=$(screen pg | sed -n 's/.*> Help  lines \([0-9]*\)-.*/\1/p')
keys pg n
wait_gone pg "> Help  lines $n1-"
screen pg | sed -n 3p | grep -qi "watch"
ok $? "n finds the next match"
keys pg / z z z q q Enter
see "a pattern that is not there says so" pg "pattern not found: zzzqq"
keys pg q
wait_gone pg "> Help  lines"
see "q closes the pager: the panes are back" pg "Registers  core"
type_line pg ":help break"
see "help COMMAND opens the pager too" pg "> Help: break"
see "with the command's usage" pg "abbreviation: b br"
keys pg Escape
wait_gone pg "> Help: break" 5
ok $? "Esc closes the pager"
type_line pg ":help nosuchcommand"
see "help of an unknown command: an error, no pager" pg \
    "unknown command 'nosuchcommand'"
! screen pg | grep -q "> Help"
ok $? "no pager for an unknown command"
type_line pg ":quit"
terminal_back pg "quit after the pager" 0

# --- Tab completes the focused method's locals only -------------------------

start tab 100 30 "$P/collatz.jas"
wait_for tab "(micdb)"
keys tab :
tm send-keys -t tab -l "print st"
keys tab Tab
see "Tab after 'print st' lists completions" tab "completions:"
line=$(screen tab | grep "completions:" | tail -n 1)
case $line in
*" start"*" steps"*) r=0 ;;
*) r=1 ;;
esac
ok $r "main's locals start and steps are offered ($line)"
case $line in
*started*) r=1 ;;
*) r=0 ;;
esac
ok $r "print_int's local 'started' is not (another method's)"
keys tab C-u
type_line tab ":quit"
terminal_back tab "quit after Tab" 0

# --- y/yes/n/no at a question ----------------------------------------------

start yn 100 30 --cores 4 "$P/collatz.jas"
wait_for yn "(micdb core 0 warp 0 lane 0)"
type_line yn ":set level mic"
wait_for yn "level mic  step"
type_line yn ":stepi 5"
wait_for yn "stepi 5"
type_line yn ":set level isa"
see "set level asks when cores are inside an instruction" yn "(y/n)"
type_line yn "maybe"
see "an answer that is not y or n is asked again" yn \
    "please answer y or n (then Enter)"
type_line yn "no"
see "no: the level stays" yn "level unchanged: still mic"
type_line yn ":set level isa"
see "asked again" yn "(y/n)"
type_line yn "yes"
see "yes answers y (and runs nothing else)" yn "(y) running cores"
see "the level switches" yn "level isa  step"
! screen yn | grep -q "unknown command 'es'"
ok $? "'yes' does not run 'es'"
type_line yn ":quit"
terminal_back yn "quit after the question" 0

# --- the IN hint -----------------------------------------------------------

start echo 80 24 "$P/echo.jas"
wait_for echo "(micdb)"
type_line echo ":continue"
see "echo without input: a hint, once" echo \
    'core 0 reads input: type input 0 "text"'
type_line echo ":run"
wait_for echo "(micdb) run"
type_line echo ":continue"
wait_for echo "all cores halted"
screen echo | sed -n 23p | grep -q "reads input"
[ $? -ne 0 ]
ok $? "the hint is given once (not after the second run)"
type_line echo ":quit"
terminal_back echo "quit after echo" 0

# --- issue 32: the selected frame, constant names, #print folded -----------

start fr 200 60 "$P/fib.jas"
wait_for fr "(micdb)"
type_line fr "break fib"
wait_for fr "breakpoint 1 at"
type_line fr "continue"
wait_for fr "breakpoint 1 hit by core 0"
type_line fr "continue"
see "stack pane: frame #0 is the selected one" fr "> #0  0x"
screen fr | grep -q "> #1 "
[ $? -ne 0 ]
ok $? "before up, frame #1 is not marked"
type_line fr "up"
see "up: the stack pane marks frame #1" fr "> #1  0x"
! screen fr | grep -q "> #0 "
ok $? "up: frame #0 is no longer marked"
type_line fr "down"
see "down: frame #0 marked again" fr "> #0  0x"
type_line fr "quit"
terminal_back fr "quit after up and down" 0

start cst 200 60 "$P/matmul.jas"
wait_for cst "(micdb)"
type_line cst "break 69"
wait_for cst "breakpoint 1 at"
type_line cst "continue"
see_re "the code pane names a constant: LDC_W OBJREF at the PC" cst \
    '^B> [0-9a-f]{4}  LDC_W OBJREF'
see_re "and LDC_W SIZE above it" cst '^   [0-9a-f]{4}  LDC_W SIZE'
! screen cst | grep -qE "LDC_W [0-9]"
ok $? "no constant shown by its number"
type_line cst "quit"
terminal_back cst "quit after the constants" 0

start prn 200 60 "$P/bubble.jas"
wait_for prn "(micdb)"
type_line prn "break 101"
wait_for prn "breakpoint 1 at"
type_line prn "continue"
see_re "asm view: #print is one row at the PC" prn '^B> 0078  #print "before: "'
# (the stop line in the transcript names BIPUSH 98: look at code rows)
! screen prn | grep -qE '^.. [0-9a-f]{4}  (BIPUSH 98|OUT)'
ok $? "asm view: the bytes behind #print are folded"
type_line prn "view"
see_re "view (F3): the bytes view shows the PC on the first byte" prn \
    '^B> 0078  BIPUSH 98'
see_re "bytes view: the BIPUSH/OUT pairs follow" prn '^   007a  OUT'
see_re "bytes view: the #print row stands above them" prn \
    '^ +#print "before: "'
type_line prn "view asm"
see_re "view asm folds them again" prn '^B> 0078  #print "before: "'
! screen prn | grep -qE '^.. [0-9a-f]{4}  (BIPUSH 98|OUT)'
ok $? "view asm: no byte rows left"
type_line prn "view nonsense"
see "view: an unknown view is an error that lists the views" prn \
    "view takes asm, bytes or source, not 'nonsense'"
type_line prn "quit"
terminal_back prn "quit after the #print views" 0

done_testing
