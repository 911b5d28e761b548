//! AVX2 registers for the Goldilocks kernel: 4 lanes. AVX2 compares only signed 64-bit
//! integers, so an unsigned `a < b` is the signed compare of both with the top bit flipped, and a
//! conditional addition adds `c` masked by the all-ones compare result.

use core::arch::x86_64::*;
use core::marker::PhantomData;

use super::{Cpu, Form, Lanes};
use crate::field::Field;
use crate::permutation::RoundConstants;

/// Four `u64` lanes. Made only by [`Lanes::splat`] and [`Lanes::load`], which take a [`Cpu`]
/// token, or from another `Avx2`: a value proves the CPU has avx2.
#[derive(Clone, Copy)]
pub(super) struct Avx2(__m256i);

/// The kernel compiled with AVX2.
#[target_feature(enable = "avx2")]
fn permute_all<F: Field, const D: u64>(
    cpu: Cpu<Avx2>,
    states: &mut [F],
    t: usize,
    rc: RoundConstants<'_, F>,
    form: Form,
) {
    super::permute_all::<Avx2, F, D>(cpu, states, t, rc, form);
}

impl Avx2 {
    /// All-ones in the lanes where `a < b` (unsigned), zero elsewhere.
    #[inline(always)]
    fn below(a: Self, b: Self) -> __m256i {
        // SAFETY: `a` proves avx2.
        unsafe {
            let sign = _mm256_set1_epi64x(i64::MIN);
            _mm256_cmpgt_epi64(_mm256_xor_si256(b.0, sign), _mm256_xor_si256(a.0, sign))
        }
    }
}

impl Lanes for Avx2 {
    const LANES: usize = 4;
    type Words = [u64; 4];

    fn detect() -> Option<Cpu<Self>> {
        std::is_x86_feature_detected!("avx2").then_some(Cpu(PhantomData))
    }

    fn permute_all<F: Field, const D: u64>(
        cpu: Cpu<Self>,
        states: &mut [F],
        t: usize,
        rc: RoundConstants<'_, F>,
        form: Form,
    ) {
        // SAFETY: `cpu` was issued by `detect`: the CPU has avx2, all `permute_all` enables.
        unsafe { permute_all::<F, D>(cpu, states, t, rc, form) }
    }

    #[inline(always)]
    fn splat(_: Cpu<Self>, x: u64) -> Self {
        // SAFETY: the `Cpu` token proves avx2.
        Avx2(unsafe { _mm256_set1_epi64x(x as i64) })
    }
    #[inline(always)]
    fn load(_: Cpu<Self>, words: &[u64; 4]) -> Self {
        // SAFETY: the `Cpu` token proves avx2; `words` is the 32 bytes the unaligned load reads.
        Avx2(unsafe { _mm256_loadu_si256(words.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, words: &mut [u64; 4]) {
        // SAFETY: `self` proves avx2; `words` is the 32 bytes the unaligned store writes.
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_add_epi64(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_sub_epi64(self.0, rhs.0) })
    }
    #[inline(always)]
    fn and(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_and_si256(self.0, rhs.0) })
    }
    #[inline(always)]
    fn shr32(self) -> Self {
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_srli_epi64::<32>(self.0) })
    }
    #[inline(always)]
    fn shl32(self) -> Self {
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_slli_epi64::<32>(self.0) })
    }
    #[inline(always)]
    fn mul32(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_mul_epu32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn blend_high(self, high: Self) -> Self {
        // SAFETY: `self` proves avx2. Mask bits 1, 3, 5, 7 select the odd (high) 32-bit halves.
        Avx2(unsafe { _mm256_blend_epi32::<0b1010_1010>(self.0, high.0) })
    }
    #[inline(always)]
    fn add_if_below(self, a: Self, b: Self, c: Self) -> Self {
        let below = Self::below(a, b);
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_add_epi64(self.0, _mm256_and_si256(below, c.0)) })
    }
    #[inline(always)]
    fn sub_if_below(self, a: Self, b: Self, c: Self) -> Self {
        let below = Self::below(a, b);
        // SAFETY: `self` proves avx2.
        Avx2(unsafe { _mm256_sub_epi64(self.0, _mm256_and_si256(below, c.0)) })
    }
}
