//! Compression: on one-element-digest fields `compress(x_0..x_{t-2}) = perm(x ‖ 0)[0]` on both
//! paths, equal to the Horizen Labs reference's `MerkleTreeHash::compress` and its Merkle-tree
//! known answers; any other input count is an error that leaves the hasher usable. On
//! Goldilocks (4-element digests) `compress_digests(l, r) = perm(l ‖ r ‖ 0 …)[..4]` on both
//! paths, and the single-element forms are refused.
#![cfg(feature = "std")]

use testkit as common;

use common::{convert, from_hex, hex_array, vectors};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::{Error, Poseidon2, ct::Poseidon2Ct};

/// The known answer `id` from `kats.json` `modes.vectors`: (inputs, output).
fn mode_vector<F: PrimeField + LinearLayers>(id: &str) -> (Vec<F>, F) {
    let kats = vectors("kats.json");
    let entry = kats["modes"]["vectors"]
        .as_array()
        .expect("vectors")
        .iter()
        .find(|v| v["id"] == id)
        .unwrap_or_else(|| panic!("no mode vector {id}"));
    let output: Vec<F> = hex_array(&entry["output"]["hex"]);
    (hex_array(&entry["input"]["hex"]), output[0])
}

/// Checks the `{prefix}_compress` and `{prefix}_merkle4` known answers on both t = 3 paths.
fn check_reference_mode_vectors<
    F: PrimeField + LinearLayers,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    prefix: &str,
    ct: &Poseidon2Ct<F, 3, RF, RP, D>,
    flexible: &Poseidon2<F>,
) {
    let (input, expected) = mode_vector::<F>(&format!("{prefix}_compress"));
    assert_eq!(ct.compress(&[input[0], input[1]]), expected, "ct compress");
    assert_eq!(flexible.compress(&input), Ok(expected), "flexible compress");

    let (leaves, root) = mode_vector::<F>(&format!("{prefix}_merkle4"));
    let left = ct.compress(&[leaves[0], leaves[1]]);
    let right = ct.compress(&[leaves[2], leaves[3]]);
    assert_eq!(ct.compress(&[left, right]), root, "ct merkle4 root");
    let left = flexible.compress(&leaves[..2]).unwrap();
    let right = flexible.compress(&leaves[2..]).unwrap();
    assert_eq!(
        flexible.compress(&[left, right]),
        Ok(root),
        "flexible merkle4 root"
    );
}

#[cfg(feature = "bn254")]
#[test]
fn bn254_t3_reproduces_reference_compress_and_merkle4_vectors() {
    use fast_poseidon2::instances::bn254;
    check_reference_mode_vectors("bn254_t3", &bn254::ct::t3(), bn254::poseidon2_t3());
}

#[cfg(feature = "bls12-381")]
#[test]
fn bls12_381_t3_reproduces_reference_compress_and_merkle4_vectors() {
    use fast_poseidon2::instances::bls12_381;
    check_reference_mode_vectors(
        "bls12_381_t3",
        &bls12_381::ct::t3(),
        bls12_381::poseidon2_t3(),
    );
}

#[cfg(feature = "bn254")]
#[test]
fn bn254_t3_compress_equals_zkhash_merkle_compress_on_1000_random_pairs() {
    use ark_bn254::Fr;
    use ark_ff_04::{BigInteger, PrimeField as _};
    use fast_poseidon2::instances::bn254;
    use rand::{Rng, SeedableRng, rngs::StdRng};
    use zkhash::fields::bn256::FpBN256;
    use zkhash::merkle_tree::merkle_tree_fp::MerkleTreeHash;
    use zkhash::poseidon2::poseidon2::Poseidon2 as Reference;
    use zkhash::poseidon2::poseidon2_instance_bn256::POSEIDON2_BN256_PARAMS;

    let to_reference = |x: Fr| {
        let mut bytes = [0u8; 32];
        x.write_canonical_be_bytes(&mut bytes);
        FpBN256::from_be_bytes_mod_order(&bytes)
    };
    let from_reference =
        |x: FpBN256| Fr::from_canonical_be_bytes(&x.into_bigint().to_bytes_be()).unwrap();

    let reference = Reference::new(&POSEIDON2_BN256_PARAMS);
    let ct = bn254::ct::t3();
    let flexible = bn254::poseidon2_t3();
    let mut rng = StdRng::seed_from_u64(0x5eed_c0de);
    for _ in 0..1000 {
        let [a, b]: [Fr; 2] =
            core::array::from_fn(|_| Fr::from_be_bytes_reduced(&rng.r#gen::<[u8; 32]>()));
        let expected = from_reference(reference.compress(&[&to_reference(a), &to_reference(b)]));
        assert_eq!(ct.compress(&[a, b]), expected, "ct, pair ({a}, {b})");
        assert_eq!(
            flexible.compress(&[a, b]),
            Ok(expected),
            "flexible, pair ({a}, {b})"
        );
    }
}

#[cfg(feature = "bn254")]
#[test]
fn bn254_t3_compress_of_one_or_three_inputs_is_an_error_and_the_hasher_stays_usable() {
    use ark_bn254::Fr;
    use fast_poseidon2::instances::bn254;
    let perm = bn254::poseidon2_t3();
    let (input, expected) = mode_vector::<Fr>("bn254_t3_compress");
    let a = from_hex::<Fr>("0x07");
    assert_eq!(
        perm.compress(&[a]),
        Err(Error::InvalidNumberOfInputs {
            got: 1,
            expected: 2
        })
    );
    assert_eq!(perm.compress(&input), Ok(expected));
    assert_eq!(
        perm.compress(&[a, a, a]),
        Err(Error::InvalidNumberOfInputs {
            got: 3,
            expected: 2
        })
    );
    assert_eq!(perm.compress(&input), Ok(expected));
}

/// On one instance: ct and flexible compress both equal `perm(1, 2, .., t-1, 0)[0]`, and every
/// input count but `t - 1` is `InvalidNumberOfInputs`.
fn check_compress<
    C,
    F,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
    const N: usize,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) where
    C: PrimeField + LinearLayers,
    F: PrimeField + LinearLayers,
{
    const { assert!(N + 1 == T) };
    let mut state = [C::ZERO_ELEMENT; T];
    for (i, x) in state.iter_mut().take(T - 1).enumerate() {
        *x = C::from_u64(i as u64 + 1);
    }
    let expected = ct.permutation(&state)[0];
    let inputs: Vec<C> = state[..T - 1].to_vec();
    let flexible_inputs: Vec<F> = inputs.iter().map(|&x| convert(x)).collect();

    let ct_inputs: [C; N] = inputs.clone().try_into().unwrap();
    assert_eq!(ct.compress(&ct_inputs), expected);
    assert_eq!(flexible.compress(&flexible_inputs), Ok(convert(expected)));
    for got in (0..=T + 1).filter(|&n| n != T - 1) {
        assert_eq!(
            flexible.compress(&vec![F::ONE_ELEMENT; got]),
            Err(Error::InvalidNumberOfInputs {
                got,
                expected: T - 1
            })
        );
        assert_eq!(flexible.compress(&flexible_inputs), Ok(convert(expected)));
    }
}

macro_rules! compress_tests {
    ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
        #[test]
        fn $name() {
            check_compress::<_, _, $t, _, _, _, { $t - 1 }>(&$ct, $flexible);
        }
    };
}

/// Per one-element-digest instance: ct and flexible compress equal `perm(inputs ‖ 0)[0]`;
/// wrong counts are errors.
mod compress_is_perm_of_inputs_and_zero_and_rejects_other_counts {
    use super::*;
    testkit::for_each_instance!(compress_tests, bn254);
    testkit::for_each_instance!(compress_tests, bls12_381);
}

/// On one Goldilocks instance: `compress_digests` of two 4-element digests is
/// `perm(l ‖ r ‖ 0 …)[..4]` on both paths, equal to the digest forms of `compress` on BN254
/// (`compress_digests(&[[a], [b]]) = [compress(&[a, b])]`); the single-element `compress` and
/// wrong digest lengths or child counts are errors.
fn check_compress_digests<const T: usize>(
    ct: &Poseidon2Ct<fast_poseidon2::goldilocks::GoldilocksFast, T, 8, 22, 7>,
    flexible: &Poseidon2<fast_poseidon2::goldilocks::GoldilocksFast>,
) {
    use fast_poseidon2::goldilocks::GoldilocksFast as G;
    let l: [G; 4] = core::array::from_fn(|i| G::new(i as u64 + 1));
    let r: [G; 4] = core::array::from_fn(|i| G::new(u64::MAX - i as u64));
    let mut state = [G::new(0); T];
    state[..4].copy_from_slice(&l);
    state[4..8].copy_from_slice(&r);
    let expected: [G; 4] = ct.permutation(&state)[..4].try_into().unwrap();
    assert_eq!(ct.compress_digests(&[l, r]), expected);
    assert_eq!(flexible.compress_digests(&[l, r]), Ok(expected));
    assert_eq!(
        flexible.compress(&vec![G::new(1); T - 1]),
        Err(Error::DigestTooShort {
            digest_bits: 64,
            required_bits: 248
        })
    );
    assert_eq!(
        flexible.compress_digests(&[[G::new(1); 2]; 2]),
        Err(Error::InvalidDigestLength {
            got: 2,
            expected: 4
        })
    );
    for got in [0, 1, 3] {
        assert_eq!(
            flexible.compress_digests(&vec![l; got]),
            Err(Error::InvalidNumberOfInputs { got, expected: 2 })
        );
    }
}

#[cfg(feature = "goldilocks")]
#[test]
fn goldilocks_compress_digests_is_the_truncated_permutation_on_every_width() {
    macro_rules! check {
        ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
            check_compress_digests(&$ct, $flexible);
        };
    }
    testkit::for_each_instance!(check, goldilocks);
}

#[cfg(feature = "bn254")]
#[test]
fn one_element_digest_forms_equal_compress_and_merkle_root() {
    use ark_bn254::Fr;
    use fast_poseidon2::instances::bn254;
    let (a, b, c) = (Fr::from(7u64), Fr::from(8u64), Fr::from(9u64));
    let (ct, rt) = (bn254::ct::t3(), bn254::poseidon2_t3());
    assert_eq!(ct.compress_digests(&[[a], [b]]), [ct.compress(&[a, b])]);
    assert_eq!(rt.compress_digests(&[[a], [b]]), Ok([ct.compress(&[a, b])]));
    assert_eq!(
        bn254::ct::t4().compress_digests(&[[a], [b], [c]]),
        [bn254::ct::t4().compress(&[a, b, c])]
    );
    let leaves = [a, b, c];
    assert_eq!(
        ct.merkle_root_digests(&[[a], [b], [c]]),
        ct.merkle_root(&leaves).map(|r| [r])
    );
    assert_eq!(
        rt.merkle_root_digests(&[[a], [b], [c]]),
        rt.merkle_root(&leaves).map(|r| [r])
    );
}
