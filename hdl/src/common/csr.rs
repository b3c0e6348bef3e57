//! CSR bank (`Csr<CW, SW>`): config registers (read/write, reset to defaults) and status inputs
//! (read-only), on an 8-bit address / 32-bit data port with a one-cycle read latency — or two, for a layout
//! `with_registered_read` (a first level of the read multiplexer registered: each group of eight addresses'
//! word by `addr[2:0]`, then the group by the registered `addr[7:3]`).
//!
//! Generated from a [`CsrLayout`] (the golden model's, so software and RTL share the address map):
//! config register `k` is `cfg[32k+31:32k]` at address `k`; status `k` is `status[32k+31:32k]` at
//! `CSR_STATUS_BASE + k`; a layout with an identity answers `CSR_ID_ADDR` and `CSR_VERSION_ADDR` with its
//! constants. CW = 32 × config registers, SW = 32 × status registers. The register count
//! varies per core, so the bank is generated text with one `case` arm per register.
//! Model: `golden::common::csr`.

use super::reg::initial_values;
use golden::common::config::{ConfigError, CSR_ID_ADDR, CSR_STATUS_BASE, CSR_UNMAPPED, CSR_VERSION_ADDR};
use golden::common::csr::{CsrLayout, CsrModel};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Csr<const CW: usize, const SW: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub addr: Signal<In, Bits<8>>,
    pub wr_en: Signal<In, bool>,
    pub wr_data: Signal<In, Bits<32>>,
    pub rd_en: Signal<In, bool>,
    pub rd_valid: Signal<Out, bool>,
    pub rd_data: Signal<Out, Bits<32>>,
    pub cfg: Signal<Out, Bits<CW>>,
    pub status: Signal<In, Bits<SW>>,
    _model: CsrModel,
}

impl<const CW: usize, const SW: usize> Csr<CW, SW> {
    pub fn new(layout: CsrLayout) -> Result<Self, ConfigError> {
        layout.check()?;
        if CW != 32 * layout.config.len() || SW != 32 * layout.status.len() {
            return Err(ConfigError(format!(
                "Csr<{CW}, {SW}> does not match a layout of {} config and {} status registers",
                layout.config.len(),
                layout.status.len()
            )));
        }
        Ok(Csr {
            clock: Default::default(),
            reset: Default::default(),
            addr: Default::default(),
            wr_en: Default::default(),
            wr_data: Default::default(),
            rd_en: Default::default(),
            rd_valid: Default::default(),
            rd_data: Default::default(),
            cfg: Default::default(),
            status: Default::default(),
            _model: CsrModel::new(layout),
        })
    }
    pub fn layout(&self) -> &CsrLayout {
        &self._model.layout
    }
}

fn defaults_literal(layout: &CsrLayout) -> String {
    let words: Vec<String> = layout.config.iter().rev().map(|(_, v)| format!("32'h{v:08x}")).collect();
    format!("{{{}}}", words.join(", "))
}

impl<const CW: usize, const SW: usize> Logic for Csr<CW, SW> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            use golden::common::csr::CsrInputs;
            let status: Vec<u32> = (0..SW / 32).map(|k| self.status.val().get_bits::<32>(32 * k).to_u32()).collect();
            self._model.step(&CsrInputs {
                reset: self.reset.val(),
                addr: self.addr.val().to_u8(),
                wr_en: self.wr_en.val(),
                wr_data: self.wr_data.val().to_u32(),
                rd_en: self.rd_en.val(),
                status,
            });
            // The model's outputs of the next cycle are its new state (nothing is defined before a reset).
            let Some(next) = self._model.clone().step(&CsrInputs::default()) else { return };
            self.rd_valid.next = next.rd_valid;
            self.rd_data.next = Bits::from(next.rd_data as u64);
            let mut cfg = Bits::<CW>::default();
            for (k, v) in next.config.iter().enumerate() {
                cfg = cfg | (Bits::<CW>::from(*v as u64) << (32 * k) as u64);
            }
            self.cfg.next = cfg;
        }
    }
    fn connect(&mut self) {
        self.rd_valid.connect();
        self.rd_data.connect();
        self.cfg.connect();
    }
    fn hdl(&self) -> Verilog {
        let layout = &self._model.layout;
        let defaults = defaults_literal(layout);
        // Every readable address and the expression it reads.
        let mut words: Vec<(usize, String, String)> = Vec::new();
        for (k, (name, _)) in layout.config.iter().enumerate() {
            words.push((k, format!("cfg[{}:{}]", 32 * k + 31, 32 * k), name.clone()));
        }
        for (k, name) in layout.status.iter().enumerate() {
            let a = CSR_STATUS_BASE as usize + k;
            words.push((a, format!("status[{}:{}]", 32 * k + 31, 32 * k), name.clone()));
        }
        if let Some(id) = layout.ident {
            words.push((CSR_ID_ADDR as usize, format!("32'h{:08x}", id.id), format!("core_id {}", id.code())));
            words.push((CSR_VERSION_ADDR as usize, format!("32'h{:08x}", id.version), "core_version".into()));
        }
        let registered = layout.read_latency == 2;
        // A registered read: group g holds addresses 8g..8g+7; its word is chosen by addr[2:0] in the read's
        // cycle (`part_g`), the group by the registered addr[7:3] in the next.
        let mut groups: Vec<usize> = words.iter().map(|w| w.0 / 8).collect();
        groups.sort_unstable();
        groups.dedup();
        let mut v = String::new();
        if registered {
            v += "reg rd_en_q;\nreg [4:0] grp_q;\n";
            for g in &groups {
                v += &format!("reg [31:0] part_{g};\n");
            }
        }
        if initial_values() {
            v += &format!("initial begin\n   cfg = {defaults};\n   rd_valid = 1'b0;\n   rd_data = 32'h0;\n");
            if registered {
                v += "   rd_en_q = 1'b0;\n   grp_q = 5'h0;\n";
                for g in &groups {
                    v += &format!("   part_{g} = 32'h0;\n");
                }
            }
            v += "end\n";
        }
        v += "always @(posedge clock) begin\n   if (reset) begin\n";
        v += &format!("      cfg <= {defaults};\n      rd_valid <= 1'b0;\n      rd_data <= 32'h0;\n");
        if registered {
            v += "      rd_en_q <= 1'b0;\n   end else begin\n      rd_en_q <= rd_en;\n      rd_valid <= rd_en_q;\n";
            v += "      if (rd_en) begin\n         grp_q <= addr[7:3];\n";
            for g in &groups {
                v += "         case (addr[2:0])\n";
                for (a, expr, name) in words.iter().filter(|w| w.0 / 8 == *g) {
                    v += &format!("            3'd{}: part_{g} <= {expr}; // {name}\n", a % 8);
                }
                v += &format!("            default: part_{g} <= 32'h{CSR_UNMAPPED:08x};\n         endcase\n");
            }
            v += "      end\n      if (rd_en_q) begin\n         case (grp_q)\n";
            for g in &groups {
                v += &format!("            5'd{g}: rd_data <= part_{g};\n");
            }
            v += &format!("            default: rd_data <= 32'h{CSR_UNMAPPED:08x};\n         endcase\n      end\n");
        } else {
            v += "   end else begin\n      rd_valid <= rd_en;\n      if (rd_en) begin\n         case (addr)\n";
            for (a, expr, name) in &words {
                v += &format!("            8'h{a:02x}: rd_data <= {expr}; // {name}\n");
            }
            v += &format!("            default: rd_data <= 32'h{CSR_UNMAPPED:08x};\n         endcase\n      end\n");
        }
        v += "      if (wr_en) begin\n         case (addr)\n";
        for (k, (name, _)) in layout.config.iter().enumerate() {
            v += &format!("            8'h{k:02x}: cfg[{}:{}] <= wr_data; // {name}\n", 32 * k + 31, 32 * k);
        }
        v += "            default: ;\n         endcase\n      end\n   end\nend\n";
        Verilog::Custom(v)
    }
}
