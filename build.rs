//! Sets `cfg(fast_poseidon2_simd)` where the runtime-detected x86_64 code is compiled: the batch
//! kernels (AVX-512 IFMA, AVX-512/AVX2 Goldilocks) and the scalar MULX/ADX products. That is
//! x86_64 with `std` (run-time CPU detection), not under Miri (which does not run the
//! intrinsics) and not forced portable (`RUSTFLAGS="--cfg fast_poseidon2_force_portable"`, for
//! testing the portable path on a machine that has the instructions). Everywhere else only the
//! portable code is built.
//!
//! Also sets `cfg(fast_poseidon2_unoptimized)` when this crate is built at opt-level 0 (Cargo's
//! `OPT_LEVEL`; the default `dev` profile): the batch path then keeps its layers out of line so
//! that its stack frames stay small (see `src/simd/mod.rs`, "Stack frames in unoptimised
//! builds").

use std::env;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let set = |name: &str| env::var_os(name).is_some();
    let x86_64 = env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "x86_64");
    if x86_64
        && set("CARGO_FEATURE_STD")
        && !set("CARGO_CFG_MIRI")
        && !set("CARGO_CFG_FAST_POSEIDON2_FORCE_PORTABLE")
    {
        println!("cargo::rustc-cfg=fast_poseidon2_simd");
    }
    if env::var("OPT_LEVEL").is_ok_and(|level| level == "0") {
        println!("cargo::rustc-cfg=fast_poseidon2_unoptimized");
    }
}
