//! Hashing modes built on the permutation: Merkle compression (`compress`, `compress_digests`),
//! the length-declared sponge ([`Sponge`], `hash`, `hash_into`) and the message hash of any
//! byte string (`hash_message`, [`message`]).
//!
//! # Security: one rule for every field
//! The modes target 128-bit security. A field of `n = MODULUS_BITS` bits carries
//! [`REQUIRED_BITS`] (248) bits in [`security_elements`]`(n) = ceil(248 / n)` elements, and that
//! one number is both the sponge capacity `c` every mode needs and the digest length `D` (in
//! elements) of every digest the modes return:
//!
//! | field | `n` | `c = D` | byte API rate at t = 8, 12, 16, 20 |
//! |---|---|---|---|
//! | BN254, BLS12-381 | 254, 255 | 1 | `t - 1` |
//! | Goldilocks | 64 | 4 | 4, 8, 12, 16 |
//! | a 31-bit field (BabyBear, KoalaBear) | 31 | 8 | `t - 8` |
//!
//! A sponge rate that leaves fewer than `c` capacity elements is
//! [`crate::Error::InsufficientCapacity`]; a single-element digest on a field with `D > 1` is not
//! offered (`compress` and `merkle_root` on such fields: a compile-time error on the
//! const-generic types, [`crate::Error::DigestTooShort`] on the runtime-width ones), and a sponge
//! output of fewer than `D` elements is [`crate::Error::DigestTooShort`].
//!
//! # Merkle compression
//! A node is a digest of `D` elements. [`merkle_arity`] children are written one after the other
//! into a zero state, the state is permuted, and the node is its first `D` elements:
//! - `D = 1` (BN254, BLS12-381): `t - 1` children, `perm(x_0 ‖ .. ‖ x_{t-2} ‖ 0)[0]`, the
//!   reference's `MerkleTreeHash::compress` at t = 3;
//! - `D > 1` (Goldilocks): 2 children, `perm(l ‖ r ‖ 0 …)[..D]`, the rule of Plonky3's
//!   `TruncatedPermutation<_, 2, D, t>`; it needs `t >= 2D`.
//!
//! # Domain separation: the capacity's starting value
//! Every sponge mode starts from a zero rate and a capacity holding one integer `v`, written in
//! base `2^b`, `b = min(n - 1, 128)` (one element on BN254 and BLS12-381); no two share one:
//!
//! | mode | `v` |
//! |---|---|
//! | sponge `hash` of `len >= 1` elements to `out` elements (and the byte API) | `len · 2^64 + (out - 1)`: low 64 bits at most `2^64 - 2` |
//! | `hash_message` of `L` bytes ([`message`]) | `L · 2^64 + (2^64 - 1)`: low 64 bits all ones |
//! | the arkworks duplex sponge (feature `arkworks`) | 1 |
//!
//! The Merkle compression keeps zero lanes instead (`v = 0` on BN254 and BLS12-381; on
//! Goldilocks the children may fill the whole state, and the truncation is the capacity).
//!
//! Every permutation type of both families (Poseidon2: [`crate::poseidon2::ct::Poseidon2Ct`],
//! [`crate::Poseidon2`]; Poseidon1: [`crate::poseidon1::ct::Poseidon1Ct`],
//! [`crate::poseidon1::Poseidon1`], e.g. the Stark field's instances) runs every mode through the
//! small [`Permutation`] trait, so each mode is written once, and gets the same methods (`hash`,
//! `compress`, `hashv_bytes`, `hash_message`, `permute_batch`, `merkle_root`, ...). The
//! const-generic types keep their state in `[F; T]`, the runtime-width ones in a
//! `[F; MAX_WIDTH]` stack buffer of which the first `t` elements are used. Neither allocates. The batch modes run on its supertrait [`BatchPermutation`], which the
//! SIMD layer implements for both types: this module imports nothing from it.

/// Invokes `$mode!($ct, $runtime, [$bound])` once per permutation family: Poseidon2
/// (`Poseidon2Ct`, `Poseidon2`) and Poseidon1 (`Poseidon1Ct`, `Poseidon1`), `$ct` written over
/// the generic parameters `<F, T, RF, RP, D>`, `$bound` the bound on `F` the family's
/// permutation needs. Every mode's methods are written once, in one macro per mode, and added to
/// all four types through this list.
macro_rules! for_each_family {
    ($mode:ident) => {
        $mode!(
            crate::poseidon2::ct::Poseidon2Ct<F, T, RF, RP, D>,
            crate::Poseidon2<F>,
            [crate::field::Field + crate::poseidon2::linear::LinearLayers]
        );
        $mode!(
            crate::poseidon1::ct::Poseidon1Ct<F, T, RF, RP, D>,
            crate::poseidon1::Poseidon1<F>,
            [crate::field::Field]
        );
    };
}
use for_each_family;

pub(crate) mod batch;
pub mod bytes;
pub(crate) mod compress;
#[cfg(feature = "alloc")]
pub mod merkle;
pub mod message;
pub(crate) mod sponge;

pub use message::message_chunk_bytes;
pub use sponge::Sponge;

use crate::Error;
use crate::field::{Field, PrimeField};
use crate::poseidon2::batch_cache::BatchBackend;

/// The bits of sponge capacity, and of every digest, the modes require: 128-bit security (a
/// 254-bit element counts as one; `2 · 124`, so that one BN254 or BLS12-381 element suffices, as
/// in Noir, Barretenberg and the reference's Merkle compression).
pub const REQUIRED_BITS: u32 = 248;

/// `ceil(REQUIRED_BITS / modulus_bits)`: the capacity `c` and the digest length `D`, in elements,
/// of a field with a `modulus_bits`-bit modulus (1 for BN254 and BLS12-381, 4 for Goldilocks, 8
/// for a 31-bit field). The one rule every mode uses; see the module docs.
///
/// `modulus_bits = 0` (no field) gives `usize::MAX`, which no width can meet.
///
/// ```
/// use fast_poseidon2::modes::security_elements;
/// assert_eq!(security_elements(254), 1);
/// assert_eq!(security_elements(64), 4);
/// assert_eq!(security_elements(31), 8);
/// ```
pub const fn security_elements(modulus_bits: u32) -> usize {
    if modulus_bits == 0 {
        return usize::MAX;
    }
    REQUIRED_BITS.div_ceil(modulus_bits) as usize
}

/// [`security_elements`] of `F`: its digest length `D` and required capacity `c`.
pub const fn digest_len<F: PrimeField>() -> usize {
    security_elements(F::MODULUS_BITS)
}

/// Writes the integer `v` into `lanes` in base `2^b`, `b = min(MODULUS_BITS - 1, 128)`, least
/// significant digit first; every digit is below `2^(n-1) < p`, so distinct `v` that fit give
/// distinct lane values. The sponge's initial value and the Merkle leaf-count digest use it.
///
/// Callers give room for every digit (`debug_assert`ed): `lanes.len() · b >= bits(v)`.
pub(crate) fn write_digits<F: PrimeField>(lanes: &mut [F], mut v: u128) {
    let digit_bits = (F::MODULUS_BITS.max(2) - 1).min(128);
    let two_64 = F::from_u64(1 << 32).squared();
    for lane in lanes.iter_mut() {
        let digit = if digit_bits == 128 {
            core::mem::take(&mut v)
        } else {
            let digit = v & ((1 << digit_bits) - 1);
            v >>= digit_bits;
            digit
        };
        // `digit mod p`, with `2^64` as `(2^32)^2` so that it is exact in any field.
        *lane = F::from_u64((digit >> 64) as u64)
            .mul(two_64)
            .add(F::from_u64(digit as u64));
    }
    debug_assert_eq!(v, 0, "the lanes hold every digit");
}

/// The number of children one Merkle compression of width `t` takes, for digests of `digest`
/// elements: `t - 1` if `digest = 1` (for `t >= 2`), 2 if `digest > 1` and `t >= 2 · digest`;
/// `None` for shapes that have no compression.
///
/// ```
/// use fast_poseidon2::modes::merkle_arity;
/// assert_eq!(merkle_arity(3, 1), Some(2));
/// assert_eq!(merkle_arity(4, 1), Some(3));
/// assert_eq!(merkle_arity(12, 4), Some(2));
/// assert_eq!(merkle_arity(6, 4), None);
/// ```
pub const fn merkle_arity(t: usize, digest: usize) -> Option<usize> {
    match digest {
        0 => None,
        1 if t >= 2 => Some(t - 1),
        1 => None,
        _ if digest <= t / 2 => Some(2),
        _ => None,
    }
}

mod sealed {
    /// Keeps [`super::Permutation`] and [`super::BatchPermutation`] implemented by this crate's
    /// permutation types only.
    pub trait Sealed {}
}

/// A permutation as the modes see it: a width `t` and an in-place permutation of a stack-held
/// state. Implemented by both families' types, [`crate::poseidon2::ct::Poseidon2Ct`] and
/// [`crate::Poseidon2`] (Poseidon2), [`crate::poseidon1::ct::Poseidon1Ct`] and [`crate::poseidon1::Poseidon1`]
/// (Poseidon1); sealed. Every implementor also permutes many states at once
/// ([`BatchPermutation`], its supertrait). The modes built on it (sponge, compression, Merkle
/// trees, byte API) are this crate's constructions on either family; circom's hash is
/// [`crate::instances::circom_bn254::hash`], not the sponge over a Poseidon1 instance.
pub trait Permutation: sealed::Sealed + BatchPermutation<<Self as Permutation>::Field> {
    /// The field the permutation runs over.
    type Field: Field;
    /// The state buffer: `[F; T]` for the const-generic types, `[F; MAX_WIDTH]` for the
    /// runtime-width ones. Only the first [`Permutation::width`] elements are the state.
    type State: Copy + core::fmt::Debug + AsRef<[Self::Field]> + AsMut<[Self::Field]>;

    /// The width `t`, at most the state buffer's length.
    fn width(&self) -> usize;

    /// An all-zero state buffer.
    fn zero_state(&self) -> Self::State;

    /// Permutes the first `t` elements of `state` in place.
    fn permute_state(&self, state: &mut Self::State);
}

/// The batch half of a [`Permutation`] over the field `F`: many width-`t` states at once.
/// Implemented by the same four types; sealed. Poseidon2 batches run on the fastest batch
/// backend of the CPU ([`crate::batch_backend`]); Poseidon1 batches on the AVX-512 IFMA kernel
/// when that is the backend (BN254, BLS12-381), else on the portable path (the Goldilocks
/// kernels do not have its round structure). The modes' batch methods (`permute_batch`,
/// `compress_batch`, Merkle roots, `MerkleBuilder`) run on it.
pub trait BatchPermutation<F>: sealed::Sealed {
    /// Permutes every width-`t` state of the flat buffer `states` (state `i` is
    /// `states[i * t..(i + 1) * t]`; any number of states, 0 included), across threads with the
    /// `parallel` feature.
    ///
    /// # Errors
    /// [`Error::InvalidBatchLength`] if `states.len()` is not a multiple of `t`; nothing is
    /// permuted then.
    fn permute_states(&self, states: &mut [F]) -> Result<(), Error> {
        let t = self.batch_width();
        if !states.len().is_multiple_of(t) {
            return Err(Error::InvalidBatchLength {
                len: states.len(),
                width: t,
            });
        }
        self.permute_whole_states(states);
        Ok(())
    }

    /// The width `t` of the states [`Self::permute_states`] takes.
    #[doc(hidden)]
    fn batch_width(&self) -> usize;

    /// [`Self::permute_states`] for a buffer the caller knows to hold whole states (any
    /// trailing partial state is left untouched).
    #[doc(hidden)]
    fn permute_whole_states(&self, states: &mut [F]);

    /// Testing hook: [`Self::permute_states`] on `backend` instead of the best one. Returns
    /// `false`, and permutes nothing, if `backend` does not run `F` on this CPU and build.
    #[doc(hidden)]
    fn permute_states_on(&self, backend: BatchBackend, states: &mut [F]) -> bool;
}

/// [`Permutation`] for one family's two permutation types: `$ct`, const-generic over
/// `<F, T, RF, RP, D>` with state `[F; T]`, and `$runtime`, runtime width with state
/// `[F; MAX_WIDTH]` (its `permute_exact` takes the first `t` elements), `F` bounded by `$bound`.
macro_rules! family_permutations {
    ($ct:ty, $runtime:ty, [$($bound:tt)+]) => {
        impl<F, const T: usize, const RF: usize, const RP: usize, const D: u64> sealed::Sealed
            for $ct
        {
        }

        impl<F: $($bound)+, const T: usize, const RF: usize, const RP: usize, const D: u64>
            Permutation for $ct
        {
            type Field = F;
            type State = [F; T];

            #[inline]
            fn width(&self) -> usize {
                T
            }

            #[inline]
            fn zero_state(&self) -> [F; T] {
                [F::ZERO_ELEMENT; T]
            }

            #[inline]
            fn permute_state(&self, state: &mut [F; T]) {
                self.permute_mut(state);
            }
        }

        #[cfg(feature = "alloc")]
        impl<F> sealed::Sealed for $runtime {}

        #[cfg(feature = "alloc")]
        impl<F: $($bound)+> Permutation for $runtime {
            type Field = F;
            type State = [F; crate::MAX_WIDTH];

            #[inline]
            fn width(&self) -> usize {
                <$runtime>::width(self)
            }

            #[inline]
            fn zero_state(&self) -> [F; crate::MAX_WIDTH] {
                [F::ZERO_ELEMENT; crate::MAX_WIDTH]
            }

            #[inline]
            fn permute_state(&self, state: &mut [F; crate::MAX_WIDTH]) {
                // Parameters are validated on construction: 2 <= t <= MAX_WIDTH.
                self.permute_exact(&mut state[..self.width()]);
            }
        }
    };
}

for_each_family!(family_permutations);
