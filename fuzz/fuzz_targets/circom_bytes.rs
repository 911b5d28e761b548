//! Fuzz target `circom_bytes`: the body is `fast_poseidon2_fuzz::targets::circom_bytes::run`
//! (`src/targets/circom_bytes.rs`, which describes the input layout).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fast_poseidon2_fuzz::targets::circom_bytes::run(data));
