//! Fuzz target `message_hash`: the body is `fast_poseidon2_fuzz::targets::message_hash::run`
//! (`src/targets/message_hash.rs`, which describes the input layout).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fast_poseidon2_fuzz::targets::message_hash::run(data));
