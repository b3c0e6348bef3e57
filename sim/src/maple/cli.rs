//! `netmeas run maple` and the MAPLE section of `netmeas demo`: options, progress, tables, JSON and the
//! figure (absolute-error CDFs of the clustering schemes, Fig. 5(a), and of the stores, Fig. 6(c)).

use super::clustering::{Hybrid, HybridOffline, LogRange, Scheme};
use super::epochs::EpochWriter;
use super::experiment::{capture_source, run_with, Budget, EpochSink, Outcome, Setup, Source, StoreKind};
use crate::cli::{parse_list, seed_bar, Experiment, RunArgs};
use crate::plot::{charts_figure, write_figure, Chart, Scale, Series, Ticks};
use crate::traffic::maple::MapleTraffic;
use crate::Engine;
use golden::maple::baselines::PbfPolicy;
use golden::maple::dimension::table1;
use golden::maple::{SvbfLayout, TieBreak};
use std::path::PathBuf;
use std::time::Instant;
use synth::table::{Align, Table};

/// Adds the RTL engine's two stores to the outcome (rows and figure curves); its facts for the JSON's `rtl`.
#[cfg(feature = "rtl")]
fn rtl_rows(o: &mut Outcome, r: super::rtl::RtlOutcome) -> Result<serde_json::Value, String> {
    let [t_rtl, t_gold] = r.tallies;
    o.tallies.push((r.rtl.store.to_string(), t_rtl));
    o.tallies.push((r.golden.store.to_string(), t_gold));
    o.stores.push(r.rtl.clone());
    o.stores.push(r.golden.clone());
    Ok(serde_json::json!({
        "build": r.build, "hashes": r.rtl.hashes, "memory_bits": r.rtl.memory_bits,
        "epoch_packets": r.epoch_packets, "bits_per_packet": r.bits_per_packet, "hw_epochs": r.hw_epochs,
        "cycles": r.cycles, "seconds": r.seconds,
        "mcycles_per_s": if r.seconds > 0.0 { r.cycles as f64 / r.seconds / 1e6 } else { 0.0 },
        "equal_to_golden": r.rtl.summary == r.golden.summary,
    }))
}

/// Runs `setup` on `engine`: the golden pipeline (every flushed epoch also to `saver`) and, with
/// `Engine::Rtl`, the SVBF co-simulated beside it (`super::rtl`: rows `svbf_rtl` and `svbf_golden_same`, the
/// returned JSON describes the RTL run).
fn run_on(
    setup: &Setup,
    engine: Engine,
    saver: Option<&dyn EpochSink>,
    tick: &(dyn Fn() + Sync),
) -> Result<(Outcome, Option<serde_json::Value>), String> {
    #[cfg(feature = "rtl")]
    if engine == Engine::Rtl {
        let rtl = super::rtl::RtlSink::new(setup, saver)?;
        let mut o = run_with(setup, tick, Some(&rtl))?;
        let j = rtl_rows(&mut o, rtl.finish()?)?;
        return Ok((o, Some(j)));
    }
    engine.check()?;
    Ok((run_with(setup, tick, saver)?, None))
}

/// MAPLE in the CLI's list of cores.
pub struct Maple;

#[derive(clap::Args)]
pub struct MapleArgs {
    /// `synthetic` (heavy-tailed bursty flows with a packet-size mix, new per seed; see traffic::maple) or a
    /// capture FILE (pcap/pcapng, .gz read directly; its TCP packets' times and sizes). Either goes through
    /// the open-loop RED queue and is cut into 1 s epochs.
    #[arg(long, default_value = "synthetic")]
    trace: String,
    /// Link utilisation U: the queue's service rate is the trace's mean byte rate / U (paper: 0.53, 0.58,
    /// 0.85).
    #[arg(long, default_value_t = 0.85)]
    utilization: f64,
    /// Queue limit in ms of service (RED thresholds at 1/4 and 3/4 of it).
    #[arg(long, default_value_t = 10.0)]
    queue_ms: f64,
    /// Latency centers k (1..=64).
    #[arg(long, default_value_t = 50)]
    centers: usize,
    /// Clustering schemes to score (log, kmedians, hybrid, oracle; comma-separated, or all). The stores use
    /// the scheme given when it is one, else hybrid.
    #[arg(long, default_value = "all")]
    clustering: String,
    /// Hybrid's offline stage: `blind` (the paper's words) runs plain k-medians on the candidates as if the
    /// static logarithmic centers were not there; `aware` (extension) places the dynamic centers given the
    /// static ones (exact): lower mean and upper-quartile error, higher median.
    #[arg(long, default_value = "blind", value_parser = ["blind", "aware"])]
    hybrid_offline: String,
    /// Hybrid's static (logarithmic) centers, 1..k−1 [default: k/2, the paper's split].
    #[arg(long, value_name = "N")]
    hybrid_static: Option<usize>,
    /// Stores (svbf, pbf, comb, perfect; comma-separated, or all).
    #[arg(long, default_value = "all")]
    store: String,
    /// Memory per store per epoch in Mbit (10^6 bits) [default: 5]; h follows from the load.
    #[arg(long, conflicts_with = "pcf")]
    memory_mbit: Option<f64>,
    /// Target classification failure instead of a memory budget: h and m/n from §3.4 (Table 2).
    #[arg(long)]
    pcf: Option<f64>,
    /// Epochs of 1 s (synthetic; the first two only cluster), at least 3.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Synthetic: packets per 1 s epoch (the paper's ISP trace: 358 k..404 k).
    #[arg(long, default_value_t = 380_000)]
    packets_per_epoch: usize,
    /// Share of packets sampled toward the control plane (0 < r ≤ 1).
    #[arg(long, default_value_t = 0.1)]
    sampling: f64,
    /// SVBF layout: `partitioned` (one segment per hash: the hardware) or `unpartitioned` (the paper's).
    #[arg(long, default_value = "partitioned", value_parser = ["partitioned", "unpartitioned"])]
    layout: String,
    /// Multi-matches: `count` answers the candidate with the most packets; `none` answers nothing.
    #[arg(long, default_value = "count", value_parser = ["count", "none"])]
    tie_break: String,
    /// A full PBF filter: `stop` refuses packets (false negatives, the paper's), `overfill` keeps inserting.
    #[arg(long, default_value = "stop", value_parser = ["stop", "overfill"])]
    pbf_policy: String,
    /// COMB's code: F,THETA (C(F, THETA) ≥ k codes).
    #[arg(long, default_value = "8,3")]
    comb: String,
    #[command(flatten)]
    run: RunArgs,
    /// Print one JSON document: a key per store (svbf, pbf, comb, perfect) and per clustering scheme, each
    /// with classification_failure, false_classification, false_negative and abs_err_us percentiles.
    #[arg(long)]
    json: bool,
    /// Write the absolute-error CDFs (clustering schemes; stores) to FILE.svg or FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Store every epoch the SVBF core flushes (its words, centers and counters), the epoch's packets (keys
    /// and true latencies) and the key layout in DIR, for `netmeas query maple --epochs DIR` (format
    /// `netmeas-maple-epochs` v1, gzip'd JSON: sim/src/maple/epochs.rs; ≈ 10 MB per epoch of 380 k packets).
    #[arg(long, value_name = "DIR")]
    save_epochs: Option<PathBuf>,
}

impl MapleArgs {
    fn setup(&self) -> Result<(Setup, String), String> {
        crate::plot::Format::check_option(&self.plot)?;
        let schemes = if self.clustering == "all" {
            Scheme::ALL.to_vec()
        } else {
            parse_list("clustering", &self.clustering, Scheme::by_name)?
        };
        let stores = if self.store == "all" {
            StoreKind::ALL.to_vec()
        } else {
            parse_list("store", &self.store, StoreKind::by_name)?
        };
        let store_scheme = if let [one] = schemes[..] { one } else { Scheme::Hybrid };
        let budget = match (self.memory_mbit, self.pcf) {
            (_, Some(p)) if !(p > 0.0 && p < 1.0) => return Err(format!("--pcf {p}: must be in (0, 1)")),
            (_, Some(p)) => Budget::Pcf(p),
            (Some(m), _) if !(m > 0.0 && m <= 10_000.0) => {
                return Err(format!("--memory-mbit {m}: must be in (0, 10000]"))
            }
            (m, None) => Budget::Memory(m.unwrap_or(5.0) * 1e6),
        };
        let comb: Vec<usize> = parse_list("comb", &self.comb, |x| x.parse().ok())?;
        let [f, theta] = comb[..] else { return Err(format!("--comb {}: F,THETA", self.comb)) };
        if !(1..=16).contains(&f) || theta == 0 || theta >= f {
            return Err(format!("--comb {}: need 1 ≤ THETA < F ≤ 16", self.comb));
        }
        if !(self.utilization > 0.0 && self.utilization < 1.5) {
            return Err(format!("--utilization {}: must be in (0, 1.5)", self.utilization));
        }
        if !(self.queue_ms > 0.0 && self.queue_ms <= 10_000.0) {
            return Err(format!("--queue-ms {}: must be in (0, 10000]", self.queue_ms));
        }
        if let Some(n) = self.hybrid_static.filter(|&n| n == 0 || n >= self.centers) {
            return Err(format!("--hybrid-static {n}: must be in 1..={} (k − 1)", self.centers.saturating_sub(1)));
        }
        if self.epochs < 3 {
            return Err(format!("--epochs {}: at least 3 (the first two only cluster)", self.epochs));
        }
        let (source, what) = if self.trace == "synthetic" {
            let t = MapleTraffic {
                epochs: self.epochs,
                packets_per_epoch: self.packets_per_epoch,
                ..MapleTraffic::default()
            };
            let what = format!("synthetic: {} epochs of ~{} packets", t.epochs, t.packets_per_epoch);
            (Source::Synthetic(t), what)
        } else {
            capture_source(&PathBuf::from(&self.trace), &self.run.decoder())?
        };
        let setup = Setup {
            source,
            utilization: self.utilization,
            limit_ms: self.queue_ms,
            k: self.centers,
            schemes,
            store_scheme,
            stores,
            budget,
            sampling: self.sampling,
            layout: SvbfLayout::by_name(&self.layout).unwrap_or(SvbfLayout::Partitioned),
            tie: if self.tie_break == "none" { TieBreak::None } else { TieBreak::Count },
            pbf_policy: if self.pbf_policy == "overfill" { PbfPolicy::Overfill } else { PbfPolicy::StopAtCapacity },
            comb: (f, theta),
            log: LogRange::default(),
            hybrid: Hybrid {
                offline: HybridOffline::by_name(&self.hybrid_offline).unwrap_or_default(),
                static_centers: self.hybrid_static,
            },
            seeds: self.run.seeds,
            first_seed: self.run.seed,
        };
        Ok((setup, what))
    }
}

fn pct_cols() -> Vec<(&'static str, Align)> {
    ["p50 µs", "p75", "p85", "p90", "p95", "p99"].iter().map(|&n| (n, Align::Right)).collect()
}

fn pcts(s: &super::metrics::Summary) -> Vec<String> {
    [50, 75, 85, 90, 95, 99].iter().map(|&p| format!("{:.2}", s.pct(p))).collect()
}

fn print_tables(o: &Outcome) {
    let mut cols = vec![
        ("store", Align::Left),
        ("Mbit", Align::Right),
        ("h", Align::Right),
        ("class. failure", Align::Right),
        ("(epoch max)", Align::Right),
        ("false class.", Align::Right),
        ("false neg.", Align::Right),
    ];
    cols.extend(pct_cols());
    let mut t = Table::new(&cols);
    for r in &o.stores {
        let s = &r.summary;
        let mut row: Vec<String> = vec![
            r.store.into(),
            if r.memory_bits > 0.0 { format!("{:.2}", r.memory_bits / 1e6) } else { "-".into() },
            if r.hashes > 0 { r.hashes.to_string() } else { "-".into() },
            format!("{:.4}", s.classification_failure),
            format!("{:.4}", s.epoch_cf_max),
            format!("{:.4}", s.false_classification),
            format!("{:.4}", s.false_negative),
        ];
        row.extend(pcts(s));
        t.row(row.into_iter().map(Into::into).collect());
    }
    if !o.stores.is_empty() {
        print!("{}", t.text());
    }
    let mut cols = vec![
        ("clustering", Align::Left),
        ("offline ms", Align::Right),
        ("candidates", Align::Right),
        ("at static", Align::Right),
    ];
    cols.extend(pct_cols());
    let mut t = Table::new(&cols);
    for r in &o.schemes {
        let at_static = r.static_share.map_or("-".into(), |x| format!("{:.1} %", 100.0 * x));
        let mut row: Vec<String> =
            vec![r.scheme.into(), format!("{:.1}", r.offline_ms), format!("{:.0}", r.candidates), at_static];
        row.extend(pcts(&r.summary));
        t.row(row.into_iter().map(Into::into).collect());
    }
    if !o.schemes.is_empty() {
        print!("{}", t.text());
    }
}

/// A CDF curve from its quantile function: `(x(quantile(q)), q)` for q = 0.005, 0.01, …, 0.995.
pub fn cdf_points(quantile: impl Fn(f64) -> Option<f64>, x: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
    (1..=199).map(|i| i as f64 / 200.0).filter_map(|q| quantile(q).map(|v| (x(v), q))).collect()
}

/// The two CDF charts (x: log10 of the absolute error in µs). Both charts carry every curve (empty where it
/// does not belong) so the one legend and the colours hold for both.
fn plot(path: &std::path::Path, o: &Outcome, title: &str) -> Result<(), String> {
    let schemes: Vec<&str> = o.schemes.iter().map(|s| s.scheme).collect();
    let series = |mine: &dyn Fn(&str) -> bool| -> Vec<Series> {
        o.tallies
            .iter()
            .map(|(n, t)| {
                let cdf = t.cdf();
                let points = if mine(n) { cdf_points(|q| cdf.quantile(q), |ns| (ns / 1e3).max(1e-3).log10()) } else { vec![] };
                Series { label: n.clone(), points, markers: false, ..Series::default() }
            })
            .collect()
    };
    let chart = |t: &str, s: Vec<Series>| Chart {
        title: t.into(),
        x_label: "log10 absolute error (µs)".into(),
        y_label: "CDF".into(),
        x_range: (-3.0, 5.0),
        y_range: (0.0, 1.0),
        x_scale: Scale::Linear,
        y_scale: Scale::Linear,
        x_ticks: Ticks::Plain,
        series: s,
        guides: vec![],
    };
    let mut charts = vec![];
    if !o.schemes.is_empty() {
        charts.push(chart("clustering (perfect store, center value)", series(&|n| schemes.contains(&n))));
    }
    if !o.stores.is_empty() {
        charts.push(chart("stores (refined estimates; perfect = center)", series(&|n| !schemes.contains(&n))));
    }
    write_figure(path, &charts_figure(title, &charts, 2)).map_err(|e| format!("--plot {e}"))
}

impl Experiment for Maple {
    const NAME: &'static str = "maple";
    const ABOUT: &'static str = "MAPLE packet latency store (IMC 2012): k latency centers chosen from sampled \
                                 packets two epochs back (logarithmic, streaming k-medians, hybrid, oracle), \
                                 every packet stored as its center in an SVBF, against PBF, COMB and a perfect \
                                 store in the same memory; classification failure, false classification, false \
                                 negatives and per-packet absolute error (§5.2, §5.3; Fig. 5(a), Fig. 6) on \
                                 synthetic traffic or a capture through an open-loop RED queue. --engine rtl \
                                 adds the SVBF co-simulated in the maple_k64 build (h = 4, 16 384 bits per bank) in \
                                 hardware epochs of the same bits per packet as the golden budget, every answer and \
                                 flush checked against golden, beside golden at that size";
    type Args = MapleArgs;
    const CAPTURE: Option<&'static [&'static str]> = Some(&["--trace"]);

    fn run_args(a: &mut MapleArgs) -> &mut RunArgs {
        &mut a.run
    }

    /// `--engine rtl` adds the SVBF co-simulated at the build's size (`super::rtl`), checked against golden,
    /// and golden's SVBF at the same size beside it (rows `svbf_rtl`, `svbf_golden_same`; JSON key `rtl`).
    fn run(a: &MapleArgs) -> Result<(), String> {
        let engine = a.run.engine();
        engine.check()?;
        let started = Instant::now();
        let (setup, what) = a.setup()?;
        #[cfg(feature = "rtl")]
        if engine == Engine::Rtl {
            super::rtl::build_for(&setup)?;
        }
        let setting = serde_json::json!({
            "trace": what, "utilization": a.utilization, "queue_ms": a.queue_ms, "centers": a.centers,
            "store_clustering": setup.store_scheme.name(), "budget": setup.budget, "sampling": a.sampling,
            "layout": a.layout, "tie_break": a.tie_break, "pbf_policy": a.pbf_policy, "comb": a.comb,
            "seeds": a.run.seeds, "first_seed": a.run.seed, "engine": a.run.engine,
            "hybrid": { "offline": setup.hybrid.offline.name(), "static_centers": setup.hybrid.statics(a.centers) },
        });
        let writer = a.save_epochs.as_deref().map(|d| EpochWriter::create(d, setting.clone())).transpose()?;
        let bar = seed_bar(setup.seeds * a.epochs as u64, !a.json, "{bar:30} {pos}/{len} epochs [{elapsed_precise}]");
        let saver = writer.as_ref().map(|w| w as &dyn EpochSink);
        let out = run_on(&setup, engine, saver, &|| bar.inc(1));
        bar.finish_and_clear();
        let (o, rtl_json) = out?;
        if let (Some(w), Some(dir)) = (writer, &a.save_epochs) {
            let m = w.finish()?;
            let n: usize = m.seeds.iter().map(|s| s.epochs.len()).sum();
            let (seeds, d) = (m.seeds.len(), dir.display());
            eprintln!("stored {n} epochs of {seeds} seed(s) in {d} (query them: netmeas query maple --epochs {d})");
        }
        let secs = started.elapsed().as_secs_f64();
        let util: f64 = o.queue.iter().map(|q| q.utilization).sum::<f64>() / o.queue.len().max(1) as f64;
        let drop: f64 = o.queue.iter().map(|q| q.dropped as f64 / q.arrivals.max(1) as f64).sum::<f64>()
            / o.queue.len().max(1) as f64;
        if a.json {
            let mut setting = setting;
            setting["seconds"] = secs.into();
            let mut doc = serde_json::json!({
                "experiment": "maple",
                "setting": setting,
                "queue": { "utilization": util, "drop_rate": drop, "per_seed": o.queue },
                "epoch_packets_mean": o.epoch_packets_mean,
                "measured_epochs": o.measured_epochs,
                "sample_drops": o.sample_drops,
                "table1": table1(a.centers.max(2), 0.1, 32, 0.02),
            });
            if let Some(r) = &rtl_json {
                doc["rtl"] = r.clone();
            }
            for r in &o.stores {
                let mut v = serde_json::to_value(&r.summary).map_err(|e| e.to_string())?;
                v["memory_bits"] = r.memory_bits.into();
                v["hashes"] = r.hashes.into();
                v["lookup_words"] = serde_json::to_value(r.lookup_words).map_err(|e| e.to_string())?;
                doc[r.store] = v;
            }
            for r in &o.schemes {
                let mut v = serde_json::to_value(&r.summary).map_err(|e| e.to_string())?;
                v["offline_ms"] = r.offline_ms.into();
                v["candidates"] = r.candidates.into();
                v["static_share"] = r.static_share.into();
                doc[r.scheme] = v;
            }
            println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
        } else {
            println!(
                "{what}; utilisation {:.3} measured ({:.2} % dropped), {:.0} packets per epoch; k = {}; stores on {} \
                 centers; {} seeds from {}; {} epochs measured",
                util,
                100.0 * drop,
                o.epoch_packets_mean,
                a.centers,
                setup.store_scheme.name(),
                a.run.seeds,
                a.run.seed,
                o.measured_epochs
            );
            if let Some(r) = &rtl_json {
                println!(
                    "RTL engine: {} (h = {}, {} bits per bank), {} hardware epochs of ~{:.0} packets ({:.2} bits per \
                     packet, as golden's budget at its load); every answer and flushed bank equal to golden's; {} \
                     cycles co-simulated in {:.1} s ({:.2} M cycles/s with the golden cycle model)",
                    r["build"].as_str().unwrap_or("?"),
                    r["hashes"],
                    r["memory_bits"],
                    r["hw_epochs"],
                    r["epoch_packets"].as_f64().unwrap_or(0.0),
                    r["bits_per_packet"].as_f64().unwrap_or(0.0),
                    r["cycles"],
                    r["seconds"].as_f64().unwrap_or(0.0),
                    r["mcycles_per_s"].as_f64().unwrap_or(0.0)
                );
            }
            print_tables(&o);
            println!(
                "(classification failure: share of lookups with several candidate centers; errors over answered \
                 packets, pooled over epochs and seeds; sample FIFO drops {}. {secs:.1} s)",
                o.sample_drops
            );
        }
        if let Some(p) = &a.plot {
            plot(p, &o, &format!("MAPLE at utilisation {}, k = {}", a.utilization, a.centers))?;
        }
        Ok(())
    }

    /// A short run: 4 epochs of 60 000 packets at 85 %, 0.8 Mbit, one seed, on golden and (built with the
    /// `rtl` feature, as the demo is) with the SVBF co-simulated in maple_k64 beside it.
    fn demo(seed: u64) -> Result<(), String> {
        let engine = if cfg!(feature = "rtl") { Engine::Rtl } else { Engine::Golden };
        println!(
            "\nMAPLE experiment ({}): 4 epochs of 60 000 packets at 85 %, 0.8 Mbit, k = 50",
            match engine {
                Engine::Rtl => "golden, and the SVBF co-simulated in maple_k64 in hardware epochs of the same bits per packet",
                Engine::Golden => "golden",
            }
        );
        let t = MapleTraffic { epochs: 4, packets_per_epoch: 60_000, ..MapleTraffic::default() };
        let setup = Setup { first_seed: seed, ..Setup::paper(Source::Synthetic(t), Budget::Memory(0.8e6)) };
        let (o, rtl) = run_on(&setup, engine, None, &|| {})?;
        print_tables(&o);
        if let Some(r) = rtl {
            println!(
                "RTL: {} in {} hardware epochs of {} packets ({:.1} bits per packet), {} cycles at {:.2} M cycles/s; \
                 every answer and flush equal to golden",
                r["build"].as_str().unwrap_or("?"),
                r["hw_epochs"],
                r["epoch_packets"].as_f64().unwrap_or(0.0) as u64,
                r["bits_per_packet"].as_f64().unwrap_or(0.0),
                r["cycles"],
                r["mcycles_per_s"].as_f64().unwrap_or(0.0)
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches, Parser};

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        a: MapleArgs,
    }

    fn args(v: &[&str]) -> Result<MapleArgs, String> {
        let m = Wrap::command().try_get_matches_from(std::iter::once("maple").chain(v.iter().copied()));
        Wrap::from_arg_matches(&m.map_err(|e| e.to_string())?).map(|w| w.a).map_err(|e| e.to_string())
    }

    #[test]
    fn bad_arguments_are_clear_errors() {
        // --engine rtl: refused up front where no build fits (or without the rtl feature).
        for (v, want) in [
            (vec!["--centers", "65"], "maple_k64"),
            (vec!["--pcf", "0.1"], "--memory-mbit"),
            (vec!["--layout", "unpartitioned"], "partitioned"),
        ] {
            let e = Maple::run(&args(&[&["--engine", "rtl"][..], &v[..]].concat()).unwrap()).unwrap_err();
            assert!(e.contains(want) || e.contains("without the rtl feature"), "{v:?}: {e}");
        }
        for (v, want) in [
            (vec!["--pcf", "1.5"], "--pcf"),
            (vec!["--memory-mbit=-1"], "--memory-mbit"),
            (vec!["--comb", "8"], "--comb"),
            (vec!["--store", "svbf,bloom"], "--store"),
            (vec!["--clustering", "kmeans"], "--clustering"),
            (vec!["--epochs", "2"], "--epochs"),
            (vec!["--utilization", "0"], "--utilization"),
            (vec!["--plot", "x.pdf"], "--plot"),
            (vec!["--trace", "/nonexistent.pcap"], "nonexistent"),
        ] {
            let e = args(&v).unwrap().setup().unwrap_err();
            assert!(e.contains(want), "{v:?}: {e}");
        }
        assert!(args(&["--pcf", "0.1", "--memory-mbit", "5"]).is_err(), "one budget at a time");
        let (s, _) = args(&["--clustering", "log", "--pcf", "0.1"]).unwrap().setup().unwrap();
        assert_eq!((s.store_scheme, s.budget), (Scheme::Log, Budget::Pcf(0.1)));
    }

    #[test]
    fn the_demo_section_runs() {
        Maple::demo(3).unwrap();
    }

    /// `--engine rtl` on a small trace: the build's store (maple_k64, h = 4), every RTL answer and flushed
    /// bank checked against golden inside the run; its numbers equal golden's at the same h, m and epochs,
    /// and its classification failure is eq. (3)'s at the hardware epoch's load.
    #[cfg(feature = "rtl")]
    #[test]
    fn the_rtl_engine_runs_and_equals_golden() {
        // ≈ 13.2 bits per packet, as 5·10^6 bits for 380 k packets: hardware epochs of ≈ 1 240 packets.
        let small = ["--epochs", "3", "--packets-per-epoch", "4000", "--memory-mbit", "0.0528", "--store", "svbf"];
        let a = args(&[&["--engine", "rtl"][..], &small[..]].concat());
        let (setup, _) = a.unwrap().setup().unwrap();
        let sink = crate::maple::rtl::RtlSink::new(&setup, None).unwrap();
        let o = run_with(&setup, &|| {}, Some(&sink)).unwrap();
        let r = sink.finish().unwrap();
        assert_eq!((r.build, r.rtl.hashes, r.rtl.memory_bits), ("maple_k64", 4, 16_384.0));
        assert_eq!(r.rtl.summary, r.golden.summary);
        assert_eq!(r.rtl.summary.packets, o.stores[0].summary.packets, "every packet of the measured epoch");
        assert_eq!(r.rtl.summary.false_negative, 0.0, "an SVBF loses no packet");
        // N = round(16 384 · n / 52 800) for the warm-up load n (≈ the mean epoch).
        let want = 16_384.0 * o.epoch_packets_mean / 52_800.0;
        assert!((r.epoch_packets / want - 1.0).abs() < 0.15, "N = {} for {want}", r.epoch_packets);
        assert!(r.hw_epochs >= 1 && r.cycles > 40 * r.rtl.summary.packets, "{r:?}");
        let load = r.rtl.summary.packets as f64 / r.hw_epochs as f64;
        let want = golden::maple::dimension::pcf_svbf(16_384.0, load, 4, 50, true);
        let cf = r.rtl.summary.classification_failure;
        assert!(cf > 0.0 && (cf - want).abs() < 0.5 * want, "pcf {cf} vs eq. (3) {want} at {load:.0} packets");
    }
}
