//! Cross-check of the DataAck pairing against Wireshark's `tcp.analysis.ack_rtt` on real loopback captures
//! (tests/data, made by tests/data/make_fixtures.sh).
//!
//! What tshark computes: for each ACK, it walks the unacknowledged segments of the reverse direction (every
//! segment with payload, SYN or FIN) and reports `ack_rtt` against the one whose next sequence number equals
//! the ack number *exactly*; segments a cumulative ACK covers below that one get no sample. That is the
//! DataAck rule, except that tshark also measures SYN and FIN segments without payload, which DataAck does
//! not count as requests (the paper's requests are data packets).
//!
//! tshark sets `tcp.analysis.acks_frame` on such an ACK but leaves `ack_rtt` out when the RTT is exactly 0
//! (an ACK stamped in the same microsecond as its segment, common in a microsecond capture of loopback), so
//! `-Y tcp.analysis.ack_rtt` misses those samples. We therefore query
//! `-Y tcp.analysis.acks_frame -T fields -e frame.number -e tcp.analysis.acks_frame -e tcp.analysis.ack_rtt`
//! and read a missing RTT as 0; the `-Y tcp.analysis.ack_rtt` view is the rows with an RTT.
//!
//! **The subset that must agree:** tshark's samples whose acknowledged frame has `tcp.len > 0`. The test
//! demands that this set of (request frame, response frame, RTT in ns) equals our ground-truth pairs
//! exactly, and that every tshark sample outside it acknowledges a SYN or FIN without payload.
//!
//! tshark runs live when it is installed; its output saved next to each capture is checked in every case,
//! so a machine without tshark still compares against real tshark results.

use sim::traffic::{load_capture, TcpMode};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

const FIXTURES: [&str; 3] = ["lo_eth.pcap", "lo_eth.pcapng", "any_sll2.pcap"];

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// "0.000015368" → 15368 (exact decimal parse, no floating point).
fn seconds_to_ns(s: &str) -> u64 {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    assert!(frac.len() <= 9, "more than ns precision in {s:?}");
    let frac_ns: u64 = format!("{frac:0<9}").parse().unwrap();
    int.parse::<u64>().unwrap() * 1_000_000_000 + frac_ns
}

/// tshark's RTT samples: (acked frame, ack frame, rtt ns, rtt field present).
fn parse_acks(tsv: &str) -> Vec<(u64, u64, u64, bool)> {
    tsv.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "bad tshark line {l:?}");
            let rtt = f[2].trim();
            let ns = if rtt.is_empty() { 0 } else { seconds_to_ns(rtt) };
            (f[1].parse().unwrap(), f[0].parse().unwrap(), ns, !rtt.is_empty())
        })
        .collect()
}

/// frame number → tcp.len (TCP frames only).
fn parse_tcp_len(tsv: &str) -> BTreeMap<u64, u64> {
    tsv.lines()
        .filter_map(|l| {
            let (n, len) = l.split_once('\t')?;
            Some((n.trim().parse().ok()?, len.trim().parse().ok()?))
        })
        .collect()
}

fn tshark(args: &[&str]) -> Option<String> {
    let out = Command::new("tshark").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8(out.stdout).expect("utf-8"))
}

struct Agreement {
    /// Frames with `tcp.analysis.acks_frame`.
    tshark_samples: usize,
    /// Of those, the ones with an `ack_rtt` field (what `-Y tcp.analysis.ack_rtt` shows).
    with_rtt_field: usize,
    /// tshark samples acknowledging a data segment (the comparable subset).
    comparable: usize,
    /// Comparable samples that have an `ack_rtt` field.
    comparable_with_rtt_field: usize,
    /// Our ground-truth pairs.
    ours: usize,
    /// Comparable samples equal to one of ours in both frames and the RTT to the ns.
    identical: usize,
}

impl Agreement {
    fn report(&self, file: &str, source: &str) {
        eprintln!(
            "{file} ({source}): tshark {} acks_frame samples ({} with ack_rtt), {} on data segments \
             ({} with ack_rtt); ours {}; identical to the ns: {} of {}",
            self.tshark_samples,
            self.with_rtt_field,
            self.comparable,
            self.comparable_with_rtt_field,
            self.ours,
            self.identical,
            self.comparable
        );
    }
}

/// Compare our pairs on `file` with the tshark outputs given; panics with details on any disagreement.
fn compare(file: &str, acks: &str, tcp_len: &str) -> Agreement {
    let e = load_capture(data(file), TcpMode::DataAck, &Default::default()).unwrap_or_else(|e| panic!("{file}: {e}"));
    let ours: BTreeSet<(u64, u64, u64)> = e.frame_pairs().into_iter().collect();
    let samples = parse_acks(acks);
    let lens = parse_tcp_len(tcp_len);
    assert!(!samples.is_empty() && !lens.is_empty(), "{file}: empty tshark output");
    let mut comparable = BTreeSet::new();
    let mut comparable_with_rtt_field = 0;
    for &(acked, ack, rtt, has_field) in &samples {
        match lens.get(&acked) {
            Some(&len) if len > 0 => {
                comparable.insert((acked, ack, rtt));
                comparable_with_rtt_field += has_field as usize;
            }
            Some(_) => {} // SYN or FIN without payload: not a DataAck request
            None => panic!("{file}: tshark acked frame {acked} has no tcp.len"),
        }
    }
    let only_tshark: Vec<_> = comparable.difference(&ours).collect();
    let only_ours: Vec<_> = ours.difference(&comparable).collect();
    assert!(
        only_tshark.is_empty() && only_ours.is_empty(),
        "{file}: (request frame, response frame, ns) only in tshark: {only_tshark:?}; only ours: {only_ours:?}"
    );
    Agreement {
        tshark_samples: samples.len(),
        with_rtt_field: samples.iter().filter(|s| s.3).count(),
        comparable: comparable.len(),
        comparable_with_rtt_field,
        ours: ours.len(),
        identical: comparable.intersection(&ours).count(),
    }
}

#[test]
fn data_ack_pairing_matches_saved_tshark_output() {
    for file in FIXTURES {
        let acks = std::fs::read_to_string(data(&format!("{file}.acks.tsv"))).unwrap();
        let len = std::fs::read_to_string(data(&format!("{file}.tcp_len.tsv"))).unwrap();
        let a = compare(file, &acks, &len);
        a.report(file, "saved tshark 4.0.17 output");
        assert_eq!(a.identical, a.comparable);
        assert!(a.comparable >= 50, "{file}: too few samples to mean anything");
    }
}

#[test]
fn data_ack_pairing_matches_live_tshark() {
    if tshark(&["--version"]).is_none() {
        eprintln!("tshark not installed: live cross-check skipped (the saved-output test still ran)");
        return;
    }
    for file in FIXTURES {
        let path = data(file);
        let p = path.to_str().unwrap();
        let acks = tshark(&[
            "-r",
            p,
            "-Y",
            "tcp.analysis.acks_frame",
            "-T",
            "fields",
            "-e",
            "frame.number",
            "-e",
            "tcp.analysis.acks_frame",
            "-e",
            "tcp.analysis.ack_rtt",
        ])
        .expect("tshark acks_frame");
        let len = tshark(&["-r", p, "-T", "fields", "-e", "frame.number", "-e", "tcp.len"]).expect("tshark tcp.len");
        compare(file, &acks, &len).report(file, "live tshark");
    }
}

#[test]
fn pcap_and_pcapng_fixtures_give_the_same_trace() {
    for mode in [TcpMode::DataAck, TcpMode::SynSynAck] {
        let a = load_capture(data("lo_eth.pcap"), mode, &Default::default()).unwrap();
        let b = load_capture(data("lo_eth.pcapng"), mode, &Default::default()).unwrap();
        assert_eq!(a.trace, b.trace);
        assert_eq!(a.frame_numbers, b.frame_numbers);
        assert_eq!(a.stats, b.stats);
    }
}

#[test]
fn fixtures_decode_completely() {
    for file in FIXTURES {
        let e = load_capture(data(file), TcpMode::DataAck, &Default::default()).unwrap();
        let s = &e.stats;
        assert_eq!(s.tcp_segments, s.frames, "{file}: every frame is TCP over IPv4/IPv6: {s:?}");
        // At snap length 96, the cooked-v2 capture (20-byte link header) cuts the options of the four IPv6
        // SYN and SYN-ACK segments (40 + 40 bytes of IPv6 and TCP headers); they are used all the same.
        let cut = if file.contains("sll2") { 4 } else { 0 };
        assert_eq!(s.tcp_options_cut, cut, "{file}: {s:?}");
        assert_eq!(s.reordered, 0, "{file}");
        assert_eq!(s.duplicate_requests, 0, "{file}");
        // Payloads are cut by the 96-byte snap length, yet the true lengths come through: the bulk
        // transfer's segments are kilobytes long.
        let e_len = e.trace.packets.len();
        assert!(e_len > 200, "{file}: {e_len} descriptors");
        // The handshakes: one SYN → SYN-ACK sample per connection (6 connections, IPv4 and IPv6).
        let h = load_capture(data(file), TcpMode::SynSynAck, &Default::default()).unwrap();
        assert_eq!(h.trace.truth.len(), 6, "{file}");
        assert!(h.trace.true_delays_ns().iter().all(|&d| d > 0 && d < 10_000_000));
    }
}

/// The shared capture (gzip-compressed, beside the checkout) reads completely: the frame count its README
/// states (510 591, none dropped by tcpdump).
#[test]
fn shared_gzip_capture_reads_completely() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/captures/multipath-tcp-A.pcap.gz");
    let mut r = sim::traffic::capture::open(path).expect("../shared/captures is beside the checkout");
    let mut frames = 0u64;
    while r.next_frame().expect("a well-formed capture").is_some() {
        frames += 1;
    }
    assert_eq!(frames, 510_591);
}
