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
//! - **AVX-512F / AVX2** ([`goldilocks`], x86_64 with `std`): 8 / 4 states per vector group,
//!   one `u64` lane per element with the special-form reduction. Taken for the Goldilocks field
//!   (`GoldilocksFast` and ark's `Goldilocks`): AVX-512F when the CPU has it, else AVX2.
//!
//! The scalar MULX/ADX Montgomery product and the assembly addition of BN254 and BLS12-381
//! (one state at a time) are not batch backends: they live in the field layer
//! (`field::mulx_adx`, its own fenced `unsafe` module).
//!
//! The choice is made at run time, without build flags: `std::is_x86_feature_detected!` probes
//! the CPU once and caches the answer, so each batch call costs one cached lookup.
//!
//! This module and its children, and `field::mulx_adx`, are the only code of the crate allowed
//! to use `unsafe`: here the call into a `#[target_feature]` kernel after detection and the
//! vector instructions, there the MULX/ADX inline assembly, each with a `// SAFETY:` comment.

use crate::field::Field;
use crate::permutation::{RoundConstants, permute};

/// Items or statements that exist only where a SIMD backend can run: x86_64 with `std`
/// (run-time detection), not under Miri, and not forced portable.
macro_rules! simd_only {
    (items: $($item:item)*) => {$(
        #[cfg(all(
            target_arch = "x86_64",
            feature = "std",
            not(miri),
            not(fast_poseidon2_force_portable)
        ))]
        $item
    )*};
    (statements: $($statement:stmt;)*) => {$(
        #[cfg(all(
            target_arch = "x86_64",
            feature = "std",
            not(miri),
            not(fast_poseidon2_force_portable)
        ))]
        $statement;
    )*};
}

simd_only! { items:
    mod avx512_ifma;
    mod goldilocks;
}

/// The code path that runs a batch permutation (see [`batch_backend`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BatchBackend {
    /// The scalar permutation, one state at a time.
    Portable,
    /// AVX-512 IFMA, 8 states per vector group (BN254, BLS12-381 and other 4-limb Montgomery
    /// fields with `2^250 <= p < 2^255`).
    Avx512Ifma,
    /// AVX-512F, 8 states per vector group (Goldilocks: `GoldilocksFast` and ark's
    /// `Goldilocks`).
    Avx512,
    /// AVX2, 4 states per vector group (Goldilocks, on CPUs without AVX-512F).
    Avx2,
}

/// The backend `permute_batch` uses for the field `F` on this CPU and build.
///
/// Batches smaller than one vector group (8 states; 4 on [`BatchBackend::Avx2`]), and the last
/// states of any batch that do not fill a group, always run on the portable path.
pub fn batch_backend<F: Field>() -> BatchBackend {
    simd_only! { statements:
        if avx512_ifma::supports::<F>() {
            return BatchBackend::Avx512Ifma;
        };
        if let Some(backend) = goldilocks::best::<F>() {
            return backend;
        };
    }
    BatchBackend::Portable
}

/// Whether `backend` runs batches of `F` on this CPU and build (the portable path always does).
pub(crate) fn runs<F: Field>(backend: BatchBackend) -> bool {
    simd_only! { statements:
        match backend {
            BatchBackend::Portable => {}
            BatchBackend::Avx512Ifma => return avx512_ifma::supports::<F>(),
            _ => return goldilocks::runs::<F>(backend),
        };
    }
    backend == BatchBackend::Portable
}

/// Permutes every state of `states` in place on `backend` (whole vector groups when it
/// [`runs`] `F`; everything else on the portable path): `states` is a flat buffer of
/// `states.len() / t` states of width `t`; the caller guarantees `states.len() % t == 0` and
/// that `rc` matches `t`.
pub(crate) fn permute_batch<F: Field, const D: u64>(
    states: &mut [F],
    t: usize,
    rc: RoundConstants<'_, F>,
    backend: BatchBackend,
) {
    simd_only! { statements:
        let states = match backend {
            BatchBackend::Portable => states,
            BatchBackend::Avx512Ifma => avx512_ifma::permute_batch::<F, D>(states, t, rc),
            _ => goldilocks::permute_batch::<F, D>(states, t, rc, backend),
        };
    }
    let _ = backend;
    for state in states.chunks_exact_mut(t) {
        permute::<F, D>(state, rc);
    }
}
