//! The Grain LFSR the Horizen Labs reference uses to draw round constants and internal
//! diagonals (`poseidon2_rust_params.sage` at commit `055bde3f`; procedure written out in
//! `GRAIN.md` of the project's shared reference and in the Poseidon paper, eprint 2019/458,
//! appendix F).
//!
//! The 80-bit register starts as `01 | 0000 | n (12 bits) | t (12) | R_F (10) | R_P (10) | 1^30`,
//! each field most significant bit first; the feedback is
//! `b80 = b62 ^ b51 ^ b38 ^ b23 ^ b13 ^ b0`; 160 warm-up clocks are discarded; output uses the
//! self-shrinking rule (clock a pair `(a, b)`, emit `b` if `a = 1`, else discard both).

use crate::field::{MAX_FIELD_BYTES, PrimeField};

/// The Grain LFSR state, seeded from an instance's public tuple.
#[derive(Clone, Debug)]
pub struct Grain {
    /// Bit `i` of the register is `b[i]`; `b[0]` is the oldest bit, the next to be dropped.
    register: u128,
}

impl Grain {
    /// Seeds the register from `(n, t, R_F, R_P)` and runs the 160 warm-up clocks.
    ///
    /// Field widths: `n` and `t` use 12 bits, `R_F` and `R_P` 10 bits; callers validate the
    /// ranges (see [`crate::Poseidon2Params::generate`]); higher bits are ignored.
    pub fn new(field_bits: u32, t: usize, rounds_f: usize, rounds_p: usize) -> Self {
        let fields: [(u64, u32); 7] = [
            (0b01, 2),                   // field type: prime field
            (0b0000, 4),                 // S-box flag as of reference commit bb476b9
            (u64::from(field_bits), 12), // n
            (t as u64, 12),              // t
            (rounds_f as u64, 10),       // R_F
            (rounds_p as u64, 10),       // R_P
            ((1 << 30) - 1, 30),         // padding ones
        ];
        let mut register = 0u128;
        let mut pos = 0;
        for (value, width) in fields {
            for i in (0..width).rev() {
                register |= u128::from((value >> i) & 1) << pos;
                pos += 1;
            }
        }
        let mut grain = Grain { register };
        for _ in 0..160 {
            grain.clock();
        }
        grain
    }

    /// One LFSR clock: computes the feedback bit, shifts it in as `b[79]` and returns it.
    fn clock(&mut self) -> bool {
        let r = self.register;
        let new = ((r >> 62) ^ (r >> 51) ^ (r >> 38) ^ (r >> 23) ^ (r >> 13) ^ r) & 1;
        self.register = (r >> 1) | (new << 79);
        new == 1
    }

    /// The next output bit under the self-shrinking rule.
    pub fn next_bit(&mut self) -> bool {
        loop {
            let keep = self.clock();
            let bit = self.clock();
            if keep {
                return bit;
            }
        }
    }

    /// The next `F::MODULUS_BITS` output bits, first bit most significant, as a big-endian
    /// buffer of `F::BYTES` bytes (leading bits zero).
    fn next_block<F: PrimeField>(&mut self) -> [u8; MAX_FIELD_BYTES] {
        let mut buf = [0u8; MAX_FIELD_BYTES];
        let bits = F::MODULUS_BITS as usize;
        let skip = F::BYTES * 8 - bits;
        for i in skip..skip + bits {
            if self.next_bit() {
                buf[i / 8] |= 0x80 >> (i % 8);
            }
        }
        buf
    }

    /// A round constant: `n`-bit blocks are drawn until one encodes an integer `< p`
    /// (rejected blocks stay consumed).
    pub fn next_round_constant<F: PrimeField>(&mut self) -> F {
        loop {
            let block = self.next_block::<F>();
            if let Some(x) = F::from_canonical_be_bytes(&block[..F::BYTES]) {
                return x;
            }
        }
    }

    /// An internal-diagonal entry: one `n`-bit block, reduced mod p (no rejection).
    pub fn next_diagonal_entry<F: PrimeField>(&mut self) -> F {
        self.next_reduced::<F>()
    }

    /// One `n`-bit block reduced mod p (no rejection): Poseidon2's internal-diagonal entries
    /// and the Poseidon1 Cauchy-matrix values (hadeshash `create_mds_p`, `F(grain_random_bits(n))`).
    pub fn next_reduced<F: PrimeField>(&mut self) -> F {
        let block = self.next_block::<F>();
        F::from_be_bytes_reduced(&block[..F::BYTES])
    }
}
