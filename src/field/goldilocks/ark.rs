//! The ark-ff 0.6 Goldilocks field.

use ark_ff::fields::{Fp64, MontBackend, MontConfig};

/// ark-ff Montgomery configuration of the Goldilocks field: modulus `2^64 - 2^32 + 1`,
/// multiplicative generator 7 (the reference's `FpGoldiLocks`, `plain_implementations/src/fields/goldilocks.rs`).
#[derive(MontConfig)]
#[modulus = "18446744069414584321"]
#[generator = "7"]
pub struct GoldilocksConfig;

/// The Goldilocks field `p = 2^64 - 2^32 + 1` as an ark-ff 0.6 `Fp64` (Montgomery form).
pub type Goldilocks = Fp64<MontBackend<GoldilocksConfig, 1>>;
