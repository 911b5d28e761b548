//! Known answers for every shipped instance (`testkit::for_each_instance!`), on the
//! const-generic and the runtime path, input `[0, 1, ..., t-1]`:
//! - where the Horizen Labs reference ships the instance, the reference's output
//!   (`tests/vectors/kats.json`);
//! - otherwise the output this crate computed once and froze (`tests/vectors/frozen_kats.json`,
//!   written by `frozen_kats::write_frozen_kats_file`), which the textbook dense-matrix
//!   permutation (`testkit/src/textbook.rs`) of freshly generated parameters also gives, so a
//!   later change to constants, layers or rounds shows up here.
//!
//! Every instance has its answer in exactly one of the two files.

use testkit as common;

use common::{assert_kat, hex_array, instance, textbook, vectors};
use fast_poseidon2::Poseidon2Params;
use fast_poseidon2::field::PrimeField;

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

/// The one file that holds `id`'s answer.
fn answer_file(id: &str) -> &'static str {
    match (has(REFERENCE, id), has(FROZEN, id)) {
        (true, false) => REFERENCE,
        (false, true) => FROZEN,
        (true, true) => panic!("{id}: answers in both {REFERENCE} and {FROZEN}"),
        (false, false) => panic!("{id}: no answer in {REFERENCE} or {FROZEN}"),
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

/// One test per shipped instance, named after it.
macro_rules! known_answer {
    ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
        #[test]
        fn $name() {
            use fast_poseidon2::instances::$module;
            let id = stringify!($name);
            let file = answer_file(id);
            assert_kat(file, id, &$module::ct::$ct(), $module::$getter());
            if file == FROZEN {
                assert_textbook_gives_frozen_kat::<$field>(id);
            }
        }
    };
}

testkit::for_each_instance!(@spec known_answer);
