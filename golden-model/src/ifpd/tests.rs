use super::reference::Reference;
use super::*;
use rand::{Rng, SeedableRng};

fn cfg(rows: usize, buckets: usize) -> IfpdConfig {
    IfpdConfig { rows, buckets, ts_shift: 0, bf_bits: 256, ..IfpdConfig::default() }
}

fn rt(mode: Mode, threshold: u32) -> IfpdRuntime {
    IfpdRuntime { mode, threshold, base: 0, case3: Case3Rule::Estimate }
}

fn b(fp: u32, t: u32) -> Bucket {
    Bucket { fp, t }
}

#[test]
fn the_papers_examples() {
    // Figures 3 and 4: a 3 × 3 sketch, packet (x, 25); x's buckets B(1,2) = t 20, B(2,3) = t 15, B(3,1) = t 12.
    let (c, r) = (cfg(3, 4), rt(Mode::Ifpd, 10));
    let x = Packet { fp: 7, t: 25 };
    // Example 1: B(3,1) holds x's fingerprint → D = 25 − 12 = 13, B(3,1).t ← 25.
    let d = decide(&c, &r, &[b(1, 20), b(2, 15), b(7, 12)], x, false);
    assert_eq!((d.case, d.row, d.d_est, d.new, d.all_rows), (Case::Match, 2, 13, b(7, 25), false));
    assert!(d.reported(&r));
    // Example 2: no match, B(1,2) has the largest timestamp 20 → replaced, D = 5.
    let d = decide(&c, &r, &[b(1, 20), b(2, 15), b(3, 12)], x, false);
    assert_eq!((d.case, d.row, d.d_est, d.new), (Case::Replace, 0, 5, b(7, 25)));
    assert!(!d.reported(&r));
    assert_eq!(d.writes(3), vec![Some(b(7, 25)), None, None]);
}

#[test]
fn ifpd_cases_rows_in_order_and_ties() {
    let (c, r) = (cfg(4, 4), rt(Mode::Ifpd, 1));
    let x = Packet { fp: 9, t: 100 };
    // The first empty row takes a new flow; a fingerprint in a later row never follows an empty one.
    let d = decide(&c, &r, &[b(1, 5), b(0, 0), b(0, 0), b(2, 7)], x, false);
    assert_eq!((d.case, d.row, d.d_est), (Case::Insert, 1, 0));
    // An empty bucket is fp = 0 whatever its t (relative time 0 is a real time).
    let d = decide(&c, &r, &[b(9, 0), b(1, 1), b(1, 1), b(1, 1)], x, false);
    assert_eq!((d.case, d.row, d.d_est), (Case::Match, 0, 100));
    // The first matching row wins.
    let d = decide(&c, &r, &[b(1, 5), b(9, 60), b(9, 70), b(2, 7)], x, false);
    assert_eq!((d.case, d.row, d.d_est), (Case::Match, 1, 40));
    // Ties in the largest timestamp: the lowest row.
    let d = decide(&c, &r, &[b(1, 5), b(2, 80), b(3, 80), b(4, 7)], x, false);
    assert_eq!((d.case, d.row, d.d_est), (Case::Replace, 1, 20));
    // Case 3 estimating zero.
    let z = IfpdRuntime { case3: Case3Rule::Zero, ..r };
    let d = decide(&c, &z, &[b(1, 5), b(2, 80), b(3, 80), b(4, 7)], x, false);
    assert_eq!((d.case, d.row, d.d_est), (Case::Replace, 1, 0));
}

#[test]
fn cm_and_cm_bf_follow_algorithm_1() {
    let c = cfg(3, 4);
    let x = Packet { fp: 9, t: 100 };
    let cm = rt(Mode::Cm, 1);
    // t_min = 40 in row 2 (ties: lowest row); every row written with t.
    let d = decide(&c, &cm, &[b(0, 70), b(0, 40), b(0, 40)], x, false);
    assert_eq!((d.case, d.row, d.d_est, d.all_rows, d.new), (Case::Match, 1, 60, true, b(0, 100)));
    assert_eq!(d.writes(3), vec![Some(b(0, 100)); 3]);
    // An empty row → t_min = 0 → first packet.
    let d = decide(&c, &cm, &[b(0, 70), b(0, 0), b(0, 40)], x, false);
    assert_eq!((d.case, d.d_est), (Case::Insert, 0));
    // A packet at relative time 0 stores 1 (0 is the empty mark) and still measures from 0.
    let d = decide(&c, &cm, &[b(0, 70), b(0, 0), b(0, 40)], Packet { fp: 9, t: 0 }, false);
    assert_eq!(d.new, b(0, 1));
    // CM ignores the filter; CM-BF takes its "new".
    assert_eq!(decide(&c, &cm, &[b(0, 70); 3], x, true).d_est, 30);
    let bf = rt(Mode::CmBf, 1);
    assert_eq!(decide(&c, &bf, &[b(0, 70); 3], x, true).case, Case::Insert);
    assert_eq!(decide(&c, &bf, &[b(0, 70); 3], x, false).d_est, 30);
}

#[test]
fn relative_time_wraps_and_orders_correctly() {
    let c = IfpdConfig { ts_bits: 16, ts_shift: 4, ..IfpdConfig::default() };
    // (ts >> 4) − base mod 2^16.
    assert_eq!(c.stored_time(0x1_0005 << 4, 3), 2);
    assert_eq!(c.stored_time(2 << 4, 5), 0xFFFD);
    assert_eq!(c.age(3, 0xFFFE), 5);
    // Across the wrap, t = 0xFFF0 is older than t = 0x0010: the most recent (largest in wrap-correct
    // order) is row 1, and the estimate is the wrapping difference.
    let r = rt(Mode::Ifpd, 1);
    let d = decide(&c, &r, &[b(1, 0xFFF0), b(2, 0x0010), b(3, 0x0008)], Packet { fp: 4, t: 0x20 }, false);
    assert_eq!((d.case, d.row, d.d_est), (Case::Replace, 1, 0x10));
    let d = decide(&c, &r, &[b(4, 0xFFF0)], Packet { fp: 4, t: 0x20 }, false);
    assert_eq!(d.d_est, 0x30);
    // CM's t_min across the wrap: the oldest is 0xFFF0.
    let d = decide(&c, &rt(Mode::Cm, 1), &[b(0, 0x0010), b(0, 0xFFF0)], Packet { fp: 4, t: 0x20 }, false);
    assert_eq!((d.row, d.d_est), (1, 0x30));
}

#[test]
fn config_checks_sizes_and_memory() {
    let c = IfpdConfig::default();
    c.check().unwrap();
    assert_eq!(c.addr_bits(), Some(12));
    assert_eq!(IfpdConfig { buckets: 25_600, ..c.clone() }.addr_bits(), None);
    assert_eq!(c.bucket_bits(Mode::Ifpd), 48);
    assert_eq!(c.memory_bits(Mode::Ifpd), 4 * 4096 * 48);
    assert_eq!(c.memory_bits(Mode::Cm), 4 * 4096 * 32);
    assert_eq!(c.memory_bits(Mode::CmBf), 4 * 4096 * 32 + 4 * 65_536);
    assert_eq!(c.ts_unit_ns(), 1024);
    for (bad, what) in [
        (IfpdConfig { rows: 9, ..c.clone() }, "rows"),
        (IfpdConfig { rows: 0, ..c.clone() }, "rows"),
        (IfpdConfig { buckets: 2, ..c.clone() }, "buckets"),
        (IfpdConfig { fp_bits: 33, ..c.clone() }, "fp_bits"),
        (IfpdConfig { ts_bits: 40, ..c.clone() }, "ts_bits"),
        (IfpdConfig { bf_bits: 10, ..c.clone() }, "bf_bits"),
        (IfpdConfig { bf_hashes: 9, ..c.clone() }, "bf_hashes"),
    ] {
        let e = bad.check().unwrap_err();
        assert!(e.0.contains(what), "{e}");
        assert!(IfpdModel::new(&bad, IfpdRuntime::default()).is_err());
    }
    let rt = IfpdRuntime::default();
    rt.check(&c).unwrap();
    let narrow = IfpdConfig { ts_bits: 16, ..c.clone() };
    assert!(rt.check(&narrow).unwrap_err().0.contains("threshold"));
    let nobf = IfpdConfig { bf_bits: 0, ..c.clone() };
    assert!(IfpdRuntime { mode: Mode::CmBf, ..rt }.check(&nobf).unwrap_err().0.contains("Bloom"));
    assert_eq!(IfpdRuntime::threshold_units(&c, 700_000_000), 683_594);
    assert_eq!(rt.threshold as u64, IfpdRuntime::threshold_units(&c, 700_000_000));
    let l = c.csr_layout();
    l.check().unwrap();
    assert_eq!(l.config_addr("threshold"), Some(1));
    assert_eq!(l.status_addr("case3_replace"), Some(0x83));
    assert_eq!(Mode::from_csr(2), Mode::CmBf);
    assert_eq!(Mode::by_name("cm-bf"), Some(Mode::CmBf));
}

#[test]
fn reports_round_trip_through_the_port_word() {
    let c = IfpdConfig::default();
    assert_eq!(c.report_bits(), 16 + 3 + 2 + 64);
    for r in [
        Report { fp: 0xFFFF, row: 7, case: Case::Replace, d_est: u32::MAX, t: 0x1234_5678 },
        Report { fp: 1, row: 0, case: Case::Match, d_est: 683_594, t: 0 },
        Report { fp: 0x8001, row: 3, case: Case::Insert, d_est: 0, t: u32::MAX },
    ] {
        assert_eq!(Report::unpack(&c, r.pack(&c)).unwrap(), r);
    }
    assert!(Report::unpack(&c, 0).is_err(), "case code 0 is not a report");
    let bk = b(0xABCD, 0x1234_5678);
    assert_eq!(Bucket::unpack(&c, bk.pack(&c)), bk);
}

/// A flow key whose 16-bit fingerprint hash is 0 (found by search; the hash is fixed).
fn flow_with_zero_fingerprint(c: &IfpdConfig) -> u128 {
    let h = c.fp_hash().unwrap();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    loop {
        let k = rng.gen::<u128>() & crate::common::mask128(FLOW_KEY_BITS);
        if h.eval(k) == 0 {
            return k;
        }
    }
}

#[test]
fn a_zero_fingerprint_is_stored_as_1_and_still_matches() {
    let c = IfpdConfig { buckets: 64, ..IfpdConfig::default() };
    let flow = flow_with_zero_fingerprint(&c);
    let mut m = IfpdModel::new(&c, IfpdRuntime { threshold: 5, ..IfpdRuntime::default() }).unwrap();
    assert_eq!(m.hashes(flow).1, 1);
    let o = m.step(&Descriptor { flow, ts: 0 });
    assert_eq!((o.decision.case, o.decision.new), (Case::Insert, b(1, 0)));
    assert_eq!(m.occupied(), 1, "relative time 0 with fingerprint 1 is an occupied bucket");
    let o = m.step(&Descriptor { flow, ts: 10 << 10 });
    assert_eq!((o.decision.case, o.decision.d_est), (Case::Match, 10));
    assert_eq!(o.report, Some(Report { fp: 1, row: 0, case: Case::Match, d_est: 10, t: 10 }));
}

#[test]
fn uncrowded_sketch_measures_every_delay_exactly() {
    let c = IfpdConfig { buckets: 1 << 12, ..IfpdConfig::default() };
    for mode in Mode::ALL {
        let mut m = IfpdModel::new(&c, IfpdRuntime { mode, threshold: 1000, ..IfpdRuntime::default() }).unwrap();
        m.start_interval(100);
        let base_ns = 100 << 10;
        // 20 flows, packets every (f + 1) ms.
        let mut events: Vec<(u64, u128)> = (0..20u64)
            .flat_map(|f| (1..=10).map(move |k| (base_ns + k * (f + 1) * 1_000_000, f as u128 + 77)))
            .collect();
        events.sort();
        let (mut last, mut expected_reports) = (std::collections::HashMap::new(), 0);
        for (ts, flow) in events {
            let o = m.step(&Descriptor { flow, ts });
            match last.insert(flow, ts) {
                None => assert_eq!(o.decision.d_est, 0, "{mode:?}: a first packet"),
                Some(prev) => {
                    let want = (ts >> 10) - (prev >> 10);
                    assert_eq!(o.decision.d_est as u64, want, "{mode:?}");
                    assert_eq!(o.report.is_some(), want >= 1000);
                    expected_reports += (want >= 1000) as u64;
                }
            }
        }
        assert_eq!(m.stats.packets, 200);
        assert_eq!(m.stats.case2_insert, 20, "{mode:?}");
        // Flow 0's 1 ms gaps are 976 units; flows 1..19 (2 ms and more) are all reported.
        assert_eq!((m.stats.reports, expected_reports), (171, 171));
    }
}

/// Random traffic with fingerprint collisions (8-bit fingerprints), full rows, non-power-of-two rows, ties:
/// the model and the naive reference agree packet by packet in every mode.
#[test]
fn model_equals_naive_reference_on_random_traffic() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(14);
    for (rows, buckets, fp_bits, flows) in
        [(1, 16, 8, 40), (2, 61, 8, 300), (4, 64, 8, 400), (8, 13, 4, 200), (4, 256, 16, 2000)]
    {
        for mode in Mode::ALL {
            for case3 in [Case3Rule::Estimate, Case3Rule::Zero] {
                let c = IfpdConfig {
                    rows,
                    buckets,
                    fp_bits,
                    ts_shift: 3,
                    bf_hashes: 3,
                    bf_bits: 97 * 8,
                    ..IfpdConfig::default()
                };
                let base = 1000;
                let r = IfpdRuntime { mode, threshold: 300, base, case3 };
                let mut m = IfpdModel::new(&c, r).unwrap();
                let mut reference = Reference::new(&c, r);
                let keys: Vec<u128> = (0..flows).map(|_| rng.gen::<u128>() >> 24).collect();
                // Start one unit after the base; steps of 0 (ties) to a few hundred units.
                let mut ts = (base + 1) << 3;
                let mut seen = [0u64; 4];
                for _ in 0..20_000 {
                    ts += [0, 8, 8 * rng.gen_range(1..50), 8 * rng.gen_range(100..600)][rng.gen_range(0..4)];
                    // Skewed flow popularity.
                    let flow = keys[(rng.gen::<f64>().powi(3) * flows as f64) as usize];
                    let o = m.step(&Descriptor { flow, ts });
                    let (case, row, d, rep) = reference.step(flow, ts);
                    let got = (o.decision.case, o.decision.row, o.decision.d_est as u64, o.report.is_some());
                    assert_eq!(got, (case, row, d, rep), "d={rows} w={buckets} {mode:?} {case3:?} at ts {ts}");
                    seen[case.code() as usize] += 1;
                    seen[0] += rep as u64;
                }
                assert!(seen[0] > 0 && seen[1] > 0 && seen[2] > 0, "{seen:?}");
                if mode == Mode::Ifpd && flows > rows * buckets {
                    assert!(seen[3] > 0, "case 3 exercised: {seen:?}");
                }
            }
        }
    }
}

/// `run` (hashes ahead, prefetches) gives `step`'s outcomes and leaves the same state, over chunks with the
/// settings changed, the sketch cleared and the interval rebased between them; CM-BF both with one hash bank
/// for the rows and the filter and with the two apart (`d + k` too many for one bank).
#[test]
fn run_equals_step() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(15);
    for (rows, buckets, fp_bits, bf_hashes, flows) in
        [(1, 16, 8, 1, 40), (2, 61, 8, 8, 300), (4, 64, 8, 4, 400), (8, 13, 4, 3, 200), (7, 256, 16, 5, 2000)]
    {
        let c = IfpdConfig { rows, buckets, fp_bits, ts_shift: 3, bf_hashes, bf_bits: 97 * 8, ..IfpdConfig::default() };
        assert_eq!(c.cm_bf_hash_bank().unwrap().is_some(), rows + bf_hashes <= 10);
        let r = IfpdRuntime { mode: Mode::Ifpd, threshold: 300, base: 1000, case3: Case3Rule::Estimate };
        let (mut by_step, mut by_run) = (IfpdModel::new(&c, r).unwrap(), IfpdModel::new(&c, r).unwrap());
        let keys: Vec<u128> = (0..flows).map(|_| rng.gen::<u128>() >> 24).collect();
        let mut ts = 1001 << 3;
        for chunk in 0..24 {
            let mode = Mode::ALL[chunk % 3];
            let case3 = if chunk % 5 == 4 { Case3Rule::Zero } else { Case3Rule::Estimate };
            let rt = IfpdRuntime { mode, threshold: rng.gen_range(0..600), case3, ..by_step.rt };
            (by_step.rt, by_run.rt) = (rt, rt);
            match chunk % 8 {
                6 => (by_step.clear(), by_run.clear()),
                7 => (by_step.start_interval(ts >> 3), by_run.start_interval(ts >> 3)),
                _ => ((), ()),
            };
            // Chunks shorter and longer than the look-ahead.
            let n = [0, 1, 3, super::sketch::LOOKAHEAD, 2000][chunk % 5];
            let packets: Vec<Descriptor> = (0..n)
                .map(|_| {
                    ts += [0, 8, 8 * rng.gen_range(1..50), 8 * rng.gen_range(100..600)][rng.gen_range(0..4)];
                    Descriptor { flow: keys[(rng.gen::<f64>().powi(3) * flows as f64) as usize], ts }
                })
                .collect();
            let want: Vec<Outcome> = packets.iter().map(|d| by_step.step(d)).collect();
            let mut got = vec![];
            by_run.run(&packets, |i, o| got.push((i, *o)));
            assert_eq!(got, want.into_iter().enumerate().collect::<Vec<_>>(), "d={rows} k={bf_hashes} chunk {chunk}");
            assert_eq!(by_run.stats, by_step.stats);
        }
        for row in 0..rows {
            assert_eq!(by_run.row(row), by_step.row(row), "d={rows} row {row}");
        }
        assert_eq!(by_run.bloom.as_ref().map(|b| b.ones()), by_step.bloom.as_ref().map(|b| b.ones()));
        assert!(by_step.stats.case1_match > 0 && by_step.stats.reports > 0);
    }
}

/// The decision is the modify stage of the shared multi-row RMW: packets of few flows back to back (every
/// forwarding distance in every row) through `MultiRmwModel` decide exactly as the transaction model and
/// leave the same rows.
#[test]
fn decide_drives_the_shared_multi_row_rmw() {
    use crate::common::multi_rmw::{MultiRmwInputs, MultiRmwModel};
    use crate::common::sram::RamPorts;
    let c = IfpdConfig { rows: 4, buckets: 16, fp_bits: 4, ts_shift: 0, bf_bits: 0, ..IfpdConfig::default() };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
    for mode in [Mode::Ifpd, Mode::Cm] {
        let r = rt(mode, 20);
        let mut txn = IfpdModel::new(&c, r).unwrap();
        let mut rmw: MultiRmwModel<Bucket, Packet> = MultiRmwModel::new(RamPorts::Dual, 4, 4, 48);
        let flows: Vec<u128> = (0..40).map(|_| rng.gen::<u128>() >> 24).collect();
        let (mut want, mut got) = (vec![], vec![]);
        let (mut ts, mut sent, mut cycle) = (1u64, 0, 0);
        while got.len() < 5000 {
            let reset = cycle == 0;
            let ready = rmw.ready(reset) == Some(true);
            let mut inp = MultiRmwInputs { reset, ..Default::default() };
            if ready && sent < 5000 {
                ts += rng.gen_range(0..30);
                let few = rng.gen_bool(0.5);
                let flow = flows[rng.gen_range(0..if few { 3 } else { 40 })];
                let (idx, fp) = txn.hashes(flow);
                want.push(txn.step(&Descriptor { flow, ts }).decision);
                inp.in_valid = true;
                inp.in_index = idx[..4].to_vec();
                inp.in_payload = Packet { fp, t: c.stored_time(ts, 0) };
                sent += 1;
            }
            rmw.step(&inp, |st| {
                let d = decide(&c, &r, &st.old, st.payload, false);
                got.push(d);
                d.writes(4)
            });
            cycle += 1;
        }
        assert_eq!(got, want, "{mode:?}");
        for row in 0..4 {
            assert_eq!(rmw.mem(row), txn.row(row), "{mode:?} row {row}");
        }
    }
}
