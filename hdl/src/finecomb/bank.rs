//! FineComb bank accumulator (stages D2 → S2 of `golden::finecomb::cycle`): one bank's bucket tables,
//! per bucket set one [`RmwPipeline`] for the 96-bit `TS | C` word and, unless LDA, one for the 64-bit
//! ISD (forwarding through the adder for back-to-back packets to one bucket comes from the pipeline).
//! Packets go into the active set, the readout walk's clear ops into the frozen one; a clear op writes 0
//! and hands the old words to the record stage.

use crate::common::bits::{constant, Slice, ZeroExt};
use crate::common::rmw::RmwPipeline;
use crate::declare_block;
use golden::common::config::TIMESTAMP_BITS;
use golden::common::sram::RamPorts;
use golden::finecomb::cycle::TSC_WORD_BITS;
use golden::finecomb::DIGEST_BITS;
use rust_hdl::prelude::*;

/// RMW payloads: the timestamp (TS|C) or the digest (ISD), and a clear flag above it.
pub const TSC_PAYLOAD_BITS: usize = TIMESTAMP_BITS + 1;
pub const ISD_PAYLOAD_BITS: usize = DIGEST_BITS + 1;

declare_block! {
    /// One bank: `tsc[s]`, `isd[s]` for bucket set s (no ISD pipelines in LDA mode).
    #[derive(LogicBlock)]
    pub struct FcBank<const IA: usize> fn build(ni: usize) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// A sampled packet at D2 while counting, into set `active`.
        pub packet: Signal<In, bool>,
        pub active: Signal<In, bool>,
        pub index: Signal<In, Bits<IA>>,
        pub ts_payload: Signal<In, Bits<TSC_PAYLOAD_BITS>>,
        pub isd_payload: Signal<In, Bits<ISD_PAYLOAD_BITS>>,
        /// A walk op for this bank, into set `walk_set` at `walk_index`.
        pub walk: Signal<In, bool>,
        pub walk_set: Signal<In, bool>,
        pub walk_index: Signal<In, Bits<IA>>,
        /// Every pipeline of the bank is ready.
        pub ready: Signal<Out, bool>,
        /// A clear op at the modify stage: the old TS|C words (`tsc_clr`), the old ISD (`isd_clr`).
        pub tsc_clr: Signal<Out, bool>,
        pub clr_ts: Signal<Out, Bits<64>>,
        pub clr_count: Signal<Out, Bits<32>>,
        pub isd_clr: Signal<Out, bool>,
        pub clr_isd: Signal<Out, Bits<64>>,
        tsc: Vec<RmwPipeline<IA, TSC_WORD_BITS, TSC_PAYLOAD_BITS>> =
            (0..2).map(|_| RmwPipeline::new(RamPorts::Dual)).collect(),
        isd: Vec<RmwPipeline<IA, 64, ISD_PAYLOAD_BITS>> = (0..ni).map(|_| RmwPipeline::new(RamPorts::Dual)).collect(),
        // Modify stages.
        tsc_old_ts: Vec<Slice<TSC_WORD_BITS, 64>> = (0..2).map(|_| Slice::new(0)).collect(),
        tsc_old_c: Vec<Slice<TSC_WORD_BITS, 32>> = (0..2).map(|_| Slice::new(64)).collect(),
        tsc_pay_ts: Vec<Slice<TSC_PAYLOAD_BITS, TIMESTAMP_BITS>> = (0..2).map(|_| Slice::new(0)).collect(),
        zx_pay_ts: Vec<ZeroExt<TIMESTAMP_BITS, 64>> = (0..2).map(|_| ZeroExt::default()).collect(),
        zx_new_ts: Vec<ZeroExt<64, TSC_WORD_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        zx_new_c: Vec<ZeroExt<32, TSC_WORD_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        isd_pay: Vec<Slice<ISD_PAYLOAD_BITS, 64>> = (0..ni).map(|_| Slice::new(0)).collect(),
        unused_candidates: Signal<Local, bool>,
        set_ids: Vec<Constant<bool>> = vec![Constant::new(false), Constant::new(true)],
        one_32: Constant<Bits<32>> = constant(1),
        zero_32: Constant<Bits<32>> = constant(0),
        zero_64: Constant<Bits<64>> = constant(0),
        off_tsc_c: Constant<Bits<8>> = constant(64),
        clear_tsc_payload: Constant<Bits<TSC_PAYLOAD_BITS>> = constant(1 << TIMESTAMP_BITS),
        clear_isd_payload: Constant<Bits<ISD_PAYLOAD_BITS>> =
            Constant::new(Bits::<ISD_PAYLOAD_BITS>::from(1u64) << 64),
        zero_tsc_word: Constant<Bits<TSC_WORD_BITS>> = Constant::new(Bits::default()),
        _ni: usize = ni,
    }
}

impl<const IA: usize> FcBank<IA> {
    /// A bank with ISD pipelines iff `isd`.
    pub fn new(isd: bool) -> Self {
        Self::build(if isd { 2 } else { 0 })
    }
}

impl<const IA: usize> Logic for FcBank<IA> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ready.next = true;
        for p in 0..self.tsc.len() {
            self.tsc[p].clock.next = self.clock.val();
            self.tsc[p].reset.next = self.reset.val();
            if !self.tsc[p].in_ready.val() {
                self.ready.next = false;
            }
        }
        for p in 0..self._ni {
            self.isd[p].clock.next = self.clock.val();
            self.isd[p].reset.next = self.reset.val();
            if !self.isd[p].in_ready.val() {
                self.ready.next = false;
            }
        }
        // Issue: a packet into the active set, the walk's clear op into the frozen one.
        for p in 0..self.tsc.len() {
            if self.packet.val() && (self.active.val() == self.set_ids[p].val()) {
                self.tsc[p].in_valid.next = true;
                self.tsc[p].in_index.next = self.index.val();
                self.tsc[p].in_payload.next = self.ts_payload.val();
            } else {
                self.tsc[p].in_valid.next = self.walk.val() && (self.walk_set.val() == self.set_ids[p].val());
                self.tsc[p].in_index.next = self.walk_index.val();
                self.tsc[p].in_payload.next = self.clear_tsc_payload.val();
            }
            // Modify: TS += ts, C += 1; a clear op writes 0 (its old word goes into the record).
            self.tsc_old_ts[p].din.next = self.tsc[p].mod_old.val();
            self.tsc_old_c[p].din.next = self.tsc[p].mod_old.val();
            self.tsc_pay_ts[p].din.next = self.tsc[p].mod_payload.val();
            self.zx_pay_ts[p].din.next = self.tsc_pay_ts[p].out.val();
            self.zx_new_ts[p].din.next = self.tsc_old_ts[p].out.val() + self.zx_pay_ts[p].out.val();
            self.zx_new_c[p].din.next = self.tsc_old_c[p].out.val() + self.one_32.val();
            self.tsc[p].mod_write.next = true;
            if self.tsc[p].mod_payload.val().get_bit(48) {
                self.tsc[p].mod_new.next = self.zero_tsc_word.val();
            } else {
                self.tsc[p].mod_new.next =
                    self.zx_new_ts[p].out.val() | (self.zx_new_c[p].out.val() << self.off_tsc_c.val());
            }
        }
        for p in 0..self._ni {
            self.isd[p].in_valid.next = self.tsc[p].in_valid.val();
            self.isd[p].in_index.next = self.tsc[p].in_index.val();
            if self.tsc[p].in_payload.val().get_bit(48) {
                self.isd[p].in_payload.next = self.clear_isd_payload.val();
            } else {
                self.isd[p].in_payload.next = self.isd_payload.val();
            }
            self.isd_pay[p].din.next = self.isd[p].mod_payload.val();
            self.isd[p].mod_write.next = true;
            if self.isd[p].mod_payload.val().get_bit(64) {
                self.isd[p].mod_new.next = self.zero_64.val();
            } else {
                self.isd[p].mod_new.next = self.isd[p].mod_old.val() ^ self.isd_pay[p].out.val();
            }
        }
        // The old words of a clear op at the modify stage (at most one pipeline per kind clears).
        self.tsc_clr.next = false;
        self.clr_ts.next = self.zero_64.val();
        self.clr_count.next = self.zero_32.val();
        for p in 0..self.tsc.len() {
            if self.tsc[p].mod_valid.val() && self.tsc[p].mod_payload.val().get_bit(48) {
                self.tsc_clr.next = true;
                self.clr_ts.next = self.tsc_old_ts[p].out.val();
                self.clr_count.next = self.tsc_old_c[p].out.val();
            }
        }
        self.isd_clr.next = false;
        self.clr_isd.next = self.zero_64.val();
        for p in 0..self._ni {
            if self.isd[p].mod_valid.val() && self.isd[p].mod_payload.val().get_bit(64) {
                self.isd_clr.next = true;
                self.clr_isd.next = self.isd[p].mod_old.val();
            }
        }
        // Parts a build without ISDs leaves unread, and the pipelines' debug outputs (synthesis removes them).
        self.unused_candidates.next = self.isd_payload.val().any() || self.clear_isd_payload.val().any();
        for p in 0..self.tsc.len() {
            self.unused_candidates.next = self.unused_candidates.val()
                || self.tsc[p].mod_ram.val().any()
                || self.tsc[p].mod_fwd1.val().any()
                || self.tsc[p].mod_fwd2.val().any()
                || self.tsc[p].mod_fwd3.val().any()
                || self.tsc[p].mod_fwd4.val().any()
                || self.tsc[p].mod_fwd5.val().any()
                || self.tsc[p].pre_valid.val()
                || self.tsc[p].pre_payload.val().any()
                || self.tsc[p].pre_old.val().any()
                || self.tsc[p].pre_early.val().any()
                || self.tsc[p].pre_near2.val()
                || self.tsc[p].mod_pick.val().any()
                || self.tsc[p].mod_index.val().any();
        }
        for p in 0..self._ni {
            self.unused_candidates.next = self.unused_candidates.val()
                || self.isd[p].mod_ram.val().any()
                || self.isd[p].mod_fwd1.val().any()
                || self.isd[p].mod_fwd2.val().any()
                || self.isd[p].mod_fwd3.val().any()
                || self.isd[p].mod_fwd4.val().any()
                || self.isd[p].mod_fwd5.val().any()
                || self.isd[p].pre_valid.val()
                || self.isd[p].pre_payload.val().any()
                || self.isd[p].pre_old.val().any()
                || self.isd[p].pre_early.val().any()
                || self.isd[p].pre_near2.val()
                || self.isd[p].mod_pick.val().any()
                || self.isd[p].mod_index.val().any();
        }
    }
}
