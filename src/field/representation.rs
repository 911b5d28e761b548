//! How a field's elements are stored, as far as a SIMD batch backend needs to know: the one
//! trait [`Representation`], kept apart from [`super::Field`] (which holds arithmetic only).

use super::Sealed;

/// What a SIMD batch backend needs to know about how elements are stored (the hooks of
/// `crate::simd`); a supertrait of [`super::Field`].
///
/// # Design
/// Every item is defaulted, hidden and, where it could break an invariant, sealed: the methods
/// take a `Sealed` argument that only this crate can name or make, so no other crate can call
/// them (some build elements from unchecked representations) or override them. A field
/// implemented elsewhere therefore writes the empty impl
///
/// ```
/// # #[derive(Clone, Copy, Debug, PartialEq, Eq)] struct MyField;
/// impl fast_poseidon2::field::Representation for MyField {}
/// ```
///
/// and stays on the portable batch path, with no `unsafe` exposure: a backend trusts a field
/// only when the sealed methods answer, which only this crate's own implementations (ark-ff's
/// `Fp`, `GoldilocksFast`, `Monty31`) do, and it re-checks their claim once (e.g. `ONE` must be stored
/// as `2^256 mod p`). The compile-time facts (the modulus limbs, the Goldilocks factor) are
/// associated consts, so a backend's per-field data costs nothing per call; overriding one of
/// them elsewhere changes nothing, since the methods still answer `None`.
///
/// A supertrait with an empty impl, rather than a blanket impl, because this crate's impls
/// differ per type (a blanket impl would need specialisation).
pub trait Representation: Sized {
    /// `Some(p)`, the modulus as four little-endian 64-bit limbs, if every element is stored as
    /// `x * 2^256 mod p` in four limbs, canonical (`< p`); `None` (the default) keeps the field
    /// off the four-limb Montgomery batch kernel.
    #[doc(hidden)]
    const MONTGOMERY_256_MODULUS: Option<[u64; 4]> = None;

    /// `Some(r)` if `Self` is the Goldilocks field (`p = 2^64 - 2^32 + 1`) with every element
    /// `x` stored as one `u64` congruent to `x * r` mod p (`r = 1`: plain, possibly lazily
    /// reduced; `r = 2^64 mod p`: Montgomery form); `None` (the default) keeps the field off
    /// the Goldilocks batch kernels.
    #[doc(hidden)]
    const GOLDILOCKS_FACTOR: Option<u64> = None;

    /// `Some(p)` if every element `x` is stored as one `u32`, `x * 2^32 mod p`, canonical
    /// (`< p`), for an odd `p` with `2^30 < p < 2^31` (BabyBear, KoalaBear); `None` (the
    /// default) keeps the field off the 31-bit Montgomery batch kernel.
    #[doc(hidden)]
    const MONTY31_MODULUS: Option<u32> = None;

    /// The four limbs of `self * 2^256 mod p`, when [`Self::MONTGOMERY_256_MODULUS`] is
    /// `Some`. Sealed.
    #[doc(hidden)]
    fn to_montgomery_256(self, _: Sealed) -> Option<[u64; 4]> {
        None
    }

    /// The element whose form `x * 2^256 mod p` has the limbs `limbs` (which must be `< p`:
    /// nothing checks it, hence sealed), when [`Self::MONTGOMERY_256_MODULUS`] is `Some`.
    #[doc(hidden)]
    fn from_montgomery_256(limbs: [u64; 4], _: Sealed) -> Option<Self> {
        let _ = limbs;
        None
    }

    /// The stored `u64` of `self` (any value congruent to `x * r` mod p), when
    /// [`Self::GOLDILOCKS_FACTOR`] is `Some(r)`. Sealed.
    #[doc(hidden)]
    fn to_goldilocks_word(self, _: Sealed) -> Option<u64> {
        None
    }

    /// The element stored as `word` (which must be `< p`: nothing checks it, hence sealed),
    /// when [`Self::GOLDILOCKS_FACTOR`] is `Some`.
    #[doc(hidden)]
    fn from_goldilocks_word(word: u64, _: Sealed) -> Option<Self> {
        let _ = word;
        None
    }

    /// The stored word `x * 2^32 mod p` of `self`, when [`Self::MONTY31_MODULUS`] is `Some(p)`.
    /// Sealed.
    #[doc(hidden)]
    fn to_monty31_word(self, _: Sealed) -> Option<u32> {
        None
    }

    /// The element stored as `word` (which must be `< p`: nothing checks it, hence sealed),
    /// when [`Self::MONTY31_MODULUS`] is `Some(p)`.
    #[doc(hidden)]
    fn from_monty31_word(word: u32, _: Sealed) -> Option<Self> {
        let _ = word;
        None
    }
}
