#!/bin/sh
# The man pages render cleanly (no groff or man warnings) and document
# every option that --help shows.
. "$(dirname "$0")/lib.sh"

for page in micdb ijvm-as ijvm-dis; do
	src=$top_srcdir/man/$page.1
	if ! command -v man >/dev/null 2>&1; then
		echo "ok 1 # SKIP man is not installed"
		echo "1..1"
		exit 0
	fi
	MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$src" >"$TMP/out" 2>"$TMP/err"
	[ $? -eq 0 ] && [ ! -s "$TMP/err" ] && [ -s "$TMP/out" ]
	ok $? "$page.1 renders without warnings"
	[ -s "$TMP/err" ] && diag "$(head -5 "$TMP/err")"
done
# every long option of the --help texts appears in the pages
for opt in $("$MICDB" run --help | grep -o -- '--[a-z-]*' | sort -u); do
	grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$top_srcdir/man/micdb.1" ||
		grep -q -- "$opt" "$top_srcdir/man/micdb.1"
	ok $? "micdb.1 documents $opt"
done
for opt in $("$IJVM_AS" --help | grep -o -- '--[a-z-]*' | sort -u); do
	grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$top_srcdir/man/ijvm-as.1"
	ok $? "ijvm-as.1 documents $opt"
done
done_testing
