//! A tiny, fully specified PRNG (SplitMix64) for the traffic generators, so a seed gives the same trace on
//! every platform and every version of every dependency (rand's `SmallRng`/`StdRng` do not promise that).

/// SplitMix64 (Steele, Lea, Flood 2014): 64-bit state, passes BigCrush; plenty for traffic generation.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64 {
    state: u64,
}

/// The SplitMix64 output function (a bijection on u64), also used as a mixer elsewhere (golden's, which
/// the flow keys' IPv6 fold uses too).
pub(crate) use golden::common::hash::mix64;

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.state)
    }

    /// Uniform in [0, 1) with 53 random bits.
    pub(crate) fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [0, n) (Lemire's multiply-shift; the tiny bias for huge n is irrelevant here).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // Reference output of SplitMix64 seeded with 0 (from the original paper's C code).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn unit_interval_and_below() {
        let mut r = SplitMix64::new(42);
        for _ in 0..10_000 {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            assert!(r.below(7) < 7);
        }
    }
}
