//! # testbench — co-simulation of netmeas RTL against the golden model
//!
//! - [`models`]: Verilator models of every hdl top (built by `build.rs`), one Rust struct per top.
//! - [`harness`]: clocking, waveforms, seeds, the cycle-by-cycle scoreboard.
//! - [`blocks`]: one randomized co-simulation runner per shared block (RTL vs golden); [`fridge`],
//!   [`fridge_tally`], [`finecomb`]: the core runners. [`runners`] lists them all for `netmeas demo` and the
//!   benchmarks; the tests in `tests/` check them through [`harness::check`].
//! - [`core_run`], [`ports`], [`csr_driver`]: what every core runner shares — the per-cycle step
//!   ([`core_run::cycle`]: drive, settle, golden step, compare, CSR read-back, tick) over a top's port
//!   mapping ([`core_run::CoreTop`]) and its golden cycle model ([`core_run::GoldenCycle`]), the run-loop
//!   pieces ([`core_run::CoreRun`], [`core_run::TraceSim`], [`core_run::Stall`], [`core_run::Held`],
//!   [`core_run::MidReset`]), typed outputs compared field by field with golden, the CSR driver with its
//!   read-back check. A core supplies its traffic, its port mapping (`drive` and `top_outputs!`) and its
//!   coverage names (`coverage_names!`).

pub mod axi_core;
pub mod axil_master;
pub mod blocks;
pub mod core_run;
pub mod csr_driver;
pub mod finecomb;
pub mod finecomb_stages;
pub mod fridge;
pub mod fridge_tally;
pub mod harness;
pub mod heavy_hitters;
pub mod ifpd;
pub mod maple;
pub mod maple_trace;
pub mod parser;
pub mod parser_desc;
pub mod period_end;
pub mod ports;
pub mod reordering;
pub mod reordering_hybrid;
pub mod reordering_hybrid_axi;
pub mod runtime_model;
#[path = "../build/shim.rs"]
pub mod shim;
pub mod verify;

/// Every co-simulation runner list, shared blocks first, then the cores (demo order). A new core adds its
/// `ALL` here.
pub const GROUPS: &[&[harness::Runner]] =
    &[blocks::ALL, fridge::ALL, finecomb::ALL, heavy_hitters::ALL, reordering::ALL, ifpd::ALL, maple::ALL, parser::ALL];

/// Every co-simulation runner (what `netmeas demo` and the benchmarks iterate).
pub fn runners() -> Vec<harness::Runner> {
    GROUPS.iter().flat_map(|g| g.iter().copied()).collect()
}

/// Generated Verilator bindings (see `build.rs`).
#[allow(clippy::all, dead_code)]
pub mod models {
    include!(concat!(env!("OUT_DIR"), "/models.rs"));
}

/// The Verilator the models were built with.
pub const VERILATOR_VERSION: &str = env!("NETMEAS_VERILATOR_VERSION");
/// Where build.rs wrote the (initial-value-free) Verilog the models were built from.
pub const VERILOG_DIR: &str = env!("NETMEAS_VERILOG_DIR");
