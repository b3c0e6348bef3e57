//! Flow sampling with conditional overwrite (defense slides "Flow-sampling algorithm" to "Algo: Report"):
//! the transaction model, one packet at a time, exactly what the RTL computes.
//!
//! Per data packet `(addr, f, s, t)` (prefix `g = addr` with its low `32 − L` bits zero, fingerprint
//! `fp(f)`, stored timestamp `t = ts >> ts_shift` mod `2^ts_bits`):
//! 1. Bucket `b = h(g)` of the active bank ([`IndexBy::Prefix`]; `h(f)` in the flow-indexed baseline).
//! 2. **Resident** (`b` valid, same prefix and fingerprint): `o += [s < s']` ([`out_of_order`], mod
//!    2^32), `n += 1`, `s' ← s`, `t' ← t`. Counters saturate.
//! 3. **Empty** `b`: `{g, fp(f), s, o = 0, n = [count_first], t}`.
//! 4. **Another flow**: it overwrites iff (`stale_en` and `t − t' > T`) or (`count_en` and `n' > C`) or
//!    (`reorder_en` and `o' > R`); the resident is reported `{g', n', o', Evicted}` (if `n' > 0`) and the
//!    bucket becomes the newcomer's as in 3. Otherwise the packet is ignored (a **miss**: counted, nothing
//!    changes — the resident keeps its bucket and its timestamp, so a resident that stops sending becomes
//!    stale and is replaced at the next packet of another flow after T).
//!
//! Non-data descriptors (pure ACKs, bare SYN/FIN/RST) are counted and ignored: only data segments have a
//! sequence number that advances, and the ground truth counts data packets only.
//!
//! **Retransmissions** are not told apart: a retransmitted segment whose number is below the previous
//! segment's counts as out of order, exactly as the slides want ("TCP-induced" and "network-induced"
//! reordering — "no need to distinguish, want to detect both"). A segment repeating the previous number
//! exactly (`s == s'`) is not out of order (the definition is strict).
//!
//! **Flow identity** is prefix + fingerprint: two flows of one prefix with the same `fp_bits` fingerprint
//! share a sample (probability 2^−fp_bits per pair that meets in a bucket).
//!
//! **Flush** (end of a measurement period): the banks swap and the frozen one is read and cleared, one
//! [`Reason::Flushed`] report per valid bucket with `n > 0` (traffic continues in the other bank; a flow
//! sampled across the swap starts over as a newcomer there).
//!
//! The report FIFO's drops depend on when the control plane reads it, so they are the cycle model's
//! business: the transaction model returns every report.

use super::{age, out_of_order, Descriptor, IndexBy, Reason, ReorderConfig, ReorderRuntime, Report};
use crate::common::config::ConfigError;
use crate::common::hash::XorHash;

/// One bucket: a sampled flow. Empty iff `!valid`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bucket {
    pub valid: bool,
    pub prefix: u32,
    pub fp: u32,
    /// The sequence number of the flow's last data packet.
    pub seq: u32,
    /// Out-of-order packets.
    pub o: u32,
    /// Packets.
    pub n: u32,
    /// Stored timestamp of the last packet.
    pub ts: u64,
}

impl Bucket {
    /// The sample this bucket reports (None for an empty bucket or one that counted nothing).
    pub fn report(&self, reason: Reason) -> Option<Report> {
        (self.valid && self.n > 0).then_some(Report { prefix: self.prefix, n: self.n, o: self.o, reason })
    }
}

/// What a packet did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Not a data segment: ignored.
    NotData,
    /// The resident flow's packet; `ooo`: it was out of order.
    Hit { ooo: bool },
    /// Into an empty bucket.
    Insert,
    /// Replaced another flow (whose sample is reported).
    Overwrite,
    /// Another flow holds the bucket and may not be overwritten: ignored.
    Miss,
}

/// What the packet's source has already decided about a valid bucket (the `in_force` port). Flow sampling
/// sends [`Force::None`]; the hybrid's side table sends the heavy-hitter core's decision: the flow holds
/// the bucket (a hit there: [`Force::Resident`]) or has just taken it (an insert or admission:
/// [`Force::Replace`]). An empty bucket is an insert whatever the force (a consistent hybrid never sends
/// a resident to one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Force {
    /// Decide by identity (prefix and fingerprint) and the overwrite conditions.
    #[default]
    None,
    /// The packet is the resident's, whatever the identity.
    Resident,
    /// The packet's flow replaces the resident, whatever the conditions.
    Replace,
}

impl Force {
    /// The `in_force` code: 0 none, 1 resident, 2 replace.
    pub fn code(self) -> u8 {
        self as u8
    }
    /// The force of an `in_force` code (3 reads as none: the RTL tests the two bits for 1 and 2).
    pub fn from_code(c: u8) -> Force {
        match c & 3 {
            1 => Force::Resident,
            2 => Force::Replace,
            _ => Force::None,
        }
    }
}

/// A packet's decision on its bucket (shared with a cycle model's modify stage): the new bucket (None: no
/// write), the outcome, and the report of an evicted resident. `g`, `fp`, `t` are the packet's prefix,
/// fingerprint and stored timestamp; `force` see [`Force`].
pub fn decide(
    cfg: &ReorderConfig,
    rt: &ReorderRuntime,
    old: &Bucket,
    (g, fp, s, t): (u32, u32, u32, u64),
    force: Force,
) -> (Option<Bucket>, Outcome, Option<Report>) {
    let fresh = Bucket { valid: true, prefix: g, fp, seq: s, o: 0, n: rt.count_first as u32, ts: t };
    if !old.valid {
        return (Some(fresh), Outcome::Insert, None);
    }
    let resident = match force {
        Force::None => old.prefix == g && old.fp == fp,
        Force::Resident => true,
        Force::Replace => false,
    };
    if resident {
        let ooo = out_of_order(s, old.seq);
        // The packet's identity (the resident's own, unless forced: then the bucket takes the newcomer's).
        let (o, n) = ((old.o + ooo as u32).min(cfg.o_max()), (old.n + 1).min(cfg.n_max()));
        let b = Bucket { valid: true, prefix: g, fp, seq: s, o, n, ts: t };
        return (Some(b), Outcome::Hit { ooo }, None);
    }
    let stale = rt.stale_en && age(t, old.ts, cfg.ts_bits) > rt.timeout;
    let seen = rt.count_en && old.n > rt.count;
    let reordered = rt.reorder_en && old.o > rt.reorder;
    if force == Force::Replace || stale || seen || reordered {
        (Some(fresh), Outcome::Overwrite, old.report(Reason::Evicted))
    } else {
        (None, Outcome::Miss, None)
    }
}

/// Counters (the CSR status registers of the same names).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SamplingStats {
    pub packets: u64,
    pub data_packets: u64,
    pub hits: u64,
    pub inserts: u64,
    pub overwrites: u64,
    pub misses: u64,
    pub out_of_order: u64,
    pub reports: u64,
}

impl SamplingStats {
    fn count(&mut self, o: Outcome) {
        self.packets += 1;
        self.data_packets += (o != Outcome::NotData) as u64;
        self.count_decision(o);
    }
    /// The decision's counters only (a cycle model counts packets at acceptance, decisions at S5).
    pub fn count_decision(&mut self, o: Outcome) {
        match o {
            Outcome::NotData => {}
            Outcome::Hit { ooo } => {
                self.hits += 1;
                self.out_of_order += ooo as u64;
            }
            Outcome::Insert => self.inserts += 1,
            Outcome::Overwrite => self.overwrites += 1,
            Outcome::Miss => self.misses += 1,
        }
    }
}

/// The flow-sampling core as a transaction model: two banks (ping-pong), the hashes, the counters.
#[derive(Debug, Clone)]
pub struct SamplingModel {
    pub cfg: ReorderConfig,
    pub rt: ReorderRuntime,
    index_hash: XorHash,
    fp_hash: XorHash,
    pub banks: [Vec<Bucket>; 2],
    pub active: usize,
    pub stats: SamplingStats,
}

impl SamplingModel {
    pub fn new(cfg: &ReorderConfig, rt: ReorderRuntime) -> Result<SamplingModel, ConfigError> {
        cfg.check()?;
        rt.check(cfg)?;
        let empty = vec![Bucket::default(); cfg.buckets()];
        Ok(SamplingModel {
            index_hash: cfg.index_hash()?,
            fp_hash: cfg.fp_hash()?,
            cfg: cfg.clone(),
            rt,
            banks: [empty.clone(), empty],
            active: 0,
            stats: SamplingStats::default(),
        })
    }

    /// The bucket index of a packet (the hashed ones; [`IndexBy::Port`] reads as the prefix: its packets
    /// come with their index through [`Self::step_at`]).
    pub fn index(&self, d: &Descriptor) -> usize {
        let key = match self.rt.index {
            IndexBy::Prefix | IndexBy::Port => self.rt.prefix(d.addr) as u128,
            IndexBy::Flow => d.flow,
        };
        self.index_hash.eval(key) as usize
    }

    /// The flow fingerprint of a packet.
    pub fn fingerprint(&self, d: &Descriptor) -> u32 {
        self.fp_hash.eval(d.flow) as u32
    }

    /// One packet: its outcome and the report of an evicted resident.
    pub fn step(&mut self, d: &Descriptor) -> (Outcome, Option<Report>) {
        self.step_at(d, self.index(d), Force::None)
    }

    /// One packet into bucket `index` (masked to the table) with `force` (the side table of the hybrid,
    /// [`IndexBy::Port`]; [`Self::step`] is this with the hashed index and no force).
    pub fn step_at(&mut self, d: &Descriptor, index: usize, force: Force) -> (Outcome, Option<Report>) {
        if !d.data {
            self.stats.count(Outcome::NotData);
            return (Outcome::NotData, None);
        }
        let i = index & (self.cfg.buckets() - 1);
        let packet = (self.rt.prefix(d.addr), self.fingerprint(d), d.seq, self.cfg.stored_ts(d.ts));
        let bank = &mut self.banks[self.active];
        let (write, outcome, report) = decide(&self.cfg, &self.rt, &bank[i], packet, force);
        if let Some(b) = write {
            bank[i] = b;
        }
        self.stats.count(outcome);
        self.stats.reports += report.is_some() as u64;
        (outcome, report)
    }

    /// The reports a walk of `bank` would send, in index order, without clearing.
    pub fn records(&self, bank: usize) -> Vec<Report> {
        self.banks[bank].iter().filter_map(|b| b.report(Reason::Flushed)).collect()
    }

    /// Swap the active bank, then read and clear the frozen one (the flush).
    pub fn flush(&mut self) -> Vec<Report> {
        self.active ^= 1;
        let frozen = self.active ^ 1;
        let v = self.records(frozen);
        self.banks[frozen].iter_mut().for_each(|b| *b = Bucket::default());
        self.stats.reports += v.len() as u64;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> ReorderConfig {
        ReorderConfig { addr_bits: 4, fp_bits: 16, ts_bits: 16, ts_shift: 0, n_bits: 8, o_bits: 8, report_fifo_bits: 4 }
    }

    /// All conditions off, then only the ones named.
    fn rt(stale: bool, count: bool, reorder: bool) -> ReorderRuntime {
        ReorderRuntime {
            timeout: 100,
            count: 5,
            reorder: 1,
            stale_en: stale,
            count_en: count,
            reorder_en: reorder,
            ..ReorderRuntime::default()
        }
    }

    fn pkt(flow: u128, seq: u32, ts: u64) -> Descriptor {
        Descriptor { addr: 0x0A00_0001, flow, seq, ts, data: true }
    }

    fn b(prefix: u32, fp: u32, seq: u32, o: u32, n: u32, ts: u64) -> Bucket {
        Bucket { valid: true, prefix, fp, seq, o, n, ts }
    }

    #[test]
    fn resident_counts_out_of_order_in_the_right_direction() {
        let (c, r) = (cfg(), rt(false, false, false));
        let old = b(7, 9, 1000, 0, 3, 0);
        // s below the previous: out of order, and the stored number follows the packet.
        let (w, o, rep) = decide(&c, &r, &old, (7, 9, 900, 5), Force::None);
        assert_eq!((w, o, rep), (Some(b(7, 9, 900, 1, 4, 5)), Outcome::Hit { ooo: true }, None));
        // s above: in order (a wrong comparison direction fails one of these two).
        let (w, o, _) = decide(&c, &r, &old, (7, 9, 2000, 5), Force::None);
        assert_eq!((w, o), (Some(b(7, 9, 2000, 0, 4, 5)), Outcome::Hit { ooo: false }));
        // Across the 2^32 wrap: 10 after 0xFFFF_FF00 is in order.
        let old = b(7, 9, 0xFFFF_FF00, 0, 3, 0);
        assert_eq!(decide(&c, &r, &old, (7, 9, 10, 5), Force::None).1, Outcome::Hit { ooo: false });
        // Saturation.
        let old = b(7, 9, 1000, 255, 255, 0);
        assert_eq!(decide(&c, &r, &old, (7, 9, 1, 5), Force::None).0, Some(b(7, 9, 1, 255, 255, 5)));
    }

    #[test]
    fn each_overwrite_condition_alone_and_none() {
        let c = cfg();
        // Resident: n' = 6 > C = 5, o' = 2 > R = 1, last seen at 0; newcomer at t = 50 (not stale) or 101.
        let old = b(7, 9, 1000, 2, 6, 0);
        let new = (7, 10, 1, 50);
        assert_eq!(decide(&c, &rt(false, false, false), &old, new, Force::None).1, Outcome::Miss);
        assert_eq!(decide(&c, &rt(true, false, false), &old, new, Force::None).1, Outcome::Miss);
        assert_eq!(decide(&c, &rt(true, false, false), &old, (7, 10, 1, 101), Force::None).1, Outcome::Overwrite);
        assert_eq!(decide(&c, &rt(true, false, false), &old, (7, 10, 1, 100), Force::None).1, Outcome::Miss);
        let (w, o, rep) = decide(&c, &rt(false, true, false), &old, new, Force::None);
        assert_eq!((w, o), (Some(b(7, 10, 1, 0, 1, 50)), Outcome::Overwrite));
        assert_eq!(rep, Some(Report { prefix: 7, n: 6, o: 2, reason: Reason::Evicted }));
        assert_eq!(decide(&c, &rt(false, false, true), &old, new, Force::None).1, Outcome::Overwrite);
        // At the thresholds (n' = C, o' = R) nothing may overwrite: the comparisons are strict.
        let edge = b(7, 9, 1000, 1, 5, 0);
        assert_eq!(decide(&c, &rt(false, true, true), &edge, new, Force::None).1, Outcome::Miss);
        // Staleness across the timestamp wrap: t' = 0xFFF0, t = 0x60 is 112 units later.
        let old = b(7, 9, 1000, 0, 1, 0xFFF0);
        assert_eq!(decide(&c, &rt(true, false, false), &old, (7, 10, 1, 0x60), Force::None).1, Outcome::Overwrite);
        assert_eq!(decide(&c, &rt(true, false, false), &old, (7, 10, 1, 0x50), Force::None).1, Outcome::Miss);
    }

    #[test]
    fn first_packet_counting_is_switchable() {
        let c = cfg();
        let on = rt(false, false, false);
        let off = ReorderRuntime { count_first: false, ..on };
        assert_eq!(decide(&c, &on, &Bucket::default(), (1, 2, 3, 4), Force::None).0.unwrap().n, 1);
        assert_eq!(decide(&c, &off, &Bucket::default(), (1, 2, 3, 4), Force::None).0.unwrap().n, 0);
        // A sample that counted nothing is not reported.
        assert_eq!(b(1, 2, 3, 0, 0, 4).report(Reason::Flushed), None);
    }

    #[test]
    fn model_samples_evicts_and_flushes() {
        let mut m = SamplingModel::new(&cfg(), rt(false, true, false)).unwrap();
        // Flow 1: seqs 1,3,2,4,5,6,7 → one out of order, n = 7 > C.
        for (k, s) in [1u32, 3, 2, 4, 5, 6, 7].into_iter().enumerate() {
            m.step(&pkt(1, s, k as u64));
        }
        m.step(&Descriptor { data: false, ..pkt(1, 0, 9) });
        let (o, rep) = m.step(&pkt(2, 50, 10));
        assert_eq!(o, Outcome::Overwrite);
        assert_eq!(rep, Some(Report { prefix: 0x0A00_0000, n: 7, o: 1, reason: Reason::Evicted }));
        // Flow 3 (same prefix, same bucket) cannot overwrite flow 2 (n' = 1).
        assert_eq!(m.step(&pkt(3, 1, 11)).0, Outcome::Miss);
        let s = m.stats;
        assert_eq!((s.packets, s.data_packets, s.hits, s.inserts, s.overwrites, s.misses), (10, 9, 6, 1, 1, 1));
        assert_eq!(s.out_of_order, 1);
        let f = m.flush();
        assert_eq!(f, vec![Report { prefix: 0x0A00_0000, n: 1, o: 0, reason: Reason::Flushed }]);
        assert!(m.records(0).is_empty() && m.records(1).is_empty());
        // The new bank: flow 3 inserts now.
        assert_eq!(m.step(&pkt(3, 1, 12)).0, Outcome::Insert);
    }

    #[test]
    fn prefix_indexing_keeps_prefixes_apart_and_flow_indexing_does_not() {
        let c = ReorderConfig { addr_bits: 8, ..cfg() };
        let m = SamplingModel::new(&c, ReorderRuntime::default()).unwrap();
        let d = |addr: u32, flow: u128| Descriptor { addr, flow, seq: 0, ts: 0, data: true };
        // All flows of one prefix share one bucket; with flow indexing they spread.
        let idx: std::collections::HashSet<usize> = (0..50).map(|f| m.index(&d(0x0A00_0005, f))).collect();
        assert_eq!(idx.len(), 1);
        let m = SamplingModel::new(&c, ReorderRuntime { index: IndexBy::Flow, ..ReorderRuntime::default() }).unwrap();
        let idx: std::collections::HashSet<usize> = (0..50).map(|f| m.index(&d(0x0A00_0005, f << 8))).collect();
        assert!(idx.len() > 30, "{}", idx.len());
    }

    #[test]
    fn force_overrides_identity_and_conditions_but_not_an_empty_bucket() {
        let c = cfg();
        let none = rt(false, false, false);
        let old = b(7, 9, 100, 3, 5, 50);
        // Another flow (prefix 8, fp 1): resident anyway, counts into the old sample, takes its identity.
        let (w, o, rep) = decide(&c, &none, &old, (8, 1, 90, 60), Force::Resident);
        assert_eq!((w, o, rep), (Some(b(8, 1, 90, 4, 6, 60)), Outcome::Hit { ooo: true }, None));
        // The resident's own packet with Replace: evicted and reported, though no condition holds.
        let (w, o, rep) = decide(&c, &none, &old, (7, 9, 101, 60), Force::Replace);
        assert_eq!((w.map(|b| (b.n, b.o, b.seq)), o), (Some((1, 0, 101)), Outcome::Overwrite));
        assert_eq!(rep.map(|r| (r.prefix, r.n, r.o)), Some((7, 5, 3)));
        // An empty bucket is an insert whatever the force.
        for f in [Force::Resident, Force::Replace] {
            assert_eq!(decide(&c, &none, &Bucket::default(), (8, 1, 90, 60), f).1, Outcome::Insert);
        }
        assert_eq!([0, 1, 2, 3].map(|k| Force::from_code(k).code()), [0, 1, 2, 0]);
    }
}
