//! Fridge core (`FridgeCore`): N fridges in one hash-indexed table, survivorship-bias correction data
//! (insertion counters) stamped into every entry, delay reports through the report FIFO, run-time
//! settings and counters on the CSR port. Also the prior-work baselines (simple, expiry) by CSR `mode`.
//! Specification and cycle model: `golden::fridge` (see `golden::fridge::cycle` for the stage table).
//!
//! Pipeline: the front register F1 (hashes, fridge, entry decision, counter, and the expiry interval of the
//! write decision's settings) hands the packet to the table's RMW pipeline with two look-ahead levels
//! (`hdl::common::rmw`). At its look-ahead stage SL the write decision ([`FridgeDecide`]) runs on every
//! candidate for the entry — the word before the packet ahead or the write of the packet two ahead (a
//! choice between flip-flops), and the word the packet directly ahead writes; the compares with the words
//! of the packets ahead need only their fields and run a stage earlier, SL − 1 — and is registered; at SM
//! the pipeline says whether the packet ahead wrote the entry and the registered answer is picked, so the
//! loop from one packet's write to the next one's write-enable is a 2:1 choice. SM + 1 registers the
//! report. On short RAM SL − 1 = S2, SL = S3, SM = S4; on registered RAM (`FridgeConfig::registered_ram`,
//! large tables) the read takes two stages more: S4, S5, S6.
//!
//! Const generics (checked against the [`FridgeConfig`] in [`FridgeCore::new`]):
//! `A` table RAM address bits, `S` signature, `T` stored timestamp, `C` counter, `E = 1+S+T+C` entry,
//! `R = 3+T+C` report, `FA`/`FL = FA+1` report FIFO address/level bits, `CW = 32·(5+N)` CSR config bits,
//! `TA`/`RA` tally bank and weight-ROM address bits ([`tally`]; the tally exists when the configuration
//! says so, `FridgeConfig::tally`).

pub mod builds;
pub mod decide;
pub mod tally;

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::declare_block;
pub use decide::{EntryCompare, ExpiryInterval, FridgeDecide, WriteChoice};
use crate::common::shell::{cfg_field, CoreShell, StatusSources};
use crate::common::fifo::ReportFifo;
use crate::common::hash::HashUnit;
use crate::common::prng::Prng;
use crate::common::reg::Reg;
use crate::common::rmw::{RmwPipeline, FORWARD_ALL};
use golden::common::config::{ConfigError, TIMESTAMP_BITS};
use golden::common::rmw::modify_stage_la;
use golden::common::prng::PRNG_DEFAULT_SEED;
use golden::common::csr::CsrLayout;
use golden::fridge::cycle::{CSR_MODE, CSR_PRNG_SEED, CSR_THRESHOLD0};
use golden::fridge::tally::RECORD_BITS;
use golden::fridge::{
    FridgeConfig, FridgeMode, FRIDGE_INDEX_BITS, ID_BITS, INDEX_HASH, LOOKAHEAD, SELECT_HASH, SIGNATURE_HASH,
};
use rust_hdl::prelude::*;
use tally::FridgeTally;

/// The RMW pipeline's stages S1..=SM: the packet's fields travel beside it (`dq_*`). Two look-ahead levels:
/// the core compares at SL − 1, decides at SL = SM − 1 and picks at SM — SM = S4 on short RAM, S6 on
/// registered RAM ([`FridgeConfig::registered_ram`]).
fn stages(cfg: &FridgeConfig) -> usize {
    modify_stage_la(cfg.ram_timing(), LOOKAHEAD)
}

/// Status registers (8 × 32 bits) of the CSR bank.
pub const STATUS_BITS: usize = 256;

/// The status registers in the order the core drives its shell's `status[i]` (placed by the layout).
/// Where the status registers come from (the shell counts the counters).
const STATUS: StatusSources = StatusSources {
    counters: &["packets", "requests", "insertions", "reports"],
    doubled: 0,
    flags: &["tally_busy"],
    words: &["report_drops", "report_fifo_level", "tally_drops"],
};

/// Config field `name` of the core's own register map.
fn field<const CW: usize, const N: usize>(layout: &CsrLayout, name: &str) -> Slice<CW, N> {
    cfg_field(layout, name).expect("the core's own register map")
}

declare_block! {
    #[derive(LogicBlock)]
    pub struct FridgeCore<
        const A: usize,
        const S: usize,
        const T: usize,
        const C: usize,
        const E: usize,
        const R: usize,
        const FA: usize,
        const FL: usize,
        const CW: usize,
        const TA: usize,
        const RA: usize,
    > fn build(
        cfg: &FridgeConfig,
        layout: &CsrLayout,
        n: usize,
        default_mode: FridgeMode,
        shell: CoreShell<CW, STATUS_BITS>,
        tally: Vec<FridgeTally<TA, RA, T, C>>,
        h_select: Vec<HashUnit<ID_BITS, 16>>,
        h_index: HashUnit<ID_BITS, A>,
        h_sig: HashUnit<ID_BITS, S>,
        rmw: RmwPipeline<A, E, 1>
    ) with csr_port {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        // Packet descriptors.
        pub in_valid: Signal<In, bool>,
        pub in_request: Signal<In, bool>,
        pub in_id: Signal<In, Bits<ID_BITS>>,
        pub in_ts: Signal<In, Bits<TIMESTAMP_BITS>>,
        pub in_ready: Signal<Out, bool>,
        // Reports.
        pub rep_valid: Signal<Out, bool>,
        pub rep_data: Signal<Out, Bits<R>>,
        pub rep_ready: Signal<In, bool>,
        // Tally records (never valid without a tally).
        pub tally_valid: Signal<Out, bool>,
        pub tally_data: Signal<Out, Bits<RECORD_BITS>>,
        pub tally_ready: Signal<In, bool>,
        // Shared blocks.
        /// Fridge selection hash; absent (empty) with one fridge.
        h_select: Vec<HashUnit<ID_BITS, 16>> = h_select,
        /// Index hash: the low A bits of H3/32.
        h_index: HashUnit<ID_BITS, A> = h_index,
        /// Signature: the low S bits of CRC-32.
        h_sig: HashUnit<ID_BITS, S> = h_sig,
        prng: Prng,
        /// The table's RMW pipeline with [`LOOKAHEAD`] = 2 look-ahead levels (SM = S4 short, S6 registered).
        rmw: RmwPipeline<A, E, 1> = rmw,
        fifo: ReportFifo<FA, R, FL>,
        shell: CoreShell<CW, STATUS_BITS> = shell,
        /// The in-hardware tally and what only it uses (empty vectors without a tally).
        tally: Vec<FridgeTally<TA, RA, T, C>> = tally,
        dump_pending: Vec<Reg<bool>> = if cfg.tally { vec![Reg::default()] } else { vec![] },
        cfg_tally_bank: Vec<Slice<CW, 1>> = if cfg.tally { vec![field(layout, "tally_bank")] } else { vec![] },
        csr_dump: Vec<Constant<Bits<8>>> = consts(cfg.tally.then_some(cfg.csr_tally_bank() as u64 + 1)),
        rep_k: Vec<Slice<R, 3>> = if cfg.tally { vec![Slice::new(0)] } else { vec![] },
        rep_delay: Vec<Slice<R, T>> = if cfg.tally { vec![Slice::new(FRIDGE_INDEX_BITS)] } else { vec![] },
        rep_x: Vec<Slice<R, C>> = if cfg.tally { vec![Slice::new(FRIDGE_INDEX_BITS + T)] } else { vec![] },
        pipe_ready: Signal<Local, bool>,
        /// The tally port's ready: read by the tally only, and named for lint when there is none.
        unused_tally_ready: Signal<Local, bool>,
        st_tally_busy: Signal<Local, bool>,
        st_tally_drops: Signal<Local, Bits<32>>,
        // Front register F1.
        f1_valid: Reg<bool>,
        f1_request: Reg<bool>,
        f1_ts: Reg<Bits<TIMESTAMP_BITS>>,
        counters: Vec<Reg<Bits<C>>> = (0..n).map(|_| Reg::default()).collect(),
        // F1 decisions.
        accept: Signal<Local, bool>,
        transfer: Signal<Local, bool>,
        k: Signal<Local, Bits<3>>,
        /// `prng ≤ threshold` of the selected fridge, from `le_q`.
        le: Signal<Local, bool>,
        /// Per fridge, `prng ≤ threshold` as they will be next cycle: the PRNG's candidates for its next value
        /// (held, advanced, seed) against the threshold register's candidates (held, written), compared side
        /// by side and picked by the PRNG's priority. F1's entry decision reads a register, not a carry chain.
        le_q: Vec<Reg<bool>> = (0..n).map(|_| Reg::default()).collect(),
        /// The seed candidate is split as well: a zero seed loads the PRNG's default seed (`Prng`), so both
        /// seeds are compared and the zero test picks between the results (the PRNG's own `seed_value`, a
        /// zero test before the compare's carry chain, is not read).
        seed_zero: Signal<Local, bool>,
        default_seed: Constant<Bits<32>> = constant(PRNG_DEFAULT_SEED as u64),
        unused_seed_value: Signal<Local, bool>,
        base: Signal<Local, Bits<A>>,
        index_mask: Signal<Local, Bits<A>>,
        count: Signal<Local, Bits<C>>,
        snapshot: Signal<Local, Bits<C>>,
        enters: Signal<Local, bool>,
        /// The `mode` register decoded, registered alongside it (loaded by the same CSR write or reset).
        mode_fridge: Reg<bool>,
        mode_expiry: Reg<bool>,
        wr_mode: Signal<Local, bool>,
        // The packet's fields alongside the RMW pipeline, `[s-1]` = stage s (S1..=SM).
        dq_request: Vec<Reg<bool>> = (0..stages(cfg)).map(|_| Reg::default()).collect(),
        dq_k: Vec<Reg<Bits<3>>> = (0..stages(cfg)).map(|_| Reg::default()).collect(),
        dq_sig: Vec<Reg<Bits<S>>> = (0..stages(cfg)).map(|_| Reg::default()).collect(),
        dq_ts: Vec<Reg<Bits<T>>> = (0..stages(cfg)).map(|_| Reg::default()).collect(),
        dq_count: Vec<Reg<Bits<C>>> = (0..stages(cfg)).map(|_| Reg::default()).collect(),
        // The write decision's settings, read at F1 as the packet leaves it, through S1..=SL: the mode and
        // the expiry interval of the packet's timestamp (see [`WriteChoice`]).
        interval: ExpiryInterval<T> = ExpiryInterval::new(),
        dq_mode_expiry: Vec<Reg<bool>> = (0..stages(cfg) - 1).map(|_| Reg::default()).collect(),
        dq_hi: Vec<Reg<Bits<T>>> = (0..stages(cfg) - 1).map(|_| Reg::default()).collect(),
        dq_wrap: Vec<Reg<bool>> = (0..stages(cfg) - 1).map(|_| Reg::default()).collect(),
        dq_ts_max: Vec<Reg<bool>> = (0..stages(cfg) - 1).map(|_| Reg::default()).collect(),
        dq_never: Vec<Reg<bool>> = (0..stages(cfg) - 1).map(|_| Reg::default()).collect(),
        _stages: usize = stages(cfg),
        /// `dq_*` indices of SL − 1, SL and SM (`update` reads a stage in a loop of one pass from its index
        /// to the next: `hdl_gen` indexes by loop variables only).
        _i_pre: usize = stages(cfg) - 3,
        _i_sl: usize = stages(cfg) - 2,
        _i_sm: usize = stages(cfg) - 1,
        /// The SM packet's fields (`dq_*` at SM).
        sm_request: Signal<Local, bool>,
        sm_k: Signal<Local, Bits<3>>,
        sm_sig: Signal<Local, Bits<S>>,
        sm_ts: Signal<Local, Bits<T>>,
        sm_count: Signal<Local, Bits<C>>,
        // S2..SM: the write decision (its compares at S2 and SL, the decision at SL, the pick at SM).
        decide: FridgeDecide<E, S, T> = FridgeDecide::new(),
        /// The SM packet's new word (a request's entry, or the empty entry a matched response leaves).
        new_word: Signal<Local, Bits<E>>,
        old_ts: Slice<E, T> = Slice::new(1 + S),
        old_count: Slice<E, C> = Slice::new(1 + S + T),
        ts_scaled: Slice<TIMESTAMP_BITS, T> = Slice::new(cfg.ts_shift),
        cfg_expiry: Slice<CW, 32> = field(layout, "expiry"),
        cfg_seed: Slice<CW, 32> = field(layout, "prng_seed"),
        cfg_thresholds: Vec<Slice<CW, 32>> = (0..n).map(|k| field(layout, &format!("threshold{k}"))).collect(),
        seed_pending: Reg<bool>,
        zx_level: ZeroExt<FL, 32>,
        age: Signal<Local, Bits<T>>,
        /// The RMW pipeline's modify-stage index: the payload fields suffice here.
        unused_mod_index: Signal<Local, bool>,
        zx_valid: ZeroExt<1, E>,
        zx_sig: ZeroExt<S, E>,
        zx_ts: ZeroExt<T, E>,
        zx_count: ZeroExt<C, E>,
        zx_rep_k: ZeroExt<3, R>,
        zx_rep_delay: ZeroExt<T, R>,
        zx_rep_x: ZeroExt<C, R>,
        // SM + 1: report register.
        r_valid: Reg<bool>,
        r_data: Reg<Bits<R>>,
        // Statistics.
        // Generation-time constants.
        bounds: Vec<Constant<Bits<16>>> = consts((1..n).map(|k| cfg.bound(k) as u64)),
        fridge_ids: Vec<Constant<Bits<3>>> = consts(0..n as u64),
        bases: Vec<Constant<Bits<A>>> = consts((0..n).map(|k| cfg.base(k) as u64)),
        index_masks: Vec<Constant<Bits<A>>> = consts((0..n).map(|k| cfg.entries(k) as u64 - 1)),
        one_c: Constant<Bits<C>> = Constant::new(Bits::from(1u64)),
        zero_e: Constant<Bits<E>> = Constant::new(Bits::default()),
        zero_rec: Constant<Bits<RECORD_BITS>> = Constant::new(Bits::default()),
        one_1: Constant<Bits<1>> = Constant::new(Bits::from(1u64)),
        off_sig: Constant<Bits<8>> = Constant::new(Bits::from(1u64)),
        off_ts: Constant<Bits<8>> = Constant::new(Bits::from(1 + S as u64)),
        off_count: Constant<Bits<8>> = Constant::new(Bits::from(1 + S as u64 + T as u64)),
        off_rep_delay: Constant<Bits<8>> = Constant::new(Bits::from(FRIDGE_INDEX_BITS as u64)),
        off_rep_x: Constant<Bits<8>> = Constant::new(Bits::from((FRIDGE_INDEX_BITS + T) as u64)),
        zero_c: Constant<Bits<C>> = Constant::new(Bits::default()),
        zero_1: Constant<Bits<1>> = Constant::new(Bits::default()),
        zero_32: Constant<Bits<32>> = Constant::new(Bits::default()),
        csr_seed: Constant<Bits<8>> = Constant::new(Bits::from(CSR_PRNG_SEED as u64)),
        csr_mode: Constant<Bits<8>> = Constant::new(Bits::from(CSR_MODE as u64)),
        csr_thresholds: Vec<Constant<Bits<8>>> = consts((0..n).map(|k| CSR_THRESHOLD0 as u64 + k as u64)),
        default_mode_fridge: Constant<bool> = Constant::new(default_mode == FridgeMode::Fridge),
        default_mode_expiry: Constant<bool> = Constant::new(default_mode == FridgeMode::Expiry),
        ts_max_c: Constant<Bits<T>> = Constant::new(Bits::from((1u64 << T) - 1)),
        mode_simple: Constant<Bits<32>> = Constant::new(Bits::from(FridgeMode::Simple as u64)),
        mode_expiry_code: Constant<Bits<32>> = Constant::new(Bits::from(FridgeMode::Expiry as u64)),
        _n: usize = n,
        _tally: usize = cfg.tally as usize,
        _cfg: FridgeConfig = cfg.clone(),
    }
}

/// `impl` of [`FridgeCore`] with its eleven generics written once here: `fridge_core_impl!({ … })` for
/// inherent items, `fridge_core_impl!(Logic for { … })` for a trait.
macro_rules! fridge_core_impl {
    ($($tr:ident for)? { $($body:tt)* }) => {
        impl<
                const A: usize,
                const S: usize,
                const T: usize,
                const C: usize,
                const E: usize,
                const R: usize,
                const FA: usize,
                const FL: usize,
                const CW: usize,
                const TA: usize,
                const RA: usize,
            > $($tr for)? FridgeCore<A, S, T, C, E, R, FA, FL, CW, TA, RA>
        {
            $($body)*
        }
    };
}

fridge_core_impl!({
    pub fn new(cfg: &FridgeConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        let n = cfg.fridges();
        let default_mode = FridgeMode::from_csr(cfg.csr_layout().config[CSR_MODE as usize].1);
        let expect = [
            ("A", A, cfg.ram_addr_bits()),
            ("S", S, cfg.sig_bits),
            ("T", T, cfg.ts_bits),
            ("C", C, cfg.counter_bits),
            ("E", E, cfg.entry_bits()),
            ("R", R, cfg.report_bits()),
            ("FA", FA, cfg.report_fifo_bits),
            ("FL", FL, cfg.report_fifo_bits + 1),
            ("CW", CW, 32 * cfg.csr_layout().config.len()),
            ("TA", TA, golden::fridge::tally::bank_addr_bits(cfg)),
            ("RA", RA, golden::fridge::tally::rom_addr_bits(cfg)),
        ];
        for (name, got, want) in expect {
            if got != want {
                return Err(ConfigError(format!("FridgeCore generic {name} = {got}, the configuration needs {want}")));
            }
        }
        let layout = cfg.csr_layout();
        let shell = CoreShell::new(layout.clone(), &STATUS)?;
        let tally = if cfg.tally { vec![FridgeTally::new(cfg)?] } else { vec![] };
        let h_select = if n > 1 { vec![HashUnit::new(SELECT_HASH)?] } else { vec![] };
        let (h_index, h_sig) = (HashUnit::new(INDEX_HASH)?, HashUnit::new(SIGNATURE_HASH)?);
        let rmw = RmwPipeline::with_lookahead(cfg.ports, cfg.ram_timing(), LOOKAHEAD, FORWARD_ALL)?;
        Ok(Self::build(cfg, &layout, n, default_mode, shell, tally, h_select, h_index, h_sig, rmw))
    }
    pub fn config(&self) -> &FridgeConfig {
        &self._cfg
    }
});

fridge_core_impl!(Logic for {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            f1_valid,
            f1_request,
            f1_ts,
            mode_fridge,
            mode_expiry,
            r_valid,
            r_data,
            seed_pending
        );
        clock!(self, clock, h_index, h_sig, prng, rmw, fifo, shell, decide);
        for j in 0..self.h_select.len() {
            self.h_select[j].clock.next = self.clock.val();
        }
        for i in 0..self._n {
            self.counters[i].clock.next = self.clock.val();
            self.counters[i].d.next = self.counters[i].q.val();
        }
        for s in 0..self._stages {
            self.dq_request[s].clock.next = self.clock.val();
            self.dq_k[s].clock.next = self.clock.val();
            self.dq_sig[s].clock.next = self.clock.val();
            self.dq_ts[s].clock.next = self.clock.val();
            self.dq_count[s].clock.next = self.clock.val();
        }
        for s in 1..self._stages {
            self.dq_mode_expiry[s - 1].clock.next = self.clock.val();
            self.dq_hi[s - 1].clock.next = self.clock.val();
            self.dq_wrap[s - 1].clock.next = self.clock.val();
            self.dq_ts_max[s - 1].clock.next = self.clock.val();
            self.dq_never[s - 1].clock.next = self.clock.val();
        }
        // CSR bank and run-time settings.
        self.shell.reset.next = self.reset.val();
        self.shell.csr.addr.next = self.csr_addr.val();
        self.shell.csr.wr_en.next = self.csr_wr_en.val();
        self.shell.csr.wr_data.next = self.csr_wr_data.val();
        self.shell.csr.rd_en.next = self.csr_rd_en.val();
        self.csr_rd_valid.next = self.shell.csr.rd_valid.val();
        self.csr_rd_data.next = self.shell.csr.rd_data.val();
        self.cfg_expiry.din.next = self.shell.cfg.val();
        self.cfg_seed.din.next = self.shell.cfg.val();
        for i in 0..self._n {
            self.cfg_thresholds[i].din.next = self.shell.cfg.val();
        }
        self.wr_mode.next = self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_mode.val());
        if self.reset.val() {
            self.mode_expiry.d.next = self.default_mode_expiry.val();
            self.mode_fridge.d.next = self.default_mode_fridge.val();
        } else if self.wr_mode.val() {
            self.mode_expiry.d.next = self.csr_wr_data.val() == self.mode_expiry_code.val();
            self.mode_fridge.d.next = (self.csr_wr_data.val() != self.mode_expiry_code.val())
                && (self.csr_wr_data.val() != self.mode_simple.val());
        }
        // A write of prng_seed loads the PRNG from the register one cycle later.
        self.seed_pending.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_seed.val()) && !self.reset.val();
        self.prng.reset.next = self.reset.val();
        self.prng.seed_load.next = self.seed_pending.q.val();
        self.prng.seed.next = self.cfg_seed.out.val();
        // Input handshake and the front register F1 (with a tally, F1 also waits for its reset sweep).
        self.pipe_ready.next = self.rmw.in_ready.val();
        for t in 0..self._tally {
            self.pipe_ready.next = self.rmw.in_ready.val() && self.tally[t].ready.val();
        }
        self.transfer.next = self.f1_valid.q.val() && self.pipe_ready.val();
        self.in_ready.next = !self.reset.val() && (!self.f1_valid.q.val() || self.pipe_ready.val());
        self.accept.next = self.in_valid.val() && self.in_ready.val();
        if self.reset.val() {
            self.f1_valid.d.next = false;
        } else if self.accept.val() {
            self.f1_valid.d.next = true;
        } else if self.transfer.val() {
            self.f1_valid.d.next = false;
        }
        if self.accept.val() {
            self.f1_request.d.next = self.in_request.val();
            self.f1_ts.d.next = self.in_ts.val();
        }
        // The hash registers are F1's view of the id: loaded with the packet F1 takes (a clock enable).
        for j in 0..self.h_select.len() {
            self.h_select[j].key.next = self.in_id.val();
            self.h_select[j].load.next = self.accept.val();
        }
        self.h_index.key.next = self.in_id.val();
        self.h_index.load.next = self.accept.val();
        self.h_sig.key.next = self.in_id.val();
        self.h_sig.load.next = self.accept.val();
        // F1: fridge, address, entry decision, counter.
        self.k.next = self.fridge_ids[0].val();
        self.base.next = self.bases[0].val();
        self.index_mask.next = self.index_masks[0].val();
        self.le.next = self.le_q[0].q.val();
        self.count.next = self.counters[0].q.val();
        for i in 1..self._n {
            if self.h_select[0].hash.val() >= self.bounds[i - 1].val() {
                self.k.next = self.fridge_ids[i].val();
                self.base.next = self.bases[i].val();
                self.index_mask.next = self.index_masks[i].val();
                self.le.next = self.le_q[i].q.val();
                self.count.next = self.counters[i].q.val();
            }
        }
        self.enters.next = self.f1_request.q.val() && (!self.mode_fridge.q.val() || self.le.val());
        self.seed_zero.next = !self.cfg_seed.out.val().any();
        self.unused_seed_value.next = self.prng.seed_value.val().any();
        // Next cycle's `prng ≤ threshold`, per fridge (a reset's defaults need no look-ahead: F1 is empty
        // in the cycle after a reset).
        for i in 0..self._n {
            self.le_q[i].clock.next = self.clock.val();
            if self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_thresholds[i].val()) {
                if self.seed_pending.q.val() {
                    if self.seed_zero.val() {
                        self.le_q[i].d.next = self.default_seed.val() <= self.csr_wr_data.val();
                    } else {
                        self.le_q[i].d.next = self.cfg_seed.out.val() <= self.csr_wr_data.val();
                    }
                } else if self.transfer.val() && self.f1_request.q.val() {
                    self.le_q[i].d.next = self.prng.advanced_value.val() <= self.csr_wr_data.val();
                } else {
                    self.le_q[i].d.next = self.prng.value.val() <= self.csr_wr_data.val();
                }
            } else if self.seed_pending.q.val() {
                if self.seed_zero.val() {
                    self.le_q[i].d.next = self.default_seed.val() <= self.cfg_thresholds[i].out.val();
                } else {
                    self.le_q[i].d.next = self.cfg_seed.out.val() <= self.cfg_thresholds[i].out.val();
                }
            } else if self.transfer.val() && self.f1_request.q.val() {
                self.le_q[i].d.next = self.prng.advanced_value.val() <= self.cfg_thresholds[i].out.val();
            } else {
                self.le_q[i].d.next = self.prng.value.val() <= self.cfg_thresholds[i].out.val();
            }
        }
        self.prng.advance.next = self.transfer.val() && self.f1_request.q.val();
        if self.enters.val() {
            self.snapshot.next = self.count.val() + self.one_c.val();
        } else {
            self.snapshot.next = self.count.val();
        }
        for i in 0..self._n {
            if self.transfer.val() && self.enters.val() && (self.k.val() == self.fridge_ids[i].val()) {
                self.counters[i].d.next = self.snapshot.val();
            }
            if self.reset.val() {
                self.counters[i].d.next = self.zero_c.val();
            }
        }
        self.rmw.reset.next = self.reset.val();
        self.rmw.in_valid.next = self.f1_valid.q.val();
        self.rmw.in_index.next = (self.h_index.hash.val() & self.index_mask.val()) | self.base.val();
        if self.enters.val() {
            self.rmw.in_payload.next = self.one_1.val();
        } else {
            self.rmw.in_payload.next = self.zero_1.val();
        }
        // F1 → S1: the packet's fields, and the write decision's settings as the CSR bank holds them now.
        self.dq_request[0].d.next = self.f1_request.q.val();
        self.dq_k[0].d.next = self.k.val();
        self.dq_sig[0].d.next = self.h_sig.hash.val();
        self.ts_scaled.din.next = self.f1_ts.q.val();
        self.dq_ts[0].d.next = self.ts_scaled.out.val();
        self.dq_count[0].d.next = self.snapshot.val();
        self.interval.ts.next = self.ts_scaled.out.val();
        self.interval.expiry.next = self.cfg_expiry.out.val();
        self.dq_mode_expiry[0].d.next = self.mode_expiry.q.val();
        self.dq_hi[0].d.next = self.interval.hi.val();
        self.dq_wrap[0].d.next = self.interval.late.val() && (self.ts_scaled.out.val() != self.ts_max_c.val());
        self.dq_ts_max[0].d.next = self.ts_scaled.out.val() == self.ts_max_c.val();
        self.dq_never[0].d.next = self.interval.never.val();
        for s in 1..self._stages {
            self.dq_request[s].d.next = self.dq_request[s - 1].q.val();
            self.dq_k[s].d.next = self.dq_k[s - 1].q.val();
            self.dq_sig[s].d.next = self.dq_sig[s - 1].q.val();
            self.dq_ts[s].d.next = self.dq_ts[s - 1].q.val();
            self.dq_count[s].d.next = self.dq_count[s - 1].q.val();
        }
        for s in 2..self._stages {
            self.dq_mode_expiry[s - 1].d.next = self.dq_mode_expiry[s - 2].q.val();
            self.dq_hi[s - 1].d.next = self.dq_hi[s - 2].q.val();
            self.dq_wrap[s - 1].d.next = self.dq_wrap[s - 2].q.val();
            self.dq_ts_max[s - 1].d.next = self.dq_ts_max[s - 2].q.val();
            self.dq_never[s - 1].d.next = self.dq_never[s - 2].q.val();
        }
        // The write decision (`FridgeDecide`): the packet at SL − 1, SL and SM.
        for s in self._i_pre..self._i_sl {
            self.decide.s2_ts.next = self.dq_ts[s].q.val();
            self.decide.s2_hi.next = self.dq_hi[s].q.val();
            self.decide.s2_sig.next = self.dq_sig[s].q.val();
        }
        self.decide.sl_enters.next = self.rmw.pre_payload.val().any();
        for s in self._i_sl..self._i_sm {
            self.decide.sl_request.next = self.dq_request[s].q.val();
            self.decide.sl_ts.next = self.dq_ts[s].q.val();
            self.decide.sl_sig.next = self.dq_sig[s].q.val();
            self.decide.sl_mode_expiry.next = self.dq_mode_expiry[s].q.val();
            self.decide.sl_hi.next = self.dq_hi[s].q.val();
            self.decide.sl_wrap.next = self.dq_wrap[s].q.val();
            self.decide.sl_ts_max.next = self.dq_ts_max[s].q.val();
            self.decide.sl_never.next = self.dq_never[s].q.val();
        }
        for s in self._i_sm..self._stages {
            self.sm_request.next = self.dq_request[s].q.val();
            self.sm_k.next = self.dq_k[s].q.val();
            self.sm_sig.next = self.dq_sig[s].q.val();
            self.sm_ts.next = self.dq_ts[s].q.val();
            self.sm_count.next = self.dq_count[s].q.val();
        }
        self.decide.sm_request.next = self.sm_request.val();
        self.decide.sm_ts.next = self.sm_ts.val();
        self.decide.sm_sig.next = self.sm_sig.val();
        self.decide.pre_early.next = self.rmw.pre_early.val();
        self.decide.pre_near2.next = self.rmw.pre_near2.val();
        self.decide.pick1.next = self.rmw.mod_pick.val().get_bit(1);
        // SM: the entry meets the packet; the report fields come from the forwarded entry
        // (registered in SM + 1).
        self.old_ts.din.next = self.rmw.mod_old.val();
        self.old_count.din.next = self.rmw.mod_old.val();
        self.age.next = self.sm_ts.val() - self.old_ts.out.val();
        self.unused_mod_index.next = self.rmw.mod_index.val().any()
            || self.rmw.mod_ram.val().any()
            || self.rmw.mod_fwd1.val().any()
            || self.rmw.mod_fwd2.val().any()
            || self.rmw.mod_fwd3.val().any()
            || self.rmw.mod_fwd4.val().any()
            || self.rmw.mod_fwd5.val().any()
            || self.rmw.mod_payload.val().any()
            || self.rmw.pre_valid.val()
            || self.rmw.pre_old.val().any()
            || self.rmw.mod_pick.val().get_bit(0)
            || self.rmw.mod_pick.val().get_bit(2)
            || self.rmw.mod_pick.val().get_bit(3)
            || self.rmw.mod_pick.val().get_bit(4)
            || self.rmw.mod_pick.val().get_bit(5);
        // SM's new word: a request's entry, or the empty entry a matched response leaves.
        self.zx_valid.din.next = self.one_1.val();
        self.zx_sig.din.next = self.sm_sig.val();
        self.zx_ts.din.next = self.sm_ts.val();
        self.zx_count.din.next = self.sm_count.val();
        if self.sm_request.val() {
            self.new_word.next = self.zx_valid.out.val()
                | (self.zx_sig.out.val() << self.off_sig.val())
                | (self.zx_ts.out.val() << self.off_ts.val())
                | (self.zx_count.out.val() << self.off_count.val());
        } else {
            self.new_word.next = self.zero_e.val();
        }
        self.rmw.mod_write.next = self.decide.write.val();
        self.rmw.mod_new.next = self.new_word.val();
        // SM + 1: report register → FIFO.
        self.zx_rep_k.din.next = self.sm_k.val();
        self.zx_rep_delay.din.next = self.age.val();
        self.zx_rep_x.din.next = self.sm_count.val() - self.old_count.out.val();
        self.r_valid.d.next =
            self.rmw.mod_valid.val() && !self.sm_request.val() && self.decide.sig_match.val() && !self.reset.val();
        self.r_data.d.next = self.zx_rep_k.out.val()
            | (self.zx_rep_delay.out.val() << self.off_rep_delay.val())
            | (self.zx_rep_x.out.val() << self.off_rep_x.val());
        self.fifo.reset.next = self.reset.val();
        self.fifo.in_valid.next = self.r_valid.q.val();
        self.fifo.in_data.next = self.r_data.q.val();
        self.fifo.out_ready.next = self.rep_ready.val();
        self.rep_valid.next = self.fifo.out_valid.val();
        self.rep_data.next = self.fifo.out_data.val();
        // SM + 1: the report register → tally.
        self.tally_valid.next = false;
        self.unused_tally_ready.next = self.tally_ready.val();
        self.tally_data.next = self.zero_rec.val();
        self.st_tally_busy.next = false;
        self.st_tally_drops.next = self.zero_32.val();
        for t in 0..self._tally {
            self.tally[t].clock.next = self.clock.val();
            self.dump_pending[t].clock.next = self.clock.val();
            self.dump_pending[t].d.next =
                self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_dump[t].val()) && !self.reset.val();
            self.cfg_tally_bank[t].din.next = self.shell.cfg.val();
            self.rep_k[t].din.next = self.r_data.q.val();
            self.rep_delay[t].din.next = self.r_data.q.val();
            self.rep_x[t].din.next = self.r_data.q.val();
            self.tally[t].reset.next = self.reset.val();
            self.tally[t].rep_valid.next = self.r_valid.q.val();
            self.tally[t].rep_k.next = self.rep_k[t].out.val();
            self.tally[t].rep_delay.next = self.rep_delay[t].out.val();
            self.tally[t].rep_x.next = self.rep_x[t].out.val();
            self.tally[t].corrected.next = self.mode_fridge.q.val();
            self.tally[t].active.next = self.cfg_tally_bank[t].out.val().any();
            self.tally[t].dump_start.next = self.dump_pending[t].q.val();
            self.tally[t].out_ready.next = self.tally_ready.val();
            self.tally_valid.next = self.tally[t].out_valid.val();
            self.tally_data.next = self.tally[t].out_data.val();
            if self.tally[t].busy.val() {
                self.st_tally_busy.next = true;
            }
            self.st_tally_drops.next = self.tally[t].drops.val();
        }
        // Statistics (the shell counts; the tally's busy flag and drops are its own).
        self.shell.count[0].next = self.accept.val();
        self.shell.count[1].next = self.transfer.val() && self.f1_request.q.val();
        self.shell.count[2].next = self.transfer.val() && self.enters.val();
        self.shell.count[3].next = self.r_valid.q.val();
        self.shell.flag[0].next = self.st_tally_busy.val();
        self.shell.status[0].next = self.fifo.drops.val();
        self.zx_level.din.next = self.fifo.level.val();
        self.shell.status[1].next = self.zx_level.out.val();
        self.shell.status[2].next = self.st_tally_drops.val();
    }
});
