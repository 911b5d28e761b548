//! StarkWare's Poseidon ("Hades") parameters over the Stark field, t = 3, 4, 5, 9: the one
//! generator of xtask's baked `stark252` tables and of the tests' drift check.
//!
//! As cairo-lang `src/starkware/cairo/common/poseidon_utils.py` builds them
//! (`PoseidonParams`, `generate_round_constant`): d = 3, R_F = 8, round constant `i` (rounds in
//! execution order, `t` per round, partial rounds included) is `sha256("Hades" ‖ decimal(i))`
//! read as a big-endian integer and reduced mod p; the partial rounds' S-box acts on the last
//! element (`values[-1:]`). The MDS matrices are StarkWare's small-coefficient ones: t = 3 is
//! `SmallMds` of that file; t = 4, 5, 9 are those of StarkWare's parameter files as
//! CryptoExperts' `poseidon.h` (commit `68a88df9cb894fe1e0ee8b1b1b5825602c83635a`) documents
//! them; the permutations they give reproduce CryptoExperts' known answers for every width
//! (`tests/vectors/stark252_poseidon.json`).

use fast_poseidon2::field::PrimeField;
use fast_poseidon2::poseidon1::{PartialSbox, Poseidon1Params};
use sha2::{Digest, Sha256};

/// The S-box degree.
pub const SBOX_DEGREE: u64 = 3;
/// The number of full rounds.
pub const ROUNDS_F: usize = 8;

/// The MDS matrix of width `t` (3, 4, 5 or 9), rows of small signed integers; `None` for other
/// widths.
pub fn mds(t: usize) -> Option<&'static [&'static [i64]]> {
    const T3: &[&[i64]] = &[&[3, 1, 1], &[1, -1, 1], &[1, 1, -2]];
    const T4: &[&[i64]] = &[&[2, 1, 1, 1], &[1, 1, 1, 1], &[1, 1, 0, 1], &[1, 1, 1, -1]];
    const T5: &[&[i64]] = &[
        &[3, 1, 1, 1, 1],
        &[1, 2, 1, 1, 1],
        &[1, 1, 1, 1, 1],
        &[1, 1, 1, -1, 1],
        &[1, 1, 1, 1, -2],
    ];
    const T9: &[&[i64]] = &[
        &[5, 1, 1, 1, 1, 1, 1, 1, 1],
        &[1, 4, 1, 1, 1, 1, 1, 1, 1],
        &[1, 1, 3, 1, 1, 1, 1, 1, 1],
        &[1, 1, 1, 2, 1, 1, 1, 1, 1],
        &[1, 1, 1, 1, 1, 1, 1, 1, 1],
        &[1, 1, 1, 1, 1, 0, 1, 1, 1],
        &[1, 1, 1, 1, 1, 1, -1, 1, 1],
        &[1, 1, 1, 1, 1, 1, 1, -3, 1],
        &[1, 1, 1, 1, 1, 1, 1, 1, -4],
    ];
    match t {
        3 => Some(T3),
        4 => Some(T4),
        5 => Some(T5),
        9 => Some(T9),
        _ => None,
    }
}

/// Round constant `i`: `sha256("Hades" ‖ decimal(i))` mod p.
pub fn round_constant<F: PrimeField>(i: usize) -> F {
    F::from_be_bytes_reduced(&Sha256::digest(format!("Hades{i}")))
}

/// The small signed integer `v` as a field element.
fn signed<F: PrimeField>(v: i64) -> F {
    let magnitude = F::from_u64(v.unsigned_abs());
    if v < 0 { magnitude.neg() } else { magnitude }
}

/// StarkWare's parameters of width `t` (3, 4, 5 or 9) with `rounds_p` partial rounds (83 for
/// t = 3, 84 otherwise).
///
/// # Panics
/// For a width StarkWare has no matrix for.
pub fn params<F: PrimeField>(t: usize, rounds_p: usize) -> Poseidon1Params<F> {
    let mds = mds(t).unwrap_or_else(|| panic!("no StarkWare MDS matrix for t = {t}"));
    let round_constants = (0..(ROUNDS_F + rounds_p) * t).map(round_constant).collect();
    let mds = mds
        .iter()
        .flat_map(|row| row.iter().map(|&v| signed(v)))
        .collect();
    Poseidon1Params::new(t, SBOX_DEGREE, ROUNDS_F, rounds_p, round_constants, mds)
        .expect("StarkWare's shapes are valid")
        .with_partial_sbox(PartialSbox::Last)
}
