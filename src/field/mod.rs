//! Field arithmetic behind the permutation.
//!
//! Three traits, split by who needs what:
//! - [`Field`]: exactly the operations the permutation runs (add, double, square, mul, the S-box
//!   `x^d` as a fixed multiplication chain, constants, `from_u64`). A field brings its fastest
//!   arithmetic by implementing it; the permutation never calls a generic `pow`. The linear
//!   layers are not here: they belong to the permutation layer (`LinearLayers` in module `linear`,
//!   whose defaults run on these operations).
//! - [`PrimeField`]: what parameter generation, the security check and the byte API need on top
//!   (subtraction, inversion, the modulus, canonical byte encodings). Not on any hot path.
//! - [`Representation`]: how elements are stored, for the SIMD batch backends (hidden, sealed
//!   hooks; every item defaulted, so another crate's field writes an empty impl).
//!
//! Implementations: every ark-ff 0.6 prime field `Fp<P, N>` ([`ark`] module), and the
//! Goldilocks field's two types ([`goldilocks`], also at `fast_poseidon2::goldilocks`), the
//! Stark field [`stark252::Felt252`] (an ark-ff field, also at `fast_poseidon2::stark252`), and
//! the 31-bit Montgomery fields [`babybear::BabyBear`] and [`koalabear::KoalaBear`] (one
//! implementation, [`monty31::Monty31`]; also at `fast_poseidon2::babybear` and
//! `fast_poseidon2::koalabear`).

pub mod ark;
pub mod babybear;
// Internal-diagonal entries compiled into the code, classified by how a field multiplies by them.
pub(crate) mod diagonal;
pub mod goldilocks;
// What the SIMD batch kernels read of a field (its data per kernel family, round constants in
// kernel form): compiled where the kernels are.
#[cfg(fast_poseidon2_simd)]
pub(crate) mod kernel_form;
pub mod koalabear;
pub(crate) mod montgomery;
pub mod monty31;
mod representation;
pub mod stark252;
// The field layer's one module allowed `unsafe`: the MULX/ADX products and the assembly
// addition of `montgomery`, and the Goldilocks reductions and addition of `goldilocks::fast`,
// compiled where the SIMD backends are (x86_64, `std`, not Miri, not
// forced portable); each block has a `// SAFETY:` comment.
#[cfg(fast_poseidon2_simd)]
#[allow(unsafe_code)]
mod mulx_adx;

use core::fmt::Debug;

pub use representation::Representation;

/// The arithmetic the Poseidon2 permutation needs, and nothing more.
///
/// Values may be held in any internal form (Montgomery, lazily reduced), but `==` must compare
/// field elements, not representations. What a SIMD batch backend needs to know about that form
/// is the supertrait [`Representation`] (a field implemented outside this crate writes an empty
/// impl of it and runs batches on the portable path).
pub trait Field: Representation + Copy + Eq + Debug + Send + Sync + 'static {
    /// The additive identity.
    const ZERO_ELEMENT: Self;
    /// The multiplicative identity.
    const ONE_ELEMENT: Self;

    /// The field element `v mod p`.
    fn from_u64(v: u64) -> Self;
    /// `self + rhs`.
    fn add(self, rhs: Self) -> Self;
    /// `2 * self`.
    fn doubled(self) -> Self;
    /// `self * self`.
    fn squared(self) -> Self;
    /// `self * rhs`.
    fn mul(self, rhs: Self) -> Self;

    /// The S-box `x^D` as a fixed chain of squarings and multiplications.
    ///
    /// `D` must be 3, 5, 7 or 11; any other value is a compile-time error.
    /// Chains: `x^3 = x^2 x`, `x^5 = (x^2)^2 x`, `x^7 = (x^2)^2 (x^2 x)`,
    /// `x^11 = ((x^2)^2)^2 (x^2 x)`.
    #[inline(always)]
    fn sbox<const D: u64>(self) -> Self {
        sbox_chain::<Self, D>(self)
    }

    /// `(self + c)^D`: one round step (round constant, then S-box; paper section 5), with the
    /// default computing exactly that. A field overrides it only with a faster computation of
    /// the same value, e.g. one that feeds the unreduced sum into its S-box chain.
    ///
    /// `D` must be 3, 5, 7 or 11, as for [`Field::sbox`].
    #[inline(always)]
    fn add_sbox<const D: u64>(self, c: Self) -> Self {
        self.add(c).sbox::<D>()
    }

    /// A full round's step on one element, beside the `t - 1` others of the round (which the
    /// compiler may vectorize): [`Field::add_sbox`] with `Some(c)`, [`Field::sbox`] with `None`
    /// (the round constant already added). A field overrides it only with a form of the same
    /// value that compiles to faster vector code. Sealed: the round driver's hook.
    #[doc(hidden)]
    #[inline(always)]
    fn sbox_in_full_round<const D: u64>(self, c: Option<Self>, _: Sealed) -> Self {
        match c {
            Some(c) => self.add_sbox::<D>(c),
            None => self.sbox::<D>(),
        }
    }
}

mod sealed {
    /// The argument of [`super::Representation`]'s hidden batch-backend hooks. It is public but cannot be
    /// named or made outside this crate, so other crates can neither call those hooks (some
    /// build elements from unchecked representations) nor override them: a field implemented
    /// elsewhere keeps the defaults and the portable batch path.
    #[derive(Clone, Copy, Debug)]
    pub struct Sealed(pub(crate) ());
}

pub(crate) use sealed::Sealed;

/// What the S-box chains need: squaring and multiplication. Every [`Field`] has them; a SIMD
/// batch backend implements it for a vector of field elements, so both run [`sbox_chain`]. (A
/// trait rather than closures: a closure is compiled as a function of its own, which a backend's
/// `#[target_feature]` kernel would call instead of inlining.)
pub(crate) trait SboxOps: Copy {
    /// `self * self`.
    fn sbox_square(self) -> Self;
    /// `self * rhs`.
    fn sbox_mul(self, rhs: Self) -> Self;
    /// `self * rhs` as the last step of a chain: [`SboxOps::sbox_mul`] unless a backend leaves
    /// the chain's result in a form of its own, which its caller then reads (the 31-bit batch
    /// kernel keeps each product where the multiplication put it).
    #[inline(always)]
    fn sbox_mul_last(self, rhs: Self) -> Self {
        self.sbox_mul(rhs)
    }
}

impl<F: Field> SboxOps for F {
    #[inline(always)]
    fn sbox_square(self) -> Self {
        self.squared()
    }
    #[inline(always)]
    fn sbox_mul(self, rhs: Self) -> Self {
        self.mul(rhs)
    }
}

/// `x^D` by the chains of [`Field::sbox`].
///
/// `D` must be 3, 5, 7 or 11; any other value is a compile-time error.
#[inline(always)]
pub(crate) fn sbox_chain<T: SboxOps, const D: u64>(x: T) -> T {
    const { assert!(is_supported_degree(D), "S-box degree must be 3, 5, 7 or 11") };
    let x2 = x.sbox_square();
    match D {
        3 => x2.sbox_mul_last(x),
        5 => x2.sbox_square().sbox_mul_last(x),
        7 => x2.sbox_square().sbox_mul_last(x2.sbox_mul(x)),
        _ => x2.sbox_square().sbox_square().sbox_mul_last(x2.sbox_mul(x)),
    }
}

/// Whether `x^d` has a fixed chain here (`d` in 3, 5, 7, 11): the one rule [`Field::sbox`] and
/// [`crate::params::check_shape`] both enforce.
pub const fn is_supported_degree(d: u64) -> bool {
    matches!(d, 3 | 5 | 7 | 11)
}

/// A prime field with the operations parameter generation and the byte API need.
///
/// `BYTES` is the canonical encoding length (`ceil(log2(p) / 8)`), at most
/// [`MAX_FIELD_BYTES`] (the crate's buffers are that long; the ark-ff implementation rejects
/// larger fields at compile time); encodings are of the canonical integer in `[0, p)`.
pub trait PrimeField: Field {
    /// Bit length `n` of the modulus `p` (254 for BN254, 255 for BLS12-381, 64 for Goldilocks).
    const MODULUS_BITS: u32;
    /// Length in bytes of the canonical encoding.
    const BYTES: usize;

    /// `self - rhs`.
    fn sub(self, rhs: Self) -> Self;
    /// `-self`.
    fn neg(self) -> Self {
        Self::ZERO_ELEMENT.sub(self)
    }
    /// `self^-1`, or `None` for zero.
    fn inverted(self) -> Option<Self>;

    /// Writes the modulus `p` big-endian into `out[..Self::BYTES]`.
    ///
    /// # Panics
    /// If `out` is shorter than `Self::BYTES` (internal callers size it correctly).
    fn write_modulus_be(out: &mut [u8]);

    /// The element encoded by exactly `Self::BYTES` big-endian bytes, or `None` if the length is
    /// wrong or the integer is `>= p` (never reduced).
    fn from_canonical_be_bytes(bytes: &[u8]) -> Option<Self>;

    /// The integer encoded big-endian by `bytes` (any length; the empty slice is 0), reduced mod p.
    fn from_be_bytes_reduced(bytes: &[u8]) -> Self;

    /// Writes the canonical integer big-endian into `out[..Self::BYTES]`.
    ///
    /// # Panics
    /// If `out` is shorter than `Self::BYTES` (internal callers size it correctly).
    fn write_canonical_be_bytes(self, out: &mut [u8]);

    /// `x^e` by square-and-multiply. Used off the hot path only (generation, tests).
    fn pow_u64(self, mut e: u64) -> Self {
        let mut base = self;
        let mut acc = Self::ONE_ELEMENT;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(base);
            }
            base = base.squared();
            e >>= 1;
        }
        acc
    }
}

/// The largest canonical encoding any supported field uses, in bytes (stack buffers size by it).
pub const MAX_FIELD_BYTES: usize = 64;
