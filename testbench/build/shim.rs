//! The model-independent half of the testbench's code generation, shared by the build script (the models
//! of every registered top, `build.rs`) and the testbench library (a model Verilated at run time,
//! `crate::runtime_model`): Verilator's flags, the `V<top>.h` port parser, the `_classes.mk` parser and the
//! C++ shim with `extern "C"` new/eval/set/get/addr/trace/dump/delete per top.

use std::fmt::Write as _;

/// Verilator flags of every model (build-time and run-time alike).
pub const VERILATOR_FLAGS: &[&str] = &["--cc", "-O3", "--trace", "--x-initial", "unique", "--x-assign", "unique"];

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

