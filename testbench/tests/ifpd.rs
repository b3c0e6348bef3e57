//! IFPD core: RTL against the golden cycle model, cycle by cycle, ≥10^6 random packets per build (d = 1, 2,
//! 4; the modes IFPD, CM and CM-BF, the threshold, the case-3 rule and the interval base drawn at every reset
//! and rewritten mid-traffic). Seeds are printed; `NETMEAS_SEED` reproduces, `NETMEAS_VCD_DIR` dumps.

use testbench::harness::{self, RunConfig, RunReport};
use testbench::ifpd::{self, cov};

const N: u64 = 1_000_000;

fn check(test: &str, f: fn(&RunConfig) -> RunReport, rows: usize) -> RunReport {
    let mut must = vec![
        cov::resets,
        cov::same_flow_back,
        cov::flow_2_3_back,
        cov::collide_dist1,
        cov::collide_dist2,
        cov::collide_dist3,
        cov::case1,
        cov::case2,
        cov::case3,
        cov::ifpd_packets,
        cov::cm_packets,
        cov::cmbf_packets,
        cov::cmbf_filter_first,
        cov::estimate_across_wrap,
        cov::time_wraps,
        cov::rebases,
        cov::threshold_writes,
        cov::mode_writes,
        cov::reports,
        cov::report_drops,
        cov::reader_stalls,
        cov::idle_cycles,
    ];
    must.extend(&[cov::collide_row0, cov::collide_row1, cov::collide_row2, cov::collide_row3][..rows]);
    if rows > 1 {
        must.push(cov::case3_ties);
    }
    let r = harness::check(test, f, N, &must);
    let b2b = r.covered(cov::same_flow_back) as f64 / N as f64;
    assert!(b2b >= 0.10, "only {:.1}% same-flow back-to-back packets (seed {})", 100.0 * b2b, r.scoreboard.seed);
    r
}

#[test]
fn ifpd_four_rows_match_golden() {
    check("ifpd_four_rows_match_golden", ifpd::run_ifpd_d4, 4);
}

#[test]
fn ifpd_one_row_match_golden() {
    check("ifpd_one_row_match_golden", ifpd::run_ifpd_d1, 1);
}

#[test]
fn ifpd_two_rows_match_golden() {
    check("ifpd_two_rows_match_golden", ifpd::run_ifpd_d2, 2);
}

/// The IFPD test is not vacuous: each of the mutants of ifpd_d4 — rows scanned in the wrong order,
/// case 3 replacing the smallest timestamp instead of the largest, row 0 without distance-2 forwarding —
/// must fail against golden, on the result or report port (where the decision shows first).
#[test]
fn ifpd_mutants_are_caught() {
    for (name, run) in ifpd::MUTANT_RUNNERS {
        let r = run(&RunConfig::for_test("ifpd_mutants_are_caught", 200_000));
        let first = r.scoreboard.first.clone().unwrap_or_else(|| panic!("mutant {name} passed the test"));
        eprintln!("[ifpd_mutants_are_caught] {name} caught as expected: {}", r.scoreboard);
        assert!(first.signal.starts_with("res_") || first.signal.starts_with("rep_"), "{name}: {}", r.scoreboard);
    }
}
