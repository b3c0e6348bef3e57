//! The IFPD core's benchmarks: throughput of `ifpd_d4` and `ifpd_d1` (saturated, every packet checked against
//! golden, reports and counters against the transaction model) and golden-model speed at the co-simulated
//! size and at the synthesis size 4 × 2^12 buckets.

use super::{time, CoreBenches, GoldenBench, Throughput};
use golden::common::sram::RamPorts;
use golden::ifpd::{Descriptor, IfpdConfig, IfpdModel, IfpdRuntime};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use testbench::ifpd::IfpdTop;
use testbench::models::{IfpdD1, IfpdD4};

pub const BENCHES: CoreBenches = CoreBenches {
    throughput: |packets, seed| {
        vec![
            ifpd_throughput("ifpd_d4", IfpdD4::new, packets, seed),
            ifpd_throughput("ifpd_d1", IfpdD1::new, packets, seed),
        ]
    },
    speed: Vec::new,
    golden: || {
        vec![
            GoldenBench {
                block: "ifpd_d4",
                golden: |n, seed| golden_ifpd(&testbench::ifpd::top_config("ifpd_d4"), n, seed),
            },
            GoldenBench {
                block: "ifpd_d4_a12 (golden only)",
                golden: |n, seed| golden_ifpd(&IfpdConfig { bf_bits: 1 << 16, ..IfpdConfig::default() }, n, seed),
            },
        ]
    },
};

/// Packets of a skewed mix of 4096 flows (a square of a uniform draw), 15 % repeating the previous flow (the
/// same bucket in every row back to back), a few hundred ns apart.
fn packets(cfg: &IfpdConfig, n: u64, seed: u64) -> Vec<Descriptor> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let pool: Vec<u128> = (0..4096).map(|_| rng.gen::<u128>() >> 24).collect();
    let (mut flow, mut ts) = (pool[0], 1u64 << 32);
    (0..n)
        .map(|_| {
            if !rng.gen_ratio(15, 100) {
                flow = pool[(rng.gen::<f64>().powi(2) * pool.len() as f64) as usize];
            }
            ts += rng.gen_range(0..64u64 << cfg.ts_shift);
            Descriptor { flow, ts }
        })
        .collect()
}

/// A build at full rate through `testbench::ifpd::run_trace` (IFPD mode, a threshold that reports a few %).
fn ifpd_throughput<M: IfpdTop>(name: &'static str, make: fn(u64) -> M, n: u64, seed: u64) -> Throughput {
    let cfg = testbench::ifpd::top_config(name);
    let p = packets(&cfg, n, seed);
    let b2b = p.windows(2).filter(|w| w[0].flow == w[1].flow).count();
    let rt = IfpdRuntime { threshold: 2000, base: 0, ..Default::default() };
    let cycles = testbench::ifpd::run_trace(name, &rt, &p, make).map(|r| r.accept_cycles);
    Throughput::of_trace(name, RamPorts::Dual, n - 1, (b2b, n), 1.0, cycles)
}

/// `n` packets of [`packets`] through the transaction model of `cfg` (IFPD mode, the throughput runs' threshold),
/// timed.
fn golden_ifpd(cfg: &IfpdConfig, n: u64, seed: u64) -> f64 {
    let p = packets(cfg, n, seed);
    let rt = IfpdRuntime { threshold: 2000, ..Default::default() };
    let mut m = IfpdModel::new(cfg, rt).expect("valid configuration");
    time(|| {
        for d in &p {
            black_box(m.step(black_box(d)));
        }
    })
}
