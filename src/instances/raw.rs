//! Baked constant tables and their conversion into field elements.

use crate::ct::Poseidon2Ct;
use crate::field::{MAX_FIELD_BYTES, PrimeField};

/// One instance's constants as canonical integers, each `L` little-endian 64-bit limbs, in the
/// layout of [`crate::Poseidon2Params`]. Written by `cargo run -p xtask -- gen-params`.
#[derive(Debug)]
pub(crate) struct RawInstance<const L: usize> {
    pub t: usize,
    pub d: u64,
    pub rounds_f: usize,
    pub rounds_p: usize,
    pub external: &'static [[u64; L]],
    pub internal: &'static [[u64; L]],
    pub diag_m1: &'static [[u64; L]],
}

/// The field element whose canonical integer has the little-endian limbs `limbs`.
fn element<F: PrimeField, const L: usize>(limbs: &[u64; L]) -> F {
    let mut buf = [0u8; MAX_FIELD_BYTES];
    for (i, limb) in limbs.iter().rev().enumerate() {
        buf[8 * i..8 * i + 8].copy_from_slice(&limb.to_be_bytes());
    }
    F::from_be_bytes_reduced(&buf[..8 * L])
}

impl<const L: usize> RawInstance<L> {
    /// The const-generic permutation; the shape is the caller's type, checked against the table
    /// by the regeneration test.
    pub(crate) fn ct<
        F: PrimeField,
        const T: usize,
        const RF: usize,
        const RP: usize,
        const D: u64,
    >(
        &self,
    ) -> Poseidon2Ct<F, T, RF, RP, D> {
        debug_assert_eq!(
            (self.t, self.rounds_f, self.rounds_p, self.d),
            (T, RF, RP, D)
        );
        Poseidon2Ct::from_constants(
            core::array::from_fn(|r| core::array::from_fn(|i| element(&self.external[r * T + i]))),
            core::array::from_fn(|r| element(&self.internal[r])),
            core::array::from_fn(|i| element(&self.diag_m1[i])),
        )
    }

    /// The runtime-width parameters (for the cached getters, which need `std`).
    #[cfg(feature = "std")]
    pub(crate) fn params<F: PrimeField>(&self) -> crate::Poseidon2Params<F> {
        let convert = |table: &[[u64; L]]| table.iter().map(element::<F, L>).collect();
        crate::Poseidon2Params {
            width: self.t,
            sbox_degree: self.d,
            rounds_f: self.rounds_f,
            rounds_p: self.rounds_p,
            external_round_constants: convert(self.external),
            internal_round_constants: convert(self.internal),
            internal_diagonal_minus_one: convert(self.diag_m1),
        }
    }
}
