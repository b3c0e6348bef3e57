//! Request/response descriptors from TCP segments (the fridge paper's §2.4 "Real-world traffic").
//!
//! Two modes ([`TcpMode`]):
//!
//! - **`DataAck`** (the paper's): a segment with payload is a *request* identified by its flow and the
//!   acknowledgement number that will acknowledge exactly its end, `E = seq + payload_len (+1 if SYN)
//!   (+1 if FIN)` mod 2^32. Every segment with the ACK flag is a *response*, identified by the reverse flow
//!   and its ack number; it answers the request whose `E` equals that ack number *exactly*. (A cumulative ACK
//!   that covers several segments therefore answers only the last of them; the others stay unanswered,
//!   as in the paper, where delayed ACKs leave most requests without a response.)
//! - **`SynSynAck`**: a SYN without ACK is a request with `E = isn + 1`; a SYN-ACK is a response with its
//!   ack number. This measures the handshake round trip as seen by the capture point.
//!
//! A segment that is both (data carrying an ACK) yields two descriptors with its timestamp: the response
//! first (it acknowledges older data), then the request. These per-segment definitions live in
//! `golden::parser::descriptors` (one definition for the hardware parser and this reader); what follows
//! them here — duplicate removal and re-sorting — is software-only.
//!
//! **Ids.** The id folds the request's direction 5-tuple and `E` into 128 bits, without hashing for IPv4:
//! `src_ip(32) | dst_ip(32) | src_port(16) | dst_port(16) | E(32)` from the most significant bit down (the
//! protocol is always TCP). For IPv6 the top 64 bits are instead a hash of the address pair,
//! `h = m(m(m(m(K ^ src_hi) ^ src_lo) ^ dst_hi) ^ dst_lo)` with `m` the SplitMix64 finaliser and
//! `K = 0x6e65746d65617336` ("netmeas6"), ordered so that the two directions differ; the low 64 bits keep
//! the ports and `E`. A response computes the id of the request it would answer (reverse tuple, its ack
//! number), so a request and its response carry the same id. See [`flow_id`].
//!
//! **The core's input is what a parser gives frame by frame** (issue 18): every descriptor of every frame,
//! in file order — a header parser in front of the core sees the frames as they come and keeps no set of
//! the ids it has seen. So retransmitted requests (and any other repeat of a request id, e.g. a duplicate
//! captured on two interfaces) reach the core, and so do frames stamped earlier than a frame before them.
//! Both are counted ([`ExtractStats::duplicate_requests`], [`ExtractStats::reordered`]).
//!
//! **Ground truth** ([`Trace::truth`]) is what really happened, computed with exact filters the hardware
//! does not have: the descriptors in timestamp order (a stable sort, so file order breaks ties), only the
//! *first* request of each id (a delay is measured from the first transmission — not Karn's rule, which
//! would discard the sample; the capture point cannot know which copy was answered), then
//! [`pair_exact`](super::pair_exact). Sequence numbers wrap after 4 GiB per flow, so in a flow longer than
//! that a later segment can be mistaken for a repeat; at the paper's scale this does not matter.

use super::capture::CaptureReader;
use super::packet::{decode, for_each_segment, Decoder, Skip, TcpSegment};
use super::{pair_exact_indexed, Descriptor, PacketKind, Pair, Trace, TraceError};
use std::collections::{BTreeMap, HashSet};
use std::io::Read;
use std::path::Path;

/// The definitions (modes, id layout, the descriptors of one segment, response first) are golden's, shared
/// with the hardware parser.
pub use golden::parser::descriptors::{flow_id, fridge as segment_descriptors};
pub use golden::parser::TcpMode;

/// What extraction saw and did, frame by frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtractStats {
    /// Packet records in the file.
    pub frames: u64,
    /// Frames without a timestamp (pcapng Simple Packet Blocks), skipped.
    pub no_timestamp: u64,
    /// Frames that decoded to a TCP segment.
    pub tcp_segments: u64,
    /// Of those, segments whose TCP options were cut by the snap length (used all the same: the fixed
    /// header has every field extraction needs).
    pub tcp_options_cut: u64,
    /// Frames that did not, by reason (see [`Skip`]). `Skip::TruncatedTcp` counts segments whose fixed
    /// TCP header was cut by the snap length.
    pub skipped: BTreeMap<Skip, u64>,
    /// Request descriptors emitted (repeats included).
    pub requests: u64,
    /// Of those, requests whose id came before (retransmissions, duplicates): in the core's input, left out
    /// of the ground truth.
    pub duplicate_requests: u64,
    /// Response descriptors emitted (answered or not).
    pub responses: u64,
    /// Frames stamped earlier than some frame before them in the file.
    pub reordered: u64,
}

impl ExtractStats {
    /// Number of frames skipped for `reason`.
    pub fn skipped(&self, reason: Skip) -> u64 {
        self.skipped.get(&reason).copied().unwrap_or(0)
    }
}

/// A trace extracted from a capture, with the frame each descriptor came from.
#[derive(Debug, Clone, Default)]
pub struct Extracted {
    /// Descriptors (the core's input, file order) and ground truth (see the module docs).
    pub trace: Trace,
    /// `frame_numbers[i]` is the 1-based frame number (as Wireshark counts) of `trace.packets[i]`.
    pub frame_numbers: Vec<u64>,
    /// The ground truth's pairs as `(request, response)` indices into `trace.packets`, in the order of
    /// `trace.truth` (response time).
    pub truth_indices: Vec<(usize, usize)>,
    pub stats: ExtractStats,
}

impl Extracted {
    /// The ground-truth pairs as `(request frame, response frame, delay ns)`, in response time order.
    pub fn frame_pairs(&self) -> Vec<(u64, u64, u64)> {
        self.truth_indices
            .iter()
            .map(|&(r, s)| {
                let p = &self.trace.packets;
                (self.frame_numbers[r], self.frame_numbers[s], p[s].timestamp.saturating_sub(p[r].timestamp))
            })
            .collect()
    }
}

/// Read every frame of `reader` (decoded in software) and build the trace for `mode`.
pub fn extract<R: Read>(mut reader: CaptureReader<R>, mode: TcpMode) -> Result<Extracted, TraceError> {
    let mut ex = Extractor::new(mode);
    while let Some(frame) = reader.next_frame()? {
        ex.frame(frame.number, frame.timestamp_ns, decode(frame.link_type, frame.data, frame.orig_len));
    }
    Ok(ex.finish())
}

/// Open, read and extract a pcap or pcapng file, its frames decoded by `decoder` (in software, or through
/// the header parser: `netmeas replay`).
pub fn load_capture(path: impl AsRef<Path>, mode: TcpMode, decoder: &Decoder) -> Result<Extracted, String> {
    let path = path.as_ref();
    let mut ex = Extractor::new(mode);
    for_each_segment(path, decoder, |n, ts, _, seg| ex.frame(n, ts, seg))?;
    Ok(ex.finish())
}

/// The extraction, frame by frame.
struct Extractor {
    mode: TcpMode,
    stats: ExtractStats,
    out: Vec<(Descriptor, u64)>,
    latest: u64,
}

impl Extractor {
    fn new(mode: TcpMode) -> Self {
        Extractor { mode, stats: ExtractStats::default(), out: Vec::new(), latest: 0 }
    }

    /// Frame `number` (in the file) with its time and segment.
    fn frame(&mut self, number: u64, ts: Option<u64>, seg: Result<TcpSegment, Skip>) {
        let stats = &mut self.stats;
        stats.frames += 1;
        let Some(ts) = ts else {
            stats.no_timestamp += 1;
            return;
        };
        if ts < self.latest {
            stats.reordered += 1;
        }
        self.latest = self.latest.max(ts);
        match seg {
            Ok(seg) => {
                stats.tcp_segments += 1;
                stats.tcp_options_cut += seg.header_cut as u64;
                self.out.extend(segment_descriptors(&seg, ts, self.mode).map(|d| (d, number)));
            }
            Err(reason) => *stats.skipped.entry(reason).or_insert(0) += 1,
        }
    }

    fn finish(self) -> Extracted {
        let Extractor { mut stats, out, .. } = self;
        let (packets, frame_numbers): (Vec<Descriptor>, Vec<u64>) = out.into_iter().unzip();
        // The exact view, for the ground truth only: time order, the first request of each id.
        let mut order: Vec<usize> = (0..packets.len()).collect();
        if stats.reordered > 0 {
            order.sort_by_key(|&i| packets[i].timestamp); // stable: file order breaks ties
        }
        let mut seen: HashSet<u128> = HashSet::new();
        order.retain(|&i| match packets[i].kind {
            PacketKind::Request => {
                stats.requests += 1;
                let first = seen.insert(packets[i].id);
                stats.duplicate_requests += !first as u64;
                first
            }
            PacketKind::Response => {
                stats.responses += 1;
                true
            }
        });
        let view: Vec<Descriptor> = order.iter().map(|&i| packets[i]).collect();
        let truth_indices: Vec<(usize, usize)> =
            pair_exact_indexed(&view).into_iter().map(|(r, s)| (order[r], order[s])).collect();
        let truth = truth_indices
            .iter()
            .map(|&(r, s)| Pair {
                request_ts: packets[r].timestamp,
                response_ts: packets[s].timestamp,
                id: packets[r].id,
            })
            .collect();
        Extracted { trace: Trace { packets, truth }, frame_numbers, truth_indices, stats }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::packet::{build, flags, Addrs};
    use std::io::Cursor;

    const C: [u8; 4] = [192, 168, 0, 1];
    const S: [u8; 4] = [192, 168, 0, 2];

    /// A pcap (ns) of Ethernet/IPv4 frames: (ts, from_client, seq, ack, flags, payload_len).
    fn capture(frames: &[(u64, bool, u32, u32, u8, usize)]) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend(0xA1B2_3C4Du32.to_le_bytes());
        v.extend([2, 0, 4, 0]);
        v.extend([0; 8]);
        v.extend(65535u32.to_le_bytes());
        v.extend(1u32.to_le_bytes());
        for &(ts, c2s, seq, ack, fl, len) in frames {
            let (src, dst, sp, dp) = if c2s { (C, S, 40000, 80) } else { (S, C, 80, 40000) };
            let f = build::ether(
                &[],
                0x0800,
                &build::ipv4(src, dst, 6, &build::tcp(sp, dp, seq, ack, fl, 0, &vec![0; len])),
            );
            v.extend(((ts / 1_000_000_000) as u32).to_le_bytes());
            v.extend(((ts % 1_000_000_000) as u32).to_le_bytes());
            v.extend((f.len() as u32).to_le_bytes());
            v.extend((f.len() as u32).to_le_bytes());
            v.extend(f);
        }
        v
    }

    fn run(frames: &[(u64, bool, u32, u32, u8, usize)], mode: TcpMode) -> Extracted {
        let bytes = capture(frames);
        extract(CaptureReader::new(Cursor::new(bytes)).unwrap(), mode).unwrap()
    }

    const A: u8 = flags::ACK;
    const SY: u8 = flags::SYN;
    const F: u8 = flags::FIN;

    /// A connection: handshake, two client segments acked cumulatively, one acked exactly, server data
    /// acked by the client, a retransmission, and FIN exchange.
    fn conversation() -> Vec<(u64, bool, u32, u32, u8, usize)> {
        vec![
            (1_000, true, 100, 0, SY, 0),        // 1 SYN
            (1_500, false, 900, 101, SY | A, 0), // 2 SYN-ACK
            (2_000, true, 101, 901, A, 0),       // 3 ACK
            (3_000, true, 101, 901, A, 10),      // 4 data 101..111
            (3_100, true, 111, 901, A, 20),      // 5 data 111..131
            (4_000, false, 901, 131, A, 0),      // 6 cumulative ACK of 131: answers frame 5 only
            (5_000, true, 131, 901, A, 5),       // 7 data 131..136
            (5_050, true, 131, 901, A, 5),       // 8 retransmission of 7
            (6_000, false, 901, 136, A, 50),     // 9 server data 901..951 acking 136: answers 7
            (7_000, true, 136, 951, A, 0),       // 10 ACK of 951: answers 9
            (7_500, false, 951, 136, A, 0),      // 11 duplicate ACK of 136: answers nothing
            (8_000, true, 136, 951, F | A, 0),   // 12 FIN
            (8_500, false, 951, 137, F | A, 0),  // 13 FIN-ACK
        ]
    }

    #[test]
    fn data_ack_pairs_exact_acknowledgements() {
        let e = run(&conversation(), TcpMode::DataAck);
        assert_eq!(e.frame_pairs(), vec![(5, 6, 900), (7, 9, 1000), (9, 10, 1000)]);
        assert_eq!(e.stats.frames, 13);
        assert_eq!(e.stats.tcp_segments, 13);
        assert_eq!(e.stats.requests, 5); // frames 4, 5, 7, 8, 9
        assert_eq!(e.stats.duplicate_requests, 1); // frame 8: in the core's input, not in the truth
        assert_eq!(e.trace.requests(), 5);
        assert_eq!(e.stats.responses, 12); // every frame but the SYN
        assert_eq!(e.trace.true_delays_ns(), vec![900, 1000, 1000]);
        // Frame 9 is both: response first, then request.
        let i = e.frame_numbers.iter().position(|&n| n == 9).unwrap();
        assert_eq!(e.trace.packets[i].kind, PacketKind::Response);
        assert_eq!(e.trace.packets[i + 1].kind, PacketKind::Request);
        assert_eq!(e.frame_numbers[i + 1], 9);
    }

    #[test]
    fn syn_synack_pairs_handshakes() {
        let e = run(&conversation(), TcpMode::SynSynAck);
        assert_eq!(e.frame_pairs(), vec![(1, 2, 500)]);
        assert_eq!((e.stats.requests, e.stats.responses), (1, 1));
        // A retransmitted SYN keeps the first; a SYN-ACK with the wrong ack answers nothing.
        let e = run(
            &[(0, true, 7, 0, SY, 0), (100, true, 7, 0, SY, 0), (300, false, 50, 8, SY | A, 0)],
            TcpMode::SynSynAck,
        );
        assert_eq!(e.frame_pairs(), vec![(1, 3, 300)]);
        assert_eq!(e.stats.duplicate_requests, 1);
        let e = run(&[(0, true, 7, 0, SY, 0), (300, false, 50, 9, SY | A, 0)], TcpMode::SynSynAck);
        assert!(e.frame_pairs().is_empty());
    }

    #[test]
    fn syn_and_fin_with_data_count_in_expected_ack() {
        // TFO-style SYN with 10 bytes: E = isn + 1 + 10; FIN with 5 bytes: E = seq + 5 + 1.
        let e = run(
            &[
                (0, true, 100, 0, SY, 10),
                (10, false, 5, 111, SY | A, 0),
                (20, true, 111, 6, F | A, 5),
                (30, false, 6, 117, A, 0),
            ],
            TcpMode::DataAck,
        );
        assert_eq!(e.frame_pairs(), vec![(1, 2, 10), (3, 4, 10)]);
    }

    #[test]
    fn sequence_wraparound() {
        let e = run(&[(0, true, u32::MAX - 4, 1, A, 10), (10, false, 1, 5, A, 0)], TcpMode::DataAck);
        assert_eq!(e.frame_pairs(), vec![(1, 2, 10)]);
    }

    #[test]
    fn out_of_order_frames_stay_in_file_order_and_the_truth_is_in_time_order() {
        // Frame 2 (stamped before frame 1) acknowledges frame 1's data in the file's order, but was sent
        // before it: it answers nothing. Frame 3 does.
        let e = run(
            &[(5_000, true, 0, 0, A, 10), (4_000, false, 0, 10, A, 0), (6_000, false, 0, 10, A, 0)],
            TcpMode::DataAck,
        );
        assert_eq!(e.stats.reordered, 1);
        assert_eq!(e.frame_numbers, vec![1, 1, 2, 3]); // frame 1 is a response (ack 0) and a request
        let ts: Vec<u64> = e.trace.packets.iter().map(|d| d.timestamp).collect();
        assert_eq!(ts, vec![5_000, 5_000, 4_000, 6_000]);
        assert_eq!(e.frame_pairs(), vec![(1, 3, 1_000)]);
        assert_eq!(e.trace.true_delays_ns(), vec![1_000]);
        // Without the time order the truth would pair frame 1 with frame 2 (a negative delay).
        assert_eq!(crate::traffic::pair_exact_indexed(&e.trace.packets), vec![(1, 2)]);
    }

    #[test]
    fn a_retransmission_reaches_the_core_and_the_truth_keeps_the_first() {
        let e = run(
            &[(0, true, 0, 0, A, 10), (800, false, 0, 10, A, 0), (850, true, 0, 0, A, 10), (900, false, 0, 10, A, 0)],
            TcpMode::DataAck,
        );
        assert_eq!((e.stats.requests, e.stats.duplicate_requests, e.trace.requests()), (2, 1, 2));
        // The first transmission with its ACK; the spurious repeat and the duplicate ACK pair in the truth
        // with nothing.
        assert_eq!(e.frame_pairs(), vec![(1, 2, 800)]);
        // pair_exact on the core's input would pair the repeat with the duplicate ACK (100 ns).
        assert_eq!(crate::traffic::pair_exact(&e.trace.packets).len(), 2);
    }

    #[test]
    fn ids_pack_ipv4_and_differ_by_direction() {
        let a = Addrs::V4 { src: [1, 2, 3, 4], dst: [5, 6, 7, 8] };
        assert_eq!(flow_id(a, 0x1111, 0x2222, 0x3333_4444), 0x0102_0304_0506_0708_1111_2222_3333_4444);
        let mut s = [0u8; 16];
        s[15] = 1;
        let mut d = [0u8; 16];
        d[15] = 2;
        let v6 = Addrs::V6 { src: s, dst: d };
        let x = flow_id(v6, 1, 2, 3);
        assert_eq!(x as u64, 0x0001_0002_0000_0003);
        assert_ne!(x, flow_id(v6.reversed(), 1, 2, 3));
        assert_eq!(x, flow_id(v6, 1, 2, 3));
    }

    #[test]
    fn skipped_frames_are_counted() {
        let mut bytes = capture(&conversation()[..2]);
        // A UDP frame and a frame cut inside its TCP header.
        let udp = build::ether(&[], 0x0800, &build::ipv4(C, S, 17, &[0; 8]));
        let cut = build::ether(&[], 0x0800, &build::ipv4(C, S, 6, &build::tcp(1, 2, 3, 4, A, 0, b"xyz")));
        for (f, caplen) in [(&udp, udp.len()), (&cut, 40)] {
            bytes.extend(9u32.to_le_bytes());
            bytes.extend(0u32.to_le_bytes());
            bytes.extend((caplen as u32).to_le_bytes());
            bytes.extend((f.len() as u32).to_le_bytes());
            bytes.extend(&f[..caplen]);
        }
        let e = extract(CaptureReader::new(Cursor::new(bytes)).unwrap(), TcpMode::DataAck).unwrap();
        assert_eq!(e.stats.frames, 4);
        assert_eq!(e.stats.tcp_segments, 2);
        assert_eq!(e.stats.skipped(Skip::NotTcp), 1);
        assert_eq!(e.stats.skipped(Skip::TruncatedTcp), 1);
    }
}
