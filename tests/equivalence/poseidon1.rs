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
use testkit::textbook::{circom_hash, poseidon1_permutation};

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
            let params = params($t);
            let runtime = Poseidon1::new(&params).expect("schedule");
            let from_params =
                fast_poseidon2::poseidon1::ct::Poseidon1Ct::<Fr, $t, 8, $rp, 5>::from_params(
                    &params,
                )
                .expect("shape");
            for state in testkit::random_states::<Fr, $t>($t, 8) {
                let expected = poseidon1_permutation(&params, &state);
                assert_eq!($ct.permutation(&state).to_vec(), expected, "t = {}: ct", $t);
                assert_eq!(
                    from_params.permutation(&state).to_vec(),
                    expected,
                    "t = {}: from_params",
                    $t
                );
                assert_eq!(
                    runtime.permutation(&state).unwrap(),
                    expected,
                    "t = {}: runtime",
                    $t
                );
                assert_eq!(
                    $cached.permutation(&state).unwrap(),
                    expected,
                    "t = {}: cached",
                    $t
                );
            }
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
