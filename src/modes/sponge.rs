//! The length-declared sponge: [`Sponge`] for streaming use, and the one-shot `hash` /
//! `hash_into` on both permutation types, which run the same [`Sponge`].
//!
//! Construction (sponge of Bertoni et al. over the Poseidon2 permutation, capacity
//! `c = t - rate >= 1`; initial value from the Poseidon paper, eprint 2019/458, section 4.2):
//! 1. The state is all zero except `state[rate] = len · 2^64 + (out - 1)`, where `len` is the
//!    number of input elements and `out` the number of output elements. For `out = 1` this is
//!    the initial value Noir and Barretenberg use (`len · 2^64`).
//! 2. Absorb: the input is cut into `rate`-sized chunks (the last may be shorter); each chunk is
//!    ADDED into `state[0..chunk.len()]`, then the state is permuted.
//! 3. Squeeze: `state[0..rate]` is output, permuting between blocks, until `out` elements.
//!
//! There is no padding: the input length is fixed up front and bound through the initial value.

use super::Permutation;
use crate::Error;
use crate::ct::Poseidon2Ct;
use crate::field::Field;

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
/// output elements are bound by the initial value `len · 2^64 + (out - 1)` in the capacity, so
/// inputs of different lengths (e.g. `[x]` and `[x, 0]`) and calls asking for different output
/// lengths never share a starting state. This encoding is injective for `len, out < 2^64` when
/// `p > 2^128` (BN254, BLS12-381), and for `len, out < 2^32` on Goldilocks
/// (`2^64 = 2^32 - 1 mod p`). Element order is bound by the sponge itself.
///
/// Not bound: the rate (hashing the same input with two rates gives unrelated outputs, but no
/// domain separation exists between them; fix one rate per application) and any application
/// context (add a domain tag as an input element if two uses must not collide).
///
/// Generic security is at most `c · log2(p) / 2` bits against collisions, with
/// `c = t - rate` capacity elements, and at most the permutation's 128-bit level. One capacity
/// element suffices for 254/255-bit fields; a 64-bit field such as Goldilocks needs `c >= 4`
/// for 128-bit collision resistance.
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

impl<'a, P: Permutation> Sponge<'a, P> {
    /// Starts a sponge over `perm` that will absorb exactly `input_len` elements and squeeze
    /// at most `output_len` elements, `rate` at a time.
    ///
    /// # Errors
    /// [`Error::EmptyInput`] if `input_len == 0`; [`Error::InvalidRate`] unless
    /// `1 <= rate < t`; [`Error::ZeroOutputs`] if `output_len == 0`.
    pub fn new(
        perm: &'a P,
        rate: usize,
        input_len: usize,
        output_len: usize,
    ) -> Result<Self, Error> {
        let width = perm.width();
        if input_len == 0 {
            return Err(Error::EmptyInput);
        }
        if rate == 0 || rate >= width {
            return Err(Error::InvalidRate { rate, width });
        }
        if output_len == 0 {
            return Err(Error::ZeroOutputs);
        }
        let mut state = perm.zero_state();
        state.as_mut()[rate] = initial_value(input_len, output_len);
        Ok(Sponge {
            perm,
            state,
            rate,
            input_len,
            output_len,
            absorbed: 0,
            squeezed: 0,
        })
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
            let lane = &mut self.state.as_mut()[self.absorbed % self.rate];
            *lane = lane.add(x);
            self.absorbed += 1;
            if self.absorbed.is_multiple_of(self.rate) || self.absorbed == self.input_len {
                self.perm.permute_state(&mut self.state);
            }
        }
        Ok(())
    }

    /// Fills `out` with the next `out.len()` output elements, permuting between `rate`-element
    /// blocks. An empty `out` changes nothing.
    ///
    /// # Errors
    /// [`Error::IncompleteAbsorb`] before the declared input length has been absorbed;
    /// [`Error::SqueezeOverflow`] if this would take the total past the declared output length.
    /// Nothing is squeezed then and the sponge stays usable.
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
        for y in out {
            let lane = self.squeezed % self.rate;
            if lane == 0 && self.squeezed != 0 {
                self.perm.permute_state(&mut self.state);
            }
            *y = self.state.as_ref()[lane];
            self.squeezed += 1;
        }
        Ok(())
    }
}

/// `len · 2^64 + (out - 1)` in the field (`2^64` as `(2^32)^2`, so that it is exact in any
/// field; reduced mod p where `p < 2^64`).
fn initial_value<F: Field>(len: usize, out: usize) -> F {
    let two_64 = F::from_u64(1 << 32).square();
    // usize is at most 64 bits on every supported target.
    F::from_u64(len as u64)
        .mul(two_64)
        .add(F::from_u64((out - 1) as u64))
}

/// One-shot hash into `out` through a [`Sponge`].
fn hash_into<P: Permutation>(
    perm: &P,
    inputs: &[P::Field],
    rate: usize,
    out: &mut [P::Field],
) -> Result<(), Error> {
    let mut sponge = Sponge::new(perm, rate, inputs.len(), out.len())?;
    sponge.absorb(inputs)?;
    sponge.squeeze(out)
}

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon2Ct<F, T, RF, RP, D>
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
    /// Fixed-length hashing: input length, output count and element order are bound; the rate
    /// is not. Details in [`Sponge`].
    ///
    /// # Errors
    /// [`Error::EmptyInput`] if `inputs` is empty.
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
        let mut out = [F::ZERO; OUT];
        hash_into(self, inputs, RATE, &mut out)?;
        Ok(out)
    }

    /// Hashes `inputs` into `out.len()` elements with rate `rate` (construction: see
    /// [`Sponge`]). Never allocates.
    ///
    /// # Security
    /// Fixed-length hashing: input length, output count and element order are bound; the rate
    /// is not. Details in [`Sponge`].
    ///
    /// # Errors
    /// [`Error::EmptyInput`] if `inputs` is empty; [`Error::InvalidRate`] unless
    /// `1 <= rate < T`; [`Error::ZeroOutputs`] if `out` is empty. `out` is untouched then.
    pub fn hash_into(&self, inputs: &[F], rate: usize, out: &mut [F]) -> Result<(), Error> {
        hash_into(self, inputs, rate, out)
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> crate::Poseidon2<F> {
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
    /// Fixed-length hashing: input length, output count and element order are bound; the rate
    /// is not. Details in [`Sponge`].
    ///
    /// # Errors
    /// [`Error::EmptyInput`] if `inputs` is empty; [`Error::InvalidRate`] unless
    /// `1 <= rate < t`; [`Error::ZeroOutputs`] if `out == 0`; [`Error::OutputTooLarge`] if `out`
    /// elements cannot be allocated.
    pub fn hash(&self, inputs: &[F], rate: usize, out: usize) -> Result<alloc::vec::Vec<F>, Error> {
        let mut sponge = Sponge::new(self, rate, inputs.len(), out)?;
        let mut output = alloc::vec::Vec::new();
        output
            .try_reserve_exact(out)
            .map_err(|_| Error::OutputTooLarge { requested: out })?;
        output.resize(out, F::ZERO);
        sponge.absorb(inputs)?;
        sponge.squeeze(&mut output)?;
        Ok(output)
    }

    /// Hashes `inputs` into `out.len()` elements with rate `rate` (construction: see
    /// [`Sponge`]). Never allocates.
    ///
    /// # Security
    /// Fixed-length hashing: input length, output count and element order are bound; the rate
    /// is not. Details in [`Sponge`].
    ///
    /// # Errors
    /// [`Error::EmptyInput`] if `inputs` is empty; [`Error::InvalidRate`] unless
    /// `1 <= rate < t`; [`Error::ZeroOutputs`] if `out` is empty. `out` is untouched then.
    pub fn hash_into(&self, inputs: &[F], rate: usize, out: &mut [F]) -> Result<(), Error> {
        hash_into(self, inputs, rate, out)
    }
}
