//! Batch permutation backends, and the one place that chooses between them.
//!
//! - **portable**: the scalar round driver ([`crate::poseidon2::permutation::permute`]) in a
//!   loop. Always compiled; the only path under `no_std`, Miri, on non-x86_64 targets and with
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
//! the CPU once and caches the answer. Each permutation value keeps what its batches need in a
//! [`BatchCache`], filled on its first batch call: the backend chosen for its field on this CPU,
//! the field's kernel data (e.g. the AVX-512 IFMA modulus constants) and its round constants in
//! the kernel's form, in fixed-size arrays for [`crate::poseidon2::ct::Poseidon2Ct`] (`CtTables`,
//! on the stack of each batch call, no heap) and in `Vec`s inside [`crate::Poseidon2`]
//! (`VecTables`, allocated once). Later batch calls redo no detection and no conversion, and
//! allocate nothing.
//!
//! This is the top layer (`field` -> `params` -> `poseidon2` -> `modes` -> `simd`): the data it
//! reads is defined below it, the cache types and [`BatchBackend`] in `poseidon2::batch_cache`
//! and each field's kernel data and constant conversions in `field::kernel_form`; what detects,
//! fills and runs lives here: [`batch_backend`], `runs`, filling and reading the cache
//! (`BatchCache::batch`, `batch_on`), the kernels, and in [`permutations`] the binding of both
//! permutation types to them (their `modes::BatchPermutation` impls and the rayon split).
//!
//! This module and its children, and `field::mulx_adx`, are the only code of the crate allowed
//! to use `unsafe`: here the call into a `#[target_feature]` kernel after detection and the
//! vector instructions, there the MULX/ADX inline assembly, each with a `// SAFETY:` comment.

use crate::field::Field;
use crate::poseidon2::batch_cache::{Batch, BatchBackend, BatchCache, Tables};
#[cfg(fast_poseidon2_simd)]
use crate::poseidon2::batch_cache::{Kernel, Prepared};
use crate::poseidon2::linear::LinearLayers;
use crate::poseidon2::permutation::{RoundConstants, permute};

/// Items or statements that exist only where a SIMD backend can run: x86_64 with `std`
/// (run-time detection), not under Miri, and not forced portable.
macro_rules! simd_only {
    (items: $($item:item)*) => {$(
        #[cfg(fast_poseidon2_simd)]
        $item
    )*};
    (statements: $($statement:stmt;)*) => {$(
        #[cfg(fast_poseidon2_simd)]
        $statement;
    )*};
}

simd_only! { items:
    mod avx512_ifma;
    mod goldilocks;
}
mod permutations;

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
#[cfg_attr(not(fast_poseidon2_simd), allow(clippy::extra_unused_type_parameters))]
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

/// Filling and reading the cache (the type, data only, is `poseidon2::batch_cache`'s).
impl<S: Tables> BatchCache<S> {
    /// The view of a batch of `states` states on [`batch_backend`]'s choice for `F`; `rc` are
    /// the permutation's constants (the same on every call: the cache is built from the first
    /// call's). The cache is filled by the first call whose batch fills one vector group of the
    /// backend: smaller batches run portable and convert nothing.
    #[inline]
    pub(crate) fn batch<'a, F: Field>(
        &'a self,
        rc: RoundConstants<'a, F>,
        states: usize,
    ) -> Batch<'a, F> {
        simd_only! { statements:
            let best = match self.cell.get() {
                Some(prepared) => prepared.best,
                None => batch_backend::<F>(),
            };
            return self.view(rc, best, states);
        }
        #[allow(unreachable_code)]
        self.view(rc, BatchBackend::Portable, states)
    }

    /// [`Self::batch`] on `backend` instead of the best one, or `None` if `backend` does not
    /// run `F` on this CPU and build (the testing hook `permute_batch_on`).
    pub(crate) fn batch_on<'a, F: Field>(
        &'a self,
        rc: RoundConstants<'a, F>,
        backend: BatchBackend,
        states: usize,
    ) -> Option<Batch<'a, F>> {
        runs::<F>(backend).then(|| self.view(rc, backend, states))
    }

    /// The view of `states` states on `backend`, which runs `F` here: with the kernel data and
    /// constants (filling the cache first) if the batch fills one of its vector groups.
    #[inline]
    fn view<'a, F: Field>(
        &'a self,
        rc: RoundConstants<'a, F>,
        backend: BatchBackend,
        states: usize,
    ) -> Batch<'a, F> {
        simd_only! { statements:
            if states >= backend.group_states() {
                let prepared = self.cell.get_or_init(|| {
                    let kernel = Kernel::of::<F>();
                    Prepared {
                        best: batch_backend::<F>(),
                        kernel: kernel.map(|k| (k, S::build(rc, |c| k.word(c)))),
                    }
                });
                return Batch {
                    rc,
                    backend,
                    kernel: prepared.kernel.as_ref().map(|(k, tables)| (k, tables.view())),
                };
            };
        }
        Batch {
            rc,
            backend,
            kernel: None,
        }
    }
}

/// Permutes every state of `states` in place on `batch`'s backend (whole vector groups when it
/// runs a kernel; everything else on the portable path): `states` is a flat buffer of
/// `states.len() / t` states of width `t`; the caller guarantees `states.len() % t == 0` and
/// that the constants match `t`.
pub(crate) fn permute_batch<F: Field + LinearLayers, const D: u64>(
    states: &mut [F],
    t: usize,
    batch: Batch<'_, F>,
) {
    simd_only! { statements:
        let states = match (batch.backend, batch.kernel) {
            (BatchBackend::Portable, _) | (_, None) => states,
            // Each kernel is entered under an inline `const` test of the field's
            // representation: evaluated when `F` is known, so a kernel is compiled only for
            // the fields that can take it (every other field would carry a copy that never
            // runs, in every crate that batches it).
            (BatchBackend::Avx512Ifma, Some((Kernel::Ifma(modulus), rc))) => {
                if const { F::MONTGOMERY_256_MODULUS.is_some() } {
                    avx512_ifma::permute_batch::<F, D>(states, t, modulus, rc)
                } else {
                    states
                }
            }
            (backend, Some((Kernel::Goldilocks(form), rc))) => {
                if const { F::GOLDILOCKS_FACTOR.is_some() } {
                    goldilocks::permute_batch::<F, D>(states, t, *form, rc, backend)
                } else {
                    states
                }
            }
            _ => states,
        };
    }
    for state in states.chunks_exact_mut(t) {
        permute::<F, D>(state, batch.rc);
    }
}
