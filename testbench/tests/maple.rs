//! MAPLE core: RTL against the golden cycle model, cycle by cycle, ≥10^6 random packets per build (k ≤ 8 with
//! h = 3, k ≤ 64 with h = 4; center sets, epochs, flushes, sampling rate and seed drawn and rewritten under
//! traffic). Seeds are printed; `NETMEAS_SEED` reproduces, `NETMEAS_VCD_DIR` dumps.

use testbench::harness::{self, RunConfig, RunReport};
use testbench::maple::{self, cov};

const N: u64 = 1_000_000;

fn check(test: &str, f: fn(&RunConfig) -> RunReport) -> RunReport {
    check_with(test, f, &[], &[])
}

/// [`check`] demanding `also` besides and not the counters of `except`.
fn check_with(test: &str, f: fn(&RunConfig) -> RunReport, also: &[&str], except: &[&str]) -> RunReport {
    let must = [
        cov::resets,
        cov::same_key_back,
        cov::key_2_3_back,
        cov::same_word_dist1,
        cov::same_word_dist2,
        cov::same_word_dist3,
        cov::segment_wraps,
        cov::center_reloads,
        cov::epochs,
        cov::epochs_during_flush,
        cov::flush_records,
        cov::flush_reader_stalls,
        cov::samples,
        cov::sample_drops,
        cov::tie_latencies,
        cov::idle_cycles,
        cov::lookups,
        cov::lookup_match,
        cov::lookup_multi,
        cov::lookup_none,
        cov::lookup_count_ties,
        cov::lookup_no_center,
        cov::lookups_during_flush,
        cov::lookups_during_traffic,
        cov::answer_stalls,
        cov::flush_commands,
        cov::aimed_thresholds,
        cov::idle_reseeds,
        cov::sample_below,
        cov::sample_at,
        cov::sample_above,
    ];
    let must: Vec<&str> = must.iter().copied().filter(|m| !except.contains(m)).chain(also.iter().copied()).collect();
    let r = harness::check(test, f, N, &must);
    let b2b = r.covered(cov::same_key_back) as f64 / N as f64;
    assert!(b2b >= 0.10, "only {:.1}% same-key back-to-back packets (seed {})", 100.0 * b2b, r.scoreboard.seed);
    r
}

#[test]
fn maple_k8_matches_golden() {
    check("maple_k8_matches_golden", maple::run_maple_k8);
}

/// maple_k8's AXI flavour (`netmeas generate maple`): the same traffic, registers over AXI4-Lite under
/// random channel delays, inserts and lookups on two slave streams, results, samples, records and answers on
/// four master streams. The sampling boundaries are not demanded: the runner aims a threshold write at the
/// next packet, and over AXI4-Lite the write lands later.
#[test]
fn maple_axi_flavour_matches_golden() {
    let except = [cov::sample_below, cov::sample_at, cov::sample_above];
    check_with("maple_axi_flavour_matches_golden", maple::run_maple_k8_axi, &["axil_writes", "axil_reads"], &except);
}

#[test]
fn maple_k64_matches_golden() {
    check("maple_k64_matches_golden", maple::run_maple_k64);
}

/// The MAPLE test is not vacuous: each mutant of maple_k8 — the center offset dropped, a hash's bit in the
/// wrong segment, segment row 0 without distance-2 forwarding, ties to the upper center, the lookup's burst
/// one word short, its AND without segment 0 — must fail against golden, on the flush records (where the
/// SVBF's contents show), the result port (the center) or the lookup answer.
#[test]
fn maple_mutants_are_caught() {
    for (name, run) in maple::MUTANT_RUNNERS {
        let r = run(&RunConfig::for_test("maple_mutants_are_caught", 200_000));
        let first = r.scoreboard.first.clone().unwrap_or_else(|| panic!("mutant {name} passed the test"));
        eprintln!("[maple_mutants_are_caught] {name} caught as expected: {}", r.scoreboard);
        assert!(["rec_", "res_", "ans_"].iter().any(|p| first.signal.starts_with(p)), "{name}: {}", r.scoreboard);
    }
}

/// Power-up state does not matter: every MAPLE build matches golden under several Verilator X seeds
/// (`--x-initial unique`), the reset sweep clearing both banks before the first packet.
#[test]
fn maple_x_initial_state_does_not_matter() {
    harness::check_x_initial("maple_x_initial_state_does_not_matter", maple::ALL, &[3, 0xfeed], 20_000);
}
