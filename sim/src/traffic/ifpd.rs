//! Traffic for the IFPD core: a synthetic 2-second segment calibrated to the paper's own statistics, and
//! the packets of a capture.
//!
//! ## Synthetic ([`synthetic_ifpd`])
//! The paper's traces (CAIDA equinix-nyc, 2 s segments of ~1 M packets and ~90 k flows by 5-tuple) are not
//! public here; what the paper publishes about them is Table 1 (share of IFPDs above 100..700 ms and share of
//! flows with such an IFPD) and the packet and flow counts. The generator is a flow-level model whose few
//! parameters were fitted to those numbers ([`table1_fit`] reports how close a trace is):
//! - flows start uniformly in the segment and have an intended size from a discrete Pareto
//!   (`⌊size_min · U^(−1/size_shape)⌋`, capped): most flows are a few packets, a few are very large (heavy tail);
//! - a flow sends bursts: each gap is, with probability `1/B`, an idle period (log-normal, median `off_ms`,
//!   σ `off_sigma`), else a gap within the burst (log-uniform 10 µs..`on_ms`); the mean burst `B` is the
//!   flow's own, log-uniform in `[1, burst_max]` — interactive flows idle after every packet, bulk flows
//!   send long bursts;
//! - a flow's packets stop at the segment's end, so slow flows are short in the segment and the large flows
//!   are the fast ones — which is why far fewer packets than flows have a high IFPD (Table 1: 0.7 % of
//!   IFPDs but 7.3 % of flows above 700 ms);
//! - flows are drawn until `packets` packets are made; the segment keeps its 2 s, so `--packets` scales the
//!   flow count with it (and the load on a sketch of a given memory).
//!
//! Flow keys are distinct random 104-bit 5-tuples; timestamps are ns from 1 s on. SplitMix64-seeded and
//! deterministic; the ground truth comes from the stream ([`true_ifpd`]), not from the model.
//!
//! ## Capture ([`capture_ifpd`])
//! Every IPv4 TCP segment of a pcap/pcapng file (gzip read directly), its 5-tuple as the flow (each
//! direction its own flow) and its timestamp — the reordering core's capture reader, reused.

use super::packet::Decoder;
use super::rng::{mix64, SplitMix64};
use golden::ifpd::Descriptor;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The thresholds of the paper's Table 1, ms.
pub const TABLE1_MS: [u64; 7] = [100, 200, 300, 400, 500, 600, 700];
/// Table 1: share of IFPDs above each threshold.
pub const TABLE1_IFPD: [f64; 7] = [0.100, 0.058, 0.033, 0.021, 0.013, 0.009, 0.007];
/// Table 1: share of flows with an IFPD above each threshold.
pub const TABLE1_FLOWS: [f64; 7] = [0.402, 0.316, 0.228, 0.168, 0.122, 0.093, 0.073];

/// Parameters of the synthetic segment. The defaults came out of the grid of `examples/ifpd_calibrate.rs`
/// (1 M-packet segments, seed 1): mean |log ratio| 0.10 over Table 1's 14 shares and the packets per flow
/// (11.6 against the paper's ~11: ~86 k flows).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct IfpdParams {
    /// Packets to generate (whole flows: the last flow may overshoot by its size).
    pub packets: usize,
    pub duration_s: f64,
    /// Pareto shape and scale of intended flow sizes: `⌊size_min · U^(−1/size_shape)⌋` packets.
    pub size_shape: f64,
    pub size_min: f64,
    /// Largest intended flow size.
    pub size_cap: u64,
    /// Largest mean burst of a flow: its packets come in bursts of mean size `B`, log-uniform in
    /// `[1, burst_max]` per flow (each gap is an idle period with probability `1/B`).
    pub burst_max: f64,
    /// Gaps within a burst: log-uniform in `[0.01 ms, on_ms]`.
    pub on_ms: f64,
    /// Idle periods between bursts: log-normal with this median (ms) and σ.
    pub off_ms: f64,
    pub off_sigma: f64,
    /// Packets past the end wrap around to the start (time modulo `duration_s`) instead of being cut: the
    /// trace is stationary from its first second, as a window of an endless one (false: the IFPD segment,
    /// where flows start in the segment and stop at its end). With wrap the trace has exactly `packets`
    /// packets (the last flow is cut there).
    pub wrap: bool,
}

impl Default for IfpdParams {
    /// The calibrated segment: ~1 M packets, 2 s (see [`table1_fit`] for how close it is).
    fn default() -> Self {
        IfpdParams {
            packets: 1_000_000,
            duration_s: 2.0,
            size_shape: 0.5,
            size_min: 2.0,
            size_cap: 200_000,
            burst_max: 30.0,
            on_ms: 5.0,
            off_ms: 200.0,
            off_sigma: 1.0,
            wrap: false,
        }
    }
}

impl IfpdParams {
    pub fn check(&self) -> Result<(), String> {
        let ok = (1_000..=100_000_000).contains(&self.packets)
            && self.duration_s > 0.0
            && self.duration_s <= 3600.0
            && self.size_shape > 0.0
            && self.size_min >= 1.0
            && self.size_cap >= 1
            && self.burst_max >= 1.0
            && self.on_ms >= 0.01
            && self.off_ms > 0.0
            && (0.0..=5.0).contains(&self.off_sigma);
        if ok {
            Ok(())
        } else {
            Err(format!("synthetic IFPD parameters out of range (packets 1000..=10^8): {self:?}"))
        }
    }
}

/// First packet of the segment, ns.
const T0_NS: u64 = 1_000_000_000;

/// Generates the synthetic segment of `p` for `seed`: descriptors in time order.
pub fn synthetic_ifpd(p: &IfpdParams, seed: u64) -> Result<Vec<Descriptor>, String> {
    Ok(flow_arrivals(p, seed)?.into_iter().map(|(ts, flow)| Descriptor { flow, ts }).collect())
}

/// The packets of the flow model of `p` for `seed` as `(timestamp ns, flow key)` in time order (the arrival
/// process behind [`synthetic_ifpd`], also MAPLE's traffic).
pub fn flow_arrivals(p: &IfpdParams, seed: u64) -> Result<Vec<(u64, u128)>, String> {
    p.check()?;
    let mut rng = SplitMix64::new(mix64(seed ^ 0x4946_5044));
    let dur = p.duration_s * 1e9;
    let (on_lo, on_hi) = (1e4f64.ln(), (p.on_ms * 1e6).ln());
    let off = p.off_ms * 1e6;
    let mut keys = HashSet::new();
    let mut timed: Vec<(u64, u128)> = Vec::with_capacity(p.packets + 1024);
    while timed.len() < p.packets {
        let flow = loop {
            let k = (rng.next_u64() as u128) << 40 | (rng.next_u64() >> 24) as u128;
            if keys.insert(k) {
                break k;
            }
        };
        let size =
            ((p.size_min * (1.0 - rng.next_f64()).powf(-1.0 / p.size_shape)).min(p.size_cap as f64) as u64).max(1);
        let idle = 1.0 / (rng.next_f64() * p.burst_max.ln()).exp();
        let mut t = rng.next_f64() * dur;
        for k in 0..size {
            if k > 0 {
                t += if rng.next_f64() < idle {
                    off * (p.off_sigma * normal(&mut rng)).exp()
                } else {
                    (on_lo + rng.next_f64() * (on_hi - on_lo)).exp()
                };
            }
            if (t >= dur && !p.wrap) || (p.wrap && timed.len() >= p.packets) {
                break;
            }
            timed.push((T0_NS + (t % dur) as u64, flow));
        }
    }
    timed.sort_unstable();
    Ok(timed)
}

/// A standard normal draw (Box–Muller, one of the pair).
pub(super) fn normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (1.0 - rng.next_f64(), rng.next_f64());
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// The exact IFPD (ns) of every packet, in the stream's order; `None` for a flow's first packet. Gaps are
/// taken in time order (a stable sort: stream order breaks ties), so for a capture whose frames are not all
/// in time order — the core takes them as they come, as a parser gives them — the truth is what really
/// happened; for a time-ordered stream it is the gap to the flow's previous packet in the stream.
pub fn true_ifpd(packets: &[Descriptor]) -> Vec<Option<u64>> {
    let mut order: Vec<usize> = (0..packets.len()).collect();
    if !packets.windows(2).all(|w| w[0].ts <= w[1].ts) {
        order.sort_by_key(|&i| packets[i].ts);
    }
    let mut last: HashMap<u128, u64> = HashMap::with_capacity(packets.len() / 8);
    let mut out = vec![None; packets.len()];
    for i in order {
        let d = &packets[i];
        out[i] = last.insert(d.flow, d.ts).map(|prev| d.ts - prev);
    }
    out
}

/// One row of the Table 1 comparison.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Table1Row {
    pub threshold_ms: u64,
    /// Share of the packets with an IFPD (all but each flow's first) whose IFPD is ≥ the threshold.
    pub ifpd_share: f64,
    pub paper_ifpd_share: f64,
    /// Share of all flows with at least one IFPD ≥ the threshold.
    pub flow_share: f64,
    pub paper_flow_share: f64,
}

/// What a trace looks like next to the paper's: counts and Table 1.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Table1Fit {
    pub packets: usize,
    pub flows: usize,
    /// Seconds from the first packet to the last.
    pub span_s: f64,
    pub rows: Vec<Table1Row>,
    /// Mean |log(share / paper share)| over the 14 shares (0 = exact).
    pub mean_abs_log_ratio: f64,
}

/// Table 1 of a trace (shares by `≥ threshold`; the paper's wording "exceed" differs only at equality).
pub fn table1_fit(packets: &[Descriptor], truth: &[Option<u64>]) -> Table1Fit {
    let mut flow_max: HashMap<u128, u64> = HashMap::new();
    let mut with_ifpd = 0usize;
    let mut above = [0usize; 7];
    for (d, t) in packets.iter().zip(truth) {
        let m = flow_max.entry(d.flow).or_insert(0);
        if let Some(x) = *t {
            with_ifpd += 1;
            *m = (*m).max(x);
            for (k, th) in TABLE1_MS.iter().enumerate() {
                above[k] += (x >= th * 1_000_000) as usize;
            }
        }
    }
    let flows = flow_max.len();
    let mut err = 0.0;
    let rows: Vec<Table1Row> = (0..7)
        .map(|k| {
            let th = TABLE1_MS[k] * 1_000_000;
            let ifpd_share = above[k] as f64 / with_ifpd.max(1) as f64;
            let flow_share = flow_max.values().filter(|&&m| m >= th).count() as f64 / flows.max(1) as f64;
            err += (ifpd_share.max(1e-9) / TABLE1_IFPD[k]).ln().abs()
                + (flow_share.max(1e-9) / TABLE1_FLOWS[k]).ln().abs();
            Table1Row {
                threshold_ms: TABLE1_MS[k],
                ifpd_share,
                paper_ifpd_share: TABLE1_IFPD[k],
                flow_share,
                paper_flow_share: TABLE1_FLOWS[k],
            }
        })
        .collect();
    let span_s = match (packets.iter().map(|d| d.ts).min(), packets.iter().map(|d| d.ts).max()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e9,
        _ => 0.0,
    };
    Table1Fit { packets: packets.len(), flows, span_s, rows, mean_abs_log_ratio: err / 14.0 }
}

/// What reading a capture found.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct IfpdCaptureStats {
    pub frames: u64,
    /// IPv4 TCP segments (the descriptors).
    pub packets: u64,
    pub skipped: u64,
}

/// The descriptors of a capture: every IPv4 TCP segment (data or not), flow = 5-tuple, in file order — as a
/// parser gives them, also where the file is not in time order ([`true_ifpd`] takes the truth in time order).
pub fn capture_ifpd(path: &Path, decoder: &Decoder) -> Result<(Vec<Descriptor>, IfpdCaptureStats), String> {
    let (segments, st) = super::reorder::capture_descriptors(path, decoder)?;
    let out: Vec<Descriptor> = segments.iter().map(|d| Descriptor { flow: d.flow, ts: d.ts }).collect();
    Ok((out, IfpdCaptureStats { frames: st.frames, packets: st.segments, skipped: st.skipped }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> IfpdParams {
        IfpdParams { packets: 100_000, ..IfpdParams::default() }
    }

    #[test]
    fn deterministic_time_ordered_and_heavy_tailed() {
        let a = synthetic_ifpd(&small(), 3).unwrap();
        assert_eq!(a, synthetic_ifpd(&small(), 3).unwrap());
        assert_ne!(a, synthetic_ifpd(&small(), 4).unwrap());
        assert!(a.len() >= 100_000 && a.windows(2).all(|w| w[0].ts <= w[1].ts));
        assert!(a.last().unwrap().ts - a[0].ts <= 2_000_000_000);
        let mut sizes: HashMap<u128, u64> = HashMap::new();
        a.iter().for_each(|d| *sizes.entry(d.flow).or_default() += 1);
        let mut v: Vec<u64> = sizes.into_values().collect();
        v.sort_unstable_by(|x, y| y.cmp(x));
        // Heavy tail: the largest 1 % of flows carry over ten times their share of the packets, the largest
        // flow over fifty times the median (the segment's end caps the largest).
        let top: u64 = v[..v.len() / 100].iter().sum();
        assert!(top * 10 > a.len() as u64, "top 1 % carry {top} of {}", a.len());
        assert!(v[0] > 50 * v[v.len() / 2], "largest {} median {}", v[0], v[v.len() / 2]);
    }

    #[test]
    fn truth_is_the_gap_to_the_flows_previous_packet() {
        let d = |flow, ts| Descriptor { flow, ts };
        let t = true_ifpd(&[d(1, 10), d(2, 12), d(1, 15), d(1, 40), d(2, 41)]);
        assert_eq!(t, vec![None, None, Some(5), Some(25), Some(29)]);
        // Out of time order: the gaps in time order, reported in stream order.
        let t = true_ifpd(&[d(1, 10), d(1, 40), d(1, 15), d(2, 12)]);
        assert_eq!(t, vec![None, Some(25), Some(5), None]);
    }

    #[test]
    fn table1_fit_counts_shares_and_the_generator_is_close() {
        let ms = 1_000_000;
        let d = |flow, ts| Descriptor { flow, ts };
        // Flow 1: gaps 50 ms and 250 ms; flow 2: one packet; flow 3: a 150 ms gap.
        let p = [d(1, 0), d(2, 1), d(1, 50 * ms), d(3, 60 * ms), d(3, 210 * ms), d(1, 300 * ms)];
        let f = table1_fit(&p, &true_ifpd(&p));
        assert_eq!((f.packets, f.flows), (6, 3));
        assert_eq!((f.rows[0].ifpd_share, f.rows[0].flow_share), (2.0 / 3.0, 2.0 / 3.0));
        assert_eq!((f.rows[1].ifpd_share, f.rows[1].flow_share), (1.0 / 3.0, 1.0 / 3.0));
        assert_eq!(f.rows[2].ifpd_share, 0.0);
        let a = synthetic_ifpd(&small(), 1).unwrap();
        let fit = table1_fit(&a, &true_ifpd(&a));
        assert!(fit.mean_abs_log_ratio < 0.25, "{fit:?}");
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(synthetic_ifpd(&IfpdParams { packets: 10, ..small() }, 1).is_err());
        assert!(synthetic_ifpd(&IfpdParams { burst_max: 0.5, ..small() }, 1).is_err());
    }
}
