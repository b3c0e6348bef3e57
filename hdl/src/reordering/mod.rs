//! Flow-sampling core for TCP-reordering detection per prefix (`ReorderCore`): a hash-indexed array of
//! sampled flows `{valid, prefix, fingerprint, last seq, o, n, last timestamp}` indexed by a hash of the
//! packet's prefix (or of its flow key: the flow-level baseline, a run-time option; or taken from the
//! `in_index` port with the decision forced by `in_force`: the hybrid's side table, `options` bit 2),
//! conditional overwrite (stale / seen enough / reordered, thresholds T, C, R in CSRs), one packet per cycle, two banks
//! (ping-pong) with a read-and-clear flush walk of the frozen bank, an eviction FIFO and a flush FIFO merged
//! onto one report port, a per-packet result port, run-time settings and counters on the CSR port.
//! Specification and cycle model: `golden::reordering` (stage table in `golden::reordering::cycle`).
//!
//! Const generics (checked against the [`ReorderConfig`] in [`ReorderCore::new`]): `A` bucket address,
//! `F` fingerprint, `TS` stored timestamp, `N`/`O` packet and out-of-order counts, `W` bucket, `P` bank
//! payload, `R` report, `FA`/`FL = FA + 1` FIFO address/level bits.
//!
//! Blocks: two [`HashUnit`]s (H3 index over the prefix or the flow key, CRC-32/MPEG-2 fingerprint over the
//! flow key), two [`RmwPipeline`] banks with two look-ahead levels ([`LOOKAHEAD`]: SL = S3, SM = S4), the
//! decision ([`decide::SampleLookahead`]: every candidate decided at SL on the bank that holds the packet
//! there, the pick at SM on the bank that holds it then), two [`report::BucketReport`] packers, two
//! [`ReportFifo`]s and the [`CoreShell`].

pub mod builds;
pub mod decide;
pub mod hybrid;
pub mod report;

use crate::common::bits::{constant, Slice, ZeroExt};
use crate::common::fifo::ReportFifo;
use crate::common::hash::HashUnit;
use crate::common::input::InputStage;
use crate::common::reg::Reg;
use crate::common::rmw::{RmwPipeline, FORWARD_ALL};
use crate::common::shell::{cfg_field, CoreShell, StatusSources};
use crate::common::walk::BankWalker;
use crate::declare_block;
use decide::SampleLookahead;
use golden::common::config::{ConfigError, TIMESTAMP_BITS};
use golden::common::csr::CsrLayout;
use golden::common::hash::HashKind;
use golden::common::sram::{RamPorts, RamTiming};
use golden::reordering::cycle::{CSR_FLUSH, LOOKAHEAD, WALK_IN_FLIGHT};
use golden::reordering::sizes::{bucket_seq, payload_force, payload_ts, BUCKET_FP, BUCKET_PREFIX};
use golden::reordering::{ReorderConfig, FLOW_KEY_BITS, PREFIX_BITS};
use report::BucketReport;
use rust_hdl::prelude::*;

/// Config registers (8 × 32 bits) of the CSR bank.
pub const CONFIG_BITS: usize = 256;
/// Status registers (12 × 32 bits).
pub const STATUS_BITS: usize = 384;
/// A timestamp zero-extended so that any `ts_shift ≤ 32` and `ts_bits ≤ 32` slice of it exists.
const TS_WIDE: usize = 80;

/// A deliberate design mistake, for test-only builds that prove the co-simulation catches it (the issue's
/// mutants). Production builds are [`Mutant::None`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mutant {
    #[default]
    None,
    /// Wrong comparison direction on the sequence number: out of order iff `s' − s` has its top bit set.
    SeqReversed,
    /// An overwrite condition dropped: a resident with `o' > R` cannot be overwritten for that reason.
    NoReorderCondition,
}

/// Where the status registers come from (the shell counts the counters; `reports` is doubled).
const STATUS: StatusSources = StatusSources {
    counters: &["reports", "packets", "data_packets", "hits", "inserts", "overwrites", "misses", "out_of_order"],
    doubled: 1,
    flags: &["flush_busy"],
    words: &["report_drops", "report_fifo_level", "flush_fifo_level"],
};

/// Config field `name` of the core's own register map.
fn field<const N: usize>(layout: &CsrLayout, name: &str) -> Slice<CONFIG_BITS, N> {
    cfg_field(layout, name).expect("the core's own register map")
}

declare_block! {
    #[derive(LogicBlock)]
    pub struct ReorderCore<
        const A: usize,
        const F: usize,
        const TS: usize,
        const N: usize,
        const O: usize,
        const W: usize,
        const P: usize,
        const R: usize,
        const FA: usize,
        const FL: usize,
    > fn build(
        cfg: &ReorderConfig,
        layout: &CsrLayout,
        shell: CoreShell<CONFIG_BITS, STATUS_BITS>,
        h_index: HashUnit<FLOW_KEY_BITS, A>,
        h_fp: HashUnit<FLOW_KEY_BITS, F>,
        banks: Vec<RmwPipeline<A, W, P>>,
        decide: SampleLookahead<F, TS, N, O, W, P>,
        ev_pack: BucketReport<F, N, O, W, R>,
        fl_pack: BucketReport<F, N, O, W, R>
    ) with csr_port {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        // Packet descriptors.
        pub in_valid: Signal<In, bool>,
        /// The address the prefix is taken from (IPv4 destination).
        pub in_addr: Signal<In, Bits<PREFIX_BITS>>,
        /// The flow key (5-tuple).
        pub in_flow: Signal<In, Bits<FLOW_KEY_BITS>>,
        pub in_seq: Signal<In, Bits<32>>,
        /// Timestamp, ns.
        pub in_ts: Signal<In, Bits<TIMESTAMP_BITS>>,
        /// The segment carries payload (others are counted and ignored).
        pub in_data: Signal<In, bool>,
        /// The bucket when `options` bit 2 is set (else ignored).
        pub in_index: Signal<In, Bits<A>>,
        /// 0: decide by identity and the conditions (flow sampling); 1: the packet is the resident's;
        /// 2: it replaces the resident (`golden::reordering::sampling::Force`).
        pub in_force: Signal<In, Bits<2>>,
        pub in_ready: Signal<Out, bool>,
        /// The reset sweep is over: from now until the next reset the core takes a descriptor every cycle.
        pub swept: Signal<Out, bool>,
        // Per-packet result (registered, one cycle after SM = S4; data packets only; no backpressure).
        pub res_valid: Signal<Out, bool>,
        /// 0 miss, 1 hit, 2 insert, 3 overwrite.
        pub res_outcome: Signal<Out, Bits<2>>,
        pub res_ooo: Signal<Out, bool>,
        // Reports (evictions first, then flushed buckets).
        pub rep_valid: Signal<Out, bool>,
        pub rep_data: Signal<Out, Bits<R>>,
        pub rep_ready: Signal<In, bool>,
        // Blocks.
        shell: CoreShell<CONFIG_BITS, STATUS_BITS> = shell,
        h_index: HashUnit<FLOW_KEY_BITS, A> = h_index,
        h_fp: HashUnit<FLOW_KEY_BITS, F> = h_fp,
        banks: Vec<RmwPipeline<A, W, P>> = banks,
        decide: SampleLookahead<F, TS, N, O, W, P> = decide,
        ev_pack: BucketReport<F, N, O, W, R> = ev_pack,
        fl_pack: BucketReport<F, N, O, W, R> = fl_pack,
        ev_fifo: ReportFifo<FA, R, FL>,
        fl_fifo: ReportFifo<FA, R, FL>,
        cfg_prefix_len: Slice<CONFIG_BITS, 6> = field(layout, "prefix_len"),
        cfg_timeout: Slice<CONFIG_BITS, TS> = field(layout, "timeout"),
        cfg_count: Slice<CONFIG_BITS, N> = field(layout, "count_c"),
        cfg_reorder: Slice<CONFIG_BITS, O> = field(layout, "reorder_r"),
        cfg_conditions: Slice<CONFIG_BITS, 3> = field(layout, "conditions"),
        cfg_options: Slice<CONFIG_BITS, 3> = field(layout, "options"),
        cfg_bank: Slice<CONFIG_BITS, 1> = field(layout, "bank"),
        flush_pending: Reg<bool>,
        // Input: the prefix, the hash keys, F1.
        prefix_mask: Signal<Local, Bits<PREFIX_BITS>>,
        in_prefix: Signal<Local, Bits<PREFIX_BITS>>,
        zx_prefix_key: ZeroExt<PREFIX_BITS, FLOW_KEY_BITS>,
        zx_ts_in: ZeroExt<TIMESTAMP_BITS, TS_WIDE>,
        ts_in: Slice<TS_WIDE, TS> = Slice::new(cfg.ts_shift),
        active: Signal<Local, bool>,
        /// F1 and the input handshake (`accept`, `transfer`: a packet enters F1, leaves it; non-data
        /// segments are accepted and counted, not kept).
        f1: InputStage,
        f1_prefix: Reg<Bits<PREFIX_BITS>>,
        f1_seq: Reg<Bits<32>>,
        f1_ts: Reg<Bits<TS>>,
        f1_force: Reg<Bits<2>>,
        f1_port: Reg<bool>,
        f1_index: Reg<Bits<A>>,
        pkt_index: Signal<Local, Bits<A>>,
        zx_p_force: ZeroExt<2, P>,
        zx_p_prefix: ZeroExt<PREFIX_BITS, P>,
        zx_p_fp: ZeroExt<F, P>,
        zx_p_seq: ZeroExt<32, P>,
        zx_p_ts: ZeroExt<TS, P>,
        pkt_payload: Signal<Local, Bits<P>>,
        // The flush walk (one row).
        walk_issue: Signal<Local, bool>,
        walker: BankWalker<A, 1> = BankWalker::new(1).expect("one row of 2^A buckets"),
        // S1 .. SL = S3: the packet's payload and bank carried beside the banks (one packet enters per cycle), so
        // the SL decision starts at flip-flops and not after the banks' payload mux.
        sl_pay1: Reg<Bits<P>>,
        sl_pay2: Reg<Bits<P>>,
        sl_pay3: Reg<Bits<P>>,
        sl_bank1: Reg<bool>,
        sl_bank2: Reg<bool>,
        sl_bank3: Reg<bool>,
        // SM = S4: which bank holds the packet / the walk op.
        is_packet: Vec<Signal<Local, bool>> = (0..2).map(|_| Default::default()).collect(),
        is_walk: Vec<Signal<Local, bool>> = (0..2).map(|_| Default::default()).collect(),
        /// Outputs read only in part: bank 1's `in_ready` (it equals bank 0's: same reset sweep), the
        /// banks' index, the forward candidates but the write of the packet two ahead, `mod_pick` but bit 1,
        /// the modify stage's payload but the walk flag, the look-ahead stage's valid, payload and word (the
        /// core carries the packet beside the banks and decides on the word's parts), the flush FIFO's
        /// drop counter (the walk waits for room: it stays 0), the eviction packer's `occupied` (the decision
        /// says whether an overwrite evicts), the walker's row (one row: always 0), F1's `transfer` (the banks'
        /// input valid is F1's valid; their `in_ready` is F1's `out_ready`).
        unused_bank_outputs: Signal<Local, bool>,
        // SM + 1 = S5: result and report registers.
        r_valid: Reg<bool>,
        r_outcome: Reg<Bits<2>>,
        r_ooo: Reg<bool>,
        ev_v: Reg<bool>,
        ev_d: Reg<Bits<R>>,
        fl_v: Reg<bool>,
        fl_d: Reg<Bits<R>>,
        // Statistics (the counters are the shell's).
        zx_ev_level: ZeroExt<FL, 32>,
        zx_fl_level: ZeroExt<FL, 32>,
        // Generation-time constants.
        bank_ids: Vec<Constant<bool>> = vec![Constant::new(false), Constant::new(true)],
        all_ones: Constant<Bits<PREFIX_BITS>> = constant(u32::MAX as u64),
        full_len: Constant<Bits<6>> = constant(PREFIX_BITS as u64),
        off_prefix: Constant<Bits<16>> = constant(BUCKET_PREFIX as u64),
        off_fp: Constant<Bits<16>> = constant(BUCKET_FP as u64),
        off_seq: Constant<Bits<16>> = constant(bucket_seq(F) as u64),
        off_ts: Constant<Bits<16>> = constant(payload_ts(F) as u64),
        off_force: Constant<Bits<16>> = constant(payload_force(F, TS) as u64),
        walk_payload: Constant<Bits<P>> = constant(1),
        zero_w: Constant<Bits<W>> = Constant::new(Bits::default()),
        room_level: Constant<Bits<FL>> = constant(((1usize << FA) - WALK_IN_FLIGHT) as u64),
        csr_flush: Constant<Bits<8>> = constant(CSR_FLUSH as u64),
        code_miss: Constant<Bits<2>> = constant(0),
        code_hit: Constant<Bits<2>> = constant(1),
        code_insert: Constant<Bits<2>> = constant(2),
        code_overwrite: Constant<Bits<2>> = constant(3),
        _cfg: ReorderConfig = cfg.clone(),
    }
}

/// `impl` of [`ReorderCore`] with its ten generics written once.
macro_rules! reorder_core_impl {
    ($($tr:ident for)? { $($body:tt)* }) => {
        impl<
                const A: usize,
                const F: usize,
                const TS: usize,
                const N: usize,
                const O: usize,
                const W: usize,
                const P: usize,
                const R: usize,
                const FA: usize,
                const FL: usize,
            > $($tr for)? ReorderCore<A, F, TS, N, O, W, P, R, FA, FL>
        {
            $($body)*
        }
    };
}

reorder_core_impl!({
    pub fn new(cfg: &ReorderConfig) -> Result<Self, ConfigError> {
        Self::with_mutant(cfg, Mutant::None)
    }
    /// Test-only: the core with a deliberate mistake (see [`Mutant`]).
    pub fn with_mutant(cfg: &ReorderConfig, mutant: Mutant) -> Result<Self, ConfigError> {
        use golden::reordering::sizes::payload_bits;
        cfg.check()?;
        let expect = [
            ("A", A, cfg.addr_bits),
            ("F", F, cfg.fp_bits),
            ("TS", TS, cfg.ts_bits),
            ("N", N, cfg.n_bits),
            ("O", O, cfg.o_bits),
            ("W", W, cfg.bucket_bits()),
            ("P", P, payload_bits(cfg.fp_bits, cfg.ts_bits)),
            ("R", R, cfg.report_bits()),
            ("FA", FA, cfg.report_fifo_bits),
            ("FL", FL, cfg.report_fifo_bits + 1),
        ];
        for (name, got, want) in expect {
            if got != want {
                return Err(ConfigError(format!("ReorderCore generic {name} = {got}, the configuration needs {want}")));
            }
        }
        if FA < 3 {
            return Err(ConfigError("ReorderCore: report_fifo_bits must be at least 3".into()));
        }
        let layout = cfg.csr_layout();
        let shell = CoreShell::new(layout.clone(), &STATUS)?;
        let h_index = HashUnit::new(HashKind::H3 { out_bits: A })?;
        let h_fp = HashUnit::new(HashKind::Crc32Mpeg2)?;
        let bank = || RmwPipeline::with_lookahead(RamPorts::Dual, RamTiming::Short, LOOKAHEAD, FORWARD_ALL);
        let banks = vec![bank()?, bank()?];
        let decide = SampleLookahead::new(mutant).map_err(ConfigError)?;
        let (ev, fl) = (BucketReport::new(false).map_err(ConfigError)?, BucketReport::new(true).map_err(ConfigError)?);
        Ok(Self::build(cfg, &layout, shell, h_index, h_fp, banks, decide, ev, fl))
    }
    pub fn config(&self) -> &ReorderConfig {
        &self._cfg
    }
});

reorder_core_impl!(Logic for {
    crate::core_update!(cfg(cfg_prefix_len, cfg_timeout, cfg_count, cfg_reorder, cfg_conditions, cfg_options, cfg_bank)
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            flush_pending,
            f1_prefix,
            f1_seq,
            f1_ts,
            f1_force,
            f1_port,
            f1_index,
            r_valid,
            r_outcome,
            r_ooo,
            ev_v,
            ev_d,
            fl_v,
            fl_d,
            sl_pay1,
            sl_pay2,
            sl_pay3,
            sl_bank1,
            sl_bank2,
            sl_bank3
        );
        clock!(self, clock, f1, shell, h_index, h_fp, decide, ev_fifo, fl_fifo, walker);
        // Run-time settings (the CSR pins and config fields are wired by `core_update!`).
        self.active.next = self.cfg_bank.out.val().any();
        self.flush_pending.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_flush.val()) && !self.reset.val();
        // Input handshake; the prefix (top `prefix_len` bits of the address); F1 takes data segments only.
        self.f1.reset.next = self.reset.val();
        self.f1.in_valid.next = self.in_valid.val();
        self.f1.keep.next = self.in_data.val();
        self.f1.out_ready.next = self.banks[0].in_ready.val();
        self.in_ready.next = self.f1.in_ready.val();
        self.swept.next = self.banks[0].in_ready.val();
        if self.cfg_prefix_len.out.val() >= self.full_len.val() {
            self.prefix_mask.next = self.all_ones.val();
        } else {
            self.prefix_mask.next = !(self.all_ones.val() >> self.cfg_prefix_len.out.val());
        }
        self.in_prefix.next = self.in_addr.val() & self.prefix_mask.val();
        self.zx_ts_in.din.next = self.in_ts.val();
        self.ts_in.din.next = self.zx_ts_in.out.val();
        if self.f1.accept.val() {
            self.f1_prefix.d.next = self.in_prefix.val();
            self.f1_seq.d.next = self.in_seq.val();
            self.f1_ts.d.next = self.ts_in.out.val();
            self.f1_force.d.next = self.in_force.val();
            self.f1_port.d.next = self.cfg_options.out.val().get_bit(2);
            self.f1_index.d.next = self.in_index.val();
        }
        if self.f1_port.q.val() {
            self.pkt_index.next = self.f1_index.q.val();
        } else {
            self.pkt_index.next = self.h_index.hash.val();
        }
        self.zx_prefix_key.din.next = self.in_prefix.val();
        if self.cfg_options.out.val().get_bit(1) {
            self.h_index.key.next = self.in_flow.val();
        } else {
            self.h_index.key.next = self.zx_prefix_key.out.val();
        }
        self.h_index.load.next = self.f1.accept.val();
        self.h_fp.key.next = self.in_flow.val();
        self.h_fp.load.next = self.f1.accept.val();
        self.zx_p_prefix.din.next = self.f1_prefix.q.val();
        self.zx_p_fp.din.next = self.h_fp.hash.val();
        self.zx_p_seq.din.next = self.f1_seq.q.val();
        self.zx_p_ts.din.next = self.f1_ts.q.val();
        self.zx_p_force.din.next = self.f1_force.q.val();
        self.pkt_payload.next = (self.zx_p_force.out.val() << self.off_force.val())
            | (self.zx_p_prefix.out.val() << self.off_prefix.val())
            | (self.zx_p_fp.out.val() << self.off_fp.val())
            | (self.zx_p_seq.out.val() << self.off_seq.val())
            | (self.zx_p_ts.out.val() << self.off_ts.val());
        // The flush walk: one index per cycle into its bank when no packet enters it and the flush FIFO has
        // room for every op in flight.
        self.walker.reset.next = self.reset.val();
        self.walker.start.next = self.flush_pending.q.val();
        self.walker.active.next = self.active.val();
        self.walker.ready.next = self.banks[0].in_ready.val();
        self.walk_issue.next = self.walker.busy.val()
            && self.walker.primed.val()
            && (self.fl_fifo.level.val() <= self.room_level.val())
            && !(self.f1.valid.val() && (self.active.val() == self.walker.bank.val()));
        self.walker.issue.next = self.walk_issue.val();
        // S0 of both banks: the packet into the active one, else the walk op into its bank.
        for b in 0..2 {
            self.banks[b].clock.next = self.clock.val();
            self.banks[b].reset.next = self.reset.val();
            if self.f1.valid.val() && (self.active.val() == self.bank_ids[b].val()) {
                self.banks[b].in_valid.next = true;
                self.banks[b].in_index.next = self.pkt_index.val();
                self.banks[b].in_payload.next = self.pkt_payload.val();
            } else {
                self.banks[b].in_valid.next =
                    self.walk_issue.val() && (self.walker.bank.val() == self.bank_ids[b].val());
                self.banks[b].in_index.next = self.walker.addr.val();
                self.banks[b].in_payload.next = self.walk_payload.val();
            }
        }
        // SL (S3): the decision on every candidate, on the bank that holds the packet there (a packet entering a
        // bank at S0 is at its SL three cycles later; a reset flushes the banks, so a stale value here meets no
        // packet); the op directly ahead in that bank is at its SM (a packet: the one the decision holds at SM).
        // SM (S4): the pick on the bank that holds the packet; the walk op's bucket on the bank that holds it.
        // (The consumers below spell their conditions from the banks' outputs again rather than reading
        // `is_packet`/`is_walk` back: so the simulator can order the statements without a combinational loop
        // through the decision.)
        self.sl_pay1.d.next = self.pkt_payload.val();
        self.sl_pay2.d.next = self.sl_pay1.q.val();
        self.sl_pay3.d.next = self.sl_pay2.q.val();
        self.sl_bank1.d.next = self.active.val();
        self.sl_bank2.d.next = self.sl_bank1.q.val();
        self.sl_bank3.d.next = self.sl_bank2.q.val();
        self.decide.pkt.next = self.sl_pay3.q.val();
        self.fl_pack.bucket.next = self.banks[0].mod_old.val();
        self.unused_bank_outputs.next =
            self.banks[1].in_ready.val()
            || self.fl_fifo.drops.val().any()
            || self.ev_pack.occupied.val()
            || self.walker.row.val().any()
            || self.f1.transfer.val();
        for b in 0..2 {
            self.is_packet[b].next = self.banks[b].mod_valid.val() && !self.banks[b].mod_payload.val().get_bit(0);
            self.is_walk[b].next = self.banks[b].mod_valid.val() && self.banks[b].mod_payload.val().get_bit(0);
            if self.is_walk[b].val() {
                self.fl_pack.bucket.next = self.banks[b].mod_old.val();
            }
            self.unused_bank_outputs.next = self.unused_bank_outputs.val()
                || self.banks[b].mod_index.val().any()
                || self.banks[b].mod_payload.val().any()
                || self.banks[b].mod_ram.val().any()
                || self.banks[b].mod_fwd2.val().any()
                || self.banks[b].mod_fwd3.val().any()
                || self.banks[b].mod_fwd4.val().any()
                || self.banks[b].mod_fwd5.val().any()
                || self.banks[b].pre_valid.val()
                || self.banks[b].pre_payload.val().any()
                || self.banks[b].pre_old.val().any()
                || self.banks[b].mod_pick.val().get_bit(0)
                || self.banks[b].mod_pick.val().get_bit(2)
                || self.banks[b].mod_pick.val().get_bit(3)
                || self.banks[b].mod_pick.val().get_bit(4)
                || self.banks[b].mod_pick.val().get_bit(5);
        }
        if self.sl_bank3.q.val() {
            self.decide.early.next = self.banks[1].pre_early.val();
            self.decide.near2.next = self.banks[1].pre_near2.val();
            self.decide.near2_word.next = self.banks[1].mod_fwd1.val();
            self.decide.ahead_packet.next = self.is_packet[1].val();
        } else {
            self.decide.early.next = self.banks[0].pre_early.val();
            self.decide.near2.next = self.banks[0].pre_near2.val();
            self.decide.near2_word.next = self.banks[0].mod_fwd1.val();
            self.decide.ahead_packet.next = self.is_packet[0].val();
        }
        self.decide.near.next = self.banks[0].mod_pick.val().get_bit(1);
        if self.banks[1].mod_valid.val() && !self.banks[1].mod_payload.val().get_bit(0) {
            self.decide.near.next = self.banks[1].mod_pick.val().get_bit(1);
        }
        self.decide.timeout.next = self.cfg_timeout.out.val();
        self.decide.count_c.next = self.cfg_count.out.val();
        self.decide.reorder_r.next = self.cfg_reorder.out.val();
        self.decide.conditions.next = self.cfg_conditions.out.val();
        self.decide.count_first.next = self.cfg_options.out.val().get_bit(0);
        // The evicted resident (the packet's bucket, muxed again from the banks' outputs).
        self.ev_pack.bucket.next = self.banks[0].mod_old.val();
        if self.banks[1].mod_valid.val() && !self.banks[1].mod_payload.val().get_bit(0) {
            self.ev_pack.bucket.next = self.banks[1].mod_old.val();
        }
        // Write-back: the decision's word, or a cleared bucket for the walk.
        for b in 0..2 {
            self.banks[b].mod_write.next = false;
            self.banks[b].mod_new.next = self.zero_w.val();
            if self.banks[b].mod_valid.val() && !self.banks[b].mod_payload.val().get_bit(0) {
                self.banks[b].mod_write.next = self.decide.write.val();
                self.banks[b].mod_new.next = self.decide.new_word.val();
            }
            if self.banks[b].mod_valid.val() && self.banks[b].mod_payload.val().get_bit(0) {
                self.banks[b].mod_write.next = true;
            }
        }
        // S5: result and report registers, the FIFOs, the report port (evictions first).
        self.r_valid.d.next = ((self.banks[0].mod_valid.val() && !self.banks[0].mod_payload.val().get_bit(0))
            || (self.banks[1].mod_valid.val() && !self.banks[1].mod_payload.val().get_bit(0)))
            && !self.reset.val();
        self.r_outcome.d.next = self.decide.outcome.val();
        self.r_ooo.d.next = self.decide.ooo.val();
        self.res_valid.next = self.r_valid.q.val();
        self.res_outcome.next = self.r_outcome.q.val();
        self.res_ooo.next = self.r_ooo.q.val();
        self.ev_v.d.next = ((self.banks[0].mod_valid.val() && !self.banks[0].mod_payload.val().get_bit(0))
            || (self.banks[1].mod_valid.val() && !self.banks[1].mod_payload.val().get_bit(0)))
            && self.decide.evict.val()
            && !self.reset.val();
        self.ev_d.d.next = self.ev_pack.report.val();
        self.fl_v.d.next = ((self.banks[0].mod_valid.val() && self.banks[0].mod_payload.val().get_bit(0))
            || (self.banks[1].mod_valid.val() && self.banks[1].mod_payload.val().get_bit(0)))
            && self.fl_pack.occupied.val()
            && !self.reset.val();
        self.fl_d.d.next = self.fl_pack.report.val();
        self.ev_fifo.reset.next = self.reset.val();
        self.ev_fifo.in_valid.next = self.ev_v.q.val();
        self.ev_fifo.in_data.next = self.ev_d.q.val();
        self.ev_fifo.out_ready.next = self.rep_ready.val();
        self.fl_fifo.reset.next = self.reset.val();
        self.fl_fifo.in_valid.next = self.fl_v.q.val();
        self.fl_fifo.in_data.next = self.fl_d.q.val();
        self.fl_fifo.out_ready.next = self.rep_ready.val() && !self.ev_fifo.out_valid.val();
        self.rep_valid.next = self.ev_fifo.out_valid.val() || self.fl_fifo.out_valid.val();
        if self.ev_fifo.out_valid.val() {
            self.rep_data.next = self.ev_fifo.out_data.val();
        } else {
            self.rep_data.next = self.fl_fifo.out_data.val();
        }
        // Statistics: packets at acceptance, decisions at S5, reports at their push (two in one cycle when
        // an eviction and a flushed bucket meet).
        self.shell.count[0].next = self.ev_v.q.val();
        self.shell.count2[0].next = self.fl_v.q.val();
        self.shell.count[1].next = self.f1.accept.val();
        self.shell.count[2].next = self.f1.accept.val() && self.in_data.val();
        self.shell.count[3].next = self.r_valid.q.val() && (self.r_outcome.q.val() == self.code_hit.val());
        self.shell.count[4].next = self.r_valid.q.val() && (self.r_outcome.q.val() == self.code_insert.val());
        self.shell.count[5].next = self.r_valid.q.val() && (self.r_outcome.q.val() == self.code_overwrite.val());
        self.shell.count[6].next = self.r_valid.q.val() && (self.r_outcome.q.val() == self.code_miss.val());
        self.shell.count[7].next = self.r_valid.q.val() && self.r_ooo.q.val();
        self.shell.flag[0].next = self.walker.busy.val();
        self.zx_ev_level.din.next = self.ev_fifo.level.val();
        self.zx_fl_level.din.next = self.fl_fifo.level.val();
        self.shell.status[0].next = self.ev_fifo.drops.val();
        self.shell.status[1].next = self.zx_ev_level.out.val();
        self.shell.status[2].next = self.zx_fl_level.out.val();
    });
});
