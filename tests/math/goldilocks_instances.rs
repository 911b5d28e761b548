//! The Goldilocks instances (t = 8, 12, 16, 20): the `GoldilocksFast` ct path and cached
//! runtime path, the same instances generated on ark's `Goldilocks`, and the reference
//! (`zkhash` 0.2) agree, and the baked constants are the reference's and our Grain's.
#![cfg(all(feature = "goldilocks", feature = "std"))]

use testkit as common;

use common::{instance, vectors};
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::Field;
use fast_poseidon2::goldilocks::{Goldilocks, GoldilocksFast, MODULUS};
use fast_poseidon2::instances::goldilocks;
use fast_poseidon2::security::check_internal_matrix;
use fast_poseidon2::{Poseidon2, Poseidon2Params};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use zkhash::fields::goldilocks::FpGoldiLocks as Zk;
use zkhash::poseidon2::poseidon2::Poseidon2 as ZkPoseidon2;
use zkhash::poseidon2::poseidon2_instance_goldilocks as zk;
use zkhash::poseidon2::poseidon2_params::Poseidon2Params as ZkParams;

/// Random states per width and check.
const STATES: usize = 1000;

type Ct<const T: usize> = Poseidon2Ct<GoldilocksFast, T, 8, 22, 7>;

/// One width: its id in the vector files, our two paths and the reference's tables.
struct Width<const T: usize> {
    id: &'static str,
    ct: Ct<T>,
    /// The cached runtime getter (`GoldilocksFast`).
    cached: &'static Poseidon2<GoldilocksFast>,
    /// The same instance generated on ark's `Goldilocks`.
    ark: Poseidon2<Goldilocks>,
    zk_params: &'static std::sync::Arc<ZkParams<Zk>>,
    /// The reference's `RC{t}`: 30 rows of `t`; partial-round rows hold their constant at 0.
    zk_rc: &'static [Vec<Zk>],
    /// The reference's `MAT_DIAG{t}_M_1`.
    zk_diag_m1: &'static [Zk],
}

/// Calls the generic `$check` once per shipped width.
macro_rules! each_width {
    ($check:ident) => {
        each_width!(@ $check;
            (8, t8, poseidon2_t8, POSEIDON2_GOLDILOCKS_8_PARAMS, RC8, MAT_DIAG8_M_1),
            (12, t12, poseidon2_t12, POSEIDON2_GOLDILOCKS_12_PARAMS, RC12, MAT_DIAG12_M_1),
            (16, t16, poseidon2_t16, POSEIDON2_GOLDILOCKS_16_PARAMS, RC16, MAT_DIAG16_M_1),
            (20, t20, poseidon2_t20, POSEIDON2_GOLDILOCKS_20_PARAMS, RC20, MAT_DIAG20_M_1)
        )
    };
    (@ $check:ident; $(($t:literal, $ct:ident, $getter:ident, $params:ident, $rc:ident, $diag:ident)),*) => {
        $(
            $check(Width::<$t> {
                id: concat!("goldilocks_t", $t),
                ct: goldilocks::ct::$ct(),
                cached: goldilocks::$getter(),
                ark: Poseidon2::new(Poseidon2Params::generate($t, 7, 8, 22).unwrap()),
                zk_params: &zk::$params,
                zk_rc: &zk::$rc,
                zk_diag_m1: &zk::$diag,
            });
        )*
    };
}

fn zk_to_u64(x: Zk) -> u64 {
    ark_ff_04::PrimeField::into_bigint(x).0[0]
}

fn ark_to_u64(x: Goldilocks) -> u64 {
    GoldilocksFast::from(x).to_canonical_u64()
}

fn ark_u64s(xs: &[Goldilocks]) -> Vec<u64> {
    xs.iter().map(|&x| ark_to_u64(x)).collect()
}

fn canonical(state: &[GoldilocksFast]) -> Vec<u64> {
    state.iter().map(|x| x.to_canonical_u64()).collect()
}

/// `STATES` random states of `T` raw u64 values (a few exceed p: those are lazy inputs too).
fn random_states<const T: usize>(seed: u64) -> impl Iterator<Item = [u64; T]> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..STATES).map(move |_| core::array::from_fn(|_| rng.r#gen()))
}

/// The ct (`GoldilocksFast`) output on the raw values, canonical.
fn ct_output<const T: usize>(w: &Width<T>, raw: [u64; T]) -> Vec<u64> {
    canonical(&w.ct.permutation(&raw.map(GoldilocksFast::new)))
}

/// The ark path's output on the raw values (reduced mod p), canonical.
fn ark_output<const T: usize>(w: &Width<T>, raw: [u64; T]) -> Vec<u64> {
    let input: Vec<Goldilocks> = raw.iter().map(|&v| Goldilocks::from(v)).collect();
    ark_u64s(&w.ark.permutation(&input).unwrap())
}

/// The cached runtime path's output on the raw values, canonical.
fn cached_output<const T: usize>(w: &Width<T>, raw: [u64; T]) -> Vec<u64> {
    let input = raw.map(GoldilocksFast::new);
    canonical(&w.cached.permutation(&input).unwrap())
}

#[test]
fn ct_cached_and_ark_paths_agree_on_random_states() {
    fn check<const T: usize>(w: Width<T>) {
        for raw in random_states::<T>(T as u64) {
            let ct = ct_output(&w, raw);
            assert_eq!(ct, cached_output(&w, raw), "{} cached: {raw:x?}", w.id);
            assert_eq!(ct, ark_output(&w, raw), "{} ark: {raw:x?}", w.id);
        }
    }
    each_width!(check);
}

/// `Poseidon2::permute_batch` dispatches on the S-box degree; Goldilocks is the shipped d = 7.
#[test]
fn ark_path_batch_equals_the_single_state_permutation() {
    fn check<const T: usize>(w: Width<T>) {
        let states: Vec<Goldilocks> = random_states::<T>(0xba7c)
            .take(20)
            .flatten()
            .map(Goldilocks::from)
            .collect();
        let mut batch = states.clone();
        w.ark.permute_batch(&mut batch).unwrap();
        for (got, input) in batch.chunks_exact(T).zip(states.chunks_exact(T)) {
            assert_eq!(got, w.ark.permutation(input).unwrap(), "{}", w.id);
        }
    }
    each_width!(check);
}

#[test]
fn non_canonical_inputs_give_the_same_output_as_canonical_ones() {
    fn check<const T: usize>(w: Width<T>) {
        // Elements below 2^64 - p = 2^32 - 1 also have the representation x + p.
        let mut rng = StdRng::seed_from_u64(0x1a2b);
        for _ in 0..STATES {
            let small: [u64; T] = core::array::from_fn(|_| rng.gen_range(0..u64::MAX - MODULUS));
            let lifted_mask: u32 = rng.r#gen();
            let lifted: [u64; T] = core::array::from_fn(|i| {
                if i == 0 || lifted_mask >> (i % 32) & 1 == 1 {
                    small[i] + MODULUS
                } else {
                    small[i]
                }
            });
            assert_eq!(
                ct_output(&w, lifted),
                ct_output(&w, small),
                "{}: {lifted:x?}",
                w.id
            );
        }
        assert_eq!(
            ct_output(&w, [MODULUS; T]),
            ct_output(&w, [0; T]),
            "{}: all p",
            w.id
        );
    }
    each_width!(check);
}

#[test]
fn both_paths_match_zkhash_on_random_states() {
    fn check<const T: usize>(w: Width<T>) {
        let reference = ZkPoseidon2::new(w.zk_params);
        for raw in random_states::<T>(1000 + T as u64) {
            let zk_input: Vec<Zk> = raw.iter().map(|&v| Zk::from(v)).collect();
            let want: Vec<u64> = reference
                .permutation(&zk_input)
                .into_iter()
                .map(zk_to_u64)
                .collect();
            assert_eq!(ct_output(&w, raw), want, "{} ct: {raw:x?}", w.id);
            assert_eq!(cached_output(&w, raw), want, "{} cached: {raw:x?}", w.id);
            assert_eq!(ark_output(&w, raw), want, "{} ark: {raw:x?}", w.id);
        }
    }
    each_width!(check);
}

/// A parameter set in the reference's layout, as canonical integers: `RC{t}` (one row of `t` per
/// round, partial-round rows holding their constant at index 0 and zeros elsewhere) and
/// `MAT_DIAG{t}_M_1`.
fn reference_layout<F: Field>(
    t: usize,
    params: &Poseidon2Params<F>,
    to_u64: impl Fn(F) -> u64,
) -> (Vec<Vec<u64>>, Vec<u64>) {
    let row = |xs: &[F]| xs.iter().map(|&x| to_u64(x)).collect::<Vec<u64>>();
    let external = params.external_round_constants();
    let (first, last) = external.split_at(external.len() / 2);
    let partial = params.internal_round_constants().iter().map(|&c| {
        let mut r = vec![0; t];
        r[0] = to_u64(c);
        r
    });
    let rows = first
        .chunks(t)
        .map(row)
        .chain(partial)
        .chain(last.chunks(t).map(row))
        .collect();
    (rows, row(params.internal_diagonal_minus_one()))
}

#[test]
fn baked_tables_equal_zkhash_tables_entry_by_entry() {
    fn check<const T: usize>(w: Width<T>) {
        let zk_rows: Vec<Vec<u64>> = w
            .zk_rc
            .iter()
            .map(|row| row.iter().map(|&x| zk_to_u64(x)).collect())
            .collect();
        let zk_diag: Vec<u64> = w.zk_diag_m1.iter().map(|&x| zk_to_u64(x)).collect();
        let reference = (zk_rows, zk_diag);
        let fast = reference_layout(T, &w.ct.to_params(), GoldilocksFast::to_canonical_u64);
        assert_eq!(fast, reference, "{}: ct (GoldilocksFast) tables", w.id);
        let cached = reference_layout(T, w.cached.params(), GoldilocksFast::to_canonical_u64);
        assert_eq!(cached, reference, "{}: cached tables", w.id);
        let ark = reference_layout(T, w.ark.params(), ark_to_u64);
        assert_eq!(ark, reference, "{}: ark tables", w.id);
    }
    each_width!(check);
}

#[test]
fn generated_constants_and_diagonals_equal_instances_json() {
    fn check<const T: usize>(w: Width<T>) {
        let file = vectors("instances.json");
        let entry = instance(&file, w.id);
        let dec = |v: &serde_json::Value| -> Vec<u64> {
            v.as_array()
                .expect("array")
                .iter()
                .map(|x| x.as_str().expect("str").parse().expect("u64"))
                .collect()
        };
        let params = Poseidon2Params::<Goldilocks>::generate(T, 7, 8, 22).unwrap();
        let external = ark_u64s(params.external_round_constants());
        let rc = &entry["round_constants"];
        assert_eq!(external[..2], dec(&rc["first2"])[..], "{}", w.id);
        assert_eq!(
            external[external.len() - 2..],
            dec(&rc["last2"])[..],
            "{}",
            w.id
        );
        let internal = params.internal_round_constants();
        for (key, x) in [
            ("first_partial_round_constant", internal[0]),
            ("last_partial_round_constant", internal[internal.len() - 1]),
        ] {
            let want: u64 = rc[key].as_str().expect("str").parse().expect("u64");
            assert_eq!(ark_to_u64(x), want, "{} {key}", w.id);
        }
        let diag = ark_u64s(params.internal_diagonal_minus_one());
        assert_eq!(
            diag,
            dec(&entry["internal_matrix"]["mat_diag_m_1"]["dec"]),
            "{}",
            w.id
        );
    }
    each_width!(check);
}

#[test]
fn baked_tables_equal_fresh_generation_over_both_field_types() {
    fn check<const T: usize>(w: Width<T>) {
        let ark = Poseidon2Params::<Goldilocks>::generate(T, 7, 8, 22).unwrap();
        assert_eq!(ark, *w.ark.params(), "{}: ark", w.id);
        assert_eq!(w.cached.params(), &w.ct.to_params(), "{}: cached", w.id);
        let fast = Poseidon2Params::<GoldilocksFast>::generate(T, 7, 8, 22).unwrap();
        assert_eq!(fast, w.ct.to_params(), "{}: GoldilocksFast", w.id);
    }
    each_width!(check);
}

#[test]
fn shipped_diagonals_pass_the_internal_matrix_check() {
    fn check<const T: usize>(w: Width<T>) {
        let mu: Vec<GoldilocksFast> =
            w.ct.internal_diagonal_minus_one()
                .iter()
                .map(|&m| m.add(GoldilocksFast::ONE_ELEMENT))
                .collect();
        assert_eq!(
            check_internal_matrix(&mu),
            Ok(()),
            "{}: GoldilocksFast",
            w.id
        );
        let mu: Vec<Goldilocks> = mu.into_iter().map(Goldilocks::from).collect();
        assert_eq!(check_internal_matrix(&mu), Ok(()), "{}: ark", w.id);
    }
    each_width!(check);
}
