//! Parser tests: every encapsulation and every drop reason on hand-built frames, the descriptor
//! definitions, and random frames and truncations (no panic; nothing beyond the window matters).

use super::build::{ether, ipv4, ipv6, tcp, udp};
use super::descriptors::{self, five_tuple_key, flow_id, invariant_key, TcpMode};
use super::*;
use crate::fridge::PacketKind;
use rand::{rngs::SmallRng, Rng, SeedableRng};

const HW: ParserConfig = ParserConfig::HARDWARE;
const SW: ParserConfig = ParserConfig::SOFTWARE;
const A: [u8; 4] = [10, 0, 0, 1];
const B: [u8; 4] = [10, 0, 0, 2];
const S6: [u8; 16] = [0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
const D6: [u8; 16] = [0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2];

/// IPv4 TCP 1234 → 80, seq 1000, ack 2000, ACK|PSH, 12 bytes of options, 5 bytes of payload.
fn seg4() -> Vec<u8> {
    ipv4(A, B, 6, &tcp(1234, 80, 1000, 2000, flags::ACK | flags::PSH, 12, b"hello"))
}

fn expect4(h: &Headers) {
    let s = h.tcp_segment().unwrap();
    assert_eq!(s.addrs, Addrs::V4 { src: A, dst: B });
    assert_eq!((s.src_port, s.dst_port, s.seq, s.ack), (1234, 80, 1000, 2000));
    assert_eq!((s.flags, s.payload_len, s.header_cut), (flags::ACK | flags::PSH, 5, false));
    assert_eq!(h.tcp.unwrap().header_len, 32);
}

fn both(frame: &[u8]) -> [Result<Headers, Drop>; 2] {
    [parse(frame, &HW), parse(frame, &SW)]
}

#[test]
fn ethernet_ipv4_tcp_and_padding() {
    let mut f = ether(&[], 0x0800, &seg4());
    for r in both(&f) {
        let h = r.unwrap();
        expect4(&h);
        assert_eq!((h.l3_offset, h.l4_offset, h.ip_len, h.short), (14, 34, 57, false));
    }
    let mut small = ether(&[], 0x0800, &ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::ACK, 0, b"")));
    assert_eq!(parse(&small, &HW), Err(Drop::Runt), "54 bytes");
    small.extend([0; 6]); // padded to the 60-byte minimum
    let h = parse(&small, &HW).unwrap();
    assert_eq!((h.payload_len, h.short), (0, false));
    f.truncate(14 + 20 + 32); // captured up to the end of the TCP options: payload from the IP length
    let h = parse(&f, &HW).unwrap();
    assert_eq!((h.payload_len, h.short, h.l4_header_cut), (5, true, false));
}

#[test]
fn vlan_tags_and_tpids() {
    for tags in [&[0x8100][..], &[0x88A8, 0x8100], &[0x9100, 0x8100], &[0x9200], &[0x9300, 0x88A8]] {
        let h = parse(&ether(tags, 0x0800, &seg4()), &HW).unwrap();
        expect4(&h);
        assert_eq!(
            (h.vlan.tags, h.vlan.tci, h.l3_offset),
            (tags.len(), [5, (tags.len() > 1) as u16 * 5], 14 + 4 * tags.len())
        );
    }
    let three = ether(&[0x88A8, 0x8100, 0x8100], 0x0800, &seg4());
    assert_eq!(parse(&three, &HW), Err(Drop::TooManyVlanTags));
    assert_eq!(parse(&three, &SW).unwrap().vlan, Vlan { tags: 3, tci: [5, 5] });
    let legacy = ether(&[0x9100], 0x0800, &seg4());
    assert_eq!(parse(&legacy, &ParserConfig { legacy_tpids: false, ..HW }), Err(Drop::NotIp));
    assert_eq!(parse(&ether(&[0x8100], 0x0806, &[0; 46]), &HW), Err(Drop::NotIp));
    assert_eq!(parse(&ether(&[], 0x002E, &[0; 46]), &HW), Err(Drop::NotIp), "802.3 length");
    let f = ether(&[0x8100], 0x0800, &seg4());
    assert_eq!(parse(&f[..16], &SW), Err(Drop::TruncatedL2));
    assert_eq!(parse(&f[..13], &SW), Err(Drop::TruncatedL2));
}

#[test]
fn ipv4_options_and_checks() {
    let mut opts = ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::SYN, 0, b"ab"));
    opts[0] = 0x47; // 8 bytes of options…
    opts.splice(20..20, [1, 1, 1, 1, 1, 1, 1, 0]); // …after the fixed header
    opts[3] += 8;
    let h = parse(&ether(&[], 0x0800, &opts), &HW).unwrap();
    assert_eq!((h.l4_offset, h.payload_len, h.tcp.unwrap().flags), (14 + 28, 2, flags::SYN));
    let cases: [(usize, u8, Drop); 7] = [
        (0, 0x55, Drop::BadIpVersion),
        (0, 0x44, Drop::BadIhl),
        (3, 10, Drop::BadIpLength), // total length 10 < 20 (high byte 0)
        (6, 0x20, Drop::Fragment),  // MF
        (7, 1, Drop::Fragment),     // offset 1
        (9, 1, Drop::UnsupportedL4),
        (20 + 12, 0x40, Drop::BadL4Header), // data offset 4 words
    ];
    for (at, val, want) in cases {
        let mut p = seg4();
        p[at] = val;
        if at == 3 {
            p[2] = 0;
        }
        assert_eq!(parse(&ether(&[], 0x0800, &p), &HW), Err(want), "byte {at} = {val:#x}");
    }
    let mut p = seg4();
    p[20 + 12] = 0xF0; // 60-byte TCP header > IP payload
    assert_eq!(parse(&ether(&[], 0x0800, &p), &HW), Err(Drop::BadL4Header));
    let f = ether(&[], 0x0800, &opts);
    assert_eq!(parse(&f[..14 + 24], &SW), Err(Drop::TruncatedIp), "inside the options");
    assert_eq!(parse(&f[..14 + 19], &SW), Err(Drop::TruncatedIp), "inside the fixed header");
    assert_eq!(parse(&f[..14 + 28 + 19], &SW), Err(Drop::TruncatedL4));
    let mut big = ether(&[], 0x0800, &opts);
    big[14] = 0x4F; // IHL 15: options end at 14 + 60, beyond the frame
    big[17] = 100;
    assert_eq!(parse(&big, &SW), Err(Drop::TruncatedIp));
}

#[test]
fn ip_length_zero_is_tso_only_in_software() {
    let mut p = ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::ACK, 0, &[7; 100]));
    p[2..4].copy_from_slice(&[0, 0]);
    let f = ether(&[], 0x0800, &p);
    assert_eq!(parse(&f, &HW), Err(Drop::BadIpLength));
    let h = parse_ethernet(&f[..54], 14 + 20 + 20 + 3000, &SW).unwrap();
    assert_eq!((h.payload_len, h.short), (3000, true));
}

#[test]
fn ipv6_extension_headers_within_the_bound() {
    let t = tcp(443, 5555, 7, 9, flags::ACK, 0, b"abc");
    let hop = (0u8, vec![0, 0, 1, 4, 0, 0, 0, 0]);
    let dst_opts = (60u8, vec![0, 1, 1, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let atomic_frag = (44u8, vec![0, 0, 0, 0, 0, 0, 0, 1]);
    let ah = (51u8, vec![0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // (1+2)*4 = 12 bytes
    let chains =
        [vec![], vec![hop.clone()], vec![atomic_frag.clone(), ah.clone()], vec![hop.clone(), dst_opts.clone()]];
    for exts in &chains {
        let f = ether(&[], 0x86DD, &ipv6(S6, D6, exts, 6, &t));
        let h = parse(&f, &HW).unwrap();
        assert_eq!(h.addrs, Addrs::V6 { src: S6, dst: D6 });
        assert_eq!((h.src_port, h.dst_port, h.payload_len, h.ip_id), (443, 5555, 3, 0));
        assert_eq!(h.l4_offset, 54 + exts.iter().map(|e| e.1.len()).sum::<usize>());
    }
    let long = vec![hop.clone(), dst_opts.clone(), atomic_frag, ah];
    let f = ether(&[], 0x86DD, &ipv6(S6, D6, &long, 6, &t));
    assert_eq!(parse(&f, &HW), Err(Drop::Ipv6ExtLimit));
    assert_eq!(parse(&f, &SW).unwrap().payload_len, 3);
    let ip = |exts: &[(u8, Vec<u8>)], proto| ether(&[], 0x86DD, &ipv6(S6, D6, exts, proto, &t));
    assert_eq!(parse(&ip(&[(44, vec![0, 0, 0, 8, 0, 0, 0, 1])], 6), &HW), Err(Drop::Fragment));
    assert_eq!(parse(&ip(&[(44, vec![0, 0, 0, 1, 0, 0, 0, 1])], 6), &HW), Err(Drop::Fragment));
    assert_eq!(parse(&ip(&[], 50), &HW), Err(Drop::UnsupportedL4), "ESP");
    assert_eq!(parse(&ip(&[], 59), &HW), Err(Drop::UnsupportedL4), "no next header");
    let f = ip(&[hop.clone()], 6);
    assert_eq!(parse(&f[..14 + 44], &SW), Err(Drop::TruncatedIp));
    assert_eq!(parse(&f[..14 + 39], &SW), Err(Drop::TruncatedIp));
    let mut bad = ip(&[hop], 6);
    bad[14 + 4..14 + 6].copy_from_slice(&4u16.to_be_bytes()); // payload length < the 8-byte extension
    assert_eq!(parse(&bad, &SW), Err(Drop::BadIpLength));
    let mut v4in6 = ip(&[], 6);
    v4in6[14] = 0x45;
    assert_eq!(parse(&v4in6, &HW), Err(Drop::BadIpVersion));
}

#[test]
fn udp_is_parsed_in_hardware_only() {
    let f = ether(&[], 0x0800, &ipv4(A, B, 17, &udp(53, 4000, &[1; 30])));
    let h = parse(&f, &HW).unwrap();
    assert_eq!((h.protocol, h.src_port, h.dst_port, h.payload_len, h.tcp), (17, 53, 4000, 30, None));
    assert_eq!(h.tcp_segment(), None);
    assert_eq!(parse(&f, &SW), Err(Drop::UnsupportedL4));
    let f6 = ether(&[], 0x86DD, &ipv6(S6, D6, &[], 17, &udp(1, 2, b"x")));
    assert_eq!(parse(&f6, &HW).unwrap().payload_len, 1);
    let mut bad = f.clone();
    bad[14 + 20 + 4..14 + 20 + 6].copy_from_slice(&7u16.to_be_bytes());
    assert_eq!(parse(&bad, &HW), Err(Drop::BadL4Header));
    bad[14 + 20 + 4..14 + 20 + 6].copy_from_slice(&39u16.to_be_bytes()); // > 38 bytes of IP payload
    assert_eq!(parse(&bad, &HW), Err(Drop::BadL4Header));
    assert_eq!(parse(&ether(&[], 0x0800, &ipv4(A, B, 17, &[0; 7])), &SW.clone_with_udp()), Err(Drop::TruncatedL4));
}

impl ParserConfig {
    fn clone_with_udp(&self) -> ParserConfig {
        ParserConfig { udp: true, ..*self }
    }
}

#[test]
fn tcp_options_cut_and_fixed_header_cut() {
    let f = ether(&[], 0x0800, &ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::ACK, 12, &[7; 1000])));
    let h = parse(&f[..60], &SW).unwrap();
    assert_eq!((h.payload_len, h.l4_header_cut, h.short), (1000, true, true));
    assert_eq!(parse(&f[..53], &SW), Err(Drop::TruncatedL4));
    assert_eq!(parse(&f[..40], &SW), Err(Drop::TruncatedL4));
    assert_eq!(parse(&f[..30], &SW), Err(Drop::TruncatedIp));
}

#[test]
fn header_window_bounds_what_is_read() {
    // IPv6 + a 64-byte destination-options header + TCP: the TCP header ends at 14 + 40 + 64 + 20 = 138.
    let big = (60u8, [vec![0, 7], vec![1; 62]].concat());
    let f = ether(&[], 0x86DD, &ipv6(S6, D6, &[big], 6, &tcp(1, 2, 3, 4, flags::ACK, 0, &[0; 100])));
    assert_eq!(parse(&f, &HW), Err(Drop::BeyondWindow));
    assert!(parse(&f, &SW).is_ok());
    assert_eq!(parse(&f[..128], &HW), Err(Drop::TruncatedL4), "the frame ends at the window: truncated");
    let wide = ParserConfig { window: 138, ..HW };
    assert!(parse(&f, &wide).is_ok());
    // 14 + 8 + 60 + 20 = 102: IPv4 with 40 bytes of options behind two tags fits 128.
    let mut p = ipv4(A, B, 6, &tcp(1, 2, 3, 4, flags::ACK, 40, &[0; 200]));
    p[0] = 0x4F;
    p.splice(20..20, [1; 40]);
    let total = u16::from_be_bytes([p[2], p[3]]) + 40;
    p[2..4].copy_from_slice(&total.to_be_bytes());
    let h = parse(&ether(&[0x88A8, 0x8100], 0x0800, &p), &HW).unwrap();
    assert_eq!((h.l4_offset, h.payload_len), (82, 200));
}

#[test]
fn l3_entries_for_software_link_types() {
    let p = seg4();
    let h = parse_ip(&p, 0, p.len(), &SW).unwrap();
    expect4(&h);
    assert_eq!((h.l3_offset, h.vlan.tags), (0, 0));
    assert_eq!(parse_ip(&[0x20; 40], 0, 40, &SW), Err(Drop::NotIp));
    assert_eq!(parse_ip(&[], 0, 0, &SW), Err(Drop::TruncatedIp));
    let mut sll = vec![0; 16];
    sll.extend(&p);
    expect4(&parse_after_ethertype(&sll, 16, 0x0800, sll.len(), &SW).unwrap());
    let mut tagged = vec![0, 5, 0x08, 0x00];
    tagged.extend(&p);
    let h = parse_after_ethertype(&tagged, 0, 0x8100, tagged.len(), &SW).unwrap();
    assert_eq!((h.vlan.tags, h.l3_offset), (1, 4));
    let v6 = ipv6(S6, D6, &[], 6, &tcp(1, 2, 3, 4, flags::ACK, 0, b""));
    assert_eq!(parse_ip(&v6, 0, v6.len(), &SW).unwrap().addrs, Addrs::V6 { src: S6, dst: D6 });
    assert_eq!(parse_after_ethertype(&v6, 0, 0x0800, v6.len(), &SW), Err(Drop::BadIpVersion));
}

#[test]
fn counters_in_csr_order() {
    assert!(Drop::ALL.iter().enumerate().all(|(i, d)| d.index() == i));
    let names: std::collections::HashSet<_> = Drop::ALL.iter().map(|d| d.name()).collect();
    assert_eq!(names.len(), Drop::ALL.len());
    let mut c = Counters::default();
    let f = ether(&[], 0x0800, &seg4());
    c.count(&parse(&f, &HW));
    c.count(&parse(&f[..70], &HW));
    c.count(&parse(&f[..20], &HW));
    assert_eq!((c.frames, c.accepted, c.short, c.l4_header_cut), (3, 2, 1, 0));
    assert_eq!(c.dropped(Drop::Runt), 1);
}

#[test]
fn timestamps_ptp64_to_core_ns() {
    let ns = 0x1234_5678_9ABC_DEF0u64;
    let tuser = ptp64_from_ns(ns) | 0xFFFF; // fractional ns are dropped
    assert_eq!(HW.core_timestamp(tuser), ns & ((1 << 48) - 1));
    assert_eq!(SW.core_timestamp(ns), ns);
}

fn seg(flags: u8, payload_len: u32) -> TcpSegment {
    TcpSegment {
        addrs: Addrs::V4 { src: [1, 2, 3, 4], dst: [5, 6, 7, 8] },
        src_port: 0x1111,
        dst_port: 0x2222,
        seq: 0x3333_4444,
        ack: 0x5555_6666,
        flags,
        ip_id: 0xBEEF,
        payload_len,
        header_cut: false,
    }
}

#[test]
fn descriptor_layouts() {
    let a = Addrs::V4 { src: [1, 2, 3, 4], dst: [5, 6, 7, 8] };
    assert_eq!(flow_id(a, 0x1111, 0x2222, 0x3333_4444), 0x0102_0304_0506_0708_1111_2222_3333_4444);
    assert_eq!(five_tuple_key(a, 0x1111, 0x2222, 6), 0x01_0203_0405_0607_0811_1122_2206);
    let v6 = Addrs::V6 { src: S6, dst: D6 };
    assert_ne!(flow_id(v6, 1, 2, 3), flow_id(v6.reversed(), 1, 2, 3));
    assert_eq!(five_tuple_key(v6, 1, 2, 6) >> 104, 0);
    // The IPv6 fold: H(src) ^ rotl(H(dst), 32), bit by bit as the hardware's parity trees compute it;
    // the reverse direction is the halves swapped, for both IP versions.
    let h = descriptors::ipv6_fold();
    let (s6, d6) = (u128::from_be_bytes(S6), u128::from_be_bytes(D6));
    assert_eq!(descriptors::addr_bits(v6), h.eval_masks(s6) ^ h.eval_masks(d6).rotate_left(32));
    for x in [v6, a] {
        assert_eq!(descriptors::addr_bits(x.reversed()), descriptors::addr_bits(x).rotate_left(32));
    }
    let s = seg(flags::ACK, 0);
    assert_eq!(
        invariant_key(&s),
        0x0102_0304_0506_0708_1111_2222u128 << 32
            | (0x3333_4444 ^ 0x5555_6666u32.rotate_left(13) ^ 0xBEEF_0000) as u128
    );
    assert_eq!(descriptors::finecomb(&s, 9), crate::finecomb::Descriptor::packet(invariant_key(&s), 9));
    assert_eq!(descriptors::maple(&s, 7).key, invariant_key(&s));
    let r = descriptors::reordering(&seg(flags::ACK, 10), 5).unwrap();
    assert_eq!(
        (r.addr, r.flow, r.seq, r.ts, r.data),
        (0x0506_0708, five_tuple_key(a, 0x1111, 0x2222, 6), 0x3333_4444, 5, true)
    );
    assert!(!descriptors::reordering(&s, 5).unwrap().data);
    assert_eq!(descriptors::ifpd(&s, 5).unwrap().flow, r.flow);
    let s6 = TcpSegment { addrs: v6, ..s };
    assert!(descriptors::reordering(&s6, 0).is_none() && descriptors::ifpd(&s6, 0).is_none());
}

#[test]
fn fridge_descriptors_per_mode_and_order() {
    let a = Addrs::V4 { src: [1, 2, 3, 4], dst: [5, 6, 7, 8] };
    let both: Vec<_> = descriptors::fridge(&seg(flags::ACK | flags::FIN, 10), 42, TcpMode::DataAck).collect();
    assert_eq!(both.len(), 2);
    assert_eq!((both[0].kind, both[0].id), (PacketKind::Response, flow_id(a.reversed(), 0x2222, 0x1111, 0x5555_6666)));
    assert_eq!((both[1].kind, both[1].id), (PacketKind::Request, flow_id(a, 0x1111, 0x2222, 0x3333_4444 + 11)));
    assert!(both.iter().all(|d| d.timestamp == 42));
    assert_eq!(descriptors::fridge(&seg(flags::ACK, 0), 0, TcpMode::DataAck).count(), 1);
    assert_eq!(descriptors::fridge(&seg(0, 0), 0, TcpMode::DataAck).count(), 0);
    let syn: Vec<_> = descriptors::fridge(&seg(flags::SYN, 0), 0, TcpMode::SynSynAck).collect();
    assert_eq!((syn.len(), syn[0].kind, syn[0].id), (1, PacketKind::Request, flow_id(a, 0x1111, 0x2222, 0x3333_4445)));
    let synack: Vec<_> = descriptors::fridge(&seg(flags::SYN | flags::ACK, 0), 0, TcpMode::SynSynAck).collect();
    assert_eq!((synack.len(), synack[0].kind), (1, PacketKind::Response));
    assert_eq!(descriptors::fridge(&seg(flags::ACK, 5), 0, TcpMode::SynSynAck).count(), 0);
}

/// A random frame: a valid one of a random encapsulation, then a few random bytes overwritten, and a
/// random truncation; or plain random bytes.
fn random_frame(rng: &mut SmallRng) -> Vec<u8> {
    let mut f = if rng.gen_bool(0.2) {
        (0..rng.gen_range(0..200)).map(|_| rng.gen()).collect()
    } else {
        let l4 = match rng.gen_range(0..3) {
            0 => udp(rng.gen(), rng.gen(), &vec![0; rng.gen_range(0..80)]),
            n => tcp(rng.gen(), rng.gen(), rng.gen(), rng.gen(), rng.gen(), 4 * rng.gen_range(0..11), &vec![0; n * 30]),
        };
        let proto = if l4.len() >= 20 && l4[12] >> 4 >= 5 { 6 } else { 17 };
        let exts: Vec<(u8, Vec<u8>)> = (0..rng.gen_range(0..4)).map(|_| (0u8, vec![0; 8])).collect();
        let (ethertype, l3) = if rng.gen_bool(0.5) {
            (0x0800, ipv4(A, B, proto, &l4))
        } else {
            (0x86DD, ipv6(S6, D6, &exts, proto, &l4))
        };
        let tags: Vec<u16> = (0..rng.gen_range(0..4)).map(|_| [0x8100, 0x88A8, 0x9100][rng.gen_range(0..3)]).collect();
        ether(&tags, ethertype, &l3)
    };
    for _ in 0..rng.gen_range(0..4) {
        if !f.is_empty() {
            let i = rng.gen_range(0..f.len().min(100));
            f[i] = rng.gen();
        }
    }
    let keep = rng.gen_range(0..=f.len());
    f.truncate(if rng.gen_bool(0.5) { keep } else { f.len() });
    f
}

#[test]
fn random_frames_never_panic_and_respect_the_window() {
    let mut rng = SmallRng::seed_from_u64(0x7061_7273);
    let mut ok = [0usize; 2];
    for _ in 0..50_000 {
        let f = random_frame(&mut rng);
        let wire = f.len() + rng.gen_range(0..2000);
        for (i, cfg) in [HW, SW].iter().enumerate() {
            let r = parse(&f, cfg);
            let _ = parse_ethernet(&f, wire, cfg);
            let _ = parse_ip(&f, rng.gen_range(0..20), wire, cfg);
            let _ = parse_after_ethertype(&f, rng.gen_range(0..30), rng.gen(), wire, cfg);
            if let Ok(h) = r {
                ok[i] += 1;
                let l4_len = if h.tcp.is_some() { 20 } else { 8 };
                assert!(h.l4_offset + l4_len <= f.len().min(cfg.window), "{h:?}");
                assert!(h.l3_offset < h.l4_offset);
            }
        }
        // Hardware: bytes past the window change nothing but the short flag's frame-length comparison.
        if f.len() > HW.window {
            let mut g = f.clone();
            g[HW.window..].iter_mut().for_each(|b| *b = rng.gen());
            assert_eq!(parse(&f, &HW), parse(&g, &HW));
        }
    }
    assert!(ok.iter().all(|&n| n > 5_000), "random frames should often be valid: {ok:?}");
}
