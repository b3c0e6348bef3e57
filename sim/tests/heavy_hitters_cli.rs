//! `netmeas run heavy-hitters`: the JSON contract of the theorem setting and of the stream experiments, the
//! plots, and clear errors for bad input.

mod common;
use common::*;

#[test]
fn theorem_json_has_probability_and_quantiles_per_method_and_order() {
    let v = json(&["run", "heavy-hitters", "--k", "16", "--f", "50", "--runs", "60", "--json"]);
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 4 * 5, "4 methods × 5 orders");
    let row = |m: &str, o: &str| rows.iter().find(|r| r["method"] == m && r["order"] == o).unwrap().clone();
    for m in ["ss", "rap", "dway", "precision"] {
        for o in ["random", "bunched", "spread", "light-first", "adversarial"] {
            let r = row(m, o);
            let p = r["theorem_probability"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&p), "{r}");
            let q = &r["stored_fraction"];
            let (min, p5, p50, p95) = (q["min"].as_f64(), q["p5"].as_f64(), q["p50"].as_f64(), q["p95"].as_f64());
            assert!(min <= p5 && p5 <= p50 && p50 <= p95 && p95 <= Some(1.0), "{r}");
            assert_eq!(r["runs"], 60);
        }
    }
    // RAP keeps the heavies in a random order; SpaceSaving loses every heavy to the 80 lights at the end of the
    // adversarial order (it always admits, and every light evicts the minimum — a heavy).
    assert!(row("rap", "random")["theorem_probability"].as_f64().unwrap() >= 0.7);
    assert_eq!(row("ss", "adversarial")["stored_fraction"]["p95"].as_f64(), Some(0.0));
    assert_eq!(row("dway", "random")["buckets"], 16);
    assert_eq!(row("precision", "random")["admission"], "pow2");
}

#[test]
fn zipf_json_has_topk_metrics_per_memory_and_plots() {
    let dir = std::env::temp_dir().join(format!("netmeas-hh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plot = dir.join("recall.svg");
    let args = [
        "run",
        "heavy-hitters",
        "--stream",
        "zipf",
        "--alpha",
        "1.2",
        "--distinct",
        "5000",
        "--packets",
        "50000",
        "--k",
        "16",
        "--buckets",
        "32,256",
        "--seeds",
        "2",
        "--json",
        "--plot",
    ];
    let v = json(&[&args[..], &[plot.to_str().unwrap()]].concat());
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 2 * 4);
    for r in rows {
        for key in ["recall", "precision", "are"] {
            assert!(r[key].as_f64().is_some_and(|x| (0.0..=1.0).contains(&x)), "{key} in {r}");
        }
    }
    // With 16× the top-k in memory, SpaceSaving finds the top-16 of a Zipf(1.2) stream.
    let ss = rows.iter().find(|r| r["method"] == "ss" && r["memory"] == 256).unwrap();
    assert!(ss["recall"].as_f64() >= Some(0.95), "{ss}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("recall") && svg.contains("precision"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn capture_flows_run() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lo_eth.pcap");
    let v = json(&[
        "run",
        "heavy-hitters",
        "--stream",
        "capture",
        "--file",
        file,
        "--k",
        "4",
        "--buckets",
        "16",
        "--seeds",
        "1",
        "--json",
    ]);
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r["packets"].as_f64() > Some(10.0) && r["recall"].as_f64().is_some()));
}

/// `--engine rtl` runs the default theorem setting (64 buckets in 2 rows: build hh_d2) on the Verilated core,
/// which must give exactly golden's stored fractions; a size without a build is a clear error listing the
/// builds.
#[test]
fn rtl_engine_runs_the_core_or_says_why_not() {
    let args = ["run", "heavy-hitters", "--runs", "4", "--method", "dway,precision", "--json"];
    let no_build = ["run", "heavy-hitters", "--runs", "1", "--engine", "rtl", "--buckets", "256"];
    if cfg!(feature = "rtl") {
        let golden = json(&args);
        let rtl = json(&[&args[..], &["--engine", "rtl"]].concat());
        let fractions = |v: &serde_json::Value| -> Vec<String> {
            v["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| format!("{} {} {}", r["method"], r["order"], r["stored_fraction"]))
                .collect()
        };
        assert_eq!(fractions(&golden), fractions(&rtl));
        let o = netmeas(&no_build);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains("no RTL build") && err.contains("hh_d2 (2 × 32 buckets"), "{err}");
    } else {
        let o = netmeas(&no_build);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains("without the rtl feature"), "{err}");
    }
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    for (args, says) in [
        (&["--stream", "zipf", "--epsilon", "0.2"][..], "--epsilon"),
        (&["--alpha", "2"], "--alpha"),
        (&["--buckets", "0"], "--buckets"),
        (&["--rows", "5", "--runs", "1"], "--rows"),
        (&["--buckets", "6", "--method", "dway", "--runs", "1"], "per row"),
        (&["--stream", "capture"], "--file"),
        (&["--stream", "capture", "--file", "/nonexistent.pcap"], "nonexistent"),
        (&["--order", "sideways"], "sideways"),
        (&["--sweep", "q=1,2"], "--sweep"),
        (&["--sweep", "epsilon=0.1", "--epsilon", "0.2"], "--epsilon"),
        (&["--method", "count-min"], "count-min"),
        (&["--admission", "exact", "--engine", "rtl"], "exact"),
        (&["--stream", "zipf", "--alpha=-1"], "--alpha"),
        (&["--k", "0"], "--k"),
        (&["--f", "0"], "--f"),
        (&["--epsilon=-0.5"], "--epsilon"),
        (&["--plot", "x.pdf"], "x.pdf"),
        (&["--key-bits", "200"], "--key-bits"),
        (&["--key-bits", "6", "--runs", "1"], "do not fit"),
    ] {
        let o = netmeas(&[&["run", "heavy-hitters"][..], args].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert!(err.contains("error") && err.contains(says), "{args:?}: {err}");
    }
}
