//! Fuzz target `sponge`: the body is `fast_poseidon2_fuzz::targets::sponge::run`
//! (`src/targets/sponge.rs`, which describes the input layout).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fast_poseidon2_fuzz::targets::sponge::run(data));
