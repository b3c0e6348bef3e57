//! IFPD sketch core (`IfpdCore`): high intra-flow packet delay detection (Algorithm 2 of the APNet 2021
//! paper) with CM and CM-BF as run-time modes, one packet per cycle. Specification and cycle model:
//! `golden::ifpd` (stage table in `golden::ifpd::cycle`).
//!
//! | cycle | stage | here |
//! |---|---|---|
//! | t   | in | accept into F1: the stored time `bits [S, S+T) of ts − time_base` (mod `2^T`) registered; the hash units load the flow key |
//! | t+1 | F1 = S0 | `D` row indices (the top `A` bits of each row's H3/32), the fingerprint (CRC-32's low `F` bits, 0 → 1) and the `K` Bloom indices go into both [`MultiRmw`]s (with two look-ahead levels, [`LOOKAHEAD`]), when both are ready |
//! | +2 ..   | S1 .. | RAM reads (1 cycle, or 4 on registered RAM: [`IfpdConfig::registered_ram`]); the RMWs' forward mux, registered into SL |
//! | +M  | SL = SM−1 | `mode`, `threshold`, `options` read from the CSR bank and registered with the packet; [`decide::IfpdDecide`] compares the early words (before the packet ahead: each a 2:1 choice between flip-flops) and the packet ahead's word |
//! | +M+1 | SM | the decision's loop: rows the packet ahead replaced (`mod_near`) → flags → first taker / smallest age → the rows' write enables; the filter's forwarded bits → "new flow" |
//! | +M+2 | SM+1 | writes land; the decision's picks registered; case, row, estimate and report encoded from them |
//! | +M+3 | SM+2 | `res_*` and the report registered; the report into the [`ReportFifo`]; counters |
//!
//! `M` = 4 on short RAM timing, 6 on registered (`golden::ifpd::cycle::IfpdCycleModel::result_latency`: 7
//! or 9 cycles to the result port).
//!
//! Const generics (checked against the [`IfpdConfig`] in [`IfpdCore::new`]): `F` fingerprint, `T` stored
//! time, `A` row address, `D` rows, `W = F + T` bucket (also the rows' payload: the packet's `t | fp << T`),
//! `DA = D·A`, `DW = D·W`, `R` report, `FA`/`FL = FA + 1` report FIFO address/level, `BA` Bloom partition
//! address, `BK` partitions, `BKA = BK·BA`. Every build has a filter (`bf_bits > 0`): CM-BF mode uses it;
//! the other modes read it and never write it.

pub mod builds;
pub mod decide;

use crate::common::bits::{constant, Slice, ZeroExt};
use crate::common::fifo::ReportFifo;
use crate::common::hash::HashUnit;
use crate::common::multi_rmw::MultiRmw;
use crate::common::input::InputStage;
use crate::common::reg::Reg;
use crate::common::shell::{cfg_field, CoreShell, StatusSources};
use crate::declare_block;
use decide::IfpdDecide;
use golden::common::config::{ConfigError, TIMESTAMP_BITS};
use golden::common::csr::CsrLayout;
use golden::ifpd::cycle::LOOKAHEAD;
use golden::ifpd::{IfpdConfig, Mode, FLOW_KEY_BITS, ROW_BITS};
use rust_hdl::prelude::*;

/// Config registers (4 × 32 bits) of the CSR bank.
pub const CONFIG_BITS: usize = 128;
/// Status registers (7 × 32 bits).
pub const STATUS_BITS: usize = 224;
/// Flow key width.
const K: usize = FLOW_KEY_BITS;
/// Descriptor timestamp width.
const TS: usize = TIMESTAMP_BITS;

/// A deliberate design mistake, for test-only builds that prove the co-simulation catches it (the issue's
/// mutants). Production builds are [`Mutant::None`]; the flags are generation-time constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mutant {
    #[default]
    None,
    /// Rows scanned in the wrong order: the last row that holds the fingerprint or is empty takes the packet.
    RowsReversed,
    /// Case 3 replaces the bucket with the smallest timestamp (largest age) instead of the largest.
    ReplaceSmallest,
    /// Forwarding dropped: row 0 without the distance-2 path.
    Row0NoDist2,
}

/// Where the status registers come from (the shell counts the counters).
const STATUS: StatusSources = StatusSources {
    counters: &["packets", "case1_match", "case2_insert", "case3_replace", "reports"],
    doubled: 0,
    flags: &[],
    words: &["report_drops", "report_fifo_level"],
};

/// Config field `name` of the core's own register map.
fn field<const N: usize>(layout: &CsrLayout, name: &str) -> Slice<CONFIG_BITS, N> {
    cfg_field(layout, name).expect("the core's own register map")
}

declare_block! {
    #[derive(LogicBlock)]
    pub struct IfpdCore<
        const F: usize,
        const T: usize,
        const A: usize,
        const D: usize,
        const W: usize,
        const DA: usize,
        const DW: usize,
        const R: usize,
        const FA: usize,
        const FL: usize,
        const BA: usize,
        const BK: usize,
        const BKA: usize,
    > fn build(
        cfg: &IfpdConfig,
        layout: &CsrLayout,
        shell: CoreShell<CONFIG_BITS, STATUS_BITS>,
        h_rows: Vec<HashUnit<K, A>>,
        h_fp: HashUnit<K, F>,
        h_bf: Vec<HashUnit<K, BA>>,
        rows: MultiRmw<A, W, W, D, DA, DW>,
        bloom: MultiRmw<BA, 1, 1, BK, BKA, BK>,
        decide: IfpdDecide<F, T, D, W, DW>
    ) with csr_port {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        // Packet descriptors.
        pub in_valid: Signal<In, bool>,
        pub in_flow: Signal<In, Bits<K>>,
        pub in_ts: Signal<In, Bits<TS>>,
        pub in_ready: Signal<Out, bool>,
        /// The reset sweep is over (both RAM groups): from now until the next reset the core takes a
        /// descriptor every cycle.
        pub swept: Signal<Out, bool>,
        // Per-packet result (registered at SM+2, two cycles after the decision; no backpressure).
        pub res_valid: Signal<Out, bool>,
        /// 1 match, 2 insert, 3 replace.
        pub res_case: Signal<Out, Bits<2>>,
        pub res_row: Signal<Out, Bits<ROW_BITS>>,
        pub res_d_est: Signal<Out, Bits<T>>,
        // Reports (the report FIFO's head).
        pub rep_valid: Signal<Out, bool>,
        pub rep_data: Signal<Out, Bits<R>>,
        pub rep_ready: Signal<In, bool>,
        // Blocks.
        shell: CoreShell<CONFIG_BITS, STATUS_BITS> = shell,
        h_rows: Vec<HashUnit<K, A>> = h_rows,
        h_fp: HashUnit<K, F> = h_fp,
        h_bf: Vec<HashUnit<K, BA>> = h_bf,
        rows: MultiRmw<A, W, W, D, DA, DW> = rows,
        bloom: MultiRmw<BA, 1, 1, BK, BKA, BK> = bloom,
        decide: IfpdDecide<F, T, D, W, DW> = decide,
        fifo: ReportFifo<FA, R, FL>,
        cfg_mode: Slice<CONFIG_BITS, 2> = field(layout, "mode"),
        /// `mode` bit 1: CM-BF (2 and 3).
        cfg_mode_bf: Slice<CONFIG_BITS, 1> =
            Slice::new(layout.config_offset("mode").expect("the core's own register map") + 1),
        cfg_threshold: Slice<CONFIG_BITS, T> = field(layout, "threshold"),
        cfg_base: Slice<CONFIG_BITS, T> = field(layout, "time_base"),
        cfg_options: Slice<CONFIG_BITS, 1> = field(layout, "options"),
        /// Bits `[S, S+T)` of the timestamp: `(ts >> S) mod 2^T`.
        ts_units: Slice<TS, T> = Slice::new(cfg.ts_shift),
        // The sweep, counted here as the RAMs count it: both groups' `in_ready` without reading them (their
        // `in_ready` and `in_valid` share a combinational block inside the RMW pipeline, so a hand-over
        // that reads one to drive the other is a loop for Verilator; `swept` still shows theirs, and the
        // co-simulation compares it and `in_ready` with golden every cycle).
        sweeping: Reg<bool>,
        sweep_addr: Reg<Bits<32>>,
        sweep_last: Constant<Bits<32>> = constant((1u64 << A.max(BA)) - 1),
        one_sweep: Constant<Bits<32>> = constant(1),
        // F1 and the hand-over to both RAM groups.
        /// F1 and the input handshake (`accept`, `transfer`: a packet enters F1, leaves it).
        f1: InputStage,
        f1_t: Reg<Bits<T>>,
        rmw_ready: Signal<Local, bool>,
        fp: Signal<Local, Bits<F>>,
        zx_row_index: Vec<ZeroExt<A, DA>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_bf_index: Vec<ZeroExt<BA, BKA>> = (0..BK).map(|_| ZeroExt::default()).collect(),
        row_index: Signal<Local, Bits<DA>>,
        bf_index: Signal<Local, Bits<BKA>>,
        zx_pay_fp: ZeroExt<F, W>,
        zx_pay_t: ZeroExt<T, W>,
        // SL: the packet's fields; the settings registered with it.
        pre_fp: Slice<W, F> = Slice::new(T),
        pre_t: Slice<W, T> = Slice::new(0),
        set_cm: Reg<bool>,
        set_cm_bf: Reg<bool>,
        set_threshold: Reg<Bits<T>>,
        set_case3_zero: Reg<bool>,
        // SM: the packet's fields.
        pay_fp: Slice<W, F> = Slice::new(T),
        pay_t: Slice<W, T> = Slice::new(0),
        // SM+1: valid and the packet's fields for the report.
        s4_valid: Reg<bool>,
        s4_fp: Reg<Bits<F>>,
        s4_t: Reg<Bits<T>>,
        /// Outputs not needed: the RAM groups' `mod_index` and `pre_valid` (the look-ahead compares run every
        /// cycle; SM+1 counts validity), the rows' `mod_old` and `pre_old` (the decision works on `pre_old`'s
        /// parts `pre_early`, `pre_near2` and on `mod_near`), the filter's payload and look-ahead outputs
        /// (the rows' carry the packet; both groups are in lockstep; the filter's answer is taken at SM, off
        /// the decision's loop), F1's `valid` (the packet enters both RAM groups on `transfer`).
        unused_rmw_outputs: Signal<Local, bool>,
        // SM+2: result and report registers.
        r_valid: Reg<bool>,
        r_case: Reg<Bits<2>>,
        r_row: Reg<Bits<ROW_BITS>>,
        r_d_est: Reg<Bits<T>>,
        rep_v: Reg<bool>,
        rep_d: Reg<Bits<R>>,
        zx_rep_fp: ZeroExt<F, R>,
        zx_rep_row: ZeroExt<ROW_BITS, R>,
        zx_rep_case: ZeroExt<2, R>,
        zx_rep_d: ZeroExt<T, R>,
        zx_rep_t: ZeroExt<T, R>,
        // Statistics (the counters are the shell's).
        zx_level: ZeroExt<FL, 32>,
        // Generation-time constants.
        off_rows: Vec<Constant<Bits<16>>> = crate::common::bits::consts((0..D).map(|i| (i * A) as u64)),
        off_bf: Vec<Constant<Bits<16>>> = crate::common::bits::consts((0..BK).map(|p| (p * BA) as u64)),
        off_pay_fp: Constant<Bits<16>> = constant(T as u64),
        off_rep_row: Constant<Bits<16>> = constant(F as u64),
        off_rep_case: Constant<Bits<16>> = constant((F + ROW_BITS) as u64),
        off_rep_d: Constant<Bits<16>> = constant((F + ROW_BITS + 2) as u64),
        off_rep_t: Constant<Bits<16>> = constant((F + ROW_BITS + 2 + T) as u64),
        zero_da: Constant<Bits<DA>> = Constant::new(Bits::default()),
        zero_bka: Constant<Bits<BKA>> = Constant::new(Bits::default()),
        zero_f: Constant<Bits<F>> = constant(0),
        one_f: Constant<Bits<F>> = constant(1),
        zero_d: Constant<Bits<D>> = constant(0),
        zero_bk: Constant<Bits<BK>> = constant(0),
        ones_bk: Constant<Bits<BK>> = constant((1u64 << BK) - 1),
        zero_p1: Constant<Bits<1>> = constant(0),
        zero_mode: Constant<Bits<2>> = constant(Mode::Ifpd as u64),
        code_match: Constant<Bits<2>> = constant(1),
        code_insert: Constant<Bits<2>> = constant(2),
        code_replace: Constant<Bits<2>> = constant(3),
        zero_32: Constant<Bits<32>> = constant(0),
        _d: usize = D,
        _bk: usize = BK,
        _cfg: IfpdConfig = cfg.clone(),
    }
}

/// `impl` of [`IfpdCore`] with its thirteen generics written once.
macro_rules! ifpd_core_impl {
    ($($tr:ident for)? { $($body:tt)* }) => {
        impl<
                const F: usize,
                const T: usize,
                const A: usize,
                const D: usize,
                const W: usize,
                const DA: usize,
                const DW: usize,
                const R: usize,
                const FA: usize,
                const FL: usize,
                const BA: usize,
                const BK: usize,
                const BKA: usize,
            > $($tr for)? IfpdCore<F, T, A, D, W, DA, DW, R, FA, FL, BA, BK, BKA>
        {
            $($body)*
        }
    };
}

ifpd_core_impl!({
    pub fn new(cfg: &IfpdConfig) -> Result<Self, ConfigError> {
        Self::with_mutant(cfg, Mutant::None)
    }
    /// Test-only: the core with a deliberate mistake (see [`Mutant`]).
    pub fn with_mutant(cfg: &IfpdConfig, mutant: Mutant) -> Result<Self, ConfigError> {
        use crate::common::rmw::FORWARD_ALL;
        cfg.check()?;
        let addr = cfg.addr_bits().ok_or_else(|| {
            ConfigError(format!("IfpdCore: buckets per row must be a power of two, not {}", cfg.buckets))
        })?;
        if !cfg.bf_bits.is_power_of_two() {
            return Err(ConfigError(format!("IfpdCore: needs a Bloom filter of 2^m bits, not {}", cfg.bf_bits)));
        }
        let bf_addr = cfg.bf_bits.trailing_zeros() as usize;
        let expect = [
            ("F", F, cfg.fp_bits),
            ("T", T, cfg.ts_bits),
            ("A", A, addr),
            ("D", D, cfg.rows),
            ("W", W, cfg.bucket_bits(Mode::Ifpd)),
            ("DA", DA, cfg.rows * addr),
            ("DW", DW, cfg.rows * cfg.bucket_bits(Mode::Ifpd)),
            ("R", R, cfg.report_bits()),
            ("FA", FA, cfg.report_fifo_bits),
            ("FL", FL, cfg.report_fifo_bits + 1),
            ("BA", BA, bf_addr),
            ("BK", BK, cfg.bf_hashes),
            ("BKA", BKA, cfg.bf_hashes * bf_addr),
        ];
        for (name, got, want) in expect {
            if got != want {
                return Err(ConfigError(format!("IfpdCore generic {name} = {got}, the configuration needs {want}")));
            }
        }
        if cfg.ts_shift + T > TS || A > 32 || BA > 32 {
            return Err(ConfigError(format!(
                "IfpdCore: ts_shift + ts_bits = {} must fit the {TS}-bit timestamp, row and Bloom indices 32 bits",
                cfg.ts_shift + T
            )));
        }
        let layout = cfg.csr_layout();
        let shell = CoreShell::new(layout.clone(), &STATUS)?;
        // Row r's index: the top A bits of its H3/32 (`⌊h·2^A / 2^32⌋`); the same for the filter.
        let h_rows = (0..D)
            .map(|r| HashUnit::from_fn(cfg.row_hash(r)?.slice(32 - A, A)?))
            .collect::<Result<Vec<_>, ConfigError>>()?;
        let h_bf = (0..BK)
            .map(|p| HashUnit::from_fn(cfg.bf_hash(p)?.slice(32 - BA, BA)?))
            .collect::<Result<Vec<_>, ConfigError>>()?;
        let h_fp = HashUnit::from_fn(cfg.fp_hash()?)?;
        let mut forward = vec![FORWARD_ALL; D];
        if mutant == Mutant::Row0NoDist2 {
            forward[0] &= !0b010;
        }
        let rows = MultiRmw::with_lookahead(cfg.ram_timing(A, W), LOOKAHEAD, &forward)?;
        let bloom = MultiRmw::with_lookahead(cfg.ram_timing(BA, 1), LOOKAHEAD, &[FORWARD_ALL; 8][..BK])?;
        let decide = IfpdDecide::with_mutant(mutant).map_err(ConfigError)?;
        Ok(Self::build(cfg, &layout, shell, h_rows, h_fp, h_bf, rows, bloom, decide))
    }
    pub fn config(&self) -> &IfpdConfig {
        &self._cfg
    }
});

ifpd_core_impl!(Logic for {
    crate::core_update!(cfg(cfg_mode, cfg_threshold, cfg_base, cfg_options, cfg_mode_bf)
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, sweeping, sweep_addr, f1_t, set_cm, set_cm_bf, set_threshold, set_case3_zero,
            s4_valid, s4_fp, s4_t, r_valid, r_case, r_row, r_d_est, rep_v, rep_d
        );
        clock!(self, clock, f1, shell, h_fp, fifo, decide);
        // Input handshake and F1: the stored time (`time_base` read now), the hash units loaded.
        if self.reset.val() {
            self.sweeping.d.next = true;
            self.sweep_addr.d.next = self.zero_32.val();
        } else if self.sweeping.q.val() {
            self.sweeping.d.next = self.sweep_addr.q.val() != self.sweep_last.val();
            self.sweep_addr.d.next = self.sweep_addr.q.val() + self.one_sweep.val();
        }
        self.rmw_ready.next = !self.reset.val() && !self.sweeping.q.val();
        self.f1.reset.next = self.reset.val();
        self.f1.in_valid.next = self.in_valid.val();
        self.f1.keep.next = true;
        self.f1.out_ready.next = self.rmw_ready.val();
        self.in_ready.next = self.f1.in_ready.val();
        self.swept.next = self.rows.in_ready.val() && self.bloom.in_ready.val();
        self.ts_units.din.next = self.in_ts.val();
        if self.f1.accept.val() {
            self.f1_t.d.next = self.ts_units.out.val() - self.cfg_base.out.val();
        }
        self.h_fp.key.next = self.in_flow.val();
        self.h_fp.load.next = self.f1.accept.val();
        for i in 0..self._d {
            self.h_rows[i].clock.next = self.clock.val();
            self.h_rows[i].key.next = self.in_flow.val();
            self.h_rows[i].load.next = self.f1.accept.val();
        }
        for p in 0..self._bk {
            self.h_bf[p].clock.next = self.clock.val();
            self.h_bf[p].key.next = self.in_flow.val();
            self.h_bf[p].load.next = self.f1.accept.val();
        }
        // S0: indices, fingerprint (never 0) and stored time into both RAM groups together.
        if self.h_fp.hash.val() == self.zero_f.val() {
            self.fp.next = self.one_f.val();
        } else {
            self.fp.next = self.h_fp.hash.val();
        }
        self.row_index.next = self.zero_da.val();
        for i in 0..self._d {
            self.zx_row_index[i].din.next = self.h_rows[i].hash.val();
            self.row_index.next = self.row_index.val() | (self.zx_row_index[i].out.val() << self.off_rows[i].val());
        }
        self.bf_index.next = self.zero_bka.val();
        for p in 0..self._bk {
            self.zx_bf_index[p].din.next = self.h_bf[p].hash.val();
            self.bf_index.next = self.bf_index.val() | (self.zx_bf_index[p].out.val() << self.off_bf[p].val());
        }
        self.zx_pay_fp.din.next = self.fp.val();
        self.zx_pay_t.din.next = self.f1_t.q.val();
        self.rows.clock.next = self.clock.val();
        self.rows.reset.next = self.reset.val();
        self.rows.in_valid.next = self.f1.transfer.val();
        self.rows.in_index.next = self.row_index.val();
        self.rows.in_payload.next = self.zx_pay_t.out.val() | (self.zx_pay_fp.out.val() << self.off_pay_fp.val());
        self.bloom.clock.next = self.clock.val();
        self.bloom.reset.next = self.reset.val();
        self.bloom.in_valid.next = self.f1.transfer.val();
        self.bloom.in_index.next = self.bf_index.val();
        self.bloom.in_payload.next = self.zero_p1.val();
        // SL: the settings read and registered with the packet (every cycle: a packet at SM was at SL in
        // the cycle before); the early compares.
        self.set_cm.d.next = self.cfg_mode.out.val() != self.zero_mode.val();
        self.set_cm_bf.d.next = self.cfg_mode_bf.out.val().any();
        self.set_threshold.d.next = self.cfg_threshold.out.val();
        self.set_case3_zero.d.next = self.cfg_options.out.val().any();
        self.pre_fp.din.next = self.rows.pre_payload.val();
        self.pre_t.din.next = self.rows.pre_payload.val();
        self.decide.pre_early.next = self.rows.pre_early.val();
        self.decide.pre_near2.next = self.rows.pre_near2.val();
        self.decide.pre_cm.next = self.set_cm.d.val();
        self.decide.pre_fp.next = self.pre_fp.out.val();
        self.decide.pre_t.next = self.pre_t.out.val();
        // SM: the decision.
        self.pay_fp.din.next = self.rows.mod_payload.val();
        self.pay_t.din.next = self.rows.mod_payload.val();
        self.decide.fp.next = self.pay_fp.out.val();
        self.decide.t.next = self.pay_t.out.val();
        self.decide.cm.next = self.set_cm.q.val();
        self.decide.near.next = self.rows.mod_near.val();
        self.decide.bf_first.next = self.set_cm_bf.q.val() && (self.bloom.mod_old.val() != self.ones_bk.val());
        self.decide.case3_zero.next = self.set_case3_zero.q.val();
        self.decide.threshold.next = self.set_threshold.q.val();
        self.unused_rmw_outputs.next = self.rows.mod_index.val().any()
            || self.rows.mod_old.val().any()
            || self.rows.pre_valid.val()
            || self.rows.pre_old.val().any()
            || self.bloom.mod_index.val().any()
            || self.bloom.mod_payload.val().any()
            || self.bloom.mod_near.val().any()
            || self.bloom.pre_valid.val()
            || self.bloom.pre_payload.val().any()
            || self.bloom.pre_old.val().any()
            || self.bloom.pre_early.val().any()
            || self.bloom.pre_near2.val().any()
            || self.f1.valid.val();
        // Write-back: the rows the decision names; every filter bit in CM-BF mode.
        self.rows.mod_new.next = self.decide.new_words.val();
        if self.rows.mod_valid.val() {
            self.rows.mod_write.next = self.decide.write.val();
        } else {
            self.rows.mod_write.next = self.zero_d.val();
        }
        self.bloom.mod_new.next = self.ones_bk.val();
        if self.bloom.mod_valid.val() && self.set_cm_bf.q.val() {
            self.bloom.mod_write.next = self.ones_bk.val();
        } else {
            self.bloom.mod_write.next = self.zero_bk.val();
        }
        // SM+1: the packet's fields; the decision's picks are registered inside the decide block.
        self.s4_valid.d.next = self.rows.mod_valid.val() && !self.reset.val();
        self.s4_fp.d.next = self.pay_fp.out.val();
        self.s4_t.d.next = self.pay_t.out.val();
        // SM+2: result and report registers.
        self.r_valid.d.next = self.s4_valid.q.val() && !self.reset.val();
        self.r_case.d.next = self.decide.case_code.val();
        self.r_row.d.next = self.decide.row.val();
        self.r_d_est.d.next = self.decide.d_est.val();
        self.res_valid.next = self.r_valid.q.val();
        self.res_case.next = self.r_case.q.val();
        self.res_row.next = self.r_row.q.val();
        self.res_d_est.next = self.r_d_est.q.val();
        self.zx_rep_fp.din.next = self.s4_fp.q.val();
        self.zx_rep_row.din.next = self.decide.row.val();
        self.zx_rep_case.din.next = self.decide.case_code.val();
        self.zx_rep_d.din.next = self.decide.d_est.val();
        self.zx_rep_t.din.next = self.s4_t.q.val();
        self.rep_v.d.next = self.s4_valid.q.val() && self.decide.report.val() && !self.reset.val();
        self.rep_d.d.next = self.zx_rep_fp.out.val()
            | (self.zx_rep_row.out.val() << self.off_rep_row.val())
            | (self.zx_rep_case.out.val() << self.off_rep_case.val())
            | (self.zx_rep_d.out.val() << self.off_rep_d.val())
            | (self.zx_rep_t.out.val() << self.off_rep_t.val());
        self.fifo.reset.next = self.reset.val();
        self.fifo.in_valid.next = self.rep_v.q.val();
        self.fifo.in_data.next = self.rep_d.q.val();
        self.fifo.out_ready.next = self.rep_ready.val();
        self.rep_valid.next = self.fifo.out_valid.val();
        self.rep_data.next = self.fifo.out_data.val();
        // Statistics: packets at acceptance, cases and reports at SM+2.
        self.shell.count[0].next = self.f1.accept.val();
        self.shell.count[1].next = self.r_valid.q.val() && (self.r_case.q.val() == self.code_match.val());
        self.shell.count[2].next = self.r_valid.q.val() && (self.r_case.q.val() == self.code_insert.val());
        self.shell.count[3].next = self.r_valid.q.val() && (self.r_case.q.val() == self.code_replace.val());
        self.shell.count[4].next = self.rep_v.q.val();
        self.zx_level.din.next = self.fifo.level.val();
        self.shell.status[0].next = self.fifo.drops.val();
        self.shell.status[1].next = self.zx_level.out.val();
    });
});
