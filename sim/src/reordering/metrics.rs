//! Scoring detected prefixes against the ground truth.
//!
//! - **Targets**: prefixes whose true fraction of out-of-order data packets is above ε and whose true size
//!   (data packets) is at least β. **Recall** = targets output / targets (1 when there are none).
//! - **False reports**: output prefixes of true size ≤ α, or of true fraction ≤ ε (counted once even if
//!   both). Prefixes of size in (α, β) with fraction > ε are neither required nor penalised.
//! - **Capture A** ([`capture_a_verdict`]): ../shared/captures/README.md's table of the eight path groups
//!   127.B.0.0/16: groups 3 and 4 are out-of-order heavy (the client prefixes 127.B.1.0/24 receive the data),
//!   group 7 is light, 1, 2, 5, 6 and 8 are clean. The verdict: every heavy group's client prefix output,
//!   no prefix inside a clean group output (group 7 is not scored).

use super::tally::{Counts, Thresholds};
use golden::reordering::prefix_of;
use serde::Serialize;
use std::collections::HashMap;

/// How one method did on one trace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Score {
    pub targets: usize,
    pub found: usize,
    pub recall: f64,
    pub output: usize,
    pub false_reports: usize,
    /// Of the false reports: true size ≤ α.
    pub false_small: usize,
    /// Of the false reports: true fraction ≤ ε.
    pub false_clean: usize,
}

/// Scores the output prefixes against the true per-prefix counts.
pub fn score(truth: &HashMap<u32, Counts>, output: &[u32], th: &Thresholds) -> Score {
    let target = |c: &Counts| c.n >= th.beta && th.heavy(c.n, c.o);
    let targets = truth.values().filter(|c| target(c)).count();
    let mut s = Score { targets, output: output.len(), ..Score::default() };
    for g in output {
        let c = truth.get(g).copied().unwrap_or_default();
        s.found += target(&c) as usize;
        let (small, clean) = (c.n <= th.alpha, !th.heavy(c.n, c.o));
        s.false_small += small as usize;
        s.false_clean += clean as usize;
        s.false_reports += (small || clean) as usize;
    }
    s.recall = if targets == 0 { 1.0 } else { s.found as f64 / targets as f64 };
    s
}

/// Path groups of capture A (README table): out-of-order heavy, light, clean.
pub const CAPTURE_A_HEAVY: [u8; 2] = [3, 4];
pub const CAPTURE_A_LIGHT: [u8; 1] = [7];
pub const CAPTURE_A_CLEAN: [u8; 5] = [1, 2, 5, 6, 8];

/// Whether a capture file is capture A (by its name).
pub fn is_capture_a(path: &std::path::Path) -> bool {
    path.file_name().is_some_and(|f| f.to_string_lossy().starts_with("multipath-tcp-A"))
}

/// Capture A's verdict for one method's output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CaptureVerdict {
    /// Heavy groups whose client prefix was output.
    pub heavy_found: Vec<u8>,
    /// Heavy groups missed.
    pub heavy_missed: Vec<u8>,
    /// Clean groups with a prefix output.
    pub clean_reported: Vec<u8>,
    /// Whether the light group 7 was output (not scored).
    pub light_reported: bool,
    /// Every heavy group found and no clean group reported.
    pub pass: bool,
}

/// Scores `output` (prefixes of length `prefix_len`, which must be ≥ 16 so groups stay apart).
pub fn capture_a_verdict(output: &[u32], prefix_len: u8) -> Result<CaptureVerdict, String> {
    if prefix_len < 16 {
        return Err(format!("capture A's groups are /16s: --prefix-len {prefix_len} merges them (use 16..=32)"));
    }
    let group = |b: u8| 0x7F00_0000u32 | (b as u32) << 16;
    let in_group = |b: u8| output.iter().any(|&g| g & 0xFFFF_0000 == group(b));
    let client = |b: u8| prefix_of(group(b) | 0x0101, prefix_len);
    let (heavy_found, heavy_missed): (Vec<u8>, Vec<u8>) =
        CAPTURE_A_HEAVY.iter().partition(|&&b| output.contains(&client(b)));
    let clean_reported: Vec<u8> = CAPTURE_A_CLEAN.into_iter().filter(|&b| in_group(b)).collect();
    let pass = heavy_missed.is_empty() && clean_reported.is_empty();
    Ok(CaptureVerdict { heavy_found, heavy_missed, clean_reported, light_reported: in_group(CAPTURE_A_LIGHT[0]), pass })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_counts_targets_and_false_reports() {
        let th = Thresholds { epsilon: 0.1, alpha: 10, beta: 100 };
        let c = |n, o| Counts { n, o };
        let truth: HashMap<u32, Counts> =
            [(1, c(200, 40)), (2, c(500, 100)), (3, c(50, 20)), (4, c(5, 4)), (5, c(300, 3))].into();
        // Targets 1 and 2; 3 is in (α, β): neither; 4 is small, 5 is clean.
        let s = score(&truth, &[1, 3, 4, 5], &th);
        assert_eq!((s.targets, s.found, s.output, s.false_reports, s.false_small, s.false_clean), (2, 1, 4, 2, 1, 1));
        assert_eq!(s.recall, 0.5);
        assert_eq!(score(&HashMap::new(), &[], &th).recall, 1.0);
    }

    #[test]
    fn capture_verdict() {
        let v = capture_a_verdict(&[0x7F03_0100, 0x7F04_0100], 24).unwrap();
        assert!(v.pass && !v.light_reported);
        let v = capture_a_verdict(&[0x7F03_0100, 0x7F01_0100, 0x7F07_0100], 24).unwrap();
        assert_eq!((v.heavy_missed, v.clean_reported, v.pass, v.light_reported), (vec![4], vec![1], false, true));
        assert!(capture_a_verdict(&[], 8).is_err());
        assert!(capture_a_verdict(&[0x7F03_0000, 0x7F04_0000], 16).unwrap().pass);
    }
}
