//! `netmeas bench`: the performance benchmarks of the cores (benchmarks, not timed tests — nothing here
//! fails a test run; the command prints numbers and exits non-zero only if a model disagrees with golden or
//! a throughput target is missed).
//!
//! 1. **Throughput** (co-simulation, RTL checked against golden while it runs): saturated traffic (a packet
//!    offered every cycle) with ≥10% of the packets to the same index as the packet before (plus 2 and 3
//!    back); packets accepted per cycle once the reset sweep is over. Target: 1.00 on dual-port builds,
//!    0.50 on single-port builds.
//! 2. **Simulation speed**: the Rust harness (`testbench::harness::Sim` over the generated FFI bindings)
//!    versus a plain C++ Verilator loop, same Verilog, same Verilator flags, same C++ optimisation (-O2, as
//!    testbench/build.rs compiles the models), same stimulus (written to a file the C++ loop reads), same
//!    evaluation sequence (inputs, eval, read outputs, clock high eval, clock low eval). Both fold every
//!    output into a checksum that must agree; the runs alternate and the best of each side counts.
//!    Target: harness ≥ 70% of the C++ loop's cycles/s.
//! 3. **Golden-model speed** (transactions/s of each model's `step` alone) side by side with the RTL
//!    co-simulation speed of the same block (`testbench::blocks` runners: Verilator + golden + scoreboard).
//!
//!
//! Each core brings its benchmark traffic and rows in its own file here (`blocks.rs` for the shared blocks,
//! `fridge.rs`, `finecomb.rs`, `heavy_hitters.rs`, `ifpd.rs`) as a [`CoreBenches`], and adds one line to
//! [`CORES`]; the driver (`driver.rs`), the C++ loop (`simspeed.rs`) and the tables are shared. Everything but [`BenchArgs`]
//! needs the `rtl` feature (Verilated models).

use golden::common::sram::RamPorts;
use std::path::PathBuf;
use std::time::Instant;

#[cfg(feature = "rtl")]
mod blocks;
#[cfg(feature = "rtl")]
mod driver;
#[cfg(feature = "rtl")]
mod finecomb;
#[cfg(feature = "rtl")]
mod fridge;
#[cfg(feature = "rtl")]
mod heavy_hitters;
#[cfg(feature = "rtl")]
mod ifpd;
#[cfg(feature = "rtl")]
mod reordering;
#[cfg(feature = "rtl")]
mod simspeed;

#[cfg(feature = "rtl")]
pub use driver::run;
#[cfg(feature = "rtl")]
pub use simspeed::{Speed, SpeedBench};

#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Packets per throughput run.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1000..=1_000_000_000))]
    pub packets: u64,
    /// Cycles per simulation-speed run (each side runs it `--repeat` times, alternating; the best counts).
    #[arg(long, default_value_t = 5_000_000, value_parser = clap::value_parser!(u64).range(1000..=1_000_000_000))]
    pub cycles: u64,
    /// Repetitions of each simulation-speed measurement.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub repeat: u32,
    /// Transactions per golden-model and co-simulation speed run.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1000..=1_000_000_000))]
    pub transactions: u64,
    /// Traffic seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only these parts (repeatable): throughput, simspeed, golden.
    #[arg(long = "only", value_parser = ["throughput", "simspeed", "golden"])]
    pub only: Vec<String>,
    /// Where the C++ loop is built.
    #[arg(long, default_value = "out/bench")]
    pub out: PathBuf,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// One core's benchmarks (the shared blocks count as one core), in the order of their table rows.
#[cfg(feature = "rtl")]
pub struct CoreBenches {
    /// Runs its throughput benchmarks: `(packets, seed)`.
    pub throughput: fn(u64, u64) -> Vec<Throughput>,
    /// Its simulation-speed comparisons.
    pub speed: fn() -> Vec<SpeedBench>,
    /// Its golden-model benchmarks.
    pub golden: fn() -> Vec<GoldenBench>,
}

/// Every core's benchmarks; rows appear in this order.
#[cfg(feature = "rtl")]
pub const CORES: &[CoreBenches] =
    &[blocks::BENCHES, fridge::BENCHES, finecomb::BENCHES, heavy_hitters::BENCHES, reordering::BENCHES, ifpd::BENCHES];

// ---------------------------------------------------------------------------------------------------------
// 1. Throughput

#[derive(Debug, Clone)]
pub struct Throughput {
    pub top: &'static str,
    pub ports: RamPorts,
    pub packets: u64,
    pub cycles: u64,
    pub same_index_back_to_back: f64,
    pub mismatches: u64,
    pub target: f64,
}

impl Throughput {
    /// The row of a full-rate trace run (a core's `run_trace`): `accept_cycles` the cycles it took, or the
    /// mismatch that ended it (printed, and counted as one mismatch); `b2b` packets with the same index as
    /// the one before, of `offered`.
    pub fn of_trace(
        top: &'static str,
        ports: RamPorts,
        packets: u64,
        (b2b, offered): (usize, u64),
        target: f64,
        accept_cycles: Result<u64, String>,
    ) -> Throughput {
        let (cycles, mismatches) = match accept_cycles {
            Ok(c) => (c, 0),
            Err(e) => {
                eprintln!("[bench] {top}: {e}");
                (0, 1)
            }
        };
        let same_index_back_to_back = b2b as f64 / offered.max(1) as f64;
        Throughput { top, ports, packets, cycles, same_index_back_to_back, mismatches, target }
    }
    pub fn per_cycle(&self) -> f64 {
        self.packets as f64 / self.cycles.max(1) as f64
    }
    pub fn ok(&self) -> bool {
        self.mismatches == 0 && (self.per_cycle() - self.target).abs() < 0.005
    }
}

// ---------------------------------------------------------------------------------------------------------
// 3. Golden-model speed, side by side with RTL co-simulation

pub struct GoldenBench {
    pub block: &'static str,
    /// Runs `n` transactions of the golden model alone; returns seconds.
    pub golden: fn(u64, u64) -> f64,
}

pub fn time(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

#[derive(Debug, Clone)]
pub struct GoldenSpeed {
    pub block: &'static str,
    pub transactions: u64,
    pub golden_tps: f64,
    pub cosim_tps: f64,
    pub cosim_cps: f64,
    pub cosim_clean: bool,
}
