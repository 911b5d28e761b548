//! The modes on the 31-bit fields, unchanged: digests and the secure capacity are
//! `ceil(248 / 31) = 8` elements, so BabyBear and KoalaBear t = 16 hash at rate 8, compress two
//! 8-element digests, and give 32-byte outputs from 4-byte canonical inputs; a width whose
//! capacity cannot fit (t = 8) is a clean `Err`.
#![cfg(all(feature = "std", feature = "babybear", feature = "koalabear"))]

use fast_poseidon2::babybear::BabyBear;
use fast_poseidon2::field::{Field, PrimeField};
use fast_poseidon2::instances::{Instance, babybear, plonky3};
use fast_poseidon2::koalabear::KoalaBear;
use fast_poseidon2::modes::digest_len;
use fast_poseidon2::{Endianness, Error, Poseidon2, Poseidon2Params};

#[test]
fn digest_and_capacity_are_8_elements() {
    assert_eq!(digest_len::<BabyBear>(), 8);
    assert_eq!(digest_len::<KoalaBear>(), 8);
    type T16 = babybear::BabyBearT16;
    type T24 = babybear::BabyBearT24;
    assert_eq!((T16::CAPACITY, T16::RATE, T16::DIGEST_LEN), (8, 8, 8));
    assert_eq!((T24::CAPACITY, T24::RATE, T24::DIGEST_LEN), (8, 16, 8));
    assert_eq!(T16::NAME, "BabyBear t = 16");
}

#[test]
fn sponge_compression_and_bytes_run_on_babybear_t16() {
    let perm = babybear::ct::t16();
    let flexible = babybear::poseidon2_t16();
    let message: Vec<BabyBear> = (0..21u64).map(BabyBear::from_u64).collect();
    let digest = perm.hash::<8, 8>(&message).expect("rate 8, capacity 8");
    assert_eq!(
        flexible.hash(&message, 8, 8).expect("same").as_slice(),
        digest
    );
    assert!(matches!(
        perm.hash::<9, 8>(&message),
        Err(Error::InsufficientCapacity {
            capacity_bits: 217,
            required_bits: 248
        })
    ));
    let node = perm.compress_digests(&[digest, [BabyBear::ONE_ELEMENT; 8]]);
    assert_eq!(
        flexible.compress_digests(&[digest, [BabyBear::ONE_ELEMENT; 8]]),
        Ok(node)
    );
    let root = perm
        .merkle_root_digests(&[digest, node, digest])
        .expect("root");
    assert_eq!(
        flexible.merkle_root_digests(&[digest, node, digest]),
        Ok(root)
    );

    let inputs: [[u8; 4]; 3] = [[0, 0, 0, 1], [0x12, 0x34, 0x56, 0x78], [0x78, 0, 0, 0]];
    let refs: Vec<&[u8]> = inputs.iter().map(|x| &x[..]).collect();
    let bytes = perm
        .hashv_bytes(Endianness::BigEndian, &refs)
        .expect("canonical");
    assert_eq!(bytes.len(), 32);
    assert_eq!(
        flexible.hashv_bytes(Endianness::BigEndian, &refs),
        Ok(bytes)
    );
    // p itself is not canonical; 3 or 8 bytes are not one element.
    let p = fast_poseidon2::babybear::MODULUS.to_be_bytes();
    assert!(perm.hashv_bytes(Endianness::BigEndian, &[&p]).is_err());
    assert_eq!(
        perm.hash_bytes_be(&[&[0u8; 3]]),
        Err(Error::InvalidInputLength {
            index: 0,
            len: 3,
            expected: 4
        })
    );
    assert!(perm.hash_bytes_le(&[&[0u8; 8]]).is_err());
}

#[test]
fn sponge_and_compression_run_on_koalabear_t16() {
    let perm = plonky3::ct::koalabear_t16();
    let flexible = plonky3::poseidon2_koalabear_t16();
    let message: Vec<KoalaBear> = (0..9u64).map(KoalaBear::from_u64).collect();
    let digest = perm.hash::<8, 8>(&message).expect("rate 8, capacity 8");
    assert_eq!(
        flexible.hash(&message, 8, 8).expect("same").as_slice(),
        digest
    );
    let node = perm.compress_digests(&[digest, digest]);
    assert_eq!(flexible.compress_digests(&[digest, digest]), Ok(node));
    let bytes = perm.hash_message(b"KoalaBear");
    assert_eq!(flexible.hash_message(b"KoalaBear"), Ok(bytes));
}

#[test]
fn a_width_without_room_for_the_capacity_is_an_err() {
    // t = 8 over BabyBear: capacity 8 leaves no rate, and two 8-element digests do not fit.
    let params = Poseidon2Params::<BabyBear>::generate(8, 7, 8, 13).expect("generate");
    let perm = Poseidon2::new(params);
    assert!(matches!(
        perm.hash(&[BabyBear::ONE_ELEMENT], 1, 8),
        Err(Error::InsufficientCapacity { .. })
    ));
    assert!(
        perm.compress_digests(&[[BabyBear::ZERO_ELEMENT; 8]; 2])
            .is_err()
    );
    assert!(
        perm.hashv_bytes(Endianness::BigEndian, &[&[0u8; 4]])
            .is_err()
    );
    let _ = BabyBear::from_canonical_be_bytes(&[0, 0, 0, 1]).expect("canonical");
}
