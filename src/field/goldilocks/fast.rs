//! `GoldilocksFast`: Goldilocks arithmetic on a bare `u64` with special-form reduction.
//!
//! Representation: any `u64` value `v` stands for `v mod p`. Since `2^64 - 1 < 2p`, every
//! element has one or two representations (`x` and, for `x < 2^64 - p = 2^32 - 1`, `x + p`).
//! Arithmetic keeps results anywhere in `[0, 2^64)` and never canonicalises; equality, hashing,
//! [`GoldilocksFast::to_canonical_u64`] and the byte encodings reduce to `[0, p)`.
//!
//! Identities used, with `EPSILON = 2^32 - 1`:
//! - `2^64 = EPSILON (mod p)`, since `p = 2^64 - EPSILON`;
//! - `2^96 = -1 (mod p)`, since `2^96 = 2^32 · 2^64 = 2^32 (2^32 - 1) = 2^64 - 2^32 = -1`.

use super::MODULUS;
use crate::field::diagonal::{Classified, DiagonalKind, diagonal_kind};
#[cfg(fast_poseidon2_simd)]
use crate::field::mulx_adx;
use crate::field::{Field, PrimeField, Representation, Sealed};
use core::hash::{Hash, Hasher};

/// `2^64 mod p = 2^32 - 1`.
pub(crate) const EPSILON: u64 = 0xffff_ffff;

/// A Goldilocks element (`p = 2^64 - 2^32 + 1`) held as a lazily reduced `u64`.
///
/// Any `u64` is a valid value (`v` stands for `v mod p`); `==` and `Hash` compare the canonical
/// integers, so `GoldilocksFast::new(p) == GoldilocksFast::new(0)`. Same elements as
/// [`super::Goldilocks`], converted with `From` either way.
///
/// ```
/// use fast_poseidon2::field::Field;
/// use fast_poseidon2::goldilocks::{GoldilocksFast, MODULUS};
///
/// let a = GoldilocksFast::new(MODULUS - 1); // -1
/// assert_eq!(a.mul(a), GoldilocksFast::new(1));
/// assert_eq!(GoldilocksFast::new(MODULUS + 5).to_canonical_u64(), 5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct GoldilocksFast(pub(crate) u64);

impl GoldilocksFast {
    /// The element `v mod p`. Accepts any `u64`; the value is stored as given (every `u64` is a
    /// valid lazy representation) and reduced only on output.
    #[inline(always)]
    pub const fn new(v: u64) -> Self {
        GoldilocksFast(v)
    }

    /// The canonical integer in `[0, p)`. Constant time: no branch on the value.
    #[inline(always)]
    pub const fn to_canonical_u64(self) -> u64 {
        // A u64 is below 2p, so one conditional subtraction suffices: `x + EPSILON` carries out
        // of 64 bits exactly when `x >= p` (`p + EPSILON = 2^64`), and then its low word is
        // `x - p`; the carry, as arithmetic (see `carry_times_epsilon`), picks the word.
        let (diff, wrapped) = self.0.overflowing_add(EPSILON);
        let keep = (wrapped as u64).wrapping_sub(1); // all ones when x < p
        (self.0 & keep) | (diff & !keep)
    }
}

#[cfg_attr(
    not(feature = "goldilocks"),
    allow(dead_code) // used by the Goldilocks instances' registry only
)]
impl Classified<GoldilocksFast> {
    /// `m` with its kind ([`diagonal_kind`] of the canonical value), stored canonical (the
    /// generic product's bound in [`GoldilocksFast::mul_classified_add`] needs `m < p`).
    pub(crate) const fn of(m: GoldilocksFast) -> Self {
        let value = m.to_canonical_u64();
        Classified {
            kind: diagonal_kind(MODULUS, value),
            value: GoldilocksFast(value),
        }
    }

    /// Every entry of `table` classified ([`Self::of`]).
    pub(crate) const fn table<const T: usize>(table: &[GoldilocksFast; T]) -> [Self; T] {
        let mut out = [Self::of(GoldilocksFast(0)); T];
        let mut i = 0;
        while i < T {
            out[i] = Self::of(table[i]);
            i += 1;
        }
        out
    }
}

impl GoldilocksFast {
    /// `s + m · self` for the classified constant `m` and a sum `s < 2^69` (an unreduced
    /// sum of at most [`crate::MAX_WIDTH`] words), reduced once: `±k · self` (`k <= 4`) and
    /// `±2^-n · self` (the shift of `crate::field::diagonal`) as sums below `2^96` for
    /// [`reduce96`], otherwise the full product with [`reduce128`]. The kind is public data (a
    /// constant of the code once a loop over a constant table is unrolled). Same element as
    /// `s + m · self` by [`Field::mul`] and [`Field::add`].
    ///
    /// Bounds (`x = self`): `k x < 2^66`; a negative factor adds `k (2p - x)` instead
    /// (`2p > 2^64 > x`), `< 2^67`; for `2^-n`, `x = h 2^n + l` gives `x 2^-n = h - l q` with
    /// `q = (p - 1) / 2^n` and `l q < p`, added as `h + (p - l q)`, and `-x 2^-n` as
    /// `l q + (p - h)` (`h < 2^63 < p`), each below `2^65`. With `s` every sum is below `2^70`.
    /// The generic product is `m x + s <= (p - 1)(2^64 - 1) + 2^69 < 2^128` (`m < p`).
    #[inline(always)]
    pub(crate) fn mul_classified_add(self, m: &Classified<GoldilocksFast>, s: u128) -> Self {
        const P: u128 = MODULUS as u128;
        let x = u128::from(self.0);
        let sum = match m.kind {
            DiagonalKind::Generic => {
                return GoldilocksFast(reduce128(widening_mul(self.0, m.value.0) + s));
            }
            DiagonalKind::Small { k, negate } => {
                let k = u128::from(k);
                s + if negate { (2 * P - x) * k } else { x * k }
            }
            DiagonalKind::Halve { n, negate } => {
                let h = x >> n;
                let lq = (x & ((1 << n) - 1)) * ((P - 1) >> n);
                s + if negate { lq + (P - h) } else { h + (P - lq) }
            }
        };
        GoldilocksFast(reduce96(sum))
    }
}

/// `a + b` as a lazy value in `[0, 2^64)`, congruent to the integer sum mod p
/// ([`portable::add_lazy`] for the bounds; in assembly where the SIMD backends are compiled,
/// see [`reduce128`]).
#[inline(always)]
fn add_lazy(a: u64, b: u64) -> u64 {
    #[cfg(fast_poseidon2_simd)]
    {
        mulx_adx::goldilocks_add(a, b)
    }
    #[cfg(not(fast_poseidon2_simd))]
    {
        portable::add_lazy(a, b)
    }
}

/// `a b` as a `u128`. Where the SIMD backends are compiled and the build enables BMI2 (e.g.
/// `-C target-cpu=native` on x86_64 CPUs since 2013), by the baseline `mul` in assembly
/// (`field::mulx_adx::widening_mul`), as the default build's code has it: LLVM picks `mulx`
/// for a `u128` product when BMI2 is enabled, with which the native build's Goldilocks
/// permutations were up to 2% slower (AMD Zen 4, docs/benchmarks.md, 2026-12-07). Elsewhere
/// the `u128` product.
#[inline(always)]
pub(crate) fn widening_mul(a: u64, b: u64) -> u128 {
    #[cfg(all(fast_poseidon2_simd, target_feature = "bmi2"))]
    {
        let (lo, hi) = mulx_adx::widening_mul(a, b);
        u128::from(hi) << 64 | u128::from(lo)
    }
    #[cfg(not(all(fast_poseidon2_simd, target_feature = "bmi2")))]
    {
        u128::from(a) * u128::from(b)
    }
}

/// `s + x`, for `s + x < 2^128`, with `x` added after the additions that made `s`: where the
/// SIMD backends are compiled, in assembly (`field::mulx_adx::add_wide`), which the compiler
/// cannot merge into them. For the internal layer with a diagonal read at run time: its `x_0`
/// comes last out of the partial round's S-box, and LLVM reassociated the `u128` sum so that
/// `x_0` went in first and all the sum's additions waited for the S-box (the Horizen Labs
/// Goldilocks permutations 3-4% faster with it, docs/benchmarks.md, 2026-12-07). Elsewhere the
/// `u128` addition.
#[inline(always)]
pub(crate) fn add_last(s: u128, x: u64) -> u128 {
    #[cfg(fast_poseidon2_simd)]
    {
        let (lo, hi) = mulx_adx::add_wide(s as u64, (s >> 64) as u64, x);
        u128::from(hi) << 64 | u128::from(lo)
    }
    #[cfg(not(fast_poseidon2_simd))]
    {
        s + u128::from(x)
    }
}

/// `x mod p` as a lazy value in `[0, 2^64)`, for any `x < 2^128` ([`portable::reduce128`] for
/// the algorithm and bounds).
///
/// Where the SIMD backends are compiled (x86_64, `std`, not Miri, not forced portable) the
/// same steps run as baseline x86_64 assembly (`field::mulx_adx::goldilocks_reduce128`), whose
/// corrections take a carry or borrow to `EPSILON` with one `sbb` on 32-bit registers: 9
/// instructions after the product, where LLVM makes 12 of the portable code (it keeps the
/// corrections branch-free only in a longer form, and under AVX-512 its SLP vectoriser moved
/// them into vector registers). The products are [`widening_mul`]'s.
#[inline(always)]
pub(crate) fn reduce128(x: u128) -> u64 {
    #[cfg(fast_poseidon2_simd)]
    {
        mulx_adx::goldilocks_reduce128(x as u64, (x >> 64) as u64)
    }
    #[cfg(not(fast_poseidon2_simd))]
    {
        portable::reduce128(x)
    }
}

/// `x mod p` as a lazy value in `[0, 2^64)`, for `x < 2^96` ([`portable::reduce96`]; in
/// assembly as [`reduce128`]). Callers guarantee the bound; for larger `x` the result is wrong,
/// not a panic.
#[inline(always)]
pub(crate) fn reduce96(x: u128) -> u64 {
    #[cfg(fast_poseidon2_simd)]
    {
        mulx_adx::goldilocks_reduce96(x as u64, ((x >> 64) as u64) & EPSILON)
    }
    #[cfg(not(fast_poseidon2_simd))]
    {
        portable::reduce96(x)
    }
}

/// The reductions in Rust: the only ones where no SIMD backend is compiled, and the reference
/// of the assembly elsewhere (tests compare them).
#[cfg_attr(all(fast_poseidon2_simd, not(test)), allow(dead_code))]
mod portable {
    use super::EPSILON;

    /// `a + b` as a lazy value in `[0, 2^64)`, congruent to the integer sum mod p.
    ///
    /// Bounds: `a + b = s + c·2^64` with `c` in {0, 1}. If `c = 0` the result is `s`. If
    /// `c = 1`, `2^64 = EPSILON` so the sum is `s + EPSILON`; then `s <= 2^64 - 2`, and if
    /// `s + EPSILON` wraps again to `s' = s + EPSILON - 2^64 <= EPSILON - 2`, the lost `2^64`
    /// is one more `EPSILON`: `s' + EPSILON <= 2·EPSILON - 2 < 2^64`, no third wrap.
    #[inline(always)]
    pub(super) const fn add_lazy(a: u64, b: u64) -> u64 {
        let sum = a as u128 + b as u128;
        let sum = (sum as u64) as u128 + carry_times_epsilon(sum) as u128;
        (sum as u64) + carry_times_epsilon(sum)
    }

    /// `EPSILON` times the carry word `x >> 64` of a sum of two `u64` (0 or 1): the negated
    /// carry as a 32-bit word (all ones on a carry), zero-extended. Arithmetic on the word
    /// rather than a select on a flag: LLVM lowers such selects inside the round loops to
    /// branches, which mispredict about half the time on field elements. Not `(c << 32) - c`
    /// either: LLVM made that an `imul` by `EPSILON`, three cycles on the dependency chain of
    /// every addition.
    #[inline(always)]
    const fn carry_times_epsilon(x: u128) -> u64 {
        ((x >> 64) as u32).wrapping_neg() as u64
    }

    /// `x mod p` as a lazy value in `[0, 2^64)`, for any `x < 2^128`.
    ///
    /// Write `x = hi_hi·2^96 + hi_lo·2^64 + lo` (`hi_hi, hi_lo < 2^32`, `lo < 2^64`); then
    /// `x = lo - hi_hi + hi_lo·EPSILON (mod p)`.
    /// - `t0 = lo - hi_hi`: if it borrows, the wrapped value is `lo - hi_hi + 2^64`, and the
    ///   extra `2^64 = EPSILON` is taken off: `lo < hi_hi < 2^32` gives a wrapped value
    ///   `>= 2^64 - 2^32 + 1 > EPSILON`, so this second subtraction cannot borrow.
    /// - `t1 = hi_lo·EPSILON <= (2^32 - 1)^2 = 2^64 - 2^33 + 1`: no overflow.
    /// - `t0 + t1` with one correction: a wrapped sum is at most `2^64 - 2^33`, and adding
    ///   `EPSILON` stays below `2^64` (the second correction of [`add_lazy`] is never needed).
    #[inline(always)]
    pub(super) const fn reduce128(x: u128) -> u64 {
        let lo = x as u64;
        let hi = (x >> 64) as u64;
        let hi_hi = hi >> 32;
        let hi_lo = hi & EPSILON;
        // The high word of the 128-bit difference is all ones exactly on a borrow; its low 32
        // bits are `EPSILON` or 0 (arithmetic, not a select: see `carry_times_epsilon`).
        let d = (lo as u128).wrapping_sub(hi_hi as u128);
        let t0 = (d as u64) - ((d >> 64) as u32) as u64;
        fold_carry(t0 as u128 + (hi_lo * EPSILON) as u128)
    }

    /// `x mod p` as a lazy value in `[0, 2^64)`, for `x < 2^96` (sums of a few words, as the
    /// linear layers accumulate them): the high word `hi < 2^32` has no `2^96` part, so
    /// `x = lo + hi·EPSILON (mod p)` with `hi·EPSILON < 2^64`, and one correction as in
    /// [`reduce128`] (a wrapped sum is at most `2^64 - 2^33`).
    #[inline(always)]
    pub(super) const fn reduce96(x: u128) -> u64 {
        let lo = x as u64;
        let hi = ((x >> 64) as u64) & EPSILON;
        fold_carry(lo as u128 + (hi * EPSILON) as u128)
    }

    /// The low word of `sum` plus `EPSILON` if `sum` carried into bit 64: the last step of
    /// [`reduce128`] and [`reduce96`], for a `sum` of a `u64` and a value at most
    /// `2^64 - 2^33 + 1`, whose wrapped low word is at most `2^64 - 2^33`, so adding `EPSILON`
    /// cannot wrap again.
    #[inline(always)]
    const fn fold_carry(sum: u128) -> u64 {
        // The correction is added in `u128` and truncated, not written as `(sum as u64) +
        // carry_times_epsilon(sum)`. With that form LLVM narrows the carry to a 64-bit
        // compare, and under AVX-512 (`-C target-cpu=native`) the SLP vectoriser packs the
        // tails of independent reductions into xmm/ymm registers and back, which made the
        // Goldilocks permutations 1.5-1.7x slower than the default build. A `u128` addition is
        // too expensive to vectorise, so every reduction stays scalar (`add`, `lea`, `cmovae`).
        (sum + if sum >> 64 != 0 { EPSILON as u128 } else { 0 }) as u64
    }
}

impl PartialEq for GoldilocksFast {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.to_canonical_u64() == other.to_canonical_u64()
    }
}

impl Eq for GoldilocksFast {}

impl Hash for GoldilocksFast {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_canonical_u64().hash(state);
    }
}

impl Field for GoldilocksFast {
    const ZERO_ELEMENT: Self = GoldilocksFast(0);
    const ONE_ELEMENT: Self = GoldilocksFast(1);

    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        GoldilocksFast(v)
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        GoldilocksFast(add_lazy(self.0, rhs.0))
    }
    #[inline(always)]
    fn doubled(self) -> Self {
        GoldilocksFast(add_lazy(self.0, self.0))
    }
    #[inline(always)]
    fn squared(self) -> Self {
        GoldilocksFast(reduce128(widening_mul(self.0, self.0)))
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        GoldilocksFast(reduce128(widening_mul(self.0, rhs.0)))
    }
}

impl Representation for GoldilocksFast {
    // Plain form (`r = 1`), any `u64` accepted on input.
    const GOLDILOCKS_FACTOR: Option<u64> = Some(1);

    #[inline(always)]
    fn to_goldilocks_word(self, _: Sealed) -> Option<u64> {
        Some(self.0)
    }
    #[inline(always)]
    fn from_goldilocks_word(word: u64, _: Sealed) -> Option<Self> {
        Some(GoldilocksFast(word))
    }
}

impl PrimeField for GoldilocksFast {
    const MODULUS_BITS: u32 = 64;
    const BYTES: usize = 8;

    /// `self - rhs`: the mirror of the lazy addition. A borrow adds `2^64 = EPSILON`, so `EPSILON` is
    /// taken off; if that borrows again (wrapped difference `< EPSILON`), it is taken off once
    /// more, from a value `>= 2^64 - EPSILON > EPSILON`, which cannot borrow.
    fn sub(self, rhs: Self) -> Self {
        let (diff, borrow) = self.0.overflowing_sub(rhs.0);
        let (diff, borrow) = diff.overflowing_sub(EPSILON * u64::from(borrow));
        GoldilocksFast(diff - EPSILON * u64::from(borrow))
    }

    /// Fermat: `x^(p - 2)`; `None` for zero.
    fn inverted(self) -> Option<Self> {
        (self != Self::ZERO_ELEMENT).then(|| self.pow_u64(MODULUS - 2))
    }

    fn write_modulus_be(out: &mut [u8]) {
        out[..Self::BYTES].copy_from_slice(&MODULUS.to_be_bytes());
    }

    fn from_canonical_be_bytes(bytes: &[u8]) -> Option<Self> {
        let v = u64::from_be_bytes(bytes.try_into().ok()?);
        (v < MODULUS).then_some(GoldilocksFast(v))
    }

    /// Any length is accepted (Horner's rule mod p, one byte at a time); the result is canonical.
    fn from_be_bytes_reduced(bytes: &[u8]) -> Self {
        let v = bytes.iter().fold(0u64, |acc, &b| {
            ((u128::from(acc) << 8 | u128::from(b)) % u128::from(MODULUS)) as u64
        });
        GoldilocksFast(v)
    }

    fn write_canonical_be_bytes(self, out: &mut [u8]) {
        out[..Self::BYTES].copy_from_slice(&self.to_canonical_u64().to_be_bytes());
    }
}

impl From<u64> for GoldilocksFast {
    /// `v mod p` (see [`GoldilocksFast::new`]).
    fn from(v: u64) -> Self {
        GoldilocksFast::new(v)
    }
}

impl From<GoldilocksFast> for u64 {
    /// The canonical integer in `[0, p)`.
    fn from(x: GoldilocksFast) -> Self {
        x.to_canonical_u64()
    }
}

impl From<super::Goldilocks> for GoldilocksFast {
    fn from(x: super::Goldilocks) -> Self {
        GoldilocksFast(ark_ff::PrimeField::into_bigint(x).0[0])
    }
}

impl From<GoldilocksFast> for super::Goldilocks {
    fn from(x: GoldilocksFast) -> Self {
        super::Goldilocks::from(x.to_canonical_u64())
    }
}

#[cfg(test)]
mod tests {
    //! The sealed batch-backend hooks (only callable inside the crate), the reductions (the
    //! assembly against the portable code) and the products by classified constants.
    use super::*;
    use crate::field::Sealed;

    /// Words at the edges of the lazy range and around `p`, `EPSILON` and `2^32`.
    const EDGES: [u64; 12] = [
        0,
        1,
        2,
        EPSILON - 1,
        EPSILON,
        1 << 32,
        1 << 63,
        MODULUS - 2,
        MODULUS - 1,
        MODULUS,
        MODULUS + 1,
        u64::MAX,
    ];

    /// The edge words, then pseudo-random ones (a 64-bit LCG).
    fn words() -> impl Iterator<Item = u64> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        EDGES.into_iter().chain((0..2000).map(move |_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed
        }))
    }

    const P: u128 = MODULUS as u128;

    /// The reductions and the addition are congruent to their input mod p, and where the
    /// assembly is compiled it returns the portable code's word exactly.
    #[test]
    fn reductions_are_exact_and_the_assembly_equals_the_portable_code() {
        let all_edge_pairs = EDGES.into_iter().flat_map(|a| EDGES.map(|b| (a, b)));
        for (a, b) in all_edge_pairs.chain(words().zip(words().skip(5))) {
            let wide = u128::from(a) << 64 | u128::from(b);
            let narrow = u128::from(a) << 64 >> 32 | u128::from(b); // below 2^96
            assert_eq!(u128::from(reduce128(wide)) % P, wide % P, "{wide:#x}");
            assert_eq!(u128::from(reduce96(narrow)) % P, narrow % P, "{narrow:#x}");
            let sum = u128::from(a) + u128::from(b);
            assert_eq!(u128::from(add_lazy(a, b)) % P, sum % P, "{a:#x} + {b:#x}");
            assert_eq!(reduce128(wide), portable::reduce128(wide));
            assert_eq!(reduce96(narrow), portable::reduce96(narrow));
            assert_eq!(add_lazy(a, b), portable::add_lazy(a, b));
        }
    }

    /// The product and the addition taken last are the `u128` ones exactly, and where the
    /// assembly is compiled (its product is used only in builds with BMI2) so is it, carry
    /// into the high word included.
    #[test]
    fn wide_product_and_last_addition_are_exact() {
        let all_edge_pairs = EDGES.into_iter().flat_map(|a| EDGES.map(|b| (a, b)));
        for (a, b) in all_edge_pairs.chain(words().zip(words().skip(3))) {
            let product = u128::from(a) * u128::from(b);
            assert_eq!(widening_mul(a, b), product, "{a:#x} {b:#x}");
            let s = u128::from(a) << 60 | u128::from(b); // below 2^124, carries in the low word
            assert_eq!(add_last(s, a), s + u128::from(a), "{s:#x} + {a:#x}");
            #[cfg(fast_poseidon2_simd)]
            {
                let (lo, hi) = mulx_adx::widening_mul(a, b);
                assert_eq!(u128::from(hi) << 64 | u128::from(lo), product);
                let (lo, hi) = mulx_adx::add_wide(u64::MAX, b >> 1, a);
                let want = (u128::from(b >> 1) << 64 | u128::from(u64::MAX)) + u128::from(a);
                assert_eq!(u128::from(hi) << 64 | u128::from(lo), want);
            }
        }
    }

    /// `s + m x` by the classified code equals the reduced product and sum, for every kind
    /// (Plonky3's t = 16 diagonal has `±1 .. ±4`, `±2^-n` for `n` = 1 .. 5 and 32; a generic
    /// entry besides), every lazy `x` and sums up to the bound `2^69`.
    #[cfg(feature = "goldilocks")]
    #[test]
    fn products_by_classified_constants_equal_the_field_products() {
        let plonky3 = crate::instances::plonky3::ct::GOLDILOCKS_T16.internal_diagonal_minus_one();
        let diag: [GoldilocksFast; 17] = core::array::from_fn(|i| match plonky3.get(i) {
            Some(&m) => m,
            None => GoldilocksFast(0x1234_5678_9abc_def0),
        });
        let kinds = Classified::<GoldilocksFast>::table(&diag);
        assert!(kinds[..16].iter().all(|c| c.is_small()));
        assert!(!kinds[16].is_small());
        let sums = [0u128, 1, u128::from(u64::MAX), (1 << 69) - 1];
        for (x, (m, c)) in words().zip(diag.iter().zip(&kinds).cycle()) {
            for s in sums {
                let want = (u128::from(x) * u128::from(m.to_canonical_u64()) + s) % P;
                let got = GoldilocksFast(x).mul_classified_add(c, s);
                assert_eq!(u128::from(got.0) % P, want, "x = {x:#x}, m = {:#x}", m.0);
            }
        }
    }

    /// The plain form (`r = 1`): the stored word goes out and comes back as it is, lazy
    /// representations (`>= p`) included.
    #[test]
    fn the_batch_kernels_get_and_give_back_the_plain_word() {
        assert_eq!(GoldilocksFast::GOLDILOCKS_FACTOR, Some(1));
        for a in [
            0,
            1,
            (1 << 32) - 1,
            1 << 32,
            MODULUS - 1,
            MODULUS,
            MODULUS + 1,
            u64::MAX,
        ] {
            let x = GoldilocksFast::from_goldilocks_word(a, Sealed(())).expect("a word");
            assert_eq!(x.to_goldilocks_word(Sealed(())), Some(a), "{a:#x}");
        }
    }
}
