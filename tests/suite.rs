//! The crate's one integration-test binary. Each file beside this one is a module of it (and
//! each folder holds that module's files), named after what it checks:
//!
//! - `known_answers`: reference, frozen, Noir, circom and Starknet known answers; the Grain
//!   constants;
//! - `equivalence`: the fast paths against `zkhash`, light-poseidon, starknet-crypto, the
//!   textbook oracle; properties; every batch backend;
//! - `api`: the modes, the byte API, every error variant, the adapters, the `merkle_root`
//!   example;
//! - `math`: field arithmetic, security conditions, small fields, operation counts;
//! - `no_alloc`: zero heap allocations (a counting global allocator, per thread);
//! - `miri`: the reduced-round suite `scripts/miri.sh` runs under Miri;
//! - `constant_time`: no branch or address from secret state values (valgrind memcheck).
//!
//! One binary rather than one per module (`autotests = false` in `Cargo.toml`): every test
//! instantiates the crate's generic permutations and modes for the shipped instances, and
//! optimised code is not shared between crates, so seven binaries compiled the same
//! instantiations seven times (about 80% of the release test build; see VERIFICATION.md).
//! Run one module with a name filter: `cargo test --release --test suite -- known_answers::`.

mod api;
mod constant_time;
mod equivalence;
mod known_answers;
mod math;
mod miri;
mod no_alloc;
