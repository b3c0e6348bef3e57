//! Multi-fridge against single fridges of the same memory on the wide-range trace (delays log-uniform over
//! six decades): single fridges over a grid of entry probabilities (to find the best one after the fact)
//! and the multi-fridge of `netmeas run fridge --fridges N` for N = 2, 3, 4, all on the same traces.
//! Prints the §2.4 metrics (combined CDFs over seeds, and the mean of per-seed values) and the signed
//! log2 error at a few percentiles.
//!
//! `cargo run --release -p sim --example multi_fridge_sweep -- [SEEDS] [MEMORY]` (defaults 30, 1024).

use golden::fridge::{threshold_for, FridgeConfig, FridgeMode, FridgeRuntime};
use sim::fridge::estimate::{corrected, errors, FridgeParams, WeightedCdf};
use sim::fridge::experiment::{run_core, run_methods, Engine, PChoice, Setup};
use sim::traffic::{wide, SyntheticParams};

fn report(name: &str, ests: &[WeightedCdf], truths: &[WeightedCdf]) {
    let truth = WeightedCdf::pool(truths);
    let pooled = WeightedCdf::pool(ests);
    let per_seed: f64 =
        ests.iter().zip(truths).map(|(e, t)| errors(e, t).map_or(f64::NAN, |e| e.max_err_5_95)).sum::<f64>()
            / ests.len() as f64;
    let signed: Vec<String> = [5, 20, 50, 80, 95]
        .iter()
        .map(|&q| {
            let q = q as f64 / 100.0;
            format!("{:+.2}", (pooled.quantile(q).unwrap_or(f64::NAN) / truth.quantile(q).unwrap_or(f64::NAN)).log2())
        })
        .collect();
    let e = errors(&pooled, &truth).map_or(f64::NAN, |e| e.max_err_5_95);
    println!("{name:<34} {e:>8.3} {per_seed:>10.3}   {}", signed.join(" "));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let memory: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let traces: Vec<_> = (1..=seeds).map(|s| wide(s, SyntheticParams::wide())).collect();
    let truths: Vec<WeightedCdf> =
        traces.iter().map(|t| WeightedCdf::unweighted(t.true_delays_ns().into_iter().map(|d| d as f64))).collect();
    println!("wide trace, {seeds} seeds, M = {memory}");
    println!("{:<34} {:>8} {:>10}   log2(est/true) at p5 p20 p50 p80 p95", "method", "max_err", "(per seed)");
    let cfg = FridgeConfig { addr_bits: vec![memory.trailing_zeros() as usize], ..FridgeConfig::default() };
    for p in [0.002, 0.003, 0.004, 0.005, 0.006, 0.008] {
        let ests: Vec<WeightedCdf> = traces
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let rt = FridgeRuntime {
                    mode: FridgeMode::Fridge,
                    expiry: 0,
                    seed: (i as u32 + 1) | 1,
                    thresholds: vec![threshold_for(p * memory as f64 / 1024.0)],
                };
                let run = run_core(&cfg, &rt, t, Engine::Golden).expect("golden run");
                corrected(&run.samples, &FridgeParams::of(&cfg, &rt))
            })
            .collect();
        report(&format!("single fridge p = {p}"), &ests, &truths);
    }
    for (n, model_variance) in [(2, true), (3, true), (4, true), (3, false), (4, false)] {
        let setup = Setup {
            memory,
            p: PChoice::Auto,
            fridges: n,
            model_variance,
            engine: Engine::Golden,
            core: FridgeConfig::default(),
        };
        let (mut single, mut multi) = (vec![], vec![]);
        for (i, t) in traces.iter().enumerate() {
            let o = run_methods(&setup, t, i as u64 + 1).expect("methods");
            single.push(o.fridge.estimate);
            multi.push(o.multi_fridge.expect("multi-fridge ran").estimate);
        }
        if n == 2 && model_variance {
            report("single fridge, p auto", &single, &truths);
        }
        let v = if model_variance { "model" } else { "samples" };
        report(&format!("multi-fridge N = {n}, --variance {v}"), &multi, &truths);
    }
}
