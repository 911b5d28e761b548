//! The op-count floor: each instance's exact operation counts (the instrumented run of
//! `testkit/src/op_count.rs`) times the cost of each field operation measured in the same run,
//! and the permutation's measured time as a ratio to that floor.
//!
//! Two costs per operation, both on random elements:
//! - throughput: a pool of independent operand pairs, `out[i] = a[i] op b[i]`, so consecutive
//!   operations overlap as far as the CPU allows (the floor a perfectly scheduled permutation
//!   could reach);
//! - latency: a dependent chain `x = x op y` from a random start (the floor if nothing overlaps;
//!   the partial rounds' S-box on `x_0` is such a chain).
//!
//! Independent inputs: the permutation is timed over a pool of random states, each permuted from
//! its own copy per pass (no output feeds the next input); operations are timed as above. Every
//! number is the median of several samples. `cargo bench --bench floor`.

use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use std::hint::black_box;
use std::time::Duration;
use testkit::bench::{median_ns_per_item, random_elements, random_state, rng};
use testkit::op_count::{OpCounts, count_runtime};

/// Inputs per pool: enough that the branch predictor cannot learn the data-dependent branches
/// of a repeated input set (with a few dozen repeated inputs, times drop up to 3x).
const POOL: usize = 4096;
/// Samples per measurement (the median is reported).
const SAMPLES: usize = 21;
/// Minimum length of one sample.
const SAMPLE_TIME: Duration = Duration::from_millis(5);

/// Measured nanoseconds of one field operation.
#[derive(Clone, Copy, Debug)]
struct OpCosts {
    add: f64,
    double: f64,
    square: f64,
    mul: f64,
}

impl OpCosts {
    /// `counts` priced at these costs, in nanoseconds.
    fn floor(&self, c: &OpCounts) -> f64 {
        c.additions as f64 * self.add
            + c.doublings as f64 * self.double
            + c.squarings as f64 * self.square
            + c.multiplications as f64 * self.mul
    }
}

/// Throughput cost of `op` on independent operand pairs.
fn throughput<F: PrimeField + LinearLayers>(op: impl Fn(F, F) -> F) -> f64 {
    let mut inputs = rng();
    let a: Vec<F> = random_elements(&mut inputs, POOL);
    let b: Vec<F> = random_elements(&mut inputs, POOL);
    let mut out = vec![F::ZERO_ELEMENT; POOL];
    median_ns_per_item(SAMPLES, SAMPLE_TIME, POOL, || {
        for ((o, &x), &y) in out.iter_mut().zip(black_box(&a)).zip(black_box(&b)) {
            *o = op(x, y);
        }
        black_box(&mut out);
    })
}

/// Latency cost of `op` along a dependent chain of `POOL` steps from a random start.
fn latency<F: PrimeField + LinearLayers>(op: impl Fn(F, F) -> F) -> f64 {
    let mut inputs = rng();
    let starts: Vec<F> = random_elements(&mut inputs, POOL);
    let y: F = random_elements(&mut inputs, 1)[0];
    let mut next = 0;
    median_ns_per_item(SAMPLES, SAMPLE_TIME, POOL, || {
        let mut x = black_box(starts[next % POOL]);
        next += 1;
        for _ in 0..POOL {
            x = op(x, black_box(y));
        }
        black_box(x);
    })
}

/// Measures all four operations with `$measure` (`throughput` or `latency`), each on its own
/// monomorphised closure so that the operation is inlined into the timing loop.
macro_rules! op_costs {
    ($measure:ident, $f:ty) => {
        OpCosts {
            add: $measure::<$f>(|x, y| x.add(y)),
            double: $measure::<$f>(|x, _| x.doubled()),
            square: $measure::<$f>(|x, _| x.squared()),
            mul: $measure::<$f>(|x, y| x.mul(y)),
        }
    };
}

/// Prints one instance's floor line.
fn report<
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    name: &str,
    perm: &Poseidon2Ct<F, T, RF, RP, D>,
) {
    let counts = count_runtime(&perm.to_params());
    let tp = op_costs!(throughput, F);
    let lat = op_costs!(latency, F);
    let mut inputs = rng();
    let pool: Vec<[F; T]> = (0..POOL).map(|_| random_state(&mut inputs)).collect();
    let perm_ns = median_ns_per_item(SAMPLES, SAMPLE_TIME, POOL, || {
        for state in black_box(&pool) {
            black_box(perm.permutation(state));
        }
    });
    let (floor_tp, floor_lat) = (tp.floor(&counts), lat.floor(&counts));
    println!(
        "| {name} | {:.2} / {:.2} / {:.2} / {:.2} | {:.2} / {:.2} / {:.2} / {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
        tp.add,
        tp.double,
        tp.square,
        tp.mul,
        lat.add,
        lat.double,
        lat.square,
        lat.mul,
        perm_ns / 1e3,
        floor_tp / 1e3,
        perm_ns / floor_tp,
        floor_lat / 1e3,
        perm_ns / floor_lat,
    );
}

/// One line per instance: `name => const-generic constructor`.
macro_rules! floor_instances {
    ($($name:literal => $ct:expr;)*) => {
        fn main() {
            println!("| instance | throughput ns add / dbl / sqr / mul | latency ns add / dbl / sqr / mul | permutation µs | floor (throughput) µs | ratio | floor (latency) µs | ratio |");
            println!("|---|---|---|---|---|---|---|---|");
            $(report($name, &$ct);)*
        }
    };
}

use fast_poseidon2::instances::{bls12_381, bn254, goldilocks};

floor_instances! {
    "BN254 t=3" => bn254::ct::t3();
    "BLS12-381 t=8" => bls12_381::ct::t8();
    "Goldilocks t=12" => goldilocks::ct::t12();
}
