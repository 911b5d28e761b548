//! The Poseidon1 MDS-matrix checks (`security::check_mds_matrix`, hadeshash
//! `generate_parameters_grain.sage`'s `algorithm_1`, `algorithm_2`, `algorithm_3`) and the
//! redraws of `Poseidon1Params::generate`:
//! - the crate's verdicts equal a step-by-step model of the script's three algorithms (below,
//!   written from the script: subspaces, eigenspaces, the Krylov loop) on every invertible matrix
//!   of small sizes over small fields and on random larger ones;
//! - matrices built to fail each algorithm are rejected by it, the circom BN254 matrices pass;
//! - on small fields `generate` redraws exactly the Cauchy matrices the script's
//!   `generate_matrix` rejects (draws and matrices from `scripts/poseidon1_mds_model.py`, an
//!   independent Python model of the script, replayed here on the crate's Grain).

use testkit::small::{self, F3, F5, F7, F11, F13, F17, F31, F257};

use ark_bn254::Fr;
use fast_poseidon2::Error;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::params::grain::Grain;
use fast_poseidon2::params::poseidon1::MAX_MDS_DRAWS;
use fast_poseidon2::poseidon1::Poseidon1Params;
use fast_poseidon2::security::check_mds_matrix;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

type Mat<F> = Vec<Vec<F>>;

// --- exact linear algebra over F, vectors as rows ---------------------------------------------

/// The reduced row echelon form of the span of `rows`, zero rows dropped: equal spans give
/// equal results.
fn rref<F: PrimeField>(rows: &[Vec<F>]) -> Mat<F> {
    let mut m: Mat<F> = rows.to_vec();
    let width = m.first().map_or(0, Vec::len);
    let mut done = 0;
    for col in 0..width {
        let Some(pivot) = (done..m.len()).find(|&r| m[r][col] != F::ZERO_ELEMENT) else {
            continue;
        };
        m.swap(done, pivot);
        let inv = m[done][col].inverted().expect("non-zero pivot");
        m[done] = m[done].iter().map(|&x| x.mul(inv)).collect();
        let pivot_row = m[done].clone();
        for (r, row) in m.iter_mut().enumerate() {
            let factor = row[col];
            if r != done && factor != F::ZERO_ELEMENT {
                for (x, &p) in row.iter_mut().zip(&pivot_row) {
                    *x = x.sub(factor.mul(p));
                }
            }
        }
        done += 1;
    }
    m.truncate(done);
    m
}

fn rank<F: PrimeField>(rows: &[Vec<F>]) -> usize {
    rref(rows).len()
}

/// A basis of `{x in F^width : r · x = 0 for every r in rows}`.
fn kernel<F: PrimeField>(rows: &[Vec<F>], width: usize) -> Mat<F> {
    let e = rref(rows);
    let pivots: Vec<usize> = e
        .iter()
        .map(|r| {
            r.iter()
                .position(|&x| x != F::ZERO_ELEMENT)
                .expect("non-zero row")
        })
        .collect();
    (0..width)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut v = vec![F::ZERO_ELEMENT; width];
            v[free] = F::ONE_ELEMENT;
            for (row, &p) in e.iter().zip(&pivots) {
                v[p] = row[free].neg();
            }
            v
        })
        .collect()
}

fn apply<F: PrimeField>(m: &Mat<F>, v: &[F]) -> Vec<F> {
    m.iter()
        .map(|row| {
            row.iter()
                .zip(v)
                .fold(F::ZERO_ELEMENT, |s, (&a, &b)| s.add(a.mul(b)))
        })
        .collect()
}

fn power<F: PrimeField>(m: &Mat<F>, k: usize) -> Mat<F> {
    let t = m.len();
    let mut p: Mat<F> = (0..t).map(|i| unit(i, t)).collect();
    for _ in 0..k {
        p = p
            .iter()
            .map(|row| {
                (0..t)
                    .map(|j| (0..t).fold(F::ZERO_ELEMENT, |s, l| s.add(row[l].mul(m[l][j]))))
                    .collect()
            })
            .collect();
    }
    p
}

fn unit<F: PrimeField>(i: usize, t: usize) -> Vec<F> {
    let mut v = vec![F::ZERO_ELEMENT; t];
    v[i] = F::ONE_ELEMENT;
    v
}

fn matrix<F: PrimeField>(rows: &[&[u64]]) -> Mat<F> {
    rows.iter()
        .map(|r| r.iter().map(|&x| F::from_u64(x)).collect())
        .collect()
}

fn flat<F: PrimeField>(m: &Mat<F>) -> Vec<F> {
    m.concat()
}

// --- the script's algorithms, step by step (s = 1) --------------------------------------------

/// `generate_vectorspace(i, ...)`: `x_0 = 0`, and for `i >= 2` also `(M^k x)_0 = 0` for
/// `k = 1..i-1` (the kernel of the rows `M^k[0][1..]`, with a 0 put in front).
fn script_subspace<F: PrimeField>(m: &Mat<F>, i: usize) -> Mat<F> {
    let t = m.len();
    if i == 1 {
        return (1..t).map(|j| unit(j, t)).collect();
    }
    let rows: Mat<F> = (1..i).map(|k| power(m, k)[0][1..].to_vec()).collect();
    kernel(&rows, t - 1)
        .into_iter()
        .map(|v| [vec![F::ZERO_ELEMENT], v].concat())
        .collect()
}

/// `algorithm_1`: for `i = 1..=t-1`, reject if `M^i` is scalar, if `S_i` meets an eigenspace
/// of `M^i` whose eigenvalue is in `F` (every element tried), or if `M^j S_i = S_i`, `j <= i`.
fn script_algorithm_1<F: PrimeField>(m: &Mat<F>) -> bool {
    let t = m.len();
    let p = small::modulus::<F>() as u64;
    for i in 1..t {
        let a = power(m, i);
        let scalar = (0..t)
            .all(|r| (0..t).all(|c| a[r][c] == if r == c { a[0][0] } else { F::ZERO_ELEMENT }));
        if scalar {
            return false;
        }
        let s = script_subspace(m, i);
        for lambda in (0..p).map(F::from_u64) {
            let shifted: Mat<F> = (0..t)
                .map(|r| {
                    (0..t)
                        .map(|c| if r == c { a[r][c].sub(lambda) } else { a[r][c] })
                        .collect()
                })
                .collect();
            let eigenspace = kernel(&shifted, t);
            let sum = [s.clone(), eigenspace.clone()].concat();
            if rank(&s) + eigenspace.len() > rank(&sum) {
                return false;
            }
        }
        for j in 1..=i {
            let mj = power(m, j);
            let image: Mat<F> = s.iter().map(|v| apply(&mj, v)).collect();
            if rref(&image) == rref(&s) {
                return false;
            }
        }
    }
    true
}

/// `algorithm_2`: grow `span(e_0, M e_0, ...)`; accept when it reaches dimension `t`, reject
/// when a step adds nothing before that.
fn script_algorithm_2<F: PrimeField>(m: &Mat<F>) -> bool {
    let t = m.len();
    let mut v = unit(0, t);
    let mut span = vec![v.clone()];
    loop {
        let before = rank(&span);
        v = apply(m, &v);
        span.push(v.clone());
        let now = rank(&span);
        if now == t {
            return true;
        }
        if now <= before {
            return false;
        }
    }
}

/// `algorithm_3`: `algorithm_2` on `M^r`, `r = 2..=4t`.
fn script_algorithm_3<F: PrimeField>(m: &Mat<F>) -> bool {
    (2..=4 * m.len()).all(|r| script_algorithm_2(&power(m, r)))
}

/// The script's verdict as `check_mds_matrix` reports it: the first rejecting algorithm.
fn script_verdict<F: PrimeField>(m: &Mat<F>) -> Result<(), Error> {
    let checks: [fn(&Mat<F>) -> bool; 3] =
        [script_algorithm_1, script_algorithm_2, script_algorithm_3];
    match (1u8..).zip(checks).find(|(_, check)| !check(m)) {
        Some((algorithm, _)) => Err(Error::InsecureMdsMatrix { algorithm }),
        None => Ok(()),
    }
}

// --- the crate's check against the model ------------------------------------------------------

/// `check_mds_matrix` against the model on one matrix: singular ones are `SingularMatrix`,
/// invertible ones get the script's verdict. Returns the verdict.
fn compare<F: PrimeField>(m: &Mat<F>) -> Result<(), Error> {
    let t = m.len();
    let got = check_mds_matrix(t, &flat(m));
    let expected = if rank(m) < t {
        Err(Error::SingularMatrix)
    } else {
        script_verdict(m)
    };
    assert_eq!(
        got,
        expected,
        "GF({}), M = {:?}",
        small::modulus::<F>(),
        m.iter()
            .map(|r| r.iter().map(|&x| small::canonical(x)).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
    got
}

/// Tallies of verdicts: `[singular, accepted, algorithm 1, algorithm 2, algorithm 3]`.
fn tally(counts: &mut [usize; 5], verdict: Result<(), Error>) {
    let slot = match verdict {
        Err(Error::SingularMatrix) => 0,
        Ok(()) => 1,
        Err(Error::InsecureMdsMatrix { algorithm }) => 1 + usize::from(algorithm),
        Err(e) => panic!("unexpected {e:?}"),
    };
    counts[slot] += 1;
}

/// Every `t × t` matrix over GF(p), by its base-p index.
fn every_matrix<F: PrimeField>(t: usize) -> impl Iterator<Item = Mat<F>> {
    let p = small::modulus::<F>();
    (0..p.pow((t * t) as u32)).map(move |mut index| {
        (0..t)
            .map(|_| {
                (0..t)
                    .map(|_| {
                        let digit = index % p;
                        index /= p;
                        F::from_u64(digit as u64)
                    })
                    .collect()
            })
            .collect()
    })
}

/// Every matrix of GF(3)^(2×2), GF(5)^(2×2), GF(7)^(2×2) and GF(3)^(3×3): the crate's verdict
/// is the script's. In GF(3)^(3×3) every verdict occurs (counts from the Python model:
/// 3456 accepted, 3456, 1920 and 2400 rejected by algorithms 1, 2, 3); at t = 2 these fields
/// are too small for any matrix to pass algorithm 3 (its powers up to `M^8`).
#[test]
fn mds_check_equals_the_script_on_every_small_matrix() {
    fn exhaust<F: PrimeField>(t: usize) -> [usize; 5] {
        let mut counts = [0; 5];
        for m in every_matrix::<F>(t) {
            tally(&mut counts, compare(&m));
        }
        counts
    }
    assert_eq!(exhaust::<F3>(2)[1..], [0, 12, 8, 28]);
    assert_eq!(exhaust::<F5>(2)[1..], [0, 80, 64, 336]);
    assert_eq!(exhaust::<F7>(2)[1..], [0, 252, 216, 1548]);
    assert_eq!(exhaust::<F3>(3), [8451, 3456, 3456, 1920, 2400]);
}

/// Random matrices of GF(7)^(4×4), GF(11)^(4×4) and GF(13)^(5×5): the crate's verdict is the
/// script's, and every verdict occurs.
#[test]
fn mds_check_equals_the_script_on_random_matrices() {
    fn sample<F: PrimeField>(t: usize, count: usize, seed: u64) {
        let p = small::modulus::<F>() as u64;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut counts = [0; 5];
        for _ in 0..count {
            let m: Mat<F> = (0..t)
                .map(|_| (0..t).map(|_| F::from_u64(rng.gen_range(0..p))).collect())
                .collect();
            tally(&mut counts, compare(&m));
        }
        assert!(
            counts[1..].iter().all(|&c| c > 0),
            "GF({p}), t = {t}: {counts:?}"
        );
    }
    sample::<F7>(4, 400, 1);
    sample::<F11>(4, 400, 2);
    sample::<F13>(5, 300, 3);
}

// --- matrices built to fail -------------------------------------------------------------------

/// The generated circom BN254 MDS matrix of width `t` (`R_F = 8`, circom's `R_P`).
fn circom_mds(t: usize) -> Mat<Fr> {
    use fast_poseidon2::instances::circom_bn254::ROUNDS_P;
    let params = Poseidon1Params::<Fr>::generate(t, 5, 8, ROUNDS_P[t - 2]).expect("generate");
    params.mds().chunks(t).map(<[Fr]>::to_vec).collect()
}

fn check(m: &Mat<Fr>) -> Result<(), Error> {
    check_mds_matrix(m.len(), &flat(m))
}

const fn rejected_by(algorithm: u8) -> Result<(), Error> {
    Err(Error::InsecureMdsMatrix { algorithm })
}

/// The identity (`M^1` scalar) and a block-diagonal matrix: `x_0 = 0` is kept by the second
/// block, so algorithm 1 rejects both.
#[test]
fn identity_and_block_diagonal_matrices_fail_algorithm_1() {
    let identity: Mat<Fr> = (0..3).map(|i| unit(i, 3)).collect();
    assert_eq!(check(&identity), rejected_by(1));
    let a = circom_mds(2);
    let mut block = vec![vec![Fr::from(0u64); 4]; 4];
    for i in 0..2 {
        for j in 0..2 {
            block[i][j] = a[i][j];
            block[i + 2][j + 2] = a[j][i];
        }
    }
    assert_eq!(check(&block), rejected_by(1));
}

/// The circom t = 4 matrix with its lower-left 2 × 2 block zeroed: `span(e_0, e_1)` is
/// invariant, so the span algorithm 2 grows from `e_0` stops at dimension 2. Its transpose
/// keeps `span(e_2, e_3)` inside `x_0 = 0` instead: algorithm 1.
#[test]
fn block_triangular_matrices_fail_algorithm_2_and_their_transposes_algorithm_1() {
    let mut upper = circom_mds(4);
    for row in &mut upper[2..] {
        row[..2].fill(Fr::from(0u64));
    }
    assert_eq!(check(&upper), rejected_by(2));
    let lower: Mat<Fr> = (0..4)
        .map(|i| (0..4).map(|j| upper[j][i]).collect())
        .collect();
    assert_eq!(check(&lower), rejected_by(1));
}

/// `[[0, 1], [5, 0]]`, whose square is `5 I`, and the scaled cyclic shift of width 5
/// (`M e_i = e_(i+1)`, `M e_4 = 5 e_0`, so `M^5 = 5 I`): `e_0` is cyclic for `M` and `M^T`,
/// but not for the scalar power: algorithm 3.
#[test]
fn matrices_with_a_scalar_power_fail_algorithm_3() {
    let square = matrix::<Fr>(&[&[0, 1], &[5, 0]]);
    assert_eq!(power(&square, 2), matrix(&[&[5, 0], &[0, 5]]));
    assert_eq!(check(&square), rejected_by(3));
    let shift: Mat<Fr> = (0..5)
        .map(|i| {
            (0..5)
                .map(|j| match (i, j) {
                    (0, 4) => Fr::from(5u64),
                    _ if i == j + 1 => Fr::from(1u64),
                    _ => Fr::from(0u64),
                })
                .collect()
        })
        .collect();
    assert_eq!(check(&shift), rejected_by(3));
}

/// `M = [[0, 1], [15, 3]]` over GF(17): eigenvalues 1 and 2, and 2 has order 8 in GF(17)^*,
/// so `M^8 = I` while no lower power is scalar (nor has `e_0` as an eigenvector): only
/// `r = 8 = 4t`, the last power algorithm 3 tries, sees it.
#[test]
fn matrix_whose_only_failing_power_is_four_times_the_width_fails_algorithm_3() {
    let m = matrix::<F17>(&[&[0, 1], &[15, 3]]);
    let failing: Vec<usize> = (1..=8)
        .filter(|&r| !script_algorithm_2(&power(&m, r)))
        .collect();
    assert_eq!(failing, [8]);
    assert!(script_algorithm_1(&m));
    assert_eq!(compare(&m), rejected_by(3));
}

#[test]
fn mds_check_rejects_bad_shapes_and_singular_matrices() {
    let one = Fr::from(1u64);
    assert_eq!(
        check_mds_matrix(1, &[one]),
        Err(Error::UnsupportedWidth { t: 1 })
    );
    assert_eq!(
        check_mds_matrix(33, &vec![one; 33 * 33]),
        Err(Error::UnsupportedWidth { t: 33 })
    );
    assert_eq!(
        check_mds_matrix(3, &[one; 8]),
        Err(Error::InvalidConstantsLength {
            got: 8,
            expected: 9
        })
    );
    assert_eq!(check_mds_matrix(2, &[one; 4]), Err(Error::SingularMatrix));
}

// --- generate's draws ---------------------------------------------------------------------------

/// The script's draws for `(t, R_F, R_P)` over `F`, replayed on the crate's Grain without
/// `generate`: after the `(R_F + R_P) · t` round constants, each draw is `2t` reduced values;
/// those that give a Cauchy matrix (distinct values, no `x_i + y_j = 0`) are returned with
/// their 1-based draw number, up to draw `limit`.
fn cauchy_draws<F: PrimeField>(
    t: usize,
    rf: usize,
    rp: usize,
    limit: usize,
) -> Vec<(usize, Mat<F>)> {
    let mut grain = Grain::new(F::MODULUS_BITS, t, rf, rp);
    for _ in 0..(rf + rp) * t {
        grain.next_round_constant::<F>();
    }
    (1..=limit)
        .filter_map(|draw| {
            let v: Vec<F> = (0..2 * t).map(|_| grain.next_reduced::<F>()).collect();
            let distinct = (0..2 * t).all(|i| (0..i).all(|j| v[i] != v[j]));
            let m: Option<Mat<F>> = v[..t]
                .iter()
                .map(|&x| v[t..].iter().map(|&y| x.add(y).inverted()).collect())
                .collect();
            Some((draw, m.filter(|_| distinct)?))
        })
        .collect()
}

/// One small-field generation, from `scripts/poseidon1_mds_model.py`: the Cauchy draws
/// `(draw, the script's verdict, M row-major)` up to and including the accepted one.
struct RedrawCase {
    t: usize,
    d: u64,
    rounds: (usize, usize),
    draws: &'static [(usize, Option<u8>, &'static [u64])],
}

fn assert_redraws<F: PrimeField>(case: &RedrawCase) {
    let (rf, rp) = case.rounds;
    let (last, _, accepted) = *case.draws.last().expect("draws");
    let replayed = cauchy_draws::<F>(case.t, rf, rp, last);
    assert_eq!(
        replayed.len(),
        case.draws.len(),
        "GF({}), t = {}",
        small::modulus::<F>(),
        case.t
    );
    let rows = |entries: &[u64]| matrix::<F>(&entries.chunks(case.t).collect::<Vec<_>>());
    for ((draw, m), &(expected_draw, algorithm, entries)) in replayed.iter().zip(case.draws) {
        assert_eq!((*draw, m), (expected_draw, &rows(entries)));
        let expected = algorithm.map_or(Ok(()), rejected_by);
        assert_eq!(compare(m), expected, "draw {draw}");
    }
    let params = Poseidon1Params::<F>::generate(case.t, case.d, rf, rp).expect("generate");
    assert_eq!(params.mds(), flat(&rows(accepted)).as_slice());
}

/// Small fields where the script rejects Cauchy draws, by each algorithm: `generate` skips the
/// same draws (same Grain bits) and ends on the same matrix as the Python model; the replayed
/// draws get the same verdicts from the crate's check and the step-by-step model.
#[test]
fn generate_redraws_rejected_cauchy_matrices_as_the_script_does() {
    assert_redraws::<F257>(&RedrawCase {
        t: 4,
        d: 3,
        rounds: (2, 3),
        draws: &[
            (
                1,
                Some(3),
                &[
                    30, 14, 213, 171, 146, 139, 153, 12, 50, 13, 158, 19, 105, 21, 110, 28,
                ],
            ),
            (
                2,
                Some(3),
                &[
                    68, 83, 7, 173, 93, 72, 186, 27, 133, 241, 234, 156, 198, 149, 15, 72,
                ],
            ),
            (
                3,
                None,
                &[
                    198, 203, 34, 256, 27, 10, 168, 163, 157, 71, 185, 153, 36, 32, 6, 250,
                ],
            ),
        ],
    });
    assert_redraws::<F31>(&RedrawCase {
        t: 3,
        d: 7,
        rounds: (8, 2),
        draws: &[
            (1, Some(1), &[30, 27, 21, 16, 6, 26, 12, 26, 11]),
            (3, Some(3), &[21, 25, 11, 6, 10, 7, 30, 1, 12]),
            (4, None, &[1, 24, 14, 7, 30, 10, 26, 23, 5]),
        ],
    });
    assert_redraws::<F31>(&RedrawCase {
        t: 4,
        d: 7,
        rounds: (8, 1),
        draws: &[
            (
                5,
                Some(2),
                &[12, 17, 3, 22, 8, 16, 13, 29, 19, 2, 6, 15, 1, 30, 7, 13],
            ),
            (
                7,
                Some(1),
                &[27, 30, 2, 16, 12, 14, 26, 27, 16, 7, 6, 13, 11, 22, 28, 23],
            ),
            (
                17,
                None,
                &[3, 8, 9, 7, 8, 19, 3, 27, 19, 1, 8, 26, 10, 17, 20, 2],
            ),
        ],
    });
}

/// GF(31), t = 8, `(R_F, R_P) = (4, 2)`: two of the [`MAX_MDS_DRAWS`] draws give Cauchy
/// matrices (draws 342 and 732, per the Python model), algorithm 3 rejects both; GF(5), t = 3:
/// six distinct values do not exist, no draw gives a Cauchy matrix.
#[test]
fn generate_reports_why_every_draw_failed() {
    let valid = cauchy_draws::<F31>(8, 4, 2, MAX_MDS_DRAWS);
    assert_eq!(
        valid.iter().map(|(d, _)| *d).collect::<Vec<_>>(),
        [342, 732]
    );
    for (_, m) in &valid {
        assert_eq!(compare(m), rejected_by(3));
    }
    assert_eq!(
        Poseidon1Params::<F31>::generate(8, 7, 4, 2),
        Err(Error::InsecureMdsMatrix { algorithm: 3 })
    );
    assert_eq!(
        Poseidon1Params::<F5>::generate(3, 3, 8, 1),
        Err(Error::SingularMatrix)
    );
}

/// Every circom BN254 width: the first draw gives the Cauchy matrix `generate` returns (the
/// tables light-poseidon and circomlib ship), and it passes the checks.
#[test]
fn every_circom_mds_matrix_is_the_first_draw_and_passes_the_checks() {
    use fast_poseidon2::instances::circom_bn254::ROUNDS_P;
    for t in 2..=17 {
        let first = cauchy_draws::<Fr>(t, 8, ROUNDS_P[t - 2], 1);
        let m = circom_mds(t);
        assert_eq!(first, [(1, m.clone())], "t = {t}");
        assert_eq!(check(&m), Ok(()), "t = {t}");
    }
}
