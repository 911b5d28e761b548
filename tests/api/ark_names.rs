//! The crate's traits next to arkworks': with `fast_poseidon2::field::{Field, PrimeField}` and
//! `linear::LinearOps` in scope beside ark-ff's `Field`, `AdditiveGroup`, `Zero` and `One`, an
//! ark user's code keeps compiling: `Fr::ZERO`, `x.square()`, `x.double()`, `x.inverse()` and
//! `#[derive(MontConfig)]` resolve to ark's items (before the crate's names were distinct, each
//! of these failed with E0034, "multiple applicable items in scope"). This file is a
//! compile-time test; the runtime assertions check that both crates' names give the same value.

use ark_ff::fields::{Fp64, MontBackend, MontConfig};
use ark_ff::{AdditiveGroup, Field as _, One, Zero};
use fast_poseidon2::field::{Field as _, PrimeField as _};
use fast_poseidon2::linear::LinearOps as _;

/// A user's own field, derived while this crate's traits are in scope (Goldilocks' modulus).
#[derive(MontConfig)]
#[modulus = "18446744069414584321"]
#[generator = "7"]
pub struct UserConfig;
type UserField = Fp64<MontBackend<UserConfig, 1>>;

/// Every name on the concrete type `$f`, where method resolution sees every trait in scope.
macro_rules! check_names {
    ($f:ty) => {{
        let three = <$f>::from(3u64);
        // ark's names.
        assert_eq!(<$f>::ZERO, <$f>::zero());
        assert_eq!(<$f>::ONE, <$f>::one());
        assert_eq!(three.double(), <$f>::from(6u64));
        assert_eq!(three.square(), <$f>::from(9u64));
        assert_eq!(three.inverse().unwrap() * three, <$f>::ONE);
        // The crate's names on the same values.
        assert_eq!(<$f>::ZERO_ELEMENT, <$f>::ZERO);
        assert_eq!(<$f>::ONE_ELEMENT, <$f>::ONE);
        assert_eq!(three.doubled(), three.double());
        assert_eq!(three.squared(), three.square());
        assert_eq!(three.inverted(), three.inverse());
        assert_eq!(three.linear_double(), three.double());
    }};
}

#[test]
fn ark_names_stay_unambiguous_with_this_crates_traits_in_scope() {
    check_names!(UserField);
    check_names!(ark_bn254::Fr);
    check_names!(ark_bls12_381::Fr);
}
