//! What every latency store shares: the [`Store`] trait (insert a key under a center index, read the
//! candidate centers of a key), the answer of a lookup ([`resolve`]: Match / Multi-Match / No-Match with
//! the tie-break and the refined estimate), and one epoch's state ([`EpochState`]: the store, the centers,
//! the per-center counters) — used by the hardware model (SVBF) and the software baselines alike.

use super::{Centers, TieBreak};
use serde::Serialize;

/// A structure that stores a center index per key.
pub trait Store {
    /// Records `key` under center `center` (< 64); `false` if the store refused it (a full PBF filter).
    fn insert(&mut self, key: u128, center: usize) -> bool;
    /// The centers `key` may have been stored under, as a bitmap over the first `k` centers.
    fn candidates(&self, key: u128, k: usize) -> u64;
    /// Memory bits the store uses.
    fn memory_bits(&self) -> usize;
}

/// The 2-bit type of a lookup answer (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum MatchKind {
    /// No candidate: the latency is unknown.
    NoMatch = 0,
    /// Exactly one candidate.
    Match = 1,
    /// Several candidates; the center is the tie-break's guess (or none with [`TieBreak::None`]).
    MultiMatch = 2,
}

impl MatchKind {
    pub fn name(self) -> &'static str {
        match self {
            MatchKind::NoMatch => "no-match",
            MatchKind::Match => "match",
            MatchKind::MultiMatch => "multi-match",
        }
    }
}

/// The answer to a lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Lookup {
    pub kind: MatchKind,
    /// The candidate centers (bitmap).
    pub candidates: u64,
    /// The answered center, if any.
    pub center: Option<usize>,
    /// Its latency (ns).
    pub latency: Option<u32>,
    /// Its refined latency: the mean latency of the epoch's packets at that center (ns, floor, saturated at
    /// 2^32 − 1; the center's own latency when no packet counted there).
    pub refined: Option<u32>,
}

/// The answer for `candidates` (bitmap over the first `centers.k()`) given the epoch's per-center packet
/// counts and latency sums.
pub fn resolve(candidates: u64, centers: &Centers, count: &[u64], sum: &[u64], tie: TieBreak) -> Lookup {
    let k = centers.k();
    let c = if k >= 64 { candidates } else { candidates & ((1u64 << k) - 1) };
    let (kind, center) = match c.count_ones() {
        0 => (MatchKind::NoMatch, None),
        1 => (MatchKind::Match, Some(c.trailing_zeros() as usize)),
        _ => {
            let pick = match tie {
                TieBreak::None => None,
                // max_by_key keeps the last maximum: iterate from the highest index so the lowest wins.
                TieBreak::Count => (0..k).rev().filter(|&i| c >> i & 1 == 1).max_by_key(|&i| count[i]),
            };
            (MatchKind::MultiMatch, pick)
        }
    };
    // A mean above 2^32 − 1 ns cannot come from 32-bit latencies; it saturates (the hardware's rule after a
    // counter wrap).
    let refined = |i: usize| sum[i].checked_div(count[i]).map_or(centers.get(i), |v| v.min(u32::MAX as u64) as u32);
    Lookup { kind, candidates: c, center, latency: center.map(|i| centers.get(i)), refined: center.map(refined) }
}

/// One epoch of a store: the store, the epoch's centers and per-center counters.
#[derive(Debug, Clone)]
pub struct EpochState<S> {
    pub store: S,
    pub centers: Centers,
    /// Packets per center.
    pub count: Vec<u64>,
    /// Latency sum per center (ns).
    pub sum: Vec<u64>,
    /// Packets the store refused.
    pub refused: u64,
}

impl<S: Store> EpochState<S> {
    pub fn new(store: S, centers: Centers) -> EpochState<S> {
        let k = centers.k();
        EpochState { store, centers, count: vec![0; k], sum: vec![0; k], refused: 0 }
    }
    /// One packet: its center (the counters count every packet, stored or refused).
    #[inline]
    pub fn insert(&mut self, key: u128, latency: u32) -> usize {
        let i = self.centers.nearest(latency);
        self.add(i, latency);
        if !self.store.insert(key, i) {
            self.refused += 1;
        }
        i
    }
    /// A packet of `latency` at center `i` in the counters.
    #[inline]
    pub fn add(&mut self, i: usize, latency: u32) {
        self.count[i] += 1;
        self.sum[i] += latency as u64;
    }
    pub fn lookup(&self, key: u128, tie: TieBreak) -> Lookup {
        let c = self.store.candidates(key, self.centers.k());
        resolve(c, &self.centers, &self.count, &self.sum, tie)
    }
    pub fn packets(&self) -> u64 {
        self.count.iter().sum()
    }
}
