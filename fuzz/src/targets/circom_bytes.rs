//! Arbitrary byte slices and endianness -> the circom BN254 Poseidon1 byte API
//! (`circom_bn254::hashv_bytes`) never panics, fails exactly when and how its docs say (no
//! slices, more than 16, a slice not 32 bytes, an integer `>= p`, in that order) and otherwise
//! equals the textbook model: the dense reference permutation (`testkit::textbook`) of
//! `[0, x_1, .., x_n]` with freshly generated parameters, output `state[0]` in the input's
//! endianness.
//!
//! Layout: byte 0 gives the endianness (low bit) and the number of slices (`>> 1`, modulo 18);
//! then per slice one length byte (below 192: 32 bytes; otherwise any length up to 34) and that
//! many bytes.

use crate::byte;
use ark_bn254::Fr;
use fast_poseidon2::instances::circom_bn254::{ROUNDS_P, hashv_bytes};
use fast_poseidon2::poseidon1::Poseidon1Params;
use fast_poseidon2::{Endianness, Error, field::PrimeField};
use std::sync::OnceLock;

/// The generated parameters of width `t` (2..=17), once each.
fn params(t: usize) -> &'static Poseidon1Params<Fr> {
    static CELLS: [OnceLock<Poseidon1Params<Fr>>; 16] = [const { OnceLock::new() }; 16];
    CELLS[t - 2].get_or_init(|| Poseidon1Params::generate(t, 5, 8, ROUNDS_P[t - 2]).unwrap())
}

/// The specification, written from the docs.
fn model(endianness: Endianness, inputs: &[Vec<u8>]) -> Result<[u8; 32], Error> {
    if inputs.is_empty() {
        return Err(Error::EmptyInput);
    }
    if inputs.len() > 16 {
        return Err(Error::TooManyInputs {
            got: inputs.len(),
            max: 16,
        });
    }
    if let Some(index) = inputs.iter().position(|x| x.len() != 32) {
        return Err(Error::InvalidInputLength {
            index,
            len: inputs[index].len(),
            expected: 32,
        });
    }
    let mut elements = Vec::new();
    for (index, x) in inputs.iter().enumerate() {
        let mut be = x.clone();
        if endianness == Endianness::LittleEndian {
            be.reverse();
        }
        elements
            .push(Fr::from_canonical_be_bytes(&be).ok_or(Error::InputLargerThanModulus { index })?);
    }
    let h = testkit::textbook::circom_hash(params(elements.len() + 1), Fr::from(0u64), &elements);
    let mut out = [0u8; 32];
    h.write_canonical_be_bytes(&mut out);
    if endianness == Endianness::LittleEndian {
        out.reverse();
    }
    Ok(out)
}

/// Runs one fuzz input (`data`, laid out as above); panics on a finding.
pub fn run(data: &[u8]) {
    let mode = byte(data, 0);
    let endianness = if mode & 1 == 1 {
        Endianness::LittleEndian
    } else {
        Endianness::BigEndian
    };
    let count = usize::from(mode >> 1) % 18;
    let mut at = 1;
    let inputs: Vec<Vec<u8>> = (0..count)
        .map(|_| {
            let tag = byte(data, at);
            let len = if tag < 192 { 32 } else { usize::from(tag) % 35 };
            let slice = (at + 1..at + 1 + len).map(|i| byte(data, i)).collect();
            at += 1 + len;
            slice
        })
        .collect();
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    assert_eq!(hashv_bytes(endianness, &refs), model(endianness, &inputs));
}
