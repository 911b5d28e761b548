//! The one Poseidon1 round driver, on the optimized schedule of eprint 2019/458 appendix B
//! (as circomlibjs `src/poseidon_opt.js` and go-iden3-crypto `poseidon/poseidon.go` evaluate
//! it), shared by [`crate::poseidon1::ct::Poseidon1Ct`] and [`crate::poseidon1::Poseidon1`].
//!
//! The reference round `x <- M · S(x + c_r)` is rewritten (see [`crate::poseidon1::schedule`]
//! for the derivation) as: `x += full[0]`; then
//! - `R_F / 2` full rounds: S-box on every element, add the next `full` row, multiply by the MDS
//!   matrix (by the dense `pre_sparse` matrix in the last of these rounds);
//! - `R_P` partial rounds: S-box on `x_k`, add `partial[r]` to `x_k`, multiply by the sparse
//!   matrix `r` (row `k` `sparse_rows[r]`, column `k` `sparse_cols[r]`, identity elsewhere:
//!   `2t - 1` multiplications instead of `t²`), where `k` is 0 ([`PartialSbox::First`],
//!   circom) or `t - 1` ([`PartialSbox::Last`], StarkWare);
//! - `R_F / 2` full rounds: S-box on every element, add the next `full` row (none in the last
//!   round), multiply by the MDS matrix.
//!
//! When the MDS matrix is `J + diag(d)` (all ones plus a diagonal of small integers, StarkWare's
//! matrices: [`Schedule::mds_diagonal`]) and the element type evaluates that with additions
//! ([`ScheduleOps::ADDITIONS_ONLY`]), the same driver runs the other linear layer: every
//! round's matrix product is `y_i = sum_j x_j + d_i x_i`, additions and subtractions only (no
//! field product), including the partial rounds, which then skip the sparse matrices (the
//! compressed constants stay: one per partial round, after the S-box) and the last full round
//! before them uses `M` itself (no `pre_sparse`).
//!
//! The driver is written once over [`ScheduleOps`]: a field runs it with its own arithmetic
//! (blanket impl below), the AVX-512 IFMA batch kernel on a vector holding one element of each
//! of several states (`crate::simd`), with its constants in kernel form.

use crate::field::Field;
use crate::field::montgomery::{Arith, Limbs4, Mont4, WithArith, with_arith};
use crate::params::{MAX_WIDTH, PartialSbox};
use crate::poseidon2::batch_cache::{BatchBackend, Layout};

/// What the round driver does to state elements: a field implements it with its own
/// arithmetic (blanket impl below); a SIMD batch backend implements it for a vector holding one
/// element of each of several states, with its own constant type, and may reduce lazily inside
/// [`ScheduleOps::dot`].
pub(crate) trait ScheduleOps: Copy {
    /// The type of a schedule entry (the field itself, or a backend's kernel-form constant).
    type Constant: Copy;
    /// `self + c`.
    fn add_constant(self, c: Self::Constant) -> Self;
    /// The S-box, `self^D`.
    fn sbox<const D: u64>(self) -> Self;
    /// `sum_j row[j] · state[j]` over the shorter of the two (a matrix row times the state).
    fn dot(row: &[Self::Constant], state: &[Self]) -> Self;
    /// `self + w · x0` (a sparse matrix's first-column entry `w` times the new `x_0`).
    fn mul_add(self, w: Self::Constant, x0: Self) -> Self;
    /// Whether [`Self::mix_ones_plus_diagonal`] runs with additions only; when `false` the
    /// driver ignores [`Schedule::mds_diagonal`] and runs the matrix products.
    const ADDITIONS_ONLY: bool;
    /// `state <- (J + diag(d)) · state`: `y_i = sum_j x_j + d_i x_i`, `d = diagonal`
    /// (`|d_i| <=` [`MAX_MDS_DIAGONAL`]). `last` is the element the previous step changed
    /// (the partial rounds' S-box element): an implementation adds it as late as it can, so
    /// that the sums without it are ready when it arrives. Only called when
    /// [`Self::ADDITIONS_ONLY`].
    fn mix_ones_plus_diagonal(state: &mut [Self], diagonal: &[i8], last: usize);
}

impl<F: Field> ScheduleOps for F {
    type Constant = F;
    #[inline(always)]
    fn add_constant(self, c: F) -> F {
        self.add(c)
    }
    #[inline(always)]
    fn sbox<const D: u64>(self) -> F {
        Field::sbox::<D>(self)
    }
    #[inline(always)]
    fn dot(row: &[F], state: &[F]) -> F {
        row.iter()
            .zip(state)
            .fold(F::ZERO_ELEMENT, |acc, (&a, &x)| acc.add(a.mul(x)))
    }
    #[inline(always)]
    fn mul_add(self, w: F, x0: F) -> F {
        self.add(w.mul(x0))
    }
    /// Fields stored as four Montgomery limbs (ark-ff's `Fp256` fields with `p < 2^255`:
    /// BN254, BLS12-381, the Stark field) subtract on their limbs; other fields run the dense
    /// products.
    const ADDITIONS_ONLY: bool = Limbs4::<F>::SUPPORTED;
    #[inline(always)]
    fn mix_ones_plus_diagonal(state: &mut [F], diagonal: &[i8], last: usize) {
        Limbs4::<F>::mix_ones_plus_diagonal(state, diagonal, last);
    }
}

impl<F: Field, B: Arith> ScheduleOps for Mont4<F, B> {
    type Constant = F;
    #[inline(always)]
    fn add_constant(self, c: F) -> Self {
        self.plus(c)
    }
    #[inline(always)]
    fn sbox<const D: u64>(self) -> Self {
        self.power::<D>()
    }
    #[inline(always)]
    fn dot(row: &[F], state: &[Self]) -> Self {
        Mont4::dot(row, state)
    }
    #[inline(always)]
    fn mul_add(self, w: F, x0: Self) -> Self {
        self.plus_product(w, x0)
    }
    const ADDITIONS_ONLY: bool = Limbs4::<F>::SUPPORTED;
    #[inline(always)]
    fn mix_ones_plus_diagonal(state: &mut [Self], diagonal: &[i8], last: usize) {
        Mont4::mix_ones_plus_diagonal(state, diagonal, last);
    }
}

/// Borrowed view of one instance's optimized schedule, in the layout both permutation types
/// store (entries of type `F`: field elements, or a kernel's form of them). `t` is the state's
/// length.
#[derive(Clone, Copy)]
pub(crate) struct Schedule<'a, F> {
    /// `R_F` rows of `t`: row 0 is added before the first S-box layer, row `k >= 1` after the
    /// S-box layer of full round `k - 1` (the last full round adds none).
    pub full: &'a [F],
    /// The element `x_k` the partial rounds' S-box acts on.
    pub partial_sbox: PartialSbox,
    /// `R_P` constants, one per partial round, added to `x_k` after its S-box.
    pub partial: &'a [F],
    /// `R_P` rows of `t`: row `k` of each partial round's sparse matrix.
    pub sparse_rows: &'a [F],
    /// `R_P` rows of `t`: column `k` of each sparse matrix off the diagonal (entry `k` of
    /// each row is zero and unused).
    pub sparse_cols: &'a [F],
    /// `t × t`, row-major: the linear layer of the last full round before the partial rounds.
    pub pre_sparse: &'a [F],
    /// `t × t`, row-major: the MDS matrix.
    pub mds: &'a [F],
    /// `Some(d)` when the MDS matrix is `J + diag(d)` with small integers `d` (`t` entries):
    /// the additions-only linear layer (module docs) where the element type has it.
    pub mds_diagonal: Option<&'a [i8]>,
}

/// The largest `|d_i|` of an MDS matrix `J + diag(d)` evaluated with additions
/// ([`crate::poseidon1::schedule::OptimizedSchedule::mds_diagonal`]); StarkWare's matrices have
/// `|d_i| <= 5`.
pub const MAX_MDS_DIAGONAL: i8 = crate::field::montgomery::MAX_DIAGONAL;

/// Poseidon1's [`Layout`], [`Schedule`]: the AVX-512 IFMA kernel has its round structure, the
/// Goldilocks kernels do not (Poseidon1 batches over Goldilocks run the portable path).
pub(crate) enum Poseidon1Layout {}

impl Layout for Poseidon1Layout {
    type Of<'a, W: Copy + Sync + 'a> = Schedule<'a, W>;
    fn has_kernel(backend: BatchBackend) -> bool {
        matches!(backend, BatchBackend::Portable | BatchBackend::Avx512Ifma)
    }
}

/// `state <- m · state` for the row-major `t × t` matrix `m`; `out` is scratch space of at
/// least `t` elements.
#[inline(always)]
fn mix<A: ScheduleOps>(state: &mut [A], m: &[A::Constant], out: &mut [A]) {
    let t = state.len();
    for (y, row) in out.iter_mut().zip(m.chunks_exact(t)) {
        *y = A::dot(row, state);
    }
    state.copy_from_slice(&out[..t]);
}

/// A round's linear layer: a dense `t × t` matrix (row-major), or `J + diag(d)` by additions.
#[derive(Clone, Copy)]
enum Linear<'a, C> {
    Dense(&'a [C]),
    /// `J + diag(d)`, and the element to add last (see [`ScheduleOps::mix_ones_plus_diagonal`]).
    OnesPlusDiagonal(&'a [i8], usize),
}

/// `state <- L · state` for the linear layer `L`; `out` is scratch space of at least `t`
/// elements.
#[inline(always)]
fn linear<A: ScheduleOps>(state: &mut [A], l: Linear<'_, A::Constant>, out: &mut [A]) {
    match l {
        Linear::Dense(m) => mix(state, m, out),
        Linear::OnesPlusDiagonal(d, last) => A::mix_ones_plus_diagonal(state, d, last),
    }
}

/// One full round of the schedule: S-box on every element, the optional row of constants, the
/// linear layer `m`.
#[inline(always)]
fn full_round<A: ScheduleOps, const D: u64>(
    state: &mut [A],
    constants: Option<&[A::Constant]>,
    m: Linear<'_, A::Constant>,
    out: &mut [A],
) {
    for x in state.iter_mut() {
        *x = x.sbox::<D>();
    }
    if let Some(constants) = constants {
        for (x, &c) in state.iter_mut().zip(constants) {
            *x = x.add_constant(c);
        }
    }
    linear(state, m, out);
}

/// Permutes `state` in place. `state.len()` is the width `t` (at least 1 and at most
/// [`MAX_WIDTH`]); the caller guarantees that the schedule's tables have the matching lengths
/// (checked when the instance was built).
#[inline(always)]
pub(crate) fn permute<A: ScheduleOps, const D: u64>(state: &mut [A], s: Schedule<'_, A::Constant>) {
    let t = state.len();
    let Some(&first_element) = state.first() else {
        return;
    };
    // Scratch for the matrix products, initialized once per permutation.
    let mut out = [first_element; MAX_WIDTH];
    let mut rows = s.full.chunks_exact(t);
    let half = s.full.len() / t / 2;
    if let Some(first) = rows.next() {
        for (x, &c) in state.iter_mut().zip(first) {
            *x = x.add_constant(c);
        }
    }
    // The additions-only layer where the matrix and the element type allow it (module docs).
    let small = s.mds_diagonal.filter(|d| A::ADDITIONS_ONLY && d.len() == t);
    let k = s.partial_sbox.index(t);
    let mds = match small {
        Some(d) => Linear::OnesPlusDiagonal(d, k),
        None => Linear::Dense(s.mds),
    };
    for round in 0..half {
        let m = match small {
            None if round + 1 == half => Linear::Dense(s.pre_sparse),
            _ => mds,
        };
        full_round::<A, D>(state, rows.next(), m, &mut out);
    }
    if let Some(d) = small {
        // Partial rounds on `M` itself: S-box and the one compressed constant on `x_k`.
        for &c in s.partial {
            state[k] = state[k].sbox::<D>().add_constant(c);
            A::mix_ones_plus_diagonal(state, d, k);
        }
    } else {
        let sparse = s
            .sparse_rows
            .chunks_exact(t)
            .zip(s.sparse_cols.chunks_exact(t));
        for (&c, (row, col)) in s.partial.iter().zip(sparse) {
            let xk = state[k].sbox::<D>().add_constant(c);
            state[k] = xk;
            let yk = A::dot(row, state);
            // Every element but x_k (one of the two ranges is empty for k = 0 or t - 1).
            for (x, &w) in state[..k].iter_mut().zip(col) {
                *x = x.mul_add(w, xk);
            }
            for (x, &w) in state[k + 1..].iter_mut().zip(&col[k + 1..]) {
                *x = x.mul_add(w, xk);
            }
            state[k] = yk;
        }
    }
    for _ in 0..half {
        full_round::<A, D>(state, rows.next(), mds, &mut out);
    }
}

/// [`permute`] on a state of `T` elements of the field `F`. For a four-limb Montgomery field
/// ([`Limbs4::SUPPORTED`]: BN254, BLS12-381, the Stark field) the CPU is checked once, then the
/// rounds run on [`Mont4`] elements whose products use the backend found (MULX/ADX or
/// portable: one compiled copy of the rounds each), with no check per product; other fields
/// run on their own arithmetic. The state is a local copy throughout. Same values either way.
#[inline(always)]
pub(crate) fn permute_fixed<F: Field, const D: u64, const T: usize>(
    state: &mut [F; T],
    s: Schedule<'_, F>,
) {
    /// The rounds on `Mont4<F, B>`, for [`with_arith`].
    struct Rounds<'a, 'b, F, const D: u64, const T: usize> {
        state: &'a mut [F; T],
        schedule: Schedule<'b, F>,
    }
    impl<F: Field, const D: u64, const T: usize> WithArith for Rounds<'_, '_, F, D, T> {
        type Output = ();
        #[inline(always)]
        fn run<B: Arith>(self, arith: B) {
            let mut local = self.state.map(|e| Mont4::new(e, arith));
            permute::<Mont4<F, B>, D>(&mut local, self.schedule);
            for (e, x) in self.state.iter_mut().zip(local) {
                if let Some(x) = x.get() {
                    *e = x;
                }
            }
        }
    }
    if Limbs4::<F>::SUPPORTED {
        with_arith(Rounds::<F, D, T> { state, schedule: s });
        return;
    }
    let mut local = *state;
    permute::<F, D>(&mut local, s);
    *state = local;
}
