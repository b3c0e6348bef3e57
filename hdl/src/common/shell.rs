//! Core shell (`CoreShell<CW, SW>`): the control-plane plumbing every core wires the same way — the CSR
//! port passed to the [`Csr`] bank, the config bus out, and the status words packed into the bank's
//! `status` bus where the register map puts them.
//!
//! A core builds its shell from its [`CsrLayout`] and the names of the status registers in the order it
//! drives `status[i]`: word `i` lands at `layout.status_offset(names[i])`, and every status register of
//! the layout must be named exactly once. Config fields are placed the same way: [`cfg_field`] is a
//! [`Slice`] of the config bus at `layout.config_offset(name)`. No core computes a `32 * k` itself.
//!
//! The core's top-level ports stay flat (`csr_addr`, `csr_wr_en`, …): the testbench's generated bindings
//! and the CLI name them so. The shell's CSR side is the same six signals; a core wires them 1:1.

use super::bits::{consts, Slice, ZeroExt};
use super::csr::Csr;
use crate::declare_block;
use golden::common::config::ConfigError;
use golden::common::csr::CsrLayout;
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct CoreShell<const CW: usize, const SW: usize> fn build(csr: Csr<CW, SW>, offsets: Vec<usize>) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub csr_addr: Signal<In, Bits<8>>,
        pub csr_wr_en: Signal<In, bool>,
        pub csr_wr_data: Signal<In, Bits<32>>,
        pub csr_rd_en: Signal<In, bool>,
        pub csr_rd_valid: Signal<Out, bool>,
        pub csr_rd_data: Signal<Out, Bits<32>>,
        /// The config registers (register `name` at `layout.config_offset(name)`; see [`cfg_field`]).
        pub cfg: Signal<Out, Bits<CW>>,
        /// Status word `i`, in the order of the names given to [`CoreShell::new`].
        pub status: Vec<Signal<In, Bits<32>>> = offsets.iter().map(|_| Default::default()).collect(),
        csr: Csr<CW, SW> = csr,
        zx_status: Vec<ZeroExt<32, SW>> = offsets.iter().map(|_| ZeroExt::default()).collect(),
        off_status: Vec<Constant<Bits<16>>> = consts(offsets.iter().map(|&o| o as u64)),
        status_bus: Signal<Local, Bits<SW>>,
        zero_sw: Constant<Bits<SW>> = Constant::new(Bits::default()),
        _n: usize = offsets.len(),
    }
}

impl<const CW: usize, const SW: usize> CoreShell<CW, SW> {
    /// The shell of a core with register map `layout` whose status word `i` is the register `status[i]`.
    pub fn new(layout: CsrLayout, status: &[&str]) -> Result<Self, ConfigError> {
        let mut offsets = Vec::with_capacity(status.len());
        for name in status {
            let off = layout
                .status_offset(name)
                .ok_or_else(|| ConfigError(format!("CoreShell: no status register `{name}` in the layout")))?;
            if offsets.contains(&off) {
                return Err(ConfigError(format!("CoreShell: status register `{name}` driven twice")));
            }
            offsets.push(off);
        }
        if offsets.len() != layout.status.len() {
            return Err(ConfigError(format!(
                "CoreShell: {} status words driven, the layout has {}",
                offsets.len(),
                layout.status.len()
            )));
        }
        Ok(Self::build(Csr::new(layout)?, offsets))
    }
    pub fn layout(&self) -> &CsrLayout {
        self.csr.layout()
    }
}

/// The field of `N` bits at the start of config register `name` of `layout` (a [`Slice`] of the bus).
pub fn cfg_field<const CW: usize, const N: usize>(layout: &CsrLayout, name: &str) -> Result<Slice<CW, N>, ConfigError> {
    layout
        .config_offset(name)
        .map(Slice::new)
        .ok_or_else(|| ConfigError(format!("no config register `{name}` in the layout")))
}

impl<const CW: usize, const SW: usize> Logic for CoreShell<CW, SW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, csr);
        self.csr.reset.next = self.reset.val();
        self.csr.addr.next = self.csr_addr.val();
        self.csr.wr_en.next = self.csr_wr_en.val();
        self.csr.wr_data.next = self.csr_wr_data.val();
        self.csr.rd_en.next = self.csr_rd_en.val();
        self.csr_rd_valid.next = self.csr.rd_valid.val();
        self.csr_rd_data.next = self.csr.rd_data.val();
        self.cfg.next = self.csr.cfg.val();
        self.status_bus.next = self.zero_sw.val();
        for i in 0..self._n {
            self.zx_status[i].din.next = self.status[i].val();
            self.status_bus.next = self.status_bus.val() | (self.zx_status[i].out.val() << self.off_status[i].val());
        }
        self.csr.status.next = self.status_bus.val();
    }
}
