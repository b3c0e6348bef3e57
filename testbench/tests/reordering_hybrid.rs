//! Hybrid reordering detector (heavy-hitter core + side table + flow sampling): RTL against the golden
//! cycle model, cycle by cycle, ≥10^6 random descriptors on the narrow build (ro_hy4: a 2 × 4 heavy-hitter
//! table, so admissions, evictions and replacements are frequent) and 3·10^5 at the experiments' widths
//! (ro_hy); settings of all three cores drawn at every reset and rewritten mid-traffic, periods ended under
//! traffic, a stalling reader, three CSR ports read back. Seeds are printed; `NETMEAS_SEED` reproduces,
//! `NETMEAS_VCD_DIR` dumps.

use testbench::harness::{self, RunConfig, RunReport};
use testbench::reordering_hybrid::{self, cov};
use testbench::reordering_hybrid_axi;

fn check(test: &str, f: fn(&RunConfig) -> RunReport, n: u64) -> RunReport {
    check_also(test, f, n, &[])
}

fn check_also(test: &str, f: fn(&RunConfig) -> RunReport, n: u64, also: &[&'static str]) -> RunReport {
    let must = [
        cov::resets,
        cov::hh_rejects,
        cov::hh_hits,
        cov::hh_inserts,
        cov::hh_admits,
        cov::side_hits,
        cov::side_inserts,
        cov::side_replaced,
        cov::side_out_of_order,
        cov::smp_hits,
        cov::smp_overwrites,
        cov::smp_misses,
        cov::evictions,
        cov::flushed_reports,
        cov::period_ends,
        cov::reader_stalls,
        cov::setting_writes,
        cov::precision,
        cov::power_of_two,
    ];
    harness::check(test, f, n, &[&must[..], also].concat())
}

#[test]
fn hybrid_narrow_fields_match_golden() {
    let r = check("hybrid_narrow_fields_match_golden", reordering_hybrid::run_ro_hy4, 1_000_000);
    assert!(r.covered(cov::eviction_drops) > 0, "the stalling reader never made an eviction FIFO drop");
}

#[test]
fn hybrid_experiment_widths_match_golden() {
    check("hybrid_experiment_widths_match_golden", reordering_hybrid::run_ro_hy, 300_000);
}

/// ro_hy4's AXI flavour (`netmeas generate reordering --build ro_hy4`): the same traffic, the three
/// sub-cores' registers over three AXI4-Lite slaves under random channel delays, descriptors, the three
/// results and the reports on the AXI4-Streams.
#[test]
fn hybrid_axi_flavour_matches_golden() {
    let test = "hybrid_axi_flavour_matches_golden";
    let per_bus = ["s_axil_smp_writes", "s_axil_smp_reads", "s_axil_side_writes", "s_axil_side_reads"];
    let per_bus = [&per_bus[..], &["s_axil_hh_writes", "s_axil_hh_reads", "axil_writes", "axil_reads"]].concat();
    check_also(test, reordering_hybrid_axi::run_ro_hy4_axi, 300_000, &per_bus);
}
