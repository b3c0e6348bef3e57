//! `netmeas`: emit the Verilog of every core and run the demo (RTL cross-checked against golden).

use clap::{ArgMatches, Command, FromArgMatches, Parser, Subcommand};
use sim::cli::CoreCli;
use std::path::PathBuf;
use std::process::ExitCode;

use sim::CORES;

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
    /// Write the Verilog of every top module (one file per top, with its submodules), each top's register
    /// map (<top>.regs.md, <top>_regs.h) and manifest.json.
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
    /// One configuration of a core as IP: a self-contained Verilog file whose top has AXI4-Lite registers and
    /// AXI4-Stream descriptors and reports (or the native ports), its manifest (ports, stream fields,
    /// registers, parameters), the register map as Markdown, C header and SystemRDL, and a FuseSoC .core file.
    /// A registered build (`--build`, `--list`) or any configuration (`--set name=value`, `--params`).
    Generate(sim::generate::GenerateArgs),
    /// Co-simulate exactly the configuration `generate` writes (a registered build or `--set …`) against
    /// the golden model, cycle by cycle, on the core's randomized traffic: its Verilog is Verilated at run
    /// time (Verilator and a C++ compiler on PATH) and loaded, cached per configuration. Exits non-zero on
    /// a mismatch, naming the seed, cycle and signal.
    Verify(sim::verify::VerifyArgs),
    /// Run a core's experiment (the paper's evaluation) on golden or RTL.
    Run {
        #[command(subcommand)]
        core: RunCore,
    },
    /// A core's experiment on a capture whose frames go through the header parser byte for byte (its cycle
    /// model or, with --engine rtl, its Verilated RTL checked cycle by cycle, then the core's RTL), under
    /// random input gaps and output backpressure; the result equals `netmeas run <core> --trace FILE` on a
    /// capture within the parser's limits. The core's options follow `--`, e.g. `netmeas replay cap.pcap
    /// --core fridge -- --seeds 1 --json`.
    Replay(sim::parser::cli::ReplayArgs),
    /// Draw every paper figure netmeas reproduces (sim/src/figures.rs lists them): each is `netmeas run
    /// <core> … --plot OUT/<name>.<ext>` at the paper's scale, its table printed as it runs; a summary of
    /// files and times at the end. Full scale takes about 14 minutes on 2 cores (`--quick`: under a minute).
    Figures {
        /// Output directory (created if missing).
        #[arg(long, default_value = "out/figures")]
        out: PathBuf,
        /// svg or png.
        #[arg(long, default_value = "svg", value_parser = ["svg", "png"])]
        format: String,
        /// Reduced runs (fewer packets and seeds): a smoke test of every figure, not the paper's numbers.
        #[arg(long)]
        quick: bool,
        /// Only the figures whose names contain one of these (comma-separated), e.g. `finecomb,ifpd-fig5`.
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
        /// List the figures and their commands, draw nothing.
        #[arg(long)]
        list: bool,
    },
    /// Query a core's stored measurements (MAPLE: per-packet and per-flow latency queries over the epochs
    /// that `netmeas run maple --save-epochs DIR` stored, and the §5.4 evaluation).
    Query {
        #[command(subcommand)]
        core: QueryCore,
    },
    /// Synthesize cores for ECP5 (LFE5U-85F, speed 8, out of context) with the pinned YoWASP Yosys and
    /// nextpnr-ecp5 (scripts/setup_synth.sh installs them): LUT4, FF, DP16KD, MULT18, Fmax over placement
    /// seeds, memory needed versus block RAM used, critical paths.
    Synth(synth::flow::SynthArgs),
    /// Mutation testing: apply each listed RTL design mistake (testbench/mutants/*.toml) to a scratch copy,
    /// rebuild, run the co-simulation tests that must catch it; print the verdicts and the kill rate per
    /// core. Needs Verilator (the scratch builds are co-simulations); `--list` only checks the lists.
    Mutate(sim::mutate::MutateArgs),
    /// Benchmarks: packets per cycle under saturated hazard traffic, the Rust harness against a plain C++
    /// Verilator loop on the same stimulus, golden-model against co-simulation speed.
    Bench(synth::bench::BenchArgs),
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
enum QueryCore {
    Maple(sim::maple::query_cli::QueryArgs),
    MapleRanges(sim::maple::ranges::RangeArgs),
}

fn emit(out: &PathBuf, initial: bool, test_only: bool, lint: bool) -> Result<usize, String> {
    let tops = hdl::emit::all_tops(initial, test_only)?;
    hdl::emit::write_all(out, &tops).map_err(|e| format!("cannot write Verilog to {}: {e}", out.display()))?;
    let maps = tops.iter().filter(|t| t.csr.is_some()).count();
    println!("wrote {} top modules, {maps} register maps and manifest.json to {}", tops.len(), out.display());
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

#[cfg(feature = "rtl")]
fn demo(transactions: u64, seed: Option<u64>, out: &PathBuf, vcd_dir: Option<PathBuf>) -> Result<(), String> {
    println!("netmeas demo — co-simulation models built with {}", testbench::VERILATOR_VERSION);
    emit(out, true, false, true)?;
    if let Some(d) = &vcd_dir {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create waveform directory {}: {e}", d.display()))?;
        let probe = d.join(".netmeas-write-test");
        std::fs::write(&probe, b"").map_err(|e| format!("cannot write waveforms into {}: {e}", d.display()))?;
        let _ = std::fs::remove_file(probe);
    }
    use indicatif::{ProgressBar, ProgressStyle};
    use testbench::harness::RunConfig;
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
    CORES.iter().try_for_each(|core| core.demo(seed))?;
    sim::parser::cli::demo(seed, CORES)
}

#[cfg(not(feature = "rtl"))]
fn demo(_: u64, _: Option<u64>, _: &PathBuf, _: Option<PathBuf>) -> Result<(), String> {
    Err(sim::RTL_MISSING.into())
}

/// `netmeas bench` (the benchmarks run the Verilated cores).
fn bench(args: &synth::bench::BenchArgs) -> Result<(), String> {
    #[cfg(feature = "rtl")]
    return synth::bench::run(args);
    #[cfg(not(feature = "rtl"))]
    {
        let _ = args;
        Err(sim::RTL_MISSING.into())
    }
}

/// `netmeas figures`.
fn figures(out: &std::path::Path, ext: &str, quick: bool, only: &[String], list: bool) -> Result<(), String> {
    let figs = sim::figures::select(only)?;
    if list {
        for f in &figs {
            let file = out.join(format!("{}.{ext}", f.name));
            println!("{:<24} {}
{:<24} netmeas run {}", f.name, f.paper, "", sim::figures::run_args(f, quick, &file).join(" "));
        }
        return Ok(());
    }
    let drawn = sim::figures::draw(CORES, &figs, out, ext, quick)?;
    println!("
{:<24} {:>9}  file", "figure", "seconds");
    for d in &drawn {
        println!("{:<24} {:>9.1}  {}", d.name, d.seconds, d.file.display());
    }
    println!("{} figures in {:.0} s", drawn.len(), drawn.iter().map(|d| d.seconds).sum::<f64>());
    Ok(())
}

/// `netmeas run <core>`: one core of [`CORES`] and the matches of its subcommand.
struct RunCore {
    core: &'static dyn CoreCli,
    matches: ArgMatches,
}

impl FromArgMatches for RunCore {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (name, matches) = m.subcommand().ok_or_else(missing)?;
        let core = CORES.iter().find(|c| c.name() == name).ok_or_else(missing)?;
        Ok(RunCore { core: *core, matches: matches.clone() })
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = RunCore::from_arg_matches(m)?;
        Ok(())
    }
}

impl Subcommand for RunCore {
    fn augment_subcommands(cmd: Command) -> Command {
        CORES.iter().fold(cmd, |cmd, c| cmd.subcommand(c.command()))
    }
    fn augment_subcommands_for_update(cmd: Command) -> Command {
        RunCore::augment_subcommands(cmd)
    }
    fn has_subcommand(name: &str) -> bool {
        CORES.iter().any(|c| c.name() == name)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd {
        Cmd::Verilog { out, include_test_only, no_initial, lint } => {
            emit(&out, !no_initial, include_test_only, lint).map(|_| ())
        }
        Cmd::Demo { transactions, seed, out, vcd_dir } => demo(transactions, seed, &out, vcd_dir),
        Cmd::Run { core } => core.core.run(&core.matches),
        Cmd::Replay(a) => sim::parser::cli::run(&a, CORES),
        Cmd::Figures { out, format, quick, only, list } => figures(&out, &format, quick, &only, list),
        Cmd::Query { core: QueryCore::Maple(a) } => sim::maple::query_cli::run(&a),
        Cmd::Query { core: QueryCore::MapleRanges(a) } => sim::maple::ranges::run(&a),
        Cmd::Synth(a) => synth::flow::run(&a),
        Cmd::Bench(a) => bench(&a),
        Cmd::Mutate(a) => sim::mutate::run(&a),
        Cmd::Generate(a) => sim::generate::run(&a),
        Cmd::Verify(a) => sim::verify::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("netmeas: error: {e}");
            ExitCode::FAILURE
        }
    }
}
