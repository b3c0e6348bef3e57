//! Code generation of the testbench build: Verilator header parsing, the C++ shim and the Rust model of a
//! top (see `build.rs`).

use std::fmt::Write as _;

pub struct PortDecl {
    pub name: String,
    pub input: bool,
    pub width: usize,
    /// Verilator storage: 8, 16, 32, 64 or 0 for VlWide.
    pub storage: usize,
    pub words: usize,
}

/// `VM_GLOBAL_FAST`/`VM_GLOBAL_SLOW` (runtime sources) and the `VM_* = n` switches of a `_classes.mk`.
pub fn parse_classes_mk(mk: &str) -> (Vec<String>, Vec<(String, String)>) {
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
            if k.starts_with("VM_")
                && !k.starts_with("VM_CLASSES")
                && !k.starts_with("VM_SUPPORT")
                && !k.starts_with("VM_GLOBAL")
                && v.chars().all(|c| c.is_ascii_digit())
                && !v.is_empty()
            {
                switches.push((k.to_string(), v.to_string()));
            }
        }
    }
    (globals, switches)
}

pub fn parse_ports(header: &str) -> Vec<PortDecl> {
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

pub fn shim_cpp(top: &str, ports: &[PortDecl]) -> String {
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
                writeln!(
                    s,
                    "void nm_{top}_set_{n}(void* p, uint64_t v) {{ static_cast<NmModel_{top}*>(p)->m->{n} = v; }}"
                )
                .unwrap();
            }
            writeln!(s, "uint64_t nm_{top}_get_{n}(void* p) {{ return static_cast<NmModel_{top}*>(p)->m->{n}; }}")
                .unwrap();
            writeln!(
                s,
                "void* nm_{top}_addr_{n}(void* p) {{ return (void*)&static_cast<NmModel_{top}*>(p)->m->{n}; }}"
            )
            .unwrap();
        }
    }
    s += "}\n";
    s
}

pub fn rust_model(top: &str, ports: &[PortDecl]) -> String {
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
    let clock = ports.iter().find(|p| p.input && hdl::emit::CLOCK_PORTS.contains(&p.name.as_str()));
    let set_clock = match clock {
        Some(c) => format!("{ty}::set_{}(self, level as u64)", c.name),
        None => "let _ = level;".to_string(),
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
