//! The deterministic suite Miri runs (`scripts/miri.sh`): reduced-round instances (R_F = 2,
//! R_P = 2): generated over GF(17) and GF(257), and the shipped BN254 t = 3, 4 and Goldilocks
//! t = 8 instances cut down to their first and last full round and first two partial rounds
//! (same diagonal), so that every code path of the permutation, the modes and the byte API
//! executes in minutes under the interpreter. Each
//! claim is also checked by the full suite; here the point is undefined behaviour, not values.
//! Runs natively too (it is cheap).
#![cfg(feature = "std")]

use testkit as common;
use testkit::small;

use common::textbook;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::modes::Sponge;
use fast_poseidon2::{Endianness, Error, Poseidon2, Poseidon2Params};
use small::{F17, F257};

/// A few fixed states: zero, `0, 1, 2, ..`, all `p - 1`.
fn states<F: PrimeField + LinearLayers, const T: usize>() -> [[F; T]; 3] {
    [
        [F::ZERO_ELEMENT; T],
        core::array::from_fn(|i| F::from_u64(i as u64)),
        [F::ONE_ELEMENT.neg(); T],
    ]
}

/// `params` cut down to R_F = 2 (its first and last full round) and R_P = 2 (its first two
/// partial rounds), with the same diagonal.
fn reduced<F: PrimeField + LinearLayers>(params: &Poseidon2Params<F>) -> Poseidon2Params<F> {
    let t = params.width();
    let external = params.external_round_constants();
    let kept = [&external[..t], &external[external.len() - t..]].concat();
    Poseidon2Params::new(
        t,
        params.sbox_degree(),
        2,
        2,
        kept,
        params.internal_round_constants()[..2].to_vec(),
        params.internal_diagonal_minus_one().to_vec(),
    )
    .expect("same shape, fewer rounds")
}

/// The generated instance `(T, D, R_F = 2, R_P = 2)` over `F` passes [`check_reduced`].
fn check_generated<F: PrimeField + LinearLayers, const T: usize, const D: u64>() {
    check_reduced::<F, T, D>(Poseidon2Params::generate(T, D, 2, 2).expect("supported shape"));
}

/// For a reduced instance `(T, D, R_F = 2, R_P = 2)` over `F`: ct, runtime and textbook agree on
/// [`states`], also as one batch; compress, Merkle root, one-shot and streaming sponge, and the
/// byte API run on both paths and agree; wrong lengths are errors.
fn check_reduced<F: PrimeField + LinearLayers, const T: usize, const D: u64>(
    params: Poseidon2Params<F>,
) {
    let ct = Poseidon2Ct::<F, T, 2, 2, D>::from_params(&params).expect("same shape");
    let flexible = Poseidon2::new(params.clone());
    for state in states::<F, T>() {
        let out = ct.permutation(&state);
        assert_eq!(flexible.permutation(&state).unwrap(), out.to_vec());
        assert_eq!(textbook::permutation(&params, &state), out.to_vec());
    }
    let mut batch = states::<F, T>();
    ct.permute_batch(&mut batch);
    for (state, out) in states::<F, T>().iter().zip(&batch) {
        assert_eq!(textbook::permutation(&params, state), out.to_vec());
    }
    let inputs: Vec<F> = (0..T as u64 + 1).map(F::from_u64).collect();
    assert_eq!(
        flexible.permutation(&inputs),
        Err(Error::InvalidStateLength {
            got: T + 1,
            expected: T
        })
    );
    let digest = textbook::digest_len::<F>();
    if digest >= T {
        // A field this small cannot carry a 248-bit capacity at this width: every mode refuses.
        assert!(matches!(
            flexible.hash(&inputs, 1, 3),
            Err(Error::InsufficientCapacity { .. })
        ));
        let mut out = [F::ZERO_ELEMENT; 3];
        assert!(matches!(
            ct.hash_into(&inputs, 1, &mut out),
            Err(Error::InsufficientCapacity { .. })
        ));
        assert!(flexible.compress_batch(&inputs).is_err());
        return;
    }
    let group = textbook::arity::<F>(T) * digest;
    assert_eq!(
        flexible.compress_batch(&inputs[..group]).unwrap(),
        textbook::compress(&params, &inputs[..group])
    );
    if group >= 2 * digest {
        let mut builder = fast_poseidon2::merkle::MerkleBuilder::new(&flexible).unwrap();
        builder.push(&inputs[..2 * digest]).unwrap();
        assert_eq!(
            common::differential::builder_root(builder),
            textbook::merkle_root(&params, &inputs[..2 * digest])
        );
    }
    let rate = T - digest;
    // At least the digest length: shorter outputs are `DigestTooShort`.
    let outs = digest.max(3);
    let expected = textbook::sponge(&params, &inputs, rate, outs);
    let mut one_shot = vec![F::ZERO_ELEMENT; outs];
    ct.hash_into(&inputs, rate, &mut one_shot).unwrap();
    assert_eq!(one_shot, expected);
    assert_eq!(flexible.hash(&inputs, rate, outs).unwrap(), expected);
    let mut sponge = Sponge::new(&flexible, rate, inputs.len(), outs).unwrap();
    sponge.absorb(&inputs[..1]).unwrap();
    sponge.absorb(&inputs[1..]).unwrap();
    let mut streamed = vec![F::ZERO_ELEMENT; outs];
    sponge.squeeze(&mut streamed[..2]).unwrap();
    sponge.squeeze(&mut streamed[2..]).unwrap();
    assert_eq!(streamed, expected);
}

/// The byte API of a reduced shipped instance on both paths equals the textbook byte API, and
/// a short slice is an error.
fn check_reduced_bytes<F: PrimeField + LinearLayers, const T: usize, const D: u64>(
    params: Poseidon2Params<F>,
) {
    let ct = Poseidon2Ct::<F, T, 2, 2, D>::from_params(&params).expect("same shape");
    let flexible = Poseidon2::new(params.clone());
    let mut encoded = vec![0u8; F::BYTES];
    F::from_u64(1).write_canonical_be_bytes(&mut encoded);
    let big = ct.hashv_bytes(Endianness::BigEndian, &[&encoded]);
    assert_eq!(big, flexible.hash_bytes_be(&[&encoded]));
    assert_eq!(
        big,
        textbook::hashv_bytes(&params, false, &[&encoded], fast_poseidon2::MAX_BYTE_INPUTS)
    );
    assert!(ct.hash_bytes_le(&[&encoded[1..]]).is_err());
}

#[test]
fn reduced_f17_t2_and_t3_run_clean() {
    check_generated::<F17, 2, 3>();
    check_generated::<F17, 3, 3>();
}

#[test]
fn reduced_f257_t4_runs_clean() {
    check_generated::<F257, 4, 3>();
}

#[cfg(feature = "bn254")]
#[test]
fn reduced_bn254_t3_and_t4_run_clean() {
    use fast_poseidon2::instances::bn254::ct;
    check_reduced::<ark_bn254::Fr, 3, 5>(reduced(&ct::t3().to_params()));
    check_reduced::<ark_bn254::Fr, 4, 5>(reduced(&ct::t4().to_params()));
    check_reduced_bytes::<ark_bn254::Fr, 3, 5>(reduced(&ct::t3().to_params()));
}

#[cfg(feature = "goldilocks")]
#[test]
fn reduced_goldilocks_fast_t8_runs_clean() {
    use fast_poseidon2::instances::goldilocks::ct;
    check_reduced::<fast_poseidon2::goldilocks::GoldilocksFast, 8, 7>(reduced(
        &ct::t8().to_params(),
    ));
    check_reduced_bytes::<fast_poseidon2::goldilocks::GoldilocksFast, 8, 7>(reduced(
        &ct::t8().to_params(),
    ));
}
