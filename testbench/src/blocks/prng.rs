//! PRNG: random advance, seed loads (including seed 0) and resets.

use super::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::Prng;
use golden::common::prng::{PrngInputs, PrngModel};
use rand::Rng;

pub fn run(cfg: &RunConfig) -> RunReport {
    let mut run = Run::new(Prng::NAME, cfg);
    let mut sim = Sim::new(Prng::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = PrngModel::new();
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 20_000);
        let r = &mut run.rng;
        let inp = PrngInputs {
            reset,
            seed_load: r.gen_ratio(1, 100),
            seed: if r.gen_ratio(1, 10) { 0 } else { r.gen() },
            advance: r.gen_bool(0.7),
        };
        sim.m.set_reset(inp.reset as u64);
        sim.m.set_seed_load(inp.seed_load as u64);
        sim.m.set_seed(inp.seed as u64);
        sim.m.set_advance(inp.advance as u64);
        sim.settle();
        run.count("seed_loads", inp.seed_load as u64);
        run.count("zero_seed_loads", (inp.seed_load && inp.seed == 0) as u64);
        let expect = gold.step(&inp);
        run.sb.check(sim.cycle, "value", expect.map(u128::from), sim.m.value() as u128);
        sim.tick();
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
