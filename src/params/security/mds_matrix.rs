//! The Poseidon1 MDS-matrix checks of the reference's `generate_parameters_grain.sage`
//! (hadeshash; Horizen Labs' `poseidon2_rust_params.sage` has the same functions): its
//! `algorithm_1`, `algorithm_2` and `algorithm_3` reject a `t × t` matrix `M` over `F` that lets
//! an invariant subspace trail through the partial rounds, whose one S-box acts on `x_0`
//! (`s = 1` in the script). `generate_matrix` draws Cauchy matrices until all three accept.
//!
//! What the script computes (`e_0` the first unit vector, `V = F^t`):
//! - `algorithm_1`: for `i = 1..=t-1`, with
//!   `S_i = {x : x_0 = 0, (M x)_0 = 0, ..., (M^(i-1) x)_0 = 0}` (`generate_vectorspace`: the
//!   states whose S-box input is 0 in `i` consecutive partial rounds), it rejects `M` if
//!   (a) `M^i` is a scalar matrix, (b) `S_i` contains an eigenvector of `M^i` whose eigenvalue
//!   lies in `F` (`eigenspaces_right`), or (c) `M^j S_i = S_i` for some `j = 1..=i`
//!   (`subspace_times_matrix`).
//! - `algorithm_2`: it grows `span(e_0, M e_0, M^2 e_0, ...)` until a step adds nothing and
//!   rejects `M` if that happens before the span is `V` (then the span is a proper
//!   `M`-invariant subspace containing `e_0`). Its other exit, the span leaving
//!   `span(e_0) + span(e_1, ..., e_(t-1))`, cannot happen with `s = 1`: that sum is `V`.
//! - `algorithm_3`: `algorithm_2` on `M^r` for every `r = 2..=4t`.
//!
//! How it is computed here: after rejecting a singular `M` (no permutation has one), each
//! algorithm is the test "`e_0` is a cyclic vector of `A`", i.e. `e_0, A e_0, ..., A^(t-1) e_0`
//! are linearly independent (one Gaussian elimination), which gives the script's verdict on
//! every invertible `M`:
//! - algorithms 2 and 3, `A = M^r` for `r = 1` and `r = 2..=4t`: the script's span gains one
//!   dimension per step up to the first `A^k e_0` that depends on the earlier ones; from there
//!   on it is `A`-invariant and never grows again, so it reaches `V` exactly when the first `t`
//!   vectors are independent.
//! - algorithm 1, `A = M^T`: with the rows `r_k = e_0^T M^k`, `S_i` is the set of `x` with
//!   `r_k x = 0` for every `k < i`. (c) holds exactly when `S_(i+1) = S_i`, i.e. when `r_i`
//!   depends on `r_0, ..., r_(i-1)` (`M` invertible: `M^j S_i = S_i` means `M^j S_i ⊆ S_i`,
//!   i.e. `S_i ⊆ S_(i+j)`, and `S_(i+j) ⊆ S_(i+1) ⊆ S_i`; `j = 1` is always tried). Some
//!   `i <= t-1` has this exactly when `r_0, ..., r_(t-1)` are dependent (`r_0 = e_0^T` is not 0).
//!   (a) and (b) imply it: `M^i = c I` gives `r_i = c r_0`; an eigenvector `v ∈ S_i` of `M^i`
//!   with eigenvalue `λ` has `r_(k + i m) v = λ^m r_k v = 0` for all `k < i`, `m >= 0`, so the
//!   non-zero `v` is orthogonal to every `r_k`. And `r_k^T = (M^T)^k e_0`.
//!
//! The tests compare these verdicts with a step-by-step model of the script on every invertible
//! matrix of small sizes over small fields (`tests/math/mds_security.rs`).

use crate::Error;
use crate::field::PrimeField;
use crate::params::is_poseidon1_width;
use crate::params::matrix::Matrix;
use alloc::vec;

/// Runs the reference's MDS security checks (`algorithm_1`, `algorithm_2`, `algorithm_3` of
/// hadeshash `generate_parameters_grain.sage`; what they test and how, in the module docs) on
/// the `t × t` matrix `mds`, row-major (`mds[i · t + j]`: row `i`, column `j`, the layout of
/// [`crate::poseidon1::Poseidon1Params::mds`]).
///
/// This is the check [`crate::poseidon1::Poseidon1Params::generate`] runs on each Cauchy draw.
/// It does not check the MDS property itself (every square submatrix invertible), which a
/// Cauchy matrix of distinct values has by construction.
///
/// # Errors
/// In this order: [`Error::UnsupportedWidth`] unless `2 <= t <= MAX_WIDTH`;
/// [`Error::InvalidConstantsLength`] unless `mds.len() == t · t`; [`Error::SingularMatrix`] if
/// the matrix is not invertible; [`Error::InsecureMdsMatrix`] with `algorithm` 1, 2 or 3 for the
/// first of the script's algorithms that rejects it.
pub fn check_mds_matrix<F: PrimeField>(t: usize, mds: &[F]) -> Result<(), Error> {
    if !is_poseidon1_width(t) {
        return Err(Error::UnsupportedWidth { t });
    }
    if mds.len() != t * t {
        return Err(Error::InvalidConstantsLength {
            got: mds.len(),
            expected: t * t,
        });
    }
    let m = Matrix {
        n: t,
        a: mds.to_vec(),
    };
    if m.inverse().is_none() {
        return Err(Error::SingularMatrix);
    }
    let insecure = |algorithm| Err(Error::InsecureMdsMatrix { algorithm });
    if !first_unit_vector_is_cyclic(&m.transpose()) {
        return insecure(1);
    }
    if !first_unit_vector_is_cyclic(&m) {
        return insecure(2);
    }
    let mut power = m.clone();
    for _ in 2..=4 * t {
        power = power.mul(&m);
        if !first_unit_vector_is_cyclic(&power) {
            return insecure(3);
        }
    }
    Ok(())
}

/// Whether `e_0, A e_0, ..., A^(n-1) e_0` are linearly independent.
fn first_unit_vector_is_cyclic<F: PrimeField>(a: &Matrix<F>) -> bool {
    let n = a.n;
    let mut v = vec![F::ZERO_ELEMENT; n];
    v[0] = F::ONE_ELEMENT;
    let mut krylov = Matrix { n, a: v.clone() };
    for _ in 1..n {
        v = a.apply(&v);
        krylov.a.extend_from_slice(&v);
    }
    krylov.inverse().is_some()
}
