//! The public API's contracts: the modes' definitions and vectors, every documented error (and
//! that the caller can go on after it), and the `merkle_root` example.
//!
//! - `adapters_arkworks`, `adapters_rs_merkle`, `adapters_plonky3`: the adapters inside the
//!   libraries they adapt (features `arkworks`, `rs_merkle`, `p3`; the Plonky3 one against
//!   Plonky3's own permutations);
//! - `ark_names`: the crate's traits in scope beside ark-ff's cause no name ambiguity;
//! - `circom_bytes`: the circom BN254 Poseidon1 byte and field APIs (the shared byte-API cases);
//! - `errors`: each `Error` variant from the call that documents it;
//! - `modes_bytes`, `modes_compress`, `modes_message`, `modes_sponge`: the byte API, compression,
//!   the message hash and the sponge; `modes_monty31`: the modes on BabyBear and KoalaBear;
//! - `example_merkle_root`: the example's root against the reference implementation.

mod adapters_arkworks;
mod adapters_plonky3;
mod adapters_rs_merkle;
mod ark_names;
mod circom_bytes;
mod errors;
mod example_merkle_root;
mod modes_bytes;
mod modes_compress;
mod modes_message;
mod modes_monty31;
mod modes_sponge;
