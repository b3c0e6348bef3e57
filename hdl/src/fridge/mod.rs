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
use crate::common::input::InputStage;
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
        /// F1 and the input handshake (`accept`, `transfer`: a packet enters F1, leaves it).
        f1: InputStage,
        f1_request: Reg<bool>,
        f1_ts: Reg<Bits<TIMESTAMP_BITS>>,
        counters: Vec<Reg<Bits<C>>> = (0..n).map(|_| Reg::default()).collect(),
        // F1 decisions.
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
        // SL − 1..SM: the write decision (its compares at SL − 1 and SL, the decision at SL, the pick at SM).
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

mod update;
