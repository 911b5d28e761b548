//! Known answers: every shipped instance that the Horizen Labs reference also ships matches the
//! reference's output on `[0, 1, ..., t-1]`, on the const-generic and the runtime path.

mod common;

use common::{hex_array, instance, vectors};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::{Poseidon2, ct::Poseidon2Ct};

/// The ct path (field `C`) and the flexible path (field `F`) may run different types of the same
/// field (Goldilocks: `GoldilocksFast` and the ark `Goldilocks`).
fn check<
    C: PrimeField,
    F: PrimeField,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    id: &str,
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) {
    let kats = vectors("kats.json");
    let entry = instance(&kats, id);
    let input: Vec<C> = hex_array(&entry["input"]["hex"]);
    let expected: Vec<C> = hex_array(&entry["output"]["hex"]);
    let state: [C; T] = input.try_into().expect("width");
    assert_eq!(ct.permutation(&state).to_vec(), expected, "{id}: ct path");
    let input: Vec<F> = hex_array(&entry["input"]["hex"]);
    let expected: Vec<F> = hex_array(&entry["output"]["hex"]);
    assert_eq!(
        flexible.permutation(&input).unwrap(),
        expected,
        "{id}: flexible path"
    );
}

#[cfg(feature = "bn254")]
#[test]
fn bn254_t3_matches_reference_kat() {
    use fast_poseidon2::instances::bn254;
    check("bn254_t3", &bn254::ct::t3(), bn254::poseidon2_t3());
}

#[cfg(feature = "goldilocks")]
mod goldilocks_kats {
    use super::check;
    use fast_poseidon2::instances::goldilocks;

    #[test]
    fn goldilocks_t8_matches_reference_kat() {
        check(
            "goldilocks_t8",
            &goldilocks::ct::t8(),
            goldilocks::poseidon2_t8(),
        );
    }

    #[test]
    fn goldilocks_t12_matches_reference_kat() {
        check(
            "goldilocks_t12",
            &goldilocks::ct::t12(),
            goldilocks::poseidon2_t12(),
        );
    }

    #[test]
    fn goldilocks_t16_matches_reference_kat() {
        check(
            "goldilocks_t16",
            &goldilocks::ct::t16(),
            goldilocks::poseidon2_t16(),
        );
    }

    #[test]
    fn goldilocks_t20_matches_reference_kat() {
        check(
            "goldilocks_t20",
            &goldilocks::ct::t20(),
            goldilocks::poseidon2_t20(),
        );
    }
}
