//! Hashes a file into a Poseidon2 Merkle root over BN254.
//!
//! ```text
//! cargo run --release --example merkle_root [PATH]
//! ```
//!
//! With no `PATH`, hashes the repository's `LICENSE` file (the Apache-2.0 text, 11 kB).
//!
//! Leaves: the file is cut into 31-byte chunks (the last one may be shorter); each chunk, read as
//! a big-endian integer (< 2^248 < p), is one BN254 `Fr` element. The chunking does not bind the
//! exact byte length (a short last chunk `01` and `00 01` give the same leaf), so the byte length
//! is printed with the root; bind both where that matters.
//!
//! Tree: each parent is `perm([left, right, 0])[0]` of the BN254 t = 3 permutation (the
//! reference's Merkle compression). A level with an odd number of nodes pairs its last node with
//! the zero element. One leaf is its own root. An empty file has no leaves; its root is defined as
//! the zero element and no permutation runs.
//!
//! Output: the root as `0x` + 64 big-endian hex digits, the leaf count, the byte length, and the
//! throughput in permutations per second.

use ark_bn254::Fr;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::instances::bn254::{self, Bn254T3};
use std::process::ExitCode;
use std::time::Instant;

/// Bytes per leaf: the largest count whose integers always stay below the BN254 modulus.
pub const CHUNK_BYTES: usize = 31;

/// Maps `data` to its leaves, one per 31-byte chunk.
pub fn leaves(data: &[u8]) -> Vec<Fr> {
    data.chunks(CHUNK_BYTES)
        .map(Fr::from_be_bytes_reduced)
        .collect()
}

/// The Merkle root of `leaves` (zero for no leaves) and the number of permutations run.
pub fn merkle_root(perm: &Bn254T3, leaves: &[Fr]) -> (Fr, usize) {
    let mut level = leaves.to_vec();
    let mut permutations = 0;
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| {
                let right = pair.get(1).copied().unwrap_or(Fr::from(0u64));
                permutations += 1;
                perm.permutation(&[pair[0], right, Fr::from(0u64)])[0]
            })
            .collect();
    }
    (
        level.first().copied().unwrap_or(Fr::from(0u64)),
        permutations,
    )
}

/// `0x` + the canonical big-endian hex of `x`.
pub fn to_hex(x: Fr) -> String {
    let mut bytes = [0u8; 32];
    x.write_canonical_be_bytes(&mut bytes);
    format!(
        "0x{}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

#[allow(dead_code)]
fn main() -> ExitCode {
    let default = concat!(env!("CARGO_MANIFEST_DIR"), "/LICENSE");
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| default.to_string());
    let data = match std::fs::read(&path) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let perm = bn254::ct::t3();
    let leaves = leaves(&data);
    let start = Instant::now();
    let (root, permutations) = merkle_root(&perm, &leaves);
    let seconds = start.elapsed().as_secs_f64();
    println!("file:         {path}");
    println!("bytes:        {}", data.len());
    println!("leaves:       {}", leaves.len());
    println!("root:         {}", to_hex(root));
    if permutations > 0 {
        println!(
            "throughput:   {:.0} permutations/s ({permutations} permutations in {:.3} ms)",
            permutations as f64 / seconds,
            seconds * 1e3
        );
    } else {
        println!("throughput:   no permutation needed");
    }
    ExitCode::SUCCESS
}
