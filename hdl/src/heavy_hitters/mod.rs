//! Heavy-hitter core (`HhCore`): d-way RAP and PRECISION over `D` hash-indexed rows of `{key, count}`
//! buckets, one packet per cycle, two banks (ping-pong) with a read-and-clear walk of the frozen bank into
//! a record FIFO, a per-packet result port (the key's count after the packet: the hybrid reordering
//! detector asks it whether a flow is monitored), run-time settings and counters on the CSR port.
//! Specification and cycle model: `golden::heavy_hitters` (stage table in `golden::heavy_hitters::cycle`).
//!
//! Const generics (checked against the [`HhConfig`] in [`HhCore::new`]): `K` key, `C` count, `A` row
//! address, `D` rows, `W = K + C` bucket, `DA = D·A`, `DW = D·W`, `P = K + 3` bank payload (key | walk |
//! walk row), `R = K + C + A + 2` record, `FA`/`FL = FA + 1` record FIFO address/level bits.
//!
//! Blocks: the index hash ([`HashUnit`], H3 with `D·A` output bits, row `i` its `i`-th slice), the
//! [`Prng`], the admission threshold beside the bank pipeline ([`threshold::AdmitThreshold`]), two
//! [`MultiRmw`] banks with two look-ahead levels ([`LOOKAHEAD`]: SL = S3, SM = S4), the decision
//! ([`decide::HhDecide`]: per-candidate compares at SL on the bank that holds the packet there, the pick at
//! SM on the bank that holds it then), the [`ReportFifo`] of records and the [`CoreShell`].

pub mod builds;
pub mod counts;
pub mod decide;
pub mod threshold;

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::fifo::ReportFifo;
use crate::common::hash::HashUnit;
use crate::common::multi_rmw::MultiRmw;
use crate::common::prng::Prng;
use crate::common::input::InputStage;
use crate::common::reg::Reg;
use crate::common::shell::{cfg_field, CoreShell, StatusSources};
use crate::common::walk::BankWalker;
use crate::declare_block;
use decide::HhDecide;
use golden::common::config::ConfigError;
use golden::common::csr::CsrLayout;
use golden::common::sram::RamTiming;
use golden::heavy_hitters::cycle::{CSR_DUMP, CSR_PRNG_SEED, LOOKAHEAD, SM_STAGE, WALK_IN_FLIGHT};
use golden::heavy_hitters::{index_hash, HhConfig, ROW_BITS};
use rust_hdl::prelude::*;
use threshold::AdmitThreshold;

/// Status registers (9 × 32 bits) of the CSR bank.
pub const STATUS_BITS: usize = 288;
/// Config registers (5 × 32 bits).
pub const CONFIG_BITS: usize = 160;

// The key and bank registers beside the banks (`sl_*`) and the threshold's stages are written for SL = S3.
const _: () = assert!(SM_STAGE == 4, "HhCore carries the packet to SL = S3: add or remove sl_* registers");

/// A deliberate design mistake, for test-only builds that prove the co-simulation catches it (the issue's
/// mutants). Production builds are [`Mutant::None`]; the flags are generation-time constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mutant {
    #[default]
    None,
    /// Admission probability off by one: admit when `count ≤ T` instead of `count < T`.
    AdmitLe,
    /// The minimum over the wrong set of rows on ties: the highest row instead of the lowest.
    TiesHigh,
    /// Forwarding dropped: row 0 of both banks without the distance-2 path.
    Row0NoDist2,
}

/// Where the status registers come from (the shell counts the counters).
const STATUS: StatusSources = StatusSources {
    counters: &["packets", "hits", "inserts", "admissions", "rejections", "records"],
    doubled: 0,
    flags: &["dump_busy"],
    words: &["record_drops", "record_fifo_level"],
};

/// Config field `name` of the core's own register map.
fn field<const N: usize>(layout: &CsrLayout, name: &str) -> Slice<CONFIG_BITS, N> {
    cfg_field(layout, name).expect("the core's own register map")
}

declare_block! {
    #[derive(LogicBlock)]
    pub struct HhCore<
        const K: usize,
        const C: usize,
        const A: usize,
        const D: usize,
        const W: usize,
        const DA: usize,
        const DW: usize,
        const P: usize,
        const R: usize,
        const FA: usize,
        const FL: usize,
    > fn build(
        cfg: &HhConfig,
        layout: &CsrLayout,
        shell: CoreShell<CONFIG_BITS, STATUS_BITS>,
        h_index: HashUnit<K, DA>,
        admit: AdmitThreshold,
        banks: Vec<MultiRmw<A, W, P, D, DA, DW>>,
        decide: HhDecide<K, C, D, W, DW>,
        walker: BankWalker<A, 2>
    ) with csr_port {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        // Packet descriptors.
        pub in_valid: Signal<In, bool>,
        pub in_key: Signal<In, Bits<K>>,
        pub in_ready: Signal<Out, bool>,
        /// The reset sweep is over: from now until the next reset the core takes a descriptor every cycle.
        pub swept: Signal<Out, bool>,
        // Per-packet result (registered, two cycles after SM = S4; no backpressure).
        pub res_valid: Signal<Out, bool>,
        /// 0 reject, 1 hit, 2 insert, 3 admit.
        pub res_outcome: Signal<Out, Bits<2>>,
        pub res_row: Signal<Out, Bits<2>>,
        /// The key's count after the packet (0 if rejected).
        pub res_count: Signal<Out, Bits<C>>,
        // Readout records.
        pub rec_valid: Signal<Out, bool>,
        pub rec_data: Signal<Out, Bits<R>>,
        pub rec_ready: Signal<In, bool>,
        // Blocks.
        shell: CoreShell<CONFIG_BITS, STATUS_BITS> = shell,
        h_index: HashUnit<K, DA> = h_index,
        prng: Prng,
        admit: AdmitThreshold = admit,
        banks: Vec<MultiRmw<A, W, P, D, DA, DW>> = banks,
        decide: HhDecide<K, C, D, W, DW> = decide,
        fifo: ReportFifo<FA, R, FL>,
        cfg_method: Slice<CONFIG_BITS, 1> = field(layout, "method"),
        cfg_admission: Slice<CONFIG_BITS, 1> = field(layout, "admission"),
        cfg_seed: Slice<CONFIG_BITS, 32> = field(layout, "prng_seed"),
        cfg_bank: Slice<CONFIG_BITS, 1> = field(layout, "bank"),
        seed_pending: Reg<bool>,
        dump_pending: Reg<bool>,
        // F1 and the hand-over to the active bank.
        /// F1 and the input handshake (`accept`, `transfer`: a packet enters F1, leaves it).
        f1: InputStage,
        f1_key: Reg<Bits<K>>,
        active: Signal<Local, bool>,
        zx_key: ZeroExt<K, P>,
        // The walk.
        walk_issue: Signal<Local, bool>,
        walker: BankWalker<A, 2> = walker,
        zx_walk_addr: ZeroExt<A, DA>,
        zx_walk_row: ZeroExt<2, P>,
        walk_index: Signal<Local, Bits<DA>>,
        walk_payload: Signal<Local, Bits<P>>,
        // S1, S2, S3 = SL: the packet's key and bank carried beside the banks (one packet enters per cycle),
        // so the SL compares start at flip-flops and not after the banks' payload mux (the threshold block
        // takes as long: three stages).
        sl_key1: Reg<Bits<K>>,
        sl_key2: Reg<Bits<K>>,
        sl_key3: Reg<Bits<K>>,
        sl_bank1: Reg<bool>,
        sl_bank2: Reg<bool>,
        sl_bank3: Reg<bool>,
        // SM (S4): which bank holds the packet / the walk op; their fields.
        pay_row: Vec<Slice<P, 2>> = (0..2).map(|_| Slice::new(K + 1)).collect(),
        pay_walk: Vec<Slice<P, 1>> = (0..2).map(|_| Slice::new(K)).collect(),
        is_packet: Vec<Signal<Local, bool>> = (0..2).map(|_| Default::default()).collect(),
        // S5: a walk op's words and indices (of the bank that held it at SM), its row; the row's bucket is
        // chosen from these registers (at SM the choice followed the banks' forward mux: 95 MHz).
        rw_v: Reg<bool>,
        rw_row: Reg<Bits<2>>,
        rw_old: Reg<Bits<DW>>,
        rw_index: Reg<Bits<DA>>,
        rec_key: Vec<Slice<DW, K>> = (0..D).map(|i| Slice::new(i * W)).collect(),
        rec_count: Vec<Slice<DW, C>> = (0..D).map(|i| Slice::new(i * W + K)).collect(),
        rec_index: Vec<Slice<DA, A>> = (0..D).map(|i| Slice::new(i * A)).collect(),
        sel_key: Signal<Local, Bits<K>>,
        sel_count: Signal<Local, Bits<C>>,
        sel_index: Signal<Local, Bits<A>>,
        zx_rec_key: ZeroExt<K, R>,
        zx_rec_count: ZeroExt<C, R>,
        zx_rec_index: ZeroExt<A, R>,
        zx_rec_row: ZeroExt<2, R>,
        /// Outputs read only in part: bank 1's `in_ready` (it equals bank 0's: same reset sweep), the PRNG's
        /// look-ahead values (this core draws the current value), the banks' `mod_index` (the walk's only),
        /// the look-ahead stage's valid and payload (the core carries the packet's key and bank beside the
        /// banks) and `pre_old` (the decision compares on its parts, `pre_early` and `pre_near2`).
        unused_bank_outputs: Signal<Local, bool>,
        // S5: the result as decided (the counters count it): the write mask and each row's new count; S6:
        // the result port (the row and count chosen from S5's registers) and the record register.
        r_valid: Reg<bool>,
        r_outcome: Reg<Bits<2>>,
        r_pick: Reg<Bits<D>>,
        r_inc: Vec<Reg<Bits<C>>> = (0..D).map(|_| Default::default()).collect(),
        new_count: Vec<Slice<DW, C>> = (0..D).map(|i| Slice::new(i * W + K)).collect(),
        o_valid: Reg<bool>,
        o_outcome: Reg<Bits<2>>,
        o_row: Reg<Bits<2>>,
        o_count: Reg<Bits<C>>,
        rec_v: Reg<bool>,
        rec_d: Reg<Bits<R>>,
        // Statistics (the counters are the shell's).
        zx_level: ZeroExt<FL, 32>,
        // Generation-time constants.
        bank_ids: Vec<Constant<bool>> = vec![Constant::new(false), Constant::new(true)],
        row_ids: Vec<Constant<Bits<2>>> = consts(0..D as u64),
        row_bits: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| 1u64 << i)),
        off_rows: Vec<Constant<Bits<16>>> = consts((0..D).map(|i| (i * A) as u64)),
        off_walk: Constant<Bits<16>> = constant(K as u64),
        off_walk_row: Constant<Bits<16>> = constant(K as u64 + 1),
        off_count: Constant<Bits<16>> = constant(K as u64),
        off_index: Constant<Bits<16>> = constant((K + C) as u64),
        off_row: Constant<Bits<16>> = constant((K + C + A) as u64),
        one_p: Constant<Bits<P>> = constant(1),
        zero_da: Constant<Bits<DA>> = Constant::new(Bits::default()),
        zero_dw: Constant<Bits<DW>> = Constant::new(Bits::default()),
        zero_d: Constant<Bits<D>> = constant(0),
        zero_c: Constant<Bits<C>> = constant(0),
        room_level: Constant<Bits<FL>> = constant(((1usize << FA) - WALK_IN_FLIGHT) as u64),
        csr_seed: Constant<Bits<8>> = constant(CSR_PRNG_SEED as u64),
        csr_dump: Constant<Bits<8>> = constant(CSR_DUMP as u64),
        code_reject: Constant<Bits<2>> = constant(0),
        code_hit: Constant<Bits<2>> = constant(1),
        code_insert: Constant<Bits<2>> = constant(2),
        code_admit: Constant<Bits<2>> = constant(3),
        _d: usize = D,
        _cfg: HhConfig = cfg.clone(),
    }
}

/// `impl` of [`HhCore`] with its eleven generics written once.
macro_rules! hh_core_impl {
    ($($tr:ident for)? { $($body:tt)* }) => {
        impl<
                const K: usize,
                const C: usize,
                const A: usize,
                const D: usize,
                const W: usize,
                const DA: usize,
                const DW: usize,
                const P: usize,
                const R: usize,
                const FA: usize,
                const FL: usize,
            > $($tr for)? HhCore<K, C, A, D, W, DA, DW, P, R, FA, FL>
        {
            $($body)*
        }
    };
}

hh_core_impl!({
    pub fn new(cfg: &HhConfig) -> Result<Self, ConfigError> {
        Self::with_mutant(cfg, Mutant::None)
    }
    /// Test-only: the core with a deliberate mistake (see [`Mutant`]).
    pub fn with_mutant(cfg: &HhConfig, mutant: Mutant) -> Result<Self, ConfigError> {
        use crate::common::rmw::FORWARD_ALL;
        cfg.check()?;
        let expect = [
            ("K", K, cfg.key_bits),
            ("C", C, cfg.count_bits),
            ("A", A, cfg.addr_bits),
            ("D", D, cfg.rows),
            ("W", W, cfg.bucket_bits()),
            ("DA", DA, cfg.rows * cfg.addr_bits),
            ("DW", DW, cfg.rows * cfg.bucket_bits()),
            ("P", P, cfg.key_bits + 1 + ROW_BITS),
            ("R", R, cfg.record_bits()),
            ("FA", FA, cfg.record_fifo_bits),
            ("FL", FL, cfg.record_fifo_bits + 1),
        ];
        for (name, got, want) in expect {
            if got != want {
                return Err(ConfigError(format!("HhCore generic {name} = {got}, the configuration needs {want}")));
            }
        }
        if FA < 3 {
            return Err(ConfigError("HhCore: record_fifo_bits must be at least 3".into()));
        }
        let layout = cfg.csr_layout();
        let shell = CoreShell::new(layout.clone(), &STATUS)?;
        let mut forward = vec![FORWARD_ALL; D];
        if mutant == Mutant::Row0NoDist2 {
            forward[0] &= !0b010;
        }
        let bank = || MultiRmw::with_lookahead(RamTiming::Short, LOOKAHEAD, &forward);
        let banks = vec![bank()?, bank()?];
        let admit = AdmitThreshold::new().map_err(ConfigError)?;
        let decide = HhDecide::with_mutant(mutant).map_err(ConfigError)?;
        let walker = BankWalker::new(D).map_err(ConfigError)?;
        Ok(Self::build(cfg, &layout, shell, HashUnit::new(index_hash(cfg))?, admit, banks, decide, walker))
    }
    pub fn config(&self) -> &HhConfig {
        &self._cfg
    }
});

hh_core_impl!(Logic for {
    crate::core_update!(cfg(cfg_method, cfg_admission, cfg_seed, cfg_bank)
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            seed_pending,
            dump_pending,
            f1_key,
            r_valid,
            r_outcome,
            r_pick,
            o_valid,
            o_outcome,
            o_row,
            o_count,
            rec_v,
            rec_d,
            sl_key1,
            sl_key2,
            sl_key3,
            sl_bank1,
            sl_bank2,
            sl_bank3,
            rw_v,
            rw_row,
            rw_old,
            rw_index
        );
        clock!(self, clock, f1, shell, h_index, prng, admit, decide, fifo, walker);
        // Run-time settings (the CSR pins and config fields are wired by `core_update!`).
        self.active.next = self.cfg_bank.out.val().any();
        self.seed_pending.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_seed.val()) && !self.reset.val();
        self.dump_pending.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_dump.val()) && !self.reset.val();
        // Input handshake, F1, the index hash (loaded with the packet F1 takes).
        self.f1.reset.next = self.reset.val();
        self.f1.in_valid.next = self.in_valid.val();
        self.f1.keep.next = true;
        self.f1.out_ready.next = self.banks[0].in_ready.val();
        self.in_ready.next = self.f1.in_ready.val();
        self.swept.next = self.banks[0].in_ready.val();
        if self.f1.accept.val() {
            self.f1_key.d.next = self.in_key.val();
        }
        self.h_index.key.next = self.in_key.val();
        self.h_index.load.next = self.f1.accept.val();
        // The PRNG draws for every packet entering a bank; its value addresses the threshold's ROM.
        self.prng.reset.next = self.reset.val();
        self.prng.seed_load.next = self.seed_pending.q.val();
        self.prng.seed.next = self.cfg_seed.out.val();
        self.prng.advance.next = self.f1.transfer.val();
        self.admit.r.next = self.prng.value.val();
        self.admit.pow2.next = self.cfg_admission.out.val().any();
        // The walk: one (row, index) per cycle into its bank when no packet enters it and the record FIFO
        // has room for every op in flight.
        self.walker.reset.next = self.reset.val();
        self.walker.start.next = self.dump_pending.q.val();
        self.walker.active.next = self.active.val();
        self.walker.ready.next = self.banks[0].in_ready.val();
        self.walk_issue.next = self.walker.busy.val()
            && self.walker.primed.val()
            && (self.fifo.level.val() <= self.room_level.val())
            && !(self.f1.valid.val() && (self.active.val() == self.walker.bank.val()));
        self.walker.issue.next = self.walk_issue.val();
        self.zx_walk_addr.din.next = self.walker.addr.val();
        self.walk_index.next = self.zero_da.val();
        for i in 0..self._d {
            self.walk_index.next = self.walk_index.val() | (self.zx_walk_addr.out.val() << self.off_rows[i].val());
        }
        self.zx_walk_row.din.next = self.walker.row.val();
        self.walk_payload.next = (self.one_p.val() << self.off_walk.val()) | (self.zx_walk_row.out.val() << self.off_walk_row.val());
        // S0 of both banks: the packet into the active one, else the walk op into its bank.
        self.zx_key.din.next = self.f1_key.q.val();
        for b in 0..2 {
            self.banks[b].clock.next = self.clock.val();
            self.banks[b].reset.next = self.reset.val();
            // A bank takes what is offered when it is ready (the packet or walk op waits otherwise).
            if self.f1.valid.val() && (self.active.val() == self.bank_ids[b].val()) {
                self.banks[b].in_valid.next = true;
                self.banks[b].in_index.next = self.h_index.hash.val();
                self.banks[b].in_payload.next = self.zx_key.out.val();
            } else {
                self.banks[b].in_valid.next = self.walk_issue.val() && (self.walker.bank.val() == self.bank_ids[b].val());
                self.banks[b].in_index.next = self.walk_index.val();
                self.banks[b].in_payload.next = self.walk_payload.val();
            }
        }
        // SL (S3): the decision's compares on the bank that holds the packet there; the op directly ahead in
        // that bank is at its SM (a packet: the one the decision holds at SM).
        self.unused_bank_outputs.next = self.banks[1].in_ready.val()
            || self.prng.advanced_value.val().any()
            || self.prng.seed_value.val().any();
        for b in 0..2 {
            self.unused_bank_outputs.next = self.unused_bank_outputs.val()
                || self.banks[b].pre_valid.val()
                || self.banks[b].pre_payload.val().any();
            self.pay_row[b].din.next = self.banks[b].mod_payload.val();
            self.pay_walk[b].din.next = self.banks[b].mod_payload.val();
            self.is_packet[b].next = self.banks[b].mod_valid.val() && !self.pay_walk[b].out.val().any();
        }
        // The key and bank of the packet at SL, if one is there (a packet entering a bank at S0 is at its
        // SL three cycles later; a reset flushes the banks, so a stale value here meets no packet).
        self.sl_key1.d.next = self.f1_key.q.val();
        self.sl_key2.d.next = self.sl_key1.q.val();
        self.sl_key3.d.next = self.sl_key2.q.val();
        self.sl_bank1.d.next = self.active.val();
        self.sl_bank2.d.next = self.sl_bank1.q.val();
        self.sl_bank3.d.next = self.sl_bank2.q.val();
        self.decide.key.next = self.sl_key3.q.val();
        self.decide.key_next.next = self.sl_key2.q.val();
        self.unused_bank_outputs.next =
            self.unused_bank_outputs.val() || self.banks[0].pre_old.val().any() || self.banks[1].pre_old.val().any();
        self.decide.bank.next = self.sl_bank3.q.val();
        self.decide.early0.next = self.banks[0].pre_early.val();
        self.decide.early1.next = self.banks[1].pre_early.val();
        self.decide.near2_0.next = self.banks[0].pre_near2.val();
        self.decide.near2_1.next = self.banks[1].pre_near2.val();
        if self.sl_bank2.q.val() {
            self.decide.x2_packet_next.next = self.is_packet[1].val();
        } else {
            self.decide.x2_packet_next.next = self.is_packet[0].val();
        }
        if self.sl_bank3.q.val() {
            self.decide.ahead_packet.next = self.is_packet[1].val();
        } else {
            self.decide.ahead_packet.next = self.is_packet[0].val();
        }
        // SM (S4): the pick on the bank that holds the packet.
        self.decide.near.next = self.banks[0].mod_near.val();
        if self.is_packet[1].val() {
            self.decide.near.next = self.banks[1].mod_near.val();
        }
        self.decide.threshold.next = self.admit.threshold.val();
        self.decide.precision.next = self.cfg_method.out.val().any();
        // The walk op at SM (on whichever bank holds it): its bank's words registered (S5).
        self.rw_v.d.next = false;
        self.rw_row.d.next = self.pay_row[0].out.val();
        self.rw_old.d.next = self.banks[0].mod_old.val();
        self.rw_index.d.next = self.banks[0].mod_index.val();
        for b in 0..2 {
            if self.banks[b].mod_valid.val() && self.pay_walk[b].out.val().any() {
                self.rw_v.d.next = !self.reset.val();
                self.rw_row.d.next = self.pay_row[b].out.val();
                self.rw_old.d.next = self.banks[b].mod_old.val();
                self.rw_index.d.next = self.banks[b].mod_index.val();
            }
        }
        // Write-back (conditions spelt from the banks' outputs, as for the walk op above).
        for b in 0..2 {
            self.banks[b].mod_new.next = self.zero_dw.val();
            self.banks[b].mod_write.next = self.zero_d.val();
            if self.banks[b].mod_valid.val() && !self.pay_walk[b].out.val().any() {
                self.banks[b].mod_write.next = self.decide.write.val();
                self.banks[b].mod_new.next = self.decide.new_words.val();
            }
            for i in 0..self._d {
                if self.banks[b].mod_valid.val()
                    && self.pay_walk[b].out.val().any()
                    && (self.pay_row[b].out.val() == self.row_ids[i].val())
                {
                    self.banks[b].mod_write.next = self.row_bits[i].val();
                }
            }
        }
        // S5: result registers.
        self.r_valid.d.next = (self.is_packet[0].val() || self.is_packet[1].val()) && !self.reset.val();
        self.r_outcome.d.next = self.decide.outcome.val();
        self.r_pick.d.next = self.decide.write.val();
        // S6: the result port.
        self.o_valid.d.next = self.r_valid.q.val() && !self.reset.val();
        self.o_outcome.d.next = self.r_outcome.q.val();
        self.o_row.d.next = self.row_ids[0].val();
        self.o_count.d.next = self.zero_c.val();
        for i in 0..self._d {
            self.r_inc[i].clock.next = self.clock.val();
            self.new_count[i].din.next = self.decide.new_words.val();
            self.r_inc[i].d.next = self.new_count[i].out.val();
            if (self.r_pick.q.val() & self.row_bits[i].val()).any() {
                self.o_row.d.next = self.o_row.d.val() | self.row_ids[i].val();
                self.o_count.d.next = self.o_count.d.val() | self.r_inc[i].q.val();
            }
        }
        self.res_valid.next = self.o_valid.q.val();
        self.res_outcome.next = self.o_outcome.q.val();
        self.res_row.next = self.o_row.q.val();
        self.res_count.next = self.o_count.q.val();
        // S5 → S6: the walk op's row of its registered words; a record if that bucket is not empty.
        self.sel_key.next = self.rec_key[0].out.val();
        self.sel_count.next = self.rec_count[0].out.val();
        self.sel_index.next = self.rec_index[0].out.val();
        for i in 0..self._d {
            self.rec_key[i].din.next = self.rw_old.q.val();
            self.rec_count[i].din.next = self.rw_old.q.val();
            self.rec_index[i].din.next = self.rw_index.q.val();
            if self.rw_row.q.val() == self.row_ids[i].val() {
                self.sel_key.next = self.rec_key[i].out.val();
                self.sel_count.next = self.rec_count[i].out.val();
                self.sel_index.next = self.rec_index[i].out.val();
            }
        }
        self.zx_rec_key.din.next = self.sel_key.val();
        self.zx_rec_count.din.next = self.sel_count.val();
        self.zx_rec_index.din.next = self.sel_index.val();
        self.zx_rec_row.din.next = self.rw_row.q.val();
        self.rec_v.d.next = self.rw_v.q.val() && (self.sel_count.val() != self.zero_c.val()) && !self.reset.val();
        self.rec_d.d.next = self.zx_rec_key.out.val()
            | (self.zx_rec_count.out.val() << self.off_count.val())
            | (self.zx_rec_index.out.val() << self.off_index.val())
            | (self.zx_rec_row.out.val() << self.off_row.val());
        self.fifo.reset.next = self.reset.val();
        self.fifo.in_valid.next = self.rec_v.q.val();
        self.fifo.in_data.next = self.rec_d.q.val();
        self.fifo.out_ready.next = self.rec_ready.val();
        self.rec_valid.next = self.fifo.out_valid.val();
        self.rec_data.next = self.fifo.out_data.val();
        // Statistics: packets at acceptance, outcomes at S5, records at their push.
        self.shell.count[0].next = self.f1.accept.val();
        self.shell.count[1].next = self.r_valid.q.val() && (self.r_outcome.q.val() == self.code_hit.val());
        self.shell.count[2].next = self.r_valid.q.val() && (self.r_outcome.q.val() == self.code_insert.val());
        self.shell.count[3].next = self.r_valid.q.val() && (self.r_outcome.q.val() == self.code_admit.val());
        self.shell.count[4].next = self.r_valid.q.val() && (self.r_outcome.q.val() == self.code_reject.val());
        self.shell.count[5].next = self.rec_v.q.val();
        self.shell.flag[0].next = self.walker.busy.val();
        self.shell.status[0].next = self.fifo.drops.val();
        self.zx_level.din.next = self.fifo.level.val();
        self.shell.status[1].next = self.zx_level.out.val();
    });
});
