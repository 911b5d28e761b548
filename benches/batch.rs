//! Batch vs scalar throughput, for every shipped instance: the same `N` states permuted one by
//! one with the ct permutation, and with `permute_batch` (the run-time chosen backend, printed
//! first; also on 3 states, below every backend's vector group, which run on the scalar path),
//! then every other backend the CPU runs for the field, forced (for Goldilocks on an
//! AVX-512 CPU: the AVX2 kernel). Throughput is in permutations, so criterion's
//! per-element times compare directly.
//!
//! Batch rows are timed in thread CPU time (the machine these numbers come from is shared); the
//! Merkle rows in wall time, since rayon's work runs on other threads. The Merkle group compares one thread with all of rayon's threads; without the `parallel`
//! feature both rows are single-threaded.
//!
//! `cargo bench --bench batch` (add `RUSTFLAGS="-C target-cpu=native"` for ark's MULX/ADX scalar
//! arithmetic; the batch backend needs no flags).

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fast_poseidon2::BatchBackend;
use fast_poseidon2::goldilocks::GoldilocksFast;
use fast_poseidon2::instances::bn254;
use std::hint::black_box;
use std::time::Duration;

/// Thread CPU time: on a shared machine, time spent descheduled is not counted, so scalar and
/// batch rows measured minutes apart stay comparable.
struct ThreadCpu;

impl Measurement for ThreadCpu {
    type Intermediate = cpu_time::ThreadTime;
    type Value = Duration;
    fn start(&self) -> Self::Intermediate {
        cpu_time::ThreadTime::now()
    }
    fn end(&self, start: Self::Intermediate) -> Duration {
        start.elapsed()
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &Microseconds
    }
}

/// Times in µs, throughputs in elements per second.
struct Microseconds;

impl ValueFormatter for Microseconds {
    fn scale_values(&self, _typical: f64, values: &mut [f64]) -> &'static str {
        values.iter_mut().for_each(|v| *v /= 1e3);
        "µs (thread CPU)"
    }
    fn scale_throughputs(&self, _typical: f64, t: &Throughput, values: &mut [f64]) -> &'static str {
        let n = match *t {
            Throughput::Elements(n) | Throughput::Bytes(n) | Throughput::BytesDecimal(n) => n,
        };
        values.iter_mut().for_each(|v| *v = n as f64 * 1e9 / *v);
        "elem/s (thread CPU)"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// States per measured batch.
const N: usize = 1024;

/// States of the small batch row: fewer than the smallest vector group of any backend (4).
const SMALL: usize = 3;

/// Rows `scalar` and `batch` (the run-time chosen backend) on `N` states, `batch` on `SMALL`
/// states, then one `batch_<Backend>` row per
/// other SIMD backend that runs the field on this CPU, forced with `permute_batch_on`.
macro_rules! bench_width {
    ($c:expr, $name:expr, $field:ty, $perm:expr, $t:literal) => {{
        let perm = $perm;
        let states: Vec<[$field; $t]> = (0..N as u64)
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
        // Fewer states than any backend's vector group: the scalar path inside `permute_batch`.
        group.throughput(Throughput::Elements(SMALL as u64));
        group.bench_function(BenchmarkId::new("batch", SMALL), |b| {
            let mut s = states[..SMALL].to_vec();
            b.iter(|| perm.permute_batch(black_box(&mut s)))
        });
        group.throughput(Throughput::Elements(N as u64));
        let chosen = fast_poseidon2::batch_backend::<$field>();
        for backend in [
            BatchBackend::Avx512Ifma,
            BatchBackend::Avx512,
            BatchBackend::Avx2,
        ] {
            if backend != chosen && perm.permute_batch_on(backend, &mut []) {
                group.bench_function(BenchmarkId::new(format!("batch_{backend:?}"), N), |b| {
                    let mut s = states.clone();
                    b.iter(|| perm.permute_batch_on(backend, black_box(&mut s)))
                });
            }
        }
        group.finish();
    }};
}

fn batch(c: &mut Criterion<ThreadCpu>) {
    println!(
        "batch backends: BN254 {:?}, Goldilocks {:?}",
        fast_poseidon2::batch_backend::<ark_bn254::Fr>(),
        fast_poseidon2::batch_backend::<GoldilocksFast>()
    );
    macro_rules! bench {
        ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
            bench_width!(
                c,
                stringify!($name),
                $field,
                fast_poseidon2::instances::$module::ct::$ct(),
                $t
            );
        };
    }
    testkit::for_each_instance!(@spec bench);
}

/// `merkle_root` over `2^20` BN254 leaves (t = 3, issue 7's size): on one thread, and with the `parallel`
/// feature on rayon's global pool (all cores) for the speed-up.
fn merkle(c: &mut Criterion) {
    const LEAVES: usize = 1 << 20;
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

criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = batch
}
criterion_group!(wall, merkle);
criterion_main!(cpu, wall);
