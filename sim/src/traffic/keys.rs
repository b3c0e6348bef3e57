//! Key streams for counter-based heavy-hitter cores: distinct random keys of a given width, i.i.d. Zipf(α)
//! streams, the setting of the RAP theorem (dissertation ch. 4, defense slides "Our result") in several
//! arrival orders, and TCP flows of a capture by 5-tuple.
//!
//! Everything is deterministic for a seed (the module's own SplitMix64, no platform- or version-dependent
//! RNG). Keys are `u128` values already masked to the requested key width, so every consumer (golden
//! model, RTL, ground truth) sees the same keys.

use super::packet::{for_each_segment, Decoder};
use golden::parser::descriptors::flow_key;
use super::rng::{mix64, SplitMix64};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The low `bits` bits set (`bits` in 1..=128).
pub fn key_mask(bits: usize) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// `n` distinct keys of `key_bits` bits (1..=128), random-looking and deterministic from `seed`.
///
/// For `key_bits ≥ 64` the low 64 bits are SplitMix64's output function (a bijection) of `a + i` for a
/// random `a`, so the keys are distinct by construction; the bits above are random. Narrower keys are drawn
/// by rejection (or as a shuffled prefix of the whole key space when `n` is more than a quarter of it); an
/// error if the key space holds fewer than `n` keys.
pub fn distinct_keys(seed: u64, n: usize, key_bits: usize) -> Result<Vec<u128>, String> {
    if !(1..=128).contains(&key_bits) {
        return Err(format!("key width {key_bits} bits: must be in 1..=128"));
    }
    let mut rng = SplitMix64::new(mix64(seed ^ 0x4B45_5953));
    if key_bits >= 64 {
        let a = rng.next_u64();
        let hi_mask = key_mask(key_bits) >> 64;
        return Ok((0..n as u64)
            .map(|i| {
                let hi = (((rng.next_u64() as u128) << 64) | rng.next_u64() as u128) & hi_mask;
                (hi << 64) | mix64(a.wrapping_add(i)) as u128
            })
            .collect());
    }
    let space = 1u64 << key_bits;
    if n as u64 > space {
        return Err(format!("{n} distinct keys do not fit in {key_bits}-bit keys ({space} values)"));
    }
    if (n as u64) * 4 >= space {
        // Partial Fisher–Yates over the whole (small) key space.
        let mut all: Vec<u128> = (0..space as u128).collect();
        for i in 0..n {
            let j = i + rng.below((all.len() - i) as u64) as usize;
            all.swap(i, j);
        }
        all.truncate(n);
        return Ok(all);
    }
    let mut seen = HashSet::with_capacity(2 * n);
    let mut keys = Vec::with_capacity(n);
    while keys.len() < n {
        let k = rng.below(space) as u128;
        if seen.insert(k) {
            keys.push(k);
        }
    }
    Ok(keys)
}

/// Fisher–Yates shuffle with the module's RNG.
fn shuffle<T>(v: &mut [T], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

// ---------------------------------------------------------------------------------------------------
// Zipf

/// An i.i.d. Zipf(α) stream: `packets` draws over `distinct` keys, key of rank `r` (1-based) with
/// probability ∝ `r^−α`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZipfParams {
    pub alpha: f64,
    pub distinct: usize,
    pub packets: usize,
    pub key_bits: usize,
}

/// Most distinct keys of a Zipf stream (the inverse-CDF table holds one `f64` per key).
pub const ZIPF_MAX_DISTINCT: usize = 1 << 26;

/// The keys of a Zipf stream by rank (`keys[0]` is the most likely) and the stream itself. Each draw
/// inverts the CDF by binary search over the cumulative weights.
pub fn zipf(p: ZipfParams, seed: u64) -> Result<(Vec<u128>, Vec<u128>), String> {
    if !(p.alpha >= 0.0 && p.alpha.is_finite()) {
        return Err(format!("--alpha {}: must be a finite number ≥ 0", p.alpha));
    }
    if !(1..=ZIPF_MAX_DISTINCT).contains(&p.distinct) {
        return Err(format!("--distinct {}: must be in 1..={ZIPF_MAX_DISTINCT}", p.distinct));
    }
    let keys = distinct_keys(seed, p.distinct, p.key_bits)?;
    let mut cum = Vec::with_capacity(p.distinct);
    let mut s = 0.0;
    for r in 1..=p.distinct {
        s += (r as f64).powf(-p.alpha);
        cum.push(s);
    }
    let mut rng = SplitMix64::new(mix64(seed ^ 0x5A49_5046));
    let stream = (0..p.packets)
        .map(|_| {
            let u = rng.next_f64() * s;
            keys[cum.partition_point(|&c| c <= u).min(p.distinct - 1)]
        })
        .collect();
    Ok((keys, stream))
}

// ---------------------------------------------------------------------------------------------------
// The RAP theorem's setting

/// Arrival order of the theorem's stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// A uniform shuffle of all occurrences.
    Random,
    /// Each heavy element's occurrences consecutive (one block), the k blocks at random positions among the
    /// lights (blocks and lights shuffled as units).
    Bunched,
    /// Heavy occurrences round-robin (rounds of the k heavies in one fixed random order), the lights spread
    /// evenly between them.
    Spread,
    /// All lights first, then the heavy occurrences uniformly shuffled.
    LightFirst,
    /// Heavy occurrences round-robin, then all lights at the end of the stream.
    ///
    /// Why this is hard for RAP: (1) round-robin gives every stored heavy the same count at the end (≈ f),
    /// so no heavy is far above the minimum and every one is an eviction candidate; (2) a light arriving
    /// when the minimum count is `c` evicts the minimum's key with probability 1/(c + 1), so evicting one
    /// key costs about `c + 1` lights; an evicted heavy with `r` occurrences still to come gets back (into
    /// a bucket whose count is ≈ c) with probability ≈ 1 − e^(−r/(c+2)). With c = u·f the permanent loss
    /// per light is ≈ e^(−(1−u)/u)/(u·f), which increases with u (its log has derivative (1 − u)/u² ≥ 0):
    /// the lights do the most damage when the heavies are complete and cannot recover, i.e. at the end.
    /// There every admission (cost ≈ f + 1 lights) replaces a heavy at count f by a light at f + 1, and the
    /// next minimum is again a heavy, so about ε·k·f/(f + 1) ≈ ε·k heavies are lost for good: the stored
    /// fraction is ≈ 1 − ε, against far less loss for the same lights interleaved earlier.
    Adversarial,
}

impl Order {
    pub const ALL: [Order; 5] = [Order::Random, Order::Bunched, Order::Spread, Order::LightFirst, Order::Adversarial];
    pub fn name(self) -> &'static str {
        match self {
            Order::Random => "random",
            Order::Bunched => "bunched",
            Order::Spread => "spread",
            Order::LightFirst => "light-first",
            Order::Adversarial => "adversarial",
        }
    }
    pub fn by_name(s: &str) -> Option<Order> {
        Order::ALL.into_iter().find(|o| o.name() == s)
    }
}

/// The theorem's setting: `k` heavy elements of frequency `f` and ε·k·f distinct light elements, each once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TheoremParams {
    pub k: usize,
    pub f: u64,
    pub epsilon: f64,
    /// Heavy frequencies drawn uniformly from the integers in [⌈f/2⌉, ⌊3f/2⌋] instead of all equal to `f`
    /// (the light budget stays round(ε·k·f)).
    pub unequal: bool,
    pub key_bits: usize,
}

/// Most occurrences in one theorem stream.
pub const THEOREM_MAX_PACKETS: u64 = 1 << 30;

impl TheoremParams {
    /// Light elements: round(ε·k·f).
    pub fn lights(&self) -> usize {
        (self.epsilon * self.k as f64 * self.f as f64).round() as usize
    }
    pub fn check(&self) -> Result<(), String> {
        if self.k == 0 {
            return Err("--k 0: need at least one heavy element".into());
        }
        if self.f == 0 {
            return Err("--f 0: heavy elements need a frequency ≥ 1".into());
        }
        if !(self.epsilon >= 0.0 && self.epsilon.is_finite()) {
            return Err(format!("--epsilon {}: must be a finite number ≥ 0", self.epsilon));
        }
        let heavy = (self.k as u64).saturating_mul(self.f.saturating_mul(3) / 2 + 1);
        if heavy.saturating_add(self.lights() as u64) > THEOREM_MAX_PACKETS {
            return Err(format!(
                "k = {}, f = {}, ε = {}: a stream of more than {THEOREM_MAX_PACKETS} packets",
                self.k, self.f, self.epsilon
            ));
        }
        Ok(())
    }
}

/// One stream of the theorem's setting.
#[derive(Debug, Clone, PartialEq)]
pub struct TheoremStream {
    /// The packets' keys in arrival order.
    pub keys: Vec<u128>,
    /// The k heavy keys.
    pub heavy: Vec<u128>,
    /// Their frequencies (all `f` unless `unequal`).
    pub freq: Vec<u64>,
    /// Number of light elements (each appears once).
    pub lights: usize,
}

/// The stream of `p` in order `order` for `seed`.
pub fn theorem_stream(p: &TheoremParams, order: Order, seed: u64) -> Result<TheoremStream, String> {
    p.check()?;
    let lights = p.lights();
    let all = distinct_keys(seed, p.k + lights, p.key_bits)?;
    let (heavy, light) = all.split_at(p.k);
    let mut rng = SplitMix64::new(mix64(seed ^ 0x4845_4156));
    let freq: Vec<u64> = if p.unequal {
        let (lo, hi) = (p.f.div_ceil(2).max(1), (3 * p.f / 2).max(1));
        (0..p.k).map(|_| lo + rng.below(hi - lo + 1)).collect()
    } else {
        vec![p.f; p.k]
    };
    let total_heavy: u64 = freq.iter().sum();
    let mut keys = Vec::with_capacity(total_heavy as usize + lights);
    // Heavy occurrences round-robin: rounds over the heavies in one random order, each while it has some left.
    let round_robin = |rng: &mut SplitMix64| {
        let mut perm: Vec<usize> = (0..p.k).collect();
        shuffle(&mut perm, rng);
        let rounds = freq.iter().copied().max().unwrap_or(0);
        let mut v = Vec::with_capacity(total_heavy as usize);
        for r in 0..rounds {
            v.extend(perm.iter().filter(|&&i| freq[i] > r).map(|&i| heavy[i]));
        }
        v
    };
    match order {
        Order::Random => {
            heavy.iter().zip(&freq).for_each(|(&h, &n)| keys.extend(std::iter::repeat_n(h, n as usize)));
            keys.extend_from_slice(light);
            shuffle(&mut keys, &mut rng);
        }
        Order::Bunched => {
            // Units: a heavy block (index < k) or a light (index ≥ k).
            let mut units: Vec<usize> = (0..p.k + lights).collect();
            shuffle(&mut units, &mut rng);
            for u in units {
                if u < p.k {
                    keys.extend(std::iter::repeat_n(heavy[u], freq[u] as usize));
                } else {
                    keys.push(light[u - p.k]);
                }
            }
        }
        Order::Spread => {
            let hs = round_robin(&mut rng);
            let total = hs.len() + lights;
            let (mut h, mut l) = (0, 0);
            for pos in 0..total {
                // Light number l goes where ⌊(pos + 1)·L / total⌋ first exceeds l: evenly spaced.
                if l < lights && ((pos + 1) as u128 * lights as u128 / total as u128) as usize > l {
                    keys.push(light[l]);
                    l += 1;
                } else {
                    keys.push(hs[h]);
                    h += 1;
                }
            }
        }
        Order::LightFirst => {
            keys.extend_from_slice(light);
            let start = keys.len();
            heavy.iter().zip(&freq).for_each(|(&h, &n)| keys.extend(std::iter::repeat_n(h, n as usize)));
            shuffle(&mut keys[start..], &mut rng);
        }
        Order::Adversarial => {
            keys = round_robin(&mut rng);
            keys.extend_from_slice(light);
        }
    }
    Ok(TheoremStream { keys, heavy: heavy.to_vec(), freq, lights })
}

// ---------------------------------------------------------------------------------------------------
// Flows of a capture

/// What reading a capture's flows found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlowStats {
    pub frames: u64,
    /// TCP segments (the packets of the key stream).
    pub tcp: u64,
    /// Frames that are not usable TCP (skipped).
    pub skipped: u64,
    /// Distinct 5-tuples.
    pub flows: usize,
}

/// The 104-bit 5-tuple key (golden's definition, shared with the hardware parser): `src | dst | sport |
/// dport | proto` from high to low bits (`src << 72 | dst << 40 | sport << 24 | dport << 8 | proto`); an
/// IPv6 pair is folded into the 64 address bits by SplitMix64's mixer. Both directions of a connection are
/// different flows.
pub use golden::parser::descriptors::five_tuple_key;

/// The key stream of a capture: one key per TCP segment (its 5-tuple, [`five_tuple_key`], masked to
/// `key_bits`), in file order (pcap or pcapng, plain or gzip-compressed).
pub fn capture_flow_keys(path: &Path, key_bits: usize, decoder: &Decoder) -> Result<(Vec<u128>, FlowStats), String> {
    let name = path.display();
    let (mask, mut stats, mut keys) = (key_mask(key_bits), FlowStats::default(), Vec::new());
    stats.frames = for_each_segment(path, decoder, |_, _, _, seg| match seg {
        Ok(seg) => {
            stats.tcp += 1;
            keys.push(flow_key(&seg) & mask);
        }
        Err(_) => stats.skipped += 1,
    })?;
    stats.flows = keys.iter().collect::<HashSet<_>>().len();
    if keys.is_empty() {
        return Err(format!("{name}: no TCP packets ({} frames, all skipped)", stats.frames));
    }
    Ok((keys, stats))
}

/// Exact count of every key of a stream.
pub fn true_counts(keys: &[u128]) -> HashMap<u128, u64> {
    let mut m = HashMap::new();
    for &k in keys {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::packet::Addrs;

    fn params(unequal: bool) -> TheoremParams {
        TheoremParams { k: 16, f: 40, epsilon: 0.25, unequal, key_bits: 104 }
    }

    #[test]
    fn theorem_stream_has_the_right_counts_in_every_order() {
        for unequal in [false, true] {
            let p = params(unequal);
            for order in Order::ALL {
                let s = theorem_stream(&p, order, 7).unwrap();
                let c = true_counts(&s.keys);
                assert_eq!(s.lights, 160, "ε·k·f = 0.25·16·40");
                for (h, &n) in s.heavy.iter().zip(&s.freq) {
                    assert_eq!(c[h], n, "{order:?}");
                    if unequal {
                        assert!((20..=60).contains(&n));
                    } else {
                        assert_eq!(n, 40);
                    }
                }
                assert_eq!(s.keys.len() as u64, s.freq.iter().sum::<u64>() + 160);
                let lights = c.iter().filter(|(k, _)| !s.heavy.contains(k)).collect::<Vec<_>>();
                assert_eq!(lights.len(), 160, "{order:?}: distinct lights");
                assert!(lights.iter().all(|(_, &n)| n == 1), "{order:?}: each light once");
                assert!(s.keys.iter().all(|&k| k >> 104 == 0), "masked to 104 bits");
            }
        }
        assert_eq!(params(false).lights(), 160);
    }

    #[test]
    fn orders_have_their_shape() {
        let p = params(false);
        let is_heavy = |s: &TheoremStream, k: u128| s.heavy.contains(&k);
        // Bunched: each heavy's occurrences form one run.
        let s = theorem_stream(&p, Order::Bunched, 3).unwrap();
        for h in &s.heavy {
            let first = s.keys.iter().position(|k| k == h).unwrap();
            assert!(s.keys[first..first + 40].iter().all(|k| k == h));
        }
        // Light-first: the 160 lights, then only heavies.
        let s = theorem_stream(&p, Order::LightFirst, 3).unwrap();
        assert!(s.keys[..160].iter().all(|&k| !is_heavy(&s, k)));
        assert!(s.keys[160..].iter().all(|&k| is_heavy(&s, k)));
        // Adversarial: round-robin heavies (period k), then the lights.
        let s = theorem_stream(&p, Order::Adversarial, 3).unwrap();
        let n = 16 * 40;
        assert!((16..n).all(|i| s.keys[i] == s.keys[i - 16]));
        assert!(s.keys[n..].iter().all(|&k| !is_heavy(&s, k)));
        // Spread: heavies round-robin, lights evenly spaced (gaps between lights differ by at most 1).
        let s = theorem_stream(&p, Order::Spread, 3).unwrap();
        let hs: Vec<u128> = s.keys.iter().copied().filter(|&k| is_heavy(&s, k)).collect();
        assert!((16..hs.len()).all(|i| hs[i] == hs[i - 16]));
        let pos: Vec<usize> = (0..s.keys.len()).filter(|&i| !is_heavy(&s, s.keys[i])).collect();
        let gaps: Vec<usize> = pos.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.iter().max().unwrap() - gaps.iter().min().unwrap() <= 1, "{gaps:?}");
        // Deterministic for a seed, different across seeds.
        assert_eq!(theorem_stream(&p, Order::Random, 5).unwrap(), theorem_stream(&p, Order::Random, 5).unwrap());
        assert_ne!(theorem_stream(&p, Order::Random, 5).unwrap(), theorem_stream(&p, Order::Random, 6).unwrap());
    }

    #[test]
    fn distinct_keys_are_distinct_and_narrow() {
        for bits in [3, 8, 20, 64, 104, 128] {
            let n = if bits == 3 { 8 } else { 200 };
            let k = distinct_keys(1, n, bits).unwrap();
            assert_eq!(k.iter().collect::<HashSet<_>>().len(), n, "{bits} bits");
            assert!(k.iter().all(|&x| x & !key_mask(bits) == 0));
        }
        assert!(distinct_keys(1, 9, 3).is_err());
    }

    #[test]
    fn zipf_is_skewed_by_rank() {
        let (keys, s) = zipf(ZipfParams { alpha: 1.0, distinct: 1000, packets: 200_000, key_bits: 104 }, 9).unwrap();
        let c = true_counts(&s);
        // P(rank 1) = 1/H_1000 ≈ 0.1336, P(rank 2) half of it.
        let p1 = c[&keys[0]] as f64 / 200_000.0;
        assert!((p1 - 0.1336).abs() < 0.005, "{p1}");
        let r = c[&keys[0]] as f64 / c[&keys[1]] as f64;
        assert!((r - 2.0).abs() < 0.1, "{r}");
        assert!(zipf(ZipfParams { alpha: -1.0, distinct: 10, packets: 1, key_bits: 8 }, 1).is_err());
    }

    #[test]
    fn five_tuple_layout() {
        let k = five_tuple_key(Addrs::V4 { src: [10, 0, 0, 1], dst: [10, 0, 0, 2] }, 1234, 80, 6);
        assert_eq!(k >> 72, 0x0A00_0001);
        assert_eq!((k >> 40) & 0xFFFF_FFFF, 0x0A00_0002);
        assert_eq!((k >> 24) & 0xFFFF, 1234);
        assert_eq!((k >> 8) & 0xFFFF, 80);
        assert_eq!(k & 0xFF, 6);
        assert!(k < 1 << 104);
    }
}
