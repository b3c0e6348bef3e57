//! The fridge core's in-hardware tally on its own (`fridge_tally` top) against
//! `golden::fridge::tally::TallyCycleModel`, cycle by cycle. Traffic the core rarely produces: a report in
//! most cycles, drawn from a few delays and fridges so the same tally word is updated back to back (the
//! bank pipelines' forwarding), survivors x from 0 to past the ROM's last step, fridge mode toggled,
//! bank swaps and walks started at random (also while a walk runs and with the walk's bank active), a
//! consumer that stalls for long phases, resets mid-stream.

use crate::blocks::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::FridgeTally;
use crate::ports::ReadOutputs;
use golden::fridge::tally::{TallyCycleModel, TallyInputs};
use golden::fridge::Report;
use rand::Rng;

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

pub fn run(cfg: &RunConfig) -> RunReport {
    let fcfg: golden::fridge::FridgeConfig = crate::harness::top_config(FridgeTally::NAME);
    let mut run = Run::new(FridgeTally::NAME, cfg);
    let mut sim = Sim::new(FridgeTally::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = TallyCycleModel::new(&fcfg);
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
            delay: if r.gen_bool(0.7) { delays[r.gen_range(0..delays.len())] } else { r.gen_range(0..1 << 24) },
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
        let rep = report.unwrap_or(Report { fridge: 0, delay: r.gen_range(0..1 << 24), survived: r.gen() });
        sim.m.set_reset(inp.reset as u64);
        sim.m.set_rep_valid(report.is_some() as u64);
        sim.m.set_rep_k(rep.fridge as u64);
        sim.m.set_rep_delay(rep.delay);
        sim.m.set_rep_x(rep.survived & 0xffff);
        sim.m.set_corrected(inp.corrected as u64);
        sim.m.set_active(inp.active as u64);
        sim.m.set_dump_start(inp.dump_start as u64);
        sim.m.set_out_ready(inp.out_ready as u64);
        sim.settle();
        let c = sim.cycle;
        let drops = gold.fifo.drops();
        let busy_before = gold.busy();
        let e = gold.step(&inp);
        sim.m.outputs().compare(&mut run.sb, c, &e);
        if e.out_valid == Some(true) {
            run.count("records", inp.out_ready as u64);
        }
        if e.ready.is_some() {
            run.sb.check(c, "drops", Some(drops as u128), sim.m.drops() as u128);
        }
        run.count("walks_started", (inp.dump_start && !busy_before && !reset) as u64);
        run.count("walk_start_while_busy", (inp.dump_start && busy_before && !reset) as u64);
        run.count("reports", report.is_some() as u64);
        // The walk only issues with room in the FIFO for everything in flight: the FIFO never drops.
        run.count("fifo_drops", (gold.fifo.drops() > drops && !reset) as u64);
        sim.tick();
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
