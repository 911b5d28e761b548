//! The message hash (`src/modes/message.rs`): equal to the textbook model
//! (`testkit::textbook::message_hash`) on every shipped instance, both paths, at every chunk and
//! block boundary; a trailing zero byte changes the digest at every chunk boundary; `[]` and
//! `[0]` differ; separated from the length-declared sponge; the circom Poseidon1 instances get
//! it too; errors of the runtime type; frozen answers; property tests.
#![cfg(feature = "std")]

use fast_poseidon2::field::PrimeField;
use fast_poseidon2::modes::{digest_len, message_chunk_bytes};
use proptest::prelude::*;
use std::collections::HashSet;
use testkit::differential::assert_message_agrees;

/// `len` bytes that are neither all zero nor periodic in the chunk length.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

/// The lengths to test on a field of chunk `k` and a rate `r`: every length up to three chunks,
/// and each block boundary `j · r · k` (j = 1, 2) and its neighbours.
fn lengths(k: usize, rate: usize) -> Vec<usize> {
    let mut lengths: Vec<usize> = (0..=3 * k + 1).collect();
    for j in 1..=2 {
        let block = j * rate * k;
        lengths.extend([block - 1, block, block + 1]);
    }
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}

fn chunk_bytes<F: PrimeField>(_: &[F]) -> usize {
    message_chunk_bytes(F::MODULUS_BITS)
}

macro_rules! message_tests {
    ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
        mod $name {
            use super::*;

            #[test]
            fn equals_the_textbook_model_at_every_chunk_and_block_boundary_on_both_paths() {
                let (ct, flexible) = (&$ct, $flexible);
                let k = chunk_bytes(ct.internal_diagonal_minus_one());
                for len in lengths(k, $t - $digest) {
                    assert_message_agrees::<_, _, $t, _, _, _, $digest>(
                        ct,
                        flexible,
                        &pattern(len),
                    );
                    assert_message_agrees::<_, _, $t, _, _, _, $digest>(
                        ct,
                        flexible,
                        &vec![0; len],
                    );
                }
            }

            #[test]
            fn a_trailing_zero_byte_changes_the_digest_at_every_length() {
                let ct = $ct;
                let k = chunk_bytes(ct.internal_diagonal_minus_one());
                assert_ne!(ct.hash_message(&[]), ct.hash_message(&[0]));
                let mut seen = HashSet::new();
                for len in 0..=3 * k + 1 {
                    let mut message = pattern(len);
                    let h = ct.hash_message(&message);
                    message.push(0);
                    assert_ne!(
                        h,
                        ct.hash_message(&message),
                        "pattern of {len} bytes ‖ 0x00"
                    );
                    // The all-zero messages of every length are pairwise distinct.
                    assert!(
                        seen.insert(ct.hash_message(&vec![0; len])),
                        "zeros of {len} bytes"
                    );
                }
            }

            /// A message whose chunks are the elements `xs` does not hash as the sponge of `xs`
            /// (same rate, same output length): the initial values differ.
            #[test]
            fn is_separated_from_the_length_declared_sponge() {
                let ct = $ct;
                let k = chunk_bytes(ct.internal_diagonal_minus_one());
                let message = pattern(2 * k);
                let elements = message
                    .chunks(k)
                    .map(PrimeField::from_be_bytes_reduced)
                    .collect::<Vec<_>>();
                let mut sponge = [PrimeField::from_be_bytes_reduced(&[]); $digest];
                ct.hash_into(&elements, $t - $digest, &mut sponge)
                    .expect("valid shape");
                assert_ne!(ct.hash_message_elements::<$digest>(&message), sponge);
            }
        }
    };
}

testkit::for_each_instance!(message_tests);

#[cfg(feature = "bn254")]
mod circom {
    use super::*;
    use ark_bn254::Fr;
    use fast_poseidon2::instances::circom_bn254;
    use fast_poseidon2::poseidon1::Poseidon1Params;
    use testkit::textbook::{message_hash, message_hash_bytes, poseidon1_permutation};

    /// The Poseidon1 types get the same message hash, over their own permutation.
    #[test]
    fn poseidon1_instances_equal_the_textbook_model_over_poseidon1() {
        let ct = &circom_bn254::ct::T3;
        let runtime = circom_bn254::poseidon1_t3();
        let params =
            Poseidon1Params::<Fr>::generate(3, 5, 8, circom_bn254::ROUNDS_P[1]).expect("generate");
        let perm = |s: &[Fr]| poseidon1_permutation(&params, s);
        for len in lengths(31, 2) {
            let message = pattern(len);
            let expected = message_hash_bytes(&perm, 3, &message);
            assert_eq!(ct.hash_message(&message).to_vec(), expected, "{len} bytes");
            assert_eq!(
                runtime.hash_message(&message).map(|b| b.to_vec()),
                Ok(expected),
                "{len} bytes"
            );
            assert_eq!(
                ct.hash_message_elements::<1>(&message).to_vec(),
                message_hash(&perm, 3, &message)
            );
        }
        assert_eq!(digest_len::<Fr>(), 1);
    }
}

/// The runtime type's errors: a width with no room beside the capacity, a wrong digest length;
/// the hasher stays usable.
#[cfg(all(feature = "bn254", feature = "goldilocks"))]
#[test]
fn runtime_errors_are_the_documented_ones() {
    use fast_poseidon2::goldilocks::GoldilocksFast;
    use fast_poseidon2::instances::bn254;
    use fast_poseidon2::{Error, Poseidon2, Poseidon2Params};

    let narrow =
        Poseidon2::new(Poseidon2Params::<GoldilocksFast>::generate(4, 7, 8, 22).expect("generate"));
    assert_eq!(
        narrow.hash_message(b"abc"),
        Err(Error::InsufficientCapacity {
            capacity_bits: 192,
            required_bits: 248
        })
    );
    assert!(matches!(
        narrow.hash_message_elements::<4>(b"abc"),
        Err(Error::InsufficientCapacity { .. })
    ));
    let perm = bn254::poseidon2_t3();
    assert_eq!(
        perm.hash_message_elements::<2>(b"abc"),
        Err(Error::InvalidDigestLength {
            got: 2,
            expected: 1
        })
    );
    assert_eq!(
        perm.hash_message(b"abc"),
        Ok(bn254::ct::t3().hash_message(b"abc"))
    );
}

/// Frozen answers of this crate's own definition (computed by this crate when the mode was
/// added, checked against the textbook model above): any change is a breaking change.
#[cfg(all(feature = "bn254", feature = "goldilocks"))]
#[test]
fn frozen_answers_do_not_change() {
    use fast_poseidon2::instances::{bn254, goldilocks};
    let messages: [&[u8]; 3] = [b"", b"abc", &[0u8; 62]];
    let expected: [(&str, &str); 3] = [
        (
            "1a8d9094fd3370f70bf389bfa5bca0d964debbee2dc1118f0b58ea15741b8c87",
            "004dab1ea8b598f645811ee33ab00077cab2737752fb38c9a3dc3d8ab12764fc",
        ),
        (
            "0c6872036f279a24b946cb3fbe286c9cb849654f0e01281fbc5122fc81f29af3",
            "717bf5af0f8d792042da2a7781fbe6e9c86e6324b10b654cdf3474080183c2dd",
        ),
        (
            "1320f6e4a94958331005cd990023ab0d6df3ac30eb587d68efe5079a396bf564",
            "f28a49e448787ba2d69b9d29c200d9642893cf8a9d42abf8d0d6cd2cf35e61c2",
        ),
    ];
    let actual: Vec<(String, String)> = messages
        .iter()
        .map(|m| {
            (
                hex::encode(bn254::ct::t3().hash_message(m)),
                hex::encode(goldilocks::ct::t12().hash_message(m)),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(actual, expected);
}

#[cfg(all(feature = "bn254", feature = "goldilocks"))]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any message equals the textbook model on BN254 t = 3 and Goldilocks t = 12.
    #[test]
    fn any_message_equals_the_textbook_model(message in proptest::collection::vec(any::<u8>(), 0..300)) {
        use fast_poseidon2::instances::{bn254, goldilocks};
        assert_message_agrees::<_, _, 3, _, _, _, 1>(&bn254::ct::t3(), bn254::poseidon2_t3(), &message);
        assert_message_agrees::<_, _, 12, _, _, _, 4>(
            &goldilocks::ct::t12(),
            goldilocks::poseidon2_t12(),
            &message,
        );
    }

    /// Distinct messages (one a prefix of the other, or differing in one byte) hash apart.
    #[test]
    fn distinct_messages_give_distinct_digests(
        message in proptest::collection::vec(any::<u8>(), 0..100),
        extra in proptest::collection::vec(any::<u8>(), 1..40),
        flip in any::<(usize, u8)>(),
    ) {
        use fast_poseidon2::instances::{bn254, goldilocks};
        let mut longer = message.clone();
        longer.extend(&extra);
        let mut flipped = message.clone();
        if !flipped.is_empty() && flip.1 != 0 {
            let at = flip.0 % flipped.len();
            flipped[at] ^= flip.1;
            prop_assert_ne!(bn254::ct::t3().hash_message(&message), bn254::ct::t3().hash_message(&flipped));
            prop_assert_ne!(goldilocks::ct::t12().hash_message(&message), goldilocks::ct::t12().hash_message(&flipped));
        }
        prop_assert_ne!(bn254::ct::t3().hash_message(&message), bn254::ct::t3().hash_message(&longer));
        prop_assert_ne!(goldilocks::ct::t12().hash_message(&message), goldilocks::ct::t12().hash_message(&longer));
    }
}
