//! fast-poseidon2 against its peers, in one run, on identical independent inputs.
//!
//! For every row a pool of `POOL` random inputs is drawn once (seeded) and converted into each
//! peer's types; every timed call permutes (or hashes) the next pool entry from its own copy, so
//! no output feeds a later input. The pool is large on purpose: with a few dozen inputs repeated,
//! the branch predictor learns every data-dependent branch of the whole permutation and times
//! drop up to 3x (measured on Goldilocks t=12), which no real caller sees. Samples of all contenders of a row are interleaved (ours, peer 1,
//! peer 2, ours, ...) so that machine noise hits them alike; time is the thread's CPU time (time
//! spent descheduled on a shared machine is not counted); each number is the median over
//! `SAMPLES` samples, in µs per operation.
//!
//! Before timing, each peer that implements the same instance is run on the whole pool and its
//! outputs compared with ours (canonical big-endian encodings): a peer that disagrees is
//! reported as WRONG and not timed. Peers implementing a different instance or function are
//! timed with the caveat in the table.
//!
//! `cargo bench --manifest-path bench-compare/Cargo.toml` (default release profile, no
//! RUSTFLAGS); words after `--` keep only the rows whose operation contains one of them
//! (`-- "t=12 batch"`).

use ark_bn254::Fr;
use cpu_time::ThreadTime;
use fast_poseidon2::Poseidon2Params;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::{Field, PrimeField};
use fast_poseidon2::instances::{bn254, circom_bn254};
use fast_poseidon2::linear::LinearLayers;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use testkit::bench::{random_state, rng};

/// Inputs per pool: enough that no branch pattern repeats within a predictor's memory.
const POOL: usize = 4096;
/// Samples per contender (the median is reported).
const SAMPLES: usize = 31;
/// Minimum length of one sample.
const SAMPLE_TIME: Duration = Duration::from_millis(4);

// ---------------------------------------------------------------------------------------------
// Encodings used to compare outputs across libraries.

/// Canonical big-endian hex of one of our elements.
fn hex<F: PrimeField>(x: &F) -> String {
    let mut bytes = vec![0u8; F::BYTES];
    x.write_canonical_be_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Canonical big-endian hex of an ark-ff 0.4 element (zkhash), `bytes` long.
fn hex04<G: ark_ff_04::PrimeField>(x: &G, bytes: usize) -> String {
    use ark_ff_04::BigInteger;
    let be = x.into_bigint().to_bytes_be();
    be[be.len() - bytes..]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One of our elements as an ark-ff 0.4 element (zkhash), through its canonical bytes.
fn to04<F: PrimeField, G: ark_ff_04::PrimeField>(x: &F) -> G {
    let mut bytes = vec![0u8; F::BYTES];
    x.write_canonical_be_bytes(&mut bytes);
    G::from_be_bytes_mod_order(&bytes)
}

/// The canonical integer of one of our elements of at most 8 bytes (BabyBear, KoalaBear,
/// Goldilocks).
fn canonical_u64<F: PrimeField>(x: &F) -> u64 {
    let mut bytes = [0u8; 8];
    x.write_canonical_be_bytes(&mut bytes[8 - F::BYTES..]);
    u64::from_be_bytes(bytes)
}

/// The canonical integer of one of our 64-bit-field elements.
#[cfg_attr(not(feature = "goldilocks"), allow(dead_code))]
fn to_u64<F: PrimeField>(x: &F) -> u64 {
    let mut bytes = [0u8; 8];
    x.write_canonical_be_bytes(&mut bytes);
    u64::from_be_bytes(bytes)
}

// ---------------------------------------------------------------------------------------------
// Contenders and rows.

/// How a peer's output relates to ours on the pool.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Same instance, outputs equal ours on every pool entry.
    Agrees,
    /// Same instance, some output differs: reported, not timed.
    Wrong,
    /// A different instance or function: timed, with the caveat.
    Different,
}

/// One timed implementation of a row's operation.
struct Contender<'a> {
    name: &'static str,
    caveat: &'static str,
    verdict: Verdict,
    /// Operations done by one call of `run(1)` (a batch of states is one call): times are
    /// reported per operation.
    per_call: usize,
    /// Runs the operation on the next `n` pool entries (wrapping around).
    run: Box<dyn FnMut(usize) + 'a>,
}

/// One operation, ours and the peers'.
struct Row<'a> {
    op: String,
    ours: Contender<'a>,
    peers: Vec<Contender<'a>>,
}

/// A contender running `f` on every input of `inputs`. With `expected`, the outputs (encoded by
/// `encode`) are compared with ours first: equal gives [`Verdict::Agrees`], otherwise
/// [`Verdict::Wrong`]. Without, the contender is [`Verdict::Different`] (`caveat` says how).
fn contender<'a, S: 'a, O>(
    name: &'static str,
    caveat: &'static str,
    inputs: Vec<S>,
    mut f: impl FnMut(&S) -> O + 'a,
    encode: impl Fn(&O) -> Vec<String>,
    expected: Option<&[Vec<String>]>,
) -> Contender<'a> {
    let verdict = match expected {
        Some(expected) => {
            let got: Vec<Vec<String>> = inputs.iter().map(|s| encode(&f(s))).collect();
            if got == expected {
                Verdict::Agrees
            } else {
                Verdict::Wrong
            }
        }
        None => Verdict::Different,
    };
    let mut next = 0;
    Contender {
        name,
        caveat,
        verdict,
        per_call: 1,
        run: Box::new(move |n| {
            for _ in 0..n {
                black_box(f(black_box(&inputs[next])));
                next = (next + 1) % inputs.len();
            }
        }),
    }
}

/// Our permutation of width `T` on a fresh pool; returns our contender, the pool and our
/// encoded outputs (the reference every same-instance peer is checked against).
fn ours_permutation<
    'a,
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    perm: Poseidon2Ct<F, T, RF, RP, D>,
) -> (Contender<'a>, Vec<[F; T]>, Vec<Vec<String>>) {
    let mut inputs = rng();
    let pool: Vec<[F; T]> = (0..POOL).map(|_| random_state(&mut inputs)).collect();
    let expected: Vec<Vec<String>> = pool
        .iter()
        .map(|s| perm.permutation(s).iter().map(hex).collect())
        .collect();
    let ours = contender(
        "fast-poseidon2",
        "",
        pool.clone(),
        move |s| perm.permutation(s),
        |_| Vec::new(),
        None,
    );
    (ours, pool, expected)
}

/// zkhash 0.2 (the Horizen Labs reference) on the same pool.
fn zkhash_peer<'a, F: PrimeField, G: ark_ff_04::PrimeField, const T: usize>(
    params: &Arc<zkhash::poseidon2::poseidon2_params::Poseidon2Params<G>>,
    pool: &[[F; T]],
    expected: &[Vec<String>],
) -> Contender<'a> {
    let perm = zkhash::poseidon2::poseidon2::Poseidon2::new(params);
    let inputs: Vec<Vec<G>> = pool.iter().map(|s| s.iter().map(to04).collect()).collect();
    contender(
        "zkhash 0.2",
        "",
        inputs,
        move |s| perm.permutation(s),
        |out| out.iter().map(|x| hex04(x, F::BYTES)).collect(),
        Some(expected),
    )
}

/// A peer on ark-bn254 0.6 `Fr` (our own element type): inputs are the pool itself.
fn bn254_peer<'a, const T: usize>(
    name: &'static str,
    pool: &[[Fr; T]],
    expected: &[Vec<String>],
    f: impl FnMut(&[Fr; T]) -> [Fr; T] + 'a,
) -> Contender<'a> {
    contender(
        name,
        "",
        pool.to_vec(),
        f,
        |out| out.iter().map(hex).collect(),
        Some(expected),
    )
}

// ---------------------------------------------------------------------------------------------
// The rows. Adding an instance or a peer is one entry.

/// A permutation row: our `$ours` on a fresh pool, and the peers built from that pool and our
/// encoded outputs.
macro_rules! permutation_row {
    ($op:expr, $ours:expr, |$pool:ident, $expected:ident| $peers:expr) => {{
        let (ours, $pool, $expected) = ours_permutation($ours);
        Row {
            op: $op.into(),
            ours,
            peers: $peers,
        }
    }};
}

/// taceo-poseidon2 0.3 (BN254 only, ark-bn254 0.6 `Fr`).
fn taceo<'a, const T: usize>(
    pool: &[[Fr; T]],
    expected: &[Vec<String>],
    f: fn(&[Fr; T]) -> [Fr; T],
) -> Contender<'a> {
    bn254_peer("taceo-poseidon2 0.3", pool, expected, f)
}

fn bn254_rows<'a>() -> Vec<Row<'a>> {
    use taceo_poseidon2::bn254 as taceo_bn254;
    use zkhash::poseidon2::poseidon2_instance_bn256::POSEIDON2_BN256_PARAMS;
    // Not a shipped width: our Grain generates it at start-up, and taceo's output is checked
    // against it.
    let t16 = Poseidon2Ct::<Fr, 16, 8, 57, 5>::from_params(
        &Poseidon2Params::generate(16, 5, 8, 57).expect("BN254 t=16 generates"),
    )
    .expect("shape");
    vec![
        permutation_row!(
            "BN254 t=2 permutation",
            bn254::ct::t2(),
            |pool, expected| { vec![taceo(&pool, &expected, taceo_bn254::t2::permutation)] }
        ),
        permutation_row!(
            "BN254 t=3 permutation",
            bn254::ct::t3(),
            |pool, expected| {
                vec![
                    zkhash_peer(&POSEIDON2_BN256_PARAMS, &pool, &expected),
                    taceo(&pool, &expected, taceo_bn254::t3::permutation),
                ]
            }
        ),
        permutation_row!(
            "BN254 t=4 permutation",
            bn254::ct::t4(),
            |pool, expected| {
                let pso = pso_poseidon::Poseidon2::<Fr>::new();
                vec![
                    taceo(&pool, &expected, taceo_bn254::t4::permutation),
                    // Barretenberg's t=4 instance, vendored by pso-poseidon: checked against ours.
                    bn254_peer("pso-poseidon 0.5 (Poseidon2)", &pool, &expected, move |s| {
                        pso.permutation(s)
                    }),
                ]
            }
        ),
        permutation_row!(
            "BN254 t=8 permutation",
            bn254::ct::t8(),
            |pool, expected| { vec![taceo(&pool, &expected, taceo_bn254::t8::permutation)] }
        ),
        permutation_row!(
            "BN254 t=12 permutation",
            bn254::ct::t12(),
            |pool, expected| { vec![taceo(&pool, &expected, taceo_bn254::t12::permutation)] }
        ),
        permutation_row!(
            "BN254 t=16 permutation (generated, not shipped)",
            t16,
            |pool, expected| vec![taceo(&pool, &expected, taceo_bn254::t16::permutation)]
        ),
        bn254_compress_row(),
    ]
}

/// Our BN254 t=3 `compress` (`perm([a, b, 0])[0]`, the reference's Merkle compression) against
/// circom Poseidon1 with 2 inputs (light-poseidon and its fork pso-poseidon): a different
/// function, the same job (2-to-1 hashing in a Merkle tree).
fn bn254_compress_row<'a>() -> Row<'a> {
    use light_poseidon::{Poseidon, PoseidonHasher};
    let mut inputs = rng();
    let pool: Vec<[Fr; 2]> = (0..POOL).map(|_| random_state(&mut inputs)).collect();
    let perm = bn254::ct::t3();
    // The same computation as `Poseidon2Ct::compress` (modes): permutation of [a, b, 0], lane 0.
    let ours = contender(
        "fast-poseidon2",
        "",
        pool.clone(),
        move |&[a, b]| perm.permutation(&[a, b, Fr::ZERO_ELEMENT])[0],
        |_| Vec::new(),
        None,
    );
    let mut light = Poseidon::<Fr>::new_circom(2).expect("circom 2 inputs");
    let mut pso = pso_poseidon::Poseidon::<Fr>::new_circom(2).expect("circom 2 inputs");
    let light_out: Vec<Vec<String>> = pool
        .iter()
        .map(|s| vec![hex(&light.hash(s).expect("hash"))])
        .collect();
    let peers = vec![
        contender(
            "light-poseidon 0.5",
            "Poseidon1 circom, 2 inputs (different function)",
            pool.clone(),
            move |s| light.hash(s).expect("hash"),
            |_| Vec::new(),
            None,
        ),
        // pso-poseidon's circom Poseidon is checked against light-poseidon's.
        contender(
            "pso-poseidon 0.5",
            "Poseidon1 circom, 2 inputs (different function); same output as light-poseidon",
            pool,
            move |s| pso_poseidon::PoseidonHasher::hash(&mut pso, s).expect("hash"),
            |out| vec![hex(out)],
            Some(&light_out),
        ),
    ];
    Row {
        op: "BN254 2-to-1: our t=3 compress vs circom Poseidon(2)".into(),
        ours,
        peers,
    }
}

#[cfg(feature = "bls12-381")]
fn bls12_381_rows<'a>() -> Vec<Row<'a>> {
    use fast_poseidon2::instances::bls12_381;
    use zkhash::poseidon2::poseidon2_instance_bls12::{
        POSEIDON2_BLS_2_PARAMS, POSEIDON2_BLS_3_PARAMS, POSEIDON2_BLS_4_PARAMS,
        POSEIDON2_BLS_8_PARAMS,
    };
    macro_rules! zkhash_row {
        ($op:literal, $ct:expr, $zk:expr) => {
            permutation_row!($op, $ct, |pool, expected| vec![zkhash_peer(
                &$zk, &pool, &expected
            )])
        };
    }
    vec![
        zkhash_row!(
            "BLS12-381 t=2 permutation",
            bls12_381::ct::t2(),
            POSEIDON2_BLS_2_PARAMS
        ),
        zkhash_row!(
            "BLS12-381 t=3 permutation",
            bls12_381::ct::t3(),
            POSEIDON2_BLS_3_PARAMS
        ),
        zkhash_row!(
            "BLS12-381 t=4 permutation",
            bls12_381::ct::t4(),
            POSEIDON2_BLS_4_PARAMS
        ),
        zkhash_row!(
            "BLS12-381 t=8 permutation",
            bls12_381::ct::t8(),
            POSEIDON2_BLS_8_PARAMS
        ),
    ]
}

#[cfg(feature = "goldilocks")]
fn goldilocks_rows<'a>() -> Vec<Row<'a>> {
    use fast_poseidon2::instances::goldilocks;
    use p3_goldilocks::Goldilocks as P3;
    use p3_symmetric::Permutation;
    use zkhash::poseidon2::poseidon2_instance_goldilocks::{
        POSEIDON2_GOLDILOCKS_8_PARAMS, POSEIDON2_GOLDILOCKS_12_PARAMS,
        POSEIDON2_GOLDILOCKS_16_PARAMS, POSEIDON2_GOLDILOCKS_20_PARAMS,
    };
    const P3: &str = "Plonky3 instance (own constants, own M4): different instance";
    const OWN: &str =
        "own t=12 instance (own constants, cheaper circ(2,3,1,1) M4): different instance";
    /// A Goldilocks peer with its own instance, fed the pool's canonical integers.
    fn own_instance<'a, F: PrimeField, G: Copy + 'a, O, const T: usize>(
        name: &'static str,
        caveat: &'static str,
        pool: &[[F; T]],
        element: fn(u64) -> G,
        f: impl FnMut(&[G; T]) -> O + 'a,
    ) -> Contender<'a> {
        let inputs = pool
            .iter()
            .map(|s| s.map(|x| element(to_u64(&x))))
            .collect();
        contender(name, caveat, inputs, f, |_| Vec::new(), None)
    }

    vec![
        permutation_row!(
            "Goldilocks t=8 permutation",
            goldilocks::ct::t8(),
            |pool, expected| {
                let p3 = p3_goldilocks::default_goldilocks_poseidon2_8();
                vec![
                    zkhash_peer(&POSEIDON2_GOLDILOCKS_8_PARAMS, &pool, &expected),
                    own_instance("p3-poseidon2 0.8", P3, &pool, P3::new, move |s| {
                        p3.permute(*s)
                    }),
                ]
            }
        ),
        permutation_row!(
            "Goldilocks t=12 permutation",
            goldilocks::ct::t12(),
            |pool, expected| {
                let p3 = p3_goldilocks::default_goldilocks_poseidon2_12();
                let qp = qp_poseidon_core::Poseidon2::new();
                vec![
                    zkhash_peer(&POSEIDON2_GOLDILOCKS_12_PARAMS, &pool, &expected),
                    own_instance("p3-poseidon2 0.8", P3, &pool, P3::new, move |s| {
                        p3.permute(*s)
                    }),
                    own_instance(
                        "poseidon-hash 0.1.4",
                        OWN,
                        &pool,
                        poseidon_hash::Goldilocks::from_canonical_u64,
                        |s| {
                            let mut state = *s;
                            poseidon_hash::permute(&mut state);
                            state
                        },
                    ),
                    own_instance(
                        "qp-poseidon-core 3.1",
                        OWN,
                        &pool,
                        qp_poseidon_core::Goldilocks::new,
                        move |s| {
                            let mut state = *s;
                            qp.permute_mut(&mut state);
                            state
                        },
                    ),
                ]
            }
        ),
        permutation_row!(
            "Goldilocks t=16 permutation",
            goldilocks::ct::t16(),
            |pool, expected| {
                let p3 = p3_goldilocks::default_goldilocks_poseidon2_16();
                vec![
                    zkhash_peer(&POSEIDON2_GOLDILOCKS_16_PARAMS, &pool, &expected),
                    own_instance("p3-poseidon2 0.8", P3, &pool, P3::new, move |s| {
                        p3.permute(*s)
                    }),
                ]
            }
        ),
        permutation_row!(
            "Goldilocks t=20 permutation",
            goldilocks::ct::t20(),
            |pool, expected| {
                vec![zkhash_peer(
                    &POSEIDON2_GOLDILOCKS_20_PARAMS,
                    &pool,
                    &expected,
                )]
            }
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Batch rows: `permute_batch` (the run-time chosen backend) per permutation.

/// States per call of a batch contender.
const BATCH: usize = 64;

/// A batch row: ours is `permute_batch` on blocks of `BATCH` states of a fresh pool (asserted
/// equal to our scalar permutation on the whole pool first); the peers are our own scalar ct
/// permutation on the same pool and whatever `peers` builds from the pool.
fn batch_row<
    'a,
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    op: &str,
    perm: Poseidon2Ct<F, T, RF, RP, D>,
    peers: impl FnOnce(&[[F; T]]) -> Vec<Contender<'a>>,
) -> Row<'a> {
    let (mut scalar, pool, expected) = ours_permutation(perm.clone());
    scalar.name = "fast-poseidon2 scalar (ct)";
    scalar.caveat = "this crate's scalar permutation on the same pool";
    let mut batched = pool.clone();
    perm.permute_batch(&mut batched);
    let batched: Vec<Vec<String>> = batched
        .iter()
        .map(|s| s.iter().map(hex).collect())
        .collect();
    assert!(
        batched == expected,
        "{op}: permute_batch differs from the scalar permutation"
    );
    let blocks: Vec<Vec<[F; T]>> = pool.chunks_exact(BATCH).map(<[_]>::to_vec).collect();
    let mut buffer = vec![[F::ZERO_ELEMENT; T]; BATCH];
    let mut ours = contender(
        "fast-poseidon2",
        "",
        blocks,
        move |block| {
            buffer.copy_from_slice(block);
            perm.permute_batch(&mut buffer);
            buffer[0]
        },
        |_| Vec::new(),
        None,
    );
    ours.per_call = BATCH;
    let mut all_peers = vec![scalar];
    all_peers.extend(peers(&pool));
    Row {
        op: format!("{op} ({:?} backend)", fast_poseidon2::batch_backend::<F>()),
        ours,
        peers: all_peers,
    }
}

fn batch_rows<'a>() -> Vec<Row<'a>> {
    use taceo_poseidon2::bn254 as taceo_bn254;
    #[allow(unused_mut)]
    let mut rows = vec![batch_row(
        "BN254 t=3 batch permutation",
        bn254::ct::t3(),
        |pool| {
            let expected: Vec<Vec<String>> = pool
                .iter()
                .map(|s| bn254::ct::t3().permutation(s).iter().map(hex).collect())
                .collect();
            vec![taceo(pool, &expected, taceo_bn254::t3::permutation)]
        },
    )];
    /// Ours against Plonky3's packed permutation of the same instance.
    macro_rules! packed_31_row {
        ($op:literal, $ours:expr, $field:ty, $p3:expr) => {
            batch_row($op, $ours, |pool| {
                let expected: Vec<_> = pool.iter().map(|s| $ours.permutation(s)).collect();
                plonky3_packed_31::<_, $field, _>(pool, &expected, $p3)
            })
        };
    }
    use fast_poseidon2::instances::plonky3::ct as p3_ct;
    rows.extend([
        packed_31_row!(
            "BabyBear t=16 batch permutation",
            p3_ct::babybear_t16(),
            p3_baby_bear::BabyBear,
            p3_baby_bear::default_babybear_poseidon2_16()
        ),
        packed_31_row!(
            "KoalaBear t=16 batch permutation",
            p3_ct::koalabear_t16(),
            p3_koala_bear::KoalaBear,
            p3_koala_bear::default_koalabear_poseidon2_16()
        ),
        packed_31_row!(
            "BabyBear t=24 batch permutation",
            p3_ct::babybear_t24(),
            p3_baby_bear::BabyBear,
            p3_baby_bear::default_babybear_poseidon2_24()
        ),
        packed_31_row!(
            "KoalaBear t=24 batch permutation",
            p3_ct::koalabear_t24(),
            p3_koala_bear::KoalaBear,
            p3_koala_bear::default_koalabear_poseidon2_24()
        ),
    ]);
    #[cfg(feature = "goldilocks")]
    rows.push(batch_row(
        "Goldilocks t=12 batch permutation",
        fast_poseidon2::instances::goldilocks::ct::t12(),
        plonky3_packed_12,
    ));
    rows
}

/// p3-poseidon2's packed permutation of a 31-bit field `X` (BabyBear, KoalaBear) on the same
/// instance as ours (`perm` is Plonky3's `default_*_poseidon2_*`, whose scalar outputs the
/// Plonky3 rows check), `X::Packing` states per call, pre-packed (the time of packing is not
/// counted): AVX-512 (16 lanes) when built with `-C target-cpu=native` on an AVX-512 CPU, AVX2
/// (8 lanes) when built with `-C target-feature=+avx2`; in a default build Plonky3 has no packed
/// type and the row has no such peer. The packed outputs are checked against `outputs` (ours).
fn plonky3_packed_31<'a, F, X, const T: usize>(
    pool: &[[F; T]],
    outputs: &[[F; T]],
    perm: impl p3_symmetric::Permutation<[X::Packing; T]> + 'a,
) -> Vec<Contender<'a>>
where
    F: PrimeField,
    X: p3_field::PrimeField64,
{
    use p3_field::PackedValue;
    let lanes = <X::Packing as PackedValue>::WIDTH;
    if lanes == 1 {
        println!(
            "(p3-poseidon2's packed rows need RUSTFLAGS=\"-C target-cpu=native\" (AVX-512) or \
             \"-C target-feature=+avx2\")"
        );
        return Vec::new();
    }
    let name = match lanes {
        16 => "p3-poseidon2 0.8 AVX-512 packed (16 states per call)",
        8 => "p3-poseidon2 0.8 AVX2 packed (8 states per call)",
        _ => "p3-poseidon2 0.8 packed",
    };
    let inputs: Vec<[X::Packing; T]> = pool
        .chunks_exact(lanes)
        .map(|states| {
            core::array::from_fn(|i| {
                X::Packing::from_fn(|l| X::from_u64(canonical_u64(&states[l][i])))
            })
        })
        .collect();
    // Our outputs in the packed output's order: lane by lane, each lane's `T` elements.
    let expected: Vec<Vec<String>> = outputs
        .chunks_exact(lanes)
        .map(|states| {
            states
                .iter()
                .flat_map(|s| {
                    s.iter()
                        .map(|x| format!("{:01$x}", canonical_u64(x), 2 * F::BYTES))
                })
                .collect()
        })
        .collect();
    let mut packed = contender(
        name,
        "",
        inputs,
        move |s| perm.permute(*s),
        move |out: &[X::Packing; T]| {
            (0..lanes)
                .flat_map(|l| {
                    out.iter().map(move |x| {
                        format!("{:01$x}", x.as_slice()[l].as_canonical_u64(), 2 * F::BYTES)
                    })
                })
                .collect()
        },
        Some(&expected),
    );
    packed.per_call = lanes;
    vec![packed]
}

/// p3-poseidon2's packed Goldilocks width-12 permutation, 8 states per call. Plonky3 picks its
/// vector code at compile time: with `-C target-cpu=native` on an AVX-512 CPU this is its
/// AVX-512 kernel; otherwise (a default build) there is no packed type to time.
#[cfg(feature = "goldilocks")]
fn plonky3_packed_12<'a>(
    pool: &[[fast_poseidon2::goldilocks::GoldilocksFast; 12]],
) -> Vec<Contender<'a>> {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    {
        use p3_goldilocks::{Goldilocks as P3, PackedGoldilocksAVX512 as Packed};
        use p3_symmetric::Permutation;
        let p3 = p3_goldilocks::default_goldilocks_poseidon2_12();
        let inputs: Vec<[Packed; 12]> = pool
            .chunks_exact(8)
            .map(|lanes| {
                core::array::from_fn(|i| {
                    Packed(core::array::from_fn(|l| P3::new(to_u64(&lanes[l][i]))))
                })
            })
            .collect();
        let mut packed = contender(
            "p3-poseidon2 0.8 AVX-512 packed (8 states per call)",
            "Plonky3 instance (own constants, own M4): different instance",
            inputs,
            move |s| p3.permute(*s),
            |_| Vec::new(),
            None,
        );
        packed.per_call = 8;
        vec![packed]
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512f")))]
    {
        let _ = pool;
        println!(
            "(p3-poseidon2's AVX-512 packed row needs RUSTFLAGS=\"-C target-cpu=native\" on an AVX-512 CPU)"
        );
        Vec::new()
    }
}

// ---------------------------------------------------------------------------------------------
// circom Poseidon1 (BN254): our `instances::circom_bn254` against light-poseidon, the same
// function (state `[0, in_1, .., in_n]`, output `state[0]`), checked on the whole pool.

/// A pool of `n`-input circom hashes and our outputs (the reference the peers are checked
/// against).
fn circom_pool(n: usize) -> (Vec<Vec<Fr>>, Vec<Vec<String>>) {
    let mut inputs = rng();
    let pool: Vec<Vec<Fr>> = (0..POOL)
        .map(|_| random_state::<Fr, 16>(&mut inputs)[..n].to_vec())
        .collect();
    let expected = pool
        .iter()
        .map(|s| vec![hex(&circom_bn254::hash(s).expect("1..=16 inputs"))])
        .collect();
    (pool, expected)
}

/// light-poseidon 0.5's circom hash of `n` inputs on `pool`, checked against `expected`.
fn light_poseidon<'a>(n: usize, pool: &[Vec<Fr>], expected: &[Vec<String>]) -> Contender<'a> {
    use light_poseidon::{Poseidon, PoseidonHasher};
    let mut light = Poseidon::<Fr>::new_circom(n).expect("light-poseidon has 1..=12 inputs");
    contender(
        "light-poseidon 0.5",
        "",
        pool.to_vec(),
        move |s| light.hash(s).expect("hash"),
        |out| vec![hex(out)],
        Some(expected),
    )
}

/// circom `Poseidon(n)` for every input count light-poseidon has (1..=12), scalar.
fn circom_rows<'a>() -> Vec<Row<'a>> {
    (1..=12)
        .map(|n| {
            let (pool, expected) = circom_pool(n);
            let ours = contender(
                "fast-poseidon2",
                "",
                pool.clone(),
                |s| circom_bn254::hash(s).expect("hash"),
                |_| Vec::new(),
                None,
            );
            Row {
                op: format!("BN254 circom Poseidon({n}) hash"),
                peers: vec![light_poseidon(n, &pool, &expected)],
                ours,
            }
        })
        .collect()
}

/// circom `Poseidon(2)` on the batch path: blocks of `BATCH` input pairs through
/// `circom_bn254::hash_batch` (AVX-512 IFMA when the CPU has it, see `batch_backend`), one hash
/// per pair (asserted equal to the scalar hash on the whole pool first).
fn circom_batch_row<'a>() -> Row<'a> {
    let (pool, expected) = circom_pool(2);
    let pairs: Vec<[Fr; 2]> = pool.iter().map(|s| [s[0], s[1]]).collect();
    let mut hashes = vec![Fr::ZERO_ELEMENT; pairs.len()];
    circom_bn254::hash_batch(&pairs, &mut hashes).expect("hash_batch");
    let batched: Vec<Vec<String>> = hashes.iter().map(|h| vec![hex(h)]).collect();
    assert!(
        batched == expected,
        "circom batch differs from the scalar hash"
    );
    let blocks: Vec<Vec<[Fr; 2]>> = pairs.chunks_exact(BATCH).map(<[_]>::to_vec).collect();
    let mut out = vec![Fr::ZERO_ELEMENT; BATCH];
    let mut ours = contender(
        "fast-poseidon2",
        "",
        blocks,
        move |block| {
            circom_bn254::hash_batch(block, &mut out).expect("hash_batch");
            out[0]
        },
        |_| Vec::new(),
        None,
    );
    ours.per_call = BATCH;
    let scalar = contender(
        "fast-poseidon2 scalar (circom_bn254::hash)",
        "this crate's scalar hash on the same pool",
        pool.clone(),
        |s| circom_bn254::hash(s).expect("hash"),
        |_| Vec::new(),
        None,
    );
    Row {
        op: format!(
            "BN254 circom Poseidon(2) batch hash (hash_batch, {:?})",
            fast_poseidon2::batch_backend::<Fr>()
        ),
        peers: vec![scalar, light_poseidon(2, &pool, &expected)],
        ours,
    }
}

/// Plonky3's own Poseidon2 instances: ours (`instances::plonky3::ct`) against Plonky3 0.8.0's
/// scalar `permute_mut` on its own field types, the same instance: outputs checked equal on the
/// pool.
fn plonky3_rows<'a>() -> Vec<Row<'a>> {
    use fast_poseidon2::instances::plonky3;
    use p3_field::PrimeField64;
    use p3_symmetric::Permutation;
    /// p3-poseidon2's scalar permutation on the pool's canonical integers.
    fn p3_peer<'a, F: PrimeField, X: PrimeField64, const T: usize>(
        pool: &[[F; T]],
        expected: &[Vec<String>],
        perm: impl Permutation<[X; T]> + 'a,
    ) -> Contender<'a> {
        let inputs: Vec<[X; T]> = pool
            .iter()
            .map(|s| s.map(|x| X::from_u64(canonical_u64(&x))))
            .collect();
        contender(
            "p3-poseidon2 0.8 (scalar)",
            "",
            inputs,
            move |s| {
                let mut state = *s;
                perm.permute_mut(&mut state);
                state
            },
            |out| {
                out.iter()
                    .map(|x| format!("{:01$x}", x.as_canonical_u64(), 2 * F::BYTES))
                    .collect()
            },
            Some(expected),
        )
    }
    /// Ours against Plonky3's scalar permutation of the same instance.
    macro_rules! p3_row {
        ($op:literal, $ours:expr, $field:ty, $t:literal, $p3:expr) => {
            permutation_row!($op, $ours, |pool, expected| vec![p3_peer::<_, $field, $t>(
                &pool, &expected, $p3
            )])
        };
    }
    #[allow(unused_mut)]
    let mut rows = vec![
        p3_row!(
            "Plonky3 BabyBear t=16 permutation",
            plonky3::ct::babybear_t16(),
            p3_baby_bear::BabyBear,
            16,
            p3_baby_bear::default_babybear_poseidon2_16()
        ),
        p3_row!(
            "Plonky3 BabyBear t=24 permutation",
            plonky3::ct::babybear_t24(),
            p3_baby_bear::BabyBear,
            24,
            p3_baby_bear::default_babybear_poseidon2_24()
        ),
        p3_row!(
            "Plonky3 KoalaBear t=16 permutation",
            plonky3::ct::koalabear_t16(),
            p3_koala_bear::KoalaBear,
            16,
            p3_koala_bear::default_koalabear_poseidon2_16()
        ),
        p3_row!(
            "Plonky3 KoalaBear t=24 permutation",
            plonky3::ct::koalabear_t24(),
            p3_koala_bear::KoalaBear,
            24,
            p3_koala_bear::default_koalabear_poseidon2_24()
        ),
    ];
    #[cfg(feature = "goldilocks")]
    rows.extend([
        p3_row!(
            "Plonky3 Goldilocks t=8 permutation",
            plonky3::ct::goldilocks_t8(),
            p3_goldilocks::Goldilocks,
            8,
            p3_goldilocks::default_goldilocks_poseidon2_8()
        ),
        p3_row!(
            "Plonky3 Goldilocks t=12 permutation",
            plonky3::ct::goldilocks_t12(),
            p3_goldilocks::Goldilocks,
            12,
            p3_goldilocks::default_goldilocks_poseidon2_12()
        ),
        p3_row!(
            "Plonky3 Goldilocks t=16 permutation",
            plonky3::ct::goldilocks_t16(),
            p3_goldilocks::Goldilocks,
            16,
            p3_goldilocks::default_goldilocks_poseidon2_16()
        ),
    ]);
    rows
}

// ---------------------------------------------------------------------------------------------
// Starknet's Poseidon over the Stark field (t = 3, StarkWare's Hades permutation): ours against
// starknet-crypto 0.8 and CryptoExperts' C/x86-asm library (`../shared/peers/poseidon-c`, built
// by build.rs when that folder exists: the ADX assembly build and the C `__int128` build).

/// The two builds of CryptoExperts' `permutation_3` (symbols renamed by build.rs): the state is
/// three canonical elements as four little-endian 64-bit limbs each, permuted in place (the
/// output is below 2^256, congruent to the canonical result).
#[cfg(poseidon_c)]
#[allow(unsafe_code)]
mod poseidon_c {
    unsafe extern "C" {
        fn pc_asm_permutation_3(state: *mut [u64; 4]);
        fn pc_i128_permutation_3(state: *mut [u64; 4]);
    }
    /// The ADX assembly build.
    pub fn asm(state: &mut [[u64; 4]; 3]) {
        // SAFETY: the function reads and writes exactly 3 elements of 4 u64 behind the pointer
        // (`felt_t state[]` of width 3) and needs BMI2/ADX, checked by the caller.
        unsafe { pc_asm_permutation_3(state.as_mut_ptr()) }
    }
    /// The C `__int128` build.
    pub fn int128(state: &mut [[u64; 4]; 3]) {
        // SAFETY: as above, portable C.
        unsafe { pc_i128_permutation_3(state.as_mut_ptr()) }
    }
}

#[cfg_attr(not(poseidon_c), allow(dead_code))]
/// Little-endian limbs of one of our Stark elements' canonical integer.
fn felt_limbs(x: &fast_poseidon2::stark252::Felt252) -> [u64; 4] {
    let mut bytes = [0u8; 32];
    x.write_canonical_be_bytes(&mut bytes);
    core::array::from_fn(|i| u64::from_be_bytes(bytes[24 - 8 * i..32 - 8 * i].try_into().unwrap()))
}

#[cfg_attr(not(poseidon_c), allow(dead_code))]
/// Canonical hex of the integer with little-endian limbs `l` reduced mod p.
fn limbs_hex(l: &[u64; 4]) -> String {
    let mut bytes = [0u8; 32];
    for (i, limb) in l.iter().enumerate() {
        bytes[24 - 8 * i..32 - 8 * i].copy_from_slice(&limb.to_be_bytes());
    }
    hex(&fast_poseidon2::stark252::Felt252::from_be_bytes_reduced(
        &bytes,
    ))
}

/// The CryptoExperts contenders on `pool` (checked against `expected`), or none with a note.
#[allow(unused_variables)]
fn poseidon_c_peers<'a>(
    pool: &[[fast_poseidon2::stark252::Felt252; 3]],
    expected: &[Vec<String>],
) -> Vec<Contender<'a>> {
    #[cfg(poseidon_c)]
    {
        let inputs: Vec<[[u64; 4]; 3]> = pool.iter().map(|s| s.map(|x| felt_limbs(&x))).collect();
        let encode = |out: &[[u64; 4]; 3]| out.iter().map(limbs_hex).collect();
        let run = |f: fn(&mut [[u64; 4]; 3])| {
            move |s: &[[u64; 4]; 3]| {
                let mut state = *s;
                f(&mut state);
                state
            }
        };
        let mut peers = Vec::new();
        if is_x86_feature_detected!("bmi2") && is_x86_feature_detected!("adx") {
            peers.push(contender(
                "CryptoExperts poseidon-c (ADX asm)",
                "",
                inputs.clone(),
                run(poseidon_c::asm),
                encode,
                Some(expected),
            ));
        } else {
            println!("(poseidon-c asm row skipped: the CPU lacks BMI2/ADX)");
        }
        peers.push(contender(
            "CryptoExperts poseidon-c (C __int128)",
            "",
            inputs,
            run(poseidon_c::int128),
            encode,
            Some(expected),
        ));
        peers
    }
    #[cfg(not(poseidon_c))]
    {
        println!(
            "(CryptoExperts poseidon-c rows skipped: ../shared/peers/poseidon-c was not found when bench-compare was built)"
        );
        Vec::new()
    }
}

/// Starknet's t = 3 permutation: ours (`instances::stark252::poseidon_permute_comp`, and the
/// `ct::T3` permutation as a peer) against starknet-crypto 0.8's `poseidon_permute_comp` and
/// CryptoExperts' builds, all checked equal to ours on the pool; then the batch row: our
/// `permute_batch` on blocks of `BATCH` states against our scalar permutation and the asm.
fn stark252_rows<'a>() -> Vec<Row<'a>> {
    use fast_poseidon2::instances::stark252;
    use fast_poseidon2::stark252::Felt252;
    use starknet_crypto::Felt;
    let mut inputs = rng();
    let pool: Vec<[Felt252; 3]> = (0..POOL).map(|_| random_state(&mut inputs)).collect();
    let permute = |s: &[Felt252; 3]| {
        let mut state = *s;
        stark252::poseidon_permute_comp(&mut state);
        state
    };
    let expected: Vec<Vec<String>> = pool
        .iter()
        .map(|s| permute(s).iter().map(hex).collect())
        .collect();
    let ours = contender(
        "fast-poseidon2",
        "",
        pool.clone(),
        permute,
        |_| Vec::new(),
        None,
    );
    let ct = contender(
        "fast-poseidon2 ct::T3.permutation",
        "this crate's const-generic permutation",
        pool.clone(),
        |s| stark252::ct::T3.permutation(s),
        |out| out.iter().map(hex).collect(),
        Some(&expected),
    );
    let theirs: Vec<[Felt; 3]> = pool
        .iter()
        .map(|s| {
            s.map(|x| {
                let mut bytes = [0u8; 32];
                x.write_canonical_be_bytes(&mut bytes);
                Felt::from_bytes_be(&bytes)
            })
        })
        .collect();
    let starknet = contender(
        "starknet-crypto 0.8 poseidon_permute_comp",
        "",
        theirs,
        |s| {
            let mut state = *s;
            starknet_crypto::poseidon_permute_comp(&mut state);
            state
        },
        |out| {
            out.iter()
                .map(|x| x.to_bytes_be().iter().map(|b| format!("{b:02x}")).collect())
                .collect()
        },
        Some(&expected),
    );
    let mut peers = vec![ct, starknet];
    peers.extend(poseidon_c_peers(&pool, &expected));
    let scalar_row = Row {
        op: "Stark252 t=3 permutation (poseidon_permute_comp)".into(),
        ours,
        peers,
    };

    // Batch: blocks of BATCH states, checked equal to the scalar permutation on the whole pool.
    let mut batched = pool.clone();
    stark252::ct::T3.permute_batch(&mut batched);
    let batched: Vec<Vec<String>> = batched
        .iter()
        .map(|s| s.iter().map(hex).collect())
        .collect();
    assert!(
        batched == expected,
        "Stark252 permute_batch differs from the scalar permutation"
    );
    let blocks: Vec<Vec<[Felt252; 3]>> = pool.chunks_exact(BATCH).map(<[_]>::to_vec).collect();
    let mut buffer = vec![[Felt252::from(0u64); 3]; BATCH];
    let mut batch = contender(
        "fast-poseidon2",
        "",
        blocks,
        move |block| {
            buffer.copy_from_slice(block);
            stark252::ct::T3.permute_batch(&mut buffer);
            buffer[0]
        },
        |_| Vec::new(),
        None,
    );
    batch.per_call = BATCH;
    let scalar = contender(
        "fast-poseidon2 scalar (poseidon_permute_comp)",
        "this crate's scalar permutation on the same pool",
        pool.clone(),
        permute,
        |_| Vec::new(),
        None,
    );
    let mut peers = vec![scalar];
    peers.extend(poseidon_c_peers(&pool, &expected));
    let batch_row = Row {
        op: format!(
            "Stark252 t=3 batch permutation ({BATCH} states per call, {:?} backend)",
            fast_poseidon2::batch_backend::<Felt252>()
        ),
        ours: batch,
        peers,
    };
    vec![scalar_row, batch_row]
}

// ---------------------------------------------------------------------------------------------
// Measurement and the table.

/// Median µs per operation of each contender, samples interleaved across contenders.
fn measure(contenders: &mut [&mut Contender<'_>]) -> Vec<f64> {
    // Calibrate: operations per sample so that one sample lasts SAMPLE_TIME.
    let per_sample: Vec<usize> = contenders
        .iter_mut()
        .map(|c| {
            let mut n = 16;
            loop {
                let start = ThreadTime::now();
                (c.run)(n);
                if start.elapsed() >= SAMPLE_TIME {
                    return n;
                }
                n *= 2;
            }
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(SAMPLES); contenders.len()];
    for _ in 0..SAMPLES {
        for ((c, &n), out) in contenders.iter_mut().zip(&per_sample).zip(&mut samples) {
            let start = ThreadTime::now();
            (c.run)(n);
            out.push(start.elapsed().as_secs_f64() * 1e6 / (n * c.per_call) as f64);
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_by(f64::total_cmp);
            s[SAMPLES / 2]
        })
        .collect()
}

fn main() {
    let mut rows = bn254_rows();
    #[cfg(feature = "bls12-381")]
    rows.extend(bls12_381_rows());
    #[cfg(feature = "goldilocks")]
    rows.extend(goldilocks_rows());
    rows.extend(plonky3_rows());
    rows.extend(batch_rows());
    rows.extend(circom_rows());
    rows.push(circom_batch_row());
    rows.extend(stark252_rows());
    // `cargo bench ... -- WORDS`: only the rows whose operation contains one of the words.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !filters.is_empty() {
        rows.retain(|row| filters.iter().any(|f| row.op.contains(f.as_str())));
    }

    println!("| operation | fast-poseidon2 µs | peer | peer µs | ours / peer | check |");
    println!("|---|---|---|---|---|---|");
    for row in &mut rows {
        let mut timed: Vec<&mut Contender<'_>> = vec![&mut row.ours];
        timed.extend(row.peers.iter_mut().filter(|p| p.verdict != Verdict::Wrong));
        let times = measure(&mut timed);
        let ours = times[0];
        let mut peer_times = times[1..].iter();
        for peer in &row.peers {
            let (peer_us, ratio) = match peer.verdict {
                Verdict::Wrong => ("not timed".to_string(), "-".to_string()),
                _ => {
                    let t = *peer_times.next().expect("one time per timed peer");
                    (format!("{t:.2}"), format!("{:.2}", ours / t))
                }
            };
            let check = match peer.verdict {
                Verdict::Agrees if peer.caveat.is_empty() => "same output as ours".to_string(),
                Verdict::Agrees => format!("{}; output checked", peer.caveat),
                Verdict::Wrong => "WRONG: output differs from the reference".to_string(),
                Verdict::Different => peer.caveat.to_string(),
            };
            println!(
                "| {} | {ours:.2} | {} | {peer_us} | {ratio} | {check} |",
                row.op, peer.name
            );
        }
    }
}
