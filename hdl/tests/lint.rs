//! Every emitted top passes `verilator --lint-only -Wall` with only the waivers of hdl/lint/waivers.vlt,
//! with and without initial values (synthesis and co-simulation flavours).

#[test]
fn all_tops_lint_clean_with_verilator_wall() {
    // Removed when dropped, also when an assertion below fails.
    let tmp = tempfile::Builder::new().prefix("netmeas-lint-").tempdir().expect("a temporary directory");
    let dir = tmp.path();
    for initial in [true, false] {
        let tops = hdl::emit::all_tops(initial, true).expect("Verilog generation");
        hdl::emit::write_all(dir, &tops).expect("write Verilog");
        let reports = hdl::lint::lint_tops(dir, &tops).expect("Verilator runs");
        assert_eq!(reports.len(), tops.len());
        for r in reports {
            assert!(r.clean, "lint of {} (initial values: {initial}) failed:\n{}", r.top, r.messages);
        }
    }
}

/// The gate is not vacuous: a width mismatch in an otherwise valid file is reported.
#[test]
fn lint_gate_reports_a_width_warning() {
    let tmp = tempfile::Builder::new().prefix("netmeas-lint-neg-").tempdir().unwrap();
    let dir = tmp.path();
    let bad = "module bad(input wire clock, input wire [3:0] a, output reg [7:0] q);\n\
               always @(posedge clock) q <= a + 32'h1;\nendmodule\n";
    std::fs::write(dir.join("bad.v"), bad).unwrap();
    let mut top = hdl::emit::all_tops(true, false).unwrap().remove(0);
    top.name = "bad".into();
    let r = hdl::lint::lint_tops(dir, &[top]).expect("Verilator runs").remove(0);
    assert!(!r.clean && r.messages.contains("WIDTH"), "{}", r.messages);
}

#[test]
fn manifest_lists_every_top_with_ports() {
    let tops = hdl::emit::all_tops(true, false).expect("Verilog generation");
    assert!(tops.iter().all(|t| !t.test_only));
    for t in &tops {
        assert!(t.clock().is_some(), "{} has a clock", t.name);
        assert!(t.verilog.contains(&format!("module {}(", t.name)));
    }
    let h = tops.iter().find(|t| t.name == "hash128").unwrap();
    let key = h.ports.iter().find(|p| p.name == "key").unwrap();
    assert_eq!((key.dir.as_str(), key.width), ("input", 128));
}

/// The `Sram` zero-init loop is for simulators only: Verilator's preprocessor keeps it, and drops it when
/// `SYNTHESIS` is defined as Yosys defines it (its frontend would unroll a 2^16-word loop for minutes);
/// the registers' initial values stay either way.
#[test]
fn sram_zero_init_loop_is_hidden_from_synthesis() {
    let cfg =
        hdl::synth_tops::configs(Some("rmw"), &["dp_a16_w32".to_string()]).expect("the 2^16-word RMW top").remove(0);
    let tmp = tempfile::Builder::new().prefix("netmeas-sram-init-").tempdir().unwrap();
    let file = tmp.path().join(format!("{}.v", cfg.top.name));
    std::fs::write(&file, &cfg.top.verilog).unwrap();
    let preprocess = |defines: &[&str]| {
        let o = std::process::Command::new("verilator")
            .arg("-E")
            .args(defines)
            .arg(&file)
            .output()
            .expect("Verilator runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let (sim, synth) = (preprocess(&[]), preprocess(&["-DSYNTHESIS"]));
    assert!(sim.contains("mem[i] = 0"), "simulators zero the array");
    assert!(!synth.contains("mem[i] = 0") && !synth.contains("integer i"), "synthesis gets no loop");
    for v in [&sim, &synth] {
        assert!(v.contains("rdata = 0") && v.contains("sweep_addr = 0"), "register initial values stay");
    }
}

/// The AXI flavour (`netmeas generate <core> --bus axi`) of every build with a register map is
/// `verilator -Wall` clean under the same waivers: the wrapper, the AXI4-Lite slave(s) and the core together
/// (the reordering hybrids: three slaves).
#[test]
fn axi_flavours_lint_clean() {
    let tmp = tempfile::Builder::new().prefix("netmeas-lint-axi-").tempdir().expect("a temporary directory");
    let dir = tmp.path();
    let mut tops = Vec::new();
    // `csr` and `axil_csr` are the bank's own test tops (no core `csr_*` port); `axi` lists AXI flavours
    // (linted as emitted tops).
    for core in hdl::registry::CORES.iter().filter(|c| !["csr", "axil_csr", "axi"].contains(&c.name)) {
        for b in hdl::ip::builds(core.name).expect("the core's builds") {
            if b.csr.is_none() && b.csr_ports.is_empty() {
                continue;
            }
            let ip = hdl::ip::generate(&b, hdl::ip::Bus::Axi, true).expect("the AXI flavour generates");
            std::fs::write(dir.join(format!("{}.v", ip.module)), &ip.verilog).unwrap();
            tops.push(hdl::emit::TopInfo { name: ip.module.clone(), ..ip.core.clone() });
        }
    }
    assert!(tops.len() >= 17, "only {} AXI flavours", tops.len());
    assert!(tops.iter().any(|t| t.name == "ro_hy_axi"), "the hybrid's AXI flavour is linted");
    for r in hdl::lint::lint_tops(dir, &tops).expect("Verilator runs") {
        assert!(r.clean, "lint of {} failed:\n{}", r.top, r.messages);
    }
}
