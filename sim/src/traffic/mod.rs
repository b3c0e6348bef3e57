//! Traffic: descriptor streams for the measurement cores, each with its exact ground truth.
//!
//! A [`Trace`] is a stream of a core's descriptors (time-ordered from the generators; a capture's in file
//! order, as a parser gives them) plus its ground truth. The fridge's ([`FridgeTrace`], the default
//! parameters of [`Trace`]) holds [`Descriptor`]s (request or response, 128-bit id, ns timestamp) and the
//! true request→response pairs ([`Pair`]) found by [`pair_exact`]. Sources:
//!
//! - [`synthetic()`] and [`wide()`] ([`synthetic`](mod@synthetic) module): the generators of the fridge paper's §2.4 —
//!   requests at a constant rate, a random subset answered, log-uniform delays — and a wide-range variant
//!   for multi-fridge experiments.
//! - [`finecomb`](mod@finecomb): the FineComb paper's §V-A interval traffic — Weibull delays, random loss and
//!   the deterministic reordering model around sync messages — for a sender and a receiver.
//! - [`keys`]: key streams for the heavy-hitter core — distinct random keys, i.i.d. Zipf(α), the RAP
//!   theorem's setting (k heavy elements of frequency f, ε·k·f lights) in several arrival orders, and the
//!   TCP flows of a capture by 5-tuple.
//! - [`maple`](mod@maple): MAPLE's traffic — heavy-tailed bursty arrivals with a packet-size mix (or a capture)
//!   through an open-loop RED queue, latencies per 1 s epoch.
//! - [`reorder`]: the reordering core's traffic — a synthetic generator (prefix sizes over orders of
//!   magnitude, heavy-tailed flows, reordering a property of the prefix's paths) and the data segments of a
//!   capture (gzip decompressed on the fly).
//! - [`capture`]: a self-contained reader of classic pcap and pcapng files (no libpcap), yielding frames;
//!   [`packet`] decodes the link, IP and TCP headers of a frame; [`tcp`] turns TCP segments into
//!   request/response descriptors ([`TcpMode::DataAck`]: data segment → the ACK that acknowledges exactly
//!   its end; [`TcpMode::SynSynAck`]: SYN → SYN-ACK). [`load_capture`] does all three for a file.
//!
//! Ground truth is always computed the same way, from the descriptor stream alone ([`pair_exact`]); for a
//! capture it is taken from the stream's exact view (time order, the first transmission of each request:
//! filters a parser in front of the core does not have, so they shape the truth and not the core's input).

pub mod capture;
pub mod finecomb;
pub mod ifpd;
pub mod keys;
pub mod maple;
pub mod packet;
pub mod reorder;
mod rng;
pub mod synthetic;
pub mod tcp;

use std::collections::HashMap;
use std::fmt;

pub use golden::fridge::{Descriptor, PacketKind, ID_BITS};
pub use synthetic::{synthetic, wide, SyntheticParams};
pub use tcp::{extract, load_capture, ExtractStats, Extracted, TcpMode};

/// A true request→response pair: the delay sample a perfect measurement would report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pair {
    /// Timestamp (ns) of the request.
    pub request_ts: u64,
    /// Timestamp (ns) of the response that answered it.
    pub response_ts: u64,
    /// The shared identifier.
    pub id: u128,
}

impl Pair {
    /// Response minus request time in ns (0 if the response is stamped earlier, which [`pair_exact`] never
    /// produces on a time-ordered stream).
    pub fn delay_ns(&self) -> u64 {
        self.response_ts.saturating_sub(self.request_ts)
    }
}

/// A core's descriptor stream (`D`: its descriptor type) and its ground truth (`T`: what a perfect
/// measurement of the stream gives). The defaults are the fridge's ([`FridgeTrace`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Trace<D = Descriptor, T = Vec<Pair>> {
    /// Packets in the order the core takes them: non-decreasing timestamps for every synthetic source; a
    /// capture's in file order, as a parser gives them (repeats and frames stamped out of order included).
    pub packets: Vec<D>,
    /// The ground truth; for the fridge the true pairs, in the order of their responses: for a synthetic
    /// trace exactly `pair_exact(&packets)`, for a capture `pair_exact` of its exact view (time order, the
    /// first request of each id: [`tcp`](mod@tcp)'s module docs).
    pub truth: T,
}

/// The fridge's trace: request/response descriptors and their exact pairs.
pub type FridgeTrace = Trace<Descriptor, Vec<Pair>>;

impl<D, T: Default> Default for Trace<D, T> {
    fn default() -> Self {
        Trace { packets: Vec::new(), truth: T::default() }
    }
}

impl<D, T> Trace<D, T> {
    /// Number of descriptors.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
}

impl FridgeTrace {
    /// Build a trace from a descriptor stream, computing the ground truth with [`pair_exact`].
    pub fn from_packets(packets: Vec<Descriptor>) -> FridgeTrace {
        let truth = pair_exact(&packets);
        Trace { packets, truth }
    }

    /// The true delays in ns, in the order of `truth` (unsorted).
    pub fn true_delays_ns(&self) -> Vec<u64> {
        self.truth.iter().map(Pair::delay_ns).collect()
    }

    /// Number of request descriptors.
    pub fn requests(&self) -> usize {
        self.packets.iter().filter(|d| d.kind == PacketKind::Request).count()
    }

    /// Number of response descriptors (answered or not).
    pub fn responses(&self) -> usize {
        self.packets.len() - self.requests()
    }
}

/// Exact pairing, the ground truth of every trace: indices `(request, response)` into `packets`.
///
/// Packets are taken in stream order. A request opens a measurement for its id unless one is already
/// open for that id (then it is a duplicate and ignored: the *first* request counts). A response closes
/// the open measurement of its id, if any, giving one pair; a response with no open measurement (a
/// duplicate, or one whose request was never seen) pairs with nothing. After a pair the id is free again,
/// so a later request with the same id starts a new measurement. With unique request ids (as the papers
/// assume: every request at most one response) this is simply "each request with its first response".
///
/// The result is ordered by response position. Memory: one hash-map entry per open request.
pub fn pair_exact_indexed(packets: &[Descriptor]) -> Vec<(usize, usize)> {
    let mut open: HashMap<u128, usize> = HashMap::new();
    let mut pairs = Vec::new();
    for (i, d) in packets.iter().enumerate() {
        match d.kind {
            PacketKind::Request => {
                open.entry(d.id).or_insert(i);
            }
            PacketKind::Response => {
                if let Some(r) = open.remove(&d.id) {
                    pairs.push((r, i));
                }
            }
        }
    }
    pairs
}

/// Exact pairing as [`Pair`]s (see [`pair_exact_indexed`] for the rule), ordered by response position.
pub fn pair_exact(packets: &[Descriptor]) -> Vec<Pair> {
    pair_exact_indexed(packets)
        .into_iter()
        .map(|(r, s)| Pair { request_ts: packets[r].timestamp, response_ts: packets[s].timestamp, id: packets[r].id })
        .collect()
}

/// Why a capture file could not be read. Per-packet problems (a truncated TCP header, a non-TCP packet)
/// are not errors: they are counted in [`ExtractStats`]. Only a file whose *structure* is broken is.
#[derive(Debug)]
pub enum TraceError {
    /// The file's structure is broken at byte `offset` (the start of the offending header, record or
    /// block, or of the field named in `what`).
    Malformed { offset: u64, what: String },
    /// The operating system failed to read the file (not end-of-file, which is `Malformed`).
    Io { offset: u64, source: std::io::Error },
}

impl TraceError {
    /// The byte offset the error names.
    pub fn offset(&self) -> u64 {
        match self {
            TraceError::Malformed { offset, .. } | TraceError::Io { offset, .. } => *offset,
        }
    }

    pub(crate) fn malformed(offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::Malformed { offset, what: what.into() }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Malformed { offset, what } => {
                write!(f, "malformed capture at byte offset {offset}: {what}")
            }
            TraceError::Io { offset, source } => {
                write!(f, "I/O error reading capture at byte offset {offset}: {source}")
            }
        }
    }
}

impl std::error::Error for TraceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TraceError::Io { source, .. } => Some(source),
            TraceError::Malformed { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(id: u128, ts: u64) -> Descriptor {
        Descriptor { kind: PacketKind::Request, id, timestamp: ts }
    }
    fn resp(id: u128, ts: u64) -> Descriptor {
        Descriptor { kind: PacketKind::Response, id, timestamp: ts }
    }

    #[test]
    fn pairs_first_request_with_first_response() {
        let p = vec![
            req(1, 10),
            req(2, 20),
            resp(3, 25), // no request
            req(1, 30),  // duplicate while open: ignored
            resp(1, 40),
            resp(1, 50), // duplicate response: nothing open
            req(1, 60),  // id free again: new measurement
            resp(1, 65),
        ];
        let t = Trace::from_packets(p);
        assert_eq!(
            t.truth,
            vec![Pair { request_ts: 10, response_ts: 40, id: 1 }, Pair { request_ts: 60, response_ts: 65, id: 1 }]
        );
        assert_eq!(t.true_delays_ns(), vec![30, 5]);
        assert_eq!(pair_exact_indexed(&t.packets), vec![(0, 4), (6, 7)]);
        assert_eq!((t.requests(), t.responses(), t.len()), (4, 4, 8));
    }

    #[test]
    fn response_before_request_does_not_pair() {
        assert!(pair_exact(&[resp(7, 1), req(7, 2)]).is_empty());
    }

    #[test]
    fn error_messages_name_the_offset() {
        let e = TraceError::malformed(1234, "truncated record header");
        assert_eq!(e.offset(), 1234);
        assert_eq!(e.to_string(), "malformed capture at byte offset 1234: truncated record header");
    }
}
