//! [Plonky3](https://github.com/Plonky3/Plonky3) 0.8.0's permutation traits for the
//! [`instances::plonky3`](crate::instances::plonky3) permutations: [`Plonky3Poseidon2`]
//! implements `p3_symmetric::Permutation<[F; t]>` and `CryptographicPermutation<[F; t]>` on
//! Plonky3's own field types (`p3_baby_bear::BabyBear`, `p3_koala_bear::KoalaBear`,
//! `p3_goldilocks::Goldilocks`, and their packed types), so Plonky3's `PaddingFreeSponge`,
//! `TruncatedPermutation` and `p3-merkle-tree`'s `MerkleTreeMmcs` run on this crate's
//! permutations and give Plonky3's outputs bit for bit (the tests compare them with
//! `default_babybear_poseidon2_16()` and the other six on random states, sponges,
//! compressions and MMCS commitments).
//!
//! | const | type | Plonky3's own |
//! |---|---|---|
//! | [`BABYBEAR_T16`] | [`BabyBearT16`] | `p3_baby_bear::default_babybear_poseidon2_16()` |
//! | [`BABYBEAR_T24`] | [`BabyBearT24`] | `p3_baby_bear::default_babybear_poseidon2_24()` |
//! | [`KOALABEAR_T16`] | [`KoalaBearT16`] | `p3_koala_bear::default_koalabear_poseidon2_16()` |
//! | [`KOALABEAR_T24`] | [`KoalaBearT24`] | `p3_koala_bear::default_koalabear_poseidon2_24()` |
//! | [`GOLDILOCKS_T8`] | [`GoldilocksT8`] | `p3_goldilocks::default_goldilocks_poseidon2_8()` |
//! | [`GOLDILOCKS_T12`] | [`GoldilocksT12`] | `p3_goldilocks::default_goldilocks_poseidon2_12()` |
//! | [`GOLDILOCKS_T16`] | [`GoldilocksT16`] | `p3_goldilocks::default_goldilocks_poseidon2_16()` |
//!
//! Each needs its field's feature (`babybear`, `koalabear`, `goldilocks`) beside `p3`. The values
//! are `const`, 8 bytes (a `&'static` to the permutation's constants), `Copy`, `Send` and
//! `Sync`; [`Plonky3Poseidon2::new`] wraps any other `'static` [`Poseidon2Ct`] on these three
//! fields (e.g. the Horizen Labs BabyBear instances, which are different permutations).
//!
//! # The boundary
//! Each call converts the state into this crate's field, permutes, and converts back; the
//! conversions are exact (the same field element on both sides) and constant time:
//! - BabyBear, KoalaBear: both crates store `x · 2^32 mod p` in `[0, p)`, and both directions
//!   copy that word. Plonky3 to ours reads it with Plonky3's `to_unique_u32`, which returns it;
//!   ours to Plonky3 goes through Plonky3's `Deserialize`, which takes the stored word and checks
//!   it is below `p` (Plonky3 0.8 has no public constructor from the word; the fallback, never
//!   taken, is the canonical integer through Plonky3's `from_u32`). The tests check both
//!   directions against the canonical integers for edge and random elements.
//! - Goldilocks: ours to Plonky3 copies the `u64` (both accept any `u64` as a lazy
//!   representation); Plonky3 to ours takes `as_canonical_u64` (one conditional subtraction).
//!
//! Cost: `2t` such conversions per call, below the noise of a shared machine next to the
//! permutation itself (`cargo bench --bench permutation --features p3 -- plonky3_adapter`;
//! numbers in `docs/adapters.md`).
//!
//! Packed states (`[PackedBabyBearAVX512; 16]` and the like, which Plonky3's `MerkleTreeMmcs`
//! uses for its `Val::Packing` configurations) are converted lane by lane into consecutive
//! states and permuted as one batch (`Poseidon2Ct::permute_batch`): on the SIMD kernel of the
//! field when the CPU has one, whatever the build's target features; a plain field is
//! permuted alone with the scalar permutation.
//!
//! ```
//! # #[cfg(feature = "babybear")] {
//! use fast_poseidon2::adapters::plonky3::{BABYBEAR_T16, BabyBearT16};
//! use p3_baby_bear::BabyBear;
//! use p3_field::PrimeCharacteristicRing;
//! use p3_symmetric::{
//!     CryptographicHasher, PaddingFreeSponge, Permutation, PseudoCompressionFunction,
//!     TruncatedPermutation,
//! };
//!
//! // Plonky3's standard BabyBear hash and compression, on this crate's permutation.
//! type Perm = BabyBearT16;
//! type Hash = PaddingFreeSponge<Perm, 16, 8, 8>;
//! type Compress = TruncatedPermutation<Perm, 2, 8, 16>;
//! let hash = Hash::new(BABYBEAR_T16);
//! let compress = Compress::new(BABYBEAR_T16);
//!
//! let leaf: Vec<BabyBear> = (0..20u32).map(BabyBear::from_u32).collect();
//! let digest: [BabyBear; 8] = hash.hash_iter(leaf.iter().copied());
//! let node = compress.compress([digest, digest]);
//!
//! // The same as Plonky3's own permutation.
//! let theirs = p3_baby_bear::default_babybear_poseidon2_16();
//! let state: [BabyBear; 16] = core::array::from_fn(|i| BabyBear::from_usize(i));
//! assert_eq!(BABYBEAR_T16.permute(state), theirs.permute(state));
//! assert_eq!(node, TruncatedPermutation::<_, 2, 8, 16>::new(theirs).compress([digest, digest]));
//! # }
//! ```

use core::fmt;

use p3_field::PackedValue;
use p3_symmetric::{CryptographicPermutation, Permutation};

use crate::field::Field;
use crate::field::goldilocks::GoldilocksFast;
use crate::field::monty31::{Monty31, Monty31Modulus};
use crate::poseidon2::ct::Poseidon2Ct;
use crate::poseidon2::linear::LinearLayers;

/// A field of this crate with a Plonky3 0.8 twin ([`Plonky3Poseidon2`]'s boundary; module docs):
/// [`crate::babybear::BabyBear`] (`p3_baby_bear::BabyBear`), [`crate::koalabear::KoalaBear`]
/// (`p3_koala_bear::KoalaBear`), [`GoldilocksFast`] (`p3_goldilocks::Goldilocks`).
pub trait Plonky3Field: Field + LinearLayers {
    /// Plonky3's type for the same field.
    type P3: p3_field::PrimeField64 + p3_field::Packable;

    /// The same element as Plonky3's type.
    fn to_p3(self) -> Self::P3;

    /// The same element as this crate's type.
    fn from_p3(x: Self::P3) -> Self;
}

/// Ties a [`Monty31`] modulus to Plonky3's type of the same field.
pub trait Plonky3Monty31Modulus: Monty31Modulus {
    /// Plonky3's `MontyField31` for this modulus (its `Deserialize` takes the stored word).
    type P3: p3_field::PrimeField32 + p3_field::Packable + for<'de> serde::Deserialize<'de>;
}

impl Plonky3Monty31Modulus for crate::field::babybear::BabyBearModulus {
    type P3 = p3_baby_bear::BabyBear;
}

impl Plonky3Monty31Modulus for crate::field::koalabear::KoalaBearModulus {
    type P3 = p3_koala_bear::KoalaBear;
}

impl<M: Plonky3Monty31Modulus> Plonky3Field for Monty31<M> {
    type P3 = M::P3;

    /// The stored word, copied: Plonky3 0.8 has no public constructor from it, but its
    /// `MontyField31` deserialises the stored word (a `u32` from a human-readable format,
    /// accepted when `< p`, which ours always is). Should that ever fail, the canonical integer
    /// through Plonky3's `from_u32` gives the same element (a Montgomery reduction and a `%`).
    #[inline(always)]
    fn to_p3(self) -> M::P3 {
        use serde::de::IntoDeserializer;
        let word: serde::de::value::U32Deserializer<serde::de::value::Error> =
            self.word().into_deserializer();
        <M::P3 as serde::Deserialize>::deserialize(word).unwrap_or_else(|_| {
            p3_field::PrimeCharacteristicRing::from_u32(self.to_canonical_u32())
        })
    }

    /// A copy of the Montgomery word: Plonky3 0.8's `to_unique_u32` on a `MontyField31` returns
    /// its stored `x · 2^32 mod p` in `[0, p)`, this crate's representation of the same `x`.
    #[inline(always)]
    fn from_p3(x: M::P3) -> Self {
        Monty31::from_monty(p3_field::PrimeField32::to_unique_u32(&x))
    }
}

impl Plonky3Field for GoldilocksFast {
    type P3 = p3_goldilocks::Goldilocks;

    /// A copy of the `u64` (any `u64` is a valid representation on both sides).
    #[inline(always)]
    fn to_p3(self) -> p3_goldilocks::Goldilocks {
        p3_goldilocks::Goldilocks::new(self.0)
    }

    #[inline(always)]
    fn from_p3(x: p3_goldilocks::Goldilocks) -> Self {
        GoldilocksFast::new(p3_field::PrimeField64::as_canonical_u64(&x))
    }
}

/// The most lanes of a Plonky3 packed state [`Plonky3Poseidon2`] permutes in one batch call
/// (Plonky3 0.8's widest packing, 16 lanes: `PackedBabyBearAVX512`); wider packed types are
/// taken in pieces of this many lanes.
pub const PACKED_LANES: usize = 16;

/// A permutation of this crate as Plonky3's `Permutation<[X; t]>` and
/// `CryptographicPermutation<[X; t]>`, for `X` Plonky3's type of the permutation's field or any
/// of its packed types (module docs). Holds a `&'static P`: 8 bytes, `Copy`, `const`.
///
/// `P` is a [`Poseidon2Ct<F, t, R_F, R_P, d>`](Poseidon2Ct) with `F: `[`Plonky3Field`]; the
/// consts of this module wrap the `instances::plonky3` permutations.
pub struct Plonky3Poseidon2<P: 'static>(&'static P);

impl<P: 'static> Plonky3Poseidon2<P> {
    /// Wraps `permutation` (for a `const`: `Plonky3Poseidon2::new(&SOME_CONST)`).
    pub const fn new(permutation: &'static P) -> Self {
        Plonky3Poseidon2(permutation)
    }

    /// The wrapped permutation (this crate's API: batches, sponges, ...).
    pub const fn inner(&self) -> &'static P {
        self.0
    }
}

// Not derived: a derive would ask `P: Clone` / `P: Copy`.
impl<P: 'static> Clone for Plonky3Poseidon2<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: 'static> Copy for Plonky3Poseidon2<P> {}

impl<P: fmt::Debug + 'static> fmt::Debug for Plonky3Poseidon2<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Plonky3Poseidon2").field(self.0).finish()
    }
}

impl<F, X, const T: usize, const RF: usize, const RP: usize, const D: u64> Permutation<[X; T]>
    for Plonky3Poseidon2<Poseidon2Ct<F, T, RF, RP, D>>
where
    F: Plonky3Field,
    X: PackedValue<Value = F::P3>,
{
    /// A plain field (one lane): converted, permuted by the wrapped permutation and converted
    /// back. A packed type: its lanes, up to [`PACKED_LANES`] at a time, converted into
    /// consecutive states and permuted as one batch (`permute_batch`, the SIMD kernel of the
    /// field when the CPU has one), then converted back.
    #[inline]
    fn permute_mut(&self, state: &mut [X; T]) {
        if X::WIDTH == 1 {
            let mut ours: [F; T] = core::array::from_fn(|i| F::from_p3(state[i].extract(0)));
            self.0.permute_mut(&mut ours);
            for (x, y) in state.iter_mut().zip(ours) {
                x.as_slice_mut()[0] = y.to_p3();
            }
            return;
        }
        let mut lanes = [[F::ZERO_ELEMENT; T]; PACKED_LANES];
        for first in (0..X::WIDTH).step_by(PACKED_LANES) {
            let lanes = &mut lanes[..PACKED_LANES.min(X::WIDTH - first)];
            for (l, ours) in lanes.iter_mut().enumerate() {
                *ours = core::array::from_fn(|i| F::from_p3(state[i].extract(first + l)));
            }
            self.0.permute_batch(lanes);
            for (l, ours) in lanes.iter().enumerate() {
                for (x, y) in state.iter_mut().zip(ours) {
                    x.as_slice_mut()[first + l] = y.to_p3();
                }
            }
        }
    }
}

impl<F, X, const T: usize, const RF: usize, const RP: usize, const D: u64>
    CryptographicPermutation<[X; T]> for Plonky3Poseidon2<Poseidon2Ct<F, T, RF, RP, D>>
where
    F: Plonky3Field,
    X: PackedValue<Value = F::P3>,
{
}

/// Declares each instance's type alias and `const` (docs from the arguments).
macro_rules! plonky3_permutations {
    ($(($feature:literal, $alias:ident, $const:ident, $instance:ident, $p3_fn:literal)),* $(,)?) => {
        $(
            #[cfg(feature = $feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = $feature)))]
            #[doc = concat!("[`instances::plonky3::", stringify!($instance),
                "`](crate::instances::plonky3::", stringify!($instance), ") as Plonky3's ",
                "`Permutation`: the permutation of `", $p3_fn, "`.")]
            pub type $alias = Plonky3Poseidon2<crate::instances::plonky3::$instance>;

            #[cfg(feature = $feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = $feature)))]
            #[doc = concat!("[`instances::plonky3::ct::", stringify!($const),
                "`](crate::instances::plonky3::ct::", stringify!($const), ") as Plonky3's ",
                "`Permutation` (equal to `", $p3_fn, "`); a `const`, nothing to build.")]
            pub const $const: $alias = Plonky3Poseidon2::new(&crate::instances::plonky3::ct::$const);
        )*
    };
}

plonky3_permutations! {
    ("babybear", BabyBearT16, BABYBEAR_T16, Plonky3BabyBearT16, "p3_baby_bear::default_babybear_poseidon2_16()"),
    ("babybear", BabyBearT24, BABYBEAR_T24, Plonky3BabyBearT24, "p3_baby_bear::default_babybear_poseidon2_24()"),
    ("koalabear", KoalaBearT16, KOALABEAR_T16, Plonky3KoalaBearT16, "p3_koala_bear::default_koalabear_poseidon2_16()"),
    ("koalabear", KoalaBearT24, KOALABEAR_T24, Plonky3KoalaBearT24, "p3_koala_bear::default_koalabear_poseidon2_24()"),
    ("goldilocks", GoldilocksT8, GOLDILOCKS_T8, Plonky3GoldilocksT8, "p3_goldilocks::default_goldilocks_poseidon2_8()"),
    ("goldilocks", GoldilocksT12, GOLDILOCKS_T12, Plonky3GoldilocksT12, "p3_goldilocks::default_goldilocks_poseidon2_12()"),
    ("goldilocks", GoldilocksT16, GOLDILOCKS_T16, Plonky3GoldilocksT16, "p3_goldilocks::default_goldilocks_poseidon2_16()"),
}
