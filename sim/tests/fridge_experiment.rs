//! The fridge experiment end to end on small traces: estimators against ground truth, the RTL engine
//! against the golden engine, and clear errors for bad settings.

use golden::fridge::FridgeConfig;
use sim::fridge::estimate::{errors, WeightedCdf};
use sim::fridge::experiment::{run_methods, Engine, PChoice, Setup};
use sim::traffic::{synthetic, SyntheticParams};

fn small_trace(seed: u64) -> sim::traffic::Trace {
    synthetic(seed, SyntheticParams { samples: 40_000, max_delay_ms: 10.0, ..SyntheticParams::paper() })
}

fn setup(engine: Engine, fridges: usize) -> Setup {
    Setup { memory: 1024, p: PChoice::Auto, fridges, model_variance: true, engine, core: FridgeConfig::default() }
}

#[test]
fn fridge_corrects_the_bias_the_simple_baseline_has() {
    let (mut est, mut simple, mut truth) = (vec![], vec![], vec![]);
    for seed in 1..=4 {
        let o = run_methods(&setup(Engine::Golden, 2), &small_trace(seed), seed).unwrap();
        est.push(o.fridge.estimate);
        simple.push(o.simple.estimate);
        truth.push(o.truth);
        assert!(o.multi_fridge.is_some());
    }
    let truth = WeightedCdf::pool(&truth);
    let f = errors(&WeightedCdf::pool(&est), &truth).unwrap();
    let s = errors(&WeightedCdf::pool(&simple), &truth).unwrap();
    eprintln!("fridge {f:?}\nsimple {s:?}");
    assert!(f.max_err_5_95 < 0.2, "fridge max_err_5_95 {}", f.max_err_5_95);
    assert!(s.max_err_5_95 > 1.0, "the simple baseline should be badly biased: {}", s.max_err_5_95);
}

#[cfg(feature = "rtl")]
#[test]
fn rtl_engine_reports_exactly_what_golden_reports() {
    let trace = small_trace(9);
    let g = run_methods(&setup(Engine::Golden, 1), &trace, 9).unwrap();
    let r = run_methods(&setup(Engine::Rtl, 1), &trace, 9).unwrap();
    for (name, a, b) in [
        ("fridge", &g.fridge, &r.fridge),
        ("simple", &g.simple, &r.simple),
        ("expiry", &g.expiry, &r.expiry),
    ] {
        assert_eq!(a.samples, b.samples, "{name}");
        assert_eq!(a.estimate, b.estimate, "{name}");
        assert!(a.samples > 100, "{name}: {} samples", a.samples);
    }
}

#[test]
fn bad_settings_are_errors() {
    let trace = small_trace(2);
    let mut s = setup(Engine::Golden, 1);
    s.memory = 1000;
    assert!(run_methods(&s, &trace, 1).unwrap_err().contains("power of two"));
    let mut s = setup(Engine::Golden, 9);
    s.memory = 1024;
    assert!(run_methods(&s, &trace, 1).unwrap_err().contains("--fridges"));
    // Three fridges of 8 entries: M/2, M/4, M/4 leaves 2 entries in the smallest.
    let mut s = setup(Engine::Golden, 3);
    s.memory = 8;
    assert!(run_methods(&s, &trace, 1).unwrap_err().contains("--fridges"));
    let s = Setup { p: PChoice::Fixed(1.5), ..setup(Engine::Golden, 1) };
    assert!(run_methods(&s, &trace, 1).unwrap_err().contains("--p"));
    let s = Setup { memory: 4096, ..setup(Engine::Rtl, 1) };
    let want = if cfg!(feature = "rtl") { "no RTL build" } else { "without the rtl feature" };
    assert!(run_methods(&s, &trace, 1).unwrap_err().contains(want));
}
