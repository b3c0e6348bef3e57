//! The reordering core's benchmarks: throughput of `ro_a4`, `ro_a6` and the hybrid `ro_hy` (saturated,
//! every cycle checked against golden, the arrays flushed after the stream) and golden-model speed at the
//! co-simulated size and at the synthesis size of 2^10 buckets.

use super::{time, CoreBenches, GoldenBench, Throughput};
use golden::common::sram::RamPorts;
use golden::reordering::{Descriptor, ReorderConfig, ReorderRuntime, SamplingModel};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use testbench::models::{RoA4, RoA6, RoHy};
use testbench::reordering::RoTop;

pub const BENCHES: CoreBenches = CoreBenches {
    throughput: |packets, seed| {
        vec![
            ro_throughput("ro_a4", RoA4::new, packets, seed),
            ro_throughput("ro_a6", RoA6::new, packets, seed),
            hybrid_throughput(packets, seed),
        ]
    },
    speed: Vec::new,
    golden: || {
        vec![
            GoldenBench {
                block: "ro_a6",
                golden: |n, seed| golden_ro(&testbench::reordering::top_config("ro_a6"), n, seed),
            },
            GoldenBench {
                block: "ro_a10 (golden only)",
                golden: |n, seed| golden_ro(&ReorderConfig { addr_bits: 10, ..ReorderConfig::default() }, n, seed),
            },
        ]
    },
};

/// Descriptors over 4096 flows in 512 /24 prefixes (a cube of a uniform draw, so a few flows take most
/// packets), 15 % repeating the previous flow (its bucket back to back), 10 % going back in sequence, 1 µs
/// apart on average.
fn ro_packets(n: u64, seed: u64) -> Vec<Descriptor> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let flows: Vec<(u32, u128)> = (0..4096)
        .map(|_| (0x0A00_0000 | rng.gen_range(0..512u32) << 8 | rng.gen_range(0..256), rng.gen::<u128>() >> 24))
        .collect();
    let mut seqs = vec![0u32; flows.len()];
    let (mut f, mut ts) = (0usize, 0u64);
    (0..n)
        .map(|_| {
            if !rng.gen_ratio(15, 100) {
                f = (rng.gen::<f64>().powi(3) * flows.len() as f64) as usize;
            }
            seqs[f] = if rng.gen_ratio(1, 10) { seqs[f].wrapping_sub(3000) } else { seqs[f].wrapping_add(1460) };
            ts += rng.gen_range(0..2000);
            Descriptor { addr: flows[f].0, flow: flows[f].1, seq: seqs[f], ts, data: true }
        })
        .collect()
}

/// A build at full rate through `testbench::reordering::run_trace` (default settings, one flush at the end).
fn ro_throughput<M: RoTop>(name: &'static str, make: fn(u64) -> M, packets: u64, seed: u64) -> Throughput {
    let descs = ro_packets(packets, seed);
    let b2b = descs.windows(2).filter(|w| w[0].flow == w[1].flow).count();
    let cfg = testbench::reordering::top_config(name);
    let rt = ReorderRuntime { timeout: 30.min(cfg.ts_max()), count: 20.min(cfg.n_max()), ..Default::default() };
    let cycles = testbench::reordering::run_trace(name, &rt, &descs, None, make).map(|r| r.accept_cycles);
    Throughput::of_trace(name, RamPorts::Dual, packets - 1, (b2b, packets), 1.0, cycles)
}

/// The hybrid (`ro_hy`: heavy hitters, side table, flow sampling) at full rate through
/// `testbench::reordering_hybrid::run_trace` (default settings, d-way RAP, one period).
fn hybrid_throughput(packets: u64, seed: u64) -> Throughput {
    let descs = ro_packets(packets, seed);
    let b2b = descs.windows(2).filter(|w| w[0].flow == w[1].flow).count();
    let rt = ReorderRuntime { timeout: 30, count: 20, ..Default::default() };
    let hh = golden::heavy_hitters::HhRuntime { seed: seed as u32, ..Default::default() };
    let cycles = testbench::reordering_hybrid::run_trace("ro_hy", &rt, &hh, &descs, None, RoHy::new);
    Throughput::of_trace("ro_hy", RamPorts::Dual, packets - 1, (b2b, packets), 1.0, cycles.map(|r| r.accept_cycles))
}

/// `n` descriptors of [`ro_packets`] through the transaction model of `cfg` (default settings), timed.
fn golden_ro(cfg: &ReorderConfig, n: u64, seed: u64) -> f64 {
    let descs = ro_packets(n, seed);
    let mut m = SamplingModel::new(cfg, ReorderRuntime::default()).expect("valid configuration");
    time(|| {
        for d in &descs {
            black_box(m.step(black_box(d)));
        }
    })
}
