//! Draws a [`Figure`] with `plotters`: an SVG document, or an RGB buffer encoded as PNG. Every size in
//! figure units is multiplied by the back end's scale (1 for SVG, [`PNG_SCALE`] for PNG).

use super::{series_color, tick_label, Chart, Figure, Guide, Rgb, Scale, PNG_SCALE, TITLE_H, TRUTH_FILL};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::sync::OnceLock;

const FONT: &str = "sans-serif";
const GRID: RGBColor = RGBColor(0xe4, 0xe4, 0xe4);
const GUIDE: RGBColor = RGBColor(0x44, 0x44, 0x44);

/// Registers the embedded DejaVu Sans as plotters' `sans-serif` (text is measured with it in SVG too).
fn fonts() -> Result<(), String> {
    static LOADED: OnceLock<bool> = OnceLock::new();
    if *LOADED.get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()) {
        Ok(())
    } else {
        Err("plot: the embedded DejaVu Sans font did not load".into())
    }
}

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("plot: {e}")
}

fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

/// `fig` as an SVG document.
pub fn svg(fig: &Figure) -> Result<String, String> {
    let (w, h) = fig.size();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (w.round() as u32, h.round() as u32)).into_drawing_area();
        draw(&root, fig, 1.0)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// `fig` at [`PNG_SCALE`] pixels per unit as PNG bytes (8-bit RGB).
pub fn png(fig: &Figure) -> Result<Vec<u8>, String> {
    let (w, h) = fig.size();
    let (w, h) = ((w * PNG_SCALE).round() as u32, (h * PNG_SCALE).round() as u32);
    let mut buf = vec![0xffu8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        draw(&root, fig, PNG_SCALE)?;
        root.present().map_err(err)?;
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut wr = enc.write_header().map_err(|e| format!("PNG encoding: {e}"))?;
    wr.write_image_data(&buf).map_err(|e| format!("PNG encoding: {e}"))?;
    wr.finish().map_err(|e| format!("PNG encoding: {e}"))?;
    Ok(out)
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, fig: &Figure, s: f64) -> Result<(), String> {
    fonts()?;
    root.fill(&WHITE).map_err(err)?;
    let px = |v: f64| (v * s).round() as i32;
    let (w, _) = root.dim_in_pixel();
    let (main, legend) = root.split_horizontally(w - px(fig.legend_width) as u32);
    let (title, grid) = main.split_vertically(px(TITLE_H) as u32);
    let (tw, th) = title.dim_in_pixel();
    let centred = TextStyle::from((FONT, 14.0 * s).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
    title.draw(&Text::new(fig.title.clone(), (tw as i32 / 2, th as i32 / 2), centred)).map_err(err)?;
    let rows = fig.charts.len().div_ceil(fig.columns).max(1);
    for (c, area) in fig.charts.iter().zip(grid.split_evenly((rows, fig.columns))) {
        chart(&area, c, s)?;
    }
    let label = TextStyle::from((FONT, 12.0 * s).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (name, color)) in fig.legend().into_iter().enumerate() {
        let (x, y) = (px(10.0), px(TITLE_H + 26.0 + 18.0 * i as f64));
        let line = ShapeStyle::from(&rgb(color)).stroke_width(px(3.0) as u32);
        legend.draw(&PathElement::new(vec![(x, y), (x + px(20.0), y)], line)).map_err(err)?;
        legend.draw(&Text::new(name, (x + px(26.0), y), label.clone())).map_err(err)?;
    }
    Ok(())
}

/// A log axis over `r` (both ends made positive) in `base`.
fn log(r: (f64, f64), base: f64) -> LogCoord<f64> {
    // Nudged outwards so that a range ending on a power of the base keeps that tick (the key points are
    // the powers strictly inside the range as floating point computes its logarithm).
    let lo = r.0.max(f64::MIN_POSITIVE) * (1.0 - 1e-9);
    LogCoord::from((lo..r.1.max(lo * 1.000_001) * (1.0 + 1e-9)).log_scale().base(base))
}

fn linear(r: (f64, f64)) -> RangedCoordf64 {
    (r.0..r.1.max(r.0 + 1e-9)).into()
}

/// One chart in `area`: picks the coordinate types of its two scales.
fn chart<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, c: &Chart, s: f64) -> Result<(), String> {
    match c.x_scale {
        Scale::Linear => with_x(area, c, s, linear(c.x_range)),
        Scale::Log2 => with_x(area, c, s, log(c.x_range, 2.0)),
        Scale::Log10 => with_x(area, c, s, log(c.x_range, 10.0)),
    }
}

fn with_x<DB: DrawingBackend, X: Ranged<ValueType = f64> + ValueFormatter<f64>>(
    area: &DrawingArea<DB, Shift>,
    c: &Chart,
    s: f64,
    x: X,
) -> Result<(), String> {
    match c.y_scale {
        Scale::Linear => plot_in(area, c, s, x, linear(c.y_range)),
        Scale::Log2 => plot_in(area, c, s, x, log(c.y_range, 2.0)),
        Scale::Log10 => plot_in(area, c, s, x, log(c.y_range, 10.0)),
    }
}

/// `v` inside `range` (the lower end of a log range is positive: a zero error sits at the bottom).
fn clamp(v: f64, range: (f64, f64), scale: Scale) -> f64 {
    let lo = if scale == Scale::Linear { range.0 } else { range.0.max(f64::MIN_POSITIVE) };
    v.clamp(lo, range.1.max(lo))
}

fn plot_in<DB, X, Y>(area: &DrawingArea<DB, Shift>, c: &Chart, s: f64, x: X, y: Y) -> Result<(), String>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let px = |v: f64| (v * s).round() as u32;
    let mut ch = ChartBuilder::on(area)
        .caption(&c.title, (FONT, 12.0 * s))
        .margin_top(px(4.0))
        .margin_right(px(14.0))
        .margin_left(px(4.0))
        .margin_bottom(px(4.0))
        .x_label_area_size(px(36.0))
        .y_label_area_size(px(52.0))
        .build_cartesian_2d(x, y)
        .map_err(err)?;
    let (xf, yf) = (|v: &f64| tick_label(*v, c.x_scale, c.x_ticks), |v: &f64| {
        tick_label(*v, c.y_scale, super::Ticks::Plain)
    });
    ch.configure_mesh()
        .bold_line_style(GRID.stroke_width(px(1.0)))
        .light_line_style(WHITE.mix(0.0))
        .axis_style(BLACK.stroke_width(px(1.0)))
        .label_style((FONT, 11.0 * s))
        .axis_desc_style((FONT, 11.0 * s))
        .x_desc(c.x_label.as_str())
        .y_desc(c.y_label.as_str())
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&xf)
        .y_label_formatter(&yf)
        .draw()
        .map_err(err)?;
    let at = |(a, v): (f64, f64)| (clamp(a, c.x_range, c.x_scale), clamp(v, c.y_range, c.y_scale));
    for g in &c.guides {
        let line = match *g {
            Guide::X(v) => vec![at((v, c.y_range.0)), at((v, c.y_range.1))],
            Guide::Y(v) => vec![at((c.x_range.0, v)), at((c.x_range.1, v))],
        };
        ch.draw_series(LineSeries::new(line, GUIDE.stroke_width(px(1.0)))).map_err(err)?;
    }
    for (i, se) in c.series.iter().enumerate() {
        let color = rgb(series_color(se, i));
        let pts: Vec<(f64, f64)> = se.points.iter().map(|&p| at(p)).collect();
        if se.fill {
            let base = clamp(c.y_range.0, c.y_range, c.y_scale);
            ch.draw_series(AreaSeries::new(pts.clone(), base, rgb(TRUTH_FILL).filled()).border_style(TRANSPARENT))
                .map_err(err)?;
        }
        let width = if se.fill { px(1.0) } else { px(2.0) };
        ch.draw_series(LineSeries::new(pts.clone(), color.stroke_width(width))).map_err(err)?;
        if se.markers {
            let r = (2.5 * s).round() as i32;
            ch.draw_series(pts.iter().map(|&p| EmptyElement::at(p) + Rectangle::new([(-r, -r), (r, r)], color.filled())))
                .map_err(err)?;
        }
        if !se.errors.is_empty() {
            let bars = se.points.iter().zip(&se.errors).map(|(&(a, v), &e)| {
                let (a, lo, mid, hi) = (at((a, v)).0, at((a, v - e)).1, at((a, v)).1, at((a, v + e)).1);
                ErrorBar::new_vertical(a, lo, mid, hi, color.stroke_width(px(1.0)), px(6.0))
            });
            ch.draw_series(bars).map_err(err)?;
        }
    }
    Ok(())
}
