//! AVX-512F registers for the Goldilocks kernel: 8 lanes, unsigned compares into mask registers
//! and masked additions for the carry corrections.

use core::arch::x86_64::*;
use super::Avx512;

impl Avx512 {
    /// [`Lanes::mul_epsilon`](super::Lanes::mul_epsilon).
    #[inline(always)]
    pub(super) fn mul_epsilon_isa(self) -> Self {
        // SAFETY: `self` proves avx512f.
        unsafe { self.mul_epsilon_asm() }
    }
    /// One `vpmuludq` by `2^32 - 1`, written as inline assembly because LLVM otherwise
    /// rewrites the product by that constant as a shift, a mask and a subtraction (three
    /// operations on the busier ALU ports instead of one multiplication).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn mul_epsilon_asm(self) -> Self {
        let product: __m512i;
        // SAFETY: the instruction only reads and writes the named registers.
        unsafe {
            core::arch::asm!(
                "vpmuludq {product}, {x}, {eps}",
                product = lateout(zmm_reg) product,
                x = in(zmm_reg) self.0,
                eps = in(zmm_reg) _mm512_set1_epi64(0xffff_ffff),
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        Avx512(product)
    }
    /// [`Lanes::join_low`](super::Lanes::join_low): one masked shuffle copying each lane's low 32-bit half of `high`
    /// over the high half of `self`.
    #[inline(always)]
    pub(super) fn join_low_isa(self, high: Self) -> Self {
        // SAFETY: `self` proves avx512f. The shuffle `CCAA` puts 32-bit element 0 (2) of each
        // 128-bit block in positions 0, 1 (2, 3); mask bits 1, 3, ... take the odd (high)
        // halves from it, the even ones from `self`.
        Avx512(unsafe { _mm512_mask_shuffle_epi32::<_MM_PERM_CCAA>(self.0, 0xaaaa, high.0) })
    }
    /// [`Lanes::add_if_below`](super::Lanes::add_if_below).
    #[inline(always)]
    pub(super) fn add_if_below_isa(self, a: Self, b: Self, c: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe {
            _mm512_mask_add_epi64(self.0, _mm512_cmplt_epu64_mask(a.0, b.0), self.0, c.0)
        })
    }
    /// [`Lanes::sub_if_below`](super::Lanes::sub_if_below).
    #[inline(always)]
    pub(super) fn sub_if_below_isa(self, a: Self, b: Self, c: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe {
            _mm512_mask_sub_epi64(self.0, _mm512_cmplt_epu64_mask(a.0, b.0), self.0, c.0)
        })
    }
}
