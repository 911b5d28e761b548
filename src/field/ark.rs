//! [`Field`] and [`PrimeField`] for every ark-ff 0.6 prime field `Fp<P, N>`.
//!
//! ark-ff's Montgomery arithmetic is used as it is; `==` compares Montgomery forms, which are
//! canonical in ark.

use super::{Field, PrimeField};
use ark_ff::{AdditiveGroup, BigInt, Fp, FpConfig, PrimeField as ArkPrimeField};

impl<P: FpConfig<N>, const N: usize> Field for Fp<P, N> {
    const ZERO: Self = <Self as AdditiveGroup>::ZERO;
    const ONE: Self = <Self as ark_ff::Field>::ONE;

    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        Self::from(v)
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        self + rhs
    }
    #[inline(always)]
    fn double(self) -> Self {
        AdditiveGroup::double(&self)
    }
    #[inline(always)]
    fn square(self) -> Self {
        ark_ff::Field::square(&self)
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        self * rhs
    }

    // ark-ff 0.6 keeps `Fp.0` in Montgomery form with R = 2^(64 N), always below p; the batch
    // backend re-checks this at run time (`ONE` must be `2^256 mod p`) before trusting it.
    fn montgomery_256_modulus() -> Option<[u64; 4]> {
        P::MODULUS.0.as_slice().try_into().ok()
    }
    #[inline(always)]
    fn to_montgomery_256(self) -> Option<[u64; 4]> {
        self.0.0.as_slice().try_into().ok()
    }
    #[inline(always)]
    fn from_montgomery_256(limbs: [u64; 4]) -> Option<Self> {
        let limbs: [u64; N] = limbs.as_slice().try_into().ok()?;
        Some(Fp(BigInt(limbs), core::marker::PhantomData))
    }
}

impl<P: FpConfig<N>, const N: usize> PrimeField for Fp<P, N> {
    const MODULUS_BITS: u32 = <Self as ArkPrimeField>::MODULUS_BIT_SIZE;
    const BYTES: usize = (<Self as ArkPrimeField>::MODULUS_BIT_SIZE as usize).div_ceil(8);

    fn sub(self, rhs: Self) -> Self {
        self - rhs
    }
    fn inverse(self) -> Option<Self> {
        ark_ff::Field::inverse(&self)
    }
    fn write_modulus_be(out: &mut [u8]) {
        write_bigint_be(&P::MODULUS, &mut out[..Self::BYTES]);
    }
    fn from_canonical_be_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != Self::BYTES {
            return None;
        }
        let mut limbs = [0u64; N];
        for (i, &b) in bytes.iter().rev().enumerate() {
            limbs[i / 8] |= u64::from(b) << (8 * (i % 8));
        }
        // `from_bigint` rejects integers >= p: the full integer is compared, never reduced.
        Self::from_bigint(BigInt(limbs))
    }
    fn from_be_bytes_reduced(bytes: &[u8]) -> Self {
        Self::from_be_bytes_mod_order(bytes)
    }
    fn write_canonical_be_bytes(self, out: &mut [u8]) {
        write_bigint_be(&self.into_bigint(), &mut out[..Self::BYTES]);
    }
}

/// Writes the low `out.len()` bytes of `n` big-endian.
fn write_bigint_be<const N: usize>(n: &BigInt<N>, out: &mut [u8]) {
    let len = out.len();
    for (i, byte) in out.iter_mut().enumerate() {
        let pos = len - 1 - i;
        *byte =
            n.0.get(pos / 8)
                .map_or(0, |limb| (limb >> (8 * (pos % 8))) as u8);
    }
}
