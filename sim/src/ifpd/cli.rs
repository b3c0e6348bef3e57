//! `netmeas run ifpd` and the IFPD section of `netmeas demo`: options, progress, table, JSON and the
//! figures of the paper's Fig. 5 (threshold sweep) and Fig. 6 (memory sweep).

use super::experiment::{engine_fn, run, MethodResult, Point, Setup, Source};
use crate::cli::{parse_list, seed_bar, Experiment, RunArgs};
use crate::plot::{charts_figure, decades, write_figure, Chart, Scale, Series, Ticks};
use crate::traffic::ifpd::{capture_ifpd, IfpdParams, Table1Fit};
use crate::Engine;
use golden::ifpd::{Case3Rule, Mode};
use std::path::PathBuf;
use std::time::Instant;
use synth::table::{Align, Table};

/// The IFPD core in the CLI's list of cores.
pub struct Ifpd;

/// Fig. 5's thresholds (ms) at 400 KB.
pub const SWEEP_THRESHOLDS_MS: [f64; 6] = [200.0, 300.0, 400.0, 500.0, 600.0, 700.0];
/// Fig. 6's memory budgets (KB) at 700 ms.
pub const SWEEP_MEMORY_KB: [f64; 6] = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0];

#[derive(clap::Args)]
pub struct IfpdArgs {
    /// `synthetic` (a new 2 s segment per seed, calibrated to the paper's Table 1: heavy-tailed flow sizes,
    /// bursts and idle periods; see traffic::ifpd) or a capture FILE (pcap/pcapng, .gz read directly; every
    /// IPv4 TCP segment, flow = 5-tuple, each direction its own flow).
    #[arg(long, default_value = "synthetic")]
    trace: String,
    /// Synthetic: packets per segment (the paper's segments have ~1 M). Fewer packets mean fewer flows in the
    /// same 2 s, so scale --memory-kb with them to keep the load per bucket.
    #[arg(long, default_value_t = 1_000_000)]
    packets: usize,
    /// Memory per method in KB (1024 bytes), one value or a comma-separated list [default: 600; 400 with
    /// --sweep threshold]. Every method gets the buckets its layout affords: sketch 48-bit buckets, CM 32-bit,
    /// CM-BF 32-bit plus its Bloom filter (--bf-share of the budget).
    #[arg(long)]
    memory_kb: Option<String>,
    /// Report threshold θ in ms, one value or a comma-separated list [default: 700]; a packet is reported
    /// when its estimate D_est ≥ θ, and is truly high when its IFPD ≥ θ.
    #[arg(long)]
    threshold_ms: Option<String>,
    /// Rows d of every sketch (1..=8).
    #[arg(long, default_value_t = 4)]
    rows: usize,
    /// Methods: ifpd (the sketch, Algorithm 2), cm (Algorithm 1), cm-bf (CM + Bloom filter), or all
    /// (comma-separated list too).
    #[arg(long, default_value = "all")]
    method: String,
    /// The paper's x axes: `threshold` (Fig. 5: 200..700 ms at --memory-kb, default 400) or `memory` (Fig. 6:
    /// 100..600 KB at --threshold-ms, default 700).
    #[arg(long, value_parser = ["threshold", "memory"])]
    sweep: Option<String>,
    /// CM-BF: share of the memory for the Bloom filter (the paper does not give its split).
    #[arg(long, default_value_t = 0.25)]
    bf_share: f64,
    /// CM-BF: Bloom hash functions (partitions), 1..=8.
    #[arg(long, default_value_t = 4)]
    bf_hashes: usize,
    /// Case 3 of the sketch (every row held by another flow): `estimate` D = t − B.t of the replaced bucket
    /// (the paper's Algorithm 2) or `zero` (treat the packet as a first packet).
    #[arg(long, default_value = "estimate", value_parser = ["estimate", "zero"])]
    case3: String,
    #[command(flatten)]
    run: RunArgs,
    /// Print one JSON document: `setting`, `trace` (Table 1 of the traces), `points` (one per memory and
    /// threshold, each with a key per method: precision, recall, f1, rel_err, reported, true_high, ...); with
    /// a single point the method keys are also at the top level.
    #[arg(long)]
    json: bool,
    /// Write the figure (precision, recall, F1, relative error per method over the swept axis), FILE.svg or
    /// FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// Which axis the points vary along (for the figure).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Axis {
    Threshold,
    Memory,
}

impl IfpdArgs {
    fn setup(&self) -> Result<(Setup, String, Axis), String> {
        crate::plot::Format::check_option(&self.plot)?;
        let methods =
            if self.method == "all" { Mode::ALL.to_vec() } else { parse_list("method", &self.method, Mode::by_name)? };
        let num =
            |flag: &str, s: &str| parse_list(flag, s, |x| x.parse::<f64>().ok().filter(|v| *v > 0.0 && v.is_finite()));
        let given = |flag: &str, v: &Option<String>, dflt: f64| match v {
            Some(s) => num(flag, s),
            None => Ok(vec![dflt]),
        };
        let (memory_kb, thresholds_ms, axis) = match self.sweep.as_deref() {
            Some("threshold") => {
                if self.threshold_ms.is_some() {
                    return Err("--sweep threshold sets the thresholds (200..700 ms): drop --threshold-ms".into());
                }
                (given("memory-kb", &self.memory_kb, 400.0)?, SWEEP_THRESHOLDS_MS.to_vec(), Axis::Threshold)
            }
            Some(_) => {
                if self.memory_kb.is_some() {
                    return Err("--sweep memory sets the memory (100..600 KB): drop --memory-kb".into());
                }
                (SWEEP_MEMORY_KB.to_vec(), given("threshold-ms", &self.threshold_ms, 700.0)?, Axis::Memory)
            }
            None => {
                let (m, t) =
                    (given("memory-kb", &self.memory_kb, 600.0)?, given("threshold-ms", &self.threshold_ms, 700.0)?);
                let axis = if m.len() > 1 { Axis::Memory } else { Axis::Threshold };
                (m, t, axis)
            }
        };
        let case3 =
            Case3Rule::by_name(&self.case3).ok_or_else(|| format!("--case3 {}: estimate or zero", self.case3))?;
        let (source, what) = if self.trace == "synthetic" {
            let p = IfpdParams { packets: self.packets, ..IfpdParams::default() };
            p.check().map_err(|e| format!("--packets {}: {e}", self.packets))?;
            (Source::Synthetic(p), format!("synthetic 2 s segments of {} packets", self.packets))
        } else {
            let path = PathBuf::from(&self.trace);
            let (packets, st) = capture_ifpd(&path, &self.run.decoder())?;
            let what = format!(
                "{}: {} frames, {} IPv4 TCP packets, {} skipped",
                path.display(),
                st.frames,
                st.packets,
                st.skipped
            );
            (Source::Capture { name: path.display().to_string(), packets }, what)
        };
        let setup = Setup {
            source,
            methods,
            memory_kb,
            thresholds_ms,
            rows: self.rows,
            bf_share: self.bf_share,
            bf_hashes: self.bf_hashes,
            case3,
            seeds: self.run.seeds,
            first_seed: self.run.seed,
            engine: self.run.engine(),
        };
        Ok((setup, what, axis))
    }
}

fn table(points: &[Point]) -> Table {
    let mut t = Table::new(&[
        ("KB", Align::Right),
        ("θ ms", Align::Right),
        ("method", Align::Left),
        ("w/row", Align::Right),
        ("precision", Align::Right),
        ("(min)", Align::Right),
        ("recall", Align::Right),
        ("(min)", Align::Right),
        ("F1", Align::Right),
        ("rel. error", Align::Right),
        ("reported", Align::Right),
        ("true high", Align::Right),
    ]);
    for p in points {
        for r in &p.results {
            t.row(vec![
                format!("{}", p.memory_kb).into(),
                format!("{}", p.threshold_ms).into(),
                r.method.into(),
                r.buckets_per_row.to_string().into(),
                format!("{:.4}", r.precision).into(),
                format!("{:.4}", r.precision_min).into(),
                format!("{:.4}", r.recall).into(),
                format!("{:.4}", r.recall_min).into(),
                format!("{:.4}", r.f1).into(),
                format!("{:.2e}", r.rel_err).into(),
                format!("{:.0}", r.reported).into(),
                format!("{:.0}", r.true_high).into(),
            ]);
        }
    }
    t
}

fn print_fit(f: &Table1Fit) {
    println!(
        "trace (mean over seeds): {} packets, {} flows, {:.2} s; Table 1, this trace vs the paper (mean |log ratio| {:.3}):",
        f.packets, f.flows, f.span_s, f.mean_abs_log_ratio
    );
    let mut t = Table::new(&[
        ("θ ms", Align::Right),
        ("IFPD ≥ θ", Align::Right),
        ("paper", Align::Right),
        ("flows with one", Align::Right),
        ("paper", Align::Right),
    ]);
    for r in &f.rows {
        t.row(vec![
            r.threshold_ms.to_string().into(),
            format!("{:.2} %", 100.0 * r.ifpd_share).into(),
            format!("{:.1} %", 100.0 * r.paper_ifpd_share).into(),
            format!("{:.1} %", 100.0 * r.flow_share).into(),
            format!("{:.1} %", 100.0 * r.paper_flow_share).into(),
        ]);
    }
    print!("{}", t.text());
}

/// Precision, recall, F1 and relative error (log axis) per method along the swept axis.
fn plot(path: &std::path::Path, points: &[Point], axis: Axis, title: &str) -> Result<(), String> {
    let x = |p: &Point| if axis == Axis::Threshold { p.threshold_ms } else { p.memory_kb };
    let xs: Vec<f64> = points.iter().map(x).collect();
    let (lo, hi) = (xs.iter().cloned().fold(f64::INFINITY, f64::min), xs.iter().cloned().fold(0.0, f64::max));
    let pad = if hi > lo { 0.0 } else { 0.1 * lo };
    let names: Vec<&str> = points.first().map(|p| p.results.iter().map(|r| r.method).collect()).unwrap_or_default();
    let series = |f: &dyn Fn(&MethodResult) -> f64| -> Vec<Series> {
        names
            .iter()
            .enumerate()
            .map(|(k, name)| Series {
                label: name.to_string(),
                points: points.iter().map(|p| (x(p), f(&p.results[k]))).collect(),
                markers: true,
                ..Series::default()
            })
            .collect()
    };
    // Relative errors span decades (the sketch's ~1e-6 against CM's ~1e-2): a log axis, zero at its bottom.
    let err = |r: &MethodResult| r.rel_err.max(1e-7);
    let err_range = decades(points.iter().flat_map(|p| p.results.iter().map(err)));
    let x_label = if axis == Axis::Threshold { "threshold (ms)" } else { "memory (KB)" };
    let chart = |title: &str, y_range, y_scale, s| Chart {
        title: title.into(),
        x_label: x_label.into(),
        y_label: title.into(),
        x_range: (lo - pad, hi + pad),
        y_range,
        x_scale: Scale::Linear,
        y_scale,
        x_ticks: Ticks::Plain,
        series: s,
        guides: vec![],
    };
    let charts = [
        chart("precision", (0.0, 1.0), Scale::Linear, series(&|r| r.precision)),
        chart("recall", (0.0, 1.0), Scale::Linear, series(&|r| r.recall)),
        chart("F1 score", (0.0, 1.0), Scale::Linear, series(&|r| r.f1)),
        chart("relative error", err_range, Scale::Log10, series(&err)),
    ];
    write_figure(path, &charts_figure(title, &charts, 2)).map_err(|e| format!("--plot {e}"))
}

/// The JSON object of one method's result (the contract's keys first).
fn method_json(r: &MethodResult) -> serde_json::Value {
    serde_json::json!({
        "precision": r.precision, "recall": r.recall, "f1": r.f1, "rel_err": r.rel_err,
        "reported": r.reported, "true_high": r.true_high, "precision_min": r.precision_min,
        "recall_min": r.recall_min, "buckets_per_row": r.buckets_per_row, "bf_bits_per_hash": r.bf_bits_per_hash,
        "memory_bits": r.memory_bits, "cases": r.cases,
    })
}

impl Experiment for Ifpd {
    const NAME: &'static str = "ifpd";
    const ABOUT: &'static str = "High intra-flow packet delay detection (APNet 2021): the IFPD sketch (fingerprint + \
                                 timestamp buckets, one bucket written per packet, replace the largest timestamp) \
                                 against CM and CM-BF in the same memory, scored against the exact IFPD of every \
                                 packet with §4.1's precision, recall, F1 and relative error; Fig. 5 (--sweep \
                                 threshold) and Fig. 6 (--sweep memory) on a synthetic segment calibrated to the \
                                 paper's Table 1, or a capture";
    type Args = IfpdArgs;
    const CAPTURE: Option<&'static [&'static str]> = Some(&["--trace"]);

    fn run_args(a: &mut IfpdArgs) -> &mut RunArgs {
        &mut a.run
    }

    fn run(a: &IfpdArgs) -> Result<(), String> {
        engine_fn(a.run.engine())?;
        let started = Instant::now();
        let (setup, what, axis) = a.setup()?;
        let jobs = setup.seeds * (setup.methods.len() * setup.memory_kb.len()) as u64;
        let bar = seed_bar(jobs, !a.json, "{bar:30} {pos}/{len} runs [{elapsed_precise}]");
        let out = run(&setup, &|| bar.inc(1));
        bar.finish_and_clear();
        let (points, fit) = out?;
        let secs = started.elapsed().as_secs_f64();
        if a.json {
            let pts: Vec<serde_json::Value> = points
                .iter()
                .map(|p| {
                    let mut o = serde_json::json!({ "memory_kb": p.memory_kb, "threshold_ms": p.threshold_ms });
                    for r in &p.results {
                        o[r.method] = method_json(r);
                    }
                    o
                })
                .collect();
            let mut doc = serde_json::json!({
                "experiment": "ifpd",
                "setting": {
                    "trace": what, "rows": a.rows, "bf_share": a.bf_share, "bf_hashes": a.bf_hashes,
                    "case3": a.case3, "sweep": a.sweep, "seeds": a.run.seeds, "first_seed": a.run.seed,
                    "engine": a.run.engine, "seconds": secs,
                },
                "trace": fit,
                "points": pts,
            });
            if let [single] = &pts[..] {
                for r in &points[0].results {
                    doc[r.method] = single[r.method].clone();
                }
            }
            println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
        } else {
            println!(
                "{what}; d = {}, 16-bit fingerprints, 32-bit times of 1.024 µs; CM-BF filter {} of the memory, {} \
                 hashes; case 3 {}; {} seeds from {}; engine {}",
                a.rows, a.bf_share, a.bf_hashes, a.case3, a.run.seeds, a.run.seed, a.run.engine
            );
            print_fit(&fit);
            print!("{}", table(&points).text());
            println!(
                "(means over seeds, min over seeds in brackets; reported: packets with D_est ≥ θ; true high: packets \
                 with IFPD ≥ θ; rel. error over the true high packets reported. {secs:.1} s)"
            );
        }
        if let Some(path) = &a.plot {
            let title = match &setup.source {
                Source::Synthetic(p) => format!("IFPD: synthetic segments of {} packets, d = {}", p.packets, a.rows),
                Source::Capture { name, .. } => format!(
                    "IFPD: {}",
                    std::path::Path::new(name).file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default()
                ),
            };
            plot(path, &points, axis, &title)?;
        }
        Ok(())
    }

    /// A short golden run (200 000-packet segments, 2 seeds, the three methods at 120 KB and 700 ms); the IFPD
    /// core's co-simulation runs with the other runners of the demo (its builds are too small for this size).
    fn demo(seed: u64) -> Result<(), String> {
        println!("\nIFPD experiment (golden; RTL co-simulated above at its built sizes): 200 000-packet segments, 2 seeds, 120 KB, 700 ms");
        let setup = Setup {
            source: Source::Synthetic(IfpdParams { packets: 200_000, ..IfpdParams::default() }),
            methods: Mode::ALL.to_vec(),
            memory_kb: vec![120.0],
            thresholds_ms: vec![700.0],
            rows: 4,
            bf_share: 0.25,
            bf_hashes: 4,
            case3: Case3Rule::Estimate,
            seeds: 2,
            first_seed: seed,
            engine: Engine::Golden,
        };
        let (points, fit) = run(&setup, &|| {})?;
        print_fit(&fit);
        print!("{}", table(&points).text());
        Ok(())
    }
}
