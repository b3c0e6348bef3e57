//! The hybrid reordering detector (`HybridCore`): the heavy-hitter core ([`HhCore`], keyed by the flow)
//! tracks the large flows; a second flow-sampling core, port-indexed (`options` bit 2), is its **side
//! table** — one sample per heavy-hitter bucket, at `row · 2^HA + index`, its decision forced by the
//! heavy-hitter outcome (hit → resident, insert/admission → replace); packets the heavy-hitter table
//! rejects (and non-data descriptors, to be counted) go to flow sampling ([`ReorderCore`]). One packet per
//! cycle through all three. Specification and cycle model: `golden::reordering::hybrid` and
//! `golden::reordering::hybrid_cycle` (stage table there).
//!
//! The descriptor waits for its heavy-hitter result in a [`DelayLine`] of `RESULT_LATENCY − 1` stages,
//! then one more stage beside the index hash unit (loaded from the line's output, so the row indices come
//! with the descriptor at `t + RESULT_LATENCY`). No handshake is needed behind the heavy-hitter core: the
//! hybrid accepts only once all three cores are past their reset sweep (`swept`, registered), and from
//! then on each takes a descriptor every cycle.
//!
//! Ports: the descriptor input and `in_ready`; the three result ports (`hh_res_*`, `side_res_*`,
//! `smp_res_*`); one report port (the side table's reports first); three CSR ports, one per core with its
//! own register map (`smp_csr_*`, `side_csr_*`, `hh_csr_*`). The heavy-hitter records are read and
//! dropped inside (they carry no reordering; its `dump` still clears the frozen bank).
//!
//! Const generics: the heavy-hitter core's `HC, HA, HD, HW, HDA, HDW, HP, HR, HFA, HFL` (its `C, A, D, W,
//! DA, DW, P, R, FA, FL`), flow sampling's `SA` and the side table's `TA` bucket address bits, and the
//! widths both flow-sampling cores share `F, TS, N, O, W, P, R, FA, FL`. Checked by the cores' own
//! constructors against the [`HybridConfig`].

use super::ReorderCore;
use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::delay::DelayLine;
use crate::common::hash::HashUnit;
use crate::common::reg::Reg;
use crate::declare_block;
use crate::heavy_hitters::HhCore;
use golden::common::config::{ConfigError, TIMESTAMP_BITS};
use golden::heavy_hitters::cycle::RESULT_LATENCY;
use golden::heavy_hitters::index_hash;
use golden::reordering::hybrid_cycle::HybridConfig;
use golden::reordering::{FLOW_KEY_BITS, PREFIX_BITS};
use rust_hdl::prelude::*;

const K: usize = FLOW_KEY_BITS;
/// A descriptor in the delay line: data | addr | flow | seq | ts, low field first.
pub const DESC_BITS: usize = 1 + PREFIX_BITS + FLOW_KEY_BITS + 32 + TIMESTAMP_BITS;
const D_ADDR: usize = 1;
const D_FLOW: usize = D_ADDR + PREFIX_BITS;
const D_SEQ: usize = D_FLOW + FLOW_KEY_BITS;
const D_TS: usize = D_SEQ + 32;

/// A descriptor field of the line's word.
fn at<const N: usize>(offset: usize) -> Slice<DESC_BITS, N> {
    Slice::new(offset)
}

declare_block! {
    #[derive(LogicBlock)]
    pub struct HybridCore<
        const HC: usize, const HA: usize, const HD: usize, const HW: usize, const HDA: usize, const HDW: usize,
        const HP: usize, const HR: usize, const HFA: usize, const HFL: usize,
        const SA: usize, const TA: usize,
        const F: usize, const TS: usize, const N: usize, const O: usize, const W: usize, const P: usize,
        const R: usize, const FA: usize, const FL: usize,
    > fn build(
        cfg: &HybridConfig,
        hh: HhCore<K, HC, HA, HD, HW, HDA, HDW, HP, HR, HFA, HFL>,
        side: ReorderCore<TA, F, TS, N, O, W, P, R, FA, FL>,
        smp: ReorderCore<SA, F, TS, N, O, W, P, R, FA, FL>,
        h_index: HashUnit<K, HDA>,
        line: DelayLine<DESC_BITS>,
        last: DelayLine<DESC_BITS>
    ) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        // Packet descriptors (as `ReorderCore`'s).
        pub in_valid: Signal<In, bool>,
        pub in_addr: Signal<In, Bits<PREFIX_BITS>>,
        pub in_flow: Signal<In, Bits<FLOW_KEY_BITS>>,
        pub in_seq: Signal<In, Bits<32>>,
        pub in_ts: Signal<In, Bits<TIMESTAMP_BITS>>,
        pub in_data: Signal<In, bool>,
        pub in_ready: Signal<Out, bool>,
        // The three result ports.
        pub hh_res_valid: Signal<Out, bool>,
        pub hh_res_outcome: Signal<Out, Bits<2>>,
        pub hh_res_row: Signal<Out, Bits<2>>,
        pub side_res_valid: Signal<Out, bool>,
        pub side_res_outcome: Signal<Out, Bits<2>>,
        pub side_res_ooo: Signal<Out, bool>,
        pub smp_res_valid: Signal<Out, bool>,
        pub smp_res_outcome: Signal<Out, Bits<2>>,
        pub smp_res_ooo: Signal<Out, bool>,
        // Reports: the side table's first.
        pub rep_valid: Signal<Out, bool>,
        pub rep_data: Signal<Out, Bits<R>>,
        pub rep_ready: Signal<In, bool>,
        // CSR ports.
        pub smp_csr_addr: Signal<In, Bits<8>>,
        pub smp_csr_wr_en: Signal<In, bool>,
        pub smp_csr_wr_data: Signal<In, Bits<32>>,
        pub smp_csr_rd_en: Signal<In, bool>,
        pub smp_csr_rd_valid: Signal<Out, bool>,
        pub smp_csr_rd_data: Signal<Out, Bits<32>>,
        pub side_csr_addr: Signal<In, Bits<8>>,
        pub side_csr_wr_en: Signal<In, bool>,
        pub side_csr_wr_data: Signal<In, Bits<32>>,
        pub side_csr_rd_en: Signal<In, bool>,
        pub side_csr_rd_valid: Signal<Out, bool>,
        pub side_csr_rd_data: Signal<Out, Bits<32>>,
        pub hh_csr_addr: Signal<In, Bits<8>>,
        pub hh_csr_wr_en: Signal<In, bool>,
        pub hh_csr_wr_data: Signal<In, Bits<32>>,
        pub hh_csr_rd_en: Signal<In, bool>,
        pub hh_csr_rd_valid: Signal<Out, bool>,
        pub hh_csr_rd_data: Signal<Out, Bits<32>>,
        // Blocks.
        hh: HhCore<K, HC, HA, HD, HW, HDA, HDW, HP, HR, HFA, HFL> = hh,
        side: ReorderCore<TA, F, TS, N, O, W, P, R, FA, FL> = side,
        smp: ReorderCore<SA, F, TS, N, O, W, P, R, FA, FL> = smp,
        h_index: HashUnit<K, HDA> = h_index,
        line: DelayLine<DESC_BITS> = line,
        last: DelayLine<DESC_BITS> = last,
        ready_q: Reg<bool>,
        accept: Signal<Local, bool>,
        // The descriptor into the line, and out of it.
        zx_addr: ZeroExt<PREFIX_BITS, DESC_BITS>,
        zx_flow: ZeroExt<FLOW_KEY_BITS, DESC_BITS>,
        zx_seq: ZeroExt<32, DESC_BITS>,
        zx_ts: ZeroExt<TIMESTAMP_BITS, DESC_BITS>,
        desc_in: Signal<Local, Bits<DESC_BITS>>,
        line_flow: Slice<DESC_BITS, FLOW_KEY_BITS> = at(D_FLOW),
        d_addr: Slice<DESC_BITS, PREFIX_BITS> = at(D_ADDR),
        d_flow: Slice<DESC_BITS, FLOW_KEY_BITS> = at(D_FLOW),
        d_seq: Slice<DESC_BITS, 32> = at(D_SEQ),
        d_ts: Slice<DESC_BITS, TIMESTAMP_BITS> = at(D_TS),
        d_data: Signal<Local, bool>,
        // The side-table index: the heavy-hitter row's index, after its row number.
        row_index: Vec<Slice<HDA, HA>> = (0..cfg.hh.rows).map(|r| Slice::new(r * HA)).collect(),
        sel_index: Signal<Local, Bits<HA>>,
        zx_index: ZeroExt<HA, TA>,
        zx_row: ZeroExt<2, TA>,
        heavy: Signal<Local, bool>,
        /// Outputs not used: the heavy-hitter records (dropped) and count, the cores' `in_ready` (once swept
        /// they are always ready).
        unused: Signal<Local, bool>,
        row_ids: Vec<Constant<Bits<2>>> = consts(0..cfg.hh.rows as u64),
        off_addr: Constant<Bits<16>> = constant(D_ADDR as u64),
        off_flow: Constant<Bits<16>> = constant(D_FLOW as u64),
        off_seq: Constant<Bits<16>> = constant(D_SEQ as u64),
        off_ts: Constant<Bits<16>> = constant(D_TS as u64),
        off_row: Constant<Bits<16>> = constant(HA as u64),
        data_bit: Constant<Bits<DESC_BITS>> = constant(1),
        zero_desc: Constant<Bits<DESC_BITS>> = constant(0),
        code_reject: Constant<Bits<2>> = constant(0),
        code_hit: Constant<Bits<2>> = constant(1),
        force_none: Constant<Bits<2>> = constant(0),
        force_resident: Constant<Bits<2>> = constant(1),
        force_replace: Constant<Bits<2>> = constant(2),
        zero_sa: Constant<Bits<SA>> = constant(0),
        _rows: usize = cfg.hh.rows,
        _cfg: HybridConfig = cfg.clone(),
    }
}

/// `impl` of [`HybridCore`] with its generics written once.
macro_rules! hybrid_core_impl {
    ($($tr:ident for)? { $($body:tt)* }) => {
        impl<
                const HC: usize, const HA: usize, const HD: usize, const HW: usize, const HDA: usize,
                const HDW: usize, const HP: usize, const HR: usize, const HFA: usize, const HFL: usize,
                const SA: usize, const TA: usize,
                const F: usize, const TS: usize, const N: usize, const O: usize, const W: usize, const P: usize,
                const R: usize, const FA: usize, const FL: usize,
            > $($tr for)? HybridCore<HC, HA, HD, HW, HDA, HDW, HP, HR, HFA, HFL, SA, TA, F, TS, N, O, W, P, R, FA, FL>
        {
            $($body)*
        }
    };
}

hybrid_core_impl!({
    pub fn new(cfg: &HybridConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        let hh = HhCore::new(&cfg.hh)?;
        let side = ReorderCore::new(&cfg.side())?;
        let smp = ReorderCore::new(&cfg.sampling)?;
        let h_index = HashUnit::new(index_hash(&cfg.hh))?;
        let line = DelayLine::new(RESULT_LATENCY - 1).map_err(ConfigError)?;
        let last = DelayLine::new(1).map_err(ConfigError)?;
        Ok(Self::build(cfg, hh, side, smp, h_index, line, last))
    }
    pub fn config(&self) -> &HybridConfig {
        &self._cfg
    }
});

hybrid_core_impl!(Logic for {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ready_q);
        clock!(self, clock, hh, side, smp, h_index, line, last);
        self.hh.reset.next = self.reset.val();
        self.side.reset.next = self.reset.val();
        self.smp.reset.next = self.reset.val();
        self.line.reset.next = self.reset.val();
        self.last.reset.next = self.reset.val();
        // CSR ports, one per core.
        self.smp.csr_addr.next = self.smp_csr_addr.val();
        self.smp.csr_wr_en.next = self.smp_csr_wr_en.val();
        self.smp.csr_wr_data.next = self.smp_csr_wr_data.val();
        self.smp.csr_rd_en.next = self.smp_csr_rd_en.val();
        self.smp_csr_rd_valid.next = self.smp.csr_rd_valid.val();
        self.smp_csr_rd_data.next = self.smp.csr_rd_data.val();
        self.side.csr_addr.next = self.side_csr_addr.val();
        self.side.csr_wr_en.next = self.side_csr_wr_en.val();
        self.side.csr_wr_data.next = self.side_csr_wr_data.val();
        self.side.csr_rd_en.next = self.side_csr_rd_en.val();
        self.side_csr_rd_valid.next = self.side.csr_rd_valid.val();
        self.side_csr_rd_data.next = self.side.csr_rd_data.val();
        self.hh.csr_addr.next = self.hh_csr_addr.val();
        self.hh.csr_wr_en.next = self.hh_csr_wr_en.val();
        self.hh.csr_wr_data.next = self.hh_csr_wr_data.val();
        self.hh.csr_rd_en.next = self.hh_csr_rd_en.val();
        self.hh_csr_rd_valid.next = self.hh.csr_rd_valid.val();
        self.hh_csr_rd_data.next = self.hh.csr_rd_data.val();
        // Input: all three cores past their reset sweep in the cycle before (registered, so that no handshake
        // of one core feeds another's combinationally): from then on each takes a descriptor every cycle, and
        // the heavy-hitter result comes exactly RESULT_LATENCY cycles after acceptance. Data segments into the
        // heavy-hitter core, every descriptor into the line.
        self.ready_q.d.next =
            !self.reset.val() && self.hh.swept.val() && self.side.swept.val() && self.smp.swept.val();
        self.in_ready.next = !self.reset.val() && self.ready_q.q.val();
        self.accept.next = self.in_valid.val() && self.in_ready.val();
        self.hh.in_valid.next = self.accept.val() && self.in_data.val();
        self.hh.in_key.next = self.in_flow.val();
        self.hh.rec_ready.next = true;
        self.zx_addr.din.next = self.in_addr.val();
        self.zx_flow.din.next = self.in_flow.val();
        self.zx_seq.din.next = self.in_seq.val();
        self.zx_ts.din.next = self.in_ts.val();
        self.desc_in.next = (self.zx_addr.out.val() << self.off_addr.val())
            | (self.zx_flow.out.val() << self.off_flow.val())
            | (self.zx_seq.out.val() << self.off_seq.val())
            | (self.zx_ts.out.val() << self.off_ts.val());
        self.line.in_valid.next = self.accept.val();
        if self.in_data.val() {
            self.line.in_data.next = self.desc_in.val() | self.data_bit.val();
        } else {
            self.line.in_data.next = self.desc_in.val();
        }
        // One cycle before the result: the index hash of the line's flow, the last stage.
        self.line_flow.din.next = self.line.out_data.val();
        self.h_index.key.next = self.line_flow.out.val();
        self.h_index.load.next = self.line.out_valid.val();
        self.last.in_valid.next = self.line.out_valid.val();
        self.last.in_data.next = self.line.out_data.val();
        // The result meets its descriptor: to the side table (monitored) or to flow sampling.
        self.d_addr.din.next = self.last.out_data.val();
        self.d_flow.din.next = self.last.out_data.val();
        self.d_seq.din.next = self.last.out_data.val();
        self.d_ts.din.next = self.last.out_data.val();
        self.d_data.next = (self.last.out_data.val() & self.data_bit.val()) != self.zero_desc.val();
        self.heavy.next = self.d_data.val() && (self.hh.res_outcome.val() != self.code_reject.val());
        self.sel_index.next = self.row_index[0].out.val();
        for r in 0..self._rows {
            self.row_index[r].din.next = self.h_index.hash.val();
            if self.hh.res_row.val() == self.row_ids[r].val() {
                self.sel_index.next = self.row_index[r].out.val();
            }
        }
        self.zx_index.din.next = self.sel_index.val();
        self.zx_row.din.next = self.hh.res_row.val();
        self.side.in_valid.next = self.last.out_valid.val() && self.heavy.val();
        self.side.in_index.next = (self.zx_row.out.val() << self.off_row.val()) | self.zx_index.out.val();
        if self.hh.res_outcome.val() == self.code_hit.val() {
            self.side.in_force.next = self.force_resident.val();
        } else {
            self.side.in_force.next = self.force_replace.val();
        }
        self.smp.in_valid.next = self.last.out_valid.val() && !self.heavy.val();
        self.smp.in_index.next = self.zero_sa.val();
        self.smp.in_force.next = self.force_none.val();
        self.side.in_addr.next = self.d_addr.out.val();
        self.side.in_flow.next = self.d_flow.out.val();
        self.side.in_seq.next = self.d_seq.out.val();
        self.side.in_ts.next = self.d_ts.out.val();
        self.side.in_data.next = self.d_data.val();
        self.smp.in_addr.next = self.d_addr.out.val();
        self.smp.in_flow.next = self.d_flow.out.val();
        self.smp.in_seq.next = self.d_seq.out.val();
        self.smp.in_ts.next = self.d_ts.out.val();
        self.smp.in_data.next = self.d_data.val();
        // Result ports.
        self.hh_res_valid.next = self.hh.res_valid.val();
        self.hh_res_outcome.next = self.hh.res_outcome.val();
        self.hh_res_row.next = self.hh.res_row.val();
        self.side_res_valid.next = self.side.res_valid.val();
        self.side_res_outcome.next = self.side.res_outcome.val();
        self.side_res_ooo.next = self.side.res_ooo.val();
        self.smp_res_valid.next = self.smp.res_valid.val();
        self.smp_res_outcome.next = self.smp.res_outcome.val();
        self.smp_res_ooo.next = self.smp.res_ooo.val();
        // Reports: the side table's first.
        self.side.rep_ready.next = self.rep_ready.val();
        self.smp.rep_ready.next = self.rep_ready.val() && !self.side.rep_valid.val();
        self.rep_valid.next = self.side.rep_valid.val() || self.smp.rep_valid.val();
        if self.side.rep_valid.val() {
            self.rep_data.next = self.side.rep_data.val();
        } else {
            self.rep_data.next = self.smp.rep_data.val();
        }
        self.unused.next = self.hh.rec_valid.val()
            || self.hh.rec_data.val().any()
            || self.hh.res_count.val().any()
            || self.hh.in_ready.val()
            || self.side.in_ready.val()
            || self.smp.in_ready.val();
    }
});
