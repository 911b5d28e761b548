#!/usr/bin/env bash
# Mutation testing with cargo-mutants over every file of src/ that has mutants, one group of
# files at a time, each against the tests that specify it (the integration-test binary `suite`
# and/or the crate's unit tests `lib`, narrowed by test-name filters; one rebuild of the crate
# and of those binaries per mutant). Results land in
# $MUTANTS_OUT/<group>/mutants.out/ (outcomes.json, caught.txt, missed.txt, timeout.txt,
# unviable.txt); VERIFICATION.md records the catch rate and explains every survivor.
#
#   scripts/mutants.sh                      # every group, in the order below
#   scripts/mutants.sh modes batch          # chosen groups
#   scripts/mutants.sh --list               # the groups, their files and test binaries
#   MUTANTS_ARGS=--iterate scripts/mutants.sh modes  # resume: skip mutants already caught
#
# Environment: MUTANTS_OUT (default mutants.out.d), MUTANTS_TIMEOUT (test timeout in seconds;
# default 4 times the unmutated tests' time, at least 20 s; a mutant that makes a test loop
# counts as caught by timeout), MUTANTS_ARGS (extra
# cargo-mutants arguments), MUTANTS_TESTS (override the test binaries of every chosen group),
# MUTANTS_FILTERS (override its test-name filters; empty: every test of the binaries),
# PROPERTY_CASES and PROPTEST_CASES (cases per property, default here 8).
#
# The tree (tracked and untracked, not ignored, files) is copied to $CARGO_TARGET_DIR/mutants-tree
# and mutated in place there (`--in-place`), so the crate keeps one path and builds
# incrementally from mutant to mutant and run to run; the working tree is never touched.
# Mutants are built without debug info, one job, dependencies at opt-level 1 and the crate at
# opt-level 0 (per group, or MUTANTS_CRATE_OPT_LEVEL for all). Needs cargo-mutants (`cargo install cargo-mutants
# --locked`).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# name | files (cargo-mutants --file globs, space-separated) | test binaries | crate opt-level
# | features | test-name filters (empty: every test of the binaries). The test binary `suite`
# groups its files as modules (`tests/<module>/<file>.rs`), so a filter `file::` picks one
# file's tests; `tests::` picks every unit test of `lib` (they live in `mod tests`). batch: its tests run the
# SIMD kernels on 1000-state batches of 16 instances, minutes unoptimised, so its mutants run
# against the BN254 t = 3 and Goldilocks t = 8 instances and the API tests; the thread split of
# `run_batch` exists only with `parallel`. grain: most broken generators never finish (rejection
# sampling), so each waits out the timeout; three generations (254-bit fixed diagonal, 255-bit
# and 31-bit drawn diagonals) keep it short. montgomery: the portable products run only in the
# crate's unit tests (`lib`) on a CPU with MULX/ADX. simd: against the kernels' unit tests
# (`simd::`), the dispatch tests (`batch_backend_is`) and the batch tests of four instances;
# the kernels are declared inside the `simd_only!` macro, which cargo-mutants does not expand,
# so the scratch copy declares them with plain `#[cfg]` attributes (same condition) before the
# run; not part of "every group". monty31 (BabyBear and KoalaBear, the diagonal kinds): their
# edge-value and property tests, unit tests, and every instance's known answers. instances: the
# registries of compiled diagonals and kernel tables, circom's and Starknet's instances, against
# the known answers and the 31-bit batch tests (44 s of tests unmutated; with every SP1, circom
# and Stark252 test, 145 s). poseidon1: the first family with its parameters
# and the Stark field. adapters: the adapters and the byte messages, with the adapters' features
# (the Starknet conversions included).
groups=(
    "core|src/poseidon2/linear.rs src/poseidon2/permutation.rs src/field/mod.rs src/field/representation.rs src/params/mod.rs|suite|0||small_fields:: goldilocks_field::"
    "bytes|src/modes/bytes.rs src/error.rs|suite|0||modes_bytes:: errors::"
    "modes|src/modes/mod.rs src/modes/compress.rs src/modes/sponge.rs|suite|0||modes_sponge:: modes_compress::"
    "ct|src/poseidon2/ct.rs src/poseidon2/runtime.rs|suite|0||kat:: errors:: small_fields::"
    "grain|src/params/grain.rs|suite|0||reference_constants::bn254_t3_generation reference_constants::bls12_381_t4_generation reference_constants::babybear_t16"
    "ark|src/field/ark.rs|suite|0||field_ark::"
    "montgomery|src/field/montgomery.rs src/field/mulx_adx.rs|lib suite|0||tests:: field_ark::"
    "goldilocks|src/field/goldilocks/fast.rs|suite|0||goldilocks_field::"
    "security|src/params/security/internal_matrix.rs src/params/security/round_numbers.rs|suite|0||security::"
    "batch|src/modes/batch.rs src/modes/merkle.rs src/simd/mod.rs src/simd/permutations.rs src/poseidon2/batch_cache.rs|suite|0|parallel|batch::bn254_t3:: batch::goldilocks_t8:: batch::merkle batch::goldilocks_merkle compress_batch permute_batch_on sbox_degree backend_is parallel_batch"
    "monty31|src/field/monty31.rs src/field/diagonal.rs|lib suite|0||monty31 diagonal kat:: plonky3_modes::"
    "instances|src/instances/mod.rs src/instances/circom_bn254.rs src/instances/stark252.rs|lib suite|0||kat:: registered compiled_tests batch::monty31:: plonky3_modes:: circom_poseidon1 stark252_poseidon circom_bytes poseidon1::hash_batch"
    "poseidon1|src/poseidon1/*.rs src/params/poseidon1.rs src/params/matrix.rs src/params/security/mds_matrix.rs src/field/stark252.rs|suite|0||poseidon1 circom mds_security stark252"
    "adapters|src/adapters/*.rs src/modes/message.rs|suite|0|arkworks,rs_merkle,p3,starknet|adapters_ modes_message:: stark252_field::"
    "simd|src/simd/avx512_ifma.rs src/simd/goldilocks/*.rs src/simd/monty31/*.rs src/field/kernel_form.rs|lib suite|0||simd:: batch_backend_is batch::bn254_t3:: batch::bn254_t4:: batch::bls12_381_t3:: sbox_degree_seven explicit_parameters permute_batch_on other_widths batch::goldilocks_t8:: batch::ark_goldilocks_t8:: batch::monty31::"
)

if [ "${1:-}" = "--list" ]; then
    printf '%s\n' "${groups[@]}" | column -t -s '|'
    exit 0
fi
chosen=("$@")

out="${MUTANTS_OUT:-$root/mutants.out.d}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
scratch="$CARGO_TARGET_DIR/mutants-tree"
# Fresh modification times (`tar -m`): a build left by an interrupted run, of a mutated file,
# must never look up to date.
rm -rf "$scratch"
mkdir -p "$scratch"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xmf - -C "$scratch"
simd_cfg="#[cfg(fast_poseidon2_simd)]"
# (`src/field/mulx_adx.rs` is declared with a plain `#[cfg]`, which cargo-mutants follows.)
# (One line per declaration, so line numbers stay those of the tree: `scripts/mutants_lines.py`
# writes the same four lines.)
perl -0pi -e "s/simd_only! \{ items:\n    mod avx512_ifma;\n    mod goldilocks;\n    mod monty31;\n/$simd_cfg mod avx512_ifma;\n$simd_cfg mod goldilocks;\n$simd_cfg mod monty31;\nsimd_only! { items:\n/" \
    "$scratch/src/simd/mod.rs"
grep -q '^#\[cfg(fast_poseidon2_simd)\] mod monty31;$' "$scratch/src/simd/mod.rs" || {
    echo "mutants.sh: could not expose the SIMD modules to cargo-mutants" >&2
    exit 1
}

export CARGO_PROFILE_TEST_OPT_LEVEL="${CARGO_PROFILE_TEST_OPT_LEVEL:-1}"
export CARGO_PROFILE_TEST_DEBUG="${CARGO_PROFILE_TEST_DEBUG:-0}"
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-1}"
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"
# Unoptimised SIMD kernels keep large vector arrays on the stack: test threads get 64 MiB
# (the default 2 MiB overflows in the simd group's Goldilocks batch tests).
export RUST_MIN_STACK="${RUST_MIN_STACK:-67108864}"
export PROPERTY_CASES="${PROPERTY_CASES:-8}"
# A failing property is enough: no shrinking (it can run a failing test for minutes).
export PROPTEST_CASES="${PROPTEST_CASES:-8}"
export PROPTEST_MAX_SHRINK_ITERS="${PROPTEST_MAX_SHRINK_ITERS:-1}"
# The crate itself (library and test binaries, rebuilt for every mutant) at opt-level 0 unless
# its group says otherwise: it compiles several times faster, and the tests still run in
# seconds on opt-level-1 dependencies.

run_group() {
    local name files tests opt features filters
    IFS='|' read -r name files tests opt features filters <<<"$1"
    filters="${MUTANTS_FILTERS-$filters}"
    # Mutants inside `#[cfg(all(test, ...))]` modules (test helpers) are not mutants of the crate.
    local args=(--exclude-re 'tests::' --cargo-arg="--config=profile.test.package.fast-poseidon2.opt-level=${MUTANTS_CRATE_OPT_LEVEL:-$opt}")
    if [ -n "$features" ]; then
        args+=(--cargo-arg="--features=$features")
    fi
    for f in $files; do
        args+=(--file "$f")
    done
    for t in ${MUTANTS_TESTS:-$tests}; do
        if [ "$t" = lib ]; then
            args+=(--cargo-arg=--lib) # the crate's unit tests
        else
            args+=(--cargo-arg="--test=$t")
        fi
    done
    if [ -n "$filters" ]; then
        args+=(--cargo-test-arg=--)
        for f in $filters; do
            args+=(--cargo-test-arg="$f")
        done
    fi
    echo "== $name: $files against $tests ${filters:+(tests matching: $filters) }($(date -u +%H:%M:%S) UTC)"
    # The baseline (unmutated build and tests) must pass, or every mutant would look caught.
    # shellcheck disable=SC2086 # MUTANTS_ARGS is a list of extra cargo-mutants arguments.
    # A fixed MUTANTS_TIMEOUT replaces the multiplier (cargo-mutants takes one or the other).
    local timeout=(--timeout-multiplier 4)
    if [ -n "${MUTANTS_TIMEOUT:-}" ]; then
        timeout=(--timeout "$MUTANTS_TIMEOUT")
    fi
    (cd "$scratch" && cargo mutants --in-place "${timeout[@]}" --minimum-test-timeout 20 --build-timeout 900 ${MUTANTS_ARGS:-} "${args[@]}" --output "$out/$name") || true
    for k in caught missed timeout unviable; do
        printf '%s %s: %s\n' "$name" "$k" "$(cat "$out/$name/mutants.out/$k.txt" 2>/dev/null | wc -l)"
    done
}

# The chosen groups in the order given, or every group but simd.
for want in "${chosen[@]:-all}"; do
    for g in "${groups[@]}"; do
        if { [ "$want" = all ] && [ "${g%%|*}" != simd ]; } || [ "${g%%|*}" = "$want" ]; then
            run_group "$g"
        fi
    done
done
