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
//! Later cores plug in by adding a row to [`throughput_benches`], [`speed_benches`] and [`golden_benches`].

use sim::table::{flagged, Align::{Left, Right}, Table};
use golden::common::rmw::{RmwInputs, RmwModel};
use golden::common::sram::RamPorts;
use golden::fridge::cycle::{CSR_PRNG_SEED, CSR_THRESHOLD0};
use golden::fridge::{threshold_for, Descriptor, FridgeConfig, FridgeMode, FridgeModel, FridgeRuntime, PacketKind};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use testbench::blocks::rmw::{add_modify, RmwTop};
use testbench::harness::{RunConfig, Sim};
use testbench::fridge::FridgeTop;
use testbench::models::{Fridge4Dp, FridgeDp, FridgeSp, RmwDp, RmwSp};

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

// ---------------------------------------------------------------------------------------------------------
// Traffic

/// RMW traffic: `valid_p` of cycles offer a packet; of the packets, 15% go to the index of the packet accepted
/// just before, 8% to the one two back, 8% three back, the rest uniform; 20% have a zero delta (read only).
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
        let delta = if r.gen_ratio(1, 5) { 0 } else { r.gen::<u32>() as u128 };
        Some((index, delta))
    }
    fn accepted(&mut self, index: usize) {
        self.history = [index, self.history[0], self.history[1]];
    }
}

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
    pub fn per_cycle(&self) -> f64 {
        self.packets as f64 / self.cycles.max(1) as f64
    }
    fn ok(&self) -> bool {
        self.mismatches == 0 && (self.per_cycle() - self.target).abs() < 0.005
    }
}

/// Saturated traffic into an RMW top, checked against golden; counts cycles from the first ready cycle.
fn rmw_throughput<M: RmwTop>(
    top: &'static str,
    m: M,
    ports: RamPorts,
    packets: u64,
    seed: u64,
) -> Throughput {
    use hdl::tops::{RMW_TOP_ADDR_BITS, RMW_TOP_WIDTH};
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
        if out.ready.is_some_and(|r| r as u128 != rtl[0]) {
            mismatches += 1;
        }
        if let Some(p) = prev {
            match p {
                Some((i, old, new)) => {
                    mismatches +=
                        (rtl[1] != 1 || rtl[2] != i as u128 || rtl[3] != old || rtl[4] != new) as u64
                }
                None => mismatches += (rtl[1] != 0) as u64,
            }
        }
        prev =
            Some(out.stage.map(|st| {
                (st.index, st.old, (st.old + st.payload) & golden::common::mask128(RMW_TOP_WIDTH))
            }));
        let ready = rtl[0] == 1;
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

/// A fridge top at full rate (`testbench::fridge::run_trace`: a packet offered every cycle, RTL checked
/// against the golden cycle model every cycle); packets per cycle from the second accepted packet to the
/// last (the first waits in the front register through the table's reset sweep).
fn fridge_throughput<M: FridgeTop>(
    top: &'static str,
    make: fn(u64) -> M,
    packets: u64,
    seed: u64,
) -> Throughput {
    let ports = testbench::fridge::top_config(top).ports;
    let trace = fridge_packets(packets, seed);
    let b2b = trace.windows(2).filter(|w| w[0].id == w[1].id).count();
    let (cycles, mismatches) = match testbench::fridge::run_trace(top, &fridge_runtime(), &trace, make) {
        Ok(r) => (r.accept_cycles, 0),
        Err(e) => {
            eprintln!("[bench] {top}: {e}");
            (0, 1)
        }
    };
    Throughput {
        top,
        ports,
        packets: packets - 1,
        cycles,
        same_index_back_to_back: b2b as f64 / packets.max(1) as f64,
        mismatches,
        target: if ports == RamPorts::Dual { 1.0 } else { 0.5 },
    }
}

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
    let (cycles, mismatches) = match testbench::finecomb::run_trace(
        "finecomb",
        &shape,
        &rt.thresholds,
        &descs,
        testbench::models::Finecomb::new,
    ) {
        Ok(r) => (r.accept_cycles, 0),
        Err(e) => {
            eprintln!("[bench] finecomb: {e}");
            (0, 1)
        }
    };
    Throughput {
        top: "finecomb",
        ports: RamPorts::Dual,
        packets: descs.len() as u64,
        cycles,
        same_index_back_to_back: b2b as f64 / packets.max(1) as f64,
        mismatches,
        target: 1.0,
    }
}

/// Every throughput benchmark (later cores add theirs).
fn throughput_benches(packets: u64, seed: u64) -> Vec<Throughput> {
    vec![
        rmw_throughput("rmw_dp", RmwDp::new(seed), RamPorts::Dual, packets, seed),
        rmw_throughput("rmw_sp", RmwSp::new(seed), RamPorts::Single, packets, seed),
        fridge_throughput("fridge_dp", FridgeDp::new, packets, seed),
        fridge_throughput("fridge_sp", FridgeSp::new, packets, seed),
        fridge_throughput("fridge4_dp", Fridge4Dp::new, packets, seed),
        finecomb_throughput(packets, seed),
    ]
}

// ---------------------------------------------------------------------------------------------------------
// 2. Simulation speed: Rust harness vs plain C++ Verilator loop

/// Folds one output value into the checksum (the C++ loop does exactly the same).
#[inline(always)]
fn fold(sum: u64, v: u64) -> u64 {
    (sum ^ v).wrapping_mul(0x0000_0100_0000_01b3)
}

/// One simulation-speed comparison.
pub struct SpeedBench {
    pub top: &'static str,
    /// Input ports driven from the stimulus, in record order (clock excluded).
    pub inputs: &'static [&'static str],
    /// Output ports folded into the checksum, in order.
    pub outputs: &'static [&'static str],
    /// Makes the stimulus: `cycles` records of `inputs.len()` values.
    pub stimulus: fn(u64, u64) -> Vec<u64>,
    /// Runs the stimulus through the Rust harness: (checksum, seconds of the loop alone).
    pub rust: fn(&[u64], u64) -> (u64, f64),
}

fn rmw_stimulus(cycles: u64, seed: u64) -> Vec<u64> {
    // Like the co-simulation test: 90% valid, hazards, a reset at the start and rarely in between. The
    // offered packet is held until the model would accept it only approximately (no feedback here), which
    // does not matter for speed: both sides see the very same inputs.
    let mut t = RmwTraffic::new(seed, hdl::tops::RMW_TOP_ADDR_BITS, 0.9);
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

/// Folds the 32-bit words of a wide port, low word first.
fn fold_words(mut sum: u64, v: u128, words: usize) -> u64 {
    for w in 0..words {
        sum = fold(sum, (v >> (32 * w)) as u32 as u64);
    }
    sum
}

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

fn speed_benches() -> Vec<SpeedBench> {
    vec![
        SpeedBench {
            top: "rmw_dp",
            inputs: &["reset", "in_valid", "in_index", "in_delta"],
            outputs: &["in_ready", "out_valid", "out_index", "out_old", "out_new"],
            stimulus: rmw_stimulus,
            rust: rmw_rust_loop,
        },
        SpeedBench {
            top: "fridge_dp",
            inputs: FRIDGE_SPEED_INPUTS,
            outputs: FRIDGE_SPEED_OUTPUTS,
            stimulus: fridge_stimulus,
            rust: fridge_rust_loop,
        },
    ]
}

fn cpp_main(top: &str, inputs: &[&str], outputs: &[&str]) -> String {
    let k = inputs.len();
    let set: String = inputs.iter().enumerate().map(|(i, p)| format!("    m->{p} = r[{i}];\n")).collect();
    let get: String = outputs.iter().map(|p| format!("    sum = fold(sum, (uint64_t)m->{p});\n")).collect();
    format!(
        r#"// Plain C++ Verilator loop for `{top}` (generated by netmeas bench).
#include "V{top}.h"
#include "verilated.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
static inline uint64_t fold(uint64_t s, uint64_t v) {{ return (s ^ v) * 0x00000100000001b3ULL; }}
int main(int argc, char** argv) {{
  if (argc < 3) {{ std::fprintf(stderr, "usage: %s STIMULUS XSEED\n", argv[0]); return 2; }}
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) {{ std::perror(argv[1]); return 2; }}
  uint64_t n = 0;
  if (std::fread(&n, 8, 1, f) != 1) return 2;
  std::vector<uint64_t> s(n * {k});
  if (std::fread(s.data(), 8, s.size(), f) != s.size()) return 2;
  std::fclose(f);
  uint64_t xseed = std::strtoull(argv[2], nullptr, 10);
  VerilatedContext* ctx = new VerilatedContext;
  ctx->traceEverOn(true);
  ctx->randReset(2);
  ctx->randSeed((int)(xseed % 2147483646u) + 1);
  V{top}* m = new V{top}(ctx, "TOP");
  m->clock = 0;
  m->eval();
  uint64_t sum = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (uint64_t c = 0; c < n; c++) {{
    const uint64_t* r = &s[c * {k}];
{set}    m->eval();
{get}    m->clock = 1;
    m->eval();
    m->clock = 0;
    m->eval();
  }}
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%llu %.9f %llu\n", (unsigned long long)n, secs, (unsigned long long)sum);
  m->final();
  delete m;
  delete ctx;
  return 0;
}}
"#
    )
}

fn run_cmd(cmd: &mut Command, what: &str) -> Result<String, String> {
    let o = cmd.output().map_err(|e| format!("{what}: cannot run: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "{what} failed ({}):\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Builds the C++ loop for `b` from the Verilog the testbench models were built from, with the same
/// Verilator flags (testbench/build.rs) and -O2.
fn build_cpp(b: &SpeedBench, dir: &Path) -> Result<PathBuf, String> {
    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    let root = run_cmd(Command::new(&verilator).args(["--getenv", "VERILATOR_ROOT"]), "verilator --getenv")?
        .trim()
        .to_string();
    let include = Path::new(&root).join("include");
    let obj = dir.join("obj");
    let _ = std::fs::remove_dir_all(&obj);
    std::fs::create_dir_all(&obj).map_err(|e| format!("creating {}: {e}", obj.display()))?;
    let src = Path::new(testbench::VERILOG_DIR).join(format!("{}.v", b.top));
    run_cmd(
        Command::new(&verilator)
            .args(["--cc", "-O3", "--trace", "--x-initial", "unique", "--x-assign", "unique"])
            .args(["--top-module", b.top, "--prefix", &format!("V{}", b.top)])
            .arg("-Mdir")
            .arg(&obj)
            .arg(&src),
        "verilator",
    )?;
    let main = dir.join("bench_main.cpp");
    std::fs::write(&main, cpp_main(b.top, b.inputs, b.outputs)).map_err(|e| e.to_string())?;
    let mut cpps: Vec<PathBuf> = std::fs::read_dir(&obj)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .collect();
    cpps.sort();
    let exe = dir.join(format!("cpp_loop_{}", b.top));
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    run_cmd(
        Command::new(&cxx)
            .args(["-O2", "-std=c++17", "-faligned-new", "-w"])
            .args(["-DVM_COVERAGE=0", "-DVM_SC=0", "-DVM_TRACE=1", "-DVM_TRACE_VCD=1", "-DVM_TRACE_FST=0"])
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", include.join("vltstd").display()))
            .arg(format!("-I{}", obj.display()))
            .args(&cpps)
            .arg(&main)
            .args(["verilated.cpp", "verilated_vcd_c.cpp", "verilated_threads.cpp"].map(|f| include.join(f)))
            .arg("-o")
            .arg(&exe)
            .arg("-lpthread"),
        "compiling the C++ loop",
    )?;
    Ok(exe)
}

#[derive(Debug, Clone)]
pub struct Speed {
    pub top: &'static str,
    pub cycles: u64,
    pub rust_cps: f64,
    pub cpp_cps: f64,
    pub checksums_agree: bool,
}

impl Speed {
    pub fn ratio(&self) -> f64 {
        self.rust_cps / self.cpp_cps
    }
}

/// Best of the repetitions: the machine is shared (2 cores, builds running), and interference only ever
/// slows a run down, so the fastest run of each side is the fairest comparison.
fn best(v: Vec<f64>) -> f64 {
    v.into_iter().fold(0.0, f64::max)
}

fn sim_speed(b: &SpeedBench, args: &BenchArgs, say: &mut dyn FnMut(&str)) -> Result<Speed, String> {
    let dir = args.out.join(b.top);
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    say(&format!("{}: building the plain C++ Verilator loop", b.top));
    let exe = build_cpp(b, &dir)?;
    let stim = (b.stimulus)(args.cycles, args.seed);
    let file = dir.join("stimulus.bin");
    let mut bytes = Vec::with_capacity(8 + stim.len() * 8);
    bytes.extend_from_slice(&args.cycles.to_le_bytes());
    for v in &stim {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(&file, bytes).map_err(|e| format!("writing {}: {e}", file.display()))?;
    let x_seed = args.seed ^ 0x5eed;
    let (mut rust, mut cpp) = (Vec::new(), Vec::new());
    let mut agree = true;
    for i in 0..args.repeat {
        say(&format!("{}: run {}/{} (Rust harness, then C++ loop)", b.top, i + 1, args.repeat));
        let (rsum, rsec) = (b.rust)(&stim, x_seed);
        let out = run_cmd(Command::new(&exe).arg(&file).arg(x_seed.to_string()), "the C++ loop")?;
        let f: Vec<&str> = out.split_whitespace().collect();
        let csec: f64 = f.get(1).and_then(|s| s.parse().ok()).ok_or("C++ loop printed no time")?;
        let csum: u64 = f.get(2).and_then(|s| s.parse().ok()).ok_or("C++ loop printed no checksum")?;
        agree &= csum == rsum;
        rust.push(args.cycles as f64 / rsec);
        cpp.push(args.cycles as f64 / csec);
    }
    Ok(Speed {
        top: b.top,
        cycles: args.cycles,
        rust_cps: best(rust),
        cpp_cps: best(cpp),
        checksums_agree: agree,
    })
}

// ---------------------------------------------------------------------------------------------------------
// 3. Golden-model speed, side by side with RTL co-simulation

pub struct GoldenBench {
    pub block: &'static str,
    /// Runs `n` transactions of the golden model alone; returns seconds.
    pub golden: fn(u64, u64) -> f64,
}

fn time(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

fn golden_rmw(ports: RamPorts, n: u64, seed: u64) -> f64 {
    let mut t = RmwTraffic::new(seed, hdl::tops::RMW_TOP_ADDR_BITS, 0.9);
    let ins: Vec<RmwInputs> = (0..n)
        .map(|c| match t.offer() {
            Some((i, d)) => {
                t.accepted(i);
                RmwInputs { reset: c == 0, in_valid: true, in_index: i, in_payload: d }
            }
            None => RmwInputs { reset: c == 0, ..Default::default() },
        })
        .collect();
    let mut g = RmwModel::new(ports, hdl::tops::RMW_TOP_ADDR_BITS, hdl::tops::RMW_TOP_WIDTH);
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
    let mut units: Vec<HashUnitModel> = hdl::tops::HASH_TOP_KINDS
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
    let mut g = FifoModel::new(hdl::tops::FIFO_TOP_ADDR_BITS, hdl::tops::FIFO_TOP_WIDTH);
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
    let layout = hdl::tops::csr_top_layout();
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

/// Every golden-model benchmark; `block` names the `testbench::blocks::ALL` (or `fridge::ALL`, `finecomb::ALL`)
/// runner it is compared with.
fn golden_benches() -> Vec<GoldenBench> {
    vec![
        GoldenBench { block: "hash128", golden: |n, s| golden_hash(128, n, s) },
        GoldenBench { block: "hash104", golden: |n, s| golden_hash(104, n, s) },
        GoldenBench { block: "prng", golden: golden_prng },
        GoldenBench { block: "rmw_dp", golden: |n, s| golden_rmw(RamPorts::Dual, n, s) },
        GoldenBench { block: "rmw_sp", golden: |n, s| golden_rmw(RamPorts::Single, n, s) },
        GoldenBench { block: "fifo", golden: golden_fifo },
        GoldenBench { block: "csr", golden: golden_csr },
        GoldenBench { block: "fridge_dp", golden: golden_fridge },
        GoldenBench { block: "finecomb", golden: golden_finecomb },
    ]
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

// ---------------------------------------------------------------------------------------------------------

fn want(args: &BenchArgs, part: &str) -> bool {
    args.only.is_empty() || args.only.iter().any(|o| o == part)
}

/// Runs `netmeas bench`.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let quiet = args.json;
    let mut say = |m: &str| {
        if !quiet {
            eprintln!("[bench] {m}");
        }
    };
    let mut report = json!({
        "machine": crate::synth::machine(),
        "verilator": testbench::VERILATOR_VERSION,
        "seed": args.seed,
    });
    let mut failures = Vec::new();
    if want(args, "throughput") {
        say(&format!("throughput: {} packets per top, saturated", args.packets));
        let t = throughput_benches(args.packets, args.seed);
        if !quiet {
            println!("Throughput (saturated traffic, RTL checked against golden)");
            let mut table = Table::new(&[
                ("top", Left),
                ("RAM", Right),
                ("packets", Right),
                ("cycles", Right),
                ("packets/cycle", Right),
                ("target", Right),
                ("b2b", Right),
                ("mismatches", Right),
            ]);
            for x in &t {
                table.row(vec![
                    x.top.into(),
                    (if x.ports == RamPorts::Dual { "dual" } else { "sgl" }).into(),
                    x.packets.to_string().into(),
                    x.cycles.to_string().into(),
                    format!("{:.4}", x.per_cycle()).into(),
                    format!("{:.2}", x.target).into(),
                    format!("{:.1}%", 100.0 * x.same_index_back_to_back).into(),
                    x.mismatches.to_string().into(),
                ]);
            }
            print!("{}", table.text());
            println!();
        }
        for x in t.iter().filter(|x| !x.ok()) {
            failures.push(format!(
                "{}: {:.4} packets/cycle (target {}), {} mismatches",
                x.top,
                x.per_cycle(),
                x.target,
                x.mismatches
            ));
        }
        report["throughput"] = t
            .iter()
            .map(|x| {
                json!({"top": x.top, "ports": x.ports, "packets": x.packets, "cycles": x.cycles,
                       "packets_per_cycle": x.per_cycle(), "target": x.target,
                       "same_index_back_to_back": x.same_index_back_to_back, "mismatches": x.mismatches})
            })
            .collect::<Vec<Value>>()
            .into();
    }
    if want(args, "simspeed") {
        let mut rows = Vec::new();
        for b in speed_benches() {
            rows.push(sim_speed(&b, args, &mut say)?);
        }
        if !quiet {
            println!(
                "Simulation speed: Rust harness vs plain C++ Verilator loop ({} cycles, best of {})",
                args.cycles, args.repeat
            );
            let mut table = Table::new(&[
                ("top", Left),
                ("Rust M cycles/s", Right),
                ("C++ M cycles/s", Right),
                ("ratio", Right),
                ("checksums", Right),
            ]);
            for s in &rows {
                table.row(vec![
                    s.top.into(),
                    format!("{:.2}", s.rust_cps / 1e6).into(),
                    format!("{:.2}", s.cpp_cps / 1e6).into(),
                    format!("{:.0}%", 100.0 * s.ratio()).into(),
                    if s.checksums_agree { "agree".into() } else { flagged("differ") },
                ]);
            }
            print!("{}", table.text());
            println!();
        }
        for s in rows.iter().filter(|s| !s.checksums_agree || s.ratio() < 0.7) {
            failures.push(format!(
                "{}: harness at {:.0}% of C++ (checksums agree: {})",
                s.top,
                100.0 * s.ratio(),
                s.checksums_agree
            ));
        }
        report["simspeed"] = rows
            .iter()
            .map(|s| {
                json!({"top": s.top, "cycles": s.cycles, "rust_cycles_per_s": s.rust_cps, "cpp_cycles_per_s": s.cpp_cps,
                       "ratio": s.ratio(), "checksums_agree": s.checksums_agree})
            })
            .collect::<Vec<Value>>()
            .into();
    }
    if want(args, "golden") {
        let mut rows = Vec::new();
        for g in golden_benches() {
            say(&format!("golden vs co-simulation: {}", g.block));
            let secs = (g.golden)(args.transactions, args.seed);
            let runner = testbench::runners().into_iter().find(|(n, _)| *n == g.block).map(|r| r.1);
            let (cosim_tps, cosim_cps, clean) = match runner {
                Some(run) => {
                    let cfg = RunConfig {
                        seed: args.seed,
                        x_seed: args.seed ^ 0x5eed,
                        transactions: args.transactions,
                        vcd: None,
                    };
                    let r = run(&cfg);
                    (
                        r.transactions as f64 / r.seconds.max(1e-9),
                        r.cycles_per_second(),
                        r.scoreboard.is_clean(),
                    )
                }
                None => (f64::NAN, f64::NAN, true),
            };
            rows.push(GoldenSpeed {
                block: g.block,
                transactions: args.transactions,
                golden_tps: args.transactions as f64 / secs.max(1e-9),
                cosim_tps,
                cosim_cps,
                cosim_clean: clean,
            });
        }
        if !quiet {
            println!(
                "Golden-model speed vs RTL co-simulation ({} transactions each, release)",
                args.transactions
            );
            let mut table = Table::new(&[
                ("block", Left),
                ("golden M trans/s", Right),
                ("co-sim M trans/s", Right),
                ("co-sim M cycles/s", Right),
                ("match", Right),
            ]);
            for g in &rows {
                table.row(vec![
                    g.block.into(),
                    format!("{:.2}", g.golden_tps / 1e6).into(),
                    format!("{:.2}", g.cosim_tps / 1e6).into(),
                    format!("{:.2}", g.cosim_cps / 1e6).into(),
                    if g.cosim_clean { "yes".into() } else { flagged("no") },
                ]);
            }
            print!("{}", table.text());
            println!();
        }
        for g in rows.iter().filter(|g| !g.cosim_clean) {
            failures.push(format!("{}: co-simulation differs from golden", g.block));
        }
        report["golden"] = rows
            .iter()
            .map(|g| {
                json!({"block": g.block, "transactions": g.transactions, "golden_per_s": g.golden_tps,
                       "cosim_per_s": g.cosim_tps, "cosim_cycles_per_s": g.cosim_cps, "cosim_matches_golden": g.cosim_clean})
            })
            .collect::<Vec<Value>>()
            .into();
    }
    if quiet {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        println!("machine: {}; {}", crate::synth::machine(), testbench::VERILATOR_VERSION);
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("benchmark targets missed:\n  {}", failures.join("\n  ")))
    }
}
