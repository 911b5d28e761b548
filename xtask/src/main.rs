//! `cargo run -p xtask -- gen-params [--check]`: regenerates, from the registry below
//! ([`REGISTRY`], the one list of shipped instances), the constant tables
//! `src/instances/tables/*.rs` (by the crate's own Grain LFSR, `Poseidon2Params::generate`), the
//! generated region of each `src/instances/<field>.rs` (its `declare_instances!` call) and
//! `testkit/src/registry.rs` (the `for_each_instance!` list of tests, benches and fuzz targets);
//! likewise, from the Poseidon1 families [`CIRCOM`] and [`STARK252`], their optimized-schedule
//! tables, their modules' declarations and their testkit lists.
//! With `--check`, writes nothing and exits with status 1 if any file would change.

use ark_ff::{Fp, MontBackend, MontConfig};
use fast_poseidon2::Poseidon2Params;
use fast_poseidon2::field::PrimeField;
use fast_poseidon2::goldilocks::GoldilocksFast;
use fast_poseidon2::modes::{merkle_arity, security_elements};
use fast_poseidon2::poseidon1::schedule::optimize;
use fast_poseidon2::poseidon1::{PartialSbox, Poseidon1Params};
use fast_poseidon2::stark252::{Felt252, Felt252Config};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// One instance to bake: width, S-box degree, rounds, and the reference file that ships it.
struct Spec {
    t: usize,
    d: u64,
    rounds_f: usize,
    rounds_p: usize,
    reference: Option<&'static str>,
}

const fn spec(t: usize, d: u64, rounds_p: usize, reference: Option<&'static str>) -> Spec {
    Spec {
        t,
        d,
        rounds_f: 8,
        rounds_p,
        reference,
    }
}

const HL: &str = "HorizenLabs/poseidon2 commit 055bde3f4782731ba5f5ce5888a440a94327eaf3, plain_implementations/src/poseidon2/";

/// How a generated table spells one field element as a `const` expression.
trait ConstElement: PrimeField {
    /// The field's type as the table file names it.
    const TYPE: &'static str;
    /// The field's type as an instance module names it.
    const FIELD_PATH: &'static str;
    /// Module-doc lines on the representation the table stores.
    const DOC: &'static str;
    /// The `use` line the element constructor needs besides the field type.
    const IMPORT: &'static str;
    /// The table file's element constructor, the `const fn e` of [`Self::const_expr`].
    fn constructor() -> String;
    /// A `const` expression for `self`: `e(..)` over the stored representation.
    fn const_expr(self) -> String;
}

/// The name the generated files give an ark-ff field's element type.
trait ArkName {
    const NAME: &'static str;
}

impl ArkName for ark_bn254::FrConfig {
    const NAME: &'static str = "Fr";
}

impl ArkName for ark_bls12_381::FrConfig {
    const NAME: &'static str = "Fr";
}

impl ArkName for Felt252Config {
    const NAME: &'static str = "Felt252";
}

/// ark-ff 0.6 four-limb Montgomery fields (`ark_bn254::Fr`, `ark_bls12_381::Fr`, `Felt252`):
/// `e` is the const `Fp::new_unchecked`, which takes the Montgomery form `x · 2^256 mod p` as
/// four little-endian limbs, exactly what ark keeps in `Fp.0` (so the limbs are read from the
/// element the parameter generation produced).
impl<C: MontConfig<4> + ArkName> ConstElement for Fp<MontBackend<C, 4>, 4>
where
    Self: PrimeField,
{
    const TYPE: &'static str = C::NAME;
    const FIELD_PATH: &'static str = C::NAME;
    const DOC: &'static str =
        "//! Elements: Montgomery form (`x · 2^256 mod p`) as four little-endian 64-bit limbs, the
//! representation ark-ff stores, so that the const `Fp::new_unchecked` builds them.
";
    const IMPORT: &'static str = "use ark_ff::BigInt;";
    fn constructor() -> String {
        format!(
            "/// The element whose Montgomery form has the limbs `limbs`.
const fn e(limbs: [u64; 4]) -> {ty} {{
    {ty}::new_unchecked(BigInt(limbs))
}}
",
            ty = C::NAME
        )
    }
    fn const_expr(self) -> String {
        let limbs: Vec<String> = self.0.0.iter().map(|l| format!("0x{l:016x}")).collect();
        format!("e([{}])", limbs.join(", "))
    }
}

/// `GoldilocksFast` takes any `u64` as the element it stands for mod p; the tables store the
/// canonical integers.
impl ConstElement for GoldilocksFast {
    const TYPE: &'static str = "GoldilocksFast";
    const FIELD_PATH: &'static str = "crate::field::goldilocks::GoldilocksFast";
    const DOC: &'static str =
        "//! Elements: canonical integers, built by the const `GoldilocksFast::new`.\n";
    const IMPORT: &'static str = "use crate::field::goldilocks::GoldilocksFast;";
    fn constructor() -> String {
        "/// The element `v` (canonical: `v < p`).
const fn e(v: u64) -> GoldilocksFast {
    GoldilocksFast::new(v)
}
"
        .into()
    }
    fn const_expr(self) -> String {
        format!("e(0x{:016x})", self.to_canonical_u64())
    }
}

/// Renders one field's table file; `import` brings the field type into scope (if needed).
fn render<F: ConstElement>(field: &str, import: Option<&str>, specs: &[Spec]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "//! {field} constant tables. Generated by `cargo run -p xtask -- gen-params`; do not edit."
    )
    .unwrap();
    out += F::DOC;
    writeln!(out).unwrap();
    let mut imports = vec!["use crate::poseidon2::ct::Poseidon2Ct;", F::IMPORT];
    imports.extend(import);
    // rustfmt's order: `crate::` paths first, then the others alphabetically.
    imports.sort_unstable_by_key(|line| (!line.starts_with("use crate::"), *line));
    for line in imports {
        writeln!(out, "{line}").unwrap();
    }
    writeln!(out).unwrap();
    out += &F::constructor();
    for s in specs {
        let params = Poseidon2Params::<F>::generate(s.t, s.d, s.rounds_f, s.rounds_p)
            .unwrap_or_else(|e| panic!("{field} t={}: {e}", s.t));
        writeln!(out).unwrap();
        writeln!(
            out,
            "/// {field} t = {}: Grain tuple (n = {}, t = {}, R_F = {}, R_P = {}), d = {}.",
            s.t,
            F::MODULUS_BITS,
            s.t,
            s.rounds_f,
            s.rounds_p,
            s.d
        )
        .unwrap();
        match s.reference {
            Some(file) => writeln!(out, "/// Equal to the reference's {HL}{file}.").unwrap(),
            None => writeln!(
                out,
                "/// Not shipped by the reference; generated by the same procedure."
            )
            .unwrap(),
        }
        writeln!(out, "#[rustfmt::skip]").unwrap();
        writeln!(
            out,
            "pub(crate) const T{t}: Poseidon2Ct<{ty}, {t}, {rf}, {rp}, {d}> = Poseidon2Ct::from_constants(",
            t = s.t,
            ty = F::TYPE,
            rf = s.rounds_f,
            rp = s.rounds_p,
            d = s.d
        )
        .unwrap();
        writeln!(out, "    // external: R_F rounds of t constants, the R_F / 2 initial rounds then the R_F / 2 final").unwrap();
        writeln!(out, "    [").unwrap();
        for round in params.external_round_constants().chunks(s.t) {
            writeln!(out, "        [").unwrap();
            for &x in round {
                writeln!(out, "            {},", x.const_expr()).unwrap();
            }
            writeln!(out, "        ],").unwrap();
        }
        writeln!(out, "    ],").unwrap();
        for (name, table) in [
            (
                "internal: one constant per partial round",
                params.internal_round_constants(),
            ),
            ("diag_m1: mu_i - 1", params.internal_diagonal_minus_one()),
        ] {
            writeln!(out, "    // {name}").unwrap();
            writeln!(out, "    [").unwrap();
            for &x in table {
                writeln!(out, "        {},", x.const_expr()).unwrap();
            }
            writeln!(out, "    ],").unwrap();
        }
        writeln!(out, ");").unwrap();
    }
    out
}

/// One field's shipped instances, as the registry lists them.
struct FieldSpec {
    /// The field's name in docs ("BN254").
    name: &'static str,
    /// The module under `instances::` (and under `src/instances/tables/`).
    module: &'static str,
    /// The Cargo feature that gates the module.
    feature: &'static str,
    /// Prefix of the type aliases (`Bn254` gives `Bn254T3`).
    alias: &'static str,
    /// The element type as code outside the crate names it (testkit's instance list).
    type_path: &'static str,
    /// The `use` line that brings the element type into the generated table file, if any.
    import: Option<&'static str>,
    /// One line per shipped width.
    instances: &'static [Spec],
}

/// The registry: every shipped instance, one line each, and the single source of every
/// generated file. Adding a width is one line here, then `cargo run -p xtask -- gen-params`
/// rewrites the constant tables, the instance declarations and the instance list that tests,
/// benches and fuzz targets iterate (`testkit/src/registry.rs`).
const REGISTRY: [FieldSpec; 3] = [
    FieldSpec {
        name: "BN254",
        module: "bn254",
        feature: "bn254",
        alias: "Bn254",
        type_path: "ark_bn254::Fr",
        import: Some("use ark_bn254::Fr;"),
        instances: &[
            spec(2, 5, 56, None),
            spec(
                3,
                5,
                56,
                Some("poseidon2_instance_bn256.rs (POSEIDON2_BN256_PARAMS)"),
            ),
            spec(4, 5, 56, None),
            spec(8, 5, 57, None),
            spec(12, 5, 57, None),
        ],
    },
    FieldSpec {
        name: "BLS12-381",
        module: "bls12_381",
        feature: "bls12-381",
        alias: "Bls12381",
        type_path: "ark_bls12_381::Fr",
        import: Some("use ark_bls12_381::Fr;"),
        instances: &[
            spec(2, 5, 56, Some(BLS[0])),
            spec(3, 5, 56, Some(BLS[1])),
            spec(4, 5, 56, Some(BLS[2])),
            spec(8, 5, 57, Some(BLS[3])),
            spec(12, 5, 57, None),
        ],
    },
    FieldSpec {
        name: "Goldilocks",
        module: "goldilocks",
        feature: "goldilocks",
        alias: "Goldilocks",
        type_path: "fast_poseidon2::goldilocks::GoldilocksFast",
        import: None,
        instances: &[
            spec(8, 7, 22, Some(GOLDILOCKS[0])),
            spec(12, 7, 22, Some(GOLDILOCKS[1])),
            spec(16, 7, 22, Some(GOLDILOCKS[2])),
            spec(20, 7, 22, Some(GOLDILOCKS[3])),
        ],
    },
];

/// Every generated file: (path from the repository root, contents).
fn generated() -> Vec<(String, String)> {
    let [bn254, bls12_381, goldilocks] = &REGISTRY;
    let mut files = Vec::new();
    let mut lists = Vec::new();
    files.extend(field_files::<ark_bn254::Fr>(bn254, &mut lists));
    files.extend(field_files::<ark_bls12_381::Fr>(bls12_381, &mut lists));
    files.extend(field_files::<GoldilocksFast>(goldilocks, &mut lists));
    files.extend(poseidon1_files(&CIRCOM));
    files.extend(poseidon1_files(&STARK252));
    files.push((
        "testkit/src/registry.rs".into(),
        render_registry(&lists)
            + &render_poseidon1_registry(&CIRCOM)
            + &render_poseidon1_registry(&STARK252),
    ));
    files
}

/// One family of baked Poseidon1 instances: the table file, the generated region of its
/// instance module and its testkit list all come from it.
struct Poseidon1Family<F> {
    /// The family's name in docs ("circom BN254").
    name: &'static str,
    /// The module under `instances::` (and under `src/instances/tables/`).
    module: &'static str,
    /// The Cargo feature that gates the module.
    feature: &'static str,
    /// The instance module's declaration macro.
    declare: &'static str,
    /// Prefix of the type aliases (`Circom` gives `CircomT3`).
    alias: &'static str,
    /// testkit's list macro, and the doc comment above it.
    list: &'static str,
    list_doc: &'static str,
    /// The `use` line that brings the element type into the table file.
    import: &'static str,
    /// `(t, R_P)` per shipped width.
    widths: &'static [(usize, usize)],
    /// The reference parameters of width `t` with `R_P` partial rounds.
    params: fn(usize, usize) -> Poseidon1Params<F>,
    /// The doc lines above the table of width `t` with `R_P` partial rounds.
    provenance: fn(usize, usize) -> String,
}

/// The circom BN254 Poseidon1 instances (circomlib `poseidon_constants`, light-poseidon 0.5
/// `parameters::bn254_x5`): t = 2..=17, d = 5, R_F = 8, and R_P for t = 2..=17 in order
/// (circomlib's `N_ROUNDS_P`).
const CIRCOM: Poseidon1Family<ark_bn254::Fr> = Poseidon1Family {
    name: "circom BN254",
    module: "circom_bn254",
    feature: "bn254",
    declare: "declare_circom_instances",
    alias: "Circom",
    list: "for_each_circom_instance",
    list_doc: r#"
/// Invokes `$m!(name, t, R_P, ct_const, cached_runtime_expr)` once per shipped circom BN254
/// Poseidon1 instance (t = 2..=17, d = 5, R_F = 8): `ct_const` is the `const` permutation
/// (a path: take a reference, it is large), `cached_runtime_expr` the `&'static Poseidon1<Fr>`.
/// Generated from xtask's `CIRCOM` family.
#[macro_export]
"#,
    import: "use ark_bn254::Fr;",
    widths: &[
        (2, 56),
        (3, 57),
        (4, 56),
        (5, 60),
        (6, 60),
        (7, 63),
        (8, 64),
        (9, 63),
        (10, 60),
        (11, 66),
        (12, 60),
        (13, 65),
        (14, 70),
        (15, 60),
        (16, 64),
        (17, 68),
    ],
    params: |t, rp| {
        Poseidon1Params::generate(t, 5, 8, rp).unwrap_or_else(|e| panic!("circom t={t}: {e}"))
    },
    provenance: |t, rp| {
        format!(
            "/// circom BN254 t = {t} (R_F = 8, R_P = {rp}, d = 5): Grain tuple (n = 254, t = {t}, R_F = 8,\n\
             /// R_P = {rp}), hadeshash `sage generate_parameters_grain.sage 1 0 254 {t} 8 {rp} p`, then\n\
             /// `poseidon1::schedule::optimize`."
        )
    },
};

/// StarkWare's Poseidon over the Stark field (Starknet's `poseidon_hash` family, CryptoExperts'
/// widths): t = 3 (R_P = 83), 4, 5, 9 (R_P = 84), d = 3, R_F = 8, partial S-box on the last
/// element; parameters by `testkit::hades` (sha256 round constants, StarkWare's MDS matrices).
const STARK252: Poseidon1Family<Felt252> = Poseidon1Family {
    name: "Starknet",
    module: "stark252",
    feature: "stark252",
    declare: "declare_stark252_instances",
    alias: "Stark",
    list: "for_each_stark252_instance",
    list_doc: r#"
/// Invokes `$m!(name, t, R_P, ct_const, cached_runtime_expr)` once per shipped Starknet
/// (StarkWare) Poseidon instance over the Stark field (t = 3, 4, 5, 9, d = 3, R_F = 8):
/// `ct_const` is the `const` permutation (a path), `cached_runtime_expr` the
/// `&'static Poseidon1<Felt252>`. Generated from xtask's `STARK252` family.
#[macro_export]
"#,
    import: "use crate::stark252::Felt252;",
    widths: &[(3, 83), (4, 84), (5, 84), (9, 84)],
    params: testkit::hades::params,
    provenance: |t, rp| {
        format!(
            "/// Starknet t = {t} (R_F = 8, R_P = {rp}, d = 3): round constant i = sha256(\"Hades\" ‖ i) mod p,\n\
             /// StarkWare's MDS matrix, partial S-box on x_{{t-1}} (cairo-lang `poseidon_utils.py`;\n\
             /// `testkit::hades`), then `poseidon1::schedule::optimize`."
        )
    },
};

/// A family's table file and the generated region of its instance module.
fn poseidon1_files<F: ConstElement>(family: &Poseidon1Family<F>) -> [(String, String); 2] {
    let mut out = String::new();
    writeln!(
        out,
        "//! {} Poseidon1 tables (the optimized schedule, eprint 2019/458 appendix B).",
        family.name
    )
    .unwrap();
    out += "//! Generated by `cargo run -p xtask -- gen-params`; do not edit.\n";
    out += F::DOC;
    // rustfmt's order: `crate::` paths first, then the others alphabetically.
    let mut imports = [
        "use crate::poseidon1::ct::Poseidon1Ct;",
        family.import,
        F::IMPORT,
    ];
    imports.sort_unstable_by_key(|line| (!line.starts_with("use crate::"), *line));
    out += "\n";
    for line in imports {
        writeln!(out, "{line}").unwrap();
    }
    out += "\n";
    out += &F::constructor();
    let mut call = format!("{BEGIN}\n{}! {{\n    widths: [\n", family.declare);
    for &(t, rp) in family.widths {
        let params = (family.params)(t, rp);
        let (d, rf) = (params.sbox_degree(), params.rounds_f());
        let s = optimize(&params).unwrap_or_else(|e| panic!("{} t={t}: {e}", family.name));
        writeln!(out).unwrap();
        writeln!(out, "{}", (family.provenance)(t, rp)).unwrap();
        writeln!(out, "#[rustfmt::skip]").unwrap();
        writeln!(
            out,
            "pub(crate) const T{t}: Poseidon1Ct<{ty}, {t}, {rf}, {rp}, {d}> = Poseidon1Ct::from_schedule(",
            ty = F::TYPE
        )
        .unwrap();
        let rows = |out: &mut String, name: &str, table: &[F], width: usize| {
            writeln!(out, "    // {name}").unwrap();
            writeln!(out, "    [").unwrap();
            for row in table.chunks(width) {
                if width == 1 {
                    writeln!(out, "        {},", row[0].const_expr()).unwrap();
                    continue;
                }
                writeln!(out, "        [").unwrap();
                for &x in row {
                    writeln!(out, "            {},", x.const_expr()).unwrap();
                }
                writeln!(out, "        ],").unwrap();
            }
            writeln!(out, "    ],").unwrap();
        };
        rows(&mut out, "full: R_F rows", &s.full, t);
        rows(
            &mut out,
            "partial: one constant per partial round",
            &s.partial,
            1,
        );
        rows(
            &mut out,
            "sparse_rows: the S-box element's row of each sparse matrix",
            &s.sparse_rows,
            t,
        );
        rows(
            &mut out,
            "sparse_cols: the S-box element's column of each sparse matrix",
            &s.sparse_cols,
            t,
        );
        rows(&mut out, "pre_sparse", &s.pre_sparse, t);
        rows(&mut out, "mds", &s.mds, t);
        match s.partial_sbox {
            PartialSbox::First => writeln!(out, ");").unwrap(),
            PartialSbox::Last => writeln!(
                out,
                ")\n.with_partial_sbox(crate::poseidon1::PartialSbox::Last);"
            )
            .unwrap(),
        }
        writeln!(
            call,
            "        ({t}, {rp}, T{t}, t{t}, poseidon1_t{t}, {}T{t}),",
            family.alias
        )
        .unwrap();
    }
    call += "    ]\n}\n";
    let module = format!("src/instances/{}.rs", family.module);
    let current = std::fs::read_to_string(repository().join(&module)).unwrap_or_default();
    let (Some(begin), Some(end)) = (current.find(BEGIN), current.find(END)) else {
        panic!("{module} lacks the generated-region lines");
    };
    [
        (format!("src/instances/tables/{}.rs", family.module), out),
        (
            module,
            format!("{}{call}{}", &current[..begin], &current[end..]),
        ),
    ]
}

/// testkit's list macro of a family (e.g. `for_each_circom_instance!`).
fn render_poseidon1_registry<F>(family: &Poseidon1Family<F>) -> String {
    let mut out = String::from(family.list_doc);
    writeln!(out, "macro_rules! {} {{\n    ($m:ident) => {{", family.list).unwrap();
    let prefix = family.alias.to_lowercase();
    for &(t, rp) in family.widths {
        writeln!(
            out,
            "        #[cfg(feature = \"{feature}\")]\n        $m!(\n            {prefix}_t{t},\n            {t},\n            {rp},\n            fast_poseidon2::instances::{module}::ct::T{t},\n            fast_poseidon2::instances::{module}::poseidon1_t{t}()\n        );",
            feature = family.feature,
            module = family.module,
        )
        .unwrap();
    }
    out += "    };\n}\n";
    out
}

/// One field's table file and instance module (its generated region); pushes the field's arm
/// of testkit's instance list onto `lists`.
fn field_files<F: ConstElement>(
    field: &FieldSpec,
    lists: &mut Vec<String>,
) -> [(String, String); 2] {
    let digest = security_elements(F::MODULUS_BITS);
    let mut arm = format!(
        "    (@data {}, $($how:tt)*) => {{\n        $crate::for_each_instance!(@emit [$($how)*];\n",
        field.module
    );
    for s in field.instances {
        let group = merkle_arity(s.t, digest).map_or(0, |arity| arity * digest);
        writeln!(
            arm,
            "            (\"{feature}\", {module}, {module}_t{t}, {ty}, {t}, {rf}, {rp}, {d}, {digest}, {group}, t{t}, poseidon2_t{t}),",
            feature = field.feature,
            module = field.module,
            t = s.t,
            ty = field.type_path,
            rf = s.rounds_f,
            rp = s.rounds_p,
            d = s.d,
        )
        .unwrap();
    }
    arm += "        );\n    };\n";
    lists.push(arm);
    let module = format!("src/instances/{}.rs", field.module);
    let current = std::fs::read_to_string(repository().join(&module)).unwrap_or_default();
    [
        (
            format!("src/instances/tables/{}.rs", field.module),
            render::<F>(field.name, field.import, field.instances),
        ),
        (module, with_declaration::<F>(&current, field)),
    ]
}

/// The generated region of an instance module (between these lines, both kept).
const BEGIN: &str =
    "// BEGIN generated by `cargo run -p xtask -- gen-params` from xtask's registry; do not edit.";
const END: &str = "// END generated.";

/// `current` (an instance module) with the text between [`BEGIN`] and [`END`] replaced by the
/// field's `declare_instances!` call.
fn with_declaration<F: ConstElement>(current: &str, field: &FieldSpec) -> String {
    let (Some(begin), Some(end)) = (current.find(BEGIN), current.find(END)) else {
        panic!(
            "src/instances/{}.rs lacks the generated-region lines",
            field.module
        );
    };
    let (d, rounds_f) = (field.instances[0].d, field.instances[0].rounds_f);
    let mut call = format!(
        "{BEGIN}\nsuper::declare_instances! {{\n    field_name: \"{name}\",\n    field: {ty},\n    d: {d},\n    rounds_f: {rounds_f},\n    tables: crate::instances::tables::{module},\n    widths: [\n",
        name = field.name,
        ty = F::FIELD_PATH,
        module = field.module,
    );
    for s in field.instances {
        assert_eq!((s.d, s.rounds_f), (d, rounds_f), "one d and R_F per field");
        writeln!(
            call,
            "        ({t}, {rp}, T{t}, t{t}, poseidon2_t{t}, {alias}T{t}),",
            t = s.t,
            rp = s.rounds_p,
            alias = field.alias
        )
        .unwrap();
    }
    call += "    ]\n}\n";
    format!("{}{call}{}", &current[..begin], &current[end..])
}

/// testkit's `for_each_instance!`, from every field's arm.
fn render_registry(arms: &[String]) -> String {
    let modules: Vec<&str> = REGISTRY.iter().map(|f| f.module).collect();
    let all = |form: &str| -> String {
        modules
            .iter()
            .map(|m| format!("        $crate::for_each_instance!({form}{m});\n"))
            .collect()
    };
    format!(
        "{REGISTRY_DOC}macro_rules! for_each_instance {{
    ($m:ident) => {{
{short}    }};
    (@spec $m:ident) => {{
{spec}    }};
    ($m:ident, $module:ident) => {{
        $crate::for_each_instance!(@data $module, @short $m);
    }};
    (@spec $m:ident, $module:ident) => {{
        $crate::for_each_instance!(@data $module, @spec $m);
    }};
    (@with $extra:tt $m:ident) => {{
{with}    }};
{arms}{REGISTRY_EMIT}}}
",
        short = all("$m, "),
        spec = all("@spec $m, "),
        with = modules
            .iter()
            .map(|m| format!("        $crate::for_each_instance!(@data {m}, @with $extra $m);\n"))
            .collect::<String>(),
        arms = arms.concat(),
    )
}

const REGISTRY_DOC: &str = r#"//! The shipped instances. Generated by `cargo run -p xtask -- gen-params` from xtask's registry
//! (the one list of instances: adding one is one line there); do not edit.

/// Invokes `$m!(name, t, digest, group, ct_constructor_expr, cached_flexible_expr)` once per
/// shipped instance: `digest` is the field's digest length `D` (1 on BN254 and BLS12-381, 4 on
/// Goldilocks), `group` the Merkle compression's input length `merkle_arity · D`.
///
/// `for_each_instance!(@spec $m)` invokes `$m!(feature, module, name, Field, t, R_F, R_P, d,
/// digest, group, ct_fn, getter)` instead, for callers that need the shape or the element type
/// (`Field`: the type both `ct::tN()` and `poseidon2_tN()` run on). `for_each_instance!($m,
/// bn254)` and `for_each_instance!(@spec $m, bn254)` restrict either form to one module.
/// `for_each_instance!(@with [tokens] $m)` passes `[tokens]` first to each short-form call, for
/// callers that need their own values inside the callback (the fuzz crate's `with_instance!`).
///
/// The one list of instances that tests, benches and fuzz targets iterate. Each line is gated on
/// the instance's crate feature, evaluated in the calling crate.
#[macro_export]
"#;

const REGISTRY_EMIT: &str = r#"    (@emit [@short $m:ident]; $(($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident)),* $(,)?) => {
        $(
            #[cfg(feature = $feature)]
            $m!(
                $name,
                $t,
                $digest,
                $group,
                fast_poseidon2::instances::$module::ct::$ct(),
                fast_poseidon2::instances::$module::$getter()
            );
        )*
    };
    (@emit [@with $extra:tt $m:ident]; $(($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident)),* $(,)?) => {
        $(
            #[cfg(feature = $feature)]
            $m!(
                $extra
                $name,
                $t,
                $digest,
                $group,
                fast_poseidon2::instances::$module::ct::$ct(),
                fast_poseidon2::instances::$module::$getter()
            );
        )*
    };
    (@emit [@spec $m:ident]; $(($feature:literal, $module:ident, $name:ident, $field:ty, $t:literal, $rf:literal, $rp:literal, $d:literal, $digest:literal, $group:literal, $ct:ident, $getter:ident)),* $(,)?) => {
        $(
            #[cfg(feature = $feature)]
            $m!($feature, $module, $name, $field, $t, $rf, $rp, $d, $digest, $group, $ct, $getter);
        )*
    };
"#;

/// The repository root.
fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The reference's BLS12-381 parameter sets, t = 2, 3, 4, 8.
const BLS: [&str; 4] = [
    "poseidon2_instance_bls12.rs (POSEIDON2_BLS_2_PARAMS)",
    "poseidon2_instance_bls12.rs (POSEIDON2_BLS_3_PARAMS)",
    "poseidon2_instance_bls12.rs (POSEIDON2_BLS_4_PARAMS)",
    "poseidon2_instance_bls12.rs (POSEIDON2_BLS_8_PARAMS)",
];

/// The reference's Goldilocks parameter sets, t = 8, 12, 16, 20.
const GOLDILOCKS: [&str; 4] = [
    "poseidon2_instance_goldilocks.rs (POSEIDON2_GOLDILOCKS_8_PARAMS)",
    "poseidon2_instance_goldilocks.rs (POSEIDON2_GOLDILOCKS_12_PARAMS)",
    "poseidon2_instance_goldilocks.rs (POSEIDON2_GOLDILOCKS_16_PARAMS)",
    "poseidon2_instance_goldilocks.rs (POSEIDON2_GOLDILOCKS_20_PARAMS)",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) != Some("gen-params") {
        eprintln!("usage: cargo run -p xtask -- gen-params [--check]");
        return ExitCode::from(2);
    }
    let check = args.iter().any(|a| a == "--check");
    let mut drift = false;
    for (file, text) in generated() {
        let path = repository().join(&file);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        drift = true;
        if check {
            eprintln!("drift: {file} differs from the generator's output");
        } else {
            std::fs::write(&path, text).expect("write generated file");
            eprintln!("wrote {file}");
        }
    }
    if check && drift {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
