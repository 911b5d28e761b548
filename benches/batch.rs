//! Batch vs scalar throughput: the same `N` states permuted one by one with the ct permutation,
//! and with `permute_batch` (the run-time chosen backend, printed first). Throughput is in
//! permutations, so criterion's per-element times compare directly.
//!
//! The Merkle group compares one thread with all of rayon's threads; without the `parallel`
//! feature both rows are single-threaded.
//!
//! `cargo bench --bench batch` (add `RUSTFLAGS="-C target-cpu=native"` for ark's MULX/ADX scalar
//! arithmetic; the batch backend needs no flags).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fast_poseidon2::instances::bn254;
use std::hint::black_box;

/// States per measured batch.
const N: usize = 1024;

macro_rules! bench_width {
    ($c:expr, $name:literal, $ctor:path, $t:literal) => {{
        let perm = $ctor();
        let states: Vec<[ark_bn254::Fr; $t]> = (0..N as u64)
            .map(|i| core::array::from_fn(|j| (i * $t as u64 + j as u64).into()))
            .collect();
        let mut group = $c.benchmark_group($name);
        group.throughput(Throughput::Elements(N as u64));
        group.bench_function(BenchmarkId::new("scalar", N), |b| {
            let mut s = states.clone();
            b.iter(|| {
                for state in s.iter_mut() {
                    perm.permute_mut(black_box(state));
                }
            })
        });
        group.bench_function(BenchmarkId::new("batch", N), |b| {
            let mut s = states.clone();
            b.iter(|| perm.permute_batch(black_box(&mut s)))
        });
        group.finish();
    }};
}

fn batch(c: &mut Criterion) {
    println!(
        "batch backend for BN254: {:?}",
        fast_poseidon2::batch_backend::<ark_bn254::Fr>()
    );
    bench_width!(c, "bn254_t3", bn254::ct::t3, 3);
    bench_width!(c, "bn254_t8", bn254::ct::t8, 8);
    bench_width!(c, "bn254_t12", bn254::ct::t12, 12);
}

/// `merkle_root` over `2^16` BN254 leaves (t = 3): on one thread, and with the `parallel`
/// feature on rayon's global pool (all cores) for the speed-up.
fn merkle(c: &mut Criterion) {
    const LEAVES: usize = 1 << 16;
    let perm = bn254::ct::t3();
    let leaves: Vec<ark_bn254::Fr> = (0..LEAVES as u64).map(Into::into).collect();
    let mut group = c.benchmark_group("bn254_t3_merkle_root");
    group.sample_size(10);
    group.throughput(Throughput::Elements(LEAVES as u64 - 1));
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    group.bench_function(BenchmarkId::new("1_thread", LEAVES), |b| {
        b.iter(|| one_thread.install(|| perm.merkle_root(black_box(&leaves))))
    });
    group.bench_function(
        BenchmarkId::new(format!("{}_threads", rayon::current_num_threads()), LEAVES),
        |b| b.iter(|| perm.merkle_root(black_box(&leaves))),
    );
    group.finish();
}

criterion_group!(benches, batch, merkle);
criterion_main!(benches);
