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
    let svg = cdf_figure("t", &[Curve { label: "truth", cdf: &a }, Curve { label: "est <x>", cdf: &b }]).svg().unwrap();
    let strokes = |color: &str, width: u32| svg.matches(&format!("stroke=\"{color}\" stroke-width=\"{width}\" points")).count();
    assert_eq!(strokes("#999999", 1), 1, "the ground truth, thin: {svg}");
    assert_eq!(strokes("#D62728", 2), 1, "the estimate: {svg}");
    assert_eq!(strokes("#999999", 3) + strokes("#D62728", 3), 2, "a legend stroke per curve: {svg}");
    assert_eq!(svg.matches("<polygon").count(), 1, "the ground truth is shaded");
    assert!(svg.contains("1 µs") && svg.contains("1 ms") && svg.contains("est &lt;x&gt;"), "{svg}");
    let lower = svg.to_ascii_lowercase();
    assert!(lower.contains("#d62728") && lower.contains("#dddddd"), "{svg}");
}

/// Decodes PNG bytes into (width, height, RGB pixels).
fn decode(bytes: &[u8]) -> (u32, u32, Vec<[u8; 3]>) {
    let mut r = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().expect("a PNG header");
    let mut buf = vec![0; r.output_buffer_size().expect("buffer size")];
    let info = r.next_frame(&mut buf).expect("a PNG frame");
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgb, png::BitDepth::Eight));
    (info.width, info.height, buf[..info.buffer_size()].chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect())
}

/// Pixels of exactly colour `c` in the figure-unit box `x0..x1` × `y0..y1`.
fn count(img: &(u32, u32, Vec<[u8; 3]>), c: Rgb, (x0, x1): (f64, f64), (y0, y1): (f64, f64)) -> usize {
    let (w, h, px) = img;
    let s = |v: f64, max: u32| ((v * PNG_SCALE) as usize).min(max as usize);
    let mut n = 0;
    for y in s(y0, *h)..s(y1, *h) {
        for x in s(x0, *w)..s(x1, *w) {
            n += (px[y * *w as usize + x] == [c.0, c.1, c.2]) as usize;
        }
    }
    n
}

/// Dark (text) pixels in the box.
fn dark(img: &(u32, u32, Vec<[u8; 3]>), (x0, x1): (f64, f64), (y0, y1): (f64, f64)) -> usize {
    let (w, _, px) = img;
    let mut n = 0;
    for y in (y0 * PNG_SCALE) as usize..(y1 * PNG_SCALE) as usize {
        for x in (x0 * PNG_SCALE) as usize..(x1 * PNG_SCALE) as usize {
            n += px[y * *w as usize + x].iter().all(|&v| v < 96) as usize;
        }
    }
    n
}

#[test]
fn png_draws_every_curve_the_legend_and_the_text() {
    let (a, b) = curves();
    let c = WeightedCdf::unweighted((1..100).map(|i| i as f64 * 20_000.0));
    let cs = [Curve { label: "truth", cdf: &a }, Curve { label: "est", cdf: &b }, Curve { label: "other", cdf: &c }];
    let fig = cdf_figure("title", &cs);
    let img = decode(&fig.png().unwrap());
    let (w, h) = fig.size();
    assert_eq!((img.0, img.1), ((w * PNG_SCALE) as u32, (h * PNG_SCALE) as u32));
    let plot_x = (60.0, fig.cell.0);
    let legend_x = (fig.cell.0, w);
    for (i, color) in COLORS[..3].iter().enumerate() {
        assert!(count(&img, *color, plot_x, (TITLE_H, h)) > 100, "curve {i} ({color:?}) in the plot area");
        assert!(count(&img, *color, legend_x, (TITLE_H, h)) > 10, "curve {i} ({color:?}) in the legend");
    }
    assert!(count(&img, TRUTH_FILL, plot_x, (TITLE_H, h)) > 1000, "shaded ground truth");
    assert_eq!(count(&img, COLORS[3], (0.0, w), (0.0, h)), 0, "no fourth curve");
    assert!(dark(&img, (200.0, 350.0), (4.0, 30.0)) > 20, "title");
    assert!(dark(&img, (60.0, fig.cell.0), (h - 40.0, h - 20.0)) > 50, "decade labels");
    assert!(dark(&img, (20.0, 55.0), (TITLE_H, h - 50.0)) > 50, "CDF tick labels");
    assert!(dark(&img, (0.0, 20.0), (TITLE_H, h - 50.0)) > 10, "vertical axis title");
    assert!(dark(&img, (legend_x.0 + 30.0, w), (TITLE_H, TITLE_H + 80.0)) > 20, "legend labels");
}

/// A log-log chart with error bars: the bars are drawn (vertical strokes in the series colour above and
/// below a point), zero and negative values are held at the bottom of the range, ticks read as powers of ten.
#[test]
fn log_axes_and_error_bars() {
    let se = Series {
        label: "m".into(),
        points: vec![(1e-5, 1e-3), (1e-4, 1e-2), (1e-3, 0.0), (1e-2, 1e-1)],
        errors: vec![5e-4, 5e-3, 0.0, 0.05],
        markers: true,
        ..Series::default()
    };
    let chart = Chart {
        title: "err".into(),
        x_label: "rho".into(),
        y_label: "relative error".into(),
        x_range: (1e-6, 1e-1),
        y_range: (1e-4, 1.0),
        x_scale: Scale::Log10,
        y_scale: Scale::Log10,
        series: vec![se],
        ..Chart::default()
    };
    let fig = charts_figure("fig", &[chart], 1);
    let svg = fig.svg().unwrap();
    assert!(svg.contains("\n1e-5\n") && svg.contains("\n0.01\n"), "log ticks: {svg}");
    // An error bar per point: a vertical line, two caps and a circle at the point, in the series colour.
    assert_eq!(svg.matches("<circle").count(), 4, "{svg}");
    assert_eq!(svg.matches("<line opacity=\"1\" stroke=\"#D62728\"").count(), 3 * 4, "{svg}");
    let img = decode(&fig.png().unwrap());
    assert!(count(&img, COLORS[1], (60.0, fig.cell.0), (TITLE_H, fig.size().1)) > 200, "series and bars");
    // Without error bars the series paints fewer pixels of its colour.
    let mut bare = fig.clone();
    bare.charts[0].series[0].errors.clear();
    let img2 = decode(&bare.png().unwrap());
    assert!(
        count(&img, COLORS[1], (0.0, fig.cell.0), (0.0, fig.size().1))
            > count(&img2, COLORS[1], (0.0, fig.cell.0), (0.0, fig.size().1)) + 20,
        "error bars add strokes"
    );
}

#[test]
fn decades_round_out_to_powers_of_ten() {
    assert_eq!(decades([4e-6, 4e-2].into_iter()), (1e-6, 1e-1));
    assert_eq!(decades([0.0, 3.0].into_iter()), (1.0, 10.0));
    assert_eq!(decades([1.0].into_iter()), (1.0, 10.0));
    assert_eq!(decades(std::iter::empty()), (0.1, 1.0));
}

#[test]
fn tick_labels() {
    assert_eq!(tick_label(1e-5, Scale::Log10, Ticks::Plain), "1e-5");
    assert_eq!(tick_label(0.01, Scale::Log10, Ticks::Plain), "0.01");
    assert_eq!(tick_label(1024.0, Scale::Log2, Ticks::Plain), "1024");
    assert_eq!(tick_label(0.25, Scale::Linear, Ticks::Plain), "0.25");
    assert_eq!(tick_label(1e6, Scale::Log10, Ticks::DelayNs), "1 ms");
    assert_eq!(tick_label(100.0, Scale::Log10, Ticks::DelayNs), "100 ns");
    assert_eq!(tick_label(4e-6, Scale::Log10, Ticks::Plain), "4e-6");
    assert_eq!(tick_label(9.999_999_9e-6, Scale::Log10, Ticks::Plain), "1e-5");
    assert_eq!(tick_label(2.5e-7, Scale::Log10, Ticks::Plain), "2.5e-7");
    assert_eq!(tick_label(1e6, Scale::Log10, Ticks::Plain), "1e6");
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

