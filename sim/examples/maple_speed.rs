//! Golden-model speed of the MAPLE core: packets per second of `MapleModel::run` (center match, counters,
//! SVBF insert, sampling into the FIFO) on one thread, and lookups per second on the frozen bank, at the
//! paper's §5.3 store (5 Mbit, h = 9, k = 50 logarithmic centers, partitioned, 10 % sampling) on one
//! synthetic epoch through the RED queue at 85 % — the model alone (traffic, queue and center choice are
//! outside the timed loops).
//!
//! `cargo run --release -p sim --no-default-features --example maple_speed -- [PACKETS] [MBIT]` (defaults
//! 380 000, 5).

use golden::maple::{Centers, Descriptor, MapleConfig, MapleModel, MapleRuntime, SvbfLayout};
use sim::maple::clustering::{logarithmic, LogRange};
use sim::traffic::maple::{synthetic_maple, through_queue, MapleTraffic, RedParams};
use std::time::Instant;

/// Timed runs; the best counts (the machine may be shared).
const ROUNDS: usize = 5;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let packets: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(380_000);
    let mbit: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(5.0);
    let a = synthetic_maple(&MapleTraffic { epochs: 1, packets_per_epoch: packets, ..MapleTraffic::default() }, 1)?;
    let (epochs, _) = through_queue(&a, RedParams::for_utilization(&a, 0.85, 10.0)?, u64::MAX, 1);
    let pk: Vec<Descriptor> = epochs[0].iter().map(|d| Descriptor { key: d.key, latency: d.latency }).collect();
    let centers = Centers::from_unsorted(logarithmic(50, &LogRange::default())).map_err(|e| e.to_string())?;
    for layout in [SvbfLayout::Partitioned, SvbfLayout::Unpartitioned] {
        let cfg = MapleConfig { svbf_bits: (mbit * 1e6) as usize, hashes: 9, layout, ..MapleConfig::default() };
        let (mut best_in, mut best_lu, mut samples, mut multi) = (f64::INFINITY, f64::INFINITY, 0, 0);
        for _ in 0..ROUNDS {
            let mut m = MapleModel::new(&cfg, MapleRuntime::default(), centers.clone()).map_err(|e| e.to_string())?;
            let t = Instant::now();
            m.run(&pk, |m, _, o| {
                if o.sampled {
                    samples += m.pop_sample().is_some() as usize;
                }
            });
            best_in = best_in.min(t.elapsed().as_secs_f64());
            m.epoch();
            let t = Instant::now();
            for d in &pk {
                multi += (m.lookup(d.key).map_or(0, |l| l.0.candidates.count_ones()) > 1) as usize;
            }
            best_lu = best_lu.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{:<13} m = {mbit} Mbit, h = 9, k = 50: insert {:.1} M packets/s, lookup {:.1} M/s (best of {ROUNDS} over {} \
             packets; classification failure {:.4}; {} samples per run)",
            layout.name(),
            pk.len() as f64 / best_in / 1e6,
            pk.len() as f64 / best_lu / 1e6,
            pk.len(),
            multi as f64 / (ROUNDS * pk.len()) as f64,
            samples / ROUNDS
        );
    }
    Ok(())
}
