//! Preimages of the shared hash units' hashes: a key whose hash has given low bits. The hashes are affine
//! over GF(2) (`masks · key ⊕ constant`), so one Gaussian elimination solves them. Directed traffic uses
//! this for the keys random traffic practically never draws: a signature or fingerprint of 0, a given
//! table index.

use super::hash::XorHash;
use super::mask128;

impl XorHash {
    /// A key whose `bits` low hash bits equal `target`'s, the key bits the equations leave free taken from
    /// `fill` (so different fills give different keys); `None` when no key has them. The hash is affine
    /// over GF(2), so this is one Gaussian elimination: directed traffic uses it for the keys random traffic
    /// practically never draws (a signature or fingerprint of 0, a given table index).
    pub fn preimage(&self, target: u64, bits: usize, fill: u128) -> Option<u128> {
        // Reduced row echelon form of `masks[i] · key = target_i ^ constant_i`, one pivot key bit per row.
        let mut rows: Vec<(u32, u128, bool)> = Vec::new();
        for (i, &m) in self.masks.iter().enumerate().take(bits) {
            let (mut m, mut r) = (m & mask128(self.key_bits), ((target ^ self.constant) >> i) & 1 == 1);
            for &(p, pm, pr) in &rows {
                if (m >> p) & 1 == 1 {
                    m ^= pm;
                    r ^= pr;
                }
            }
            if m == 0 {
                if r {
                    return None;
                }
                continue;
            }
            let p = m.trailing_zeros();
            for row in rows.iter_mut() {
                if (row.1 >> p) & 1 == 1 {
                    row.1 ^= m;
                    row.2 ^= r;
                }
            }
            rows.push((p, m, r));
        }
        // Free bits from `fill`, each pivot bit then fixed by its row (which holds no other pivot).
        let pivots: u128 = rows.iter().fold(0, |a, (p, _, _)| a | (1u128 << p));
        let free = fill & mask128(self.key_bits) & !pivots;
        Some(rows.iter().fold(free, |key, &(p, m, r)| {
            let others = (m & free).count_ones() & 1 == 1;
            key | (((r ^ others) as u128) << p)
        }))
    }
}

#[cfg(test)]
mod tests {
    use crate::common::hash::{HashKind, XorHash};

    #[test]
    fn preimage_hits_its_target_for_every_kind_and_fill() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for kind in [HashKind::Crc16Umts, HashKind::Crc16En13757, HashKind::Crc32Mpeg2, HashKind::H3 { out_bits: 24 }] {
            for key_bits in [104, 128] {
                let h = XorHash::new(kind, key_bits).unwrap();
                for bits in [12, 16, h.masks.len()] {
                    for _ in 0..50 {
                        let target = next() & ((1u64 << bits) - 1);
                        let fill = (next() as u128) << 64 | next() as u128;
                        let key = h.preimage(target, bits, fill).expect("a 104/128-bit key reaches every hash");
                        assert_eq!(key.checked_shr(key_bits as u32).unwrap_or(0), 0);
                        assert_eq!(h.eval(key) & ((1u64 << bits) - 1), target, "{kind:?} {key_bits} {bits}");
                        assert_ne!(h.preimage(target, bits, !fill), Some(key), "the fill picks the key");
                    }
                }
            }
        }
    }
}
