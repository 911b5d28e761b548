//! The length-declared sponge: Noir/Barretenberg's BN254 t = 4 vectors, the construction exactly
//! as the docs state it (`testkit::textbook::sponge`), domain separation of lengths and order,
//! streaming in any split equal to one-shot, and errors (never panics) that leave the hasher
//! usable.
#![cfg(feature = "std")]

use testkit as common;

use common::{convert, from_hex, is_canonical, textbook, vectors};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::modes::Sponge;
use fast_poseidon2::{Error, Poseidon2, ct::Poseidon2Ct};
use proptest::prelude::*;

#[cfg(feature = "bn254")]
mod noir {
    use super::*;
    use ark_bn254::Fr;
    use fast_poseidon2::instances::bn254;

    /// The `sponge` entries of `noir_bn254_t4.json` that match `pred`: (inputs, output).
    fn noir_vectors(pred: impl Fn(&serde_json::Value) -> bool) -> Vec<(Vec<Fr>, Fr)> {
        vectors("noir_bn254_t4.json")["sponge"]
            .as_array()
            .expect("sponge vectors")
            .iter()
            .filter(|v| pred(v))
            .map(|v| {
                let inputs = v["inputs"]
                    .as_array()
                    .expect("inputs")
                    .iter()
                    .map(|x| from_hex(x.as_str().expect("hex")))
                    .collect();
                (inputs, from_hex(v["output"].as_str().expect("hex")))
            })
            .collect()
    }

    fn is_legacy(v: &serde_json::Value) -> bool {
        v["legacy"].as_bool().unwrap_or(false)
    }

    #[test]
    fn bn254_t4_rate_3_reproduces_every_nonempty_noir_sponge_vector() {
        let current =
            noir_vectors(|v| !is_legacy(v) && !v["inputs"].as_array().unwrap().is_empty());
        assert_eq!(
            current.len(),
            12,
            "every current-rules non-empty vector is checked"
        );
        let ct = bn254::ct::t4();
        let flexible = bn254::poseidon2_t4();
        for (inputs, expected) in current {
            assert_eq!(
                flexible.hash(&inputs, 3, 1),
                Ok(vec![expected]),
                "{inputs:?}"
            );
            assert_eq!(ct.hash::<3, 1>(&inputs), Ok([expected]), "{inputs:?}");
        }
    }

    /// Noir hashes `[]` to `perm([0, 0, 0, 0])[0]`; this crate rejects empty input
    /// (docs/compat.md).
    #[test]
    fn bn254_t4_empty_input_is_rejected_where_noir_hashes_it() {
        let empty = noir_vectors(|v| v["inputs"].as_array().unwrap().is_empty());
        assert_eq!(empty.len(), 1);
        assert_eq!(
            bn254::poseidon2_t4().hash(&[], 3, 1),
            Err(Error::EmptyInput)
        );
        assert_eq!(bn254::ct::t4().hash::<3, 1>(&[]), Err(Error::EmptyInput));
    }

    /// Noir's legacy variable-length mode absorbs an extra `1` after `m < N` inputs with IV
    /// `m · 2^64`; this crate has no such mode, so its vectors are not reproduced
    /// (docs/compat.md).
    #[test]
    fn bn254_t4_legacy_noir_variable_length_vectors_differ_by_design() {
        let legacy = noir_vectors(is_legacy);
        assert_eq!(legacy.len(), 2);
        for (inputs, legacy_output) in legacy {
            assert_ne!(
                bn254::poseidon2_t4().hash(&inputs, 3, 1),
                Ok(vec![legacy_output])
            );
        }
    }

    #[test]
    fn bn254_t3_hash_out_of_range_output_count_is_an_error_not_an_allocation_failure() {
        let perm = bn254::poseidon2_t3();
        let x = [Fr::from(1u64)];
        assert_eq!(
            perm.hash(&x, 1, usize::MAX),
            Err(Error::OutputTooLarge {
                requested: usize::MAX
            })
        );
        assert_eq!(
            perm.hash(&x, 1, 1),
            Ok(textbook::sponge(perm.params(), &x, 1, 1))
        );
    }
}

/// Cases 19-22 of the byte-API case list (`docs/compat.md`) and the streaming-sponge error rules on one instance,
/// each rejected call followed by a valid call that still gives the right answer.
fn check_sponge_rules<C, F, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) where
    C: PrimeField + LinearLayers,
    F: PrimeField + LinearLayers,
{
    let digest = textbook::digest_len::<F>();
    let rate = T - digest;
    // The shortest secure output length, at least 2 (the streaming checks squeeze in two parts).
    let outs = digest.max(2);
    let n = |v: u64| F::from_u64(v);
    let one = [n(1)];
    let right = textbook::sponge(flexible.params(), &one, rate, outs);
    let hash = |inputs: &[F]| flexible.hash(inputs, rate, outs).unwrap();

    // 19: [1], [1, 0], [1, 0, 0] hash to three different outputs.
    let (h1, h2, h3) = (hash(&one), hash(&[n(1), n(0)]), hash(&[n(1), n(0), n(0)]));
    assert!(h1 != h2 && h2 != h3 && h1 != h3, "case 19");

    // 20: with rate 2, [1, 2, 3, 4] and [3, 4, 1, 2] differ.
    if T > 2 {
        let a = flexible.hash(&[n(1), n(2), n(3), n(4)], 2, digest).unwrap();
        let b = flexible.hash(&[n(3), n(4), n(1), n(2)], 2, digest).unwrap();
        assert_ne!(a, b, "case 20");
    }

    // 21, 22: specific errors, no panic, hasher still right afterwards (flexible, ct, Sponge).
    let mut bad: Vec<(&[F], usize, usize, Error)> = vec![
        (&[], rate, outs, Error::EmptyInput),
        (&one, 0, outs, Error::InvalidRate { rate: 0, width: T }),
        (&one, T, outs, Error::InvalidRate { rate: T, width: T }),
        (&one, rate, 0, Error::ZeroOutputs),
    ];
    if digest > 1 {
        // One output element short of the 248 bits (Goldilocks: 3 · 64 = 192).
        bad.push((
            &one,
            rate,
            digest - 1,
            Error::DigestTooShort {
                digest_bits: (digest - 1) as u32 * F::MODULUS_BITS,
                required_bits: 248,
            },
        ));
    }
    if rate + 1 < T {
        // One capacity element short of the 248 bits (Goldilocks: 3 · 64 = 192).
        let capacity_bits = (T - rate - 1) as u32 * F::MODULUS_BITS;
        bad.push((
            &one,
            rate + 1,
            outs,
            Error::InsufficientCapacity {
                capacity_bits,
                required_bits: 248,
            },
        ));
    }
    for (inputs, r, out, error) in bad {
        assert_eq!(flexible.hash(inputs, r, out), Err(error));
        assert_eq!(hash(&one), right);
        let mut buf = vec![F::ZERO_ELEMENT; out];
        assert_eq!(flexible.hash_into(inputs, r, &mut buf), Err(error));
        assert!(
            buf.iter().all(|&x| x == F::ZERO_ELEMENT),
            "output untouched"
        );
        let ct_inputs: Vec<C> = inputs.iter().map(|&x| convert(x)).collect();
        let mut ct_buf = vec![C::ZERO_ELEMENT; out];
        assert_eq!(ct.hash_into(&ct_inputs, r, &mut ct_buf), Err(error));
        assert_eq!(
            Sponge::new(flexible, r, inputs.len(), out).err(),
            Some(error)
        );
        assert_eq!(Sponge::new(ct, r, inputs.len(), out).err(), Some(error));
    }
    let mut ct_out = vec![C::ZERO_ELEMENT; outs];
    ct.hash_into(&[C::ONE_ELEMENT], rate, &mut ct_out).unwrap();
    assert_eq!(
        ct_out.into_iter().map(convert::<C, F>).collect::<Vec<F>>(),
        right,
        "ct still right"
    );

    // Streaming misuse: overflowing absorb, early squeeze, over-squeeze, late absorb.
    let mut sponge = Sponge::new(flexible, rate, 1, outs).unwrap();
    let mut out = vec![F::ZERO_ELEMENT; outs];
    assert_eq!(
        sponge.squeeze(&mut out),
        Err(Error::IncompleteAbsorb {
            absorbed: 0,
            declared: 1
        })
    );
    assert_eq!(
        sponge.absorb(&[n(1), n(2)]),
        Err(Error::AbsorbOverflow { declared: 1 })
    );
    sponge.absorb(&one).unwrap();
    assert_eq!(
        sponge.absorb(&one),
        Err(Error::AbsorbOverflow { declared: 1 })
    );
    let mut one_too_many = vec![F::ZERO_ELEMENT; outs + 1];
    assert_eq!(
        sponge.squeeze(&mut one_too_many),
        Err(Error::SqueezeOverflow { declared: outs })
    );
    sponge.squeeze(&mut out).unwrap();
    assert_eq!(out, right, "sponge still right after rejected calls");
    assert_eq!(
        sponge.squeeze(&mut out[..1]),
        Err(Error::SqueezeOverflow { declared: outs })
    );
    assert_eq!(sponge.squeeze(&mut []), Ok(()));
}

/// On one instance, for a random input, rate, output length and random split points: the
/// streaming sponge in pieces, one-shot `hash`, `hash_into` on both paths and the textbook
/// sponge all agree, and every output is canonical.
fn check_streaming<C, F, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
    seed: &[u64],
    rate_pick: usize,
    out: usize,
    absorb_split: usize,
    squeeze_split: usize,
) where
    C: PrimeField + LinearLayers,
    F: PrimeField + LinearLayers,
{
    let rate = 1 + rate_pick % (T - textbook::digest_len::<F>());
    // Output lengths below the digest length `D` are refused (`check_sponge_rules`).
    let out = out.max(textbook::digest_len::<F>());
    let inputs: Vec<F> = seed.iter().map(|&x| F::from_u64(x)).collect();
    let expected = textbook::sponge(flexible.params(), &inputs, rate, out);
    assert!(expected.iter().all(|&y| is_canonical(y)), "outputs < p");
    assert_eq!(flexible.hash(&inputs, rate, out).unwrap(), expected, "hash");

    let mut flat = vec![F::ZERO_ELEMENT; out];
    flexible.hash_into(&inputs, rate, &mut flat).unwrap();
    assert_eq!(flat, expected, "hash_into");

    let ct_inputs: Vec<C> = inputs.iter().map(|&x| convert(x)).collect();
    let mut ct_out = vec![C::ZERO_ELEMENT; out];
    ct.hash_into(&ct_inputs, rate, &mut ct_out).unwrap();
    assert_eq!(
        ct_out.into_iter().map(convert).collect::<Vec<F>>(),
        expected,
        "ct hash_into"
    );

    let (a, b) = inputs.split_at(absorb_split % (inputs.len() + 1));
    let (k, m) = (squeeze_split % (out + 1), out - squeeze_split % (out + 1));
    let mut sponge = Sponge::new(flexible, rate, inputs.len(), out).unwrap();
    sponge.absorb(a).unwrap();
    sponge.absorb(&[]).unwrap();
    sponge.absorb(b).unwrap();
    let mut streamed = vec![F::ZERO_ELEMENT; out];
    sponge.squeeze(&mut streamed[..k]).unwrap();
    sponge.squeeze(&mut []).unwrap();
    sponge.squeeze(&mut streamed[k..k + m]).unwrap();
    assert_eq!(
        streamed,
        expected,
        "flexible sponge split at {} / {k}",
        a.len()
    );

    let (a, b) = ct_inputs.split_at(a.len());
    let mut sponge = Sponge::new(ct, rate, ct_inputs.len(), out).unwrap();
    sponge.absorb(a).unwrap();
    sponge.absorb(b).unwrap();
    let mut streamed = vec![C::ZERO_ELEMENT; out];
    sponge.squeeze(&mut streamed[..k]).unwrap();
    sponge.squeeze(&mut streamed[k..]).unwrap();
    assert_eq!(
        streamed.into_iter().map(convert).collect::<Vec<F>>(),
        expected,
        "ct sponge"
    );
}

/// `Poseidon2Ct::hash::<RATE, 8>` equals `Poseidon2::hash(.., RATE, 8)` on `[1, ..., 7]` (8: at
/// least every field's digest length).
fn check_static_hash<
    C,
    F,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
    const RATE: usize,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) where
    C: PrimeField + LinearLayers,
    F: PrimeField + LinearLayers,
{
    let inputs: Vec<F> = (1..=7).map(F::from_u64).collect();
    let ct_inputs: Vec<C> = (1..=7).map(C::from_u64).collect();
    let got = ct.hash::<RATE, 8>(&ct_inputs).unwrap();
    assert_eq!(
        got.map(convert::<C, F>).to_vec(),
        flexible.hash(&inputs, RATE, 8).unwrap()
    );
}

macro_rules! sponge_tests {
    ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
        mod $name {
            use super::*;

            #[test]
            fn cases_19_to_22_and_streaming_misuse_give_errors_and_leave_the_hasher_usable() {
                check_sponge_rules(&$ct, $flexible);
            }

            #[test]
            fn static_shape_hash_equals_flexible_hash() {
                check_static_hash::<_, _, $t, _, _, _, { $t - $digest }>(&$ct, $flexible);
            }

            proptest! {
                #[test]
                fn appending_a_zero_changes_the_hash(x in any::<u64>(), rate_pick in 0usize..64) {
                    let flexible = $flexible;
                    let rate = 1 + rate_pick % (flexible.width() - $digest);
                    let x = PrimeField::from_be_bytes_reduced(&x.to_be_bytes());
                    let zero = PrimeField::from_be_bytes_reduced(&[]);
                    let (a, b) = (flexible.hash(&[x], rate, $digest), flexible.hash(&[x, zero], rate, $digest));
                    prop_assert!(a.is_ok());
                    prop_assert_ne!(a, b);
                }

                #[test]
                fn swapping_the_two_rate_2_blocks_changes_the_hash(seed in any::<[u64; 4]>()) {
                    let flexible = $flexible;
                    if $t > 2 {
                        let [a, b, c, d] = seed.map(|v| PrimeField::from_be_bytes_reduced(&v.to_be_bytes()));
                        let (x, y) = (flexible.hash(&[a, b, c, d], 2, $digest), flexible.hash(&[c, d, a, b], 2, $digest));
                        prop_assert!(x.is_ok());
                        prop_assert_ne!(x, y);
                    }
                }

                #[test]
                fn streaming_in_any_split_equals_one_shot_and_the_naive_construction(
                    seed in proptest::collection::vec(any::<u64>(), 1..20),
                    rate_pick in 0usize..64,
                    out in 1usize..12,
                    absorb_split in 0usize..64,
                    squeeze_split in 0usize..64,
                ) {
                    check_streaming(&$ct, $flexible, &seed, rate_pick, out, absorb_split, squeeze_split);
                }
            }
        }
    };
}

testkit::for_each_instance!(sponge_tests);

/// Goldilocks: the rate leaving 3 capacity elements (192 bits) is refused on both types, also
/// through the const-generic `hash::<RATE, OUT>`; rate `t - 4` (Plonky2's and Miden's rate 8 at
/// t = 12) is accepted.
#[cfg(feature = "goldilocks")]
#[test]
fn goldilocks_needs_four_capacity_elements_on_both_types() {
    use fast_poseidon2::goldilocks::GoldilocksFast;
    use fast_poseidon2::instances::goldilocks;
    let short = |capacity_bits| Error::InsufficientCapacity {
        capacity_bits,
        required_bits: 248,
    };
    let ct = goldilocks::ct::t12();
    let x = [GoldilocksFast::new(1)];
    assert_eq!(ct.hash::<9, 4>(&x), Err(short(192)));
    assert_eq!(ct.hash::<11, 4>(&x), Err(short(64)));
    assert!(ct.hash::<8, 4>(&x).is_ok());
    let rt = goldilocks::poseidon2_t12();
    assert_eq!(rt.hash(&x, 9, 4), Err(short(192)));
    assert!(rt.hash(&x, 8, 4).is_ok());
    assert_eq!(short(192).code(), 22);
}

/// A digest below 248 bits is refused on every path (`hash`, `hash_into`, the const-generic
/// `hash::<RATE, OUT>`, `Sponge::new`) with `DigestTooShort` (code 23): fewer than 4 elements on
/// Goldilocks, fewer than 8 on BabyBear. Declaring `D` outputs and squeezing fewer is the
/// explicit way to a shorter digest, and gives the first elements of the `D`-element digest.
#[cfg(all(feature = "goldilocks", feature = "babybear"))]
#[test]
fn digests_below_248_bits_are_refused_on_every_sponge_path() {
    use fast_poseidon2::babybear::BabyBear;
    use fast_poseidon2::goldilocks::GoldilocksFast;
    use fast_poseidon2::instances::{babybear, goldilocks};
    let short = |digest_bits| Error::DigestTooShort {
        digest_bits,
        required_bits: 248,
    };

    let ct = goldilocks::ct::t12();
    let rt = goldilocks::poseidon2_t12();
    let x = [GoldilocksFast::new(7)];
    assert_eq!(ct.hash::<8, 1>(&x), Err(short(64)));
    assert_eq!(ct.hash::<8, 3>(&x), Err(short(192)));
    assert_eq!(rt.hash(&x, 8, 3), Err(short(192)));
    let mut three = [GoldilocksFast::new(0); 3];
    assert_eq!(ct.hash_into(&x, 8, &mut three), Err(short(192)));
    assert_eq!(rt.hash_into(&x, 8, &mut three), Err(short(192)));
    assert_eq!(Sponge::new(&ct, 8, 1, 3).err(), Some(short(192)));
    assert_eq!(short(192).code(), 23);
    let full = ct.hash::<8, 4>(&x).unwrap();
    let mut sponge = Sponge::new(&ct, 8, 1, 4).unwrap();
    sponge.absorb(&x).unwrap();
    let mut first = [GoldilocksFast::new(0)];
    sponge.squeeze(&mut first).unwrap();
    assert_eq!(first[0], full[0]);

    let ct = babybear::ct::t16();
    let y = [BabyBear::new(7)];
    assert_eq!(ct.hash::<8, 7>(&y), Err(short(7 * 31)));
    assert!(ct.hash::<8, 8>(&y).is_ok());
    assert_eq!(babybear::poseidon2_t16().hash(&y, 8, 1), Err(short(31)));
}

/// The collision the old single-element initial value had on Goldilocks (`len · 2^64 + out - 1`
/// wrapped mod p, `2^64 = 2^32 - 1`): `[x]` declared with `2^32 + 3` outputs hashed like
/// `[x, 0]` with four. The digit encoding separates them.
#[cfg(feature = "goldilocks")]
#[test]
fn goldilocks_initial_value_separates_length_and_output_count() {
    use fast_poseidon2::goldilocks::GoldilocksFast as G;
    use fast_poseidon2::instances::goldilocks;
    let ct = goldilocks::ct::t12();
    let x = G::new(12345);
    let mut a = Sponge::new(&ct, 8, 1, (1 << 32) + 3).unwrap();
    a.absorb(&[x]).unwrap();
    let mut first = [G::new(0); 4];
    a.squeeze(&mut first).unwrap();
    let second = ct.hash::<8, 4>(&[x, G::new(0)]).unwrap();
    assert_ne!(first, second);
}
