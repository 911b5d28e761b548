//! What a permutation value keeps for its batches: the [`BatchBackend`] names, and the
//! [`BatchCache`] with the backend chosen for the field, the field's kernel data and the round
//! constants in the kernel's form ([`CtTables`] on the stack of a `Poseidon2Ct` batch call,
//! [`VecTables`] inside a `Poseidon2`). Data only: the CPU detection, the code that fills and
//! reads the cache and the kernels are in `crate::simd`.

use crate::field::Field;
#[cfg(fast_poseidon2_simd)]
use crate::field::kernel_form;
use crate::params::ExternalMatrix;
use crate::poseidon2::permutation::RoundConstants;

/// The code path that runs a batch permutation (see [`crate::batch_backend`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BatchBackend {
    /// The scalar permutation, one state at a time.
    Portable,
    /// AVX-512 IFMA, 8 states per vector group (BN254, BLS12-381 and other 4-limb Montgomery
    /// fields with `2^250 <= p < 2^255`).
    Avx512Ifma,
    /// AVX-512F: 8 states per vector group for Goldilocks (`GoldilocksFast` and ark's
    /// `Goldilocks`), 16 for the 31-bit Montgomery fields (BabyBear, KoalaBear).
    Avx512,
    /// AVX2: 4 states per vector group for Goldilocks (on CPUs without AVX-512F), 8 for the
    /// 31-bit Montgomery fields (BabyBear, KoalaBear).
    Avx2,
}

impl BatchBackend {
    /// The fewest states a batch needs to reach this backend's kernels for the field `F`: one
    /// vector group of its narrowest kernel (`usize::MAX` for the portable path, which has
    /// none). The AVX-512F backend runs the states left after its vector groups through the
    /// AVX2 kernel when a whole AVX2 group remains (`simd::monty31`, `simd::goldilocks`), so its
    /// fewest is the AVX2 group. The kernel family is the field's: 32-bit lanes for a 31-bit
    /// Montgomery field ([`crate::field::Representation::MONTY31_MODULUS`]; AVX-512F 16, AVX2
    /// 8), 64-bit lanes for Goldilocks (8, 4), four 52-bit-limb lanes for AVX-512 IFMA (8).
    pub(crate) const fn group_states<F: Field>(self) -> usize {
        match self {
            BatchBackend::Portable => usize::MAX,
            BatchBackend::Avx512Ifma => 8,
            BatchBackend::Avx512 | BatchBackend::Avx2 if F::MONTY31_MODULUS.is_some() => 8,
            BatchBackend::Avx512 | BatchBackend::Avx2 => 4,
        }
    }
}

/// A round constant in a kernel's form: for AVX-512 IFMA the five 52-bit limbs of
/// `c * 2^260 mod p`, canonical; for the Goldilocks kernels `[v, v >> 32, 0, 0, 0]` with `v` the
/// canonical plain value; for the 31-bit Montgomery kernel `[w, w p^-1 mod 2^32, w - p mod 2^32,
/// 0, 0]` with `w` the stored word (`kernel_form::monty31::word`).
pub(crate) type Word = [u64; 5];

/// A field's data for its kernel family, derived once (see [`BatchCache`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kernel {
    #[cfg(fast_poseidon2_simd)]
    /// The AVX-512 IFMA modulus constants.
    Ifma(kernel_form::avx512_ifma::Modulus),
    #[cfg(fast_poseidon2_simd)]
    /// How the field stores Goldilocks elements (AVX-512F and AVX2 kernels).
    Goldilocks(kernel_form::goldilocks::Form),
    #[cfg(fast_poseidon2_simd)]
    /// The modulus of a 31-bit Montgomery field (AVX-512F and AVX2 kernels).
    Monty31(kernel_form::monty31::Modulus),
}

impl Kernel {
    /// `F`'s kernel data, if `F`'s representation is one a kernel family reads. Whether the CPU
    /// runs that family is not asked here: the cache is filled only for a backend that runs `F`
    /// (chosen by [`crate::batch_backend`] or checked by `simd::runs`).
    #[cfg_attr(not(fast_poseidon2_simd), allow(clippy::extra_unused_type_parameters))]
    pub(crate) fn of<F: Field>() -> Option<Self> {
        #[cfg(fast_poseidon2_simd)]
        {
            if let Some(modulus) = kernel_form::avx512_ifma::Modulus::of::<F>() {
                return Some(Kernel::Ifma(modulus));
            }
            if let Some(form) = kernel_form::goldilocks::Form::of::<F>() {
                return Some(Kernel::Goldilocks(form));
            }
            if let Some(modulus) = kernel_form::monty31::Modulus::of::<F>() {
                return Some(Kernel::Monty31(modulus));
            }
        }
        None
    }

    /// The round constant `c` of `F` in this kernel's form.
    pub(crate) fn word<F: Field>(&self, c: F) -> Word {
        match *self {
            #[cfg(fast_poseidon2_simd)]
            Kernel::Ifma(_) => kernel_form::avx512_ifma::word(c),
            #[cfg(fast_poseidon2_simd)]
            Kernel::Goldilocks(ref form) => kernel_form::goldilocks::word(form, c),
            #[cfg(fast_poseidon2_simd)]
            Kernel::Monty31(ref modulus) => kernel_form::monty31::word(modulus, c),
        }
    }

    /// The internal-diagonal entry `c` of `F` in this kernel's form: [`Kernel::word`], and for
    /// the 31-bit Montgomery and the Goldilocks kernels with the entry's kind
    /// (`kernel_form::monty31::diagonal_word`, `kernel_form::goldilocks::diagonal_word`).
    pub(crate) fn diagonal_word<F: Field>(&self, c: F) -> Word {
        match *self {
            #[cfg(fast_poseidon2_simd)]
            Kernel::Monty31(ref modulus) => kernel_form::monty31::diagonal_word(modulus, c),
            #[cfg(fast_poseidon2_simd)]
            Kernel::Goldilocks(ref form) => kernel_form::goldilocks::diagonal_word(form, c),
            #[cfg(fast_poseidon2_simd)]
            _ => self.word(c),
        }
    }
}

/// How a permutation family lays out its constants: one borrowed view, over the field on the
/// portable path and over kernel-form [`Word`]s in a kernel. A marker type per family
/// ([`Poseidon2Layout`], `poseidon1::permutation::Poseidon1Layout`).
pub(crate) trait Layout: Sized {
    /// The borrowed constants with elements of type `W`.
    type Of<'a, W: Copy + Sync + 'a>: Copy + Send + Sync;
    /// Whether the family's round structure has a kernel on `backend` (the portable path always
    /// runs it).
    fn has_kernel(backend: BatchBackend) -> bool;
}

/// Poseidon2's layout, [`RoundConstants`]; every backend has its round structure.
pub(crate) enum Poseidon2Layout {}

impl Layout for Poseidon2Layout {
    type Of<'a, W: Copy + Sync + 'a> = RoundConstants<'a, W>;
    fn has_kernel(_: BatchBackend) -> bool {
        true
    }
}

/// Where a permutation keeps its kernel-form constants (see [`BatchCache`]).
///
/// The tables are filled in place ([`Tables::fill`]) rather than returned: the const-generic
/// ones are large (120 KiB for circom's t = 17) and live on a batch call's stack, and an
/// unoptimised build copies a returned value once in every frame it passes through.
pub(crate) trait Tables: Sized {
    /// The family's layout.
    type Layout: Layout;
    /// The tables before [`Self::fill`], allocating nothing: fixed-size tables of the
    /// implementor's shape with every word zero, or empty `Vec`s.
    const EMPTY: Self;
    /// Sets the tables to `rc` converted by `word`, the entries of an internal diagonal (if
    /// the family has one) by `diagonal` (the kernel form with the entry's kind, computed once
    /// here instead of per batch call); `rc` has the implementor's shape.
    fn fill<F: Field>(
        &mut self,
        rc: Constants<'_, Self, F>,
        word: impl Fn(F) -> Word,
        diagonal: impl Fn(F) -> Word,
    );
    /// [`Self::EMPTY`], [`Self::fill`]ed.
    fn build<F: Field>(
        rc: Constants<'_, Self, F>,
        word: impl Fn(F) -> Word,
        diagonal: impl Fn(F) -> Word,
    ) -> Self {
        let mut tables = Self::EMPTY;
        tables.fill(rc, word, diagonal);
        tables
    }
    /// The tables in the family's layout.
    fn view(&self) -> Constants<'_, Self, Word>;
}

/// The constants of the tables `S`' family, borrowed, with elements of type `W`.
pub(crate) type Constants<'a, S, W> = <<S as Tables>::Layout as Layout>::Of<'a, W>;

/// The kernel-form constants of a `Poseidon2Ct<_, T, RF, RP, _>`: fixed-size arrays, no heap.
#[derive(Clone, Copy)]
pub(crate) struct CtTables<const T: usize, const RF: usize, const RP: usize> {
    external: [[Word; T]; RF],
    internal: [Word; RP],
    diag_m1: [Word; T],
    external_matrix: ExternalMatrix,
    internal_sum_scale: Option<Word>,
}

impl<const T: usize, const RF: usize, const RP: usize> Tables for CtTables<T, RF, RP> {
    type Layout = Poseidon2Layout;
    const EMPTY: Self = CtTables {
        external: [[[0; 5]; T]; RF],
        internal: [[0; 5]; RP],
        diag_m1: [[0; 5]; T],
        external_matrix: ExternalMatrix::HorizenLabs,
        internal_sum_scale: None,
    };
    fn fill<F: Field>(
        &mut self,
        rc: RoundConstants<'_, F>,
        word: impl Fn(F) -> Word,
        diagonal: impl Fn(F) -> Word,
    ) {
        for (w, &c) in self.external.as_flattened_mut().iter_mut().zip(rc.external) {
            *w = word(c);
        }
        for (w, &c) in self.internal.iter_mut().zip(rc.internal) {
            *w = word(c);
        }
        for (w, &c) in self.diag_m1.iter_mut().zip(rc.diag_m1) {
            *w = diagonal(c);
        }
        self.external_matrix = rc.external_matrix;
        self.internal_sum_scale = rc.internal_sum_scale.map(|&c| diagonal(c));
    }
    fn view(&self) -> RoundConstants<'_, Word> {
        RoundConstants {
            external: self.external.as_flattened(),
            internal: &self.internal,
            diag_m1: &self.diag_m1,
            external_matrix: self.external_matrix,
            internal_sum_scale: self.internal_sum_scale.as_ref(),
        }
    }
}

/// A permutation's kernel data and kernel-form constants built when compiling: the registry of
/// `crate::instances` holds them for the registered permutations (Plonky3's and SP1's 31-bit
/// permutations, Plonky3's Goldilocks ones), and a `Poseidon2Ct` batch call whose constants they
/// [hold](Self::holds) reads them instead of converting its constants on the stack.
#[cfg(fast_poseidon2_simd)]
pub(crate) struct CompiledTables<const T: usize, const RF: usize, const RP: usize> {
    /// The field's kernel data.
    pub(crate) kernel: Kernel,
    /// The kernel-form constants.
    pub(crate) tables: CtTables<T, RF, RP>,
    /// Each constant's stored word (element 0 of its kernel form), contiguous, for
    /// [`CompiledTables::holds`].
    stored: StoredWords<T, RF, RP>,
}

/// The stored words of a permutation's constants, in the layout of [`CtTables`].
#[cfg(fast_poseidon2_simd)]
struct StoredWords<const T: usize, const RF: usize, const RP: usize> {
    external: [[u64; T]; RF],
    internal: [u64; RP],
    diag_m1: [u64; T],
    internal_sum_scale: Option<u64>,
}

#[cfg(fast_poseidon2_simd)]
#[cfg_attr(
    not(any(feature = "babybear", feature = "koalabear", feature = "goldilocks")),
    allow(dead_code) // built and read by the registries of the 31-bit and Goldilocks instances
)]
impl<const T: usize, const RF: usize, const RP: usize> CompiledTables<T, RF, RP> {
    /// The tables of `kernel` (a 31-bit Montgomery or a Goldilocks kernel), from the kernel
    /// forms of the constants (the diagonal's and the sum scale's with their kinds).
    pub(crate) const fn new(
        kernel: Kernel,
        external: [[Word; T]; RF],
        internal: [Word; RP],
        diag_m1: [Word; T],
        external_matrix: ExternalMatrix,
        internal_sum_scale: Option<Word>,
    ) -> Self {
        // The mask keeping a kernel form's element 0 to the stored word.
        let mask = match kernel {
            Kernel::Monty31(_) => 0xffff_ffff,
            _ => u64::MAX,
        };
        let mut stored = StoredWords {
            external: [[0; T]; RF],
            internal: [0; RP],
            diag_m1: [0; T],
            internal_sum_scale: None,
        };
        let mut r = 0;
        while r < RF {
            let mut i = 0;
            while i < T {
                stored.external[r][i] = external[r][i][0] & mask;
                i += 1;
            }
            r += 1;
        }
        let mut i = 0;
        while i < RP {
            stored.internal[i] = internal[i][0] & mask;
            i += 1;
        }
        let mut i = 0;
        while i < T {
            stored.diag_m1[i] = diag_m1[i][0] & mask;
            i += 1;
        }
        if let Some(scale) = &internal_sum_scale {
            stored.internal_sum_scale = Some(scale[0] & mask);
        }
        CompiledTables {
            kernel,
            stored,
            tables: CtTables {
                external,
                internal,
                diag_m1,
                external_matrix,
                internal_sum_scale,
            },
        }
    }

    /// Whether these are the tables of `rc`: element 0 of every kernel form is the constant's
    /// stored word (31-bit Montgomery: its `u32`; Goldilocks, built only for a field stored
    /// plain: its canonical value, so a constant stored unreduced is not matched and takes the
    /// converting path). Reads public constants only.
    ///
    /// Every constant is compared (no early exit), against the stored words kept contiguous,
    /// so that the loops vectorize: a batch call of 64 states spent 1.5% of its time here
    /// when the comparison read each word from its kernel form and stopped at a difference.
    #[inline]
    pub(crate) fn holds<F: Field>(&self, rc: RoundConstants<'_, F>) -> bool {
        match self.kernel {
            Kernel::Monty31(_) => self.stored_are(rc, |c| {
                c.to_monty31_word(crate::field::Sealed(())).map(u64::from)
            }),
            Kernel::Goldilocks(_) => {
                self.stored_are(rc, |c| c.to_goldilocks_word(crate::field::Sealed(())))
            }
            Kernel::Ifma(_) => false,
        }
    }

    /// [`CompiledTables::holds`] with `word`, a constant's stored word.
    #[inline(always)]
    fn stored_are<F: Field>(
        &self,
        rc: RoundConstants<'_, F>,
        word: impl Fn(&F) -> Option<u64>,
    ) -> bool {
        let same = |stored: &[u64], constants: &[F]| {
            stored.len() == constants.len()
                && stored
                    .iter()
                    .zip(constants)
                    .fold(true, |all, (&s, c)| all & (word(c) == Some(s)))
        };
        let stored = &self.stored;
        self.tables.external_matrix == rc.external_matrix
            && stored.internal_sum_scale == rc.internal_sum_scale.and_then(&word)
            && stored.internal_sum_scale.is_some() == rc.internal_sum_scale.is_some()
            && same(&stored.diag_m1, rc.diag_m1)
            && same(&stored.internal, rc.internal)
            && same(stored.external.as_flattened(), rc.external)
    }
}

/// The kernel-form constants of a `Poseidon2`: one `Vec` per table, allocated once.
#[cfg(feature = "alloc")]
#[derive(Clone)]
pub(crate) struct VecTables {
    external: alloc::vec::Vec<Word>,
    internal: alloc::vec::Vec<Word>,
    diag_m1: alloc::vec::Vec<Word>,
    external_matrix: ExternalMatrix,
    internal_sum_scale: Option<Word>,
}

#[cfg(feature = "alloc")]
impl Tables for VecTables {
    type Layout = Poseidon2Layout;
    const EMPTY: Self = VecTables {
        external: alloc::vec::Vec::new(),
        internal: alloc::vec::Vec::new(),
        diag_m1: alloc::vec::Vec::new(),
        external_matrix: ExternalMatrix::HorizenLabs,
        internal_sum_scale: None,
    };
    fn fill<F: Field>(
        &mut self,
        rc: RoundConstants<'_, F>,
        word: impl Fn(F) -> Word,
        diagonal: impl Fn(F) -> Word,
    ) {
        let convert = |table: &[F]| table.iter().map(|&c| word(c)).collect();
        *self = VecTables {
            external: convert(rc.external),
            internal: convert(rc.internal),
            diag_m1: rc.diag_m1.iter().map(|&c| diagonal(c)).collect(),
            external_matrix: rc.external_matrix,
            internal_sum_scale: rc.internal_sum_scale.map(|&c| diagonal(c)),
        };
    }
    fn view(&self) -> RoundConstants<'_, Word> {
        RoundConstants {
            external: &self.external,
            internal: &self.internal,
            diag_m1: &self.diag_m1,
            external_matrix: self.external_matrix,
            internal_sum_scale: self.internal_sum_scale.as_ref(),
        }
    }
}

/// What one permutation's batches need, computed on its first batch call.
#[derive(Clone)]
pub(crate) struct Prepared<S> {
    /// [`crate::batch_backend`] for the field.
    pub(crate) best: BatchBackend,
    /// The field's kernel data and the round constants in its form, if a kernel of the field's
    /// family runs here.
    pub(crate) kernel: Option<(Kernel, S)>,
}

/// A permutation value's batch cache: the dispatcher's choice, the field's kernel data and the
/// kernel-form round constants, built once on the first batch call (a `std::sync::OnceLock`,
/// where SIMD backends exist; elsewhere an empty type and every batch runs portable). Filled and
/// read by `crate::simd` (`BatchCache::batch`, `batch_on`).
///
/// It is not part of the permutation's value: `==` ignores it (always equal), `Debug` leaves it
/// out, and `Clone` copies what it holds (the choice and the converted constants stay valid).
/// [`crate::Poseidon2`] and [`crate::poseidon1::Poseidon1`] keep one in the value. The
/// const-generic permutations, plain `const`-able values, have none: each batch call fills its
/// tables in place on its own stack (`crate::simd::stack_batch`).
pub(crate) struct BatchCache<S> {
    #[cfg(fast_poseidon2_simd)]
    pub(crate) cell: std::sync::OnceLock<Prepared<S>>,
    tables: core::marker::PhantomData<fn() -> S>,
}

impl<S: Clone> Clone for BatchCache<S> {
    fn clone(&self) -> Self {
        BatchCache {
            #[cfg(fast_poseidon2_simd)]
            cell: self.cell.clone(),
            tables: core::marker::PhantomData,
        }
    }
}

impl<S: Tables> BatchCache<S> {
    /// An empty cache.
    pub(crate) const fn new() -> Self {
        BatchCache {
            #[cfg(fast_poseidon2_simd)]
            cell: std::sync::OnceLock::new(),
            tables: core::marker::PhantomData,
        }
    }
}

/// One batch call's view of a permutation of the family `L`: the backend to run, with the
/// cached kernel data and kernel-form constants. (The states no kernel takes run the
/// permutation's own single-state driver, which the caller passes beside this view.)
pub(crate) struct Batch<'a, L: Layout> {
    /// The backend to run.
    pub(crate) backend: BatchBackend,
    /// The kernel data and kernel-form constants, if the batch reaches a kernel.
    pub(crate) kernel: Option<(Kernel, L::Of<'a, Word>)>,
}

impl<L: Layout> Clone for Batch<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: Layout> Copy for Batch<'_, L> {}
