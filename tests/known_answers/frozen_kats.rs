//! Frozen outputs and their writers: the permutation known answers of the instances the
//! reference does not ship (`tests/vectors/frozen_kats.json`, checked by `kat.rs` with the
//! reference's), and the mode outputs of the 128-bit rule (`tests/vectors/modes_kats.json`):
//! Goldilocks byte API, sponge and Merkle roots, and the count-bound Merkle root.

use testkit as common;

use common::{instance, to_hex, vectors};
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::{Poseidon2, Poseidon2Params};
use serde_json::{Value, json};

/// The `frozen_kats.json` entries: every shipped instance without a reference answer.
fn frozen_instances() -> Vec<Value> {
    let mut entries = Vec::new();
    macro_rules! freeze {
        ($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident) => {
            if !super::kat::has(super::kat::REFERENCE, stringify!($name)) {
                entries.push(freeze::<$field>(stringify!($name), $t, $d, $rf, $rp));
            }
        };
    }
    testkit::for_each_instance!(@spec freeze);
    entries
}

/// One `frozen_kats.json` entry: generated parameters, runtime path, input `[0, ..., t-1]`.
fn freeze<F: PrimeField + LinearLayers>(id: &str, t: usize, d: u64, rf: usize, rp: usize) -> Value {
    let field = match id.split("_t").next() {
        Some("bn254") => "BN254 scalar field Fr",
        Some("bls12_381") => "BLS12-381 scalar field Fr",
        _ => panic!("{id}: no field description"),
    };
    let params = Poseidon2Params::<F>::generate(t, d, rf, rp).expect("generate");
    let input: Vec<F> = (0..t as u64).map(F::from_u64).collect();
    let output = Poseidon2::new(params).permutation(&input).expect("width");
    let hex = |v: &[F]| v.iter().map(|&x| to_hex(x)).collect::<Vec<_>>();
    json!({
        "id": id,
        "field": field,
        "t": t, "d": d, "R_F": rf, "R_P": rp,
        "grain_tuple": format!("(n = {}, t = {t}, R_F = {rf}, R_P = {rp})", F::MODULUS_BITS),
        "input": { "hex": hex(&input) },
        "output": { "hex": hex(&output) },
    })
}

/// Writes `tests/vectors/frozen_kats.json`. Run by hand, once; the file is then frozen and the
/// tests above check the code against it.
#[test]
#[ignore = "writes tests/vectors/frozen_kats.json; run by hand only when freezing"]
fn write_frozen_kats_file() {
    let file = json!({
        "description": "Permutation known answers for the fast-poseidon2 instances the Horizen Labs reference does not ship. Computed once by fast-poseidon2 (constants from its Grain LFSR, Poseidon2Params::generate; output of the runtime-width path) and frozen; checked by tests/known_answers/kat.rs on both paths and against the textbook dense-matrix permutation.",
        "command": "cargo test --release --test suite -- --ignored known_answers::write_frozen_kats_file",
        "date": today_utc(),
        "encoding": "0x-prefixed big-endian hex of the canonical integer, 2 * ceil(bits / 8) digits",
        "input_rule": "state[i] = i for i in 0..t",
        "instances": frozen_instances(),
    });
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/frozen_kats.json"
    );
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap() + "\n").unwrap();
}

/// The file of frozen mode outputs: the 248-bit-rule byte API, sponge and Merkle roots on every
/// Goldilocks instance, and the count-bound Merkle root on BN254 t = 3.
const MODES_FILE: &str = "modes_kats.json";

/// The canonical big-endian encodings of `[1, 2, 3]` in `perm`'s field.
fn encoded_inputs<P>(_: &P) -> Vec<Vec<u8>>
where
    P: fast_poseidon2::modes::Permutation,
    P::Field: PrimeField + LinearLayers,
{
    (1..=3u64)
        .map(|i| {
            let mut b = vec![0u8; <P::Field as PrimeField>::BYTES];
            <P::Field as fast_poseidon2::field::Field>::from_u64(i)
                .write_canonical_be_bytes(&mut b);
            b
        })
        .collect()
}

/// The mode outputs of one instance (either permutation type), as `modes_kats.json` records
/// them: the byte API of `[1, 2, 3]`, the sponge of `[1, .., 5]` with rate `t - D` and `D`
/// outputs, the Merkle root of five leaf digests (leaf `i`, element `j` = `i · D + j + 1`) and
/// the count-bound root of the same leaves.
macro_rules! mode_outputs {
    ($perm:expr) => {{
        let perm = $perm;
        let encoded = encoded_inputs(perm);
        let slices: Vec<&[u8]> = encoded.iter().map(Vec::as_slice).collect();
        mode_outputs(perm, perm.hash_bytes_be(&slices).unwrap())
    }};
}

/// [`mode_outputs!`] once the byte-API digest `bytes` is known.
fn mode_outputs<P>(perm: &P, bytes: [u8; 32]) -> Value
where
    P: fast_poseidon2::modes::Permutation,
    P::Field: PrimeField + LinearLayers,
{
    use fast_poseidon2::merkle::MerkleBuilder;
    use fast_poseidon2::modes::{Sponge, digest_len};
    let d = digest_len::<P::Field>();
    let n = |v: usize| <P::Field as fast_poseidon2::field::Field>::from_u64(v as u64);
    let hex = |v: &[P::Field]| v.iter().map(|&x| to_hex(x)).collect::<Vec<_>>();
    let inputs: Vec<P::Field> = (1..=5).map(n).collect();
    let mut sponge = Sponge::new(perm, perm.width() - d, inputs.len(), d).unwrap();
    sponge.absorb(&inputs).unwrap();
    let mut digest = vec![n(0); d];
    sponge.squeeze(&mut digest).unwrap();
    let leaves: Vec<P::Field> = (0..5 * d).map(|i| n(i + 1)).collect();
    let root = |bound: bool| {
        let mut builder = MerkleBuilder::new(perm).unwrap();
        builder.push(&leaves).unwrap();
        let root: Vec<P::Field> = match (d, bound) {
            (1, false) => builder.finish::<1>().unwrap().to_vec(),
            (1, true) => builder.finish_with_leaf_count::<1>().unwrap().to_vec(),
            (4, false) => builder.finish::<4>().unwrap().to_vec(),
            (4, true) => builder.finish_with_leaf_count::<4>().unwrap().to_vec(),
            _ => panic!("digest length {d}"),
        };
        hex(&root)
    };
    json!({
        "hash_bytes_be([1, 2, 3])": hex::encode(bytes),
        "sponge([1..=5], rate t - D, D outputs)": hex(&digest),
        "merkle_root(5 leaves)": root(false),
        "merkle_root_with_leaf_count(5 leaves)": root(true),
    })
}

/// `(id, ct-path outputs, runtime-path outputs)` of every instance in `modes_kats.json`.
#[cfg(all(feature = "bn254", feature = "goldilocks"))]
fn mode_instances() -> Vec<(&'static str, Value, Value)> {
    use fast_poseidon2::instances::{bn254, goldilocks};
    macro_rules! both {
        ($(($id:literal, $module:ident, $ct:ident, $getter:ident)),*) => {
            vec![$(($id, mode_outputs!(&$module::ct::$ct()), mode_outputs!($module::$getter()))),*]
        };
    }
    both![
        ("bn254_t3", bn254, t3, poseidon2_t3),
        ("goldilocks_t8", goldilocks, t8, poseidon2_t8),
        ("goldilocks_t12", goldilocks, t12, poseidon2_t12),
        ("goldilocks_t16", goldilocks, t16, poseidon2_t16),
        ("goldilocks_t20", goldilocks, t20, poseidon2_t20)
    ]
}

/// Both paths of each instance give the frozen mode outputs.
#[cfg(all(feature = "bn254", feature = "goldilocks"))]
#[test]
fn mode_outputs_match_the_frozen_file() {
    let file = vectors(MODES_FILE);
    for (id, ct, runtime) in mode_instances() {
        let entry = instance(&file, id);
        assert_eq!(entry["outputs"], ct, "{id}: ct path");
        assert_eq!(entry["outputs"], runtime, "{id}: runtime path");
    }
}

/// Writes `tests/vectors/modes_kats.json` (from the ct path). Run by hand, once per breaking
/// change of a mode.
#[cfg(all(feature = "bn254", feature = "goldilocks"))]
#[test]
#[ignore = "writes tests/vectors/modes_kats.json; run by hand only when freezing"]
fn write_modes_kats_file() {
    let instances: Vec<Value> = mode_instances()
        .into_iter()
        .map(|(id, outputs, _)| json!({ "id": id, "outputs": outputs }))
        .collect();
    let file = json!({
        "description": "Mode outputs frozen when the 128-bit rule (capacity and digest of ceil(248 / MODULUS_BITS) elements) was introduced: byte API, sponge, Merkle root and count-bound Merkle root of fast-poseidon2's shipped instances, computed once by this crate on the const-generic path and checked by tests/known_answers/frozen_kats.rs on both paths. Elements: 0x-prefixed big-endian hex of the canonical integer; byte-API digests: hex of the 32 output bytes.",
        "command": "cargo test --release --test suite -- --ignored known_answers::write_modes_kats_file",
        "date": today_utc(),
        "instances": instances,
    });
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/modes_kats.json");
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap() + "\n").unwrap();
}

/// Today's UTC date as `YYYY-MM-DD` (civil-from-days, H. Hinnant's algorithm).
fn today_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
