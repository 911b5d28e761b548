//! Caller mistakes are errors with specific variants, never panics.

use ark_bn254::Fr;
use fast_poseidon2::{Error, Poseidon2Params, instances::bn254};

#[test]
fn wrong_state_lengths_are_errors_and_leave_the_state_untouched() {
    let perm = bn254::poseidon2_t3();
    for len in [0usize, 2, 4, 1000] {
        let mut state = vec![Fr::from(7u64); len];
        assert_eq!(
            perm.permute_mut(&mut state),
            Err(Error::InvalidStateLength {
                got: len,
                expected: 3
            })
        );
        assert!(state.iter().all(|&x| x == Fr::from(7u64)));
        assert_eq!(
            perm.permutation(&state),
            Err(Error::InvalidStateLength {
                got: len,
                expected: 3
            })
        );
    }
}

/// `check_sbox_degree` on its own (outside `generate`, which checks the shape first) answers
/// every degree with a result, `d = 0` included (`x^0` is constant, `gcd(0, p - 1) = p - 1`).
#[test]
fn sbox_degree_check_answers_every_degree_without_panicking() {
    use fast_poseidon2::params::check_sbox_degree;
    assert_eq!(
        check_sbox_degree::<Fr>(0),
        Err(Error::SboxNotPermutation { d: 0 })
    );
    assert_eq!(check_sbox_degree::<Fr>(1), Ok(()));
    assert_eq!(
        check_sbox_degree::<Fr>(3),
        Err(Error::SboxNotPermutation { d: 3 })
    );
    assert_eq!(check_sbox_degree::<Fr>(5), Ok(()));
    assert_eq!(
        check_sbox_degree::<Fr>(u64::MAX),
        Err(Error::SboxNotPermutation { d: u64::MAX })
    );
}

#[test]
fn generate_rejects_unsupported_shapes() {
    let cases = [
        ((1, 5, 8, 56), Error::UnsupportedWidth { t: 1 }),
        ((5, 5, 8, 56), Error::UnsupportedWidth { t: 5 }),
        ((36, 5, 8, 56), Error::UnsupportedWidth { t: 36 }),
        ((3, 4, 8, 56), Error::UnsupportedSboxDegree { d: 4 }),
        ((3, 3, 8, 56), Error::SboxNotPermutation { d: 3 }),
        ((3, 5, 7, 56), Error::OddFullRounds { rounds_f: 7 }),
        (
            (3, 5, 8, 1024),
            Error::RoundsOutOfRange {
                rounds_f: 8,
                rounds_p: 1024,
            },
        ),
        (
            (3, 5, usize::MAX - 1, 1),
            Error::RoundsOutOfRange {
                rounds_f: usize::MAX - 1,
                rounds_p: 1,
            },
        ),
    ];
    for ((t, d, rf, rp), expected) in cases {
        assert_eq!(
            Poseidon2Params::<Fr>::generate(t, d, rf, rp),
            Err(expected),
            "{t} {d} {rf} {rp}"
        );
    }
}

#[test]
fn new_rejects_constant_tables_of_the_wrong_length() {
    let p = bn254::poseidon2_t3().params().clone();
    let mut short = p.external_round_constants().to_vec();
    short.pop();
    let built = Poseidon2Params::new(
        3,
        5,
        8,
        56,
        short,
        p.internal_round_constants().to_vec(),
        p.internal_diagonal_minus_one().to_vec(),
    );
    assert_eq!(
        built,
        Err(Error::InvalidConstantsLength {
            got: 23,
            expected: 24
        })
    );
}

#[test]
fn ct_from_params_rejects_a_different_shape() {
    let t4 = bn254::poseidon2_t4().params();
    assert_eq!(bn254::Bn254T3::from_params(t4), Err(Error::ShapeMismatch));
    assert_eq!(
        bn254::Bn254T3::from_params(bn254::poseidon2_t3().params()),
        Ok(bn254::ct::t3())
    );
}

#[test]
fn error_codes_are_distinct_and_displayed() {
    let all = [
        Error::InvalidStateLength {
            got: 0,
            expected: 3,
        },
        Error::UnsupportedWidth { t: 5 },
        Error::UnsupportedSboxDegree { d: 4 },
        Error::SboxNotPermutation { d: 3 },
        Error::OddFullRounds { rounds_f: 7 },
        Error::RoundsOutOfRange {
            rounds_f: 0,
            rounds_p: 2000,
        },
        Error::InvalidConstantsLength {
            got: 1,
            expected: 2,
        },
        Error::ShapeMismatch,
        Error::InsecureInternalMatrix,
        Error::InvalidNumberOfInputs {
            got: 1,
            expected: 2,
        },
        Error::EmptyInput,
        Error::InvalidRate { rate: 0, width: 3 },
        Error::ZeroOutputs,
        Error::InvalidInputLength {
            index: 0,
            len: 31,
            expected: 32,
        },
        Error::InputLargerThanModulus { index: 0 },
        Error::TooManyInputs { got: 100, max: 16 },
        Error::AbsorbOverflow { declared: 1 },
        Error::IncompleteAbsorb {
            absorbed: 0,
            declared: 1,
        },
        Error::InvalidBatchLength { len: 4, width: 3 },
        Error::SqueezeOverflow { declared: 1 },
        Error::OutputTooLarge {
            requested: usize::MAX,
        },
    ];
    let mut codes: Vec<u32> = all.iter().map(Error::code).collect();
    assert_eq!(codes, (1..=all.len() as u32).collect::<Vec<_>>());
    codes.dedup();
    assert_eq!(codes.len(), all.len());
    for e in all {
        assert!(!e.to_string().is_empty());
    }
}
