//! Delay line: random valid bits and words (garbage words while invalid), resets.

use super::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::Delay;
use golden::common::delay::{DelayInputs, DelayModel};
use golden::common::tops::{DELAY_TOP_STAGES, DELAY_TOP_WIDTH};
use rand::Rng;

pub fn run(cfg: &RunConfig) -> RunReport {
    let mut run = Run::new(Delay::NAME, cfg);
    let mut sim = Sim::new(Delay::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = DelayModel::new(DELAY_TOP_STAGES);
    let mask = (1u128 << DELAY_TOP_WIDTH) - 1;
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 20_000);
        let r = &mut run.rng;
        let inp = DelayInputs { reset, in_valid: r.gen_bool(0.6), in_data: r.gen::<u128>() & mask };
        sim.m.set_reset(inp.reset as u64);
        sim.m.set_in_valid(inp.in_valid as u64);
        sim.m.set_in_data(inp.in_data as u64);
        sim.settle();
        let expect = gold.step(&inp);
        run.count("words_out", (expect.out_valid == Some(true)) as u64);
        run.count("resets_with_words_in_flight", (reset && inp.in_valid) as u64);
        run.sb.check(sim.cycle, "out_valid", expect.out_valid.map(u128::from), sim.m.out_valid() as u128);
        if expect.out_valid == Some(true) {
            run.sb.check(sim.cycle, "out_data", expect.out_data, sim.m.out_data() as u128);
        }
        sim.tick();
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
