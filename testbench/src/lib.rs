//! # testbench — co-simulation of netmeas RTL against the golden model
//!
//! - [`models`]: Verilator models of every hdl top (built by `build.rs`), one Rust struct per top.
//! - [`harness`]: clocking, waveforms, seeds, the cycle-by-cycle scoreboard.
//! - [`blocks`]: one randomized co-simulation runner per shared block (RTL vs golden), used by the tests in
//!   `tests/` and by `netmeas demo`.

pub mod blocks;
pub mod finecomb;
pub mod finecomb_stages;
pub mod fridge;
pub mod fridge_tally;
pub mod harness;

/// Generated Verilator bindings (see `build.rs`).
#[allow(clippy::all, dead_code)]
pub mod models {
    include!(concat!(env!("OUT_DIR"), "/models.rs"));
}

/// The Verilator the models were built with.
pub const VERILATOR_VERSION: &str = env!("NETMEAS_VERILATOR_VERSION");
/// Where build.rs wrote the (initial-value-free) Verilog the models were built from.
pub const VERILOG_DIR: &str = env!("NETMEAS_VERILOG_DIR");
