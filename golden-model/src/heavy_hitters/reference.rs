//! Reference algorithms with a global minimum (golden model only): SpaceSaving and RAP.
//!
//! Both keep `m` buckets `{key, count}` and look keys up associatively; a miss considers the bucket with
//! the smallest count (ties: the lowest bucket number — buckets are numbered in the order they were
//! first filled). SpaceSaving always replaces it (`{x, min + 1}`); RAP replaces it with probability
//! `1/(min + 1)` (the slides' "w.p. 1/(cntVal+1)"), drawn from the same xorshift32 PRNG and admission rules
//! as the hardware ([`Admission`]). While fewer than `m` keys are stored, a new key takes a fresh bucket
//! (count 0 is the minimum and admits with probability 1 anyway).
//!
//! A per-packet search over `m` buckets is what a line-rate pipeline cannot do; here the minimum comes
//! from an ordered set in O(log m).

use super::Admission;
use crate::common::prng::{seed_state, xorshift32};
use std::collections::{BTreeSet, HashMap};

/// Global-minimum table shared by both algorithms.
#[derive(Debug, Clone)]
struct MinTable {
    m: usize,
    keys: Vec<u128>,
    counts: Vec<u64>,
    slot_of: HashMap<u128, usize>,
    by_count: BTreeSet<(u64, usize)>,
}

impl MinTable {
    fn new(m: usize) -> MinTable {
        assert!(m > 0, "a table needs at least one bucket");
        MinTable {
            m,
            keys: Vec::with_capacity(m),
            counts: Vec::with_capacity(m),
            slot_of: HashMap::with_capacity(2 * m),
            by_count: BTreeSet::new(),
        }
    }
    /// Increment `key` if stored (true), else false.
    fn hit(&mut self, key: u128) -> bool {
        let Some(&s) = self.slot_of.get(&key) else { return false };
        self.by_count.remove(&(self.counts[s], s));
        self.counts[s] += 1;
        self.by_count.insert((self.counts[s], s));
        true
    }
    /// The minimum count (0 while a bucket is free).
    fn min(&self) -> u64 {
        if self.keys.len() < self.m {
            0
        } else {
            self.by_count.first().expect("full table").0
        }
    }
    /// Put `key` into the minimum bucket with count `min + 1`.
    fn replace_min(&mut self, key: u128) {
        if self.keys.len() < self.m {
            let s = self.keys.len();
            self.keys.push(key);
            self.counts.push(1);
            self.slot_of.insert(key, s);
            self.by_count.insert((1, s));
            return;
        }
        let (c, s) = self.by_count.pop_first().expect("full table");
        self.slot_of.remove(&self.keys[s]);
        self.keys[s] = key;
        self.counts[s] = c + 1;
        self.slot_of.insert(key, s);
        self.by_count.insert((c + 1, s));
    }
    fn entries(&self) -> HashMap<u128, u64> {
        self.keys.iter().copied().zip(self.counts.iter().copied()).collect()
    }
}

/// SpaceSaving (Metwally et al.) with `m` counters.
#[derive(Debug, Clone)]
pub struct SpaceSaving(MinTable);

impl SpaceSaving {
    pub fn new(m: usize) -> SpaceSaving {
        SpaceSaving(MinTable::new(m))
    }
    pub fn step(&mut self, key: u128) {
        if !self.0.hit(key) {
            self.0.replace_min(key);
        }
    }
    /// Stored keys and their counts.
    pub fn estimates(&self) -> HashMap<u128, u64> {
        self.0.entries()
    }
}

/// RAP (Ben Basat et al.) with `m` buckets and a global minimum.
#[derive(Debug, Clone)]
pub struct Rap {
    t: MinTable,
    admission: Admission,
    prng: u32,
}

impl Rap {
    pub fn new(m: usize, admission: Admission, seed: u32) -> Rap {
        Rap { t: MinTable::new(m), admission, prng: seed_state(seed) }
    }
    pub fn step(&mut self, key: u128) {
        let r = self.prng;
        self.prng = xorshift32(self.prng);
        if !self.t.hit(key) && self.admission.admits(r, self.t.min()) {
            self.t.replace_min(key);
        }
    }
    pub fn estimates(&self) -> HashMap<u128, u64> {
        self.t.entries()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_saving_invariants() {
        let mut ss = SpaceSaving::new(4);
        for k in [1, 2, 3, 4, 5, 1, 1, 6] {
            ss.step(k);
        }
        let e = ss.estimates();
        // Counts sum to the stream length, the most frequent key is stored.
        assert_eq!(e.values().sum::<u64>(), 8);
        assert!(e[&1] >= 3);
        assert_eq!(e.len(), 4);
    }

    #[test]
    fn rap_keeps_a_heavy_key_and_admits_rarely() {
        let mut rap = Rap::new(8, Admission::Exact, 3);
        let mut x = 9u32;
        for n in 0..50_000u32 {
            x = xorshift32(x);
            rap.step(if n % 4 == 0 { 42 } else { x as u128 });
        }
        let e = rap.estimates();
        assert!(e[&42] > 10_000, "{e:?}");
        // Random admission: far fewer than the 37 500 light packets got in.
        assert!(e.values().sum::<u64>() < 20_000, "{e:?}");
    }
}
