//! AVX-512F registers for the Goldilocks kernel: 8 lanes, unsigned compares into mask registers
//! and masked additions for the carry corrections.

use core::arch::x86_64::*;
use core::marker::PhantomData;

use super::{Cpu, Form, Lanes};
use crate::field::Field;
use crate::permutation::RoundConstants;

/// Eight `u64` lanes. Made only by [`Lanes::splat`] and [`Lanes::load`], which take a
/// [`Cpu`] token, or from another `Avx512`: a value proves the CPU has avx512f.
#[derive(Clone, Copy)]
pub(super) struct Avx512(__m512i);

/// The kernel compiled with AVX-512F.
#[target_feature(enable = "avx512f")]
fn permute_all<F: Field, const D: u64>(
    cpu: Cpu<Avx512>,
    states: &mut [F],
    t: usize,
    rc: RoundConstants<'_, F>,
    form: Form,
) {
    super::permute_all::<Avx512, F, D>(cpu, states, t, rc, form);
}

impl Lanes for Avx512 {
    const LANES: usize = 8;
    type Words = [u64; 8];

    fn detect() -> Option<Cpu<Self>> {
        std::is_x86_feature_detected!("avx512f").then_some(Cpu(PhantomData))
    }

    fn permute_all<F: Field, const D: u64>(
        cpu: Cpu<Self>,
        states: &mut [F],
        t: usize,
        rc: RoundConstants<'_, F>,
        form: Form,
    ) {
        // SAFETY: `cpu` was issued by `detect`: the CPU has avx512f, all `permute_all` enables.
        unsafe { permute_all::<F, D>(cpu, states, t, rc, form) }
    }

    #[inline(always)]
    fn splat(_: Cpu<Self>, x: u64) -> Self {
        // SAFETY: the `Cpu` token proves avx512f.
        Avx512(unsafe { _mm512_set1_epi64(x as i64) })
    }
    #[inline(always)]
    fn load(_: Cpu<Self>, words: &[u64; 8]) -> Self {
        // SAFETY: the `Cpu` token proves avx512f; `words` is the 64 bytes the unaligned load reads.
        Avx512(unsafe { _mm512_loadu_epi64(words.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, words: &mut [u64; 8]) {
        // SAFETY: `self` proves avx512f; `words` is the 64 bytes the unaligned store writes.
        unsafe { _mm512_storeu_epi64(words.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_add_epi64(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_sub_epi64(self.0, rhs.0) })
    }
    #[inline(always)]
    fn and(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_and_si512(self.0, rhs.0) })
    }
    #[inline(always)]
    fn shr32(self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_srli_epi64::<32>(self.0) })
    }
    #[inline(always)]
    fn shl32(self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_slli_epi64::<32>(self.0) })
    }
    #[inline(always)]
    fn mul32(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_mul_epu32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn blend_high(self, high: Self) -> Self {
        // SAFETY: `self` proves avx512f. Mask bits 1, 3, ... select the odd (high) 32-bit halves.
        Avx512(unsafe { _mm512_mask_blend_epi32(0xaaaa, self.0, high.0) })
    }
    #[inline(always)]
    fn add_if_below(self, a: Self, b: Self, c: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_mask_add_epi64(self.0, _mm512_cmplt_epu64_mask(a.0, b.0), self.0, c.0) })
    }
    #[inline(always)]
    fn sub_if_below(self, a: Self, b: Self, c: Self) -> Self {
        // SAFETY: `self` proves avx512f.
        Avx512(unsafe { _mm512_mask_sub_epi64(self.0, _mm512_cmplt_epu64_mask(a.0, b.0), self.0, c.0) })
    }
}
