//! `netmeas query maple` over the epochs `netmeas run maple --save-epochs` stored: the evaluation's JSON
//! keys and its agreement with the run's own lookups, a packet and a flow looked up, the figure, and clear
//! errors for bad input.

mod common;
use common::*;
use std::io::Read;
use std::path::PathBuf;

/// A small stored run (5 epochs of 20 000 packets, one seed) and the JSON of `run maple` on it.
fn stored(name: &str) -> (PathBuf, serde_json::Value) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("maple-query-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let run = json(&[
        "run",
        "maple",
        "--epochs",
        "5",
        "--packets-per-epoch",
        "20000",
        "--seeds",
        "1",
        "--memory-mbit",
        "0.3",
        "--store",
        "svbf",
        "--clustering",
        "hybrid",
        "--json",
        "--save-epochs",
        dir.to_str().unwrap(),
    ]);
    (dir, run)
}

#[test]
fn the_evaluation_has_a_key_per_level_and_agrees_with_the_run() {
    let (dir, run) = stored("eval");
    let d = dir.to_str().unwrap();
    let v = json(&["query", "maple", "--epochs", d, "--json"]);
    assert_eq!((v["epochs"].as_u64(), v["seeds"][0].as_u64()), (Some(3), Some(1)), "{v}");
    for level in ["packet", "subflow", "flow", "host", "prefix16"] {
        let l = &v[level];
        let p: Vec<f64> = ["p25", "p50", "p75", "p90", "p95", "p99"]
            .iter()
            .map(|p| l["relative_error"][p].as_f64().unwrap_or_else(|| panic!("{level}.{p}: {l}")))
            .collect();
        assert!(p.windows(2).all(|w| w[0] <= w[1]) && p[5] > 0.0, "{level}: {p:?}");
        assert!(l["groups"].as_u64().unwrap() > 0 && l["single_packet"].as_f64().is_some(), "{level}: {l}");
    }
    assert_eq!(v["packet"]["groups"], v["packets"]);
    assert_eq!(v["packet"]["single_packet"], 1.0);
    assert_eq!(v["subflow"]["single_packet"], 0.0);
    // b = 0 is the run's own SVBF lookups: the same packets, multi-matches and errors.
    let (b0, svbf) = (&v["bogus"][0], &run["svbf"]);
    assert_eq!(b0["packets"], svbf["packets"]);
    assert_eq!(b0["multi_match"], svbf["classification_failure"]);
    for p in ["p50", "p75", "p90", "p95", "p99"] {
        assert_eq!(b0["abs_err_us"][p], svbf["abs_err_us"][p], "{p}");
    }
    // Bogus epochs add candidates: more multi-matches, some answers from a wrong epoch.
    let v = json(&["query", "maple", "--epochs", d, "--bogus", "2", "--level", "packet,flow", "--json"]);
    assert_eq!(v["epochs"], 3, "epochs 2, 3, 4 (the warm-up epochs 0 and 1 serve as bogus ones)");
    let m: Vec<f64> = (0..3).map(|b| v["bogus"][b]["multi_match"].as_f64().unwrap()).collect();
    assert!(m[0] < m[1] && m[1] < m[2], "{m:?}");
    assert_eq!(v["bogus"][0]["wrong_epoch"], 0.0);
    assert!(v["bogus"][2]["wrong_epoch"].as_f64().unwrap() > 0.0);
    assert!(v.get("host").is_none() && v["flow"].is_object());
    let svg = dir.join("fig8.svg");
    let o = netmeas(&["query", "maple", "--epochs", d, "--bogus", "1", "--plot", svg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.contains("prefix16") && text.contains("b = 1"));
}

#[test]
fn a_packet_and_a_flow_are_looked_up_and_bad_input_is_a_clear_error() {
    let (dir, _) = stored("lookup");
    let d = dir.to_str().unwrap();
    // The 100th packet of epoch 3, from the stored packets.
    let mut text = String::new();
    let f = std::fs::File::open(dir.join("s1-e0003-packets.json.gz")).unwrap();
    flate2::read::GzDecoder::new(f).read_to_string(&mut text).unwrap();
    let p: serde_json::Value = serde_json::from_str(&text).unwrap();
    let (key, latency) = (p["keys"][100].as_str().unwrap().to_string(), p["latency_ns"][100].clone());
    let v = json(&["query", "maple", "--epochs", d, "--key", &format!("0x{key}"), "--epoch", "3", "--json"]);
    let k = &v["keys"][0];
    assert_eq!((k["key"].as_str(), &k["true_latency_ns"]), (Some(key.as_str()), &latency), "{v}");
    let a = &k["answers"][0]["answer"];
    assert!(a["kind"] == "match" || a["kind"] == "multi-match", "a stored packet is never a No-Match: {a}");
    assert_eq!(a["epoch"], 3);
    assert!(a["refined"].as_u64().unwrap() > 0);
    // Without --epoch: one answer per stored epoch.
    let v = json(&["query", "maple", "--epochs", d, "--key", &key, "--json"]);
    assert_eq!(v["keys"][0]["answers"].as_array().unwrap().len(), 5);
    // Its flow, named by its 5-tuple, in every epoch it sent in.
    let k = u128::from_str_radix(&key, 16).unwrap();
    let ip = |v: u128| std::net::Ipv4Addr::from(v as u32).to_string();
    let flow = format!("{}:{}-{}:{}/tcp", ip(k >> 96), (k >> 48) as u16, ip(k >> 64), (k >> 32) as u16);
    let v = json(&["query", "maple", "--epochs", d, "--flow", &flow, "--json"]);
    let rows = v["groups"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["epoch"] == 3 && r["packets"].as_u64().unwrap() >= 1), "{v}");
    assert!(rows.iter().all(|r| r["relative_error"].as_f64().is_some() && r["answered"] == r["packets"]), "{v}");
    let v = json(&["query", "maple", "--epochs", d, "--flow", &flow, "--level", "subflow", "--epoch", "3", "--json"]);
    assert!(v["groups"].as_array().unwrap().iter().all(|r| r["packets"] == 10), "{v}");

    for (args, want) in [
        (vec!["--epochs", "/nonexistent/run"], "no such directory"),
        (vec!["--epochs", "/tmp"], "manifest.json"),
        (vec!["--epochs", d, "--key", &"f".repeat(33)], "128 bits"),
        (vec!["--epochs", d, "--key", "0xzz"], "hexadecimal"),
        (vec!["--epochs", d, "--key", &key, "--epoch", "9"], "--epoch 9"),
        (vec!["--epochs", d, "--level", "router"], "--level"),
        (vec!["--epochs", d, "--combine", "best"], "--combine"),
        (vec!["--epochs", d, "--flow", "1.2.3.4-5.6.7.8"], "SRC:PORT-DST:PORT/PROTO"),
        (vec!["--epochs", d, "--flow", "1.2.3.4:1-5.6.7.8:2/udp"], "protocol 17"),
        (vec!["--epochs", d, "--flow", &flow, "--level", "host"], "flow or subflow"),
        (vec!["--epochs", d, "--bogus", "5"], "--bogus 5"),
        (vec!["--epochs", d, "--plot", "x.pdf"], "x.pdf"),
    ] {
        let e = error(&[&["query", "maple"][..], &args].concat());
        assert!(e.contains(want), "{args:?}: {e}");
    }
    let manifest = dir.join("manifest.json");
    std::fs::write(&manifest, "{\"format\": \"netmeas-maple-epochs\", \"version\": 1}").unwrap();
    assert!(error(&["query", "maple", "--epochs", d]).contains("corrupt manifest"));
    assert!(netmeas(&["query", "maple", "--help"]).status.success());
}
