//! The stores MAPLE is compared against (§3.3.1, §3.3.2, §5.3), in software, behind the same [`Store`]
//! trait as the SVBF (same center match, counters, tie-break and refined estimate via
//! [`super::EpochState`]).
//!
//! - [`Pbf`]: one Bloom filter per center. The total memory is split by the expected share of packets per
//!   center (the control plane's counts two epochs back; every filter gets at least 64 bits); all filters
//!   use the same `h` hashes (H3/32, seeds [`PBF_SEED`]`+ j`, reduced to the filter's size). A filter has a
//!   **capacity** `⌊m_i·ln 2 / h⌋` (Table 2's `m/n ≥ h/ln 2`); with [`PbfPolicy::StopAtCapacity`] (the
//!   paper's §3.3.1 choice) a full filter refuses further packets — they become false negatives —, with
//!   [`PbfPolicy::Overfill`] it keeps accepting (more false positives instead).
//! - [`Comb`]: COMB(f, θ) with `h` hashes per code bit: one filter of `m` bits, center `i` owns the `i`-th
//!   θ-of-f code (the f-bit values with θ ones, in increasing numeric order); insert sets the `h` bits of
//!   each of its θ code bits (hash `p·h + t`, seeds [`COMB_SEED`]`+ …`); lookup reads all `f·h` bits, a code
//!   bit is 1 when its `h` bits are, and every center whose code is inside the read code is a candidate.
//! - [`Perfect`]: the exact center per key (a map; a key inserted twice keeps both centers as candidates):
//!   the paper's "Clustering" reference.

use super::store::Store;
use crate::common::config::ConfigError;
use crate::common::hash::{reduce32, IndexHashes};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Seed of the PBF's hash 0.
pub const PBF_SEED: u64 = 128;
/// Seed of COMB's hash 0.
pub const COMB_SEED: u64 = 192;
/// Smallest PBF filter, bits.
pub const PBF_MIN_BITS: usize = 64;

/// What a full PBF filter does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PbfPolicy {
    /// Refuse packets beyond the capacity (false negatives).
    StopAtCapacity,
    /// Keep inserting.
    Overfill,
}

/// One filter per center, in one bit vector.
#[derive(Debug, Clone)]
pub struct Pbf {
    hashes: usize,
    index: IndexHashes,
    /// Per filter: first bit, bits, capacity, packets stored.
    filters: Vec<(usize, usize, u64, u64)>,
    bits: Vec<u64>,
    policy: PbfPolicy,
}

impl Pbf {
    /// `total_bits` split over `shares.len()` filters by `shares` (uniform when they sum to 0).
    pub fn new(
        total_bits: usize,
        hashes: usize,
        key_bits: usize,
        shares: &[f64],
        policy: PbfPolicy,
    ) -> Result<Pbf, ConfigError> {
        let k = shares.len();
        if k == 0 || k > super::MAX_CENTERS || hashes == 0 || hashes > super::MAX_HASHES {
            return Err(ConfigError(format!("PBF with {k} filters and {hashes} hashes")));
        }
        if total_bits < PBF_MIN_BITS * k {
            return Err(ConfigError(format!("PBF: {total_bits} bits for {k} filters of at least {PBF_MIN_BITS}")));
        }
        let total: f64 = shares.iter().filter(|s| s.is_finite() && **s > 0.0).sum();
        let spare = (total_bits - PBF_MIN_BITS * k) as f64;
        let mut filters = Vec::with_capacity(k);
        let mut start = 0;
        for &s in shares {
            let share = if total > 0.0 && s.is_finite() && s > 0.0 {
                s / total
            } else if total > 0.0 {
                0.0
            } else {
                1.0 / k as f64
            };
            let m = PBF_MIN_BITS + (spare * share) as usize;
            let cap = (m as f64 * std::f64::consts::LN_2 / hashes as f64) as u64;
            filters.push((start, m, cap, 0));
            start += m;
        }
        Ok(Pbf {
            hashes,
            index: IndexHashes::new(hashes, PBF_SEED, key_bits)?,
            filters,
            bits: vec![0; start.div_ceil(64)],
            policy,
        })
    }
    /// Filter `i`'s bits and capacity.
    pub fn filter(&self, i: usize) -> (usize, u64) {
        (self.filters[i].1, self.filters[i].2)
    }
    fn get(&self, p: usize) -> bool {
        self.bits[p / 64] >> (p % 64) & 1 == 1
    }
}

impl Store for Pbf {
    fn insert(&mut self, key: u128, center: usize) -> bool {
        let (start, m, cap, n) = self.filters[center];
        if self.policy == PbfPolicy::StopAtCapacity && n >= cap {
            return false;
        }
        let mut raw = [0u64; super::MAX_HASHES];
        self.index.eval_into(key, &mut raw);
        for &h in &raw[..self.hashes] {
            let p = start + reduce32(h, m);
            self.bits[p / 64] |= 1 << (p % 64);
        }
        self.filters[center].3 += 1;
        true
    }
    fn candidates(&self, key: u128, k: usize) -> u64 {
        let mut raw = [0u64; super::MAX_HASHES];
        self.index.eval_into(key, &mut raw);
        let mut c = 0;
        for (i, &(start, m, _, _)) in self.filters.iter().enumerate().take(k) {
            if raw[..self.hashes].iter().all(|&h| self.get(start + reduce32(h, m))) {
                c |= 1 << i;
            }
        }
        c
    }
    fn memory_bits(&self) -> usize {
        self.filters.iter().map(|f| f.1).sum()
    }
}

/// COMB(f, θ) with `h` hashes per code bit.
#[derive(Debug, Clone)]
pub struct Comb {
    pub f: usize,
    pub theta: usize,
    pub h: usize,
    m: usize,
    index: IndexHashes,
    codes: Vec<u64>,
    bits: Vec<u64>,
}

impl Comb {
    /// Supports `k` centers (needs `C(f, θ) ≥ k`).
    pub fn new(m: usize, f: usize, theta: usize, h: usize, k: usize, key_bits: usize) -> Result<Comb, ConfigError> {
        if !(1..=16).contains(&f) || theta == 0 || theta > f || h == 0 || f * h > 64 || m < 64 {
            return Err(ConfigError(format!("COMB(f = {f}, θ = {theta}) with h = {h} over {m} bits")));
        }
        let codes: Vec<u64> = (0u64..1 << f).filter(|c| c.count_ones() as usize == theta).take(k).collect();
        if codes.len() < k {
            return Err(ConfigError(format!("COMB(f = {f}, θ = {theta}) has {} codes for {k} centers", codes.len())));
        }
        Ok(Comb {
            f,
            theta,
            h,
            m,
            index: IndexHashes::new(f * h, COMB_SEED, key_bits)?,
            codes,
            bits: vec![0; m.div_ceil(64)],
        })
    }
    /// Center `i`'s code.
    pub fn code(&self, i: usize) -> u64 {
        self.codes[i]
    }
    /// The f-bit code read for `key`.
    pub fn read_code(&self, key: u128) -> u64 {
        let mut s = [0usize; 64];
        self.index.slots_into(key, self.m, &mut s);
        (0..self.f)
            .filter(|&p| s[p * self.h..][..self.h].iter().all(|&q| self.bits[q / 64] >> (q % 64) & 1 == 1))
            .fold(0, |c, p| c | 1 << p)
    }
}

impl Store for Comb {
    fn insert(&mut self, key: u128, center: usize) -> bool {
        let mut s = [0usize; 64];
        self.index.slots_into(key, self.m, &mut s);
        let code = self.codes[center];
        for p in (0..self.f).filter(|p| code >> p & 1 == 1) {
            for &q in &s[p * self.h..][..self.h] {
                self.bits[q / 64] |= 1 << (q % 64);
            }
        }
        true
    }
    fn candidates(&self, key: u128, k: usize) -> u64 {
        let read = self.read_code(key);
        self.codes.iter().take(k).enumerate().filter(|(_, &c)| c & !read == 0).fold(0, |m, (i, _)| m | 1 << i)
    }
    fn memory_bits(&self) -> usize {
        self.m
    }
}

/// The exact center(s) of every key.
#[derive(Debug, Clone, Default)]
pub struct Perfect {
    map: HashMap<u128, u64>,
}

impl Store for Perfect {
    fn insert(&mut self, key: u128, center: usize) -> bool {
        *self.map.entry(key).or_default() |= 1 << center;
        true
    }
    fn candidates(&self, key: u128, _k: usize) -> u64 {
        self.map.get(&key).copied().unwrap_or(0)
    }
    /// The paper's §3.4.1 minimum for an exact table: a 32-bit hash and a 6-bit center id per packet.
    fn memory_bits(&self) -> usize {
        self.map.len() * 38
    }
}
