//! # sim — netmeas traffic, control-plane estimators and experiments
//!
//! Library half of the `sim` crate (the `netmeas` CLI in `main.rs` is the other half). Data flows one way:
//! trace → packet descriptors → core (golden or RTL) → report stream → estimator → metrics/plots.
//!
//! - [`finecomb`]: FineComb's estimators (useful buckets, mean delay, standard deviation, loss, stash
//!   recovery, multi-bank combination, LDA and LDA+), the §IV parameter formulas and the §V experiments.
//! - [`fridge`]: the fridge's estimators (correction factors, weighted CDF, inverse-variance combination,
//!   the |log2| percentile metric) and its §2.4 experiments.
//! - [`heavy_hitters`]: SpaceSaving, RAP, d-way RAP and PRECISION on the RAP theorem's setting (the share
//!   of runs storing ≥ 0.65·k of k heavy elements, per arrival order) and top-k metrics on Zipf streams and
//!   captures; the core runs through an engine function (golden now, the Verilated core later).
//! - [`parser`]: the header parser's control plane — `netmeas replay`, a capture's Ethernet frames through
//!   the parser's cycle model or Verilated RTL into any capture core's experiment (equal to `run --trace`).
//! - [`mutate`]: `netmeas mutate`, mutation testing of the RTL against the co-simulation suite (mutant lists
//!   in testbench/mutants, applied one at a time to a scratch copy).
//! - [`traffic`]: where descriptors come from — the synthetic generators of the papers' evaluations and a
//!   self-contained pcap/pcapng reader that turns real TCP captures into request/response descriptors, each
//!   with its exact ground truth.

/// Which model runs a core in an experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// The golden transaction model (fast).
    Golden,
    /// The Verilated RTL, checked cycle by cycle against the golden cycle model on the way, and its
    /// output against the golden transaction model's.
    Rtl,
}

/// What `--engine rtl` says in a build without the `rtl` feature (no Verilated cores linked in).
pub const RTL_MISSING: &str = "this netmeas was built without the rtl feature, so it has no Verilated cores \
                               (rebuild with the default features, which needs Verilator; --engine golden \
                               runs without)";

/// The RTL build that runs an experiment's configuration: the first of `builds` (name, configuration) that
/// `fits`; else the error "no RTL build of `wanted`; the built ones are …", listing each build that `listed`
/// admits as `describe` writes it ("none at these widths" when it admits none). Each core's `--engine rtl`
/// picks its build with this, before any work.
#[cfg(feature = "rtl")]
pub fn pick_build<C: Clone>(
    builds: &[(&'static str, C)],
    fits: impl Fn(&C) -> bool,
    listed: impl Fn(&C) -> bool,
    describe: impl Fn(&str, &C) -> String,
    wanted: impl FnOnce() -> String,
) -> Result<(&'static str, C), String> {
    builds.iter().find(|(_, c)| fits(c)).cloned().ok_or_else(|| {
        let list: Vec<String> = builds.iter().filter(|(_, c)| listed(c)).map(|(n, c)| describe(n, c)).collect();
        let list = if list.is_empty() { "none at these widths".to_string() } else { list.join(", ") };
        format!("no RTL build of {}; the built ones are {list}", wanted())
    })
}

impl Engine {
    /// The name of `--engine`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Golden => "golden",
            Engine::Rtl => "rtl",
        }
    }

    /// `Err(`[`RTL_MISSING`]`)` for the RTL engine in a build without the `rtl` feature: experiments check
    /// before they start, so such a run fails at once instead of after its golden part.
    pub fn check(self) -> Result<(), String> {
        if self == Engine::Rtl && !cfg!(feature = "rtl") {
            return Err(RTL_MISSING.into());
        }
        Ok(())
    }
}

pub mod cli;
pub mod figures;
pub mod finecomb;
pub mod generate;
pub mod fridge;
pub mod heavy_hitters;
pub mod ifpd;
pub mod maple;
pub mod mutate;
pub mod parser;
pub mod plot;
pub mod reordering;
pub mod traffic;
pub mod verify;

/// The cores with an experiment (`netmeas run <core>`, a section of `netmeas demo`, `netmeas figures`): a
/// new core adds one line here and its own folder in sim/src.
pub const CORES: &[&dyn cli::CoreCli] = &[
    &fridge::cli::Fridge,
    &finecomb::cli::Finecomb,
    &heavy_hitters::cli::HeavyHitters,
    &ifpd::cli::Ifpd,
    &maple::cli::Maple,
    &reordering::cli::Reordering,
];
