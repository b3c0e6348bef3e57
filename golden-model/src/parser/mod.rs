//! Packet header parser (issue 18, first part): the golden model of the AXI4-Stream parser in front of every
//! core, and the one definition of every header field extraction that the software capture reader
//! (`sim::traffic::packet`) uses too.
//!
//! Transaction level: [`parse`] takes one frame (the bytes of one AXI4-Stream packet, without FCS) and
//! returns its [`Headers`] or the [`Drop`] reason that is counted instead; [`descriptors`] turns a parsed
//! TCP segment into the descriptor each core takes. Everything is decided from the frame bytes alone, in
//! order, within a bounded **header window**: the first [`ParserConfig::window`] bytes (128 in hardware).
//!
//! ## What is parsed
//! - **Ethernet II** (14 bytes) and up to [`ParserConfig::max_vlan_tags`] VLAN tags (2 in hardware: 802.1Q,
//!   802.1ad QinQ) — [`ethernet`].
//! - **IPv4** with options (IHL), **IPv6** fixed header plus at most [`ParserConfig::max_ipv6_ext`] extension
//!   headers (2 in hardware) — [`ip`].
//! - **TCP** (fixed 20 bytes; options are not parsed, only skipped by the data offset) and **UDP** — [`l4`].
//!
//! Entries: [`parse`] (a whole frame, the hardware's input), [`parse_ethernet`] (a frame of which only a
//! prefix was captured, with its wire length), and the entries software link types need, which have no
//! Ethernet header: [`parse_after_ethertype`] (Linux cooked captures, loopback: an ethertype is known) and
//! [`parse_ip`] (raw IP: IPv4 or IPv6 by the version nibble).
//!
//! ## Decisions (and their switches in [`ParserConfig`])
//! - **Header window.** Every header the parser reads must end within the first `window` bytes of the
//!   frame. If the frame is longer than the window and a header does not end within it, the frame is
//!   dropped as [`Drop::BeyondWindow`]; bytes beyond the window are never looked at (the payload, TCP
//!   options). With 128 bytes the deepest standard case fits: 14 (Ethernet) + 8 (two tags) + 60 (IPv4 with
//!   40 bytes of options) + 20 (TCP) = 102; IPv6 leaves 128 − 14 − 8 − 40 − 20 = 46 bytes for extension
//!   headers. Software: unbounded.
//! - **Lengths come from the IP header**, never from the frame length: payload length = IP length − IP
//!   header − extension headers − L4 header. Ethernet padding (a frame longer than its IP length, e.g. to
//!   the 60-byte minimum) is ignored. A frame **shorter** than its IP length (a capture cut by its snap
//!   length, replayed as the captured bytes) still parses, with its true payload length, and is flagged
//!   [`Headers::short`] (counted, not dropped) as long as the fixed L4 header is in it; one whose TCP options
//!   are cut is flagged [`Headers::l4_header_cut`] as well.
//! - **IP length 0** (TSO/GSO super-segments in Linux captures): dropped as a bad length in hardware;
//!   software (`zero_ip_length_from_wire`) takes the length from the frame's wire length instead, which
//!   only a capture knows (a parser sees the frame's end after its headers).
//! - **Runts**: a frame shorter than `min_frame_len` (60 in hardware, the Ethernet minimum without FCS) is
//!   [`Drop::Runt`]. Software: 0 (a loopback capture has 54-byte frames).
//! - **VLAN TPIDs**: 0x8100 (802.1Q) and 0x88A8 (802.1ad); with `legacy_tpids` also the pre-standard QinQ
//!   TPIDs 0x9100, 0x9200, 0x9300 (what the software reader always accepted; on in both configurations).
//!   More tags than `max_vlan_tags`: [`Drop::TooManyVlanTags`]. Software: any number.
//! - **IPv6 extension headers** skipped: hop-by-hop (0), routing (43), destination options (60), fragment
//!   (44, only an atomic fragment: offset 0 and no more fragments), AH (51), mobility (135), HIP (139),
//!   shim6 (140). Each is one step of a hardware parser (read its next-header and length byte at a
//!   variable offset of the window), so their number is bounded by `max_ipv6_ext` (2 in hardware; one more
//!   is [`Drop::Ipv6ExtLimit`]). ESP (50), no next header (59) and anything else end the chain: the packet is
//!   not TCP/UDP ([`Drop::UnsupportedL4`]). Software: unbounded.
//! - **UDP** is parsed when `udp` is set (hardware); the software reader, which only wants TCP, counts UDP
//!   as [`Drop::UnsupportedL4`].
//! - **Checks, in the order they are made** (the first failing one names the drop): runt; Ethernet and tags
//!   present; ethertype IPv4/IPv6; IP fixed header present; version; IHL ≥ 5; total length ≥ IHL; not a
//!   fragment; protocol TCP/UDP; options present; (IPv6: each extension header's bytes present, fragment,
//!   payload length ≥ its length); L4 fixed header present; TCP data offset ≥ 5 and within the IP payload,
//!   UDP length in 8..=IP payload. Checksums are not checked (the MAC checks the FCS).
//!
//! ## Timestamps
//! The default input is the 64-bit relative PTP timestamp of verilog-ethernet in `tuser` (ns in bits 63:16
//! above 16 bits of fractional ns); the cores' 48-bit ns timestamp is its bits 63:16
//! ([`ParserConfig::core_timestamp`]). Software passes ns as they are ([`TimestampFormat::Ns`]).
//!
//! ## Counters
//! [`Counters`] holds what the hardware's CSR statistics hold, in this order: frames, accepted, short,
//! l4_header_cut, then one counter per [`Drop`] in [`Drop::ALL`] order (names: [`Drop::name`]).

pub mod build;
pub mod cycle;
pub mod desc;
pub mod driver;
pub mod random;
pub mod descriptors;
pub mod ethernet;
pub mod ip;
pub mod l4;
#[cfg(test)]
mod tests;

pub use descriptors::TcpMode;

/// Source and destination addresses of a packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Addrs {
    V4 { src: [u8; 4], dst: [u8; 4] },
    V6 { src: [u8; 16], dst: [u8; 16] },
}

impl Addrs {
    /// The same pair, seen from the other direction.
    pub fn reversed(self) -> Addrs {
        match self {
            Addrs::V4 { src, dst } => Addrs::V4 { src: dst, dst: src },
            Addrs::V6 { src, dst } => Addrs::V6 { src: dst, dst: src },
        }
    }
}

/// TCP flag bits (low byte of the flags field).
pub mod flags {
    pub const FIN: u8 = 0x01;
    pub const SYN: u8 = 0x02;
    pub const RST: u8 = 0x04;
    pub const PSH: u8 = 0x08;
    pub const ACK: u8 = 0x10;
}

/// IP protocol numbers the parser knows at L4.
pub const PROTO_TCP: u8 = 6;
pub const PROTO_UDP: u8 = 17;

/// The TCP header fields the parser extracts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tcp {
    pub seq: u32,
    pub ack: u32,
    /// Flag bits, see [`flags`].
    pub flags: u8,
    /// Header length in bytes (data offset × 4, 20..=60).
    pub header_len: u8,
}

/// VLAN tags in front of the ethertype.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Vlan {
    /// Number of tags.
    pub tags: usize,
    /// TCI (PCP, DEI, VID) of the outer and the inner tag; 0 where there is none.
    pub tci: [u16; 2],
}

/// A parsed frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Headers {
    pub vlan: Vlan,
    /// Offset of the IP header in the frame.
    pub l3_offset: usize,
    pub addrs: Addrs,
    /// IPv4 identification (0 for IPv6: its fixed header has none, and fragments are dropped).
    pub ip_id: u16,
    /// Bytes of the IP packet by its length fields (IPv4 total length; IPv6 40 + payload length).
    pub ip_len: usize,
    /// [`PROTO_TCP`] or [`PROTO_UDP`].
    pub protocol: u8,
    /// Offset of the TCP/UDP header in the frame.
    pub l4_offset: usize,
    pub src_port: u16,
    pub dst_port: u16,
    /// The TCP fields (`None` for UDP).
    pub tcp: Option<Tcp>,
    /// L4 payload bytes on the wire, from the IP (UDP: the UDP) length fields; may exceed the frame.
    pub payload_len: u32,
    /// The frame ends before the IP length says (counted, not dropped).
    pub short: bool,
    /// The frame ends inside the TCP options (the fixed header is complete).
    pub l4_header_cut: bool,
}

/// The fields of a TCP segment that the cores' descriptors are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TcpSegment {
    pub addrs: Addrs,
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    /// Flag bits, see [`flags`].
    pub flags: u8,
    /// IPv4 identification (0 for IPv6: its fixed header has none, and fragments are skipped).
    pub ip_id: u16,
    /// Payload bytes on the wire (from the IP length; may exceed what was captured).
    pub payload_len: u32,
    /// The capture ends inside the TCP options (the fixed header is complete).
    pub header_cut: bool,
}

impl TcpSegment {
    /// Sequence space the segment occupies: payload plus one for SYN and one for FIN.
    pub fn seq_len(&self) -> u32 {
        self.payload_len
            .wrapping_add((self.flags & flags::SYN != 0) as u32)
            .wrapping_add((self.flags & flags::FIN != 0) as u32)
    }

    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

impl Headers {
    /// The TCP segment, if the frame is one.
    pub fn tcp_segment(&self) -> Option<TcpSegment> {
        let t = self.tcp?;
        Some(TcpSegment {
            addrs: self.addrs,
            src_port: self.src_port,
            dst_port: self.dst_port,
            seq: t.seq,
            ack: t.ack,
            flags: t.flags,
            ip_id: self.ip_id,
            payload_len: self.payload_len,
            header_cut: self.l4_header_cut,
        })
    }
}

/// Why a frame yields no headers (and no descriptor). The declaration order is the order of the drop
/// counters in the CSR statistics; never reorder, only append.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Drop {
    /// Shorter than [`ParserConfig::min_frame_len`].
    Runt,
    /// The frame ends inside the Ethernet header or a VLAN tag.
    TruncatedL2,
    /// More VLAN tags than [`ParserConfig::max_vlan_tags`].
    TooManyVlanTags,
    /// The ethertype (after the tags) is not IPv4/IPv6 (ARP, an 802.3 length, …); raw IP: the version
    /// nibble is not 4 or 6.
    NotIp,
    /// The frame ends inside the IPv4 header (with its options), the IPv6 header or an extension header.
    TruncatedIp,
    /// The version nibble disagrees with the ethertype.
    BadIpVersion,
    /// IPv4 IHL < 5.
    BadIhl,
    /// IPv4 total length < IHL (0 included, unless taken from the wire); IPv6 payload length shorter than
    /// its extension headers.
    BadIpLength,
    /// A non-first fragment, or a first fragment with more to come (no complete L4 header to rely on).
    Fragment,
    /// More IPv6 extension headers than [`ParserConfig::max_ipv6_ext`].
    Ipv6ExtLimit,
    /// The L4 protocol is not TCP (or UDP when parsed): ICMP, ESP, no next header, …
    UnsupportedL4,
    /// A header does not end within the header window (and the frame is longer than the window).
    BeyondWindow,
    /// The frame ends inside the fixed TCP (20 bytes) or UDP (8 bytes) header.
    TruncatedL4,
    /// TCP data offset < 5 or beyond the IP payload; UDP length < 8 or beyond the IP payload.
    BadL4Header,
}

impl Drop {
    /// Every reason, in counter order.
    pub const ALL: [Drop; 14] = [
        Drop::Runt,
        Drop::TruncatedL2,
        Drop::TooManyVlanTags,
        Drop::NotIp,
        Drop::TruncatedIp,
        Drop::BadIpVersion,
        Drop::BadIhl,
        Drop::BadIpLength,
        Drop::Fragment,
        Drop::Ipv6ExtLimit,
        Drop::UnsupportedL4,
        Drop::BeyondWindow,
        Drop::TruncatedL4,
        Drop::BadL4Header,
    ];

    /// Index of the reason's counter.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The counter's name (CSR field, C header, reports).
    pub fn name(self) -> &'static str {
        match self {
            Drop::Runt => "runt",
            Drop::TruncatedL2 => "truncated_l2",
            Drop::TooManyVlanTags => "too_many_vlan_tags",
            Drop::NotIp => "not_ip",
            Drop::TruncatedIp => "truncated_ip",
            Drop::BadIpVersion => "bad_ip_version",
            Drop::BadIhl => "bad_ihl",
            Drop::BadIpLength => "bad_ip_length",
            Drop::Fragment => "fragment",
            Drop::Ipv6ExtLimit => "ipv6_ext_limit",
            Drop::UnsupportedL4 => "unsupported_l4",
            Drop::BeyondWindow => "beyond_window",
            Drop::TruncatedL4 => "truncated_l4",
            Drop::BadL4Header => "bad_l4_header",
        }
    }
}

/// How the `tuser` timestamp of a frame reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimestampFormat {
    /// verilog-ethernet's 64-bit relative PTP time: ns in bits 63:16, fractional ns in 15:0.
    Ptp64,
    /// Plain ns (software: capture timestamps, passed on unchanged).
    Ns,
}

/// The parser's generation-time parameters (see the module docs for each decision).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParserConfig {
    /// Header window in bytes from the frame start; `usize::MAX`: unbounded.
    pub window: usize,
    /// Frames shorter than this (wire length) are runts.
    pub min_frame_len: usize,
    /// Most VLAN tags before the ethertype.
    pub max_vlan_tags: usize,
    /// Accept 0x9100, 0x9200, 0x9300 as TPIDs besides 0x8100 and 0x88A8.
    pub legacy_tpids: bool,
    /// Most IPv6 extension headers skipped.
    pub max_ipv6_ext: usize,
    /// Parse UDP (else it is [`Drop::UnsupportedL4`]).
    pub udp: bool,
    /// An IP length field of 0 means "up to the frame's wire length" (TSO/GSO captures).
    pub zero_ip_length_from_wire: bool,
    pub timestamp: TimestampFormat,
}

impl ParserConfig {
    /// The hardware parser.
    pub const HARDWARE: ParserConfig = ParserConfig {
        window: 128,
        min_frame_len: 60,
        max_vlan_tags: 2,
        legacy_tpids: true,
        max_ipv6_ext: 2,
        udp: true,
        zero_ip_length_from_wire: false,
        timestamp: TimestampFormat::Ptp64,
    };

    /// The software capture reader (`sim::traffic::packet`): no window, any number of tags and extension
    /// headers, no runts, TCP only, TSO lengths from the wire, ns timestamps.
    pub const SOFTWARE: ParserConfig = ParserConfig {
        window: usize::MAX,
        min_frame_len: 0,
        max_vlan_tags: usize::MAX,
        legacy_tpids: true,
        max_ipv6_ext: usize::MAX,
        udp: false,
        zero_ip_length_from_wire: true,
        timestamp: TimestampFormat::Ns,
    };

    /// The core's timestamp (48-bit ns for [`TimestampFormat::Ptp64`]) of a frame's `tuser` timestamp.
    pub fn core_timestamp(&self, tuser: u64) -> u64 {
        match self.timestamp {
            TimestampFormat::Ptp64 => tuser >> 16,
            TimestampFormat::Ns => tuser,
        }
    }
}

impl Default for ParserConfig {
    fn default() -> Self {
        ParserConfig::HARDWARE
    }
}

/// The 64-bit relative PTP timestamp of `ns` (its low 48 bits, no fractional part).
pub fn ptp64_from_ns(ns: u64) -> u64 {
    ns << 16
}

/// The bytes the parser sees and the bounds it reads them under.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View<'a> {
    pub bytes: &'a [u8],
    pub window: usize,
    /// The frame's length on the wire (≥ `bytes.len()` for a captured prefix).
    pub wire_len: usize,
}

impl View<'_> {
    /// The first `end` bytes must be readable: else `truncated` if the frame ends first within the window,
    /// [`Drop::BeyondWindow`] if the frame goes on past the window.
    pub fn need(&self, end: usize, truncated: Drop) -> Result<(), Drop> {
        let len = self.bytes.len();
        if end <= len && end <= self.window {
            Ok(())
        } else if len <= self.window {
            Err(truncated)
        } else {
            Err(Drop::BeyondWindow)
        }
    }

    /// Byte `at` (checked by [`View::need`] before).
    pub fn u8(&self, at: usize) -> u8 {
        self.bytes[at]
    }

    pub fn be16(&self, at: usize) -> u16 {
        u16::from_be_bytes([self.bytes[at], self.bytes[at + 1]])
    }

    pub fn be32(&self, at: usize) -> u32 {
        u32::from_be_bytes([self.bytes[at], self.bytes[at + 1], self.bytes[at + 2], self.bytes[at + 3]])
    }
}

/// What the IP layer hands to L4.
#[derive(Debug, Clone, Copy)]
pub(crate) struct L3 {
    pub addrs: Addrs,
    pub ip_id: u16,
    pub ip_len: usize,
    pub protocol: u8,
    pub l4_offset: usize,
    /// Bytes after the IP header and its extension headers, by the length fields.
    pub ip_payload: usize,
}

/// Parse a whole frame (what the hardware receives: Ethernet header first, no FCS).
pub fn parse(frame: &[u8], cfg: &ParserConfig) -> Result<Headers, Drop> {
    parse_ethernet(frame, frame.len(), cfg)
}

/// Parse an Ethernet frame of which `frame` was captured and `wire_len` bytes were on the wire.
pub fn parse_ethernet(frame: &[u8], wire_len: usize, cfg: &ParserConfig) -> Result<Headers, Drop> {
    let v = View { bytes: frame, window: cfg.window, wire_len };
    if v.wire_len < cfg.min_frame_len {
        return Err(Drop::Runt);
    }
    v.need(ethernet::HEADER_LEN, Drop::TruncatedL2)?;
    after_ethertype(&v, ethernet::HEADER_LEN, v.be16(ethernet::HEADER_LEN - 2), cfg)
}

/// Parse from just after an ethertype field (`ethertype` at `at − 2` or implied by a link type), with
/// VLAN tags: the entry of link types whose header ends in an ethertype (Linux cooked captures).
pub fn parse_after_ethertype(
    frame: &[u8],
    at: usize,
    ethertype: u16,
    wire_len: usize,
    cfg: &ParserConfig,
) -> Result<Headers, Drop> {
    after_ethertype(&View { bytes: frame, window: cfg.window, wire_len }, at, ethertype, cfg)
}

/// Parse an IP packet starting at `at` (IPv4 or IPv6 by the version nibble; anything else is
/// [`Drop::NotIp`]): the entry of raw-IP link types.
pub fn parse_ip(frame: &[u8], at: usize, wire_len: usize, cfg: &ParserConfig) -> Result<Headers, Drop> {
    let v = View { bytes: frame, window: cfg.window, wire_len };
    v.need(at + 1, Drop::TruncatedIp)?;
    let l3 = match v.u8(at) >> 4 {
        4 => ip::ipv4(&v, at, cfg)?,
        6 => ip::ipv6(&v, at, cfg)?,
        _ => return Err(Drop::NotIp),
    };
    finish(&v, Vlan::default(), at, l3)
}

fn after_ethertype(v: &View, at: usize, ethertype: u16, cfg: &ParserConfig) -> Result<Headers, Drop> {
    let (vlan, at, ethertype) = ethernet::tags(v, at, ethertype, cfg)?;
    let l3 = match ethertype {
        ethernet::ETH_IPV4 => ip::ipv4(v, at, cfg)?,
        ethernet::ETH_IPV6 => ip::ipv6(v, at, cfg)?,
        _ => return Err(Drop::NotIp),
    };
    finish(v, vlan, at, l3)
}

fn finish(v: &View, vlan: Vlan, l3_offset: usize, l3: L3) -> Result<Headers, Drop> {
    let l4 = l4::parse(v, &l3)?;
    Ok(Headers {
        vlan,
        l3_offset,
        addrs: l3.addrs,
        ip_id: l3.ip_id,
        ip_len: l3.ip_len,
        protocol: l3.protocol,
        l4_offset: l3.l4_offset,
        src_port: l4.src_port,
        dst_port: l4.dst_port,
        tcp: l4.tcp,
        payload_len: l4.payload_len,
        short: v.bytes.len() < l3_offset.saturating_add(l3.ip_len),
        l4_header_cut: l4.header_cut,
    })
}

/// The parser's statistics counters (see the module docs for their CSR order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    pub frames: u64,
    pub accepted: u64,
    pub short: u64,
    pub l4_header_cut: u64,
    /// Per [`Drop`], indexed by [`Drop::index`].
    pub drops: [u64; Drop::ALL.len()],
}

impl Counters {
    /// Count one frame's outcome.
    pub fn count(&mut self, r: &Result<Headers, Drop>) {
        self.frames += 1;
        match r {
            Ok(h) => {
                self.accepted += 1;
                self.short += h.short as u64;
                self.l4_header_cut += h.l4_header_cut as u64;
            }
            Err(d) => self.drops[d.index()] += 1,
        }
    }

    pub fn dropped(&self, d: Drop) -> u64 {
        self.drops[d.index()]
    }
}
