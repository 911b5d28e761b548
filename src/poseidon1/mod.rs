//! The original Poseidon permutation (Poseidon1; eprint 2019/458, section 2 and appendix B):
//! the one round driver on the optimized schedule (`permutation`), the derivation of that
//! schedule from the reference parameters ([`schedule`]), the const-generic
//! [`ct::Poseidon1Ct`] and the runtime-width [`Poseidon1`]. Both types run the same driver and
//! give the same outputs, equal to the reference round structure (hadeshash
//! `poseidonperm_x5_254_*`, circomlibjs `poseidon_reference.js`): `R_F / 2` full rounds, `R_P`
//! partial rounds (S-box on `x_0` only, or on `x_{t-1}` only as in StarkWare's Hades
//! permutation: [`PartialSbox`]), `R_F / 2` full rounds, each round = add round constants,
//! S-box `x^d`, MDS.
//!
//! The parameters ([`crate::params::poseidon1::Poseidon1Params`], with their Grain generation)
//! are in the parameter layer; the circom BN254 instances in
//! [`crate::instances::circom_bn254`] (feature `bn254`), StarkWare's (Starknet's) in
//! `crate::instances::stark252` (feature `stark252`).
//!
//! ```
//! # #[cfg(all(feature = "bn254", feature = "std"))] {
//! use ark_bn254::Fr;
//! use fast_poseidon2::instances::circom_bn254;
//!
//! // circom's Poseidon(2): state [0, 1, 2], width 3, output state[0].
//! let h = circom_bn254::hash(&[Fr::from(1u64), Fr::from(2u64)]).unwrap();
//! let state = circom_bn254::ct::t3().permutation(&[Fr::from(0u64), Fr::from(1u64), Fr::from(2u64)]);
//! assert_eq!(h, state[0]);
//! # }
//! ```

pub mod ct;
pub(crate) mod permutation;
#[cfg(feature = "alloc")]
mod runtime;
#[cfg(feature = "alloc")]
pub mod schedule;

pub use crate::params::PartialSbox;
#[cfg(feature = "alloc")]
pub use crate::params::poseidon1::Poseidon1Params;
#[cfg(feature = "alloc")]
pub use runtime::Poseidon1;
