#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for SECONDS seconds each (default 60) on the nightly
# toolchain, then prints one Markdown table row per target (runs, seconds, crashes) ready to copy
# into VERIFICATION.md. Exits non-zero if the build fails or any target finds a crash; the
# crashing input is then in fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh 600        # ten minutes per target
#
# All targets are built once, up front, with FUZZ_BUILD_FLAGS (default: none, i.e. cargo-fuzz's
# default of optimisations + debug assertions and overflow checks + AddressSanitizer); each run
# then reuses that build. `scripts/fuzz-smoke.sh` (CI) passes `--sanitizer none --codegen-units 16`
# for a faster build. Needs cargo-fuzz (`cargo install cargo-fuzz --locked`). Build artefacts go
# to $CARGO_TARGET_DIR if set, else fuzz/target.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-60}"
# shellcheck disable=SC2206 # FUZZ_BUILD_FLAGS is a list of cargo-fuzz build arguments.
build_flags=(${FUZZ_BUILD_FLAGS:-})
start="$SECONDS"
cargo +nightly fuzz build "${build_flags[@]}"
echo "fuzz build: $((SECONDS - start)) s"
status=0
rows=()
for target in $(cargo +nightly fuzz list); do
    log="$(mktemp)"
    if cargo +nightly fuzz run "${build_flags[@]}" "$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
        crashes=0
    else
        crashes=1
        status=1
        tail -n 40 "$log"
    fi
    runs="$(sed -nE 's/^stat::number_of_executed_units: ([0-9]+)$/\1/p' "$log" | tail -n 1)"
    took="$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p' "$log" | tail -n 1)"
    rows+=("| $target | ${runs:-?} | ${took:-?} | $crashes |")
    echo "fuzz $target: ${runs:-?} runs in ${took:-?} s, crashes: $crashes"
    rm -f "$log"
done
printf '\n| target | runs | seconds | crashes |\n|---|---|---|---|\n'
printf '%s\n' "${rows[@]}"
exit "$status"
