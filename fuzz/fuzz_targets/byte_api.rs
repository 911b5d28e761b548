//! Fuzz target `byte_api`: the body is `fast_poseidon2_fuzz::targets::byte_api::run`
//! (`src/targets/byte_api.rs`, which describes the input layout).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fast_poseidon2_fuzz::targets::byte_api::run(data));
