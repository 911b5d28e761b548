#!/usr/bin/env bash
# Builds the crate for every target its users build for, quickly (no tests run):
# - the declared MSRV (`rust-version` in Cargo.toml): the library type-checks with every feature
#   but `p3` (`cargo +MSRV check --lib --features ...`); `p3` (Plonky3 0.8.0) needs Rust 1.93
#   (p3-util uses slice `MaybeUninit::assume_init_ref`, stable since 1.93), and so do the tests
#   and examples, whose dev-dependencies include Plonky3: those are type-checked with 1.93
#   (`cargo +1.93 check --lib --tests --examples --all-features`; the benches, on criterion, are
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
# The minimum of the `p3` feature and of the dev-dependencies (Plonky3 0.8.0; header).
p3_msrv=1.93
for toolchain in "$msrv" "$p3_msrv"; do
    rustup toolchain list | grep -q "^$toolchain" || rustup toolchain install "$toolchain" --profile minimal
done
# Every feature of Cargo.toml's [features] table but `default` and `p3`.
msrv_features=$(sed -n '/^\[features\]/,/^\[/p' Cargo.toml | sed -n 's/^\([a-z0-9_-]*\) = \[.*/\1/p' \
    | grep -vx 'default\|p3' | paste -sd, -)
targets=(wasm32-unknown-unknown thumbv7em-none-eabi aarch64-unknown-linux-gnu)
installed=$(rustup target list --installed)
for target in "${targets[@]}"; do
    grep -qx "$target" <<< "$installed" || rustup target add "$target"
done

step() { printf -- '--- %s\n' "$*"; "$@"; }

step cargo "+$msrv" check --lib --features "$msrv_features"
step cargo "+$p3_msrv" check --lib --tests --examples --all-features
for field in bn254 bls12-381 goldilocks stark252 babybear koalabear; do
    step cargo build --target wasm32-unknown-unknown --no-default-features --features "alloc,$field"
done
step cargo check --target wasm32-unknown-unknown
step cargo build --target thumbv7em-none-eabi --no-default-features --features bn254,bls12-381,goldilocks,stark252,babybear,koalabear
step cargo check --target aarch64-unknown-linux-gnu --all-features
