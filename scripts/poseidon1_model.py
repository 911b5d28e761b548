# Independent Python model of hadeshash generate_parameters_grain.sage (Grain, rejection-sampled
# constants, Cauchy MDS) and the textbook Poseidon1 permutation, written for this crate from the
# procedure (GRAIN.md of the shared reference, eprint 2019/458). It reproduces circomlib's 2- and
# 16-input vectors and produced the frozen 13..=15-input answers of
# tests/vectors/circom_poseidon1.json. Run: python3 scripts/poseidon1_model.py
p = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001
n = 254
RP = [56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65, 70, 60, 64, 68]
def grain(t, rf, rp):
    bits = []
    for v, w in [(1,2),(0,4),(n,12),(t,12),(rf,10),(rp,10),((1<<30)-1,30)]:
        bits += [(v >> i) & 1 for i in range(w-1,-1,-1)]
    def clock():
        new = bits[62]^bits[51]^bits[38]^bits[23]^bits[13]^bits[0]
        bits.pop(0); bits.append(new); return new
    for _ in range(160): clock()
    def bit():
        while True:
            a = clock(); b = clock()
            if a: return b
    def block():
        v = 0
        for _ in range(n): v = (v << 1) | bit()
        return v
    return block
def params(t):
    rf, rp = 8, RP[t-2]
    block = grain(t, rf, rp)
    rc = []
    for _ in range((rf+rp)*t):
        while True:
            v = block()
            if v < p: break
        rc.append(v)
    while True:
        vals = [block() % p for _ in range(2*t)]
        while len(set(vals)) != 2*t:
            vals = [block() % p for _ in range(2*t)]
        xs, ys = vals[:t], vals[t:]
        if all((x+y) % p for x in xs for y in ys): break
    mds = [[pow(x+y, p-2, p) for y in ys] for x in xs]
    return rf, rp, rc, mds
def perm(t, state):
    rf, rp, rc, mds = params(t)
    for r in range(rf+rp):
        state = [(s + rc[r*t+i]) % p for i, s in enumerate(state)]
        full = r < rf//2 or r >= rf//2 + rp
        state = [pow(s, 5, p) if (full or i == 0) else s for i, s in enumerate(state)]
        state = [sum(mds[i][j]*state[j] for j in range(t)) % p for i in range(t)]
    return state
def h(inputs): return perm(len(inputs)+1, [0]+inputs)[0]
print("1,2", h([1,2]) == 0x115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a)
print("1..16", h(list(range(1,17))) == 9989051620750914585850546081941653841776809718687451684622678807385399211877)
for k in (13, 14, 15):
    print(k, h(list(range(1, k+1))))
