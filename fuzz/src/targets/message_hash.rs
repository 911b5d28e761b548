//! Arbitrary bytes -> `hash_message` of any length on one shipped instance never panics and
//! equals the textbook message hash (`testkit::textbook::message_hash`: chunks, initial value,
//! sponge) on both paths; the message with one more zero byte hashes differently.
//!
//! Layout: byte 0 picks the instance; the rest is the message (empty included).

use crate::differential::assert_message_bytes_agree;
use crate::{byte, with_instance};

/// Runs one fuzz input (`data`, laid out as above); panics on a finding.
pub fn run(data: &[u8]) {
    let message = data.get(1..).unwrap_or(&[]);
    with_instance!(byte(data, 0), |ct, flexible| {
        assert_message_bytes_agree(ct, flexible, message);
        let mut longer = message.to_vec();
        longer.push(0);
        assert_ne!(ct.hash_message(message), ct.hash_message(&longer));
    });
}
