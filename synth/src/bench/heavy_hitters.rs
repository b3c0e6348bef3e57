//! The heavy-hitter core's benchmarks: throughput of `hh_d2` and `hh_d4` (saturated, every packet checked
//! against golden, the table read out after the stream) and golden-model speed at the co-simulated size and
//! at the 2 × 2^12 buckets.

use super::{time, CoreBenches, GoldenBench, Throughput};
use golden::common::sram::RamPorts;
use golden::heavy_hitters::{HhConfig, HhModel, HhRuntime, Method};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use testbench::heavy_hitters::HhTop;
use testbench::models::{HhD2, HhD4};

pub const BENCHES: CoreBenches = CoreBenches {
    throughput: |packets, seed| {
        vec![hh_throughput("hh_d2", HhD2::new, packets, seed), hh_throughput("hh_d4", HhD4::new, packets, seed)]
    },
    speed: Vec::new,
    golden: || {
        vec![
            GoldenBench {
                block: "hh_d2",
                golden: |n, seed| golden_hh(&testbench::heavy_hitters::top_config("hh_d2"), n, seed),
            },
            GoldenBench { block: "hh_d2_a12 (golden only)", golden: |n, seed| golden_hh(&d2_a12(), n, seed) },
        ]
    },
};

/// The synthesis size of the issue: 2 rows of 2^12 buckets, 104-bit keys, 32-bit counts.
fn d2_a12() -> HhConfig {
    HhConfig { rows: 2, addr_bits: 12, key_bits: 104, count_bits: 32, record_fifo_bits: 4 }
}

/// Heavy-hitter keys: a skewed mix (a cube of a uniform draw over 4096 keys, so a few keys take most packets),
/// and 15 % of the packets repeat the previous key (every row's bucket back to back).
fn hh_keys(n: u64, seed: u64) -> Vec<u128> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let pool: Vec<u128> = (0..4096).map(|_| rng.gen::<u128>() >> 24).collect();
    let mut prev = pool[0];
    (0..n)
        .map(|_| {
            if !rng.gen_ratio(15, 100) {
                prev = pool[(rng.gen::<f64>().powi(3) * pool.len() as f64) as usize];
            }
            prev
        })
        .collect()
}

/// A build at full rate through `testbench::heavy_hitters::run_trace` (d-way RAP, reciprocal admission).
fn hh_throughput<M: HhTop>(name: &'static str, make: fn(u64) -> M, packets: u64, seed: u64) -> Throughput {
    let keys = hh_keys(packets, seed);
    let b2b = keys.windows(2).filter(|w| w[0] == w[1]).count();
    let rt = HhRuntime { method: Method::Dway, seed: seed as u32 | 1, ..Default::default() };
    let cycles = testbench::heavy_hitters::run_trace(name, &rt, &keys, make).map(|r| r.accept_cycles);
    Throughput::of_trace(name, RamPorts::Dual, packets - 1, (b2b, packets), 1.0, cycles)
}

/// `n` packets of [`hh_keys`] through the transaction model of `cfg` (d-way RAP), timed.
fn golden_hh(cfg: &HhConfig, n: u64, seed: u64) -> f64 {
    let keys = hh_keys(n, seed);
    let mut m = HhModel::new(cfg, HhRuntime::default()).expect("valid configuration");
    time(|| {
        for &k in &keys {
            black_box(m.step(black_box(k)));
        }
    })
}
