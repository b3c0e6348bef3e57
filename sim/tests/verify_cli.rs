//! `netmeas verify`: a configuration of every core that no build registers, generated, Verilated at run time
//! and co-simulated against golden by the core's runner (the round trip of `generate` + `verify`); a
//! deliberately broken Verilog file is caught, naming the seed, cycle and signal; bad requests are clear
//! errors that Verilate nothing. (`verify` needs the `rtl` feature: without it these tests are not built.)
#![cfg(feature = "rtl")]

mod common;
use common::*;

/// `netmeas verify <core> --set … --json` for the cores `which` of [`CORES`]: every run compares cycles and
/// finds no mismatch.
fn round_trip(which: std::ops::Range<usize>) {
    for (core, _, settings) in &CORES[which] {
        let mut args = vec!["verify", core, "--packets", "20000", "--seed", "11", "--json"];
        for s in *settings {
            args.extend(["--set", s]);
        }
        let v = json(&args);
        let runs = v["runs"].as_array().unwrap();
        assert_eq!(runs.len(), if *core == "fridge" { 3 } else { 1 }, "{core}: {v}");
        for r in runs {
            assert_eq!(r["mismatches"], 0, "{core}: {r}");
            assert!(r["checks"].as_u64().unwrap() > 100_000, "{core}: {r}");
            assert!(r["transactions"].as_u64().unwrap() >= 20_000, "{core}: {r}");
        }
        assert!(v["seconds_to_first_cycle"].as_f64().unwrap() > 0.0);
        let s = |k: &serde_json::Value| k.as_f64().unwrap_or(0.0);
        eprintln!(
            "[verify {core}] model cached {}, Verilated {:.1} s, compiled {:.1} s, first cycle after {:.1} s",
            v["model"]["cached"],
            s(&v["model"]["verilate_seconds"]),
            s(&v["model"]["compile_seconds"]),
            s(&v["seconds_to_first_cycle"])
        );
    }
}

#[test]
fn verify_new_configurations_of_fridge_finecomb_heavy_hitters() {
    round_trip(0..3);
}

#[test]
fn verify_new_configurations_of_reordering_ifpd_maple() {
    round_trip(3..6);
}

/// The generated Verilog with one line broken (the report FIFO's valid tied low) fails verification: a
/// non-zero exit naming the seed, the cycle and the signal.
#[test]
fn verify_catches_a_broken_verilog_file() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify_broken");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let o = netmeas(&["generate", "ifpd", "--build", "ifpd_d4", "--bus", "native", "--no-initial", "--out", d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = dir.join("ifpd_d4.v");
    let v = std::fs::read_to_string(&file).unwrap();
    let good = "        rep_valid = fifo$out_valid;\n";
    assert_eq!(v.matches(good).count(), 1, "the line to break is not in ifpd_d4.v once");
    std::fs::write(&file, v.replace(good, "        rep_valid = 1'b0;\n")).unwrap();
    let f = file.to_str().unwrap();
    let e = error(&["verify", "ifpd", "--build", "ifpd_d4", "--verilog", f, "--packets", "20000", "--seed", "5"]);
    for says in ["differs from golden", "--seed 5", "first at cycle", "signal `rep_valid`"] {
        assert!(e.contains(says), "{says}: {e}");
    }
}

/// Bad requests: clear errors, nothing Verilated.
#[test]
fn verify_bad_requests_are_clear_errors() {
    let missing = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify_no_such.v");
    let other = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify_other.v");
    std::fs::write(&other, "module something_else(input clock);\nendmodule\n").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["verify", "fifo"], "no runner for core fifo; it verifies fridge, finecomb"),
        (&["verify", "ifpd", "--set", "rows=9"], "rows (d) = 9 is outside 1..=8"),
        (&["verify", "ifpd", "--packets", "0"], "--packets must be at least 1"),
        (&["verify", "ifpd", "--verilog", missing.to_str().unwrap()], "cannot read"),
        (&["verify", "ifpd", "--verilog", other.to_str().unwrap()], "has no module ifpd_d4"),
    ];
    for (args, says) in cases {
        let e = error(args);
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(!e.contains("Verilating"), "{args:?} Verilated: {e}");
    }
    // The configuration's top with other ports: Verilated, then refused before any cycle runs.
    let ports = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify_ports.v");
    std::fs::write(&ports, "module ifpd_d4 (input clock, output in_ready);\n  assign in_ready = 1'b1;\nendmodule\n")
        .unwrap();
    let e = error(&["verify", "ifpd", "--verilog", ports.to_str().unwrap()]);
    assert!(e.contains("ports differ from the configuration's") && e.contains(" reset (1 bits)"), "{e}");
}
