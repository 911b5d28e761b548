//! AVX2 registers for the Goldilocks kernel: 4 lanes. AVX2 compares only signed 64-bit
//! integers, so an unsigned `a < b` is the signed compare of both with the top bit flipped, and a
//! conditional addition adds `c` masked by the all-ones compare result.

use core::arch::x86_64::*;
use super::{Avx2, Lanes};

impl Avx2 {
    /// `c` in the lanes where `a < b` (unsigned), zero elsewhere.
    #[inline(always)]
    fn where_below(a: Self, b: Self, c: Self) -> __m256i {
        // SAFETY: `a` proves avx2.
        unsafe {
            let sign = _mm256_set1_epi64x(i64::MIN);
            let below = _mm256_cmpgt_epi64(_mm256_xor_si256(b.0, sign), _mm256_xor_si256(a.0, sign));
            _mm256_and_si256(below, c.0)
        }
    }
    /// [`Lanes::mul_epsilon`].
    #[inline(always)]
    pub(super) fn mul_epsilon_isa(self) -> Self {
        self.mul32(Self::splat(self.cpu(), super::EPSILON))
    }
    /// [`Lanes::join_low`].
    #[inline(always)]
    pub(super) fn join_low_isa(self, high: Self) -> Self {
        // SAFETY: `self` proves avx2. Mask bits 1, 3, 5, 7 select the odd (high) 32-bit halves
        // of `high << 32`.
        Avx2(unsafe { _mm256_blend_epi32::<0b1010_1010>(self.0, _mm256_slli_epi64::<32>(high.0)) })
    }
    /// [`Lanes::add_if_below`].
    #[inline(always)]
    pub(super) fn add_if_below_isa(self, a: Self, b: Self, c: Self) -> Self {
        self.add(Avx2(Self::where_below(a, b, c)))
    }
    /// [`Lanes::sub_if_below`].
    #[inline(always)]
    pub(super) fn sub_if_below_isa(self, a: Self, b: Self, c: Self) -> Self {
        self.sub(Avx2(Self::where_below(a, b, c)))
    }
}
