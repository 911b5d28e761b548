//! The one Poseidon1 round driver, on the optimized schedule of eprint 2019/458 appendix B
//! (as circomlibjs `src/poseidon_opt.js` and go-iden3-crypto `poseidon/poseidon.go` evaluate
//! it), shared by [`crate::poseidon1::ct::Poseidon1Ct`] and [`crate::poseidon1::Poseidon1`].
//!
//! The reference round `x <- M · S(x + c_r)` is rewritten (see [`crate::poseidon1::schedule`]
//! for the derivation) as: `x += full[0]`; then
//! - `R_F / 2` full rounds: S-box on every element, add the next `full` row, multiply by the MDS
//!   matrix (by the dense `pre_sparse` matrix in the last of these rounds);
//! - `R_P` partial rounds: S-box on `x_0`, add `partial[r]` to `x_0`, multiply by the sparse
//!   matrix `r` (first row `sparse_rows[r]`, first column `sparse_cols[r]`, identity elsewhere:
//!   `2t - 1` multiplications instead of `t²`);
//! - `R_F / 2` full rounds: S-box on every element, add the next `full` row (none in the last
//!   round), multiply by the MDS matrix.

use crate::field::Field;
use crate::params::MAX_WIDTH;

/// Borrowed view of one instance's optimized schedule, in the layout both permutation types
/// store. `t` is the state's length.
#[derive(Clone, Copy)]
pub(crate) struct Schedule<'a, F> {
    /// `R_F` rows of `t`: row 0 is added before the first S-box layer, row `k >= 1` after the
    /// S-box layer of full round `k - 1` (the last full round adds none).
    pub full: &'a [F],
    /// `R_P` constants, one per partial round, added to `x_0` after its S-box.
    pub partial: &'a [F],
    /// `R_P` rows of `t`: the first row of each partial round's sparse matrix.
    pub sparse_rows: &'a [F],
    /// `R_P` rows of `t`: the first column of each sparse matrix below the diagonal (entry 0 of
    /// each row is zero and unused).
    pub sparse_cols: &'a [F],
    /// `t × t`, row-major: the linear layer of the last full round before the partial rounds.
    pub pre_sparse: &'a [F],
    /// `t × t`, row-major: the MDS matrix.
    pub mds: &'a [F],
}

/// `state <- m · state` for the row-major `t × t` matrix `m`.
#[inline(always)]
fn mix<F: Field>(state: &mut [F], m: &[F]) {
    let t = state.len();
    let mut out = [F::ZERO_ELEMENT; MAX_WIDTH];
    for (y, row) in out.iter_mut().zip(m.chunks_exact(t)) {
        *y = row
            .iter()
            .zip(state.iter())
            .fold(F::ZERO_ELEMENT, |acc, (&a, &x)| acc.add(a.mul(x)));
    }
    state.copy_from_slice(&out[..t]);
}

/// One full round of the schedule: S-box on every element, the optional row of constants, the
/// matrix `m`.
#[inline(always)]
fn full_round<F: Field, const D: u64>(state: &mut [F], constants: Option<&[F]>, m: &[F]) {
    for x in state.iter_mut() {
        *x = x.sbox::<D>();
    }
    if let Some(constants) = constants {
        for (x, &c) in state.iter_mut().zip(constants) {
            *x = x.add(c);
        }
    }
    mix(state, m);
}

/// Permutes `state` in place. `state.len()` is the width `t` (at most [`MAX_WIDTH`]); the
/// caller guarantees that the schedule's tables have the matching lengths (checked when the
/// instance was built).
#[inline(always)]
pub(crate) fn permute<F: Field, const D: u64>(state: &mut [F], s: Schedule<'_, F>) {
    let t = state.len();
    let mut rows = s.full.chunks_exact(t);
    let half = s.full.len() / t / 2;
    if let Some(first) = rows.next() {
        for (x, &c) in state.iter_mut().zip(first) {
            *x = x.add(c);
        }
    }
    for round in 0..half {
        let m = if round + 1 == half {
            s.pre_sparse
        } else {
            s.mds
        };
        full_round::<F, D>(state, rows.next(), m);
    }
    let sparse = s
        .sparse_rows
        .chunks_exact(t)
        .zip(s.sparse_cols.chunks_exact(t));
    for (&c, (row, col)) in s.partial.iter().zip(sparse) {
        let x0 = state[0].sbox::<D>().add(c);
        state[0] = x0;
        let y0 = row
            .iter()
            .zip(state.iter())
            .fold(F::ZERO_ELEMENT, |acc, (&a, &x)| acc.add(a.mul(x)));
        for (x, &w) in state.iter_mut().zip(col).skip(1) {
            *x = x.add(w.mul(x0));
        }
        state[0] = y0;
    }
    for _ in 0..half {
        full_round::<F, D>(state, rows.next(), s.mds);
    }
}
