//! `adapters::rs_merkle::Hasher` inside rs_merkle 1.5, on every shipped instance: `hash` is the
//! message hash, `concat_and_hash` the binary node (the crate's compression) and a lone node
//! carried up, trees and multi-leaf proofs verify (serialized too) and reject a tampered leaf,
//! and the root is the binary tree of that node with odd nodes carried up, for 1 to 33 leaves:
//! the crate's `merkle_root_digests` where its tree is binary and the leaf count a power of
//! two.
#![cfg(all(feature = "rs_merkle", feature = "std"))]

use fast_poseidon2::adapters::rs_merkle::Hasher;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::instances::Instance;
use rs_merkle::{Hasher as _, MerkleProof, MerkleTree};

/// The `D` elements of a digest's 32 bytes (canonical big-endian chunks).
fn decode<F: PrimeField>(bytes: &[u8; 32]) -> Vec<F> {
    bytes
        .chunks_exact(F::BYTES)
        .map(|chunk| F::from_canonical_be_bytes(chunk).expect("canonical"))
        .collect()
}

/// `xs` written canonically big-endian: 32 bytes.
fn encode<F: PrimeField>(xs: &[F]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, x) in out.chunks_exact_mut(F::BYTES).zip(xs) {
        x.write_canonical_be_bytes(chunk);
    }
    out
}

/// Proof index sets for `n` leaves: each leaf alone, the first and last, every third leaf.
fn index_sets(n: usize) -> Vec<Vec<usize>> {
    let mut sets: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    sets.push(vec![0, n - 1]);
    sets.push((0..n).step_by(3).collect());
    sets.iter_mut().for_each(|s| s.dedup());
    sets
}

/// Trees of 1..=33 leaves: every index set's proof verifies (also after serialization), and not
/// with one of its leaves changed.
fn proofs_verify_and_reject_tampering<P: Instance>() {
    for n in 1..=33usize {
        let leaves: Vec<[u8; 32]> = (0..n)
            .map(|i| Hasher::<P>::hash(format!("leaf {i}").as_bytes()))
            .collect();
        let tree = MerkleTree::<Hasher<P>>::from_leaves(&leaves);
        let root = tree.root().expect("non-empty");
        for indices in index_sets(n) {
            let proven: Vec<[u8; 32]> = indices.iter().map(|&i| leaves[i]).collect();
            let proof = tree.proof(&indices);
            assert!(
                proof.verify(root, &indices, &proven, n),
                "{} n = {n} {indices:?}",
                P::NAME
            );
            let parsed = MerkleProof::<Hasher<P>>::try_from(proof.to_bytes()).expect("parse");
            assert!(
                parsed.verify(root, &indices, &proven, n),
                "{} parsed",
                P::NAME
            );
            let mut tampered = proven.clone();
            tampered[0] = Hasher::<P>::hash(b"not a leaf");
            assert!(
                !proof.verify(root, &indices, &tampered, n),
                "{} tampered",
                P::NAME
            );
        }
    }
}

macro_rules! rs_merkle_tests {
    ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
        mod $name {
            use super::*;
            use fast_poseidon2::instances::$module;

            type P = fast_poseidon2::ct::Poseidon2Ct<$field, $t, $rf, $rp, $d>;
            type F = $field;

            #[test]
            fn hash_is_the_message_hash() {
                let ct = $module::ct::$ct();
                for message in [&b""[..], b"a", &[0u8; 100], b"{\"leaf\": 1}"] {
                    assert_eq!(Hasher::<P>::hash(message), ct.hash_message(message));
                }
            }

            /// The binary node by the crate's own calls: `perm(l ‖ r ‖ 0 …)[..D]`, or the
            /// rate-1 sponge of the pair at t = 2.
            fn node(l: &[u8; 32], r: &[u8; 32]) -> [u8; 32] {
                let ct = $module::ct::$ct();
                let mut children: Vec<F> = decode::<F>(l);
                children.extend(decode::<F>(r));
                if $t == 2 {
                    encode(&ct.hash::<1, 1>(&children).expect("valid"))
                } else {
                    let mut state = [PrimeField::from_be_bytes_reduced(&[]); $t];
                    state[..children.len()].copy_from_slice(&children);
                    encode(&ct.permutation(&state)[..$digest])
                }
            }

            /// `concat_and_hash` is the binary node; a node without a sibling is carried up.
            #[test]
            fn concat_and_hash_is_the_binary_node() {
                let (l, r) = (Hasher::<P>::hash(b"left"), Hasher::<P>::hash(b"right"));
                assert_eq!(Hasher::<P>::concat_and_hash(&l, Some(&r)), node(&l, &r));
                assert_eq!(Hasher::<P>::concat_and_hash(&l, None), l);
                assert_ne!(
                    Hasher::<P>::concat_and_hash(&l, Some(&r)),
                    Hasher::<P>::concat_and_hash(&r, Some(&l))
                );
            }

            /// For 1 to 33 leaves the rs_merkle root is the level-by-level tree of `node`, an odd
            /// last node carried up; it is the crate's `merkle_root_digests` of the decoded leaf
            /// hashes exactly where the rules coincide (binary tree and `n` a power of two, or
            /// `n <= 2` at t >= 3).
            #[test]
            fn the_root_is_the_binary_tree_and_the_crates_at_powers_of_two() {
                // The runtime type: its t = 2 tree is an `Err` at run time, not a compile error.
                let flexible = $module::$getter();
                let binary = $group / $digest == 2;
                for n in 1..=33usize {
                    let leaves: Vec<[u8; 32]> =
                        (0..n).map(|i| Hasher::<P>::hash(&[i as u8; 5])).collect();
                    let root = MerkleTree::<Hasher<P>>::from_leaves(&leaves)
                        .root()
                        .expect("non-empty");
                    let mut level = leaves.clone();
                    while level.len() > 1 {
                        level = level
                            .chunks(2)
                            .map(|pair| {
                                if let [l, r] = pair {
                                    node(l, r)
                                } else {
                                    pair[0]
                                }
                            })
                            .collect();
                    }
                    assert_eq!(root, level[0], "{n} leaves");
                    let digests: Vec<[F; $digest]> = leaves
                        .iter()
                        .map(|h| decode::<F>(h).try_into().expect("D elements"))
                        .collect();
                    let crate_root = flexible
                        .merkle_root_digests::<$digest>(&digests)
                        .map(|r| encode(&r));
                    // One or two leaves are one node in both trees (t >= 3; the crate's wider node
                    // pads with zeros as the binary node does); a binary tree of 2^k leaves has
                    // no odd node.
                    let same_rule = (binary && n.is_power_of_two()) || ($t > 2 && n <= 2);
                    if same_rule {
                        assert_eq!(crate_root, Ok(root), "{n} leaves");
                    } else if n > 1 {
                        assert_ne!(crate_root, Ok(root), "{n} leaves: the rules differ");
                    }
                }
            }

            #[test]
            fn multi_leaf_proofs_verify_and_reject_a_tampered_leaf() {
                proofs_verify_and_reject_tampering::<P>();
            }
        }
    };
}

// Every module whose instances implement `Instance` (the Plonky3 instances have the Horizen Labs
// instances' types, so `Hasher<P>` names those).
testkit::for_each_instance!(@spec rs_merkle_tests, bn254);
testkit::for_each_instance!(@spec rs_merkle_tests, bls12_381);
testkit::for_each_instance!(@spec rs_merkle_tests, goldilocks);
testkit::for_each_instance!(@spec rs_merkle_tests, babybear);

/// Three leaves: rs_merkle carries the odd leaf up, `node(node(a, b), c)`; the crate pairs it
/// with zero, `node(node(a, b), node(c, 0))` (documented difference).
#[cfg(feature = "bn254")]
#[test]
fn an_odd_node_is_carried_up_where_the_crate_pairs_it_with_zero() {
    use ark_bn254::Fr;
    use fast_poseidon2::instances::bn254::{self, Bn254T3};
    type H = Hasher<Bn254T3>;
    let leaves = [H::hash(b"a"), H::hash(b"b"), H::hash(b"c")];
    let root = MerkleTree::<H>::from_leaves(&leaves)
        .root()
        .expect("non-empty");
    let ab = H::concat_and_hash(&leaves[0], Some(&leaves[1]));
    assert_eq!(root, H::concat_and_hash(&ab, Some(&leaves[2])));
    let c0 = H::concat_and_hash(&leaves[2], Some(&[0u8; 32]));
    let digests: Vec<Fr> = leaves.iter().map(|h| decode::<Fr>(h)[0]).collect();
    assert_eq!(
        bn254::ct::t3().merkle_root(&digests).map(|r| encode(&[r])),
        Ok(H::concat_and_hash(&ab, Some(&c0)))
    );
}

/// A proof hash that encodes an integer `>= p` (never produced by the hasher) is read reduced
/// mod p: `x + p` acts as `x` (documented), and nothing panics.
#[cfg(feature = "bn254")]
#[test]
fn a_non_canonical_hash_is_read_reduced_mod_p() {
    use ark_bn254::Fr;
    use fast_poseidon2::instances::bn254::Bn254T3;
    type H = Hasher<Bn254T3>;
    let mut modulus = [0u8; 32];
    <Fr as PrimeField>::write_modulus_be(&mut modulus);
    let x = H::hash(b"x");
    // x + p, big-endian, without overflow (x < p < 2^254).
    let mut shifted = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let sum = u16::from(x[i]) + u16::from(modulus[i]) + carry;
        shifted[i] = sum as u8;
        carry = sum >> 8;
    }
    assert_eq!(carry, 0);
    let r = H::hash(b"r");
    assert_eq!(
        H::concat_and_hash(&shifted, Some(&r)),
        H::concat_and_hash(&x, Some(&r))
    );
    // 2^256 - 1, far above p, acts as its residue.
    let residue: Fr = ark_ff::PrimeField::from_be_bytes_mod_order(&[0xff; 32]);
    assert_eq!(
        H::concat_and_hash(&[0xff; 32], Some(&r)),
        H::concat_and_hash(&encode(&[residue]), Some(&r))
    );
}
