#!/usr/bin/env bash
# Line coverage of src/ by the whole test suite (all features), with cargo-llvm-cov. Prints the
# per-file table and the TOTAL line; fails if line coverage of src/ is below ${MIN_LINES:-95}%.
#
# Needs `rustup component add llvm-tools-preview` and `cargo install cargo-llvm-cov --locked`
# (both done here if missing). An HTML report: `cargo llvm-cov report --html`; uncovered lines:
# `cargo llvm-cov report --release --show-missing-lines`. Extra arguments go to cargo-llvm-cov, e.g.
# `--no-clean` (after `cargo llvm-cov clean --profraw-only`) to reuse the instrumented build.
# PROPERTY_CASES=16 keeps the property tests short; coverage does not need many cases.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component list --installed | grep -q '^llvm-tools' || rustup component add llvm-tools-preview
command -v cargo-llvm-cov >/dev/null || cargo install cargo-llvm-cov --locked
cargo llvm-cov --all-features --release \
    --ignore-filename-regex '(^|/)(tests|xtask|fuzz|benches|examples)/' \
    --fail-under-lines "${MIN_LINES:-95}" "$@"
