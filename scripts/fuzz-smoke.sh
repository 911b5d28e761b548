#!/usr/bin/env bash
# CI smoke run of every fuzz target (about 20 s each; override with the first argument).
# Installs cargo-fuzz from crates.io if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
exec scripts/fuzz.sh "${1:-20}"
