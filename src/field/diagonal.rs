//! Internal-diagonal entries known when compiling: which entries a field can multiply by
//! without a full product ([`DiagonalKind`]), and an entry carried with its kind
//! ([`Classified`]), for the diagonals compiled into the code (Plonky3's and SP1's, registered
//! in `crate::instances`). The entries are public data of the instance: choosing code by their
//! kind leaks nothing about the state.
//!
//! The kinds rest on one identity: for `2^n | p - 1`, `2^-n = p - (p - 1) / 2^n (mod p)` (its
//! product with `2^n` is `2^n p - (p - 1) = 1 mod p`), so on a word `x = h 2^n + l`
//! (`l < 2^n`), `x 2^-n = h - l (p - 1) / 2^n (mod p)`: a shift, a mask and a product by a
//! constant below `2^(bits(p) - n)`. Each field writes the products
//! (`Monty31::mul_classified_add`, `GoldilocksFast::mul_classified_add`).

/// How a product by a constant `m` (an internal-diagonal entry) can be computed without a
/// full field multiplication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DiagonalKind {
    /// No cheaper product: the field's multiplication.
    Generic,
    /// `m = ±k`, `k` in `1..=4` (`negate` for `-k`): additions only.
    Small { k: u32, negate: bool },
    /// `m = ±2^-n` with `1 <= n` and `2^n | p - 1` (`negate` for `-2^-n`): the shift of the
    /// module docs.
    Halve { n: u32, negate: bool },
}

/// The [`DiagonalKind`] of the plain value `c < p` for the prime `p`. A `const fn` of a
/// handful of integer operations.
///
/// By the identity of the module docs a plain value `v` is `2^-n` exactly when `e = p - v` is
/// `(p - 1) >> n` with `n <= tz(p - 1)`, and `n` is then the difference of the bit lengths.
pub(crate) const fn diagonal_kind(p: u64, c: u64) -> DiagonalKind {
    let mut negated = 0;
    while negated < 2 {
        let negate = negated == 1;
        let v = if negate { p - c } else { c };
        if v >= 1 && v <= 4 {
            return DiagonalKind::Small {
                k: v as u32,
                negate,
            };
        }
        let e = p - v;
        if e != 0 {
            let n = e.leading_zeros() - (p - 1).leading_zeros();
            if n >= 1 && n <= (p - 1).trailing_zeros() && (p - 1) >> n == e {
                return DiagonalKind::Halve { n, negate };
            }
        }
        negated += 1;
    }
    DiagonalKind::Generic
}

/// A constant factor `m` (an internal-diagonal entry known when compiling), an element of the
/// field `F`, with its [`DiagonalKind`]: the field's `mul_classified_add` multiplies by it with
/// the kind's code. Built by a `const` evaluation (each field's `Classified::of`), so that in an
/// unrolled loop over a constant table each product compiles to its entry's code.
#[derive(Clone, Copy)]
pub(crate) struct Classified<F> {
    pub(crate) kind: DiagonalKind,
    pub(crate) value: F,
}

impl<F: Copy> Classified<F> {
    /// The factor `m`.
    #[cfg_attr(
        not(any(feature = "babybear", feature = "koalabear", feature = "goldilocks")),
        allow(dead_code) // read by the registries of `crate::instances` only
    )]
    #[inline(always)]
    pub(crate) const fn value(&self) -> F {
        self.value
    }

    /// Whether the product by `m` needs no full multiplication.
    #[cfg(test)]
    pub(crate) fn is_small(&self) -> bool {
        self.kind != DiagonalKind::Generic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kinds of BabyBear's and Goldilocks' small entries, and a generic one.
    #[test]
    fn small_integers_and_inverse_powers_of_two_are_found() {
        for p in [(1u64 << 31) - (1 << 27) + 1, 0xffff_ffff_0000_0001] {
            let small = |k: u32, negate| DiagonalKind::Small { k, negate };
            let halve = |n: u32, negate| DiagonalKind::Halve { n, negate };
            assert_eq!(diagonal_kind(p, 1), small(1, false));
            assert_eq!(diagonal_kind(p, 4), small(4, false));
            assert_eq!(diagonal_kind(p, p - 3), small(3, true));
            assert_eq!(diagonal_kind(p, p.div_ceil(2)), halve(1, false));
            assert_eq!(diagonal_kind(p, (p - 1) / 2), halve(1, true));
            assert_eq!(diagonal_kind(p, p - ((p - 1) >> 8)), halve(8, false));
            assert_eq!(diagonal_kind(p, 5), DiagonalKind::Generic);
            assert_eq!(diagonal_kind(p, 0), DiagonalKind::Generic);
        }
        // `2^-32` exists on Goldilocks (`2^32 | p - 1`), `2^-28` not on BabyBear (`tz = 27`).
        let g = 0xffff_ffff_0000_0001u64;
        assert_eq!(
            diagonal_kind(g, 0xffff_fffe_0000_0002),
            DiagonalKind::Halve {
                n: 32,
                negate: false
            }
        );
        let b = (1u64 << 31) - (1 << 27) + 1;
        assert_eq!(diagonal_kind(b, b - ((b - 1) >> 28)), DiagonalKind::Generic);
        // On the Mersenne prime `2^31 - 1` (`p + 1` a power of two: the bit lengths of `p - 1`
        // and `p + 1` differ), `2^-1` only.
        let m = (1u64 << 31) - 1;
        assert_eq!(
            diagonal_kind(m, m.div_ceil(2)),
            DiagonalKind::Halve {
                n: 1,
                negate: false
            }
        );
        assert_eq!(diagonal_kind(m, m - ((m - 1) >> 2)), DiagonalKind::Generic);
    }
}
