//! `netmeas run reordering` and the reordering section of `netmeas demo`: options, progress, table, JSON and
//! the recall-versus-memory figure.

use super::experiment::{run, ReMethod, ReResult, Setup, Source, TruthSummary};
use super::metrics::is_capture_a;
use super::tally::Thresholds;
use crate::cli::{parse_list, seed_bar, Experiment, RunArgs};
use crate::plot::{charts_figure, write_figure, Chart, Guide, Scale, Series, Ticks};
use crate::traffic::reorder::{capture_descriptors, ReorderParams};
use crate::Engine;
use golden::reordering::{ReorderConfig, ReorderRuntime};
use std::path::PathBuf;
use std::time::Instant;
use synth::table::{flagged, Align, Cell, Table};

/// The reordering core in the CLI's list of cores.
pub struct Reordering;

#[derive(clap::Args)]
pub struct ReArgs {
    /// `synthetic` (a new trace per seed: --prefixes destination /24s of log-uniform size 10..10000 data
    /// packets, Pareto flow sizes, 10 % of prefixes on reordering paths, parallel paths per prefix, elephants
    /// less reordered; see traffic::reorder) or a capture FILE (pcap/pcapng, .gz read directly; every IPv4 TCP
    /// segment, prefix of the destination). ../shared/captures/multipath-tcp-A.pcap.gz (recognised by its
    /// file name) is also scored against its README's path groups.
    #[arg(long, default_value = "synthetic")]
    trace: String,
    /// Synthetic: number of prefixes.
    #[arg(long, default_value_t = 1000)]
    prefixes: usize,
    /// Synthetic: crowded prefixes on top, each with --crowded-flows short clean flows (2-4 packets): the
    /// prefixes with huge flow counts that take over an array indexed by flow (the memory argument).
    #[arg(long, default_value_t = 0)]
    crowded: usize,
    /// Synthetic: flows per crowded prefix.
    #[arg(long, default_value_t = 2000)]
    crowded_flows: usize,
    /// Prefix length L (0..=32) of the destination address.
    #[arg(long, default_value_t = 24)]
    prefix_len: u8,
    /// ε: a prefix is out-of-order heavy when more than ε of its data packets are out of order.
    #[arg(long, default_value_t = 0.005)]
    epsilon: f64,
    /// α: the tally outputs a prefix only when its sampled packets N ≥ α (avoid reporting prefixes of size
    /// ≤ α); reports of true size ≤ α count as false.
    #[arg(long, default_value_t = 50)]
    alpha: u64,
    /// β: recall is scored over the out-of-order-heavy prefixes of at least β data packets (β > α).
    #[arg(long, default_value_t = 1000)]
    beta: u64,
    /// Memory in entries, one value or a comma-separated list (one row per size and the figure's x axis).
    /// sampling/flows: 2^floor(log2 N) buckets; hybrid: --hh-share of N for the heavy-hitter table (2 rows,
    /// powers of two), the rest for flow sampling (a power of two).
    #[arg(long, default_value = "64,128,256,512,1024,2048")]
    memory: String,
    /// Share of the hybrid's memory given to the heavy-hitter table.
    #[arg(long, default_value_t = 0.5)]
    hh_share: f64,
    /// Staleness timeout T in ms: another flow may overwrite a resident unseen for more than T.
    #[arg(long = "T", default_value_t = 100.0)]
    t_ms: f64,
    /// C: another flow may overwrite a resident seen more than C times.
    #[arg(long = "C", default_value_t = 64)]
    c: u32,
    /// R: another flow may overwrite a resident with more than R out-of-order packets.
    #[arg(long = "R", default_value_t = 4)]
    r: u32,
    /// Overwrite conditions enabled, comma-separated: stale, count, reorder, or `all`, or `none`.
    #[arg(long, default_value = "all")]
    conditions: String,
    /// Do not count a newcomer's first packet in n (it can never be out of order).
    #[arg(long)]
    skip_first: bool,
    /// Flush (report and clear the array) every this many ms of trace time; default: once, at the end.
    #[arg(long)]
    period: Option<f64>,
    /// Methods: sampling (flow sampling, prefix-indexed), hybrid (heavy-hitter table + flow sampling), flows
    /// (the same array indexed by the flow key: no per-prefix allocation), or all (comma-separated list too).
    #[arg(long, default_value = "all")]
    method: String,
    #[command(flatten)]
    run: RunArgs,
    /// Print one JSON document (`setting`, `truth`, `results`: one row per method and memory size).
    #[arg(long)]
    json: bool,
    /// Write the recall-versus-memory figure (and false reports), FILE.svg or FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
}

impl ReArgs {
    /// The experiment the options select, or what is wrong with them.
    fn setup(&self) -> Result<(Setup, String), String> {
        crate::plot::Format::check_option(&self.plot)?;
        let methods = if self.method == "all" {
            ReMethod::ALL.to_vec()
        } else {
            parse_list("method", &self.method, ReMethod::by_name)?
        };
        let memory = parse_list("memory", &self.memory, |x| x.parse::<usize>().ok().filter(|&n| n > 0))?;
        if !(self.hh_share > 0.0 && self.hh_share < 1.0) {
            return Err(format!("--hh-share {}: must be in (0, 1)", self.hh_share));
        }
        let conds = match self.conditions.as_str() {
            "all" => vec!["stale", "count", "reorder"],
            "none" => vec![],
            s => parse_list("conditions", s, |x| ["stale", "count", "reorder"].into_iter().find(|c| *c == x))?,
        };
        let unit = ReorderConfig::default().ts_unit_ns() as f64;
        if !(self.t_ms >= 0.0 && self.t_ms.is_finite()) {
            return Err(format!("--T {}: must be a non-negative number of ms", self.t_ms));
        }
        let rt = ReorderRuntime {
            prefix_len: self.prefix_len,
            timeout: (self.t_ms * 1e6 / unit).round() as u64,
            count: self.c,
            reorder: self.r,
            stale_en: conds.contains(&"stale"),
            count_en: conds.contains(&"count"),
            reorder_en: conds.contains(&"reorder"),
            count_first: !self.skip_first,
            ..ReorderRuntime::default()
        };
        rt.check(&ReorderConfig::default())
            .map_err(|e| format!("{e} (--T {} ms is {} units of {} ns)", self.t_ms, rt.timeout, unit as u64))?;
        let thresholds = Thresholds { epsilon: self.epsilon, alpha: self.alpha, beta: self.beta };
        thresholds.check()?;
        let period_ns = match self.period {
            Some(p) if !(p > 0.0 && p.is_finite()) => {
                return Err(format!("--period {p}: must be a positive number of ms"))
            }
            p => p.map(|ms| (ms * 1e6) as u64),
        };
        let (source, what) = if self.trace == "synthetic" {
            let p = ReorderParams {
                prefixes: self.prefixes,
                crowded: self.crowded,
                crowded_flows: self.crowded_flows,
                ..ReorderParams::default()
            };
            p.check()?;
            let crowded = match self.crowded {
                0 => String::new(),
                k => format!(" + {k} crowded ({} flows each)", self.crowded_flows),
            };
            (Source::Synthetic(p), format!("synthetic, {} prefixes{crowded}", self.prefixes))
        } else {
            let path = PathBuf::from(&self.trace);
            let capture_a = is_capture_a(&path);
            if capture_a && self.prefix_len < 16 {
                return Err(format!(
                    "--prefix-len {}: capture A's path groups are /16s (use 16..=32)",
                    self.prefix_len
                ));
            }
            let (packets, st) = capture_descriptors(&path, &self.run.decoder())?;
            let what = format!(
                "{}: {} frames, {} IPv4 TCP segments, {} with data, {} skipped",
                path.display(),
                st.frames,
                st.segments,
                st.data,
                st.skipped
            );
            (Source::Capture { name: path.display().to_string(), packets, capture_a }, what)
        };
        let setup = Setup {
            source,
            methods,
            memory,
            rt,
            hh_share: self.hh_share,
            thresholds,
            period_ns,
            seeds: self.run.seeds,
            first_seed: self.run.seed,
            engine: self.run.engine(),
        };
        Ok((setup, what))
    }
}

fn table(rows: &[ReResult]) -> Table {
    let mut t = Table::new(&[
        ("memory", Align::Right),
        ("method", Align::Left),
        ("buckets", Align::Right),
        ("hh", Align::Right),
        ("kbit", Align::Right),
        ("recall", Align::Right),
        ("min", Align::Right),
        ("false", Align::Right),
        ("output", Align::Right),
        ("targets", Align::Right),
        ("reports", Align::Right),
        ("capture A", Align::Left),
    ]);
    for r in rows {
        let verdict: Cell = match &r.capture_a {
            None => "-".into(),
            Some(v) if v.pass => {
                format!("pass (3,4 found; light 7 {})", if v.light_reported { "out" } else { "not out" }).into()
            }
            Some(v) => flagged(format!("FAIL missed {:?} clean out {:?}", v.heavy_missed, v.clean_reported)),
        };
        t.row(vec![
            r.memory.to_string().into(),
            r.method.name().into(),
            r.buckets.to_string().into(),
            r.hh_entries.to_string().into(),
            format!("{:.1}", r.memory_bits as f64 / 1000.0).into(),
            format!("{:.3}", r.recall).into(),
            format!("{:.3}", r.recall_min).into(),
            format!("{:.1}", r.false_reports).into(),
            format!("{:.1}", r.output).into(),
            format!("{:.1}", r.targets).into(),
            format!("{:.0}", r.reports).into(),
            verdict,
        ]);
    }
    t
}

/// Recall and false reports versus memory, a series per method.
fn plot(path: &std::path::Path, rows: &[ReResult], what: &str) -> Result<(), String> {
    let mems: Vec<f64> = rows.iter().map(|r| r.memory as f64).collect();
    let lo = 2f64.powf(mems.iter().cloned().fold(f64::INFINITY, f64::min).log2().floor());
    let hi = 2f64.powf(mems.iter().cloned().fold(0.0, f64::max).log2().ceil()).max(2.0 * lo);
    let series = |f: fn(&ReResult) -> f64| -> Vec<Series> {
        ReMethod::ALL
            .iter()
            .filter(|m| rows.iter().any(|r| r.method == **m))
            .map(|&m| Series {
                label: m.name().into(),
                points: rows.iter().filter(|r| r.method == m).map(|r| (r.memory as f64, f(r))).collect(),
                markers: true,
                ..Series::default()
            })
            .collect()
    };
    let false_max = rows.iter().map(|r| r.false_reports).fold(1.0, f64::max).ceil();
    let chart = |title: &str, y: &str, y_range, s, guides| Chart {
        title: title.into(),
        x_label: "memory (entries, log2)".into(),
        y_label: y.into(),
        x_range: (lo, hi),
        y_range,
        x_scale: Scale::Log2,
        y_scale: Scale::Linear,
        x_ticks: Ticks::Plain,
        series: s,
        guides,
    };
    let charts = [
        chart(
            "recall of out-of-order-heavy prefixes >= beta",
            "recall",
            (0.0, 1.0),
            series(|r| r.recall),
            vec![Guide::Y(0.8)],
        ),
        chart(
            "false reports (size <= alpha or fraction <= eps)",
            "prefixes",
            (0.0, false_max),
            series(|r| r.false_reports),
            vec![],
        ),
    ];
    write_figure(path, &charts_figure(&format!("reordering: {what}"), &charts, 2)).map_err(|e| format!("--plot {e}"))
}

fn print_truth(t: &TruthSummary, th: &Thresholds) {
    println!(
        "ground truth (every flow tracked): {:.0} data packets, {:.0} prefixes, {:.1} out-of-order heavy (> ε = {}), \
         {:.1} of them ≥ β = {} packets (the recall targets)",
        t.data_packets, t.prefixes, t.heavy, th.epsilon, t.targets, th.beta
    );
    for (g, c) in &t.reordered_prefixes {
        println!("  {g:<15} {:>8} data packets {:>6} out of order ({:.4})", c.n, c.o, c.fraction());
    }
}

impl Experiment for Reordering {
    const NAME: &'static str = "reordering";
    const ABOUT: &'static str = "TCP-reordering detection per IP prefix (dissertation §1.1.2.2 and ch. 3, defense \
                                 slides): flow sampling with conditional overwrite (T, C, R), the hybrid with the \
                                 heavy-hitter core, and flow tracking in the same memory (flows) against every \
                                 flow tracked exactly; recall of out-of-order-heavy prefixes ≥ β and false reports \
                                 (≤ α or ≤ ε) per memory size, on synthetic traffic or a capture";
    type Args = ReArgs;
    const CAPTURE: Option<&'static [&'static str]> = Some(&["--trace"]);

    fn run_args(a: &mut ReArgs) -> &mut RunArgs {
        &mut a.run
    }

    fn run(a: &ReArgs) -> Result<(), String> {
        if a.run.engine() == Engine::Rtl {
            super::experiment::engine_fn(Engine::Rtl)?;
        }
        let started = Instant::now();
        let (setup, what) = a.setup()?;
        let jobs = setup.seeds * (setup.methods.len() * setup.memory.len()) as u64;
        let bar = seed_bar(jobs, !a.json, "{bar:30} {pos}/{len} runs [{elapsed_precise}]");
        let out = run(&setup, &|| bar.inc(1));
        bar.finish_and_clear();
        let (rows, truth) = out?;
        let secs = started.elapsed().as_secs_f64();
        if a.json {
            let doc = serde_json::json!({
                "experiment": "reordering",
                "setting": {
                    "trace": what, "prefix_len": a.prefix_len, "epsilon": a.epsilon, "alpha": a.alpha, "beta": a.beta,
                    "T_ms": a.t_ms, "C": a.c, "R": a.r, "conditions": a.conditions, "count_first": !a.skip_first,
                    "period_ms": a.period, "hh_share": a.hh_share, "seeds": a.run.seeds, "first_seed": a.run.seed,
                    "engine": a.run.engine, "seconds": secs,
                },
                "truth": truth,
                "results": rows,
            });
            println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
        } else {
            println!(
                "{what}; /{} prefixes; T {} ms, C {}, R {} ({}); {} seeds from {}; engine {}",
                a.prefix_len, a.t_ms, a.c, a.r, a.conditions, a.run.seeds, a.run.seed, a.run.engine
            );
            print_truth(&truth, &setup.thresholds);
            print!("{}", table(&rows).text());
            println!(
                "(recall: share of the true out-of-order-heavy prefixes ≥ β output by the tally (N ≥ α, O/N > ε), mean \
                 and min over seeds; false: output prefixes of true size ≤ α or fraction ≤ ε; kbit: memory of one \
                 bank; reports: evictions + flushed samples. {secs:.1} s)"
            );
        }
        if let Some(path) = &a.plot {
            let short = match &setup.source {
                Source::Synthetic(p) => format!("synthetic, {} prefixes, eps {}", p.prefixes, a.epsilon),
                Source::Capture { name, .. } => {
                    std::path::Path::new(name).file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default()
                }
            };
            plot(path, &rows, &short)?;
        }
        Ok(())
    }

    /// A short golden run (300 synthetic prefixes, 3 seeds, every method at 128 and 512 entries), then the
    /// RTL cores on the shared capture — flow sampling and the flow-level baseline (build ro_a6: 64 entries),
    /// the hybrid (ro_hy: 128) — every cycle checked against golden, scored against the capture's README.
    fn demo(seed: u64) -> Result<(), String> {
        println!(
            "\nreordering experiment (golden): 300 synthetic prefixes, 3 seeds, sampling / hybrid / flows at 128 \
             and 512 entries"
        );
        let mut setup = Setup {
            source: Source::Synthetic(ReorderParams { prefixes: 300, ..ReorderParams::default() }),
            methods: ReMethod::ALL.to_vec(),
            memory: vec![128, 512],
            rt: ReorderRuntime::default(),
            hh_share: 0.5,
            thresholds: Thresholds { epsilon: 0.005, alpha: 50, beta: 1000 },
            period_ns: None,
            seeds: 3,
            first_seed: seed,
            engine: Engine::Golden,
        };
        let (rows, truth) = run(&setup, &|| {})?;
        print_truth(&truth, &setup.thresholds);
        print!("{}", table(&rows).text());
        let Some(path) = crate::traffic::capture::shared_capture() else {
            println!("(the shared capture ../shared/captures/multipath-tcp-A.pcap.gz is not beside the checkout: RTL part skipped)");
            return Ok(());
        };
        println!(
            "\nthe RTL core (build ro_a6, 64 entries; every cycle and every report checked against golden) on {}: \
             flow sampling and the flow-level baseline",
            path.display()
        );
        let (packets, _) = capture_descriptors(&path, &Default::default())?;
        setup.source = Source::Capture { name: path.display().to_string(), packets, capture_a: true };
        (setup.methods, setup.memory, setup.seeds, setup.engine) =
            (vec![ReMethod::Sampling, ReMethod::Flows], vec![64], 1, Engine::Rtl);
        let (rows, truth) = run(&setup, &|| {})?;
        print_truth(&truth, &setup.thresholds);
        print!("{}", table(&rows).text());
        println!("\nthe hybrid on RTL (build ro_hy: 2 x 32 heavy hitters with their side table + 64 sampled buckets)");
        (setup.methods, setup.memory) = (vec![ReMethod::Hybrid], vec![128]);
        let (rows, _) = run(&setup, &|| {})?;
        print!("{}", table(&rows).text());
        println!("(`netmeas run reordering` runs the full experiment; `--trace FILE` scores a capture)");
        Ok(())
    }
}

/// (The demo runs the RTL: only in builds with the `rtl` feature.)
#[cfg(all(test, feature = "rtl"))]
mod tests {
    use super::*;

    #[test]
    fn demo_takes_seconds() {
        let t = Instant::now();
        Reordering::demo(3).unwrap();
        assert!(t.elapsed().as_secs() < 60, "the demo section should take seconds");
    }
}
