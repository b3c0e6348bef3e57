//! Randomized co-simulation runners, one per shared block: drive the Verilator model and the golden model
//! with the same random traffic and compare every output in every cycle.

pub mod axil;
pub mod csr;
pub mod delay;
pub mod fifo;
pub mod hash;
pub mod multi_rmw;
pub mod prng;
pub mod rmw;
pub mod sram;

use crate::harness::{Coverage, RunConfig, RunReport, Scoreboard};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

pub use crate::harness::Runner;

/// Every shared-block runner that must match golden (the demo runs these).
pub const ALL: &[Runner] = &[
    ("hash128", hash::run_hash128),
    ("hash104", hash::run_hash104),
    ("prng", prng::run),
    ("sram_dp", sram::run_dual),
    ("sram_sp", sram::run_single),
    ("sram_dp_reg", sram::run_dual_registered),
    ("sram_sp_reg", sram::run_single_registered),
    ("rmw_dp", rmw::run_dual),
    ("rmw_sp", rmw::run_single),
    ("rmw_dp_reg", rmw::run_dual_registered),
    ("rmw_sp_reg", rmw::run_single_registered),
    ("rmw_dp_la", rmw::run_dual_lookahead),
    ("rmw_dp_reg_la", rmw::run_dual_registered_lookahead),
    ("rmw_dp_la2", rmw::run_dual_lookahead2),
    ("rmw_dp_reg_la2", rmw::run_dual_registered_lookahead2),
    ("rmw_sp_la2", rmw::run_single_lookahead2),
    ("multi_rmw", multi_rmw::run),
    ("multi_rmw_reg", multi_rmw::run_registered),
    ("fifo", fifo::run),
    ("fifo_axi", fifo::run_axi),
    ("delay", delay::run),
    ("csr", csr::run),
    ("csr_r2", csr::run_r2),
    ("axil_csr", axil::run),
];

/// Shared bookkeeping of a run: RNG, scoreboard, clock.
pub struct Run {
    pub rng: SmallRng,
    pub sb: Scoreboard,
    pub transactions: u64,
    pub coverage: Coverage,
    start: Instant,
}

impl Run {
    pub fn new(block: &str, cfg: &RunConfig) -> Self {
        Run {
            rng: SmallRng::seed_from_u64(cfg.seed),
            sb: Scoreboard::new(block, cfg.seed),
            transactions: 0,
            coverage: Coverage::default(),
            start: Instant::now(),
        }
    }
    /// Reset in this cycle? Always in the first cycle and once halfway through `total` cycles, otherwise
    /// with probability `1 / one_in` (resets in the middle of traffic). Counted as coverage `resets`.
    pub fn reset_now(&mut self, cycle: u64, total: u64, one_in: u32) -> bool {
        let r = cycle == 0 || cycle == total / 2 || self.rng.gen_ratio(1, one_in);
        if r {
            self.count(crate::core_run::RESETS, 1);
        }
        r
    }
    /// Adds `n` to coverage counter `what`.
    pub fn count(&mut self, what: &'static str, n: u64) {
        self.coverage.count(what, n)
    }
    pub fn finish(self, cycles: u64) -> RunReport {
        RunReport {
            coverage: self.coverage,
            block: self.sb.block.clone(),
            cycles,
            transactions: self.transactions,
            seconds: self.start.elapsed().as_secs_f64(),
            scoreboard: self.sb,
        }
    }
}
