//! The cycle model against the transaction model, through the record stream and the [`Assembler`].

use super::*;
use crate::finecomb::{threshold_for, BankConfig, FinecombConfig, FinecombModel, FinecombRuntime, IntervalReport, Role};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

fn core(role: Role, isd: bool, banks: usize, ia: usize, sa: usize) -> FinecombCoreConfig {
    let stash_depth = if role == Role::Receiver && isd { 1 << sa } else { 0 };
    let bank = BankConfig { buckets: 1 << ia, stash_depth };
    FinecombCoreConfig {
        shape: FinecombConfig { role, banks: vec![bank; banks], isd },
        bucket_addr_bits: ia,
        stash_slot_bits: sa,
    }
}

/// The four shapes of the equivalence test: sender 1 bank; receiver 1 bank with stash; receiver 4 banks
/// (different M and w, one w = 0); LDA mode 2 banks.
fn shapes() -> Vec<(&'static str, FinecombCoreConfig)> {
    vec![
        ("sender, 1 bank", core(Role::Sender, true, 1, 6, 1)),
        ("receiver, 1 bank", core(Role::Receiver, true, 1, 6, 5)),
        ("receiver, 4 banks", core(Role::Receiver, true, 4, 7, 4)),
        ("LDA, 2 banks", core(Role::Receiver, false, 2, 6, 1)),
    ]
}

/// Random run-time settings that fit the core: M_b in 1..=2^IA (often tiny, so buckets are hit back to
/// back), w_b in 0..=2^SA (the last bank of a multi-bank receiver 0), thresholds from all to 1/50.
fn random_settings(r: &mut SmallRng, core: &FinecombCoreConfig) -> (FinecombConfig, FinecombRuntime) {
    let n = core.banks();
    let banks = (0..n)
        .map(|b| BankConfig {
            buckets: if r.gen_bool(0.2) { r.gen_range(1..=3) } else { r.gen_range(1..=1 << core.bucket_addr_bits) },
            stash_depth: match core.has_stash() && !(n > 1 && b == n - 1) {
                true if r.gen_bool(0.3) => r.gen_range(1..=3),
                true => r.gen_range(0..=1 << core.stash_slot_bits),
                false => 0,
            },
        })
        .collect();
    let cfg = FinecombConfig { banks, ..core.shape.clone() };
    let thresholds =
        (0..n).map(|_| [u32::MAX, threshold_for(0.5), threshold_for(0.2), threshold_for(0.02)][r.gen_range(0..4)]);
    let rt = FinecombRuntime { thresholds: thresholds.collect() };
    core.fits(&cfg).expect("random settings fit");
    (cfg, rt)
}

/// Packet runs of `lengths` lengths, each followed by a random marker (sync, start or end; whether it is
/// effective depends on what came before). Keys repeat the previous one 15 % of the time; timestamps
/// start just below the 48-bit wrap and carry garbage above bit 48.
fn stream(r: &mut SmallRng, runs: usize, lengths: impl Fn(&mut SmallRng) -> usize) -> Vec<Descriptor> {
    let mut t: u64 = (r.gen::<u16>() as u64) << 48 | ((1 << 48) - r.gen_range(1..2_000_000));
    let mut key: u128 = r.gen();
    let mut ds = vec![];
    for _ in 0..runs {
        for _ in 0..lengths(r) {
            if !r.gen_bool(0.15) {
                key = r.gen();
            }
            t = t.wrapping_add(r.gen_range(0..400));
            ds.push(Descriptor::packet(key, t));
        }
        ds.push([Descriptor::sync(), Descriptor::start(), Descriptor::end()][r.gen_range(0..3)]);
    }
    ds
}

/// Interval lengths from a handful of packets (captures cut short) to a few thousand.
fn mixed_lengths(r: &mut SmallRng) -> usize {
    match r.gen_range(0..10) {
        0..=2 => r.gen_range(0..8),
        3..=4 => r.gen_range(8..64),
        5..=7 => r.gen_range(64..600),
        _ => r.gen_range(600..3000),
    }
}

/// The transaction model's reports for a descriptor stream, then its flush.
fn transaction_reports(cfg: &FinecombConfig, rt: &FinecombRuntime, ds: &[Descriptor]) -> Vec<IntervalReport> {
    let mut m = FinecombModel::new(cfg, rt.clone()).unwrap();
    let mut out: Vec<IntervalReport> = ds.iter().filter_map(|d| m.step(d)).collect();
    out.extend(m.flush());
    out
}

/// Effective markers of a stream (the `markers` counter's value).
fn effective_markers(ds: &[Descriptor]) -> u32 {
    let mut counting = false;
    ds.iter()
        .filter(|d| {
            let effective = (d.end && counting) || (d.start && !counting);
            if effective {
                counting = d.start;
            }
            effective
        })
        .count() as u32
}

/// How the test bench drives the core.
#[derive(Clone, Copy)]
struct Drive {
    /// Probability of offering the next descriptor in a cycle (once offered, it stays until accepted).
    offer: f64,
    /// The reader stalls in phases and is otherwise ready with probability 0.7; else always ready.
    stalls: bool,
    /// Reset the core when this descriptor is next (then the stream continues from it).
    reset_at: Option<usize>,
}

/// What one run of the cycle model produced.
struct Run {
    reports: Vec<IntervalReport>,
    /// Index of the first descriptor after the last reset.
    first: usize,
    /// Cycles in which a marker was offered after the core became ready and `in_ready` was low.
    marker_waits: usize,
    cycles: u64,
}

/// Drives the cycle model: reset, the CSR writes of the settings (stash depths garbage on a core without
/// a stash: it must ignore them), the descriptors, a flush write, then until drained. Checks the status
/// counters over the CSR port at the end and that the FIFO never dropped.
fn drive(
    core: &FinecombCoreConfig,
    cfg: &FinecombConfig,
    rt: &FinecombRuntime,
    ds: &[Descriptor],
    r: &mut SmallRng,
    drive: Drive,
) -> Run {
    let mut cm = FinecombCycleModel::new(core).unwrap();
    let mut writes: Vec<(u8, u32)> = core.csr_writes(cfg, rt).unwrap();
    if !core.has_stash() {
        let garbage = r.gen();
        for b in 0..core.banks() {
            writes.push((core.csr_stash_depth(b), garbage));
        }
    }
    let mut run = Run { reports: vec![], first: 0, marker_waits: 0, cycles: 0 };
    let (mut asm, mut queue) = (Assembler::new(cfg), VecDeque::new());
    let (mut next, mut offering, mut flushed, mut ready_seen, mut stall) = (0, false, false, false, 0u32);
    let mut popped = 0u32;
    let mut reset = true;
    loop {
        let mut i = FinecombInputs { reset, ..Default::default() };
        if reset {
            queue = writes.iter().copied().collect();
            (asm, run.reports, run.first, offering, ready_seen, popped) =
                (Assembler::new(cfg), vec![], next, false, false, 0);
            reset = false;
        } else if let Some((a, v)) = queue.pop_front() {
            (i.csr_addr, i.csr_wr_en, i.csr_wr_data) = (a, true, v);
        } else if next == ds.len() && !flushed {
            (i.csr_addr, i.csr_wr_en, flushed) = (core.csr_flush(), true, true);
        }
        if !i.reset && queue.is_empty() && next < ds.len() && (offering || r.gen_bool(drive.offer)) {
            (i.in_valid, i.desc, offering) = (true, Some(ds[next]), true);
        }
        i.rec_ready = match (drive.stalls, stall) {
            (false, _) => true,
            (true, 0) if r.gen_bool(0.003) => {
                stall = r.gen_range(20..400);
                false
            }
            (true, 0) => r.gen_bool(0.7),
            (true, _) => {
                stall -= 1;
                false
            }
        };
        let o = cm.step(&i);
        run.cycles += 1;
        ready_seen |= o.in_ready == Some(true);
        if i.in_valid && o.in_ready == Some(true) {
            (next, offering) = (next + 1, false);
            reset = drive.reset_at == Some(next) && run.first < next;
        } else if i.in_valid && ready_seen && ds[next].is_marker() {
            run.marker_waits += 1;
        }
        if !i.reset && o.rec_valid == Some(true) && i.rec_ready {
            let record = Record::unpack(&o.rec_data.expect("rec_data with rec_valid")).expect("a known record kind");
            popped += 1;
            run.reports.extend(asm.push(&record));
        }
        assert_eq!(cm.fifo_drops(), 0, "the readout FIFO dropped a record");
        if flushed && queue.is_empty() && cm.drained() {
            break;
        }
        assert!(run.cycles < 50 * ds.len() as u64 + 100_000, "the core does not drain");
    }
    // The status counters, read over the CSR port.
    let layout = core.csr_layout();
    let tail = &ds[run.first..];
    let want = [
        ("packets", tail.iter().filter(|d| !d.is_marker()).count() as u32),
        ("markers", effective_markers(tail)),
        ("records", popped),
        ("fifo_drops", 0),
        ("fifo_level", 0),
        ("busy", 0),
    ];
    for (name, value) in want {
        let addr = layout.status_addr(name).unwrap();
        cm.step(&FinecombInputs { csr_addr: addr, csr_rd_en: true, ..Default::default() });
        let o = cm.step(&FinecombInputs::default());
        assert_eq!((o.csr_rd_valid, o.csr_rd_data), (Some(true), Some(value)), "CSR {name}");
    }
    run
}

/// Compares the two models' reports, naming the first difference.
fn assert_same(label: &str, got: &[IntervalReport], want: &[IntervalReport]) {
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.interval, w.interval, "{label}: report {k}");
        for (b, (gb, wb)) in g.banks.iter().zip(&w.banks).enumerate() {
            assert_eq!(gb.stash, wb.stash, "{label}: report {k} (interval {}), bank {b}: stash", w.interval);
            let first = gb.buckets.iter().zip(&wb.buckets).position(|(x, y)| x != y);
            assert_eq!(first, None, "{label}: report {k} (interval {}), bank {b}: first differing bucket", w.interval);
        }
        assert_eq!(g, w, "{label}: report {k}");
    }
    assert_eq!(got.len(), want.len(), "{label}: number of reports");
}

#[test]
fn records_pack_and_unpack() {
    let mut r = rng(11);
    let kinds = [RecordKind::Bucket, RecordKind::Pre, RecordKind::Post, RecordKind::DoneA, RecordKind::DoneB];
    for _ in 0..2000 {
        for kind in kinds {
            let rec = Record {
                kind,
                bank: r.gen_range(0..1 << BANK_BITS),
                index: r.gen_range(0..1 << INDEX_BITS),
                ts: r.gen(),
                count: r.gen(),
                isd: r.gen(),
            };
            let w = rec.pack();
            assert_eq!(w[5] >> (RECORD_BITS - 160), 0, "{w:x?} is wider than {RECORD_BITS} bits");
            assert_eq!(Record::unpack(&w), Some(rec));
        }
    }
    let mut w = [0u32; 6];
    w[0] = 5;
    assert_eq!(Record::unpack(&w), None);
}

/// The key test: random streams through both models give the same reports, for every shape.
#[test]
fn cycle_model_reports_what_the_transaction_model_reports() {
    for (s, (name, core)) in shapes().into_iter().enumerate() {
        for seed in 0..10 {
            let mut r = rng(100 * s as u64 + seed);
            let (cfg, rt) = random_settings(&mut r, &core);
            let ds = stream(&mut r, 40, mixed_lengths);
            let want = transaction_reports(&cfg, &rt, &ds);
            assert!(want.len() >= 5, "{name}: the stream has intervals ({})", want.len());
            let offer = [1.0, 0.9, 0.5, 1.0, 0.7][seed as usize % 5];
            let run = drive(&core, &cfg, &rt, &ds, &mut r, Drive { offer, stalls: true, reset_at: None });
            assert_same(&format!("{name}, seed {seed}, {cfg:?}, {rt:?}"), &run.reports, &want);
        }
    }
}

/// A reset in the middle of the stream drops everything in flight; from then on the core behaves like a
/// fresh transaction model fed the rest of the stream.
#[test]
fn reset_mid_stream_restarts_the_core() {
    for (s, (name, core)) in shapes().into_iter().enumerate() {
        for seed in 0..3 {
            let mut r = rng(500 + 10 * s as u64 + seed);
            let (cfg, rt) = random_settings(&mut r, &core);
            let ds = stream(&mut r, 30, mixed_lengths);
            let reset_at = r.gen_range(ds.len() / 3..2 * ds.len() / 3);
            let drive_with = Drive { offer: 0.8, stalls: true, reset_at: Some(reset_at) };
            let run = drive(&core, &cfg, &rt, &ds, &mut r, drive_with);
            assert_eq!(run.first, reset_at, "{name}");
            let want = transaction_reports(&cfg, &rt, &ds[reset_at..]);
            assert_same(&format!("{name}, seed {seed}, after the reset"), &run.reports, &want);
        }
    }
}

/// With a reader that never stalls and intervals of a few thousand packets at full rate, the readout
/// engine keeps up: a marker never waits.
#[test]
fn markers_never_wait_when_the_reader_keeps_up() {
    for (s, (name, core)) in shapes().into_iter().enumerate() {
        for seed in 0..2 {
            let mut r = rng(900 + 10 * s as u64 + seed);
            let (cfg, rt) = random_settings(&mut r, &core);
            let ds = stream(&mut r, 20, |r| r.gen_range(2000..5000));
            let run = drive(&core, &cfg, &rt, &ds, &mut r, Drive { offer: 1.0, stalls: false, reset_at: None });
            assert_eq!(run.marker_waits, 0, "{name}, seed {seed}");
            // Full rate: about one cycle per descriptor (plus the sweep and the final readout).
            let (cycles, n) = (run.cycles, ds.len());
            assert!(cycles < n as u64 + 2000, "{name}, seed {seed}: {cycles} cycles for {n} descriptors");
            assert_same(name, &run.reports, &transaction_reports(&cfg, &rt, &ds));
        }
    }
}

/// 70 000 packets with the largest 48-bit timestamp into one bucket: the 64-bit sum wraps.
#[test]
fn bucket_timestamp_sum_wraps_at_64_bits() {
    let core = FinecombCoreConfig {
        shape: FinecombConfig { role: Role::Sender, banks: vec![BankConfig { buckets: 1, stash_depth: 0 }], isd: true },
        bucket_addr_bits: 1,
        stash_slot_bits: 1,
    };
    let cfg = core.shape.clone();
    let rt = FinecombRuntime { thresholds: vec![u32::MAX] };
    let ts = (1u64 << 48) - 1;
    let n = 70_000u128;
    let mut ds = vec![Descriptor::start()];
    ds.extend((0..n).map(|k| Descriptor::packet(k, ts | 7 << 48)));
    ds.push(Descriptor::end());
    let run = drive(&core, &cfg, &rt, &ds, &mut rng(7), Drive { offer: 1.0, stalls: false, reset_at: None });
    assert_eq!(run.reports.len(), 1);
    let b = run.reports[0].banks[0].buckets[0];
    assert!(n * ts as u128 > u64::MAX as u128, "the test must wrap");
    assert_eq!((b.count, b.ts), (n as u32, (n * ts as u128) as u64));
    assert_eq!(run.reports, transaction_reports(&cfg, &rt, &ds));
}
