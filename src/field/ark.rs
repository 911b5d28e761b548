//! [`Field`] and [`PrimeField`] for every ark-ff 0.6 prime field in Montgomery form,
//! `Fp<MontBackend<C, N>, N>` (every ark curve's scalar field, and `Fp64`/`Fp256`/... types made
//! with `#[derive(MontConfig)]`).
//!
//! Values stay in ark's representation (canonical Montgomery form), so `==` and every ark API
//! keep working. Addition and doubling run this crate's branch-free code
//! (private module `field::montgomery`): a sum is `>= p` about half the time, so ark's "subtract if >= p"
//! branch mispredicts constantly inside a permutation (branch-free add: BN254 t=8 and BLS12-381
//! t=8 permutations 11-17% faster). For four-limb fields with `p < 2^255` on x86_64 (`std`
//! builds) the same addition runs as baseline x86_64 assembly (private `field::mulx_adx::add`),
//! so that no target CPU's code generation reschedules or vectorises its carry chains.
//!
//! For four-limb fields with `p < 2^255` (BN254, BLS12-381 scalar fields) multiplication,
//! squaring and the S-box run the same module's inlined Montgomery product, with ark's exact
//! canonical results: values stay in registers instead of going through ark's out-of-line calls,
//! and inside the S-box chain the conditional subtraction is skipped where the bounds allow (all
//! but the last for `p < 2^254`, BN254; there the round constant is added without reduction
//! too, [`Field::add_sbox`]: BN254 permutations 5-9% faster). The final subtraction is a
//! select, not a branch (`sub`/`sbb`/`cmovnc` in baseline x86_64 assembly, masks elsewhere), so
//! no time depends on a value: with ark's branch, a zero state ran measurably faster than a
//! random one (`tests/constant_time.rs`). Other fields use ark's arithmetic, which is not
//! constant time.

use super::{Field, MAX_FIELD_BYTES, PrimeField, Representation, Sealed, montgomery};
use ark_ff::{AdditiveGroup, BigInt, Fp, MontBackend, MontConfig, PrimeField as ArkPrimeField};

impl<C: MontConfig<N>, const N: usize> Field for Fp<MontBackend<C, N>, N> {
    const ZERO_ELEMENT: Self = <Self as AdditiveGroup>::ZERO;
    const ONE_ELEMENT: Self = <Self as ark_ff::Field>::ONE;

    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        Self::from(v)
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        if let Some((m, [a, b])) = fast4([self, rhs]) {
            return from_limbs(montgomery::add4(&a, &b, m));
        }
        Fp::new_unchecked(BigInt(montgomery::add(&self.0.0, &rhs.0.0, &C::MODULUS.0)))
    }
    #[inline(always)]
    fn doubled(self) -> Self {
        Field::add(self, self)
    }
    #[inline(always)]
    fn squared(self) -> Self {
        if let Some((m, [a])) = fast4([self]) {
            let r = montgomery::square_unreduced(&a, m);
            return from_limbs(montgomery::reduce(r, m));
        }
        ark_ff::Field::square(&self)
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        if let Some((m, [a, b])) = fast4([self, rhs]) {
            // `rhs` as the operand read from memory (see `montgomery::mul_unreduced`): in the
            // permutation it is the constant (an internal diagonal entry).
            let r = montgomery::mul_unreduced(&b, &a, m);
            return from_limbs(montgomery::reduce(r, m));
        }
        self * rhs
    }
    /// The same chains as the default, run in place (`square_in_place`, `*=`): returning each
    /// fresh square by value made the next step reload it through a wider load than the store
    /// that wrote it, a store-forwarding stall on every partial round (BN254 t=3: 8.03 µs by
    /// value, 6.7 µs in place, `cargo bench --manifest-path bench-compare/Cargo.toml`).
    #[inline(always)]
    fn sbox<const D: u64>(self) -> Self {
        const {
            assert!(
                super::is_supported_degree(D),
                "S-box degree must be 3, 5, 7 or 11"
            )
        };
        if let Some((m, [x])) = fast4([self]) {
            let lazy = Fast4::<C, N>::LAZY;
            return from_limbs(montgomery::sbox::<D, montgomery::Detected>(&x, m, lazy));
        }
        let mut y = self;
        ark_ff::Field::square_in_place(&mut y);
        if D == 3 {
            y *= &self;
            return y;
        }
        let mut x3 = y;
        x3 *= &self;
        ark_ff::Field::square_in_place(&mut y);
        match D {
            5 => y *= &self,
            7 => y *= &x3,
            _ => {
                ark_ff::Field::square_in_place(&mut y);
                y *= &x3;
            }
        }
        y
    }

    /// For `p < 2^254` (BN254) the sum `self + c < 2p` enters the lazy S-box chain unreduced,
    /// which accepts operands below `2p`; otherwise the default.
    #[inline(always)]
    fn add_sbox<const D: u64>(self, c: Self) -> Self {
        if Fast4::<C, N>::LAZY
            && let Some((m, [x, c])) = fast4([self, c])
        {
            let x = montgomery::add_unreduced(&x, &c);
            return from_limbs(montgomery::sbox::<D, montgomery::Detected>(&x, m, true));
        }
        self.add(c).sbox::<D>()
    }
}

/// The first four limbs of `limbs` if there are exactly four.
const fn four_limbs<const N: usize>(limbs: &[u64; N]) -> Option<[u64; 4]> {
    if N != 4 {
        return None;
    }
    let mut out = [0; 4];
    let mut i = 0;
    while i < 4 {
        out[i] = limbs[i];
        i += 1;
    }
    Some(out)
}

impl<C: MontConfig<N>, const N: usize> Representation for Fp<MontBackend<C, N>, N> {
    // ark-ff 0.6 keeps `Fp.0` in Montgomery form with R = 2^(64 N), always below p; the batch
    // backend re-checks this once (`ONE` must be `2^256 mod p`) before trusting it.
    const MONTGOMERY_256_MODULUS: Option<[u64; 4]> = four_limbs(&C::MODULUS.0);

    // A one-limb ark field with the Goldilocks modulus stores `x * 2^64 mod p` (R = 2^64),
    // canonical; the batch backend re-checks this once (`ONE` must be stored as `r`).
    const GOLDILOCKS_FACTOR: Option<u64> =
        if N == 1 && C::MODULUS.0[0] == crate::field::goldilocks::MODULUS {
            Some(C::R.0[0])
        } else {
            None
        };

    #[inline(always)]
    fn to_montgomery_256(self, _: Sealed) -> Option<[u64; 4]> {
        self.0.0.as_slice().try_into().ok()
    }
    #[inline(always)]
    fn from_montgomery_256(limbs: [u64; 4], _: Sealed) -> Option<Self> {
        let limbs: [u64; N] = limbs.as_slice().try_into().ok()?;
        Some(Fp(BigInt(limbs), core::marker::PhantomData))
    }
    #[inline(always)]
    fn to_goldilocks_word(self, _: Sealed) -> Option<u64> {
        if N == 1 {
            self.0.0.first().copied()
        } else {
            None
        }
    }
    #[inline(always)]
    fn from_goldilocks_word(word: u64, _: Sealed) -> Option<Self> {
        Self::GOLDILOCKS_FACTOR?;
        let limbs: [u64; N] = [word].as_slice().try_into().ok()?;
        Some(Fp(BigInt(limbs), core::marker::PhantomData))
    }
}

/// When the inlined 4-limb arithmetic of `field::montgomery` applies to a field.
pub(crate) struct Fast4<C, const N: usize>(core::marker::PhantomData<C>);

impl<C: MontConfig<N>, const N: usize> Fast4<C, N> {
    /// The modulus as four limbs if `N = 4` and `p < 2^255` (BN254 and BLS12-381 scalar
    /// fields), the bounds under which `montgomery::mul_unreduced` and `square_unreduced` hold.
    const MODULUS: Option<[u64; 4]> = {
        let m: &[u64] = &C::MODULUS.0;
        if m.len() == 4 && m[3] >> 63 == 0 {
            Some([m[0], m[1], m[2], m[3]])
        } else {
            None
        }
    };
    /// [`Self::MODULUS`] with `C::INV`, for `field::montgomery`.
    const CONSTANTS: Option<montgomery::Modulus> = match Self::MODULUS {
        Some(limbs) => Some(montgomery::Modulus { limbs, inv: C::INV }),
        None => None,
    };
    /// [`Self::CONSTANTS`] as a static.
    #[inline(always)]
    pub(crate) fn constants() -> Option<&'static montgomery::Modulus> {
        let m: &'static Option<montgomery::Modulus> = const { &Self::CONSTANTS };
        m.as_ref()
    }
    /// `p < 2^254` (BN254): products of operands below `2p` stay below `2p`.
    pub(crate) const LAZY: bool = match Self::MODULUS {
        Some(m) => m[3] >> 62 == 0,
        None => false,
    };
    /// `2p` as four limbs, when `LAZY` (then `4p < 2^256`).
    pub(crate) const TWICE: Option<[u64; 4]> = match Self::MODULUS {
        Some(m) if Self::LAZY => Some([
            m[0] << 1,
            (m[1] << 1) | (m[0] >> 63),
            (m[2] << 1) | (m[1] >> 63),
            (m[3] << 1) | (m[2] >> 63),
        ]),
        _ => None,
    };
}

/// The Montgomery constants (one static per field) and the Montgomery limbs of `xs`, if the
/// 4-limb path applies (`Fast4::MODULUS`); `None` otherwise (the caller uses ark's arithmetic).
#[inline(always)]
fn fast4<C: MontConfig<N>, const N: usize, const K: usize>(
    xs: [Fp<MontBackend<C, N>, N>; K],
) -> Option<(&'static montgomery::Modulus, [[u64; 4]; K])> {
    let m = Fast4::<C, N>::constants()?;
    let mut limbs = [[0u64; 4]; K];
    for (l, x) in limbs.iter_mut().zip(xs) {
        *l = x.0.0.as_slice().try_into().ok()?;
    }
    Some((m, limbs))
}

/// The Montgomery limbs of `x` (`N = 4`, after `Fast4::MODULUS` is `Some`; other limb counts
/// are never passed).
#[inline(always)]
pub(crate) fn to_limbs<C: MontConfig<N>, const N: usize>(x: &Fp<MontBackend<C, N>, N>) -> [u64; 4] {
    let mut out = [0u64; 4];
    for (o, &l) in out.iter_mut().zip(&x.0.0) {
        *o = l;
    }
    out
}

/// The element with canonical Montgomery limbs `limbs` (`N = 4`, after [`fast4`] returned
/// `Some`; other limbs are never passed, and would give zero).
#[inline(always)]
pub(crate) fn from_limbs<C: MontConfig<N>, const N: usize>(
    limbs: [u64; 4],
) -> Fp<MontBackend<C, N>, N> {
    let mut out = [0u64; N];
    for (o, l) in out.iter_mut().zip(limbs) {
        *o = l;
    }
    Fp::new_unchecked(BigInt(out))
}

impl<C: MontConfig<N>, const N: usize> PrimeField for Fp<MontBackend<C, N>, N> {
    const MODULUS_BITS: u32 = <Self as ArkPrimeField>::MODULUS_BIT_SIZE;
    /// Fields above `8 · MAX_FIELD_BYTES = 512` bits are rejected at compile time (wherever
    /// `BYTES` is used), not with a panic at run time.
    const BYTES: usize = {
        let bytes = (<Self as ArkPrimeField>::MODULUS_BIT_SIZE as usize).div_ceil(8);
        assert!(
            bytes <= MAX_FIELD_BYTES,
            "fast-poseidon2 supports prime fields of at most 512 bits"
        );
        bytes
    };

    fn sub(self, rhs: Self) -> Self {
        self - rhs
    }
    fn inverted(self) -> Option<Self> {
        ark_ff::Field::inverse(&self)
    }
    fn write_modulus_be(out: &mut [u8]) {
        write_bigint_be(&C::MODULUS, &mut out[..Self::BYTES]);
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
        // ark's `into_bigint` is the same reduction, unrolled for up to 12 limbs in every
        // crate that instantiates it for a field; this loop compiles to the same code.
        let canonical = montgomery::from_montgomery(&self.0.0, &C::MODULUS.0, C::INV);
        write_bigint_be(&BigInt(canonical), &mut out[..Self::BYTES]);
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

#[cfg(all(test, feature = "bn254", feature = "bls12-381", feature = "goldilocks"))]
mod tests {
    //! The sealed batch-backend hooks (only callable inside the crate): they hand out and take
    //! back exactly ark's stored representation, and only for the fields the kernels serve.
    use super::*;
    use crate::field::Sealed;
    use crate::field::goldilocks::Goldilocks;
    use ark_ff::Fp64;

    /// 0, 1, 2, -1, -2, (p - 1) / 2, (p + 1) / 2 and -(p - 1) / 2.
    fn edges<F: ArkPrimeField>() -> [F; 8] {
        let half = F::from(F::MODULUS_MINUS_ONE_DIV_TWO);
        [
            F::ZERO,
            F::ONE,
            F::from(2u64),
            -F::ONE,
            -F::ONE.double(),
            half,
            half + F::ONE,
            -half,
        ]
    }

    mod f257 {
        //! A one-limb Montgomery field that is not Goldilocks (outside the parent's scope, where
        //! two `Field` traits would make the derive's `ZERO` ambiguous).
        #[derive(ark_ff::MontConfig)]
        #[modulus = "257"]
        #[generator = "3"]
        pub(super) struct F257Config;
    }
    /// `GF(257)`.
    type F257 = Fp64<MontBackend<f257::F257Config, 1>>;

    #[test]
    fn four_limb_fields_hand_out_and_take_back_their_montgomery_limbs() {
        fn check<C: MontConfig<4>>() {
            type F<C> = Fp<MontBackend<C, 4>, 4>;
            assert_eq!(F::<C>::MONTGOMERY_256_MODULUS, Some(C::MODULUS.0));
            for x in edges::<F<C>>() {
                assert_eq!(x.to_montgomery_256(Sealed(())), Some(x.0.0), "{x}");
                assert_eq!(
                    F::<C>::from_montgomery_256(x.0.0, Sealed(())),
                    Some(x),
                    "{x}"
                );
            }
            assert_eq!(F::<C>::GOLDILOCKS_FACTOR, None);
            assert_eq!(
                <F<C> as Field>::ONE_ELEMENT.to_goldilocks_word(Sealed(())),
                None
            );
            assert_eq!(F::<C>::from_goldilocks_word(1, Sealed(())), None);
        }
        check::<ark_bn254::FrConfig>();
        check::<ark_bls12_381::FrConfig>();
        assert_eq!(Goldilocks::MONTGOMERY_256_MODULUS, None);
        assert_eq!(
            <Goldilocks as Field>::ONE_ELEMENT.to_montgomery_256(Sealed(())),
            None
        );
        assert_eq!(
            Goldilocks::from_montgomery_256([1, 0, 0, 0], Sealed(())),
            None
        );
    }

    /// ark's Goldilocks stores `x` as the word `x * 2^64 mod p` (`2^64 = 2^32 - 1` mod p).
    #[test]
    fn one_limb_goldilocks_hands_out_and_takes_back_its_montgomery_word() {
        assert_eq!(Goldilocks::GOLDILOCKS_FACTOR, Some((1 << 32) - 1));
        for x in edges::<Goldilocks>() {
            assert_eq!(x.to_goldilocks_word(Sealed(())), Some(x.0.0[0]), "{x}");
            assert_eq!(
                Goldilocks::from_goldilocks_word(x.0.0[0], Sealed(())),
                Some(x),
                "{x}"
            );
        }
        assert_eq!(F257::GOLDILOCKS_FACTOR, None);
        assert_eq!(F257::from_goldilocks_word(1, Sealed(())), None);
    }
}
