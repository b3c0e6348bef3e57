//! The cycle model against the transaction model: same SVBF contents, counters, samples and statistics
//! after random streams over several epochs with center reloads, flushes under traffic and idle gaps.

use super::cycle::*;
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
    }
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

impl Driver {
    /// One cycle; `pkt` is offered; returns whether it was accepted and whether an epoch write went out.
    fn cycle(&mut self, rng: &mut impl Rng, pkt: Option<Descriptor>, rec_ready: bool) -> (bool, bool) {
        let mut i = MapleInputs { smp_ready: true, rec_ready, ..Default::default() };
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
        (i.in_valid && o.in_ready == Some(true), i.csr_wr_en && i.csr_addr == CSR_EPOCH)
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
        d.writes.extend([(CSR_CENTER_COUNT, c.len() as u32), (CSR_CENTER_INDEX, 0)]);
        d.writes.extend(c.iter().map(|&v| (CSR_CENTER_VALUE, v)));
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
