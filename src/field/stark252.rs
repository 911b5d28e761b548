//! The Stark field, `p = 2^251 + 17 · 2^192 + 1` (StarkWare's Cairo and Starknet prime, the
//! field of Starknet's Poseidon; instances in `crate::instances::stark252` with the `stark252`
//! feature).
//!
//! [`Felt252`] is an ark-ff 0.6 four-limb Montgomery field (`R = 2^256`), so it runs this
//! crate's inlined Montgomery arithmetic of [`crate::field::ark`] (`p < 2^254`: the lazy S-box
//! chain applies; the MULX/ADX products where the CPU has them, the portable products
//! otherwise) and keeps every ark API (`PrimeField`, `FftField` with two-adicity 192, serde-free
//! canonical encodings). Its canonical encoding is 32 bytes (252 bits).
//!
//! With the `starknet` feature, [`to_starknet`] and [`from_starknet`] convert to and from
//! `starknet-types-core` 0.2's `Felt` (the same field; the conversion goes through the
//! canonical 32-byte big-endian encoding).
//!
//! ```
//! use fast_poseidon2::field::PrimeField;
//! use fast_poseidon2::stark252::Felt252;
//!
//! let mut p_minus_one = [0u8; 32];
//! (-Felt252::from(1u64)).write_canonical_be_bytes(&mut p_minus_one);
//! assert_eq!(p_minus_one[0], 0x08);
//! assert_eq!(p_minus_one[7], 0x11);
//! assert_eq!(p_minus_one[31], 0x00);
//! ```

// ark-ff-macros 0.6 emits `cfg(feature = "asm")` tests of ark's own feature, which this
// crate's check-cfg list does not (and must not) declare.
#[allow(unexpected_cfgs)]
mod config {
    //! The derive's own module: the crate's `Field` trait is not in scope here, so the
    //! generated code's `Field` and `ZERO` resolve to ark's.

    /// ark-ff's Montgomery constants of the Stark field. Generator 3 (a primitive root:
    /// `p - 1 = 2^192 · 5 · 7 · 98714381 · 166848103`, and `3^((p - 1) / q) != 1` for each prime
    /// `q` there).
    #[derive(ark_ff::MontConfig)]
    #[modulus = "3618502788666131213697322783095070105623107215331596699973092056135872020481"]
    #[generator = "3"]
    pub struct Felt252Config;
}

pub use config::Felt252Config;

/// An element of the Stark field `p = 2^251 + 17 · 2^192 + 1`, in ark-ff's Montgomery form.
pub type Felt252 = ark_ff::Fp256<ark_ff::MontBackend<Felt252Config, 4>>;

/// `x` as `starknet-types-core` 0.2's `Felt` (the same integer in `[0, p)`).
#[cfg(feature = "starknet")]
#[cfg_attr(docsrs, doc(cfg(feature = "starknet")))]
pub fn to_starknet(x: Felt252) -> starknet_types_core::felt::Felt {
    use crate::field::PrimeField;
    let mut bytes = [0u8; 32];
    x.write_canonical_be_bytes(&mut bytes);
    starknet_types_core::felt::Felt::from_bytes_be(&bytes)
}

/// `starknet-types-core` 0.2's `Felt` as a [`Felt252`] (the same integer in `[0, p)`; a `Felt`
/// is always canonical, so nothing is reduced).
#[cfg(feature = "starknet")]
#[cfg_attr(docsrs, doc(cfg(feature = "starknet")))]
pub fn from_starknet(x: &starknet_types_core::felt::Felt) -> Felt252 {
    use crate::field::PrimeField;
    Felt252::from_be_bytes_reduced(&x.to_bytes_be())
}
