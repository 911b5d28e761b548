//! The crate's one error type.

use core::fmt;

/// Every way a call into this crate can fail.
///
/// Each variant carries the numbers that explain it, and [`Error::code`] gives a stable number
/// that never changes meaning across releases (a chain's syscall can return it as-is). New
/// variants may be added, hence `#[non_exhaustive]`.
///
/// The codes, frozen (syscalls and FFI callers match on them; a test checks this table against
/// [`Error::code`]):
///
/// | code | variant |
/// |---|---|
/// | 1 | [`InvalidStateLength`](Error::InvalidStateLength) |
/// | 2 | [`UnsupportedWidth`](Error::UnsupportedWidth) |
/// | 3 | [`UnsupportedSboxDegree`](Error::UnsupportedSboxDegree) |
/// | 4 | [`SboxNotPermutation`](Error::SboxNotPermutation) |
/// | 5 | [`OddFullRounds`](Error::OddFullRounds) |
/// | 6 | [`RoundsOutOfRange`](Error::RoundsOutOfRange) |
/// | 7 | [`InvalidConstantsLength`](Error::InvalidConstantsLength) |
/// | 8 | [`ShapeMismatch`](Error::ShapeMismatch) |
/// | 9 | [`InsecureInternalMatrix`](Error::InsecureInternalMatrix) |
/// | 10 | [`InvalidNumberOfInputs`](Error::InvalidNumberOfInputs) |
/// | 11 | [`EmptyInput`](Error::EmptyInput) |
/// | 12 | [`InvalidRate`](Error::InvalidRate) |
/// | 13 | [`ZeroOutputs`](Error::ZeroOutputs) |
/// | 14 | [`InvalidInputLength`](Error::InvalidInputLength) |
/// | 15 | [`InputLargerThanModulus`](Error::InputLargerThanModulus) |
/// | 16 | [`TooManyInputs`](Error::TooManyInputs) |
/// | 17 | [`AbsorbOverflow`](Error::AbsorbOverflow) |
/// | 18 | [`IncompleteAbsorb`](Error::IncompleteAbsorb) |
/// | 19 | [`InvalidBatchLength`](Error::InvalidBatchLength) |
/// | 20 | [`SqueezeOverflow`](Error::SqueezeOverflow) |
/// | 21 | [`OutputTooLarge`](Error::OutputTooLarge) |
/// | 22 | [`InsufficientCapacity`](Error::InsufficientCapacity) |
/// | 23 | [`DigestTooShort`](Error::DigestTooShort) |
/// | 24 | [`InvalidDigestLength`](Error::InvalidDigestLength) |
/// | 25 | [`NoSecureRoundNumbers`](Error::NoSecureRoundNumbers) |
/// | 26 | [`WrongFixedInternalDiagonal`](Error::WrongFixedInternalDiagonal) |
/// | 27 | [`ZeroRounds`](Error::ZeroRounds) |
/// | 28 | [`InvalidFieldBits`](Error::InvalidFieldBits) |
/// | 29 | [`SingularMatrix`](Error::SingularMatrix) |
/// | 30 | [`InsecureMdsMatrix`](Error::InsecureMdsMatrix) |
/// | 31 | [`OutputLengthMismatch`](Error::OutputLengthMismatch) |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A permutation state had `got` elements where the instance's width `t` is `expected`.
    InvalidStateLength {
        /// Number of elements supplied.
        got: usize,
        /// The permutation's width `t`.
        expected: usize,
    },
    /// The width `t` is not supported by the call that returned it. Poseidon2 parameters: t = 2,
    /// 3 and multiples of 4 up to [`crate::MAX_WIDTH`] (paper section 5.1; the reference accepts
    /// the same shapes). Poseidon1 parameters and MDS checks: `2 <= t <= MAX_WIDTH`. Merkle
    /// compression and batch compression: a width with a compression for the field's digests
    /// ([`crate::modes::merkle_arity`] is `Some`; e.g. not t < 8 on Goldilocks; t = 2 on BN254
    /// compresses one child). Merkle trees: at least two children per node (e.g. not t = 2 on
    /// BN254). Each function's `# Errors` section says which rule it applies.
    UnsupportedWidth {
        /// The rejected width.
        t: usize,
    },
    /// The S-box degree `d` is not one of 3, 5, 7, 11 (the degrees with a fixed multiplication
    /// chain here; the reference supports 3, 5, 7).
    UnsupportedSboxDegree {
        /// The rejected degree.
        d: u64,
    },
    /// `gcd(d, p - 1) != 1`, so `x^d` is not a permutation of the field (paper section 2.1).
    SboxNotPermutation {
        /// The rejected degree.
        d: u64,
    },
    /// The number of full rounds `R_F` is odd; it must split evenly around the partial rounds.
    OddFullRounds {
        /// The rejected `R_F`.
        rounds_f: usize,
    },
    /// `R_F` or `R_P` does not fit the Grain LFSR's 10-bit fields (at most 1023 each).
    RoundsOutOfRange {
        /// The requested `R_F`.
        rounds_f: usize,
        /// The requested `R_P`.
        rounds_p: usize,
    },
    /// A constant table handed to a constructor had the wrong number of entries.
    InvalidConstantsLength {
        /// Entries supplied.
        got: usize,
        /// Entries the shape `(t, R_F, R_P)` needs.
        expected: usize,
    },
    /// Parameters do not match the compile-time shape `(T, RF, RP, D)` of a `Poseidon2Ct`.
    ShapeMismatch,
    /// The internal matrix `M_I = J - I + diag(mu)` failed the security check (singular, or the
    /// minimal polynomial of some power `M_I^k`, `k = 1..=2t`, is not irreducible of degree `t`).
    InsecureInternalMatrix,
    /// A mode was called with the wrong number of field elements (e.g. `compress` takes `t - 1`).
    InvalidNumberOfInputs {
        /// Elements supplied.
        got: usize,
        /// Elements required.
        expected: usize,
    },
    /// No input at all was given to a hash.
    EmptyInput,
    /// The sponge rate is 0 or leaves no capacity (`rate >= t`).
    InvalidRate {
        /// The rejected rate.
        rate: usize,
        /// The permutation's width `t`.
        width: usize,
    },
    /// Zero output elements were requested.
    ZeroOutputs,
    /// Byte input number `index` is `len` bytes long; the field's canonical encoding is
    /// `expected` bytes. Short inputs are never padded, long ones never truncated.
    InvalidInputLength {
        /// Position of the offending slice in the input list.
        index: usize,
        /// Its length in bytes.
        len: usize,
        /// The field's canonical byte length.
        expected: usize,
    },
    /// Byte input number `index` encodes an integer `>= p`; it is never reduced.
    InputLargerThanModulus {
        /// Position of the offending slice in the input list.
        index: usize,
    },
    /// More inputs than a byte-API call accepts.
    TooManyInputs {
        /// Inputs supplied.
        got: usize,
        /// The documented maximum.
        max: usize,
    },
    /// A streaming sponge was fed more elements than the length it declared up front.
    AbsorbOverflow {
        /// The declared input length.
        declared: usize,
    },
    /// A streaming sponge was squeezed before it had absorbed the declared number of elements.
    IncompleteAbsorb {
        /// Elements absorbed so far.
        absorbed: usize,
        /// The declared input length.
        declared: usize,
    },
    /// A flat buffer's length is not a multiple of its unit: the width `t` for a batch of
    /// states, the group size for a batch compression, the digest length `D` for Merkle leaves.
    InvalidBatchLength {
        /// The buffer's length.
        len: usize,
        /// The unit the length must be a multiple of (the name is historical).
        width: usize,
    },
    /// A streaming sponge was asked for more output elements than it declared up front (the
    /// output count enters the sponge's initial value, so it cannot grow afterwards).
    SqueezeOverflow {
        /// The declared output length.
        declared: usize,
    },
    /// `hash` was asked for more output elements than can be allocated.
    OutputTooLarge {
        /// The requested number of output elements.
        requested: usize,
    },
    /// A sponge rate leaves a capacity of `capacity_bits` bits (`(t - rate) · MODULUS_BITS`),
    /// fewer than the `required_bits` (248) every mode needs for 128-bit security: on Goldilocks
    /// the rate may be at most `t - 4` (see [`crate::modes`]).
    InsufficientCapacity {
        /// Bits the requested capacity carries.
        capacity_bits: u32,
        /// Bits required ([`crate::modes::REQUIRED_BITS`]).
        required_bits: u32,
    },
    /// A digest of fewer than `required_bits` (248) bits was asked for: a single-element digest
    /// (`compress`, `merkle_root`) on a field whose one element carries fewer (use the
    /// `D`-element forms `compress_digests`, `merkle_root_digests`), or a sponge output of
    /// fewer than `D` elements (`hash`, `hash_into`, `Sponge::new`); see [`crate::modes`].
    DigestTooShort {
        /// Bits the asked digest carries: its element count times the field's `MODULUS_BITS`.
        digest_bits: u32,
        /// Bits required ([`crate::modes::REQUIRED_BITS`]).
        required_bits: u32,
    },
    /// Digests of `got` elements were given where the field's digests have `expected`
    /// ([`crate::modes::digest_len`]).
    InvalidDigestLength {
        /// Elements per digest supplied.
        got: usize,
        /// The field's digest length `D`.
        expected: usize,
    },
    /// [`crate::params::security::round_numbers`] found no `(R_F, R_P)` in its search range (`R_P` in
    /// `1..500`, even `R_F` in `4..100`) that meets every attack bound for this field size,
    /// width, S-box degree and security level.
    NoSecureRoundNumbers {
        /// The field size `n` in bits.
        field_bits: u32,
        /// The width `t`.
        t: usize,
        /// The S-box degree `d`.
        d: u64,
        /// The security level `M` in bits.
        security_level: u32,
    },
    /// For t = 2 and 3 the internal matrix is fixed (`[[2,1],[1,3]]`, `[[2,1,1],[1,2,1],[1,1,3]]`,
    /// paper section 5.3) and hard-coded in the permutation, so the diagonal minus one must be
    /// `(1, 2)` / `(1, 1, 2)`; another one was given.
    WrongFixedInternalDiagonal {
        /// The width, 2 or 3.
        t: usize,
    },
    /// `R_F` or `R_P` is 0: a Poseidon2 permutation has full rounds on both sides of its partial
    /// rounds and at least one partial round (paper section 3).
    ZeroRounds {
        /// The requested `R_F`.
        rounds_f: usize,
        /// The requested `R_P`.
        rounds_p: usize,
    },
    /// A field size of `field_bits` bits was given to [`crate::params::security::round_numbers`]; every
    /// prime field has at least 2 (`p >= 2`).
    InvalidFieldBits {
        /// The rejected size.
        field_bits: u32,
    },
    /// A Poseidon1 MDS matrix (or one of the square submatrices the optimized schedule inverts,
    /// eprint 2019/458 appendix B) is not invertible, or no Cauchy draw was valid in
    /// [`crate::params::poseidon1::MAX_MDS_DRAWS`] tries.
    SingularMatrix,
    /// A Poseidon1 MDS matrix failed the reference's security check `algorithm_<algorithm>`
    /// (hadeshash `generate_parameters_grain.sage`; [`crate::params::security::check_mds_matrix`]):
    /// 1 found a non-zero `M`-invariant subspace of states with `x_0 = 0` (they never reach the
    /// partial rounds' S-box), 2 a proper `M`-invariant subspace containing `e_0` (what that
    /// S-box changes never leaves it), 3 such a subspace for a power `M^r`, `r = 2..=4t`.
    InsecureMdsMatrix {
        /// The first rejecting algorithm: 1, 2 or 3.
        algorithm: u8,
    },
    /// A batch call's output buffer had `got` elements where it needs `expected`, one per input
    /// (e.g. [`crate::instances::circom_bn254::hash_batch`]).
    OutputLengthMismatch {
        /// The output buffer's length.
        got: usize,
        /// The number of outputs the call produces.
        expected: usize,
    },
}

impl Error {
    /// A stable numeric code for the variant, for FFI and syscall boundaries.
    ///
    /// Codes are never reused or renumbered; new variants take new numbers.
    pub const fn code(&self) -> u32 {
        match self {
            Error::InvalidStateLength { .. } => 1,
            Error::UnsupportedWidth { .. } => 2,
            Error::UnsupportedSboxDegree { .. } => 3,
            Error::SboxNotPermutation { .. } => 4,
            Error::OddFullRounds { .. } => 5,
            Error::RoundsOutOfRange { .. } => 6,
            Error::InvalidConstantsLength { .. } => 7,
            Error::ShapeMismatch => 8,
            Error::InsecureInternalMatrix => 9,
            Error::InvalidNumberOfInputs { .. } => 10,
            Error::EmptyInput => 11,
            Error::InvalidRate { .. } => 12,
            Error::ZeroOutputs => 13,
            Error::InvalidInputLength { .. } => 14,
            Error::InputLargerThanModulus { .. } => 15,
            Error::TooManyInputs { .. } => 16,
            Error::AbsorbOverflow { .. } => 17,
            Error::IncompleteAbsorb { .. } => 18,
            Error::InvalidBatchLength { .. } => 19,
            Error::SqueezeOverflow { .. } => 20,
            Error::OutputTooLarge { .. } => 21,
            Error::InsufficientCapacity { .. } => 22,
            Error::DigestTooShort { .. } => 23,
            Error::InvalidDigestLength { .. } => 24,
            Error::NoSecureRoundNumbers { .. } => 25,
            Error::WrongFixedInternalDiagonal { .. } => 26,
            Error::ZeroRounds { .. } => 27,
            Error::InvalidFieldBits { .. } => 28,
            Error::SingularMatrix => 29,
            Error::InsecureMdsMatrix { .. } => 30,
            Error::OutputLengthMismatch { .. } => 31,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::InvalidStateLength { got, expected } => {
                write!(
                    f,
                    "state has {got} elements, the permutation's width is {expected}"
                )
            }
            Error::UnsupportedWidth { t } => write!(
                f,
                "width t = {t} is not supported by this call (Poseidon2: t = 2, 3 or a multiple \
                 of 4 up to {max}; Poseidon1: 2 to {max}; compression: room for a child digest \
                 beside the capacity; Merkle trees: two children per node)",
                max = crate::MAX_WIDTH
            ),
            Error::UnsupportedSboxDegree { d } => {
                write!(f, "S-box degree d = {d} is not supported (3, 5, 7 or 11)")
            }
            Error::SboxNotPermutation { d } => {
                write!(f, "x^{d} is not a permutation: gcd({d}, p - 1) != 1")
            }
            Error::OddFullRounds { rounds_f } => {
                write!(f, "R_F = {rounds_f} full rounds is odd; it must be even")
            }
            Error::RoundsOutOfRange { rounds_f, rounds_p } => write!(
                f,
                "R_F = {rounds_f}, R_P = {rounds_p}: each must be at most 1023 (Grain 10-bit fields)"
            ),
            Error::InvalidConstantsLength { got, expected } => {
                write!(
                    f,
                    "constant table has {got} entries, the shape needs {expected}"
                )
            }
            Error::ShapeMismatch => {
                f.write_str("parameters do not match the const-generic shape (T, RF, RP, D)")
            }
            Error::InsecureInternalMatrix => {
                f.write_str("internal matrix fails the Poseidon2 security check")
            }
            Error::InvalidNumberOfInputs { got, expected } => {
                write!(f, "got {got} inputs, expected exactly {expected}")
            }
            Error::EmptyInput => f.write_str("no input given"),
            Error::InvalidRate { rate, width } => write!(
                f,
                "rate {rate} is invalid for width {width}: need 1 <= rate < width"
            ),
            Error::ZeroOutputs => f.write_str("zero output elements requested"),
            Error::InvalidInputLength {
                index,
                len,
                expected,
            } => write!(
                f,
                "input {index} is {len} bytes, the field encoding is exactly {expected} bytes"
            ),
            Error::InputLargerThanModulus { index } => {
                write!(
                    f,
                    "input {index} encodes an integer not below the field modulus"
                )
            }
            Error::TooManyInputs { got, max } => {
                write!(f, "{got} inputs given, at most {max} are accepted")
            }
            Error::AbsorbOverflow { declared } => {
                write!(f, "more than the declared {declared} elements absorbed")
            }
            Error::IncompleteAbsorb { absorbed, declared } => write!(
                f,
                "squeeze after {absorbed} of the declared {declared} elements were absorbed"
            ),
            Error::InvalidBatchLength { len, width } => {
                write!(
                    f,
                    "buffer of {len} elements is not a whole number of {width}-element units \
                     (states, compression groups or digests)"
                )
            }
            Error::SqueezeOverflow { declared } => {
                write!(
                    f,
                    "more than the declared {declared} output elements squeezed"
                )
            }
            Error::OutputTooLarge { requested } => {
                write!(f, "{requested} output elements cannot be allocated")
            }
            Error::InsufficientCapacity {
                capacity_bits,
                required_bits,
            } => write!(
                f,
                "sponge capacity of {capacity_bits} bits is below the {required_bits} bits required"
            ),
            Error::DigestTooShort {
                digest_bits,
                required_bits,
            } => write!(
                f,
                "a digest of {digest_bits} bits is below the {required_bits} bits required; ask \
                 for the field's full digest length"
            ),
            Error::InvalidDigestLength { got, expected } => write!(
                f,
                "digests of {got} elements given, this field's digests have {expected}"
            ),
            Error::NoSecureRoundNumbers {
                field_bits,
                t,
                d,
                security_level,
            } => write!(
                f,
                "no secure (R_F, R_P) in the search range for a {field_bits}-bit field, t = {t}, \
                 d = {d} at {security_level}-bit security"
            ),
            Error::WrongFixedInternalDiagonal { t } => write!(
                f,
                "t = {t} has a fixed internal matrix: its diagonal minus one must be (1, 2) for \
                 t = 2, (1, 1, 2) for t = 3"
            ),
            Error::ZeroRounds { rounds_f, rounds_p } => write!(
                f,
                "R_F = {rounds_f}, R_P = {rounds_p}: each must be at least 1"
            ),
            Error::InvalidFieldBits { field_bits } => {
                write!(f, "a {field_bits}-bit field is not a prime field")
            }
            Error::SingularMatrix => f.write_str(
                "the Poseidon1 MDS matrix or a submatrix the optimized schedule inverts is singular",
            ),
            Error::InsecureMdsMatrix { algorithm } => write!(
                f,
                "the Poseidon1 MDS matrix fails the reference's security check algorithm_{algorithm} \
                 (an invariant subspace trail)"
            ),
            Error::OutputLengthMismatch { got, expected } => write!(
                f,
                "output buffer has {got} elements, the call produces {expected} (one per input)"
            ),
        }
    }
}

impl core::error::Error for Error {}
