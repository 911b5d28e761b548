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

/// One test per shipped instance (`for_each_instance!`), named after it.
macro_rules! textbook_agreement {
    ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
        #[test]
        fn $name() {
            assert_agree(&$ct, $flexible);
        }
    };
}

testkit::for_each_instance!(textbook_agreement);
