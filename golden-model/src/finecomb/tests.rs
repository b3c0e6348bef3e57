use super::*;
use rand::{Rng, SeedableRng};

fn rng(seed: u64) -> rand::rngs::SmallRng {
    rand::rngs::SmallRng::seed_from_u64(seed)
}

fn one_bank(role: Role, buckets: usize, w: usize) -> FinecombConfig {
    FinecombConfig { role, banks: vec![BankConfig { buckets, stash_depth: w }], isd: true }
}

fn all() -> FinecombRuntime {
    FinecombRuntime { thresholds: vec![u32::MAX] }
}

#[test]
fn thresholds_and_probabilities_round_trip() {
    assert_eq!(threshold_for(1.0), u32::MAX);
    assert_eq!(threshold_for(2.0), u32::MAX);
    assert_eq!(threshold_for(0.0), 0);
    assert_eq!(probability_of(u32::MAX), 1.0);
    for p in [1e-6, 0.003, 0.25, 0.5, 0.999] {
        assert!((probability_of(threshold_for(p)) - p).abs() < 1e-9, "{p}");
    }
}

#[test]
fn index_reduction_in_16x16_multiplies_equals_multiply_high() {
    let mut r = rng(1);
    for m in [1usize, 2, 3, 581, 1000, 4096, 65535] {
        for _ in 0..20_000 {
            let d: u64 = r.gen();
            let i = bucket_index(d, m);
            assert!(i < m);
            assert_eq!(bucket_index_16x16(d, m), i, "digest {d:#x}, M {m}");
        }
        assert_eq!(bucket_index(0xFFFF_FFFF, m), m - 1);
        assert_eq!(bucket_index(0, m), 0);
    }
}

#[test]
fn sampling_rate_and_bucket_spread_follow_the_thresholds() {
    let dg = Digest::new();
    let mut r = rng(2);
    let n = 200_000;
    let t = threshold_for(0.1);
    let mut hist = vec![0usize; 581];
    let mut sampled = 0;
    for _ in 0..n {
        let d = dg.of(r.gen());
        if Digest::sampled(d, t) {
            sampled += 1;
        }
        hist[bucket_index(d, 581)] += 1;
    }
    let rate = sampled as f64 / n as f64;
    assert!((rate - 0.1).abs() < 0.004, "sampling rate {rate}");
    let mean = n as f64 / 581.0;
    let chi2: f64 = hist.iter().map(|&c| (c as f64 - mean).powi(2) / mean).sum();
    // 580 degrees of freedom: mean 580, sd 34.
    assert!(chi2 < 580.0 + 5.0 * 34.0, "chi2 {chi2}");
}

#[test]
fn digest_is_the_two_hash_units_side_by_side_then_mixed() {
    let dg = Digest::new();
    let h3 = XorHash::new(HashKind::H3 { out_bits: 32 }, 128).unwrap();
    let crc = XorHash::new(HashKind::Crc32Mpeg2, 128).unwrap();
    let mut r = rng(3);
    for _ in 0..1000 {
        let k: u128 = r.gen();
        assert_eq!(dg.of(k), mix(h3.eval_masks(k) << 32 | crc.eval_masks(k)));
    }
}

/// Independent reference: per bucket, the set of packets (sum in u128, count, XOR) of one interval.
fn reference(keys: &[(u128, u64)], m: usize, t: u32) -> Vec<Bucket> {
    let dg = Digest::new();
    let mut sums = vec![(0u128, 0u64, 0u64); m];
    for &(k, ts) in keys {
        let d = dg.of(k);
        if (d >> 32) as u32 <= t {
            let s = &mut sums[((d & 0xFFFF_FFFF) as u128 * m as u128 >> 32) as usize];
            s.0 += (ts & ((1 << 48) - 1)) as u128;
            s.1 += 1;
            s.2 ^= d;
        }
    }
    sums.iter().map(|s| Bucket { ts: s.0 as u64, count: s.1 as u32, isd: s.2 }).collect()
}

fn run(model: &mut FinecombModel, ds: &[Descriptor]) -> Vec<IntervalReport> {
    let mut out: Vec<IntervalReport> = ds.iter().filter_map(|d| model.step(d)).collect();
    out.extend(model.flush());
    out
}

#[test]
fn sender_and_receiver_agree_on_the_same_packet_set_in_any_order() {
    let mut r = rng(4);
    let pkts: Vec<(u128, u64)> = (0..50_000).map(|i| (r.gen(), 1_000_000 + i * 200)).collect();
    let t = threshold_for(0.3);
    let rt = FinecombRuntime { thresholds: vec![t] };
    let cfg = one_bank(Role::Sender, 581, 0);
    let mut s = FinecombModel::new(&cfg, rt.clone()).unwrap();
    let mut sd = vec![Descriptor::start()];
    sd.extend(pkts.iter().map(|&(k, ts)| Descriptor::packet(k, ts)));
    sd.push(Descriptor::end());
    let sr = run(&mut s, &sd);
    assert_eq!(sr.len(), 1);
    assert_eq!(sr[0].banks[0].buckets, reference(&pkts, 581, t));
    // The receiver sees them shuffled, each 10 µs later.
    let mut shuffled = pkts.clone();
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, r.gen_range(0..=i));
    }
    let mut rv = FinecombModel::new(&cfg.with_role(Role::Receiver), rt).unwrap();
    let mut rd = vec![Descriptor::start()];
    rd.extend(shuffled.iter().map(|&(k, ts)| Descriptor::packet(k, ts + 10_000)));
    rd.push(Descriptor::end());
    let rr = run(&mut rv, &rd);
    assert_eq!(rr.len(), 1);
    let (sb, rb) = (&sr[0].banks[0].buckets, &rr[0].banks[0].buckets);
    let mut total = 0u64;
    for (a, b) in sb.iter().zip(rb) {
        assert_eq!((a.count, a.isd), (b.count, b.isd));
        assert_eq!(b.ts.wrapping_sub(a.ts), a.count as u64 * 10_000);
        total += a.count as u64;
    }
    assert!((total as f64 - 15_000.0).abs() < 500.0, "{total} sampled");
}

#[test]
fn accumulators_wrap_modulo_their_widths() {
    // 70 000 packets with the largest 48-bit timestamp into one bucket: the 64-bit sum wraps.
    let mut m = FinecombModel::new(&one_bank(Role::Sender, 1, 0), all()).unwrap();
    let ts = (1u64 << 48) - 1;
    let mut ds = vec![Descriptor::start()];
    ds.extend((0..70_000u128).map(|k| Descriptor::packet(k, ts | (7 << 48))));
    ds.push(Descriptor::end());
    let r = run(&mut m, &ds);
    let b = r[0].banks[0].buckets[0];
    assert_eq!(b.count, 70_000);
    assert_eq!(b.ts, ((70_000u128 * ts as u128) % (1u128 << 64)) as u64);
    assert!(70_000u128 * ts as u128 > u64::MAX as u128, "the test must wrap");
    let dg = Digest::new();
    assert_eq!(b.isd, (0..70_000u128).fold(0, |x, k| x ^ dg.of(k)));
}

#[test]
fn sync_markers_swap_banks_and_delimit_intervals() {
    let mut m = FinecombModel::new(&one_bank(Role::Sender, 4, 0), all()).unwrap();
    let p = |k: u128| Descriptor::packet(k, 100);
    // Packets before the first start and between end and start are not counted.
    let ds = [p(1), Descriptor::start(), p(2), p(3), Descriptor::sync(), p(4), Descriptor::end(), p(5), p(6)];
    let r = run(&mut m, &ds);
    assert_eq!(r.len(), 2);
    assert_eq!((r[0].interval, r[1].interval), (0, 1));
    let count = |rep: &IntervalReport| rep.banks[0].buckets.iter().map(|b| b.count).sum::<u32>();
    assert_eq!((count(&r[0]), count(&r[1])), (2, 1));
    // The sender's report comes at the marker itself.
    let mut m = FinecombModel::new(&one_bank(Role::Sender, 4, 0), all()).unwrap();
    assert!(m.step(&Descriptor::start()).is_none());
    assert!(m.step(&p(9)).is_none());
    let rep = m.step(&Descriptor::sync()).expect("report at the sync");
    assert_eq!(rep.banks[0].buckets.iter().map(|b| b.ts).sum::<u64>(), 100);
    // The set is cleared after readout: the next interval starts from zero.
    let rep = m.step(&Descriptor::end()).unwrap();
    assert!(rep.banks[0].buckets.iter().all(|b| *b == Bucket::default()));
}

#[test]
fn receiver_stash_holds_the_four_substashes() {
    let w = 3;
    let mut m = FinecombModel::new(&one_bank(Role::Receiver, 8, w), all()).unwrap();
    let dg = Digest::new();
    let e = |k: u128| StashEntry { digest: dg.of(k), ts: k as u64 * 10 };
    let p = |k: u128| Descriptor::packet(k, k as u64 * 10);
    let mut reports = vec![];
    for k in 1..=10 {
        reports.extend(m.step(&p(k)));
    }
    reports.extend(m.step(&Descriptor::start()));
    for k in 11..=30 {
        reports.extend(m.step(&p(k)));
    }
    reports.extend(m.step(&Descriptor::sync()));
    assert!(reports.is_empty(), "the receiver waits for its post-end substash");
    reports.extend(m.step(&p(31)));
    reports.extend(m.step(&p(32)));
    assert!(reports.is_empty());
    reports.extend(m.step(&p(33)));
    assert_eq!(reports.len(), 1, "complete once post-end holds w entries");
    let s = &reports[0].banks[0].stash;
    assert_eq!(s.pre_start, vec![e(8), e(9), e(10)]);
    assert_eq!(s.post_start, vec![e(11), e(12), e(13)]);
    assert_eq!(s.pre_end, vec![e(28), e(29), e(30)]);
    assert_eq!(s.post_end, vec![e(31), e(32), e(33)]);
    assert_eq!(reports[0].banks[0].buckets.iter().map(|b| b.count).sum::<u32>(), 20);
    // Interval 1 (started by the sync) has the same pre-start as interval 0's pre-end; it ends early and
    // flush() hands out its partial post-end.
    m.step(&p(34));
    assert!(m.step(&Descriptor::end()).is_none());
    m.step(&p(35));
    let last = m.flush().expect("pending readout");
    let s = &last.banks[0].stash;
    assert_eq!(last.interval, 1);
    assert_eq!(s.pre_start, vec![e(28), e(29), e(30)]);
    assert_eq!(s.post_start, vec![e(31), e(32), e(33)]);
    assert_eq!(s.pre_end, vec![e(32), e(33), e(34)]);
    assert_eq!(s.post_end, vec![e(35)]);
    assert_eq!(last.banks[0].buckets.iter().map(|b| b.count).sum::<u32>(), 4);
    assert!(m.flush().is_none());
}

#[test]
fn stash_keeps_only_sampled_packets() {
    let t = threshold_for(0.5);
    let mut m = FinecombModel::new(&one_bank(Role::Receiver, 8, 4), FinecombRuntime { thresholds: vec![t] }).unwrap();
    m.step(&Descriptor::start());
    for k in 0..100u128 {
        m.step(&Descriptor::packet(k, 1));
    }
    assert!(m.step(&Descriptor::end()).is_none());
    let rep = (100..200u128).find_map(|k| m.step(&Descriptor::packet(k, 1))).expect("post-end fills");
    assert!(m.flush().is_none());
    let s = &rep.banks[0].stash;
    for sub in [&s.pre_start, &s.post_start, &s.pre_end, &s.post_end] {
        assert!(sub.iter().all(|e| Digest::sampled(e.digest, t)));
    }
    assert_eq!((s.post_start.len(), s.pre_end.len(), s.post_end.len()), (4, 4, 4));
}

#[test]
fn banks_share_the_digest_and_nest_their_samples() {
    let cfg = FinecombConfig {
        role: Role::Sender,
        banks: vec![BankConfig { buckets: 100, stash_depth: 0 }, BankConfig { buckets: 37, stash_depth: 0 }],
        isd: true,
    };
    let rt = FinecombRuntime::with_probabilities(&[0.5, 0.05]);
    let mut m = FinecombModel::new(&cfg, rt.clone()).unwrap();
    let mut r = rng(5);
    let pkts: Vec<(u128, u64)> = (0..20_000).map(|i| (r.gen(), i)).collect();
    let mut ds = vec![Descriptor::start()];
    ds.extend(pkts.iter().map(|&(k, ts)| Descriptor::packet(k, ts)));
    ds.push(Descriptor::end());
    let rep = run(&mut m, &ds);
    for (b, bank) in rep[0].banks.iter().enumerate() {
        assert_eq!(bank.buckets, reference(&pkts, cfg.banks[b].buckets, rt.thresholds[b]), "bank {b}");
    }
    let total = |b: usize| rep[0].banks[b].buckets.iter().map(|x| x.count).sum::<u32>();
    assert!(total(1) < total(0) / 5);
}

#[test]
fn lda_mode_keeps_no_digests() {
    let cfg = FinecombConfig { isd: false, ..one_bank(Role::Receiver, 16, 0) };
    let mut m = FinecombModel::new(&cfg, all()).unwrap();
    let mut ds = vec![Descriptor::start()];
    ds.extend((0..1000u128).map(|k| Descriptor::packet(k, 5)));
    ds.push(Descriptor::end());
    let rep = run(&mut m, &ds);
    assert!(rep[0].banks[0].buckets.iter().all(|b| b.isd == 0));
    assert_eq!(rep[0].banks[0].buckets.iter().map(|b| b.count).sum::<u32>(), 1000);
    let bad = FinecombConfig { isd: false, ..one_bank(Role::Receiver, 16, 2) };
    assert!(FinecombModel::new(&bad, all()).unwrap_err().0.contains("LDA mode"));
}

#[test]
fn bad_configurations_are_errors() {
    let bad = |cfg: FinecombConfig, rt: FinecombRuntime| FinecombModel::new(&cfg, rt).is_err();
    assert!(bad(FinecombConfig { banks: vec![], ..FinecombConfig::default() }, FinecombRuntime { thresholds: vec![] }));
    assert!(bad(one_bank(Role::Sender, 0, 0), all()));
    assert!(bad(one_bank(Role::Sender, MAX_BUCKETS + 1, 0), all()));
    assert!(bad(one_bank(Role::Receiver, 10, MAX_STASH_DEPTH + 1), all()));
    assert!(bad(one_bank(Role::Sender, 10, 0), FinecombRuntime { thresholds: vec![1, 2] }));
    let d = FinecombConfig::default();
    assert_eq!(d.banks.len(), DEFAULT_BANKS);
    assert!(FinecombModel::new(&d, FinecombRuntime { thresholds: vec![u32::MAX; DEFAULT_BANKS] }).is_ok());
    // A sender instantiates no stash whatever the bank config says.
    assert_eq!(d.with_role(Role::Sender).stash_depth(0), 0);
}

#[test]
fn ring_restarts_at_every_effective_marker_and_ineffective_markers_do_nothing() {
    let w = 4;
    let mut m = FinecombModel::new(&one_bank(Role::Receiver, 8, w), all()).unwrap();
    let dg = Digest::new();
    let e = |k: u128| StashEntry { digest: dg.of(k), ts: k as u64 };
    let p = |k: u128| Descriptor::packet(k, k as u64);
    let mut reports = vec![];
    let mut feed = |ds: &[Descriptor]| reports.extend(ds.iter().filter_map(|d| m.step(d)));
    // An end while not counting is ineffective: the ring keeps 1..=3 and the start after it sees them.
    feed(&[p(1), p(2), Descriptor::end(), p(3), Descriptor::start()]);
    // A start while counting is ineffective: post-start keeps filling across it.
    feed(&[p(4), p(5), Descriptor::start(), p(6), p(7), p(8)]);
    // Interval 1 ends 2 sampled packets after the sync: the end cuts interval 0's post-end (reported
    // here), and interval 1's pre-end holds only what the ring got since the sync.
    feed(&[Descriptor::sync(), p(9), p(10), Descriptor::end()]);
    // A second end is ineffective: interval 1's post-end keeps filling across it.
    feed(&[Descriptor::end(), p(11), Descriptor::end(), p(12)]);
    assert_eq!(reports.len(), 1, "interval 0, its post-end cut by the effective end");
    let s = &reports[0].banks[0].stash;
    assert_eq!(reports[0].interval, 0);
    assert_eq!(reports[0].banks[0].buckets.iter().map(|b| b.count).sum::<u32>(), 5);
    assert_eq!(s.pre_start, vec![e(1), e(2), e(3)]);
    assert_eq!(s.post_start, vec![e(4), e(5), e(6), e(7)]);
    assert_eq!(s.pre_end, vec![e(5), e(6), e(7), e(8)]);
    assert_eq!(s.post_end, vec![e(9), e(10)]);
    let last = m.flush().expect("interval 1 pending");
    let s = &last.banks[0].stash;
    assert_eq!(last.interval, 1);
    assert_eq!(s.pre_start, vec![e(5), e(6), e(7), e(8)]);
    assert_eq!(s.post_start, vec![e(9), e(10)], "cut by the end");
    assert_eq!(s.pre_end, vec![e(9), e(10)], "the ring restarted at the sync");
    assert_eq!(s.post_end, vec![e(11), e(12)]);
}

/// The finaliser makes the digest nonlinear: XORs of structured key sets no longer cancel (they always do
/// for the linear hash: L(a) ^ L(b) ^ L(c) ^ L(a ^ b ^ c) = 0), e.g. IP IDs {4, 5} lost and {6, 7} reordered
/// in; and it is a bijection (S-box a permutation, no collisions among many random inputs).
#[test]
fn digest_is_nonlinear_and_the_finaliser_a_bijection() {
    let dg = Digest::new();
    let linear = |k: u128| dg.hi.eval(k) << 32 | dg.lo.eval(k);
    let mut r = rng(9);
    for _ in 0..1000 {
        let (a, b, c): (u128, u128, u128) = (r.gen(), r.gen(), r.gen());
        assert_eq!(linear(a) ^ linear(b) ^ linear(c) ^ linear(a ^ b ^ c), 0);
        assert_ne!(dg.of(a) ^ dg.of(b) ^ dg.of(c) ^ dg.of(a ^ b ^ c), 0, "{a:x} {b:x} {c:x}");
    }
    let flow = |ip_id: u128| (0x0a00_0001_0a00_0002_1f90_0050_06u128 << 24) | ip_id;
    assert_ne!(dg.of(flow(4)) ^ dg.of(flow(5)), dg.of(flow(6)) ^ dg.of(flow(7)));
    let mut seen: Vec<u16> = MIX_SBOX.iter().map(|&x| x as u16).collect();
    seen.sort();
    assert_eq!(seen, (0..16).collect::<Vec<u16>>());
    let mut outs: Vec<u64> = (0..200_000).map(|_| mix(r.gen())).collect();
    outs.sort();
    outs.dedup();
    assert_eq!(outs.len(), 200_000);
}
