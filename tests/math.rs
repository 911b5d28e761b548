//! The mathematics under the permutation: fields, security conditions and operation counts.
//!
//! - `field_ark`, `goldilocks_field`: the field implementations against ark-ff and `u128`;
//! - `stark252_field`: the Stark field against a bigint reference and ark-ff;
//! - `monty31_field`: BabyBear and KoalaBear against `u64` arithmetic;
//! - `goldilocks_instances`: the Goldilocks instances' parameters;
//! - `small_fields`: permutations over fields small enough to enumerate;
//! - `security`: round numbers and the internal-matrix check;
//! - `mds_security`: the Poseidon1 MDS-matrix checks against a model of the reference's
//!   algorithms, and the redraws of `Poseidon1Params::generate`;
//! - `op_counts`: exact operation counts of one permutation call (Poseidon2, and the optimized
//!   Poseidon1 schedule against the dense one).

mod field_ark;
mod goldilocks_field;
mod goldilocks_instances;
mod mds_security;
mod monty31_field;
mod op_counts;
mod security;
mod small_fields;
mod stark252_field;
