//! The const-generic Poseidon1 permutation: width, round numbers and S-box degree are types,
//! the state is `[F; T]` on the stack, the optimized schedule lives in fixed-size arrays, and
//! nothing allocates.

use crate::field::Field;
use crate::params::{MAX_WIDTH, PartialSbox};
use crate::poseidon1::permutation::{Poseidon1Layout, Schedule, permute_fixed};
use crate::poseidon2::batch_cache::{Constants, Tables, Word};

/// A Poseidon1 permutation of width `T` with `RF` full rounds, `RP` partial rounds and S-box
/// `x^D` (eprint 2019/458), holding its optimized schedule (appendix B; see
/// [`crate::poseidon1::schedule`]), built once and reused.
///
/// Shape rules are checked at compile time when a value is constructed: `2 <= T <=`
/// [`crate::MAX_WIDTH`], `RF` even, `RF` and `RP` in `1..=1023`, `D` 3, 5, 7 or 11.
/// Construction and permutation never allocate. The value is large (for the circom t = 17
/// instance about 95 KiB): keep it in a `static` or behind a reference rather than copying it
/// around, as [`crate::instances::circom_bn254::hash`] does.
///
/// ```
/// # #[cfg(feature = "bn254")] {
/// use fast_poseidon2::instances::circom_bn254;
/// let perm = &circom_bn254::ct::T3;
/// let out = perm.permutation(&[0u64.into(), 1u64.into(), 2u64.into()]);
/// assert_eq!(out.len(), 3);
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon1Ct<F, const T: usize, const RF: usize, const RP: usize, const D: u64> {
    full: [[F; T]; RF],
    partial: [F; RP],
    sparse_rows: [[F; T]; RP],
    sparse_cols: [[F; T]; RP],
    pre_sparse: [[F; T]; T],
    mds: [[F; T]; T],
    partial_sbox: PartialSbox,
    mds_diagonal: Option<[i8; T]>,
}

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon1Ct<F, T, RF, RP, D>
{
    /// Compile-time shape check, evaluated once per instantiation.
    const SHAPE: () = assert!(
        crate::params::poseidon1_shape_ok(T, D, RF, RP) && T <= MAX_WIDTH,
        "Poseidon1Ct shape: 2 <= T <= MAX_WIDTH, RF even, RP and RF in 1..=1023, D in (3, 5, 7, 11)"
    );

    /// Builds the permutation from its optimized schedule, layout as
    /// [`crate::poseidon1::schedule::OptimizedSchedule`] (rows of `T`; `full` has `RF` rows,
    /// `partial`, `sparse_rows` and `sparse_cols` one entry or row per partial round,
    /// `pre_sparse` and `mds` are `T × T` row-major), for partial rounds whose S-box acts on
    /// the first element ([`Self::with_partial_sbox`] changes that). The tables are trusted:
    /// they must be what [`crate::poseidon1::schedule::optimize`] derives, as the generated
    /// instance tables are; [`Self::from_params`] derives them.
    pub const fn from_schedule(
        full: [[F; T]; RF],
        partial: [F; RP],
        sparse_rows: [[F; T]; RP],
        sparse_cols: [[F; T]; RP],
        pre_sparse: [[F; T]; T],
        mds: [[F; T]; T],
    ) -> Self {
        let () = Self::SHAPE;
        Poseidon1Ct {
            full,
            partial,
            sparse_rows,
            sparse_cols,
            pre_sparse,
            mds,
            partial_sbox: PartialSbox::First,
            mds_diagonal: None,
        }
    }

    /// The same permutation with its partial rounds' S-box on `position`; the tables must be
    /// the schedule [`crate::poseidon1::schedule::optimize`] derives for that position.
    #[must_use]
    pub const fn with_partial_sbox(mut self, position: PartialSbox) -> Self {
        self.partial_sbox = position;
        self
    }

    /// The state element the partial rounds' S-box acts on.
    pub const fn partial_sbox(&self) -> PartialSbox {
        self.partial_sbox
    }

    /// The same permutation with its MDS matrix declared to be `J + diag(diagonal)` (all ones
    /// plus the diagonal, small integers with `|d_i| <=`
    /// [`crate::poseidon1::schedule::MAX_MDS_DIAGONAL`]; StarkWare's matrices, e.g. t = 3:
    /// `[2, -2, -3]`): where the field can (four-limb Montgomery fields), every round's linear
    /// layer then runs with additions only, the partial rounds without their sparse matrices
    /// (the same function: [`crate::poseidon1::schedule`]). Trusted like the tables: it must be
    /// what [`crate::poseidon1::schedule::optimize`] finds (`OptimizedSchedule::mds_diagonal`);
    /// entries beyond the bound make the permutation keep the matrix products.
    #[must_use]
    pub const fn with_mds_diagonal(mut self, diagonal: [i8; T]) -> Self {
        let mut i = 0;
        while i < T {
            let d = diagonal[i];
            if d > crate::poseidon1::permutation::MAX_MDS_DIAGONAL
                || d < -crate::poseidon1::permutation::MAX_MDS_DIAGONAL
            {
                return self;
            }
            i += 1;
        }
        self.mds_diagonal = Some(diagonal);
        self
    }

    /// `Some(d)` if the MDS matrix is `J + diag(d)` evaluated with additions
    /// ([`Self::with_mds_diagonal`]).
    pub const fn mds_diagonal(&self) -> Option<[i8; T]> {
        self.mds_diagonal
    }

    /// Builds the permutation from reference parameters whose shape must equal `(T, RF, RP,
    /// D)`, deriving the optimized schedule.
    ///
    /// # Errors
    /// [`crate::Error::ShapeMismatch`] if the width, round numbers or S-box degree differ;
    /// [`crate::Error::SingularMatrix`] as [`crate::poseidon1::schedule::optimize`].
    #[cfg(feature = "alloc")]
    pub fn from_params(params: &crate::poseidon1::Poseidon1Params<F>) -> Result<Self, crate::Error>
    where
        F: crate::field::PrimeField,
    {
        if (
            params.width(),
            params.rounds_f(),
            params.rounds_p(),
            params.sbox_degree(),
        ) != (T, RF, RP, D)
        {
            return Err(crate::Error::ShapeMismatch);
        }
        let s = crate::poseidon1::schedule::optimize(params)?;
        let rows = |v: &[F], i: usize| -> [F; T] { core::array::from_fn(|j| v[i * T + j]) };
        let perm = Self::from_schedule(
            core::array::from_fn(|i| rows(&s.full, i)),
            core::array::from_fn(|i| s.partial[i]),
            core::array::from_fn(|i| rows(&s.sparse_rows, i)),
            core::array::from_fn(|i| rows(&s.sparse_cols, i)),
            core::array::from_fn(|i| rows(&s.pre_sparse, i)),
            core::array::from_fn(|i| rows(&s.mds, i)),
        )
        .with_partial_sbox(s.partial_sbox);
        Ok(
            match s
                .mds_diagonal
                .as_deref()
                .and_then(|d| <[i8; T]>::try_from(d).ok())
            {
                Some(d) => perm.with_mds_diagonal(d),
                None => perm,
            },
        )
    }

    /// The MDS matrix, `mds()[i][j]` the entry in row `i`, column `j`.
    pub fn mds(&self) -> &[[F; T]; T] {
        &self.mds
    }

    /// Permutes `state` in place.
    ///
    /// Not inlined: every mode calls this one copy per instance instead of carrying the
    /// whole round driver inline (a call costs nothing next to a permutation, and a crate
    /// that uses many instances and modes compiles about a quarter faster).
    #[inline(never)]
    pub fn permute_mut(&self, state: &mut [F; T]) {
        self.permute_inlined(state);
    }

    /// [`Self::permute_mut`], inlined into the caller: called on a `static` or `const` value
    /// (Starknet's `poseidon_permute_comp`), the compiler reads the schedule's public shape (the
    /// MDS diagonal, the partial S-box's position) from the constant and folds it into the
    /// code, so the additions-only layer runs as straight-line additions and the state, copied
    /// to a local array, stays in registers across the rounds. Same values as
    /// [`Self::permute_mut`].
    #[inline(always)]
    pub(crate) fn permute_inlined(&self, state: &mut [F; T]) {
        permute_fixed::<F, D, T>(state, self.schedule());
    }

    /// Returns the permutation of `input`; `input` is left untouched.
    #[inline]
    pub fn permutation(&self, input: &[F; T]) -> [F; T] {
        let mut state = *input;
        self.permute_mut(&mut state);
        state
    }
}

impl<F, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon1Ct<F, T, RF, RP, D>
{
    /// The borrowed view the round driver runs.
    #[inline(always)]
    pub(crate) fn schedule(&self) -> Schedule<'_, F> {
        Schedule {
            partial_sbox: self.partial_sbox,
            full: self.full.as_flattened(),
            partial: &self.partial,
            sparse_rows: self.sparse_rows.as_flattened(),
            sparse_cols: self.sparse_cols.as_flattened(),
            pre_sparse: self.pre_sparse.as_flattened(),
            mds: self.mds.as_flattened(),
            mds_diagonal: self.mds_diagonal.as_ref().map(|d| d.as_slice()),
        }
    }
}

/// The kernel-form schedule of a `Poseidon1Ct<F, T, RF, RP, D>` is the same type over kernel
/// words: fixed-size arrays, no heap (a batch call's cache on its stack).
impl<const T: usize, const RF: usize, const RP: usize, const D: u64> Tables
    for Poseidon1Ct<Word, T, RF, RP, D>
{
    type Layout = Poseidon1Layout;
    const EMPTY: Self = Poseidon1Ct {
        full: [[[0; 5]; T]; RF],
        partial: [[0; 5]; RP],
        sparse_rows: [[[0; 5]; T]; RP],
        sparse_cols: [[[0; 5]; T]; RP],
        pre_sparse: [[[0; 5]; T]; T],
        mds: [[[0; 5]; T]; T],
        partial_sbox: PartialSbox::First,
        mds_diagonal: None,
    };
    fn fill<F: Field>(
        &mut self,
        s: Constants<'_, Self, F>,
        word: impl Fn(F) -> Word,
        _diagonal: impl Fn(F) -> Word,
    ) {
        let convert = |words: &mut [Word], table: &[F]| {
            for (w, &c) in words.iter_mut().zip(table) {
                *w = word(c);
            }
        };
        convert(self.full.as_flattened_mut(), s.full);
        convert(&mut self.partial, s.partial);
        convert(self.sparse_rows.as_flattened_mut(), s.sparse_rows);
        convert(self.sparse_cols.as_flattened_mut(), s.sparse_cols);
        convert(self.pre_sparse.as_flattened_mut(), s.pre_sparse);
        convert(self.mds.as_flattened_mut(), s.mds);
        self.partial_sbox = s.partial_sbox;
        self.mds_diagonal = s.mds_diagonal.and_then(|d| <[i8; T]>::try_from(d).ok());
    }
    fn view(&self) -> Constants<'_, Self, Word> {
        self.schedule()
    }
}

#[cfg(all(test, feature = "stark252"))]
mod tests {
    //! The additions-only linear layer against the matrix products it replaces: every Starknet
    //! width with and without its `mds_diagonal` (the sparse-matrix schedule, which the
    //! CryptoExperts known answers and the starknet-crypto differential also pin down) gives
    //! the same outputs on the extremes and on pseudo-random states.
    use super::*;
    use crate::field::PrimeField;
    use crate::instances::stark252::ct;
    use crate::stark252::Felt252;

    fn check<const T: usize, const RF: usize, const RP: usize>(
        perm: &Poseidon1Ct<Felt252, T, RF, RP, 3>,
    ) {
        assert!(
            perm.mds_diagonal().is_some(),
            "t = {T}: the additions-only layer"
        );
        let mut dense = perm.clone();
        dense.mds_diagonal = None;
        let minus_one = Felt252::from_u64(1).neg();
        let states: [[Felt252; T]; 22] = core::array::from_fn(|s| match s {
            0 => [Felt252::ZERO_ELEMENT; T],
            1 => [minus_one; T],
            _ => core::array::from_fn(|i| {
                Felt252::from_u64((s * 31 + i + 2) as u64).pow_u64(0x1234_5678_9abc + s as u64)
            }),
        });
        for x in &states {
            assert_eq!(perm.permutation(x), dense.permutation(x), "t = {T}");
        }
    }

    #[test]
    fn additions_only_layer_equals_the_matrix_products_for_every_starknet_width() {
        check(&ct::T3);
        check(&ct::T4);
        check(&ct::T5);
        check(&ct::T9);
    }
}
