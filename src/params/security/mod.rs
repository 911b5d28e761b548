//! Security conditions: the internal-matrix check (paper section 5.3 and the reference's
//! `poseidon2_rust_params.sage`, `check_minpoly_condition`), the Poseidon1 MDS-matrix checks
//! (hadeshash `generate_parameters_grain.sage`, `algorithm_1` to `algorithm_3`) and the round
//! numbers (paper section 5.4, Poseidon paper eprint 2019/458 section 5.5, and eprint 2023/537).

#[cfg(feature = "alloc")]
mod internal_matrix;
#[cfg(feature = "alloc")]
mod mds_matrix;
mod round_numbers;

#[cfg(feature = "alloc")]
pub use internal_matrix::check_internal_matrix;
#[cfg(feature = "alloc")]
pub use mds_matrix::check_mds_matrix;
pub use round_numbers::round_numbers;
