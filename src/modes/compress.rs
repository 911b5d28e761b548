//! Merkle compression (rule and arity in the [module docs](super)): `compress_digests` on every
//! field, and the single-element `compress` on fields whose digest is one element.
//!
//! `D = 1`: `compress(x_0, .., x_{t-2}) = perm([x_0, .., x_{t-2}, 0])[0]`, the reference's
//! `MerkleTreeHash::compress` (`plain_implementations/src/poseidon2/poseidon2.rs`, HorizenLabs
//! commit `055bde3f`) at t = 3. `D > 1`: `perm(l ‖ r ‖ 0 …)[..D]`, Plonky3's
//! `TruncatedPermutation`. The zero lanes (and, for `D > 1`, the truncation) are the capacity:
//! inputs are a fixed number of field elements, so no length encoding is needed.

use super::{Permutation, digest_len, merkle_arity};
#[cfg(feature = "alloc")]
use crate::Error;
use crate::field::PrimeField;

/// `perm(children ‖ 0 …)[..out.len()]`: `children` (at most `t` elements) written into a zero
/// state, permuted, the first `out.len()` (at most `t`) elements copied out.
#[inline]
pub(crate) fn compress_into<P: Permutation>(perm: &P, children: &[P::Field], out: &mut [P::Field]) {
    let mut state = perm.zero_state();
    state.as_mut()[..children.len()].copy_from_slice(children);
    perm.permute_state(&mut state);
    out.copy_from_slice(&state.as_ref()[..out.len()]);
}

/// The checks of the runtime `compress_digests`: digests of `N = D` elements, `arity` of them.
#[cfg(feature = "alloc")]
fn check_digests<F: PrimeField, const N: usize>(t: usize, children: usize) -> Result<(), Error> {
    let digest = digest_len::<F>();
    if N != digest {
        return Err(Error::InvalidDigestLength {
            got: N,
            expected: digest,
        });
    }
    let arity = merkle_arity(t, digest).ok_or(Error::UnsupportedWidth { t })?;
    if children != arity {
        return Err(Error::InvalidNumberOfInputs {
            got: children,
            expected: arity,
        });
    }
    Ok(())
}

/// [`Error::DigestTooShort`] unless one element of `F` is a whole digest (`D = 1`).
#[cfg(feature = "alloc")]
pub(crate) fn check_single_element_digest<F: PrimeField>() -> Result<(), Error> {
    if digest_len::<F>() == 1 {
        Ok(())
    } else {
        Err(Error::DigestTooShort {
            digest_bits: F::MODULUS_BITS,
            required_bits: super::REQUIRED_BITS,
        })
    }
}

/// The Merkle compressions `compress` and `compress_digests` on a const-generic permutation type
/// (`$ct`, width `T`) and its runtime-width counterpart (`$runtime`), `F` bounded by `$bound`.
macro_rules! impl_compress {
    ($ct:ty, $runtime:ty, [$($bound:tt)+]) => {
        impl<F: PrimeField + $($bound)+, const T: usize, const RF: usize, const RP: usize, const D: u64>
            $ct
        {
            /// Compresses `N = T - 1` elements to one: `perm([inputs[0], .., inputs[N-1], 0])[0]`
            /// (the reference's Merkle compression; for T = 3, `perm([left, right, 0])[0]`).
            ///
            /// Offered on fields whose digest is one element (BN254, BLS12-381; see the [module
            /// docs](crate::modes)). `N != T - 1`, or a field such as Goldilocks where one element
            /// carries fewer than 248 bits, is a compile-time error: use [`Self::compress_digests`]
            /// there. Never allocates, never fails.
            ///
            /// ```
            /// # #[cfg(feature = "bn254")] {
            /// use ark_bn254::Fr;
            /// use fast_poseidon2::instances::bn254;
            /// let perm = bn254::ct::t3();
            /// let parent = perm.compress(&[Fr::from(1u64), Fr::from(2u64)]);
            /// assert_eq!(parent, perm.permutation(&[1u64.into(), 2u64.into(), Fr::from(0u64)])[0]);
            /// # }
            /// ```
            ///
            /// Three inputs on a width-3 permutation do not compile, nor does a 64-bit Merkle node:
            ///
            /// ```compile_fail
            /// use ark_bn254::Fr;
            /// let x = Fr::from(1u64);
            /// fast_poseidon2::instances::bn254::ct::t3().compress(&[x, x, x]);
            /// ```
            ///
            /// ```compile_fail
            /// use fast_poseidon2::goldilocks::GoldilocksFast as G;
            /// fast_poseidon2::instances::goldilocks::ct::t8().compress(&[G::new(1); 7]);
            /// ```
            #[inline]
            pub fn compress<const N: usize>(&self, inputs: &[F; N]) -> F {
                const {
                    assert!(N + 1 == T, "compress takes exactly T - 1 inputs");
                    assert!(
                        digest_len::<F>() == 1,
                        "one element of this field is not a 248-bit digest: use compress_digests"
                    );
                };
                let mut out = [F::ZERO_ELEMENT];
                compress_into(self, inputs, &mut out);
                out[0]
            }

            /// Compresses `A` child digests of `N` elements each to one digest: `perm(children ‖ 0
            /// …)[..N]` (rule in the [module docs](crate::modes)). `N` must be the field's digest
            /// length `D` ([`crate::modes::digest_len`]) and `A` its [`crate::modes::merkle_arity`]
            /// (`T - 1` for `D = 1`, 2 for `D > 1`); anything else is a compile-time error. Never
            /// allocates, never fails.
            ///
            /// ```
            /// # #[cfg(feature = "goldilocks")] {
            /// use fast_poseidon2::goldilocks::GoldilocksFast as G;
            /// use fast_poseidon2::instances::goldilocks;
            /// let perm = goldilocks::ct::t12();
            /// let (l, r) = ([G::new(1); 4], [G::new(2); 4]);
            /// let parent: [G; 4] = perm.compress_digests(&[l, r]);
            /// let mut state = [G::new(0); 12];
            /// state[..4].copy_from_slice(&l);
            /// state[4..8].copy_from_slice(&r);
            /// assert_eq!(parent, perm.permutation(&state)[..4]);
            /// # }
            /// ```
            #[inline]
            pub fn compress_digests<const A: usize, const N: usize>(
                &self,
                children: &[[F; N]; A],
            ) -> [F; N] {
                const {
                    assert!(
                        N == digest_len::<F>(),
                        "digests of this field have digest_len elements"
                    );
                    assert!(
                        matches!(merkle_arity(T, N), Some(a) if a == A),
                        "compress_digests takes merkle_arity(T, D) children"
                    );
                };
                let mut out = [F::ZERO_ELEMENT; N];
                compress_into(self, children.as_flattened(), &mut out);
                out
            }
        }

        #[cfg(feature = "alloc")]
        impl<F: PrimeField + $($bound)+> $runtime {
            /// Compresses exactly `t - 1` elements to one: `perm(inputs ‖ 0)[0]` (the reference's
            /// Merkle compression; for t = 3, `perm([left, right, 0])[0]`), on fields whose digest
            /// is one element (see the [module docs](crate::modes); elsewhere use
            /// [`Self::compress_digests`]). Never allocates.
            ///
            /// ```
            /// # #[cfg(all(feature = "bn254", feature = "std"))] {
            /// use ark_bn254::Fr;
            /// use fast_poseidon2::{Error, instances::bn254};
            /// let perm = bn254::poseidon2_t3();
            /// let parent = perm.compress(&[Fr::from(1u64), Fr::from(2u64)]).unwrap();
            /// assert_eq!(parent, bn254::ct::t3().compress(&[Fr::from(1u64), Fr::from(2u64)]));
            /// assert_eq!(
            ///     perm.compress(&[Fr::from(1u64)]),
            ///     Err(Error::InvalidNumberOfInputs { got: 1, expected: 2 })
            /// );
            /// # }
            /// ```
            ///
            /// # Errors
            /// [`Error::DigestTooShort`] on a field whose digest is more than one element
            /// (Goldilocks); [`Error::InvalidNumberOfInputs`] if `inputs.len() != t - 1`.
            pub fn compress(&self, inputs: &[F]) -> Result<F, Error> {
                check_single_element_digest::<F>()?;
                let expected = self.width() - 1;
                if inputs.len() != expected {
                    return Err(Error::InvalidNumberOfInputs {
                        got: inputs.len(),
                        expected,
                    });
                }
                let mut out = [F::ZERO_ELEMENT];
                compress_into(self, inputs, &mut out);
                Ok(out[0])
            }

            /// Compresses child digests of `N` elements each to one digest: `perm(children ‖ 0
            /// …)[..N]` (rule in the [module docs](crate::modes)). Never allocates.
            ///
            /// # Errors
            /// In this order: [`Error::InvalidDigestLength`] unless `N` is the field's digest
            /// length ([`crate::modes::digest_len`]); [`Error::UnsupportedWidth`] if the width has
            /// no compression for such digests (`t < 2D`); [`Error::InvalidNumberOfInputs`] unless
            /// `children.len()` is [`crate::modes::merkle_arity`] (`t - 1` for `D = 1`, 2 for `D >
            /// 1`).
            pub fn compress_digests<const N: usize>(&self, children: &[[F; N]]) -> Result<[F; N], Error> {
                check_digests::<F, N>(self.width(), children.len())?;
                let mut out = [F::ZERO_ELEMENT; N];
                compress_into(self, children.as_flattened(), &mut out);
                Ok(out)
            }
        }
    };
}

super::for_each_family!(impl_compress);
