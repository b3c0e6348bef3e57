//! What the CLI test files share: running the built `netmeas` and reading its answer.
#![allow(dead_code)] // each test file uses its own subset

use std::process::{Command, Output};

/// `netmeas ARGS`, its exit status and output.
pub fn netmeas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_netmeas")).args(args).output().expect("netmeas runs")
}

/// `netmeas ARGS` must succeed with one JSON document on stdout.
pub fn json(args: &[&str]) -> serde_json::Value {
    let o = netmeas(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON document")
}

/// `netmeas ARGS` must fail cleanly (non-zero exit, no panic): its stderr.
pub fn error(args: &[&str]) -> String {
    let o = netmeas(args);
    assert!(!o.status.success(), "{args:?} should fail");
    let e = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!e.contains("panicked"), "{e}");
    e
}

/// The shared capture beside the checkout (../shared/captures, as CI lays it out).
pub const CAPTURE_A: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/captures/multipath-tcp-A.pcap.gz");

/// The default build of each core, and the parameters of a configuration no build registers.
pub const CORES: &[(&str, &str, &[&str])] = &[
    ("fridge", "fridge_dp", &["addr_bits=12,11,10,10", "ts_bits=24", "ts_shift=8", "tally_bins_per_octave=8"]),
    (
        "finecomb",
        "finecomb_tx",
        &["role=Receiver", "banks=2", "buckets=100", "stash_depth=4", "bucket_addr_bits=7", "stash_slot_bits=3"],
    ),
    // 128-bit keys and 24-bit counts: 161-bit records, six words (the build-time tops have five).
    ("heavy_hitters", "hh_d1", &["rows=3", "addr_bits=7", "key_bits=128", "count_bits=24"]),
    ("reordering", "ro_a4", &["addr_bits=8", "n_bits=12", "o_bits=6", "fp_bits=12"]),
    ("ifpd", "ifpd_d4", &["rows=2", "buckets=64", "bf_bits=128", "bf_hashes=2", "ts_bits=24"]),
    ("maple", "maple_k8", &["hashes=2", "addr_bits=7", "centers=16", "key_bits=96", "word_log2=4"]),
];
