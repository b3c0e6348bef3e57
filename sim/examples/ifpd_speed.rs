//! Golden-model speed of the IFPD core: packets per second of `IfpdModel::step` on one thread, per mode, on
//! the synthetic segment (1 M packets) at 600 KB and the paper's d = 4 — the model alone (trace generation,
//! ground truth and scoring are outside the timed loop).
//!
//! `cargo run --release -p sim --example ifpd_speed -- [PACKETS] [MEMORY_KB]` (defaults 1 000 000, 600).

use golden::ifpd::{Case3Rule, IfpdModel, IfpdRuntime, Mode};
use sim::ifpd::experiment::MethodSpec;
use sim::traffic::ifpd::{synthetic_ifpd, IfpdParams};
use std::time::Instant;

/// Timed runs per mode; the best counts (the machine may be shared).
const ROUNDS: usize = 5;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let packets = args.next().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let memory_kb = args.next().and_then(|s| s.parse().ok()).unwrap_or(600.0);
    let trace = synthetic_ifpd(&IfpdParams { packets, ..IfpdParams::default() }, 1)?;
    let base = trace[0].ts >> 10;
    for mode in Mode::ALL {
        let spec = MethodSpec::new(mode, memory_kb, 4, 0.25, 4)?;
        let rt = IfpdRuntime { mode, threshold: 683_594, base, case3: Case3Rule::Estimate };
        let mut best = f64::INFINITY;
        let mut reports = 0;
        for _ in 0..ROUNDS {
            let mut m = IfpdModel::new(&spec.cfg, rt).map_err(|e| e.to_string())?;
            let t = Instant::now();
            for d in &trace {
                reports += m.step(d).report.is_some() as u64;
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{:<6} w = {:>6} per row: {:.1} M packets/s (best of {} over {} packets; {} reports)",
            mode.name(),
            spec.cfg.buckets,
            trace.len() as f64 / best / 1e6,
            ROUNDS,
            trace.len(),
            reports / ROUNDS as u64
        );
    }
    Ok(())
}
