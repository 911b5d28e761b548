//! AVX-512F registers for the Goldilocks kernel: 8 lanes, unsigned compares into mask registers
//! and masked additions for the carry corrections.

use core::arch::x86_64::*;
use super::Avx512;

impl Avx512 {
    /// [`Lanes::blend_high`].
    #[inline(always)]
    pub(super) fn blend_high_isa(self, high: Self) -> Self {
        // SAFETY: `self` proves avx512f. Mask bits 1, 3, ... select the odd (high) 32-bit halves.
        Avx512(unsafe { _mm512_mask_blend_epi32(0xaaaa, self.0, high.0) })
    }
    /// [`Lanes::add_if_below`].
    #[inline(always)]
    pub(super) fn add_if_below_isa(self, a: Self, b: Self, c: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe {
            _mm512_mask_add_epi64(self.0, _mm512_cmplt_epu64_mask(a.0, b.0), self.0, c.0)
        })
    }
    /// [`Lanes::sub_if_below`].
    #[inline(always)]
    pub(super) fn sub_if_below_isa(self, a: Self, b: Self, c: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe {
            _mm512_mask_sub_epi64(self.0, _mm512_cmplt_epu64_mask(a.0, b.0), self.0, c.0)
        })
    }
}
