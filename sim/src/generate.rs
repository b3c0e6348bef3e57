//! `netmeas generate <core>`: one configuration of a core as IP for someone else's design (`hdl::ip`):
//! the Verilog, its manifest, the register map as Markdown, C header and SystemRDL, a FuseSoC core file.
//!
//! A registered build (`--build`) is generated in process. Any other configuration (`--set name=value`) is
//! checked first (`hdl::custom`: a bad one is an error naming the parameter and its range, nothing is
//! compiled or written), then built by a small generator crate that invokes the core's build macro with the
//! values — compiled once per configuration under the cache directory (`NETMEAS_CACHE`, default
//! `target/netmeas-cache` of this source tree; the first compile of all takes about a minute, a new
//! configuration some seconds) against this tree's `hdl` and `Cargo.lock`, offline.

use hdl::custom::{self, Resolved};
use hdl::ip::{self, Bus};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Which configuration of which core: a registered build, or any (`--set`). Shared by `generate` and
/// `verify`.
#[derive(clap::Args, Debug, Clone)]
pub struct Which {
    /// The core (fridge, finecomb, heavy_hitters, reordering, ifpd, maple; `--list` shows every build).
    pub core: String,
    /// The build (configuration) of the core; default: its first (`--list` shows them with their
    /// parameters).
    #[arg(long, conflicts_with_all = ["set", "name"])]
    pub build: Option<String>,
    /// Any configuration: a generation parameter of the core (`--params` lists them with their defaults — the
    /// default build's — and ranges), repeatable, e.g. `--set addr_bits=13,12,11,11 --set ts_bits=24`.
    #[arg(long, value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// The top module's name for `--set` (default: `<core>_<8 hex digits of the parameters' hash>`).
    #[arg(long)]
    pub name: Option<String>,
}

impl Which {
    /// The IP's files and summary (a bad request is an error before anything is compiled or written).
    pub fn files(&self, bus: Bus, initial: bool) -> Result<(Vec<(String, String)>, String), String> {
        if self.set.is_empty() && self.name.is_none() {
            let build = ip::find_build(&self.core, self.build.as_deref())?;
            let ip = ip::generate(&build, bus, initial)?;
            Ok((ip.files(), ip.summary()))
        } else {
            let r = custom::resolve(&self.core, &self.set, self.name.as_deref())?;
            generate_custom(&r, bus, initial)
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub which: Which,
    /// axi: AXI4-Lite registers (s_axil_*) and AXI4-Stream descriptors and reports (s_axis_*, m_axis_*), the
    /// conventions of verilog-ethernet/corundum; native: the core's own ports (valid/ready, 8-bit CSR port).
    #[arg(long, default_value = "axi", value_parser = ["axi", "native"])]
    pub bus: String,
    /// Output directory (created if missing; files of the same names are replaced).
    #[arg(long, default_value = "out/ip")]
    pub out: PathBuf,
    /// Without `initial` values (the flavour the co-simulation models are built from).
    #[arg(long)]
    pub no_initial: bool,
    /// Write only the register map (`<build>.regs.md`, `<build>_regs.h`, `<build>.rdl`): e.g. for the
    /// software side.
    #[arg(long, conflicts_with = "json")]
    pub regs_only: bool,
    /// List the core's builds with their parameters; write nothing.
    #[arg(long)]
    pub list: bool,
    /// List the core's generation parameters (for `--set`) with their defaults and ranges; write nothing.
    #[arg(long)]
    pub params: bool,
    /// Print the manifest (JSON) on stdout instead of the summary.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &GenerateArgs) -> Result<(), String> {
    let core = &a.which.core;
    if a.list {
        for b in ip::builds(core)? {
            let params = serde_json::to_string(&b.params).unwrap_or_default();
            println!("{:<16} {}\n{:<16} {params}", b.name, b.description, "");
        }
        return Ok(());
    }
    if a.params {
        let params = custom::parameters(core)?;
        if a.json {
            let rows = params.iter().map(|(n, d, m)| serde_json::json!({"name": n, "default": d, "meaning": m}));
            println!("{}", serde_json::Value::Array(rows.collect()));
        } else {
            for (n, d, m) in params {
                println!("{n:<22} {:<12} {m}", d.to_string());
            }
        }
        return Ok(());
    }
    let bus = if a.bus == "native" { Bus::Native } else { Bus::Axi };
    // Everything is generated before anything is written: a bad request writes nothing.
    let (mut files, summary) = a.which.files(bus, !a.no_initial)?;
    if a.regs_only {
        files.retain(|(n, _)| n.ends_with(".regs.md") || n.ends_with("_regs.h") || n.ends_with(".rdl"));
        if files.is_empty() {
            return Err(format!("{core}: this configuration has no register map"));
        }
    }
    let paths = ip::Ip::write(&a.out, &files)?;
    if a.json {
        let (_, manifest) = files.iter().find(|(n, _)| n.ends_with(".json")).ok_or("no manifest generated")?;
        print!("{manifest}");
        return Ok(());
    }
    if !a.regs_only {
        print!("{summary}");
    }
    for f in &paths {
        println!("wrote {}", f.display());
    }
    Ok(())
}

/// This source tree (the generator crates depend on its `hdl` and use its `Cargo.lock`).
fn source_tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// The cache of generator crates and their build directory.
pub fn cache_dir() -> PathBuf {
    std::env::var_os("NETMEAS_CACHE").map_or_else(|| source_tree().join("target/netmeas-cache"), PathBuf::from)
}

/// Compiles (or finds compiled) the generator crate of `r` and runs it: the IP's files and summary.
fn generate_custom(r: &Resolved, bus: Bus, initial: bool) -> Result<(Vec<(String, String)>, String), String> {
    let tree = source_tree();
    let hdl = tree.join("hdl");
    if !hdl.join("Cargo.toml").exists() {
        return Err(format!(
            "--set needs the netmeas source tree this binary was built from (its hdl crate at {}); a registered \
             build (--build) does not",
            hdl.display()
        ));
    }
    let (package, toml, main) = r.generator_crate(&hdl);
    let cache = cache_dir();
    let dir = cache.join("ipgen").join(&package);
    std::fs::create_dir_all(dir.join("src")).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // Written only when different (cargo then rebuilds nothing), atomically (a parallel run of the same
    // configuration reads a whole file).
    let write = |p: &Path, t: &str| -> Result<(), String> {
        if std::fs::read_to_string(p).is_ok_and(|old| old == t) {
            return Ok(());
        }
        let tmp = p.with_extension(format!("tmp-{}", std::process::id()));
        let done = std::fs::write(&tmp, t).and_then(|_| std::fs::rename(&tmp, p));
        done.map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    write(&dir.join("Cargo.toml"), &toml)?;
    write(&dir.join("src/main.rs"), &main)?;
    if let Ok(lock) = std::fs::read_to_string(tree.join("Cargo.lock")) {
        write(&dir.join("Cargo.lock"), &lock)?;
    }
    let target = cache.join("ipgen-target");
    eprintln!("netmeas generate: building the generator of {} (cargo: ~1 min the first time, then seconds)", r.name);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .map_err(|e| format!("cannot run cargo (needed for --set): {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(40).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!("the generator of {} did not compile ({}):\n{}", r.name, dir.display(), tail.join("\n")));
    }
    let bin = target.join("debug").join(&package);
    let mut cmd = Command::new(&bin);
    cmd.arg(bus.name());
    if !initial {
        cmd.arg("no-initial");
    }
    let out = cmd.output().map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!("{}: {}", r.name, String::from_utf8_lossy(&out.stderr).trim()));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("{}: {e}", bin.display()))?;
    let files = serde_json::from_value(v["files"].clone()).map_err(|e| format!("{}: {e}", bin.display()))?;
    Ok((files, v["summary"].as_str().unwrap_or_default().to_string()))
}
