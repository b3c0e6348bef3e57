//! Report FIFO: alternating phases of push-heavy traffic with a slow reader (overflow, drops) and drains,
//! simultaneous push and pop at full and empty, resets mid-stream — on the native top (`fifo`) and on its
//! AXI flavour (`fifo_axi`: the input a slave AXI4-Stream without `tready`, the output a master stream with
//! `tlast` on every beat), each against the golden FIFO cycle by cycle. Besides, per word: the data are
//! sequence numbers, so every word that comes out must be the next one pushed and not dropped (nothing lost
//! unless counted in `drops`, nothing duplicated, order kept).

use super::Run;
use crate::harness::{Model, RunConfig, RunReport, Sim};
use crate::models::{Fifo, FifoAxi};
use golden::common::fifo::{FifoInputs, FifoModel};
use golden::common::mask128;
use golden::common::tops::{FIFO_TOP_ADDR_BITS, FIFO_TOP_WIDTH};
use rand::Rng;
use std::collections::VecDeque;

/// The FIFO's pins under either flavour: drive the inputs; read (valid, data, level, drops, last).
pub trait FifoTop: Model {
    fn set(&mut self, i: &FifoInputs);
    fn get(&self) -> (bool, u128, u64, u64, bool);
}

impl FifoTop for Fifo {
    fn set(&mut self, i: &FifoInputs) {
        self.set_reset(i.reset as u64);
        self.set_in_valid(i.in_valid as u64);
        self.set_in_data(i.in_data);
        self.set_out_ready(i.out_ready as u64);
    }
    fn get(&self) -> (bool, u128, u64, u64, bool) {
        (self.out_valid() != 0, self.out_data(), self.level(), self.drops(), true)
    }
}

impl FifoTop for FifoAxi {
    fn set(&mut self, i: &FifoInputs) {
        self.set_rst(i.reset as u64);
        self.set_s_axis_in_tvalid(i.in_valid as u64);
        self.set_s_axis_in_tdata(i.in_data);
        self.set_m_axis_out_tready(i.out_ready as u64);
    }
    fn get(&self) -> (bool, u128, u64, u64, bool) {
        let last = self.m_axis_out_tlast() != 0;
        (self.m_axis_out_tvalid() != 0, self.m_axis_out_tdata(), self.level(), self.drops(), last)
    }
}

pub fn run(cfg: &RunConfig) -> RunReport {
    run_top(cfg, Fifo::new(cfg.x_seed))
}

pub fn run_axi(cfg: &RunConfig) -> RunReport {
    run_top(cfg, FifoAxi::new(cfg.x_seed))
}

fn run_top<M: FifoTop>(cfg: &RunConfig, m: M) -> RunReport {
    let mut run = Run::new(m.name(), cfg);
    let mut sim = Sim::new(m, cfg.vcd.clone());
    let mut gold = FifoModel::new(FIFO_TOP_ADDR_BITS, FIFO_TOP_WIDTH);
    let (mut p_push, mut p_pop) = (0.5, 0.5);
    // Words pushed and not yet out (the drops among them are learned from the drop counter), the next
    // sequence number, the drop count seen so far.
    let mut pushed: VecDeque<u128> = VecDeque::new();
    let (mut seq, mut drops_seen) = (0u128, 0u64);
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 20_000);
        let r = &mut run.rng;
        if i % 500 == 0 {
            // A new phase: flood, drain, balanced or idle.
            let phases = [(0.95, 0.2), (0.1, 0.95), (0.5, 0.5), (1.0, 1.0), (0.02, 0.02)];
            (p_push, p_pop) = phases[r.gen_range(0..phases.len())];
        }
        let in_valid = r.gen_bool(p_push);
        // Idle cycles carry random data, pushes the next sequence number.
        let in_data = if in_valid { seq } else { r.gen::<u128>() } & mask128(FIFO_TOP_WIDTH);
        let inp = FifoInputs { reset, in_valid, in_data, out_ready: r.gen_bool(p_pop) };
        sim.m.set(&inp);
        sim.settle();
        let c = sim.cycle;
        let (valid, data, level, drops, last) = sim.m.get();
        if let Some(e) = gold.step(&inp) {
            let full = e.level == gold.depth();
            run.count("pushes_into_full", (full && inp.in_valid && !inp.reset) as u64);
            run.count("push_and_pop_when_full", (full && inp.in_valid && inp.out_ready && !inp.reset) as u64);
            run.count("push_when_empty", (e.level == 0 && inp.in_valid && !inp.reset) as u64);
            run.sb.check(c, "out_valid", Some(e.out_valid as u128), valid as u128);
            run.sb.check(c, "out_data", e.out_data, data);
            run.sb.check(c, "level", Some(e.level as u128), level as u128);
            run.sb.check(c, "drops", Some(e.drops as u128), drops as u128);
            run.sb.check(c, "tlast", Some(1), (last || !valid) as u128);
        }
        if reset {
            (pushed, seq, drops_seen) = (VecDeque::new(), 0, 0);
        } else {
            // A push this cycle shows as a drop in the counter next cycle, or stays in the FIFO.
            if valid && inp.out_ready {
                // Words ahead of this one that never came out were dropped: the counter must say so.
                let skipped = pushed.iter().take_while(|w| **w != data).count() as u64;
                run.sb.check(c, "word_in_order", Some(1), (skipped < pushed.len() as u64) as u128);
                run.sb.check(c, "words_lost_uncounted", Some(0), skipped.saturating_sub(drops - drops_seen) as u128);
                drops_seen += skipped;
                pushed.drain(..(skipped as usize + 1).min(pushed.len()));
            }
            if in_valid {
                pushed.push_back(in_data);
                seq = (seq + 1) & mask128(FIFO_TOP_WIDTH);
            }
        }
        sim.tick();
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
