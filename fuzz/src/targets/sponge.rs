//! Arbitrary sponge parameters -> on one shipped instance, `Sponge::new` fails exactly on the
//! documented errors (empty input, rate outside `1..t`, a capacity below 248 bits, zero
//! outputs, a digest below 248 bits) and otherwise one-shot
//! hashing on both paths and streaming in arbitrary pieces equal the textbook sponge.
//!
//! Layout: bytes 0-4 pick the instance, the rate (any byte value), the input length (at most
//! 47), the output length (at most 47) and the number of absorb / squeeze cuts (low / high
//! nibble, at most 15 each); then the cut positions, one byte each; the rest are the inputs.

use crate::differential::assert_sponge_agrees;
use crate::{byte, elements, with_instance};
use fast_poseidon2::Error;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::modes::{Permutation, Sponge};

/// The textbook capacity and digest rule for `perm`'s field: (required capacity and digest
/// elements, bits per element).
fn capacity_rule<P: Permutation>(_: &P) -> (usize, u32)
where
    P::Field: PrimeField,
{
    (
        crate::textbook::digest_len::<P::Field>(),
        <P::Field as PrimeField>::MODULUS_BITS,
    )
}

/// Runs one fuzz input (`data`, laid out as above); panics on a finding.
pub fn run(data: &[u8]) {
    let rate = usize::from(byte(data, 1));
    let len = usize::from(byte(data, 2)) % 48;
    let out = usize::from(byte(data, 3)) % 48;
    let (absorb_count, squeeze_count) = (byte(data, 4) & 15, byte(data, 4) >> 4);
    let cuts: Vec<usize> = (0..absorb_count + squeeze_count)
        .map(|i| usize::from(byte(data, 5 + usize::from(i))))
        .collect();
    let (absorb_cuts, squeeze_cuts) = cuts.split_at(usize::from(absorb_count));
    let rest = data.get(5 + cuts.len()..).unwrap_or(&[]);
    with_instance!(byte(data, 0), |ct, flexible| {
        let width = ct.to_params().width();
        let expected = if len == 0 {
            Err(Error::EmptyInput)
        } else if rate == 0 || rate >= width {
            Err(Error::InvalidRate { rate, width })
        } else if width - rate < capacity_rule(ct).0 {
            Err(Error::InsufficientCapacity {
                capacity_bits: (width - rate) as u32 * capacity_rule(ct).1,
                required_bits: 248,
            })
        } else if out == 0 {
            Err(Error::ZeroOutputs)
        } else if out < capacity_rule(ct).0 {
            Err(Error::DigestTooShort {
                digest_bits: out as u32 * capacity_rule(ct).1,
                required_bits: 248,
            })
        } else {
            Ok(())
        };
        assert_eq!(Sponge::new(ct, rate, len, out).map(|_| ()), expected);
        assert_eq!(Sponge::new(flexible, rate, len, out).map(|_| ()), expected);
        if expected.is_ok() {
            let inputs = elements(rest, len);
            assert_sponge_agrees(ct, flexible, &inputs, rate, out, absorb_cuts, squeeze_cuts);
        }
    });
}
