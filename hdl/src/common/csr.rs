//! CSR bank (`Csr<CW, SW>`): config registers (read/write, reset to defaults) and status inputs
//! (read-only), on an 8-bit address / 32-bit data port with a one-cycle read latency.
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
        let mut v = String::new();
        if initial_values() {
            v += &format!("initial begin\n   cfg = {defaults};\n   rd_valid = 1'b0;\n   rd_data = 32'h0;\nend\n");
        }
        v += "always @(posedge clock) begin\n   if (reset) begin\n";
        v += &format!("      cfg <= {defaults};\n      rd_valid <= 1'b0;\n      rd_data <= 32'h0;\n");
        v += "   end else begin\n      rd_valid <= rd_en;\n      if (rd_en) begin\n         case (addr)\n";
        for (k, (name, _)) in layout.config.iter().enumerate() {
            v += &format!("            8'h{k:02x}: rd_data <= cfg[{}:{}]; // {name}\n", 32 * k + 31, 32 * k);
        }
        for (k, name) in layout.status.iter().enumerate() {
            let a = CSR_STATUS_BASE as usize + k;
            v += &format!("            8'h{a:02x}: rd_data <= status[{}:{}]; // {name}\n", 32 * k + 31, 32 * k);
        }
        if let Some(id) = layout.ident {
            v += &format!("            8'h{CSR_ID_ADDR:02x}: rd_data <= 32'h{:08x}; // core_id {}\n", id.id, id.code());
            v +=
                &format!("            8'h{CSR_VERSION_ADDR:02x}: rd_data <= 32'h{:08x}; // core_version\n", id.version);
        }
        v += &format!("            default: rd_data <= 32'h{CSR_UNMAPPED:08x};\n         endcase\n      end\n");
        v += "      if (wr_en) begin\n         case (addr)\n";
        for (k, (name, _)) in layout.config.iter().enumerate() {
            v += &format!("            8'h{k:02x}: cfg[{}:{}] <= wr_data; // {name}\n", 32 * k + 31, 32 * k);
        }
        v += "            default: ;\n         endcase\n      end\n   end\nend\n";
        Verilog::Custom(v)
    }
}
