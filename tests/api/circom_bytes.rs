//! The circom BN254 Poseidon1 API's contracts: every applicable case of the shared byte-API
//! list (`cases/bytes.md`, BN254 rows 1-13 and 24) on `hashv_bytes` / `hash_bytes_be` /
//! `hash_bytes_le`, each followed by a valid call that must still give the right answer; the
//! field API's and the family's documented errors.
#![cfg(feature = "bn254")]

use ark_bn254::Fr;
use fast_poseidon2::instances::circom_bn254::{
    self, MAX_INPUTS, hash, hash_bytes_be, hash_bytes_le, hashv_bytes,
};
use fast_poseidon2::poseidon1::{Poseidon1, Poseidon1Params};
use fast_poseidon2::{Endianness, Error};

/// r, big-endian.
const R: [u8; 32] = [
    0x30, 0x64, 0x4e, 0x72, 0xe1, 0x31, 0xa0, 0x29, 0xb8, 0x50, 0x45, 0xb6, 0x81, 0x81, 0x58, 0x5d,
    0x28, 0x33, 0xe8, 0x48, 0x79, 0xb9, 0x70, 0x91, 0x43, 0xe1, 0xf5, 0x93, 0xf0, 0x00, 0x00, 0x01,
];

fn be(v: u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[24..].copy_from_slice(&v.to_be_bytes());
    out
}

/// circomlibjs `poseidon([1, 2])`, big-endian.
fn one_two_be() -> [u8; 32] {
    let mut out = [0u8; 32];
    hex_to(
        &mut out,
        "115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a",
    );
    out
}

fn hex_to(out: &mut [u8; 32], s: &str) {
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
}

/// The valid call every case is followed by.
fn still_works() {
    assert_eq!(hash_bytes_be(&[&be(1), &be(2)]).unwrap(), one_two_be());
}

fn r_plus(k: u8) -> [u8; 32] {
    let mut x = R;
    x[31] = x[31].wrapping_add(k);
    x
}

#[test]
fn case_1_2_5_inputs_at_or_above_r_are_rejected_big_endian() {
    for input in [R, r_plus(1), [0xff; 32]] {
        assert_eq!(
            hash_bytes_be(&[&input]),
            Err(Error::InputLargerThanModulus { index: 0 })
        );
        still_works();
    }
}

#[test]
fn case_3_r_minus_one_is_accepted_and_the_output_is_canonical() {
    let mut input = R;
    input[31] = 0x00;
    let out = hash_bytes_be(&[&input]).unwrap();
    assert!(out < R);
    still_works();
}

#[test]
fn case_4_r_plus_one_little_endian_is_rejected() {
    let mut input = r_plus(1);
    input.reverse();
    assert_eq!(input[..4], [0x02, 0x00, 0x00, 0xf0]);
    assert_eq!(
        hash_bytes_le(&[&input]),
        Err(Error::InputLargerThanModulus { index: 0 })
    );
    still_works();
}

#[test]
fn cases_6_to_9_inputs_not_exactly_32_bytes_are_rejected_unpadded() {
    for len in [33usize, 31, 1, 0] {
        let input = vec![if len == 1 { 1 } else { 0 }; len];
        assert_eq!(
            hash_bytes_be(&[&input]),
            Err(Error::InvalidInputLength {
                index: 0,
                len,
                expected: 32
            })
        );
        still_works();
    }
}

#[test]
fn case_10_no_inputs_is_empty_input() {
    assert_eq!(hash_bytes_be(&[]), Err(Error::EmptyInput));
    assert_eq!(hash(&[]), Err(Error::EmptyInput));
    still_works();
}

#[test]
fn case_11_a_bad_second_length_is_reported_before_reading_the_first() {
    let bad = [0u8; 33];
    // Input 0 is >= r as well: the length check comes first, so no byte of it was judged.
    assert_eq!(
        hash_bytes_be(&[&[0xff; 32], &bad]),
        Err(Error::InvalidInputLength {
            index: 1,
            len: 33,
            expected: 32
        })
    );
    still_works();
}

#[test]
fn case_12_a_100_mb_slice_is_rejected_at_once() {
    let huge = vec![0u8; 100_000_000];
    let start = std::time::Instant::now();
    assert_eq!(
        hash_bytes_be(&[&huge]),
        Err(Error::InvalidInputLength {
            index: 0,
            len: 100_000_000,
            expected: 32
        })
    );
    assert!(start.elapsed() < std::time::Duration::from_millis(50));
    still_works();
}

#[test]
fn case_13_little_endian_is_the_byte_reversal_of_big_endian() {
    let (x, y) = (be(1), be(2));
    let (mut xl, mut yl) = (x, y);
    xl.reverse();
    yl.reverse();
    let mut big = hash_bytes_be(&[&x, &y]).unwrap();
    big.reverse();
    assert_eq!(hash_bytes_le(&[&xl, &yl]).unwrap(), big);
    assert_eq!(
        hashv_bytes(Endianness::LittleEndian, &[&xl, &yl]).unwrap(),
        big
    );
}

#[test]
fn too_many_inputs_are_rejected_on_both_apis() {
    let one = be(1);
    let inputs = vec![&one[..]; MAX_INPUTS + 1];
    assert_eq!(
        hash_bytes_be(&inputs),
        Err(Error::TooManyInputs { got: 17, max: 16 })
    );
    assert_eq!(
        hash(&[Fr::from(1u64); MAX_INPUTS + 1]),
        Err(Error::TooManyInputs { got: 17, max: 16 })
    );
    // 16 inputs is the widest instance, t = 17.
    assert!(hash_bytes_be(&inputs[..MAX_INPUTS]).is_ok());
    still_works();
}

#[test]
fn case_24_every_output_is_canonical_in_the_stated_order() {
    for n in 1..=MAX_INPUTS {
        let one = be(u64::try_from(n).unwrap());
        let inputs = vec![&one[..]; n];
        let out = hash_bytes_be(&inputs).unwrap();
        assert!(out < R, "n = {n}");
        let mut le = hash_bytes_le(
            &inputs
                .iter()
                .map(|_| {
                    let mut x = one;
                    x.reverse();
                    x
                })
                .collect::<Vec<_>>()
                .iter()
                .map(|x| &x[..])
                .collect::<Vec<_>>(),
        )
        .unwrap();
        le.reverse();
        assert_eq!(le, out, "n = {n}");
    }
}

#[test]
fn runtime_permutation_rejects_wrong_state_lengths() {
    let perm = circom_bn254::poseidon1_t3();
    let mut short = [Fr::from(0u64); 2];
    assert_eq!(
        perm.permute_mut(&mut short),
        Err(Error::InvalidStateLength {
            got: 2,
            expected: 3
        })
    );
    assert_eq!(
        perm.permutation(&[Fr::from(0u64); 4]),
        Err(Error::InvalidStateLength {
            got: 4,
            expected: 3
        })
    );
}

#[test]
fn params_reject_bad_shapes_and_tables() {
    assert_eq!(
        Poseidon1Params::<Fr>::generate(1, 5, 8, 56),
        Err(Error::UnsupportedWidth { t: 1 })
    );
    assert_eq!(
        Poseidon1Params::<Fr>::generate(3, 4, 8, 56),
        Err(Error::UnsupportedSboxDegree { d: 4 })
    );
    assert_eq!(
        Poseidon1Params::<Fr>::generate(3, 3, 8, 56),
        Err(Error::SboxNotPermutation { d: 3 })
    );
    assert_eq!(
        Poseidon1Params::<Fr>::generate(3, 5, 7, 56),
        Err(Error::OddFullRounds { rounds_f: 7 })
    );
    assert_eq!(
        Poseidon1Params::<Fr>::new(
            3,
            5,
            8,
            57,
            vec![Fr::from(0u64); 3],
            vec![Fr::from(1u64); 9]
        ),
        Err(Error::InvalidConstantsLength {
            got: 3,
            expected: 195
        })
    );
    let singular = Poseidon1Params::<Fr>::new(
        3,
        5,
        8,
        57,
        vec![Fr::from(0u64); 195],
        vec![Fr::from(1u64); 9],
    )
    .unwrap();
    assert_eq!(Poseidon1::new(&singular), Err(Error::SingularMatrix));
}
