//! Shared helpers for the integration tests: vector files and element conversions.
#![allow(dead_code)]

use fast_poseidon2::field::PrimeField;
use serde_json::Value;

/// Parses a test-vector file from `tests/vectors/`.
pub fn vectors(name: &str) -> Value {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
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

/// Invokes `$m!(name, t, ct_constructor_expr, cached_flexible_expr)` once per shipped instance.
///
/// INTEGRATOR: this is the one list of instances the mode tests (`tests/modes_*.rs`,
/// `tests/no_alloc.rs`) run on; add the BLS12-381 and Goldilocks instances here, one line each.
#[macro_export]
macro_rules! for_each_instance {
    ($m:ident) => {
        #[cfg(feature = "bn254")]
        $m!(
            bn254_t2,
            2,
            fast_poseidon2::instances::bn254::ct::t2(),
            fast_poseidon2::instances::bn254::poseidon2_t2()
        );
        #[cfg(feature = "bn254")]
        $m!(
            bn254_t3,
            3,
            fast_poseidon2::instances::bn254::ct::t3(),
            fast_poseidon2::instances::bn254::poseidon2_t3()
        );
        #[cfg(feature = "bn254")]
        $m!(
            bn254_t4,
            4,
            fast_poseidon2::instances::bn254::ct::t4(),
            fast_poseidon2::instances::bn254::poseidon2_t4()
        );
        #[cfg(feature = "bn254")]
        $m!(
            bn254_t8,
            8,
            fast_poseidon2::instances::bn254::ct::t8(),
            fast_poseidon2::instances::bn254::poseidon2_t8()
        );
        #[cfg(feature = "bn254")]
        $m!(
            bn254_t12,
            12,
            fast_poseidon2::instances::bn254::ct::t12(),
            fast_poseidon2::instances::bn254::poseidon2_t12()
        );
    };
}
