//! Known answers: the crate reproduces outputs and constants it did not compute itself, and
//! keeps the ones it froze.
//!
//! - `kat`: the Horizen Labs reference's permutation known answers (`tests/vectors/kats.json`)
//!   and Plonky3's answers for its instances (`tests/vectors/plonky3_kats.json`);
//! - `frozen_kats`: the frozen answers of the instances the reference does not ship;
//! - `plonky3_modes`: Plonky3's `TruncatedPermutation` and `PaddingFreeSponge` vectors;
//! - `noir_bn254_t4`: Noir/Barretenberg's BN254 t = 4 permutation vectors;
//! - `circom_poseidon1`: our Grain regenerates light-poseidon 0.5.0's circom BN254 Poseidon1
//!   tables; the baked circom tables do not drift;
//! - `stark252_poseidon`: Starknet's Poseidon: CryptoExperts' permutation answers for t = 3, 4,
//!   5, 9, cairo-lang's hash answers, and the baked Stark tables do not drift;
//! - `reference_constants`: the Grain LFSR regenerates the reference's constants.

mod circom_poseidon1;
mod frozen_kats;
mod kat;
mod noir_bn254_t4;
mod plonky3_modes;
mod reference_constants;
mod stark252_poseidon;
