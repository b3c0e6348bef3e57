//! Builds a Verilator model of every hdl top and generates Rust bindings for it.
//!
//! 1. `hdl::emit::all_tops(initial = false, test_only = true)` → `$OUT_DIR/verilog/<top>.v` (no initial
//!    values: the models run with `--x-initial unique`, so reset must really initialise everything).
//! 2. `verilator --cc -O3 --trace --x-initial unique --x-assign unique` per top into `$OUT_DIR/obj/<top>`.
//! 3. The `V<top>.h` port lines (`VL_IN8(&name,msb,lsb)` … `VL_OUTW(&name,msb,lsb,words)`) are parsed and a
//!    C++ shim with `extern "C"` new/eval/set/get/trace/dump/delete per top is generated.
//! 4. All generated C++ plus the Verilator runtime (compiled once, shared by every model) go into one static
//!    library through the `cc` crate; this works the same for Verilator 5.006 and newer releases, whose
//!    `--build` archive names differ.
//! 5. `$OUT_DIR/models.rs`: one Rust struct per top (`!Send`, `Drop`), ports ≤64 bits as u64, ≤128 as
//!    u128, wider as `[u32; N]`, each instance owning its own `VerilatedContext`.
//!
//! `VERILATOR=/path/to/verilator` selects another Verilator; without one the build stops and says how to
//! install it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

struct PortDecl {
    name: String,
    input: bool,
    width: usize,
    /// Verilator storage: 8, 16, 32, 64 or 0 for VlWide.
    storage: usize,
    words: usize,
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

/// `VM_GLOBAL_FAST`/`VM_GLOBAL_SLOW` (runtime sources) and the `VM_* = n` switches of a `_classes.mk`.
fn parse_classes_mk(mk: &str) -> (Vec<String>, Vec<(String, String)>) {
    let mut globals = Vec::new();
    let mut switches = Vec::new();
    let mut in_globals = false;
    for line in mk.lines() {
        let t = line.trim();
        if t.starts_with("VM_GLOBAL_FAST") || t.starts_with("VM_GLOBAL_SLOW") {
            in_globals = true;
            continue;
        }
        if in_globals {
            if t.is_empty() || !t.ends_with('\\') && t.contains('=') {
                in_globals = false;
            } else {
                let name = t.trim_end_matches('\\').trim();
                if !name.is_empty() {
                    globals.push(name.to_string());
                }
                if !t.ends_with('\\') {
                    in_globals = false;
                }
                continue;
            }
        }
        if let Some((k, v)) = t.split_once('=') {
            let (k, v) = (k.trim(), v.trim());
            if k.starts_with("VM_") && !k.starts_with("VM_CLASSES") && !k.starts_with("VM_SUPPORT")
                && !k.starts_with("VM_GLOBAL") && v.chars().all(|c| c.is_ascii_digit()) && !v.is_empty()
            {
                switches.push((k.to_string(), v.to_string()));
            }
        }
    }
    (globals, switches)
}

fn parse_ports(header: &str) -> Vec<PortDecl> {
    let re = regex::Regex::new(r"VL_(IN|OUT)(8|16|64|W)?\(&(\w+),(\d+),(\d+)(?:,(\d+))?\)").unwrap();
    re.captures_iter(header)
        .map(|c| {
            let msb: usize = c[4].parse().unwrap();
            let lsb: usize = c[5].parse().unwrap();
            let storage = match c.get(2).map(|m| m.as_str()) {
                Some("8") => 8,
                Some("16") => 16,
                Some("64") => 64,
                Some("W") => 0,
                _ => 32,
            };
            let words = c.get(6).map(|m| m.as_str().parse().unwrap()).unwrap_or(0);
            PortDecl { name: c[3].to_string(), input: &c[1] == "IN", width: msb - lsb + 1, storage, words }
        })
        .collect()
}

fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

fn shim_cpp(top: &str, ports: &[PortDecl]) -> String {
    let v = format!("V{top}");
    let mut s = format!(
        "#include \"{v}.h\"\n#include \"verilated.h\"\n#include \"verilated_vcd_c.h\"\n#include <cstdint>\n#include <mutex>\n\
extern std::mutex nm_construct_mutex;\n\
struct NmModel_{top} {{ VerilatedContext* ctx; {v}* m; VerilatedVcdC* tfp; }};\n\
extern \"C\" {{\n\
void* nm_{top}_new(uint64_t xseed) {{\n\
  // Verilator's random state is per thread but reseeded by any context's randSeed: construct one model\n\
  // at a time so each gets the power-up values of its own seed.\n\
  std::lock_guard<std::mutex> lock(nm_construct_mutex);\n\
  NmModel_{top}* s = new NmModel_{top};\n\
  s->ctx = new VerilatedContext;\n\
  s->ctx->traceEverOn(true);\n\
  s->ctx->randReset(2);\n\
  s->ctx->randSeed((int)(xseed % 2147483646u) + 1);\n\
  s->m = new {v}(s->ctx, \"TOP\");\n\
  s->tfp = nullptr;\n\
  return s;\n}}\n\
void nm_{top}_eval(void* p) {{ static_cast<NmModel_{top}*>(p)->m->eval(); }}\n\
int nm_{top}_trace_open(void* p, const char* path) {{\n\
  NmModel_{top}* s = static_cast<NmModel_{top}*>(p);\n\
  if (s->tfp) return s->tfp->isOpen();\n\
  s->tfp = new VerilatedVcdC;\n\
  s->m->trace(s->tfp, 99);\n\
  s->tfp->open(path);\n\
  return s->tfp->isOpen();\n}}\n\
void nm_{top}_dump(void* p, uint64_t t) {{\n\
  NmModel_{top}* s = static_cast<NmModel_{top}*>(p);\n\
  if (s->tfp) s->tfp->dump(t);\n}}\n\
void nm_{top}_delete(void* p) {{\n\
  NmModel_{top}* s = static_cast<NmModel_{top}*>(p);\n\
  if (s->tfp) {{ s->tfp->close(); delete s->tfp; }}\n\
  s->m->final();\n  delete s->m;\n  delete s->ctx;\n  delete s;\n}}\n"
    );
    for p in ports {
        let n = &p.name;
        if p.storage == 0 {
            if p.input {
                writeln!(s, "void nm_{top}_set_{n}(void* p, const uint32_t* w) {{ for (int i = 0; i < {}; i++) static_cast<NmModel_{top}*>(p)->m->{n}[i] = w[i]; }}", p.words).unwrap();
            }
            writeln!(s, "void nm_{top}_get_{n}(void* p, uint32_t* w) {{ for (int i = 0; i < {}; i++) w[i] = static_cast<NmModel_{top}*>(p)->m->{n}[i]; }}", p.words).unwrap();
        } else {
            if p.input {
                writeln!(s, "void nm_{top}_set_{n}(void* p, uint64_t v) {{ static_cast<NmModel_{top}*>(p)->m->{n} = v; }}").unwrap();
            }
            writeln!(s, "uint64_t nm_{top}_get_{n}(void* p) {{ return static_cast<NmModel_{top}*>(p)->m->{n}; }}").unwrap();
            writeln!(s, "void* nm_{top}_addr_{n}(void* p) {{ return (void*)&static_cast<NmModel_{top}*>(p)->m->{n}; }}").unwrap();
        }
    }
    s += "}\n";
    s
}

fn rust_model(top: &str, ports: &[PortDecl]) -> String {
    let ty = camel(top);
    let mut ext = String::new();
    let mut methods = String::new();
    let mut port_list = String::new();
    let mut fields = String::new();
    let mut inits = String::new();
    writeln!(ext, "    fn nm_{top}_new(xseed: u64) -> *mut c_void;").unwrap();
    writeln!(ext, "    fn nm_{top}_eval(p: *mut c_void);").unwrap();
    writeln!(ext, "    fn nm_{top}_trace_open(p: *mut c_void, path: *const c_char) -> i32;").unwrap();
    writeln!(ext, "    fn nm_{top}_dump(p: *mut c_void, t: u64);").unwrap();
    writeln!(ext, "    fn nm_{top}_delete(p: *mut c_void);").unwrap();
    for p in ports {
        let n = &p.name;
        let w = p.width;
        writeln!(port_list, "        PortInfo {{ name: \"{n}\", input: {}, width: {w} }},", p.input).unwrap();
        if p.storage == 0 {
            let words = p.words;
            if w <= 128 {
                if p.input {
                    writeln!(ext, "    fn nm_{top}_set_{n}(p: *mut c_void, w: *const u32);").unwrap();
                    writeln!(methods, "    /// Input `{n}` ({w} bits; higher bits are dropped).\n    pub fn set_{n}(&mut self, v: u128) {{\n        let v = v & {mask}u128;\n        let w: [u32; {words}] = core::array::from_fn(|i| (v >> (32 * i)) as u32);\n        unsafe {{ nm_{top}_set_{n}(self.p, w.as_ptr()) }}\n    }}", mask = if w == 128 { u128::MAX } else { (1u128 << w) - 1 }).unwrap();
                }
                writeln!(ext, "    fn nm_{top}_get_{n}(p: *mut c_void, w: *mut u32);").unwrap();
                writeln!(methods, "    /// Port `{n}` ({w} bits).\n    pub fn {n}(&self) -> u128 {{\n        let mut w = [0u32; {words}];\n        unsafe {{ nm_{top}_get_{n}(self.p, w.as_mut_ptr()) }};\n        w.iter().enumerate().fold(0u128, |a, (i, x)| a | ((*x as u128) << (32 * i)))\n    }}").unwrap();
            } else {
                if p.input {
                    writeln!(ext, "    fn nm_{top}_set_{n}(p: *mut c_void, w: *const u32);").unwrap();
                    writeln!(methods, "    /// Input `{n}` ({w} bits, little-endian 32-bit words).\n    pub fn set_{n}(&mut self, w: [u32; {words}]) {{ unsafe {{ nm_{top}_set_{n}(self.p, w.as_ptr()) }} }}").unwrap();
                }
                writeln!(ext, "    fn nm_{top}_get_{n}(p: *mut c_void, w: *mut u32);").unwrap();
                writeln!(methods, "    /// Port `{n}` ({w} bits, little-endian 32-bit words).\n    pub fn {n}(&self) -> [u32; {words}] {{\n        let mut w = [0u32; {words}];\n        unsafe {{ nm_{top}_get_{n}(self.p, w.as_mut_ptr()) }};\n        w\n    }}").unwrap();
            }
        } else {
            // Scalar ports are read and written in place: the model's port storage (CData/SData/IData/
            // QData) keeps its address for the model's lifetime, so a port access costs no FFI call
            // (this keeps the harness near a plain C++ loop: `netmeas bench --only simspeed`).
            let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            let st = p.storage;
            writeln!(ext, "    fn nm_{top}_addr_{n}(p: *mut c_void) -> *mut c_void;").unwrap();
            writeln!(fields, "    a_{n}: *mut u{st},").unwrap();
            writeln!(inits, "                a_{n}: nm_{top}_addr_{n}(p) as *mut u{st},").unwrap();
            if p.input {
                writeln!(methods, "    /// Input `{n}` ({w} bits; higher bits are dropped).\n    #[inline]\n    pub fn set_{n}(&mut self, v: u64) {{ unsafe {{ self.a_{n}.write_volatile((v & {mask}u64) as u{st}) }} }}").unwrap();
            }
            writeln!(methods, "    /// Port `{n}` ({w} bits).\n    #[inline]\n    pub fn {n}(&self) -> u64 {{ unsafe {{ self.a_{n}.read_volatile() as u64 }} }}").unwrap();
        }
    }
    let has_clock = ports.iter().any(|p| p.name == "clock" && p.input);
    let set_clock = if has_clock {
        format!("{ty}::set_clock(self, level as u64)")
    } else {
        "let _ = level;".to_string()
    };
    format!(
        "extern \"C\" {{\n{ext}}}\n\n\
/// Verilator model of the `{top}` top. Each instance owns its own `VerilatedContext`.\n\
pub struct {ty} {{\n    p: *mut c_void,\n{fields}    _not_send: PhantomData<*const ()>,\n}}\n\n\
impl {ty} {{\n\
    /// Module name.\n    pub const NAME: &'static str = \"{top}\";\n\
    /// Ports as Verilator sees them.\n    pub const PORTS: &'static [PortInfo] = &[\n{port_list}    ];\n\
    /// A new model; `x_seed` seeds the random values of uninitialised state (`--x-initial unique`).\n\
    pub fn new(x_seed: u64) -> Self {{\n        unsafe {{\n            let p = nm_{top}_new(x_seed);\n            {ty} {{\n                p,\n{inits}                _not_send: PhantomData,\n            }}\n        }}\n    }}\n\
{methods}}}\n\n\
impl Model for {ty} {{\n\
    fn name(&self) -> &'static str {{ Self::NAME }}\n\
    fn set_clock(&mut self, level: bool) {{ {set_clock} }}\n\
    fn eval(&mut self) {{ unsafe {{ nm_{top}_eval(self.p) }} }}\n\
    fn trace_open(&mut self, path: &std::path::Path) -> bool {{\n        let Ok(c) = std::ffi::CString::new(path.to_string_lossy().as_bytes()) else {{ return false }};\n        unsafe {{ nm_{top}_trace_open(self.p, c.as_ptr()) != 0 }}\n    }}\n\
    fn dump(&mut self, t: u64) {{ unsafe {{ nm_{top}_dump(self.p, t) }} }}\n\
}}\n\n\
impl Drop for {ty} {{\n    fn drop(&mut self) {{ unsafe {{ nm_{top}_delete(self.p) }} }}\n}}\n\n"
    )
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=VERILATOR");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
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
    let root = run(Command::new(&verilator).args(["--getenv", "VERILATOR_ROOT"]), "verilator --getenv")
        .trim()
        .to_string();
    let include = Path::new(&root).join("include");

    let tops = hdl::emit::all_tops(false, true).unwrap_or_else(|e| fail(&format!("Verilog generation: {e}")));
    let vdir = out.join("verilog");
    hdl::emit::write_all(&vdir, &tops).unwrap_or_else(|e| fail(&format!("writing Verilog: {e}")));

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .opt_level(2)
        .warnings(false)
        .flag_if_supported("-std=c++17")
        .flag_if_supported("-faligned-new")
        .define("VM_SC", "0")
        .include(&include)
        .include(include.join("vltstd"));
    // The runtime sources and VM_* switches this Verilator's generated code needs, read from the first
    // model's V<top>_classes.mk (their list differs between Verilator releases).
    let mut runtime: Option<(Vec<String>, Vec<(String, String)>)> = None;
    let shims = String::from(
        "// Generated by testbench/build.rs. Shared by every model shim.\n#include <mutex>\n\
         std::mutex nm_construct_mutex;\n",
    );
    let mut models = format!(
        "// Generated by testbench/build.rs from {version}. Do not edit.\n\
use std::ffi::c_void;\nuse std::os::raw::c_char;\nuse std::marker::PhantomData;\n\
use crate::harness::{{Model, PortInfo}};\n\n"
    );
    for t in &tops {
        let mdir = out.join("obj").join(&t.name);
        let _ = std::fs::remove_dir_all(&mdir);
        std::fs::create_dir_all(&mdir).unwrap_or_else(|e| fail(&format!("creating {}: {e}", mdir.display())));
        run(
            Command::new(&verilator)
                .args(["--cc", "-O3", "--trace", "--x-initial", "unique", "--x-assign", "unique"])
                .args(["--top-module", &t.name, "--prefix", &format!("V{}", t.name)])
                .arg("-Mdir")
                .arg(&mdir)
                .arg(vdir.join(format!("{}.v", t.name))),
            &format!("verilator on {}", t.name),
        );
        let header = std::fs::read_to_string(mdir.join(format!("V{}.h", t.name)))
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
        if runtime.is_none() {
            let mk = std::fs::read_to_string(mdir.join(format!("V{}_classes.mk", t.name)))
                .unwrap_or_else(|e| fail(&format!("reading V{}_classes.mk: {e}", t.name)));
            runtime = Some(parse_classes_mk(&mk));
        }
        let shim = mdir.join(format!("nm_shim_{}.cpp", t.name));
        std::fs::write(&shim, shim_cpp(&t.name, &ports)).unwrap();
        let mut cpps: Vec<PathBuf> = std::fs::read_dir(&mdir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().map(|x| x == "cpp").unwrap_or(false))
            .collect();
        cpps.sort();
        build.include(&mdir).files(cpps);
        models += &rust_model(&t.name, &ports);
    }
    let (globals, switches) = runtime.unwrap_or_else(|| fail("no top modules to build"));
    for g in globals {
        build.file(include.join(format!("{g}.cpp")));
    }
    for (k, v) in switches {
        build.define(&k, v.as_str());
    }
    let common = out.join("obj").join("nm_common.cpp");
    std::fs::write(&common, shims).unwrap();
    build.file(common);
    build.compile("netmeas_verilated");
    println!("cargo:rustc-link-lib=pthread");
    std::fs::write(out.join("models.rs"), models).unwrap();
    println!("cargo:rustc-env=NETMEAS_VERILATOR_VERSION={version}");
    println!("cargo:rustc-env=NETMEAS_VERILOG_DIR={}", vdir.display());
}
