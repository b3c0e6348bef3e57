//! Per core, the descriptor a parsed TCP segment gives: the definitions the software path
//! (`sim::traffic`) has always used, now written once here for the hardware parser and the capture reader.
//!
//! - **fridge** ([`fridge`], [`TcpMode`]). `DataAck`: a segment with payload is a *request* whose id is its
//!   flow and the acknowledgement number that acknowledges exactly its end, `E = seq + payload_len (+1 if
//!   SYN) (+1 if FIN)` mod 2^32; every segment with ACK is a *response* with the reverse flow and its ack
//!   number. `SynSynAck`: a SYN without ACK is a request with `E = isn + 1`, a SYN-ACK a response. A
//!   segment that is both (data carrying an ACK) gives **two descriptors with its timestamp, the response
//!   first, then the request**: it acknowledges older data before it sends its own, and a core that sees
//!   the request first could never pair it with this very response anyway (different directions). Id
//!   layout: [`flow_id`].
//! - **FineComb, MAPLE** ([`finecomb`], [`maple`]): the invariant-field key [`invariant_key`] — the flow's
//!   addresses and ports (96 bits) above `seq ^ ack.rotl(13) ^ ip_id << 16` (32 bits), which the network
//!   does not change between two measurement points (TTL and checksums are left out).
//! - **IFPD** ([`ifpd`]): the 5-tuple key [`five_tuple_key`] and the timestamp.
//! - **reordering** ([`reordering`]): prefix address (the IPv4 destination), flow (5-tuple key), sequence
//!   number, timestamp, data flag (payload length > 0).
//! - **heavy hitters**: the 5-tuple key [`flow_key`] masked to the core's key width (sim::traffic::keys).
//!
//! IFPD and reordering take IPv4 segments only (`None` for IPv6), as the software path always has.
//!
//! **Software-only filters (ground truth, not core input).** What hardware cannot do, a core's input must
//! not depend on. The capture loaders of `sim::traffic` give a core every frame's descriptors in file order,
//! as the parser gives them; the exact filters the hardware has not — the first request of each id
//! (retransmissions, kept out with a set of every id seen) and time order for a capture that is not in it
//! — shape only the ground truth (`sim::traffic::tcp`, `sim::traffic::ifpd::true_ifpd`). MAPLE's capture
//! path sorts by time because its packets first go through a simulated queue whose departures are the
//! core's input. The functions here are per frame and keep neither state nor order.
//!
//! **IPv6 addresses in 64 bits.** The 64 address bits of [`flow_id`] and [`five_tuple_key`] are, for
//! IPv6, an H3 fold of both addresses ([`addr_bits`]): XOR trees only, the house's hash ([`XorHash`],
//! the RTL's `HashUnit`), so the descriptor stage after the parser (`super::desc`, `hdl::parser::desc`)
//! computes exactly this key.

use super::{flags, Addrs, TcpSegment, PROTO_TCP};
use crate::common::hash::{HashKind, XorHash};
use crate::fridge::{Descriptor as FridgeDescriptor, PacketKind};
use std::sync::OnceLock;

/// How TCP segments become fridge requests and responses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TcpMode {
    /// Data segment → the ACK acknowledging exactly its end (the paper's real-trace setup).
    #[default]
    DataAck,
    /// SYN → SYN-ACK with ack = isn + 1.
    SynSynAck,
}

/// H3 matrix seed of the IPv6 address fold: disjoint from the per-row seeds (0, 1, …) of the multi-row
/// cores' index hashes.
pub const IPV6_FOLD_SEED: u64 = 0x6e6d_0000;

/// The 128 → 64-bit H3 hash `H` of the IPv6 fold ([`addr_bits`]).
pub fn ipv6_fold() -> &'static XorHash {
    static FOLD: OnceLock<XorHash> = OnceLock::new();
    FOLD.get_or_init(|| {
        XorHash::new(HashKind::H3Seeded { out_bits: 64, seed: IPV6_FOLD_SEED }, 128).expect("H3 128 → 64")
    })
}

/// The 64 address bits of the keys: IPv4 `src(32) | dst(32)`; IPv6 `H(src) ^ rotl(H(dst), 32)` with `H`
/// the H3 hash of [`ipv6_fold`] (addresses as 128-bit big-endian numbers). In both, the reverse
/// direction's bits are the forward's with their halves swapped — `addr_bits(a.reversed()) ==
/// addr_bits(a).rotate_left(32)` —, so hardware folds each address once per packet (two hash units) and
/// gets both directions' keys (a fridge response's id is the reverse direction's) by wiring.
pub fn addr_bits(addrs: Addrs) -> u64 {
    match addrs {
        Addrs::V4 { src, dst } => ((u32::from_be_bytes(src) as u64) << 32) | u32::from_be_bytes(dst) as u64,
        Addrs::V6 { src, dst } => {
            let h = ipv6_fold();
            h.eval(u128::from_be_bytes(src)) ^ h.eval(u128::from_be_bytes(dst)).rotate_left(32)
        }
    }
}

/// The fridge's 128-bit id of the request with this direction's addresses and ports whose end is
/// acknowledged by `expected_ack`: `addr_bits(64) | src_port(16) | dst_port(16) | E(32)` from the most
/// significant bit down ([`addr_bits`]).
pub fn flow_id(addrs: Addrs, src_port: u16, dst_port: u16, expected_ack: u32) -> u128 {
    let low = ((src_port as u64) << 48) | ((dst_port as u64) << 32) | expected_ack as u64;
    ((addr_bits(addrs) as u128) << 64) | low as u128
}

/// The 104-bit 5-tuple key `addr_bits(64) | sport(16) | dport(16) | proto(8)` from high to low bits
/// (`src << 72 | dst << 40 | sport << 24 | dport << 8 | proto` for IPv4). Both directions of a connection
/// are different flows.
pub fn five_tuple_key(addrs: Addrs, src_port: u16, dst_port: u16, proto: u8) -> u128 {
    ((addr_bits(addrs) as u128) << 40) | ((src_port as u128) << 24) | ((dst_port as u128) << 8) | proto as u128
}

/// A TCP segment's 5-tuple key.
pub fn flow_key(seg: &TcpSegment) -> u128 {
    five_tuple_key(seg.addrs, seg.src_port, seg.dst_port, PROTO_TCP)
}

/// The fridge descriptors (0, 1 or 2; the response first) a segment stamped `ts` yields in `mode`.
pub fn fridge(seg: &TcpSegment, ts: u64, mode: TcpMode) -> impl Iterator<Item = FridgeDescriptor> {
    let response = |ack: u32| FridgeDescriptor {
        kind: PacketKind::Response,
        id: flow_id(seg.addrs.reversed(), seg.dst_port, seg.src_port, ack),
        timestamp: ts,
    };
    let request = |end: u32| FridgeDescriptor {
        kind: PacketKind::Request,
        id: flow_id(seg.addrs, seg.src_port, seg.dst_port, end),
        timestamp: ts,
    };
    let (resp, req) = match mode {
        TcpMode::DataAck => (
            seg.has(flags::ACK).then(|| response(seg.ack)),
            (seg.payload_len > 0).then(|| request(seg.seq.wrapping_add(seg.seq_len()))),
        ),
        TcpMode::SynSynAck => (
            (seg.has(flags::SYN) && seg.has(flags::ACK)).then(|| response(seg.ack)),
            (seg.has(flags::SYN) && !seg.has(flags::ACK)).then(|| request(seg.seq.wrapping_add(1))),
        ),
    };
    resp.into_iter().chain(req)
}

/// The invariant-field key of FineComb and MAPLE: `(flow_key >> 8) << 32 | (seq ^ ack.rotl(13) ^ ip_id
/// << 16)` — addresses and ports above 32 per-packet bits (the IPv4 identification tells apart the pure
/// ACKs and retransmissions that repeat sequence and acknowledgement numbers; IPv6 has none).
pub fn invariant_key(seg: &TcpSegment) -> u128 {
    (flow_key(seg) >> 8) << 32 | (seg.seq ^ seg.ack.rotate_left(13) ^ (seg.ip_id as u32) << 16) as u128
}

/// FineComb's descriptor of a segment stamped `ts` (a packet, not a sync marker).
pub fn finecomb(seg: &TcpSegment, ts: u64) -> crate::finecomb::Descriptor {
    crate::finecomb::Descriptor::packet(invariant_key(seg), ts)
}

/// MAPLE's descriptor of a segment whose latency (`ts_out − ts_in`, [`crate::maple::latency_ns`]) is
/// `latency` ns.
pub fn maple(seg: &TcpSegment, latency: u32) -> crate::maple::Descriptor {
    crate::maple::Descriptor { key: invariant_key(seg), latency }
}

/// The reordering core's descriptor of an IPv4 segment stamped `ts` (`None` for IPv6).
pub fn reordering(seg: &TcpSegment, ts: u64) -> Option<crate::reordering::Descriptor> {
    let Addrs::V4 { dst, .. } = seg.addrs else { return None };
    Some(crate::reordering::Descriptor {
        addr: u32::from_be_bytes(dst),
        flow: flow_key(seg),
        seq: seg.seq,
        ts,
        data: seg.payload_len > 0,
    })
}

/// IFPD's descriptor of an IPv4 segment stamped `ts` (`None` for IPv6).
pub fn ifpd(seg: &TcpSegment, ts: u64) -> Option<crate::ifpd::Descriptor> {
    matches!(seg.addrs, Addrs::V4 { .. }).then(|| crate::ifpd::Descriptor { flow: flow_key(seg), ts })
}

/// What the descriptor stage's flow lane (`super::desc`) gives per TCP segment: every field the cores
/// keyed by flow take — IFPD and reordering (IPv4 only: [`FlowDescriptor::ifpd`],
/// [`FlowDescriptor::reordering`]), heavy hitters (`key`), FineComb and MAPLE (`invariant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FlowDescriptor {
    /// The 5-tuple key ([`flow_key`]).
    pub key: u128,
    /// The invariant-field key ([`invariant_key`]).
    pub invariant: u128,
    /// The destination address's low 32 bits (IPv4: the address; the reordering core's prefix input).
    pub addr: u32,
    pub seq: u32,
    pub ts: u64,
    /// The segment carries payload.
    pub data: bool,
    /// IPv4 (IFPD and reordering take IPv4 segments only).
    pub v4: bool,
}

impl FlowDescriptor {
    /// The flow descriptor of a segment stamped `ts`.
    pub fn of(seg: &TcpSegment, ts: u64) -> Self {
        let (addr, v4) = match seg.addrs {
            Addrs::V4 { dst, .. } => (u32::from_be_bytes(dst), true),
            Addrs::V6 { dst, .. } => (u32::from_be_bytes([dst[12], dst[13], dst[14], dst[15]]), false),
        };
        FlowDescriptor {
            key: flow_key(seg),
            invariant: invariant_key(seg),
            addr,
            seq: seg.seq,
            ts,
            data: seg.payload_len > 0,
            v4,
        }
    }

    /// The reordering core's descriptor ([`reordering`]; `None` for IPv6).
    pub fn reordering(&self) -> Option<crate::reordering::Descriptor> {
        self.v4.then_some(crate::reordering::Descriptor {
            addr: self.addr,
            flow: self.key,
            seq: self.seq,
            ts: self.ts,
            data: self.data,
        })
    }

    /// IFPD's descriptor ([`ifpd`]; `None` for IPv6).
    pub fn ifpd(&self) -> Option<crate::ifpd::Descriptor> {
        self.v4.then_some(crate::ifpd::Descriptor { flow: self.key, ts: self.ts })
    }
}
