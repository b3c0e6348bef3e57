//! FineComb's benchmarks: throughput of the four-bank receiver at p = 1 and golden-model speed.

use super::{time, CoreBenches, GoldenBench, Throughput};
use golden::common::sram::RamPorts;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

pub const BENCHES: CoreBenches = CoreBenches {
    throughput: |packets, seed| vec![finecomb_throughput(packets, seed)],
    speed: Vec::new,
    golden: || vec![GoldenBench { block: "finecomb", golden: golden_finecomb }],
};

/// FineComb traffic: a start marker, then `n` packets 200 ns apart (15% repeat the previous key: same bucket
/// back to back) with a sync marker every 10 000 packets, then an end marker.
fn finecomb_descriptors(n: u64, seed: u64) -> Vec<golden::finecomb::Descriptor> {
    use golden::finecomb::Descriptor as D;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut prev: u128 = rng.gen();
    let mut out = vec![D::start()];
    for i in 0..n {
        if i > 0 && i % 10_000 == 0 {
            out.push(D::sync());
        }
        if !rng.gen_ratio(15, 100) {
            prev = rng.gen();
        }
        out.push(D::packet(prev, i * 200));
    }
    out.push(D::end());
    out
}

/// The FineComb settings in the benchmarks: the four-bank receiver, 200 buckets and substashes of 50 per bank,
/// every bank sampling every packet (thresholds `u32::MAX`, p = 1).
fn finecomb_settings() -> (golden::finecomb::FinecombConfig, golden::finecomb::FinecombRuntime) {
    use golden::finecomb::{BankConfig, FinecombConfig, FinecombRuntime, Role};
    let banks = vec![BankConfig { buckets: 200, stash_depth: 50 }; 4];
    let thresholds = vec![u32::MAX; banks.len()];
    (FinecombConfig { role: Role::Receiver, banks, isd: true }, FinecombRuntime { thresholds })
}

/// The four-bank FineComb receiver at full rate (`testbench::finecomb::run_trace`, RTL checked against the
/// golden cycle model every cycle): every bank samples every packet (p = 1; the bucket pipelines see a
/// packet in every cycle), 200 buckets and substashes of 50 per bank; descriptors (packets and markers) per
/// cycle from the first accepted to the last.
fn finecomb_throughput(packets: u64, seed: u64) -> Throughput {
    let descs = finecomb_descriptors(packets, seed);
    let b2b = descs.windows(2).filter(|w| !w[0].is_marker() && w[0].key == w[1].key).count();
    let (shape, rt) = finecomb_settings();
    let run =
        testbench::finecomb::run_trace("finecomb", &shape, &rt.thresholds, &descs, testbench::models::Finecomb::new);
    let cycles = run.map(|r| r.accept_cycles);
    Throughput::of_trace("finecomb", RamPorts::Dual, descs.len() as u64, (b2b, packets), 1.0, cycles)
}
fn golden_finecomb(n: u64, seed: u64) -> f64 {
    let descs = finecomb_descriptors(n, seed);
    let (cfg, rt) = finecomb_settings();
    let mut m = golden::finecomb::FinecombModel::new(&cfg, rt).expect("valid configuration");
    time(|| {
        for d in &descs {
            black_box(m.step(black_box(d)));
        }
    })
}
