#!/usr/bin/env bash
# Reproduces every row of VERIFICATION.md on this machine, in the table's order.
#
#   scripts/verify.sh                 # everything but mutation testing (about 40 minutes)
#   FUZZ_SECONDS=600 scripts/verify.sh
#   VERIFY_MUTANTS=1 scripts/verify.sh   # plus cargo-mutants (hours on 2 cores)
#
# Environment: PROPERTY_CASES (default 1000) cases per property; FUZZ_SECONDS (default 60) per
# fuzz target.
set -euo pipefail
cd "$(dirname "$0")/.."
section() { printf '\n=== %s (%ss)\n' "$1" "$SECONDS"; }

section "unit, known-answer, reference, differential and error tests (all features)"
cargo test --release --all-features

section "exhaustive small-field checks, including GF(257)^3"
cargo test --release --test suite -- math::small_fields:: --include-ignored

section "property tests with ${PROPERTY_CASES:=1000} cases each"
PROPERTY_CASES="$PROPERTY_CASES" cargo test --release --test suite -- equivalence::properties::

section "fuzzing, ${FUZZ_SECONDS:=60} s per target"
scripts/fuzz.sh "$FUZZ_SECONDS"

section "Miri"
scripts/miri.sh

section "coverage of src/"
scripts/coverage.sh

if [ "${VERIFY_MUTANTS:-0}" = 1 ]; then
    section "mutation testing"
    scripts/mutants.sh all simd # every group, and the SIMD kernels
fi

section "done"
