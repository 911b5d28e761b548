#!/usr/bin/env bash
# CI smoke run of every fuzz target: one build of all targets, then each target for SECONDS
# seconds (default 15, first argument); fails on a crash. Installs what a fresh machine lacks: the
# nightly toolchain (minimal profile) and cargo-fuzz from crates.io.
#
# The build uses no sanitizer and 16 codegen units (a much shorter build than cargo-fuzz's
# AddressSanitizer + 1 codegen unit default; the crate forbids `unsafe` outside the SIMD backend),
# and keeps debug assertions and overflow checks on. Long runs: `scripts/fuzz.sh SECONDS`.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
FUZZ_BUILD_FLAGS="${FUZZ_BUILD_FLAGS:---sanitizer none --codegen-units 16}" \
    exec scripts/fuzz.sh "${1:-15}"
