//! The KoalaBear field `p = 2^31 - 2^24 + 1 = 127 · 2^24 + 1 = 2130706433` (31 bits), in
//! 32-bit Montgomery form ([`super::monty31`]). Always compiled (the generator in `xtask`
//! needs it); the instances are behind the `koalabear` feature.
//!
//! ```
//! use fast_poseidon2::koalabear::KoalaBear;
//! use fast_poseidon2::field::{Field, PrimeField};
//!
//! let x = KoalaBear::new(7);
//! assert_eq!(x.inverted().map(|y| y.mul(x)), Some(KoalaBear::ONE_ELEMENT));
//! ```

super::monty31::monty31_field! {
    /// A KoalaBear element (`p = 2^31 - 2^24 + 1`), stored in Montgomery form.
    KoalaBear, KoalaBearModulus, "KoalaBear", 0x7f00_0001, wide reduction false
}
