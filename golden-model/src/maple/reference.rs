//! A naive SVBF straight from §3.3.3, for cross-checking [`super::Svbf`]: the bits are a `Vec<bool>` per
//! segment, each hash is evaluated bit by bit from its masks (`XorHash::eval_masks`), the base is reduced in
//! 128-bit arithmetic, and a lookup tests the `k` positions one by one.

use super::{MapleConfig, SVBF_SEED};
use crate::common::hash::{HashKind, XorHash};

pub struct RefSvbf {
    seg: Vec<Vec<bool>>,
    hash: Vec<XorHash>,
}

impl RefSvbf {
    pub fn new(cfg: &MapleConfig) -> RefSvbf {
        let hash = (0..cfg.hashes as u64)
            .map(|j| XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: SVBF_SEED + j }, cfg.key_bits).unwrap())
            .collect();
        RefSvbf { seg: vec![vec![false; cfg.segment_bits()]; cfg.segments()], hash }
    }

    fn base(&self, j: usize, key: u128) -> usize {
        let m = self.seg[0].len() as u128;
        ((self.hash[j].eval_masks(key) as u128 * m) >> 32) as usize
    }

    /// Set bit (h_j(s) + i) mod m_seg in hash j's segment, for every j.
    pub fn insert(&mut self, key: u128, i: usize) {
        for j in 0..self.hash.len() {
            let b = self.base(j, key);
            let s = j % self.seg.len();
            let m = self.seg[s].len();
            self.seg[s][(b + i) % m] = true;
        }
    }

    /// Centers c < k with bit (h_j(s) + c) mod m_seg set for every j.
    pub fn candidates(&self, key: u128, k: usize) -> Vec<usize> {
        (0..k)
            .filter(|&c| {
                (0..self.hash.len()).all(|j| {
                    let s = &self.seg[j % self.seg.len()];
                    s[(self.base(j, key) + c) % s.len()]
                })
            })
            .collect()
    }
}
