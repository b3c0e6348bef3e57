//! Benchmarks of the shared blocks: the RMW pipeline's throughput and simulation speed, and the golden
//! models of the hash units, PRNG, RMW, FIFO and CSR bank.

use super::simspeed::{fold, SpeedBench};
use super::{time, CoreBenches, GoldenBench, Throughput};
use golden::common::rmw::{RmwInputs, RmwModel};
use golden::common::sram::RamPorts;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::time::Instant;
use testbench::blocks::rmw::{add_modify, RmwTop};
use testbench::harness::Sim;
use testbench::models::{RmwDp, RmwSp};

pub const BENCHES: CoreBenches = CoreBenches {
    throughput: |packets, seed| {
        vec![
            rmw_throughput("rmw_dp", RmwDp::new(seed), RamPorts::Dual, packets, seed),
            rmw_throughput("rmw_sp", RmwSp::new(seed), RamPorts::Single, packets, seed),
        ]
    },
    speed: || {
        vec![SpeedBench {
            top: "rmw_dp",
            inputs: &["reset", "in_valid", "in_index", "in_delta"],
            outputs: &["in_ready", "out_valid", "out_index", "out_old", "out_new"],
            stimulus: rmw_stimulus,
            rust: rmw_rust_loop,
        }]
    },
    golden: || {
        vec![
            GoldenBench { block: "hash128", golden: |n, s| golden_hash(128, n, s) },
            GoldenBench { block: "hash104", golden: |n, s| golden_hash(104, n, s) },
            GoldenBench { block: "prng", golden: golden_prng },
            GoldenBench { block: "rmw_dp", golden: |n, s| golden_rmw(RamPorts::Dual, n, s) },
            GoldenBench { block: "rmw_sp", golden: |n, s| golden_rmw(RamPorts::Single, n, s) },
            GoldenBench { block: "fifo", golden: golden_fifo },
            GoldenBench { block: "csr", golden: golden_csr },
        ]
    },
};

/// RMW traffic: `valid_p` of cycles offer a packet; of the packets, 15% go to the index of the packet accepted
/// just before, 8% to the one two back, 8% three back, the rest uniform; 20% have a zero delta (read only:
/// the RMW top writes odd deltas), the others an odd one.
struct RmwTraffic {
    rng: SmallRng,
    depth: usize,
    valid_p: f64,
    history: [usize; 3],
}

impl RmwTraffic {
    fn new(seed: u64, addr_bits: usize, valid_p: f64) -> Self {
        RmwTraffic { rng: SmallRng::seed_from_u64(seed), depth: 1 << addr_bits, valid_p, history: [0; 3] }
    }
    fn offer(&mut self) -> Option<(usize, u128)> {
        let r = &mut self.rng;
        if !r.gen_bool(self.valid_p) {
            return None;
        }
        let index = match r.gen_range(0..100) {
            0..=14 => self.history[0],
            15..=22 => self.history[1],
            23..=30 => self.history[2],
            _ => r.gen_range(0..self.depth),
        };
        let delta = if r.gen_ratio(1, 5) { 0 } else { (r.gen::<u32>() | 1) as u128 };
        Some((index, delta))
    }
    fn accepted(&mut self, index: usize) {
        self.history = [index, self.history[0], self.history[1]];
    }
}

/// Saturated traffic into an RMW top, checked against golden; counts cycles from the first ready cycle.
fn rmw_throughput<M: RmwTop>(top: &'static str, m: M, ports: RamPorts, packets: u64, seed: u64) -> Throughput {
    use golden::common::tops::{RMW_TOP_ADDR_BITS, RMW_TOP_WIDTH};
    let mut sim = Sim::new(m, None);
    let mut gold = RmwModel::new(ports, RMW_TOP_ADDR_BITS, RMW_TOP_WIDTH);
    let mut traffic = RmwTraffic::new(seed, RMW_TOP_ADDR_BITS, 1.0);
    let (mut accepted, mut cycles, mut b2b, mut mismatches) = (0u64, 0u64, 0u64, 0u64);
    let mut started = false;
    let mut pending: Option<(usize, u128)> = None;
    let mut prev: Option<Option<(usize, u128, u128)>> = None;
    let mut last_index: Option<usize> = None;
    while accepted < packets {
        let reset = sim.cycle == 0;
        if pending.is_none() {
            pending = traffic.offer();
        }
        let (idx, delta) = pending.unwrap_or((0, 0));
        let inp = RmwInputs { reset, in_valid: pending.is_some(), in_index: idx, in_payload: delta };
        sim.m.drive(&inp);
        sim.settle();
        let out = gold.step(&inp, add_modify);
        let rtl = sim.m.outputs();
        if out.ready.is_some_and(|r| r != rtl.in_ready) {
            mismatches += 1;
        }
        if let Some(p) = prev {
            match p {
                Some((i, old, new)) => {
                    mismatches +=
                        (!rtl.out_valid || rtl.out_index != i as u64 || rtl.out_old != old || rtl.out_new != new) as u64
                }
                None => mismatches += rtl.out_valid as u64,
            }
        }
        prev = Some(
            out.stage.map(|st| (st.index, st.old, (st.old + st.payload) & golden::common::mask128(RMW_TOP_WIDTH))),
        );
        let ready = rtl.in_ready;
        started |= ready;
        if started {
            cycles += 1;
        }
        if !reset && ready && inp.in_valid {
            accepted += 1;
            b2b += (last_index == Some(idx)) as u64;
            last_index = Some(idx);
            traffic.accepted(idx);
            pending = None;
        }
        sim.tick();
    }
    Throughput {
        top,
        ports,
        packets: accepted,
        cycles,
        same_index_back_to_back: b2b as f64 / accepted.max(1) as f64,
        mismatches,
        target: if ports == RamPorts::Dual { 1.0 } else { 0.5 },
    }
}

fn rmw_stimulus(cycles: u64, seed: u64) -> Vec<u64> {
    // Like the co-simulation test: 90% valid, hazards, a reset at the start and rarely in between. The
    // offered packet is held until the model would accept it only approximately (no feedback here), which
    // does not matter for speed: both sides see the very same inputs.
    let mut t = RmwTraffic::new(seed, golden::common::tops::RMW_TOP_ADDR_BITS, 0.9);
    let mut rng = SmallRng::seed_from_u64(seed ^ 0xabcdef);
    let mut v = Vec::with_capacity(cycles as usize * 4);
    for c in 0..cycles {
        let reset = c == 0 || rng.gen_ratio(1, 50_000);
        let (valid, idx, delta) = match t.offer() {
            Some((i, d)) => {
                t.accepted(i);
                (1, i as u64, d as u64)
            }
            None => (0, 0, 0),
        };
        v.extend_from_slice(&[reset as u64, valid, idx, delta]);
    }
    v
}

fn rmw_rust_loop(stim: &[u64], x_seed: u64) -> (u64, f64) {
    let mut sim = Sim::new(RmwDp::new(x_seed), None);
    let mut sum = 0u64;
    let start = Instant::now();
    for r in stim.chunks_exact(4) {
        let m = &mut sim.m;
        m.set_reset(r[0]);
        m.set_in_valid(r[1]);
        m.set_in_index(r[2]);
        m.set_in_delta(r[3]);
        sim.settle();
        let m = &sim.m;
        sum = fold(sum, m.in_ready());
        sum = fold(sum, m.out_valid());
        sum = fold(sum, m.out_index());
        sum = fold(sum, m.out_old());
        sum = fold(sum, m.out_new());
        sim.tick();
    }
    (sum, start.elapsed().as_secs_f64())
}

fn golden_rmw(ports: RamPorts, n: u64, seed: u64) -> f64 {
    let mut t = RmwTraffic::new(seed, golden::common::tops::RMW_TOP_ADDR_BITS, 0.9);
    let ins: Vec<RmwInputs> = (0..n)
        .map(|c| match t.offer() {
            Some((i, d)) => {
                t.accepted(i);
                RmwInputs { reset: c == 0, in_valid: true, in_index: i, in_payload: d }
            }
            None => RmwInputs { reset: c == 0, ..Default::default() },
        })
        .collect();
    let mut g = RmwModel::new(ports, golden::common::tops::RMW_TOP_ADDR_BITS, golden::common::tops::RMW_TOP_WIDTH);
    time(|| {
        for i in &ins {
            black_box(g.step(black_box(i), add_modify));
        }
    })
}

fn golden_hash(key_bits: usize, n: u64, seed: u64) -> f64 {
    use golden::common::hash::{HashUnitModel, XorHash};
    let mut rng = SmallRng::seed_from_u64(seed);
    let keys: Vec<u128> = (0..n).map(|_| rng.gen::<u128>() & golden::common::mask128(key_bits)).collect();
    let mut units: Vec<HashUnitModel> = golden::common::tops::HASH_TOP_KINDS
        .iter()
        .map(|k| HashUnitModel::new(XorHash::new(*k, key_bits).expect("valid hash")))
        .collect();
    time(|| {
        for k in &keys {
            for u in units.iter_mut() {
                black_box(u.step(black_box(*k)));
            }
        }
    })
}

fn golden_fifo(n: u64, seed: u64) -> f64 {
    use golden::common::fifo::{FifoInputs, FifoModel};
    let mut rng = SmallRng::seed_from_u64(seed);
    let ins: Vec<FifoInputs> = (0..n)
        .map(|c| FifoInputs {
            reset: c == 0,
            in_valid: rng.gen_bool(0.6),
            in_data: rng.gen::<u64>() as u128,
            out_ready: rng.gen_bool(0.5),
        })
        .collect();
    let mut g = FifoModel::new(golden::common::tops::FIFO_TOP_ADDR_BITS, golden::common::tops::FIFO_TOP_WIDTH);
    time(|| {
        for i in &ins {
            black_box(g.step(black_box(i)));
        }
    })
}

fn golden_prng(n: u64, seed: u64) -> f64 {
    use golden::common::prng::{PrngInputs, PrngModel};
    let mut rng = SmallRng::seed_from_u64(seed);
    let ins: Vec<PrngInputs> = (0..n)
        .map(|c| PrngInputs {
            reset: c == 0,
            seed_load: rng.gen_ratio(1, 1000),
            seed: rng.gen(),
            advance: rng.gen_bool(0.8),
        })
        .collect();
    let mut g = PrngModel::new();
    time(|| {
        for i in &ins {
            black_box(g.step(black_box(i)));
        }
    })
}

fn golden_csr(n: u64, seed: u64) -> f64 {
    use golden::common::csr::{CsrInputs, CsrModel};
    let mut rng = SmallRng::seed_from_u64(seed);
    let layout = golden::common::tops::csr_top_layout();
    let ns = layout.status.len();
    let ins: Vec<CsrInputs> = (0..n)
        .map(|c| CsrInputs {
            reset: c == 0,
            addr: rng.gen_range(0..24),
            wr_en: rng.gen_bool(0.3),
            wr_data: rng.gen(),
            rd_en: rng.gen_bool(0.5),
            status: (0..ns).map(|_| rng.gen()).collect(),
        })
        .collect();
    let mut g = CsrModel::new(layout);
    time(|| {
        for i in &ins {
            black_box(g.step(black_box(i)));
        }
    })
}
