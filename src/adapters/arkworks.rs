//! [`ark-crypto-primitives`](ark_crypto_primitives) 0.6 for the shipped instances on BN254 and
//! BLS12-381 (fields of 254 and 255 bits, one-element digests; the types need
//! `P::Field: ark_ff::PrimeField`, which Goldilocks' `GoldilocksFast` is not):
//!
//! - [`Crh<P>`]: `CRHScheme`, input `[F]`, output `F`: the crate's length-declared sponge
//!   `hash` at the secure rate `t - 1`, one output (`[F]` must not be empty).
//! - [`TwoToOneCrh<P>`]: `TwoToOneCRHScheme`, `F × F → F`: the
//!   [binary node](super#the-binary-node), `perm([left, right, 0, …])[0]` (the crate's
//!   `compress` at t = 3).
//! - [`MerkleConfig<P>`]: ark's Merkle tree `Config` with those two (leaves `[F]`, digests `F`).
//! - [`Sponge<P>`]: `CryptographicSponge` and `FieldBasedCryptographicSponge<F>`, a duplex
//!   sponge (below).
//!
//! Every `Parameters` and `Config` is `()`: a shipped instance carries its constants, `setup`
//! returns `Ok(())` and ignores its random source.
//!
//! # The duplex sponge
//! Rate `r = t - 1`, capacity 1 holding the value 1 (a starting state no other mode uses, see
//! [`crate::modes`]). Absorbed values are turned into field elements by their ark `Absorb`
//! implementation and added into `state[0..r]` one by one, the state permuted before an element
//! that finds the block full. The first squeeze after absorbing (or on a fresh sponge) closes
//! the absorbed elements with `10*` padding: it adds 1 after the last element (permuting first
//! if the block is full) and permutes, so `[x]` and `[x, 0]` give different outputs. Squeezes
//! read `state[0..r]` in order, permuting when a block is used up; an absorb after a squeeze
//! starts again at `state[0]`. Not bound: how many elements were squeezed between two absorbs
//! (as in arkworks' own Poseidon sponge). `squeeze_bytes` takes the `floor((n - 1) / 8)` low
//! bytes of each element's integer (little-endian) and `squeeze_bits` its `n - 1` low bits
//! (least significant first), as arkworks' Poseidon sponge does; both are close to uniform.
//!
//! ```
//! # #[cfg(feature = "bn254")] {
//! use ark_bn254::Fr;
//! use ark_crypto_primitives::crh::{CRHScheme, TwoToOneCRHScheme};
//! use ark_crypto_primitives::merkle_tree::MerkleTree;
//! use ark_crypto_primitives::sponge::{CryptographicSponge, FieldBasedCryptographicSponge};
//! use fast_poseidon2::adapters::arkworks::{Crh, MerkleConfig, Sponge, TwoToOneCrh};
//! use fast_poseidon2::instances::bn254::{self, Bn254T3};
//!
//! // The CRHs are the crate's own calls.
//! let leaf = [Fr::from(1u64), Fr::from(2u64), Fr::from(3u64)];
//! let digest = Crh::<Bn254T3>::evaluate(&(), leaf.as_slice()).unwrap();
//! assert_eq!([digest], bn254::ct::t3().hash::<2, 1>(&leaf).unwrap());
//! let node = TwoToOneCrh::<Bn254T3>::compress(&(), digest, digest).unwrap();
//! assert_eq!(node, bn254::ct::t3().compress(&[digest, digest]));
//!
//! // An ark Merkle tree over 8 leaves of two elements each.
//! let leaves: Vec<[Fr; 2]> = (0..8u64).map(|i| [Fr::from(i), Fr::from(i * i)]).collect();
//! let tree = MerkleTree::<MerkleConfig<Bn254T3>>::new(&(), &(), leaves.iter().map(|l| l.as_slice())).unwrap();
//! let path = tree.generate_proof(5).unwrap();
//! assert!(path.verify(&(), &(), &tree.root(), leaves[5].as_slice()).unwrap());
//! assert!(!path.verify(&(), &(), &tree.root(), leaves[4].as_slice()).unwrap());
//!
//! // A Fiat-Shamir transcript.
//! let mut sponge = Sponge::<Bn254T3>::new(&());
//! sponge.absorb(&Fr::from(7u64));
//! let challenges: Vec<Fr> = sponge.squeeze_native_field_elements(2);
//! assert_ne!(challenges[0], challenges[1]);
//! # }
//! ```

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::borrow::Borrow;
use core::marker::PhantomData;

use ark_crypto_primitives::crh::{CRHScheme, TwoToOneCRHScheme};
use ark_crypto_primitives::merkle_tree::{Config, IdentityDigestConverter};
use ark_crypto_primitives::sponge::{Absorb, CryptographicSponge, FieldBasedCryptographicSponge};
use ark_std::rand::Rng;

use super::two_to_one;
use crate::field::{Field, PrimeField};
use crate::instances::Instance;
use crate::modes::message_chunk_bytes;
use crate::modes::sponge::hash_into;
use crate::modes::write_digits;

/// The field elements the arkworks adapters run on: a shipped instance's field that is also an
/// arkworks prime field with `Absorb` (BN254 and BLS12-381 `Fr`).
pub trait ArkField: PrimeField + ark_ff::PrimeField + Absorb {}

impl<F: PrimeField + ark_ff::PrimeField + Absorb> ArkField for F {}

/// The starting value of the duplex sponge's capacity (module docs; [`crate::modes`]'s table).
const DUPLEX_INITIAL_VALUE: u128 = 1;

/// Declares a zero-sized adapter type over `P` with the impls a derive would bound on `P`.
macro_rules! zero_sized {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<P>(PhantomData<fn() -> P>);

        impl<P> Clone for $name<P> {
            fn clone(&self) -> Self {
                $name(PhantomData)
            }
        }

        impl<P> core::fmt::Debug for $name<P> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(stringify!($name))
            }
        }
    };
}

zero_sized!(
    /// `CRHScheme` over the shipped instance `P`: a non-empty `[F]` to `F` by the crate's
    /// length-declared sponge `hash` (rate `t - 1`, one output; [`crate::modes::Sponge`]).
    ///
    /// # Errors
    /// `evaluate` of an empty slice is `ark_crypto_primitives::Error::GenericError` wrapping
    /// [`crate::Error::EmptyInput`].
    Crh
);

zero_sized!(
    /// `TwoToOneCRHScheme` over the shipped instance `P`: `F × F → F`, the
    /// [binary node](super#the-binary-node) (`perm([left, right, 0, …])[0]`; the crate's
    /// `compress` at t = 3). `evaluate` and `compress` are the same map. Never fails.
    TwoToOneCrh
);

zero_sized!(
    /// ark's Merkle tree `Config` over the shipped instance `P`: leaves are `[F]` hashed by
    /// [`Crh<P>`], inner nodes `F` compressed by [`TwoToOneCrh<P>`], leaf digests used as inner
    /// digests unchanged. Parameters: `()` for both hashes.
    MerkleConfig
);

impl<P: Instance> CRHScheme for Crh<P>
where
    P::Field: ArkField,
{
    type Input = [P::Field];
    type Output = P::Field;
    type Parameters = ();

    fn setup<R: Rng>(_: &mut R) -> Result<(), ark_crypto_primitives::Error> {
        Ok(())
    }

    fn evaluate<T: Borrow<[P::Field]>>(
        _: &(),
        input: T,
    ) -> Result<P::Field, ark_crypto_primitives::Error> {
        let mut out = [P::Field::ZERO_ELEMENT];
        hash_into(P::get(), input.borrow(), P::RATE, &mut out)
            .map_err(|e| ark_crypto_primitives::Error::GenericError(Box::new(e)))?;
        Ok(out[0])
    }
}

impl<P: Instance> TwoToOneCRHScheme for TwoToOneCrh<P>
where
    P::Field: ArkField,
{
    type Input = P::Field;
    type Output = P::Field;
    type Parameters = ();

    fn setup<R: Rng>(_: &mut R) -> Result<(), ark_crypto_primitives::Error> {
        Ok(())
    }

    fn evaluate<T: Borrow<P::Field>>(
        _: &(),
        left: T,
        right: T,
    ) -> Result<P::Field, ark_crypto_primitives::Error> {
        Self::compress(&(), left, right)
    }

    fn compress<T: Borrow<P::Field>>(
        _: &(),
        left: T,
        right: T,
    ) -> Result<P::Field, ark_crypto_primitives::Error> {
        const {
            assert!(
                P::DIGEST_LEN == 1,
                "the arkworks CRHs need one-element digests"
            )
        };
        let mut out = [P::Field::ZERO_ELEMENT];
        two_to_one::<P>(&[*left.borrow()], &[*right.borrow()], &mut out);
        Ok(out[0])
    }
}

impl<P: Instance> Config for MerkleConfig<P>
where
    P::Field: ArkField,
{
    type Leaf = [P::Field];
    type LeafDigest = P::Field;
    type LeafInnerDigestConverter = IdentityDigestConverter<P::Field>;
    type InnerDigest = P::Field;
    type LeafHash = Crh<P>;
    type TwoToOneHash = TwoToOneCrh<P>;
}

/// The duplex sponge of the module docs over the shipped instance `P`, as arkworks'
/// `CryptographicSponge` (`Config = ()`) and `FieldBasedCryptographicSponge<F>`. Never panics.
pub struct Sponge<P: Instance> {
    state: P::State,
    /// Elements absorbed into, or squeezed from, the current block (`<= r`).
    position: usize,
    /// Whether the last operation was a squeeze.
    squeezing: bool,
}

impl<P: Instance> Clone for Sponge<P> {
    fn clone(&self) -> Self {
        Sponge {
            state: self.state,
            position: self.position,
            squeezing: self.squeezing,
        }
    }
}

impl<P: Instance> core::fmt::Debug for Sponge<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sponge")
            .field("instance", &P::NAME)
            .field("state", &&self.state.as_ref()[..P::WIDTH])
            .field("position", &self.position)
            .field("squeezing", &self.squeezing)
            .finish()
    }
}

impl<P: Instance> Sponge<P>
where
    P::Field: ArkField,
{
    /// Permutes if the current block is used up, and starts the next.
    fn next_lane(&mut self) -> usize {
        if self.position == P::RATE {
            P::get().permute_state(&mut self.state);
            self.position = 0;
        }
        self.position += 1;
        self.position - 1
    }

    /// Adds `x` at the next rate lane.
    fn absorb_element(&mut self, x: P::Field) {
        if self.squeezing {
            self.squeezing = false;
            self.position = 0;
        }
        let lane = self.next_lane();
        let slot = &mut self.state.as_mut()[lane];
        *slot = slot.add(x);
    }

    /// The next output element; the first after absorbing pads (`10*`) and permutes.
    fn squeeze_element(&mut self) -> P::Field {
        if !self.squeezing {
            self.absorb_element(P::Field::ONE_ELEMENT);
            P::get().permute_state(&mut self.state);
            self.squeezing = true;
            self.position = 0;
        }
        let lane = self.next_lane();
        self.state.as_ref()[lane]
    }

    /// `n` output elements.
    fn squeeze_elements(&mut self, n: usize) -> Vec<P::Field> {
        (0..n).map(|_| self.squeeze_element()).collect()
    }

    /// The canonical integer of `x` little-endian (`F::BYTES` bytes).
    fn le_bytes(x: P::Field) -> Vec<u8> {
        let mut bytes = alloc::vec![0u8; <P::Field as PrimeField>::BYTES];
        x.write_canonical_be_bytes(&mut bytes);
        bytes.reverse();
        bytes
    }
}

impl<P: Instance> CryptographicSponge for Sponge<P>
where
    P::Field: ArkField,
{
    type Config = ();

    fn new(_: &()) -> Self {
        let mut state = P::get().zero_state();
        write_digits(&mut state.as_mut()[P::RATE..P::WIDTH], DUPLEX_INITIAL_VALUE);
        Sponge {
            state,
            position: 0,
            squeezing: false,
        }
    }

    fn absorb(&mut self, input: &impl Absorb) {
        for x in input.to_sponge_field_elements_as_vec::<P::Field>() {
            self.absorb_element(x);
        }
    }

    /// `num_bytes` bytes: the `floor((n - 1) / 8)` low bytes of each squeezed element,
    /// little-endian.
    fn squeeze_bytes(&mut self, num_bytes: usize) -> Vec<u8> {
        let per_element = message_chunk_bytes(<P::Field as PrimeField>::MODULUS_BITS);
        let mut bytes: Vec<u8> = self
            .squeeze_elements(num_bytes.div_ceil(per_element))
            .into_iter()
            .flat_map(|x| Self::le_bytes(x).into_iter().take(per_element))
            .collect();
        bytes.truncate(num_bytes);
        bytes
    }

    /// `num_bits` bits: the `n - 1` low bits of each squeezed element, least significant first.
    fn squeeze_bits(&mut self, num_bits: usize) -> Vec<bool> {
        let per_element = (<P::Field as PrimeField>::MODULUS_BITS - 1) as usize;
        let mut bits: Vec<bool> = self
            .squeeze_elements(num_bits.div_ceil(per_element))
            .into_iter()
            .flat_map(|x| {
                let bytes = Self::le_bytes(x);
                (0..per_element).map(move |i| bytes[i / 8] >> (i % 8) & 1 == 1)
            })
            .collect();
        bits.truncate(num_bits);
        bits
    }
}

impl<P: Instance> FieldBasedCryptographicSponge<P::Field> for Sponge<P>
where
    P::Field: ArkField,
{
    fn squeeze_native_field_elements(&mut self, num_elements: usize) -> Vec<P::Field> {
        self.squeeze_elements(num_elements)
    }
}
