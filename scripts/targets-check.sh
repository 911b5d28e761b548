#!/usr/bin/env bash
# Builds the crate for every target its users build for, quickly (no tests run):
# - the declared MSRV (`rust-version` in Cargo.toml): library, tests and examples type-check
#   (`cargo +MSRV check --lib --tests --examples --all-features`; the benches, on criterion, are
#   checked on stable by clippy);
# - wasm32-unknown-unknown: no_std + alloc with each field (built), and the default features
#   (type-checked: with `std` the library compiles every instance's cached runtime permutation,
#   and LLVM's wasm backend took 3.5 of CI's minutes to generate that unoptimised code);
# - thumbv7em-none-eabi: no allocator at all (`--no-default-features` with every field: the
#   const-generic permutations);
# - aarch64-unknown-linux-gnu: `cargo check --all-features` (scripts/cross-test.sh runs the tests).
# Installs the toolchain and targets it needs with rustup. Called by `.ci/run`.
set -euo pipefail
cd "$(dirname "$0")/.."

msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
rustup toolchain list | grep -q "^$msrv" || rustup toolchain install "$msrv" --profile minimal
targets=(wasm32-unknown-unknown thumbv7em-none-eabi aarch64-unknown-linux-gnu)
installed=$(rustup target list --installed)
for target in "${targets[@]}"; do
    grep -qx "$target" <<< "$installed" || rustup target add "$target"
done

step() { printf -- '--- %s\n' "$*"; "$@"; }

step cargo "+$msrv" check --lib --tests --examples --all-features
for field in bn254 bls12-381 goldilocks stark252 babybear koalabear; do
    step cargo build --target wasm32-unknown-unknown --no-default-features --features "alloc,$field"
done
step cargo check --target wasm32-unknown-unknown
step cargo build --target thumbv7em-none-eabi --no-default-features --features bn254,bls12-381,goldilocks,stark252,babybear,koalabear
step cargo check --target aarch64-unknown-linux-gnu --all-features
