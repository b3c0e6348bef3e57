//! Multi-row read-modify-write (`MultiRmw<A, W, P, D, DA, DW>`): `D` rows of `2^A` words decided together,
//! one packet per cycle. Model: `golden::common::multi_rmw`.
//!
//! Each row is an [`RmwPipeline`] (its own dual-port RAM and its own forwarding on its own index); all rows
//! share the input handshake, so they stay in lockstep and the packet's `D` words reach the modify stage in
//! the same cycle. The hazard scheme is the single-row pipeline's, per row: a packet 1–3 cycles behind
//! another sees that packet's write in every row where their indices meet, and the RAM elsewhere.
//!
//! Ports are packed, row `i` at a fixed offset (rust-hdl has no arrays of ports):
//! `in_index` / `mod_index` row `i` at bits `[i·A, (i+1)·A)` (`DA = D·A`), `mod_old` / `mod_new` row `i` at
//! `[i·W, (i+1)·W)` (`DW = D·W`), `mod_write` bit `i`. The payload is shared. Timing as the RMW pipeline:
//! accept at S0, `mod_*` at the modify stage SM (M = 2, or 4 with `RamTiming::Registered`; the core
//! answers `mod_write`/`mod_new` combinationally), write at SM+1.
//!
//! With the look-ahead stage ([`MultiRmw::with_lookahead`]; `golden::common::rmw` and
//! [`RmwPipeline`]), every row has it: `pre_valid`/`pre_payload` (row 0's) and `pre_old` (packed as
//! `mod_old`) at SL, one cycle before SM; at SM, `mod_near` bit `i` says row `i`'s `mod_old` is the write of
//! the packet directly ahead (its `mod_pick` bit 1; also without the look-ahead stage).
//!
//! `forward_enable` per row is test-only (as in [`RmwPipeline::with_forwarding`]): the co-simulation suite
//! builds one variant with a forwarding distance missing in one row, to prove its test catches it.

use super::bits::{consts, Slice, ZeroExt};
use super::rmw::{RmwPipeline, FORWARD_ALL};
use crate::declare_block;
use golden::common::config::ConfigError;
use golden::common::sram::{RamPorts, RamTiming};
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct MultiRmw<const A: usize, const W: usize, const P: usize, const D: usize, const DA: usize, const DW: usize>
    fn build(rows: Vec<RmwPipeline<A, W, P>>) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub in_valid: Signal<In, bool>,
        pub in_index: Signal<In, Bits<DA>>,
        pub in_payload: Signal<In, Bits<P>>,
        pub in_ready: Signal<Out, bool>,
        pub mod_valid: Signal<Out, bool>,
        pub mod_index: Signal<Out, Bits<DA>>,
        pub mod_payload: Signal<Out, Bits<P>>,
        pub mod_old: Signal<Out, Bits<DW>>,
        pub mod_near: Signal<Out, Bits<D>>,
        pub pre_valid: Signal<Out, bool>,
        pub pre_payload: Signal<Out, Bits<P>>,
        pub pre_old: Signal<Out, Bits<DW>>,
        /// Per row, `pre_old`'s parts (`RmwPipeline::pre_early`, `pre_near2`; two look-ahead levels).
        pub pre_early: Signal<Out, Bits<DW>>,
        pub pre_near2: Signal<Out, Bits<D>>,
        pub mod_write: Signal<In, Bits<D>>,
        pub mod_new: Signal<In, Bits<DW>>,
        rows: Vec<RmwPipeline<A, W, P>> = rows,
        index_in: Vec<Slice<DA, A>> = (0..D).map(|i| Slice::new(i * A)).collect(),
        new_in: Vec<Slice<DW, W>> = (0..D).map(|i| Slice::new(i * W)).collect(),
        zx_index: Vec<ZeroExt<A, DA>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_old: Vec<ZeroExt<W, DW>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_pre: Vec<ZeroExt<W, DW>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_early: Vec<ZeroExt<W, DW>> = (0..D).map(|_| ZeroExt::default()).collect(),
        row_bits: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| 1u64 << i)),
        off_index: Vec<Constant<Bits<16>>> = consts((0..D).map(|i| (i * A) as u64)),
        off_word: Vec<Constant<Bits<16>>> = consts((0..D).map(|i| (i * W) as u64)),
        index_bus: Signal<Local, Bits<DA>>,
        old_bus: Signal<Local, Bits<DW>>,
        pre_bus: Signal<Local, Bits<DW>>,
        early_bus: Signal<Local, Bits<DW>>,
        near2_bus: Signal<Local, Bits<D>>,
        near_bus: Signal<Local, Bits<D>>,
        zero_da: Constant<Bits<DA>> = Constant::new(Bits::default()),
        zero_dw: Constant<Bits<DW>> = Constant::new(Bits::default()),
        zero_d: Constant<Bits<D>> = Constant::new(Bits::default()),
        /// Row 0 carries the packet's valid and payload to the look-ahead and modify stages; the other
        /// rows' copies are the same signals (lockstep), and their per-distance forward candidates are not
        /// used here (of `mod_pick` only bit 1, `mod_near`).
        unused_rows: Signal<Local, bool>,
        _d: usize = D,
    }
}

impl<const A: usize, const W: usize, const P: usize, const D: usize, const DA: usize, const DW: usize>
    MultiRmw<A, W, P, D, DA, DW>
{
    /// `D` rows, all forwarding every distance.
    pub fn new() -> Result<Self, ConfigError> {
        Self::with_forwarding(&[FORWARD_ALL; 8][..D])
    }
    /// Test-only: per-row `forward_enable` (see [`RmwPipeline::with_forwarding`]).
    pub fn with_forwarding(forward_enable: &[u64]) -> Result<Self, ConfigError> {
        Self::with_timing(RamTiming::Short, forward_enable)
    }
    /// `D` rows on RAMs of the given timing; `forward_enable` per row ([`FORWARD_ALL`] except in tests).
    pub fn with_timing(timing: RamTiming, forward_enable: &[u64]) -> Result<Self, ConfigError> {
        Self::with_lookahead(timing, 0, forward_enable)
    }
    /// With every row's `lookahead` look-ahead levels (0..=2, see the module docs).
    pub fn with_lookahead(timing: RamTiming, lookahead: usize, forward_enable: &[u64]) -> Result<Self, ConfigError> {
        if D == 0 || D > 8 || DA != D * A || DW != D * W || forward_enable.len() != D {
            return Err(ConfigError(format!(
                "MultiRmw<A={A}, W={W}, P={P}, D={D}, DA={DA}, DW={DW}>: needs 1 ≤ D ≤ 8, DA = D·A, DW = D·W and \
                 one forward_enable per row"
            )));
        }
        let rows = forward_enable
            .iter()
            .map(|&f| RmwPipeline::with_lookahead(RamPorts::Dual, timing, lookahead, f))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::build(rows))
    }
}

impl<const A: usize, const W: usize, const P: usize, const D: usize, const DA: usize, const DW: usize> Logic
    for MultiRmw<A, W, P, D, DA, DW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.in_ready.next = self.rows[0].in_ready.val();
        self.mod_valid.next = self.rows[0].mod_valid.val();
        self.mod_payload.next = self.rows[0].mod_payload.val();
        self.pre_valid.next = self.rows[0].pre_valid.val();
        self.pre_payload.next = self.rows[0].pre_payload.val();
        self.index_bus.next = self.zero_da.val();
        self.old_bus.next = self.zero_dw.val();
        self.pre_bus.next = self.zero_dw.val();
        self.early_bus.next = self.zero_dw.val();
        self.near2_bus.next = self.zero_d.val();
        self.near_bus.next = self.zero_d.val();
        self.unused_rows.next = false;
        for i in 0..self._d {
            self.rows[i].clock.next = self.clock.val();
            self.rows[i].reset.next = self.reset.val();
            self.rows[i].in_valid.next = self.in_valid.val();
            self.index_in[i].din.next = self.in_index.val();
            self.rows[i].in_index.next = self.index_in[i].out.val();
            self.rows[i].in_payload.next = self.in_payload.val();
            self.zx_index[i].din.next = self.rows[i].mod_index.val();
            self.index_bus.next = self.index_bus.val() | (self.zx_index[i].out.val() << self.off_index[i].val());
            self.zx_old[i].din.next = self.rows[i].mod_old.val();
            self.old_bus.next = self.old_bus.val() | (self.zx_old[i].out.val() << self.off_word[i].val());
            self.zx_pre[i].din.next = self.rows[i].pre_old.val();
            self.pre_bus.next = self.pre_bus.val() | (self.zx_pre[i].out.val() << self.off_word[i].val());
            self.zx_early[i].din.next = self.rows[i].pre_early.val();
            self.early_bus.next = self.early_bus.val() | (self.zx_early[i].out.val() << self.off_word[i].val());
            if self.rows[i].pre_near2.val() {
                self.near2_bus.next = self.near2_bus.val() | self.row_bits[i].val();
            }
            if self.rows[i].mod_pick.val().get_bit(1) {
                self.near_bus.next = self.near_bus.val() | self.row_bits[i].val();
            }
            self.unused_rows.next = self.unused_rows.val()
                || self.rows[i].in_ready.val()
                || self.rows[i].mod_valid.val()
                || self.rows[i].mod_payload.val().any()
                || self.rows[i].mod_ram.val().any()
                || self.rows[i].mod_fwd1.val().any()
                || self.rows[i].mod_fwd2.val().any()
                || self.rows[i].mod_fwd3.val().any()
                || self.rows[i].mod_fwd4.val().any()
                || self.rows[i].mod_fwd5.val().any()
                || self.rows[i].pre_valid.val()
                || self.rows[i].pre_payload.val().any()
                || self.rows[i].mod_pick.val().any();
        }
        self.mod_index.next = self.index_bus.val();
        self.mod_old.next = self.old_bus.val();
        self.pre_old.next = self.pre_bus.val();
        self.pre_early.next = self.early_bus.val();
        self.pre_near2.next = self.near2_bus.val();
        self.mod_near.next = self.near_bus.val();
        // The core's answer, after every output is assigned (one direction per statement group, so the
        // simulator orders the parent's decision between this block's outputs and inputs).
        for i in 0..self._d {
            self.rows[i].mod_write.next = (self.mod_write.val() & self.row_bits[i].val()).any();
            self.new_in[i].din.next = self.mod_new.val();
            self.rows[i].mod_new.next = self.new_in[i].out.val();
        }
    }
}
