//! 31-bit prime fields in 32-bit Montgomery form, written once for every modulus
//! `p < 2^31`: [`Monty31<P>`], with the modulus a type ([`Monty31Modulus`]). The shipped
//! fields are [`super::babybear::BabyBear`] (`p = 2^31 - 2^27 + 1`) and
//! [`super::koalabear::KoalaBear`] (`p = 2^31 - 2^24 + 1`).
//!
//! Representation: `x` is stored as the canonical `x · 2^32 mod p` in `[0, p)`, so `==` and
//! `Hash` compare the stored words. Arithmetic (Montgomery's REDC with `R = 2^32`, HAC 14.32):
//! - sums and differences of canonical values lie in `(-p, 2p) ⊂ (-2^31, 2^32)`; one
//!   conditional correction by `p`, done as a mask (no branch on the value);
//! - a product `a · b < p^2 < 2^62` is reduced by `q = (a b mod 2^32) · p^-1 mod 2^32`,
//!   `(a b - q p) / 2^32 = hi(a b) - hi(q p)` in `(-p, p)` (the low words are equal; for
//!   BabyBear, and for every field with AVX-512DQ enabled when compiling, the high word of the
//!   64-bit difference: [`Monty31Modulus::WIDE_REDUCTION`]), then the same masked correction;
//! - in builds with AVX-512F enabled, the S-box chains of degree 7 and 11 reduce the square
//!   `(x^2)^2` by the other of the two forms, so that the compiler does not pair it with
//!   `x^2 · x` (`Monty31::sbox_square_apart`, crate-private);
//! - in builds with AVX-512DQ enabled, the full rounds' S-box chains of degree 7 and 11 form
//!   `q` without a multiplication where `p = 2^31 - 2^s + 1` (`reduce_by_shifts`,
//!   crate-private), so that the compiler's vector code of the round has no `vpmullq`.
//!
//! Constant time: no branch and no memory address depends on an element's value (the masked
//! corrections above); only the byte API's `< p` check and `==` are value-dependent, as on the
//! crate's other fields.

use crate::field::diagonal::{self, Classified, DiagonalKind};
use crate::field::{Field, PrimeField, Representation, SboxOps, Sealed, sbox_chain};
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

/// A modulus `p` of a [`Monty31`] field: an odd prime below `2^31`, given as a type so that
/// the field's arithmetic is written once ([`super::babybear::BabyBearModulus`],
/// [`super::koalabear::KoalaBearModulus`]).
pub trait Monty31Modulus: Copy + Send + Sync + 'static {
    /// The prime `p` (odd, `2^30 < p < 2^31`: the field has 31-bit elements).
    const MODULUS: u32;
    /// The field's name in `Debug` output ("BabyBear").
    const NAME: &'static str;
    /// Whether products are reduced through the 64-bit difference `x - q p` rather than the
    /// difference of the high words of `x` and `q p` (the same value; see the module docs) in
    /// builds without AVX-512DQ as well (with it, always): a speed choice measured per field,
    /// `true` for BabyBear, `false` (the default) for KoalaBear (docs/benchmarks.md,
    /// 2026-12-06).
    const WIDE_REDUCTION: bool = false;
}

/// An element of the 31-bit prime field with modulus `P::MODULUS`, stored in Montgomery form
/// (`x · 2^32 mod p`, canonical). See the module docs for the arithmetic.
///
/// ```
/// use fast_poseidon2::babybear::{BabyBear, MODULUS};
/// use fast_poseidon2::field::{Field, PrimeField};
///
/// let minus_one = BabyBear::new(MODULUS - 1);
/// assert_eq!(minus_one.mul(minus_one), BabyBear::new(1));
/// assert_eq!(BabyBear::new(MODULUS + 5).to_canonical_u32(), 5);
/// assert_eq!(BabyBear::from_canonical_be_bytes(&MODULUS.to_be_bytes()), None);
/// ```
pub struct Monty31<P> {
    /// `x · 2^32 mod p`, in `[0, p)`.
    monty: u32,
    modulus: PhantomData<P>,
}

impl<P: Monty31Modulus> Monty31<P> {
    /// `p`.
    const P: u32 = {
        assert!(
            P::MODULUS % 2 == 1 && P::MODULUS > 1 << 30 && P::MODULUS < 1 << 31,
            "Monty31: the modulus must be odd and 31 bits long"
        );
        P::MODULUS
    };
    /// `p^-1 mod 2^32`, by Newton's iteration `x <- x (2 - p x)` (each step doubles the
    /// number of correct low bits; `x = p` is right to 3 bits since `p^2 = 1 mod 8`).
    const P_INV: u32 = {
        let p = Self::P;
        let mut x = p;
        let mut i = 0;
        while i < 4 {
            x = x.wrapping_mul(2u32.wrapping_sub(p.wrapping_mul(x)));
            i += 1;
        }
        assert!(p.wrapping_mul(x) == 1);
        x
    };
    /// `s` if `p = 2^31 - 2^s + 1` with `16 <= s <= 30` (BabyBear: 27, KoalaBear: 24), else 0.
    /// Then `p^-1 = 1 - 2^31 + 2^s mod 2^32` (`p = 1 + k` with `k = 2^31 - 2^s`, and
    /// `k^2 = 0 mod 2^32` since `s >= 16`): a multiplier made of shifts ([`reduce_by_shifts`]).
    const INVERSE_SHIFT: u32 = {
        let k = (1u32 << 31) + 1 - Self::P;
        let s = k.trailing_zeros();
        if k == 1 << s && s >= 16 { s } else { 0 }
    };
    /// `2^64 mod p`: the Montgomery form of `2^32`, which turns a canonical integer into
    /// Montgomery form in one product.
    const R2: u32 = ((1u128 << 64) % Self::P as u128) as u32;

    /// The element `v mod p` (any `u32`; a `const fn`, used by the constant tables).
    pub const fn new(v: u32) -> Self {
        Self::from_monty(((((v % Self::P) as u64) << 32) % Self::P as u64) as u32)
    }

    /// The element whose Montgomery form is `monty` (which must be `< p`).
    pub(crate) const fn from_monty(monty: u32) -> Self {
        Monty31 {
            monty,
            modulus: PhantomData,
        }
    }

    /// The stored word `x · 2^32 mod p` (the lane a linear layer adds up without reduction).
    #[inline(always)]
    pub(crate) const fn word(self) -> u32 {
        self.monty
    }

    /// The element whose stored word is `w mod p`, for any sum `w` of stored words and their
    /// small multiples (Montgomery form is linear, so that is the element of the same sum):
    /// one `%` by the constant `p`, which compiles to a multiplication by its inverse and
    /// shifts (no division instruction, no branch on `w`).
    #[inline(always)]
    pub(crate) const fn from_wide(w: u64) -> Self {
        Self::from_monty((w % Self::P as u64) as u32)
    }

    /// The canonical integer in `[0, p)`. Constant time.
    #[inline(always)]
    pub const fn to_canonical_u32(self) -> u32 {
        reduce::<P>(self.monty as u64)
    }
}

/// `v - p` if that does not borrow, else `v`: the canonical value of `v < 2p`. The choice is a
/// mask, not a branch.
#[inline(always)]
const fn sub_p_if_not_below<P: Monty31Modulus>(v: u32) -> u32 {
    let (r, borrow) = v.overflowing_sub(Monty31::<P>::P);
    r.wrapping_add(Monty31::<P>::P & 0u32.wrapping_sub(borrow as u32))
}

/// Montgomery reduction: `x · 2^-32 mod p` in `[0, p)` for `x < p · 2^32` (module docs).
///
/// Two forms of the same value, chosen when compiling: the compiler vectorizes independent
/// products (a full round's S-boxes, the internal layer's products), and in a build with
/// AVX-512DQ (`-C target-cpu=native` on an AVX-512 CPU) [`reduce_high_words`] became 64-bit
/// lane multiplications (`vpmullq`): Horizen Labs BabyBear t = 16 ran 8% slower than in the
/// default build, and with [`reduce_wide`] it runs 15-20% faster. Without AVX-512DQ the
/// field's [`Monty31Modulus::WIDE_REDUCTION`] chooses: [`reduce_wide`] for BabyBear (its
/// scalar permutations 5-12% faster in the default build), [`reduce_high_words`] for
/// KoalaBear (3-12% faster there: Plonky3 t = 24, SP1 t = 16). Measurements in
/// docs/benchmarks.md (2026-12-06).
#[inline(always)]
const fn reduce<P: Monty31Modulus>(x: u64) -> u32 {
    if reduces_wide::<P>() {
        reduce_wide::<P>(x)
    } else {
        reduce_high_words::<P>(x)
    }
}

/// Whether [`reduce`] is [`reduce_wide`] in this build (else [`reduce_high_words`]).
#[inline(always)]
const fn reduces_wide<P: Monty31Modulus>() -> bool {
    P::WIDE_REDUCTION || cfg!(target_feature = "avx512dq")
}

/// The same value as [`reduce`] by the form [`reduce`] does not use in this build: a product
/// reduced this way is not computed like the others ([`Monty31::sbox_square_apart`]).
#[inline(always)]
const fn reduce_other<P: Monty31Modulus>(x: u64) -> u32 {
    if reduces_wide::<P>() {
        reduce_high_words::<P>(x)
    } else {
        reduce_wide::<P>(x)
    }
}

/// [`reduce`] as `hi(x) - hi(q p)` with `q = x p^-1 mod 2^32` (the low words of `x` and `q p`
/// are equal, so the high words' difference is exact), corrected by `p` on a borrow (a mask).
#[inline(always)]
const fn reduce_high_words<P: Monty31Modulus>(x: u64) -> u32 {
    let q = (x as u32).wrapping_mul(Monty31::<P>::P_INV);
    let qp = q as u64 * Monty31::<P>::P as u64;
    let (r, borrow) = ((x >> 32) as u32).overflowing_sub((qp >> 32) as u32);
    r.wrapping_add(Monty31::<P>::P & 0u32.wrapping_sub(borrow as u32))
}

/// [`reduce`] as the high word of the 64-bit difference `x - q p` (its low word is zero),
/// corrected by `p` on a borrow (a mask).
#[inline(always)]
const fn reduce_wide<P: Monty31Modulus>(x: u64) -> u32 {
    wide_difference::<P>(x, (x as u32).wrapping_mul(Monty31::<P>::P_INV))
}

/// [`reduce_wide`] with its quotient `q = x p^-1 mod 2^32` formed without a multiplication
/// where [`Monty31::INVERSE_SHIFT`] gives `s` (`p = 2^31 - 2^s + 1`): `q = x - 2^31 x + 2^s x
/// mod 2^32`, with `x - 2^31 x` as `x ^ (x << 31)` (subtracting `2^31` flips bit 31); for
/// other moduli, by the product. For the products the compiler vectorizes in builds with
/// AVX-512DQ (the full rounds' S-boxes, [`Monty31::sbox_by_shifts`]): there it forms the
/// other forms' `q` by `vpmullq` (a 64-bit lane product, 15 cycles and 3 micro-ops on
/// Intel), since only the low 32 bits are used. The xor keeps the compiler from folding the
/// shifts back into a product: written `x - (x << 31) + (x << s)`, the binary was the one of
/// the product.
#[inline(always)]
const fn reduce_by_shifts<P: Monty31Modulus>(x: u64) -> u32 {
    let lo = x as u32;
    let q = match Monty31::<P>::INVERSE_SHIFT {
        0 => lo.wrapping_mul(Monty31::<P>::P_INV),
        s => (lo ^ (lo << 31)).wrapping_add(lo << s),
    };
    wide_difference::<P>(x, q)
}

/// The high word of `x - q p` (its low word is zero for `q = x p^-1 mod 2^32`), corrected
/// by `p` on a borrow (a mask): the end of [`reduce_wide`] and [`reduce_by_shifts`].
#[inline(always)]
const fn wide_difference<P: Monty31Modulus>(x: u64, q: u32) -> u32 {
    let (d, borrow) = x.overflowing_sub(q as u64 * Monty31::<P>::P as u64);
    ((d >> 32) as u32).wrapping_add(Monty31::<P>::P & 0u32.wrapping_sub(borrow as u32))
}

/// A [`Monty31`] whose products are reduced by [`reduce_by_shifts`]: the S-box chain of
/// [`Monty31::sbox_by_shifts`].
#[derive(Clone, Copy)]
struct ShiftReduced<P>(Monty31<P>);

impl<P: Monty31Modulus> SboxOps for ShiftReduced<P> {
    #[inline(always)]
    fn sbox_square(self) -> Self {
        self.sbox_mul(self)
    }
    #[inline(always)]
    fn sbox_mul(self, rhs: Self) -> Self {
        let x = self.0.monty as u64 * rhs.0.monty as u64;
        ShiftReduced(Monty31::from_monty(reduce_by_shifts::<P>(x)))
    }
}

/// The [`DiagonalKind`] of the constant whose stored Montgomery word is `w` (`< p`), for the
/// modulus `p` with `p_inv = p^-1 mod 2^32`: [`diagonal::diagonal_kind`] of its plain value. A
/// handful of integer operations; the kernels run it once per permutation value, when its batch
/// cache is filled.
#[cfg_attr(
    not(any(feature = "babybear", feature = "koalabear")),
    allow(dead_code) // used by the BabyBear and KoalaBear instances and kernels only
)]
pub(crate) const fn diagonal_kind(p: u32, p_inv: u32, w: u32) -> DiagonalKind {
    // The plain value `w 2^-32 mod p` (a Montgomery reduction of `w`).
    let q = w.wrapping_mul(p_inv);
    let t = (w as i64 - q as i64 * p as i64) >> 32;
    let c = if t < 0 {
        (t + p as i64) as u32
    } else {
        t as u32
    };
    diagonal::diagonal_kind(p as u64, c as u64)
}

#[cfg_attr(
    not(any(feature = "babybear", feature = "koalabear")),
    allow(dead_code) // used by the BabyBear and KoalaBear instances and kernels only
)]
impl<P: Monty31Modulus> Classified<Monty31<P>> {
    /// `m` (an element of the field with modulus `Q`) as an element of this field, classified;
    /// `None` if the moduli differ.
    pub(crate) const fn of<Q: Monty31Modulus>(m: Monty31<Q>) -> Option<Self> {
        if P::MODULUS != Q::MODULUS {
            return None;
        }
        Some(Classified {
            kind: diagonal_kind(Monty31::<P>::P, Monty31::<P>::P_INV, m.monty),
            value: Monty31::from_monty(m.monty),
        })
    }

    /// Every entry of `table` classified ([`Self::of`]); `None` if the moduli differ.
    pub(crate) const fn table<Q: Monty31Modulus, const T: usize>(
        table: &[Monty31<Q>; T],
    ) -> Option<[Self; T]> {
        let Some(first) = Self::of(Monty31::<Q>::from_monty(0)) else {
            return None;
        };
        let mut out = [first; T];
        let mut i = 0;
        while i < T {
            let Some(c) = Self::of(table[i]) else {
                return None;
            };
            out[i] = c;
            i += 1;
        }
        Some(out)
    }
}

impl<P: Monty31Modulus> Monty31<P> {
    /// `s + m · self` for the classified constant `m`: `±k · self` (`k <= 4`) in additions,
    /// `±2^-n · self` with the shift of [`DiagonalKind::Halve`], otherwise the Montgomery
    /// product; a negative small factor subtracts (`s - |m| · self`). The kind is public data
    /// (a constant of the code once a loop over a constant table is unrolled). Same value as
    /// `s + m · self` by [`Field::mul`].
    #[inline(always)]
    pub(crate) fn mul_classified_add(self, m: &Classified<Monty31<P>>, s: Self) -> Self {
        let (v, negate) = match m.kind {
            DiagonalKind::Generic => (Field::mul(self, m.value), false),
            DiagonalKind::Small { k, negate } => {
                let v = match k {
                    1 => self,
                    2 => self.doubled(),
                    3 => self.doubled().add(self),
                    _ => self.doubled().doubled(),
                };
                (v, negate)
            }
            DiagonalKind::Halve { n, negate } => {
                // `x 2^-n = h - l (p - 1) / 2^n` in `(-p, p)` on the stored word `x = h 2^n + l`
                // (see `DiagonalKind::Halve`), corrected by `p` on a borrow (a mask).
                let x = self.monty;
                let lc = (x & ((1 << n) - 1)) * ((Self::P - 1) >> n);
                let (r, borrow) = (x >> n).overflowing_sub(lc);
                let v = r.wrapping_add(Self::P & 0u32.wrapping_sub(borrow as u32));
                (Self::from_monty(v), negate)
            }
        };
        if negate { s.sub(v) } else { s.add(v) }
    }
}

impl<P: Monty31Modulus> Monty31<P> {
    /// `x^D` for `D = 7, 11` by [`sbox_chain`]'s chain (`x^7 = (x^2)^2 (x^2 x)`,
    /// `x^11 = ((x^2)^2)^2 (x^2 x)`), except that the square `(x^2)^2`, formed beside `x^2 x`,
    /// is reduced by [`reduce_other`]. With the two products alike, builds with AVX-512
    /// enabled computed them as one two-lane vector product: `x^2` moved into a vector
    /// register and the results back, and the quotient by `vpmullq`, on the partial rounds'
    /// chain through `x_0`. Measured on an Intel Xeon (Emerald Rapids; scratch loop of
    /// `permute_mut`, ns, `-C target-cpu=native`): Plonky3's BabyBear t = 16 1,173-1,194 ->
    /// 1,104-1,105, t = 24 1,430-1,433 -> 1,275-1,278; in the default build the same chain
    /// was 0.6-1% slower, so [`Field::sbox`] takes it only with AVX-512F (docs/benchmarks.md,
    /// 2026-12-07). Any other `D` is [`sbox_chain`]'s (a compile-time error if unsupported).
    #[inline(always)]
    pub(crate) fn sbox_square_apart<const D: u64>(self) -> Self {
        if !matches!(D, 7 | 11) {
            return sbox_chain::<Self, D>(self);
        }
        let x2 = self.squared();
        let x3 = x2.mul(self);
        let x4 = Self::from_monty(reduce_other::<P>(x2.monty as u64 * x2.monty as u64));
        let high = if D == 7 { x4 } else { x4.squared() };
        high.mul(x3)
    }

    /// `x^D` by [`sbox_chain`] with every product reduced by [`reduce_by_shifts`]: the full
    /// rounds' S-boxes in builds with AVX-512DQ for `D = 7, 11` ([`Field::sbox_in_full_round`]).
    #[inline(always)]
    pub(crate) fn sbox_by_shifts<const D: u64>(self) -> Self {
        sbox_chain::<ShiftReduced<P>, D>(ShiftReduced(self)).0
    }
}

impl<P> Clone for Monty31<P> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for Monty31<P> {}

impl<P> PartialEq for Monty31<P> {
    /// Compares the canonical Montgomery words (one per element).
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.monty == other.monty
    }
}

impl<P> Eq for Monty31<P> {}

impl<P> Hash for Monty31<P> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.monty.hash(state);
    }
}

impl<P: Monty31Modulus> fmt::Debug for Monty31<P> {
    /// `Name(canonical integer)`, e.g. `BabyBear(5)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", P::NAME, self.to_canonical_u32())
    }
}

impl<P: Monty31Modulus> fmt::Display for Monty31<P> {
    /// The canonical integer in decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_canonical_u32())
    }
}

impl<P: Monty31Modulus> Default for Monty31<P> {
    /// Zero.
    fn default() -> Self {
        Self::from_monty(0)
    }
}

/// The 31-bit Montgomery batch kernel's hooks: the stored word is `x · 2^32 mod p`, canonical.
impl<P: Monty31Modulus> Representation for Monty31<P> {
    const MONTY31_MODULUS: Option<u32> = Some(Self::P);

    #[inline(always)]
    fn to_monty31_word(self, _: Sealed) -> Option<u32> {
        Some(self.monty)
    }

    #[inline(always)]
    fn from_monty31_word(word: u32, _: Sealed) -> Option<Self> {
        Some(Self::from_monty(word))
    }
}

impl<P: Monty31Modulus> Field for Monty31<P> {
    const ZERO_ELEMENT: Self = Self::from_monty(0);
    const ONE_ELEMENT: Self = Self::new(1);

    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        // `v mod p` (a division by a constant: a multiplication, no branch), then into
        // Montgomery form by one product with `2^64 mod p`.
        let v = (v % Self::P as u64) as u32;
        Self::from_monty(reduce::<P>(v as u64 * Self::R2 as u64))
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self::from_monty(sub_p_if_not_below::<P>(self.monty + rhs.monty))
    }
    #[inline(always)]
    fn doubled(self) -> Self {
        self.add(self)
    }
    #[inline(always)]
    fn squared(self) -> Self {
        self.mul(self)
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_monty(reduce::<P>(self.monty as u64 * rhs.monty as u64))
    }
    /// The chain of [`Field::sbox`]; in builds with AVX-512F enabled, for `D = 7, 11`, the
    /// same chain with the square `(x^2)^2` reduced by the other form of the Montgomery
    /// reduction (module docs; same value).
    #[inline(always)]
    fn sbox<const D: u64>(self) -> Self {
        if cfg!(target_feature = "avx512f") && matches!(D, 7 | 11) {
            return self.sbox_square_apart::<D>();
        }
        sbox_chain::<Self, D>(self)
    }
    /// In builds with AVX-512DQ enabled, for `D = 7, 11`: [`Monty31::sbox_by_shifts`] (same
    /// value), whose vector code has no `vpmullq`. Measured on an Intel Xeon (Emerald Rapids;
    /// scratch loop of `permute_mut`, ns, `-C target-cpu=native`, 2026-12-08): Plonky3's
    /// BabyBear t = 16 1,090-1,106 -> 1,035-1,041 (the default build: 1,034-1,040), t = 24
    /// 1,276-1,279 -> 1,221-1,225. For `D = 3` (KoalaBear) the same change was slower (t = 16
    /// 887-927 -> 925-932, SP1 1,024-1,037 -> 1,070-1,078), so it keeps [`Field::sbox`]; so
    /// do the partial rounds, whose one S-box is scalar code, where the shifts were slower than
    /// the product (BabyBear t = 16 default 1,031 -> 1,153 with them everywhere).
    #[inline(always)]
    fn sbox_in_full_round<const D: u64>(self, c: Option<Self>, _: Sealed) -> Self {
        let x = match c {
            Some(c) => self.add(c),
            None => self,
        };
        if cfg!(target_feature = "avx512dq") && matches!(D, 7 | 11) {
            return x.sbox_by_shifts::<D>();
        }
        x.sbox::<D>()
    }
}

impl<P: Monty31Modulus> PrimeField for Monty31<P> {
    const MODULUS_BITS: u32 = 31;
    const BYTES: usize = 4;

    /// `self - rhs`: the wrapped difference, plus `p` on a borrow (as a mask).
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        let (r, borrow) = self.monty.overflowing_sub(rhs.monty);
        Self::from_monty(r.wrapping_add(Self::P & 0u32.wrapping_sub(borrow as u32)))
    }

    /// Fermat: `x^(p - 2)`; `None` for zero.
    fn inverted(self) -> Option<Self> {
        (self != Self::ZERO_ELEMENT).then(|| self.pow_u64(u64::from(Self::P) - 2))
    }

    fn write_modulus_be(out: &mut [u8]) {
        out[..Self::BYTES].copy_from_slice(&Self::P.to_be_bytes());
    }

    fn from_canonical_be_bytes(bytes: &[u8]) -> Option<Self> {
        let v = u32::from_be_bytes(bytes.try_into().ok()?);
        (v < Self::P).then(|| Self::new(v))
    }

    /// Any length is accepted (Horner's rule mod p, one byte at a time).
    fn from_be_bytes_reduced(bytes: &[u8]) -> Self {
        let p = u64::from(Self::P);
        let v = bytes
            .iter()
            .fold(0u64, |acc, &b| ((acc << 8) | u64::from(b)) % p);
        Self::new(v as u32)
    }

    fn write_canonical_be_bytes(self, out: &mut [u8]) {
        out[..Self::BYTES].copy_from_slice(&self.to_canonical_u32().to_be_bytes());
    }
}

impl<P: Monty31Modulus> From<u32> for Monty31<P> {
    /// `v mod p` (see [`Monty31::new`]).
    fn from(v: u32) -> Self {
        Self::new(v)
    }
}

impl<P: Monty31Modulus> From<u64> for Monty31<P> {
    /// `v mod p` (as [`Field::from_u64`]).
    fn from(v: u64) -> Self {
        Self::from_u64(v)
    }
}

impl<P: Monty31Modulus> From<Monty31<P>> for u32 {
    /// The canonical integer in `[0, p)`.
    fn from(x: Monty31<P>) -> Self {
        x.to_canonical_u32()
    }
}

/// Declares a shipped 31-bit field's module items: its modulus type, the `MODULUS` const and
/// the field type alias (docs from the arguments).
macro_rules! monty31_field {
    ($(#[$doc:meta])* $alias:ident, $modulus_ty:ident, $name:literal, $p:expr, wide reduction $wide:literal) => {
        /// The field's modulus as a type ([`crate::field::monty31::Monty31Modulus`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $modulus_ty;

        impl $crate::field::monty31::Monty31Modulus for $modulus_ty {
            const MODULUS: u32 = MODULUS;
            const NAME: &'static str = $name;
            const WIDE_REDUCTION: bool = $wide;
        }

        #[doc = concat!("The ", $name, " prime.")]
        pub const MODULUS: u32 = $p;

        $(#[$doc])*
        pub type $alias = $crate::field::monty31::Monty31<$modulus_ty>;
    };
}
pub(crate) use monty31_field;

#[cfg(all(test, feature = "babybear", feature = "koalabear"))]
mod tests {
    //! Both forms of the Montgomery reduction (one of them is compiled into [`reduce`]),
    //! checked against `u128` arithmetic.
    use super::*;
    use crate::field::babybear::BabyBearModulus;
    use crate::field::koalabear::KoalaBearModulus;

    /// Every form on edge values of `[0, p 2^32)` and 4000 pseudo-random ones (a 64-bit LCG).
    fn check<P: Monty31Modulus>() {
        let p = Monty31::<P>::P;
        let top = u64::from(p) << 32;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let edges = [
            0,
            1,
            u64::from(p) - 1,
            u64::from(p),
            1 << 32,
            top - 1,
            top - u64::from(p),
        ];
        let random = (0..4000).map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed % top
        });
        // `y = x 2^-32 mod p` is the one `y < p` with `y 2^32 = x (mod p)` (in `u128`).
        let p128 = u128::from(p);
        for x in edges.into_iter().chain(random) {
            for (form, y) in [
                ("high words", reduce_high_words::<P>(x)),
                ("wide", reduce_wide::<P>(x)),
                ("by shifts", reduce_by_shifts::<P>(x)),
            ] {
                assert!(y < p, "{form}, x = {x}: {y} not below p");
                assert_eq!(
                    (u128::from(y) << 32) % p128,
                    u128::from(x) % p128,
                    "{form}, x = {x}"
                );
            }
        }
    }

    #[test]
    fn every_reduction_equals_u128_arithmetic() {
        // The shifted quotient is taken (a wrong `s` would fall back to the product silently).
        assert_eq!(Monty31::<BabyBearModulus>::INVERSE_SHIFT, 27);
        assert_eq!(Monty31::<KoalaBearModulus>::INVERSE_SHIFT, 24);
        check::<BabyBearModulus>();
        check::<KoalaBearModulus>();
    }

    /// `x^d` by `u64` square-and-multiply, reduced at every step.
    fn pow_mod(x: u64, d: u64, p: u64) -> u64 {
        (0..d).fold(1, |acc, _| acc * x % p)
    }

    /// [`Monty31::sbox_square_apart`] and [`Monty31::sbox_by_shifts`] (taken only in builds
    /// with AVX-512F or AVX-512DQ, checked here in every build) on edge values and 2000
    /// pseudo-random ones, for every degree.
    fn check_sbox_chains<P: Monty31Modulus>() {
        let p = u64::from(Monty31::<P>::P);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let random = (0..2000).map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % p
        });
        for a in [0, 1, 2, p - 2, p - 1].into_iter().chain(random) {
            let x = Monty31::<P>::from_u64(a);
            let got = [
                x.sbox_square_apart::<3>(),
                x.sbox_square_apart::<5>(),
                x.sbox_square_apart::<7>(),
                x.sbox_square_apart::<11>(),
                x.sbox_by_shifts::<3>(),
                x.sbox_by_shifts::<5>(),
                x.sbox_by_shifts::<7>(),
                x.sbox_by_shifts::<11>(),
            ];
            for (y, d) in got.into_iter().zip([3, 5, 7, 11, 3, 5, 7, 11]) {
                assert_eq!(u64::from(y.to_canonical_u32()), pow_mod(a, d, p), "{a}^{d}");
            }
        }
    }

    #[test]
    fn sbox_chains_equal_u64_powers() {
        check_sbox_chains::<BabyBearModulus>();
        check_sbox_chains::<KoalaBearModulus>();
    }
}
