//! The fridge's benchmarks: throughput of its three builds, simulation speed of `fridge_dp`, golden-model
//! speed, and the traffic they share.

use super::simspeed::{fold, fold_words, SpeedBench};
use super::{time, CoreBenches, GoldenBench, Throughput};
use golden::common::sram::RamPorts;
use golden::fridge::cycle::{CSR_PRNG_SEED, CSR_THRESHOLD0};
use golden::fridge::{threshold_for, Descriptor, FridgeConfig, FridgeMode, FridgeModel, FridgeRuntime, PacketKind};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::time::Instant;
use testbench::fridge::FridgeTop;
use testbench::harness::Sim;
use testbench::models::{Fridge4Dp, FridgeDp, FridgeSp};

pub const BENCHES: CoreBenches = CoreBenches {
    throughput: |packets, seed| {
        vec![
            fridge_throughput("fridge_dp", FridgeDp::new, packets, seed),
            fridge_throughput("fridge_sp", FridgeSp::new, packets, seed),
            fridge_throughput("fridge4_dp", Fridge4Dp::new, packets, seed),
        ]
    },
    speed: || {
        vec![SpeedBench {
            top: "fridge_dp",
            inputs: FRIDGE_SPEED_INPUTS,
            outputs: FRIDGE_SPEED_OUTPUTS,
            stimulus: fridge_stimulus,
            rust: fridge_rust_loop,
        }]
    },
    golden: || vec![GoldenBench { block: "fridge_dp", golden: golden_fridge }],
};

/// Fridge traffic: 60% requests with fresh ids, 40% responses to outstanding requests, and 15% of the
/// packets repeat the previous packet's id (same table index back to back); 1000 ns apart.
fn fridge_packets(n: u64, seed: u64) -> Vec<Descriptor> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut open: Vec<u128> = Vec::new();
    let mut prev: Option<u128> = None;
    (0..n)
        .map(|i| {
            let respond = !open.is_empty() && rng.gen_bool(0.4);
            let id = match prev {
                Some(p) if rng.gen_ratio(15, 100) => p,
                _ if respond => open.swap_remove(rng.gen_range(0..open.len())),
                _ => {
                    let id: u128 = rng.gen();
                    open.push(id);
                    id
                }
            };
            prev = Some(id);
            let kind = if respond { PacketKind::Response } else { PacketKind::Request };
            Descriptor { kind, id, timestamp: i * 1000 }
        })
        .collect()
}

/// The fridge's run-time settings in the benchmarks: fridge mode, entry probability 1/2.
fn fridge_runtime() -> FridgeRuntime {
    FridgeRuntime { mode: FridgeMode::Fridge, expiry: 0, seed: 1, thresholds: vec![threshold_for(0.5)] }
}

/// A fridge top at full rate (`testbench::fridge::run_trace`: a packet offered every cycle, RTL checked
/// against the golden cycle model every cycle); packets per cycle from the second accepted packet to the
/// last (the first waits in the front register through the table's reset sweep).
fn fridge_throughput<M: FridgeTop>(top: &'static str, make: fn(u64) -> M, packets: u64, seed: u64) -> Throughput {
    let ports = testbench::fridge::top_config(top).ports;
    let trace = fridge_packets(packets, seed);
    let b2b = trace.windows(2).filter(|w| w[0].id == w[1].id).count();
    let cycles = testbench::fridge::run_trace(top, &fridge_runtime(), &trace, make).map(|r| r.accept_cycles);
    let target = if ports == RamPorts::Dual { 1.0 } else { 0.5 };
    Throughput::of_trace(top, ports, packets - 1, (b2b, packets), target, cycles)
}

/// Fridge stimulus, one record per cycle in [`FRIDGE_SPEED_INPUTS`] order: reset at the start (and rarely
/// later), the threshold and seed written through the CSR port, then [`fridge_packets`] offered in 95% of
/// the cycles (open loop, as for the RMW), CSR reads now and then, report and tally consumers ready 90%.
fn fridge_stimulus(cycles: u64, seed: u64) -> Vec<u64> {
    let packets = fridge_packets(cycles, seed);
    let mut rng = SmallRng::seed_from_u64(seed ^ 0xabcdef);
    let mut v = Vec::with_capacity(cycles as usize * FRIDGE_SPEED_INPUTS.len());
    let mut next = 0;
    let writes = [(CSR_THRESHOLD0, threshold_for(0.5)), (CSR_PRNG_SEED, 1)];
    for c in 0..cycles {
        let reset = c == 0 || rng.gen_ratio(1, 200_000);
        let (wr_en, addr, data) = match writes.get(c.wrapping_sub(1) as usize) {
            Some((a, d)) => (1, *a as u64, *d as u64),
            None => (0, rng.gen_range(0..16), 0),
        };
        let d = packets[next % packets.len()];
        let valid = c > 4 && rng.gen_bool(0.95);
        next += valid as usize;
        v.extend_from_slice(&[
            reset as u64,
            valid as u64,
            (d.kind == PacketKind::Request) as u64,
            d.id as u32 as u64,
            (d.id >> 32) as u32 as u64,
            (d.id >> 64) as u32 as u64,
            (d.id >> 96) as u32 as u64,
            d.timestamp,
            rng.gen_bool(0.9) as u64,
            addr,
            wr_en,
            data,
            rng.gen_ratio(1, 100) as u64,
            rng.gen_bool(0.9) as u64,
        ]);
    }
    v
}

/// Inputs of the fridge speed benchmark; the 128-bit id as four 32-bit words (the C++ loop writes the
/// words of Verilator's wide port).
const FRIDGE_SPEED_INPUTS: &[&str] = &[
    "reset",
    "in_valid",
    "in_request",
    "in_id[0]",
    "in_id[1]",
    "in_id[2]",
    "in_id[3]",
    "in_ts",
    "rep_ready",
    "csr_addr",
    "csr_wr_en",
    "csr_wr_data",
    "csr_rd_en",
    "tally_ready",
];

/// Outputs of the fridge speed benchmark; wide ports as their 32-bit words.
const FRIDGE_SPEED_OUTPUTS: &[&str] = &[
    "in_ready",
    "rep_valid",
    "rep_data[0]",
    "rep_data[1]",
    "rep_data[2]",
    "csr_rd_valid",
    "csr_rd_data",
    "tally_valid",
    "tally_data[0]",
    "tally_data[1]",
    "tally_data[2]",
    "tally_data[3]",
];

fn fridge_rust_loop(stim: &[u64], x_seed: u64) -> (u64, f64) {
    let mut sim = Sim::new(FridgeDp::new(x_seed), None);
    let mut sum = 0u64;
    let start = Instant::now();
    for r in stim.chunks_exact(FRIDGE_SPEED_INPUTS.len()) {
        let m = &mut sim.m;
        m.set_reset(r[0]);
        m.set_in_valid(r[1]);
        m.set_in_request(r[2]);
        m.set_in_id(r[3] as u128 | (r[4] as u128) << 32 | (r[5] as u128) << 64 | (r[6] as u128) << 96);
        m.set_in_ts(r[7]);
        m.set_rep_ready(r[8]);
        m.set_csr_addr(r[9]);
        m.set_csr_wr_en(r[10]);
        m.set_csr_wr_data(r[11]);
        m.set_csr_rd_en(r[12]);
        m.set_tally_ready(r[13]);
        sim.settle();
        let m = &sim.m;
        sum = fold(sum, m.in_ready());
        sum = fold(sum, m.rep_valid());
        sum = fold_words(sum, m.rep_data(), 3);
        sum = fold(sum, m.csr_rd_valid());
        sum = fold(sum, m.csr_rd_data());
        sum = fold(sum, m.tally_valid());
        sum = fold_words(sum, m.tally_data(), 4);
        sim.tick();
    }
    (sum, start.elapsed().as_secs_f64())
}

fn golden_fridge(n: u64, seed: u64) -> f64 {
    let packets = fridge_packets(n, seed);
    let cfg = FridgeConfig::default();
    let mut m = FridgeModel::new(&cfg, fridge_runtime()).expect("default fridge configuration");
    time(|| {
        for d in &packets {
            black_box(m.step(black_box(d)));
        }
    })
}
