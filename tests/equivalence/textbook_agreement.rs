//! The fast layers against the definition: for every shipped instance, the textbook
//! dense-matrix permutation (`testkit/src/textbook.rs`: full `t x t` products, generic pow),
//! the `ct` path and the runtime path agree on the all-zero, all-`(p - 1)` and 100 random
//! states.

use testkit as common;

use common::{assert_both_paths, random_states, textbook};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::{Poseidon2, ct::Poseidon2Ct};

fn assert_agree<
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &Poseidon2Ct<F, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) {
    for state in random_states::<F, T>(0x7465_7874_626f_6f6b, 100) {
        let expected = textbook::permutation(flexible.params(), &state);
        assert_both_paths(ct, flexible, &state, &expected, &format!("{state:?}"));
    }
}

/// One test per shipped instance: `(test, ct constructor, getter)`.
macro_rules! textbook_agreement {
    ($feature:literal, $module:ident, [$(($name:ident, $ct:ident, $getter:ident)),* $(,)?]) => {$(
        #[cfg(feature = $feature)]
        #[test]
        fn $name() {
            use fast_poseidon2::instances::$module;
            assert_agree(&$module::ct::$ct(), $module::$getter());
        }
    )*};
}

textbook_agreement!(
    "bn254",
    bn254,
    [
        (bn254_t2_agrees_with_textbook, t2, poseidon2_t2),
        (bn254_t3_agrees_with_textbook, t3, poseidon2_t3),
        (bn254_t4_agrees_with_textbook, t4, poseidon2_t4),
        (bn254_t8_agrees_with_textbook, t8, poseidon2_t8),
        (bn254_t12_agrees_with_textbook, t12, poseidon2_t12),
    ]
);

textbook_agreement!(
    "bls12-381",
    bls12_381,
    [
        (bls12_381_t2_agrees_with_textbook, t2, poseidon2_t2),
        (bls12_381_t3_agrees_with_textbook, t3, poseidon2_t3),
        (bls12_381_t4_agrees_with_textbook, t4, poseidon2_t4),
        (bls12_381_t8_agrees_with_textbook, t8, poseidon2_t8),
        (bls12_381_t12_agrees_with_textbook, t12, poseidon2_t12),
    ]
);
