//! Prime fields small enough to enumerate, as ark-ff 0.6 `Fp64` fields, and exact linear algebra
//! over any [`PrimeField`]. Test-only.

use ark_ff::fields::{Fp64, MontBackend, MontConfig};
use fast_poseidon2::field::PrimeField;

/// Declares `$name = Fp64` over the prime `$p` with multiplicative generator `$g`.
macro_rules! small_field {
    ($($name:ident, $config:ident, $p:literal, $g:literal;)*) => {$(
        #[doc = concat!("The prime field of order ", $p, ".")]
        #[derive(MontConfig)]
        #[modulus = $p]
        #[generator = $g]
        pub struct $config;
        #[doc = concat!("`GF(", $p, ")`.")]
        pub type $name = Fp64<MontBackend<$config, 1>>;
    )*};
}

small_field! {
    F3, F3Config, "3", "2";
    F5, F5Config, "5", "2";
    F7, F7Config, "7", "3";
    F11, F11Config, "11", "2";
    F13, F13Config, "13", "2";
    F17, F17Config, "17", "3";
    F19, F19Config, "19", "2";
    F23, F23Config, "23", "5";
    F29, F29Config, "29", "2";
    F31, F31Config, "31", "3";
    F257, F257Config, "257", "3";
}

/// The canonical integer of `x` (fields of at most 64 bits).
pub fn canonical<F: PrimeField>(x: F) -> usize {
    let mut buf = [0u8; 8];
    x.write_canonical_be_bytes(&mut buf[..F::BYTES]);
    buf[..F::BYTES]
        .iter()
        .fold(0, |acc, &b| (acc << 8) | usize::from(b))
}

/// The modulus `p` (fields of at most 64 bits).
pub fn modulus<F: PrimeField>() -> usize {
    let mut buf = [0u8; 8];
    F::write_modulus_be(&mut buf[..F::BYTES]);
    buf[..F::BYTES]
        .iter()
        .fold(0, |acc, &b| (acc << 8) | usize::from(b))
}

/// The determinant of a square matrix (given as rows or as columns: same value), by Gaussian
/// elimination over `F`.
pub fn determinant<F: PrimeField>(mut m: Vec<Vec<F>>) -> F {
    let n = m.len();
    let mut det = F::ONE_ELEMENT;
    for col in 0..n {
        let Some(pivot) = (col..n).find(|&r| m[r][col] != F::ZERO_ELEMENT) else {
            return F::ZERO_ELEMENT;
        };
        if pivot != col {
            m.swap(pivot, col);
            det = det.neg();
        }
        det = det.mul(m[col][col]);
        let inv = m[col][col].inverted().expect("non-zero pivot");
        let (top, below) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for row in below {
            let factor = row[col].mul(inv);
            for (x, &v) in row.iter_mut().zip(pivot_row).skip(col) {
                *x = x.sub(factor.mul(v));
            }
        }
    }
    det
}
