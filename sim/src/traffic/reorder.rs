//! Traffic for the reordering core: a synthetic generator with the properties the defense slides stress,
//! and the data segments of a real capture (plain or gzip-compressed pcap/pcapng).
//!
//! ## Synthetic ([`synthetic_reorder`])
//! `prefixes` distinct random destination /24 prefixes (random rather than consecutive: the index hash is
//! linear over GF(2), and consecutive prefix numbers vary in only ⌈log2 prefixes⌉ bits, so a linear map onto
//! about as many index bits is rank-deficient with probability ≈ 0.4 and leaves half the buckets unused —
//! measured: 1000 consecutive /24s fill 128 of 512 buckets); the slides' violins show what the generator must
//! reproduce:
//! - **Prefix sizes over orders of magnitude**: each prefix's packet budget is log-uniform in
//!   `[min_packets, max_packets]` (default 10..10 000: three orders of magnitude).
//! - **Heavy-tailed flow sizes within a prefix**: flows of Pareto(`flow_shape`, minimum 2) packets, drawn
//!   until the budget is used (the last flow gets the remainder).
//! - **Reordering is a property of the path, weakly correlated between flows of a prefix**: a prefix has
//!   `paths` parallel paths; a share `heavy_share` of the prefixes have a reordering rate `r_g` uniform in
//!   `heavy_rate`, the others uniform in `[0, clean_rate]`. Path `k`'s rate is `r_g·w_k` with weights
//!   `w_k` exponential (mean 1); each flow takes one path at random and its own rate is `r_g·w_k·u` with
//!   `u` uniform in [0, 2) — one flow says little about its prefix, all of them together say `r_g`.
//! - **The largest flows do not carry most reordered packets**: flows of at least `elephant_packets`
//!   packets have their rate multiplied by `elephant_factor` (default 0.2: long-lived flows pinned to a
//!   well-behaved path).
//!
//! - **Crowded prefixes** (`crowded`, default 0): that many more prefixes, each with `crowded_flows` short
//!   clean flows (2–4 packets) — what takes over an array indexed by flow, and not one indexed by prefix.
//!
//! A flow's data segments carry sequence numbers `isn + 1448·k` (`isn` random, so some flows wrap 2^32);
//! the packet at position k is swapped with the next with the flow's rate (no overlapping swaps), which
//! makes exactly one packet out of order (`s_i < s_{i−1}`) per swap. Flows start uniformly in the trace's
//! `duration_s` seconds with a per-flow packet gap log-uniform in [50 µs, 5 ms] (shortened so the flow ends
//! within the trace). Packets are merged in time order. The generator is seeded (SplitMix64) and
//! deterministic; the ground truth is computed from the stream itself by the exact flow tracker
//! (`reordering::truth`), not from the rates.
//!
//! ## Capture ([`capture_descriptors`])
//! Every IPv4 TCP segment of a capture, in file order, as a [`Descriptor`]: prefix address = destination,
//! flow = 5-tuple key ([`five_tuple_key`]), sequence number, timestamp, data = payload length > 0. A file
//! starting with the gzip magic is decompressed on the fly by the shared reader ([`capture::open`]).

use super::keys::five_tuple_key;
use super::packet::{for_each_segment, Addrs, Decoder};
use super::rng::{mix64, SplitMix64};
use golden::reordering::Descriptor;
use std::path::Path;

/// Parameters of the synthetic reordering trace.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ReorderParams {
    pub prefixes: usize,
    pub min_packets: u64,
    pub max_packets: u64,
    /// Share of prefixes whose path reorders.
    pub heavy_share: f64,
    /// Per-packet reordering rate range of those prefixes.
    pub heavy_rate: (f64, f64),
    /// Upper end of the other prefixes' rate.
    pub clean_rate: f64,
    /// Parallel paths per prefix.
    pub paths: usize,
    /// Pareto shape of flow sizes (packets, minimum 2).
    pub flow_shape: f64,
    pub elephant_packets: u64,
    pub elephant_factor: f64,
    pub duration_s: f64,
    /// Crowded prefixes on top: each `crowded_flows` short flows (2–4 packets, never reordered) — the
    /// prefixes with huge flow counts that take over an array indexed by flow (the slides' memory argument).
    pub crowded: usize,
    pub crowded_flows: usize,
}

impl Default for ReorderParams {
    fn default() -> Self {
        ReorderParams {
            prefixes: 1000,
            min_packets: 10,
            max_packets: 10_000,
            heavy_share: 0.1,
            heavy_rate: (0.02, 0.08),
            clean_rate: 0.002,
            paths: 4,
            flow_shape: 1.2,
            elephant_packets: 500,
            elephant_factor: 0.2,
            duration_s: 10.0,
            crowded: 0,
            crowded_flows: 2000,
        }
    }
}

impl ReorderParams {
    pub fn check(&self) -> Result<(), String> {
        let ok = self.prefixes >= 1
            && self.prefixes <= 65_536
            && self.min_packets >= 1
            && self.min_packets <= self.max_packets
            && self.max_packets <= 10_000_000
            && (0.0..=1.0).contains(&self.heavy_share)
            && 0.0 <= self.heavy_rate.0
            && self.heavy_rate.0 <= self.heavy_rate.1
            && self.heavy_rate.1 <= 0.5
            && (0.0..=0.5).contains(&self.clean_rate)
            && self.paths >= 1
            && self.flow_shape > 0.0
            && (0.0..=1.0).contains(&self.elephant_factor)
            && self.duration_s > 0.0
            && self.duration_s < 3600.0
            && self.crowded <= 1024
            && self.crowded_flows <= 100_000;
        if ok {
            Ok(())
        } else {
            Err(format!("synthetic reordering parameters out of range: {self:?}"))
        }
    }
}

/// The synthetic trace: descriptors in time order, and each prefix's path rate `r_g` (for reference; the
/// ground truth comes from the stream).
#[derive(Debug, Clone)]
pub struct ReorderTrace {
    pub packets: Vec<Descriptor>,
    /// `(prefix address, r_g)` per prefix.
    pub rates: Vec<(u32, f64)>,
}

/// Sequence-number step of one segment (a full Ethernet MSS).
const MSS: u32 = 1448;

/// A draw log-uniform in `[lo, hi)`.
fn log_uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    (lo.ln() + rng.next_f64() * (hi.ln() - lo.ln())).exp()
}

/// One flow of `size` data packets to a random host of prefix `base`, its packet at position k swapped with
/// the next with probability `r` (no overlapping swaps), starting uniformly in the trace with a log-uniform
/// gap, into `timed`.
fn emit_flow(rng: &mut SplitMix64, base: u32, size: u64, r: f64, dur_ns: u64, timed: &mut Vec<(u64, Descriptor)>) {
    let dst = base | rng.below(256) as u32;
    let src = (rng.next_u64() >> 32) as u32;
    let sport = 1024 + rng.below(64_512) as u16;
    let flow = five_tuple_key(Addrs::V4 { src: src.to_be_bytes(), dst: dst.to_be_bytes() }, sport, 443, 6);
    let start = rng.below(dur_ns.max(1));
    let gap = (log_uniform(rng, 5e4, 5e6) as u64).min((dur_ns - start) / size).max(1);
    let isn = (rng.next_u64() >> 32) as u32;
    let mut seqs: Vec<u32> = (0..size as u32).map(|k| isn.wrapping_add(MSS.wrapping_mul(k))).collect();
    let mut k = 0;
    while k + 1 < seqs.len() {
        if rng.next_f64() < r {
            seqs.swap(k, k + 1);
            k += 2;
        } else {
            k += 1;
        }
    }
    timed.extend(seqs.into_iter().enumerate().map(|(k, seq)| {
        let ts = start + k as u64 * gap;
        (ts, Descriptor { addr: dst, flow, seq, ts, data: true })
    }));
}

/// Generates the synthetic trace of `p` for `seed`.
pub fn synthetic_reorder(p: &ReorderParams, seed: u64) -> Result<ReorderTrace, String> {
    p.check()?;
    let mut rng = SplitMix64::new(mix64(seed ^ 0x5245_4F52));
    let dur_ns = (p.duration_s * 1e9) as u64;
    let mut timed: Vec<(u64, Descriptor)> = Vec::new();
    let mut rates = Vec::with_capacity(p.prefixes);
    let mut bases = std::collections::HashSet::new();
    while bases.len() < p.prefixes {
        let base = (rng.next_u64() >> 40) as u32 & 0x00FF_FFFF;
        if !bases.insert(base) {
            continue;
        }
        let base = base << 8;
        let heavy = rng.next_f64() < p.heavy_share;
        let rate = if heavy {
            p.heavy_rate.0 + rng.next_f64() * (p.heavy_rate.1 - p.heavy_rate.0)
        } else {
            rng.next_f64() * p.clean_rate
        };
        rates.push((base, rate));
        let weights: Vec<f64> = (0..p.paths).map(|_| -(1.0 - rng.next_f64()).ln()).collect();
        let mut budget = log_uniform(&mut rng, p.min_packets as f64, p.max_packets as f64 + 1.0).floor() as u64;
        while budget > 0 {
            let pareto = 2.0 * (1.0 - rng.next_f64()).powf(-1.0 / p.flow_shape);
            let size = (pareto.min(1e9) as u64).clamp(1, budget);
            budget -= size;
            let mut r = rate * weights[rng.below(p.paths as u64) as usize] * 2.0 * rng.next_f64();
            if size >= p.elephant_packets {
                r *= p.elephant_factor;
            }
            emit_flow(&mut rng, base, size, r, dur_ns, &mut timed);
        }
    }
    // Crowded prefixes: many short clean flows each.
    let mut crowded = 0;
    while crowded < p.crowded {
        let base = (rng.next_u64() >> 40) as u32 & 0x00FF_FFFF;
        if !bases.insert(base) {
            continue;
        }
        crowded += 1;
        rates.push((base << 8, 0.0));
        for _ in 0..p.crowded_flows {
            let size = 2 + rng.below(3);
            emit_flow(&mut rng, base << 8, size, 0.0, dur_ns, &mut timed);
        }
    }
    timed.sort_by_key(|(t, _)| *t); // stable: generation order breaks ties
    Ok(ReorderTrace { packets: timed.into_iter().map(|(_, d)| d).collect(), rates })
}

/// What reading a capture's segments found.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct CaptureStats {
    pub frames: u64,
    /// IPv4 TCP segments (descriptors).
    pub segments: u64,
    /// Of those, with payload.
    pub data: u64,
    /// Frames that are not IPv4 TCP, or have no timestamp.
    pub skipped: u64,
}

/// The descriptors of a capture file (see the module docs); gzip is decompressed on the fly.
pub fn capture_descriptors(path: &Path, decoder: &Decoder) -> Result<(Vec<Descriptor>, CaptureStats), String> {
    let name = path.display();
    let (mut out, mut stats) = (Vec::new(), CaptureStats::default());
    stats.frames = for_each_segment(path, decoder, |_, ts, _, seg| {
        let (Some(ts), Ok(seg)) = (ts, seg) else {
            stats.skipped += 1;
            return;
        };
        let Some(d) = golden::parser::descriptors::reordering(&seg, ts) else {
            stats.skipped += 1;
            return;
        };
        stats.segments += 1;
        stats.data += d.data as u64;
        out.push(d);
    })?;
    if stats.data == 0 {
        return Err(format!("{name}: no IPv4 TCP data segments ({} frames)", stats.frames));
    }
    Ok((out, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> ReorderParams {
        ReorderParams { prefixes: 60, max_packets: 2000, ..ReorderParams::default() }
    }

    #[test]
    fn deterministic_time_ordered_and_reordered_where_the_path_is() {
        let p = small();
        let a = synthetic_reorder(&p, 5).unwrap();
        let b = synthetic_reorder(&p, 5).unwrap();
        assert_eq!(a.packets, b.packets);
        assert_ne!(a.packets, synthetic_reorder(&p, 6).unwrap().packets);
        assert!(a.packets.windows(2).all(|w| w[0].ts <= w[1].ts));
        // Per prefix, out-of-order packets by the definition (flow's previous packet), against r_g.
        let mut last = std::collections::HashMap::new();
        let mut per = std::collections::HashMap::<u32, (u64, u64)>::new();
        for d in &a.packets {
            let e = per.entry(d.addr & 0xFFFF_FF00).or_default();
            e.0 += 1;
            if let Some(prev) = last.insert(d.flow, d.seq) {
                e.1 += golden::reordering::out_of_order(d.seq, prev) as u64;
            }
        }
        let sizes: Vec<u64> = per.values().map(|x| x.0).collect();
        assert!(sizes.iter().max().unwrap() / sizes.iter().min().unwrap() >= 20, "sizes span orders of magnitude");
        // Clean prefixes together stay below their rate bound (single small ones may not: per-flow noise).
        let (mut n_clean, mut o_clean) = (0, 0);
        for &(g, r) in &a.rates {
            let (n, o) = per[&g];
            if r == 0.0 {
                assert_eq!(o, 0);
            }
            if r < 0.002 {
                (n_clean, o_clean) = (n_clean + n, o_clean + o);
            }
        }
        assert!((o_clean as f64) < 0.002 * n_clean as f64, "clean prefixes: {o_clean}/{n_clean}");
        let heavy = a.rates.iter().filter(|x| x.1 >= 0.02).map(|x| per[&x.0]).filter(|x| x.0 > 1000);
        assert!(heavy.clone().count() > 0 && heavy.clone().all(|(_, o)| o > 0));
    }

    #[test]
    fn crowded_prefixes_add_many_short_clean_flows() {
        let base = synthetic_reorder(&small(), 5).unwrap();
        let p = ReorderParams { crowded: 3, crowded_flows: 100, ..small() };
        let t = synthetic_reorder(&p, 5).unwrap();
        assert_eq!(t.rates.len(), base.rates.len() + 3);
        let crowded: Vec<u32> = t.rates[base.rates.len()..].iter().map(|r| r.0).collect();
        let pkts: Vec<&Descriptor> = t.packets.iter().filter(|d| crowded.contains(&(d.addr & 0xFFFF_FF00))).collect();
        let flows: std::collections::HashSet<u128> = pkts.iter().map(|d| d.flow).collect();
        assert_eq!(flows.len(), 300);
        assert!((600..=1200).contains(&pkts.len()), "{} packets", pkts.len());
        // Clean: every flow's sequence numbers go up.
        let mut last = std::collections::HashMap::new();
        for d in &pkts {
            if let Some(prev) = last.insert(d.flow, d.seq) {
                assert!(!golden::reordering::out_of_order(d.seq, prev));
            }
        }
        // Flows per crowded prefix change nothing without crowded prefixes.
        assert_eq!(base.packets, synthetic_reorder(&ReorderParams { crowded: 0, ..p }, 5).unwrap().packets);
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(synthetic_reorder(&ReorderParams { prefixes: 0, ..small() }, 1).is_err());
        assert!(synthetic_reorder(&ReorderParams { min_packets: 50, max_packets: 10, ..small() }, 1).is_err());
    }
}
