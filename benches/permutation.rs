//! The permutation of every shipped instance, on both paths: the const-generic
//! `Poseidon2Ct::permute_mut` ("ct") and the runtime-width `Poseidon2::permute_mut` ("flexible").
//!
//! Independent inputs: every iteration permutes a fresh random state drawn by criterion's
//! `iter_batched` setup (outside the timed region), so no state carries from one iteration
//! to the next. `cargo bench --bench permutation`.
//!
//! With `--features p3` (and the three fields' default features), the group `plonky3_adapter/{instance}` times the seven Plonky3
//! instances three ways on the same kind of input: this crate's `permute_mut` on `[F; t]`
//! ("ct"), the same through `adapters::plonky3` on `[p3 field; t]` ("adapter": the difference is
//! the boundary's conversions), and Plonky3 0.8.0's own scalar permutation ("plonky3"); then
//! one state of Plonky3's packed type through the adapter (its lanes as one batch of ours) and
//! through Plonky3's packed permutation ("adapter_packed_N_lanes", "plonky3_packed_N_lanes"; N
//! is 1 in a default build, 16 for the 31-bit fields with `-C target-cpu=native` on AVX-512).

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

/// The boundary cost of `adapters::plonky3`: ours, ours through the adapter, Plonky3's own.
#[cfg(all(
    feature = "p3",
    feature = "babybear",
    feature = "koalabear",
    feature = "goldilocks"
))]
fn plonky3_adapter(c: &mut Criterion) {
    use fast_poseidon2::adapters::plonky3::{self as adapter, Plonky3Field, Plonky3Poseidon2};
    use p3_field::PackedValue;
    use p3_symmetric::Permutation;

    fn bench<
        F: Plonky3Field + PrimeField,
        const T: usize,
        const RF: usize,
        const RP: usize,
        const D: u64,
    >(
        c: &mut Criterion,
        name: &str,
        ours: Plonky3Poseidon2<Poseidon2Ct<F, T, RF, RP, D>>,
        theirs: impl Permutation<[F::P3; T]> + Permutation<[Packed<F>; T]>,
    ) {
        let mut group = c.benchmark_group(format!("plonky3_adapter/{name}"));
        let mut inputs = rng();
        group.bench_function("ct", |b| {
            b.iter_batched(
                || random_state::<F, T>(&mut inputs),
                |state| ours.inner().permutation(&state),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("adapter", |b| {
            b.iter_batched(
                || random_state::<F, T>(&mut inputs).map(F::to_p3),
                |state| ours.permute(state),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("plonky3", |b| {
            b.iter_batched(
                || random_state::<F, T>(&mut inputs).map(F::to_p3),
                |state| theirs.permute(state),
                BatchSize::SmallInput,
            )
        });
        let lanes = <Packed<F> as PackedValue>::WIDTH;
        group.bench_function(format!("batch_{lanes}_states"), |b| {
            b.iter_batched(
                || core::array::from_fn::<_, 16, _>(|_| random_state::<F, T>(&mut inputs)),
                |mut states| {
                    ours.inner().permute_batch(&mut states[..lanes]);
                    states
                },
                BatchSize::SmallInput,
            )
        });
        // One state of Plonky3's packed type (as many lanes as the build's target features
        // give it: 16 for the 31-bit fields with AVX-512, 1 in a default build).
        let mut packed = || -> [Packed<F>; T] {
            core::array::from_fn(|_| {
                Packed::<F>::from_fn(|_| random_state::<F, 1>(&mut inputs)[0].to_p3())
            })
        };
        group.bench_function(format!("adapter_packed_{lanes}_lanes"), |b| {
            b.iter_batched(
                &mut packed,
                |state| ours.permute(state),
                BatchSize::SmallInput,
            )
        });
        group.bench_function(format!("plonky3_packed_{lanes}_lanes"), |b| {
            b.iter_batched(
                &mut packed,
                |state| theirs.permute(state),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }

    /// Plonky3's packed type of `F`'s twin.
    type Packed<F> = <<F as Plonky3Field>::P3 as p3_field::Field>::Packing;

    bench(
        c,
        "babybear_t16",
        adapter::BABYBEAR_T16,
        p3_baby_bear::default_babybear_poseidon2_16(),
    );
    bench(
        c,
        "babybear_t24",
        adapter::BABYBEAR_T24,
        p3_baby_bear::default_babybear_poseidon2_24(),
    );
    bench(
        c,
        "koalabear_t16",
        adapter::KOALABEAR_T16,
        p3_koala_bear::default_koalabear_poseidon2_16(),
    );
    bench(
        c,
        "koalabear_t24",
        adapter::KOALABEAR_T24,
        p3_koala_bear::default_koalabear_poseidon2_24(),
    );
    bench(
        c,
        "goldilocks_t8",
        adapter::GOLDILOCKS_T8,
        p3_goldilocks::default_goldilocks_poseidon2_8(),
    );
    bench(
        c,
        "goldilocks_t12",
        adapter::GOLDILOCKS_T12,
        p3_goldilocks::default_goldilocks_poseidon2_12(),
    );
    bench(
        c,
        "goldilocks_t16",
        adapter::GOLDILOCKS_T16,
        p3_goldilocks::default_goldilocks_poseidon2_16(),
    );
}

#[cfg(not(all(
    feature = "p3",
    feature = "babybear",
    feature = "koalabear",
    feature = "goldilocks"
)))]
criterion_group!(benches, permutations);
#[cfg(all(
    feature = "p3",
    feature = "babybear",
    feature = "koalabear",
    feature = "goldilocks"
))]
criterion_group!(benches, permutations, plonky3_adapter);
criterion_main!(benches);
