//! The `netmeas` command line: the JSON contract of `run fridge`, and clear errors (non-zero exit, no
//! panic) for bad input.

mod common;
use common::*;
use std::process::Command;

#[test]
fn run_fridge_json_has_a_key_per_method_and_the_ground_truth() {
    let o = netmeas(&[
        "run",
        "fridge",
        "--samples",
        "20000",
        "--max-delay-ms",
        "10",
        "--seeds",
        "2",
        "--fridges",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    for method in ["fridge", "multi_fridge", "simple", "expiry"] {
        for key in ["p50_err", "p95_err", "p99_err", "max_err_5_95", "ks", "w1_log2", "samples"] {
            assert!(v[method][key].is_number(), "{method}.{key} in {v}");
        }
    }
    for key in ["p50", "p95", "p99"] {
        assert!(v["ground_truth"][key].as_f64().unwrap() > 0.0);
    }
    assert!(v["simple"]["max_err_5_95"].as_f64() > v["fridge"]["max_err_5_95"].as_f64());
    // The biased baseline is farther from the truth by the whole-CDF distances too.
    for key in ["ks", "w1_log2"] {
        assert!(v["simple"][key].as_f64() > v["fridge"][key].as_f64(), "{key} in {v}");
    }
}

/// `--sweep memory` gives a point per value, each the single run's JSON at that memory; a sweep's value and
/// the option it replaces together are an error.
#[test]
fn run_fridge_sweep_gives_a_summary_per_value() {
    let v = json(&[
        "run",
        "fridge",
        "--samples",
        "20000",
        "--max-delay-ms",
        "10",
        "--seeds",
        "1",
        "--sweep",
        "memory=256,1024",
        "--json",
    ]);
    assert_eq!(v["param"], "memory");
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 2, "{v}");
    for (p, m) in pts.iter().zip([256, 1024]) {
        assert_eq!(p["value"].as_f64(), Some(m as f64));
        assert_eq!(p["summary"]["memory"], m, "{p}");
        for method in ["fridge", "simple", "expiry"] {
            assert!(
                p["summary"][method]["max_err_5_95"].is_number() && p["summary"][method]["ks"].is_number(),
                "{method}: {p}"
            );
        }
    }
    let single = json(&[
        "run",
        "fridge",
        "--samples",
        "20000",
        "--max-delay-ms",
        "10",
        "--seeds",
        "1",
        "--memory",
        "1024",
        "--json",
    ]);
    assert_eq!(pts[1]["summary"]["fridge"], single["fridge"], "the sweep's point is the single run");
    for (args, says) in [
        (&["run", "fridge", "--sweep", "memory", "--memory", "512"][..], "--sweep memory and --memory together"),
        (&["run", "fridge", "--sweep", "memory=1000"], "power of two"),
        (&["run", "fridge", "--sweep", "p=0,0.5"], "(0, 1]"),
    ] {
        let e = error(args);
        assert!(e.contains(says), "{args:?}: {e}");
    }
}

#[test]
fn run_fridge_plots_png_and_svg() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_plot");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["cdf.png", "cdf.svg"] {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let o = netmeas(&[
            "run",
            "fridge",
            "--samples",
            "20000",
            "--max-delay-ms",
            "10",
            "--seeds",
            "1",
            "--plot",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let bytes = std::fs::read(&path).expect("the plot is written");
        if name.ends_with(".png") {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
            let r = png::Decoder::new(std::io::Cursor::new(&bytes[..])).read_info().expect("a PNG");
            assert_eq!((r.info().width, r.info().height), (1440, 880));
        } else {
            let svg = String::from_utf8(bytes).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains("ground truth") && svg.contains("expiry"));
        }
    }
    let o = netmeas(&["run", "fridge", "--plot", "x.pdf", "--seeds", "1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains(".svg") && err.contains(".png") && err.contains("x.pdf"), "{err}");
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    for args in [
        &["run", "fridge", "--p", "2"][..],
        &["run", "fridge", "--memory", "1000", "--samples", "1000", "--seeds", "1"],
        &["run", "fridge", "--trace", "/nonexistent.pcap"],
        &["run", "fridge", "--plot", "x.pdf", "--seeds", "1"],
        &["run", "fridge", "--engine", "fpga"],
        &["demo", "--transactions", "0"],
        &["frobnicate"],
    ] {
        let o = netmeas(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
}

#[test]
fn run_finecomb_json_has_the_issue_keys_per_method() {
    let o = netmeas(&["run", "finecomb", "--packets", "200000", "--seeds", "2", "--rho", "0.004", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let obj = v.as_object().unwrap();
    assert_eq!(obj.len(), 4, "{v}");
    for method in ["finecomb", "finecomb_nostash", "lda", "lda_plus"] {
        let m = v[method].as_object().unwrap_or_else(|| panic!("{method} in {v}"));
        assert_eq!(m.len(), 5, "{method}: {v}");
        for key in ["mean_delay_rel_err", "stddev_rel_err", "loss_rel_err", "useful_samples", "expected_useful_samples"]
        {
            assert!(m[key].is_number(), "{method}.{key} in {v}");
        }
    }
    // One method, four banks: the combination has no expected-sample formula, so that key is null.
    let o = netmeas(&[
        "run",
        "finecomb",
        "--packets",
        "200000",
        "--seeds",
        "1",
        "--banks",
        "4",
        "--method",
        "finecomb",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1, "{v}");
    assert!(v["finecomb"]["expected_useful_samples"].is_null() && v["finecomb"]["mean_delay_rel_err"].is_number());
}

#[test]
fn run_finecomb_bad_input_is_a_clear_error() {
    for (args, says) in [
        (&["run", "finecomb", "--loss", "1.5"][..], "--loss"),
        (&["run", "finecomb", "--rho", "2"], "--rho"),
        (&["run", "finecomb", "--stash", "many"], "--stash"),
        (&["run", "finecomb", "--banks", "3"], "--banks"),
        (&["run", "finecomb", "--buckets", "100", "--stash", "400"], "no buckets"),
        (&["run", "finecomb", "--method", "ldaa"], "error"),
        (&["run", "finecomb", "--reorder", "sideways"], "error"),
        (&["run", "finecomb", "--method", "lda,bogus"], "`bogus`"),
        (&["run", "finecomb", "--plot", "x.svg"], "add --sweep"),
        (&["run", "finecomb", "--sweep", "banks=1,4"], "rho, loss, buckets, lost"),
        (&["run", "finecomb", "--sweep", "lost", "--loss", "0.1"], "--sweep lost and --loss together"),
        (&["run", "finecomb", "--lost", "5", "--loss", "0.1"], "cannot be used with"),
        (&["run", "finecomb", "--lost", "5000000"], "--lost 5000000: must be below"),
        (&["run", "finecomb", "--sweep", "rho", "--rho", "0.1"], "--sweep rho and --rho together"),
        (&["run", "finecomb", "--sweep", "rho=4e-2..4e-6:5"], "0 < A < B"),
        (&["run", "finecomb", "--sweep", "rho=0.001,2"], "--sweep rho=2"),
        (&["run", "finecomb", "--sweep", "buckets=100.5"], "whole number"),
        (&["run", "finecomb", "--sweep", "rho", "--plot", "x.pdf"], ".svg or .png"),
        (&["run", "finecomb", "--sweep", "rho", "--plot", "/nonexistent/dir/x.svg"], "does not exist"),
        (&["figures", "--only", "fig99"], "no figure matches"),
        #[cfg(feature = "rtl")]
        (&["run", "finecomb", "--engine", "rtl", "--buckets", "20000"], "2^13 buckets"),
        #[cfg(not(feature = "rtl"))]
        (&["run", "finecomb", "--engine", "rtl"], "without the rtl feature"),
        #[cfg(not(feature = "rtl"))]
        (&["run", "fridge", "--engine", "rtl", "--seeds", "1"], "without the rtl feature"),
        #[cfg(not(feature = "rtl"))]
        (&["demo"], "without the rtl feature"),
        #[cfg(not(feature = "rtl"))]
        (&["bench"], "without the rtl feature"),
    ] {
        let o = netmeas(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `netmeas verilog` publishes each core's register map: the manifest lists it, the Markdown table and the C
/// header agree with it, and the header is valid C (compiled with the system's C compiler when there is one).
#[test]
fn verilog_writes_register_maps_as_markdown_c_and_manifest() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_regmap");
    let o = netmeas(&["verilog", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    for (top, code) in [("fridge_dp", "FRDG"), ("finecomb_rx", "FCMB")] {
        let t = manifest["tops"].as_array().unwrap().iter().find(|t| t["name"] == top).unwrap();
        let regs = t["registers"].as_array().unwrap();
        let id = regs.iter().find(|r| r["name"] == "core_id").unwrap();
        assert_eq!(
            (id["addr"].as_u64(), id["reset"].as_u64()),
            (Some(0xfe), Some(u32::from_be_bytes(*code.as_bytes().first_chunk().unwrap()) as u64))
        );
        let md = std::fs::read_to_string(dir.join(format!("{top}.regs.md"))).unwrap();
        let h = std::fs::read_to_string(dir.join(format!("{top}_regs.h"))).unwrap();
        for r in regs {
            let (name, addr) = (r["name"].as_str().unwrap(), r["addr"].as_u64().unwrap());
            let row = format!("| 0x{addr:02x} | 0x{:03x} | `{name}` |", 4 * addr);
            assert!(md.contains(&row), "{top}: {name} missing from the table");
            let define = format!("#define NM_{}_{}_ADDR 0x{addr:02x}u", top.to_uppercase(), name.to_uppercase());
            assert!(h.contains(&define), "{top}: {define} missing from the header");
        }
        let c = dir.join(format!("{top}_check.c"));
        std::fs::write(
            &c,
            format!(
                "#include \"{top}_regs.h\"\nint main(void) {{ return NM_{}_CORE_ID_ADDR != 0xfe; }}\n",
                top.to_uppercase()
            ),
        )
        .unwrap();
        if let Ok(cc) =
            Command::new("cc").arg("-fsyntax-only").arg("-Wall").arg("-Werror").arg(&c).current_dir(&dir).output()
        {
            assert!(cc.status.success(), "{top}_regs.h is not valid C: {}", String::from_utf8_lossy(&cc.stderr));
        }
    }
}

/// Every documented `--memory` works: at the top of the range (65536) the doubled-memory expiry row, which
/// would need 2^17 entries, is left out (JSON null) instead of failing the run.
#[test]
fn run_fridge_at_the_largest_documented_memory() {
    let o = netmeas(&["run", "fridge", "--memory", "65536", "--samples", "5000", "--seeds", "1", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert!(v["expiry_2x_memory"].is_null() && v["fridge"]["max_err_5_95"].is_number(), "{v}");
}

/// `netmeas generate`: the AXI flavour of a core is a complete IP — Verilog with the wrapper, slave and core,
/// a manifest whose streams and registers describe it, a FuseSoC core file, and a C header that compiles
/// and whose offsets, addresses and reset values (printed by a compiled program) equal the manifest's
/// register map, which comes from the golden model.
#[test]
fn generate_writes_axi_ip_whose_c_header_matches_the_register_map() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_generate");
    let _ = std::fs::remove_dir_all(&dir);
    let o = netmeas(&["generate", "ifpd", "--build", "ifpd_d2", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = std::fs::read_to_string(dir.join("ifpd_d2_axi.v")).unwrap();
    for module in ["module ifpd_d2_axi(", "module ifpd_d2_axil(", "module ifpd_d2("] {
        assert!(v.contains(module), "{module} missing");
    }
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("ifpd_d2_axi.json")).unwrap()).unwrap();
    assert_eq!((m["module"].as_str(), m["bus"].as_str()), (Some("ifpd_d2_axi"), Some("axi")));
    let streams: Vec<&str> = m["streams"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(streams, ["in", "res", "rep"]);
    let ports: Vec<&str> = m["ports"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    for p in ["clk", "rst", "s_axil_awaddr", "s_axil_rresp", "s_axis_in_tdata", "s_axis_in_tready", "m_axis_rep_tlast"]
    {
        assert!(ports.contains(&p), "{p} missing from {ports:?}");
    }
    assert!(std::fs::read_to_string(dir.join("ifpd_d2_axi.core")).unwrap().contains("toplevel: ifpd_d2_axi"));
    // The header, compiled and run: every register's three constants as the C compiler sees them.
    let regs = m["registers"].as_array().unwrap();
    let mut prog = String::from("#include <stdio.h>\n#include \"ifpd_d2_regs.h\"\nint main(void) {\n");
    for r in regs {
        let n = format!("NM_IFPD_D2_{}", r["name"].as_str().unwrap().to_uppercase());
        prog += &format!("  printf(\"%u %u\\n\", (unsigned){n}_ADDR, (unsigned){n}_OFFSET);\n");
        if !r["reset"].is_null() {
            prog += &format!("  printf(\"reset %u\\n\", (unsigned){n}_RESET);\n");
        }
    }
    prog += "  return 0;\n}\n";
    std::fs::write(dir.join("check.c"), prog).unwrap();
    let cc = Command::new("cc").args(["-Wall", "-Werror", "-o", "check", "check.c"]).current_dir(&dir).output();
    let Ok(cc) = cc else {
        eprintln!("no C compiler: the header is checked by text only");
        return;
    };
    assert!(cc.status.success(), "ifpd_d2_regs.h: {}", String::from_utf8_lossy(&cc.stderr));
    let out = Command::new(dir.join("check")).output().unwrap();
    let mut want = String::new();
    for r in regs {
        want += &format!("{} {}\n", r["addr"], r["offset"]);
        assert_eq!(r["offset"].as_u64(), r["addr"].as_u64().map(|a| 4 * a));
        if !r["reset"].is_null() {
            want += &format!("reset {}\n", r["reset"]);
        }
    }
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
}

/// The SystemRDL file of `netmeas generate` compiles with the reference SystemRDL compiler
/// (systemrdl-compiler, which scripts/setup.sh installs) and elaborates to the register map of the manifest:
/// every register's name, byte offset, reset value and software access.
#[test]
fn generate_writes_systemrdl_that_elaborates_to_the_register_map() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_generate_rdl");
    let _ = std::fs::remove_dir_all(&dir);
    let o = netmeas(&["generate", "maple", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("maple_k8_axi.json")).unwrap()).unwrap();
    let script = "import sys\nfrom systemrdl import RDLCompiler\nc = RDLCompiler()\nc.compile_file(sys.argv[1])\n\
                  for r in c.elaborate().top.registers():\n    f = r.get_child_by_name('value')\n    \
                  print(r.inst_name, r.address_offset, f.get_property('reset'), int(f.is_sw_writable))\n";
    let out = Command::new("python3").arg("-c").arg(script).arg(dir.join("maple_k8.rdl")).output();
    let out = out.expect("python3 runs (scripts/setup.sh installs what this test needs)");
    assert!(
        out.status.success(),
        "the SystemRDL compiler rejected maple_k8.rdl, or is missing (pip install systemrdl-compiler==1.33.0): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut want = String::new();
    for r in m["registers"].as_array().unwrap() {
        let reset = r["reset"].as_u64().map_or("None".to_string(), |v| v.to_string());
        let writable = (r["access"] == "rw") as u8;
        want += &format!("{} {} {reset} {writable}\n", r["name"].as_str().unwrap(), r["offset"]);
    }
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
}

/// A top with three CSR ports (the reordering hybrid) gets one AXI4-Lite slave and one register map per
/// port: the manifest lists each map under its bus, and the three C headers compile together (distinct
/// guards and names).
#[test]
fn generate_hybrid_axi_has_a_slave_and_a_map_per_csr_port() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_generate_hybrid");
    let _ = std::fs::remove_dir_all(&dir);
    let o = netmeas(&["generate", "reordering", "--build", "ro_hy", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = std::fs::read_to_string(dir.join("ro_hy_axi.v")).unwrap();
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("ro_hy_axi.json")).unwrap()).unwrap();
    let ports: Vec<&str> = m["ports"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    let mut include = String::new();
    for p in ["smp", "side", "hh"] {
        assert!(v.contains(&format!("module ro_hy_{p}_axil(")), "{p}: no slave module");
        assert!(ports.contains(&format!("s_axil_{p}_awaddr").as_str()), "{p}: no bus in {ports:?}");
        let regs = m["csr_ports"][format!("s_axil_{p}")].as_array().unwrap_or_else(|| panic!("{p}: no map"));
        assert!(regs.iter().any(|r| r["name"] == "core_id"), "{p}: {regs:?}");
        for f in [format!("ro_hy_{p}.regs.md"), format!("ro_hy_{p}.rdl")] {
            assert!(dir.join(&f).is_file(), "{f} missing");
        }
        include += &format!("#include \"ro_hy_{p}_regs.h\"\n");
    }
    let c = dir.join("hybrid_check.c");
    std::fs::write(&c, format!("{include}int main(void) {{ return NM_RO_HY_HH_CORE_ID_ADDR != 0xfe; }}\n")).unwrap();
    if let Ok(cc) = Command::new("cc").args(["-fsyntax-only", "-Wall", "-Werror"]).arg(&c).current_dir(&dir).output() {
        assert!(cc.status.success(), "the hybrid's headers: {}", String::from_utf8_lossy(&cc.stderr));
    }
}

/// A bad request of `netmeas generate` is a clear error and writes nothing.
#[test]
fn generate_bad_requests_write_nothing() {
    let base = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_generate_bad");
    let _ = std::fs::remove_dir_all(&base);
    for (args, says) in [
        (vec!["generate", "nosuch"], "fridge"),
        (vec!["generate", "fridge", "--build", "fridge_x"], "fridge_dp"),
        (vec!["generate", "maple", "--bus", "pci"], "possible values"),
        (vec!["generate", "reordering", "--build", "ro_hy", "--set", "addr_bits=5"], "cannot be used with"),
    ] {
        let out = base.join(args[1]);
        let mut a = args.clone();
        a.extend(["--out", out.to_str().unwrap()]);
        let o = netmeas(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && !err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}
