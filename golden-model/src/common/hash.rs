//! Hash functions of the shared hash units: CRC16 (two polynomials), CRC32 and H3.
//!
//! All of them are linear (or affine) over GF(2) for a fixed key width, so the hardware computes every
//! output bit `i` as `^(key & mask[i]) ^ constant[i]`: one masked reduction XOR per bit, which Yosys maps to a
//! balanced tree (a loop-accumulated XOR synthesizes into deep chains). [`XorHash`] holds exactly those masks;
//! the RTL is generated from them, and [`XorHash::eval`] is the bit-accurate model of the unit.
//!
//! ## Key to message bytes
//! A key of `key_bits` bits (a multiple of 8, at most 128) is hashed as the message of `key_bits / 8` bytes
//! taken most significant byte first (big-endian, i.e. network order for header fields), each byte most
//! significant bit first (the CRCs here are all non-reflected). So `XorHash::crc(&CRC32_MPEG2, 72)` applied
//! to the key `0x31_32_33_34_35_36_37_38_39` equals the catalogue check value of "123456789".

use super::config::{ConfigError, KEY_BITS_MAX};
use super::mask128;

pub use super::index_hashes::IndexHashes;

/// A CRC variant as the CRC catalogue names it (Williams model: width, poly, init, refin, refout, xorout).
/// Only non-reflected variants (refin = refout = false) are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrcSpec {
    /// Catalogue name.
    pub name: &'static str,
    pub width: usize,
    pub poly: u64,
    pub init: u64,
    pub xorout: u64,
    /// CRC of the ASCII bytes "123456789", as published in the catalogue.
    pub check: u64,
}

/// CRC-16/UMTS (alias CRC-16/BUYPASS, CRC-16/VERIFONE): poly 0x8005, init 0, no reflection, xorout 0.
pub const CRC16_UMTS: CrcSpec =
    CrcSpec { name: "CRC-16/UMTS", width: 16, poly: 0x8005, init: 0, xorout: 0, check: 0xFEE8 };
/// CRC-16/EN-13757: poly 0x3D65, init 0, no reflection, xorout 0xFFFF (the second CRC16 seed).
pub const CRC16_EN13757: CrcSpec =
    CrcSpec { name: "CRC-16/EN-13757", width: 16, poly: 0x3D65, init: 0, xorout: 0xFFFF, check: 0xC2B7 };
/// CRC-32/MPEG-2: poly 0x04C11DB7, init 0xFFFFFFFF, no reflection, xorout 0.
pub const CRC32_MPEG2: CrcSpec =
    CrcSpec { name: "CRC-32/MPEG-2", width: 32, poly: 0x04C1_1DB7, init: 0xFFFF_FFFF, xorout: 0, check: 0x0376_E6E7 };

/// Seed of the H3 matrix (the ASCII bytes of "netmeas!").
pub const H3_SEED: u64 = 0x6e65_746d_6561_7321;

impl CrcSpec {
    /// Reference bit-serial CRC of a byte message (the textbook algorithm, independent of the masks).
    pub fn compute(&self, msg: &[u8]) -> u64 {
        let top = 1u64 << (self.width - 1);
        let all = if self.width == 64 { u64::MAX } else { (1u64 << self.width) - 1 };
        let mut crc = self.init & all;
        for &byte in msg {
            for bit in (0..8).rev() {
                let inbit = (byte >> bit) & 1 == 1;
                let fb = (crc & top != 0) ^ inbit;
                crc = (crc << 1) & all;
                if fb {
                    crc ^= self.poly;
                }
            }
        }
        (crc ^ self.xorout) & all
    }
}

/// The key's message bytes: `key_bits / 8` bytes, most significant first.
pub fn key_bytes(key: u128, key_bits: usize) -> Vec<u8> {
    let n = key_bits / 8;
    key.to_be_bytes()[16 - n..].to_vec()
}

/// Which function a hash unit computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum HashKind {
    Crc16Umts,
    Crc16En13757,
    Crc32Mpeg2,
    /// H3 with `out_bits` output bits; the matrix rows come from [`H3_SEED`].
    H3 {
        out_bits: usize,
    },
    /// H3 with `out_bits` output bits and its own matrix: the rows are the SplitMix64 outputs of the H3
    /// stream from position `1024 · seed` on (so seed 0 is [`HashKind::H3`], and seeds give disjoint,
    /// independent matrices for keys of up to 1024 bits) — the per-row index hashes of multi-row cores.
    H3Seeded {
        out_bits: usize,
        seed: u64,
    },
}

impl HashKind {
    pub fn out_bits(&self) -> usize {
        match self {
            HashKind::Crc16Umts | HashKind::Crc16En13757 => 16,
            HashKind::Crc32Mpeg2 => 32,
            HashKind::H3 { out_bits } | HashKind::H3Seeded { out_bits, .. } => *out_bits,
        }
    }
    pub fn name(&self) -> String {
        match self {
            HashKind::Crc16Umts => CRC16_UMTS.name.into(),
            HashKind::Crc16En13757 => CRC16_EN13757.name.into(),
            HashKind::Crc32Mpeg2 => CRC32_MPEG2.name.into(),
            HashKind::H3 { out_bits } => format!("H3/{out_bits}"),
            HashKind::H3Seeded { out_bits, seed } => format!("H3/{out_bits}#{seed}"),
        }
    }
}

/// A hash as the hardware computes it: `out[i] = parity(key & masks[i]) ^ constant[i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XorHash {
    pub kind: HashKind,
    pub key_bits: usize,
    /// `masks[i]` selects the key bits whose XOR is output bit `i`.
    pub masks: Vec<u128>,
    /// Output of the all-zero key (nonzero for CRCs with init or xorout).
    pub constant: u64,
    /// `tables[j][b]`: the output contribution of key byte j (bits 8j..8j+7) having value b — the same
    /// linear map, evaluated a byte at a time for speed (derived from `masks`).
    tables: Vec<[u64; 256]>,
}

fn byte_tables(masks: &[u128], key_bits: usize) -> Vec<[u64; 256]> {
    (0..key_bits.div_ceil(8))
        .map(|j| {
            let mut t = [0u64; 256];
            for (b, entry) in t.iter_mut().enumerate() {
                let key = (b as u128) << (8 * j);
                *entry =
                    masks.iter().enumerate().fold(0u64, |h, (i, m)| h | ((((key & m).count_ones() & 1) as u64) << i));
            }
            t
        })
        .collect()
}

/// SplitMix64's state increment.
const SPLITMIX_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64: the fixed generator of H3 matrix rows.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(SPLITMIX_GAMMA);
    mix64(*state)
}

/// SplitMix64's output function (Steele, Lea, Flood 2014), a bijection on u64; also the mixer of sim's
/// traffic generators.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl XorHash {
    /// Builds the hash of `kind` over keys of `key_bits` bits (multiple of 8 for CRCs, 1..=128).
    pub fn new(kind: HashKind, key_bits: usize) -> Result<Self, ConfigError> {
        super::config::check_range("key_bits", key_bits, 1, KEY_BITS_MAX)?;
        match kind {
            HashKind::Crc16Umts => Self::crc(kind, &CRC16_UMTS, key_bits),
            HashKind::Crc16En13757 => Self::crc(kind, &CRC16_EN13757, key_bits),
            HashKind::Crc32Mpeg2 => Self::crc(kind, &CRC32_MPEG2, key_bits),
            HashKind::H3 { out_bits } => Self::h3(kind, out_bits, 0, key_bits),
            HashKind::H3Seeded { out_bits, seed } => Self::h3(kind, out_bits, seed, key_bits),
        }
    }

    /// H3 whose matrix rows start at position `1024 · seed` of the SplitMix64 stream from [`H3_SEED`].
    fn h3(kind: HashKind, out_bits: usize, seed: u64, key_bits: usize) -> Result<Self, ConfigError> {
        super::config::check_range("H3 out_bits", out_bits, 1, 64)?;
        // Row j (the contribution of key bit j) is a random out_bits-wide vector.
        let mut st = H3_SEED.wrapping_add(seed.wrapping_mul(1024).wrapping_mul(SPLITMIX_GAMMA));
        let rows: Vec<u64> = (0..key_bits).map(|_| splitmix64(&mut st) & (u64::MAX >> (64 - out_bits))).collect();
        let masks: Vec<u128> = (0..out_bits)
            .map(|i| {
                rows.iter().enumerate().filter(|(_, r)| (*r >> i) & 1 == 1).fold(0u128, |m, (j, _)| m | (1u128 << j))
            })
            .collect();
        Ok(XorHash { kind, key_bits, tables: byte_tables(&masks, key_bits), masks, constant: 0 })
    }

    fn crc(kind: HashKind, spec: &CrcSpec, key_bits: usize) -> Result<Self, ConfigError> {
        if key_bits % 8 != 0 {
            return Err(ConfigError(format!("{}: key_bits = {key_bits} is not a whole number of bytes", spec.name)));
        }
        let constant = spec.compute(&key_bytes(0, key_bits));
        // Affine map: crc(key) = constant ^ XOR_{j in key} (crc(e_j) ^ constant).
        let columns: Vec<u64> =
            (0..key_bits).map(|j| spec.compute(&key_bytes(1u128 << j, key_bits)) ^ constant).collect();
        let masks: Vec<u128> = (0..spec.width)
            .map(|i| {
                columns.iter().enumerate().filter(|(_, c)| (*c >> i) & 1 == 1).fold(0u128, |m, (j, _)| m | (1u128 << j))
            })
            .collect();
        Ok(XorHash { kind, key_bits, tables: byte_tables(&masks, key_bits), masks, constant })
    }

    pub fn out_bits(&self) -> usize {
        self.masks.len()
    }

    /// The low `bits` output bits only (a hash unit narrower than its function, e.g. a 16-bit signature
    /// taken from CRC-32).
    pub fn truncated(&self, bits: usize) -> Result<XorHash, ConfigError> {
        super::config::check_range("truncated hash width", bits, 1, self.out_bits())?;
        let masks = self.masks[..bits].to_vec();
        Ok(XorHash {
            kind: self.kind,
            key_bits: self.key_bits,
            tables: byte_tables(&masks, self.key_bits),
            masks,
            constant: self.constant & (u64::MAX >> (64 - bits)),
        })
    }

    /// Output bits `lo .. lo + bits` only, as bits `0 .. bits` (a hash unit taking the top bits of a wider
    /// function, e.g. a row index `⌊h·2^a / 2^32⌋` = the top `a` bits of a 32-bit hash).
    pub fn slice(&self, lo: usize, bits: usize) -> Result<XorHash, ConfigError> {
        super::config::check_range("hash slice width", bits, 1, self.out_bits().saturating_sub(lo))?;
        let masks = self.masks[lo..lo + bits].to_vec();
        Ok(XorHash {
            kind: self.kind,
            key_bits: self.key_bits,
            tables: byte_tables(&masks, self.key_bits),
            masks,
            constant: (self.constant >> lo) & (u64::MAX >> (64 - bits)),
        })
    }

    /// The hash of `key` (bits above `key_bits` are ignored), exactly as the hash unit computes it:
    /// bit i = parity(key & masks[i]) ^ constant bit i.
    pub fn eval_masks(&self, key: u128) -> u64 {
        let key = key & mask128(self.key_bits);
        let lin =
            self.masks.iter().enumerate().fold(0u64, |h, (i, m)| h | ((((key & m).count_ones() & 1) as u64) << i));
        lin ^ self.constant
    }

    /// The same value as [`XorHash::eval_masks`], a key byte at a time through precomputed tables.
    pub fn eval(&self, key: u128) -> u64 {
        let key = key & mask128(self.key_bits);
        let bytes = key.to_le_bytes();
        self.tables.iter().zip(bytes).fold(self.constant, |h, (t, b)| h ^ t[b as usize])
    }
}

/// Cycle model of a hash unit: the hash of this cycle's key appears on the output one cycle later.
#[derive(Debug, Clone)]
pub struct HashUnitModel {
    pub hash: XorHash,
    out: Option<u64>,
}

impl HashUnitModel {
    pub fn new(hash: XorHash) -> Self {
        HashUnitModel { hash, out: None }
    }
    /// Output during this cycle (`None` before the first clock edge), then latches `key`.
    pub fn step(&mut self, key: u128) -> Option<u64> {
        let now = self.out;
        self.out = Some(self.hash.eval(key));
        now
    }
}

/// Lanes of a [`HashBank`] value (up to 320 output bits in all).
pub const BANK_LANES: usize = 5;

/// Several hash units over the same key evaluated together (the hashes a core computes in parallel from one
/// descriptor, e.g. d row indices and a fingerprint): one table per key byte whose entries hold every
/// unit's contribution side by side, so a key costs `key_bits / 8` table reads instead of that many per
/// unit. The value is exactly each unit's [`XorHash::eval`]; it is a model speed-up, not a different
/// function (the RTL has one `HashUnit` per hash). The evaluation is specialised per lane count (the
/// accumulator stays in registers, the table rows are fixed-size arrays without bounds checks).
#[derive(Debug, Clone)]
pub struct HashBank {
    pub hashes: Vec<XorHash>,
    /// `(lane, shift, mask)` of each hash's output: hashes never straddle a 64-bit lane.
    place: Vec<(usize, u32, u64)>,
    lanes: usize,
    constant: [u64; BANK_LANES],
    /// `tables[(j * 256 + b) * lanes + l]`: lane l of the contribution of key byte j having value b.
    tables: Vec<u64>,
    key_mask: u128,
}

impl HashBank {
    /// The units `hashes` (same key width; at most [`BANK_LANES`] lanes of 64 bits once packed).
    pub fn new(hashes: Vec<XorHash>) -> Result<HashBank, ConfigError> {
        let key_bits = hashes.first().map_or(0, |h| h.key_bits);
        if hashes.iter().any(|h| h.key_bits != key_bits) {
            return Err(ConfigError("a hash bank's units must share the key width".into()));
        }
        let (mut place, mut lane, mut used) = (vec![], 0usize, 0u32);
        for h in &hashes {
            let w = h.out_bits() as u32;
            if used + w > 64 {
                (lane, used) = (lane + 1, 0);
            }
            place.push((lane, used, u64::MAX >> (64 - w)));
            used += w;
        }
        let lanes = if hashes.is_empty() { 0 } else { lane + 1 };
        if lanes > BANK_LANES {
            return Err(ConfigError(format!("a hash bank holds at most {} output bits", 64 * BANK_LANES)));
        }
        let key_bytes = key_bits.div_ceil(8);
        let mut tables = vec![0u64; key_bytes * 256 * lanes];
        let mut constant = [0u64; BANK_LANES];
        for (h, &(l, sh, _)) in hashes.iter().zip(&place) {
            constant[l] |= h.constant << sh;
            for (j, t) in h.tables.iter().enumerate() {
                for (b, v) in t.iter().enumerate() {
                    tables[(j * 256 + b) * lanes + l] |= v << sh;
                }
            }
        }
        Ok(HashBank { hashes, place, lanes, constant, tables, key_mask: mask128(key_bits) })
    }

    /// Every unit's hash of `key` at once; read unit `i` with [`HashBank::get`].
    #[inline]
    pub fn eval(&self, key: u128) -> [u64; BANK_LANES] {
        self.eval_with(key, |v| {
            let mut out = [0u64; BANK_LANES];
            out[..v.len()].copy_from_slice(v);
            out
        })
    }

    /// `f` of every unit's hash of `key` (the bank's lanes, read with [`HashBank::get`] or
    /// [`HashBank::get32`]). The fast form of [`HashBank::eval`] for a caller that reduces the value at once
    /// (e.g. to row indices): `f` is compiled once per lane count, so the lanes stay in registers and
    /// indexing them needs no bounds checks.
    #[inline(always)]
    pub fn eval_with<R>(&self, key: u128, f: impl FnOnce(&[u64]) -> R) -> R {
        match self.lanes {
            1 => f(&self.eval_lanes::<1>(key)),
            2 => f(&self.eval_lanes::<2>(key)),
            3 => f(&self.eval_lanes::<3>(key)),
            4 => f(&self.eval_lanes::<4>(key)),
            5 => f(&self.eval_lanes::<5>(key)),
            _ => f(&[]),
        }
    }

    /// The `L` lanes of every unit's hash of `key` (`L` = the bank's lanes).
    #[inline(always)]
    fn eval_lanes<const L: usize>(&self, key: u128) -> [u64; L] {
        // The tables as one `[[u64; L]; 256]` per key byte: a byte indexes its table without a bounds check.
        let (rows, _) = self.tables.as_chunks::<L>();
        let (tables, _) = rows.as_chunks::<256>();
        let bytes = (key & self.key_mask).to_le_bytes();
        let mut acc = [0u64; L];
        acc.copy_from_slice(&self.constant[..L]);
        let mut pass = |tables: &[[[u64; L]; 256]]| {
            for (table, &b) in tables.iter().zip(&bytes) {
                let row = &table[b as usize];
                for l in 0..L {
                    acc[l] ^= row[l];
                }
            }
        };
        // The 104-bit flow key (IFPD, reordering) and the 128-bit packet key (MAPLE): 13 or 16 tables as a
        // constant count, so the pass unrolls.
        if let Ok(t13) = <&[_; 13]>::try_from(tables) {
            pass(t13)
        } else if let Ok(t16) = <&[_; 16]>::try_from(tables) {
            pass(t16)
        } else {
            pass(tables)
        }
        acc
    }

    /// Unit `i`'s value in an [`HashBank::eval`] (or [`HashBank::eval_with`]) result.
    #[inline]
    pub fn get(&self, v: &[u64], i: usize) -> u64 {
        let (l, sh, mask) = self.place[i];
        (v[l] >> sh) & mask
    }

    /// Unit `i`'s value when units `0..=i` are all 32 bits wide: [`HashBank::new`] packs them two to a lane,
    /// unit `i` in lane `i / 2`, low half first — the same value as [`HashBank::get`] without looking up its
    /// place.
    #[inline(always)]
    pub fn get32(v: &[u64], i: usize) -> u64 {
        (v[i / 2] >> (32 * (i % 2))) & 0xFFFF_FFFF
    }
}

/// A slot in `0..n` from a 32-bit hash value: `⌊h·n / 2^32⌋` (for `n = 2^a` the top `a` bits of `h`; any `n` up
/// to 2^32 in the golden model, so memory budgets can be met exactly). The low 32 bits of `h` are used.
#[inline]
pub fn reduce32(h: u64, n: usize) -> usize {
    (((h & 0xFFFF_FFFF) * n as u64) >> 32) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECK_KEY: u128 = 0x31_32_33_34_35_36_37_38_39; // "123456789", 72 bits

    #[test]
    fn reference_crcs_match_catalogue_check_values() {
        for spec in [CRC16_UMTS, CRC16_EN13757, CRC32_MPEG2] {
            assert_eq!(spec.compute(b"123456789"), spec.check, "{}", spec.name);
        }
    }

    #[test]
    fn mask_form_matches_catalogue_check_values() {
        for (kind, spec) in [
            (HashKind::Crc16Umts, CRC16_UMTS),
            (HashKind::Crc16En13757, CRC16_EN13757),
            (HashKind::Crc32Mpeg2, CRC32_MPEG2),
        ] {
            let h = XorHash::new(kind, 72).unwrap();
            assert_eq!(h.eval(CHECK_KEY), spec.check, "{}", spec.name);
        }
    }

    #[test]
    fn mask_form_equals_bitserial_crc_on_random_keys() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for key_bits in [8, 32, 104, 128] {
            for (kind, spec) in [
                (HashKind::Crc16Umts, CRC16_UMTS),
                (HashKind::Crc16En13757, CRC16_EN13757),
                (HashKind::Crc32Mpeg2, CRC32_MPEG2),
            ] {
                let h = XorHash::new(kind, key_bits).unwrap();
                for _ in 0..2000 {
                    let key: u128 = rng.gen::<u128>() & mask128(key_bits);
                    assert_eq!(h.eval(key), spec.compute(&key_bytes(key, key_bits)));
                }
            }
        }
    }

    /// A slice is the shifted, masked full hash (CRC constants included), e.g. the top `a` bits of a 32-bit
    /// H3 are `⌊h·2^a / 2^32⌋`, the IFPD row index.
    #[test]
    fn slice_is_the_shifted_hash() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for kind in [HashKind::Crc32Mpeg2, HashKind::H3Seeded { out_bits: 32, seed: 3 }] {
            let h = XorHash::new(kind, 104).unwrap();
            for (lo, bits) in [(0, 32), (28, 4), (20, 12), (5, 9)] {
                let s = h.slice(lo, bits).unwrap();
                for _ in 0..500 {
                    let key: u128 = rng.gen();
                    assert_eq!(s.eval(key), (h.eval(key) >> lo) & ((1 << bits) - 1));
                    assert_eq!(s.eval(key), s.eval_masks(key));
                }
            }
            assert_eq!(h.slice(28, 4).unwrap().eval(77), crate::ifpd::IfpdConfig::reduce(h.eval(77), 16) as u64);
            assert!(h.slice(30, 3).is_err());
        }
    }

    #[test]
    fn table_form_equals_mask_form() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for key_bits in [8, 72, 104, 128] {
            for kind in
                [HashKind::Crc16Umts, HashKind::Crc16En13757, HashKind::Crc32Mpeg2, HashKind::H3 { out_bits: 32 }]
            {
                let h = XorHash::new(kind, key_bits).unwrap();
                let t = h.truncated(11).unwrap();
                for _ in 0..2000 {
                    let key: u128 = rng.gen();
                    assert_eq!(h.eval(key), h.eval_masks(key));
                    assert_eq!(t.eval(key), t.eval_masks(key));
                    assert_eq!(t.eval(key), h.eval(key) & 0x7ff);
                }
            }
        }
    }

    #[test]
    fn h3_is_linear_and_spreads_bits() {
        let h = XorHash::new(HashKind::H3 { out_bits: 32 }, 104).unwrap();
        assert_eq!(h.eval(0), 0);
        let (a, b) = (0x1234_5678_9abc_def0_1122_3344_55u128, 0x0f0f_f0f0_1234_4321_aaaa_5555_66u128);
        assert_eq!(h.eval(a ^ b), h.eval(a) ^ h.eval(b));
        // Every output bit depends on roughly half the key bits.
        for m in &h.masks {
            let ones = m.count_ones();
            assert!((30..=74).contains(&ones), "mask weight {ones}");
        }
    }

    #[test]
    fn seeded_h3_is_h3_at_seed_0_and_independent_otherwise() {
        let h = XorHash::new(HashKind::H3 { out_bits: 32 }, 104).unwrap();
        let s0 = XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: 0 }, 104).unwrap();
        let s1 = XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: 1 }, 104).unwrap();
        assert_eq!(h.masks, s0.masks);
        assert_ne!(s0.masks, s1.masks);
        assert_eq!(s1.kind.name(), "H3/32#1");
        // Different matrices disagree on about half the bits of a random key.
        let key = 0x1234_5678_9abc_def0_1122_3344_55u128;
        let d = (s0.eval(key) ^ s1.eval(key)).count_ones();
        assert!((4..=28).contains(&d), "{d}");
    }

    #[test]
    fn bank_equals_each_unit() {
        use rand::{Rng, SeedableRng};
        let mut hashes: Vec<XorHash> =
            (1..=8).map(|s| XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: s }, 104).unwrap()).collect();
        hashes.push(XorHash::new(HashKind::Crc32Mpeg2, 104).unwrap().truncated(16).unwrap());
        let bank = HashBank::new(hashes.clone()).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        for _ in 0..2000 {
            let key: u128 = rng.gen();
            let v = bank.eval(key);
            for (i, h) in hashes.iter().enumerate() {
                assert_eq!(bank.get(&v, i), h.eval_masks(key), "unit {i}");
                let w = bank.eval_with(key, |w| (w.to_vec(), bank.get(w, i)));
                assert_eq!((&w.0[..], w.1), (&v[..w.0.len()], bank.get(&v, i)), "unit {i}");
                if h.out_bits() == 32 {
                    assert_eq!(HashBank::get32(&v, i), bank.get(&v, i), "unit {i}");
                }
            }
        }
        let too_many = (0..11).map(|s| XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: s }, 104).unwrap());
        assert!(HashBank::new(too_many.collect()).is_err());
    }

    #[test]
    fn bad_widths_are_errors_not_panics() {
        assert!(XorHash::new(HashKind::Crc32Mpeg2, 0).is_err());
        assert!(XorHash::new(HashKind::Crc32Mpeg2, 129).is_err());
        assert!(XorHash::new(HashKind::Crc16Umts, 12).is_err());
        assert!(XorHash::new(HashKind::H3 { out_bits: 65 }, 64).is_err());
    }
}
