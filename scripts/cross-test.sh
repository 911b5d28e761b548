#!/usr/bin/env bash
# Runs tests off x86_64 (results go into VERIFICATION.md):
# - aarch64-unknown-linux-gnu: the whole test suite (`cargo test --release --all-features`)
#   under qemu user-mode emulation, linked with Debian's cross gcc;
# - wasm32-wasip1: the known-answer tests (`--test suite -- known_answers::`) in node's WASI runtime
#   (scripts/wasi-run.mjs).
# Installs qemu-user, gcc-aarch64-linux-gnu and the rustup targets when missing.
#
#   scripts/cross-test.sh [aarch64|wasm] ...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."

aarch64() {
    if ! command -v qemu-aarch64 > /dev/null || ! command -v aarch64-linux-gnu-gcc > /dev/null; then
        apt-get install -y qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    fi
    rustup target add aarch64-unknown-linux-gnu
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
        cargo test --release --all-features --target aarch64-unknown-linux-gnu
}

wasm() {
    rustup target add wasm32-wasip1
    CARGO_TARGET_WASM32_WASIP1_RUNNER="node scripts/wasi-run.mjs" \
        cargo test --release --target wasm32-wasip1 --test suite -- known_answers::
}

for job in "${@:-aarch64 wasm}"; do
    for j in $job; do
        echo "=== $j"
        "$j"
    done
done
