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
        cov::flow_2_8_back,
        cov::stored_time_zero,
        cov::cm_same_flow_after_time_zero,
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
    must.extend(ifpd::COLLIDE_DIST);
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

/// ifpd_d4's AXI flavour (`netmeas generate ifpd --build ifpd_d4`): the same traffic, registers written and
/// read over AXI4-Lite under random channel delays, descriptors and reports on the AXI4-Streams.
#[test]
fn ifpd_axi_flavour_matches_golden() {
    let r = check("ifpd_axi_flavour_matches_golden", ifpd::run_ifpd_d4_axi, 4);
    r.assert_covered(&["axil_writes", "axil_reads"]);
}

/// ifpd_d4 on registered RAM: reads four cycles, forwarding at distances 1–7 (the traffic collides at 1–8).
#[test]
fn ifpd_four_rows_registered_ram_match_golden() {
    check("ifpd_four_rows_registered_ram_match_golden", ifpd::run_ifpd_d4_reg, 4);
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

/// `run_trace` (what `--engine rtl` runs): a full-rate trace through ifpd_d1 and ifpd_d4 in every mode gives
/// the golden transaction model's reports (each with its packet's index) and counters, one packet a cycle.
#[test]
fn ifpd_trace_at_full_rate_equals_the_transaction_model() {
    use golden::ifpd::{Case3Rule, Descriptor, IfpdModel, IfpdRuntime, Mode};
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(14);
    for name in ["ifpd_d1", "ifpd_d4"] {
        let cfg = ifpd::top_config(name);
        let flows: Vec<u128> = (0..3 * cfg.rows * cfg.buckets).map(|_| rng.gen::<u128>() >> 24).collect();
        let mut ts = 1u64 << 30;
        let packets: Vec<Descriptor> = (0..20_000)
            .map(|_| {
                ts += rng.gen_range(0..2000u64 << cfg.ts_shift);
                Descriptor { flow: flows[rng.gen_range(0..flows.len())], ts }
            })
            .collect();
        for mode in Mode::ALL {
            let rt = IfpdRuntime { mode, threshold: 20_000, base: 12_345, case3: Case3Rule::Estimate };
            let run = match name {
                "ifpd_d1" => ifpd::run_trace(name, &rt, &packets, testbench::models::IfpdD1::new),
                _ => ifpd::run_trace(name, &rt, &packets, testbench::models::IfpdD4::new),
            }
            .unwrap_or_else(|e| panic!("{name} {mode:?}: {e}"));
            let mut m = IfpdModel::new(&cfg, rt).unwrap();
            let want: Vec<_> =
                packets.iter().enumerate().filter_map(|(i, d)| m.step(d).report.map(|r| (i, r))).collect();
            assert!(want.len() > 100, "{name} {mode:?}: {} reports", want.len());
            assert_eq!(run.reports, want, "{name} {mode:?}");
            assert_eq!(run.stats, m.stats, "{name} {mode:?}");
            assert_eq!(run.accept_cycles, packets.len() as u64 - 1, "{name} {mode:?}: one packet a cycle");
        }
    }
}

/// Power-up state does not matter: every IFPD build matches golden under several Verilator X seeds
/// (`--x-initial unique`), the reset sweep clearing rows and filter before the first packet.
#[test]
fn ifpd_x_initial_state_does_not_matter() {
    harness::check_x_initial("ifpd_x_initial_state_does_not_matter", ifpd::ALL, &[3, 0xfeed], 20_000);
}
