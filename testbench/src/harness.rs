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

/// Implements [`Model`] for a wrapper around a model by delegating to its field `$f`:
/// `model_via!(impl<M: Model> AxiTop<M> => m);`.
#[macro_export]
macro_rules! model_via {
    (impl<$($g:ident $(: $b:path)?),*> $t:ty => $f:ident) => {
        impl<$($g $(: $b)?),*> $crate::harness::Model for $t {
            fn name(&self) -> &'static str {
                self.$f.name()
            }
            fn set_clock(&mut self, level: bool) {
                self.$f.set_clock(level)
            }
            fn eval(&mut self) {
                self.$f.eval()
            }
            fn trace_open(&mut self, path: &std::path::Path) -> bool {
                self.$f.trace_open(path)
            }
            fn dump(&mut self, t: u64) {
                self.$f.dump(t)
            }
        }
    };
}

/// The manifest that build.rs wrote beside the Verilog the models were built from (`hdl::emit`): every
/// top's ports and generation parameters. The testbench reads a top's configuration from it rather than
/// linking the RTL crate, so a co-simulation build compiles `hdl` once, as the build script's dependency.
pub const MANIFEST: &str = include_str!(concat!(env!("OUT_DIR"), "/verilog/manifest.json"));

/// [`MANIFEST`], parsed once.
pub fn manifest() -> &'static serde_json::Value {
    static TOPS: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    TOPS.get_or_init(|| serde_json::from_str(MANIFEST).expect("build.rs writes a JSON manifest"))
}

/// Top `name`'s entry (`name`, `ports`, `params`, …): one declared with [`register_top`], else the one in
/// [`MANIFEST`]; panics naming the top if neither has it.
pub fn top_entry(name: &str) -> serde_json::Value {
    let registered = runtime_tops().lock().unwrap_or_else(|e| e.into_inner()).get(name).cloned();
    registered.unwrap_or_else(|| {
        let tops = manifest()["tops"].as_array();
        let top = tops.and_then(|t| t.iter().find(|t| t["name"] == name));
        top.unwrap_or_else(|| panic!("no top {name} in the manifest")).clone()
    })
}

/// The generation-time configuration of top `name` (its `params` in [`top_entry`], e.g. a
/// `golden::fridge::FridgeConfig`); panics naming the top if it is not there or its parameters are not a `C`.
pub fn top_config<C: serde::de::DeserializeOwned>(name: &str) -> C {
    serde_json::from_value(top_entry(name)["params"].clone())
        .unwrap_or_else(|e| panic!("top {name}: its parameters are not a {}: {e}", std::any::type_name::<C>()))
}

fn runtime_tops() -> &'static std::sync::Mutex<std::collections::HashMap<String, serde_json::Value>> {
    static TOPS: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<String, serde_json::Value>>> =
        std::sync::OnceLock::new();
    TOPS.get_or_init(Default::default)
}

/// Declares a top that is not in [`MANIFEST`] (a configuration Verilated at run time,
/// `crate::runtime_model`) with its manifest entry — at least its generation parameters (`params`), and its
/// `ports` for an AXI flavour's `tdata` layouts ([`crate::axi_core::tdata_layout`]) — for [`top_entry`].
pub fn register_top(name: &str, entry: serde_json::Value) {
    runtime_tops().lock().unwrap_or_else(|e| e.into_inner()).insert(name.to_string(), entry);
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
    pub signal: String,
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
    pub fn check(&mut self, cycle: u64, signal: &str, expected: Option<u128>, actual: u128) {
        let Some(expected) = expected else { return };
        self.checks += 1;
        if expected != actual {
            self.mismatch(cycle, || signal.to_string(), expected, actual);
        }
    }
    /// Compares bits `hi..=lo` of a wide signal, named `signal[hi:lo]` (the name is only built for a mismatch).
    pub fn check_slice(
        &mut self,
        cycle: u64,
        signal: &str,
        lo: usize,
        hi: usize,
        expected: Option<u128>,
        actual: u128,
    ) {
        let Some(expected) = expected else { return };
        self.checks += 1;
        if expected != actual {
            self.mismatch(cycle, || format!("{signal}[{hi}:{lo}]"), expected, actual);
        }
    }
    fn mismatch(&mut self, cycle: u64, signal: impl FnOnce() -> String, expected: u128, actual: u128) {
        self.mismatches += 1;
        if self.first.is_none() {
            self.first = Some(Mismatch { cycle, signal: signal(), expected, actual });
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

/// Named coverage counters a runner fills ("same_id_back_to_back", "report_fifo_drops", "resets"…), so a
/// test can show that the situations it claims to exercise really occurred.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Coverage(Vec<(&'static str, u64)>);

impl Coverage {
    /// Adds `n` to counter `what` (a count of 0 still lists the counter).
    pub fn count(&mut self, what: &'static str, n: u64) {
        match self.0.iter_mut().find(|c| c.0 == what) {
            Some(c) => c.1 += n,
            None => self.0.push((what, n)),
        }
    }
    /// Counter `what` (0 if the runner does not count it).
    pub fn get(&self, what: &str) -> u64 {
        self.0.iter().find(|c| c.0 == what).map(|c| c.1).unwrap_or(0)
    }
    pub fn iter(&self) -> impl Iterator<Item = &(&'static str, u64)> {
        self.0.iter()
    }
    /// The counters of `must` still at zero.
    pub fn missing<'a>(&self, must: &[&'a str]) -> Vec<&'a str> {
        must.iter().copied().filter(|w| self.get(w) == 0).collect()
    }
}

impl fmt::Debug for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
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
    /// Named coverage counters of the traffic (resets, drops, same-address hazards…).
    pub coverage: Coverage,
    pub scoreboard: Scoreboard,
    pub seconds: f64,
}

impl RunReport {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
    /// A coverage counter by name (0 if the runner does not count it).
    pub fn covered(&self, what: &str) -> u64 {
        self.coverage.get(what)
    }
    /// Panics with the seed and the first differing cycle and signal unless RTL matched golden.
    pub fn assert_clean(&self) {
        assert!(self.scoreboard.checks > 0, "{}: nothing was compared (seed {})", self.block, self.scoreboard.seed);
        assert!(self.scoreboard.is_clean(), "{}", self.scoreboard);
    }
    /// Panics naming every counter of `must` still at zero, with the seed, unless all occurred.
    pub fn assert_covered(&self, must: &[&str]) {
        let missing = self.coverage.missing(must);
        assert!(
            missing.is_empty(),
            "{}: traffic never exercised {missing:?} (seed {seed}; reproduce with NETMEAS_SEED={seed}); coverage {:?}",
            self.block,
            self.coverage,
            seed = self.scoreboard.seed
        );
    }
}

/// A runner: block or core name plus the function that runs it.
pub type Runner = (&'static str, fn(&RunConfig) -> RunReport);

/// The test checker every randomized co-simulation test uses: runs `run` for `transactions` with the seed
/// of `test` (`NETMEAS_SEED`, else fresh; printed) and waveform from `NETMEAS_VCD_DIR`; prints cycles,
/// speed and coverage; demands that RTL matched golden in every check (else the seed and first mismatch),
/// that something was compared, that the run drove all its transactions and that every counter of
/// `must_cover` occurred. Returns the report for the test's own further demands.
pub fn check(test: &str, run: fn(&RunConfig) -> RunReport, transactions: u64, must_cover: &[&str]) -> RunReport {
    let r = run(&RunConfig::for_test(test, transactions));
    eprintln!("[{test}] {} cycles, {:.2} M cycles/s, coverage {:?}", r.cycles, r.cycles_per_second() / 1e6, r.coverage);
    r.assert_clean();
    assert!(r.transactions >= transactions, "{}: only {} of {transactions} transactions", r.block, r.transactions);
    r.assert_covered(must_cover);
    r
}

/// Power-up state must not matter: every runner of `runners`, on the traffic of `test`'s seed
/// (`transactions` each), under every X seed of `x_seeds` and the test seed, matches golden.
pub fn check_x_initial(test: &str, runners: &[Runner], x_seeds: &[u64], transactions: u64) {
    let base = RunConfig::for_test(test, transactions);
    for x_seed in x_seeds.iter().copied().chain([base.seed]) {
        let cfg = RunConfig { x_seed, vcd: None, ..base.clone() };
        for (name, f) in runners {
            let r = f(&cfg);
            assert!(r.scoreboard.is_clean(), "x_seed {x_seed}, {name}: {}", r.scoreboard);
            assert!(r.scoreboard.checks > 0, "x_seed {x_seed}, {name}: nothing was compared");
        }
    }
}
