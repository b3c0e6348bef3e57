//! Randomized co-simulation of the header parser (issue 18): RTL (Verilator) against the cycle model
//! `golden::parser::cycle`, cycle by cycle, 10^6 frames; and of the descriptor stage behind it against
//! `golden::parser::desc`. The seed is printed; `NETMEAS_SEED=<n>` reproduces
//! a run, `NETMEAS_VCD_DIR=<dir>` dumps `<dir>/<test>.vcd`. Run in release:
//! `cargo test --release -p testbench --test parser`.

use testbench::harness;
use testbench::parser;

/// Frames per run (the floor: 10^6 in CI).
const FRAMES: u64 = 1_000_000;

/// Every encapsulation and drop reason, one-beat and giant frames, back-to-back frames, idle gaps,
/// backpressure on the record output, resets mid-frame, CSR reads of every counter.
#[test]
fn parser_d8_matches_golden() {
    let cover = parser::must_cover();
    harness::check("parser_d8_matches_golden", parser::run_d8, FRAMES, &cover);
}

/// The 64-byte build: one-beat frames at the minimum size, so a frame can enter the pipeline every cycle.
#[test]
fn parser_d64_matches_golden() {
    let cover = parser::must_cover();
    harness::check("parser_d64_matches_golden", parser::run_d64, FRAMES, &cover);
}

/// The descriptor stage behind the parser (`parser_desc`): random records of every kind, both fridge modes,
/// each lane backpressured on its own, idle inputs, resets.
#[test]
fn parser_desc_matches_golden() {
    harness::check(
        "parser_desc_matches_golden",
        testbench::parser_desc::run,
        500_000,
        testbench::parser_desc::MUST_COVER,
    );
}

/// Power-up state must not matter: the same traffic under several X seeds.
#[test]
fn parser_x_initial_state_does_not_matter() {
    harness::check_x_initial("parser_x_initial_state_does_not_matter", parser::ALL, &[3, 0xfeed], 20_000);
}
