//! The Goldilocks instances (t = 8, 12, 16, 20): the `GoldilocksFast` ct path, the ark
//! `Goldilocks` cached path and the reference (`zkhash` 0.2) agree, and the baked constants are
//! the reference's and our Grain's.
#![cfg(all(feature = "goldilocks", feature = "std"))]

mod common;

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
    flexible: &'static Poseidon2<Goldilocks>,
    zk_params: &'static std::sync::Arc<ZkParams<Zk>>,
    /// The reference's `RC{t}`: 30 rows of `t`; partial-round rows hold their constant at 0.
    zk_rc: &'static [Vec<Zk>],
    /// The reference's `MAT_DIAG{t}_M_1`.
    zk_diag_m1: &'static [Zk],
}

/// Calls the generic `$check` once per shipped width.
macro_rules! each_width {
    ($check:ident) => {
        $check(Width::<8> {
            id: "goldilocks_t8",
            ct: goldilocks::ct::t8(),
            flexible: goldilocks::poseidon2_t8(),
            zk_params: &zk::POSEIDON2_GOLDILOCKS_8_PARAMS,
            zk_rc: &zk::RC8,
            zk_diag_m1: &zk::MAT_DIAG8_M_1,
        });
        $check(Width::<12> {
            id: "goldilocks_t12",
            ct: goldilocks::ct::t12(),
            flexible: goldilocks::poseidon2_t12(),
            zk_params: &zk::POSEIDON2_GOLDILOCKS_12_PARAMS,
            zk_rc: &zk::RC12,
            zk_diag_m1: &zk::MAT_DIAG12_M_1,
        });
        $check(Width::<16> {
            id: "goldilocks_t16",
            ct: goldilocks::ct::t16(),
            flexible: goldilocks::poseidon2_t16(),
            zk_params: &zk::POSEIDON2_GOLDILOCKS_16_PARAMS,
            zk_rc: &zk::RC16,
            zk_diag_m1: &zk::MAT_DIAG16_M_1,
        });
        $check(Width::<20> {
            id: "goldilocks_t20",
            ct: goldilocks::ct::t20(),
            flexible: goldilocks::poseidon2_t20(),
            zk_params: &zk::POSEIDON2_GOLDILOCKS_20_PARAMS,
            zk_rc: &zk::RC20,
            zk_diag_m1: &zk::MAT_DIAG20_M_1,
        });
    };
}

fn zk_to_u64(x: Zk) -> u64 {
    ark_ff_04::PrimeField::into_bigint(x).0[0]
}

fn ark_to_u64(x: Goldilocks) -> u64 {
    GoldilocksFast::from(x).to_canonical_u64()
}

fn canonical(state: &[GoldilocksFast]) -> Vec<u64> {
    state.iter().map(|x| x.to_canonical_u64()).collect()
}

/// `STATES` random states of `T` raw u64 values (a few exceed p: those are lazy inputs too).
fn random_states<const T: usize>(seed: u64) -> impl Iterator<Item = [u64; T]> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..STATES).map(move |_| core::array::from_fn(|_| rng.r#gen()))
}

#[test]
fn ct_fast_path_and_cached_ark_path_agree_on_random_states() {
    fn check<const T: usize>(w: Width<T>) {
        for raw in random_states::<T>(T as u64) {
            let fast = w.ct.permutation(&raw.map(GoldilocksFast::new));
            let ark_input: Vec<Goldilocks> = raw.iter().map(|&v| Goldilocks::from(v)).collect();
            let ark = w.flexible.permutation(&ark_input).unwrap();
            let ark: Vec<u64> = ark.into_iter().map(ark_to_u64).collect();
            assert_eq!(canonical(&fast), ark, "{}: input {raw:x?}", w.id);
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
            let want = w.ct.permutation(&small.map(GoldilocksFast::new));
            let got = w.ct.permutation(&lifted.map(GoldilocksFast::new));
            assert_eq!(canonical(&got), canonical(&want), "{}: {lifted:x?}", w.id);
        }
        let all_lifted = [MODULUS; T].map(GoldilocksFast::new);
        let zeros = [GoldilocksFast::ZERO; T];
        assert_eq!(
            canonical(&w.ct.permutation(&all_lifted)),
            canonical(&w.ct.permutation(&zeros)),
            "{}: p for every element",
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
            let fast = w.ct.permutation(&raw.map(GoldilocksFast::new));
            assert_eq!(canonical(&fast), want, "{} ct: {raw:x?}", w.id);
            let ark_input: Vec<Goldilocks> = raw.iter().map(|&v| Goldilocks::from(v)).collect();
            let ark: Vec<u64> = w
                .flexible
                .permutation(&ark_input)
                .unwrap()
                .into_iter()
                .map(ark_to_u64)
                .collect();
            assert_eq!(ark, want, "{} flexible: {raw:x?}", w.id);
        }
    }
    each_width!(check);
}

#[test]
fn baked_tables_equal_zkhash_tables_entry_by_entry() {
    fn check<const T: usize>(w: Width<T>) {
        let fast = w.ct.to_params();
        let ark = w.flexible.params();
        let half = 4 * T;
        for (r, row) in w.zk_rc.iter().enumerate() {
            let row: Vec<u64> = row.iter().map(|&x| zk_to_u64(x)).collect();
            let (ours_fast, ours_ark): (Vec<u64>, Vec<u64>) = match r {
                0..4 => (
                    canonical(&fast.external_round_constants()[r * T..][..T]),
                    ark.external_round_constants()[r * T..][..T]
                        .iter()
                        .map(|&x| ark_to_u64(x))
                        .collect(),
                ),
                4..26 => {
                    let mut fast_row = vec![0; T];
                    let mut ark_row = vec![0; T];
                    fast_row[0] = fast.internal_round_constants()[r - 4].to_canonical_u64();
                    ark_row[0] = ark_to_u64(ark.internal_round_constants()[r - 4]);
                    (fast_row, ark_row)
                }
                _ => (
                    canonical(&fast.external_round_constants()[half + (r - 26) * T..][..T]),
                    ark.external_round_constants()[half + (r - 26) * T..][..T]
                        .iter()
                        .map(|&x| ark_to_u64(x))
                        .collect(),
                ),
            };
            assert_eq!(ours_fast, row, "{} round {r}, ct table", w.id);
            assert_eq!(ours_ark, row, "{} round {r}, ark table", w.id);
        }
        assert_eq!(w.zk_rc.len(), 30, "{}", w.id);
        let zk_diag: Vec<u64> = w.zk_diag_m1.iter().map(|&x| zk_to_u64(x)).collect();
        assert_eq!(
            canonical(fast.internal_diagonal_minus_one()),
            zk_diag,
            "{}",
            w.id
        );
        let ark_diag: Vec<u64> = ark
            .internal_diagonal_minus_one()
            .iter()
            .map(|&x| ark_to_u64(x))
            .collect();
        assert_eq!(ark_diag, zk_diag, "{}", w.id);
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
        let external: Vec<u64> = params
            .external_round_constants()
            .iter()
            .map(|&x| ark_to_u64(x))
            .collect();
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
        let diag: Vec<u64> = params
            .internal_diagonal_minus_one()
            .iter()
            .map(|&x| ark_to_u64(x))
            .collect();
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
        assert_eq!(&ark, w.flexible.params(), "{}: ark", w.id);
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
                .map(|&m| m.add(GoldilocksFast::ONE))
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
