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

/// Every vector of `circom_poseidon1.json` through `hash_with_domain_tag` (tag 0 where absent:
/// `hash`) and the textbook oracle; where the vector lists the first elements of the permuted
/// state (circomlibjs `nOut`), through the runtime permutation too.
#[test]
fn hash_reproduces_the_circomlib_vectors() {
    use fast_poseidon2::instances::circom_bn254::{hash, hash_with_domain_tag};
    use fast_poseidon2::poseidon1::Poseidon1;
    let decimals = |v: &serde_json::Value| -> Vec<Fr> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| decimal(x.as_str().expect("str")))
            .collect()
    };
    let file = testkit::vectors("circom_poseidon1.json");
    let vectors = file["vectors"].as_array().expect("vectors");
    for v in vectors
        .iter()
        .chain(file["frozen"].as_array().into_iter().flatten())
    {
        let inputs = decimals(&v["inputs"]);
        let tag = v["tag"].as_str().map_or(Fr::from(0u64), decimal);
        let expected = decimal(v["output"].as_str().expect("output"));
        assert_eq!(
            hash_with_domain_tag(tag, &inputs).unwrap(),
            expected,
            "{}",
            v["provenance"]
        );
        if v["tag"].is_null() {
            assert_eq!(hash(&inputs).unwrap(), expected, "{}", v["provenance"]);
        }
        let params = generated(inputs.len() + 1);
        assert_eq!(
            testkit::textbook::circom_hash(&params, tag, &inputs),
            expected,
            "textbook: {}",
            v["provenance"]
        );
        if !v["state"].is_null() {
            let state = decimals(&v["state"]);
            let input: Vec<Fr> = core::iter::once(tag).chain(inputs).collect();
            let permuted = Poseidon1::new(&params)
                .unwrap()
                .permutation(&input)
                .unwrap();
            assert_eq!(permuted[..state.len()], state, "state: {}", v["provenance"]);
        }
    }
}

/// Firedancer's `test_poseidon.c` checks (`firedancer_poseidon.json`): every vector of 32-byte
/// pieces through `hashv_bytes` in its endianness; the 1-byte pieces Firedancer zero-extended
/// are rejected with `InvalidInputLength`, and zero-extended here give Firedancer's answer.
#[test]
fn hashv_bytes_reproduces_the_firedancer_vectors() {
    use fast_poseidon2::instances::circom_bn254::{BYTES, hashv_bytes};
    use fast_poseidon2::{Endianness, Error};
    use serde_json::Value;
    // (endianness, pieces, expected output) of one vector.
    let parse = |v: &Value| {
        let endianness = match v["endianness"].as_str() {
            Some("big") => Endianness::BigEndian,
            Some("little") => Endianness::LittleEndian,
            other => panic!("endianness {other:?}"),
        };
        let pieces: Vec<Vec<u8>> = v["inputs"]
            .as_array()
            .expect("inputs")
            .iter()
            .map(|h| hex::decode(h.as_str().expect("str")).expect("hex"))
            .collect();
        let output = hex::decode(v["output"].as_str().expect("output")).expect("hex");
        (endianness, pieces, output)
    };
    let file = testkit::vectors("firedancer_poseidon.json");
    let vectors = file["vectors"].as_array().expect("vectors");
    assert_eq!(vectors.len(), 30, "every 32-byte check of the file");
    for v in vectors {
        let (endianness, pieces, output) = parse(v);
        let refs: Vec<&[u8]> = pieces.iter().map(Vec::as_slice).collect();
        assert_eq!(
            hashv_bytes(endianness, &refs).unwrap().as_slice(),
            output,
            "{}",
            v["provenance"]
        );
    }
    let short = file["short_inputs"]["vectors"].as_array().expect("short");
    assert_eq!(short.len(), 2);
    for v in short {
        let (endianness, pieces, output) = parse(v);
        let refs: Vec<&[u8]> = pieces.iter().map(Vec::as_slice).collect();
        assert_eq!(
            hashv_bytes(endianness, &refs),
            Err(Error::InvalidInputLength {
                index: 0,
                len: 1,
                expected: BYTES
            }),
            "{}",
            v["provenance"]
        );
        let extended: Vec<[u8; BYTES]> = pieces
            .iter()
            .map(|p| {
                let mut x = [0u8; BYTES];
                match endianness {
                    Endianness::BigEndian => x[BYTES - p.len()..].copy_from_slice(p),
                    Endianness::LittleEndian => x[..p.len()].copy_from_slice(p),
                }
                x
            })
            .collect();
        let refs: Vec<&[u8]> = extended.iter().map(|x| x.as_slice()).collect();
        assert_eq!(
            hashv_bytes(endianness, &refs).unwrap().as_slice(),
            output,
            "zero-extended: {}",
            v["provenance"]
        );
    }
}
