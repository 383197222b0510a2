#!/bin/sh
# The TUI through a real terminal (doc/debugger.md sections 2-4): micdb runs
# in tmux on a private server, keys go in with send-keys, the screen comes
# back with capture-pane.  Every check polls the screen until what it
# wants appears (or a generous timeout: the suite must pass on a loaded
# machine), never a fixed sleep.  Keys are gdb's (doc/debugger.md section
# 3): typing goes to the prompt, SingleKey mode (C-x s) is an opt-in, and
# what is typed during a run is kept and runs after the stop.
#
# Each micdb runs inside a small shell script that, once micdb has ended,
# records its exit status and `stty -a`, so the tests see whether the
# terminal came back (echo, icanon) on every way out: quit, Ctrl-D,
# SIGTERM, a crash.  The alternate screen is checked too: the line the
# script printed before micdb must be visible again afterwards.
#
# MICDB_TUI=/path/to/micdb runs another binary (e.g. a private build).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tui-lib.sh"

P=$PROGRAMS

# --- without a terminal ------------------------------------------------------

run_cmd "$TMP/o" "$TMP/e" "$MICDB" "$P/fib.jas"
out=$TMP/o err=$TMP/e
expect_rc 2 "no terminal: refused"
expect_err "the debugger needs a terminal" "no terminal: says what to use"
run_cmd "$TMP/o" "$TMP/e" "$MICDB" --cores 4 --help
expect_rc 0 "micdb --cores 4 --help: the debugger's usage"
grep -qF "Keys: typing goes to the command prompt." "$TMP/o" &&
    grep -qF "C-x s SingleKey mode (c s S n i" "$TMP/o"
ok $? "the usage: typing goes to the prompt, C-x s is SingleKey mode"

# --- startup and every pane ---------------------------------------------

start main 120 40 --cores 1024 "$P/collatz.jas"
see "startup: the prompt shows the focus" main "(micdb core 0 warp 0 lane 0)"
# each title waited for: the prompt may be drawn before the last pane
for title in "Code" "Registers" "Cores" "Warps" "Stack" "Output" "Command"; do
	see_re "startup: the $title pane is there" main \
	    "^(> |  )?.*(> |  )$title  "
done
see "code pane: disassembly at the PC, marked" main "> 0000  COREID"
see "code pane: local names from the source" main "0005  ISTORE start"
see "code pane: labels" main "loop:"
see "registers pane: PC" main "PC   0x0000"
for r in "SP " "LV " "CPP" "TOS" "OPC" "H  " "MAR" "MDR" "MBR" "MPC" "N  " \
    "st   running" "stp"; do
	screen main | grep -qF -- "$r"
	ok $? "registers pane: $r"
done
see "cores pane: counts by status" main "1024: 1024 run  "
see "cores pane: legend" main "# run . halt ! fault w wait B break"
see "cores pane: row labels and the focus mark" main "0 #<"
see_re "warps pane: a row per warp, lanes on one path" main \
    "^> 0 A{32} +32/32 +1p k- +100%"
see "warps pane: whole-machine summary" main "all: eff 100%"
see "warps pane: legend names the path" main "A main"
see "stack pane: locals by name" main "locals: start=0 n=0 steps=0 peak=0"
see "command window: banner" main "collatz.jas on 1024 cores"
see "status bar" main "micdb  collatz.jas  1024 cores W=32"

# --- stepping: SingleKey mode's keys and the function keys -----------------

keys main C-x s
see "C-x s: the status line shows SingleKey mode" main "micdb (SingleKey)  collatz.jas"
keys main s
see "s steps: the PC moves and is marked changed" main "PC * 0x0001"
see "s is the step command, echoed" main "(micdb core 0 warp 0 lane 0) step"
keys main F7
see "F7 steps" main "PC * 0x0003"
see "changed registers are marked" main "TOS* 1"
see "unchanged ones are not" main "LV   0x8000"
see "the code pane follows the PC" main "> 0003  IADD"
keys main i
see "i micro-steps (one instruction at the ISA level)" main "PC * 0x0004"
keys main S
see "S goes back one step through recorded history" main \
    "went back 1 step to step 2"
see "S: the PC is back before the i step" main "> 0003  IADD"
keys main S-F7
see "S-F7 is reverse-step too" main "went back 1 step to step 1"
see "S-F7: the PC is back before the F7 step" main "PC * 0x0001"
keys main F7
keys main i
see "forward again after going back: the same PC" main "PC * 0x0004"
keys main q
wait_gone main "(SingleKey)"
ok $? "q leaves SingleKey mode"

# --- breakpoints by key and by command ------------------------------------

keys main Down Down
keys main F2
see "F2 sets a breakpoint at the code cursor" main "breakpoint 1 at 0x0007"
see "the code pane marks it" main "B  0007  DUP"
keys main F2
see "F2 again deletes it" main "(micdb core 0 warp 0 lane 0) delete 1"
wait_gone main "B  0007  DUP"
ok $? "the mark is gone"
type_line main "break loop core 8-15"
see "break LABEL core 8-15" main \
    "breakpoint 2 at 0x0010 (main#loop, collatz.jas:47) on cores 8-15"
keys main F5
see "F5 continues; it stops at the breakpoint, naming the cores" main \
    "breakpoint 2 hit by cores 8-15 [8 of 1024]"
see "the focus moves to a core that hit it" main \
    "(micdb core 8 warp 0 lane 8)"
see "code pane: breakpoint and PC marks" main "B> 0010  ILOAD n"
see "cores pane: cores at a breakpoint" main "1024: 1016 run 8 break"
see "cores pane: the focused cell's cores" main "cell 8-15 (focus 8): 8 break"
see "stack pane: the new focus's locals" main "start=9 n=9"

# --- focus ------------------------------------------------------------------

type_line main "core 12"
see "core 12 moves the focus; the prompt shows it" main \
    "(micdb core 12 warp 0 lane 12)"
see "registers follow the focus" main "Registers  core 12 (warp 0 lane 12)"
see "stack pane: core 12's frame by name" main "locals: start=13 n=13"
keys main C-x s
see "SingleKey mode again" main "micdb (SingleKey)"
keys main ]
see "] next core" main "(micdb core 13 warp 0 lane 13)"
keys main [
see "[ previous core" main "(micdb core 12 warp 0 lane 12)"
keys main "}"
see "} next warp, same lane" main "(micdb core 44 warp 1 lane 12)"
see_re "warps pane marks the focused warp" main "^> 1 "
keys main "{"
see "{ previous warp" main "(micdb core 12 warp 0 lane 12)"
keys main C-x s
wait_gone main "(SingleKey)"
ok $? "C-x s leaves SingleKey mode too"
keys main Tab
see "Tab: the next pane has the focus" main "> Cores  "
g=$(cell_size main)
c=$((12 + ${g:-1}))
keys main Right
see "arrows in the cores pane move the focus by a cell" main \
    "(micdb core $c warp 0 lane $c)"
keys main BTab Tab Tab
see "Tab again: warps" main "> Warps  "
keys main Down
see "arrows in the warps pane: next warp" main \
    "(micdb core $((c + 32)) warp 1 lane $c)"

# --- errors -------------------------------------------------------------------

type_line main "frobnicate"
see "a bad command: one line on the message line" main \
    "unknown command 'frobnicate'"
type_line main "core 3"
see "the session goes on after an error" main "(micdb core 3 warp 0 lane 3)"
type_line main "break nosuchlabel"
see "a bad location is reported" main "error: "
type_line main "layout nonsense"
see "layout: unknown names are reported" main "unknown layout 'nonsense'"
type_line main "layout micro"
see "layout micro at the ISA level says what to do" main \
    "layout micro: the machine runs at the ISA level; set level mic first"
type_line main "focus datapath"
see "focus datapath at the ISA level says why" main \
    "focus datapath: the datapath pane shows the micro level"
type_line main "set level nonsense"
see "set level: unknown levels are reported" main \
    "unknown level 'nonsense' (levels: isa mic pmic)"

# --- screen commands, keys, completion ------------------------------------------

keys main F4
see "F4 colours the grid by opcode" main "cores grid coloured by opcode class"
see "the opcode legend" main "p push l local s stack a alu"
type_line main "colour status"
see "colour status" main "cores grid coloured by status"
keys main F3
see "F3: the bytes view" main "[bytes, F3]"
keys main F3
see "F3 again: source view" main "[source, F3]"
see "the source view shows the .jas text" main "ILOAD n"
keys main F3
see "F3 a third time: disassembly" main "[asm, F3]"
type_line main "layout cores"
see "layout cores" main "layout cores"
wait_gone main "Registers  core"
ok $? "layout cores hides the registers"
type_line main "layout default"
see "layout default brings them back" main "Registers  core"
type_line main "help break"
see "help CMD shows its usage (in the pager)" main "abbreviation: b br"
keys main q
wait_gone main "> Help: break"
type_line main "help"
keys main End
see "help lists the screen's commands after the session's" main \
    "refresh                  repaint the screen"
see "help lists the keys, SingleKey mode's too" main \
    "C-x s SingleKey mode: c s S n i, [ ] core, { } warp"
keys main q
wait_gone main "> Help  lines"
tm send-keys -t main -l "brea"
keys main Tab
see "Tab completes a command" main "lane 3) break"
tm send-keys -t main -l "lo"
keys main Tab
see "and a label" main "lane 3) break loop"
keys main C-u
tm send-keys -t main -l "info "
keys main Tab
see "one Tab lists completions (the inputrc is read)" main "completions:"
see "subcommands are completed" main "registers"
keys main C-u
type_line main "focus cmd"
see "focus cmd" main "> Command  "
keys main Up Up
see "Up recalls the history in the command window" main "lane 3) help"
keys main C-u

# --- resize -------------------------------------------------------------------


big=$(cell_size main)
tm resize-window -t main -x 38 -y 8
see "too small: says so instead of drawing panes" main \
    "terminal too small: 40x10 at least"
tm resize-window -t main -x 80 -y 24
see "80x24: the status bar" main "micdb  collatz.jas"
see "80x24: code" main "Code  collatz.jas"
see "80x24: registers" main "Registers"
see "80x24: cores" main "Cores"
see "80x24: warps" main "Warps  "
see "80x24: the prompt" main "(micdb core 3 warp 0 lane 3)"
small=$(cell_size main)
[ -n "$small" ] && [ -n "$big" ] && [ "$small" -gt "$big" ]
ok $? "80x24: more cores per grid cell ($small) than at 120x40 ($big)"
type_line main "step"
see "80x24: stepping still works" main "(micdb core 3 warp 0 lane 3) step"
tm resize-window -t main -x 200 -y 60
see "200x60: wide registers show hex and decimal" main "0x00008000       32768"
huge=$(cell_size main)
[ -n "$huge" ] && [ "$huge" -lt "$small" ]
ok $? "200x60: fewer cores per cell ($huge) than at 80x24 ($small)"
see_re "200x60: code and warps side by side" main "Code  .*Warps  "

# --- leaving ---------------------------------------------------------------

type_line main "quit"
terminal_back main "quit" 0

# --- a long run: progress; Ctrl-C and Esc stop it, other keys wait --------------

start spin 120 40 --cores 4096 "$top_srcdir/tests/tui/spin.jas"
see "spin: started" spin "(micdb core 0 warp 0 lane 0)"
type_line spin "continue"
see "continue: the status bar says running" spin "RUNNING" 60
see "continue: steps/s are shown" spin "steps/s  4096 run"
n1=$(step_count spin)
step_changes spin 6 60
ok $? "the screen refreshes during continue (the step count changed 6 times)"
n2=$(step_count spin)
[ -n "$n1" ] && [ -n "$n2" ] && [ "$n2" -gt "$n1" ]
ok $? "the step count grows ($n1 -> $n2)"
keys spin C-c
see "Ctrl-C stops the run" spin "interrupted"
see "stopped at a consistent cut: where the focus is" spin \
    "core 0 at 0x00"
see "the status bar says stopped" spin "stopped: 4096 run"
type_line spin "continue"
see "continue again" spin "RUNNING" 60
keys spin x
see "a key typed during a run is kept, the run goes on" spin \
    "(running: Ctrl-C or Esc stops it; 1 key typed ahead) x"
screen spin | grep -qF "RUNNING"
ok $? "the run is still going after the key"
keys spin Escape
see "Esc stops a run" spin "stopped: 4096 run"
see_re "the key typed during the run is at the prompt after the stop" spin \
    "^\(micdb core 0 warp 0 lane 0\) x$"
keys spin C-c
see "Ctrl-C at the prompt does not end the session" spin "Quit (quit or Ctrl-D"
wait_gone spin "lane 0) x"
ok $? "Ctrl-C at the prompt clears the line"
keys spin Escape
type_line spin "step"
see "Esc at the prompt does nothing: the next command is typed whole" spin \
    "(micdb core 0 warp 0 lane 0) step"
keys spin C-d
terminal_back spin "Ctrl-D" 0

# --- typing, as a person types: every key goes to the prompt -----------------
# (issue 29: the letters of `continue` or `info divergence` used to be
# single-key commands)

start typ 160 60 --cores 1024 "$P/collatz.jas"
see "typing: started" typ "(micdb core 0 warp 0 lane 0)"
type_slowly typ "info cores"
see "typed: info cores, echoed as typed" typ "lane 0) info cores"
see "info cores: its census" typ \
    "1024 cores: 1024 running, 0 waiting, 0 halted, 0 faulted"
see "typing ran nothing else: still at step 0" typ "level isa  step 0  stopped:"
type_slowly typ "break main#loop"
see "typed: break main#loop" typ "lane 0) break main#loop"
see "break main#loop: the breakpoint" typ \
    "breakpoint 1 at 0x0010 (main#loop, collatz.jas:47)"
type_slowly typ "continue"
see "typed: continue" typ "lane 0) continue"
see "continue: stops at the breakpoint" typ \
    "breakpoint 1 hit by cores 0-1023 [1024 of 1024]" 60
type_slowly typ "info divergence"
see "typed: info divergence" typ "lane 0) info divergence"
see "info divergence: its report" typ \
    "program divergence, computed on the host from the cores' PCs"
type_slowly typ "set level mic"
see "typed: set level mic" typ "lane 0) set level mic"
see "set level mic: switched" typ "level mic (was isa), layout micro" 60
type_slowly typ "stepi"
see "typed: stepi" typ "lane 0) stepi"
see "stepi: one micro-cycle, into ILOAD's microcode" typ \
    "core 0 at MPC 0x015 (iload1, mic1.mal:"
! screen typ | grep -qE "unknown command|ambiguous"
ok $? "typing: no command was cut by a key"

# SingleKey mode: C-x s, then s i c, an unbound key, q
keys typ C-x s
see "C-x s: SingleKey on the status line" typ "micdb (SingleKey)  collatz.jas"
see "C-x s: the message line lists the single keys" typ \
    "SingleKey mode: c continue, s step, S reverse-step"
keys typ s
see "SingleKey s: step, echoed as the command" typ "lane 0) step"
see "step: the ISA instruction finished (back at Main1)" typ \
    "next instruction 0x0012 (main#loop+2, collatz.jas:48): BIPUSH 1"
keys typ i
see "SingleKey i: stepi" typ "lane 0) stepi"
see "stepi: a micro-cycle into BIPUSH's microcode" typ \
    "core 0 at MPC 0x010 (bipush1, mic1.mal:"
keys typ c
see "SingleKey c: continue" typ "lane 0) continue"
see "continue: at the breakpoint again, the even cores first" typ \
    "breakpoint 1 hit by cores 2, 4, 6, 8" 60
see "the focus moves to core 2" typ "switching focus to core 2"
keys typ p
see_re "an unbound key drops into the prompt, typed" typ \
    "^\(micdb core 2 warp 0 lane 2\) p$"
see "typing one command in SingleKey mode: the message line says so" typ \
    "SingleKey: one command (Enter runs it"
tm send-keys -t typ -l "rint 6 * 7"
keys typ Enter
see "the command typed from SingleKey mode runs" typ "= 42"
keys typ n
see "after it, SingleKey mode again: n is next" typ "lane 2) next"
screen typ | grep -qF "micdb (SingleKey)"
ok $? "the status line still shows SingleKey mode"
keys typ q
wait_gone typ "(SingleKey)"
ok $? "q leaves SingleKey mode: the status line says so"
tm send-keys -t typ -l "s"
see_re "then s is typed at the prompt" typ "^\(micdb core 2 warp 0 lane 2\) s$"
keys typ C-u
type_line typ "quit"
terminal_back typ "typing: quit" 0

# --- typeahead: the same commands as one burst during a continue --------------
# The run must still be going when the burst arrives: collatz on 65,536
# cores runs for minutes (OpenCL on the CPU) before its cores halt.

start ahead 200 60 --cores 65536 --stack-words 256 "$P/collatz.jas"
see "typeahead: started" ahead "65536: 65536 run" 60
type_line ahead "continue"
see "typeahead: the run goes" ahead "RUNNING" 60
burst=$(printf 'info cores\rbreak main#loop\rcontinue\rinfo divergence\rset level mic\rstepi\r')
screen ahead | grep -qF "RUNNING"
ok $? "typeahead: still running when the typing begins"
tm send-keys -t ahead -l "$burst"
see "typeahead: the 72 keys are kept while the run goes on" ahead \
    "(running: Ctrl-C or Esc stops it; 72 keys typed ahead) info cores; break"
screen ahead | grep -qF "RUNNING"
ok $? "typeahead: the keys did not stop the run"
keys ahead Escape
see_re "typeahead: after Esc stopped the run the lines ran, the last is stepi" \
    ahead "^\(micdb core [0-9]+ warp [0-9]+ lane [0-9]+\) stepi$" 120
see "typeahead: at the micro level now" ahead "level mic  step"
type_line ahead "focus cmd"
see "typeahead: focus on the transcript" ahead "> Command  "
transcript ahead "$TMP/ahead.log"
ok $? "typeahead: the transcript paged back to its start"
grep -qxF "interrupted" "$TMP/ahead.log"
ok $? "typeahead: Esc interrupted the run"
for l in "info cores" "break main#loop" "continue" "info divergence" \
    "set level mic" "stepi"; do
	grep -qxF "(micdb core 0 warp 0 lane 0) $l" "$TMP/ahead.log" ||
	    grep -qE "^\(micdb core [0-9]+ warp [0-9]+ lane [0-9]+\) $l\$" \
	    "$TMP/ahead.log"
	ok $? "typeahead: '$l' ran as typed"
done
grep -qF "65536 cores: " "$TMP/ahead.log"
ok $? "typeahead: info cores printed its census"
grep -qF "breakpoint 1 at 0x0010 (main#loop, collatz.jas:47)" "$TMP/ahead.log"
ok $? "typeahead: break main#loop set the breakpoint"
# one core or many, whichever reached the label first
grep -qE "^breakpoint 1 hit by cores? [0-9]" "$TMP/ahead.log"
ok $? "typeahead: continue ran to it"
grep -qF "program divergence, computed on the host" "$TMP/ahead.log"
ok $? "typeahead: info divergence printed its report"
grep -qF "level mic (was isa), layout micro" "$TMP/ahead.log"
ok $? "typeahead: set level mic switched"
! grep -qE "unknown command|ambiguous" "$TMP/ahead.log"
ok $? "typeahead: no line was cut or mixed up"
kill -TERM "$(cat "$TMP/ahead.pid")"
terminal_back ahead "typeahead: SIGTERM" 143

# --- divergence live on collatz, stopped by Ctrl-C ------------------------------

start div 120 40 --cores 65536 --stack-words 256 "$P/collatz.jas"
see "65,536 cores: started" div "65536: 65536 run"
type_line div "continue"
see "collatz runs" div "RUNNING" 60
see_re "warps diverge live: lanes on several paths in one warp" div \
    "^[> ] *[0-9]+ [A-Z.+]*A[A-Z.+]*B|^[> ] *[0-9]+ [A-Z.+]*B[A-Z.+]*A" 60
see_re "the summary's efficiency drops below 100%" div \
    "all: eff [0-9]?[0-9]%" 60
keys div C-c
see "Ctrl-C stops it" div "interrupted"
kill -TERM "$(cat "$TMP/div.pid")"
terminal_back div "SIGTERM" 143

# --- one core: frames by name, finish ---------------------------------------

start fib 100 30 "$P/fib.jas"
see_re "one core: the prompt is plain" fib '^\(micdb\)$'
type_line fib "break fib"
see "break on a method" fib "breakpoint 1 at"
type_line fib "continue"
see "it stops there" fib "breakpoint 1 hit by core 0"
type_line fib "continue"
see "stack pane: the recursive frames" fib "#1 "
see "stack pane: arguments by name" fib "in fib(n="
see "stack pane: link and saved PC/LV" fib "saved PC 0x"
type_line fib "delete"
type_line fib "finish"
see "finish returns a value" fib "value returned"
# Enter after x goes on after it (gdb), not the same bytes again
type_line fib "x/1xb 0"
see "x/1xb 0" fib "0x0000 <main>:  0x10"
keys fib Enter
see "Enter after x: the next byte" fib "0x0001 <main+1>:  0x00"
keys fib Enter
see "Enter again: the one after" fib "0x0002 <main+2>:  0x36"
kill -HUP "$(cat "$TMP/fib.pid")"
terminal_back fib "SIGHUP"

# --- output of the focused core ----------------------------------------------

start sum 100 30 --cores 8 "$P/parsum.jas"
see "parsum: started" sum "(micdb core 0 warp 0 lane 0)"
type_line sum "continue"
see "run to the end" sum "all cores halted" 60
see "output pane: the focused core's output" sum "total = 320400"
type_line sum "core 1"
see "output pane follows the focus" sum "partial sum of slice 2 = 25050"
kill -SEGV "$(cat "$TMP/sum.pid")"
terminal_back sum "a crash (SIGSEGV)"

# --- output after going back: the pane shows what the present cut produced ---

start hello 100 30 "$P/hello.jas"
see "hello: started" hello "(micdb)"
# (the output pane's text follows the rule '|'; the code pane shows the
# #print "Hello, world!\n" that writes it)
type_line hello "stepi 20"
see "ten characters printed" hello "|Hello, wor"
type_line hello "reverse-stepi 10"
see "reverse-stepi 10 reports" hello "went back 10 steps"
wait_gone hello "|Hello, wor"
ok $? "going back hides the output produced after the cut"
see "the output before the cut stays" hello "|Hello"
type_line hello "stepi 16"
see "forward again: the output is back and goes on" hello "|Hello, world!"
kill -HUP "$(cat "$TMP/hello.pid")"
terminal_back hello "SIGHUP"

# --- the micro level: switch, datapath, micro-steps, MPC breakpoints -----------

start mic 120 40 --cores 64 "$P/collatz.jas"
see "mic: started at the ISA level" mic "level isa  step 0"
type_line mic "step"
see "mic: one ISA step first" mic "PC * 0x0001"
type_line mic "set level mic"
see "set level mic: switched (no core is inside an instruction)" mic \
    "level mic (was isa), layout micro"
see "the status bar shows the level" mic "level mic  step"
see "layout micro: the datapath pane" mic "Datapath  core 0: the micro-instruction at MPC 0x002"
see "layout micro: the microcode pane" mic "Microcode  "
see "microcode pane: MPC marked at Main1" mic \
    " > 0x002 Main1: PC = PC + 1; fetch; goto (MBR)"
see "datapath: the header names MPC, label and MAL text" mic \
    "MPC 0x002 Main1: PC = PC + 1; fetch; goto (MBR)"
see_re "datapath: PC drives the B bus, is written by C, addresses the fetch" \
    mic "PC +0x0001 +B> <C addr"
see "datapath: the B bus value" mic "B bus  PC = 1"
see "datapath: the ALU function and result" mic "ALU    B+1 = 2"
see "datapath: the control bits" mic "F0F1 11 ENA 0 ENB 1 INVA 0 INC 1"
see "datapath: the C bus" mic "C bus  PC"
see "datapath: the memory operation" mic "memory FETCH"
see_re "datapath: next address by JMPC on MBR" mic \
    "next   0x000 JMPC\(MBR 0x[0-9a-f]{2}\) -> 0x0[0-9a-f]{2}"
see "registers: MIR at the micro level" mic "MIR "
see "registers: micro-cycles" mic "cyc"
type_line mic "stepi"
see "stepi micro-steps: the step is echoed" mic "lane 0) stepi"
see "micro-step: PC moved by Main1" mic "PC * 0x0002"
see "micro-step: the fetch Main1 issued is pending" mic \
    "pending FETCH of 0x0002: MBR at the end of this cycle"
see_re "micro-step: MPC changed" mic "MPC\* 0x0"
keys mic F6
see "F6 micro-steps too" mic "pending none"

# --- back to ISA: the question, both answers
type_line mic "set level isa"
see "set level isa mid-instruction asks first" mic \
    "run 64 cores to the end of their instruction and switch to isa? (y/n)"
type_line mic n
see "n: nothing changes" mic "level unchanged: still mic"
see "still at the micro level" mic "level mic  step"
type_line mic "set level isa"
see "asked again" mic "(y/n)"
type_line mic y
see "y: cores ran to their boundaries and the level switched" mic \
    "level isa (was mic), layout default"
see "the status bar says isa" mic "level isa  step"
see "layout default is back (warps)" mic "Warps  "
wait_gone mic "Datapath  core"
ok $? "the datapath pane is gone at the ISA level"

# --- MPC breakpoints by command and by key
type_line mic "set level mic"
see "to the micro level again" mic "level mic (was isa)"
type_line mic "break mpc Main1"
see_re "break mpc LABEL" mic "[Bb]reakpoint [0-9]+ at .*0x002"
see "the microcode pane marks it" mic "B> 0x002 Main1:"
type_line mic "continue"
see_re "continue stops at the MPC breakpoint" mic "[Bb]reakpoint [0-9]+ hit"
type_line mic "delete"
wait_gone mic "B> 0x002 Main1:"
ok $? "delete removes the mark"
type_line mic "focus microcode"
see "focus microcode" mic "> Microcode  "
keys mic Down
keys mic F2
see "F2 in the microcode pane: break mpc at the cursor" mic \
    "lane 0) break mpc 0x"
see_re "the mark is on the cursor row" mic "^B  0x0[0-9a-f]{2} "
keys mic F2
see "F2 again deletes it" mic "lane 0) delete "
_i=0
while [ "$_i" -lt 600 ] && screen mic | grep -qE '^B  0x0'; do
	sleep 0.05
	_i=$((_i + 1))
done
! screen mic | grep -qE '^B  0x0'
ok $? "the mark is gone"

# --- resize at the micro level
tm resize-window -t mic -x 80 -y 24
see "80x24 micro: the compact datapath" mic "B=PC ALU B+1="
see "80x24 micro: the microcode pane" mic "Microcode"
see "80x24 micro: registers" mic "Registers"
see "80x24 micro: the prompt" mic "(micdb core 0 warp 0 lane 0)"
keys mic F6
see "80x24 micro: micro-stepping still works" mic "pend FETCH"
tm resize-window -t mic -x 200 -y 60
see "200x60 micro: the full diagram again" mic "F0F1 "
type_line mic "layout micro nonsense"
see "errors at the prompt at the micro level" mic "unknown layout"
type_line mic "quit"
terminal_back mic "micro level: quit" 0

# --- PMIC: three compute units ---------------------------------------------------

start pm 120 40 --cores 4 "$P/collatz.jas"
see "pmic: started" pm "level isa  step 0"
type_line pm "set level pmic"
see "set level pmic" pm "level pmic (was isa), layout micro" 60
keys pm F6
see "pmic: a micro-step" pm "lane 0) stepi"
see_re "pmic datapath: CU0 with its inputs and result" pm "^CU0  A=[a-z0-9]+\([-0-9]+\) "
see_re "pmic datapath: CU1" pm "^CU1  "
see_re "pmic datapath: CU2" pm "^CU2  "
see_re "pmic datapath: the shared next address" pm "^next 0x[0-9a-f]{3}"
see_re "pmic datapath: G0 comes from the engine's PMIC state" pm "g0 -?[0-9]+"
type_line pm "quit"
terminal_back pm "pmic: quit" 0

# --- fork-join: forked and joining cores ------------------------------------

start fj 120 40 --fork-join --cores 4 "$P/forksum.jas"
see "fork-join: started" fj "level isa  step 0"
see "fork-join: the cores pane's legend adds forked" fj "B break f forked"
# typed at once: a line typed while the one before still runs waits for
# it (typeahead), so the continue comes after the breakpoint is set
type_line fj "break forksum.jas:159"
type_line fj "continue"
see "fork-join: core 0 reaches the IRETURN of its fork" fj \
    "breakpoint 1 hit by core 0"
type_line fj "stepi"
see "fork-join: back in main, core 0 waits at the join" fj \
    "core 0 (joining) at 0x0016"
see "fork-join: the cores pane counts forked and joining cores" fj \
    "4: 3 forked 1 join"
see "fork-join: one cell per core, j joining, f forked" fj "0 j<f f f"
see_re "fork-join: the registers pane shows the status" fj "st [ *] joining"
type_line fj "info cores"
see "fork-join: info cores counts them" fj "fork-join: 3 forked, 1 joining"
type_line fj "quit"
terminal_back fj "fork-join: quit" 0

done_testing
