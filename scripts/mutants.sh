#!/usr/bin/env bash
# Mutation testing with cargo-mutants over the core of src/ (or the files given as arguments),
# against the specification-level test binaries that build fastest (override with MUTANTS_TESTS,
# a space-separated list of test targets, e.g. MUTANTS_TESTS="small_fields properties"). Results land in mutants.out/ (outcomes.json,
# caught.txt, missed.txt, timeout.txt, unviable.txt); VERIFICATION.md records the catch rate and
# explains every survivor.
#
#   scripts/mutants.sh                              # the core files
#   scripts/mutants.sh src/modes/sponge.rs          # chosen files
#   MUTANTS_ARGS=--iterate scripts/mutants.sh ...   # resume: skip mutants already caught in
#                                                   # MUTANTS_OUT/mutants.out
#
# Needs cargo-mutants (`cargo install cargo-mutants --locked`). Slow: one build per mutant, so
# mutants are built with opt-level 1 and run one at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    files=(src/linear.rs src/permutation.rs "src/field/**" "src/params/**" "src/security/**")
fi
file_args=()
for f in "${files[@]}"; do
    file_args+=(--file "$f")
done
export CARGO_PROFILE_TEST_OPT_LEVEL="${CARGO_PROFILE_TEST_OPT_LEVEL:-1}"
# Test targets, passed to both the build and the test step of every mutant.
tests=()
for t in ${MUTANTS_TESTS:-small_fields kat errors reference_constants}; do
    tests+=(--cargo-arg="--test=$t")
done
# shellcheck disable=SC2086 # MUTANTS_ARGS is a list of extra cargo-mutants arguments.
cargo mutants -j 1 --timeout "${MUTANTS_TIMEOUT:-300}" ${MUTANTS_ARGS:-} "${file_args[@]}" \
    "${tests[@]}" --output "${MUTANTS_OUT:-.}"
