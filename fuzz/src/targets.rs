//! The fuzz targets' bodies, one module per target (`fuzz_targets/<name>.rs` calls
//! `targets::<name>::run`). They live in this library rather than in the target binaries, so
//! that the generic code they instantiate for every shipped instance is compiled once for all
//! targets instead of once per binary.

pub mod batch_vs_scalar;
pub mod byte_api;
pub mod circom_bytes;
pub mod message_hash;
pub mod params_generate;
pub mod permutation_differential;
pub mod sponge;
