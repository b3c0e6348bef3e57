//! Delay-CDF line plots on a logarithmic delay axis (the dissertation's Figure 2.2 style), and grids of line
//! charts on linear or log2 axes ([`charts_figure`]: the heavy-hitter experiments), as SVG or PNG.
//!
//! The figure is described once, as a list of shapes in figure units ([`cdf_figure`]); two small back ends
//! render it: [`Figure::svg`] writes the shapes as SVG elements, [`Figure::png`] rasterises them (anti-aliased
//! strokes, even-odd filled polygons, text in the 8×8 bitmap font of `font8x8`, no system fonts) at
//! [`PNG_SCALE`] pixels per unit and encodes the result with the `png` crate.

use crate::fridge::estimate::WeightedCdf;
use std::fmt::Write as _;
use std::path::Path;

/// One curve: a label and its CDF.
pub struct Curve<'a> {
    pub label: &'a str,
    pub cdf: &'a WeightedCdf,
}

/// An RGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Horizontal alignment of a text at its anchor point (SVG's `text-anchor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// A drawing primitive in figure units (origin top left, y down). Text sits on its baseline at `at`.
#[derive(Clone, Debug)]
pub enum Shape {
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: Option<Rgb>,
        stroke: Option<Rgb>,
    },
    Line {
        from: (f64, f64),
        to: (f64, f64),
        color: Rgb,
        width: f64,
    },
    Polyline {
        points: Vec<(f64, f64)>,
        color: Rgb,
        width: f64,
    },
    Polygon {
        points: Vec<(f64, f64)>,
        fill: Rgb,
    },
    /// `vertical`: rotated by −90° about `at` (reads bottom to top).
    Text {
        at: (f64, f64),
        text: String,
        size: f64,
        anchor: Anchor,
        vertical: bool,
    },
}

/// A figure: its size in units and its shapes, painted in order.
#[derive(Clone, Debug)]
pub struct Figure {
    pub width: f64,
    pub height: f64,
    pub shapes: Vec<Shape>,
}

/// Output formats of [`write_cdf`], chosen by the file name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// Checks a `--plot FILE` option before any work: `Err("--plot …")` naming the allowed extensions.
    pub fn check_option(plot: &Option<std::path::PathBuf>) -> Result<(), String> {
        plot.as_deref().map_or(Ok(()), |p| Format::of_path(p).map(|_| ()).map_err(|e| format!("--plot {e}")))
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

const W: f64 = 720.0;
const H: f64 = 440.0;
const L: f64 = 70.0;
const R: f64 = 170.0;
const T: f64 = 30.0;
const B: f64 = 50.0;
/// Curve colours in order; the first (grey) is the ground truth.
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
/// Shading under the ground truth curve.
pub const TRUTH_FILL: Rgb = Rgb(0xdd, 0xdd, 0xdd);
const GRID: Rgb = Rgb(0xee, 0xee, 0xee);
const BLACK: Rgb = Rgb(0, 0, 0);
const WHITE: Rgb = Rgb(0xff, 0xff, 0xff);
/// PNG pixels per figure unit.
pub const PNG_SCALE: f64 = 2.0;

/// The CDF figure of `curves` (the first is drawn as the shaded ground truth); delays in ns.
pub fn cdf_figure(title: &str, curves: &[Curve]) -> Figure {
    let all: Vec<f64> = curves.iter().flat_map(|c| c.cdf.points().iter().map(|p| p.0)).filter(|d| *d > 0.0).collect();
    let lo = all.iter().cloned().fold(f64::INFINITY, f64::min).max(1.0).log10().floor();
    let hi = all.iter().cloned().fold(0.0, f64::max).max(10.0).log10().ceil().max(lo + 1.0);
    let x = |d: f64| L + (d.max(1.0).log10() - lo) / (hi - lo) * (W - L - R);
    let y = |f: f64| T + (1.0 - f) * (H - T - B);
    let text = |at: (f64, f64), t: &str, anchor: Anchor| Shape::Text {
        at,
        text: t.to_string(),
        size: 12.0,
        anchor,
        vertical: false,
    };
    let mut s = vec![
        Shape::Rect { x: 0.0, y: 0.0, w: W, h: H, fill: Some(WHITE), stroke: None },
        Shape::Text {
            at: ((W - R + L) / 2.0, 18.0),
            text: title.to_string(),
            size: 14.0,
            anchor: Anchor::Middle,
            vertical: false,
        },
    ];
    // Axes, decade grid and labels.
    for e in lo as i64..=hi as i64 {
        let xv = x(10f64.powi(e as i32));
        s.push(Shape::Line { from: (xv, T), to: (xv, H - B), color: GRID, width: 1.0 });
        s.push(text((xv, H - B + 18.0), &decade_label(e), Anchor::Middle));
    }
    for i in 0..=4 {
        let f = i as f64 / 4.0;
        s.push(Shape::Line { from: (L, y(f)), to: (W - R, y(f)), color: GRID, width: 1.0 });
        s.push(text((L - 6.0, y(f) + 4.0), &format!("{f:.2}"), Anchor::End));
    }
    s.push(Shape::Rect { x: L, y: T, w: W - L - R, h: H - T - B, fill: None, stroke: Some(BLACK) });
    s.push(text(((W - R + L) / 2.0, H - 12.0), "delay (log scale)", Anchor::Middle));
    s.push(Shape::Text {
        at: (16.0, (H - B + T) / 2.0),
        text: "CDF".into(),
        size: 12.0,
        anchor: Anchor::Middle,
        vertical: true,
    });
    for (i, c) in curves.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts = resample(c.cdf, 400);
        if pts.is_empty() {
            continue;
        }
        let path: Vec<(f64, f64)> = pts.iter().map(|(d, f)| (x(*d), y(*f))).collect();
        if i == 0 {
            let mut area = path.clone();
            area.push((x(pts.last().unwrap().0), y(0.0)));
            area.push((x(pts[0].0), y(0.0)));
            s.push(Shape::Polygon { points: area, fill: TRUTH_FILL });
        }
        s.push(Shape::Polyline { points: path, color, width: if i == 0 { 1.0 } else { 2.0 } });
        let ly = T + 14.0 + 18.0 * i as f64;
        s.push(Shape::Line { from: (W - R + 12.0, ly), to: (W - R + 32.0, ly), color, width: 3.0 });
        s.push(text((W - R + 38.0, ly + 4.0), c.label, Anchor::Start));
    }
    Figure { width: W, height: H, shapes: s }
}

/// The CDF figure as an SVG document.
pub fn cdf_svg(title: &str, curves: &[Curve]) -> String {
    cdf_figure(title, curves).svg()
}

/// The CDF figure as a PNG file's bytes.
pub fn cdf_png(title: &str, curves: &[Curve]) -> Result<Vec<u8>, String> {
    cdf_figure(title, curves).png()
}

/// Writes the CDF figure to `path` in the format its extension names (see [`Format::of_path`]).
pub fn write_cdf(path: &Path, title: &str, curves: &[Curve]) -> Result<(), String> {
    write_figure(path, &cdf_figure(title, curves))
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

// ---------------------------------------------------------------------------------------------------
// Line charts on linear or log2 axes, several to a figure

/// A dashed-looking guide line (drawn thin and dark): a vertical line at an x or a horizontal one at a y.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Guide {
    X(f64),
    Y(f64),
}

/// One series of a chart: a label (the figure's legend lists the first chart's labels) and its points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// Mark every point with a small square (for sparse series such as a memory sweep).
    pub markers: bool,
}

/// A line chart: series on a linear y axis and a linear or log2 x axis, with guide lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    /// x on a log2 axis (ticks at powers of two); the range must be positive.
    pub x_log2: bool,
    pub series: Vec<Series>,
    pub guides: Vec<Guide>,
}

const CW: f64 = 380.0;
const CH: f64 = 270.0;
const LEGEND_W: f64 = 150.0;

/// `charts` in a grid of `columns` columns under `title`, one legend (the first chart's series labels and
/// the colours of [`COLORS`], skipping the grey) on the right.
pub fn charts_figure(title: &str, charts: &[Chart], columns: usize) -> Figure {
    let columns = columns.clamp(1, charts.len().max(1));
    let rows = charts.len().div_ceil(columns).max(1);
    let (width, height) = (columns as f64 * CW + LEGEND_W, 34.0 + rows as f64 * CH);
    let text = |at: (f64, f64), t: &str, size: f64, anchor: Anchor| Shape::Text {
        at,
        text: t.to_string(),
        size,
        anchor,
        vertical: false,
    };
    let color = |i: usize| COLORS[1 + i % (COLORS.len() - 1)];
    let mut s = vec![
        Shape::Rect { x: 0.0, y: 0.0, w: width, h: height, fill: Some(WHITE), stroke: None },
        text(((width - LEGEND_W) / 2.0, 20.0), title, 14.0, Anchor::Middle),
    ];
    for (n, c) in charts.iter().enumerate() {
        let (ox, oy) = ((n % columns) as f64 * CW, 34.0 + (n / columns) as f64 * CH);
        let (l, r, t, b) = (ox + 58.0, ox + CW - 14.0, oy + 24.0, oy + CH - 44.0);
        let tx = |v: f64| if c.x_log2 { v.max(f64::MIN_POSITIVE).log2() } else { v };
        let (x0, x1) = (tx(c.x_range.0), tx(c.x_range.1).max(tx(c.x_range.0) + 1e-9));
        let (y0, y1) = (c.y_range.0, c.y_range.1.max(c.y_range.0 + 1e-9));
        let x = |v: f64| l + (tx(v).clamp(x0, x1) - x0) / (x1 - x0) * (r - l);
        let y = |v: f64| b - (v.clamp(y0, y1) - y0) / (y1 - y0) * (b - t);
        s.push(text(((l + r) / 2.0, oy + 16.0), &c.title, 12.0, Anchor::Middle));
        let xticks: Vec<f64> = if c.x_log2 {
            (x0.ceil() as i64..=x1.floor() as i64).map(|e| 2f64.powi(e as i32)).collect()
        } else {
            (0..=4).map(|i| c.x_range.0 + (c.x_range.1 - c.x_range.0) * i as f64 / 4.0).collect()
        };
        for v in xticks {
            s.push(Shape::Line { from: (x(v), t), to: (x(v), b), color: GRID, width: 1.0 });
            s.push(text((x(v), b + 15.0), &tick_label(v), 11.0, Anchor::Middle));
        }
        for i in 0..=4 {
            let v = y0 + (y1 - y0) * i as f64 / 4.0;
            s.push(Shape::Line { from: (l, y(v)), to: (r, y(v)), color: GRID, width: 1.0 });
            s.push(text((l - 5.0, y(v) + 4.0), &tick_label(v), 11.0, Anchor::End));
        }
        s.push(Shape::Rect { x: l, y: t, w: r - l, h: b - t, fill: None, stroke: Some(BLACK) });
        s.push(text(((l + r) / 2.0, b + 32.0), &c.x_label, 11.0, Anchor::Middle));
        s.push(Shape::Text {
            at: (ox + 10.0, (t + b) / 2.0),
            text: c.y_label.clone(),
            size: 11.0,
            anchor: Anchor::Middle,
            vertical: true,
        });
        for g in &c.guides {
            let (from, to) = match *g {
                Guide::X(v) => ((x(v), t), (x(v), b)),
                Guide::Y(v) => ((l, y(v)), (r, y(v))),
            };
            s.push(Shape::Line { from, to, color: Rgb(0x44, 0x44, 0x44), width: 1.0 });
        }
        for (i, se) in c.series.iter().enumerate() {
            let pts: Vec<(f64, f64)> = se.points.iter().map(|&(a, v)| (x(a), y(v))).collect();
            s.push(Shape::Polyline { points: pts.clone(), color: color(i), width: 2.0 });
            if se.markers {
                for (px, py) in pts {
                    s.push(Shape::Rect {
                        x: px - 2.5,
                        y: py - 2.5,
                        w: 5.0,
                        h: 5.0,
                        fill: Some(color(i)),
                        stroke: None,
                    });
                }
            }
        }
    }
    if let Some(first) = charts.first() {
        for (i, se) in first.series.iter().enumerate() {
            let (lx, ly) = (width - LEGEND_W + 10.0, 60.0 + 18.0 * i as f64);
            s.push(Shape::Line { from: (lx, ly), to: (lx + 20.0, ly), color: color(i), width: 3.0 });
            s.push(text((lx + 26.0, ly + 4.0), &se.label, 12.0, Anchor::Start));
        }
    }
    Figure { width, height, shapes: s }
}

/// A tick's label: an integer without decimals, otherwise up to three significant decimals.
fn tick_label(v: f64) -> String {
    if v == v.round() && v.abs() < 1e9 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Writes `fig` to `path` in the format its extension names (see [`Format::of_path`]).
pub fn write_figure(path: &Path, fig: &Figure) -> Result<(), String> {
    let bytes = match Format::of_path(path)? {
        Format::Svg => fig.svg().into_bytes(),
        Format::Png => fig.png()?,
    };
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------------------
// SVG back end

fn escape(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn svg_points(points: &[(f64, f64)]) -> String {
    points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" ")
}

impl Figure {
    /// The figure as an SVG document (sans-serif text).
    pub fn svg(&self) -> String {
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n",
            self.width, self.height
        );
        for shape in &self.shapes {
            let _ = match shape {
                Shape::Rect { x, y, w, h, fill, stroke } => writeln!(
                    s,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{}\" stroke=\"{}\"/>",
                    fill.map_or("none".into(), Rgb::hex),
                    stroke.map_or("none".into(), Rgb::hex)
                ),
                Shape::Line { from, to, color, width } => writeln!(
                    s,
                    "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"{width}\"/>",
                    from.0,
                    from.1,
                    to.0,
                    to.1,
                    color.hex()
                ),
                Shape::Polyline { points, color, width } => writeln!(
                    s,
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width}\"/>",
                    svg_points(points),
                    color.hex()
                ),
                Shape::Polygon { points, fill } => {
                    writeln!(s, "<polygon points=\"{}\" fill=\"{}\" stroke=\"none\"/>", svg_points(points), fill.hex())
                }
                Shape::Text { at: (x, y), text, size, anchor, vertical } => {
                    let anchor = match anchor {
                        Anchor::Start => "start",
                        Anchor::Middle => "middle",
                        Anchor::End => "end",
                    };
                    let rotate = if *vertical { format!(" transform=\"rotate(-90 {x:.1} {y:.1})\"") } else { String::new() };
                    writeln!(
                        s,
                        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" text-anchor=\"{anchor}\"{rotate}>{}</text>",
                        escape(text)
                    )
                }
            };
        }
        s += "</svg>\n";
        s
    }

    /// The figure rasterised at [`PNG_SCALE`] pixels per unit, as PNG (8-bit RGB) bytes.
    pub fn png(&self) -> Result<Vec<u8>, String> {
        let mut c = Canvas::new((self.width * PNG_SCALE).round() as usize, (self.height * PNG_SCALE).round() as usize);
        for shape in &self.shapes {
            c.paint(shape);
        }
        c.encode()
    }
}

// ---------------------------------------------------------------------------------------------------
// PNG back end

/// An RGB pixel buffer plus a coverage mask: a shape first sets its coverage (0..1) per pixel in the mask,
/// then is blended once in its colour, so overlapping segments of one polyline do not darken the joints.
struct Canvas {
    w: usize,
    h: usize,
    rgb: Vec<[u8; 3]>,
    mask: Vec<f32>,
}

/// Pixel bounds (x0..x1, y0..y1), clipped to the canvas.
type Bounds = (usize, usize, usize, usize);

/// The smallest bounds holding `a` and `b`.
fn union(a: Bounds, b: Bounds) -> Bounds {
    (a.0.min(b.0), a.1.max(b.1), a.2.min(b.2), a.3.max(b.3))
}

impl Canvas {
    fn new(w: usize, h: usize) -> Canvas {
        Canvas { w, h, rgb: vec![[0xff; 3]; w * h], mask: vec![0.0; w * h] }
    }

    fn bounds(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> Bounds {
        let cx = |v: f64| (v.max(0.0) as usize).min(self.w);
        let cy = |v: f64| (v.max(0.0) as usize).min(self.h);
        (cx(x0.floor()), cx(x1.ceil() + 1.0), cy(y0.floor()), cy(y1.ceil() + 1.0))
    }

    fn cover(&mut self, x: usize, y: usize, a: f32) {
        let m = &mut self.mask[y * self.w + x];
        *m = m.max(a);
    }

    /// Blends `color` over the pixels in `b` by the mask and clears the mask there.
    fn blend(&mut self, b: Bounds, color: Rgb) {
        let c = [color.0, color.1, color.2];
        for y in b.2..b.3 {
            for x in b.0..b.1 {
                let i = y * self.w + x;
                let a = std::mem::take(&mut self.mask[i]);
                if a > 0.0 {
                    for (p, c) in self.rgb[i].iter_mut().zip(c) {
                        *p = (*p as f32 * (1.0 - a) + c as f32 * a).round() as u8;
                    }
                }
            }
        }
    }

    /// Anti-aliased stroke of `points` (pixel coordinates), `width` pixels wide, into the mask.
    fn stroke_mask(&mut self, points: &[(f64, f64)], width: f64) -> Bounds {
        let r = (width / 2.0).max(0.5);
        let mut all: Bounds = (self.w, 0, self.h, 0);
        for seg in points.windows(2) {
            let ((ax, ay), (bx, by)) = (seg[0], seg[1]);
            let b = self.bounds(ax.min(bx) - r - 1.0, ay.min(by) - r - 1.0, ax.max(bx) + r + 1.0, ay.max(by) + r + 1.0);
            all = union(all, b);
            let (dx, dy) = (bx - ax, by - ay);
            let len2 = dx * dx + dy * dy;
            for py in b.2..b.3 {
                for px in b.0..b.1 {
                    let (cx, cy) = (px as f64 + 0.5, py as f64 + 0.5);
                    let t = if len2 > 0.0 { (((cx - ax) * dx + (cy - ay) * dy) / len2).clamp(0.0, 1.0) } else { 0.0 };
                    let dist = ((cx - ax - t * dx).powi(2) + (cy - ay - t * dy).powi(2)).sqrt();
                    let a = (r + 0.5 - dist).clamp(0.0, 1.0) as f32;
                    if a > 0.0 {
                        self.cover(px, py, a);
                    }
                }
            }
        }
        all
    }

    /// Even-odd fill of the polygon `points` (pixel coordinates), sampled at pixel centres, into the mask.
    fn fill_mask(&mut self, points: &[(f64, f64)]) -> Bounds {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &(x, y) in points {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        let b = self.bounds(x0, y0, x1, y1);
        for py in b.2..b.3 {
            let cy = py as f64 + 0.5;
            let mut xs: Vec<f64> = Vec::new();
            for (i, &(ax, ay)) in points.iter().enumerate() {
                let (bx, by) = points[(i + 1) % points.len()];
                if (ay <= cy) != (by <= cy) {
                    xs.push(ax + (cy - ay) / (by - ay) * (bx - ax));
                }
            }
            xs.sort_by(|a, b| a.total_cmp(b));
            for pair in xs.chunks_exact(2) {
                for px in b.0..b.1 {
                    let cx = px as f64 + 0.5;
                    if cx >= pair[0] && cx < pair[1] {
                        self.cover(px, py, 1.0);
                    }
                }
            }
        }
        b
    }

    /// Text in the 8×8 bitmap font, each font pixel a square of `g` pixels; `(x, y)` is the baseline start
    /// (before rotation), the glyphs' row 7 hangs below the baseline.
    fn text_mask(&mut self, (x, y): (f64, f64), text: &str, g: usize, vertical: bool) -> Bounds {
        let mut all: Bounds = (self.w, 0, self.h, 0);
        for (k, ch) in text.chars().enumerate() {
            for (row, bits) in glyph(ch).iter().enumerate() {
                for col in 0..8 {
                    if bits & (1 << col) == 0 {
                        continue;
                    }
                    // Offsets along the text and down from its top, in pixels.
                    let along = ((k * 8 + col) * g) as f64;
                    let down = row as f64 * g as f64 - 7.0 * g as f64;
                    let (px, py) = if vertical { (x + down, y - along - g as f64) } else { (x + along, y + down) };
                    let b = self.bounds(px, py, px + g as f64 - 1.0, py + g as f64 - 1.0);
                    all = union(all, b);
                    for yy in b.2..b.3.min(b.2 + g) {
                        for xx in b.0..b.1.min(b.0 + g) {
                            self.cover(xx, yy, 1.0);
                        }
                    }
                }
            }
        }
        all
    }

    fn paint(&mut self, shape: &Shape) {
        let s = PNG_SCALE;
        let px = |p: &(f64, f64)| (p.0 * s, p.1 * s);
        match shape {
            Shape::Rect { x, y, w, h, fill, stroke } => {
                let corners = [(*x, *y), (x + w, *y), (x + w, y + h), (*x, y + h)];
                let pts: Vec<(f64, f64)> = corners.iter().map(px).collect();
                if let Some(fill) = fill {
                    let b = self.fill_mask(&pts);
                    self.blend(b, *fill);
                }
                if let Some(stroke) = stroke {
                    let mut ring = pts.clone();
                    ring.push(pts[0]);
                    let b = self.stroke_mask(&ring, s);
                    self.blend(b, *stroke);
                }
            }
            Shape::Line { from, to, color, width } => {
                let b = self.stroke_mask(&[px(from), px(to)], width * s);
                self.blend(b, *color);
            }
            Shape::Polyline { points, color, width } => {
                let pts: Vec<(f64, f64)> = points.iter().map(px).collect();
                let b = self.stroke_mask(&pts, width * s);
                self.blend(b, *color);
            }
            Shape::Polygon { points, fill } => {
                let pts: Vec<(f64, f64)> = points.iter().map(px).collect();
                let b = self.fill_mask(&pts);
                self.blend(b, *fill);
            }
            Shape::Text { at, text, size, anchor, vertical } => {
                // A 12-unit font: cap height 7 font pixels ≈ 0.6 em.
                let g = ((size * s / 10.0).round() as usize).max(1);
                let len = (text.chars().count() * 8 * g) as f64;
                let shift = match anchor {
                    Anchor::Start => 0.0,
                    Anchor::Middle => len / 2.0,
                    Anchor::End => len,
                };
                let (ax, ay) = px(at);
                let start = if *vertical { (ax, ay + shift) } else { (ax - shift, ay) };
                let b = self.text_mask(start, text, g, *vertical);
                self.blend(b, BLACK);
            }
        }
    }

    fn encode(&self) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.w as u32, self.h as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let data: Vec<u8> = self.rgb.iter().flatten().copied().collect();
        let mut w = enc.write_header().map_err(|e| format!("PNG encoding: {e}"))?;
        w.write_image_data(&data).map_err(|e| format!("PNG encoding: {e}"))?;
        w.finish().map_err(|e| format!("PNG encoding: {e}"))?;
        Ok(out)
    }
}

/// The 8×8 bitmap of `ch` (row by row, bit 0 the leftmost pixel): ASCII and Latin-1 (for `µ`), else `?`.
fn glyph(ch: char) -> [u8; 8] {
    use font8x8::legacy::{BASIC_LEGACY, LATIN_LEGACY};
    match ch as usize {
        c @ 0x20..=0x7e => BASIC_LEGACY[c],
        c @ 0xa0..=0xff => LATIN_LEGACY[c - 0xa0],
        _ => BASIC_LEGACY[b'?' as usize],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curves() -> (WeightedCdf, WeightedCdf) {
        (
            WeightedCdf::unweighted((1..1000).map(|i| i as f64 * 1000.0)),
            WeightedCdf::unweighted((1..500).map(|i| i as f64 * 1000.0)),
        )
    }

    #[test]
    fn svg_has_a_curve_per_method_and_decade_labels() {
        let (a, b) = curves();
        let svg = cdf_svg("t", &[Curve { label: "truth", cdf: &a }, Curve { label: "est <x>", cdf: &b }]);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<polygon").count(), 1, "the ground truth is shaded");
        assert!(svg.contains("1 µs") && svg.contains("1 ms") && svg.contains("est &lt;x&gt;"));
        assert!(svg.contains("stroke=\"#d62728\"") && svg.contains("fill=\"#dddddd\""));
    }

    /// Decodes PNG bytes into (width, height, RGB pixels).
    fn decode(bytes: &[u8]) -> (u32, u32, Vec<[u8; 3]>) {
        let mut r = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().expect("a PNG header");
        let mut buf = vec![0; r.output_buffer_size().expect("buffer size")];
        let info = r.next_frame(&mut buf).expect("a PNG frame");
        assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgb, png::BitDepth::Eight));
        (info.width, info.height, buf[..info.buffer_size()].chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect())
    }

    #[test]
    fn png_draws_the_same_figure_as_the_svg() {
        let (a, b) = curves();
        let c = WeightedCdf::unweighted((1..100).map(|i| i as f64 * 20_000.0));
        let cs =
            [Curve { label: "truth", cdf: &a }, Curve { label: "est", cdf: &b }, Curve { label: "other", cdf: &c }];
        let (w, h, px) = decode(&cdf_png("title", &cs).unwrap());
        assert_eq!((w, h), ((W * PNG_SCALE) as u32, (H * PNG_SCALE) as u32));
        let at = |x: f64, y: f64| px[(y * PNG_SCALE) as usize * w as usize + (x * PNG_SCALE) as usize];
        let count = |c: Rgb, x0: f64, x1: f64| {
            let (x0, x1) = ((x0 * PNG_SCALE) as usize, (x1 * PNG_SCALE) as usize);
            px.iter()
                .enumerate()
                .filter(|(i, p)| (x0..x1).contains(&(i % w as usize)) && **p == [c.0, c.1, c.2])
                .count()
        };
        // Every curve's colour in the plot area and in the legend; the truth is shaded.
        for (i, color) in COLORS[..3].iter().enumerate() {
            assert!(count(*color, L, W - R) > 100, "curve {i} ({color:?}) in the plot area");
            assert!(count(*color, W - R + 12.0, W - R + 32.0) > 10, "curve {i} ({color:?}) in the legend");
        }
        assert!(count(TRUTH_FILL, L, W - R) > 1000, "shaded ground truth");
        assert_eq!(count(COLORS[3], 0.0, W), 0, "no fourth curve");
        // The curves rise from bottom left to top right on the same axes as the SVG: the estimate reaches
        // CDF 1 at 500 µs, where the truth (uniform to 1 ms) is near 0.5.
        let f = cdf_figure("title", &cs);
        let Some(Shape::Polyline { points, .. }) =
            f.shapes.iter().find(|s| matches!(s, Shape::Polyline { color, .. } if *color == COLORS[1]))
        else {
            panic!("no estimate polyline")
        };
        let &(xe, ye) = points.last().unwrap();
        assert!((ye - T).abs() < 1.0, "estimate ends at CDF 1");
        let near = |x: f64, y: f64, c: Rgb| {
            (-2..=2).any(|dx| (-2..=2).any(|dy| at(x + dx as f64 * 0.5, y + dy as f64 * 0.5) == [c.0, c.1, c.2]))
        };
        assert!(near(xe, ye, COLORS[1]), "estimate's last point drawn at ({xe}, {ye})");
        // Text: dark pixels in the title line, the decade labels and the y labels.
        let dark = |x0: f64, y0: f64, x1: f64, y1: f64| {
            let mut n = 0;
            for y in (y0 * PNG_SCALE) as usize..(y1 * PNG_SCALE) as usize {
                for x in (x0 * PNG_SCALE) as usize..(x1 * PNG_SCALE) as usize {
                    n += (px[y * w as usize + x] == [0, 0, 0]) as usize;
                }
            }
            n
        };
        assert!(dark(200.0, 4.0, 400.0, 22.0) > 20, "title");
        assert!(dark(L, H - B + 6.0, W - R, H - B + 24.0) > 50, "decade labels");
        assert!(dark(20.0, T, L - 4.0, H - B) > 50, "CDF labels");
        assert!(dark(4.0, T, 18.0, H - B) > 10, "vertical axis title");
    }

    #[test]
    fn the_format_is_chosen_by_extension() {
        assert_eq!(Format::of_path(Path::new("a/b.svg")), Ok(Format::Svg));
        assert_eq!(Format::of_path(Path::new("b.PNG")), Ok(Format::Png));
        for bad in ["x.pdf", "x"] {
            let e = Format::of_path(Path::new(bad)).unwrap_err();
            assert!(e.contains(".svg") && e.contains(".png") && e.contains(bad), "{e}");
        }
    }

    #[test]
    fn glyphs_cover_the_labels() {
        assert_ne!(glyph('µ'), glyph('?'));
        assert_ne!(glyph('a'), [0; 8]);
        assert_eq!(glyph('→'), glyph('?'));
    }
}
