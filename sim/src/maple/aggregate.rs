//! §5.4's aggregates: which packets of an epoch form a sub-flow, a flow, a host or a /16 prefix (read from
//! the packet key through its [`KeyLayout`]), and the average latency of each group as the store estimates
//! it against the true average.
//!
//! - **packet**: every packet alone (the reference curve of Fig. 8(a));
//! - **sub-flow**: 10 consecutive packets (arrival order in the epoch) of a flow with **more than 10**
//!   packets in the epoch; a last chunk of fewer than 10 is not a sub-flow (§5.4: "10 consecutive packets
//!   within the same flow key, among large flows whose size is more than 10 packets");
//! - **flow**: the packets of one 5-tuple (the key's addresses and ports; the protocol is the layout's one);
//! - **host**: the packets toward one **destination** address (the choice here: the paper does not say
//!   which end; the destination is what a router's routes and the /16 level aggregate on);
//! - **prefix16**: the packets toward one destination /16.
//!
//! Groups never span epochs (the paper aggregates "with packets within a given epoch"). A group's estimate
//! is the mean of the answered packets' estimates (refined latencies; a No-Match, or a Multi-Match with the
//! `none` tie-break, has none and is left out); its truth is the mean true latency of all its packets; the
//! relative error is `|estimate − truth| / truth`. A group with no answered packet has no estimate.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Packets of a sub-flow.
pub const SUBFLOW: usize = 10;

/// An aggregation level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Level {
    Packet,
    Subflow,
    Flow,
    Host,
    Prefix16,
}

impl Level {
    pub const ALL: [Level; 5] = [Level::Packet, Level::Subflow, Level::Flow, Level::Host, Level::Prefix16];
    pub fn name(self) -> &'static str {
        match self {
            Level::Packet => "packet",
            Level::Subflow => "subflow",
            Level::Flow => "flow",
            Level::Host => "host",
            Level::Prefix16 => "prefix16",
        }
    }
    pub fn by_name(s: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == s)
    }
}

/// A field of the key: `bits` bits from bit `shift` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub shift: u32,
    pub bits: u32,
}

impl Field {
    pub fn get(self, key: u128) -> u128 {
        key >> self.shift & ((1u128 << self.bits) - 1)
    }
    fn put(self, v: u128) -> u128 {
        (v & ((1u128 << self.bits) - 1)) << self.shift
    }
}

/// Where a run's keys hold the header fields (saved with the epochs so a query can name flows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyLayout {
    pub key_bits: usize,
    /// IPv4 source and destination addresses (an IPv6 capture's key holds a 64-bit hash of both instead).
    pub src: Field,
    pub dst: Field,
    pub src_port: Field,
    pub dst_port: Field,
    /// The per-packet part: IP ID and 16 payload bits (synthetic), `seq ^ ack ^ ip_id` (captures).
    pub ident: Field,
    /// The one IP protocol the keys come from (6: TCP; the key does not hold it).
    pub protocol: u8,
}

impl KeyLayout {
    /// The keys of `traffic::maple` (synthetic and captures): `src 32 | dst 32 | sport 16 | dport 16 |
    /// ident 32`, TCP.
    pub fn maple() -> KeyLayout {
        let f = |shift, bits| Field { shift, bits };
        KeyLayout {
            key_bits: 128,
            src: f(96, 32),
            dst: f(64, 32),
            src_port: f(48, 16),
            dst_port: f(32, 16),
            ident: f(0, 32),
            protocol: 6,
        }
    }
    /// The flow of a key: its address and port fields, in place (the ident bits cleared).
    pub fn flow(&self, key: u128) -> u128 {
        [self.src, self.dst, self.src_port, self.dst_port].iter().map(|f| f.put(f.get(key))).fold(0, |a, b| a | b)
    }
    /// The flow of a 5-tuple, as [`Self::flow`] gives it for the flow's keys (`None`: another protocol).
    pub fn flow_of(&self, t: &FiveTuple) -> Option<u128> {
        (t.protocol == self.protocol).then(|| {
            self.src.put(t.src as u128)
                | self.dst.put(t.dst as u128)
                | self.src_port.put(t.src_port as u128)
                | self.dst_port.put(t.dst_port as u128)
        })
    }
    /// The group id of a key at `level` (the packet level: the key itself).
    pub fn group(&self, level: Level, key: u128) -> u128 {
        match level {
            Level::Packet => key,
            Level::Subflow | Level::Flow => self.flow(key),
            Level::Host => self.dst.get(key),
            Level::Prefix16 => self.dst.get(key) >> self.dst.bits.saturating_sub(16),
        }
    }
    /// A readable name of group `id` at `level` (`part`: the sub-flow's number in its flow).
    pub fn label(&self, level: Level, id: u128, part: usize) -> String {
        let ip = |v: u128| std::net::Ipv4Addr::from(v as u32).to_string();
        let flow = |k: u128| {
            let g = |f: Field| f.get(k);
            format!("{}:{}-{}:{}", ip(g(self.src)), g(self.src_port), ip(g(self.dst)), g(self.dst_port))
        };
        match level {
            Level::Packet => format!("0x{id:032x}"),
            Level::Subflow => format!("{} #{part}", flow(id)),
            Level::Flow => flow(id),
            Level::Host => ip(id),
            Level::Prefix16 => format!("{}/16", ip(id << 16)),
        }
    }
}

/// A 5-tuple as `SRC:PORT-DST:PORT/PROTO` names it (IPv4; PROTO `tcp`, `udp` or a number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FiveTuple {
    pub src: u32,
    pub src_port: u16,
    pub dst: u32,
    pub dst_port: u16,
    pub protocol: u8,
}

impl std::str::FromStr for FiveTuple {
    type Err = String;
    fn from_str(s: &str) -> Result<FiveTuple, String> {
        let bad = || format!("--flow {s}: expected SRC:PORT-DST:PORT/PROTO, e.g. 10.0.0.1:443-10.0.0.2:5000/tcp");
        let (ends, proto) = s.rsplit_once('/').ok_or_else(bad)?;
        let protocol = match proto.to_ascii_lowercase().as_str() {
            "tcp" => 6,
            "udp" => 17,
            p => p.parse().map_err(|_| bad())?,
        };
        let (a, b) = ends.split_once('-').ok_or_else(bad)?;
        let end = |e: &str| -> Result<(u32, u16), String> {
            let (ip, port) = e.rsplit_once(':').ok_or_else(bad)?;
            let ip: std::net::Ipv4Addr = ip.parse().map_err(|_| bad())?;
            Ok((ip.into(), port.parse().map_err(|_| bad())?))
        };
        let ((src, src_port), (dst, dst_port)) = (end(a)?, end(b)?);
        Ok(FiveTuple { src, src_port, dst, dst_port, protocol })
    }
}

/// One group of an epoch's packets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub id: u128,
    /// The sub-flow's number within its flow (0 at the other levels).
    pub part: usize,
    /// Indices into the epoch's packets, in arrival order.
    pub members: Vec<usize>,
}

/// The groups of an epoch's `keys` (arrival order) at `level`, in order of their first packet.
pub fn groups(layout: &KeyLayout, level: Level, keys: &[u128]) -> Vec<Group> {
    if level == Level::Packet {
        return keys.iter().enumerate().map(|(i, &k)| Group { id: k, part: 0, members: vec![i] }).collect();
    }
    let mut at: HashMap<u128, usize> = HashMap::new();
    let mut out: Vec<Group> = vec![];
    for (i, &k) in keys.iter().enumerate() {
        let id = layout.group(level, k);
        let g = *at.entry(id).or_insert_with(|| {
            out.push(Group { id, part: 0, members: vec![] });
            out.len() - 1
        });
        out[g].members.push(i);
    }
    if level != Level::Subflow {
        return out;
    }
    out.into_iter()
        .filter(|f| f.members.len() > SUBFLOW)
        .flat_map(|f| {
            let id = f.id;
            let chunks: Vec<Vec<usize>> = f.members.chunks_exact(SUBFLOW).map(<[usize]>::to_vec).collect();
            chunks.into_iter().enumerate().map(move |(part, members)| Group { id, part, members })
        })
        .collect()
}

/// A group's average latency, estimated and true (ns).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GroupStat {
    pub packets: usize,
    pub answered: usize,
    pub estimate: Option<f64>,
    pub truth: f64,
}

impl GroupStat {
    /// `|estimate − truth| / truth` (`None` without an estimate or with a zero truth).
    pub fn relative_error(&self) -> Option<f64> {
        let e = self.estimate?;
        (self.truth > 0.0).then(|| (e - self.truth).abs() / self.truth)
    }
    pub fn absolute_error(&self) -> Option<f64> {
        Some((self.estimate? - self.truth).abs())
    }
}

/// The average of `g` from the packets' true latencies and estimates (indexed as the epoch's packets).
pub fn stat(g: &Group, truth: &[u32], estimate: &[Option<u32>]) -> GroupStat {
    let t: f64 = g.members.iter().map(|&i| truth[i] as f64).sum();
    let answered: Vec<f64> = g.members.iter().filter_map(|&i| estimate[i]).map(|v| v as f64).collect();
    GroupStat {
        packets: g.members.len(),
        answered: answered.len(),
        estimate: (!answered.is_empty()).then(|| answered.iter().sum::<f64>() / answered.len() as f64),
        truth: t / g.members.len().max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key of flow (src, sport, dst, dport) with ident `id`.
    fn key(src: u32, sport: u16, dst: u32, dport: u16, id: u32) -> u128 {
        (src as u128) << 96 | (dst as u128) << 64 | (sport as u128) << 48 | (dport as u128) << 32 | id as u128
    }

    #[test]
    fn groups_follow_the_key_fields_and_subflows_need_more_than_ten_packets() {
        let l = KeyLayout::maple();
        let (a, b) = (0x0a00_0001, 0x0a01_0002); // 10.0.0.1, 10.1.0.2
        let c = 0x0a01_0003; // 10.1.0.3: b's /16, another host
                             // Flow x: 23 packets to b; flow y: 11 packets to b (another source port); flow z: 10 packets to c.
        let mut keys = vec![];
        for i in 0..23 {
            keys.push(key(a, 1, b, 80, i));
            if i < 11 {
                keys.push(key(a, 2, b, 80, 100 + i));
            }
            if i < 10 {
                keys.push(key(a, 1, c, 80, 200 + i));
            }
        }
        let count = |lv| groups(&l, lv, &keys).len();
        assert_eq!([Level::Packet, Level::Flow, Level::Host, Level::Prefix16].map(count), [44, 3, 2, 1]);
        let sub = groups(&l, Level::Subflow, &keys);
        // x: 2 whole sub-flows (its last 3 packets are none), y: 1, z (exactly 10 packets): none.
        assert_eq!(sub.iter().map(|g| (g.part, g.members.len())).collect::<Vec<_>>(), [(0, 10), (1, 10), (0, 10)]);
        assert_eq!(
            sub[1].members[0],
            keys.iter().enumerate().filter(|(_, &k)| l.flow(k) == sub[0].id).nth(10).unwrap().0
        );
        assert!(sub.iter().all(|g| g.members.iter().all(|&i| l.flow(keys[i]) == g.id)));
        let t: FiveTuple = "10.0.0.1:2-10.1.0.2:80/tcp".parse().unwrap();
        assert_eq!(l.flow_of(&t), Some(l.flow(keys[1])));
        assert_eq!(l.flow_of(&FiveTuple { protocol: 17, ..t }), None);
        assert_eq!(l.label(Level::Flow, l.flow(keys[1]), 0), "10.0.0.1:2-10.1.0.2:80");
        assert_eq!(l.label(Level::Prefix16, l.group(Level::Prefix16, keys[1]), 0), "10.1.0.0/16");
        for bad in ["10.0.0.1:2-10.1.0.2:80", "10.0.0.1-10.1.0.2:80/tcp", "10.0.0.300:2-10.1.0.2:80/6", "x/y"] {
            assert!(bad.parse::<FiveTuple>().unwrap_err().contains("SRC:PORT"), "{bad}");
        }
    }

    #[test]
    fn a_group_averages_its_answered_estimates_against_all_true_latencies() {
        let g = Group { id: 0, part: 0, members: vec![0, 2, 3] };
        let truth = [100, 999, 200, 300];
        // Estimates 110 and 250 answered, packet 3 unanswered: (110 + 250)/2 = 180 against 200 → 10 %.
        let s = stat(&g, &truth, &[Some(110), None, Some(250), None]);
        assert_eq!((s.packets, s.answered, s.estimate, s.truth), (3, 2, Some(180.0), 200.0));
        assert!((s.relative_error().unwrap() - 0.1).abs() < 1e-12);
        assert_eq!(s.absolute_error(), Some(20.0));
        // Errors cancel in an aggregate: packets off by +50 and −50 give an exact average.
        let s = stat(&Group { members: vec![0, 1], ..g.clone() }, &[100, 200], &[Some(150), Some(150)]);
        assert_eq!(s.relative_error(), Some(0.0));
        assert_eq!(stat(&g, &truth, &[None; 4]).relative_error(), None);
    }
}
