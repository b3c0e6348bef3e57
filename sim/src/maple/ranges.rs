//! Query bandwidth of IP-ID range queries (§4 "Query using flow key and IP identifier", §5.4, Fig. 8(b)).
//!
//! A client that wants the latencies of a flow's packets in an epoch can send one query per packet — the
//! flow key and the packet's IP ID — or, because most stacks number a flow's packets consecutively, one
//! message with the flow key and the runs of consecutive IP IDs it covers, `(fk, [id_i1, id_i2], [id_i3,
//! id_i4], …)`; the router then looks up every ID of every range. The paper measures the ratio of the two
//! messages' sizes per flow and epoch against the flow's size (bar: mean, whisker: 75th percentile), on
//! traces with their original IP IDs.
//!
//! Sizes (the paper gives none; chosen here and used for both messages): a flow key is the IPv4 5-tuple,
//! [`FLOW_KEY_BYTES`] = 13; a per-packet query is key + IP ID (15 bytes); a range message is one key and
//! [`RANGE_BYTES`] = 4 per range (first and last ID). A flow's runs are taken over its **distinct** IP IDs
//! of the epoch, sorted, consecutive modulo 2^16 (a run may wrap from 65535 to 0); a repeated ID (a
//! retransmission that kept it) is covered by its range and costs nothing extra. Epochs are the store's
//! 1 s epochs of arrival time.
//!
//! The synthetic traffic numbers every flow's packets consecutively (`traffic::maple`), so its ratio is
//! the ideal `(13 + 4)/(15·n)`; a capture shows what real stacks do (the shared capture's Linux senders).

use super::evaluate::quantile;
use crate::plot::{charts_figure, write_figure, Chart, Scale, Series, Ticks};
use crate::traffic::keys::five_tuple_key;
use crate::traffic::maple::{synthetic_maple, MapleTraffic};
use crate::traffic::packet::for_each_segment;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use synth::table::{Align, Table};

/// Bytes of a flow key in a query (IPv4 addresses, ports, protocol).
pub const FLOW_KEY_BYTES: usize = 13;
/// Bytes of an IP ID.
pub const IPID_BYTES: usize = 2;
/// Bytes of one range of a range message (first and last IP ID).
pub const RANGE_BYTES: usize = 2 * IPID_BYTES;
/// Flow-size bins (packets in the epoch): lower bounds; the last bin is open.
pub const BINS: [usize; 5] = [1, 2, 11, 101, 1001];

/// One packet as the client knows it: time (ns), flow key, IP ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet {
    pub ts: u64,
    pub flow: u128,
    pub ipid: u16,
}

/// Runs of consecutive values (modulo 2^16) among `ids` (sorted and deduplicated in place).
pub fn runs(ids: &mut Vec<u16>) -> usize {
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return 0;
    }
    let breaks = ids.windows(2).filter(|w| w[1] != w[0] + 1).count();
    // 65535 and 0 both present: the last run continues into the first.
    let wrap = ids.len() > 1 && ids[0] == 0 && ids[ids.len() - 1] == u16::MAX;
    breaks + 1 - wrap as usize
}

/// One flow in one epoch: its packets and the ranges its IP IDs form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FlowQuery {
    pub packets: usize,
    pub ranges: usize,
}

impl FlowQuery {
    pub fn packet_bytes(&self) -> usize {
        self.packets * (FLOW_KEY_BYTES + IPID_BYTES)
    }
    pub fn range_bytes(&self) -> usize {
        FLOW_KEY_BYTES + self.ranges * RANGE_BYTES
    }
    /// Range message over per-packet queries.
    pub fn ratio(&self) -> f64 {
        self.range_bytes() as f64 / self.packet_bytes() as f64
    }
}

/// Every (epoch, flow) of `packets` (any order), epochs of `epoch_ns` from the first packet.
pub fn flow_queries(packets: &[Packet], epoch_ns: u64) -> Vec<FlowQuery> {
    let t0 = packets.iter().map(|p| p.ts).min().unwrap_or(0);
    let mut ids: HashMap<(u64, u128), (usize, Vec<u16>)> = HashMap::new();
    for p in packets {
        let e = ids.entry(((p.ts - t0) / epoch_ns.max(1), p.flow)).or_default();
        e.0 += 1;
        e.1.push(p.ipid);
    }
    let mut out: Vec<FlowQuery> = ids.into_values().map(|(n, mut v)| FlowQuery { packets: n, ranges: runs(&mut v) }).collect();
    out.sort_by_key(|q| (q.packets, q.ranges));
    out
}

/// One flow-size bin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    /// Packets per flow and epoch: `lo..=hi` (`hi` None: open).
    pub lo: usize,
    pub hi: Option<usize>,
    pub flows: usize,
    pub mean_ratio: f64,
    pub p75_ratio: f64,
    /// Sums over the bin's flows.
    pub packet_bytes: u64,
    pub range_bytes: u64,
}

/// The [`BINS`] of `flows` (empty bins included, with zero flows).
pub fn bins(flows: &[FlowQuery]) -> Vec<Bin> {
    BINS.iter()
        .enumerate()
        .map(|(i, &lo)| {
            let hi = BINS.get(i + 1).map(|&n| n - 1);
            let inside: Vec<&FlowQuery> =
                flows.iter().filter(|q| q.packets >= lo && hi.is_none_or(|h| q.packets <= h)).collect();
            let mut r: Vec<f64> = inside.iter().map(|q| q.ratio()).collect();
            r.sort_by(f64::total_cmp);
            let of = |f: fn(&FlowQuery) -> usize| inside.iter().map(|q| f(q) as u64).sum();
            Bin {
                lo,
                hi,
                flows: r.len(),
                mean_ratio: if r.is_empty() { 0.0 } else { r.iter().sum::<f64>() / r.len() as f64 },
                p75_ratio: quantile(&r, 0.75).unwrap_or(0.0),
                packet_bytes: of(FlowQuery::packet_bytes),
                range_bytes: of(FlowQuery::range_bytes),
            }
        })
        .collect()
}

/// The packets of a capture's TCP segments (IPv4 identification; IPv6 segments carry none and are skipped),
/// and the segments skipped.
pub fn capture_packets(path: &Path) -> Result<(Vec<Packet>, u64), String> {
    let (mut out, mut skipped) = (vec![], 0u64);
    for_each_segment(path, &Default::default(), |_, ts, _, seg| match (ts, seg) {
        (Some(ts), Ok(s)) if matches!(s.addrs, crate::traffic::packet::Addrs::V4 { .. }) => {
            out.push(Packet { ts, flow: five_tuple_key(s.addrs, s.src_port, s.dst_port, 6), ipid: s.ip_id })
        }
        _ => skipped += 1,
    })?;
    if out.is_empty() {
        return Err(format!("{}: no IPv4 TCP segments", path.display()));
    }
    Ok((out, skipped))
}

/// The synthetic MAPLE traffic's packets (flow = the key's addresses and ports, the IP ID above the payload
/// bits: `traffic::maple`'s key layout).
pub fn synthetic_packets(t: &MapleTraffic, seed: u64) -> Result<Vec<Packet>, String> {
    Ok(synthetic_maple(t, seed)?
        .into_iter()
        .map(|a| Packet { ts: a.ts, flow: a.key >> 32, ipid: (a.key >> 16) as u16 })
        .collect())
}

#[derive(clap::Args)]
#[command(
    about = "IP-ID range queries against per-packet queries (§4, Fig. 8(b)): per flow and 1 s epoch, the size \
             of one message with the flow key and the runs of consecutive IP IDs over the size of one query \
             per packet (13-byte key + 2-byte ID each; 4 bytes per range), by flow size: mean and 75th \
             percentile",
    after_help = "Examples:\n  netmeas query maple-ranges --trace ../shared/captures/multipath-tcp-A.pcap.gz --plot fig8b.svg\n  \
                  netmeas query maple-ranges --trace synthetic --json"
)]
pub struct RangeArgs {
    /// A capture (pcap/pcapng, .gz read directly: its IPv4 TCP segments with their IP IDs), or `synthetic`
    /// (the MAPLE traffic, whose flows number their packets consecutively: the ideal case).
    #[arg(long)]
    trace: String,
    /// Epoch length in seconds.
    #[arg(long, default_value_t = 1.0)]
    epoch_s: f64,
    /// Synthetic: epochs and seed.
    #[arg(long, default_value_t = 4)]
    epochs: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One JSON document: `bins` (lo, hi, flows, mean_ratio, p75_ratio, byte sums) and the totals.
    #[arg(long)]
    json: bool,
    /// Draw the ratios against flow size to FILE.svg or FILE.png.
    #[arg(long)]
    plot: Option<PathBuf>,
}

pub fn run(a: &RangeArgs) -> Result<(), String> {
    crate::plot::Format::check_option(&a.plot)?;
    if !(a.epoch_s > 0.0 && a.epoch_s <= 3600.0) {
        return Err(format!("--epoch-s {}: must be in (0, 3600]", a.epoch_s));
    }
    let (packets, what) = if a.trace == "synthetic" {
        let t = MapleTraffic { epochs: a.epochs.max(1), ..MapleTraffic::default() };
        (synthetic_packets(&t, a.seed)?, format!("synthetic: {} epochs, seed {}", t.epochs, a.seed))
    } else {
        let (p, skipped) = capture_packets(Path::new(&a.trace))?;
        let what = format!("{}: {} IPv4 TCP segments ({skipped} other frames skipped)", a.trace, p.len());
        (p, what)
    };
    let flows = flow_queries(&packets, (a.epoch_s * 1e9) as u64);
    let bins = bins(&flows);
    let (pb, rb): (u64, u64) = (bins.iter().map(|b| b.packet_bytes).sum(), bins.iter().map(|b| b.range_bytes).sum());
    let name = |b: &Bin| b.hi.map_or(format!("> {}", b.lo - 1), |h| if h == b.lo { h.to_string() } else { format!("{}–{h}", b.lo) });
    if a.json {
        let doc = serde_json::json!({
            "trace": what, "epoch_s": a.epoch_s, "flows": flows.len(), "packets": packets.len(),
            "sizes": { "flow_key": FLOW_KEY_BYTES, "ipid": IPID_BYTES, "range": RANGE_BYTES },
            "bins": bins, "packet_bytes": pb, "range_bytes": rb, "total_ratio": rb as f64 / pb.max(1) as f64,
        });
        println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?);
    } else {
        println!("{what}; {} flows × epochs of {} s", flows.len(), a.epoch_s);
        let mut t = Table::new(&[
            ("packets per flow", Align::Left),
            ("flows", Align::Right),
            ("mean ratio", Align::Right),
            ("p75 ratio", Align::Right),
            ("bytes: per packet", Align::Right),
            ("ranges", Align::Right),
        ]);
        for b in &bins {
            t.row(vec![
                name(b).into(),
                b.flows.to_string().into(),
                format!("{:.4}", b.mean_ratio).into(),
                format!("{:.4}", b.p75_ratio).into(),
                b.packet_bytes.to_string().into(),
                b.range_bytes.to_string().into(),
            ]);
        }
        print!("{}", t.text());
        println!(
            "(ratio: range message / per-packet queries per flow and epoch; all flows together {:.4}, {:.1}× less)",
            rb as f64 / pb.max(1) as f64,
            pb as f64 / rb.max(1) as f64
        );
    }
    if let Some(p) = &a.plot {
        let at = |f: fn(&Bin) -> f64| -> Vec<(f64, f64)> {
            bins.iter().filter(|b| b.flows > 0).map(|b| (b.lo as f64, f(b))).collect()
        };
        let series = |label: &str, points| Series { label: label.into(), points, markers: true, ..Series::default() };
        let chart = Chart {
            title: "Fig. 8(b): IP-ID range queries".into(),
            x_label: "packets per flow and epoch (bin start)".into(),
            y_label: "range / per-packet bytes".into(),
            x_range: (1.0, 1e4),
            y_range: (1e-4, 2.0),
            x_scale: Scale::Log10,
            y_scale: Scale::Log10,
            x_ticks: Ticks::Plain,
            series: vec![series("mean", at(|b| b.mean_ratio)), series("75th percentile", at(|b| b.p75_ratio))],
            guides: vec![],
        };
        let source = Path::new(&a.trace).file_name().map_or(a.trace.clone(), |f| f.to_string_lossy().into_owned());
        write_figure(p, &charts_figure(&format!("Query bandwidth: {source}"), &[chart], 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_count_consecutive_ids_with_wrap_and_repeats() {
        assert_eq!(runs(&mut vec![]), 0);
        assert_eq!(runs(&mut vec![7]), 1);
        assert_eq!(runs(&mut vec![5, 3, 4, 4, 9]), 2, "3..=5 and 9; the repeated 4 costs nothing");
        assert_eq!(runs(&mut vec![65534, 65535, 0, 1, 100]), 2, "a run may wrap");
        assert_eq!(runs(&mut vec![0, 65535]), 1);
        assert_eq!(runs(&mut vec![0, 2, 4]), 3);
    }

    #[test]
    fn flows_split_by_epoch_and_bin_by_size() {
        let p = |ts, flow, ipid| Packet { ts, flow, ipid };
        // Flow 1: 12 consecutive IDs in epoch 0 (one range), then 1 packet in epoch 1; flow 2: 3 scattered.
        let mut v: Vec<Packet> = (0..12).map(|i| p(i * 10, 1, 100 + i as u16)).collect();
        v.push(p(1_500, 1, 500));
        v.extend([p(5, 2, 1), p(6, 2, 10), p(7, 2, 20)]);
        let q = flow_queries(&v, 1_000);
        assert_eq!(q, vec![
            FlowQuery { packets: 1, ranges: 1 },
            FlowQuery { packets: 3, ranges: 3 },
            FlowQuery { packets: 12, ranges: 1 },
        ]);
        assert!((q[2].ratio() - 17.0 / 180.0).abs() < 1e-12);
        assert!((q[1].ratio() - 25.0 / 45.0).abs() < 1e-12);
        let b = bins(&q);
        assert_eq!(b.iter().map(|b| b.flows).collect::<Vec<_>>(), vec![1, 1, 1, 0, 0]);
        assert_eq!((b[2].lo, b[2].hi, b[4].hi), (11, Some(100), None));
        assert!((b[0].mean_ratio - 17.0 / 15.0).abs() < 1e-12, "one packet: the range message is larger");
        assert_eq!((b[2].packet_bytes, b[2].range_bytes), (180, 17));
    }

    #[test]
    fn synthetic_flows_are_one_range_per_epoch() {
        let t = MapleTraffic { epochs: 2, packets_per_epoch: 20_000, ..MapleTraffic::default() };
        let q = flow_queries(&synthetic_packets(&t, 3).unwrap(), 1_000_000_000);
        assert!(q.len() > 20, "{} flows", q.len());
        // Per-flow counters: one range, except where a flow's 16-bit counter passed its start twice (never here).
        assert!(q.iter().all(|f| f.ranges == 1), "{:?}", q.iter().find(|f| f.ranges != 1));
    }
}
