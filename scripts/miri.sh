#!/usr/bin/env bash
# Runs the deterministic reduced-round suite (the `miri` module of the test binary, tests/miri.rs) under Miri on the nightly toolchain:
# undefined behaviour, out-of-bounds access, arithmetic overflow in debug assertions and leaks
# in the permutation, the modes and the byte API.
#
# Needs `rustup component add --toolchain nightly miri rust-src` (done here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup component add --toolchain nightly miri rust-src
fi
cargo +nightly miri setup
# Isolation stays on; the suite reads no files and no clock.
# Arguments go to the test harness (after the `miri::` filter).
exec cargo +nightly miri test --test suite -- miri:: "$@"
