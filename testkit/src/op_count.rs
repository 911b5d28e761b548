//! An instrumented field that counts every operation the permutation performs.
//!
//! Two nested newtypes around any [`Field`], so that nothing of the S-box chain or the linear
//! layers is written twice:
//! - [`Arith`] counts every `add`, `double`, `square` and `mul`, and keeps the trait's default
//!   S-box chain (so the squarings and multiplications inside S-boxes are counted here);
//! - [`Counted`] wraps [`Arith`], counts `sbox` calls and forwards them to the inner chain; a
//!   `mul` that reaches it comes from the round driver, not from an S-box, i.e. it is a
//!   multiplication by the internal diagonal.
//!
//! The counters are thread-local, so tests running in parallel do not disturb each other.
//! Used by `tests/math/op_counts.rs` and `benches/floor.rs`.

use fast_poseidon2::field::{Field, Representation};
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::{Poseidon2, Poseidon2Params, ct::Poseidon2Ct};
use std::cell::Cell;

/// Operation counts of one permutation call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// Calls of the S-box `x^d`.
    pub sboxes: u64,
    /// Squarings (all inside S-boxes).
    pub squarings: u64,
    /// General multiplications, including the diagonal ones.
    pub multiplications: u64,
    /// Multiplications by an internal-diagonal entry `mu_i - 1` (a subset of `multiplications`).
    pub diagonal_multiplications: u64,
    /// Additions (round constants and linear layers).
    pub additions: u64,
    /// Doublings (linear layers).
    pub doublings: u64,
}

thread_local! {
    static COUNTS: Cell<OpCounts> = Cell::new(OpCounts::default());
}

fn bump(update: impl FnOnce(&mut OpCounts)) {
    COUNTS.with(|cell| {
        let mut counts = cell.get();
        update(&mut counts);
        cell.set(counts);
    });
}

/// Counts the field arithmetic of `F`; the S-box is the trait's default chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arith<F>(F);

/// No batch-backend hooks: a field from outside the crate runs batches on the portable path.
impl<F: Field> Representation for Arith<F> {}

impl<F: Field> Field for Arith<F> {
    const ZERO_ELEMENT: Self = Arith(F::ZERO_ELEMENT);
    const ONE_ELEMENT: Self = Arith(F::ONE_ELEMENT);

    fn from_u64(v: u64) -> Self {
        Arith(F::from_u64(v))
    }
    fn add(self, rhs: Self) -> Self {
        bump(|c| c.additions += 1);
        Arith(self.0.add(rhs.0))
    }
    fn doubled(self) -> Self {
        bump(|c| c.doublings += 1);
        Arith(self.0.doubled())
    }
    fn squared(self) -> Self {
        bump(|c| c.squarings += 1);
        Arith(self.0.squared())
    }
    fn mul(self, rhs: Self) -> Self {
        bump(|c| c.multiplications += 1);
        Arith(self.0.mul(rhs.0))
    }
}

/// Counts S-box calls and the multiplications made outside S-boxes; arithmetic is counted by
/// the inner [`Arith`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted<F>(Arith<F>);

impl<F: Field> Representation for Counted<F> {}

impl<F: Field> Field for Counted<F> {
    const ZERO_ELEMENT: Self = Counted(Arith::ZERO_ELEMENT);
    const ONE_ELEMENT: Self = Counted(Arith::ONE_ELEMENT);

    fn from_u64(v: u64) -> Self {
        Counted(Arith::from_u64(v))
    }
    fn add(self, rhs: Self) -> Self {
        Counted(self.0.add(rhs.0))
    }
    fn doubled(self) -> Self {
        Counted(self.0.doubled())
    }
    fn squared(self) -> Self {
        Counted(self.0.squared())
    }
    fn mul(self, rhs: Self) -> Self {
        bump(|c| c.diagonal_multiplications += 1);
        Counted(self.0.mul(rhs.0))
    }
    fn sbox<const D: u64>(self) -> Self {
        bump(|c| c.sboxes += 1);
        Counted(self.0.sbox::<D>())
    }
}

/// The generic linear layers (the one line a field implemented outside the crate adds to run
/// the permutation): every addition, doubling and diagonal product they make is counted.
impl<F: Field> LinearLayers for Counted<F> {}

/// `params` with every constant wrapped in [`Counted`]: the same instance, instrumented.
pub fn counted_params<F: Field>(params: &Poseidon2Params<F>) -> Poseidon2Params<Counted<F>> {
    let wrap = |xs: &[F]| xs.iter().map(|&x| Counted(Arith(x))).collect();
    let counted = Poseidon2Params::new(
        params.width(),
        params.sbox_degree(),
        params.rounds_f(),
        params.rounds_p(),
        wrap(params.external_round_constants()),
        wrap(params.internal_round_constants()),
        wrap(params.internal_diagonal_minus_one()),
    )
    .expect("wrapping keeps the shape")
    .with_external_matrix(params.external_matrix());
    match params.internal_sum_scale() {
        Some(scale) => counted.with_internal_sum_scale(Counted(Arith(scale))),
        None => counted,
    }
}

/// The input `[0, 1, ..., t-1]` (counts do not depend on the values).
fn counted_input<F: Field>(t: usize) -> Vec<Counted<F>> {
    (0..t as u64).map(Counted::from_u64).collect()
}

/// Runs `run` with fresh counters and returns what it counted.
fn counting(run: impl FnOnce()) -> OpCounts {
    COUNTS.with(|cell| cell.set(OpCounts::default()));
    run();
    COUNTS.with(Cell::get)
}

/// The operations one call of the runtime-width permutation [`Poseidon2`] performs.
pub fn count_runtime<F: Field>(params: &Poseidon2Params<F>) -> OpCounts {
    let perm = Poseidon2::new(counted_params(params));
    let mut state = counted_input::<F>(params.width());
    counting(|| perm.permute_mut(&mut state).expect("width"))
}

/// The operations one call of the const-generic permutation [`Poseidon2Ct`] performs.
pub fn count_ct<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    params: &Poseidon2Params<F>,
) -> OpCounts {
    let perm = Poseidon2Ct::<Counted<F>, T, RF, RP, D>::from_params(&counted_params(params))
        .expect("shape");
    let mut state: [Counted<F>; T] = counted_input::<F>(T).try_into().expect("width");
    counting(|| perm.permute_mut(&mut state))
}

/// The operations one call of the const-generic Poseidon1 permutation performs, on the
/// optimized schedule of `perm` (its tables wrapped in [`Counted`]).
pub fn count_poseidon1_ct<
    F: Field,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    perm: &fast_poseidon2::poseidon1::ct::Poseidon1Ct<F, T, RF, RP, D>,
) -> OpCounts {
    use fast_poseidon2::poseidon1::{Poseidon1, ct::Poseidon1Ct};
    let runtime = Poseidon1::from(perm);
    let s = runtime.schedule();
    fn rows<F: Field, const T: usize, const N: usize>(v: &[F]) -> [[Counted<F>; T]; N] {
        core::array::from_fn(|i| core::array::from_fn(|j| Counted(Arith(v[i * T + j]))))
    }
    let counted = Poseidon1Ct::<Counted<F>, T, RF, RP, D>::from_schedule(
        rows::<F, T, RF>(&s.full),
        core::array::from_fn(|i| Counted(Arith(s.partial[i]))),
        rows::<F, T, RP>(&s.sparse_rows),
        rows::<F, T, RP>(&s.sparse_cols),
        rows::<F, T, T>(&s.pre_sparse),
        rows::<F, T, T>(&s.mds),
    );
    let mut state: [Counted<F>; T] = counted_input::<F>(T).try_into().expect("width");
    counting(|| counted.permute_mut(&mut state))
}
