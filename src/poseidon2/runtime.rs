//! The runtime-width permutation.

use crate::field::Field;
use crate::poseidon2::batch_cache::{BatchCache, VecTables};
use crate::poseidon2::ct::{Poseidon2Ct, permute_fixed};
use crate::poseidon2::linear::LinearLayers;
use crate::poseidon2::permutation::{RoundConstants, permute};
use crate::{Error, Poseidon2Params};
use alloc::vec::Vec;

/// A Poseidon2 permutation whose width `t` is known at run time, built once from
/// [`Poseidon2Params`] and reused. It gives exactly the output of the const-generic
/// [`crate::poseidon2::ct::Poseidon2Ct`] with the same parameters: both run one shared round driver.
///
/// ```
/// # #[cfg(feature = "bn254")] {
/// use fast_poseidon2::instances::bn254;
/// let perm = bn254::poseidon2_t3();
/// let mut state = [0u64.into(), 1u64.into(), 2u64.into()];
/// perm.permute_mut(&mut state).unwrap();
/// assert!(perm.permute_mut(&mut state[..2]).is_err()); // wrong length: Err, never a panic
/// # }
/// ```
///
/// Batches keep the backend chosen for `F` and the round constants in its kernel's form in a
/// cache inside the value, built (and allocated, once) on the first batch call. `==` and
/// `Debug` ignore the cache.
#[derive(Clone)]
pub struct Poseidon2<F> {
    params: Poseidon2Params<F>,
    /// The round driver compiled for this width and degree, when the value was built from a
    /// const-generic permutation (`From<&Poseidon2Ct>`, as the shipped getters are): its loops
    /// over the state then have constant bounds, as on the const-generic path. `None`: the
    /// width-generic driver for the degree.
    width_specific: Option<PermuteFn<F>>,
    /// The batch backend and kernel-form constants, built on the first batch call.
    batch: BatchCache<VecTables>,
}

/// A round driver for one state of the permutation's width.
type PermuteFn<F> = fn(&mut [F], RoundConstants<'_, F>);

/// The round driver with the width `T`, the round numbers `RF`, `RP` and the degree `D` fixed at
/// compile time; `state` has `T` elements and `rc` the constants of those rounds (other
/// lengths, which callers never pass, run the width-generic driver): the const-generic path's
/// own out-of-line driver (`permute_fixed`), so both run the same machine code. (A copy of
/// its own, even with the constants' lengths fixed, compiled differently: in a
/// `-C target-cpu=native` build up to 25% slower, BabyBear t = 16 and 24.)
fn permute_width<F, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    state: &mut [F],
    rc: RoundConstants<'_, F>,
) where
    F: Field + LinearLayers,
{
    let (external, _) = rc.external.as_chunks::<T>();
    match (
        <&mut [F; T]>::try_from(&mut *state),
        <&[[F; T]; RF]>::try_from(external),
        <&[F; RP]>::try_from(rc.internal),
        <&[F; T]>::try_from(rc.diag_m1),
    ) {
        (Ok(state), Ok(external), Ok(internal), Ok(diag_m1)) if rc.external.len() == RF * T => {
            permute_fixed::<F, T, RF, RP, D>(
                state,
                external,
                internal,
                diag_m1,
                rc.external_matrix,
                rc.internal_sum_scale,
            )
        }
        _ => permute::<F, D, 0>(state, rc),
    }
}

impl<F: Field + LinearLayers, const T: usize, const RF: usize, const RP: usize, const D: u64>
    From<&Poseidon2Ct<F, T, RF, RP, D>> for Poseidon2<F>
{
    /// The runtime-width permutation with the same parameters and outputs, running the round
    /// driver compiled for `T` and `D` (as fast as the const-generic path; the shipped getters
    /// `poseidon2_tN()` are built this way).
    fn from(perm: &Poseidon2Ct<F, T, RF, RP, D>) -> Self {
        Poseidon2 {
            width_specific: Some(permute_width::<F, T, RF, RP, D>),
            ..Poseidon2::new(perm.to_params())
        }
    }
}

impl<F: PartialEq> PartialEq for Poseidon2<F> {
    /// Equal parameters (the batch cache is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.params == other.params
    }
}

impl<F: Eq> Eq for Poseidon2<F> {}

impl<F: core::fmt::Debug> core::fmt::Debug for Poseidon2<F> {
    /// The parameters, as the derived `Debug` would print them (the batch cache is left out).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Poseidon2")
            .field("params", &self.params)
            .finish()
    }
}

impl<F: Field> Poseidon2<F> {
    /// Builds the permutation. `params` was validated when it was made, so this cannot fail.
    pub fn new(params: Poseidon2Params<F>) -> Self {
        Poseidon2 {
            params,
            width_specific: None,
            batch: BatchCache::new(),
        }
    }

    /// The parameters this permutation runs.
    pub fn params(&self) -> &Poseidon2Params<F> {
        &self.params
    }

    /// The width `t`.
    pub fn width(&self) -> usize {
        self.params.width
    }

    /// The value's batch cache (filled and read by `crate::simd`).
    #[inline]
    pub(crate) fn batch_cache(&self) -> &BatchCache<VecTables> {
        &self.batch
    }

    pub(crate) fn constants(&self) -> RoundConstants<'_, F> {
        RoundConstants {
            external: &self.params.external_round_constants,
            internal: &self.params.internal_round_constants,
            diag_m1: &self.params.internal_diagonal_minus_one,
            external_matrix: self.params.external_matrix,
            internal_sum_scale: self.params.internal_sum_scale.as_ref(),
        }
    }
}

impl<F: Field + LinearLayers> Poseidon2<F> {
    /// Permutes `state` (exactly `t` elements) in place.
    ///
    /// # Errors
    /// [`Error::InvalidStateLength`] if `state.len() != t`; the state is then left untouched.
    pub fn permute_mut(&self, state: &mut [F]) -> Result<(), Error> {
        if state.len() != self.width() {
            return Err(Error::InvalidStateLength {
                got: state.len(),
                expected: self.width(),
            });
        }
        self.permute_exact(state);
        Ok(())
    }

    /// Permutes `state`, whose length the caller guarantees to be `t`. Not inlined, as the
    /// const-generic `permute_mut`: one copy of the drivers per field, called by every mode.
    #[inline(never)]
    pub(crate) fn permute_exact(&self, state: &mut [F]) {
        debug_assert_eq!(state.len(), self.width());
        let rc = self.constants();
        if let Some(permute_width) = self.width_specific {
            return permute_width(state, rc);
        }
        // The degree was validated to be 3, 5, 7 or 11 when the parameters were built.
        match self.params.sbox_degree {
            3 => permute::<F, 3, 0>(state, rc),
            5 => permute::<F, 5, 0>(state, rc),
            7 => permute::<F, 7, 0>(state, rc),
            _ => permute::<F, 11, 0>(state, rc),
        }
    }

    /// Returns the permutation of `input` (exactly `t` elements) as a new vector.
    ///
    /// # Errors
    /// [`Error::InvalidStateLength`] if `input.len() != t`.
    pub fn permutation(&self, input: &[F]) -> Result<Vec<F>, Error> {
        let mut state = input.to_vec();
        self.permute_mut(&mut state)?;
        Ok(state)
    }
}
