//! Reordering (flow-sampling) core: RTL against the golden cycle model, cycle by cycle, ≥10^6 random
//! descriptors per build (ro_a4: narrow fields that wrap and saturate; ro_a6: the experiments' widths);
//! settings drawn at every reset and rewritten mid-traffic, flushes under traffic, a stalling reader.
//! Seeds are printed; `NETMEAS_SEED` reproduces, `NETMEAS_VCD_DIR` dumps.

use testbench::harness::{self, RunConfig, RunReport};
use testbench::reordering::{self, cov};

const N: u64 = 1_000_000;

fn check(test: &str, f: fn(&RunConfig) -> RunReport, extra: &[&str]) -> RunReport {
    let must = [
        cov::resets,
        cov::same_flow_back,
        cov::same_bucket_other_flow,
        cov::seq_wraps,
        cov::non_data,
        cov::hits,
        cov::inserts,
        cov::overwrites,
        cov::misses,
        cov::out_of_order,
        cov::overwrite_stale_alone,
        cov::overwrite_count_alone,
        cov::overwrite_reorder_alone,
        cov::overwrite_together,
        cov::flow_indexed,
        cov::port_indexed,
        cov::forced_resident,
        cov::forced_replace,
        cov::evictions,
        cov::eviction_drops,
        cov::flushes,
        cov::flushed_reports,
        cov::reader_stalls,
        cov::setting_writes,
    ];
    let r = harness::check(test, f, N, &[&must[..], extra].concat());
    let b2b = r.covered(cov::same_flow_back) as f64 / N as f64;
    assert!(b2b >= 0.10, "only {:.1}% same-flow back-to-back packets (seed {})", 100.0 * b2b, r.scoreboard.seed);
    r
}

#[test]
fn reordering_narrow_fields_match_golden() {
    check("reordering_narrow_fields_match_golden", reordering::run_ro_a4, &[cov::saturated_n, cov::saturated_o]);
}

/// ro_a6's AXI flavour (`netmeas generate reordering --build ro_a6`): the same traffic, registers over
/// AXI4-Lite under random channel delays, descriptors, results and reports on the AXI4-Streams.
#[test]
fn reordering_axi_flavour_matches_golden() {
    check("reordering_axi_flavour_matches_golden", reordering::run_ro_a6_axi, &["axil_writes", "axil_reads"]);
}

#[test]
fn reordering_experiment_widths_match_golden() {
    check("reordering_experiment_widths_match_golden", reordering::run_ro_a6, &[]);
}

/// The reordering test is not vacuous: each of the mutants of ro_a4 — the sequence comparison in
/// the wrong direction, the reordering overwrite condition dropped — must fail against golden, on the
/// result port (where the decision shows first).
#[test]
fn reordering_mutants_are_caught() {
    for (name, run) in reordering::MUTANT_RUNNERS {
        let r = run(&RunConfig::for_test("reordering_mutants_are_caught", 200_000));
        let first = r.scoreboard.first.clone().unwrap_or_else(|| panic!("mutant {name} passed the test"));
        eprintln!("[reordering_mutants_are_caught] {name} caught as expected: {}", r.scoreboard);
        assert!(first.signal.starts_with("res_") || first.signal.starts_with("rep_"), "{name}: {}", r.scoreboard);
    }
}
