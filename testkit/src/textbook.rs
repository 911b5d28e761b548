//! The textbook Poseidon2 permutation, written straight from the paper (eprint 2023/323,
//! sections 5.1-5.3) with dense `t x t` matrices and generic exponentiation: no layer
//! shortcuts, no S-box chains. The crate's fast paths are checked against it. The one oracle
//! of the tests, the fuzz targets and Miri: permutation, compression, sponge, message hash, byte API, Merkle
//! root.

use fast_poseidon2::field::PrimeField;
use fast_poseidon2::{ExternalMatrix, Poseidon2Params};

/// `M4` of the paper, section 5.1 (the reference's `matmul_m4`).
const M4: [[u64; 4]; 4] = [[5, 7, 1, 3], [4, 6, 1, 1], [1, 3, 5, 7], [1, 1, 4, 6]];

/// Plonky3's `M4 = circ(2, 3, 1, 1)` (`MDSMat4`).
const M4_PLONKY3: [[u64; 4]; 4] = [[2, 3, 1, 1], [1, 2, 3, 1], [1, 1, 2, 3], [3, 1, 1, 2]];

/// The dense external matrix `M_E` with block `m4`: `circ(2, 1)` for t = 2, `circ(2, 1, 1)` for
/// t = 3, `M4` for t = 4, and for t = 4k >= 8 the block matrix with `2 M4` on the diagonal and
/// `M4` elsewhere.
pub fn external_matrix<F: PrimeField>(t: usize, m4: ExternalMatrix) -> Vec<Vec<F>> {
    let block = match m4 {
        ExternalMatrix::HorizenLabs => M4,
        ExternalMatrix::Plonky3 => M4_PLONKY3,
    };
    (0..t)
        .map(|i| {
            (0..t)
                .map(|j| {
                    F::from_u64(match t {
                        2 | 3 => 1 + u64::from(i == j),
                        4 => block[i][j],
                        _ if i / 4 == j / 4 => 2 * block[i % 4][j % 4],
                        _ => block[i % 4][j % 4],
                    })
                })
                .collect()
        })
        .collect()
}

/// The dense internal matrix `M_I`: `[[2,1],[1,3]]`, `[[2,1,1],[1,2,1],[1,1,3]]`, and for
/// t >= 4 the all-ones matrix plus `diag(mu - 1)` from the parameters; with an internal sum
/// scale `c` (SP1's), `c` times the all-ones matrix plus `diag(d)` at every width, `d` the
/// parameters' diagonal table.
pub fn internal_matrix<F: PrimeField>(params: &Poseidon2Params<F>) -> Vec<Vec<F>> {
    let t = params.width();
    let scale = params.internal_sum_scale();
    let diagonal = |i: usize| match (t, scale) {
        (2, None) => F::from_u64([1, 2][i]),
        (3, None) => F::from_u64([1, 1, 2][i]),
        _ => params.internal_diagonal_minus_one()[i],
    };
    let c = scale.unwrap_or(F::ONE_ELEMENT);
    (0..t)
        .map(|i| {
            (0..t)
                .map(|j| if i == j { c.add(diagonal(i)) } else { c })
                .collect()
        })
        .collect()
}

/// `matrix * state`, entry by entry.
pub fn apply<F: PrimeField>(matrix: &[Vec<F>], state: &[F]) -> Vec<F> {
    matrix
        .iter()
        .map(|row| {
            row.iter()
                .zip(state)
                .fold(F::ZERO_ELEMENT, |acc, (&m, &x)| acc.add(m.mul(x)))
        })
        .collect()
}

/// The permutation: `M_E`; `R_F / 2` full rounds (add `t` constants, `x^d` on every element,
/// `M_E`); `R_P` partial rounds (add one constant to `x_0`, `x_0^d`, `M_I`); `R_F / 2` full
/// rounds.
pub fn permutation<F: PrimeField>(params: &Poseidon2Params<F>, input: &[F]) -> Vec<F> {
    let t = params.width();
    let d = params.sbox_degree();
    let external = external_matrix::<F>(t, params.external_matrix());
    let internal = internal_matrix(params);
    let full_round = |state: Vec<F>, constants: &[F]| {
        let state: Vec<F> = state
            .iter()
            .zip(constants)
            .map(|(&x, &c)| x.add(c).pow_u64(d))
            .collect();
        apply(&external, &state)
    };
    let (first, last) = params
        .external_round_constants()
        .split_at(params.rounds_f() / 2 * t);
    let mut state = apply(&external, input);
    for constants in first.chunks(t) {
        state = full_round(state, constants);
    }
    for &c in params.internal_round_constants() {
        state[0] = state[0].add(c).pow_u64(d);
        state = apply(&internal, &state);
    }
    for constants in last.chunks(t) {
        state = full_round(state, constants);
    }
    state
}

/// The modes from their definitions, over [`permutation`].
///
/// The 128-bit rule (`src/modes/mod.rs` docs): a field of `n` bits needs `ceil(248 / n)`
/// elements of capacity and of digest (1 for BN254 and BLS12-381, 4 for Goldilocks).
pub fn digest_len<F: PrimeField>() -> usize {
    248usize.div_ceil(F::MODULUS_BITS as usize)
}

/// Children per Merkle compression: `t - 1` for one-element digests, else 2.
pub fn arity<F: PrimeField>(t: usize) -> usize {
    if digest_len::<F>() == 1 { t - 1 } else { 2 }
}

/// Merkle compression: the children's digests (`arity · D` elements) written into a zero
/// state, permuted, the first `D` elements kept. For one-element digests this is the
/// reference's `MerkleTreeHash::compress`, `perm(inputs ‖ 0)[0]`; for `D > 1` Plonky3's
/// `TruncatedPermutation`.
pub fn compress<F: PrimeField>(params: &Poseidon2Params<F>, children: &[F]) -> Vec<F> {
    compress_over(&|s| permutation(params, s), params.width(), children)
}

/// [`compress`] over any width-`t` permutation `perm` (e.g. [`poseidon1_permutation`]).
pub fn compress_over<F: PrimeField>(
    perm: &dyn Fn(&[F]) -> Vec<F>,
    t: usize,
    children: &[F],
) -> Vec<F> {
    let mut state = children.to_vec();
    state.resize(t, F::ZERO_ELEMENT);
    perm(&state)[..digest_len::<F>()].to_vec()
}

/// `v` in base `2^b`, `b = min(n - 1, 128)`, least significant digit first, `lanes` digits.
pub fn digits<F: PrimeField>(v: u128, lanes: usize) -> Vec<F> {
    let b = (F::MODULUS_BITS - 1).min(128);
    let two_64 = F::from_u64(u64::MAX).add(F::ONE_ELEMENT);
    let mut rest = v;
    (0..lanes)
        .map(|_| {
            let digit = if b == 128 { rest } else { rest % (1u128 << b) };
            rest = if b == 128 { 0 } else { rest >> b };
            F::from_u64((digit >> 64) as u64)
                .mul(two_64)
                .add(F::from_u64(digit as u64))
        })
        .collect()
}

/// The length-declared sponge (`src/modes/sponge.rs` docs): state zero but the capacity, which
/// holds `len · 2^64 + (out - 1)` as [`digits`] from `state[rate]` on; add each `rate`-chunk of
/// the input (the last may be shorter) and permute; output `state[..rate]`, permuting between
/// blocks, until `out` elements.
pub fn sponge<F: PrimeField>(
    params: &Poseidon2Params<F>,
    inputs: &[F],
    rate: usize,
    out: usize,
) -> Vec<F> {
    sponge_over(
        &|s| permutation(params, s),
        params.width(),
        inputs,
        rate,
        out,
    )
}

/// [`sponge`] over any width-`t` permutation `perm` (e.g. [`poseidon1_permutation`]).
pub fn sponge_over<F: PrimeField>(
    perm: &dyn Fn(&[F]) -> Vec<F>,
    t: usize,
    inputs: &[F],
    rate: usize,
    out: usize,
) -> Vec<F> {
    let mut state = vec![F::ZERO_ELEMENT; rate];
    let iv = ((inputs.len() as u128) << 64) + (out as u128 - 1);
    state.extend(digits::<F>(iv, t - rate));
    absorb_squeeze(perm, state, inputs, rate, out)
}

/// From `state`: add each `rate`-chunk of `inputs` (the last may be shorter) and permute;
/// output `state[..rate]`, permuting between blocks, until `out` elements.
fn absorb_squeeze<F: PrimeField>(
    perm: &dyn Fn(&[F]) -> Vec<F>,
    mut state: Vec<F>,
    inputs: &[F],
    rate: usize,
    out: usize,
) -> Vec<F> {
    for chunk in inputs.chunks(rate) {
        for (s, &x) in state.iter_mut().zip(chunk) {
            *s = s.add(x);
        }
        state = perm(&state);
    }
    let mut output = state[..rate].to_vec();
    while output.len() < out {
        state = perm(&state);
        output.extend_from_slice(&state[..rate]);
    }
    output.truncate(out);
    output
}

/// The message hash (`src/modes/message.rs` docs) over any width-`t` permutation `perm`:
/// `k = floor((n - 1) / 8)`-byte chunks, each a big-endian integer (built byte by byte,
/// `x · 256 + b`); state zero but the capacity (`D` elements from `state[t - D]` on), which holds
/// `L · 2^64 + (2^64 - 1)` as [`digits`]; the empty message permutes that state once; otherwise
/// the chunks are absorbed at rate `t - D`; `D` elements out.
pub fn message_hash<F: PrimeField>(
    perm: &dyn Fn(&[F]) -> Vec<F>,
    t: usize,
    message: &[u8],
) -> Vec<F> {
    let k = ((F::MODULUS_BITS - 1) / 8) as usize;
    let d = digest_len::<F>();
    let elements: Vec<F> = message
        .chunks(k)
        .map(|chunk| {
            chunk.iter().fold(F::ZERO_ELEMENT, |acc, &b| {
                acc.mul(F::from_u64(256)).add(F::from_u64(u64::from(b)))
            })
        })
        .collect();
    let iv = ((message.len() as u128) << 64) + u128::from(u64::MAX);
    let mut state = vec![F::ZERO_ELEMENT; t - d];
    state.extend(digits::<F>(iv, d));
    if message.is_empty() {
        state = perm(&state);
    }
    absorb_squeeze(perm, state, &elements, t - d, d)
}

/// [`message_hash`]'s elements written canonically big-endian, one after the other.
pub fn message_hash_bytes<F: PrimeField>(
    perm: &dyn Fn(&[F]) -> Vec<F>,
    t: usize,
    message: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    for x in message_hash(perm, t, message) {
        let mut bytes = vec![0u8; F::BYTES];
        x.write_canonical_be_bytes(&mut bytes);
        out.extend(bytes);
    }
    out
}

/// The byte API (the byte-API case list of `docs/compat.md`, `src/modes/bytes.rs` docs), with acceptance decided by
/// comparing each input, as a big-endian byte string, with the modulus: errors in the order
/// empty, more than `max_inputs`, first wrong length, first integer `>= p`; otherwise the
/// sponge with rate `t - D` and `D` outputs ([`digest_len`]), each written canonically in the
/// same endianness.
pub fn hashv_bytes<F: PrimeField>(
    params: &Poseidon2Params<F>,
    little_endian: bool,
    inputs: &[&[u8]],
    max_inputs: usize,
) -> Result<[u8; 32], fast_poseidon2::Error> {
    let perm = |s: &[F]| permutation(params, s);
    hashv_bytes_over(&perm, params.width(), little_endian, inputs, max_inputs)
}

/// [`hashv_bytes`] over any width-`t` permutation `perm` (e.g. [`poseidon1_permutation`]).
pub fn hashv_bytes_over<F: PrimeField>(
    perm: &dyn Fn(&[F]) -> Vec<F>,
    t: usize,
    little_endian: bool,
    inputs: &[&[u8]],
    max_inputs: usize,
) -> Result<[u8; 32], fast_poseidon2::Error> {
    use fast_poseidon2::Error;
    if inputs.is_empty() {
        return Err(Error::EmptyInput);
    }
    if inputs.len() > max_inputs {
        return Err(Error::TooManyInputs {
            got: inputs.len(),
            max: max_inputs,
        });
    }
    if let Some(index) = inputs.iter().position(|x| x.len() != F::BYTES) {
        return Err(Error::InvalidInputLength {
            index,
            len: inputs[index].len(),
            expected: F::BYTES,
        });
    }
    let mut modulus = vec![0u8; F::BYTES];
    F::write_modulus_be(&mut modulus);
    let big_endian: Vec<Vec<u8>> = inputs
        .iter()
        .map(|x| {
            let mut be = x.to_vec();
            if little_endian {
                be.reverse();
            }
            be
        })
        .collect();
    if let Some(index) = big_endian.iter().position(|be| *be >= modulus) {
        return Err(Error::InputLargerThanModulus { index });
    }
    let elements: Vec<F> = big_endian
        .iter()
        .map(|be| F::from_be_bytes_reduced(be))
        .collect();
    let d = digest_len::<F>();
    let digest = sponge_over(perm, t, &elements, t - d, d);
    let mut out = [0u8; 32];
    for (chunk, y) in out.chunks_exact_mut(F::BYTES).zip(digest) {
        y.write_canonical_be_bytes(chunk);
        if little_endian {
            chunk.reverse();
        }
    }
    Ok(out)
}

/// The Merkle root of `leaves` (a flat list of `D`-element digests; `src/modes/merkle.rs` docs):
/// while more than one node remains, pad the level with zero digests to a multiple of the
/// arity and replace each group by its [`compress`]; `None` for no leaves.
pub fn merkle_root<F: PrimeField>(params: &Poseidon2Params<F>, leaves: &[F]) -> Option<Vec<F>> {
    merkle_root_over(&|s| permutation(params, s), params.width(), leaves)
}

/// [`merkle_root`] over any width-`t` permutation `perm` (e.g. [`poseidon1_permutation`]).
pub fn merkle_root_over<F: PrimeField>(
    perm: &dyn Fn(&[F]) -> Vec<F>,
    t: usize,
    leaves: &[F],
) -> Option<Vec<F>> {
    let d = digest_len::<F>();
    let group = arity::<F>(t) * d;
    let mut level = leaves.to_vec();
    while level.len() > d {
        level.resize(level.len().next_multiple_of(group), F::ZERO_ELEMENT);
        level = level
            .chunks(group)
            .flat_map(|children| compress_over(perm, t, children))
            .collect();
    }
    (!level.is_empty()).then_some(level)
}

/// The textbook Poseidon1 permutation (eprint 2019/458 section 2; hadeshash
/// `poseidonperm_x5_254_*`, circomlibjs `poseidon_reference.js`), dense in every round:
/// `R_F / 2` full rounds, `R_P` partial rounds (`x^d` on `x_0` only, or on `x_{t-1}` only for
/// StarkWare's Hades permutation: the parameters' `partial_sbox`), `R_F / 2` full rounds,
/// each round = add the round's `t` constants, S-box, multiply by the MDS matrix. The oracle of
/// the crate's optimized Poseidon1 schedule.
pub fn poseidon1_permutation<F: PrimeField>(
    params: &fast_poseidon2::poseidon1::Poseidon1Params<F>,
    input: &[F],
) -> Vec<F> {
    let t = params.width();
    let d = params.sbox_degree();
    let half = params.rounds_f() / 2;
    let mds: Vec<Vec<F>> = params.mds().chunks(t).map(<[F]>::to_vec).collect();
    let k = params.partial_sbox().index(t);
    let mut state = input.to_vec();
    for (round, constants) in params.round_constants().chunks(t).enumerate() {
        let full = round < half || round >= half + params.rounds_p();
        for (i, (x, &c)) in state.iter_mut().zip(constants).enumerate() {
            *x = x.add(c);
            if full || i == k {
                *x = x.pow_u64(d);
            }
        }
        state = apply(&mds, &state);
    }
    state
}

/// circom's `Poseidon(n)` from its definition over [`poseidon1_permutation`]: the state
/// `[tag, in_1, .., in_n]` of width `n + 1` (`params` of that width), output `state[0]`.
pub fn circom_hash<F: PrimeField>(
    params: &fast_poseidon2::poseidon1::Poseidon1Params<F>,
    tag: F,
    inputs: &[F],
) -> F {
    let mut state = vec![tag];
    state.extend_from_slice(inputs);
    poseidon1_permutation(params, &state)[0]
}
