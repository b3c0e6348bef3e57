//! Minimal SVG line plots of delay CDFs on a logarithmic delay axis (the dissertation's Figure 2.2 style),
//! written directly (no plotting dependency).

use crate::fridge::estimate::WeightedCdf;
use std::fmt::Write as _;

/// One curve: a label and its CDF.
pub struct Curve<'a> {
    pub label: &'a str,
    pub cdf: &'a WeightedCdf,
}

const W: f64 = 720.0;
const H: f64 = 440.0;
const L: f64 = 70.0;
const R: f64 = 170.0;
const T: f64 = 30.0;
const B: f64 = 50.0;
const COLORS: [&str; 6] = ["#999999", "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd"];

/// An SVG document plotting `curves` (the first is drawn as the shaded ground truth); delays in ns.
pub fn cdf_svg(title: &str, curves: &[Curve]) -> String {
    let all: Vec<f64> = curves.iter().flat_map(|c| c.cdf.points().iter().map(|p| p.0)).filter(|d| *d > 0.0).collect();
    let lo = all.iter().cloned().fold(f64::INFINITY, f64::min).max(1.0).log10().floor();
    let hi = all.iter().cloned().fold(0.0, f64::max).max(10.0).log10().ceil().max(lo + 1.0);
    let x = |d: f64| L + (d.max(1.0).log10() - lo) / (hi - lo) * (W - L - R);
    let y = |f: f64| T + (1.0 - f) * (H - T - B);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
        (W - R + L) / 2.0,
        escape(title)
    );
    // Axes, decade grid and labels.
    for e in lo as i64..=hi as i64 {
        let xv = x(10f64.powi(e as i32));
        let _ = writeln!(s, "<line x1=\"{xv:.1}\" y1=\"{T}\" x2=\"{xv:.1}\" y2=\"{}\" stroke=\"#eee\"/>", H - B);
        let _ = writeln!(s, "<text x=\"{xv:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>", H - B + 18.0, decade_label(e));
    }
    for i in 0..=4 {
        let f = i as f64 / 4.0;
        let _ = writeln!(s, "<line x1=\"{L}\" y1=\"{:.1}\" x2=\"{}\" y2=\"{:.1}\" stroke=\"#eee\"/>", y(f), W - R, y(f));
        let _ = writeln!(s, "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{:.2}</text>", L - 6.0, y(f) + 4.0, f);
    }
    let _ = writeln!(s, "<rect x=\"{L}\" y=\"{T}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>", W - L - R, H - T - B);
    let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">delay (log scale)</text>", (W - R + L) / 2.0, H - 12.0);
    let _ = writeln!(s, "<text x=\"16\" y=\"{}\" transform=\"rotate(-90 16 {})\" text-anchor=\"middle\">CDF</text>", (H - B + T) / 2.0, (H - B + T) / 2.0);
    for (i, c) in curves.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts = resample(c.cdf, 400);
        if pts.is_empty() {
            continue;
        }
        let path: Vec<String> = pts.iter().map(|(d, f)| format!("{:.1},{:.1}", x(*d), y(*f))).collect();
        if i == 0 {
            let mut area = path.clone();
            area.push(format!("{:.1},{:.1}", x(pts.last().unwrap().0), y(0.0)));
            area.push(format!("{:.1},{:.1}", x(pts[0].0), y(0.0)));
            let _ = writeln!(s, "<polygon points=\"{}\" fill=\"#ddd\" stroke=\"none\"/>", area.join(" "));
        }
        let width = if i == 0 { 1.0 } else { 2.0 };
        let _ = writeln!(s, "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{width}\"/>", path.join(" "));
        let ly = T + 14.0 + 18.0 * i as f64;
        let _ = writeln!(s, "<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{color}\" stroke-width=\"3\"/>", W - R + 12.0, W - R + 32.0);
        let _ = writeln!(s, "<text x=\"{}\" y=\"{}\">{}</text>", W - R + 38.0, ly + 4.0, escape(c.label));
    }
    s += "</svg>\n";
    s
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

fn decade_label(e: i64) -> String {
    match e {
        e if e < 3 => format!("{} ns", 10i64.pow(e as u32)),
        e if e < 6 => format!("{} µs", 10i64.pow((e - 3) as u32)),
        e if e < 9 => format!("{} ms", 10i64.pow((e - 6) as u32)),
        e => format!("{} s", 10i64.pow((e - 9) as u32)),
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn svg_has_a_curve_per_method_and_decade_labels() {
        let a = WeightedCdf::unweighted((1..1000).map(|i| i as f64 * 1000.0));
        let b = WeightedCdf::unweighted((1..500).map(|i| i as f64 * 1000.0));
        let svg = cdf_svg("t", &[Curve { label: "truth", cdf: &a }, Curve { label: "est <x>", cdf: &b }]);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("1 µs") && svg.contains("1 ms") && svg.contains("est &lt;x&gt;"));
    }
}
