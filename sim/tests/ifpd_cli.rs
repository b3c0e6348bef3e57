//! `netmeas run ifpd`: the JSON contract (a key per method), the sweeps and their figure, clear errors for bad
//! input and for `--engine rtl` at a size without a build, the RTL engine at the built size, and the shared
//! capture.

mod common;
use common::*;

const METHODS: [&str; 3] = ["ifpd", "cm", "cm-bf"];

#[test]
fn json_has_a_key_per_method_with_the_papers_metrics() {
    let v = json(&["run", "ifpd", "--packets", "50000", "--memory-kb", "30", "--seeds", "2", "--json"]);
    for m in METHODS {
        let r = &v[m];
        for k in ["precision", "recall", "f1", "rel_err"] {
            let x = r[k].as_f64().unwrap_or_else(|| panic!("{m}.{k}: {r}"));
            assert!((0.0..=1.0).contains(&x), "{m}.{k} = {x}");
        }
        assert!(r["reported"].as_f64().unwrap() > 0.0 && r["true_high"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["memory_bits"].as_u64().unwrap() <= 30 * 8192);
        assert_eq!(r, &v["points"][0][m]);
    }
    // All methods see the same traces; the sketch beats CM's precision and CM-BF's recall.
    assert_eq!(v["ifpd"]["true_high"], v["cm"]["true_high"]);
    assert!(v["ifpd"]["precision"].as_f64() > v["cm"]["precision"].as_f64(), "{v}");
    assert!(v["ifpd"]["recall"].as_f64() > v["cm-bf"]["recall"].as_f64(), "{v}");
    assert_eq!(v["trace"]["rows"].as_array().unwrap().len(), 7);
    assert_eq!(v["setting"]["engine"], "golden");
}

#[test]
fn sweeps_give_the_figures_axes_and_plot() {
    let dir = std::env::temp_dir().join(format!("netmeas-ifpd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("fig5.svg");
    let args = ["run", "ifpd", "--packets", "20000", "--memory-kb", "15", "--seeds", "1", "--sweep", "threshold"];
    let v = json(&[&args[..], &["--json", "--plot", svg.to_str().unwrap()]].concat());
    let pts = v["points"].as_array().unwrap();
    let th: Vec<f64> = pts.iter().map(|p| p["threshold_ms"].as_f64().unwrap()).collect();
    assert_eq!(th, vec![200.0, 300.0, 400.0, 500.0, 600.0, 700.0]);
    assert!(v.get("ifpd").is_none(), "a sweep has its results in points only");
    // Higher thresholds: fewer true high packets.
    let high: Vec<f64> = pts.iter().map(|p| p["cm"]["true_high"].as_f64().unwrap()).collect();
    assert!(high.windows(2).all(|w| w[0] >= w[1]) && high[0] > high[5], "{high:?}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("cm-bf") && text.contains("recall"));
    let v =
        json(&["run", "ifpd", "--packets", "20000", "--seeds", "1", "--sweep", "memory", "--method", "ifpd", "--json"]);
    let mem: Vec<f64> = v["points"].as_array().unwrap().iter().map(|p| p["memory_kb"].as_f64().unwrap()).collect();
    assert_eq!(mem, vec![100.0, 200.0, 300.0, 400.0, 500.0, 600.0]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_input_and_the_rtl_engine_are_clear_errors() {
    let r = |extra: &[&str]| {
        let mut a = vec!["run", "ifpd", "--packets", "5000", "--seeds", "1"];
        a.extend_from_slice(extra);
        error(&a)
    };
    let rtl = r(&["--engine", "rtl"]);
    assert!(
        (rtl.contains("no RTL build") && rtl.contains("ifpd_d1")) || rtl.contains("without the rtl feature"),
        "{rtl}"
    );
    assert!(r(&["--method", "hashmap"]).contains("--method"));
    assert!(r(&["--memory-kb", "10,x"]).contains("--memory-kb"));
    assert!(r(&["--memory-kb", "0.01"]).contains("buckets"));
    assert!(r(&["--threshold-ms=-5"]).contains("--threshold-ms"));
    assert!(r(&["--rows", "9"]).contains("rows"));
    assert!(r(&["--bf-share", "1.0"]).contains("--bf-share"));
    assert!(r(&["--packets", "10"]).contains("--packets"));
    assert!(r(&["--sweep", "threshold", "--threshold-ms", "300"]).contains("drop --threshold-ms"));
    assert!(r(&["--plot", "fig.pdf"]).contains("--plot"));
    assert!(r(&["--trace", "/nonexistent.pcap"]).contains("/nonexistent.pcap"));
}

#[test]
fn the_shared_capture_runs() {
    if !std::path::Path::new(CAPTURE_A).exists() {
        eprintln!("skipped: {CAPTURE_A} not present");
        return;
    }
    let v = json(&[
        "run",
        "ifpd",
        "--trace",
        CAPTURE_A,
        "--memory-kb",
        "64",
        "--threshold-ms",
        "50",
        "--seeds",
        "1",
        "--json",
    ]);
    // 510 591 frames, all IPv4 TCP (README); both directions of ~3 680 connections.
    assert_eq!(v["trace"]["packets"], 510_591);
    assert!(v["trace"]["flows"].as_u64().unwrap() > 7000, "{}", v["trace"]);
    for m in METHODS {
        let p = v[m]["precision"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{m}: {}", v[m]);
    }
}

/// `--engine rtl` at the shape of the co-simulated build ifpd_d1 (one row of 32 buckets, the experiment's
/// widths) gives the golden engine's numbers.
#[cfg(feature = "rtl")]
#[test]
fn rtl_engine_at_the_built_size_equals_golden() {
    let args = ["run", "ifpd", "--packets", "20000", "--seeds", "2", "--method", "ifpd", "--rows", "1"];
    let args = [&args[..], &["--memory-kb", "0.1875", "--threshold-ms", "100", "--json"]].concat();
    let rtl = json(&[&args[..], &["--engine", "rtl"]].concat());
    let gold = json(&args);
    assert_eq!(rtl["setting"]["engine"], "rtl");
    assert!(rtl["ifpd"]["reported"].as_f64().unwrap() > 0.0, "{rtl}");
    assert_eq!(rtl["ifpd"], gold["ifpd"]);
}
