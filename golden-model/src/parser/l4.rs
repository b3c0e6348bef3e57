//! TCP and UDP headers: decides the ports, the TCP fields and the payload length.
//!
//! **TCP.** The fixed 20 bytes must be in the frame ([`Drop::TruncatedL4`]); the data offset must be
//! ≥ 5 words and fit the L4 bytes the IP length fields give ([`Drop::BadL4Header`]). Payload length = those
//! bytes − data offset × 4. Options are not parsed: a frame ending inside them is still a segment, flagged
//! [`Headers::l4_header_cut`](super::Headers::l4_header_cut) (Wireshark reads such segments the same way).
//!
//! **UDP.** The 8 bytes must be in the frame; the UDP length must be ≥ 8 and fit the IP payload
//! ([`Drop::BadL4Header`]); payload length = UDP length − 8 (IP padding after the datagram is ignored).

use super::{Drop, Tcp, View, L3, PROTO_TCP};

pub const TCP_MIN_HEADER: usize = 20;
pub const UDP_HEADER: usize = 8;

/// What L4 parsing gives.
#[derive(Debug, Clone, Copy)]
pub(crate) struct L4 {
    pub src_port: u16,
    pub dst_port: u16,
    pub tcp: Option<Tcp>,
    pub payload_len: u32,
    pub header_cut: bool,
}

/// The TCP or UDP header of `l3` (its protocol was checked by the IP layer).
pub(crate) fn parse(v: &View, l3: &L3) -> Result<L4, Drop> {
    let (p, bytes) = (l3.l4_offset, l3.ip_payload);
    if l3.protocol == PROTO_TCP {
        v.need(p + TCP_MIN_HEADER, Drop::TruncatedL4)?;
        let doff = (v.u8(p + 12) >> 4) as usize * 4;
        if doff < TCP_MIN_HEADER || doff > bytes {
            return Err(Drop::BadL4Header);
        }
        let tcp = Tcp { seq: v.be32(p + 4), ack: v.be32(p + 8), flags: v.u8(p + 13), header_len: doff as u8 };
        return Ok(L4 {
            src_port: v.be16(p),
            dst_port: v.be16(p + 2),
            tcp: Some(tcp),
            payload_len: (bytes - doff).min(u32::MAX as usize) as u32,
            header_cut: v.bytes.len() < p + doff,
        });
    }
    v.need(p + UDP_HEADER, Drop::TruncatedL4)?;
    let len = v.be16(p + 4) as usize;
    if len < UDP_HEADER || len > bytes {
        return Err(Drop::BadL4Header);
    }
    Ok(L4 {
        src_port: v.be16(p),
        dst_port: v.be16(p + 2),
        tcp: None,
        payload_len: (len - UDP_HEADER) as u32,
        header_cut: false,
    })
}
