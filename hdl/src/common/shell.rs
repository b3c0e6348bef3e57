//! Core shell (`CoreShell<CW, SW>`): the control-plane plumbing every core wires the same way — the CSR
//! port passed to the [`Csr`] bank, the config bus out, and the status words packed into the bank's
//! `status` bus where the register map puts them.
//!
//! A core builds its shell from its [`CsrLayout`] and the names of the status registers in the order it
//! drives `status[i]`: word `i` lands at `layout.status_offset(names[i])`, and every status register of
//! the layout must be named exactly once. Config fields are placed the same way: [`cfg_field`] is a
//! [`Slice`] of the config bus at `layout.config_offset(name)`. No core computes a `32 * k` itself.
//!
//! The shell's CSR side is one port bundle, [`CsrPort`] (rust-hdl `LogicInterface`). A core's top-level
//! ports stay flat (`csr_addr`, `csr_wr_en`, …) and are wired 1:1 to it: rust-hdl flattens a bundle at the
//! top as `csr$addr`, and the testbench's generated bindings and the CLI name the flat ports.

use super::bits::{consts, Slice, ZeroExt};
use super::csr::Csr;
use crate::declare_block;
use golden::common::config::ConfigError;
use golden::common::csr::CsrLayout;
use rust_hdl::prelude::*;

/// The CSR port as the bank sees it: an 8-bit address, a write strobe with its data, and a read strobe
/// answered one cycle later (`rd_valid`, `rd_data`).
#[derive(LogicInterface, Default)]
pub struct CsrPort {
    pub addr: Signal<In, Bits<8>>,
    pub wr_en: Signal<In, bool>,
    pub wr_data: Signal<In, Bits<32>>,
    pub rd_en: Signal<In, bool>,
    pub rd_valid: Signal<Out, bool>,
    pub rd_data: Signal<Out, Bits<32>>,
}

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct CoreShell<const CW: usize, const SW: usize> fn build(bank: Csr<CW, SW>, offsets: Vec<usize>) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub csr: CsrPort,
        /// The config registers (register `name` at `layout.config_offset(name)`; see [`cfg_field`]).
        pub cfg: Signal<Out, Bits<CW>>,
        /// Status word `i`, in the order of the names given to [`CoreShell::new`].
        pub status: Vec<Signal<In, Bits<32>>> = offsets.iter().map(|_| Default::default()).collect(),
        bank: Csr<CW, SW> = bank,
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
        self.bank.layout()
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
        clock!(self, clock, bank);
        self.bank.reset.next = self.reset.val();
        self.bank.addr.next = self.csr.addr.val();
        self.bank.wr_en.next = self.csr.wr_en.val();
        self.bank.wr_data.next = self.csr.wr_data.val();
        self.bank.rd_en.next = self.csr.rd_en.val();
        self.csr.rd_valid.next = self.bank.rd_valid.val();
        self.csr.rd_data.next = self.bank.rd_data.val();
        self.cfg.next = self.bank.cfg.val();
        self.status_bus.next = self.zero_sw.val();
        for i in 0..self._n {
            self.zx_status[i].din.next = self.status[i].val();
            self.status_bus.next = self.status_bus.val() | (self.zx_status[i].out.val() << self.off_status[i].val());
        }
        self.bank.status.next = self.status_bus.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> CsrLayout {
        CsrLayout::new(vec![("a".into(), 1), ("b".into(), 2)], vec!["x".into(), "y".into(), "z".into()])
    }

    #[test]
    fn status_words_land_where_the_layout_puts_them() {
        let shell = CoreShell::<64, 96>::new(layout(), &["z", "x", "y"]).unwrap();
        let offs: Vec<u64> = shell.off_status.iter().map(|c| c.val().to_u64()).collect();
        assert_eq!(offs, [64, 0, 32]);
    }

    #[test]
    fn every_status_register_is_driven_exactly_once() {
        assert!(CoreShell::<64, 96>::new(layout(), &["x", "y"]).is_err(), "one missing");
        assert!(CoreShell::<64, 96>::new(layout(), &["x", "y", "x"]).is_err(), "one twice");
        assert!(CoreShell::<64, 96>::new(layout(), &["x", "y", "w"]).is_err(), "unknown");
        assert!(cfg_field::<64, 32>(&layout(), "w").is_err());
    }
}
