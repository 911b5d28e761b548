#!/usr/bin/env python3
"""Writes a unified diff of the lines of src/ (at HEAD) last changed by the commits of a range,
for `cargo mutants --in-diff` (through `MUTANTS_ARGS`), so that a mutation run covers exactly
the code a change wrote, wherever later commits moved it.

    scripts/mutants_lines.py c54ffde..520c6bf > target/renovation-lines.diff
    scripts/mutants_lines.py c54ffde..520c6bf 8f3b3f0~1..8f3b3f0 > target/x.diff  # several ranges
    MUTANTS_ARGS="--in-diff $PWD/target/renovation-lines.diff" scripts/mutants.sh core ct batch

Each kept line is one hunk `@@ -n,0 +n,1 @@` holding that line as `git blame` shows it at HEAD.
`scripts/mutants.sh` rewrites the `simd_only! { items: ... }` block of src/simd/mod.rs in its
scratch copy (same line count); the lines of that block are written here as rewritten, so the
diff matches the scratch tree.
"""
import re
import subprocess
import sys


def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def main():
    ranges = sys.argv[1:]
    if not ranges or any(".." not in r for r in ranges):
        sys.exit("usage: scripts/mutants_lines.py BASE..TIP [BASE..TIP ...]")
    commits = {c for r in ranges for c in git("rev-list", r).split()}
    files = git("ls-files", "src/").split()
    out = []
    for path in files:
        if not path.endswith(".rs"):
            continue
        sha, lines = None, []
        for row in git("blame", "--line-porcelain", "HEAD", "--", path).split("\n"):
            if re.match(r"^[0-9a-f]{40} ", row):
                sha = row.split()[0]
            elif row.startswith("\t"):
                lines.append((sha, row[1:]))
        if path == "src/simd/mod.rs":
            text = [line for _, line in lines]
            start = text.index("simd_only! { items:")
            cfg = "#[cfg(fast_poseidon2_simd)]"
            kernels = ["avx512_ifma", "goldilocks", "monty31"]
            rewritten = [f"{cfg} mod {m};" for m in kernels] + ["simd_only! { items:"]
            for k, new in enumerate(rewritten):
                lines[start + k] = (lines[start + k][0], new)
        kept = [(n, line) for n, (sha, line) in enumerate(lines, 1) if sha in commits]
        if kept:
            out.append(f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}")
            out.extend(f"@@ -{n},0 +{n},1 @@\n+{line}" for n, line in kept)
    print("\n".join(out))


if __name__ == "__main__":
    main()
