//! The FineComb experiments of §V: FineComb (with stash), FineComb− (no stash), LDA and LDA+ on the same
//! simulated interval ([`crate::traffic::finecomb`]), each with the same total storage, scored by the
//! relative errors of mean delay, standard deviation and loss rate against the interval's ground truth.
//!
//! ## Resource configuration (§V-A)
//! Storage S (`--buckets`, default 1000) counts bucket-sized entries; stash entries are bucket-sized.
//! - FineComb: p = p* (eq. 8); stash W = p*·R (`--stash auto`, R = 4·max of the reordering tuple) or a
//!   given W; each of the four substashes holds w = ⌈W/4⌉ entries (so W is rounded up to 4w), and the
//!   buckets get the rest: M = S − 4w. A given W = 0 is FineComb without stash and uses p** (eq. 6).
//! - FineComb−: M = S, no stash, p = p** (eq. 6).
//! - LDA / LDA+: buckets are 2/3 the size of FineComb's (no ISD) and the sender has no stash, so LDA gets
//!   1.5·(M + W/2) buckets, with M and W those of FineComb (§V-A). Its sampling rate follows its own
//!   analysis, which knows loss but not reordering: p = min{1, M_LDA / (βT)} (eq. 6 with R = 0).
//!   LDA+ is LDA's readout with negative-delay buckets dropped (software only, same run).
//! - Four banks (`--banks 4`, §III-E/§V-D): banks tuned for (β, ρ) ∈ {10⁻⁴, 10⁻²} × {4·10⁻⁴, 4·10⁻²}, each
//!   sized with S/5 as above; then every bank gets the same number of buckets, the largest of the four,
//!   from the remaining fifth (or what is left of S). FineComb− uses the same banks without stash and
//!   with p**. LDA becomes the paper's two-bank LDA tuned for β ∈ {10⁻⁴, 10⁻²}, half its storage each.
//!
//! The methods are tuned with the true β and ρ of the run (the paper's "optimal" configuration), except
//! the four-bank variants, which only know their operating regions.
//!
//! ## Expected useful samples
//! Eq. (2) at L = E[L] of eq. (4), with G = (1 − β)(T − R_pre^s − R_post^e) good packets, the method's p,
//! M and W (W = 0 without stash; for LDA the count-matching buckets it uses), and R the reordered packets
//! that actually occur (the sum of the tuple, §III-A's definition of R). Tuning uses the provisioned
//! R = 4·max of the tuple instead (§V-A); the two differ by 4× for the forward and backward models, which
//! matters only without a stash (with W = p·4·max ≥ p·sum, max{0, pR − W} = 0 either way).
//! The paper gives no expectation for the four-bank combination: `None` there.

use super::estimate::{
    closest_to_tuned, combine_rows, delay_estimate, loss_finecomb, loss_lda, recover, rows, Check, RecoveryStats, Row,
};
use super::params::{expected_uncorrected, expected_useful, p_no_stash, p_stash};
use crate::traffic::finecomb::{Event, FinecombTrafficParams, IntervalTraffic, IntervalTruth};
use crate::Engine;
use golden::finecomb::{
    threshold_for, BankConfig, Bucket, Digest, FinecombConfig, FinecombModel, FinecombRuntime, IntervalReport, Role,
    MAX_BUCKETS,
};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The four estimators compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    Finecomb,
    /// FineComb without stash ("FineComb−").
    FinecombNoStash,
    Lda,
    LdaPlus,
}

impl Method {
    pub const ALL: [Method; 4] = [Method::Finecomb, Method::FinecombNoStash, Method::Lda, Method::LdaPlus];
    /// The key of `--json`.
    pub fn key(&self) -> &'static str {
        match self {
            Method::Finecomb => "finecomb",
            Method::FinecombNoStash => "finecomb_nostash",
            Method::Lda => "lda",
            Method::LdaPlus => "lda_plus",
        }
    }
    /// The name of `--method`.
    pub fn cli_name(&self) -> &'static str {
        match self {
            Method::Finecomb => "finecomb",
            Method::FinecombNoStash => "finecomb-",
            Method::Lda => "lda",
            Method::LdaPlus => "lda+",
        }
    }
}

/// Stash size of FineComb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StashChoice {
    /// W* = p*·R (§IV-C).
    Auto,
    /// W entries in all (rounded up to a multiple of 4).
    Fixed(usize),
}

/// The operating regions of the four banks (§V-D): β ∈ {10⁻⁴, 10⁻²} × ρ ∈ {4·10⁻⁴, 4·10⁻²}.
pub const BANK_REGIONS: [(f64, f64); 4] = [(1e-4, 4e-4), (1e-4, 4e-2), (1e-2, 4e-4), (1e-2, 4e-2)];
/// The loss rates of the two-bank LDA (§V-D).
pub const LDA_BANK_LOSSES: [f64; 2] = [1e-4, 1e-2];

/// One bank as a method runs it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BankPlan {
    pub buckets: usize,
    /// Entries per substash (w).
    pub stash_depth: usize,
    /// Sampling probability as programmed (a multiple of 2^-32).
    pub p: f64,
    /// Loss rate the bank was tuned for.
    pub tuned_loss: f64,
}

/// A core configuration for one method (LDA+ shares LDA's).
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub banks: Vec<BankPlan>,
    pub isd: bool,
}

impl Plan {
    pub fn config(&self, role: Role) -> FinecombConfig {
        FinecombConfig {
            role,
            banks: self.banks.iter().map(|b| BankConfig { buckets: b.buckets, stash_depth: b.stash_depth }).collect(),
            isd: self.isd,
        }
    }
    pub fn runtime(&self) -> FinecombRuntime {
        FinecombRuntime::with_probabilities(&self.banks.iter().map(|b| b.p).collect::<Vec<_>>())
    }
    /// Total stash entries W (4w per bank).
    pub fn stash_entries(&self) -> usize {
        self.banks.iter().map(|b| 4 * b.stash_depth).sum()
    }
}

/// Settings of an experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub traffic: FinecombTrafficParams,
    /// Total storage S of FineComb in bucket-sized entries.
    pub storage: usize,
    pub stash: StashChoice,
    /// 1 or 4.
    pub banks: usize,
    pub methods: Vec<Method>,
    /// Golden transaction model, or the Verilated core (cross-checked against golden).
    pub engine: Engine,
}

/// A FineComb bank for storage `s` tuned for (β, ρ) (module docs).
fn finecomb_bank(s: usize, beta: f64, rho: f64, t: f64, stash: StashChoice) -> Result<BankPlan, String> {
    let r = rho * t;
    let (p, w) = match stash {
        StashChoice::Fixed(0) => (p_no_stash(s as f64, r, beta, t), 0),
        StashChoice::Fixed(w) => (p_stash(s as f64, rho, beta, t), w.div_ceil(4)),
        StashChoice::Auto => {
            let p = p_stash(s as f64, rho, beta, t);
            (p, ((p * r).round() as usize).div_ceil(4))
        }
    };
    if 4 * w >= s {
        return Err(format!("a stash of {} entries leaves no buckets in a storage of {s}", 4 * w));
    }
    Ok(BankPlan { buckets: s - 4 * w, stash_depth: w, p, tuned_loss: beta })
}

/// LDA's buckets for the memory of FineComb banks: 1.5 · (M + W/2) (module docs).
fn lda_buckets(finecomb: &[BankPlan]) -> usize {
    let m: usize = finecomb.iter().map(|b| b.buckets).sum();
    let w: usize = finecomb.iter().map(|b| 4 * b.stash_depth).sum();
    (1.5 * (m as f64 + w as f64 / 2.0)).round() as usize
}

fn lda_bank(buckets: usize, beta: f64, t: f64) -> BankPlan {
    let buckets = buckets.min(MAX_BUCKETS);
    BankPlan { buckets, stash_depth: 0, p: p_no_stash(buckets as f64, 0.0, beta, t), tuned_loss: beta }
}

/// The probabilities as the threshold CSRs realize them.
fn programmed(mut plan: Plan) -> Plan {
    for b in &mut plan.banks {
        b.p = golden::finecomb::probability_of(golden::finecomb::threshold_for(b.p));
    }
    plan
}

/// Plans of FineComb, FineComb− and LDA for a setup.
pub fn plans(setup: &Setup) -> Result<(Plan, Plan, Plan), String> {
    let tp = &setup.traffic;
    let t = tp.packets as f64;
    let s = setup.storage;
    if !(8..=MAX_BUCKETS).contains(&s) {
        return Err(format!("--buckets {s}: total storage must be in 8..={MAX_BUCKETS}"));
    }
    let (fc, nostash, lda) = match setup.banks {
        1 => {
            let rho = tp.tuple().provisioned_r() as f64 / t;
            let fc = finecomb_bank(s, tp.loss, rho, t, setup.stash)?;
            let ns = finecomb_bank(s, tp.loss, rho, t, StashChoice::Fixed(0))?;
            let lda = lda_bank(lda_buckets(&[fc]), tp.loss, t);
            (vec![fc], vec![ns], vec![lda])
        }
        4 => {
            if setup.stash != StashChoice::Auto {
                return Err("--banks 4 sizes each bank's stash itself (§V-D): use --stash auto".into());
            }
            let equalize = |mut banks: Vec<BankPlan>| -> Result<Vec<BankPlan>, String> {
                let stash: usize = banks.iter().map(|b| 4 * b.stash_depth).sum();
                let widest = banks.iter().map(|b| b.buckets).max().unwrap_or(0);
                let m = widest.min(s.saturating_sub(stash) / banks.len());
                if m == 0 {
                    return Err(format!("--buckets {s}: too small for four banks"));
                }
                banks.iter_mut().for_each(|b| b.buckets = m);
                Ok(banks)
            };
            let part = s / 5;
            let fc: Result<Vec<_>, _> =
                BANK_REGIONS.iter().map(|&(b, r)| finecomb_bank(part, b, r, t, StashChoice::Auto)).collect();
            let ns: Result<Vec<_>, _> =
                BANK_REGIONS.iter().map(|&(b, r)| finecomb_bank(part, b, r, t, StashChoice::Fixed(0))).collect();
            let fc = equalize(fc?)?;
            let half = lda_buckets(&fc) / LDA_BANK_LOSSES.len();
            (fc, equalize(ns?)?, LDA_BANK_LOSSES.iter().map(|&b| lda_bank(half, b, t)).collect())
        }
        n => return Err(format!("--banks {n}: the paper defines 1 bank or the 4-bank layout of §III-E")),
    };
    let plan = |banks, isd| programmed(Plan { banks, isd });
    Ok((plan(fc, true), plan(nostash, true), plan(lda, false)))
}

/// A method's result on one interval.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Outcome {
    pub mean_ns: Option<f64>,
    pub stddev_ns: Option<f64>,
    pub loss: Option<f64>,
    /// The loss estimate with the single-lost-packet explanation of [`recover`] (an extension; equal to
    /// `loss` for methods without stash).
    pub loss_one_lost: Option<f64>,
    pub useful_samples: u64,
    pub expected_useful_samples: Option<f64>,
    pub recovery: RecoveryStats,
    pub recovery_time: Duration,
}

/// The results of one seed.
#[derive(Debug, Clone)]
pub struct IntervalOutcome {
    pub truth: IntervalTruth,
    pub results: Vec<(Method, Outcome)>,
}

/// Runs both ends of every plan over the traffic and returns the readouts of the measured interval. The RTL
/// engine runs each end on the Verilated core (checked cycle by cycle against the golden cycle model) and
/// its readout must also equal the golden transaction model's.
fn run_cores(
    traffic: &IntervalTraffic,
    plans: &[&Plan],
    engine: Engine,
) -> Result<Vec<(IntervalReport, IntervalReport)>, String> {
    let golden = golden_cores(traffic, plans)?;
    match engine {
        Engine::Golden => Ok(golden),
        #[cfg(feature = "rtl")]
        Engine::Rtl => super::rtl::cores(traffic, plans, golden),
        #[cfg(not(feature = "rtl"))]
        Engine::Rtl => Err(crate::RTL_MISSING.into()),
    }
}

/// [`run_cores`] on the golden transaction model.
fn golden_cores(traffic: &IntervalTraffic, plans: &[&Plan]) -> Result<Vec<(IntervalReport, IntervalReport)>, String> {
    let digest = Digest::new();
    let mut out = Vec::new();
    let mut ends: Vec<Vec<Option<IntervalReport>>> = Vec::new();
    for (role, runs) in [(Role::Sender, traffic.sender()), (Role::Receiver, traffic.receiver())] {
        let mut cores: Vec<FinecombModel> = plans
            .iter()
            .map(|p| FinecombModel::new(&p.config(role), p.runtime()).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        // The measured interval is the second one (number 1).
        let mut got: Vec<Option<IntervalReport>> = vec![None; cores.len()];
        let mut keep = |k: usize, r: Option<IntervalReport>| {
            if let Some(r) = r.filter(|r| r.interval == 1) {
                got[k] = Some(r);
            }
        };
        traffic.events(&runs, role == Role::Receiver, |e| match e {
            Event::Packet(i) => {
                let p = traffic.packet(i);
                let ts = if role == Role::Sender { p.sent } else { p.received() };
                let d = digest.of(p.key);
                for (k, c) in cores.iter_mut().enumerate() {
                    keep(k, c.step_digest(d, ts));
                }
            }
            Event::Marker(m) => {
                for (k, c) in cores.iter_mut().enumerate() {
                    keep(k, c.step(&m));
                }
            }
        });
        for (k, c) in cores.iter_mut().enumerate() {
            keep(k, c.flush());
        }
        ends.push(got);
    }
    let receivers = ends.pop().unwrap_or_default();
    let senders = ends.pop().unwrap_or_default();
    for (s, r) in senders.into_iter().zip(receivers) {
        match (s, r) {
            (Some(s), Some(r)) => out.push((s, r)),
            _ => return Err("the measured interval was not read out at both ends".into()),
        }
    }
    Ok(out)
}

/// Estimates of one method from its readouts.
fn evaluate(
    method: Method,
    plan: &Plan,
    sender: &IntervalReport,
    receiver: &IntervalReport,
    expected: Option<f64>,
) -> Result<Outcome, String> {
    let mut recovery = RecoveryStats::default();
    let started = Instant::now();
    let (recovered, loss_view): (Vec<Vec<Bucket>>, Vec<Vec<Bucket>>) = sender
        .banks
        .iter()
        .zip(&receiver.banks)
        .zip(&plan.banks)
        .map(|((s, r), b)| {
            if method == Method::Finecomb && plan.stash_entries() > 0 {
                let rec = recover(s, r, Some(threshold_for(b.p)));
                recovery.add(&rec.stats);
                (rec.buckets, rec.loss_buckets)
            } else {
                (r.buckets.clone(), r.buckets.clone())
            }
        })
        .unzip();
    let recovery_time = started.elapsed();
    let check = match method {
        Method::Finecomb | Method::FinecombNoStash => Check::Isd,
        Method::Lda => Check::Count,
        Method::LdaPlus => Check::CountNonNegative,
    };
    let per_bank: Vec<Vec<Option<Row>>> =
        sender.banks.iter().zip(&recovered).map(|(s, r)| rows(&s.buckets, r, check)).collect();
    let used: Vec<Row> =
        if per_bank.len() == 1 { per_bank[0].iter().flatten().copied().collect() } else { combine_rows(&per_bank)? };
    let delay = delay_estimate(&used);
    let loss_of = |view: &[Vec<Bucket>]| {
        let losses: Vec<(Option<f64>, f64)> = sender
            .banks
            .iter()
            .zip(view)
            .zip(&plan.banks)
            .map(|((s, r), b)| {
                let l = if plan.isd { loss_finecomb(&s.buckets, r) } else { loss_lda(&s.buckets, r) };
                (l, b.tuned_loss)
            })
            .collect();
        if losses.len() == 1 {
            losses[0].0
        } else {
            closest_to_tuned(&losses)
        }
    };
    Ok(Outcome {
        mean_ns: delay.mean_ns,
        stddev_ns: delay.stddev_ns,
        loss: loss_of(&recovered),
        loss_one_lost: loss_of(&loss_view),
        useful_samples: delay.samples,
        expected_useful_samples: expected,
        recovery,
        recovery_time,
    })
}

/// Eq. (2) at L = E[L] (module docs); `None` for several banks.
pub fn expected_samples(plan: &Plan, traffic: &FinecombTrafficParams) -> Option<f64> {
    if plan.banks.len() != 1 {
        return None;
    }
    let b = plan.banks[0];
    let t = traffic.packets as f64;
    let tuple = traffic.tuple();
    let good = (1.0 - traffic.loss) * (t - tuple.missing() as f64);
    let l = expected_uncorrected(b.p, traffic.loss, t, tuple.total() as f64, (4 * b.stash_depth) as f64);
    Some(expected_useful(b.p, good, b.buckets as f64, l))
}

/// Packets of the neighbouring intervals beyond the drifting ones: enough for the stash queues around
/// both markers to fill (4w/p), at most one interval.
fn margin(plans: &[&Plan], packets: u64) -> u64 {
    let need = plans
        .iter()
        .flat_map(|p| &p.banks)
        .map(|b| (4.0 * b.stash_depth as f64 / b.p).ceil() as u64)
        .max()
        .unwrap_or(0);
    (need + 1000).min(packets)
}

/// Runs every method of the setup on the interval of `seed`.
pub fn run_interval(setup: &Setup, seed: u64) -> Result<IntervalOutcome, String> {
    if setup.methods.is_empty() {
        return Err("no method to run".into());
    }
    setup.engine.check()?;
    let (fc, ns, lda) = plans(setup)?;
    let wanted = |m: Method| setup.methods.contains(&m);
    let mut runs: Vec<(Vec<Method>, &Plan)> = Vec::new();
    if wanted(Method::Finecomb) {
        runs.push((vec![Method::Finecomb], &fc));
    }
    if wanted(Method::FinecombNoStash) {
        runs.push((vec![Method::FinecombNoStash], &ns));
    }
    let lda_methods: Vec<Method> = [Method::Lda, Method::LdaPlus].into_iter().filter(|m| wanted(*m)).collect();
    if !lda_methods.is_empty() {
        runs.push((lda_methods, &lda));
    }
    let plan_refs: Vec<&Plan> = runs.iter().map(|r| r.1).collect();
    let traffic = IntervalTraffic::new(setup.traffic, seed, margin(&plan_refs, setup.traffic.packets))?;
    let reports = run_cores(&traffic, &plan_refs, setup.engine)?;
    let mut results = Vec::new();
    for ((methods, plan), (s, r)) in runs.iter().zip(&reports) {
        for &m in methods {
            results.push((m, evaluate(m, plan, s, r, expected_samples(plan, &setup.traffic))?));
        }
    }
    results.sort_by_key(|(m, _)| Method::ALL.iter().position(|x| x == m));
    Ok(IntervalOutcome { truth: traffic.truth(), results })
}

/// Runs every method of the setup on `seeds` intervals (seeds `first`, `first + 1`, …) and accumulates each
/// method's results; `seed_done` is called after each seed (progress display).
pub fn accumulate_seeds(
    setup: &Setup,
    first: u64,
    seeds: u64,
    mut seed_done: impl FnMut(),
) -> Result<Vec<(Method, Accumulator)>, String> {
    let mut outcomes = Vec::with_capacity(seeds as usize);
    for seed in first..first + seeds {
        outcomes.push(run_interval(setup, seed)?);
        seed_done();
    }
    Ok(accumulate_outcomes(&setup.methods, &outcomes))
}

/// Each of `methods`' results over the intervals' outcomes (in their order).
pub fn accumulate_outcomes(methods: &[Method], outcomes: &[IntervalOutcome]) -> Vec<(Method, Accumulator)> {
    let mut acc: Vec<(Method, Accumulator)> = methods.iter().map(|m| (*m, Accumulator::default())).collect();
    for o in outcomes {
        for (m, out) in &o.results {
            if let Some((_, ac)) = acc.iter_mut().find(|(x, _)| x == m) {
                ac.add(out, &o.truth);
            }
        }
    }
    acc
}

/// Relative error |estimate − truth| / truth (None without an estimate or with a zero truth).
pub fn rel_err(estimate: Option<f64>, truth: f64) -> Option<f64> {
    estimate.filter(|_| truth > 0.0).map(|e| (e - truth).abs() / truth)
}

/// A method's metrics averaged over seeds (the JSON shape of `netmeas run finecomb --json`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MethodSummary {
    pub mean_delay_rel_err: Option<f64>,
    pub stddev_rel_err: Option<f64>,
    pub loss_rel_err: Option<f64>,
    pub useful_samples: Option<f64>,
    pub expected_useful_samples: Option<f64>,
}

/// Per-method collection over seeds.
#[derive(Debug, Clone, Default)]
pub struct Accumulator {
    mean: Vec<Option<f64>>,
    stddev: Vec<Option<f64>>,
    loss: Vec<Option<f64>>,
    loss_one_lost: Vec<Option<f64>>,
    samples: Vec<f64>,
    expected: Vec<Option<f64>>,
    /// Seeds, recovered/attempted buckets and recovery time in all.
    pub seeds: usize,
    pub recovery: RecoveryStats,
    pub recovery_time: Duration,
}

fn average(v: &[Option<f64>]) -> Option<f64> {
    let xs: Vec<f64> = v.iter().flatten().copied().collect();
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Sample standard deviation (n − 1) of the present values; None with fewer than two.
fn std_dev(v: &[Option<f64>]) -> Option<f64> {
    let xs: Vec<f64> = v.iter().flatten().copied().collect();
    let mean = average(v)?;
    (xs.len() >= 2).then(|| (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt())
}

/// The spread over seeds of a method's metrics (the error bars of the paper's figures: "standard
/// deviations of estimation errors"): sample standard deviations, None with fewer than two seeds that gave
/// the metric.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MethodSpread {
    pub mean_delay_rel_err_std: Option<f64>,
    pub stddev_rel_err_std: Option<f64>,
    pub loss_rel_err_std: Option<f64>,
    pub useful_samples_std: Option<f64>,
}

impl Accumulator {
    pub fn add(&mut self, o: &Outcome, truth: &IntervalTruth) {
        self.mean.push(rel_err(o.mean_ns, truth.mean_delay_ns));
        self.stddev.push(rel_err(o.stddev_ns, truth.stddev_ns));
        self.loss.push(rel_err(o.loss, truth.loss_rate));
        self.loss_one_lost.push(rel_err(o.loss_one_lost, truth.loss_rate));
        self.samples.push(o.useful_samples as f64);
        self.expected.push(o.expected_useful_samples);
        self.seeds += 1;
        self.recovery.add(&o.recovery);
        self.recovery_time += o.recovery_time;
    }
    /// Mean relative error of [`Outcome::loss_one_lost`].
    pub fn loss_one_lost_rel_err(&self) -> Option<f64> {
        average(&self.loss_one_lost)
    }
    /// Seeds in which the method gave a mean-delay estimate.
    pub fn seeds_with_estimate(&self) -> usize {
        self.mean.iter().flatten().count()
    }
    pub fn spread(&self) -> MethodSpread {
        let samples: Vec<Option<f64>> = self.samples.iter().map(|&x| Some(x)).collect();
        MethodSpread {
            mean_delay_rel_err_std: std_dev(&self.mean),
            stddev_rel_err_std: std_dev(&self.stddev),
            loss_rel_err_std: std_dev(&self.loss),
            useful_samples_std: std_dev(&samples),
        }
    }
    pub fn summary(&self) -> MethodSummary {
        MethodSummary {
            mean_delay_rel_err: average(&self.mean),
            stddev_rel_err: average(&self.stddev),
            loss_rel_err: average(&self.loss),
            useful_samples: (!self.samples.is_empty())
                .then(|| self.samples.iter().sum::<f64>() / self.samples.len() as f64),
            expected_useful_samples: average(&self.expected),
        }
    }
}
