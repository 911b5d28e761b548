//! Fast paths against the textbook ([`crate::textbook`]), as panicking assertions shared by the
//! property tests (`tests/equivalence/properties.rs`), the Poseidon1 equivalence tests
//! (`tests/equivalence/{poseidon1,stark252}.rs`), Miri (`tests/miri.rs`) and the fuzz targets
//! (`fuzz/`).

use crate::textbook;
use fast_poseidon2::ct::Poseidon2Ct;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::linear::LinearLayers;
use fast_poseidon2::modes::Sponge;
use fast_poseidon2::poseidon1::ct::Poseidon1Ct;
use fast_poseidon2::poseidon1::{Poseidon1, Poseidon1Params};
use fast_poseidon2::{Endianness, MAX_BYTE_INPUTS, Poseidon2};

/// The ct permutation (over `C`), the runtime permutation (over `A`: the same field in another
/// representation, e.g. ark `Goldilocks` for `GoldilocksFast`, or `C` itself) and the textbook
/// permutation of the ct instance's parameters agree on `state` (`T` elements).
pub fn assert_paths_agree<
    C: PrimeField + LinearLayers,
    A: PrimeField + LinearLayers + From<C>,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<A>,
    state: &[C],
) {
    let state: [C; T] = state.try_into().expect("width");
    let out = ct.permutation(&state);
    let plain = textbook::permutation(&ct.to_params(), &state);
    assert_eq!(&out[..], &plain[..], "ct vs textbook");
    assert_eq!(
        flexible.permutation(&lift::<C, A>(&state)).expect("width"),
        lift::<C, A>(&out),
        "runtime vs ct"
    );
}

/// `xs` as elements of `A`.
pub fn lift<C: PrimeField + LinearLayers, A: PrimeField + LinearLayers + From<C>>(
    xs: &[C],
) -> Vec<A> {
    xs.iter().map(|&x| A::from(x)).collect()
}

/// The Merkle compression of one group of children (`inputs`: `merkle_arity · D` elements) on
/// the runtime path (`compress_batch` of one group, and `compress` where `D = 1`) and
/// `ct_compressed` (the ct path's digest of the same group) equal the textbook compression.
pub fn assert_compress_agrees<
    C: PrimeField + LinearLayers,
    A: PrimeField + LinearLayers + From<C>,
>(
    params: &fast_poseidon2::Poseidon2Params<C>,
    flexible: &Poseidon2<A>,
    inputs: &[C],
    ct_compressed: &[C],
) {
    let expected = textbook::compress(params, inputs);
    assert_eq!(ct_compressed, expected, "ct vs textbook");
    assert_eq!(
        flexible.compress_batch(&lift::<C, A>(inputs)),
        Ok(lift::<C, A>(&expected)),
        "runtime vs textbook"
    );
    if let [digest] = expected[..] {
        assert_eq!(
            flexible.compress(&lift::<C, A>(inputs)),
            Ok(A::from(digest)),
            "runtime compress vs textbook"
        );
    }
}

/// One-shot hashing on both paths and streaming (absorbing in the pieces `inputs` is cut into at
/// `absorb_cuts`, squeezing in pieces cut at `squeeze_cuts`) all equal the textbook sponge.
/// `rate` must be in `1..T`, `out >= 1`, `inputs` non-empty.
pub fn assert_sponge_agrees<
    C: PrimeField + LinearLayers,
    A: PrimeField + LinearLayers + From<C>,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<A>,
    inputs: &[C],
    rate: usize,
    out: usize,
    absorb_cuts: &[usize],
    squeeze_cuts: &[usize],
) {
    let expected = textbook::sponge(&ct.to_params(), inputs, rate, out);
    let mut one_shot = vec![C::ZERO_ELEMENT; out];
    ct.hash_into(inputs, rate, &mut one_shot)
        .expect("valid call");
    assert_eq!(one_shot, expected, "ct hash_into vs textbook");
    assert_eq!(
        flexible.hash(&lift::<C, A>(inputs), rate, out),
        Ok(lift::<C, A>(&expected)),
        "runtime hash vs textbook"
    );
    let mut sponge = Sponge::new(ct, rate, inputs.len(), out).expect("valid shape");
    for piece in split(inputs, absorb_cuts) {
        sponge.absorb(piece).expect("within the declared length");
    }
    let mut streamed = vec![C::ZERO_ELEMENT; out];
    let mut start = 0;
    for piece in split(&expected, squeeze_cuts) {
        sponge
            .squeeze(&mut streamed[start..start + piece.len()])
            .expect("within the declared output");
        start += piece.len();
    }
    assert_eq!(streamed, expected, "streaming vs textbook");
}

/// `xs` cut at the positions `cuts` (each taken modulo `xs.len() + 1`, then sorted).
fn split<'a, T>(xs: &'a [T], cuts: &[usize]) -> Vec<&'a [T]> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (xs.len() + 1)).collect();
    cuts.sort_unstable();
    cuts.push(xs.len());
    let mut start = 0;
    cuts.into_iter()
        .map(|end| {
            let piece = &xs[start..end];
            start = end;
            piece
        })
        .collect()
}

/// `hashv_bytes` on both paths equals the textbook byte API, errors included.
pub fn assert_bytes_agree<
    C: PrimeField + LinearLayers,
    A: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<A>,
    little_endian: bool,
    inputs: &[&[u8]],
) {
    let expected = textbook::hashv_bytes(&ct.to_params(), little_endian, inputs, MAX_BYTE_INPUTS);
    let endianness = if little_endian {
        Endianness::LittleEndian
    } else {
        Endianness::BigEndian
    };
    assert_eq!(
        ct.hashv_bytes(endianness, inputs),
        expected,
        "ct vs textbook"
    );
    assert_eq!(
        flexible.hashv_bytes(endianness, inputs),
        expected,
        "runtime vs textbook"
    );
}

/// `hash_message` on both paths equals the textbook message hash of `message` (as bytes) over
/// the instance's textbook permutation; returns the textbook digest elements.
pub fn assert_message_bytes_agree<
    C: PrimeField + LinearLayers,
    A: PrimeField + LinearLayers,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<A>,
    message: &[u8],
) -> Vec<C> {
    let params = ct.to_params();
    let perm = |s: &[C]| textbook::permutation(&params, s);
    let expected_bytes = textbook::message_hash_bytes(&perm, T, message);
    assert_eq!(
        ct.hash_message(message).to_vec(),
        expected_bytes,
        "ct vs textbook"
    );
    assert_eq!(
        flexible.hash_message(message).map(|b| b.to_vec()),
        Ok(expected_bytes),
        "runtime vs textbook"
    );
    textbook::message_hash(&perm, T, message)
}

/// [`assert_message_bytes_agree`], and `hash_message_elements` (`N` = the field's digest
/// length) on both paths equal the textbook digest elements.
pub fn assert_message_agrees<
    C: PrimeField + LinearLayers,
    A: PrimeField + LinearLayers + From<C>,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
    const N: usize,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<A>,
    message: &[u8],
) {
    let expected = assert_message_bytes_agree(ct, flexible, message);
    assert_eq!(
        ct.hash_message_elements::<N>(message).to_vec(),
        expected,
        "ct elements vs textbook"
    );
    assert_eq!(
        flexible
            .hash_message_elements::<N>(message)
            .map(|e| e.to_vec()),
        Ok(lift::<C, A>(&expected)),
        "runtime elements vs textbook"
    );
}

/// For the batch `states` (each `T` elements): `permute_batch` on both paths equals the
/// textbook permutation of each state; the runtime `compress_batch` of the states' first
/// `merkle_arity · D` elements equals the textbook compression of each group; the Merkle root
/// of all the elements as `D`-element leaves (where the width has a tree, at least one leaf)
/// equals the textbook root, through `merkle_root_digests`, the incremental `MerkleBuilder`
/// and, where `D = 1`, `merkle_root`.
pub fn assert_batch_agrees<
    C: PrimeField + LinearLayers,
    A: PrimeField + LinearLayers + From<C>,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    ct: &Poseidon2Ct<C, T, RF, RP, D>,
    flexible: &Poseidon2<A>,
    states: &[C],
) {
    let params = ct.to_params();
    let expected: Vec<C> = states
        .chunks(T)
        .flat_map(|state| textbook::permutation(&params, state))
        .collect();
    let mut batch: Vec<[C; T]> = states
        .chunks(T)
        .map(|s| s.try_into().expect("width"))
        .collect();
    ct.permute_batch(&mut batch);
    assert_eq!(batch.as_flattened(), &expected[..], "ct batch vs textbook");
    let mut flat = lift::<C, A>(states);
    flexible.permute_batch(&mut flat).expect("whole states");
    assert_eq!(flat, lift::<C, A>(&expected), "runtime batch vs textbook");
    let digest = textbook::digest_len::<C>();
    let group = textbook::arity::<C>(T) * digest;
    let groups: Vec<C> = states.chunks(T).flat_map(|s| s[..group].to_vec()).collect();
    let compressed: Vec<C> = groups
        .chunks(group)
        .flat_map(|g| textbook::compress(&params, g))
        .collect();
    assert_eq!(
        flexible.compress_batch(&lift::<C, A>(&groups)),
        Ok(lift::<C, A>(&compressed)),
        "runtime compress_batch vs textbook"
    );
    if group >= 2 * digest {
        let root = textbook::merkle_root(&params, states).map(|r| lift::<C, A>(&r));
        let leaves = lift::<C, A>(states);
        assert_eq!(
            merkle_root_digests(flexible, &leaves),
            root,
            "merkle_root_digests vs textbook"
        );
        let mut builder = fast_poseidon2::merkle::MerkleBuilder::new(flexible).expect("a tree");
        let (head, tail) = leaves.split_at(leaves.len() / 3);
        builder.push(head).unwrap();
        builder.push(tail).unwrap();
        assert_eq!(builder_root(builder), root, "MerkleBuilder vs textbook");
        if digest == 1 {
            assert_eq!(
                flexible.merkle_root(&leaves).ok().map(|r| vec![r]),
                root,
                "merkle_root vs textbook"
            );
        }
    }
}

/// `merkle_root_digests` over flat `D`-element leaves (`D` = 1, 4 or 8, the shipped fields'),
/// as a vector; `None` on any error.
pub fn merkle_root_digests<A: PrimeField + LinearLayers>(
    perm: &Poseidon2<A>,
    leaves: &[A],
) -> Option<Vec<A>> {
    match textbook::digest_len::<A>() {
        1 => perm
            .merkle_root_digests::<1>(leaves.as_chunks().0)
            .ok()
            .map(|r| r.to_vec()),
        4 => perm
            .merkle_root_digests::<4>(leaves.as_chunks().0)
            .ok()
            .map(|r| r.to_vec()),
        8 => perm
            .merkle_root_digests::<8>(leaves.as_chunks().0)
            .ok()
            .map(|r| r.to_vec()),
        d => panic!("no test shape for digests of {d} elements"),
    }
}

/// A builder's root as a vector (`D` = 1, 4 or 8); `None` on any error.
pub fn builder_root<P>(
    builder: fast_poseidon2::merkle::MerkleBuilder<'_, P>,
) -> Option<Vec<P::Field>>
where
    P: fast_poseidon2::modes::Permutation,
    P::Field: PrimeField + LinearLayers,
{
    match textbook::digest_len::<P::Field>() {
        1 => builder.finish::<1>().ok().map(|r| r.to_vec()),
        4 => builder.finish::<4>().ok().map(|r| r.to_vec()),
        8 => builder.finish::<8>().ok().map(|r| r.to_vec()),
        d => panic!("no test shape for digests of {d} elements"),
    }
}

/// Every Poseidon1 path against the dense textbook permutation of `params`
/// ([`textbook::poseidon1_permutation`]) on `count` random states drawn from `seed`: the shipped
/// const instance `ct`, a const instance built by `Poseidon1Ct::from_params(params)`, a runtime
/// permutation built by `Poseidon1::new(params)` and the shipped cached one, `cached`.
pub fn assert_poseidon1_paths<
    F: PrimeField,
    const T: usize,
    const RF: usize,
    const RP: usize,
    const D: u64,
>(
    params: &Poseidon1Params<F>,
    ct: &Poseidon1Ct<F, T, RF, RP, D>,
    cached: &Poseidon1<F>,
    seed: u64,
    count: usize,
) {
    let from_params = Poseidon1Ct::<F, T, RF, RP, D>::from_params(params).expect("shape");
    let runtime = Poseidon1::new(params).expect("schedule");
    for state in crate::random_states::<F, T>(seed, count) {
        let expected = textbook::poseidon1_permutation(params, &state);
        assert_eq!(ct.permutation(&state).to_vec(), expected, "t = {T}: ct");
        assert_eq!(
            from_params.permutation(&state).to_vec(),
            expected,
            "t = {T}: from_params"
        );
        assert_eq!(
            runtime.permutation(&state).unwrap(),
            expected,
            "t = {T}: runtime"
        );
        assert_eq!(
            cached.permutation(&state).unwrap(),
            expected,
            "t = {T}: cached"
        );
    }
}
