//! The cycle model against the transaction model: same SVBF contents, counters, samples and statistics
//! after random streams over several epochs with center reloads, flushes under traffic and idle gaps.

use super::cycle::*;
use super::lookup::PortAnswer;
use super::model::{FlushRecord, MapleModel, MapleRuntime};
use super::*;
use rand::{Rng, SeedableRng};

fn hw(hashes: usize, addr_bits: usize, max_centers: usize) -> MapleHwConfig {
    MapleHwConfig {
        store: MapleConfig {
            key_bits: 64,
            hashes,
            svbf_bits: hashes * (32 << addr_bits),
            layout: SvbfLayout::Partitioned,
            word_bits: 32,
            sample_fifo_bits: 4,
        },
        max_centers,
        record_fifo_bits: 4,
        registered_ram: false,
    }
}

/// The same shape on registered block RAM (modify stage S4).
fn hw_reg(hashes: usize, addr_bits: usize, max_centers: usize) -> MapleHwConfig {
    MapleHwConfig { registered_ram: true, ..hw(hashes, addr_bits, max_centers) }
}

/// Sorted centers, sometimes with duplicates.
fn centers(rng: &mut impl Rng, max: usize) -> Vec<u32> {
    let k = rng.gen_range(1..=max);
    let mut v: Vec<u32> = (0..k).map(|_| rng.gen_range(0..20_000)).collect();
    if k > 2 && rng.gen_bool(0.3) {
        v[1] = v[0];
    }
    v.sort_unstable();
    v
}

/// Drives the cycle model: queued CSR writes one per cycle, packets offered with gaps, records and samples
/// collected.
struct Driver {
    m: MapleCycleModel,
    writes: std::collections::VecDeque<(u8, u32)>,
    records: Vec<Record>,
    samples: Vec<u32>,
}

/// What one cycle of [`Driver::cycle_with`] did.
struct Step {
    accepted: bool,
    epoch: bool,
    lk_accepted: bool,
    answer: Option<PortAnswer>,
}

impl Driver {
    /// One cycle; `pkt` is offered; returns whether it was accepted and whether an epoch write went out.
    fn cycle(&mut self, rng: &mut impl Rng, pkt: Option<Descriptor>, rec_ready: bool) -> (bool, bool) {
        let s = self.cycle_with(rng, pkt, rec_ready, None, false);
        (s.accepted, s.epoch)
    }

    /// One cycle with the lookup port: `lk` offered, the answer taken when `ans_ready`.
    fn cycle_with(
        &mut self,
        rng: &mut impl Rng,
        pkt: Option<Descriptor>,
        rec_ready: bool,
        lk: Option<u128>,
        ans_ready: bool,
    ) -> Step {
        let mut i = MapleInputs { smp_ready: true, rec_ready, ans_ready, ..Default::default() };
        (i.lk_valid, i.lk_key) = (lk.is_some(), lk.unwrap_or_else(|| rng.gen()));
        if let Some((a, v)) = self.writes.pop_front() {
            (i.csr_wr_en, i.csr_addr, i.csr_wr_data) = (true, a, v);
        }
        match pkt {
            Some(d) => (i.in_valid, i.key, i.latency) = (true, d.key, d.latency),
            None => (i.key, i.latency) = (rng.gen(), rng.gen()),
        }
        let o = self.m.step(&i);
        if o.rec_valid == Some(true) && rec_ready {
            self.records.push(Record::unpack(&self.m.cfg, o.rec_data.unwrap()));
        }
        if o.smp_valid == Some(true) {
            self.samples.push(o.smp_data.unwrap());
        }
        Step {
            accepted: i.in_valid && o.in_ready == Some(true),
            epoch: i.csr_wr_en && i.csr_addr == CSR_EPOCH,
            lk_accepted: i.lk_valid && o.lk_ready == Some(true),
            answer: o.answer().filter(|_| ans_ready),
        }
    }
}

/// The flushed epoch rebuilt from a flush's records.
fn rebuild(cfg: &MapleHwConfig, records: &[Record], k: usize) -> FlushRecord {
    let (h, words) = (cfg.store.hashes, 1usize << cfg.addr_bits());
    assert_eq!(records.len(), (h + 1) * words, "one record per word of every row");
    let mut out = FlushRecord { centers: vec![], count: vec![0; k], sum: vec![0; k], words: vec![0; h * words] };
    for (n, r) in records.iter().enumerate() {
        assert_eq!((r.row, r.addr), (n / words, n % words), "records in row-major order");
        if r.row < h {
            out.words[r.row * words + r.addr] = r.data as u64;
        } else if r.addr < k {
            out.count[r.addr] = (r.data & 0xffff_ffff) as u64;
            out.sum[r.addr] = (r.data >> 32) as u64;
        } else {
            assert_eq!(r.data, 0, "no counts beyond k");
        }
    }
    out
}

fn matches_transaction_model(cfg: &MapleHwConfig, seed: u64, epochs: usize, per_epoch: usize) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let rt =
        MapleRuntime { sample_threshold: MapleRuntime::threshold_for(0.3), prng_seed: rng.gen(), ..Default::default() };
    let mut d =
        Driver { m: MapleCycleModel::new(cfg).unwrap(), writes: Default::default(), records: vec![], samples: vec![] };
    d.m.step(&MapleInputs { reset: true, ..Default::default() });
    d.writes.extend([(CSR_SAMPLE_THRESHOLD, rt.sample_threshold), (CSR_PRNG_SEED, rt.prng_seed)]);
    let pool: Vec<u128> = (0..64).map(|_| rng.gen::<u64>() as u128).collect();
    let mut tm: Option<MapleModel> = None;
    let (mut want_samples, mut last_key) = (vec![], 0u128);
    let (mut wraps, mut flushes, mut pending) = (0, 0, None::<FlushRecord>);
    let total = (cfg.store.hashes + 1) << cfg.addr_bits();
    let mut live = vec![0u32];
    for e in 0..=epochs {
        // Load the next epoch's centers (under traffic), then the marker once the last flush is over.
        let c = centers(&mut rng, cfg.max_centers);
        d.writes.extend(center_load_writes(&c));
        let mut sent = 0;
        let mut marker_queued = false;
        loop {
            let quiet = d.writes.is_empty() && !d.m.flush_busy() && d.m.records.level() == 0;
            if quiet && !marker_queued && (e == 0 || sent >= per_epoch) {
                assert!(pending.is_none(), "every record of the last flush arrived");
                if e == epochs {
                    break;
                }
                d.writes.push_back((CSR_EPOCH, 1));
                marker_queued = true;
            }
            let pkt = (e > 0 && sent < per_epoch && rng.gen_bool(0.85)).then(|| {
                let key = match rng.gen_range(0..10) {
                    0..=2 => last_key,
                    3..=7 => pool[rng.gen_range(0..pool.len())],
                    _ => rng.gen::<u64>() as u128,
                };
                // A third exactly between two centers of the epoch (ties), the rest anywhere around them.
                let cur = &live;
                let latency = if rng.gen_bool(0.3) {
                    let (a, b) = (cur[rng.gen_range(0..cur.len())], cur[rng.gen_range(0..cur.len())]);
                    ((a as u64 + b as u64) / 2) as u32
                } else {
                    rng.gen_range(0..24_000)
                };
                Descriptor { key, latency }
            });
            let rec_ready = rng.gen_bool(0.6);
            let (accepted, epoch_now) = d.cycle(&mut rng, pkt, rec_ready);
            if accepted {
                let p = pkt.unwrap();
                last_key = p.key;
                let t = tm.as_mut().expect("packets flow from the first epoch on");
                if t.step(&p).sampled {
                    want_samples.push(p.latency);
                }
                t.pop_sample();
                sent += 1;
            }
            wraps += d.m.last_insert.as_ref().map_or(0, |i| i.wrapped.iter().filter(|&&w| w).count());
            // The flush of the last epoch, streamed under this epoch's traffic.
            if let Some(f) = pending.take_if(|_| d.records.len() == total) {
                let r = rebuild(cfg, &d.records, f.count.len());
                assert_eq!(r.words, f.words, "epoch {e}: SVBF words of the flushed epoch");
                assert_eq!((&r.count, &r.sum), (&f.count, &f.sum), "epoch {e}: counters of the flushed epoch");
                assert_eq!(r.count.iter().sum::<u64>(), per_epoch as u64);
                flushes += 1;
            }
            if epoch_now {
                let cs = Centers::new(c.clone()).unwrap();
                live = c.clone();
                match tm.as_mut() {
                    None => tm = Some(MapleModel::new(&cfg.store, rt, cs).unwrap()),
                    Some(t) => {
                        t.load_centers(cs);
                        t.epoch();
                        pending = t.flush();
                    }
                }
                d.records.clear();
                break;
            }
        }
    }
    // Drain, then the active bank must be the transaction model's active epoch.
    for _ in 0..10 {
        d.cycle(&mut rng, None, true);
    }
    let t = tm.unwrap();
    let (h, words) = (cfg.store.hashes, 1usize << cfg.addr_bits());
    let bank = &d.m.banks[d.m.active()];
    let got: Vec<u64> = (0..h).flat_map(|j| bank.mem(j)[..words].iter().map(|&v| v as u64)).collect();
    assert_eq!(got, t.active().store.words(), "active bank words");
    for (i, (&c, &s)) in t.active().count.iter().zip(&t.active().sum).enumerate() {
        assert_eq!(bank.mem(h)[i], c as u128 | (s as u128) << 32, "center {i} counters");
    }
    assert_eq!(d.samples, want_samples, "samples");
    assert_eq!(d.m.stats.packets, t.stats.packets);
    assert_eq!(d.m.stats.epochs, t.stats.epochs + 1, "the first marker starts the model's first epoch");
    assert!(t.stats.packets as usize >= epochs.saturating_sub(1) * per_epoch);
    assert!(wraps > 0, "some insert wrapped at a segment's end");
    assert_eq!(flushes, epochs - 1, "every epoch with packets flushed and compared");
}

#[test]
fn cycle_model_equals_transaction_model_small() {
    matches_transaction_model(&hw(3, 6, 8), 1, 6, 3000);
    matches_transaction_model(&hw(2, 6, 8), 2, 4, 3000);
}

#[test]
fn cycle_model_equals_transaction_model_k64() {
    matches_transaction_model(&hw(4, 7, 64), 3, 5, 4000);
}

#[test]
fn cycle_model_equals_transaction_model_registered_ram() {
    matches_transaction_model(&hw_reg(3, 6, 8), 4, 6, 3000);
    matches_transaction_model(&hw_reg(4, 7, 64), 5, 4, 3000);
}

#[test]
fn records_pack_and_unpack() {
    let cfg = hw(3, 6, 8);
    let r = Record { row: 3, addr: 63, data: (1u128 << 96) - 1 };
    assert_eq!(Record::unpack(&cfg, r.pack(&cfg)), r);
    assert!(cfg.record_bits() <= 128);
    assert!(hw(3, 6, 65).check().is_err());
    let mut bad = hw(3, 6, 8);
    bad.store.svbf_bits += 32;
    assert!(bad.check().is_err());
}

/// The lookup port answers what the transaction model's lookup answers on the same frozen epoch, for
/// inserted keys and unknown ones, under the next epoch's traffic, with both tie-breaks; an uncontended
/// lookup takes exactly [`super::lookup::LookupEngine::latency`] cycles. The flush waits for its command
/// (options bit 1) and the flushed epoch still equals the transaction model's.
fn lookups_match_transaction_model(cfg: &MapleHwConfig, seed: u64, epochs: usize, per_epoch: usize) {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut d =
        Driver { m: MapleCycleModel::new(cfg).unwrap(), writes: Default::default(), records: vec![], samples: vec![] };
    d.m.step(&MapleInputs { reset: true, ..Default::default() });
    let mut rt = MapleRuntime { manual_flush: true, ..Default::default() };
    d.writes.extend([(CSR_OPTIONS, rt.options_word())]);
    let pool: Vec<u128> = (0..200).map(|_| rng.gen::<u64>() as u128).collect();
    let (mut tm, mut kinds, mut timed, mut count_ties) = (None::<MapleModel>, [0usize; 3], 0, 0);
    let total = (cfg.store.hashes + 1) << cfg.addr_bits();
    for e in 0..=epochs {
        // In epochs e ≡ 2 (mod 3) the latencies alternate between the lowest and the highest center (at
        // least two): the pool's keys are stored under both, which count the same, so their multi-matches
        // tie on the count — looked up in e + 1 with the count tie-break (the lowest-index rule).
        let light = e % 3 == 2;
        let mut c = centers(&mut rng, cfg.max_centers);
        if light && c[0] == c[c.len() - 1] {
            c = vec![c[0], c[0] + 1000];
        }
        d.writes.extend(center_load_writes(&c));
        d.writes.push_back((CSR_EPOCH, 1));
        // The marker (after the center load), then the last epoch's lookups under this epoch's traffic.
        while !d.cycle(&mut rng, None, true).1 {}
        // The swap is at the end of the cycle after the write: a lookup accepted before it reads the old bank.
        d.cycle(&mut rng, None, true);
        let cs = Centers::new(c.clone()).unwrap();
        match tm.as_mut() {
            None => tm = Some(MapleModel::new(&cfg.store, rt, cs).unwrap()),
            Some(t) => {
                t.load_centers(cs);
                t.epoch();
            }
        }
        let t = tm.as_mut().unwrap();
        // Tie-break switched now and then (the engine reads it at Classify).
        let tie = if e % 3 == 1 { TieBreak::None } else { TieBreak::Count };
        if tie != rt.tie {
            (rt.tie, t.rt.tie) = (tie, tie);
            d.writes.push_back((CSR_OPTIONS, rt.options_word()));
        }
        // The first marker starts the model's first epoch: nothing frozen to look up yet.
        let mut keys: Vec<u128> = (0..if e > 0 { 60 } else { 0 }).map(|_| pool[rng.gen_range(0..pool.len())]).collect();
        keys.extend((0..if e > 0 { 30 } else { 0 }).map(|_| rng.gen::<u64>() as u128));
        let (mut sent, mut lk_at, mut next) = (0, None::<u64>, 0);
        let mut cycle = 0u64;
        let near = [c[0], c[c.len() - 1]];
        while sent < per_epoch || next < keys.len() || lk_at.is_some() {
            cycle += 1;
            let quiet = rng.gen_bool(0.3);
            let pkt = (!quiet && sent < per_epoch && rng.gen_bool(0.8)).then(|| Descriptor {
                key: pool[rng.gen_range(0..pool.len())],
                latency: if light { near[sent % 2] } else { rng.gen_range(0..25_000) },
            });
            let offer = (lk_at.is_none() && next < keys.len() && rng.gen_bool(0.5)).then(|| keys[next]);
            let take = rng.gen_bool(0.7);
            let s = d.cycle_with(&mut rng, pkt, true, offer, take);
            if s.accepted {
                t.step(&pkt.unwrap());
                t.pop_sample();
                sent += 1;
            }
            if s.lk_accepted {
                lk_at = Some(cycle);
            }
            if let Some(a) = s.answer {
                let key = keys[next];
                let (want, _) = t.lookup(key).expect("a frozen epoch");
                let got_center = a.center_valid.then_some(a.center);
                assert_eq!(
                    (a.kind, a.candidates, got_center),
                    (want.kind as u8, want.candidates, want.center),
                    "epoch {e}, key {key:#x}"
                );
                if want.center.is_some() {
                    assert_eq!(
                        (Some(a.latency), Some(a.refined)),
                        (want.latency, want.refined),
                        "epoch {e}, key {key:#x}"
                    );
                }
                kinds[want.kind as usize] += 1;
                if want.kind == MatchKind::MultiMatch && rt.tie == TieBreak::Count {
                    let fr = t.frozen().unwrap();
                    let counts: Vec<u64> =
                        (0..64).filter(|&i| want.candidates >> i & 1 == 1).map(|i| fr.count[i]).collect();
                    let top = counts.iter().max().unwrap();
                    count_ties += (counts.iter().filter(|&c| c == top).count() > 1) as usize;
                }
                next += 1;
                lk_at = None;
            }
        }
        // An uncontended lookup (no traffic, no flush): the documented latency.
        if e > 0 {
            let key = keys[0];
            while !d.cycle_with(&mut rng, None, true, Some(key), false).lk_accepted {}
            let mut n = 1;
            while d.m.lookup.answer(false).is_none() {
                d.cycle(&mut rng, None, true);
                n += 1;
            }
            let (want, _) = t.lookup(key).unwrap();
            let fr = t.frozen().unwrap();
            let divides = want.center.is_some_and(|i| fr.count[i] > 0);
            let cands = if want.center.is_some() { want.candidates.count_ones() as usize } else { 0 };
            assert_eq!(n, d.m.lookup.latency(fr.centers.k(), cands, divides), "epoch {e}: uncontended latency");
            d.cycle_with(&mut rng, None, true, None, true);
            timed += 1;
        }
        // The flush on command; the flushed epoch equals the transaction model's.
        d.records.clear();
        d.writes.push_back((CSR_FLUSH, 1));
        for _ in 0..8 {
            d.cycle(&mut rng, None, true);
        }
        while d.m.flush_busy() || d.m.records.level() > 0 {
            let ready = rng.gen_bool(0.7);
            d.cycle(&mut rng, None, ready);
        }
        for _ in 0..4 {
            d.cycle(&mut rng, None, true);
        }
        assert_eq!(d.records.len(), total);
        if let Some(f) = tm.as_ref().unwrap().flush() {
            let r = rebuild(cfg, &d.records, f.count.len());
            assert_eq!((r.words, r.count, r.sum), (f.words, f.count, f.sum), "epoch {e}: the flushed epoch");
        }
    }
    assert!(kinds.iter().all(|&n| n > 0), "every kind of answer seen: {kinds:?}");
    assert!(count_ties > 0, "multi-matches tied on the count");
    assert!(timed > 0);
    let t = tm.unwrap();
    assert_eq!(d.m.stats.lookups, t.stats.lookups);
    assert_eq!(
        (d.m.stats.lookup_match, d.m.stats.lookup_multi, d.m.stats.lookup_none),
        (t.stats.lookup_match, t.stats.lookup_multi, t.stats.lookup_none)
    );
}

#[test]
fn lookups_match_transaction_model_small() {
    lookups_match_transaction_model(&hw(3, 6, 8), 11, 8, 2000);
    lookups_match_transaction_model(&hw(1, 6, 8), 12, 5, 2000);
}

#[test]
fn lookups_match_transaction_model_k64() {
    lookups_match_transaction_model(&hw(4, 7, 64), 13, 6, 3000);
}

#[test]
fn lookups_match_transaction_model_registered_ram() {
    lookups_match_transaction_model(&hw_reg(3, 6, 8), 14, 6, 2000);
    lookups_match_transaction_model(&hw_reg(4, 7, 64), 15, 5, 2000);
}

/// The match rule of the cycle model and the RTL (`crossed`: the highest crossed boundary
/// `⌊(c[i] + c[i+1])/2⌋` between unequal neighbours, + 1) is `Centers::nearest` on sorted sets: every
/// latency around every boundary of random sets with duplicates, ties and the extremes, stale registers
/// beyond k.
#[test]
fn the_boundary_rule_is_nearest_center() {
    use super::cycle::{boundary, crossed};
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(37);
    for round in 0..400 {
        let k = 1 + round % 64;
        let spread = [4u32, 40, 1 << 20, u32::MAX][round % 4];
        let mut v: Vec<u32> = (0..k).map(|_| rng.gen_range(0..=spread)).collect();
        if round % 3 == 0 {
            v.push(u32::MAX);
            v.push(0);
            v.truncate(k);
        }
        v.sort_unstable();
        let c = super::Centers::new(v.clone()).unwrap();
        // The registers hold 64 values: the ones beyond k are stale (here: arbitrary) and must not count.
        let mut regs = v.clone();
        regs.extend((k..64).map(|_| rng.gen::<u32>()));
        let rule = |l: u32| 64 - crossed(&regs, k, l).leading_zeros() as usize;
        let probes = v.iter().flat_map(|&x| [x.saturating_sub(1), x, x.saturating_add(1)]).chain(
            v.windows(2).flat_map(|w| { let b = boundary(w[0], w[1]); [b, b.saturating_add(1)] }),
        );
        for l in probes.chain([0, u32::MAX]) {
            assert_eq!(rule(l), c.nearest(l), "centers {v:?}, latency {l}");
        }
    }
}

/// The counter row's address bits: the smallest `b ≥ 1` with `2^b ≥ max_centers`.
#[test]
fn center_addr_bits_is_the_ceiling_log2() {
    for n in 1..=MAX_CENTERS {
        let b = sizes::center_addr_bits(n);
        assert!(b >= 1 && 1 << b >= n && (b == 1 || 1 << (b - 1) < n), "max_centers {n}: {b} bits");
    }
}
