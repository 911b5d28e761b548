//! Batch kernel for the 31-bit Montgomery fields ([`crate::field::monty31::Monty31`]:
//! BabyBear, KoalaBear; any odd `2^30 < p < 2^31` whose hook [`MONTY31_MODULUS`] answers),
//! written once over the small register trait [`Lanes`] and instantiated for AVX-512F
//! ([`avx512`], 16 lanes: [`BatchBackend::Avx512`]) and AVX2 ([`avx2`], 8 lanes:
//! [`BatchBackend::Avx2`]). The two ISA modules hold only what differs (a lane's sign, the
//! odd-lane blend); everything else, the round structure included, is this one body.
//!
//! # Representation
//! A register holds element `i` of `V::LANES` states (lane `l` = state `l` of a vector group)
//! as the field's own stored word, `x 2^32 mod p` (Montgomery form, `R = 2^32`): loads and
//! stores convert nothing. Shapes: a vector group is `LANES` states of width `t` (16 x t words
//! on AVX-512F, 8 x t on AVX2), held as `t` registers. Between the steps of the round driver
//! every lane is canonical (`[0, p)`); inside a step values may be *signed*: an `i32` in
//! `[-p, p]` congruent to the element. `G = 2` groups run as one [`Packed`] value (the last
//! group of a batch runs alone). On AVX-512F, at the shipped widths (16, 24), the partial
//! rounds with a compiled diagonal run one group after the other
//! ([`compiled_partial_rounds_by_group`]: the state of two groups alone fills its 32
//! registers); on AVX2 they are interleaved (each group's rounds wait on the S-box of `x_0`,
//! and two chains hide each other's latency). The full rounds' arrangement of the groups
//! depends on the ISA, the width, the degree and the build ([`FullRounds::of`]): interleaved
//! operation by operation, the S-boxes interleaved and the external layer one group at a
//! time, or one group after the other.
//!
//! # Constant time
//! No branch and no memory address depends on a lane's value: every correction is an unsigned
//! minimum (`vpminud`) or an addition of `±p` chosen per lane without a branch (AVX2:
//! `vpsignd`; AVX-512F: a compare into a mask register and a masked subtraction, `vpcmpd` +
//! `vpsubd{k}`), computed in every lane. The only branches in the kernel are on public data:
//! the width, the batch length, whether the instance's diagonal is one compiled into the code
//! (a comparison of its constants with the registry's) and otherwise the *kind* of each
//! internal-diagonal entry (a constant of the instance, fixed when the permutation's cache is
//! filled). The AVX2 kernel runs under
//! valgrind's memcheck with secret states (`tests/constant_time.rs`); valgrind cannot run
//! AVX-512, so the AVX-512F kernel is covered by this argument: it is the same generic code,
//! and its two ISA-specific operations ([`avx512`]) are a mask compare with a masked
//! subtraction and a blend under a constant mask, neither of which branches or addresses
//! memory by value.
//!
//! # Arithmetic and bounds (`p < 2^31`, so `2p < 2^32`; `p' = p^-1 mod 2^32`)
//! - [`add`] (canonical `a, b`): `s = a + b < 2p < 2^32` does not wrap; `min(s, s - p)` (as
//!   `u32`) is `s - p` when `s >= p`, and `s` when `s < p` (then `s - p` wraps to
//!   `>= 2^32 - p > p > s`). Three operations; the external layer and the sum of the internal
//!   layer are these additions only (`poseidon2::linear`'s layers on [`LinearOps`], through
//!   [`add_in_layer`]: the same value, `s` behind a compiler barrier on AVX2).
//! - [`canonical`] (signed `d` in `(-p, p)`): `min(d, d + p)` as `u32`: `d >= 0` gives `d`
//!   (`d + p < 2p` does not wrap); `d < 0` is `>= 2^32 - p > p` as `u32`, and `d + p` in
//!   `(0, p)` is the smaller.
//! - [`add_signed`] (signed `d` in `[-p, p]`, canonical `s`): `r = d + s` is in `[-p, 2p)`;
//!   with `c = p` for `d > 0`, `c = -p` for `d < 0` and `c` either `p` or `0` for `d = 0`,
//!   `min(r, r - c)` as `u32` is canonical: for `d > 0` as in [`add`]; for `d < 0`, `r >= 0`
//!   is below `r + p < 2p`, and a negative `r` (`>= 2^32 - p` as `u32`) is above `r + p` in
//!   `[0, p)`; for `d = 0`, `r = s` and `r - c` is `s` or wraps above it. Four operations, the
//!   choice of `c` off the path of `s`.
//! - Montgomery product ([`reduce_half`]): the even and the odd 32-bit lanes are multiplied
//!   apart (`vpmuldq` reads the low 32 bits of each 64-bit lane as an `i32`; the odd elements are
//!   shifted down first). For signed `a, b` with `|a|, |b| <= p`, the exact `P = a b` has
//!   `|P| <= p^2 < 2^62`; `q = P p' mod 2^32` (low half of `vpmuludq`) taken as an `i32` gives
//!   `|q p| < 2^31 p`, and `P - q p` is a multiple of `2^32` (exact in `i64`), so
//!   `d = (P - q p) / 2^32` is the high half of the 64-bit difference, with
//!   `|d| < (p^2 + 2^31 p) / 2^32 < p`: a signed value in `(-p, p)`, `d = a b 2^-32 (mod p)`,
//!   the Montgomery product of the stored words. No correction is needed for the next product,
//!   so the S-box chain runs on signed values.
//! - Products by a constant `c` (an internal-diagonal entry of no cheaper kind):
//!   `q = P p' = x (c p') mod 2^32` with `c p' mod 2^32` precomputed
//!   (`kernel_form::monty31::word`), so `q` does not wait for `P` (same bounds: `c` canonical).
//! - Products by the cheap diagonal entries ([`add_diagonal_product`]; the kind of each entry
//!   is found once, when the permutation's batch cache is filled
//!   (`kernel_form::monty31::diagonal_word`); Plonky3's diagonals are all cheap). On the
//!   stored word, a product by a plain constant `m` is the same product (`m · x R = (m x) R`):
//!   `|m| = 1 .. 4`: `x`, `add(x, x)`, `add(add(x, x), x)`, `add(add(x, x), add(x, x))`,
//!   canonical. `±2^-n` where `2^n | p - 1`: with `x = h 2^n + l` (`l < 2^n`),
//!   `2^-n = -(p - 1) / 2^n (mod p)` (because `2^n (p - 1) / 2^n = -1`), so
//!   `x 2^-n = h - l (p - 1) / 2^n`; `h < 2^(31 - n)` and `l (p - 1) / 2^n < p - 1 < 2^31` (one
//!   `vpmulld`, exact), so the difference is in `(-p, p)`, made canonical by [`canonical`]. A
//!   shift, a mask, a multiplication, a subtraction and a correction in place of six `vpmul*`
//!   and the joins. The sign of the entry picks [`add`] or [`sub`] of the canonical `|m| x`
//!   with the sum (three operations each). `x / 2 = h + l (p + 1) / 2` is a shift and
//!   an addition of `(p + 1) / 2` where `x` is odd (a masked addition on AVX-512F, `vpsignd`
//!   on AVX2), canonical. AVX-512F's mask registers make one more case cheaper
//!   ([`diagonal_product`]): for `n > 1`, `u = -2^-n x = l (p - 1) / 2^n - h` is in
//!   `(0, p)` when `l != 0` (then `h < (p - 1) / 2^n <= l (p - 1) / 2^n < p`), and `p - h`
//!   in `(0, p]` is taken where `l = 0` (a masked multiplication with `p` as the default):
//!   no correction, and [`add`]/[`sub`] of `u` (exact for `u = p` too) with the sign flipped.
//! - Round constant and S-box ([`Packed::add_sbox`]): `x + (c - p)` for canonical `x, c` is in
//!   `[-p, p)`: a signed input in one addition (`c - p` precomputed). `x^d` ([`sbox_chain`],
//!   `d = 3, 5, 7, 11`) runs on the even and the odd halves kept apart ([`Halves`]), each
//!   product signed as above; the halves are joined and made canonical once at the end.
//! - Internal layer (`t >= 4`, [`Packed`]'s [`LinearLayers::internal_layer`]): `y_i = m_i x_i +
//!   s` by [`add_diagonal_product`] (for an entry of no cheap kind, [`add_signed`] of the
//!   signed product and the canonical sum `s`); the scaled layer (SP1) the same with `s`
//!   replaced by the canonical `scale · s`. A diagonal of the registry of diagonals compiled
//!   into the code (`crate::instances`: Plonky3's and SP1's) runs the same
//!   [`add_diagonal_product`] with its kernel words as constants of the code
//!   ([`LinearLayers::compiled_partial_rounds`]): each entry's kind is then known when
//!   compiling, so the partial rounds have no branch, no table load and the state in registers.
//!
//! # Round structure
//! The crate's one round driver ([`permute`]) runs on [`Packed`] through [`RoundOps`]; the
//! external layer, the sum of the internal layer and the fixed t = 2, 3 internal matrices are
//! [`crate::poseidon2::linear`]'s, run on [`LinearOps`] with [`add_in_layer`]. Round constants
//! are converted once per permutation value (its batch cache, see `crate::simd`) by
//! `field::kernel_form::monty31::word` and broadcast from memory where they are used.
//!
//! # Speed
//! bench-compare rows "BabyBear t=16 batch permutation" and "KoalaBear t=16 batch permutation"
//! against Plonky3 0.8's packed permutations: the latest numbers and their commands are in
//! `docs/benchmarks.md` (2026-12-04: compiled diagonals, two AVX-512 groups). The Montgomery
//! quotient passes through [`Lanes::opaque`]: without it LLVM turns `vpmuludq` into `vpmullq`
//! when AVX-512DQ is enabled (1.7x slower kernel with `-C target-cpu=native`).
//!
//! [`MONTY31_MODULUS`]: crate::field::Representation::MONTY31_MODULUS

use core::arch::x86_64::*;
use super::Cpu;
use core::marker::PhantomData;

use crate::field::kernel_form::monty31::{Modulus, inverse};
use crate::field::kernel_form::{HALVE, NEGATE, SMALL};
use crate::field::{Field, Sealed, SboxOps, sbox_chain};
use crate::params::MAX_WIDTH;
use crate::poseidon2::batch_cache::{BatchBackend, Word};
use crate::poseidon2::linear::{
    CompiledLayer, DiagonalOps, LinearLayers, LinearOps, internal_layer_fixed, sum_tree,
    tail_sum_tree,
};
use crate::params::ExternalMatrix;
use crate::poseidon2::permutation::{RoundConstants, RoundOps, full_rounds, permute};

mod avx2;
mod avx512;

/// One SIMD register of `LANES` `u32` lanes (viewed as `LANES / 2` 64-bit lanes by the
/// `*64` and `mul_*` operations): the primitives the kernel is written in, implemented by
/// each ISA ([`Avx2`], [`Avx512`]). All operations are lane-wise and wrap.
pub(super) trait Lanes: Copy {
    /// Lanes per register: states per vector group.
    const LANES: usize;
    /// Vector registers of the ISA (AVX-512F: 32, AVX2: 16): the compiled layer keeps a
    /// second sum only with 32 ([`LayerSum`]).
    const REGISTERS: usize;
    /// The backend name of this register type.
    const BACKEND: BatchBackend;
    /// `LANES` words in lane order.
    type Words: Copy + Default + AsRef<[u32]> + AsMut<[u32]>;

    /// A token if the CPU runs this register type (cached detection).
    fn detect() -> Option<Cpu<Self>>;
    /// Permutes `states` (a whole number of groups of `LANES` states of width `t`) in place:
    /// [`permute_width`] compiled with the ISA's target features, for `W` if the caller fixed
    /// the width when compiling (`t == W`), else (`W = 0`) for `t` if it is a shipped width
    /// (16, 24, the widths of the registry's compiled diagonals), else for the width read at
    /// run time.
    fn permute_all<F: Field, const D: u64, const W: usize>(
        cpu: Cpu<Self>,
        states: &mut [F],
        t: usize,
        rc: RoundConstants<'_, Word>,
    );

    /// `x` in every lane.
    fn splat(cpu: Cpu<Self>, x: u32) -> Self;
    /// The register holding `words`.
    fn load(cpu: Cpu<Self>, words: &Self::Words) -> Self;
    /// Writes the lanes to `words`.
    fn store(self, words: &mut Self::Words);
    /// The register holding the first `LANES` words of `words` (zero if it is shorter).
    fn load_from(cpu: Cpu<Self>, words: &[u32]) -> Self;
    /// Writes the lanes to the first `LANES` words of `words` (nothing if it is shorter).
    fn store_to(self, words: &mut [u32]);
    /// Transposes the `LANES x LANES` matrix of 32-bit words whose rows are `rows` (which
    /// must hold `LANES` registers; left alone otherwise).
    fn transpose(rows: &mut [Self]);
    /// `self + rhs` mod `2^32`.
    fn add32(self, rhs: Self) -> Self;
    /// `self - rhs` mod `2^32`.
    fn sub32(self, rhs: Self) -> Self;
    /// Unsigned minimum.
    fn min(self, rhs: Self) -> Self;
    /// `self & rhs`.
    fn and(self, rhs: Self) -> Self;
    /// `self >> count` (logical, each lane by its own count).
    fn shr(self, count: Self) -> Self;
    /// The low 32 bits of `self * rhs`.
    fn mul_low(self, rhs: Self) -> Self;
    /// 64-bit lanes: `self - rhs` mod `2^64`.
    fn sub64(self, rhs: Self) -> Self;
    /// Each odd 32-bit element copied over the even one below it (64-bit lanes: the high half
    /// moved down, and kept). A shuffle (`vpshufd`), not a shift: on Intel cores shuffles run
    /// on port 5, beside the multiplications and shifts of port 0.
    fn high_down(self) -> Self;
    /// 64-bit lanes: the exact product of the low 32 bits of each, as `i32`s.
    fn mul_signed(self, rhs: Self) -> Self;
    /// 64-bit lanes: the exact product of the low 32 bits of each, as `u32`s.
    fn mul_unsigned(self, rhs: Self) -> Self;
    /// Whether the register type has mask registers (AVX-512F): [`Lanes::low_product_or`]
    /// returns `Some` exactly when it has.
    const MASKS: bool;
    /// `self + half` in the lanes where `x` is odd and `self` elsewhere: a test into a mask
    /// register and a masked addition (AVX-512F), `vpsignd` of `half` by `x & 1` and an
    /// addition (AVX2).
    fn add_where_odd(self, x: Self, half: Self) -> Self;
    /// On registers with mask registers (AVX-512F): `(self & mask) · c` (low 32 bits) in the
    /// lanes where `self & mask` is not zero and `or` in the others, as a test into a mask
    /// register and a masked multiplication. `None` on AVX2, which has no masks (a comparison
    /// and a blend would cost more than the correction they save).
    fn low_product_or(self, mask: Self, c: Self, or: Self) -> Option<Self>;
    /// `self` (`p` in every lane) where the `i32` lane of `d` is positive, `-p` where it is
    /// negative, `p` or `0` where it is zero (either serves [`add_signed`]).
    fn signed_p(self, d: Self) -> Self;
    /// The even 32-bit elements of `self` and the odd ones of `odd`.
    fn blend_odd(self, odd: Self) -> Self;
    /// The high halves of `self`'s 64-bit lanes as the even elements and those of `odd` as the
    /// odd ones ([`Lanes::high_down`] of `self` blended with `odd`; one masked shuffle on
    /// AVX-512F).
    fn join_high(self, odd: Self) -> Self;
    /// `self`, unchanged, through an empty `asm!` the compiler cannot see into: the quotient
    /// `q` of a Montgomery reduction passes through it, so that LLVM keeps `vpmuludq` for `q`
    /// instead of merging the two products into `vpmullq` (three micro-operations and 15
    /// cycles on Intel cores; it does so whenever AVX-512DQ is enabled, e.g. with
    /// `-C target-cpu=native`); and on AVX2 the sums of the linear layers
    /// ([`add_in_layer`]), so that LLVM does not reassociate them.
    fn opaque(self) -> Self;

    /// The token a value's existence proves.
    #[inline(always)]
    fn cpu(self) -> Cpu<Self> {
        Cpu(PhantomData)
    }
}

/// Declares each ISA's register type `$name($reg)` with `$lanes` lanes: its [`Lanes`] impl from
/// the ISA's intrinsics for the operations every ISA has, and its kernel entry point compiled
/// with `$feature`, interleaving `$groups` vector groups. The ISA's module supplies the rest as
/// inherent methods `signed_p_isa`, `blend_odd_isa`, `join_high_isa`, `opaque_isa` and
/// `transpose_isa`.
macro_rules! lanes_types {
    ($(
        $(#[$doc:meta])* $name:ident($reg:ty), $lanes:literal lanes, $registers:literal registers,
        masks $masks:literal, $groups:literal groups,
        backend $backend:ident, feature $feature:tt,
        splat $splat:ident, load $load:ident, store $store:ident, add $add:ident, sub $sub:ident,
        min $min:ident, and $and:ident, shift_right $shr:ident, mul_low $mul_low:ident,
        sub64 $sub64:ident, shuffle $shuffle:ident,
        mul_signed $mul_signed:ident, mul_unsigned $mul_unsigned:ident;
    )*) => {$(
        $(#[$doc])*
        /// Made only by [`Lanes::splat`] and [`Lanes::load`], which take a [`Cpu`] token, or
        /// from another value of the type: a value proves the CPU has the ISA's features.
        #[derive(Clone, Copy)]
        pub(super) struct $name($reg);

        impl $name {
            /// The kernel for the width `T` (`0`: read at run time; `N` as for
            /// [`permute_width`]) compiled for this ISA.
            #[target_feature(enable = $feature)]
            fn entry<F: Field, const D: u64, const T: usize, const N: usize>(
                cpu: Cpu<Self>,
                states: &mut [F],
                t: usize,
                rc: RoundConstants<'_, Word>,
            ) {
                permute_width::<Self, F, D, $groups, T, N>(cpu, states, t, rc);
            }
        }

        impl Lanes for $name {
            const LANES: usize = $lanes;
            const REGISTERS: usize = $registers;
            const MASKS: bool = $masks;
            const BACKEND: BatchBackend = BatchBackend::$backend;
            type Words = [u32; $lanes];

            fn detect() -> Option<Cpu<Self>> {
                std::is_x86_feature_detected!($feature).then_some(Cpu(PhantomData))
            }
            fn permute_all<F: Field, const D: u64, const W: usize>(
                cpu: Cpu<Self>,
                states: &mut [F],
                t: usize,
                rc: RoundConstants<'_, Word>,
            ) {
                // SAFETY: `cpu` was issued by `detect`: the CPU has all `entry` enables.
                unsafe {
                    if const { W > 0 } {
                        return Self::entry::<F, D, W, W>(cpu, states, t, rc);
                    }
                    match t {
                        16 => Self::entry::<F, D, 16, 16>(cpu, states, t, rc),
                        24 => Self::entry::<F, D, 24, 24>(cpu, states, t, rc),
                        _ => Self::entry::<F, D, 0, MAX_WIDTH>(cpu, states, t, rc),
                    }
                }
            }
            #[inline(always)]
            fn splat(_: Cpu<Self>, x: u32) -> Self {
                // SAFETY: the `Cpu` token proves the ISA.
                $name(unsafe { $splat(x as i32) })
            }
            #[inline(always)]
            fn load(_: Cpu<Self>, words: &[u32; $lanes]) -> Self {
                // SAFETY: the `Cpu` token proves the ISA; `words` is the register's size.
                $name(unsafe { $load(words.as_ptr().cast()) })
            }
            #[inline(always)]
            fn store(self, words: &mut [u32; $lanes]) {
                // SAFETY: `self` proves the ISA; `words` is the register's size.
                unsafe { $store(words.as_mut_ptr().cast(), self.0) }
            }
            #[inline(always)]
            fn load_from(cpu: Cpu<Self>, words: &[u32]) -> Self {
                match words.first_chunk::<$lanes>() {
                    Some(words) => Self::load(cpu, words),
                    None => Self::splat(cpu, 0),
                }
            }
            #[inline(always)]
            fn store_to(self, words: &mut [u32]) {
                if let Some(words) = words.first_chunk_mut::<$lanes>() {
                    self.store(words);
                }
            }
            #[inline(always)]
            fn transpose(rows: &mut [Self]) {
                Self::transpose_isa(rows);
            }
            #[inline(always)]
            fn add32(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $add(self.0, rhs.0) })
            }
            #[inline(always)]
            fn sub32(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $sub(self.0, rhs.0) })
            }
            #[inline(always)]
            fn min(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $min(self.0, rhs.0) })
            }
            #[inline(always)]
            fn and(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $and(self.0, rhs.0) })
            }
            #[inline(always)]
            fn shr(self, count: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $shr(self.0, count.0) })
            }
            #[inline(always)]
            fn mul_low(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $mul_low(self.0, rhs.0) })
            }
            #[inline(always)]
            fn sub64(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $sub64(self.0, rhs.0) })
            }
            #[inline(always)]
            fn high_down(self) -> Self {
                // SAFETY: `self` proves the ISA.
                // The selector (3, 3, 1, 1) in each 128-bit block.
                $name(unsafe { $shuffle::<0xf5>(self.0) })
            }
            #[inline(always)]
            fn mul_signed(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $mul_signed(self.0, rhs.0) })
            }
            #[inline(always)]
            fn mul_unsigned(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $mul_unsigned(self.0, rhs.0) })
            }
            #[inline(always)]
            fn add_where_odd(self, x: Self, half: Self) -> Self {
                self.add_where_odd_isa(x, half)
            }
            #[inline(always)]
            fn low_product_or(self, mask: Self, c: Self, or: Self) -> Option<Self> {
                self.low_product_or_isa(mask, c, or)
            }
            #[inline(always)]
            fn signed_p(self, d: Self) -> Self {
                self.signed_p_isa(d)
            }
            #[inline(always)]
            fn blend_odd(self, odd: Self) -> Self {
                self.blend_odd_isa(odd)
            }
            #[inline(always)]
            fn join_high(self, odd: Self) -> Self {
                self.join_high_isa(odd)
            }
            #[inline(always)]
            fn opaque(self) -> Self {
                // SAFETY: `self` proves the ISA, which `opaque_isa` enables.
                unsafe { self.opaque_isa() }
            }
        }
    )*};
}

lanes_types! {
    /// Sixteen `u32` lanes (AVX-512F; its own operations in [`avx512`]).
    Avx512(__m512i), 16 lanes, 32 registers, masks true, 2 groups, backend Avx512, feature "avx512f",
    splat _mm512_set1_epi32, load _mm512_loadu_si512, store _mm512_storeu_si512,
    add _mm512_add_epi32, sub _mm512_sub_epi32, min _mm512_min_epu32, and _mm512_and_si512,
    shift_right _mm512_srlv_epi32, mul_low _mm512_mullo_epi32, sub64 _mm512_sub_epi64,
    shuffle _mm512_shuffle_epi32,
    mul_signed _mm512_mul_epi32, mul_unsigned _mm512_mul_epu32;

    /// Eight `u32` lanes (AVX2; its own operations in [`avx2`]).
    Avx2(__m256i), 8 lanes, 16 registers, masks false, 2 groups, backend Avx2, feature "avx2",
    splat _mm256_set1_epi32, load _mm256_loadu_si256, store _mm256_storeu_si256,
    add _mm256_add_epi32, sub _mm256_sub_epi32, min _mm256_min_epu32, and _mm256_and_si256,
    shift_right _mm256_srlv_epi32, mul_low _mm256_mullo_epi32, sub64 _mm256_sub_epi64,
    shuffle _mm256_shuffle_epi32,
    mul_signed _mm256_mul_epi32, mul_unsigned _mm256_mul_epu32;
}

/// `x` in every lane, on the CPU that made `like`.
#[inline(always)]
fn splat<V: Lanes>(like: V, x: u32) -> V {
    V::splat(like.cpu(), x)
}

/// The modulus of `F` and `p^-1 mod 2^32`, as compile-time constants of each kernel copy
/// (the kernel is compiled only for fields whose [`MONTY31_MODULUS`] is `Some`; the cache's
/// [`Modulus::of`] checked the claim before any batch reaches it).
///
/// [`MONTY31_MODULUS`]: crate::field::Representation::MONTY31_MODULUS
struct Consts<F>(PhantomData<F>);

impl<F: Field> Consts<F> {
    const P: u32 = match F::MONTY31_MODULUS {
        Some(p) => p,
        None => 1,
    };
    const P_INV: u32 = inverse(Self::P);
}

/// `p` in every lane.
#[inline(always)]
fn modulus<V: Lanes, F: Field>(like: V) -> V {
    splat(like, Consts::<F>::P)
}

/// `a + b (mod p)`, canonical, for canonical `a, b` (proof in the module docs).
#[inline(always)]
fn add<V: Lanes, F: Field>(a: V, b: V) -> V {
    let s = a.add32(b);
    s.min(s.sub32(modulus::<V, F>(a)))
}

/// [`add`] as the linear layers take it ([`LinearOps::linear_add`]: the external layer, the
/// internal layers' sums). With AVX2's 16 registers the sum `s` passes through
/// [`Lanes::opaque`] first: otherwise LLVM forms `s - p` as `(a - p) + b`, one more addition
/// per sum and a value more live, and in the external layer (72 of these sums at t = 16) the
/// extra values spilled: 82 stack accesses per round against Plonky3's 34 (its layer, the
/// same sums, in the same binary). Measured on AMD Zen 4 (docs/benchmarks.md, 2026-12-07,
/// batches of 64 states, AVX2): KoalaBear16 103.5 -> 101.9 ns per state, KoalaBear24
/// 158.1 -> 153.7, BabyBear24 205.9 -> 201.0, BabyBear16 level; with AVX-512F's 32
/// registers the barrier made the default build's t = 16 batches 3-4% slower, so it is left
/// out there.
#[inline(always)]
fn add_in_layer<V: Lanes, F: Field>(a: V, b: V) -> V {
    if V::REGISTERS >= 32 {
        return add::<V, F>(a, b);
    }
    let s = a.add32(b).opaque();
    s.min(s.sub32(modulus::<V, F>(a)))
}

/// `a - b (mod p)`, canonical, for canonical `a, b`: the wrapped difference `d`, and
/// `min(d, d + p)` as `u32` (`a >= b`: `d < p` and `d + p < 2p` does not wrap; `a < b`: `d`
/// wraps to `>= 2^32 - p > p`, and `d + p = a - b + p` in `(0, p)` is the smaller).
#[inline(always)]
fn sub<V: Lanes, F: Field>(a: V, b: V) -> V {
    let d = a.sub32(b);
    d.min(d.add32(modulus::<V, F>(a)))
}

/// The canonical representative of a signed `d` in `(-p, p)`.
#[inline(always)]
fn canonical<V: Lanes, F: Field>(d: V) -> V {
    d.min(d.add32(modulus::<V, F>(d)))
}

/// `d + s (mod p)`, canonical, for a signed `d` in `[-p, p]` and a canonical `s`.
#[inline(always)]
fn add_signed<V: Lanes, F: Field>(d: V, s: V) -> V {
    let correction = modulus::<V, F>(d).signed_p(d);
    let r = d.add32(s);
    r.min(r.sub32(correction))
}

/// The 64-bit lanes `P - q p` with `q = q_factor mod 2^32` as an `i32`: the Montgomery product
/// `d` in their high halves (proof in the module docs).
#[inline(always)]
fn reduce_half<V: Lanes, F: Field>(product: V, q_factor: V) -> V {
    product.sub64(q_factor.mul_signed(modulus::<V, F>(product)))
}

/// The Montgomery product of the low 32-bit halves of the 64-bit lanes `a, b` (signed, at most
/// `p` in size), signed in `(-p, p)`, in the high halves.
#[inline(always)]
fn mul_half<V: Lanes, F: Field>(a: V, b: V) -> V {
    let product = a.mul_signed(b);
    reduce_half::<V, F>(
        product,
        product.mul_unsigned(splat(a, Consts::<F>::P_INV)).opaque(),
    )
}

/// A round constant's kernel words (`kernel_form::monty31::word`) in every lane.
#[derive(Clone, Copy)]
struct Constant<V> {
    /// The stored word `w`.
    value: V,
    /// `w p^-1 mod 2^32`.
    quotient: V,
}

impl<V: Lanes> Constant<V> {
    #[inline(always)]
    fn broadcast(like: V, word: &Word) -> Self {
        Constant {
            value: splat(like, word[0] as u32),
            quotient: splat(like, word[1] as u32),
        }
    }
}

/// `x c (mod p)`, signed in `(-p, p)`, for a canonical or signed `x` and a [`Constant`] `c`:
/// the quotient `x (c p^-1)` does not wait for the product.
#[inline(always)]
fn mul_constant<V: Lanes, F: Field>(x: V, c: Constant<V>) -> V {
    let even = reduce_half::<V, F>(x.mul_signed(c.value), x.mul_unsigned(c.quotient).opaque());
    let x_odd = x.high_down();
    let odd = reduce_half::<V, F>(
        x_odd.mul_signed(c.value),
        x_odd.mul_unsigned(c.quotient).opaque(),
    );
    even.high_down().blend_odd(odd)
}

/// `m x + s (mod p)`, canonical, for canonical `x`, `s` and an entry `m` of the internal
/// diagonal in kernel form: [`add_product`] of [`diagonal_product`] (the two halves apart let
/// the partial rounds form every product before the sum arrives,
/// [`CompiledLayer::PRODUCTS_FIRST_FROM`]).
#[inline(always)]
fn add_diagonal_product<V: Lanes, F: Field>(x: V, m: &Word, s: V) -> V {
    add_product::<V, F>(diagonal_product::<V, F>(x, m), m, s)
}

/// The product of canonical `x` by an entry `m` of the internal diagonal in kernel form, in
/// the form its kind and the ISA give it, by the code its kind names
/// (`kernel_form::monty31::diagonal_word`; bounds in the module docs); [`add_product`] adds it
/// to the sum. The kind is a public constant of the instance: the branch depends on no state
/// value.
/// - `±1 .. ±4`: the canonical `|m| x`, by additions.
/// - `±2^-n`, `x = h 2^n + l` (words: `n`, `c = (p - 1) >> n`, the mask `2^n - 1`): `n = 1`:
///   `x / 2 = h + l (p + 1) / 2`, canonical ([`Lanes::add_where_odd`]; on AVX2 in place of
///   the general form below: level to 2% faster batches, 2026-12-06). `n > 1`, with mask registers
///   ([`Lanes::MASKS`], AVX-512F): `u = -2^-n x`, `l c - h` where `l != 0` and `p - h` where
///   `l = 0` ([`Lanes::low_product_or`]), in `(0, p]` without a correction. Without (AVX2):
///   `h - l c` in `(-p, p)` made canonical ([`canonical`]; [`add_signed`] of the signed value
///   in its place made KoalaBear16 13% slower there, 2026-12-06, and measured level with two
///   AVX2 groups, 2026-12-06).
/// - any other entry: the signed Montgomery product ([`mul_constant`]).
#[inline(always)]
fn diagonal_product<V: Lanes, F: Field>(x: V, m: &Word) -> V {
    match m[3] & 0xff {
        SMALL => match m[4] {
            1 => x,
            2 => add::<V, F>(x, x),
            3 => add::<V, F>(add::<V, F>(x, x), x),
            _ => {
                let x2 = add::<V, F>(x, x);
                add::<V, F>(x2, x2)
            }
        },
        HALVE => {
            let n = splat(x, m[1] as u32);
            let (mask, c) = (splat(x, m[4] as u32), splat(x, m[2] as u32));
            if m[1] == 1 {
                return x
                    .shr(n)
                    .add_where_odd(x, splat(x, Consts::<F>::P.div_ceil(2)));
            } else if let Some(u) = x.low_product_or(mask, c, modulus::<V, F>(x)) {
                return u.sub32(x.shr(n));
            }
            canonical::<V, F>(x.shr(n).sub32(x.and(mask).mul_low(c)))
        }
        _ => mul_constant::<V, F>(x, Constant::broadcast(x, m)),
    }
}

/// `m x + s (mod p)`, canonical, from the product `v` [`diagonal_product`] formed and the
/// canonical sum `s`: one modular addition or subtraction for a canonical `v` (by the sign of
/// the entry, flipped for AVX-512F's `-2^-n x`), [`add_signed`] for a signed one.
#[inline(always)]
fn add_product<V: Lanes, F: Field>(v: V, m: &Word, s: V) -> V {
    let negative = m[3] & NEGATE != 0;
    let subtract = match m[3] & 0xff {
        SMALL => negative,
        HALVE => negative != (V::MASKS && m[1] != 1),
        _ => return add_signed::<V, F>(v, s),
    };
    if subtract {
        sub::<V, F>(s, v)
    } else {
        add::<V, F>(s, v)
    }
}

/// Element `i` of `G` vector groups, one register per group, canonical.
///
/// Its operations loop over the groups explicitly, and nothing on the kernel's path takes a
/// closure: a closure is compiled as a function of its own without the kernel's target
/// features, and every register operation in it would become a call.
struct Packed<V, F, const G: usize>([V; G], PhantomData<F>);

impl<V: Copy, F, const G: usize> Clone for Packed<V, F, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: Copy, F, const G: usize> Copy for Packed<V, F, G> {}

/// The even and the odd elements of `G` registers, apart, as signed values in the low halves
/// of the 64-bit lanes (the S-box chain's form: no shuffle and no correction per product).
struct Halves<V, F, const G: usize>([(V, V); G], PhantomData<F>);

impl<V: Copy, F, const G: usize> Clone for Halves<V, F, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: Copy, F, const G: usize> Copy for Halves<V, F, G> {}

impl<V: Lanes, F: Field, const G: usize> SboxOps for Halves<V, F, G> {
    #[inline(always)]
    fn sbox_square(mut self) -> Self {
        for (even, odd) in &mut self.0 {
            *even = mul_half::<V, F>(*even, *even).high_down();
            *odd = mul_half::<V, F>(*odd, *odd).high_down();
        }
        self
    }
    #[inline(always)]
    fn sbox_mul(mut self, rhs: Self) -> Self {
        for ((even, odd), (even_r, odd_r)) in self.0.iter_mut().zip(rhs.0) {
            *even = mul_half::<V, F>(*even, even_r).high_down();
            *odd = mul_half::<V, F>(*odd, odd_r).high_down();
        }
        self
    }
    /// The chain's last product, left in the high halves of the 64-bit lanes (where the odd
    /// elements belong): [`Packed::add_sbox`] joins the halves with one [`Lanes::join_high`].
    #[inline(always)]
    fn sbox_mul_last(mut self, rhs: Self) -> Self {
        for ((even, odd), (even_r, odd_r)) in self.0.iter_mut().zip(rhs.0) {
            *even = mul_half::<V, F>(*even, even_r);
            *odd = mul_half::<V, F>(*odd, odd_r);
        }
        self
    }
}

impl<V: Lanes, F: Field, const G: usize> RoundOps for Packed<V, F, G> {
    type Constant = Word;

    /// Several groups of a width of at least 16 fixed when compiling (`W`) in a build without
    /// AVX-512F enabled when compiling run in the arrangement [`FullRounds::of`] picks:
    /// the S-boxes of every group, then the external layer one group at a time
    /// ([`full_rounds_layer_by_group`]), or all rounds of one group after the other
    /// ([`full_rounds_by_group`]); otherwise (and with AVX-512F enabled for the whole
    /// program, where the interleaved rounds measured fastest) interleaved.
    #[inline(always)]
    fn full_rounds<const D: u64, const W: usize>(
        state: &mut [Self],
        constants: &[Word],
        m4: ExternalMatrix,
    ) {
        let arrangement = const { FullRounds::of::<V>(G, W, D) };
        if arrangement != FullRounds::Interleaved
            && let Ok(state) = <&mut [Self; W]>::try_from(&mut *state)
        {
            return match arrangement {
                FullRounds::LayerByGroup => {
                    full_rounds_layer_by_group::<V, F, G, D, W>(state, constants, m4)
                }
                _ => full_rounds_by_group::<V, F, G, D, W>(state, constants, m4),
            };
        }
        full_rounds::<Self, D>(state, constants, m4);
    }

    /// `(x + c)^D`: the signed input `x + (c - p)` in `[-p, p)`, the chain on its halves, one
    /// join and one correction (bounds in the module docs).
    #[inline(always)]
    fn add_sbox<const D: u64>(mut self, c: Word) -> Self {
        let shift = splat(self.0[0], c[2] as u32);
        let mut halves = Halves([(shift, shift); G], PhantomData);
        for (h, x) in halves.0.iter_mut().zip(&self.0) {
            let y = x.add32(shift);
            *h = (y, y.high_down());
        }
        let y = sbox_chain::<Halves<V, F, G>, D>(halves);
        for (x, (even, odd)) in self.0.iter_mut().zip(y.0) {
            *x = canonical::<V, F>(even.join_high(odd));
        }
        self
    }
}

/// How the kernel runs the full rounds of `G` vector groups ([`RoundOps::full_rounds`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum FullRounds {
    /// Every operation on all groups, register by register (the generic round driver on
    /// [`Packed`]).
    Interleaved,
    /// In each round the S-boxes of all groups, then the external layer of one group after
    /// the other ([`full_rounds_layer_by_group`]).
    LayerByGroup,
    /// All rounds of one group, then the next ([`full_rounds_by_group`]).
    ByGroup,
}

impl FullRounds {
    /// The arrangement for `groups` groups of width `width` with S-box degree `d` on the
    /// register type `V`, as measured on AMD Zen 4 (docs/benchmarks.md, 2026-12-07, batches
    /// of 64 states; BabyBear's degree is 7, KoalaBear's 3):
    /// - one group, a width below 16 (the registers hold the interleaved state), or AVX-512F
    ///   enabled for the whole program (`-C target-cpu=native`, where both other
    ///   arrangements were 1-8% slower): [`FullRounds::Interleaved`];
    /// - AVX-512F registers otherwise (the default build, the CPU detected at run time):
    ///   [`FullRounds::LayerByGroup`], 2-5% faster batches than [`FullRounds::ByGroup`] at
    ///   t = 16 on both fields and at t = 24 on BabyBear; [`FullRounds::ByGroup`] for a degree
    ///   below 5 from width 24 (KoalaBear24: the layer by group was 3.5% faster, which left
    ///   the native build 1.8% slower than the default one; a native build must not be);
    /// - AVX2 registers (16): from width 24 [`FullRounds::Interleaved`] (the layer by group
    ///   4-6% slower); at width 16 [`FullRounds::LayerByGroup`] for a degree of at least 5
    ///   (BabyBear16: 6% faster, the two groups' S-box chains hide each other's latency) and
    ///   [`FullRounds::ByGroup`] below (KoalaBear16: the layer by group 1-2% slower).
    const fn of<V: Lanes>(groups: usize, width: usize, d: u64) -> Self {
        if groups < 2 || width < 16 || cfg!(target_feature = "avx512f") {
            return Self::Interleaved;
        }
        // (AVX-512F registers, width of 24 or more, degree of 5 or more)
        match (V::REGISTERS >= 32, width >= 24, d >= 5) {
            (true, false, _) | (true, true, true) | (false, false, true) => Self::LayerByGroup,
            (true, true, false) | (false, false, false) => Self::ByGroup,
            (false, true, _) => Self::Interleaved,
        }
    }
}

/// The full rounds of `G` groups of width `T` ([`FullRounds::LayerByGroup`]): each round's
/// S-boxes on every group, register by register (`T · G` independent chains), then the
/// external layer of one group after the other ([`group`] and [`set_group`] copy its `T`
/// registers out and back; the layer of one group of 16 already fills AVX2's 16 registers).
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
fn full_rounds_layer_by_group<V: Lanes, F: Field, const G: usize, const D: u64, const T: usize>(
    state: &mut [Packed<V, F, G>; T],
    constants: &[Word],
    m4: ExternalMatrix,
) {
    for round in constants.chunks_exact(T) {
        for (x, &c) in state.iter_mut().zip(round) {
            *x = x.add_sbox::<D>(c);
        }
        for g in 0..G {
            let mut one = group(state, g);
            <Packed<V, F, 1> as LinearLayers<Word>>::external_layer(&mut one, m4);
            set_group(state, g, &one);
        }
    }
}

/// The full rounds of `G` groups of width `T` run one group after the other
/// ([`FullRounds::ByGroup`]; the first round's S-boxes read each group's `T` registers
/// ([`group_after_sboxes`]), [`set_group`] writes them back): a full round of one group already
/// has `T` independent S-boxes, and two interleaved groups of 16 fill AVX-512F's 32 registers
/// with the state alone, so the compiler spilled. Measured (docs/benchmarks.md, 2026-12-06): 2%
/// (BabyBear t = 16) and 5% (KoalaBear t = 16) faster batches in the default build than
/// interleaved, 1-5% slower when AVX-512F is enabled for the whole program.
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
fn full_rounds_by_group<V: Lanes, F: Field, const G: usize, const D: u64, const T: usize>(
    state: &mut [Packed<V, F, G>; T],
    constants: &[Word],
    m4: ExternalMatrix,
) {
    let Some((first, rest)) = constants.split_at_checked(T) else {
        return;
    };
    for g in 0..G {
        let mut one = group_after_sboxes::<V, F, G, D, T>(state, g, first);
        <Packed<V, F, 1> as LinearLayers<Word>>::external_layer(&mut one, m4);
        full_rounds::<Packed<V, F, 1>, D>(&mut one, rest, m4);
        set_group(state, g, &one);
    }
}

/// The partial rounds with a diagonal compiled into the code
/// ([`LinearLayers::compiled_partial_rounds`]) of `G` groups of width `T`, one group after the
/// other: a group's state then stays in registers (two interleaved groups of 16 filled
/// AVX-512F's 32 and spilled in every round), and the S-box on `x_0` overlaps the rest of the
/// layer within the group ([`CompiledLayer::FUSES_ROUND_FROM`]). Measured (docs/benchmarks.md,
/// 2026-12-06): BabyBear16 and KoalaBear16 batches 1-2% faster with AVX-512F. `false`, `state`
/// untouched, if the diagonal is not a compiled one (the same answer for every group: it
/// depends on the constants only).
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
fn compiled_partial_rounds_by_group<V: Lanes, F: Field, const G: usize, const D: u64, const T: usize>(
    state: &mut [Packed<V, F, G>; T],
    internal: &[Word],
    diag_m1: &[Word],
    scale: Option<&Word>,
) -> bool {
    for g in 0..G {
        let mut one = group(state, g);
        if !crate::instances::compiled_kernel_partial_rounds::<F, Packed<V, F, 1>, D, T>(
            &mut one, internal, diag_m1, scale,
        ) {
            return false;
        }
        set_group(state, g, &one);
    }
    true
}

/// Group `g` of `state` (`g < G`), as its own state (a loop, not `array::from_fn`: nothing on
/// the kernel's path takes a closure, see [`Packed`]).
#[inline(always)]
fn group<V: Lanes, F: Field, const G: usize, const T: usize>(
    state: &[Packed<V, F, G>; T],
    g: usize,
) -> [Packed<V, F, 1>; T] {
    let mut one = [Packed([state[0].0[g]], PhantomData); T];
    for (y, x) in one.iter_mut().zip(state) {
        y.0[0] = x.0[g];
    }
    one
}

/// Group `g` of `state` (`g < G`) after one round's S-boxes with the constants `round`
/// (`T` of them), each element read from `state` into its S-box: [`group`] followed by the
/// S-boxes kept a copy of the group on the stack (AVX2, where a group of 16 fills the
/// registers: KoalaBear16 and SP1's batches 1% slower, docs/benchmarks.md, 2026-12-07).
#[inline(always)]
fn group_after_sboxes<V: Lanes, F: Field, const G: usize, const D: u64, const T: usize>(
    state: &[Packed<V, F, G>; T],
    g: usize,
    round: &[Word],
) -> [Packed<V, F, 1>; T] {
    let mut one = [Packed([state[0].0[g]], PhantomData); T];
    for ((y, x), &c) in one.iter_mut().zip(state).zip(round) {
        *y = Packed::<V, F, 1>([x.0[g]], PhantomData).add_sbox::<D>(c);
    }
    one
}

/// Writes `one` back as group `g` of `state` (`g < G`).
#[inline(always)]
fn set_group<V: Lanes, F: Field, const G: usize, const T: usize>(
    state: &mut [Packed<V, F, G>; T],
    g: usize,
    one: &[Packed<V, F, 1>; T],
) {
    for (x, y) in state.iter_mut().zip(one) {
        x.0[g] = y.0[0];
    }
}

impl<V: Lanes, F: Field, const G: usize> LinearOps for Packed<V, F, G> {
    #[inline(always)]
    fn linear_add(mut self, rhs: Self) -> Self {
        for (x, y) in self.0.iter_mut().zip(rhs.0) {
            *x = add_in_layer::<V, F>(*x, y);
        }
        self
    }
}

/// Products by a diagonal entry, fused with the sum's addition ([`add_diagonal_product`]): the
/// internal layers below with the table read at run time, and the generic layer with a
/// diagonal compiled into the code (the registry's kernel words as constants, each entry's
/// kind then a constant of the code).
impl<V: Lanes, F: Field, const G: usize> DiagonalOps<Word> for Packed<V, F, G> {
    #[inline(always)]
    fn mul_diagonal(self, m: &Word) -> Self {
        self.mul_diagonal_add(m, Packed([splat(self.0[0], 0); G], PhantomData))
    }

    #[inline(always)]
    fn mul_diagonal_add(mut self, m: &Word, s: Self) -> Self {
        for (x, &s) in self.0.iter_mut().zip(&s.0) {
            *x = add_diagonal_product::<V, F>(*x, m, s);
        }
        self
    }
}

/// The sum of the compiled internal layer as its outputs take it: the whole sum `s`, and
/// `x_1 + ... + x_{t-1}` (`None` for the scaled layer, whose `s` is a product).
#[derive(Clone, Copy)]
struct LayerSum<P> {
    all: P,
    tail: Option<P>,
}

/// The generic layer with a diagonal compiled into the code: the products above, the sum in
/// four chains of additions ([`tail_sum_tree`]). Output 0 for the entry `-2` (Plonky3's
/// BabyBear and KoalaBear diagonals) is `-2 x_0 + (x_0 + tail) = tail - x_0`: one
/// subtraction after the S-box, which the next round's S-box waits for, in place of the sum's
/// last addition and the entry's two steps (AVX-512F: KoalaBear16 2% faster; AVX2, with the
/// sums behind [`add_in_layer`]'s barrier, 2026-12-07: KoalaBear16 101.8 -> 100.9 ns per
/// state, KoalaBear24 153.5 -> 152.6, BabyBear level; before the barrier the tail beside the
/// sum spilled and was no faster).
impl<V: Lanes, F: Field, const G: usize> CompiledLayer<Word> for Packed<V, F, G> {
    type Sum = LayerSum<Self>;

    #[inline(always)]
    fn compiled_sum(state: &[Self]) -> LayerSum<Self> {
        let tail = tail_sum_tree(state);
        let all = match tail {
            Some(tail) => state[0].linear_add(tail),
            None => state[0],
        };
        LayerSum { all, tail }
    }

    /// The sum in four chains ([`sum_tree`]), as the unscaled layer's: the partial rounds wait
    /// for it, and with the barrier of [`add_in_layer`] LLVM no longer shortens the serial
    /// [`sum`](crate::poseidon2::linear::sum) on AVX2 (SP1's KoalaBear16, 2026-12-07, 64
    /// states: AVX2 129.6 -> 124.9 ns per state; the AVX-512F kernel 119.0 -> 111.5 in the
    /// default build, 118.3 -> 110.3 native).
    #[inline(always)]
    fn compiled_scaled_sum(state: &[Self], scale: &Word) -> LayerSum<Self> {
        LayerSum {
            all: sum_tree(state).mul_diagonal(scale),
            tail: None,
        }
    }

    /// From degree 5 (BabyBear's 7), whose S-box chain is long enough that the next round's
    /// S-box should start before this round's outputs, and their products before the S-box
    /// ends (measured 2026-12-06, batches of BabyBear16: AVX2 12% faster, AVX-512F level;
    /// KoalaBear16's degree 3: AVX2 1-2% slower, AVX-512F level).
    const PRODUCTS_FIRST_FROM: u64 = 5;
    /// As [`CompiledLayer::PRODUCTS_FIRST_FROM`].
    const FUSES_ROUND_FROM: u64 = 5;
    /// [`CompiledLayer::compiled_first_output`], then the S-box.
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_output_then_round<const D: u64>(
        self,
        m: &Word,
        s: LayerSum<Self>,
        c: Word,
    ) -> Self {
        self.compiled_first_output(m, s).add_sbox::<D>(c)
    }
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_product(mut self, m: &Word) -> Self {
        for x in self.0.iter_mut() {
            *x = diagonal_product::<V, F>(*x, m);
        }
        self
    }
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_add_product(mut self, m: &Word, s: LayerSum<Self>) -> Self {
        for (x, &s) in self.0.iter_mut().zip(&s.all.0) {
            *x = add_product::<V, F>(*x, m, s);
        }
        self
    }

    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_output(self, m: &Word, s: LayerSum<Self>) -> Self {
        self.mul_diagonal_add(m, s.all)
    }

    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn compiled_first_output(mut self, m: &Word, s: LayerSum<Self>) -> Self {
        match s.tail {
            Some(tail) if m[3] == SMALL | NEGATE && m[4] == 2 => {
                for (x, t) in self.0.iter_mut().zip(tail.0) {
                    *x = sub::<V, F>(t, *x);
                }
                self
            }
            _ => self.compiled_output(m, s),
        }
    }
}

/// `y_i = m_i x_i + s` for every element after the first `skip`, with `s` canonical in every
/// group (one [`add_signed`] per output).
#[inline(always)]
fn add_diagonal_products<V: Lanes, F: Field, const G: usize>(
    state: &mut [Packed<V, F, G>],
    diagonal: &[Word],
    s: Packed<V, F, G>,
) {
    // The diagonal cut to the state's length first: with a fixed width the loop then has a
    // compile-time trip count, is unrolled, and the state stays in registers across rounds.
    match diagonal.get(..state.len()) {
        Some(diagonal) => add_diagonal_products_zip(state, diagonal, s),
        None => add_diagonal_products_zip(state, diagonal, s),
    }
}

/// The loop of [`add_diagonal_products`].
#[inline(always)]
fn add_diagonal_products_zip<V: Lanes, F: Field, const G: usize>(
    state: &mut [Packed<V, F, G>],
    diagonal: &[Word],
    s: Packed<V, F, G>,
) {
    for (x, m) in state.iter_mut().zip(diagonal) {
        for (x, &s) in x.0.iter_mut().zip(&s.0) {
            *x = add_diagonal_product::<V, F>(*x, m, s);
        }
    }
}

/// The external layer is the generic one (additions only, [`add_in_layer`]); the t >= 4
/// internal layer and the scaled one add the canonical sum to each signed product with one
/// correction ([`add_signed`]).
impl<V: Lanes, F: Field, const G: usize> LinearLayers<Word> for Packed<V, F, G> {
    /// Same shapes and length behaviour as [`crate::poseidon2::linear::internal_layer`].
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn internal_layer(state: &mut [Self], diag_m1: &[Word]) {
        match state.len() {
            0 | 1 => {}
            2 | 3 => internal_layer_fixed(state),
            _ => {
                let s = sum_tree(state);
                add_diagonal_products(state, diag_m1, s);
            }
        }
    }

    /// Same shapes and length behaviour as
    /// [`crate::poseidon2::linear::internal_layer_scaled`].
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn internal_layer_scaled(state: &mut [Self], diag: &[Word], scale: &Word) {
        if state.len() < 2 {
            return;
        }
        let s = sum_tree(state).mul_diagonal(scale);
        add_diagonal_products(state, diag, s);
    }

    /// The registry's diagonals of the width `W` compiled into the code (`crate::instances`):
    /// Plonky3's and SP1's, whose entries then cost no branch and no load per round; several
    /// groups one after the other on AVX-512F ([`compiled_partial_rounds_by_group`]) and
    /// interleaved on AVX2 (measured 2026-12-06 on AMD Zen 4, with two AVX2 groups in place
    /// of one: t = 24 batches 5-8% faster, t = 16 level; on AVX-512F interleaving measured
    /// level). The table (`false`)
    /// at a width read at run time (`W = 0`): the kernel compiles a copy for each width the
    /// registry has (16, 24; [`Lanes::permute_all`]), so its run-time width is never one of
    /// them, and the registry is not compiled into that copy.
    #[inline(always)]
    fn compiled_partial_rounds<const D: u64, const W: usize>(
        state: &mut [Self],
        internal: &[Word],
        diag_m1: &[Word],
        scale: Option<&Word>,
        _: Sealed,
    ) -> bool {
        if const { W == 0 } {
            return false;
        }
        let Ok(state) = <&mut [Self; W]>::try_from(state) else {
            return false;
        };
        if const { G > 1 && V::REGISTERS >= 32 } {
            compiled_partial_rounds_by_group::<V, F, G, D, W>(state, internal, diag_m1, scale)
        } else {
            crate::instances::compiled_kernel_partial_rounds::<F, Self, D, W>(
                state, internal, diag_m1, scale,
            )
        }
    }
}

/// [`BatchBackend::Avx512`] if `F` is a 31-bit Montgomery field and the CPU has AVX-512F (and
/// `avx512` is true: the dispatcher's `FAST_POSEIDON2_NO_AVX512` switch), else
/// [`BatchBackend::Avx2`] if it has AVX2.
pub(super) fn best<F: Field>(avx512: bool) -> Option<BatchBackend> {
    Modulus::of::<F>()?;
    if avx512 && Avx512::detect().is_some() {
        return Some(BatchBackend::Avx512);
    }
    Avx2::detect().map(|_| BatchBackend::Avx2)
}

/// Whether `backend` is one of this module's and runs `F` on this CPU.
pub(super) fn runs<F: Field>(backend: BatchBackend) -> bool {
    Modulus::of::<F>().is_some()
        && ((backend == Avx512::BACKEND && Avx512::detect().is_some())
            || (backend == Avx2::BACKEND && Avx2::detect().is_some()))
}

/// Runs every whole vector group of `states` (flat, width `t`) on `backend` when it is one of
/// this module's and runs here (for AVX-512F, then one AVX2 group of the states left if they
/// fill one), with the round constants `rc` in kernel form
/// (`field::kernel_form::monty31::word`), and returns the states left for the portable path.
pub(super) fn permute_batch<'a, F: Field, const D: u64, const W: usize>(
    states: &'a mut [F],
    t: usize,
    rc: RoundConstants<'_, Word>,
    backend: BatchBackend,
) -> &'a mut [F] {
    if backend == Avx512::BACKEND {
        // The states left after the 16-lane groups: one more group of 8 on AVX2 (which every
        // AVX-512F CPU has) if they fill one, before the portable path.
        let rest = permute_on::<Avx512, F, D, W>(states, t, rc);
        permute_on::<Avx2, F, D, W>(rest, t, rc)
    } else if backend == Avx2::BACKEND {
        permute_on::<Avx2, F, D, W>(states, t, rc)
    } else {
        states
    }
}

/// [`permute_batch`] on the register type `V`.
fn permute_on<'a, V: Lanes, F: Field, const D: u64, const W: usize>(
    states: &'a mut [F],
    t: usize,
    rc: RoundConstants<'_, Word>,
) -> &'a mut [F] {
    let group = V::LANES * t;
    let cpu = match V::detect() {
        Some(cpu) if t > 0 && states.len() >= group => cpu,
        _ => return states,
    };
    let (vector, rest) = states.split_at_mut(states.len() / group * group);
    V::permute_all::<F, D, W>(cpu, vector, t, rc);
    rest
}

/// The kernel for the width `T` (`T = 0`: the width `t` read at run time): `G` groups at a
/// time, then the remaining groups one by one. `N` is the length of the state array: `T` for a
/// fixed width (an array of exactly `T` registers, which the compiler keeps in registers
/// rather than on the stack), [`MAX_WIDTH`] for the run-time width.
#[inline(always)]
fn permute_width<
    V: Lanes,
    F: Field,
    const D: u64,
    const G: usize,
    const T: usize,
    const N: usize,
>(
    cpu: Cpu<V>,
    states: &mut [F],
    t: usize,
    rc: RoundConstants<'_, Word>,
) {
    let t = if T == 0 { t } else { T };
    let group = V::LANES * t;
    let mut chunks = states.chunks_exact_mut(G * group);
    for chunk in &mut chunks {
        permute_chunk::<V, F, D, G, T, N>(cpu, chunk, t, rc);
    }
    for chunk in chunks.into_remainder().chunks_exact_mut(group) {
        permute_chunk::<V, F, D, 1, T, N>(cpu, chunk, t, rc);
    }
}

/// The most lanes of a register type (AVX-512F), for the transpose buffer's size.
const MAX_LANES: usize = 16;

/// Loads `G` groups of states (`chunk`, flat, width `t`), permutes them as one [`Packed`]
/// state, stores them back (canonical words).
///
/// A group's states are copied word by word into a buffer of `LANES` rows (one per state,
/// each padded with zeros to a multiple of `LANES` words: a plain copy for the compiler to
/// vectorize), and each `LANES x LANES` block of it is loaded as `LANES` registers and
/// transposed in registers ([`Lanes::transpose`]): register `i` then holds element `i` of
/// every state. The store is the same in reverse (the transpose is its own inverse).
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
fn permute_chunk<
    V: Lanes,
    F: Field,
    const D: u64,
    const G: usize,
    const T: usize,
    const N: usize,
>(
    cpu: Cpu<V>,
    chunk: &mut [F],
    t: usize,
    rc: RoundConstants<'_, Word>,
) {
    let zero = V::splat(cpu, 0);
    let mut x = [Packed::<V, F, G>([zero; G], PhantomData); N];
    let x = &mut x[..t];
    let group = V::LANES * t;
    let stride = t.div_ceil(V::LANES) * V::LANES;
    let mut buffer = [0u32; MAX_LANES * MAX_WIDTH.next_multiple_of(MAX_LANES)];
    let mut block = [zero; MAX_LANES];
    let block = &mut block[..V::LANES];
    for (g, states) in chunk.chunks_exact(group).enumerate() {
        for (row, state) in buffer.chunks_exact_mut(stride).zip(states.chunks_exact(t)) {
            for (w, y) in row.iter_mut().zip(state) {
                *w = y.to_monty31_word(Sealed(())).unwrap_or(0);
            }
        }
        for (b, elements) in x.chunks_mut(V::LANES).enumerate() {
            for (l, register) in block.iter_mut().enumerate() {
                let start = (l * stride + b * V::LANES).min(buffer.len());
                *register = V::load_from(cpu, &buffer[start..]);
            }
            V::transpose(block);
            for (xi, &register) in elements.iter_mut().zip(block.iter()) {
                xi.0[g] = register;
            }
        }
    }
    permute::<Packed<V, F, G>, D, T>(x, rc);
    for (g, states) in chunk.chunks_exact_mut(group).enumerate() {
        for (b, elements) in x.chunks(V::LANES).enumerate() {
            for (register, xi) in block.iter_mut().zip(elements) {
                *register = xi.0[g];
            }
            V::transpose(block);
            for (l, register) in block.iter().enumerate() {
                let start = (l * stride + b * V::LANES).min(buffer.len());
                register.store_to(&mut buffer[start..]);
            }
        }
        for (row, state) in buffer.chunks_exact(stride).zip(states.chunks_exact_mut(t)) {
            for (&w, y) in row.iter().zip(state) {
                if let Some(z) = F::from_monty31_word(w, Sealed(())) {
                    *y = z;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The arithmetic steps against `i64` arithmetic on the extreme values (the bounds in the
    //! module docs are tight at these), for BabyBear and KoalaBear, on each register type the
    //! CPU has; and every diagonal kind against the plain product.

    use super::*;
    use crate::babybear::BabyBear;
    use crate::field::kernel_form::monty31::diagonal_word;
    use crate::koalabear::KoalaBear;
    use std::eprintln;
    use std::vec::Vec;

    /// The lanes of `v`, which must all be equal (every test splats one value, so the even
    /// and the odd lanes take their own paths to the same result).
    fn lanes<V: Lanes>(v: V) -> u32 {
        let mut words = V::Words::default();
        v.store(&mut words);
        let words = words.as_ref();
        assert!(words.iter().all(|&w| w == words[0]), "lanes differ: {words:?}");
        words[0]
    }

    /// A product's high halves in every 32-bit lane.
    fn join<V: Lanes>(d: V) -> V {
        d.high_down().blend_odd(d)
    }

    /// Signed values at and around the edges: `0`, `±1`, `±(p - 1)`, `-p` and canonical ones.
    fn edges(p: u32) -> [i64; 9] {
        let p = i64::from(p);
        [0, 1, -1, 2, p - 1, -(p - 1), -p, p / 2, -(p / 2)]
    }

    /// `2^-32 mod p`, as `2^(p - 1 - 32)` by square-and-multiply.
    fn r_inv(p: u32) -> i64 {
        let mut acc = 1u64;
        let mut base = 2u64;
        let mut e = u64::from(p) - 33;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * base % u64::from(p);
            }
            base = base * base % u64::from(p);
            e >>= 1;
        }
        acc as i64
    }

    fn check<V: Lanes, F: Field>() {
        let Some(cpu) = V::detect() else {
            eprintln!("no {:?}: 31-bit Montgomery arithmetic not tested there", V::BACKEND);
            return;
        };
        let p = Consts::<F>::P;
        let (pi, r_inv) = (i64::from(p), r_inv(p));
        let splat = |x: i64| V::splat(cpu, x as i32 as u32);
        let lane0 = |v: V| lanes(v);
        let signed = |v: V| lanes(v) as i32 as i64;
        let canonical_edges: Vec<i64> = edges(p).into_iter().filter(|&x| (0..pi).contains(&x)).collect();
        for a in edges(p) {
            let got = signed(join(mul_half::<V, F>(splat(a), splat(a))));
            assert!(got.abs() < pi, "square of {a}");
            assert_eq!((got - a * a % pi * r_inv).rem_euclid(pi), 0, "square of {a}");
            if a > -pi {
                let got = lane0(canonical::<V, F>(splat(a)));
                assert_eq!(i64::from(got), a.rem_euclid(pi), "canonical {a}");
            }
            for b in edges(p) {
                let got = signed(join(mul_half::<V, F>(splat(a), splat(b))));
                assert!(got.abs() < pi, "{a} * {b}");
                assert_eq!((got - (a * b) % pi * r_inv).rem_euclid(pi), 0, "{a} * {b}");
            }
            for &c in &canonical_edges {
                let word = [c as u64, (c as u32).wrapping_mul(Consts::<F>::P_INV) as u64, 0, 0, 0];
                let k = Constant::broadcast(splat(0), &word);
                let got = signed(mul_constant::<V, F>(splat(a), k));
                assert!(got.abs() < pi, "{a} * constant {c}");
                assert_eq!((got - (a * c) % pi * r_inv).rem_euclid(pi), 0, "{a} * {c}");
                let got = i64::from(lane0(add_signed::<V, F>(splat(a), splat(c))));
                assert_eq!(got, (a + c).rem_euclid(pi), "{a} + canonical {c}");
                if (0..pi).contains(&a) {
                    let got = i64::from(lane0(add::<V, F>(splat(a), splat(c))));
                    assert_eq!(got, (a + c) % pi, "{a} + {c}");
                    let got = i64::from(lane0(add_in_layer::<V, F>(splat(a), splat(c))));
                    assert_eq!(got, (a + c) % pi, "{a} + {c} in a layer");
                }
            }
            // `add_signed` takes `d = p` too (a negated `-p`).
            let got = i64::from(lane0(add_signed::<V, F>(splat(pi), splat(a.rem_euclid(pi)))));
            assert_eq!(got, a.rem_euclid(pi), "p + {a}");
        }
        // Every diagonal kind, on the edges and on the halving boundaries, against the plain
        // product of the stored words (`m x` of elements is `m · word(x)` of words).
        let modulus = Modulus::of::<F>().expect("a 31-bit Montgomery field");
        let mut entries: Vec<i64> = (1..=4).flat_map(|k| [k, pi - k]).collect();
        let mut inverse = 1i64;
        for _ in 1..=27 {
            inverse = inverse * (pi / 2 + 1) % pi;
            entries.extend([inverse, pi - inverse]);
        }
        entries.extend([0, 5, 7, pi / 3, pi - 5]);
        let mut xs: Vec<i64> = canonical_edges.clone();
        for n in [1, 3, 8, 24, 27, 30] {
            xs.extend([(1i64 << n) - 1, 1 << n, (1 << n) + 1].map(|x| x % pi));
        }
        for &m in &entries {
            let element = F::from_u64(m as u64);
            let w = diagonal_word(&modulus, element);
            for &x in &xs {
                for s in [0, 1, pi - 1] {
                    let got = i64::from(lane0(add_diagonal_product::<V, F>(
                        splat(x),
                        &w,
                        splat(s),
                    )));
                    assert_eq!(
                        got,
                        (x * m + s) % pi,
                        "diagonal {m} (kind {:#x}) * word {x} + {s}",
                        w[3]
                    );
                }
            }
        }
    }

    #[test]
    fn babybear_steps_are_exact_on_the_edges() {
        check::<Avx2, BabyBear>();
        check::<Avx512, BabyBear>();
    }

    #[test]
    fn koalabear_steps_are_exact_on_the_edges() {
        check::<Avx2, KoalaBear>();
        check::<Avx512, KoalaBear>();
    }

    /// The kernels find the registry's compiled diagonals (`crate::instances`) for Plonky3's
    /// and SP1's permutations, and not for Horizen Labs' diagonal, a changed one or SP1's
    /// without its sum scale.
    #[test]
    fn registered_diagonals_run_compiled_in_the_kernels() {
        use crate::ct::Poseidon2Ct;
        use crate::instances::{babybear as hl, plonky3, sp1};
        fn compiled<V: Lanes, F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>(
            perm: &Poseidon2Ct<F, T, RF, RP, D>,
        ) -> Option<bool> {
            let cpu = V::detect()?;
            let m = Modulus::of::<F>().expect("a 31-bit Montgomery field");
            let diag: Vec<Word> =
                perm.internal_diagonal_minus_one().iter().map(|&c| diagonal_word(&m, c)).collect();
            let scale = perm.internal_sum_scale().map(|c| diagonal_word(&m, c));
            let mut state = [Packed::<V, F, 1>([V::splat(cpu, 0)], PhantomData); T];
            // No round constants: no round runs; the answer is whether the registry holds it.
            Some(crate::instances::compiled_kernel_partial_rounds::<F, Packed<V, F, 1>, D, T>(
                &mut state,
                &[],
                &diag,
                scale.as_ref(),
            ))
        }
        fn check<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>(
            perm: &Poseidon2Ct<F, T, RF, RP, D>,
            expected: bool,
        ) {
            for got in [compiled::<Avx512, F, T, RF, RP, D>(perm), compiled::<Avx2, F, T, RF, RP, D>(perm)]
                .into_iter()
                .flatten()
            {
                assert_eq!(got, expected);
            }
        }
        check(&plonky3::ct::BABYBEAR_T16, true);
        check(&plonky3::ct::BABYBEAR_T24, true);
        check(&plonky3::ct::KOALABEAR_T16, true);
        check(&plonky3::ct::KOALABEAR_T24, true);
        check(&sp1::ct::KOALABEAR_T16, true);
        check(&hl::ct::T16, false);
        let mut diag = *plonky3::ct::BABYBEAR_T16.internal_diagonal_minus_one();
        diag[15] = diag[15].add(BabyBear::ONE_ELEMENT);
        check(&plonky3::ct::BABYBEAR_T16.with_internal_diagonal_minus_one(diag), false);
        let sp1_diag = *sp1::ct::KOALABEAR_T16.internal_diagonal_minus_one();
        check(&plonky3::ct::KOALABEAR_T16.with_internal_diagonal_minus_one(sp1_diag), false);
    }

    /// Plonky3's diagonal entries take the cheap kinds, the Horizen Labs ones the generic one.
    #[test]
    fn diagonal_kinds_are_the_cheap_ones_where_the_entries_allow() {
        let kinds = |diag: &[BabyBear]| -> Vec<u64> {
            let m = Modulus::of::<BabyBear>().unwrap();
            diag.iter().map(|&d| diagonal_word(&m, d)[3] & 0xff).collect()
        };
        let p3 = crate::instances::plonky3::ct::babybear_t16();
        assert!(kinds(p3.internal_diagonal_minus_one()).iter().all(|&k| k != 0));
        let hl = crate::instances::babybear::ct::t16();
        assert!(kinds(hl.internal_diagonal_minus_one()).contains(&0));
    }
}
