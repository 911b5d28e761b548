//! The byte API a hashing syscall wraps: canonical field encodings in, 32 bytes out.
//!
//! `hashv_bytes(endianness, inputs)` on [`crate::ct::Poseidon2Ct`] and [`crate::Poseidon2`]:
//! 1. `inputs` must hold 1 to [`MAX_BYTE_INPUTS`] slices, else [`Error::EmptyInput`] /
//!    [`Error::TooManyInputs`].
//! 2. Every slice must be exactly the field's canonical length `F::BYTES` (32 for BN254 and
//!    BLS12-381, 8 for Goldilocks), else [`Error::InvalidInputLength`]. Short slices are never
//!    padded, long ones never truncated. All lengths are checked before any byte is read, so a
//!    rejected 100 MB slice costs O(1).
//! 3. Every slice, read in the given endianness, must encode an integer `< p`, else
//!    [`Error::InputLargerThanModulus`]. The full integer is compared; nothing is masked or
//!    reduced.
//! 4. The elements are hashed by the sponge ([`crate::modes::Sponge`]) with rate `t - 1` and
//!    `32 / F::BYTES` outputs (1 for 254/255-bit fields, 4 for Goldilocks), which are written
//!    canonically in the same endianness, one after the other.
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
use crate::modes::{Permutation, Sponge};

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

/// The element encoded by `bytes` (exactly `F::BYTES` long) in `endianness`, or `None` if the
/// integer is `>= p`.
fn decode<F: PrimeField>(bytes: &[u8], endianness: Endianness) -> Option<F> {
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
    let bytes = const {
        let bytes = <P::Field as PrimeField>::BYTES;
        assert!(
            bytes >= 1 && bytes <= BYTE_OUTPUT_LEN && BYTE_OUTPUT_LEN.is_multiple_of(bytes),
            "the byte API needs a field whose encoding length divides 32"
        );
        bytes
    };
    if inputs.is_empty() {
        return Err(Error::EmptyInput);
    }
    if inputs.len() > MAX_BYTE_INPUTS {
        return Err(Error::TooManyInputs {
            got: inputs.len(),
            max: MAX_BYTE_INPUTS,
        });
    }
    if let Some((index, input)) = inputs.iter().enumerate().find(|(_, i)| i.len() != bytes) {
        return Err(Error::InvalidInputLength {
            index,
            len: input.len(),
            expected: bytes,
        });
    }
    let mut elements = [P::Field::ZERO; MAX_BYTE_INPUTS];
    for (index, (slot, input)) in elements.iter_mut().zip(inputs).enumerate() {
        *slot = decode(input, endianness).ok_or(Error::InputLargerThanModulus { index })?;
    }

    let outputs = BYTE_OUTPUT_LEN / bytes;
    let mut digest = [P::Field::ZERO; BYTE_OUTPUT_LEN];
    let mut sponge = Sponge::new(perm, perm.width() - 1, inputs.len(), outputs)?;
    sponge.absorb(&elements[..inputs.len()])?;
    sponge.squeeze(&mut digest[..outputs])?;

    let mut out = [0u8; BYTE_OUTPUT_LEN];
    for (chunk, y) in out.chunks_exact_mut(bytes).zip(&digest) {
        y.write_canonical_be_bytes(chunk);
        if endianness == Endianness::LittleEndian {
            chunk.reverse();
        }
    }
    Ok(out)
}

/// Adds `hashv_bytes`, `hash_bytes_be` and `hash_bytes_le` to a permutation type.
macro_rules! impl_byte_api {
    (impl[$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $ty {
            /// Hashes 1 to [`MAX_BYTE_INPUTS`] canonical field encodings, each exactly
            /// `F::BYTES` long and read in `endianness`, to 32 bytes: the sponge with rate
            /// `t - 1` and `32 / F::BYTES` output elements, written canonically in the same
            /// endianness. Never allocates; see [`crate::bytes`] for the full rules.
            ///
            /// A field whose `F::BYTES` does not divide 32 is a compile-time error.
            ///
            /// # Security
            /// The capacity is one element (rate `t - 1`, as Noir and Barretenberg use it):
            /// about 127 bits of collision resistance on BN254 and BLS12-381, but only about
            /// 32 bits on a 64-bit field such as Goldilocks. See [`crate::modes::Sponge`].
            ///
            /// # Errors
            /// In this order: [`Error::EmptyInput`] for no slices; [`Error::TooManyInputs`] for
            /// more than [`MAX_BYTE_INPUTS`]; [`Error::InvalidInputLength`] for the first slice
            /// whose length is not `F::BYTES` (checked for all slices before any is read);
            /// [`Error::InputLargerThanModulus`] for the first slice encoding an integer
            /// `>= p`.
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

impl_byte_api!(impl[F: PrimeField, const T: usize, const RF: usize, const RP: usize, const D: u64]
    crate::ct::Poseidon2Ct<F, T, RF, RP, D>);
#[cfg(feature = "alloc")]
impl_byte_api!(impl[F: PrimeField] crate::Poseidon2<F>);
