#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for SECONDS seconds each (default 60) on the nightly
# toolchain and prints a summary line per target (runs, seconds, crashes). Exits non-zero if any
# target finds a crash; the crashing input is then in fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh 600        # ten minutes per target
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`). Build artefacts go to
# $CARGO_TARGET_DIR if set, else fuzz/target.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-60}"
status=0
for target in $(cargo +nightly fuzz list); do
    log="$(mktemp)"
    if cargo +nightly fuzz run -O "$target" -- -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
        crashes=0
    else
        crashes=1
        status=1
        tail -n 40 "$log"
    fi
    runs="$(grep -oE '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -n 1 || true)"
    echo "fuzz $target: ${runs:-no summary}, crashes: $crashes"
    rm -f "$log"
done
exit "$status"
