//! Transaction model of the heavy-hitter core: one packet at a time, exactly what the RTL computes.
//!
//! Per packet (key `x`, PRNG draw `r` — every accepted packet draws once, whether or not it needs it):
//! 1. `b_i` = bucket `h_i(x)` of row `i` of the active bank ([`HhConfig::indices`]).
//! 2. d-way RAP: the first row with `b_i` holding `x` → hit: `count ← min(count + 1, max)`.
//!    PRECISION: the first row with `b_i` empty *or* holding `x` takes the packet: `{x, count + 1}`.
//! 3. Otherwise the minimum bucket `b_m` (smallest count, ties: lowest row) is taken as `{x, m + 1}` iff
//!    `m < T(r)` ([`Admission::threshold`]); an empty minimum (m = 0) is always taken. Else nothing changes.
//!
//! Exactly one bucket is written per packet, or none (a rejected miss).
//!
//! ## How PRECISION here differs from the switch version
//! On a switch, a packet visits the rows in pipeline stages and carries the minimum along; an admitted
//! packet is *recirculated* and writes `{x, carry_min + 1}` on its second pass, a few hundred nanoseconds
//! later — meanwhile other packets may have changed that bucket, and the switch writes the stale value
//! anyway. The FPGA pipeline decides on all rows in one modify stage with forwarding, so the admission
//! writes in the same pass: the behaviour is PRECISION's with a recirculation delay of zero (and no
//! recirculation bandwidth). The decision order (first empty-or-matching row), the carried minimum with
//! ties to the earliest row, and the power-of-two probability ([`Admission::PowerOfTwo`]) are
//! PRECISION's; with [`Admission::Reciprocal`] it uses the full 1/(m+1).

use super::{Admission, Bucket, HhConfig, HhRuntime, Method, Record, MAX_ROWS};
use crate::common::config::ConfigError;
use crate::common::hash::XorHash;
use crate::common::mask128;
use crate::common::prng::{seed_state, xorshift32};

/// What a packet did to the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The key was stored in `row` (d-way) or `row` was the first empty-or-matching row holding it
    /// (PRECISION): its count was incremented.
    Hit { row: usize },
    /// The key went into an empty bucket of `row`.
    Insert { row: usize },
    /// The key replaced the resident of `row`'s minimum bucket.
    Admit { row: usize },
    /// A miss the draw did not admit.
    Reject,
}

/// Per-packet result (the core's result port): the outcome and the key's count after the packet (0 if
/// rejected).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PacketResult {
    pub outcome: Outcome,
    pub count: u64,
}

/// The packet's decision over its `d` buckets: the row written and the new bucket, and the outcome.
/// Shared by the transaction model and the cycle model's modify stage.
pub fn decide(
    cfg: &HhConfig,
    method: Method,
    key: u128,
    threshold: u64,
    old: &[Bucket],
) -> (Option<(usize, Bucket)>, PacketResult) {
    let inc = |c: u64| (c + 1).min(cfg.count_max());
    let take = match method {
        Method::Dway => old.iter().position(|b| b.holds(key)),
        Method::Precision => old.iter().position(|b| b.is_empty() || b.holds(key)),
    };
    if let Some(row) = take {
        let count = inc(old[row].count);
        let outcome = if old[row].is_empty() { Outcome::Insert { row } } else { Outcome::Hit { row } };
        return (Some((row, Bucket { key, count })), PacketResult { outcome, count });
    }
    // Minimum, ties to the lowest row.
    let row = (0..old.len()).fold(0, |m, i| if old[i].count < old[m].count { i } else { m });
    let m = old[row].count;
    if m < threshold {
        let count = inc(m);
        let outcome = if m == 0 { Outcome::Insert { row } } else { Outcome::Admit { row } };
        (Some((row, Bucket { key, count })), PacketResult { outcome, count })
    } else {
        (None, PacketResult { outcome: Outcome::Reject, count: 0 })
    }
}

/// Counters of outcomes (the CSR status registers hits/inserts/admissions/rejections).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HhStats {
    pub packets: u64,
    pub hits: u64,
    pub inserts: u64,
    pub admissions: u64,
    pub rejections: u64,
}

impl HhStats {
    /// One packet and its outcome.
    pub fn count(&mut self, o: Outcome) {
        self.packets += 1;
        self.outcome(o);
    }
    /// An outcome only (the cycle model counts packets at acceptance, outcomes three cycles later).
    pub fn outcome(&mut self, o: Outcome) {
        match o {
            Outcome::Hit { .. } => self.hits += 1,
            Outcome::Insert { .. } => self.inserts += 1,
            Outcome::Admit { .. } => self.admissions += 1,
            Outcome::Reject => self.rejections += 1,
        }
    }
}

/// The core as a transaction model: two banks (ping-pong) of `d` rows, the PRNG, the counters.
#[derive(Debug, Clone)]
pub struct HhModel {
    pub cfg: HhConfig,
    pub rt: HhRuntime,
    hash: XorHash,
    /// `banks[b][row][index]`.
    pub banks: [Vec<Vec<Bucket>>; 2],
    pub active: usize,
    prng: u32,
    pub stats: HhStats,
}

impl HhModel {
    pub fn new(cfg: &HhConfig, rt: HhRuntime) -> Result<HhModel, ConfigError> {
        cfg.check()?;
        let empty = vec![vec![Bucket::default(); cfg.buckets_per_row()]; cfg.rows];
        Ok(HhModel {
            hash: cfg.hash()?,
            cfg: cfg.clone(),
            rt,
            banks: [empty.clone(), empty],
            active: 0,
            prng: seed_state(rt.seed),
            stats: HhStats::default(),
        })
    }

    /// The key's bucket index in each row.
    pub fn indices(&self, key: u128) -> Vec<usize> {
        self.cfg.indices(self.hash.eval(key & mask128(self.cfg.key_bits)))
    }

    /// One packet (no allocation: the d candidates sit in a fixed array).
    pub fn step(&mut self, key: u128) -> PacketResult {
        let key = key & mask128(self.cfg.key_bits);
        let r = self.prng;
        self.prng = xorshift32(self.prng);
        let (rows, h) = (self.cfg.rows, self.hash.eval(key));
        let (mut idx, mut old) = ([0usize; MAX_ROWS], [Bucket::default(); MAX_ROWS]);
        let bank = &mut self.banks[self.active];
        for row in 0..rows {
            idx[row] = self.cfg.index(h, row);
            old[row] = bank[row][idx[row]];
        }
        let (write, res) = decide(&self.cfg, self.rt.method, key, self.rt.admission.threshold(r), &old[..rows]);
        if let Some((row, b)) = write {
            bank[row][idx[row]] = b;
        }
        self.stats.count(res.outcome);
        res
    }

    /// The non-empty buckets of `bank`, row by row and index by index (the walk's order), without clearing.
    pub fn records(&self, bank: usize) -> Vec<Record> {
        let mut v = vec![];
        for (row, buckets) in self.banks[bank].iter().enumerate() {
            for (index, b) in buckets.iter().enumerate() {
                if !b.is_empty() {
                    v.push(Record { row, index, key: b.key, count: b.count });
                }
            }
        }
        v
    }

    /// Read and clear `bank` (the walk).
    pub fn dump(&mut self, bank: usize) -> Vec<Record> {
        let v = self.records(bank);
        self.banks[bank].iter_mut().for_each(|r| r.iter_mut().for_each(|b| *b = Bucket::default()));
        v
    }

    /// Swap the active bank and dump the one just frozen.
    pub fn swap_and_dump(&mut self) -> Vec<Record> {
        self.active ^= 1;
        self.dump(self.active ^ 1)
    }

    /// Estimated count of each stored key in the active bank (a key stored twice — PRECISION — reports the
    /// larger count).
    pub fn estimates(&self) -> std::collections::HashMap<u128, u64> {
        let mut m = std::collections::HashMap::new();
        for b in self.banks[self.active].iter().flatten().filter(|b| !b.is_empty()) {
            let e = m.entry(b.key).or_insert(0);
            *e = (*e).max(b.count);
        }
        m
    }
}

/// Admission rule and method names as the CLI spells them.
pub fn admission_by_name(s: &str) -> Option<Admission> {
    [Admission::Reciprocal, Admission::PowerOfTwo, Admission::Exact].into_iter().find(|a| a.name() == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(rows: usize) -> HhConfig {
        HhConfig { rows, addr_bits: 4, key_bits: 32, count_bits: 8, record_fifo_bits: 4 }
    }

    #[test]
    fn decide_follows_the_method() {
        let c = cfg(3);
        let b = |key, count| Bucket { key, count };
        // Key 7 stored in row 2; row 0 empty.
        let old = [b(0, 0), b(5, 9), b(7, 3)];
        let (w, r) = decide(&c, Method::Dway, 7, 1, &old);
        assert_eq!((w, r.outcome), (Some((2, b(7, 4))), Outcome::Hit { row: 2 }));
        let (w, r) = decide(&c, Method::Precision, 7, 1, &old);
        assert_eq!((w, r.outcome), (Some((0, b(7, 1))), Outcome::Insert { row: 0 }));
        // Miss: minimum 2 in rows 1 and 2 → row 1; admitted iff 2 < T.
        let old = [b(1, 5), b(2, 2), b(3, 2)];
        assert_eq!(decide(&c, Method::Dway, 9, 3, &old).0, Some((1, b(9, 3))));
        assert_eq!(decide(&c, Method::Dway, 9, 2, &old).1.outcome, Outcome::Reject);
        // Saturation.
        let old = [b(9, 255), b(2, 2), b(3, 2)];
        assert_eq!(decide(&c, Method::Dway, 9, 0, &old).0, Some((0, b(9, 255))));
        let old = [b(1, 255), b(2, 255), b(3, 255)];
        assert_eq!(decide(&c, Method::Dway, 9, 1 << 32, &old).0, Some((0, b(9, 255))));
    }

    #[test]
    fn heavy_keys_stay_and_dump_clears() {
        let c = HhConfig { addr_bits: 6, count_bits: 16, ..cfg(2) };
        let mut m = HhModel::new(&c, HhRuntime::default()).unwrap();
        let mut x = 1u32;
        for n in 0..20_000u32 {
            x = xorshift32(x);
            let key = if n % 3 == 0 { (n % 5) as u128 } else { 1000 + x as u128 % 5000 };
            m.step(key);
        }
        let est = m.estimates();
        for k in 0..5u128 {
            assert!(est.get(&k).copied().unwrap_or(0) > 1000, "heavy key {k}: {:?}", est.get(&k));
        }
        assert_eq!(m.stats.packets, 20_000);
        let recs = m.swap_and_dump();
        assert!(recs.len() > 100 && recs.iter().all(|r| r.count > 0));
        assert!(m.records(0).is_empty() && m.records(1).is_empty());
        let w = recs[0].pack(&c);
        assert_eq!(Record::unpack(&c, &w), recs[0]);
    }
}
