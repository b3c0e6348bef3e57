//! `netmeas generate <core> --set name=value`: any configuration of every core, through the generator
//! crates (`hdl::custom`). The default parameters reproduce the registered default build byte for byte; a
//! configuration of each core that no build registers is generated and lints clean; a bad parameter is a
//! clear error that compiles and writes nothing.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every file of a directory: `(name, contents)`, sorted.
fn files(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    v.sort();
    v
}

/// The default parameters, named like the default build, give exactly the files of the registered build:
/// each core's parameters map to its configuration and its build macro as the registry's own builds do.
#[test]
fn generate_with_default_parameters_equals_the_registered_default_build() {
    for (core, build, _) in CORES {
        let (a, b) = (out_dir(&format!("gen_reg_{core}")), out_dir(&format!("gen_any_{core}")));
        let o = netmeas(&["generate", core, "--out", a.to_str().unwrap()]);
        assert!(o.status.success(), "{core}: {}", String::from_utf8_lossy(&o.stderr));
        let o = netmeas(&["generate", core, "--name", build, "--out", b.to_str().unwrap()]);
        assert!(o.status.success(), "{core} --name {build}: {}", String::from_utf8_lossy(&o.stderr));
        let (fa, fb) = (files(&a), files(&b));
        assert_eq!(fa.iter().map(|f| &f.0).collect::<Vec<_>>(), fb.iter().map(|f| &f.0).collect::<Vec<_>>());
        for ((name, x), (_, y)) in fa.iter().zip(&fb) {
            assert!(x == y, "{core}: {name} differs between --build {build} and the same parameters");
        }
    }
}

/// A configuration of every core that no build registers: generated with the asked-for parameters in its
/// manifest, its AXI flavour `verilator -Wall` clean under the project's waivers (with the `rtl` feature).
#[test]
fn generate_any_configuration_of_every_core_lints_clean() {
    let dir = out_dir("gen_any_config");
    let mut tops = Vec::new();
    for (core, _, settings) in CORES {
        let name = format!("{core}_custom");
        let mut args = vec!["generate", core, "--name", &name, "--out", dir.to_str().unwrap()];
        for s in *settings {
            args.extend(["--set", s]);
        }
        let o = netmeas(&args);
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(format!("{name}_axi.json"))).unwrap()).unwrap();
        assert_eq!(m["module"], format!("{name}_axi"));
        assert_eq!(m["initiation_interval"], 1, "{core}");
        assert!(m["memory_bits"].as_u64().unwrap() > 0, "{core}");
        tops.push((dir.join(format!("{name}_axi.v")), format!("{name}_axi"), m));
    }
    // The settings reached the configuration (the manifest's parameters are the core's configuration).
    let p = |i: usize, k: &str| tops[i].2["params"][k].clone();
    assert_eq!(p(0, "addr_bits"), serde_json::json!([12, 11, 10, 10]));
    assert_eq!((p(0, "ts_bits"), p(0, "tally_bins_per_octave")), (24.into(), 8.into()));
    assert_eq!(p(1, "shape")["banks"].as_array().map(Vec::len), Some(2));
    assert_eq!(p(1, "shape")["role"], "Receiver");
    assert_eq!((p(2, "rows"), p(2, "key_bits")), (3.into(), 128.into()));
    assert_eq!((p(3, "addr_bits"), p(3, "o_bits")), (8.into(), 6.into()));
    assert_eq!((p(4, "buckets"), p(4, "bf_bits")), (64.into(), 128.into()));
    assert_eq!((p(5, "store")["hashes"].clone(), p(5, "store")["word_bits"].clone()), (2.into(), 16.into()));
    // Lint (Verilator): not in the run without the `rtl` feature, which proves the control plane needs none.
    if cfg!(feature = "rtl") {
        let files: Vec<(PathBuf, &str)> = tops.iter().map(|(f, t, _)| (f.clone(), t.as_str())).collect();
        for r in hdl::lint::lint_files(&files).expect("Verilator runs") {
            assert!(r.clean, "lint of {} failed:\n{}", r.top, r.messages);
        }
    }
}

/// A bad parameter is an error naming it (and its range), before anything is compiled or written.
#[test]
fn generate_bad_parameters_write_nothing() {
    let base = out_dir("gen_bad");
    let cases: &[(&[&str], &str)] = &[
        (&["fridge", "--set", "ts_bits=40"], "ts_bits = 40 is outside 8..=32"),
        (&["fridge", "--set", "addr_bits=12,17"], "= 17 is outside 2..=16"),
        (&["fridge", "--set", "ports=Triple"], "parameter ports = Triple"),
        (&["fridge", "--set", "fridges=2"], "no parameter `fridges`; its parameters: addr_bits"),
        (&["fridge", "--set", "ts_bits"], "name=value"),
        (&["fridge", "--name", "9lives"], "module name"),
        (&["fridge", "--build", "fridge_sp", "--set", "ts_bits=24"], "cannot be used with"),
        (&["finecomb", "--set", "banks=9"], "number of banks = 9 is outside 1..=8"),
        (&["finecomb", "--set", "bucket_addr_bits=17"], "bucket address bits = 17 is outside 1..=16"),
        (&["heavy_hitters", "--set", "rows=5"], "rows = 5 is outside 1..=4"),
        (&["heavy_hitters", "--set", "key_bits=x"], "parameter key_bits = x"),
        (&["reordering", "--set", "o_bits=20"], "o_bits (out-of-order counter, at most n_bits) = 20"),
        (&["ifpd", "--set", "buckets=100"], "buckets = 100 is not a power of two"),
        (&["ifpd", "--set", "rows=0"], "rows (d) = 0 is outside 1..=8"),
        (&["ifpd", "--set", "bf_bits=0"], "RTL builds have a filter"),
        (&["ifpd", "--name", "module"], "not a Verilog keyword"),
        (&["maple", "--set", "word_log2=7"], "word_log2 = 7 is outside 3..=6"),
        (&["maple", "--set", "centers=65"], "centers = 65 is outside 1..=64"),
        (&["finecomb", "--set", "stash_depth=3"], "stash_depth = 3 needs a stash"),
        (&["fifo", "--set", "a=1"], "no generation parameters"),
    ];
    for (args, says) in cases {
        let out = base.join(args[0]);
        let mut a = vec!["generate"];
        a.extend(args.iter());
        a.extend(["--out", out.to_str().unwrap()]);
        let e = error(&a);
        assert!(e.contains(says), "{a:?}: {e}");
        assert!(!e.contains("building the generator"), "{a:?} compiled a generator: {e}");
        assert!(!out.exists(), "{a:?} wrote {}", out.display());
    }
}

/// `--params` lists every parameter with its default (the default build's) and meaning.
#[test]
fn generate_params_lists_the_defaults() {
    let v = json(&["generate", "maple", "--params", "--json"]);
    let names: Vec<&str> = v.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    let want = ["key_bits", "hashes", "addr_bits", "word_log2", "centers", "sample_fifo_bits", "record_fifo_bits"];
    assert_eq!(names, [&want[..], &["registered_ram"]].concat());
    assert_eq!(v[2]["default"], 6, "maple_k8 has 2^6 words per segment");
    assert!(v[0]["meaning"].as_str().unwrap().contains("8..=128"));
}

/// The register maps of every core's default build committed in docs/regs (linked from the README) are what
/// `netmeas generate <core> --regs-only` writes today — and the header parser's.
#[test]
fn committed_register_maps_are_current() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/regs");
    for (core, build) in CORES.iter().map(|c| (c.0, c.1)).chain([("parser", "parser_d8")]) {
        let dir = out_dir(&format!("gen_regs_{core}"));
        let o = netmeas(&["generate", core, "--regs-only", "--out", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{core}: {}", String::from_utf8_lossy(&o.stderr));
        let written = files(&dir);
        let names: Vec<&str> = written.iter().map(|f| f.0.as_str()).collect();
        let want = [format!("{build}.rdl"), format!("{build}.regs.md"), format!("{build}_regs.h")];
        assert_eq!(names, want, "{core}: --regs-only wrote other files");
        for (name, text) in &written {
            let committed = std::fs::read_to_string(docs.join(name)).unwrap_or_default();
            assert!(
                committed == *text,
                "docs/regs/{name} is not what netmeas generates today; regenerate: \
                 cargo run --release -p sim -- generate {core} --regs-only --out docs/regs"
            );
        }
    }
}
