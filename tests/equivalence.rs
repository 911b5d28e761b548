//! Equivalence: every fast path equals an independent definition of the same function.
//!
//! - `zkhash_differential`: both permutation paths against the reference crate `zkhash` 0.2;
//! - `textbook_agreement`: both paths against the textbook oracle (`testkit::textbook`);
//! - `properties`: permutation, compression, sponge, batch, Merkle root and byte API against the
//!   textbook oracle on random inputs (proptest);
//! - `poseidon1`: circom BN254 Poseidon1, optimized schedule against the dense textbook and
//!   light-poseidon 0.5.0 (field and byte APIs, domain tags, batches);
//! - `stark252`: Starknet's Poseidon against starknet-crypto 0.8 and the dense textbook
//!   permutation (partial S-box on the last element), batches and modes;
//! - `batch`: every batch backend this CPU runs against the scalar permutation.

mod batch;
mod poseidon1;
mod properties;
mod stark252;
mod textbook_agreement;
mod zkhash_differential;
