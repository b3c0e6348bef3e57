//! Traffic for MAPLE: packets with a key, a size and an arrival time, their latencies from the paper's
//! delay model (§5.1: an open-loop RED queue with a service rate in bytes/s and a queue limit), cut into
//! 1 s epochs.
//!
//! ## Synthetic arrivals ([`synthetic_maple`])
//! The paper's ISP trace (OC-192, ≈ 380 k packets per 1 s epoch) is not available. The arrivals are the
//! heavy-tailed, bursty flow process of the IFPD traffic ([`super::ifpd::flow_arrivals`]: Pareto flow sizes,
//! per-flow bursts and log-normal idle periods) run for `epochs` seconds at `packets_per_epoch` packets per
//! second, wrapped around the trace's end (time modulo its length) so the rate is stationary from the first
//! epoch. Aggregate traffic at the µs–ms scale is then much smoother than a real link's (many independent
//! flows), so the aggregate rate is also modulated ([`MapleTraffic::burst_sigma`]): in slots of mean 10 ms
//! the packet gaps stretch by a log-normal factor (σ 0.2), giving the microbursts that make a queue at 85 %
//! utilisation reach milliseconds (measured on 4 × 380 k packets: 85 % has median 24 µs, 90th percentile
//! 2.3 ms, maximum 6.7 ms, 0.5 % dropped; 53 % and 58 % stay below 0.5 ms). σ 0.3 made the 85 % queue
//! drop 2 % and σ 0.7 (20 ms slots) 17 %; without modulation 85 % never passed 170 µs. Each packet gets a size from the
//! trimodal mix of backbone traces ([`SIZE_MIX`]: 40 % 40 B, 10 % 576 B, 35 % 1500 B, 15 % uniform in
//! between; mean ≈ 714 B) and a 128-bit key from the fields the paper hashes (§4): source and destination
//! address and ports (96 bits), the IP ID (a per-flow counter from a random start, as most stacks send)
//! and 16 payload bits (the layout `sim::maple::aggregate::KeyLayout` names). Source addresses and ports
//! are random per flow; destinations are hosts with Zipf-like popularity spread over /16 prefixes
//! ([`with_destination`]), so the §5.4 host and prefix aggregates group several flows.
//!
//! ## Queue ([`RedQueue`])
//! FIFO, work-conserving, served at `rate` bytes/s (a fluid server: the backlog drains at `rate` between
//! arrivals, so a packet's latency is `(backlog + size) / rate` — waiting plus its own transmission).
//! Open-loop RED (Floyd & Jacobson 1993) on the byte backlog: the average `avg ← (1 − w)·avg + w·q` at
//! each arrival (after an idle period, decayed as if `idle·rate / 1000` small packets had arrived),
//! drop probability `max_p·(avg − min_th)/(max_th − min_th)` spread by the count since the last drop,
//! forced drops at `avg ≥ max_th` and when the packet does not fit the queue limit. Dropped packets have
//! no latency and are not stored. The service rate is set from the target utilisation: `rate` = the
//! trace's offered bytes per second / `U` (so the link carries `U` of its capacity on average). The
//! paper's RED parameters are "similar to the setup in" RLI's, which does not publish them; the defaults
//! (limit 10 ms of service, thresholds at 1/4 and 3/4 of it, `max_p` 0.1, `w` 0.002) are this model's.
//!
//! ## Captures ([`capture_maple`])
//! Every IPv4/IPv6 TCP segment of a pcap/pcapng file (gzip read directly): its timestamp, its wire length
//! (the frame's original length) and a key from its 5-tuple and sequence/acknowledgement numbers, through
//! the same queue.

use super::ifpd::{flow_arrivals, normal, IfpdParams};
use super::packet::{for_each_segment, Decoder};
use golden::parser::descriptors::invariant_key;
use super::rng::{mix64, SplitMix64};
use std::collections::HashMap;
use std::path::Path;

/// Packet sizes: `(bytes, share)`; `0` is "uniform in 41..=1499".
pub const SIZE_MIX: [(u32, f64); 4] = [(40, 0.40), (576, 0.10), (1500, 0.35), (0, 0.15)];

/// One arriving packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    /// ns.
    pub ts: u64,
    pub bytes: u32,
    pub key: u128,
}

/// Parameters of the synthetic arrivals.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MapleTraffic {
    pub epochs: usize,
    pub packets_per_epoch: usize,
    /// σ of the log-normal rate modulation (0: none; see the module docs).
    pub burst_sigma: f64,
    /// Mean length of a modulation slot, ms.
    pub burst_slot_ms: f64,
}

impl Default for MapleTraffic {
    fn default() -> Self {
        MapleTraffic { epochs: 10, packets_per_epoch: 380_000, burst_sigma: 0.2, burst_slot_ms: 10.0 }
    }
}

/// The synthetic arrivals of `t` for `seed`, in time order, from 0 ns on.
pub fn synthetic_maple(t: &MapleTraffic, seed: u64) -> Result<Vec<Arrival>, String> {
    if !(1..=600).contains(&t.epochs) || !(1_000..=10_000_000).contains(&t.packets_per_epoch) {
        return Err(format!(
            "MAPLE traffic: {} epochs of {} packets (1..=600, 1000..=10^7)",
            t.epochs, t.packets_per_epoch
        ));
    }
    let p = IfpdParams {
        packets: t.epochs * t.packets_per_epoch,
        duration_s: t.epochs as f64,
        wrap: true,
        ..IfpdParams::default()
    };
    let mut flows = flow_arrivals(&p, seed)?;
    let mut rng = SplitMix64::new(mix64(seed ^ 0x4d41_504c));
    modulate(&mut flows, t.burst_sigma, t.burst_slot_ms * 1e6, &mut rng);
    let t0 = flows.first().map_or(0, |f| f.0);
    let mut ipid: HashMap<u128, u16> = HashMap::new();
    Ok(flows
        .into_iter()
        .map(|(ts, flow)| {
            let id = ipid.entry(flow).or_insert_with(|| mix64(flow as u64 ^ seed) as u16);
            *id = id.wrapping_add(1);
            let key = with_destination(flow >> 8) << 32 | (*id as u128) << 16 | (rng.next_u64() & 0xffff) as u128;
            Arrival { ts: ts - t0, bytes: packet_size(&mut rng), key }
        })
        .collect())
}

/// Destination hosts of the synthetic flows: log-uniform ranks over this many (Zipf with exponent ≈ 1).
pub const HOSTS: u64 = 1 << 20;
/// Destination /16 prefixes the hosts are spread over. Few, because the flow process is: at 380 k packets
/// per second its heavy-tailed flows number only ≈ 400 per 1 s epoch (≈ 1000 packets each; 7 % of them
/// with one packet in an epoch, where the paper's ISP trace has 46 %), so 128 prefixes give a /16 level
/// that groups a few hosts, as the paper's does.
pub const PREFIXES: u64 = 1 << 7;

/// A flow's 96 header bits (`src << 64 | dst << 32 | src_port << 16 | dst_port`) with its destination
/// address replaced by a host drawn from the flow (so all its packets agree): host rank
/// `⌊e^(U·ln HOSTS)⌋` (a few busy servers, a long tail seen once), placed in one of [`PREFIXES`] /16
/// prefixes by a hash of the rank, its low 16 bits another hash. Source addresses and ports stay
/// random: host and prefix aggregates (§5.4) then group flows as destination routes do.
pub fn with_destination(flow96: u128) -> u128 {
    let u = (mix64(flow96 as u64 ^ (flow96 >> 64) as u64 ^ 0x4453_5448) >> 11) as f64 / (1u64 << 53) as f64;
    let rank = ((u * (HOSTS as f64).ln()).exp() as u64).min(HOSTS);
    let prefix = mix64((mix64(rank) % PREFIXES) ^ 0x5052_4546) as u16;
    let dst = (prefix as u32) << 16 | mix64(rank ^ 0x484f_5354) as u16 as u32;
    flow96 & !(0xffff_ffffu128 << 32) | (dst as u128) << 32
}

/// The aggregate rate modulation: the trace's time is cut into slots (exponential lengths, mean `slot_ns`)
/// and every gap between packets in a slot is stretched by the slot's factor `e^(σ·N(0, 1))`; the result is
/// scaled back to the trace's span, so the mean rate is kept while the rate of 20 ms stretches varies
/// log-normally (microbursts above the link rate, lulls below). The mean of a slot's stretch is
/// `e^(σ²/2)`, not 1; the final scaling absorbs it.
fn modulate(arrivals: &mut [(u64, u128)], sigma: f64, slot_ns: f64, rng: &mut SplitMix64) {
    let (Some(&(first, _)), Some(&(last, _))) = (arrivals.first(), arrivals.last()) else { return };
    if sigma <= 0.0 || last == first {
        return;
    }
    let (mut prev, mut now, mut slot_end, mut g) = (first as f64, 0.0f64, first as f64, 1.0);
    let mut warped: Vec<f64> = Vec::with_capacity(arrivals.len());
    for &(ts, _) in arrivals.iter() {
        let ts = ts as f64;
        while ts >= slot_end {
            slot_end += -slot_ns * (1.0 - rng.next_f64()).ln();
            g = (sigma * normal(rng)).exp();
        }
        now += (ts - prev) * g;
        prev = ts;
        warped.push(now);
    }
    let scale = (last - first) as f64 / now.max(1.0);
    for (a, w) in arrivals.iter_mut().zip(warped) {
        a.0 = first + (w * scale) as u64;
    }
}

/// A size from [`SIZE_MIX`].
fn packet_size(rng: &mut SplitMix64) -> u32 {
    let mut u = rng.next_f64();
    for (b, share) in SIZE_MIX {
        if u < share {
            return if b == 0 { 41 + rng.below(1459) as u32 } else { b };
        }
        u -= share;
    }
    1500
}

/// Open-loop RED queue parameters.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RedParams {
    /// Service rate, bytes/s.
    pub rate: f64,
    /// Queue limit, bytes.
    pub limit: f64,
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    /// EWMA weight of the average queue.
    pub w: f64,
}

impl RedParams {
    /// The queue that serves `arrivals` at utilisation `u`, with a limit of `limit_ms` of service.
    pub fn for_utilization(arrivals: &[Arrival], u: f64, limit_ms: f64) -> Result<RedParams, String> {
        if !(u > 0.0 && u < 1.5) {
            return Err(format!("--utilization {u}: must be in (0, 1.5)"));
        }
        let span = match (arrivals.first(), arrivals.last()) {
            (Some(a), Some(b)) if b.ts > a.ts => (b.ts - a.ts) as f64 / 1e9,
            _ => return Err("a trace needs at least two packets at different times".into()),
        };
        let bytes: f64 = arrivals.iter().map(|a| a.bytes as f64).sum();
        let rate = bytes / span / u;
        let limit = rate * limit_ms / 1e3;
        Ok(RedParams { rate, limit, min_th: 0.25 * limit, max_th: 0.75 * limit, max_p: 0.1, w: 0.002 })
    }
}

/// What the queue did.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct QueueStats {
    pub arrivals: u64,
    pub dropped: u64,
    /// Bytes served / (rate · span).
    pub utilization: f64,
    pub mean_latency_us: f64,
}

/// The open-loop RED queue.
#[derive(Debug, Clone)]
pub struct RedQueue {
    pub p: RedParams,
    backlog: f64,
    avg: f64,
    count: i64,
    last_ns: u64,
    rng: SplitMix64,
}

impl RedQueue {
    pub fn new(p: RedParams, seed: u64) -> RedQueue {
        RedQueue { p, backlog: 0.0, avg: 0.0, count: -1, last_ns: 0, rng: SplitMix64::new(mix64(seed ^ 0x0052_4544)) }
    }

    /// One arrival at `ts` ns (non-decreasing): its latency in ns, or `None` if dropped.
    pub fn arrive(&mut self, ts: u64, bytes: u32) -> Option<u64> {
        let dt = ts.saturating_sub(self.last_ns) as f64 / 1e9;
        self.last_ns = self.last_ns.max(ts);
        let drained = dt * self.p.rate;
        if drained >= self.backlog {
            // Idle for part of the gap: the average decays as if small packets had arrived meanwhile.
            let idle = dt - self.backlog / self.p.rate;
            self.avg *= (1.0 - self.p.w).powf(idle * self.p.rate / 1000.0);
            self.backlog = 0.0;
        } else {
            self.backlog -= drained;
        }
        self.avg = (1.0 - self.p.w) * self.avg + self.p.w * self.backlog;
        let b = bytes as f64;
        let drop = if self.backlog + b > self.p.limit || self.avg >= self.p.max_th {
            true
        } else if self.avg >= self.p.min_th {
            self.count += 1;
            let pb = self.p.max_p * (self.avg - self.p.min_th) / (self.p.max_th - self.p.min_th);
            let pa = if self.count as f64 * pb >= 1.0 { 1.0 } else { pb / (1.0 - self.count as f64 * pb) };
            self.rng.next_f64() < pa
        } else {
            self.count = -1;
            false
        };
        if drop {
            self.count = 0;
            return None;
        }
        self.backlog += b;
        Some((self.backlog / self.p.rate * 1e9).round() as u64)
    }
}

/// A packet through the queue: its key and latency (ns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delayed {
    pub key: u128,
    pub latency: u32,
}

/// `arrivals` through the queue `p`, cut into epochs of `epoch_ns` from the first arrival: the delivered
/// packets of each epoch, and the queue's statistics.
pub fn through_queue(arrivals: &[Arrival], p: RedParams, epoch_ns: u64, seed: u64) -> (Vec<Vec<Delayed>>, QueueStats) {
    let mut q = RedQueue::new(p, seed);
    let t0 = arrivals.first().map_or(0, |a| a.ts);
    let mut epochs: Vec<Vec<Delayed>> = vec![];
    let (mut st, mut served, mut lat_sum) = (QueueStats::default(), 0.0, 0.0);
    for a in arrivals {
        st.arrivals += 1;
        let e = ((a.ts - t0) / epoch_ns) as usize;
        if epochs.len() <= e {
            epochs.resize_with(e + 1, Vec::new);
        }
        match q.arrive(a.ts, a.bytes) {
            Some(l) => {
                served += a.bytes as f64;
                lat_sum += l as f64;
                epochs[e].push(Delayed { key: a.key, latency: l.min(u32::MAX as u64) as u32 });
            }
            None => st.dropped += 1,
        }
    }
    let span = arrivals.last().map_or(0, |a| a.ts - t0) as f64 / 1e9;
    st.utilization = if span > 0.0 { served / (p.rate * span) } else { 0.0 };
    st.mean_latency_us = lat_sum / (st.arrivals - st.dropped).max(1) as f64 / 1e3;
    (epochs, st)
}

/// What reading a capture found.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct MapleCaptureStats {
    pub frames: u64,
    pub packets: u64,
    pub skipped: u64,
}

/// The TCP segments of a capture as arrivals (time-sorted): wire length, key = 5-tuple's addresses and
/// ports (96 bits) above `seq ^ ack.rotate_left(13) ^ ip_id << 16` (32 bits): the IPv4 identification tells
/// apart the pure ACKs and retransmissions that repeat sequence and acknowledgement numbers (the paper's key
/// holds the IP ID too; IPv6 has none).
pub fn capture_maple(path: &Path, decoder: &Decoder) -> Result<(Vec<Arrival>, MapleCaptureStats), String> {
    let name = path.display();
    let (mut out, mut st) = (Vec::new(), MapleCaptureStats::default());
    st.frames = for_each_segment(path, decoder, |_, ts, wire, seg| {
        let (Some(ts), Ok(seg)) = (ts, seg) else {
            st.skipped += 1;
            return;
        };
        st.packets += 1;
        out.push(Arrival { ts, bytes: wire.max(1), key: invariant_key(&seg) });
    })?;
    if out.len() < 2 {
        return Err(format!("{name}: fewer than two TCP packets ({} frames)", st.frames));
    }
    out.sort_by_key(|a| a.ts);
    let t0 = out[0].ts;
    out.iter_mut().for_each(|a| a.ts -= t0);
    Ok((out, st))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_arrivals_are_stationary_keyed_and_sized() {
        let t = MapleTraffic { epochs: 4, packets_per_epoch: 20_000, ..MapleTraffic::default() };
        let a = synthetic_maple(&t, 1).unwrap();
        assert_eq!(a, synthetic_maple(&t, 1).unwrap());
        assert!(a.windows(2).all(|w| w[0].ts <= w[1].ts) && a.last().unwrap().ts < 4_000_000_000);
        // Wrapping makes every epoch as busy as the others (within 10 %).
        let per: Vec<usize> = (0..4).map(|e| a.iter().filter(|x| x.ts / 1_000_000_000 == e).count()).collect();
        let mean = a.len() as f64 / 4.0;
        assert!(per.iter().all(|&n| (n as f64 - mean).abs() < 0.1 * mean), "{per:?}");
        let keys: std::collections::HashSet<u128> = a.iter().map(|x| x.key).collect();
        assert!(keys.len() as f64 > 0.999 * a.len() as f64);
        // Destinations: all packets of a flow agree; popular hosts take several flows, prefixes several hosts.
        let layout = crate::maple::aggregate::KeyLayout::maple();
        let mut dst_of: HashMap<u128, u128> = HashMap::new();
        for x in &a {
            let d = layout.dst.get(x.key);
            assert_eq!(*dst_of.entry(layout.flow(x.key)).or_insert(d), d);
        }
        let hosts: std::collections::HashSet<u128> = dst_of.values().copied().collect();
        let prefixes: std::collections::HashSet<u128> = hosts.iter().map(|h| h >> 16).collect();
        assert!(hosts.len() < dst_of.len() && prefixes.len() < hosts.len(), "{} {} {}", dst_of.len(), hosts.len(), prefixes.len());
        let mean_size = a.iter().map(|x| x.bytes as f64).sum::<f64>() / a.len() as f64;
        assert!((650.0..780.0).contains(&mean_size), "{mean_size}");
        assert!(synthetic_maple(&MapleTraffic { epochs: 0, ..t }, 1).is_err());
    }

    #[test]
    fn the_queue_serves_at_its_rate_and_drops_at_its_limit() {
        // 1000 B every 1 µs into a 500 MB/s server: the backlog grows by 500 B per µs until the limit.
        let p = RedParams { rate: 5e8, limit: 10_000.0, min_th: 1e9, max_th: 2e9, max_p: 0.1, w: 0.002 };
        let mut q = RedQueue::new(p, 1);
        assert_eq!(q.arrive(0, 1000), Some(2000), "its own transmission: 2 µs");
        assert_eq!(q.arrive(1000, 1000), Some(3000));
        let lat: Vec<Option<u64>> = (2..40).map(|i| q.arrive(i * 1000, 1000)).collect();
        assert!(lat.iter().any(|l| l.is_none()), "tail drops at the limit");
        assert!(lat.iter().flatten().all(|&l| l <= 20_000));
        // After a long idle period the queue is empty.
        assert_eq!(q.arrive(1_000_000_000, 500), Some(1000));
    }

    #[test]
    fn utilization_is_what_was_asked() {
        let t = MapleTraffic { epochs: 2, packets_per_epoch: 20_000, ..MapleTraffic::default() };
        let a = synthetic_maple(&t, 2).unwrap();
        for u in [0.53, 0.85] {
            let p = RedParams::for_utilization(&a, u, 10.0).unwrap();
            let (epochs, st) = through_queue(&a, p, 1_000_000_000, 3);
            assert_eq!(epochs.len(), 2);
            assert!((st.utilization - u).abs() < 0.03, "{st:?}");
            assert!(st.dropped as f64 <= 0.05 * st.arrivals as f64, "{st:?}");
        }
        assert!(RedParams::for_utilization(&a, 0.0, 2.0).is_err());
        assert!(RedParams::for_utilization(&a[..1], 0.5, 2.0).is_err());
    }
}
