//! Fuzz target `params_generate`: the body is `fast_poseidon2_fuzz::targets::params_generate::run`
//! (`src/targets/params_generate.rs`, which describes the input layout).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fast_poseidon2_fuzz::targets::params_generate::run(data));
