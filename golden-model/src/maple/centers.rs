//! The center set of an epoch and the nearest-center match.
//!
//! Centers are latencies in ns, sorted ascending, 1..=64 of them. The match returns the index of the
//! center nearest to a latency; equal distances (and duplicate values) go to the lowest index. The RTL's
//! comparator tree computes `first = #{c < l}` (the first center ≥ `l`) and picks between `first` and
//! `first − 1`; duplicates below `l` resolve to the lowest index holding that value.

use super::MAX_CENTERS;
use crate::common::config::ConfigError;

/// The k centers of an epoch (ns, sorted ascending).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Centers {
    values: Vec<u32>,
    /// The values padded to 64 with `u32::MAX` (a fixed-size count, as the comparator tree).
    padded: [u32; MAX_CENTERS],
    /// Per index, the lowest index holding the same value.
    first_of: [u8; MAX_CENTERS],
}

impl Centers {
    /// `values` must be 1..=64 latencies in ascending (non-decreasing) order.
    pub fn new(values: Vec<u32>) -> Result<Centers, ConfigError> {
        if values.is_empty() || values.len() > MAX_CENTERS {
            return Err(ConfigError(format!("{} centers: a core holds 1..={MAX_CENTERS}", values.len())));
        }
        if let Some(w) = values.windows(2).find(|w| w[0] > w[1]) {
            return Err(ConfigError(format!("centers must be sorted ascending ({} before {})", w[0], w[1])));
        }
        let mut padded = [u32::MAX; MAX_CENTERS];
        padded[..values.len()].copy_from_slice(&values);
        let mut first_of = [0u8; MAX_CENTERS];
        for i in 1..values.len() {
            first_of[i] = if values[i] == values[i - 1] { first_of[i - 1] } else { i as u8 };
        }
        Ok(Centers { values, padded, first_of })
    }
    /// The centers of any latencies: sorted, clamped to `u32`, at most 64 (the first 64 after sorting).
    pub fn from_unsorted(values: impl IntoIterator<Item = f64>) -> Result<Centers, ConfigError> {
        let mut v: Vec<u32> = values.into_iter().map(|x| x.round().clamp(0.0, u32::MAX as f64) as u32).collect();
        v.sort_unstable();
        v.truncate(MAX_CENTERS);
        Centers::new(v)
    }
    pub fn k(&self) -> usize {
        self.values.len()
    }
    pub fn values(&self) -> &[u32] {
        &self.values
    }
    pub fn get(&self, i: usize) -> u32 {
        self.values[i]
    }
    /// The index of the center nearest to `latency` (ties: lowest index).
    #[inline]
    pub fn nearest(&self, latency: u32) -> usize {
        // first = #{c < latency}: the comparator tree's count over the padded set (pads never count); 64
        // comparisons the compiler vectorises, faster than a binary search's chain of dependent loads.
        let p = &self.padded;
        let first = p.iter().map(|&c| (c < latency) as u32).sum::<u32>() as usize;
        let k = self.values.len();
        if first == 0 {
            return 0;
        }
        let below = self.first_of[first - 1] as usize;
        if first == k || latency - p[first - 1] <= p[first] - latency {
            below
        } else {
            first
        }
    }
}
