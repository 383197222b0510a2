#!/bin/sh
# Every sample program runs with its expected output: programs/NAME.jas
# with NAME.expected, options from NAME.opts (one variant per line: line
# i>1 compares with NAME.expected.i) and stdin from NAME.input; a NAME
# without NAME.jas (the MIMD pair) is run from its options alone.  Output
# of multi-core runs is compared sorted by core (stable), since only each
# core's own line order is deterministic.  The assembled .ijvm must run
# exactly like the source.  The fault demos must fail with exit 1 and say
# why; the self-checking bench workloads must pass at 1 to 1,000 cores.
. "$(dirname "$0")/lib.sh"

for expected in "$PROGRAMS"/*.expected; do
	name=$(basename "$expected" .expected)
	sample "$name"
	variants=$(sample_variants "$name")
	i=1
	while [ "$i" -le "$variants" ]; do
		opts=$(sample_opts "$name" "$i")
		want=$expected
		[ "$i" -gt 1 ] && want=$expected.$i
		# shellcheck disable=SC2086
		(cd "$top_srcdir" && "$MICDB" run --engine ref $opts $jas \
			<"$input" >"$TMP/out" 2>"$TMP/err")
		rc=$?
		[ "$rc" -eq 0 ]
		ok $? "$name [$opts]: exits 0"
		[ "$rc" -eq 0 ] || diag "$(head -c 1000 "$TMP/err")"
		same_output "$TMP/out" "$want"
		ok $? "$name [$opts]: output matches $(basename "$want")"
		cmp -s "$TMP/out.sorted" "$TMP/want.sorted" ||
			diag "$(diff "$TMP/want.sorted" "$TMP/out.sorted" | head -20)"
		i=$((i + 1))
	done

	# The OpenCL engine gives the same output (first variant).
	opts=$(sample_opts "$name" 1)
	# shellcheck disable=SC2086
	(cd "$top_srcdir" && "$MICDB" run --engine opencl $opts $jas \
		<"$input" >"$TMP/out" 2>"$TMP/err")
	rc=$?
	[ "$rc" -eq 0 ] && same_output "$TMP/out" "$expected"
	ok $? "$name [$opts]: the OpenCL engine gives the expected output"
	[ "$rc" -eq 0 ] || diag "$(head -c 1000 "$TMP/err")"
	cmp -s "$TMP/out.sorted" "$TMP/want.sorted" ||
		diag "$(diff "$TMP/want.sorted" "$TMP/out.sorted" | head -20)" "$(head -c 500 "$TMP/err")"

	[ -n "$jas" ] || continue
	# The binary runs like the source (first variant).
	opts=$(sample_opts "$name" 1)
	"$IJVM_AS" -o "$TMP/$name.ijvm" "$jas" 2>"$TMP/err"
	ok $? "$name: assembles with ijvm-as"
	# shellcheck disable=SC2086
	(cd "$top_srcdir" && "$MICDB" run --engine ref $opts "$TMP/$name.ijvm" \
		<"$input" >"$TMP/out.bin" 2>/dev/null)
	(cd "$top_srcdir" && "$MICDB" run --engine ref $opts "$jas" \
		<"$input" >"$TMP/out.src" 2>/dev/null)
	cmp -s "$TMP/out.bin" "$TMP/out.src"
	ok $? "$name: .ijvm output equals .jas output"
done
for jas in "$PROGRAMS"/faults/*.jas; do
	name=$(basename "$jas" .jas)
	fault_opts "$jas"
	# shellcheck disable=SC2086
	"$MICDB" run --engine ref $opts "$jas" </dev/null >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ]
	ok $? "faults/$name: exits 1"
	same_output "$TMP/out" "${jas%.jas}.expected"
	ok $? "faults/$name: output before the fault is all there"
	grep -qF -- "$(cat "${jas%.jas}.expected-stderr")" "$TMP/err"
	ok $? "faults/$name: stderr names the fault"
	grep -qF -- "$(cat "${jas%.jas}.expected-stderr")" "$TMP/err" ||
		diag "$(cat "$TMP/err")"
	# The facts of the fault (index, length, depth) are read from the
	# state every engine leaves, so every ISA engine reports them alike.
	for engine in native opencl; do
		# shellcheck disable=SC2086
		"$MICDB" run --engine $engine $opts "$jas" </dev/null \
			>/dev/null 2>"$TMP/err.$engine"
		cmp -s "$TMP/err" "$TMP/err.$engine"
		ok $? "faults/$name: the $engine engine reports the same fault"
		cmp -s "$TMP/err" "$TMP/err.$engine" ||
			diag "$(diff "$TMP/err" "$TMP/err.$engine")"
	done
done

# The bench workloads check their own results, whatever the core count.
for w in uniform divergent barrier; do
	for n in 1 33 1000; do
		"$MICDB" run --engine ref --cores $n "$PROGRAMS/bench/$w.jas" \
			</dev/null >"$TMP/out" 2>"$TMP/err"
		rc=$?
		[ "$rc" -eq 0 ] && [ "$(grep -c ' OK' "$TMP/out")" -ge 1 ] &&
			! grep -q FAIL "$TMP/out"
		ok $? "bench/$w on $n cores checks out"
	done
done
"$MICDB" run --engine ref --cores 64 \
	--program "$PROGRAMS/bench/mimd0.jas:0-15" \
	--program "$PROGRAMS/bench/mimd1.jas:16-31" \
	--program "$PROGRAMS/bench/mimd2.jas:32-47" \
	--program "$PROGRAMS/bench/mimd3.jas:48-63" </dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] && ! grep -q FAIL "$TMP/out" && grep -q OK "$TMP/out"
ok $? "bench/mimd0-3 together on 64 cores check out"

[ "$tap_n" -ge 15 ]
ok $? "at least 15 checks ran (found the sample programs)"
done_testing
