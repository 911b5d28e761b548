#!/usr/bin/env bash
# The permutation of every shipped instance, both permutation types (`ct::tN()` and the runtime
# `poseidon2_tN()`), in a default build and a `RUSTFLAGS="-C target-cpu=native"` build; fails
# if any native/default time ratio exceeds MAX_RATIO (default 1.05).
#
#   scripts/native-vs-default.sh
#   DEFAULT_TARGET_DIR=/tmp/d NATIVE_TARGET_DIR=/tmp/n scripts/native-vs-default.sh
#
# One benchmark binary, `benches/permutation.rs` (criterion, a fresh random state per
# iteration), is built twice in separate target directories so the builds do not invalidate
# each other, then run instance by instance, default then native, so both see the same machine
# state. Before timing, waits (up to QUIET_WAIT seconds, default 600) for the one-minute load
# average to drop below 0.5 with no rustc running; times on a loaded machine are not comparable.
#
# Environment: MAX_RATIO (1.05); ROUNDS, alternating rounds whose least median counts (5);
# WARM_UP and MEASURE, criterion's warm-up and measurement seconds per benchmark (1 and 2);
# QUIET_WAIT (600).
set -euo pipefail
cd "$(dirname "$0")/.."

default_dir=${DEFAULT_TARGET_DIR:-target/native-vs-default/default}
native_dir=${NATIVE_TARGET_DIR:-target/native-vs-default/native}
max_ratio=${MAX_RATIO:-1.05}

# Builds the bench into target directory $1 with RUSTFLAGS $2; prints the executable's path.
build() {
    CARGO_TARGET_DIR="$1" RUSTFLAGS="$2" cargo bench --bench permutation --no-run \
        --message-format=json |
        sed -n 's/.*"executable":"\([^"]*permutation-[^"]*\)".*/\1/p' | tail -n 1
}
echo "building the default bench in $default_dir" >&2
default_bin=$(build "$default_dir" "")
echo "building the -C target-cpu=native bench in $native_dir" >&2
native_bin=$(build "$native_dir" "-C target-cpu=native")

# Wait for a quiet machine.
waited=0
until load=$(cut -d ' ' -f 1 /proc/loadavg) && awk -v l="$load" 'BEGIN { exit !(l < 0.5) }' &&
    ! pgrep -x rustc > /dev/null; do
    if [ "$waited" -ge "${QUIET_WAIT:-600}" ]; then
        echo "warning: machine still busy after ${waited}s (load $load); timing anyway" >&2
        break
    fi
    sleep 10
    waited=$((waited + 10))
done
echo "timing at load $(cut -d ' ' -f 1-3 /proc/loadavg) (uptime: $(uptime))" >&2

# Median ns of benchmark $2 (e.g. "permutation/bn254_t2/ct") in criterion home $1.
median_ns() {
    local dir=${2//\//_}
    dir="$1/${dir%_*}/${2##*/}/new/estimates.json"
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["median"]["point_estimate"])' "$dir"
}

# The instances are the bench's own groups: permutation/<instance>/{ct,flexible}.
instances=$("$default_bin" --bench --list | sed -n 's|^permutation/\([^/]*\)/ct: .*|\1|p')
criterion_args=(--bench --noplot --warm-up-time "${WARM_UP:-1}" --measurement-time "${MEASURE:-2}")
# ROUNDS rounds, each running every instance default then native; a row's time is the least
# of its ROUNDS criterion medians. On a shared (virtual) machine, interference only ever adds
# time and comes in bursts of seconds, so one median can be 20% off; the least of several,
# taken in alternation, is what the code costs.
rounds=${ROUNDS:-5}
declare -A best
for round in $(seq "$rounds"); do
    for instance in $instances; do
        for side in default native; do
            bin_var="${side}_bin" dir_var="${side}_dir"
            echo "round $round/$rounds: $instance ($side)" >&2
            home="${!dir_var}/criterion"
            CRITERION_HOME="$home" "${!bin_var}" "${criterion_args[@]}" \
                "^permutation/$instance/" > /dev/null 2>&1
            for type in ct flexible; do
                key="$side/$instance/$type"
                ns=$(median_ns "$home" "permutation/$instance/$type")
                best[$key]=$(awk -v a="${best[$key]:-inf}" -v b="$ns" 'BEGIN { print (a == "inf" || b < a) ? b : a }')
            done
        done
    done
done

status=0
printf '%-16s %-9s %12s %12s %8s\n' instance type "default µs" "native µs" ratio
for instance in $instances; do
    for type in ct flexible; do
        d=${best[default/$instance/$type]}
        n=${best[native/$instance/$type]}
        row=$(awk -v d="$d" -v n="$n" -v m="$max_ratio" \
            'BEGIN { r = n / d; printf "%12.3f %12.3f %8.3f%s", d / 1000, n / 1000, r, (r > m ? "  FAIL" : "") }')
        printf '%-16s %-9s %s\n' "$instance" "$type" "$row"
        case $row in *FAIL) status=1 ;; esac
    done
done
if [ "$status" -ne 0 ]; then
    echo "native/default ratio above $max_ratio" >&2
fi
exit "$status"
