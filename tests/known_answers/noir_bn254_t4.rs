//! Interoperability: our BN254 t = 4 instance (Grain tuple (254, 4, 8, 56), not shipped by the
//! Horizen Labs reference) is the permutation Noir and Barretenberg use. Every permutation
//! vector in `tests/vectors/noir_bn254_t4.json` (Barretenberg `poseidon2_params.hpp` test
//! vector, Noir `bn254_blackbox_solver` tests; provenance per vector in the file) matches on
//! both paths.

#![cfg(feature = "bn254")]

use testkit as common;

use ark_bn254::Fr;
use common::{assert_both_paths, hex_array, vectors};
use fast_poseidon2::instances::bn254;

#[test]
fn bn254_t4_matches_every_noir_barretenberg_permutation_vector() {
    let file = vectors("noir_bn254_t4.json");
    let cases = file["permutation"].as_array().expect("permutation vectors");
    assert!(!cases.is_empty());
    for (i, case) in cases.iter().enumerate() {
        let input: Vec<Fr> = hex_array(&case["input"]);
        let expected: Vec<Fr> = hex_array(&case["output"]);
        let state: [Fr; 4] = input.try_into().expect("width 4");
        let (ct, flexible) = (bn254::ct::t4(), bn254::poseidon2_t4());
        assert_both_paths(&ct, flexible, &state, &expected, &format!("vector {i}"));
    }
}
