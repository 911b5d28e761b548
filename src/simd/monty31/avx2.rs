//! AVX2 registers for the 31-bit Montgomery kernel: 8 lanes; the sign of a lane is applied
//! with `vpsignd` (also to add `(p + 1) / 2` where a lane is odd), the odd elements blended in
//! with an immediate blend.

use core::arch::asm;
use core::arch::x86_64::*;

use super::Avx2;

impl Avx2 {
    /// [`super::Lanes::signed_p`]: `vpsignd` (zero where `d` is zero).
    #[inline(always)]
    pub(super) fn signed_p_isa(self, d: Self) -> Self {
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_sign_epi32(self.0, d.0) })
    }
    /// [`super::Lanes::add_where_odd`]: `vpsignd` of `half` by `x & 1` (`half` where `x` is
    /// odd, zero where even) and an addition.
    #[inline(always)]
    pub(super) fn add_where_odd_isa(self, x: Self, half: Self) -> Self {
        // SAFETY: `self` proves avx2.
        Avx2(unsafe {
            let odd = _mm256_and_si256(x.0, _mm256_set1_epi32(1));
            _mm256_add_epi32(self.0, _mm256_sign_epi32(half.0, odd))
        })
    }
    /// [`super::Lanes::low_product_or`]: `None` (no mask registers).
    #[inline(always)]
    pub(super) fn low_product_or_isa(self, _: Self, _: Self, _: Self) -> Option<Self> {
        None
    }
    /// [`super::Lanes::opaque`]: an empty `asm!` on the register (a function of its own with
    /// the ISA enabled, which `asm!`'s `ymm_reg` requires; inlined into the kernel, which has
    /// the same features).
    ///
    /// # Safety
    /// The CPU must have AVX2 (a value of the type proves it).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn opaque_isa(self) -> Self {
        let out;
        // SAFETY: an empty template: no memory, stack or flags touched.
        unsafe {
            asm!("/* {0} */", inlateout(ymm_reg) self.0 => out, options(pure, nomem, nostack, preserves_flags));
        }
        Avx2(out)
    }
    /// [`super::Lanes::blend_odd`].
    #[inline(always)]
    pub(super) fn blend_odd_isa(self, odd: Self) -> Self {
        // SAFETY: `self` proves avx2. Mask bits 1, 3, 5, 7 select the odd elements of `odd`.
        Avx2(unsafe { _mm256_blend_epi32::<0b1010_1010>(self.0, odd.0) })
    }
    /// [`super::Lanes::join_high`]: AVX2 has no masked shuffle: a shuffle and a blend.
    #[inline(always)]
    pub(super) fn join_high_isa(self, odd: Self) -> Self {
        use super::Lanes;
        self.high_down().blend_odd(odd)
    }
}

impl Avx2 {
    /// [`super::Lanes::transpose`]: the 8 x 8 transpose of 32-bit words in three stages of 8
    /// shuffles (pairs of rows interleaved by words, then by pairs of words, then the 128-bit
    /// halves exchanged).
    #[inline(always)]
    pub(super) fn transpose_isa(rows: &mut [Self]) {
        let Some(r) = rows.first_chunk_mut::<8>() else {
            return;
        };
        // SAFETY: a value of the type proves avx2.
        unsafe {
            let mut t = [_mm256_setzero_si256(); 8];
            for k in 0..4 {
                t[2 * k] = _mm256_unpacklo_epi32(r[2 * k].0, r[2 * k + 1].0);
                t[2 * k + 1] = _mm256_unpackhi_epi32(r[2 * k].0, r[2 * k + 1].0);
            }
            // u[4m + c]: column c (low half) and c + 4 (high half) of rows 4m .. 4m + 3.
            let mut u = [_mm256_setzero_si256(); 8];
            for m in 0..2 {
                let (a, b) = (4 * m, 4 * m + 2);
                u[4 * m] = _mm256_unpacklo_epi64(t[a], t[b]);
                u[4 * m + 1] = _mm256_unpackhi_epi64(t[a], t[b]);
                u[4 * m + 2] = _mm256_unpacklo_epi64(t[a + 1], t[b + 1]);
                u[4 * m + 3] = _mm256_unpackhi_epi64(t[a + 1], t[b + 1]);
            }
            for c in 0..4 {
                r[c] = Avx2(_mm256_permute2x128_si256::<0x20>(u[c], u[4 + c]));
                r[c + 4] = Avx2(_mm256_permute2x128_si256::<0x31>(u[c], u[4 + c]));
            }
        }
    }
}
