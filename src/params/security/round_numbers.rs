//! Round numbers `(R_F, R_P)` for a target security level, by the search the reference runs
//! (`poseidon2_rust_params.sage`, `find_FD_round_numbers`): every pair with `R_P` in `1..500`
//! and even `R_F` in `4..100` is tested against the attack bounds below; accepted pairs get the
//! security margin and the pair with the fewest S-boxes `t · R_F + R_P` wins (ties: smaller
//! `R_F`).
//!
//! Bounds for security level `M`, `n = field_bits` (used for `log2 p` too), S-box degree
//! `alpha`, each right-hand side rounded up:
//! 1. statistical (Poseidon paper, eprint 2019/458, section 5.5.1):
//!    `R_F >= 6` if `M <= floor(n - (alpha - 1)/2) (t + 1)`, else `R_F >= 10`;
//! 2. interpolation (section 5.5.2): `R_F >= 1 + ceil(log_alpha(2) min(M, n)) + ceil(log_alpha(t)) - R_P`;
//! 3. Groebner basis (section 5.5.2): `R_F >= log_alpha(2) min(M, n) - R_P`,
//!    `R_F >= t - 1 + log_alpha(2) min(M / (t + 1), n / 2) - R_P`,
//!    `R_F >= (t - 2 + M / (2 log2 alpha) - R_P) / (t - 1)`;
//! 4. the algebraic bound of eprint 2023/537 (Poseidon2 paper section 6): with `r = floor(t/3)`,
//!    `ceil(2 log2 binomial((R_F - 1) t + 2 R_P + r + r R_F / 2 + alpha, r R_F / 2 + R_P + alpha)) >= M`.
//!
//! Margin (Poseidon2 paper section 6, reference): `R_F + 2`, `R_P · 1.075` rounded up. Like
//! the reference, the inflated `R_P` replaces the loop's `R_P` for the rest of its inner loop.
//!
//! The search returns the reference's pair while skipping pairs that cannot win: within an
//! inner loop, every secure pair after the first has a larger `R_F` and no smaller `R_P`, so a
//! higher cost (the inner loop stops at its first secure pair); and once `t · (4 + margin) +
//! R_P` exceeds the best cost so far, no later outer iteration can win (the outer loop stops).

use crate::Error;

/// `ln(x)`, through `libm` so the crate stays `no_std`.
fn ln(x: f64) -> f64 {
    libm::log(x)
}

fn floor(x: f64) -> f64 {
    libm::floor(x)
}

fn ceil(x: f64) -> f64 {
    libm::ceil(x)
}

/// `log_base(x) = ln x / ln base`, as the reference computes it.
fn log(x: f64, base: f64) -> f64 {
    ln(x) / ln(base)
}

/// `log2 binomial(over, under)` as a sum of logarithms (exact arguments are integers here).
fn log2_binomial(over: f64, under: f64) -> f64 {
    let k = under.min(over - under);
    (1..=k as u64)
        .map(|i| log((over - k + i as f64) / i as f64, 2.0))
        .sum()
}

/// Whether `(R_F, R_P)` meets every bound for `(n, t, alpha, M)`.
fn secure(n: f64, t: f64, alpha: f64, m: f64, rf: f64, rp: f64) -> bool {
    let statistical = if m <= floor(n - (alpha - 1.0) / 2.0) * (t + 1.0) {
        6.0
    } else {
        10.0
    };
    let interpolation = 1.0 + ceil(log(2.0, alpha) * m.min(n)) + ceil(log(t, alpha)) - rp;
    let groebner_1 = log(2.0, alpha) * m.min(n) - rp;
    let groebner_2 = t - 1.0 + log(2.0, alpha) * (m / (t + 1.0)).min(n / 2.0) - rp;
    let groebner_3 = (t - 2.0 + m / (2.0 * log(alpha, 2.0)) - rp) / (t - 1.0);
    let bound = [
        statistical,
        interpolation,
        groebner_1,
        groebner_2,
        groebner_3,
    ]
    .into_iter()
    .map(ceil)
    .fold(f64::MIN, f64::max);
    let r = floor(t / 3.0);
    let over = (rf - 1.0) * t + 2.0 * rp + r + r * rf / 2.0 + alpha;
    let under = r * rf / 2.0 + rp + alpha;
    rf >= bound && ceil(2.0 * log2_binomial(over, under)) >= m
}

/// The cheapest `(R_F, R_P)` for an `field_bits`-bit prime field, width `t`, S-box degree `d`
/// and `security_level` bits (128 for every shipped instance), with the reference's margin when
/// `with_margin` is set.
///
/// Reproduces every shipped instance: 254/255-bit fields with `d = 5` give `(8, 56)` for
/// `t <= 4` and `(8, 57)` for `t = 8..=24`; 64-bit fields with `d = 7` give `(8, 22)` for
/// `t = 8..=24`. The full table is in `docs/parameters.md`.
///
/// `security_level` is taken as given: it is the caller's explicit choice (the reference's
/// function takes any level too), and a level below 128 can give fewer rounds than the shipped
/// instances have (which all use 128). Nothing in the crate calls it with another level.
///
/// # Errors
/// [`Error::InvalidFieldBits`] for `field_bits < 2`; [`Error::UnsupportedWidth`] unless
/// [`crate::params::is_supported_width`]`(t)` (the widths the permutation supports);
/// [`Error::UnsupportedSboxDegree`] unless `d` is 3, 5, 7 or 11 (those of
/// [`crate::field::is_supported_degree`]); [`Error::NoSecureRoundNumbers`] if no pair in the
/// search range is secure.
pub fn round_numbers(
    field_bits: u32,
    t: usize,
    d: u64,
    security_level: u32,
    with_margin: bool,
) -> Result<(usize, usize), Error> {
    if field_bits < 2 {
        return Err(Error::InvalidFieldBits { field_bits });
    }
    if !crate::params::is_supported_width(t) {
        return Err(Error::UnsupportedWidth { t });
    }
    if !crate::field::is_supported_degree(d) {
        return Err(Error::UnsupportedSboxDegree { d });
    }
    let (n, tf, alpha, m) = (
        f64::from(field_bits),
        t as f64,
        d as f64,
        f64::from(security_level),
    );
    let rf_margin = if with_margin { 2 } else { 0 };
    let mut best: Option<(usize, usize, usize)> = None; // (cost, R_F, R_P)
    for rp in 1..500usize {
        // The cheapest any pair from here on can be: R_F = 4, R_P not below the loop's.
        if best.is_some_and(|(c, _, _)| t * (4 + rf_margin) + rp > c) {
            break;
        }
        let Some(rf) = (4..100usize)
            .step_by(2)
            .find(|&rf| secure(n, tf, alpha, m, rf as f64, rp as f64))
        else {
            continue;
        };
        let rp_final = if with_margin {
            ceil(rp as f64 * 1.075) as usize
        } else {
            rp
        };
        let rf_final = rf + rf_margin;
        let cost = t * rf_final + rp_final;
        if best.is_none_or(|(c, f, _)| cost < c || (cost == c && rf_final < f)) {
            best = Some((cost, rf_final, rp_final));
        }
    }
    best.map(|(_, rf, rp)| (rf, rp))
        .ok_or(Error::NoSecureRoundNumbers {
            field_bits,
            t,
            d,
            security_level,
        })
}
