//! The IFPD core as a transaction model: one packet at a time, exactly what the RTL computes.
//!
//! Per descriptor `(flow, ts)`: the stored time `t = ((ts >> ts_shift) − base) mod 2^ts_bits`, the
//! fingerprint (never 0) and one bucket index per row from the hash units; CM-BF also asks the Bloom filter
//! (and sets the flow's bits). [`decide`] on the `d` buckets gives the rows written, the estimate and the
//! case; a packet with `D_est ≥ threshold` is reported. The report FIFO's drops depend on when the control
//! plane reads it, so they are a cycle model's business: the transaction model returns every report.

use super::bloom::BloomFilter;
use super::{decide, Bucket, Case, Decision, Descriptor, IfpdConfig, IfpdRuntime, Packet, Report, MAX_ROWS};
use crate::common::config::ConfigError;
use crate::common::hash::HashBank;

/// Counters (the CSR status registers of the same names).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct IfpdStats {
    pub packets: u64,
    pub case1_match: u64,
    pub case2_insert: u64,
    pub case3_replace: u64,
    pub reports: u64,
}

impl IfpdStats {
    /// One decided packet.
    pub fn count(&mut self, d: &Decision, reported: bool) {
        self.packets += 1;
        self.outcome(d, reported);
    }
    /// A decided packet's case and report (a cycle model counts `packets` at acceptance).
    pub fn outcome(&mut self, d: &Decision, reported: bool) {
        match d.case {
            Case::Match => self.case1_match += 1,
            Case::Insert => self.case2_insert += 1,
            Case::Replace => self.case3_replace += 1,
        }
        self.reports += reported as u64;
    }
}

/// What one packet did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub decision: Decision,
    pub report: Option<Report>,
}

/// The core: `d` rows, the optional Bloom filter, the hash units, the counters.
#[derive(Debug, Clone)]
pub struct IfpdModel {
    pub cfg: IfpdConfig,
    pub rt: IfpdRuntime,
    bank: HashBank,
    /// Row r's bucket i at `mem[r * buckets + i]`.
    mem: Vec<Bucket>,
    pub bloom: Option<BloomFilter>,
    pub stats: IfpdStats,
}

impl IfpdModel {
    pub fn new(cfg: &IfpdConfig, rt: IfpdRuntime) -> Result<IfpdModel, ConfigError> {
        cfg.check()?;
        rt.check(cfg)?;
        Ok(IfpdModel {
            bank: cfg.hash_bank()?,
            mem: vec![Bucket::default(); cfg.rows * cfg.buckets],
            bloom: if cfg.bf_bits > 0 { Some(BloomFilter::new(cfg)?) } else { None },
            cfg: cfg.clone(),
            rt,
            stats: IfpdStats::default(),
        })
    }

    /// The flow's bucket index in each row (the first `d` entries) and its fingerprint.
    #[inline]
    pub fn hashes(&self, flow: u128) -> ([usize; MAX_ROWS], u32) {
        self.cfg.indices(&self.bank, flow)
    }

    /// Row `r`'s buckets.
    pub fn row(&self, r: usize) -> &[Bucket] {
        &self.mem[r * self.cfg.buckets..][..self.cfg.buckets]
    }

    /// One packet.
    pub fn step(&mut self, d: &Descriptor) -> Outcome {
        let (idx, fp) = self.hashes(d.flow);
        let p = Packet { fp, t: self.cfg.stored_time(d.ts, self.rt.base) };
        let (rows, w) = (self.cfg.rows, self.cfg.buckets);
        let mut old = [Bucket::default(); MAX_ROWS];
        for (r, (o, &i)) in old.iter_mut().zip(&idx[..rows]).enumerate() {
            *o = self.mem[r * w + i];
        }
        let bf_first = match (&mut self.bloom, self.rt.mode) {
            (Some(bf), super::Mode::CmBf) => bf.test_and_set(d.flow),
            _ => false,
        };
        let dec = decide(&self.cfg, &self.rt, &old[..rows], p, bf_first);
        if dec.all_rows {
            for (r, &i) in idx[..rows].iter().enumerate() {
                self.mem[r * w + i] = dec.new;
            }
        } else {
            self.mem[dec.row * w + idx[dec.row]] = dec.new;
        }
        let reported = dec.reported(&self.rt);
        self.stats.count(&dec, reported);
        let report = reported.then(|| Report::new(p, &dec));
        Outcome { decision: dec, report }
    }

    /// Empty every row and the filter (the reset sweep), keeping the settings and counters.
    pub fn clear(&mut self) {
        self.mem.iter_mut().for_each(|b| *b = Bucket::default());
        if let Some(bf) = &mut self.bloom {
            bf.clear();
        }
    }

    /// A new measurement interval: clear, then count stored time from `base` (units).
    pub fn start_interval(&mut self, base: u64) {
        self.clear();
        self.rt.base = base;
    }

    /// Non-empty buckets under the current mode's encoding.
    pub fn occupied(&self) -> usize {
        self.mem.iter().filter(|b| !b.is_empty(self.rt.mode)).count()
    }
}
