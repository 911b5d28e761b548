//! The external and internal linear layers (paper section 5.1 and 5.2), written once for every
//! width and used by both the const-generic and the runtime permutation.
//!
//! External layer `M_E`:
//! - t = 2: circ(2, 1); t = 3: circ(2, 1, 1), i.e. `y_i = x_i + sum(x)`;
//! - t = 4: `M4`, the paper's `[[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]]` or Plonky3's
//!   `circ(2, 3, 1, 1)`, as the instance's [`ExternalMatrix`] says;
//! - t = 4k >= 8: the block matrix with `2·M4` on the diagonal blocks and `M4` elsewhere, computed
//!   as `M4` on each block of four followed by `y_i += sum_k (M4 x)_{4k + (i mod 4)}`.
//!
//! (Plonky3 uses `M4` alone at t = 4 only for the paper's block; with its own block it uses
//! the block layout, `2·M4`, at t = 4 too. The crate ships no t = 4 instance with Plonky3's
//! block, and applies `M4` alone at t = 4 for both.)
//!
//! Internal layer `M_I = J + diag(m)` with `m = mu - 1`: `y_i = m_i x_i + sum(x)`.
//! For t = 2 and t = 3 the fixed matrices `[[2,1],[1,3]]` and `[[2,1,1],[1,2,1],[1,1,3]]` are
//! exactly this shape with `m = (1, 2)` and `m = (1, 1, 2)`, applied with additions and one
//! doubling instead of multiplications.
//!
//! # Who computes the layers
//! The generic layers ([`external_layer`], [`internal_layer`]) are written once, over the small
//! operation traits [`LinearOps`] and [`DiagonalOps`]. The round driver reaches them through
//! [`LinearLayers`], a trait of the permutation layer (not of [`Field`], which holds arithmetic
//! only): its defaults are the generic layers, and a representation that computes the same
//! values faster overrides them there. Overrides, one per representation, each saying why:
//! - ark-ff `Fp` (below, on the four-limb arithmetic of `src/field/ark.rs`): the four-limb
//!   internal layer (products reading `m_i` in place for the MULX/ADX kernel; BN254's lazily
//!   reduced sum);
//! - `GoldilocksFast` (below, on the arithmetic of `src/field/goldilocks/fast.rs`): both layers
//!   on unreduced `u128` lanes; the partial rounds of a permutation with a registered diagonal
//!   (Plonky3's) run the generic compiled layer, its sum left in `u128` and the next round's
//!   constant taken into `x_0`'s reduction (`CompiledLayer::compiled_output_then_round`);
//!   in the full rounds the next round's constants are added in the external layer's
//!   reductions ([`LinearLayers::external_layer_adding`]), the first round's in the initial
//!   layer's ([`LinearLayers::adds_in_initial_layer`]);
//! - the Goldilocks batch kernel's vectors: both layers (exact 32-bit halves, fused
//!   multiply-add with one reduction).
//!
//! - `Monty31` (BabyBear, KoalaBear): the external layer on unreduced `u64` lanes, one
//!   reduction per output (in the full rounds, the next round's constants added before it);
//!   the internal layer's sum taken in `u64` with one reduction
//!   (`Monty31::wide_sum`), with the table (the generic formula otherwise) and for the
//!   partial rounds of a permutation whose diagonal is registered as compiled into the code
//!   (Plonky3's, SP1's; the registry is in `crate::instances`), which run the generic
//!   internal layer over that diagonal's constant entries
//!   ([`LinearLayers::compiled_partial_rounds`]).
//!
//! The AVX-512 IFMA batch kernel's vectors run the generic layers (after normalizing what the
//! previous layer left unreduced). A [`Field`] implemented outside this crate gets the generic
//! layers with one line, `impl LinearLayers for MyField {}`.

use crate::MAX_WIDTH;
use crate::field::ark::{Fast4, from_limbs, to_limbs};
use crate::field::diagonal::Classified;
use crate::field::goldilocks::GoldilocksFast;
use crate::field::goldilocks::fast::{add_last, reduce96, reduce128, widening_mul};
use crate::field::monty31::{Monty31, Monty31Modulus};
use crate::field::{Field, Sealed, montgomery};
use crate::params::ExternalMatrix;
use crate::poseidon2::permutation::{CompiledDiagonals, RoundOps};
use ark_ff::{Fp, MontBackend, MontConfig};

/// What the external layer and the fixed t = 2, 3 internal layers need: addition and doubling.
/// Every [`Field`] has them; a SIMD batch backend implements it for a vector of field elements,
/// so both run this one layer code.
pub trait LinearOps: Copy {
    /// `self + rhs` (a backend may leave the result lazily reduced).
    fn linear_add(self, rhs: Self) -> Self;
    /// `2 * self`; the default is `self + self`.
    #[inline(always)]
    fn linear_double(self) -> Self {
        self.linear_add(self)
    }
}

/// Unreduced integer lanes, for a field with a wide accumulator: it runs the external layer
/// on them and reduces once per output (`u128`: Goldilocks, values far below `2^128`; `u64`:
/// the 31-bit Montgomery fields, values below `2^40`).
macro_rules! unreduced_lanes {
    ($($lane:ty),*) => {$(
        impl LinearOps for $lane {
            #[inline(always)]
            fn linear_add(self, rhs: Self) -> Self {
                self + rhs
            }
            #[inline(always)]
            fn linear_double(self) -> Self {
                self << 1
            }
        }
    )*};
}
unreduced_lanes!(u64, u128);

impl<F: Field> LinearOps for F {
    #[inline(always)]
    fn linear_add(self, rhs: Self) -> Self {
        Field::add(self, rhs)
    }
    #[inline(always)]
    fn linear_double(self) -> Self {
        Field::doubled(self)
    }
}

/// What the generic t >= 4 internal layer needs beyond [`LinearOps`]: the product by a diagonal
/// entry `m_i = mu_i - 1` of type `C`. Every [`Field`] has it (its `mul`, with `C = Self`); a
/// SIMD batch backend implements it for a vector of field elements with its own constant type.
pub trait DiagonalOps<C = Self>: LinearOps {
    /// `self * m` (a backend may leave the result lazily reduced).
    fn mul_diagonal(self, m: &C) -> Self;

    /// `self * m + s`, one output of the internal layer; the default is exactly that (an
    /// entry type whose product can be fused with the addition overrides it).
    #[inline(always)]
    fn mul_diagonal_add(self, m: &C, s: Self) -> Self {
        self.mul_diagonal(m).linear_add(s)
    }
}

/// The internal layer with a diagonal compiled into the code ([`compiled_internal_layer`],
/// run by `permutation::CompiledDiagonals`), for a representation and an entry type `E` whose
/// entries carry how to multiply by them: how the layer forms the sum, and each output from it.
pub(crate) trait CompiledLayer<E>: LinearOps + RoundOps {
    /// The sum as the outputs take it: the element itself, or a wider accumulator left
    /// unreduced (no reduction on the partial rounds' chain through `x_0` between the sum and
    /// the outputs).
    type Sum: Copy;
    /// `sum(x)` of the (non-empty) state.
    fn compiled_sum(state: &[Self]) -> Self::Sum;
    /// `scale · sum(x)`, for the scaled layer ([`internal_layer_scaled`]).
    fn compiled_scaled_sum(state: &[Self], scale: &E) -> Self::Sum;
    /// `m · self + s`, one output.
    fn compiled_output(self, m: &E, s: Self::Sum) -> Self;
    /// Output 0, `m_0 x_0 + s`: [`CompiledLayer::compiled_output`] unless the representation
    /// forms it faster from what its sum carries (the 31-bit kernels: for `m_0 = -2`,
    /// `(x_1 + ... + x_{t-1}) - x_0`).
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_first_output(self, m: &E, s: Self::Sum) -> Self {
        self.compiled_output(m, s)
    }

    /// The least S-box degree from which the layer forms the products of outputs `1 .. t-1`
    /// before it adds the sum to any ([`CompiledLayer::compiled_product`] each, then
    /// [`CompiledLayer::compiled_add_product`] each; the S-box on `x_0` runs meanwhile);
    /// `u64::MAX`, never, by default. A constant, so that the branch not taken is not compiled.
    const PRODUCTS_FIRST_FROM: u64 = u64::MAX;
    /// The product part of [`CompiledLayer::compiled_output`] (from
    /// [`CompiledLayer::PRODUCTS_FIRST_FROM`]); the default leaves `self` for
    /// [`CompiledLayer::compiled_add_product`].
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_product(self, _m: &E) -> Self {
        self
    }
    /// The rest of [`CompiledLayer::compiled_output`] on what
    /// [`CompiledLayer::compiled_product`] returned.
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_add_product(self, m: &E, s: Self::Sum) -> Self {
        self.compiled_output(m, s)
    }

    /// The least S-box degree from which the partial rounds run the layer and the next
    /// round's step together ([`compiled_internal_layer`] with a constant: output 0, then its
    /// S-box through [`CompiledLayer::compiled_output_then_round`], then the other outputs),
    /// because that is faster than the layer and then the step; `u64::MAX`, never, by default.
    const FUSES_ROUND_FROM: u64 = u64::MAX;

    /// `(m · self + s + c)^D`: output 0 of the layer, then the next partial round's step with
    /// its constant `c` ([`RoundOps::add_sbox`]). The default runs them one after the other; a
    /// representation that can add `c` inside the output's reduction overrides it.
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_output_then_round<const D: u64>(
        self,
        m: &E,
        s: Self::Sum,
        c: Self::Constant,
    ) -> Self {
        self.compiled_output(m, s).add_sbox::<D>(c)
    }
}

impl<F: Field> DiagonalOps for F {
    #[inline(always)]
    fn mul_diagonal(self, m: &F) -> F {
        self.mul(*m)
    }
}

/// The linear layers as the round driver runs them, implemented by each representation of
/// state elements (the fields, and the SIMD batch backends' vectors), with diagonal entries of
/// type `C` (the field itself for a field). The defaults are the generic layers of this module;
/// a representation overrides one only with a faster computation of the same values mod p (the
/// module docs list the overrides and why each exists).
///
/// A [`Field`] implemented outside this crate (which also writes the empty
/// `impl Representation for MyField {}`, see [`crate::field::Representation`]) needs one line to
/// run the permutation,
/// ```
/// # use fast_poseidon2::field::Field;
/// # #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// # struct MyField(u64);
/// # impl fast_poseidon2::field::Representation for MyField {}
/// # impl Field for MyField {
/// #     const ZERO_ELEMENT: Self = MyField(0);
/// #     const ONE_ELEMENT: Self = MyField(1);
/// #     fn from_u64(v: u64) -> Self { MyField(v % 17) }
/// #     fn add(self, r: Self) -> Self { MyField((self.0 + r.0) % 17) }
/// #     fn doubled(self) -> Self { self.add(self) }
/// #     fn squared(self) -> Self { self.mul(self) }
/// #     fn mul(self, r: Self) -> Self { MyField(self.0 * r.0 % 17) }
/// # }
/// impl fast_poseidon2::linear::LinearLayers for MyField {}
/// ```
/// which takes the generic layers. (The operations of the generic layers, [`LinearOps`] and
/// [`DiagonalOps`], are bounds of the methods rather than supertraits, so that a bound
/// `F: Field + LinearLayers` does not put a second `add` beside [`Field::add`].)
pub trait LinearLayers<C = Self>: Copy {
    /// The external matrix `M_E` with block `m4` applied to `state` in place (shapes and length
    /// behaviour as in [`external_layer`], which is the default).
    #[inline(always)]
    fn external_layer(state: &mut [Self], m4: ExternalMatrix)
    where
        Self: LinearOps,
    {
        external_layer(state, m4);
    }

    /// The internal matrix `J + diag(diag_m1)` applied to `state` in place (shapes and length
    /// behaviour as in [`internal_layer`], which is the default).
    #[inline(always)]
    fn internal_layer(state: &mut [Self], diag_m1: &[C])
    where
        Self: DiagonalOps<C>,
    {
        internal_layer(state, diag_m1);
    }

    /// The scaled internal matrix `scale·J + diag(diag)` applied to `state` in place (shapes and
    /// length behaviour as in [`internal_layer_scaled`], which is the default).
    #[inline(always)]
    fn internal_layer_scaled(state: &mut [Self], diag: &[C], scale: &C)
    where
        Self: DiagonalOps<C>,
    {
        internal_layer_scaled(state, diag, scale);
    }

    /// The round driver's hidden hook for the initial layer of a field: whether it runs
    /// [`LinearLayers::external_layer_adding`] with the first full round's constants (a speed
    /// choice: the values are the same either way). The default is `false`. Sealed: only
    /// this crate can call or override it.
    #[doc(hidden)]
    #[inline(always)]
    fn adds_in_initial_layer(_: Sealed) -> bool {
        false
    }

    /// The round driver's hidden hook for the full rounds of a field: `M_E` with block `m4`
    /// (as [`LinearLayers::external_layer`]), then `next[i]`, the next full round's constant
    /// of element `i`, added to output `i` inside the layer's reductions, which is cheaper
    /// than the separate addition of the round; returns `true`. The default returns `false`
    /// and leaves `state` alone (the driver then runs the layer and adds the constants in the
    /// next round). Sealed: only this crate can call or override it.
    #[doc(hidden)]
    #[inline(always)]
    fn external_layer_adding(
        state: &mut [Self],
        m4: ExternalMatrix,
        next: &[C],
        _: Sealed,
    ) -> bool {
        let _ = (state, m4, next);
        false
    }

    /// The round driver's hidden hook for internal diagonals compiled into the code: if
    /// `diag_m1` and `scale` (the internal sum scale, `None` for 1) are those of a diagonal
    /// registered for this representation ([`CompiledDiagonals`]), runs the `R_P` partial
    /// rounds (round constants `internal`) with it and returns `true`; otherwise returns
    /// `false` and leaves `state` alone, and the driver runs them with the table. `W` is the
    /// width when fixed when compiling, `0` when read at run time (the round driver's). The
    /// default registers none. Sealed: only this crate can call or override it.
    #[doc(hidden)]
    #[inline(always)]
    fn compiled_partial_rounds<const D: u64, const W: usize>(
        state: &mut [Self],
        internal: &[C],
        diag_m1: &[C],
        scale: Option<&C>,
        _: Sealed,
    ) -> bool {
        let _ = (state, internal, diag_m1, scale);
        false
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
        acc = acc.linear_add(x);
    }
    state[0].linear_add(acc)
}

/// [`sum`] with the additions of `x_1 .. x_{t-1}` spread over four independent chains (joined
/// at the end, [`tail_sum_tree`]), so that the sum's latency is about a third of the serial
/// one: for a representation whose additions are exact and canonical (the 31-bit batch
/// kernels), where the partial rounds wait for this sum. Same value as [`sum`]; `state` must
/// not be empty.
#[cfg_attr(
    not(fast_poseidon2_simd),
    allow(dead_code) // the 31-bit batch kernels only
)]
#[inline(always)]
pub(crate) fn sum_tree<A: LinearOps>(state: &[A]) -> A {
    match tail_sum_tree(state) {
        Some(tail) => state[0].linear_add(tail),
        None => state[0],
    }
}

/// `x_1 + ... + x_{t-1}` in four chains of additions joined at the end (one chain below five
/// elements); `None` for fewer than two elements.
#[cfg_attr(
    not(fast_poseidon2_simd),
    allow(dead_code) // the 31-bit batch kernels only
)]
#[inline(always)]
pub(crate) fn tail_sum_tree<A: LinearOps>(state: &[A]) -> Option<A> {
    let rest = state.get(1..)?;
    let Some((head, tail)) = rest.split_first_chunk::<4>() else {
        let (&first, others) = rest.split_first()?;
        let mut acc = first;
        for &x in others {
            acc = acc.linear_add(x);
        }
        return Some(acc);
    };
    let mut acc = *head;
    for chunk in tail.chunks(4) {
        for (a, &x) in acc.iter_mut().zip(chunk) {
            *a = a.linear_add(x);
        }
    }
    Some(
        acc[0]
            .linear_add(acc[1])
            .linear_add(acc[2].linear_add(acc[3])),
    )
}

/// The paper's `M4 · x` for one block of four, in 8 additions and 6 doublings.
///
/// With `a = x0 + x1`, `b = x2 + x3`, `c = 2 x1 + b`, `e = 2 x3 + a`:
/// row 1 = `4a + c`, row 3 = `4b + e`, row 0 = `e + row 1`, row 2 = `c + row 3`.
#[inline(always)]
fn m4_horizen_labs<A: LinearOps>(x: &mut [A]) {
    let a = x[0].linear_add(x[1]);
    let b = x[2].linear_add(x[3]);
    let c = x[1].linear_double().linear_add(b);
    let e = x[3].linear_double().linear_add(a);
    let row1 = a.linear_double().linear_double().linear_add(c);
    let row3 = b.linear_double().linear_double().linear_add(e);
    x[0] = e.linear_add(row1);
    x[1] = row1;
    x[2] = c.linear_add(row3);
    x[3] = row3;
}

/// Plonky3's `M4 = circ(2, 3, 1, 1)` times `x` for one block of four, in 9 additions and 2
/// doublings.
///
/// With `a = x0 + x1`, `b = x2 + x3`, `s = a + b`, `u = s + x1`, `v = s + x3`:
/// row 0 = `u + a`, row 1 = `u + 2 x2`, row 2 = `v + b`, row 3 = `v + 2 x0`.
#[inline(always)]
fn m4_plonky3<A: LinearOps>(x: &mut [A]) {
    let a = x[0].linear_add(x[1]);
    let b = x[2].linear_add(x[3]);
    let s = a.linear_add(b);
    let u = s.linear_add(x[1]);
    let v = s.linear_add(x[3]);
    let row1 = u.linear_add(x[2].linear_double());
    let row3 = v.linear_add(x[0].linear_double());
    x[0] = u.linear_add(a);
    x[1] = row1;
    x[2] = v.linear_add(b);
    x[3] = row3;
}

/// Applies the external matrix `M_E` with block `m4` to `state` in place.
///
/// `state.len()` is the width `t` and should be 2, 3 or a multiple of 4 (instances validate it).
/// Any other length does not panic: fewer than two elements are left as they are, and a
/// remainder of fewer than four elements past the last block of four is left out of the block
/// sums, which is not a Poseidon2 layer. Widths 2 and 3 ignore `m4`.
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
pub fn external_layer<A: LinearOps>(state: &mut [A], m4: ExternalMatrix) {
    match m4 {
        ExternalMatrix::HorizenLabs => external_layer_with(state, m4_horizen_labs),
        ExternalMatrix::Plonky3 => external_layer_with(state, m4_plonky3),
    }
}

/// [`external_layer`] with the block product `m4` (a function item: one copy per block).
#[inline(always)]
fn external_layer_with<A: LinearOps>(state: &mut [A], m4: fn(&mut [A])) {
    match state.len() {
        0 | 1 => {}
        2 | 3 => {
            let s = sum(state);
            for x in state.iter_mut() {
                *x = x.linear_add(s);
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
                    *c = c.linear_add(x);
                }
            }
            for block in state.chunks_exact_mut(4) {
                for (x, &c) in block.iter_mut().zip(&column) {
                    *x = x.linear_add(c);
                }
            }
        }
    }
}

/// A field's two external layers on wide unreduced lanes ([`external_layer_widened`]: each
/// element widened by `$widen`, each output reduced once by `$narrow`) as its
/// [`LinearLayers`] methods: [`LinearLayers::external_layer`], and
/// [`LinearLayers::external_layer_adding`], which adds the next round's constants to the
/// outputs before their reductions, so that the next full round has no additions of its own.
/// `$doc` documents the first (the lanes and their bounds).
macro_rules! widened_external_layers {
    ($widen:expr, $narrow:expr, $(#[$doc:meta])*) => {
        $(#[$doc])*
        #[inline(always)]
        fn external_layer(state: &mut [Self], m4: ExternalMatrix) {
            Self::external_layer_adding(state, m4, &[], Sealed(()));
        }

        /// The layer above with `next[i]` added to output `i` before its reduction.
        #[inline(always)]
        fn external_layer_adding(
            state: &mut [Self],
            m4: ExternalMatrix,
            next: &[Self],
            _: Sealed,
        ) -> bool {
            external_layer_widened(state, m4, next, $widen, $narrow);
            true
        }
    };
}

/// [`external_layer`] on wide unreduced lanes of type `W`, for a field whose sums can wait:
/// each element is widened (`widen`), the generic layer runs on the lanes, and each output is
/// reduced once (`narrow`), with `next[i]` (widened) added to output `i` before its
/// reduction (none past the end of `next`). The caller's lanes must hold the layer's outputs
/// (at most 16 times a column sum of `MAX_WIDTH / 4` inputs) plus one element.
#[inline(always)]
fn external_layer_widened<A: Copy, W: LinearOps + Default>(
    state: &mut [A],
    m4: ExternalMatrix,
    next: &[A],
    widen: impl Fn(A) -> W,
    narrow: impl Fn(W) -> A,
) {
    let mut wide = [W::default(); MAX_WIDTH];
    let wide = &mut wide[..state.len().min(MAX_WIDTH)];
    for (w, &x) in wide.iter_mut().zip(state.iter()) {
        *w = widen(x);
    }
    external_layer(wide, m4);
    for (i, (x, &w)) in state.iter_mut().zip(wide.iter()).enumerate() {
        *x = narrow(match next.get(i) {
            Some(&c) => w.linear_add(widen(c)),
            None => w,
        });
    }
}

/// Applies the internal matrix `M_I = J + diag(diag_m1)` to `state` in place.
///
/// `diag_m1` has the state's length and holds `mu_i - 1`. For t = 2, 3 it is `(1, 2)` /
/// `(1, 1, 2)` by definition, so it is not read and the products are replaced by an addition or
/// a doubling. No length panics: fewer than two elements are left as they are, and for t >= 4
/// elements past the end of `diag_m1` are left as they are, which is not a Poseidon2 layer
/// (instances always pass `t` entries).
///
/// The t >= 4 formula `y_i = m_i x_i + sum(x)` is written once, in `internal_layer_with`,
/// for every representation and every diagonal (a table read at run time, as here, or one
/// compiled into the code); the module docs list the overrides of
/// [`LinearLayers::internal_layer`] and why each exists.
#[inline(always)]
pub fn internal_layer<A: DiagonalOps<C>, C>(state: &mut [A], diag_m1: &[C]) {
    internal_layer_with(state, diag_m1, None, sum);
}

/// Applies the scaled internal matrix `M_I = scale·J + diag(diag)` to `state` in place: `y_i =
/// d_i x_i + scale·sum(x)`, one product per element and one for the sum, at every width (t = 2
/// and 3 read `diag` too). SP1's KoalaBear permutation has `M_I = 2^-32 (J + diag(V))`, run as
/// `scale = 2^-32`, `diag = 2^-32 V` ([`crate::Poseidon2Params::with_internal_sum_scale`]).
///
/// `diag` has the state's length; elements past its end are left as they are (not a Poseidon2
/// layer; instances always pass `t` entries). Fewer than two elements are left as they are.
#[inline(always)]
pub fn internal_layer_scaled<A: DiagonalOps<C>, C>(state: &mut [A], diag: &[C], scale: &C) {
    internal_layer_with(state, diag, Some(scale), sum);
}

/// The internal layer with the table read at run time: [`internal_layer`] for `scale = None`,
/// [`internal_layer_scaled`] otherwise (same shapes and length behaviour), with `state_sum`
/// forming `x_0 + ... + x_{t-1}` at t >= 4 ([`sum`], or a representation's faster sum of the
/// same value). The formula `y_i = m_i x_i + s` is the same as with a diagonal compiled into
/// the code ([`compiled_internal_layer`]); only the shape of the loop and the sum's type differ.
#[inline(always)]
fn internal_layer_with<A: DiagonalOps<C>, C>(
    state: &mut [A],
    diag: &[C],
    scale: Option<&C>,
    state_sum: impl Fn(&[A]) -> A,
) {
    if state.len() < 2 {
        return;
    }
    let s = match scale {
        None if state.len() <= 3 => return internal_layer_fixed(state),
        None => state_sum(state),
        Some(scale) => state_sum(state).mul_diagonal(scale),
    };
    for (x, m) in state.iter_mut().zip(diag) {
        *x = x.mul_diagonal_add(m, s);
    }
}

/// The internal layer with a diagonal compiled into the code (`diag` and `scale` constants of
/// the code, e.g. `crate::poseidon2::permutation::CompiledDiagonals`' entries, which carry how
/// to multiply by them), shapes and length behaviour as [`internal_layer_with`].
///
/// The loop over the elements is written out (the compiler does not unroll a loop of 16 or
/// more elements whose body holds every entry kind's code; unrolled, each entry's
/// [`CompiledLayer::compiled_output`] folds to that entry's code), and the sum is the
/// representation's [`CompiledLayer::compiled_sum`], shorter in latency than [`sum`] (the
/// products, a few additions or a shift, no longer hide it).
///
/// With `next = Some(c)`, the next partial round's step follows on `x_0`: `x_0 <- (x_0 + c)^D`
/// after the layer, through [`CompiledLayer::compiled_output_then_round`] (for fewer than two
/// elements, the step alone), placed before the other outputs. From
/// [`CompiledLayer::PRODUCTS_FIRST_FROM`], the products of outputs `1 .. t-1` are all formed
/// before output 0, and the sum added to each after it: the work that does not wait for
/// `x_0`'s S-box comes first.
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
pub(crate) fn compiled_internal_layer<A: CompiledLayer<E>, E, const D: u64>(
    state: &mut [A],
    diag: &[E],
    scale: Option<&E>,
    next: Option<A::Constant>,
) {
    let s = match scale {
        _ if state.len() < 2 => None,
        None if state.len() <= 3 => {
            internal_layer_fixed(state);
            None
        }
        None => Some(A::compiled_sum(state)),
        Some(scale) => Some(A::compiled_scaled_sum(state, scale)),
    };
    let Some(s) = s else {
        if let (Some(x), Some(c)) = (state.first_mut(), next) {
            *x = x.add_sbox::<D>(c);
        }
        return;
    };
    macro_rules! every_index {
        ($each:ident) => {
            $each!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
        };
    }
    const { assert!(MAX_WIDTH == 32) };
    macro_rules! product {
        ($($i:literal)*) => {$(
            if let (true, Some(x), Some(m)) = ($i > 0, state.get_mut($i), diag.get($i)) {
                *x = x.compiled_product(m);
            }
        )*};
    }
    if const { A::PRODUCTS_FIRST_FROM <= D } {
        every_index!(product);
    }
    macro_rules! each {
        ($($i:literal)*) => {$(
            if let (Some(x), Some(m)) = (state.get_mut($i), diag.get($i)) {
                *x = match next {
                    Some(c) if $i == 0 => x.compiled_output_then_round::<D>(m, s, c),
                    None if $i == 0 => x.compiled_first_output(m, s),
                    _ if const { A::PRODUCTS_FIRST_FROM <= D } => x.compiled_add_product(m, s),
                    _ => x.compiled_output(m, s),
                };
            }
        )*};
    }
    every_index!(each);
}

/// The fixed internal matrices of t = 2 (`[[2,1],[1,3]]`) and t = 3 (`[[2,1,1],[1,2,1],[1,1,3]]`):
/// `y_i = x_i + sum(x)`, the last element doubled first. `state.len()` is 2 or 3.
#[inline(always)]
pub(crate) fn internal_layer_fixed<A: LinearOps>(state: &mut [A]) {
    let s = sum(state);
    let last = state.len() - 1;
    for x in state[..last].iter_mut() {
        *x = x.linear_add(s);
    }
    state[last] = state[last].linear_double().linear_add(s);
}

/// ark-ff `Fp` (BN254, BLS12-381, ark's `Goldilocks`, any other ark Montgomery field): the
/// generic external layer, and the generic internal layer except for four-limb fields with
/// `p < 2^255` and `t >= 4`.
impl<C: MontConfig<N>, const N: usize> LinearLayers for Fp<MontBackend<C, N>, N> {
    /// The override for four-limb fields with `p < 2^255` and `t >= 4` (BN254, BLS12-381
    /// scalar fields), for two reasons the generic formula cannot express: each product reads
    /// `m_i` in place from `diag_m1` (the generic `mul` copies its operand first, and the MULX/ADX
    /// kernel, which reads that operand from memory, would wait for the copy's store), and for
    /// `p < 2^254` (BN254) the sum `s` of `x_1 .. x_{t-1}` is taken in groups of four without
    /// reduction, each group reduced once. Same values as the generic layer.
    #[inline(always)]
    fn internal_layer(state: &mut [Self], diag_m1: &[Self]) {
        let Some(m) = Fast4::<C, N>::constants().filter(|_| state.len() >= 4) else {
            return internal_layer(state, diag_m1);
        };
        let p = &m.limbs;
        let s = match Fast4::<C, N>::TWICE {
            Some(p2) => {
                let mut rest = [0u64; 4];
                for group in state[1..].chunks(4) {
                    let part = montgomery::sum_reduced(group.iter().map(to_limbs), p, &p2);
                    rest = montgomery::add(&rest, &part, p);
                }
                from_limbs(montgomery::add(&to_limbs(&state[0]), &rest, p))
            }
            None => sum(state),
        };
        for (x, d) in state.iter_mut().zip(diag_m1) {
            let Ok(d) = <&[u64; 4]>::try_from(d.0.0.as_slice()) else {
                continue; // unreachable: `constants()` is `Some` only for four limbs
            };
            let product = montgomery::mul_unreduced(d, &to_limbs(x), m);
            *x = Field::add(from_limbs(montgomery::reduce(product, m)), s);
        }
    }
}

/// [`LinearLayers::compiled_partial_rounds`] for a representation with a registry of
/// diagonals compiled into the code ([`CompiledDiagonals`], in `crate::instances`).
macro_rules! compiled_partial_rounds_from_registry {
    () => {
        #[inline(always)]
        fn compiled_partial_rounds<const D: u64, const W: usize>(
            state: &mut [Self],
            internal: &[Self],
            diag_m1: &[Self],
            scale: Option<&Self>,
            _: Sealed,
        ) -> bool {
            <Self as CompiledDiagonals>::partial_rounds::<D, W>(state, internal, diag_m1, scale)
        }
    };
}

/// The 31-bit Montgomery fields (BabyBear, KoalaBear): the generic layers. With a table read at
/// run time the diagonal products are Montgomery multiplications (classifying the entries per
/// permutation and dispatching on the kind per element was tried and was slower, see
/// docs/benchmarks.md); a permutation whose diagonal is one registered as compiled
/// (`permutation::CompiledDiagonals`, Plonky3's and SP1's) runs its partial rounds with the same generic
/// layer over the classified entries as constants of the code, each product an addition
/// chain, a shift or a Montgomery product chosen when compiling.
impl<P: Monty31Modulus> LinearLayers for Monty31<P> {
    widened_external_layers! {
        |x| u64::from(x.word()),
        Self::from_wide,
        /// The generic layer on unreduced `u64` lanes (the stored words), one reduction per
        /// output (`Monty31::from_wide`: `%` by the constant `p`).
        ///
        /// Bounds: words are `< 2^31`; an `M4` row has coefficient sum at most 16 (7 for
        /// Plonky3's), so block outputs are `< 2^35`, column sums over at most
        /// `MAX_WIDTH / 4 = 8` blocks `< 2^38`, outputs `< 2^39`; with a constant's word,
        /// `< 2^40`.
    }

    /// The generic layer with the sum of `Monty31::wide_sum` (words added in `u64`, one
    /// reduction), shorter in latency than `t - 1` modular additions in a row.
    #[inline(always)]
    fn internal_layer(state: &mut [Self], diag_m1: &[Self]) {
        internal_layer_with(state, diag_m1, None, Self::wide_sum);
    }

    /// As [`LinearLayers::internal_layer`]: the generic layer with `Monty31::wide_sum`.
    #[inline(always)]
    fn internal_layer_scaled(state: &mut [Self], diag: &[Self], scale: &Self) {
        internal_layer_with(state, diag, Some(scale), Self::wide_sum);
    }

    compiled_partial_rounds_from_registry!();
}

impl<P: Monty31Modulus> Monty31<P> {
    /// `x_0 + (x_1 + ... + x_{t-1})` of a (non-empty) state: the words after `x_0` added up
    /// in `u64` in four chains (below `MAX_WIDTH · 2^31 = 2^36`) and reduced once, while
    /// `x_0` (in the partial rounds, the S-box output, the last to arrive) is still being
    /// computed; `x_0` then enters by one modular addition.
    #[inline(always)]
    fn wide_sum(state: &[Self]) -> Self {
        let Some((&x0, rest)) = state.split_first() else {
            return Self::ZERO_ELEMENT;
        };
        let mut w = [0u64; 4];
        for (i, x) in rest.iter().enumerate() {
            w[i % 4] += u64::from(x.word());
        }
        Self::from_wide((w[0] + w[1]) + (w[2] + w[3])).add(x0)
    }
}

/// The layer over classified constants ([`Classified`], the entries of a diagonal compiled into
/// the code): the field's [`Monty31::mul_classified_add`], the addition fused.
impl<P: Monty31Modulus> CompiledLayer<Classified<Monty31<P>>> for Monty31<P> {
    type Sum = Self;

    /// [`Monty31::wide_sum`].
    #[inline(always)]
    fn compiled_sum(state: &[Self]) -> Self {
        Self::wide_sum(state)
    }

    #[inline(always)]
    fn compiled_scaled_sum(state: &[Self], scale: &Classified<Monty31<P>>) -> Self {
        Self::wide_sum(state).mul_classified_add(scale, Self::ZERO_ELEMENT)
    }

    #[inline(always)]
    fn compiled_output(self, m: &Classified<Monty31<P>>, s: Self) -> Self {
        self.mul_classified_add(m, s)
    }
}

/// `GoldilocksFast`: both layers overridden: `u64` words are lazily reduced, so sums and products are
/// accumulated in `u128` and reduced once per output, where the generic layers would reduce
/// after every addition.
impl LinearLayers for GoldilocksFast {
    widened_external_layers! {
        |x| u128::from(x.0),
        |w| GoldilocksFast(reduce96(w)),
        /// The generic layer run on unreduced `u128` lanes, one reduction per output.
        ///
        /// Bounds: inputs are `< 2^64`; an `M4` row has coefficient sum at most 16 (7 for
        /// Plonky3's), so block outputs are `< 2^68`, column sums over at most
        /// `MAX_WIDTH / 4 = 8` blocks `< 2^71`, outputs `< 2^72`; with a constant,
        /// `< 2^72 + 2^64`, within `reduce96`'s bound.
    }

    /// Yes (docs/benchmarks.md, 2026-12-07: t = 8, 12, 16 1-3% faster).
    #[inline(always)]
    fn adds_in_initial_layer(_: Sealed) -> bool {
        true
    }

    /// `y_i = m_i x_i + s`, each output reduced once, with the sum `s` left unreduced in `u128`:
    /// the partial rounds are a chain through `x_0` (S-box, sum, product), and a reduction of
    /// `s` would sit on it.
    ///
    /// Bounds: `s < MAX_WIDTH · 2^64 <= 2^69`; `m_i` is taken canonical (`< p`, computed from
    /// the constant, off the chain), so `m_i x_i <= (p - 1)(2^64 - 1) < 2^128 - 2^96` and
    /// `m_i x_i + s < 2^128`: one `reduce128` per output. Widths 2 and 3 (fixed matrices,
    /// additions only) take the generic layer.
    #[inline(always)]
    fn internal_layer(state: &mut [Self], diag_m1: &[Self]) {
        if state.len() <= 3 {
            return internal_layer(state, diag_m1);
        }
        // `x_0`, the S-box output, added after the others ([`add_last`]). The layer with a
        // compiled diagonal below keeps the plain sum: there the fence measured 3% faster to
        // 2% slower by width and build (docs/benchmarks.md, 2026-12-07).
        let s = add_last(sum_wide(&state[1..]), state[0].0);
        for (x, m) in state.iter_mut().zip(diag_m1) {
            x.0 = reduce128(widening_mul(x.0, m.to_canonical_u64()) + s);
        }
    }

    compiled_partial_rounds_from_registry!();
}

/// The layer over classified constants ([`Classified`], the entries of a diagonal compiled into
/// the code): [`GoldilocksFast::mul_classified_add`], each output reduced once from the sum
/// left unreduced in `u128`, as in [`LinearLayers::internal_layer`] above.
impl CompiledLayer<Classified<GoldilocksFast>> for GoldilocksFast {
    type Sum = u128;

    #[inline(always)]
    fn compiled_sum(state: &[Self]) -> u128 {
        sum_wide(state)
    }

    #[inline(always)]
    fn compiled_scaled_sum(state: &[Self], scale: &Classified<GoldilocksFast>) -> u128 {
        u128::from(sum(state).mul_classified_add(scale, 0).0)
    }

    #[inline(always)]
    fn compiled_output(self, m: &Classified<GoldilocksFast>, s: u128) -> Self {
        self.mul_classified_add(m, s)
    }

    const FUSES_ROUND_FROM: u64 = 0;

    /// The constant joins the unreduced sum (`s + c < 2^70`, within the bounds of
    /// [`GoldilocksFast::mul_classified_add`]): the round's addition costs no reduction of its
    /// own on the partial rounds' chain through `x_0`.
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_output_then_round<const D: u64>(
        self,
        m: &Classified<GoldilocksFast>,
        s: u128,
        c: GoldilocksFast,
    ) -> Self {
        self.mul_classified_add(m, s + u128::from(c.0)).sbox::<D>()
    }
}

/// `sum(x)` of at most [`MAX_WIDTH`] words, unreduced (`< 2^69`), as `x_0 + (x_1 + ...)` (see
/// [`sum`]: only `x_0` changed in a partial round).
#[inline(always)]
fn sum_wide(state: &[GoldilocksFast]) -> u128 {
    let rest: u128 = state[1..].iter().map(|x| u128::from(x.0)).sum();
    u128::from(state[0].0) + rest
}
