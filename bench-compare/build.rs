//! Builds the CryptoExperts C/x86-asm Poseidon library (`../shared/peers/poseidon-c`, next to the
//! repository; PROVENANCE.md there) for the Stark252 rows, when that folder exists: twice, as its
//! Makefile does, once with the ADX assembly field arithmetic (`-DASSEMBLY`, `f251_asm.S`) and
//! once with the C `__int128` arithmetic. Every global symbol of each build gets a prefix
//! (`pc_asm_`, `pc_i128_`, by `-D` renames) so both link into the one bench binary. Nothing of it
//! is copied into this repository or the crate; without the folder the rows are skipped with a
//! printed note (cfg `poseidon_c` unset).

use std::path::PathBuf;

/// The library's global symbols (functions and constant tables), renamed per build.
const SYMBOLS: &[&str] = &[
    "CONST_MONT_2256",
    "CONST_ONE",
    "CONST_RC_MONTGOMERY_P3",
    "CONST_RC_MONTGOMERY_P4",
    "CONST_RC_MONTGOMERY_P5",
    "CONST_RC_MONTGOMERY_P9",
    "add64",
    "sub64",
    "f251_add",
    "f251_copy",
    "f251_fewbits_reduce",
    "f251_final_reduce",
    "f251_from_montgomery",
    "f251_montgomery_cube",
    "f251_montgomery_mult",
    "f251_overflow_reduce",
    "f251_sub",
    "f251_sum_state_3",
    "f251_sum_state_4",
    "f251_sum_state_5",
    "f251_sum_state_9",
    "f251_to_montgomery",
    "f251_x_minus_2y",
    "f251_x_minus_3y",
    "f251_x_minus_4y",
    "f251_x_minus_c_times_y",
    "f251_x_plus_2y",
    "f251_x_plus_3y",
    "f251_x_plus_4y",
    "f251_x_plus_c_times_y",
    "mix_layer_3",
    "mix_layer_4",
    "mix_layer_5",
    "mix_layer_9",
    "montgomery_round",
    "permutation_3",
    "permutation_4",
    "permutation_5",
    "permutation_9",
    "round_3",
    "round_4",
    "round_5",
    "round_9",
    "state_from_montgomery",
    "state_to_montgomery",
    "print_backend",
    "_asm_sanity_check",
    "asm_sanity_check_post",
    "asm_sanity_check_pre",
];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(poseidon_c)");
    println!("cargo::rerun-if-env-changed=POSEIDON_C_DIR");
    let dir = std::env::var_os("POSEIDON_C_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/peers/poseidon-c"),
        PathBuf::from,
    );
    println!("cargo::rerun-if-changed={}", dir.display());
    let x86_64 = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    if !dir.join("poseidon.c").exists() || !x86_64 {
        println!(
            "cargo::warning=poseidon-c not found at {} (or not x86_64): its rows are skipped",
            dir.display()
        );
        return;
    }
    let build = |prefix: &str, asm: bool| {
        let mut b = cc::Build::new();
        b.opt_level(3).warnings(false);
        for s in SYMBOLS {
            b.define(s, Some(format!("{prefix}{s}").as_str()));
        }
        let mut files = vec!["f251.c", "poseidon_rc.c", "poseidon.c"];
        if asm {
            b.define("ASSEMBLY", None);
            files.extend(["f251_asm.S", "platform_utils.c"]);
        } else {
            files.push("f251_int128.c");
        }
        b.files(files.iter().map(|f| dir.join(f)));
        b.compile(&format!("poseidon_c_{}", prefix.trim_end_matches('_')));
    };
    build("pc_asm_", true);
    build("pc_i128_", false);
    println!("cargo::rustc-cfg=poseidon_c");
}
