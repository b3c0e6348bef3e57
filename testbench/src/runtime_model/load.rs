//! Loading a run-time model's shared object ([`DynLib`]: its ports from the Verilator header, the shim's
//! functions) and instances of it ([`DynModel`]: ports read and written by index).

use crate::harness::Model;
use crate::shim::{self, PortDecl};
use std::ffi::c_void;
use std::path::Path;
use std::sync::Arc;

use super::Built;

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
