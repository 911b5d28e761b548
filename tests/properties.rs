//! Differential properties on random inputs, checked against the textbook permutation (dense
//! matrices, generic exponentiation: `tests/common/textbook.rs`), not only path against path:
//! - for every shipped instance, the const-generic path, the runtime path and the textbook agree;
//! - the external and internal layers equal their dense matrices, for every supported width.
//!
//! Cases per property: `PROPERTY_CASES` (default 64, so CI stays fast; `scripts/verify.sh` runs
//! more).

mod common;

use common::textbook;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::{external_layer, internal_layer};
use fast_poseidon2::{Poseidon2, Poseidon2Params};
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
        1 => Just(F::ZERO),
        1 => Just(F::ONE),
        1 => Just(F::ONE.neg()),
        7 => proptest::collection::vec(any::<u8>(), F::BYTES)
            .prop_map(|bytes| F::from_be_bytes_reduced(&bytes)),
    ]
}

/// A vector of `len` elements.
fn elements<F: PrimeField>(len: usize) -> impl Strategy<Value = Vec<F>> {
    proptest::collection::vec(element::<F>(), len)
}

/// The ct permutation (over `C`), the runtime permutation (over `A`, a representation of the
/// same field: ark `Fp` for Goldilocks' fast `C`, otherwise `C` itself) and the textbook
/// permutation of the ct instance's parameters agree on `state`.
fn assert_paths_agree<
    C: PrimeField,
    A: PrimeField + From<C>,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<A>,
    state: &[C],
) -> Result<(), TestCaseError> {
    let state: [C; T] = state.try_into().expect("width");
    let out = ct.permutation(&state);
    let plain = textbook::permutation(&ct.to_params(), &state);
    prop_assert_eq!(&out[..], &plain[..], "ct vs textbook");
    let runtime_input: Vec<A> = state.iter().map(|&x| A::from(x)).collect();
    let runtime_expected: Vec<A> = out.iter().map(|&x| A::from(x)).collect();
    prop_assert_eq!(
        flexible.permutation(&runtime_input).unwrap(),
        runtime_expected,
        "runtime vs ct"
    );
    Ok(())
}

/// One module of proptests per field, `<module>::ct_runtime_and_textbook_agree::tN`: fields as
/// `(feature, instances module, ct field)` sharing one width list `[(ct constructor = test
/// name, runtime getter, width)]`.
macro_rules! paths_agree {
    ([$(($feature:literal, $module:ident, $field:ty)),* $(,)?], $widths:tt) => {
        $(paths_agree!($feature, $module, $field, $widths);)*
    };
    ($feature:literal, $module:ident, $field:ty, [$(($ct:ident, $getter:ident, $t:literal)),* $(,)?]) => {
        #[cfg(feature = $feature)]
        mod $module {
            mod ct_runtime_and_textbook_agree {
                use super::super::*;
                use fast_poseidon2::instances::$module;

                proptest! {
                    #![proptest_config(config())]
                    $(
                        #[test]
                        fn $ct(state in elements::<$field>($t)) {
                            assert_paths_agree(&$module::ct::$ct(), $module::$getter(), &state)?;
                        }
                    )*
                }
            }
        }
    };
}

paths_agree!(
    [
        ("bn254", bn254, ark_bn254::Fr),
        ("bls12-381", bls12_381, ark_bls12_381::Fr),
    ],
    [
        (t2, poseidon2_t2, 2),
        (t3, poseidon2_t3, 3),
        (t4, poseidon2_t4, 4),
        (t8, poseidon2_t8, 8),
        (t12, poseidon2_t12, 12),
    ]
);

paths_agree!(
    [(
        "goldilocks",
        goldilocks,
        fast_poseidon2::goldilocks::GoldilocksFast
    )],
    [
        (t8, poseidon2_t8, 8),
        (t12, poseidon2_t12, 12),
        (t16, poseidon2_t16, 16),
        (t20, poseidon2_t20, 20),
    ]
);

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
    let mut fast = state.to_vec();
    external_layer(&mut fast);
    prop_assert_eq!(
        fast,
        textbook::apply(&textbook::external_matrix::<F>(t), state)
    );
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
        2 => vec![F::ONE, F::from_u64(2)],
        3 => vec![F::ONE, F::ONE, F::from_u64(2)],
        _ => diag_m1,
    };
    let params = Poseidon2Params::new(t, 5, 0, 0, vec![], vec![], diag_m1).expect("valid width");
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
