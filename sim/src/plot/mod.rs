//! Figures: grids of line charts ([`charts_figure`]: the experiments' sweeps, on linear, log2 or log10 axes,
//! with markers, error bars and guide lines) and delay-CDF plots on a logarithmic delay axis
//! ([`cdf_figure`]: the dissertation's Figure 2.2 style), written as SVG or PNG by the file's extension.
//!
//! A figure is described once as data ([`Figure`]: charts of [`Series`]); [`render`] draws it with the
//! `plotters` crate, into an SVG document or an RGB buffer that the `png` crate encodes. PNG text is laid
//! out in DejaVu Sans embedded in the binary (the `dejavu` crate), so no system font is needed.

mod render;

use crate::fridge::estimate::WeightedCdf;
use std::path::Path;

/// One curve of a CDF figure: a label and its CDF.
pub struct Curve<'a> {
    pub label: &'a str,
    pub cdf: &'a WeightedCdf,
}

/// An RGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// Output formats of [`write_figure`], chosen by the file name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// Checks a `--plot FILE` option before any work: `Err("--plot …")` naming the allowed extensions, or
    /// the missing directory the file would go to.
    pub fn check_option(plot: &Option<std::path::PathBuf>) -> Result<(), String> {
        let Some(p) = plot.as_deref() else { return Ok(()) };
        Format::of_path(p).map_err(|e| format!("--plot {e}"))?;
        match p.parent() {
            Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => {
                Err(format!("--plot {}: the directory {} does not exist", p.display(), dir.display()))
            }
            _ => Ok(()),
        }
    }

    /// The format for `path`'s extension (case-insensitive), or an error naming the allowed ones.
    pub fn of_path(path: &Path) -> Result<Format, String> {
        match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            other => Err(format!(
                "{}: {} — the plot format is chosen by the extension: .svg or .png",
                path.display(),
                match other {
                    Some(e) => format!("unknown extension `.{e}`"),
                    None => "no extension".to_string(),
                }
            )),
        }
    }
}

/// Curve colours in order; the first (grey) is a CDF figure's ground truth, charts start at the second.
pub const COLORS: [Rgb; 9] = [
    Rgb(0x99, 0x99, 0x99),
    Rgb(0xd6, 0x27, 0x28),
    Rgb(0x1f, 0x77, 0xb4),
    Rgb(0x2c, 0xa0, 0x2c),
    Rgb(0xff, 0x7f, 0x0e),
    Rgb(0x94, 0x67, 0xbd),
    Rgb(0x8c, 0x56, 0x4b),
    Rgb(0xe3, 0x77, 0xc2),
    Rgb(0x17, 0xbe, 0xcf),
];
/// Shading under a CDF figure's ground truth curve.
pub const TRUTH_FILL: Rgb = Rgb(0xdd, 0xdd, 0xdd);
/// PNG pixels per figure unit (an SVG draws one unit per pixel).
pub const PNG_SCALE: f64 = 2.0;

/// An axis' scale. On a log scale the range must be positive; values at or below zero (a zero error) are
/// drawn at the bottom of the range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    #[default]
    Linear,
    /// Ticks at powers of two.
    Log2,
    /// Ticks at powers of ten (the papers' error-vs-rate figures).
    Log10,
}

/// How an axis' tick values are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ticks {
    /// Plain numbers (integers without decimals, up to three decimals, `1e-5` for small/large log ticks).
    #[default]
    Plain,
    /// Delays given in ns, written with their unit (`100 ns`, `1 µs`, `10 ms`).
    DelayNs,
}

/// A guide line (drawn thin and dark): a vertical line at an x or a horizontal one at a y.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Guide {
    X(f64),
    Y(f64),
}

/// One series of a chart: a label (the figure's legend lists each label and colour once) and its points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// Mark every point with a small square (for sparse series such as a memory sweep).
    pub markers: bool,
    /// Error bars: ± this much around each point's y (the standard deviation over seeds), one per point;
    /// empty for none.
    pub errors: Vec<f64>,
    /// Shade the area under the series (a CDF figure's ground truth; drawn with a thin line).
    pub fill: bool,
    /// The colour; `None` takes the chart palette's colour of the series' position ([`COLORS`] from the
    /// second).
    pub color: Option<Rgb>,
}

/// A line chart: series on linear or log axes, with guide lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    pub x_scale: Scale,
    pub y_scale: Scale,
    pub x_ticks: Ticks,
    pub series: Vec<Series>,
    pub guides: Vec<Guide>,
}

/// A figure: a title over a grid of charts, and one legend on the right (every chart's series, once).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub title: String,
    pub charts: Vec<Chart>,
    pub columns: usize,
    /// Size of one chart's cell in figure units.
    pub cell: (f64, f64),
    /// Width of the legend column.
    pub legend_width: f64,
}

/// Height of the figure's title band.
const TITLE_H: f64 = 34.0;

impl Figure {
    /// The figure's size in units: `columns` cells wide plus the legend, rows of cells under the title.
    pub fn size(&self) -> (f64, f64) {
        let rows = self.charts.len().div_ceil(self.columns).max(1);
        (self.columns as f64 * self.cell.0 + self.legend_width, TITLE_H + rows as f64 * self.cell.1)
    }

    /// The legend: every series label and colour, in chart order, each (label, colour) once.
    pub fn legend(&self) -> Vec<(String, Rgb)> {
        let mut out: Vec<(String, Rgb)> = Vec::new();
        for c in &self.charts {
            for (i, s) in c.series.iter().enumerate() {
                let item = (s.label.clone(), series_color(s, i));
                if !out.contains(&item) {
                    out.push(item);
                }
            }
        }
        out
    }

    /// The figure as an SVG document.
    pub fn svg(&self) -> Result<String, String> {
        render::svg(self)
    }

    /// The figure at [`PNG_SCALE`] pixels per unit, as PNG (8-bit RGB) bytes.
    pub fn png(&self) -> Result<Vec<u8>, String> {
        render::png(self)
    }
}

/// The colour of series `i` of a chart.
pub fn series_color(s: &Series, i: usize) -> Rgb {
    s.color.unwrap_or(COLORS[1 + i % (COLORS.len() - 1)])
}

/// `charts` in a grid of `columns` columns under `title`, one legend (every series once) on the right.
pub fn charts_figure(title: &str, charts: &[Chart], columns: usize) -> Figure {
    Figure {
        title: title.to_string(),
        charts: charts.to_vec(),
        columns: columns.clamp(1, charts.len().max(1)),
        cell: (380.0, 270.0),
        legend_width: 150.0,
    }
}

/// The CDF figure of `curves` (the first is drawn as the shaded ground truth); delays in ns, on a log axis
/// from the decade below the smallest positive delay to the decade above the largest.
pub fn cdf_figure(title: &str, curves: &[Curve]) -> Figure {
    let all: Vec<f64> = curves.iter().flat_map(|c| c.cdf.points().iter().map(|p| p.0)).filter(|d| *d > 0.0).collect();
    let lo = all.iter().cloned().fold(f64::INFINITY, f64::min).max(1.0).log10().floor();
    let hi = all.iter().cloned().fold(0.0, f64::max).max(10.0).log10().ceil().max(lo + 1.0);
    let series = curves
        .iter()
        .enumerate()
        .map(|(i, c)| Series {
            label: c.label.to_string(),
            points: resample(c.cdf, 400),
            fill: i == 0,
            color: Some(COLORS[i % COLORS.len()]),
            ..Series::default()
        })
        .collect();
    let chart = Chart {
        title: String::new(),
        x_label: "delay (log scale)".into(),
        y_label: "CDF".into(),
        x_range: (10f64.powf(lo), 10f64.powf(hi)),
        y_range: (0.0, 1.0),
        x_scale: Scale::Log10,
        x_ticks: Ticks::DelayNs,
        series,
        ..Chart::default()
    };
    Figure { title: title.to_string(), charts: vec![chart], columns: 1, cell: (550.0, 406.0), legend_width: 170.0 }
}

/// Writes the CDF figure to `path` in the format its extension names (see [`Format::of_path`]).
pub fn write_cdf(path: &Path, title: &str, curves: &[Curve]) -> Result<(), String> {
    write_figure(path, &cdf_figure(title, curves))
}

/// Writes `fig` to `path` in the format its extension names (see [`Format::of_path`]).
pub fn write_figure(path: &Path, fig: &Figure) -> Result<(), String> {
    let bytes = match Format::of_path(path)? {
        Format::Svg => fig.svg()?.into_bytes(),
        Format::Png => fig.png()?,
    };
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The CDF at `n` log-spaced delays (enough for a smooth curve at any sample count).
fn resample(c: &WeightedCdf, n: usize) -> Vec<(f64, f64)> {
    let pts = c.points();
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else { return vec![] };
    let (a, b) = (first.0.max(1.0).ln(), last.0.max(1.0).ln().max(first.0.max(1.0).ln() + 1e-9));
    let mut out = Vec::with_capacity(n);
    let (mut j, mut cum) = (0usize, 0.0);
    for i in 0..n {
        let d = (a + (b - a) * i as f64 / (n - 1) as f64).exp();
        while j < pts.len() && pts[j].0 <= d {
            cum += pts[j].1;
            j += 1;
        }
        out.push((d, cum / c.total()));
    }
    out
}

/// The range of a log10 axis holding `values`: from the decade at or below the smallest positive value to
/// the decade at or above the largest (one decade at least; 0.1..1 without any positive value).
pub fn decades(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.filter(|v| *v > 0.0 && v.is_finite()).fold((f64::INFINITY, 0f64), |(a, b), v| (a.min(v), b.max(v)));
    if hi == 0.0 {
        return (0.1, 1.0);
    }
    let (lo, hi) = (10f64.powf(lo.log10().floor()), 10f64.powf(hi.log10().ceil()));
    (lo, if hi > lo { hi } else { lo * 10.0 })
}

/// A tick's label on an axis of `scale` written as `ticks`.
pub fn tick_label(v: f64, scale: Scale, ticks: Ticks) -> String {
    match ticks {
        Ticks::DelayNs => {
            let (x, unit) = match v.abs() {
                a if a < 1e3 => (v, "ns"),
                a if a < 1e6 => (v / 1e3, "µs"),
                a if a < 1e9 => (v / 1e6, "ms"),
                _ => (v / 1e9, "s"),
            };
            format!("{} {unit}", tick_label(x, Scale::Linear, Ticks::Plain))
        }
        Ticks::Plain if v != 0.0 && scale != Scale::Linear && !(1e-3..1e5).contains(&v.abs()) => {
            // Mantissa to three significant digits (a tick computed as 9.9999999e-6 reads 1e-5).
            let mut e = v.abs().log10().floor();
            let mut m = (v / 10f64.powf(e) * 100.0).round() / 100.0;
            if m.abs() >= 10.0 {
                (m, e) = (m / 10.0, e + 1.0);
            }
            format!("{}e{e}", tick_label(m, Scale::Linear, Ticks::Plain))
        }
        Ticks::Plain if v == v.round() && v.abs() < 1e9 => format!("{}", v as i64),
        Ticks::Plain => {
            let s = if v.abs() < 0.01 { format!("{v:.5}") } else { format!("{v:.3}") };
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

#[cfg(test)]
mod tests;
