//! Choosing the k latency centers (§3.1–§3.2).
//!
//! - **Logarithmic** ([`logarithmic`]): the range `lo..hi` cut into `γ` decades-like sub-ranges of equal
//!   log width; each gets `k/γ` centers placed linearly — at the midpoints of `k/γ` equal slices (the paper
//!   says "linearly" without saying where; midpoints bound the error by half a slice). When `γ` does not
//!   divide `k`, the highest sub-ranges take one more. Default range 0.1 µs..10 ms, `γ = 5` (the paper's
//!   example range and split).
//! - **Streaming k-medians** ([`OnlineStage`] + [`kmedians_1d`]): the online stage of Charikar,
//!   O'Callaghan and Panigrahy's PolyLogarithmic-space algorithm (STOC 2003) as MAPLE runs it — one thread
//!   instead of `2 log n`, on the sampled packets only. Meyerson's online facility location with facility
//!   cost `f = L / (k(1 + ln n))`: a point at distance `δ` from the nearest open facility opens a new one with
//!   probability `min(w·δ/f, 1)`, else joins it (weight `w` added, cost `w·δ`). The lower bound `L` starts
//!   at the smallest distance between the first `k + 1` distinct points; a phase ends when the cost exceeds
//!   `α·L` ([`ALPHA`]) or the facilities exceed `c·k(1 + ln n)` ([`FACILITY_FACTOR`]); then `L ← β·L`
//!   ([`BETA`]) and the weighted facilities are fed again as the first points of the next phase. `n` is the
//!   expected sample count (the previous epoch's). The candidates (≈ 1000 for k = 50, as §3.2 reports) go to
//!   the **offline stage**: weighted k-medians. The paper used the C Clustering Library (a heuristic); in
//!   one dimension weighted k-medians is solved **exactly** by dynamic programming over the sorted points
//!   (contiguous clusters, each at its weighted median), which [`kmedians_1d`] does with the
//!   divide-and-conquer optimisation (`O(k·m·log² m)`).
//! - **Hybrid** ([`Hybrid`]): `k/2` logarithmic centers are open facilities in every phase (points may join
//!   them and count there) but are excluded from the candidates fed to the offline stage, which picks the
//!   other `k − k/2` (§3.2's two modifications). Read literally, the offline stage then does not know that
//!   the static centers exist: [`HybridOffline::Blind`], the default, runs plain k-medians on the
//!   candidates. [`HybridOffline::Aware`] (`--hybrid-offline aware`, an extension) places the dynamic
//!   centers to minimise the candidates' cost **given** the static ones (a candidate may be served by its
//!   nearest static center at no budget) — still exact, the same dynamic program with a "served by a static
//!   center" step ([`kmedians_1d_given`]). Aware lowers the mean and upper-quartile error, blind the median
//!   (README, MAPLE measured). The static share is `k/2` unless `--hybrid-static N` (the paper names a
//!   2/3–1/3 split as a variant it did not explore).
//! - **Oracle** ([`oracle`]): k-medians of the epoch's own latencies (not pipelined): the exact
//!   [`kmedians_1d`] on the latencies merged into bins of 0.1 % (at least 10 ns) wide, then two
//!   Lloyd-style passes (assign to the nearest center, move it to the median) on the raw latencies.

use super::super::traffic::maple::Delayed;
use serde::Serialize;

/// Phase cost limit factor: a phase ends when its cost exceeds `ALPHA · L`.
pub const ALPHA: f64 = 4.0;
/// Growth of the lower bound `L` per phase.
pub const BETA: f64 = 2.0;
/// A phase ends when the facilities exceed `FACILITY_FACTOR · k (1 + ln n)`.
pub const FACILITY_FACTOR: f64 = 2.0;

/// A clustering scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Scheme {
    Log,
    KMedians,
    Hybrid,
    Oracle,
}

impl Scheme {
    pub const ALL: [Scheme; 4] = [Scheme::Oracle, Scheme::Hybrid, Scheme::KMedians, Scheme::Log];
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Log => "log",
            Scheme::KMedians => "kmedians",
            Scheme::Hybrid => "hybrid",
            Scheme::Oracle => "oracle",
        }
    }
    pub fn by_name(s: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// How hybrid clustering's offline stage treats the static (logarithmic) centers (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum HybridOffline {
    /// Plain k-medians on the candidates, blind to the static centers (the paper's words; default).
    #[default]
    Blind,
    /// The dynamic centers minimise the candidates' cost given the static centers (extension).
    Aware,
}

impl HybridOffline {
    pub const ALL: [HybridOffline; 2] = [HybridOffline::Blind, HybridOffline::Aware];
    pub fn name(self) -> &'static str {
        match self {
            HybridOffline::Aware => "aware",
            HybridOffline::Blind => "blind",
        }
    }
    pub fn by_name(s: &str) -> Option<HybridOffline> {
        HybridOffline::ALL.into_iter().find(|x| x.name() == s)
    }
}

/// Hybrid clustering's parameters: the static share and the offline stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Hybrid {
    pub offline: HybridOffline,
    /// Static (logarithmic) centers; `None` is the paper's `k/2` (it names 2/3–1/3 as a possible variant).
    pub static_centers: Option<usize>,
}

impl Hybrid {
    /// The static centers out of `k` (at most `k`).
    pub fn statics(&self, k: usize) -> usize {
        self.static_centers.unwrap_or(k / 2).min(k)
    }
    /// The static (logarithmic) centers out of `k` over `r`.
    pub fn static_set(&self, k: usize, r: &LogRange) -> Vec<f64> {
        logarithmic(self.statics(k), r)
    }
}

/// The logarithmic scheme's range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LogRange {
    pub lo_ns: f64,
    pub hi_ns: f64,
    /// Sub-ranges γ.
    pub gamma: usize,
}

impl Default for LogRange {
    fn default() -> Self {
        LogRange { lo_ns: 100.0, hi_ns: 1e7, gamma: 5 }
    }
}

/// `k` logarithmic centers over `r` (ascending).
pub fn logarithmic(k: usize, r: &LogRange) -> Vec<f64> {
    let g = r.gamma.clamp(1, k.max(1));
    let ratio = (r.hi_ns / r.lo_ns).powf(1.0 / g as f64);
    let mut out = Vec::with_capacity(k);
    for s in 0..g {
        let n = k / g + (s >= g - k % g) as usize;
        let (a, b) = (r.lo_ns * ratio.powi(s as i32), r.lo_ns * ratio.powi(s as i32 + 1));
        out.extend((0..n).map(|j| a + (j as f64 + 0.5) * (b - a) / n as f64));
    }
    out
}

/// Exact weighted k-medians of 1-D points `(x, w)` (any order): at most `k` centers, ascending.
pub fn kmedians_1d(points: &[(f64, f64)], k: usize) -> Vec<f64> {
    kmedians_1d_given(points, k, &[])
}

/// Exact weighted k-medians of 1-D points `(x, w)` with the centers `fixed` already open: at most `k` new
/// centers (ascending; `fixed` not included) minimising `Σ w·(distance to the nearest of new ∪ fixed)`.
///
/// In one dimension the points a center serves are contiguous, so over the sorted points the program
/// `F[c][j]` (the best cost of the first `j` points with at most `c` new centers) takes the best of: a new
/// cluster `i..j` at its weighted median after `F[c − 1][i]` (divide and conquer over `i`, monotone in `j`),
/// point `j − 1` served by its nearest fixed center after `F[c][j − 1]`, or `F[c − 1][j]`. Without fixed
/// centers only the first applies and exactly `min(k, m)` clusters come out, as plain k-medians.
pub fn kmedians_1d_given(points: &[(f64, f64)], k: usize, fixed: &[f64]) -> Vec<f64> {
    let mut p: Vec<(f64, f64)> = points.iter().copied().filter(|q| q.1 > 0.0 && q.0.is_finite()).collect();
    p.sort_by(|a, b| a.0.total_cmp(&b.0));
    let m = p.len();
    if m <= k {
        return p.iter().map(|q| q.0).collect();
    }
    let (mut wp, mut sp) = (vec![0.0; m + 1], vec![0.0; m + 1]);
    for (i, q) in p.iter().enumerate() {
        wp[i + 1] = wp[i] + q.1;
        sp[i + 1] = sp[i] + q.1 * q.0;
    }
    // Weighted median index of points a..b and the cluster's cost.
    let median = |a: usize, b: usize| -> usize {
        let half = wp[a] + 0.5 * (wp[b] - wp[a]);
        (a + wp[a + 1..=b].partition_point(|&x| x < half)).min(b - 1)
    };
    let cost = |a: usize, b: usize| -> f64 {
        let t = median(a, b);
        let x = p[t].0;
        x * (wp[t + 1] - wp[a]) - (sp[t + 1] - sp[a]) + (sp[b] - sp[t + 1]) - x * (wp[b] - wp[t + 1])
    };
    // Cost of point t served by its nearest fixed center (infinite without fixed centers).
    let to_fixed: Vec<f64> =
        p.iter().map(|q| q.1 * fixed.iter().map(|f| (f - q.0).abs()).fold(f64::INFINITY, f64::min)).collect();
    // prev[j]: F[c − 1][j]; how[c][j]: how F[c][j] was reached.
    let mut prev = vec![f64::INFINITY; m + 1];
    prev[0] = 0.0;
    if !fixed.is_empty() {
        for j in 1..=m {
            prev[j] = prev[j - 1] + to_fixed[j - 1];
        }
    }
    let mut how = vec![vec![Step::New(0); m + 1]; k + 1];
    let mut arg = vec![0usize; m + 1];
    for c in 1..=k {
        let mut cur = vec![f64::INFINITY; m + 1];
        solve(c, m, c - 1, m - 1, &prev, &mut cur, &mut arg, &cost);
        let how_c = &mut how[c];
        for j in 0..=m {
            how_c[j] = Step::New(arg[j]);
            if fixed.is_empty() {
                continue;
            }
            if j > 0 && cur[j - 1] + to_fixed[j - 1] < cur[j] {
                cur[j] = cur[j - 1] + to_fixed[j - 1];
                how_c[j] = Step::Fixed;
            }
            if prev[j] < cur[j] {
                cur[j] = prev[j];
                how_c[j] = Step::Fewer;
            }
        }
        prev = cur;
    }
    let mut centers = Vec::with_capacity(k);
    let (mut c, mut j) = (k, m);
    while j > 0 && c > 0 {
        match how[c][j] {
            Step::New(i) => {
                centers.push(p[median(i, j)].0);
                (c, j) = (c - 1, i);
            }
            Step::Fixed => j -= 1,
            Step::Fewer => c -= 1,
        }
    }
    centers.reverse();
    centers
}

/// How `F[c][j]` of [`kmedians_1d_given`] was reached.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// A new cluster starting at point `i`.
    New(usize),
    /// Point `j − 1` served by a fixed center.
    Fixed,
    /// With one new center fewer.
    Fewer,
}

/// Divide and conquer over `j ∈ jl..=jh` with the split `i ∈ il..=ih` (monotone in `j`).
#[allow(clippy::too_many_arguments)]
fn solve(
    jl: usize,
    jh: usize,
    il: usize,
    ih: usize,
    prev: &[f64],
    cur: &mut [f64],
    arg: &mut [usize],
    cost: &dyn Fn(usize, usize) -> f64,
) {
    if jl > jh {
        return;
    }
    let j = (jl + jh) / 2;
    let (mut best, mut at) = (f64::INFINITY, il);
    for (i, &p) in prev.iter().enumerate().take(ih.min(j - 1) + 1).skip(il) {
        if p.is_finite() {
            let v = p + cost(i, j);
            if v < best {
                (best, at) = (v, i);
            }
        }
    }
    cur[j] = best;
    arg[j] = at;
    if j > jl {
        solve(jl, j - 1, il, at, prev, cur, arg, cost);
    }
    solve(j + 1, jh, at, ih, prev, cur, arg, cost);
}

/// The online stage on a stream of sampled latencies.
#[derive(Debug, Clone)]
pub struct OnlineStage {
    k: usize,
    log_n: f64,
    /// Open facilities `(x, weight, fixed)`, sorted by x.
    fac: Vec<(f64, f64, bool)>,
    fixed: Vec<f64>,
    /// The first distinct points, until L is known.
    first: Vec<f64>,
    l: f64,
    cost: f64,
    rng: u64,
    pub phases: usize,
}

impl OnlineStage {
    /// For `k` centers and about `n` points; `fixed` are always-open facilities (hybrid).
    pub fn new(k: usize, n: usize, fixed: &[f64], seed: u64) -> OnlineStage {
        let mut s = OnlineStage {
            k,
            log_n: 1.0 + (n.max(2) as f64).ln(),
            fac: vec![],
            fixed: fixed.to_vec(),
            first: vec![],
            l: 0.0,
            cost: 0.0,
            rng: seed | 1,
            phases: 1,
        };
        s.open_fixed();
        s
    }
    fn open_fixed(&mut self) {
        for &x in &self.fixed {
            let at = self.fac.partition_point(|f| f.0 < x);
            self.fac.insert(at, (x, 0.0, true));
        }
    }
    fn uniform(&mut self) -> f64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng >> 11) as f64 / (1u64 << 53) as f64
    }
    /// One point of weight `w`.
    pub fn push(&mut self, x: f64, w: f64) {
        if self.l == 0.0 {
            // Every point opens a facility until k + 1 distinct ones give the first lower bound.
            self.open(x, w);
            if !self.first.contains(&x) {
                self.first.push(x);
            }
            if self.first.len() > self.k {
                let mut v = self.first.clone();
                v.sort_by(f64::total_cmp);
                self.l = v.windows(2).map(|p| p[1] - p[0]).fold(f64::INFINITY, f64::min).max(1.0);
            }
            return;
        }
        let f = self.l / (self.k as f64 * self.log_n);
        let at = self.fac.partition_point(|q| q.0 < x);
        let near = [at.checked_sub(1), (at < self.fac.len()).then_some(at)]
            .into_iter()
            .flatten()
            .min_by(|&a, &b| (self.fac[a].0 - x).abs().total_cmp(&(self.fac[b].0 - x).abs()));
        let Some(n) = near else { return self.open(x, w) };
        let d = (self.fac[n].0 - x).abs();
        if self.uniform() < (w * d / f).min(1.0) {
            self.open(x, w);
        } else {
            self.fac[n].1 += w;
            self.cost += w * d;
        }
        let limit = FACILITY_FACTOR * self.k as f64 * self.log_n;
        if self.cost > ALPHA * self.l || self.dynamic() as f64 > limit {
            self.next_phase();
        }
    }
    fn open(&mut self, x: f64, w: f64) {
        let at = self.fac.partition_point(|q| q.0 < x);
        self.fac.insert(at, (x, w, false));
    }
    fn dynamic(&self) -> usize {
        self.fac.iter().filter(|f| !f.2).count()
    }
    fn next_phase(&mut self) {
        self.l *= BETA;
        self.cost = 0.0;
        self.phases += 1;
        let old = std::mem::take(&mut self.fac);
        self.open_fixed();
        for (x, w, fixed) in old {
            if fixed {
                let at = self.fac.partition_point(|q| q.0 < x);
                self.fac[at].1 += w;
            } else {
                self.push(x, w);
            }
        }
    }
    /// The candidates for the offline stage: the open facilities that are not fixed, with their weights.
    pub fn candidates(&self) -> Vec<(f64, f64)> {
        self.fac.iter().filter(|f| !f.2 && f.1 > 0.0).map(|f| (f.0, f.1)).collect()
    }
}

/// The centers of `scheme` from the samples of an epoch (`n_hint`: expected sample count). Returns the
/// centers and the number of candidates the offline stage saw (0 for the logarithmic scheme).
pub fn from_samples(
    scheme: Scheme,
    samples: &[u32],
    k: usize,
    r: &LogRange,
    hybrid: &Hybrid,
    n_hint: usize,
    seed: u64,
) -> (Vec<f64>, usize) {
    let stream = |fixed: &[f64], want: usize| {
        let mut s = OnlineStage::new(k, n_hint, fixed, seed);
        samples.iter().for_each(|&x| s.push(x as f64, 1.0));
        let c = s.candidates();
        let given = if hybrid.offline == HybridOffline::Aware { fixed } else { &[] };
        let mut out = kmedians_1d_given(&c, want, given);
        out.extend_from_slice(fixed);
        (out, c.len())
    };
    match scheme {
        Scheme::Log => (logarithmic(k, r), 0),
        Scheme::KMedians => stream(&[], k),
        Scheme::Hybrid => stream(&hybrid.static_set(k, r), k - hybrid.statics(k)),
        Scheme::Oracle => (oracle(samples, k), 0),
    }
}

/// Oracle k-medians of `latencies` (see the module docs).
pub fn oracle(latencies: &[u32], k: usize) -> Vec<f64> {
    let mut v = latencies.to_vec();
    v.sort_unstable();
    let mut bins: Vec<(f64, f64)> = vec![];
    let mut i = 0;
    while i < v.len() {
        let top = v[i] as f64 * 1.001 + 10.0;
        let j = i + v[i..].partition_point(|&x| (x as f64) <= top);
        let mean = v[i..j].iter().map(|&x| x as f64).sum::<f64>() / (j - i) as f64;
        bins.push((mean, (j - i) as f64));
        i = j;
    }
    let mut c = kmedians_1d(&bins, k);
    for _ in 0..2 {
        let mut next = Vec::with_capacity(c.len());
        let mut lo = 0;
        for t in 0..c.len() {
            let bound = if t + 1 < c.len() { 0.5 * (c[t] + c[t + 1]) } else { f64::INFINITY };
            let hi = lo + v[lo..].partition_point(|&x| (x as f64) <= bound);
            next.push(if hi > lo { v[(lo + hi - 1) / 2] as f64 } else { c[t] });
            lo = hi;
        }
        c = next;
    }
    c
}

/// Absolute error (ns) of every packet of an epoch against its nearest center of `centers`.
pub fn abs_errors<'a>(epoch: &'a [Delayed], c: &'a golden::maple::Centers) -> impl Iterator<Item = f64> + 'a {
    epoch.iter().map(move |d| (d.latency as f64 - c.get(c.nearest(d.latency)) as f64).abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all contiguous splits of a few points.
    fn brute(p: &[(f64, f64)], k: usize) -> f64 {
        let mut best = f64::INFINITY;
        let m = p.len();
        for mask in 0u32..1 << (m - 1) {
            if mask.count_ones() as usize + 1 != k {
                continue;
            }
            let (mut cost, mut a) = (0.0, 0);
            for b in 1..=m {
                if b == m || mask >> (b - 1) & 1 == 1 {
                    let seg = &p[a..b];
                    cost += seg
                        .iter()
                        .map(|c| seg.iter().map(|q| q.1 * (q.0 - c.0).abs()).sum::<f64>())
                        .fold(f64::INFINITY, f64::min);
                    a = b;
                }
            }
            best = best.min(cost);
        }
        best
    }

    fn cost_of(p: &[(f64, f64)], c: &[f64]) -> f64 {
        p.iter().map(|q| q.1 * c.iter().map(|x| (x - q.0).abs()).fold(f64::INFINITY, f64::min)).sum()
    }

    #[test]
    fn kmedians_is_exact_on_small_sets() {
        let mut s = 12345u64;
        for round in 0..40 {
            let m = 4 + round % 9;
            let mut p: Vec<(f64, f64)> = (0..m)
                .map(|_| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (((s >> 33) % 1000) as f64, 1.0 + ((s >> 20) % 5) as f64)
                })
                .collect();
            p.sort_by(|a, b| a.0.total_cmp(&b.0));
            for k in 1..m.min(5) {
                let c = kmedians_1d(&p, k);
                assert!(c.len() <= k);
                assert!((cost_of(&p, &c) - brute(&p, k)).abs() < 1e-6, "{p:?} k {k}: {c:?}");
            }
        }
        assert_eq!(kmedians_1d(&[(3.0, 1.0), (1.0, 2.0)], 5), vec![1.0, 3.0]);
    }

    #[test]
    fn kmedians_given_fixed_centers_is_exact_on_small_sets() {
        // Brute force: optimal new centers sit on points (a weighted median is one), so try every subset of
        // at most k points beside the fixed centers.
        let subsets = |m: usize, k: usize| (0u32..1 << m).filter(move |s| s.count_ones() as usize <= k);
        let mut s = 99u64;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s >> 33
        };
        for round in 0..60 {
            let m = 5 + round % 7;
            let p: Vec<(f64, f64)> = (0..m).map(|_| ((next() % 1000) as f64, 1.0 + (next() % 5) as f64)).collect();
            let fixed: Vec<f64> = (0..1 + round % 3).map(|_| (next() % 1000) as f64).collect();
            for k in 1..4 {
                let c = kmedians_1d_given(&p, k, &fixed);
                assert!(c.len() <= k && c.windows(2).all(|w| w[0] <= w[1]), "{c:?}");
                let with = |c: &[f64]| cost_of(&p, &[c, &fixed[..]].concat());
                let best = subsets(m, k)
                    .map(|set| with(&(0..m).filter(|i| set >> i & 1 == 1).map(|i| p[i].0).collect::<Vec<_>>()))
                    .fold(f64::INFINITY, f64::min);
                assert!((with(&c) - best).abs() < 1e-6, "{p:?} fixed {fixed:?} k {k}: {c:?} {} vs {best}", with(&c));
            }
        }
        // Fixed centers change the answer: with one at 0, one new center goes to the far group.
        let p = [(0.0, 5.0), (1.0, 5.0), (100.0, 1.0), (101.0, 1.0)];
        assert_eq!(kmedians_1d(&p, 1), vec![1.0]);
        assert_eq!(kmedians_1d_given(&p, 1, &[0.5]), vec![100.0]);
    }

    #[test]
    fn logarithmic_centers_are_linear_per_decade() {
        let c = logarithmic(50, &LogRange::default());
        assert_eq!(c.len(), 50);
        assert!(c.windows(2).all(|w| w[0] < w[1]));
        assert!((c[0] - 145.0).abs() < 1e-9 && (c[9] - 955.0).abs() < 1e-6, "{:?}", &c[..10]);
        assert!((c[49] - 9_550_000.0).abs() < 1e-3);
        let odd = logarithmic(7, &LogRange { gamma: 3, ..LogRange::default() });
        assert_eq!(odd.len(), 7);
    }

    #[test]
    fn streaming_kmedians_is_close_to_the_oracle() {
        // Two-scale latencies: a bulk near 1..20 µs, a tail to 5 ms.
        let mut s = 7u64;
        let lat: Vec<u32> = (0..40_000)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let u = (s >> 11) as f64 / (1u64 << 53) as f64;
                if u < 0.7 {
                    (1000.0 + 19_000.0 * u / 0.7) as u32
                } else {
                    (20_000.0 * (250.0f64).powf((u - 0.7) / 0.3)) as u32
                }
            })
            .collect();
        let pts: Vec<(f64, f64)> = lat.iter().map(|&x| (x as f64, 1.0)).collect();
        let r = LogRange::default();
        let (oracle_c, _) = from_samples(Scheme::Oracle, &lat, 50, &r, &Hybrid::default(), lat.len(), 1);
        let (km, cand) = from_samples(Scheme::KMedians, &lat, 50, &r, &Hybrid::default(), lat.len(), 1);
        let (hy, _) = from_samples(Scheme::Hybrid, &lat, 50, &r, &Hybrid::default(), lat.len(), 1);
        let (lg, _) = from_samples(Scheme::Log, &lat, 50, &r, &Hybrid::default(), lat.len(), 1);
        assert!((200..5000).contains(&cand), "{cand} candidates");
        let (o, k, h, l) = (cost_of(&pts, &oracle_c), cost_of(&pts, &km), cost_of(&pts, &hy), cost_of(&pts, &lg));
        assert!(k < 1.5 * o && h < l && k < l, "oracle {o} kmedians {k} hybrid {h} log {l}");
        // The aware offline stage places the dynamic half given the static one: lower cost than blind; a
        // larger static share moves the hybrid toward the logarithmic scheme.
        let aware = Hybrid { offline: HybridOffline::Aware, static_centers: None };
        let (hy_aware, _) = from_samples(Scheme::Hybrid, &lat, 50, &r, &aware, lat.len(), 1);
        let three_quarters = Hybrid { static_centers: Some(38), ..Hybrid::default() };
        let (hy_38, _) = from_samples(Scheme::Hybrid, &lat, 50, &r, &three_quarters, lat.len(), 1);
        let (ha, h38) = (cost_of(&pts, &hy_aware), cost_of(&pts, &hy_38));
        assert!(ha < 0.95 * h && h < h38 && h38 < l, "aware {ha} blind {h} 38 static {h38} log {l}");
        assert_eq!((hy_aware.len(), hy_38.len()), (50, 50));
        assert_eq!((km.len(), hy.len()), (50, 50));
    }
}
