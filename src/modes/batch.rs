//! Batch APIs: many independent states at once, on the fastest backend this CPU has
//! ([`crate::batch_backend`]), split across threads with the `parallel` feature.
//!
//! - `permute_batch`: every state permuted in place, each exactly as the single-state
//!   permutation would.
//! - `compress_batch`: the Merkle compression of [`crate::modes`] over many groups of children:
//!   each group is `merkle_arity · D` elements (the children's digests one after the other),
//!   each result the `D`-element digest (for BN254 t = 3: `perm([left, right, 0])[0]`).
//!
//! Merkle trees built on it are in [`crate::modes::merkle`].

use crate::modes::BatchPermutation;
use crate::poseidon2::batch_cache::BatchBackend;
#[cfg(feature = "alloc")]
use crate::{
    Error,
    field::{Field, PrimeField},
    modes::{Permutation, digest_len, merkle_arity},
};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The group size of `perm`'s Merkle compression, `merkle_arity · D` elements, or `None` if its
/// width has no compression for the field's digests.
#[cfg(feature = "alloc")]
pub(crate) fn compression_group<P: Permutation>(perm: &P) -> Option<usize>
where
    P::Field: PrimeField,
{
    let digest = digest_len::<P::Field>();
    merkle_arity(perm.width(), digest).map(|arity| arity * digest)
}

/// The `D`-element compression `perm(group ‖ 0 …)[..D]` of each `group`-element group of
/// `inputs` (a whole number of groups, `group <= t`), on the batch path; the digests are
/// concatenated.
#[cfg(feature = "alloc")]
pub(crate) fn compress_groups<P: Permutation>(
    perm: &P,
    inputs: &[P::Field],
    group: usize,
) -> Vec<P::Field>
where
    P::Field: PrimeField,
{
    let (t, digest) = (perm.width(), digest_len::<P::Field>());
    let groups = inputs.len() / group;
    let mut states = Vec::with_capacity(groups * t);
    for children in inputs.chunks_exact(group) {
        states.extend_from_slice(children);
        states.resize(states.len() + t - group, P::Field::ZERO_ELEMENT);
    }
    perm.permute_whole_states(&mut states);
    let mut digests = Vec::with_capacity(groups * digest);
    for state in states.chunks_exact(t) {
        digests.extend_from_slice(&state[..digest]);
    }
    digests
}

/// The batch methods `permute_batch` (and its testing hook) and `compress_batch` on a const-generic
/// permutation type (`$ct`, width `T`) and its runtime-width counterpart (`$runtime`), `F` bounded
/// by `$bound`.
macro_rules! impl_batch {
    ($ct:ty, $runtime:ty, [$($bound:tt)+]) => {
        impl<F: $($bound)+, const T: usize, const RF: usize, const RP: usize, const D: u64>
            $ct
        {
            /// Permutes every state of `states` in place; `states[i]` ends as
            /// `self.permutation(&states[i])`. Any length works (0 included): whole vector groups
            /// (4 to 16 states, by field and CPU) run on the SIMD backend when there is one
            /// (Poseidon1: the AVX-512 IFMA kernel only; see [`crate::batch_backend`]), the rest on
            /// the scalar path (`permute_mut`); across threads with the `parallel` feature. The
            /// tables are converted to the kernel's form on this call's stack (no heap), only when
            /// the batch reaches a kernel: for Poseidon1 about `40 · (RF·T + RP·(2T + 1) + 2T²)`
            /// bytes, 120 KiB for circom's t = 17. Plonky3's and SP1's permutations read tables
            /// built when compiling instead.
            pub fn permute_batch(&self, states: &mut [[F; T]]) {
                self.permute_whole_states(states.as_flattened_mut());
            }

            /// Testing hook: [`Self::permute_batch`] on `backend` instead of the best one, so every
            /// backend the CPU has can be checked (e.g. AVX2 on an AVX-512 CPU). Returns `false`,
            /// and permutes nothing, if `backend` does not run `F` on this CPU and build.
            #[doc(hidden)]
            pub fn permute_batch_on(&self, backend: BatchBackend, states: &mut [[F; T]]) -> bool {
                self.permute_states_on(backend, states.as_flattened_mut())
            }

            /// The Merkle compression of every group of `N` elements (the
            /// [`crate::modes::merkle_arity`] children's `D`-element digests one after the other):
            /// one `D`-element digest per group, concatenated in order. On BN254 and BLS12-381 `N =
            /// T - 1` and each digest is `perm(group ‖ 0)[0]`; on Goldilocks `N = 8` (two 4-element
            /// digests) and each digest is `perm(group ‖ 0 …)[..4]`; on BabyBear and KoalaBear
            /// `N = 16` (two 8-element digests) and each digest is `perm(group ‖ 0 …)[..8]`. Any
            /// other `N` is a compile-time error. An empty `inputs` gives an empty `Vec`.
            #[cfg(feature = "alloc")]
            pub fn compress_batch<const N: usize>(&self, inputs: &[[F; N]]) -> Vec<F>
            where
                F: PrimeField,
            {
                const {
                    let digest = digest_len::<F>();
                    assert!(
                        matches!(merkle_arity(T, digest), Some(arity) if arity * digest == N),
                        "compress_batch takes merkle_arity(T, D) * D elements per group"
                    )
                };
                compress_groups(self, inputs.as_flattened(), N)
            }
        }

        #[cfg(feature = "alloc")]
        impl<F: $($bound)+> $runtime {
            /// Permutes, in place, every width-`t` state of the flat buffer `states` (state `i` is
            /// `states[i * t..(i + 1) * t]`). Any number of states works (0 included): whole vector
            /// groups run on the SIMD backend when there is one (Poseidon1: the AVX-512 IFMA kernel
            /// only; see [`crate::batch_backend`]), the rest on the scalar path; across threads
            /// with the `parallel` feature.
            ///
            /// # Errors
            /// [`Error::InvalidBatchLength`] if `states.len()` is not a multiple of `t`; nothing is
            /// permuted then.
            pub fn permute_batch(&self, states: &mut [F]) -> Result<(), Error> {
                self.permute_states(states)
            }
        }

        #[cfg(feature = "alloc")]
        impl<F: PrimeField + $($bound)+> $runtime {
            /// The Merkle compression of every group of `merkle_arity · D` consecutive elements of
            /// `inputs` (the children's digests one after the other; `t - 1` elements on BN254 and
            /// BLS12-381, 8 on Goldilocks, 16 on BabyBear and KoalaBear): one `D`-element digest
            /// per group, concatenated in order (none for an empty `inputs`).
            ///
            /// # Errors
            /// [`Error::UnsupportedWidth`] if the width has no compression for the field's digests
            /// (`t < 2D`); [`Error::InvalidBatchLength`] (with `width` = the group size) if
            /// `inputs.len()` is not a multiple of the group size.
            pub fn compress_batch(&self, inputs: &[F]) -> Result<Vec<F>, Error> {
                let group = compression_group(self).ok_or(Error::UnsupportedWidth { t: self.width() })?;
                if !inputs.len().is_multiple_of(group) {
                    return Err(Error::InvalidBatchLength {
                        len: inputs.len(),
                        width: group,
                    });
                }
                Ok(compress_groups(self, inputs, group))
            }
        }
    };
}

super::for_each_family!(impl_batch);
