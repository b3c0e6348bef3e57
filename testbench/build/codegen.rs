//! Code generation of the testbench build: the Rust model of a top (see `build.rs`; the C++ shim and the
//! header parsers are `shim.rs`, shared with the run-time models).

use crate::shim::PortDecl;
use std::fmt::Write as _;

fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
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
    let axil = axil_pins(&ty, ports);
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
impl Drop for {ty} {{\n    fn drop(&mut self) {{ unsafe {{ nm_{top}_delete(self.p) }} }}\n}}\n\n{axil}"
    )
}

/// `crate::axi_core::AxilPins` for a model with AXI4-Lite slaves (`s_axil_*`, or `s_axil_<p>_*` per CSR
/// port of a top with several: bus k = the k-th in port order); nothing for other models.
fn axil_pins(ty: &str, ports: &[PortDecl]) -> String {
    let buses: Vec<&str> = ports
        .iter()
        .filter_map(|p| p.name.strip_suffix("_awvalid"))
        .filter(|b| *b == "s_axil" || b.starts_with("s_axil_"))
        .collect();
    if buses.is_empty() {
        return String::new();
    }
    let (mut set, mut get, mut names) = (String::new(), String::new(), String::new());
    // The signal lists and value orders are golden's (`golden::common::axil`).
    use hdl::golden::common::axil::{MASTER_SIGNALS, SLAVE_SIGNALS};
    for (k, b) in buses.iter().enumerate() {
        let sets: String =
            MASTER_SIGNALS.iter().enumerate().map(|(j, n)| format!("self.set_{b}_{n}(v[{j}]); ")).collect();
        writeln!(set, "            {k} => {{ {sets}}}").unwrap();
        let gets: String = SLAVE_SIGNALS.iter().map(|n| format!("self.{b}_{n}(), ")).collect();
        writeln!(get, "            {k} => AxilOutputs::from_bus_values([{gets}]),").unwrap();
        write!(names, "\"{b}\", ").unwrap();
    }
    format!(
        "impl crate::axi_core::AxilPins for {ty} {{\n\
    fn axil_buses(&self) -> &'static [&'static str] {{ &[{names}] }}\n\
    fn set_axil(&mut self, bus: usize, i: &golden::common::axil::AxilInputs) {{\n        let v = i.bus_values();\n        match bus {{\n{set}            _ => panic!(\"no AXI4-Lite bus {{bus}}\"),\n        }}\n    }}\n\
    fn axil(&self, bus: usize) -> golden::common::axil::AxilOutputs {{\n        use golden::common::axil::AxilOutputs;\n        match bus {{\n{get}            _ => panic!(\"no AXI4-Lite bus {{bus}}\"),\n        }}\n    }}\n\
}}\n\n"
    )
}
