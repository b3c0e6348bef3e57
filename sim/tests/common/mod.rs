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
