#!/bin/sh
# The editor grammars (editors/vscode/syntaxes) on the sample programs:
# tests/dap/grammars.test.js runs vscode-tmgrammar-test on the assertion
# files tests/grammars/*.test.* (excerpts of programs/ and microcode/) and
# tokenizes every .jas, .mal and .pm of the tree with vscode-textmate, as
# VS Code does, under mocha's TAP reporter.  The npm packages are those of
# tests/dap/package-lock.json (./quickstart check installs them; so does
# this test when they are missing).  Skipped only when node is missing.
. "$(dirname "$0")/lib.sh"

. "$top_srcdir/tests/dap/need-npm.sh"
cd "$dap_dir" && TOP_SRCDIR=$top_srcdir exec node node_modules/mocha/bin/mocha.js \
    --reporter tap --timeout 60000 grammars.test.js
