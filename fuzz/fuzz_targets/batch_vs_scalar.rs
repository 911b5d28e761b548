//! Fuzz target `batch_vs_scalar`: the body is `fast_poseidon2_fuzz::targets::batch_vs_scalar::run`
//! (`src/targets/batch_vs_scalar.rs`, which describes the input layout).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fast_poseidon2_fuzz::targets::batch_vs_scalar::run(data));
