//! The `Field` implementation for ark-ff Montgomery fields equals ark's own arithmetic,
//! including at the edges of the branch-free addition (sums just below, at and above `p`).

#![cfg(all(feature = "bn254", feature = "bls12-381"))]
use ark_ff::PrimeField as _;
use fast_poseidon2::field::Field;
use proptest::prelude::*;

fn edges<F: ark_ff::PrimeField>() -> Vec<F> {
    let minus_one = -F::ONE;
    let half = F::from(F::MODULUS_MINUS_ONE_DIV_TWO);
    vec![
        F::ZERO,
        F::ONE,
        F::from(2u64),
        minus_one,
        minus_one.double(),
        half,
        half + F::ONE,
        -half,
    ]
}

fn check_pair<F: ark_ff::PrimeField + Field>(a: F, b: F) {
    assert_eq!(Field::add(a, b), a + b, "{a} + {b}");
    assert_eq!(Field::double(a), a + a, "2 * {a}");
    assert_eq!(Field::mul(a, b), a * b, "{a} * {b}");
    assert_eq!(Field::square(a), a * a, "{a}^2");
    assert_eq!(a.sbox::<5>(), a.pow([5u64]), "{a}^5");
    assert_eq!(a.sbox::<7>(), a.pow([7u64]), "{a}^7");
}

#[test]
fn bn254_edge_values_match_ark() {
    let e = edges::<ark_bn254::Fr>();
    for &a in &e {
        for &b in &e {
            check_pair(a, b);
        }
    }
}

#[test]
fn bls12_381_edge_values_match_ark() {
    let e = edges::<ark_bls12_381::Fr>();
    for &a in &e {
        for &b in &e {
            check_pair(a, b);
        }
    }
}

proptest! {
    #[test]
    fn bn254_random_values_match_ark(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
        check_pair(ark_bn254::Fr::from_be_bytes_mod_order(&a), ark_bn254::Fr::from_be_bytes_mod_order(&b));
    }

    #[test]
    fn bls12_381_random_values_match_ark(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
        check_pair(ark_bls12_381::Fr::from_be_bytes_mod_order(&a), ark_bls12_381::Fr::from_be_bytes_mod_order(&b));
    }
}

#[test]
fn canonical_decoding_rejects_slices_of_the_wrong_length() {
    use fast_poseidon2::field::PrimeField as _;
    for len in [0, 1, 31, 33, 64] {
        let bytes = vec![0u8; len];
        assert_eq!(
            ark_bn254::Fr::from_canonical_be_bytes(&bytes),
            None,
            "{len}"
        );
        assert_eq!(
            ark_bls12_381::Fr::from_canonical_be_bytes(&bytes),
            None,
            "{len}"
        );
    }
}
