//! AVX2 batch kernel for the 31-bit Montgomery fields ([`crate::field::monty31::Monty31`]:
//! BabyBear, KoalaBear; any odd `2^30 < p < 2^31` whose hook [`MONTY31_MODULUS`] answers).
//!
//! # Representation
//! A register holds element `i` of 8 states (lane `l` = state `l` of a vector group) as the
//! field's own stored word, `x 2^32 mod p` (Montgomery form, `R = 2^32`): loads and stores
//! convert nothing. Between the steps of the round driver every lane is canonical (`[0, p)`);
//! inside a step values may be *signed*: an `i32` in `(-p, p)` (or `[-p, p)`) congruent to the
//! element. `G` groups run interleaved as one [`Packed`] value (the last groups of a batch run
//! alone).
//!
//! # Speed
//! One group per step (`GROUPS = 1`); single-threaded on a shared Zen 3 (AVX2, no AVX-512),
//! ns per permutation of a 1024-state batch: BabyBear t = 16 about 280 (scalar about 2,200),
//! KoalaBear t = 16 about 260 (scalar about 1,500): about 1.7x Plonky3 0.8's AVX2 packing on
//! pre-packed states (`docs/benchmarks.md`). Not yet tried: products by the diagonal entries
//! with fewer multiplications (6 of the 8 `vpmul*` per element of a partial round are
//! there), interleaving two groups single-threaded, a register transpose for the gather and
//! scatter of the lanes (now one scalar move per element and state).
//!
//! # Constant time
//! No branch and no memory address depends on a lane's value: every correction is an unsigned
//! minimum (`vpminud`) or a sign-dependent addition (`vpsignd`) computed in every lane. The
//! kernel runs under valgrind's memcheck with secret states (`tests/constant_time.rs`).
//!
//! # Arithmetic and bounds (`p < 2^31`, so `2p < 2^32`; `p' = p^-1 mod 2^32`)
//! - [`add`] (canonical `a, b`): `s = a + b < 2p < 2^32` does not wrap; `min(s, s - p)` (as
//!   `u32`) is `s - p` when `s >= p`, and `s` when `s < p` (then `s - p` wraps to
//!   `>= 2^32 - p > p > s`). Three operations; the external layer and the sum of the internal
//!   layer are these additions only (`poseidon2::linear`'s layers on [`LinearOps`]).
//! - [`canonical`] (signed `d` in `(-p, p)`): `min(d, d + p)` as `u32`: `d >= 0` gives `d`
//!   (`d + p < 2p` does not wrap); `d < 0` is `>= 2^32 - p > p` as `u32`, and `d + p` in
//!   `(0, p)` is the smaller.
//! - [`add_signed`] (signed `d` in `(-p, p)`, canonical `s`): `r = d + s` is in `(-p, 2p)`;
//!   `sign(p, d)` is `p`, `-p` or `0` as `d` is positive, negative or zero, and
//!   `min(r, r - sign(p, d))` as `u32` is canonical: for `d > 0` as in [`add`]; for `d < 0`,
//!   `r >= 0` is below `r + p < 2p`, and a negative `r` (`>= 2^32 - p` as `u32`) is above
//!   `r + p` in `(0, p)`; for `d = 0`, `r = s`. Four operations, the `vpsignd` off the path of
//!   `s`.
//! - Montgomery product ([`reduce_half`]): the even and the odd 32-bit lanes are multiplied
//!   apart (`vpmuldq` reads the low 32 bits of each 64-bit lane as an `i32`; the odd elements are
//!   shifted down first). For signed `a, b` with `|a|, |b| <= p`, the exact `P = a b` has
//!   `|P| <= p^2 < 2^62`; `q = P p' mod 2^32` (low half of `vpmuludq`) taken as an `i32` gives
//!   `|q p| < 2^31 p`, and `P - q p` is a multiple of `2^32` (exact in `i64`), so
//!   `d = (P - q p) / 2^32` is the high half of the 64-bit difference, with
//!   `|d| < (p^2 + 2^31 p) / 2^32 < p`: a signed value in `(-p, p)`, `d = a b 2^-32 (mod p)`,
//!   the Montgomery product of the stored words. No correction is needed for the next product,
//!   so the S-box chain runs on signed values.
//! - Products by a constant `c` (the internal layer's diagonal): `q = P p' = x (c p') mod 2^32`
//!   with `c p' mod 2^32` precomputed (`kernel_form::monty31::word`), so `q` does not wait for
//!   `P` (same bounds: `c` canonical).
//! - Round constant and S-box ([`Packed::add_sbox`]): `x + (c - p)` for canonical `x, c` is in
//!   `[-p, p)`: a signed input in one addition (`c - p` precomputed). `x^d` ([`sbox_chain`],
//!   `d = 3, 5, 7, 11`) runs on the even and the odd halves kept apart ([`Halves`]), each
//!   product signed as above; the halves are joined and made canonical once at the end.
//! - Internal layer (`t >= 4`, [`Packed`]'s [`LinearLayers::internal_layer`]): `y_i = m_i x_i +
//!   s` as [`add_signed`] of the signed product `m_i x_i` and the canonical sum `s`.
//!
//! # Round structure
//! The crate's one round driver ([`permute`]) runs on [`Packed`] through [`RoundOps`]; the
//! external layer, the sum of the internal layer and the fixed t = 2, 3 internal matrices are
//! [`crate::poseidon2::linear`]'s, run on [`LinearOps`] with [`add`]. Round constants are
//! converted once per permutation value (its batch cache, see `crate::simd`) by
//! `field::kernel_form::monty31::word` and broadcast from memory where they are used.
//!
//! [`MONTY31_MODULUS`]: crate::field::Representation::MONTY31_MODULUS

use core::arch::x86_64::*;
use core::marker::PhantomData;

use crate::field::kernel_form::monty31::{Modulus, inverse};
use crate::field::{Field, Sealed, SboxOps, sbox_chain};
use crate::params::MAX_WIDTH;
use crate::poseidon2::batch_cache::{BatchBackend, Word};
use crate::poseidon2::linear::{
    DiagonalOps, LinearLayers, LinearOps, internal_layer_fixed, sum,
};
use crate::poseidon2::permutation::{RoundConstants, RoundOps, permute};

/// States per vector group: eight `u32` lanes of a 256-bit register.
const LANES: usize = 8;

/// Vector groups interleaved per kernel step.
const GROUPS: usize = 1;

/// Proof that this CPU runs AVX2: issued only by [`Cpu::detect`] after run-time detection.
#[derive(Clone, Copy)]
struct Cpu(());

impl Cpu {
    /// A token if the CPU has AVX2 (cached detection).
    fn detect() -> Option<Self> {
        std::is_x86_feature_detected!("avx2").then_some(Cpu(()))
    }
}

/// Eight `u32` lanes (AVX2). Made only by [`V::splat`] and [`V::load`], which take a [`Cpu`]
/// token, or from another value of the type: a value proves the CPU has AVX2.
#[derive(Clone, Copy)]
struct V(__m256i);

impl V {
    #[inline(always)]
    fn splat(_: Cpu, x: u32) -> Self {
        // SAFETY: the `Cpu` token proves avx2.
        V(unsafe { _mm256_set1_epi32(x as i32) })
    }
    /// `x` in every lane, on the CPU that made `self`.
    #[inline(always)]
    fn splat_like(self, x: u32) -> Self {
        V::splat(Cpu(()), x)
    }
    #[inline(always)]
    fn load(_: Cpu, words: &[u32; LANES]) -> Self {
        // SAFETY: the `Cpu` token proves avx2; `words` is the register's size.
        V(unsafe { _mm256_loadu_si256(words.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, words: &mut [u32; LANES]) {
        // SAFETY: `self` proves avx2; `words` is the register's size.
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), self.0) }
    }
    /// Lane-wise `self + rhs` mod `2^32`.
    #[inline(always)]
    fn add32(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_add_epi32(self.0, rhs.0) })
    }
    /// Lane-wise `self - rhs` mod `2^32`.
    #[inline(always)]
    fn sub32(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_sub_epi32(self.0, rhs.0) })
    }
    /// Lane-wise unsigned minimum.
    #[inline(always)]
    fn min(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_min_epu32(self.0, rhs.0) })
    }
    /// `self`, negated where `of < 0`, zero where `of = 0` (lane-wise, `i32`).
    #[inline(always)]
    fn sign_of(self, of: Self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_sign_epi32(self.0, of.0) })
    }
    /// 64-bit lanes: `self - rhs` mod `2^64`.
    #[inline(always)]
    fn sub64(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_sub_epi64(self.0, rhs.0) })
    }
    /// 64-bit lanes: `self >> 32` (the odd 32-bit element moved down).
    #[inline(always)]
    fn high_down(self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_srli_epi64::<32>(self.0) })
    }
    /// 64-bit lanes: `self << 32` (the even 32-bit element moved up).
    #[inline(always)]
    fn low_up(self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_slli_epi64::<32>(self.0) })
    }
    /// 64-bit lanes: the exact product of the low 32 bits of each, as `i32`s.
    #[inline(always)]
    fn mul_signed(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_mul_epi32(self.0, rhs.0) })
    }
    /// 64-bit lanes: the exact product of the low 32 bits of each, as `u32`s.
    #[inline(always)]
    fn mul_unsigned(self, rhs: Self) -> Self {
        // SAFETY: `self` proves avx2.
        V(unsafe { _mm256_mul_epu32(self.0, rhs.0) })
    }
    /// The even 32-bit elements of `self` and the odd ones of `odd`.
    #[inline(always)]
    fn blend_odd(self, odd: Self) -> Self {
        // SAFETY: `self` proves avx2. Mask bits 1, 3, 5, 7 select the odd elements of `odd`.
        V(unsafe { _mm256_blend_epi32::<0b1010_1010>(self.0, odd.0) })
    }
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

/// `a + b (mod p)`, canonical, for canonical `a, b` (proof in the module docs).
#[inline(always)]
fn add<F: Field>(a: V, b: V) -> V {
    let s = a.add32(b);
    s.min(s.sub32(a.splat_like(Consts::<F>::P)))
}

/// The canonical representative of a signed `d` in `(-p, p)`.
#[inline(always)]
fn canonical<F: Field>(d: V) -> V {
    d.min(d.add32(d.splat_like(Consts::<F>::P)))
}

/// `d + s (mod p)`, canonical, for a signed `d` in `(-p, p)` and a canonical `s`.
#[inline(always)]
fn add_signed<F: Field>(d: V, s: V) -> V {
    let correction = d.splat_like(Consts::<F>::P).sign_of(d);
    let r = d.add32(s);
    r.min(r.sub32(correction))
}

/// The 64-bit lanes `P - q p` with `q = q_factor mod 2^32` as an `i32`: the Montgomery product
/// `d` in their high halves (proof in the module docs).
#[inline(always)]
fn reduce_half<F: Field>(product: V, q_factor: V) -> V {
    product.sub64(q_factor.mul_signed(product.splat_like(Consts::<F>::P)))
}

/// The Montgomery product of the low 32-bit halves of the 64-bit lanes `a, b` (signed, at most
/// `p` in size), signed in `(-p, p)`, in the high halves.
#[inline(always)]
fn mul_half<F: Field>(a: V, b: V) -> V {
    let product = a.mul_signed(b);
    reduce_half::<F>(product, product.mul_unsigned(a.splat_like(Consts::<F>::P_INV)))
}

/// A round constant's kernel words (`kernel_form::monty31::word`) in every lane.
#[derive(Clone, Copy)]
struct Constant {
    /// The stored word `w`.
    value: V,
    /// `w p^-1 mod 2^32`.
    quotient: V,
}

impl Constant {
    #[inline(always)]
    fn broadcast(like: V, word: &Word) -> Self {
        Constant {
            value: like.splat_like(word[0] as u32),
            quotient: like.splat_like(word[1] as u32),
        }
    }
}

/// `x c (mod p)`, signed in `(-p, p)`, for a canonical or signed `x` and a [`Constant`] `c`:
/// the quotient `x (c p^-1)` does not wait for the product.
#[inline(always)]
fn mul_constant<F: Field>(x: V, c: Constant) -> V {
    let even = reduce_half::<F>(x.mul_signed(c.value), x.mul_unsigned(c.quotient));
    let x_odd = x.high_down();
    let odd = reduce_half::<F>(x_odd.mul_signed(c.value), x_odd.mul_unsigned(c.quotient));
    even.high_down().blend_odd(odd)
}

/// Element `i` of `G` vector groups, one register per group, canonical.
///
/// Its operations loop over the groups explicitly, and nothing on the kernel's path takes a
/// closure: a closure is compiled as a function of its own without the kernel's target
/// features, and every register operation in it would become a call.
struct Packed<F, const G: usize>([V; G], PhantomData<F>);

impl<F, const G: usize> Clone for Packed<F, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F, const G: usize> Copy for Packed<F, G> {}

/// The even and the odd elements of `G` registers, apart, as signed values in the low halves
/// of the 64-bit lanes (the S-box chain's form: no shuffle and no correction per product).
struct Halves<F, const G: usize>([(V, V); G], PhantomData<F>);

impl<F, const G: usize> Clone for Halves<F, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F, const G: usize> Copy for Halves<F, G> {}

impl<F: Field, const G: usize> SboxOps for Halves<F, G> {
    #[inline(always)]
    fn sbox_square(mut self) -> Self {
        for (even, odd) in &mut self.0 {
            *even = mul_half::<F>(*even, *even).high_down();
            *odd = mul_half::<F>(*odd, *odd).high_down();
        }
        self
    }
    #[inline(always)]
    fn sbox_mul(mut self, rhs: Self) -> Self {
        for ((even, odd), (even_r, odd_r)) in self.0.iter_mut().zip(rhs.0) {
            *even = mul_half::<F>(*even, even_r).high_down();
            *odd = mul_half::<F>(*odd, odd_r).high_down();
        }
        self
    }
}

impl<F: Field, const G: usize> RoundOps for Packed<F, G> {
    type Constant = Word;

    /// `(x + c)^D`: the signed input `x + (c - p)` in `[-p, p)`, the chain on its halves, one
    /// join and one correction (bounds in the module docs).
    #[inline(always)]
    fn add_sbox<const D: u64>(mut self, c: Word) -> Self {
        let shift = self.0[0].splat_like(c[2] as u32);
        let mut halves = Halves([(shift, shift); G], PhantomData);
        for (h, x) in halves.0.iter_mut().zip(&self.0) {
            let y = x.add32(shift);
            *h = (y, y.high_down());
        }
        let y = sbox_chain::<Halves<F, G>, D>(halves);
        for (x, (even, odd)) in self.0.iter_mut().zip(y.0) {
            *x = canonical::<F>(even.blend_odd(odd.low_up()));
        }
        self
    }
}

impl<F: Field, const G: usize> LinearOps for Packed<F, G> {
    #[inline(always)]
    fn linear_add(mut self, rhs: Self) -> Self {
        for (x, y) in self.0.iter_mut().zip(rhs.0) {
            *x = add::<F>(*x, y);
        }
        self
    }
}

/// Products by a diagonal entry for [`LinearLayers`]' supertrait; the override of
/// [`LinearLayers::internal_layer`] below fuses them with the sum's addition instead.
impl<F: Field, const G: usize> DiagonalOps<Word> for Packed<F, G> {
    #[inline(always)]
    fn mul_diagonal(mut self, m: &Word) -> Self {
        let m = Constant::broadcast(self.0[0], m);
        for x in &mut self.0 {
            *x = canonical::<F>(mul_constant::<F>(*x, m));
        }
        self
    }
}

/// The external layer is the generic one (additions only, [`add`]); the t >= 4 internal layer
/// adds the canonical sum to each signed product with one correction ([`add_signed`]).
impl<F: Field, const G: usize> LinearLayers<Word> for Packed<F, G> {
    /// Same shapes and length behaviour as [`crate::poseidon2::linear::internal_layer`].
    #[inline(always)]
    fn internal_layer(state: &mut [Self], diag_m1: &[Word]) {
        match state.len() {
            0 | 1 => {}
            2 | 3 => internal_layer_fixed(state),
            _ => {
                let s = sum(state);
                for (x, m) in state.iter_mut().zip(diag_m1) {
                    let m = Constant::broadcast(x.0[0], m);
                    for (x, &s) in x.0.iter_mut().zip(&s.0) {
                        *x = add_signed::<F>(mul_constant::<F>(*x, m), s);
                    }
                }
            }
        }
    }
}

/// [`BatchBackend::Avx2`] if `F` is a 31-bit Montgomery field and the CPU has AVX2.
pub(super) fn best<F: Field>() -> Option<BatchBackend> {
    Modulus::of::<F>()?;
    Cpu::detect().map(|_| BatchBackend::Avx2)
}

/// Whether `backend` is this module's and runs `F` on this CPU.
pub(super) fn runs<F: Field>(backend: BatchBackend) -> bool {
    backend == BatchBackend::Avx2 && best::<F>().is_some()
}

/// Runs every whole vector group of `states` (flat, width `t`) on `backend` when it is AVX2
/// and runs here, with the round constants `rc` in kernel form
/// (`field::kernel_form::monty31::word`), and returns the states left for the portable path.
pub(super) fn permute_batch<'a, F: Field, const D: u64>(
    states: &'a mut [F],
    t: usize,
    rc: RoundConstants<'_, Word>,
    backend: BatchBackend,
) -> &'a mut [F] {
    let group = LANES * t;
    let cpu = match (backend, Cpu::detect()) {
        (BatchBackend::Avx2, Some(cpu)) if t > 0 && states.len() >= group => cpu,
        _ => return states,
    };
    let (vector, rest) = states.split_at_mut(states.len() / group * group);
    // SAFETY: `cpu` was issued by `detect`: the CPU has avx2, all `entry` enables.
    unsafe { entry::<F, D>(cpu, vector, t, rc) };
    rest
}

/// The kernel compiled for AVX2. The shipped widths (16, 24) get a copy with `t` a
/// compile-time constant; any other width runs the same code with `t` read at run time.
#[target_feature(enable = "avx2")]
fn entry<F: Field, const D: u64>(
    cpu: Cpu,
    states: &mut [F],
    t: usize,
    rc: RoundConstants<'_, Word>,
) {
    match t {
        16 => permute_width::<F, D, GROUPS, 16>(cpu, states, t, rc),
        24 => permute_width::<F, D, GROUPS, 24>(cpu, states, t, rc),
        _ => permute_width::<F, D, GROUPS, 0>(cpu, states, t, rc),
    }
}

/// [`entry`] for the width `T` (`T = 0`: the width `t` read at run time): `G` groups at a time,
/// then the remaining groups one by one.
#[inline(always)]
fn permute_width<F: Field, const D: u64, const G: usize, const T: usize>(
    cpu: Cpu,
    states: &mut [F],
    t: usize,
    rc: RoundConstants<'_, Word>,
) {
    let t = if T == 0 { t } else { T };
    let group = LANES * t;
    let mut chunks = states.chunks_exact_mut(G * group);
    for chunk in &mut chunks {
        permute_chunk::<F, D, G>(cpu, chunk, t, rc);
    }
    for chunk in chunks.into_remainder().chunks_exact_mut(group) {
        permute_chunk::<F, D, 1>(cpu, chunk, t, rc);
    }
}

/// Loads `G` groups of states (`chunk`, flat, width `t`), permutes them interleaved, stores
/// them back (canonical words).
#[inline(always)]
fn permute_chunk<F: Field, const D: u64, const G: usize>(
    cpu: Cpu,
    chunk: &mut [F],
    t: usize,
    rc: RoundConstants<'_, Word>,
) {
    let zero = V::splat(cpu, 0);
    let mut x = [Packed::<F, G>([zero; G], PhantomData); MAX_WIDTH];
    let x = &mut x[..t];
    let group = LANES * t;
    for (g, states) in chunk.chunks_exact(group).enumerate() {
        for (i, xi) in x.iter_mut().enumerate() {
            let mut words = [0u32; LANES];
            for (w, state) in words.iter_mut().zip(states.chunks_exact(t)) {
                *w = state[i].to_monty31_word(Sealed(())).unwrap_or(0);
            }
            xi.0[g] = V::load(cpu, &words);
        }
    }
    permute::<Packed<F, G>, D>(x, rc);
    for (g, states) in chunk.chunks_exact_mut(group).enumerate() {
        for (i, xi) in x.iter().enumerate() {
            let mut words = [0u32; LANES];
            xi.0[g].store(&mut words);
            for (&w, state) in words.iter().zip(states.chunks_exact_mut(t)) {
                if let Some(y) = F::from_monty31_word(w, Sealed(())) {
                    state[i] = y;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The arithmetic steps against `i64` arithmetic on the extreme values (the bounds in the
    //! module docs are tight at these), for BabyBear and KoalaBear, when the CPU has AVX2.

    use super::*;
    use crate::babybear::BabyBear;
    use crate::koalabear::KoalaBear;
    use std::eprintln;
    use std::vec::Vec;

    /// The lanes of `v`, which must all be equal (every test splats one value, so the even
    /// and the odd lanes take their own paths to the same result).
    fn lanes(v: V) -> [u32; LANES] {
        let mut words = [0; LANES];
        v.store(&mut words);
        assert!(words.iter().all(|&w| w == words[0]), "lanes differ: {words:?}");
        words
    }

    /// A product's high halves in every 32-bit lane.
    fn join(d: V) -> V {
        d.high_down().blend_odd(d)
    }

    /// Signed values at and around the edges: `0`, `±1`, `±(p - 1)`, `-p` and canonical ones.
    fn edges(p: u32) -> [i64; 9] {
        let p = i64::from(p);
        [0, 1, -1, 2, p - 1, -(p - 1), -p, p / 2, -(p / 2)]
    }

    fn check<F: Field>() {
        let Some(cpu) = Cpu::detect() else {
            eprintln!("no avx2: 31-bit Montgomery arithmetic not tested");
            return;
        };
        let p = Consts::<F>::P;
        let (pi, r_inv) = (i64::from(p), {
            // 2^-32 mod p, as 2^(p - 1 - 32) by square-and-multiply.
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
        });
        let splat = |x: i64| V::splat(cpu, x as i32 as u32);
        let lane0 = |v: V| lanes(v)[0];
        let signed = |v: V| lanes(v)[0] as i32 as i64;
        let canonical_edges: Vec<i64> = edges(p).into_iter().filter(|&x| (0..pi).contains(&x)).collect();
        for a in edges(p) {
            let got = signed(join(mul_half::<F>(splat(a), splat(a))));
            assert!(got.abs() < pi, "square of {a}");
            assert_eq!((got - a * a % pi * r_inv).rem_euclid(pi), 0, "square of {a}");
            if a > -pi {
                let got = lane0(canonical::<F>(splat(a)));
                assert_eq!(i64::from(got), a.rem_euclid(pi), "canonical {a}");
            }
            for b in edges(p) {
                let got = signed(join(mul_half::<F>(splat(a), splat(b))));
                assert!(got.abs() < pi, "{a} * {b}");
                assert_eq!((got - (a * b) % pi * r_inv).rem_euclid(pi), 0, "{a} * {b}");
            }
            for &c in &canonical_edges {
                let word = [c as u64, (c as u32).wrapping_mul(Consts::<F>::P_INV) as u64, 0, 0, 0];
                let k = Constant::broadcast(splat(0), &word);
                if a > -pi {
                    let got = signed(mul_constant::<F>(splat(a), k));
                    assert!(got.abs() < pi, "{a} * constant {c}");
                    assert_eq!((got - (a * c) % pi * r_inv).rem_euclid(pi), 0, "{a} * {c}");
                    let got = i64::from(lane0(add_signed::<F>(splat(a), splat(c))));
                    assert_eq!(got, (a + c).rem_euclid(pi), "{a} + canonical {c}");
                }
                if (0..pi).contains(&a) {
                    let got = i64::from(lane0(add::<F>(splat(a), splat(c))));
                    assert_eq!(got, (a + c) % pi, "{a} + {c}");
                }
            }
        }
    }

    #[test]
    fn babybear_steps_are_exact_on_the_edges() {
        check::<BabyBear>();
    }

    #[test]
    fn koalabear_steps_are_exact_on_the_edges() {
        check::<KoalaBear>();
    }
}
