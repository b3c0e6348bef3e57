//! The reordering core's RTL engine (`--engine rtl`): the Verilated flow-sampling and hybrid builds through
//! `testbench`, checked cycle by cycle against the golden cycle model while they run and, here, every
//! report they sent against the golden transaction model's. Only in builds with the `rtl` feature (the
//! experiment says [`crate::RTL_MISSING`] without it).

use super::experiment::{golden_engine, CoreSpec};
use golden::heavy_hitters::HhRuntime;
use golden::reordering::hybrid_cycle::HybridConfig;
use golden::reordering::{Descriptor, ReorderConfig, Report};

/// The co-simulated builds the engine can run.
const BUILDS: [&str; 2] = ["ro_a4", "ro_a6"];
/// The co-simulated hybrid builds the engine can run.
const HYBRID_BUILDS: [&str; 2] = ["ro_hy4", "ro_hy"];

/// The build that runs `spec`: flow sampling or the flow-level baseline (the same core, indexed by the
/// flow key), or the hybrid, with exactly the build's configuration.
pub(super) fn build_for(spec: &CoreSpec) -> Result<&'static str, String> {
    if let Some((hh, _)) = &spec.hh {
        let want = HybridConfig { sampling: spec.cfg.clone(), hh: hh.clone() };
        let built = HYBRID_BUILDS.map(|n| (n, testbench::reordering_hybrid::top_config(n)));
        return crate::pick_build(
            &built,
            |c| *c == want,
            |c| c.sampling.fp_bits == spec.cfg.fp_bits && c.hh.count_bits == hh.count_bits,
            |n, c| format!("{n} (--memory {} --hh-share 0.5)", c.sampling.buckets() + c.hh.buckets()),
            || {
                format!(
                    "the hybrid with {} sampled buckets and {} x {} heavy-hitter entries (--memory {})",
                    spec.cfg.buckets(),
                    hh.rows,
                    hh.buckets_per_row(),
                    spec.memory
                )
            },
        )
        .map(|(n, _)| n);
    }
    let built = BUILDS.map(|n| (n, testbench::reordering::top_config(n)));
    crate::pick_build(
        &built,
        |c: &ReorderConfig| *c == spec.cfg,
        |c| ReorderConfig { addr_bits: c.addr_bits, ..spec.cfg.clone() } == *c,
        |n, c| format!("{n} (--memory {})", c.buckets()),
        || {
            format!(
                "flow sampling with {} buckets at the experiment's field widths (--memory {})",
                spec.cfg.buckets(),
                spec.memory
            )
        },
    )
    .map(|(n, _)| n)
}

/// The engine: `packets` through the build for `spec` at full rate, flushed every `period_ns` of trace time
/// and at the end by the control-plane sequence (`testbench::reordering::run_trace`); an error if the RTL
/// differs from golden anywhere — in a cycle, or in the reports (compared as multisets: flushed buckets and
/// the next period's evictions interleave on the port).
pub(super) fn rtl_engine(
    spec: &CoreSpec,
    packets: &[Descriptor],
    period_ns: Option<u64>,
    seed: u32,
) -> Result<Vec<Report>, String> {
    use testbench::models::{RoA4, RoA6};
    use testbench::reordering::run_trace;
    let name = build_for(spec)?;
    let run = match (name, &spec.hh) {
        ("ro_a4", _) => run_trace(name, &spec.rt, packets, period_ns, RoA4::new)?,
        ("ro_a6", _) => run_trace(name, &spec.rt, packets, period_ns, RoA6::new)?,
        (_, Some((_, hr))) => {
            use testbench::models::{RoHy, RoHy4};
            use testbench::reordering_hybrid::run_trace as run_hybrid;
            // The seed the golden engine gives the heavy-hitter PRNG.
            let hh_rt = HhRuntime { seed, ..*hr };
            match name {
                "ro_hy4" => run_hybrid(name, &spec.rt, &hh_rt, packets, period_ns, RoHy4::new)?,
                _ => run_hybrid(name, &spec.rt, &hh_rt, packets, period_ns, RoHy::new)?,
            }
        }
        (_, None) => unreachable!("build_for gives a flow-sampling build for a spec without heavy hitters"),
    };
    let key = |r: &Report| (r.prefix, r.n, r.o, r.reason as u8);
    let (mut got, mut want) = (run.reports.clone(), golden_engine(spec, packets, period_ns, seed)?);
    got.sort_by_key(key);
    want.sort_by_key(key);
    if got != want {
        let first = want.iter().zip(&got).position(|(a, b)| a != b).unwrap_or(want.len().min(got.len()));
        return Err(format!(
            "{name}: the reports of the RTL differ from the golden transaction model's ({} vs {}; first \
             difference in sorted order at {first}: RTL {:?}, golden {:?})",
            got.len(),
            want.len(),
            got.get(first),
            want.get(first)
        ));
    }
    Ok(run.reports)
}
