#!/bin/sh
# micdb --dap through a real DAP client: tests/dap/dap.test.js drives
# src/micdb --dap (and, for bad requests and bad bytes, the ASan build
# tests/micdb-asan) with @vscode/debugadapter-testsupport, the library
# VS Code's own debug adapters are tested with, under mocha's TAP
# reporter.  The npm packages are pinned by tests/dap/package-lock.json;
# ./quickstart check installs them (npm ci), and so does this test when
# they are missing.  Skipped only when node is not installed.
. "$(dirname "$0")/lib.sh"

dir=$top_srcdir/tests/dap
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "1..0 # SKIP node and npm are not installed (./quickstart check installs them)"
	exit 0
fi
if [ ! -d "$dir/node_modules/@vscode/debugadapter-testsupport" ] ||
    [ ! -d "$dir/node_modules/mocha" ]; then
	if ! (cd "$dir" && npm ci --no-audit --no-fund --prefer-offline \
	    --loglevel=error) >"$TMP/npm" 2>&1; then
		echo "not ok 1 - npm ci in tests/dap (the DAP client library)"
		diag "$(tail -20 "$TMP/npm")"
		echo "1..1"
		exit 1
	fi
fi
# mocha's TAP reporter writes the plan and one line per test; node's own
# warnings go to stderr, which the log keeps
cd "$dir" && MICDB=$MICDB MICDB_ASAN=$MICDB_ASAN TOP_SRCDIR=$top_srcdir \
    exec node node_modules/mocha/bin/mocha.js --reporter tap \
    --timeout 60000 dap.test.js
