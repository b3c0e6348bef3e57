//! `netmeas verify`: a configuration of every core that no build registers, generated, Verilated at run time
//! and co-simulated against golden by the core's runner (the round trip of `generate` + `verify`): the AXI
//! flavour (the default of both) of every core, the native ports of two; deliberately broken Verilog files
//! (native and AXI) are caught, naming the seed, cycle and signal; bad requests are clear errors that
//! Verilate nothing. (`verify` needs the `rtl` feature: without it these tests are not built.)
#![cfg(feature = "rtl")]

mod common;
use common::*;

/// `netmeas verify <core> --set … --bus <bus> --json` for the cores `which` of [`CORES`]: every run compares
/// cycles and finds no mismatch (the AXI flavour: with AXI4-Lite transactions completed).
fn round_trip(which: &[usize], bus: &str) {
    for (core, _, settings) in which.iter().map(|&k| &CORES[k]) {
        let mut args = vec!["verify", core, "--bus", bus, "--packets", "20000", "--seed", "11", "--json"];
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
            let axil = ["axil_writes", "axil_reads"].map(|k| r["coverage"][k].as_u64().unwrap_or(0));
            match bus {
                "axi" => assert!(axil.iter().all(|&n| n >= 5), "{core}: AXI4-Lite transactions {axil:?}"),
                _ => assert_eq!(axil, [0, 0], "{core}"),
            }
        }
        assert!(v["module"].as_str().unwrap().ends_with("_axi") == (bus == "axi"), "{v}");
        assert!(v["seconds_to_first_cycle"].as_f64().unwrap() > 0.0);
        let s = |k: &serde_json::Value| k.as_f64().unwrap_or(0.0);
        eprintln!(
            "[verify {core} {bus}] model cached {}, Verilated {:.1} s, compiled {:.1} s, first cycle after {:.1} s",
            v["model"]["cached"],
            s(&v["model"]["verilate_seconds"]),
            s(&v["model"]["compile_seconds"]),
            s(&v["seconds_to_first_cycle"])
        );
    }
}

#[test]
fn verify_new_configurations_of_fridge_finecomb_heavy_hitters() {
    round_trip(&[0, 1, 2], "axi");
}

#[test]
fn verify_new_configurations_of_reordering_ifpd_maple() {
    round_trip(&[3, 4, 5], "axi");
}

/// The native flavour (the core's own ports) of the two cores with the most ports.
#[test]
fn verify_new_configurations_native() {
    round_trip(&[0, 5], "native");
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
    let args = ["verify", "ifpd", "--build", "ifpd_d4", "--bus", "native", "--verilog", f, "--packets", "20000"];
    let e = error(&[&args[..], &["--seed", "5"]].concat());
    for says in ["differs from golden", "--seed 5", "first at cycle", "signal `rep_valid`"] {
        assert!(e.contains(says), "{says}: {e}");
    }
    // The native file without `--bus native`: refused before Verilating, with the hint.
    let e = error(&["verify", "ifpd", "--build", "ifpd_d4", "--verilog", f]);
    assert!(e.contains("no module ifpd_d4_axi") && e.contains("add --bus native"), "{e}");
}

/// The AXI flavour with its AXI4-Lite slave's write response stuck at SLVERR fails verification on the bus.
#[test]
fn verify_catches_a_broken_axi_wrapper() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("verify_broken_axi");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let o = netmeas(&["generate", "ifpd", "--build", "ifpd_d4", "--no-initial", "--out", d]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let file = dir.join("ifpd_d4_axi.v");
    let v = std::fs::read_to_string(&file).unwrap();
    let good = "        s_axil_bresp = b_resp$q;\n";
    assert_eq!(v.matches(good).count(), 1, "the line to break is not in ifpd_d4_axi.v once");
    std::fs::write(&file, v.replace(good, "        s_axil_bresp = 2'd2;\n")).unwrap();
    let f = file.to_str().unwrap();
    let e = error(&["verify", "ifpd", "--build", "ifpd_d4", "--verilog", f, "--packets", "20000", "--seed", "6"]);
    for says in ["ifpd_d4_axi differs from golden", "--seed 6", "first at cycle", "signal `s_axil_bresp`"] {
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
        (&["verify", "reordering", "--build", "ro_hy4"], "ro_hy4: netmeas verify has no runner for this build"),
        (&["verify", "ifpd", "--verilog", missing.to_str().unwrap()], "cannot read"),
        (&["verify", "ifpd", "--verilog", other.to_str().unwrap()], "no module ifpd_d4_axi (the configuration's top)"),
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
    let e = error(&["verify", "ifpd", "--bus", "native", "--verilog", ports.to_str().unwrap()]);
    assert!(e.contains("ports differ from the configuration's") && e.contains(" reset (1 bits)"), "{e}");
}
