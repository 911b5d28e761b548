//! `GoldilocksFast` arithmetic: every operation equals integer arithmetic mod p on every u64
//! representation, including the non-canonical ones in `[p, 2^64)`, and agrees with the ark-ff
//! `Goldilocks`.

use fast_poseidon2::ExternalMatrix;
use fast_poseidon2::field::{Field, PrimeField};
use fast_poseidon2::goldilocks::{Goldilocks, GoldilocksFast, MODULUS};
use fast_poseidon2::linear::LinearLayers;
use proptest::prelude::*;

const P: u64 = MODULUS;

/// Representations at the edges of the special-form reductions: 0, 1, 2^32 - 1 (= 2^64 mod p),
/// 2^32, p - 1, p and p + 1 (non-canonical 0 and 1), 2^64 - 2^32, 2^64 - 1.
const EDGES: [u64; 9] = [
    0,
    1,
    (1 << 32) - 1,
    1 << 32,
    P - 1,
    P,
    P + 1,
    u64::MAX - ((1 << 32) - 1),
    u64::MAX,
];

fn p128() -> u128 {
    u128::from(P)
}

/// The canonical integer of `x mod p`.
fn reduce(x: u128) -> u64 {
    (x % p128()) as u64
}

fn fast(v: u64) -> GoldilocksFast {
    GoldilocksFast::new(v)
}

/// Asserts that `op` on every pair of edge representations equals `expected` on the integers.
fn check_edge_pairs(
    name: &str,
    op: impl Fn(GoldilocksFast, GoldilocksFast) -> GoldilocksFast,
    expected: impl Fn(u128, u128) -> u64,
) {
    for &a in &EDGES {
        for &b in &EDGES {
            let got = op(fast(a), fast(b)).to_canonical_u64();
            let want = expected(u128::from(a), u128::from(b));
            assert_eq!(got, want, "{name}({a:#x}, {b:#x})");
        }
    }
}

fn sub_mod_p(a: u128, b: u128) -> u64 {
    reduce(a % p128() + p128() - b % p128())
}

/// `x^d` by modular exponentiation on the integers.
fn pow_mod_p(x: u64, d: u64) -> u64 {
    (0..d).fold(1, |acc, _| reduce(u128::from(acc) * u128::from(x)))
}

/// The default S-box chains of `Field::sbox` (the ones a field without its own S-box runs) are
/// `x^d` for every supported degree, on every edge representation. Only d = 7 and 11 are
/// permutations of Goldilocks, but the chains for 3 and 5 serve other fields.
#[test]
fn default_sbox_chains_are_the_powers_for_every_degree() {
    for &a in &EDGES {
        let x = fast(a);
        let got = [x.sbox::<3>(), x.sbox::<5>(), x.sbox::<7>(), x.sbox::<11>()];
        for (d, got) in [3, 5, 7, 11].into_iter().zip(got) {
            assert_eq!(
                got.to_canonical_u64(),
                pow_mod_p(reduce(u128::from(a)), d),
                "{a:#x}^{d}"
            );
        }
    }
}

#[test]
fn add_matches_integer_arithmetic_on_edge_pairs() {
    check_edge_pairs("add", Field::add, |a, b| reduce(a + b));
}

#[test]
fn mul_matches_integer_arithmetic_on_edge_pairs() {
    check_edge_pairs("mul", Field::mul, |a, b| reduce(a * b));
}

#[test]
fn sub_matches_integer_arithmetic_on_edge_pairs() {
    check_edge_pairs("sub", PrimeField::sub, sub_mod_p);
}

#[test]
fn double_matches_integer_arithmetic_on_edge_values() {
    check_edge_pairs("double", |a, _| a.doubled(), |a, _| reduce(2 * a));
}

#[test]
fn square_matches_integer_arithmetic_on_edge_values() {
    check_edge_pairs("square", |a, _| a.squared(), |a, _| reduce(a * a));
}

#[test]
fn sbox_x7_matches_integer_arithmetic_on_edge_values() {
    check_edge_pairs(
        "sbox7",
        |a, _| a.sbox::<7>(),
        |a, _| {
            let a = a % p128();
            let a2 = a * a % p128();
            let a4 = a2 * a2 % p128();
            reduce(a4 * a2 % p128() * a)
        },
    );
}

#[test]
fn chained_operations_on_lazy_results_stay_correct() {
    // Feed each lazy result back in: errors in the bounds would compound.
    for &a in &EDGES {
        for &b in &EDGES {
            let (mut x, mut want) = (fast(a), u128::from(a) % p128());
            for _ in 0..64 {
                x = x.mul(fast(b)).add(fast(a)).doubled().sub(fast(b));
                want = (want * u128::from(b) + u128::from(a)) % p128();
                want = u128::from(sub_mod_p(2 * want, u128::from(b)));
            }
            assert_eq!(x.to_canonical_u64(), want as u64, "a = {a:#x}, b = {b:#x}");
        }
    }
}

#[test]
fn canonical_value_is_below_p_and_congruent() {
    for &a in &EDGES {
        let c = fast(a).to_canonical_u64();
        assert!(c < P, "{a:#x}");
        assert_eq!(c, reduce(u128::from(a)), "{a:#x}");
        assert_eq!(u64::from(fast(a)), c, "{a:#x}");
    }
}

#[test]
fn equality_and_hash_compare_elements_not_representations() {
    use std::hash::BuildHasher;
    let hasher = std::collections::hash_map::RandomState::new();
    for x in [0, 1, 5, (1 << 32) - 2] {
        let (canonical, lazy) = (fast(x), fast(x + P));
        assert_eq!(canonical, lazy);
        assert_eq!(hasher.hash_one(canonical), hasher.hash_one(lazy));
    }
    assert_ne!(fast(0), fast(1));
    assert_ne!(hasher.hash_one(fast(0)), hasher.hash_one(fast(1)));
}

#[test]
fn inverse_times_self_is_one_and_zero_has_none() {
    for &a in &EDGES {
        match fast(a).inverted() {
            None => assert_eq!(a % P, 0, "{a:#x}"),
            Some(inv) => assert_eq!(inv.mul(fast(a)), GoldilocksFast::ONE_ELEMENT, "{a:#x}"),
        }
    }
    assert_eq!(fast(P).inverted(), None);
}

#[test]
fn canonical_bytes_reject_p_and_above_and_wrong_lengths() {
    let decode = |v: u64| GoldilocksFast::from_canonical_be_bytes(&v.to_be_bytes());
    assert_eq!(decode(P - 1), Some(fast(P - 1)));
    assert_eq!(decode(0), Some(fast(0)));
    assert_eq!(decode(P), None);
    assert_eq!(decode(u64::MAX), None);
    assert_eq!(GoldilocksFast::from_canonical_be_bytes(&[0; 7]), None);
    assert_eq!(GoldilocksFast::from_canonical_be_bytes(&[0; 9]), None);
}

#[test]
fn canonical_bytes_round_trip_from_lazy_values() {
    for &a in &EDGES {
        let mut buf = [0u8; 8];
        fast(a).write_canonical_be_bytes(&mut buf);
        assert_eq!(u64::from_be_bytes(buf), reduce(u128::from(a)), "{a:#x}");
        assert_eq!(GoldilocksFast::from_canonical_be_bytes(&buf), Some(fast(a)));
    }
}

#[test]
fn reduced_bytes_reduce_any_length_mod_p() {
    assert_eq!(GoldilocksFast::from_be_bytes_reduced(&[]), fast(0));
    assert_eq!(GoldilocksFast::from_be_bytes_reduced(&[7]), fast(7));
    assert_eq!(
        GoldilocksFast::from_be_bytes_reduced(&u64::MAX.to_be_bytes()),
        fast(u64::MAX)
    );
    // 2^64 = 2^32 - 1 (mod p).
    assert_eq!(
        GoldilocksFast::from_be_bytes_reduced(&[1, 0, 0, 0, 0, 0, 0, 0, 0]),
        fast((1 << 32) - 1)
    );
}

/// The batch backends' 256-bit Montgomery hooks are for 4-limb fields; `GoldilocksFast` keeps
/// their defaults, so it never takes the AVX-512 IFMA backend (its own are the Goldilocks ones).
#[test]
fn goldilocks_fast_never_takes_the_256_bit_montgomery_backend() {
    assert_ne!(
        fast_poseidon2::batch_backend::<GoldilocksFast>(),
        fast_poseidon2::BatchBackend::Avx512Ifma
    );
}

#[test]
fn modulus_and_sizes_match_the_ark_field() {
    let (mut fast_p, mut ark_p) = ([0u8; 8], [0u8; 8]);
    GoldilocksFast::write_modulus_be(&mut fast_p);
    Goldilocks::write_modulus_be(&mut ark_p);
    assert_eq!(fast_p, P.to_be_bytes());
    assert_eq!(ark_p, fast_p);
    assert_eq!(GoldilocksFast::MODULUS_BITS, Goldilocks::MODULUS_BITS);
    assert_eq!(GoldilocksFast::BYTES, Goldilocks::BYTES);
}

#[test]
fn conversions_to_and_from_ark_preserve_the_element() {
    for &a in &EDGES {
        let ark = Goldilocks::from(fast(a));
        assert_eq!(ark, Goldilocks::from(a));
        assert_eq!(GoldilocksFast::from(ark), fast(a));
        assert!(GoldilocksFast::from(ark).to_canonical_u64() < P);
    }
}

/// `GoldilocksFast`'s own external and internal layers (wide sums, one reduction) equal the
/// layers of ark's `Goldilocks` (the generic ones of `linear`) at every supported width, for
/// states and diagonals of edge representations.
#[test]
fn goldilocks_fast_layers_equal_the_ark_fields_layers() {
    for t in [2, 3, 4, 8, 12, 16, 20, 24] {
        for shift in 0..EDGES.len() {
            let raw: Vec<u64> = (0..t).map(|i| EDGES[(i + shift) % EDGES.len()]).collect();
            let diag: Vec<u64> = (0..t).map(|i| EDGES[(i * 5 + 3) % EDGES.len()]).collect();
            let mut x: Vec<GoldilocksFast> = raw.iter().map(|&a| fast(a)).collect();
            let mut y: Vec<Goldilocks> = raw.iter().map(|&a| Goldilocks::from(a)).collect();
            for m4 in [ExternalMatrix::Plonky3, ExternalMatrix::HorizenLabs] {
                <GoldilocksFast as LinearLayers>::external_layer(&mut x, m4);
                <Goldilocks as LinearLayers>::external_layer(&mut y, m4);
                let ours: Vec<Goldilocks> = x.iter().map(|&v| Goldilocks::from(v)).collect();
                assert_eq!(ours, y, "external {m4:?}, t = {t}, shift {shift}");
            }
            let fast_diag: Vec<GoldilocksFast> = diag.iter().map(|&a| fast(a)).collect();
            let ark_diag: Vec<Goldilocks> = diag.iter().map(|&a| Goldilocks::from(a)).collect();
            <GoldilocksFast as LinearLayers>::internal_layer(&mut x, &fast_diag);
            <Goldilocks as LinearLayers>::internal_layer(&mut y, &ark_diag);
            let ours: Vec<Goldilocks> = x.iter().map(|&v| Goldilocks::from(v)).collect();
            assert_eq!(ours, y, "internal, t = {t}, shift {shift}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn random_pairs_match_integer_arithmetic(a: u64, b: u64) {
        let (x, y, a, b) = (fast(a), fast(b), u128::from(a), u128::from(b));
        prop_assert_eq!(x.add(y).to_canonical_u64(), reduce(a + b));
        prop_assert_eq!(x.mul(y).to_canonical_u64(), reduce(a * b));
        prop_assert_eq!(x.sub(y).to_canonical_u64(), sub_mod_p(a, b));
        prop_assert_eq!(x.doubled().to_canonical_u64(), reduce(2 * a));
        prop_assert_eq!(x.squared().to_canonical_u64(), reduce(a * a));
    }

    #[test]
    fn random_pairs_agree_with_ark(a: u64, b: u64) {
        let (x, y) = (fast(a), fast(b));
        let (u, v) = (Goldilocks::from(a), Goldilocks::from(b));
        prop_assert_eq!(Goldilocks::from(x.add(y)), u.add(v));
        prop_assert_eq!(Goldilocks::from(x.mul(y)), u.mul(v));
        prop_assert_eq!(Goldilocks::from(x.sub(y)), PrimeField::sub(u, v));
        prop_assert_eq!(
            x.inverted().map(Goldilocks::from),
            PrimeField::inverted(u)
        );
    }
}
