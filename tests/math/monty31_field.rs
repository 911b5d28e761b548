//! The 31-bit Montgomery fields `BabyBear` and `KoalaBear` (one implementation,
//! `field::monty31::Monty31`) against plain `u64` arithmetic mod p: every pair of edge values
//! (0, 1, 2, p - 1, p - 2, (p ± 1) / 2, 2^k ± 1 below p, ...) exhaustively, then property tests
//! of add, sub, mul, neg, square, double, pow, inverse and the canonical 4-byte encoding.

use fast_poseidon2::babybear::{self, BabyBear};
use fast_poseidon2::field::monty31::{Monty31, Monty31Modulus};
use fast_poseidon2::field::{Field, PrimeField};
use fast_poseidon2::koalabear::{self, KoalaBear};
use proptest::prelude::*;

/// `a^e mod p` by square-and-multiply on `u64`.
fn pow_mod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut acc = 1 % p;
    a %= p;
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * a % p;
        }
        a = a * a % p;
        e >>= 1;
    }
    acc
}

/// The edge values of a 31-bit field with modulus `p`, all canonical.
fn edges(p: u64) -> Vec<u64> {
    let mut v = vec![0, 1, 2, 3, p - 1, p - 2, p - 3, (p - 1) / 2, p.div_ceil(2)];
    for k in 0..31 {
        for x in [(1u64 << k) - 1, 1 << k, (1 << k) + 1] {
            if x < p {
                v.push(x);
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Every operation on `(a, b)` equals the `u64` reference.
fn check_pair<P: Monty31Modulus>(a: u64, b: u64) {
    let p = u64::from(P::MODULUS);
    let (x, y) = (Monty31::<P>::from_u64(a), Monty31::<P>::from_u64(b));
    let c = |v: Monty31<P>| u64::from(v.to_canonical_u32());
    assert_eq!(c(x), a % p, "from_u64({a})");
    let (e, a, b) = (b, a % p, b % p);
    assert_eq!(c(x.add(y)), (a + b) % p, "{a} + {b}");
    assert_eq!(c(x.sub(y)), (a + p - b) % p, "{a} - {b}");
    assert_eq!(c(x.mul(y)), a * b % p, "{a} * {b}");
    assert_eq!(c(x.neg()), (p - a) % p, "-{a}");
    assert_eq!(c(x.squared()), a * a % p, "{a}^2");
    assert_eq!(c(x.doubled()), 2 * a % p, "2 * {a}");
    assert_eq!(c(x.sbox::<3>()), pow_mod(a, 3, p), "{a}^3");
    assert_eq!(c(x.sbox::<5>()), pow_mod(a, 5, p), "{a}^5");
    assert_eq!(c(x.sbox::<7>()), pow_mod(a, 7, p), "{a}^7");
    assert_eq!(c(x.sbox::<11>()), pow_mod(a, 11, p), "{a}^11");
    assert_eq!(c(x.pow_u64(e)), pow_mod(a, e, p), "{a}^{e}");
    assert_eq!(x == y, a == b, "{a} == {b}");
    match x.inverted() {
        None => assert_eq!(a, 0, "{a} has an inverse"),
        Some(inv) => assert_eq!(c(inv) * a % p, 1, "{a}^-1"),
    }
}

/// The edge values pairwise, plus the ones just past p (reduced by `from_u64`).
fn check_edges<P: Monty31Modulus>() {
    let p = u64::from(P::MODULUS);
    let mut all = edges(p);
    all.extend([p, p + 1, 2 * p - 1, 2 * p, u64::from(u32::MAX), u64::MAX]);
    for &a in &all {
        for &b in &all {
            check_pair::<P>(a, b);
        }
    }
}

#[test]
fn babybear_edge_values_equal_u64_arithmetic() {
    assert_eq!(babybear::MODULUS, (1 << 31) - (1 << 27) + 1);
    check_edges::<babybear::BabyBearModulus>();
}

#[test]
fn koalabear_edge_values_equal_u64_arithmetic() {
    assert_eq!(koalabear::MODULUS, (1 << 31) - (1 << 24) + 1);
    check_edges::<koalabear::KoalaBearModulus>();
}

/// Canonical encodings: exactly 4 big-endian bytes below p; `p`, `2^32 - 1` and every other
/// length are rejected, never reduced.
fn check_encodings<P: Monty31Modulus>() {
    type F<P> = Monty31<P>;
    let p = P::MODULUS;
    assert_eq!((F::<P>::MODULUS_BITS, F::<P>::BYTES), (31, 4));
    let mut modulus = [0u8; 4];
    F::<P>::write_modulus_be(&mut modulus);
    assert_eq!(modulus, p.to_be_bytes());
    for v in edges(u64::from(p)) {
        let v = v as u32;
        let x = F::<P>::from_canonical_be_bytes(&v.to_be_bytes()).expect("canonical");
        assert_eq!(x.to_canonical_u32(), v);
        let mut out = [0u8; 4];
        x.write_canonical_be_bytes(&mut out);
        assert_eq!(out, v.to_be_bytes());
    }
    for bad in [p, p + 1, u32::MAX] {
        assert_eq!(
            F::<P>::from_canonical_be_bytes(&bad.to_be_bytes()),
            None,
            "{bad}"
        );
    }
    for len in [0, 1, 3, 5, 8] {
        assert_eq!(
            F::<P>::from_canonical_be_bytes(&vec![0u8; len]),
            None,
            "length {len}"
        );
    }
    // Reduced decoding: any length, mod p.
    assert_eq!(F::<P>::from_be_bytes_reduced(&[]), F::<P>::ZERO_ELEMENT);
    assert_eq!(
        F::<P>::from_be_bytes_reduced(&u64::MAX.to_be_bytes()).to_canonical_u32(),
        (u64::MAX % u64::from(p)) as u32
    );
}

#[test]
fn babybear_encodings_are_canonical_4_bytes() {
    check_encodings::<babybear::BabyBearModulus>();
}

#[test]
fn koalabear_encodings_are_canonical_4_bytes() {
    check_encodings::<koalabear::KoalaBearModulus>();
}

#[test]
fn const_new_and_from_u64_agree_and_debug_shows_the_integer() {
    for v in [
        0u32,
        1,
        5,
        babybear::MODULUS - 1,
        babybear::MODULUS,
        u32::MAX,
    ] {
        assert_eq!(BabyBear::new(v), BabyBear::from_u64(u64::from(v)), "{v}");
        assert_eq!(KoalaBear::new(v), KoalaBear::from(v), "{v}");
        assert_eq!(KoalaBear::new(v), KoalaBear::from(u64::from(v)), "{v}");
    }
    assert_eq!(format!("{:?}", BabyBear::new(5)), "BabyBear(5)");
    assert_eq!(format!("{}", KoalaBear::new(koalabear::MODULUS + 7)), "7");
    assert_eq!(u32::from(BabyBear::ONE_ELEMENT), 1);
}

/// `Hash` agrees with `Eq` (the same element from different integers hashes the same) and tells
/// elements apart (a constant hash would also agree with `Eq`, and make every hash map of
/// elements one bucket).
#[test]
fn hash_agrees_with_eq_and_tells_elements_apart() {
    use std::collections::HashSet;
    use std::hash::{BuildHasher, RandomState};
    let hasher = RandomState::new();
    let p = babybear::MODULUS;
    assert_eq!(
        hasher.hash_one(BabyBear::new(7)),
        hasher.hash_one(BabyBear::new(p + 7))
    );
    let hashes: HashSet<u64> = [0, 1, 2, p - 1]
        .into_iter()
        .map(|v| hasher.hash_one(BabyBear::new(v)))
        .collect();
    assert_eq!(hashes.len(), 4);
    let q = koalabear::MODULUS;
    assert_eq!(
        hasher.hash_one(KoalaBear::new(q - 1)),
        hasher.hash_one(KoalaBear::new(2 * q - 1))
    );
    assert_ne!(
        hasher.hash_one(KoalaBear::new(0)),
        hasher.hash_one(KoalaBear::new(1))
    );
}

/// Property tests of one field against `u64` arithmetic (256 cases each: the edge values above
/// are exhaustive, these sample the rest).
macro_rules! field_properties {
    ($module:ident, $field:ty, $modulus:path) => {
        mod $module {
            use super::*;

            const P: u64 = $modulus as u64;

            fn element() -> impl Strategy<Value = u64> {
                prop_oneof![0..P, Just(0), Just(P - 1), any::<u64>()]
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(256))]

                #[test]
                fn ring_operations_equal_u64_arithmetic(a in element(), b in element()) {
                    let (x, y) = (<$field>::from_u64(a), <$field>::from_u64(b));
                    let c = |v: $field| u64::from(v.to_canonical_u32());
                    let (a, b) = (a % P, b % P);
                    prop_assert_eq!(c(x.add(y)), (a + b) % P);
                    prop_assert_eq!(c(x.sub(y)), (a + P - b) % P);
                    prop_assert_eq!(c(x.mul(y)), a * b % P);
                    prop_assert_eq!(c(x.neg()), (P - a) % P);
                    prop_assert_eq!(c(x.squared()), a * a % P);
                    prop_assert_eq!(c(x.doubled()), 2 * a % P);
                }

                #[test]
                fn pow_and_inverse_equal_u64_arithmetic(a in element(), e in any::<u64>()) {
                    let x = <$field>::from_u64(a);
                    let a = a % P;
                    prop_assert_eq!(u64::from(x.pow_u64(e).to_canonical_u32()), pow_mod(a, e, P));
                    match x.inverted() {
                        None => prop_assert_eq!(a, 0),
                        Some(inv) => prop_assert_eq!(x.mul(inv), <$field>::ONE_ELEMENT),
                    }
                }

                #[test]
                fn encodings_round_trip_and_reject_non_canonical(v in any::<u32>()) {
                    let decoded = <$field>::from_canonical_be_bytes(&v.to_be_bytes());
                    if u64::from(v) < P {
                        let x = decoded.expect("canonical");
                        let mut out = [0u8; 4];
                        x.write_canonical_be_bytes(&mut out);
                        prop_assert_eq!(out, v.to_be_bytes());
                        prop_assert_eq!(x, <$field>::new(v));
                    } else {
                        prop_assert_eq!(decoded, None);
                    }
                }
            }
        }
    };
}

field_properties!(babybear_properties, BabyBear, babybear::MODULUS);
field_properties!(koalabear_properties, KoalaBear, koalabear::MODULUS);
