//! BabyBear, `p = 15 * 2^27 + 1 = 2013265921` (31 bits), as an ark-ff 0.6 `Fp64`: a 31-bit
//! prime field for the security-check and generation tests (the reference ships
//! `POSEIDON2_BABYBEAR_16_PARAMS` and `POSEIDON2_BABYBEAR_24_PARAMS` over it). Test-only: the
//! crate ships no BabyBear instance.

use ark_ff::fields::{Fp64, MontBackend, MontConfig};

/// Montgomery parameters of BabyBear (31 generates the multiplicative group).
#[derive(MontConfig)]
#[modulus = "2013265921"]
#[generator = "31"]
pub struct BabyBearConfig;

/// The BabyBear prime field.
pub type BabyBear = Fp64<MontBackend<BabyBearConfig, 1>>;
