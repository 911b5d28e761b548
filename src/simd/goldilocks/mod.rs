//! Goldilocks batch kernel (`p = 2^64 - 2^32 + 1`), written once over the small register trait
//! [`Lanes`] and instantiated for AVX-512F ([`avx512`], 8 lanes) and AVX2 ([`avx2`], 4 lanes).
//! Taken for every field whose hook [`GOLDILOCKS_FACTOR`] answers: `GoldilocksFast` (plain
//! `u64`, lazily reduced) and ark's `Goldilocks` (Montgomery form).
//!
//! # Representation
//! A register holds element `i` of `V::LANES` states (lane `l` = state `l` of a vector group).
//! `G` groups run interleaved as one [`Packed`] value (the last groups of a batch run alone), so
//! each operation issues independent instruction chains for the out-of-order core to overlap:
//! 4 with AVX-512F (32 registers), 2 with AVX2 (16 registers; 4 spill). Goldilocks t = 12,
//! µs per permutation for G = 1 / 2 / 4: AVX-512F 0.65 / 0.56 / 0.51, AVX2 0.93 / 0.77 / 0.88
//! (`cargo bench --bench batch`, Zen 4, 2026-11-30, before the operation counts below were
//! cut; G = 4 stayed the fastest AVX-512F choice after, 0.41 against 0.45 for G = 2 and 0.46
//! for G = 8).
//! As in `GoldilocksFast`, any `u64` `v` stands for `v mod p`: every operation below accepts
//! any `u64` and returns some `u64` (lazy); only [`canonical`] reduces, at the store.
//!
//! # Constant time
//! No branch and no memory address depends on a lane's value: carries and conditional
//! corrections are compare masks and masked (or blended) additions. The AVX2 kernel runs under
//! valgrind's memcheck with secret states (`tests/constant_time.rs`, in CI); the AVX-512 one,
//! which valgrind cannot run, is checked by review and by the fixed-versus-random timing test
//! (`scripts/constant-time.sh`).
//!
//! # Arithmetic and bounds (`EPSILON = 2^32 - 1 = 2^64 mod p`; `2^96 = -1 mod p`)
//! The kernel is bound by the number of vector operations (measured: every operation removed
//! below made it faster, latency-hiding reorderings that added one did not), so each step is
//! written for the fewest, and products by `EPSILON` stay one multiplication
//! ([`Lanes::mul_epsilon`]).
//! - [`add`]: `a + b = s + c 2^64` with `c` in {0, 1}, and `2^64 = EPSILON`. A carry (`s < a`)
//!   adds `EPSILON` to `s <= 2^64 - 2`; if that wraps (`s' < s`), `s' <= EPSILON - 2`, and the
//!   lost `2^64` is one more `EPSILON`: `s' + EPSILON < 2^64`, no third wrap.
//! - [`add_canonical`] (`c < p`): a carry leaves `s = a + c - 2^64 <= p - 2`, and
//!   `s + EPSILON <= 2^64 - 2` cannot wrap: one check.
//! - [`sub`]: a borrow takes `2^64 = EPSILON` off; if that borrows again, once more, which
//!   cannot borrow (the wrapped value is `>= 2^64 - EPSILON`). [`halve`]: `x >> 1`, plus
//!   `(p + 1) / 2` for an odd `x` (`(x + p) / 2 <= 2^64 - 2^31`).
//! - Cheap internal-diagonal entries ([`add_cheap_products`], a lone vector group only):
//!   `±k` (`k <= 4`) as additions, `±2^-n` (`n <= 5`) as `n` halvings, then [`add`] or
//!   [`sub`] with the sum; the kind of each entry is found once, when the permutation's batch
//!   cache is filled (`kernel_form::goldilocks::diagonal_word`; Plonky3's Goldilocks diagonals
//!   are all such entries but `2^-32` at t = 20). A lone group is bound by its partial rounds'
//!   dependency chains, which these shorten; interleaved groups are bound by the operation
//!   count, where the full product below (fused with the sum) is fewer operations than the
//!   lazy additions, so they keep it (numbers at the branch in the internal layer).
//! - [`mul_add_wide`]: the exact `a b + s` (`s = s1 2^32 + s0`, 32-bit halves) from the four 32 x
//!   32-bit products `ll, lh, hl, hh` (each `<= (2^32 - 1)^2 = 2^64 - 2^33 + 1`):
//!   `ll' = ll + s0 <= 2^64 - 2^32`, `t0 = hl + (ll' >> 32) <= 2^64 - 2^32` and
//!   `t1 = lh + s1 + (t0 mod 2^32) <= 2^64 - 1` cannot overflow; then
//!   `a b + s = (hh + (t0 >> 32) + (t1 >> 32)) 2^64 + (t1 mod 2^32) 2^32 + (ll' mod 2^32)`,
//!   whose high word is `< 2^64` because `a b + s <= (2^64 - 1)^2 + 2^64 - 1 < 2^128`.
//!   [`mul_wide`] is the case `s = 0`.
//! - [`square_wide`]: `a^2 = ll + cross 2^33 + hh 2^64` with `cross = a0 a1`.
//!   `t0 = cross + (ll >> 33) <= 2^64 - 2^33 + 2^31` cannot overflow, `a^2 = (hh + (t0 >> 31))
//!   2^64 + (ll + (cross << 33) mod 2^64)`, and `hh + (t0 >> 31) <= 2^64 - 2`.
//! - [`reduce`]: `hi 2^64 + lo` with `hi = h1 2^32 + h0` is `lo - h1 + h0 EPSILON (mod p)`.
//!   `lo - h1` borrowing wraps to `>= 2^64 - 2^32 + 1 > EPSILON`, so taking the borrowed `2^64 =
//!   EPSILON` off cannot borrow again. `h0 EPSILON <= 2^64 - 2^33 + 1`, so a wrapped sum is
//!   `<= 2^64 - 2^33` and adding `EPSILON` for the carry cannot wrap again.
//! - [`reduce_plus_epsilon`]: `w = h0 EPSILON + (EPSILON - h1)` is never negative (`h1 <=
//!   EPSILON`) and `<= 2^32 EPSILON = 2^64 - 2^32`; `lo + w = hi 2^64 + lo + EPSILON (mod p)`,
//!   and a wrapped `lo + w` is `<= 2^64 - 2^32 - 1`, so adding `EPSILON` for the carry cannot
//!   wrap again: one check instead of two.
//! - Internal layer ([`Packed::internal_layer`], `t >= 4`): the sum `s` is accumulated as a
//!   64-bit word plus a carry count `c < MAX_WIDTH`, then `lo + c EPSILON` (`c EPSILON < 2^37`: a
//!   wrapped sum is `< 2^37`, one `EPSILON` correction). `s' = s - EPSILON (mod p)` (as in
//!   [`reduce`]'s first step) is split into 32-bit halves once per round, and each output is
//!   `reduce_plus_epsilon(x_i m_i + s') = x_i m_i + s`, with `m_i >> 32` precomputed
//!   ([`Constant`]).
//! - External layer ([`Packed::external_layer`]): `x = h 2^32 + l` with 32-bit halves, and
//!   `M_E x = M_E l + 2^32 M_E h` exactly. Every entry of `M_E` is a non-negative integer and
//!   every row sums to at most `(t / 4 + 1) 16 <= 144` (`M4` row sums: 16 for the paper's block,
//!   7 for Plonky3's; `t <= MAX_WIDTH = 32`; 3 and 4 for
//!   t = 2, 3), so every intermediate and output value of the plain-integer layer on `l` or on
//!   `h` is `<= 144 (2^32 - 1) < 2^40`: no overflow. Output `L + H 2^32 = L + (H >> 32)
//!   EPSILON + (H << 32 mod 2^64) (mod p)`: `u = L + (H >> 32) EPSILON < 2^41`, and a wrapped
//!   `u + (H << 32)` is `< 2^41`, so one `EPSILON` correction cannot wrap again.
//! - [`canonical`]: a `u64` is `< 2p`, so one conditional subtraction of `p` gives `[0, p)`.
//!
//! # Round structure
//! The crate's one round driver ([`permute`]) runs on [`Packed`] through [`RoundOps`]; the
//! external layer and the fixed t = 2, 3 internal matrices are [`crate::poseidon2::linear`]'s, run on
//! [`LinearOps`]: the external layer with the exact additions of [`Halves`], the fixed internal
//! matrices with the lazy [`add`]. Round constants are converted once per permutation value
//! (its batch cache, see `crate::simd`) to canonical plain values and their high halves
//! (`field::kernel_form::goldilocks::word`), and broadcast from memory where they are used (a
//! [`Constant`], shared by the groups). A field stored as `x r` (`r` = its
//! [`GOLDILOCKS_FACTOR`]; its [`Form`]) is multiplied by `r^-1` on load and by `r` on store.
//!
//! [`GOLDILOCKS_FACTOR`]: crate::field::Representation::GOLDILOCKS_FACTOR

use core::arch::x86_64::*;
use super::Cpu;
use core::marker::PhantomData;

use crate::field::goldilocks::MODULUS;
use crate::field::kernel_form::goldilocks::Form;
use crate::field::kernel_form::{HALVE, NEGATE, SMALL};
use crate::field::{Field, Sealed, SboxOps, sbox_chain};
use crate::params::{ExternalMatrix, MAX_WIDTH};
use crate::poseidon2::batch_cache::{BatchBackend, Word};
use crate::poseidon2::linear::{
    DiagonalOps, LinearLayers, LinearOps, external_layer, internal_layer_fixed,
};
use crate::poseidon2::permutation::{RoundConstants, RoundOps, permute};

mod avx2;
mod avx512;



/// `2^64 mod p = 2^32 - 1`.
const EPSILON: u64 = 0xffff_ffff;

/// One SIMD register of `LANES` unsigned 64-bit lanes: the primitives the kernel is written in,
/// implemented by each ISA module. All operations are lane-wise and wrap modulo `2^64`.
pub(super) trait Lanes: Copy {
    /// Lanes per register: states per vector group.
    const LANES: usize;
    /// `LANES` words in lane order.
    type Words: Copy + Default + AsRef<[u64]> + AsMut<[u64]>;

    /// A token if the CPU runs this register type (cached detection).
    fn detect() -> Option<Cpu<Self>>;
    /// Permutes `states` (a whole number of groups of `LANES` states of width `job.t`) in
    /// place: [`permute_width`] compiled with the ISA's target features, for `W` if the
    /// caller fixed the width when compiling (`job.t == W`), else (`W = 0`) for `job.t` if it
    /// is a shipped Goldilocks width (8, 12, 16, 20), else for the width read at run time.
    fn permute_all<F: Field, const D: u64, const W: usize>(
        cpu: Cpu<Self>,
        states: &mut [F],
        job: Job<'_>,
    );

    /// `x` in every lane.
    fn splat(cpu: Cpu<Self>, x: u64) -> Self;
    /// The register holding `words`.
    fn load(cpu: Cpu<Self>, words: &Self::Words) -> Self;
    /// Writes the lanes to `words`.
    fn store(self, words: &mut Self::Words);
    /// `self + rhs`.
    fn add(self, rhs: Self) -> Self;
    /// `self - rhs`.
    fn sub(self, rhs: Self) -> Self;
    /// `self & rhs`.
    fn and(self, rhs: Self) -> Self;
    /// `self >> N`.
    fn shr<const N: u32>(self) -> Self;
    /// `(self mod 2^32) EPSILON`, as one multiplication (see the ISA's implementation).
    fn mul_epsilon(self) -> Self;
    /// `self << N`.
    fn shl<const N: u32>(self) -> Self;
    /// `(self mod 2^32) * (rhs mod 2^32)`, the full 64-bit product.
    fn mul32(self, rhs: Self) -> Self;
    /// The low 32 bits of `self` below the low 32 bits of `high` (`self mod 2^32 + high 2^32
    /// mod 2^64`).
    fn join_low(self, high: Self) -> Self;
    /// `self + c` in the lanes where `a < b` (unsigned), `self` elsewhere.
    fn add_if_below(self, a: Self, b: Self, c: Self) -> Self;
    /// `self - c` in the lanes where `a < b` (unsigned), `self` elsewhere.
    fn sub_if_below(self, a: Self, b: Self, c: Self) -> Self;

    /// The token a value's existence proves.
    #[inline(always)]
    fn cpu(self) -> Cpu<Self> {
        Cpu(PhantomData)
    }
}

/// Declares each ISA's register type `$name($reg)` with `$lanes` lanes: its [`Lanes`] impl from
/// the ISA's intrinsics for the operations every ISA has, and its kernel entry point compiled
/// with `$feature`, interleaving `$groups` vector groups. The ISA's module supplies the rest as inherent methods `blend_high_isa`,
/// `add_if_below_isa` and `sub_if_below_isa`.
macro_rules! lanes_types {
    ($(
        $(#[$doc:meta])* $name:ident($reg:ty), $lanes:literal lanes, $groups:literal groups,
        feature $feature:tt,
        splat $splat:ident, load $load:ident, store $store:ident, add $add:ident, sub $sub:ident,
        and $and:ident, shift_right $shr:ident, shift_left $shl:ident, mul32 $mul:ident;
    )*) => {$(
        $(#[$doc])*
        /// Made only by [`Lanes::splat`] and [`Lanes::load`], which take a [`Cpu`] token, or
        /// from another value of the type: a value proves the CPU has the ISA's features.
        #[derive(Clone, Copy)]
        pub(super) struct $name($reg);

        impl $name {
            /// The kernel for the width `T` (`0`: read at run time) compiled for this ISA.
            #[target_feature(enable = $feature)]
            fn entry<F: Field, const D: u64, const T: usize>(
                cpu: Cpu<Self>,
                states: &mut [F],
                job: Job<'_>,
            ) {
                permute_width::<Self, F, D, $groups, T>(cpu, states, job);
            }
        }

        impl Lanes for $name {
            const LANES: usize = $lanes;
            type Words = [u64; $lanes];

            fn detect() -> Option<Cpu<Self>> {
                std::is_x86_feature_detected!($feature).then_some(Cpu(PhantomData))
            }
            fn permute_all<F: Field, const D: u64, const W: usize>(
                cpu: Cpu<Self>,
                states: &mut [F],
                job: Job<'_>,
            ) {
                // SAFETY: `cpu` was issued by `detect`: the CPU has all `entry` enables.
                unsafe {
                    if const { W > 0 } {
                        return Self::entry::<F, D, W>(cpu, states, job);
                    }
                    match job.t {
                        8 => Self::entry::<F, D, 8>(cpu, states, job),
                        12 => Self::entry::<F, D, 12>(cpu, states, job),
                        16 => Self::entry::<F, D, 16>(cpu, states, job),
                        20 => Self::entry::<F, D, 20>(cpu, states, job),
                        _ => Self::entry::<F, D, 0>(cpu, states, job),
                    }
                }
            }
            #[inline(always)]
            fn splat(_: Cpu<Self>, x: u64) -> Self {
                // SAFETY: the `Cpu` token proves the ISA.
                $name(unsafe { $splat(x as i64) })
            }
            #[inline(always)]
            fn load(_: Cpu<Self>, words: &[u64; $lanes]) -> Self {
                // SAFETY: the `Cpu` token proves the ISA; `words` is the register's size.
                $name(unsafe { $load(words.as_ptr().cast()) })
            }
            #[inline(always)]
            fn store(self, words: &mut [u64; $lanes]) {
                // SAFETY: `self` proves the ISA; `words` is the register's size.
                unsafe { $store(words.as_mut_ptr().cast(), self.0) }
            }
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $add(self.0, rhs.0) })
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $sub(self.0, rhs.0) })
            }
            #[inline(always)]
            fn and(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $and(self.0, rhs.0) })
            }
            #[inline(always)]
            fn shr<const N: u32>(self) -> Self {
                // SAFETY: `self` proves the ISA. The count is a constant (an immediate shift).
                $name(unsafe { $shr(self.0, _mm_set_epi64x(0, i64::from(N))) })
            }
            #[inline(always)]
            fn shl<const N: u32>(self) -> Self {
                // SAFETY: `self` proves the ISA. The count is a constant (an immediate shift).
                $name(unsafe { $shl(self.0, _mm_set_epi64x(0, i64::from(N))) })
            }
            #[inline(always)]
            fn mul32(self, rhs: Self) -> Self {
                // SAFETY: `self` proves the ISA.
                $name(unsafe { $mul(self.0, rhs.0) })
            }
            #[inline(always)]
            fn mul_epsilon(self) -> Self {
                self.mul_epsilon_isa()
            }
            #[inline(always)]
            fn join_low(self, high: Self) -> Self {
                self.join_low_isa(high)
            }
            #[inline(always)]
            fn add_if_below(self, a: Self, b: Self, c: Self) -> Self {
                self.add_if_below_isa(a, b, c)
            }
            #[inline(always)]
            fn sub_if_below(self, a: Self, b: Self, c: Self) -> Self {
                self.sub_if_below_isa(a, b, c)
            }
        }
    )*};
}

lanes_types! {
    /// Eight `u64` lanes (AVX-512F; its own operations in [`avx512`]).
    Avx512(__m512i), 8 lanes, 4 groups, feature "avx512f",
    splat _mm512_set1_epi64, load _mm512_loadu_epi64, store _mm512_storeu_epi64,
    add _mm512_add_epi64, sub _mm512_sub_epi64, and _mm512_and_si512,
    shift_right _mm512_srl_epi64, shift_left _mm512_sll_epi64, mul32 _mm512_mul_epu32;

    /// Four `u64` lanes (AVX2; its own operations in [`avx2`]).
    Avx2(__m256i), 4 lanes, 2 groups, feature "avx2",
    splat _mm256_set1_epi64x, load _mm256_loadu_si256, store _mm256_storeu_si256,
    add _mm256_add_epi64, sub _mm256_sub_epi64, and _mm256_and_si256,
    shift_right _mm256_srl_epi64, shift_left _mm256_sll_epi64, mul32 _mm256_mul_epu32;
}

/// `x` in every lane, on the CPU that made `like`.
#[inline(always)]
fn splat<V: Lanes>(like: V, x: u64) -> V {
    V::splat(like.cpu(), x)
}

/// `a + b (mod p)`, lazy (bounds in the module docs).
#[inline(always)]
fn add<V: Lanes>(a: V, b: V) -> V {
    let eps = splat(a, EPSILON);
    let s = a.add(b);
    let s1 = s.add_if_below(s, a, eps);
    s1.add_if_below(s1, s, eps)
}

/// The exact `a b + s` as `(hi, lo)` 64-bit words, for `b_hi = b >> 32` and `s = s1 2^32 +
/// s0` given as its 32-bit halves (proof in the module docs).
#[inline(always)]
fn mul_add_wide<V: Lanes>(a: V, b: V, b_hi: V, (s1, s0): (V, V)) -> (V, V) {
    let a_hi = a.shr::<32>();
    combine(a.mul32(b), a.mul32(b_hi), a_hi.mul32(b), a_hi.mul32(b_hi), s1, s0)
}

/// The exact product `a b` as `(hi, lo)`.
#[inline(always)]
fn mul_wide<V: Lanes>(a: V, b: V) -> (V, V) {
    let zero = splat(a, 0);
    mul_add_wide(a, b, b.shr::<32>(), (zero, zero))
}

/// `a^2` as `(hi, lo)`, with the doubled cross product as a shift by 33 (proof in the module
/// docs).
#[inline(always)]
fn square_wide<V: Lanes>(a: V) -> (V, V) {
    let a_hi = a.shr::<32>();
    let (ll, cross) = (a.mul32(a), a.mul32(a_hi));
    let t0 = cross.add(ll.shr::<33>());
    let hi = a_hi.mul32(a_hi).add(t0.shr::<31>());
    (hi, ll.add(cross.shl::<33>()))
}

/// `ll + (lh + hl) 2^32 + hh 2^64 + s1 2^32 + s0` as `(hi, lo)`, for 32 x 32-bit products
/// `ll, lh, hl, hh` and 32-bit `s1, s0`.
#[inline(always)]
fn combine<V: Lanes>(ll: V, lh: V, hl: V, hh: V, s1: V, s0: V) -> (V, V) {
    let low32 = splat(ll, EPSILON);
    let ll = ll.add(s0);
    let t0 = hl.add(ll.shr::<32>());
    let t1 = lh.add(s1).add(t0.and(low32));
    let hi = hh.add(t0.shr::<32>()).add(t1.shr::<32>());
    (hi, ll.join_low(t1))
}

/// `hi 2^64 + lo (mod p)`, lazy (proof in the module docs).
#[inline(always)]
fn reduce<V: Lanes>(hi: V, lo: V) -> V {
    let eps = splat(hi, EPSILON);
    let hi_hi = hi.shr::<32>();
    let t0 = lo.sub(hi_hi).sub_if_below(lo, hi_hi, eps);
    let t1 = hi.mul_epsilon();
    let r = t0.add(t1);
    r.add_if_below(r, t1, eps)
}

/// `hi 2^64 + lo + EPSILON (mod p)`, lazy, with one carry check where [`reduce`] has two
/// (proof in the module docs).
#[inline(always)]
fn reduce_plus_epsilon<V: Lanes>(hi: V, lo: V) -> V {
    let eps = splat(hi, EPSILON);
    let w = hi.mul_epsilon().add(eps.sub(hi.shr::<32>()));
    let r = lo.add(w);
    r.add_if_below(r, w, eps)
}

/// `a b (mod p)`, lazy.
#[inline(always)]
fn mul<V: Lanes>(a: V, b: V) -> V {
    let (hi, lo) = mul_wide(a, b);
    reduce(hi, lo)
}

/// `a^2 (mod p)`, lazy.
#[inline(always)]
fn square<V: Lanes>(a: V) -> V {
    let (hi, lo) = square_wide(a);
    reduce(hi, lo)
}

/// `a + c (mod p)` for a canonical constant `c < p`, lazy (bounds in the module docs).
#[inline(always)]
fn add_canonical<V: Lanes>(a: V, c: V) -> V {
    let s = a.add(c);
    s.add_if_below(s, c, splat(a, EPSILON))
}

/// `a - b (mod p)`, lazy: a borrow (`a < b`) takes `2^64 = EPSILON` off, and if that
/// borrows again (then `a - b + 2^64 < EPSILON`) once more, which cannot borrow a third time
/// (the wrapped value is `>= 2^64 - EPSILON`).
#[inline(always)]
fn sub<V: Lanes>(a: V, b: V) -> V {
    let eps = splat(a, EPSILON);
    let d = a.sub(b);
    let d1 = d.sub_if_below(a, b, eps);
    d1.sub_if_below(d, d1, eps)
}

/// `x / 2 (mod p)`, lazy, for any `u64` `x`: `x >> 1`, plus `(p + 1) / 2` where `x` is odd
/// (`(x + p) / 2`; the sum is `<= 2^63 - 1 + 2^63 - 2^31 + 1 < 2^64`).
#[inline(always)]
fn halve<V: Lanes>(x: V) -> V {
    let zero = splat(x, 0);
    let odd = x.and(splat(x, 1));
    x.shr::<1>().add_if_below(zero, odd, splat(x, MODULUS.div_ceil(2)))
}

/// `m x + s` per group, lazy, for an internal-diagonal entry `m` (kernel form,
/// `kernel_form::goldilocks::diagonal_word`) of a cheap kind: `±k` (`k <= 4`) by additions,
/// `±2^-n` (`n <= 5`) by `n` halvings, then one lazy addition to `s` or subtraction from it;
/// `None` for any other entry (the caller's full product). The kind is a public constant of the
/// instance: the branch depends on no state value.
#[inline(always)]
fn add_cheap_products<V: Lanes, const G: usize>(
    mut x: Packed<V, G>,
    m: &Word,
    s: Packed<V, G>,
) -> Option<Packed<V, G>> {
    let (kind, data) = (m[3], m[4]);
    for (x, &s) in x.0.iter_mut().zip(&s.0) {
        let v = match (kind & 0xff, data) {
            (SMALL, 1) => *x,
            (SMALL, 2) => add(*x, *x),
            (SMALL, 3) => add(add(*x, *x), *x),
            (SMALL, 4) => {
                let x2 = add(*x, *x);
                add(x2, x2)
            }
            (HALVE, 1) => halve(*x),
            (HALVE, 2) => halve(halve(*x)),
            (HALVE, 3) => halve(halve(halve(*x))),
            (HALVE, 4) => halve(halve(halve(halve(*x)))),
            (HALVE, 5) => halve(halve(halve(halve(halve(*x))))),
            _ => return None,
        };
        *x = if kind & NEGATE == 0 {
            add(s, v)
        } else {
            sub(s, v)
        };
    }
    Some(x)
}

/// The canonical representative `< p` of any `u64`.
#[inline(always)]
fn canonical<V: Lanes>(x: V) -> V {
    x.sub_if_below(splat(x, MODULUS - 1), x, splat(x, MODULUS))
}

/// Element `i` of `G` vector groups, one register per group.
///
/// Its operations loop over the groups explicitly, and nothing on the kernel's path takes a
/// closure: a closure (as `array::map` takes) is compiled as a function of its own without the
/// ISA's target features, and every register operation in it would become a call.
#[derive(Clone, Copy)]
struct Packed<V, const G: usize>([V; G]);

impl<V: Lanes, const G: usize> SboxOps for Packed<V, G> {
    #[inline(always)]
    fn sbox_square(mut self) -> Self {
        for x in &mut self.0 {
            *x = square(*x);
        }
        self
    }
    #[inline(always)]
    fn sbox_mul(mut self, rhs: Self) -> Self {
        for (x, y) in self.0.iter_mut().zip(rhs.0) {
            *x = mul(*x, y);
        }
        self
    }
}

impl<V: Lanes, const G: usize> LinearOps for Packed<V, G> {
    #[inline(always)]
    fn linear_add(mut self, rhs: Self) -> Self {
        for (x, y) in self.0.iter_mut().zip(rhs.0) {
            *x = add(*x, y);
        }
        self
    }
}

/// The low and the high 32-bit halves of words, added exactly as integers (no overflow below
/// `2^64`): the external layer's arithmetic.
#[derive(Clone, Copy)]
struct Halves<V>(V, V);

impl<V: Lanes> LinearOps for Halves<V> {
    #[inline(always)]
    fn linear_add(self, rhs: Self) -> Self {
        Halves(self.0.add(rhs.0), self.1.add(rhs.1))
    }
}

/// `sum(state) (mod p)` per group, lazy, accumulated as `x_0 + (x_1 + ... + x_{t-1})` (as
/// [`crate::poseidon2::linear`]'s sum: only `x_0` waits for a partial round's S-box) with one reduction at
/// the end (bounds in the module docs). `state.len() >= 2`.
#[inline(always)]
fn wide_sum<V: Lanes, const G: usize>(state: &[Packed<V, G>]) -> Packed<V, G> {
    let one = splat(state[0].0[0], 1);
    let eps = splat(one, EPSILON);
    let mut lo = state[1];
    let mut carries = [splat(one, 0); G];
    for x in state[2..].iter().chain(&state[..1]) {
        for ((lo, carries), &x) in lo.0.iter_mut().zip(&mut carries).zip(&x.0) {
            let s = lo.add(x);
            *carries = carries.add_if_below(s, x, one);
            *lo = s;
        }
    }
    for (lo, carries) in lo.0.iter_mut().zip(carries) {
        let c = carries.mul_epsilon();
        let r = lo.add(c);
        *lo = r.add_if_below(r, c, eps);
    }
    lo
}

/// A canonical constant `value < p` in every lane, with `high = value >> 32` precomputed for
/// the multiplications by it.
#[derive(Clone, Copy)]
struct Constant<V> {
    value: V,
    high: V,
}

impl<V: Lanes> Constant<V> {
    /// The cached kernel-form constant `word` (`[value, value >> 32, ..]`, see
    /// `kernel_form::goldilocks::word`) in every lane; `like` is any register of the type (proof
    /// of the ISA).
    #[inline(always)]
    fn broadcast(like: V, word: &Word) -> Self {
        Constant {
            value: splat(like, word[0]),
            high: splat(like, word[1]),
        }
    }
}

impl<V: Lanes, const G: usize> RoundOps for Packed<V, G> {
    type Constant = Word;

    #[inline(always)]
    fn add_sbox<const D: u64>(mut self, c: Word) -> Self {
        let c = Constant::broadcast(self.0[0], &c);
        for x in &mut self.0 {
            *x = add_canonical(*x, c.value);
        }
        sbox_chain::<Self, D>(self)
    }
}

/// Products by a diagonal entry for [`LinearLayers`]' supertrait; the override of
/// [`LinearLayers::internal_layer`] below fuses them with the sum instead.
impl<V: Lanes, const G: usize> DiagonalOps<Word> for Packed<V, G> {
    #[inline(always)]
    fn mul_diagonal(mut self, m: &Word) -> Self {
        let m = Constant::broadcast(self.0[0], m);
        for x in &mut self.0 {
            *x = mul(*x, m.value);
        }
        self
    }
}

/// Both layers overridden (the generic ones would reduce after every addition and product):
/// the external layer runs on exact 32-bit halves with one recombination per output, the
/// t >= 4 internal layer accumulates the sum with a carry count and fuses each product with it
/// into one reduction (bounds in the module docs).
impl<V: Lanes, const G: usize> LinearLayers<Word> for Packed<V, G> {
    /// [`crate::poseidon2::linear::external_layer`] on the 32-bit halves of the words with plain
    /// additions, one vector group at a time (its halves fit in registers), then one
    /// recombination per output (bounds in the module docs).
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn external_layer(state: &mut [Self], m4: ExternalMatrix) {
        let t = state.len();
        for g in 0..G {
            let zero = splat(state[0].0[g], 0);
            let mut halves = [Halves(zero, zero); MAX_WIDTH];
            for (h, x) in halves.iter_mut().zip(&*state) {
                let x = x.0[g];
                *h = Halves(x.and(splat(x, EPSILON)), x.shr::<32>());
            }
            external_layer(&mut halves[..t], m4);
            for (x, &Halves(low, high)) in state.iter_mut().zip(&halves) {
                let eps = splat(low, EPSILON);
                let u = low.add(high.shr::<32>().mul_epsilon());
                let r = u.add(high.shl::<32>());
                x.0[g] = r.add_if_below(r, u, eps);
            }
        }
    }
    /// Same shapes and length behaviour as [`crate::poseidon2::linear::internal_layer`].
    #[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
    #[cfg_attr(fast_poseidon2_unoptimized, inline)]
    fn internal_layer(state: &mut [Self], diag_m1: &[Word]) {
        match state.len() {
            0 | 1 => {}
            2 | 3 => internal_layer_fixed(state),
            _ => {
                // `s - EPSILON`, whose offset `reduce_plus_epsilon` puts back.
                let mut halves = [(state[0].0[0], state[0].0[0]); G];
                let sums = wide_sum(state);
                for (h, s) in halves.iter_mut().zip(sums.0) {
                    let eps = splat(s, EPSILON);
                    let s = s.sub(eps).sub_if_below(s, eps, eps);
                    *h = (s.shr::<32>(), s.and(eps));
                }
                for (x, m) in state.iter_mut().zip(diag_m1) {
                    // One group alone waits on its partial rounds' chains, which the cheap
                    // products shorten (Plonky3's Goldilocks12, 8 states: 0.46 against 0.57 µs
                    // per permutation); interleaved groups are bound by the operation count,
                    // where the lazy additions cost more than the full product (0.43 against
                    // 0.41 µs at 1024 states).
                    if G == 1
                        && let Some(y) = add_cheap_products(*x, m, sums)
                    {
                        *x = y;
                        continue;
                    }
                    let m = Constant::broadcast(x.0[0], m);
                    for (x, &h) in x.0.iter_mut().zip(&halves) {
                        let (hi, lo) = mul_add_wide(*x, m.value, m.high, h);
                        *x = reduce_plus_epsilon(hi, lo);
                    }
                }
            }
        }
    }
}

/// The backend to use for `F` on this CPU: AVX-512F if present, else AVX2; `None` if `F` is
/// not Goldilocks or the CPU has neither.
pub(super) fn best<F: Field>(avx512: bool) -> Option<BatchBackend> {
    Form::of::<F>()?;
    if avx512 && Avx512::detect().is_some() {
        Some(BatchBackend::Avx512)
    } else {
        Avx2::detect().map(|_| BatchBackend::Avx2)
    }
}

/// Whether `backend` is one of this module's and runs `F` on this CPU.
pub(super) fn runs<F: Field>(backend: BatchBackend) -> bool {
    Form::of::<F>().is_some()
        && match backend {
            BatchBackend::Avx512 => Avx512::detect().is_some(),
            BatchBackend::Avx2 => Avx2::detect().is_some(),
            _ => false,
        }
}

/// Runs every whole vector group of `states` (flat, width `t`; `W`: `t` if the caller fixed it
/// when compiling, else `0`, see [`Lanes::permute_all`]) on `backend` when it runs here
/// (for AVX-512F, then one AVX2 group of the states left if they fill one), for a field stored
/// in `form` ([`Form::of`]) with the round constants `rc` in kernel form
/// (`field::kernel_form::goldilocks::word`), and returns the states left for the portable path.
pub(super) fn permute_batch<'a, F: Field, const D: u64, const W: usize>(
    states: &'a mut [F],
    t: usize,
    form: Form,
    rc: RoundConstants<'_, Word>,
    backend: BatchBackend,
) -> &'a mut [F] {
    let job = Job { t, rc, form };
    match backend {
        // The states left after the 8-lane groups: one more group of 4 on AVX2 (which every
        // AVX-512F CPU has) if they fill one, before the portable path.
        BatchBackend::Avx512 => run::<Avx2, F, D, W>(run::<Avx512, F, D, W>(states, job), job),
        BatchBackend::Avx2 => run::<Avx2, F, D, W>(states, job),
        _ => states,
    }
}

/// [`permute_batch`] on the register type `V`.
fn run<'a, V: Lanes, F: Field, const D: u64, const W: usize>(
    states: &'a mut [F],
    job: Job<'_>,
) -> &'a mut [F] {
    let group = V::LANES * job.t;
    let Some(cpu) = V::detect() else {
        return states;
    };
    if states.len() < group {
        return states;
    }
    let (vector, rest) = states.split_at_mut(states.len() / group * group);
    V::permute_all::<F, D, W>(cpu, vector, job);
    rest
}

/// What a kernel call needs besides the states: the width, the instance's constants in kernel
/// form (borrowed from its batch cache) and the field's form.
#[derive(Clone, Copy)]
pub(super) struct Job<'a> {
    t: usize,
    rc: RoundConstants<'a, Word>,
    form: Form,
}

/// One batch call's constants: the round constants (canonical plain values,
/// `kernel_form::goldilocks::word`) in the layout of [`RoundConstants`], borrowed from the
/// permutation's batch cache, and the load/store factors `r^-1` and `r` in registers.
struct Kernel<'a, V> {
    rc: RoundConstants<'a, Word>,
    /// `None` for plain fields (`r = 1`), else `(r^-1, r)`.
    factors: Option<(V, V)>,
}

impl<'a, V: Lanes> Kernel<'a, V> {
    #[inline(always)]
    fn new(cpu: Cpu<V>, rc: RoundConstants<'a, Word>, form: Form) -> Self {
        Kernel {
            rc,
            factors: form.r_inv.map(|r_inv| {
                (
                    V::splat(cpu, r_inv.to_canonical_u64()),
                    V::splat(cpu, form.r),
                )
            }),
        }
    }

    fn round_constants(&self) -> RoundConstants<'a, Word> {
        self.rc
    }
}

/// Permutes `states` (a whole number of groups of `V::LANES` states of width `t`, `T` or, for
/// `T = 0`, `job.t` read at run time) in place, `G` groups at a time, then the remaining groups
/// one by one. Inlined into each ISA's `#[target_feature]` entry point, which compiles it for
/// that ISA. A fixed width keeps the external layer's halves of one group in registers (t =
/// 12: 0.40 µs per permutation against 0.50 with `t` read at run time).
#[inline(always)]
fn permute_width<V: Lanes, F: Field, const D: u64, const G: usize, const T: usize>(
    cpu: Cpu<V>,
    states: &mut [F],
    job: Job<'_>,
) {
    let Job { t, rc, form } = job;
    let t = if T == 0 { t } else { T };
    let k = Kernel::new(cpu, rc, form);
    let group = V::LANES * t;
    let mut chunks = states.chunks_exact_mut(G * group);
    for chunk in &mut chunks {
        permute_chunk::<V, F, D, G, T>(cpu, chunk, t, &k);
    }
    for chunk in chunks.into_remainder().chunks_exact_mut(group) {
        permute_chunk::<V, F, D, 1, T>(cpu, chunk, t, &k);
    }
}

/// Loads `G` groups of states (`chunk`, flat, width `t`; `T` is `t` when fixed when compiling,
/// `0` when read at run time, as the round driver takes it), permutes them interleaved, stores
/// them back canonical.
#[cfg_attr(not(fast_poseidon2_unoptimized), inline(always))]
#[cfg_attr(fast_poseidon2_unoptimized, inline)]
fn permute_chunk<V: Lanes, F: Field, const D: u64, const G: usize, const T: usize>(
    cpu: Cpu<V>,
    chunk: &mut [F],
    t: usize,
    k: &Kernel<'_, V>,
) {
    let zero = V::splat(cpu, 0);
    let mut x = [Packed([zero; G]); MAX_WIDTH];
    let x = &mut x[..t];
    let group = V::LANES * t;
    for (g, states) in chunk.chunks_exact(group).enumerate() {
        for (i, xi) in x.iter_mut().enumerate() {
            let mut words = V::Words::default();
            for (w, state) in words.as_mut().iter_mut().zip(states.chunks_exact(t)) {
                *w = state[i].to_goldilocks_word(Sealed(())).unwrap_or(0);
            }
            let v = V::load(cpu, &words);
            xi.0[g] = match k.factors {
                Some((r_inv, _)) => mul(v, r_inv),
                None => v,
            };
        }
    }
    permute::<Packed<V, G>, D, T>(x, k.round_constants());
    for (g, states) in chunk.chunks_exact_mut(group).enumerate() {
        for (i, xi) in x.iter().enumerate() {
            let v = match k.factors {
                Some((_, r)) => mul(xi.0[g], r),
                None => xi.0[g],
            };
            let mut words = V::Words::default();
            canonical(v).store(&mut words);
            for (&w, state) in words.as_ref().iter().zip(states.chunks_exact_mut(t)) {
                if let Some(y) = F::from_goldilocks_word(w, Sealed(())) {
                    state[i] = y;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The arithmetic steps against `u128` on the extreme words (the bounds in the module docs
    //! are tight at these), on every register type this CPU runs.

    use super::*;
    use std::eprintln;

    /// Words at and around the edges of the bounds: `0`, `EPSILON`, `2^32`, `2^63`, `p` and
    /// `2^64 - 1`.
    const WORDS: [u64; 13] = [
        0,
        1,
        2,
        EPSILON - 1,
        EPSILON,
        1 << 32,
        (1 << 32) + 1,
        1 << 63,
        MODULUS - 1,
        MODULUS,
        MODULUS + 1,
        u64::MAX - 1,
        u64::MAX,
    ];

    fn mod_p(x: u128) -> u64 {
        (x % u128::from(MODULUS)) as u64
    }

    fn lane0<V: Lanes>(v: V) -> u64 {
        let mut words = V::Words::default();
        v.store(&mut words);
        words.as_ref()[0]
    }

    fn wide<V: Lanes>((hi, lo): (V, V)) -> u128 {
        (u128::from(lane0(hi)) << 64) | u128::from(lane0(lo))
    }

    /// Runs `check` on every register type this CPU runs, and says which it skips.
    fn on_every_isa(check: fn(&dyn Fn(u64) -> Isa)) {
        let mut ran = false;
        if let Some(cpu) = Avx512::detect() {
            check(&|x| Isa::Avx512(Avx512::splat(cpu, x)));
            ran = true;
        } else {
            eprintln!("no avx512f: AVX-512 arithmetic not tested");
        }
        if let Some(cpu) = Avx2::detect() {
            check(&|x| Isa::Avx2(Avx2::splat(cpu, x)));
            ran = true;
        } else {
            eprintln!("no avx2: AVX2 arithmetic not tested");
        }
        if !ran {
            eprintln!("no SIMD register type on this CPU: nothing tested");
        }
    }

    /// A register of either type, so one check covers both.
    #[derive(Clone, Copy)]
    enum Isa {
        Avx512(Avx512),
        Avx2(Avx2),
    }

    /// Evaluates `$body` on the registers of `$isa`, all of one type.
    macro_rules! apply {
        ($isa:expr, |$($x:ident),*| $body:expr) => {
            match $isa {
                [$(Isa::Avx512($x)),*] => $body,
                [$(Isa::Avx2($x)),*] => $body,
                #[allow(unreachable_patterns)]
                _ => unreachable!("one register type per call"),
            }
        };
    }

    #[test]
    fn products_plus_words_are_exact() {
        on_every_isa(|r| {
            for a in WORDS {
                for b in WORDS {
                    for s in WORDS {
                        let got = apply!([r(a), r(b), r(b >> 32), r(s >> 32), r(s & EPSILON)],
                            |a, b, b_hi, s1, s0| wide(mul_add_wide(a, b, b_hi, (s1, s0))));
                        let want = u128::from(a) * u128::from(b) + u128::from(s);
                        assert_eq!(got, want, "{a} * {b} + {s}");
                    }
                }
            }
        });
    }

    #[test]
    fn squares_are_exact() {
        on_every_isa(|r| {
            for a in WORDS {
                let got = apply!([r(a)], |a| wide(square_wide(a)));
                assert_eq!(got, u128::from(a) * u128::from(a), "{a}^2");
            }
        });
    }

    #[test]
    fn reductions_are_congruent() {
        on_every_isa(|r| {
            for hi in WORDS {
                for lo in WORDS {
                    let value = (u128::from(hi) << 64) | u128::from(lo);
                    let got = apply!([r(hi), r(lo)], |hi, lo| lane0(reduce(hi, lo)));
                    assert_eq!(mod_p(got.into()), mod_p(value), "reduce {hi} {lo}");
                    let got = apply!([r(hi), r(lo)], |hi, lo| lane0(reduce_plus_epsilon(hi, lo)));
                    let want = mod_p(u128::from(mod_p(value)) + u128::from(EPSILON));
                    assert_eq!(mod_p(got.into()), want, "reduce_plus_epsilon {hi} {lo}");
                }
            }
        });
    }

    #[test]
    fn canonical_is_the_representative_below_p() {
        on_every_isa(|r| {
            for x in WORDS {
                let got = apply!([r(x)], |x| lane0(canonical(x)));
                assert_eq!(got, x % MODULUS, "canonical {x}");
            }
        });
    }

    #[test]
    fn additions_are_congruent() {
        on_every_isa(|r| {
            for a in WORDS {
                for b in WORDS {
                    let want = mod_p(u128::from(a) + u128::from(b));
                    let got = apply!([r(a), r(b)], |a, b| lane0(add(a, b)));
                    assert_eq!(mod_p(got.into()), want, "{a} + {b}");
                    if b < MODULUS {
                        let got = apply!([r(a), r(b)], |a, b| lane0(add_canonical(a, b)));
                        assert_eq!(mod_p(got.into()), want, "{a} + canonical {b}");
                    }
                }
            }
        });
    }

    #[test]
    fn subtractions_and_halvings_are_congruent() {
        const P: u128 = MODULUS as u128;
        on_every_isa(|r| {
            for a in WORDS {
                for b in WORDS {
                    let want = mod_p(u128::from(a) + 2 * P - u128::from(mod_p(b.into())));
                    let got = apply!([r(a), r(b)], |a, b| lane0(sub(a, b)));
                    assert_eq!(mod_p(got.into()), want, "{a} - {b}");
                }
                let got = apply!([r(a)], |a| lane0(halve(a)));
                assert_eq!(mod_p(2 * u128::from(got)), mod_p(a.into()), "{a} / 2");
            }
        });
    }
}
