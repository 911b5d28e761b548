//! Arbitrary byte slices and endianness -> `hashv_bytes` on one shipped instance never panics,
//! fails exactly when and how the specification says (empty, more than `MAX_BYTE_INPUTS`, a
//! wrong length, an integer `>= p`, in that order) and otherwise equals the textbook byte API
//! (the sponge of the decoded elements), on both paths.
//!
//! Layout: byte 0 picks the instance, byte 1 the endianness (low bit) and the number of slices
//! (`>> 1`, modulo `MAX_BYTE_INPUTS + 2`); then per slice one length byte (below 192: the
//! field's length; otherwise any length up to the field's length + 2) and that many bytes.

use crate::differential::assert_bytes_agree;
use crate::{byte, with_instance};
use fast_poseidon2::MAX_BYTE_INPUTS;
use fast_poseidon2::field::PrimeField;

/// The slices described by `data` for a field of `field_bytes` bytes.
fn slices(data: &[u8], count: usize, field_bytes: usize) -> Vec<Vec<u8>> {
    let mut at = 0;
    (0..count)
        .map(|_| {
            let tag = byte(data, at);
            let len = if tag < 192 {
                field_bytes
            } else {
                usize::from(tag) % (field_bytes + 3)
            };
            let slice = (at + 1..at + 1 + len).map(|i| byte(data, i)).collect();
            at += 1 + len;
            slice
        })
        .collect()
}

fn field_bytes<F: PrimeField>(_: &[F]) -> usize {
    F::BYTES
}

/// Runs one fuzz input (`data`, laid out as above); panics on a finding.
pub fn run(data: &[u8]) {
    let (selector, mode) = (byte(data, 0), byte(data, 1));
    let little_endian = mode & 1 == 1;
    let count = usize::from(mode >> 1) % (MAX_BYTE_INPUTS + 2);
    with_instance!(selector, |ct, flexible| {
        let inputs = slices(
            data.get(2..).unwrap_or(&[]),
            count,
            field_bytes(ct.internal_diagonal_minus_one()),
        );
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        assert_bytes_agree(ct, flexible, little_endian, &refs)
    });
}
