//! No branch and no memory address computed from a secret state value, on the scalar paths of
//! every shipped instance (the ctgrind method): `secret_state_run` marks each state
//! *undefined* for valgrind's memcheck (client request `MAKE_MEM_UNDEFINED`) and runs the
//! permutations, the modes that hash secrets (sponge, compression, Merkle root) and the
//! Poseidon1 hashes on it. Memcheck then reports every conditional jump and every memory address
//! that depends on the state ("Conditional jump or move depends on uninitialised value(s)",
//! "Use of uninitialised value of size 8"); a conditional *move* (`cmov`, a select) is not
//! reported, its result just stays undefined, which is what a constant-time select is.
//! `scalar_paths_are_constant_time_under_memcheck` runs this binary's `secret_state_run` under
//! `valgrind --error-exitcode` and fails on any report.
//!
//! Needs `valgrind` on `PATH` (Debian: `apt-get install valgrind`; `.ci/run` installs it;
//! `FAST_POSEIDON2_NO_VALGRIND=1` skips the check where it cannot be installed). The AVX2
//! batch kernels (31-bit Montgomery and Goldilocks) run here too, on 24 secret states forced
//! onto them with `permute_batch_on`; the AVX-512 kernels are not covered: valgrind has no
//! AVX-512, so under valgrind the crate's runtime detection never picks them (their notes are
//! in their docs and the statistical test in `scripts/`).
#![cfg(all(feature = "std", target_arch = "x86_64", target_os = "linux"))]

use fast_poseidon2::instances::circom_bn254;
use fast_poseidon2::instances::stark252;
use fast_poseidon2::stark252::Felt252;
use std::process::Command;
use testkit::bench::{random_elements, random_state, rng};
use testkit::{for_each_circom_instance, for_each_instance, for_each_stark252_instance};

/// Valgrind client requests (valgrind.h, memcheck.h): the "special instruction" preamble that
/// valgrind recognises and a native CPU executes as no-ops (`rol` of `rdi` by 128 bits in all,
/// `xchg rbx, rbx`). Outside valgrind each request returns its default value.
#[allow(unsafe_code)]
mod memcheck {
    const RUNNING_ON_VALGRIND: u64 = 0x1001;
    const MC: u64 = (b'M' as u64) << 24 | (b'C' as u64) << 16;
    const MAKE_MEM_UNDEFINED: u64 = MC + 1;
    const MAKE_MEM_DEFINED: u64 = MC + 2;

    fn request(args: [u64; 6], default: u64) -> u64 {
        let result;
        // SAFETY: the instructions only rotate `rdi` by a multiple of 64 bits and exchange
        // `rbx` with itself (no architectural effect); valgrind reads the request block at
        // `rax`, which lives for the whole call, and writes the result into `rdx`.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") default => result,
                inout("rdi") 0u64 => _,
                options(nostack),
            );
        }
        result
    }

    /// Whether this process runs under valgrind.
    pub fn running() -> bool {
        request([RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0], 0) != 0
    }

    /// Marks the bytes of `value` secret (undefined for memcheck).
    pub fn secret<T: ?Sized>(value: &T) {
        let len = core::mem::size_of_val(value) as u64;
        let at = value as *const T as *const u8 as u64;
        request([MAKE_MEM_UNDEFINED, at, len, 0, 0, 0], 0);
    }

    /// Marks the bytes of `value` public again (defined), to inspect a result.
    pub fn public<T: ?Sized>(value: &T) {
        let len = core::mem::size_of_val(value) as u64;
        let at = value as *const T as *const u8 as u64;
        request([MAKE_MEM_DEFINED, at, len, 0, 0, 0], 0);
    }
}

/// Runs `f` on a secret copy of the elements `x` and returns its result made public (so that the
/// comparison with the public run, outside the secret region, is not itself reported).
fn on_secret<E: Clone, R>(x: &[E], f: impl FnOnce(Vec<E>) -> Vec<R>) -> Vec<R> {
    let secret = x.to_vec();
    memcheck::secret(secret.as_slice());
    let y = f(secret);
    memcheck::public(y.as_slice());
    y
}

/// The run memcheck watches: each shipped instance's permutation (both types, single states and
/// a batch of 3 on the backend valgrind's CPU gets: portable), sponge hash,
/// compression, Merkle root over secret leaves, the circom Poseidon1 hashes, and the Stark252
/// permutations and Starknet hashes, on secret
/// states; every result equals the same call on the public input (a wrong `secret` marking or
/// a broken run would show here).
#[test]
#[ignore = "run under valgrind by scalar_paths_are_constant_time_under_memcheck"]
fn secret_state_run() {
    let mut rng = rng();
    macro_rules! check {
        ($name:ident, $t:expr, $digest:expr, $group:expr, $ct:expr, $cached:expr) => {{
            let (ct, cached) = ($ct, $cached);
            let name = stringify!($name);
            let same = |x: &[_], f: &dyn Fn(Vec<_>) -> Vec<_>| {
                assert_eq!(on_secret(x, f), f(x.to_vec()), "{name}");
            };
            let state = random_state::<_, $t>(&mut rng);
            same(&state, &|s| ct.permutation(&s.try_into().unwrap()).to_vec());
            same(&state, &|s| cached.permutation(&s).unwrap());
            let states = [
                state,
                random_state::<_, $t>(&mut rng),
                random_state::<_, $t>(&mut rng),
            ];
            println!("{name} batch backend: {:?}", backend_of(&state));
            same(states.as_flattened(), &|s| {
                let mut batch = s.as_chunks::<$t>().0.to_vec();
                ct.permute_batch(&mut batch);
                batch.concat()
            });
            // Whole vector groups on the AVX2 kernel, where it runs this field on valgrind's CPU
            // (which has AVX2 and no AVX-512): 24 states, two interleaved groups and one alone
            // on the 31-bit Montgomery kernel (8 lanes), three interleaved pairs on Goldilocks'
            // (4 lanes).
            let avx2 = fast_poseidon2::BatchBackend::Avx2;
            if ct.permute_batch_on(avx2, &mut []) {
                println!("{name}: AVX2 batch kernel on 24 secret states");
                let group: Vec<[_; $t]> = (0..24).map(|_| random_state(&mut rng)).collect();
                same(group.as_flattened(), &|s| {
                    let mut batch = s.as_chunks::<$t>().0.to_vec();
                    assert!(ct.permute_batch_on(avx2, &mut batch));
                    batch.concat()
                });
            }
            let leaves = random_elements(&mut rng, 4 * $group);
            let rate = $t - $digest;
            same(&leaves, &|x| cached.hash(&x, rate, $digest).unwrap());
            same(&leaves[..$group], &|x| {
                let children = x.as_chunks::<$digest>().0;
                cached
                    .compress_digests(children)
                    .map_or(vec![], |d| d.to_vec())
            });
            same(&leaves, &|x| {
                let children = x.as_chunks::<$digest>().0;
                cached
                    .merkle_root_digests(children)
                    .map_or(vec![], |d| d.to_vec())
            });
        }};
    }
    assert!(
        memcheck::running(),
        "run through scalar_paths_are_constant_time_under_memcheck"
    );
    // Which scalar arithmetic valgrind's virtual CPU selects (the MULX/ADX kernel needs both).
    let mulx_adx = is_x86_feature_detected!("bmi2") && is_x86_feature_detected!("adx");
    println!("MULX/ADX products: {mulx_adx}");
    for_each_instance!(check);
    macro_rules! circom {
        ($name:ident, $t:expr, $rp:expr, $ct:expr, $cached:expr) => {{
            let inputs = random_elements::<ark_bn254::Fr>(&mut rng, $t - 1);
            let hash = |x: Vec<ark_bn254::Fr>| vec![circom_bn254::hash(&x).unwrap()];
            assert_eq!(
                on_secret(&inputs, hash),
                hash(inputs.clone()),
                "{}",
                stringify!($name)
            );
        }};
    }
    for_each_circom_instance!(circom);
    macro_rules! stark {
        ($name:ident, $t:expr, $rp:expr, $ct:expr, $cached:expr) => {{
            let (ct, cached) = ($ct, $cached);
            let state = random_state::<_, $t>(&mut rng);
            let permutation = |s: Vec<_>| ct.permutation(&s.try_into().unwrap()).to_vec();
            assert_eq!(
                on_secret(&state, permutation),
                permutation(state.to_vec()),
                "{}",
                stringify!($name)
            );
            let runtime = |s: Vec<_>| cached.permutation(&s).unwrap();
            assert_eq!(
                on_secret(&state, runtime),
                runtime(state.to_vec()),
                "{}",
                stringify!($name)
            );
        }};
    }
    for_each_stark252_instance!(stark);
    let inputs = random_elements::<Felt252>(&mut rng, 5);
    let many = |x: Vec<Felt252>| {
        vec![
            stark252::poseidon_hash_many(&x),
            stark252::poseidon_hash(x[0], x[1]),
        ]
    };
    assert_eq!(
        on_secret(&inputs, many),
        many(inputs.clone()),
        "Starknet hashes"
    );
}

/// Fails on any memcheck report from `secret_state_run`, and if valgrind is missing (unless
/// `FAST_POSEIDON2_NO_VALGRIND=1` says explicitly to skip it). Skipped, with a note, in a build
/// with debug assertions (plain `cargo test`): its overflow checks branch on every sum of
/// secret values (to panic on overflow), which memcheck rightly reports; the claim is about
/// builds without them (the README's `cargo test --release`, and every release build). Skipped,
/// with a note, in a build with AVX-512F enabled for the whole program (`-C target-cpu=native`
/// on an AVX-512 CPU): valgrind 3.19 stops at the first AVX-512 instruction ("unhandled
/// instruction bytes"), which then appears outside the crate too (the test's own random
/// numbers); a build without it runs the same scalar code, compiled to other instructions.
#[test]
fn scalar_paths_are_constant_time_under_memcheck() {
    if cfg!(debug_assertions) {
        eprintln!(
            "NOTE: debug assertions (overflow checks) on: every checked addition is a branch on \
             the value; the memcheck run needs a release build (cargo test --release)"
        );
        return;
    }
    if cfg!(target_feature = "avx512f") {
        eprintln!(
            "NOTE: AVX-512F enabled for the whole program: valgrind cannot decode its \
             instructions; the memcheck run needs a build without it (cargo test --release)"
        );
        return;
    }
    let exe = std::env::current_exe().expect("test binary path");
    let run = Command::new("valgrind")
        .args([
            "--tool=memcheck",
            "--error-exitcode=99",
            "--errors-for-leak-kinds=none",
        ])
        .arg(&exe)
        .args([
            "--ignored",
            "--exact",
            "constant_time::secret_state_run",
            "--test-threads=1",
            "--nocapture",
        ])
        .output();
    let out = match run {
        Ok(out) => out,
        Err(_) if std::env::var("FAST_POSEIDON2_NO_VALGRIND").as_deref() == Ok("1") => {
            eprintln!("valgrind not found; skipped by FAST_POSEIDON2_NO_VALGRIND=1");
            return;
        }
        Err(e) => panic!(
            "this test needs valgrind on PATH (Debian/Ubuntu: apt-get install valgrind; \
             FAST_POSEIDON2_NO_VALGRIND=1 skips it): {e}"
        ),
    };
    let report = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let arithmetic = stdout
        .split("MULX/ADX products: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next());
    println!("under memcheck, MULX/ADX products: {arithmetic:?}");
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "memcheck reported secret-dependent branches or addresses (exit {:?}):\n{report}\n{stdout}",
        out.status.code()
    );
}

/// Fixed-versus-random timing (the dudect method, Reparaz, Balasch, Verbauwhede, DATE 2017):
/// `calls` calls of `run`, each on the all-zero input or on a fresh random one (chosen at
/// random per call, so both classes see the same machine state), timed one by one; the slowest
/// 10% of all samples are dropped (interrupts, migrations), and Welch's t compares the two
/// classes' means. |t| > 10 says the time depends on the data. Returns (t, mean time of the
/// zero class, of the random class), in nanoseconds.
fn fixed_vs_random<S: Clone>(
    calls: usize,
    zero: S,
    mut random: impl FnMut() -> S,
    mut run: impl FnMut(&mut S),
) -> (f64, f64, f64) {
    use std::hint::black_box;
    use std::time::Instant;
    let mut pick = testkit::bench::rng();
    // Inputs are made in blocks of 1,024 before they are timed, both classes in the same array
    // (so each call reads its input from the same kind of place, whatever its class).
    let mut times: Vec<(bool, f64)> = Vec::with_capacity(calls);
    while times.len() < calls {
        let block: Vec<(bool, S)> = (0..1024.min(calls - times.len()))
            .map(|_| {
                let is_zero = rand::RngCore::next_u32(&mut pick) & 1 == 0;
                (is_zero, if is_zero { zero.clone() } else { random() })
            })
            .collect();
        for (is_zero, mut s) in block {
            let start = Instant::now();
            run(black_box(&mut s));
            let ns = start.elapsed().as_nanos() as f64;
            black_box(&s);
            times.push((is_zero, ns));
        }
    }
    let mut sorted: Vec<f64> = times.iter().map(|&(_, t)| t).collect();
    sorted.sort_by(f64::total_cmp);
    let cut = sorted[sorted.len() * 9 / 10];
    times.retain(|&(_, t)| t <= cut);
    let stats = |class: bool| {
        let xs: Vec<f64> = times.iter().filter(|s| s.0 == class).map(|s| s.1).collect();
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, var / n)
    };
    let ((m0, v0), (m1, v1)) = (stats(true), stats(false));
    ((m0 - m1) / (v0 + v1).sqrt(), m0, m1)
}

/// The batch backend `permute_batch` takes for states of this element type.
fn backend_of<F: fast_poseidon2::field::Field, const T: usize>(
    _: &[F; T],
) -> fast_poseidon2::BatchBackend {
    fast_poseidon2::batch_backend::<F>()
}

/// The statistical test of every shipped instance's scalar permutation and batch path (16 states
/// per call: whole groups for every kernel, 8 or 16 lanes) and of the circom Poseidon1 hashes: prints one table row per path and fails if any
/// |t| >= 10. `CT_CALLS` calls per path (default 200,000). Run by `scripts/constant-time.sh`
/// (alone on an idle machine: other load adds noise, not bias, but long runs need quiet cores).
#[test]
#[ignore = "minutes; run by scripts/constant-time.sh"]
fn fixed_vs_random_timing_of_every_instance() {
    let calls: usize = std::env::var("CT_CALLS").map_or(200_000, |v| v.parse().expect("CT_CALLS"));
    let mut rng = rng();
    let mut worst: f64 = 0.0;
    let mut report = |path: String, (t, zero, random): (f64, f64, f64)| {
        println!("| {path} | {calls} | {zero:.0} | {random:.0} | {t:.2} |");
        worst = worst.max(t.abs());
    };
    // States per batch call: whole groups of every kernel (8 or 16 lanes).
    const BATCH: usize = 16;
    println!("| path | calls | zero state ns | random state ns | Welch t |");
    println!("|---|---|---|---|---|");
    macro_rules! time_instance {
        ($name:ident, $t:expr, $digest:expr, $group:expr, $ct:expr, $cached:expr) => {{
            let ct = $ct;
            let zero = [fast_poseidon2::field::Field::ZERO_ELEMENT; $t];
            let mut random = || random_state::<_, $t>(&mut rng);
            let r = fixed_vs_random(calls, zero, &mut random, |s| ct.permute_mut(s));
            report(format!("{} scalar", stringify!($name)), r);
            let r = fixed_vs_random(
                calls,
                [zero; BATCH],
                || core::array::from_fn::<_, BATCH, _>(|_| random()),
                |s| ct.permute_batch(s),
            );
            let backend = backend_of(&zero);
            report(
                format!("{} batch of {BATCH} ({backend:?})", stringify!($name)),
                r,
            );
        }};
    }
    for_each_instance!(time_instance);
    // A Poseidon1 instance's batch path (the cached runtime permutation: its kernel-form
    // schedule is built once, not per call).
    macro_rules! time_poseidon1_batch {
        ($name:ident, $t:expr, $cached:expr, $field:ty) => {{
            let p1 = $cached;
            let zero = vec![<$field as fast_poseidon2::field::Field>::ZERO_ELEMENT; $t * BATCH];
            let r = fixed_vs_random(
                calls,
                zero,
                || random_elements::<$field>(&mut rng, $t * BATCH),
                |s| p1.permute_batch(s).unwrap(),
            );
            let backend = fast_poseidon2::batch_backend::<$field>();
            report(
                format!("{} batch of {BATCH} ({backend:?})", stringify!($name)),
                r,
            );
        }};
    }
    macro_rules! time_circom {
        ($name:ident, $t:expr, $rp:expr, $ct:expr, $cached:expr) => {{
            let zero = vec![fast_poseidon2::field::Field::ZERO_ELEMENT; $t - 1];
            let r = fixed_vs_random(
                calls,
                zero,
                || random_elements::<ark_bn254::Fr>(&mut rng, $t - 1),
                |s| {
                    std::hint::black_box(circom_bn254::hash(s).unwrap());
                },
            );
            report(format!("{} hash", stringify!($name)), r);
            time_poseidon1_batch!($name, $t, $cached, ark_bn254::Fr);
        }};
    }
    for_each_circom_instance!(time_circom);
    macro_rules! time_stark {
        ($name:ident, $t:expr, $rp:expr, $ct:expr, $cached:expr) => {{
            let ct = $ct;
            let zero = [fast_poseidon2::field::Field::ZERO_ELEMENT; $t];
            let r = fixed_vs_random(
                calls,
                zero,
                || random_state::<Felt252, $t>(&mut rng),
                |s| ct.permute_mut(s),
            );
            report(format!("{} scalar", stringify!($name)), r);
            time_poseidon1_batch!($name, $t, $cached, Felt252);
        }};
    }
    for_each_stark252_instance!(time_stark);
    assert!(
        worst < 10.0,
        "a path's time depends on its input: max |t| = {worst:.2}"
    );
}
