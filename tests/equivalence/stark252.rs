//! Starknet's Poseidon over the Stark field: `poseidon_hash`, `poseidon_hash_single`,
//! `poseidon_hash_many` and `poseidon_permute_comp` equal starknet-crypto 0.8 on random inputs;
//! every width's optimized schedule equals the dense textbook permutation with the partial
//! S-box on the last element; the const-generic, runtime and batch paths agree; the crate's
//! generic modes run on these instances.
#![cfg(feature = "stark252")]

use fast_poseidon2::field::{Field, PrimeField};
use fast_poseidon2::instances::stark252;
use fast_poseidon2::stark252::Felt252;
use rand::{Rng, SeedableRng};
use starknet_crypto::Felt;
use testkit::differential::assert_poseidon1_paths;
use testkit::hades;
use testkit::textbook::poseidon1_permutation;

/// A uniformly random-looking element (a random 32-byte integer reduced mod p).
fn random_element(rng: &mut rand::rngs::StdRng) -> Felt252 {
    Felt252::from_be_bytes_reduced(&rng.r#gen::<[u8; 32]>())
}

/// The same integer as starknet-crypto's `Felt` (through the canonical bytes; independent of
/// the crate's `starknet` feature).
fn theirs(x: Felt252) -> Felt {
    let mut bytes = [0u8; 32];
    x.write_canonical_be_bytes(&mut bytes);
    Felt::from_bytes_be(&bytes)
}

fn ours(x: Felt) -> Felt252 {
    Felt252::from_canonical_be_bytes(&x.to_bytes_be()).expect("a Felt is canonical")
}

#[test]
fn starknet_functions_equal_starknet_crypto_on_random_inputs() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(251);
    let minus_one = Felt252::from_u64(1).neg();
    for round in 0..200 {
        let (x, y) = if round < 4 {
            // The extremes first: 0 and p - 1 in both positions.
            let pick = |b: bool| if b { minus_one } else { Felt252::from_u64(0) };
            (pick(round & 1 == 1), pick(round & 2 == 2))
        } else {
            (random_element(&mut rng), random_element(&mut rng))
        };
        assert_eq!(
            theirs(stark252::poseidon_hash(x, y)),
            starknet_crypto::poseidon_hash(theirs(x), theirs(y)),
            "poseidon_hash({x}, {y})"
        );
        assert_eq!(
            theirs(stark252::poseidon_hash_single(x)),
            starknet_crypto::poseidon_hash_single(theirs(x)),
            "poseidon_hash_single({x})"
        );
        let mut state = [x, y, random_element(&mut rng)];
        let mut their_state = state.map(theirs);
        stark252::poseidon_permute_comp(&mut state);
        starknet_crypto::poseidon_permute_comp(&mut their_state);
        assert_eq!(state, their_state.map(ours), "poseidon_permute_comp");
    }
    // Every length from the empty message up, both parities, past several blocks.
    for len in (0..=20).chain([63, 64, 101]) {
        for _ in 0..4 {
            let msgs: Vec<Felt252> = (0..len).map(|_| random_element(&mut rng)).collect();
            let their_msgs: Vec<Felt> = msgs.iter().copied().map(theirs).collect();
            assert_eq!(
                theirs(stark252::poseidon_hash_many(&msgs)),
                starknet_crypto::poseidon_hash_many(&their_msgs),
                "poseidon_hash_many of {len} elements"
            );
        }
    }
}

#[test]
fn optimized_schedule_equals_dense_textbook_for_every_shipped_width() {
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            let params = hades::params::<Felt252>($t, $rp);
            assert_poseidon1_paths(&params, &$ct, $cached, $t, 8);
        };
    }
    testkit::for_each_stark252_instance!(check);
}

#[test]
fn batch_paths_equal_the_scalar_permutation() {
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            for n in [0, 1, 7, 8, 9, 19] {
                let states = testkit::random_states::<Felt252, $t>(300 + $t, n);
                let mut batch = states.clone();
                $ct.permute_batch(&mut batch);
                let mut flat = states.as_flattened().to_vec();
                $cached.permute_batch(&mut flat).unwrap();
                for (i, state) in states.iter().enumerate() {
                    let expected = $ct.permutation(state);
                    assert_eq!(batch[i], expected, "t = {}: ct batch", $t);
                    assert_eq!(flat[i * $t..(i + 1) * $t], expected, "t = {}: runtime", $t);
                }
            }
        };
    }
    testkit::for_each_stark252_instance!(check);
}

/// The crate's generic modes take these permutations: the streaming sponge (ct and runtime
/// agree) and the message hash, equal to its definition over the textbook permutation.
#[test]
fn generic_modes_run_on_the_stark_instances() {
    use fast_poseidon2::modes::Sponge;
    use testkit::textbook::{message_hash, message_hash_bytes};
    let ct = &stark252::ct::T3;
    let runtime = stark252::poseidon1_t3();
    let inputs = [1u64, 2, 3].map(Felt252::from_u64);
    let mut sponge = Sponge::new(ct, 2, inputs.len(), 2).unwrap();
    sponge.absorb(&inputs).unwrap();
    let mut from_ct = [Felt252::from_u64(0); 2];
    sponge.squeeze(&mut from_ct).unwrap();
    let mut sponge = Sponge::new(runtime, 2, inputs.len(), 2).unwrap();
    sponge.absorb(&inputs).unwrap();
    let mut from_runtime = [Felt252::from_u64(0); 2];
    sponge.squeeze(&mut from_runtime).unwrap();
    assert_eq!(from_ct, from_runtime);

    let params = hades::params::<Felt252>(3, 83);
    let perm = |s: &[Felt252]| poseidon1_permutation(&params, s);
    for len in [0, 1, 31, 32, 62, 63, 64, 100] {
        let message: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
        assert_eq!(
            ct.hash_message(&message).to_vec(),
            message_hash_bytes(&perm, 3, &message),
            "{len} bytes"
        );
        assert_eq!(
            runtime
                .hash_message_elements::<1>(&message)
                .unwrap()
                .to_vec(),
            message_hash(&perm, 3, &message),
            "{len} bytes"
        );
    }
}

/// Every mode method of the Poseidon2 types exists on the Poseidon1 types too (one macro per
/// mode over both families) and equals its textbook definition over the dense Hades
/// permutation, on the const and the cached runtime type of every Starknet width: the one-shot
/// sponge `hash` / `hash_into` (with its errors), `compress`, `compress_digests`,
/// `compress_batch`, the byte API (both endiannesses, its errors), `merkle_root`,
/// `merkle_root_digests` and `permute_batch`. These are this crate's constructions, not
/// Starknet's (`poseidon_hash` is `hades([x, y, 2])[0]`, a different padding).
#[test]
fn every_mode_method_runs_on_the_stark_instances_and_equals_its_definition() {
    use fast_poseidon2::{Endianness, Error};
    use testkit::textbook::{compress_over, hashv_bytes_over, merkle_root_over, sponge_over};
    macro_rules! check {
        ($t:literal, $rp:literal, $ct:expr, $cached:expr) => {{
            let (ct, runtime) = ($ct, $cached);
            let params = hades::params::<Felt252>($t, $rp);
            let perm = |s: &[Felt252]| poseidon1_permutation(&params, s);
            let x: Vec<Felt252> = (1..=9u64)
                .map(|i| Felt252::from_u64(i * 1_000_003))
                .collect();
            let rate = $t - 1;

            let expected = sponge_over(&perm, $t, &x, rate, 2);
            assert_eq!(runtime.hash(&x, rate, 2).unwrap(), expected, "t = {}", $t);
            assert_eq!(ct.hash::<{ $t - 1 }, 2>(&x).unwrap().to_vec(), expected);
            let mut out = [Felt252::from_u64(0); 2];
            ct.hash_into(&x, rate, &mut out).unwrap();
            assert_eq!(out.to_vec(), expected);
            runtime.hash_into(&x, rate, &mut out).unwrap();
            assert_eq!(out.to_vec(), expected);
            assert_eq!(runtime.hash(&[], rate, 1), Err(Error::EmptyInput));
            assert_eq!(
                ct.hash_into(&x, $t, &mut out),
                Err(Error::InvalidRate {
                    rate: $t,
                    width: $t
                })
            );

            let children = &x[..$t - 1];
            let node = compress_over(&perm, $t, children)[0];
            assert_eq!(
                ct.compress(&<[Felt252; $t - 1]>::try_from(children).unwrap()),
                node
            );
            assert_eq!(runtime.compress(children), Ok(node));
            let digests: Vec<[Felt252; 1]> = children.iter().map(|&c| [c]).collect();
            assert_eq!(
                ct.compress_digests::<{ $t - 1 }, 1>(
                    &<[[Felt252; 1]; $t - 1]>::try_from(digests.as_slice()).unwrap()
                ),
                [node]
            );
            assert_eq!(runtime.compress_digests::<1>(&digests), Ok([node]));
            let groups: Vec<[Felt252; $t - 1]> = (0..5u64)
                .map(|g| core::array::from_fn(|i| Felt252::from_u64(g * 100 + i as u64)))
                .collect();
            let nodes: Vec<Felt252> = groups
                .iter()
                .map(|g| compress_over(&perm, $t, g)[0])
                .collect();
            assert_eq!(ct.compress_batch(&groups), nodes);
            assert_eq!(runtime.compress_batch(groups.as_flattened()), Ok(nodes));

            let bytes: Vec<[u8; 32]> = x
                .iter()
                .map(|e| {
                    let mut b = [0u8; 32];
                    e.write_canonical_be_bytes(&mut b);
                    b
                })
                .collect();
            let slices: Vec<&[u8]> = bytes.iter().map(|b| b.as_slice()).collect();
            let expected = hashv_bytes_over(&perm, $t, false, &slices, 16);
            assert_eq!(ct.hash_bytes_be(&slices), expected);
            assert_eq!(
                runtime.hashv_bytes(Endianness::BigEndian, &slices),
                expected
            );
            let le: Vec<Vec<u8>> = bytes
                .iter()
                .map(|b| b.iter().rev().copied().collect())
                .collect();
            let le_slices: Vec<&[u8]> = le.iter().map(|b| b.as_slice()).collect();
            assert_eq!(
                ct.hash_bytes_le(&le_slices),
                hashv_bytes_over(&perm, $t, true, &le_slices, 16)
            );
            assert_eq!(
                ct.hash_bytes_be(&[&[0xff; 32]]),
                Err(Error::InputLargerThanModulus { index: 0 })
            );

            let leaves: Vec<Felt252> = (0..11u64).map(Felt252::from_u64).collect();
            let root = merkle_root_over(&perm, $t, &leaves).unwrap()[0];
            assert_eq!(ct.merkle_root(&leaves), Ok(root));
            assert_eq!(runtime.merkle_root(&leaves), Ok(root));
            let leaf_digests: Vec<[Felt252; 1]> = leaves.iter().map(|&l| [l]).collect();
            assert_eq!(ct.merkle_root_digests(&leaf_digests), Ok([root]));
            assert_eq!(runtime.merkle_root(&[]), Err(Error::EmptyInput));

            let mut states: Vec<[Felt252; $t]> = (0..9u64)
                .map(|k| core::array::from_fn(|i| Felt252::from_u64(k * 31 + i as u64)))
                .collect();
            let expected: Vec<Vec<Felt252>> = states.iter().map(|s| perm(s)).collect();
            let mut flat = states.as_flattened().to_vec();
            ct.permute_batch(&mut states);
            runtime.permute_batch(&mut flat).unwrap();
            assert_eq!(
                states.iter().map(|s| s.to_vec()).collect::<Vec<_>>(),
                expected
            );
            assert_eq!(flat, expected.concat());
        }};
    }
    check!(3, 83, stark252::ct::t3(), stark252::poseidon1_t3());
    check!(4, 84, stark252::ct::t4(), stark252::poseidon1_t4());
    check!(5, 84, stark252::ct::t5(), stark252::poseidon1_t5());
    check!(9, 84, stark252::ct::t9(), stark252::poseidon1_t9());
}

proptest::proptest! {
    /// Any message (any length up to 40, any 32-byte integers reduced mod p) hashes as
    /// starknet-crypto hashes it, and its first two elements as `poseidon_hash` and
    /// `poseidon_hash_single` do.
    #[test]
    fn any_message_hashes_as_starknet_crypto_does(
        raw in proptest::collection::vec(proptest::prelude::any::<[u8; 32]>(), 0..40)
    ) {
        let msgs: Vec<Felt252> = raw.iter().map(|b| Felt252::from_be_bytes_reduced(b)).collect();
        let their_msgs: Vec<Felt> = msgs.iter().copied().map(theirs).collect();
        proptest::prop_assert_eq!(
            theirs(stark252::poseidon_hash_many(&msgs)),
            starknet_crypto::poseidon_hash_many(&their_msgs)
        );
        if let [x, y, ..] = msgs[..] {
            proptest::prop_assert_eq!(
                theirs(stark252::poseidon_hash(x, y)),
                starknet_crypto::poseidon_hash(theirs(x), theirs(y))
            );
            proptest::prop_assert_eq!(
                theirs(stark252::poseidon_hash_single(x)),
                starknet_crypto::poseidon_hash_single(theirs(x))
            );
        }
    }
}

/// Every Starknet width on every batch backend that runs Poseidon1 over the Stark field here
/// (the portable path always; AVX-512 IFMA where the CPU has it, its 52-bit-limb kernel on
/// `p = 2^251 + 17 · 2^192 + 1`), both types (ct and cached runtime): every batch size 0..=100
/// (random states with all-0 and all-(p - 1) ones among them, windows shifted so that they land
/// in different lanes), and batches made only of the extreme states.
#[test]
fn every_backend_equals_scalar_for_every_width_and_batch_size_up_to_100() {
    use fast_poseidon2::BatchBackend;
    use fast_poseidon2::modes::BatchPermutation;
    let ifma = std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512ifma");
    let simd_build = cfg!(all(target_arch = "x86_64", not(miri)));
    if ifma && simd_build {
        eprintln!(
            "Stark252: default batch backend {:?}",
            fast_poseidon2::batch_backend::<Felt252>()
        );
    } else {
        eprintln!("NOTE: no AVX-512 IFMA here: Stark252 batches tested on the portable path only");
    }
    macro_rules! check {
        ($name:ident, $t:literal, $rp:literal, $ct:path, $cached:expr) => {
            let ct = &$ct;
            let cached = $cached;
            let minus_one = Felt252::from_u64(1).neg();
            let mut pool = testkit::random_states::<Felt252, $t>(2_000 + $t, 103);
            for (i, state) in pool.iter_mut().enumerate() {
                match i % 5 {
                    1 => *state = [Felt252::from_u64(0); $t],
                    3 => *state = [minus_one; $t],
                    _ => {}
                }
            }
            for backend in [BatchBackend::Portable, BatchBackend::Avx512Ifma] {
                let runs = ct.permute_batch_on(backend, &mut []);
                if !runs {
                    eprintln!("NOTE: {backend:?} does not run Stark252 here: not tested");
                    continue;
                }
                let extremes = [[Felt252::from_u64(0); $t], [minus_one; $t]];
                let batches = (0..=100usize)
                    .map(|n| pool[n % 3..n % 3 + n].to_vec())
                    .chain(extremes.iter().map(|e| vec![*e; 17]));
                for input in batches {
                    let mut batch = input.clone();
                    assert!(ct.permute_batch_on(backend, &mut batch));
                    let mut flat = input.as_flattened().to_vec();
                    assert!(cached.permute_states_on(backend, &mut flat));
                    for (i, x) in input.iter().enumerate() {
                        let expected = ct.permutation(x);
                        assert_eq!(
                            batch[i],
                            expected,
                            "t = {}, {backend:?}, {} states, state {i}",
                            $t,
                            input.len()
                        );
                        assert_eq!(
                            flat[i * $t..(i + 1) * $t],
                            expected,
                            "t = {}, {backend:?}: runtime",
                            $t
                        );
                    }
                }
            }
        };
    }
    testkit::for_each_stark252_instance!(check);
}
