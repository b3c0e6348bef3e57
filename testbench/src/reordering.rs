//! Reordering (flow-sampling) core co-simulation: the Verilated `ReorderCore` against
//! `golden::reordering::cycle`, cycle by cycle, on randomized traffic.
//!
//! Traffic: a pool of prefixes (addresses whose low bits vary, so the prefix length matters), 1–6 flows
//! each; ≥10 % of packets repeat the previous packet's flow (same bucket back to back) and more share its
//! prefix with another flow (same bucket, another flow: the overwrite decision back to back); sequence
//! numbers advance, go back (out of order: 10 % of a flow's packets, 50 % for a quarter of the flows),
//! repeat, and cross 2^32; ~10 % pure ACKs; time advances in
//! steps around the stored unit with gaps that make residents stale. Settings (prefix length, T, C, R,
//! the conditions — each alone and together —, first-packet counting, prefix, flow or port indexing with
//! forced decisions — the hybrid's side table: an index derived from the flow, a random `in_force`) are drawn
//! at every reset and rewritten mid-traffic; bank swaps and flushes under traffic with a reader that
//! stalls (the eviction FIFO fills and drops; the walk waits and never drops); resets in the middle.

use crate::axi_core::{check_tlast, pack, unpack, CsrAnswer};
use crate::core_run::{CoreRun, Held, MidReset, Stall};
use crate::harness::{RunConfig, RunReport};
use crate::models::{RoA4, RoA4MutCond, RoA4MutSeq, RoA6, RoA6Axi};
use crate::period_end::PeriodEnd;
use crate::ports::{port, PortBits};
use crate::runtime_model::DynTop;
use golden::common::rmw::RmwStage;
use golden::reordering::cycle::Op;
use golden::reordering::cycle::{
    csr_writes, runtime_from_csr, ReorderCycleModel, ReorderInputs, ReorderOutputs as GoldenOutputs, CSR_BANK,
    CSR_CONDITIONS, CSR_FLUSH,
};
use golden::reordering::sampling::{decide, Force, Outcome};
use golden::reordering::{Descriptor, IndexBy, ReorderConfig, ReorderRuntime, Report};
use rand::Rng;

crate::coverage_names! {
    resets, same_flow_back, same_bucket_other_flow, seq_wraps, non_data, hits, inserts, overwrites, misses,
    out_of_order, overwrite_stale_alone, overwrite_count_alone, overwrite_reorder_alone, overwrite_together,
    flow_indexed, port_indexed, forced_resident, forced_replace, evictions, eviction_drops, flushes,
    flushed_reports, saturated_n, saturated_o, reader_stalls, setting_writes,
}

/// Marks this core's run-time model, `DynTop<Runtime>` (`netmeas verify`: `crate::runtime_model`).
pub enum Runtime {}

crate::top_outputs! {
    /// Outputs of a reordering top during one cycle.
    pub struct RoOutputs {
        in_ready: bool,
        swept: bool,
        res_valid: bool,
        res_outcome: u64 [when res_valid],
        res_ooo: bool [when res_valid],
        rep_valid: bool,
        rep_data: u128 [when rep_valid],
        csr_rd_valid: bool,
        csr_rd_data: u32,
    }
    compared with GoldenOutputs;
    read from RoA4, RoA6, RoA4MutSeq, RoA4MutCond, DynTop<Runtime>
}

crate::core_top! {
    RoA4, RoA6, RoA4MutSeq, RoA4MutCond, DynTop<Runtime> => ReorderInputs, Descriptor, GoldenOutputs, RoOutputs;
    |m, i, garbage| {
        let d = if i.in_valid { &i.desc } else { garbage };
        m.set_reset(i.reset as u64);
        m.set_in_valid(i.in_valid as u64);
        m.set_in_addr(d.addr as u64);
        m.set_in_flow(d.flow & golden::common::mask128(golden::reordering::FLOW_KEY_BITS));
        m.set_in_seq(d.seq as u64);
        m.set_in_ts(d.ts & ((1u64 << golden::common::config::TIMESTAMP_BITS) - 1));
        m.set_in_data(d.data as u64);
        // The side-table ports: garbage (from the garbage descriptor) while `in_valid` is low.
        let (index, force) = if i.in_valid {
            (i.in_index as u64, force_code(i.in_force, garbage))
        } else {
            (garbage.seq as u64, garbage.ts & 3)
        };
        m.set_in_index(index);
        m.set_in_force(force);
        m.set_rep_ready(i.rep_ready as u64);
        crate::drive_csr_pins!(m, i);
    }
}

// `ro_a6_axi`, the generated AXI flavour of `ro_a6` (see `crate::axi_core`): descriptors and the side-table
// ports into `s_axis_in_tdata`; results (no tready) and reports read from the master streams.
crate::axi_core_top! {
    RoA6Axi, DynTop<Runtime> => ReorderInputs, Descriptor, GoldenOutputs, RoOutputs;
    drive |m, layouts, i, garbage| {
        let d = if i.in_valid { &i.desc } else { garbage };
        let (index, force) = if i.in_valid {
            (i.in_index, force_code(i.in_force, garbage))
        } else {
            (garbage.seq as usize, garbage.ts & 3)
        };
        let fields = [&descriptor_fields(d)[..], &[("in_index", index as u128), ("in_force", force as u128)]].concat();
        m.set_s_axis_in_tvalid(i.in_valid as u64);
        m.set_s_axis_in_tdata(pack(&layouts[0], &fields).to());
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
        RoOutputs {
            in_ready: port(m.s_axis_in_tready()),
            swept: port(m.swept()),
            res_valid,
            res_outcome: res("res_outcome"),
            res_ooo: res("res_ooo") != 0,
            rep_valid,
            rep_data: port(m.m_axis_rep_tdata()),
            csr_rd_valid,
            csr_rd_data,
        }
    }
}

/// A descriptor's `s_axis_in_tdata` fields by port name (the flow-sampling core's and the hybrid's AXI
/// flavours; the sampling core adds its `in_index` and `in_force`).
pub(crate) fn descriptor_fields(d: &Descriptor) -> [(&'static str, u128); 5] {
    let (addr, seq, ts, data) = (d.addr as u128, d.seq as u128, d.ts as u128, d.data as u128);
    [("in_addr", addr), ("in_flow", d.flow), ("in_seq", seq), ("in_ts", ts), ("in_data", data)]
}

crate::top_trait!(
    /// A Verilated reordering top.
    pub RoTop => ReorderInputs, Descriptor, GoldenOutputs, RoOutputs
);

/// The configuration of a reordering top, from hdl's list.
pub fn top_config(name: &str) -> ReorderConfig {
    crate::harness::top_config(name)
}

/// Settings after a reset or as a rewrite (the `k`-th draw): T around the time steps, C and R small (they
/// bite), the conditions in turn through all eight combinations (each alone, together, none), now and then
/// flow or port indexing.
pub(crate) fn settings(cfg: &ReorderConfig, r: &mut impl Rng, k: u32) -> ReorderRuntime {
    let cond = k % 8;
    ReorderRuntime {
        prefix_len: [0, 8, 16, 20, 24, 28, 32, r.gen_range(0..64)][r.gen_range(0..8)],
        timeout: r.gen_range(0..64).min(cfg.ts_max()),
        count: r.gen_range(0..12).min(cfg.n_max()),
        reorder: r.gen_range(0..4).min(cfg.o_max()),
        stale_en: cond & 1 == 1,
        count_en: cond & 2 == 2,
        reorder_en: cond & 4 == 4,
        count_first: r.gen_bool(0.7),
        // Port indexing (forced decisions evict at random) never with the conditions all off: that setting
        // is where residents stay long enough to saturate their counts.
        index: match r.gen_range(0..10) {
            0..=1 => IndexBy::Flow,
            2..=4 if cond != 0 => IndexBy::Port,
            _ => IndexBy::Prefix,
        },
    }
}

/// One flow of the pool.
#[derive(Clone, Copy)]
struct Flow {
    addr: u32,
    key: u128,
    seq: u32,
    /// Percent of its packets that go back in sequence (a quarter of the flows are heavily reordered, so
    /// narrow `o` counters saturate).
    back: u32,
}

/// Descriptors over the pool, in the proportions of the module docs.
pub(crate) struct Traffic {
    flows: Vec<Flow>,
    /// `flows[prefix_start[g]..prefix_start[g + 1]]` share an address prefix.
    prefix_of: Vec<usize>,
    recent: [usize; 3],
    now: u64,
    unit: u64,
    /// Packets left in a burst of the previous packet's flow (half of them out of order): one flow alone
    /// long enough to saturate its counts, whatever the settings.
    pub(crate) burst: u32,
}

impl Traffic {
    pub(crate) fn new(cfg: &ReorderConfig, r: &mut impl Rng) -> Traffic {
        let (mut flows, mut prefix_of) = (Vec::new(), Vec::new());
        for g in 0..3 * cfg.buckets() {
            let base: u32 = r.gen::<u32>() & 0xFFFF_FF00;
            for _ in 0..r.gen_range(1..=6) {
                // Near the wrap for a third of the flows.
                let seq = if r.gen_ratio(1, 3) { u32::MAX - r.gen_range(0..200_000) } else { r.gen() };
                let key = r.gen::<u128>() & golden::common::mask128(golden::reordering::FLOW_KEY_BITS);
                let back = if r.gen_ratio(1, 4) { 50 } else { 10 };
                flows.push(Flow { addr: base | r.gen_range(0..256), key, seq, back });
                prefix_of.push(g);
            }
        }
        Traffic { flows, prefix_of, recent: [0; 3], now: 0, unit: cfg.ts_unit_ns(), burst: 0 }
    }

    pub(crate) fn next(&mut self, run: &mut crate::blocks::Run) -> Descriptor {
        let r = &mut run.rng;
        self.burst = self.burst.saturating_sub(1);
        let f = match r.gen_range(0..100) {
            _ if self.burst > 0 => self.recent[0],
            0..=14 => self.recent[0],
            15..=24 => self.recent[r.gen_range(1..3)],
            25..=44 => {
                // Another flow of the previous packet's prefix (the same bucket when prefix-indexed).
                let g = self.prefix_of[self.recent[0]];
                let first = self.prefix_of.partition_point(|&p| p < g);
                let last = self.prefix_of.partition_point(|&p| p <= g);
                r.gen_range(first..last)
            }
            _ => r.gen_range(0..self.flows.len()),
        };
        if f == self.recent[0] {
            run.count(cov::same_flow_back, 1);
        } else if self.prefix_of[f] == self.prefix_of[self.recent[0]] {
            run.count(cov::same_bucket_other_flow, 1);
        }
        self.recent = [f, self.recent[0], self.recent[1]];
        let r = &mut run.rng;
        let (before, back) = (self.flows[f].seq, if self.burst > 0 { 50 } else { self.flows[f].back });
        let seq = match r.gen_range(0..100) {
            p if p < back => before.wrapping_sub(r.gen_range(1..5000)),
            p if p < back + 5 => before,
            _ => before.wrapping_add(r.gen_range(1..1461)),
        };
        self.flows[f].seq = seq;
        if seq < before && !golden::reordering::out_of_order(seq, before) {
            run.count(cov::seq_wraps, 1);
        }
        let r = &mut run.rng;
        let fl = self.flows[f];
        // Time: steps around the stored unit, gaps of many units now and then.
        self.now += if r.gen_ratio(1, 50) { self.unit * r.gen_range(10..200) } else { r.gen_range(0..2 * self.unit) };
        let data = !r.gen_ratio(1, 10);
        if !data {
            run.count(cov::non_data, 1);
        }
        Descriptor { addr: fl.addr, flow: fl.key, seq: fl.seq, ts: self.now, data }
    }
}

/// The golden model's current settings (for coverage): the overwrite conditions, the index source.
fn conditions(gold: &ReorderCycleModel) -> (u32, IndexBy) {
    let c = gold.csr.config();
    (c[CSR_CONDITIONS as usize] & 7, runtime_from_csr(&gold.cfg, c).index)
}

/// The `in_force` code of a packet's force: no force as 0 or — half the time, by a bit of the cycle's garbage
/// descriptor (no draw of its own, so the traffic of a seed is unchanged) — as 3, which also reads as none.
fn force_code(f: Force, garbage: &Descriptor) -> u64 {
    if f == Force::None && garbage.ts & 4 != 0 {
        3
    } else {
        f.code() as u64
    }
}

/// The side-table ports of a packet: an index that follows the flow (so one flow's packets meet in a bucket
/// back to back, as the hybrid's heavy-hitter buckets do) and a force — random (code 3 reads as none) when
/// the core is port-indexed, now and then otherwise (flow sampling's users tie it to 0).
fn side_ports(cfg: &ReorderConfig, d: &Descriptor, port: bool, r: &mut impl Rng) -> (usize, Force) {
    let force = if port || r.gen_ratio(1, 50) { Force::from_code(r.gen_range(0..4)) } else { Force::None };
    ((d.flow as usize ^ (d.flow >> 64) as usize) & (cfg.buckets() - 1), force)
}

/// Runs `cfg.transactions` accepted descriptors through a reordering top and compares every cycle.
pub fn run_top<M: RoTop>(name: &str, cfg: &RunConfig, make: impl FnOnce(u64) -> M) -> RunReport {
    let rcfg = top_config(name);
    let gold = ReorderCycleModel::new(&rcfg).expect("valid configuration");
    let mut cr = CoreRun::new(name, cfg, make(cfg.x_seed), gold, &rcfg.csr_layout());
    let mut traffic = Traffic::new(&rcfg, &mut cr.run.rng);
    let mut held = Held::new();
    let mut stall = Stall::new(1500, 50..2000);
    let mut mid_reset = MidReset::default();
    let (mut drops, mut draws) = (0, cr.run.rng.gen_range(0..8u32));
    while cr.run.transactions < cfg.transactions {
        let halfway = mid_reset.now(cr.run.transactions, cfg.transactions);
        let reset = cr.sim.cycle == 0 || halfway || cr.run.rng.gen_ratio(1, 300_000);
        if reset {
            cr.count(cov::resets, 1);
            // The reset halfway always enables the count condition alone (k = 2), so every run has a long
            // stretch in which an overwrite can be due to the count alone (partial rewrites and the random
            // draw order left that stretch out in about one run of twenty); the first reset enables the
            // reordering condition alone (k = 4) for the same reason (without it the `ro_a4_mut_cond`
            // mutant, which drops that condition, escaped a 200 000-packet run now and then, e.g. seed
            // 13913141882221880757).
            let k = if halfway {
                2
            } else if cr.sim.cycle == 0 {
                4
            } else {
                draws
            };
            let rt = settings(&rcfg, &mut cr.run.rng, k);
            draws += 1;
            cr.csr.load(csr_writes(&rt));
            held.drop_held();
            drops = 0;
        } else if cr.run.rng.gen_ratio(1, 20_000) {
            // Rewrite one setting (or all of them).
            let rt = settings(&rcfg, &mut cr.run.rng, draws);
            draws += 1;
            let writes = csr_writes(&rt);
            if cr.run.rng.gen_bool(0.5) {
                cr.csr.load(writes);
            } else {
                let (a, v) = writes[cr.run.rng.gen_range(0..writes.len())];
                cr.csr.push(a, v);
            }
            cr.count(cov::setting_writes, 1);
        } else if cr.run.rng.gen_ratio(1, 3_000) {
            // Swap the bank (mostly), then flush the frozen one, under traffic.
            if cr.run.rng.gen_bool(0.8) {
                cr.csr.push(CSR_BANK, cr.run.rng.gen_range(0..4));
            }
            cr.csr.push(CSR_FLUSH, 1);
            cr.count(cov::flushes, 1);
        }
        if traffic.burst == 0 && cr.run.rng.gen_ratio(1, 20_000) {
            traffic.burst = 100;
        }
        let r = &mut cr.run.rng;
        if stall.step(r) {
            cr.run.count(cov::reader_stalls, 1);
        }
        let r = &mut cr.run.rng;
        let mut i = ReorderInputs { reset, rep_ready: stall.ready(r, 0.7), ..Default::default() };
        if !reset && !cr.csr.write_next(&mut i) && r.gen_ratio(1, 20) {
            cr.csr.random_read(&mut i, r);
        }
        let garbage = Descriptor { addr: r.gen(), flow: r.gen(), seq: r.gen(), ts: r.gen(), data: r.gen() };
        if held.is_free() && cr.run.rng.gen_bool(0.92) {
            held.hold(traffic.next(&mut cr.run));
        }
        let (cond, index) = conditions(&cr.gold);
        if let Some(d) = held.get() {
            (i.in_valid, i.desc) = (true, d);
            (i.in_index, i.in_force) = side_ports(&rcfg, &d, index == IndexBy::Port, &mut cr.run.rng);
            if traffic.burst > 0 && i.in_force != Force::None {
                // A burst is the resident's (the hybrid's heavy flow).
                i.in_force = Force::Resident;
            }
            if index == IndexBy::Port && d.data {
                cr.count(cov::forced_resident, (i.in_force == Force::Resident) as u64);
                cr.count(cov::forced_replace, (i.in_force == Force::Replace) as u64);
            }
        }
        // A packet of the resident flow meets a saturated count at S2 (the saturating branch).
        let rt = runtime_from_csr(&rcfg, cr.gold.csr.config());
        for bank in &cr.gold.banks {
            if let Some(RmwStage { payload: Op::Packet(p), old, .. }) = bank.peek_stage() {
                let (_, outcome, _) = decide(&rcfg, &rt, &old, (p.prefix, p.fp, p.seq, p.ts), p.force);
                if matches!(outcome, Outcome::Hit { .. }) {
                    cr.run.count(cov::saturated_n, (old.n == rcfg.n_max()) as u64);
                    cr.run.count(cov::saturated_o, (old.o == rcfg.o_max()) as u64);
                }
            }
        }
        let cy = cr.step(&i, &garbage);
        if let Some((code, ooo)) = cy.e.result() {
            cr.count(cov::flow_indexed, (index == IndexBy::Flow) as u64);
            cr.count(cov::port_indexed, (index == IndexBy::Port) as u64);
            let what = [cov::misses, cov::hits, cov::inserts, cov::overwrites][code as usize];
            cr.count(what, 1);
            cr.count(cov::out_of_order, ooo as u64);
            if code == 3 {
                let alone = [
                    (1, cov::overwrite_stale_alone),
                    (2, cov::overwrite_count_alone),
                    (4, cov::overwrite_reorder_alone),
                ];
                match alone.iter().find(|(c, _)| *c == cond) {
                    Some((_, what)) => cr.count(what, 1),
                    None => cr.count(cov::overwrite_together, 1),
                }
            }
        }
        if let (Some(true), Some(w)) = (cy.e.rep_valid, cy.e.rep_data) {
            if i.rep_ready {
                let rep = Report::unpack(&rcfg, w);
                let what = match rep.reason {
                    golden::reordering::Reason::Evicted => cov::evictions,
                    golden::reordering::Reason::Flushed => cov::flushed_reports,
                };
                cr.count(what, 1);
            }
        }
        let now_drops = cr.gold.evict_fifo.drops();
        cr.count(cov::eviction_drops, now_drops.wrapping_sub(drops) as u64);
        drops = now_drops;
        assert_eq!(cr.gold.flush_fifo.drops(), 0, "{name}: the flush walk never drops");
        if held.accepted(reset, cy.e.in_ready).is_some() {
            cr.run.transactions += 1;
        }
    }
    cr.finish()
}

pub fn run_ro_a4(cfg: &RunConfig) -> RunReport {
    run_top("ro_a4", cfg, RoA4::new)
}
pub fn run_ro_a6(cfg: &RunConfig) -> RunReport {
    run_top("ro_a6", cfg, RoA6::new)
}
/// `ro_a6`'s traffic through its AXI flavour `ro_a6_axi` (registers over AXI4-Lite).
pub fn run_ro_a6_axi(cfg: &RunConfig) -> RunReport {
    run_axi("ro_a6", cfg, RoA6Axi::new)
}
crate::axi_runner!(RoTop, &["in", "res"]);

/// The test-only mutants of `ro_a4` (`hdl::reordering::builds::MUTANTS`), each run against golden's ro_a4
/// behaviour: the co-simulation must fail on every one.
pub const MUTANT_RUNNERS: &[crate::blocks::Runner] = &[
    ("ro_a4_mut_seq", |c| run_top("ro_a4_mut_seq", c, RoA4MutSeq::new)),
    ("ro_a4_mut_cond", |c| run_top("ro_a4_mut_cond", c, RoA4MutCond::new)),
];

/// The reordering runners (demo order).
pub const ALL: &[crate::blocks::Runner] = &[("ro_a4", run_ro_a4), ("ro_a6", run_ro_a6)];

/// A trace through a reordering top (what `--engine rtl` runs).
#[derive(Debug, Clone, Default)]
pub struct TraceRun {
    /// Every report the core sent (evictions and flushed buckets, in port order).
    pub reports: Vec<Report>,
    /// Cycles from the second accepted descriptor to the last, both included.
    pub accept_cycles: u64,
    /// Flushes the control plane started (one per period boundary crossed, and one at the end).
    pub flushes: u64,
    /// Cycles of the whole run.
    pub cycles: u64,
}

/// Runs `packets` at full rate through top `name` with settings `rt`, every cycle checked against the
/// golden cycle model, and does what the control plane does: at every `period_ns` of trace time (and at the
/// end) it holds the input until the pipeline is quiet, polls `flush_busy` until the last walk is over,
/// toggles `bank` and writes `flush`; traffic resumes at once into the other bank while the walk runs. The
/// reader is always ready (the eviction FIFO never drops). Ends when the final walk is over and the FIFOs
/// are empty.
pub fn run_trace<M: RoTop>(
    name: &str,
    rt: &ReorderRuntime,
    packets: &[Descriptor],
    period_ns: Option<u64>,
    make: impl FnOnce(u64) -> M,
) -> Result<TraceRun, String> {
    let rcfg = top_config(name);
    rt.check(&rcfg).map_err(|e| format!("{name}: {e}"))?;
    let layout = rcfg.csr_layout();
    let busy = layout.status_addr("flush_busy").expect("the register map has flush_busy");
    let gold = ReorderCycleModel::new(&rcfg).map_err(|e| e.to_string())?;
    let mut settings = crate::csr_driver::CsrDriver::new(&layout);
    settings.load(csr_writes(rt));
    // Each flush waits for the walk before it (a bank's worth of cycles) and a few CSR cycles.
    let span = packets.first().zip(packets.last()).map_or(0, |(a, b)| b.ts.saturating_sub(a.ts));
    let flushes = period_ns.map_or(0, |p| span / p.max(1)) + 1;
    let limit = 4 * packets.len() as u64 + flushes * (2 * rcfg.buckets() as u64 + 64) + 10_000;
    let csr = crate::csr_driver::CsrDriver::new(&layout);
    let mut ts = crate::core_run::TraceSim::new(name, make(1), gold, csr, limit);
    let mut pe = PeriodEnd::new(vec![settings], vec![busy], period_ns, packets.first().map(|d| d.ts), 2);
    let mut out = TraceRun::default();
    let (mut next, mut second_accept, mut quiet) = (0usize, None, 0u32);
    loop {
        let now = ts.now();
        let mut i = ReorderInputs { reset: now == 0, rep_ready: true, ..Default::default() };
        let settled = pe.drive(now, packets.get(next).map(|d| d.ts), quiet, std::slice::from_mut(&mut i));
        i.in_valid = settled && next < packets.len();
        i.desc = packets.get(next).copied().filter(|_| i.in_valid).unwrap_or_default();
        let reports = out.reports.len();
        let cy = ts.step(&i, &Descriptor::default(), || {
            format!("{}, {next} of {} descriptors in, {reports} reports", pe.describe(), packets.len())
        })?;
        if cy.o.rep_valid && !i.reset {
            out.reports.push(Report::unpack(&rcfg, cy.o.rep_data));
        }
        pe.observe(now, &[(cy.o.csr_rd_valid, cy.o.csr_rd_data)], |bank| vec![vec![(CSR_BANK, bank), (CSR_FLUSH, 1)]]);
        if i.in_valid && cy.o.in_ready {
            next += 1;
            if next >= 2 {
                out.accept_cycles = cy.c - *second_accept.get_or_insert(cy.c) + 1;
            }
        }
        quiet = if cy.o.res_valid || cy.o.rep_valid || i.in_valid { 0 } else { quiet + 1 };
        if pe.over(quiet) {
            out.cycles = ts.now();
            break;
        }
    }
    out.flushes = pe.flushes;
    if ts.gold.evict_fifo.drops() > 0 {
        return Err(format!("{name}: {} reports dropped by the eviction FIFO", ts.gold.evict_fifo.drops()));
    }
    Ok(out)
}
