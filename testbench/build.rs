//! Builds a Verilator model of every hdl top and generates Rust bindings for it.
//!
//! 1. `hdl::emit::all_tops(initial = false, test_only = true)` → `$OUT_DIR/verilog/<top>.v` (no initial
//!    values: the models run with `--x-initial unique`, so reset must really initialise everything).
//! 2. `verilator --cc -O3 --trace --x-initial unique --x-assign unique` per top into `$OUT_DIR/obj/<top>`.
//! 3. The `V<top>.h` port lines (`VL_IN8(&name,msb,lsb)` … `VL_OUTW(&name,msb,lsb,words)`) are parsed and a
//!    C++ shim with `extern "C"` new/eval/set/get/trace/dump/delete per top is generated
//!    (`build/codegen.rs`).
//! 4. Each top's generated C++ is compiled into object files of its own — its files as two translation
//!    units (per-cycle code at -O2, the rest at -O0), every stale top's units on NUM_JOBS workers, largest
//!    first — and the Verilator runtime once; all objects go into one static library through the `cc` crate
//!    (this works the same for Verilator 5.006 and newer releases, whose `--build` archive names differ).
//!    Measured on the 2-core machine: all 67 models in 332 s this way, 1333 s file by file and top by top.
//! 5. `$OUT_DIR/models.rs`: one Rust struct per top (`!Send`, `Drop`), ports ≤64 bits as u64, ≤128 as
//!    u128, wider as `[u32; N]`, each instance owning its own `VerilatedContext`.
//!
//! Model cache: steps 2–4 are skipped for a top whose Verilog, Verilator version, flags and generator
//! ([`CACHE_VERSION`]) are those of its last build (`$OUT_DIR/obj/<top>/netmeas.stamp`, written last), so an
//! edit to one core re-Verilates and recompiles that core's tops only; the runtime is cached the same way.
//! `NETMEAS_MODEL_CACHE=0` rebuilds everything. Object paths are stored relative to their cache entry, so a
//! copied build directory (`netmeas mutate` starts its scratch build from a copy of the main one) keeps a
//! valid cache. `NETMEAS_MODEL_ONLY=<names>` (comma-separated top names, `prefix*` for a
//! family) generates and rebuilds only those tops: every other top keeps the Verilog, ports and model of
//! this build directory's last build (and is generated after all where there is none). Only a mutation run
//! sets it — its tests use the named tops alone; generating all 60-odd tops takes about 10 s in a build
//! script (an unoptimised `hdl`), and a mutant of a shared block would otherwise re-Verilate every core
//! that instantiates the block.
//!
//! `VERILATOR=/path/to/verilator` selects another Verilator; without one the build stops and says how to
//! install it.

#[path = "build/codegen.rs"]
mod codegen;
#[path = "build/shim.rs"]
#[allow(dead_code)]
mod shim;

use codegen::rust_model;
use shim::{parse_classes_mk, parse_ports, shim_cpp, VERILATOR_FLAGS};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Bump when the generated C++ or the compile flags change in a way the stamp does not see.
const CACHE_VERSION: &str = "netmeas-model-cache-2";

/// The cache stamp of `parts` (`golden::common::digest`, in hex).
fn digest(parts: &[&str]) -> String {
    format!("{:016x}", hdl::golden::common::digest::fnv1a(parts))
}

/// A cached build step: `dir` holds its outputs and `netmeas.stamp` (the key, written last), and
/// `netmeas.objects` (the object files it compiled, one path a line).
struct Cached {
    dir: PathBuf,
    key: String,
}

impl Cached {
    fn new(dir: PathBuf, key: String) -> Self {
        Cached { dir, key }
    }
    /// The object files of a previous build with the same key, if all of them are still there (paths are
    /// relative to the entry; an absolute path of an older cache names a file of the entry it was written in,
    /// which may have been copied here).
    fn hit(&self) -> Option<Vec<PathBuf>> {
        if std::env::var("NETMEAS_MODEL_CACHE").is_ok_and(|v| v == "0") {
            return None;
        }
        let stamp = std::fs::read_to_string(self.dir.join("netmeas.stamp")).ok()?;
        if stamp.trim() != self.key {
            return None;
        }
        let list = std::fs::read_to_string(self.dir.join("netmeas.objects")).ok()?;
        let here = |l: &str| match Path::new(l) {
            p if p.is_absolute() && !p.starts_with(&self.dir) => self.dir.join(p.file_name().unwrap_or_default()),
            p => self.dir.join(p),
        };
        let objs: Vec<PathBuf> = list.lines().filter(|l| !l.is_empty()).map(here).collect();
        (!objs.is_empty() && objs.iter().all(|o| o.is_file())).then_some(objs)
    }
    /// Empties the directory for a fresh build.
    fn reset(&self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        std::fs::create_dir_all(&self.dir).unwrap_or_else(|e| fail(&format!("creating {}: {e}", self.dir.display())));
    }
    /// Records a finished build.
    fn store(&self, objs: &[PathBuf]) {
        let rel = |o: &PathBuf| o.strip_prefix(&self.dir).unwrap_or(o).display().to_string();
        let list: String = objs.iter().map(|o| format!("{}\n", rel(o))).collect();
        std::fs::write(self.dir.join("netmeas.objects"), list).unwrap();
        std::fs::write(self.dir.join("netmeas.stamp"), &self.key).unwrap();
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("\n==== netmeas testbench build failed ====\n{msg}\n");
    std::process::exit(1);
}

fn run(cmd: &mut Command, what: &str) -> String {
    match cmd.output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        Ok(o) => fail(&format!(
            "{what} failed ({}):\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => fail(&format!("{what}: cannot run: {e}")),
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/codegen.rs");
    println!("cargo:rerun-if-changed=build/shim.rs");
    println!("cargo:rerun-if-env-changed=VERILATOR");
    println!("cargo:rerun-if-env-changed=NETMEAS_MODEL_CACHE");
    println!("cargo:rerun-if-env-changed=NETMEAS_MODEL_ONLY");
    let only: Option<Vec<String>> = std::env::var("NETMEAS_MODEL_ONLY")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .map(|v| v.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect());
    let wanted = |name: &str| {
        only.as_ref().is_none_or(|o| {
            o.iter().any(|p| p.strip_suffix('*').map_or(name == p, |pre| name.starts_with(pre)))
        })
    };
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    // Phase times go to the build script's stderr file (target/<profile>/build/testbench-*/stderr).
    let t0 = std::time::Instant::now();
    let phase = |what: &str| eprintln!("[netmeas build] {what}: {:.2} s", t0.elapsed().as_secs_f64());
    let verilator = hdl::lint::verilator_bin();
    // Rebuild the models when the Verilator in use changes (an upgrade on PATH, another VERILATOR=).
    if let Ok(o) = Command::new("sh").arg("-c").arg(format!("command -v '{verilator}'")).output() {
        let path = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if !path.is_empty() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let version = match Command::new(&verilator).arg("--version").output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        _ => fail(&format!(
            "Verilator not found (tried `{verilator}`).\n\
             Install it: `sudo apt-get update && sudo apt-get install -y verilator` (Debian/Ubuntu; 5.006 is tested),\n\
             or point VERILATOR=/path/to/verilator at another build (5.x)."
        )),
    };
    let root =
        run(Command::new(&verilator).args(["--getenv", "VERILATOR_ROOT"]), "verilator --getenv").trim().to_string();
    let include = Path::new(&root).join("include");
    let compiler = cc::Build::new().cpp(true).get_compiler();
    let base_key = format!("{CACHE_VERSION}|{version}|{root}|{VERILATOR_FLAGS:?}|{:?}", compiler.path());

    phase("verilator found");
    let vdir = out.join("verilog");
    let objdir = out.join("obj");
    // A top left out needs its last build here (Verilog and header); one without is generated after all.
    let has_last = |name: &str| {
        vdir.join(format!("{name}.v")).is_file() && objdir.join(name).join(format!("V{name}.h")).is_file()
    };
    let tops: Vec<hdl::emit::TopInfo> = hdl::emit::tops_where(false, true, |n| wanted(n) || !has_last(n))
        .unwrap_or_else(|e| fail(&format!("Verilog generation: {e}")))
        .into_iter()
        .map(|(mut t, fresh)| {
            if !fresh {
                // NETMEAS_MODEL_ONLY left it out: its last build's Verilog and ports.
                let last = |p: PathBuf| {
                    std::fs::read_to_string(&p).unwrap_or_else(|e| {
                        fail(&format!("NETMEAS_MODEL_ONLY: reading the last build of {} ({}): {e}", t.name, p.display()))
                    })
                };
                t.verilog = last(vdir.join(format!("{}.v", t.name)));
                let header = last(objdir.join(&t.name).join(format!("V{}.h", t.name)));
                t.ports = parse_ports(&header)
                    .into_iter()
                    .map(|p| hdl::emit::Port {
                        name: p.name,
                        dir: if p.input { "input" } else { "output" }.into(),
                        width: p.width,
                    })
                    .collect();
            }
            t
        })
        .collect();
    hdl::emit::write_all(&vdir, &tops).unwrap_or_else(|e| fail(&format!("writing Verilog: {e}")));
    // Tops that no longer exist leave their cache behind otherwise.
    if let Ok(entries) = std::fs::read_dir(&objdir) {
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n != "nm_runtime" && !tops.iter().any(|t| t.name == n) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }

    phase("Verilog emitted");
    // 1. Verilate every top whose cache entry is stale.
    let cache: Vec<Cached> =
        tops.iter().map(|t| Cached::new(objdir.join(&t.name), digest(&[&base_key, &t.name, &t.verilog]))).collect();
    let hits: Vec<Option<Vec<PathBuf>>> = cache.iter().map(Cached::hit).collect();
    // Several at a time (cargo's NUM_JOBS): one Verilator run is single-threaded.
    let jobs: usize = std::env::var("NUM_JOBS").ok().and_then(|j| j.parse().ok()).unwrap_or(2).max(1);
    let stale: Vec<(&hdl::emit::TopInfo, &Cached)> =
        tops.iter().zip(&cache).zip(&hits).filter(|(_, h)| h.is_none()).map(|(tc, _)| tc).collect();
    for batch in stale.chunks(jobs) {
        std::thread::scope(|s| {
            for (t, c) in batch {
                let (verilator, vdir) = (&verilator, &vdir);
                s.spawn(move || {
                    c.reset();
                    run(
                        Command::new(verilator)
                            .args(VERILATOR_FLAGS)
                            .args(["--top-module", &t.name, "--prefix", &format!("V{}", t.name)])
                            .arg("-Mdir")
                            .arg(&c.dir)
                            .arg(vdir.join(format!("{}.v", t.name))),
                        &format!("verilator on {}", t.name),
                    );
                });
            }
        });
    }
    // The runtime sources and VM_* switches this Verilator's generated code needs, read from the first
    // model's V<top>_classes.mk (their list differs between Verilator releases).
    let first = tops.first().unwrap_or_else(|| fail("no top modules to build"));
    let mk = std::fs::read_to_string(objdir.join(&first.name).join(format!("V{}_classes.mk", first.name)))
        .unwrap_or_else(|e| fail(&format!("reading V{}_classes.mk: {e}", first.name)));
    let (globals, switches) = parse_classes_mk(&mk);
    let builder = |dir: &Path| {
        let mut b = cc::Build::new();
        b.cpp(true)
            .opt_level(2)
            .warnings(false)
            .cargo_metadata(false)
            // (Not `flag_if_supported`: its probe writes one file into the top's directory, which two
            // units of a top compiling at once would race on. Verilator 5 needs a C++17 compiler anyway.)
            .flag("-std=c++17")
            .flag("-faligned-new")
            .define("VM_SC", "0")
            .include(&include)
            .include(include.join("vltstd"))
            .include(dir)
            .out_dir(dir);
        for (k, v) in &switches {
            b.define(k, v.as_str());
        }
        b
    };

    // 2. Ports, shim and objects per top (compiled only when stale), then the Rust bindings.
    let mut objects: Vec<PathBuf> = Vec::new();
    let mut models = format!(
        "// Generated by testbench/build.rs from {version}. Do not edit.\n\
use std::ffi::c_void;\nuse std::os::raw::c_char;\nuse std::marker::PhantomData;\n\
use crate::harness::{{Model, PortInfo}};\n\n"
    );
    let mut rebuilt = Vec::new();
    let mut ports_of = Vec::new();
    for (t, c) in tops.iter().zip(&cache) {
        let header = std::fs::read_to_string(c.dir.join(format!("V{}.h", t.name)))
            .unwrap_or_else(|e| fail(&format!("reading V{}.h: {e}", t.name)));
        let ports = parse_ports(&header);
        // The manifest's ports (parsed from the emitted Verilog) must be exactly Verilator's.
        let mut ours: Vec<(String, bool, usize)> =
            t.ports.iter().map(|p| (p.name.clone(), p.dir == "input", p.width)).collect();
        let mut theirs: Vec<(String, bool, usize)> = ports.iter().map(|p| (p.name.clone(), p.input, p.width)).collect();
        ours.sort();
        theirs.sort();
        if ours != theirs {
            fail(&format!("{}: manifest ports {ours:?} differ from Verilator's {theirs:?}", t.name));
        }
        models += &rust_model(&t.name, &ports);
        ports_of.push(ports);
    }
    // Compile the stale tops: per top one translation unit per optimisation level (below), all tops' units
    // on `jobs` workers, the largest first, so both cores stay busy to the end.
    let mut units: Vec<(usize, u32, PathBuf, u64)> = Vec::new();
    for i in (0..tops.len()).filter(|&i| hits[i].is_none()) {
        let (t, c) = (&tops[i], &cache[i]);
        std::fs::write(c.dir.join(format!("nm_shim_{}.cpp", t.name)), shim_cpp(&t.name, &ports_of[i])).unwrap();
        // Verilator's files and the shim (not cc's `flag_check.cpp` nor the unity files below).
        let mut cpps: Vec<PathBuf> = std::fs::read_dir(&c.dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name.ends_with(".cpp") && (name.starts_with('V') || name.starts_with("nm_shim_"))
            })
            .collect();
        cpps.sort();
        // Per-cycle code of the models the tests run at length is compiled with -O2; everything else with -O0,
        // which compiles 2-5x faster:
        // - Verilator's `__Slow` files: code that runs once (construction, initial values, reset, trace setup;
        //   6.7 s vs 1.3 s for fridge_dp's largest); Verilator's own makefiles compile them with OPT_SLOW,
        //   empty by default;
        // - the `__Trace` files: the waveform dump, which runs only while a test writes a VCD (ifpd_d4's
        //   per-cycle dump: 5.6 s at -O2, 2.4 s at -O0 — more than its evaluation code at -O2);
        // - the deliberately broken test-only tops (`Build::test_only`): a test runs one until the checker
        //   catches it.
        // The optimisation level changes no behaviour, so it is not part of the cache key.
        let (slow, fast): (Vec<PathBuf>, Vec<PathBuf>) = cpps.into_iter().partition(|p| {
            let n = p.to_string_lossy();
            t.test_only || n.contains("__Slow") || n.contains("__Trace")
        });
        // Each group is one translation unit that includes its files (as Verilator's own makefile builds
        // without VM_PARALLEL_BUILDS): a top has about fourteen files, most of them a few hundred bytes that
        // cost a second each to compile, nearly all of it parsing verilated.h (ro_hy: 31 s of compiler time
        // for its files one by one, 13 s of it in the nine small ones).
        for (name, opt, files) in [("nm_unity_fast.cpp", 2, fast), ("nm_unity_slow.cpp", 0, slow)] {
            if files.is_empty() {
                continue;
            }
            let path = c.dir.join(name);
            let text: String = files
                .iter()
                .map(|f| format!("#include \"{}\"\n", f.file_name().unwrap().to_string_lossy()))
                .collect();
            std::fs::write(&path, format!("// Generated by testbench/build.rs: one translation unit.\n{text}"))
                .unwrap_or_else(|e| fail(&format!("writing {}: {e}", path.display())));
            // Work estimate: source bytes, the -O0 ones at a third.
            let bytes: u64 = files.iter().map(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0)).sum();
            units.push((i, opt, path, if opt == 0 { bytes / 3 } else { bytes }));
        }
    }
    units.sort_by_key(|u| std::cmp::Reverse(u.3));
    let built: Vec<std::sync::Mutex<Vec<PathBuf>>> = tops.iter().map(|_| Default::default()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let Some((i, opt, src, _)) = units.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                else {
                    break;
                };
                let objs = builder(&cache[*i].dir).opt_level(*opt).file(src).compile_intermediates();
                built[*i].lock().unwrap().extend(objs);
            });
        }
    });
    let mut compiled: Vec<Option<Vec<PathBuf>>> = hits;
    for (i, objs) in built.into_iter().enumerate() {
        if compiled[i].is_none() {
            let mut objs = objs.into_inner().unwrap();
            objs.sort();
            cache[i].store(&objs);
            rebuilt.push(tops[i].name.clone());
            compiled[i] = Some(objs);
        }
    }
    for o in compiled.into_iter().flatten() {
        objects.extend(o);
    }

    phase("models Verilated and compiled");
    // 3. The Verilator runtime and the shared shim code, once per Verilator and switch set.
    let rt = Cached::new(objdir.join("nm_runtime"), digest(&[&base_key, &format!("{globals:?}{switches:?}")]));
    let rt_objs = rt.hit().unwrap_or_else(|| {
        rt.reset();
        let common = rt.dir.join("nm_common.cpp");
        std::fs::write(
            &common,
            "// Generated by testbench/build.rs. Shared by every model shim.\n#include <mutex>\n\
             std::mutex nm_construct_mutex;\n",
        )
        .unwrap();
        let mut b = builder(&rt.dir);
        for g in &globals {
            b.file(include.join(format!("{g}.cpp")));
        }
        let objs = b.file(common).compile_intermediates();
        rt.store(&objs);
        rebuilt.push("the Verilator runtime".into());
        objs
    });
    objects.extend(rt_objs);

    // 4. One archive of every object (archiving only: nothing is compiled here).
    cc::Build::new().cpp(true).objects(&objects).compile("netmeas_verilated");
    phase("archive written");
    println!("cargo:rustc-link-lib=pthread");
    // Says what the cache saved (a cargo warning is the only output of a build script cargo shows).
    if !rebuilt.is_empty() && rebuilt.len() <= 8 {
        println!(
            "cargo:warning=netmeas: rebuilt {} of {} cached models: {}",
            rebuilt.len(),
            tops.len() + 1,
            rebuilt.join(", ")
        );
    }
    std::fs::write(out.join("models.rs"), models).unwrap();
    println!("cargo:rustc-env=NETMEAS_VERILATOR_VERSION={version}");
    println!("cargo:rustc-env=NETMEAS_VERILOG_DIR={}", vdir.display());
}
