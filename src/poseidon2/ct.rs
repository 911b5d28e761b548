//! The const-generic permutation: width, round numbers and S-box degree are types, the state is
//! `[F; T]` on the stack, constants live in fixed-size arrays, and nothing allocates.

use crate::field::Field;
use crate::params::{ExternalMatrix, check_shape};
use crate::poseidon2::linear::LinearLayers;
use crate::poseidon2::permutation::{RoundConstants, permute};

/// A Poseidon2 permutation of width `T` with `RF` full rounds, `RP` partial rounds and S-box
/// `x^D`, built once and reused.
///
/// Shape rules ([`crate::params::check_shape`]) are checked at compile time when a value is
/// constructed: `T` is 2, 3 or a multiple of 4 up to [`crate::MAX_WIDTH`], `RF` is even, `RF`
/// and `RP` are in `1..=1023`, `D` is 3, 5, 7 or 11.
/// Construction, permutation and compression never allocate.
///
/// ```
/// # #[cfg(feature = "bn254")] {
/// use fast_poseidon2::instances::bn254;
/// let perm = bn254::ct::t3();
/// let out = perm.permutation(&[0u64.into(), 1u64.into(), 2u64.into()]);
/// assert_eq!(out.len(), 3);
/// # }
/// ```
///
/// Batches (`permute_batch`, `compress_batch`, Merkle roots) convert the round constants into
/// the backend's form on the stack at each call (no heap): the value itself holds no cache, so
/// that it stays a plain `const` (a cache would be interior mutability, fresh at every use of a
/// `const`). [`crate::Poseidon2`] keeps its converted constants in the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poseidon2Ct<F, const T: usize, const RF: usize, const RP: usize, const D: u64> {
    /// `RF` rounds of `T` constants: first the `RF / 2` initial rounds, then the `RF / 2` final.
    external: [[F; T]; RF],
    /// One constant per partial round.
    internal: [F; RP],
    /// `mu_i - 1` for the internal matrix.
    diag_m1: [F; T],
    /// The external matrix's block `M4`.
    external_matrix: ExternalMatrix,
    /// The internal sum scale `c` of `M_I = c·J + diag(diag_m1)`, `None` for `c = 1`.
    internal_sum_scale: Option<F>,
}

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon2Ct<F, T, RF, RP, D>
{
    /// Compile-time shape check, evaluated once per instantiation.
    const SHAPE: () = assert!(
        check_shape(T, D, RF, RP).is_ok(),
        "Poseidon2Ct shape: T must be 2, 3 or 4k <= MAX_WIDTH, RF even, RP and RF in 1..=1023, D in (3, 5, 7, 11)"
    );

    /// Builds the permutation from its constants (layout as in [`crate::Poseidon2Params`]:
    /// `external` holds the initial `RF / 2` rounds then the final `RF / 2`).
    ///
    /// For `T` = 2 or 3, `diag_m1` is ignored by the permutation, which hard-codes the fixed
    /// internal matrices; pass `(1, 2)` / `(1, 1, 2)` so that [`Self::internal_diagonal_minus_one`]
    /// reports it.
    pub const fn from_constants(
        external: [[F; T]; RF],
        internal: [F; RP],
        diag_m1: [F; T],
    ) -> Self {
        let () = Self::SHAPE;
        Poseidon2Ct {
            external,
            internal,
            diag_m1,
            external_matrix: ExternalMatrix::HorizenLabs,
            internal_sum_scale: None,
        }
    }

    /// The same permutation with the external matrix's block `M4` set to `external_matrix`
    /// ([`ExternalMatrix::HorizenLabs`] unless changed; widths 2 and 3 ignore it).
    pub const fn with_external_matrix(mut self, external_matrix: ExternalMatrix) -> Self {
        self.external_matrix = external_matrix;
        self
    }

    /// The external matrix's block `M4`.
    pub const fn external_matrix(&self) -> ExternalMatrix {
        self.external_matrix
    }

    /// The same permutation with the internal diagonal table replaced by `diag_m1` (same
    /// meaning as in [`Self::from_constants`]); the round constants stay. The shipped Plonky3
    /// instances are the Horizen Labs instance of the same Grain tuple with Plonky3's diagonal.
    pub const fn with_internal_diagonal_minus_one(mut self, diag_m1: [F; T]) -> Self {
        self.diag_m1 = diag_m1;
        self
    }

    /// The same permutation with the internal matrix `M_I = scale·J + diag(d)`, `d` the
    /// diagonal table (see [`crate::Poseidon2Params::with_internal_sum_scale`]; SP1's KoalaBear
    /// permutation, [`crate::instances::sp1`], is one).
    pub const fn with_internal_sum_scale(mut self, scale: F) -> Self {
        self.internal_sum_scale = Some(scale);
        self
    }

    /// The internal sum scale `c` of `M_I = c·J + diag(d)`, `None` for the usual `c = 1`.
    pub const fn internal_sum_scale(&self) -> Option<F> {
        self.internal_sum_scale
    }

    /// Builds the permutation from runtime parameters whose shape must equal `(T, RF, RP, D)`.
    ///
    /// # Errors
    /// [`crate::Error::ShapeMismatch`] if the width, round numbers or S-box degree differ.
    #[cfg(feature = "alloc")]
    pub fn from_params(params: &crate::Poseidon2Params<F>) -> Result<Self, crate::Error> {
        if (
            params.width(),
            params.rounds_f(),
            params.rounds_p(),
            params.sbox_degree(),
        ) != (T, RF, RP, D)
        {
            return Err(crate::Error::ShapeMismatch);
        }
        let ext = params.external_round_constants();
        let external = core::array::from_fn(|r| core::array::from_fn(|i| ext[r * T + i]));
        let internal = core::array::from_fn(|r| params.internal_round_constants()[r]);
        let diag_m1 = core::array::from_fn(|i| params.internal_diagonal_minus_one()[i]);
        let perm = Self::from_constants(external, internal, diag_m1)
            .with_external_matrix(params.external_matrix());
        Ok(match params.internal_sum_scale() {
            Some(scale) => perm.with_internal_sum_scale(scale),
            None => perm,
        })
    }

    /// The runtime-width parameters of this permutation.
    #[cfg(feature = "alloc")]
    pub fn to_params(&self) -> crate::Poseidon2Params<F> {
        crate::Poseidon2Params {
            width: T,
            sbox_degree: D,
            rounds_f: RF,
            rounds_p: RP,
            external_round_constants: self.external.as_flattened().to_vec(),
            internal_round_constants: self.internal.to_vec(),
            internal_diagonal_minus_one: self.diag_m1.to_vec(),
            external_matrix: self.external_matrix,
            internal_sum_scale: self.internal_sum_scale,
        }
    }

    /// `mu_i - 1` for the `T` internal diagonal entries.
    pub const fn internal_diagonal_minus_one(&self) -> &[F; T] {
        &self.diag_m1
    }

    /// The `R_F` external rounds' constants, `t` per round (first the initial rounds, then the
    /// terminal ones); a `const fn` for tables built when compiling.
    #[cfg_attr(
        not(all(fast_poseidon2_simd, any(feature = "babybear", feature = "koalabear"))),
        allow(dead_code) // read by the registry of kernel tables only
    )]
    pub(crate) const fn external_round_constants(&self) -> &[[F; T]; RF] {
        &self.external
    }

    /// The `R_P` internal rounds' constants; a `const fn` as
    /// [`Self::external_round_constants`].
    #[cfg_attr(
        not(all(fast_poseidon2_simd, any(feature = "babybear", feature = "koalabear"))),
        allow(dead_code) // read by the registry of kernel tables only
    )]
    pub(crate) const fn internal_round_constants(&self) -> &[F; RP] {
        &self.internal
    }

    #[inline(always)]
    pub(crate) fn constants(&self) -> RoundConstants<'_, F> {
        RoundConstants {
            external: self.external.as_flattened(),
            internal: &self.internal,
            diag_m1: &self.diag_m1,
            external_matrix: self.external_matrix,
            internal_sum_scale: self.internal_sum_scale.as_ref(),
        }
    }
}

/// The round driver for one `[F; T]` state with the constants' lengths in their types: the one
/// copy per instance shape that [`Poseidon2Ct::permute_mut`] and the runtime-width
/// [`crate::Poseidon2`] built from it both run.
///
/// Not inlined: every mode calls this one copy instead of carrying the whole round driver
/// inline (a call costs nothing next to a permutation, and a crate that uses many instances and
/// modes compiles about a quarter faster).
#[inline(never)]
pub(crate) fn permute_fixed<
    F: Field + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    state: &mut [F; T],
    external: &[[F; T]; RF],
    internal: &[F; RP],
    diag_m1: &[F; T],
    external_matrix: ExternalMatrix,
    internal_sum_scale: Option<&F>,
) {
    let constants = RoundConstants {
        external: external.as_flattened(),
        internal,
        diag_m1,
        external_matrix,
        internal_sum_scale,
    };
    permute::<F, D, T>(state, constants);
}

impl<F: Field + LinearLayers, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon2Ct<F, T, RF, RP, D>
{
    /// Permutes `state` in place (one out-of-line copy of the round driver per instance shape).
    #[inline]
    pub fn permute_mut(&self, state: &mut [F; T]) {
        permute_fixed::<F, T, RF, RP, D>(
            state,
            &self.external,
            &self.internal,
            &self.diag_m1,
            self.external_matrix,
            self.internal_sum_scale.as_ref(),
        );
    }

    /// Returns the permutation of `input`; `input` is left untouched.
    #[inline]
    pub fn permutation(&self, input: &[F; T]) -> [F; T] {
        let mut state = *input;
        self.permute_mut(&mut state);
        state
    }
}
