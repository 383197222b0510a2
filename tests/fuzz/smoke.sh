#!/bin/sh
# make check's smoke of the libFuzzer targets: every seed and every past
# finding (tests/fuzz/seeds/) once, then 2 seconds of fuzzing per target
# (run.sh --tap).  A TAP SKIP when configure found no clang for them.
exec "${SHELL:-/bin/sh}" "$(dirname "$0")/run.sh" --tap "${FUZZ_SMOKE_SECONDS:-2}"
