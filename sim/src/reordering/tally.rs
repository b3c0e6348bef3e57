//! The control-plane tally and the exact ground truth.
//!
//! **Tally** (slides "Control-plane tally"): every report `{g, n', o'}` adds `N_g += n'`, `O_g += o'`; at the
//! end of the measurement the prefix g is output when `N_g ≥ α` and `O_g / N_g > ε`. α guards against
//! reporting small prefixes: it is compared with the *sampled* count N_g, which never exceeds g's true
//! size, so a prefix of at most α packets is output only if every one of its packets was sampled and it has
//! exactly α (the slides' `≥`). β does not enter the decision — the data plane cannot know a prefix's true
//! size; it is the size from which the problem *requires* a report, so it enters the scoring
//! ([`super::metrics`]): recall counts the out-of-order-heavy prefixes of size ≥ β. Prefixes between α and
//! β may or may not be output without penalty.
//!
//! **Ground truth** ([`exact`]): the flow-level algorithm the slides argue against, in unlimited memory —
//! every flow's previous sequence number kept, every data packet of every flow compared with it (a flow's
//! first packet has no predecessor and is never out of order), the counts summed per prefix. This is also
//! the definition the capture's README measures with.

use golden::reordering::{out_of_order, prefix_of, Descriptor, Report};
use serde::Serialize;
use std::collections::HashMap;

/// Detection thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Thresholds {
    /// ε: out-of-order heavy means a fraction above ε.
    pub epsilon: f64,
    /// α: avoid reporting prefixes of at most α packets (the tally needs N ≥ α).
    pub alpha: u64,
    /// β: report the out-of-order-heavy prefixes of at least β packets (scoring only).
    pub beta: u64,
}

impl Thresholds {
    pub fn check(&self) -> Result<(), String> {
        if !(self.epsilon > 0.0 && self.epsilon < 1.0) {
            return Err(format!("--epsilon {}: must be in (0, 1)", self.epsilon));
        }
        if self.alpha >= self.beta {
            return Err(format!("--alpha {} must be below --beta {} (α < β)", self.alpha, self.beta));
        }
        Ok(())
    }
    /// `o/n > ε` (false for n = 0).
    pub fn heavy(&self, n: u64, o: u64) -> bool {
        n > 0 && o as f64 > self.epsilon * n as f64
    }
}

/// Packets and out-of-order packets of one prefix (tallied or true).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub n: u64,
    pub o: u64,
}

impl Counts {
    pub fn fraction(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.o as f64 / self.n as f64
        }
    }
}

/// The per-prefix tally of reports.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub prefixes: HashMap<u32, Counts>,
    pub reports: u64,
}

impl Tally {
    pub fn add(&mut self, r: &Report) {
        let c = self.prefixes.entry(r.prefix).or_default();
        c.n += r.n as u64;
        c.o += r.o as u64;
        self.reports += 1;
    }
    pub fn of(reports: &[Report]) -> Tally {
        let mut t = Tally::default();
        reports.iter().for_each(|r| t.add(r));
        t
    }
    /// The prefixes output: `N ≥ α` and `O/N > ε`, sorted.
    pub fn output(&self, th: &Thresholds) -> Vec<u32> {
        let mut v: Vec<u32> =
            self.prefixes.iter().filter(|(_, c)| c.n >= th.alpha && th.heavy(c.n, c.o)).map(|(&g, _)| g).collect();
        v.sort_unstable();
        v
    }
}

/// Exact per-prefix counts of data packets and out-of-order data packets, every flow tracked.
pub fn exact(packets: &[Descriptor], prefix_len: u8) -> HashMap<u32, Counts> {
    let mut last: HashMap<u128, u32> = HashMap::new();
    let mut per: HashMap<u32, Counts> = HashMap::new();
    for d in packets.iter().filter(|d| d.data) {
        let c = per.entry(prefix_of(d.addr, prefix_len)).or_default();
        c.n += 1;
        if let Some(prev) = last.insert(d.flow, d.seq) {
            c.o += out_of_order(d.seq, prev) as u64;
        }
    }
    per
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::reordering::Reason;

    #[test]
    fn tally_outputs_by_alpha_and_epsilon() {
        let th = Thresholds { epsilon: 0.1, alpha: 10, beta: 100 };
        let r = |prefix, n, o| Report { prefix, n, o, reason: Reason::Evicted };
        let t = Tally::of(&[r(1, 6, 1), r(1, 4, 1), r(2, 9, 5), r(3, 20, 2), r(4, 30, 4)]);
        // 1: N 10 ≥ α, 0.2 > ε; 2: N 9 < α; 3: exactly ε (not above); 4: 0.133.
        assert_eq!(t.output(&th), vec![1, 4]);
        assert!(Thresholds { alpha: 100, ..th }.check().is_err());
        assert!(Thresholds { epsilon: 0.0, ..th }.check().is_err());
    }

    #[test]
    fn exact_truth_counts_data_packets_and_wraps() {
        let d = |addr, flow, seq, data| Descriptor { addr, flow, seq, ts: 0, data };
        let p = [
            d(0x0A00_0001, 1, 0xFFFF_FF00, true),
            d(0x0A00_0001, 1, 10, true), // after the wrap: in order
            d(0x0A00_0002, 2, 50, true),
            d(0x0A00_0001, 1, 5, true),  // out of order
            d(0x0A00_0001, 1, 1, false), // not data
            d(0x0A00_0102, 3, 1, true),
        ];
        let t = exact(&p, 24);
        assert_eq!(t[&0x0A00_0000], Counts { n: 4, o: 1 });
        assert_eq!(t[&0x0A00_0100], Counts { n: 1, o: 0 });
    }
}
