//! Exact operation counts: the counts one permutation call performs, computed from the round
//! structure (paper section 5, Figure 1) and the linear-layer algorithms of `src/poseidon2/linear.rs`,
//! equal the counts an instrumented field records through a real permutation run.
//!
//! Run with `--nocapture` to print the table quoted in `docs/benchmarks.md`.
#![cfg(feature = "bn254")]

use testkit::op_count;

use ark_bn254::Fr;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::Field;
use fast_poseidon2::{ExternalMatrix, Poseidon2Params};
use op_count::{OpCounts, count_ct, count_runtime};

/// The shape `(t, d, R_F, R_P)` of an instance.
#[derive(Clone, Copy, Debug)]
struct Shape {
    t: u64,
    d: u64,
    rounds_f: u64,
    rounds_p: u64,
    /// The external matrix's block.
    m4: ExternalMatrix,
    /// Whether the internal matrix has a sum scale (`c·J + diag(d)`, SP1's).
    scaled: bool,
}

/// `(squarings, multiplications)` of the S-box chain `x^d` (`src/field/mod.rs`).
fn sbox_chain(d: u64) -> (u64, u64) {
    match d {
        3 => (1, 1),  // x^2 · x
        5 => (2, 1),  // (x^2)^2 · x
        7 => (2, 2),  // (x^2)^2 · (x^2 · x)
        11 => (3, 2), // ((x^2)^2)^2 · (x^2 · x)
        _ => unreachable!("unsupported degree"),
    }
}

/// Additions to sum `n` elements: the accumulator starts at the first element.
fn sum_additions(n: u64) -> u64 {
    n - 1
}

/// `(additions, doublings)` of the external layer `M_E` with block `m4`.
fn external_layer(t: u64, m4: ExternalMatrix) -> (u64, u64) {
    let m4 = match m4 {
        // The paper's M4 on one block: a = x0+x1, b = x2+x3, c = 2x1+b, e = 2x3+a,
        // row1 = 4a+c, row3 = 4b+e, row0 = e+row1, row2 = c+row3.
        ExternalMatrix::HorizenLabs => (8, 6),
        // Plonky3's: a = x0+x1, b = x2+x3, s = a+b, u = s+x1, v = s+x3, row0 = u+a,
        // row1 = u+2x2, row2 = v+b, row3 = v+2x0.
        ExternalMatrix::Plonky3 => (9, 2),
    };
    match t {
        // y_i = x_i + sum(x)
        2 | 3 => (sum_additions(t) + t, 0),
        4 => m4,
        // M4 per block, then four column sums over the t/4 blocks, then one addition per element.
        _ => {
            let blocks = t / 4;
            (blocks * m4.0 + 4 * sum_additions(blocks) + t, blocks * m4.1)
        }
    }
}

/// `(additions, doublings, diagonal multiplications)` of the internal layer `M_I`.
fn internal_layer(t: u64, scaled: bool) -> (u64, u64, u64) {
    match t {
        // y_i = d_i x_i + c · sum(x), at every width
        _ if scaled => (sum_additions(t) + t, 0, t + 1),
        // [[2,1],[1,3]] and [[2,1,1],[1,2,1],[1,1,3]]: y_i = x_i + sum (y_last = 2 x_last + sum).
        2 | 3 => (sum_additions(t) + t, 1, 0),
        // y_i = (mu_i - 1) x_i + sum(x)
        _ => (sum_additions(t) + t, 0, t),
    }
}

/// The counts of one permutation call, from the round structure: `M_E`, `R_F / 2` full rounds
/// (`t` constant additions, `t` S-boxes, `M_E`), `R_P` partial rounds (one constant addition, one
/// S-box, `M_I`), `R_F / 2` full rounds.
fn formula(s: Shape) -> OpCounts {
    let Shape {
        t,
        d,
        rounds_f,
        rounds_p,
        m4,
        scaled,
    } = s;
    let (sq, mul) = sbox_chain(d);
    let (ext_add, ext_dbl) = external_layer(t, m4);
    let (int_add, int_dbl, int_diag) = internal_layer(t, scaled);
    let sboxes = rounds_f * t + rounds_p;
    OpCounts {
        sboxes,
        squarings: sboxes * sq,
        multiplications: sboxes * mul + rounds_p * int_diag,
        diagonal_multiplications: rounds_p * int_diag,
        additions: (rounds_f + 1) * ext_add + rounds_f * t + rounds_p * (1 + int_add),
        doublings: (rounds_f + 1) * ext_dbl + rounds_p * int_dbl,
    }
}

fn shape_of<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>(
    ct: &Poseidon2Ct<F, T, RF, RP, D>,
) -> Shape {
    Shape {
        t: T as u64,
        d: D,
        rounds_f: RF as u64,
        rounds_p: RP as u64,
        m4: ct.external_matrix(),
        scaled: ct.internal_sum_scale().is_some(),
    }
}

/// Markdown header of the printed table.
const TABLE_HEADER: &str = "| instance | t | d | R_F | R_P | S-boxes | squarings | multiplications (diagonal) | additions | doublings |\n\
                            |---|---|---|---|---|---|---|---|---|---|";

fn table_row(name: &str, s: Shape, c: OpCounts) -> String {
    format!(
        "| {name} | {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} |",
        s.t,
        s.d,
        s.rounds_f,
        s.rounds_p,
        c.sboxes,
        c.squarings,
        c.multiplications,
        c.diagonal_multiplications,
        c.additions,
        c.doublings
    )
}

/// Calls `$f(name, &ct)` for every shipped instance in this build (`for_each_instance!`).
macro_rules! for_each_shipped_instance {
    ($f:ident) => {{
        macro_rules! call {
            ($name:ident, $t:literal, $digest:literal, $group:literal, $ct:expr, $flexible:expr) => {
                $f(stringify!($name), &$ct);
            };
        }
        testkit::for_each_instance!(call);
    }};
}

/// The shapes of the shipped instances (`for_each_instance!`), as `(name, t, d, R_F, R_P)`.
fn instance_shapes() -> Vec<(&'static str, u64, u64, u64, u64)> {
    #[allow(unused_mut)]
    let mut shapes = Vec::new();
    macro_rules! shape {
        ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
            shapes.push((stringify!($name), $t, $d, $rf, $rp));
        };
    }
    testkit::for_each_instance!(@spec shape);
    shapes
}

/// Parameters of shape `s` over BN254 with arbitrary constants: counts do not depend on the
/// constants' values, only on the shape.
fn params_of_shape(s: Shape) -> Poseidon2Params<Fr> {
    let t = s.t as usize;
    let elements =
        |n: usize, offset: u64| (0..n as u64).map(|i| Fr::from_u64(offset + i)).collect();
    let diag_m1 = match t {
        2 => vec![Fr::from_u64(1), Fr::from_u64(2)],
        3 => vec![Fr::from_u64(1), Fr::from_u64(1), Fr::from_u64(2)],
        _ => elements(t, 2),
    };
    let params = Poseidon2Params::new(
        t,
        s.d,
        s.rounds_f as usize,
        s.rounds_p as usize,
        elements(s.rounds_f as usize * t, 100),
        elements(s.rounds_p as usize, 1000),
        diag_m1,
    )
    .expect("valid shape")
    .with_external_matrix(s.m4);
    if s.scaled {
        params.with_internal_sum_scale(Fr::from_u64(7))
    } else {
        params
    }
}

#[test]
fn shipped_instances_count_exactly_the_round_structure_formula() {
    fn check<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>(
        name: &str,
        ct: &Poseidon2Ct<F, T, RF, RP, D>,
    ) {
        let shape = shape_of(ct);
        assert_eq!(count_runtime(&ct.to_params()), formula(shape), "{name}");
    }
    for_each_shipped_instance!(check);
}

#[test]
fn ct_and_runtime_paths_count_the_same_operations() {
    fn check<F: Field, const T: usize, const RF: usize, const RP: usize, const D: u64>(
        name: &str,
        ct: &Poseidon2Ct<F, T, RF, RP, D>,
    ) {
        let params = ct.to_params();
        assert_eq!(
            count_ct::<F, T, RF, RP, D>(&params),
            count_runtime(&params),
            "{name}"
        );
    }
    for_each_shipped_instance!(check);
}

#[test]
fn every_instance_shape_counts_exactly_the_formula() {
    println!("{TABLE_HEADER}");
    for (name, t, d, rounds_f, rounds_p) in instance_shapes() {
        let shape = Shape {
            t,
            d,
            rounds_f,
            rounds_p,
            m4: ExternalMatrix::HorizenLabs,
            scaled: false,
        };
        let counted = count_runtime(&params_of_shape(shape));
        assert_eq!(counted, formula(shape), "{name}");
        println!("{}", table_row(name, shape, counted));
    }
}

#[test]
fn every_width_and_degree_counts_exactly_the_formula() {
    for t in [2, 3, 4, 8, 12, 16, 20, 24, 28, 32] {
        for d in [3, 5, 7, 11] {
            for m4 in [ExternalMatrix::HorizenLabs, ExternalMatrix::Plonky3] {
                for scaled in [false, true] {
                    let shape = Shape {
                        t,
                        d,
                        rounds_f: 8,
                        rounds_p: 22,
                        m4,
                        scaled,
                    };
                    assert_eq!(
                        count_runtime(&params_of_shape(shape)),
                        formula(shape),
                        "t = {t}, d = {d}, {m4:?}, scaled: {scaled}"
                    );
                }
            }
        }
    }
}

#[test]
fn bn254_t3_counts_match_a_hand_count() {
    // 80 S-boxes (8 full rounds x 3 + 56 partial) of 2 squarings and 1 multiplication;
    // additions: 9 external layers x 5 + 24 full-round constants + 56 x (1 constant + 5 in M_I);
    // doublings: one per internal layer.
    let expected = OpCounts {
        sboxes: 80,
        squarings: 160,
        multiplications: 80,
        diagonal_multiplications: 0,
        additions: 405,
        doublings: 56,
    };
    assert_eq!(
        count_runtime(&fast_poseidon2::instances::bn254::ct::t3().to_params()),
        expected
    );
}

/// The optimized Poseidon1 schedule (eprint 2019/458 appendix B) of the circom t = 3 instance
/// (R_F = 8, R_P = 57, d = 5): counted through a real run, exactly 600 multiplications
/// (squarings included) against the dense round structure's 828.
#[test]
fn optimized_poseidon1_t3_needs_600_multiplications_against_828_dense() {
    use fast_poseidon2::instances::circom_bn254;
    let (t, rounds_f, rounds_p) = (3u64, 8u64, 57u64);
    // Dense: every S-box 3 multiplications ((x^2)^2 · x), every round a t x t MDS product.
    let dense = (rounds_f * t + rounds_p) * 3 + (rounds_f + rounds_p) * t * t;
    assert_eq!(dense, 828);
    // Optimized: the same S-boxes; R_F dense products; R_P sparse products of 2t - 1.
    let optimized = (rounds_f * t + rounds_p) * 3 + rounds_f * t * t + rounds_p * (2 * t - 1);
    assert_eq!(optimized, 600);
    let counts = op_count::count_poseidon1_ct(&circom_bn254::ct::T3);
    assert_eq!(counts.sboxes, rounds_f * t + rounds_p);
    assert_eq!(counts.squarings + counts.multiplications, optimized);
    assert!(counts.squarings + counts.multiplications <= 600);
}
