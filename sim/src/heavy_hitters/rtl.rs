//! The heavy-hitter core's RTL engine (`--engine rtl`): the Verilated builds through `testbench`, checked
//! cycle by cycle against the golden cycle model while they run and, here, their table (read out through the
//! walk, as the control plane does) against the golden transaction model. Only in builds with the `rtl`
//! feature (the experiment says [`crate::RTL_MISSING`] without it).

use super::experiment::golden_engine;
use golden::heavy_hitters::{HhConfig, HhRuntime, Record};

/// The co-simulated builds the engine can run.
const BUILDS: [&str; 3] = ["hh_d1", "hh_d2", "hh_d4"];

/// The build that runs `cfg`: the same rows, buckets per row and count width, keys at least as wide (its hash
/// functions are the build's, drawn for its key width; the keys are the experiment's, masked to
/// `cfg.key_bits`).
pub(super) fn build_for(cfg: &HhConfig) -> Result<(&'static str, HhConfig), String> {
    let built = BUILDS.map(|n| (n, testbench::heavy_hitters::top_config(n)));
    crate::pick_build(
        &built,
        |b: &HhConfig| {
            (b.rows, b.addr_bits, b.count_bits) == (cfg.rows, cfg.addr_bits, cfg.count_bits)
                && b.key_bits >= cfg.key_bits
        },
        |_| true,
        |n, b| {
            format!(
                "{n} ({} × {} buckets, {}-bit keys, {}-bit counts: --buckets {} --rows {})",
                b.rows,
                b.buckets_per_row(),
                b.key_bits,
                b.count_bits,
                b.buckets(),
                b.rows
            )
        },
        || {
            format!(
                "{} row(s) × {} buckets with {}-bit keys and {}-bit counts",
                cfg.rows,
                cfg.buckets_per_row(),
                cfg.key_bits,
                cfg.count_bits
            )
        },
    )
}

/// The engine: `keys` through the build for `cfg` at full rate, the table read out by the walk; an error if
/// the RTL differs from golden anywhere.
pub(super) fn rtl_engine(cfg: &HhConfig, rt: &HhRuntime, keys: &[u128]) -> Result<Vec<Record>, String> {
    use testbench::heavy_hitters::run_trace;
    use testbench::models::{HhD1, HhD2, HhD4};
    let (name, bcfg) = build_for(cfg)?;
    let run = match name {
        "hh_d1" => run_trace(name, rt, keys, HhD1::new)?,
        "hh_d2" => run_trace(name, rt, keys, HhD2::new)?,
        _ => run_trace(name, rt, keys, HhD4::new)?,
    };
    let golden = golden_engine(&bcfg, rt, keys)?;
    if run.records != golden {
        let first =
            golden.iter().zip(&run.records).position(|(a, b)| a != b).unwrap_or(golden.len().min(run.records.len()));
        return Err(format!(
            "{name}: the table read out of the RTL differs from the golden transaction model ({} vs {} records; \
             first difference at record {first}: RTL {:?}, golden {:?})",
            run.records.len(),
            golden.len(),
            run.records.get(first),
            golden.get(first)
        ));
    }
    Ok(run.records)
}
