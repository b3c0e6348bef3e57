//! `netmeas verify <core> [--build B | --set name=value … [--name N]] [--bus axi|native] [--packets N]
//! [--seed S] [--vcd FILE]`: co-simulates exactly the configuration `netmeas generate` writes — registered or
//! not, its AXI flavour (the default, as `generate`'s) or its native ports — against the golden model, cycle
//! by cycle, on the core's randomized traffic. Its Verilog (without `initial` values: the co-simulation
//! flavour) is Verilated at run time with the test build's flags, compiled into a shared object and loaded
//! (`testbench::runtime_model`, cached per configuration under `NETMEAS_CACHE`), and run by the core's own
//! test runner (`testbench::verify`; the AXI flavour behind the randomized AXI4-Lite master and the golden
//! slave of the test suite's AXI runs). Prints the table of `netmeas demo`; exits non-zero on a mismatch,
//! naming the seed, the cycle and the signal.

use crate::generate::Which;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub which: Which,
    /// The flavour to verify, as `netmeas generate --bus` writes it: axi (AXI4-Lite registers, AXI4-Stream
    /// descriptors and reports; the register traffic goes through a randomized AXI4-Lite master with delays
    /// on every channel) or native (the core's own ports).
    #[arg(long, default_value = "axi", value_parser = ["axi", "native"])]
    pub bus: String,
    /// Packets per run (the fridge has three runs: fridge, simple and expiry mode).
    #[arg(long, default_value_t = 200_000)]
    pub packets: u64,
    /// Traffic seed (default: a fresh one, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write a VCD waveform (the fridge's runs: one file per mode beside it).
    #[arg(long)]
    pub vcd: Option<PathBuf>,
    /// Verify this Verilog file instead of the generated one (e.g. the generated file after your own edits
    /// or tool passes): its top module must be the configuration's (`<build>` or `--name`, `_axi` appended
    /// for the AXI flavour), with the same ports, and without `initial` values mattering (reset must
    /// initialise everything).
    #[arg(long, value_name = "FILE")]
    pub verilog: Option<PathBuf>,
    /// Print the result as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

#[cfg(not(feature = "rtl"))]
pub fn run(_: &VerifyArgs) -> Result<(), String> {
    Err(crate::RTL_MISSING.into())
}

#[cfg(feature = "rtl")]
pub fn run(a: &VerifyArgs) -> Result<(), String> {
    use hdl::ip::Bus;
    use testbench::harness::RunConfig;
    if a.packets == 0 {
        return Err("--packets must be at least 1".into());
    }
    testbench::verify::runs_of(&a.which.core)?;
    let t0 = std::time::Instant::now();
    let axi = a.bus == "axi";
    let (files, _) = a.which.files(if axi { Bus::Axi } else { Bus::Native }, false)?;
    let manifest = files.iter().find(|(n, _)| n.ends_with(".json")).ok_or("no manifest generated")?;
    let manifest: serde_json::Value = serde_json::from_str(&manifest.1).map_err(|e| e.to_string())?;
    // The native top's entry (its parameters, and its ports: the AXI flavour's `tdata` layouts follow them),
    // from the manifest: an AXI flavour's names its core and lists the core's ports.
    let native_name = manifest["core"].as_str().ok_or("the manifest names no core top")?.to_string();
    let native = serde_json::json!({
        "name": native_name, "params": manifest["params"],
        "ports": if axi { &manifest["native_ports"] } else { &manifest["ports"] },
    });
    testbench::verify::check_config(&a.which.core, &native_name, &native["params"])?;
    let module = manifest["module"].as_str().ok_or("the manifest names no module")?.to_string();
    let generated = files.iter().find(|(n, _)| *n == format!("{module}.v")).ok_or("no Verilog generated")?;
    let verilog = match &a.verilog {
        None => generated.1.clone(),
        Some(f) => {
            let v = std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            let declares = |m: &str| {
                v.lines().any(|l| {
                    let rest = l.trim_start().strip_prefix("module").filter(|r| r.starts_with(char::is_whitespace));
                    let rest = rest.map(str::trim_start).and_then(|r| r.strip_prefix(m));
                    rest.is_some_and(|r| r.trim_start().starts_with(['(', '#', ';']) || r.trim().is_empty())
                })
            };
            if !declares(&module) {
                let hint = if axi && declares(&native_name) {
                    format!("; it has the native top {native_name}: add --bus native")
                } else {
                    String::new()
                };
                return Err(format!("{} has no module {module} (the configuration's top){hint}", f.display()));
            }
            v
        }
    };
    let generate_s = t0.elapsed().as_secs_f64();
    eprintln!("netmeas verify: Verilating and compiling {module} unless cached (a new configuration: 10-30 s)");
    let cache = crate::generate::cache_dir().join("models");
    let built = testbench::runtime_model::build(&module, &verilog, &cache)?;
    let lib = testbench::runtime_model::DynLib::load(&built)?;
    // The model's ports are the configuration's (an edited file must keep them: a missing port would read 0).
    let mut want: Vec<(String, bool, usize)> = manifest["ports"]
        .as_array()
        .map(|ps| {
            let port = |p: &serde_json::Value| {
                let name = p["name"].as_str().unwrap_or_default().to_string();
                (name, p["dir"] == "input", p["width"].as_u64().unwrap_or(0) as usize)
            };
            ps.iter().map(port).collect()
        })
        .unwrap_or_default();
    let mut have = lib.ports();
    want.sort();
    have.sort();
    if want != have {
        let only = |a: &[(String, bool, usize)], b: &[(String, bool, usize)]| -> Vec<String> {
            a.iter().filter(|p| !b.contains(p)).map(|p| format!("{} ({} bits)", p.0, p.2)).collect()
        };
        let (diff, extra) = (only(&want, &have), only(&have, &want));
        return Err(format!(
            "{module}: the Verilog's ports differ from the configuration's: missing or changed {}; unexpected {}",
            if diff.is_empty() { "none".into() } else { diff.join(", ") },
            if extra.is_empty() { "none".into() } else { extra.join(", ") }
        ));
    }
    let first_cycle_s = t0.elapsed().as_secs_f64();
    let seed = a.seed.unwrap_or_else(testbench::harness::fresh_seed);
    let cfg = RunConfig { seed, x_seed: seed ^ 0x5eed, transactions: a.packets, vcd: a.vcd.clone() };
    let core = &a.which.core;
    let runs = testbench::verify::run(core, &native_name, native, &lib, axi, &cfg)?;
    let model = if built.cached {
        "cached".to_string()
    } else {
        format!("Verilated in {:.1} s, compiled in {:.1} s", built.verilate_seconds, built.compile_seconds)
    };
    if a.json {
        let rows: Vec<_> = runs
            .iter()
            .map(|(label, r)| {
                serde_json::json!({
                    "run": label, "cycles": r.cycles, "transactions": r.transactions,
                    "mismatches": r.scoreboard.mismatches, "checks": r.scoreboard.checks,
                    "cycles_per_second": r.cycles_per_second(), "seed": r.scoreboard.seed,
                    "first_mismatch": r.scoreboard.first.as_ref().map(|m| serde_json::json!({
                        "cycle": m.cycle, "signal": m.signal, "expected": m.expected.to_string(),
                        "actual": m.actual.to_string()})),
                    "coverage": r.coverage.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v)))
                        .collect::<serde_json::Map<_, _>>(),
                })
            })
            .collect();
        let v = serde_json::json!({
            "module": module, "core": core, "bus": a.bus, "params": manifest["params"], "seed": seed,
            "model": {"cached": built.cached, "verilate_seconds": built.verilate_seconds,
                      "compile_seconds": built.compile_seconds, "library": built.lib},
            "seconds_to_first_cycle": first_cycle_s, "generate_seconds": generate_s, "runs": rows,
        });
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
    } else {
        println!("netmeas verify {module}: {} (model {model}; first cycle after {first_cycle_s:.1} s)", core);
        println!("traffic seed {seed}\n");
        println!("{:<34} {:>12} {:>13} {:>11} {:>14}", "block", "cycles", "transactions", "mismatches", "M cycles/s");
        for (label, r) in &runs {
            println!(
                "{label:<34} {:>12} {:>13} {:>11} {:>14.2}",
                r.cycles,
                r.transactions,
                r.scoreboard.mismatches,
                r.cycles_per_second() / 1e6
            );
        }
    }
    if !a.json {
        // What the traffic exercised at this configuration: a counter at 0 is a behaviour this run did not
        // reach (e.g. collisions in a table much larger than the traffic's working set, a stash in a sender).
        let all = testbench::verify::COVERAGE.iter().find(|c| c.0 == core.as_str()).map_or(&[][..], |c| c.1);
        for (label, r) in &runs {
            let zero: Vec<&str> = all.iter().copied().filter(|k| r.coverage.get(k) == 0).collect();
            println!("\n{label}: {} of {} coverage counters reached", all.len() - zero.len(), all.len());
            if axi {
                let (w, r) = (r.coverage.get("axil_writes"), r.coverage.get("axil_reads"));
                println!("  AXI4-Lite: {w} writes and {r} reads completed (random delays on every channel)");
            }
            if !zero.is_empty() {
                println!("  not exercised: {}", zero.join(", "));
            }
        }
    }
    let bad: Vec<_> = runs.iter().filter(|(_, r)| !r.scoreboard.is_clean() || r.scoreboard.checks == 0).collect();
    if bad.is_empty() {
        if !a.json {
            println!("\n{module} matches the golden model cycle by cycle");
        }
        return Ok(());
    }
    let mut msg = String::new();
    for (label, r) in &bad {
        msg += &match r.scoreboard.checks {
            0 => format!("\n{label}: nothing was compared"),
            _ => {
                let s = r.scoreboard.to_string();
                format!("\n{label}: {}", s.trim_start_matches(&format!("{}: ", r.scoreboard.block)))
            }
        };
    }
    Err(format!("{module} differs from golden (reproduce: the same command with --seed {seed}):{msg}"))
}
