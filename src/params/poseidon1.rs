//! Parameters of the original Poseidon permutation (Poseidon1; Grassi, Khovratovich, Rechberger,
//! Roy, Schofnegger: *Poseidon: A New Hash Function for Zero-Knowledge Proof Systems*, eprint
//! 2019/458) and their generation by the reference's `generate_parameters_grain.sage`
//! (hadeshash), the procedure circomlib's BN254 tables come from.

use crate::Error;
use crate::field::{Field, PrimeField};
use crate::params::{PartialSbox, check_sbox_degree, grain::Grain, security::check_mds_matrix};
use alloc::vec::Vec;

/// How many Cauchy-matrix draws (`2t` reduced values each) [`Poseidon1Params::generate`] tries
/// before giving up. Every circom BN254 width accepts the first draw; small fields reject many
/// (values that repeat, `x_i + y_j = 0`, the security checks). The bound only exists so that no
/// input loops forever (the reference's loops have none: for `2t > p` they never end).
pub const MAX_MDS_DRAWS: usize = 1024;

/// Checks a Poseidon1 shape `(t, d, R_F, R_P)` independently of the field, rules in this order.
///
/// # Errors
/// [`Error::UnsupportedWidth`] unless `2 <= t <= MAX_WIDTH` (any width: the MDS matrix is dense);
/// [`Error::UnsupportedSboxDegree`] unless `d` is 3, 5, 7 or 11; [`Error::OddFullRounds`] for odd
/// `R_F`; [`Error::RoundsOutOfRange`] if `R_F` or `R_P` exceeds [`MAX_ROUNDS`](super::MAX_ROUNDS);
/// [`Error::ZeroRounds`] if `R_F` or `R_P` is 0.
pub const fn check_poseidon1_shape(
    t: usize,
    d: u64,
    rounds_f: usize,
    rounds_p: usize,
) -> Result<(), Error> {
    if !super::is_poseidon1_width(t) {
        return Err(Error::UnsupportedWidth { t });
    }
    super::check_degree_and_rounds(d, rounds_f, rounds_p)
}

/// Everything that defines one Poseidon1 instance, with runtime width `t`: the S-box degree
/// `d`, `R_F` full and `R_P` partial rounds, `(R_F + R_P) · t` round constants, the `t × t`
/// MDS matrix, and the element the partial rounds' S-box acts on ([`PartialSbox::First`]
/// unless [`Self::with_partial_sbox`] says otherwise).
///
/// Layout (the reference's, hadeshash `poseidonperm_x5_254_*` and light-poseidon's
/// `PoseidonParameters`): `round_constants[r · t + i]` is added to `x_i` at the start of round
/// `r` (rounds in execution order: `R_F / 2` full, `R_P` partial, `R_F / 2` full);
/// `mds[i · t + j]` is the entry in row `i`, column `j`, and the linear layer is
/// `y_i = sum_j mds[i · t + j] · x_j`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon1Params<F> {
    pub(crate) width: usize,
    pub(crate) sbox_degree: u64,
    pub(crate) rounds_f: usize,
    pub(crate) rounds_p: usize,
    pub(crate) round_constants: Vec<F>,
    pub(crate) mds: Vec<F>,
    pub(crate) partial_sbox: PartialSbox,
}

impl<F: PrimeField> Poseidon1Params<F> {
    /// Generates an instance from its public tuple exactly as the Poseidon reference does
    /// (hadeshash `generate_parameters_grain.sage`, run as
    /// `sage generate_parameters_grain.sage 1 0 n t R_F R_P p`): Grain seeded with field flag 1,
    /// S-box flag 0 and `(n = F::MODULUS_BITS, t, R_F, R_P)` (this crate's one LFSR,
    /// [`crate::params::grain::Grain`]); `(R_F + R_P) · t` round constants, each an `n`-bit
    /// block by rejection sampling (`< p`); then the Cauchy MDS matrix
    /// `M[i][j] = 1 / (x_i + y_j)` from `2t` further `n`-bit blocks reduced mod p
    /// (`x = blocks[..t]`, `y = blocks[t..]`). The script's `generate_matrix` and `create_mds_p`
    /// draw `2t` fresh values again whenever the `2t` values are not distinct, some
    /// `x_i + y_j = 0`, or the matrix fails its security checks `algorithm_1`, `algorithm_2`,
    /// `algorithm_3` ([`crate::params::security::check_mds_matrix`]); so does this function,
    /// consuming the same Grain bits, for at most [`MAX_MDS_DRAWS`] draws. Every circom BN254
    /// width (t = 2..=17) is reproduced bit for bit with the first draw (tests compare against
    /// light-poseidon 0.5.0's tables).
    ///
    /// # Errors
    /// Everything [`check_poseidon1_shape`] and [`check_sbox_degree`] reject. If no draw within
    /// [`MAX_MDS_DRAWS`] is accepted: [`Error::InsecureMdsMatrix`] from the last Cauchy matrix
    /// the checks rejected, or [`Error::SingularMatrix`] if no draw gave a Cauchy matrix at all
    /// (always when `2t > p`: the values cannot be distinct).
    pub fn generate(t: usize, d: u64, rounds_f: usize, rounds_p: usize) -> Result<Self, Error> {
        check_poseidon1_shape(t, d, rounds_f, rounds_p)?;
        check_sbox_degree::<F>(d)?;
        let mut grain = Grain::new(F::MODULUS_BITS, t, rounds_f, rounds_p);
        let round_constants = (0..(rounds_f + rounds_p) * t)
            .map(|_| grain.next_round_constant::<F>())
            .collect();
        let mut rejection = Error::SingularMatrix;
        for _ in 0..MAX_MDS_DRAWS {
            let Some(mds) = cauchy_draw(&mut grain, t) else {
                continue;
            };
            match check_mds_matrix(t, &mds) {
                Ok(()) => return Self::new(t, d, rounds_f, rounds_p, round_constants, mds),
                Err(e) => rejection = e,
            }
        }
        Err(rejection)
    }
}

/// One draw of the script's `create_mds_p`: `2t` reduced values, `x = values[..t]`,
/// `y = values[t..]`, and the Cauchy matrix `1 / (x_i + y_j)` row-major; `None` if the values
/// repeat or some `x_i + y_j` is zero (the script then draws `2t` values again).
fn cauchy_draw<F: PrimeField>(grain: &mut Grain, t: usize) -> Option<Vec<F>> {
    let values: Vec<F> = (0..2 * t).map(|_| grain.next_reduced::<F>()).collect();
    let distinct = values
        .iter()
        .enumerate()
        .all(|(i, a)| values[..i].iter().all(|b| a != b));
    if !distinct {
        return None;
    }
    let (xs, ys) = values.split_at(t);
    xs.iter()
        .flat_map(|&x| ys.iter().map(move |&y| x.add(y).inverted()))
        .collect()
}

impl<F: Field> Poseidon1Params<F> {
    /// Builds parameters from explicit tables (e.g. another implementation's), layout as in the
    /// type's docs: `round_constants.len() == (R_F + R_P) · t`, `mds.len() == t · t`.
    ///
    /// No MDS property is checked here; [`crate::poseidon1::Poseidon1::new`] rejects a matrix
    /// the optimized schedule cannot factor ([`Error::SingularMatrix`]), and
    /// [`check_mds_matrix`] runs the reference's security checks on any matrix.
    ///
    /// # Errors
    /// Everything [`check_poseidon1_shape`] rejects; [`Error::InvalidConstantsLength`] for a
    /// table of the wrong length.
    pub fn new(
        t: usize,
        d: u64,
        rounds_f: usize,
        rounds_p: usize,
        round_constants: Vec<F>,
        mds: Vec<F>,
    ) -> Result<Self, Error> {
        check_poseidon1_shape(t, d, rounds_f, rounds_p)?;
        for (got, expected) in [
            (round_constants.len(), (rounds_f + rounds_p) * t),
            (mds.len(), t * t),
        ] {
            if got != expected {
                return Err(Error::InvalidConstantsLength { got, expected });
            }
        }
        Ok(Poseidon1Params {
            width: t,
            sbox_degree: d,
            rounds_f,
            rounds_p,
            round_constants,
            mds,
            partial_sbox: PartialSbox::First,
        })
    }

    /// The same parameters with the partial rounds' S-box on `position` (e.g.
    /// [`PartialSbox::Last`] for StarkWare's Hades permutation).
    #[must_use]
    pub fn with_partial_sbox(mut self, position: PartialSbox) -> Self {
        self.partial_sbox = position;
        self
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
    /// The `(R_F + R_P) · t` round constants, round by round in execution order.
    pub fn round_constants(&self) -> &[F] {
        &self.round_constants
    }
    /// The `t × t` MDS matrix, row-major (`mds[i · t + j]`: row `i`, column `j`).
    pub fn mds(&self) -> &[F] {
        &self.mds
    }
    /// The state element the partial rounds' S-box acts on.
    pub fn partial_sbox(&self) -> PartialSbox {
        self.partial_sbox
    }
}
