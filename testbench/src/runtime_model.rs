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

use crate::harness::Model;
use crate::shim::{self, PortDecl};
use golden::common::digest::fnv1a as digest;
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

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
        digest(&[include_str!("../build/shim.rs")])
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

type NewFn = unsafe extern "C" fn(u64) -> *mut c_void;
type PtrFn = unsafe extern "C" fn(*mut c_void);
type TraceFn = unsafe extern "C" fn(*mut c_void, *const std::os::raw::c_char) -> i32;
type DumpFn = unsafe extern "C" fn(*mut c_void, u64);
type AddrFn = unsafe extern "C" fn(*mut c_void) -> *mut c_void;
type WideSetFn = unsafe extern "C" fn(*mut c_void, *const u32);
type WideGetFn = unsafe extern "C" fn(*mut c_void, *mut u32);

/// One port of a loaded model: scalars are read and written in place (their storage address), wide ones
/// through the shim's word accessors.
struct Port {
    decl: PortDecl,
    addr: Option<AddrFn>,
    set_w: Option<WideSetFn>,
    get_w: Option<WideGetFn>,
}

/// A loaded shared object of one top.
pub struct DynLib {
    top: &'static str,
    ports: Vec<Port>,
    new: NewFn,
    eval: PtrFn,
    trace_open: TraceFn,
    dump: DumpFn,
    delete: PtrFn,
    _lib: libloading::Library,
}

impl DynLib {
    /// Loads `built` (its ports from its Verilator header).
    pub fn load(built: &Built) -> Result<Arc<DynLib>, String> {
        let top = built.top.as_str();
        let dir = built.lib.parent().ok_or("a model library without a directory")?;
        let header = dir.join("obj").join(format!("V{top}.h"));
        let header = std::fs::read_to_string(&header).map_err(|e| format!("cannot read {}: {e}", header.display()))?;
        // SAFETY: the library is the shim this module generated; its constructors only allocate.
        let lib = unsafe { libloading::Library::new(&built.lib) }
            .map_err(|e| format!("cannot load {}: {e}", built.lib.display()))?;
        let sym = |name: String| -> Result<*const c_void, String> {
            // SAFETY: every symbol looked up is a function of the generated shim with the type it is cast to.
            unsafe { lib.get::<*const c_void>(name.as_bytes()) }
                .map(|s| *s)
                .map_err(|e| format!("{}: no symbol {name}: {e}", built.lib.display()))
        };
        let f = |n: &str| sym(format!("nm_{top}_{n}"));
        let mut ports = Vec::new();
        for decl in shim::parse_ports(&header) {
            let n = &decl.name;
            if decl.words > crate::ports::PORT_WORDS || decl.width > 32 * crate::ports::PORT_WORDS {
                return Err(format!(
                    "{top}: port {n} has {} bits; run-time models take ports of up to {}",
                    decl.width,
                    32 * crate::ports::PORT_WORDS
                ));
            }
            // SAFETY (all transmutes): the shim defines these functions with exactly these signatures.
            let port = if decl.storage == 0 {
                Port {
                    addr: None,
                    set_w: if decl.input {
                        Some(unsafe { std::mem::transmute::<*const c_void, WideSetFn>(f(&format!("set_{n}"))?) })
                    } else {
                        None
                    },
                    get_w: Some(unsafe { std::mem::transmute::<*const c_void, WideGetFn>(f(&format!("get_{n}"))?) }),
                    decl,
                }
            } else {
                let addr = unsafe { std::mem::transmute::<*const c_void, AddrFn>(f(&format!("addr_{n}"))?) };
                Port { addr: Some(addr), set_w: None, get_w: None, decl }
            };
            ports.push(port);
        }
        unsafe {
            Ok(Arc::new(DynLib {
                top: Box::leak(top.to_string().into_boxed_str()),
                ports,
                new: std::mem::transmute::<*const c_void, NewFn>(f("new")?),
                eval: std::mem::transmute::<*const c_void, PtrFn>(f("eval")?),
                trace_open: std::mem::transmute::<*const c_void, TraceFn>(f("trace_open")?),
                dump: std::mem::transmute::<*const c_void, DumpFn>(f("dump")?),
                delete: std::mem::transmute::<*const c_void, PtrFn>(f("delete")?),
                _lib: lib,
            }))
        }
    }
    /// The top module's name.
    pub fn top(&self) -> &str {
        self.top
    }
    /// The index of port `name`, if the top has it.
    pub fn port(&self, name: &str) -> Option<usize> {
        self.ports.iter().position(|p| p.decl.name == name)
    }
    /// Width of port `i`.
    pub fn width(&self, i: usize) -> usize {
        self.ports[i].decl.width
    }
    /// Every port: `(name, input, width)`.
    pub fn ports(&self) -> Vec<(String, bool, usize)> {
        self.ports.iter().map(|p| (p.decl.name.clone(), p.decl.input, p.decl.width)).collect()
    }
}

/// An instance of a loaded top (`!Send`: a Verilated model stays on its thread).
pub struct DynModel {
    lib: Arc<DynLib>,
    p: *mut c_void,
    /// Storage address of each scalar port (null for wide ones).
    addrs: Vec<*mut c_void>,
    clock: Option<usize>,
}

impl DynModel {
    /// A new instance; `x_seed` seeds the power-up values (`--x-initial unique`).
    pub fn new(lib: &Arc<DynLib>, x_seed: u64) -> Self {
        // SAFETY: `new` allocates a model; the addresses of its port storage live as long as it.
        let p = unsafe { (lib.new)(x_seed) };
        let addrs = lib.ports.iter().map(|port| port.addr.map_or(std::ptr::null_mut(), |a| unsafe { a(p) })).collect();
        let clock = lib.ports.iter().position(|p| p.decl.input && ["clock", "clk"].contains(&p.decl.name.as_str()));
        DynModel { lib: lib.clone(), p, addrs, clock }
    }
    pub fn lib(&self) -> &DynLib {
        &self.lib
    }
    /// Port `i` as 32-bit words, least significant first (bits above its width are zero).
    pub fn get_words(&self, i: usize) -> crate::ports::PortBits {
        let port = &self.lib.ports[i];
        let mut w = [0u32; crate::ports::PORT_WORDS];
        let a = self.addrs[i];
        // SAFETY: `a` is the port's storage of the width Verilator declared; wide ports are read by the shim
        // into at most PORT_WORDS words (checked).
        unsafe {
            match port.decl.storage {
                8 => w[0] = (a as *const u8).read_volatile() as u32,
                16 => w[0] = (a as *const u16).read_volatile() as u32,
                32 => w[0] = (a as *const u32).read_volatile(),
                64 => {
                    let v = (a as *const u64).read_volatile();
                    (w[0], w[1]) = (v as u32, (v >> 32) as u32);
                }
                _ => {
                    assert!(port.decl.words <= w.len(), "port {} is wider than {} words", port.decl.name, w.len());
                    if let Some(g) = port.get_w {
                        g(self.p, w.as_mut_ptr());
                    }
                }
            }
        }
        crate::ports::PortBits(w)
    }
    /// Sets input `i` to words `w` (least significant first; bits above its width dropped).
    pub fn set_words(&mut self, i: usize, w: crate::ports::PortBits) {
        let port = &self.lib.ports[i];
        if port.decl.storage != 0 {
            return self.set(i, w.to());
        }
        let mut w = w.0;
        let width = port.decl.width;
        for (k, x) in w.iter_mut().enumerate() {
            let lo = 32 * k;
            *x &= if lo >= width {
                0
            } else if width - lo >= 32 {
                u32::MAX
            } else {
                (1 << (width - lo)) - 1
            };
        }
        // SAFETY: the shim's setter reads the port's words (at most PORT_WORDS, checked at load).
        if let Some(s) = port.set_w {
            unsafe { s(self.p, w.as_ptr()) }
        }
    }
    /// Sets input `i` to `v` (bits above its width dropped).
    pub fn set(&mut self, i: usize, v: u128) {
        let port = &self.lib.ports[i];
        let v = if port.decl.width >= 128 { v } else { v & ((1u128 << port.decl.width) - 1) };
        let a = self.addrs[i];
        // SAFETY: as in `get_words`; only inputs are written.
        unsafe {
            match port.decl.storage {
                8 => (a as *mut u8).write_volatile(v as u8),
                16 => (a as *mut u16).write_volatile(v as u16),
                32 => (a as *mut u32).write_volatile(v as u32),
                64 => (a as *mut u64).write_volatile(v as u64),
                _ => {
                    let mut w = [0u32; crate::ports::PORT_WORDS];
                    for (k, x) in w.iter_mut().take(4).enumerate() {
                        *x = (v >> (32 * k)) as u32;
                    }
                    if let Some(s) = port.set_w {
                        s(self.p, w.as_ptr());
                    }
                }
            }
        }
    }
}

impl Drop for DynModel {
    fn drop(&mut self) {
        // SAFETY: `p` came from this library's `new` and is deleted once.
        unsafe { (self.lib.delete)(self.p) }
    }
}

impl Model for DynModel {
    fn name(&self) -> &'static str {
        self.lib.top
    }
    fn set_clock(&mut self, level: bool) {
        if let Some(i) = self.clock {
            self.set(i, level as u128);
        }
    }
    fn eval(&mut self) {
        // SAFETY: a live model of this library.
        unsafe { (self.lib.eval)(self.p) }
    }
    fn trace_open(&mut self, path: &Path) -> bool {
        let Ok(c) = std::ffi::CString::new(path.to_string_lossy().as_bytes()) else { return false };
        // SAFETY: a live model; the shim copies the path.
        unsafe { (self.lib.trace_open)(self.p, c.as_ptr()) != 0 }
    }
    fn dump(&mut self, t: u64) {
        // SAFETY: a live model.
        unsafe { (self.lib.dump)(self.p, t) }
    }
}

/// [`DynTop`]: a struct with one port index per method and the methods, from the lists of names.
macro_rules! dyn_top {
    (
        set u64: $($s:ident),* ; set u128: $($w:ident),* ; set words: $($b:ident),* ; get: $($g:ident),* $(,)?
    ) => {
        /// A run-time model with the port methods of every core runner — `set_<input>` (`u64`, or `u128` for
        /// keys and ids) and `<output>()` (as [`PortBits`](crate::ports::PortBits), which converts into the
        /// runner's field types) — so it takes the place of a build-time model in any runner. A method whose
        /// port the top lacks does nothing (setter) or reads 0. `K` marks the core (a runner's traits have
        /// associated types, so each core has its own `DynTop<K>`).
        pub struct DynTop<K> {
            m: DynModel,
            _kind: std::marker::PhantomData<K>,
            /// The AXI4-Lite slaves' port indices (AXI flavour), in port order, and their names.
            axil: Vec<AxilBus>,
            axil_names: Vec<&'static str>,
            $($s: Option<usize>,)*
            $($w: Option<usize>,)*
            $($b: Option<usize>,)*
            $($g: Option<usize>,)*
        }

        impl<K> DynTop<K> {
            /// An instance of `lib`'s top; `x_seed` seeds its power-up values.
            pub fn new(lib: &Arc<DynLib>, x_seed: u64) -> Self {
                let port = |m: &str| lib.port(m.strip_prefix("set_").unwrap_or(m));
                DynTop {
                    m: DynModel::new(lib, x_seed),
                    _kind: std::marker::PhantomData,
                    axil: AxilBus::of(lib),
                    axil_names: AxilBus::of(lib).iter().map(|b| b.name).collect(),
                    $($s: port(stringify!($s)),)*
                    $($w: port(stringify!($w)),)*
                    $($b: port(stringify!($b)),)*
                    $($g: port(stringify!($g)),)*
                }
            }
            $(
                #[inline]
                pub fn $s(&mut self, v: u64) {
                    if let Some(i) = self.$s {
                        self.m.set(i, v as u128)
                    }
                }
            )*
            $(
                #[inline]
                pub fn $w(&mut self, v: u128) {
                    if let Some(i) = self.$w {
                        self.m.set(i, v)
                    }
                }
            )*
            $(
                #[inline]
                pub fn $b(&mut self, v: crate::ports::PortBits) {
                    if let Some(i) = self.$b {
                        self.m.set_words(i, v)
                    }
                }
            )*
            $(
                #[inline]
                pub fn $g(&self) -> crate::ports::PortBits {
                    self.$g.map_or_else(Default::default, |i| self.m.get_words(i))
                }
            )*
        }
    };
}

dyn_top! {
    set u64: set_reset, set_in_valid, set_in_request, set_in_ts, set_rep_ready, set_tally_ready, set_rec_ready,
        set_csr_addr, set_csr_wr_en, set_csr_wr_data, set_csr_rd_en, set_in_start, set_in_end, set_in_addr,
        set_in_seq, set_in_data, set_in_index, set_in_force, set_in_latency, set_smp_ready, set_lk_valid,
        set_ans_ready,
        // The AXI flavour (`hdl::axi`): reset, stream valids and readies (the AXI4-Lite pins: `AxilPins`).
        set_rst, set_s_axis_in_tvalid, set_s_axis_lk_tvalid, set_m_axis_rep_tready, set_m_axis_tally_tready, set_m_axis_rec_tready,
        set_m_axis_smp_tready, set_m_axis_ans_tready;
    set u128: set_in_id, set_in_key, set_in_flow, set_lk_key;
    set words: set_s_axis_in_tdata, set_s_axis_lk_tdata;
    get: in_ready, swept, rep_valid, rep_data, csr_rd_valid, csr_rd_data, tally_valid, tally_data, rec_valid,
        rec_data, res_valid, res_case, res_row, res_d_est, res_outcome, res_count, res_ooo, res_center, smp_valid,
        smp_data, lk_ready, ans_valid, ans_kind, ans_cand, ans_center_valid, ans_center, ans_latency, ans_refined,
        s_axis_in_tready, s_axis_lk_tready, m_axis_rep_tvalid, m_axis_rep_tlast, m_axis_rep_tdata,
        m_axis_tally_tvalid, m_axis_tally_tlast, m_axis_tally_tdata, m_axis_rec_tvalid, m_axis_rec_tlast,
        m_axis_rec_tdata, m_axis_res_tvalid, m_axis_res_tdata, m_axis_smp_tvalid, m_axis_smp_tlast,
        m_axis_smp_tdata, m_axis_ans_tvalid, m_axis_ans_tlast, m_axis_ans_tdata,
}

impl<K> DynTop<K> {
    /// Width of port `name` (0 if the top has none).
    pub fn port_width(&self, name: &str) -> usize {
        self.m.lib().port(name).map_or(0, |i| self.m.lib().width(i))
    }
}

crate::model_via!(impl<K> DynTop<K> => m);

/// The port indices of one AXI4-Lite slave of a run-time model (bus `s_axil` or `s_axil_<p>`).
struct AxilBus {
    name: &'static str,
    inputs: [Option<usize>; 9],
    outputs: [Option<usize>; 8],
}

impl AxilBus {
    const IN: [&'static str; 9] =
        ["awvalid", "awaddr", "wvalid", "wdata", "wstrb", "bready", "arvalid", "araddr", "rready"];
    const OUT: [&'static str; 8] = ["awready", "wready", "bvalid", "bresp", "arready", "rvalid", "rdata", "rresp"];
    /// Every slave of `lib`'s top, in port order.
    fn of(lib: &DynLib) -> Vec<AxilBus> {
        let ports = lib.ports();
        let buses = ports.iter().filter_map(|(n, _, _)| n.strip_suffix("_awvalid"));
        buses
            .filter(|b| *b == "s_axil" || b.starts_with("s_axil_"))
            .map(|b| AxilBus {
                name: crate::axi_core::axil_signal_names(b)[0].strip_suffix("_awready").unwrap_or("s_axil"),
                inputs: Self::IN.map(|n| lib.port(&format!("{b}_{n}"))),
                outputs: Self::OUT.map(|n| lib.port(&format!("{b}_{n}"))),
            })
            .collect()
    }
}

impl<K> crate::axi_core::AxilPins for DynTop<K> {
    fn axil_buses(&self) -> &[&'static str] {
        &self.axil_names
    }
    fn set_axil(&mut self, bus: usize, i: &golden::common::axil::AxilInputs) {
        let values = [
            i.awvalid as u128,
            i.awaddr as u128,
            i.wvalid as u128,
            i.wdata as u128,
            i.wstrb as u128,
            i.bready as u128,
            i.arvalid as u128,
            i.araddr as u128,
            i.rready as u128,
        ];
        for (port, v) in self.axil[bus].inputs.into_iter().zip(values) {
            if let Some(k) = port {
                self.m.set(k, v);
            }
        }
    }
    fn axil(&self, bus: usize) -> golden::common::axil::AxilOutputs {
        let get = |k: usize| self.axil[bus].outputs[k].map_or(0u32, |p| self.m.get_words(p).0[0]);
        golden::common::axil::AxilOutputs {
            awready: get(0) != 0,
            wready: get(1) != 0,
            bvalid: get(2) != 0,
            bresp: get(3) as u8,
            arready: get(4) != 0,
            rvalid: get(5) != 0,
            rdata: get(6),
            rresp: get(7) as u8,
            ..Default::default()
        }
    }
}
