//! Caller mistakes are errors with specific variants, never panics.

use ark_bn254::Fr;
use fast_poseidon2::security::round_numbers;
use fast_poseidon2::{Error, Poseidon2, Poseidon2Params, instances::bn254};

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

/// One value of every variant, in code order.
fn every_variant() -> Vec<Error> {
    vec![
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
        Error::InsufficientCapacity {
            capacity_bits: 64,
            required_bits: 248,
        },
        Error::DigestTooShort {
            digest_bits: 64,
            required_bits: 248,
        },
        Error::InvalidDigestLength {
            got: 1,
            expected: 4,
        },
        Error::NoSecureRoundNumbers {
            field_bits: 254,
            t: 2,
            d: 3,
            security_level: 10_000,
        },
        Error::WrongFixedInternalDiagonal { t: 3 },
        Error::ZeroRounds {
            rounds_f: 0,
            rounds_p: 0,
        },
        Error::InvalidFieldBits { field_bits: 0 },
        Error::SingularMatrix,
        Error::InsecureMdsMatrix { algorithm: 3 },
        Error::OutputLengthMismatch {
            got: 1,
            expected: 2,
        },
    ]
}

/// The variant's name, as `Debug` prints it.
fn variant_name(e: &Error) -> String {
    format!("{e:?}")
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// `src/error.rs`: the `(code, variant)` rows of the code table in the docs of `Error`, and the
/// variant names declared in the enum.
fn documented_codes_and_declared_variants() -> (Vec<(u32, String)>, Vec<String>) {
    let source = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/error.rs"));
    let table = source
        .lines()
        .filter_map(|line| {
            let row = line.strip_prefix("/// | ")?;
            let (code, variant) = row.split_once(" | [`")?;
            let name = variant.split('`').next()?;
            Some((code.parse().expect("numeric code"), name.to_string()))
        })
        .collect();
    let body = source
        .split("pub enum Error {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("enum Error");
    let declared = body
        .lines()
        .filter_map(|line| {
            let name = line.strip_prefix("    ")?;
            let name = name.trim_end_matches(" {").trim_end_matches(',');
            (name.starts_with(|c: char| c.is_ascii_uppercase())
                && name.chars().all(|c| c.is_ascii_alphanumeric()))
            .then(|| name.to_string())
        })
        .collect();
    (table, declared)
}

/// Codes are 1, 2, .. in declaration order, each variant's code is the one the table in the
/// docs of `Error` lists, and the table lists every declared variant once.
#[test]
fn error_codes_are_distinct_and_equal_the_documented_table() {
    let all = every_variant();
    let (table, declared) = documented_codes_and_declared_variants();
    let codes: Vec<(u32, String)> = all.iter().map(|e| (e.code(), variant_name(e))).collect();
    assert_eq!(
        codes, table,
        "Error::code against the table in the docs of Error"
    );
    let names: Vec<String> = all.iter().map(variant_name).collect();
    assert_eq!(names, declared, "every declared variant, in order");
    let mut numbers: Vec<u32> = all.iter().map(Error::code).collect();
    assert_eq!(numbers, (1..=all.len() as u32).collect::<Vec<_>>());
    numbers.dedup();
    assert_eq!(numbers.len(), all.len());
}

#[test]
fn every_error_has_a_display_text() {
    for e in every_variant() {
        assert!(!e.to_string().is_empty(), "{e:?}");
    }
}

#[test]
fn new_error_variants_display_their_numbers() {
    let cases = [
        (
            Error::NoSecureRoundNumbers {
                field_bits: 254,
                t: 2,
                d: 3,
                security_level: 10_000,
            },
            "no secure (R_F, R_P) in the search range for a 254-bit field, t = 2, d = 3 at \
             10000-bit security",
        ),
        (
            Error::WrongFixedInternalDiagonal { t: 3 },
            "t = 3 has a fixed internal matrix: its diagonal minus one must be (1, 2) for t = 2, \
             (1, 1, 2) for t = 3",
        ),
        (
            Error::ZeroRounds {
                rounds_f: 0,
                rounds_p: 56,
            },
            "R_F = 0, R_P = 56: each must be at least 1",
        ),
        (
            Error::InvalidFieldBits { field_bits: 0 },
            "a 0-bit field is not a prime field",
        ),
        (
            Error::SingularMatrix,
            "the Poseidon1 MDS matrix or a submatrix the optimized schedule inverts is singular",
        ),
        (
            Error::InsecureMdsMatrix { algorithm: 2 },
            "the Poseidon1 MDS matrix fails the reference's security check algorithm_2 (an \
             invariant subspace trail)",
        ),
        (
            Error::OutputLengthMismatch {
                got: 3,
                expected: 4,
            },
            "output buffer has 3 elements, the call produces 4 (one per input)",
        ),
    ];
    for (e, text) in cases {
        assert_eq!(e.to_string(), text);
    }
}

#[test]
fn generate_rejects_zero_round_numbers() {
    for (rounds_f, rounds_p) in [(0, 0), (0, 56), (8, 0)] {
        assert_eq!(
            Poseidon2Params::<Fr>::generate(3, 5, rounds_f, rounds_p),
            Err(Error::ZeroRounds { rounds_f, rounds_p })
        );
    }
}

#[test]
fn new_rejects_zero_round_numbers() {
    let diag = vec![Fr::from(1u64), Fr::from(1u64), Fr::from(2u64)];
    assert_eq!(
        Poseidon2Params::new(3, 5, 0, 0, vec![], vec![], diag),
        Err(Error::ZeroRounds {
            rounds_f: 0,
            rounds_p: 0
        })
    );
}

/// The shipped t = 3 constants with the t = 2 diagonal pattern in the wrong place: rejected as
/// a wrong fixed diagonal (not as an insecure drawn one).
#[test]
fn new_rejects_a_t3_diagonal_other_than_the_fixed_one() {
    let p = bn254::poseidon2_t3().params();
    let built = Poseidon2Params::new(
        3,
        5,
        8,
        56,
        p.external_round_constants().to_vec(),
        p.internal_round_constants().to_vec(),
        vec![Fr::from(1u64), Fr::from(2u64), Fr::from(1u64)],
    );
    assert_eq!(built, Err(Error::WrongFixedInternalDiagonal { t: 3 }));
}

#[test]
fn round_numbers_reject_field_sizes_below_two_bits() {
    for field_bits in [0, 1] {
        assert_eq!(
            round_numbers(field_bits, 3, 5, 128, true),
            Err(Error::InvalidFieldBits { field_bits })
        );
    }
    // Two bits is the smallest size accepted (the bound is `< 2`, not `<= 2`).
    assert!(!matches!(
        round_numbers(2, 3, 5, 128, true),
        Err(Error::InvalidFieldBits { .. })
    ));
}

#[test]
fn round_numbers_reject_widths_the_permutation_does_not_support() {
    for t in [0, 1, 5, 6, 7, 9, 15, 36] {
        assert_eq!(
            round_numbers(254, t, 5, 128, true),
            Err(Error::UnsupportedWidth { t })
        );
    }
}

#[test]
fn round_numbers_reject_degrees_without_a_chain() {
    for d in [0, 2, 4, 9] {
        assert_eq!(
            round_numbers(254, 3, d, 128, true),
            Err(Error::UnsupportedSboxDegree { d })
        );
    }
}

/// At 10,000-bit security, t = 2, d = 3, the third Groebner bound alone asks
/// `R_F >= 10000 / (2 log2 3) - R_P > 3000 - 499`, beyond the search's `R_F < 100`.
#[test]
fn round_numbers_report_no_secure_pair_in_range() {
    assert_eq!(
        round_numbers(254, 2, 3, 10_000, true),
        Err(Error::NoSecureRoundNumbers {
            field_bits: 254,
            t: 2,
            d: 3,
            security_level: 10_000,
        })
    );
}

#[test]
fn the_128_bit_rule_errors_name_their_numbers() {
    let cases = [
        (
            Error::InsufficientCapacity {
                capacity_bits: 64,
                required_bits: 248,
            },
            ["64", "248"],
        ),
        (
            Error::DigestTooShort {
                digest_bits: 63,
                required_bits: 248,
            },
            ["63", "248"],
        ),
        (
            Error::InvalidDigestLength {
                got: 1,
                expected: 4,
            },
            ["1", "4"],
        ),
    ];
    for (error, numbers) in cases {
        let text = error.to_string();
        for n in numbers {
            assert!(text.contains(n), "{text:?} lacks {n}");
        }
    }
}

/// A Goldilocks width below `2 D = 8` has no compression of 4-element digests: every
/// compression entry point says so instead of truncating.
#[cfg(feature = "goldilocks")]
#[test]
fn goldilocks_widths_below_two_digests_have_no_compression() {
    use fast_poseidon2::goldilocks::Goldilocks;
    let perm = Poseidon2::new(Poseidon2Params::<Goldilocks>::generate(4, 7, 8, 22).unwrap());
    let leaf = [Goldilocks::from(1u64); 4];
    let unsupported = Some(Error::UnsupportedWidth { t: 4 });
    assert_eq!(perm.compress_digests(&[leaf, leaf]).err(), unsupported);
    assert_eq!(
        perm.compress_batch(&[Goldilocks::from(1u64); 8]).err(),
        unsupported
    );
    assert_eq!(perm.merkle_root_digests(&[leaf, leaf]).err(), unsupported);
}

/// The public batch hook `BatchPermutation::permute_states` rejects a buffer that is not a whole
/// number of states on all four permutation types, and leaves it untouched (it used to permute
/// the whole states and skip the tail silently).
#[test]
fn permute_states_rejects_a_partial_state() {
    use fast_poseidon2::instances::circom_bn254;
    use fast_poseidon2::modes::BatchPermutation;
    fn check(perm: &impl BatchPermutation<Fr>, t: usize) {
        for len in [1, t + 1, 2 * t + t - 1] {
            let mut states: Vec<Fr> = (0..len as u64).map(Fr::from).collect();
            let before = states.clone();
            assert_eq!(
                perm.permute_states(&mut states),
                Err(Error::InvalidBatchLength { len, width: t })
            );
            assert_eq!(states, before, "len {len}: nothing is permuted");
        }
        let mut whole = vec![Fr::from(1u64); 2 * t];
        assert_eq!(perm.permute_states(&mut whole), Ok(()));
        assert_ne!(whole, vec![Fr::from(1u64); 2 * t]);
    }
    check(&bn254::ct::t3(), 3);
    check(bn254::poseidon2_t4(), 4);
    check(&circom_bn254::ct::t3(), 3);
    check(circom_bn254::poseidon1_t5(), 5);
}
