//! Known answers for every shipped instance (`testkit::for_each_instance!`), on the
//! const-generic and the runtime path, input `[0, 1, ..., t-1]`:
//! - where the Horizen Labs reference ships the instance, the reference's output
//!   (`tests/vectors/kats.json`);
//! - for Plonky3's instances (`instances::plonky3`), Plonky3's own test vectors and outputs
//!   computed with Plonky3 0.8.0 (`tests/vectors/plonky3_kats.json`);
//! - otherwise the output this crate computed once and froze (`tests/vectors/frozen_kats.json`,
//!   written by `frozen_kats::write_frozen_kats_file`), which the textbook dense-matrix
//!   permutation (`testkit/src/textbook.rs`) of freshly generated parameters also gives, so a
//!   later change to constants, layers or rounds shows up here.
//!
//! Every instance has its answer in exactly one of the three files.

use testkit as common;

use common::{assert_both_paths, assert_kat, hex_array, instance, textbook, vectors};
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::{Poseidon2, Poseidon2Params};

/// The reference's answers.
pub(super) const REFERENCE: &str = "kats.json";
/// The frozen answers of the instances the reference does not ship.
pub(super) const FROZEN: &str = "frozen_kats.json";

/// Whether the vector file `file` has an entry `id`.
pub(super) fn has(file: &str, id: &str) -> bool {
    vectors(file)["instances"]
        .as_array()
        .expect("instances")
        .iter()
        .any(|entry| entry["id"] == id)
}

/// Plonky3's answers (and those of instances derived from Plonky3's convention).
pub(super) const PLONKY3: &str = "plonky3_kats.json";

/// The one file that holds `id`'s answer.
fn answer_file(id: &str) -> &'static str {
    let holders: Vec<&'static str> = [REFERENCE, FROZEN, PLONKY3]
        .into_iter()
        .filter(|file| has(file, id))
        .collect();
    match holders[..] {
        [file] => file,
        [] => panic!("{id}: no answer in {REFERENCE}, {FROZEN} or {PLONKY3}"),
        _ => panic!("{id}: answers in {holders:?}"),
    }
}

/// Every vector of `id` in [`PLONKY3`] (decimal canonical integers; at least two per instance)
/// on both paths.
fn assert_plonky3_kats<
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    id: &str,
    ct: &Poseidon2Ct<F, T, RF, RP, D>,
    flexible: &Poseidon2<F>,
) {
    let file = vectors(PLONKY3);
    let entry = instance(&file, id);
    let decimal = |v: &serde_json::Value| -> Vec<F> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| F::from_u64(x.as_str().expect("str").parse().expect("u64")))
            .collect()
    };
    let cases = entry["vectors"].as_array().expect("vectors");
    assert!(cases.len() >= 2, "{id}: {} vectors", cases.len());
    for (i, case) in cases.iter().enumerate() {
        let input: [F; T] = decimal(&case["input_dec"]).try_into().expect("t inputs");
        let expected = decimal(&case["output_dec"]);
        assert_both_paths(ct, flexible, &input, &expected, &format!("{id} vector {i}"));
    }
}

/// The textbook permutation of freshly generated parameters maps the frozen input to the
/// frozen output.
fn assert_textbook_gives_frozen_kat<F: PrimeField>(id: &str) {
    let file = vectors(FROZEN);
    let entry = instance(&file, id);
    let number = |key: &str| entry[key].as_u64().expect("number");
    let params = Poseidon2Params::<F>::generate(
        number("t") as usize,
        number("d"),
        number("R_F") as usize,
        number("R_P") as usize,
    )
    .expect("generate");
    let input: Vec<F> = hex_array(&entry["input"]["hex"]);
    let expected: Vec<F> = hex_array(&entry["output"]["hex"]);
    assert_eq!(textbook::permutation(&params, &input), expected, "{id}");
}

/// The id of an instance's answers: its test name, except where the vector file names the
/// version of the ecosystem that computed them (SP1 v6's KoalaBear permutation).
fn vector_id(name: &'static str) -> &'static str {
    match name {
        "sp1_koalabear_t16" => "sp1_v6_koalabear_t16",
        name => name,
    }
}

/// The runtime getter's permutation equals (`PartialEq`: same parameters) the one converted
/// from the const value, and its `Debug` prints the parameters only (the batch cache is left
/// out).
fn assert_runtime_is_the_const_value<
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    runtime: &Poseidon2<F>,
    ct: &Poseidon2Ct<F, T, RF, RP, D>,
) {
    let converted = Poseidon2::from(ct);
    assert_eq!(runtime, &converted);
    assert_eq!(
        format!("{runtime:?}"),
        format!("Poseidon2 {{ params: {:?} }}", converted.params())
    );
}

#[test]
fn runtime_permutations_of_different_instances_are_not_equal() {
    use fast_poseidon2::instances::bn254;
    assert_ne!(bn254::poseidon2_t3(), bn254::poseidon2_t4());
    let params = bn254::poseidon2_t3().params().clone();
    assert_eq!(&Poseidon2::new(params), bn254::poseidon2_t3());
}

/// One test per shipped instance, named after it.
macro_rules! known_answer {
    ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
        #[test]
        fn $name() {
            use fast_poseidon2::instances::$module;
            assert_runtime_is_the_const_value($module::$getter(), &$module::ct::$ct());
            let id = vector_id(stringify!($name));
            let file = answer_file(id);
            if file == PLONKY3 {
                return assert_plonky3_kats(id, &$module::ct::$ct(), $module::$getter());
            }
            assert_kat(file, id, &$module::ct::$ct(), $module::$getter());
            if file == FROZEN {
                assert_textbook_gives_frozen_kat::<$field>(id);
            }
        }
    };
}

testkit::for_each_instance!(@spec known_answer);
