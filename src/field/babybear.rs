//! The BabyBear field `p = 2^31 - 2^27 + 1 = 15 · 2^27 + 1 = 2013265921` (31 bits), in
//! 32-bit Montgomery form ([`super::monty31`]). Always compiled (the generator in `xtask`
//! needs it); the instances are behind the `babybear` feature.
//!
//! ```
//! use fast_poseidon2::babybear::BabyBear;
//! use fast_poseidon2::field::{Field, PrimeField};
//!
//! let x = BabyBear::new(7);
//! assert_eq!(x.inverted().map(|y| y.mul(x)), Some(BabyBear::ONE_ELEMENT));
//! ```

super::monty31::monty31_field! {
    /// A BabyBear element (`p = 2^31 - 2^27 + 1`), stored in Montgomery form.
    BabyBear, BabyBearModulus, "BabyBear", 0x7800_0001, wide reduction true
}
