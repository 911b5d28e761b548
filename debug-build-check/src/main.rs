//! Every shipped instance's batch permutation, on every backend this CPU runs, in an
//! unoptimised build and in a thread with a [`STACK`]-byte stack: each batch must equal the
//! single-state permutation of each state. A kernel whose frame outgrew the stack aborts the
//! process (the failure this guards against: a user's `cargo run` of a 31-bit batch overflowing
//! the 8 MiB main stack).

use fast_poseidon2::BatchBackend;
use fast_poseidon2::field::PrimeField;

/// The stack of the checking thread: half of the 2 MiB a spawned `std` thread (or a rayon
/// worker) gets by default.
const STACK: usize = 1 << 20;

/// The backends tried on each instance (those that do not run its field here are skipped).
const BACKENDS: [BatchBackend; 4] = [
    BatchBackend::Avx512Ifma,
    BatchBackend::Avx512,
    BatchBackend::Avx2,
    BatchBackend::Portable,
];

/// States per batch: two whole groups of the widest kernel (16 states) and a partial one.
const STATES: usize = 37;

/// Distinct pseudo-random elements (xorshift64 bytes, reduced).
struct Elements(u64);

impl Elements {
    fn next<F: PrimeField>(&mut self) -> F {
        let mut bytes = [0u8; 40];
        for chunk in bytes.chunks_mut(8) {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            chunk.copy_from_slice(&self.0.to_be_bytes()[..chunk.len()]);
        }
        F::from_be_bytes_reduced(&bytes)
    }
}

/// Runs `states` through `batch` on each backend and compares with `single`; returns how many
/// backends ran. Panics on a difference.
fn check<F: PrimeField, const T: usize>(
    name: &str,
    elements: &mut Elements,
    single: impl Fn(&[F; T]) -> [F; T],
    batch: impl Fn(BatchBackend, &mut [[F; T]]) -> bool,
) -> usize {
    let states: Vec<[F; T]> = (0..STATES)
        .map(|_| core::array::from_fn(|_| elements.next()))
        .collect();
    let expected: Vec<[F; T]> = states.iter().map(&single).collect();
    let mut ran = 0;
    for backend in BACKENDS {
        let mut got = states.clone();
        if batch(backend, &mut got) {
            assert!(
                got == expected,
                "{name}: {backend:?} batch differs from the permutation"
            );
            ran += 1;
        }
    }
    println!("{name}: {ran} backends");
    ran
}

fn run() {
    let mut elements = Elements(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0;
    // One arm per registry macro's argument list (Poseidon2: `ct` is a value; circom: a path to
    // a large `const`, borrowed), both to `@run` with a reference to the permutation.
    macro_rules! batch_check {
        ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $runtime:expr) => {
            batch_check!(@run $name, &$ct)
        };
        ($name:ident, $t:literal, $rp:literal, $ct:path, $runtime:expr) => {
            batch_check!(@run $name, &$ct)
        };
        (@run $name:ident, $ct:expr) => {{
            let ct = $ct;
            runs += check(
                stringify!($name),
                &mut elements,
                |s| ct.permutation(s),
                |backend, states| ct.permute_batch_on(backend, states),
            );
        }};
    }
    testkit::for_each_instance!(batch_check);
    testkit::for_each_circom_instance!(batch_check);
    println!("{runs} instance-backend pairs equal to the single-state permutation");
}

fn main() {
    let checker = std::thread::Builder::new()
        .name("debug-build-check".into())
        .stack_size(STACK)
        .spawn(run)
        .expect("spawn the checking thread");
    if checker.join().is_err() {
        std::process::exit(1);
    }
}
