//! Poseidon1 constants: `Poseidon1Params::generate` (our Grain, hadeshash
//! `generate_parameters_grain.sage`) regenerates light-poseidon 0.5.0's circom BN254 tables
//! (`parameters::bn254_x5`, t = 2..=13) bit for bit, and every baked circom table equals the
//! optimized schedule derived from a fresh generation (the drift test).

use ark_bn254::Fr;
use fast_poseidon2::instances::circom_bn254::ROUNDS_P;
use fast_poseidon2::poseidon1::Poseidon1Params;

fn generated(t: usize) -> Poseidon1Params<Fr> {
    Poseidon1Params::generate(t, 5, 8, ROUNDS_P[t - 2]).expect("generate")
}

#[test]
fn generate_reproduces_light_poseidon_tables_for_every_width_it_has() {
    for t in 2..=13usize {
        let theirs =
            light_poseidon::parameters::bn254_x5::get_poseidon_parameters::<Fr>(t as u8).unwrap();
        let ours = generated(t);
        assert_eq!(
            (theirs.full_rounds, theirs.partial_rounds, theirs.alpha),
            (ours.rounds_f(), ours.rounds_p(), ours.sbox_degree()),
            "t = {t}: shape"
        );
        assert_eq!(
            ours.round_constants(),
            theirs.ark.as_slice(),
            "t = {t}: round constants"
        );
        assert_eq!(ours.mds(), theirs.mds.concat().as_slice(), "t = {t}: MDS");
    }
}

#[test]
fn baked_circom_tables_equal_the_schedule_of_a_fresh_generation() {
    use fast_poseidon2::poseidon1::Poseidon1;
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            assert_eq!(ROUNDS_P[$t - 2], $rp, "t = {}: registry", $t);
            let fresh = Poseidon1::new(&generated($t)).expect("schedule");
            assert_eq!(
                Poseidon1::from(&$ct),
                fresh,
                "t = {}: baked table drifted",
                $t
            );
            assert_eq!(*$cached, fresh, "t = {}: cached getter", $t);
        };
    }
    testkit::for_each_circom_instance!(check);
}

/// Parses a decimal integer below p.
fn decimal(s: &str) -> Fr {
    s.parse().expect("decimal element")
}

#[test]
fn hash_reproduces_the_circomlib_vectors() {
    use fast_poseidon2::instances::circom_bn254::hash;
    let file = testkit::vectors("circom_poseidon1.json");
    let vectors = file["vectors"].as_array().expect("vectors");
    for v in vectors
        .iter()
        .chain(file["frozen"].as_array().into_iter().flatten())
    {
        let inputs: Vec<Fr> = v["inputs"]
            .as_array()
            .expect("inputs")
            .iter()
            .map(|x| decimal(x.as_str().expect("str")))
            .collect();
        let expected = decimal(v["output"].as_str().expect("output"));
        assert_eq!(hash(&inputs).unwrap(), expected, "{}", v["provenance"]);
        let params = generated(inputs.len() + 1);
        assert_eq!(
            testkit::textbook::circom_hash(&params, Fr::from(0u64), &inputs),
            expected,
            "textbook: {}",
            v["provenance"]
        );
    }
}
