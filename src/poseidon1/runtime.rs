//! The runtime-width Poseidon1 permutation.

use crate::Error;
use crate::field::{Field, PrimeField};
use crate::params::PartialSbox;
use crate::poseidon1::Poseidon1Params;
use crate::poseidon1::ct::Poseidon1Ct;
use crate::poseidon1::permutation::{Poseidon1Layout, Schedule, permute};
use crate::poseidon1::schedule::{OptimizedSchedule, optimize};
use crate::poseidon2::batch_cache::{BatchCache, Constants, Tables, Word};
use alloc::vec::Vec;

/// A Poseidon1 permutation whose width `t` is known at run time, built once from
/// [`Poseidon1Params`] (deriving the optimized schedule, eprint 2019/458 appendix B) or from a
/// [`Poseidon1Ct`], and reused. It gives exactly the output of the const-generic
/// [`Poseidon1Ct`] with the same parameters: both run one round driver.
///
/// ```
/// # #[cfg(all(feature = "bn254", feature = "std"))] {
/// use fast_poseidon2::instances::circom_bn254;
/// let perm = circom_bn254::poseidon1_t3();
/// let mut state = [0u64.into(), 1u64.into(), 2u64.into()];
/// perm.permute_mut(&mut state).unwrap();
/// assert!(perm.permute_mut(&mut state[..2]).is_err()); // wrong length: Err, never a panic
/// # }
/// ```
///
/// Batches keep the backend chosen for `F` and the schedule in its kernel's form in a cache
/// inside the value, built (and allocated, once) on the first batch call that reaches the
/// kernel. `==` and `Debug` ignore the cache.
#[derive(Clone)]
pub struct Poseidon1<F> {
    width: usize,
    sbox_degree: u64,
    rounds_f: usize,
    rounds_p: usize,
    schedule: OptimizedSchedule<F>,
    /// The batch backend and kernel-form schedule, built on the first batch call.
    batch: BatchCache<OptimizedSchedule<Word>>,
}

impl<F: PartialEq> PartialEq for Poseidon1<F> {
    /// Equal shape and schedule (the batch cache is not compared).
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.sbox_degree, self.rounds_f, self.rounds_p)
            == (
                other.width,
                other.sbox_degree,
                other.rounds_f,
                other.rounds_p,
            )
            && self.schedule == other.schedule
    }
}

impl<F: Eq> Eq for Poseidon1<F> {}

impl<F: core::fmt::Debug> core::fmt::Debug for Poseidon1<F> {
    /// The fields the derived `Debug` would print (the batch cache is left out).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Poseidon1")
            .field("width", &self.width)
            .field("sbox_degree", &self.sbox_degree)
            .field("rounds_f", &self.rounds_f)
            .field("rounds_p", &self.rounds_p)
            .field("schedule", &self.schedule)
            .finish()
    }
}

/// The kernel-form schedule of a [`Poseidon1`]: the same tables over kernel words, one `Vec`
/// each, allocated once.
impl Tables for OptimizedSchedule<Word> {
    type Layout = Poseidon1Layout;
    const EMPTY: Self = OptimizedSchedule {
        full: Vec::new(),
        partial: Vec::new(),
        sparse_rows: Vec::new(),
        sparse_cols: Vec::new(),
        pre_sparse: Vec::new(),
        mds: Vec::new(),
        partial_sbox: PartialSbox::First,
        mds_diagonal: None,
    };
    fn fill<F: Field>(
        &mut self,
        s: Constants<'_, Self, F>,
        word: impl Fn(F) -> Word,
        _diagonal: impl Fn(F) -> Word,
    ) {
        let convert = |table: &[F]| table.iter().map(|&c| word(c)).collect();
        *self = OptimizedSchedule {
            full: convert(s.full),
            partial: convert(s.partial),
            sparse_rows: convert(s.sparse_rows),
            sparse_cols: convert(s.sparse_cols),
            pre_sparse: convert(s.pre_sparse),
            mds: convert(s.mds),
            partial_sbox: s.partial_sbox,
            mds_diagonal: s.mds_diagonal.map(<[i8]>::to_vec),
        };
    }
    fn view(&self) -> Constants<'_, Self, Word> {
        view(self)
    }
}

/// The borrowed view of `s`.
fn view<W>(s: &OptimizedSchedule<W>) -> Schedule<'_, W> {
    Schedule {
        partial_sbox: s.partial_sbox,
        full: &s.full,
        partial: &s.partial,
        sparse_rows: &s.sparse_rows,
        sparse_cols: &s.sparse_cols,
        pre_sparse: &s.pre_sparse,
        mds: &s.mds,
        mds_diagonal: s.mds_diagonal.as_deref(),
    }
}

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>
    From<&Poseidon1Ct<F, T, RF, RP, D>> for Poseidon1<F>
{
    /// The runtime-width permutation with the same schedule and outputs (the shipped getters
    /// `poseidon1_tN()` are built this way).
    fn from(perm: &Poseidon1Ct<F, T, RF, RP, D>) -> Self {
        let s = perm.schedule();
        Poseidon1 {
            width: T,
            sbox_degree: D,
            rounds_f: RF,
            rounds_p: RP,
            schedule: OptimizedSchedule {
                full: s.full.to_vec(),
                partial: s.partial.to_vec(),
                sparse_rows: s.sparse_rows.to_vec(),
                sparse_cols: s.sparse_cols.to_vec(),
                pre_sparse: s.pre_sparse.to_vec(),
                mds: s.mds.to_vec(),
                partial_sbox: s.partial_sbox,
                mds_diagonal: s.mds_diagonal.map(<[i8]>::to_vec),
            },
            batch: BatchCache::new(),
        }
    }
}

impl<F: PrimeField> Poseidon1<F> {
    /// Builds the permutation, deriving its optimized schedule from `params`.
    ///
    /// # Errors
    /// [`Error::SingularMatrix`] as [`optimize`] (never for a Cauchy MDS matrix, e.g. any
    /// [`Poseidon1Params::generate`] output).
    pub fn new(params: &Poseidon1Params<F>) -> Result<Self, Error> {
        Ok(Poseidon1 {
            width: params.width(),
            sbox_degree: params.sbox_degree(),
            rounds_f: params.rounds_f(),
            rounds_p: params.rounds_p(),
            schedule: optimize(params)?,
            batch: BatchCache::new(),
        })
    }
}

impl<F: Field> Poseidon1<F> {
    /// The width `t`.
    pub fn width(&self) -> usize {
        self.width
    }
    /// The S-box degree `d`.
    pub fn sbox_degree(&self) -> u64 {
        self.sbox_degree
    }
    /// The number of full rounds `R_F`.
    pub fn rounds_f(&self) -> usize {
        self.rounds_f
    }
    /// The number of partial rounds `R_P`.
    pub fn rounds_p(&self) -> usize {
        self.rounds_p
    }
    /// The optimized schedule this permutation runs.
    pub fn schedule(&self) -> &OptimizedSchedule<F> {
        &self.schedule
    }

    /// The borrowed view the round driver runs.
    pub(crate) fn view(&self) -> Schedule<'_, F> {
        view(&self.schedule)
    }

    /// The value's batch cache (filled and read by `crate::simd`).
    #[inline]
    pub(crate) fn batch_cache(&self) -> &BatchCache<OptimizedSchedule<Word>> {
        &self.batch
    }

    /// Permutes `state` (exactly `t` elements) in place.
    ///
    /// # Errors
    /// [`Error::InvalidStateLength`] if `state.len() != t`; the state is then left untouched.
    pub fn permute_mut(&self, state: &mut [F]) -> Result<(), Error> {
        if state.len() != self.width {
            return Err(Error::InvalidStateLength {
                got: state.len(),
                expected: self.width,
            });
        }
        self.permute_exact(state);
        Ok(())
    }

    /// Permutes `state`, whose length the caller guarantees to be `t`. Not inlined, as the
    /// const-generic `permute_mut`: one copy of the drivers per field, called by every mode.
    #[inline(never)]
    pub(crate) fn permute_exact(&self, state: &mut [F]) {
        let s = self.view();
        // The degree was validated to be 3, 5, 7 or 11 when the parameters were built.
        match self.sbox_degree {
            3 => permute::<F, 3>(state, s),
            5 => permute::<F, 5>(state, s),
            7 => permute::<F, 7>(state, s),
            _ => permute::<F, 11>(state, s),
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
