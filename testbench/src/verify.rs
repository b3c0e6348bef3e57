//! `netmeas verify`: one configuration of a core — any, registered or not — Verilated at run time
//! ([`crate::runtime_model`]) and co-simulated cycle by cycle against the golden model by the core's own
//! runner, on the core's randomized traffic: the runners' code path of the test suite, with the run-time
//! model ([`DynTop`]) in place of a build-time one — the native top through `run_top`, or its AXI flavour
//! through `run_axi` (behind the randomized AXI4-Lite master and golden slave of `crate::axi_core`).

use crate::harness::{RunConfig, RunReport};
use crate::runtime_model::{DynLib, DynTop};
use std::sync::Arc;

/// One co-simulation of a core's run-time model: `(native top name, model library, run)`.
pub type VerifyRun = fn(&str, &Arc<DynLib>, &RunConfig) -> RunReport;

/// The coverage counters each core's runner declares (what `netmeas verify` reports as reached or not).
pub const COVERAGE: &[(&str, &[&str])] = &[
    ("fridge", crate::fridge::cov::ALL),
    ("finecomb", crate::finecomb::cov::ALL),
    ("heavy_hitters", crate::heavy_hitters::cov::ALL),
    ("reordering", crate::reordering::cov::ALL),
    ("ifpd", crate::ifpd::cov::ALL),
    ("maple", crate::maple::cov::ALL),
];

/// Whether a configuration's parameters (JSON) are the configuration type `C` of a core's runner.
fn is<C: serde::de::DeserializeOwned>(params: &serde_json::Value) -> Result<(), String> {
    serde_json::from_value::<C>(params.clone()).map(|_| ()).map_err(|e| e.to_string())
}

/// The configuration type each core's runner takes, as a check of a configuration's parameters: a build of a
/// core that its runner cannot drive (the reordering hybrid) is refused before anything is Verilated.
pub const CONFIGS: &[(&str, fn(&serde_json::Value) -> Result<(), String>)] = &[
    ("fridge", is::<golden::fridge::FridgeConfig>),
    ("finecomb", is::<golden::finecomb::cycle::FinecombCoreConfig>),
    ("heavy_hitters", is::<golden::heavy_hitters::HhConfig>),
    ("reordering", is::<golden::reordering::ReorderConfig>),
    ("ifpd", is::<golden::ifpd::IfpdConfig>),
    ("maple", is::<golden::maple::cycle::MapleHwConfig>),
];

/// Checks that `core`'s runner takes a configuration with parameters `params` (top `name`).
pub fn check_config(core: &str, name: &str, params: &serde_json::Value) -> Result<(), String> {
    let check = CONFIGS.iter().find(|c| c.0 == core).map(|c| c.1);
    match check.map(|f| f(params)) {
        Some(Err(e)) => Err(format!(
            "{name}: netmeas verify has no runner for this build of {core}: its runner takes the single core's \
             configuration and {name}'s parameters are not one ({e}; e.g. the reordering hybrids, which the test \
             suite co-simulates: testbench/tests/reordering_hybrid.rs)"
        )),
        _ => Ok(()),
    }
}

/// `$core`'s run-time model of library `$lib` (a closure building one per `x_seed`).
macro_rules! dyn_model {
    ($core:ident, $lib:expr) => {{
        let lib = $lib.clone();
        move |x| DynTop::<crate::$core::Runtime>::new(&lib, x)
    }};
}

/// One run of a core (`$core::run_top` on the native top, `$core::run_axi` on its AXI flavour; `$($mode)?`:
/// the fridge's mode argument), as `(native, axi)` [`VerifyRun`]s.
macro_rules! runs {
    ($core:ident $(, $mode:expr)?) => {
        (
            |n, lib, cfg| crate::$core::run_top(n, $($mode,)? cfg, dyn_model!($core, lib)),
            |n, lib, cfg| crate::$core::run_axi(n, $($mode,)? cfg, dyn_model!($core, lib)),
        )
    };
}

/// The runs of each core (`(core, what the run covers, (native, AXI flavour))`); the fridge's three modes
/// are three runs.
pub const RUNS: &[VerifyEntry] = &[
    ("fridge", "fridge mode", runs!(fridge, golden::fridge::FridgeMode::Fridge)),
    ("fridge", "simple mode", runs!(fridge, golden::fridge::FridgeMode::Simple)),
    ("fridge", "expiry mode", runs!(fridge, golden::fridge::FridgeMode::Expiry)),
    ("finecomb", "", runs!(finecomb)),
    ("heavy_hitters", "", runs!(heavy_hitters)),
    ("reordering", "", runs!(reordering)),
    ("ifpd", "", runs!(ifpd)),
    ("maple", "", runs!(maple)),
];

/// One entry of [`RUNS`].
pub type VerifyEntry = (&'static str, &'static str, (VerifyRun, VerifyRun));

/// The runs of `core`, or an error naming the cores that have runs.
pub fn runs_of(core: &str) -> Result<Vec<&'static VerifyEntry>, String> {
    let runs: Vec<_> = RUNS.iter().filter(|r| r.0 == core).collect();
    if runs.is_empty() {
        let mut cores: Vec<&str> = RUNS.iter().map(|r| r.0).collect();
        cores.dedup();
        return Err(format!("netmeas verify has no runner for core {core}; it verifies {}", cores.join(", ")));
    }
    Ok(runs)
}

/// Co-simulates a configuration of `core` from `lib`: the native top `native` (its manifest entry `entry`:
/// `params`, the core's configuration type as JSON, and `ports`), or with `axi` its AXI flavour (`lib`'s
/// top; the `tdata` layouts come from `entry`'s ports); every run of the core, each seeded `cfg.seed + k`. A
/// runner's panic (e.g. a configuration its traffic cannot drive) becomes an error naming the run.
pub fn run(
    core: &str,
    native: &str,
    entry: serde_json::Value,
    lib: &Arc<DynLib>,
    axi: bool,
    cfg: &RunConfig,
) -> Result<Vec<(String, RunReport)>, String> {
    let runs = runs_of(core)?;
    crate::harness::register_top(native, entry);
    let name = lib.top().to_string();
    let mut out = Vec::new();
    for (k, (_, what, (on_native, on_axi))) in runs.into_iter().enumerate() {
        let mut c = cfg.clone();
        c.seed = cfg.seed.wrapping_add(k as u64);
        if let (Some(v), false) = (&cfg.vcd, what.is_empty()) {
            c.vcd = Some(v.with_file_name(format!("{}-{}.vcd", name, what.replace(' ', "_"))));
        }
        let label = if what.is_empty() { name.clone() } else { format!("{name} ({what})") };
        let f = if axi { on_axi } else { on_native };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(native, lib, &c))).map_err(|p| {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            format!("{label}: the run stopped: {}", msg.unwrap_or_default())
        })?;
        out.push((label, r));
    }
    Ok(out)
}
