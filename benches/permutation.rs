//! The permutation of every shipped instance, on both paths: the const-generic
//! `Poseidon2Ct::permute_mut` ("ct") and the runtime-width `Poseidon2::permute_mut` ("flexible").
//!
//! Independent inputs: every iteration permutes a fresh random state drawn by criterion's
//! `iter_batched` setup (outside the timed region), so no state carries from one iteration
//! to the next. `cargo bench --bench permutation`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use fast_poseidon2::Poseidon2;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use std::hint::black_box;
use testkit::bench::{random_state, rng};

/// Benches one instance on both paths under the group `permutation/{name}`.
fn bench_instance<
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    c: &mut Criterion,
    name: &str,
    ct: &Poseidon2Ct<F, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) {
    let mut group = c.benchmark_group(format!("permutation/{name}"));
    let mut inputs = rng();
    group.bench_function("ct", |b| {
        b.iter_batched(
            || random_state::<F, T>(&mut inputs),
            |state| ct.permutation(&state),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("flexible", |b| {
        b.iter_batched_ref(
            || random_state::<F, T>(&mut inputs).to_vec(),
            |state| {
                flexible.permute_mut(state).expect("width");
                black_box(state);
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// Benches every shipped instance (`for_each_instance!`).
fn permutations(c: &mut Criterion) {
    macro_rules! bench {
        ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
            bench_instance(c, stringify!($name), &$ct, $flexible);
        };
    }
    testkit::for_each_instance!(bench);
}

criterion_group!(benches, permutations);
criterion_main!(benches);
