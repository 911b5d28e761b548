//! Hashing modes built on the permutation: `(t-1)`-to-1 compression (`compress`) and the
//! length-declared sponge ([`Sponge`], `hash`, `hash_into`).
//!
//! Both permutation types run every mode through the small [`Permutation`] trait, so each mode is
//! written once: [`crate::ct::Poseidon2Ct`] keeps its state in `[F; T]`, [`crate::Poseidon2`] in
//! a `[F; MAX_WIDTH]` stack buffer of which the first `t` elements are used. Neither allocates.

mod compress;
mod sponge;

pub use sponge::Sponge;

use crate::ct::Poseidon2Ct;
use crate::field::Field;

mod sealed {
    /// Keeps [`super::Permutation`] implemented by this crate's permutation types only.
    pub trait Sealed {}
}

/// A Poseidon2 permutation as the modes see it: a width `t` and an in-place permutation of a
/// stack-held state. Implemented by [`Poseidon2Ct`] and [`crate::Poseidon2`]; sealed.
pub trait Permutation: sealed::Sealed {
    /// The field the permutation runs over.
    type Field: Field;
    /// The state buffer: `[F; T]` for [`Poseidon2Ct`], `[F; MAX_WIDTH]` for
    /// [`crate::Poseidon2`]. Only the first [`Permutation::width`] elements are the state.
    type State: Copy + core::fmt::Debug + AsRef<[Self::Field]> + AsMut<[Self::Field]>;

    /// The width `t`, at most the state buffer's length.
    fn width(&self) -> usize;

    /// An all-zero state buffer.
    fn zero_state(&self) -> Self::State;

    /// Permutes the first `t` elements of `state` in place.
    fn permute_state(&self, state: &mut Self::State);
}

impl<F, const T: usize, const RF: usize, const RP: usize, const D: u64> sealed::Sealed
    for Poseidon2Ct<F, T, RF, RP, D>
{
}

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64> Permutation
    for Poseidon2Ct<F, T, RF, RP, D>
{
    type Field = F;
    type State = [F; T];

    #[inline]
    fn width(&self) -> usize {
        T
    }

    #[inline]
    fn zero_state(&self) -> [F; T] {
        [F::ZERO; T]
    }

    #[inline]
    fn permute_state(&self, state: &mut [F; T]) {
        self.permute_mut(state);
    }
}

#[cfg(feature = "alloc")]
impl<F> sealed::Sealed for crate::Poseidon2<F> {}

#[cfg(feature = "alloc")]
impl<F: Field> Permutation for crate::Poseidon2<F> {
    type Field = F;
    type State = [F; crate::MAX_WIDTH];

    #[inline]
    fn width(&self) -> usize {
        crate::Poseidon2::width(self)
    }

    #[inline]
    fn zero_state(&self) -> [F; crate::MAX_WIDTH] {
        [F::ZERO; crate::MAX_WIDTH]
    }

    #[inline]
    fn permute_state(&self, state: &mut [F; crate::MAX_WIDTH]) {
        // Parameters are validated on construction: 2 <= t <= MAX_WIDTH.
        self.permute_exact(&mut state[..self.width()]);
    }
}
