//! Co-simulation harness: clocking with optional VCD, seeds, and the cycle-by-cycle scoreboard.
//!
//! Cycle protocol (every runner follows it): set the inputs of cycle `c`, [`Sim::settle`] (evaluates with
//! the clock low; the outputs are now those *during* cycle `c`, which is what the golden `step` returns),
//! compare, then [`Sim::tick`] (rising edge, then falling edge). VCD time of cycle `c` is `10c`, its rising
//! edge `10c + 5`.

use rand::RngCore;
use std::fmt;
use std::path::PathBuf;

/// A port as Verilator sees it.
#[derive(Debug, Clone, Copy)]
pub struct PortInfo {
    pub name: &'static str,
    pub input: bool,
    pub width: usize,
}

/// What every generated model offers besides its ports.
pub trait Model {
    fn name(&self) -> &'static str;
    fn set_clock(&mut self, level: bool);
    fn eval(&mut self);
    /// Starts a VCD waveform; false if the file cannot be opened.
    fn trace_open(&mut self, path: &std::path::Path) -> bool;
    fn dump(&mut self, t: u64);
}

/// The generation-time configuration of top `name` in one of hdl's lists of `(name, configuration)`
/// (`hdl::tops::fridge_tops()`, `finecomb_tops()`, …); panics naming the top if it is not there.
pub fn top_config<C>(tops: Vec<(&'static str, C)>, name: &str) -> C {
    tops.into_iter().find(|(n, _)| *n == name).map(|(_, c)| c).unwrap_or_else(|| panic!("no top {name} in hdl's list"))
}

/// A model plus its cycle counter and waveform switch.
pub struct Sim<M: Model> {
    pub m: M,
    pub cycle: u64,
    tracing: bool,
}

impl<M: Model> Sim<M> {
    /// Wraps `m`; writes `vcd` if given (panics with the path if it cannot be written: a test that asked
    /// for a waveform must not silently run without one). The clock starts low.
    pub fn new(mut m: M, vcd: Option<PathBuf>) -> Self {
        let tracing = vcd.is_some();
        if let Some(p) = vcd {
            if let Some(dir) = p.parent() {
                std::fs::create_dir_all(dir)
                    .unwrap_or_else(|e| panic!("cannot create waveform directory {}: {e}", dir.display()));
            }
            assert!(m.trace_open(&p), "cannot write waveform {}", p.display());
        }
        m.set_clock(false);
        m.eval();
        Sim { m, cycle: 0, tracing }
    }
    /// Evaluates the inputs of this cycle with the clock low.
    pub fn settle(&mut self) {
        self.m.eval();
        if self.tracing {
            self.m.dump(10 * self.cycle);
        }
    }
    /// Rising edge (end of this cycle), then falling edge; advances the cycle counter.
    pub fn tick(&mut self) {
        self.m.set_clock(true);
        self.m.eval();
        if self.tracing {
            self.m.dump(10 * self.cycle + 5);
        }
        self.m.set_clock(false);
        self.m.eval();
        self.cycle += 1;
    }
}

/// Where `NETMEAS_VCD_DIR` asks the waveform of `test` to go.
pub fn vcd_path(test: &str) -> Option<PathBuf> {
    std::env::var_os("NETMEAS_VCD_DIR").map(|d| vcd_path_in(std::path::Path::new(&d), test))
}

/// The waveform file of `test` in `dir`: `<dir>/<test>.vcd`.
pub fn vcd_path_in(dir: &std::path::Path, test: &str) -> PathBuf {
    dir.join(format!("{test}.vcd"))
}

/// The seed of a randomized run: `NETMEAS_SEED` (decimal or 0x-hex) if set, else fresh entropy. Printed,
/// so a failing run can be reproduced.
pub fn seed_for(test: &str) -> u64 {
    let seed = match std::env::var("NETMEAS_SEED") {
        Ok(s) => {
            let s = s.trim();
            let parsed = match s.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => s.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("NETMEAS_SEED={s:?} is not a decimal or 0x-hex u64"))
        }
        Err(_) => fresh_seed(),
    };
    eprintln!("[{test}] seed = {seed} (reproduce: NETMEAS_SEED={seed})");
    seed
}

/// A new random seed from the operating system.
pub fn fresh_seed() -> u64 {
    rand::rngs::OsRng.next_u64()
}

/// The first difference between RTL and golden.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub cycle: u64,
    pub signal: &'static str,
    pub expected: u128,
    pub actual: u128,
}

/// Compares RTL against golden cycle by cycle, counting mismatches and keeping the first.
#[derive(Debug, Clone)]
pub struct Scoreboard {
    pub block: String,
    pub seed: u64,
    pub checks: u64,
    pub mismatches: u64,
    pub first: Option<Mismatch>,
}

impl Scoreboard {
    pub fn new(block: &str, seed: u64) -> Self {
        Scoreboard { block: block.into(), seed, checks: 0, mismatches: 0, first: None }
    }
    /// Compares one signal; `expected = None` means the golden model leaves it undefined (not compared).
    pub fn check(&mut self, cycle: u64, signal: &'static str, expected: Option<u128>, actual: u128) {
        let Some(expected) = expected else { return };
        self.checks += 1;
        if expected != actual {
            self.mismatches += 1;
            if self.first.is_none() {
                self.first = Some(Mismatch { cycle, signal, expected, actual });
            }
        }
    }
    pub fn is_clean(&self) -> bool {
        self.mismatches == 0
    }
}

impl fmt::Display for Scoreboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.first {
            None => write!(f, "{}: {} checks, no mismatch (seed {})", self.block, self.checks, self.seed),
            Some(m) => write!(
                f,
                "{}: RTL differs from golden (seed {seed}; reproduce with NETMEAS_SEED={seed}): first at cycle {}, \
                 signal `{}`: expected {:#x}, got {:#x}; {} mismatching checks of {}",
                self.block,
                m.cycle,
                m.signal,
                m.expected,
                m.actual,
                self.mismatches,
                self.checks,
                seed = self.seed
            ),
        }
    }
}

/// Settings of one randomized co-simulation run.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// Traffic seed.
    pub seed: u64,
    /// Seed of the random power-up state of the model (`--x-initial unique`).
    pub x_seed: u64,
    /// Transactions to drive (packets, accesses, pushes… per block).
    pub transactions: u64,
    /// Waveform file, if wanted.
    pub vcd: Option<PathBuf>,
}

impl RunConfig {
    /// Traffic and X seeds from one test seed; VCD from `NETMEAS_VCD_DIR`.
    pub fn for_test(test: &str, transactions: u64) -> Self {
        let seed = seed_for(test);
        RunConfig { seed, x_seed: seed.rotate_left(17) ^ 0x9e37_79b9, transactions, vcd: vcd_path(test) }
    }
}

/// Result of one run.
#[derive(Debug, Clone)]
pub struct RunReport {
    pub block: String,
    pub cycles: u64,
    pub transactions: u64,
    /// Named coverage counters of the traffic (resets, drops, same-address hazards…), so a test can show
    /// that the situations it claims to exercise really occurred.
    pub coverage: Vec<(&'static str, u64)>,
    pub scoreboard: Scoreboard,
    pub seconds: f64,
}

impl RunReport {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
    /// A coverage counter by name (0 if the runner does not count it).
    pub fn covered(&self, what: &str) -> u64 {
        self.coverage.iter().find(|c| c.0 == what).map(|c| c.1).unwrap_or(0)
    }
    /// Panics with the seed and the first differing cycle and signal unless RTL matched golden.
    pub fn assert_clean(&self) {
        assert!(self.scoreboard.checks > 0, "{}: nothing was compared", self.block);
        assert!(self.scoreboard.is_clean(), "{}", self.scoreboard);
    }
}
