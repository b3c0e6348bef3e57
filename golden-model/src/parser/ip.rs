//! IPv4 (with options) and IPv6 (fixed header and a bounded chain of extension headers): decides the
//! addresses, the L4 protocol and offset, and the L4 bytes by the length fields.
//!
//! **IPv4.** Checks in this order: the fixed 20 bytes present ([`Drop::TruncatedIp`]), version 4
//! ([`Drop::BadIpVersion`]), IHL ≥ 5 ([`Drop::BadIhl`]), total length ≥ IHL ([`Drop::BadIpLength`]; a total
//! length of 0 is the frame's wire length under [`ParserConfig::zero_ip_length_from_wire`]), not a fragment
//! (MF clear and offset 0, else [`Drop::Fragment`]), protocol TCP/UDP ([`Drop::UnsupportedL4`]), options
//! present ([`Drop::TruncatedIp`]). The L4 header starts at IHL × 4 and the L4 bytes are total − IHL × 4.
//!
//! **IPv6.** The fixed 40 bytes present, version 6, then the chain: each extension header of the list in
//! the parser module docs is skipped in one step (hardware: one pipeline stage reading next-header and
//! length at a variable offset of the window), at most [`ParserConfig::max_ipv6_ext`] of them
//! ([`Drop::Ipv6ExtLimit`]). Lengths: (hdr_ext_len + 1) × 8, AH (hdr_ext_len + 2) × 4, fragment 8 (only an
//! atomic fragment — offset 0, M clear — is skipped; any other is [`Drop::Fragment`]). Each step requires
//! the header's bytes in the frame ([`Drop::TruncatedIp`]) and the payload length to cover it
//! ([`Drop::BadIpLength`]). A payload length of 0 (jumbogram, GSO) is taken from the wire length under
//! [`ParserConfig::zero_ip_length_from_wire`].

use super::{Addrs, Drop, ParserConfig, View, L3, PROTO_TCP, PROTO_UDP};

/// Bytes of the IPv4 header without options and of the IPv6 fixed header.
pub const IPV4_MIN_HEADER: usize = 20;
pub const IPV6_HEADER: usize = 40;

/// IPv6 extension headers skipped by `(hdr_ext_len + 1) × 8`: hop-by-hop, routing, destination options,
/// mobility, HIP, shim6.
pub const IPV6_EXT_8: [u8; 6] = [0, 43, 60, 135, 139, 140];
pub const IPV6_FRAGMENT: u8 = 44;
pub const IPV6_AH: u8 = 51;

/// Whether the parser reads past this IP protocol number (TCP, and UDP when configured).
fn l4_known(proto: u8, cfg: &ParserConfig) -> bool {
    proto == PROTO_TCP || (cfg.udp && proto == PROTO_UDP)
}

/// `len` if nonzero, else the wire length from `at` under the TSO switch.
fn length_or_wire(len: usize, v: &View, at: usize, cfg: &ParserConfig) -> usize {
    if len == 0 && cfg.zero_ip_length_from_wire {
        v.wire_len.saturating_sub(at)
    } else {
        len
    }
}

/// The IPv4 header at `at`.
pub(crate) fn ipv4(v: &View, at: usize, cfg: &ParserConfig) -> Result<L3, Drop> {
    v.need(at + IPV4_MIN_HEADER, Drop::TruncatedIp)?;
    if v.u8(at) >> 4 != 4 {
        return Err(Drop::BadIpVersion);
    }
    let ihl = (v.u8(at) & 0x0F) as usize * 4;
    if ihl < IPV4_MIN_HEADER {
        return Err(Drop::BadIhl);
    }
    let total = length_or_wire(v.be16(at + 2) as usize, v, at, cfg);
    if total < ihl {
        return Err(Drop::BadIpLength);
    }
    let frag = v.be16(at + 6);
    if frag & 0x1FFF != 0 || frag & 0x2000 != 0 {
        return Err(Drop::Fragment);
    }
    let protocol = v.u8(at + 9);
    if !l4_known(protocol, cfg) {
        return Err(Drop::UnsupportedL4);
    }
    v.need(at + ihl, Drop::TruncatedIp)?;
    let b = |i| v.u8(at + i);
    Ok(L3 {
        addrs: Addrs::V4 { src: [b(12), b(13), b(14), b(15)], dst: [b(16), b(17), b(18), b(19)] },
        ip_id: v.be16(at + 4),
        ip_len: total,
        protocol,
        l4_offset: at + ihl,
        ip_payload: total - ihl,
    })
}

/// The IPv6 header at `at` and its extension headers.
pub(crate) fn ipv6(v: &View, at: usize, cfg: &ParserConfig) -> Result<L3, Drop> {
    v.need(at + IPV6_HEADER, Drop::TruncatedIp)?;
    if v.u8(at) >> 4 != 6 {
        return Err(Drop::BadIpVersion);
    }
    let ip_len = IPV6_HEADER + length_or_wire(v.be16(at + 4) as usize, v, at + IPV6_HEADER, cfg);
    let mut payload = ip_len - IPV6_HEADER;
    let mut src = [0u8; 16];
    let mut dst = [0u8; 16];
    src.copy_from_slice(&v.bytes[at + 8..at + 24]);
    dst.copy_from_slice(&v.bytes[at + 24..at + 40]);
    let (mut next, mut p, mut steps) = (v.u8(at + 6), at + IPV6_HEADER, 0usize);
    while !l4_known(next, cfg) {
        let known = IPV6_EXT_8.contains(&next) || next == IPV6_FRAGMENT || next == IPV6_AH;
        if !known {
            return Err(Drop::UnsupportedL4); // ESP (50), no next header (59), ICMPv6, …
        }
        if steps == cfg.max_ipv6_ext {
            return Err(Drop::Ipv6ExtLimit);
        }
        let ext_len = match next {
            IPV6_FRAGMENT => {
                v.need(p + 4, Drop::TruncatedIp)?;
                let off = v.be16(p + 2);
                if off & 0xFFF8 != 0 || off & 1 != 0 {
                    return Err(Drop::Fragment);
                }
                8
            }
            IPV6_AH => {
                v.need(p + 2, Drop::TruncatedIp)?;
                (v.u8(p + 1) as usize + 2) * 4
            }
            _ => {
                v.need(p + 2, Drop::TruncatedIp)?;
                (v.u8(p + 1) as usize + 1) * 8
            }
        };
        next = v.u8(p);
        v.need(p + ext_len, Drop::TruncatedIp)?;
        if payload < ext_len {
            return Err(Drop::BadIpLength);
        }
        payload -= ext_len;
        p += ext_len;
        steps += 1;
    }
    Ok(L3 { addrs: Addrs::V6 { src, dst }, ip_id: 0, ip_len, protocol: next, l4_offset: p, ip_payload: payload })
}
