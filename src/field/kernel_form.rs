//! What the SIMD batch kernels read of a field, derived from its [`super::Representation`]
//! hooks: per kernel family, the field's data (the AVX-512 IFMA [`avx512_ifma::Modulus`], the
//! Goldilocks [`goldilocks::Form`], the 31-bit Montgomery [`monty31::Modulus`]) and the conversion of a round constant to the kernel's form
//! (`word`). Plain integer arithmetic, no `unsafe` and no CPU detection: the kernels themselves,
//! and the choice of one, are in `crate::simd`.

/// `kind` (element 3 of a diagonal entry's kernel form, 31-bit Montgomery and Goldilocks
/// kernels) of an entry with no cheaper product: the generic product by the word.
pub(crate) const GENERIC: u64 = 0;
/// `kind` of an entry `±k`, `k` in `1..=4` (element 4): additions only.
pub(crate) const SMALL: u64 = 1;
/// `kind` of an entry `±2^-n` with `2^n | p - 1` (`field::diagonal::DiagonalKind::Halve`; each
/// kernel's words say where `n` is): a shift and a few operations per halving.
pub(crate) const HALVE: u64 = 2;
/// Bit of `kind`: the entry is the negation of what the low byte says.
pub(crate) const NEGATE: u64 = 1 << 8;

/// [`NEGATE`] if `negate`, else no bit.
const fn negated(negate: bool) -> u64 {
    if negate { NEGATE } else { 0 }
}

/// The AVX-512 IFMA kernel's form: five 52-bit limbs of `x * 2^260 mod p`, for 4-limb Montgomery
/// fields with `2^250 <= p < 2^255` (BN254, BLS12-381).
pub(crate) mod avx512_ifma {
    use crate::field::{Field, Sealed, montgomery};

    /// 52-bit limbs per element.
    pub(crate) const LIMBS: usize = 5;
    /// The low 52 bits.
    pub(crate) const MASK52: u64 = (1 << 52) - 1;

    /// The round constant `c` in kernel form: `c * 2^260 mod p`, canonical, in 52-bit limbs.
    pub(crate) fn word<F: Field>(c: F) -> [u64; LIMBS] {
        // ark holds `16 c` as `16 c * 2^256 = c * 2^260 (mod p)`, canonical.
        let c16 = Field::doubled(Field::doubled(Field::doubled(Field::doubled(c))));
        split52(c16.to_montgomery_256(Sealed(())).unwrap_or_default())
    }

    /// Splits a canonical 4 x 64-bit integer into five 52-bit limbs.
    fn split52(a: [u64; 4]) -> [u64; LIMBS] {
        [
            a[0] & MASK52,
            ((a[0] >> 52) | (a[1] << 12)) & MASK52,
            ((a[1] >> 40) | (a[2] << 24)) & MASK52,
            ((a[2] >> 28) | (a[3] << 36)) & MASK52,
            a[3] >> 16,
        ]
    }

    /// The scalar constants the kernel derives from the modulus.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Modulus {
        /// `p` in 52-bit limbs.
        pub(crate) p: [u64; LIMBS],
        /// `2^260 - p` in 52-bit limbs: adding `q (2^260 - p)` subtracts `q p` modulo `2^260`.
        pub(crate) neg_p: [u64; LIMBS],
        /// `-p^-1 mod 2^52`.
        pub(crate) p_inv: u64,
        /// `(2^208 / p) (1 - 2^-40)`: the top limb times this never exceeds the true quotient.
        pub(crate) quotient_scale: f64,
        /// `2^264 mod p`: multiplying ark's `x 2^256` by it gives `x 2^260`.
        pub(crate) to_kernel: [u64; LIMBS],
        /// `2^256 mod p`: multiplying `x 2^260` by it gives ark's `x 2^256`.
        pub(crate) from_kernel: [u64; LIMBS],
    }

    impl Modulus {
        /// The constants for `F`, or `None` if `F` is not a 4-limb Montgomery field with
        /// `R = 2^256` and `2^250 <= p < 2^255` (the kernel's bounds need these).
        pub(crate) fn of<F: Field>() -> Option<Self> {
            let p = F::MONTGOMERY_256_MODULUS?;
            if p[0] & 1 == 0 || p[3] >> 63 != 0 || p[3] >> 58 == 0 {
                return None;
            }
            // ark's ONE must be 2^256 mod p, i.e. elements really are x * 2^256 mod p.
            let from_kernel = F::ONE_ELEMENT.to_montgomery_256(Sealed(()))?;
            if from_kernel != pow2_256_mod(&p) {
                return None;
            }
            // 256 * 2^256 = 2^264 (mod p), canonical.
            let to_kernel = F::from_u64(256).to_montgomery_256(Sealed(()))?;

            let p52 = split52(p);
            let mut neg_p = [0; LIMBS];
            let mut borrow = 0u64;
            for (n, &limb) in neg_p.iter_mut().zip(&p52) {
                *n = 0u64.wrapping_sub(limb).wrapping_sub(borrow) & MASK52;
                borrow = u64::from(limb != 0 || borrow != 0);
            }
            // Newton's iteration doubles the correct low bits: 3 (any odd p0) -> 6 -> ... -> 96.
            let mut inv = p[0];
            for _ in 0..5 {
                inv = inv.wrapping_mul(2u64.wrapping_sub(p[0].wrapping_mul(inv)));
            }
            let p_float = p
                .iter()
                .rev()
                .fold(0f64, |acc, &limb| acc * 2f64.powi(64) + limb as f64);
            Some(Modulus {
                p: p52,
                neg_p,
                p_inv: inv.wrapping_neg() & MASK52,
                quotient_scale: 2f64.powi(208) / p_float * (1.0 - 2f64.powi(-40)),
                to_kernel: split52(to_kernel),
                from_kernel: split52(from_kernel),
            })
        }
    }

    /// `2^256 mod p` for `2^250 <= p < 2^256`, by subtracting `p` from `2^256` until below `p`
    /// (the field layer's `montgomery::sub_p`, which reports the borrow that marks "below").
    fn pow2_256_mod(p: &[u64; 4]) -> [u64; 4] {
        // 0 - p wraps to 2^256 - p.
        let mut r = montgomery::sub_p(&[0; 4], p).0;
        loop {
            match montgomery::sub_p(&r, p) {
                (_, true) => return r,
                (next, false) => r = next,
            }
        }
    }
}

/// The Goldilocks kernels' form (AVX-512F and AVX2): one `u64` per element, round constants as
/// canonical plain values.
pub(crate) mod goldilocks {
    use super::{GENERIC, HALVE, SMALL, negated};
    use crate::field::diagonal::{DiagonalKind, diagonal_kind};
    use crate::field::goldilocks::{GoldilocksFast, MODULUS};
    use crate::field::{Field, PrimeField, Sealed};

    /// How a field stores Goldilocks elements: `x` as a `u64` congruent to `x r`.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Form {
        /// `r`, canonical.
        pub(crate) r: u64,
        /// `r^-1`, or `None` for plain fields (`r = 1`), which skip the conversion products.
        pub(crate) r_inv: Option<GoldilocksFast>,
    }

    impl Form {
        /// The form of a field stored plain (`r = 1`: `GoldilocksFast`).
        #[cfg_attr(
            not(feature = "goldilocks"),
            allow(dead_code) // read by the registry of the Goldilocks instances only
        )]
        pub(crate) const PLAIN: Form = Form { r: 1, r_inv: None };

        /// `F`'s form, or `None` if `F` is not Goldilocks in a form the kernels read (the
        /// hook's claim is checked: `ONE` must be stored as `r`, and `r` must be invertible).
        pub(crate) fn of<F: Field>() -> Option<Self> {
            let r = GoldilocksFast::new(F::GOLDILOCKS_FACTOR?);
            let one = GoldilocksFast::new(F::ONE_ELEMENT.to_goldilocks_word(Sealed(()))?);
            (r == one && r != GoldilocksFast::ZERO_ELEMENT).then(|| Form {
                r: r.to_canonical_u64(),
                r_inv: (r != GoldilocksFast::ONE_ELEMENT)
                    .then(|| r.inverted())
                    .flatten(),
            })
        }

        /// The canonical plain value of the stored word `word` (`word r^-1`).
        fn plain(&self, word: u64) -> u64 {
            let word = GoldilocksFast::new(word);
            self.r_inv
                .map_or(word, |r_inv| Field::mul(word, r_inv))
                .to_canonical_u64()
        }
    }

    /// The round constant `c` of a field stored in `form`, in kernel form:
    /// [`plain_word`] of its canonical plain value.
    pub(crate) fn word<F: Field>(form: &Form, c: F) -> [u64; 5] {
        plain_word(form.plain(c.to_goldilocks_word(Sealed(())).unwrap_or(0)))
    }

    /// The kernel form of a round constant whose canonical plain value is `value`:
    /// `[value, value >> 32, 0, 0, 0]`.
    pub(crate) const fn plain_word(value: u64) -> [u64; 5] {
        [value, value >> 32, 0, 0, 0]
    }

    /// The internal-diagonal entry `c` in kernel form: [`plain_diagonal_word`] of its
    /// canonical plain value.
    pub(crate) fn diagonal_word<F: Field>(form: &Form, c: F) -> [u64; 5] {
        plain_diagonal_word(form.plain(c.to_goldilocks_word(Sealed(())).unwrap_or(0)))
    }

    /// The kernel form of an internal-diagonal entry whose canonical plain value is `value`:
    /// [`plain_word`] with elements 3 and 4 its kind and data from [`diagonal_kind`]:
    /// [`SMALL`] with `k`, [`HALVE`] with `n`, each with [`NEGATE`](super::NEGATE) for a
    /// negative entry, or [`GENERIC`] (Plonky3's Goldilocks diagonals are all small or
    /// `±2^-n`). The constants are public: choosing the code by them leaks nothing about the
    /// states.
    pub(crate) const fn plain_diagonal_word(value: u64) -> [u64; 5] {
        let [value, high, ..] = plain_word(value);
        let (kind, data) = match diagonal_kind(MODULUS, value) {
            DiagonalKind::Generic => (GENERIC, 0),
            DiagonalKind::Small { k, negate } => (SMALL | negated(negate), k as u64),
            DiagonalKind::Halve { n, negate } => (HALVE | negated(negate), n as u64),
        };
        [value, high, 0, kind, data]
    }
}

/// The 31-bit Montgomery kernels' form (AVX-512F and AVX2): one `u32` per element, the field's own stored
/// word `x · 2^32 mod p`, canonical; round constants with their precomputed reduction factor.
pub(crate) mod monty31 {
    use super::{GENERIC, HALVE, SMALL, negated};
    use crate::field::diagonal::DiagonalKind;
    use crate::field::monty31;
    use crate::field::{Field, Sealed};

    /// `p^-1 mod 2^32` for an odd `p`, by Newton's iteration `x <- x (2 - p x)` (each step
    /// doubles the correct low bits; `x = p` is right to 3 bits since `p^2 = 1 mod 8`).
    pub(crate) const fn inverse(p: u32) -> u32 {
        let mut x = p;
        let mut i = 0;
        while i < 4 {
            x = x.wrapping_mul(2u32.wrapping_sub(p.wrapping_mul(x)));
            i += 1;
        }
        x
    }

    /// The modulus of a field the kernel takes.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Modulus {
        /// `p`, odd, `2^30 < p < 2^31`.
        pub(crate) p: u32,
        /// `p^-1 mod 2^32`.
        pub(crate) p_inv: u32,
    }

    impl Modulus {
        /// `F`'s modulus, or `None` if `F` is not a 31-bit Montgomery field the kernel reads
        /// (the hook's claim is checked: `p` odd and 31 bits long, `ONE` stored as
        /// `2^32 mod p`).
        pub(crate) fn of<F: Field>() -> Option<Self> {
            let p = F::MONTY31_MODULUS?;
            if p % 2 == 0 || p <= 1 << 30 || p >= 1 << 31 {
                return None;
            }
            let one = F::ONE_ELEMENT.to_monty31_word(Sealed(()))?;
            (u64::from(one) == (1u64 << 32) % u64::from(p)).then(|| Modulus {
                p,
                p_inv: inverse(p),
            })
        }
    }

    /// How the kernel multiplies by the internal-diagonal entry whose stored word is `w`:
    /// `(kind, data)`, elements 3 and 4 of its kernel form ([`GENERIC`], [`SMALL`] or
    /// [`HALVE`]), from the field's classification
    /// ([`crate::field::monty31::diagonal_kind`]). The constants are public, so choosing the
    /// code by them leaks nothing about the states.
    pub(crate) const fn diagonal_kind(m: &Modulus, w: u32) -> (u64, u64) {
        match monty31::diagonal_kind(m.p, m.p_inv, w) {
            DiagonalKind::Generic => (GENERIC, 0),
            DiagonalKind::Small { k, negate } => (SMALL | negated(negate), k as u64),
            DiagonalKind::Halve { n, negate } => {
                let mask = (1u64 << n) - 1;
                let e = (m.p - 1) >> n;
                (
                    HALVE | negated(negate) | ((n as u64) << 16),
                    mask | ((e as u64) << 32),
                )
            }
        }
    }

    /// The internal-diagonal entry `c` in kernel form: [`stored_diagonal_word`] of its stored
    /// word, computed once when a permutation's batch cache is filled.
    pub(crate) fn diagonal_word<F: Field>(m: &Modulus, c: F) -> [u64; 5] {
        stored_diagonal_word(m, c.to_monty31_word(Sealed(())).unwrap_or(0))
    }

    /// The internal-diagonal entry whose stored word is `w` in kernel form: [`word`] with
    /// elements 3 and 4 its kind and data ([`diagonal_kind`]). A `const fn`, so that the
    /// registry of diagonals compiled into the code (`crate::instances`) builds the kernel's
    /// tables when compiling.
    ///
    /// For a [`HALVE`] entry (which needs neither the quotient factor nor `w - p`) elements 1
    /// and 2 are `n` and `(p - 1) >> n`, and element 4 the mask `2^n - 1`, each in the low
    /// 32 bits of its word, so that the kernel broadcasts them straight from memory.
    pub(crate) const fn stored_diagonal_word(m: &Modulus, w: u32) -> [u64; 5] {
        let [w, q, s, _, _] = stored_word(m, w);
        let (kind, data) = diagonal_kind(m, w as u32);
        if kind & 0xff == HALVE {
            [w, kind >> 16, data >> 32, kind, data & 0xffff_ffff]
        } else {
            [w, q, s, kind, data]
        }
    }

    /// The round constant `c` in kernel form: `[w, w p^-1 mod 2^32, w - p mod 2^32, 0, 0]`
    /// with `w` its stored word (`c · 2^32 mod p`, canonical): the word, its factor for the
    /// Montgomery quotient of a product by it, and the word minus `p` (a negative `i32`) for
    /// the S-box's signed input. The kernel fills elements 3 and 4 of the diagonal entries
    /// ([`diagonal_kind`]) per batch call.
    pub(crate) fn word<F: Field>(m: &Modulus, c: F) -> [u64; 5] {
        stored_word(m, c.to_monty31_word(Sealed(())).unwrap_or(0))
    }

    /// [`word`] of the constant whose stored word is `w` (a `const fn`, as
    /// [`stored_diagonal_word`]).
    pub(crate) const fn stored_word(m: &Modulus, w: u32) -> [u64; 5] {
        [
            w as u64,
            w.wrapping_mul(m.p_inv) as u64,
            w.wrapping_sub(m.p) as u64,
            0,
            0,
        ]
    }
}
