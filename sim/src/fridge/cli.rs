//! `netmeas run fridge` and the fridge's section of `netmeas demo`: options, the seed loop's progress and
//! plot, and the tables.

use super::estimate::errors;
use super::experiment::{accumulate_seeds, run_methods, PChoice, SeedEvent, Setup, Summary, TraceSource};
use super::sweep::{self, Param, Sweep};
use crate::cli::{seed_bar, sweep_output, Experiment, RunArgs, SweepParam};
use crate::traffic::{synthetic, SyntheticParams, TcpMode};
use crate::Engine;
use std::path::PathBuf;

/// The fridge in the CLI's list of cores.
pub struct Fridge;

#[derive(clap::Args)]
pub struct FridgeArgs {
    /// `synthetic` (§2.4: 1 M requests/s, 40% answered, delays log-uniform 1 µs..T ms), `wide` (delays
    /// 1 µs..1 s, six decades), or a pcap/pcapng file (Ethernet, VLAN, SLL/SLL2, raw IP; IPv4/IPv6).
    #[arg(long, default_value = "synthetic")]
    trace: String,
    /// How a capture becomes requests and responses: `data-ack` (TCP data segment → the ACK of exactly its
    /// end) or `syn` (SYN → SYN-ACK).
    #[arg(long, default_value = "data-ack", value_parser = ["data-ack", "syn"])]
    tcp_mode: String,
    /// Maximum delay T of the synthetic trace, in ms.
    #[arg(long, default_value_t = 100.0)]
    max_delay_ms: f64,
    /// Delay samples per synthetic trace.
    #[arg(long, default_value_t = 500_000, value_parser = clap::value_parser!(u64).range(1..=50_000_000))]
    samples: u64,
    /// Total memory of every method, in table entries (a power of two, 4..=65536; at 65536 the "expiry
    /// (2M)" reference row is left out: the core's tables stop at 2^16 entries) [default: 1024].
    #[arg(long)]
    memory: Option<usize>,
    /// Entry probability in (0, 1], or `auto`: p = min(1, M / (r·D)), so that the fridge's average lifetime
    /// of M/p requests matches the r·D requests a typical delay D spans at request rate r (dissertation
    /// §2.2.3); D is the 95th-percentile delay, estimated by a pilot run whose lifetime spans the trace
    /// [default: auto].
    #[arg(long)]
    p: Option<String>,
    /// Run a §2.4 axis instead of one point: `memory` (M = 64 … 16384, §2.4.3) or `p` (1e-4 … 1, §2.4.2),
    /// alone for those values or with values (`memory=256,1024,4096`, `p=1e-3..1:7` log-spaced). The points
    /// run in parallel; the table has a row per value and method; `--plot` draws the errors and distances
    /// against the swept value instead of the CDFs.
    #[arg(long, value_name = "PARAM[=VALUES]")]
    sweep: Option<String>,
    /// Fridges of the multi-fridge method (2..=8; it runs when more than 1): M/2, M/4, ..., the last two
    /// equal, the largest aimed at the 95th-percentile delay and the others at shorter ones.
    #[arg(long, default_value_t = 1)]
    fridges: usize,
    /// How the multi-fridge combination weighs the fridges in each delay bin: `samples` = inverse of
    /// V̂_k = Σ w² of the fridge's samples there (§2.3.2, eq. 2.7), `model` = inverse of the same variance
    /// computed from the fridge's M, p, share and the request rate, so the weights do not depend on the
    /// samples themselves.
    #[arg(long, default_value = "model", value_parser = ["samples", "model"])]
    variance: String,
    /// Resolution of the core's in-hardware tally (the "(tally)" rows), a generation parameter of the RTL:
    /// 4, 8 or 16 log-spaced delay bins per octave. A percentile read from the tally is interpolated within
    /// its bin, so where the delay distribution is narrower than a bin its error is up to one bin's width:
    /// log2(1 + 1/n) = 0.32, 0.17 or 0.088 octaves (25 %, 12.5 %, 6.25 % of the delay). The RTL engine has
    /// builds at 4 (one fridge) and 8 (four fridges).
    #[arg(long, default_value_t = golden::fridge::tally::DEFAULT_BINS_PER_OCTAVE, value_parser = parse_tally_bins)]
    tally_bins: usize,
    #[command(flatten)]
    run: RunArgs,
    /// Print one JSON object (a key per method, plus ground_truth) instead of a table.
    #[arg(long)]
    json: bool,
    /// Draw the estimated CDFs of the first seed against the ground truth (with --sweep: the errors against
    /// the swept value): FILE.svg or FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// `--tally-bins`: 4, 8 or 16 (golden's check, so the message names the allowed values).
fn parse_tally_bins(v: &str) -> Result<usize, String> {
    let n: usize = v.parse().map_err(|_| format!("`{v}` is not a number of bins; allowed: 4, 8 or 16"))?;
    golden::fridge::tally::Bins::new(n).map(|_| n).map_err(|e| e.0)
}

impl FridgeArgs {
    /// The core configuration of the run: the defaults with `--tally-bins`.
    fn core(&self) -> golden::fridge::FridgeConfig {
        golden::fridge::FridgeConfig { tally_bins_per_octave: self.tally_bins, ..Default::default() }
    }

    /// `--memory`, or its default.
    fn memory(&self) -> usize {
        self.memory.unwrap_or(1024)
    }

    /// `--p` as given, or its default `auto`.
    fn p_text(&self) -> &str {
        self.p.as_deref().unwrap_or("auto")
    }

    /// The experiment's settings and trace source, or what is wrong with the options.
    fn setup(&self) -> Result<(Setup, TraceSource), String> {
        let p = match self.p_text() {
            "auto" => PChoice::Auto,
            v => match v.parse::<f64>() {
                Ok(p) if p > 0.0 && p <= 1.0 => PChoice::Fixed(p),
                _ => return Err(format!("--p {v}: expected a probability in (0, 1] or `auto`")),
            },
        };
        crate::plot::Format::check_option(&self.plot)?;
        if !(self.max_delay_ms > 0.001 && self.max_delay_ms.is_finite()) {
            return Err(format!("--max-delay-ms {}: must exceed 0.001 (the 1 µs lower end)", self.max_delay_ms));
        }
        let params = SyntheticParams {
            max_delay_ms: self.max_delay_ms,
            samples: self.samples as usize,
            ..SyntheticParams::paper()
        };
        let source = match self.trace.as_str() {
            "synthetic" => TraceSource::Synthetic(params),
            "wide" => TraceSource::Wide(SyntheticParams { max_delay_ms: 1000.0, ..params }),
            file => {
                let mode = if self.tcp_mode == "syn" { TcpMode::SynSynAck } else { TcpMode::DataAck };
                let mut decoder = self.run.decoder();
                decoder.set_fridge_mode(mode);
                TraceSource::File(PathBuf::from(file), mode, decoder)
            }
        };
        let setup = Setup {
            memory: self.memory(),
            p,
            fridges: self.fridges,
            model_variance: self.variance == "model",
            engine: self.run.engine(),
            core: self.core(),
        };
        Ok((setup, source))
    }

    /// Writes the CDF figure of the first seed (`--plot`).
    fn write_plot(&self, path: &std::path::Path, seed: u64, o: &super::experiment::TraceOutcome) -> Result<(), String> {
        use crate::plot::{write_cdf, Curve};
        let mut curves =
            vec![Curve { label: "ground truth", cdf: &o.truth }, Curve { label: "fridge", cdf: &o.fridge.estimate }];
        if let Some(m) = &o.fridge_tally {
            curves.push(Curve { label: "fridge (tally)", cdf: &m.estimate });
        }
        if let Some(m) = &o.multi_fridge {
            curves.push(Curve { label: "multi-fridge", cdf: &m.estimate });
        }
        curves.push(Curve { label: "simple", cdf: &o.simple.estimate });
        curves.push(Curve { label: "expiry", cdf: &o.expiry.estimate });
        let title = format!("fridge, M = {}, trace {} (seed {seed})", self.memory(), self.trace);
        write_cdf(path, &title, &curves).map_err(|e| format!("--plot {e}"))
    }
}

impl Experiment for Fridge {
    const NAME: &'static str = "fridge";
    const ABOUT: &'static str = "Fridge (dissertation ch. 2): the fridge, the multi-fridge, and the simple and \
                                 expiry baselines on one trace with the same total memory, scored by \
                                 |log2(estimated / true)| of percentile delays (the paper's metric) and by two \
                                 distances between the whole estimated and true CDFs that do not jump when one \
                                 sample moves a percentile across a gap: Kolmogorov–Smirnov (largest CDF gap) and \
                                 the Wasserstein-1 distance of log2 delay (octaves)";
    type Args = FridgeArgs;
    const CAPTURE: Option<&'static [&'static str]> = Some(&["--trace"]);

    fn run_args(a: &mut FridgeArgs) -> &mut RunArgs {
        &mut a.run
    }

    fn run(a: &FridgeArgs) -> Result<(), String> {
        let (setup, source) = a.setup()?;
        if let Some(text) = &a.sweep {
            return run_sweep(a, &setup, &source, &Sweep::parse(text)?);
        }
        let bar = seed_bar(a.run.seeds, !a.json, "{bar:30} seed {pos}/{len} {msg} [{elapsed_precise}]");
        let summary = accumulate_seeds(&setup, &source, a.run.seed, a.run.seeds, |e| {
            match e {
                SeedEvent::Generating => bar.set_message("generating trace"),
                SeedEvent::Running => bar.set_message("running the methods"),
                SeedEvent::Done { index, seed, outcome } => {
                    if let (0, Some(path)) = (index, &a.plot) {
                        a.write_plot(path, seed, outcome)?;
                    }
                    bar.inc(1);
                }
            }
            Ok(())
        })?;
        bar.finish_and_clear();
        if a.json {
            println!("{}", serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?);
            return Ok(());
        }
        print_table(a, &summary);
        Ok(())
    }

    /// The fridge on the RTL engine against ground truth: a reduced §2.4 synthetic trace (100 000 samples,
    /// T = 100 ms), one fridge of 1024 entries with auto p, and the simple and expiry baselines.
    fn demo(seed: u64) -> Result<(), String> {
        println!(
            "\nfridge experiment on the RTL (cross-checked against golden cycle by cycle): synthetic trace, \
              100 000 delay samples, T = 100 ms, M = 1024"
        );
        let trace = synthetic(seed, SyntheticParams { samples: 100_000, ..SyntheticParams::paper() });
        let setup = Setup {
            memory: 1024,
            p: PChoice::Auto,
            fridges: 1,
            model_variance: true,
            engine: Engine::Rtl,
            core: golden::fridge::FridgeConfig::default(),
        };
        let o = run_methods(&setup, &trace, seed)?;
        println!(
            "{:<8} {:>8} {:>9} {:>9} {:>9} {:>13} {:>7} {:>8}",
            "method", "samples", "p50_err", "p95_err", "p99_err", "max_err_5_95", "KS", "W1_log2"
        );
        let tally = o.fridge_tally.as_ref().ok_or("the default core has a tally")?;
        for (name, m) in [("fridge", &o.fridge), ("tally", tally), ("simple", &o.simple), ("expiry", &o.expiry)] {
            match errors(&m.estimate, &o.truth) {
                Some(e) => println!(
                    "{name:<8} {:>8} {:>9.3} {:>9.3} {:>9.3} {:>13.3} {:>7.4} {:>8.4}",
                    m.samples, e.p50_err, e.p95_err, e.p99_err, e.max_err_5_95, e.ks, e.w1_log2
                ),
                None => println!("{name:<8} {:>8} (no samples)", m.samples),
            }
        }
        println!(
            "(|log2(estimated / true)| of percentile delays; KS = largest CDF gap, W1_log2 = Wasserstein-1 distance \
             of log2 delay in octaves; one seed; `netmeas run fridge` runs the full experiment)"
        );
        Ok(())
    }
}

/// `netmeas run fridge --sweep …`: the table or JSON, and the figure.
fn run_sweep(a: &FridgeArgs, setup: &Setup, source: &TraceSource, sweep: &Sweep) -> Result<(), String> {
    sweep.refuse(match sweep.param {
        Param::Memory => a.memory.is_some().then_some("memory"),
        Param::P => a.p.is_some().then_some("p"),
    })?;
    let points = sweep::run(setup, source, sweep, a.run.seed, a.run.seeds, !a.json)?;
    let fixed = match sweep.param {
        Param::Memory => format!("p {}", a.p_text()),
        Param::P => format!("M = {}", setup.memory),
    };
    let title = format!("fridge §2.4 vs {}: trace {}, {fixed}, {} seeds", sweep.param.name(), a.trace, a.run.seeds);
    sweep_output(
        a.json,
        &title,
        &a.run.engine,
        a.plot.as_deref(),
        || sweep::json(sweep, &points),
        || sweep::print_table(sweep, &points),
        || sweep::figure(&title, sweep, &points),
    )
}

/// The table of `netmeas run fridge`.
fn print_table(a: &FridgeArgs, summary: &Summary) {
    let gt = &summary.ground_truth;
    println!(
        "trace {}: {:.0} delay samples per seed; true p50 {:.1} µs, p95 {:.1} µs, p99 {:.1} µs; memory {} entries; {} seeds; engine {}",
        a.trace, gt.samples, gt.p50 / 1e3, gt.p95 / 1e3, gt.p99 / 1e3, summary.memory, a.run.seeds, a.run.engine
    );
    println!(
        "{:<13} {:>9} {:>9} {:>9} {:>13} {:>14} {:>7} {:>8} {:>10}  p",
        "method", "p50_err", "p95_err", "p99_err", "max_err_5_95", "(per seed)", "KS", "W1_log2", "samples"
    );
    let f = |v: Option<f64>| v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "-".into());
    let f4 = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "-".into());
    let mut rows = vec![("fridge", &summary.fridge)];
    if let Some(m) = &summary.fridge_tally {
        rows.push(("  (tally)", m));
    }
    if let Some(m) = &summary.multi_fridge {
        rows.push(("multi_fridge", m));
    }
    if let Some(m) = &summary.multi_fridge_tally {
        rows.push(("  (tally)", m));
    }
    rows.push(("simple", &summary.simple));
    rows.push(("expiry", &summary.expiry));
    if let Some(m) = &summary.expiry_2x_memory {
        rows.push(("expiry (2M)", m));
    }
    for (name, m) in rows {
        let ps: Vec<String> = m.p.iter().map(|p| format!("{p:.3}")).collect();
        println!(
            "{:<13} {:>9} {:>9} {:>9} {:>13} {:>14} {:>7} {:>8} {:>10.0}  {}",
            name,
            f(m.p50_err),
            f(m.p95_err),
            f(m.p99_err),
            f(m.max_err_5_95),
            f(m.per_seed.max_err_5_95),
            f4(m.ks),
            f4(m.w1_log2),
            m.samples,
            ps.join(",")
        );
    }
    println!(
        "(errors: |log2(estimated / true)| of percentile delays, read from the CDFs combined over seeds as in \
         the dissertation; \"per seed\" is the mean of each seed's own max_err_5_95; KS: largest gap between the \
         estimated and true CDFs; W1_log2: Wasserstein-1 distance of log2 delay in octaves (the percentile error \
         averaged over every quantile) — both move by a sample's weight where a percentile can jump across a \
         gap; \"(tally)\" rows: the same core estimated from its in-hardware tally instead of per-sample reports, \
         {} bins per octave{})",
        a.tally_bins,
        if a.run.engine() == Engine::Rtl && a.fridges > 1 { "; the RTL four-fridge build's tally has 8" } else { "" }
    );
}
