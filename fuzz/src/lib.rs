//! Shared pieces of the fuzz targets: the test suite's textbook definitions, differential
//! assertions and small fields (re-exported from the workspace's `testkit` crate), input
//! decoding and the dispatch over every shipped instance.

pub use testkit::{differential, small, textbook};

use fast_poseidon2::field::PrimeField;

/// `n` elements from consecutive `F::BYTES`-byte chunks of `data` (bytes past the end read as
/// zero), each reduced mod p, so every input decodes to a state.
pub fn elements<F: PrimeField>(data: &[u8], n: usize) -> Vec<F> {
    (0..n)
        .map(|i| {
            let chunk: Vec<u8> = (0..F::BYTES)
                .map(|j| byte(data, i * F::BYTES + j))
                .collect();
            F::from_be_bytes_reduced(&chunk)
        })
        .collect()
}

/// Byte `i` of `data` (zero past the end).
pub fn byte(data: &[u8], i: usize) -> u8 {
    data.get(i).copied().unwrap_or(0)
}

/// Runs `$body` with `$ct` bound to a reference to the const-generic permutation and `$flexible`
/// to the cached runtime permutation of the shipped instance number `$selector` (modulo the
/// number of instances: BN254 and BLS12-381 t = 2, 3, 4, 8, 12; Goldilocks t = 8, 12, 16, 20).
#[macro_export]
macro_rules! with_instance {
    ($selector:expr, |$ct:ident, $flexible:ident| $body:expr) => {
        $crate::with_instance!(@list $selector, $ct, $flexible, $body, [
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
        ])
    };
    (@list $selector:expr, $ct:ident, $flexible:ident, $body:expr,
        [$(($module:ident, $ct_fn:ident, $getter:ident)),* $(,)?]) => {{
        let count = [$(stringify!($ct_fn)),*].len();
        let selected = usize::from($selector) % count;
        let mut index = 0usize;
        $(
            if selected == index {
                let $ct = &fast_poseidon2::instances::$module::ct::$ct_fn();
                let $flexible = fast_poseidon2::instances::$module::$getter();
                $body;
            }
            index += 1;
        )*
        let _ = index;
    }};
}
