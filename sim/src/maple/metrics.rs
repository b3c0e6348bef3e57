//! §5.3's metrics over the looked-up packets (every packet of every measured epoch, looked up in its own
//! epoch's store):
//! - **classification failure**: the share of packets whose lookup had several candidate centers
//!   (Multi-Match);
//! - **false classification**: the share of packets answered with a center that is not theirs (after the
//!   tie-break; for a PBF also a single false match of a refused packet);
//! - **false negative**: the share of packets with no candidate (No-Match: PBF's refused packets; an SVBF or
//!   COMB never loses an inserted packet);
//! - **absolute error** per answered packet, `|estimate − latency|` (No-Match and unanswered Multi-Matches
//!   have no estimate: they are counted above, not here), as percentiles in µs.
//!
//! Errors are tallied per integer ns (estimates and latencies are integer ns) and read through the shared
//! [`WeightedCdf`] (linear interpolation between values); tallies of several seeds pool by adding counts.

use crate::fridge::estimate::WeightedCdf;
use golden::maple::{Lookup, MatchKind};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// The percentiles every result reports.
pub const PERCENTILES: [f64; 7] = [0.5, 0.75, 0.85, 0.9, 0.95, 0.98, 0.99];

/// Counts of one store (or clustering scheme) over packets.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub packets: u64,
    pub multi: u64,
    pub wrong: u64,
    pub none: u64,
    /// Absolute error (ns) → packets.
    pub errors: HashMap<u32, f64>,
    /// Classification failure of each epoch.
    pub epoch_cf: Vec<f64>,
}

impl Tally {
    /// One lookup of a packet with latency `latency` whose true center is `truth`; `estimate` is the value
    /// answered (the refined latency, or the center's for the perfect store).
    pub fn lookup(&mut self, l: &Lookup, truth: usize, latency: u32, estimate: Option<u32>) {
        self.packets += 1;
        match l.kind {
            MatchKind::MultiMatch => self.multi += 1,
            MatchKind::NoMatch => self.none += 1,
            MatchKind::Match => {}
        }
        if l.center.is_some_and(|c| c != truth) {
            self.wrong += 1;
        }
        if let Some(e) = estimate {
            self.error(latency.abs_diff(e));
        }
    }
    pub fn error(&mut self, ns: u32) {
        *self.errors.entry(ns).or_default() += 1.0;
    }
    /// Closes an epoch: its classification failure from the counts since `(packets, multi)` of its start.
    pub fn end_epoch(&mut self, start: (u64, u64)) {
        let n = self.packets - start.0;
        if n > 0 {
            self.epoch_cf.push((self.multi - start.1) as f64 / n as f64);
        }
    }
    pub fn merge(&mut self, o: &Tally) {
        self.packets += o.packets;
        self.multi += o.multi;
        self.wrong += o.wrong;
        self.none += o.none;
        for (&k, &v) in &o.errors {
            *self.errors.entry(k).or_default() += v;
        }
        self.epoch_cf.extend_from_slice(&o.epoch_cf);
    }
    /// The error distribution (ns).
    pub fn cdf(&self) -> WeightedCdf {
        WeightedCdf::new(self.errors.iter().map(|(&k, &v)| (k as f64, v)).collect())
    }
    pub fn summary(&self) -> Summary {
        let n = self.packets.max(1) as f64;
        let cdf = self.cdf();
        let us = |q: f64| cdf.quantile(q).unwrap_or(0.0) / 1e3;
        let mut cf = self.epoch_cf.clone();
        cf.sort_by(f64::total_cmp);
        let answered: f64 = self.errors.values().sum();
        Summary {
            packets: self.packets,
            classification_failure: self.multi as f64 / n,
            false_classification: self.wrong as f64 / n,
            false_negative: self.none as f64 / n,
            epoch_cf_median: cf.get(cf.len() / 2).copied().unwrap_or(0.0),
            epoch_cf_max: cf.last().copied().unwrap_or(0.0),
            abs_err_us: PERCENTILES.map(|q| (format!("p{}", (q * 100.0).round()), us(q))).into_iter().collect(),
            mean_abs_err_us: self.errors.iter().map(|(&k, &v)| k as f64 * v).sum::<f64>() / answered.max(1.0) / 1e3,
        }
    }
}

/// What a store or a scheme reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub packets: u64,
    pub classification_failure: f64,
    pub false_classification: f64,
    pub false_negative: f64,
    /// Median and maximum over epochs (and seeds) of the per-epoch classification failure (Fig. 6(a)).
    pub epoch_cf_median: f64,
    pub epoch_cf_max: f64,
    /// Percentiles of the per-packet absolute error, µs (`p50`, `p75`, …; two digits, so the map's order is
    /// the percentiles').
    pub abs_err_us: BTreeMap<String, f64>,
    pub mean_abs_err_us: f64,
}

impl Summary {
    /// Percentile `p` (e.g. 85) of the absolute error, µs.
    pub fn pct(&self, p: u32) -> f64 {
        self.abs_err_us.get(&format!("p{p}")).copied().unwrap_or(f64::NAN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::maple::{resolve, Centers, TieBreak};

    #[test]
    fn tallies_count_kinds_and_errors() {
        let c = Centers::new(vec![100, 200, 300]).unwrap();
        let (count, sum) = (vec![2, 5, 1], vec![200, 1000, 300]);
        let mut t = Tally::default();
        let l = resolve(0b010, &c, &count, &sum, TieBreak::Count);
        t.lookup(&l, 1, 230, l.refined);
        let l = resolve(0b011, &c, &count, &sum, TieBreak::Count);
        t.lookup(&l, 0, 90, l.refined); // tie-break picks center 1: wrong
        let l = resolve(0, &c, &count, &sum, TieBreak::Count);
        t.lookup(&l, 2, 300, l.refined);
        t.end_epoch((0, 0));
        let s = t.summary();
        assert_eq!(s.packets, 3);
        assert_eq!(
            (s.classification_failure, s.false_classification, s.false_negative),
            (1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0)
        );
        assert!((s.mean_abs_err_us - 0.07).abs() < 1e-12, "errors 30 and 110 ns");
        assert_eq!(s.epoch_cf_max, 1.0 / 3.0);
        assert!((s.pct(50) - 0.03).abs() < 1e-9 && (s.pct(99) - 0.1084).abs() < 1e-9, "{s:?}");
    }
}
