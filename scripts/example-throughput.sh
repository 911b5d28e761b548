#!/usr/bin/env bash
# The main job's figures (issue 13, part 3), on a quiet machine:
# 1. peak resident memory of the example on a 1 GiB file (target: under 64 MiB), with
#    `/usr/bin/time -v`, and its CPU use with `--features parallel` (every core);
# 2. the streaming example against `merkle_root` over the same leaves in memory on 64 MiB
#    (target: within 1.1x), from the ignored test in tests/api/example_merkle_root.rs.
# Usage: scripts/example-throughput.sh [SCRATCH_DIR]   (default: a fresh mktemp directory)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${1:-$(mktemp -d)}"
file="$scratch/one-gib.bin"
if [ ! -f "$file" ]; then
    head -c $((1 << 30)) /dev/urandom > "$file"
fi
cargo build --release --features parallel --example merkle_root
binary="${CARGO_TARGET_DIR:-target}/release/examples/merkle_root"
for run in 1 2; do
    echo "=== 1 GiB, --features parallel, run $run"
    /usr/bin/time -v "$binary" "$file" 2> "$scratch/time.txt"
    grep -E "Maximum resident set size|Percent of CPU|Elapsed" "$scratch/time.txt"
done
echo "=== 64 MiB in one process: streaming example vs merkle_root in memory"
cargo test --release --features parallel --test suite -- --ignored --nocapture api::example_merkle_root::
