//! What the heavy-hitter experiments measure: the stored fraction of the theorem's heavy elements, top-k
//! recall and precision, the average relative error of the true top-k's estimated counts, and quantiles.

use serde::Serialize;
use std::collections::HashMap;

/// How many of `heavy` the table holds at the end (a key with an estimate is stored).
pub fn stored(heavy: &[u128], est: &HashMap<u128, u64>) -> usize {
    heavy.iter().filter(|k| est.contains_key(k)).count()
}

/// The `k` largest entries of `counts`, by count (descending), ties by key (ascending), so the top-k is
/// one definite set even when counts tie at its boundary.
pub fn top_k(counts: &HashMap<u128, u64>, k: usize) -> Vec<(u128, u64)> {
    let mut v: Vec<(u128, u64)> = counts.iter().map(|(&a, &b)| (a, b)).collect();
    v.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.truncate(k);
    v
}

/// Top-k metrics of one run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TopK {
    /// Share of the true top-k among the k largest estimates.
    pub recall: f64,
    /// Share of the k largest estimates (fewer if fewer keys are stored) that are in the true top-k
    /// (0 with no estimates).
    pub precision: f64,
    /// Mean over the true top-k of |estimate − true| / true, a key not stored counting as estimate 0
    /// (error 1).
    pub are: f64,
}

/// The top-k metrics of the estimates `est` against the exact counts `truth`.
pub fn topk_metrics(truth: &HashMap<u128, u64>, est: &HashMap<u128, u64>, k: usize) -> TopK {
    let t = top_k(truth, k);
    let e = top_k(est, k);
    let in_truth: std::collections::HashSet<u128> = t.iter().map(|x| x.0).collect();
    let hits = e.iter().filter(|x| in_truth.contains(&x.0)).count() as f64;
    let are =
        t.iter().map(|&(key, n)| (est.get(&key).copied().unwrap_or(0) as f64 - n as f64).abs() / n as f64).sum::<f64>()
            / t.len().max(1) as f64;
    TopK {
        recall: hits / t.len().max(1) as f64,
        precision: if e.is_empty() { 0.0 } else { hits / e.len() as f64 },
        are,
    }
}

/// Quantiles of a sample (nearest rank: the `q`-quantile is the ⌈q·n⌉-th smallest value).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Quantiles {
    pub min: f64,
    pub p5: f64,
    pub p50: f64,
    pub p95: f64,
    pub mean: f64,
}

/// The quantiles of `v` (sorted in place); all zero for an empty sample.
pub fn quantiles(v: &mut [f64]) -> Quantiles {
    if v.is_empty() {
        return Quantiles { min: 0.0, p5: 0.0, p50: 0.0, p95: 0.0, mean: 0.0 };
    }
    v.sort_unstable_by(f64::total_cmp);
    let n = v.len();
    let q = |p: f64| v[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
    Quantiles { min: v[0], p5: q(0.05), p50: q(0.5), p95: q(0.95), mean: v.iter().sum::<f64>() / n as f64 }
}

/// The stored fraction's empirical CDF as a step line from (0, 0) to (1, 1), for plots.
pub fn cdf_steps(sorted: &[f64]) -> Vec<(f64, f64)> {
    let n = sorted.len() as f64;
    let mut pts = vec![(0.0, 0.0)];
    let mut i = 0;
    while i < sorted.len() {
        let x = sorted[i];
        let mut j = i;
        while j < sorted.len() && sorted[j] == x {
            j += 1;
        }
        pts.push((x, i as f64 / n));
        pts.push((x, j as f64 / n));
        i = j;
    }
    pts.push((1.0, 1.0));
    pts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(v: &[(u128, u64)]) -> HashMap<u128, u64> {
        v.iter().copied().collect()
    }

    #[test]
    fn topk_on_a_hand_made_case() {
        let truth = map(&[(1, 100), (2, 50), (3, 40), (4, 5), (5, 5)]);
        // Top-3 is {1, 2, 3}. The table holds 1 (over-estimated), 3 (exact) and 4 (inflated into the top-3);
        // 2 is missing.
        let est = map(&[(1, 110), (3, 40), (4, 45)]);
        let m = topk_metrics(&truth, &est, 3);
        assert_eq!(m.recall, 2.0 / 3.0);
        assert_eq!(m.precision, 2.0 / 3.0);
        // (10/100 + 1 + 0) / 3.
        assert!((m.are - 1.1 / 3.0).abs() < 1e-12, "{}", m.are);
        // Fewer estimates than k: precision over what is reported.
        let m = topk_metrics(&truth, &map(&[(1, 100)]), 3);
        assert_eq!((m.recall, m.precision), (1.0 / 3.0, 1.0));
        assert_eq!(topk_metrics(&truth, &HashMap::new(), 3).precision, 0.0);
        // Ties at the boundary resolve by key.
        assert_eq!(top_k(&truth, 4).last(), Some(&(4, 5)));
        assert_eq!(stored(&[1, 2, 3], &est), 2);
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let mut v: Vec<f64> = (1..=100).rev().map(|x| x as f64).collect();
        let q = quantiles(&mut v);
        assert_eq!((q.min, q.p5, q.p50, q.p95, q.mean), (1.0, 5.0, 50.0, 95.0, 50.5));
        assert_eq!(
            cdf_steps(&[0.5, 0.5, 1.0]),
            vec![(0.0, 0.0), (0.5, 0.0), (0.5, 2.0 / 3.0), (1.0, 2.0 / 3.0), (1.0, 1.0), (1.0, 1.0)]
        );
    }
}
