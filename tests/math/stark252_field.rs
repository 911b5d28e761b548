//! The Stark field `Felt252` (`p = 2^251 + 17 · 2^192 + 1`): the crate's arithmetic (branch-free
//! addition, inlined Montgomery products, the lazy S-box chain of `p < 2^254`) against a bigint
//! reference at the edges (0, 1, `p - 1`, values near `2^251`, `2^192` and the 64-bit limb
//! boundaries), canonical encodings (integers `>= p` up to `2^256 - 1` rejected, never
//! reduced), and ark-ff's own arithmetic on random values.

use fast_poseidon2::field::{Field, PrimeField};
use fast_poseidon2::stark252::Felt252;
use num_bigint::BigUint;
use proptest::prelude::*;

fn p() -> BigUint {
    (BigUint::from(1u8) << 251) + (BigUint::from(17u8) << 192) + 1u8
}

fn pow2(k: u32) -> BigUint {
    BigUint::from(1u8) << k
}

/// The 32-byte big-endian encoding of `v < 2^256`.
fn be32(v: &BigUint) -> [u8; 32] {
    let bytes = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - bytes.len()..].copy_from_slice(&bytes);
    out
}

fn to_big(x: Felt252) -> BigUint {
    let mut bytes = [0u8; 32];
    x.write_canonical_be_bytes(&mut bytes);
    BigUint::from_bytes_be(&bytes)
}

fn from_big(v: &BigUint) -> Felt252 {
    Felt252::from_canonical_be_bytes(&be32(v)).expect("canonical")
}

/// Integers below p at the field's and the limbs' edges.
fn edges() -> Vec<BigUint> {
    let p = p();
    let one = BigUint::from(1u8);
    let mut e = vec![
        BigUint::from(0u8),
        one.clone(),
        BigUint::from(2u8),
        BigUint::from(3u8),
        &p - 1u8,
        &p - 2u8,
        (&p - 1u8) >> 1,
        (&p + 1u8) >> 1,
        pow2(251) - 1u8,
        pow2(251),
        pow2(251) + 1u8,
        pow2(251) + pow2(192),
        pow2(251) + (BigUint::from(17u8) << 192) - 1u8,
        &p - pow2(64),
        &p - pow2(192),
        &p - pow2(250),
    ];
    for k in [63, 64, 127, 128, 191, 192, 250] {
        e.push(pow2(k) - 1u8);
        e.push(pow2(k));
    }
    assert!(e.iter().all(|v| *v < p));
    e
}

#[test]
fn the_modulus_and_its_constants() {
    let p = p();
    let mut modulus = [0u8; 32];
    Felt252::write_modulus_be(&mut modulus);
    assert_eq!(BigUint::from_bytes_be(&modulus), p);
    assert_eq!((Felt252::MODULUS_BITS, Felt252::BYTES), (252, 32));
    assert_eq!(to_big(Felt252::ONE_ELEMENT), BigUint::from(1u8));
    assert_eq!(to_big(Felt252::ZERO_ELEMENT), BigUint::from(0u8));
    assert_eq!(to_big(Felt252::from_u64(u64::MAX)), BigUint::from(u64::MAX));
    assert_eq!(to_big(Felt252::ONE_ELEMENT.neg()), &p - 1u8);
}

#[test]
fn edge_values_match_the_bigint_reference() {
    let p = p();
    let e = edges();
    for a in &e {
        let x = from_big(a);
        assert_eq!(to_big(x), *a, "round trip {a}");
        assert_eq!(to_big(x.squared()), a * a % &p, "{a}^2");
        assert_eq!(to_big(x.doubled()), (a * 2u8) % &p, "2 * {a}");
        assert_eq!(
            to_big(x.sbox::<3>()),
            a.modpow(&BigUint::from(3u8), &p),
            "{a}^3"
        );
        assert_eq!(
            to_big(x.sbox::<5>()),
            a.modpow(&BigUint::from(5u8), &p),
            "{a}^5"
        );
        assert_eq!(to_big(x.neg()), (&p - a) % &p, "-{a}");
        let inverse = x.inverted().map(to_big);
        let expected = (*a != BigUint::from(0u8)).then(|| a.modpow(&(&p - 2u8), &p));
        assert_eq!(inverse, expected, "1 / {a}");
        for b in &e {
            let y = from_big(b);
            assert_eq!(to_big(x.add(y)), (a + b) % &p, "{a} + {b}");
            assert_eq!(to_big(x.sub(y)), (a + &p - b) % &p, "{a} - {b}");
            assert_eq!(to_big(x.mul(y)), a * b % &p, "{a} * {b}");
            assert_eq!(
                to_big(x.add_sbox::<3>(y)),
                (a + b).modpow(&BigUint::from(3u8), &p),
                "({a} + {b})^3"
            );
        }
    }
}

#[test]
fn non_canonical_encodings_are_rejected_and_reduction_is_exact() {
    let p = p();
    for v in [
        p.clone(),
        &p + 1u8,
        pow2(252) - 1u8,
        pow2(252),
        pow2(255),
        pow2(256) - 1u8,
        &p * 2u8,
    ] {
        let bytes = be32(&v);
        assert_eq!(Felt252::from_canonical_be_bytes(&bytes), None, "{v}");
        assert_eq!(
            to_big(Felt252::from_be_bytes_reduced(&bytes)),
            &v % &p,
            "{v}"
        );
    }
    assert_eq!(Felt252::from_canonical_be_bytes(&[0u8; 31]), None);
    assert_eq!(Felt252::from_canonical_be_bytes(&[0u8; 33]), None);
    assert_eq!(Felt252::from_canonical_be_bytes(&[]), None);
    let long = [0xffu8; 64];
    assert_eq!(
        to_big(Felt252::from_be_bytes_reduced(&long)),
        BigUint::from_bytes_be(&long) % &p
    );
}

proptest! {
    /// The crate's `Field` operations equal ark-ff's on random elements (and the bigint model).
    #[test]
    fn random_values_match_ark_and_the_bigint_reference(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
        use ark_ff::{Field as _, PrimeField as _};
        let (x, y) = (Felt252::from_be_bytes_mod_order(&a), Felt252::from_be_bytes_mod_order(&b));
        prop_assert_eq!(Field::mul(x, y), x * y);
        prop_assert_eq!(Field::add(x, y), x + y);
        prop_assert_eq!(Field::squared(x), x.square());
        prop_assert_eq!(x.sbox::<3>(), x.pow([3u64]));
        prop_assert_eq!(x.add_sbox::<3>(y), (x + y).pow([3u64]));
        let p = p();
        let (u, v) = (BigUint::from_bytes_be(&a) % &p, BigUint::from_bytes_be(&b) % &p);
        prop_assert_eq!(to_big(Field::mul(x, y)), &u * &v % &p);
    }
}

/// `starknet-types-core`'s `Felt` (through `starknet-crypto`'s re-export) and `Felt252` convert
/// both ways without changing the integer.
#[cfg(feature = "starknet")]
#[test]
fn starknet_felt_conversions_round_trip() {
    use fast_poseidon2::stark252::{from_starknet, to_starknet};
    use starknet_crypto::Felt;
    for a in edges() {
        let x = from_big(&a);
        let felt = to_starknet(x);
        assert_eq!(BigUint::from_bytes_be(&felt.to_bytes_be()), a);
        assert_eq!(from_starknet(&felt), x);
    }
    assert_eq!(
        to_starknet(Felt252::ONE_ELEMENT.neg()),
        Felt::ZERO - Felt::ONE
    );
}
