//! Helpers shared by the benches: seeded random inputs and robust timing.

use fast_poseidon2::field::{MAX_FIELD_BYTES, PrimeField};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
#[cfg(any(unix, windows))]
use {cpu_time::ThreadTime, std::time::Duration};

/// The RNG every bench draws its inputs from: seeded, so two runs time the same inputs.
pub fn rng() -> StdRng {
    StdRng::seed_from_u64(0x506f_7365_6964_6f6e) // "Poseidon" in ASCII
}

/// A uniformly random element (random bytes of the canonical length, reduced mod p).
pub fn random_element<F: PrimeField>(rng: &mut impl RngCore) -> F {
    let mut bytes = [0u8; MAX_FIELD_BYTES];
    rng.fill_bytes(&mut bytes[..F::BYTES]);
    F::from_be_bytes_reduced(&bytes[..F::BYTES])
}

/// A random state of width `T`.
pub fn random_state<F: PrimeField, const T: usize>(rng: &mut impl RngCore) -> [F; T] {
    core::array::from_fn(|_| random_element(rng))
}

/// `n` random elements.
pub fn random_elements<F: PrimeField>(rng: &mut impl RngCore, n: usize) -> Vec<F> {
    (0..n).map(|_| random_element(rng)).collect()
}

/// Median nanoseconds of one call of `batch` divided by `per_batch`, over `samples` samples;
/// each sample repeats `batch` until it has run for at least `min_sample`.
///
/// Time is this thread's CPU time, not wall time: on a machine shared with other jobs, time
/// spent descheduled is not counted.
#[cfg(any(unix, windows))]
pub fn median_ns_per_item(
    samples: usize,
    min_sample: Duration,
    per_batch: usize,
    mut batch: impl FnMut(),
) -> f64 {
    // Warm up and find how many batches fill one sample.
    let mut reps = 1u32;
    loop {
        let start = ThreadTime::now();
        for _ in 0..reps {
            batch();
        }
        if start.elapsed() >= min_sample {
            break;
        }
        reps *= 2;
    }
    let mut times: Vec<f64> = (0..samples)
        .map(|_| {
            let start = ThreadTime::now();
            for _ in 0..reps {
                batch();
            }
            start.elapsed().as_secs_f64() * 1e9 / f64::from(reps) / per_batch as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[samples / 2]
}
