//! Arbitrary bytes -> a batch of states of one shipped instance (first byte picks the instance,
//! second the batch size 0..=40, so partial and whole vector groups of 4 and 8 lanes both occur)
//! -> `permute_batch` on the run-time chosen backend must equal the scalar permutation, state by
//! state, through the const-generic permutation and through the runtime one (for Goldilocks: the
//! `GoldilocksFast` and the ark `Goldilocks` kernels' entry points).

use crate::{elements, with_instance};
use fast_poseidon2::Poseidon2;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;

fn batch_equals_scalar<
    F: PrimeField + LinearLayers,
    R: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    perm: &Poseidon2Ct<F, T, RF, RP, D>,
    runtime: &Poseidon2<R>,
    n: usize,
    data: &[u8],
) {
    let flat = elements::<F>(data, n * T);
    let states: Vec<[F; T]> = flat
        .chunks_exact(T)
        .map(|s| core::array::from_fn(|i| s[i]))
        .collect();
    let mut batch = states.clone();
    perm.permute_batch(&mut batch);
    for (got, x) in batch.iter().zip(&states) {
        assert_eq!(*got, perm.permutation(x));
    }
    let mut flat = elements::<R>(data, n * T);
    let input = flat.clone();
    runtime.permute_batch(&mut flat).unwrap();
    for (got, x) in flat.chunks_exact(T).zip(input.chunks_exact(T)) {
        assert_eq!(got, runtime.permutation(x).unwrap());
    }
}

/// Runs one fuzz input (`data`, laid out as above); panics on a finding.
pub fn run(data: &[u8]) {
    let [selector, size, rest @ ..] = data else {
        return;
    };
    let n = usize::from(*size) % 41;
    with_instance!(*selector, |ct, flexible| batch_equals_scalar(
        ct, flexible, n, rest
    ));
}
