//! Instance parameters: width, S-box degree, round numbers, round constants and the internal
//! diagonal, and their generation from the Grain LFSR.

pub mod grain;
#[cfg(feature = "alloc")]
pub(crate) mod matrix;
#[cfg(feature = "alloc")]
pub mod poseidon1;
pub mod security;

use crate::Error;
#[cfg(feature = "alloc")]
use crate::field::Field;
use crate::field::{MAX_FIELD_BYTES, PrimeField};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The largest supported width `t`.
pub const MAX_WIDTH: usize = 32;

/// The state element a Poseidon1 partial round's S-box acts on (eprint 2019/458 section 2.2
/// leaves the choice open; implementations differ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PartialSbox {
    /// `x_0`: the Poseidon reference code (hadeshash `poseidonperm_x5_254_*`), circomlib.
    #[default]
    First,
    /// `x_{t-1}`: StarkWare's Hades permutation (cairo-lang `poseidon_utils.py`,
    /// `values[-1:]`), Starknet's Poseidon.
    Last,
}

impl PartialSbox {
    /// The element's index in a state of width `t` (0 for `t = 0`).
    pub const fn index(self, t: usize) -> usize {
        match self {
            PartialSbox::First => 0,
            PartialSbox::Last => t.saturating_sub(1),
        }
    }
}

/// The 4x4 block `M4` of the external matrix `M_E` (t >= 4: `2·M4` on the diagonal blocks,
/// `M4` elsewhere; paper section 5.1 leaves the block to the implementation). Widths 2 and 3
/// have the fixed `circ(2, 1)`, `circ(2, 1, 1)` whatever this says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExternalMatrix {
    /// `M4 = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]]`: the paper's (section 5.1) and the
    /// Horizen Labs reference's `matmul_m4`.
    #[default]
    HorizenLabs,
    /// `M4 = circ(2, 3, 1, 1) = [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]`: Plonky3's `MDSMat4`
    /// (`poseidon2/src/external.rs`, `apply_mat4`), used with the same block layout at every
    /// width `t = 4k` by Plonky3's `default_*_poseidon2_*` permutations and SP1's.
    Plonky3,
}

/// The largest `R_F` or `R_P` (the Grain register holds each in 10 bits).
pub const MAX_ROUNDS: usize = 1023;

/// Whether the permutation is defined here for width `t`: 2, 3 or a multiple of 4 up to
/// [`MAX_WIDTH`] (paper section 5.1). The one width rule of [`check_shape`] and
/// [`crate::params::security::round_numbers`].
pub const fn is_supported_width(t: usize) -> bool {
    t == 2 || t == 3 || (t.is_multiple_of(4) && t >= 4 && t <= MAX_WIDTH)
}

/// Checks a shape `(t, d, R_F, R_P)` independently of the field, rules in this order.
///
/// # Errors
/// [`Error::UnsupportedWidth`] unless [`is_supported_width`]`(t)`;
/// [`Error::UnsupportedSboxDegree`] unless `d` is 3, 5, 7 or 11; [`Error::OddFullRounds`] for odd
/// `R_F`; [`Error::RoundsOutOfRange`] if `R_F` or `R_P` exceeds [`MAX_ROUNDS`];
/// [`Error::ZeroRounds`] if `R_F` or `R_P` is 0.
pub const fn check_shape(t: usize, d: u64, rounds_f: usize, rounds_p: usize) -> Result<(), Error> {
    if !is_supported_width(t) {
        return Err(Error::UnsupportedWidth { t });
    }
    check_degree_and_rounds(d, rounds_f, rounds_p)
}

/// The rules on `d`, `R_F` and `R_P` that every family's shape check shares, in this order:
/// [`Error::UnsupportedSboxDegree`], [`Error::OddFullRounds`], [`Error::RoundsOutOfRange`],
/// [`Error::ZeroRounds`].
pub(crate) const fn check_degree_and_rounds(
    d: u64,
    rounds_f: usize,
    rounds_p: usize,
) -> Result<(), Error> {
    if !crate::field::is_supported_degree(d) {
        return Err(Error::UnsupportedSboxDegree { d });
    }
    if !rounds_f.is_multiple_of(2) {
        return Err(Error::OddFullRounds { rounds_f });
    }
    if rounds_f > MAX_ROUNDS || rounds_p > MAX_ROUNDS {
        return Err(Error::RoundsOutOfRange { rounds_f, rounds_p });
    }
    if rounds_f == 0 || rounds_p == 0 {
        return Err(Error::ZeroRounds { rounds_f, rounds_p });
    }
    Ok(())
}

/// Whether the Poseidon1 permutation is defined here for width `t`: `2 <= t <= MAX_WIDTH` (any
/// width: the MDS matrix is dense).
pub(crate) const fn is_poseidon1_width(t: usize) -> bool {
    t >= 2 && t <= MAX_WIDTH
}

/// Whether `(t, d, R_F, R_P)` is a Poseidon1 shape (see
/// [`poseidon1::check_poseidon1_shape`]; `const` for the compile-time check of
/// [`crate::poseidon1::ct::Poseidon1Ct`]).
pub(crate) const fn poseidon1_shape_ok(t: usize, d: u64, rounds_f: usize, rounds_p: usize) -> bool {
    is_poseidon1_width(t)
        && crate::field::is_supported_degree(d)
        && rounds_f.is_multiple_of(2)
        && rounds_f >= 2
        && rounds_f <= MAX_ROUNDS
        && rounds_p >= 1
        && rounds_p <= MAX_ROUNDS
}

/// Checks that `x^d` permutes `F`, i.e. `gcd(d, p - 1) = 1` (paper section 2.1).
///
/// # Errors
/// [`Error::SboxNotPermutation`] if `d` shares a factor with `p - 1`, including `d = 0`
/// (`gcd(0, p - 1) = p - 1`: `x^0` is constant).
pub fn check_sbox_degree<F: PrimeField>(d: u64) -> Result<(), Error> {
    if d == 0 {
        return Err(Error::SboxNotPermutation { d });
    }
    let mut modulus = [0u8; MAX_FIELD_BYTES];
    F::write_modulus_be(&mut modulus);
    // (p - 1) mod d by long division over the big-endian bytes (p is odd, so p - 1 just clears
    // the lowest bit of the last byte).
    let rem = modulus[..F::BYTES]
        .iter()
        .fold(0u128, |r, &b| (r * 256 + u128::from(b)) % u128::from(d));
    let p_minus_one_mod_d = (rem + u128::from(d) - 1) % u128::from(d);
    if gcd(p_minus_one_mod_d as u64, d) == 1 {
        Ok(())
    } else {
        Err(Error::SboxNotPermutation { d })
    }
}

const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// The fixed `mu - 1` internal diagonals for t = 2 and t = 3 (`[[2,1],[1,3]]`,
/// `[[2,1,1],[1,2,1],[1,1,3]]`), or `None` for widths whose diagonal is drawn from Grain.
#[cfg(feature = "alloc")]
pub(crate) const fn fixed_diag_m1(t: usize) -> Option<&'static [u64]> {
    match t {
        2 => Some(&[1, 2]),
        3 => Some(&[1, 1, 2]),
        _ => None,
    }
}

/// How many Grain diagonal draws [`Poseidon2Params::generate`] tries before giving up. The
/// shipped instances need at most 47; the bound only exists so that no input loops forever.
pub const MAX_DIAGONAL_DRAWS: usize = 4096;

/// Everything that defines one Poseidon2 instance, with runtime width.
///
/// Layout (the same the permutation reads): `external_round_constants` holds `R_F · t` values,
/// the first `R_F / 2` full rounds then the last `R_F / 2`, each round's `t` constants in state
/// order; `internal_round_constants` holds `R_P` values, one per partial round (added to `x_0`);
/// `internal_diagonal_minus_one` holds `mu_i - 1` for `M_I = J + diag(mu - 1)` (the reference's
/// `mat_diag_m_1`). An instance with an internal sum scale `c`
/// ([`Self::with_internal_sum_scale`], SP1's) has `M_I = c·J + diag(d)` with `d` in that table.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2Params<F> {
    pub(crate) width: usize,
    pub(crate) sbox_degree: u64,
    pub(crate) rounds_f: usize,
    pub(crate) rounds_p: usize,
    pub(crate) external_round_constants: Vec<F>,
    pub(crate) internal_round_constants: Vec<F>,
    pub(crate) internal_diagonal_minus_one: Vec<F>,
    pub(crate) external_matrix: ExternalMatrix,
    pub(crate) internal_sum_scale: Option<F>,
}

#[cfg(feature = "alloc")]
impl<F: PrimeField> Poseidon2Params<F> {
    /// Generates an instance from its public tuple exactly as the Horizen Labs reference does
    /// (`poseidon2_rust_params.sage`, commit `055bde3f`): Grain seeded with
    /// `(n = F::MODULUS_BITS, t, R_F, R_P)`, then `(R_F/2)·t` external constants, `R_P` internal
    /// constants and `(R_F/2)·t` external constants, each by rejection sampling; for t >= 4 the
    /// internal diagonal `mu` is drawn next (`t` reduced `n`-bit values per draw) until
    /// [`crate::params::security::check_internal_matrix`] accepts it. For t = 2, 3 the fixed internal
    /// matrices are used and nothing more is drawn.
    ///
    /// # Errors
    /// Everything [`check_shape`] and [`check_sbox_degree`] reject, and
    /// [`Error::InsecureInternalMatrix`] if no diagonal passes within [`MAX_DIAGONAL_DRAWS`] draws.
    pub fn generate(t: usize, d: u64, rounds_f: usize, rounds_p: usize) -> Result<Self, Error> {
        check_shape(t, d, rounds_f, rounds_p)?;
        check_sbox_degree::<F>(d)?;
        let mut grain = grain::Grain::new(F::MODULUS_BITS, t, rounds_f, rounds_p);
        let half = rounds_f / 2 * t;
        let mut external = Vec::with_capacity(rounds_f * t);
        external.extend((0..half).map(|_| grain.next_round_constant::<F>()));
        let internal: Vec<F> = (0..rounds_p)
            .map(|_| grain.next_round_constant::<F>())
            .collect();
        external.extend((0..half).map(|_| grain.next_round_constant::<F>()));
        let diag_m1 = match fixed_diag_m1(t) {
            Some(fixed) => fixed.iter().map(|&m| F::from_u64(m)).collect(),
            None => {
                let mut accepted = None;
                for _ in 0..MAX_DIAGONAL_DRAWS {
                    let mu: Vec<F> = (0..t).map(|_| grain.next_diagonal_entry::<F>()).collect();
                    if crate::params::security::check_internal_matrix(&mu).is_ok() {
                        accepted = Some(mu);
                        break;
                    }
                }
                let mu = accepted.ok_or(Error::InsecureInternalMatrix)?;
                mu.into_iter().map(|m| m.sub(F::ONE_ELEMENT)).collect()
            }
        };
        Self::new(t, d, rounds_f, rounds_p, external, internal, diag_m1)
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> Poseidon2Params<F> {
    /// Builds parameters from explicit constants (e.g. tables from another implementation).
    ///
    /// Shapes: `external_round_constants.len() == R_F · t`, `internal_round_constants.len() ==
    /// R_P`, `internal_diagonal_minus_one.len() == t` (see the type's docs for the layout). For
    /// t = 2, 3 the diagonal must be the fixed `(1, 2)` / `(1, 1, 2)`. No security check is run
    /// on the diagonal; use [`crate::params::security::check_internal_matrix`] for that. Nor is `d`
    /// checked against the field (a [`Field`] need not know its modulus): `x^d` permutes `F` only
    /// if `gcd(d, p - 1) = 1`, which [`check_sbox_degree`] checks and [`Self::generate`] requires.
    ///
    /// # Errors
    /// Everything [`check_shape`] rejects; [`Error::InvalidConstantsLength`] for a table of the
    /// wrong length; [`Error::WrongFixedInternalDiagonal`] for t = 2, 3 with a diagonal other
    /// than the fixed one (the permutation hard-codes those matrices).
    pub fn new(
        t: usize,
        d: u64,
        rounds_f: usize,
        rounds_p: usize,
        external_round_constants: Vec<F>,
        internal_round_constants: Vec<F>,
        internal_diagonal_minus_one: Vec<F>,
    ) -> Result<Self, Error> {
        check_shape(t, d, rounds_f, rounds_p)?;
        for (got, expected) in [
            (external_round_constants.len(), rounds_f * t),
            (internal_round_constants.len(), rounds_p),
            (internal_diagonal_minus_one.len(), t),
        ] {
            if got != expected {
                return Err(Error::InvalidConstantsLength { got, expected });
            }
        }
        if let Some(fixed) = fixed_diag_m1(t)
            && fixed
                .iter()
                .zip(&internal_diagonal_minus_one)
                .any(|(&m, &x)| F::from_u64(m) != x)
        {
            return Err(Error::WrongFixedInternalDiagonal { t });
        }
        Ok(Poseidon2Params {
            width: t,
            sbox_degree: d,
            rounds_f,
            rounds_p,
            external_round_constants,
            internal_round_constants,
            internal_diagonal_minus_one,
            external_matrix: ExternalMatrix::HorizenLabs,
            internal_sum_scale: None,
        })
    }

    /// The same parameters with the external matrix's block `M4` set to `external_matrix`
    /// ([`ExternalMatrix::HorizenLabs`] unless changed; widths 2 and 3 ignore it).
    pub fn with_external_matrix(mut self, external_matrix: ExternalMatrix) -> Self {
        self.external_matrix = external_matrix;
        self
    }

    /// The external matrix's block `M4`.
    pub fn external_matrix(&self) -> ExternalMatrix {
        self.external_matrix
    }

    /// The same parameters with the internal matrix `M_I = c·J + diag(d)`, `c = scale` and `d`
    /// the table [`Self::internal_diagonal_minus_one`], at every width (widths 2 and 3 then read
    /// `d` too). SP1's KoalaBear permutation has `M_I = 2^-32 (J + diag(V))`, i.e. `c = 2^-32`
    /// and `d = 2^-32 V`; storing `d` already scaled keeps the layer at one product per element
    /// and one for the sum. Scaling `M_I` by a non-zero `c` keeps the properties
    /// [`crate::params::security::check_internal_matrix`] checks on `J + diag(d / c)`.
    pub fn with_internal_sum_scale(mut self, scale: F) -> Self {
        self.internal_sum_scale = Some(scale);
        self
    }

    /// The internal sum scale `c` of `M_I = c·J + diag(d)`, `None` for the usual `c = 1` (see
    /// [`Self::with_internal_sum_scale`]).
    pub fn internal_sum_scale(&self) -> Option<F> {
        self.internal_sum_scale
    }

    /// The width `t` (state length).
    pub fn width(&self) -> usize {
        self.width
    }
    /// The S-box degree `d`.
    pub fn sbox_degree(&self) -> u64 {
        self.sbox_degree
    }
    /// The number of full rounds `R_F` (half before, half after the partial rounds).
    pub fn rounds_f(&self) -> usize {
        self.rounds_f
    }
    /// The number of partial rounds `R_P`.
    pub fn rounds_p(&self) -> usize {
        self.rounds_p
    }
    /// The `R_F · t` external-round constants (layout in the type's docs).
    pub fn external_round_constants(&self) -> &[F] {
        &self.external_round_constants
    }
    /// The `R_P` internal-round constants.
    pub fn internal_round_constants(&self) -> &[F] {
        &self.internal_round_constants
    }
    /// `mu_i - 1` for each of the `t` diagonal entries of `M_I` (the reference's `mat_diag_m_1`);
    /// with an internal sum scale `c`, the `d` of `M_I = c·J + diag(d)`.
    pub fn internal_diagonal_minus_one(&self) -> &[F] {
        &self.internal_diagonal_minus_one
    }
}
