#!/bin/sh
# The documents say what is true (issue 29), and this test keeps them so:
#
# 1. every command of README.md's ```sh blocks and of programs/README.md's
#    indented blocks runs, from a copy of the repository root, and exits
#    as README.md documents (0: everything they show works); one that
#    opens the screen runs under tmux, shows its first screen and quits;
# 2. every option that `micdb --help`, `micdb run --help`, `micdb bench
#    --help` (and the --help of --batch and of bench debugger) print, every
#    command and subcommand that `help` lists in the debugger, and every
#    request the DAP front end handles has its entry in micdb(1).  The
#    lists come from the programs' own output (and, for DAP, from the
#    request table of src/dap), so a new command or option needs its man
#    entry and nothing here;
# 3. every file that doc/*.md, README.md, the man pages or a comment of
#    src/, ui/, kernels/ or tests/ names exists, and doc/architecture.md
#    has a row for every file under src/, ui/ and kernels/.
. "$(dirname "$0")/lib.sh"

MAN=$top_srcdir/man/micdb.1
# every command gets this long, however loaded the machine (a bound on a
# hang, not a timing)
LIMIT=300

# ---- 1. the commands of the READMEs ----------------------------------------

# The documented command lines use the paths of a build in the source tree
# (src/micdb, programs/, microcode/) or, after make install, the names on
# the PATH (micdb, ijvm-as): a directory that has both, so that what the
# commands write (fib.ijvm, demo.cmd) stays in $TMP.
root=$TMP/root
mkdir -p "$root/bin"
ln -s "$top_builddir/src" "$root/src"
ln -s "$top_srcdir/programs" "$root/programs"
ln -s "$top_srcdir/microcode" "$root/microcode"
for t in micdb ijvm-as ijvm-dis mic1-as pmic-cc; do
	ln -s "$top_builddir/src/$t" "$root/bin/$t"
done

# The command lines: README.md's ```sh blocks, programs/README.md's
# indented code blocks (4 spaces or more after a blank line), one per
# line as "FILE:LINE:COMMAND".
awk '/^```/ { if (inblk) { inblk = 0; next } if ($0 ~ /^```sh/) inblk = 1; next }
    inblk && NF && !/^[[:space:]]*#/ { print FILENAME ":" FNR ":" $0 }' "$top_srcdir/README.md" \
    >"$TMP/cmds"
awk '/^[[:space:]]*$/ { blank = 1; next }
    /^    / && (blank || inblk) { inblk = 1; blank = 0; sub(/^ +/, "");
	print FILENAME ":" FNR ":" $0; next }
    { inblk = 0; blank = 0 }' "$top_srcdir/programs/README.md" >>"$TMP/cmds"
[ "$(wc -l <"$TMP/cmds")" -ge 20 ]
ok $? "the READMEs show command lines ($(wc -l <"$TMP/cmds") found)"

have_tmux=0
if command -v tmux >/dev/null 2>&1; then
	have_tmux=1
	# tui-lib.sh's tmux helpers (it replaces lib.sh's EXIT trap with
	# one that also ends its tmux server)
	. "$(dirname "$0")/tui-lib.sh"
fi

# interactive LINE: status 0 when LINE opens the screen: micdb with a
# program and no subcommand, no script, no --dap, no --help
interactive() {
	set -- $1
	case $1 in micdb|src/micdb) ;; *) return 1 ;; esac
	shift
	for w in "$@"; do
		case $w in
		run|bench|devices|--batch|-x|--dap|--help|-h|--version|'|')
			return 1 ;;
		esac
	done
	return 0
}

n=0
while IFS= read -r rec; do
	where=${rec%%:*}
	rest=${rec#*:}
	where=${where#"$top_srcdir"/}:${rest%%:*}
	line=${rest#*:}
	# the comment after the command (a '#' after a blank)
	cmd=$(printf '%s\n' "$line" | sed 's/[[:space:]]\{1,\}#.*$//')
	case $cmd in *[![:space:]]*) ;; *) continue ;; esac  # a comment line
	# for the TAP lines, whose echo reads backslashes (printf's \n)
	show=$(printf '%s\n' "$cmd" | sed 's/\\/\\\\/g')
	n=$((n + 1))
	case $cmd in
	./quickstart*)
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $where: '$show': it installs packages," \
		    "builds and runs this very suite"
		continue ;;
	sudo*|apt-get*|*'make install'*)
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $where: '$show' installs into the system"
		continue ;;
	*NAME*|*'['*']'*)
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $where: '$show' is a template" \
		    "(tests/programs.sh runs it for every sample)"
		continue ;;
	esac
	if interactive "$cmd"; then
		if [ $have_tmux = 0 ]; then
			tap_n=$((tap_n + 1))
			echo "ok $tap_n # SKIP $where: '$show' needs tmux"
			continue
		fi
		set -- $cmd
		shift
		# the screen's first frame (the prompt), then quit
		(cd "$root" && start "doc$n" 120 40 "$@") </dev/null
		see "$where: '$show' shows its first screen" "doc$n" \
		    "(micdb core 0" $LIMIT
		type_line "doc$n" quit </dev/null
		terminal_back "doc$n" "$where: '$show'" 0
		tm kill-session -t "doc$n" 2>/dev/null
		continue
	fi
	(cd "$root" && PATH=$root/bin:$PATH timeout $LIMIT sh -c "$cmd") \
	    >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	err=$TMP/err
	expect_rc 0 "$where: '$show'"
	# a command that prints must print something
	case $cmd in
	*' run '*|*' --batch '*|*ijvm-dis*)
		[ -s "$TMP/out" ]
		ok $? "$where: '$show' prints what the cores (or the tool) write" ;;
	esac
done <"$TMP/cmds"

# The walkthrough of README.md quotes the stop lines the debugger prints
# ("breakpoint 1 hit by ..."): each is what --batch prints for the same
# steps (its two machines: collatz on 1,024 cores, then on 64 at the
# micro level).
printf 'step\nstep\nbreak loop core 8-15\ncontinue\ncore 12\ndelete\nbreak half core 12\ncontinue\n' \
    >"$TMP/walk1.cmd"
printf 'step\nstep\nset level mic\nbreak mpc dup1\ncontinue\n' >"$TMP/walk2.cmd"
{
	"$MICDB" --batch "$TMP/walk1.cmd" --cores 1024 \
	    "$top_srcdir/programs/collatz.jas"
	"$MICDB" --batch "$TMP/walk2.cmd" --cores 64 \
	    "$top_srcdir/programs/collatz.jas"
} >"$TMP/walk.out" 2>&1 </dev/null
grep -oE '^`?breakpoint [0-9]+ hit by [^`]*' "$top_srcdir/README.md" |
    sed 's/^`//' >"$TMP/walk.quoted"
[ "$(wc -l <"$TMP/walk.quoted")" -ge 2 ]
ok $? "README.md's walkthrough quotes stop lines"
while IFS= read -r q; do
	grep -qxF -- "$q" "$TMP/walk.out"
	ok $? "README.md's walkthrough: '$q' is what micdb prints"
done <"$TMP/walk.quoted"

# The walkthrough's question at set level isa is the one tests/tui.sh
# sees on the screen.
q=$(tr '\n' ' ' <"$top_srcdir/README.md" |
    grep -o 'asks `[^`]*(y/n)`' | sed 's/^asks `//; s/`$//')
[ -n "$q" ] && grep -qF -- "\"$q\"" "$top_srcdir/tests/tui.sh"
ok $? "README.md's walkthrough quotes the question the screen asks ('$q')"

# ---- 2. every option, command and request has its man entry ----------------

# man/micdb.1's entries: "SECTION|SUBSECTION|TEXT" for every .TP tag and
# every .SS heading, fonts and escapes removed
awk '
function plain(s) {
	gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); gsub(/\\\(dq/, "", s)
	gsub(/\\&/, "", s); gsub(/"/, "", s)
	sub(/^\.(B|I|BR|RB|BI|IB|IR|RI) /, "", s)
	return s
}
/^\.SH / { sec = plain(substr($0, 5)); sub_ = ""; next }
/^\.SS / { sub_ = plain(substr($0, 5)); print sec "|" sub_ "|" sub_; next }
/^\.TP/ { tag = 1; next }
tag { tag = 0; print sec "|" sub_ "|" plain($0) }' "$MAN" >"$TMP/tags"

# has_entry SECTION-ERE PHRASE: a tag of a matching "SECTION|SUBSECTION"
# holds PHRASE as whole words (words are letters, digits and '-')
has_entry() {
	awk -F'|' -v sec="$1" -v w="$2" '
	$1 "|" $2 ~ sec {
		t = " " $3 " "
		gsub(/[^A-Za-z0-9-]/, " ", t)
		gsub(/  +/, " ", t)
		if (index(t, " " w " ")) found = 1
	}
	END { exit !found }' "$TMP/tags"
}

# options OUTPUT: the options a --help text names, long and short
options() {
	grep -oE -- '(^|[^A-Za-z0-9-])--?[a-z][a-z-]*' "$1" |
	    sed 's/^[^-]*//' | grep -vE -- '^-[a-z][a-z]' | sort -u
}

# where each --help documents its options
check_help() {	# DESCRIPTION SECTION-ERE COMMAND...
	d=$1 s=$2
	shift 2
	"$@" >"$TMP/help" 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ -s "$TMP/help" ]
	ok $? "$d prints its help (exit 0)"
	for o in $(options "$TMP/help"); do
		has_entry "$s" "$o"
		ok $? "micdb(1) has an entry for $o of $d"
	done
}
check_help "micdb --help" '^OPTIONS\|' "$MICDB" --help
check_help "micdb run --help" '^OPTIONS\|' "$MICDB" run --help
check_help "micdb --batch --help" '^OPTIONS\|' "$MICDB" --batch x --help
check_help "micdb PROGRAM --help" '^OPTIONS\|' "$MICDB" x --help
check_help "micdb bench --help" '\|micdb bench$' "$MICDB" bench --help
check_help "micdb bench debugger --help" '\|micdb bench debugger$' \
    "$MICDB" bench debugger --help

# the ways to call micdb that its usage lists have a subsection each
"$MICDB" --help | sed -n 's/^ *\(usage: \)\{0,1\}micdb \([a-z-][a-z-]*\).*/\2/p' |
    grep -v '^-\{0,1\}-version$\|^-\{0,1\}-help$' | sort -u >"$TMP/subs"
[ -s "$TMP/subs" ]
ok $? "micdb --help lists its commands"
while read -r c; do
	grep -qE "^DESCRIPTION\|micdb $c( |\|)" "$TMP/tags"
	ok $? "micdb(1) has a subsection for micdb $c"
done <"$TMP/subs"

# The debugger's commands, as `help` lists them ("  NAME (ALIASES) what"),
# and the subcommands of those whose help lists some.
printf 'help\n' >"$TMP/help.cmd"
"$MICDB" --batch "$TMP/help.cmd" "$PROGRAMS/hello.jas" >"$TMP/help" 2>&1
ok $? "help in the debugger (exit 0)"
sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' "$TMP/help" | sort -u >"$TMP/commands"
[ "$(wc -l <"$TMP/commands")" -ge 20 ]
ok $? "help lists the commands ($(wc -l <"$TMP/commands"))"
for c in $(cat "$TMP/commands"); do
	has_entry '^(COMMANDS|SCREEN COMMANDS)\|' "$c"
	ok $? "micdb(1) COMMANDS has an entry for $c"
	printf 'help %s\n' "$c" >"$TMP/help.cmd"
	"$MICDB" --batch "$TMP/help.cmd" "$PROGRAMS/hello.jas" >"$TMP/sub" 2>&1
	sed -n '/^subcommands:/,$s/^  \([a-z][a-z-]*\) .*/\1/p' "$TMP/sub" |
	    while read -r sc; do
		# "CMD SUB ..."; show's settings are set's, under set
		if has_entry '^COMMANDS\|' "$c $sc" || { [ "$c" = show ] &&
		    has_entry '^COMMANDS\|' "set $sc"; }; then
			echo "0 $c $sc"
		else
			echo "1 $c $sc"
		fi
	    done >>"$TMP/subs-ok"
done
[ -s "$TMP/subs-ok" ]
ok $? "help CMD lists subcommands for some commands"
while read -r st c sc; do
	ok "$st" "micdb(1) COMMANDS has an entry for $c $sc"
done <"$TMP/subs-ok"

# The requests the adapter answers: each strcmp(cmd, "...") of src/dap and
# the names of its table of known requests.
{
	grep -ohE 'strcmp\(cmd, "[A-Za-z]+"\)' "$top_srcdir"/src/dap/*.c |
	    sed 's/.*"\(.*\)".*/\1/'
	awk '/^known\(/ { k = 1 } k && /};/ { k = 0 } k' \
	    "$top_srcdir/src/dap/dap.c" | grep -oE '"[A-Za-z]+"' | tr -d '"'
} | sort -u >"$TMP/requests"
[ "$(wc -l <"$TMP/requests")" -ge 20 ]
ok $? "the adapter's request table ($(wc -l <"$TMP/requests") requests)"
# the DEBUG ADAPTER section, with fonts and escapes removed
sed -n '/^\.SH DEBUG ADAPTER/,/^\.SH [^D]/p' "$MAN" >"$TMP/dap.1"
for r in $(cat "$TMP/requests"); do
	grep -qE "^\.(B|BR|TP) +$r( |$)|\\\\fB$r\\\\f" "$TMP/dap.1"
	ok $? "micdb(1) DEBUG ADAPTER has an entry for the request $r"
done

# ---- 3. every file the documents and comments name exists ------------------

cd "$top_srcdir" || exit 1
if [ -d .git ] || [ -f .git ]; then
	git ls-files >"$TMP/files"
else
	find . -type f ! -path '*/node_modules/*' ! -path './tests/tmp/*' |
	    sed 's|^\./||' >"$TMP/files"
fi
sed 's|.*/||' "$TMP/files" | sort -u >"$TMP/basenames"

# comments FILE: "FILE:LINE:" and the text of each comment line
c_comments() {
	awk '{
		line = $0; out = ""; i = 1; n = length(line)
		while (i <= n) {
			if (incomment) {
				j = index(substr(line, i), "*/")
				if (j == 0) { out = out " " substr(line, i); break }
				out = out " " substr(line, i, j - 1)
				i += j + 1; incomment = 0; continue
			}
			c = substr(line, i, 1)
			if (instr != "") {
				if (c == "\\") { i += 2; continue }
				if (c == instr) instr = ""
				i++; continue
			}
			two = substr(line, i, 2)
			if (two == "/*") { incomment = 1; i += 2; continue }
			if (two == "//") { out = out " " substr(line, i + 2); break }
			if (c == "\"" || c == "'\''") instr = c
			i++
		}
		instr = ""
		if (out != "") print FILENAME ":" FNR ": " out
	}' "$1"
}
sh_comments() {
	awk '/^[[:space:]]*#/ && !/^#!/ { sub(/^[[:space:]]*#/, "");
		print FILENAME ":" FNR ": " $0; next }
	    / # / { sub(/.* # /, ""); print FILENAME ":" FNR ": " $0 }' "$1"
}
{
	grep -E '^(src|ui|kernels|tests)/' "$TMP/files" |
	    grep -E '\.(c|h|cl|def|js)$' | while read -r f; do
		c_comments "$f"
	done
	grep -E '^(src|ui|kernels|tests)/' "$TMP/files" |
	    grep -E '\.(sh|mk)$' | while read -r f; do
		sh_comments "$f"
	done
	for f in doc/*.md README.md programs/README.md man/*.1; do
		awk '{ print FILENAME ":" FNR ": " $0 }' "$f"
	done
} >"$TMP/text"
# the names: a word that ends in a source or document suffix
grep -oE '^[^ ]*: |[A-Za-z0-9_./-]*[A-Za-z0-9_]\.(c|h|md|sh|mk|cl|def)([^A-Za-z0-9_]|$)' \
    "$TMP/text" | awk '/^[^ ]*: $/ { loc = $0; next }
    { sub(/[^A-Za-z0-9_]$/, ""); print loc $0 }' >"$TMP/names"
[ "$(wc -l <"$TMP/names")" -ge 100 ]
ok $? "the documents and comments name files ($(wc -l <"$TMP/names"))"
: >"$TMP/missing"
while read -r loc w; do
	case $w in
	*NAME*|*DIR/*|*FILE*) continue ;;	# a placeholder
	esac
	p=${w#./}
	p=${p#/}
	d=$(dirname "${loc%%:*}")
	grep -qxF "$p" "$TMP/files" && continue
	grep -qxF "$d/$p" "$TMP/files" && continue
	case $p in
	*/*) grep -qE "/$(printf %s "$p" | sed 's/[.]/[.]/g')\$" \
	    "$TMP/files" && continue ;;
	*) grep -qxF "$p" "$TMP/basenames" && continue ;;
	esac
	# a system header (CL/cl.h, sys/mman.h), not a file of micdb's
	case $p in
	*.h) for h in /usr/include/$p /usr/include/*/$p \
	    /usr/local/include/$p; do
		[ -f "$h" ] && continue 2
	done ;;
	esac
	echo "$loc $w" >>"$TMP/missing"
done <"$TMP/names"
[ ! -s "$TMP/missing" ]
ok $? "every file that a document or a comment names exists"
[ -s "$TMP/missing" ] && diag "$(sort -u "$TMP/missing")"

# doc/architecture.md's table of every file: a row names its first file
# with its directory and the others of the same directory by name
sed -n '/^## Every file/,/^## /p' doc/architecture.md |
    sed -n 's/^| \(`[^|]*`\) |.*/\1/p' | tr -d '`' | awk -F', ' '{
	d = $1; sub(/\/[^\/]*$/, "", d)
	for (i = 1; i <= NF; i++) print (index($i, "/") ? $i : d "/" $i)
    }' | sort -u >"$TMP/rows"
grep -E '^(src|ui|kernels)/' "$TMP/files" | grep -E '\.(c|h|cl|def|mk)$' |
    sort -u >"$TMP/tree"
comm -23 "$TMP/tree" "$TMP/rows" >"$TMP/norow"
[ ! -s "$TMP/norow" ]
ok $? "doc/architecture.md has a row for every file under src/, ui/, kernels/"
[ -s "$TMP/norow" ] && diag "no row: $(cat "$TMP/norow")"
comm -13 "$TMP/tree" "$TMP/rows" >"$TMP/gone"
[ ! -s "$TMP/gone" ]
ok $? "doc/architecture.md's table names no file that is not there"
[ -s "$TMP/gone" ] && diag "no such file: $(cat "$TMP/gone")"

done_testing
