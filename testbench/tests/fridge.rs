//! Fridge core: RTL against the golden cycle model, cycle by cycle, ≥10^6 random packets per
//! configuration family (release). Seeds are printed; `NETMEAS_SEED` reproduces, `NETMEAS_VCD_DIR` dumps.

use testbench::fridge::{self, cov};
use testbench::fridge_tally::cov as tally_cov;
use testbench::harness::{self, RunConfig, RunReport};

const N: u64 = 1_000_000;

/// The shared checker plus the fridge's own demand: ≥10 % of packets hit the same table index back to back;
/// `extra` names the build's own coverage (the boundaries its mode compares at).
fn check(test: &str, f: fn(&RunConfig) -> RunReport, n: u64, tally: bool, extra: &[&str]) {
    let must_cover = [COMMON, if tally { TALLY } else { &[] }, extra].concat();
    let r = harness::check(test, f, n, &must_cover);
    let b2b = r.covered(cov::same_id_back_to_back) as f64 / n as f64;
    assert!(b2b >= 0.10, "only {:.1}% same-index back-to-back packets (seed {})", 100.0 * b2b, r.scoreboard.seed);
}

const COMMON: &[&str] = &[
    cov::resets,
    cov::reports_seen,
    cov::timestamp_wraps,
    cov::duplicate_responses,
    cov::responses_without_request,
    cov::report_fifo_drops,
    cov::seed_rewrites,
    cov::zero_seed_rewrites,
    cov::zero_signature_on_empty_entry,
];

/// What the fridge mode (which samples) must also cover: the PRNG value met its threshold exactly, one below
/// and one above it (boundary-directed traffic).
const SAMPLING: &[&str] = &[cov::sample_below, cov::sample_at, cov::sample_above];

/// What the expiry mode must also cover: a request met an entry exactly `expiry` old, one unit younger and
/// one older (boundary-directed traffic); expiry rewritten mid-traffic; a request into an empty entry that
/// only the valid bit lets in.
const EXPIRY: &[&str] = &[
    cov::expiry_below,
    cov::expiry_at,
    cov::expiry_above,
    cov::expiry_rewrites,
    cov::empty_entry_within_expiry,
];

/// What the builds with a tally must also cover (besides [`COMMON`]).
const TALLY: &[&str] = &[cov::tally_walks_started, cov::tally_records, cov::tally_records_nonzero];

/// fridge_dp's AXI flavour (`netmeas generate fridge`): the same traffic, registers over AXI4-Lite under
/// random channel delays, descriptors, reports and tally records on the AXI4-Streams. The sampling
/// boundaries are not demanded: the runner aims a threshold write at the next request, and over AXI4-Lite the
/// write lands later than on the native port.
#[test]
fn fridge_axi_flavour_matches_golden() {
    let must_cover = [COMMON, TALLY, &["axil_writes", "axil_reads"]].concat();
    harness::check("fridge_axi_flavour_matches_golden", fridge::run_fridge_dp_axi, N, &must_cover);
}

#[test]
fn fridge_single_dual_port_matches_golden() {
    check("fridge_single_dual_port_matches_golden", fridge::run_fridge_dp, N, true, SAMPLING);
}

/// The fridge on registered block RAM (the large tables' build): the table read four cycles, the decision
/// at SL = S5, forwarding across seven distances.
#[test]
fn fridge_registered_ram_matches_golden() {
    check("fridge_registered_ram_matches_golden", fridge::run_fridge_dp_reg, N, true, SAMPLING);
}

#[test]
fn fridge_single_port_build_matches_golden() {
    check("fridge_single_port_build_matches_golden", fridge::run_fridge_sp, N, false, SAMPLING);
}

#[test]
fn fridge_four_fridges_narrow_fields_match_golden() {
    check("fridge_four_fridges_narrow_fields_match_golden", fridge::run_fridge4_dp, N, true, SAMPLING);
}

#[test]
fn fridge_simple_mode_matches_golden() {
    check("fridge_simple_mode_matches_golden", fridge::run_simple_dp, N, true, &[]);
}

#[test]
fn fridge_expiry_mode_matches_golden() {
    check("fridge_expiry_mode_matches_golden", fridge::run_expiry_dp, N, true, EXPIRY);
}

/// The tally block alone, at a report in most cycles (the core's traffic rarely stresses it so).
#[test]
fn fridge_tally_block_matches_golden() {
    let r = harness::check(
        "fridge_tally_block_matches_golden",
        testbench::fridge_tally::run,
        N,
        &[
            tally_cov::resets,
            tally_cov::records,
            tally_cov::walks_started,
            tally_cov::walk_start_while_busy,
            tally_cov::low_octave_reports,
        ],
    );
    assert_eq!(r.covered(tally_cov::fifo_drops), 0, "the tally FIFO dropped records");
}

/// Throughput: a trace offered back to back goes in at one packet per cycle on the dual-port build and
/// one per two cycles on the single-port build (after the reset sweep of the table).
#[test]
fn fridge_throughput_one_packet_per_cycle_dual_port_half_single_port() {
    use golden::fridge::{threshold_for, Descriptor, FridgeMode, FridgeRuntime, PacketKind};
    use testbench::models::{FridgeDp, FridgeSp};
    let n = 100_000u64;
    let packets: Vec<Descriptor> = (0..n)
        .map(|i| Descriptor {
            kind: if i % 3 == 2 { PacketKind::Response } else { PacketKind::Request },
            // Every third packet answers the request two packets before it: same index back to back.
            id: if i % 3 == 2 { (i - 2) as u128 * 0x9e37_79b9_7f4a_7c15 } else { i as u128 * 0x9e37_79b9_7f4a_7c15 },
            timestamp: i * 7,
        })
        .collect();
    let rt = FridgeRuntime { mode: FridgeMode::Fridge, expiry: 0, seed: 1, thresholds: vec![threshold_for(1.0)] };
    let dp = fridge::run_trace("fridge_dp", &rt, &packets, FridgeDp::new).unwrap();
    let sp = fridge::run_trace("fridge_sp", &rt, &packets, FridgeSp::new).unwrap();
    let (reports, dp_cycles, sp_cycles) = (dp.reports, dp.cycles, sp.cycles);
    // Overhead: reset, CSR writes, the 1024-cycle sweep, pipeline drain.
    let overhead = 1024 + 64;
    eprintln!(
        "[throughput] {n} packets: dual-port {dp_cycles} cycles ({:.4} packets/cycle after the sweep), \
         single-port {sp_cycles} cycles ({:.4}); {} reports",
        n as f64 / (dp_cycles - overhead) as f64,
        n as f64 / (sp_cycles - overhead) as f64,
        reports.len()
    );
    assert!(dp_cycles <= n + overhead, "dual-port: {dp_cycles} cycles for {n} packets");
    assert!(sp_cycles <= 2 * n + overhead && sp_cycles >= 2 * n, "single-port: {sp_cycles} cycles for {n} packets");
    assert!(reports.len() as u64 > n / 4, "back-to-back responses should mostly match: {}", reports.len());
}

/// Power-up state must not matter: the same traffic under several random initial states of every register
/// and memory word (`--x-initial unique`) matches golden in every fridge build and mode.
#[test]
fn fridge_x_initial_state_does_not_matter() {
    harness::check_x_initial("fridge_x_initial_state_does_not_matter", fridge::ALL, &[3, 0xfeed], 20_000);
}
