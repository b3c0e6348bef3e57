//! FineComb core: RTL against the golden cycle model, cycle by cycle, ≥10^6 random packets per
//! configuration family (release): sender, receiver with stash, 4-bank receiver, LDA mode. Seeds are
//! printed; `NETMEAS_SEED` reproduces, `NETMEAS_VCD_DIR` dumps.

use testbench::finecomb;
use testbench::harness::{RunConfig, RunReport};

const N: u64 = 1_000_000;

fn check(test: &str, f: fn(&RunConfig) -> RunReport, stash: bool) {
    let mut must_cover = COMMON.to_vec();
    if stash {
        must_cover.push("stash_records");
    }
    let r = f(&RunConfig::for_test(test, N));
    eprintln!("[{test}] {} cycles, {:.2} M cycles/s, coverage {:?}", r.cycles, r.cycles_per_second() / 1e6, r.coverage);
    r.assert_clean();
    assert!(r.covered("packets") >= N, "only {} packets", r.covered("packets"));
    for what in &must_cover {
        assert!(r.covered(what) > 0, "traffic never exercised `{what}`: {:?}", r.coverage);
    }
    assert_eq!(r.covered("record_fifo_drops"), 0, "the record FIFO dropped records");
    let b2b = r.covered("same_bucket_back_to_back") as f64 / N as f64;
    assert!(b2b >= 0.10, "only {:.1}% same-bucket back-to-back packets", 100.0 * b2b);
}

const COMMON: &[&str] = &[
    "resets",
    "readouts",
    "captures",
    "bucket_records_nonzero",
    "accumulator_wraps",
    "timestamp_wraps",
    "ineffective_markers",
    "marker_waits",
    "reader_stalls",
    "flushes",
];

#[test]
fn finecomb_sender_matches_golden() {
    check("finecomb_sender_matches_golden", finecomb::run_finecomb_tx, false);
}

#[test]
fn finecomb_receiver_with_stash_matches_golden() {
    check("finecomb_receiver_with_stash_matches_golden", finecomb::run_finecomb_rx, true);
}

#[test]
fn finecomb_four_banks_match_golden() {
    check("finecomb_four_banks_match_golden", finecomb::run_finecomb4, true);
}

#[test]
fn finecomb_lda_mode_matches_golden() {
    check("finecomb_lda_mode_matches_golden", finecomb::run_finecomb_lda, false);
}
