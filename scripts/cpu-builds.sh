#!/usr/bin/env bash
# Compiles the test suite and the examples for CPUs other than the host's (no test runs), so
# that code which only compiles for some CPUs is caught on any x86_64 machine: inline assembly
# can run out of registers where the compiler reserves more of them (a function that realigns
# its stack for AVX-512 keeps `rbp`, and maybe `rbx`, for itself), which only happens in
# builds with those features enabled.
#
#   scripts/cpu-builds.sh                      # sapphirerapids znver4 x86-64-v3
#   scripts/cpu-builds.sh sapphirerapids       # one CPU
#   CPU_BUILDS_TARGET_DIR=/tmp/cpu scripts/cpu-builds.sh
#
# Each CPU builds into its own directory under CPU_BUILDS_TARGET_DIR (default
# target/cpu-builds), so later runs only rebuild the crate. Heavy: the suite with every
# feature, in release, per CPU (about 15 minutes each on 2 cores from scratch).
set -euo pipefail
cd "$(dirname "$0")/.."

cpus=("$@")
[ ${#cpus[@]} -gt 0 ] || cpus=(sapphirerapids znver4 x86-64-v3)
base=${CPU_BUILDS_TARGET_DIR:-target/cpu-builds}
status=0
for cpu in "${cpus[@]}"; do
    echo "=== -C target-cpu=$cpu" >&2
    if ! RUSTFLAGS="-C target-cpu=$cpu" CARGO_TARGET_DIR="$base/$cpu" \
        cargo test --release --all-features --tests --examples --no-run; then
        echo "FAILED: -C target-cpu=$cpu" >&2
        status=1
    fi
done
exit $status
