//! `netmeas`: emit the Verilog of every core and run the demo (RTL cross-checked against golden).

mod bench;
mod synth;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;
use testbench::harness::RunConfig;

#[derive(Parser)]
#[command(
    name = "netmeas",
    version,
    about = "Line-rate network-measurement cores: RTL in rust-hdl, co-simulated against golden models",
    long_about = "netmeas builds synthesizable measurement cores (fridge, FineComb, MAPLE, IFPD, reordering) \
                  from rust-hdl, emits their Verilog, and checks the Verilated RTL cycle by cycle against \
                  bit-accurate golden models. Verilator is needed for `demo` and for the tests \
                  (apt-get install -y verilator)."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write the Verilog of every top module (one file per top, with its submodules) and manifest.json.
    Verilog {
        /// Output directory (created if missing).
        #[arg(long, default_value = "out/verilog")]
        out: PathBuf,
        /// Also emit test-only variants (e.g. the deliberately broken RMW pipeline of the test suite).
        #[arg(long)]
        include_test_only: bool,
        /// Emit without `initial` values (the flavour the co-simulation models are built from).
        #[arg(long)]
        no_initial: bool,
        /// Also run `verilator --lint-only -Wall` on every file (waivers: hdl/lint/waivers.vlt).
        #[arg(long)]
        lint: bool,
    },
    /// Run a core's experiment (the paper's evaluation) on golden or RTL.
    Run {
        #[command(subcommand)]
        core: RunCore,
    },
    /// Synthesize cores for ECP5 (LFE5U-85F, speed 8, out of context) with the pinned YoWASP Yosys and
    /// nextpnr-ecp5 (scripts/setup_synth.sh installs them): LUT4, FF, DP16KD, MULT18, Fmax over placement
    /// seeds, memory needed versus block RAM used, critical paths.
    Synth(synth::SynthArgs),
    /// Benchmarks: packets per cycle under saturated hazard traffic, the Rust harness against a plain C++
    /// Verilator loop on the same stimulus, golden-model against co-simulation speed.
    Bench(bench::BenchArgs),
    /// The main job: emit and lint the Verilog, then run every block's RTL against its golden model on
    /// random traffic and print a table (block, cycles, transactions, mismatches, cycles/s).
    Demo {
        /// Transactions (packets, accesses, pushes…) per block.
        #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
        transactions: u64,
        /// Traffic seed (default: fresh entropy; printed either way).
        #[arg(long)]
        seed: Option<u64>,
        /// Where the Verilog goes.
        #[arg(long, default_value = "out/verilog")]
        out: PathBuf,
        /// Directory for one VCD waveform per block (large for long runs).
        #[arg(long)]
        vcd_dir: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum RunCore {
    /// Fridge (dissertation ch. 2): the fridge, the multi-fridge, and the simple and expiry baselines on one
    /// trace with the same total memory, scored by |log2(estimated / true)| of percentile delays.
    Fridge(FridgeArgs),
    /// FineComb (ToN 2014, §V): FineComb, FineComb− (no stash), LDA and LDA+ on one simulated 1 s interval
    /// per seed (Weibull delays with a 10 µs mean, random loss, forward or backward reordering around the
    /// sync messages), all with the same storage, scored by relative errors of mean delay, standard
    /// deviation and loss rate against the interval's ground truth.
    Finecomb(FinecombArgs),
}

/// Options every `netmeas run <core>` experiment takes.
#[derive(clap::Args)]
struct RunArgs {
    /// Repetitions, each with fresh random traffic (a new synthetic trace or interval, a new PRNG seed; a
    /// capture file is reused); metrics are averaged over them.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
    seeds: u64,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `golden` (the transaction-level golden model) or `rtl` (the Verilated core, checked against golden
    /// cycle by cycle on the way; only for cores and configurations that have an RTL build).
    #[arg(long, default_value = "golden", value_parser = ["golden", "rtl"])]
    engine: String,
}

impl RunArgs {
    /// The `--engine` choice.
    fn engine(&self) -> sim::Engine {
        if self.engine == "rtl" {
            sim::Engine::Rtl
        } else {
            sim::Engine::Golden
        }
    }
}

#[derive(clap::Args)]
struct FinecombArgs {
    /// Loss rate β of the path, in [0, 1).
    #[arg(long, default_value_t = 0.01)]
    loss: f64,
    /// Reordering model (§V-A): `forward` ⟨0,x,0,0⟩, the last x packets of the previous interval arrive
    /// after the interval-start message; `backward` ⟨x,0,0,0⟩, the first x packets of the interval arrive
    /// before it. x = ρT/4.
    #[arg(long, default_value = "backward", value_parser = ["forward", "backward"])]
    reorder: String,
    /// Reordering rate ρ = R/T, in [0, 1] (the paper sweeps 4e-6 to 4e-2).
    #[arg(long, default_value_t = 0.004)]
    rho: f64,
    /// Total storage S of FineComb in bucket-sized entries (buckets M plus stash W); LDA gets the same
    /// memory as 1.5·(M + W/2) of its smaller buckets.
    #[arg(long, default_value_t = 1000)]
    buckets: usize,
    /// Stash entries W of FineComb, or `auto` for W* = p*·R (eq. 8); split into four substashes of ⌈W/4⌉.
    #[arg(long, default_value = "auto")]
    stash: String,
    /// Banks: 1, or 4 tuned for β ∈ {1e-4, 1e-2} × ρ ∈ {4e-4, 4e-2} (§III-E, §V-D; LDA then has 2 banks).
    #[arg(long, default_value_t = 1)]
    banks: usize,
    /// Which methods to run.
    #[arg(long, default_value = "all", value_parser = ["finecomb", "finecomb-", "lda", "lda+", "all"])]
    method: String,
    /// Packets per interval T (the paper: 5 M in 1 s, 0.2 µs apart).
    #[arg(long, default_value_t = 5_000_000, value_parser = clap::value_parser!(u64).range(1000..=100_000_000))]
    packets: u64,
    #[command(flatten)]
    run: RunArgs,
    /// Print one JSON object with a key per method run (finecomb, finecomb_nostash, lda, lda_plus), each
    /// holding mean_delay_rel_err, stddev_rel_err, loss_rel_err, useful_samples and expected_useful_samples
    /// (eq. 2), averaged over seeds, null where a method gave no estimate. Without --json a table also
    /// shows each method's banks (M, W, p), stash recovery statistics and time, and FineComb's loss error
    /// with the single-lost-packet residual check (an extension of §III-D, not in the paper).
    #[arg(long)]
    json: bool,
}

fn run_finecomb(a: &FinecombArgs) -> Result<(), String> {
    use sim::finecomb::experiment::*;
    use sim::traffic::finecomb::{FinecombTrafficParams, Reorder};
    if !(0.0..1.0).contains(&a.loss) {
        return Err(format!("--loss {}: must be in [0, 1)", a.loss));
    }
    if !(0.0..=1.0).contains(&a.rho) {
        return Err(format!("--rho {}: must be in [0, 1]", a.rho));
    }
    let stash = match a.stash.as_str() {
        "auto" => StashChoice::Auto,
        v => StashChoice::Fixed(v.parse().map_err(|_| format!("--stash {v}: expected a number of entries or `auto`"))?),
    };
    let methods: Vec<Method> = match a.method.as_str() {
        "all" => Method::ALL.to_vec(),
        name => Method::ALL.into_iter().filter(|m| m.cli_name() == name).collect(),
    };
    let reorder = if a.reorder == "forward" { Reorder::Forward } else { Reorder::Backward };
    let setup = Setup {
        traffic: FinecombTrafficParams { packets: a.packets, ..FinecombTrafficParams::paper(a.loss, reorder, a.rho) },
        storage: a.buckets,
        stash,
        banks: a.banks,
        methods: methods.clone(),
        engine: a.run.engine(),
    };
    setup.traffic.check().map_err(|e| format!("--rho/--loss/--packets: {e}"))?;
    let acc = finecomb_accumulate(&setup, a.run.seeds, a.run.seed, !a.json)?;
    if a.json {
        let obj: serde_json::Map<String, serde_json::Value> = acc
            .iter()
            .map(|(m, ac)| Ok((m.key().to_string(), serde_json::to_value(ac.summary()).map_err(|e| e.to_string())?)))
            .collect::<Result<_, String>>()?;
        println!("{}", serde_json::to_string_pretty(&obj).map_err(|e| e.to_string())?);
        return Ok(());
    }
    println!(
        "FineComb §V: T = {} packets/interval, β = {}, {} reordering ρ = {} (tuple {:?}), storage {}, {} bank(s), \
         {} seeds, engine {}",
        a.packets, a.loss, a.reorder, a.rho, setup.traffic.tuple(), a.buckets, a.banks, a.run.seeds, a.run.engine
    );
    print_finecomb_rows(&setup, &acc)
}

/// Runs the experiment of `setup` over `seeds` seeds from `first` (with a progress bar if `progress`).
fn finecomb_accumulate(
    setup: &sim::finecomb::experiment::Setup,
    seeds: u64,
    first: u64,
    progress: bool,
) -> Result<Vec<(sim::finecomb::experiment::Method, sim::finecomb::experiment::Accumulator)>, String> {
    use sim::finecomb::experiment::*;
    let bar = if progress { ProgressBar::new(seeds) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} seed {pos}/{len} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let acc = accumulate_seeds(setup, first, seeds, || bar.inc(1));
    bar.finish_and_clear();
    acc
}

/// The table of `netmeas run finecomb` (and of the demo's FineComb experiment).
fn print_finecomb_rows(
    setup: &sim::finecomb::experiment::Setup,
    acc: &[(sim::finecomb::experiment::Method, sim::finecomb::experiment::Accumulator)],
) -> Result<(), String> {
    use sim::finecomb::experiment::*;
    let (fc, ns, lda) = plans(setup)?;
    println!(
        "{:<17} {:>10} {:>10} {:>10} {:>12} {:>12} {:>8}  banks (M, W, p)",
        "method", "mean_err", "sd_err", "loss_err", "useful", "expected", "seeds"
    );
    let f = |v: Option<f64>| v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "-".into());
    let g = |v: Option<f64>| v.map(|x| format!("{x:.0}")).unwrap_or_else(|| "-".into());
    for (m, ac) in acc {
        let plan = match m {
            Method::Finecomb => &fc,
            Method::FinecombNoStash => &ns,
            _ => &lda,
        };
        let s = ac.summary();
        let banks: Vec<String> = plan.banks.iter().map(|b| format!("({}, {}, {:.3e})", b.buckets, 4 * b.stash_depth, b.p)).collect();
        println!(
            "{:<17} {:>10} {:>10} {:>10} {:>12} {:>12} {:>8}  {}",
            m.cli_name(),
            f(s.mean_delay_rel_err),
            f(s.stddev_rel_err),
            f(s.loss_rel_err),
            g(s.useful_samples),
            g(s.expected_useful_samples),
            format!("{}/{}", ac.seeds_with_estimate(), ac.seeds),
            banks.join(" ")
        );
        if *m == Method::Finecomb && plan.stash_entries() > 0 {
            println!(
                "  stash recovery: {} of {} useless buckets with stash candidates recovered, {} subsets tried, {:.2} ms per interval",
                ac.recovery.recovered,
                ac.recovery.attempted,
                ac.recovery.subsets,
                ac.recovery_time.as_secs_f64() * 1e3 / ac.seeds.max(1) as f64
            );
            println!(
                "  loss_err {} with the single-lost-packet residual check (extension, not in the paper; {} more buckets explained)",
                f(ac.loss_one_lost_rel_err()),
                ac.recovery.one_lost
            );
        }
    }
    println!("(relative errors |estimate − truth| / truth averaged over seeds; \"seeds\": seeds with a delay estimate)");
    Ok(())
}

#[derive(clap::Args)]
struct FridgeArgs {
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
    /// Total memory of every method, in table entries (a power of two, 4..=65536).
    #[arg(long, default_value_t = 1024)]
    memory: usize,
    /// Entry probability in (0, 1], or `auto`: p = min(1, M / (r·D)), so that the fridge's average lifetime
    /// of M/p requests matches the r·D requests a typical delay D spans at request rate r (dissertation
    /// §2.2.3); D is the 95th-percentile delay, estimated by a pilot run whose lifetime spans the trace.
    #[arg(long, default_value = "auto")]
    p: String,
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
    #[command(flatten)]
    run: RunArgs,
    /// Print one JSON object (a key per method, plus ground_truth) instead of a table.
    #[arg(long)]
    json: bool,
    /// Draw the estimated CDFs of the first seed against the ground truth: FILE.svg or FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
}

fn run_fridge(a: &FridgeArgs) -> Result<(), String> {
    use sim::fridge::experiment::*;
    use sim::traffic::{SyntheticParams, TcpMode};
    let p = match a.p.as_str() {
        "auto" => PChoice::Auto,
        v => match v.parse::<f64>() {
            Ok(p) if p > 0.0 && p <= 1.0 => PChoice::Fixed(p),
            _ => return Err(format!("--p {v}: expected a probability in (0, 1] or `auto`")),
        },
    };
    if let Some(plot) = &a.plot {
        sim::plot::Format::of_path(plot).map_err(|e| format!("--plot {e}"))?;
    }
    if !(a.max_delay_ms > 0.001 && a.max_delay_ms.is_finite()) {
        return Err(format!("--max-delay-ms {}: must exceed 0.001 (the 1 µs lower end)", a.max_delay_ms));
    }
    let params =
        SyntheticParams { max_delay_ms: a.max_delay_ms, samples: a.samples as usize, ..SyntheticParams::paper() };
    let source = match a.trace.as_str() {
        "synthetic" => TraceSource::Synthetic(params),
        "wide" => TraceSource::Wide(SyntheticParams { max_delay_ms: 1000.0, ..params }),
        file => {
            let mode = if a.tcp_mode == "syn" { TcpMode::SynSynAck } else { TcpMode::DataAck };
            TraceSource::File(PathBuf::from(file), mode)
        }
    };
    let engine = a.run.engine();
    let setup =
        Setup {
            memory: a.memory,
            p,
            fridges: a.fridges,
            model_variance: a.variance == "model",
            engine,
            core: golden::fridge::FridgeConfig::default(),
        };
    let file_trace = match &source {
        TraceSource::File(..) => Some(source.generate(0)?),
        _ => None,
    };
    let bar = if a.json { ProgressBar::hidden() } else { ProgressBar::new(a.run.seeds) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} seed {pos}/{len} {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (mut fr, mut mf, mut si, mut ex, mut ex2) = (
        Accumulator::default(),
        Accumulator::default(),
        Accumulator::default(),
        Accumulator::default(),
        Accumulator::default(),
    );
    let (mut ft, mut mft) = (Accumulator::default(), Accumulator::default());
    let (mut truths, mut tn) = (Vec::new(), 0.0);
    for i in 0..a.run.seeds {
        let seed = a.run.seed + i;
        bar.set_message("generating trace");
        let generated;
        let trace = match &file_trace {
            Some(t) => t,
            None => {
                generated = source.generate(seed)?;
                &generated
            }
        };
        bar.set_message("running the methods");
        let o = run_methods(&setup, trace, seed)?;
        fr.add(&o.fridge, &o.truth);
        si.add(&o.simple, &o.truth);
        ex.add(&o.expiry, &o.truth);
        ex2.add(&o.expiry_2x, &o.truth);
        if let Some(m) = &o.multi_fridge {
            mf.add(m, &o.truth);
        }
        if let Some(m) = &o.fridge_tally {
            ft.add(m, &o.truth);
        }
        if let Some(m) = &o.multi_fridge_tally {
            mft.add(m, &o.truth);
        }
        tn += o.truth.len() as f64;
        if i == 0 {
            if let Some(path) = &a.plot {
                use sim::plot::{write_cdf, Curve};
                let mut curves = vec![Curve { label: "ground truth", cdf: &o.truth }, Curve { label: "fridge", cdf: &o.fridge.estimate }];
                if let Some(m) = &o.fridge_tally {
                    curves.push(Curve { label: "fridge (tally)", cdf: &m.estimate });
                }
                if let Some(m) = &o.multi_fridge {
                    curves.push(Curve { label: "multi-fridge", cdf: &m.estimate });
                }
                curves.push(Curve { label: "simple", cdf: &o.simple.estimate });
                curves.push(Curve { label: "expiry", cdf: &o.expiry.estimate });
                let title = format!("fridge, M = {}, trace {} (seed {seed})", a.memory, a.trace);
                write_cdf(path, &title, &curves).map_err(|e| format!("--plot {e}"))?;
            }
        }
        truths.push(o.truth);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let n = a.run.seeds as f64;
    let truth = sim::fridge::estimate::WeightedCdf::pool(&truths);
    let q = |x: f64| truth.quantile(x).unwrap_or(0.0);
    let summary = Summary {
        fridge: fr.summary(&truth),
        fridge_tally: (!ft.is_empty()).then(|| ft.summary(&truth)),
        multi_fridge: (a.fridges > 1).then(|| mf.summary(&truth)),
        multi_fridge_tally: (!mft.is_empty()).then(|| mft.summary(&truth)),
        simple: si.summary(&truth),
        expiry: ex.summary(&truth),
        expiry_2x_memory: ex2.summary(&truth),
        ground_truth: GroundTruth { p50: q(0.5), p95: q(0.95), p99: q(0.99), samples: tn / n },
        seeds: a.run.seeds as usize,
        memory: a.memory,
        engine: a.run.engine.clone(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?);
        return Ok(());
    }
    let gt = &summary.ground_truth;
    println!(
        "trace {}: {:.0} delay samples per seed; true p50 {:.1} µs, p95 {:.1} µs, p99 {:.1} µs; memory {} entries; {} seeds; engine {}",
        a.trace, gt.samples, gt.p50 / 1e3, gt.p95 / 1e3, gt.p99 / 1e3, a.memory, a.run.seeds, a.run.engine
    );
    println!(
        "{:<13} {:>9} {:>9} {:>9} {:>13} {:>14} {:>10}  p",
        "method", "p50_err", "p95_err", "p99_err", "max_err_5_95", "(per seed)", "samples"
    );
    let f = |v: Option<f64>| v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "-".into());
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
    rows.push(("expiry (2M)", &summary.expiry_2x_memory));
    for (name, m) in rows {
        let ps: Vec<String> = m.p.iter().map(|p| format!("{p:.3}")).collect();
        println!(
            "{:<13} {:>9} {:>9} {:>9} {:>13} {:>14} {:>10.0}  {}",
            name,
            f(m.p50_err),
            f(m.p95_err),
            f(m.p99_err),
            f(m.max_err_5_95),
            f(m.per_seed.max_err_5_95),
            m.samples,
            ps.join(",")
        );
    }
    println!(
        "(errors: |log2(estimated / true)| of percentile delays, read from the CDFs combined over seeds as in \
         the dissertation; \"per seed\" is the mean of each seed's own max_err_5_95; \"(tally)\" rows: the same \
         core estimated from its in-hardware tally instead of per-sample reports)"
    );
    Ok(())
}

fn emit(out: &PathBuf, initial: bool, test_only: bool, lint: bool) -> Result<usize, String> {
    let tops = hdl::emit::all_tops(initial, test_only)?;
    hdl::emit::write_all(out, &tops).map_err(|e| format!("cannot write Verilog to {}: {e}", out.display()))?;
    println!("wrote {} top modules and manifest.json to {}", tops.len(), out.display());
    if lint {
        let reports = hdl::lint::lint_tops(out, &tops)?;
        let dirty: Vec<_> = reports.iter().filter(|r| !r.clean).collect();
        for r in &dirty {
            eprintln!("lint: {} has warnings:\n{}", r.top, r.messages);
        }
        if !dirty.is_empty() {
            return Err(format!("{} of {} tops do not lint clean", dirty.len(), reports.len()));
        }
        println!("verilator --lint-only -Wall: all {} tops clean (waivers: hdl/lint/waivers.vlt)", reports.len());
    }
    Ok(tops.len())
}

fn demo(transactions: u64, seed: Option<u64>, out: &PathBuf, vcd_dir: Option<PathBuf>) -> Result<(), String> {
    println!("netmeas demo — co-simulation models built with {}", testbench::VERILATOR_VERSION);
    emit(out, true, false, true)?;
    if let Some(d) = &vcd_dir {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create waveform directory {}: {e}", d.display()))?;
        let probe = d.join(".netmeas-write-test");
        std::fs::write(&probe, b"").map_err(|e| format!("cannot write waveforms into {}: {e}", d.display()))?;
        let _ = std::fs::remove_file(probe);
    }
    let seed = seed.unwrap_or_else(testbench::harness::fresh_seed);
    println!("traffic seed {seed} (reproduce: netmeas demo --seed {seed} --transactions {transactions})\n");
    let blocks = testbench::runners();
    let bar = ProgressBar::new(blocks.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut rows = Vec::new();
    for (i, (name, run)) in blocks.iter().enumerate() {
        bar.set_message(format!("co-simulating {name}"));
        let cfg = RunConfig {
            seed: seed.wrapping_add(i as u64),
            x_seed: seed ^ 0x5eed,
            transactions,
            vcd: vcd_dir.as_ref().map(|d| testbench::harness::vcd_path_in(d, name)),
        };
        rows.push(run(&cfg));
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!("{:<18} {:>12} {:>13} {:>11} {:>14}", "block", "cycles", "transactions", "mismatches", "M cycles/s");
    for r in &rows {
        println!(
            "{:<18} {:>12} {:>13} {:>11} {:>14.2}",
            r.block,
            r.cycles,
            r.transactions,
            r.scoreboard.mismatches,
            r.cycles_per_second() / 1e6
        );
    }
    let bad: Vec<_> = rows.iter().filter(|r| !r.scoreboard.is_clean() || r.scoreboard.checks == 0).collect();
    for r in &bad {
        if r.scoreboard.checks == 0 {
            eprintln!("{}: nothing was compared (too few transactions?)", r.block);
        } else {
            eprintln!("{}", r.scoreboard);
        }
    }
    if !bad.is_empty() {
        eprintln!("reproduce: netmeas demo --seed {seed} --transactions {transactions}");
    }
    if !bad.is_empty() {
        return Err(format!("{} blocks differ from golden", bad.len()));
    }
    println!("\nall {} blocks match their golden models cycle by cycle", rows.len());
    demo_fridge_experiment(seed)?;
    demo_finecomb_experiment(seed)
}

/// The fridge on the RTL engine against ground truth: a reduced §2.4 synthetic trace (100 000 samples,
/// T = 100 ms), one fridge of 1024 entries with auto p, and the simple and expiry baselines.
fn demo_fridge_experiment(seed: u64) -> Result<(), String> {
    use sim::fridge::estimate::errors;
    use sim::fridge::experiment::{run_methods, Engine, PChoice, Setup};
    use sim::traffic::{synthetic, SyntheticParams};
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
        "{:<8} {:>8} {:>9} {:>9} {:>9} {:>13}",
        "method", "samples", "p50_err", "p95_err", "p99_err", "max_err_5_95"
    );
    let tally = o.fridge_tally.as_ref().ok_or("the default core has a tally")?;
    for (name, m) in [("fridge", &o.fridge), ("tally", tally), ("simple", &o.simple), ("expiry", &o.expiry)] {
        match errors(&m.estimate, &o.truth) {
            Some(e) => println!(
                "{name:<8} {:>8} {:>9.3} {:>9.3} {:>9.3} {:>13.3}",
                m.samples, e.p50_err, e.p95_err, e.p99_err, e.max_err_5_95
            ),
            None => println!("{name:<8} {:>8} (no samples)", m.samples),
        }
    }
    println!(
        "(|log2(estimated / true)| of percentile delays, one seed; `netmeas run fridge` runs the full experiment)"
    );
    Ok(())
}

/// FineComb on the RTL engine against ground truth: one reduced §V interval (200 000 packets, β = 0.01,
/// backward reordering ρ = 0.004, storage 1000), every method, sender and receiver Verilated.
fn demo_finecomb_experiment(seed: u64) -> Result<(), String> {
    use sim::finecomb::experiment::{Method, Setup, StashChoice};
    use sim::traffic::finecomb::{FinecombTrafficParams, Reorder};
    let setup = Setup {
        traffic: FinecombTrafficParams {
            packets: 200_000,
            ..FinecombTrafficParams::paper(0.01, Reorder::Backward, 0.004)
        },
        storage: 1000,
        stash: StashChoice::Auto,
        banks: 1,
        methods: Method::ALL.to_vec(),
        engine: sim::Engine::Rtl,
    };
    println!(
        "\nFineComb experiment on the RTL (both ends Verilated, cross-checked against golden cycle by cycle and \
         against the golden transaction model): one interval of 200 000 packets, β = 0.01, backward ρ = 0.004, \
         storage 1000"
    );
    let acc = finecomb_accumulate(&setup, 1, seed, true)?;
    print_finecomb_rows(&setup, &acc)?;
    println!("(one seed at 1/25 of the paper's interval; `netmeas run finecomb` runs the full experiment)");
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd {
        Cmd::Verilog { out, include_test_only, no_initial, lint } => {
            emit(&out, !no_initial, include_test_only, lint).map(|_| ())
        }
        Cmd::Demo { transactions, seed, out, vcd_dir } => demo(transactions, seed, &out, vcd_dir),
        Cmd::Run { core: RunCore::Fridge(a) } => run_fridge(&a),
        Cmd::Run { core: RunCore::Finecomb(a) } => run_finecomb(&a),
        Cmd::Synth(a) => synth::run(&a),
        Cmd::Bench(a) => bench::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("netmeas: error: {e}");
            ExitCode::FAILURE
        }
    }
}
