//! Merkle trees over the compression of [`crate::modes`]: `merkle_root` / `merkle_root_digests`
//! on both permutation types for leaves in memory, and [`MerkleBuilder`] for leaves that arrive
//! in pieces. Both run the batch path and give the same root.
//!
//! # The tree
//! Leaves and nodes are digests of `D` elements ([`crate::modes::digest_len`]: one element on
//! BN254 and BLS12-381, four on Goldilocks); each parent is the compression of
//! `a = `[`crate::modes::merkle_arity`] children (`t - 1` for `D = 1`, 2 for `D > 1`). The tree is
//! built level by level: a level whose node count is not a multiple of `a` has its last group
//! padded with all-zero digests (for BN254 t = 3: an odd last node is paired with 0), and the
//! tree stops at the first level with a single node, so one leaf is its own root. No leaves is
//! [`Error::EmptyInput`].
//!
//! # What the plain root does not bind
//! The plain root binds the leaves' values and order, but neither their number nor the
//! difference between a leaf and a node: `root([x]) = x`, `root([a, b, c]) = root([a, b, c, 0])`
//! (zero padding looks like zero leaves), and `root([a, b]) = root([compress(a, b)])`. Where a
//! proof must fix the set's size (membership in sets of varying size), use
//! [`MerkleBuilder::finish_with_leaf_count`]: one more compression of the root with the leaf
//! count.

use crate::Error;
use crate::field::{Field, PrimeField};
use crate::modes::batch::{compress_groups, compression_group};
use crate::modes::{Permutation, compress::check_single_element_digest, digest_len};
use alloc::vec::Vec;

/// The root of the tree over `leaves` (flat, a whole number of `D`-element digests), level by
/// level with the batch compression; `group` = arity · D.
fn merkle_root<P: Permutation>(
    perm: &P,
    leaves: &[P::Field],
    group: usize,
) -> Result<Vec<P::Field>, Error>
where
    P::Field: PrimeField,
{
    let digest = digest_len::<P::Field>();
    if leaves.is_empty() {
        return Err(Error::EmptyInput);
    }
    let mut level = leaves.to_vec();
    while level.len() > digest {
        level.resize(level.len().next_multiple_of(group), P::Field::ZERO_ELEMENT);
        level = compress_groups(perm, &level, group);
    }
    Ok(level)
}

/// The root as a `[F; N]` digest, for the runtime checks of `merkle_root_digests`.
fn merkle_root_array<P: Permutation, const N: usize>(
    perm: &P,
    leaves: &[[P::Field; N]],
) -> Result<[P::Field; N], Error>
where
    P::Field: PrimeField,
{
    let digest = digest_len::<P::Field>();
    if N != digest {
        return Err(Error::InvalidDigestLength {
            got: N,
            expected: digest,
        });
    }
    let group = tree_group(perm)?;
    let root = merkle_root(perm, leaves.as_flattened(), group)?;
    let mut out = [P::Field::ZERO_ELEMENT; N];
    out.copy_from_slice(&root);
    Ok(out)
}

/// The compression group size `arity · D` of a permutation that can build a tree (arity >= 2),
/// else [`Error::UnsupportedWidth`].
fn tree_group<P: Permutation>(perm: &P) -> Result<usize, Error>
where
    P::Field: PrimeField,
{
    match compression_group(perm) {
        Some(group) if group >= 2 * digest_len::<P::Field>() => Ok(group),
        _ => Err(Error::UnsupportedWidth { t: perm.width() }),
    }
}

/// The Merkle roots `merkle_root` and `merkle_root_digests` on a const-generic permutation type
/// (`$ct`, width `T`) and its runtime-width counterpart (`$runtime`), `F` bounded by `$bound`.
macro_rules! impl_merkle_roots {
    ($ct:ty, $runtime:ty, [$($bound:tt)+]) => {
        impl<F: PrimeField + $($bound)+, const T: usize, const RF: usize, const RP: usize, const D: u64>
            $ct
        {
            /// The root of the Merkle tree over single-element leaves (rules in the [module
            /// docs](crate::modes::merkle)), built level by level with [`Self::compress_batch`].
            /// For fields whose digest is one element (BN254, BLS12-381); elsewhere, or for `T = 2`
            /// (arity 1, a tree that never narrows), a compile-time error: use
            /// [`Self::merkle_root_digests`].
            ///
            /// ```
            /// # #[cfg(feature = "bn254")] {
            /// use ark_bn254::Fr;
            /// use fast_poseidon2::instances::bn254;
            /// let perm = bn254::ct::t3();
            /// let leaves = [Fr::from(1u64), Fr::from(2u64), Fr::from(3u64)];
            /// let root = perm.merkle_root(&leaves).unwrap();
            /// let zero = Fr::from(0u64);
            /// assert_eq!(root, perm.compress(&[perm.compress(&[leaves[0], leaves[1]]), perm.compress(&[leaves[2], zero])]));
            /// # }
            /// ```
            ///
            /// # Errors
            /// [`Error::EmptyInput`] if `leaves` is empty.
            pub fn merkle_root(&self, leaves: &[F]) -> Result<F, Error> {
                const {
                    assert!(T >= 3, "merkle_root needs T >= 3 (arity T - 1 >= 2)");
                    assert!(
                        digest_len::<F>() == 1,
                        "one element of this field is not a 248-bit digest: use merkle_root_digests"
                    );
                };
                let [root] = self.merkle_root_digests(leaves.as_chunks::<1>().0)?;
                Ok(root)
            }

            /// The root of the Merkle tree over `N`-element leaf digests (rules in the [module
            /// docs](crate::modes::merkle)). `N` must be the field's digest length `D`
            /// ([`crate::modes::digest_len`]: 1 on BN254 and BLS12-381, 4 on Goldilocks) and the
            /// width must give an arity of at least 2; anything else is a compile-time error.
            ///
            /// ```
            /// # #[cfg(feature = "goldilocks")] {
            /// use fast_poseidon2::goldilocks::GoldilocksFast as G;
            /// use fast_poseidon2::instances::goldilocks;
            /// let perm = goldilocks::ct::t12();
            /// let leaves = [[G::new(1); 4], [G::new(2); 4]];
            /// let root = perm.merkle_root_digests(&leaves).unwrap();
            /// assert_eq!(root, perm.compress_digests(&leaves));
            /// # }
            /// ```
            ///
            /// # Errors
            /// [`Error::EmptyInput`] if `leaves` is empty.
            pub fn merkle_root_digests<const N: usize>(&self, leaves: &[[F; N]]) -> Result<[F; N], Error> {
                const {
                    assert!(
                        N == digest_len::<F>(),
                        "digests of this field have digest_len elements"
                    );
                    assert!(
                        matches!(crate::modes::merkle_arity(T, N), Some(arity) if arity >= 2),
                        "a Merkle tree needs merkle_arity(T, D) >= 2"
                    );
                };
                merkle_root_array(self, leaves)
            }
        }

        #[cfg(feature = "alloc")]
        impl<F: PrimeField + $($bound)+> $runtime {
            /// The root of the Merkle tree over single-element leaves (rules in the [module
            /// docs](crate::modes::merkle)), built level by level with [`Self::compress_batch`].
            ///
            /// # Errors
            /// [`Error::DigestTooShort`] on a field whose digest is more than one element
            /// (Goldilocks: use [`Self::merkle_root_digests`]); [`Error::UnsupportedWidth`] for t =
            /// 2 (arity 1: the tree would never narrow); [`Error::EmptyInput`] if `leaves` is
            /// empty.
            pub fn merkle_root(&self, leaves: &[F]) -> Result<F, Error> {
                check_single_element_digest::<F>()?;
                let [root] = merkle_root_array(self, leaves.as_chunks::<1>().0)?;
                Ok(root)
            }

            /// The root of the Merkle tree over `N`-element leaf digests (rules in the
            /// [module docs](crate::modes::merkle)).
            ///
            /// # Errors
            /// In this order: [`Error::InvalidDigestLength`] unless `N` is the field's digest
            /// length ([`crate::modes::digest_len`]); [`Error::UnsupportedWidth`] if the width
            /// gives no arity of at least 2; [`Error::EmptyInput`] if `leaves` is empty.
            pub fn merkle_root_digests<const N: usize>(&self, leaves: &[[F; N]]) -> Result<[F; N], Error> {
                merkle_root_array(self, leaves)
            }
        }
    };
}

super::for_each_family!(impl_merkle_roots);

/// Leaves per subtree that [`MerkleBuilder`] reduces in one go: the largest power of the arity
/// not above this (4,096 states in its first batch at arity 2).
const SUBTREE_MAX_LEAVES: usize = 8192;

/// An incremental Merkle tree: push leaves in pieces of any size, then [`Self::finish`] returns
/// the root that `merkle_root` / `merkle_root_digests` give over all the leaves at once (same
/// tree, same padding, module docs).
///
/// Memory: one buffer of a complete subtree's leaves (`a^k <= 8192` leaves for arity `a`, i.e.
/// 256 KiB of BN254 elements, plus its states while it is compressed) and fewer than `a`
/// pending nodes per level above it: O(log n) nodes besides the one bounded buffer, whatever
/// the number of leaves. Each full buffer is compressed on the batch path (every core with the
/// `parallel` feature).
///
/// Leaves are a flat stream of field elements, every `D` consecutive elements one leaf digest
/// ([`crate::modes::digest_len`]); a piece may end inside a leaf.
///
/// ```
/// # #[cfg(feature = "bn254")] {
/// use ark_bn254::Fr;
/// use fast_poseidon2::{instances::bn254, merkle::MerkleBuilder};
/// let perm = bn254::ct::t3();
/// let leaves: Vec<Fr> = (0..1000u64).map(Fr::from).collect();
/// let mut builder = MerkleBuilder::new(&perm).unwrap();
/// builder.push(&leaves[..10]).unwrap();
/// builder.push(&leaves[10..]).unwrap();
/// let [root] = builder.finish().unwrap();
/// assert_eq!(root, perm.merkle_root(&leaves).unwrap());
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct MerkleBuilder<'a, P: Permutation> {
    perm: &'a P,
    /// `arity · D`: elements per compression group.
    group: usize,
    /// `k`: the buffer holds up to `arity^k` leaves, a complete subtree.
    subtree_height: u32,
    /// Leaf elements of the current subtree, flat.
    buffer: Vec<P::Field>,
    /// `stack[i]`: the pending nodes (fewer than `arity`, flat) of level `k + i`.
    stack: Vec<Vec<P::Field>>,
    /// Leaf elements pushed so far.
    elements: u64,
}

impl<'a, P: Permutation> MerkleBuilder<'a, P>
where
    P::Field: PrimeField,
{
    /// An empty tree over `perm`. Allocates nothing until the first [`Self::push`].
    ///
    /// # Errors
    /// [`Error::UnsupportedWidth`] if `perm`'s width gives no arity of at least 2 (t = 2 on
    /// BN254; `t < 2D` elsewhere).
    pub fn new(perm: &'a P) -> Result<Self, Error> {
        let group = tree_group(perm)?;
        let arity = group / digest_len::<P::Field>();
        let mut subtree_height = 1;
        while arity.pow(subtree_height + 1) <= SUBTREE_MAX_LEAVES {
            subtree_height += 1;
        }
        Ok(MerkleBuilder {
            perm,
            group,
            subtree_height,
            buffer: Vec::new(),
            stack: Vec::new(),
            elements: 0,
        })
    }

    /// The number of children per compression.
    fn arity(&self) -> usize {
        self.group / digest_len::<P::Field>()
    }

    /// Appends leaf elements: every `D` consecutive elements of the whole stream are one leaf
    /// (`D` = [`crate::modes::digest_len`], 1 on BN254 and BLS12-381). Whenever a complete
    /// subtree's leaves are buffered, it is compressed on the batch path.
    ///
    /// # Errors
    /// [`Error::TooManyInputs`] if the total would pass `u64::MAX` elements; nothing is pushed
    /// then and the builder stays usable.
    pub fn push(&mut self, elements: &[P::Field]) -> Result<(), Error> {
        let room = u64::MAX - self.elements;
        if elements.len() as u64 > room {
            return Err(Error::TooManyInputs {
                got: elements.len(),
                max: usize::try_from(room).unwrap_or(usize::MAX),
            });
        }
        self.elements += elements.len() as u64;
        let subtree = self.arity().pow(self.subtree_height) * digest_len::<P::Field>();
        let mut rest = elements;
        while !rest.is_empty() {
            if self.buffer.capacity() == 0 {
                self.buffer.reserve_exact(subtree);
            }
            let take = (subtree - self.buffer.len()).min(rest.len());
            self.buffer.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.buffer.len() == subtree {
                let mut level = compress_groups(self.perm, &self.buffer, self.group);
                for _ in 1..self.subtree_height {
                    level = compress_groups(self.perm, &level, self.group);
                }
                self.buffer.clear();
                self.carry(level);
            }
        }
        Ok(())
    }

    /// Pushes a complete subtree's root onto level `k` of the stack, compressing every group that
    /// fills up on the way.
    fn carry(&mut self, mut node: Vec<P::Field>) {
        for level in 0.. {
            if self.stack.len() == level {
                self.stack.push(Vec::with_capacity(self.group));
            }
            let pending = &mut self.stack[level];
            pending.extend_from_slice(&node);
            if pending.len() < self.group {
                return;
            }
            node = compress_groups(self.perm, pending, self.group);
            pending.clear();
        }
    }

    /// The number of whole leaves pushed so far.
    pub fn leaf_count(&self) -> u64 {
        self.elements / digest_len::<P::Field>() as u64
    }

    /// The root over every leaf pushed: what `merkle_root_digests` (or, for `D = 1`,
    /// `merkle_root`) returns for the same leaves. `N` must be the digest length `D`
    /// (`let [root] = builder.finish()?` on BN254).
    ///
    /// # Errors
    /// In this order: [`Error::InvalidDigestLength`] unless `N = D`;
    /// [`Error::InvalidBatchLength`] (with `width = D`) if the pushed elements end inside a
    /// leaf; [`Error::EmptyInput`] if no leaf was pushed.
    pub fn finish<const N: usize>(self) -> Result<[P::Field; N], Error> {
        check_stream::<P::Field, N>(self.elements)?;
        if self.elements == 0 {
            return Err(Error::EmptyInput);
        }
        Ok(self.root())
    }

    /// A root that also binds the number of leaves `n`: the compression of the plain root
    /// ([`Self::finish`]) with the digest of `n`, `compress(root, count(n), 0, …)`, where
    /// `count(n)` is `n` written in base `2^b`, `b = min(MODULUS_BITS - 1, 128)`, least
    /// significant digit first, over the digest's `D` elements (one element `n` on BN254 and
    /// BLS12-381, `[n, 0, 0, 0]` on Goldilocks for every `n < 2^63`) and the remaining
    /// children are all-zero digests. No leaves give `compress(0, count(0), 0, …)`, so an empty
    /// set has a root too. Trees of different sizes never share this root unless the
    /// compression collides; frozen by known answers (`tests/vectors/modes_kats.json`).
    ///
    /// # Errors
    /// [`Error::InvalidDigestLength`] unless `N = D`; [`Error::InvalidBatchLength`] (with
    /// `width = D`) if the pushed elements end inside a leaf.
    pub fn finish_with_leaf_count<const N: usize>(self) -> Result<[P::Field; N], Error> {
        check_stream::<P::Field, N>(self.elements)?;
        let (perm, group, leaves) = (self.perm, self.group, self.leaf_count());
        let root: [P::Field; N] = if leaves == 0 {
            [P::Field::ZERO_ELEMENT; N]
        } else {
            self.root()
        };
        let mut children = [P::Field::ZERO_ELEMENT; crate::MAX_WIDTH];
        children[..N].copy_from_slice(&root);
        crate::modes::write_digits(&mut children[N..2 * N], u128::from(leaves));
        let mut out = [P::Field::ZERO_ELEMENT; N];
        crate::modes::compress::compress_into(perm, &children[..group], &mut out);
        Ok(out)
    }

    /// The root of a non-empty tree whose element count is a whole number of leaves.
    fn root<const N: usize>(mut self) -> [P::Field; N] {
        let (arity, height) = (self.arity() as u64, self.subtree_height as usize);
        let mut count = self.leaf_count();
        let mut tail = core::mem::take(&mut self.buffer);
        for level in 0usize.. {
            if let Some(pending) = level
                .checked_sub(height)
                .and_then(|i| self.stack.get_mut(i))
            {
                pending.append(&mut tail);
                tail = core::mem::take(pending);
            }
            if count == 1 {
                break;
            }
            if !tail.is_empty() {
                tail.resize(
                    tail.len().next_multiple_of(self.group),
                    P::Field::ZERO_ELEMENT,
                );
                tail = compress_groups(self.perm, &tail, self.group);
            }
            count = count.div_ceil(arity);
        }
        let mut root = [P::Field::ZERO_ELEMENT; N];
        root.copy_from_slice(&tail);
        root
    }
}

/// The checks shared by both `finish` forms: `N = D` and a whole number of leaves.
fn check_stream<F: PrimeField, const N: usize>(elements: u64) -> Result<(), Error> {
    let digest = digest_len::<F>();
    if N != digest {
        return Err(Error::InvalidDigestLength {
            got: N,
            expected: digest,
        });
    }
    if !elements.is_multiple_of(digest as u64) {
        return Err(Error::InvalidBatchLength {
            len: usize::try_from(elements).unwrap_or(usize::MAX),
            width: digest,
        });
    }
    Ok(())
}
