//! 2-to-1 (more generally `(t-1)`-to-1) compression for Merkle trees: the reference's
//! `MerkleTreeHash::compress` (`plain_implementations/src/poseidon2/poseidon2.rs`, HorizenLabs
//! commit `055bde3f`): `compress(x_0, .., x_{t-2}) = perm([x_0, .., x_{t-2}, 0])[0]`.
//!
//! For t = 3 this is `perm([left, right, 0])[0]`. The zero in the last lane is the only
//! capacity: inputs are a fixed number of field elements, so no length encoding is needed.

use crate::ct::Poseidon2Ct;
use crate::field::Field;

impl<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>
    Poseidon2Ct<F, T, RF, RP, D>
{
    /// Compresses `N = T - 1` elements to one: `perm([inputs[0], .., inputs[N-1], 0])[0]`
    /// (the reference's Merkle compression; for T = 3, `perm([left, right, 0])[0]`).
    ///
    /// `N != T - 1` is a compile-time error. Never allocates, never fails.
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
    /// Three inputs on a width-3 permutation do not compile:
    ///
    /// ```compile_fail
    /// use ark_bn254::Fr;
    /// let x = Fr::from(1u64);
    /// fast_poseidon2::instances::bn254::ct::t3().compress(&[x, x, x]);
    /// ```
    #[inline]
    pub fn compress<const N: usize>(&self, inputs: &[F; N]) -> F {
        const { assert!(N + 1 == T, "compress takes exactly T - 1 inputs") };
        let mut state = [F::ZERO; T];
        state[..N].copy_from_slice(inputs);
        self.permute_mut(&mut state);
        state[0]
    }
}

#[cfg(feature = "alloc")]
impl<F: Field> crate::Poseidon2<F> {
    /// Compresses exactly `t - 1` elements to one: `perm(inputs ‖ 0)[0]` (the reference's Merkle
    /// compression; for t = 3, `perm([left, right, 0])[0]`). Never allocates.
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
    /// [`crate::Error::InvalidNumberOfInputs`] if `inputs.len() != t - 1`.
    pub fn compress(&self, inputs: &[F]) -> Result<F, crate::Error> {
        use super::Permutation;
        let expected = self.width() - 1;
        if inputs.len() != expected {
            return Err(crate::Error::InvalidNumberOfInputs {
                got: inputs.len(),
                expected,
            });
        }
        let mut state = self.zero_state();
        state[..expected].copy_from_slice(inputs);
        self.permute_state(&mut state);
        Ok(state[0])
    }
}
