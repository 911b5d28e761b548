//! Poseidon1 (circom BN254): the optimized schedule equals the dense textbook permutation on
//! random states for every shipped width, the const-generic, runtime and batch paths agree,
//! and `hash`, `hash_with_domain_tag` and the byte API equal light-poseidon 0.5.0 on random
//! inputs for every input count it has (1..=12), both endiannesses.
#![cfg(feature = "bn254")]

use ark_bn254::Fr;
use ark_ff::{BigInteger, PrimeField as _};
use fast_poseidon2::instances::circom_bn254::{self, ROUNDS_P};
use fast_poseidon2::poseidon1::{Poseidon1, Poseidon1Params};
use light_poseidon::{Poseidon, PoseidonBytesHasher, PoseidonHasher};
use rand::{Rng, SeedableRng};
use testkit::differential::assert_poseidon1_paths;
use testkit::textbook::circom_hash;

fn params(t: usize) -> Poseidon1Params<Fr> {
    Poseidon1Params::generate(t, 5, 8, ROUNDS_P[t - 2]).expect("generate")
}

fn random_elements(rng: &mut rand::rngs::StdRng, n: usize) -> Vec<Fr> {
    (0..n)
        .map(|_| Fr::from_le_bytes_mod_order(&rng.r#gen::<[u8; 32]>()))
        .collect()
}

#[test]
fn optimized_schedule_equals_dense_textbook_for_every_shipped_width() {
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            assert_poseidon1_paths(&params($t), &$ct, $cached, $t, 8);
        };
    }
    testkit::for_each_circom_instance!(check);
}

#[test]
fn batch_paths_equal_the_scalar_permutation() {
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            let states = testkit::random_states::<Fr, $t>(100 + $t, 19);
            let mut batch = states.clone();
            $ct.permute_batch(&mut batch);
            let mut flat = states.as_flattened().to_vec();
            $cached.permute_batch(&mut flat).unwrap();
            for (i, state) in states.iter().enumerate() {
                let expected = $ct.permutation(state);
                assert_eq!(batch[i], expected, "t = {}: ct batch", $t);
                assert_eq!(
                    flat[i * $t..(i + 1) * $t],
                    expected,
                    "t = {}: runtime batch",
                    $t
                );
            }
            assert!(
                $cached.permute_batch(&mut flat[1..]).is_err(),
                "t = {}: ragged",
                $t
            );
        };
    }
    testkit::for_each_circom_instance!(check);
}

#[test]
fn hash_equals_textbook_for_every_input_count() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(15);
    for n in 1..=16 {
        let params = params(n + 1);
        for _ in 0..4 {
            let inputs = random_elements(&mut rng, n);
            let tag = random_elements(&mut rng, 1)[0];
            assert_eq!(
                circom_bn254::hash(&inputs).unwrap(),
                circom_hash(&params, Fr::from(0u64), &inputs),
                "n = {n}"
            );
            assert_eq!(
                circom_bn254::hash_with_domain_tag(tag, &inputs).unwrap(),
                circom_hash(&params, tag, &inputs),
                "n = {n}: tag"
            );
        }
    }
}

#[test]
fn hash_equals_light_poseidon_for_every_input_count_it_has() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2_019_458);
    for n in 1..=12 {
        let mut theirs = Poseidon::<Fr>::new_circom(n).unwrap();
        for _ in 0..16 {
            let inputs = random_elements(&mut rng, n);
            assert_eq!(
                circom_bn254::hash(&inputs).unwrap(),
                theirs.hash(&inputs).unwrap(),
                "n = {n}"
            );
            let tag = random_elements(&mut rng, 1)[0];
            let mut tagged = Poseidon::<Fr>::with_domain_tag_circom(n, tag).unwrap();
            assert_eq!(
                circom_bn254::hash_with_domain_tag(tag, &inputs).unwrap(),
                tagged.hash(&inputs).unwrap(),
                "n = {n}: domain tag"
            );
        }
    }
}

#[test]
fn byte_api_equals_light_poseidon_in_both_endiannesses() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(359);
    for n in 1..=12 {
        let mut theirs = Poseidon::<Fr>::new_circom(n).unwrap();
        for _ in 0..16 {
            let elements = random_elements(&mut rng, n);
            let be: Vec<Vec<u8>> = elements
                .iter()
                .map(|x| x.into_bigint().to_bytes_be())
                .collect();
            let le: Vec<Vec<u8>> = elements
                .iter()
                .map(|x| x.into_bigint().to_bytes_le())
                .collect();
            let be: Vec<&[u8]> = be.iter().map(Vec::as_slice).collect();
            let le: Vec<&[u8]> = le.iter().map(Vec::as_slice).collect();
            assert_eq!(
                circom_bn254::hash_bytes_be(&be).unwrap(),
                theirs.hash_bytes_be(&be).unwrap(),
                "n = {n}: BE"
            );
            assert_eq!(
                circom_bn254::hash_bytes_le(&le).unwrap(),
                theirs.hash_bytes_le(&le).unwrap(),
                "n = {n}: LE"
            );
        }
        // Rejections: light-poseidon rejects the same inputs.
        let p_be = Fr::MODULUS.to_bytes_be();
        let one = [1u8; 32];
        let mut inputs: Vec<&[u8]> = vec![&one; n];
        inputs[n - 1] = &p_be;
        assert!(circom_bn254::hash_bytes_be(&inputs).is_err());
        assert!(theirs.hash_bytes_be(&inputs).is_err());
    }
}

#[test]
fn runtime_mode_trait_runs_the_sponge() {
    // The family plugs into the modes' `Permutation` trait: the streaming sponge runs on it.
    use fast_poseidon2::modes::Sponge;
    let perm = circom_bn254::poseidon1_t3();
    let inputs = [Fr::from(1u64), Fr::from(2u64), Fr::from(3u64)];
    let mut sponge = Sponge::new(perm, 2, inputs.len(), 1).unwrap();
    sponge.absorb(&inputs).unwrap();
    let mut out = [Fr::from(0u64)];
    sponge.squeeze(&mut out).unwrap();
    let mut ct_sponge = Sponge::new(&circom_bn254::ct::T3, 2, inputs.len(), 1).unwrap();
    ct_sponge.absorb(&inputs).unwrap();
    let mut ct_out = [Fr::from(0u64)];
    ct_sponge.squeeze(&mut ct_out).unwrap();
    assert_eq!(out, ct_out);
}

/// The batch backends Poseidon1 is tried on: the portable path always runs; AVX-512 IFMA runs
/// where the CPU has it (BN254, BLS12-381); the Goldilocks kernels never have Poseidon1's rounds.
const BACKENDS: [fast_poseidon2::BatchBackend; 2] = [
    fast_poseidon2::BatchBackend::Portable,
    fast_poseidon2::BatchBackend::Avx512Ifma,
];

/// `states` of width `T` permuted on `backend` (both types: ct and cached runtime) equal the
/// scalar permutation state by state; `false` if the backend does not run here.
fn batch_on_equals_scalar<const T: usize, const RF: usize, const RP: usize>(
    ct: &fast_poseidon2::poseidon1::ct::Poseidon1Ct<Fr, T, RF, RP, 5>,
    runtime: &Poseidon1<Fr>,
    backend: fast_poseidon2::BatchBackend,
    input: &[[Fr; T]],
) -> bool {
    use fast_poseidon2::modes::BatchPermutation;
    let mut batch = input.to_vec();
    if !ct.permute_batch_on(backend, &mut batch) {
        return false;
    }
    let mut flat = input.as_flattened().to_vec();
    assert!(runtime.permute_states_on(backend, &mut flat));
    for (i, x) in input.iter().enumerate() {
        let expected = ct.permutation(x);
        assert_eq!(
            batch[i],
            expected,
            "t = {T}, {backend:?}, {} states, state {i}",
            input.len()
        );
        assert_eq!(
            flat[i * T..(i + 1) * T],
            expected,
            "t = {T}, {backend:?}: runtime"
        );
    }
    true
}

/// Every circom width, every batch size 0..=100 (random states with all-0 and all-(p-1) ones
/// among them), on every backend that runs here, and batches made only of the extreme states.
#[test]
fn every_backend_equals_scalar_for_every_width_and_batch_size_up_to_100() {
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            let pool = testkit::random_states::<Fr, $t>(1_000 + $t, 100);
            let minus_one = Fr::from(0u64) - Fr::from(1u64);
            for backend in BACKENDS {
                if !batch_on_equals_scalar(&$ct, $cached, backend, &[]) {
                    eprintln!("NOTE: {backend:?} does not run Poseidon1 on BN254 here: not tested");
                    continue;
                }
                for n in 0..=100 {
                    // Shift the window so that the extreme states land in different lanes.
                    let start = n % 3;
                    assert!(batch_on_equals_scalar(
                        &$ct,
                        $cached,
                        backend,
                        &pool[start..start + n]
                    ));
                }
                for extreme in [Fr::from(0u64), minus_one] {
                    assert!(batch_on_equals_scalar(
                        &$ct,
                        $cached,
                        backend,
                        &[[extreme; $t]; 17]
                    ));
                }
            }
        };
    }
    testkit::for_each_circom_instance!(check);
}

/// Runtime Poseidon1 permutations generated for other shapes run the kernel's edges: the widest
/// state (t = 32, dense rows of 32 terms), BLS12-381 (a larger modulus), t = 2 and S-box degree
/// 3 through explicit parameters (the kernel computes the map `x^3` whether or not it permutes).
#[test]
fn generated_runtime_instances_batch_equals_scalar() {
    use fast_poseidon2::modes::BatchPermutation;
    fn check<F: fast_poseidon2::field::PrimeField>(params: &Poseidon1Params<F>) {
        let perm = Poseidon1::new(params).expect("schedule");
        let t = perm.width();
        let input: Vec<F> = testkit::random_states::<F, 1>(t as u64, 40 * t)
            .into_iter()
            .flatten()
            .take(40 * t)
            .collect();
        for backend in BACKENDS {
            let mut batch = input.clone();
            if !perm.permute_states_on(backend, &mut batch) {
                continue;
            }
            for (got, x) in batch.chunks_exact(t).zip(input.chunks_exact(t)) {
                assert_eq!(got, perm.permutation(x).unwrap(), "t = {t}, {backend:?}");
            }
        }
    }
    for t in [2, 3, 32] {
        check(&Poseidon1Params::<Fr>::generate(t, 5, 8, 20).expect("BN254 params"));
        #[cfg(feature = "bls12-381")]
        check(&Poseidon1Params::<ark_bls12_381::Fr>::generate(t, 5, 8, 20).expect("BLS params"));
    }
    let g = Poseidon1Params::<Fr>::generate(3, 5, 8, 20).expect("params");
    let cubic = Poseidon1Params::new(3, 3, 8, 20, g.round_constants().to_vec(), g.mds().to_vec());
    check(&cubic.expect("explicit parameters"));
}

/// Poseidon1 over Goldilocks: no Goldilocks kernel has its rounds, so a batch runs the portable
/// path (equal to the scalar permutation) and `permute_states_on` refuses the kernels.
#[cfg(feature = "goldilocks")]
#[test]
fn goldilocks_poseidon1_batches_run_portable_only() {
    use fast_poseidon2::BatchBackend;
    use fast_poseidon2::goldilocks::GoldilocksFast;
    use fast_poseidon2::modes::BatchPermutation;
    let params = Poseidon1Params::<GoldilocksFast>::generate(8, 7, 8, 22).expect("params");
    let perm = Poseidon1::new(&params).expect("schedule");
    let input: Vec<GoldilocksFast> = (0..8 * 40).map(|i| GoldilocksFast::new(i * 7919)).collect();
    let mut batch = input.clone();
    perm.permute_batch(&mut batch).unwrap();
    for (got, x) in batch.chunks_exact(8).zip(input.chunks_exact(8)) {
        assert_eq!(got, perm.permutation(x).unwrap());
    }
    for backend in [
        BatchBackend::Avx512,
        BatchBackend::Avx2,
        BatchBackend::Avx512Ifma,
    ] {
        let mut untouched = input.clone();
        assert!(
            !perm.permute_states_on(backend, &mut untouched),
            "{backend:?}"
        );
        assert_eq!(untouched, input);
    }
}

/// `hash_batch` and `hash_batch_with_domain_tag` equal `hash` / `hash_with_domain_tag` input
/// by input, for every input count N = 1..=16 and batch sizes around the vector groups and the
/// 64-input chunks.
#[test]
fn hash_batch_equals_hash_for_every_input_count() {
    fn check<const N: usize>(rng: &mut rand::rngs::StdRng) {
        let tag = random_elements(rng, 1)[0];
        for n in [0, 1, 7, 8, 9, 16, 17, 63, 64, 65, 130] {
            let inputs: Vec<[Fr; N]> = (0..n)
                .map(|_| random_elements(rng, N).try_into().unwrap())
                .collect();
            let mut out = vec![Fr::from(0u64); n];
            circom_bn254::hash_batch(&inputs, &mut out).unwrap();
            let mut tagged = vec![Fr::from(0u64); n];
            circom_bn254::hash_batch_with_domain_tag(tag, &inputs, &mut tagged).unwrap();
            for (i, x) in inputs.iter().enumerate() {
                assert_eq!(
                    out[i],
                    circom_bn254::hash(x).unwrap(),
                    "N = {N}, n = {n}, i = {i}"
                );
                assert_eq!(
                    tagged[i],
                    circom_bn254::hash_with_domain_tag(tag, x).unwrap(),
                    "N = {N}, n = {n}, i = {i}: tag"
                );
            }
        }
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(2_026);
    macro_rules! each {
        ($($n:literal)*) => { $(check::<$n>(&mut rng);)* };
    }
    each!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
}

/// `hash_batch`'s errors, checked before anything is written.
#[test]
fn hash_batch_errors_are_specific_and_write_nothing() {
    use fast_poseidon2::Error;
    let sentinel = Fr::from(77u64);
    let mut out = [sentinel; 3];
    assert_eq!(
        circom_bn254::hash_batch::<0>(&[[], [], []], &mut out),
        Err(Error::EmptyInput)
    );
    assert_eq!(
        circom_bn254::hash_batch(&[[Fr::from(1u64); 17]; 3], &mut out),
        Err(Error::TooManyInputs { got: 17, max: 16 })
    );
    assert_eq!(
        circom_bn254::hash_batch(&[[Fr::from(1u64); 2]; 2], &mut out),
        Err(Error::OutputLengthMismatch {
            got: 3,
            expected: 2
        })
    );
    assert_eq!(
        circom_bn254::hash_batch_with_domain_tag(sentinel, &[[Fr::from(1u64); 2]; 4], &mut out),
        Err(Error::OutputLengthMismatch {
            got: 3,
            expected: 4
        })
    );
    assert_eq!(out, [sentinel; 3]);
    assert_eq!(circom_bn254::hash_batch::<2>(&[], &mut []), Ok(()));
}
