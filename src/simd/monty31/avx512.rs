//! AVX-512F registers for the 31-bit Montgomery kernel: 16 lanes; AVX-512 has no `vpsignd`,
//! so the sign of a lane is a compare into a mask register and a masked subtraction, and the
//! odd elements are blended in under a constant mask.

use core::arch::asm;
use core::arch::x86_64::*;

use super::Avx512;

impl Avx512 {
    /// [`super::Lanes::signed_p`]: `-p` in the lanes where `d < 0` (as `i32`), `p` elsewhere.
    #[inline(always)]
    pub(super) fn signed_p_isa(self, d: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe {
            let zero = _mm512_setzero_si512();
            let negative = _mm512_cmplt_epi32_mask(d.0, zero);
            _mm512_mask_sub_epi32(self.0, negative, zero, self.0)
        })
    }
    /// [`super::Lanes::add_where_odd`]: `vptestmd` and a masked `vpaddd`.
    #[inline(always)]
    pub(super) fn add_where_odd_isa(self, x: Self, half: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe {
            let odd = _mm512_test_epi32_mask(x.0, _mm512_set1_epi32(1));
            _mm512_mask_add_epi32(self.0, odd, self.0, half.0)
        })
    }
    /// [`super::Lanes::low_product_or`]: `vptestmd` and a masked `vpmulld`.
    #[inline(always)]
    pub(super) fn low_product_or_isa(self, mask: Self, c: Self, or: Self) -> Option<Self> {
        // SAFETY: `self` proves avx512f.
        Some(Avx512(unsafe {
            let nonzero = _mm512_test_epi32_mask(self.0, mask.0);
            _mm512_mask_mullo_epi32(or.0, nonzero, _mm512_and_si512(self.0, mask.0), c.0)
        }))
    }
    /// [`super::Lanes::opaque`]: an empty `asm!` on the register (a function of its own with
    /// the ISA enabled, which `asm!`'s `zmm_reg` requires; inlined into the kernel, which has
    /// the same features).
    ///
    /// # Safety
    /// The CPU must have AVX-512F (a value of the type proves it).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn opaque_isa(self) -> Self {
        let out;
        // SAFETY: an empty template: no memory, stack or flags touched.
        unsafe {
            asm!("/* {0} */", inlateout(zmm_reg) self.0 => out, options(pure, nomem, nostack, preserves_flags));
        }
        Avx512(out)
    }
    /// [`super::Lanes::blend_odd`].
    #[inline(always)]
    pub(super) fn blend_odd_isa(self, odd: Self) -> Self {
        // SAFETY: `self` proves avx512f. Mask bits 1, 3, ..., 15 select the odd elements of
        // `odd`.
        Avx512(unsafe { _mm512_mask_blend_epi32(0xaaaa, self.0, odd.0) })
    }
    /// [`super::Lanes::join_high`]: `odd` with its even elements replaced by the odd ones of
    /// `self` (`vpshufd` with the selector (3, 3, 1, 1) under the even-element mask).
    #[inline(always)]
    pub(super) fn join_high_isa(self, odd: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_mask_shuffle_epi32::<0xf5>(odd.0, 0x5555, self.0) })
    }
}

impl Avx512 {
    /// [`super::Lanes::transpose`]: the 16 x 16 transpose of 32-bit words: pairs of rows
    /// interleaved by words, then by pairs of words (16 shuffles each: each 128-bit block then
    /// holds one column of four rows), then the 4 x 4 transpose of 128-bit blocks (32 shuffles).
    #[inline(always)]
    pub(super) fn transpose_isa(rows: &mut [Self]) {
        let Some(r) = rows.first_chunk_mut::<16>() else {
            return;
        };
        // SAFETY: a value of the type proves avx512f.
        unsafe {
            let mut t = [_mm512_setzero_si512(); 16];
            for k in 0..8 {
                t[2 * k] = _mm512_unpacklo_epi32(r[2 * k].0, r[2 * k + 1].0);
                t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k].0, r[2 * k + 1].0);
            }
            // u[4m + c]: block j holds column 4j + c of rows 4m .. 4m + 3.
            let mut u = [_mm512_setzero_si512(); 16];
            for m in 0..4 {
                let (a, b) = (4 * m, 4 * m + 2);
                u[4 * m] = _mm512_unpacklo_epi64(t[a], t[b]);
                u[4 * m + 1] = _mm512_unpackhi_epi64(t[a], t[b]);
                u[4 * m + 2] = _mm512_unpacklo_epi64(t[a + 1], t[b + 1]);
                u[4 * m + 3] = _mm512_unpackhi_epi64(t[a + 1], t[b + 1]);
            }
            for c in 0..4 {
                // Blocks (0, 2 | 0, 2) and (1, 3 | 1, 3) of u[c], u[4 + c] and of u[8 + c],
                // u[12 + c]; then the same selections of those give block j of every row
                // group in order: column 4j + c.
                let v0 = _mm512_shuffle_i32x4::<0x88>(u[c], u[4 + c]);
                let v1 = _mm512_shuffle_i32x4::<0xdd>(u[c], u[4 + c]);
                let v2 = _mm512_shuffle_i32x4::<0x88>(u[8 + c], u[12 + c]);
                let v3 = _mm512_shuffle_i32x4::<0xdd>(u[8 + c], u[12 + c]);
                r[c] = Avx512(_mm512_shuffle_i32x4::<0x88>(v0, v2));
                r[4 + c] = Avx512(_mm512_shuffle_i32x4::<0x88>(v1, v3));
                r[8 + c] = Avx512(_mm512_shuffle_i32x4::<0xdd>(v0, v2));
                r[12 + c] = Avx512(_mm512_shuffle_i32x4::<0xdd>(v1, v3));
            }
        }
    }
}
