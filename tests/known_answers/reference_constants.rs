//! Constants: our Grain reproduces the reference's check values (`tests/vectors/instances.json`,
//! parsed from HorizenLabs/poseidon2 commit `055bde3f`), and every baked table equals a fresh
//! `Poseidon2Params::generate` (the drift test).

use testkit as common;

use common::babybear::BabyBear;
use common::{hex_array, instance, vectors};
use fast_poseidon2::Poseidon2Params;
use fast_poseidon2::field::PrimeField;
use serde_json::Value;

/// Generates the `instances.json` entry `id` from its own tuple `(t, d, R_F, R_P)` and checks
/// every Grain check value it lists: the first and last two constants in Grain order, the first
/// and last partial-round constants, and the internal diagonal `mu - 1`.
fn assert_generation_reproduces<F: PrimeField>(id: &str) {
    let file = vectors("instances.json");
    let entry = instance(&file, id);
    let number = |key: &str| entry[key].as_u64().expect("number");
    let (t, d, rf, rp) = (
        number("t") as usize,
        number("d"),
        number("R_F") as usize,
        number("R_P") as usize,
    );
    assert_eq!(
        u64::from(F::MODULUS_BITS),
        number("field_bits_n"),
        "{id}: field size"
    );
    let params = Poseidon2Params::<F>::generate(t, d, rf, rp).expect("generate");
    let rc = &entry["round_constants"];
    let external = params.external_round_constants();
    let internal = params.internal_round_constants();
    // Grain order: R_F/2 * t external, R_P internal, R_F/2 * t external.
    assert_eq!(
        external[..2].to_vec(),
        hex_array::<F>(&rc["first2_hex"]),
        "{id}: first2"
    );
    assert_eq!(
        external[external.len() - 2..].to_vec(),
        hex_array::<F>(&rc["last2_hex"]),
        "{id}: last2"
    );
    assert_eq!(
        internal[0],
        from_decimal(&rc["first_partial_round_constant"]),
        "{id}: first partial"
    );
    assert_eq!(
        internal[rp - 1],
        from_decimal(&rc["last_partial_round_constant"]),
        "{id}: last partial"
    );
    let matrix = &entry["internal_matrix"];
    let expected_diag: Vec<F> = if t <= 3 {
        matrix["file_mat_diag_m_1_values"]
            .as_array()
            .expect("array")
            .iter()
            .map(from_decimal)
            .collect()
    } else {
        hex_array(&matrix["mat_diag_m_1"]["hex"])
    };
    assert_eq!(
        params.internal_diagonal_minus_one(),
        expected_diag,
        "{id}: mat_diag_m_1"
    );
}

/// A decimal string as a field element.
fn from_decimal<F: PrimeField>(v: &Value) -> F {
    v.as_str()
        .expect("str")
        .bytes()
        .fold(F::ZERO_ELEMENT, |acc, digit| {
            acc.mul(F::from_u64(10))
                .add(F::from_u64(u64::from(digit - b'0')))
        })
}

/// One test per `instances.json` entry we can generate: `feature, test name: field, id`.
macro_rules! generation_reproduces_reference {
    ($($feature:literal, $name:ident: $field:ty, $id:literal;)*) => {$(
        #[cfg(feature = $feature)]
        #[test]
        fn $name() {
            assert_generation_reproduces::<$field>($id);
        }
    )*};
}

generation_reproduces_reference! {
    "bn254", bn254_t3_generation_reproduces_reference_constants: ark_bn254::Fr, "bn254_t3";
    "bls12-381", bls12_381_t2_generation_reproduces_reference_constants: ark_bls12_381::Fr, "bls12_381_t2";
    "bls12-381", bls12_381_t3_generation_reproduces_reference_constants: ark_bls12_381::Fr, "bls12_381_t3";
    "bls12-381", bls12_381_t4_generation_reproduces_reference_constants: ark_bls12_381::Fr, "bls12_381_t4";
    "bls12-381", bls12_381_t8_generation_reproduces_reference_constants: ark_bls12_381::Fr, "bls12_381_t8";
}

/// A 31-bit field: the diagonal is accepted only after 18 rejected Grain draws for t = 16, so
/// this exercises the security check's exact accept/reject decisions, not just Grain.
#[test]
fn babybear_t16_generation_reproduces_reference_constants() {
    assert_generation_reproduces::<BabyBear>("babybear_t16");
}

#[test]
fn babybear_t24_generation_reproduces_reference_constants() {
    assert_generation_reproduces::<BabyBear>("babybear_t24");
}

/// `generated` with Plonky3's layers if `id` is a Plonky3 instance (in
/// `tests/vectors/plonky3_kats.json`): its hard-coded diagonal `V` (`internal_V_dec`) and
/// `M4 = circ(2, 3, 1, 1)`; the Grain round constants stay.
fn plonky3_layers<F: PrimeField>(id: &str, generated: Poseidon2Params<F>) -> Poseidon2Params<F> {
    let file = vectors("plonky3_kats.json");
    let Some(entry) = file["instances"]
        .as_array()
        .expect("instances")
        .iter()
        .find(|i| i["id"] == id)
    else {
        return generated;
    };
    let diagonal = entry["internal_V_dec"]
        .as_array()
        .expect("V")
        .iter()
        .map(|v| F::from_u64(v.as_str().expect("str").parse().expect("u64")))
        .collect();
    with_plonky3_layers(&generated, diagonal)
}

/// `generated`'s round constants with `M4 = circ(2, 3, 1, 1)` and the internal diagonal table
/// `diagonal`.
fn with_plonky3_layers<F: PrimeField>(
    generated: &Poseidon2Params<F>,
    diagonal: Vec<F>,
) -> Poseidon2Params<F> {
    Poseidon2Params::new(
        generated.width(),
        generated.sbox_degree(),
        generated.rounds_f(),
        generated.rounds_p(),
        generated.external_round_constants().to_vec(),
        generated.internal_round_constants().to_vec(),
        diagonal,
    )
    .expect("shape")
    .with_external_matrix(fast_poseidon2::ExternalMatrix::Plonky3)
}

/// `generated` with SP1's layers if `id` is SP1's KoalaBear permutation: Plonky3's `M4`, and
/// `M_I = 2^-32 (J + diag(V))` with `V = (-2, 1, 2, 4, ..., 2^13, 2^15)` (as the description
/// of `sp1_v6_koalabear_t16` in `tests/vectors/plonky3_kats.json` gives it), held as the
/// internal sum scale `2^-32` and the diagonal `2^-32 V`.
fn sp1_layers<F: PrimeField>(id: &str, generated: Poseidon2Params<F>) -> Poseidon2Params<F> {
    if id != "sp1_koalabear_t16" {
        return generated;
    }
    let scale = F::from_u64(1 << 32).inverted().expect("2^32 is invertible");
    let v = (0..16).map(|i| match i {
        0 => F::from_u64(2).neg(),
        15 => F::from_u64(1 << 15),
        i => F::from_u64(1 << (i - 1)),
    });
    with_plonky3_layers(&generated, v.map(|v| scale.mul(v)).collect())
        .with_internal_sum_scale(scale)
}

/// Drift test: for each shipped instance, the table behind `ct::tN()` and the one behind the
/// cached `poseidon2_tN()` both equal `Poseidon2Params::generate` over their own field types
/// (Plonky3's instances: with Plonky3's diagonal and `M4`, [`plonky3_layers`]).
/// One line per instance: `feature, test name: module, (ct constructor, ct field), (getter,
/// getter field), (t, d, R_F, R_P)`.
macro_rules! baked_tables_equal_generation {
    ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
        #[test]
        fn $name() {
            use fast_poseidon2::instances::$module;
            let generated = Poseidon2Params::<$field>::generate($t, $d, $rf, $rp).unwrap();
            let generated = sp1_layers(
                stringify!($name),
                plonky3_layers(stringify!($name), generated),
            );
            assert_eq!($module::ct::$ct().to_params(), generated, "ct table");
            assert_eq!(
                $module::$getter().params(),
                &generated,
                "cached getter table"
            );
        }
    };
}

/// One test per shipped instance: its baked tables (const and cached getter) equal a fresh
/// generation.
mod baked_tables_equal_generation {
    use super::*;
    testkit::for_each_instance!(@spec baked_tables_equal_generation);
}

/// Generation cost of the widest 255-bit instance (round constants plus every diagonal draw
/// and security check). Printed, not asserted: timing depends on the machine.
#[cfg(feature = "bls12-381")]
#[test]
fn bls12_381_t12_generation_time_is_reported() {
    let start = std::time::Instant::now();
    Poseidon2Params::<ark_bls12_381::Fr>::generate(12, 5, 8, 57).unwrap();
    println!("generate BLS12-381 t = 12: {:?}", start.elapsed());
}
