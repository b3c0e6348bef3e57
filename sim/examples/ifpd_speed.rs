//! Golden-model speed of the IFPD core: packets per second on one thread, per mode, on the synthetic segment
//! (1 M packets) at 600 KB and the paper's d = 4 — the model alone (trace generation, ground truth and
//! scoring are outside the timed loop). Two ways of driving it: `IfpdModel::run` over the whole segment (what
//! the experiments do: it hashes a few packets ahead and prefetches their buckets) and `IfpdModel::step` one
//! packet at a time (what a cycle-by-cycle check does). Both give the same outcomes; the program checks that
//! their report counts agree.
//!
//! `cargo run --release -p sim --example ifpd_speed -- [PACKETS] [MEMORY_KB] [MODE]` (defaults 1 000 000,
//! 600, every mode; MODE is `ifpd`, `cm` or `cm-bf`).

use golden::ifpd::{Case3Rule, Descriptor, IfpdConfig, IfpdModel, IfpdRuntime, Mode};
use sim::ifpd::experiment::MethodSpec;
use sim::traffic::ifpd::{synthetic_ifpd, IfpdParams};
use std::time::Instant;

/// Timed runs per mode and driver; the best counts (the machine may be shared).
const ROUNDS: usize = 5;

/// Best packets per second over `ROUNDS` fresh models, and the reports of one round.
fn best_rate(
    cfg: &IfpdConfig,
    rt: IfpdRuntime,
    trace: &[Descriptor],
    drive: impl Fn(&mut IfpdModel, &[Descriptor]) -> u64,
) -> Result<(f64, u64), String> {
    let (mut best, mut reports) = (f64::INFINITY, 0);
    for _ in 0..ROUNDS {
        let mut m = IfpdModel::new(cfg, rt).map_err(|e| e.to_string())?;
        let t = Instant::now();
        reports = drive(&mut m, trace);
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok((trace.len() as f64 / best, reports))
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let packets = args.next().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let memory_kb = args.next().and_then(|s| s.parse().ok()).unwrap_or(600.0);
    let only = args.next();
    let modes: Vec<Mode> = match &only {
        Some(name) => vec![Mode::by_name(name).ok_or_else(|| format!("unknown mode {name:?} (ifpd, cm or cm-bf)"))?],
        None => Mode::ALL.to_vec(),
    };
    let trace = synthetic_ifpd(&IfpdParams { packets, ..IfpdParams::default() }, 1)?;
    let base = trace[0].ts >> 10;
    for mode in modes {
        let spec = MethodSpec::new(mode, memory_kb, 4, 0.25, 4)?;
        let rt = IfpdRuntime { mode, threshold: 683_594, base, case3: Case3Rule::Estimate };
        let (run, reports) = best_rate(&spec.cfg, rt, &trace, |m, t| {
            let mut n = 0;
            m.run(t, |_, o| n += o.report.is_some() as u64);
            n
        })?;
        let (step, step_reports) =
            best_rate(&spec.cfg, rt, &trace, |m, t| t.iter().map(|d| m.step(d).report.is_some() as u64).sum())?;
        if step_reports != reports {
            return Err(format!("{}: run gave {reports} reports, step {step_reports}", mode.name()));
        }
        println!(
            "{:<6} w = {:>6} per row: run {:.1} M packets/s, step {:.1} M (best of {} over {} packets; {} reports)",
            mode.name(),
            spec.cfg.buckets,
            run / 1e6,
            step / 1e6,
            ROUNDS,
            trace.len(),
            reports
        );
    }
    Ok(())
}
