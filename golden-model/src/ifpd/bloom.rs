//! CM-BF's Bloom filter of the flows seen: `k` partitions of `m` bits, partition `p` indexed by its own
//! H3/32 (seed `BF_SEED + p`) reduced to `m` by `⌊h·m / 2^32⌋` — a partitioned filter, i.e. `k` rows of
//! one-bit words on the multi-row shape (every row read, every row written with 1). A flow is **new** iff at
//! least one of its `k` bits is 0; then all `k` are set. No deletion: the filter is cleared with the sketch.
//!
//! False "seen" answers (a new flow whose `k` bits are all set by others) have probability about
//! `(1 − e^(−n/m))^k` after `n` flows; CM-BF then estimates `t − t_min` for a first packet.

use super::{IfpdConfig, MAX_BF_HASHES};
use crate::common::config::ConfigError;
use crate::common::hash::HashBank;

/// A flow's bit index in each of `hashes` partitions of `bits` bits (the first `hashes` entries), from the
/// partitions' hash bank ([`IfpdConfig::bf_hash_bank`]).
#[inline(always)]
pub fn indices(bank: &HashBank, hashes: usize, bits: usize, flow: u128) -> [usize; MAX_BF_HASHES] {
    bank.eval_with(flow, |v| {
        let mut idx = [0; MAX_BF_HASHES];
        for (p, i) in idx.iter_mut().enumerate().take(hashes) {
            *i = IfpdConfig::reduce(HashBank::get32(v, p), bits);
        }
        idx
    })
}

/// The filter's bits and index hashes.
#[derive(Debug, Clone)]
pub struct BloomFilter {
    pub hashes: usize,
    pub bits: usize,
    bank: HashBank,
    /// Partition p's bit i at position `p · 64 · words_per + i` ([`Self::stride`]): bit `i % 64` of
    /// `words[p * words_per + i / 64]`.
    words: Vec<u64>,
    words_per: usize,
}

impl BloomFilter {
    /// The filter of `cfg` (`bf_bits` must be non-zero).
    pub fn new(cfg: &IfpdConfig) -> Result<BloomFilter, ConfigError> {
        if cfg.bf_bits == 0 {
            return Err(ConfigError("no Bloom filter in this build (bf_bits = 0)".into()));
        }
        let bank = cfg.bf_hash_bank()?;
        let words_per = cfg.bf_bits.div_ceil(64);
        Ok(BloomFilter {
            hashes: cfg.bf_hashes,
            bits: cfg.bf_bits,
            bank,
            words: vec![0; cfg.bf_hashes * words_per],
            words_per,
        })
    }

    /// The bit index of `flow` in each partition.
    #[inline]
    pub fn indices(&self, flow: u128) -> [usize; MAX_BF_HASHES] {
        indices(&self.bank, self.hashes, self.bits, flow)
    }

    /// Whether `flow` is new (some bit 0); sets its bits.
    #[inline]
    pub fn test_and_set(&mut self, flow: u128) -> bool {
        self.test_and_set_at(&self.indices(flow))
    }

    /// [`Self::test_and_set`] of the flow whose [`Self::indices`] are `idx`.
    #[inline]
    pub fn test_and_set_at(&mut self, idx: &[usize; MAX_BF_HASHES]) -> bool {
        self.test_and_set_positions(&self.positions(idx))
    }

    /// Bits of one partition's span in the words (partition `p` starts at bit `p · stride()`): a bit index
    /// `i` of partition `p` is the position `p · stride() + i`, bit `pos % 64` of word `pos / 64`.
    #[inline]
    pub fn stride(&self) -> usize {
        64 * self.words_per
    }

    /// The positions of the bits `idx` (the first `k`; partition-relative, as [`Self::indices`] gives them).
    #[inline]
    pub fn positions(&self, idx: &[usize; MAX_BF_HASHES]) -> [usize; MAX_BF_HASHES] {
        std::array::from_fn(|p| p * self.stride() + idx[p])
    }

    /// Whether some bit at `pos` (the first `k` positions, [`Self::positions`]) is 0; sets them all. The
    /// transaction model's form: it computes the positions with the hashes, ahead of the packet.
    #[inline(always)]
    pub fn test_and_set_positions(&mut self, pos: &[usize; MAX_BF_HASHES]) -> bool {
        let mut new = false;
        for &b in &pos[..self.hashes] {
            let w = &mut self.words[b / 64];
            new |= *w >> (b % 64) & 1 == 0;
            *w |= 1 << (b % 64);
        }
        new
    }

    /// Starts loading the words of the bits at `pos` (the first `k`) into the cache (a hint: no value
    /// changes).
    #[inline(always)]
    pub fn prefetch(&self, pos: &[usize; MAX_BF_HASHES]) {
        for &b in &pos[..self.hashes] {
            super::sketch::prefetch(&self.words, b / 64);
        }
    }

    /// Bits set, over all partitions.
    pub fn ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
}
