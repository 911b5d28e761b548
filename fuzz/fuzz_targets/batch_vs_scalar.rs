//! Arbitrary bytes -> a batch of states of one shipped instance (first byte picks the instance,
//! second the batch size 0..=40, so partial and whole vector groups both occur) ->
//! `permute_batch` on the run-time chosen backend must equal the scalar permutation, state by
//! state.
#![no_main]

use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::instances::{bls12_381, bn254};
use fast_poseidon2_fuzz::elements;
use libfuzzer_sys::fuzz_target;

fn batch_equals_scalar<
    F: PrimeField,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    perm: &Poseidon2Ct<F, T, RF, RP, D>,
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
}

fuzz_target!(|data: &[u8]| {
    let [selector, size, rest @ ..] = data else {
        return;
    };
    let n = usize::from(*size) % 41;
    let instances: &[fn(usize, &[u8])] = &[
        |n, d| batch_equals_scalar(&bn254::ct::t2(), n, d),
        |n, d| batch_equals_scalar(&bn254::ct::t3(), n, d),
        |n, d| batch_equals_scalar(&bn254::ct::t4(), n, d),
        |n, d| batch_equals_scalar(&bn254::ct::t8(), n, d),
        |n, d| batch_equals_scalar(&bn254::ct::t12(), n, d),
        |n, d| batch_equals_scalar(&bls12_381::ct::t2(), n, d),
        |n, d| batch_equals_scalar(&bls12_381::ct::t3(), n, d),
        |n, d| batch_equals_scalar(&bls12_381::ct::t4(), n, d),
        |n, d| batch_equals_scalar(&bls12_381::ct::t8(), n, d),
    ];
    instances[usize::from(*selector) % instances.len()](n, rest);
});
