//! "With probability 1/(c + 1)" without a divider: the admission threshold of a random draw.
//!
//! RAP admits a missing key into the minimum bucket (count `m`) with probability `1/(m + 1)`. With a 32-bit
//! uniform draw `r`, the exact rule is `(m + 1)·r < 2^32` (probability `ceil(2^32/(m+1)) / 2^32`, exact to
//! the PRNG's resolution). The hardware cannot afford a 33×32-bit multiply after the minimum search in the
//! one-cycle modify stage, but the rule is a *threshold on m that depends on r alone*:
//! `(m + 1)·r < 2^32  ⟺  m < T(r)`. So the core computes `T(r)` from the draw before the packet reaches the
//! modify stage (off the loop-carried path), and the modify stage only compares `m < T` — in parallel for
//! every row (`min < T ⟺ some row's count < T`).
//!
//! ## Reciprocal table ([`Admission::Reciprocal`], the RTL default)
//! Write `r = 2^p · (1 + f/2^F + δ)` with `p = floor(log2 r)`, `f` the `F` bits below the leading one and
//! `0 ≤ δ < 2^−F` the rest, and let `ũ = (2^F + f)·2^(p−F) ≤ r` be `r` truncated to its `F + 1` leading bits.
//! The table rule is `(m + 1)·ũ < 2^32`, and since `floor(floor(x)/2^p) = floor(x/2^p)`,
//! `(m + 1)·ũ < 2^32  ⟺  m < R[f] >> p` with `R[f] = floor((2^(32+F) − 1) / (2^F + f))` (a ROM of `2^F`
//! 32-bit words: F = 10 is one 1024×32 ROM, two DP16KD). Draws below `2^(F+1)` are not truncated, so for
//! them the rule is exact; `r = 0` always admits (`T = 2^32`).
//!
//! Error bound: `ũ ≤ r < ũ·(1 + 2^−F)`, so every draw the exact rule admits the table rule admits too, and
//! a draw the table admits satisfies `r < 2^32·(1 + 2^−F)/(m + 1)`. Hence
//! `P_exact(m) ≤ P_table(m) ≤ P_exact(m)·(1 + 2^−F) + 2^−32`: the admission probability is never lower and
//! at most 0.098 % higher (F = 10). [`tests`] checks the bound by counting, for many `m`, every draw the
//! table admits (all `2^32` draws, grouped by their `(p, f)` cell).
//!
//! ## Power of two ([`Admission::PowerOfTwo`], PRECISION's naive 2-approximation)
//! Admit with probability `2^−bitlen(m)`, i.e. iff the top `bitlen(m)` bits of `r` are zero:
//! `m < 2^clz(r)` — again a threshold of `r` alone. `1/(2(m+1)) < P ≤ 1/(m+1)`.
//!
//! ## Exact ([`Admission::Exact`], golden model only)
//! `(m + 1)·r < 2^32` with a 64-bit product, for experiments that compare the hardware rules with the ideal.

use serde::{Deserialize, Serialize};

/// Fraction bits `F` of the reciprocal table (`2^F` words).
pub const RECIP_FRAC_BITS: usize = 10;
/// Width of a threshold: `T(r)` ranges over `1..=2^32`.
pub const THRESHOLD_BITS: usize = 33;

/// How a miss decides to take the minimum bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Admission {
    /// Probability `1/(m+1)` through the reciprocal table (≤ 0.098 % above exact); CSR value 0.
    Reciprocal,
    /// Probability `2^−ceil(log2(m+1))` (PRECISION's power-of-two approximation); CSR value 1.
    PowerOfTwo,
    /// Exact `(m+1)·r < 2^32` (golden model only).
    Exact,
}

impl Admission {
    /// The rule a CSR value selects in hardware (bit 0; the exact rule has no CSR value).
    pub fn from_csr(v: u32) -> Admission {
        if v & 1 == 1 {
            Admission::PowerOfTwo
        } else {
            Admission::Reciprocal
        }
    }
    /// The CSR value of a hardware rule (`None` for the golden-only exact rule).
    pub fn csr(self) -> Option<u32> {
        match self {
            Admission::Reciprocal => Some(0),
            Admission::PowerOfTwo => Some(1),
            Admission::Exact => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Admission::Reciprocal => "reciprocal",
            Admission::PowerOfTwo => "pow2",
            Admission::Exact => "exact",
        }
    }
    /// The threshold `T(r)`: a miss whose minimum count is `m` is admitted iff `m < T(r)`.
    pub fn threshold(self, r: u32) -> u64 {
        match self {
            Admission::Reciprocal => reciprocal_threshold(r),
            Admission::PowerOfTwo => 1u64 << r.leading_zeros(),
            Admission::Exact => exact_threshold(r),
        }
    }
    /// Whether a miss with minimum count `m` is admitted by draw `r`.
    pub fn admits(self, r: u32, m: u64) -> bool {
        m < self.threshold(r)
    }
}

/// Word `f` of the reciprocal ROM: `floor((2^(32+F) − 1) / (2^F + f))`.
pub const fn recip_rom_word(f: usize) -> u64 {
    ((1u64 << (32 + RECIP_FRAC_BITS)) - 1) / ((1u64 << RECIP_FRAC_BITS) + f as u64)
}

/// The whole reciprocal ROM (`2^F` words, address `f`).
pub fn recip_rom() -> Vec<u64> {
    RECIP_ROM.to_vec()
}

/// The ROM as a table built at compile time (the model looks words up rather than dividing per packet).
static RECIP_ROM: [u64; 1 << RECIP_FRAC_BITS] = {
    let mut t = [0; 1 << RECIP_FRAC_BITS];
    let mut f = 0;
    while f < t.len() {
        t[f] = recip_rom_word(f);
        f += 1;
    }
    t
};

/// `(p, f)` of a nonzero draw: the position of its leading one and the `F` bits below it (zero-padded
/// when fewer than `F` bits are below).
pub const fn recip_cell(r: u32) -> (u32, usize) {
    let p = 31 - r.leading_zeros();
    let below = r as u64 & ((1u64 << p) - 1);
    let f = if p as usize >= RECIP_FRAC_BITS {
        below >> (p as usize - RECIP_FRAC_BITS)
    } else {
        below << (RECIP_FRAC_BITS - p as usize)
    };
    (p, f as usize)
}

/// The reciprocal-table threshold `R[f] >> p` (`2^32` for `r = 0`).
pub fn reciprocal_threshold(r: u32) -> u64 {
    if r == 0 {
        return 1 << 32;
    }
    let (p, f) = recip_cell(r);
    RECIP_ROM[f] >> p
}

/// The exact threshold: the number of counts `m` with `(m + 1)·r < 2^32`.
pub const fn exact_threshold(r: u32) -> u64 {
    if r == 0 {
        1 << 32
    } else {
        // m + 1 ≤ floor((2^32 − 1)/r)
        ((1u64 << 32) - 1) / r as u64
    }
}

/// Probability that a rule admits a miss with minimum count `m`, over all `2^32` draws (computed by
/// counting draws cell by cell, not sampled).
pub fn admit_probability(rule: Admission, m: u64) -> f64 {
    let total = 2f64.powi(32);
    let count: u64 = match rule {
        Admission::Exact => (((1u64 << 32) + m) / (m + 1)).min(1 << 32), // ceil(2^32/(m+1))
        Admission::PowerOfTwo => {
            let bitlen = 64 - m.leading_zeros();
            1u64 << (32 - bitlen.min(32))
        }
        Admission::Reciprocal => {
            // r = 0, the untruncated draws r < 2^(F+1), then every (p, f) cell of 2^(p−F) draws.
            let mut n = 1u64;
            for r in 1..(1u32 << (RECIP_FRAC_BITS + 1)) {
                n += (m < reciprocal_threshold(r)) as u64;
            }
            for p in (RECIP_FRAC_BITS + 1)..32 {
                for f in 0..1usize << RECIP_FRAC_BITS {
                    if m < recip_rom_word(f) >> p {
                        n += 1 << (p - RECIP_FRAC_BITS);
                    }
                }
            }
            n
        }
    };
    count as f64 / total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts the bound is checked at: all small ones, then a log-spaced sweep to the 32-bit maximum.
    fn counts() -> Vec<u64> {
        let mut v: Vec<u64> = (0..300).collect();
        let mut m = 300f64;
        while m < 4.3e9 {
            v.push(m as u64);
            v.push(m as u64 + 1);
            m *= 1.37;
        }
        v.push(u32::MAX as u64);
        v
    }

    #[test]
    fn reciprocal_table_is_within_its_proven_bound() {
        let eps = 2f64.powi(-(RECIP_FRAC_BITS as i32));
        let mut worst = 0f64;
        for m in counts() {
            let exact = admit_probability(Admission::Exact, m);
            let table = admit_probability(Admission::Reciprocal, m);
            assert!(table >= exact, "m = {m}: table {table} below exact {exact}");
            assert!(table <= exact * (1.0 + eps) + 2f64.powi(-32), "m = {m}: table {table} vs exact {exact}");
            worst = worst.max(table / exact - 1.0);
        }
        // The bound is not loose by orders of magnitude: some count comes within a factor 4 of it.
        assert!(worst > eps / 4.0, "worst relative excess {worst}");
    }

    #[test]
    fn exact_rule_is_the_product_rule() {
        let mut x = 0x1234_5678u32;
        for _ in 0..100_000 {
            x = crate::common::prng::xorshift32(x);
            let m = (x.rotate_left(7) >> (x % 32)) as u64;
            assert_eq!(Admission::Exact.admits(x, m), (m + 1) * (x as u64) < (1u64 << 32), "r {x} m {m}");
        }
        assert!(Admission::Exact.admits(0, u32::MAX as u64));
    }

    #[test]
    fn power_of_two_is_a_two_approximation() {
        for m in counts() {
            let p = admit_probability(Admission::PowerOfTwo, m);
            let want = 1.0 / (m as f64 + 1.0);
            assert!(p <= want * (1.0 + 1e-12) && p > want / 2.0 - 1e-12, "m = {m}: {p} vs {want}");
        }
    }

    #[test]
    fn untruncated_draws_are_exact_and_empty_buckets_always_admit() {
        for r in 0..(1u32 << (RECIP_FRAC_BITS + 1)) {
            assert_eq!(reciprocal_threshold(r), exact_threshold(r), "r = {r}");
        }
        for r in [0, 1, 2, 1 << 20, u32::MAX - 1, u32::MAX] {
            for rule in [Admission::Reciprocal, Admission::PowerOfTwo, Admission::Exact] {
                assert!(rule.admits(r, 0), "{rule:?} must admit into an empty bucket (r = {r})");
            }
        }
        assert!(recip_rom().iter().all(|&w| w < 1 << 32), "ROM words fit 32 bits");
    }
}
