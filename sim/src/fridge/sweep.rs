//! `netmeas run fridge --sweep memory|p[=VALUES]`: the §2.4 axes as one command — every method's errors
//! against the total memory M (§2.4.3: where the multi-fridge helps) or the fridge's entry probability p
//! (§2.4.2: the choice of p), the points in parallel, and the figure: the paper's max |log2| percentile error
//! over 5..95 % and p99 error, and the whole-CDF distances KS and W1 (log2), one line per method, log y.

use super::experiment::{accumulate_seeds, MethodSummary, PChoice, SeedEvent, Setup, Summary, TraceSource};
use crate::cli::{sweep_seeds, SweepParam};
use crate::plot::{charts_figure, decades, Chart, Figure, Scale, Series};
use crate::Engine;

/// A swept parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// Total memory M of every method, entries (powers of two, 4..=65536).
    Memory,
    /// The single fridge's entry probability p.
    P,
}

impl SweepParam for Param {
    const ALL: &'static [(&'static str, Param)] = &[("memory", Param::Memory), ("p", Param::P)];

    /// M = 64 … 16384 (§2.4.3), p = 1e-4 … 1 (§2.4.2).
    fn default_values(self) -> Vec<f64> {
        match self {
            Param::Memory => (6..=14).map(|e| (1u64 << e) as f64).collect(),
            Param::P => vec![1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0],
        }
    }
}

impl Param {
    fn axis(self) -> (&'static str, Scale) {
        match self {
            Param::Memory => ("memory M (entries, log2)", Scale::Log2),
            Param::P => ("entry probability p", Scale::Log10),
        }
    }

    /// `setup` with this parameter at `v`, or what is wrong with the value.
    pub fn apply(self, setup: &Setup, v: f64) -> Result<Setup, String> {
        let mut s = setup.clone();
        match self {
            Param::Memory => {
                let m = v as usize;
                if v.fract() != 0.0 || !m.is_power_of_two() || !(4..=65536).contains(&m) {
                    return Err(format!("--sweep memory: {v} is not a power of two in 4..=65536"));
                }
                s.memory = m;
            }
            Param::P => {
                if !(v > 0.0 && v <= 1.0) {
                    return Err(format!("--sweep p: {v} is not a probability in (0, 1]"));
                }
                s.p = PChoice::Fixed(v);
            }
        }
        Ok(s)
    }
}

/// The fridge's `--sweep`.
pub type Sweep = crate::cli::Sweep<Param>;

/// One point: the swept value and the experiment's summary there.
pub struct Point {
    pub value: f64,
    pub summary: Summary,
}

/// Runs the experiment at every value (the points in parallel on the golden engine, one after the other on
/// the RTL; each point's seeds in order, their CDFs combined as in the single run).
pub fn run(
    setup: &Setup,
    source: &TraceSource,
    sweep: &Sweep,
    first: u64,
    seeds: u64,
    progress: bool,
) -> Result<Vec<Point>, String> {
    let setups: Vec<(f64, Setup)> =
        sweep.values.iter().map(|&v| Ok((v, sweep.param.apply(setup, v)?))).collect::<Result<_, String>>()?;
    // One job per point over all its seeds (the summary combines them), ticking its bar per seed.
    let mut out = sweep_seeds(
        &setups,
        0,
        1,
        seeds,
        setup.engine == Engine::Golden,
        progress,
        |(v, _)| format!("{} = {v}", sweep.param.name()),
        |(v, s), _, tick| {
            let summary = accumulate_seeds(s, source, first, seeds, |e| {
                if let SeedEvent::Done { .. } = e {
                    tick();
                }
                Ok(())
            })?;
            Ok(Point { value: *v, summary })
        },
    )?;
    Ok(out.iter_mut().filter_map(|v| v.pop()).collect())
}

/// The methods of a summary with their names (the table's and the JSON's).
fn methods(s: &Summary) -> Vec<(&'static str, &MethodSummary)> {
    let mut v = vec![("fridge", &s.fridge)];
    if let Some(m) = &s.multi_fridge {
        v.push(("multi_fridge", m));
    }
    v.push(("simple", &s.simple));
    v.push(("expiry", &s.expiry));
    v
}

/// `{"param": …, "points": [{"value": v, "summary": <the single run's JSON>}, …]}`.
pub fn json(sweep: &Sweep, points: &[Point]) -> Result<serde_json::Value, String> {
    let pts: Vec<serde_json::Value> = points
        .iter()
        .map(|p| Ok(serde_json::json!({ "value": p.value, "summary": serde_json::to_value(&p.summary).map_err(|e| e.to_string())? })))
        .collect::<Result<_, String>>()?;
    Ok(serde_json::json!({ "param": sweep.param.name(), "points": pts }))
}

/// A row per (value, method).
pub fn print_table(sweep: &Sweep, points: &[Point]) {
    println!(
        "{:>8} {:<13} {:>13} {:>9} {:>9} {:>7} {:>8} {:>10}  p",
        sweep.param.name(),
        "method",
        "max_err_5_95",
        "p95_err",
        "p99_err",
        "KS",
        "W1_log2",
        "samples"
    );
    let f = |v: Option<f64>| v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "-".into());
    let f4 = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "-".into());
    for p in points {
        for (name, m) in methods(&p.summary) {
            let ps: Vec<String> = m.p.iter().map(|p| format!("{p:.3}")).collect();
            println!(
                "{:>8} {:<13} {:>13} {:>9} {:>9} {:>7} {:>8} {:>10.0}  {}",
                p.value,
                name,
                f(m.max_err_5_95),
                f(m.p95_err),
                f(m.p99_err),
                f4(m.ks),
                f4(m.w1_log2),
                m.samples,
                ps.join(",")
            );
        }
    }
    println!("(errors as in `netmeas run fridge`: |log2(estimated / true)| of percentiles of the CDFs combined over seeds)");
}

/// The figure: max_err_5_95, p99 error, KS and W1 (log2) per method against the swept value.
pub fn figure(title: &str, sweep: &Sweep, points: &[Point]) -> Figure {
    let names: Vec<&str> = points.first().map(|p| methods(&p.summary).iter().map(|m| m.0).collect()).unwrap_or_default();
    let (x_label, x_scale) = sweep.param.axis();
    let lo = sweep.values.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = sweep.values.iter().cloned().fold(0.0, f64::max);
    let chart = |t: &str, get: fn(&MethodSummary) -> Option<f64>| {
        let series: Vec<Series> = names
            .iter()
            .map(|&n| Series {
                label: n.into(),
                points: points
                    .iter()
                    .filter_map(|p| methods(&p.summary).into_iter().find(|m| m.0 == n).and_then(|m| get(m.1)).map(|v| (p.value, v)))
                    .collect(),
                markers: true,
                ..Series::default()
            })
            .collect();
        let y_range = decades(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        Chart {
            title: t.into(),
            x_label: x_label.into(),
            y_label: t.into(),
            x_range: (lo, hi.max(lo * 2.0)),
            y_range,
            x_scale,
            y_scale: Scale::Log10,
            series,
            ..Chart::default()
        }
    };
    let charts = [
        chart("max |log2| error, 5-95 %", |m| m.max_err_5_95),
        chart("p99 |log2| error", |m| m.p99_err),
        chart("Kolmogorov-Smirnov", |m| m.ks),
        chart("W1 of log2 delay (octaves)", |m| m.w1_log2),
    ];
    charts_figure(title, &charts, 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_parse_and_check_their_values() {
        assert_eq!(Sweep::parse("memory").unwrap().values.first(), Some(&64.0));
        assert_eq!(Sweep::parse("p=0.01,0.1").unwrap(), Sweep { param: Param::P, values: vec![0.01, 0.1] });
        assert!(Sweep::parse("fridges=2").unwrap_err().contains("memory, p"));
        let s = Setup {
            memory: 1024,
            p: PChoice::Auto,
            fridges: 1,
            model_variance: true,
            engine: Engine::Golden,
            core: golden::fridge::FridgeConfig::default(),
        };
        assert!(Param::Memory.apply(&s, 1000.0).unwrap_err().contains("power of two"));
        assert!(Param::Memory.apply(&s, 131072.0).is_err());
        assert_eq!(Param::Memory.apply(&s, 4096.0).unwrap().memory, 4096);
        assert!(Param::P.apply(&s, 0.0).is_err() && Param::P.apply(&s, 1.5).is_err());
        assert_eq!(Param::P.apply(&s, 0.5).unwrap().p, PChoice::Fixed(0.5));
    }
}
