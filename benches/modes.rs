//! The modes: `compress` (2-to-1 for t = 3, (t-1)-to-1 in general) on both paths, the sponge
//! `hash` of 1 to 16 elements, `hashv_bytes` of two 32-byte inputs, and a Merkle root over 2^16
//! leaves built from `compress`.
//!
//! Independent inputs: every iteration draws fresh random inputs in criterion's `iter_batched`
//! setup (outside the timed region), so no output feeds a later input. The Merkle root hashes
//! the same 2^16 random leaves each iteration; nothing carries between iterations, and 65,535
//! compressions per iteration are far more than any branch predictor can learn.
//! `cargo bench --bench modes`.

use ark_bn254::Fr;
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use fast_poseidon2::bytes::Endianness;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::instances::bn254;
use std::hint::black_box;
use testkit::bench::{random_elements, random_state, rng};

/// `compress` of one instance on the const-generic path (`$n = t - 1` inputs) and the runtime path.
macro_rules! bench_compress {
    ($c:expr, $name:literal, $ct:expr, $flexible:expr, $field:ty, $n:literal) => {{
        let ct = $ct;
        let flexible = $flexible;
        let mut group = $c.benchmark_group(concat!("compress/", $name));
        let mut inputs = rng();
        group.bench_function("ct", |b| {
            b.iter_batched(
                || random_state::<$field, $n>(&mut inputs),
                |s| ct.compress(&s),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("flexible", |b| {
            b.iter_batched(
                || random_state::<$field, $n>(&mut inputs),
                |s| flexible.compress(&s).expect("t - 1 inputs"),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }};
}

fn compress(c: &mut Criterion) {
    bench_compress!(c, "bn254_t3", bn254::ct::t3(), bn254::poseidon2_t3(), Fr, 2);
    bench_compress!(c, "bn254_t4", bn254::ct::t4(), bn254::poseidon2_t4(), Fr, 3);
}

/// The sponge over BN254 t = 4 with rate 3 and one output (Noir's `Poseidon2::hash`), on 1 to
/// 16 elements.
fn hash(c: &mut Criterion) {
    let perm = bn254::ct::t4();
    let mut group = c.benchmark_group("hash/bn254_t4_rate3");
    let mut inputs = rng();
    for n in [1, 2, 3, 4, 8, 12, 16] {
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter_batched(
                || random_elements::<Fr>(&mut inputs, n),
                |xs| perm.hash::<3, 1>(&xs).expect("non-empty"),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// `hashv_bytes` of two canonical 32-byte big-endian inputs on BN254 t = 3.
fn hashv_bytes(c: &mut Criterion) {
    let perm = bn254::ct::t3();
    let mut inputs = rng();
    let encode = |x: Fr| {
        let mut bytes = [0u8; 32];
        x.write_canonical_be_bytes(&mut bytes);
        bytes
    };
    let mut draw = move || {
        let [a, b] = random_state::<Fr, 2>(&mut inputs);
        (encode(a), encode(b))
    };
    c.bench_function("hashv_bytes/bn254_t3/2x32", |b| {
        b.iter_batched(
            &mut draw,
            |(x, y)| {
                perm.hashv_bytes(Endianness::BigEndian, &[&x, &y])
                    .expect("canonical")
            },
            BatchSize::SmallInput,
        )
    });
}

/// The root of a binary Merkle tree over `leaves` (a power of two), each parent
/// `compress([left, right])`.
fn merkle_root(perm: &bn254::Bn254T3, leaves: &[Fr], level: &mut Vec<Fr>) -> Fr {
    level.clear();
    level.extend_from_slice(leaves);
    while level.len() > 1 {
        let half = level.len() / 2;
        for i in 0..half {
            level[i] = perm.compress(&[level[2 * i], level[2 * i + 1]]);
        }
        level.truncate(half);
    }
    level[0]
}

fn merkle(c: &mut Criterion) {
    let perm = bn254::ct::t3();
    let leaves: Vec<Fr> = random_elements(&mut rng(), 1 << 16);
    let mut level = Vec::with_capacity(leaves.len());
    let mut group = c.benchmark_group("merkle_root");
    group.sample_size(10);
    group.bench_function("bn254_t3/2^16_leaves", |b| {
        b.iter(|| merkle_root(&perm, black_box(&leaves), &mut level))
    });
    group.finish();
}

criterion_group!(benches, compress, hash, hashv_bytes, merkle);
criterion_main!(benches);
