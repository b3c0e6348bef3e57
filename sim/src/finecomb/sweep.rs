//! `netmeas run finecomb --sweep PARAM[=VALUES]`: the paper's x-axes (§V) as one command — every method's
//! errors and useful samples at each value of ρ (Figures 4, 6, 7(a), 8), β (Figure 4(a)'s curves), the
//! storage S (Figure 5) or an exact number of lost packets (Figure 7(b)), seeds in parallel, and the
//! figure: useful samples (with eq. (2)'s expectation), mean-delay, standard-deviation and loss-rate
//! relative errors against the swept value on log axes, error bars one standard deviation over seeds, as
//! the paper draws them, and FineComb's loss error as [`loss_model`] predicts it and with the residual check.

use super::experiment::{accumulate_outcomes, plans, run_interval, Method, MethodSpread, MethodSummary, Setup};
use super::loss_model::{self, LossPrediction};
use crate::cli::{sweep_seeds, SweepParam};
use crate::plot::{charts_figure, decades, Chart, Figure, Rgb, Scale, Series};
use crate::Engine;
use serde::Serialize;

/// A swept parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// Reordering rate ρ.
    Rho,
    /// Loss rate β.
    Loss,
    /// Total storage S in buckets (`--buckets`).
    Buckets,
    /// Lost packets of the interval, exactly (Fig. 7(b)); β = lost/T for tuning.
    Lost,
}

impl SweepParam for Param {
    const ALL: &'static [(&'static str, Param)] =
        &[("rho", Param::Rho), ("loss", Param::Loss), ("buckets", Param::Buckets), ("lost", Param::Lost)];

    /// The paper's axis: ρ from 4·10⁻⁶ to 4·10⁻² (§V-A), β at Figure 4(a)'s three rates, S around the
    /// 1 000 buckets of §V-B (Figure 5), 5 to 100 lost packets (Fig. 7(b)).
    fn default_values(self) -> Vec<f64> {
        match self {
            Param::Rho => vec![4e-6, 1e-5, 4e-5, 1e-4, 4e-4, 1e-3, 4e-3, 1e-2, 4e-2],
            Param::Loss => vec![1e-4, 1e-3, 1e-2],
            Param::Buckets => vec![250.0, 500.0, 1000.0, 2000.0, 4000.0, 8000.0],
            Param::Lost => vec![5.0, 10.0, 50.0, 100.0],
        }
    }
}

impl Param {
    /// The axis title.
    pub fn axis(self) -> &'static str {
        match self {
            Param::Rho => "reordering rate ρ",
            Param::Loss => "loss rate β",
            Param::Buckets => "storage S (buckets)",
            Param::Lost => "lost packets in the interval",
        }
    }

    /// `setup` with this parameter at `v`, or what is wrong with the value.
    pub fn apply(self, setup: &Setup, v: f64) -> Result<Setup, String> {
        let mut s = setup.clone();
        match self {
            Param::Rho => s.traffic.rho = v,
            Param::Loss => s.traffic.loss = v,
            Param::Lost => {
                if v < 0.0 || v.fract() != 0.0 || v >= s.traffic.packets as f64 {
                    return Err(format!("--sweep lost: {v} is not a whole number of packets below T"));
                }
                s.traffic.lost = Some(v as u64);
                s.traffic.loss = v / s.traffic.packets as f64;
            }
            Param::Buckets => {
                if v < 1.0 || v.fract() != 0.0 || v > 1e7 {
                    return Err(format!("--sweep buckets: {v} is not a whole number of buckets in 1..=10^7"));
                }
                s.storage = v as usize;
            }
        }
        s.traffic.check().map_err(|e| format!("--sweep {}={v}: {e}", self.name()))?;
        plans(&s).map_err(|e| format!("--sweep {}={v}: {e}", self.name()))?;
        Ok(s)
    }
}

/// FineComb's `--sweep`.
pub type Sweep = crate::cli::Sweep<Param>;

/// One method at one point: its metrics averaged over seeds and their spread.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PointResult {
    #[serde(flatten)]
    pub summary: MethodSummary,
    #[serde(flatten)]
    pub spread: MethodSpread,
    /// Seeds in which the method gave a mean-delay estimate.
    pub seeds_with_estimate: usize,
    /// FineComb's loss error with the single-lost-packet residual check (the extension of
    /// `estimate::recover`, not in the paper), averaged over seeds; None for the other methods.
    pub loss_ext_rel_err: Option<f64>,
}

/// One point of the sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub value: f64,
    /// Per method (its `--json` key), in [`Method::ALL`]'s order.
    pub methods: Vec<(Method, PointResult)>,
    /// FineComb's loss error as [`loss_model`] predicts it (single bank, FineComb run, β > 0).
    pub loss_model: Option<LossPrediction>,
}

/// Runs `setup` at every value of `sweep` over seeds `first..first + seeds`: every (value, seed) interval in
/// parallel on the golden engine (one after the other on the RTL engine), a progress bar per value.
pub fn run(setup: &Setup, sweep: &Sweep, first: u64, seeds: u64, progress: bool) -> Result<Vec<Point>, String> {
    let setups: Vec<(f64, Setup)> =
        sweep.values.iter().map(|&v| Ok((v, sweep.param.apply(setup, v)?))).collect::<Result<_, String>>()?;
    setup.engine.check()?;
    let outcomes = sweep_seeds(
        &setups,
        first,
        seeds,
        1,
        setup.engine == Engine::Golden,
        progress,
        |(v, _)| format!("{} = {v:e}", sweep.param.name()),
        |(_, s), seed, _| run_interval(s, seed),
    )?;
    Ok(setups
        .iter()
        .zip(outcomes)
        .map(|((v, s), outs)| Point {
            value: *v,
            loss_model: s
                .methods
                .contains(&Method::Finecomb)
                .then(|| plans(s).ok().and_then(|(fc, _, _)| loss_model::predict(&fc, &s.traffic)))
                .flatten(),
            methods: accumulate_outcomes(&s.methods, &outs)
                .into_iter()
                .map(|(m, a)| {
                    let (summary, spread, seeds_with_estimate) = (a.summary(), a.spread(), a.seeds_with_estimate());
                    let loss_ext_rel_err = a.loss_one_lost_rel_err().filter(|_| m == Method::Finecomb);
                    (m, PointResult { summary, spread, seeds_with_estimate, loss_ext_rel_err })
                })
                .collect(),
        })
        .collect())
}

/// The sweep as JSON: `{"param": …, "points": [{"value": v, "<method key>": {metrics, *_std,
/// seeds_with_estimate, loss_ext_rel_err}, "finecomb_loss_model": {bias, spread, mean_rel_err, reordered_per_bucket,
/// stash_miss}}, …]}`.
pub fn json(sweep: &Sweep, points: &[Point]) -> serde_json::Value {
    let pts: Vec<serde_json::Value> = points
        .iter()
        .map(|p| {
            let mut o = serde_json::Map::new();
            o.insert("value".into(), p.value.into());
            for (m, r) in &p.methods {
                o.insert(m.key().into(), serde_json::to_value(r).unwrap_or_default());
            }
            if let Some(lm) = &p.loss_model {
                o.insert("finecomb_loss_model".into(), serde_json::to_value(lm).unwrap_or_default());
            }
            o.into()
        })
        .collect();
    serde_json::json!({ "param": sweep.param.name(), "points": pts })
}

/// Prints a row per (value, method).
pub fn print_table(sweep: &Sweep, points: &[Point]) {
    println!(
        "{:>10} {:<11} {:>10} {:>9} {:>10} {:>9} {:>10} {:>9} {:>10} {:>10} {:>10} {:>9} {:>7}",
        sweep.param.name(),
        "method",
        "mean_err",
        "±",
        "sd_err",
        "±",
        "loss_err",
        "±",
        "loss_model",
        "loss_ext",
        "useful",
        "expected",
        "seeds"
    );
    let f = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "-".into());
    let g = |v: Option<f64>| v.map(|x| format!("{x:.0}")).unwrap_or_else(|| "-".into());
    for p in points {
        for (m, r) in &p.methods {
            let (s, d) = (r.summary, r.spread);
            println!(
                "{:>10} {:<11} {:>10} {:>9} {:>10} {:>9} {:>10} {:>9} {:>10} {:>10} {:>10} {:>9} {:>7}",
                format!("{:e}", p.value),
                m.cli_name(),
                f(s.mean_delay_rel_err),
                f(d.mean_delay_rel_err_std),
                f(s.stddev_rel_err),
                f(d.stddev_rel_err_std),
                f(s.loss_rel_err),
                f(d.loss_rel_err_std),
                f(p.loss_model.filter(|_| *m == Method::Finecomb).map(|l| l.mean_rel_err)),
                f(r.loss_ext_rel_err),
                g(s.useful_samples),
                g(s.expected_useful_samples),
                r.seeds_with_estimate
            );
        }
    }
    println!(
        "(relative errors |estimate − truth| / truth averaged over seeds; ±: their standard deviation over seeds; \
         loss_model: FineComb's loss error predicted by the bucket model of sim/src/finecomb/loss_model.rs; \
         loss_ext: FineComb's loss error with the single-lost-packet residual check, an extension)"
    );
}

/// The figure: (a) useful samples and eq. (2)'s expectation, (b) mean-delay, (c) standard-deviation and
/// (d) loss-rate relative errors per method against the swept value, log axes, error bars ±1 standard
/// deviation over seeds. A method without an estimate at a point (LDA at high ρ) has no point there.
pub fn figure(title: &str, sweep: &Sweep, points: &[Point]) -> Figure {
    let methods: Vec<Method> = points.first().map(|p| p.methods.iter().map(|m| m.0).collect()).unwrap_or_default();
    let series = |m: Method, get: &dyn Fn(&PointResult) -> (Option<f64>, Option<f64>)| {
        let (mut pts, mut errs) = (vec![], vec![]);
        for p in points {
            if let Some((_, r)) = p.methods.iter().find(|x| x.0 == m) {
                if let (Some(v), e) = get(r) {
                    pts.push((p.value, v));
                    errs.push(e.unwrap_or(0.0));
                }
            }
        }
        Series { label: m.cli_name().into(), points: pts, markers: true, errors: errs, ..Series::default() }
    };
    let chart = |t: &str, y: &str, s: Vec<Series>| {
        let y_range = decades(s.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        Chart {
            title: t.into(),
            x_label: sweep.param.axis().into(),
            y_label: y.into(),
            x_range: decades(sweep.values.iter().copied()),
            y_range,
            x_scale: Scale::Log10,
            y_scale: Scale::Log10,
            series: s,
            ..Chart::default()
        }
    };
    let err = |get: fn(&PointResult) -> (Option<f64>, Option<f64>)| -> Vec<Series> {
        methods.iter().map(|&m| series(m, &get)).collect()
    };
    let mut samples: Vec<Series> =
        methods.iter().map(|&m| series(m, &|r| (r.summary.useful_samples, r.spread.useful_samples_std))).collect();
    for &m in &methods {
        let mut e = series(m, &|r| (r.summary.expected_useful_samples, None));
        e.label = format!("{} eq. (2)", m.cli_name());
        e.errors.clear();
        e.markers = false;
        if !e.points.is_empty() {
            samples.push(e);
        }
    }
    let charts = [
        chart("(a) useful samples", "samples", samples),
        chart("(b) mean delay", "relative error", err(|r| (r.summary.mean_delay_rel_err, r.spread.mean_delay_rel_err_std))),
        chart("(c) standard deviation", "relative error", err(|r| (r.summary.stddev_rel_err, r.spread.stddev_rel_err_std))),
        chart("(d) loss rate", "relative error", {
            let mut s = err(|r| (r.summary.loss_rel_err, r.spread.loss_rel_err_std));
            let model: Vec<(f64, f64)> =
                points.iter().filter_map(|p| p.loss_model.map(|l| (p.value, l.mean_rel_err))).collect();
            if !model.is_empty() {
                let label = "finecomb loss model".to_string();
                s.push(Series { label, points: model, color: Some(Rgb(0x33, 0x33, 0x33)), ..Series::default() });
            }
            let ext = series(Method::Finecomb, &|r| (r.loss_ext_rel_err, None));
            if !ext.points.is_empty() {
                let label = "finecomb + residual check".to_string();
                s.push(Series { label, errors: vec![], color: Some(Rgb(0xbc, 0xbd, 0x22)), ..ext });
            }
            s
        }),
    ];
    charts_figure(title, &charts, 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_values_default_to_the_papers_axis() {
        assert_eq!(Sweep::parse("rho").unwrap().values.first(), Some(&4e-6));
        assert_eq!(Sweep::parse("rho").unwrap().values.last(), Some(&4e-2));
        assert_eq!(Sweep::parse("loss=1e-4,1e-2").unwrap(), Sweep { param: Param::Loss, values: vec![1e-4, 1e-2] });
        assert_eq!(Sweep::parse("buckets=100..10000:3").unwrap().values.len(), 3);
        assert!(Sweep::parse("banks=1,4").unwrap_err().contains("rho, loss, buckets, lost"));
        assert_eq!(Param::Lost.name(), "lost");
        assert_eq!(Sweep::parse("lost").unwrap().values, vec![5.0, 10.0, 50.0, 100.0]);
    }
}
