//! The runtime-width cached getter `poseidon2_tN()` against the const-generic `ct::tN()` of
//! every shipped instance, and `permute_batch` of 8 and 64 states, in ns per permutation:
//! each the least of 30 rounds of chained calls (the state carries from one call to the next,
//! so the time is the latency of one permutation), both paths in the same run so that their
//! ratio holds on a shared machine. `cargo bench --bench runtime_vs_ct [-- PREFIX ...]`.

use fast_poseidon2::field::PrimeField;
use std::hint::black_box;
use std::time::Instant;

/// Least ns per call of `f` over 30 rounds of `n` calls.
fn least_ns<S, F: FnMut(&mut S)>(mut s: S, n: usize, mut f: F) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..30 {
        let start = Instant::now();
        for _ in 0..n {
            f(black_box(&mut s));
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / n as f64);
    }
    black_box(s);
    best
}

/// The state `[1, 2, ..., t]`.
fn state<F: PrimeField, const T: usize>() -> [F; T] {
    core::array::from_fn(|i| F::from_u64(i as u64 + 1))
}

fn main() {
    // `cargo bench` passes `--bench`; every other argument is a name prefix to keep.
    let prefixes: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted =
        |name: &str| prefixes.is_empty() || prefixes.iter().any(|p| name.starts_with(p.as_str()));
    println!(
        "| instance | ct ns | runtime ns | runtime / ct | batch of 8, ns per state | batch of 64, ns per state |"
    );
    println!("|---|---|---|---|---|---|");
    macro_rules! row {
        ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
            if wanted(stringify!($name)) {
                let ct = fast_poseidon2::instances::$module::ct::$ct();
                let runtime = fast_poseidon2::instances::$module::$getter();
                let s0 = state::<$field, $t>();
                let ct_ns = least_ns(s0, 2000, |s| ct.permute_mut(s));
                let runtime_ns = least_ns(s0, 2000, |s| runtime.permute_mut(s).expect("width"));
                let batch8 = least_ns(vec![s0; 8], 200, |s| ct.permute_batch(s)) / 8.0;
                let batch64 = least_ns(vec![s0; 64], 30, |s| ct.permute_batch(s)) / 64.0;
                println!(
                    "| {} | {ct_ns:.0} | {runtime_ns:.0} | {:.3} | {batch8:.0} | {batch64:.0} |",
                    stringify!($name),
                    runtime_ns / ct_ns
                );
            }
        };
    }
    testkit::for_each_instance!(@spec row);
}
