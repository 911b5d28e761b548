//! Four-limb Montgomery multiplication with MULX (BMI2) and ADCX/ADOX (ADX), for the scalar
//! arithmetic of `field::montgomery` on CPUs that have them (detected at run time), and the
//! four-limb modular addition in baseline x86_64 assembly ([`add`]), and the Goldilocks
//! reductions, additions and product of `field::goldilocks::fast` in baseline x86_64 assembly
//! ([`goldilocks_reduce128`], [`goldilocks_reduce96`], [`goldilocks_add`], [`add_wide`],
//! [`widening_mul`]).
//!
//! The field layer's one `unsafe` module (inline assembly, each block with a `// SAFETY:`
//! comment), compiled only where the SIMD batch backends are (x86_64 with `std`, not under Miri,
//! not forced portable); `field::montgomery` calls it through `mul_unreduced`,
//! `square_unreduced` and `add4`, which fall back to the portable code elsewhere.
//!
//! The algorithm is the portable one (`field::montgomery::mul_portable`: CIOS, one row
//! `t += a · b_i` then one reduction step `t = (t + m p) / 2^64` per limb of `b`, with the same
//! bounds), written so that the two carry chains of every step run at once: ADCX carries through
//! CF, ADOX through OF, and MULX leaves both flags alone. The compiler cannot express two flag
//! chains, so the portable code serialises them and needs about 330 instructions per product;
//! this one needs about 130, and a dependent chain of products runs about 1.7 times faster on
//! this machine (BN254, 15.8 against 27.2 ns per product, 2026-11-30).

use super::goldilocks::fast::EPSILON as GOLDILOCKS_EPSILON;
use super::montgomery::{Arith, Modulus};

/// Goldilocks `x mod p` for `x = hi 2^64 + lo`, lazily reduced (any `u64`): the steps and bounds
/// of `field::goldilocks::fast::portable::reduce128`, `t0 = lo - hi_hi` and `t0 + hi_lo
/// EPSILON`, each corrected by `EPSILON` on a borrow or carry. `sbb r32, r32` turns the flag into
/// `EPSILON` or 0 (a 32-bit write zero-extends), so a correction is two instructions and
/// no branch; LLVM compiles the portable form to three or four (or, as a select, to a branch).
#[inline(always)]
pub(super) fn goldilocks_reduce128(lo: u64, hi: u64) -> u64 {
    let out;
    // SAFETY: baseline x86_64 instructions on register operands only; no memory or stack.
    unsafe {
        core::arch::asm!(
            "mov {t:e}, {hi:e}",
            "shr {hi}, 32",
            "imul {t}, {eps}",
            "sub {lo}, {hi}",
            "sbb {hi:e}, {hi:e}",
            "sub {lo}, {hi}",
            "add {lo}, {t}",
            "sbb {hi:e}, {hi:e}",
            "add {lo}, {hi}",
            lo = inlateout(reg) lo => out,
            hi = inout(reg) hi => _,
            t = out(reg) _,
            eps = in(reg) GOLDILOCKS_EPSILON,
            options(pure, nomem, nostack),
        );
    }
    out
}

/// Goldilocks `lo + hi EPSILON mod p` for `hi < 2^32` (`x = hi 2^64 + lo < 2^96`), lazily
/// reduced: `field::goldilocks::fast::portable::reduce96`, its carry correction as in
/// [`goldilocks_reduce128`].
#[inline(always)]
pub(super) fn goldilocks_reduce96(lo: u64, hi: u64) -> u64 {
    let out;
    // SAFETY: baseline x86_64 instructions on register operands only; no memory or stack.
    unsafe {
        core::arch::asm!(
            "imul {hi}, {eps}",
            "add {lo}, {hi}",
            "sbb {hi:e}, {hi:e}",
            "add {lo}, {hi}",
            lo = inlateout(reg) lo => out,
            hi = inout(reg) hi => _,
            eps = in(reg) GOLDILOCKS_EPSILON,
            options(pure, nomem, nostack),
        );
    }
    out
}

/// The full product `a b` as `(low, high)` words, by the baseline `mul` (RDX:RAX = RAX times a
/// register). For `field::goldilocks::fast::widening_mul` in builds that enable BMI2, where
/// LLVM would pick `mulx` for a `u128` product (see there for why); compiled in every build
/// here so that the tests check it.
#[cfg_attr(not(any(test, target_feature = "bmi2")), allow(dead_code))]
#[inline(always)]
pub(super) fn widening_mul(a: u64, b: u64) -> (u64, u64) {
    let (lo, hi);
    // SAFETY: a baseline x86_64 instruction on register operands only; no memory or stack.
    unsafe {
        core::arch::asm!(
            "mul {b}",
            b = in(reg) b,
            inlateout("rax") a => lo,
            lateout("rdx") hi,
            options(pure, nomem, nostack),
        );
    }
    (lo, hi)
}

/// `hi 2^64 + lo + x` as `(low, high)` words (`add`, `adc`; the caller keeps it below `2^128`),
/// for `field::goldilocks::fast::add_last`: one block, so the compiler cannot fold `x` into
/// the additions that made `hi 2^64 + lo`.
#[inline(always)]
pub(super) fn add_wide(lo: u64, hi: u64, x: u64) -> (u64, u64) {
    let (l, h);
    // SAFETY: baseline x86_64 instructions on register operands only; no memory or stack.
    unsafe {
        core::arch::asm!(
            "add {lo}, {x}",
            "adc {hi}, 0",
            lo = inlateout(reg) lo => l,
            hi = inlateout(reg) hi => h,
            x = in(reg) x,
            options(pure, nomem, nostack),
        );
    }
    (l, h)
}

/// Goldilocks `a + b mod p`, lazily reduced: `field::goldilocks::fast::portable::add_lazy`
/// (a carry adds `EPSILON`, at most twice), each correction as in [`goldilocks_reduce128`].
#[inline(always)]
pub(super) fn goldilocks_add(a: u64, b: u64) -> u64 {
    let out;
    // SAFETY: baseline x86_64 instructions on register operands only; no memory or stack.
    unsafe {
        core::arch::asm!(
            "add {a}, {b}",
            "sbb {b:e}, {b:e}",
            "add {a}, {b}",
            "sbb {b:e}, {b:e}",
            "add {a}, {b}",
            a = inlateout(reg) a => out,
            b = inout(reg) b => _,
            options(pure, nomem, nostack),
        );
    }
    out
}

/// Whether the CPU executes MULX and ADCX/ADOX (`std::is_x86_feature_detected!`, which caches).
#[inline(always)]
pub(super) fn available() -> bool {
    #[cfg(test)]
    if tests::PORTABLE_ONLY.load(core::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")
}

/// The kernel's products as a `field::montgomery::Arith` backend (the sparse ones for a sparse
/// modulus, `Modulus::is_sparse`). Its functions, like the kernel's, may only run after
/// [`available`] returned `true`: the only value of the type comes from [`MulxAdx::detect`],
/// and `field::montgomery::with_arith` instantiates code with the type only through that
/// value.
#[derive(Clone, Copy, Debug)]
pub(super) struct MulxAdx(());

impl MulxAdx {
    /// `Some` if [`available`] says the CPU has MULX and ADX.
    #[inline(always)]
    pub(super) fn detect() -> Option<Self> {
        available().then_some(MulxAdx(()))
    }
}

impl Arith for MulxAdx {
    #[inline(always)]
    fn mul(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
        if m.is_sparse() {
            return mul_sparse(a, b, m);
        }
        mul(a, b, m)
    }
    #[inline(always)]
    fn square(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
        if m.is_sparse() {
            return square_sparse(a, m);
        }
        square(a, m)
    }
}

/// `mov rdx, $bi` (the multiplier of a row), or nothing when `$bi` is `rdx` already: a move
/// of a register to itself is not eliminated, it would delay the row by a cycle.
macro_rules! load_rdx {
    ("rdx") => {
        ""
    };
    ($bi:literal) => {
        concat!("mov rdx, ", $bi, "\n")
    };
}

/// One row of the product: `(s0, s1, s2, s3, top) = (s0, s1, s2, s3) + a · $bi`, the low
/// halves of `a_j b_i` carried through OF (ADOX), the high halves through CF (ADCX); `top` is
/// written fresh and takes both final carries (`mov` leaves the flags alone). Neither chain
/// carries out of `top`: the running value stays below `(a + p) 2^64 <= 2^320` (see [`mul`]).
macro_rules! row {
    ([$a0:literal, $a1:literal, $a2:literal, $a3:literal], $bi:tt,
     $s0:literal, $s1:literal, $s2:literal, $s3:literal, $top:literal) => {
        concat!(
            load_rdx!($bi),
            "xor {lo:e}, {lo:e}\n", // CF = OF = 0
            "mulx {hi}, {lo}, ",
            $a0,
            "\n",
            "adox {",
            $s0,
            "}, {lo}\n",
            "adcx {",
            $s1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, ",
            $a1,
            "\n",
            "adox {",
            $s1,
            "}, {lo}\n",
            "adcx {",
            $s2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, ",
            $a2,
            "\n",
            "adox {",
            $s2,
            "}, {lo}\n",
            "adcx {",
            $s3,
            "}, {hi}\n",
            "mulx {",
            $top,
            "}, {lo}, ",
            $a3,
            "\n",
            "adox {",
            $s3,
            "}, {lo}\n",
            "mov {lo:e}, 0\n",
            "adcx {",
            $top,
            "}, {lo}\n",
            "adox {",
            $top,
            "}, {lo}\n",
        )
    };
}

/// One reduction step: `m = s0 · inv mod 2^64`, then `(s1, s2, s3, top) = (s + m p) / 2^64`
/// (the low word becomes zero and is dropped). The low halves of `m p_j` are carried through CF,
/// the high halves through OF; again nothing carries out of `top`.
macro_rules! reduce_step {
    ($s0:literal, $s1:literal, $s2:literal, $s3:literal, $top:literal) => {
        concat!(
            "mov rdx, {",
            $s0,
            "}\n",
            "imul rdx, qword ptr [{m} + 32]\n",
            "xor {lo:e}, {lo:e}\n", // CF = OF = 0
            "mulx {hi}, {lo}, qword ptr [{m}]\n",
            "adcx {",
            $s0,
            "}, {lo}\n",
            "adox {",
            $s1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [{m} + 8]\n",
            "adcx {",
            $s1,
            "}, {lo}\n",
            "adox {",
            $s2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [{m} + 16]\n",
            "adcx {",
            $s2,
            "}, {lo}\n",
            "adox {",
            $s3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [{m} + 24]\n",
            "adcx {",
            $s3,
            "}, {lo}\n",
            "adox {",
            $top,
            "}, {hi}\n",
            "mov {lo:e}, 0\n",
            "adcx {",
            $top,
            "}, {lo}\n",
        )
    };
}

/// [`reduce_step!`] for a sparse modulus `p = 1 + p_3 2^192`
/// (`field::montgomery::Modulus::is_sparse`): the digit is `m = -s0` (`neg`, which also sets CF
/// exactly when `s0 != 0`, the carry of `s0 + m · 1 = 2^64` or 0), and `m p` adds only `m` to
/// word 0 and `m p_3` to words 3 and 4: one MULX (flags untouched) and one `adc` chain.
macro_rules! reduce_step_sparse {
    ($s0:literal, $s1:literal, $s2:literal, $s3:literal, $top:literal) => {
        concat!(
            "mov rdx, {",
            $s0,
            "}\n",
            "neg rdx\n", // CF = (s0 != 0)
            "mulx {hi}, {lo}, qword ptr [{m} + 24]\n",
            "adc {",
            $s1,
            "}, 0\n",
            "adc {",
            $s2,
            "}, 0\n",
            "adc {",
            $s3,
            "}, {lo}\n",
            "adc {",
            $top,
            "}, {hi}\n",
        )
    };
}

/// The whole product `a · b / 2^256` from the four rows and reduction steps, with `a_j` and
/// `b_i` read from the operands `$a` and `$b` (registers or memory); the running value starts at zero in `t0 .. t3` and
/// each step's freed low register becomes the next row's top word, so the roles rotate through
/// `t0 .. t4` and the result ends in `(t4, t0, t1, t2)`.
macro_rules! product {
    ($a:tt, [$b0:tt, $b1:tt, $b2:tt, $b3:tt], $step:ident) => {
        concat!(
            "xor {t0:e}, {t0:e}\n",
            "xor {t1:e}, {t1:e}\n",
            "xor {t2:e}, {t2:e}\n",
            "xor {t3:e}, {t3:e}\n",
            row!($a, $b0, "t0", "t1", "t2", "t3", "t4"),
            $step!("t0", "t1", "t2", "t3", "t4"),
            row!($a, $b1, "t1", "t2", "t3", "t4", "t0"),
            $step!("t1", "t2", "t3", "t4", "t0"),
            row!($a, $b2, "t2", "t3", "t4", "t0", "t1"),
            $step!("t2", "t3", "t4", "t0", "t1"),
            row!($a, $b3, "t3", "t4", "t0", "t1", "t2"),
            $step!("t3", "t4", "t0", "t1", "t2"),
        )
    };
}

/// The inline assembly of [`product!`] with `$a`, `$b` its operand strings, `$step` its
/// reduction step ([`reduce_step!`] or [`reduce_step_sparse!`]), `$b0` the value of `b_0`, passed
/// in `rdx` (its operand string is `"rdx"`: the first row's multiplier needs no register of its
/// own), and `$inputs` the input operands the strings name (`m`, the [`Modulus`], is always one);
/// evaluates to the result limbs. Expands inside an `unsafe` block whose `// SAFETY:` comment is
/// the caller's.
///
/// Register budget: the product takes 11 of the 16 general registers (7 outputs and scratch,
/// `rdx`, the pointers `a`, `b`, `m`), the squaring 13 (`a_0 .. a_3` and `m`), as many as
/// are left where the compiler keeps `rsp`, `rbp` and `rbx` for itself (a function that
/// realigns its stack, as AVX-512 code does). With `b` in four registers (14) a `-C
/// target-cpu=native` build of the test suite on an Intel Xeon (Emerald Rapids) failed with
/// "inline assembly requires more registers than available" (2026-12-07); with `b_0` in `rdx`
/// and `b_1 .. b_3` in registers (13) that build passed and a `-C target-cpu=sapphirerapids`
/// build still failed; with the product at 11 both build (2026-12-08). The squaring keeps its
/// operands in registers: read from memory (10 registers) it made the BN254 and BLS12-381
/// t = 3 permutations 4-5% slower. `scripts/cpu-builds.sh` builds for such CPUs on any
/// machine.
macro_rules! product_asm {
    ($a:tt, $b:tt, $step:ident, $b0:expr, $($inputs:tt)*) => {{
        let (r0, r1, r2, r3): (u64, u64, u64, u64);
        core::arch::asm!(
            product!($a, $b, $step),
            $($inputs)*
            t0 = out(reg) r1,
            t1 = out(reg) r2,
            t2 = out(reg) r3,
            t3 = out(reg) _,
            t4 = out(reg) r0,
            hi = out(reg) _,
            lo = out(reg) _,
            inout("rdx") $b0 => _,
            options(pure, readonly, nostack),
        );
        [r0, r1, r2, r3]
    }};
}

/// Declares a product `$mul(a, b, m)` and a squaring `$square(a, m)` on [`product_asm!`] with the
/// reduction step `$step` (their docs and the `// SAFETY:` argument are shared; the step is the
/// only difference between the generic and the sparse pair). `$mul` reads `a` and `b_1 .. b_3`
/// from memory and takes `b_0` in `rdx`; `$square` keeps every operand in registers (`a_0`
/// also in `rdx`).
macro_rules! products {
    ($(#[$mul_doc:meta])* $mul:ident, $(#[$square_doc:meta])* $square:ident, $step:ident) => {
        $(#[$mul_doc])*
        #[inline(always)]
        pub(super) fn $mul(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
            // SAFETY: the caller checked `available()`, so the CPU has MULX (BMI2) and
            // ADCX/ADOX (ADX), the only instructions beyond x86_64 baseline used here; the block
            // reads the 4 limbs behind `a`, limbs 1 to 3 behind `b` and words of `m`
            // (`#[repr(C)]`: limbs, then `inv`; the sparse step reads only limb 3), all three
            // references valid for reads, writes only its register operands, and does not
            // touch the stack.
            unsafe {
                product_asm!(
                    [
                        "qword ptr [{a}]",
                        "qword ptr [{a} + 8]",
                        "qword ptr [{a} + 16]",
                        "qword ptr [{a} + 24]"
                    ],
                    [
                        "rdx",
                        "qword ptr [{b} + 8]",
                        "qword ptr [{b} + 16]",
                        "qword ptr [{b} + 24]"
                    ],
                    $step,
                    b[0],
                    a = in(reg) a.as_ptr(),
                    b = in(reg) b.as_ptr(),
                    m = in(reg) core::ptr::from_ref(m),
                )
            }
        }

        $(#[$square_doc])*
        #[inline(always)]
        pub(super) fn $square(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
            // SAFETY: as in the product above (here only words of `m` are read from memory).
            unsafe {
                product_asm!(
                    ["{a0}", "{a1}", "{a2}", "{a3}"],
                    ["rdx", "{a1}", "{a2}", "{a3}"],
                    $step,
                    a[0],
                    a0 = in(reg) a[0],
                    a1 = in(reg) a[1],
                    a2 = in(reg) a[2],
                    a3 = in(reg) a[3],
                    m = in(reg) core::ptr::from_ref(m),
                )
            }
        }
    };
}

products!(
    /// `a · b / 2^256 mod p`, below `a · b / 2^256 + p`, for `a + p < 2^256` and any `b` (the
    /// contract of `field::montgomery::mul_portable`). `a` and `b_1 .. b_3` are read from memory,
    /// `b_0` is passed in `rdx` (the first row's multiplier): pass the operand computed longer
    /// ago as `a` where the contract allows (a value stored just before would wait for its
    /// store).
    ///
    /// Bound: before each reduction step the running value is below `(a + p) + a (2^64 - 1)` and
    /// after adding `m p` below `(a + p) 2^64 <= 2^320`, so five words hold it and no carry leaves
    /// the top word; after the division by `2^64` it is below `a + p` again (by induction from 0).
    ///
    /// Only call after [`available`] returned `true`.
    mul,
    /// `a^2 / 2^256 mod p`, below `a^2 / 2^256 + p`, for `a + p < 2^256`: [`mul`] with `b = a`,
    /// every operand in registers.
    ///
    /// Only call after [`available`] returned `true`.
    square,
    reduce_step
);

products!(
    /// [`mul`] for a sparse modulus (`field::montgomery::Modulus::is_sparse`, the Stark field):
    /// the same rows, each followed by [`reduce_step_sparse!`] (same digits, same bounds, same
    /// result as [`mul`]; about 16 fewer multiplications per product).
    ///
    /// Only call after [`available`] returned `true`, with a sparse `m`.
    mul_sparse,
    /// [`square`] for a sparse modulus: [`mul_sparse`] with `b = a` (the oracle of
    /// [`square_sparse`] in the tests).
    ///
    /// Only call after [`available`] returned `true`, with a sparse `m`.
    #[cfg_attr(not(test), allow(dead_code))]
    square_sparse_cios,
    reduce_step_sparse
);

/// [`square`] for a sparse modulus `p = 1 + p_3 2^192` (`field::montgomery::Modulus::is_sparse`),
/// as a squaring: the 512-bit square `w = a^2` from 6 cross products (doubled) and 4 diagonal
/// ones (10 MULX instead of 16), then the low half reduced by four sparse steps and the high half
/// added: `(w + K p) / 2^256` with the digits `K` of the generic reduction, so the same value as
/// [`square`] and `field::montgomery::square_sparse_portable`, below `a^2 / 2^256 + p`, for
/// `a + p < 2^256`. `a` is read from memory.
///
/// Carries: the cross products' sum is below `2^448` (six words `w1 .. w6`), so neither chain
/// carries out of `w6`; the doubled sum plus the diagonal squares is `a^2 < 2^512` (eight words);
/// each reduction step keeps the low window below `2^256` (`(L + k p) / 2^64 < 2^192 + p`, then
/// below `p + 2^129`), so its top word takes the last carry; the final sum is the result, below
/// `2^256` by the contract.
///
/// Only call after [`available`] returned `true`, with a sparse `m`.
#[inline(always)]
pub(super) fn square_sparse(a: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the caller checked `available()` (MULX, ADCX/ADOX); the block reads the 4 limbs
    // behind `a` and limb 3 of `m` (both valid for reads), writes only its register operands and
    // does not touch the stack.
    unsafe {
        core::arch::asm!(
            // Cross products a_i a_j (i < j) into w1 .. w6: three at disjoint places, then
            // three added on two carry chains (CF: low halves, OF: high halves).
            "mov rdx, qword ptr [{a}]",
            "mulx {w2}, {w1}, qword ptr [{a} + 8]",
            "mulx {w4}, {w3}, qword ptr [{a} + 24]",
            "mov rdx, qword ptr [{a} + 16]",
            "mulx {w6}, {w5}, qword ptr [{a} + 24]",
            "xor {w7:e}, {w7:e}", // w7 = 0, CF = OF = 0
            "mulx {hi}, {lo}, qword ptr [{a}]",
            "adcx {w2}, {lo}",
            "adox {w3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 8]",
            "adcx {w3}, {lo}",
            "adox {w4}, {hi}",
            "mov rdx, qword ptr [{a} + 8]",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adcx {w4}, {lo}",
            "adox {w5}, {hi}",
            "adcx {w5}, {w7}",
            "adox {w6}, {w7}",
            "adcx {w6}, {w7}",
            // Doubled (CF chain: each word plus itself) and the squares a_i^2 added (OF chain).
            "mov rdx, qword ptr [{a}]",
            "mulx {hi}, {w0}, rdx",
            "xor {lo:e}, {lo:e}", // CF = OF = 0
            "adcx {w1}, {w1}",
            "adox {w1}, {hi}",
            "mov rdx, qword ptr [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {w2}, {w2}",
            "adox {w2}, {lo}",
            "adcx {w3}, {w3}",
            "adox {w3}, {hi}",
            "mov rdx, qword ptr [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {w4}, {w4}",
            "adox {w4}, {lo}",
            "adcx {w5}, {w5}",
            "adox {w5}, {hi}",
            "mov rdx, qword ptr [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {w6}, {w6}",
            "adox {w6}, {lo}",
            "adcx {w7}, {w7}",
            "adox {w7}, {hi}",
            // Four sparse steps on the low half (as `reduce_step_sparse!`, window of four
            // words whose freed low register takes the step's new top word).
            "mov rdx, {w0}",
            "neg rdx", // CF = (w0 != 0)
            "mulx {w0}, {lo}, qword ptr [{m} + 24]",
            "adc {w1}, 0",
            "adc {w2}, 0",
            "adc {w3}, {lo}",
            "adc {w0}, 0",
            "mov rdx, {w1}",
            "neg rdx",
            "mulx {w1}, {lo}, qword ptr [{m} + 24]",
            "adc {w2}, 0",
            "adc {w3}, 0",
            "adc {w0}, {lo}",
            "adc {w1}, 0",
            "mov rdx, {w2}",
            "neg rdx",
            "mulx {w2}, {lo}, qword ptr [{m} + 24]",
            "adc {w3}, 0",
            "adc {w0}, 0",
            "adc {w1}, {lo}",
            "adc {w2}, 0",
            "mov rdx, {w3}",
            "neg rdx",
            "mulx {w3}, {lo}, qword ptr [{m} + 24]",
            "adc {w0}, 0",
            "adc {w1}, 0",
            "adc {w2}, {lo}",
            "adc {w3}, 0",
            // Plus the high half.
            "add {w0}, {w4}",
            "adc {w1}, {w5}",
            "adc {w2}, {w6}",
            "adc {w3}, {w7}",
            a = in(reg) a.as_ptr(),
            m = in(reg) core::ptr::from_ref(m),
            w0 = out(reg) r0,
            w1 = out(reg) r1,
            w2 = out(reg) r2,
            w3 = out(reg) r3,
            w4 = out(reg) _,
            w5 = out(reg) _,
            w6 = out(reg) _,
            w7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// The tail of [`add`] and [`reduce`]: `{b0..b3} = {s0..s3} - p` by `sub`/`sbb` (limbs of `p`
/// read from `{m}`), then `{s0..s3} = {b0..b3}` by `cmovnc` where that did not borrow. A select,
/// never a branch: the time does not depend on the value.
macro_rules! subtract_p_if_no_borrow {
    () => {
        concat!(
            "mov {b0}, {s0}\n",
            "mov {b1}, {s1}\n",
            "mov {b2}, {s2}\n",
            "mov {b3}, {s3}\n",
            "sub {b0}, qword ptr [{m}]\n",
            "sbb {b1}, qword ptr [{m} + 8]\n",
            "sbb {b2}, qword ptr [{m} + 16]\n",
            "sbb {b3}, qword ptr [{m} + 24]\n",
            "cmovnc {s0}, {b0}\n",
            "cmovnc {s1}, {b1}\n",
            "cmovnc {s2}, {b2}\n",
            "cmovnc {s3}, {b3}\n",
        )
    };
}

/// `(a + b) mod p` for canonical `a`, `b` and `p < 2^255` (so `a + b < 2^256`): the sum by an
/// `add`/`adc` chain, `sum - p` by `sub`/`sbb`, and the sum kept by `cmovc` where that borrowed.
/// Baseline x86_64 instructions only; in assembly so that no target CPU's code generation can
/// vectorise or reschedule the carry chains (the portable `field::montgomery::add` is the same
/// value).
#[inline(always)]
pub(super) fn add(a: &[u64; 4], b: &[u64; 4], m: &Modulus) -> [u64; 4] {
    let [mut s0, mut s1, mut s2, mut s3] = *a;
    // SAFETY: baseline x86_64 instructions; reads the 4 limbs of `m` (valid for reads), writes
    // only its register operands, does not touch the stack.
    unsafe {
        core::arch::asm!(
            "add {s0}, {b0}",
            "adc {s1}, {b1}",
            "adc {s2}, {b2}",
            "adc {s3}, {b3}",
            subtract_p_if_no_borrow!(),
            s0 = inout(reg) s0,
            s1 = inout(reg) s1,
            s2 = inout(reg) s2,
            s3 = inout(reg) s3,
            b0 = inout(reg) b[0] => _,
            b1 = inout(reg) b[1] => _,
            b2 = inout(reg) b[2] => _,
            b3 = inout(reg) b[3] => _,
            m = in(reg) core::ptr::from_ref(m),
            options(pure, readonly, nostack),
        );
    }
    [s0, s1, s2, s3]
}

/// The canonical representative of `x < 2p` (`field::montgomery::reduce`): `x - p` kept by
/// `cmovnc` where it did not borrow. Baseline x86_64 instructions only, so that the select stays a
/// select (constant time) whatever the compiler's target.
#[inline(always)]
pub(super) fn reduce(x: [u64; 4], m: &Modulus) -> [u64; 4] {
    let [mut s0, mut s1, mut s2, mut s3] = x;
    // SAFETY: as in `add`: baseline instructions, reads the 4 limbs of `m`, register operands
    // only, no stack.
    unsafe {
        core::arch::asm!(
            subtract_p_if_no_borrow!(),
            s0 = inout(reg) s0,
            s1 = inout(reg) s1,
            s2 = inout(reg) s2,
            s3 = inout(reg) s3,
            b0 = out(reg) _,
            b1 = out(reg) _,
            b2 = out(reg) _,
            b3 = out(reg) _,
            m = in(reg) core::ptr::from_ref(m),
            options(pure, readonly, nostack),
        );
    }
    [s0, s1, s2, s3]
}

/// `v mod p` for a modulus with `Modulus::sparse_terms > 0` (`field::montgomery::reduce_sparse`,
/// whose quotient digit `q` the caller computes): `v - (q, 0, 0, q p_3)` by `sub`/`sbb` (`q p_3`
/// by `imul`), the borrow spread to a mask by `sbb` (`mask - mask - CF`, whatever `mask` held),
/// and `p` masked by it added back by `add`/`adc` (the four masked limbs computed before that
/// chain: `and` clears the carry). Baseline x86_64 instructions only: no compiler can turn the
/// masked correction into a branch.
#[inline(always)]
pub(super) fn reduce_sparse(v: [u64; 4], q: u64, m: &Modulus) -> [u64; 4] {
    let [mut s0, mut s1, mut s2, mut s3] = v;
    // SAFETY: baseline x86_64 instructions; reads the 4 limbs of `m` (valid for reads), writes
    // only its register operands, does not touch the stack.
    unsafe {
        core::arch::asm!(
            "mov {t}, {q}",
            "imul {t}, qword ptr [{m} + 24]",
            "sub {s0}, {q}",
            "sbb {s1}, 0",
            "sbb {s2}, 0",
            "sbb {s3}, {t}",
            "sbb {mask}, {mask}",
            // The masked limbs first: `and` clears the carry flag.
            "mov {t}, qword ptr [{m}]",
            "and {t}, {mask}",
            "mov {q}, qword ptr [{m} + 8]",
            "and {q}, {mask}",
            "mov {u}, qword ptr [{m} + 16]",
            "and {u}, {mask}",
            "and {mask}, qword ptr [{m} + 24]",
            "add {s0}, {t}",
            "adc {s1}, {q}",
            "adc {s2}, {u}",
            "adc {s3}, {mask}",
            s0 = inout(reg) s0,
            s1 = inout(reg) s1,
            s2 = inout(reg) s2,
            s3 = inout(reg) s3,
            q = inout(reg) q => _,
            t = out(reg) _,
            u = out(reg) _,
            mask = out(reg) _,
            m = in(reg) core::ptr::from_ref(m),
            options(pure, readonly, nostack),
        );
    }
    [s0, s1, s2, s3]
}

#[cfg(test)]
mod tests {
    //! The switch that lets unit tests run the portable path on a CPU with BMI2 and ADX.

    /// While set, [`available`] answers `false`, so the scalar arithmetic takes the portable
    /// path (unit tests only; tests running meanwhile just take the other correct path).
    pub(super) static PORTABLE_ONLY: core::sync::atomic::AtomicBool =
        core::sync::atomic::AtomicBool::new(false);
}

#[cfg(all(test, feature = "bn254", feature = "bls12-381"))]
mod kernel_tests {
    //! The kernel against the portable multiplication it replaces, at the edges of its input
    //! range and through whole permutations, on the four-limb moduli.
    use super::super::PrimeField;
    use super::super::montgomery::{mul_portable, square_portable};
    use super::*;
    use ark_ff::MontConfig;

    /// The constants of BN254, BLS12-381 and the Stark field.
    fn moduli() -> [Modulus; 3] {
        [
            Modulus {
                limbs: ark_bn254::FrConfig::MODULUS.0,
                inv: <ark_bn254::FrConfig as MontConfig<4>>::INV,
            },
            Modulus {
                limbs: ark_bls12_381::FrConfig::MODULUS.0,
                inv: <ark_bls12_381::FrConfig as MontConfig<4>>::INV,
            },
            Modulus {
                limbs: crate::stark252::Felt252Config::MODULUS.0,
                inv: <crate::stark252::Felt252Config as MontConfig<4>>::INV,
            },
        ]
    }

    /// `x - y` on 256-bit integers (`x >= y`).
    fn sub(x: [u64; 4], y: [u64; 4]) -> [u64; 4] {
        let mut out = [0; 4];
        let mut borrow = false;
        for i in 0..4 {
            let (d, b1) = x[i].overflowing_sub(y[i]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            out[i] = d;
            borrow = b1 | b2;
        }
        out
    }

    /// Deterministic pseudo-random words (xorshift64*).
    fn words(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            s.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    #[test]
    fn the_kernel_equals_the_portable_products_from_zero_to_the_largest_operands() {
        if !available() {
            std::eprintln!("NOTE: CPU lacks BMI2/ADX: MULX/ADX kernel tests skipped");
            return;
        }
        let mut next = words(0x5eed);
        for m in moduli() {
            let p = m.limbs;
            // `a` ranges up to the largest value the contract allows, `2^256 - p - 1`; `b` up
            // to `2^256 - 1`.
            let max_a = sub([u64::MAX; 4], p);
            let p_minus_1 = sub(p, [1, 0, 0, 0]);
            let edges_a = [[0; 4], [1, 0, 0, 0], p_minus_1, p, max_a];
            let edges_b = [[0; 4], [1, 0, 0, 0], p_minus_1, p, max_a, [u64::MAX; 4]];
            let check = |a: [u64; 4], b: [u64; 4]| {
                assert_eq!(mul(&a, &b, &m), mul_portable(&a, &b, &m), "{a:x?} * {b:x?}");
                assert_eq!(square(&a, &m), square_portable(&a, &m), "{a:x?}^2");
            };
            for a in edges_a {
                for b in edges_b {
                    check(a, b);
                }
            }
            for _ in 0..20_000 {
                let b = [next(), next(), next(), next()];
                let mut a = [next(), next(), next(), next()];
                // Keep `a` within the contract: halve the top limb until `a <= max_a`.
                while a.iter().rev().gt(max_a.iter().rev()) {
                    a[3] >>= 1;
                }
                check(a, b);
            }
        }
    }

    /// The sparse-modulus products (Stark field, `p = 1 + p_3 2^192`), assembly and portable,
    /// equal the generic ones (assembly and portable) over the whole input range of the
    /// contract: `a` up to `2^256 - p - 1`, `b` up to `2^256 - 1`, edges and random values.
    #[test]
    fn the_sparse_products_equal_the_generic_ones_on_the_stark_modulus() {
        use super::super::montgomery::{mul_sparse_portable, square_sparse_portable};
        let m = Modulus {
            limbs: crate::stark252::Felt252Config::MODULUS.0,
            inv: <crate::stark252::Felt252Config as MontConfig<4>>::INV,
        };
        assert!(m.is_sparse());
        assert!(!moduli()[0].is_sparse() && !moduli()[1].is_sparse());
        let kernel = available();
        if !kernel {
            std::eprintln!("NOTE: CPU lacks BMI2/ADX: only the portable sparse products tested");
        }
        let mut next = words(0x57a7c);
        let p = m.limbs;
        let max_a = sub([u64::MAX; 4], p);
        let p_minus_1 = sub(p, [1, 0, 0, 0]);
        let edges_a = [
            [0; 4],
            [1, 0, 0, 0],
            [u64::MAX, 0, 0, 0],
            p_minus_1,
            p,
            max_a,
        ];
        let edges_b = [
            [0; 4],
            [1, 0, 0, 0],
            [u64::MAX, 0, 0, 0],
            p_minus_1,
            p,
            max_a,
            [u64::MAX; 4],
        ];
        let check = |a: [u64; 4], b: [u64; 4]| {
            let want = mul_portable(&a, &b, &m);
            assert_eq!(mul_sparse_portable(&a, &b, &m), want, "{a:x?} * {b:x?}");
            let want_sq = square_portable(&a, &m);
            assert_eq!(square_sparse_portable(&a, &m), want_sq, "{a:x?}^2");
            if kernel {
                assert_eq!(mul_sparse(&a, &b, &m), want, "{a:x?} * {b:x?}");
                assert_eq!(square_sparse(&a, &m), want_sq, "{a:x?}^2");
                assert_eq!(square_sparse_cios(&a, &m), want_sq, "{a:x?}^2");
            }
        };
        for a in edges_a {
            for b in edges_b {
                check(a, b);
            }
        }
        for i in 0..50_000 {
            let b = [next(), next(), next(), next()];
            let mut a = [next(), next(), next(), next()];
            // Low words of zero now and then: the digit `-s0` of a zero word carries nothing.
            if i % 7 == 0 {
                a[0] = 0;
            }
            while a.iter().rev().gt(max_a.iter().rev()) {
                a[3] >>= 1;
            }
            check(a, b);
        }
    }

    #[test]
    fn the_assembly_addition_equals_the_portable_one_from_zero_to_p_minus_one() {
        use super::super::montgomery::add as add_portable;
        let mut next = words(0xadd);
        for m in moduli() {
            let p = m.limbs;
            let p_minus_1 = sub(p, [1, 0, 0, 0]);
            let half = [
                p[0] >> 1 | p[1] << 63,
                p[1] >> 1 | p[2] << 63,
                p[2] >> 1 | p[3] << 63,
                p[3] >> 1,
            ];
            let edges = [
                [0; 4],
                [1, 0, 0, 0],
                half,
                sub(p, half),
                p_minus_1,
                [u64::MAX, 0, 0, 0],
            ];
            let check = |a: [u64; 4], b: [u64; 4]| {
                assert_eq!(add(&a, &b, &m), add_portable(&a, &b, &p), "{a:x?} + {b:x?}");
            };
            for a in edges {
                for b in edges {
                    check(a, b);
                }
            }
            for _ in 0..20_000 {
                let mut canonical = || {
                    let mut a = [next(), next(), next(), next()];
                    while a.iter().rev().ge(p.iter().rev()) {
                        a[3] >>= 1;
                    }
                    a
                };
                let (a, b) = (canonical(), canonical());
                check(a, b);
            }
        }
    }

    /// The select of [`reduce`] (and so of the additions' tails): `x - p` exactly for `x >= p`,
    /// at `0, 1, p - 1, p, p + 1, 2p - 1` and on random `x < 2p`.
    #[test]
    fn the_assembly_reduction_subtracts_p_exactly_from_p_to_2p_minus_1() {
        let mut next = words(0x5e1ec7);
        for m in moduli() {
            let p = m.limbs;
            let two_p = [
                p[0] << 1,
                p[1] << 1 | p[0] >> 63,
                p[2] << 1 | p[1] >> 63,
                p[3] << 1 | p[2] >> 63,
            ];
            let check = |x: [u64; 4]| {
                let want = if x.iter().rev().ge(p.iter().rev()) {
                    sub(x, p)
                } else {
                    x
                };
                assert_eq!(reduce(x, &m), want, "{x:x?}");
            };
            for x in [
                [0; 4],
                [1, 0, 0, 0],
                sub(p, [1, 0, 0, 0]),
                p,
                sub(two_p, sub(p, [1, 0, 0, 0])),
                sub(two_p, [1, 0, 0, 0]),
            ] {
                check(x);
            }
            for _ in 0..20_000 {
                let mut x = [next(), next(), next(), next()];
                while x.iter().rev().ge(two_p.iter().rev()) {
                    x[3] >>= 1;
                }
                check(x);
            }
        }
    }

    #[test]
    fn permutations_with_the_kernel_equal_the_portable_ones() {
        use crate::instances::{bls12_381, bn254};
        use core::sync::atomic::Ordering;
        if !available() {
            std::eprintln!("NOTE: CPU lacks BMI2/ADX: the permutations below ran portable twice");
        }
        let bn254_t3 = bn254::ct::t3();
        let bn254_t8 = bn254::ct::t8();
        let bls_t3 = bls12_381::ct::t3();
        let run = || {
            let mut next = words(0xfeed);
            let mut element = |_| ark_bn254::Fr::from(next()) * ark_bn254::Fr::from(next());
            let a: [ark_bn254::Fr; 3] = core::array::from_fn(&mut element);
            let b: [ark_bn254::Fr; 8] = core::array::from_fn(&mut element);
            let c: [ark_bls12_381::Fr; 3] =
                core::array::from_fn(|i| ark_bls12_381::Fr::from(i as u64 + 7).pow_u64(1 << 40));
            (
                bn254_t3.permutation(&a),
                bn254_t8.permutation(&b),
                bls_t3.permutation(&c),
            )
        };
        let kernel = run();
        tests::PORTABLE_ONLY.store(true, Ordering::Relaxed);
        let portable = run();
        tests::PORTABLE_ONLY.store(false, Ordering::Relaxed);
        assert_eq!(kernel, portable);
    }
}

#[cfg(all(test, feature = "stark252"))]
mod stark_tests {
    //! The Stark permutations with the sparse MULX/ADX products against the portable sparse
    //! ones (`PORTABLE_ONLY`), on random states and the extremes.
    use super::tests::PORTABLE_ONLY;
    use crate::field::{Field, PrimeField};
    use crate::instances::stark252;
    use crate::stark252::Felt252;
    use core::sync::atomic::Ordering;

    #[test]
    fn stark_permutations_with_the_kernel_equal_the_portable_ones() {
        let minus_one = Felt252::from_u64(1).neg();
        let states: [[Felt252; 3]; 4] = [
            [Felt252::ZERO_ELEMENT; 3],
            [minus_one; 3],
            [1u64, 2, 3].map(Felt252::from_u64),
            [7u64, 11, 13].map(|v| Felt252::from_u64(v).pow_u64(1 << 40)),
        ];
        let t9: [Felt252; 9] = core::array::from_fn(|i| Felt252::from_u64(i as u64).pow_u64(99));
        let run = || {
            let three = states.map(|s| stark252::ct::T3.permutation(&s));
            (three, stark252::ct::T9.permutation(&t9))
        };
        let kernel = run();
        PORTABLE_ONLY.store(true, Ordering::Relaxed);
        let portable = run();
        PORTABLE_ONLY.store(false, Ordering::Relaxed);
        assert_eq!(kernel, portable);
    }
}
