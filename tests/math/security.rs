//! Security conditions: the round numbers of every shipped instance and of the reference's own
//! formula (section 7 of the project's Grain notes, from the reference's `poseidon2_rust_params.sage`),
//! and the internal-matrix check (paper section 5.3): a known-bad diagonal is rejected, every
//! shipped diagonal accepted.

use testkit as common;
use testkit::small;

use common::babybear::BabyBear;
use fast_poseidon2::field::{Field, PrimeField};
use fast_poseidon2::security::{check_internal_matrix, round_numbers};
use fast_poseidon2::{Error, Poseidon2Params};
use small::{F5, F7, F11, F13, F17};

/// Security level of every shipped instance, in bits.
const SECURITY: u32 = 128;

/// Field sizes (bits) and S-box degrees of the table's columns: 254-bit (BN254) and 255-bit
/// (BLS12-381) with d = 5, 64-bit (Goldilocks) and 31-bit (BabyBear) with d = 7.
const COLUMNS: [(u32, u64); 4] = [(254, 5), (255, 5), (64, 7), (31, 7)];

/// `(t, [(R_F, R_P) per column of COLUMNS])`: the reference's search output, copied from
/// GRAIN.md section 7 (the 254/255-bit column is one column there).
const REFERENCE_TABLE: [(usize, [(usize, usize); 4]); 8] = [
    (2, [(8, 56), (8, 56), (8, 27), (12, 24)]),
    (3, [(8, 56), (8, 56), (8, 23), (12, 17)]),
    (4, [(8, 56), (8, 56), (8, 21), (8, 21)]),
    (8, [(8, 57), (8, 57), (8, 22), (8, 12)]),
    (12, [(8, 57), (8, 57), (8, 22), (8, 10)]),
    (16, [(8, 57), (8, 57), (8, 22), (8, 13)]),
    (20, [(8, 57), (8, 57), (8, 22), (8, 18)]),
    (24, [(8, 57), (8, 57), (8, 22), (8, 21)]),
];

#[test]
fn round_numbers_match_the_reference_formula_table() {
    for (t, row) in REFERENCE_TABLE {
        for ((bits, d), expected) in COLUMNS.into_iter().zip(row) {
            assert_eq!(
                round_numbers(bits, t, d, SECURITY, true),
                Ok(expected),
                "{bits}-bit field, t = {t}, d = {d}"
            );
        }
    }
}

/// The parameters of every shipped instance (`for_each_instance!`), as the cached getters
/// serve them.
fn shipped() -> Vec<(&'static str, ShippedInstance)> {
    #[allow(unused_mut)]
    let mut all = Vec::new();
    macro_rules! ship {
        ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
            all.push((
                stringify!($name),
                ShippedInstance::of::<$field>(
                    fast_poseidon2::instances::$module::$getter().params(),
                ),
            ));
        };
    }
    testkit::for_each_instance!(@spec ship);
    all
}

/// What the security tests need of a shipped instance, field-erased.
struct ShippedInstance {
    field_bits: u32,
    t: usize,
    d: u64,
    rounds: (usize, usize),
    /// The security check's verdict on the instance's internal diagonal `mu`.
    diagonal_check: Result<(), Error>,
}

impl ShippedInstance {
    /// `mu` is that of `J + diag(mu - 1)`; for a scaled `M_I = c·J + diag(d)` (SP1's), that of
    /// `M_I / c = J + diag(d / c)`, which has the same properties.
    fn of<F: PrimeField>(params: &Poseidon2Params<F>) -> Self {
        let unscale = params
            .internal_sum_scale()
            .map_or(F::ONE_ELEMENT, |c| c.inverted().expect("non-zero scale"));
        let mu: Vec<F> = params
            .internal_diagonal_minus_one()
            .iter()
            .map(|&m| m.mul(unscale).add(F::ONE_ELEMENT))
            .collect();
        ShippedInstance {
            field_bits: F::MODULUS_BITS,
            t: params.width(),
            d: params.sbox_degree(),
            rounds: (params.rounds_f(), params.rounds_p()),
            diagonal_check: check_internal_matrix(&mu),
        }
    }
}

#[test]
fn round_numbers_reproduce_every_shipped_instance() {
    for (name, i) in shipped() {
        assert_eq!(
            round_numbers(i.field_bits, i.t, i.d, SECURITY, true),
            Ok(i.rounds),
            "{name}"
        );
    }
}

/// Whether the instance's internal diagonal is hard-coded by its ecosystem (Plonky3's, SP1's)
/// rather than drawn from Grain.
fn hard_coded(name: &str) -> bool {
    name.starts_with("plonky3_") || name.starts_with("sp1_")
}

/// Every Grain-drawn diagonal (t >= 4). The fixed t = 2, 3 matrices are outside the check, as
/// in the reference, which never runs it on them: `[[2,1,1],[1,2,1],[1,1,3]]` has eigenvalue 1
/// (eigenvector `(1, -1, 0)`), so its characteristic polynomial is reducible.
#[test]
fn every_shipped_drawn_internal_diagonal_passes_the_security_check() {
    for (name, i) in shipped() {
        if i.t >= 4 && !hard_coded(name) {
            assert_eq!(i.diagonal_check, Ok(()), "{name}");
        }
    }
}

/// Plonky3's and SP1's diagonals are hard-coded, not drawn: the verdicts of the crate's check (the
/// reference's conditions, `security::check_internal_matrix`) on them, recorded. BabyBear
/// t = 24's `V` fails it (`InsecureInternalMatrix`); the instance is shipped anyway because it
/// is Plonky3's permutation, which it must equal (noted in `docs/compat.md`).
#[test]
fn plonky3_hard_coded_diagonals_security_check_verdicts() {
    let verdicts: Vec<(&str, bool)> = shipped()
        .into_iter()
        .filter(|(name, _)| hard_coded(name))
        .map(|(name, i)| (name, i.diagonal_check.is_ok()))
        .collect();
    let expected = [
        ("plonky3_babybear_t16", true),
        ("plonky3_babybear_t24", false),
        ("plonky3_koalabear_t16", true),
        ("plonky3_koalabear_t24", true),
        ("plonky3_goldilocks_t8", true),
        ("plonky3_goldilocks_t12", true),
        ("plonky3_goldilocks_t16", true),
        ("sp1_koalabear_t16", true),
    ];
    let expected: Vec<(&str, bool)> = expected
        .into_iter()
        .filter(|(name, _)| verdicts.iter().any(|(n, _)| n == name))
        .collect();
    assert_eq!(verdicts, expected);
}

/// `M_I = J + diag(2, 4, ..., 2^16)` over BabyBear, t = 16: the all-ones matrix plus powers of
/// two, i.e. `mu_i = 2^(i+1) + 1`.
#[test]
fn powers_of_two_internal_diagonal_is_rejected_over_a_31_bit_field() {
    let mu: Vec<BabyBear> = (1..=16).map(|i| BabyBear::from_u64((1 << i) + 1)).collect();
    assert_eq!(
        check_internal_matrix(&mu),
        Err(Error::InsecureInternalMatrix)
    );
}

#[test]
fn internal_matrix_check_rejects_fewer_than_two_entries() {
    assert_eq!(
        check_internal_matrix::<BabyBear>(&[]),
        Err(Error::UnsupportedWidth { t: 0 })
    );
    assert_eq!(
        check_internal_matrix(&[BabyBear::ONE_ELEMENT]),
        Err(Error::UnsupportedWidth { t: 1 })
    );
}

/// `M_I = [[2, 1], [1, 15]]` over GF(17) (`mu = (2, 15)`): its characteristic polynomial
/// `X^2 - 17 X + 29 = X^2 - 5` is irreducible (5 is not a square mod 17), yet
/// `M_I^2 = 5 I` has the minimal polynomial `X - 5` of degree 1, so the `k = 2` condition fails.
#[test]
fn internal_matrix_with_a_scalar_square_is_rejected_though_its_charpoly_is_irreducible() {
    assert!((0..17u64).all(|x| F17::from_u64(x * x) != F17::from_u64(5)));
    let mu = [F17::from_u64(2), F17::from_u64(15)];
    assert_eq!(
        check_internal_matrix(&mu),
        Err(Error::InsecureInternalMatrix)
    );
}

/// `A` (t x t) has a minimal polynomial irreducible of degree t exactly when `F^t` has no
/// `A`-invariant subspace besides 0 and itself, i.e. when every non-zero `v` is cyclic:
/// `v, A v, ..., A^(t-1) v` are independent. Checked for every `v` whose first non-zero entry is
/// 1 (scaling `v` changes nothing).
fn minimal_polynomial_is_irreducible_of_degree_t<F: PrimeField>(a: &[Vec<F>]) -> bool {
    let t = a.len();
    let p = small::modulus::<F>();
    (1..p.pow(t as u32)).all(|index| {
        let v = digits::<F>(index, t);
        if v.iter().find(|&&x| x != F::ZERO_ELEMENT) != Some(&F::ONE_ELEMENT) {
            return true;
        }
        let mut krylov = vec![v];
        for _ in 1..t {
            let last = krylov.last().expect("non-empty");
            let next = a
                .iter()
                .map(|row| {
                    row.iter()
                        .zip(last)
                        .fold(F::ZERO_ELEMENT, |s, (&x, &y)| s.add(x.mul(y)))
                })
                .collect();
            krylov.push(next);
        }
        small::determinant(krylov) != F::ZERO_ELEMENT
    })
}

/// The base-p digits of `index`, as `t` field elements.
fn digits<F: PrimeField>(mut index: usize, t: usize) -> Vec<F> {
    let p = small::modulus::<F>();
    (0..t)
        .map(|_| {
            let digit = index % p;
            index /= p;
            F::from_u64(digit as u64)
        })
        .collect()
}

/// The definition the check implements (module docs of `security::internal_matrix`, the
/// reference's `check_minpoly_condition`): `M_I = J - I + diag(mu)` is accepted when the minimal
/// polynomial of `M_I^k` is irreducible of degree t for every `k = 1..=2t`, here with dense
/// matrix powers and the invariant-subspace criterion instead of polynomial arithmetic.
fn textbook_internal_matrix_check<F: PrimeField>(mu: &[F]) -> bool {
    first_failing_power(mu).is_none()
}

/// The smallest `k` in `1..=2t` for which the minimal polynomial of `M_I^k` is not irreducible
/// of degree t (see [`textbook_internal_matrix_check`]), if any.
fn first_failing_power<F: PrimeField>(mu: &[F]) -> Option<usize> {
    let t = mu.len();
    let m: Vec<Vec<F>> = (0..t)
        .map(|i| {
            (0..t)
                .map(|j| if i == j { mu[i] } else { F::ONE_ELEMENT })
                .collect()
        })
        .collect();
    let mut power = m.clone();
    for k in 1..=2 * t {
        if k > 1 {
            power = power
                .iter()
                .map(|row| {
                    (0..t)
                        .map(|j| (0..t).fold(F::ZERO_ELEMENT, |s, l| s.add(row[l].mul(m[l][j]))))
                        .collect()
                })
                .collect();
        }
        if !minimal_polynomial_is_irreducible_of_degree_t(&power) {
            return Some(k);
        }
    }
    None
}

/// Every diagonal `mu` of GF(13)^2, GF(7)^3 and GF(5)^4: the check accepts
/// exactly the ones the definition accepts (and each set has both kinds). Widths 2 and 3 are
/// prime, width 4 has the proper subfield `F_(p^2)` of `F_(p^4)`. (GF(3)^4, GF(3)^5 and GF(3)^6
/// have no accepted diagonal at all.)
#[test]
fn internal_matrix_check_agrees_with_the_definition_on_every_small_diagonal() {
    fn exhaust<F: PrimeField>(t: usize) {
        let p = small::modulus::<F>();
        let mut accepted = 0;
        for index in 0..p.pow(t as u32) {
            let mu = digits::<F>(index, t);
            let expected = textbook_internal_matrix_check(&mu);
            let got = check_internal_matrix(&mu);
            assert_eq!(
                got.is_ok(),
                expected,
                "GF({p}), mu = {:?}: {got:?}",
                mu.iter().map(|&x| small::canonical(x)).collect::<Vec<_>>()
            );
            if !expected {
                assert_eq!(got, Err(Error::InsecureInternalMatrix));
            }
            accepted += usize::from(expected);
        }
        assert!(
            0 < accepted && accepted < p.pow(t as u32),
            "GF({p}), t = {t}: {accepted} accepted"
        );
    }
    exhaust::<F13>(2);
    exhaust::<F7>(3);
    exhaust::<F5>(4);
}

/// `mu = (0, 2, 5, 7, 8, 9)` over GF(11), t = 6 (found with a script): the minimal polynomial
/// of `M_I^k` is irreducible of degree 6 for every `k <= 11`, but an eigenvalue `lambda`
/// (generating `F_(11^6)`) has `lambda^12` in the subfield `F_(11^3)` (12 divides
/// `11^3 + 1 = 1332`, the order of `F_(11^6)^* / F_(11^3)^*`), so `M_I^12` has a minimal
/// polynomial of degree 3. Only the powers `k` in `(t + 2, 2t]` see it: the check must go up to
/// `k = 2t`.
#[test]
fn internal_matrix_whose_only_failing_power_is_twice_the_width_is_rejected() {
    let mu: Vec<F11> = [0, 2, 5, 7, 8, 9].map(F11::from_u64).to_vec();
    assert_eq!(first_failing_power(&mu), Some(12));
    assert_eq!(
        check_internal_matrix(&mu),
        Err(Error::InsecureInternalMatrix)
    );
}

/// `mu = (12, 10, 4, 4, 9, 3)` over GF(13), t = 6: the characteristic polynomial is squarefree
/// with irreducible factors of degrees 1, 2 and 3, so `x^(13^6) = x` modulo it, and no power
/// `lambda^k` (k <= 12) of an eigenvalue lies in a proper subfield in every factor at once (found
/// and checked with a script). Only the gcd step of Rabin's test, `gcd(x^(13^3) - x, f) != 1`,
/// sees that it is reducible; `M_I` has an eigenvalue in GF(13) itself.
#[test]
fn internal_matrix_with_charpoly_factors_of_degrees_one_two_three_is_rejected() {
    let mu: Vec<F13> = [12, 10, 4, 4, 9, 3].map(F13::from_u64).to_vec();
    let has_eigenvalue = (0..13).any(|l| {
        let shifted: Vec<Vec<F13>> = (0..6)
            .map(|i| {
                (0..6)
                    .map(|j| {
                        if i == j {
                            mu[i].sub(F13::from_u64(l))
                        } else {
                            F13::ONE_ELEMENT
                        }
                    })
                    .collect()
            })
            .collect();
        small::determinant(shifted) == F13::ZERO_ELEMENT
    });
    assert!(has_eigenvalue);
    assert_eq!(
        check_internal_matrix(&mu),
        Err(Error::InsecureInternalMatrix)
    );
}

/// The search of GRAIN.md section 7 written out without shortcuts: every `R_P` in `1..500`,
/// for each the smallest even `R_F` in `4..100` meeting every bound (the cost grows with `R_F`),
/// the margin, and the cheapest pair (ties: smaller `R_F`).
fn textbook_round_numbers(
    n: u32,
    t: usize,
    d: u64,
    m: u32,
    margin: bool,
) -> Option<(usize, usize)> {
    let (n, tf, alpha, m) = (f64::from(n), t as f64, d as f64, f64::from(m));
    let log = |x: f64, base: f64| x.ln() / base.ln();
    let log2_binomial = |over: f64, under: f64| -> f64 {
        let k = under.min(over - under);
        (1..=k as u64)
            .map(|i| log((over - k + i as f64) / i as f64, 2.0))
            .sum()
    };
    let secure = |rf: f64, rp: f64| {
        let statistical = if m <= (n - (alpha - 1.0) / 2.0).floor() * (tf + 1.0) {
            6.0
        } else {
            10.0
        };
        let bounds = [
            statistical,
            1.0 + (log(2.0, alpha) * m.min(n)).ceil() + log(tf, alpha).ceil() - rp,
            log(2.0, alpha) * m.min(n) - rp,
            tf - 1.0 + log(2.0, alpha) * (m / (tf + 1.0)).min(n / 2.0) - rp,
            (tf - 2.0 + m / (2.0 * log(alpha, 2.0)) - rp) / (tf - 1.0),
        ];
        let r = (tf / 3.0).floor();
        let over = (rf - 1.0) * tf + 2.0 * rp + r + r * rf / 2.0 + alpha;
        let under = r * rf / 2.0 + rp + alpha;
        bounds.iter().all(|b| rf >= b.ceil()) && (2.0 * log2_binomial(over, under)).ceil() >= m
    };
    let mut best: Option<(usize, usize, usize)> = None;
    for rp in 1..500usize {
        let Some(rf) = (4..100usize)
            .step_by(2)
            .find(|&rf| secure(rf as f64, rp as f64))
        else {
            continue;
        };
        let (rf, rp) = if margin {
            (rf + 2, (rp as f64 * 1.075).ceil() as usize)
        } else {
            (rf, rp)
        };
        let cost = t * rf + rp;
        if best.is_none_or(|(c, f, _)| cost < c || (cost == c && rf < f)) {
            best = Some((cost, rf, rp));
        }
    }
    best.map(|(_, rf, rp)| (rf, rp))
}

/// `round_numbers` equals the shortcut-free search on a grid around the shipped parameters:
/// field sizes where the statistical bound switches (35 bits for t = 3, d = 7, M = 128),
/// small and large security levels, every S-box degree, with and without the margin.
#[test]
fn round_numbers_equal_the_exhaustive_search_on_a_parameter_grid() {
    for n in [31, 35, 64, 254] {
        for t in [2, 3, 4, 8] {
            for d in [3, 5, 7] {
                for m in [80, 128, 256] {
                    for margin in [false, true] {
                        let expected = textbook_round_numbers(n, t, d, m, margin).ok_or(
                            Error::NoSecureRoundNumbers {
                                field_bits: n,
                                t,
                                d,
                                security_level: m,
                            },
                        );
                        assert_eq!(
                            round_numbers(n, t, d, m, margin),
                            expected,
                            "n = {n}, t = {t}, d = {d}, M = {m}, margin {margin}"
                        );
                    }
                }
            }
        }
    }
}

/// The tie rule and the cost order, where they decide (parameter sets found with a script; a
/// 4-bit field at security levels far above it, d = 3, with the margin). There the third
/// Groebner bound `(t - 2 + M / (2 log2 alpha) - R_P) / (t - 1)` decides: two fewer full rounds
/// need `2 (t - 1)` more partial rounds, about `2.15 (t - 1)` S-boxes after the margin against
/// the `2 t` saved, so the cheapest pair is not the one with the fewest full rounds.
/// - t = 12, M = 800: `(14, 141)` and the later `(12, 165)` both cost 309 S-boxes: the smaller
///   `R_F` wins.
/// - t = 16, M = 1152: `(14, 213)` costs 437, the later `(12, 246)` 438: fewer full rounds do
///   not win at a higher cost.
#[test]
fn round_numbers_break_cost_ties_toward_fewer_full_rounds_and_never_pay_for_them() {
    for (t, m, pair) in [(12, 800, (12, 165)), (16, 1152, (14, 213))] {
        assert_eq!(
            round_numbers(4, t, 3, m, true),
            Ok(pair),
            "t = {t}, M = {m}"
        );
        assert_eq!(
            textbook_round_numbers(4, t, 3, m, true),
            Some(pair),
            "t = {t}, M = {m}"
        );
    }
}

/// A 9-bit field (GF(257)), t = 8, d = 7, M = 128, with the margin: `R_F = 10` (the
/// statistical bound) and `R_P = 2` meet every bound, and the second Groebner bound
/// `t - 1 + log_7(2) min(M / (t + 1), n / 2) - R_P = 7 + 1.6 - 2` takes half the field size
/// `n / 2 = 4.5`, not `M / (t + 1) = 14.2` (which would ask `R_F >= 11`, found with a script):
/// `(10 + 2, ceil(2 * 1.075)) = (12, 3)`.
#[test]
fn round_numbers_bound_the_second_groebner_attack_by_half_the_field_size() {
    assert_eq!(round_numbers(9, 8, 7, 128, true), Ok((12, 3)));
    assert_eq!(textbook_round_numbers(9, 8, 7, 128, true), Some((12, 3)));
}

#[test]
fn round_numbers_reject_widths_below_two() {
    assert_eq!(
        round_numbers(254, 1, 5, SECURITY, true),
        Err(Error::UnsupportedWidth { t: 1 })
    );
}

#[test]
fn round_numbers_reject_sbox_degrees_below_three() {
    assert_eq!(
        round_numbers(254, 3, 2, SECURITY, true),
        Err(Error::UnsupportedSboxDegree { d: 2 })
    );
}

/// The markdown table of `docs/parameters.md`: `(R_F, R_P)` for every supported width up to 24
/// in each column.
fn render_parameter_table() -> String {
    let mut out = String::from(
        "| t | 254-bit, d = 5 (BN254) | 255-bit, d = 5 (BLS12-381) | 64-bit, d = 7 (Goldilocks) | 31-bit, d = 7 (BabyBear) |\n|---|---|---|---|---|\n",
    );
    for t in (2..=24).filter(|&t| fast_poseidon2::params::is_supported_width(t)) {
        out += &format!("| {t} |");
        for (bits, d) in COLUMNS {
            let (rf, rp) = round_numbers(bits, t, d, SECURITY, true).expect("secure pair");
            out += &format!(" R_F = {rf}, R_P = {rp} |");
        }
        out += "\n";
    }
    out
}

#[test]
fn parameters_doc_table_equals_round_numbers() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/parameters.md"))
        .expect("docs/parameters.md");
    let table = render_parameter_table();
    assert!(
        doc.contains(&table),
        "docs/parameters.md is stale; its table must read:\n{table}"
    );
}

/// Prints the table of `docs/parameters.md`.
#[test]
#[ignore = "prints the docs/parameters.md table; run by hand"]
fn print_parameter_table() {
    print!("{}", render_parameter_table());
}
