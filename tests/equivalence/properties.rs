//! Differential properties on random inputs, checked against the textbook definitions (dense
//! matrices, generic exponentiation, modes written from their definitions:
//! `testkit/src/textbook.rs`), not only path against path. For every shipped instance:
//! - the const-generic path, the runtime path and the textbook permutation agree;
//! - the Merkle compression is the textbook `perm(children ‖ 0 …)[..D]` on both paths;
//! - the sponge (one-shot on both paths, streaming in random pieces) is the textbook sponge;
//! - batches (`permute_batch` on both paths, `compress_batch`, the Merkle roots and the
//!   incremental `MerkleBuilder`) are the textbook
//!   permutation, compression and Merkle root, on whichever backend this CPU selects;
//! - the byte API accepts exactly the slices of the right length encoding an integer `< p`,
//!   fails with the specified error otherwise, and then equals the textbook byte API.
//!
//! And for every supported width, the external and internal layers equal their dense matrices.
//!
//! Cases per property: `PROPERTY_CASES` (default 64, so CI stays fast; `scripts/verify.sh` runs
//! more).
#![cfg(feature = "std")]

use testkit as common;

use common::differential::{
    assert_batch_agrees, assert_bytes_agree, assert_compress_agrees, assert_paths_agree,
    assert_sponge_agrees,
};
use common::textbook;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::{external_layer, internal_layer};
use fast_poseidon2::{ExternalMatrix, MAX_BYTE_INPUTS, Poseidon2Params};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Cases per property, from `PROPERTY_CASES` (default 64).
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPERTY_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    ProptestConfig::with_cases(cases)
}

/// A field element: the edge values 0, 1, p - 1 now and then, otherwise `F::BYTES` random bytes
/// reduced mod p.
fn element<F: PrimeField>() -> impl Strategy<Value = F> {
    prop_oneof![
        1 => Just(F::ZERO_ELEMENT),
        1 => Just(F::ONE_ELEMENT),
        1 => Just(F::ONE_ELEMENT.neg()),
        7 => proptest::collection::vec(any::<u8>(), F::BYTES)
            .prop_map(|bytes| F::from_be_bytes_reduced(&bytes)),
    ]
}

/// A vector of `len` elements.
fn elements<F: PrimeField>(len: usize) -> impl Strategy<Value = Vec<F>> {
    proptest::collection::vec(element::<F>(), len)
}

/// [`elements`] of the field of `ct` (which only names the type).
fn elements_of<F: PrimeField, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    _ct: &Poseidon2Ct<F, T, RF, RP, D>,
    len: usize,
) -> impl Strategy<Value = Vec<F>> + use<F, T, RF, RP, D> {
    elements::<F>(len)
}

/// Byte inputs for the byte API over the field of `ct`, big-endian: three times in four 1 to
/// `MAX_BYTE_INPUTS` canonical encodings (accepted); otherwise 0 to `MAX_BYTE_INPUTS + 1`
/// slices mixing canonical encodings, random bytes, the modulus with random low bytes (values
/// just below and above `p`) and wrong lengths.
fn byte_inputs_of<F: PrimeField, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    _ct: &Poseidon2Ct<F, T, RF, RP, D>,
) -> impl Strategy<Value = Vec<Vec<u8>>> + use<F, T, RF, RP, D> {
    let canonical = || {
        element::<F>().prop_map(|x| {
            let mut be = vec![0u8; F::BYTES];
            x.write_canonical_be_bytes(&mut be);
            be
        })
    };
    let mut p = vec![0u8; F::BYTES];
    F::write_modulus_be(&mut p);
    let near_p = (
        1..=F::BYTES,
        proptest::collection::vec(any::<u8>(), F::BYTES),
    )
        .prop_map(move |(k, low)| {
            let mut x = p.clone();
            x[F::BYTES - k..].copy_from_slice(&low[F::BYTES - k..]);
            x
        });
    let mixed = prop_oneof![
        3 => canonical(),
        2 => proptest::collection::vec(any::<u8>(), F::BYTES),
        2 => near_p,
        1 => proptest::collection::vec(any::<u8>(), 0..=F::BYTES + 2),
    ];
    prop_oneof![
        3 => proptest::collection::vec(canonical(), 1..=MAX_BYTE_INPUTS),
        1 => proptest::collection::vec(mixed, 0..=MAX_BYTE_INPUTS + 1),
    ]
}

/// One module of properties per shipped instance (invoked by `for_each_instance!`).
macro_rules! instance_properties {
    ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn ct_runtime_and_textbook_agree(state in elements_of(&$ct, $t)) {
                    assert_paths_agree(&$ct, $flexible, &state);
                }

                #[test]
                fn compress_is_the_textbook_truncated_permutation_of_children_and_zeros(
                    inputs in elements_of(&$ct, $group),
                ) {
                    let ct = $ct;
                    let group: [_; $group] = inputs.as_slice().try_into().unwrap();
                    let compressed = ct.compress_batch(&[group]);
                    assert_compress_agrees(&ct.to_params(), $flexible, &inputs, &compressed);
                }

                #[test]
                fn sponge_one_shot_and_streaming_are_the_textbook_sponge(
                    len in 1usize..3 * $t,
                    seed in elements_of(&$ct, 3 * $t),
                    rate in 1usize..=$t - $digest,
                    out in ($digest as usize)..2 * $t,
                    absorb_cuts in proptest::collection::vec(any::<usize>(), 0..4),
                    squeeze_cuts in proptest::collection::vec(any::<usize>(), 0..4),
                ) {
                    let inputs = &seed[..len];
                    assert_sponge_agrees(&$ct, $flexible, inputs, rate, out, &absorb_cuts, &squeeze_cuts);
                }

                #[test]
                fn batch_permutation_compression_and_merkle_root_are_the_textbook_ones(
                    n in 0usize..20,
                    seed in elements_of(&$ct, 20 * $t),
                ) {
                    assert_batch_agrees(&$ct, $flexible, &seed[..n * $t]);
                }

                #[test]
                fn byte_api_accepts_exactly_canonical_encodings_and_is_the_textbook_byte_api(
                    little_endian in any::<bool>(),
                    mut inputs in byte_inputs_of(&$ct),
                ) {
                    if little_endian {
                        inputs.iter_mut().for_each(|x| x.reverse());
                    }
                    let slices: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
                    assert_bytes_agree(&$ct, $flexible, little_endian, &slices);
                }
            }
        }
    };
}

testkit::for_each_instance!(instance_properties);

/// Every supported width.
const WIDTHS: [usize; 10] = [2, 3, 4, 8, 12, 16, 20, 24, 28, 32];

/// A supported width and a random state of that width.
fn width_and_state<F: PrimeField>() -> impl Strategy<Value = (usize, Vec<F>)> {
    proptest::sample::select(&WIDTHS[..]).prop_flat_map(|t| (Just(t), elements::<F>(t)))
}

/// `external_layer` on `state` equals the dense `M_E` times `state`.
fn assert_external_layer_is_dense_matrix<F: PrimeField>(
    t: usize,
    state: &[F],
) -> Result<(), TestCaseError> {
    for m4 in [ExternalMatrix::HorizenLabs, ExternalMatrix::Plonky3] {
        let mut fast = state.to_vec();
        external_layer(&mut fast, m4);
        prop_assert_eq!(
            fast,
            textbook::apply(&textbook::external_matrix::<F>(t, m4), state)
        );
    }
    Ok(())
}

/// `internal_layer` with diagonal `diag_m1` (ignored for t = 2, 3, which use the fixed matrices)
/// equals the dense `M_I` times `state`.
fn assert_internal_layer_is_dense_matrix<F: PrimeField>(
    t: usize,
    state: &[F],
    diag_m1: Vec<F>,
) -> Result<(), TestCaseError> {
    let diag_m1 = match t {
        2 => vec![F::ONE_ELEMENT, F::from_u64(2)],
        3 => vec![F::ONE_ELEMENT, F::ONE_ELEMENT, F::from_u64(2)],
        _ => diag_m1,
    };
    // One round of each kind with zero constants: only the diagonal is read.
    let params = Poseidon2Params::new(
        t,
        5,
        2,
        1,
        vec![F::ZERO_ELEMENT; 2 * t],
        vec![F::ZERO_ELEMENT],
        diag_m1,
    )
    .expect("valid width");
    let mut fast = state.to_vec();
    internal_layer(&mut fast, params.internal_diagonal_minus_one());
    prop_assert_eq!(
        fast,
        textbook::apply(&textbook::internal_matrix(&params), state)
    );
    Ok(())
}

/// The layer properties over one field: `name_external`, `name_internal`.
macro_rules! layers_are_dense_matrices {
    ($($external:ident, $internal:ident: $field:ty;)*) => {
        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $external((t, state) in width_and_state::<$field>()) {
                    assert_external_layer_is_dense_matrix(t, &state)?;
                }

                #[test]
                fn $internal(
                    (t, state, diag) in width_and_state::<$field>()
                        .prop_flat_map(|(t, s)| (Just(t), Just(s), elements::<$field>(t)))
                ) {
                    assert_internal_layer_is_dense_matrix(t, &state, diag)?;
                }
            )*
        }
    };
}

#[cfg(feature = "bn254")]
layers_are_dense_matrices! {
    bn254_external_layer_is_the_dense_matrix, bn254_internal_layer_is_the_dense_matrix: ark_bn254::Fr;
}

#[cfg(feature = "bls12-381")]
layers_are_dense_matrices! {
    bls12_381_external_layer_is_the_dense_matrix, bls12_381_internal_layer_is_the_dense_matrix:
        ark_bls12_381::Fr;
}

#[cfg(feature = "goldilocks")]
layers_are_dense_matrices! {
    goldilocks_external_layer_is_the_dense_matrix, goldilocks_internal_layer_is_the_dense_matrix:
        fast_poseidon2::goldilocks::GoldilocksFast;
}
