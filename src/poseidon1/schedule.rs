//! The optimized Poseidon1 schedule (eprint 2019/458, appendix B) derived from the reference
//! parameters, exactly (field arithmetic: the optimized permutation is the same function).
//!
//! Write the reference round `r` (of `R = R_F + R_P`) as `x <- M · S_r(x + c_r)`.
//! 1. Constants after the S-box: `M · S(x) + c_{r+1} = M · (S(x) + M⁻¹ c_{r+1})`, so adding
//!    `c_0` first and `d_r = M⁻¹ c_{r+1}` after the S-box of round `r` (`d_{R-1} = 0`) is the
//!    same function.
//! 2. Partial rounds keep only `d_r[k]`, `k` the element their S-box acts on (0 for
//!    [`PartialSbox::First`], `t - 1` for [`PartialSbox::Last`]): the rest, `d_r` with entry
//!    `k` zeroed, commutes with the S-box on `x_k`, so it moves before it, i.e. after the
//!    previous round's `M`, where it is `M⁻¹ (d_r - d_r[k] e_k)` added to `d_{r-1}`; from the
//!    last partial round back to the first, whose remainder lands in the last full round before
//!    the partial rounds.
//! 3. Sparse matrices: a matrix `A` factors as `A = M'' · M'` with `M'` the identity in row and
//!    column `k` and `Â` (`A` without row and column `k`) elsewhere, and `M''` the identity but
//!    in row `k`, `(A_kk, v)` with `v = A[k, ≠k] · Â⁻¹`, and in column `k`, `w = A[≠k, k]`
//!    (for `k = 0`: `M' = diag(1, Â)`, `M'' = [[A_00, v], [w, I]]`). `M'` commutes with the
//!    S-box on `x_k` and with a constant added to `x_k`, so it moves into the previous round:
//!    starting with `A = M` in the last partial round, round `r` keeps the sparse `M''_r` and
//!    hands `M'_r · M` to round `r - 1`; the last full round before the partial rounds gets the
//!    dense `pre_sparse = M'_0 · M`.
//!
//! xtask bakes the result for the shipped instances into `src/instances/tables/`
//! (`cargo run -p xtask -- gen-params`), and [`crate::poseidon1::Poseidon1::new`] computes it at
//! run time for any other parameters.

use crate::Error;
use crate::field::PrimeField;
use crate::params::PartialSbox;
use crate::params::matrix::Matrix;
use crate::params::poseidon1::Poseidon1Params;
use alloc::vec;
use alloc::vec::Vec;

/// The tables the optimized round driver runs (layout in the fields' docs; `t` the width).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptimizedSchedule<F> {
    /// `R_F · t`: row 0 is added before the first S-box layer, row `k >= 1` after the S-box
    /// layer of full round `k - 1` (the last full round adds none).
    pub full: Vec<F>,
    /// `R_P`: one constant per partial round, added to `x_k` after its S-box (`k` the index
    /// of [`Self::partial_sbox`]).
    pub partial: Vec<F>,
    /// `R_P · t`: row `k` of each partial round's sparse matrix.
    pub sparse_rows: Vec<F>,
    /// `R_P · t`: column `k` of each sparse matrix off the diagonal (entry `k` of each row is
    /// zero).
    pub sparse_cols: Vec<F>,
    /// `t · t`, row-major: the linear layer of the last full round before the partial rounds.
    pub pre_sparse: Vec<F>,
    /// `t · t`, row-major: the MDS matrix.
    pub mds: Vec<F>,
    /// The element `x_k` the partial rounds' S-box acts on.
    pub partial_sbox: PartialSbox,
    /// `Some(d)` (`t` entries) when the MDS matrix is `J + diag(d)`, all ones plus a diagonal of
    /// small integers (`|d_i| <=` [`MAX_MDS_DIAGONAL`]; StarkWare's matrices): the round driver
    /// then evaluates every linear layer with additions only where the field can, and the
    /// partial rounds run `M` itself instead of the sparse matrices (step 3 unused; steps 1
    /// and 2 are the same for both).
    pub mds_diagonal: Option<Vec<i8>>,
}

pub use crate::poseidon1::permutation::MAX_MDS_DIAGONAL;

/// `Some(d)` if the `t × t` row-major `mds` is `J + diag(d)` with `|d_i| <=`
/// [`MAX_MDS_DIAGONAL`].
pub fn ones_plus_diagonal<F: PrimeField>(mds: &[F], t: usize) -> Option<Vec<i8>> {
    let small = |v: F| -> Option<i8> {
        (-MAX_MDS_DIAGONAL..=MAX_MDS_DIAGONAL).find(|&k| {
            let magnitude = F::from_u64(u64::from(k.unsigned_abs()));
            v == if k < 0 { magnitude.neg() } else { magnitude }
        })
    };
    if mds.len() != t * t {
        return None;
    }
    (0..t)
        .map(|i| {
            let row = &mds[i * t..(i + 1) * t];
            let off_diagonal_ones = row
                .iter()
                .enumerate()
                .all(|(j, &v)| j == i || v == F::ONE_ELEMENT);
            if !off_diagonal_ones {
                return None;
            }
            small(row[i].sub(F::ONE_ELEMENT))
        })
        .collect()
}

/// Derives the optimized schedule of `params` (see the module docs).
///
/// # Errors
/// [`Error::SingularMatrix`] if the MDS matrix or one of the `(t-1) × (t-1)` blocks the
/// factorization inverts is singular (never for a Cauchy matrix, whose square submatrices are
/// all invertible).
pub fn optimize<F: PrimeField>(params: &Poseidon1Params<F>) -> Result<OptimizedSchedule<F>, Error> {
    let t = params.width;
    let k = params.partial_sbox.index(t);
    let (half, rounds_p) = (params.rounds_f / 2, params.rounds_p);
    let rounds = params.rounds_f + rounds_p;
    let mds = Matrix {
        n: t,
        a: params.mds.clone(),
    };
    let mds_inv = mds.inverse().ok_or(Error::SingularMatrix)?;
    let c: Vec<&[F]> = params.round_constants.chunks_exact(t).collect();

    // Step 1: d_r = M⁻¹ c_{r+1}, d_{R-1} = 0.
    let mut d: Vec<Vec<F>> = (0..rounds)
        .map(|r| match c.get(r + 1) {
            Some(next) => mds_inv.apply(next),
            None => vec![F::ZERO_ELEMENT; t],
        })
        .collect();
    // Step 2: partial rounds keep d_r[k]; the rest moves back one round through M⁻¹.
    for r in (half..half + rounds_p).rev() {
        let mut rest = core::mem::replace(&mut d[r], vec![F::ZERO_ELEMENT; t]);
        d[r][k] = rest[k];
        rest[k] = F::ZERO_ELEMENT;
        let moved = mds_inv.apply(&rest);
        for (x, y) in d[r - 1].iter_mut().zip(moved) {
            *x = x.add(y);
        }
    }
    let mut full = c[0].to_vec();
    full.extend(d[..half].iter().flatten());
    full.extend(d[half + rounds_p..rounds - 1].iter().flatten());
    let partial = d[half..half + rounds_p].iter().map(|row| row[k]).collect();

    // Step 3: sparse factorization, from the last partial round back to the first.
    let mut sparse_rows = vec![F::ZERO_ELEMENT; rounds_p * t];
    let mut sparse_cols = vec![F::ZERO_ELEMENT; rounds_p * t];
    let mut a = mds.clone();
    // The other indices, in order: index `l` of the minor is `others[l]`.
    let others: Vec<usize> = (0..t).filter(|&i| i != k).collect();
    for r in (0..rounds_p).rev() {
        let hat = a.minor(k);
        let hat_inv = hat.inverse().ok_or(Error::SingularMatrix)?;
        let row = &mut sparse_rows[r * t..(r + 1) * t];
        row[k] = a.at(k, k);
        for (j, &col) in others.iter().enumerate() {
            row[col] = others
                .iter()
                .enumerate()
                .fold(F::ZERO_ELEMENT, |acc, (l, &from)| {
                    acc.add(a.at(k, from).mul(hat_inv.at(l, j)))
                });
        }
        let col = &mut sparse_cols[r * t..(r + 1) * t];
        for &i in &others {
            col[i] = a.at(i, k);
        }
        a = hat.bordered(k).mul(&mds);
    }
    Ok(OptimizedSchedule {
        full,
        partial,
        sparse_rows,
        sparse_cols,
        pre_sparse: a.a,
        mds_diagonal: ones_plus_diagonal(&mds.a, t),
        mds: mds.a,
        partial_sbox: params.partial_sbox,
    })
}
