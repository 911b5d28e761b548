//! The main job proves its own output: the `merkle_root` example's root of the shipped `LICENSE`
//! file equals a root computed with the Horizen Labs reference permutation (`zkhash` 0.2) over
//! the same leaves, and the documented edge cases hold.

#[path = "../examples/merkle_root.rs"]
mod example;

use ark_bn254::Fr;
use ark_ff_04::{BigInteger, PrimeField as _};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::instances::bn254;
use zkhash::fields::bn256::FpBN256;
use zkhash::poseidon2::poseidon2::Poseidon2 as RefPoseidon2;
use zkhash::poseidon2::poseidon2_instance_bn256::POSEIDON2_BN256_PARAMS;

fn to_reference(x: Fr) -> FpBN256 {
    let mut bytes = [0u8; 32];
    x.write_canonical_be_bytes(&mut bytes);
    FpBN256::from_be_bytes_mod_order(&bytes)
}

fn from_reference(x: FpBN256) -> Fr {
    Fr::from_canonical_be_bytes(&x.into_bigint().to_bytes_be()).expect("canonical")
}

/// Root computed with zkhash's permutation, same tree rule as the example.
fn reference_root(leaves: &[Fr]) -> Fr {
    let perm = RefPoseidon2::new(&POSEIDON2_BN256_PARAMS);
    let mut level: Vec<FpBN256> = leaves.iter().map(|&x| to_reference(x)).collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| {
                let right = p.get(1).copied().unwrap_or_default();
                perm.permutation(&[p[0], right, FpBN256::from(0u64)])[0]
            })
            .collect();
    }
    level.first().map_or(Fr::from(0u64), |&r| from_reference(r))
}

#[test]
fn license_root_equals_reference_root() {
    let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/LICENSE")).unwrap();
    let leaves = example::leaves(&data);
    assert_eq!(leaves.len(), data.len().div_ceil(31));
    let (root, permutations) = example::merkle_root(&bn254::ct::t3(), &leaves);
    assert_eq!(root, reference_root(&leaves));
    assert!(permutations >= leaves.len() - 1);
}

#[test]
fn odd_leaf_counts_pair_the_last_node_with_zero() {
    for n in [2usize, 3, 5, 7, 8, 9] {
        let leaves: Vec<Fr> = (1..=n as u64).map(Fr::from).collect();
        let (root, _) = example::merkle_root(&bn254::ct::t3(), &leaves);
        assert_eq!(root, reference_root(&leaves), "{n} leaves");
    }
}

#[test]
fn empty_input_has_zero_root_and_no_permutation() {
    assert_eq!(
        example::merkle_root(&bn254::ct::t3(), &[]),
        (Fr::from(0u64), 0)
    );
}

#[test]
fn one_leaf_is_its_own_root() {
    let leaf = example::leaves(b"a");
    assert_eq!(
        example::merkle_root(&bn254::ct::t3(), &leaf),
        (Fr::from(0x61u64), 0)
    );
}

#[test]
fn root_prints_as_64_hex_digits() {
    let hex = example::to_hex(Fr::from(1u64));
    assert_eq!(hex.len(), 66);
    assert!(hex.starts_with("0x") && hex.ends_with("01"));
}
