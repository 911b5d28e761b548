//! The one place that binds the permutation types to the batch kernels: their
//! [`BatchPermutation`] impls (the batch path of every mode), the batch cache each builds
//! (`Poseidon2Ct`, on the stack) or reads (`Poseidon2`, in the value), and the split of a batch
//! across threads ([`run_batch`]).

use crate::field::Field;
use crate::modes::BatchPermutation;
use crate::poseidon2::batch_cache::{Batch, BatchBackend, BatchCache, CtTables};
use crate::poseidon2::ct::Poseidon2Ct;
use crate::poseidon2::linear::LinearLayers;

/// Batches smaller than this many states are not split across threads.
#[cfg(feature = "parallel")]
const PARALLEL_MIN_STATES: usize = 64;

/// Permutes the flat buffer `states` (a whole number of width-`t` states) on `batch`'s backend,
/// in chunks across rayon's threads with the `parallel` feature (every chunk shares `batch`'s
/// cached kernel constants: nothing is converted or allocated per chunk).
pub(crate) fn run_batch<F: Field + LinearLayers, const D: u64>(
    states: &mut [F],
    t: usize,
    batch: Batch<'_, F>,
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
                .for_each(|chunk| super::permute_batch::<F, D>(chunk, t, batch));
            return;
        }
    }
    super::permute_batch::<F, D>(states, t, batch);
}

impl<F: Field + LinearLayers, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon2Ct<F, T, RF, RP, D>
{
    /// Runs `f` on the view of a batch of `states` states: the backend chosen for `F` and, if
    /// the batch fills one of its vector groups, the kernel-form constants, converted now into a
    /// cache on this stack frame (no heap).
    #[inline]
    pub(crate) fn with_batch<R>(&self, states: usize, f: impl FnOnce(Batch<'_, F>) -> R) -> R {
        let cache = BatchCache::<CtTables<T, RF, RP>>::new();
        f(cache.batch(self.constants(), states))
    }

    /// [`Self::with_batch`] on `backend`, with `None` if it does not run `F` here (the testing
    /// hook `permute_batch_on`).
    pub(crate) fn with_batch_on<R>(
        &self,
        backend: BatchBackend,
        states: usize,
        f: impl FnOnce(Option<Batch<'_, F>>) -> R,
    ) -> R {
        let cache = BatchCache::<CtTables<T, RF, RP>>::new();
        f(cache.batch_on(self.constants(), backend, states))
    }
}

impl<F: Field + LinearLayers, const T: usize, const RF: usize, const RP: usize, const D: u64>
    BatchPermutation<F> for Poseidon2Ct<F, T, RF, RP, D>
{
    fn batch_width(&self) -> usize {
        T
    }

    #[inline]
    fn permute_whole_states(&self, states: &mut [F]) {
        self.with_batch(states.len() / T, |batch| {
            run_batch::<F, D>(states, T, batch)
        });
    }

    fn permute_states_on(&self, backend: BatchBackend, states: &mut [F]) -> bool {
        self.with_batch_on(backend, states.len() / T, |batch| {
            let Some(batch) = batch else {
                return false;
            };
            run_batch::<F, D>(states, T, batch);
            true
        })
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> crate::Poseidon2<F> {
    /// The view of a batch of `states` states: the backend and kernel-form constants from the
    /// value's cache (built now by the first call whose batch fills a vector group).
    #[inline]
    pub(crate) fn batch(&self, states: usize) -> Batch<'_, F> {
        self.batch_cache().batch(self.constants(), states)
    }
}

#[cfg(feature = "alloc")]
impl<F: Field + LinearLayers> crate::Poseidon2<F> {
    /// [`run_batch`] with the instance's S-box degree.
    fn run_batch(&self, states: &mut [F], batch: Batch<'_, F>) {
        let t = self.width();
        // The degree was validated to be 3, 5, 7 or 11 when the parameters were built.
        match self.params().sbox_degree() {
            3 => run_batch::<F, 3>(states, t, batch),
            5 => run_batch::<F, 5>(states, t, batch),
            7 => run_batch::<F, 7>(states, t, batch),
            _ => run_batch::<F, 11>(states, t, batch),
        }
    }
}

#[cfg(feature = "alloc")]
impl<F: Field + LinearLayers> BatchPermutation<F> for crate::Poseidon2<F> {
    fn batch_width(&self) -> usize {
        self.width()
    }

    #[inline]
    fn permute_whole_states(&self, states: &mut [F]) {
        let batch = self.batch(states.len() / self.width());
        self.run_batch(states, batch);
    }

    fn permute_states_on(&self, backend: BatchBackend, states: &mut [F]) -> bool {
        let rc = self.constants();
        let Some(batch) = self
            .batch_cache()
            .batch_on(rc, backend, states.len() / self.width())
        else {
            return false;
        };
        self.run_batch(states, batch);
        true
    }
}

/// Permutes every width-`t` state of `states` by `permute`, one state at a time (the portable
/// path), in chunks across rayon's threads with the `parallel` feature. The Poseidon1 batches
/// run here: no SIMD kernel has the Poseidon1 round structure yet.
fn run_portable<F: Field>(states: &mut [F], t: usize, permute: impl Fn(&mut [F]) + Sync) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        let n = states.len() / t;
        let threads = rayon::current_num_threads();
        if threads > 1 && n >= PARALLEL_MIN_STATES {
            let per_chunk = n.div_ceil(4 * threads) * t;
            states
                .par_chunks_mut(per_chunk)
                .for_each(|chunk| chunk.chunks_exact_mut(t).for_each(&permute));
            return;
        }
    }
    states.chunks_exact_mut(t).for_each(permute);
}

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64> BatchPermutation<F>
    for crate::poseidon1::ct::Poseidon1Ct<F, T, RF, RP, D>
{
    fn batch_width(&self) -> usize {
        T
    }

    #[inline]
    fn permute_whole_states(&self, states: &mut [F]) {
        run_portable(states, T, |state| {
            if let Ok(state) = <&mut [F; T]>::try_from(state) {
                self.permute_mut(state);
            }
        });
    }

    fn permute_states_on(&self, backend: BatchBackend, states: &mut [F]) -> bool {
        if backend != BatchBackend::Portable {
            return false;
        }
        self.permute_whole_states(states);
        true
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> BatchPermutation<F> for crate::poseidon1::Poseidon1<F> {
    fn batch_width(&self) -> usize {
        self.width()
    }

    #[inline]
    fn permute_whole_states(&self, states: &mut [F]) {
        run_portable(states, self.width(), |state| self.permute_exact(state));
    }

    fn permute_states_on(&self, backend: BatchBackend, states: &mut [F]) -> bool {
        if backend != BatchBackend::Portable {
            return false;
        }
        self.permute_whole_states(states);
        true
    }
}
