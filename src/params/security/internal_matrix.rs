//! The internal-matrix check: `M_I = J - I + diag(mu)` is accepted when, for every
//! `k = 1..=2t`, the minimal polynomial of `M_I^k` is irreducible of degree `t` (the reference's
//! `check_minpoly_condition`, which decides which Grain draw becomes the diagonal).
//!
//! Method, all arithmetic over `F` written here:
//! 1. The characteristic polynomial of a diagonal-plus-all-ones matrix has a closed form:
//!    with `m = mu - 1`, `det(X I - diag(m) - J) = prod_i (X - m_i) - sum_i prod_{j != i} (X - m_j)`.
//! 2. `k = 1`: `f = charpoly(M_I)` is irreducible of degree `t` (Rabin's test:
//!    `x^(p^t) = x mod f` and `gcd(x^(p^(t/q)) - x, f) = 1` for each prime `q | t`). This also
//!    makes `M_I` invertible (`f(0) != 0`).
//! 3. Then `K = F[x]/f` is the field `F_{p^t}` and `x` is an eigenvalue `lambda` of `M_I`; the
//!    eigenvalues of `M_I^k` are the conjugates of `lambda^k`, so the minimal polynomial of `M_I^k`
//!    is irreducible of degree `t` exactly when `lambda^k` lies in no maximal proper subfield
//!    `F_{p^(t/q)}`, i.e. `(lambda^k)^(p^(t/q)) != lambda^k` for each prime `q | t`.
//!
//! Frobenius `g -> g^p` is linear over `F`, so it is applied as a `t x t` matrix built once from
//! `x^p mod f` (one modular exponentiation by `p` per diagonal).

use crate::Error;
use crate::field::{MAX_FIELD_BYTES, PrimeField};
use alloc::vec;
use alloc::vec::Vec;

/// Checks the internal matrix `M_I = J - I + diag(mu)` given its diagonal `mu` (`t = mu.len()`
/// entries, `t >= 2`; for the shipped instances `mu_i = mat_diag_m_1[i] + 1`).
///
/// This is the check `Poseidon2Params::generate` runs on drawn diagonals (t >= 4). The fixed
/// t = 2, 3 matrices of the paper (diagonals `(2, 3)`, `(2, 2, 3)`) are not drawn and need not
/// pass it; the t = 3 one does not (it has the eigenvector `(1, -1, 0)` with eigenvalue 1, so its
/// characteristic polynomial is reducible): the paper fixes both for their cheap evaluation.
///
/// # Errors
/// [`Error::InsecureInternalMatrix`] if `M_I` is singular or the minimal polynomial of some
/// `M_I^k`, `k = 1..=2t`, is reducible or of degree below `t`; [`Error::UnsupportedWidth`] for
/// fewer than two entries.
pub fn check_internal_matrix<F: PrimeField>(mu: &[F]) -> Result<(), Error> {
    let t = mu.len();
    if t < 2 {
        return Err(Error::UnsupportedWidth { t });
    }
    let f = characteristic_polynomial(mu);
    let frob = Frobenius::new(&f);
    let x = monomial_x::<F>(t);
    let prime_factors = prime_factors(t);
    // Rabin: x^(p^t) == x mod f ...
    if frob.iterate(&x, t) != x {
        return Err(Error::InsecureInternalMatrix);
    }
    // ... and gcd(x^(p^(t/q)) - x, f) == 1 for each prime q | t.
    for &q in &prime_factors {
        let mut g = frob.iterate(&x, t / q);
        g[1] = g[1].sub(F::ONE_ELEMENT);
        if poly_gcd_degree(g, f.clone()) != 0 {
            return Err(Error::InsecureInternalMatrix);
        }
    }
    // lambda^k outside every maximal proper subfield, k = 2..=2t.
    let mut power = x.clone();
    for _ in 2..=2 * t {
        power = frob.mul_mod(&power, &x);
        for &q in &prime_factors {
            if frob.iterate(&power, t / q) == power {
                return Err(Error::InsecureInternalMatrix);
            }
        }
    }
    Ok(())
}

/// `prod_i (X - m_i) - sum_i prod_{j != i} (X - m_j)` with `m_i = mu_i - 1`, as `t + 1`
/// coefficients, lowest degree first (monic).
fn characteristic_polynomial<F: PrimeField>(mu: &[F]) -> Vec<F> {
    let t = mu.len();
    let m: Vec<F> = mu.iter().map(|&x| x.sub(F::ONE_ELEMENT)).collect();
    let linear = |i: usize| [m[i].neg(), F::ONE_ELEMENT];
    let mut full = vec![F::ONE_ELEMENT];
    for i in 0..t {
        full = poly_mul(&full, &linear(i));
    }
    let mut result = full.clone();
    for i in 0..t {
        // prod_{j != i} (X - m_j), by multiplying the other factors (t is at most MAX_WIDTH).
        let mut partial = vec![F::ONE_ELEMENT];
        for j in (0..t).filter(|&j| j != i) {
            partial = poly_mul(&partial, &linear(j));
        }
        for (r, &c) in result.iter_mut().zip(&partial) {
            *r = r.sub(c);
        }
    }
    result
}

fn monomial_x<F: PrimeField>(t: usize) -> Vec<F> {
    let mut x = vec![F::ZERO_ELEMENT; t];
    x[1] = F::ONE_ELEMENT;
    x
}

fn poly_mul<F: PrimeField>(a: &[F], b: &[F]) -> Vec<F> {
    let mut out = vec![F::ZERO_ELEMENT; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            out[i + j] = out[i + j].add(x.mul(y));
        }
    }
    out
}

/// Distinct prime factors of `n`.
fn prime_factors(mut n: usize) -> Vec<usize> {
    let mut factors = Vec::new();
    let mut q = 2;
    while q * q <= n {
        if n.is_multiple_of(q) {
            factors.push(q);
            while n.is_multiple_of(q) {
                n /= q;
            }
        }
        q += 1;
    }
    if n > 1 {
        factors.push(n);
    }
    factors
}

/// Degree of `gcd(a, b)` by Euclid's algorithm (inputs consumed).
fn poly_gcd_degree<F: PrimeField>(mut a: Vec<F>, mut b: Vec<F>) -> usize {
    trim(&mut a);
    trim(&mut b);
    while !b.is_empty() {
        let r = poly_rem(a, &b);
        a = b;
        b = r;
    }
    a.len().saturating_sub(1)
}

fn trim<F: PrimeField>(p: &mut Vec<F>) {
    while p.last() == Some(&F::ZERO_ELEMENT) {
        p.pop();
    }
}

/// `a mod b` for a trimmed, non-zero `b`; the result is trimmed.
fn poly_rem<F: PrimeField>(mut a: Vec<F>, b: &[F]) -> Vec<F> {
    let lead_inv = b[b.len() - 1].inverted().unwrap_or(F::ZERO_ELEMENT);
    while a.len() >= b.len() {
        let coef = a[a.len() - 1].mul(lead_inv);
        let shift = a.len() - b.len();
        for (i, &c) in b.iter().enumerate() {
            a[shift + i] = a[shift + i].sub(coef.mul(c));
        }
        a.pop();
        trim(&mut a);
    }
    a
}

/// Arithmetic in `F[x]/f` for a monic `f` of degree `t`, with the Frobenius map as a matrix.
struct Frobenius<F> {
    /// `f`, monic, `t + 1` coefficients.
    f: Vec<F>,
    /// Row `i` is `x^(i p) mod f`, `t` coefficients.
    matrix: Vec<Vec<F>>,
}

impl<F: PrimeField> Frobenius<F> {
    fn new(f: &[F]) -> Self {
        let t = f.len() - 1;
        let mut this = Frobenius {
            f: f.to_vec(),
            matrix: Vec::new(),
        };
        let xp = this.pow_modulus(&monomial_x::<F>(t));
        let mut row = vec![F::ZERO_ELEMENT; t];
        row[0] = F::ONE_ELEMENT;
        for _ in 0..t {
            let next = this.mul_mod(&row, &xp);
            this.matrix.push(core::mem::replace(&mut row, next));
        }
        this
    }

    /// `a · b mod f` for reduced `a`, `b` (`t` coefficients each).
    fn mul_mod(&self, a: &[F], b: &[F]) -> Vec<F> {
        let t = self.f.len() - 1;
        let mut prod = poly_mul(a, b);
        // f is monic: x^t = -(f_0 + ... + f_{t-1} x^{t-1}).
        for top in (t..prod.len()).rev() {
            let c = prod[top];
            for i in 0..t {
                prod[top - t + i] = prod[top - t + i].sub(c.mul(self.f[i]));
            }
        }
        prod.truncate(t);
        prod.resize(t, F::ZERO_ELEMENT);
        prod
    }

    /// `g^p mod f` by square-and-multiply over the bits of the modulus.
    fn pow_modulus(&self, g: &[F]) -> Vec<F> {
        let t = self.f.len() - 1;
        let mut modulus = [0u8; MAX_FIELD_BYTES];
        F::write_modulus_be(&mut modulus);
        let mut acc = vec![F::ZERO_ELEMENT; t];
        acc[0] = F::ONE_ELEMENT;
        for &byte in &modulus[..F::BYTES] {
            for bit in (0..8).rev() {
                acc = self.mul_mod(&acc, &acc);
                if (byte >> bit) & 1 == 1 {
                    acc = self.mul_mod(&acc, g);
                }
            }
        }
        acc
    }

    /// `g^(p^times) mod f`: Frobenius applied `times` times, `g^p = sum_i g_i x^(i p)`.
    fn iterate(&self, g: &[F], times: usize) -> Vec<F> {
        let mut cur = g.to_vec();
        for _ in 0..times {
            let mut next = vec![F::ZERO_ELEMENT; cur.len()];
            for (&c, row) in cur.iter().zip(&self.matrix) {
                for (n, &r) in next.iter_mut().zip(row) {
                    *n = n.add(c.mul(r));
                }
            }
            cur = next;
        }
        cur
    }
}
