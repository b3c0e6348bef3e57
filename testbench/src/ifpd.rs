//! IFPD core co-simulation: the Verilated `IfpdCore` against `golden::ifpd::cycle`, cycle by cycle, on
//! randomized traffic.
//!
//! Traffic: a few heavy flows, a tail and fresh flows over rows of 16–32 buckets, so that matches, inserts
//! and replacements all happen; ≥10 % of packets repeat the previous flow (same bucket in every row back to
//! back), ~10 % a flow 2 to 8 packets back, ~10 % a different flow chosen to share one row's bucket with a
//! recent one (collisions at distances 1–8 — the rows' forwarding distances are 1–5 on short RAM timing and
//! 1–7 on registered, with the two look-ahead levels — in every row, counted per row and per distance).
//! Timestamps
//! advance mostly within one unit (equal timestamps: ties in case 3's largest timestamp), sometimes by long
//! gaps, now and then jump to just before the stored time's wrap, and about once in 3000 packets to a unit
//! whose stored time is exactly 0, followed by the same flow in that unit (CM writes time 0 as 1; the pair
//! checks that rule where the decision is split). Modes (IFPD, CM, CM-BF), threshold,
//! case-3 rule and `time_base` are drawn at every reset and rewritten mid-traffic; the report reader stalls
//! for long phases (FIFO overflow, drops counted); resets in the middle; garbage on the descriptor lines
//! while `in_valid` is low; random CSR reads.

use crate::axi_core::{check_tlast, pack, unpack, CsrAnswer};
use crate::core_run::{CoreRun, Held, MidReset, Stall};
use crate::harness::{RunConfig, RunReport};
use crate::models::{
    IfpdD1, IfpdD2, IfpdD4, IfpdD4A14, IfpdD4Axi, IfpdD4MutFwd, IfpdD4MutOrder, IfpdD4MutSmallest, IfpdD4Reg,
};
use crate::ports::{port, PortBits};
use crate::runtime_model::DynTop;
use golden::common::config::TIMESTAMP_BITS;
use golden::ifpd::cycle::{
    IfpdCycleModel, IfpdInputs, IfpdOutputs, CSR_MODE, CSR_OPTIONS, CSR_THRESHOLD, CSR_TIME_BASE,
};
use golden::ifpd::{Case, Descriptor, IfpdConfig, Mode, FLOW_KEY_BITS};
use rand::Rng;

crate::coverage_names! {
    resets, same_flow_back, flow_2_8_back, collide_dist1, collide_dist2, collide_dist3, collide_dist4, collide_dist5,
    collide_dist6, collide_dist7, collide_dist8, collide_row0,
    collide_row1, collide_row2, collide_row3, case1, case2, case3, case3_ties, ifpd_packets, cm_packets,
    cmbf_packets, cmbf_filter_first, estimate_across_wrap, time_wraps, rebases, threshold_writes, mode_writes,
    reports, report_drops, reader_stalls, idle_cycles, stored_time_zero, cm_same_flow_after_time_zero,
}

/// Marks this core's run-time model, `DynTop<Runtime>` (`netmeas verify`: `crate::runtime_model`).
pub enum Runtime {}

crate::top_outputs! {
    /// Outputs of an IFPD top during one cycle.
    pub struct IfpdTopOutputs {
        in_ready: bool,
        swept: bool,
        res_valid: bool,
        res_case: u64 [when res_valid],
        res_row: u64 [when res_valid],
        res_d_est: u64 [when res_valid],
        rep_valid: bool,
        rep_data: u128 [when rep_valid],
        csr_rd_valid: bool,
        csr_rd_data: u32,
    }
    compared with IfpdOutputs;
    read from IfpdD1, IfpdD2, IfpdD4, IfpdD4Reg, IfpdD4MutOrder, IfpdD4MutSmallest, IfpdD4MutFwd, IfpdD4A14,
        DynTop<Runtime>
}

crate::core_top! {
    IfpdD1, IfpdD2, IfpdD4, IfpdD4Reg, IfpdD4MutOrder, IfpdD4MutSmallest, IfpdD4MutFwd, IfpdD4A14, DynTop<Runtime>
        => IfpdInputs, Descriptor, IfpdOutputs, IfpdTopOutputs;
    |m, i, garbage| {
        let d = if i.in_valid { &i.desc } else { garbage };
        m.set_reset(i.reset as u64);
        m.set_in_valid(i.in_valid as u64);
        m.set_in_flow(d.flow & golden::common::mask128(FLOW_KEY_BITS));
        m.set_in_ts(d.ts & ((1u64 << TIMESTAMP_BITS) - 1));
        m.set_rep_ready(i.rep_ready as u64);
        crate::drive_csr_pins!(m, i);
    }
}

// `ifpd_d4_axi`, the generated AXI flavour of `ifpd_d4` (see `crate::axi_core`): descriptors packed into
// `s_axis_in_tdata`, results and reports unpacked from `m_axis_res_tdata` and `m_axis_rep_tdata`, by the
// wrapper's layout rule re-derived from `ifpd_d4`'s ports.
crate::axi_core_top! {
    IfpdD4Axi, DynTop<Runtime> => IfpdInputs, Descriptor, IfpdOutputs, IfpdTopOutputs;
    drive |m, layouts, i, garbage| {
        let d = if i.in_valid { &i.desc } else { garbage };
        m.set_s_axis_in_tvalid(i.in_valid as u64);
        m.set_s_axis_in_tdata(pack(&layouts[0], &[("in_flow", d.flow), ("in_ts", d.ts as u128)]).to());
        m.set_m_axis_rep_tready(i.rep_ready as u64);
    }
    read |m, layouts, sb, c, e| {
        let words: PortBits = port(m.m_axis_res_tdata());
        let res = |f: &str| unpack(&layouts[1], words, f) as u64;
        let res_valid: bool = port(m.m_axis_res_tvalid());
        check_tlast(sb, c, "m_axis_res_tlast", res_valid, m.m_axis_res_tlast());
        let (csr_rd_valid, csr_rd_data) = e.csr_answer();
        let rep_valid = port(m.m_axis_rep_tvalid());
        check_tlast(sb, c, "m_axis_rep_tlast", rep_valid, m.m_axis_rep_tlast());
        IfpdTopOutputs {
            in_ready: port(m.s_axis_in_tready()),
            swept: port(m.swept()),
            res_valid,
            res_case: res("res_case"),
            res_row: res("res_row"),
            res_d_est: res("res_d_est"),
            rep_valid,
            rep_data: port(m.m_axis_rep_tdata()),
            csr_rd_valid,
            csr_rd_data,
        }
    }
}

crate::top_trait!(
    /// A Verilated IFPD top.
    pub IfpdTop => IfpdInputs, Descriptor, IfpdOutputs, IfpdTopOutputs
);

/// The configuration of an IFPD top, from hdl's list.
pub fn top_config(name: &str) -> IfpdConfig {
    crate::harness::top_config(name)
}

const TS_MASK: u64 = (1 << TIMESTAMP_BITS) - 1;

/// Recent flows the traffic repeats or collides with: distances 1..=8, one beyond the deepest forwarding.
const HISTORY: usize = 8;

/// The coverage counters of collisions at distances 1..=8 (a different flow on the same bucket, accepted that
/// many cycles before); every run must see each.
pub const COLLIDE_DIST: [&str; HISTORY] = [
    cov::collide_dist1,
    cov::collide_dist2,
    cov::collide_dist3,
    cov::collide_dist4,
    cov::collide_dist5,
    cov::collide_dist6,
    cov::collide_dist7,
    cov::collide_dist8,
];

/// Flows and timestamps.
struct Traffic {
    cfg: IfpdConfig,
    bank: golden::common::hash::HashBank,
    history: [u128; HISTORY],
    heavy: Vec<u128>,
    tail: Vec<u128>,
    ts: u64,
    /// The next packet repeats this one's flow in the same time unit.
    repeat: bool,
}

impl Traffic {
    fn new(cfg: &IfpdConfig, r: &mut impl Rng) -> Traffic {
        let mask = golden::common::mask128(FLOW_KEY_BITS);
        let heavy = (0..2 * cfg.buckets).map(|_| r.gen::<u128>() & mask).collect();
        let tail = (0..8 * cfg.rows * cfg.buckets).map(|_| r.gen::<u128>() & mask).collect();
        Traffic {
            cfg: cfg.clone(),
            bank: cfg.hash_bank().expect("valid"),
            history: [0; HISTORY],
            heavy,
            tail,
            ts: r.gen::<u64>() & TS_MASK,
            repeat: false,
        }
    }
    fn rows_of(&self, flow: u128) -> Vec<usize> {
        self.cfg.indices(&self.bank, flow).0[..self.cfg.rows].to_vec()
    }
    /// The next packet; `base` is the interval base the core holds now (for the stored-time-0 jumps).
    fn next(&mut self, run: &mut crate::blocks::Run, base: u64) -> Descriptor {
        let r = &mut run.rng;
        let flow = match r.gen_range(0..100) {
            _ if self.repeat => self.history[0],
            0..=13 => self.history[0],
            14..=23 => self.history[r.gen_range(1..HISTORY)],
            24..=33 => {
                // A different flow sharing one row's bucket with a recent flow (searched among the tail).
                let target = self.rows_of(self.history[r.gen_range(0..HISTORY)]);
                let row = r.gen_range(0..self.cfg.rows);
                let start = r.gen_range(0..self.tail.len());
                (0..self.tail.len())
                    .map(|k| self.tail[(start + k) % self.tail.len()])
                    .find(|&f| self.rows_of(f)[row] == target[row] && !self.history.contains(&f))
                    .unwrap_or_else(|| r.gen())
            }
            34..=68 => self.heavy[(r.gen::<f64>().powi(2) * self.heavy.len() as f64) as usize],
            69..=94 => self.tail[r.gen_range(0..self.tail.len())],
            _ => r.gen(),
        } & golden::common::mask128(FLOW_KEY_BITS);
        if flow == self.history[0] {
            run.count(cov::same_flow_back, 1);
        } else if self.history[1..].contains(&flow) {
            run.count(cov::flow_2_8_back, 1);
        }
        self.history.rotate_right(1);
        self.history[0] = flow;
        // Time: mostly within a unit, sometimes long gaps, now and then just before the stored time wraps.
        let (s, t) = (self.cfg.ts_shift, self.cfg.ts_bits);
        let r = &mut run.rng;
        let step = match r.gen_range(0..1000) {
            0..=599 => r.gen_range(0..1u64 << s),
            600..=899 => r.gen_range(0..1u64 << (s + 3)),
            900..=989 => r.gen_range(0..1u64 << (s + 8)),
            _ => r.gen_range(0..1u64 << (s + 14).min(40)),
        };
        let step = if std::mem::take(&mut self.repeat) { 0 } else { step };
        let mut ts = (self.ts + step) & TS_MASK;
        if r.gen_ratio(1, 3_000) {
            // Jump to the next unit whose stored time is exactly 0 (CM writes it as 1), and repeat the flow
            // in the same unit right after: a back-to-back pair at stored time 0.
            let unit = ts >> s;
            let ahead = base.wrapping_sub(unit) & ((1u64 << t) - 1);
            ts = (((unit + ahead) << s) | (ts & ((1u64 << s) - 1))) & TS_MASK;
            self.repeat = true;
        } else if r.gen_ratio(1, 20_000) {
            let period = s + t;
            ts = ((((ts >> period) + 1) << period) - r.gen_range(1..1u64 << (s + 10))) & TS_MASK;
        }
        if (ts >> s) >> t != (self.ts >> s) >> t {
            run.count(cov::time_wraps, 1);
        }
        self.ts = ts;
        Descriptor { flow, ts }
    }
}

/// A random threshold: 0 (every packet reported), small, medium, or the largest.
fn threshold(cfg: &IfpdConfig, r: &mut impl Rng) -> u32 {
    let max = cfg.ts_max();
    match r.gen_range(0..20) {
        0..=4 => 0,
        5..=9 => r.gen_range(0..16),
        10..=14 => r.gen_range(0..256),
        15..=18 => r.gen_range(0..4096u32.min(max)),
        _ => max,
    }
}

fn mode(r: &mut impl Rng) -> u32 {
    // IFPD half the time; CM and CM-BF (written as 2 or 3) the rest.
    [0, 0, 0, 1, 2, 3][r.gen_range(0..6)]
}

/// Settings after a reset: mode, threshold, interval base (the rebase of a new interval), case-3 rule.
fn settings(cfg: &IfpdConfig, r: &mut impl Rng) -> Vec<(u8, u32)> {
    let base = if r.gen_bool(0.5) { 0 } else { r.gen() };
    vec![
        (CSR_MODE, mode(r)),
        (CSR_THRESHOLD, threshold(cfg, r)),
        (CSR_TIME_BASE, base),
        (CSR_OPTIONS, r.gen_range(0..2)),
    ]
}

/// Counts collisions with the packets accepted 1–8 cycles before: a different flow on the same bucket.
struct Collisions {
    recent: Vec<(u64, u128, Vec<usize>)>,
}

impl Collisions {
    fn accepted(&mut self, run: &mut crate::blocks::Run, cycle: u64, flow: u128, rows: Vec<usize>) {
        const ROW: [&str; 4] = [cov::collide_row0, cov::collide_row1, cov::collide_row2, cov::collide_row3];
        self.recent.retain(|e| cycle - e.0 <= HISTORY as u64);
        for (c, f, idx) in &self.recent {
            if *f == flow {
                continue;
            }
            for (r, (a, b)) in rows.iter().zip(idx).enumerate() {
                if a == b {
                    run.count(ROW[r.min(3)], 1);
                    run.count(COLLIDE_DIST[(cycle - c - 1) as usize], 1);
                }
            }
        }
        self.recent.push((cycle, flow, rows));
    }
}

/// Runs `cfg.transactions` accepted packets through an IFPD top and compares every cycle.
pub fn run_top<M: IfpdTop>(name: &str, cfg: &RunConfig, make: impl FnOnce(u64) -> M) -> RunReport {
    let icfg = top_config(name);
    let gold = IfpdCycleModel::new(&icfg).expect("valid configuration");
    let mut cr = CoreRun::new(name, cfg, make(cfg.x_seed), gold, &icfg.csr_layout());
    let mut traffic = Traffic::new(&icfg, &mut cr.run.rng);
    let mut collisions = Collisions { recent: Vec::new() };
    let mut held: Held<Descriptor> = Held::new();
    let mut stall = Stall::new(3000, 50..2000);
    let mut mid_reset = MidReset::default();
    let mut drops = 0;
    // The fingerprint of the packet at SM in the last cycle when its stored time was 0.
    let mut sm_zero: Option<u32> = None;
    while cr.run.transactions < cfg.transactions {
        let halfway = mid_reset.now(cr.run.transactions, cfg.transactions);
        let reset = cr.sim.cycle == 0 || halfway || cr.run.rng.gen_ratio(1, 200_000);
        let rng = &mut cr.run.rng;
        if reset {
            let s = settings(&icfg, rng);
            cr.csr.load(s);
            cr.run.count(cov::resets, 1);
            held.drop_held();
            drops = 0;
        } else if rng.gen_ratio(1, 5_000) {
            let t = threshold(&icfg, rng);
            cr.csr.push(CSR_THRESHOLD, t);
            cr.run.count(cov::threshold_writes, 1);
        } else if rng.gen_ratio(1, 20_000) {
            let (m, o) = (mode(rng), rng.gen_range(0..2));
            cr.csr.push(CSR_MODE, m);
            cr.csr.push(CSR_OPTIONS, o);
            cr.run.count(cov::mode_writes, 1);
        } else if rng.gen_ratio(1, 50_000) {
            let b = rng.gen();
            cr.csr.push(CSR_TIME_BASE, b);
            cr.run.count(cov::rebases, 1);
        }
        let r = &mut cr.run.rng;
        if stall.step(r) {
            cr.run.count(cov::reader_stalls, 1);
        }
        let r = &mut cr.run.rng;
        let mut i = IfpdInputs { reset, rep_ready: stall.ready(r, 0.7), ..Default::default() };
        if !reset && !cr.csr.write_next(&mut i) && r.gen_ratio(1, 20) {
            cr.csr.random_read(&mut i, r);
        }
        let garbage = Descriptor { flow: r.gen(), ts: r.gen() };
        if held.is_free() && r.gen_bool(0.92) {
            let base = cr.gold.runtime().base;
            held.hold(traffic.next(&mut cr.run, base));
        }
        i.desc = held.get().unwrap_or_default();
        i.in_valid = held.get().is_some();
        if !i.in_valid {
            cr.count(cov::idle_cycles, 1);
        }
        let mode_now = cr.gold.runtime().mode;
        let cy = cr.step(&i, &garbage);
        let last_sm = cr.gold.last_sm.clone();
        let prev_sm_zero =
            std::mem::replace(&mut sm_zero, last_sm.as_ref().and_then(|(_, p, _)| (p.t == 0).then_some(p.fp)));
        if let Some((old, p, d)) = last_sm {
            cr.count(
                match mode_now {
                    Mode::Ifpd => cov::ifpd_packets,
                    Mode::Cm => cov::cm_packets,
                    Mode::CmBf => cov::cmbf_packets,
                },
                1,
            );
            let case = [cov::case1, cov::case2, cov::case3][d.case.code() as usize - 1];
            cr.count(case, 1);
            cr.count(cov::stored_time_zero, (p.t == 0) as u64);
            // A CM packet right behind its own flow's packet at stored time 0 (written as 1): its estimate
            // depends on that rule at SL and at SM.
            let cm_after_zero = mode_now != Mode::Ifpd && prev_sm_zero == Some(p.fp) && old.iter().all(|b| b.t == 1);
            cr.count(cov::cm_same_flow_after_time_zero, cm_after_zero as u64);
            if d.case == Case::Replace {
                let youngest = old.iter().map(|b| icfg.age(p.t, b.t)).min().unwrap();
                let ties = old.iter().filter(|b| icfg.age(p.t, b.t) == youngest).count();
                cr.count(cov::case3_ties, (ties > 1) as u64);
            }
            let wrapped = d.case != Case::Insert && d.d_est > 0 && p.t < old[d.row].t;
            cr.count(cov::estimate_across_wrap, wrapped as u64);
            let filter_first = mode_now == Mode::CmBf && d.case == Case::Insert && old.iter().all(|b| b.t != 0);
            cr.count(cov::cmbf_filter_first, filter_first as u64);
        }
        if cy.e.rep_valid == Some(true) && i.rep_ready {
            cr.count(cov::reports, 1);
        }
        let now_drops = cr.gold.fifo.drops();
        cr.count(cov::report_drops, now_drops.wrapping_sub(drops) as u64);
        drops = now_drops;
        if let Some(d) = held.accepted(reset, cy.e.in_ready) {
            let rows = traffic.rows_of(d.flow);
            collisions.accepted(&mut cr.run, cy.c, d.flow, rows);
            cr.run.transactions += 1;
        }
    }
    cr.finish()
}

pub fn run_ifpd_d1(cfg: &RunConfig) -> RunReport {
    run_top("ifpd_d1", cfg, IfpdD1::new)
}
pub fn run_ifpd_d2(cfg: &RunConfig) -> RunReport {
    run_top("ifpd_d2", cfg, IfpdD2::new)
}
pub fn run_ifpd_d4(cfg: &RunConfig) -> RunReport {
    run_top("ifpd_d4", cfg, IfpdD4::new)
}
/// `ifpd_d4`'s traffic through its AXI flavour `ifpd_d4_axi` (registers over AXI4-Lite).
pub fn run_ifpd_d4_axi(cfg: &RunConfig) -> RunReport {
    run_axi("ifpd_d4", cfg, IfpdD4Axi::new)
}
crate::axi_runner!(IfpdTop, &["in", "res"]);
pub fn run_ifpd_d4_reg(cfg: &RunConfig) -> RunReport {
    run_top("ifpd_d4_reg", cfg, IfpdD4Reg::new)
}

/// The test-only mutants of `ifpd_d4` (`hdl::ifpd::builds::MUTANTS`), each run against golden's ifpd_d4
/// behaviour: the co-simulation must fail on every one.
pub const MUTANT_RUNNERS: &[crate::blocks::Runner] = &[
    ("ifpd_d4_mut_order", |c| run_top("ifpd_d4_mut_order", c, IfpdD4MutOrder::new)),
    ("ifpd_d4_mut_smallest", |c| run_top("ifpd_d4_mut_smallest", c, IfpdD4MutSmallest::new)),
    ("ifpd_d4_mut_fwd", |c| run_top("ifpd_d4_mut_fwd", c, IfpdD4MutFwd::new)),
];

/// The IFPD runners (demo order).
pub const ALL: &[crate::blocks::Runner] =
    &[("ifpd_d1", run_ifpd_d1), ("ifpd_d2", run_ifpd_d2), ("ifpd_d4", run_ifpd_d4), ("ifpd_d4_reg", run_ifpd_d4_reg)];

/// A trace through an IFPD top (what `--engine rtl` runs).
#[derive(Debug, Clone, Default)]
pub struct TraceRun {
    /// Every report with the index of its packet in the trace, in order.
    pub reports: Vec<(usize, golden::ifpd::Report)>,
    /// The status counters read back over the CSR port after the trace.
    pub stats: golden::ifpd::IfpdStats,
    /// Cycles from the second accepted packet to the last, both included (the input rate once the pipeline
    /// runs; the first packet waits through the reset sweep).
    pub accept_cycles: u64,
    /// Cycles of the whole run: reset, settings, trace, drain, counter reads.
    pub cycles: u64,
}

/// Runs `packets` at full rate through top `name` (a descriptor offered every cycle, the report reader always
/// ready) with settings `rt` written during the reset sweep, every cycle checked against the golden cycle
/// model; then reads the counters. Each report is matched to its packet by order: the result port shows the
/// packets in order, and the ones whose estimate reaches the threshold leave the FIFO in the same order.
pub fn run_trace<M: IfpdTop>(
    name: &str,
    rt: &golden::ifpd::IfpdRuntime,
    packets: &[Descriptor],
    make: impl FnOnce(u64) -> M,
) -> Result<TraceRun, String> {
    use golden::ifpd::{IfpdStats, Report};
    let icfg = top_config(name);
    rt.check(&icfg).map_err(|e| format!("{name}: {e}"))?;
    let layout = icfg.csr_layout();
    let counters = ["packets", "case1_match", "case2_insert", "case3_replace", "reports"]
        .map(|c| layout.status_addr(c).expect("the register map has the counters"));
    let gold = IfpdCycleModel::new(&icfg).map_err(|e| e.to_string())?;
    let mut csr = crate::csr_driver::CsrDriver::new(&layout);
    csr.load(rt.csr_writes().to_vec());
    let limit = 2 * packets.len() as u64 + 4 * icfg.buckets.max(icfg.bf_bits) as u64 + 10_000;
    let mut ts = crate::core_run::TraceSim::new(name, make(1), gold, csr, limit);
    let mut out = TraceRun::default();
    let (mut next, mut results, mut second_accept) = (0usize, 0usize, None);
    let mut waiting = std::collections::VecDeque::new();
    let (mut quiet, mut read, mut values) = (0u32, 0usize, Vec::new());
    loop {
        let now = ts.now();
        let mut i = IfpdInputs { reset: now == 0, rep_ready: true, ..Default::default() };
        let wrote = ts.csr.write_next(&mut i);
        let drained = next >= packets.len() && quiet >= 16;
        if drained && !wrote && read < counters.len() {
            ts.csr.read(&mut i, counters[read]);
            read += 1;
        }
        let settled = ts.csr.is_idle() && now > 8;
        i.in_valid = settled && next < packets.len();
        i.desc = if i.in_valid { packets[next] } else { Descriptor::default() };
        let cy = ts.step(&i, &Descriptor::default(), || {
            format!("{next} of {} packets in, {} reports", packets.len(), out.reports.len())
        })?;
        if cy.o.res_valid && !i.reset {
            if cy.o.res_d_est >= rt.threshold as u64 {
                waiting.push_back(results);
            }
            results += 1;
        }
        if cy.o.rep_valid && !i.reset {
            let k = waiting.pop_front().ok_or_else(|| format!("{name}: a report without a reported packet"))?;
            let r = Report::unpack(&icfg, cy.o.rep_data).map_err(|e| format!("{name}: {e}"))?;
            out.reports.push((k, r));
        }
        if cy.o.csr_rd_valid && !i.reset {
            values.push(cy.o.csr_rd_data as u64);
        }
        if i.in_valid && cy.o.in_ready {
            next += 1;
            if next >= 2 {
                out.accept_cycles = cy.c - *second_accept.get_or_insert(cy.c) + 1;
            }
        }
        quiet = if cy.o.res_valid || cy.o.rep_valid || i.in_valid { 0 } else { quiet + 1 };
        if values.len() == counters.len() {
            out.cycles = ts.now();
            break;
        }
    }
    if ts.gold.fifo.drops() > 0 {
        return Err(format!("{name}: {} reports dropped by the report FIFO", ts.gold.fifo.drops()));
    }
    let [packets_n, case1_match, case2_insert, case3_replace, reports] = values[..] else { unreachable!() };
    out.stats = IfpdStats { packets: packets_n, case1_match, case2_insert, case3_replace, reports };
    Ok(out)
}
