//! Fridge core co-simulation: the Verilated `FridgeCore` against `golden::fridge::cycle::FridgeCycleModel`,
//! cycle by cycle, on randomized request/response traffic.
//!
//! Traffic: requests with fresh ids; responses to outstanding requests (at random ages), duplicate
//! responses and responses without a request; ≥10% of packets reuse the previous packet's id (same table
//! index back to back); timestamps start 2^30 ns before the 48-bit wrap, so the input and every stored
//! timestamp field wrap about 1.07 s into the run; long phases with the report consumer stalled overflow
//! the report FIFO; CSR reads of every register throughout, threshold and seed rewrites mid-traffic, and a reset in
//! the middle (after which the settings are written again). Boundary-directed sampling (fridge mode): now
//! and then every threshold is written equal to the PRNG value the next request draws, or one below or
//! above it, with the source quiet until the writes land, and restored after that request; the `≤`
//! compare's three sides are counted from what golden's request saw (`sample_below/at/above`). Expiry
//! mode: now and then a request's id is requested again exactly `expiry` (± one unit) later, and the
//! `age > expiry` compare's sides are counted at the modify stage (`expiry_below/at/above`); a quarter of
//! the expiry settings lie far beyond the traffic's ages, so a request into an empty entry is let in by the
//! valid bit alone (`empty_entry_within_expiry`), an eighth within the ages of packets a few apart (the
//! decision on the writes of the packets ahead), and expiry is rewritten mid-traffic. Now and then a response
//! carries an id whose signature is 0 (solved from the hash), which an empty entry (signature 0) must not
//! match. Tally (builds that have one): bank swaps and
//! readout walks started at random, a tally consumer that stalls at random, records checked as they
//! leave.

use crate::axi_core::{check_tlast, pack, CsrAnswer};
use crate::blocks::Run;
use crate::core_run::{CoreRun, Cycle, Held, MidReset, Stall, TraceSim};
use crate::csr_driver::CsrDriver;
use crate::harness::{RunConfig, RunReport};
use crate::models::{Fridge4Dp, FridgeDp, FridgeDpAxi, FridgeDpReg, FridgeSp};
use crate::ports::port;
use crate::runtime_model::DynTop;
use golden::common::prng::xorshift32;
use golden::fridge::cycle::{
    FridgeCycleModel, FridgeInputs, FridgeOutputs as GoldenOutputs, CSR_EXPIRY, CSR_MODE, CSR_PRNG_SEED, CSR_THRESHOLD0,
};
use golden::fridge::{threshold_for, Descriptor, Entry, FridgeConfig, FridgeMode, PacketKind, Payload};
use rand::rngs::SmallRng;
use rand::Rng;

crate::coverage_names! {
    resets, same_id_back_to_back, duplicate_responses, responses_without_request, tally_walks_started, reports_seen,
    tally_records, tally_records_nonzero, report_fifo_drops, timestamp_wraps, insertions, seed_rewrites,
    zero_seed_rewrites, sample_below, sample_at, sample_above, expiry_below, expiry_at, expiry_above,
    zero_signature_on_empty_entry, expiry_rewrites, empty_entry_within_expiry,
}

/// Marks this core's run-time model, `DynTop<Runtime>` (`netmeas verify`: `crate::runtime_model`).
pub enum Runtime {}

crate::top_outputs! {
    /// Outputs of a fridge top during one cycle.
    pub struct FridgeOutputs {
        in_ready: bool,
        rep_valid: bool,
        rep_data: u128 [when rep_valid],
        csr_rd_valid: bool,
        csr_rd_data: u32,
        tally_valid: bool,
        tally_data: u128 [when tally_valid],
    }
    compared with golden::fridge::cycle::FridgeOutputs;
    read from FridgeDp, FridgeDpReg, FridgeSp, Fridge4Dp, DynTop<Runtime>
}

crate::top_trait!(
    /// A fridge top: its port mapping ([`CoreTop`](crate::core_run::CoreTop)) with the fridge's golden inputs and typed outputs.
    pub FridgeTop => FridgeInputs, Descriptor, GoldenOutputs, FridgeOutputs
);

crate::core_top! {
    FridgeDp, FridgeDpReg, FridgeSp, Fridge4Dp, DynTop<Runtime>
        => FridgeInputs, Descriptor, GoldenOutputs, FridgeOutputs;
    |m, i, garbage| {
        let d = i.desc.unwrap_or(*garbage);
        m.set_reset(i.reset as u64);
        m.set_in_valid(i.in_valid as u64);
        m.set_in_request((d.kind == PacketKind::Request) as u64);
        m.set_in_id(d.id);
        m.set_in_ts(d.timestamp);
        m.set_rep_ready(i.rep_ready as u64);
        crate::drive_csr_pins!(m, i);
        m.set_tally_ready(i.tally_ready as u64);
    }
}

// `fridge_dp_axi`, the generated AXI flavour of `fridge_dp` (see `crate::axi_core`): descriptors packed into
// `s_axis_in_tdata`, reports and tally records read from `m_axis_rep_tdata` and `m_axis_tally_tdata`.
crate::axi_core_top! {
    FridgeDpAxi, DynTop<Runtime> => FridgeInputs, Descriptor, GoldenOutputs, FridgeOutputs;
    drive |m, layouts, i, garbage| {
        let d = i.desc.unwrap_or(*garbage);
        let request = (d.kind == PacketKind::Request) as u128;
        m.set_s_axis_in_tvalid(i.in_valid as u64);
        let fields = [("in_request", request), ("in_id", d.id), ("in_ts", d.timestamp as u128)];
        m.set_s_axis_in_tdata(pack(&layouts[0], &fields).to());
        m.set_m_axis_rep_tready(i.rep_ready as u64);
        m.set_m_axis_tally_tready(i.tally_ready as u64);
    }
    read |m, layouts, sb, c, e| {
        let (csr_rd_valid, csr_rd_data) = e.csr_answer();
        let (rep_valid, tally_valid): (bool, bool) = (port(m.m_axis_rep_tvalid()), port(m.m_axis_tally_tvalid()));
        check_tlast(sb, c, "m_axis_rep_tlast", rep_valid, m.m_axis_rep_tlast());
        check_tlast(sb, c, "m_axis_tally_tlast", tally_valid, m.m_axis_tally_tlast());
        FridgeOutputs {
            in_ready: port(m.s_axis_in_tready()),
            rep_valid,
            rep_data: port(m.m_axis_rep_tdata()),
            csr_rd_valid,
            csr_rd_data,
            tally_valid,
            tally_data: port(m.m_axis_tally_tdata()),
        }
    }
}

/// The configuration of a fridge top, from hdl's list.
pub fn top_config(name: &str) -> FridgeConfig {
    crate::harness::top_config(name)
}

/// An expiry setting: mostly within the traffic's request/response ages, an eighth of the time within the
/// ages of packets a few apart, a quarter of the time far beyond them (entries then never expire, so only
/// the valid bit lets a request into an empty entry).
fn expiry_draw(rng: &mut SmallRng) -> u32 {
    match rng.gen_range(0..8) {
        0 | 1 => rng.gen_range(1 << 31..u32::MAX - 1),
        // Within the ages of packets a few apart (steps < 4000 ns, 16 ns units): a request right behind a
        // write to its entry decides on that write's timestamp (the look-ahead candidates of the packets
        // one and two ahead).
        2 => rng.gen_range(0..600),
        _ => rng.gen_range(0..20_000),
    }
}

/// Settings written through the CSR port after every reset.
fn settings(mode: FridgeMode, cfg: &FridgeConfig, rng: &mut SmallRng) -> Vec<(u8, u32)> {
    // A zero seed (the PRNG then loads its default seed) now and then: the core decides on it separately.
    let seed = if rng.gen_bool(0.25) { 0 } else { rng.gen() };
    let mut w = vec![(CSR_MODE, mode as u32), (CSR_PRNG_SEED, seed), (CSR_EXPIRY, expiry_draw(rng))];
    for k in 0..cfg.fridges() {
        w.push((CSR_THRESHOLD0 + k as u8, threshold_for(rng.gen_range(0.05..=1.0))));
    }
    w
}

/// Random traffic with the hazards listed in the module documentation.
struct Traffic {
    ts: u64,
    next_id: u128,
    outstanding: Vec<u128>,
    answered: Vec<u128>,
    last: Option<Descriptor>,
    /// A request due at an exact (unwrapped) time: the expiry boundary's second request.
    scheduled: Option<(u64, u128)>,
}

impl Traffic {
    fn new() -> Self {
        Traffic {
            ts: (1u64 << 48) - (1 << 30),
            next_id: 1,
            outstanding: vec![],
            answered: vec![],
            last: None,
            scheduled: None,
        }
    }
    fn next(&mut self, run: &mut Run) -> Descriptor {
        let r = &mut run.rng;
        let step = r.gen_range(0..4000);
        if let Some((at, id)) = self.scheduled.filter(|(at, _)| *at <= self.ts + step) {
            self.scheduled = None;
            self.ts = at.max(self.ts);
            let d = Descriptor { kind: PacketKind::Request, id, timestamp: self.ts & ((1 << 48) - 1) };
            self.last = Some(d);
            return d;
        }
        self.ts += step;
        let timestamp = self.ts & ((1 << 48) - 1);
        let kind = if r.gen_bool(0.55) { PacketKind::Request } else { PacketKind::Response };
        let id = match (self.last, r.gen_range(0..100)) {
            (Some(l), 0..=11) => {
                run.count(cov::same_id_back_to_back, 1);
                l.id
            }
            _ if kind == PacketKind::Request => {
                self.next_id += 1;
                let id = (self.next_id << 64) ^ r.gen::<u64>() as u128;
                self.outstanding.push(id);
                if self.outstanding.len() > 4096 {
                    self.outstanding.swap_remove(r.gen_range(0..4096));
                }
                id
            }
            (_, 12..=19) if !self.answered.is_empty() => {
                let id = self.answered[r.gen_range(0..self.answered.len())];
                run.count(cov::duplicate_responses, 1);
                id
            }
            (_, 20..=29) => {
                let id = r.gen();
                run.count(cov::responses_without_request, 1);
                id
            }
            _ if !self.outstanding.is_empty() => {
                let id = self.outstanding.swap_remove(r.gen_range(0..self.outstanding.len()));
                self.answered.push(id);
                if self.answered.len() > 1024 {
                    self.answered.swap_remove(0);
                }
                id
            }
            _ => r.gen(),
        };
        let d = Descriptor { kind, id, timestamp };
        self.last = Some(d);
        d
    }
}

/// Boundary-directed sampling (fridge mode): the source goes quiet until F1 and the pipeline front are
/// empty, so the PRNG holds still; then every threshold is written (directly, one per cycle) equal to the
/// value the next request will draw — or the one after it, which a back-to-back request compares through
/// the advanced-PRNG path — or one below or above it; the source resumes, and once the aimed-at draw is
/// made the old thresholds are written back.
enum Aim {
    Idle,
    /// Quiet cycles left before the writes.
    Draining(u32),
    /// Writing fridge `k`'s threshold; the thresholds to restore; the draws until the aimed one.
    Writing {
        k: usize,
        target: u32,
        old: Vec<u32>,
        draws: u32,
    },
    /// Writes done: the draws until the aimed one, then restore `old`.
    Waiting {
        old: Vec<u32>,
        draws: u32,
    },
}

impl Aim {
    fn busy(&self) -> bool {
        !matches!(self, Aim::Idle)
    }
    /// The source offers nothing while the PRNG must hold still.
    fn quiet(&self) -> bool {
        matches!(self, Aim::Draining(_) | Aim::Writing { .. })
    }
    fn step(&mut self, gold: &mut FridgeCycleModel, csr: &mut CsrDriver, i: &mut FridgeInputs, r: &mut SmallRng) {
        let n = gold.cfg.fridges();
        *self = match std::mem::replace(self, Aim::Idle) {
            Aim::Draining(0) => {
                let draws = r.gen_range(1..=2);
                let value = if draws == 1 { gold.front.prng } else { xorshift32(gold.front.prng) };
                let target = value.wrapping_add_signed(r.gen_range(-1..=1));
                Aim::Writing { k: 0, target, old: gold.runtime().thresholds, draws }.write(csr, i, n)
            }
            Aim::Draining(c) => Aim::Draining(c - 1),
            w @ Aim::Writing { .. } => w.write(csr, i, n),
            other => other,
        };
    }
    /// Writes the next threshold (if the port is free this cycle).
    fn write(self, csr: &mut CsrDriver, i: &mut FridgeInputs, n: usize) -> Aim {
        match self {
            Aim::Writing { k, target, old, draws } if k < n => {
                if i.csr_wr_en || i.csr_rd_en {
                    return Aim::Writing { k, target, old, draws };
                }
                csr.write(i, CSR_THRESHOLD0 + k as u8, target);
                if k + 1 == n {
                    Aim::Waiting { old, draws }
                } else {
                    Aim::Writing { k: k + 1, target, old, draws }
                }
            }
            other => other,
        }
    }
    /// A request drew: after the aimed-at draw, the old thresholds go back.
    fn drew(&mut self, csr: &mut CsrDriver) {
        if let Aim::Waiting { old, draws } = self {
            if *draws > 1 {
                *draws -= 1;
                return;
            }
            for (k, t) in std::mem::take(old).into_iter().enumerate() {
                csr.push(CSR_THRESHOLD0 + k as u8, t);
            }
            *self = Aim::Idle;
        }
    }
}

/// Runs `cfg.transactions` accepted packets through a fridge top in `mode` and compares every cycle.
pub fn run_top<M: FridgeTop>(name: &str, mode: FridgeMode, cfg: &RunConfig, make: impl FnOnce(u64) -> M) -> RunReport {
    let fcfg = top_config(name);
    let bins = golden::fridge::tally::Bins::of(&fcfg);
    let label = match mode {
        FridgeMode::Fridge => name.to_string(),
        FridgeMode::Simple => format!("{name}/simple"),
        FridgeMode::Expiry => format!("{name}/expiry"),
    };
    let gold = FridgeCycleModel::new(&fcfg).expect("valid fridge configuration");
    let mut cr = CoreRun::new(&label, cfg, make(cfg.x_seed), gold, &fcfg.csr_layout());
    let mut traffic = Traffic::new();
    let mut held = Held::new();
    let mut stall = Stall::new(3000, 100..20_000);
    let mut mid_reset = MidReset::default();
    let mut last_drops = 0u32;
    let mut aim = Aim::Idle;
    while cr.run.transactions < cfg.transactions {
        let halfway = mid_reset.now(cr.run.transactions, cfg.transactions);
        let reset = cr.sim.cycle == 0 || halfway || cr.run.rng.gen_ratio(1, 200_000);
        if reset {
            cr.count(cov::resets, 1);
            cr.csr.load(settings(mode, &fcfg, &mut cr.run.rng));
            held.drop_held();
        } else if cr.run.rng.gen_ratio(1, 20_000) {
            let k = cr.run.rng.gen_range(0..fcfg.fridges());
            cr.csr.push(CSR_THRESHOLD0 + k as u8, threshold_for(cr.run.rng.gen_range(0.05..=1.0)));
        } else if cr.run.rng.gen_ratio(1, 5_000) {
            // A new seed mid-traffic (half of them zero: the default seed), so the sampling decision of the
            // packet right after a seed load is exercised.
            let seed = if cr.run.rng.gen_bool(0.5) { 0 } else { cr.run.rng.gen() };
            cr.count(if seed == 0 { cov::zero_seed_rewrites } else { cov::seed_rewrites }, 1);
            cr.csr.push(CSR_PRNG_SEED, seed);
        } else if mode == FridgeMode::Expiry && cr.run.rng.gen_ratio(1, 20_000) {
            cr.count(cov::expiry_rewrites, 1);
            let e = expiry_draw(&mut cr.run.rng);
            cr.csr.push(CSR_EXPIRY, e);
        } else if aim.busy() {
            // No other settings while the sampling boundary is aimed at.
        } else if mode == FridgeMode::Fridge && cr.csr.is_idle() && cr.run.rng.gen_ratio(1, 1_500) {
            aim = Aim::Draining(4);
        } else if cr.run.rng.gen_ratio(1, 3_000) {
            // Swap the tally bank, then (mostly) start a walk over the frozen one; now and then a walk
            // without a swap, or a second one while the first runs.
            let bank = fcfg.csr_tally_bank();
            if cr.run.rng.gen_bool(0.8) {
                cr.csr.push(bank, cr.run.rng.gen_range(0..4));
            }
            cr.csr.push(bank + 1, 1);
            cr.count(cov::tally_walks_started, 1);
        }
        let r = &mut cr.run.rng;
        stall.step(r);
        let (rep_ready, tally_ready) = (stall.ready(r, 0.9), r.gen_bool(0.7));
        let mut i = FridgeInputs { reset, rep_ready, tally_ready, ..Default::default() };
        if !reset && !cr.csr.write_next(&mut i) && r.gen_ratio(1, 20) {
            cr.csr.random_read(&mut i, r);
        }
        let garbage = Descriptor { kind: PacketKind::Request, id: r.gen(), timestamp: r.gen() };
        if !reset {
            aim.step(&mut cr.gold, &mut cr.csr, &mut i, r);
        }
        // The settings golden holds this cycle (what the packet leaving F1 this cycle reads).
        let rt = cr.gold.runtime();
        if held.is_free() && !aim.quiet() && r.gen_bool(0.9) {
            let d = traffic.next(&mut cr.run);
            // Expiry boundary: the same id requested again exactly expiry (± one unit) later, so its entry's
            // age meets the `age > expiry` compare at and beside equality.
            let expiry = rt.expiry;
            if mode == FridgeMode::Expiry
                && d.kind == PacketKind::Request
                && traffic.scheduled.is_none()
                && expiry < 1 << 20
            {
                let age = (expiry as i64 + cr.run.rng.gen_range(-1..=1)).max(0) as u64;
                if cr.run.rng.gen_ratio(1, 40) {
                    traffic.scheduled = Some((traffic.ts + (age << fcfg.ts_shift), d.id));
                }
            }
            // A response whose signature is 0 (an id solved from the signature hash): on an empty entry, which
            // also holds signature 0, only the valid bit tells them apart.
            let d = if cr.run.rng.gen_ratio(1, 2_000) {
                let fill = cr.run.rng.gen();
                let id = cr.gold.front.signature.preimage(0, fcfg.sig_bits, fill).expect("signature hash reaches 0");
                Descriptor { kind: PacketKind::Response, id, ..d }
            } else {
                d
            };
            held.hold(d);
        }
        i.desc = held.get();
        i.in_valid = i.desc.is_some();
        let (prng, requests) = (cr.gold.front.prng, cr.gold.stats.requests);
        // At SM: a response of signature 0 meeting an empty entry; in expiry mode, a request meeting a valid
        // entry compares the entry's age with `expiry` (the settings the packet carries from F1).
        if let (Some(st), false) = (cr.gold.rmw.peek_stage(), reset) {
            let (p, old) = (Payload::unpack(&fcfg, st.payload.payload, st.index), Entry::unpack(&fcfg, st.old));
            cr.count(cov::zero_signature_on_empty_entry, (!p.is_request && p.sig == 0 && !old.valid) as u64);
            let age = p.ts.wrapping_sub(old.ts) & ((1u64 << fcfg.ts_bits) - 1);
            let expiry = st.payload.expiry as u64;
            let expiry_mode = FridgeMode::from_csr(st.payload.mode) == FridgeMode::Expiry;
            if expiry_mode && p.is_request && !old.valid && age <= expiry {
                cr.count(cov::empty_entry_within_expiry, 1);
            }
            if expiry_mode && p.is_request && old.valid {
                crate::core_run::count_boundary(
                    &mut cr.run,
                    age,
                    expiry,
                    [cov::expiry_below, cov::expiry_at, cov::expiry_above],
                );
            }
        }
        let cy = cr.step(&i, &garbage);
        let (e, o) = (&cy.e, &cy.o);
        if e.rep_valid == Some(true) {
            cr.count(cov::reports_seen, i.rep_ready as u64);
        }
        if e.tally_valid == Some(true) && i.tally_ready {
            let rec = golden::fridge::tally::TallyRecord::unpack(o.tally_data, bins);
            cr.count(cov::tally_records, 1);
            cr.count(cov::tally_records_nonzero, (rec.sum_g > 0) as u64);
        }
        let drops = cr.gold.fifo.drops();
        if drops > last_drops {
            cr.count(cov::report_fifo_drops, (drops - last_drops) as u64);
        }
        last_drops = if reset { 0 } else { drops };
        // A request drew this cycle: where its value stood against the (common) threshold; the aimed-at
        // draw restores the thresholds it replaced.
        if cr.gold.stats.requests != requests && !reset && mode == FridgeMode::Fridge {
            if rt.thresholds.iter().all(|t| *t == rt.thresholds[0]) {
                crate::core_run::count_boundary(
                    &mut cr.run,
                    prng as u64,
                    rt.thresholds[0] as u64,
                    [cov::sample_below, cov::sample_at, cov::sample_above],
                );
            }
            aim.drew(&mut cr.csr);
        }
        if reset {
            aim = Aim::Idle;
        }
        if held.accepted(reset, e.in_ready).is_some() {
            cr.run.transactions += 1;
        }
    }
    let wraps = traffic.ts >> 48;
    cr.count(cov::timestamp_wraps, wraps);
    cr.count(cov::insertions, cr.gold.stats.insertions as u64);
    cr.finish()
}

pub fn run_fridge_dp(cfg: &RunConfig) -> RunReport {
    run_top("fridge_dp", FridgeMode::Fridge, cfg, FridgeDp::new)
}
/// `fridge_dp`'s traffic through its AXI flavour `fridge_dp_axi` (registers over AXI4-Lite).
pub fn run_fridge_dp_axi(cfg: &RunConfig) -> RunReport {
    run_axi("fridge_dp", FridgeMode::Fridge, cfg, FridgeDpAxi::new)
}
crate::axi_runner!(FridgeTop, &["in"], mode: FridgeMode);
/// `fridge_dp` on registered block RAM (`fridge_dp_reg`).
pub fn run_fridge_dp_reg(cfg: &RunConfig) -> RunReport {
    run_top("fridge_dp_reg", FridgeMode::Fridge, cfg, FridgeDpReg::new)
}
pub fn run_fridge_sp(cfg: &RunConfig) -> RunReport {
    run_top("fridge_sp", FridgeMode::Fridge, cfg, FridgeSp::new)
}
pub fn run_fridge4_dp(cfg: &RunConfig) -> RunReport {
    run_top("fridge4_dp", FridgeMode::Fridge, cfg, Fridge4Dp::new)
}
pub fn run_simple_dp(cfg: &RunConfig) -> RunReport {
    run_top("fridge_dp", FridgeMode::Simple, cfg, FridgeDp::new)
}
pub fn run_expiry_dp(cfg: &RunConfig) -> RunReport {
    run_top("fridge_dp", FridgeMode::Expiry, cfg, FridgeDp::new)
}

/// The fridge runners (demo order): the core in each build, then the baselines.
pub const ALL: &[crate::blocks::Runner] = &[
    ("fridge_dp", run_fridge_dp),
    ("fridge_dp_reg", run_fridge_dp_reg),
    ("fridge_sp", run_fridge_sp),
    ("fridge4_dp", run_fridge4_dp),
    ("fridge_simple", run_simple_dp),
    ("fridge_expiry", run_expiry_dp),
    ("fridge_tally", crate::fridge_tally::run),
];

/// What [`run_trace`] returns: the reports and tally records the RTL emitted, and the cycles it took.
pub struct TraceRun {
    pub reports: Vec<golden::fridge::Report>,
    /// The tally of the whole trace, read out after it (empty for a build without a tally).
    pub tally: Vec<golden::fridge::tally::TallyRecord>,
    /// Cycles until the last report (before the tally readout).
    pub cycles: u64,
    /// Cycles from the second accepted packet to the last, both included: the input rate once the pipeline
    /// runs (the first packet waits in F1 through the table's reset sweep).
    pub accept_cycles: u64,
}

/// Drives a trace through a fridge top at full rate (a packet offered every cycle, reports drained every
/// cycle), checking every cycle against the golden cycle model, and returns what the RTL emitted. The
/// run settings are written through the CSR port after reset, as software would; at the end, software's
/// readout of the tally: swap the bank, start the walk, collect `fridges × 128` records.
pub fn run_trace<M: FridgeTop>(
    name: &str,
    rt: &golden::fridge::FridgeRuntime,
    packets: &[Descriptor],
    make: impl FnOnce(u64) -> M,
) -> Result<TraceRun, String> {
    let fcfg = top_config(name);
    let gold = FridgeCycleModel::new(&fcfg).map_err(|e| e.to_string())?;
    let mut csr = CsrDriver::new(&fcfg.csr_layout());
    let mut writes = vec![(CSR_MODE, rt.mode as u32), (CSR_EXPIRY, rt.expiry), (CSR_PRNG_SEED, rt.seed)];
    for (k, t) in rt.thresholds.iter().enumerate() {
        writes.push((CSR_THRESHOLD0 + k as u8, *t));
    }
    csr.load(writes);
    let mut ts = TraceSim::new(name, make(1), gold, csr, 4 * packets.len() as u64 + 100_000);
    let mut out = TraceRun { reports: Vec::new(), tally: Vec::new(), cycles: 0, accept_cycles: 0 };
    let mut second_accept = None;
    let mut next = 0usize;
    let mut idle = 0u32;
    let bins = golden::fridge::tally::Bins::of(&fcfg);
    let records = if fcfg.tally { fcfg.fridges() * bins.count() } else { 0 };
    let garbage = Descriptor { kind: PacketKind::Request, id: 0, timestamp: 0 };
    // Run until every packet is in and the pipeline and FIFO have drained, then read the tally.
    while out.tally.len() < records || out.cycles == 0 {
        let now = ts.now();
        let mut i = FridgeInputs { reset: now == 0, rep_ready: true, tally_ready: true, ..Default::default() };
        if out.cycles == 0 && next >= packets.len() && idle >= 16 {
            out.cycles = now;
            ts.csr.push(fcfg.csr_tally_bank(), 1);
            ts.csr.push(fcfg.csr_tally_bank() + 1, 1);
        }
        ts.csr.write_next(&mut i);
        // Packets start once the settings are written (and the seed load has landed).
        let settled = ts.csr.is_idle() && now > 2 + rt.thresholds.len() as u64 + 4;
        i.desc = packets.get(next).copied().filter(|_| settled);
        i.in_valid = i.desc.is_some();
        let tallied = out.tally.len();
        let Cycle { c, o, .. } = ts.step(&i, &garbage, || format!("{tallied} tally records of {records}"))?;
        // (During the reset cycle the outputs still show the random power-up state.)
        if o.rep_valid && !i.reset {
            out.reports.push(golden::fridge::Report::unpack(&fcfg, o.rep_data));
        }
        if o.tally_valid && !i.reset {
            out.tally.push(golden::fridge::tally::TallyRecord::unpack(o.tally_data, bins));
        }
        if i.in_valid && o.in_ready {
            next += 1;
            if next >= 2 {
                let second = *second_accept.get_or_insert(c);
                out.accept_cycles = c - second + 1;
            }
        }
        idle = if next >= packets.len() && !o.rep_valid { idle + 1 } else { 0 };
    }
    if ts.gold.fifo.drops() > 0 {
        return Err(format!("{name}: {} reports dropped by the report FIFO", ts.gold.fifo.drops()));
    }
    Ok(out)
}
