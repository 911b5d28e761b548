//! The external and internal linear layers (paper section 5.1 and 5.2), written once for every
//! width and used by both the const-generic and the runtime permutation.
//!
//! External layer `M_E`:
//! - t = 2: circ(2, 1); t = 3: circ(2, 1, 1), i.e. `y_i = x_i + sum(x)`;
//! - t = 4: `M4 = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]]`;
//! - t = 4k >= 8: the block matrix with `2·M4` on the diagonal blocks and `M4` elsewhere, computed
//!   as `M4` on each block of four followed by `y_i += sum_k (M4 x)_{4k + (i mod 4)}`.
//!
//! Internal layer `M_I = J + diag(m)` with `m = mu - 1`: `y_i = m_i x_i + sum(x)`.
//! For t = 2 and t = 3 the fixed matrices `[[2,1],[1,3]]` and `[[2,1,1],[1,2,1],[1,1,3]]` are
//! exactly this shape with `m = (1, 2)` and `m = (1, 1, 2)`, applied with additions and one
//! doubling instead of multiplications.

use crate::field::Field;

/// What the external layer and the fixed t = 2, 3 internal layers need: addition and doubling.
/// Every [`Field`] has them; a SIMD batch backend implements it for a vector of field elements,
/// so both run this one layer code.
pub trait LinearOps: Copy {
    /// `self + rhs` (a backend may leave the result lazily reduced).
    fn add(self, rhs: Self) -> Self;
    /// `2 * self`.
    fn double(self) -> Self;
}

/// Unreduced 128-bit lanes: a field with a wide accumulator (Goldilocks) runs the external layer
/// here and reduces once per output; callers keep the values far below `2^128`.
impl LinearOps for u128 {
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        self + rhs
    }
    #[inline(always)]
    fn double(self) -> Self {
        self << 1
    }
}

impl<F: Field> LinearOps for F {
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Field::add(self, rhs)
    }
    #[inline(always)]
    fn double(self) -> Self {
        Field::double(self)
    }
}

/// Sum of all state elements in `t - 1` additions, as `x_0 + (x_1 + ... + x_{t-1})`: a partial
/// round changes only `x_0`, so the other additions do not wait for its S-box (field addition
/// is exact, so the order does not change the result). `state` must not be empty (the public
/// layers return early for fewer than two elements).
#[inline(always)]
pub(crate) fn sum<A: LinearOps>(state: &[A]) -> A {
    // A loop, not `fold` with a closure: see `crate::field::SboxOps` on closures in SIMD kernels.
    let Some((&x1, rest)) = state[1..].split_first() else {
        return state[0];
    };
    let mut acc = x1;
    for &x in rest {
        acc = acc.add(x);
    }
    state[0].add(acc)
}

/// `M4 · x` for one block of four, in 8 additions and 6 doublings.
///
/// With `a = x0 + x1`, `b = x2 + x3`, `c = 2 x1 + b`, `e = 2 x3 + a`:
/// row 1 = `4a + c`, row 3 = `4b + e`, row 0 = `e + row 1`, row 2 = `c + row 3`.
#[inline(always)]
fn m4<A: LinearOps>(x: &mut [A]) {
    let a = x[0].add(x[1]);
    let b = x[2].add(x[3]);
    let c = x[1].double().add(b);
    let e = x[3].double().add(a);
    let row1 = a.double().double().add(c);
    let row3 = b.double().double().add(e);
    x[0] = e.add(row1);
    x[1] = row1;
    x[2] = c.add(row3);
    x[3] = row3;
}

/// Applies the external matrix `M_E` to `state` in place.
///
/// `state.len()` is the width `t` and should be 2, 3 or a multiple of 4 (instances validate it).
/// Any other length does not panic: fewer than two elements are left as they are, and a
/// remainder of fewer than four elements past the last block of four is left out of the block
/// sums, which is not a Poseidon2 layer.
#[inline(always)]
pub fn external_layer<A: LinearOps>(state: &mut [A]) {
    match state.len() {
        0 | 1 => {}
        2 | 3 => {
            let s = sum(state);
            for x in state.iter_mut() {
                *x = x.add(s);
            }
        }
        4 => m4(state),
        _ => {
            for block in state.chunks_exact_mut(4) {
                m4(block);
            }
            let mut column = [state[0], state[1], state[2], state[3]];
            for block in state[4..].chunks_exact(4) {
                for (c, &x) in column.iter_mut().zip(block) {
                    *c = c.add(x);
                }
            }
            for block in state.chunks_exact_mut(4) {
                for (x, &c) in block.iter_mut().zip(&column) {
                    *x = x.add(c);
                }
            }
        }
    }
}

/// Applies the internal matrix `M_I = J + diag(diag_m1)` to `state` in place.
///
/// `diag_m1` has the state's length and holds `mu_i - 1`. For t = 2, 3 it is `(1, 2)` /
/// `(1, 1, 2)` by definition, so it is not read and the products are replaced by an addition or
/// a doubling. No length panics: fewer than two elements are left as they are, and for t >= 4
/// elements past the end of `diag_m1` are left as they are, which is not a Poseidon2 layer
/// (instances always pass `t` entries).
#[inline(always)]
pub fn internal_layer<F: Field>(state: &mut [F], diag_m1: &[F]) {
    if state.len() < 2 {
        return;
    }
    if state.len() <= 3 {
        internal_layer_fixed(state);
    } else {
        let s = sum(state);
        for (x, &m) in state.iter_mut().zip(diag_m1) {
            *x = Field::add(x.mul(m), s);
        }
    }
}

/// The fixed internal matrices of t = 2 (`[[2,1],[1,3]]`) and t = 3 (`[[2,1,1],[1,2,1],[1,1,3]]`):
/// `y_i = x_i + sum(x)`, the last element doubled first. `state.len()` is 2 or 3.
#[inline(always)]
pub(crate) fn internal_layer_fixed<A: LinearOps>(state: &mut [A]) {
    let s = sum(state);
    let last = state.len() - 1;
    for x in state[..last].iter_mut() {
        *x = x.add(s);
    }
    state[last] = state[last].double().add(s);
}
