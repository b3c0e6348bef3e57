//! Tests of the capture reader (pcap and pcapng, built byte by byte in memory).

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

/// `open` reads a gzip-compressed capture (written here with flate2, in two gzip members as `cat a.gz b.gz`
/// makes) frame for frame as the plain file; a corrupt gzip stream is an error, not a panic.
#[test]
fn gzip_captures_read_like_plain_ones() {
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;
    let plain_path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lo_eth.pcapng");
    let plain = std::fs::read(plain_path).unwrap();
    let dir = std::env::temp_dir().join(format!("netmeas-gzip-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gz = dir.join("lo_eth.pcapng.gz");
    let mut bytes = Vec::new();
    for part in [&plain[..plain.len() / 2], &plain[plain.len() / 2..]] {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(part).unwrap();
        bytes.extend(e.finish().unwrap());
    }
    std::fs::write(&gz, &bytes).unwrap();
    let read_all = |p: &Path| -> Vec<Summary> {
        let mut r = open(p).unwrap();
        let mut v = Vec::new();
        while let Some(f) = r.next_frame().unwrap() {
            v.push((f.number, f.link_type, f.timestamp_ns, f.orig_len, f.data.to_vec()));
        }
        v
    };
    let (a, b) = (read_all(Path::new(plain_path)), read_all(&gz));
    assert!(a.len() > 10 && a == b, "{} plain frames, {} from gzip", a.len(), b.len());
    bytes.truncate(bytes.len() / 3);
    std::fs::write(&gz, &bytes).unwrap();
    let mut r = open(&gz).unwrap();
    let err = loop {
        match r.next_frame() {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("a truncated gzip stream must not read as a complete capture"),
            Err(e) => break e,
        }
    };
    assert!(!err.to_string().is_empty());
    std::fs::remove_dir_all(&dir).ok();
}
