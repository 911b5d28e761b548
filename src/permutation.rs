//! The one Poseidon2 round driver (paper section 5, Figure 1; reference
//! `plain_implementations/src/poseidon2/poseidon2.rs`), shared by [`crate::ct::Poseidon2Ct`] and
//! [`crate::Poseidon2`].
//!
//! Structure: `x <- M_E x`; `R_F / 2` full rounds (add `t` constants, S-box on every element,
//! `M_E`); `R_P` partial rounds (add one constant to `x_0`, S-box on `x_0`, `M_I`); `R_F / 2`
//! full rounds.

use crate::field::Field;

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
}

/// One full (external) round: add constants, S-box on every element, `M_E`.
#[inline(always)]
fn full_round<F: Field, const D: u64>(state: &mut [F], constants: &[F]) {
    for (x, &c) in state.iter_mut().zip(constants) {
        *x = x.add_sbox::<D>(c);
    }
    F::external_layer(state);
}

/// Permutes `state` in place. `state.len()` is the width `t`; the caller guarantees that the
/// constant slices have the matching lengths (checked when the instance was built).
#[inline(always)]
pub(crate) fn permute<F: Field, const D: u64>(state: &mut [F], rc: RoundConstants<'_, F>) {
    let t = state.len();
    let (first, last) = rc.external.split_at(rc.external.len() / 2);
    F::external_layer(state);
    for constants in first.chunks_exact(t) {
        full_round::<F, D>(state, constants);
    }
    for &c in rc.internal {
        state[0] = state[0].add_sbox::<D>(c);
        F::internal_layer(state, rc.diag_m1);
    }
    for constants in last.chunks_exact(t) {
        full_round::<F, D>(state, constants);
    }
}
