//! Differential against the reference implementation itself: crate `zkhash` 0.2 (HorizenLabs
//! Poseidon2, ark-ff 0.4 fields). For every instance both ship, zkhash's constant tables equal
//! ours entry by entry, and on 1,000 seeded random states (plus the all-zero and all-`p-1`
//! states) zkhash's permutation, our `ct` path and our runtime path give the same output.
//! Elements cross between the two ark versions through their canonical big-endian bytes.

use testkit as common;

use ark_ff_04::{BigInteger, PrimeField as ReferenceField};
use common::{assert_both_paths, random_states};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::{Poseidon2, Poseidon2Params, ct::Poseidon2Ct};
use std::sync::Arc;
use zkhash::poseidon2::poseidon2::Poseidon2 as Reference;
use zkhash::poseidon2::poseidon2_params::Poseidon2Params as ReferenceParams;

/// Random states per instance.
const STATES: usize = 1000;

/// The fixed seed of the random states ("Poseidon" in ASCII), so failures reproduce.
const SEED: u64 = 0x506f_7365_6964_6f6e;

/// A zkhash element as ours, through its canonical bytes.
fn from_reference<F: PrimeField + LinearLayers, G: ReferenceField>(x: &G) -> F {
    let bytes = x.into_bigint().to_bytes_be();
    F::from_canonical_be_bytes(&bytes[bytes.len() - F::BYTES..]).expect("canonical")
}

/// One of our elements as zkhash's, through its canonical bytes.
fn to_reference<F: PrimeField + LinearLayers, G: ReferenceField>(x: F) -> G {
    let mut bytes = vec![0u8; F::BYTES];
    x.write_canonical_be_bytes(&mut bytes);
    let y = G::from_be_bytes_mod_order(&bytes);
    debug_assert_eq!(from_reference::<F, G>(&y), x);
    y
}

/// zkhash's round-constant rows (`R_F + R_P` rows of `t`; partial rows hold their constant in
/// position 0 and zeros elsewhere) and `mat_diag_m_1` equal our parameters entry by entry.
fn assert_tables_equal<F: PrimeField + LinearLayers, G: ReferenceField>(
    ours: &Poseidon2Params<F>,
    rows: &[Vec<G>],
    diag_m1: &[G],
) {
    let (t, half, rp) = (ours.width(), ours.rounds_f() / 2, ours.rounds_p());
    assert_eq!(rows.len(), 2 * half + rp, "number of rounds");
    let convert = |row: &[G]| row.iter().map(from_reference::<F, G>).collect::<Vec<F>>();
    let (first, last) = ours.external_round_constants().split_at(half * t);
    for (r, row) in rows.iter().enumerate() {
        let expected: Vec<F> = if r < half {
            first[r * t..(r + 1) * t].to_vec()
        } else if r < half + rp {
            let mut partial = vec![F::ZERO_ELEMENT; t];
            partial[0] = ours.internal_round_constants()[r - half];
            partial
        } else {
            last[(r - half - rp) * t..(r - half - rp + 1) * t].to_vec()
        };
        assert_eq!(convert(row), expected, "round-constant row {r}");
    }
    assert_eq!(
        convert(diag_m1),
        ours.internal_diagonal_minus_one(),
        "mat_diag_m_1"
    );
}

/// zkhash, our `ct` path and our runtime path agree on the all-zero state, the all-`(p - 1)`
/// state and `STATES` random states drawn from `seed`.
fn assert_paths_agree<
    F: PrimeField + LinearLayers,
    G: ReferenceField,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    reference: &Arc<ReferenceParams<G>>,
    ct: &Poseidon2Ct<F, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
    seed: u64,
) {
    let reference = Reference::new(reference);
    for state in random_states::<F, T>(seed, STATES) {
        let expected: Vec<F> = reference
            .permutation(&state.map(to_reference::<F, G>))
            .iter()
            .map(from_reference::<F, G>)
            .collect();
        assert_both_paths(ct, flexible, &state, &expected, &format!("{state:?}"));
    }
}

/// One pair of tests per instance: `(tables test, agreement test, ct constructor, getter,
/// zkhash params, zkhash round constants, zkhash mat_diag_m_1)`.
macro_rules! zkhash_differential {
    ($feature:literal, $module:ident, $reference:ident,
     [$(($tables:ident, $agree:ident, $ct:ident, $getter:ident, $params:ident, $rc:ident, $diag:ident)),* $(,)?]) => {$(
        #[cfg(feature = $feature)]
        #[test]
        fn $tables() {
            use zkhash::poseidon2::$reference as reference;
            use fast_poseidon2::instances::$module;
            assert_tables_equal($module::$getter().params(), &reference::$rc, &reference::$diag);
            assert_tables_equal(&$module::ct::$ct().to_params(), &reference::$rc, &reference::$diag);
        }

        #[cfg(feature = $feature)]
        #[test]
        fn $agree() {
            use zkhash::poseidon2::$reference as reference;
            use fast_poseidon2::instances::$module;
            assert_paths_agree(&reference::$params, &$module::ct::$ct(), $module::$getter(), SEED);
        }
    )*};
}

zkhash_differential!(
    "bn254",
    bn254,
    poseidon2_instance_bn256,
    [(
        bn254_t3_tables_equal_zkhash,
        bn254_t3_agrees_with_zkhash,
        t3,
        poseidon2_t3,
        POSEIDON2_BN256_PARAMS,
        RC3,
        MAT_DIAG3_M_1
    ),]
);

zkhash_differential!(
    "bls12-381",
    bls12_381,
    poseidon2_instance_bls12,
    [
        (
            bls12_381_t2_tables_equal_zkhash,
            bls12_381_t2_agrees_with_zkhash,
            t2,
            poseidon2_t2,
            POSEIDON2_BLS_2_PARAMS,
            RC2,
            MAT_DIAG2_M_1
        ),
        (
            bls12_381_t3_tables_equal_zkhash,
            bls12_381_t3_agrees_with_zkhash,
            t3,
            poseidon2_t3,
            POSEIDON2_BLS_3_PARAMS,
            RC3,
            MAT_DIAG3_M_1
        ),
        (
            bls12_381_t4_tables_equal_zkhash,
            bls12_381_t4_agrees_with_zkhash,
            t4,
            poseidon2_t4,
            POSEIDON2_BLS_4_PARAMS,
            RC4,
            MAT_DIAG4_M_1
        ),
        (
            bls12_381_t8_tables_equal_zkhash,
            bls12_381_t8_agrees_with_zkhash,
            t8,
            poseidon2_t8,
            POSEIDON2_BLS_8_PARAMS,
            RC8,
            MAT_DIAG8_M_1
        ),
    ]
);

zkhash_differential!(
    "babybear",
    babybear,
    poseidon2_instance_babybear,
    [
        (
            babybear_t16_tables_equal_zkhash,
            babybear_t16_agrees_with_zkhash,
            t16,
            poseidon2_t16,
            POSEIDON2_BABYBEAR_16_PARAMS,
            RC16,
            MAT_DIAG16_M_1
        ),
        (
            babybear_t24_tables_equal_zkhash,
            babybear_t24_agrees_with_zkhash,
            t24,
            poseidon2_t24,
            POSEIDON2_BABYBEAR_24_PARAMS,
            RC24,
            MAT_DIAG24_M_1
        ),
    ]
);
