//! Heavy-hitter core: RTL against the golden cycle model, cycle by cycle, ≥10^6 random packets per build
//! (d = 1, 2, 4; methods and admission rules drawn at every reset and rewritten mid-traffic). Seeds are
//! printed; `NETMEAS_SEED` reproduces, `NETMEAS_VCD_DIR` dumps.

use testbench::harness::{self, RunConfig, RunReport};
use testbench::heavy_hitters::{self, cov};

const N: u64 = 1_000_000;

fn check(test: &str, f: fn(&RunConfig) -> RunReport, extra: &[&str]) -> RunReport {
    let must = [
        cov::resets,
        cov::same_key_back,
        cov::key_2_3_back,
        cov::row_collisions,
        cov::hits,
        cov::inserts,
        cov::admissions,
        cov::rejections,
        cov::walks_started,
        cov::records,
        cov::method_writes,
        cov::reader_stalls,
    ];
    let r = harness::check(test, f, N, &[&must[..], extra].concat());
    let b2b = r.covered(cov::same_key_back) as f64 / N as f64;
    assert!(b2b >= 0.10, "only {:.1}% same-key back-to-back packets (seed {})", 100.0 * b2b, r.scoreboard.seed);
    r
}

#[test]
fn heavy_hitters_one_row_matches_golden() {
    check("heavy_hitters_one_row_matches_golden", heavy_hitters::run_hh_d1, &[]);
}

/// hh_d2's AXI flavour (`netmeas generate heavy_hitters --build hh_d2`): the same traffic, registers over
/// AXI4-Lite under random channel delays, keys, results and records on the AXI4-Streams.
#[test]
fn heavy_hitters_axi_flavour_matches_golden() {
    check("heavy_hitters_axi_flavour_matches_golden", heavy_hitters::run_hh_d2_axi, &["axil_writes", "axil_reads"]);
}

#[test]
fn heavy_hitters_two_rows_match_golden() {
    check("heavy_hitters_two_rows_match_golden", heavy_hitters::run_hh_d2, &[]);
}

#[test]
fn heavy_hitters_four_rows_wide_keys_saturating_counts_match_golden() {
    check(
        "heavy_hitters_four_rows_wide_keys_saturating_counts_match_golden",
        heavy_hitters::run_hh_d4,
        &[cov::saturated],
    );
}

/// The heavy-hitter test is not vacuous: each of the mutants of hh_d2 — admission probability off by
/// one (`count ≤ T`), the minimum's ties to the wrong row, row 0 without distance-2 forwarding — must fail
/// against golden, on the result port (where the decision shows first).
#[test]
fn heavy_hitters_mutants_are_caught() {
    for (name, run) in heavy_hitters::MUTANT_RUNNERS {
        let r = run(&RunConfig::for_test("heavy_hitters_mutants_are_caught", 200_000));
        let first = r.scoreboard.first.clone().unwrap_or_else(|| panic!("mutant {name} passed the test"));
        eprintln!("[heavy_hitters_mutants_are_caught] {name} caught as expected: {}", r.scoreboard);
        assert!(first.signal.starts_with("res_") || first.signal.starts_with("rec_"), "{name}: {}", r.scoreboard);
    }
}
