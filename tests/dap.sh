#!/bin/sh
# micdb --dap through a real DAP client: tests/dap/dap.test.js drives
# src/micdb --dap, then the same sessions on the ASan/UBSan build
# tests/micdb-asan, with @vscode/debugadapter-testsupport, the library
# VS Code's own debug adapters are tested with, under mocha's TAP
# reporter.  The npm packages are pinned by tests/dap/package-lock.json;
# ./quickstart check installs them (npm ci), and so does this test when
# they are missing.  Skipped only when node is not installed.
. "$(dirname "$0")/lib.sh"

. "$top_srcdir/tests/dap/need-npm.sh"
# mocha's TAP reporter writes the plan and one line per test; node's own
# warnings go to stderr, which the log keeps
cd "$dap_dir" && MICDB=$MICDB MICDB_ASAN=$MICDB_ASAN TOP_SRCDIR=$top_srcdir \
    exec node node_modules/mocha/bin/mocha.js --reporter tap \
    --timeout 60000 dap.test.js
