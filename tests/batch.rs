//! Batch APIs against the scalar permutation: every backend this CPU runs must give exactly the
//! output of `permutation`, state by state, for every shipped instance.

use fast_poseidon2::field::{Field, PrimeField};
use fast_poseidon2::instances::bn254;
use fast_poseidon2::{BatchBackend, Error, batch_backend};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// The batch sizes the spec names: empty, below, at and around one and two vector groups, large.
const SIZES: [usize; 9] = [0, 1, 7, 8, 9, 15, 16, 17, 1000];

/// Says which backend is under test, and loudly when the CPU lacks the IFMA one.
fn announce<F: Field>(field: &str) {
    match batch_backend::<F>() {
        BatchBackend::Portable => eprintln!(
            "NOTE: no SIMD batch backend for {field} on this CPU/build (AVX-512 IFMA missing or \
             forced portable): only the portable path is tested"
        ),
        backend => eprintln!("{field}: testing batch backend {backend:?} against scalar"),
    }
}

fn random<F: PrimeField>(rng: &mut StdRng) -> F {
    let bytes: Vec<u8> = (0..F::BYTES).map(|_| rng.r#gen()).collect();
    F::from_be_bytes_reduced(&bytes)
}

/// `p - 1`, the largest canonical element.
fn minus_one<F: PrimeField>() -> F {
    F::ZERO.sub(F::ONE)
}

/// Random states, then states made of the extreme values 0, 1 and p - 1 in every pattern the
/// batch sizes allow, so lanes with different extremes share a vector.
fn states<F: PrimeField, const T: usize>(n: usize, seed: u64) -> Vec<[F; T]> {
    let mut rng = StdRng::seed_from_u64(seed);
    let extremes = [F::ZERO, F::ONE, minus_one::<F>()];
    (0..n)
        .map(|i| match i % 4 {
            0 => core::array::from_fn(|j| extremes[(i / 4 + j) % 3]),
            _ => core::array::from_fn(|_| random(&mut rng)),
        })
        .collect()
}

macro_rules! instance_tests {
    ($($name:ident: $ct:path, $rt:path, $t:literal;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn ct_permute_batch_equals_scalar_for_every_size() {
                announce::<ark_bn254::Fr>("BN254");
                let perm = $ct();
                for n in SIZES {
                    let input = states::<ark_bn254::Fr, $t>(n, n as u64);
                    let mut batch = input.clone();
                    perm.permute_batch(&mut batch);
                    for (i, (got, x)) in batch.iter().zip(&input).enumerate() {
                        assert_eq!(*got, perm.permutation(x), "size {n}, state {i}");
                    }
                }
            }

            #[test]
            fn all_extreme_states_equal_scalar() {
                let perm = $ct();
                let extremes = [ark_bn254::Fr::ZERO, ark_bn254::Fr::ONE, minus_one()];
                let input: Vec<[ark_bn254::Fr; $t]> =
                    extremes.iter().flat_map(|&e| [[e; $t]; 8]).collect();
                let mut batch = input.clone();
                perm.permute_batch(&mut batch);
                for (got, x) in batch.iter().zip(&input) {
                    assert_eq!(*got, perm.permutation(x));
                }
            }

            #[test]
            fn runtime_permute_batch_equals_ct() {
                let (ct, rt) = ($ct(), $rt());
                let input = states::<ark_bn254::Fr, $t>(17, 7);
                let mut flat: Vec<ark_bn254::Fr> = input.as_flattened().to_vec();
                rt.permute_batch(&mut flat).unwrap();
                for (got, x) in flat.chunks_exact($t).zip(&input) {
                    assert_eq!(got, ct.permutation(x));
                }
            }

            #[test]
            fn runtime_rejects_a_ragged_buffer() {
                let mut flat = vec![ark_bn254::Fr::ONE; $t + 1];
                let before = flat.clone();
                assert_eq!(
                    $rt().permute_batch(&mut flat),
                    Err(Error::InvalidBatchLength { len: $t + 1, width: $t })
                );
                assert_eq!(flat, before);
            }

            #[test]
            fn compress_batch_is_first_element_of_permuted_input_and_zero() {
                let perm = $ct();
                let inputs: Vec<[ark_bn254::Fr; $t - 1]> = states::<ark_bn254::Fr, $t>(19, 3)
                    .iter()
                    .map(|s| core::array::from_fn(|j| s[j]))
                    .collect();
                let digests = perm.compress_batch(&inputs);
                let runtime = $rt().compress_batch(inputs.as_flattened()).unwrap();
                assert_eq!(digests, runtime);
                for (d, x) in digests.iter().zip(&inputs) {
                    let state = core::array::from_fn(|j| if j < $t - 1 { x[j] } else { ark_bn254::Fr::ZERO });
                    assert_eq!(*d, perm.permutation(&state)[0]);
                }
            }
        }
    )*};
}

instance_tests! {
    bn254_t2: bn254::ct::t2, bn254::poseidon2_t2, 2;
    bn254_t3: bn254::ct::t3, bn254::poseidon2_t3, 3;
    bn254_t4: bn254::ct::t4, bn254::poseidon2_t4, 4;
    bn254_t8: bn254::ct::t8, bn254::poseidon2_t8, 8;
    bn254_t12: bn254::ct::t12, bn254::poseidon2_t12, 12;
}

/// The tree definition written out by hand for 5 leaves, arity 2: odd nodes pair with zero.
#[test]
fn merkle_root_pads_an_odd_last_node_with_zero() {
    let perm = bn254::ct::t3();
    let leaves: Vec<ark_bn254::Fr> = (1..=5u64).map(ark_bn254::Fr::from).collect();
    let h = |a, b| perm.permutation(&[a, b, ark_bn254::Fr::ZERO])[0];
    let zero = ark_bn254::Fr::ZERO;
    let level1 = [
        h(leaves[0], leaves[1]),
        h(leaves[2], leaves[3]),
        h(leaves[4], zero),
    ];
    let level2 = [h(level1[0], level1[1]), h(level1[2], zero)];
    let root = h(level2[0], level2[1]);
    assert_eq!(perm.merkle_root(&leaves), Ok(root));
    assert_eq!(bn254::poseidon2_t3().merkle_root(&leaves), Ok(root));
}

#[test]
fn merkle_root_of_one_leaf_is_the_leaf() {
    let leaf = ark_bn254::Fr::from(42u64);
    assert_eq!(bn254::ct::t3().merkle_root(&[leaf]), Ok(leaf));
}

#[test]
fn merkle_root_of_no_leaves_is_an_error() {
    assert_eq!(bn254::ct::t3().merkle_root(&[]), Err(Error::EmptyInput));
    assert_eq!(
        bn254::poseidon2_t3().merkle_root(&[]),
        Err(Error::EmptyInput)
    );
}

#[test]
fn merkle_root_rejects_width_two() {
    let leaves = [ark_bn254::Fr::ONE; 2];
    assert_eq!(
        bn254::poseidon2_t2().merkle_root(&leaves),
        Err(Error::UnsupportedWidth { t: 2 })
    );
}

#[test]
fn compress_batch_rejects_a_ragged_input() {
    let inputs = [ark_bn254::Fr::ONE; 3];
    assert_eq!(
        bn254::poseidon2_t3().compress_batch(&inputs),
        Err(Error::InvalidBatchLength { len: 3, width: 2 })
    );
}
