//! Known answers: every shipped instance that the Horizen Labs reference also ships matches the
//! reference's output on `[0, 1, ..., t-1]`, on the const-generic and the runtime path.

mod common;

use common::assert_kat;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::{Poseidon2, ct::Poseidon2Ct};

fn check<F: PrimeField, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    id: &str,
    ct: &Poseidon2Ct<F, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) {
    assert_kat("kats.json", id, ct, flexible);
}

#[cfg(feature = "bn254")]
#[test]
fn bn254_t3_matches_reference_kat() {
    use fast_poseidon2::instances::bn254;
    check("bn254_t3", &bn254::ct::t3(), bn254::poseidon2_t3());
}

#[cfg(feature = "bls12-381")]
#[test]
fn bls12_381_t2_matches_reference_kat() {
    use fast_poseidon2::instances::bls12_381;
    check(
        "bls12_381_t2",
        &bls12_381::ct::t2(),
        bls12_381::poseidon2_t2(),
    );
}

#[cfg(feature = "bls12-381")]
#[test]
fn bls12_381_t3_matches_reference_kat() {
    use fast_poseidon2::instances::bls12_381;
    check(
        "bls12_381_t3",
        &bls12_381::ct::t3(),
        bls12_381::poseidon2_t3(),
    );
}

#[cfg(feature = "bls12-381")]
#[test]
fn bls12_381_t4_matches_reference_kat() {
    use fast_poseidon2::instances::bls12_381;
    check(
        "bls12_381_t4",
        &bls12_381::ct::t4(),
        bls12_381::poseidon2_t4(),
    );
}

#[cfg(feature = "bls12-381")]
#[test]
fn bls12_381_t8_matches_reference_kat() {
    use fast_poseidon2::instances::bls12_381;
    check(
        "bls12_381_t8",
        &bls12_381::ct::t8(),
        bls12_381::poseidon2_t8(),
    );
}
