//! Index hashes for the Bloom-filter variants (MAPLE's SVBF, PBF and COMB): `count` independent H3/32 units
//! of one key, each reduced to a bit position.
//!
//! A model speed-up, not a different function: unit `j`'s value is exactly
//! `XorHash::new(H3Seeded { out_bits: 32, seed: first_seed + j }, key_bits).eval(key)` (the RTL has one
//! `HashUnit` per hash). The units are evaluated together as [`HashBank`]s of at most
//! [`IndexHashes::PER_BANK`] units (one table read per key byte for ten units), and a caller takes the values
//! in a closure ([`IndexHashes::for_each`]) while the bank's lanes are still in registers.

use super::config::ConfigError;
use super::hash::{reduce32, HashBank, HashKind, XorHash, BANK_LANES};

/// `count` independent index hashes of one key — H3/32 with seeds `first_seed, first_seed + 1, …` — in banks
/// of at most [`IndexHashes::PER_BANK`] units (so any count fits, e.g. COMB's `f·h` hashes).
#[derive(Debug, Clone)]
pub struct IndexHashes {
    banks: Vec<HashBank>,
    count: usize,
}

impl IndexHashes {
    /// 32-bit units per bank (two per 64-bit lane).
    pub const PER_BANK: usize = 2 * BANK_LANES;

    pub fn new(count: usize, first_seed: u64, key_bits: usize) -> Result<IndexHashes, ConfigError> {
        let units: Vec<XorHash> = (0..count as u64)
            .map(|j| XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: first_seed + j }, key_bits))
            .collect::<Result<_, _>>()?;
        let banks = units.chunks(Self::PER_BANK).map(|c| HashBank::new(c.to_vec())).collect::<Result<_, _>>()?;
        Ok(IndexHashes { banks, count })
    }

    pub fn count(&self) -> usize {
        self.count
    }

    /// The units in order.
    pub fn units(&self) -> impl Iterator<Item = &XorHash> {
        self.banks.iter().flat_map(|b| b.hashes.iter())
    }

    /// `f(j, value)` for every unit `j` in order, `value` its 32-bit hash of `key`.
    #[inline(always)]
    pub fn for_each(&self, key: u128, mut f: impl FnMut(usize, u64)) {
        for (n, bank) in self.banks.iter().enumerate() {
            let units = bank.hashes.len();
            bank.eval_with(key, |v| {
                for i in 0..units {
                    f(n * Self::PER_BANK + i, HashBank::get32(v, i));
                }
            });
        }
    }

    /// [`Self::for_each`] with the unit count a constant `H` (= [`Self::count`]): the caller's per-unit loop
    /// unrolls and the bank's lanes stay in registers (README, MAPLE golden speed). Its own loop on purpose:
    /// both as one helper taking the count as an argument measured 19 M instead of 30 M MAPLE inserts/s.
    #[inline(always)]
    pub fn for_each_n<const H: usize>(&self, key: u128, mut f: impl FnMut(usize, u64)) {
        debug_assert_eq!(H, self.count);
        for n in 0..H.div_ceil(Self::PER_BANK) {
            let base = n * Self::PER_BANK;
            self.banks[n].eval_with(key, |v| {
                for i in 0..(H - base).min(2 * v.len()) {
                    f(base + i, HashBank::get32(v, i));
                }
            });
        }
    }

    /// Every unit's 32-bit value of `key` into `out[..count]`.
    #[inline]
    pub fn eval_into(&self, key: u128, out: &mut [u64]) {
        self.for_each(key, |j, h| out[j] = h)
    }

    /// Every unit's slot in `0..n` ([`reduce32`]) into `out[..count]`.
    #[inline]
    pub fn slots_into(&self, key: u128, n: usize, out: &mut [usize]) {
        self.for_each(key, |j, h| out[j] = reduce32(h, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_hashes_are_the_seeded_units_in_banks() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        // Counts around the bank size (16), key widths with a partial top byte range; keys carry bits above
        // the width, which every unit ignores.
        for (count, key_bits) in [(1, 128), (9, 128), (16, 104), (17, 128), (24, 40), (33, 72)] {
            let ix = IndexHashes::new(count, 40, key_bits).unwrap();
            assert_eq!((ix.count(), ix.units().count()), (count, count));
            let (mut raw, mut slots) = ([0u64; 40], [0usize; 40]);
            let units: Vec<XorHash> = (0..count as u64)
                .map(|j| XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: 40 + j }, key_bits).unwrap())
                .collect();
            for _ in 0..300 {
                let key: u128 = rng.gen();
                ix.eval_into(key, &mut raw);
                ix.slots_into(key, 1000, &mut slots);
                for (j, h) in units.iter().enumerate() {
                    assert_eq!(raw[j], h.eval_masks(key), "unit {j} of {count}, {key_bits}-bit key");
                    assert_eq!(slots[j], reduce32(raw[j], 1000));
                    assert!(slots[j] < 1000);
                }
            }
        }
        assert_eq!(reduce32(0xFFFF_FFFF, 7), 6);
        assert_eq!(reduce32(0x8000_0000, 16), 8);
    }
}
