//! Limb arithmetic for ark-ff `MontBackend` fields: branch-free modular addition for every limb
//! count, and inlined Montgomery multiplication and squaring for four limbs.
//!
//! ark-ff finishes every addition with a data-dependent branch ("subtract the modulus if the
//! sum is >= p"). Inside a Poseidon2 permutation that branch goes each way about half the time
//! at random, and the mispredictions cost more than the arithmetic. [`add`] computes the same
//! canonical result (Montgomery form is linear, so limb-wise modular addition is exactly ark's
//! addition) with a masked select instead of a branch.
//!
//! ark-ff's multiplication and squaring are out-of-line calls that take and return their
//! operands through memory. [`mul_unreduced`] and [`square_unreduced`] are the same Montgomery
//! product (`a · b / 2^256 mod p`, CIOS with the "no-carry" shortcut for a modulus whose top
//! bit is clear) written to stay in registers once inlined, and they leave the final
//! conditional subtraction to the caller ([`reduce`]), so a chain of products can skip it where
//! the bounds below allow.
//!
//! Bounds, for a modulus `p < 2^255` and `R = 2^256`: both functions return a value congruent to
//! `a · b / R` (resp. `a^2 / R`) and below `a · b / R + p`. `mul_unreduced` needs `a + p < R`
//! (its running sum stays below `a + p`) and accepts any `b < R`; `square_unreduced` needs the
//! same `a + p < R` (the portable squaring needs only `a^2 / R + p < R`, which follows; the
//! MULX/ADX path squares with its multiplication, or, for the sparse Stark modulus, with its
//! own squaring, whose bound is the portable one). So with canonical `a` (`a < p`) both always
//! apply and return less than `2p`; if moreover `p < R / 4` (BN254), operands below `2p` give
//! results below `2p` too.
//!
//! On x86_64 CPUs with BMI2 and ADX both products run the MULX/ADX kernel of the private
//! `field::mulx_adx` module (detected at run time, about 1.7 times faster per product); the
//! portable functions here are the fallback and the oracle it is tested against. The four-limb
//! [`add`] of those fields likewise has an assembly twin there ([`add4`], called from
//! `field::ark`).

/// A four-limb modulus `p < 2^255` and `inv = -p^-1 mod 2^64` (ark's `MontConfig::INV`), the
/// constants of a Montgomery product. `#[repr(C)]`: the MULX/ADX kernel reads it as five words.
#[repr(C)]
pub(crate) struct Modulus {
    /// `p`, little-endian 64-bit limbs.
    pub(crate) limbs: [u64; 4],
    /// `-p^-1 mod 2^64`.
    pub(crate) inv: u64,
}

impl Modulus {
    /// Whether `p = 1 + p_3 2^192` (limbs `[1, 0, 0, p_3]`, the Stark field `2^251 + 17 · 2^192 +
    /// 1`): then `inv = -1`, each reduction step's quotient digit is the negated low word and
    /// `k · p = k + k p_3 2^192` has two non-zero limbs, so a step costs one product instead of
    /// four and the digit's `imul` ([`mul_sparse_portable`], `field::mulx_adx::mul_sparse`).
    /// The moduli are constants, so after inlining the test folds away.
    #[inline(always)]
    pub(crate) const fn is_sparse(&self) -> bool {
        self.limbs[0] == 1 && self.limbs[1] == 0 && self.limbs[2] == 0
    }

    /// How many canonical values may be summed without reduction before one [`reduce_sparse`]
    /// (their sum stays below `2^256`): `floor((2^64 - 1) / (p_3 + 1))`, 31 for the Stark field.
    /// 0 where [`reduce_sparse`] does not apply: a modulus that is not sparse, or whose top limb
    /// `p_3` (top bit `b`) lets a quotient digit `q < 2^(64 - b)` overflow `q p_3 < 2^64` or
    /// `q (p - 2^(192 + b)) < p`, the two facts [`reduce_sparse`] rests on.
    pub(crate) const fn sparse_terms(&self) -> u64 {
        let p3 = self.limbs[3];
        if !self.is_sparse() || p3 == 0 || p3 >> 63 != 0 {
            return 0;
        }
        let b = 63 - p3.leading_zeros();
        let q_max = (u64::MAX >> b) as u128;
        let fits = q_max * p3 as u128 <= u64::MAX as u128;
        let one_correction = q_max * ((p3 - (1 << b)) as u128 + 1) <= p3 as u128;
        if fits && one_correction {
            u64::MAX / (p3 + 1)
        } else {
            0
        }
    }
}

/// The largest `|d_i|` of a linear layer `J + diag(d)` that [`Limbs4`] evaluates with additions
/// (StarkWare's matrices have `|d_i| <= 5`).
pub(crate) const MAX_DIAGONAL: i8 = 16;

/// `x - p mod 2^(64 N)`, and whether it borrowed (`x < p`); `p` may be any `N`-limb value.
///
/// Each limb is one `u128` difference ([`sbb`]), for the reason given at [`add_carry`]: with
/// two `overflowing_sub`s per limb the SLP vectoriser moves the limbs through AVX-512 registers
/// under `-C target-cpu=native`.
#[inline(always)]
pub(crate) fn sub_p<const N: usize>(x: &[u64; N], p: &[u64; N]) -> ([u64; N], bool) {
    let mut diff = [0u64; N];
    let mut borrow = 0;
    for i in 0..N {
        (diff[i], borrow) = sbb(x[i], p[i], borrow);
    }
    (diff, borrow != 0)
}

/// `x - p` if `x >= p` (or if `carry` says `x` overflowed `N` limbs), else `x`, without a branch.
#[inline(always)]
fn reduce_once<const N: usize>(x: [u64; N], carry: u64, p: &[u64; N]) -> [u64; N] {
    let (diff, borrow) = sub_p(&x, p);
    // Keep `x` exactly when the subtraction borrowed and `x` did not overflow (x < p).
    let keep_x = 0u64.wrapping_sub(u64::from(borrow) & (carry ^ 1));
    core::array::from_fn(|i| (x[i] & keep_x) | (diff[i] & !keep_x))
}

/// `(a + b) mod p` for canonical `a`, `b`.
#[inline(always)]
pub(crate) fn add<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
    let (sum, carry) = add_carry(a, b);
    reduce_once(sum, u64::from(carry), p)
}

/// `(a + b) mod p` for canonical `a`, `b` and a four-limb `p < 2^255`: [`add`], in baseline
/// x86_64 assembly where the MULX/ADX module is compiled (`field::mulx_adx::add`, so that no
/// target CPU's code generation reschedules or vectorises its carry chains), else portable.
#[inline(always)]
pub(crate) fn add4(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    #[cfg(fast_poseidon2_simd)]
    return super::mulx_adx::add(a, b, m);
    #[allow(unreachable_code)]
    add(a, b, &m.limbs)
}

/// `a + b mod 2^(64 N)`, and whether it carried out.
///
/// Each limb is one `u128` sum ([`adc`]), not two `overflowing_add`s: with those, under AVX-512
/// (`-C target-cpu=native`) the SLP vectoriser did the `N` independent first additions
/// `a[i] + b[i]` in one ymm register (`vpaddq`, carries by `vpcmpltuq` into a mask register),
/// then moved every limb and carry back with `vpextrq`/`kmovd` to propagate the carries one
/// limb at a time with `setb`/`or`, so the addition that feeds each Montgomery product took
/// longer than the plain `add`/`adc` chain (BLS12-381 permutations about 10% slower than the
/// default build). A `u128` addition is too expensive for it to vectorise.
#[inline(always)]
fn add_carry<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], bool) {
    let mut sum = [0u64; N];
    let mut carry = 0;
    for i in 0..N {
        (sum[i], carry) = adc(a[i], b[i], carry);
    }
    (sum, carry != 0)
}

/// `a + b` without reduction, for `a + b < 2^256` (the caller's bound).
#[inline(always)]
pub(crate) fn add_unreduced(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    add_carry(a, b).0
}

/// The canonical sum of up to four canonical values, for `p < 2^254` and `p2 = 2p`: added
/// without reduction (below `4p < 2^256`), then reduced by `2p` and by `p`, branch-free.
#[inline(always)]
pub(crate) fn sum_reduced(
    xs: impl Iterator<Item = [u64; 4]>,
    p: &[u64; 4],
    p2: &[u64; 4],
) -> [u64; 4] {
    let s = xs.fold([0u64; 4], |acc, x| add_unreduced(&acc, &x));
    reduce_once(reduce_once(s, 0, p2), 0, p)
}

/// The canonical representative of `x < 2p`: `x - p` where that subtraction does not borrow,
/// else `x`, chosen by a select, not a branch (no timing depends on `x`). In baseline x86_64
/// assembly where the MULX/ADX module is compiled (`field::mulx_adx::reduce`: `sub`/`sbb`,
/// `cmovnc`, so that no compiler turns the select back into a branch), else [`reduce_once`]'s
/// masks.
#[inline(always)]
pub(crate) fn reduce(x: [u64; 4], m: &Modulus) -> [u64; 4] {
    #[cfg(fast_poseidon2_simd)]
    return super::mulx_adx::reduce(x, m);
    #[allow(unreachable_code)]
    reduce_once(x, 0, &m.limbs)
}

/// `v mod p` for any `v < 2^256` and a modulus with [`Modulus::sparse_terms`] `> 0` (the Stark
/// field), canonical, without a branch: with `b` the top bit of `p_3`, the quotient digit
/// `q = floor(v / 2^(192 + b))` (one shift) makes `v - q 2^(192 + b)` less than `2^(192 + b) <= p`,
/// and `q p = q + q p_3 2^192` (two non-zero limbs) exceeds `q 2^(192 + b)` by less than `p`
/// (`sparse_terms`' conditions); so `v - q p` lies in `(-p, p)` and one addition of `p`, masked
/// by the borrow, makes it canonical. In baseline x86_64 assembly where the MULX/ADX module is
/// compiled (`field::mulx_adx::reduce_sparse`), else [`reduce_sparse_portable`]: the same value.
#[inline(always)]
pub(crate) fn reduce_sparse(v: [u64; 4], m: &Modulus) -> [u64; 4] {
    let q = v[3] >> (63 - m.limbs[3].leading_zeros());
    #[cfg(fast_poseidon2_simd)]
    return super::mulx_adx::reduce_sparse(v, q, m);
    #[allow(unreachable_code)]
    reduce_sparse_portable(v, q, m)
}

/// [`reduce_sparse`] in portable Rust, with its quotient digit `q` computed: `v - (q, 0, 0, q p_3)`
/// by a borrow chain, then `p` masked by the borrow added back.
#[inline(always)]
pub(crate) fn reduce_sparse_portable(v: [u64; 4], q: u64, m: &Modulus) -> [u64; 4] {
    let (d, borrow) = sub_p(&v, &[q, 0, 0, q.wrapping_mul(m.limbs[3])]);
    plus_p_if(d, borrow, m)
}

/// `d + p mod 2^256` if `borrow`, else `d`: `p` masked, not a branch.
#[inline(always)]
fn plus_p_if(mut d: [u64; 4], borrow: bool, m: &Modulus) -> [u64; 4] {
    let mask = 0u64.wrapping_sub(u64::from(borrow));
    let mut carry = 0;
    for (d, &p) in d.iter_mut().zip(&m.limbs) {
        (*d, carry) = adc(*d, p & mask, carry);
    }
    d
}

/// The canonical integer `x` of the Montgomery form `a = x · 2^(64 N) mod p`, for `a < p`:
/// `N` reduction steps, each adding the multiple `k · p` (`k = t_0 · inv`, `inv = -p^-1 mod
/// 2^64`) that clears the low limb and shifting one limb out. The result is
/// `(a + m p) / 2^(64 N)` for some `m < 2^(64 N)`, below `(p + 2^(64 N) p) / 2^(64 N) < p + 1`,
/// and equal to `p` only for `a ≡ 0`, i.e. `a = 0`: it is canonical with no final subtraction.
/// Each step's running value is below `2^64 (p + 1)`, so the carry out of its top limb is the
/// new top limb.
#[inline]
pub(crate) fn from_montgomery<const N: usize>(a: &[u64; N], p: &[u64; N], inv: u64) -> [u64; N] {
    let mut r = *a;
    for _ in 0..N {
        let k = r[0].wrapping_mul(inv);
        let (_, mut carry) = mac(r[0], k, p[0], 0);
        for j in 1..N {
            (r[j - 1], carry) = mac(r[j], k, p[j], carry);
        }
        r[N - 1] = carry;
    }
    r
}

/// `acc + a · b + carry` as (low, high) words; never overflows 128 bits.
#[inline(always)]
fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = u128::from(acc) + u128::from(a) * u128::from(b) + u128::from(carry);
    (t as u64, (t >> 64) as u64)
}

/// `a - b - borrow` mod 2^64, and the borrow out (0 or 1), for `borrow` 0 or 1.
#[inline(always)]
fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = u128::from(a)
        .wrapping_sub(u128::from(b))
        .wrapping_sub(u128::from(borrow));
    (t as u64, (t >> 127) as u64)
}

/// `a + b + carry` as (low, high) words.
#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = u128::from(a) + u128::from(b) + u128::from(carry);
    (t as u64, (t >> 64) as u64)
}

/// `a · b / 2^256 mod p`, below `a · b / 2^256 + p`, for `a + p < 2^256` and any `b`
/// (module docs). Runs the MULX/ADX kernel where the CPU has it
/// (`field::mulx_adx`), else [`mul_portable`]. The kernel reads `a` from memory
/// and keeps `b` in registers, so where both orders meet the bound, the operand computed longer
/// ago goes first: a value stored just before it is read waits for the store.
#[inline(always)]
pub(crate) fn mul_unreduced(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    Detected::mul(a, b, m)
}

/// How the four-limb Montgomery products are computed: [`mul_unreduced`]'s and
/// [`square_unreduced`]'s contracts (result and bounds), by one backend, a zero-sized type:
/// [`Portable`], `field::mulx_adx::MulxAdx` (the kernel; its only value comes from a CPU check,
/// and code is instantiated with it only through that value, [`with_arith`]), and [`Detected`]
/// (checks the CPU on every product). Code generic over `Arith` run through [`with_arith`]
/// checks the CPU once, then runs a copy compiled for one backend, with no check or branch per
/// product.
pub(crate) trait Arith: Copy {
    /// [`mul_unreduced`].
    fn mul(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4];
    /// [`square_unreduced`].
    fn square(a: &[u64; 4], m: &Modulus) -> [u64; 4];
}

/// The portable products ([`mul_portable`], [`square_portable`], or their sparse-modulus forms).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Arith for Portable {
    #[inline(always)]
    fn mul(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
        if m.is_sparse() {
            return mul_sparse_portable(a, b, m);
        }
        mul_portable(a, b, m)
    }
    #[inline(always)]
    fn square(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
        if m.is_sparse() {
            return square_sparse_portable(a, m);
        }
        square_portable(a, m)
    }
}

/// The MULX/ADX kernel where the CPU has it, else [`Portable`], checked on every product.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detected;

impl Arith for Detected {
    #[inline(always)]
    fn mul(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
        #[cfg(fast_poseidon2_simd)]
        if super::mulx_adx::MulxAdx::detect().is_some() {
            return super::mulx_adx::MulxAdx::mul(a, b, m);
        }
        Portable::mul(a, b, m)
    }
    #[inline(always)]
    fn square(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
        #[cfg(fast_poseidon2_simd)]
        if super::mulx_adx::MulxAdx::detect().is_some() {
            return super::mulx_adx::MulxAdx::square(a, m);
        }
        Portable::square(a, m)
    }
}

/// Code to run with one [`Arith`] backend ([`with_arith`]): a generic method, which a closure
/// cannot be.
pub(crate) trait WithArith {
    /// What the code returns.
    type Output;
    /// Runs the code with the products of `arith`'s type.
    fn run<B: Arith>(self, arith: B) -> Self::Output;
}

/// Runs `code` with the MULX/ADX kernel if the CPU has it, else with [`Portable`]: one CPU
/// check, then a copy of `code` compiled for that backend alone.
#[inline(always)]
pub(crate) fn with_arith<W: WithArith>(code: W) -> W::Output {
    #[cfg(fast_poseidon2_simd)]
    if let Some(kernel) = super::mulx_adx::MulxAdx::detect() {
        return code.run(kernel);
    }
    code.run(Portable)
}

/// [`mul_unreduced`] in portable Rust: CIOS with the "no-carry" shortcut.
#[inline(always)]
pub(crate) fn mul_portable(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let (p, inv) = (&m.limbs, m.inv);
    let mut r = [0u64; 4];
    for &bi in b {
        let (r0, mut c1) = mac(r[0], a[0], bi, 0);
        let k = r0.wrapping_mul(inv);
        let (_, mut c2) = mac(r0, k, p[0], 0);
        for j in 1..4 {
            let (rj, c) = mac(r[j], a[j], bi, c1);
            c1 = c;
            let (rj, c) = mac(rj, k, p[j], c2);
            c2 = c;
            r[j - 1] = rj;
        }
        // The running value `r + (c1 + c2) 2^192` is below `a + p < 2^256`: no carry out.
        r[3] = c1.wrapping_add(c2);
    }
    r
}

/// `1` if `x != 0`, else `0`, without a branch (`x | -x` has its top bit set exactly when
/// `x != 0`).
#[inline(always)]
fn nonzero(x: u64) -> u64 {
    (x | x.wrapping_neg()) >> 63
}

/// One reduction step for `p = 1 + p3 2^192` ([`Modulus::is_sparse`]) on the running value
/// `w[0..5]`: the digit `k = -w_0 mod 2^64` makes `w + k p` divisible by `2^64` (`w_0 + k` is
/// `2^64` or 0: the carry is `w_0 != 0`), and `k p = k + k p3 2^192` touches words 0 and 3..=4
/// only. Returns `(w + k p) / 2^64` in four words; the callers keep `w + k p` below `2^320`.
#[inline(always)]
fn sparse_step(w: [u64; 5], p3: u64) -> [u64; 4] {
    let k = w[0].wrapping_neg();
    let (w1, c) = adc(w[1], 0, nonzero(w[0]));
    let (w2, c) = adc(w[2], 0, c);
    let (w3, c) = mac(w[3], k, p3, c);
    // The value stays below 2^320 (the callers' bounds), so nothing carries out of word 4.
    [w1, w2, w3, w[4].wrapping_add(c)]
}

/// [`mul_portable`] for a sparse modulus ([`Modulus::is_sparse`]): the same CIOS rows, each
/// followed by [`sparse_step`] (one product instead of four plus the digit's). Same result and
/// bounds: each step adds `k p` with `k < 2^64`, exactly as the generic step does.
#[inline(always)]
pub(crate) fn mul_sparse_portable(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let p3 = m.limbs[3];
    let mut r = [0u64; 4];
    for &bi in b {
        let mut w = [0u64; 5];
        let mut c = 0;
        for j in 0..4 {
            (w[j], c) = mac(r[j], a[j], bi, c);
        }
        w[4] = c;
        r = sparse_step(w, p3);
    }
    r
}

/// [`square_portable`] for a sparse modulus: the same 512-bit square `w` ([`square_wide`]), its
/// low half reduced by four [`sparse_step`]s to `L = (w_low + K p) / 2^256 <= p` (each step's
/// value stays below `2^256 + p`, four words), then `L + w_high = (w + K p) / 2^256`, the value the
/// generic reduction gives (same digits `K`), below `2^256` for `a + p < 2^256`.
#[inline(always)]
pub(crate) fn square_sparse_portable(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let w = square_wide(a);
    let mut low = [w[0], w[1], w[2], w[3]];
    for _ in 0..4 {
        low = sparse_step([low[0], low[1], low[2], low[3], 0], m.limbs[3]);
    }
    add_carry(&low, &[w[4], w[5], w[6], w[7]]).0
}

/// `a^2 / 2^256 mod p`, below `a^2 / 2^256 + p`, for `a + p < 2^256` (module docs). The
/// MULX/ADX kernel's product `a · a` where the CPU has it (`field::mulx_adx`),
/// else [`square_portable`].
#[inline(always)]
pub(crate) fn square_unreduced(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
    Detected::square(a, m)
}

/// [`square_unreduced`] in portable Rust: the 512-bit square from 6 cross products (doubled)
/// and 4 diagonal ones, then a Montgomery reduction; it needs only `a^2 / 2^256 + p < 2^256`,
/// which `a + p < 2^256` implies.
#[inline(always)]
pub(crate) fn square_portable(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let (p, inv) = (&m.limbs, m.inv);
    let mut w = square_wide(a);
    // Montgomery reduction: the total stays below 2^512, so the last carry is zero.
    let mut c2 = 0;
    for i in 0..4 {
        let k = w[i].wrapping_mul(inv);
        let (_, mut c) = mac(w[i], k, p[0], 0);
        for j in 1..4 {
            (w[i + j], c) = mac(w[i + j], k, p[j], c);
        }
        (w[i + 4], c2) = adc(w[i + 4], c, c2);
    }
    [w[4], w[5], w[6], w[7]]
}

/// The 512-bit square of `a`: 6 cross products (doubled) and 4 diagonal ones.
#[inline(always)]
fn square_wide(a: &[u64; 4]) -> [u64; 8] {
    let mut w = [0u64; 8];
    // Cross products a_i a_j, i < j.
    for i in 0..3 {
        let mut c = 0;
        for j in (i + 1)..4 {
            (w[i + j], c) = mac(w[i + j], a[i], a[j], c);
        }
        w[i + 4] = c;
    }
    // Doubled, then the diagonal squares added.
    w[7] = w[6] >> 63;
    for k in (2..7).rev() {
        w[k] = (w[k] << 1) | (w[k - 1] >> 63);
    }
    w[1] <<= 1;
    let mut c = 0;
    for i in 0..4 {
        let (lo, hi) = mac(w[2 * i], a[i], a[i], c);
        w[2 * i] = lo;
        (w[2 * i + 1], c) = adc(w[2 * i + 1], hi, 0);
    }
    w
}

/// `x^D`, canonical, with the chains of [`crate::field::Field::sbox`] (`D` in 3, 5, 7, 11), for
/// canonical `x`, or for any `x < 2p` if `lazy`, with the products of `B`. Intermediate
/// values skip the conditional subtraction wherever the module bounds allow: only the operands
/// squared or used as the left factor are reduced, and only when `lazy` is false (`lazy`
/// requires `p < 2^254`).
#[inline(always)]
pub(crate) fn sbox<const D: u64, B: Arith>(x: &[u64; 4], m: &Modulus, lazy: bool) -> [u64; 4] {
    let left = |v: [u64; 4]| if lazy { v } else { reduce(v, m) };
    // The older operand goes first (see `mul_unreduced`): `x`, then `x3`.
    let x2 = B::square(x, m);
    let y = match D {
        3 => B::mul(x, &x2, m),
        5 => B::mul(x, &B::square(&left(x2), m), m),
        7 => {
            let x3 = left(B::mul(x, &x2, m));
            B::mul(&x3, &B::square(&left(x2), m), m)
        }
        _ => {
            let x3 = left(B::mul(x, &x2, m));
            let x4 = left(B::square(&left(x2), m));
            B::mul(&x3, &B::square(&x4, m), m)
        }
    };
    reduce(y, m)
}

/// The linear layer `J + diag(d)` (all ones plus a small integer diagonal, StarkWare's MDS
/// matrices) on the limbs of a field stored as four Montgomery limbs below `p < 2^255`
/// ([`crate::field::Representation::MONTGOMERY_256_MODULUS`]), with modular additions and
/// subtractions only: Montgomery form is linear, so `y_i = sum_j x_j + d_i x_i` on the limbs is
/// the same on the values. Every intermediate value is canonical (branch-free [`add4`],
/// [`sub4`]); no branch or address depends on a value (the branches are on `d`, public).
pub(crate) struct Limbs4<F>(core::marker::PhantomData<F>);

impl<F: crate::field::Field> Limbs4<F> {
    /// The modulus when `F` qualifies (`inv` from Newton's iteration: 3 correct low bits for
    /// any odd `p_0`, doubled five times).
    const MODULUS: Option<Modulus> = match F::MONTGOMERY_256_MODULUS {
        Some(p) if p[3] >> 63 == 0 && p[0] & 1 == 1 => {
            let mut inv = p[0];
            let mut i = 0;
            while i < 5 {
                inv = inv.wrapping_mul(2u64.wrapping_sub(p[0].wrapping_mul(inv)));
                i += 1;
            }
            Some(Modulus {
                limbs: p,
                inv: inv.wrapping_neg(),
            })
        }
        _ => None,
    };

    /// Whether [`Self::mix_ones_plus_diagonal`] applies to `F`.
    pub(crate) const SUPPORTED: bool = Self::MODULUS.is_some();

    /// [`Modulus::sparse_terms`] of `F`'s modulus (0 where `F` does not qualify).
    const SPARSE_TERMS: u64 = match &Self::MODULUS {
        Some(m) => m.sparse_terms(),
        None => 0,
    };

    /// `state <- (J + diag(d)) · state`, `|d_i| <=` [`MAX_DIAGONAL`], computed as
    /// `y_i = s + d_i x_i` (`i != l`) with `s = r + x_l`, and `y_l = r + (1 + d_l) x_l`, with `r`
    /// the sum of every element but `x_l = x_last`: the newest element enters `y_l` by one
    /// operation (after its `(1 + d_l) x_l`), the other outputs through the one sum `s` (their
    /// `d_i x_i` are ready before it), `2t - 1` modular operations plus the small multiples.
    /// Where the modulus leaves room for `t + 16` unreduced terms ([`Modulus::sparse_terms`]:
    /// the Stark field up to t = 15), the sums and multiples are plain integer additions and
    /// each output takes one [`reduce_sparse`]. Element by element, in registers (no scratch
    /// array). Does nothing when `F` does not qualify (never called then:
    /// `ScheduleOps::ADDITIONS_ONLY`).
    #[inline(always)]
    pub(crate) fn mix_ones_plus_diagonal(state: &mut [F], d: &[i8], last: usize) {
        Self::mix_elements(state, d, last, Self::limbs, |e, y| {
            if let Some(out) = F::from_montgomery_256(y, crate::field::Sealed(())) {
                *e = out;
            }
        });
    }

    /// [`Self::mix_ones_plus_diagonal`] on any element type, read and written as limbs by `get`
    /// and `set` (the field itself, or [`Mont4`]).
    #[inline(always)]
    fn mix_elements<E: Copy>(
        state: &mut [E],
        d: &[i8],
        last: usize,
        get: impl Fn(E) -> [u64; 4] + Copy,
        set: impl Fn(&mut E, [u64; 4]) + Copy,
    ) {
        let Some(m) = const { &Self::MODULUS }.as_ref() else {
            return;
        };
        let Some(&xl) = state.get(last) else {
            return;
        };
        // Where the modulus has room for every term (the Stark field: `t + 16 <= 31`), the
        // sums stay unreduced and each output is reduced once ([`reduce_sparse`]).
        let lazy = state.len() as u64 + MAX_DIAGONAL as u64 <= const { Self::SPARSE_TERMS };
        let plus = |a: &[u64; 4], b: &[u64; 4]| {
            if lazy {
                add_unreduced(a, b)
            } else {
                add4(a, b, m)
            }
        };
        let mut r: Option<[u64; 4]> = None;
        for (i, &e) in state.iter().enumerate() {
            if i != last {
                let x = get(e);
                r = Some(r.map_or(x, |r| plus(&r, &x)));
            }
        }
        let r = r.unwrap_or([0; 4]);
        let sums = Sums {
            d,
            last,
            r,
            s: plus(&r, &get(xl)),
            m,
            lazy,
        };
        // The first outputs by straight-line calls, the rest in a loop: in a call with a
        // constant `i` on an instance in a `static`, `d_i` is a compile-time constant and its
        // branches fold away (the compiler does not unroll a loop over this body by itself).
        let element = |state: &mut [E], i| mix_element(state, i, &sums, get, set);
        element(state, 0);
        element(state, 1);
        element(state, 2);
        element(state, 3);
        for i in 4..state.len() {
            element(state, i);
        }
    }

    /// The four Montgomery limbs of `e` (zeros if `F` has none: never, where this is called).
    #[inline(always)]
    fn limbs(e: F) -> [u64; 4] {
        e.to_montgomery_256(crate::field::Sealed(()))
            .unwrap_or_default()
    }
}

/// A state element of a four-limb Montgomery field `F` ([`Limbs4::SUPPORTED`]) held as its
/// canonical limbs, with its products on the backend `B` ([`Arith`]): the element type the
/// Poseidon1 round driver runs on after one CPU check ([`with_arith`]), so that no product
/// checks the CPU again. Every operation gives the limbs of the same canonical value as `F`'s
/// own (same products, same operand order, same reductions).
pub(crate) struct Mont4<F, B> {
    limbs: [u64; 4],
    types: core::marker::PhantomData<fn() -> (F, B)>,
}

impl<F, B> Clone for Mont4<F, B> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<F, B> Copy for Mont4<F, B> {}

impl<F: crate::field::Field, B: Arith> Mont4<F, B> {
    /// `e` with the products of `B` (whose value `_arith` shows that it may run here).
    #[inline(always)]
    pub(crate) fn new(e: F, _arith: B) -> Self {
        Self::with_limbs(Limbs4::<F>::limbs(e))
    }

    #[inline(always)]
    fn with_limbs(limbs: [u64; 4]) -> Self {
        Mont4 {
            limbs,
            types: core::marker::PhantomData,
        }
    }

    /// The field element (`None` only if `F` is not a four-limb Montgomery field).
    #[inline(always)]
    pub(crate) fn get(self) -> Option<F> {
        F::from_montgomery_256(self.limbs, crate::field::Sealed(()))
    }

    /// `self + c` (`F::add`).
    #[inline(always)]
    pub(crate) fn plus(self, c: F) -> Self {
        let Some(m) = const { &Limbs4::<F>::MODULUS }.as_ref() else {
            return self;
        };
        Self::with_limbs(add4(&self.limbs, &Limbs4::<F>::limbs(c), m))
    }

    /// `self^D` (`F::sbox`: the same chain, unreduced where `p < 2^254` allows).
    #[inline(always)]
    pub(crate) fn power<const D: u64>(self) -> Self {
        let Some(m) = const { &Limbs4::<F>::MODULUS }.as_ref() else {
            return self;
        };
        let lazy = m.limbs[3] >> 62 == 0;
        Self::with_limbs(sbox::<D, B>(&self.limbs, m, lazy))
    }

    /// `self + w x` (`self.add(w.mul(x))` on `F`).
    #[inline(always)]
    pub(crate) fn plus_product(self, w: F, x: Self) -> Self {
        let Some(m) = const { &Limbs4::<F>::MODULUS }.as_ref() else {
            return self;
        };
        let product = reduce(B::mul(&x.limbs, &Limbs4::<F>::limbs(w), m), m);
        Self::with_limbs(add4(&self.limbs, &product, m))
    }

    /// `sum_j row[j] · state[j]` over the shorter of the two, from zero.
    #[inline(always)]
    pub(crate) fn dot(row: &[F], state: &[Self]) -> Self {
        row.iter()
            .zip(state)
            .fold(Self::with_limbs([0; 4]), |acc, (&w, &x)| {
                acc.plus_product(w, x)
            })
    }

    /// [`Limbs4::mix_ones_plus_diagonal`] on these elements.
    #[inline(always)]
    pub(crate) fn mix_ones_plus_diagonal(state: &mut [Self], d: &[i8], last: usize) {
        Limbs4::<F>::mix_elements(state, d, last, |e| e.limbs, |e, y| e.limbs = y);
    }
}

/// What every output of [`Limbs4::mix_ones_plus_diagonal`] shares.
#[derive(Clone, Copy)]
struct Sums<'a> {
    /// The diagonal `d`.
    d: &'a [i8],
    /// The index `l` of the element added last.
    last: usize,
    /// The sum of every element but `x_l`.
    r: [u64; 4],
    /// `r + x_l`, the sum of every element.
    s: [u64; 4],
    m: &'a Modulus,
    /// Whether the sums are plain integers (below `(t + 16) p < 2^256`, [`Modulus::sparse_terms`])
    /// and each output is reduced once by [`reduce_sparse`]; else every value is canonical.
    lazy: bool,
}

impl Sums<'_> {
    /// `a + b`: unreduced if `lazy`, else modular.
    #[inline(always)]
    fn plus(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        if self.lazy {
            add_unreduced(a, b)
        } else {
            add4(a, b, self.m)
        }
    }

    /// `k a` by [`Self::plus`].
    #[inline(always)]
    fn times(&self, a: &[u64; 4], k: u8) -> [u64; 4] {
        times_small(a, k, |a, b| self.plus(a, b))
    }
}

/// Output `i` of [`Limbs4::mix_ones_plus_diagonal`]: `s + d_i x_i`, or `r + (1 + d_l) x_l` for
/// `i = l`, canonical. A negative multiple `-k x` is subtracted (modular), or, lazily, added as
/// `k p - k x` (non-negative for `x < p`) and reduced with the rest. Nothing if `i` is out of
/// range.
#[inline(always)]
fn mix_element<E: Copy>(
    state: &mut [E],
    i: usize,
    sums: &Sums<'_>,
    get: impl Fn(E) -> [u64; 4],
    set: impl Fn(&mut E, [u64; 4]),
) {
    let (Some(e), Some(&di)) = (state.get_mut(i), sums.d.get(i)) else {
        return;
    };
    let x = get(*e);
    let (base, c) = if i == sums.last {
        (sums.r, di.saturating_add(1))
    } else {
        (sums.s, di)
    };
    let k = c.unsigned_abs();
    let y = match c {
        0 => base,
        1.. => sums.plus(&base, &sums.times(&x, k)),
        _ if sums.lazy => {
            let base = sums.plus(&base, &sums.times(&sums.m.limbs, k));
            sub_p(&base, &sums.times(&x, k)).0
        }
        _ => sub4(&base, &sums.times(&x, k), sums.m),
    };
    set(
        e,
        if sums.lazy {
            reduce_sparse(y, sums.m)
        } else {
            y
        },
    );
}

/// `k x` for `k < 32` by doubling and adding with `add` from the top bit of `k` down (modular
/// [`add4`], or unreduced where the caller's bound allows); the branches are on `k`, a public
/// constant. Written without a loop: the caller's loop over the state's elements then has no
/// inner loop, so the compiler unrolls it and, where the diagonal is a compile-time constant (an
/// instance in a `static`), folds each `k` and its branches away.
#[inline(always)]
fn times_small(x: &[u64; 4], k: u8, add: impl Fn(&[u64; 4], &[u64; 4]) -> [u64; 4]) -> [u64; 4] {
    if k == 0 {
        return [0; 4];
    }
    // The index of the top bit of `k` (at most 4).
    let top = 7 - k.leading_zeros();
    let step = |acc: [u64; 4], bit: u32| {
        if top <= bit {
            return acc;
        }
        let twice = add(&acc, &acc);
        if (k >> bit) & 1 == 1 {
            add(&twice, x)
        } else {
            twice
        }
    };
    step(step(step(step(*x, 3), 2), 1), 0)
}

/// `(a - b) mod p` for canonical `a`, `b`: the difference, plus `p` masked by its borrow (no
/// branch).
#[inline(always)]
pub(crate) fn sub4(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let (d, borrow) = sub_p(a, b);
    plus_p_if(d, borrow, m)
}

#[cfg(all(test, feature = "stark252"))]
mod tests {
    //! The loop-free small multiple against repeated modular addition, and the sparse
    //! reduction against repeated subtraction.
    use super::*;
    use ark_ff::MontConfig;

    /// The Stark field's modulus constants.
    fn stark() -> Modulus {
        Modulus {
            limbs: crate::stark252::Felt252Config::MODULUS.0,
            inv: <crate::stark252::Felt252Config as MontConfig<4>>::INV,
        }
    }

    /// Deterministic pseudo-random words (xorshift64).
    fn words(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    /// `times_small(x, k)` is `x + x + ... + x` (`k` terms) for every `k` the linear layer
    /// can ask for (`|1 + d_i| <= 17`, and 0) at `x = 0, 1, p - 1` and pseudo-random canonical
    /// `x`.
    #[test]
    fn times_small_equals_repeated_addition_for_every_k_up_to_31() {
        let m = stark();
        let p = m.limbs;
        let mut next = words(0x7135);
        let xs: [[u64; 4]; 53] = core::array::from_fn(|i| match i {
            0 => [0; 4],
            1 => [1, 0, 0, 0],
            2 => [p[0] - 1, p[1], p[2], p[3]],
            _ => [next(), next(), next(), next() % p[3]],
        });
        for x in xs {
            let mut want = [0u64; 4];
            for k in 0..32u8 {
                assert_eq!(
                    times_small(&x, k, |a, b| add4(a, b, &m)),
                    want,
                    "{k} * {x:x?}"
                );
                if k <= 17 {
                    // The lazy layer's unreduced multiple: the same value once reduced.
                    let lazy = times_small(&x, k, add_unreduced);
                    assert_eq!(reduce_sparse(lazy, &m), want, "{k} * {x:x?} unreduced");
                }
                want = add(&want, &x, &p);
            }
        }
    }

    /// `reduce_sparse` (assembly where compiled, and portable) is `v mod p` for every `v < 2^256`
    /// on the Stark modulus: at `q p - 1`, `q p`, `q p + 1` for every quotient `q <= 31`, at
    /// `2^256 - 1`, and on random values; the reference subtracts `p` until below it.
    #[test]
    fn reduce_sparse_is_v_mod_p_below_2_256() {
        let m = stark();
        let p = m.limbs;
        assert_eq!(m.sparse_terms(), 31);
        let below_p = |x: &[u64; 4]| x.iter().rev().lt(p.iter().rev());
        let reference = |mut v: [u64; 4]| {
            while !below_p(&v) {
                v = sub_p(&v, &p).0;
            }
            v
        };
        let check = |v: [u64; 4]| {
            let want = reference(v);
            let q = v[3] >> (63 - p[3].leading_zeros());
            assert_eq!(reduce_sparse(v, &m), want, "{v:x?}");
            assert_eq!(reduce_sparse_portable(v, q, &m), want, "{v:x?} (portable)");
        };
        let mut multiple = [0u64; 4];
        for _ in 0..32 {
            check(multiple);
            check(add_unreduced(&multiple, &[1, 0, 0, 0]));
            if multiple != [0; 4] {
                check(sub_p(&multiple, &[1, 0, 0, 0]).0);
            }
            multiple = add_unreduced(&multiple, &p);
        }
        check([u64::MAX; 4]);
        let mut next = words(0x5ba2);
        for _ in 0..100_000 {
            check([next(), next(), next(), next()]);
        }
        // Moduli without the structure have no lazy layer.
        let dense = Modulus {
            limbs: [1, 2, 0, 1 << 61],
            inv: 0,
        };
        assert_eq!(dense.sparse_terms(), 0);
    }
}
