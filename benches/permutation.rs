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

/// Benches one instance on both paths under the group `permutation/{name}`. The two paths may
/// run on different field types (Goldilocks: `GoldilocksFast` for ct, ark-ff for flexible).
fn bench_instance<
    F: PrimeField + LinearLayers,
    G: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    c: &mut Criterion,
    name: &str,
    ct: &Poseidon2Ct<F, T, RF, RP, D>,
    flexible: &Poseidon2<G>,
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
            || random_state::<G, T>(&mut inputs).to_vec(),
            |state| {
                flexible.permute_mut(state).expect("width");
                black_box(state);
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// One line per instance: `name => ct constructor, cached runtime getter`.
macro_rules! bench_instances {
    ($($name:literal => $ct:expr, $flexible:expr;)*) => {
        fn permutations(c: &mut Criterion) {
            $(bench_instance(c, $name, &$ct, $flexible);)*
        }
    };
}

use fast_poseidon2::instances::{bls12_381, bn254, goldilocks};

bench_instances! {
    "bn254_t2" => bn254::ct::t2(), bn254::poseidon2_t2();
    "bn254_t3" => bn254::ct::t3(), bn254::poseidon2_t3();
    "bn254_t4" => bn254::ct::t4(), bn254::poseidon2_t4();
    "bn254_t8" => bn254::ct::t8(), bn254::poseidon2_t8();
    "bn254_t12" => bn254::ct::t12(), bn254::poseidon2_t12();
    "bls12_381_t2" => bls12_381::ct::t2(), bls12_381::poseidon2_t2();
    "bls12_381_t3" => bls12_381::ct::t3(), bls12_381::poseidon2_t3();
    "bls12_381_t4" => bls12_381::ct::t4(), bls12_381::poseidon2_t4();
    "bls12_381_t8" => bls12_381::ct::t8(), bls12_381::poseidon2_t8();
    "bls12_381_t12" => bls12_381::ct::t12(), bls12_381::poseidon2_t12();
    "goldilocks_t8" => goldilocks::ct::t8(), goldilocks::poseidon2_t8();
    "goldilocks_t12" => goldilocks::ct::t12(), goldilocks::poseidon2_t12();
    "goldilocks_t16" => goldilocks::ct::t16(), goldilocks::poseidon2_t16();
    "goldilocks_t20" => goldilocks::ct::t20(), goldilocks::poseidon2_t20();
}

criterion_group!(benches, permutations);
criterion_main!(benches);
