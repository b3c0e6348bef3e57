//! `netmeas run maple`: the JSON contract (a key per store and per clustering scheme), the figure, clear
//! errors for bad input and for `--engine rtl` where no build fits, the RTL engine on a small trace, and the
//! shared capture.

mod common;
use common::*;

const SMALL: [&str; 8] = ["run", "maple", "--epochs", "4", "--packets-per-epoch", "30000", "--seeds", "1"];

#[test]
fn json_has_a_key_per_store_and_per_scheme() {
    let v = json(&[&SMALL[..], &["--memory-mbit", "0.4", "--json"]].concat());
    for key in ["svbf", "pbf", "comb", "perfect", "oracle", "hybrid", "kmedians", "log"] {
        let r = &v[key];
        for m in ["classification_failure", "false_classification", "false_negative"] {
            let x = r[m].as_f64().unwrap_or_else(|| panic!("{key}.{m}: {r}"));
            assert!((0.0..=1.0).contains(&x), "{key}.{m} = {x}");
        }
        let p: Vec<f64> = ["p50", "p75", "p85", "p90", "p95", "p99"]
            .iter()
            .map(|p| r["abs_err_us"][p].as_f64().unwrap_or_else(|| panic!("{key}.abs_err_us.{p}: {r}")))
            .collect();
        assert!(p.windows(2).all(|w| w[0] <= w[1]) && p[5] > 0.0, "{key}: {p:?}");
    }
    assert_eq!(v["svbf"]["false_negative"], 0.0);
    assert_eq!(v["perfect"]["classification_failure"], 0.0);
    assert!(v["comb"]["classification_failure"].as_f64() > v["svbf"]["classification_failure"].as_f64(), "{v}");
    assert_eq!(v["svbf"]["hashes"], 9, "h = round(m/n · ln 2) at 0.4 Mbit and 30 k packets");
    assert_eq!(v["setting"]["store_clustering"], "hybrid");
    assert_eq!(v["setting"]["hybrid"]["offline"], "blind", "the paper's reading is the default");
    let share = v["hybrid"]["static_share"].as_f64().unwrap_or_else(|| panic!("hybrid.static_share: {v}"));
    assert!(share > 0.0 && share < 1.0 && v["kmedians"]["static_share"].is_null(), "{share}");
    assert_eq!(v["table1"].as_array().unwrap().len(), 6);
}

#[test]
fn the_figure_is_written_and_bad_input_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("netmeas-maple-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("maple.svg");
    let o = netmeas(
        &[&SMALL[..], &["--memory-mbit", "0.4", "--store", "svbf,comb", "--plot", svg.to_str().unwrap()]].concat(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("kmedians") && text.contains("comb"));
    let rtl = error(&["run", "maple", "--engine", "rtl", "--centers", "65"]);
    assert!((rtl.contains("no RTL build") && rtl.contains("maple_k64")) || rtl.contains("without the rtl feature"), "{rtl}");
    assert!(error(&["run", "maple", "--store", "hashtable"]).contains("--store"));
    assert!(error(&["run", "maple", "--pcf", "0"]).contains("--pcf"));
    assert!(error(&["run", "maple", "--centers", "65", "--epochs", "3", "--packets-per-epoch", "2000"])
        .contains("--centers"));
    assert!(error(&["run", "maple", "--trace", "/nonexistent.pcap"]).contains("nonexistent"));
    assert!(error(&["run", "maple", "--hybrid-static", "50"]).contains("--hybrid-static"));
    assert!(error(&["run", "maple", "--hybrid-offline", "both"]).contains("--hybrid-offline"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `--engine rtl` on a small trace at the paper's bits per packet: the JSON's `rtl` facts and the RTL's
/// SVBF row, equal to golden's at the same h, m and epochs.
#[cfg(feature = "rtl")]
#[test]
fn the_rtl_engine_reports_beside_golden() {
    let small = ["--epochs", "3", "--packets-per-epoch", "3000", "--memory-mbit", "0.04", "--store", "svbf"];
    let v = json(&[&["run", "maple", "--engine", "rtl", "--json"][..], &small[..]].concat());
    assert_eq!(v["setting"]["engine"], "rtl");
    assert_eq!(v["rtl"]["build"], "maple_k64");
    assert_eq!(v["rtl"]["equal_to_golden"], true, "{}", v["rtl"]);
    assert_eq!(v["svbf_rtl"], v["svbf_golden_same"]);
    assert_eq!(v["svbf_rtl"]["hashes"], 4);
    assert_eq!(v["svbf_rtl"]["false_negative"], 0.0);
    assert!(v["svbf_rtl"]["classification_failure"].as_f64().unwrap() > 0.0, "{}", v["svbf_rtl"]);
    assert!(v["rtl"]["cycles"].as_u64().unwrap() > 40 * v["svbf_rtl"]["packets"].as_u64().unwrap(), "{}", v["rtl"]);
}

#[test]
fn the_shared_capture_runs_through_the_queue() {
    if !std::path::Path::new(CAPTURE_A).exists() {
        eprintln!("skipped: {CAPTURE_A} not present");
        return;
    }
    let v = json(&["run", "maple", "--trace", CAPTURE_A, "--seeds", "1", "--store", "svbf,perfect", "--json"]);
    assert_eq!(v["measured_epochs"], 8, "9.4 s: ten epochs, two only cluster");
    assert!(v["svbf"]["abs_err_us"]["p50"].as_f64().unwrap() > 0.0, "{}", v["svbf"]);
    // Keys repeat in a capture (pure ACKs share seq and ack): even the perfect store sees multi-matches.
    assert!(v["perfect"]["classification_failure"].as_f64().unwrap() > 0.0);
}

/// `netmeas query maple-ranges` (Fig. 8(b)): the shared capture's real IP IDs compress a flow's queries the
/// more the larger the flow; the synthetic flows are one range per epoch; bad input is a clear error.
#[test]
fn ip_id_ranges_compress_the_captures_queries() {
    let syn = json(&["query", "maple-ranges", "--trace", "synthetic", "--epochs", "2", "--json"]);
    let bins = syn["bins"].as_array().unwrap();
    assert_eq!(bins.len(), 5, "{syn}");
    assert!((bins[0]["mean_ratio"].as_f64().unwrap() - 17.0 / 15.0).abs() < 1e-9, "one packet: 17 vs 15 bytes");
    assert!(syn["total_ratio"].as_f64().unwrap() < 0.01, "{}", syn["total_ratio"]);
    assert!(error(&["query", "maple-ranges", "--trace", "synthetic", "--epoch-s", "0"]).contains("--epoch-s"));
    assert!(error(&["query", "maple-ranges", "--trace", "/nonexistent.pcap"]).contains("nonexistent"));
    if !std::path::Path::new(CAPTURE_A).exists() {
        eprintln!("skipped: {CAPTURE_A} not present");
        return;
    }
    let v = json(&["query", "maple-ranges", "--trace", CAPTURE_A, "--json"]);
    assert_eq!(v["packets"], 510_591);
    let mean: Vec<f64> = v["bins"].as_array().unwrap().iter().map(|b| b["mean_ratio"].as_f64().unwrap()).collect();
    assert!(mean[0] > mean[1] && mean[1] > mean[2] && mean[2] > mean[3], "{mean:?}");
    let total = v["total_ratio"].as_f64().unwrap();
    assert!((0.01..0.05).contains(&total), "the capture's 43× less: {total}");
}
