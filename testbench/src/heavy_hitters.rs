//! Heavy-hitter core co-simulation: the Verilated `HhCore` against `golden::heavy_hitters::cycle`, cycle by
//! cycle, on randomized traffic.
//!
//! Traffic: a Zipf-like mix (a few heavy keys, a long tail, fresh keys) so that hits, inserts, admissions
//! and rejections all happen; ≥10 % of packets repeat the previous key (same buckets in every row back to
//! back) and ~10 % repeat a key 2 or 3 packets back; keys built to collide with a recent key in one row
//! only (different key, same bucket, at distances 1–3); counts that saturate in the narrow-count build;
//! method and admission rule rewritten mid-traffic; bank swaps and readout walks with a reader that stalls
//! (the walk waits for FIFO room and never drops); seed rewrites; resets in the middle.

use crate::axi_core::{check_tlast, pack, unpack, CsrAnswer};
use crate::core_run::{CoreRun, Held, MidReset, Stall};
use crate::harness::{RunConfig, RunReport};
use crate::models::{HhD1, HhD2, HhD2Axi, HhD2MutAdmit, HhD2MutFwd, HhD2MutTies, HhD4};
use crate::ports::{port, PortBits};
use crate::runtime_model::DynTop;
use golden::heavy_hitters::cycle::{
    HhCycleModel, HhInputs, HhOutputs as GoldenOutputs, CSR_ADMISSION, CSR_BANK, CSR_DUMP, CSR_METHOD, CSR_PRNG_SEED,
};
use golden::heavy_hitters::HhConfig;
use rand::Rng;

crate::coverage_names! {
    resets, same_key_back, key_2_3_back, row_collisions, hits, inserts, admissions, rejections, saturated,
    walks_started, records, method_writes, reader_stalls,
}

/// Golden's outputs as the tops' ports carry them (records of up to six words, `RECORD_LIMBS`; the build-time
/// tops' five-word record ports are zero-extended).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HhExpected {
    pub in_ready: Option<bool>,
    pub swept: Option<bool>,
    pub res_valid: Option<bool>,
    pub res_outcome: Option<u64>,
    pub res_row: Option<u64>,
    pub res_count: Option<u64>,
    pub rec_valid: Option<bool>,
    pub rec_data: Option<[u32; 6]>,
    pub csr_rd_valid: Option<bool>,
    pub csr_rd_data: Option<u32>,
}

impl From<GoldenOutputs> for HhExpected {
    fn from(o: GoldenOutputs) -> HhExpected {
        HhExpected {
            in_ready: o.in_ready,
            swept: o.swept,
            res_valid: o.res_valid,
            res_outcome: o.res_outcome,
            res_row: o.res_row,
            res_count: o.res_count,
            rec_valid: o.rec_valid,
            rec_data: o.rec_data,
            csr_rd_valid: o.csr_rd_valid,
            csr_rd_data: o.csr_rd_data,
        }
    }
}

/// The golden cycle model with port-shaped outputs.
pub struct HhGolden(pub HhCycleModel);

impl crate::core_run::GoldenCycle for HhGolden {
    type Inputs = HhInputs;
    type Outputs = HhExpected;
    fn step(&mut self, i: &HhInputs) -> HhExpected {
        self.0.step(i).into()
    }
}

/// Marks this core's run-time model, `DynTop<Runtime>` (`netmeas verify`: `crate::runtime_model`).
pub enum Runtime {}

crate::top_outputs! {
    /// Outputs of a heavy-hitter top during one cycle.
    pub struct HhOutputs {
        in_ready: bool,
        swept: bool,
        res_valid: bool,
        res_outcome: u64 [when res_valid],
        res_row: u64 [when res_valid],
        res_count: u64 [when res_valid],
        rec_valid: bool,
        rec_data: [u32; 6] [when rec_valid],
        csr_rd_valid: bool,
        csr_rd_data: u32,
    }
    compared with HhExpected;
    read from HhD1, HhD2, HhD4, HhD2MutAdmit, HhD2MutTies, HhD2MutFwd, DynTop<Runtime>
}

crate::core_top! {
    HhD1, HhD2, HhD4, HhD2MutAdmit, HhD2MutTies, HhD2MutFwd, DynTop<Runtime> => HhInputs, u128, HhExpected, HhOutputs;
    |m, i, garbage| {
        m.set_reset(i.reset as u64);
        m.set_in_valid(i.in_valid as u64);
        m.set_in_key(if i.in_valid { i.in_key } else { *garbage });
        m.set_rec_ready(i.rec_ready as u64);
        crate::drive_csr_pins!(m, i);
    }
}

// `hh_d2_axi`, the generated AXI flavour of `hh_d2` (see `crate::axi_core`): keys into `s_axis_in_tdata`,
// results (no tready) and records read from `m_axis_res_tdata` and `m_axis_rec_tdata`.
crate::axi_core_top! {
    HhD2Axi, DynTop<Runtime> => HhInputs, u128, HhExpected, HhOutputs;
    drive |m, layouts, i, garbage| {
        let key = if i.in_valid { i.in_key } else { *garbage };
        m.set_s_axis_in_tvalid(i.in_valid as u64);
        m.set_s_axis_in_tdata(pack(&layouts[0], &[("in_key", key)]).to());
        m.set_m_axis_rec_tready(i.rec_ready as u64);
    }
    read |m, layouts, sb, c, e| {
        let words: PortBits = port(m.m_axis_res_tdata());
        let res = |f: &str| unpack(&layouts[1], words, f) as u64;
        let res_valid: bool = port(m.m_axis_res_tvalid());
        check_tlast(sb, c, "m_axis_res_tlast", res_valid, m.m_axis_res_tlast());
        let (csr_rd_valid, csr_rd_data) = e.csr_answer();
        let rec_valid = port(m.m_axis_rec_tvalid());
        check_tlast(sb, c, "m_axis_rec_tlast", rec_valid, m.m_axis_rec_tlast());
        HhOutputs {
            in_ready: port(m.s_axis_in_tready()),
            swept: port(m.swept()),
            res_valid,
            res_outcome: res("res_outcome"),
            res_row: res("res_row"),
            res_count: res("res_count"),
            rec_valid,
            rec_data: port(m.m_axis_rec_tdata()),
            csr_rd_valid,
            csr_rd_data,
        }
    }
}

crate::top_trait!(
    /// A Verilated heavy-hitter top.
    pub HhTop => HhInputs, u128, HhExpected, HhOutputs
);

/// The configuration of a heavy-hitter top, from hdl's list.
pub fn top_config(name: &str) -> HhConfig {
    crate::harness::top_config(name)
}

/// Keys: a few heavy ones, a tail, and keys that collide with a recent key in one row only.
struct Traffic {
    history: [u128; 3],
    heavy: Vec<u128>,
    tail: Vec<u128>,
    hash: golden::common::hash::XorHash,
    cfg: HhConfig,
}

impl Traffic {
    fn new(cfg: &HhConfig, r: &mut impl Rng) -> Traffic {
        let mask = golden::common::mask128(cfg.key_bits);
        let heavy = (0..2 * cfg.buckets_per_row()).map(|_| r.gen::<u128>() & mask).collect();
        let tail = (0..16 * cfg.buckets()).map(|_| r.gen::<u128>() & mask).collect();
        Traffic { history: [0; 3], heavy, tail, hash: cfg.hash().expect("valid"), cfg: cfg.clone() }
    }
    fn next(&mut self, run: &mut crate::blocks::Run) -> u128 {
        let r = &mut run.rng;
        let mut collided = None;
        let key = match r.gen_range(0..100) {
            0..=11 => self.history[0],
            12..=21 => self.history[r.gen_range(1..3)],
            22..=29 => {
                // A different key sharing one row's bucket with a recent key (searched among the tail).
                let target = self.cfg.indices(self.hash.eval(self.history[r.gen_range(0..3)]));
                let row = r.gen_range(0..self.cfg.rows);
                let start = r.gen_range(0..self.tail.len());
                let found = (0..self.tail.len())
                    .map(|k| self.tail[(start + k) % self.tail.len()])
                    .find(|&k| self.cfg.indices(self.hash.eval(k))[row] == target[row] && !self.history.contains(&k));
                collided = Some(found.is_some());
                found.unwrap_or_else(|| r.gen())
            }
            30..=64 => self.heavy[(r.gen::<f64>().powi(3) * self.heavy.len() as f64) as usize],
            65..=94 => self.tail[r.gen_range(0..self.tail.len())],
            _ => r.gen(),
        } & golden::common::mask128(self.cfg.key_bits);
        if let Some(c) = collided {
            run.count(cov::row_collisions, c as u64);
        }
        if key == self.history[0] {
            run.count(cov::same_key_back, 1);
        } else if self.history[1..].contains(&key) {
            run.count(cov::key_2_3_back, 1);
        }
        self.history = [key, self.history[0], self.history[1]];
        key
    }
}

/// Settings after a reset: a method, an admission rule, a seed.
fn settings(r: &mut impl Rng) -> Vec<(u8, u32)> {
    vec![(CSR_METHOD, r.gen_range(0..2)), (CSR_ADMISSION, r.gen_range(0..2)), (CSR_PRNG_SEED, r.gen())]
}

/// Runs `cfg.transactions` accepted packets through a heavy-hitter top and compares every cycle.
pub fn run_top<M: HhTop>(name: &str, cfg: &RunConfig, make: impl FnOnce(u64) -> M) -> RunReport {
    let hcfg = top_config(name);
    let gold = HhGolden(HhCycleModel::new(&hcfg).expect("valid configuration"));
    let mut cr = CoreRun::new(name, cfg, make(cfg.x_seed), gold, &hcfg.csr_layout());
    let mut traffic = Traffic::new(&hcfg, &mut cr.run.rng);
    let mut held = Held::new();
    let mut stall = Stall::new(2000, 50..3000);
    let mut mid_reset = MidReset::default();
    while cr.run.transactions < cfg.transactions {
        let halfway = mid_reset.now(cr.run.transactions, cfg.transactions);
        let reset = cr.sim.cycle == 0 || halfway || cr.run.rng.gen_ratio(1, 300_000);
        if reset {
            cr.count(cov::resets, 1);
            cr.csr.load(settings(&mut cr.run.rng));
            held.drop_held();
        } else if cr.run.rng.gen_ratio(1, 30_000) {
            let v = cr.run.rng.gen_range(0..4);
            cr.csr.push(CSR_METHOD, v & 1);
            cr.csr.push(CSR_ADMISSION, v >> 1);
            cr.count(cov::method_writes, 1);
        } else if cr.run.rng.gen_ratio(1, 4_000) {
            // Swap the bank (mostly), then start a walk of the frozen one; a seed rewrite now and then.
            if cr.run.rng.gen_bool(0.8) {
                cr.csr.push(CSR_BANK, cr.run.rng.gen_range(0..4));
            }
            cr.csr.push(CSR_DUMP, 1);
            if cr.run.rng.gen_bool(0.2) {
                cr.csr.push(CSR_PRNG_SEED, cr.run.rng.gen());
            }
            cr.count(cov::walks_started, 1);
        }
        let r = &mut cr.run.rng;
        if stall.step(r) {
            cr.run.count(cov::reader_stalls, 1);
        }
        let r = &mut cr.run.rng;
        let mut i = HhInputs { reset, rec_ready: stall.ready(r, 0.8), ..Default::default() };
        if !reset && !cr.csr.write_next(&mut i) && r.gen_ratio(1, 20) {
            cr.csr.random_read(&mut i, r);
        }
        let garbage: u128 = r.gen();
        if held.is_free() && r.gen_bool(0.92) {
            held.hold(traffic.next(&mut cr.run));
        }
        i.in_key = held.get().unwrap_or(0);
        i.in_valid = held.get().is_some();
        let cy = cr.step(&i, &garbage);
        if let (Some(code), Some(count)) = (cy.e.res_outcome, cy.e.res_count) {
            let what = [cov::rejections, cov::hits, cov::inserts, cov::admissions][code as usize];
            cr.count(what, 1);
            cr.count(cov::saturated, (count == hcfg.count_max()) as u64);
        }
        if cy.e.rec_valid == Some(true) && i.rec_ready {
            cr.count(cov::records, 1);
        }
        if held.accepted(reset, cy.e.in_ready).is_some() {
            cr.run.transactions += 1;
        }
    }
    assert_eq!(cr.gold.0.fifo.drops(), 0, "{name}: the walk never drops a record");
    cr.finish()
}

pub fn run_hh_d1(cfg: &RunConfig) -> RunReport {
    run_top("hh_d1", cfg, HhD1::new)
}
pub fn run_hh_d2(cfg: &RunConfig) -> RunReport {
    run_top("hh_d2", cfg, HhD2::new)
}
/// `hh_d2`'s traffic through its AXI flavour `hh_d2_axi` (registers over AXI4-Lite).
pub fn run_hh_d2_axi(cfg: &RunConfig) -> RunReport {
    run_axi("hh_d2", cfg, HhD2Axi::new)
}
crate::axi_runner!(HhTop, &["in", "res"]);
pub fn run_hh_d4(cfg: &RunConfig) -> RunReport {
    run_top("hh_d4", cfg, HhD4::new)
}

/// The test-only mutants of `hh_d2` (`hdl::heavy_hitters::builds::MUTANTS`), each run against golden's
/// hh_d2 behaviour: the co-simulation must fail on every one.
pub const MUTANT_RUNNERS: &[crate::blocks::Runner] = &[
    ("hh_d2_mut_admit", |c| run_top("hh_d2_mut_admit", c, HhD2MutAdmit::new)),
    ("hh_d2_mut_ties", |c| run_top("hh_d2_mut_ties", c, HhD2MutTies::new)),
    ("hh_d2_mut_fwd", |c| run_top("hh_d2_mut_fwd", c, HhD2MutFwd::new)),
];

/// The heavy-hitter runners (demo order).
pub const ALL: &[crate::blocks::Runner] = &[("hh_d1", run_hh_d1), ("hh_d2", run_hh_d2), ("hh_d4", run_hh_d4)];

/// A trace through a heavy-hitter top (what `--engine rtl` runs): the table read out after the stream.
#[derive(Debug, Clone, Default)]
pub struct TraceRun {
    /// The records of the walk after the stream: the bank that took the packets, row by row.
    pub records: Vec<golden::heavy_hitters::Record>,
    /// Cycles from the second accepted packet to the last, both included (the input rate once the pipeline
    /// runs; the first packet waits through the table's reset sweep).
    pub accept_cycles: u64,
    /// Cycles of the whole run: settings, stream, walk and drain.
    pub cycles: u64,
}

/// Runs `keys` at full rate through top `name` (a packet offered every cycle) with settings `rt`, every cycle
/// checked against the golden cycle model, then does what the control plane does: swaps the bank, writes
/// `dump`, polls `dump_busy` and takes the records from `rec_*` (reader always ready) until the walk is over
/// and the FIFO is empty.
pub fn run_trace<M: HhTop>(
    name: &str,
    rt: &golden::heavy_hitters::HhRuntime,
    keys: &[u128],
    make: impl FnOnce(u64) -> M,
) -> Result<TraceRun, String> {
    use golden::heavy_hitters::Record;
    let hcfg = top_config(name);
    let layout = hcfg.csr_layout();
    let busy = layout.status_addr("dump_busy").expect("the register map has dump_busy");
    let gold = HhGolden(HhCycleModel::new(&hcfg).map_err(|e| e.to_string())?);
    let mut settings = crate::csr_driver::CsrDriver::new(&layout);
    settings.load(vec![
        (CSR_METHOD, rt.method as u32),
        (CSR_ADMISSION, rt.admission.csr().ok_or("the exact admission rule has no hardware")?),
        (CSR_PRNG_SEED, rt.seed),
    ]);
    let limit = 2 * keys.len() as u64 + 8 * hcfg.buckets() as u64 + 10_000;
    let csr = crate::csr_driver::CsrDriver::new(&layout);
    let mut ts = crate::core_run::TraceSim::new(name, make(1), gold, csr, limit);
    // One period: the swap and the dump after the last key.
    let mut pe = crate::period_end::PeriodEnd::new(vec![settings], vec![busy], None, None, 8);
    let mut out = TraceRun::default();
    let (mut next, mut second_accept, mut quiet) = (0usize, None, 0u32);
    loop {
        let now = ts.now();
        let mut i = HhInputs { reset: now == 0, rec_ready: true, ..Default::default() };
        // Keys have no time: the only boundary is the end.
        let settled = pe.drive(now, keys.get(next).map(|_| 0), quiet, std::slice::from_mut(&mut i));
        i.in_key = keys.get(next).copied().filter(|_| settled).unwrap_or(0);
        i.in_valid = settled && next < keys.len();
        let records = out.records.len();
        let cy =
            ts.step(&i, &0, || format!("{}, {next} of {} keys in, {records} records", pe.describe(), keys.len()))?;
        if cy.o.rec_valid && !i.reset {
            out.records.push(Record::unpack(&hcfg, &cy.o.rec_data));
        }
        pe.observe(now, &[(cy.o.csr_rd_valid, cy.o.csr_rd_data)], |bank| vec![vec![(CSR_BANK, bank), (CSR_DUMP, 1)]]);
        if i.in_valid && cy.o.in_ready {
            next += 1;
            if next >= 2 {
                out.accept_cycles = cy.c - *second_accept.get_or_insert(cy.c) + 1;
            }
        }
        quiet = if cy.o.res_valid || cy.o.rec_valid || i.in_valid { 0 } else { quiet + 1 };
        if pe.over(quiet) {
            out.cycles = ts.now();
            break;
        }
    }
    if ts.gold.0.fifo.drops() > 0 {
        return Err(format!("{name}: {} records dropped by the record FIFO", ts.gold.0.fifo.drops()));
    }
    Ok(out)
}
