//! The heavy-hitter experiments' tables and figures (`netmeas run heavy-hitters`: the theorem's setting and
//! the streams).

use super::experiment::{HhMethod, StreamResult, TheoremResult, THEOREM_FRACTION, THEOREM_PROBABILITY};
use super::metrics::cdf_steps;
use crate::plot::{charts_figure, write_figure, Chart, Guide, Scale, Series, Ticks};
use synth::table::{flagged, Align, Cell, Table};

/// The table of the theorem experiment.
pub(super) fn theorem_table(rows: &[TheoremResult]) -> Table {
    let mut t = Table::new(&[
        ("k", Align::Right),
        ("f", Align::Right),
        ("ε", Align::Right),
        ("order", Align::Left),
        ("method", Align::Left),
        ("buckets", Align::Right),
        ("admission", Align::Left),
        ("P(≥0.65k)", Align::Right),
        ("margin", Align::Right),
        ("min", Align::Right),
        ("p5", Align::Right),
        ("p50", Align::Right),
        ("p95", Align::Right),
        ("Mpkt/s", Align::Right),
    ]);
    for r in rows {
        let q = &r.stored_fraction;
        let f = if r.unequal { format!("{}±50%", r.f) } else { r.f.to_string() };
        let margin = format!("{:+.3}", r.margin);
        t.row(vec![
            r.k.to_string().into(),
            f.into(),
            format!("{}", r.epsilon).into(),
            r.order.name().into(),
            r.method.name().into(),
            shape(r.rows, r.buckets).into(),
            r.admission.into(),
            format!("{:.3}", r.theorem_probability).into(),
            if r.margin >= 0.0 { Cell::from(margin) } else { flagged(margin + " below") },
            format!("{:.3}", q.min).into(),
            format!("{:.3}", q.p5).into(),
            format!("{:.3}", q.p50).into(),
            format!("{:.3}", q.p95).into(),
            format!("{:.1}", r.packets_per_second / 1e6).into(),
        ]);
    }
    t
}

/// A method's memory as the tables show it: `d×(buckets/d)` for the core's rows, else the bucket count.
fn shape(rows: Option<usize>, buckets: usize) -> String {
    match rows {
        Some(d) => format!("{}×{}", d, buckets / d),
        None => buckets.to_string(),
    }
}

/// The table of the zipf/capture experiment.
pub(super) fn stream_table(rows: &[StreamResult]) -> Table {
    let mut t = Table::new(&[
        ("memory", Align::Right),
        ("method", Align::Left),
        ("buckets", Align::Right),
        ("admission", Align::Left),
        ("recall", Align::Right),
        ("precision", Align::Right),
        ("ARE", Align::Right),
        ("Mpkt/s", Align::Right),
    ]);
    for r in rows {
        t.row(vec![
            r.memory.to_string().into(),
            r.method.name().into(),
            shape(r.rows, r.buckets).into(),
            r.admission.into(),
            format!("{:.4}", r.recall).into(),
            format!("{:.4}", r.precision).into(),
            format!("{:.4}", r.are).into(),
            format!("{:.1}", r.packets_per_second / 1e6).into(),
        ]);
    }
    t
}

/// The stored-fraction CDFs: a chart per (point, order), a series per method.
pub(super) fn theorem_plot(path: &std::path::Path, rows: &[TheoremResult], orders: usize) -> Result<(), String> {
    let mut charts: Vec<Chart> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let r = &rows[i];
        let group: Vec<&TheoremResult> = rows[i..]
            .iter()
            .take_while(|x| x.order == r.order && x.k == r.k && x.f == r.f && x.epsilon == r.epsilon)
            .collect();
        i += group.len();
        charts.push(Chart {
            title: format!("{}: k {}, f {}, eps {}", r.order.name(), r.k, r.f, r.epsilon),
            x_label: "stored fraction of the k heavy elements".into(),
            y_label: "share of runs (CDF)".into(),
            x_range: (0.0, 1.0),
            y_range: (0.0, 1.0),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            x_ticks: Ticks::Plain,
            series: group
                .iter()
                .map(|g| Series {
                    label: g.method.name().into(),
                    points: cdf_steps(&g.fractions),
                    markers: false,
                    ..Series::default()
                })
                .collect(),
            guides: vec![Guide::X(THEOREM_FRACTION), Guide::Y(1.0 - THEOREM_PROBABILITY)],
        });
    }
    let title = "Stored fraction of the k heavies per run (bound holds: curve at most 0.3 left of 0.65)";
    write_figure(path, &charts_figure(title, &charts, orders.min(3))).map_err(|e| format!("--plot {e}"))
}

/// Recall and ARE versus memory, a series per method.
pub(super) fn stream_plot(path: &std::path::Path, rows: &[StreamResult], what: &str) -> Result<(), String> {
    let mems: Vec<f64> = rows.iter().map(|r| r.memory as f64).collect();
    let (lo, hi) = (mems.iter().cloned().fold(f64::INFINITY, f64::min), mems.iter().cloned().fold(0.0, f64::max));
    let (lo, hi) = (2f64.powf(lo.log2().floor()), 2f64.powf(hi.log2().ceil()).max(2.0 * lo));
    let mut methods: Vec<HhMethod> = rows.iter().map(|r| r.method).collect();
    methods.dedup();
    methods.sort_by_key(|m| HhMethod::ALL.iter().position(|x| x == m));
    methods.dedup();
    let series = |f: fn(&StreamResult) -> f64| -> Vec<Series> {
        methods
            .iter()
            .map(|&m| Series {
                label: m.name().into(),
                points: rows.iter().filter(|r| r.method == m).map(|r| (r.memory as f64, f(r))).collect(),
                markers: true,
                ..Series::default()
            })
            .collect()
    };
    // A round top for the error axis (a multiple of 0.2), so its ticks have short labels.
    let are_max = (rows.iter().map(|r| r.are).fold(0.0, f64::max) / 0.2).ceil().max(1.0) * 0.2;
    let chart = |title: &str, y: &str, y_range, s| Chart {
        title: title.into(),
        x_label: "memory (buckets requested, log2)".into(),
        y_label: y.into(),
        x_range: (lo, hi),
        y_range,
        x_scale: Scale::Log2,
        y_scale: Scale::Linear,
        x_ticks: Ticks::Plain,
        series: s,
        guides: vec![],
    };
    let charts = [
        chart("top-k recall", "recall", (0.0, 1.0), series(|r| r.recall)),
        chart("average relative error of the true top-k", "ARE", (0.0, are_max), series(|r| r.are)),
    ];
    write_figure(path, &charts_figure(&format!("heavy hitters: {what}"), &charts, 2)).map_err(|e| format!("--plot {e}"))
}
