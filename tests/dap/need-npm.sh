# Sourced by tests/dap.sh and tests/grammars.sh (after tests/lib.sh): make
# sure node and the npm packages of tests/dap/package-lock.json are there.
# Without node the test is skipped (a TAP SKIP plan); missing packages are
# installed with npm ci, under a lock, because make -j runs both tests at
# once.  Sets $dap_dir.

dap_dir=$top_srcdir/tests/dap
if ! command -v node >/dev/null 2>&1; then
	echo "1..0 # SKIP node is not installed (./quickstart check installs it)"
	exit 0
fi
need_npm_ci() {
	for p in mocha @vscode/debugadapter-testsupport vscode-tmgrammar-test \
	    vscode-textmate vscode-oniguruma; do
		[ -f "$dap_dir/node_modules/$p/package.json" ] || return 0
	done
	return 1
}
if need_npm_ci; then
	mkdir -p "$top_builddir/tests/tmp"
	(
		flock 9
		if need_npm_ci; then
			cd "$dap_dir" && npm ci --no-audit --no-fund \
			    --prefer-offline --loglevel=error
		fi
	) 9>"$top_builddir/tests/tmp/npm.lock" >"$TMP/npm" 2>&1
	if need_npm_ci; then
		echo "not ok 1 - npm ci in tests/dap (the pinned npm packages)"
		diag "$(tail -20 "$TMP/npm")"
		echo "1..1"
		exit 1
	fi
fi
