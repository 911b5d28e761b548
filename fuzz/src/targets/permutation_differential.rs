//! Arbitrary bytes -> a state of one shipped instance (first byte picks it) -> the const-generic
//! path, the runtime path and the textbook permutation must agree.

use crate::differential::assert_paths_agree;
use crate::{elements, with_instance};

/// Runs one fuzz input (`data`, laid out as above); panics on a finding.
pub fn run(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    with_instance!(selector, |ct, flexible| {
        let state = elements(rest, ct.to_params().width());
        assert_paths_agree(ct, flexible, &state)
    });
}
