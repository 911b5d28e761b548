//! The `Field` implementation for ark-ff Montgomery fields equals ark's own arithmetic,
//! including at the edges of the branch-free addition (sums just below, at and above `p`) and
//! of the crate's own 4-limb Montgomery multiplication (stored limbs at 0, 1, `p - 1` and next to
//! the 64-bit word boundaries).

#![cfg(all(feature = "bn254", feature = "bls12-381", feature = "goldilocks"))]

use ark_ff::{BigInt, BigInteger as _, Fp, MontBackend, MontConfig, PrimeField as _};
use fast_poseidon2::field::{Field, PrimeField as OurPrimeField};
use fast_poseidon2::goldilocks::Goldilocks;
use fast_poseidon2::linear::LinearLayers;
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

/// Elements by their stored Montgomery limbs (not their value): every word at 0 or all ones,
/// `p - 1`, `p - 2`, `p - 2^64`, `p - 2^192`, and the largest limbs below `p` with a full low
/// part; those `>= p` are dropped.
fn limb_edges<C: MontConfig<4>>() -> Vec<Fp<MontBackend<C, 4>, 4>> {
    let p = C::MODULUS.0;
    let sub = |k: usize, v: u64| {
        let mut x = p;
        let mut borrow = v;
        for limb in &mut x[k..] {
            let (d, b) = limb.overflowing_sub(borrow);
            *limb = d;
            borrow = u64::from(b);
        }
        x
    };
    let m = u64::MAX;
    let raw = [
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [m, 0, 0, 0],
        [m, m, 0, 0],
        [m, m, m, 0],
        [0, 0, 0, 1],
        [m, m, m, p[3] - 1],
        [0, 0, 0, p[3]],
        sub(0, 1),
        sub(0, 2),
        sub(1, 1),
        sub(3, 1),
    ];
    raw.into_iter()
        .filter(|x| x.iter().rev().lt(p.iter().rev()))
        .map(|x| Fp::new_unchecked(BigInt(x)))
        .collect()
}

/// The `PrimeField` operations equal ark's: subtraction, inversion, the modulus and the
/// canonical big-endian bytes (written, read back, and reduced).
fn check_prime_field<F: ark_ff::PrimeField + OurPrimeField>(a: F, b: F) {
    assert_eq!(OurPrimeField::sub(a, b), a - b, "{a} - {b}");
    assert_eq!(
        OurPrimeField::inverted(a),
        ark_ff::Field::inverse(&a),
        "1 / {a}"
    );
    let tail = |be: Vec<u8>| be[be.len() - F::BYTES..].to_vec();
    let mut modulus = vec![0u8; F::BYTES];
    F::write_modulus_be(&mut modulus);
    assert_eq!(modulus, tail(F::MODULUS.to_bytes_be()));
    let mut bytes = vec![0u8; F::BYTES];
    a.write_canonical_be_bytes(&mut bytes);
    assert_eq!(bytes, tail(a.into_bigint().to_bytes_be()), "{a}");
    assert_eq!(F::from_canonical_be_bytes(&bytes), Some(a), "{a}");
    assert_eq!(F::from_be_bytes_reduced(&bytes), a, "{a}");
}

fn check_all_pairs<F: ark_ff::PrimeField + OurPrimeField>(e: &[F]) {
    for &a in e {
        for &b in e {
            check_pair(a, b);
        }
    }
}

fn check_pair<F: ark_ff::PrimeField + OurPrimeField>(a: F, b: F) {
    check_prime_field(a, b);
    assert_eq!(Field::add(a, b), a + b, "{a} + {b}");
    assert_eq!(Field::doubled(a), a + a, "2 * {a}");
    assert_eq!(Field::mul(a, b), a * b, "{a} * {b}");
    assert_eq!(Field::squared(a), a * a, "{a}^2");
    assert_eq!(a.sbox::<3>(), a.pow([3u64]), "{a}^3");
    assert_eq!(a.sbox::<5>(), a.pow([5u64]), "{a}^5");
    assert_eq!(a.sbox::<7>(), a.pow([7u64]), "{a}^7");
    assert_eq!(a.sbox::<11>(), a.pow([11u64]), "{a}^11");
    assert_eq!(a.add_sbox::<3>(b), (a + b).pow([3u64]), "({a} + {b})^3");
    assert_eq!(a.add_sbox::<5>(b), (a + b).pow([5u64]), "({a} + {b})^5");
    assert_eq!(a.add_sbox::<7>(b), (a + b).pow([7u64]), "({a} + {b})^7");
    assert_eq!(a.add_sbox::<11>(b), (a + b).pow([11u64]), "({a} + {b})^11");
}

#[test]
fn bn254_edge_values_match_ark() {
    check_all_pairs(&edges::<ark_bn254::Fr>());
}

#[test]
fn bls12_381_edge_values_match_ark() {
    check_all_pairs(&edges::<ark_bls12_381::Fr>());
}

#[test]
fn bn254_limb_edges_match_ark() {
    let e = limb_edges::<ark_bn254::FrConfig>();
    assert_eq!(e.len(), 12, "every BN254 edge is below p");
    check_all_pairs(&e);
}

#[test]
fn bls12_381_limb_edges_match_ark() {
    let e = limb_edges::<ark_bls12_381::FrConfig>();
    assert_eq!(e.len(), 12, "every BLS12-381 edge is below p");
    check_all_pairs(&e);
}

/// The Stark field (`p = 2^251 + 17 · 2^192 + 1`, low limb 1, `INV = 2^64 - 1`) on the same
/// value and stored-limb edges.
#[test]
fn stark252_edge_values_and_limb_edges_match_ark() {
    use fast_poseidon2::stark252::{Felt252, Felt252Config};
    check_all_pairs(&edges::<Felt252>());
    let e = limb_edges::<Felt252Config>();
    assert_eq!(
        e.len(),
        12,
        "every Stark edge is below p (p - 1, p - 2 appear twice)"
    );
    check_all_pairs(&e);
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

/// `LinearLayers::internal_layer` (grouped lazy sums for BN254) equals the generic layer of
/// `linear::internal_layer` on states of edge values, at every width it serves.
fn check_internal_layer<F: ark_ff::PrimeField + Field + LinearLayers>(e: &[F]) {
    for t in [4, 8, 12, 16] {
        let diag: Vec<F> = (0..t).map(|i| e[(i * 5 + 3) % e.len()]).collect();
        for shift in 0..e.len() {
            let state: Vec<F> = (0..t).map(|i| e[(i + shift) % e.len()]).collect();
            let mut ours = state.clone();
            LinearLayers::internal_layer(&mut ours, &diag);
            let mut generic = state;
            fast_poseidon2::linear::internal_layer(&mut generic, &diag);
            assert_eq!(ours, generic, "t = {t}, shift {shift}");
        }
        let mut all_max = vec![-<F as ark_ff::Field>::ONE; t];
        let mut generic = all_max.clone();
        LinearLayers::internal_layer(&mut all_max, &diag);
        fast_poseidon2::linear::internal_layer(&mut generic, &diag);
        assert_eq!(all_max, generic, "t = {t}, every element p - 1");
    }
}

#[test]
fn bn254_internal_layer_matches_generic_layer() {
    let mut e = edges::<ark_bn254::Fr>();
    e.extend(limb_edges::<ark_bn254::FrConfig>());
    check_internal_layer(&e);
}

#[test]
fn bls12_381_internal_layer_matches_generic_layer() {
    let mut e = edges::<ark_bls12_381::Fr>();
    e.extend(limb_edges::<ark_bls12_381::FrConfig>());
    check_internal_layer(&e);
}

/// A one-limb field (ark's Goldilocks `Fp64`) takes ark's own arithmetic instead of the 4-limb
/// path; its `Field` operations and S-boxes equal ark's too.
#[test]
fn one_limb_goldilocks_edge_values_match_ark() {
    let mut e = edges::<Goldilocks>();
    e.extend([u64::MAX, 1 << 63, (1 << 32) - 1, 1 << 32].map(Goldilocks::from));
    check_all_pairs(&e);
}

proptest! {
    #[test]
    fn one_limb_goldilocks_random_values_match_ark(a in any::<u64>(), b in any::<u64>()) {
        check_pair(Goldilocks::from(a), Goldilocks::from(b));
    }
}

/// `Field::from_u64` is ark's embedding of the integer, on the 4-limb and the one-limb fields.
#[test]
fn from_u64_equals_arks_integer_conversion() {
    for v in [0, 1, 2, 1 << 32, 1 << 63, u64::MAX - 1, u64::MAX] {
        assert_eq!(
            <ark_bn254::Fr as Field>::from_u64(v),
            ark_bn254::Fr::from(v)
        );
        assert_eq!(
            <ark_bls12_381::Fr as Field>::from_u64(v),
            ark_bls12_381::Fr::from(v)
        );
        assert_eq!(<Goldilocks as Field>::from_u64(v), Goldilocks::from(v));
    }
}

#[test]
fn canonical_decoding_rejects_slices_of_the_wrong_length() {
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
