//! The optimized Poseidon1 schedule (eprint 2019/458, appendix B) derived from the reference
//! parameters, exactly (field arithmetic: the optimized permutation is the same function).
//!
//! Write the reference round `r` (of `R = R_F + R_P`) as `x <- M · S_r(x + c_r)`.
//! 1. Constants after the S-box: `M · S(x) + c_{r+1} = M · (S(x) + M⁻¹ c_{r+1})`, so adding
//!    `c_0` first and `d_r = M⁻¹ c_{r+1}` after the S-box of round `r` (`d_{R-1} = 0`) is the
//!    same function.
//! 2. Partial rounds keep only `d_r[0]`: the rest, `(0, d_r[1..])`, commutes with the S-box on
//!    `x_0`, so it moves before it, i.e. after the previous round's `M`, where it is
//!    `M⁻¹ (0, d_r[1..])` added to `d_{r-1}`; from the last partial round back to the first,
//!    whose remainder lands in the last full round before the partial rounds.
//! 3. Sparse matrices: a matrix `A` factors as `A = M'' · M'` with `M' = diag(1, Â)` (`Â` the
//!    lower-right `(t-1) × (t-1)` block of `A`) and `M'' = [[A_00, v], [w, I]]`, `w` the first
//!    column of `A` below the diagonal and `v = A[0, 1..] · Â⁻¹`. `M'` commutes with the S-box
//!    on `x_0` and with a constant added to `x_0`, so it moves into the previous round:
//!    starting with `A = M` in the last partial round, round `r` keeps the sparse `M''_r` and
//!    hands `diag(1, Â_r) · M` to round `r - 1`; the last full round before the partial rounds
//!    gets the dense `pre_sparse = diag(1, Â_0) · M`.
//!
//! xtask bakes the result for the shipped instances into `src/instances/tables/`
//! (`cargo run -p xtask -- gen-params`), and [`crate::poseidon1::Poseidon1::new`] computes it at
//! run time for any other parameters.

use crate::Error;
use crate::field::PrimeField;
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
    /// `R_P`: one constant per partial round, added to `x_0` after its S-box.
    pub partial: Vec<F>,
    /// `R_P · t`: the first row of each partial round's sparse matrix.
    pub sparse_rows: Vec<F>,
    /// `R_P · t`: the first column of each sparse matrix below the diagonal (entry 0 of each
    /// row is zero).
    pub sparse_cols: Vec<F>,
    /// `t · t`, row-major: the linear layer of the last full round before the partial rounds.
    pub pre_sparse: Vec<F>,
    /// `t · t`, row-major: the MDS matrix.
    pub mds: Vec<F>,
}

/// Derives the optimized schedule of `params` (see the module docs).
///
/// # Errors
/// [`Error::SingularMatrix`] if the MDS matrix or one of the `(t-1) × (t-1)` blocks the
/// factorization inverts is singular (never for a Cauchy matrix, whose square submatrices are
/// all invertible).
pub fn optimize<F: PrimeField>(params: &Poseidon1Params<F>) -> Result<OptimizedSchedule<F>, Error> {
    let t = params.width;
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
    // Step 2: partial rounds keep d_r[0]; the rest moves back one round through M⁻¹.
    for r in (half..half + rounds_p).rev() {
        let mut rest = core::mem::replace(&mut d[r], vec![F::ZERO_ELEMENT; t]);
        d[r][0] = rest[0];
        rest[0] = F::ZERO_ELEMENT;
        let moved = mds_inv.apply(&rest);
        for (x, y) in d[r - 1].iter_mut().zip(moved) {
            *x = x.add(y);
        }
    }
    let mut full = c[0].to_vec();
    full.extend(d[..half].iter().flatten());
    full.extend(d[half + rounds_p..rounds - 1].iter().flatten());
    let partial = d[half..half + rounds_p].iter().map(|row| row[0]).collect();

    // Step 3: sparse factorization, from the last partial round back to the first.
    let mut sparse_rows = vec![F::ZERO_ELEMENT; rounds_p * t];
    let mut sparse_cols = vec![F::ZERO_ELEMENT; rounds_p * t];
    let mut a = mds.clone();
    for r in (0..rounds_p).rev() {
        let hat = a.minor();
        let hat_inv = hat.inverse().ok_or(Error::SingularMatrix)?;
        let row = &mut sparse_rows[r * t..(r + 1) * t];
        row[0] = a.at(0, 0);
        for (j, v) in row.iter_mut().enumerate().skip(1) {
            *v = (1..t).fold(F::ZERO_ELEMENT, |acc, l| {
                acc.add(a.at(0, l).mul(hat_inv.at(l - 1, j - 1)))
            });
        }
        for (i, w) in sparse_cols[r * t..(r + 1) * t]
            .iter_mut()
            .enumerate()
            .skip(1)
        {
            *w = a.at(i, 0);
        }
        a = hat.bordered().mul(&mds);
    }
    Ok(OptimizedSchedule {
        full,
        partial,
        sparse_rows,
        sparse_cols,
        pre_sparse: a.a,
        mds: mds.a,
    })
}
