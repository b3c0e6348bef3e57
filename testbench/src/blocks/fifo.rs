//! Report FIFO: alternating phases of push-heavy traffic with a slow reader (overflow, drops) and drains,
//! simultaneous push and pop at full and empty, resets mid-stream.

use super::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::Fifo;
use golden::common::fifo::{FifoInputs, FifoModel};
use golden::common::mask128;
use golden::common::tops::{FIFO_TOP_ADDR_BITS, FIFO_TOP_WIDTH};
use rand::Rng;

pub fn run(cfg: &RunConfig) -> RunReport {
    let mut run = Run::new(Fifo::NAME, cfg);
    let mut sim = Sim::new(Fifo::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = FifoModel::new(FIFO_TOP_ADDR_BITS, FIFO_TOP_WIDTH);
    let (mut p_push, mut p_pop) = (0.5, 0.5);
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 20_000);
        let r = &mut run.rng;
        if i % 500 == 0 {
            // A new phase: flood, drain, balanced or idle.
            let phases = [(0.95, 0.2), (0.1, 0.95), (0.5, 0.5), (1.0, 1.0), (0.02, 0.02)];
            (p_push, p_pop) = phases[r.gen_range(0..phases.len())];
        }
        let inp = FifoInputs {
            reset,
            in_valid: r.gen_bool(p_push),
            in_data: r.gen::<u128>() & mask128(FIFO_TOP_WIDTH),
            out_ready: r.gen_bool(p_pop),
        };
        sim.m.set_reset(inp.reset as u64);
        sim.m.set_in_valid(inp.in_valid as u64);
        sim.m.set_in_data(inp.in_data);
        sim.m.set_out_ready(inp.out_ready as u64);
        sim.settle();
        let c = sim.cycle;
        if let Some(e) = gold.step(&inp) {
            let full = e.level == gold.depth();
            run.count("pushes_into_full", (full && inp.in_valid && !inp.reset) as u64);
            run.count("push_and_pop_when_full", (full && inp.in_valid && inp.out_ready && !inp.reset) as u64);
            run.count("push_when_empty", (e.level == 0 && inp.in_valid && !inp.reset) as u64);
            run.sb.check(c, "out_valid", Some(e.out_valid as u128), sim.m.out_valid() as u128);
            run.sb.check(c, "out_data", e.out_data, sim.m.out_data());
            run.sb.check(c, "level", Some(e.level as u128), sim.m.level() as u128);
            run.sb.check(c, "drops", Some(e.drops as u128), sim.m.drops() as u128);
        }
        sim.tick();
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
