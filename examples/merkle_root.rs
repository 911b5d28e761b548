//! Hashes a file into a Poseidon2 Merkle root over BN254, streaming it through the library's
//! incremental [`MerkleBuilder`] on the batch path (SIMD when the CPU has it; every core with
//! `--features parallel`).
//!
//! ```text
//! cargo run --release --example merkle_root [PATH]
//! cargo run --release --features parallel --example merkle_root [PATH]
//! ```
//!
//! With no `PATH`, hashes the repository's `LICENSE` file (the Apache-2.0 text, 11 kB). The file
//! is read through one fixed 1 MiB buffer, so memory stays bounded whatever its size.
//!
//! Leaves: the file is cut into 31-byte chunks (the last one may be shorter); each chunk, read as
//! a big-endian integer (< 2^248 < p), is one BN254 `Fr` element. The chunking does not bind the
//! exact byte length (a short last chunk `01` and `00 01` give the same leaf), so the byte length
//! is printed with the root; bind both where that matters.
//!
//! Tree: `fast_poseidon2::merkle` with the BN254 t = 3 permutation: each parent is
//! `perm([left, right, 0])[0]` (the reference's Merkle compression), a level with an odd number
//! of nodes pairs its last node with the zero element, and one leaf is its own root. An empty
//! file has no leaves; its root is defined as the zero element and no permutation runs.
//!
//! Output: the path, byte and leaf counts, the root as `0x` + 64 big-endian hex digits, the
//! time, and the throughput in MB/s and permutations per second. Bad arguments or an unreadable
//! path print one line on stderr and exit with code 1.

use ark_bn254::Fr;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::instances::bn254;
use fast_poseidon2::merkle::MerkleBuilder;
use std::io::{self, Read};
use std::process::ExitCode;
use std::time::Instant;

/// Bytes per leaf: the largest count whose integers always stay below the BN254 modulus.
pub const CHUNK_BYTES: usize = 31;

/// Bytes read at a time: a whole number of chunks, about 1 MiB.
const BUFFER_BYTES: usize = CHUNK_BYTES * 32 * 1024;

/// What hashing a byte stream found.
#[derive(Debug, PartialEq, Eq)]
pub struct Summary {
    /// Bytes read.
    pub bytes: u64,
    /// Leaves (31-byte chunks, the last possibly shorter).
    pub leaves: u64,
    /// The Merkle root (zero for no leaves).
    pub root: Fr,
}

/// The leaf of one chunk of at most 31 bytes (always below p, so the reduction is the identity).
fn leaf(chunk: &[u8]) -> Fr {
    Fr::from_be_bytes_reduced(chunk)
}

/// Replaces `out` with the leaves of `data`, one per 31-byte chunk (split across threads with
/// `parallel`).
fn leaves_into(data: &[u8], out: &mut Vec<Fr>) {
    out.clear();
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        data.par_chunks(CHUNK_BYTES).map(leaf).collect_into_vec(out);
    }
    #[cfg(not(feature = "parallel"))]
    out.extend(data.chunks(CHUNK_BYTES).map(leaf));
}

/// The leaves of `data`, one per 31-byte chunk.
pub fn leaves(data: &[u8]) -> Vec<Fr> {
    let mut out = Vec::new();
    leaves_into(data, &mut out);
    out
}

/// Reads `reader` to its end through one fixed buffer, pushing each buffer's leaves into the
/// incremental Merkle builder; returns the byte and leaf counts and the root.
pub fn hash_reader(mut reader: impl Read) -> io::Result<Summary> {
    let perm = bn254::ct::t3();
    let mut builder = MerkleBuilder::new(&perm).expect("t = 3 builds trees");
    let mut buffer = vec![0u8; BUFFER_BYTES];
    let mut leaves = Vec::with_capacity(BUFFER_BYTES / CHUNK_BYTES);
    let mut bytes = 0u64;
    loop {
        // Fill the whole buffer (or reach the end), so that only the last chunk is short.
        let mut filled = 0;
        while filled < buffer.len() {
            match reader.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        bytes += filled as u64;
        leaves_into(&buffer[..filled], &mut leaves);
        builder.push(&leaves).expect("fewer than 2^64 leaves");
        if filled < buffer.len() {
            break;
        }
    }
    let leaves = builder.leaf_count();
    let root = builder.finish().map_or(Fr::from(0u64), |[root]| root);
    Ok(Summary {
        bytes,
        leaves,
        root,
    })
}

/// Compressions a binary tree over `leaves` leaves runs (each level pads to an even count).
pub fn permutations(leaves: u64) -> u64 {
    let (mut level, mut total) = (leaves, 0);
    while level > 1 {
        level = level.div_ceil(2);
        total += level;
    }
    total
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

/// Hashes the file at `path`, or says in one line why it cannot.
fn run(path: &str) -> Result<(Summary, f64), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let metadata = file
        .metadata()
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if metadata.is_dir() {
        return Err(format!("{path} is a directory, not a file"));
    }
    let start = Instant::now();
    let summary = hash_reader(file).map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok((summary, start.elapsed().as_secs_f64()))
}

#[allow(dead_code)]
fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/LICENSE").to_string());
    if args.next().is_some() {
        eprintln!("error: too many arguments; usage: merkle_root [PATH]");
        return ExitCode::FAILURE;
    }
    let (summary, seconds) = match run(&path) {
        Ok(result) => result,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let permutations = permutations(summary.leaves);
    println!("file:          {path}");
    println!("bytes:         {}", summary.bytes);
    println!("leaves:        {}", summary.leaves);
    println!("root:          {}", to_hex(summary.root));
    println!("time:          {:.3} ms", seconds * 1e3);
    println!(
        "throughput:    {:.1} MB/s, {:.0} permutations/s (permutations: {permutations})",
        summary.bytes as f64 / seconds / 1e6,
        permutations as f64 / seconds
    );
    ExitCode::SUCCESS
}
