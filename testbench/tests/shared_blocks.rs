//! Randomized co-simulation of every shared block: RTL (Verilator) against the golden model, cycle by
//! cycle. Seeds are printed; `NETMEAS_SEED=<n>` reproduces a run, `NETMEAS_VCD_DIR=<dir>` dumps
//! `<dir>/<test>.vcd`. Run in release: `cargo test --release -p testbench`.

use testbench::blocks::{self, multi_rmw, rmw};
use testbench::harness::{self, RunConfig, RunReport};

/// Transactions per block (the acceptance floor is 200 000 in release).
const N: u64 = 200_000;

/// Runs a block for N transactions through the shared checker (clean, every situation of `must_cover`).
fn run(test: &str, f: fn(&RunConfig) -> RunReport, must_cover: &[&str]) -> RunReport {
    harness::check(test, f, N, must_cover)
}

/// AXI4-Lite: 200 000 completed transactions (the floor is 10^5), every situation the bus allows.
#[test]
fn axil_csr_matches_golden() {
    run(
        "axil_csr_matches_golden",
        blocks::axil::run,
        &[
            "resets",
            "partial_strobe_writes",
            "slverr_writes",
            "slverr_reads",
            "status_reads",
            "read_and_write_waiting",
            "b_backpressure",
            "r_backpressure",
            "data_before_address",
        ],
    );
}

#[test]
fn hash128_matches_golden() {
    run("hash128_matches_golden", blocks::hash::run_hash128, &[]);
}

#[test]
fn hash104_matches_golden() {
    run("hash104_matches_golden", blocks::hash::run_hash104, &[]);
}

#[test]
fn prng_matches_golden() {
    run("prng_matches_golden", blocks::prng::run, &["resets", "seed_loads", "zero_seed_loads", "seed_loads_in_reset"]);
}

/// What every SRAM run must reach: resets, writes during the sweep and in the reset cycle (ignored),
/// same-address read and write.
const SRAM_COVER: &[&str] =
    &["resets", "writes_during_sweep", "read_during_write_same_address", "writes_in_reset_cycle"];

#[test]
fn sram_dual_port_matches_golden() {
    run("sram_dual_port_matches_golden", blocks::sram::run_dual, SRAM_COVER);
}

#[test]
fn sram_single_port_matches_golden() {
    run("sram_single_port_matches_golden", blocks::sram::run_single, SRAM_COVER);
}

#[test]
fn sram_registered_dual_port_matches_golden() {
    run("sram_registered_dual_port_matches_golden", blocks::sram::run_dual_registered, SRAM_COVER);
}

#[test]
fn sram_registered_single_port_matches_golden() {
    run("sram_registered_single_port_matches_golden", blocks::sram::run_single_registered, SRAM_COVER);
}

#[test]
fn fifo_matches_golden() {
    run(
        "fifo_matches_golden",
        blocks::fifo::run,
        &["resets", "pushes_into_full", "push_and_pop_when_full", "push_when_empty"],
    );
}

/// The FIFO's AXI flavour (`netmeas generate fifo`): the same traffic through the generated AXI4-Stream
/// wrapper, under random tvalid gaps and tready backpressure.
#[test]
fn fifo_axi_matches_golden() {
    run(
        "fifo_axi_matches_golden",
        blocks::fifo::run_axi,
        &["resets", "pushes_into_full", "push_and_pop_when_full", "push_when_empty"],
    );
}

#[test]
fn delay_line_matches_golden() {
    run("delay_line_matches_golden", blocks::delay::run, &["resets", "words_out", "resets_with_words_in_flight"]);
}

#[test]
fn csr_matches_golden() {
    run("csr_matches_golden", blocks::csr::run, &["resets", "prng_seeded_via_csr", "read_and_write_same_cycle", "identity_read"]);
}

/// The same bank read in two cycles (`CsrLayout::with_registered_read`: the header parser's bank).
#[test]
fn csr_registered_read_matches_golden() {
    let cover = ["resets", "prng_seeded_via_csr", "read_and_write_same_cycle", "identity_read"];
    run("csr_registered_read_matches_golden", blocks::csr::run_r2, &cover);
}

/// The RMW runners' demands beyond the shared checker: the forwarding distances 1..7 are exercised (the
/// short pipeline forwards 1–3, the registered one 1–5, one more per look-ahead level).
fn check_rmw_traffic(test: &str, f: fn(&RunConfig) -> RunReport, must_cover: &[&str]) -> RunReport {
    let r = run(test, f, &[&["accepted"], must_cover].concat());
    let accepted = r.covered("accepted");
    let frac = |what: &str| r.covered(what) as f64 / accepted as f64;
    let back: Vec<String> = (1..=7).map(|k| format!("{:.1}%", 100.0 * frac(&format!("same_index_{k}_back")))).collect();
    eprintln!("[{test}] accepted {accepted}, same index as 1..7 packets back: {}, resets {}", back.join(" / "), r.covered("resets"));
    assert!(frac("same_index_1_back") >= 0.10, "too few back-to-back same-index packets");
    for k in 2..=7 {
        assert!(frac(&format!("same_index_{k}_back")) >= 0.05, "too few packets with the index of {k} back");
    }
    assert!(r.covered("resets") >= 3, "no reset in the middle of traffic or during a sweep");
    r
}

#[test]
fn rmw_dual_port_matches_golden_ii1() {
    let r = check_rmw_traffic("rmw_dual_port_matches_golden_ii1", rmw::run_dual, &["reset_during_sweep"]);
    assert_eq!(r.covered("final_entries_read_back"), 64);
}

#[test]
fn rmw_single_port_matches_golden_ii2() {
    let r = check_rmw_traffic("rmw_single_port_matches_golden_ii2", rmw::run_single, &[]);
    // II = 2: at most one packet every other cycle.
    assert!(r.cycles >= 2 * r.transactions, "{} cycles for {} packets", r.cycles, r.transactions);
}

#[test]
fn rmw_registered_dual_port_matches_golden_ii1() {
    let r = check_rmw_traffic("rmw_registered_dual_port_matches_golden_ii1", rmw::run_dual_registered, &["reset_during_sweep"]);
    assert_eq!(r.covered("final_entries_read_back"), 64);
}

/// One and two look-ahead levels (short and registered RAM): the modify stage one or two cycles later, and
/// SL's view — the word before the packet directly ahead — checked against golden for most packets.
#[test]
fn rmw_lookahead_matches_golden_ii1() {
    for (test, f) in [
        ("rmw_lookahead_matches_golden_ii1 (short)", rmw::run_dual_lookahead as fn(&RunConfig) -> RunReport),
        ("rmw_lookahead_matches_golden_ii1 (registered)", rmw::run_dual_registered_lookahead),
        ("rmw_lookahead_matches_golden_ii1 (short, two levels)", rmw::run_dual_lookahead2),
        ("rmw_lookahead_matches_golden_ii1 (registered, two levels)", rmw::run_dual_registered_lookahead2),
    ] {
        let two = test.contains("two levels");
        let r = check_rmw_traffic(test, f, &["reset_during_sweep", "pre_stage_checked"]);
        // Two levels: SL's word is the write of the packet two ahead for a share of the packets (the
        // traffic repeats the index two back in ~8 %); one level never splits it.
        assert_eq!(r.covered("pre_near2") > 1000, two, "{test}: {} packets with pre_near2", r.covered("pre_near2"));
        assert_eq!(r.covered("final_entries_read_back"), 64);
        assert!(r.covered("pre_stage_checked") * 10 >= r.covered("accepted") * 9, "SL compared for too few packets");
    }
}

/// Two look-ahead levels on a single-port RAM (II = 2, modify stage 4): packets are an even distance apart,
/// so SL's word is the write of the packet directly ahead (distance 2) whenever it wrote that index.
#[test]
fn rmw_single_port_lookahead_matches_golden_ii2() {
    let r = check_rmw_traffic("rmw_single_port_lookahead_matches_golden_ii2", rmw::run_single_lookahead2, &["pre_stage_checked"]);
    assert!(r.cycles >= 2 * r.transactions, "{} cycles for {} packets", r.cycles, r.transactions);
    assert!(r.covered("pre_near2") > 1000, "{} packets with pre_near2", r.covered("pre_near2"));
    assert!(r.covered("pre_stage_checked") * 10 >= r.covered("accepted") * 9, "SL compared for too few packets");
}

#[test]
fn rmw_registered_single_port_matches_golden_ii2() {
    let r = check_rmw_traffic("rmw_registered_single_port_matches_golden_ii2", rmw::run_single_registered, &[]);
    assert!(r.cycles >= 2 * r.transactions, "{} cycles for {} packets", r.cycles, r.transactions);
}

/// The RMW test is not vacuous: with forwarding across any one distance disabled (1, 2 or 3 of the short
/// pipeline; 1 to 5 of the registered one), it must fail, and on the data the missing path should have
/// supplied.
#[test]
fn rmw_broken_forwarding_is_caught() {
    let base = RunConfig::for_test("rmw_broken_forwarding_is_caught", 20_000);
    let broken: [(&str, fn(&RunConfig) -> RunReport); 8] = [
        ("short, distance 1", rmw::run_broken_distance1),
        ("short, distance 2", rmw::run_broken_distance2),
        ("short, distance 3", rmw::run_broken_distance3),
        ("registered, distance 1", rmw::run_broken_registered_distance1),
        ("registered, distance 2", rmw::run_broken_registered_distance2),
        ("registered, distance 3", rmw::run_broken_registered_distance3),
        ("registered, distance 4", rmw::run_broken_registered_distance4),
        ("registered, distance 5", rmw::run_broken_registered_distance5),
    ];
    for (distance, f) in broken {
        let r = f(&base);
        let first = r.scoreboard.first.clone().unwrap_or_else(|| {
            panic!("a pipeline without forwarding ({distance}) passed the test")
        });
        eprintln!("[rmw_broken_forwarding_is_caught] {distance} caught as expected: {}", r.scoreboard);
        assert!(["out_old", "out_new"].contains(&first.signal.as_str()), "{}", r.scoreboard);
    }
}

/// The multi-row RMW: every row's forwarding under same-key repeats and single-row collisions at distances
/// 1–3, resets, and a final read-back of every bucket of every row.
#[test]
fn multi_rmw_matches_golden() {
    use multi_rmw::cov;
    let must = [
        cov::accepted,
        cov::same_key_back,
        cov::row_collision_1_back,
        cov::row_collision_2_back,
        cov::row_collision_3_back,
        cov::resets,
    ];
    let r = run("multi_rmw_matches_golden", multi_rmw::run, &must);
    let frac = |what: &str| r.covered(what) as f64 / r.covered(cov::accepted) as f64;
    assert!(frac(cov::same_key_back) >= 0.10, "same key 1-3 back: {:.3}", frac(cov::same_key_back));
    for c in [cov::row_collision_1_back, cov::row_collision_2_back, cov::row_collision_3_back] {
        assert!(frac(c) >= 0.10, "{c}: {:.3}", frac(c));
    }
    assert_eq!(r.covered(cov::final_buckets_read_back), 1 << golden::common::tops::MULTI_RMW_TOP_ADDR_BITS);
}

/// The multi-row RMW on registered RAMs: the same traffic, collisions up to five packets back (distances
/// 4 and 5 exist only in this pipeline).
#[test]
fn multi_rmw_registered_matches_golden() {
    use multi_rmw::cov;
    let must = [
        cov::accepted,
        cov::same_key_back,
        cov::row_collision_1_back,
        cov::row_collision_3_back,
        cov::row_collision_4_back,
        cov::row_collision_5_back,
        cov::resets,
    ];
    let r = run("multi_rmw_registered_matches_golden", multi_rmw::run_registered, &must);
    assert_eq!(r.covered(cov::final_buckets_read_back), 1 << golden::common::tops::MULTI_RMW_TOP_ADDR_BITS);
}

/// The multi-row test is not vacuous: one row without distance-2 forwarding must fail on the words.
#[test]
fn multi_rmw_broken_row_forwarding_is_caught() {
    let r = multi_rmw::run_broken(&RunConfig::for_test("multi_rmw_broken_row_forwarding_is_caught", 20_000));
    let first = r.scoreboard.first.clone().expect("a row without distance-2 forwarding passed the test");
    eprintln!("[multi_rmw_broken_row_forwarding_is_caught] caught as expected: {}", r.scoreboard);
    assert!(["out_old", "out_new"].contains(&first.signal.as_str()), "{}", r.scoreboard);
}

/// Hidden dependence on power-up state: the same traffic with different random initial values of every
/// register and memory word (`--x-initial unique`) must give identical, golden-matching behaviour.
#[test]
fn x_initial_state_does_not_matter() {
    harness::check_x_initial("x_initial_state_does_not_matter", blocks::ALL, &[1, 2, 0xdead_beef], 20_000);
}
