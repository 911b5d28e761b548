//! Arbitrary bytes -> a state of one shipped instance (first byte picks it) -> the const-generic
//! path, the runtime path and the textbook permutation must agree.
#![no_main]

use fast_poseidon2_fuzz::differential::assert_paths_agree;
use fast_poseidon2_fuzz::{elements, with_instance};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    with_instance!(selector, |ct, flexible| {
        let state = elements(rest, ct.to_params().width());
        assert_paths_agree(ct, flexible, &state)
    });
});
