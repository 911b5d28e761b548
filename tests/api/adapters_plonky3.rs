//! `adapters::plonky3` against Plonky3 0.8.0's own code (the `default_*_poseidon2_*()`
//! permutations of p3-baby-bear, p3-koala-bear and p3-goldilocks), for each of the seven
//! Plonky3 instances: the field conversions are exact (edge and random elements, Goldilocks'
//! non-canonical words too); 1,000 random states and a few edge states permute alike (plain
//! states, and 4-, 16- and 20-lane `FieldArray` states lane by lane); `PaddingFreeSponge` over inputs of
//! every length up to three blocks and `TruncatedPermutation` give the same digests on ours and
//! theirs; and a `MerkleTreeMmcs` (Plonky3's standard configurations: BabyBear and KoalaBear
//! `PaddingFreeSponge<_, 16, 8, 8>` + `TruncatedPermutation<_, 2, 8, 16>`, Goldilocks
//! `PaddingFreeSponge<_, 8, 4, 4>` + `TruncatedPermutation<_, 2, 4, 8>`) over random matrices of
//! several heights commits to the same root, and its openings verify across the two.
#![cfg(feature = "p3")]

use fast_poseidon2::adapters::plonky3::{self as adapter, Plonky3Field};
use p3_commit::{BatchOpeningRef, Mmcs};
use p3_field::{FieldArray, PrimeCharacteristicRing, PrimeField64};
use p3_matrix::Matrix;
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::{
    CryptographicHasher, PaddingFreeSponge, Permutation, PseudoCompressionFunction,
    TruncatedPermutation,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Random states per instance.
const STATES: usize = 1000;

/// A uniform element of Plonky3's field `X`.
fn random_element<X: PrimeField64>(rng: &mut StdRng) -> X {
    X::from_u64(rng.gen_range(0..X::ORDER_U64))
}

/// The edge elements of Plonky3's field `X`: 0, 1, 2, p - 2, p - 1.
fn edge_elements<X: PrimeField64>() -> Vec<X> {
    [0, 1, 2, X::ORDER_U64 - 2, X::ORDER_U64 - 1]
        .map(X::from_u64)
        .to_vec()
}

/// Ours to Plonky3 and back is exact on the edge elements and 10,000 random ones, and agrees
/// with the canonical integers on both sides.
fn conversions_are_exact<F: Plonky3Field>(seed: u64, canonical: fn(F) -> u64, new: fn(u64) -> F) {
    let mut rng = StdRng::seed_from_u64(seed);
    let randoms: Vec<F::P3> = (0..10_000).map(|_| random_element(&mut rng)).collect();
    for x in edge_elements::<F::P3>().into_iter().chain(randoms) {
        let v = x.as_canonical_u64();
        let ours = F::from_p3(x);
        assert_eq!(canonical(ours), v, "from_p3({v})");
        assert!(ours == new(v), "from_p3({v}) is new({v})");
        assert_eq!(ours.to_p3(), x, "to_p3(new({v}))");
        assert_eq!(ours.to_p3().as_canonical_u64(), v);
    }
}

/// The adapter and Plonky3's own permutation agree on 1,000 random states, the zero state, the
/// all `p - 1` state, `extra` states, and on 4-, 16- and 20-lane `FieldArray` states.
fn permutations_agree<X, Ours, Theirs, const T: usize>(
    ours: &Ours,
    theirs: &Theirs,
    seed: u64,
    extra: &[[X; T]],
) where
    X: PrimeField64,
    Ours: Permutation<[X; T]>
        + Permutation<[FieldArray<X, 4>; T]>
        + Permutation<[FieldArray<X, 16>; T]>
        + Permutation<[FieldArray<X, 20>; T]>,
    Theirs: Permutation<[X; T]>,
{
    let mut rng = StdRng::seed_from_u64(seed);
    let mut states: Vec<[X; T]> = (0..STATES)
        .map(|_| core::array::from_fn(|_| random_element(&mut rng)))
        .collect();
    states.push([X::ZERO; T]);
    states.push([X::NEG_ONE; T]);
    states.extend_from_slice(extra);
    for (n, state) in states.iter().enumerate() {
        let expected = theirs.permute(*state);
        assert_eq!(ours.permute(*state), expected, "state {n}");
        let mut in_place = *state;
        ours.permute_mut(&mut in_place);
        assert_eq!(in_place, expected, "state {n} in place");
    }
    packed_lanes_agree::<X, Ours, Theirs, T, 4>(ours, theirs, &states);
    packed_lanes_agree::<X, Ours, Theirs, T, 16>(ours, theirs, &states);
    packed_lanes_agree::<X, Ours, Theirs, T, 20>(ours, theirs, &states);
}

/// `states` in `N`-lane `FieldArray` states (4 lanes: the scalar path; 16: one batch of a
/// vector kernel; 20: 16 lanes, then 4), each lane as theirs permutes it alone.
fn packed_lanes_agree<X, Ours, Theirs, const T: usize, const N: usize>(
    ours: &Ours,
    theirs: &Theirs,
    states: &[[X; T]],
) where
    X: PrimeField64,
    Ours: Permutation<[FieldArray<X, N>; T]>,
    Theirs: Permutation<[X; T]>,
{
    for chunk in states.chunks_exact(N) {
        let packed: [FieldArray<X, N>; T] =
            core::array::from_fn(|i| FieldArray(core::array::from_fn(|lane| chunk[lane][i])));
        let out = ours.permute(packed);
        for (lane, state) in chunk.iter().enumerate() {
            let lane_out: [X; T] = core::array::from_fn(|i| out[i].0[lane]);
            assert_eq!(lane_out, theirs.permute(*state), "{N} lanes: lane {lane}");
        }
    }
}

/// `PaddingFreeSponge<_, T, RATE, OUT>` on ours and on theirs hash random inputs of every
/// length `0..=3 RATE + 1` alike, and `TruncatedPermutation<_, 2, OUT, T>` compresses random
/// digest pairs alike.
fn sponge_and_compression_agree<
    X,
    Ours,
    Theirs,
    const T: usize,
    const RATE: usize,
    const OUT: usize,
>(
    ours: Ours,
    theirs: Theirs,
    seed: u64,
) where
    X: PrimeField64,
    Ours: p3_symmetric::CryptographicPermutation<[X; T]>,
    Theirs: p3_symmetric::CryptographicPermutation<[X; T]>,
{
    let mut rng = StdRng::seed_from_u64(seed);
    let ours_hash = PaddingFreeSponge::<_, T, RATE, OUT>::new(ours.clone());
    let theirs_hash = PaddingFreeSponge::<_, T, RATE, OUT>::new(theirs.clone());
    for len in 0..=3 * RATE + 1 {
        let input: Vec<X> = (0..len).map(|_| random_element(&mut rng)).collect();
        let digest: [X; OUT] = ours_hash.hash_slice(&input);
        assert_eq!(
            digest,
            theirs_hash.hash_slice(&input),
            "sponge, {len} elements"
        );
    }
    let ours_compress = TruncatedPermutation::<_, 2, OUT, T>::new(ours);
    let theirs_compress = TruncatedPermutation::<_, 2, OUT, T>::new(theirs);
    for n in 0..100 {
        let pair: [[X; OUT]; 2] =
            core::array::from_fn(|_| core::array::from_fn(|_| random_element(&mut rng)));
        assert_eq!(
            ours_compress.compress(pair),
            theirs_compress.compress(pair),
            "compression {n}"
        );
    }
}

/// Random matrices of several heights and widths (some over a sponge block, two of the same
/// height). Plonky3's MMCS takes heights `ceil(h / 2^k)` of the tallest `h`: here 37 (not a
/// power of two), 19, 10, 5, 1.
fn random_matrices<X: PrimeField64>(seed: u64) -> Vec<RowMajorMatrix<X>> {
    let mut rng = StdRng::seed_from_u64(seed);
    [(37, 7), (37, 20), (19, 3), (10, 1), (5, 33), (1, 2)]
        .iter()
        .map(|&(height, width)| {
            let values = (0..height * width)
                .map(|_| random_element(&mut rng))
                .collect();
            RowMajorMatrix::new(values, width)
        })
        .collect()
}

/// A `MerkleTreeMmcs` on ours and one on theirs (Plonky3's standard configuration: packed
/// leaves and digests, a binary tree, cap height 0 and 2) commit the same matrices to the same
/// cap, each opens rows the other verifies, and a changed opened value fails.
macro_rules! mmcs_agree {
    ($field:ty, $ours:expr, $theirs:expr, $t:literal, $rate:literal, $out:literal, $seed:literal) => {{
        type X = $field;
        type Packing = <X as p3_field::Field>::Packing;
        fn mmcs<
            P: p3_symmetric::CryptographicPermutation<[X; $t]>
                + p3_symmetric::CryptographicPermutation<[Packing; $t]>,
        >(
            perm: P,
            cap_height: usize,
        ) -> MerkleTreeMmcs<
            Packing,
            Packing,
            PaddingFreeSponge<P, $t, $rate, $out>,
            TruncatedPermutation<P, 2, $out, $t>,
            2,
            $out,
        > {
            MerkleTreeMmcs::new(
                PaddingFreeSponge::new(perm.clone()),
                TruncatedPermutation::new(perm),
                cap_height,
            )
        }
        let matrices = random_matrices::<X>($seed);
        let dims: Vec<_> = matrices.iter().map(|m| m.dimensions()).collect();
        for cap_height in [0, 2] {
            let ours = mmcs($ours, cap_height);
            let theirs = mmcs($theirs, cap_height);
            let (ours_commit, ours_data) = ours.commit(matrices.clone());
            let (theirs_commit, theirs_data) = theirs.commit(matrices.clone());
            assert_eq!(ours_commit, theirs_commit, "cap height {cap_height}");
            for index in [0, 1, 20, 36] {
                // The proof type is the digests' (`Vec<[X; OUT]>`), the same on both sides;
                // each side's `BatchOpeningRef` is built from the other's parts.
                let opening = ours.open_batch(index, &ours_data);
                let as_theirs =
                    BatchOpeningRef::new(&opening.opened_values, &opening.opening_proof);
                theirs
                    .verify_batch(&theirs_commit, &dims, index, as_theirs)
                    .expect("our opening, their verifier");
                let opening = theirs.open_batch(index, &theirs_data);
                let as_ours = BatchOpeningRef::new(&opening.opened_values, &opening.opening_proof);
                ours.verify_batch(&ours_commit, &dims, index, as_ours)
                    .expect("their opening, our verifier");
                let mut tampered = opening.opened_values.clone();
                tampered[0][0] += X::ONE;
                let tampered = BatchOpeningRef::new(&tampered, &opening.opening_proof);
                assert!(
                    ours.verify_batch(&ours_commit, &dims, index, tampered)
                        .is_err(),
                    "a changed opened value must fail"
                );
            }
        }
    }};
}

#[cfg(feature = "babybear")]
mod babybear {
    use super::*;
    use fast_poseidon2::babybear::BabyBear;

    #[test]
    fn conversions_are_exact() {
        super::conversions_are_exact::<BabyBear>(
            1,
            |x| x.to_canonical_u32().into(),
            |v| BabyBear::new(v as u32),
        );
    }

    #[test]
    fn t16_permutation_agrees() {
        let theirs = p3_baby_bear::default_babybear_poseidon2_16();
        permutations_agree(&adapter::BABYBEAR_T16, &theirs, 16, &[]);
    }

    #[test]
    fn t24_permutation_agrees() {
        let theirs = p3_baby_bear::default_babybear_poseidon2_24();
        permutations_agree(&adapter::BABYBEAR_T24, &theirs, 24, &[]);
    }

    #[test]
    fn sponge_and_compression_agree() {
        super::sponge_and_compression_agree::<p3_baby_bear::BabyBear, _, _, 16, 8, 8>(
            adapter::BABYBEAR_T16,
            p3_baby_bear::default_babybear_poseidon2_16(),
            161,
        );
        super::sponge_and_compression_agree::<p3_baby_bear::BabyBear, _, _, 24, 16, 8>(
            adapter::BABYBEAR_T24,
            p3_baby_bear::default_babybear_poseidon2_24(),
            241,
        );
    }

    #[test]
    fn mmcs_commitments_agree() {
        mmcs_agree!(
            p3_baby_bear::BabyBear,
            adapter::BABYBEAR_T16,
            p3_baby_bear::default_babybear_poseidon2_16(),
            16,
            8,
            8,
            162
        );
    }
}

#[cfg(feature = "koalabear")]
mod koalabear {
    use super::*;
    use fast_poseidon2::koalabear::KoalaBear;

    #[test]
    fn conversions_are_exact() {
        super::conversions_are_exact::<KoalaBear>(
            2,
            |x| x.to_canonical_u32().into(),
            |v| KoalaBear::new(v as u32),
        );
    }

    #[test]
    fn t16_permutation_agrees() {
        let theirs = p3_koala_bear::default_koalabear_poseidon2_16();
        permutations_agree(&adapter::KOALABEAR_T16, &theirs, 1016, &[]);
    }

    #[test]
    fn t24_permutation_agrees() {
        let theirs = p3_koala_bear::default_koalabear_poseidon2_24();
        permutations_agree(&adapter::KOALABEAR_T24, &theirs, 1024, &[]);
    }

    #[test]
    fn sponge_and_compression_agree() {
        super::sponge_and_compression_agree::<p3_koala_bear::KoalaBear, _, _, 16, 8, 8>(
            adapter::KOALABEAR_T16,
            p3_koala_bear::default_koalabear_poseidon2_16(),
            1161,
        );
        super::sponge_and_compression_agree::<p3_koala_bear::KoalaBear, _, _, 24, 16, 8>(
            adapter::KOALABEAR_T24,
            p3_koala_bear::default_koalabear_poseidon2_24(),
            1241,
        );
    }

    #[test]
    fn mmcs_commitments_agree() {
        mmcs_agree!(
            p3_koala_bear::KoalaBear,
            adapter::KOALABEAR_T16,
            p3_koala_bear::default_koalabear_poseidon2_16(),
            16,
            8,
            8,
            1162
        );
    }
}

#[cfg(feature = "goldilocks")]
mod goldilocks {
    use super::*;
    use fast_poseidon2::goldilocks::GoldilocksFast;
    use p3_goldilocks::Goldilocks;

    /// States of non-canonical words (`p + k` for `k < 2^32 - 1`), which both crates accept.
    fn non_canonical<const T: usize>() -> Vec<[Goldilocks; T]> {
        let p = Goldilocks::ORDER_U64;
        vec![
            [Goldilocks::new(u64::MAX); T],
            core::array::from_fn(|i| Goldilocks::new(p + i as u64)),
        ]
    }

    #[test]
    fn conversions_are_exact() {
        super::conversions_are_exact::<GoldilocksFast>(
            3,
            GoldilocksFast::to_canonical_u64,
            GoldilocksFast::new,
        );
        for word in [Goldilocks::ORDER_U64, Goldilocks::ORDER_U64 + 7, u64::MAX] {
            let x = Goldilocks::new(word);
            assert_eq!(GoldilocksFast::from_p3(x), GoldilocksFast::new(word));
            assert_eq!(GoldilocksFast::new(word).to_p3(), x);
        }
    }

    #[test]
    fn t8_permutation_agrees() {
        let theirs = p3_goldilocks::default_goldilocks_poseidon2_8();
        permutations_agree(&adapter::GOLDILOCKS_T8, &theirs, 2008, &non_canonical());
    }

    #[test]
    fn t12_permutation_agrees() {
        let theirs = p3_goldilocks::default_goldilocks_poseidon2_12();
        permutations_agree(&adapter::GOLDILOCKS_T12, &theirs, 2012, &non_canonical());
    }

    #[test]
    fn t16_permutation_agrees() {
        let theirs = p3_goldilocks::default_goldilocks_poseidon2_16();
        permutations_agree(&adapter::GOLDILOCKS_T16, &theirs, 2016, &non_canonical());
    }

    #[test]
    fn sponge_and_compression_agree() {
        super::sponge_and_compression_agree::<Goldilocks, _, _, 8, 4, 4>(
            adapter::GOLDILOCKS_T8,
            p3_goldilocks::default_goldilocks_poseidon2_8(),
            2081,
        );
        super::sponge_and_compression_agree::<Goldilocks, _, _, 12, 8, 4>(
            adapter::GOLDILOCKS_T12,
            p3_goldilocks::default_goldilocks_poseidon2_12(),
            2121,
        );
        super::sponge_and_compression_agree::<Goldilocks, _, _, 16, 8, 4>(
            adapter::GOLDILOCKS_T16,
            p3_goldilocks::default_goldilocks_poseidon2_16(),
            2161,
        );
    }

    #[test]
    fn mmcs_commitments_agree() {
        mmcs_agree!(
            p3_goldilocks::Goldilocks,
            adapter::GOLDILOCKS_T8,
            p3_goldilocks::default_goldilocks_poseidon2_8(),
            8,
            4,
            4,
            2082
        );
    }
}

/// The wrapper is what Plonky3 asks of a permutation (`Clone + Sync`, and `Send` for its
/// parallel code), `Copy` and 8 bytes.
#[test]
#[cfg(feature = "babybear")]
fn wrapper_is_send_sync_copy() {
    fn assert_traits<P: Copy + Send + Sync + 'static>(_: &P) {}
    assert_traits(&adapter::BABYBEAR_T16);
    assert_eq!(size_of::<adapter::BabyBearT16>(), size_of::<usize>());
    const _: adapter::BabyBearT16 = adapter::BABYBEAR_T16;
}
