//! The batch methods of the two permutation types: each builds (`Poseidon2Ct`, on the stack) or
//! reads (`Poseidon2`, in the value) its [`BatchCache`] and hands the view to the kernels.

use crate::field::Field;
use crate::poseidon2::batch_cache::{Batch, BatchBackend, BatchCache, CtTables};
use crate::poseidon2::ct::Poseidon2Ct;
use crate::poseidon2::linear::LinearLayers;

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

#[cfg(feature = "alloc")]
impl<F: Field> crate::Poseidon2<F> {
    /// The view of a batch of `states` states: the backend and kernel-form constants from the
    /// value's cache (built now by the first call whose batch fills a vector group).
    #[inline]
    pub(crate) fn batch(&self, states: usize) -> Batch<'_, F> {
        self.batch_cache().batch(self.constants(), states)
    }
}
