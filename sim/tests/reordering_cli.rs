//! `netmeas run reordering`: the JSON contract on synthetic traffic, the figure, clear errors for bad input,
//! and the shared capture scored against its README's path groups.

mod common;
use common::*;

#[test]
fn synthetic_json_has_a_row_per_method_and_memory() {
    let v = json(&["run", "reordering", "--prefixes", "200", "--memory", "64,256", "--seeds", "2", "--json"]);
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 2 * 3);
    for r in rows {
        let recall = r["recall"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&recall) && r["recall_min"].as_f64().unwrap() <= recall, "{r}");
        assert!(r["false_reports"].as_f64().unwrap() >= 0.0 && r["memory_bits"].as_u64().unwrap() > 0);
        assert_eq!(r["seeds"], 2);
        assert!(r.get("capture_a").is_none());
    }
    let hybrid = rows.iter().find(|r| r["method"] == "hybrid" && r["memory"] == 256).unwrap();
    assert_eq!((hybrid["buckets"].as_u64(), hybrid["hh_entries"].as_u64()), (Some(128), Some(128)));
    assert!(v["truth"]["targets"].as_f64().unwrap() > 0.0);
    assert_eq!(v["setting"]["epsilon"], 0.005);
    assert_eq!(v["setting"]["engine"], "golden");
}

#[test]
fn plot_is_written() {
    let dir = std::env::temp_dir().join(format!("netmeas-reord-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("recall.svg");
    let o = netmeas(&[
        "run",
        "reordering",
        "--prefixes",
        "100",
        "--memory",
        "32,128",
        "--seeds",
        "1",
        "--method",
        "sampling,hybrid",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") || text.contains("<svg"));
    assert!(text.contains("sampling") && text.contains("hybrid"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_input_is_a_clear_error() {
    let r = |extra: &[&str]| {
        let mut a = vec!["run", "reordering", "--prefixes", "50", "--seeds", "1"];
        a.extend_from_slice(extra);
        error(&a)
    };
    assert!(r(&["--method", "exact"]).contains("--method"));
    assert!(r(&["--memory", "64,x"]).contains("--memory"));
    assert!(r(&["--memory", "2"]).contains("too small"));
    assert!(r(&["--alpha", "2000", "--beta", "1000"]).contains("α < β"));
    assert!(r(&["--epsilon", "1.5"]).contains("--epsilon"));
    assert!(r(&["--T", "10000"]).contains("timeout"));
    assert!(r(&["--conditions", "stale,often"]).contains("--conditions"));
    assert!(r(&["--prefix-len", "40"]).contains("prefix_len"));
    assert!(r(&["--plot", "x.pdf"]).contains("--plot"));
    assert!(r(&["--trace", "/nonexistent.pcap"]).contains("/nonexistent.pcap"));
    assert!(error(&["run", "reordering", "--trace", CAPTURE_A, "--prefix-len", "8"]).contains("/16"));
}

#[test]
fn capture_a_is_scored_against_its_readme() {
    if !std::path::Path::new(CAPTURE_A).exists() {
        eprintln!("skipped: {CAPTURE_A} not present");
        return;
    }
    let v = json(&["run", "reordering", "--trace", CAPTURE_A, "--memory", "16,256", "--seeds", "1", "--json"]);
    // The README's ground truth, client /24s: group 3 1522 of 66649, group 4 437 of 34946, group 7 4.
    let truth = v["truth"]["reordered_prefixes"].as_array().unwrap();
    let find = |g: &str| truth.iter().find(|x| x[0] == g).map(|x| (x[1]["n"].as_u64(), x[1]["o"].as_u64()));
    assert_eq!(find("127.3.1.0"), Some((Some(66649), Some(1522))));
    assert_eq!(find("127.4.1.0"), Some((Some(34946), Some(437))));
    assert_eq!(find("127.7.1.0").map(|x| x.1), Some(Some(4)));
    for r in v["results"].as_array().unwrap() {
        let c = &r["capture_a"];
        assert_eq!(c["pass"], true, "{r}");
        assert_eq!(c["heavy_found"], serde_json::json!([3, 4]), "{r}");
        assert_eq!(r["false_reports"], 0.0, "{r}");
    }
}

/// `--engine rtl` runs flow sampling and the flow-level baseline at 64 entries (build ro_a6) and the hybrid
/// at 128 (ro_hy) on the Verilated cores, with periodic flushes under traffic, and must give exactly
/// golden's results; a size without a build is a clear error naming the builds.
#[test]
fn rtl_engine_runs_the_core_or_says_why_not() {
    let args =
        ["run", "reordering", "--prefixes", "100", "--memory", "64", "--method", "sampling,flows", "--seeds", "2"];
    let args = [&args[..], &["--period", "500", "--json"]].concat();
    let no_build = ["run", "reordering", "--prefixes", "50", "--seeds", "1", "--engine", "rtl", "--memory", "256"];
    if cfg!(feature = "rtl") {
        let golden = json(&args);
        let rtl = json(&[&args[..], &["--engine", "rtl"]].concat());
        let rows = |v: &serde_json::Value| -> Vec<String> {
            v["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    format!("{} {} {} {} {}", r["method"], r["memory"], r["recall"], r["false_reports"], r["reports"])
                })
                .collect()
        };
        assert_eq!(rows(&golden), rows(&rtl));
        assert_eq!(rows(&rtl).len(), 2);
        let err = error(&no_build);
        assert!(err.contains("no RTL build") && err.contains("ro_a6 (--memory 64)"), "{err}");
        // The hybrid: 2 x 32 heavy hitters and 64 sampled buckets (build ro_hy) at --memory 128.
        let hy = ["run", "reordering", "--prefixes", "100", "--memory", "128", "--method", "hybrid", "--seeds", "2"];
        let hy = [&hy[..], &["--period", "500", "--json"]].concat();
        let (golden, rtl) = (json(&hy), json(&[&hy[..], &["--engine", "rtl"]].concat()));
        assert_eq!(rows(&golden), rows(&rtl));
        assert_eq!(rows(&rtl).len(), 1);
        let hybrid = [&no_build[..8], &["--memory", "64", "--method", "hybrid"]].concat();
        let err = error(&hybrid);
        assert!(err.contains("no RTL build of the hybrid") && err.contains("ro_hy (--memory 128"), "{err}");
    } else {
        assert!(error(&no_build).contains("without the rtl feature"));
    }
}
