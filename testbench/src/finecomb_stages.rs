//! FineComb stages on their own, each against its golden stage model, cycle by cycle:
//! - `finecomb_front` (handshake, digest, one bank's sampler) against `golden::finecomb::cycle::FrontModel`:
//!   descriptors from a few keys (repeated digests) and random ones, markers offered while the engine is
//!   busy or a marker is in flight (refused), pipelines not ready, thresholds at their extremes, random
//!   and at a repeated key's sampling boundary (its digest one below, at and one above the threshold),
//!   bucket counts at their extremes and random, changed mid-stream, timestamps past 48 bits, resets
//!   mid-stream;
//! - `finecomb_record` (E1/E2, record packing, record FIFO) against `RecordStageModel`: ops of every kind
//!   issued in bursts, bucket and stash words that the kind must select between, a reader that stalls for
//!   long phases (the FIFO fills and drops: the core's engine never lets it, the stage alone must count
//!   them), resets mid-stream.

use crate::blocks::Run;
use crate::finecomb::{check_record, drive_descriptor};
use crate::core_run::{cycle, CoreTop};
use crate::harness::{RunConfig, RunReport, Scoreboard, Sim};
use crate::models::{FinecombFront, FinecombRecord};
use golden::finecomb::cycle::{
    FrontInputs, FrontModel, FrontOutputs, Record, RecordKind, RecordStageInputs, RecordStageModel,
    RecordStageOutputs, StageD2,
};
use golden::finecomb::{Bucket, Descriptor, Digest, StashEntry};
use golden::finecomb::sizes::FRONT_TOP_INDEX_BITS as FINECOMB_FRONT_INDEX_BITS;
use rand::Rng;

crate::coverage_names! {
    resets, packets, packets_sampled, packets_not_sampled, sample_below, sample_at, sample_above, markers,
    settings_changed,
    markers_refused, not_ready, records, fifo_drops, stash_records, bucket_records, done_records,
}

impl CoreTop for FinecombFront {
    type Inputs = FrontInputs;
    type Garbage = ();
    type Expected = FrontOutputs;
    type Outputs = ();
    fn drive(&mut self, i: &FrontInputs, _: &()) {
        let desc = i.desc.expect("the front runner always drives a descriptor");
        drive_descriptor!(&mut *self, i.reset, i.in_valid, &desc);
        self.set_pipes_ready(i.pipes_ready as u64);
        self.set_idle(i.idle as u64);
        self.set_thr(i.threshold as u64);
        self.set_m(i.buckets as u64 & 0xffff);
    }
    fn compare(&self, sb: &mut Scoreboard, c: u64, e: &FrontOutputs) {
        let m = self;
        let index_mask = (1u64 << FINECOMB_FRONT_INDEX_BITS) - 1;
        sb.check(c, "in_ready", e.in_ready.map(u128::from), m.in_ready() as u128);
        if e.defined {
            sb.check(c, "d2_valid", Some(e.d2.is_some() as u128), m.d2_valid() as u128);
            if let Some(d) = e.d1m_digest {
                sb.check(c, "d1m_digest", Some(d as u128), m.d1m_digest() as u128);
            }
        }
        match e.d2.filter(|_| e.defined) {
            Some(StageD2::Packet { entry, sampled, index }) => {
                sb.check(c, "d2_marker", Some(0), m.d2_marker() as u128);
                sb.check(c, "d2_ts", Some(entry.ts as u128), m.d2_ts() as u128);
                sb.check(c, "d2_digest", Some(entry.digest as u128), m.d2_digest() as u128);
                sb.check(c, "sampled", Some(sampled[0] as u128), m.sampled() as u128);
                sb.check(c, "index", Some((index[0] as u64 & index_mask) as u128), m.index() as u128);
            }
            Some(StageD2::Marker { start, end }) => {
                sb.check(c, "d2_marker", Some(1), m.d2_marker() as u128);
                sb.check(c, "d2_start", Some(start as u128), m.d2_start() as u128);
                sb.check(c, "d2_end", Some(end as u128), m.d2_end() as u128);
            }
            None => {}
        }
    }
}

/// The front end: handshake, digest and one bank's sampling decision and bucket index.
pub fn run_front(cfg: &RunConfig) -> RunReport {
    let mut run = Run::new(FinecombFront::NAME, cfg);
    let mut sim = Sim::new(FinecombFront::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = FrontModel::default();
    let keys: Vec<u128> = (0..4).map(|_| run.rng.gen()).collect();
    // Thresholds at a repeated key's sampling boundary (digest bits 63..32 ≤ threshold).
    let digest = Digest::new();
    let edges: Vec<u32> = keys.iter().map(|&k| (digest.of(k) >> 32) as u32).collect();
    let (mut p_valid, mut p_marker, mut p_idle) = (0.9, 0.05, 0.5);
    let (mut threshold, mut buckets) = (u32::MAX, 1usize << 16);
    // The threshold the D2 decision shown in a cycle was taken with: the one driven a cycle before (D1m).
    let mut d1m_threshold = threshold;
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 50_000);
        let r = &mut run.rng;
        if i % 1000 == 0 {
            (p_valid, p_marker, p_idle) = [(0.9, 0.05, 0.5), (1.0, 0.2, 0.9), (0.5, 0.5, 0.2), (1.0, 0.0, 1.0)][r.gen_range(0..4)];
        }
        let change = r.gen_ratio(1, 300);
        if change {
            let edge = edges[r.gen_range(0..edges.len())];
            threshold = [0, u32::MAX, 1 << 31, r.gen(), edge, edge.wrapping_sub(1), edge.wrapping_add(1)][r.gen_range(0..7)];
            buckets = [0, 1, 0xffff, 1 << 16, r.gen_range(0..1 << 16), r.gen()][r.gen_range(0..6)] as usize;
        }
        let marker = r.gen_bool(p_marker);
        let desc = Descriptor {
            key: if r.gen_bool(0.6) { keys[r.gen_range(0..keys.len())] } else { r.gen() },
            timestamp: r.gen(),
            start: marker && r.gen(),
            end: marker && r.gen(),
        };
        let desc = Descriptor { start: desc.start || (marker && !desc.end), ..desc };
        let inp = FrontInputs {
            reset,
            in_valid: r.gen_bool(p_valid),
            desc: Some(desc),
            pipes_ready: r.gen_ratio(99, 100),
            idle: r.gen_bool(p_idle),
            threshold,
            buckets,
        };
        let e = cycle(&mut sim, &mut gold, &mut run.sb, None, &inp, &()).e;
        match e.d2.filter(|_| e.defined) {
            Some(StageD2::Packet { entry, sampled, .. }) => {
                run.count(cov::packets, 1);
                run.count(cov::packets_sampled, sampled[0] as u64);
                run.count(cov::packets_not_sampled, !sampled[0] as u64);
                // Sampled when digest bits 63..32 ≤ threshold: the value one below, at and one above the bound.
                let value = entry.digest >> 32;
                let bound = d1m_threshold as u64;
                crate::core_run::count_boundary(&mut run, value, bound, [cov::sample_below, cov::sample_at, cov::sample_above]);
            }
            Some(StageD2::Marker { .. }) => run.count(cov::markers, 1),
            None => {}
        }
        d1m_threshold = inp.threshold;
        run.count(cov::settings_changed, change as u64);
        let offered_marker = inp.in_valid && desc.is_marker() && !reset;
        run.count(cov::markers_refused, (offered_marker && e.in_ready == Some(false)) as u64);
        run.count(cov::not_ready, (!reset && e.in_ready == Some(false) && !desc.is_marker()) as u64);
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}

impl CoreTop for FinecombRecord {
    type Inputs = RecordStageInputs;
    /// The op fields (kind, bank, index) driven without an op: the engine's still change.
    type Garbage = (u64, u64, u64);
    type Expected = RecordStageOutputs;
    type Outputs = ();
    fn drive(&mut self, i: &RecordStageInputs, g: &(u64, u64, u64)) {
        let (issue, bucket, stash) = (i.issue, i.bucket, i.stash);
        self.set_reset(i.reset as u64);
        self.set_issue(issue.is_some() as u64);
        self.set_kind(issue.map_or(g.0, |o| o.kind as u64));
        self.set_bank(issue.map_or(g.1, |o| o.bank as u64));
        self.set_index(issue.map_or(g.2, |o| o.index as u64));
        self.set_bucket_ts(bucket.ts);
        self.set_bucket_count(bucket.count as u64);
        self.set_bucket_isd(bucket.isd);
        self.set_stash_word(stash.digest as u128 | (stash.ts as u128) << 64);
        self.set_rec_ready(i.rec_ready as u64);
    }
    fn compare(&self, sb: &mut Scoreboard, c: u64, e: &RecordStageOutputs) {
        let m = self;
        sb.check(c, "rec_valid", e.rec_valid.map(u128::from), m.rec_valid() as u128);
        if e.rec_valid == Some(true) {
            check_record(sb, c, e.rec_data, &m.rec_data());
        }
        if e.defined {
            sb.check(c, "push", Some(e.push as u128), m.push() as u128);
            sb.check(c, "level", Some(e.level as u128), m.level() as u128);
            sb.check(c, "drops", Some(e.drops as u128), m.drops() as u128);
        }
        if let Some(op) = e.e2 {
            sb.check(c, "e2_kind", Some(op.kind as u128), m.e2_kind_o() as u128);
            sb.check(c, "e2_bank", Some(op.bank as u128), m.e2_bank_o() as u128);
        }
    }
}

/// The record stage: ops in, records out of the FIFO.
pub fn run_record(cfg: &RunConfig) -> RunReport {
    let mut run = Run::new(FinecombRecord::NAME, cfg);
    let mut sim = Sim::new(FinecombRecord::new(cfg.x_seed), cfg.vcd.clone());
    let mut gold = RecordStageModel::default();
    let kinds = [RecordKind::Bucket, RecordKind::Pre, RecordKind::Post, RecordKind::DoneA, RecordKind::DoneB];
    let (mut p_issue, mut p_ready) = (0.5, 0.9);
    for i in 0..cfg.transactions {
        let reset = run.reset_now(i, cfg.transactions, 20_000);
        let r = &mut run.rng;
        if i % 500 == 0 {
            (p_issue, p_ready) = [(0.5, 0.9), (1.0, 1.0), (0.9, 0.05), (0.2, 0.0), (1.0, 0.5)][r.gen_range(0..5)];
        }
        // The engine never issues in a reset cycle (`issue` includes `!reset`).
        let issue = (!reset && r.gen_bool(p_issue)).then(|| Record {
            kind: kinds[r.gen_range(0..kinds.len())],
            bank: r.gen_range(0..8),
            index: r.gen_range(0..1 << 16),
            ts: 0,
            count: 0,
            isd: 0,
        });
        let bucket = match r.gen_bool(0.5) {
            true => Bucket { ts: r.gen(), count: r.gen(), isd: r.gen() },
            false => Bucket::default(),
        };
        let stash = StashEntry { digest: r.gen(), ts: r.gen_range(0..1 << 48) };
        let inp = RecordStageInputs { reset, issue, bucket, stash, rec_ready: r.gen_bool(p_ready) };
        // Without an op the engine's kind/bank/index still change: drive garbage.
        let garbage = (r.gen_range(0..8), r.gen_range(0..8), r.gen_range(0..1 << 16));
        let drops = gold.fifo.drops();
        let e = cycle(&mut sim, &mut gold, &mut run.sb, None, &inp, &garbage).e;
        if let Some(rec) = e.rec_data.filter(|_| e.rec_valid == Some(true) && inp.rec_ready).and_then(|w| Record::unpack(&w)) {
            run.count(cov::records, 1);
            let what = match rec.kind {
                RecordKind::Pre | RecordKind::Post => cov::stash_records,
                RecordKind::Bucket => cov::bucket_records,
                RecordKind::DoneA | RecordKind::DoneB => cov::done_records,
            };
            run.count(what, 1);
        }
        run.count(cov::fifo_drops, (gold.fifo.drops() > drops && !reset) as u64);
        run.transactions += 1;
    }
    run.finish(sim.cycle)
}
