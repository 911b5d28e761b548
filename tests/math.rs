//! The mathematics under the permutation: fields, security conditions and operation counts.
//!
//! - `field_ark`, `goldilocks_field`: the field implementations against ark-ff and `u128`;
//! - `goldilocks_instances`: the Goldilocks instances' parameters;
//! - `small_fields`: permutations over fields small enough to enumerate;
//! - `security`: round numbers and the internal-matrix check;
//! - `op_counts`: exact operation counts of one permutation call (Poseidon2, and the optimized
//!   Poseidon1 schedule against the dense one).

// One inline module named after the binary, so that its files live in `tests/math/`.
mod math {
    mod field_ark;
    mod goldilocks_field;
    mod goldilocks_instances;
    mod op_counts;
    mod security;
    mod small_fields;
}
