//! The paper's §4.1 metrics, exactly: over the packets **returned** (reported: `D_est ≥ θ`) and the true
//! high-IFPD packets (`D ≥ θ`; a flow's first packet has no IFPD and is never high):
//! - precision = TP / returned, recall = TP / true high (TP: returned packets that are truly high);
//! - F1 = 2·precision·recall / (precision + recall);
//! - relative error = mean over the set R of true high packets returned of `|D_est − D| / D`.
//!
//! Conventions where the paper is silent: nothing returned → precision 1 (no false positive); no true high
//! packet → recall 1; R empty → relative error 0; F1 of 0 and 0 is 0.

use serde::Serialize;

/// One method's score on one trace at one threshold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Score {
    pub reported: u64,
    pub true_high: u64,
    pub true_positives: u64,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub rel_err: f64,
}

/// Scores the returned packets `returned` (`(packet index, D_est in ns)`, each packet at most once) against
/// the true IFPDs `truth` (ns) at threshold `threshold_ns`.
pub fn score(truth: &[Option<u64>], returned: impl IntoIterator<Item = (usize, u64)>, threshold_ns: u64) -> Score {
    let high = |i: usize| truth.get(i).copied().flatten().filter(|&d| d >= threshold_ns);
    let mut s = Score {
        true_high: truth.iter().filter(|d| d.is_some_and(|d| d >= threshold_ns)).count() as u64,
        ..Score::default()
    };
    let mut err = 0.0;
    for (i, est) in returned {
        s.reported += 1;
        if let Some(d) = high(i) {
            s.true_positives += 1;
            err += (est as f64 - d as f64).abs() / d as f64;
        }
    }
    s.precision = if s.reported == 0 { 1.0 } else { s.true_positives as f64 / s.reported as f64 };
    s.recall = if s.true_high == 0 { 1.0 } else { s.true_positives as f64 / s.true_high as f64 };
    s.f1 = f1(s.precision, s.recall);
    s.rel_err = if s.true_positives == 0 { 0.0 } else { err / s.true_positives as f64 };
    s
}

/// The harmonic mean of precision and recall (0 when both are 0).
pub fn f1(precision: f64, recall: f64) -> f64 {
    if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_follow_section_4_1() {
        let ms = 1_000_000;
        // Packets 0 and 3 are first packets; true IFPDs 800, 100, 900, 700 ms at 1, 2, 4, 5.
        let truth = [None, Some(800 * ms), Some(100 * ms), None, Some(900 * ms), Some(700 * ms)];
        // Returned: 1 (true, estimate 760 ms), 2 (false: 100 ms), 3 (a first packet: false), 4 (true, exact).
        let s = score(&truth, [(1, 760 * ms), (2, 705 * ms), (3, 750 * ms), (4, 900 * ms)], 700 * ms);
        assert_eq!((s.reported, s.true_high, s.true_positives), (4, 3, 2));
        assert_eq!((s.precision, s.recall), (0.5, 2.0 / 3.0));
        assert!((s.f1 - 4.0 / 7.0).abs() < 1e-12);
        assert!((s.rel_err - 0.025).abs() < 1e-12, "(40/800 + 0) / 2");
        let none = score(&truth, [], 700 * ms);
        assert_eq!((none.precision, none.recall, none.f1, none.rel_err), (1.0, 0.0, 0.0, 0.0));
        assert_eq!(score(&truth, [], 2000 * ms).recall, 1.0);
    }
}
