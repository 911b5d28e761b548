//! Goldilocks instances (`p = 2^64 - 2^32 + 1`, 64 bits), `d = 7`, `R_F = 8`, `R_P = 22`.
//!
//! The const-generic `ct::tN()` permutations run on [`crate::goldilocks::GoldilocksFast`] (u64
//! special-form arithmetic); the cached `poseidon2_tN()` getters run on the ark-ff
//! [`crate::goldilocks::Goldilocks`], so ark users get ark types. Both give identical outputs.
//!
//! Every width is the reference's `POSEIDON2_GOLDILOCKS_{8,12,16,20}_PARAMS`
//! (`plain_implementations/src/poseidon2/poseidon2_instance_goldilocks.rs`, HorizenLabs/poseidon2
//! commit `055bde3f`), regenerated here by the same Grain procedure.
//!
//! ```
//! use fast_poseidon2::goldilocks::{Goldilocks, GoldilocksFast};
//! use fast_poseidon2::instances::goldilocks;
//!
//! let input: [GoldilocksFast; 8] = core::array::from_fn(|i| GoldilocksFast::new(i as u64));
//! let out = goldilocks::ct::t8().permutation(&input);
//! # #[cfg(feature = "std")] {
//! let ark_input: Vec<Goldilocks> = input.iter().map(|&x| x.into()).collect();
//! let ark_out = goldilocks::poseidon2_t8().permutation(&ark_input).unwrap();
//! assert!(out.iter().zip(&ark_out).all(|(&a, &b)| Goldilocks::from(a) == b));
//! # }
//! ```

super::declare_instances! {
    field_name: "Goldilocks",
    ct_field: crate::goldilocks::GoldilocksFast,
    field: crate::goldilocks::Goldilocks,
    d: 7,
    rounds_f: 8,
    tables: crate::instances::tables::goldilocks,
    widths: [
        (8, 22, T8, t8, poseidon2_t8, GoldilocksT8),
        (12, 22, T12, t12, poseidon2_t12, GoldilocksT12),
        (16, 22, T16, t16, poseidon2_t16, GoldilocksT16),
        (20, 22, T20, t20, poseidon2_t20, GoldilocksT20),
    ]
}
