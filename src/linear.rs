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

/// Sum of all state elements in `t - 1` additions (`zero` only for an empty state), as
/// `x_0 + (x_1 + ... + x_{t-1})`: a partial round changes only `x_0`, so the other additions
/// do not wait for its S-box. Field addition is exact, so the order does not change the result.
#[inline(always)]
fn sum<T: Copy>(state: &[T], zero: T, add: impl Fn(T, T) -> T + Copy) -> T {
    let rest = state.iter().skip(1).copied().reduce(add);
    match (state.first(), rest) {
        (Some(&x0), Some(rest)) => add(x0, rest),
        (Some(&x0), None) => x0,
        (None, _) => zero,
    }
}

/// `M4 · x` for one block of four, in 8 additions and 4 doublings (`double(v) = add(v, v)`).
///
/// With `a = x0 + x1`, `b = x2 + x3`, `c = 2 x1 + b`, `e = 2 x3 + a`:
/// row 1 = `4a + c`, row 3 = `4b + e`, row 0 = `e + row 1`, row 2 = `c + row 3`.
#[inline(always)]
fn m4<T: Copy>(x: &mut [T], add: impl Fn(T, T) -> T) {
    let double = |v| add(v, v);
    let a = add(x[0], x[1]);
    let b = add(x[2], x[3]);
    let c = add(double(x[1]), b);
    let e = add(double(x[3]), a);
    let row1 = add(double(double(a)), c);
    let row3 = add(double(double(b)), e);
    x[0] = add(e, row1);
    x[1] = row1;
    x[2] = add(c, row3);
    x[3] = row3;
}

/// Applies the external matrix `M_E` to `state` in place.
///
/// `state.len()` is the width `t` and should be 2, 3 or a multiple of 4 (instances validate it).
/// Any other length does not panic: a remainder of fewer than four elements past the last block
/// of four is left out of the block sums, which is not a Poseidon2 layer.
#[inline(always)]
pub fn external_layer<F: Field>(state: &mut [F]) {
    external_layer_with(state, F::ZERO, F::add);
}

/// [`external_layer`] over any additive type: `zero` and `add` are its identity and addition
/// (doublings are `add(v, v)`). A field with a wider unreduced type (Goldilocks: `u128`) runs
/// the layer there and reduces once per output.
#[inline(always)]
pub(crate) fn external_layer_with<T: Copy>(
    state: &mut [T],
    zero: T,
    add: impl Fn(T, T) -> T + Copy,
) {
    match state.len() {
        2 | 3 => {
            let s = sum(state, zero, add);
            for x in state.iter_mut() {
                *x = add(*x, s);
            }
        }
        4 => m4(state, add),
        _ => {
            for block in state.chunks_exact_mut(4) {
                m4(block, add);
            }
            // Column sums, starting from the first block (no additions of zero).
            let mut blocks = state.chunks_exact(4);
            let mut column = match blocks.next() {
                Some(first) => [first[0], first[1], first[2], first[3]],
                None => [zero; 4],
            };
            for block in blocks {
                for (c, &x) in column.iter_mut().zip(block) {
                    *c = add(*c, x);
                }
            }
            for block in state.chunks_exact_mut(4) {
                for (x, &c) in block.iter_mut().zip(&column) {
                    *x = add(*x, c);
                }
            }
        }
    }
}

/// Applies the internal matrix `M_I = J + diag(diag_m1)` to `state` in place.
///
/// `diag_m1` has the state's length and holds `mu_i - 1`. For t = 2, 3 it is `(1, 2)` /
/// `(1, 1, 2)` by definition, so it is not read and the products are replaced by an addition or
/// a doubling. No length panics: for t >= 4, elements past the end of `diag_m1` are left as they
/// are, which is not a Poseidon2 layer (instances always pass `t` entries).
#[inline(always)]
pub fn internal_layer<F: Field>(state: &mut [F], diag_m1: &[F]) {
    let s = sum(state, F::ZERO, F::add);
    match state.len() {
        2 => {
            state[0] = state[0].add(s);
            state[1] = state[1].double().add(s);
        }
        3 => {
            state[0] = state[0].add(s);
            state[1] = state[1].add(s);
            state[2] = state[2].double().add(s);
        }
        _ => {
            for (x, &m) in state.iter_mut().zip(diag_m1) {
                *x = x.mul(m).add(s);
            }
        }
    }
}
