#!/bin/sh
# The structure of the tree stays as doc/architecture.md draws it:
#
#   src/core <- {src/asm, src/model} <- src/host <- src/ocl (and
#            kernels/) <- src/dbg <- {ui, src/batch, src/dap} <- src/tools
#
# A file may include headers of its own layer or of a lower one, never
# of a higher one nor of a sibling (src/asm and src/model, the front
# ends; src/ocl and its kernels/ go together).  Inside a folder no two
# files call each other, directly or around a circle: each folder is a
# chain or a tree of files, as the folders are (found from the built
# objects' defined and undefined symbols).  Only src/ocl includes the
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

# Circles between the files of a folder, from the objects the build made
# of them: an undefined symbol of one file's object that another file of
# the folder defines is a call (or a use) from the one to the other.
# Every strongly connected component of two or more files is reported
# with one symbol of each use inside it.
# obj DIR NAME: the object of DIR/NAME.c in the build tree (as the
# library or micdb builds it; automake prefixes the objects of targets
# with their own flags), empty if it is not built.  Where several
# targets' objects are there, the newest: a build tree that outlived a
# change of which target compiles the file (micdb's objects, then
# libdbg.a's) keeps the old objects, whose calls are no longer the
# file's.
obj() {
	_c=
	[ -f "$top_builddir/$1/$2.o" ] && _c="$top_builddir/$1/$2.o"
	for o in "$top_builddir/$1/"*"-$2.o"; do
		[ -f "$o" ] || continue
		p=${o##*/}
		p=${p%"-$2.o"}
		# a target's prefix has no dash; tests' builds are not the
		# library's
		case $p in *-*|tests_*|ui_test_*) continue ;; esac
		_c="$_c $o"
	done
	[ -n "$_c" ] && ls -t $_c | head -n 1
}
command -v nm >/dev/null 2>&1 && have_nm=1 || have_nm=0
for d in src/core src/asm src/model src/host src/ocl src/dbg ui src/batch \
    src/dap src/tools; do
	: >"$TMP/syms"
	nobj=0
	for f in $(find "$d" -maxdepth 1 -name '*.c' ! -name 'test-*' | sort); do
		n=$(basename "$f" .c)
		o=$(obj "$d" "$n")
		[ -n "$o" ] && [ "$have_nm" -eq 1 ] || continue
		nobj=$((nobj + 1))
		nm -g --defined-only "$o" |
		    awk -v f="$n" 'NF == 3 { print "D", $3, f }' >>"$TMP/syms"
		nm -u "$o" | awk -v f="$n" '{ print "U", $2, f }' >>"$TMP/syms"
	done
	if [ "$nobj" -eq 0 ]; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n - no circles between the files of $d # SKIP its objects are not built (make first)"
		continue
	fi
	awk '
	$1 == "D" { def[$2] = def[$2] " " $3; node[$3] = 1; next }
	$1 == "U" { nu++; usym[nu] = $2; ufile[nu] = $3; node[$3] = 1 }
	END {
		for (i = 1; i <= nu; i++) {
			k = split(def[usym[i]], ds, " ")
			for (j = 1; j <= k; j++) {
				a = ufile[i]; b = ds[j]
				if (a == b || ((a, b) in edge))
					continue
				edge[a, b] = usym[i]; reach[a, b] = 1
			}
		}
		n = 0
		for (x in node)
			name[++n] = x
		for (m = 1; m <= n; m++)
			for (i = 1; i <= n; i++)
				if ((name[i], name[m]) in reach)
					for (j = 1; j <= n; j++)
						if ((name[m], name[j]) in reach)
							reach[name[i], name[j]] = 1
		for (i = 1; i <= n; i++) {
			a = name[i]
			if (a in done)
				continue
			comp = a; size = 1; done[a] = 1
			for (j = 1; j <= n; j++) {
				b = name[j]
				if (b != a && ((a, b) in reach) && ((b, a) in reach)) {
					comp = comp " " b; size++; done[b] = 1
				}
			}
			if (size < 2)
				continue
			k = split(comp, cs, " ")
			line = "circle of " k " files: " comp ":"
			for (x = 1; x <= k; x++)
				for (y = 1; y <= k; y++)
					if ((cs[x], cs[y]) in edge)
						line = line " " cs[x] ".c -> " cs[y] ".c (" edge[cs[x], cs[y]] ");"
			print line
		}
	}' "$TMP/syms" >"$TMP/circles"
	[ ! -s "$TMP/circles" ]
	ok $? "no circles between the files of $d"
	[ -s "$TMP/circles" ] && diag "$(sed "s|^|$d: |" "$TMP/circles")"
done

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
