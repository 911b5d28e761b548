//! The length-declared sponge: Noir/Barretenberg's BN254 t = 4 vectors, the construction
//! written out naively, domain separation of lengths and order, streaming in any split equal to
//! one-shot, and errors (never panics) that leave the hasher usable.
#![cfg(feature = "std")]

mod common;

use common::{convert, from_hex, is_canonical, vectors};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::modes::Sponge;
use fast_poseidon2::{Error, Poseidon2, ct::Poseidon2Ct};
use proptest::prelude::*;

/// The construction exactly as the issue states it, over the plain permutation call:
/// `state[rate] = len · 2^64 + (out - 1)`, add each chunk and permute, squeeze `rate` at a time
/// permuting between blocks.
fn naive_sponge<F: PrimeField>(
    perm: &Poseidon2<F>,
    inputs: &[F],
    rate: usize,
    out: usize,
) -> Vec<F> {
    let mut state = vec![F::ZERO; perm.width()];
    let two_64 = F::from_u64(u64::MAX).add(F::ONE);
    state[rate] = F::from_u64(inputs.len() as u64)
        .mul(two_64)
        .add(F::from_u64(out as u64 - 1));
    for chunk in inputs.chunks(rate) {
        for (s, &x) in state.iter_mut().zip(chunk) {
            *s = s.add(x);
        }
        state = perm.permutation(&state).unwrap();
    }
    let mut output = Vec::new();
    loop {
        output.extend_from_slice(&state[..rate]);
        if output.len() >= out {
            output.truncate(out);
            return output;
        }
        state = perm.permutation(&state).unwrap();
    }
}

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
        assert_eq!(perm.hash(&x, 1, 1), Ok(naive_sponge(perm, &x, 1, 1)));
    }
}

/// Cases 19-22 of `shared/cases/bytes.md` and the streaming-sponge error rules on one instance,
/// each rejected call followed by a valid call that still gives the right answer.
fn check_sponge_rules<C, F, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) where
    C: PrimeField,
    F: PrimeField,
{
    let rate = T - 1;
    let n = |v: u64| F::from_u64(v);
    let one = [n(1)];
    let right = naive_sponge(flexible, &one, rate, 2);
    let hash = |inputs: &[F]| flexible.hash(inputs, rate, 2).unwrap();

    // 19: [1], [1, 0], [1, 0, 0] hash to three different outputs.
    let (h1, h2, h3) = (hash(&one), hash(&[n(1), n(0)]), hash(&[n(1), n(0), n(0)]));
    assert!(h1 != h2 && h2 != h3 && h1 != h3, "case 19");

    // 20: with rate 2, [1, 2, 3, 4] and [3, 4, 1, 2] differ.
    if T > 2 {
        let a = flexible.hash(&[n(1), n(2), n(3), n(4)], 2, 1).unwrap();
        let b = flexible.hash(&[n(3), n(4), n(1), n(2)], 2, 1).unwrap();
        assert_ne!(a, b, "case 20");
    }

    // 21, 22: specific errors, no panic, hasher still right afterwards (flexible, ct, Sponge).
    let bad: [(&[F], usize, usize, Error); 4] = [
        (&[], rate, 2, Error::EmptyInput),
        (&one, 0, 2, Error::InvalidRate { rate: 0, width: T }),
        (&one, T, 2, Error::InvalidRate { rate: T, width: T }),
        (&one, rate, 0, Error::ZeroOutputs),
    ];
    for (inputs, r, out, error) in bad {
        assert_eq!(flexible.hash(inputs, r, out), Err(error));
        assert_eq!(hash(&one), right);
        let mut buf = vec![F::ZERO; out];
        assert_eq!(flexible.hash_into(inputs, r, &mut buf), Err(error));
        assert!(buf.iter().all(|&x| x == F::ZERO), "output untouched");
        let ct_inputs: Vec<C> = inputs.iter().map(|&x| convert(x)).collect();
        let mut ct_buf = vec![C::ZERO; out];
        assert_eq!(ct.hash_into(&ct_inputs, r, &mut ct_buf), Err(error));
        assert_eq!(
            Sponge::new(flexible, r, inputs.len(), out).err(),
            Some(error)
        );
        assert_eq!(Sponge::new(ct, r, inputs.len(), out).err(), Some(error));
    }
    let mut ct_out = [C::ZERO; 2];
    ct.hash_into(&[C::ONE], rate, &mut ct_out).unwrap();
    assert_eq!(
        ct_out.map(convert::<C, F>).to_vec(),
        right,
        "ct still right"
    );

    // Streaming misuse: overflowing absorb, early squeeze, over-squeeze, late absorb.
    let mut sponge = Sponge::new(flexible, rate, 1, 2).unwrap();
    let mut out = [F::ZERO; 2];
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
    let mut three = [F::ZERO; 3];
    assert_eq!(
        sponge.squeeze(&mut three),
        Err(Error::SqueezeOverflow { declared: 2 })
    );
    sponge.squeeze(&mut out).unwrap();
    assert_eq!(
        out.to_vec(),
        right,
        "sponge still right after rejected calls"
    );
    assert_eq!(
        sponge.squeeze(&mut out[..1]),
        Err(Error::SqueezeOverflow { declared: 2 })
    );
    assert_eq!(sponge.squeeze(&mut []), Ok(()));
}

/// On one instance, for a random input, rate, output length and random split points: the
/// streaming sponge in pieces, one-shot `hash`, `hash_into` on both paths and the naive
/// construction all agree, and every output is canonical.
fn check_streaming<C, F, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
    seed: &[u64],
    rate_pick: usize,
    out: usize,
    absorb_split: usize,
    squeeze_split: usize,
) where
    C: PrimeField,
    F: PrimeField,
{
    let rate = 1 + rate_pick % (T - 1);
    let inputs: Vec<F> = seed.iter().map(|&x| F::from_u64(x)).collect();
    let expected = naive_sponge(flexible, &inputs, rate, out);
    assert!(expected.iter().all(|&y| is_canonical(y)), "outputs < p");
    assert_eq!(flexible.hash(&inputs, rate, out).unwrap(), expected, "hash");

    let mut flat = vec![F::ZERO; out];
    flexible.hash_into(&inputs, rate, &mut flat).unwrap();
    assert_eq!(flat, expected, "hash_into");

    let ct_inputs: Vec<C> = inputs.iter().map(|&x| convert(x)).collect();
    let mut ct_out = vec![C::ZERO; out];
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
    let mut streamed = vec![F::ZERO; out];
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
    let mut streamed = vec![C::ZERO; out];
    sponge.squeeze(&mut streamed[..k]).unwrap();
    sponge.squeeze(&mut streamed[k..]).unwrap();
    assert_eq!(
        streamed.into_iter().map(convert).collect::<Vec<F>>(),
        expected,
        "ct sponge"
    );
}

/// `Poseidon2Ct::hash::<RATE, 3>` equals `Poseidon2::hash(.., RATE, 3)` on `[1, ..., 7]`.
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
    C: PrimeField,
    F: PrimeField,
{
    let inputs: Vec<F> = (1..=7).map(F::from_u64).collect();
    let ct_inputs: Vec<C> = (1..=7).map(C::from_u64).collect();
    let got = ct.hash::<RATE, 3>(&ct_inputs).unwrap();
    assert_eq!(
        got.map(convert::<C, F>).to_vec(),
        flexible.hash(&inputs, RATE, 3).unwrap()
    );
}

macro_rules! sponge_tests {
    ($name:ident, $t:literal, $ct:expr, $flexible:expr) => {
        mod $name {
            use super::*;

            #[test]
            fn cases_19_to_22_and_streaming_misuse_give_errors_and_leave_the_hasher_usable() {
                check_sponge_rules(&$ct, $flexible);
            }

            #[test]
            fn static_shape_hash_equals_flexible_hash() {
                check_static_hash::<_, _, $t, _, _, _, { $t - 1 }>(&$ct, $flexible);
            }

            proptest! {
                #[test]
                fn appending_a_zero_changes_the_hash(x in any::<u64>(), rate_pick in 0usize..64) {
                    let flexible = $flexible;
                    let rate = 1 + rate_pick % (flexible.width() - 1);
                    let x = PrimeField::from_be_bytes_reduced(&x.to_be_bytes());
                    let zero = PrimeField::from_be_bytes_reduced(&[]);
                    prop_assert_ne!(flexible.hash(&[x], rate, 1), flexible.hash(&[x, zero], rate, 1));
                }

                #[test]
                fn swapping_the_two_rate_2_blocks_changes_the_hash(seed in any::<[u64; 4]>()) {
                    let flexible = $flexible;
                    if $t > 2 {
                        let [a, b, c, d] = seed.map(|v| PrimeField::from_be_bytes_reduced(&v.to_be_bytes()));
                        prop_assert_ne!(flexible.hash(&[a, b, c, d], 2, 1), flexible.hash(&[c, d, a, b], 2, 1));
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

crate::for_each_instance!(sponge_tests);
