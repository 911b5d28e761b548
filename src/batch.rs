//! Batch APIs: many independent states at once, on the fastest backend this CPU has
//! ([`crate::batch_backend`]), split across threads with the `parallel` feature.
//!
//! - `permute_batch`: every state permuted in place, each exactly as the single-state
//!   permutation would.
//! - `compress_batch`: the reference's Merkle compression `perm(inputs ‖ 0)[0]`
//!   (`t - 1` inputs per digest; for t = 3 `perm([left, right, 0])[0]`) over many input groups.
//! - `merkle_root`: a Merkle tree of arity `t - 1` built level by level with `compress_batch`.
//!   An incomplete last group of a level is padded with zeros (for t = 3: an odd last node is
//!   paired with `0`); the tree stops when one node remains, so a single leaf is its own root.

use crate::backend::{self, BatchBackend, batch_backend};
use crate::ct::Poseidon2Ct;
use crate::field::Field;
use crate::permutation::RoundConstants;
#[cfg(feature = "alloc")]
use crate::{Error, Poseidon2};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// Batches smaller than this many states are not split across threads.
#[cfg(feature = "parallel")]
const PARALLEL_MIN_STATES: usize = 64;

/// Permutes the flat buffer `states` (a whole number of width-`t` states) on `backend`, in
/// chunks across rayon's threads with the `parallel` feature.
fn run_batch<F: Field, const D: u64>(
    states: &mut [F],
    t: usize,
    rc: RoundConstants<'_, F>,
    backend: BatchBackend,
) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        let n = states.len() / t;
        let threads = rayon::current_num_threads();
        if threads > 1 && n >= PARALLEL_MIN_STATES {
            // About four chunks per thread, each a whole number of 32 states: of the backends'
            // interleaved vector groups (16 states for AVX-512 IFMA, 32 for Goldilocks AVX-512F).
            let per_chunk = n.div_ceil(4 * threads).next_multiple_of(32) * t;
            states
                .par_chunks_mut(per_chunk)
                .for_each(|chunk| backend::permute_batch::<F, D>(chunk, t, rc, backend));
            return;
        }
    }
    backend::permute_batch::<F, D>(states, t, rc, backend);
}

/// `perm(group ‖ 0)[0]` for each group of `arity = t - 1` elements of `inputs` (whose length is
/// a multiple of `arity`), with `permute` running the batch.
#[cfg(feature = "alloc")]
fn compress_groups<F: Field>(inputs: &[F], t: usize, permute: impl FnOnce(&mut [F])) -> Vec<F> {
    let mut states = Vec::with_capacity(inputs.len() / (t - 1) * t);
    for group in inputs.chunks_exact(t - 1) {
        states.extend_from_slice(group);
        states.push(F::ZERO);
    }
    permute(&mut states);
    states.iter().step_by(t).copied().collect()
}

/// The Merkle root of `leaves` with arity `t - 1` (padding and stopping rules in the module docs).
#[cfg(feature = "alloc")]
fn merkle_root<F: Field>(
    leaves: &[F],
    t: usize,
    compress: impl Fn(&[F]) -> Vec<F>,
) -> Result<F, Error> {
    let arity = t - 1;
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level.resize(level.len().next_multiple_of(arity), F::ZERO);
        level = compress(&level);
    }
    level.first().copied().ok_or(Error::EmptyInput)
}

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon2Ct<F, T, RF, RP, D>
{
    /// Permutes every state of `states` in place; `states[i]` ends as
    /// `self.permutation(&states[i])`. Any length works (0 included): whole groups of 8 states
    /// run on the SIMD backend when there is one, the rest on the scalar path.
    pub fn permute_batch(&self, states: &mut [[F; T]]) {
        run_batch::<F, D>(
            states.as_flattened_mut(),
            T,
            self.constants(),
            batch_backend::<F>(),
        );
    }

    /// Testing hook: [`Self::permute_batch`] on `backend` instead of the best one, so every
    /// backend the CPU has can be checked (e.g. AVX2 on an AVX-512 CPU). Returns `false`, and
    /// permutes nothing, if `backend` does not run `F` on this CPU and build.
    #[doc(hidden)]
    pub fn permute_batch_on(&self, backend: BatchBackend, states: &mut [[F; T]]) -> bool {
        let runs = backend::runs::<F>(backend);
        if runs {
            run_batch::<F, D>(states.as_flattened_mut(), T, self.constants(), backend);
        }
        runs
    }

    /// The Merkle compression `perm(input ‖ 0)[0]` of every input group: `N = T - 1` elements
    /// in, one digest out per group, in order.
    ///
    /// `N != T - 1` is a compile-time error.
    #[cfg(feature = "alloc")]
    pub fn compress_batch<const N: usize>(&self, inputs: &[[F; N]]) -> Vec<F> {
        const { assert!(N + 1 == T, "compress_batch takes T - 1 elements per input") };
        compress_groups(inputs.as_flattened(), T, |states| {
            run_batch::<F, D>(states, T, self.constants(), batch_backend::<F>())
        })
    }

    /// The root of the Merkle tree of arity `T - 1` over `leaves`, built level by level with
    /// [`Self::compress_batch`]. An incomplete last group of a level is padded with zeros (for
    /// T = 3: an odd last node is paired with 0); one leaf is its own root.
    ///
    /// `T = 2` (arity 1, a tree that never narrows) is a compile-time error.
    ///
    /// # Errors
    /// [`Error::EmptyInput`] if `leaves` is empty.
    #[cfg(feature = "alloc")]
    pub fn merkle_root(&self, leaves: &[F]) -> Result<F, Error> {
        const { assert!(T >= 3, "merkle_root needs T >= 3 (arity T - 1 >= 2)") };
        merkle_root(leaves, T, |level| {
            compress_groups(level, T, |states| {
                run_batch::<F, D>(states, T, self.constants(), batch_backend::<F>())
            })
        })
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> Poseidon2<F> {
    /// Permutes, in place, every width-`t` state of the flat buffer `states` (state `i` is
    /// `states[i * t..(i + 1) * t]`). Any number of states works (0 included): whole groups of
    /// 8 run on the SIMD backend when there is one, the rest on the scalar path.
    ///
    /// # Errors
    /// [`Error::InvalidBatchLength`] if `states.len()` is not a multiple of `t`; nothing is
    /// permuted then.
    pub fn permute_batch(&self, states: &mut [F]) -> Result<(), Error> {
        let t = self.width();
        if !states.len().is_multiple_of(t) {
            return Err(Error::InvalidBatchLength {
                len: states.len(),
                width: t,
            });
        }
        self.run_batch(states);
        Ok(())
    }

    /// Runs a checked flat batch with the instance's S-box degree.
    fn run_batch(&self, states: &mut [F]) {
        let (t, rc, backend) = (self.width(), self.constants(), batch_backend::<F>());
        // The degree was validated to be 3, 5, 7 or 11 when the parameters were built.
        match self.params().sbox_degree() {
            3 => run_batch::<F, 3>(states, t, rc, backend),
            5 => run_batch::<F, 5>(states, t, rc, backend),
            7 => run_batch::<F, 7>(states, t, rc, backend),
            _ => run_batch::<F, 11>(states, t, rc, backend),
        }
    }

    /// The Merkle compression `perm(group ‖ 0)[0]` of every group of `t - 1` consecutive
    /// elements of `inputs`: one digest per group, in order.
    ///
    /// # Errors
    /// [`Error::InvalidBatchLength`] (with `width` = `t - 1`) if `inputs.len()` is not a
    /// multiple of `t - 1`.
    pub fn compress_batch(&self, inputs: &[F]) -> Result<Vec<F>, Error> {
        let arity = self.width() - 1;
        if !inputs.len().is_multiple_of(arity) {
            return Err(Error::InvalidBatchLength {
                len: inputs.len(),
                width: arity,
            });
        }
        Ok(compress_groups(inputs, self.width(), |states| {
            self.run_batch(states)
        }))
    }

    /// The root of the Merkle tree of arity `t - 1` over `leaves`, built level by level with
    /// [`Self::compress_batch`]. An incomplete last group of a level is padded with zeros (for
    /// t = 3: an odd last node is paired with 0); one leaf is its own root.
    ///
    /// # Errors
    /// [`Error::EmptyInput`] if `leaves` is empty; [`Error::UnsupportedWidth`] for t = 2
    /// (arity 1: the tree would never narrow).
    pub fn merkle_root(&self, leaves: &[F]) -> Result<F, Error> {
        let t = self.width();
        if t < 3 {
            return Err(Error::UnsupportedWidth { t });
        }
        merkle_root(leaves, t, |level| {
            compress_groups(level, t, |states| self.run_batch(states))
        })
    }
}
