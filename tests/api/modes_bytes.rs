//! The byte API: every case of the byte-API case list (`docs/compat.md`) gives the stated error or value, each
//! rejected call is followed by a valid call that still gives the right answer; outputs are the
//! sponge (rate `t - D`, `D` outputs: `D` = 1 on BN254 and BLS12-381, 4 on Goldilocks) of the
//! decoded elements, canonical, in the input's endianness.
#![cfg(feature = "std")]

use testkit as common;

use common::modulus_be;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::{Endianness, Error, MAX_BYTE_INPUTS, Poseidon2};
use proptest::prelude::*;
use std::time::Instant;

use Endianness::{BigEndian as Be, LittleEndian as Le};

/// A byte-API call: `hashv_bytes(endianness, inputs)`.
type Call<'a> = &'a dyn Fn(Endianness, &[&[u8]]) -> Result<[u8; 32], Error>;

/// The right answer for valid `inputs`, from the field-element API: decode each slice, hash with
/// rate `t - D` and `D` outputs, write each output canonically in `endianness`.
fn expected_digest<F: PrimeField + LinearLayers>(
    perm: &Poseidon2<F>,
    endianness: Endianness,
    inputs: &[&[u8]],
) -> [u8; 32] {
    let elements: Vec<F> = inputs
        .iter()
        .map(|bytes| {
            let mut be = bytes.to_vec();
            if endianness == Le {
                be.reverse();
            }
            F::from_canonical_be_bytes(&be).expect("valid input")
        })
        .collect();
    let d = fast_poseidon2::modes::digest_len::<F>();
    let digest = perm.hash(&elements, perm.width() - d, d).unwrap();
    let mut out = [0u8; 32];
    for (chunk, y) in out.chunks_exact_mut(F::BYTES).zip(digest) {
        y.write_canonical_be_bytes(chunk);
        if endianness == Le {
            chunk.reverse();
        }
    }
    out
}

/// True when every `F::BYTES` chunk of `digest`, read in `endianness`, is below `p`.
fn digest_is_canonical<F: PrimeField + LinearLayers>(
    digest: &[u8; 32],
    endianness: Endianness,
) -> bool {
    digest.chunks_exact(F::BYTES).all(|chunk| {
        let mut be = chunk.to_vec();
        if endianness == Le {
            be.reverse();
        }
        be < modulus_be::<F>()
    })
}

/// One row of `bytes.md`: its number, the call and the expected error (`None`: accepted).
struct Case {
    id: u32,
    endianness: Endianness,
    inputs: Vec<Vec<u8>>,
    expected: Option<Error>,
}

fn case(id: u32, endianness: Endianness, inputs: &[&str], expected: Option<Error>) -> Case {
    Case {
        id,
        endianness,
        inputs: inputs
            .iter()
            .map(|h| hex::decode(h).expect("hex"))
            .collect(),
        expected,
    }
}

/// Runs each case through `call`, then a valid call (`1 ‖ 2`, big-endian) whose answer must
/// still equal the field-element API's.
fn run_cases<F: PrimeField + LinearLayers>(perm: &Poseidon2<F>, call: Call<'_>, cases: &[Case]) {
    let mut one = vec![0u8; F::BYTES];
    let mut two = one.clone();
    *one.last_mut().unwrap() = 1;
    *two.last_mut().unwrap() = 2;
    let valid: [&[u8]; 2] = [&one, &two];
    let right = expected_digest(perm, Be, &valid);
    for c in cases {
        let inputs: Vec<&[u8]> = c.inputs.iter().map(Vec::as_slice).collect();
        let got = call(c.endianness, &inputs);
        match c.expected {
            Some(error) => assert_eq!(got, Err(error), "case {}", c.id),
            None => {
                let digest = got.unwrap_or_else(|e| panic!("case {}: rejected with {e}", c.id));
                assert_eq!(
                    digest,
                    expected_digest(perm, c.endianness, &inputs),
                    "case {}",
                    c.id
                );
                assert!(
                    digest_is_canonical::<F>(&digest, c.endianness),
                    "case {}",
                    c.id
                );
            }
        }
        assert_eq!(
            call(Be, &valid),
            Ok(right),
            "valid call after case {}",
            c.id
        );
    }
}

/// Cases 1-11 of `bytes.md` (BN254), literally.
fn bn254_cases() -> Vec<Case> {
    const R: &str = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
    const R_PLUS_1: &str = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000002";
    const R_MINUS_1: &str = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000";
    const R_PLUS_1_LE: &str = "020000f093f5e1439170b97948e833285d588181b64550b829a031e1724e6430";
    let large = |index| Some(Error::InputLargerThanModulus { index });
    let length = |index, len| {
        Some(Error::InvalidInputLength {
            index,
            len,
            expected: 32,
        })
    };
    let ones = "ff".repeat(32);
    let zeros = |n: usize| "00".repeat(n);
    vec![
        case(1, Be, &[R], large(0)),
        case(2, Be, &[R_PLUS_1], large(0)),
        case(3, Be, &[R_MINUS_1], None),
        case(4, Le, &[R_PLUS_1_LE], large(0)),
        case(5, Be, &[&ones], large(0)),
        case(6, Be, &[&zeros(33)], length(0, 33)),
        case(7, Be, &[&zeros(31)], length(0, 31)),
        case(8, Be, &["01"], length(0, 1)),
        case(9, Be, &[""], length(0, 0)),
        case(10, Be, &[], Some(Error::EmptyInput)),
        case(11, Be, &[&zeros(32), &zeros(33)], length(1, 33)),
        // 11, "no work done on input 0": lengths are checked before any value, so an input
        // >= p before the bad length does not change the error.
        case(11, Be, &[&ones, &zeros(33)], length(1, 33)),
    ]
}

/// Cases 14-18 of `bytes.md` (Goldilocks, 8-byte inputs, 4 output elements), literally.
fn goldilocks_cases() -> Vec<Case> {
    let length = |len| {
        Some(Error::InvalidInputLength {
            index: 0,
            len,
            expected: 8,
        })
    };
    vec![
        case(
            14,
            Be,
            &["ffffffff00000001"],
            Some(Error::InputLargerThanModulus { index: 0 }),
        ),
        case(
            15,
            Be,
            &["ffffffffffffffff"],
            Some(Error::InputLargerThanModulus { index: 0 }),
        ),
        case(16, Be, &["ffffffff00000000"], None),
        case(17, Be, &[&"00".repeat(9)], length(9)),
        case(18, Be, &[&"00".repeat(32)], length(32)),
    ]
}

#[cfg(feature = "bn254")]
mod bn254 {
    use super::*;
    use fast_poseidon2::instances::bn254;

    /// The byte API on BN254 t = 4 is Noir's `Poseidon2::hash` (rate 3, one output): the
    /// `[1000]` vector of `noir_bn254_t4.json`.
    #[test]
    fn t4_big_endian_digest_of_1000_is_noirs_hash() {
        let mut x = [0u8; 32];
        x[30..].copy_from_slice(&1000u16.to_be_bytes());
        let noir = hex::decode("16433a80e26a23547e25d61dd95fd5793d1ca2dcd78ae64cd146d3b99a35fa7c")
            .unwrap();
        assert_eq!(
            bn254::poseidon2_t4().hash_bytes_be(&[&x]).unwrap().to_vec(),
            noir
        );
        assert_eq!(bn254::ct::t4().hash_bytes_be(&[&x]).unwrap().to_vec(), noir);
    }

    #[test]
    fn case_12_a_100_mb_slice_is_rejected_by_its_length_alone() {
        let perm = bn254::poseidon2_t3();
        let huge = vec![0xffu8; 100_000_000];
        let start = Instant::now();
        let got = perm.hash_bytes_le(&[&huge]);
        let elapsed = start.elapsed();
        println!("100 MB slice rejected in {elapsed:?}");
        assert_eq!(
            got,
            Err(Error::InvalidInputLength {
                index: 0,
                len: 100_000_000,
                expected: 32
            })
        );
        let one = [1u8; 32];
        assert_eq!(
            perm.hash_bytes_le(&[&one]),
            Ok(expected_digest(perm, Le, &[&one]))
        );
    }

    #[test]
    fn case_13_le_of_le_inputs_is_the_reversed_be_of_be_inputs() {
        let (mut one, mut two) = ([0u8; 32], [0u8; 32]);
        one[31] = 1;
        two[31] = 2;
        let perm = bn254::poseidon2_t3();
        let mut be = perm.hash_bytes_be(&[&one, &two]).unwrap();
        one.reverse();
        two.reverse();
        let le = perm.hash_bytes_le(&[&one, &two]).unwrap();
        be.reverse();
        assert_eq!(le, be);
    }

    #[test]
    fn more_than_max_byte_inputs_is_an_error_and_max_is_accepted() {
        let perm = bn254::poseidon2_t3();
        let x = [7u8; 32];
        let inputs = vec![&x[..]; MAX_BYTE_INPUTS + 1];
        assert_eq!(
            perm.hash_bytes_be(&inputs),
            Err(Error::TooManyInputs {
                got: MAX_BYTE_INPUTS + 1,
                max: MAX_BYTE_INPUTS
            })
        );
        let inputs = &inputs[..MAX_BYTE_INPUTS];
        assert_eq!(
            perm.hash_bytes_be(inputs),
            Ok(expected_digest(perm, Be, inputs))
        );
    }

    #[test]
    fn values_are_checked_in_input_order_after_all_lengths() {
        let perm = bn254::poseidon2_t3();
        let (ok, big) = ([1u8; 32], [0xffu8; 32]);
        assert_eq!(
            perm.hash_bytes_be(&[&ok, &big, &big]),
            Err(Error::InputLargerThanModulus { index: 1 })
        );
    }

    /// 32 bytes that are random, or equal to `p` in the high bytes and random below.
    fn around_p() -> impl Strategy<Value = [u8; 32]> {
        let p: [u8; 32] = modulus_be::<ark_bn254::Fr>().try_into().unwrap();
        prop_oneof![
            any::<[u8; 32]>(),
            (1usize..8, any::<[u8; 32]>()).prop_map(move |(k, low)| {
                let mut x = p;
                x[32 - k..].copy_from_slice(&low[32 - k..]);
                x
            }),
        ]
    }

    proptest! {
        #[test]
        fn random_32_byte_strings_are_accepted_exactly_when_below_p(x in around_p()) {
            let perm = bn254::poseidon2_t3();
            let p = modulus_be::<ark_bn254::Fr>();
            let below = x.as_slice() < p.as_slice();
            let got = perm.hash_bytes_be(&[&x]);
            prop_assert_eq!(got.is_ok(), below);
            if below {
                prop_assert_eq!(got, Ok(expected_digest(perm, Be, &[&x])));
            } else {
                prop_assert_eq!(got, Err(Error::InputLargerThanModulus { index: 0 }));
            }
            let mut le = x;
            le.reverse();
            prop_assert_eq!(perm.hash_bytes_le(&[&le]).is_ok(), below);
        }
    }
}

/// For random canonical elements: the little-endian digest of little-endian inputs is the
/// big-endian digest of big-endian inputs with each output element's bytes reversed (the whole
/// 32 bytes when there is one output element).
fn check_le_be_reversal<F: PrimeField + LinearLayers>(call: Call<'_>, seeds: &[[u8; 32]]) {
    let be: Vec<Vec<u8>> = seeds
        .iter()
        .map(|seed| {
            let mut bytes = vec![0u8; F::BYTES];
            F::from_be_bytes_reduced(&seed[..F::BYTES]).write_canonical_be_bytes(&mut bytes);
            bytes
        })
        .collect();
    let le: Vec<Vec<u8>> = be
        .iter()
        .map(|b| b.iter().rev().copied().collect())
        .collect();
    let be_refs: Vec<&[u8]> = be.iter().map(Vec::as_slice).collect();
    let le_refs: Vec<&[u8]> = le.iter().map(Vec::as_slice).collect();
    let mut from_be = call(Be, &be_refs).unwrap();
    for chunk in from_be.chunks_exact_mut(F::BYTES) {
        chunk.reverse();
    }
    assert_eq!(call(Le, &le_refs).unwrap(), from_be);
}

/// The cases of `bytes.md` that depend only on `p` and `F::BYTES`, built from the modulus of
/// any field: `p`, `p + 1`, all-ones (`>= p`), `p - 1` (accepted), lengths `BYTES ± 1`, 0, 32.
fn modulus_cases<F: PrimeField + LinearLayers>() -> Vec<Case> {
    let p = modulus_be::<F>();
    let add = |delta: i8| {
        let mut x = p.clone();
        // p is odd and > 2, so +-1 changes only the last byte unless it carries.
        let mut i = x.len() - 1;
        loop {
            let (v, carry) = if delta > 0 {
                x[i].overflowing_add(1)
            } else {
                x[i].overflowing_sub(1)
            };
            x[i] = v;
            if !carry {
                return hex::encode(x);
            }
            i -= 1;
        }
    };
    let n = F::BYTES;
    let large = Some(Error::InputLargerThanModulus { index: 0 });
    let length = |len| {
        Some(Error::InvalidInputLength {
            index: 0,
            len,
            expected: n,
        })
    };
    let rev = |h: &str| {
        hex::encode(
            hex::decode(h)
                .unwrap()
                .into_iter()
                .rev()
                .collect::<Vec<_>>(),
        )
    };
    let mut cases = vec![
        case(1, Be, &[&hex::encode(&p)], large),
        case(2, Be, &[&add(1)], large),
        case(3, Be, &[&add(-1)], None),
        case(3, Le, &[&rev(&add(-1))], None),
        case(4, Le, &[&rev(&add(1))], large),
        case(5, Be, &[&"ff".repeat(n)], large),
        case(6, Be, &[&"00".repeat(n + 1)], length(n + 1)),
        case(7, Be, &[&"00".repeat(n - 1)], length(n - 1)),
        case(9, Be, &[""], length(0)),
    ];
    if n != 32 {
        cases.push(case(18, Be, &[&"00".repeat(32)], length(32)));
    }
    cases
}

macro_rules! byte_tests {
    ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
        mod $name {
            use super::*;

            #[test]
            fn modulus_edge_cases_give_the_stated_results_on_both_paths() {
                let perm = $flexible;
                let ct = $ct;
                run_cases(
                    perm,
                    &|e, i| perm.hashv_bytes(e, i),
                    &modulus_cases_for(perm),
                );
                run_cases(perm, &|e, i| ct.hashv_bytes(e, i), &modulus_cases_for(perm));
            }

            proptest! {
                #[test]
                fn le_digest_of_le_inputs_is_the_per_element_reversed_be_digest(
                    seeds in proptest::collection::vec(any::<[u8; 32]>(), 1..=MAX_BYTE_INPUTS),
                ) {
                    let perm = $flexible;
                    let ct = $ct;
                    check_le_be_reversal_for(perm, &|e, i| perm.hashv_bytes(e, i), &seeds);
                    check_le_be_reversal_for(perm, &|e, i| ct.hashv_bytes(e, i), &seeds);
                }
            }
        }
    };
}

/// [`modulus_cases`] for the field of `perm`.
fn modulus_cases_for<F: PrimeField + LinearLayers>(_: &Poseidon2<F>) -> Vec<Case> {
    modulus_cases::<F>()
}

/// [`check_le_be_reversal`] for the field of `perm`.
fn check_le_be_reversal_for<F: PrimeField + LinearLayers>(
    _: &Poseidon2<F>,
    call: Call<'_>,
    seeds: &[[u8; 32]],
) {
    check_le_be_reversal::<F>(call, seeds);
}

testkit::for_each_instance!(byte_tests);

/// Cases 1-11 on every BN254 instance and cases 14-18 on every Goldilocks instance, on both
/// paths (BLS12-381 has no literal cases: its byte rules are the properties').
#[test]
fn the_literal_cases_give_the_stated_results_on_both_paths_and_every_width() {
    let (bn254, goldilocks) = (bn254_cases(), goldilocks_cases());
    macro_rules! run {
        ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
            let name = stringify!($name);
            let cases = if name.starts_with("bn254") {
                &bn254
            } else if name.starts_with("goldilocks") {
                &goldilocks
            } else {
                &Vec::new()
            };
            let perm = $flexible;
            let ct = $ct;
            run_cases(perm, &|e, i| perm.hashv_bytes(e, i), cases);
            run_cases(perm, &|e, i| ct.hashv_bytes(e, i), cases);
        };
    }
    testkit::for_each_instance!(run);
}
