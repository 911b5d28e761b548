//! Plonky3's mode vectors (`tests/vectors/plonky3_kats.json`, `modes`, computed with
//! p3-symmetric 0.8.0 on the 0.8.0 default permutations): `TruncatedPermutation<2, D, t>` is
//! this crate's `compress_digests` (`perm(l ‖ r)[..D]` when the two digests fill the state), and
//! `PaddingFreeSponge<16, 8, 8>` run here on our permutation (Plonky3's construction, not one
//! of this crate's modes: each block overwrites the rate, a partial last block overwrites only
//! its elements, no padding).

use testkit::vectors;

use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;

/// The `modes` entry whose description starts with `prefix`, as field elements.
fn mode_output<F: PrimeField>(prefix: &str) -> Vec<F> {
    let file = vectors("plonky3_kats.json");
    let entry = file["modes"]
        .as_array()
        .expect("modes")
        .iter()
        .find(|m| m["mode"].as_str().expect("mode").starts_with(prefix))
        .unwrap_or_else(|| panic!("no mode {prefix}"));
    entry["output_dec"]
        .as_array()
        .expect("output")
        .iter()
        .map(|x| F::from_u64(x.as_str().expect("str").parse().expect("u64")))
        .collect()
}

/// Plonky3's `PaddingFreeSponge<_, T, RATE, OUT>::hash_iter` on our permutation.
fn padding_free_sponge<
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    perm: &Poseidon2Ct<F, T, RF, RP, D>,
    rate: usize,
    out: usize,
    input: &[F],
) -> Vec<F> {
    let mut state = [F::ZERO_ELEMENT; T];
    for block in input.chunks(rate) {
        state[..block.len()].copy_from_slice(block);
        perm.permute_mut(&mut state);
    }
    state[..out].to_vec()
}

/// `[first, first + 1, ..., first + N - 1]`.
fn counting<F: PrimeField, const N: usize>(first: u64) -> [F; N] {
    core::array::from_fn(|i| F::from_u64(first + i as u64))
}

#[cfg(feature = "babybear")]
#[test]
fn babybear16_truncated_permutation_is_compress_digests() {
    use fast_poseidon2::babybear::BabyBear;
    use fast_poseidon2::instances::plonky3;
    let perm = plonky3::ct::babybear_t16();
    let (l, r) = (counting::<BabyBear, 8>(0), counting::<BabyBear, 8>(8));
    let expected = mode_output::<BabyBear>("babybear16 TruncatedPermutation");
    assert_eq!(perm.compress_digests(&[l, r]).to_vec(), expected);
    #[cfg(feature = "std")]
    assert_eq!(
        plonky3::poseidon2_babybear_t16().compress_digests(&[l, r]),
        Ok(expected.try_into().expect("8"))
    );
}

#[cfg(feature = "babybear")]
#[test]
fn babybear16_padding_free_sponge() {
    use fast_poseidon2::babybear::BabyBear;
    let perm = fast_poseidon2::instances::plonky3::ct::babybear_t16();
    let input = counting::<BabyBear, 10>(0);
    assert_eq!(
        padding_free_sponge(&perm, 8, 8, &input),
        mode_output::<BabyBear>("babybear16 PaddingFreeSponge")
    );
}

#[cfg(feature = "koalabear")]
#[test]
fn koalabear16_padding_free_sponge() {
    use fast_poseidon2::koalabear::KoalaBear;
    let perm = fast_poseidon2::instances::plonky3::ct::koalabear_t16();
    let input = counting::<KoalaBear, 10>(0);
    assert_eq!(
        padding_free_sponge(&perm, 8, 8, &input),
        mode_output::<KoalaBear>("koalabear16 PaddingFreeSponge")
    );
}

#[cfg(feature = "goldilocks")]
#[test]
fn goldilocks8_truncated_permutation_is_compress_digests() {
    use fast_poseidon2::goldilocks::GoldilocksFast;
    let perm = fast_poseidon2::instances::plonky3::ct::goldilocks_t8();
    let (l, r) = (
        counting::<GoldilocksFast, 4>(0),
        counting::<GoldilocksFast, 4>(4),
    );
    assert_eq!(
        perm.compress_digests(&[l, r]).to_vec(),
        mode_output::<GoldilocksFast>("goldilocks8 TruncatedPermutation")
    );
}
