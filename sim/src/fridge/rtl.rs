//! The fridge's RTL engine (`--engine rtl`): the Verilated builds through `testbench`, checked cycle by
//! cycle against the golden cycle model and, here, against the golden transaction model. Only in builds
//! with the `rtl` feature (the experiment says [`crate::RTL_MISSING`] without it).

use super::experiment::golden_run;
use crate::traffic::Trace;
use golden::fridge::tally::TallyRecord;
use golden::fridge::{FridgeConfig, FridgeRuntime, Report};

/// The built RTL configuration with these fridge sizes (its field widths may differ from `cfg`'s), if any:
/// `--engine rtl` runs the multi-fridge on the four-fridge build (`--fridges 4` at the default 1024 entries).
pub(super) fn config(cfg: &FridgeConfig) -> Option<FridgeConfig> {
    ["fridge_dp", "fridge4_dp"].map(testbench::fridge::top_config).into_iter().find(|t| t.addr_bits == cfg.addr_bits)
}

pub(super) fn run(
    cfg: &FridgeConfig,
    rt: &FridgeRuntime,
    trace: &Trace,
) -> Result<(Vec<Report>, Vec<TallyRecord>), String> {
    use testbench::fridge::{run_trace, top_config};
    use testbench::models::{Fridge4Dp, FridgeDp};
    let rtl = if *cfg == top_config("fridge_dp") {
        run_trace("fridge_dp", rt, &trace.packets, FridgeDp::new)?
    } else if *cfg == top_config("fridge4_dp") {
        run_trace("fridge4_dp", rt, &trace.packets, Fridge4Dp::new)?
    } else {
        return Err(format!(
            "no RTL build of this configuration ({} fridge(s) of {:?} address bits, a tally of {} bins per \
             octave); the built ones are fridge_dp (one fridge of 1024 entries, {dp} bins per octave: --memory \
             1024 --tally-bins {dp}) and fridge4_dp (fridges of 512, 256, 128, 128 entries, 16-bit signatures, \
             24-bit timestamps in 256 ns units, 20-bit counters, {f4} bins per octave: --memory 1024 --fridges 4)",
            cfg.fridges(),
            cfg.addr_bits,
            cfg.tally_bins_per_octave,
            dp = top_config("fridge_dp").tally_bins_per_octave,
            f4 = top_config("fridge4_dp").tally_bins_per_octave,
        ));
    };
    // The RTL must agree with the transaction-level model too.
    let (golden, golden_tally) = golden_run(cfg, rt, trace)?;
    let reports = rtl.reports;
    if golden != reports {
        let first = golden.iter().zip(&reports).position(|(a, b)| a != b).unwrap_or(golden.len().min(reports.len()));
        return Err(format!(
            "{:?} mode: RTL reports differ from the golden transaction model ({} vs {} reports; first \
             difference at report {first}: RTL {:?}, golden {:?})",
            rt.mode,
            reports.len(),
            golden.len(),
            reports.get(first),
            golden.get(first)
        ));
    }
    if golden_tally != rtl.tally {
        let first = golden_tally.iter().zip(&rtl.tally).position(|(a, b)| a != b);
        return Err(format!(
            "{:?} mode: RTL tally differs from the golden transaction model ({} vs {} records; first difference \
             at record {first:?})",
            rt.mode,
            rtl.tally.len(),
            golden_tally.len()
        ));
    }
    Ok((reports, rtl.tally))
}
