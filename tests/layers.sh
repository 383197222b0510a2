#!/bin/sh
# The structure of the tree stays as doc/architecture.md draws it:
#
#   src/core <- {src/asm, src/model} <- src/host <- src/ocl (and
#            kernels/) <- src/dbg <- {ui, src/batch, src/dap} <- src/tools
#
# A file may include headers of its own layer or of a lower one, never
# of a higher one nor of a sibling (src/asm and src/model, the front
# ends; src/ocl and its kernels/ go together).  Only src/ocl includes the
# OpenCL headers and only ui the terminal's.  No code picks behaviour
# by comparing an engine's name (engine.h says what differs between
# engines), no source file outgrows what a reader can hold (1,200 lines,
# the assemblers 1,800), the environment variables are few and all in
# micdb(1), the code cites the project's own documents in doc/, and
# measurement history lives in doc/performance.md, not in comments.
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 1

# rank DIR: the layer of a directory; siblings share a rank
rank() {
	case $1 in
	src/core) echo 0 ;;
	src/asm|src/model) echo 1 ;;
	src/host) echo 2 ;;
	src/ocl|kernels) echo 3 ;;
	src/dbg) echo 4 ;;
	ui|src/batch|src/dap) echo 5 ;;
	src/tools) echo 6 ;;
	*) echo -1 ;;
	esac
}

dirs="src/core src/asm src/model src/host src/ocl kernels src/dbg ui src/batch
    src/dap src/tools"
sources=$(for d in $dirs; do
	[ -d "$d" ] && find "$d" -maxdepth 1 \( -name '*.c' -o -name '*.h' \
	    -o -name '*.cl' -o -name '*.def' \) | grep -v '/test-'
done | sort)

# Where each project header lives (header names are unique in the tree).
for d in $dirs; do
	[ -d "$d" ] && find "$d" -maxdepth 1 \( -name '*.h' -o -name '*.def' \) \
	    -printf '%f %h\n'
done | sort >"$TMP/headers"

bad=0
: >"$TMP/up"
for f in $sources; do
	fd=$(dirname "$f")
	fr=$(rank "$fd")
	grep -o '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"' "$f" |
	    sed 's/.*"\(.*\)"/\1/' | while read -r h; do
		hd=$(awk -v h="$(basename "$h")" '$1 == h { print $2 }' \
		    "$TMP/headers")
		[ -n "$hd" ] || continue
		hr=$(rank "$hd")
		if [ "$hr" -gt "$fr" ] || { [ "$hr" -eq "$fr" ] &&
		    [ "$hd" != "$fd" ] && [ "$fr" -ne 3 ]; }; then
			echo "$f includes $hd/$h" >>"$TMP/up"
		fi
	done
done
[ ! -s "$TMP/up" ]
ok $? "no file includes a header of a higher layer or a sibling"
[ -s "$TMP/up" ] && diag "$(cat "$TMP/up")"

grep -ln '#[[:space:]]*include[[:space:]]*<CL/' $sources |
    grep -v '^src/ocl/' >"$TMP/cl"
[ ! -s "$TMP/cl" ]
ok $? "only src/ocl includes the OpenCL headers"
[ -s "$TMP/cl" ] && diag "$(cat "$TMP/cl")"

grep -lnE '#[[:space:]]*include[[:space:]]*<(n?curses|readline/)' $sources |
    grep -v '^ui/' >"$TMP/curses"
[ ! -s "$TMP/curses" ]
ok $? "only ui includes curses and readline"
[ -s "$TMP/curses" ] && diag "$(cat "$TMP/curses")"

# Behaviour picked by an engine's name: any comparison with ops->name
# (the name is for messages; engine.h's kind and level say what it is).
grep -nE 'str(n)?(case)?cmp\([^;]*ops->name|ops->name[[:space:]]*(==|!=)|strstr\([^;]*ops->name' \
    $sources >"$TMP/names"
[ ! -s "$TMP/names" ]
ok $? "no code compares engine names"
[ -s "$TMP/names" ] && diag "$(cat "$TMP/names")"

# Sizes, the tests' sources included.
: >"$TMP/big"
for f in $sources $(find tests ui -maxdepth 1 -name '*.c' | sort); do
	n=$(wc -l <"$f")
	case $(basename "$f") in
	asm.c|mal.c|pmc.c) limit=1800 ;;
	*) limit=1200 ;;
	esac
	[ "$n" -le "$limit" ] || echo "$f: $n lines (at most $limit)" \
	    >>"$TMP/big"
done
[ ! -s "$TMP/big" ]
ok $? "no source file over 1,200 lines (the assemblers 1,800)"
[ -s "$TMP/big" ] && diag "$(cat "$TMP/big")"

# The environment a user can set: few variables, each in micdb(1).
grep -ohE 'getenv\("MICDB_[A-Z0-9_]+"\)' $sources |
    sed 's/getenv("\(.*\)")/\1/' | sort -u >"$TMP/env"
n=$(wc -l <"$TMP/env")
[ "$n" -le 6 ]
ok $? "at most 6 MICDB_* environment variables ($n)"
[ "$n" -le 6 ] || diag "$(cat "$TMP/env")"
while read -r v; do
	grep -q "$(echo "$v" | sed 's/_/\\\\*_/g')" man/micdb.1 ||
	    grep -q "$v" man/micdb.1
	ok $? "micdb(1) documents $v"
done <"$TMP/env"

# Documents: the code cites doc/, which holds every document it cites,
# and nothing points outside the repository.
grep -noE '[A-Za-z./]*\<(ijvm|mic1|manycore|debugger|pmic|bench|architecture|performance)\.md' \
    $sources man/*.1 README.md | grep -v ':doc/' >"$TMP/cite"
[ ! -s "$TMP/cite" ]
ok $? "the code cites the documents in doc/"
[ -s "$TMP/cite" ] && diag "$(head -20 "$TMP/cite")"
: >"$TMP/missing"
grep -ohE 'doc/[a-z0-9-]+\.md' $sources man/*.1 README.md | sort -u |
    while read -r d; do
	[ -f "$d" ] || echo "$d" >>"$TMP/missing"
done
[ ! -s "$TMP/missing" ]
ok $? "every cited document exists"
[ -s "$TMP/missing" ] && diag "$(cat "$TMP/missing")"
grep -nE '\.\./shared|shared/spec' $sources man/*.1 README.md doc/*.md \
    >"$TMP/outside" 2>/dev/null
[ ! -s "$TMP/outside" ]
ok $? "nothing refers to files outside the repository"
[ -s "$TMP/outside" ] && diag "$(cat "$TMP/outside")"

# Measurement history belongs in doc/performance.md.
grep -nE '[Mm]easured and not kept|[Rr]ound (two|three|four|five|six|seven)|[0-9] ?-> ?[0-9.]+ ?(ms|G|M)\b' \
    $sources >"$TMP/diary"
[ ! -s "$TMP/diary" ]
ok $? "no measurement diaries in the code"
[ -s "$TMP/diary" ] && diag "$(head -20 "$TMP/diary")"

done_testing
