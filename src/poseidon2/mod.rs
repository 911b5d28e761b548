//! The Poseidon2 permutation (eprint 2023/323, section 5): the linear layers and the layer
//! trait a representation implements ([`linear`]), the one round driver (`permutation`), the
//! const-generic [`ct::Poseidon2Ct`] and the runtime-width [`Poseidon2`]. Both permutation types
//! run the same driver and give the same outputs; the modes ([`crate::modes`]) are written once
//! over them. What their batches keep (the [`crate::BatchBackend`] names, the batch cache of
//! kernel-form constants) is defined here in `batch_cache`, as data: the SIMD layer above
//! (`crate::simd`) fills it and runs the kernels.

// Where no SIMD backend is compiled (no `std`, other targets, Miri, forced portable) the batch
// cache is never filled: its tables and kernel data are unused there.
#[cfg_attr(not(fast_poseidon2_simd), allow(dead_code, unused_variables))]
pub(crate) mod batch_cache;
pub mod ct;
pub mod linear;
pub(crate) mod permutation;
#[cfg(feature = "alloc")]
mod runtime;

#[cfg(feature = "alloc")]
pub use runtime::Poseidon2;
