#!/usr/bin/env bash
# Constant-time checks (issue 19), both in tests/constant_time.rs:
# 1. memcheck (the ctgrind method, also in CI through `cargo test`): every shipped instance's
#    scalar paths run on states marked secret under valgrind; any branch or address computed
#    from them fails the test. Also run here with every SIMD and MULX/ADX path compiled out
#    (`--cfg fast_poseidon2_force_portable`), so that the portable arithmetic is checked too.
# 2. The fixed-versus-random timing test (dudect): every shipped instance's scalar permutation,
#    its batch path (16 states per call, on this CPU's backend), the circom hashes and the
#    Poseidon1 batch paths (circom, Stark252), CT_CALLS
#    calls each (default 200,000); prints a table and fails on |t| >= 10. Run it on an idle
#    machine: other jobs add noise (and can make a run inconclusive), not bias.
#
#   scripts/constant-time.sh            # both, then the timing test
#   CT_CALLS=20000 scripts/constant-time.sh timing
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
if [ "$what" = all ] || [ "$what" = memcheck ]; then
    cargo test --release --all-features --test suite -- --exact constant_time::scalar_paths_are_constant_time_under_memcheck
    RUSTFLAGS="--cfg fast_poseidon2_force_portable" CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/portable" \
        cargo test --release --all-features --test suite -- --exact constant_time::scalar_paths_are_constant_time_under_memcheck
fi
if [ "$what" = all ] || [ "$what" = timing ]; then
    cargo test --release --all-features --test suite -- --ignored --exact \
        constant_time::fixed_vs_random_timing_of_every_instance --nocapture --test-threads=1
fi
