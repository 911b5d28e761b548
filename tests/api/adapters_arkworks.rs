//! `adapters::arkworks` inside ark-crypto-primitives 0.6, on every BN254 and BLS12-381
//! instance: the CRHs equal the crate's own calls, an ark `MerkleTree` of 64 leaves verifies a
//! path for every leaf and rejects a tampered leaf (and, at t = 3, has the crate's Merkle
//! root), and the duplex sponge equals its model over the crate's permutation.
#![cfg(all(feature = "arkworks", feature = "std"))]

use ark_crypto_primitives::crh::{CRHScheme, TwoToOneCRHScheme};
use ark_crypto_primitives::merkle_tree::MerkleTree;
use ark_crypto_primitives::sponge::{CryptographicSponge, FieldBasedCryptographicSponge};
use fast_poseidon2::adapters::arkworks::{Crh, MerkleConfig, Sponge, TwoToOneCrh};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::instances::Instance;

/// The duplex sponge of the module docs, over `perm` (width `t`, rate `t - 1`), for a
/// transcript of absorbed element lists and squeeze counts: `Ok(xs)` absorbs, `Err(n)` squeezes.
fn duplex_model<F: PrimeField>(
    perm: &dyn Fn(&[F]) -> Vec<F>,
    t: usize,
    transcript: &[Result<Vec<F>, usize>],
) -> Vec<F> {
    let rate = t - 1;
    let mut state = vec![F::ZERO_ELEMENT; t];
    state[rate] = F::ONE_ELEMENT;
    let (mut pending, mut outputs) = (Vec::new(), Vec::new());
    let mut squeezed: Option<usize> = None; // lanes read from the current block
    for step in transcript {
        match step {
            Ok(xs) => {
                // An absorb after a squeeze starts again at lane 0 of the same state.
                squeezed = None;
                pending.extend_from_slice(xs);
            }
            Err(n) => {
                if squeezed.is_none() {
                    // Pad the pending elements with 1 and absorb them block by block.
                    pending.push(F::ONE_ELEMENT);
                    for block in pending.chunks(rate) {
                        for (s, &x) in state.iter_mut().zip(block) {
                            *s = s.add(x);
                        }
                        state = perm(&state);
                    }
                    pending.clear();
                    squeezed = Some(0);
                }
                for _ in 0..*n {
                    let mut used = squeezed.expect("squeezing");
                    if used == rate {
                        state = perm(&state);
                        used = 0;
                    }
                    outputs.push(state[used]);
                    squeezed = Some(used + 1);
                }
            }
        }
    }
    outputs
}

macro_rules! arkworks_tests {
    ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
        mod $name {
            use super::*;
            use fast_poseidon2::instances::$module;

            type P = fast_poseidon2::ct::Poseidon2Ct<$field, $t, $rf, $rp, $d>;
            type F = $field;

            fn leaf(i: u64) -> Vec<F> {
                (0..1 + i % 5).map(|j| F::from(i * 1000 + j)).collect()
            }

            /// The binary node by the crate's own calls: `perm([l, r, 0, …])[0]`, the sponge of
            /// `[l, r]` at t = 2.
            fn node(l: F, r: F) -> F {
                let ct = $module::ct::$ct();
                if $t == 2 {
                    return ct.hash::<1, 1>(&[l, r]).expect("valid")[0];
                }
                let mut state = [F::from(0u64); $t];
                state[0] = l;
                state[1] = r;
                ct.permutation(&state)[0]
            }

            #[test]
            fn the_crhs_equal_the_crates_own_calls() {
                let ct = $module::ct::$ct();
                for i in 0..12u64 {
                    let input = leaf(i);
                    let mut expected = [F::from(0u64)];
                    ct.hash_into(&input, $t - 1, &mut expected).expect("valid");
                    assert_eq!(
                        Crh::<P>::evaluate(&(), input.as_slice()).unwrap(),
                        expected[0]
                    );
                    let (l, r) = (F::from(i), F::from(i + 7));
                    assert_eq!(TwoToOneCrh::<P>::compress(&(), l, r).unwrap(), node(l, r));
                    assert_eq!(TwoToOneCrh::<P>::evaluate(&(), &l, &r).unwrap(), node(l, r));
                }
                assert!(
                    Crh::<P>::evaluate(&(), &[][..]).is_err(),
                    "empty input is an error"
                );
                assert!(Crh::<P>::setup(&mut rand::thread_rng()).is_ok());
                assert!(TwoToOneCrh::<P>::setup(&mut rand::thread_rng()).is_ok());
            }

            #[test]
            fn a_64_leaf_merkle_tree_verifies_every_path_and_rejects_tampering() {
                let leaves: Vec<Vec<F>> = (0..64).map(leaf).collect();
                let tree = MerkleTree::<MerkleConfig<P>>::new(
                    &(),
                    &(),
                    leaves.iter().map(|l| l.as_slice()),
                )
                .expect("64 leaves");
                let root = tree.root();
                for (i, l) in leaves.iter().enumerate() {
                    let path = tree.generate_proof(i).expect("index in range");
                    assert!(
                        path.verify(&(), &(), &root, l.as_slice()).unwrap(),
                        "leaf {i}"
                    );
                    let mut tampered = l.clone();
                    tampered[0] += F::from(1u64);
                    assert!(
                        !path.verify(&(), &(), &root, tampered.as_slice()).unwrap(),
                        "tampered {i}"
                    );
                    assert!(
                        !path.verify(&(), &(), &F::from(0u64), l.as_slice()).unwrap(),
                        "wrong root {i}"
                    );
                }
                // The root is the binary tree of `node` over the leaf digests.
                let mut level: Vec<F> = leaves
                    .iter()
                    .map(|l| Crh::<P>::evaluate(&(), l.as_slice()).unwrap())
                    .collect();
                while level.len() > 1 {
                    level = level.chunks(2).map(|pair| node(pair[0], pair[1])).collect();
                }
                assert_eq!(root, level[0]);
                // At t = 3 that is the crate's own `merkle_root`.
                if $t == 3 {
                    let digests: Vec<F> = leaves
                        .iter()
                        .map(|l| Crh::<P>::evaluate(&(), l.as_slice()).unwrap())
                        .collect();
                    assert_eq!(Ok(root), $module::$getter().merkle_root(&digests));
                }
            }

            #[test]
            fn the_duplex_sponge_equals_its_model() {
                let params = $module::ct::$ct().to_params();
                let perm = |s: &[F]| testkit::textbook::permutation(&params, s);
                let xs = |n: u64| (0..n).map(|i| F::from(i * 31 + 5)).collect::<Vec<F>>();
                let transcripts: Vec<Vec<Result<Vec<F>, usize>>> = vec![
                    vec![Err(3)],
                    vec![Ok(xs(1)), Err(1)],
                    vec![Ok(xs($t - 1)), Err(1)],
                    vec![Ok(xs(2 * $t + 1)), Err(2 * $t + 3)],
                    vec![
                        Ok(xs(2)),
                        Err(1),
                        Ok(xs(3)),
                        Err(2),
                        Err(5),
                        Ok(xs(1)),
                        Err(1),
                    ],
                ];
                for transcript in transcripts {
                    let mut sponge = Sponge::<P>::new(&());
                    let mut outputs = Vec::new();
                    for step in &transcript {
                        match step {
                            Ok(xs) => sponge.absorb(&xs.as_slice()),
                            Err(n) => outputs.extend(sponge.squeeze_native_field_elements(*n)),
                        }
                    }
                    assert_eq!(
                        outputs,
                        duplex_model(&perm, $t, &transcript),
                        "{transcript:?}"
                    );
                }
            }

            #[test]
            fn the_sponge_pads_and_its_bytes_and_bits_come_from_its_elements() {
                let x = F::from(42u64);
                let squeeze = |input: &[F]| {
                    let mut sponge = Sponge::<P>::new(&());
                    sponge.absorb(&input);
                    sponge.squeeze_native_field_elements(1)
                };
                assert_ne!(squeeze(&[x]), squeeze(&[x, F::from(0u64)]));
                assert_ne!(squeeze(&[]), squeeze(&[F::from(0u64)]));

                let mut a = Sponge::<P>::new(&());
                a.absorb(&x);
                let mut b = a.clone();
                let elements = a.squeeze_native_field_elements(3);
                let mut c = b.clone();
                let bytes = b.squeeze_bytes(70);
                let bits = c.squeeze_bits(300);
                let le = |x: &F| {
                    let mut be = vec![0u8; <F as PrimeField>::BYTES];
                    x.write_canonical_be_bytes(&mut be);
                    be.reverse();
                    be
                };
                let expected_bytes: Vec<u8> = elements
                    .iter()
                    .flat_map(|x| le(x)[..31].to_vec())
                    .take(70)
                    .collect();
                assert_eq!(bytes, expected_bytes);
                let n = (<F as PrimeField>::MODULUS_BITS - 1) as usize;
                let expected_bits: Vec<bool> = elements
                    .iter()
                    .flat_map(|x| {
                        let bytes = le(x);
                        (0..n).map(move |i| bytes[i / 8] >> (i % 8) & 1 == 1)
                    })
                    .take(300)
                    .collect();
                assert_eq!(bits, expected_bits);
                assert_eq!(<P as Instance>::RATE, $t - 1);
            }
        }
    };
}

testkit::for_each_instance!(@spec arkworks_tests, bn254);
testkit::for_each_instance!(@spec arkworks_tests, bls12_381);
