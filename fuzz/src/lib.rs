//! Shared pieces of the fuzz targets: the test suite's textbook definitions, differential
//! assertions and small fields (re-exported from the workspace's `testkit` crate), input
//! decoding and the dispatch over every shipped instance.

pub use testkit::{differential, small, textbook};

pub mod targets;

use fast_poseidon2::field::PrimeField;

/// `n` elements from consecutive `F::BYTES`-byte chunks of `data` (bytes past the end read as
/// zero), each reduced mod p, so every input decodes to a state.
pub fn elements<F: PrimeField>(data: &[u8], n: usize) -> Vec<F> {
    (0..n)
        .map(|i| {
            let chunk: Vec<u8> = (0..F::BYTES)
                .map(|j| byte(data, i * F::BYTES + j))
                .collect();
            F::from_be_bytes_reduced(&chunk)
        })
        .collect()
}

/// Byte `i` of `data` (zero past the end).
pub fn byte(data: &[u8], i: usize) -> u8 {
    data.get(i).copied().unwrap_or(0)
}

/// Runs `$body` with `$ct` bound to a reference to the const-generic permutation and `$flexible`
/// to the cached runtime permutation of the shipped instance number `$selector`, modulo the
/// number of instances (`testkit::for_each_instance!`, in its order).
#[macro_export]
macro_rules! with_instance {
    ($selector:expr, |$ct:ident, $flexible:ident| $body:expr) => {{
        use $crate::{__count_instance, __run_instance};
        let mut count = 0usize;
        testkit::for_each_instance!(@with [count] __count_instance);
        let selected = usize::from($selector) % count;
        let mut index = 0usize;
        testkit::for_each_instance!(@with [selected, index, $ct, $flexible, $body] __run_instance);
        let _ = index;
    }};
}

/// [`with_instance!`]'s callback: counts the instances.
#[doc(hidden)]
#[macro_export]
macro_rules! __count_instance {
    ([$count:ident] $($instance:tt)*) => {
        $count += 1;
    };
}

/// [`with_instance!`]'s callback: runs the body on the selected instance.
#[doc(hidden)]
#[macro_export]
macro_rules! __run_instance {
    ([$selected:ident, $index:ident, $ct:ident, $flexible:ident, $body:expr]
        $name:ident, $t:literal, $digest:literal, $group:literal, $ct_expr:expr, $flexible_expr:expr) => {
        if $selected == $index {
            let $ct = &$ct_expr;
            let $flexible = $flexible_expr;
            $body;
        }
        $index += 1;
    };
}
