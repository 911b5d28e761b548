//! Starknet's Poseidon over the Stark field: the permutation of every shipped width reproduces
//! CryptoExperts' known answers, Starknet's hash functions reproduce cairo-lang's answers (as
//! starknet-crypto's tests record them), and every baked table equals the optimized schedule of
//! freshly generated StarkWare parameters (`testkit::hades`; the drift test).
#![cfg(feature = "stark252")]

use fast_poseidon2::instances::stark252::{
    self, poseidon_hash, poseidon_hash_many, poseidon_hash_single,
};
use fast_poseidon2::poseidon1::{PartialSbox, Poseidon1};
use fast_poseidon2::stark252::Felt252;
use serde_json::Value;
use testkit::{from_hex, hades, hex_array};

fn vectors() -> Value {
    testkit::vectors("stark252_poseidon.json")
}

fn entries<'a>(file: &'a Value, key: &str) -> &'a Vec<Value> {
    file[key].as_array().expect(key)
}

#[test]
fn every_width_reproduces_the_cryptoexperts_answers() {
    let file = vectors();
    let answers = entries(&file, "permutations");
    assert_eq!(answers.len(), 4, "t = 3, 4, 5, 9");
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            let entry = answers
                .iter()
                .find(|e| e["t"] == $t)
                .expect("an answer for every width");
            let input: [Felt252; $t] = hex_array::<Felt252>(&entry["input"]).try_into().unwrap();
            let expected = hex_array::<Felt252>(&entry["output"]);
            let provenance = &entry["provenance"];
            assert_eq!(
                $ct.permutation(&input).to_vec(),
                expected,
                "ct: {provenance}"
            );
            assert_eq!(
                $cached.permutation(&input).unwrap(),
                expected,
                "cached: {provenance}"
            );
            assert_eq!(
                testkit::textbook::poseidon1_permutation(&hades::params($t, $rp), &input),
                expected,
                "textbook: {provenance}"
            );
        };
    }
    testkit::for_each_stark252_instance!(check);
}

#[test]
fn starknet_functions_reproduce_the_cairo_lang_answers() {
    let file = vectors();
    for v in entries(&file, "poseidon_hash") {
        let (x, y) = (
            from_hex(v["x"].as_str().unwrap()),
            from_hex(v["y"].as_str().unwrap()),
        );
        let expected: Felt252 = from_hex(v["output"].as_str().unwrap());
        assert_eq!(poseidon_hash(x, y), expected, "{}", v["provenance"]);
    }
    for v in entries(&file, "poseidon_hash_single") {
        let x = from_hex(v["x"].as_str().unwrap());
        let expected: Felt252 = from_hex(v["output"].as_str().unwrap());
        assert_eq!(poseidon_hash_single(x), expected, "{}", v["provenance"]);
    }
    for v in entries(&file, "poseidon_hash_many") {
        let inputs = hex_array::<Felt252>(&v["inputs"]);
        let expected: Felt252 = from_hex(v["output"].as_str().unwrap());
        assert_eq!(poseidon_hash_many(&inputs), expected, "{}", v["provenance"]);
    }
}

#[test]
fn baked_tables_equal_the_schedule_of_fresh_starkware_parameters() {
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            let params = hades::params::<Felt252>($t, $rp);
            assert_eq!(params.partial_sbox(), PartialSbox::Last);
            assert_eq!($ct.partial_sbox(), PartialSbox::Last, "t = {}", $t);
            let fresh = Poseidon1::new(&params).expect("schedule");
            assert_eq!(
                Poseidon1::from(&$ct),
                fresh,
                "t = {}: baked table drifted",
                $t
            );
            assert_eq!(*$cached, fresh, "t = {}: cached getter", $t);
            assert_eq!($ct.mds().as_flattened(), params.mds(), "t = {}: MDS", $t);
        };
    }
    testkit::for_each_stark252_instance!(check);
    assert_eq!(stark252::ct::t3(), stark252::ct::T3);
}
