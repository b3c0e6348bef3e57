//! A model Verilated at run time (`netmeas verify`): any Verilog top, Verilated with the flags of the
//! build-time models ([`shim::VERILATOR_FLAGS`]), its C++ and the same shim (`build/shim.rs`) compiled into
//! a shared object and loaded with `libloading` — a configuration nobody registered needs no rebuild of
//! netmeas. [`DynTop`] offers the port methods of every core's runner (`set_in_valid`, `rep_data`, …) by
//! name, so a core runner drives a run-time model exactly as it drives its build-time ones: one harness for
//! both.
//!
//! Build: `verilator` (or `$VERILATOR`) → `V<top>*.cpp`, compiled as the build script does (the per-cycle
//! code at -O2, the slow and trace code at -O0), with the Verilator runtime (compiled once per Verilator
//! and switch set, cached) into `lib<top>.so`. Cache: `<cache>/<top>-<digest of Verilator, flags, compiler
//! and Verilog>/`, a stamp written last; a hit only loads.

use crate::shim;
use golden::common::digest::fnv1a as digest;
use std::path::{Path, PathBuf};
use std::process::Command;

mod dyn_top;
mod load;
pub use dyn_top::DynTop;
pub use load::{DynLib, DynModel};

/// Bump when the compiled shared object changes in a way the digest does not see (the shim's source and
/// the compile flags are part of the digest).
const CACHE_VERSION: &str = "netmeas-runtime-model-1";

/// C++ flags of every unit (with `-O0`/`-O2` per unit); part of the cache digest.
const CXX_FLAGS: &[&str] = &["-c", "-fPIC", "-std=c++17", "-faligned-new", "-w", "-DVM_SC=0"];

/// How a model was obtained: its shared object and the seconds spent (0 on a cache hit).
#[derive(Debug, Clone)]
pub struct Built {
    pub lib: PathBuf,
    pub top: String,
    pub cached: bool,
    pub verilate_seconds: f64,
    pub compile_seconds: f64,
}

fn run(cmd: &mut Command, what: &str) -> Result<String, String> {
    match cmd.output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let tail: Vec<&str> = err.lines().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect();
            Err(format!("{what} failed ({}):\n{}", o.status, tail.join("\n")))
        }
        Err(e) => Err(format!("{what}: cannot run: {e}")),
    }
}

/// The C++ compiler: `$CXX` or `c++`.
fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "c++".into())
}

/// Verilates `verilog` (top module `top`) and compiles it into a shared object under `cache` (or finds it
/// there). Needs Verilator and a C++ compiler on PATH.
pub fn build(top: &str, verilog: &str, cache: &Path) -> Result<Built, String> {
    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    let version = run(Command::new(&verilator).arg("--version"), &format!("{verilator} --version"))
        .map_err(|e| format!("{e}\nnetmeas verify needs Verilator on PATH: apt-get install -y verilator"))?;
    let root = run(Command::new(&verilator).args(["--getenv", "VERILATOR_ROOT"]), "verilator --getenv")?;
    let include = Path::new(root.trim()).join("include");
    let compiler = run(Command::new(cxx()).arg("--version"), &format!("{} --version", cxx()))
        .map_err(|e| format!("{e}\nnetmeas verify needs a C++ compiler: apt-get install -y g++"))?;
    let base = format!(
        "{CACHE_VERSION}|{}|{}|{:?}|{}|{CXX_FLAGS:?}|{:016x}",
        version.trim(),
        root.trim(),
        shim::VERILATOR_FLAGS,
        compiler,
        digest(&[include_str!("../../build/shim.rs")])
    );
    let dir = cache.join(format!("{top}-{:016x}", digest(&[&base, top, verilog])));
    let lib = dir.join(format!("lib{top}.so"));
    let stamp = dir.join("netmeas.stamp");
    // One build of an entry at a time (parallel runs of the same configuration wait, then hit).
    let _lock = lock(&dir)?;
    if lib.is_file() && stamp.is_file() {
        return Ok(Built { lib, top: top.into(), cached: true, verilate_seconds: 0.0, compile_seconds: 0.0 });
    }
    // Built in a directory of this process's own, then renamed into place: concurrent builds of the same
    // configuration (parallel tests) do not trample each other, and a half-built entry is never a hit.
    let tmp = scratch(&dir)?;
    let built = build_in(top, verilog, &tmp, cache, &verilator, &base, &include);
    let (verilate_seconds, compile_seconds) = match built {
        Ok(t) => t,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    publish(&tmp, &dir)?;
    Ok(Built { lib, top: top.into(), cached: false, verilate_seconds, compile_seconds })
}

/// An exclusive lock on `<dir>.lock` (held until the returned file is dropped).
pub fn lock(dir: &Path) -> Result<std::fs::File, String> {
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let path = dir.with_extension("lock");
    let f = std::fs::File::create(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    f.lock().map_err(|e| format!("cannot lock {}: {e}", path.display()))?;
    Ok(f)
}

/// A fresh scratch directory beside `dir`, unique to this process and call.
fn scratch(dir: &Path) -> Result<PathBuf, String> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.with_extension(format!("tmp-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    Ok(tmp)
}

/// Renames the finished `tmp` to `dir`; if another process got there first, keeps its entry.
fn publish(tmp: &Path, dir: &Path) -> Result<(), String> {
    if !dir.join("netmeas.stamp").is_file() {
        let _ = std::fs::remove_dir_all(dir); // an unfinished entry of an interrupted older build
    }
    match std::fs::rename(tmp, dir) {
        Ok(()) => Ok(()),
        Err(_) if dir.join("netmeas.stamp").is_file() => {
            let _ = std::fs::remove_dir_all(tmp);
            Ok(())
        }
        Err(e) => Err(format!("cannot move {} to {}: {e}", tmp.display(), dir.display())),
    }
}

/// Verilates and compiles `top` in `dir` (its shared object `lib<top>.so`, the stamp last); returns the
/// seconds Verilating and compiling took.
fn build_in(
    top: &str,
    verilog: &str,
    dir: &Path,
    cache: &Path,
    verilator: &str,
    base: &str,
    include: &Path,
) -> Result<(f64, f64), String> {
    let obj = dir.join("obj");
    std::fs::create_dir_all(&obj).map_err(|e| format!("cannot create {}: {e}", obj.display()))?;
    let v = dir.join(format!("{top}.v"));
    std::fs::write(&v, verilog).map_err(|e| format!("cannot write {}: {e}", v.display()))?;
    let t0 = std::time::Instant::now();
    run(
        Command::new(verilator)
            .args(shim::VERILATOR_FLAGS)
            .args(["--top-module", top, "--prefix", &format!("V{top}")])
            .arg("-Mdir")
            .arg(&obj)
            .arg(&v),
        &format!("verilator on {top}"),
    )?;
    let verilate_seconds = t0.elapsed().as_secs_f64();
    let read = |p: PathBuf| std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let ports = shim::parse_ports(&read(obj.join(format!("V{top}.h")))?);
    let (globals, switches) = shim::parse_classes_mk(&read(obj.join(format!("V{top}_classes.mk")))?);
    let write = |p: &Path, t: &str| std::fs::write(p, t).map_err(|e| format!("cannot write {}: {e}", p.display()));
    write(&obj.join(format!("nm_shim_{top}.cpp")), &shim::shim_cpp(top, &ports))?;
    write(&obj.join("nm_common.cpp"), "#include <mutex>\nstd::mutex nm_construct_mutex;\n")?;
    let t1 = std::time::Instant::now();
    let runtime = runtime_objects(cache, base, include, &globals, &switches)?;
    // The model's units: per-cycle code and the shim at -O2, slow (construction) and trace code at -O0.
    let mut units: Vec<(PathBuf, u32)> = std::fs::read_dir(&obj)
        .map_err(|e| format!("cannot list {}: {e}", obj.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .map(|p| {
            let n = p.file_name().unwrap_or_default().to_string_lossy().to_string();
            let slow = n.contains("__Slow") || n.contains("__Trace");
            (p, if slow { 0 } else { 2 })
        })
        .collect();
    units.sort();
    let mut objects = compile_all(&units, include, &obj, &switches)?;
    objects.extend(runtime);
    let lib = dir.join(format!("lib{top}.so"));
    let mut link = Command::new(cxx());
    link.args(["-shared", "-o"]).arg(&lib).args(&objects).arg("-lpthread");
    run(&mut link, &format!("linking {}", lib.display()))?;
    write(&dir.join("netmeas.stamp"), base)?;
    Ok((verilate_seconds, t1.elapsed().as_secs_f64()))
}

/// Compiles `units` (file, -O level) into objects beside them, on two threads.
fn compile_all(
    units: &[(PathBuf, u32)],
    include: &Path,
    out: &Path,
    switches: &[(String, String)],
) -> Result<Vec<PathBuf>, String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some((src, opt)) = units.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) else {
                    break;
                };
                let o = out.join(src.file_name().unwrap_or_default()).with_extension("o");
                let mut c = Command::new(cxx());
                c.args(CXX_FLAGS)
                    .arg(format!("-O{opt}"))
                    .arg(format!("-I{}", include.display()))
                    .arg(format!("-I{}", include.join("vltstd").display()))
                    .arg(format!("-I{}", out.display()));
                for (k, v) in switches {
                    c.arg(format!("-D{k}={v}"));
                }
                c.arg(src).arg("-o").arg(&o);
                let r = run(&mut c, &format!("compiling {}", src.display())).map(|_| o);
                results.lock().unwrap_or_else(|e| e.into_inner()).push(r);
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().collect()
}

/// The Verilator runtime's objects (its `VM_GLOBAL` sources), compiled once per Verilator and switch set.
fn runtime_objects(
    cache: &Path,
    base: &str,
    include: &Path,
    globals: &[String],
    switches: &[(String, String)],
) -> Result<Vec<PathBuf>, String> {
    let dir = cache.join(format!("runtime-{:016x}", digest(&[base, &format!("{globals:?}{switches:?}")])));
    let objects: Vec<PathBuf> = globals.iter().map(|g| dir.join(format!("{g}.o"))).collect();
    let _lock = lock(&dir)?;
    if dir.join("netmeas.stamp").is_file() && objects.iter().all(|o| o.is_file()) {
        return Ok(objects);
    }
    let tmp = scratch(&dir)?;
    let units: Vec<(PathBuf, u32)> = globals.iter().map(|g| (include.join(format!("{g}.cpp")), 2)).collect();
    let done = compile_all(&units, include, &tmp, switches)
        .and_then(|_| std::fs::write(tmp.join("netmeas.stamp"), base).map_err(|e| format!("{}: {e}", tmp.display())));
    if let Err(e) = done {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    publish(&tmp, &dir)?;
    Ok(objects)
}
