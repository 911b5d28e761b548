//! The one place that binds the permutation types of both families to the batch kernels: their
//! [`BatchPermutation`] impls (the batch path of every mode), the batch cache each builds
//! (`Poseidon2Ct` and `Poseidon1Ct`, on the stack) or reads (`Poseidon2` and `Poseidon1`, in the value), and the split of a batch across threads
//! ([`run_batch`]).

use super::BatchRounds;
use crate::field::Field;
use crate::modes::BatchPermutation;
use crate::poseidon1::ct::Poseidon1Ct;
use crate::poseidon1::permutation::Poseidon1Layout;
use crate::poseidon2::batch_cache::{Batch, BatchBackend, CtTables, Poseidon2Layout, Word};
use crate::poseidon2::ct::Poseidon2Ct;
use crate::poseidon2::linear::LinearLayers;

/// Batches smaller than this many states are not split across threads.
#[cfg(feature = "parallel")]
const PARALLEL_MIN_STATES: usize = 64;

/// Permutes the flat buffer `states` (a whole number of width-`t` states; `W` is `t` when the
/// type fixes it, for a const-generic permutation, `0` when it is read at run time: the kernels
/// then compile only the copy for that width) on `batch`'s backend, in chunks across rayon's
/// threads with the `parallel` feature (every chunk shares `batch`'s
/// cached kernel constants: nothing is converted or allocated per chunk). The states no kernel
/// takes (all of them on the portable path) go to `permute_rest`, a buffer of whole states at
/// a time: the permutation's own single-state driver, compiled for its width where the type
/// knows it (with the width a run-time value, the loops over the state compiled about 30%
/// slower in a `-C target-cpu=native` build, KoalaBear t = 16).
fn run_batch<F: Field, L: BatchRounds<F>, const D: u64, const W: usize>(
    states: &mut [F],
    t: usize,
    batch: Batch<'_, L>,
    permute_rest: impl Fn(&mut [F]) + Sync,
) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        let n = states.len() / t;
        let threads = rayon::current_num_threads();
        if threads > 1 && n >= PARALLEL_MIN_STATES {
            // About four chunks per thread, each a whole number of 32 states: of the backends'
            // interleaved vector groups (16 states for AVX-512 IFMA, 32 for the 31-bit and the
            // Goldilocks AVX-512F kernels).
            let per_chunk = n.div_ceil(4 * threads).next_multiple_of(32) * t;
            states.par_chunks_mut(per_chunk).for_each(|chunk| {
                permute_rest(super::permute_groups::<F, L, D, W>(chunk, t, batch));
            });
            return;
        }
    }
    permute_rest(super::permute_groups::<F, L, D, W>(states, t, batch));
}

/// Runs `permute` on each state of `states`, a flat buffer of whole `[F; T]` states: the
/// const-generic types' `permute_rest` for [`run_batch`].
#[inline]
fn each_state<F, const T: usize>(states: &mut [F], permute: impl Fn(&mut [F; T])) {
    states.as_chunks_mut().0.iter_mut().for_each(permute);
}

impl<F: Field + LinearLayers, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon2Ct<F, T, RF, RP, D>
{
    /// Permutes `states` on `backend` (which runs `F` here: [`super::best_for`]'s or
    /// [`super::forced`]'s answer), with the kernel-form constants if the batch fills one of its
    /// vector groups: converted now into tables on this stack frame (no heap), or, for a
    /// registered permutation (`crate::instances`: Plonky3's and SP1's 31-bit permutations,
    /// Plonky3's Goldilocks ones), built when compiling and read, not converted.
    #[inline]
    fn permute_states_with(&self, backend: BatchBackend, states: &mut [F]) {
        let rc = self.constants();
        let n = states.len() / T;
        let permute_rest = |rest: &mut [F]| each_state(rest, |s| self.permute_mut(s));
        #[cfg(fast_poseidon2_simd)]
        {
            // Only a batch that reaches a kernel compares its constants with the registry's: a
            // smaller one runs portable and needs no kernel-form constants at all.
            if n >= backend.group_states::<F>()
                && let Some(compiled) = crate::instances::compiled_kernel_tables::<F, T, RF, RP>(rc)
            {
                let batch = super::compiled_view::<F, T, RF, RP>(compiled, backend, n);
                return run_batch::<F, Poseidon2Layout, D, T>(states, T, batch, permute_rest);
            }
        }
        let mut tables = None::<CtTables<T, RF, RP>>;
        let batch = super::stack_batch(&mut tables, rc, backend, n);
        run_batch::<F, Poseidon2Layout, D, T>(states, T, batch, permute_rest);
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
        self.permute_states_with(super::best_for::<F, Poseidon2Layout>(), states);
    }

    fn permute_states_on(&self, backend: BatchBackend, states: &mut [F]) -> bool {
        let Some(backend) = super::forced::<F, Poseidon2Layout>(backend) else {
            return false;
        };
        self.permute_states_with(backend, states);
        true
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> crate::Poseidon2<F> {
    /// The view of a batch of `states` states: the backend and kernel-form constants from the
    /// value's cache (built now by the first call whose batch fills a vector group).
    #[inline]
    pub(crate) fn batch(&self, states: usize) -> Batch<'_, Poseidon2Layout> {
        self.batch_cache().batch(self.constants(), states)
    }
}

/// [`run_batch`] for a runtime-width permutation: width `t` and S-box degree `d` known at run
/// time (the degree was validated to be 3, 5, 7 or 11 when the parameters were built);
/// `permute_one` permutes one state of `t` elements.
#[cfg(feature = "alloc")]
fn run_batch_of_degree<F: Field, L: BatchRounds<F>>(
    states: &mut [F],
    t: usize,
    d: u64,
    batch: Batch<'_, L>,
    permute_one: impl Fn(&mut [F]) + Sync,
) {
    let permute_rest = |rest: &mut [F]| rest.chunks_exact_mut(t).for_each(&permute_one);
    match d {
        3 => run_batch::<F, L, 3, 0>(states, t, batch, permute_rest),
        5 => run_batch::<F, L, 5, 0>(states, t, batch, permute_rest),
        7 => run_batch::<F, L, 7, 0>(states, t, batch, permute_rest),
        _ => run_batch::<F, L, 11, 0>(states, t, batch, permute_rest),
    }
}

#[cfg(feature = "alloc")]
impl<F: Field + LinearLayers> crate::Poseidon2<F> {
    /// [`run_batch`] with the instance's width, S-box degree and single-state driver.
    fn run_batch(&self, states: &mut [F], batch: Batch<'_, Poseidon2Layout>) {
        let (t, d) = (self.width(), self.params().sbox_degree());
        run_batch_of_degree(states, t, d, batch, |s| self.permute_exact(s));
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

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64> BatchPermutation<F>
    for Poseidon1Ct<F, T, RF, RP, D>
{
    fn batch_width(&self) -> usize {
        T
    }

    /// The schedule in kernel form goes into fixed-size arrays on this stack frame (no heap).
    #[inline]
    fn permute_whole_states(&self, states: &mut [F]) {
        self.permute_states_with(super::best_for::<F, Poseidon1Layout>(), states);
    }

    fn permute_states_on(&self, backend: BatchBackend, states: &mut [F]) -> bool {
        let Some(backend) = super::forced::<F, Poseidon1Layout>(backend) else {
            return false;
        };
        self.permute_states_with(backend, states);
        true
    }
}

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon1Ct<F, T, RF, RP, D>
{
    /// Permutes `states` on `backend` (which runs `F` here: [`super::best_for`]'s or
    /// [`super::forced`]'s answer).
    #[inline]
    fn permute_states_with(&self, backend: BatchBackend, states: &mut [F]) {
        let mut tables = None::<Poseidon1Ct<Word, T, RF, RP, D>>;
        let batch = super::stack_batch(&mut tables, self.schedule(), backend, states.len() / T);
        let permute_rest = |rest: &mut [F]| each_state(rest, |s| self.permute_mut(s));
        run_batch::<F, Poseidon1Layout, D, T>(states, T, batch, permute_rest);
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> crate::poseidon1::Poseidon1<F> {
    /// [`run_batch`] with the instance's width, S-box degree and single-state driver.
    fn run_batch(&self, states: &mut [F], batch: Batch<'_, Poseidon1Layout>) {
        let (t, d) = (self.width(), self.sbox_degree());
        run_batch_of_degree(states, t, d, batch, |s| self.permute_exact(s));
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> BatchPermutation<F> for crate::poseidon1::Poseidon1<F> {
    fn batch_width(&self) -> usize {
        self.width()
    }

    #[inline]
    fn permute_whole_states(&self, states: &mut [F]) {
        let batch = self
            .batch_cache()
            .batch(self.view(), states.len() / self.width());
        self.run_batch(states, batch);
    }

    fn permute_states_on(&self, backend: BatchBackend, states: &mut [F]) -> bool {
        let Some(batch) =
            self.batch_cache()
                .batch_on(self.view(), backend, states.len() / self.width())
        else {
            return false;
        };
        self.run_batch(states, batch);
        true
    }
}
