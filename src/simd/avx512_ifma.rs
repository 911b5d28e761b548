//! AVX-512 IFMA batch kernel for 4-limb Montgomery fields with `2^250 <= p < 2^255` (BN254,
//! BLS12-381, the Stark field).
//!
//! # Representation
//! A vector [`Fe`] holds 8 field elements, lane `l` belonging to state `l` of a group of 8
//! states. Each element is `y = x * 2^260 mod p` (Montgomery form with `R = 2^260`) written as
//! five limbs `y = sum_j y_j 2^(52 j)` in the 64-bit lanes of five `__m512i`. `GROUPS` = 2
//! groups (16 states; a last odd group runs alone) run interleaved: every arithmetic step below
//! loops over the groups innermost, so the two groups' independent instruction chains alternate.
//!
//! A value is *normalized* when every limb is `< 2^52` (so `y < 2^260`); only normalized values
//! enter a multiplication, because `vpmadd52luq/huq` read the low 52 bits of their factors.
//!
//! # Bounds (`p < 2^255`, `R = 2^260`, so `p / R < 2^-5`)
//! - [`mont_mul`] / [`mont_square`]: for normalized `a`, `b` the result is
//!   `r = (a b + m p) / R < a b / R + p` with `m < R`, normalized (more generally, [`redc`] of
//!   columns summing to `T` gives `< T / R + p`). If `a, b < 2p` then
//!   `r < 4 p^2 / R + p < p (1 + 2^-3) < 2p`; if `b < p` (a constant) then `r < p + p = 2p` for
//!   every normalized `a`. Every multiplication below has one of these two shapes, so every
//!   product is `< 2p`. Column accumulators stay below `10 * 2^52` after the product and below
//!   `20 * 2^52 + 2^12 < 2^57` after the reduction adds its 10 terms and carries: no 64-bit
//!   overflow.
//! - [`reduce`]: for any limbs `< 2^62` and value `v < 2^268`, returns a normalized value
//!   `< 2p` congruent to `v` (proof at the function). The largest inputs it sees: the external
//!   layer of t = 32 (row sums of `|M_E|` up to 144) applied to values `< 2p`, plus a constant
//!   `< p`: `v < 289 p < 2^264`, limbs `< 289 * 2^52 < 2^61`.
//! - [`LinearOps`] additions are limb-wise and never normalize: limbs grow by at most the row
//!   sums above, far from 2^64.
//!
//! # Constant time
//! No branch and no memory address depends on a lane's value: every step is the same vector
//! instruction sequence for every input (the only conditionals are on the batch length and the
//! type), and the one conditional subtraction ([`canonical`]) is a mask select. valgrind cannot
//! run AVX-512, so this is checked by review and by the fixed-versus-random timing test
//! (`tests/constant_time.rs`, `scripts/constant-time.sh`).
//!
//! # Round structure
//! Loaded states are converted with one multiplication by `2^264 mod p` (from ark's `R = 2^256`
//! to `R = 2^260`): `< 2p`. Then the crate's one round driver ([`permute`](crate::poseidon2::permutation::permute)) runs on [`Packed`]
//! (element `i` of the interleaved groups) through [`RoundOps`] and [`LinearLayers`], with the
//! generic layers of [`crate::poseidon2::linear`]: initial `M_E`; each full round
//! `x_i <- sbox(reduce(x_i + c_i))` then `M_E`; each partial round
//! `x_0 <- sbox(reduce(x_0 + c))`, `x_i <- reduce(x_i)` for `i >= 1` (the one step the kernel
//! adds, at the start of its [`LinearLayers::internal_layer`]), then `M_I` (t = 2, 3: the
//! fixed matrices by additions; t >= 4: `mont_mul(x_i, mu_i - 1) + sum`). Every S-box input and
//! every multiplied value is therefore normalized and `< 2p`. At the end: `reduce`, multiply by
//! `2^256 mod p` (back to ark's form, `< 2p`), subtract `p` once if needed (canonical `< p`).
//!
//! # Poseidon1 (optimized schedule, eprint 2019/458 appendix B)
//! The Poseidon1 round driver ([`crate::poseidon1::permutation::permute`]) runs on the same
//! [`Packed`] through [`ScheduleOps`]; every step returns a normalized value `< 2p` for
//! normalized inputs `< 2p`, so by induction over the driver's steps (loaded states `< 2p`)
//! every value it holds, multiplies or feeds to the S-box is normalized and `< 2p`:
//! - `add_constant`: `reduce(x + c)` with `x < 2p`, `c < p`: value `< 3p < 2^257`, limbs
//!   `< 2^53`, well inside [`reduce`]'s range: `< 2p`.
//! - `sbox`: the chains above on a value `< 2p`: `< 2p`.
//! - `mul_add`, `x + w x_0` (the sparse matrices' first column): `mont_mul(x_0, w)` with `w < p`
//!   is `< 2p`; the sum `< 4p`, limbs `< 2^53`; [`reduce`] gives `< 2p`.
//! - `dot`, `sum_j m_j x_j` over `t <= MAX_WIDTH = 32` terms (dense MDS and `pre_sparse` rows, the
//!   sparse first rows; the circom widths have `t <= 17`): the 10-column products of all terms
//!   are summed unreduced ([`mul_acc`]), then one [`redc`] and one [`reduce`]. Limb headroom:
//!   one product adds less than `10 · 2^52` to a column (at most 5 low and 5 high halves, each
//!   `< 2^52`), so after `t` terms a column is `< 10 t · 2^52 <= 320 · 2^52`; the reduction adds
//!   at most 10 more halves and a carry `< 2^12`: every column stays `< 331 · 2^52 < 2^61`, no
//!   64-bit overflow. Value: the sum is `T < t · 2p · p` (`x_j < 2p`, constants `m_j < p`), so
//!   the reduction's `(T + m p) / R < (2t p / R + 1) p < (2 · 32 · 2^-5 + 1) p = 3p` (`m < R`),
//!   normalized (`< 2^260`); [`reduce`] gives `< 2p`. One reduction per output instead of one
//!   per product: a dense row of `t` terms costs `t` products and one [`redc`].
//! - `mix_ones_plus_diagonal` (MDS matrices `J + diag(d)`, StarkWare's: the additions-only
//!   layer of every round): limb-wise sums, `-k x` as `offset - k x` (a redundant `128 p` whose
//!   limbs exceed any `k x`), one [`reduce`] per output: `< 2p` (bounds at the impl).
//!
//! Constants (round constants; for Poseidon1 every table of the schedule: `full`, `partial`,
//! `sparse_rows`, `sparse_cols`, `pre_sparse`, `mds`) are converted to this form (canonical,
//! `< p`) once per permutation value or batch call (its batch cache, see `crate::simd`) and
//! broadcast from memory
//! (`vpbroadcastq`, a plain load on the load ports) where they are used; pre-broadcast copies
//! would be 8 times larger (26 KB for BN254 t = 3) and compete with the states for L1.

use core::arch::x86_64::*;

use crate::field::kernel_form::avx512_ifma::{LIMBS, MASK52, Modulus};
use crate::field::{Field, Sealed};
use crate::params::MAX_WIDTH;
use crate::poseidon1::permutation::{Schedule, ScheduleOps};
use crate::poseidon2::batch_cache::Word;
use crate::poseidon2::linear::{DiagonalOps, LinearLayers, LinearOps, internal_layer};
use crate::poseidon2::permutation::{RoundConstants, RoundOps};

/// States per vector group (one per 64-bit lane of a `__m512i`).
const LANES: usize = 8;
/// Groups processed interleaved.
const GROUPS: usize = 2;

/// Whether this CPU runs the kernel (`std_detect` probes once and caches the answer).
fn cpu_has_ifma() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512ifma")
}

/// Whether batches of `F` take this kernel on this CPU.
pub(super) fn supports<F: Field>() -> bool {
    cpu_has_ifma() && Modulus::of::<F>().is_some()
}

/// Runs every whole group of 8 states of `states` (flat, width `t`) through the kernel when the
/// CPU allows it, with `F`'s `modulus` ([`Modulus::of`]) and the constants `rounds` in kernel
/// form (`field::kernel_form::avx512_ifma::word`) in a family's layout (Poseidon2's
/// [`RoundConstants`] or Poseidon1's [`Schedule`]), and returns the states left for the portable
/// path.
pub(super) fn permute_batch<'a, F: Field, const D: u64, R: Rounds>(
    states: &'a mut [F],
    t: usize,
    modulus: &Modulus,
    rounds: R,
) -> &'a mut [F] {
    let group = LANES * t;
    if states.len() < group || !cpu_has_ifma() {
        return states;
    }
    let (vector, rest) = states.split_at_mut(states.len() / group * group);
    // SAFETY: `cpu_has_ifma()` confirmed avx512f, avx512dq and avx512ifma on this CPU, the only
    // requirement of the `#[target_feature]` function.
    unsafe { permute_all::<F, D, R>(vector, t, modulus, rounds) };
    rest
}

/// A permutation family's kernel-form constants, borrowed from its batch cache: runs the
/// family's one round driver on [`Packed`] states.
pub(super) trait Rounds: Copy {
    /// Permutes the interleaved state `x` with the family's round driver.
    fn permute<const D: u64, const G: usize>(self, x: &mut [Packed<'_, G>]);
}

impl Rounds for RoundConstants<'_, Word> {
    #[inline(always)]
    fn permute<const D: u64, const G: usize>(self, x: &mut [Packed<'_, G>]) {
        crate::poseidon2::permutation::permute::<Packed<'_, G>, D, 0>(x, self);
    }
}

impl Rounds for Schedule<'_, Word> {
    #[inline(always)]
    fn permute<const D: u64, const G: usize>(self, x: &mut [Packed<'_, G>]) {
        crate::poseidon1::permutation::permute::<Packed<'_, G>, D>(x, self);
    }
}

/// Eight field elements, one per lane, as five 52-bit limbs (see the module docs).
#[derive(Clone, Copy)]
struct Fe([__m512i; LIMBS]);

impl LinearOps for Fe {
    #[inline(always)]
    fn linear_add(self, rhs: Self) -> Self {
        let mut out = self;
        for (o, r) in out.0.iter_mut().zip(rhs.0) {
            // SAFETY: an `Fe` only exists inside `permute_all`, entered after `cpu_has_ifma()`
            // confirmed avx512f.
            *o = unsafe { _mm512_add_epi64(*o, r) };
        }
        out
    }
}

/// The modulus constants broadcast to all lanes.
#[derive(Clone, Copy)]
struct Vecs {
    zero: __m512i,
    mask: __m512i,
    p: [__m512i; LIMBS],
    neg_p: [__m512i; LIMBS],
    p_inv: __m512i,
    quotient_scale: __m512d,
    to_kernel: Fe,
    from_kernel: Fe,
    /// `128 p` with limbs 0..=3 raised by `2^57` (and limbs 1..=4 lowered by `2^5` to keep the
    /// value): every limb exceeds `16 (2^52 - 1)` and limb 4 exceeds `16` times limb 4 of any
    /// value `< 2p`, so `offset - k x` is limb-wise non-negative for normalized `x < 2p`,
    /// `k <= 16`, and congruent to `-k x` ([`ScheduleOps::mix_ones_plus_diagonal`]).
    offset: Fe,
}

/// The limbs of [`Vecs::offset`] for `p` in 52-bit limbs (`2^250 <= p < 2^255`: limb 4 of
/// `128 p` is at least `2^49`).
fn offset_limbs(p: &[u64; LIMBS]) -> [u64; LIMBS] {
    let mut k = [0u64; LIMBS];
    let mut carry = 0;
    for (j, (k, &p)) in k.iter_mut().zip(p).enumerate() {
        let v = (p << 7) + carry;
        *k = if j + 1 < LIMBS { v & MASK52 } else { v };
        carry = v >> 52;
    }
    // Every raise before any lowering: a limb of `128 p` may be 0 (the Stark field's limbs 1
    // and 2), and `0 - 2^5` would overflow before its `+ 2^57` (a panic in a debug build).
    for limb in &mut k[..LIMBS - 1] {
        *limb += 1 << 57;
    }
    for limb in &mut k[1..] {
        *limb -= 1 << 5;
    }
    k
}

#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn broadcast(limbs: &[u64; LIMBS]) -> Fe {
    let mut out = Fe([_mm512_setzero_si512(); LIMBS]);
    for (o, &l) in out.0.iter_mut().zip(limbs) {
        *o = _mm512_set1_epi64(l as i64);
    }
    out
}

impl Vecs {
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    fn new(m: &Modulus) -> Self {
        Vecs {
            zero: _mm512_setzero_si512(),
            mask: _mm512_set1_epi64(MASK52 as i64),
            p: broadcast(&m.p).0,
            neg_p: broadcast(&m.neg_p).0,
            p_inv: _mm512_set1_epi64(m.p_inv as i64),
            quotient_scale: _mm512_set1_pd(m.quotient_scale),
            to_kernel: broadcast(&m.to_kernel),
            from_kernel: broadcast(&m.from_kernel),
            offset: broadcast(&offset_limbs(&m.p)),
        }
    }
}

/// Propagates carries from limb 0 up to limb 4 (which keeps the excess): same value, limbs
/// 0..=3 below `2^52`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn carry(mut l: [__m512i; LIMBS], v: &Vecs) -> [__m512i; LIMBS] {
    for j in 0..LIMBS - 1 {
        l[j + 1] = _mm512_add_epi64(l[j + 1], _mm512_srli_epi64::<52>(l[j]));
        l[j] = _mm512_and_si512(l[j], v.mask);
    }
    l
}

/// Montgomery reduction of the 10-column products `t`: `t / 2^260 mod p` (bounds in the
/// module docs), normalized.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn redc<const N: usize>(mut t: [[__m512i; 2 * LIMBS]; N], v: &Vecs) -> [Fe; N] {
    for i in 0..LIMBS {
        for c in t.iter_mut() {
            // m = c_i * (-p^-1) mod 2^52 makes column i divisible by 2^52 after adding m p.
            let m = _mm512_madd52lo_epu64(v.zero, c[i], v.p_inv);
            for j in 0..LIMBS {
                c[i + j] = _mm512_madd52lo_epu64(c[i + j], m, v.p[j]);
                c[i + j + 1] = _mm512_madd52hi_epu64(c[i + j + 1], m, v.p[j]);
            }
            c[i + 1] = _mm512_add_epi64(c[i + 1], _mm512_srli_epi64::<52>(c[i]));
        }
    }
    let mut out = [Fe([v.zero; LIMBS]); N];
    for (o, c) in out.iter_mut().zip(t) {
        o.0 = carry([c[5], c[6], c[7], c[8], c[9]], v);
    }
    out
}

/// Adds the 10-column product `a b` of normalized `a`, `b` to the columns `t` (each column
/// grows by less than `10 · 2^52`), lane-wise.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn mul_acc<const N: usize>(t: &mut [[__m512i; 2 * LIMBS]; N], a: &[Fe; N], b: &[Fe; N]) {
    for i in 0..LIMBS {
        for j in 0..LIMBS {
            for n in 0..N {
                let (x, y) = (a[n].0[i], b[n].0[j]);
                t[n][i + j] = _mm512_madd52lo_epu64(t[n][i + j], x, y);
                t[n][i + j + 1] = _mm512_madd52hi_epu64(t[n][i + j + 1], x, y);
            }
        }
    }
}

/// `a b / 2^260 mod p`, lane-wise, for normalized `a`, `b` (result `< 2p` under the bounds in
/// the module docs).
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn mont_mul<const N: usize>(a: &[Fe; N], b: &[Fe; N], v: &Vecs) -> [Fe; N] {
    let mut t = [[v.zero; 2 * LIMBS]; N];
    mul_acc(&mut t, a, b);
    redc(t, v)
}

/// `a^2 / 2^260 mod p`: the 10 cross products once, doubled, plus the 5 squares.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn mont_square<const N: usize>(a: &[Fe; N], v: &Vecs) -> [Fe; N] {
    let mut t = [[v.zero; 2 * LIMBS]; N];
    for i in 0..LIMBS {
        for j in i + 1..LIMBS {
            for n in 0..N {
                let (x, y) = (a[n].0[i], a[n].0[j]);
                t[n][i + j] = _mm512_madd52lo_epu64(t[n][i + j], x, y);
                t[n][i + j + 1] = _mm512_madd52hi_epu64(t[n][i + j + 1], x, y);
            }
        }
    }
    for c in t.iter_mut() {
        for col in c.iter_mut() {
            *col = _mm512_add_epi64(*col, *col);
        }
    }
    for i in 0..LIMBS {
        for n in 0..N {
            let x = a[n].0[i];
            t[n][2 * i] = _mm512_madd52lo_epu64(t[n][2 * i], x, x);
            t[n][2 * i + 1] = _mm512_madd52hi_epu64(t[n][2 * i + 1], x, x);
        }
    }
    redc(t, v)
}

/// A normalized value `< 2p` congruent to `a`, for limbs `< 2^62` and value `v < 2^268`.
///
/// Proof. Write `v = l_4 2^208 + L` with `L < 2^62 (2^156 + 2^104 + 2^52 + 1) < 2^219`. The
/// quotient estimate `e = fl(fl(l_4) * quotient_scale)` has relative error below `2^-50` on top
/// of the `(1 - 2^-40)` factor, so `e < l_4 2^208 / p <= v / p`, and
/// `e > l_4 2^208 / p - 2^15 * 2^-39 > v / p - 2^-24 - L / p > v / p - 1`. Hence
/// `q = trunc(e)` satisfies `floor(v / p) - 1 <= q <= v / p`: `0 <= v - q p < 2p < 2^260`.
/// Adding `q (2^260 - p)` limb-wise (dropping the column at `2^260`) and carrying gives
/// `v - q p + k 2^260` for some `k >= 0`; masking limb 4 to 52 bits removes `k 2^260`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn reduce<const N: usize>(a: &[Fe; N], v: &Vecs) -> [Fe; N] {
    let mut out = *a;
    for o in out.iter_mut() {
        let top = _mm512_cvtepu64_pd(o.0[4]);
        let q = _mm512_cvttpd_epu64(_mm512_mul_pd(top, v.quotient_scale));
        for j in 0..LIMBS {
            o.0[j] = _mm512_madd52lo_epu64(o.0[j], q, v.neg_p[j]);
        }
        for j in 0..LIMBS - 1 {
            o.0[j + 1] = _mm512_madd52hi_epu64(o.0[j + 1], q, v.neg_p[j]);
        }
        o.0 = carry(o.0, v);
        o.0[4] = _mm512_and_si512(o.0[4], v.mask);
    }
    out
}

/// The canonical representative (`< p`) of a normalized value `< 2p`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn canonical(a: &Fe, v: &Vecs) -> Fe {
    let mut d = a.0;
    for (d, &p) in d.iter_mut().zip(&v.p) {
        *d = _mm512_sub_epi64(*d, p);
    }
    // Signed borrows: limbs 0..=3 back in [0, 2^52), the sign lands in limb 4.
    for j in 0..LIMBS - 1 {
        d[j + 1] = _mm512_add_epi64(d[j + 1], _mm512_srai_epi64::<52>(d[j]));
        d[j] = _mm512_and_si512(d[j], v.mask);
    }
    // a - p < 0 exactly when the top limb went negative: keep a there.
    let negative = _mm512_cmplt_epi64_mask(d[LIMBS - 1], v.zero);
    let mut out = *a;
    for (o, d) in out.0.iter_mut().zip(d) {
        *o = _mm512_mask_blend_epi64(negative, d, *o);
    }
    out
}

/// The S-box `x^D` with the chains of [`Field::sbox`].
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn sbox<const D: u64, const N: usize>(x: &[Fe; N], v: &Vecs) -> [Fe; N] {
    let x2 = mont_square(x, v);
    match D {
        3 => mont_mul(&x2, x, v),
        5 => mont_mul(&mont_square(&x2, v), x, v),
        7 => mont_mul(&mont_square(&x2, v), &mont_mul(&x2, x, v), v),
        _ => mont_mul(
            &mont_square(&mont_square(&x2, v), v),
            &mont_mul(&x2, x, v),
            v,
        ),
    }
}

/// `x + c` then [`reduce`], `c` broadcast from kernel-form limbs.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn add_constant_reduce<const N: usize>(x: &[Fe; N], c: &[u64; LIMBS], v: &Vecs) -> [Fe; N] {
    let c = broadcast(c);
    let mut sum = *x;
    for s in sum.iter_mut() {
        *s = s.linear_add(c);
    }
    reduce(&sum, v)
}

/// Element `i` of `G` vector groups, interleaved (every operation loops over the groups
/// innermost), with the broadcast modulus constants its arithmetic needs: the state element the
/// crate's round driver ([`permute`](crate::poseidon2::permutation::permute)) runs on, through [`RoundOps`] and [`LinearLayers`].
///
/// Made only inside [`permute_all`], entered after `cpu_has_ifma()` confirmed avx512f, avx512dq
/// and avx512ifma: that is the safety argument of every `unsafe` call below.
#[derive(Clone, Copy)]
pub(super) struct Packed<'v, const G: usize> {
    x: [Fe; G],
    v: &'v Vecs,
}

impl<const G: usize> LinearOps for Packed<'_, G> {
    /// Limb-wise, never normalizing (bounds in the module docs).
    #[inline(always)]
    fn linear_add(mut self, rhs: Self) -> Self {
        for (x, y) in self.x.iter_mut().zip(rhs.x) {
            *x = x.linear_add(y);
        }
        self
    }
}

impl<const G: usize> DiagonalOps<[u64; LIMBS]> for Packed<'_, G> {
    /// [`mont_mul`] by the broadcast entry (`< p`): `< 2p` for a normalized `self`.
    #[inline(always)]
    fn mul_diagonal(self, m: &[u64; LIMBS]) -> Self {
        // SAFETY: a `Packed` exists only inside `permute_all` (see the type's docs).
        let x = unsafe { mont_mul(&self.x, &[broadcast(m); G], self.v) };
        Packed { x, v: self.v }
    }
}

/// The generic layers. The internal layer first normalizes `x_1 .. x_{t-1}`, which the previous
/// layer left unreduced (the products need normalized factors, and the sums would grow round by
/// round); `x_0` comes from the partial round's S-box, already normalized and `< 2p`.
impl<const G: usize> LinearLayers<[u64; LIMBS]> for Packed<'_, G> {
    #[inline(always)]
    fn internal_layer(state: &mut [Self], diag_m1: &[[u64; LIMBS]]) {
        for x in state.iter_mut().skip(1) {
            // SAFETY: a `Packed` exists only inside `permute_all` (see the type's docs).
            x.x = unsafe { reduce(&x.x, x.v) };
        }
        internal_layer(state, diag_m1);
    }
}

impl<const G: usize> RoundOps for Packed<'_, G> {
    type Constant = [u64; LIMBS];
    /// `sbox(reduce(x + c))`: every S-box input normalized and `< 2p`.
    #[inline(always)]
    fn add_sbox<const D: u64>(self, c: [u64; LIMBS]) -> Self {
        // SAFETY: a `Packed` exists only inside `permute_all` (see the type's docs).
        let x = unsafe { sbox::<D, G>(&add_constant_reduce(&self.x, &c, self.v), self.v) };
        Packed { x, v: self.v }
    }
}

/// Poseidon1's steps (bounds in the module docs): every result is normalized and `< 2p`, for
/// inputs that are.
impl<const G: usize> ScheduleOps for Packed<'_, G> {
    type Constant = [u64; LIMBS];

    /// `reduce(x + c)`.
    #[inline(always)]
    fn add_constant(self, c: [u64; LIMBS]) -> Self {
        // SAFETY: a `Packed` exists only inside `permute_all` (see the type's docs).
        let x = unsafe { add_constant_reduce(&self.x, &c, self.v) };
        Packed { x, v: self.v }
    }

    #[inline(always)]
    fn sbox<const D: u64>(self) -> Self {
        // SAFETY: a `Packed` exists only inside `permute_all` (see the type's docs).
        let x = unsafe { sbox::<D, G>(&self.x, self.v) };
        Packed { x, v: self.v }
    }

    /// The products accumulated unreduced, one Montgomery reduction and one [`reduce`] per
    /// output.
    #[inline(always)]
    fn dot(row: &[[u64; LIMBS]], state: &[Self]) -> Self {
        let v = state[0].v;
        // SAFETY: a `Packed` exists only inside `permute_all` (see the type's docs).
        let x = unsafe { dot(row, state, v) };
        Packed { x, v }
    }

    /// `reduce(x + mont_mul(x0, w))`.
    #[inline(always)]
    fn mul_add(self, w: [u64; LIMBS], x0: Self) -> Self {
        // SAFETY: a `Packed` exists only inside `permute_all` (see the type's docs).
        let x = unsafe { mul_add(&self.x, &w, &x0.x, self.v) };
        Packed { x, v: self.v }
    }

    /// Limb-wise additions (negative coefficients as `offset - k x`, see [`Vecs::offset`]),
    /// then one [`reduce`] per output. Bounds, for `t <= 32` normalized inputs `< 2p` and
    /// `|d_i| <= 16`: limbs `< 33 · 2^52 + 2^58 < 2^62`, value `< 2t p + 128 p + 34 p < 2^263`,
    /// inside [`reduce`]'s range: outputs normalized and `< 2p`.
    const ADDITIONS_ONLY: bool = true;
    #[inline(always)]
    fn mix_ones_plus_diagonal(state: &mut [Self], d: &[i8], last: usize) {
        let Some(&xl) = state.get(last) else {
            return;
        };
        let v = xl.v;
        let mut r: Option<Self> = None;
        for (i, &x) in state.iter().enumerate() {
            if i != last {
                r = Some(r.map_or(x, |r| r.linear_add(x)));
            }
        }
        let r = r.unwrap_or(Packed {
            x: [Fe([v.zero; LIMBS]); G],
            v,
        });
        for (i, (e, &di)) in state.iter_mut().zip(d).enumerate() {
            let c = if i == last { di.saturating_add(1) } else { di };
            let k = c.unsigned_abs();
            let mut y = if i == last { r } else { r.linear_add(xl) };
            if k > 0 {
                // k x by doubling and adding (k public).
                let mut kx = *e;
                let top = 7 - k.leading_zeros();
                for bit in (0..top).rev() {
                    kx = kx.linear_add(kx);
                    if (k >> bit) & 1 == 1 {
                        kx = kx.linear_add(*e);
                    }
                }
                y = if c > 0 {
                    y.linear_add(kx)
                } else {
                    // SAFETY: a `Packed` exists only inside `permute_all` (see the type's docs).
                    let neg = unsafe { offset_minus(&kx.x, v) };
                    y.linear_add(Packed { x: neg, v })
                };
            }
            // SAFETY: as above.
            e.x = unsafe { reduce(&y.x, v) };
        }
    }
}

/// `offset - x` limb-wise ([`Vecs::offset`]; limb-wise non-negative for the `x` it is given).
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn offset_minus<const G: usize>(x: &[Fe; G], v: &Vecs) -> [Fe; G] {
    let mut out = *x;
    for o in out.iter_mut() {
        for (l, k) in o.0.iter_mut().zip(v.offset.0) {
            *l = _mm512_sub_epi64(k, *l);
        }
    }
    out
}

/// `sum_j row[j] · state[j]`: the 10-column products of every term summed unreduced, then one
/// [`redc`] and one [`reduce`].
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn dot<const G: usize>(row: &[[u64; LIMBS]], state: &[Packed<'_, G>], v: &Vecs) -> [Fe; G] {
    let mut t = [[v.zero; 2 * LIMBS]; G];
    for (c, x) in row.iter().zip(state) {
        mul_acc(&mut t, &x.x, &[broadcast(c); G]);
    }
    reduce(&redc(t, v), v)
}

/// `reduce(x + mont_mul(x0, w))`, `w` broadcast from kernel-form limbs.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn mul_add<const G: usize>(x: &[Fe; G], w: &[u64; LIMBS], x0: &[Fe; G], v: &Vecs) -> [Fe; G] {
    let mut sum = mont_mul(x0, &[broadcast(w); G], v);
    for (s, x) in sum.iter_mut().zip(x) {
        *s = s.linear_add(*x);
    }
    reduce(&sum, v)
}

/// Permutes `states` (a whole number of groups of 8 states of width `t`) in place, `GROUPS`
/// groups at a time, then a last odd group alone.
///
/// # Safety
/// The CPU must support avx512f, avx512dq and avx512ifma.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
unsafe fn permute_all<F: Field, const D: u64, R: Rounds>(
    states: &mut [F],
    t: usize,
    modulus: &Modulus,
    rounds: R,
) {
    let v = Vecs::new(modulus);
    let group = LANES * t;
    let mut pairs = states.chunks_exact_mut(GROUPS * group);
    for chunk in &mut pairs {
        permute_chunk::<F, D, GROUPS, R>(chunk, t, rounds, &v);
    }
    let rest = pairs.into_remainder();
    if !rest.is_empty() {
        permute_chunk::<F, D, 1, R>(rest, t, rounds, &v);
    }
}

/// Loads `G` groups of 8 states (`chunk`, flat), permutes them interleaved, stores them back.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn permute_chunk<F: Field, const D: u64, const G: usize, R: Rounds>(
    chunk: &mut [F],
    t: usize,
    rounds: R,
    v: &Vecs,
) {
    let group = LANES * t;
    let zero = Fe([v.zero; LIMBS]);
    let mut x = [Packed { x: [zero; G], v }; MAX_WIDTH];
    let x = &mut x[..t];
    let mut one = [zero; MAX_WIDTH];
    for (g, states) in chunk.chunks_exact(group).enumerate() {
        load(&mut one[..t], states, v);
        for (xi, &y) in x.iter_mut().zip(&one) {
            xi.x[g] = y;
        }
    }
    rounds.permute::<D, G>(x);
    for (g, states) in chunk.chunks_exact_mut(group).enumerate() {
        for (y, xi) in one.iter_mut().zip(&*x) {
            *y = xi.x[g];
        }
        store(&one[..t], states, v);
    }
}

/// Loads 8 states (flat, width `x.len()`) into kernel form, one [`Fe`] per element.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn load<F: Field>(x: &mut [Fe], states: &[F], v: &Vecs) {
    let t = x.len();
    for (i, xi) in x.iter_mut().enumerate() {
        let mut words = [[0u64; LANES]; 4];
        for lane in 0..LANES {
            let limbs = states[lane * t + i].to_montgomery_256(Sealed(())).unwrap_or_default();
            for (w, limb) in words.iter_mut().zip(limbs) {
                w[lane] = limb;
            }
        }
        let mut a = [v.zero; 4];
        for (a, w) in a.iter_mut().zip(&words) {
            // SAFETY: `w` is 8 initialized u64, exactly the 64 bytes an unaligned 512-bit load
            // reads.
            *a = unsafe { _mm512_loadu_epi64(w.as_ptr().cast()) };
        }
        let mask = v.mask;
        let limbs = Fe([
            _mm512_and_si512(a[0], mask),
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi64::<52>(a[0]), _mm512_slli_epi64::<12>(a[1])),
                mask,
            ),
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi64::<40>(a[1]), _mm512_slli_epi64::<24>(a[2])),
                mask,
            ),
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi64::<28>(a[2]), _mm512_slli_epi64::<36>(a[3])),
                mask,
            ),
            _mm512_srli_epi64::<16>(a[3]),
        ]);
        // ark's x 2^256 (< p) times 2^264 / 2^260: x 2^260, < 2p.
        *xi = mont_mul(&[limbs], &[v.to_kernel], v)[0];
    }
}

/// Stores 8 kernel-form states back as canonical field elements.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn store<F: Field>(x: &[Fe], states: &mut [F], v: &Vecs) {
    let t = x.len();
    for (i, xi) in x.iter().enumerate() {
        // x 2^260 times 2^256 / 2^260: ark's x 2^256, then canonical.
        let r = reduce(&[*xi], v);
        let l = canonical(&mont_mul(&r, &[v.from_kernel], v)[0], v).0;
        let a = [
            _mm512_or_si512(l[0], _mm512_slli_epi64::<52>(l[1])),
            _mm512_or_si512(_mm512_srli_epi64::<12>(l[1]), _mm512_slli_epi64::<40>(l[2])),
            _mm512_or_si512(_mm512_srli_epi64::<24>(l[2]), _mm512_slli_epi64::<28>(l[3])),
            _mm512_or_si512(_mm512_srli_epi64::<36>(l[3]), _mm512_slli_epi64::<16>(l[4])),
        ];
        let mut words = [[0u64; LANES]; 4];
        for (w, a) in words.iter_mut().zip(a) {
            // SAFETY: `w` is 8 u64, exactly the 64 bytes an unaligned 512-bit store writes.
            unsafe { _mm512_storeu_epi64(w.as_mut_ptr().cast(), a) };
        }
        for lane in 0..LANES {
            let limbs = [
                words[0][lane],
                words[1][lane],
                words[2][lane],
                words[3][lane],
            ];
            if let Some(y) = F::from_montgomery_256(limbs, Sealed(())) {
                states[lane * t + i] = y;
            }
        }
    }
}

#[cfg(all(test, feature = "bn254", feature = "bls12-381"))]
mod tests {
    //! The kernel's building blocks at the edges of their documented input ranges, on both
    //! moduli, against ark's scalar arithmetic.
    use super::*;
    use ark_ff::{BigInteger, Field as ArkField, PrimeField as ArkPrimeField};

    /// Whether to run; says so when the CPU lacks the backend.
    fn cpu_ok() -> bool {
        let ok = cpu_has_ifma();
        if !ok {
            std::eprintln!("NOTE: CPU lacks AVX-512 IFMA: kernel unit tests skipped");
        }
        ok
    }

    /// The integer `sum limbs[j] 2^(52 j)` reduced mod p, as an ark element.
    fn integer_mod_p<F: ArkPrimeField>(limbs: &[u64; LIMBS]) -> F {
        let two52 = F::from(1u64 << 52);
        limbs
            .iter()
            .rev()
            .fold(F::from(0u64), |acc, &l| acc * two52 + F::from(l))
    }

    /// The integer of normalized limbs, as four 64-bit words (it must be below 2^256).
    fn words(limbs: &[u64; LIMBS]) -> [u64; 4] {
        [
            limbs[0] | (limbs[1] << 52),
            (limbs[1] >> 12) | (limbs[2] << 40),
            (limbs[2] >> 24) | (limbs[3] << 28),
            (limbs[3] >> 36) | (limbs[4] << 16),
        ]
    }

    /// Runs `op` on vectors whose 8 lanes all hold `a` (and `b`), returning lane 0 (after
    /// checking all lanes agree).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    fn run(m: &Modulus, a: &[u64; LIMBS], b: &[u64; LIMBS], op: Op) -> [u64; LIMBS] {
        let v = Vecs::new(m);
        let (a, b) = (broadcast(a), broadcast(b));
        let r = match op {
            Op::Reduce => reduce(&[a], &v)[0],
            Op::Mul => mont_mul(&[a], &[b], &v)[0],
            Op::Square => mont_square(&[a], &v)[0],
            Op::Canonical => canonical(&a, &v),
        };
        let mut lanes = [[0u64; LANES]; LIMBS];
        for (l, r) in lanes.iter_mut().zip(r.0) {
            // SAFETY: `l` is 8 u64, exactly the 64 bytes an unaligned 512-bit store writes.
            unsafe { _mm512_storeu_epi64(l.as_mut_ptr().cast(), r) };
        }
        for l in &lanes {
            assert!(l.iter().all(|&x| x == l[0]));
        }
        core::array::from_fn(|j| lanes[j][0])
    }

    /// The building block under test.
    #[derive(Clone, Copy)]
    enum Op {
        Reduce,
        Mul,
        Square,
        Canonical,
    }

    /// `2p - 1` in 52-bit limbs: the largest value every multiplication input may take.
    fn two_p_minus_one(m: &Modulus) -> [u64; LIMBS] {
        let mut limbs = m.p;
        for l in limbs.iter_mut() {
            *l <<= 1;
        }
        limbs[0] -= 1;
        let mut out = [0; LIMBS];
        let mut carry = 0;
        for (o, l) in out.iter_mut().zip(limbs) {
            let x = l + carry;
            *o = x & MASK52;
            carry = x >> 52;
        }
        out[LIMBS - 1] += carry << 52;
        out
    }

    fn is_below_2p(r: &[u64; LIMBS], m: &Modulus) -> bool {
        let w = words(r);
        let two_p = words(&two_p_minus_one(m));
        r.iter().all(|&l| l <= MASK52) && w.iter().rev().le(two_p.iter().rev())
    }

    fn check_field<F: ArkPrimeField + Field>(crafted_top: u64) {
        let m = Modulus::of::<F>().expect("supported modulus");
        let r_inv = ArkField::inverse(&ArkField::pow(&F::from(2u64), [260])).unwrap();

        // reduce: the largest documented input, limbs 2^62 - 1 and value below 2^268.
        let big = [
            (1 << 62) - 1,
            (1 << 62) - 1,
            (1 << 62) - 1,
            (1 << 62) - 1,
            (1 << 60) - 1,
        ];
        // SAFETY: `cpu_ok()` confirmed the features `run` enables.
        let r = unsafe { run(&m, &big, &big, Op::Reduce) };
        assert!(is_below_2p(&r, &m), "reduce output below 2p and normalized");
        assert_eq!(integer_mod_p::<F>(&r), integer_mod_p::<F>(&big));

        // reduce: a top limb whose exact quotient `l_4 2^208 / p` lies just below an integer
        // (within 2^-58 of it; found with the continued fraction of `2^208 mod p` over `p`).
        // An estimate that rounds the quotient up instead of down takes one `p` too many here.
        let two208 = ArkField::pow(&F::from(2u64), [208]);
        let gap = -(F::from(crafted_top) * two208);
        assert!(
            ArkPrimeField::into_bigint(gap).num_bits() < 200,
            "the crafted top limb leaves l_4 2^208 just below a multiple of p"
        );
        let crafted = [0, 0, 0, 0, crafted_top];
        // SAFETY: `cpu_ok()` confirmed the features `run` enables.
        let r = unsafe { run(&m, &crafted, &crafted, Op::Reduce) };
        assert!(is_below_2p(&r, &m), "reduce output below 2p and normalized");
        assert_eq!(integer_mod_p::<F>(&r), integer_mod_p::<F>(&crafted));

        // mont_mul and mont_square: both inputs 2p - 1.
        let top = two_p_minus_one(&m);
        let top_mod_p = integer_mod_p::<F>(&top);
        let expected = top_mod_p * top_mod_p * r_inv;
        for op in [Op::Mul, Op::Square] {
            // SAFETY: `cpu_ok()` confirmed the features `run` enables.
            let r = unsafe { run(&m, &top, &top, op) };
            assert!(is_below_2p(&r, &m), "product below 2p and normalized");
            assert_eq!(integer_mod_p::<F>(&r), expected);
        }

        // canonical: 2p - 1 -> p - 1, p -> 0, p - 1 stays.
        let p_minus_one = {
            let mut l = m.p;
            l[0] -= 1;
            l
        };
        for (input, want) in [
            (top, p_minus_one),
            (m.p, [0; LIMBS]),
            (p_minus_one, p_minus_one),
        ] {
            // SAFETY: `cpu_ok()` confirmed the features `run` enables.
            let r = unsafe { run(&m, &input, &input, Op::Canonical) };
            assert_eq!(r, want);
        }
    }

    #[test]
    fn bn254_building_blocks_hold_their_bounds_at_the_extremes() {
        if cpu_ok() {
            check_field::<ark_bn254::Fr>(0x07af_3db1_2020_a866);
        }
    }

    #[test]
    fn bls12_381_building_blocks_hold_their_bounds_at_the_extremes() {
        if cpu_ok() {
            check_field::<ark_bls12_381::Fr>(0x0c69_9d1f_667f_adcf);
        }
    }
}
