//! Known answers: every shipped instance that the Horizen Labs reference also ships matches the
//! reference's output on `[0, 1, ..., t-1]` (`tests/vectors/kats.json`), on the const-generic and
//! the runtime path.

use testkit as common;

use common::assert_kat;

/// One test per reference instance: `(feature, module, test name, kats.json id, ct fn, getter)`.
macro_rules! kat_tests {
    ($(($feature:literal, $module:ident, $name:ident, $id:literal, $ct:ident, $getter:ident)),* $(,)?) => {
        $(
            #[cfg(feature = $feature)]
            #[test]
            fn $name() {
                use fast_poseidon2::instances::$module;
                assert_kat("kats.json", $id, &$module::ct::$ct(), $module::$getter());
            }
        )*
    };
}

kat_tests![
    (
        "bn254",
        bn254,
        bn254_t3_matches_reference_kat,
        "bn254_t3",
        t3,
        poseidon2_t3
    ),
    (
        "bls12-381",
        bls12_381,
        bls12_381_t2_matches_reference_kat,
        "bls12_381_t2",
        t2,
        poseidon2_t2
    ),
    (
        "bls12-381",
        bls12_381,
        bls12_381_t3_matches_reference_kat,
        "bls12_381_t3",
        t3,
        poseidon2_t3
    ),
    (
        "bls12-381",
        bls12_381,
        bls12_381_t4_matches_reference_kat,
        "bls12_381_t4",
        t4,
        poseidon2_t4
    ),
    (
        "bls12-381",
        bls12_381,
        bls12_381_t8_matches_reference_kat,
        "bls12_381_t8",
        t8,
        poseidon2_t8
    ),
    (
        "goldilocks",
        goldilocks,
        goldilocks_t8_matches_reference_kat,
        "goldilocks_t8",
        t8,
        poseidon2_t8
    ),
    (
        "goldilocks",
        goldilocks,
        goldilocks_t12_matches_reference_kat,
        "goldilocks_t12",
        t12,
        poseidon2_t12
    ),
    (
        "goldilocks",
        goldilocks,
        goldilocks_t16_matches_reference_kat,
        "goldilocks_t16",
        t16,
        poseidon2_t16
    ),
    (
        "goldilocks",
        goldilocks,
        goldilocks_t20_matches_reference_kat,
        "goldilocks_t20",
        t20,
        poseidon2_t20
    ),
];
