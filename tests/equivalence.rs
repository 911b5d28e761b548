//! Equivalence: every fast path equals an independent definition of the same function.
//!
//! - `zkhash_differential`: both permutation paths against the reference crate `zkhash` 0.2;
//! - `textbook_agreement`: both paths against the textbook oracle (`testkit::textbook`);
//! - `properties`: permutation, compression, sponge, batch, Merkle root and byte API against the
//!   textbook oracle on random inputs (proptest);
//! - `batch`: every batch backend this CPU runs against the scalar permutation.

// One inline module named after the binary, so that its files live in `tests/equivalence/`.
mod equivalence {
    mod batch;
    mod properties;
    mod textbook_agreement;
    mod zkhash_differential;
}
