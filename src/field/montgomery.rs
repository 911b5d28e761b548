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
//! MULX/ADX path squares with its multiplication). So with canonical `a` (`a < p`) both always
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

/// `x - p mod 2^(64 N)`, and whether it borrowed (`x < p`).
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
    #[cfg(fast_poseidon2_simd)]
    if super::mulx_adx::available() {
        return super::mulx_adx::mul(a, b, m);
    }
    mul_portable(a, b, m)
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

/// `a^2 / 2^256 mod p`, below `a^2 / 2^256 + p`, for `a + p < 2^256` (module docs). The
/// MULX/ADX kernel's product `a · a` where the CPU has it (`field::mulx_adx`),
/// else [`square_portable`].
#[inline(always)]
pub(crate) fn square_unreduced(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
    #[cfg(fast_poseidon2_simd)]
    if super::mulx_adx::available() {
        return super::mulx_adx::square(a, m);
    }
    square_portable(a, m)
}

/// [`square_unreduced`] in portable Rust: the 512-bit square from 6 cross products (doubled)
/// and 4 diagonal ones, then a Montgomery reduction; it needs only `a^2 / 2^256 + p < 2^256`,
/// which `a + p < 2^256` implies.
#[inline(always)]
pub(crate) fn square_portable(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let (p, inv) = (&m.limbs, m.inv);
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

/// `x^D`, canonical, with the chains of [`crate::field::Field::sbox`] (`D` in 3, 5, 7, 11), for
/// canonical `x`, or for any `x < 2p` if `lazy`. Intermediate values skip the conditional
/// subtraction wherever the module bounds allow: only the operands squared or used as the left
/// factor are reduced, and only when `lazy` is false (`lazy` requires `p < 2^254`).
#[inline(always)]
pub(crate) fn sbox<const D: u64>(x: &[u64; 4], m: &Modulus, lazy: bool) -> [u64; 4] {
    let left = |v: [u64; 4]| if lazy { v } else { reduce(v, m) };
    // The older operand goes first (see `mul_unreduced`): `x`, then `x3`.
    let x2 = square_unreduced(x, m);
    let y = match D {
        3 => mul_unreduced(x, &x2, m),
        5 => mul_unreduced(x, &square_unreduced(&left(x2), m), m),
        7 => {
            let x3 = left(mul_unreduced(x, &x2, m));
            mul_unreduced(&x3, &square_unreduced(&left(x2), m), m)
        }
        _ => {
            let x3 = left(mul_unreduced(x, &x2, m));
            let x4 = left(square_unreduced(&left(x2), m));
            mul_unreduced(&x3, &square_unreduced(&x4, m), m)
        }
    };
    reduce(y, m)
}
