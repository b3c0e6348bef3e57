//! The benchmark driver: runs the parts over every core of [`super::CORES`] and prints tables or JSON.

use super::simspeed::sim_speed;
use super::{BenchArgs, GoldenSpeed, CORES};
use crate::table::Align::{self, Left, Right};
use crate::table::{flagged, Cell, Table};
use golden::common::sram::RamPorts;
use serde_json::{json, Value};
use testbench::harness::RunConfig;

fn want(args: &BenchArgs, part: &str) -> bool {
    args.only.is_empty() || args.only.iter().any(|o| o == part)
}

/// One part's results: a titled table on the terminal (unless `quiet`, i.e. JSON), and its rows as JSON.
fn section<T>(
    quiet: bool,
    title: &str,
    columns: &[(&str, Align)],
    rows: &[T],
    cells: impl Fn(&T) -> Vec<Cell>,
    json: impl Fn(&T) -> Value,
) -> Value {
    if !quiet {
        println!("{title}");
        let mut table = Table::new(columns);
        rows.iter().for_each(|r| table.row(cells(r)));
        print!("{}", table.text());
        println!();
    }
    rows.iter().map(json).collect::<Vec<Value>>().into()
}

/// A rate in millions with two decimals ("–" for a golden-only row without a co-simulation).
fn mega(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        format!("{:.2}", x / 1e6)
    }
}

/// Runs `netmeas bench`.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let quiet = args.json;
    let mut say = |m: &str| {
        if !quiet {
            eprintln!("[bench] {m}");
        }
    };
    let mut report = json!({
        "machine": crate::machine(),
        "verilator": testbench::VERILATOR_VERSION,
        "seed": args.seed,
    });
    let mut failures = Vec::new();
    if want(args, "throughput") {
        say(&format!("throughput: {} packets per top, saturated", args.packets));
        let t: Vec<_> = CORES.iter().flat_map(|c| (c.throughput)(args.packets, args.seed)).collect();
        report["throughput"] = section(
            quiet,
            "Throughput (saturated traffic, RTL checked against golden)",
            &[
                ("top", Left),
                ("RAM", Right),
                ("packets", Right),
                ("cycles", Right),
                ("packets/cycle", Right),
                ("target", Right),
                ("b2b", Right),
                ("mismatches", Right),
            ],
            &t,
            |x| {
                vec![
                    x.top.into(),
                    (if x.ports == RamPorts::Dual { "dual" } else { "sgl" }).into(),
                    x.packets.to_string().into(),
                    x.cycles.to_string().into(),
                    format!("{:.4}", x.per_cycle()).into(),
                    format!("{:.2}", x.target).into(),
                    format!("{:.1}%", 100.0 * x.same_index_back_to_back).into(),
                    x.mismatches.to_string().into(),
                ]
            },
            |x| {
                json!({"top": x.top, "ports": x.ports, "packets": x.packets, "cycles": x.cycles,
                       "packets_per_cycle": x.per_cycle(), "target": x.target,
                       "same_index_back_to_back": x.same_index_back_to_back, "mismatches": x.mismatches})
            },
        );
        for x in t.iter().filter(|x| !x.ok()) {
            failures.push(format!(
                "{}: {:.4} packets/cycle (target {}), {} mismatches",
                x.top,
                x.per_cycle(),
                x.target,
                x.mismatches
            ));
        }
    }
    if want(args, "simspeed") {
        let mut rows = Vec::new();
        for b in CORES.iter().flat_map(|c| (c.speed)()) {
            rows.push(sim_speed(&b, args, &mut say)?);
        }
        report["simspeed"] = section(
            quiet,
            &format!(
                "Simulation speed: Rust harness vs plain C++ Verilator loop ({} cycles, best of {})",
                args.cycles, args.repeat
            ),
            &[
                ("top", Left),
                ("Rust M cycles/s", Right),
                ("C++ M cycles/s", Right),
                ("ratio", Right),
                ("checksums", Right),
            ],
            &rows,
            |s| {
                vec![
                    s.top.into(),
                    format!("{:.2}", s.rust_cps / 1e6).into(),
                    format!("{:.2}", s.cpp_cps / 1e6).into(),
                    format!("{:.0}%", 100.0 * s.ratio()).into(),
                    if s.checksums_agree { "agree".into() } else { flagged("differ") },
                ]
            },
            |s| {
                json!({"top": s.top, "cycles": s.cycles, "rust_cycles_per_s": s.rust_cps, "cpp_cycles_per_s": s.cpp_cps,
                       "ratio": s.ratio(), "checksums_agree": s.checksums_agree})
            },
        );
        for s in rows.iter().filter(|s| !s.checksums_agree || s.ratio() < 0.7) {
            failures.push(format!(
                "{}: harness at {:.0}% of C++ (checksums agree: {})",
                s.top,
                100.0 * s.ratio(),
                s.checksums_agree
            ));
        }
    }
    if want(args, "golden") {
        let mut rows = Vec::new();
        for g in CORES.iter().flat_map(|c| (c.golden)()) {
            say(&format!("golden vs co-simulation: {}", g.block));
            let secs = (g.golden)(args.transactions, args.seed);
            let runner = testbench::runners().into_iter().find(|(n, _)| *n == g.block).map(|r| r.1);
            let (cosim_tps, cosim_cps, clean) = match runner {
                Some(run) => {
                    let cfg = RunConfig {
                        seed: args.seed,
                        x_seed: args.seed ^ 0x5eed,
                        transactions: args.transactions,
                        vcd: None,
                    };
                    let r = run(&cfg);
                    (r.transactions as f64 / r.seconds.max(1e-9), r.cycles_per_second(), r.scoreboard.is_clean())
                }
                None => (f64::NAN, f64::NAN, true),
            };
            rows.push(GoldenSpeed {
                block: g.block,
                transactions: args.transactions,
                golden_tps: args.transactions as f64 / secs.max(1e-9),
                cosim_tps,
                cosim_cps,
                cosim_clean: clean,
            });
        }
        report["golden"] = section(
            quiet,
            &format!("Golden-model speed vs RTL co-simulation ({} transactions each, release)", args.transactions),
            &[
                ("block", Left),
                ("golden M trans/s", Right),
                ("co-sim M trans/s", Right),
                ("co-sim M cycles/s", Right),
                ("match", Right),
            ],
            &rows,
            |g| {
                vec![
                    g.block.into(),
                    format!("{:.2}", g.golden_tps / 1e6).into(),
                    mega(g.cosim_tps).into(),
                    mega(g.cosim_cps).into(),
                    if g.cosim_clean { "yes".into() } else { flagged("no") },
                ]
            },
            |g| {
                json!({"block": g.block, "transactions": g.transactions, "golden_per_s": g.golden_tps,
                       "cosim_per_s": g.cosim_tps, "cosim_cycles_per_s": g.cosim_cps, "cosim_matches_golden": g.cosim_clean})
            },
        );
        for g in rows.iter().filter(|g| !g.cosim_clean) {
            failures.push(format!("{}: co-simulation differs from golden", g.block));
        }
    }
    if quiet {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        println!("machine: {}; {}", crate::machine(), testbench::VERILATOR_VERSION);
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("benchmark targets missed:\n  {}", failures.join("\n  ")))
    }
}
