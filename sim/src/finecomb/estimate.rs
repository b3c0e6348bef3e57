//! Control-plane estimators of FineComb (§III-C to §III-E) and of the LDA baselines, from the two cores'
//! interval readouts ([`golden::finecomb::IntervalReport`]).
//!
//! ## Useful buckets and mean delay (§III-C-1)
//! Bucket i is useful when sender and receiver counted the same packets: `C_s[i] = C_r[i]` and
//! `ISD_s[i] = ISD_r[i]` (FineComb), or `C_s[i] = C_r[i]` alone (LDA, which has no ISD). The mean delay is
//! `Σ_useful (TS_r[i] − TS_s[i]) / Σ_useful C[i]` (timestamp sums are wrapping 64-bit; their difference is
//! taken modulo 2^64 and read as signed). LDA+ also drops the buckets whose difference is negative (§V-C-3).
//!
//! ## Standard deviation (§III-C-2) — derivation
//! The paper points to the LDA paper's §3.4 trick without restating it; we use the useful buckets' own
//! statistics, which need no extra memory. Let useful bucket i hold n_i packets with delay sum
//! S_i = TS_r[i] − TS_s[i]. Sampling is by key hash, independent of delay, so given n_i the delays in a
//! bucket are n_i independent draws with mean μ and variance σ²: E[S_i] = n_i μ, Var[S_i] = n_i σ².
//! The standardized residuals e_i = (S_i − n_i μ)/√n_i are independent with variance σ². With K useful
//! buckets, N = Σ n_i and the weighted least-squares mean μ̂ = Σ S_i / N (which is exactly the mean-delay
//! estimate), the residuals r_i = (S_i − n_i μ̂)/√n_i satisfy
//! Σ r_i² = Σ e_i² − (Σ √n_i e_i)² / N, so E[Σ r_i²] = Kσ² − σ² = (K − 1)σ². Hence
//!
//! `σ̂² = Σ_useful (S_i − n_i μ̂)² / n_i / (K − 1)`
//!
//! is unbiased for σ², and σ̂ converges to σ as K grows (each bucket sum is a sum of many independent
//! delays, nearly normal, so σ̂²/σ² ≈ χ²_{K−1}/(K−1): relative error of σ̂ about 1/√(2(K−1))). It needs
//! K ≥ 2 useful buckets; `sim/tests/finecomb_experiment.rs` checks the convergence on simulated intervals.
//!
//! ## Loss rate (§III-C-3)
//! FineComb: over the buckets with `C_s[i] ≥ C_r[i]` (after stash recovery), loss = Σ(C_s − C_r) / Σ C_s.
//! LDA was built for FIFO paths and does not exclude buckets polluted by reordered packets (§III-C-3):
//! loss = Σ_all (C_s − C_r) / Σ_all C_s, clamped at 0.
//!
//! ## Stash recovery (§III-D)
//! For each useless bucket i, the receiver takes the stash entries of all four substashes whose digest
//! maps to bucket i and tries every non-empty subset (in Gray-code order, one entry toggled per step):
//! entries from the pre-start and post-end substashes are added (`ISD ^= D, TS += τ, C += 1`: packets of
//! the interval counted elsewhere), entries from the post-start and pre-end substashes subtracted
//! (`ISD ^= D, TS −= τ, C −= 1`: packets of another interval counted here). The first subset after which
//! the receiver's ISD and count equal the sender's repairs the bucket. Buckets with more than
//! [`MAX_SUBSET_ENTRIES`] candidates are left alone (2^k subsets; with W < M a bucket has O(W/M) of them).
//! [`recover`] can also explain unrecoverable buckets by one lost packet for the loss estimate (an
//! extension, reported beside the paper's estimate, never in its place).
//!
//! ## Several banks (§III-E)
//! Delay: banks have the same number of buckets; for every row i the useful bucket with the largest count
//! over the banks is taken, and rows are summed as one bank (mean and σ̂ as above). Loss: the estimate of
//! the bank whose estimate is closest (in ratio) to the loss rate it was tuned for.

use golden::finecomb::{bucket_index, BankReadout, Bucket, Digest, Stash, StashEntry};

/// Most stash entries of one bucket whose 2^k subsets recovery tries.
pub const MAX_SUBSET_ENTRIES: usize = 20;

/// Expected false single-loss explanations per bucket above which [`recover`] does not try them.
pub const MAX_FALSE_EXPLANATIONS: f64 = 0.05;

/// How a bucket pair is judged useful.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Counters and ISDs match (FineComb).
    Isd,
    /// Counters match (LDA).
    Count,
    /// Counters match and the delay sum is not negative (LDA+).
    CountNonNegative,
}

/// Receiver-minus-sender timestamp sum, wrap-corrected: the cores add 48-bit timestamps (wrapping every
/// 2^48 ns ≈ 3.3 days), so a packet in flight across the wrap puts −2^48 into the difference of the 64-bit
/// sums; the difference modulo 2^48, sign-extended, is the bucket's delay sum as long as that is below
/// 2^47 ns (39 h) in magnitude.
pub fn delay_sum(s: &Bucket, r: &Bucket) -> i64 {
    const SHIFT: u32 = 64 - golden::common::config::TIMESTAMP_BITS as u32;
    ((r.ts.wrapping_sub(s.ts) << SHIFT) as i64) >> SHIFT
}

/// Whether a bucket pair is useful (and holds packets).
pub fn useful(s: &Bucket, r: &Bucket, check: Check) -> bool {
    s.count == r.count
        && s.count > 0
        && match check {
            Check::Isd => s.isd == r.isd,
            Check::Count => true,
            Check::CountNonNegative => delay_sum(s, r) >= 0,
        }
}

/// One useful row: packets and their delay sum (ns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub count: u64,
    pub delay_sum: i64,
}

/// The useful rows of one bank (None where the bucket is not useful).
pub fn rows(sender: &[Bucket], receiver: &[Bucket], check: Check) -> Vec<Option<Row>> {
    sender
        .iter()
        .zip(receiver)
        .map(|(s, r)| useful(s, r, check).then(|| Row { count: s.count as u64, delay_sum: delay_sum(s, r) }))
        .collect()
}

/// Delay statistics over useful rows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DelayEstimate {
    /// Useful buckets K and samples N = Σ n_i.
    pub buckets: usize,
    pub samples: u64,
    /// Mean delay in ns (None without samples).
    pub mean_ns: Option<f64>,
    /// Standard deviation in ns (None with fewer than 2 useful buckets).
    pub stddev_ns: Option<f64>,
}

/// Mean and standard deviation from useful rows (module docs for the derivation).
pub fn delay_estimate<'a>(rows: impl IntoIterator<Item = &'a Row> + Clone) -> DelayEstimate {
    let (mut k, mut n, mut sum) = (0usize, 0u64, 0i128);
    for r in rows.clone() {
        k += 1;
        n += r.count;
        sum += r.delay_sum as i128;
    }
    if n == 0 {
        return DelayEstimate::default();
    }
    let mean = sum as f64 / n as f64;
    let stddev = (k >= 2).then(|| {
        let ss: f64 =
            rows.into_iter().map(|r| (r.delay_sum as f64 - r.count as f64 * mean).powi(2) / r.count as f64).sum();
        (ss / (k - 1) as f64).sqrt()
    });
    DelayEstimate { buckets: k, samples: n, mean_ns: Some(mean), stddev_ns: stddev }
}

/// FineComb's loss rate (§III-C-3): over buckets with C_s ≥ C_r. None if no packet was counted there.
pub fn loss_finecomb(sender: &[Bucket], receiver: &[Bucket]) -> Option<f64> {
    let (mut lost, mut sent) = (0u64, 0u64);
    for (s, r) in sender.iter().zip(receiver) {
        if s.count >= r.count {
            lost += (s.count - r.count) as u64;
            sent += s.count as u64;
        }
    }
    (sent > 0).then(|| lost as f64 / sent as f64)
}

/// LDA's loss rate: total count difference over all buckets (clamped at 0).
pub fn loss_lda(sender: &[Bucket], receiver: &[Bucket]) -> Option<f64> {
    let sent: i64 = sender.iter().map(|b| b.count as i64).sum();
    let got: i64 = receiver.iter().map(|b| b.count as i64).sum();
    (sent > 0).then(|| (sent - got).max(0) as f64 / sent as f64)
}

/// Which way a stash entry changes the receiver's bucket when it is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Pre-start and post-end: a packet of this interval counted in another one.
    Add,
    /// Post-start and pre-end: a packet of another interval counted in this one.
    Subtract,
}

/// Every stash entry with its direction.
pub fn stash_entries(stash: &Stash) -> impl Iterator<Item = (StashEntry, Direction)> + '_ {
    let add = stash.pre_start.iter().chain(&stash.post_end).map(|e| (*e, Direction::Add));
    let sub = stash.post_start.iter().chain(&stash.pre_end).map(|e| (*e, Direction::Subtract));
    add.chain(sub)
}

/// What recovery did to one bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RecoveryStats {
    /// Useless buckets with at least one candidate entry.
    pub attempted: usize,
    pub recovered: usize,
    /// Buckets skipped for having more than [`MAX_SUBSET_ENTRIES`] candidates.
    pub too_many: usize,
    /// Subsets tried in all.
    pub subsets: u64,
    /// Not recovered, but explained by stash entries plus one lost packet (the loss-only extension).
    pub one_lost: usize,
}

impl RecoveryStats {
    pub fn add(&mut self, o: &RecoveryStats) {
        self.attempted += o.attempted;
        self.recovered += o.recovered;
        self.too_many += o.too_many;
        self.subsets += o.subsets;
        self.one_lost += o.one_lost;
    }
}

fn apply(b: &mut Bucket, e: &StashEntry, dir: Direction, undo: bool) {
    b.isd ^= e.digest;
    let add = (dir == Direction::Add) != undo;
    if add {
        b.ts = b.ts.wrapping_add(e.ts);
        b.count = b.count.wrapping_add(1);
    } else {
        b.ts = b.ts.wrapping_sub(e.ts);
        b.count = b.count.wrapping_sub(1);
    }
}

/// The receiver's buckets of one bank after stash recovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    /// §III-D recovery: a bucket is changed only when a subset makes ISD and count match the sender's.
    pub buckets: Vec<Bucket>,
    /// Additionally, buckets explained by a subset plus exactly one lost packet (extension, see
    /// [`recover`]): for the loss estimate only (such a bucket is still useless for delay).
    pub loss_buckets: Vec<Bucket>,
    pub stats: RecoveryStats,
}

/// Stash recovery of one bank (module docs).
///
/// Extension beyond the paper, for the loss estimate only: §III-C-3 notes that a bucket holding both a
/// lost and a reordered packet cannot be recovered, so its counts mislead the loss estimator. But the
/// residual `ISD_s ⊕ ISD_r'` left by a subset is then exactly the digest of the lost packet when one packet
/// was lost, and a real digest must pass this bank's sampling test (`threshold`) and map to this bucket —
/// about log2(M/p) bits of redundancy (≈ 11 bits at M = 144, p = 0.04), on top of `C_s = C_r' + 1`. The
/// first subset that passes all three is taken as the explanation, and `loss_buckets` holds the bucket
/// with those stash entries applied. A random residual passes with probability ≈ p/M, so the explanation
/// is only taken where the subsets that give the right count (`C_r' = C_s − 1`) are few enough to expect
/// fewer than [`MAX_FALSE_EXPLANATIONS`] false passes. `threshold = None` turns this off.
pub fn recover(sender: &BankReadout, receiver: &BankReadout, threshold: Option<u32>) -> Recovered {
    let m = receiver.buckets.len();
    let mut out = receiver.buckets.clone();
    let mut loss_out = receiver.buckets.clone();
    let mut stats = RecoveryStats::default();
    let mut candidates: Vec<Vec<(StashEntry, Direction)>> = vec![Vec::new(); m];
    for (e, dir) in stash_entries(&receiver.stash) {
        let i = bucket_index(e.digest, m);
        let (s, r) = (&sender.buckets[i], &receiver.buckets[i]);
        if s.count != r.count || s.isd != r.isd {
            candidates[i].push((e, dir));
        }
    }
    for (i, cand) in candidates.iter().enumerate() {
        if cand.is_empty() {
            continue;
        }
        stats.attempted += 1;
        if cand.len() > MAX_SUBSET_ENTRIES {
            stats.too_many += 1;
            continue;
        }
        let target = sender.buckets[i];
        let mut b = receiver.buckets[i];
        let mut chosen = vec![false; cand.len()];
        let (mut one_lost, mut eligible): (Option<Bucket>, u64) = (None, 0);
        let mut recovered = false;
        for g in 1u64..(1u64 << cand.len()) {
            // Gray code: step g toggles entry trailing_zeros(g).
            let j = g.trailing_zeros() as usize;
            apply(&mut b, &cand[j].0, cand[j].1, chosen[j]);
            chosen[j] = !chosen[j];
            stats.subsets += 1;
            if b.isd == target.isd && b.count == target.count {
                out[i] = b;
                loss_out[i] = b;
                stats.recovered += 1;
                recovered = true;
                break;
            }
            if let Some(t) = threshold.filter(|_| target.count == b.count.wrapping_add(1)) {
                eligible += 1;
                let residual = target.isd ^ b.isd;
                if one_lost.is_none() && Digest::sampled(residual, t) && bucket_index(residual, m) == i {
                    one_lost = Some(b);
                }
            }
        }
        let false_passes = eligible as f64 * threshold.map(golden::finecomb::probability_of).unwrap_or(0.0) / m as f64;
        if let (false, Some(b), true) = (recovered, one_lost, false_passes <= MAX_FALSE_EXPLANATIONS) {
            loss_out[i] = b;
            stats.one_lost += 1;
        }
    }
    Recovered { buckets: out, loss_buckets: loss_out, stats }
}

/// §III-E delay combination: per row the useful bucket with the largest count over the banks.
pub fn combine_rows(banks: &[Vec<Option<Row>>]) -> Result<Vec<Row>, String> {
    let m = banks.first().map(|b| b.len()).unwrap_or(0);
    if banks.iter().any(|b| b.len() != m) {
        return Err("banks must have the same number of buckets to be combined row by row (§III-E)".into());
    }
    Ok((0..m).filter_map(|i| banks.iter().filter_map(|b| b[i]).max_by_key(|r| r.count)).collect())
}

/// §III-E loss choice: the estimate closest in ratio to the loss rate its bank was tuned for.
pub fn closest_to_tuned(estimates: &[(Option<f64>, f64)]) -> Option<f64> {
    let dist = |est: f64, tuned: f64| if est > 0.0 && tuned > 0.0 { (est / tuned).ln().abs() } else { f64::INFINITY };
    estimates
        .iter()
        .filter_map(|&(e, tuned)| e.map(|e| (e, dist(e, tuned))))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|x| x.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(ts: u64, count: u32, isd: u64) -> Bucket {
        Bucket { ts, count, isd }
    }

    #[test]
    fn usefulness_by_check() {
        let s = b(100, 2, 7);
        assert!(useful(&s, &b(150, 2, 7), Check::Isd));
        assert!(!useful(&s, &b(150, 2, 8), Check::Isd));
        assert!(useful(&s, &b(150, 2, 8), Check::Count));
        assert!(!useful(&s, &b(50, 2, 7), Check::CountNonNegative));
        assert!(!useful(&b(0, 0, 0), &b(0, 0, 0), Check::Count));
        // Wrapped sums still give the right difference.
        assert_eq!(delay_sum(&b(u64::MAX - 5, 1, 0), &b(10, 1, 0)), 16);
        // Two packets of 20 ns, sent 10 ns before and 5 ns after the 48-bit timestamp wrap: the receiver's
        // timestamps are both wrapped, the sender's one of them.
        let w = 1u64 << 48;
        let (sent, recv) = ((w - 10) + 5, (w - 10 + 20) % w + (5 + 20));
        assert_eq!(delay_sum(&b(sent, 2, 0), &b(recv, 2, 0)), 40);
    }

    #[test]
    fn stddev_is_unbiased_on_exact_sums() {
        // Buckets of known iid draws: the estimator's mean over many repetitions matches σ².
        let mut state = 1u64;
        let mut uni = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut acc, reps) = (0.0, 400);
        for _ in 0..reps {
            let rows: Vec<Row> = (0..10)
                .map(|i| {
                    let n = 5 + i * 3;
                    // Uniform delays on [0, 1200): variance 120 000.
                    let s: f64 = (0..n).map(|_| (uni() * 1200.0).floor()).sum();
                    Row { count: n, delay_sum: s as i64 }
                })
                .collect();
            acc += delay_estimate(&rows).stddev_ns.unwrap().powi(2);
        }
        let var = acc / reps as f64;
        assert!((var / 120_000.0 - 1.0).abs() < 0.05, "mean σ̂² {var}");
    }

    #[test]
    fn loss_rules_differ_on_polluted_buckets() {
        let s = [b(0, 10, 0), b(0, 10, 0), b(0, 10, 0)];
        let r = [b(0, 9, 0), b(0, 13, 0), b(0, 10, 0)];
        assert_eq!(loss_finecomb(&s, &r), Some(1.0 / 20.0));
        assert_eq!(loss_lda(&s, &r), Some(0.0));
    }

    fn entry(k: u128, ts: u64) -> StashEntry {
        StashEntry { digest: Digest::new().of(k), ts }
    }

    #[test]
    fn recovery_adds_and_subtracts_by_substash() {
        let m = 4;
        let dg = Digest::new();
        // Keys per bucket.
        let mut keys: Vec<Vec<u128>> = vec![vec![]; m];
        // Keys whose digests a bank with p = 0.1 samples.
        let t10 = golden::finecomb::threshold_for(0.1);
        let mut k = 1u128;
        while keys.iter().any(|v| v.len() < 6) {
            let i = bucket_index(dg.of(k), m);
            if keys[i].len() < 6 && Digest::sampled(dg.of(k), t10) {
                keys[i].push(k);
            }
            k += 1;
        }
        let bucket = |ks: &[(u128, u64)]| {
            ks.iter().fold(Bucket::default(), |mut b, &(k, ts)| {
                b.ts = b.ts.wrapping_add(ts);
                b.count += 1;
                b.isd ^= dg.of(k);
                b
            })
        };
        let k0 = &keys[0];
        let k1 = &keys[1];
        // Bucket 0: the receiver misses k0[0] (pre-start) and has an extra k0[5] (post-start).
        let s0 = bucket(&[(k0[0], 10), (k0[1], 20), (k0[2], 30)]);
        let r0 = bucket(&[(k0[1], 25), (k0[2], 35), (k0[5], 99)]);
        // Bucket 1: a lost packet plus a reordered one: not recoverable.
        let s1 = bucket(&[(k1[0], 10), (k1[1], 20)]);
        let r1 = bucket(&[(k1[1], 25), (k1[2], 40)]);
        let sender =
            BankReadout { buckets: vec![s0, s1, Bucket::default(), Bucket::default()], stash: Stash::default() };
        let stash = Stash {
            pre_start: vec![entry(k0[0], 15), entry(k0[3], 1)],
            post_start: vec![entry(k0[5], 99), entry(k0[4], 2), entry(k1[2], 40)],
            pre_end: vec![],
            post_end: vec![],
        };
        let receiver = BankReadout { buckets: vec![r0, r1, Bucket::default(), Bucket::default()], stash };
        let rec = recover(&sender, &receiver, None);
        let (out, st) = (&rec.buckets, rec.stats);
        assert_eq!((out[0].count, out[0].isd), (s0.count, s0.isd));
        assert_eq!(delay_sum(&s0, &out[0]), 15 - 10 + 5 + 5);
        assert_eq!(out[1], r1);
        assert_eq!((st.attempted, st.recovered, st.too_many, st.one_lost), (2, 1, 0, 0));
        assert_eq!(&rec.loss_buckets, out);
        // With the residual check, bucket 1 is explained as "k1[2] reordered, k1[0] lost" for the loss
        // estimate: one packet short, and the residual is k1[0]'s digest.
        // (At p = 1 and M = 4 the check has 2 bits of redundancy: not trusted.)
        assert_eq!(recover(&sender, &receiver, Some(u32::MAX)).stats.one_lost, 0);
        let rec = recover(&sender, &receiver, Some(t10));
        assert_eq!(rec.buckets, *out);
        assert_eq!(rec.stats.one_lost, 1);
        assert_eq!(rec.loss_buckets[1].count + 1, s1.count);
        assert_eq!(rec.loss_buckets[1].isd ^ s1.isd, dg.of(k1[0]));
        assert_eq!(loss_finecomb(&sender.buckets, &rec.loss_buckets), Some(1.0 / 5.0));
        // A threshold that k1[0]'s digest fails rules the explanation out.
        let t = (dg.of(k1[0]) >> 32) as u32;
        if t > 0 {
            assert_eq!(recover(&sender, &receiver, Some(t - 1)).stats.one_lost, 0);
        }
    }

    #[test]
    fn combination_takes_the_fullest_useful_row() {
        let a = vec![Some(Row { count: 5, delay_sum: 50 }), None, Some(Row { count: 1, delay_sum: 1 })];
        let c = vec![Some(Row { count: 7, delay_sum: 77 }), Some(Row { count: 2, delay_sum: 4 }), None];
        let rows = combine_rows(&[a.clone(), c]).unwrap();
        assert_eq!(rows.iter().map(|r| r.count).collect::<Vec<_>>(), vec![7, 2, 1]);
        assert!(combine_rows(&[a, vec![None]]).is_err());
        assert_eq!(closest_to_tuned(&[(Some(0.02), 1e-4), (Some(0.012), 1e-2), (None, 1e-3)]), Some(0.012));
        assert_eq!(closest_to_tuned(&[(Some(0.0), 1e-4)]), Some(0.0));
    }
}
