//! Helpers shared by the integration tests (`tests/`), the benches (`benches/`), the fuzz
//! targets (`fuzz/`) and the peer comparison (`bench-compare/`): vector files and element
//! conversions (here), the textbook oracle ([`textbook`]), differential assertions against it
//! ([`differential`]), StarkWare's Poseidon parameters ([`hades`]), small and 31-bit test fields ([`small`], [`babybear`]), the
//! op-counting field ([`op_count`]), bench inputs and timing ([`bench`]), and the list of
//! shipped instances ([`for_each_instance!`]).

mod registry;

use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use serde_json::Value;

/// Parses a test-vector file from the crate's `tests/vectors/`.
pub fn vectors(name: &str) -> Value {
    let path = format!("{}/../tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("vector file")).expect("json")
}

/// The element encoded by a `0x`-prefixed big-endian hex string (canonical, any width up to
/// the field's byte length).
pub fn from_hex<F: PrimeField>(s: &str) -> F {
    let digits = s.trim_start_matches("0x");
    let bytes = hex::decode(format!("{digits:0>width$}", width = 2 * F::BYTES)).expect("hex");
    F::from_canonical_be_bytes(&bytes).expect("canonical element")
}

/// `0x`-prefixed big-endian hex of the canonical integer, `2 * F::BYTES` digits.
pub fn to_hex<F: PrimeField>(x: F) -> String {
    let mut buf = vec![0u8; F::BYTES];
    x.write_canonical_be_bytes(&mut buf);
    format!("0x{}", hex::encode(buf))
}

/// The instance entry with `id` in `kats.json` or `instances.json`.
pub fn instance<'a>(file: &'a Value, id: &str) -> &'a Value {
    file["instances"]
        .as_array()
        .expect("instances")
        .iter()
        .find(|i| i["id"] == id)
        .unwrap_or_else(|| panic!("no instance {id}"))
}

/// A hex-string array as field elements.
pub fn hex_array<F: PrimeField>(v: &Value) -> Vec<F> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| from_hex(x.as_str().expect("str")))
        .collect()
}

pub mod babybear;
pub mod bench;
pub mod differential;
pub mod hades;
pub mod op_count;
pub mod small;
pub mod textbook;

/// Asserts that the `id` entry of the vector file `file` (layout of `kats.json`: `input.hex`,
/// `output.hex`) is reproduced by both the const-generic path (field `C`) and the runtime path
/// (field `F`; the two differ for Goldilocks: `GoldilocksFast` and the ark `Goldilocks`).
pub fn assert_kat<
    C: PrimeField + LinearLayers,
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    file: &str,
    id: &str,
    ct: &fast_poseidon2::ct::Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &fast_poseidon2::Poseidon2<F>,
) {
    let vectors = vectors(file);
    let entry = instance(&vectors, id);
    let state: [C; T] = hex_array::<C>(&entry["input"]["hex"])
        .try_into()
        .expect("width");
    let expected: Vec<C> = hex_array(&entry["output"]["hex"]);
    assert_eq!(ct.permutation(&state).as_slice(), expected, "{id}: ct path");
    let input: Vec<F> = hex_array(&entry["input"]["hex"]);
    let expected: Vec<F> = hex_array(&entry["output"]["hex"]);
    assert_eq!(
        flexible.permutation(&input).unwrap(),
        expected,
        "{id}: flexible path"
    );
}

/// The all-zero state, the all-`(p - 1)` state, then `count` states of uniformly random bytes
/// reduced mod p, drawn from a `rand` 0.8 `StdRng` seeded with `seed` (so failures reproduce).
pub fn random_states<F: PrimeField, const T: usize>(seed: u64, count: usize) -> Vec<[F; T]> {
    use rand::{RngCore, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut random = || {
        let mut bytes = vec![0u8; F::BYTES];
        rng.fill_bytes(&mut bytes);
        F::from_be_bytes_reduced(&bytes)
    };
    let mut states = vec![
        [F::ZERO_ELEMENT; T],
        [F::ZERO_ELEMENT.sub(F::ONE_ELEMENT); T],
    ];
    states.extend((0..count).map(|_| core::array::from_fn(|_| random())));
    states
}

/// Asserts that the const-generic and the runtime path both map `state` to `expected`; `what`
/// names the case in a failure message.
pub fn assert_both_paths<
    F: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &fast_poseidon2::ct::Poseidon2Ct<F, T, RF, RP, D>,
    flexible: &fast_poseidon2::Poseidon2<F>,
    state: &[F; T],
    expected: &[F],
    what: &str,
) {
    assert_eq!(
        ct.permutation(state).as_slice(),
        expected,
        "{what}: ct path"
    );
    assert_eq!(
        flexible.permutation(state).unwrap(),
        expected,
        "{what}: flexible path"
    );
}

/// The same element in another field type with the same modulus (e.g. `GoldilocksFast` and
/// the ark `Goldilocks`), through the canonical big-endian encoding.
pub fn convert<A: PrimeField, B: PrimeField>(x: A) -> B {
    let mut buf = vec![0u8; A::BYTES];
    x.write_canonical_be_bytes(&mut buf);
    B::from_canonical_be_bytes(&buf).expect("same modulus")
}

/// The modulus `p`, big-endian, `F::BYTES` long.
pub fn modulus_be<F: PrimeField>() -> Vec<u8> {
    let mut p = vec![0u8; F::BYTES];
    F::write_modulus_be(&mut p);
    p
}

/// True when the canonical encoding of `x` is below `p` (compared as big-endian integers).
pub fn is_canonical<F: PrimeField>(x: F) -> bool {
    let mut buf = vec![0u8; F::BYTES];
    x.write_canonical_be_bytes(&mut buf);
    buf < modulus_be::<F>()
}
