//! CSR port: run-time configuration registers and read-only status/counter registers.
//!
//! Address map (8-bit address, 32-bit data): config register `k` at address `k` (read/write, reset to its
//! default); status register `k` at [`CSR_STATUS_BASE`]` + k` (read-only, the core's live value); a core's
//! identity at [`CSR_ID_ADDR`] and version at [`CSR_VERSION_ADDR`] (read-only constants); any other
//! address reads [`CSR_UNMAPPED`] and ignores writes.
//!
//! [`CsrLayout`] is a core's register map, declared once (in the core's golden model): names, reset values
//! and one-line descriptions of every register, and the core's identity. Everything else follows from it:
//! the addresses, the RTL bank (`hdl::common::csr`), the bit offsets of each register in the bank's
//! `cfg`/`status` buses ([`CsrLayout::config_offset`], [`CsrLayout::status_offset`]), the manifest entry
//! ([`CsrLayout::registers`]), a Markdown table ([`CsrLayout::markdown`]) and a C header
//! ([`CsrLayout::c_header`]). A write in cycle `c` takes effect at the edge ending
//! `c`. A read request (`rd_en`) in cycle `c` answers in `c + L` with `rd_valid` and `rd_data`, `L` the map's
//! [`CsrLayout::read_latency`] (1, or 2 for a bank whose read is registered after a first level of its
//! multiplexer: [`CsrLayout::with_registered_read`]); it returns the config value before a same-cycle write
//! and the status value of cycle `c`. Between answers `rd_data` holds the last one.

use super::config::{ConfigError, CSR_ID_ADDR, CSR_STATUS_BASE, CSR_UNMAPPED, CSR_VERSION_ADDR};

/// SystemRDL 2.0 keywords (an instance with one of these names must be escaped).
const RDL_KEYWORDS: &[&str] = &[
    "abstract", "accesstype", "addressingtype", "addrmap", "alias", "all", "bit", "boolean", "bothedge", "compact",
    "component", "componentwidth", "constraint", "default", "encode", "enum", "external", "false", "field",
    "fullalign", "hw", "inside", "internal", "level", "longint", "mem", "na", "negedge", "nonsticky", "number",
    "onreadtype", "onwritetype", "posedge", "precedencetype", "property", "r", "rclr", "ref", "reg", "regfile",
    "rset", "ruser", "rw", "rw1", "signal", "string", "struct", "sw", "this", "true", "type", "unsigned", "w",
    "w1", "wclr", "woclr", "woset", "wot", "wr", "wset", "wuser", "wzc", "wzs", "wzt",
];

/// A core's identity, readable at [`CSR_ID_ADDR`] and [`CSR_VERSION_ADDR`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CoreIdent {
    /// Four ASCII characters, first character in the most significant byte (`FRDG` = 0x46524447).
    pub id: u32,
    /// `major << 16 | minor`: the major number changes with an incompatible register map.
    pub version: u32,
}

impl CoreIdent {
    /// `code` (four ASCII characters) at version `major.minor`.
    pub const fn new(code: &[u8; 4], major: u16, minor: u16) -> Self {
        CoreIdent { id: u32::from_be_bytes(*code), version: (major as u32) << 16 | minor as u32 }
    }
    /// The four-character code.
    pub fn code(&self) -> String {
        self.id.to_be_bytes().iter().map(|&b| b as char).collect()
    }
}

/// Whether software may write a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    /// Config: read/write, reset to its default.
    Rw,
    /// Status or identity: read-only.
    Ro,
}

/// One register of a map, as the manifest, the Markdown table and the C header list it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Register {
    pub name: String,
    pub addr: u8,
    pub access: Access,
    /// Reset value (config and identity registers; `None` for live status values).
    pub reset: Option<u32>,
    pub doc: String,
}

impl Register {
    /// Byte offset on the AXI4-Lite bus (`golden::common::axil`): four bytes per register.
    pub fn offset(&self) -> u16 {
        4 * self.addr as u16
    }
}

/// The register map of one CSR bank (generation-time).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CsrLayout {
    /// Names and reset values of the config registers (addresses 0..).
    pub config: Vec<(String, u32)>,
    /// Names of the status registers (addresses CSR_STATUS_BASE..).
    pub status: Vec<String>,
    /// The core's identity (`None`: [`CSR_ID_ADDR`] and [`CSR_VERSION_ADDR`] read as unmapped).
    pub ident: Option<CoreIdent>,
    /// One-line description per register name (every register has one: [`Self::check`]).
    pub docs: Vec<(String, String)>,
    /// Cycles from a read request to its answer: 1, or 2 with [`Self::with_registered_read`].
    pub read_latency: u8,
}

impl CsrLayout {
    /// A map without identity or descriptions (a test bank); see [`Self::with_ident`], [`Self::doc`].
    pub fn new(config: Vec<(String, u32)>, status: Vec<String>) -> Self {
        CsrLayout { config, status, ident: None, docs: vec![], read_latency: 1 }
    }
    /// The same map read in two cycles: the bank registers each group of eight addresses' word (chosen by
    /// the address's low three bits) in the read's cycle and the group's in the next, so no path runs
    /// through the whole read multiplexer (a core with many status registers spread over the die: the
    /// header parser's eighteen counters).
    pub fn with_registered_read(mut self) -> Self {
        self.read_latency = 2;
        self
    }
    /// The same map with identity registers.
    pub fn with_ident(mut self, ident: CoreIdent) -> Self {
        self.ident = Some(ident);
        self
    }
    /// Describes register `name` (one line).
    pub fn doc(mut self, name: impl Into<String>, doc: impl Into<String>) -> Self {
        self.docs.push((name.into(), doc.into()));
        self
    }
    pub fn check(&self) -> Result<(), ConfigError> {
        if !(1..=2).contains(&self.read_latency) {
            return Err(ConfigError(format!("CSR read latency {}: 1 or 2", self.read_latency)));
        }
        if self.config.is_empty() {
            return Err(ConfigError("a CSR bank needs at least one config register".into()));
        }
        // The identity registers sit at the top of the status window.
        let status_room = CSR_ID_ADDR.min(CSR_VERSION_ADDR) as usize - CSR_STATUS_BASE as usize;
        if self.config.len() > CSR_STATUS_BASE as usize || self.status.len() > status_room {
            return Err(ConfigError(format!(
                "CSR bank with {} config and {} status registers does not fit the 8-bit address map",
                self.config.len(),
                self.status.len()
            )));
        }
        if self.ident.is_some() {
            for r in self.registers() {
                if r.doc.is_empty() {
                    return Err(ConfigError(format!("CSR register {} has no description", r.name)));
                }
            }
        }
        Ok(())
    }
    /// Every register in address order, with its description (empty if none was given).
    pub fn registers(&self) -> Vec<Register> {
        let doc = |n: &str| self.docs.iter().find(|(d, _)| d == n).map(|(_, t)| t.clone()).unwrap_or_default();
        let mut out: Vec<Register> = self
            .config
            .iter()
            .enumerate()
            .map(|(k, (n, v))| Register {
                name: n.clone(),
                addr: k as u8,
                access: Access::Rw,
                reset: Some(*v),
                doc: doc(n),
            })
            .collect();
        out.extend(self.status.iter().enumerate().map(|(k, n)| Register {
            name: n.clone(),
            addr: CSR_STATUS_BASE + k as u8,
            access: Access::Ro,
            reset: None,
            doc: doc(n),
        }));
        if let Some(id) = self.ident {
            out.push(Register {
                name: "core_id".into(),
                addr: CSR_ID_ADDR,
                access: Access::Ro,
                reset: Some(id.id),
                doc: format!("core identity, the four characters `{}`", id.code()),
            });
            out.push(Register {
                name: "core_version".into(),
                addr: CSR_VERSION_ADDR,
                access: Access::Ro,
                reset: Some(id.version),
                doc: format!("register-map version {}.{} (major << 16 | minor)", id.version >> 16, id.version & 0xffff),
            });
        }
        out
    }
    /// Bit offset of config register `name` in the bank's `cfg` bus.
    pub fn config_offset(&self, name: &str) -> Option<usize> {
        self.config_addr(name).map(|a| 32 * a as usize)
    }
    /// Bit offset of status register `name` in the bank's `status` bus.
    pub fn status_offset(&self, name: &str) -> Option<usize> {
        self.status.iter().position(|n| n == name).map(|k| 32 * k)
    }
    /// The map as a Markdown table (address, name, access, reset value, description).
    pub fn markdown(&self, title: &str) -> String {
        let mut s = format!("# {title}\n\n");
        if let Some(id) = self.ident {
            s += &format!(
                "Core `{}` (0x{:08x}), register map {}.{}. 8-bit address, 32-bit data; unmapped addresses read \
                 0x{CSR_UNMAPPED:08x} and ignore writes; a read is answered {} cycle{} after its request.\n\n",
                id.code(),
                id.id,
                id.version >> 16,
                id.version & 0xffff,
                self.read_latency,
                if self.read_latency == 1 { "" } else { "s" }
            );
        }
        s += "| address | AXI offset | name | access | reset | description |\n|---|---|---|---|---|---|\n";
        for r in self.registers() {
            let reset = r.reset.map(|v| format!("0x{v:08x}")).unwrap_or_else(|| "live".into());
            let access = if r.access == Access::Rw { "rw" } else { "ro" };
            let doc = r.doc.replace('|', "\\|");
            s += &format!("| 0x{:02x} | 0x{:03x} | `{}` | {access} | {reset} | {doc} |\n", r.addr, r.offset(), r.name);
        }
        s
    }
    /// The map as a C header: `<PREFIX>_<NAME>_ADDR` (CSR address) and `_OFFSET` (byte offset on the
    /// AXI4-Lite bus) per register, `_RESET` where it has one (the identity constants among them).
    pub fn c_header(&self, prefix: &str) -> String {
        let p = prefix.to_ascii_uppercase();
        let mut s = format!(
            "/* {prefix} register map: generated by netmeas from the golden model; do not edit. */\n\
             #ifndef {p}_REGS_H\n#define {p}_REGS_H\n\n"
        );
        for r in self.registers() {
            let n = r.name.to_ascii_uppercase();
            s += &format!("/* {} */\n#define {p}_{n}_ADDR 0x{:02x}u\n", r.doc.replace("*/", "* /"), r.addr);
            s += &format!("#define {p}_{n}_OFFSET 0x{:03x}u\n", r.offset());
            if let Some(v) = r.reset {
                s += &format!("#define {p}_{n}_RESET 0x{v:08x}u\n");
            }
        }
        s += &format!("\n#endif /* {p}_REGS_H */\n");
        s
    }
    /// The map as SystemRDL 2.0: an `addrmap` `<prefix>` of 32-bit registers at their AXI byte offsets, each
    /// with one 32-bit field `value` (software read/write and its reset value for config, read-only for
    /// status and identity).
    pub fn systemrdl(&self, prefix: &str, title: &str) -> String {
        let quote = |t: &str| t.replace('\\', "\\\\").replace('"', "\\\"");
        let mut s = format!(
            "// {prefix} register map: generated by netmeas from the golden model; do not edit.\n\
             addrmap {prefix} {{\n    name = \"{}\";\n    default regwidth = 32;\n",
            quote(title)
        );
        for r in self.registers() {
            let (sw, hw) = if r.access == Access::Rw { ("rw", "r") } else { ("r", "w") };
            let reset = r.reset.map(|v| format!(" = 0x{v:08x}")).unwrap_or_default();
            // A register named like a SystemRDL keyword is written as an escaped identifier.
            let name = if RDL_KEYWORDS.contains(&r.name.as_str()) { format!("\\{}", r.name) } else { r.name.clone() };
            s += &format!("    reg {{\n        desc = \"{}\";\n", quote(&r.doc));
            s += &format!("        field {{ sw = {sw}; hw = {hw}; }} value[31:0]{reset};\n");
            s += &format!("    }} {name} @ 0x{:03x};\n", r.offset());
        }
        s + "};\n"
    }
    pub fn config_addr(&self, name: &str) -> Option<u8> {
        self.config.iter().position(|(n, _)| n == name).map(|p| p as u8)
    }
    pub fn status_addr(&self, name: &str) -> Option<u8> {
        self.status.iter().position(|n| n == name).map(|p| CSR_STATUS_BASE + p as u8)
    }
}

/// One cycle's request on a CSR port, for a core with several ports (one per sub-core: the reordering
/// hybrid): its reset and the port's four pins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CsrRequest {
    pub reset: bool,
    pub addr: u8,
    pub wr_en: bool,
    pub wr_data: u32,
    pub rd_en: bool,
}

#[derive(Debug, Clone, Default)]
pub struct CsrInputs {
    pub reset: bool,
    pub addr: u8,
    pub wr_en: bool,
    pub wr_data: u32,
    pub rd_en: bool,
    pub status: Vec<u32>,
}

/// The CSR request pins of a golden inputs struct (a core's `reset`, `csr_addr`, `csr_wr_en`,
/// `csr_wr_data`, `csr_rd_en`): what a core's cycle model hands its [`CsrModel`]
/// ([`CsrInputs::from_port`]) and what the testbench's CSR driver sets.
pub trait CsrPort {
    fn reset(&self) -> bool;
    fn set_csr(&mut self, addr: u8, write: Option<u32>, read: bool);
    /// Is this cycle's request a read?
    fn csr_read(&self) -> bool;
    /// This cycle's request: address, write enable, write data, read enable.
    fn csr_request(&self) -> (u8, bool, u32, bool);
}

impl CsrInputs {
    /// The bank's inputs this cycle: the request on `port` and the status words the core computed.
    pub fn from_port(port: &impl CsrPort, status: Vec<u32>) -> CsrInputs {
        let (addr, wr_en, wr_data, rd_en) = port.csr_request();
        CsrInputs { reset: port.reset(), addr, wr_en, wr_data, rd_en, status }
    }
}

macro_rules! csr_port {
    ($t:ty, $addr:ident, $wr_en:ident, $wr_data:ident, $rd_en:ident) => {
        impl CsrPort for $t {
            fn reset(&self) -> bool {
                self.reset
            }
            fn set_csr(&mut self, addr: u8, write: Option<u32>, read: bool) {
                (self.$addr, self.$wr_en, self.$wr_data, self.$rd_en) =
                    (addr, write.is_some(), write.unwrap_or(0), read);
            }
            fn csr_read(&self) -> bool {
                self.$rd_en
            }
            fn csr_request(&self) -> (u8, bool, u32, bool) {
                (self.$addr, self.$wr_en, self.$wr_data, self.$rd_en)
            }
        }
    };
}
csr_port!(crate::fridge::cycle::FridgeInputs, csr_addr, csr_wr_en, csr_wr_data, csr_rd_en);
csr_port!(crate::finecomb::cycle::FinecombInputs, csr_addr, csr_wr_en, csr_wr_data, csr_rd_en);
csr_port!(crate::heavy_hitters::cycle::HhInputs, csr_addr, csr_wr_en, csr_wr_data, csr_rd_en);
csr_port!(crate::ifpd::cycle::IfpdInputs, csr_addr, csr_wr_en, csr_wr_data, csr_rd_en);
csr_port!(crate::maple::cycle::MapleInputs, csr_addr, csr_wr_en, csr_wr_data, csr_rd_en);
csr_port!(crate::reordering::cycle::ReorderInputs, csr_addr, csr_wr_en, csr_wr_data, csr_rd_en);
csr_port!(CsrInputs, addr, wr_en, wr_data, rd_en);
csr_port!(CsrRequest, addr, wr_en, wr_data, rd_en);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsrOutputs {
    pub rd_valid: bool,
    pub rd_data: u32,
    pub config: Vec<u32>,
}

#[derive(Debug, Clone)]
pub struct CsrModel {
    pub layout: CsrLayout,
    config: Vec<u32>,
    rd_valid: bool,
    rd_data: u32,
    /// Read latency 2: the read requested last cycle and its word (held between reads).
    first: (bool, u32),
    started: bool,
}

impl CsrModel {
    pub fn new(layout: CsrLayout) -> Self {
        let config = layout.config.iter().map(|c| c.1).collect();
        CsrModel { layout, config, rd_valid: false, rd_data: 0, first: (false, 0), started: false }
    }
    /// The config registers now.
    pub fn config(&self) -> &[u32] {
        &self.config
    }
    /// The value a read of `addr` returns in this state with these status inputs.
    pub fn read(&self, addr: u8, status: &[u32]) -> u32 {
        let a = addr as usize;
        let s = CSR_STATUS_BASE as usize;
        if a < self.config.len() {
            self.config[a]
        } else if a >= s && a - s < self.layout.status.len() {
            status.get(a - s).copied().unwrap_or(0)
        } else {
            match (self.layout.ident, addr) {
                (Some(id), CSR_ID_ADDR) => id.id,
                (Some(id), CSR_VERSION_ADDR) => id.version,
                _ => CSR_UNMAPPED,
            }
        }
    }
    /// Outputs during this cycle (`None` before the first reset): registered, so known before the inputs.
    pub fn outputs(&self) -> Option<CsrOutputs> {
        self.started.then(|| CsrOutputs { rd_valid: self.rd_valid, rd_data: self.rd_data, config: self.config.clone() })
    }
    /// Outputs during this cycle (`None` before the first reset), then the edge.
    pub fn step(&mut self, i: &CsrInputs) -> Option<CsrOutputs> {
        let out = self.outputs();
        if i.reset {
            self.config = self.layout.config.iter().map(|c| c.1).collect();
            self.rd_valid = false;
            self.rd_data = 0;
            self.first.0 = false;
            self.started = true;
            return out;
        }
        let word = if i.rd_en { self.read(i.addr, &i.status) } else { self.first.1 };
        if self.layout.read_latency == 2 {
            let (valid, held) = std::mem::replace(&mut self.first, (i.rd_en, word));
            self.rd_valid = valid;
            if valid {
                self.rd_data = held;
            }
        } else {
            if i.rd_en {
                self.rd_data = word;
            }
            self.rd_valid = i.rd_en;
        }
        if i.wr_en && (i.addr as usize) < self.config.len() {
            self.config[i.addr as usize] = i.wr_data;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registered_read_answers_a_cycle_later_with_the_request_cycles_values() {
        let l = layout();
        let mut one = CsrModel::new(l.clone());
        let mut two = CsrModel::new(l.clone().with_registered_read());
        let req = |reset, addr, rd_en, wr: Option<u32>, st: u32| CsrInputs {
            reset,
            addr,
            wr_en: wr.is_some(),
            wr_data: wr.unwrap_or(0),
            rd_en,
            status: vec![st],
        };
        let script = [
            req(true, 0, false, None, 0),
            req(false, CSR_STATUS_BASE, true, None, 5), // status of this cycle: 5
            req(false, 1, true, Some(9), 6),            // config before the same-cycle write: 7
            req(false, 1, true, None, 6),               // now 9
            req(false, 0, false, None, 6),
            req(false, 0, false, None, 6),
        ];
        let outs = |m: &mut CsrModel| -> Vec<(bool, u32)> {
            script.iter().map(|i| m.step(i).map_or((false, 0), |o| (o.rd_valid, o.rd_data))).collect()
        };
        let (a, b) = (outs(&mut one), outs(&mut two));
        assert_eq!(a, [(false, 0), (false, 0), (true, 5), (true, 7), (true, 9), (false, 9)]);
        // The same answers one cycle later; rd_data holds between answers.
        assert_eq!(b, [(false, 0), (false, 0), (false, 0), (true, 5), (true, 7), (true, 9)]);
        assert!(CsrLayout { read_latency: 3, ..l }.check().is_err());
    }

    fn layout() -> CsrLayout {
        CsrLayout::new(vec![("mode".into(), 1), ("threshold".into(), 7)], vec!["packets".into()])
            .with_ident(CoreIdent::new(b"TEST", 2, 3))
            .doc("mode", "operating mode")
            .doc("threshold", "sampling threshold")
            .doc("packets", "packets seen")
    }

    #[test]
    fn identity_registers_read_their_constants_and_ignore_writes() {
        let mut m = CsrModel::new(layout());
        m.step(&CsrInputs { reset: true, ..Default::default() });
        assert_eq!(m.read(CSR_ID_ADDR, &[5]), u32::from_be_bytes(*b"TEST"));
        assert_eq!(m.read(CSR_VERSION_ADDR, &[5]), 0x0002_0003);
        m.step(&CsrInputs { addr: CSR_ID_ADDR, wr_en: true, wr_data: 9, status: vec![5], ..Default::default() });
        assert_eq!(m.read(CSR_ID_ADDR, &[5]), u32::from_be_bytes(*b"TEST"));
        assert_eq!(m.read(CSR_STATUS_BASE, &[5]), 5);
        assert_eq!(m.read(CSR_STATUS_BASE + 1, &[5]), CSR_UNMAPPED);
        let plain = CsrModel::new(CsrLayout::new(vec![("a".into(), 0)], vec![]));
        assert_eq!(plain.read(CSR_ID_ADDR, &[]), CSR_UNMAPPED);
    }

    #[test]
    fn the_map_renders_as_markdown_c_and_offsets() {
        let l = layout();
        l.check().unwrap();
        assert_eq!(l.config_offset("threshold"), Some(32));
        assert_eq!(l.status_offset("packets"), Some(0));
        assert_eq!(l.config_offset("nope"), None);
        let md = l.markdown("test core");
        assert!(md.contains("| 0x01 | 0x004 | `threshold` | rw | 0x00000007 | sampling threshold |"), "{md}");
        assert!(md.contains("| 0x80 | 0x200 | `packets` | ro | live | packets seen |"), "{md}");
        assert!(md.contains("| 0xfe | 0x3f8 | `core_id` | ro | 0x54455354 |"), "{md}");
        let h = l.c_header("nm_test");
        assert!(h.contains("#define NM_TEST_THRESHOLD_ADDR 0x01u"), "{h}");
        assert!(h.contains("#define NM_TEST_THRESHOLD_OFFSET 0x004u"), "{h}");
        assert!(h.contains("#define NM_TEST_CORE_VERSION_RESET 0x00020003u"), "{h}");
        assert_eq!(l.registers().len(), 5);
        let rdl = l.systemrdl("nm_test", "test core");
        let threshold = "field { sw = rw; hw = r; } value[31:0] = 0x00000007;\n    } threshold @ 0x004;";
        assert!(rdl.contains(threshold), "{rdl}");
        assert!(rdl.contains("field { sw = r; hw = w; } value[31:0];\n    } packets @ 0x200;"), "{rdl}");
        let keyword = CsrLayout::new(vec![("type".into(), 0)], vec![]).systemrdl("k", "k");
        assert!(keyword.contains("} \\type @ 0x000;"), "{keyword}");
    }

    #[test]
    fn a_core_map_needs_every_description() {
        let l = CsrLayout::new(vec![("mode".into(), 1)], vec![]).with_ident(CoreIdent::new(b"TEST", 1, 0));
        assert!(l.check().unwrap_err().0.contains("mode has no description"));
    }
}
