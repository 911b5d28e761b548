//! Branch-free modular addition on the limbs of ark-ff `MontBackend` fields.
//!
//! ark-ff finishes every addition with a data-dependent branch ("subtract the modulus if the
//! sum is >= p"). Inside a Poseidon2 permutation that branch goes each way about half the time
//! at random, and the mispredictions cost more than the arithmetic. [`add`] computes the same
//! canonical result (Montgomery form is linear, so limb-wise modular addition is exactly ark's
//! addition) with a masked select instead of a branch.

/// `x - p` if `x >= p` (or if `carry` says `x` overflowed `N` limbs), else `x`, without a branch.
#[inline(always)]
fn reduce_once<const N: usize>(x: [u64; N], carry: u64, p: &[u64; N]) -> [u64; N] {
    let mut diff = [0u64; N];
    let mut borrow = false;
    for i in 0..N {
        let (d, b1) = x[i].overflowing_sub(p[i]);
        let (d, b2) = d.overflowing_sub(u64::from(borrow));
        diff[i] = d;
        borrow = b1 | b2;
    }
    // Keep `x` exactly when the subtraction borrowed and `x` did not overflow (x < p).
    let keep_x = 0u64.wrapping_sub(u64::from(borrow) & (carry ^ 1));
    core::array::from_fn(|i| (x[i] & keep_x) | (diff[i] & !keep_x))
}

/// `(a + b) mod p` for canonical `a`, `b`.
#[inline(always)]
pub(crate) fn add<const N: usize>(a: &[u64; N], b: &[u64; N], p: &[u64; N]) -> [u64; N] {
    let mut sum = [0u64; N];
    let mut carry = false;
    for i in 0..N {
        let (s, c1) = a[i].overflowing_add(b[i]);
        let (s, c2) = s.overflowing_add(u64::from(carry));
        sum[i] = s;
        carry = c1 | c2;
    }
    reduce_once(sum, u64::from(carry), p)
}
