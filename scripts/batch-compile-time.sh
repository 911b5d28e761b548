#!/usr/bin/env bash
# The compile time a user's crate pays for the batch kernels: builds a small crate that batches
# Plonky3's BabyBear and KoalaBear t = 16 permutations (release profile, the crate's default
# features) once, then rebuilds only that crate and prints the seconds it took (the library
# and its dependencies already built). Optional argument: a target directory to reuse.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<EOF
[package]
name = "batch-compile-time"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
fast-poseidon2 = { path = "$root" }

[workspace]
EOF
cat > "$dir/src/main.rs" <<'EOF'
use fast_poseidon2::instances::plonky3;

fn main() {
    let n = std::env::args().count() * 64;
    let babybear = plonky3::ct::babybear_t16();
    let mut a = vec![[Default::default(); 16]; n];
    babybear.permute_batch(&mut a);
    let koalabear = plonky3::ct::koalabear_t16();
    let mut b = vec![[Default::default(); 16]; n];
    koalabear.permute_batch(&mut b);
    println!("{:?} {:?}", a[0][0], b[0][0]);
}
EOF
export CARGO_TARGET_DIR="${1:-$dir/target}"
cargo build -q --release --manifest-path "$dir/Cargo.toml"
touch "$dir/src/main.rs"
start=$(date +%s.%N)
cargo build -q --release --manifest-path "$dir/Cargo.toml"
end=$(date +%s.%N)
echo "batching crate compiled in $(echo "$end - $start" | bc) s"
