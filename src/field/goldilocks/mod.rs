//! The Goldilocks field `p = 2^64 - 2^32 + 1` in two representations with the same elements.
//!
//! - [`Goldilocks`]: ark-ff 0.6 `Fp64` (Montgomery form), for ark users; the permutation types
//!   run on it too, more slowly.
//! - [`GoldilocksFast`]: a plain `u64` with special-form reduction (`2^64 = 2^32 - 1 mod p`) and
//!   lazily reduced values; every shipped instance (`ct::tN()` and the cached `poseidon2_tN()`
//!   getters) runs on it.
//!
//! Both implement [`crate::field::Field`] and [`crate::field::PrimeField`], convert into each other
//! with `From`, and give identical permutation outputs. The field types are always compiled (the
//! generator in `xtask` needs them); only the instances are behind the `goldilocks` feature.
//!
//! ```
//! use fast_poseidon2::goldilocks::{Goldilocks, GoldilocksFast};
//!
//! let fast = GoldilocksFast::new(u64::MAX); // 2^64 - 1 = 2^32 - 2 (mod p)
//! assert_eq!(fast.to_canonical_u64(), (1 << 32) - 2);
//! assert_eq!(Goldilocks::from(fast), Goldilocks::from((1u64 << 32) - 2));
//! ```

mod ark;
pub(crate) mod fast;

pub use ark::{Goldilocks, GoldilocksConfig};
pub use fast::GoldilocksFast;

/// The Goldilocks prime `p = 2^64 - 2^32 + 1`.
pub const MODULUS: u64 = 0xffff_ffff_0000_0001;
