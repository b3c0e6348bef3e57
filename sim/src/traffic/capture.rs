//! Reader of capture files: classic pcap and pcapng, written from the format specifications (no libpcap).
//!
//! - **pcap** (draft-ietf-opsawg-pcap): both byte orders, microsecond (`a1b2c3d4`) and nanosecond
//!   (`a1b23c4d`) magics, and the rare "modified" pcap (`a1b2cd34`, 24-byte record headers). The link type
//!   is the low 16 bits of the header's link-type field (the rest carries FCS information).
//! - **pcapng** (draft-ietf-opsawg-pcapng): any number of sections, each with its own byte order
//!   (Section Header Block); Interface Description Blocks with per-interface link type, snap length,
//!   `if_tsresol` (10^-n or 2^-n s) and `if_tsoffset` (s); packets from Enhanced Packet Blocks, Simple
//!   Packet Blocks (no timestamp: the frame's `timestamp_ns` is `None`) and the obsolete Packet Block. All
//!   other blocks (name resolution, statistics, custom, …) are skipped by their length.
//!
//! The reader streams: it holds one record or block at a time, so a capture of any size can be read.
//! Any structural problem — a truncated header, record or block, a length that does not fit, an unknown
//! magic, a packet on an undeclared interface — is a [`TraceError::Malformed`] naming the byte offset of the
//! offending structure. Nothing in a file can make it panic or allocate more than [`MAX_RECORD`] bytes.
//! A file that ends exactly between two records is complete, not truncated.

use super::TraceError;
use std::fs::File;
use std::io::{BufReader, ErrorKind, Read};
use std::path::Path;

/// Largest packet record or pcapng block accepted (libpcap itself caps packets at 256 KiB).
pub const MAX_RECORD: u32 = 16 << 20;

/// Link types this crate's decoder knows (values of the pcap/pcapng LINKTYPE registry).
pub mod linktype {
    /// BSD loopback: 4-byte address family in the capturing host's byte order.
    pub const NULL: u16 = 0;
    /// Ethernet II / 802.3.
    pub const ETHERNET: u16 = 1;
    /// Raw IP, as some systems wrote DLT_RAW into files (12 on most, 14 on OpenBSD).
    pub const RAW_12: u16 = 12;
    /// Raw IP (OpenBSD's DLT_RAW value).
    pub const RAW_14: u16 = 14;
    /// Raw IP (the registered LINKTYPE_RAW): IPv4 or IPv6 by the version nibble.
    pub const RAW: u16 = 101;
    /// OpenBSD loopback: 4-byte address family in network byte order.
    pub const LOOP: u16 = 108;
    /// Linux cooked capture v1 (`tcpdump -i any` before libpcap 1.10).
    pub const LINUX_SLL: u16 = 113;
    /// Raw IPv4.
    pub const IPV4: u16 = 228;
    /// Raw IPv6.
    pub const IPV6: u16 = 229;
    /// Linux cooked capture v2 (`tcpdump -i any` since libpcap 1.10).
    pub const LINUX_SLL2: u16 = 276;
}

/// Which container format a reader found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Classic pcap.
    Pcap {
        /// Record timestamps carry nanoseconds (else microseconds).
        nanos: bool,
        /// Fields are big-endian.
        big_endian: bool,
        /// Kuznetzov's modified format (24-byte record headers).
        modified: bool,
    },
    /// pcapng (byte order may change per section).
    PcapNg,
}

/// One captured packet, borrowed from the reader's buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame<'a> {
    /// 1-based packet number, counting every packet record of the file (as Wireshark numbers frames).
    pub number: u64,
    /// Byte offset of the packet's record header or block in the file.
    pub offset: u64,
    /// Link type of the packet's interface.
    pub link_type: u16,
    /// Arrival time in ns since the Unix epoch; `None` for pcapng Simple Packet Blocks, which have none.
    pub timestamp_ns: Option<u64>,
    /// Length of the packet on the wire (≥ `data.len()` unless the file says otherwise).
    pub orig_len: u32,
    /// The captured bytes (possibly cut by the snap length).
    pub data: &'a [u8],
}

/// Timestamp resolution of a pcapng interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TsResol {
    /// Units of 10^-n s.
    Dec(u8),
    /// Units of 2^-n s.
    Bin(u8),
}

#[derive(Debug, Clone, Copy)]
struct Interface {
    link_type: u16,
    snaplen: u32,
    resol: TsResol,
    offset_s: i64,
}

#[derive(Debug)]
enum State {
    Pcap { big_endian: bool, nanos: bool, modified: bool, link_type: u16 },
    PcapNg { big_endian: bool, interfaces: Vec<Interface> },
}

/// Streaming reader of one pcap or pcapng file.
#[derive(Debug)]
pub struct CaptureReader<R: Read> {
    src: R,
    /// Bytes consumed so far.
    pos: u64,
    state: State,
    buf: Vec<u8>,
    frames: u64,
}

/// Open a capture file for reading (format detected from its first bytes).
pub fn open(path: impl AsRef<Path>) -> Result<CaptureReader<BufReader<File>>, TraceError> {
    let f = File::open(path.as_ref()).map_err(|source| TraceError::Io { offset: 0, source })?;
    CaptureReader::new(BufReader::with_capacity(1 << 16, f))
}

fn u16_at(b: &[u8], at: usize, be: bool) -> u16 {
    let x = [b[at], b[at + 1]];
    if be {
        u16::from_be_bytes(x)
    } else {
        u16::from_le_bytes(x)
    }
}

fn u32_at(b: &[u8], at: usize, be: bool) -> u32 {
    let x = [b[at], b[at + 1], b[at + 2], b[at + 3]];
    if be {
        u32::from_be_bytes(x)
    } else {
        u32::from_le_bytes(x)
    }
}

fn u64_at(b: &[u8], at: usize, be: bool) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    if be {
        u64::from_be_bytes(x)
    } else {
        u64::from_le_bytes(x)
    }
}

const PCAPNG_SHB: u32 = 0x0A0D_0D0A;
const PCAPNG_IDB: u32 = 1;
const PCAPNG_PB: u32 = 2;
const PCAPNG_SPB: u32 = 3;
const PCAPNG_EPB: u32 = 6;
const BYTE_ORDER_MAGIC: u32 = 0x1A2B_3C4D;

impl<R: Read> CaptureReader<R> {
    /// Read the file header (pcap global header or the first pcapng Section Header Block).
    pub fn new(mut src: R) -> Result<Self, TraceError> {
        let mut magic = [0u8; 4];
        let got = fill(&mut src, &mut magic, 0)?;
        if got == 0 {
            return Err(TraceError::malformed(0, "empty file: not a pcap or pcapng capture"));
        }
        if got < 4 {
            return Err(TraceError::malformed(0, format!("file too short for a capture magic ({got} bytes)")));
        }
        let mut r = CaptureReader {
            src,
            pos: 4,
            state: State::PcapNg { big_endian: false, interfaces: Vec::new() },
            buf: Vec::new(),
            frames: 0,
        };
        if u32::from_le_bytes(magic) == PCAPNG_SHB {
            r.read_shb(0)?;
            return Ok(r);
        }
        let (big_endian, nanos, modified) = match u32::from_le_bytes(magic) {
            0xA1B2_C3D4 => (false, false, false),
            0xD4C3_B2A1 => (true, false, false),
            0xA1B2_3C4D => (false, true, false),
            0x4D3C_B2A1 => (true, true, false),
            0xA1B2_CD34 => (false, false, true),
            0x34CD_B2A1 => (true, false, true),
            _ => {
                return Err(TraceError::malformed(
                    0,
                    format!(
                        "not a pcap or pcapng file (first bytes {:02x} {:02x} {:02x} {:02x})",
                        magic[0], magic[1], magic[2], magic[3]
                    ),
                ))
            }
        };
        let mut hdr = [0u8; 20];
        r.read_exact_at(&mut hdr, 0, "pcap global header")?;
        let (major, minor) = (u16_at(&hdr, 0, big_endian), u16_at(&hdr, 2, big_endian));
        if major != 2 {
            return Err(TraceError::malformed(4, format!("unsupported pcap version {major}.{minor} (expected 2.x)")));
        }
        let link_type = (u32_at(&hdr, 16, big_endian) & 0xFFFF) as u16;
        r.state = State::Pcap { big_endian, nanos, modified, link_type };
        Ok(r)
    }

    /// The container format.
    pub fn format(&self) -> Format {
        match self.state {
            State::Pcap { big_endian, nanos, modified, .. } => Format::Pcap { nanos, big_endian, modified },
            State::PcapNg { .. } => Format::PcapNg,
        }
    }

    /// Bytes consumed so far (the offset of the next record or block).
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The next packet, `Ok(None)` at a clean end of file.
    pub fn next_frame(&mut self) -> Result<Option<Frame<'_>>, TraceError> {
        match self.state {
            State::Pcap { .. } => self.next_pcap(),
            State::PcapNg { .. } => self.next_pcapng(),
        }
    }

    /// Fill `out` completely; a short read is "truncated `what`" at `start`.
    fn read_exact_at(&mut self, out: &mut [u8], start: u64, what: &str) -> Result<(), TraceError> {
        let got = fill(&mut self.src, out, self.pos)?;
        self.pos += got as u64;
        if got < out.len() {
            return Err(TraceError::malformed(
                start,
                format!("truncated {what}: needs {} more bytes, file ends at offset {}", out.len() - got, self.pos),
            ));
        }
        Ok(())
    }

    /// Read `len` bytes into the internal buffer.
    fn read_buf(&mut self, len: usize, start: u64, what: &str) -> Result<(), TraceError> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.resize(len, 0);
        let res = self.read_exact_at(&mut buf, start, what);
        self.buf = buf;
        res
    }

    fn next_pcap(&mut self) -> Result<Option<Frame<'_>>, TraceError> {
        let State::Pcap { big_endian: be, nanos, modified, link_type } = self.state else { unreachable!() };
        let start = self.pos;
        let mut hdr = [0u8; 24];
        let hlen = if modified { 24 } else { 16 };
        let got = fill(&mut self.src, &mut hdr[..hlen], self.pos)?;
        self.pos += got as u64;
        if got == 0 {
            return Ok(None);
        }
        if got < hlen {
            return Err(TraceError::malformed(
                start,
                format!("truncated packet record header: {got} of {hlen} bytes before end of file"),
            ));
        }
        let (sec, frac) = (u32_at(&hdr, 0, be) as u64, u32_at(&hdr, 4, be) as u64);
        let (incl, orig) = (u32_at(&hdr, 8, be), u32_at(&hdr, 12, be));
        if incl > MAX_RECORD {
            return Err(TraceError::malformed(
                start,
                format!("packet record claims {incl} captured bytes (more than the {MAX_RECORD}-byte limit)"),
            ));
        }
        self.read_buf(incl as usize, start, "packet record data")?;
        self.frames += 1;
        let ts = sec * 1_000_000_000 + if nanos { frac } else { frac * 1000 };
        Ok(Some(Frame {
            number: self.frames,
            offset: start,
            link_type,
            timestamp_ns: Some(ts),
            orig_len: orig,
            data: &self.buf,
        }))
    }

    /// Read a Section Header Block whose 4-byte type was already consumed at `start`.
    fn read_shb(&mut self, start: u64) -> Result<(), TraceError> {
        let mut head = [0u8; 8];
        self.read_exact_at(&mut head, start, "pcapng section header block")?;
        let be = match u32::from_le_bytes([head[4], head[5], head[6], head[7]]) {
            BYTE_ORDER_MAGIC => false,
            0x4D3C_2B1A => true,
            _ => {
                return Err(TraceError::malformed(
                    start + 8,
                    "pcapng section header block with an invalid byte-order magic",
                ))
            }
        };
        let total = u32_at(&head, 0, be);
        if total < 28 || total % 4 != 0 || total > MAX_RECORD {
            return Err(TraceError::malformed(
                start + 4,
                format!("pcapng section header block length {total} (must be a multiple of 4, 28..{MAX_RECORD})"),
            ));
        }
        self.read_buf(total as usize - 12, start, "pcapng section header block")?;
        let b = &self.buf;
        let (major, minor) = (u16_at(b, 0, be), u16_at(b, 2, be));
        if major != 1 {
            return Err(TraceError::malformed(
                start + 12,
                format!("unsupported pcapng version {major}.{minor} (expected 1.x)"),
            ));
        }
        check_trailer(b, total, be, start)?;
        self.state = State::PcapNg { big_endian: be, interfaces: Vec::new() };
        Ok(())
    }

    fn next_pcapng(&mut self) -> Result<Option<Frame<'_>>, TraceError> {
        loop {
            let start = self.pos;
            let mut ty = [0u8; 4];
            let got = fill(&mut self.src, &mut ty, self.pos)?;
            self.pos += got as u64;
            if got == 0 {
                return Ok(None);
            }
            if got < 4 {
                return Err(TraceError::malformed(start, format!("truncated pcapng block header: {got} of 8 bytes")));
            }
            if u32::from_le_bytes(ty) == PCAPNG_SHB {
                self.read_shb(start)?;
                continue;
            }
            let be = match &self.state {
                State::PcapNg { big_endian, .. } => *big_endian,
                State::Pcap { .. } => unreachable!(),
            };
            let block_type = u32_at(&ty, 0, be);
            let mut len = [0u8; 4];
            self.read_exact_at(&mut len, start, "pcapng block header")?;
            let total = u32_at(&len, 0, be);
            if total < 12 || total % 4 != 0 || total > MAX_RECORD {
                return Err(TraceError::malformed(
                    start + 4,
                    format!(
                        "pcapng block of type 0x{block_type:x} has length {total} (must be a multiple of 4, 12..{MAX_RECORD})"
                    ),
                ));
            }
            self.read_buf(total as usize - 8, start, &format!("pcapng block of type 0x{block_type:x}"))?;
            check_trailer(&self.buf, total, be, start)?;
            let body_len = total as usize - 12;
            match block_type {
                PCAPNG_IDB => {
                    let iface = parse_idb(&self.buf[..body_len], be, start)?;
                    if let State::PcapNg { interfaces, .. } = &mut self.state {
                        interfaces.push(iface);
                    }
                }
                PCAPNG_EPB | PCAPNG_PB => {
                    // EPB: interface u32; obsolete PB: interface u16 + drops u16. Both then have
                    // ts_high, ts_low, captured length, original length: a 20-byte header.
                    let hdr = 20;
                    if body_len < hdr {
                        return Err(TraceError::malformed(
                            start,
                            format!("pcapng packet block too short for its header ({body_len} body bytes)"),
                        ));
                    }
                    let b = &self.buf;
                    let iface_id = if block_type == PCAPNG_EPB { u32_at(b, 0, be) } else { u16_at(b, 0, be) as u32 };
                    let ts_units = ((u32_at(b, 4, be) as u64) << 32) | u32_at(b, 8, be) as u64;
                    let (caplen, orig) = (u32_at(b, 12, be), u32_at(b, 16, be));
                    if caplen as usize > body_len - hdr {
                        return Err(TraceError::malformed(
                            start,
                            format!("pcapng packet block claims {caplen} captured bytes but holds {}", body_len - hdr),
                        ));
                    }
                    let iface = self.interface(iface_id, start)?;
                    let ts = to_ns(ts_units, iface.resol, iface.offset_s).ok_or_else(|| {
                        TraceError::malformed(start + 12, "packet timestamp outside 1970..2554 after if_tsoffset")
                    })?;
                    self.frames += 1;
                    return Ok(Some(Frame {
                        number: self.frames,
                        offset: start,
                        link_type: iface.link_type,
                        timestamp_ns: Some(ts),
                        orig_len: orig,
                        data: &self.buf[hdr..hdr + caplen as usize],
                    }));
                }
                PCAPNG_SPB => {
                    if body_len < 4 {
                        return Err(TraceError::malformed(start, "pcapng simple packet block without a length"));
                    }
                    let iface = self.interface(0, start)?;
                    let orig = u32_at(&self.buf, 0, be);
                    let mut caplen = (orig as usize).min(body_len - 4);
                    if iface.snaplen != 0 {
                        caplen = caplen.min(iface.snaplen as usize);
                    }
                    self.frames += 1;
                    return Ok(Some(Frame {
                        number: self.frames,
                        offset: start,
                        link_type: iface.link_type,
                        timestamp_ns: None,
                        orig_len: orig,
                        data: &self.buf[4..4 + caplen],
                    }));
                }
                _ => {} // name resolution, interface statistics, decryption secrets, custom: not needed
            }
        }
    }

    fn interface(&self, id: u32, block: u64) -> Result<Interface, TraceError> {
        let State::PcapNg { interfaces, .. } = &self.state else { unreachable!() };
        interfaces.get(id as usize).copied().ok_or_else(|| {
            TraceError::malformed(
                block,
                format!("packet on interface {id}, but this section declares only {} interfaces", interfaces.len()),
            )
        })
    }
}

/// Read until `out` is full or the source ends; returns the bytes read. Only real I/O errors fail.
fn fill<R: Read>(src: &mut R, out: &mut [u8], pos: u64) -> Result<usize, TraceError> {
    let mut got = 0;
    while got < out.len() {
        match src.read(&mut out[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(source) => return Err(TraceError::Io { offset: pos + got as u64, source }),
        }
    }
    Ok(got)
}

/// `b` holds a pcapng block after its first 8 bytes; its last 4 must repeat the total length.
fn check_trailer(b: &[u8], total: u32, be: bool, start: u64) -> Result<(), TraceError> {
    let trailer = u32_at(b, b.len() - 4, be);
    if trailer != total {
        return Err(TraceError::malformed(
            start + total as u64 - 4,
            format!("pcapng block length trailer {trailer} differs from its header {total}"),
        ));
    }
    Ok(())
}

/// Parse an Interface Description Block body (without type, length and trailer).
fn parse_idb(b: &[u8], be: bool, start: u64) -> Result<Interface, TraceError> {
    if b.len() < 8 {
        return Err(TraceError::malformed(start, "pcapng interface description block too short"));
    }
    let mut iface =
        Interface { link_type: u16_at(b, 0, be), snaplen: u32_at(b, 4, be), resol: TsResol::Dec(6), offset_s: 0 };
    let mut at = 8;
    while at + 4 <= b.len() {
        let (code, len) = (u16_at(b, at, be), u16_at(b, at + 2, be) as usize);
        let opt_at = start + 8 + at as u64;
        if code == 0 {
            break; // opt_endofopt
        }
        let value = at + 4;
        if value + len > b.len() {
            return Err(TraceError::malformed(
                opt_at,
                format!("pcapng interface option {code} of length {len} overruns its block"),
            ));
        }
        match code {
            9 => {
                if len != 1 {
                    return Err(TraceError::malformed(
                        opt_at,
                        format!("if_tsresol option of length {len}, expected 1"),
                    ));
                }
                let v = b[value];
                iface.resol = if v & 0x80 == 0 { TsResol::Dec(v) } else { TsResol::Bin(v & 0x7F) };
                if let TsResol::Dec(n) = iface.resol {
                    if n > 30 {
                        return Err(TraceError::malformed(opt_at, format!("if_tsresol of 10^-{n} s is not supported")));
                    }
                }
            }
            14 => {
                if len != 8 {
                    return Err(TraceError::malformed(
                        opt_at,
                        format!("if_tsoffset option of length {len}, expected 8"),
                    ));
                }
                iface.offset_s = u64_at(b, value, be) as i64;
            }
            _ => {}
        }
        at = value + len.div_ceil(4) * 4;
    }
    Ok(iface)
}

/// Convert interface time units to ns since the epoch; `None` if the result does not fit a u64.
fn to_ns(units: u64, resol: TsResol, offset_s: i64) -> Option<u64> {
    let units = units as u128;
    let ns: u128 = match resol {
        TsResol::Dec(n) if n <= 9 => units * 10u128.pow(9 - n as u32),
        TsResol::Dec(n) => units / 10u128.pow(n as u32 - 9),
        TsResol::Bin(n) => (units * 1_000_000_000) >> n.min(127),
    };
    let total = ns as i128 + offset_s as i128 * 1_000_000_000;
    u64::try_from(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A classic pcap file with the given magic-derived options and (ts_sec, ts_frac, data, orig_len) records.
    pub(crate) fn pcap_file(be: bool, nanos: bool, link: u32, recs: &[(u32, u32, &[u8], u32)]) -> Vec<u8> {
        let w32 = |v: &mut Vec<u8>, x: u32| v.extend(if be { x.to_be_bytes() } else { x.to_le_bytes() });
        let w16 = |v: &mut Vec<u8>, x: u16| v.extend(if be { x.to_be_bytes() } else { x.to_le_bytes() });
        let mut v = Vec::new();
        w32(&mut v, if nanos { 0xA1B2_3C4D } else { 0xA1B2_C3D4 });
        w16(&mut v, 2);
        w16(&mut v, 4);
        w32(&mut v, 0);
        w32(&mut v, 0);
        w32(&mut v, 65535);
        w32(&mut v, link);
        for (s, f, d, orig) in recs {
            w32(&mut v, *s);
            w32(&mut v, *f);
            w32(&mut v, d.len() as u32);
            w32(&mut v, *orig);
            v.extend_from_slice(d);
        }
        v
    }

    /// pcapng block builder.
    pub(crate) fn block(be: bool, ty: u32, body: &[u8]) -> Vec<u8> {
        let w32 = |v: &mut Vec<u8>, x: u32| v.extend(if be { x.to_be_bytes() } else { x.to_le_bytes() });
        let mut padded = body.to_vec();
        while padded.len() % 4 != 0 {
            padded.push(0);
        }
        let total = padded.len() as u32 + 12;
        let mut v = Vec::new();
        w32(&mut v, ty);
        w32(&mut v, total);
        v.extend(padded);
        w32(&mut v, total);
        v
    }

    pub(crate) fn shb(be: bool) -> Vec<u8> {
        let mut body = Vec::new();
        let e32 = |x: u32| if be { x.to_be_bytes() } else { x.to_le_bytes() };
        let e16 = |x: u16| if be { x.to_be_bytes() } else { x.to_le_bytes() };
        body.extend(e32(BYTE_ORDER_MAGIC));
        body.extend(e16(1));
        body.extend(e16(0));
        body.extend((-1i64).to_le_bytes());
        block(be, PCAPNG_SHB, &body)
    }

    /// IDB with link type, snaplen and optional tsresol/tsoffset options.
    pub(crate) fn idb(be: bool, link: u16, snaplen: u32, tsresol: Option<u8>, tsoffset: Option<i64>) -> Vec<u8> {
        let e32 = |x: u32| if be { x.to_be_bytes() } else { x.to_le_bytes() };
        let e16 = |x: u16| if be { x.to_be_bytes() } else { x.to_le_bytes() };
        let mut body = Vec::new();
        body.extend(e16(link));
        body.extend(e16(0));
        body.extend(e32(snaplen));
        if let Some(r) = tsresol {
            body.extend(e16(9));
            body.extend(e16(1));
            body.extend([r, 0, 0, 0]);
        }
        if let Some(o) = tsoffset {
            body.extend(e16(14));
            body.extend(e16(8));
            body.extend(if be { o.to_be_bytes() } else { o.to_le_bytes() });
        }
        body.extend(e16(0));
        body.extend(e16(0));
        block(be, PCAPNG_IDB, &body)
    }

    pub(crate) fn epb(be: bool, iface: u32, ts: u64, data: &[u8], orig: u32) -> Vec<u8> {
        let e32 = |x: u32| if be { x.to_be_bytes() } else { x.to_le_bytes() };
        let mut body = Vec::new();
        body.extend(e32(iface));
        body.extend(e32((ts >> 32) as u32));
        body.extend(e32(ts as u32));
        body.extend(e32(data.len() as u32));
        body.extend(e32(orig));
        body.extend_from_slice(data);
        block(be, PCAPNG_EPB, &body)
    }

    /// (number, link type, timestamp, original length, data) of a frame.
    type Summary = (u64, u16, Option<u64>, u32, Vec<u8>);

    fn frames(bytes: &[u8]) -> Result<Vec<Summary>, TraceError> {
        let mut r = CaptureReader::new(Cursor::new(bytes))?;
        let mut out = Vec::new();
        while let Some(f) = r.next_frame()? {
            out.push((f.number, f.link_type, f.timestamp_ns, f.orig_len, f.data.to_vec()));
        }
        Ok(out)
    }

    #[test]
    fn pcap_all_magics() {
        for be in [false, true] {
            for nanos in [false, true] {
                let f = pcap_file(be, nanos, 1, &[(3, 5, b"abc", 60), (4, 0, b"", 0)]);
                let fr = frames(&f).unwrap();
                let frac = if nanos { 5 } else { 5000 };
                assert_eq!(fr[0], (1, 1, Some(3_000_000_000 + frac), 60, b"abc".to_vec()));
                assert_eq!(fr[1].0, 2);
                assert_eq!(fr[1].2, Some(4_000_000_000));
                let r = CaptureReader::new(Cursor::new(&f)).unwrap();
                assert_eq!(r.format(), Format::Pcap { nanos, big_endian: be, modified: false });
            }
        }
    }

    #[test]
    fn pcap_link_type_masks_fcs_bits() {
        let f = pcap_file(false, false, 0x1400_0000 | 113, &[(0, 0, b"x", 1)]);
        assert_eq!(frames(&f).unwrap()[0].1, 113);
    }

    #[test]
    fn modified_pcap() {
        let mut f = pcap_file(false, false, 101, &[]);
        f[0..4].copy_from_slice(&0xA1B2_CD34u32.to_le_bytes());
        for x in [1u32, 2, 2, 2] {
            f.extend(x.to_le_bytes());
        }
        f.extend([0u8; 8]); // ifindex, protocol, pkt_type, pad
        f.extend(b"ab");
        assert_eq!(frames(&f).unwrap(), vec![(1, 101, Some(1_000_002_000), 2, b"ab".to_vec())]);
    }

    #[test]
    fn pcap_errors_name_offsets() {
        let f = pcap_file(false, false, 1, &[(0, 0, b"abcdef", 6)]);
        let e = frames(&f[..f.len() - 2]).unwrap_err();
        assert_eq!(e.offset(), 24);
        assert!(e.to_string().contains("truncated packet record data"), "{e}");
        let e = frames(&f[..30]).unwrap_err();
        assert_eq!(e.offset(), 24);
        assert!(e.to_string().contains("record header"), "{e}");
        let e = frames(&f[..10]).unwrap_err();
        assert!(e.to_string().contains("global header"), "{e}");
        assert_eq!(frames(&[]).unwrap_err().offset(), 0);
        let e = frames(b"GIF89a....").unwrap_err();
        assert!(e.to_string().contains("not a pcap or pcapng"), "{e}");
        let mut huge = pcap_file(false, false, 1, &[]);
        huge.extend([0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]);
        assert!(frames(&huge).unwrap_err().to_string().contains("limit"));
        let mut v3 = pcap_file(false, false, 1, &[]);
        v3[4] = 3;
        assert!(frames(&v3).unwrap_err().to_string().contains("version 3"));
    }

    #[test]
    fn pcapng_both_byte_orders_and_resolutions() {
        for be in [false, true] {
            let mut f = shb(be);
            f.extend(idb(be, 1, 0, None, None)); // µs
            f.extend(idb(be, 113, 0, Some(9), None)); // ns
            f.extend(idb(be, 276, 0, Some(0x80 | 20), Some(100))); // 2^-20 s, +100 s
            f.extend(epb(be, 0, 7, b"abcde", 80));
            f.extend(epb(be, 1, 7, b"", 0));
            f.extend(epb(be, 2, 1 << 20, b"z", 1));
            f.extend(block(be, 4, &[0; 8])); // name resolution block: skipped
            let fr = frames(&f).unwrap();
            assert_eq!(fr[0], (1, 1, Some(7_000), 80, b"abcde".to_vec()));
            assert_eq!(fr[1], (2, 113, Some(7), 0, vec![]));
            assert_eq!(fr[2], (3, 276, Some(101_000_000_000), 1, b"z".to_vec()));
            assert_eq!(fr.len(), 3);
        }
    }

    #[test]
    fn pcapng_sections_switch_byte_order_and_reset_interfaces() {
        let mut f = shb(false);
        f.extend(idb(false, 1, 0, None, None));
        f.extend(epb(false, 0, 1, b"a", 1));
        f.extend(shb(true));
        f.extend(idb(true, 101, 0, Some(9), None));
        f.extend(epb(true, 0, 2, b"b", 1));
        let fr = frames(&f).unwrap();
        assert_eq!((fr[0].1, fr[0].2), (1, Some(1000)));
        assert_eq!((fr[1].1, fr[1].2), (101, Some(2)));
        // An interface of the first section is gone in the second.
        let mut g = shb(false);
        g.extend(idb(false, 1, 0, None, None));
        g.extend(shb(false));
        let at = g.len() as u64;
        g.extend(epb(false, 0, 1, b"a", 1));
        let e = frames(&g).unwrap_err();
        assert_eq!(e.offset(), at);
        assert!(e.to_string().contains("declares only 0 interfaces"), "{e}");
    }

    #[test]
    fn pcapng_simple_and_obsolete_packet_blocks() {
        let mut f = shb(false);
        f.extend(idb(false, 1, 4, None, None));
        let mut spb = 10u32.to_le_bytes().to_vec();
        spb.extend(b"0123456789");
        f.extend(block(false, PCAPNG_SPB, &spb)); // cut to the snaplen of 4
        let mut pb = Vec::new();
        pb.extend(0u16.to_le_bytes());
        pb.extend(0u16.to_le_bytes());
        pb.extend(0u32.to_le_bytes());
        pb.extend(5u32.to_le_bytes());
        pb.extend(2u32.to_le_bytes());
        pb.extend(9u32.to_le_bytes());
        pb.extend(b"hi");
        f.extend(block(false, PCAPNG_PB, &pb));
        let fr = frames(&f).unwrap();
        assert_eq!(fr[0], (1, 1, None, 10, b"0123".to_vec()));
        assert_eq!(fr[1], (2, 1, Some(5_000), 9, b"hi".to_vec()));
    }

    #[test]
    fn pcapng_errors_name_offsets() {
        let mut f = shb(false);
        f.extend(idb(false, 1, 0, None, None));
        let at = f.len();
        f.extend(epb(false, 0, 1, b"abcd", 4));
        // Trailer mismatch.
        let mut g = f.clone();
        let n = g.len();
        g[n - 4] ^= 1;
        let e = frames(&g).unwrap_err();
        assert!(e.to_string().contains("trailer"), "{e}");
        // Captured length beyond the block.
        let mut g = f.clone();
        g[at + 20] = 200;
        let e = frames(&g).unwrap_err();
        assert_eq!(e.offset(), at as u64);
        assert!(e.to_string().contains("claims 200 captured bytes"), "{e}");
        // Length not a multiple of 4.
        let mut g = f.clone();
        g[at + 4] += 1;
        assert_eq!(frames(&g).unwrap_err().offset(), at as u64 + 4);
        // Bad byte-order magic.
        let mut g = f.clone();
        g[8] = 0;
        assert!(frames(&g).unwrap_err().to_string().contains("byte-order magic"));
        // Truncated block.
        let e = frames(&f[..f.len() - 3]).unwrap_err();
        assert_eq!(e.offset(), at as u64);
        // Bad options.
        let mut g = shb(false);
        let mut bad = idb(false, 1, 0, Some(6), None);
        bad[18] = 2; // if_tsresol length 2
        g.extend(bad);
        assert!(frames(&g).unwrap_err().to_string().contains("if_tsresol"));
        let mut g = shb(false);
        let mut bad = idb(false, 1, 0, Some(6), None);
        bad[18] = 0xF0; // option length beyond the block
        g.extend(bad);
        assert!(frames(&g).unwrap_err().to_string().contains("overruns"));
    }

    #[test]
    fn timestamp_conversion() {
        assert_eq!(to_ns(5, TsResol::Dec(6), 0), Some(5_000));
        assert_eq!(to_ns(5, TsResol::Dec(9), 0), Some(5));
        assert_eq!(to_ns(5_000, TsResol::Dec(12), 0), Some(5));
        assert_eq!(to_ns(1 << 30, TsResol::Bin(30), 0), Some(1_000_000_000));
        assert_eq!(to_ns(1, TsResol::Dec(0), -1), Some(0));
        assert_eq!(to_ns(0, TsResol::Dec(6), -1), None);
        assert_eq!(to_ns(u64::MAX, TsResol::Dec(0), 0), None);
    }
}
