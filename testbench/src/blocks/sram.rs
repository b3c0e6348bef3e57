//! SRAM register files: random reads and writes with address locality (read-during-write to the same
//! address is frequent), writes during the sweep (must be ignored), resets mid-stream, each with a write in
//! its cycle (must be ignored; half the time its address is read in that cycle, and the next reads may pick
//! it again before the sweep clears it).

use super::Run;
use crate::harness::{RunConfig, RunReport, Sim};
use crate::models::{SramDp, SramDpReg, SramSp, SramSpReg};
use golden::common::mask128;
use golden::common::sram::{RamPorts, RamTiming, SramInputs, SramModel};
use golden::common::tops::{RAM_TOP_REGISTERED, SRAM_TOP_ADDR_BITS, SRAM_TOP_WIDTH};
use rand::Rng;

macro_rules! sram_runner {
    ($fn_name:ident, $model:ident, $ports:expr, $timing:expr) => {
        pub fn $fn_name(cfg: &RunConfig) -> RunReport {
            let mut run = Run::new($model::NAME, cfg);
            let mut sim = Sim::new($model::new(cfg.x_seed), cfg.vcd.clone());
            let mut gold = SramModel::with_timing($ports, $timing, SRAM_TOP_ADDR_BITS, SRAM_TOP_WIDTH, true);
            let depth = 1usize << SRAM_TOP_ADDR_BITS;
            let mut last_addr = 0usize;
            for i in 0..cfg.transactions {
                let reset = run.reset_now(i, cfg.transactions, 10_000);
                let r = &mut run.rng;
                let mut pick = |r: &mut rand::rngs::SmallRng| {
                    if r.gen_ratio(1, 3) {
                        last_addr
                    } else {
                        last_addr = r.gen_range(0..depth);
                        last_addr
                    }
                };
                let mut inp = SramInputs {
                    reset,
                    raddr: pick(r),
                    we: r.gen_bool(0.5),
                    waddr: pick(r),
                    wdata: r.gen::<u128>() & mask128(SRAM_TOP_WIDTH),
                };
                if reset {
                    // A write in the reset cycle must not land: it comes always, half the time (and always
                    // halfway) read at the same address in that cycle, and its address (in the upper half,
                    // which the sweep reaches last) is the one the next reads pick a third of the time.
                    inp.we = true;
                    inp.waddr = r.gen_range(depth / 2..depth);
                    last_addr = inp.waddr;
                    if i == cfg.transactions / 2 || r.gen_bool(0.5) {
                        inp.raddr = inp.waddr;
                    }
                }
                sim.m.set_reset(inp.reset as u64);
                sim.m.set_raddr(inp.raddr as u64);
                sim.m.set_we(inp.we as u64);
                sim.m.set_waddr(inp.waddr as u64);
                sim.m.set_wdata(inp.wdata as u64);
                sim.settle();
                let busy = gold.busy() == Some(true);
                run.count("writes_during_sweep", (busy && inp.we) as u64);
                run.count("read_during_write_same_address", (!busy && !reset && inp.we && inp.raddr == inp.waddr) as u64);
                // Observable: a defined word (not the first reset) read at the written address in that cycle.
                let observed = reset && sim.cycle > 0 && inp.we && inp.raddr == inp.waddr;
                run.count("writes_in_reset_cycle", observed as u64);
                let expect = gold.step(&inp);
                let c = sim.cycle;
                run.sb.check(c, "rdata", expect.rdata, sim.m.rdata() as u128);
                run.sb.check(c, "busy", expect.busy.map(u128::from), sim.m.busy() as u128);
                sim.tick();
                run.transactions += 1;
            }
            run.finish(sim.cycle)
        }
    };
}

sram_runner!(run_dual, SramDp, RamPorts::Dual, RamTiming::Short);
sram_runner!(run_single, SramSp, RamPorts::Single, RamTiming::Short);
sram_runner!(run_dual_registered, SramDpReg, RamPorts::Dual, RAM_TOP_REGISTERED);
sram_runner!(run_single_registered, SramSpReg, RamPorts::Single, RAM_TOP_REGISTERED);
