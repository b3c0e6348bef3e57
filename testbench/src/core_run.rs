//! The per-cycle step every core runner shares: drive the Verilated top, settle, step the golden cycle
//! model, compare, check the CSR read-back, tick ([`cycle`]); and the run-loop pieces the core runs share:
//! [`CoreRun`] (a randomized run: bookkeeping, simulation, golden model, CSR driver), [`TraceSim`] (a
//! full-rate trace, checked every cycle, with a cycle limit), [`Stall`] (a consumer stalling in phases),
//! [`Held`] (a descriptor held until accepted), [`MidReset`]. A core supplies its traffic, its port mapping
//! ([`CoreTop`]: `drive` and the typed outputs of `top_outputs!`) and its coverage names
//! (`coverage_names!`).

use crate::blocks::Run;
use crate::csr_driver::CsrDriver;
use crate::harness::{Model, RunConfig, RunReport, Scoreboard, Sim};
use golden::common::csr::CsrLayout;
use rand::Rng;

/// The coverage counter of resets, which every runner counts (`Run::reset_now` among them).
pub const RESETS: &str = "resets";

/// Declares a runner's coverage counter names once, as `pub mod cov` of constants named as their counters
/// (`cov::resets == "resets"`): the runner counts and its tests demand through the same constants, so a
/// misspelt name does not compile (a bare string would silently read 0).
#[macro_export]
macro_rules! coverage_names {
    ($($name:ident),* $(,)?) => {
        /// The names of this runner's coverage counters (see `coverage_names!`).
        #[allow(non_upper_case_globals)]
        pub mod cov {
            $( pub const $name: &str = stringify!($name); )*
            /// Every counter, in declaration order.
            pub const ALL: &[&str] = &[$(stringify!($name)),*];
        }
    };
}

/// A golden cycle model: one clock cycle, inputs to outputs. (Implemented here for the golden models the
/// core runners use; golden's own `step` methods stay inherent.)
pub trait GoldenCycle {
    type Inputs;
    type Outputs;
    fn step(&mut self, i: &Self::Inputs) -> Self::Outputs;
}

macro_rules! golden_cycle {
    ($($model:ty => $i:ty, $o:ty;)*) => {$(
        impl GoldenCycle for $model {
            type Inputs = $i;
            type Outputs = $o;
            fn step(&mut self, i: &$i) -> $o {
                <$model>::step(self, i)
            }
        }
    )*};
}
// (The tally's model is implemented in `fridge_tally`: its outputs there carry the FIFO's drop counter.)
use golden::finecomb::cycle as fc;
use golden::fridge::cycle as fr;
use golden::ifpd::cycle as ifpd;
use golden::reordering::cycle as ro;
golden_cycle! {
    fr::FridgeCycleModel => fr::FridgeInputs, fr::FridgeOutputs;
    fc::FinecombCycleModel => fc::FinecombInputs, fc::FinecombOutputs;
    fc::FrontModel => fc::FrontInputs, fc::FrontOutputs;
    fc::RecordStageModel => fc::RecordStageInputs, fc::RecordStageOutputs;
    ro::ReorderCycleModel => ro::ReorderInputs, ro::ReorderOutputs;
    ifpd::IfpdCycleModel => ifpd::IfpdInputs, ifpd::IfpdOutputs;
    golden::maple::cycle::MapleCycleModel => golden::maple::cycle::MapleInputs, golden::maple::cycle::MapleOutputs;
    golden::reordering::hybrid_cycle::HybridCycleModel =>
        golden::reordering::hybrid_cycle::HybridInputs, golden::reordering::hybrid_cycle::HybridOutputs;
}

/// The port mapping of a Verilated top: golden inputs onto its input ports, its outputs read and compared
/// with golden's.
pub trait CoreTop: Model {
    /// The golden model's inputs for one cycle.
    type Inputs;
    /// What drives the input ports golden leaves undefined (e.g. the descriptor while `in_valid` is low).
    type Garbage;
    /// The golden model's outputs for one cycle.
    type Expected;
    /// The top's outputs as read in one cycle (`()` for a top compared straight from its ports).
    type Outputs;
    fn drive(&mut self, i: &Self::Inputs, garbage: &Self::Garbage);
    /// Reads this cycle's outputs and compares them with golden's.
    fn compare(&self, sb: &mut Scoreboard, cycle: u64, expected: &Self::Expected) -> Self::Outputs;
    /// The CSR read-back of this cycle, for a top with a CSR port: (a read is requested, `csr_rd_valid` as
    /// the RTL shows it).
    fn csr_read_back(_i: &Self::Inputs, _o: &Self::Outputs) -> Option<(bool, bool)> {
        None
    }
    /// The registers are reached over a bus that answers on its own timing (an AXI flavour): a runner
    /// that checks CSR read-backs itself (several CSR ports) leaves them to the bus comparison.
    fn csr_on_bus() -> bool {
        false
    }
    /// The inputs golden steps with this cycle, if the top changes them: an AXI flavour puts its AXI4-Lite
    /// slave's requests on the core's CSR port ([`crate::axi_core`]). Called before `drive`.
    fn route(&mut self, _cycle: u64, _i: &Self::Inputs) -> Option<Self::Inputs> {
        None
    }
    /// After the comparison, with golden's outputs of the cycle (an AXI flavour steps its bus model here).
    fn after(&mut self, _sb: &mut Scoreboard, _cycle: u64, _expected: &Self::Expected) {}
}

/// Implements [`CoreTop`] for tops whose outputs come from `top_outputs!` and that have the standard CSR
/// port: `core_top!(FridgeDp, FridgeSp => FridgeInputs, Descriptor, golden::…::FridgeOutputs, FridgeOutputs;
/// |m, i, garbage| { … })`. A top with other CSR ports names its read-back check after the drive block:
/// `…; |m, i, garbage| { … }; read_back |i, o| { … })` (`None`: no check beyond the output comparison).
#[macro_export]
macro_rules! core_top {
    (
        $($model:ty),+ => $inputs:ty, $garbage:ty, $expected:ty, $outputs:ty;
        |$m:ident, $i:ident, $g:ident| $drive:block
    ) => {
        $crate::core_top!(
            $($model),+ => $inputs, $garbage, $expected, $outputs;
            |$m, $i, $g| $drive;
            read_back |ri, ro| {
                use $crate::csr_driver::CsrPort;
                Some((ri.csr_read() && !ri.reset(), ro.csr_rd_valid))
            }
        );
    };
    (
        $($model:ty),+ => $inputs:ty, $garbage:ty, $expected:ty, $outputs:ty;
        |$m:ident, $i:ident, $g:ident| $drive:block;
        read_back |$ri:ident, $ro:ident| $read_back:block
    ) => {$(
        impl $crate::core_run::CoreTop for $model {
            type Inputs = $inputs;
            type Garbage = $garbage;
            type Expected = $expected;
            type Outputs = $outputs;
            fn drive(&mut self, $i: &$inputs, $g: &$garbage) {
                let $m = self;
                $drive
            }
            fn compare(&self, sb: &mut $crate::harness::Scoreboard, cycle: u64, expected: &$expected) -> $outputs {
                let o = $crate::ports::ReadOutputs::outputs(self);
                o.compare(sb, cycle, expected);
                o
            }
            fn csr_read_back($ri: &$inputs, $ro: &$outputs) -> Option<(bool, bool)> {
                $read_back
            }
        }
    )+};
}

/// Declares `$name`, a [`CoreTop`] with the given inputs, garbage, expected and output types, implemented by
/// every such top: `top_trait!(pub FridgeTop => FridgeInputs, Descriptor, GoldenOutputs, FridgeOutputs);`
/// (what a core's runners take: `fn run_top<M: FridgeTop>(…)`).
#[macro_export]
macro_rules! top_trait {
    ($(#[$m:meta])* $vis:vis $name:ident => $inputs:ty, $garbage:ty, $expected:ty, $outputs:ty) => {
        $(#[$m])*
        $vis trait $name:
            $crate::core_run::CoreTop<Inputs = $inputs, Garbage = $garbage, Expected = $expected, Outputs = $outputs>
        {
        }
        impl<T> $name for T where
            T: $crate::core_run::CoreTop<Inputs = $inputs, Garbage = $garbage, Expected = $expected, Outputs = $outputs>
        {
        }
    };
}

/// What one [`cycle`] saw: its number, golden's outputs and the RTL's.
pub struct Cycle<E, O> {
    pub c: u64,
    pub e: E,
    pub o: O,
}

/// One clock cycle of a co-simulation: drive `i` (and `garbage` on the undefined pins), settle, step the
/// golden model, compare every output, check the CSR read-back (with `csr`), tick.
pub fn cycle<T, G>(
    sim: &mut Sim<T>,
    gold: &mut G,
    sb: &mut Scoreboard,
    csr: Option<&mut CsrDriver>,
    i: &T::Inputs,
    garbage: &T::Garbage,
) -> Cycle<T::Expected, T::Outputs>
where
    T: CoreTop,
    G: GoldenCycle<Inputs = T::Inputs, Outputs = T::Expected>,
{
    let c = sim.cycle;
    let routed = sim.m.route(c, i);
    let i = routed.as_ref().unwrap_or(i);
    sim.m.drive(i, garbage);
    sim.settle();
    let e = gold.step(i);
    let o = sim.m.compare(sb, c, &e);
    sim.m.after(sb, c, &e);
    if let (Some(csr), Some((read, rd_valid))) = (csr, T::csr_read_back(i, &o)) {
        csr.observe_read(sb, c, read, rd_valid);
    }
    sim.tick();
    Cycle { c, e, o }
}

/// A consumer (report or record reader) that stalls for long phases: each cycle a phase of
/// `len` cycles starts with probability `1 / one_in` (when none runs).
pub struct Stall {
    left: u32,
    one_in: u32,
    len: std::ops::Range<u32>,
}

impl Stall {
    pub fn new(one_in: u32, len: std::ops::Range<u32>) -> Self {
        Stall { left: 0, one_in, len }
    }
    /// Advances one cycle; true when a stall phase starts in it.
    pub fn step(&mut self, r: &mut impl Rng) -> bool {
        let started = self.left == 0 && r.gen_ratio(1, self.one_in);
        if started {
            self.left = r.gen_range(self.len.clone());
        }
        self.left = self.left.saturating_sub(1);
        started
    }
    /// The consumer's ready this cycle: not stalled, and ready with probability `p` otherwise.
    pub fn ready(&self, r: &mut impl Rng, p: f64) -> bool {
        self.left == 0 && r.gen_bool(p)
    }
}

/// The one reset in the middle of a randomized run: due once, when half the transactions are in.
pub struct MidReset(bool);

impl Default for MidReset {
    fn default() -> Self {
        MidReset(true)
    }
}

impl MidReset {
    /// True in the first cycle with `done ≥ total / 2`, false before and after.
    pub fn now(&mut self, done: u64, total: u64) -> bool {
        let halfway = self.0 && done >= total / 2;
        self.0 &= !halfway;
        halfway
    }
}

/// A descriptor offered like a real source: once offered it stays until accepted (or a reset drops it).
pub struct Held<D>(pub Option<D>);

impl<D: Copy> Held<D> {
    pub fn new() -> Self {
        Held(None)
    }
    /// Is the source free to offer a new descriptor (none held)?
    pub fn is_free(&self) -> bool {
        self.0.is_none()
    }
    /// Holds a new descriptor (when free).
    pub fn hold(&mut self, d: D) {
        self.0 = Some(d);
    }
    /// Drops the held descriptor (a reset).
    pub fn drop_held(&mut self) {
        self.0 = None;
    }
    /// This cycle's input: (valid, descriptor).
    pub fn get(&self) -> Option<D> {
        self.0
    }
    /// Was the held descriptor accepted this cycle (not in a reset, `in_ready` high in golden)? Then it goes.
    pub fn accepted(&mut self, reset: bool, in_ready: Option<bool>) -> Option<D> {
        let d = self.0.filter(|_| !reset && in_ready == Some(true));
        if d.is_some() {
            self.0 = None;
        }
        d
    }
}

impl<D: Copy> Default for Held<D> {
    fn default() -> Self {
        Self::new()
    }
}

/// A full-rate trace through a core top (what `run_trace` of each core builds on): every cycle checked
/// against golden, the CSR port driven by `csr`; the first mismatch, or a run past `limit` cycles, ends it
/// with an error.
pub struct TraceSim<T: CoreTop, G> {
    pub name: String,
    pub sim: Sim<T>,
    pub gold: G,
    pub sb: Scoreboard,
    pub csr: CsrDriver,
    limit: u64,
}

impl<T, G> TraceSim<T, G>
where
    T: CoreTop,
    G: GoldenCycle<Inputs = T::Inputs, Outputs = T::Expected>,
{
    /// A trace of `name` on top `m` (initial state seed 1 — `make(1)` —, no waveform), at most `limit` cycles.
    pub fn new(name: &str, m: T, gold: G, csr: CsrDriver, limit: u64) -> Self {
        TraceSim { name: name.to_string(), sim: Sim::new(m, None), gold, sb: Scoreboard::new(name, 0), csr, limit }
    }
    /// The number of the next cycle.
    pub fn now(&self) -> u64 {
        self.sim.cycle
    }
    /// One cycle (see [`cycle`]); `Err` on a mismatch or past the cycle limit (`why`: what had not ended).
    pub fn step(
        &mut self,
        i: &T::Inputs,
        garbage: &T::Garbage,
        why: impl FnOnce() -> String,
    ) -> Result<Cycle<T::Expected, T::Outputs>, String> {
        let cy = cycle(&mut self.sim, &mut self.gold, &mut self.sb, Some(&mut self.csr), i, garbage);
        if !self.sb.is_clean() {
            return Err(self.sb.to_string());
        }
        if cy.c > self.limit {
            return Err(format!("{}: no end after {} cycles ({})", self.name, cy.c, why()));
        }
        Ok(cy)
    }
}

/// A randomized run of a core top with a CSR port: its bookkeeping (`run`: RNG, scoreboard, coverage,
/// transactions), the simulation, the golden model and the CSR driver — what a core's `run_top` steps
/// with its traffic.
pub struct CoreRun<T: CoreTop, G> {
    pub run: Run,
    pub sim: Sim<T>,
    pub gold: G,
    pub csr: CsrDriver,
}

impl<T, G> CoreRun<T, G>
where
    T: CoreTop,
    G: GoldenCycle<Inputs = T::Inputs, Outputs = T::Expected>,
{
    /// A run labelled `label` on top `m` (built with `cfg.x_seed`; waveform to `cfg.vcd`).
    pub fn new(label: &str, cfg: &RunConfig, m: T, gold: G, csr: &CsrLayout) -> Self {
        CoreRun { run: Run::new(label, cfg), sim: Sim::new(m, cfg.vcd.clone()), gold, csr: CsrDriver::new(csr) }
    }
    /// One checked cycle (see [`cycle`]).
    pub fn step(&mut self, i: &T::Inputs, garbage: &T::Garbage) -> Cycle<T::Expected, T::Outputs> {
        cycle(&mut self.sim, &mut self.gold, &mut self.run.sb, Some(&mut self.csr), i, garbage)
    }
    /// Adds `n` to coverage counter `what`.
    pub fn count(&mut self, what: &'static str, n: u64) {
        self.run.count(what, n)
    }
    pub fn finish(self) -> RunReport {
        self.run.finish(self.sim.cycle)
    }
}

/// Three-sided boundary coverage (issue 11): a comparison that the traffic drove exactly at its bound or
/// one step either side, as `names` = [below, at, above] counters. Random traffic almost never meets a
/// bound exactly; a runner that aims at one (a threshold written equal to the value the next packet will
/// produce, a response placed exactly `expiry` after its request) counts here what its comparison really
/// saw, and its test requires every side.
pub fn count_boundary(run: &mut crate::blocks::Run, value: u64, bound: u64, names: [&'static str; 3]) {
    let side = if value.wrapping_add(1) == bound {
        0
    } else if value == bound {
        1
    } else if value == bound.wrapping_add(1) {
        2
    } else {
        return;
    };
    run.count(names[side], 1);
}
