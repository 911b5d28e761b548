//! Dense square matrices over a prime field, row-major: the exact linear algebra of the Poseidon1
//! MDS checks ([`crate::params::security::check_mds_matrix`]) and of the optimized schedule
//! (`crate::poseidon1::schedule`).

use crate::field::PrimeField;
use alloc::vec;
use alloc::vec::Vec;

/// A dense square matrix, row-major.
#[derive(Clone)]
pub(crate) struct Matrix<F> {
    /// The size `n` (rows and columns).
    pub(crate) n: usize,
    /// `n · n` entries, `a[i · n + j]` in row `i`, column `j`.
    pub(crate) a: Vec<F>,
}

impl<F: PrimeField> Matrix<F> {
    pub(crate) fn at(&self, i: usize, j: usize) -> F {
        self.a[i * self.n + j]
    }

    pub(crate) fn mul(&self, other: &Self) -> Self {
        let n = self.n;
        let a = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                (0..n).fold(F::ZERO_ELEMENT, |acc, l| {
                    acc.add(self.at(i, l).mul(other.at(l, j)))
                })
            })
            .collect();
        Matrix { n, a }
    }

    pub(crate) fn apply(&self, x: &[F]) -> Vec<F> {
        (0..self.n)
            .map(|i| (0..self.n).fold(F::ZERO_ELEMENT, |acc, j| acc.add(self.at(i, j).mul(x[j]))))
            .collect()
    }

    /// The inverse by Gauss-Jordan elimination; `None` if singular.
    pub(crate) fn inverse(&self) -> Option<Self> {
        let n = self.n;
        let mut a = self.a.clone();
        let mut inv = vec![F::ZERO_ELEMENT; n * n];
        for i in 0..n {
            inv[i * n + i] = F::ONE_ELEMENT;
        }
        for col in 0..n {
            let pivot = (col..n).find(|&r| a[r * n + col] != F::ZERO_ELEMENT)?;
            for k in 0..n {
                a.swap(col * n + k, pivot * n + k);
                inv.swap(col * n + k, pivot * n + k);
            }
            let scale = a[col * n + col].inverted()?;
            for k in 0..n {
                a[col * n + k] = a[col * n + k].mul(scale);
                inv[col * n + k] = inv[col * n + k].mul(scale);
            }
            for r in (0..n).filter(|&r| r != col) {
                let factor = a[r * n + col];
                if factor == F::ZERO_ELEMENT {
                    continue;
                }
                for k in 0..n {
                    a[r * n + k] = a[r * n + k].sub(factor.mul(a[col * n + k]));
                    inv[r * n + k] = inv[r * n + k].sub(factor.mul(inv[col * n + k]));
                }
            }
        }
        Some(Matrix { n, a: inv })
    }

    /// The `(n-1) × (n-1)` block without row `k` and column `k` (the other rows and columns in
    /// their order; for `k = 0` the lower-right block).
    pub(crate) fn minor(&self, k: usize) -> Self {
        let n = self.n - 1;
        let skip = |i: usize| if i < k { i } else { i + 1 };
        let a = (0..n * n)
            .map(|x| self.at(skip(x / n), skip(x % n)))
            .collect();
        Matrix { n, a }
    }

    /// The inverse of [`Self::minor`]'s shape: one size larger, 1 at `(k, k)`, zeros in the rest
    /// of row and column `k`, and `self` in the other rows and columns (`diag(1, self)` for
    /// `k = 0`).
    pub(crate) fn bordered(&self, k: usize) -> Self {
        let n = self.n + 1;
        let shrink = |i: usize| if i < k { i } else { i - 1 };
        let a = (0..n * n)
            .map(|x| match (x / n, x % n) {
                (i, j) if i == k && j == k => F::ONE_ELEMENT,
                (i, j) if i == k || j == k => F::ZERO_ELEMENT,
                (i, j) => self.at(shrink(i), shrink(j)),
            })
            .collect();
        Matrix { n, a }
    }

    /// The transpose.
    pub(crate) fn transpose(&self) -> Self {
        let n = self.n;
        let a = (0..n * n).map(|k| self.at(k % n, k / n)).collect();
        Matrix { n, a }
    }
}
