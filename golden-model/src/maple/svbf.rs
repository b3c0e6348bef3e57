//! The shifting-vector Bloom filter (§3.3.3) as the hardware lays it out: `S` segments of `m_seg` bits
//! (`S = h` partitioned, 1 unpartitioned), hash `j` in segment `j mod S`. Insert of key `s` at center `i`:
//! bit `(b_j + i) mod m_seg` of segment `j` for every `j`, with `b_j = ⌊H3_j(s)·m_seg / 2^32⌋`. Lookup:
//! per hash the `k` bits from `b_j` on (wrapping at the segment's end), read as `w`-bit words of the
//! segment, ANDed.
//!
//! Bits are kept in `u64`s (bit `p` of the bank at `bits[p / 64]`, bit `p % 64`); segment `t` starts at bank
//! bit `t·m_seg`. [`Svbf::words`] gives the bank as the flush engine streams it (`w`-bit words, segment by
//! segment, word `a` of a segment holding its bits `a·w ..`), [`Svbf::from_words`] rebuilds a store from
//! such a stream.

use super::store::Store;
use super::{MapleConfig, MAX_HASHES, SVBF_SEED};
use crate::common::config::ConfigError;
use crate::common::hash::{reduce32, IndexHashes};

#[derive(Debug, Clone)]
pub struct Svbf {
    hashes: usize,
    segments: usize,
    seg_bits: usize,
    word_bits: usize,
    index: IndexHashes,
    /// Bank bit where hash `j`'s segment starts (`(j mod S)·m_seg`).
    starts: [usize; MAX_HASHES],
    bits: Vec<u64>,
}

impl Svbf {
    pub fn new(cfg: &MapleConfig) -> Result<Svbf, ConfigError> {
        cfg.check()?;
        let total = cfg.memory_bits();
        let mut starts = [0; MAX_HASHES];
        starts.iter_mut().enumerate().for_each(|(j, s)| *s = (j % cfg.segments()) * cfg.segment_bits());
        Ok(Svbf {
            starts,
            hashes: cfg.hashes,
            segments: cfg.segments(),
            seg_bits: cfg.segment_bits(),
            word_bits: cfg.word_bits,
            index: IndexHashes::new(cfg.hashes, SVBF_SEED, cfg.key_bits)?,
            bits: vec![0; total.div_ceil(64) + 1],
        })
    }

    /// Bank bit where hash `j`'s segment starts.
    #[inline]
    fn seg_start(&self, j: usize) -> usize {
        self.starts[j]
    }

    /// The key's base `b_j` in its segment, per hash (the first `h` entries).
    #[inline]
    pub fn bases(&self, key: u128) -> [usize; MAX_HASHES] {
        let mut b = [0usize; MAX_HASHES];
        self.index.slots_into(key, self.seg_bits, &mut b);
        b
    }

    /// The bank bit that hash `j` sets for base `b` and center `i`.
    #[inline]
    pub fn bit_index(&self, j: usize, b: usize, i: usize) -> usize {
        let p = b + i;
        self.seg_start(j) + if p >= self.seg_bits { p - self.seg_bits } else { p }
    }

    #[inline]
    pub fn get(&self, p: usize) -> bool {
        self.bits[p / 64] >> (p % 64) & 1 == 1
    }

    /// `n ≤ 64` bank bits from `p` on, bit 0 = bank bit `p` (the vector has a spare zero word at its end).
    #[inline]
    fn read(&self, p: usize, n: usize) -> u64 {
        let (w, o) = (p / 64, p % 64);
        let lo = self.bits[w] >> o;
        let v = if o == 0 { lo } else { lo | self.bits[w + 1] << (64 - o) };
        if n >= 64 {
            v
        } else {
            v & ((1u64 << n) - 1)
        }
    }

    /// Hash `j`'s `k`-bit window from base `b` (wrapping at its segment's end).
    #[inline]
    pub fn window(&self, j: usize, b: usize, k: usize) -> u64 {
        let s = self.seg_start(j);
        let first = (self.seg_bits - b).min(k);
        let mut v = self.read(s + b, first);
        if first < k {
            v |= self.read(s, k - first) << first;
        }
        v
    }

    /// `w`-bit words of its segment a `k`-bit window from base `b` touches (the burst length).
    pub fn burst_words(&self, b: usize, k: usize) -> usize {
        let w = self.word_bits;
        let first = (self.seg_bits - b).min(k);
        let mut n = (b + first - 1) / w - b / w + 1;
        if first < k {
            n += (k - first - 1) / w + 1;
        }
        n
    }

    /// The candidate bitmap of `key` over `k` centers and the words the lookup read (all hashes).
    pub fn lookup_words(&self, key: u128, k: usize) -> (u64, usize) {
        let b = self.bases(key);
        let mut and = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        let mut words = 0;
        for (j, &bj) in b[..self.hashes].iter().enumerate() {
            and &= self.window(j, bj, k);
            words += self.burst_words(bj, k);
        }
        (and, words)
    }

    /// Set bits in the bank.
    pub fn ones(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn clear(&mut self) {
        self.bits.iter_mut().for_each(|w| *w = 0);
    }

    /// The bank as the flush engine streams it: per segment, its `⌈m_seg/w⌉` words of `w` bits (the last
    /// one zero-padded).
    pub fn words(&self) -> Vec<u64> {
        let w = self.word_bits;
        let mut out = Vec::with_capacity(self.segments * self.seg_bits.div_ceil(w));
        for t in 0..self.segments {
            let s = t * self.seg_bits;
            for a in 0..self.seg_bits.div_ceil(w) {
                out.push(self.read(s + a * w, w.min(self.seg_bits - a * w)));
            }
        }
        out
    }

    /// The store of `cfg` holding a flushed bank `words` (as [`Self::words`] wrote it).
    pub fn from_words(cfg: &MapleConfig, words: &[u64]) -> Result<Svbf, ConfigError> {
        let mut s = Svbf::new(cfg)?;
        let (w, per) = (s.word_bits, s.seg_bits.div_ceil(s.word_bits));
        if words.len() != s.segments * per {
            return Err(ConfigError(format!("{} flushed words for a bank of {} words", words.len(), s.segments * per)));
        }
        for (n, &word) in words.iter().enumerate() {
            let (t, a) = (n / per, n % per);
            for bit in 0..w.min(s.seg_bits - a * w) {
                if word >> bit & 1 == 1 {
                    let p = t * s.seg_bits + a * w + bit;
                    s.bits[p / 64] |= 1 << (p % 64);
                }
            }
        }
        Ok(s)
    }
}

impl Svbf {
    /// The bank bits an insert of `key` at center `i` sets, one per hash (the first `h` entries).
    #[inline]
    pub fn positions(&self, key: u128, center: usize) -> [usize; MAX_HASHES] {
        let mut b = self.bases(key);
        for (j, bj) in b[..self.hashes].iter_mut().enumerate() {
            *bj = self.bit_index(j, *bj, center);
        }
        b
    }

    /// [`Svbf::positions`] with `H` = the store's hash count a constant ([`MapleModel::run`]'s path; `H` must
    /// be that count).
    ///
    /// [`MapleModel::run`]: super::MapleModel::run
    #[inline(always)]
    pub(crate) fn positions_n<const H: usize>(&self, key: u128, center: usize) -> [usize; H] {
        let mut p = [0usize; H];
        self.index.for_each_n::<H>(key, |j, h| p[j] = self.bit_index(j, reduce32(h, self.seg_bits), center));
        p
    }

    /// Sets the bank bits `positions` (one per hash: the first `h` of [`Svbf::positions`], or
    /// [`Svbf::positions_n`]). All addresses first, then the writes: measured 30 % faster than computing and
    /// writing bit by bit (README, MAPLE golden speed).
    #[inline(always)]
    pub fn set(&mut self, positions: &[usize]) {
        for &p in positions {
            self.bits[p / 64] |= 1 << (p % 64);
        }
    }
}

impl Store for Svbf {
    #[inline]
    fn insert(&mut self, key: u128, center: usize) -> bool {
        let p = self.positions(key, center);
        self.set(&p[..self.hashes]);
        true
    }
    fn candidates(&self, key: u128, k: usize) -> u64 {
        self.lookup_words(key, k).0
    }
    fn memory_bits(&self) -> usize {
        self.segments * self.seg_bits
    }
}
