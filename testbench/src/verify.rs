//! `netmeas verify`: one configuration of a core — any, registered or not — Verilated at run time
//! ([`crate::runtime_model`]) and co-simulated cycle by cycle against the golden model by the core's own
//! runner, on the core's randomized traffic: the runners' code path of the test suite, with the run-time
//! model ([`DynTop`]) in place of a build-time one.

use crate::harness::{RunConfig, RunReport};
use crate::runtime_model::{DynLib, DynTop};
use std::sync::Arc;

/// One co-simulation of a core's run-time model: `(top name, model library, run)`.
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

/// The runs of each core (`(core, what the run covers, run)`); the fridge's three modes are three runs.
pub const RUNS: &[(&str, &str, VerifyRun)] = &[
    ("fridge", "fridge mode", |n, lib, cfg| {
        crate::fridge::run_top(n, golden::fridge::FridgeMode::Fridge, cfg, |x| {
            DynTop::<crate::fridge::Runtime>::new(lib, x)
        })
    }),
    ("fridge", "simple mode", |n, lib, cfg| {
        crate::fridge::run_top(n, golden::fridge::FridgeMode::Simple, cfg, |x| {
            DynTop::<crate::fridge::Runtime>::new(lib, x)
        })
    }),
    ("fridge", "expiry mode", |n, lib, cfg| {
        crate::fridge::run_top(n, golden::fridge::FridgeMode::Expiry, cfg, |x| {
            DynTop::<crate::fridge::Runtime>::new(lib, x)
        })
    }),
    ("finecomb", "", |n, lib, cfg| {
        crate::finecomb::run_top(n, cfg, |x| DynTop::<crate::finecomb::Runtime>::new(lib, x))
    }),
    ("heavy_hitters", "", |n, lib, cfg| {
        crate::heavy_hitters::run_top(n, cfg, |x| DynTop::<crate::heavy_hitters::Runtime>::new(lib, x))
    }),
    ("reordering", "", |n, lib, cfg| {
        crate::reordering::run_top(n, cfg, |x| DynTop::<crate::reordering::Runtime>::new(lib, x))
    }),
    ("ifpd", "", |n, lib, cfg| crate::ifpd::run_top(n, cfg, |x| DynTop::<crate::ifpd::Runtime>::new(lib, x))),
    ("maple", "", |n, lib, cfg| crate::maple::run_top(n, cfg, |x| DynTop::<crate::maple::Runtime>::new(lib, x))),
];

/// The runs of `core`, or an error naming the cores that have runs.
pub fn runs_of(core: &str) -> Result<Vec<&'static (&'static str, &'static str, VerifyRun)>, String> {
    let runs: Vec<_> = RUNS.iter().filter(|r| r.0 == core).collect();
    if runs.is_empty() {
        let mut cores: Vec<&str> = RUNS.iter().map(|r| r.0).collect();
        cores.dedup();
        return Err(format!("netmeas verify has no runner for core {core}; it verifies {}", cores.join(", ")));
    }
    Ok(runs)
}

/// Co-simulates top `name` of `core` (its generation parameters `params`, the core's configuration type as
/// JSON) from `lib`: every run of the core, each seeded `cfg.seed + k`. A runner's panic (e.g. a
/// configuration its traffic cannot drive) becomes an error naming the run.
pub fn run(
    core: &str,
    name: &str,
    params: serde_json::Value,
    lib: &Arc<DynLib>,
    cfg: &RunConfig,
) -> Result<Vec<(String, RunReport)>, String> {
    let runs = runs_of(core)?;
    crate::harness::register_top(name, params);
    let mut out = Vec::new();
    for (k, (_, what, f)) in runs.into_iter().enumerate() {
        let mut c = cfg.clone();
        c.seed = cfg.seed.wrapping_add(k as u64);
        if let (Some(v), false) = (&cfg.vcd, what.is_empty()) {
            c.vcd = Some(v.with_file_name(format!("{}-{}.vcd", name, what.replace(' ', "_"))));
        }
        let label = if what.is_empty() { name.to_string() } else { format!("{name} ({what})") };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(name, lib, &c))).map_err(|p| {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            format!("{label}: the run stopped: {}", msg.unwrap_or_default())
        })?;
        out.push((label, r));
    }
    Ok(out)
}
