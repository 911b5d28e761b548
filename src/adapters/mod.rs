//! Adapters to the Merkle-tree and proof libraries people already use, each behind its own
//! Cargo feature. The arkworks and rs_merkle adapters are generic over a shipped instance type
//! `P: `[`Instance`] (e.g. `instances::bn254::Bn254T3`); no value
//! is needed, the types are zero-sized. The Plonky3 adapter wraps a permutation value (a
//! `const` per Plonky3 instance, 8 bytes).
//!
//! | module | feature | for | crates it adds (normal dependencies) |
//! |---|---|---|---|
//! | [`arkworks`] | `arkworks` | `ark-crypto-primitives` 0.6: `CRHScheme`, `TwoToOneCRHScheme`, a Merkle `Config`, `CryptographicSponge` (BN254, BLS12-381) | 23 |
//! | [`rs_merkle`] | `rs_merkle` | `rs_merkle` 1.5: `Hasher` (every shipped instance) | 4 |
//! | [`plonky3`] | `p3` | Plonky3 0.8.0: `Permutation`, `CryptographicPermutation` on Plonky3's field types (the seven `instances::plonky3` permutations); needs Rust 1.93 | 30 |
//!
//! The counts are the crates `cargo tree -e normal --no-default-features --features bn254,X`
//! lists beyond `--features bn254` alone (39 crates; 62 with `arkworks`, 43 with `rs_merkle`,
//! 69 with `p3`). ark-crypto-primitives 0.6 runs on the ark 0.6 crates this crate already uses
//! (one ark major); rs_merkle adds itself, `sha2`, `block-buffer` and `cpufeatures`; `p3` adds
//! five Plonky3 crates and what they pull in (p3-monty-31, p3-poseidon2, p3-mds, rand 0.10,
//! serde, tracing, ...). Without these features the crate pulls nothing new.
//!
//! # The binary node
//! The arkworks and rs_merkle adapters build binary trees. Their node of two `D`-element digests is
//! [`Instance::get`]'s Merkle compression `perm(left ‖ right ‖ 0 …)[..D]` wherever the width
//! holds both children and a zero lane or a truncation (every shipped width but t = 2: at t = 3
//! exactly the crate's `compress`, and the crate's `compress_digests` on Goldilocks; at t = 4,
//! 8, 12 on BN254 and BLS12-381 the crate's `compress` with the extra children zero). At t = 2
//! (BN254, BLS12-381), which has no two-child compression, the node is the sponge
//! `hash([left, right])` at rate 1 with one output.

#[cfg(feature = "arkworks")]
#[cfg_attr(docsrs, doc(cfg(feature = "arkworks")))]
pub mod arkworks;
#[cfg(feature = "p3")]
#[cfg_attr(docsrs, doc(cfg(feature = "p3")))]
pub mod plonky3;
#[cfg(feature = "rs_merkle")]
#[cfg_attr(docsrs, doc(cfg(feature = "rs_merkle")))]
pub mod rs_merkle;

#[cfg(any(feature = "arkworks", feature = "rs_merkle"))]
use crate::instances::Instance;
#[cfg(any(feature = "arkworks", feature = "rs_merkle"))]
use crate::modes::compress::compress_into;
#[cfg(any(feature = "arkworks", feature = "rs_merkle"))]
use crate::modes::merkle_arity;
#[cfg(any(feature = "arkworks", feature = "rs_merkle"))]
use crate::modes::sponge::hash_pieces_unchecked;

/// The binary node of the module docs: `left` and `right` (`D` elements each) to `out` (`D`
/// elements).
#[cfg(any(feature = "arkworks", feature = "rs_merkle"))]
pub(crate) fn two_to_one<P: Instance>(left: &[P::Field], right: &[P::Field], out: &mut [P::Field]) {
    let perm = P::get();
    match merkle_arity(P::WIDTH, P::DIGEST_LEN) {
        Some(arity) if arity >= 2 => {
            // At most 2 · D <= t children: a stack copy of the state's first 2D lanes.
            let mut children = perm.zero_state();
            let children = &mut children.as_mut()[..2 * P::DIGEST_LEN];
            let (l, r) = children.split_at_mut(P::DIGEST_LEN);
            l.copy_from_slice(left);
            r.copy_from_slice(right);
            compress_into(perm, children, out);
        }
        // t = 2 with one-element digests: rate 1 leaves the secure capacity of 1.
        _ => hash_pieces_unchecked(perm, P::RATE, &[left, right], out),
    }
}
