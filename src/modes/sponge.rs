//! The length-declared sponge: [`Sponge`] for streaming use, and the one-shot `hash` /
//! `hash_into` on both permutation types, which run the same [`Sponge`].
//!
//! Construction (sponge of Bertoni et al. over the Poseidon2 permutation, rate `r`, capacity
//! `c = t - r` of at least [`security_elements`]`(n)` elements for an `n`-bit field; initial
//! value from the Poseidon paper, eprint 2019/458, section 4.2):
//! 1. The state is all zero except the capacity, which holds the 128-bit integer
//!    `v = len · 2^64 + (out - 1)` (`len` input elements, `out` output elements) written in base
//!    `2^b`, `b = min(n - 1, 128)`, least significant digit first from `state[r]` on: one
//!    element `v` on BN254 and BLS12-381 (for `out = 1` the initial value `len · 2^64` Noir and
//!    Barretenberg use), three 63-bit digits on Goldilocks, five 30-bit digits on a 31-bit field.
//!    Every digit is below `2^(n-1) < p`, so distinct `(len, out)` give distinct states.
//! 2. Absorb: the input is cut into `r`-sized chunks (the last may be shorter); each chunk is
//!    ADDED into `state[0..chunk.len()]`, then the state is permuted.
//! 3. Squeeze: `state[0..r]` is output, permuting between blocks, until `out` elements.
//!
//! There is no padding: the input length is fixed up front and bound through the initial value.

use super::{Permutation, REQUIRED_BITS, security_elements, write_digits};
use crate::Error;
use crate::field::{Field, PrimeField};

/// A streaming Poseidon2 sponge over a borrowed permutation, with the input length and output
/// length declared up front (both enter the initial value). Never allocates.
///
/// Absorbing in pieces gives the same state as absorbing at once; `squeeze` into `n` then `m`
/// elements gives the same elements as squeezing `n + m`; squeezing an empty slice changes
/// nothing. The outputs equal `hash` / `hash_into` for the same input, rate and output length.
///
/// ```
/// # #[cfg(feature = "bn254")] {
/// use ark_bn254::Fr;
/// use fast_poseidon2::{instances::bn254, modes::Sponge};
/// let perm = bn254::ct::t4();
/// let input = [Fr::from(1u64), Fr::from(2u64), Fr::from(3u64), Fr::from(4u64)];
///
/// // rate 3, 4 input elements, 2 output elements
/// let mut sponge = Sponge::new(&perm, 3, input.len(), 2).unwrap();
/// sponge.absorb(&input[..1]).unwrap();
/// sponge.absorb(&input[1..]).unwrap();
/// let mut out = [Fr::from(0u64); 2];
/// sponge.squeeze(&mut out[..1]).unwrap();
/// sponge.squeeze(&mut out[1..]).unwrap();
/// assert_eq!(out, perm.hash::<3, 2>(&input).unwrap());
/// # }
/// ```
///
/// # Security
/// The mode hashes **fixed-length** inputs: the number of input elements and the number of
/// output elements are bound by the initial value in the capacity, injective in
/// `(len, out)` for every `len, out` a `usize` holds, on every field (module docs), so inputs of
/// different lengths (e.g. `[x]` and `[x, 0]`) and calls asking for different output lengths
/// never share a starting state. Element order is bound by the sponge itself.
///
/// The capacity must carry [`REQUIRED_BITS`] (248) bits: `c = t - rate >= ceil(248 / n)`
/// elements (1 on BN254 and BLS12-381, so Noir's t = 4, rate 3 is valid; 4 on Goldilocks, e.g.
/// rate 8 at t = 12). A smaller capacity is [`Error::InsufficientCapacity`]. Generic collision
/// resistance is then about `c · n / 2 >= 124` bits, and at most the permutation's 128-bit level.
///
/// Not bound: the rate (hashing the same input with two rates gives unrelated outputs, but no
/// domain separation exists between them; fix one rate per application) and any application
/// context (add a domain tag as an input element if two uses must not collide).
#[derive(Clone, Debug)]
pub struct Sponge<'a, P: Permutation> {
    perm: &'a P,
    state: P::State,
    rate: usize,
    input_len: usize,
    output_len: usize,
    absorbed: usize,
    squeezed: usize,
}

impl<'a, P: Permutation> Sponge<'a, P>
where
    P::Field: PrimeField,
{
    /// Starts a sponge over `perm` that will absorb exactly `input_len` elements and squeeze
    /// at most `output_len` elements, `rate` at a time.
    ///
    /// # Errors
    /// In this order: [`Error::EmptyInput`] if `input_len == 0`; [`Error::InvalidRate`] unless
    /// `1 <= rate < t`; [`Error::InsufficientCapacity`] if `t - rate` elements carry fewer than
    /// [`REQUIRED_BITS`] bits; [`Error::ZeroOutputs`] if `output_len == 0`;
    /// [`Error::DigestTooShort`] if `output_len` elements carry fewer than [`REQUIRED_BITS`]
    /// bits (`output_len < D`, [`crate::modes::digest_len`]: fewer than 4 on Goldilocks, 8 on
    /// BabyBear and KoalaBear; any `output_len >= 1` on BN254 and BLS12-381). A shorter digest
    /// is the caller's explicit choice: declare `D` outputs and squeeze (or keep) fewer.
    pub fn new(
        perm: &'a P,
        rate: usize,
        input_len: usize,
        output_len: usize,
    ) -> Result<Self, Error> {
        if input_len == 0 {
            return Err(Error::EmptyInput);
        }
        check_rate::<P::Field>(perm.width(), rate)?;
        if output_len == 0 {
            return Err(Error::ZeroOutputs);
        }
        check_output_len::<P::Field>(output_len)?;
        Ok(Self::with_initial_value(
            perm,
            rate,
            input_len,
            output_len,
            length_initial_value(input_len, output_len),
        ))
    }

    /// A sponge whose capacity holds `initial_value` (written as the module docs' step 1 writes
    /// `v`) instead of the length-declaring value. No checks: the caller has checked the rate
    /// ([`check_rate`]) and gives `input_len, output_len >= 1`. The message hash starts here.
    pub(crate) fn with_initial_value(
        perm: &'a P,
        rate: usize,
        input_len: usize,
        output_len: usize,
        initial_value: u128,
    ) -> Self {
        let mut state = perm.zero_state();
        // `check_rate` guarantees room for every digit: `c >= ceil(248 / n)` elements hold
        // `c · (n - 1) >= 248 - c >= 128` bits for every `n >= 3` (for `n <= 2`, `c >= 124`
        // exceeds every supported width).
        write_digits(&mut state.as_mut()[rate..perm.width()], initial_value);
        Sponge {
            perm,
            state,
            rate,
            input_len,
            output_len,
            absorbed: 0,
            squeezed: 0,
        }
    }

    /// Adds `inputs` into the state, permuting after every full `rate`-element chunk and after
    /// the last (possibly partial) chunk of the declared input.
    ///
    /// # Errors
    /// [`Error::AbsorbOverflow`] if this would take the total past the declared input length;
    /// nothing is absorbed then and the sponge stays usable.
    pub fn absorb(&mut self, inputs: &[P::Field]) -> Result<(), Error> {
        if inputs.len() > self.input_len - self.absorbed {
            return Err(Error::AbsorbOverflow {
                declared: self.input_len,
            });
        }
        for &x in inputs {
            self.absorb_element(x);
        }
        Ok(())
    }

    /// Adds one element (the caller stays within the declared input length), permuting after
    /// a full chunk and after the last element.
    #[inline]
    pub(crate) fn absorb_element(&mut self, x: P::Field) {
        let lane = &mut self.state.as_mut()[self.absorbed % self.rate];
        *lane = lane.add(x);
        self.absorbed += 1;
        if self.absorbed.is_multiple_of(self.rate) || self.absorbed == self.input_len {
            self.perm.permute_state(&mut self.state);
        }
    }

    /// Fills `out` with the next `out.len()` output elements, permuting between `rate`-element
    /// blocks. Once the declared input is absorbed, an empty `out` changes nothing.
    ///
    /// # Errors
    /// [`Error::IncompleteAbsorb`] before (an empty `out` included) the declared input length has
    /// been absorbed; [`Error::SqueezeOverflow`] if this would take the total past the declared
    /// output length. Nothing is squeezed then and the sponge stays usable.
    pub fn squeeze(&mut self, out: &mut [P::Field]) -> Result<(), Error> {
        if self.absorbed != self.input_len {
            return Err(Error::IncompleteAbsorb {
                absorbed: self.absorbed,
                declared: self.input_len,
            });
        }
        if out.len() > self.output_len - self.squeezed {
            return Err(Error::SqueezeOverflow {
                declared: self.output_len,
            });
        }
        self.squeeze_unchecked(out);
        Ok(())
    }

    /// [`Self::squeeze`] without its checks: the caller has absorbed the declared input and
    /// stays within the declared output length.
    pub(crate) fn squeeze_unchecked(&mut self, out: &mut [P::Field]) {
        for y in out {
            let lane = self.squeezed % self.rate;
            if lane == 0 && self.squeezed != 0 {
                self.perm.permute_state(&mut self.state);
            }
            *y = self.state.as_ref()[lane];
            self.squeezed += 1;
        }
    }
}

/// The rate `t - D` of the modes that keep the minimum secure capacity `D` (the byte API, the
/// message hash); 1 if `t <= D`, which [`check_rate`] then reports as
/// [`Error::InsufficientCapacity`].
pub(crate) fn secure_rate<P: Permutation>(perm: &P) -> usize
where
    P::Field: PrimeField,
{
    perm.width()
        .saturating_sub(security_elements(<P::Field as PrimeField>::MODULUS_BITS))
        .max(1)
}

/// The rate checks of every sponge over a width-`width` permutation, in this order:
/// [`Error::InvalidRate`] unless `1 <= rate < width`; [`Error::InsufficientCapacity`] if
/// `width - rate` elements carry fewer than [`REQUIRED_BITS`] bits.
pub(crate) fn check_rate<F: PrimeField>(width: usize, rate: usize) -> Result<(), Error> {
    if rate == 0 || rate >= width {
        return Err(Error::InvalidRate { rate, width });
    }
    let bits = F::MODULUS_BITS;
    let capacity = width - rate;
    if capacity < security_elements(bits) {
        return Err(Error::InsufficientCapacity {
            capacity_bits: capacity as u32 * bits,
            required_bits: REQUIRED_BITS,
        });
    }
    Ok(())
}

/// [`Error::DigestTooShort`] unless `output_len` elements carry [`REQUIRED_BITS`] bits.
fn check_output_len<F: PrimeField>(output_len: usize) -> Result<(), Error> {
    let bits = F::MODULUS_BITS;
    if output_len < security_elements(bits) {
        return Err(Error::DigestTooShort {
            digest_bits: output_len as u32 * bits,
            required_bits: REQUIRED_BITS,
        });
    }
    Ok(())
}

/// `v = len · 2^64 + (out - 1)`, the module docs' step 1, for `out >= 1`. usize is at most 64
/// bits on every supported target, so `v` is exact; its low 64 bits are at most `2^64 - 2`.
fn length_initial_value(len: usize, out: usize) -> u128 {
    ((len as u128) << 64) | (out as u128 - 1)
}

/// `hash_into` of the concatenation of `pieces`, for callers that have checked the shape
/// (`rate` by [`check_rate`], at least one input element, `out` non-empty): infallible.
#[cfg(any(feature = "arkworks", feature = "rs_merkle"))]
pub(crate) fn hash_pieces_unchecked<P: Permutation>(
    perm: &P,
    rate: usize,
    pieces: &[&[P::Field]],
    out: &mut [P::Field],
) where
    P::Field: PrimeField,
{
    let len = pieces.iter().map(|piece| piece.len()).sum();
    let mut sponge = Sponge::with_initial_value(
        perm,
        rate,
        len,
        out.len(),
        length_initial_value(len, out.len()),
    );
    for &x in pieces.iter().copied().flatten() {
        sponge.absorb_element(x);
    }
    sponge.squeeze_unchecked(out);
}

/// One-shot hash into `out` through a [`Sponge`].
pub(crate) fn hash_into<P: Permutation>(
    perm: &P,
    inputs: &[P::Field],
    rate: usize,
    out: &mut [P::Field],
) -> Result<(), Error>
where
    P::Field: PrimeField,
{
    let mut sponge = Sponge::new(perm, rate, inputs.len(), out.len())?;
    sponge.absorb(inputs)?;
    sponge.squeeze(out)
}

/// The one-shot sponge hashes `hash` and `hash_into` on a const-generic permutation type
/// (`$ct`, width `T`) and its runtime-width counterpart (`$runtime`), `F` bounded by `$bound`.
macro_rules! impl_sponge_hash {
    ($ct:ty, $runtime:ty, [$($bound:tt)+]) => {
        impl<F: PrimeField + $($bound)+, const T: usize, const RF: usize, const RP: usize, const D: u64>
            $ct
        {
            /// Hashes `inputs` to `OUT` elements with rate `RATE` (construction: see [`Sponge`]).
            /// `RATE` outside `1..T` or `OUT == 0` is a compile-time error. Never allocates.
            ///
            /// ```
            /// # #[cfg(feature = "bn254")] {
            /// use ark_bn254::Fr;
            /// use core::str::FromStr;
            /// use fast_poseidon2::instances::bn254;
            /// // Noir's `Poseidon2::hash([1000], 1)` on BN254 t = 4 (noir-lang/poseidon src/tests.nr)
            /// let [h] = bn254::ct::t4().hash::<3, 1>(&[Fr::from(1000u64)]).unwrap();
            /// let noir = "10069665198177540103340943397793364387868601927193775291640690834039201200764";
            /// assert_eq!(h, Fr::from_str(noir).unwrap());
            /// # }
            /// ```
            ///
            /// A rate leaving no capacity does not compile:
            ///
            /// ```compile_fail
            /// use ark_bn254::Fr;
            /// fast_poseidon2::instances::bn254::ct::t4().hash::<4, 1>(&[Fr::from(1u64)]);
            /// ```
            ///
            /// # Security
            /// Fixed-length hashing: input length, output count and element order are bound; the
            /// rate is not. Details in [`Sponge`].
            ///
            /// # Errors
            /// [`Error::EmptyInput`] if `inputs` is empty; [`Error::InsufficientCapacity`] if `T -
            /// RATE` elements carry fewer than [`REQUIRED_BITS`] bits; [`Error::DigestTooShort`] if
            /// `OUT` elements carry fewer than [`REQUIRED_BITS`] bits (`OUT < D`: e.g. `hash::<8,
            /// 1>` on Goldilocks t = 12). Both are an `Err`, not a compile-time error, so that
            /// generic code sees the runtime type's behaviour.
            pub fn hash<const RATE: usize, const OUT: usize>(
                &self,
                inputs: &[F],
            ) -> Result<[F; OUT], Error> {
                const {
                    assert!(
                        RATE >= 1 && RATE < T && OUT >= 1,
                        "need 1 <= RATE < T and OUT >= 1"
                    )
                };
                let mut out = [F::ZERO_ELEMENT; OUT];
                hash_into(self, inputs, RATE, &mut out)?;
                Ok(out)
            }

            /// Hashes `inputs` into `out.len()` elements with rate `rate` (construction: see
            /// [`Sponge`]). Never allocates.
            ///
            /// # Security
            /// Fixed-length hashing: input length, output count and element order are bound; the
            /// rate is not. Details in [`Sponge`].
            ///
            /// # Errors
            /// As [`Sponge::new`]: [`Error::EmptyInput`] if `inputs` is empty;
            /// [`Error::InvalidRate`] unless `1 <= rate < T`; [`Error::InsufficientCapacity`] if `T
            /// - rate` elements carry fewer than [`REQUIRED_BITS`] bits; [`Error::ZeroOutputs`] if
            /// `out` is empty; [`Error::DigestTooShort`] if `out` holds fewer than `D` elements
            /// (fewer than 248 bits). `out` is untouched then.
            pub fn hash_into(&self, inputs: &[F], rate: usize, out: &mut [F]) -> Result<(), Error> {
                hash_into(self, inputs, rate, out)
            }
        }

        #[cfg(feature = "alloc")]
        impl<F: PrimeField + $($bound)+> $runtime {
            /// Hashes `inputs` to `out` elements with rate `rate` (construction: see [`Sponge`]).
            ///
            /// ```
            /// # #[cfg(all(feature = "bn254", feature = "std"))] {
            /// use ark_bn254::Fr;
            /// use fast_poseidon2::{Error, instances::bn254};
            /// let perm = bn254::poseidon2_t4();
            /// let h = perm.hash(&[Fr::from(1000u64)], 3, 1).unwrap();
            /// assert_eq!(h, bn254::ct::t4().hash::<3, 1>(&[Fr::from(1000u64)]).unwrap());
            /// assert_eq!(perm.hash(&[], 3, 1), Err(Error::EmptyInput));
            /// # }
            /// ```
            ///
            /// # Security
            /// Fixed-length hashing: input length, output count and element order are bound; the
            /// rate is not. Details in [`Sponge`].
            ///
            /// # Errors
            /// As [`Sponge::new`] ([`Error::EmptyInput`], [`Error::InvalidRate`],
            /// [`Error::InsufficientCapacity`], [`Error::ZeroOutputs`], [`Error::DigestTooShort`]);
            /// [`Error::OutputTooLarge`] if
            /// `out` elements cannot be allocated.
            pub fn hash(&self, inputs: &[F], rate: usize, out: usize) -> Result<alloc::vec::Vec<F>, Error> {
                let mut sponge = Sponge::new(self, rate, inputs.len(), out)?;
                let mut output = alloc::vec::Vec::new();
                output
                    .try_reserve_exact(out)
                    .map_err(|_| Error::OutputTooLarge { requested: out })?;
                output.resize(out, F::ZERO_ELEMENT);
                sponge.absorb(inputs)?;
                sponge.squeeze(&mut output)?;
                Ok(output)
            }

            /// Hashes `inputs` into `out.len()` elements with rate `rate` (construction: see
            /// [`Sponge`]). Never allocates.
            ///
            /// # Security
            /// Fixed-length hashing: input length, output count and element order are bound; the
            /// rate is not. Details in [`Sponge`].
            ///
            /// # Errors
            /// As [`Sponge::new`]: [`Error::EmptyInput`], [`Error::InvalidRate`],
            /// [`Error::InsufficientCapacity`], [`Error::ZeroOutputs`], [`Error::DigestTooShort`].
            /// `out` is untouched then.
            pub fn hash_into(&self, inputs: &[F], rate: usize, out: &mut [F]) -> Result<(), Error> {
                hash_into(self, inputs, rate, out)
            }
        }
    };
}

super::for_each_family!(impl_sponge_hash);

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// Lengths and output counts at the documented limits and around every power of two where
    /// a wrapping encoding would meet (`2^32` on Goldilocks, `2^63`, `2^64 - 1`).
    const LIMITS: [u64; 9] = [
        1,
        2,
        (1 << 32) - 1,
        1 << 32,
        (1 << 32) + 1,
        1 << 63,
        u64::MAX - 1,
        u64::MAX,
        12345,
    ];

    /// Distinct `(len, out)` pairs give distinct capacity contents, in the minimum capacity
    /// the field allows.
    fn initial_values_are_injective<F: PrimeField>() {
        let c = security_elements(F::MODULUS_BITS);
        let mut seen: Vec<((u64, u64), Vec<F>)> = Vec::new();
        for &len in &LIMITS {
            for &out in &LIMITS {
                let mut capacity = alloc::vec![F::ZERO_ELEMENT; c];
                write_digits(
                    &mut capacity,
                    length_initial_value(len as usize, out as usize),
                );
                for (pair, other) in &seen {
                    assert!(*other != capacity, "{pair:?} and {:?} meet", (len, out));
                }
                seen.push(((len, out), capacity));
            }
        }
    }

    #[test]
    fn goldilocks_initial_values_are_injective_at_the_limits() {
        initial_values_are_injective::<crate::field::goldilocks::GoldilocksFast>();
        initial_values_are_injective::<crate::field::goldilocks::Goldilocks>();
    }

    #[cfg(feature = "bn254")]
    #[test]
    fn bn254_initial_values_are_injective_at_the_limits() {
        initial_values_are_injective::<ark_bn254::Fr>();
    }

    #[cfg(feature = "bls12-381")]
    #[test]
    fn bls12_381_initial_values_are_injective_at_the_limits() {
        initial_values_are_injective::<ark_bls12_381::Fr>();
    }

    /// On BN254 the initial value stays Noir's single element `len · 2^64 + (out - 1)`.
    #[cfg(feature = "bn254")]
    #[test]
    fn bn254_initial_value_is_one_element_len_times_two_to_the_64_plus_out_minus_one() {
        let mut capacity = [ark_bn254::Fr::ZERO_ELEMENT; 1];
        write_digits(&mut capacity, length_initial_value(5, 3));
        let two_64 = ark_bn254::Fr::from_u64(1 << 32).squared();
        assert_eq!(
            capacity[0],
            ark_bn254::Fr::from_u64(5)
                .mul(two_64)
                .add(ark_bn254::Fr::from_u64(2))
        );
    }
}
