//! Fuzz target `permutation_differential`: the body is `fast_poseidon2_fuzz::targets::permutation_differential::run`
//! (`src/targets/permutation_differential.rs`, which describes the input layout).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    fast_poseidon2_fuzz::targets::permutation_differential::run(data)
});
