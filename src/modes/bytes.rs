//! The byte API a hashing syscall wraps: canonical field encodings in, 32 bytes out.
//!
//! `hashv_bytes(endianness, inputs)` on both families' permutation types
//! ([`crate::poseidon2::ct::Poseidon2Ct`], [`crate::Poseidon2`], [`crate::poseidon1::ct::Poseidon1Ct`],
//! [`crate::poseidon1::Poseidon1`]):
//! 1. `inputs` must hold 1 to [`MAX_BYTE_INPUTS`] slices, else [`Error::EmptyInput`] /
//!    [`Error::TooManyInputs`].
//! 2. Every slice must be exactly the field's canonical length `F::BYTES` (32 for BN254 and
//!    BLS12-381 and the Stark field, 8 for Goldilocks, 4 for BabyBear and KoalaBear), else
//!    [`Error::InvalidInputLength`]. Short slices are never
//!    padded, long ones never truncated. All lengths are checked before any byte is read, so a
//!    rejected 100 MB slice costs O(1).
//! 3. Every slice, read in the given endianness, must encode an integer `< p`, else
//!    [`Error::InputLargerThanModulus`]. The full integer is compared; nothing is masked or
//!    reduced.
//! 4. The elements are hashed by the sponge ([`crate::modes::Sponge`]) with rate `t - c` and
//!    `D` outputs, `c = D = ceil(248 / MODULUS_BITS)` ([`crate::modes::security_elements`]):
//!    rate `t - 1` and one output on BN254 and BLS12-381, rate `t - 4` and four outputs on
//!    Goldilocks. The outputs are written canonically in the same endianness, one after the
//!    other: `D · F::BYTES = 32` bytes on every shipped field.
//!
//! No heap allocation: elements live in a stack buffer of [`MAX_BYTE_INPUTS`] elements. A
//! rejected call leaves nothing behind; the hasher is immutable and stays usable.
//!
//! ```
//! # #[cfg(feature = "bn254")] {
//! use fast_poseidon2::{Endianness, Error, instances::bn254};
//! let perm = bn254::ct::t3();
//! let one = {
//!     let mut b = [0u8; 32];
//!     b[31] = 1;
//!     b
//! };
//! let h = perm.hash_bytes_be(&[&one, &one]).unwrap();
//! let mut one_le = one;
//! one_le.reverse();
//! let mut h_le = perm.hashv_bytes(Endianness::LittleEndian, &[&one_le, &one_le]).unwrap();
//! h_le.reverse();
//! assert_eq!(h, h_le);
//! assert_eq!(
//!     perm.hash_bytes_be(&[&one[1..]]),
//!     Err(Error::InvalidInputLength { index: 0, len: 31, expected: 32 })
//! );
//! # }
//! ```

use crate::Error;
use crate::field::{Field, MAX_FIELD_BYTES, PrimeField};
use crate::modes::sponge::secure_rate;
use crate::modes::{Permutation, Sponge, digest_len};

/// The most byte slices one `hashv_bytes` call accepts. It bounds the stack buffer the decoded
/// elements live in (and a syscall's work per call); more is [`Error::TooManyInputs`].
pub const MAX_BYTE_INPUTS: usize = 16;

/// The byte length of every `hashv_bytes` output.
pub const BYTE_OUTPUT_LEN: usize = 32;

/// The byte order of each field element's canonical encoding, inputs and outputs alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endianness {
    /// Most significant byte first.
    BigEndian,
    /// Least significant byte first.
    LittleEndian,
}

/// The byte APIs' input rules, in this order: [`Error::EmptyInput`] for no slices,
/// [`Error::TooManyInputs`] for more than `N`, [`Error::InvalidInputLength`] for the first slice
/// that is not `F::BYTES` long (every length is checked before any byte is read), then
/// [`Error::InputLargerThanModulus`] for the first slice encoding an integer `>= p`. On success
/// the first `inputs.len()` entries hold the decoded elements, the rest are zero.
pub(crate) fn decode_inputs<F: PrimeField, const N: usize>(
    endianness: Endianness,
    inputs: &[&[u8]],
) -> Result<[F; N], Error> {
    if inputs.is_empty() {
        return Err(Error::EmptyInput);
    }
    if inputs.len() > N {
        return Err(Error::TooManyInputs {
            got: inputs.len(),
            max: N,
        });
    }
    if let Some((index, input)) = inputs.iter().enumerate().find(|(_, i)| i.len() != F::BYTES) {
        return Err(Error::InvalidInputLength {
            index,
            len: input.len(),
            expected: F::BYTES,
        });
    }
    let mut elements = [F::ZERO_ELEMENT; N];
    for (index, (slot, input)) in elements.iter_mut().zip(inputs).enumerate() {
        *slot = decode(input, endianness).ok_or(Error::InputLargerThanModulus { index })?;
    }
    Ok(elements)
}

/// The element encoded by `bytes` (exactly `F::BYTES` long) in `endianness`, or `None` if the
/// integer is `>= p`.
pub(crate) fn decode<F: PrimeField>(bytes: &[u8], endianness: Endianness) -> Option<F> {
    match endianness {
        Endianness::BigEndian => F::from_canonical_be_bytes(bytes),
        Endianness::LittleEndian => {
            let mut be = [0u8; MAX_FIELD_BYTES];
            let be = &mut be[..bytes.len()];
            be.copy_from_slice(bytes);
            be.reverse();
            F::from_canonical_be_bytes(be)
        }
    }
}

/// The byte API over any [`Permutation`]; see the module docs.
fn hashv_bytes<P: Permutation>(
    perm: &P,
    endianness: Endianness,
    inputs: &[&[u8]],
) -> Result<[u8; BYTE_OUTPUT_LEN], Error>
where
    P::Field: PrimeField,
{
    let outputs = digest_len::<P::Field>();
    let elements: [P::Field; MAX_BYTE_INPUTS] = decode_inputs(endianness, inputs)?;

    let mut digest = [P::Field::ZERO_ELEMENT; BYTE_OUTPUT_LEN];
    // A permutation too narrow for the capacity gets `InsufficientCapacity` from `Sponge::new`.
    let rate = secure_rate(perm);
    let mut sponge = Sponge::new(perm, rate, inputs.len(), outputs)?;
    sponge.absorb(&elements[..inputs.len()])?;
    sponge.squeeze(&mut digest[..outputs])?;
    Ok(write_digest(&digest[..outputs], endianness))
}

/// The `D` elements of a digest ([`digest_len`]) written canonically in `endianness`, one after
/// the other: 32 bytes. A field whose `D` elements do not encode to exactly 32 bytes is a
/// compile-time error.
pub(crate) fn write_digest<F: PrimeField>(
    digest: &[F],
    endianness: Endianness,
) -> [u8; BYTE_OUTPUT_LEN] {
    let bytes = const {
        let bytes = F::BYTES;
        let outputs = digest_len::<F>();
        assert!(
            bytes >= 1 && outputs <= BYTE_OUTPUT_LEN && outputs * bytes == BYTE_OUTPUT_LEN,
            "the byte API needs a field whose digest (D elements) encodes to 32 bytes"
        );
        bytes
    };
    let mut out = [0u8; BYTE_OUTPUT_LEN];
    for (chunk, y) in out.chunks_exact_mut(bytes).zip(digest) {
        y.write_canonical_be_bytes(chunk);
        if endianness == Endianness::LittleEndian {
            chunk.reverse();
        }
    }
    out
}

/// The integer encoded big-endian by `bytes` (any length), reduced mod p: 8-byte limbs combined
/// in base `2^64` (Horner's rule), without allocating.
pub(crate) fn element_from_be<F: PrimeField>(bytes: &[u8]) -> F {
    let limb = |b: &[u8]| b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
    let two_64 = F::from_u64(1 << 32).squared();
    let (head, rest) = bytes.split_at(bytes.len() % 8);
    rest.chunks_exact(8)
        .fold(F::from_u64(limb(head)), |acc, l| {
            acc.mul(two_64).add(F::from_u64(limb(l)))
        })
}

/// Adds `hashv_bytes`, `hash_bytes_be` and `hash_bytes_le` to a permutation type.
macro_rules! impl_byte_api {
    (impl[$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $ty {
            /// Hashes 1 to [`MAX_BYTE_INPUTS`] canonical field encodings, each exactly
            /// `F::BYTES` long and read in `endianness`, to 32 bytes: the sponge with rate
            /// `t - c` and `D` output elements (`c = D = ceil(248 / MODULUS_BITS)`: 1 on BN254
            /// and BLS12-381, 4 on Goldilocks), written canonically in the same endianness.
            /// Never allocates; see [`crate::modes::bytes`] for the full rules.
            ///
            /// A field whose `D` elements do not encode to exactly 32 bytes is a compile-time
            /// error.
            ///
            /// # Security
            /// The capacity and the digest carry at least 248 bits on every field (one element
            /// on BN254 and BLS12-381, as Noir and Barretenberg use it; four on Goldilocks):
            /// about 124 bits or more of collision resistance. See [`crate::modes`].
            ///
            /// # Errors
            /// In this order: [`Error::EmptyInput`] for no slices; [`Error::TooManyInputs`] for
            /// more than [`MAX_BYTE_INPUTS`]; [`Error::InvalidInputLength`] for the first slice
            /// whose length is not `F::BYTES` (checked for all slices before any is read);
            /// [`Error::InputLargerThanModulus`] for the first slice encoding an integer
            /// `>= p`; [`Error::InsufficientCapacity`] if the width is at most `c` (never for a
            /// shipped instance).
            pub fn hashv_bytes(
                &self,
                endianness: Endianness,
                inputs: &[&[u8]],
            ) -> Result<[u8; BYTE_OUTPUT_LEN], Error> {
                hashv_bytes(self, endianness, inputs)
            }

            /// [`Self::hashv_bytes`] with [`Endianness::BigEndian`].
            ///
            /// # Errors
            /// As [`Self::hashv_bytes`].
            pub fn hash_bytes_be(&self, inputs: &[&[u8]]) -> Result<[u8; BYTE_OUTPUT_LEN], Error> {
                hashv_bytes(self, Endianness::BigEndian, inputs)
            }

            /// [`Self::hashv_bytes`] with [`Endianness::LittleEndian`].
            ///
            /// # Errors
            /// As [`Self::hashv_bytes`].
            pub fn hash_bytes_le(&self, inputs: &[&[u8]]) -> Result<[u8; BYTE_OUTPUT_LEN], Error> {
                hashv_bytes(self, Endianness::LittleEndian, inputs)
            }
        }
    };
}

/// [`impl_byte_api`] on a family's const-generic type (`$ct`) and runtime-width type
/// (`$runtime`), `F` bounded by `$bound`.
macro_rules! impl_byte_api_for_family {
    ($ct:ty, $runtime:ty, [$($bound:tt)+]) => {
        impl_byte_api!(impl[F: PrimeField + $($bound)+, const T: usize, const RF: usize, const RP: usize, const D: u64] $ct);
        #[cfg(feature = "alloc")]
        impl_byte_api!(impl[F: PrimeField + $($bound)+] $runtime);
    };
}

super::for_each_family!(impl_byte_api_for_family);
