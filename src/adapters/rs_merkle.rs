//! [`rs_merkle`] 1.5's [`Hasher`](::rs_merkle::Hasher) for every shipped
//! instance: `rs_merkle::MerkleTree<Hasher<Bn254T3>>` builds Poseidon2 trees, proofs and
//! multi-proofs.
//!
//! - `Hash = [u8; 32]`: a digest's `D` elements written canonically big-endian (one BN254 or
//!   BLS12-381 element, four Goldilocks elements).
//! - `hash(data)`: the message hash of any byte string (`hash_message`,
//!   [`crate::modes::message`]); hash your leaves with it.
//! - `concat_and_hash(left, Some(right))`: the [binary node](super#the-binary-node) of the two
//!   digests (the Merkle compression), not a hash of the 64 concatenated bytes.
//! - `concat_and_hash(left, None)` (a node without a sibling): `left` unchanged, rs_merkle's
//!   own rule, which its proofs rely on (its tree has `floor(log2 n) + 1` levels, so for
//!   `n = 2^k` leaves the root passes through one such call).
//!
//! # Agreement with this crate's Merkle root
//! The crate's `merkle_root` pairs an odd last node with the zero digest; rs_merkle carries it
//! up unchanged. So where the crate's tree is binary (t = 3 on BN254 and BLS12-381, every
//! Goldilocks width) the rs_merkle root over leaf hashes `h_i` equals the crate's
//! `merkle_root_digests` over the decoded `h_i` exactly when no level has an odd node: `n` a
//! power of two (1 included: one leaf is its own root in both). For other `n` they differ (three
//! leaves: rs_merkle `node(node(a, b), c)`, the crate `node(node(a, b), node(c, 0))`), and they
//! differ for every `n > 2` where the crate's tree is wider (t = 4, 8, 12 on BN254 and
//! BLS12-381: `t - 1` children per node; one or two leaves agree), and at t = 2 the crate has
//! no tree. rs_merkle gives no root for no leaves; the crate's `merkle_root` returns [`crate::Error::EmptyInput`].
//!
//! # Hashes that are not canonical
//! rs_merkle hands back whatever 32 bytes a proof carries. A field element's bytes encoding an
//! integer `>= p` (never produced by this hasher) are read reduced mod p, so such a proof hash
//! acts as its reduced twin: a proof may be re-encoded, but the root it leads to is still fixed
//! by the field elements.
//!
//! ```
//! # #[cfg(feature = "bn254")] {
//! use fast_poseidon2::adapters::rs_merkle::Hasher;
//! use fast_poseidon2::instances::bn254::Bn254T3;
//! use rs_merkle::{Hasher as _, MerkleProof, MerkleTree};
//!
//! type H = Hasher<Bn254T3>;
//! let leaves: Vec<[u8; 32]> = ["a", "b", "c", "d", "e"].iter().map(|x| H::hash(x.as_bytes())).collect();
//! let tree = MerkleTree::<H>::from_leaves(&leaves);
//! let root = tree.root().unwrap();
//!
//! let indices = [1, 4];
//! let proof = tree.proof(&indices);
//! assert!(proof.verify(root, &indices, &[leaves[1], leaves[4]], leaves.len()));
//! let bytes = proof.to_bytes();
//! let parsed = MerkleProof::<H>::try_from(bytes).unwrap();
//! assert!(parsed.verify(root, &indices, &[leaves[1], leaves[4]], leaves.len()));
//! assert!(!proof.verify(root, &indices, &[leaves[1], H::hash(b"x")], leaves.len()));
//! # }
//! ```

use core::marker::PhantomData;

use super::two_to_one;
use crate::field::{Field, PrimeField};
use crate::instances::Instance;
use crate::modes::bytes::{BYTE_OUTPUT_LEN, Endianness, element_from_be, write_digest};
use crate::modes::message::hash_message_bytes;

/// rs_merkle's `Hasher` over the shipped instance `P` (module docs): zero-sized; `Hash` is the
/// 32-byte digest, `hash` the message hash, `concat_and_hash` the Merkle compression (a node
/// without a sibling is carried up unchanged).
pub struct Hasher<P>(PhantomData<fn() -> P>);

// Not derived: a derive would ask `P: Clone`.
impl<P> Clone for Hasher<P> {
    fn clone(&self) -> Self {
        Hasher(PhantomData)
    }
}

impl<P> core::fmt::Debug for Hasher<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Hasher")
    }
}

impl<P: Instance> ::rs_merkle::Hasher for Hasher<P> {
    type Hash = [u8; BYTE_OUTPUT_LEN];

    /// The message hash of `data` (any length, the empty slice included).
    fn hash(data: &[u8]) -> [u8; BYTE_OUTPUT_LEN] {
        hash_message_bytes(P::get(), P::RATE, data)
    }

    /// The binary node of `left` and `right`; `left` itself if it has no sibling (module docs).
    fn concat_and_hash(
        left: &[u8; BYTE_OUTPUT_LEN],
        right: Option<&[u8; BYTE_OUTPUT_LEN]>,
    ) -> [u8; BYTE_OUTPUT_LEN] {
        let Some(right) = right else {
            return *left;
        };
        // `D <= 32` (a `D`-element digest encodes to 32 bytes: `write_digest` checks it).
        let zero = [P::Field::ZERO_ELEMENT; BYTE_OUTPUT_LEN];
        let (mut l, mut r, mut out) = (zero, zero, zero);
        let digest = P::DIGEST_LEN;
        decode_digest(left, &mut l[..digest]);
        decode_digest(right, &mut r[..digest]);
        two_to_one::<P>(&l[..digest], &r[..digest], &mut out[..digest]);
        write_digest(&out[..digest], Endianness::BigEndian)
    }
}

/// The `D` elements of a 32-byte digest, each `F::BYTES` big-endian bytes reduced mod p.
fn decode_digest<F: PrimeField>(bytes: &[u8; BYTE_OUTPUT_LEN], out: &mut [F]) {
    for (x, chunk) in out.iter_mut().zip(bytes.chunks_exact(F::BYTES)) {
        *x = element_from_be(chunk);
    }
}
