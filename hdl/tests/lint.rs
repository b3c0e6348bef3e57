//! Every emitted top passes `verilator --lint-only -Wall` with only the waivers of hdl/lint/waivers.vlt.

use std::process::Command;

#[test]
fn all_tops_lint_clean_with_verilator_wall() {
    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    let waivers = concat!(env!("CARGO_MANIFEST_DIR"), "/lint/waivers.vlt");
    let dir = std::env::temp_dir().join(format!("netmeas-lint-{}", std::process::id()));
    for initial in [true, false] {
        let tops = hdl::emit::all_tops(initial, true).expect("Verilog generation");
        hdl::emit::write_all(&dir, &tops).expect("write Verilog");
        for t in &tops {
            let out = Command::new(&verilator)
                .args(["--lint-only", "-Wall", waivers, "--top-module", &t.name])
                .arg(dir.join(format!("{}.v", t.name)))
                .output()
                .unwrap_or_else(|e| panic!("cannot run {verilator} ({e}); install with: apt-get install -y verilator"));
            let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && !text.contains("%Warning") && !text.contains("%Error"),
                "lint of {} (initial values: {initial}) failed:\n{text}",
                t.name
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn manifest_lists_every_top_with_ports() {
    let tops = hdl::emit::all_tops(true, false).expect("Verilog generation");
    assert!(tops.iter().all(|t| !t.test_only));
    for t in &tops {
        assert!(t.ports.iter().any(|p| p.name == "clock" && p.dir == "input"), "{} has a clock", t.name);
        assert!(t.verilog.contains(&format!("module {}(", t.name)));
    }
    let h = tops.iter().find(|t| t.name == "hash128").unwrap();
    let key = h.ports.iter().find(|p| p.name == "key").unwrap();
    assert_eq!((key.dir.as_str(), key.width), ("input", 128));
}
