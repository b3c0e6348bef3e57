//! The IFPD core's RTL engine (`--engine rtl`): the Verilated builds through `testbench`, checked cycle by
//! cycle against the golden cycle model while they run and, here, their reports (with each packet's index)
//! and counters against the golden transaction model. Only in builds with the `rtl` feature (the experiment
//! says [`crate::RTL_MISSING`] without it).

use super::experiment::golden_engine;
use golden::ifpd::{Descriptor, IfpdConfig, IfpdRuntime, IfpdStats, Mode, Report};

/// The co-simulated builds the engine can run.
const BUILDS: [&str; 4] = ["ifpd_d1", "ifpd_d2", "ifpd_d4", "ifpd_d4_a14"];

/// The build that runs `cfg` in `mode`: the same rows, buckets per row, fingerprint and time widths and
/// time unit, and in CM-BF mode the same filter (the other modes never read the filter's answer).
pub(super) fn build_for(cfg: &IfpdConfig, mode: Mode) -> Result<(&'static str, IfpdConfig), String> {
    let built = BUILDS.map(|n| (n, testbench::ifpd::top_config(n)));
    let same = |b: &IfpdConfig| {
        (b.rows, b.buckets, b.fp_bits, b.ts_bits, b.ts_shift)
            == (cfg.rows, cfg.buckets, cfg.fp_bits, cfg.ts_bits, cfg.ts_shift)
            && (mode != Mode::CmBf || (b.bf_hashes, b.bf_bits) == (cfg.bf_hashes, cfg.bf_bits))
    };
    crate::pick_build(
        &built,
        same,
        |_| true,
        |n, b| {
            format!(
                "{n} ({} × {} buckets, {}-bit fingerprints, {}-bit times of 2^{} ns, filter {} × {} bits)",
                b.rows, b.buckets, b.fp_bits, b.ts_bits, b.ts_shift, b.bf_hashes, b.bf_bits
            )
        },
        || {
            let filter = match mode {
                Mode::CmBf => format!(", filter {} × {} bits", cfg.bf_hashes, cfg.bf_bits),
                _ => String::new(),
            };
            format!(
                "{} row(s) × {} buckets with {}-bit fingerprints and {}-bit times of 2^{} ns{filter} for {}",
                cfg.rows,
                cfg.buckets,
                cfg.fp_bits,
                cfg.ts_bits,
                cfg.ts_shift,
                mode.name()
            )
        },
    )
    .map_err(|e| {
        format!(
            "{e} (the experiment's widths: ifpd_d4_a14 is --method ifpd --memory-kb 384, ifpd_d1 is --method ifpd \
             --rows 1 --memory-kb 0.1875)"
        )
    })
}

/// The engine: `packets` through the build for `cfg` at full rate; an error if the RTL differs from golden
/// anywhere (cycle model while it runs, transaction model after).
pub(super) fn rtl_engine(
    cfg: &IfpdConfig,
    rt: &IfpdRuntime,
    packets: &[Descriptor],
) -> Result<(Vec<(usize, Report)>, IfpdStats), String> {
    use testbench::ifpd::run_trace;
    use testbench::models::{IfpdD1, IfpdD2, IfpdD4, IfpdD4A14};
    let (name, bcfg) = build_for(cfg, rt.mode)?;
    let run = match name {
        "ifpd_d1" => run_trace(name, rt, packets, IfpdD1::new)?,
        "ifpd_d2" => run_trace(name, rt, packets, IfpdD2::new)?,
        "ifpd_d4_a14" => run_trace(name, rt, packets, IfpdD4A14::new)?,
        _ => run_trace(name, rt, packets, IfpdD4::new)?,
    };
    let (reports, stats) = golden_engine(&bcfg, rt, packets)?;
    if run.reports != reports || run.stats != stats {
        let first =
            reports.iter().zip(&run.reports).position(|(a, b)| a != b).unwrap_or(reports.len().min(run.reports.len()));
        return Err(format!(
            "{name}: the RTL's reports differ from the golden transaction model ({} vs {} reports; first difference \
             at report {first}: RTL {:?}, golden {:?}; counters RTL {:?}, golden {:?})",
            run.reports.len(),
            reports.len(),
            run.reports.get(first),
            reports.get(first),
            run.stats,
            stats
        ));
    }
    Ok((run.reports, run.stats))
}
