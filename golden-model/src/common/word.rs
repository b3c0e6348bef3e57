//! Words of the shared storage blocks' models (RAM words, RMW payloads, FIFO entries).
//!
//! The RTL blocks carry `Bits<W>` of any width; their models carry a [`Word`]: `u128` for words up to 128
//! bits, `[u32; N]` (little-endian 32-bit limbs, as the co-simulation bindings pass ports wider than 128
//! bits) for wider ones, or a core's own structured type. A block truncates what is written to its width
//! with [`Word::masked`], as the hardware does.

use std::fmt::Debug;

/// A value a shared block's model stores or carries.
pub trait Word: Copy + Default + PartialEq + Debug {
    /// The value truncated to its low `bits` bits.
    fn masked(self, bits: usize) -> Self;
}

impl Word for u128 {
    fn masked(self, bits: usize) -> u128 {
        self & super::mask128(bits)
    }
}

/// Limb arrays of the widths the cores use (`Default` exists for fixed array lengths only).
macro_rules! limb_words {
    ($($n:literal)*) => {$(
        impl Word for [u32; $n] {
            fn masked(mut self, bits: usize) -> [u32; $n] {
                for (k, limb) in self.iter_mut().enumerate() {
                    *limb &= match bits.saturating_sub(32 * k) {
                        0 => 0,
                        b if b >= 32 => u32::MAX,
                        b => (1u32 << b) - 1,
                    };
                }
                self
            }
        }
    )*};
}
limb_words!(5 6 7 8);

/// Little-endian 32-bit limbs of a bit string given as `(value, width)` fields, low field first — the way a
/// core packs a record wider than 128 bits for its `[u32; N]` port.
pub fn pack_limbs<const N: usize>(fields: &[(u128, usize)]) -> [u32; N] {
    let mut out = [0u32; N];
    let mut at = 0usize;
    for &(value, width) in fields {
        let value = value & super::mask128(width);
        for b in 0..width {
            if (value >> b) & 1 == 1 {
                out[(at + b) / 32] |= 1 << ((at + b) % 32);
            }
        }
        at += width;
    }
    assert!(at <= 32 * N, "pack_limbs: {at} bits do not fit {N} limbs");
    out
}

/// The `width`-bit field at bit `at` of little-endian limbs (the inverse of [`pack_limbs`]).
pub fn limb_field(limbs: &[u32], at: usize, width: usize) -> u128 {
    (0..width).fold(0u128, |v, b| v | (((limbs[(at + b) / 32] >> ((at + b) % 32)) & 1) as u128) << b)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn limbs_round_trip_and_mask() {
        let w: [u32; 6] = pack_limbs(&[(0xABC, 12), (u128::MAX, 128), (0x5, 3), (0x1234_5678, 32)]);
        assert_eq!(limb_field(&w, 0, 12), 0xABC);
        assert_eq!(limb_field(&w, 12, 128), u128::MAX);
        assert_eq!(limb_field(&w, 140, 3), 5);
        assert_eq!(limb_field(&w, 143, 32), 0x1234_5678);
        assert_eq!(w.masked(143), pack_limbs(&[(0xABC, 12), (u128::MAX, 128), (0x5, 3)]));
        assert_eq!(0xFFu128.masked(4), 0xF);
    }
}
