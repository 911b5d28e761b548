//! Zero heap allocations, counted by a global allocator, on every shipped instance: constructing
//! the ct permutation (`ct::tN()`), the ct permutation, ct and flexible `compress_digests`,
//! `hash_into` and the static `hash`, the streaming `Sponge`, and `hashv_bytes`, on both
//! permutation types.
#![cfg(feature = "std")]

use testkit as common;
use testkit::for_each_instance;

use common::convert;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::modes::Sponge;
use fast_poseidon2::{Endianness, Poseidon2, ct::Poseidon2Ct};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

/// The system allocator, counting this thread's allocations (tests run on parallel threads).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with` so that allocations during thread teardown are not a panic.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract is upheld by `System`; counting touches only a const-initialised
// thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged; the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged; the caller upholds `dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations `f` makes on this thread.
fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// Asserts that every allocation-free entry point allocates nothing on one instance.
fn check_no_allocations<
    C,
    F,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
    const RATE: usize,
    const ARITY: usize,
    const DIGEST: usize,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) where
    C: PrimeField + LinearLayers,
    F: PrimeField + LinearLayers,
{
    let ct_state: [C; T] = core::array::from_fn(|i| C::from_u64(i as u64));
    let ct_pair: [[C; DIGEST]; ARITY] =
        core::array::from_fn(|i| core::array::from_fn(|j| C::from_u64((i * DIGEST + j) as u64)));
    let mut state: [F; T] = ct_state.map(convert);
    let pair: [[F; DIGEST]; ARITY] = ct_pair.map(|digest| digest.map(convert));
    let inputs: [F; 5] = core::array::from_fn(|i| F::from_u64(i as u64 + 1));
    let ct_inputs: [C; 5] = inputs.map(convert);
    let bytes = [[0u8; 32]; 3];
    let byte_inputs: [&[u8]; 3] = core::array::from_fn(|i| &bytes[i][..C::BYTES]);

    let checks: [(&str, &dyn Fn()); 11] = [
        ("ct permutation", &|| {
            black_box(ct.permutation(black_box(&ct_state)));
        }),
        ("ct compress_digests", &|| {
            black_box(ct.compress_digests(black_box(&ct_pair)));
        }),
        ("flexible compress_digests", &|| {
            black_box(flexible.compress_digests(black_box(&pair)).unwrap());
        }),
        ("ct static hash", &|| {
            black_box(ct.hash::<RATE, 3>(black_box(&ct_inputs)).unwrap());
        }),
        ("ct hash_into", &|| {
            let mut out = [C::ZERO; 3];
            ct.hash_into(black_box(&ct_inputs), 1, &mut out).unwrap();
            black_box(out);
        }),
        ("flexible hash_into", &|| {
            let mut out = [F::ZERO; 3];
            flexible.hash_into(black_box(&inputs), 1, &mut out).unwrap();
            black_box(out);
        }),
        ("ct sponge", &|| {
            let mut sponge = Sponge::new(ct, 1, ct_inputs.len(), 3).unwrap();
            sponge.absorb(&ct_inputs[..2]).unwrap();
            sponge.absorb(&ct_inputs[2..]).unwrap();
            let mut out = [C::ZERO; 3];
            sponge.squeeze(&mut out).unwrap();
            black_box(out);
        }),
        ("flexible sponge", &|| {
            let mut sponge = Sponge::new(flexible, RATE, inputs.len(), 3).unwrap();
            sponge.absorb(&inputs[..3]).unwrap();
            sponge.absorb(&inputs[3..]).unwrap();
            let mut out = [F::ZERO; 3];
            sponge.squeeze(&mut out[..1]).unwrap();
            sponge.squeeze(&mut out[1..]).unwrap();
            black_box(out);
        }),
        ("ct hashv_bytes", &|| {
            black_box(ct.hashv_bytes(Endianness::LittleEndian, black_box(&byte_inputs))).unwrap();
        }),
        ("flexible hashv_bytes", &|| {
            black_box(flexible.hash_bytes_be(black_box(&byte_inputs))).unwrap();
        }),
        ("rejected hashv_bytes", &|| {
            black_box(flexible.hash_bytes_be(black_box(&[&bytes[0][..]; 17]))).unwrap_err();
        }),
    ];
    for (name, f) in checks {
        assert_eq!(allocations_during(f), 0, "{name} allocated");
    }
    assert_eq!(
        allocations_during(|| flexible.permute_mut(black_box(&mut state)).unwrap()),
        0,
        "flexible permute_mut allocated"
    );
}

#[test]
fn the_counting_allocator_sees_allocations() {
    assert!(allocations_during(|| drop(black_box(vec![1u8; 10]))) >= 1);
}

macro_rules! no_alloc_tests {
    ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
        #[test]
        fn $name() {
            assert_eq!(
                allocations_during(|| {
                    black_box($ct);
                }),
                0,
                "ct construction allocated"
            );
            // Built (and, for the cached getter, initialised) before counting.
            let ct = $ct;
            let flexible = $flexible;
            check_no_allocations::<
                _,
                _,
                $t,
                _,
                _,
                _,
                { $t - $digest },
                { $group / $digest },
                $digest,
            >(&ct, flexible);
        }
    };
}

/// Per instance: neither `ct::tN()` nor any entry point of the allocation-free API allocates.
mod allocation_free_paths_allocate_nothing {
    use super::*;
    crate::for_each_instance!(no_alloc_tests);
}

/// Construction cost of the BN254 `ct::t3()`, `ct::t12()` and BLS12-381 `ct::t8()`
/// permutations: allocations and mean time per call. Printed, not asserted (timing depends on the
/// machine).
#[cfg(all(feature = "bn254", feature = "bls12-381"))]
#[test]
#[ignore = "prints construction costs; run by hand with --nocapture"]
fn ct_construction_cost_is_reported() {
    use fast_poseidon2::instances::{bls12_381, bn254};
    fn report<P>(name: &str, build: fn() -> P) {
        let allocations = allocations_during(|| {
            black_box(build());
        });
        let calls = 20_000;
        let start = std::time::Instant::now();
        for _ in 0..calls {
            black_box(build());
        }
        println!(
            "{name}: {allocations} allocations, {:?} per call",
            start.elapsed() / calls
        );
    }
    report("bn254::ct::t3()", bn254::ct::t3);
    report("bn254::ct::t12()", bn254::ct::t12);
    report("bls12_381::ct::t8()", bls12_381::ct::t8);
}
