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
done_testing
