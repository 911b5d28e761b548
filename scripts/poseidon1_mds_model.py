# Independent Python model of the MDS-matrix part of hadeshash generate_parameters_grain.sage
# (generate_matrix: create_mds_p draws, redrawn until algorithm_1, algorithm_2 and algorithm_3
# all accept), for small prime fields, written for this crate from the script's procedure. The
# three algorithms follow the script step by step (subspaces S_i, eigenspaces of M^i with an
# eigenvalue in GF(p), found here by trying every element, the invariance of S_i under M^j, the
# Krylov loop of algorithm_2 with its dimension tests), not the shortcut the crate implements
# (src/params/security/mds_matrix.rs), so that the two can be compared. It printed the draw
# counts and matrices the redraw tests of tests/math/security.rs carry.
#
# Run: python3 scripts/poseidon1_mds_model.py            (the redraw cases the tests carry)
#      python3 scripts/poseidon1_mds_model.py search     (every small case with a rejected draw)
#      python3 scripts/poseidon1_mds_model.py exhaustive (literal algorithms vs the shortcut)
import itertools
import sys


def grain(n, t, rf, rp, field=1, sbox=0):
    """The script's grain_sr_generator and grain_random_bits(n), seeded by init_generator."""
    bits = []
    for v, w in [(field, 2), (sbox, 4), (n, 12), (t, 12), (rf, 10), (rp, 10), ((1 << 30) - 1, 30)]:
        bits += [(v >> i) & 1 for i in range(w - 1, -1, -1)]

    def clock():
        new = bits[62] ^ bits[51] ^ bits[38] ^ bits[23] ^ bits[13] ^ bits[0]
        bits.pop(0)
        bits.append(new)
        return new

    for _ in range(160):
        clock()

    def bit():
        while True:
            a, b = clock(), clock()
            if a:
                return b

    def block():
        v = 0
        for _ in range(n):
            v = (v << 1) | bit()
        return v

    return block


# --- linear algebra over GF(p); vectors are lists, matrices lists of rows -------------------

def rref(rows, p):
    """Reduced row echelon form of the span of `rows` (non-zero rows only): a canonical basis."""
    m = [[x % p for x in r] for r in rows]
    out, col = [], 0
    width = len(m[0]) if m else 0
    for col in range(width):
        piv = next((r for r in m if r[col]), None)
        if piv is None:
            continue
        m.remove(piv)
        inv = pow(piv[col], p - 2, p)
        piv = [x * inv % p for x in piv]
        m = [[(x - r[col] * y) % p for x, y in zip(r, piv)] for r in m]
        out = [[(x - r[col] * y) % p for x, y in zip(r, piv)] for r in out]
        out.append(piv)
    return sorted(out, key=lambda r: next(i for i, x in enumerate(r) if x))


def dim(rows, p):
    return len(rref(rows, p))


def kernel(rows, t, p):
    """A basis of {x in GF(p)^t : r . x = 0 for every r in rows}."""
    e = rref(rows, p) if rows else []
    pivots = [next(i for i, x in enumerate(r) if x) for r in e]
    basis = []
    for f in (c for c in range(t) if c not in pivots):
        v = [0] * t
        v[f] = 1
        for r, pc in zip(e, pivots):
            v[pc] = -r[f] % p
        basis.append(v)
    return basis


def matmul(a, b, p):
    return [[sum(x * y for x, y in zip(row, col)) % p for col in zip(*b)] for row in a]


def apply(a, v, p):
    return [sum(x * y for x, y in zip(row, v)) % p for row in a]


def power(m, k, p):
    t = len(m)
    r = [[int(i == j) for j in range(t)] for i in range(t)]
    for _ in range(k):
        r = matmul(r, m, p)
    return r


def unit(i, t):
    return [int(j == i) for j in range(t)]


# --- the script's algorithms, s = 1 ------------------------------------------------------------

def subspace_s(i, m, p):
    """generate_vectorspace(i, ...): x_0 = 0 and row 0 of M^k (k = 1..i-1) times x = 0."""
    t = len(m)
    if i == 1:
        return [unit(j, t) for j in range(1, t)]
    rows = [power(m, k, p)[0][1:] for k in range(1, i)]
    return [[0] + v for v in kernel(rows, t - 1, p)]


def algorithm_1(m, p):
    t = len(m)
    for i in range(1, t):
        a = power(m, i, p)
        if all(a[r][c] == (a[0][0] if r == c else 0) for r in range(t) for c in range(t)):
            return False, 1
        s = subspace_s(i, m, p)
        # Eigenspaces of M^i with an eigenvalue in GF(p): every lambda with a non-zero kernel.
        for lam in range(p):
            shifted = [[(a[r][c] - (lam if r == c else 0)) % p for c in range(t)] for r in range(t)]
            e = kernel(shifted, t, p)
            if e and dim(s, p) + len(e) - dim(s + e, p) >= 1:
                return False, 2
        for j in range(1, i + 1):
            image = [apply(power(m, j, p), v, p) for v in s]
            if rref(image, p) == rref(s, p):
                return False, 3
    return True, 0


def algorithm_2(m, p):
    t = len(m)
    v = unit(0, t)
    space = [v]
    while True:
        delta = dim(space, p)
        v = apply(m, v, p)
        space = space + [v]
        if dim(space, p) == t:
            return True
        if dim(space, p) <= delta:
            return False


def algorithm_3(m, p):
    return all(algorithm_2(power(m, r, p), p) for r in range(2, 4 * len(m) + 1))


def shortcut(m, p):
    """The crate's criterion for an invertible M: e_0 is a cyclic vector of M^T (algorithm 1)
    and of M^r for r = 1..=4t (algorithms 2 and 3)."""
    t = len(m)

    def cyclic(a):
        vs = [unit(0, t)]
        for _ in range(t - 1):
            vs.append(apply(a, vs[-1], p))
        return dim(vs, p) == t

    mt = [list(c) for c in zip(*m)]
    if not cyclic(mt):
        return 1
    for r in range(1, 4 * t + 1):
        if not cyclic(power(m, r, p)):
            return 2 if r == 1 else 3
    return 0


def literal(m, p):
    """0 if the script accepts M, else the first rejecting algorithm (1, 2, 3)."""
    if not algorithm_1(m, p)[0]:
        return 1
    if not algorithm_2(m, p):
        return 2
    if not algorithm_3(m, p):
        return 3
    return 0


# --- generate_matrix ---------------------------------------------------------------------------

def generate(p, t, rf, rp, max_draws=1024):
    """Round constants, then draws of 2t reduced values until one gives a Cauchy matrix the three
    algorithms accept (at most max_draws, the crate's MAX_MDS_DRAWS). Returns every Cauchy draw
    as (draw number, 0 or the first rejecting algorithm, matrix), the accepted one last."""
    n = p.bit_length()
    block = grain(n, t, rf, rp)
    for _ in range((rf + rp) * t):
        while block() >= p:
            pass
    draws = []
    for draw in range(1, max_draws + 1):
        vals = [block() % p for _ in range(2 * t)]
        if len(set(vals)) != 2 * t:
            continue
        xs, ys = vals[:t], vals[t:]
        if any((x + y) % p == 0 for x in xs for y in ys):
            continue
        m = [[pow(x + y, p - 2, p) for y in ys] for x in xs]
        draws.append((draw, literal(m, p), m))
        if draws[-1][1] == 0:
            break
    return draws


# (p, t, R_F, R_P) of the tests' redraw cases.
CASES = [(257, 4, 2, 3), (31, 3, 8, 2), (31, 4, 8, 1), (31, 8, 4, 2)]

if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "cases"
    if mode == "search":
        for p in (17, 19, 23, 29, 31, 257):
            for t in range(2, 9):
                if 2 * t > p:
                    continue
                for rf, rp in itertools.product((2, 4, 8), (1, 2, 3)):
                    draws = generate(p, t, rf, rp)
                    if any(verdict for _, verdict, _ in draws):
                        print(f"GF({p}) t={t} R_F={rf} R_P={rp}: {[(d, v) for d, v, _ in draws]}")
    elif mode == "exhaustive":
        for p, t in ((3, 2), (5, 2), (7, 2), (3, 3)):
            counts = {}
            for entries in itertools.product(range(p), repeat=t * t):
                m = [list(entries[i * t:(i + 1) * t]) for i in range(t)]
                if dim(m, p) < t:
                    continue
                a, b = literal(m, p), shortcut(m, p)
                assert a == b, (p, m, a, b)
                counts[a] = counts.get(a, 0) + 1
            print(f"GF({p}) t={t}: invertible matrices by verdict {sorted(counts.items())}")
    else:
        for p, t, rf, rp in CASES:
            print(f"GF({p}) t={t} R_F={rf} R_P={rp}:")
            for draw, verdict, m in generate(p, t, rf, rp):
                print(f"  draw {draw}: {'accepted' if verdict == 0 else f'algorithm {verdict}'}: {m}")
