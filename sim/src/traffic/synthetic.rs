//! Synthetic traces of the fridge paper's evaluation (§2.4, "Synthetic trace") and a wide-range variant.
//!
//! **Paper trace** ([`synthetic`], [`SyntheticParams::paper`]): requests arrive at a constant rate
//! (1 M/s); a random subset (40 %) is answered; each answer's delay is drawn log-uniform between
//! `min_delay_ns` and `max_delay_ms` (the paper says "(0, T) ms", which has no log-uniform distribution; we
//! start at 1 µs, the default); requests and responses are merged in timestamp order. With 0.5 M delay
//! samples this gives 1.25 M requests and 1.75 M packets in all, as in the paper.
//!
//! **Wide-range trace** ([`wide`], [`SyntheticParams::wide`]): the same process with delays log-uniform over
//! **1 µs .. 1 s (six decades)**, for multi-fridge experiments where no single entry probability suits every
//! delay. It differs in one more way: the constant-rate request stream does not stop with the last answered
//! request but continues (unanswered) until the last response has arrived, so every request in flight sees
//! the same insertion rate until its answer. (Without this, a 1 s delay issued near the end of a 1.25 s
//! request stream would sit in an idle table and be trivially measured by any method.) The tail adds up to
//! `max_delay × rate` requests, ≈ 1 M for the preset (≈ 2.75 M packets, ≈ 90 MB of descriptors); a 10 s
//! range at 1 M/s would add 10 M, which is why the preset stops at 1 s.
//!
//! Both are deterministic for a seed (own SplitMix64, no platform- or version-dependent RNG) and stream:
//! requests are generated in time order and responses wait in a heap of the answers still in flight, so
//! the only large allocations are the output vectors. Ids are unique by construction: the low 64 bits are a
//! bijective mix of the request's index and a seed-derived key, the high 64 bits are random.

use super::rng::{mix64, SplitMix64};
use super::{Descriptor, PacketKind, Pair, Trace};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Parameters of the synthetic generators (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SyntheticParams {
    /// Constant request rate (requests per second); request `i` is stamped `round(i * 1e9 / rate)` ns.
    pub requests_per_sec: f64,
    /// Fraction of requests that get a response, in (0, 1]. Exactly `samples` of
    /// `ceil(samples / answered_fraction)` requests are answered, chosen uniformly at random.
    pub answered_fraction: f64,
    /// Upper end of the log-uniform delay distribution, in ms (the paper's T).
    pub max_delay_ms: f64,
    /// Lower end of the log-uniform delay distribution, in ns (≥ 1).
    pub min_delay_ns: u64,
    /// Number of delay samples (= responses).
    pub samples: usize,
}

impl SyntheticParams {
    /// The paper's synthetic trace: 1 M requests/s, 40 % answered, delays log-uniform 1 µs .. 100 ms,
    /// 0.5 M samples.
    pub fn paper() -> Self {
        SyntheticParams {
            requests_per_sec: 1e6,
            answered_fraction: 0.4,
            max_delay_ms: 100.0,
            min_delay_ns: 1_000,
            samples: 500_000,
        }
    }

    /// The wide-range preset: as [`paper`](Self::paper) but delays log-uniform 1 µs .. 1 s (six decades).
    pub fn wide() -> Self {
        SyntheticParams { max_delay_ms: 1_000.0, ..Self::paper() }
    }

    /// Number of requests (answered or not) before any steady tail: `ceil(samples / answered_fraction)`.
    pub fn requests(&self) -> usize {
        (self.samples as f64 / self.answered_fraction).ceil() as usize
    }

    /// Decades spanned by the delay distribution.
    pub fn decades(&self) -> f64 {
        (self.max_delay_ms * 1e6 / self.min_delay_ns as f64).log10()
    }

    fn validate(&self) {
        assert!(
            self.requests_per_sec.is_finite() && self.requests_per_sec > 0.0,
            "requests_per_sec must be positive, got {}",
            self.requests_per_sec
        );
        assert!(
            self.answered_fraction > 0.0 && self.answered_fraction <= 1.0,
            "answered_fraction must be in (0, 1], got {}",
            self.answered_fraction
        );
        assert!(self.min_delay_ns >= 1, "min_delay_ns must be at least 1 ns");
        assert!(
            self.max_delay_ms.is_finite() && self.max_delay_ms * 1e6 >= self.min_delay_ns as f64,
            "max_delay_ms ({}) must be finite and at least min_delay_ns ({} ns)",
            self.max_delay_ms,
            self.min_delay_ns
        );
    }
}

impl Default for SyntheticParams {
    fn default() -> Self {
        Self::paper()
    }
}

/// The paper's synthetic trace (§2.4) for `seed`; panics on invalid parameters (see [`SyntheticParams`]).
pub fn synthetic(seed: u64, params: SyntheticParams) -> Trace {
    generate(seed, &params, false)
}

/// The wide-range trace for `seed`: `params` (normally [`SyntheticParams::wide`]) with a steady request
/// tail until the last response (see the module docs).
pub fn wide(seed: u64, params: SyntheticParams) -> Trace {
    generate(seed, &params, true)
}

/// A response waiting to be emitted: ordered by timestamp, then by the index of its request.
type Pending = Reverse<(u64, u64, u64, u128)>; // (response_ts, request index, request_ts, id)

fn generate(seed: u64, p: &SyntheticParams, steady_tail: bool) -> Trace {
    p.validate();
    let n_req = p.requests();
    // Separate streams for selection, delays and ids, so changing one parameter does not reshuffle the rest.
    let mut select_rng = SplitMix64::new(mix64(seed ^ 0x5E1E_C7ED));
    let mut delay_rng = SplitMix64::new(mix64(seed ^ 0xDE1A_7DE1));
    let mut id_rng = SplitMix64::new(mix64(seed ^ 0x1D1D_1D1D));
    let id_key = id_rng.next_u64();
    let period_ns = 1e9 / p.requests_per_sec;
    let ln_min = (p.min_delay_ns as f64).ln();
    let ln_max = (p.max_delay_ms * 1e6).ln();
    let max_ns = (p.max_delay_ms * 1e6).round() as u64;

    let mut packets = Vec::with_capacity(n_req + p.samples);
    let mut truth = Vec::with_capacity(p.samples);
    let mut pending: BinaryHeap<Pending> = BinaryHeap::new();
    let mut needed = p.samples as u64;

    let mut flush = |until: Option<u64>, pending: &mut BinaryHeap<Pending>, packets: &mut Vec<Descriptor>| {
        while let Some(Reverse((ts, _, req_ts, id))) = pending.peek().copied() {
            if until.is_some_and(|u| ts >= u) {
                break; // requests go first on equal timestamps
            }
            pending.pop();
            packets.push(Descriptor { kind: PacketKind::Response, id, timestamp: ts });
            truth.push(Pair { request_ts: req_ts, response_ts: ts, id });
        }
    };

    let mut i: u64 = 0;
    loop {
        let in_main = (i as usize) < n_req;
        if !in_main && !steady_tail {
            break;
        }
        let ts = (i as f64 * period_ns).round() as u64;
        flush(Some(ts), &mut pending, &mut packets);
        if !in_main && pending.is_empty() {
            break; // steady tail: the last response has gone out
        }
        // Unique: mix64 is a bijection, so distinct i give distinct low halves.
        let id = ((id_rng.next_u64() as u128) << 64) | mix64(i.wrapping_add(id_key)) as u128;
        packets.push(Descriptor { kind: PacketKind::Request, id, timestamp: ts });
        if in_main {
            let remaining = n_req as u64 - i;
            // Selection sampling (Knuth's algorithm S): exactly `samples` answered, uniformly chosen.
            if select_rng.below(remaining) < needed {
                needed -= 1;
                let u = delay_rng.next_f64();
                let d = (ln_min + u * (ln_max - ln_min)).exp().round() as u64;
                let d = d.clamp(p.min_delay_ns, max_ns.max(p.min_delay_ns));
                pending.push(Reverse((ts + d, i, ts, id)));
            }
        }
        i += 1;
    }
    flush(None, &mut pending, &mut packets);
    Trace { packets, truth }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::pair_exact;

    fn small() -> SyntheticParams {
        SyntheticParams { samples: 20_000, ..SyntheticParams::paper() }
    }

    #[test]
    fn shape_matches_the_paper() {
        let p = small();
        let t = synthetic(1, p);
        assert_eq!(t.truth.len(), 20_000);
        assert_eq!(t.requests(), 50_000);
        assert_eq!(t.responses(), 20_000);
        assert!(t.packets.windows(2).all(|w| w[0].timestamp <= w[1].timestamp), "sorted by timestamp");
        // Constant rate: request i at i µs.
        let reqs: Vec<u64> = t.packets.iter().filter(|d| d.kind == PacketKind::Request).map(|d| d.timestamp).collect();
        assert!(reqs.iter().enumerate().all(|(i, &ts)| ts == i as u64 * 1000));
        for d in t.true_delays_ns() {
            assert!((1_000..=100_000_000).contains(&d), "delay {d} out of range");
        }
    }

    #[test]
    fn truth_is_exact_pairing_and_ids_unique() {
        let t = synthetic(7, small());
        assert_eq!(pair_exact(&t.packets), t.truth);
        let mut ids: Vec<u128> = t.packets.iter().filter(|d| d.kind == PacketKind::Request).map(|d| d.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), t.requests());
    }

    #[test]
    fn deterministic_per_seed() {
        let a = synthetic(3, small());
        assert_eq!(a, synthetic(3, small()));
        assert_ne!(a.packets, synthetic(4, small()).packets);
    }

    #[test]
    fn delays_are_log_uniform() {
        // Each decade of 1 µs .. 100 ms should hold a fifth of the samples.
        let t = synthetic(11, SyntheticParams { samples: 100_000, ..SyntheticParams::paper() });
        let mut per_decade = [0usize; 5];
        for d in t.true_delays_ns() {
            let k = ((d as f64 / 1000.0).log10().floor() as usize).min(4);
            per_decade[k] += 1;
        }
        for c in per_decade {
            let frac = c as f64 / 100_000.0;
            assert!((frac - 0.2).abs() < 0.01, "decade fractions {per_decade:?}");
        }
    }

    #[test]
    fn wide_spans_six_decades_with_steady_tail() {
        let p = SyntheticParams { samples: 5_000, ..SyntheticParams::wide() };
        assert!((p.decades() - 6.0).abs() < 1e-9);
        let t = wide(5, p);
        assert_eq!(t.truth.len(), 5_000);
        assert_eq!(pair_exact(&t.packets), t.truth);
        let last = t.packets.last().unwrap();
        assert_eq!(last.kind, PacketKind::Response, "trace ends with the last response");
        // Requests keep coming at 1 µs spacing up to the last response.
        let reqs: Vec<u64> = t.packets.iter().filter(|d| d.kind == PacketKind::Request).map(|d| d.timestamp).collect();
        assert!(reqs.len() > p.requests());
        assert!(last.timestamp - reqs.last().unwrap() <= 1_000);
        assert!(reqs.windows(2).all(|w| w[1] - w[0] == 1_000));
        let max = t.true_delays_ns().into_iter().max().unwrap();
        assert!(max > 100_000_000, "some delays beyond 100 ms (max {max})");
    }

    #[test]
    #[should_panic(expected = "answered_fraction")]
    fn rejects_bad_fraction() {
        synthetic(0, SyntheticParams { answered_fraction: 0.0, ..small() });
    }
}
