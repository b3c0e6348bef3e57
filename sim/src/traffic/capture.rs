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
//!
//! [`open`] also reads gzip-compressed captures (`.pcap.gz`, recognised by the gzip magic, not the name)
//! through `flate2`, streaming; offsets in errors are then offsets in the decompressed capture.

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

/// A capture file's bytes: plain, or decompressed on the fly.
pub type CaptureSource = Box<dyn Read + Send>;

/// The shared capture with known per-path reordering (`shared/captures/multipath-tcp-A.pcap.gz`) beside the
/// checkout — the working directory's `../shared`, or the build's — if it is there (the demo's capture).
pub fn shared_capture() -> Option<std::path::PathBuf> {
    let rel = "shared/captures/multipath-tcp-A.pcap.gz";
    [Path::new("..").join(rel), Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(rel)]
        .into_iter()
        .find(|p| p.exists())
}

/// Every frame of the capture file `path` in file order, to `f` (whose error stops the reading and is
/// returned as it is); the number of frames read. An unreadable or broken file is an error naming it.
pub fn for_each_frame(path: &Path, mut f: impl FnMut(&Frame<'_>) -> Result<(), String>) -> Result<u64, String> {
    let name = path.display();
    let mut reader = open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut frames = 0;
    while let Some(frame) = reader.next_frame().map_err(|e| format!("{name}: {e}"))? {
        frames += 1;
        f(&frame)?;
    }
    Ok(frames)
}

/// Open a capture file for reading (format detected from its first bytes; gzip-compressed files are
/// decompressed while reading).
pub fn open(path: impl AsRef<Path>) -> Result<CaptureReader<CaptureSource>, TraceError> {
    use std::io::BufRead;
    let f = File::open(path.as_ref()).map_err(|source| TraceError::Io { offset: 0, source })?;
    let mut f = BufReader::with_capacity(1 << 16, f);
    let gzip = f.fill_buf().map_err(|source| TraceError::Io { offset: 0, source })?.starts_with(&[0x1f, 0x8b]);
    let src: CaptureSource = if gzip {
        Box::new(BufReader::with_capacity(1 << 16, flate2::bufread::MultiGzDecoder::new(f)))
    } else {
        Box::new(f)
    };
    CaptureReader::new(src)
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
mod tests;
