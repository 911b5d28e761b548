//! Batch permutation backends, and the one place that chooses between them.
//!
//! - **portable**: the family's scalar round driver ([`crate::poseidon2::permutation::permute`],
//!   [`crate::poseidon1::permutation::permute`]) in a loop. Always compiled; the only path under `no_std`, Miri, on non-x86_64 targets and with
//!   `RUSTFLAGS="--cfg fast_poseidon2_force_portable"`; the oracle every other backend is tested
//!   against; and the path for the leftover states a vector backend does not take.
//! - **AVX-512 IFMA** ([`avx512_ifma`], x86_64 with `std`): 8 states per vector group, 52-bit
//!   limbs, Montgomery multiplication with `vpmadd52luq/huq`. Taken for any field whose elements
//!   are four 64-bit Montgomery limbs with `2^250 <= p < 2^255` (BN254, BLS12-381, the Stark
//!   field) when the CPU
//!   has `avx512f`, `avx512dq` and `avx512ifma`. Runs both families: Poseidon2 and Poseidon1
//!   (each family's one round driver on its vectors).
//! - **AVX-512F / AVX2** ([`goldilocks`], x86_64 with `std`): 8 / 4 states per vector group,
//!   one `u64` lane per element with the special-form reduction. Taken for the Goldilocks field
//!   (`GoldilocksFast` and ark's `Goldilocks`): AVX-512F when the CPU has it, else AVX2.
//!   Poseidon2 only: Poseidon1 batches over Goldilocks run the portable path.
//! - **AVX-512F / AVX2, 31-bit Montgomery** ([`monty31`], x86_64 with `std`): 16 / 8 states
//!   per vector group, one `u32` lane per element in the field's own Montgomery form
//!   (`x 2^32 mod p`), products as even/odd 32 x 32-bit multiplications with a signed
//!   Montgomery reduction, one kernel written over both register widths. Taken for BabyBear
//!   and KoalaBear (`Monty31`): AVX-512F when the CPU has it, else AVX2. Poseidon2 only:
//!   Poseidon1 batches over these fields run the portable path.
//! - On the AVX-512F backend of both families above, the states left after the AVX-512F
//!   groups run one AVX2 group when they fill one (every AVX-512F CPU has AVX2), so only the
//!   last 0-7 (31-bit) or 0-3 (Goldilocks) states of a batch take the portable path.
//!
//! The scalar MULX/ADX Montgomery product and the assembly addition of BN254 and BLS12-381
//! (one state at a time) are not batch backends: they live in the field layer
//! (`field::mulx_adx`, its own fenced `unsafe` module).
//!
//! The choice is made at run time, without build flags: `std::is_x86_feature_detected!` probes
//! the CPU once and caches the answer. What a batch needs is the backend chosen for its field
//! on this CPU, the field's kernel data (e.g. the AVX-512 IFMA modulus constants) and the
//! permutation's constants in the kernel's form (the family's layout, `batch_cache::Layout`):
//! - [`crate::Poseidon2`] and [`crate::poseidon1::Poseidon1`] keep them in a [`BatchCache`]
//!   in the value, filled on their first batch call, in `Vec`s (`VecTables`, an
//!   `OptimizedSchedule` of kernel words; allocated once; circom's cached getters keep one per
//!   width in a `static`). Later batch calls redo no detection and no conversion, and allocate
//!   nothing.
//! - The const-generic types fill fixed-size arrays on the stack of each batch call, in place
//!   ([`stack_batch`]; `CtTables` for [`crate::poseidon2::ct::Poseidon2Ct`], a `Poseidon1Ct`
//!   over kernel words for [`crate::poseidon1::ct::Poseidon1Ct`]; no heap), except for the
//!   registered permutations (Plonky3's and SP1's 31-bit ones, Plonky3's Goldilocks ones),
//!   whose tables were built when compiling.
//!
//! This is the top layer (`field` -> `params` -> `poseidon2` -> `modes` -> `simd`): the data it
//! reads is defined below it, the cache types and [`BatchBackend`] in `poseidon2::batch_cache`
//! and each field's kernel data and constant conversions in `field::kernel_form`; what detects,
//! fills and runs lives here: [`batch_backend`], `runs`, filling and reading the cache
//! (`BatchCache::batch`, `batch_on`), the kernels, and in [`permutations`] the binding of both
//! permutation types to them (their `modes::BatchPermutation` impls and the rayon split).
//!
//! **Stack frames in unoptimised builds.** The kernels are generic, so they are compiled in the
//! crate that calls them, with its profile. In optimised builds the round driver and the
//! kernel's layers are `#[inline(always)]` into each `#[target_feature]` entry point, where the
//! state lives in registers. At opt-level 0 (the default `cargo build`) LLVM inlines only
//! `#[inline(always)]` and reuses no stack slot, so the same inlining gave the 31-bit entry
//! points frames of 10-30 MiB (one slot per inlined local of every width, round and diagonal
//! entry) and a stack overflow on the first batch. So where this crate is built at opt-level 0
//! (`cfg(fast_poseidon2_unoptimized)`, set by the build script from Cargo's `OPT_LEVEL`), the
//! driver's rounds (`poseidon2::permutation`), the generic layers (`poseidon2::linear`) and each
//! kernel's chunk loop and internal layer are only `#[inline]`; at any other opt-level they stay
//! `#[inline(always)]` (same code as before). The switch is this crate's opt-level, not
//! `debug_assertions`: a `dev` profile with `opt-level = 3` keeps debug assertions, and there
//! an out-of-line layer, compiled without the entry point's target features, made the AVX-512
//! kernel 80 times slower. For the same reason the const-generic types' tables are filled in
//! place ([`stack_batch`]): returned, they were copied once per frame (over 1.5 MiB for
//! circom's t = 17). The largest frame of the batch path at opt-level 0 is now about 0.25 MiB;
//! `debug-build-check/` (run by CI) runs every instance's batch on every backend this CPU has,
//! unoptimised, in a thread with a 1 MiB stack.
//!
//! Not covered: a calling crate built at opt-level 0 while this crate is optimised (e.g.
//! `[profile.dev.package."*"] opt-level = 3` alone). Its BabyBear/KoalaBear batches have the
//! large frames; give that crate `opt-level = 1` or more, or run its batches on a thread with a
//! 64 MiB stack. Compiling the 31-bit and Goldilocks kernels here instead, once per shipped
//! field and S-box degree (entry points not generic over the field, so that no calling crate
//! compiles them), removes the case, but it was measured (2026-12-05) to make this crate's
//! release build take 5 min 43 s instead of 42 s (20 entry points, each compiled whether a
//! program batches that field or not) and a `dev` build with `opt-level = 3` over 25 minutes;
//! not done.
//!
//! This module and its children, and `field::mulx_adx`, are the only code of the crate allowed
//! to use `unsafe`: here the call into a `#[target_feature]` kernel after detection and the
//! vector instructions, there the MULX/ADX inline assembly, each with a `// SAFETY:` comment.

use crate::field::Field;
use crate::poseidon1::permutation::Poseidon1Layout;
use crate::poseidon2::batch_cache::{
    Batch, BatchBackend, BatchCache, Constants, Layout, Poseidon2Layout, Tables,
};
#[cfg(fast_poseidon2_simd)]
use crate::poseidon2::batch_cache::{CompiledTables, Kernel, Prepared};
use crate::poseidon2::linear::LinearLayers;
#[cfg(fast_poseidon2_simd)]
use crate::poseidon2::{batch_cache::Word, permutation::RoundConstants};

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
    mod monty31;

    /// Proof that this CPU runs the instructions of the register type `V`: issued only by the
    /// kernels' run-time detection (`Lanes::detect` of the `goldilocks` and `monty31` kernels), so every
    /// `V` (whose constructors take one) exists only on such a CPU.
    struct Cpu<V>(core::marker::PhantomData<V>);

    impl<V> Clone for Cpu<V> {
        fn clone(&self) -> Self {
            *self
        }
    }

    impl<V> Copy for Cpu<V> {}
}
mod permutations;

/// The backend `permute_batch` uses for the field `F` on this CPU and build (Poseidon1 batches
/// run the portable path instead when this is a Goldilocks backend, whose kernels do not have
/// Poseidon1's rounds).
///
/// Batches smaller than one vector group (8 states; 4 for Goldilocks on [`BatchBackend::Avx2`]),
/// and the last states of any batch that do not fill a group, always run on the portable path.
///
/// Setting the environment variable `FAST_POSEIDON2_NO_AVX512` to anything but `""` or `"0"`
/// (read once per process) makes this choice as if the CPU had no AVX-512: the AVX2 kernels
/// are chosen where they exist (for timing them, or for a machine whose AVX-512 clocks down).
/// It changes no result: every backend computes the same permutation.
pub fn batch_backend<F: Field>() -> BatchBackend {
    simd_only! { statements:
        let avx512 = avx512_allowed();
        if avx512 && avx512_ifma::supports::<F>() {
            return BatchBackend::Avx512Ifma;
        };
        if let Some(backend) = goldilocks::best::<F>(avx512) {
            return backend;
        };
        if let Some(backend) = monty31::best::<F>(avx512) {
            return backend;
        };
    }
    BatchBackend::Portable
}

/// Whether [`batch_backend`] may choose an AVX-512 kernel: `FAST_POSEIDON2_NO_AVX512` unset,
/// empty or `"0"` (read once, cached).
#[cfg(fast_poseidon2_simd)]
fn avx512_allowed() -> bool {
    static ALLOWED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ALLOWED.get_or_init(|| {
        std::env::var_os("FAST_POSEIDON2_NO_AVX512").is_none_or(|v| v.is_empty() || v == "0")
    })
}

/// Whether `backend` runs batches of `F` on this CPU and build (the portable path always does).
#[cfg_attr(not(fast_poseidon2_simd), allow(clippy::extra_unused_type_parameters))]
pub(crate) fn runs<F: Field>(backend: BatchBackend) -> bool {
    simd_only! { statements:
        match backend {
            BatchBackend::Portable => {}
            BatchBackend::Avx512Ifma => return avx512_ifma::supports::<F>(),
            _ => return goldilocks::runs::<F>(backend) || monty31::runs::<F>(backend),
        };
    }
    backend == BatchBackend::Portable
}

/// Filling and reading the cache (the type, data only, is `poseidon2::batch_cache`'s).
impl<S: Tables> BatchCache<S> {
    /// The view of a batch of `states` states on [`batch_backend`]'s choice for `F` (the
    /// portable path if the family has no kernel there); `rc` are the permutation's constants
    /// (the same on every call: the cache is built from the first call's). The cache is filled
    /// by the first call whose batch fills one vector group of the backend: smaller batches run
    /// portable and convert nothing.
    #[inline]
    pub(crate) fn batch<'a, F: Field>(
        &'a self,
        rc: Constants<'a, S, F>,
        states: usize,
    ) -> Batch<'a, S::Layout> {
        simd_only! { statements:
            let best = match self.cell.get() {
                Some(prepared) => prepared.best,
                None => best_for::<F, S::Layout>(),
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
        rc: Constants<'a, S, F>,
        backend: BatchBackend,
        states: usize,
    ) -> Option<Batch<'a, S::Layout>> {
        forced::<F, S::Layout>(backend).map(|backend| self.view(rc, backend, states))
    }

    /// The view of `states` states on `backend`, which runs `F` here: with the kernel data and
    /// constants (filling the cache first) if the batch fills one of its vector groups.
    #[inline]
    fn view<'a, F: Field>(
        &'a self,
        rc: Constants<'a, S, F>,
        backend: BatchBackend,
        states: usize,
    ) -> Batch<'a, S::Layout> {
        simd_only! { statements:
            if states >= backend.group_states::<F>() {
                let prepared = self.cell.get_or_init(|| {
                    let kernel = Kernel::of::<F>();
                    Prepared {
                        best: best_for::<F, S::Layout>(),
                        kernel: kernel.map(|k| (k, S::build(rc, |c| k.word(c), |c| k.diagonal_word(c)))),
                    }
                });
                return Batch {
                    backend,
                    kernel: prepared.kernel.as_ref().map(|(k, tables)| (*k, tables.view())),
                };
            };
        }
        let _ = rc;
        Batch {
            backend,
            kernel: None,
        }
    }
}

/// The view of a batch of `states` states of a const-generic permutation on `backend` (which
/// runs `F` here: [`best_for`]'s or [`forced`]'s answer), whose kernel-form constants live on
/// the caller's stack in `tables` (`None` on entry; set to [`Tables::EMPTY`] and filled in place
/// here, and only if the batch fills one vector group of the backend: a smaller batch writes
/// none of the table's words).
pub(crate) fn stack_batch<'a, F: Field, S: Tables>(
    tables: &'a mut Option<S>,
    rc: Constants<'a, S, F>,
    backend: BatchBackend,
    states: usize,
) -> Batch<'a, S::Layout> {
    simd_only! { statements:
        if states >= backend.group_states::<F>()
            && let Some(k) = Kernel::of::<F>()
        {
            let tables = tables.insert(S::EMPTY);
            tables.fill(rc, |c| k.word(c), |c| k.diagonal_word(c));
            return Batch { backend, kernel: Some((k, tables.view())) };
        };
    }
    let _ = (tables, rc, states);
    Batch {
        backend,
        kernel: None,
    }
}

/// The view of `states` states on `backend` (which runs `F` here) with kernel tables built when
/// compiling ([`CompiledTables`], which the caller checked hold `rc`): with them if the batch
/// fills one of the backend's vector groups.
#[cfg(fast_poseidon2_simd)]
#[inline]
fn compiled_view<'a, F: Field, const T: usize, const RF: usize, const RP: usize>(
    compiled: &'a CompiledTables<T, RF, RP>,
    backend: BatchBackend,
    states: usize,
) -> Batch<'a, Poseidon2Layout> {
    Batch {
        backend,
        kernel: (states >= backend.group_states::<F>())
            .then(|| (compiled.kernel, compiled.tables.view())),
    }
}

/// `backend` if it runs batches of `F` on this CPU and build with a kernel of the family `L`
/// (the portable path always does), else `None`: the backend of a forced batch (the testing
/// hook `permute_batch_on`).
pub(crate) fn forced<F: Field, L: Layout>(backend: BatchBackend) -> Option<BatchBackend> {
    (runs::<F>(backend) && L::has_kernel(backend)).then_some(backend)
}

/// [`batch_backend`] for `F` if the family `L` has a kernel there, else the portable path.
pub(crate) fn best_for<F: Field, L: Layout>() -> BatchBackend {
    let best = batch_backend::<F>();
    if L::has_kernel(best) {
        best
    } else {
        BatchBackend::Portable
    }
}

/// A permutation family's kernel-form constants as each kernel family reads them.
trait BatchRounds<F: Field>: Layout {
    /// The kernel-form constants as the AVX-512 IFMA kernel runs them.
    #[cfg(fast_poseidon2_simd)]
    fn ifma(rc: Self::Of<'_, Word>) -> impl avx512_ifma::Rounds;

    /// The kernel-form constants as the Goldilocks kernels run them, `None` if they do not have
    /// the family's rounds.
    #[cfg(fast_poseidon2_simd)]
    fn goldilocks(rc: Self::Of<'_, Word>) -> Option<RoundConstants<'_, Word>>;

    /// The kernel-form constants as the 31-bit Montgomery kernel runs them, `None` if it does
    /// not have the family's rounds.
    #[cfg(fast_poseidon2_simd)]
    fn monty31(rc: Self::Of<'_, Word>) -> Option<RoundConstants<'_, Word>>;
}

impl<F: Field + LinearLayers> BatchRounds<F> for Poseidon2Layout {
    #[cfg(fast_poseidon2_simd)]
    fn ifma(rc: Self::Of<'_, Word>) -> impl avx512_ifma::Rounds {
        rc
    }
    #[cfg(fast_poseidon2_simd)]
    fn goldilocks(rc: Self::Of<'_, Word>) -> Option<RoundConstants<'_, Word>> {
        Some(rc)
    }
    #[cfg(fast_poseidon2_simd)]
    fn monty31(rc: Self::Of<'_, Word>) -> Option<RoundConstants<'_, Word>> {
        Some(rc)
    }
}

impl<F: Field> BatchRounds<F> for Poseidon1Layout {
    #[cfg(fast_poseidon2_simd)]
    fn ifma(s: Self::Of<'_, Word>) -> impl avx512_ifma::Rounds {
        s
    }
    #[cfg(fast_poseidon2_simd)]
    fn goldilocks(_: Self::Of<'_, Word>) -> Option<RoundConstants<'_, Word>> {
        None
    }
    #[cfg(fast_poseidon2_simd)]
    fn monty31(_: Self::Of<'_, Word>) -> Option<RoundConstants<'_, Word>> {
        None
    }
}

/// Permutes the whole vector groups of `states` in place on `batch`'s backend, when it runs a
/// kernel that has the family's rounds, and returns the states left (all of `states` on the
/// portable path): `states` is a flat buffer of `states.len() / t` states of width `t`; the
/// caller guarantees `states.len() % t == 0` and that the constants match `t`, and permutes the
/// states left with the permutation's own single-state driver. `W` is `t` if the caller's type
/// fixes it, else `0`: a kernel then compiles only its copy for `W` (or, for `0`, one for each
/// of its shipped widths and one for the others).
fn permute_groups<'s, F: Field, L: BatchRounds<F>, const D: u64, const W: usize>(
    states: &'s mut [F],
    t: usize,
    batch: Batch<'_, L>,
) -> &'s mut [F] {
    simd_only! { statements:
        return match (batch.backend, batch.kernel) {
            (BatchBackend::Portable, _) | (_, None) => states,
            // Each kernel is entered under an inline `const` test of the field's
            // representation: evaluated when `F` is known, so a kernel is compiled only for
            // the fields that can take it (every other field would carry a copy that never
            // runs, in every crate that batches it).
            (BatchBackend::Avx512Ifma, Some((Kernel::Ifma(modulus), rc))) => {
                if const { F::MONTGOMERY_256_MODULUS.is_some() } {
                    avx512_ifma::permute_batch::<F, D, _>(states, t, &modulus, L::ifma(rc))
                } else {
                    states
                }
            }
            (backend, Some((Kernel::Goldilocks(form), rc))) => {
                match L::goldilocks(rc) {
                    Some(rc) if const { F::GOLDILOCKS_FACTOR.is_some() } => {
                        goldilocks::permute_batch::<F, D, W>(states, t, form, rc, backend)
                    }
                    _ => states,
                }
            }
            (backend, Some((Kernel::Monty31(_), rc))) => match L::monty31(rc) {
                Some(rc) if const { F::MONTY31_MODULUS.is_some() } => {
                    monty31::permute_batch::<F, D, W>(states, t, rc, backend)
                }
                _ => states,
            },
            _ => states,
        };
    }
    #[allow(unreachable_code)]
    {
        let _ = (t, batch);
        states
    }
}
