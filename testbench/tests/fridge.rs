//! Fridge core: RTL against the golden cycle model, cycle by cycle, ≥10^6 random packets per
//! configuration family (release). Seeds are printed; `NETMEAS_SEED` reproduces, `NETMEAS_VCD_DIR` dumps.

use testbench::fridge;
use testbench::harness::{RunConfig, RunReport};

const N: u64 = 1_000_000;

fn check(test: &str, f: fn(&RunConfig) -> RunReport, n: u64, must_cover: &[&str]) {
    let r = f(&RunConfig::for_test(test, n));
    eprintln!("[{test}] {} cycles, {:.2} M cycles/s, coverage {:?}", r.cycles, r.cycles_per_second() / 1e6, r.coverage);
    r.assert_clean();
    assert_eq!(r.transactions, n);
    for what in must_cover {
        assert!(r.covered(what) > 0, "traffic never exercised `{what}`: {:?}", r.coverage);
    }
    let b2b = r.covered("same_id_back_to_back") as f64 / n as f64;
    assert!(b2b >= 0.10, "only {:.1}% same-index back-to-back packets", 100.0 * b2b);
}

const COMMON: &[&str] = &[
    "resets",
    "reports_seen",
    "timestamp_wraps",
    "duplicate_responses",
    "responses_without_request",
    "report_fifo_drops",
];

#[test]
fn fridge_single_dual_port_matches_golden() {
    check("fridge_single_dual_port_matches_golden", fridge::run_fridge_dp, N, COMMON);
}

#[test]
fn fridge_single_port_build_matches_golden() {
    check("fridge_single_port_build_matches_golden", fridge::run_fridge_sp, N, COMMON);
}

#[test]
fn fridge_four_fridges_narrow_fields_match_golden() {
    check("fridge_four_fridges_narrow_fields_match_golden", fridge::run_fridge4_dp, N, COMMON);
}

#[test]
fn fridge_simple_mode_matches_golden() {
    check("fridge_simple_mode_matches_golden", fridge::run_simple_dp, N, COMMON);
}

#[test]
fn fridge_expiry_mode_matches_golden() {
    check("fridge_expiry_mode_matches_golden", fridge::run_expiry_dp, N, COMMON);
}
