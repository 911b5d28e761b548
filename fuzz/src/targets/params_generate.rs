//! Arbitrary `(field, t, d, R_F, R_P)` -> `Poseidon2Params::generate` never panics, fails exactly
//! with the documented error for the first rule the tuple breaks (`check_shape` order, then
//! `gcd(d, p - 1) = 1`; `InsecureInternalMatrix` only for t >= 4), and what it generates runs and
//! agrees with the textbook permutation. `R_F` and `R_P` are at most 64 unless out of range, so
//! each run stays fast.

use crate::small::{F17, F19, F257, modulus};
use crate::{byte, elements, textbook};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::{Error, MAX_WIDTH, Poseidon2, Poseidon2Params};

/// Eight bytes from `i` as a big-endian integer (zero past the end).
fn word(data: &[u8], i: usize) -> u64 {
    (i..i + 8).fold(0, |acc, j| (acc << 8) | u64::from(byte(data, j)))
}

/// A small value (`selector % modulus`) most of the time, an arbitrary 64-bit one when the
/// selector's top bits are set.
fn small_or_any(data: &[u8], i: usize, modulus: u64) -> u64 {
    let selector = byte(data, i);
    if selector >= 0xf0 {
        word(data, i + 1)
    } else {
        u64::from(selector) % modulus
    }
}

/// `gcd(d, p - 1) == 1` for a word-sized modulus `p - 1`, `d` odd here.
fn coprime(d: u64, p_minus_one: u128) -> bool {
    let (mut a, mut b) = (u128::from(d), p_minus_one);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a == 1
}

fn check<F: PrimeField + LinearLayers>(data: &[u8], p_minus_one: u128) {
    let t = small_or_any(data, 0, 40) as usize;
    let d = small_or_any(data, 9, 16);
    let rounds_f = small_or_any(data, 18, 65) as usize;
    let rounds_p = small_or_any(data, 27, 65) as usize;
    let result = Poseidon2Params::<F>::generate(t, d, rounds_f, rounds_p);
    let expected = if !(t == 2 || t == 3 || (t % 4 == 0 && (4..=MAX_WIDTH).contains(&t))) {
        Some(Error::UnsupportedWidth { t })
    } else if ![3, 5, 7, 11].contains(&d) {
        Some(Error::UnsupportedSboxDegree { d })
    } else if rounds_f % 2 == 1 {
        Some(Error::OddFullRounds { rounds_f })
    } else if rounds_f > 1023 || rounds_p > 1023 {
        Some(Error::RoundsOutOfRange { rounds_f, rounds_p })
    } else if rounds_f == 0 || rounds_p == 0 {
        Some(Error::ZeroRounds { rounds_f, rounds_p })
    } else if !coprime(d, p_minus_one) {
        Some(Error::SboxNotPermutation { d })
    } else {
        None
    };
    match (result, expected) {
        (Err(got), Some(want)) => assert_eq!(got, want),
        (Err(Error::InsecureInternalMatrix), None) => assert!(t >= 4),
        (Ok(params), None) => {
            assert_eq!(
                (
                    params.width(),
                    params.sbox_degree(),
                    params.rounds_f(),
                    params.rounds_p()
                ),
                (t, d, rounds_f, rounds_p)
            );
            let state = elements::<F>(data.get(36..).unwrap_or(&[]), t);
            let expected = textbook::permutation(&params, &state);
            assert_eq!(Poseidon2::new(params).permutation(&state), Ok(expected));
        }
        (got, want) => panic!("generate gave {got:?}, expected {want:?}"),
    }
}

/// BN254's `p - 1` reduced modulo `3 * 5 * 7 * 11 = 1155`: enough for `gcd` with `d` in
/// `{3, 5, 7, 11}` (other `d` never reach the gcd rule).
fn bn254_p_minus_one_mod_small() -> u128 {
    let mut p = [0u8; 32];
    ark_bn254::Fr::write_modulus_be(&mut p);
    let rem = p
        .iter()
        .fold(0u128, |r, &b| (r * 256 + u128::from(b)) % 1155);
    (rem + 1155 - 1) % 1155
}

/// Runs one fuzz input (`data`, laid out as above); panics on a finding.
pub fn run(data: &[u8]) {
    let Some((&field, rest)) = data.split_first() else {
        return;
    };
    match field % 4 {
        0 => check::<F17>(rest, modulus::<F17>() as u128 - 1),
        1 => check::<F19>(rest, modulus::<F19>() as u128 - 1),
        2 => check::<F257>(rest, modulus::<F257>() as u128 - 1),
        _ => check::<ark_bn254::Fr>(rest, bn254_p_minus_one_mod_small()),
    }
}
