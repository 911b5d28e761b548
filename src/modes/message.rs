//! The message hash: any byte string (a file, a JSON leaf, the empty string) to one digest,
//! `hash_message` (32 bytes) and `hash_message_elements` (`D` elements), on every permutation
//! type of the crate. Unlike the byte API ([`crate::modes::bytes`], canonical field encodings
//! only) it accepts every byte string, and distinct byte strings are distinct inputs of the
//! sponge.
//!
//! # The encoding, exactly
//! For a field of `n = MODULUS_BITS` bits, digest length `D = ceil(248 / n)`
//! ([`crate::modes::digest_len`]), a width-`t` permutation and a message `m` of `L` bytes:
//! 1. **Chunks.** `k = floor((n - 1) / 8)` bytes per chunk ([`message_chunk_bytes`]: 31 on BN254
//!    and BLS12-381, 7 on Goldilocks). `m` is cut into `ceil(L / k)` chunks from its first byte
//!    on, each `k` bytes but the last, which has `1..=k`. Each chunk, read as a big-endian
//!    integer, is one field element `x_i < 2^(8k) <= 2^(n-1) < p` (never reduced). The empty
//!    message has no chunk.
//! 2. **Initial value.** The sponge of [`crate::modes::Sponge`] with rate `r = t - D` and
//!    capacity `D` (the 128-bit rule): the state is zero but the capacity, which holds the
//!    integer `v = L · 2^64 + (2^64 - 1)` written exactly as the sponge writes its initial value
//!    (base `2^b`, `b = min(n - 1, 128)`, least significant digit first from `state[r]` on: the
//!    single element `v` on BN254 and BLS12-381, three 63-bit digits on Goldilocks).
//! 3. **Absorb.** The elements `x_0, x_1, ..` are added `r` at a time into `state[0..]`, the
//!    state permuted after each full block of `r` and after the last, partial block. The empty
//!    message absorbs nothing and the state is permuted once (the same as absorbing one zero).
//! 4. **Squeeze.** `D` elements: `state[0..r]`, permuting between blocks (`D <= r` on every
//!    shipped instance: one block).
//! 5. **Bytes.** `hash_message` writes the `D` elements canonically big-endian one after the
//!    other: `D · F::BYTES = 32` bytes on every shipped field.
//!
//! # Why it is injective, and separated from the other modes
//! `L` fixes the number of chunks and every chunk's length, and a chunk of known length is
//! recovered from its element (the integer is below `p`), so `(L, x_0, x_1, ..)` determines `m`;
//! `L` is in the initial value. So `m` and `m ‖ 0x00` (or `[]` and `[0]`) never meet: their
//! initial values differ. The low 64 bits of `v` are all ones: the length-declared sponge
//! (`hash`, `hash_into`, [`crate::modes::Sponge`], the byte API) writes `len · 2^64 + (out - 1)`
//! with `out <= usize::MAX`, whose low 64 bits are at most `2^64 - 2`, so no message hash shares
//! a starting state with any of them; the Merkle compression starts from zero capacity, and
//! `v` is never zero.
//!
//! The reference model is `testkit::textbook::message_hash`; a circuit reproduces it with the
//! permutation, `ceil(L / k)` range-checked chunks and the constant `v`.
//!
//! ```
//! # #[cfg(feature = "bn254")] {
//! use fast_poseidon2::instances::bn254;
//! let perm = bn254::ct::t3();
//! let digest: [u8; 32] = perm.hash_message(b"hello world");
//! assert_ne!(perm.hash_message(b""), perm.hash_message(&[0]));
//! assert_ne!(digest, perm.hash_message(b"hello world\0"));
//! // The field-element form: the same digest before it is written as bytes.
//! let [x] = perm.hash_message_elements::<1>(b"hello world");
//! let mut bytes = [0u8; 32];
//! fast_poseidon2::field::PrimeField::write_canonical_be_bytes(x, &mut bytes);
//! assert_eq!(bytes, digest);
//! # }
//! ```

use super::bytes::{BYTE_OUTPUT_LEN, Endianness, element_from_be, write_digest};
use super::{Permutation, Sponge, digest_len};
use crate::field::{Field, PrimeField};

/// `k = floor((n - 1) / 8)`: the message bytes one element carries on a field of `modulus_bits`
/// bits, so that every chunk's integer is below `2^(n-1) < p` (31 on BN254 and BLS12-381, 7 on
/// Goldilocks). Zero for fields below 9 bits, which the message hash rejects at compile time.
///
/// ```
/// use fast_poseidon2::modes::message_chunk_bytes;
/// assert_eq!(message_chunk_bytes(254), 31);
/// assert_eq!(message_chunk_bytes(255), 31);
/// assert_eq!(message_chunk_bytes(64), 7);
/// ```
pub const fn message_chunk_bytes(modulus_bits: u32) -> usize {
    (modulus_bits.saturating_sub(1) / 8) as usize
}

/// The capacity's integer for a message of `len` bytes: `len · 2^64 + (2^64 - 1)` (module docs,
/// step 2). Exact: `len` fits in 64 bits on every supported target.
fn message_initial_value(len: usize) -> u128 {
    ((len as u128) << 64) | u128::from(u64::MAX)
}

/// The message's rate `t - D`, or the sponge's rate error ([`crate::Error::InsufficientCapacity`])
/// when `t <= D`.
#[cfg(feature = "alloc")]
pub(crate) fn message_rate<P: Permutation>(perm: &P) -> Result<usize, crate::Error>
where
    P::Field: PrimeField,
{
    use super::sponge::{check_rate, secure_rate};
    let rate = secure_rate(perm);
    check_rate::<P::Field>(perm.width(), rate)?;
    Ok(rate)
}

/// The message hash (module docs) of `message` into `out` (`D` elements, see
/// [`digest_len`]), at `rate`, which the caller has checked ([`message_rate`]). Never
/// allocates.
pub(crate) fn hash_message_into<P: Permutation>(
    perm: &P,
    rate: usize,
    message: &[u8],
    out: &mut [P::Field],
) where
    P::Field: PrimeField,
{
    let chunk_bytes = const {
        let k = message_chunk_bytes(<P::Field as PrimeField>::MODULUS_BITS);
        assert!(k >= 1, "the message hash needs a field of at least 9 bits");
        k
    };
    let chunks = message.len().div_ceil(chunk_bytes);
    let mut sponge = Sponge::with_initial_value(
        perm,
        rate,
        chunks.max(1),
        out.len(),
        message_initial_value(message.len()),
    );
    if message.is_empty() {
        sponge.absorb_element(P::Field::ZERO_ELEMENT);
    }
    for chunk in message.chunks(chunk_bytes) {
        sponge.absorb_element(element_from_be(chunk));
    }
    sponge.squeeze_unchecked(out);
}

/// [`hash_message_into`] written as 32 bytes, big-endian.
pub(crate) fn hash_message_bytes<P: Permutation>(
    perm: &P,
    rate: usize,
    message: &[u8],
) -> [u8; BYTE_OUTPUT_LEN]
where
    P::Field: PrimeField,
{
    let mut digest = [P::Field::ZERO_ELEMENT; BYTE_OUTPUT_LEN];
    let digest = &mut digest[..digest_len::<P::Field>()];
    hash_message_into(perm, rate, message, digest);
    write_digest(digest, Endianness::BigEndian)
}

/// Adds `hash_message` and `hash_message_elements` to a const-generic permutation type (`$ct`,
/// width `T`) and its runtime-width counterpart (`$runtime`), `F` bounded by `$bound`.
macro_rules! impl_message_hash {
    ($ct:ty, $runtime:ty, [$($bound:tt)+]) => {
        impl<F: PrimeField + $($bound)+, const T: usize, const RF: usize, const RP: usize, const D: u64>
            $ct
        {
            /// The message hash of any byte string (the empty one included) to 32 bytes: `D`
            /// digest elements written canonically big-endian. The encoding (31-byte chunks on
            /// BN254 and BLS12-381, 7-byte chunks on Goldilocks, the byte length bound in the
            /// initial value, rate `T - D`) is stated exactly in [`crate::modes::message`].
            /// Never allocates, never fails.
            ///
            /// A width without room for the capacity (`T <= D`), or a field whose `D` elements
            /// do not encode to 32 bytes, is a compile-time error.
            ///
            /// # Security
            /// Injective encoding, capacity and digest of at least 248 bits: about 124 bits of
            /// collision resistance; domain-separated from `hash`, the byte API and the Merkle
            /// compression (see [`crate::modes::message`]).
            pub fn hash_message(&self, message: &[u8]) -> [u8; 32] {
                const { assert!(T > digest_len::<F>(), "the message hash needs T > D") };
                hash_message_bytes(self, T - digest_len::<F>(), message)
            }

            /// [`Self::hash_message`] before the bytes: the `N = D` digest elements. `N` other
            /// than the field's digest length ([`crate::modes::digest_len`]) or `T <= D` is a
            /// compile-time error. Never allocates, never fails.
            pub fn hash_message_elements<const N: usize>(&self, message: &[u8]) -> [F; N] {
                const {
                    assert!(N == digest_len::<F>(), "the message digest has digest_len elements");
                    assert!(T > N, "the message hash needs T > D");
                };
                let mut out = [F::ZERO_ELEMENT; N];
                hash_message_into(self, T - N, message, &mut out);
                out
            }
        }

        #[cfg(feature = "alloc")]
        impl<F: PrimeField + $($bound)+> $runtime {
            /// The message hash of any byte string (the empty one included) to 32 bytes: `D`
            /// digest elements written canonically big-endian, the encoding of
            /// [`crate::modes::message`] (rate `t - D`). Never allocates.
            ///
            /// # Security
            /// As the const-generic type's `hash_message`: see [`crate::modes::message`].
            ///
            /// # Errors
            /// [`crate::Error::InsufficientCapacity`] if `t <= D` (no rate is left beside the
            /// capacity; never for a shipped instance). A field whose `D` elements do not
            /// encode to 32 bytes is a compile-time error.
            pub fn hash_message(&self, message: &[u8]) -> Result<[u8; 32], crate::Error> {
                let rate = message_rate(self)?;
                Ok(hash_message_bytes(self, rate, message))
            }

            /// [`Self::hash_message`] before the bytes: the `N = D` digest elements. Never
            /// allocates.
            ///
            /// # Errors
            /// [`crate::Error::InvalidDigestLength`] unless `N` is the field's digest length
            /// ([`crate::modes::digest_len`]); [`crate::Error::InsufficientCapacity`] if `t <= D`.
            pub fn hash_message_elements<const N: usize>(
                &self,
                message: &[u8],
            ) -> Result<[F; N], crate::Error> {
                if N != digest_len::<F>() {
                    return Err(crate::Error::InvalidDigestLength {
                        got: N,
                        expected: digest_len::<F>(),
                    });
                }
                let rate = message_rate(self)?;
                let mut out = [F::ZERO_ELEMENT; N];
                hash_message_into(self, rate, message, &mut out);
                Ok(out)
            }
        }
    };
}

super::for_each_family!(impl_message_hash);
