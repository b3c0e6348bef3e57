//! PRNG: random advance, seed loads (including seed 0) and resets (half of them with a seed load in the
//! same cycle, which the reset must win).

use super::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::Prng;
use golden::common::prng::{seed_state, PrngInputs, PrngModel, PRNG_DEFAULT_SEED};
use rand::Rng;

pub fn run(cfg: &RunConfig) -> RunReport {
    let mut run = Run::new(Prng::NAME, cfg);
    let mut sim = Sim::new(Prng::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = PrngModel::new();
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 20_000);
        let r = &mut run.rng;
        // Half the resets (and always the one halfway) come with a nonzero seed load in the same cycle:
        // reset must win.
        let load_in_reset = reset && (i == cfg.transactions / 2 || r.gen_bool(0.5));
        let inp = PrngInputs {
            reset,
            seed_load: load_in_reset || r.gen_ratio(1, 100),
            seed: if !load_in_reset && r.gen_ratio(1, 10) { 0 } else { r.gen_range(1..=u32::MAX) },
            advance: r.gen_bool(0.7),
        };
        sim.m.set_reset(inp.reset as u64);
        sim.m.set_seed_load(inp.seed_load as u64);
        sim.m.set_seed(inp.seed as u64);
        sim.m.set_advance(inp.advance as u64);
        sim.settle();
        run.count("seed_loads", inp.seed_load as u64);
        run.count("zero_seed_loads", (inp.seed_load && inp.seed == 0) as u64);
        // Observable only when the seed loads another state than the reset's.
        let distinct = seed_state(inp.seed) != PRNG_DEFAULT_SEED;
        run.count("seed_loads_in_reset", (inp.seed_load && inp.reset && distinct) as u64);
        let expect = gold.step(&inp);
        run.sb.check(sim.cycle, "value", expect.map(u128::from), sim.m.value() as u128);
        sim.tick();
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
