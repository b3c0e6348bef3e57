//! # synth — netmeas synthesis flow and benchmarks (`netmeas synth`, `netmeas bench`)
//!
//! - [`flow`]: every core's synthesis configurations ([`hdl::synth_tops::configs`]) through Yosys and
//!   nextpnr-ecp5 (LFE5U-85F, speed 8, out of context) inside a ring of I/O registers, and the results as
//!   a table, JSON or Markdown (synth/RESULTS.md).
//! - [`report`]: reading nextpnr's `--report` JSON (Fmax per clock, utilisation, critical path) and the
//!   block-RAM arithmetic the results are compared with. [`tools`]: finding and running the tools.
//! - [`bench`](mod@bench): throughput, simulation speed against a plain C++ Verilator loop, golden-model speed; each
//!   core's benchmark traffic in its own file under `bench/`. All but its options need the `rtl` feature
//!   (Verilated models, so Verilator).
//! - [`table`]: result tables described once and rendered as aligned text or Markdown. It lives here, not in
//!   `sim`, because `sim` (the CLI) depends on this crate: the one renderer must sit below both.
//!
//! Synthesis needs no Verilator: without the default `rtl` feature this crate builds and tests on
//! `golden` and `hdl` alone.

pub mod bench;
pub mod flow;
pub mod report;
pub mod table;
pub mod tools;

/// CPU model and hardware threads, for reports.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!("{cpu}, {} hardware threads", std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}
