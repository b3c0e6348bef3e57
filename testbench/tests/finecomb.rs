//! FineComb core: RTL against the golden cycle model, cycle by cycle, ≥10^6 random packets per
//! configuration family (release): sender, receiver with stash, 4-bank receiver, LDA mode. Seeds are
//! printed; `NETMEAS_SEED` reproduces, `NETMEAS_VCD_DIR` dumps.

use testbench::finecomb::{self, cov};
use testbench::finecomb_stages::cov as stage_cov;
use testbench::harness::{self, RunConfig, RunReport};

const N: u64 = 1_000_000;

/// The shared checker on [`COMMON`] plus `extra`, and FineComb's own demands: every packet in, no record
/// dropped, ≥10 % of packets on the same bucket back to back.
fn check(test: &str, f: fn(&RunConfig) -> RunReport, extra: &[&str]) {
    let r = harness::check(test, f, N, &[COMMON, extra].concat());
    let seed = r.scoreboard.seed;
    assert!(r.covered(cov::packets) >= N, "only {} packets (seed {seed})", r.covered(cov::packets));
    assert_eq!(r.covered(cov::record_fifo_drops), 0, "the record FIFO dropped records (seed {seed})");
    let b2b = r.covered(cov::same_bucket_back_to_back) as f64 / N as f64;
    assert!(b2b >= 0.10, "only {:.1}% same-bucket back-to-back packets (seed {seed})", 100.0 * b2b);
}

const COMMON: &[&str] = &[
    cov::resets,
    cov::resets_during_readout,
    cov::max_bucket_draws,
    cov::ineffective_starts,
    cov::ineffective_ends,
    cov::syncs_between_intervals,
    cov::flushes_after_marker,
    cov::threshold_writes,
    cov::bucket_rewrites_in_readout,
    cov::readouts,
    cov::captures,
    cov::bucket_records_nonzero,
    cov::accumulator_wraps,
    cov::timestamp_wraps,
    cov::ineffective_markers,
    cov::marker_waits,
    cov::reader_stalls,
    cov::flushes,
];

/// What the builds with a stash must also cover.
const STASH: &[&str] = &[
    cov::stash_records,
    cov::max_stash_draws,
    cov::stash_fill_below,
    cov::stash_fill_at,
    cov::stash_fill_above,
];

/// finecomb_tx's AXI flavour (`netmeas generate finecomb --build finecomb_tx`): the same traffic, registers
/// over AXI4-Lite under random channel delays, descriptors and records on the AXI4-Streams.
#[test]
fn finecomb_axi_flavour_matches_golden() {
    check("finecomb_axi_flavour_matches_golden", finecomb::run_finecomb_tx_axi, &["axil_writes", "axil_reads"]);
}

#[test]
fn finecomb_sender_matches_golden() {
    check("finecomb_sender_matches_golden", finecomb::run_finecomb_tx, &[]);
}

#[test]
fn finecomb_receiver_with_stash_matches_golden() {
    check("finecomb_receiver_with_stash_matches_golden", finecomb::run_finecomb_rx, STASH);
}

#[test]
fn finecomb_four_banks_match_golden() {
    check("finecomb_four_banks_match_golden", finecomb::run_finecomb4, &[STASH, &[cov::mixed_stash_draws]].concat());
}

#[test]
fn finecomb_lda_mode_matches_golden() {
    check("finecomb_lda_mode_matches_golden", finecomb::run_finecomb_lda, &[]);
}

/// Throughput and end to end: a stream offered back to back (every bank samples every packet, a sync every
/// 5000 packets) goes in at one descriptor per cycle — the readout of each interval (4 × 200 buckets and
/// the stash captures) drains while the next interval's packets flow, so no marker waits — and the records
/// reassemble into exactly the golden transaction model's interval reports.
#[test]
fn finecomb_one_descriptor_per_cycle_and_reports_equal_the_transaction_model() {
    use golden::finecomb::cycle::Assembler;
    use golden::finecomb::{BankConfig, Descriptor, FinecombConfig, FinecombModel, FinecombRuntime, Role};
    use testbench::models::Finecomb;
    let n = 100_000u64;
    let mut descs = vec![Descriptor::start()];
    for i in 0..n {
        if i > 0 && i % 5000 == 0 {
            descs.push(Descriptor::sync());
        }
        // Every fourth packet repeats the previous key: same bucket back to back.
        let k = if i % 4 == 3 { i - 1 } else { i };
        descs.push(Descriptor::packet(
            k as u128 * 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835,
            (1 << 48) - 50_000 + i * 3,
        ));
    }
    descs.push(Descriptor::end());
    let shape = FinecombConfig {
        role: Role::Receiver,
        banks: vec![BankConfig { buckets: 200, stash_depth: 50 }; 4],
        isd: true,
    };
    let run = finecomb::run_trace("finecomb", &shape, &[u32::MAX; 4], &descs, Finecomb::new).unwrap();
    eprintln!(
        "[throughput] {} descriptors in {} cycles; {} records",
        descs.len(),
        run.accept_cycles,
        run.records.len()
    );
    assert_eq!(run.accept_cycles, descs.len() as u64, "a descriptor waited");
    let mut asm = Assembler::new(&shape);
    let rtl: Vec<_> = run.records.iter().filter_map(|r| asm.push(r)).collect();
    let mut model = FinecombModel::new(&shape, FinecombRuntime { thresholds: vec![u32::MAX; 4] }).unwrap();
    let mut golden: Vec<_> = descs.iter().filter_map(|d| model.step(d)).collect();
    golden.extend(model.flush());
    assert_eq!(rtl.len(), 20, "intervals read out");
    assert!(rtl == golden, "RTL interval reports differ from the transaction model's");
    assert!(rtl[3].banks[2].stash.pre_end.len() == 50 && rtl[3].banks[2].buckets.iter().any(|b| b.count > 1));
}

/// Power-up state must not matter: the same traffic under several random initial states of every register
/// and memory word (`--x-initial unique`) matches golden in every FineComb build.
#[test]
fn finecomb_x_initial_state_does_not_matter() {
    harness::check_x_initial("finecomb_x_initial_state_does_not_matter", finecomb::ALL, &[3, 0xfeed], 20_000);
}

/// Runs a FineComb stage on its own and checks it matched its golden stage model and covered `must`.
fn check_stage(test: &str, f: fn(&RunConfig) -> RunReport, must: &[&str]) {
    let r = f(&RunConfig::for_test(test, N));
    eprintln!("[{test}] {} cycles, {:.2} M cycles/s, coverage {:?}", r.cycles, r.cycles_per_second() / 1e6, r.coverage);
    r.assert_clean();
    assert_eq!(r.transactions, N);
    for what in must {
        assert!(r.covered(what) > 0, "traffic never exercised `{what}`: {:?}", r.coverage);
    }
}

/// The front end alone (handshake, digest, one bank's sampler) against `FrontModel`.
#[test]
fn finecomb_front_stage_matches_golden() {
    let must = [
        stage_cov::resets,
        stage_cov::packets,
        stage_cov::packets_sampled,
        stage_cov::packets_not_sampled,
        stage_cov::sample_below,
        stage_cov::sample_at,
        stage_cov::sample_above,
        stage_cov::markers,
        stage_cov::markers_refused,
        stage_cov::not_ready,
        stage_cov::settings_changed,
    ];
    check_stage("finecomb_front_stage_matches_golden", testbench::finecomb_stages::run_front, &must);
}

/// The record stage alone (E1/E2, packing, FIFO) against `RecordStageModel`, including a full FIFO.
#[test]
fn finecomb_record_stage_matches_golden() {
    let must = [
        stage_cov::resets,
        stage_cov::records,
        stage_cov::bucket_records,
        stage_cov::stash_records,
        stage_cov::done_records,
        stage_cov::fifo_drops,
    ];
    check_stage("finecomb_record_stage_matches_golden", testbench::finecomb_stages::run_record, &must);
}
