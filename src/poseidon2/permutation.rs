//! The one Poseidon2 round driver (paper section 5, Figure 1; reference
//! `plain_implementations/src/poseidon2/poseidon2.rs`), shared by [`crate::poseidon2::ct::Poseidon2Ct`] and
//! [`crate::Poseidon2`].
//!
//! Structure: `x <- M_E x`; `R_F / 2` full rounds (add `t` constants, S-box on every element,
//! `M_E`); `R_P` partial rounds (add one constant to `x_0`, S-box on `x_0`, `M_I`); `R_F / 2`
//! full rounds.

use crate::field::{Field, Sealed};
use crate::params::ExternalMatrix;
use crate::poseidon2::linear::{CompiledLayer, DiagonalOps, LinearLayers, compiled_internal_layer};

/// What the round driver does to state elements beyond the linear layers ([`LinearLayers`],
/// whose diagonal entries have the round constants' type): a field implements it with its own
/// arithmetic (blanket impl below); a SIMD batch backend implements it for a vector holding one
/// element of each of several states, so the round structure exists once.
pub(crate) trait RoundOps: Copy {
    /// The type of a round constant (the field itself, or a backend's broadcast vector).
    type Constant: Copy;
    /// One round step: the round constant `c`, then the S-box, `(self + c)^D` (see
    /// [`Field::add_sbox`]).
    fn add_sbox<const D: u64>(self, c: Self::Constant) -> Self;

    /// The full rounds whose constants are `constants` (whole rounds of `state.len()`):
    /// [`full_rounds`] by default (the batch kernels, which may run one group of states at a
    /// time); the fields' own form is in their impl below. `W` is the width fixed when
    /// compiling, as in [`permute`].
    #[inline(always)]
    fn full_rounds<const D: u64, const W: usize>(
        state: &mut [Self],
        constants: &[Self::Constant],
        m4: ExternalMatrix,
    ) where
        Self: LinearLayers<Self::Constant> + DiagonalOps<Self::Constant>,
    {
        full_rounds::<Self, D>(state, constants, m4);
    }

    /// The initial external layer, then the first half's full rounds (constants `constants`,
    /// as [`RoundOps::full_rounds`]): the layer, then [`RoundOps::full_rounds`] by default; a
    /// field's own form is in its impl below.
    #[inline(always)]
    fn initial_full_rounds<const D: u64, const W: usize>(
        state: &mut [Self],
        constants: &[Self::Constant],
        m4: ExternalMatrix,
    ) where
        Self: LinearLayers<Self::Constant> + DiagonalOps<Self::Constant>,
    {
        Self::external_layer(state, m4);
        Self::full_rounds::<D, W>(state, constants, m4);
    }
}

/// The full rounds whose constants are `constants` (whole rounds of `state.len()`) as the
/// batch kernels run them: each round adds its constants and runs the S-boxes, one element per
/// loop step (a kernel's element already holds independent lanes, and groups of them: four
/// per step was no faster there and made the AVX-512 code 9% larger), then `M_E`.
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
pub(crate) fn full_rounds<A, const D: u64>(
    state: &mut [A],
    constants: &[A::Constant],
    m4: ExternalMatrix,
) where
    A: RoundOps + LinearLayers<A::Constant> + DiagonalOps<A::Constant>,
{
    for round in constants.chunks_exact(state.len()) {
        for (x, &c) in state.iter_mut().zip(round) {
            *x = x.add_sbox::<D>(c);
        }
        A::external_layer(state, m4);
    }
}

impl<F: Field + LinearLayers> RoundOps for F {
    type Constant = F;
    #[inline(always)]
    fn add_sbox<const D: u64>(self, c: F) -> F {
        Field::add_sbox::<D>(self, c)
    }

    /// The full rounds of a field: in each round the S-boxes run four elements per loop step
    /// (the widths are 2, 3 or multiples of 4; see [`four_per_step`]), and where the field's
    /// external layer can add the next round's constants inside its reductions
    /// ([`LinearLayers::external_layer_adding`]: Goldilocks, BabyBear, KoalaBear), it does, and
    /// that round runs its S-boxes alone. Same values as [`full_rounds`].
    ///
    /// Measured (docs/benchmarks.md, default build, bench-compare against Plonky3's scalar
    /// permutations, AMD Zen 4; least times of the alternated rounds): the constants in the
    /// layer made Goldilocks t = 8 0.77 -> 0.72 µs (1.05-1.09x Plonky3's time to 0.98x),
    /// t = 12 and 16 7%, KoalaBear t = 16 and 24 3% and 5%.
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn full_rounds<const D: u64, const W: usize>(
        state: &mut [F],
        constants: &[F],
        m4: ExternalMatrix,
    ) {
        field_full_rounds::<F, D>(state, constants, m4, false);
    }

    /// The initial layer as each round's: for a field whose
    /// [`LinearLayers::adds_in_initial_layer`] says so (Goldilocks), the first round's
    /// constants are added inside its reductions too
    /// ([`LinearLayers::external_layer_adding`]); then [`RoundOps::full_rounds`].
    ///
    /// Measured (docs/benchmarks.md, 2026-12-07, AMD Zen 4, default build): Goldilocks
    /// t = 8, 12, 16 1-3% faster; the 31-bit fields were 5-11% slower with it in native builds,
    /// and keep the layer and the constants apart.
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn initial_full_rounds<const D: u64, const W: usize>(
        state: &mut [F],
        constants: &[F],
        m4: ExternalMatrix,
    ) {
        let added = F::adds_in_initial_layer(Sealed(()))
            && match constants.get(..state.len()) {
                Some(first) => F::external_layer_adding(state, m4, first, Sealed(())),
                None => false,
            };
        if !added {
            F::external_layer(state, m4);
        }
        field_full_rounds::<F, D>(state, constants, m4, added);
    }
}

/// [`RoundOps::full_rounds`] of a field, with `added`: whether the first round's constants
/// are already in `state` (added by the layer before it).
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
fn field_full_rounds<F: Field + LinearLayers, const D: u64>(
    state: &mut [F],
    constants: &[F],
    m4: ExternalMatrix,
    mut added: bool,
) {
    let t = state.len();
    for (i, round) in constants.chunks_exact(t).enumerate() {
        if added {
            four_per_step(state, round, |x, _| {
                x.sbox_in_full_round::<D>(None, Sealed(()))
            });
        } else {
            four_per_step(state, round, |x, c| {
                x.sbox_in_full_round::<D>(Some(c), Sealed(()))
            });
        }
        added = match constants.get((i + 1) * t..(i + 2) * t) {
            Some(next) => F::external_layer_adding(state, m4, next, Sealed(())),
            None => false,
        };
        if !added {
            F::external_layer(state, m4);
        }
    }
}

/// Borrowed view of one instance's constants, in the layout both permutation types store.
#[derive(Clone, Copy)]
pub(crate) struct RoundConstants<'a, F> {
    /// `R_F · t` external-round constants: the first `R_F / 2` rounds, then the last `R_F / 2`,
    /// each round's `t` constants in state order.
    pub external: &'a [F],
    /// `R_P` internal-round constants, one per partial round, added to `x_0`.
    pub internal: &'a [F],
    /// `mu_i - 1` for the internal matrix, `t` entries.
    pub diag_m1: &'a [F],
    /// The external matrix's block `M4`.
    pub external_matrix: ExternalMatrix,
    /// The internal sum scale `c` of `M_I = c·J + diag(diag_m1)`, `None` for `c = 1`
    /// ([`crate::Poseidon2Params::with_internal_sum_scale`]).
    pub internal_sum_scale: Option<&'a F>,
}

/// `step(x, c)` on each element of `state` with its constant, four elements per loop step: the
/// four independent S-box chains are interleaved in one step's code. On the 31-bit fields,
/// whose S-box chains are short, this made the scalar permutations 10-14% faster (KoalaBear
/// t = 16, 24) than one element per step, where the loop's stores and loads of the state sat
/// between the chains; written out for the whole width it compiled far slower for no more
/// speed.
#[inline(always)]
fn four_per_step<A: Copy, C: Copy>(state: &mut [A], constants: &[C], step: impl Fn(A, C) -> A) {
    let mut quads = state.chunks_exact_mut(4);
    let mut quad_constants = constants.chunks_exact(4);
    for (x, c) in (&mut quads).zip(&mut quad_constants) {
        x[0] = step(x[0], c[0]);
        x[1] = step(x[1], c[1]);
        x[2] = step(x[2], c[2]);
        x[3] = step(x[3], c[3]);
    }
    for (x, &c) in quads
        .into_remainder()
        .iter_mut()
        .zip(quad_constants.remainder())
    {
        *x = step(*x, c);
    }
}

/// Permutes `state` in place. `state.len()` is the width `t`; the caller guarantees that the
/// constant slices have the matching lengths (checked when the instance was built).
///
/// `W` is the width when the caller fixed it when compiling (`state.len() == W`), `0` when it
/// is read at run time. The representation's hooks take it ([`RoundOps::full_rounds`],
/// [`LinearLayers::compiled_partial_rounds`]), so that a copy of the driver compiled for one
/// width does not compile the code of the others (the registered diagonals of other widths).
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
pub(crate) fn permute<A, const D: u64, const W: usize>(
    state: &mut [A],
    rc: RoundConstants<'_, A::Constant>,
) where
    A: RoundOps + LinearLayers<A::Constant> + DiagonalOps<A::Constant>,
{
    let (first, last) = rc.external.split_at(rc.external.len() / 2);
    let m4 = rc.external_matrix;
    A::initial_full_rounds::<D, W>(state, first, m4);
    // A representation with diagonals compiled into the code runs the partial rounds with one
    // of them when `diag_m1` and the sum scale are that diagonal's; otherwise they run here,
    // with the table. Both go through `partial_rounds`.
    let compiled = A::compiled_partial_rounds::<D, W>(
        state,
        rc.internal,
        rc.diag_m1,
        rc.internal_sum_scale,
        Sealed(()),
    );
    if !compiled {
        let layer = TableDiagonal {
            diag_m1: rc.diag_m1,
            scale: rc.internal_sum_scale,
        };
        partial_rounds::<A, _, D>(state, rc.internal, &layer);
    }
    A::full_rounds::<D, W>(state, last, m4);
}

/// The internal layer as [`partial_rounds`] applies it: the instance's diagonal table read at
/// run time ([`TableDiagonal`]), or a diagonal compiled into the code ([`CompiledDiagonal`]).
trait InternalLayer<A: RoundOps> {
    /// The least S-box degree from which [`Self::apply_then_round`] is faster than
    /// [`Self::apply`] followed by the next round's step, so that [`partial_rounds`] calls it
    /// (`u64::MAX`, never, by default; a constant, so that the branch not taken is not
    /// compiled).
    const FUSES_ROUND_FROM: u64 = u64::MAX;

    /// Applies `M_I` to `state` in place (`D`, the S-box degree, is the permutation's).
    fn apply<const D: u64>(&self, state: &mut [A]);

    /// Applies `M_I`, then the next partial round's step on `x_0` (constant `c`, S-box). The
    /// default does one after the other.
    #[inline(always)]
    fn apply_then_round<const D: u64>(&self, state: &mut [A], c: A::Constant) {
        self.apply::<D>(state);
        state[0] = state[0].add_sbox::<D>(c);
    }
}

/// The internal layer with the diagonal table and sum scale of the instance's constants,
/// through the representation's [`LinearLayers`] (its overrides apply).
struct TableDiagonal<'a, C> {
    diag_m1: &'a [C],
    scale: Option<&'a C>,
}

impl<A: RoundOps + LinearLayers<C> + DiagonalOps<C>, C> InternalLayer<A> for TableDiagonal<'_, C> {
    #[inline(always)]
    fn apply<const D: u64>(&self, state: &mut [A]) {
        match self.scale {
            None => A::internal_layer(state, self.diag_m1),
            Some(scale) => A::internal_layer_scaled(state, self.diag_m1, scale),
        }
    }
}

/// A diagonal compiled into the code: entries of type `E` (constants of the code, which carry
/// how to multiply by them) and the sum scale, run by the generic internal layer with its loop
/// written out ([`compiled_internal_layer`]).
#[cfg_attr(
    not(any(feature = "babybear", feature = "koalabear", feature = "goldilocks")),
    allow(dead_code) // run by the registries of `crate::instances` only
)]
struct CompiledDiagonal<'a, E> {
    entries: &'a [E],
    scale: Option<&'a E>,
}

impl<A: CompiledLayer<E>, E> InternalLayer<A> for CompiledDiagonal<'_, E> {
    const FUSES_ROUND_FROM: u64 = A::FUSES_ROUND_FROM;

    #[inline(always)]
    fn apply<const D: u64>(&self, state: &mut [A]) {
        compiled_internal_layer::<A, E, D>(state, self.entries, self.scale, None);
    }

    #[inline(always)]
    fn apply_then_round<const D: u64>(&self, state: &mut [A], c: A::Constant) {
        compiled_internal_layer::<A, E, D>(state, self.entries, self.scale, Some(c));
    }
}

/// The `R_P` partial rounds: add one constant to `x_0`, S-box on `x_0`, the internal layer.
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
fn partial_rounds<A: RoundOps, L: InternalLayer<A>, const D: u64>(
    state: &mut [A],
    internal: &[A::Constant],
    layer: &L,
) {
    if const { L::FUSES_ROUND_FROM <= D } {
        // Each layer with the next round's step: `x_0`'s output takes the next constant
        // before its S-box (same rounds, grouped differently).
        let Some((&first, rest)) = internal.split_first() else {
            return;
        };
        state[0] = state[0].add_sbox::<D>(first);
        for &c in rest {
            layer.apply_then_round::<D>(state, c);
        }
        layer.apply::<D>(state);
    } else {
        for &c in internal {
            state[0] = state[0].add_sbox::<D>(c);
            layer.apply::<D>(state);
        }
    }
}

/// The internal diagonals compiled into the code for a representation, behind
/// [`LinearLayers::compiled_partial_rounds`]. The instances that use them register them
/// (`crate::instances`, for the 31-bit Montgomery fields: Plonky3's and SP1's diagonals); this
/// layer only runs them ([`run_compiled`]).
pub(crate) trait CompiledDiagonals: RoundOps + Sized {
    /// If `diag_m1` and `scale` are a registered diagonal's table and sum scale, runs the
    /// partial rounds with it ([`run_compiled`]) and returns `true`; else `false`, `state`
    /// untouched. The comparison reads public constants only. `W`: the width fixed when
    /// compiling (only the diagonals of that width are compiled in), `0` for any width.
    fn partial_rounds<const D: u64, const W: usize>(
        state: &mut [Self],
        internal: &[Self::Constant],
        diag_m1: &[Self::Constant],
        scale: Option<&Self::Constant>,
    ) -> bool;
}

/// The `R_P` partial rounds (round constants `internal`) with a diagonal compiled into the
/// code: `entries` and `scale` are constants (e.g. `&const { .. }`), which the unrolled layer
/// folds into each entry's code. Same outputs as the rounds with the table whose entries they
/// are ([`CompiledLayer`] of `E`).
#[cfg_attr(
    not(any(feature = "babybear", feature = "koalabear", feature = "goldilocks")),
    allow(dead_code) // run by the registries of `crate::instances` only
)]
#[inline(always)]
pub(crate) fn run_compiled<A: RoundOps + CompiledLayer<E>, E, const D: u64>(
    state: &mut [A],
    internal: &[A::Constant],
    entries: &[E],
    scale: Option<&E>,
) {
    partial_rounds::<A, _, D>(state, internal, &CompiledDiagonal { entries, scale });
}
