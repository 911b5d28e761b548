#!/usr/bin/env bash
# Before/after comparison of two commits with bench-compare, for changes that must not slow
# anything down (docs/benchmarks.md, "Constant time: repeated alternating runs").
#
#   scripts/bench-before-after.sh BEFORE AFTER [RUNS] [ROW WORDS...]
#
# Builds bench-compare at both commits (detached worktrees under $WORK, one shared target dir),
# then runs the two binaries alternately RUNS times (default 8), pinned to one CPU, on the rows
# whose operation contains one of ROW WORDS (all rows when none), and prints for every row the
# median over the runs of ours / peer (timed in the same run; the table's ratio column, which
# bench-compare computes from unrounded times, since the µs columns have two decimals), before
# and after. Run it on an idle machine: nothing else may build or benchmark meanwhile.
set -euo pipefail
before=${1:?before commit}
after=${2:?after commit}
runs=${3:-8}
shift $(( $# < 3 ? $# : 3 ))
root=$(git rev-parse --show-toplevel)
work=${WORK:-$(mktemp -d)}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$work/target}
cpu=$(( $(nproc) - 1 ))

build() { # commit -> path of its bench binary
  local tree=$work/tree-$1
  [ -d "$tree" ] || git -C "$root" worktree add -q --detach "$tree" "$1"
  cargo bench --manifest-path "$tree/bench-compare/Cargo.toml" --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m=json.loads(l)
    if m.get("reason")=="compiler-artifact" and m["target"]["name"]=="compare" and m.get("executable"): print(m["executable"])' | tail -1
}
bin_before=$(build "$before")
bin_after=$(build "$after")
for i in $(seq "$runs"); do
  (cd "$root" && taskset -c "$cpu" "$bin_before" --bench "$@" > "$work/before-$i.md")
  (cd "$root" && taskset -c "$cpu" "$bin_after" --bench "$@" > "$work/after-$i.md")
done
python3 - "$work" "$runs" <<'PY'
import re, statistics as st, sys
work, runs = sys.argv[1], int(sys.argv[2])
def load(path):
    rows = {}
    for line in open(path):
        c = [x.strip() for x in line.split("|")]
        if len(c) > 6 and re.fullmatch(r"[\d.]+", c[2]) and re.fullmatch(r"[\d.]+", c[4]):
            rows[(c[1], c[3])] = float(c[5]) if re.fullmatch(r"[\d.]+", c[5]) else float(c[2]) / float(c[4])
    return rows
b = [load(f"{work}/before-{i}.md") for i in range(1, runs + 1)]
a = [load(f"{work}/after-{i}.md") for i in range(1, runs + 1)]
print(f"| operation | peer | before: ours / peer, median of {runs} | after | after / before |")
print("|---|---|---|---|---|")
for key in b[0]:
    mb = st.median(r[key] for r in b)
    ma = st.median(r[key] for r in a if key in r)
    print(f"| {key[0]} | {key[1]} | {mb:.3f} | {ma:.3f} | {ma / mb:.3f} |")
PY
echo "raw tables in $work"
