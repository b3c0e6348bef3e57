//! The fridge experiments of dissertation §2.4: the fridge, the multi-fridge and the simple and expiry
//! baselines on one trace with the same total memory, scored by the |log2| percentile error.
//!
//! - Seeds: each seed draws a new synthetic trace (new ids, so new hash collisions) and a new PRNG seed; a
//!   capture file gives the same trace every seed, so only the entry decisions vary. (The hash functions
//!   themselves are fixed hardware constants.)
//! - Metrics follow the dissertation's procedure (§2.4): the estimated CDFs of the repetitions are combined
//!   (averaged) and the percentile errors are read from the combined CDF against the combined ground truth.
//!   The mean of the per-seed errors is reported beside them (`per_seed`): it also contains each run's
//!   sampling noise, which the combination averages out.
//! - `--p auto` (§2.2.3): a request survives x later *arriving* requests with probability ≈ (1 − p/M)^x, so
//!   the fridge's average lifetime is M/p requests; it should match the r·D requests that a typical delay
//!   D spans at request rate r: p = min(1, M / (r·D)). D is the 95th-percentile delay, estimated by a pilot
//!   run of the same fridge whose lifetime spans the whole trace (p_pilot = min(1, M / (r·duration))):
//!   every delay survives there, so its few samples estimate the distribution without bias (a pilot at
//!   p = 1 would lose the long delays entirely). Measured on the T = 100 ms trace at M = 1024 (10 seeds,
//!   combined CDFs): max_err_5_95 0.109 at p = 0.01, 0.057 at p = 0.018 (the auto choice), 0.05–0.06 up
//!   to p = 0.1, where the per-seed noise is already three times larger.
//! - Multi-fridge ([`multi_fridge_plan`]): fridge 0 holds half the memory and is aimed, like the single
//!   fridge, at the pilot's 95th-percentile delay; fridges 1..N−1 halve in size (the last two equal:
//!   M/2, M/4, …, M/2^(N−1), M/2^(N−1)) and are aimed at delays spaced geometrically from there down to the
//!   pilot's 5th percentile; p_k = min(1, M_k / (r·s_k·D_k)) (fridge k sees the share s_k of requests);
//!   combined by inverse-variance weighting. Why this split: under the max-over-percentiles metric the
//!   long tail decides, and only a fridge aimed at it samples it, so it keeps most of the memory; the small
//!   fridges add many short-delay samples cheaply. (Measured on the wide trace, 30 seeds, M = 1024: an equal
//!   split [256 × 4] gave max_err_5_95 0.21–0.28, [512, 256, 256] 0.08–0.11; `cargo run --release -p sim
//!   --example multi_fridge_sweep` prints the sweep.) The per-bin variances come from the model by default
//!   ([`Variance`], `Setup::model_variance`).
//! - Expiry baseline: threshold = the true 99th-percentile delay (the paper's setting).

use super::estimate::{
    corrected, errors, from_tally, inverse_variance, Errors, FridgeParams, Sample, Variance, WeightedCdf,
};
use crate::traffic::{self, Trace};
use golden::fridge::tally::TallyRecord;
use golden::fridge::{threshold_for, FridgeConfig, FridgeMode, FridgeModel, FridgeRuntime, PacketKind, Report};
use serde::Serialize;

/// Entry probability: fixed, or chosen by the §2.2.3 rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PChoice {
    Fixed(f64),
    Auto,
}

pub use crate::Engine;

/// A method's result on one trace.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub estimate: WeightedCdf,
    pub samples: usize,
    /// Entry probabilities used, per fridge.
    pub p: Vec<f64>,
}

/// What a core run gives the control plane: the per-sample reports and the tally read out at the end.
pub struct CoreRun {
    pub samples: Vec<Sample>,
    /// The in-hardware tally of the whole trace (empty without a tally).
    pub tally: Vec<TallyRecord>,
}

/// The golden transaction model over a trace: its reports and its tally (swapped and read at the end).
pub(super) fn golden_run(
    cfg: &FridgeConfig,
    rt: &FridgeRuntime,
    trace: &Trace,
) -> Result<(Vec<Report>, Vec<TallyRecord>), String> {
    let mut m = FridgeModel::new(cfg, rt.clone()).map_err(|e| e.to_string())?;
    let reports = trace.packets.iter().filter_map(|d| m.step(d)).collect();
    Ok((reports, m.tally.as_mut().map(|t| t.swap_and_dump()).unwrap_or_default()))
}

/// Runs a core configuration over a trace.
pub fn run_core(cfg: &FridgeConfig, rt: &FridgeRuntime, trace: &Trace, engine: Engine) -> Result<CoreRun, String> {
    let (reports, tally) = match engine {
        Engine::Golden => golden_run(cfg, rt, trace)?,
        #[cfg(feature = "rtl")]
        Engine::Rtl => super::rtl::run(cfg, rt, trace)?,
        #[cfg(not(feature = "rtl"))]
        Engine::Rtl => return Err(crate::RTL_MISSING.into()),
    };
    Ok(CoreRun { samples: reports.iter().map(|r| Sample::from_report(cfg, r)).collect(), tally })
}

/// Request rate of a trace (requests per second).
pub fn request_rate(trace: &Trace) -> f64 {
    let reqs: Vec<u64> = trace.packets.iter().filter(|d| d.kind == PacketKind::Request).map(|d| d.timestamp).collect();
    // Span from the earliest to the latest (a capture's frames are in file order, not always time order).
    match (reqs.iter().min(), reqs.iter().max()) {
        (Some(a), Some(b)) if b > a => (reqs.len() - 1) as f64 / ((b - a) as f64 * 1e-9),
        _ => 1.0,
    }
}

/// p = min(1, M / (r·D)) with D in seconds: the fridge's average lifetime M/p requests matches the r·D
/// requests that arrive during D (module docs).
pub fn auto_p(entries: usize, rate: f64, delay_s: f64) -> f64 {
    (entries as f64 / (rate * delay_s).max(1e-12)).min(1.0)
}

fn single_cfg(base: &FridgeConfig, addr_bits: usize) -> FridgeConfig {
    FridgeConfig { addr_bits: vec![addr_bits], ..base.clone() }
}

fn runtime(mode: FridgeMode, p: &[f64], expiry: u32, seed: u64) -> FridgeRuntime {
    FridgeRuntime { mode, expiry, seed: (seed as u32) | 1, thresholds: p.iter().map(|&p| threshold_for(p)).collect() }
}

/// The multi-fridge layout for 2^`bits` entries in `n` fridges (module docs): each fridge's address bits
/// and the delay (ns) it is aimed at, from a pilot estimate of the delay distribution.
pub fn multi_fridge_plan(bits: usize, n: usize, pilot: &WeightedCdf) -> Result<(Vec<usize>, Vec<f64>), String> {
    if !(2..=golden::fridge::MAX_FRIDGES).contains(&n) || bits < n + 1 {
        return Err(format!(
            "--fridges {n}: must be 2..={} with at least 4 entries in the smallest fridge (M/2^(N-1))",
            golden::fridge::MAX_FRIDGES
        ));
    }
    let addr_bits = (0..n).map(|j| if j + 1 < n { bits - 1 - j } else { bits + 1 - n }).collect();
    let hi = pilot.quantile(0.95).ok_or("the pilot run produced no samples")?.max(1.0);
    let lo = pilot.quantile(0.05).unwrap_or(hi).clamp(1.0, hi);
    let targets = (0..n).map(|j| hi * (lo / hi).powf(j as f64 / (n - 1) as f64)).collect();
    Ok((addr_bits, targets))
}

/// Settings of an experiment.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Total memory in entries (power of two).
    pub memory: usize,
    pub p: PChoice,
    /// Fridges of the multi-fridge method (it runs when > 1).
    pub fridges: usize,
    /// The multi-fridge combination's variances from the model rather than the samples ([`Variance`]).
    pub model_variance: bool,
    pub engine: Engine,
    /// Field widths and port structure of the core (the fridge count and sizes are set per method).
    pub core: FridgeConfig,
}

/// Per-method outcomes of one trace.
#[derive(Debug)]
pub struct TraceOutcome {
    pub truth: WeightedCdf,
    pub fridge: Outcome,
    /// The fridge estimate from the in-hardware tally (when the core has one).
    pub fridge_tally: Option<Outcome>,
    pub multi_fridge: Option<Outcome>,
    pub multi_fridge_tally: Option<Outcome>,
    pub simple: Outcome,
    pub expiry: Outcome,
    /// The expiry baseline with twice the memory (the dissertation's memory-saving comparison).
    /// `None` when 2M entries exceed the core's largest table (2^16 at M = 65536).
    pub expiry_2x: Option<Outcome>,
}

/// Runs every method on one trace.
pub fn run_methods(setup: &Setup, trace: &Trace, seed: u64) -> Result<TraceOutcome, String> {
    setup.engine.check()?;
    let truth = WeightedCdf::unweighted(trace.true_delays_ns().into_iter().map(|d| d as f64));
    if truth.is_empty() {
        return Err("the trace has no request/response pairs".into());
    }
    let m = setup.memory;
    if !m.is_power_of_two() || !(4..=65536).contains(&m) {
        return Err(format!("--memory {m}: must be a power of two in 4..=65536"));
    }
    let bits = m.trailing_zeros() as usize;
    let rate = request_rate(trace);
    let one = single_cfg(&setup.core, bits);
    // Pilot whose lifetime spans the trace: an unbiased estimate of the delay distribution for the auto rules.
    let times = || trace.packets.iter().map(|d| d.timestamp);
    let duration_s = match (times().min(), times().max()) {
        (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
        _ => 0.0,
    };
    let p_pilot = auto_p(m, rate, duration_s);
    let pilot = || -> Result<WeightedCdf, String> {
        let rt = runtime(FridgeMode::Fridge, &[p_pilot], u32::MAX, seed);
        let s = run_core(&one, &rt, trace, Engine::Golden)?.samples;
        Ok(corrected(&s, &FridgeParams::of(&one, &rt)))
    };
    let mut pilot_cdf: Option<WeightedCdf> = None;
    let p = match setup.p {
        PChoice::Fixed(p) if p > 0.0 && p <= 1.0 => p,
        PChoice::Fixed(p) => return Err(format!("--p {p}: must be in (0, 1]")),
        PChoice::Auto => {
            let c = pilot()?;
            let d = c.quantile(0.95).ok_or("the pilot run produced no samples")?;
            pilot_cdf = Some(c);
            auto_p(m, rate, d * 1e-9)
        }
    };
    let variance = if setup.model_variance { Variance::Model { request_rate: rate } } else { Variance::Samples };
    // A fridge method's outcome from the samples, and the same from the in-hardware tally (if any).
    let fridge_method =
        |cfg: &FridgeConfig, rt: &FridgeRuntime, multi: bool| -> Result<(Outcome, Option<Outcome>), String> {
            let run = run_core(cfg, rt, trace, setup.engine)?;
            let s = &run.samples;
            let params = FridgeParams::of(cfg, rt);
            let p = params.iter().map(|f| f.p).collect::<Vec<_>>();
            let estimate = if multi { inverse_variance(s, &params, variance) } else { corrected(s, &params) };
            let tally = (!run.tally.is_empty()).then(|| Outcome {
                estimate: from_tally(cfg, &params, &run.tally, multi.then_some(variance)),
                samples: s.len(),
                p: p.clone(),
            });
            Ok((Outcome { estimate, samples: s.len(), p }, tally))
        };
    // A baseline's outcome: its samples unweighted.
    let baseline = |cfg: &FridgeConfig, rt: &FridgeRuntime, engine: Engine| -> Result<Outcome, String> {
        let s = run_core(cfg, rt, trace, engine)?.samples;
        let p = FridgeParams::of(cfg, rt).iter().map(|f| f.p).collect();
        Ok(Outcome { estimate: WeightedCdf::unweighted(s.iter().map(|x| x.delay_ns)), samples: s.len(), p })
    };
    let (fridge, fridge_tally) = fridge_method(&one, &runtime(FridgeMode::Fridge, &[p], u32::MAX, seed), false)?;
    let multi_fridge = if setup.fridges > 1 {
        let n = setup.fridges;
        let c = match &pilot_cdf {
            Some(c) => c.clone(),
            None => pilot()?,
        };
        let (addr_bits, targets) = multi_fridge_plan(bits, n, &c)?;
        let cfg = FridgeConfig { addr_bits, ..setup.core.clone() };
        #[cfg(feature = "rtl")]
        let cfg = if setup.engine == Engine::Rtl { super::rtl::config(&cfg).unwrap_or(cfg) } else { cfg };
        let ps: Vec<f64> = (0..n).map(|k| auto_p(cfg.entries(k), rate * cfg.share(k), targets[k] * 1e-9)).collect();
        Some(fridge_method(&cfg, &runtime(FridgeMode::Fridge, &ps, u32::MAX, seed), true)?)
    } else {
        None
    };
    let (multi_fridge, multi_fridge_tally) = multi_fridge.map_or((None, None), |(o, t)| (Some(o), t));
    let simple = baseline(&one, &runtime(FridgeMode::Simple, &[1.0], u32::MAX, seed), setup.engine)?;
    let p99 = truth.quantile(0.99).unwrap_or(0.0);
    let expiry_units = ((p99 / (1u64 << one.ts_shift) as f64).round() as u64).min(u32::MAX as u64) as u32;
    let expiry_rt = runtime(FridgeMode::Expiry, &[1.0], expiry_units, seed);
    let expiry = baseline(&one, &expiry_rt, setup.engine)?;
    // Only the built RTL configurations exist; the doubled table always runs on the golden model.
    // (At M = 2^16 a doubled table exceeds what the core can be built with: the row is left out.)
    let doubled = single_cfg(&setup.core, bits + 1);
    let expiry_2x = if doubled.check().is_ok() { Some(baseline(&doubled, &expiry_rt, Engine::Golden)?) } else { None };
    Ok(TraceOutcome { truth, fridge, fridge_tally, multi_fridge, multi_fridge_tally, simple, expiry, expiry_2x })
}

/// The four error metrics (|log2(estimated / true)|); `None` where a method gave no estimate.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorSummary {
    pub p50_err: Option<f64>,
    pub p95_err: Option<f64>,
    pub p99_err: Option<f64>,
    pub max_err_5_95: Option<f64>,
    pub ks: Option<f64>,
    pub w1_log2: Option<f64>,
}

/// A method's result over all seeds (JSON shape of `netmeas run fridge --json`): the metrics of the CDF
/// combined over seeds (the dissertation's procedure), and the mean of the per-seed metrics.
#[derive(Debug, Clone, Serialize)]
pub struct MethodSummary {
    pub p50_err: Option<f64>,
    pub p95_err: Option<f64>,
    pub p99_err: Option<f64>,
    pub max_err_5_95: Option<f64>,
    /// Kolmogorov–Smirnov distance of the combined CDFs ([`Errors::ks`]).
    pub ks: Option<f64>,
    /// Wasserstein-1 distance of log2 delay of the combined CDFs, in octaves ([`Errors::w1_log2`]).
    pub w1_log2: Option<f64>,
    /// Mean over seeds of each seed's own metrics.
    pub per_seed: ErrorSummary,
    /// Mean number of delay samples reported per seed.
    pub samples: f64,
    /// Entry probability per fridge (of the last seed).
    pub p: Vec<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GroundTruth {
    /// True percentiles in ns (mean over seeds).
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub samples: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub fridge: MethodSummary,
    /// The same fridge, estimated from its in-hardware tally instead of the per-sample reports.
    pub fridge_tally: Option<MethodSummary>,
    pub multi_fridge: Option<MethodSummary>,
    pub multi_fridge_tally: Option<MethodSummary>,
    pub simple: MethodSummary,
    pub expiry: MethodSummary,
    /// The expiry baseline with 2M entries.
    /// `None` (JSON `null`) at M = 65536: a table of 2M entries exceeds the core's 2^16.
    pub expiry_2x_memory: Option<MethodSummary>,
    pub ground_truth: GroundTruth,
    pub seeds: usize,
    pub memory: usize,
    pub engine: String,
}

/// Collects one method's per-seed outcomes.
#[derive(Default)]
pub struct Accumulator {
    rows: Vec<(Option<Errors>, usize, Vec<f64>)>,
    estimates: Vec<WeightedCdf>,
}

impl Accumulator {
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
    pub fn add(&mut self, o: &Outcome, truth: &WeightedCdf) {
        self.rows.push((errors(&o.estimate, truth), o.samples, o.p.clone()));
        self.estimates.push(o.estimate.clone());
    }
    /// The summary against the ground truths of the same seeds, combined the same way.
    pub fn summary(&self, pooled_truth: &WeightedCdf) -> MethodSummary {
        let mean = |f: fn(&Errors) -> f64| -> Option<f64> {
            let v: Option<Vec<f64>> = self.rows.iter().map(|r| r.0.as_ref().map(f)).collect();
            v.filter(|v| !v.is_empty()).map(|v| v.iter().sum::<f64>() / v.len() as f64)
        };
        let pooled = errors(&WeightedCdf::pool(&self.estimates), pooled_truth);
        MethodSummary {
            p50_err: pooled.map(|e| e.p50_err),
            p95_err: pooled.map(|e| e.p95_err),
            p99_err: pooled.map(|e| e.p99_err),
            max_err_5_95: pooled.map(|e| e.max_err_5_95),
            ks: pooled.map(|e| e.ks),
            w1_log2: pooled.map(|e| e.w1_log2),
            per_seed: ErrorSummary {
                p50_err: mean(|e| e.p50_err),
                p95_err: mean(|e| e.p95_err),
                p99_err: mean(|e| e.p99_err),
                max_err_5_95: mean(|e| e.max_err_5_95),
                ks: mean(|e| e.ks),
                w1_log2: mean(|e| e.w1_log2),
            },
            samples: self.rows.iter().map(|r| r.1 as f64).sum::<f64>() / self.rows.len().max(1) as f64,
            p: self.rows.last().map(|r| r.2.clone()).unwrap_or_default(),
        }
    }
}

/// Where a run's traces come from.
#[derive(Debug, Clone)]
pub enum TraceSource {
    Synthetic(traffic::SyntheticParams),
    Wide(traffic::SyntheticParams),
    /// A capture, its frames decoded in software or through the header parser.
    File(std::path::PathBuf, traffic::TcpMode, traffic::packet::Decoder),
}

impl TraceSource {
    /// The trace of seed `seed` (a file is read once by the caller and reused).
    pub fn generate(&self, seed: u64) -> Result<Trace, String> {
        match self {
            TraceSource::Synthetic(p) => Ok(traffic::synthetic(seed, *p)),
            TraceSource::Wide(p) => Ok(traffic::wide(seed, *p)),
            TraceSource::File(path, mode, decoder) => traffic::load_capture(path, *mode, decoder).map(|e| e.trace),
        }
    }
}

/// Where the seed loop of [`accumulate_seeds`] is (progress display, the first seed's plot).
pub enum SeedEvent<'a> {
    /// A seed starts: its trace is being generated (unless it comes from a file).
    Generating,
    /// The methods run on the trace.
    Running,
    /// Seed `seed`, the `index`-th, is done with this outcome.
    Done { index: u64, seed: u64, outcome: &'a TraceOutcome },
}

/// Runs every method of the setup on the traces of `seeds` seeds (`first`, `first + 1`, …; a capture file
/// is read once and reused) and summarises each method over them (module docs: CDFs combined over seeds);
/// `on` hears of each step and may stop the loop with an error.
pub fn accumulate_seeds(
    setup: &Setup,
    source: &TraceSource,
    first: u64,
    seeds: u64,
    mut on: impl FnMut(SeedEvent<'_>) -> Result<(), String>,
) -> Result<Summary, String> {
    setup.engine.check()?;
    let file_trace = match source {
        TraceSource::File(..) => Some(source.generate(0)?),
        _ => None,
    };
    let (mut fr, mut mf, mut si, mut ex, mut ex2) = (
        Accumulator::default(),
        Accumulator::default(),
        Accumulator::default(),
        Accumulator::default(),
        Accumulator::default(),
    );
    let (mut ft, mut mft) = (Accumulator::default(), Accumulator::default());
    let (mut truths, mut tn) = (Vec::new(), 0.0);
    for index in 0..seeds {
        let seed = first + index;
        on(SeedEvent::Generating)?;
        let generated;
        let trace = match &file_trace {
            Some(t) => t,
            None => {
                generated = source.generate(seed)?;
                &generated
            }
        };
        on(SeedEvent::Running)?;
        let o = run_methods(setup, trace, seed)?;
        fr.add(&o.fridge, &o.truth);
        si.add(&o.simple, &o.truth);
        ex.add(&o.expiry, &o.truth);
        if let Some(m) = &o.expiry_2x {
            ex2.add(m, &o.truth);
        }
        if let Some(m) = &o.multi_fridge {
            mf.add(m, &o.truth);
        }
        if let Some(m) = &o.fridge_tally {
            ft.add(m, &o.truth);
        }
        if let Some(m) = &o.multi_fridge_tally {
            mft.add(m, &o.truth);
        }
        tn += o.truth.len() as f64;
        on(SeedEvent::Done { index, seed, outcome: &o })?;
        truths.push(o.truth);
    }
    let n = seeds as f64;
    let truth = WeightedCdf::pool(&truths);
    let q = |x: f64| truth.quantile(x).unwrap_or(0.0);
    Ok(Summary {
        fridge: fr.summary(&truth),
        fridge_tally: (!ft.is_empty()).then(|| ft.summary(&truth)),
        multi_fridge: (setup.fridges > 1).then(|| mf.summary(&truth)),
        multi_fridge_tally: (!mft.is_empty()).then(|| mft.summary(&truth)),
        simple: si.summary(&truth),
        expiry: ex.summary(&truth),
        expiry_2x_memory: (!ex2.is_empty()).then(|| ex2.summary(&truth)),
        ground_truth: GroundTruth { p50: q(0.5), p95: q(0.95), p99: q(0.99), samples: tn / n },
        seeds: seeds as usize,
        memory: setup.memory,
        engine: setup.engine.name().to_string(),
    })
}
