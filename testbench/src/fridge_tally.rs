//! The fridge core's in-hardware tally on its own (`fridge_tally` top) against
//! `golden::fridge::tally::TallyCycleModel`, cycle by cycle. Traffic the core rarely produces: a report in
//! most cycles, drawn from a few delays and fridges so the same tally word is updated back to back (the
//! bank pipelines' forwarding), a tenth of delays below 64 units (the lowest octaves, where the bin encoder
//! pads the sub-bin), survivors x from 0 to past the ROM's last step, fridge mode toggled,
//! bank swaps and walks started at random (also while a walk runs and with the walk's bank active), a
//! consumer that stalls for long phases, resets mid-stream.

use crate::blocks::Run;
use crate::core_run::{cycle, CoreTop, GoldenCycle};
use crate::harness::{RunConfig, RunReport, Scoreboard, Sim};
use crate::models::FridgeTally;
use crate::ports::ReadOutputs;
use golden::fridge::tally::{TallyCycleModel, TallyInputs};
use golden::fridge::Report;
use rand::Rng;

crate::coverage_names! {
    resets, records, walks_started, walk_start_while_busy, reports, fifo_drops,
    // Reports with a delay below 2^s units (2^s bins per octave): the octaves whose sub-bin is the
    // delay's low bits padded with zeros.
    low_octave_reports,
}

crate::top_outputs! {
    /// Outputs of the tally top during one cycle that the golden model's outputs hold (`drops` is compared
    /// with its FIFO's counter).
    pub struct TallyOutputs {
        ready: bool,
        busy: bool,
        out_valid: bool,
        out_data: u128 [when out_valid],
    }
    compared with golden::fridge::tally::TallyOutputs;
    read from FridgeTally
}

/// Golden's outputs of one cycle and its FIFO's drop counter before the cycle (the top's `drops` port).
pub struct TallyExpected {
    pub out: golden::fridge::tally::TallyOutputs,
    pub drops: u32,
}

impl GoldenCycle for TallyCycleModel {
    type Inputs = TallyInputs;
    type Outputs = TallyExpected;
    fn step(&mut self, i: &TallyInputs) -> TallyExpected {
        let drops = self.fifo.drops();
        TallyExpected { out: TallyCycleModel::step(self, i), drops }
    }
}

impl CoreTop for FridgeTally {
    type Inputs = TallyInputs;
    /// The report fields driven while `rep_valid` is low.
    type Garbage = Report;
    type Expected = TallyExpected;
    type Outputs = TallyOutputs;
    fn drive(&mut self, i: &TallyInputs, garbage: &Report) {
        let rep = i.report.unwrap_or(*garbage);
        self.set_reset(i.reset as u64);
        self.set_rep_valid(i.report.is_some() as u64);
        self.set_rep_k(rep.fridge as u64);
        self.set_rep_delay(rep.delay);
        self.set_rep_x(rep.survived & 0xffff);
        self.set_corrected(i.corrected as u64);
        self.set_active(i.active as u64);
        self.set_dump_start(i.dump_start as u64);
        self.set_out_ready(i.out_ready as u64);
    }
    fn compare(&self, sb: &mut Scoreboard, c: u64, e: &TallyExpected) -> TallyOutputs {
        let o = self.outputs();
        o.compare(sb, c, &e.out);
        if e.out.ready.is_some() {
            sb.check(c, "drops", Some(e.drops as u128), self.drops() as u128);
        }
        o
    }
}

pub fn run(cfg: &RunConfig) -> RunReport {
    let fcfg: golden::fridge::FridgeConfig = crate::harness::top_config(FridgeTally::NAME);
    let mut run = Run::new(FridgeTally::NAME, cfg);
    let mut sim = Sim::new(FridgeTally::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = TallyCycleModel::new(&fcfg);
    let bins = golden::fridge::tally::Bins::of(&fcfg);
    let delays: Vec<u64> = (0..6).map(|_| run.rng.gen_range(0..1 << fcfg.ts_bits)).collect();
    let (mut p_report, mut p_ready, mut active, mut corrected) = (0.8, 0.7, false, true);
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 50_000);
        let r = &mut run.rng;
        if i % 2000 == 0 {
            (p_report, p_ready) = [(0.95, 0.9), (0.8, 0.1), (0.3, 1.0), (1.0, 0.0), (0.05, 0.5)][r.gen_range(0..5)];
        }
        if r.gen_ratio(1, 5000) {
            active = !active;
        }
        if r.gen_ratio(1, 20_000) {
            corrected = !corrected;
        }
        let report = r.gen_bool(p_report).then(|| Report {
            fridge: r.gen_range(0..fcfg.fridges()),
            delay: match r.gen_range(0..10) {
                0..=6 => delays[r.gen_range(0..delays.len())],
                7 => r.gen_range(0..64),
                _ => r.gen_range(0..1 << 24),
            },
            survived: match r.gen_range(0..4) {
                0 => r.gen_range(0..16),
                1 => r.gen_range(0..4096),
                _ => r.gen_range(0..1 << fcfg.counter_bits),
            },
        });
        let inp = TallyInputs {
            reset,
            report,
            corrected,
            active,
            dump_start: r.gen_ratio(1, 600),
            out_ready: r.gen_bool(p_ready),
        };
        let garbage = Report { fridge: 0, delay: r.gen_range(0..1 << 24), survived: r.gen() };
        let busy_before = gold.busy();
        let e = cycle(&mut sim, &mut gold, &mut run.sb, None, &inp, &garbage).e;
        if e.out.out_valid == Some(true) {
            run.count(cov::records, inp.out_ready as u64);
        }
        run.count(cov::walks_started, (inp.dump_start && !busy_before && !reset) as u64);
        run.count(cov::walk_start_while_busy, (inp.dump_start && busy_before && !reset) as u64);
        run.count(cov::reports, report.is_some() as u64);
        let low = report.is_some_and(|p| p.delay < bins.per_octave() as u64);
        run.count(cov::low_octave_reports, low as u64);
        // The walk only issues with room in the FIFO for everything in flight: the FIFO never drops.
        run.count(cov::fifo_drops, (gold.fifo.drops() > e.drops && !reset) as u64);
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
