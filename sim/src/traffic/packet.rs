//! Decoding of one captured frame down to its TCP header: the link layer here, everything from the
//! ethertype on in `golden::parser` (VLAN tags, IPv4/IPv6, TCP), the one definition of every header field
//! that the hardware parser and this software reader share.
//!
//! What stays here is software-only: the link types other than Ethernet, which enter golden's parser after
//! their own header — Linux cooked capture v1 (113) and v2 (276) at their ethertype
//! ([`golden::parser::parse_after_ethertype`], so VLAN tags inside a cooked header still count), raw IP
//! (101, and the platform-specific 12 and 14) by the version nibble ([`golden::parser::parse_ip`]), raw
//! IPv4/IPv6 (228/229) and BSD/OpenBSD loopback (0/108: a 4-byte address family) at an implied ethertype —
//! and the mapping of golden's drop reasons onto this reader's [`Skip`] reasons.
//!
//! The reader runs golden's parser in its software configuration ([`ParserConfig::SOFTWARE`]), which is
//! what this decoder has always done: any number of 802.1Q / 802.1ad (QinQ) tags (TPIDs 0x8100, 0x88a8,
//! 0x9100, 0x9200, 0x9300), any number of IPv6 extension headers (hop-by-hop, routing, destination
//! options, an atomic fragment, AH, mobility, HIP and shim6; ESP and "no next header" end the search: the
//! packet is not TCP as far as we can see), no header window, no runts, UDP not parsed (not TCP).
//!
//! Lengths come from the IP header, not from the captured bytes, so a packet cut by the snap length still
//! has its true payload length as long as the fixed 20 bytes of its TCP header were captured: everything
//! extraction needs (ports, sequence and acknowledgement numbers, data offset, flags) is there. A segment
//! whose TCP *options* were cut is still used (as Wireshark does) and marked `header_cut`; one cut inside
//! the fixed header is skipped ([`Skip::TruncatedTcp`]). When the IP length field is 0 (what
//! Linux captures of TSO/GSO super-segments show), the length is taken from the frame's original length.
//! Everything that is not a usable TCP segment is a [`Skip`] reason, counted by the caller; decoding never
//! panics, whatever the bytes.

use super::capture::linktype;
use golden::parser::{self, ethernet, Drop, Headers, ParserConfig};

pub use golden::parser::{flags, Addrs, TcpSegment};

/// Why a frame yields no TCP segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skip {
    /// A link type this decoder does not know.
    UnsupportedLink(u16),
    /// Link layer carries something other than IPv4/IPv6 (ARP, LLC, …).
    NotIp,
    /// IP packet whose payload is not TCP (UDP, ICMP, ESP, …).
    NotTcp,
    /// A non-first fragment or a first fragment with more to come (no complete segment to look at).
    Fragment,
    /// The capture ends inside the link or IP headers.
    TruncatedIp,
    /// The capture ends inside the fixed 20-byte TCP header: the segment cannot be used.
    TruncatedTcp,
    /// An IP header field is impossible (version, header length, total length).
    MalformedIp,
    /// The TCP data offset is impossible (< 5 words or beyond the IP payload).
    MalformedTcp,
}

impl From<Drop> for Skip {
    /// golden's drop reasons as this reader has always named them. Runts, too many VLAN tags, the IPv6
    /// extension-header bound and the header window are hardware limits the software configuration does
    /// not have; they are mapped all the same.
    fn from(d: Drop) -> Skip {
        match d {
            Drop::Runt | Drop::TruncatedL2 | Drop::TruncatedIp | Drop::BeyondWindow => Skip::TruncatedIp,
            Drop::TooManyVlanTags | Drop::NotIp => Skip::NotIp,
            Drop::BadIpVersion | Drop::BadIhl | Drop::BadIpLength => Skip::MalformedIp,
            Drop::Fragment => Skip::Fragment,
            Drop::Ipv6ExtLimit | Drop::UnsupportedL4 => Skip::NotTcp,
            Drop::TruncatedL4 => Skip::TruncatedTcp,
            Drop::BadL4Header => Skip::MalformedTcp,
        }
    }
}

fn be16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes([*b.get(at)?, *b.get(at + 1)?, *b.get(at + 2)?, *b.get(at + 3)?]))
}

/// How a capture's frames become TCP segments: by what, and in which order.
#[derive(Debug, Clone, Default)]
pub struct Decoder {
    pub via: Via,
    pub order: FrameOrder,
}

/// What decodes a capture's frames.
#[derive(Debug, Clone, Default)]
pub enum Via {
    /// Software ([`decode`]): every link type, golden's parser in its software configuration (no header
    /// window, any number of tags and extension headers, IP length 0 from the wire length).
    #[default]
    Software,
    /// The header parser (`netmeas replay`, [`crate::parser::replay`]): Ethernet frames byte for byte on
    /// the AXI4-Stream bus of the cycle model or the Verilated RTL, with the hardware's limits; a segment is
    /// what the parser's record holds. Each replay appends its one-line summary to `log`.
    Parser { spec: crate::parser::ReplaySpec, log: std::sync::Arc<std::sync::Mutex<Vec<String>>> },
}

/// The order a capture's frames reach the decoder, and so the core (`--capture-order`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FrameOrder {
    /// File order (the default): what a parser fed the file gives. A capture written from several CPUs
    /// can hold frames stamped earlier than a frame before them; the core sees those as they are (and the
    /// ground truth is taken in time order).
    #[default]
    File,
    /// Timestamp order (a stable sort; a frame without a timestamp keeps the place of the frame before
    /// it): the order the frames passed the capture point, as a MAC stamping frames on arrival would see
    /// them — its timestamps never go backwards.
    Time,
}

impl FrameOrder {
    /// `file` or `time`.
    pub fn by_name(s: &str) -> Option<FrameOrder> {
        match s {
            "file" => Some(FrameOrder::File),
            "time" => Some(FrameOrder::Time),
            _ => None,
        }
    }

    /// The permutation that puts frames with these timestamps in this order (stable).
    pub fn permutation(self, timestamps: &[Option<u64>]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..timestamps.len()).collect();
        if self == FrameOrder::Time {
            let mut last = 0;
            let keys: Vec<u64> = timestamps
                .iter()
                .map(|t| {
                    last = t.unwrap_or(last);
                    last
                })
                .collect();
            order.sort_by_key(|&i| keys[i]);
        }
        order
    }
}

impl Decoder {
    /// Software decoding in file order.
    pub fn software() -> Decoder {
        Decoder::default()
    }

    /// The parser decoder with `spec` and an empty log, in file order.
    pub fn parser(spec: crate::parser::ReplaySpec) -> Decoder {
        Decoder { via: Via::Parser { spec, log: Default::default() }, order: FrameOrder::File }
    }

    /// Runs the parser's descriptor stage in the fridge's `mode` (no effect on software decoding).
    pub fn set_fridge_mode(&mut self, mode: parser::TcpMode) {
        if let Via::Parser { spec, .. } = &mut self.via {
            spec.syn_mode = mode == parser::TcpMode::SynSynAck;
        }
    }
}

/// The TCP segment of a parser record (or why there is none, named as the software reader names it).
pub fn record_segment(r: &parser::cycle::Record) -> Result<TcpSegment, Skip> {
    match r.drop {
        Some(d) => Err(d.into()),
        None => r.fields.tcp_segment().ok_or(Skip::NotTcp),
    }
}

/// Every frame of the capture file `path` (pcap or pcapng, gzip read directly) decoded down to its TCP
/// segment by `decoder`: `f(frame number in the file (from 1, as Wireshark counts), timestamp ns if the
/// block has one, wire length, segment or why not)` in the decoder's order (file order unless it says
/// time). Returns the number of frames; a broken file is an error naming it.
pub fn for_each_segment(
    path: &std::path::Path,
    decoder: &Decoder,
    mut f: impl FnMut(u64, Option<u64>, u32, Result<TcpSegment, Skip>),
) -> Result<u64, String> {
    if let Via::Parser { spec, log } = &decoder.via {
        let r = crate::parser::replay_capture(path, spec, decoder.order)?;
        if let Ok(mut log) = log.lock() {
            log.push(r.summary());
        }
        for fr in &r.frames {
            f(fr.number, fr.timestamp, fr.wire_len, record_segment(&fr.record));
        }
        return Ok(r.frames.len() as u64);
    }
    let decode_frame = |fr: &super::capture::Frame<'_>| decode(fr.link_type, fr.data, fr.orig_len);
    if decoder.order == FrameOrder::File {
        return super::capture::for_each_frame(path, |fr| {
            f(fr.number, fr.timestamp_ns, fr.orig_len, decode_frame(fr));
            Ok(())
        });
    }
    let mut all = Vec::new();
    let frames = super::capture::for_each_frame(path, |fr| {
        all.push((fr.number, fr.timestamp_ns, fr.orig_len, decode_frame(fr)));
        Ok(())
    })?;
    let times: Vec<Option<u64>> = all.iter().map(|a| a.1).collect();
    for i in decoder.order.permutation(&times) {
        let (n, ts, wire, seg) = all[i].clone();
        f(n, ts, wire, seg);
    }
    Ok(frames)
}

/// Decode a frame of `link_type` whose captured bytes are `data` and wire length `orig_len`.
pub fn decode(link_type: u16, data: &[u8], orig_len: u32) -> Result<TcpSegment, Skip> {
    let (cfg, wire) = (&ParserConfig::SOFTWARE, orig_len as usize);
    // A link header that ends in (or implies) an ethertype: golden's parser from there on.
    let after = |at: usize, ethertype: Option<u16>| -> Result<Headers, Skip> {
        let ethertype = ethertype.ok_or(Skip::TruncatedIp)?;
        if at > data.len() {
            return Err(Skip::TruncatedIp);
        }
        Ok(parser::parse_after_ethertype(data, at, ethertype, wire, cfg)?)
    };
    let headers = match link_type {
        linktype::ETHERNET => parser::parse_ethernet(data, wire, cfg)?,
        linktype::LINUX_SLL => after(16, be16(data, 14))?,
        linktype::LINUX_SLL2 => after(20, be16(data, 0))?,
        linktype::RAW | linktype::RAW_12 | linktype::RAW_14 => parser::parse_ip(data, 0, wire, cfg)?,
        linktype::IPV4 => after(0, Some(ethernet::ETH_IPV4))?,
        linktype::IPV6 => after(0, Some(ethernet::ETH_IPV6))?,
        linktype::NULL | linktype::LOOP => {
            let af = if link_type == linktype::LOOP {
                be32(data, 0)
            } else {
                // Host byte order of the capturing machine: the family is small, so try both.
                be32(data, 0).map(|x| if x > 0xFFFF { x.swap_bytes() } else { x })
            }
            .ok_or(Skip::TruncatedIp)?;
            match af {
                2 => after(4, Some(ethernet::ETH_IPV4))?,
                10 | 24 | 28 | 30 => after(4, Some(ethernet::ETH_IPV6))?,
                _ => return Err(Skip::NotIp),
            }
        }
        other => return Err(Skip::UnsupportedLink(other)),
    };
    headers.tcp_segment().ok_or(Skip::NotTcp)
}

/// Builders of test packets (golden's, also used by the extraction tests).
#[cfg(test)]
pub(crate) use golden::parser::build;

#[cfg(test)]
mod tests {
    use super::build::{ether, ipv4, ipv6, tcp};
    use super::{decode, flags, Addrs, FrameOrder, Skip, TcpSegment};

    const A: [u8; 4] = [10, 0, 0, 1];
    const B: [u8; 4] = [10, 0, 0, 2];

    fn seg4() -> Vec<u8> {
        ipv4(A, B, 6, &tcp(1234, 80, 1000, 2000, flags::ACK | flags::PSH, 12, b"hello"))
    }

    fn expect4(s: TcpSegment) {
        assert_eq!(s.addrs, Addrs::V4 { src: A, dst: B });
        assert_eq!((s.src_port, s.dst_port, s.seq, s.ack), (1234, 80, 1000, 2000));
        assert_eq!(s.flags, flags::ACK | flags::PSH);
        assert_eq!(s.payload_len, 5);
    }

    #[test]
    fn ethernet_ipv4() {
        let f = ether(&[], 0x0800, &seg4());
        expect4(decode(1, &f, f.len() as u32).unwrap());
    }

    #[test]
    fn ipv4_identification_is_read_and_ipv6_has_none() {
        let mut ip = seg4();
        ip[4..6].copy_from_slice(&0xBEEFu16.to_be_bytes());
        assert_eq!(decode(101, &ip, 0).unwrap().ip_id, 0xBEEF);
        let f = ipv6([1; 16], [2; 16], &[], 6, &tcp(1, 2, 3, 4, flags::ACK, 0, b""));
        assert_eq!(decode(101, &f, 0).unwrap().ip_id, 0);
    }

    #[test]
    fn ethernet_padding_is_ignored() {
        let mut f = ether(&[], 0x0800, &ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::ACK, 0, b"")));
        f.extend([0; 6]); // minimum frame size padding
        assert_eq!(decode(1, &f, f.len() as u32).unwrap().payload_len, 0);
    }

    #[test]
    fn vlan_and_qinq() {
        for tags in [&[0x8100][..], &[0x88A8, 0x8100], &[0x9100, 0x8100, 0x8100]] {
            let f = ether(tags, 0x0800, &seg4());
            expect4(decode(1, &f, 0).unwrap());
        }
        let f = ether(&[0x8100], 0x0806, &[0; 28]);
        assert_eq!(decode(1, &f, 0), Err(Skip::NotIp));
        let f = ether(&[0x8100], 0x0800, &[]);
        assert_eq!(decode(1, &f[..16], 0), Err(Skip::TruncatedIp));
    }

    #[test]
    fn linux_cooked_v1_and_v2() {
        let mut sll = vec![0, 4, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0];
        sll.extend(0x0800u16.to_be_bytes());
        sll.extend(seg4());
        expect4(decode(113, &sll, 0).unwrap());
        let mut sll2 = 0x0800u16.to_be_bytes().to_vec();
        sll2.extend([0, 0, 0, 0, 0, 1, 0, 1, 4, 6, 1, 2, 3, 4, 5, 6, 0, 0]);
        sll2.extend(seg4());
        expect4(decode(276, &sll2, 0).unwrap());
        // VLAN inside a cooked header.
        let mut sll2v = 0x8100u16.to_be_bytes().to_vec();
        sll2v.extend([0; 18]);
        sll2v.extend([0, 5, 0x08, 0x00]);
        sll2v.extend(seg4());
        expect4(decode(276, &sll2v, 0).unwrap());
    }

    #[test]
    fn raw_ip_and_loopback() {
        for lt in [101, 12, 14, 228] {
            expect4(decode(lt, &seg4(), 0).unwrap());
        }
        let mut null = 2u32.to_le_bytes().to_vec();
        null.extend(seg4());
        expect4(decode(0, &null, 0).unwrap());
        let mut lo = 2u32.to_be_bytes().to_vec();
        lo.extend(seg4());
        expect4(decode(0, &lo, 0).unwrap());
        expect4(decode(108, &lo, 0).unwrap());
        assert_eq!(decode(101, &[0x20; 40], 0), Err(Skip::NotIp));
        assert_eq!(decode(101, &[], 0), Err(Skip::TruncatedIp));
        assert_eq!(decode(147, &seg4(), 0), Err(Skip::UnsupportedLink(147)));
    }

    #[test]
    fn ipv6_with_extension_headers() {
        let s: [u8; 16] = [0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
        let d: [u8; 16] = [0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2];
        let t = tcp(443, 5555, 7, 9, flags::ACK, 0, b"abc");
        let hop = (0u8, vec![0, 0, 1, 4, 0, 0, 0, 0]);
        let dst_opts = (60u8, vec![0, 1, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let atomic_frag = (44u8, vec![0, 0, 0, 0, 0, 0, 0, 1]);
        let ah = (51u8, vec![0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // (1+2)*4 = 12 bytes
        for exts in [vec![], vec![hop.clone()], vec![hop.clone(), dst_opts.clone(), atomic_frag, ah]] {
            let p = ipv6(s, d, &exts, 6, &t);
            let seg = decode(229, &p, 0).unwrap();
            assert_eq!(seg.addrs, Addrs::V6 { src: s, dst: d });
            assert_eq!((seg.src_port, seg.dst_port, seg.payload_len), (443, 5555, 3));
            let f = ether(&[], 0x86DD, &p);
            assert_eq!(decode(1, &f, 0).unwrap(), seg);
            assert_eq!(decode(101, &p, 0).unwrap(), seg);
        }
        let frag = (44u8, vec![0, 0, 0, 8, 0, 0, 0, 1]); // offset 1
        assert_eq!(decode(229, &ipv6(s, d, &[frag], 6, &t), 0), Err(Skip::Fragment));
        let more = (44u8, vec![0, 0, 0, 1, 0, 0, 0, 1]); // first fragment, more to come
        assert_eq!(decode(229, &ipv6(s, d, &[more], 6, &t), 0), Err(Skip::Fragment));
        assert_eq!(decode(229, &ipv6(s, d, &[], 17, &t), 0), Err(Skip::NotTcp));
        assert_eq!(decode(229, &ipv6(s, d, &[], 50, &t), 0), Err(Skip::NotTcp));
        let p = ipv6(s, d, &[hop], 6, &t);
        assert_eq!(decode(229, &p[..44], 0), Err(Skip::TruncatedIp));
        assert_eq!(decode(229, &p[..39], 0), Err(Skip::TruncatedIp));
    }

    #[test]
    fn snaplen_cut_keeps_true_payload_length() {
        let p = ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::ACK, 12, &[7; 1000]));
        let f = ether(&[], 0x0800, &p);
        let orig = f.len() as u32;
        // Cut right after the TCP header (14 + 20 + 32 bytes).
        assert_eq!(decode(1, &f[..66], orig).unwrap().payload_len, 1000);
        assert!(!decode(1, &f[..66], orig).unwrap().header_cut);
        // Cut inside the TCP options: still usable, marked.
        let s = decode(1, &f[..60], orig).unwrap();
        assert_eq!((s.payload_len, s.header_cut, s.seq, s.ack), (1000, true, 3, 4));
        // Cut inside the fixed header: unusable.
        assert_eq!(decode(1, &f[..53], orig), Err(Skip::TruncatedTcp));
        assert_eq!(decode(1, &f[..40], orig), Err(Skip::TruncatedTcp));
        assert_eq!(decode(1, &f[..30], orig), Err(Skip::TruncatedIp));
    }

    #[test]
    fn tso_zero_length_uses_wire_length() {
        let mut p = ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::ACK, 0, &[7; 100]));
        p[2] = 0;
        p[3] = 0;
        let f = ether(&[], 0x0800, &p);
        assert_eq!(decode(1, &f[..54], 14 + 20 + 20 + 3000).unwrap().payload_len, 3000);
    }

    #[test]
    fn malformed_and_other_ipv4() {
        let good = seg4();
        let mut p = good.clone();
        p[0] = 0x44; // IHL 4
        assert_eq!(decode(228, &p, 0), Err(Skip::MalformedIp));
        let mut p = good.clone();
        p[2] = 0;
        p[3] = 10; // total length < header
        assert_eq!(decode(228, &p, 0), Err(Skip::MalformedIp));
        let mut p = good.clone();
        p[6] = 0x20; // MF
        assert_eq!(decode(228, &p, 0), Err(Skip::Fragment));
        let mut p = good.clone();
        p[7] = 1; // offset 1
        assert_eq!(decode(228, &p, 0), Err(Skip::Fragment));
        let mut p = good.clone();
        p[9] = 17;
        assert_eq!(decode(228, &p, 0), Err(Skip::NotTcp));
        let mut p = good.clone();
        p[20 + 12] = 0x40; // data offset 4 words
        assert_eq!(decode(228, &p, 0), Err(Skip::MalformedTcp));
        let mut p = good.clone();
        p[20 + 12] = 0xF0; // 60-byte header > IP payload
        assert_eq!(decode(228, &p, 0), Err(Skip::MalformedTcp));
        let f = ether(&[], 0x0800, &[0x65; 40]);
        assert_eq!(decode(1, &f, 0), Err(Skip::MalformedIp));
        let mut opts = ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::SYN, 0, b""));
        opts[0] = 0x46; // 4 bytes of IP options…
        opts.splice(20..20, [1, 1, 1, 0]); // …inserted after the fixed header
        opts[3] += 4;
        assert_eq!(decode(228, &opts, 0).unwrap().flags, flags::SYN);
    }

    #[test]
    fn seq_len_counts_syn_and_fin() {
        let mut s = decode(228, &seg4(), 0).unwrap();
        assert_eq!(s.seq_len(), 5);
        s.flags |= flags::SYN | flags::FIN;
        assert_eq!(s.seq_len(), 7);
    }

    #[test]
    fn never_panics_on_garbage() {
        let mut x: u64 = 1;
        for n in 0..3000 {
            let len = n % 120;
            let mut b = Vec::with_capacity(len);
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b.push(x as u8);
            }
            for lt in [0, 1, 12, 101, 108, 113, 228, 229, 276] {
                let _ = decode(lt, &b, x as u32);
            }
        }
    }

    #[test]
    fn time_order_is_a_stable_sort_and_untimed_frames_keep_their_neighbours_place() {
        let t = [Some(50), Some(10), None, Some(10), Some(5), None];
        assert_eq!(FrameOrder::File.permutation(&t), vec![0, 1, 2, 3, 4, 5]);
        // Keys 50, 10, 10 (carried), 10, 5, 5 (carried).
        assert_eq!(FrameOrder::Time.permutation(&t), vec![4, 5, 1, 2, 3, 0]);
        assert_eq!(FrameOrder::by_name("time"), Some(FrameOrder::Time));
        assert_eq!(FrameOrder::by_name("random"), None);
    }
}
