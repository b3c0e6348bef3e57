//! Cycle model of the IFPD core, stage for stage as the RTL (`hdl::ifpd`, co-simulated against it in
//! `testbench/tests/ifpd.rs`):
//!
//! | cycle | stage | what happens |
//! |---|---|---|
//! | t   | in  | descriptor accepted (`in_valid && in_ready`) into F1 with its stored time `((ts >> ts_shift) − time_base) mod 2^ts_bits` (**`time_base` read now**) and counted (`packets`); the hash units load the flow key: `d` row indices and the fingerprint, and in builds with a filter the `k` Bloom indices |
//! | t+1 | F1 = S0 | indices and fingerprint ready; the packet enters the rows' [`MultiRmwModel`] and the filter's in the same cycle when both are ready (else F1 holds and `in_ready` falls) |
//! | +2 .. | S1 .. | RAM reads: one bucket per row, one bit per Bloom partition (`R` = 1 cycle on short RAM timing, 4 with [`IfpdConfig::registered_ram`]); then the RMWs' forward mux (SL−1) and their two look-ahead levels |
//! | +M  | SM−1 = SL | the look-ahead stage; **`mode`, `threshold`, `options` read now** and carried with the packet (the RTL compares the early words here) |
//! | +M+1 | SM | both modify stages, with the settings read at SL. Filter: the `k` forwarded bits → "new flow" iff one is 0; in CM-BF mode all `k` are written 1 (other modes write none). Rows: [`decide`] over the `d` forwarded buckets → one row (IFPD) or every row (CM modes) written; reported iff `D_est ≥ threshold` |
//! | +M+2 | SM+1 | the writes land; the decision's picks registered (the RTL encodes case, row, estimate and report from them) |
//! | +M+3 | SM+2 | the per-packet result (`res_*`) and the report registered; the report enters the report FIFO (a full FIFO drops it and counts, never stalls); cases and reports counted |
//!
//! `M` is the RMWs' modify stage with [`LOOKAHEAD`] levels: 4 on short RAM timing, 6 on registered
//! ([`IfpdCycleModel::result_latency`]: 7 or 9 cycles from acceptance to the result port).
//!
//! **Forwarding.** Rows and partitions are [`MultiRmwModel`]s with two look-ahead levels
//! (`MultiRmwModel::with_lookahead`) that take the packet in the same cycle, so they stay in lockstep and the
//! packet meets, at SM, every row's and every partition's word as if every earlier packet had finished:
//! back-to-back packets of one flow, and different flows sharing a bucket (or a Bloom bit) in any row one to
//! `M+1` cycles apart, are the shared RMW's forwarding distances. The look-ahead levels are what let the RTL
//! reach the clock target: its comparisons run at SL on the words before the packet directly ahead (a 2:1
//! choice between flip-flops, with the second level), and SM only corrects for that packet's write
//! (`hdl::ifpd`); this model decides on the complete words at SM.
//!
//! **Where settings are read.** `time_base` at acceptance: the stored time is computed at the input and
//! travels with the packet, so a rebase (a CSR write of `time_base`) applies exactly to the packets accepted
//! after the write's edge. A reset sets `time_base` to 0 with the other registers, so an interval starts
//! with a reset and a `time_base` write during the sweep (`in_ready` is low until it ends): clear and rebase
//! before the first packet, as [`super::IfpdModel::start_interval`]. `mode`, `threshold` and `options` at
//! SL and carried to the decision at SM, so one register read serves the filter's write enable, the rows'
//! decision and the report; a write in cycle c applies to the packets at SL from c+1 on. The core reads the
//! low `ts_bits` of `threshold` and `time_base` ([`IfpdRuntime::from_csr`]).
//!
//! **Memory per mode.** IFPD: the `d` row RAMs, `fp_bits + ts_bits` per bucket (`fp = 0` empty). CM: the
//! same RAMs, only `t` used (`fp` written 0, `t = 0` empty). CM-BF: the row RAMs as CM plus the filter's own
//! `k` one-bit RAMs of `m` words (builds with `bf_bits > 0`; in other modes the filter is read and never
//! written; in a build without a filter, modes 2 and 3 act as CM). After a reset both memories sweep to
//! zero, `in_ready` low for `max(w, m)` cycles.
//!
//! **Report port.** The report FIFO's head ([`Report::pack`]), first-word-fall-through, popped by
//! `rep_ready`. A reader that keeps up sees every report of the transaction model, in order.
//!
//! RTL shape: `w` and `m` powers of two ([`IfpdCycleModel::new`] refuses other sizes; the transaction
//! model and the experiments take any).

use super::bloom;
use super::sketch::IfpdStats;
use super::{decide, Bucket, Decision, Descriptor, IfpdConfig, IfpdRuntime, Mode, Packet, Report, ReportWord};
use crate::common::config::{ConfigError, TIMESTAMP_BITS};
use crate::common::csr::{CsrInputs, CsrModel};
use crate::common::fifo::{FifoInputs, FifoModel};
use crate::common::handover::F1Handover;
use crate::common::hash::HashBank;
use crate::common::latency::{measure, path, Latency};
use crate::common::mask128;
use crate::common::multi_rmw::{MultiRmwInputs, MultiRmwModel};
use crate::common::sram::RamPorts;

/// CSR addresses of the run-time settings, in [`IfpdConfig::csr_layout`] order.
pub const CSR_MODE: u8 = 0;
pub const CSR_THRESHOLD: u8 = 1;
pub const CSR_TIME_BASE: u8 = 2;
pub const CSR_OPTIONS: u8 = 3;

/// Look-ahead levels of both RAM groups' RMWs (`golden::common::rmw`): two, so that the RTL's compares at
/// SL start one LUT after flip-flops.
pub const LOOKAHEAD: usize = 2;

/// Cycles from the decision (SM) to the result port (SM+2).
const RESULT_STAGES: usize = 2;

#[derive(Debug, Clone, Copy, Default)]
pub struct IfpdInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub desc: Descriptor,
    pub rep_ready: bool,
    pub csr_addr: u8,
    pub csr_wr_en: bool,
    pub csr_wr_data: u32,
    pub csr_rd_en: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IfpdOutputs {
    pub in_ready: Option<bool>,
    /// The reset sweep of both RAM groups is over (from now until the next reset a descriptor is taken
    /// every cycle).
    pub swept: Option<bool>,
    /// The result port: the packet that left SM two cycles before (case code 1/2/3, row, estimate).
    pub res_valid: Option<bool>,
    pub res_case: Option<u64>,
    pub res_row: Option<u64>,
    pub res_d_est: Option<u64>,
    /// The report FIFO's head.
    pub rep_valid: Option<bool>,
    pub rep_data: Option<ReportWord>,
    pub csr_rd_valid: Option<bool>,
    pub csr_rd_data: Option<u32>,
}

impl IfpdOutputs {
    /// The per-packet result `(case code, row, D_est)`, when the port shows one.
    pub fn result(&self) -> Option<(u64, u64, u64)> {
        (self.res_valid == Some(true)).then(|| (self.res_case.unwrap(), self.res_row.unwrap(), self.res_d_est.unwrap()))
    }
}

/// The port's view of a decision: `(case code, row, D_est)`.
pub fn result_of(d: &Decision) -> (u64, u64, u64) {
    (d.case.code() as u64, d.row as u64, d.d_est as u64)
}

pub struct IfpdCycleModel {
    pub cfg: IfpdConfig,
    bank: HashBank,
    /// The Bloom partitions' hash units (builds with a filter).
    bf_bank: Option<HashBank>,
    /// The `d` row RAMs with their forwarding; the packet travels as the payload.
    pub rows: MultiRmwModel<Bucket, Packet>,
    /// The filter's `k` one-bit RAMs (builds with a filter), in lockstep with `rows`.
    pub bloom: Option<MultiRmwModel<u128, u128>>,
    pub fifo: FifoModel<ReportWord>,
    pub csr: CsrModel,
    /// F1: the flow key and its stored time.
    f1: Option<(u128, u32)>,
    /// SM+1 and SM+2 (`[0]`, `[1]`): the decision and the report of the packet that left SM.
    res: [Option<(Decision, Option<Report>)>; RESULT_STAGES],
    /// The settings read at SL in the cycle before: those of the packet now at SM.
    rt_sl: Option<IfpdRuntime>,
    /// What the modify stage saw in the last step, when a packet was at SM: its `d` forwarded buckets, the
    /// packet and the decision (read by the co-simulation's coverage counters; no effect on the outputs).
    pub last_sm: Option<(Vec<Bucket>, Packet, Decision)>,
    /// Counters: `packets` at acceptance, cases and reports at SM+2.
    pub stats: IfpdStats,
    started: bool,
}

/// Both RAM groups' `in_ready`.
fn both(a: Option<bool>, b: Option<Option<bool>>) -> Option<bool> {
    match b {
        None => a,
        Some(b) => Some(a? && b?),
    }
}

impl IfpdCycleModel {
    pub fn new(cfg: &IfpdConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        let addr_bits = cfg.addr_bits().ok_or_else(|| {
            ConfigError(format!("an RTL build needs a power-of-two number of buckets per row, not {}", cfg.buckets))
        })?;
        let bloom = match cfg.bf_bits {
            0 => None,
            m if m.is_power_of_two() => {
                let bits = m.trailing_zeros() as usize;
                let timing = cfg.ram_timing(bits, 1);
                Some(MultiRmwModel::with_lookahead(RamPorts::Dual, timing, LOOKAHEAD, cfg.bf_hashes, bits, 1)?)
            }
            m => return Err(ConfigError(format!("an RTL build needs a power-of-two Bloom partition, not {m} bits"))),
        };
        Ok(IfpdCycleModel {
            cfg: cfg.clone(),
            bank: cfg.hash_bank()?,
            bf_bank: if cfg.bf_bits > 0 { Some(cfg.bf_hash_bank()?) } else { None },
            rows: MultiRmwModel::with_lookahead(
                RamPorts::Dual,
                cfg.ram_timing(addr_bits, cfg.bucket_bits(Mode::Ifpd)),
                LOOKAHEAD,
                cfg.rows,
                addr_bits,
                cfg.bucket_bits(Mode::Ifpd),
            )?,
            bloom,
            fifo: FifoModel::new(cfg.report_fifo_bits, cfg.report_bits()),
            csr: CsrModel::new(cfg.csr_layout()),
            f1: None,
            res: [None; RESULT_STAGES],
            rt_sl: None,
            last_sm: None,
            stats: IfpdStats::default(),
            started: false,
        })
    }

    /// Cycles from acceptance to the result port: a packet accepted in cycle t that F1 does not hold shows
    /// on `res_*` in cycle t + this (SM+2, after F1 and the rows' modify stage): 7 on short RAM timing, 9
    /// with [`IfpdConfig::registered_ram`]; its report is at the FIFO's head a cycle later at the earliest.
    pub fn result_latency(&self) -> usize {
        1 + self.rows.rows[0].modify_stage() + RESULT_STAGES
    }

    /// The status registers, in [`IfpdConfig::csr_layout`] order (32-bit, wrapping).
    fn status(&self) -> Vec<u32> {
        let s = &self.stats;
        [s.packets, s.case1_match, s.case2_insert, s.case3_replace, s.reports]
            .iter()
            .map(|&v| v as u32)
            .chain([self.fifo.drops(), self.fifo.level() as u32])
            .collect()
    }

    /// The run-time settings the registers hold now.
    pub fn runtime(&self) -> IfpdRuntime {
        IfpdRuntime::from_csr(&self.cfg, self.csr.config())
    }

    pub fn step(&mut self, i: &IfpdInputs) -> IfpdOutputs {
        let cfg = &self.cfg;
        let rt = IfpdRuntime::from_csr(cfg, self.csr.config());
        let status = self.status();
        let rmw_ready = both(self.rows.ready(i.reset), self.bloom.as_ref().map(|b| b.ready(i.reset)));
        let F1Handover { in_ready, accept, transfer } =
            F1Handover::new(i.reset, self.started, self.f1.is_some(), rmw_ready, i.in_valid);
        // S0: indices from the hash units, into both RAM groups.
        let mut row_in = MultiRmwInputs { reset: i.reset, ..Default::default() };
        let mut bf_in = MultiRmwInputs { reset: i.reset, ..Default::default() };
        if let (true, Some((flow, t))) = (transfer, self.f1) {
            let (idx, fp) = cfg.indices(&self.bank, flow);
            (row_in.in_valid, row_in.in_index, row_in.in_payload) = (true, idx[..cfg.rows].to_vec(), Packet { fp, t });
            if let Some(bank) = &self.bf_bank {
                let idx = bloom::indices(bank, cfg.bf_hashes, cfg.bf_bits, flow);
                (bf_in.in_valid, bf_in.in_index) = (true, idx[..cfg.bf_hashes].to_vec());
            }
        }
        // SM: the filter's answer first (it feeds the rows' decision in the same cycle); the settings are
        // those read at SL in the cycle before (a packet at SM was at SL then, in a cycle without reset).
        let rt_sm = self.rt_sl.unwrap_or(rt);
        let mut bf_first = false;
        if let Some(bf) = &mut self.bloom {
            bf.step(&bf_in, |st| {
                bf_first = st.old.contains(&0);
                vec![(rt_sm.mode == Mode::CmBf).then_some(1); st.old.len()]
            });
        }
        let mut decided = None;
        let mut seen = None;
        self.rows.step(&row_in, |st| {
            let d = decide(cfg, &rt_sm, &st.old, st.payload, bf_first);
            seen = Some((st.old.clone(), st.payload, d));
            decided = Some((d, d.reported(&rt_sm).then(|| Report::new(st.payload, &d))));
            d.writes(st.old.len())
        });
        // SM+2 → report FIFO.
        let s5 = self.res[RESULT_STAGES - 1];
        let report = s5.and_then(|s| s.1);
        let fifo_out = self.fifo.step(&FifoInputs {
            reset: i.reset,
            in_valid: report.is_some(),
            in_data: report.map(|r| r.pack(cfg)).unwrap_or_default(),
            out_ready: i.rep_ready,
        });
        let csr_out = self.csr.step(&CsrInputs::from_port(i, status));
        let res = s5.map(|s| result_of(&s.0));
        self.last_sm = seen;
        let was_started = self.started;
        // Edge.
        self.rt_sl = Some(rt);
        if i.reset {
            self.f1 = None;
            self.res = [None; RESULT_STAGES];
            self.stats = IfpdStats::default();
            self.started = true;
        } else if self.started {
            if let Some((d, r)) = s5 {
                self.stats.outcome(&d, r.is_some());
            }
            self.res.rotate_right(1);
            self.res[0] = decided;
            if accept {
                let ts = i.desc.ts & mask128(TIMESTAMP_BITS) as u64;
                self.f1 = Some((i.desc.flow, cfg.stored_time(ts, rt.base)));
                self.stats.packets += 1;
            } else if transfer {
                self.f1 = None;
            }
        }
        IfpdOutputs {
            in_ready,
            swept: rmw_ready,
            res_valid: was_started.then_some(res.is_some()),
            res_case: res.map(|r| r.0),
            res_row: res.map(|r| r.1),
            res_d_est: res.map(|r| r.2),
            rep_valid: fifo_out.map(|o| o.out_valid),
            rep_data: fifo_out.and_then(|o| o.out_data),
            csr_rd_valid: csr_out.as_ref().map(|o| o.rd_valid),
            csr_rd_data: csr_out.map(|o| o.rd_data),
        }
    }
}

/// The IFPD core's latency paths ([`crate::common::latency`]): a packet accepted → its result (`res`).
pub fn latency(cfg: &IfpdConfig) -> Vec<Latency> {
    let Ok(mut m) = IfpdCycleModel::new(cfg) else { return vec![] };
    let idle = IfpdInputs { rep_ready: true, ..Default::default() };
    let offer = IfpdInputs { in_valid: true, desc: Descriptor { flow: 1, ts: 1 }, ..idle };
    let reset = IfpdInputs { reset: true, ..idle };
    let cycles =
        measure(|i| m.step(i), &reset, &idle, &[offer], |o| o.in_ready == Some(true), |o| o.res_valid == Some(true));
    vec![path("in", "res", "every packet's result", cycles)]
}
