//! Batch permutation backends, and the one place that chooses between them.
//!
//! - **portable**: the scalar round driver ([`crate::permutation::permute`]) in a loop. Always
//!   compiled; the only path under `no_std`, Miri, on non-x86_64 targets and with
//!   `RUSTFLAGS="--cfg fast_poseidon2_force_portable"`; the oracle every other backend is tested
//!   against; and the path for the leftover states a vector backend does not take.
//! - **AVX-512 IFMA** ([`avx512_ifma`], x86_64 with `std`): 8 states per vector group, 52-bit
//!   limbs, Montgomery multiplication with `vpmadd52luq/huq`. Taken for any field whose elements
//!   are four 64-bit Montgomery limbs with `2^250 <= p < 2^255` (BN254, BLS12-381) when the CPU
//!   has `avx512f`, `avx512dq` and `avx512ifma`.
//!
//! The choice is made at run time, without build flags: `std::is_x86_feature_detected!` probes
//! the CPU once and caches the answer, so each batch call costs one cached lookup.
//!
//! This module and its children are the only code of the crate allowed to use `unsafe`: the call
//! into a `#[target_feature]` kernel after detection, and the vector loads/stores, each with a
//! `// SAFETY:` comment.

use crate::field::Field;
use crate::permutation::{RoundConstants, permute};

#[cfg(all(
    target_arch = "x86_64",
    feature = "std",
    not(miri),
    not(fast_poseidon2_force_portable)
))]
mod avx512_ifma;

/// The code path that runs a batch permutation (see [`batch_backend`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BatchBackend {
    /// The scalar permutation, one state at a time.
    Portable,
    /// AVX-512 IFMA, 8 states per vector group (BN254, BLS12-381 and other 4-limb Montgomery
    /// fields with `2^250 <= p < 2^255`).
    Avx512Ifma,
}

/// The backend `permute_batch` uses for the field `F` on this CPU and build.
///
/// Batches of fewer than 8 states, and the last `len % 8` states of any batch, always run on
/// the portable path.
pub fn batch_backend<F: Field>() -> BatchBackend {
    #[cfg(all(
        target_arch = "x86_64",
        feature = "std",
        not(miri),
        not(fast_poseidon2_force_portable)
    ))]
    if avx512_ifma::supports::<F>() {
        return BatchBackend::Avx512Ifma;
    }
    BatchBackend::Portable
}

/// Permutes every state of `states` in place: `states` is a flat buffer of `states.len() / t`
/// states of width `t`; the caller guarantees `states.len() % t == 0` and that `rc` matches `t`.
pub(crate) fn permute_batch<F: Field, const D: u64>(
    states: &mut [F],
    t: usize,
    rc: RoundConstants<'_, F>,
) {
    #[cfg(all(
        target_arch = "x86_64",
        feature = "std",
        not(miri),
        not(fast_poseidon2_force_portable)
    ))]
    let states = avx512_ifma::permute_batch::<F, D>(states, t, rc);
    for state in states.chunks_exact_mut(t) {
        permute::<F, D>(state, rc);
    }
}
