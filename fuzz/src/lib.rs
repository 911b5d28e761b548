//! Shared pieces of the fuzz targets: the test suite's textbook permutation and small fields
//! (included from `tests/`, not copied), input decoding and the three-way comparison.
#![allow(dead_code)]

#[path = "../../tests/small/mod.rs"]
pub mod small;
#[path = "../../tests/common/textbook.rs"]
pub mod textbook;

use fast_poseidon2::Poseidon2;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;

/// `n` elements from consecutive `F::BYTES`-byte chunks of `data` (bytes past the end read as
/// zero), each reduced mod p, so every input decodes to a state.
pub fn elements<F: PrimeField>(data: &[u8], n: usize) -> Vec<F> {
    (0..n)
        .map(|i| {
            let mut chunk = vec![0u8; F::BYTES];
            for (j, byte) in chunk.iter_mut().enumerate() {
                *byte = data.get(i * F::BYTES + j).copied().unwrap_or(0);
            }
            F::from_be_bytes_reduced(&chunk)
        })
        .collect()
}

/// Panics unless the ct permutation (over `C`), the runtime permutation (over `A`, the same
/// field in another representation, or `C` itself) and the textbook permutation agree on the
/// state decoded from `data`.
pub fn assert_paths_agree<
    C: PrimeField,
    A: PrimeField + From<C>,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<A>,
    data: &[u8],
) {
    let state: [C; T] = elements::<C>(data, T).try_into().expect("width");
    let out = ct.permutation(&state);
    assert_eq!(
        out.to_vec(),
        textbook::permutation(&ct.to_params(), &state),
        "ct vs textbook"
    );
    let runtime_input: Vec<A> = state.iter().map(|&x| A::from(x)).collect();
    let runtime_expected: Vec<A> = out.iter().map(|&x| A::from(x)).collect();
    assert_eq!(
        flexible.permutation(&runtime_input).expect("width"),
        runtime_expected,
        "runtime vs ct"
    );
}
