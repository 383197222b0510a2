#!/bin/sh
# assemble(disassemble(x)) == x for every sample and bench program, with
# and without symbol blocks (without symbols the disassembler must invent
# every name and still reproduce the bytes).
. "$(dirname "$0")/lib.sh"

for jas in "$PROGRAMS"/*.jas "$PROGRAMS"/bench/*.jas; do
	[ -f "$jas" ] || continue
	name=$(basename "$jas" .jas)
	for sym in with without; do
		flag=""
		[ $sym = without ] && flag=--no-symbols
		# shellcheck disable=SC2086
		"$IJVM_AS" $flag -o "$TMP/a.ijvm" "$jas" 2>"$TMP/err" || {
			ok 1 "$name: assembles ($sym symbols)"
			continue
		}
		rm -f "$TMP/b.ijvm"
		"$IJVM_DIS_ASAN" "$TMP/a.ijvm" >"$TMP/a.jas" 2>"$TMP/err"
		ok $? "$name: disassembles ($sym symbols)"
		# shellcheck disable=SC2086
		"$IJVM_AS" $flag -o "$TMP/b.ijvm" "$TMP/a.jas" 2>"$TMP/err"
		ok $? "$name: disassembly assembles ($sym symbols)"
		if [ $sym = with ]; then
			# symbols carry generated names: compare cp and text only
			"$IJVM_AS" --no-symbols -o "$TMP/a.ijvm" "$jas"
			"$IJVM_AS" --no-symbols -o "$TMP/b.ijvm" "$TMP/a.jas"
		fi
		cmp -s "$TMP/a.ijvm" "$TMP/b.ijvm"
		ok $? "$name: round trip is byte-identical ($sym symbols)"
	done
done

# Binaries found by tests/fuzz (their symbols are not an assembler's: two
# labels of one method with one name, constants called by INVOKEVIRTUAL,
# stray WIDEs): the disassembly assembles, to the same text, or the
# disassembler says why it cannot write one as .jas.
for bin in "$top_srcdir"/tests/fuzz/seeds/ijvm/crash-*; do
	name=fuzz/$(basename "$bin")
	case $name in
	*slots-over-65536)
		# more argument and local slots than .jas can declare: refused
		! "$IJVM_DIS_ASAN" "$bin" >"$TMP/f.jas" 2>"$TMP/err" &&
		    grep -q "more than the 65536 slots" "$TMP/err"
		ok $? "$name: refused, saying why"
		continue ;;
	esac
	"$IJVM_DIS_ASAN" "$bin" >"$TMP/f.jas" 2>"$TMP/err" &&
	    "$IJVM_AS" -o "$TMP/f.ijvm" "$TMP/f.jas" 2>"$TMP/err"
	ok $? "$name: disassembles, and its disassembly assembles"
	[ -s "$TMP/err" ] && diag "$(head -3 "$TMP/err")"
done
done_testing
