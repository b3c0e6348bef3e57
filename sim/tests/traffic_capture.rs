//! Robustness of the capture reader on real files (tests/data): truncation at every byte offset, random
//! byte flips, a big-endian rewrite, and snap-length cuts applied after the fact.

use sim::traffic::capture::CaptureReader;
use sim::traffic::packet::{Decoder, Skip};
use sim::traffic::{extract, load_capture, Extracted, TcpMode, TraceError};
use std::io::Cursor;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap()
}

fn parse(bytes: &[u8], mode: TcpMode) -> Result<Extracted, TraceError> {
    extract(CaptureReader::new(Cursor::new(bytes))?, mode)
}

/// Offsets at which a classic little-endian pcap may end cleanly: after the global header and after each
/// record (`caplen_at` is 8 bytes into a 16-byte record header).
fn pcap_boundaries(b: &[u8]) -> Vec<usize> {
    let mut at = 24;
    let mut v = vec![at];
    while at < b.len() {
        let caplen = u32::from_le_bytes(b[at + 8..at + 12].try_into().unwrap()) as usize;
        at += 16 + caplen;
        v.push(at);
    }
    v
}

/// Offsets at which a little-endian pcapng may end cleanly: after each block.
fn pcapng_boundaries(b: &[u8]) -> Vec<usize> {
    let mut at = 0;
    let mut v = vec![];
    while at < b.len() {
        at += u32::from_le_bytes(b[at + 4..at + 8].try_into().unwrap()) as usize;
        v.push(at);
    }
    v
}

fn check_truncations(name: &str, bytes: &[u8], boundaries: &[usize]) {
    assert_eq!(*boundaries.last().unwrap(), bytes.len(), "{name}: boundary walk");
    let mut ok = 0;
    for cut in 0..bytes.len() {
        match parse(&bytes[..cut], TcpMode::DataAck) {
            Ok(_) => {
                assert!(boundaries.contains(&cut), "{name}: cut at {cut} inside a record was accepted");
                ok += 1;
            }
            Err(e) => {
                assert!(!boundaries.contains(&cut), "{name}: clean cut at {cut} rejected: {e}");
                assert!(e.offset() <= cut as u64, "{name}: cut at {cut}, error names offset {}: {e}", e.offset());
                assert!(e.to_string().contains(&format!("offset {}", e.offset())), "{e}");
            }
        }
    }
    // Every boundary but the full length was among the cuts.
    assert_eq!(ok, boundaries.len() - 1, "{name}");
}

#[test]
fn truncation_at_every_offset_is_an_error_or_a_clean_prefix() {
    let pcap = read("lo_eth.pcap");
    check_truncations("lo_eth.pcap", &pcap, &pcap_boundaries(&pcap));
    let sll2 = read("any_sll2.pcap");
    check_truncations("any_sll2.pcap", &sll2, &pcap_boundaries(&sll2));
    let ng = read("lo_eth.pcapng");
    check_truncations("lo_eth.pcapng", &ng, &pcapng_boundaries(&ng));
}

#[test]
fn truncated_file_error_names_the_record() {
    let pcap = read("lo_eth.pcap");
    let b = pcap_boundaries(&pcap);
    let cut = b[10] + 30; // inside the 11th record's data
    let e = parse(&pcap[..cut], TcpMode::DataAck).unwrap_err();
    assert_eq!(e.offset(), b[10] as u64);
    assert_eq!(
        e.to_string(),
        format!(
            "malformed capture at byte offset {}: truncated packet record data: needs {} more bytes, file ends at offset {cut}",
            b[10],
            b[11] - cut
        )
    );
}

/// xorshift64 for the fuzz loops.
fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[test]
fn random_byte_flips_never_panic() {
    for (name, seed) in [("lo_eth.pcap", 1), ("lo_eth.pcapng", 2), ("any_sll2.pcap", 3)] {
        let orig = read(name);
        let mut next = rng(0x9E37_79B9_7F4A_7C15 ^ seed);
        let (mut ok, mut err) = (0, 0);
        for i in 0..3000 {
            let mut b = orig.clone();
            let flips = 1 + next() % 8;
            for _ in 0..flips {
                // Half the time hit the first 200 bytes, where the headers that matter most are.
                let span = if i % 2 == 0 { 200.min(b.len()) } else { b.len() };
                let at = (next() % span as u64) as usize;
                b[at] ^= 1 << (next() % 8);
            }
            let cut = if i % 5 == 0 { (next() % b.len() as u64) as usize } else { b.len() };
            for mode in [TcpMode::DataAck, TcpMode::SynSynAck] {
                match parse(&b[..cut], mode) {
                    Ok(e) => {
                        ok += 1;
                        assert_eq!(e.frame_numbers.len(), e.trace.packets.len());
                        // The input keeps file order; the truth is taken in time order: never a negative delay.
                        assert_eq!(e.truth_indices.len(), e.trace.truth.len());
                        assert!(e.trace.truth.iter().all(|p| p.request_ts <= p.response_ts));
                    }
                    Err(e) => {
                        err += 1;
                        assert!(e.offset() <= cut as u64, "{name}: {e}");
                    }
                }
            }
        }
        eprintln!("{name}: {ok} corrupted parses succeeded, {err} were rejected");
        assert!(ok > 0 && err > 0);
    }
}

/// Rewrite a little-endian classic pcap in big-endian byte order.
fn to_big_endian(b: &[u8]) -> Vec<u8> {
    let swap32 = |v: &mut Vec<u8>, x: &[u8]| v.extend(u32::from_le_bytes(x.try_into().unwrap()).to_be_bytes());
    let swap16 = |v: &mut Vec<u8>, x: &[u8]| v.extend(u16::from_le_bytes(x.try_into().unwrap()).to_be_bytes());
    let mut v = Vec::new();
    swap32(&mut v, &b[0..4]);
    swap16(&mut v, &b[4..6]);
    swap16(&mut v, &b[6..8]);
    for f in (8..24).step_by(4) {
        swap32(&mut v, &b[f..f + 4]);
    }
    let mut at = 24;
    while at < b.len() {
        for f in (at..at + 16).step_by(4) {
            swap32(&mut v, &b[f..f + 4]);
        }
        let caplen = u32::from_le_bytes(b[at + 8..at + 12].try_into().unwrap()) as usize;
        v.extend_from_slice(&b[at + 16..at + 16 + caplen]);
        at += 16 + caplen;
    }
    v
}

#[test]
fn big_endian_pcap_reads_the_same() {
    let le = read("lo_eth.pcap");
    let be = to_big_endian(&le);
    assert_ne!(le, be);
    let a = parse(&le, TcpMode::DataAck).unwrap();
    let b = parse(&be, TcpMode::DataAck).unwrap();
    assert_eq!(a.trace, b.trace);
    assert_eq!(a.stats, b.stats);
}

/// Cut every record of a little-endian pcap to at most `snap` bytes, as a smaller snap length would have.
fn recut(b: &[u8], snap: usize) -> Vec<u8> {
    let mut v = b[..24].to_vec();
    v[16..20].copy_from_slice(&(snap as u32).to_le_bytes());
    let mut at = 24;
    while at < b.len() {
        let caplen = u32::from_le_bytes(b[at + 8..at + 12].try_into().unwrap()) as usize;
        let keep = caplen.min(snap);
        v.extend_from_slice(&b[at..at + 8]);
        v.extend((keep as u32).to_le_bytes());
        v.extend_from_slice(&b[at + 12..at + 16]);
        v.extend_from_slice(&b[at + 16..at + 16 + keep]);
        at += 16 + caplen;
    }
    v
}

#[test]
fn smaller_snap_lengths_lose_exactly_the_segments_whose_fixed_tcp_header_is_cut() {
    let full = read("lo_eth.pcap");
    let reference = load_capture(data("lo_eth.pcap"), TcpMode::DataAck, &Decoder::software()).unwrap();
    let all_pairs = reference.frame_pairs();
    // Ethernet + IPv6 + fixed TCP header = 74 bytes: nothing lost (options and payloads are cut).
    let e = parse(&recut(&full, 74), TcpMode::DataAck).unwrap();
    assert_eq!(e.trace, reference.trace);
    assert!(e.stats.tcp_options_cut > 100, "{:?}", e.stats);
    // 60 bytes keeps the fixed header of IPv4 segments (14 + 20 + 20) but not of IPv6 ones (14 + 40 + 6).
    let e = parse(&recut(&full, 60), TcpMode::DataAck).unwrap();
    let v6 = e.stats.skipped(Skip::TruncatedTcp);
    assert!(v6 > 50, "{:?}", e.stats);
    assert_eq!(e.stats.tcp_segments + v6, e.stats.frames);
    let kept: std::collections::BTreeSet<u64> = e.frame_numbers.iter().copied().collect();
    let expected: Vec<_> = all_pairs.iter().copied().filter(|(q, r, _)| kept.contains(q) && kept.contains(r)).collect();
    assert_eq!(e.frame_pairs(), expected);
    assert!(expected.len() < all_pairs.len());
    // 40 bytes: no usable segment at all.
    let e = parse(&recut(&full, 40), TcpMode::DataAck).unwrap();
    assert_eq!(e.stats.tcp_segments, 0);
    assert!(e.trace.packets.is_empty() && e.trace.truth.is_empty());
}

#[test]
fn not_a_capture_is_a_clear_error() {
    let e = load_capture(data("loopback_traffic.py"), TcpMode::DataAck, &Decoder::software()).unwrap_err();
    assert!(e.contains("loopback_traffic.py: malformed capture at byte offset 0: not a pcap or pcapng file"), "{e}");
    let e = load_capture(data("does_not_exist.pcap"), TcpMode::DataAck, &Decoder::software()).unwrap_err();
    assert!(e.contains("does_not_exist.pcap: I/O error"), "{e}");
}
