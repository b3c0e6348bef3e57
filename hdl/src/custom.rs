//! Any configuration of a core, not only its registered builds (`netmeas generate <core> --set name=value`).
//!
//! A core's RTL is generic over its widths and depths (const generics), so a configuration nobody registered
//! needs a compile: each core's build macro (`fridge_core!`, `finecomb_core!`, `hh_core!`, `reorder_core!`,
//! `ifpd_core!`, `maple_core!`, exported by this crate) is invoked with the asked-for values in a small
//! generator crate that depends on this one, and [`generator_main`] prints the IP's files. This module is the
//! part that needs no compiler: a core's generation parameters ([`CoreParams`]: their names, meanings and
//! defaults — the core's default build), applying `name=value` settings to them, checking them (the golden
//! configuration's own bounds and what the RTL needs on top, naming the parameter and the allowed range:
//! nothing is compiled or written for a bad request), and the generator crate's two files. Running cargo is
//! the CLI's (`sim/src/generate.rs`).

use crate::ip::{self, Bus};
use crate::registry::{self, Build};
use serde::de::DeserializeOwned;
use serde::Serialize;
use golden::common::digest::fnv1a;
use serde_json::{json, Map, Value};

/// The generation parameters of a core: a flat record, one field per independent parameter of its build
/// macro (the derived widths are computed by the macro, as for the registered builds).
pub trait CoreParams: Serialize + DeserializeOwned + Sized {
    /// The configuration type of the core's builds (the parameters of their manifests).
    type Config: DeserializeOwned;
    /// Each parameter (field name) and what it means, with its allowed values.
    const DOCS: &'static [(&'static str, &'static str)];
    /// The parameters of a build's configuration (the defaults are the core's default build's).
    fn of(config: &Self::Config) -> Result<Self, String>;
    /// The golden configuration's check and what the RTL needs on top; the error names the parameter and
    /// its allowed range.
    fn check(&self) -> Result<(), String>;
    /// The Rust expression, in a crate that depends on `hdl`, whose value is the [`Build`] called `name`.
    fn source(&self, name: &str) -> String;
}

/// The [`CoreParams`] items of a core whose parameters are its configuration type `$config` itself (its
/// fields are the build macro's parameters): `type Config`, `of` (the identity) and `check` (golden's).
#[macro_export]
macro_rules! params_are_the_config {
    ($config:ty) => {
        type Config = $config;
        fn of(config: &$config) -> Result<Self, String> {
            Ok(config.clone())
        }
        fn check(&self) -> Result<(), String> {
            <$config>::check(self).map_err(|e| e.to_string())
        }
    };
}

/// A core's [`CoreParams`], type-erased for the registry ([`registry::Core::custom`]).
#[derive(Clone, Copy)]
pub struct Custom {
    pub docs: &'static [(&'static str, &'static str)],
    defaults: fn(&Build) -> Result<Map<String, Value>, String>,
    parse: fn(&Map<String, Value>) -> Result<(), String>,
    source: fn(&Map<String, Value>, &str) -> Result<String, String>,
}

impl Custom {
    /// The type-erased parameters `P`.
    pub const fn of<P: CoreParams>() -> Custom {
        Custom { docs: P::DOCS, defaults: defaults::<P>, parse: types::<P>, source: source::<P> }
    }
}

fn defaults<P: CoreParams>(base: &Build) -> Result<Map<String, Value>, String> {
    let params = Value::Object(base.params.clone().into_iter().collect());
    let cfg: P::Config = serde_json::from_value(params).map_err(|e| format!("{}: {e}", base.name))?;
    match serde_json::to_value(P::of(&cfg)?) {
        Ok(Value::Object(m)) => Ok(m),
        _ => Err(format!("{}: the generation parameters are not a record", base.name)),
    }
}

fn parse<P: CoreParams>(params: &Map<String, Value>) -> Result<P, String> {
    serde_json::from_value(Value::Object(params.clone())).map_err(|e| e.to_string())
}

fn types<P: CoreParams>(params: &Map<String, Value>) -> Result<(), String> {
    parse::<P>(params).map(|_| ())
}

fn source<P: CoreParams>(params: &Map<String, Value>, name: &str) -> Result<String, String> {
    let p: P = parse(params)?;
    p.check()?;
    Ok(p.source(name))
}

/// A configuration asked for, resolved and checked: what the generator crate builds.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub core: String,
    /// The top module's name (`--name`, or `<core>_<hash of the parameters>`).
    pub name: String,
    /// Every parameter, the settings applied.
    pub params: Map<String, Value>,
    /// The Rust expression of the build ([`CoreParams::source`]).
    pub source: String,
}

/// The parameters of `core` — its default build's — with their meanings: `(name, default, meaning)`.
pub fn parameters(core: &str) -> Result<Vec<(String, Value, &'static str)>, String> {
    let (custom, defaults) = base(core)?;
    Ok(custom.docs.iter().map(|(n, d)| (n.to_string(), defaults.get(*n).cloned().unwrap_or(Value::Null), *d)).collect())
}

fn base(core: &str) -> Result<(&'static Custom, Map<String, Value>), String> {
    let c = registry::core(core)?;
    let custom = c.custom.as_ref().ok_or_else(|| {
        let with: Vec<&str> = registry::CORES.iter().filter(|c| c.custom.is_some()).map(|c| c.name).collect();
        format!("core {core} has no generation parameters; the cores that have: {}", with.join(", "))
    })?;
    let b = ip::find_build(core, None)?;
    Ok((custom, (custom.defaults)(&b)?))
}

/// `core`'s default parameters with `settings` (`name=value`; a value is JSON — a number, `true`, `[9, 8]` —
/// or a bare word such as `Dual`; `9,8` is the list `[9, 8]`) applied, checked, and named `name` (default
/// `<core>_<8 hex digits of the parameters' hash>`).
pub fn resolve(core: &str, settings: &[String], name: Option<&str>) -> Result<Resolved, String> {
    let (custom, mut params) = base(core)?;
    for s in settings {
        let (k, v) = s.split_once('=').ok_or_else(|| format!("`{s}`: a setting is name=value"))?;
        let (k, v) = (k.trim().replace('-', "_"), v.trim());
        let Some(old) = params.get(&k) else {
            let names: Vec<&str> = custom.docs.iter().map(|(n, _)| *n).collect();
            return Err(format!("core {core} has no parameter `{k}`; its parameters: {}", names.join(", ")));
        };
        params.insert(k.clone(), parse_value(v, old));
        (custom.parse)(&params).map_err(|e| format!("parameter {k} = {v}: {e}"))?;
    }
    let digest = fnv1a(&[&serde_json::to_string(&params).unwrap_or_default()]);
    let name = match name {
        Some(n) => check_name(n)?,
        None => format!("{core}_{:08x}", digest as u32),
    };
    let source = (custom.source)(&params, &name)?;
    Ok(Resolved { core: core.to_string(), name, params, source })
}

/// `v` as JSON, or a list of JSON items when the default is a list and `v` has commas, or a string.
fn parse_value(v: &str, old: &Value) -> Value {
    if let Ok(j) = serde_json::from_str::<Value>(v) {
        if !(old.is_array() && !j.is_array()) {
            return j;
        }
    }
    if old.is_array() {
        let items: Option<Vec<Value>> =
            v.trim_matches(|c| c == '[' || c == ']').split(',').map(|x| serde_json::from_str(x.trim()).ok()).collect();
        if let Some(items) = items {
            return Value::Array(items);
        }
    }
    Value::String(v.to_string())
}

/// A Verilog/Rust identifier of at most 64 characters.
fn check_name(n: &str) -> Result<String, String> {
    let ok = n.len() <= 64
        && n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    // (System)Verilog keywords a module name could collide with.
    const KEYWORDS: &[&str] = &[
        "always", "and", "assign", "begin", "buf", "case", "default", "else", "end", "endcase", "endmodule",
        "for", "function", "if", "initial", "inout", "input", "integer", "logic", "module", "nand", "nor", "not",
        "or", "output", "parameter", "reg", "task", "wire", "xor", "bit", "byte", "int", "class", "interface",
    ];
    match ok && !KEYWORDS.contains(&n) {
        true => Ok(n.to_string()),
        false => Err(format!(
            "--name `{n}`: a module name is a letter, then letters, digits and _ (≤ 64), not a Verilog keyword"
        )),
    }
}

/// [`CoreParams::source`] of a core whose module `hdl::<module>::builds` has `build(name, cfg, make)`:
/// `invocation` (its build macro with the values) gives `(cfg, make)`.
pub fn build_source(module: &str, invocation: &str, name: &str) -> String {
    let build = format!("hdl::{module}::builds::build({name:?}, &cfg, make)");
    format!("{{\n        let (cfg, make) = hdl::{invocation};\n        {build}\n    }}")
}

impl Resolved {
    /// The generator crate: `(package name, Cargo.toml, src/main.rs)`. It depends on `hdl` at `hdl_dir` (this
    /// crate's directory), with the profile settings of the workspace's `hdl` (not optimised: it only emits
    /// Verilog). The package name carries a digest of the configuration and `hdl_dir`, so two configurations
    /// of one `--name` never share a generator.
    pub fn generator_crate(&self, hdl_dir: &std::path::Path) -> (String, String, String) {
        let params = serde_json::to_string(&self.params).unwrap_or_default();
        let digest = fnv1a(&[&self.source, &params, &hdl_dir.display().to_string()]);
        let package = format!("netmeas-ipgen-{}-{:08x}", self.name.replace('_', "-"), digest as u32);
        let toml = format!(
            "# Generated by netmeas generate for {name}; do not edit.\n[package]\nname = \"{package}\"\n\
             version = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nhdl = {{ path = {dir:?} }}\n\n\
             [profile.dev]\ndebug = false\n\n[workspace]\n",
            name = self.name,
            dir = hdl_dir.display().to_string(),
        );
        let main = format!(
            "// Generated by netmeas generate; do not edit.\n// {core} {params}\nfn main() {{\n    \
             let build = {source};\n    std::process::exit(hdl::custom::generator_main(build));\n}}\n",
            core = self.core,
            source = self.source,
        );
        (package, toml, main)
    }
}

/// The generator crate's `main`: the IP of `build` on stdout as JSON (`{"files": [[name, text], …],
/// "summary": text}`); arguments: the bus (`axi`, default, or `native`) and `no-initial`. Returns the exit
/// code (an error is printed on stderr).
pub fn generator_main(build: Build) -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bus = if args.iter().any(|a| a == "native") { Bus::Native } else { Bus::Axi };
    let initial = !args.iter().any(|a| a == "no-initial");
    match ip::generate(&build, bus, initial) {
        Ok(ip) => {
            println!("{}", json!({ "files": ip.files(), "summary": ip.summary() }));
            0
        }
        Err(e) => {
            eprintln!("{e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every core's documented parameters are exactly its parameter record's fields.
    #[test]
    fn documented_parameters_are_the_fields() {
        for c in registry::CORES.iter().filter(|c| c.custom.is_some()) {
            let (custom, defaults) = base(c.name).unwrap();
            let documented: Vec<&str> = custom.docs.iter().map(|(n, _)| *n).collect();
            let fields: Vec<&str> = defaults.keys().map(String::as_str).collect();
            let mut sorted = documented.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, fields, "{}", c.name);
            assert!(resolve(c.name, &[], None).is_ok(), "{}: the defaults do not check", c.name);
        }
    }

    #[test]
    fn values_parse_as_json_lists_or_words() {
        assert_eq!(parse_value("13", &json!(1)), json!(13));
        assert_eq!(parse_value("13,12", &json!([10])), json!([13, 12]));
        assert_eq!(parse_value("[13, 12]", &json!([10])), json!([13, 12]));
        assert_eq!(parse_value("13", &json!([10])), json!([13]));
        assert_eq!(parse_value("Dual", &json!("Single")), json!("Dual"));
        assert_eq!(parse_value("true", &json!(false)), json!(true));
    }

    #[test]
    fn names_are_identifiers_and_default_to_a_digest() {
        assert!(check_name("my_fridge2").is_ok());
        for bad in ["", "2x", "a-b", "a b", &"x".repeat(65), "module", "wire"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        let a = resolve("fridge", &["ts_bits=24".into()], None).unwrap();
        let b = resolve("fridge", &["ts_bits=24".into()], None).unwrap();
        let c = resolve("fridge", &["ts_bits=25".into()], None).unwrap();
        assert!(a.name.starts_with("fridge_") && a.name == b.name && a.name != c.name);
        assert!(a.source.contains("fridge_core!(addr_bits: [10], sig_bits: 32, ts_bits: 24,"), "{}", a.source);
    }
}
