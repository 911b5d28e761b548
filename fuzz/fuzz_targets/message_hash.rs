//! Arbitrary bytes -> `hash_message` of any length on one shipped instance never panics and
//! equals the textbook message hash (`testkit::textbook::message_hash`: chunks, initial value,
//! sponge) on both paths; the message with one more zero byte hashes differently.
//!
//! Layout: byte 0 picks the instance; the rest is the message (empty included).
#![no_main]

use fast_poseidon2_fuzz::differential::assert_message_bytes_agree;
use fast_poseidon2_fuzz::{byte, with_instance};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let message = data.get(1..).unwrap_or(&[]);
    with_instance!(byte(data, 0), |ct, flexible| {
        assert_message_bytes_agree(ct, flexible, message);
        let mut longer = message.to_vec();
        longer.push(0);
        assert_ne!(ct.hash_message(message), ct.hash_message(&longer));
    });
});
