//! # fast-poseidon2
//!
//! The Poseidon2 permutation (Grassi, Khovratovich, Schofnegger: *Poseidon2: A Faster Version of
//! the Poseidon Hash Function*, eprint 2023/323), bit-for-bit equal to the Horizen Labs reference
//! implementation (`HorizenLabs/poseidon2`, crate `zkhash` 0.2).
//!
//! Two ways to run it, same output:
//! - [`ct::Poseidon2Ct`]: width, rounds and degree as const generics; `[F; T]` on the stack; no
//!   allocation anywhere.
//! - [`Poseidon2`]: width known at run time, built from [`Poseidon2Params`] (needs `alloc`);
//!   wrong lengths are errors, never panics.
//!
//! ```
//! # #[cfg(all(feature = "bn254", feature = "std"))] {
//! use ark_bn254::Fr;
//! use fast_poseidon2::instances::bn254;
//!
//! // Const-generic: BN254, t = 3, R_F = 8, R_P = 56, d = 5.
//! let perm = bn254::ct::t3();
//! let out = perm.permutation(&[Fr::from(0u64), Fr::from(1u64), Fr::from(2u64)]);
//!
//! // Runtime width, cached instance: same answer.
//! let flexible = bn254::poseidon2_t3();
//! let out2 = flexible.permutation(&[Fr::from(0u64), Fr::from(1u64), Fr::from(2u64)]).unwrap();
//! assert_eq!(out.to_vec(), out2);
//! # }
//! ```
//!
//! On top of either permutation (modules [`modes`], [`bytes`], [`merkle`]), every capacity and
//! digest sized by one 128-bit rule, `c = D = ceil(248 / MODULUS_BITS)` elements
//! ([`modes::security_elements`]: 1 on BN254 and BLS12-381, 4 on Goldilocks):
//! - `compress_digests` / `compress`: Merkle compression of `D`-element nodes (on BN254 and
//!   BLS12-381 `(t-1)`-to-1 `perm(x ‖ 0)[0]`, as the reference's `MerkleTreeHash`; on Goldilocks
//!   `perm(l ‖ r ‖ 0 …)[..4]`);
//! - `merkle_root` / `merkle_root_digests` and the incremental [`merkle::MerkleBuilder`];
//! - `hash` / `hash_into` and the streaming [`modes::Sponge`]: a length-declared sponge whose
//!   BN254 t = 4, rate 3 output is Noir's `Poseidon2::hash` (see `docs/compat.md`);
//! - `hashv_bytes` / `hash_bytes_be` / `hash_bytes_le`: the byte API a hashing syscall wraps
//!   (canonical encodings only, all lengths checked first, no allocation);
//! - `hash_message` / `hash_message_elements` ([`modes::message`]): any byte string (a file, a
//!   JSON leaf, the empty string) to one digest, injectively, without allocating.
//!
//! # Batches
//! `permute_batch` (both types), `compress_batch` and `merkle_root` hash many independent states
//! at once. With `std` on x86_64, chosen at run time without build flags ([`batch_backend`] says
//! which path runs): a CPU with AVX-512 IFMA runs BN254 and BLS12-381 batches 8 states per
//! vector; Goldilocks batches (`GoldilocksFast` and ark's `Goldilocks`) run 8 states per vector
//! with AVX-512F, else 4 with AVX2; BabyBear and KoalaBear batches 16 states per vector with
//! AVX-512F, else 8 with AVX2 (with AVX-512F, states left after its vectors run one AVX2 vector
//! when they fill one; `FAST_POSEIDON2_NO_AVX512=1` in the environment skips the AVX-512
//! kernels). Everything else takes the portable scalar path, with identical output.
//! `RUSTFLAGS="--cfg fast_poseidon2_force_portable"` forces the portable path (testing).
//!
//! ```
//! # #[cfg(all(feature = "bn254", feature = "std"))] {
//! use fast_poseidon2::instances::bn254;
//! let perm = bn254::ct::t3();
//! let mut states = vec![[ark_bn254::Fr::from(1u64); 3]; 20];
//! perm.permute_batch(&mut states);
//! assert_eq!(states[19], perm.permutation(&[ark_bn254::Fr::from(1u64); 3]));
//! # }
//! ```
//!
//! # Cargo features
//! - `std` (default): cached instance getters `poseidon2_tN()`, run-time CPU detection for the
//!   SIMD batch backend; implies `alloc`.
//! - `parallel`: batches split across threads with rayon; implies `std`.
//! - `alloc`: [`Poseidon2`], [`Poseidon2Params`] and generation.
//! - `bn254`, `bls12-381`, `goldilocks`, `babybear`, `koalabear` (default): the shipped
//!   instances of each field (`instances::plonky3` holds Plonky3's, each behind its field's
//!   feature).
//! - `stark252` (default): Starknet's Poseidon over the Stark field ([`stark252::Felt252`]),
//!   `instances::stark252` (StarkWare's t = 3, 4, 5, 9 permutations and starknet-crypto's hash
//!   functions).
//! - `starknet`: conversions between [`stark252::Felt252`] and starknet-types-core 0.2's `Felt`.
//! - `arkworks`: [`adapters::arkworks`], ark-crypto-primitives 0.6's CRH, Merkle-tree and sponge
//!   traits for the BN254 and BLS12-381 instances; implies `alloc`.
//! - `rs_merkle`: [`adapters::rs_merkle`], rs_merkle 1.5's `Hasher` for every shipped instance.
//! - `p3`: [`adapters::plonky3`], Plonky3 0.8.0's `Permutation` and `CryptographicPermutation`
//!   for the `instances::plonky3` permutations on Plonky3's field types.
//!
//! Without default features the crate is `no_std` and offers the field traits and
//! [`ct::Poseidon2Ct`].
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The layers, bottom up: `field` (arithmetic) -> `params` (Grain LFSR, round numbers, security
// checks) -> `poseidon2` (linear layers, round driver, the two permutation types) -> `modes`
// (sponge, compression, bytes, batches, Merkle trees) -> `simd` (the batch kernels and their
// dispatcher); `instances` holds the shipped parameter sets, `error` the one error type. A
// module imports only from those to its left: the batch cache's data (`BatchBackend`, the
// kernel-form tables) is in `poseidon2::batch_cache` and each field's kernel data in
// `field::kernel_form`, the modes run batches through their `BatchPermutation` trait, and
// `simd` alone detects the CPU, fills the cache and implements that trait for both types.
#[cfg(any(feature = "arkworks", feature = "rs_merkle", feature = "p3"))]
#[cfg_attr(
    docsrs,
    doc(cfg(any(feature = "arkworks", feature = "rs_merkle", feature = "p3")))
)]
pub mod adapters;
mod error;
pub mod field;
pub mod instances;
pub mod modes;
pub mod params;
pub mod poseidon1;
pub mod poseidon2;
// One of the two modules allowed `unsafe`: SIMD batch kernels entered after run-time CPU
// detection. The other is `field::mulx_adx` (the scalar MULX/ADX products, the assembly
// addition and an empty `asm!` barrier for Goldilocks' reduction), fenced inside `field`.
#[allow(unsafe_code)]
// Where no SIMD backend is compiled (no `std`, other targets, Miri, forced portable) the batch
// cache and kernel tables are never filled: their code is unused there.
#[cfg_attr(not(fast_poseidon2_simd), allow(dead_code, unused_variables))]
mod simd;

// The public paths of the first releases (the README and crate docs use them).
pub use error::Error;
pub use field::babybear;
pub use field::goldilocks;
pub use field::koalabear;
pub use field::stark252;
pub use modes::bytes;
pub use modes::bytes::{Endianness, MAX_BYTE_INPUTS};
#[cfg(feature = "alloc")]
pub use modes::merkle;
#[cfg(feature = "alloc")]
pub use params::Poseidon2Params;
pub use params::security;
pub use params::{ExternalMatrix, MAX_WIDTH};
#[cfg(feature = "alloc")]
pub use poseidon2::Poseidon2;
pub use poseidon2::batch_cache::BatchBackend;
pub use poseidon2::{ct, linear};
pub use simd::batch_backend;

/// The README's code blocks, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// `docs/adapters.md`'s code blocks, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../docs/adapters.md")]
struct AdaptersDoctests;
