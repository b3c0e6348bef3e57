//! §5.4's evaluation over a stored run with ground truth (`netmeas query maple` without `--key`/`--flow`):
//! - **Fig. 8(a)**: every packet of every measured epoch is queried in its own epoch; per level
//!   ([`Level`]) the relative error of each group's average latency ([`super::aggregate`]), as a CDF;
//! - **Fig. 8(c)**: every packet of epoch `i` queried in its true epoch plus the `b = 1..=B` previous
//!   (bogus) epochs, combined by the timing rule ([`super::query::combine`]): the per-packet absolute error
//!   of the answered refined latency, per `b`.
//!
//! All curves cover the same packets: the measured epochs `i ≥ B` (so every one has its `B` previous
//! epochs; warm-up epochs are stored and serve as bogus ones). Seeds pool.

use super::aggregate::{groups, stat, GroupStat, Level};
use super::epochs::StoredRun;
use super::metrics::Tally;
use super::query::{combine, Combine, EpochCandidates, QueryEngine};
use crate::fridge::estimate::WeightedCdf;
use golden::maple::MatchKind;
use serde::Serialize;
use std::collections::BTreeMap;

/// The percentiles reported.
pub const PCTS: [u32; 6] = [25, 50, 75, 90, 95, 99];

/// What to evaluate.
#[derive(Debug, Clone)]
pub struct EvalSetup {
    pub levels: Vec<Level>,
    /// Bogus previous epochs `B` (curves for `b = 0..=B`).
    pub bogus: usize,
    pub rule: Combine,
    /// One stored seed, or all.
    pub seed: Option<u64>,
    /// Keep the `top` groups with the most packets per level (not the packet level).
    pub top: usize,
}

/// One level's relative errors.
#[derive(Debug, Clone, Serialize)]
pub struct LevelResult {
    pub level: &'static str,
    pub groups: u64,
    /// Share of groups with one packet (the paper: 46 % of flows, 41 % of hosts, 13 % of /16 prefixes).
    pub single_packet: f64,
    /// Groups without an estimate (no answered packet).
    pub unanswered: u64,
    /// Relative error percentiles (`p50` …, fractions).
    pub relative_error: BTreeMap<String, f64>,
    pub mean_relative_error: f64,
    /// The largest groups: (seed, epoch, label, stat).
    pub top: Vec<TopGroup>,
    /// The relative errors, ascending.
    #[serde(skip)]
    pub sorted: Vec<f64>,
}

/// The `q`-quantile of ascending `v` (linear between order statistics; `None` when empty).
pub fn quantile(v: &[f64], q: f64) -> Option<f64> {
    let last = v.len().checked_sub(1)?;
    let x = q.clamp(0.0, 1.0) * last as f64;
    let (i, f) = (x.floor() as usize, x.fract());
    Some(if i >= last { v[last] } else { v[i] + f * (v[i + 1] - v[i]) })
}

#[derive(Debug, Clone, Serialize)]
pub struct TopGroup {
    pub seed: u64,
    pub epoch: usize,
    pub group: String,
    #[serde(flatten)]
    pub stat: GroupStat,
    pub relative_error: Option<f64>,
}

/// One `b`'s per-packet errors.
#[derive(Debug, Clone, Serialize)]
pub struct BogusResult {
    pub bogus: usize,
    pub packets: u64,
    /// Shares of packets: several candidate pairs; answered from a bogus epoch; no estimate.
    pub multi_match: f64,
    pub wrong_epoch: f64,
    pub unanswered: f64,
    /// Absolute error percentiles, µs.
    pub abs_err_us: BTreeMap<String, f64>,
    #[serde(skip)]
    pub cdf: WeightedCdf,
}

#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    pub seeds: Vec<u64>,
    /// Epochs evaluated (all seeds).
    pub epochs: usize,
    pub packets: u64,
    pub rule: &'static str,
    pub levels: Vec<LevelResult>,
    pub bogus: Vec<BogusResult>,
}

fn percentiles(quantile: impl Fn(f64) -> Option<f64>, scale: f64) -> BTreeMap<String, f64> {
    PCTS.iter().map(|&p| (format!("p{p}"), quantile(p as f64 / 100.0).unwrap_or(f64::NAN) * scale)).collect()
}

#[derive(Default)]
struct LevelAcc {
    rel: Vec<f64>,
    groups: u64,
    single: u64,
    unanswered: u64,
    top: Vec<TopGroup>,
}

/// Runs the evaluation; `tick` after each evaluated epoch.
pub fn evaluate(run: &StoredRun, s: &EvalSetup, tick: &dyn Fn()) -> Result<Evaluation, String> {
    let m = &run.manifest;
    let seeds: Vec<_> = match s.seed {
        Some(x) => vec![run.seed(Some(x))?],
        None => m.seeds.iter().collect(),
    };
    let mut lv: Vec<LevelAcc> = s.levels.iter().map(|_| LevelAcc::default()).collect();
    // Per b: the tally (packets, multi-matches, errors) and the packets answered from a bogus epoch.
    let mut bg: Vec<(Tally, u64)> = (0..=s.bogus).map(|_| (Tally::default(), 0)).collect();
    let mut evaluated = 0;
    for seed in &seeds {
        let mut q = QueryEngine::new(seed.config.clone(), seed.tie_break);
        for e in &seed.epochs {
            q.add(e.epoch, &run.record(seed, e)?)?;
            let window_stored = (0..=s.bogus).all(|j| e.epoch >= j && q.state(e.epoch - j).is_some());
            if !e.measured || !window_stored {
                continue;
            }
            let Some(packets) = run.truth(seed, e)? else {
                return Err(format!(
                    "seed {} epoch {}: stored without its packets, so there is no ground truth to evaluate",
                    seed.seed, e.epoch
                ));
            };
            let keys: Vec<u128> = packets.iter().map(|d| d.key).collect();
            let truth: Vec<u32> = packets.iter().map(|d| d.latency).collect();
            let mut est0: Vec<Option<u32>> = Vec::with_capacity(keys.len());
            for (&k, &lat) in keys.iter().zip(&truth) {
                let c: Vec<EpochCandidates> =
                    (0..=s.bogus).map(|j| q.candidates(e.epoch - j, k).expect("window stored")).collect();
                for (b, (t, wrong)) in bg.iter_mut().enumerate() {
                    let a = combine(e.epoch, &c[..=b], seed.tie_break, s.rule);
                    t.packets += 1;
                    t.multi += (a.kind == MatchKind::MultiMatch) as u64;
                    *wrong += a.epoch.is_some_and(|x| x != e.epoch) as u64;
                    match a.refined {
                        Some(v) => t.error(v.abs_diff(lat)),
                        None => t.none += 1,
                    }
                    if b == 0 {
                        est0.push(a.refined);
                    }
                }
            }
            for (acc, &level) in lv.iter_mut().zip(&s.levels) {
                let gs = groups(&m.key_layout, level, &keys);
                let mut stats: Vec<(usize, GroupStat)> = vec![];
                for (gi, g) in gs.iter().enumerate() {
                    let st = stat(g, &truth, &est0);
                    acc.groups += 1;
                    acc.single += (st.packets == 1) as u64;
                    match st.relative_error() {
                        Some(r) => acc.rel.push(r),
                        None => acc.unanswered += 1,
                    }
                    if s.top > 0 && level != Level::Packet {
                        stats.push((gi, st));
                    }
                }
                stats.sort_by_key(|(gi, st)| (std::cmp::Reverse(st.packets), *gi));
                acc.top.extend(stats.into_iter().take(s.top).map(|(gi, st)| TopGroup {
                    seed: seed.seed,
                    epoch: e.epoch,
                    group: m.key_layout.label(level, gs[gi].id, gs[gi].part),
                    relative_error: st.relative_error(),
                    stat: st,
                }));
            }
            evaluated += 1;
            tick();
        }
    }
    if evaluated == 0 {
        return Err(format!(
            "no measured epoch with {} previous stored epoch(s) to evaluate (--bogus {})",
            s.bogus, s.bogus
        ));
    }
    let levels = lv
        .into_iter()
        .zip(&s.levels)
        .map(|(mut a, &level)| {
            let mean = a.rel.iter().sum::<f64>() / a.rel.len().max(1) as f64;
            a.rel.sort_by(f64::total_cmp);
            a.top.sort_by_key(|t| std::cmp::Reverse(t.stat.packets));
            a.top.truncate(s.top);
            LevelResult {
                level: level.name(),
                groups: a.groups,
                single_packet: a.single as f64 / a.groups.max(1) as f64,
                unanswered: a.unanswered,
                relative_error: percentiles(|q| quantile(&a.rel, q), 1.0),
                mean_relative_error: mean,
                top: a.top,
                sorted: a.rel,
            }
        })
        .collect();
    let bogus = bg
        .into_iter()
        .enumerate()
        .map(|(b, (t, wrong))| {
            let n = t.packets.max(1) as f64;
            let cdf = t.cdf();
            BogusResult {
                bogus: b,
                packets: t.packets,
                multi_match: t.multi as f64 / n,
                wrong_epoch: wrong as f64 / n,
                unanswered: t.none as f64 / n,
                abs_err_us: percentiles(|q| cdf.quantile(q), 1e-3),
                cdf,
            }
        })
        .collect::<Vec<_>>();
    Ok(Evaluation {
        seeds: seeds.iter().map(|x| x.seed).collect(),
        epochs: evaluated,
        packets: bogus[0].packets,
        rule: s.rule.name(),
        levels,
        bogus,
    })
}
