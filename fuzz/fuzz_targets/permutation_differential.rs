//! Arbitrary bytes -> a state of one shipped instance (first byte picks it) -> the const-generic
//! path, the runtime path and the textbook permutation must agree.
#![no_main]

use fast_poseidon2::instances::{bls12_381, bn254, goldilocks};
use fast_poseidon2_fuzz::assert_paths_agree;
use libfuzzer_sys::fuzz_target;

/// `selector => (module, ct constructor, runtime getter)` for every shipped instance.
macro_rules! dispatch {
    ($selector:expr, $data:expr, [$(($module:ident, $ct:ident, $getter:ident)),* $(,)?]) => {{
        let instances: &[fn(&[u8])] = &[$(|data| assert_paths_agree(&$module::ct::$ct(), $module::$getter(), data)),*];
        instances[usize::from($selector) % instances.len()]($data)
    }};
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    dispatch!(
        selector,
        rest,
        [
            (bn254, t2, poseidon2_t2),
            (bn254, t3, poseidon2_t3),
            (bn254, t4, poseidon2_t4),
            (bn254, t8, poseidon2_t8),
            (bn254, t12, poseidon2_t12),
            (bls12_381, t2, poseidon2_t2),
            (bls12_381, t3, poseidon2_t3),
            (bls12_381, t4, poseidon2_t4),
            (bls12_381, t8, poseidon2_t8),
            (bls12_381, t12, poseidon2_t12),
            (goldilocks, t8, poseidon2_t8),
            (goldilocks, t12, poseidon2_t12),
            (goldilocks, t16, poseidon2_t16),
            (goldilocks, t20, poseidon2_t20),
        ]
    );
});
