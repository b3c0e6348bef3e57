//! The descriptor stage (issue 18): the block after the parser that turns its records into the descriptors
//! the cores take — the definitions of [`super::descriptors`], computed in hardware (`hdl::parser::desc`).
//! This is its cycle model; the transaction model is [`super::descriptors`] itself: a record's
//! descriptors are `descriptors::fridge` and [`FlowDescriptor::of`] of its TCP segment
//! ([`super::cycle::Fields::tcp_segment`]) stamped with the record's 48-bit timestamp.
//!
//! ## Ports
//! - Input: the parser's record stream (`s_rec_*`, valid/ready; the parser's `m_rec_*` wired straight in),
//!   and `syn_mode` ([`TcpMode`]: 0 `DataAck`, 1 `SynSynAck`), a static setting the integrator drives (from
//!   a CSR bit of its own, or a constant), sampled as each record passes the first stage.
//! - Output, two lanes with a valid/ready handshake each:
//!   - **fridge lane** (`m_fridge_*`: `request`, `id`, `ts`, the fridge core's `in_*` port): 0, 1 or 2
//!     descriptors per TCP segment, **the response first, then the request** (the order of
//!     [`super::descriptors`]), one per cycle;
//!   - **flow lane** (`m_flow_*`: the fields of [`FlowDescriptor`]): one descriptor per TCP segment, for
//!     IFPD and reordering (which take it when `v4`), heavy hitters (`key`), FineComb and MAPLE
//!     (`invariant`).
//!
//!   Records that are dropped or UDP give nothing and are taken at once.
//!
//! ## Architecture and timing
//! 1. **S0** registers a TCP record taken (`s_rec_valid && s_rec_ready`, status 0, protocol 6).
//! 2. **S1**: the two addresses hashed (two H3 hash units, [`super::descriptors::ipv6_fold`]); the
//!    fridge decisions (response? request?) by the mode, the sequence space the segment takes
//!    (`payload + SYN + FIN`), the invariant key's low 32 bits; the rest carried.
//! 3. **FIFO**: S1's entry — the 64 address bits ([`super::descriptors::addr_bits`]: IPv4 `src | dst`,
//!    IPv6 `H(src) ^ rotl(H(dst), 32)`), `seq + len`, ports, ack, flags — is written into a first-word-fall-
//!    through FIFO of [`DESC_FIFO_DEPTH`] entries (the house `ReportFifo`). Both lanes read its head: the ids
//!    and keys are wiring of the entry's fields (the reverse direction's address bits are the forward's
//!    halves swapped). **A record taken in cycle `t` has its descriptors on the outputs from cycle
//!    `t + DESC_LATENCY`** when the FIFO is empty.
//! 4. **Head**: the fridge lane offers the head's descriptors in turn; the flow lane its one descriptor; the
//!    head leaves when both lanes are done with it (a lane nobody reads must have its ready tied high).
//!    The lanes are independent within an entry: one may take while the other waits.
//! 5. **Credits**: `s_rec_ready` is a flip-flop, high iff fewer than [`DESC_FIFO_DEPTH`] TCP records exist in
//!    S0, S1 and the FIFO (a register counting TCP records taken less entries left), so every record taken
//!    has its entry and the pipeline never stalls. Both lanes always ready: one TCP record a cycle passes
//!    when it gives at most one fridge descriptor, one every two cycles when it gives two (a data segment
//!    that acknowledges: the fridge core takes one descriptor a cycle) — at 64 bytes a beat only
//!    minimum-size frames can come that fast; at 8 bytes a beat a frame takes ≥ 8 cycles.
//! 6. **Reset** (synchronous) empties S0, S1, the FIFO and the head's progress; `s_rec_ready` is high the
//!    next cycle.

use super::cycle::Record;
use super::descriptors::{self, FlowDescriptor, TcpMode};
use super::PROTO_TCP;
use crate::fridge::Descriptor as FridgeDescriptor;
use std::collections::VecDeque;

/// Address bits of the descriptor FIFO.
pub const DESC_FIFO_BITS: usize = 3;
/// Entries of the descriptor FIFO, and the most TCP records the stage holds (its credit limit).
pub const DESC_FIFO_DEPTH: usize = 1 << DESC_FIFO_BITS;
/// Cycles from a record taken to its descriptors on the outputs (the FIFO empty).
pub const DESC_LATENCY: usize = 3;

/// One cycle's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DescInputs {
    pub reset: bool,
    /// The record offered on `s_rec_*` (`s_rec_valid` high), if any.
    pub rec: Option<Record>,
    pub syn_mode: bool,
    pub fridge_ready: bool,
    pub flow_ready: bool,
}

/// One cycle's outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DescOutputs {
    pub rec_ready: bool,
    /// The fridge lane's descriptor this cycle, if valid.
    pub fridge: Option<FridgeDescriptor>,
    /// The flow lane's descriptor this cycle, if valid.
    pub flow: Option<FlowDescriptor>,
}

/// One TCP record's descriptors (a FIFO entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The fridge descriptors, the response first.
    pub fridge: Vec<FridgeDescriptor>,
    pub flow: FlowDescriptor,
}

impl Entry {
    /// The descriptors of an accepted TCP record (`None` for anything else) in `mode`.
    pub fn of(r: &Record, mode: TcpMode) -> Option<Entry> {
        if r.drop.is_some() {
            return None;
        }
        let seg = r.fields.tcp_segment()?;
        Some(Entry {
            fridge: descriptors::fridge(&seg, r.timestamp, mode).collect(),
            flow: FlowDescriptor::of(&seg, r.timestamp),
        })
    }
}

/// The mode a `syn_mode` bit selects.
pub fn mode_of(syn_mode: bool) -> TcpMode {
    if syn_mode {
        TcpMode::SynSynAck
    } else {
        TcpMode::DataAck
    }
}

/// The cycle model.
#[derive(Debug, Clone)]
pub struct DescCycle {
    /// S0: the record taken last cycle.
    s0: Option<Record>,
    /// S1: its entry (decided with the mode of the cycle it left S0).
    s1: Option<Entry>,
    fifo: VecDeque<Entry>,
    /// The head's fridge descriptors already taken; the flow lane done with the head.
    fridge_sent: usize,
    flow_sent: bool,
    used: usize,
    ready: bool,
}

impl Default for DescCycle {
    fn default() -> Self {
        Self::new()
    }
}

impl DescCycle {
    /// The stage after reset.
    pub fn new() -> Self {
        DescCycle {
            s0: None,
            s1: None,
            fifo: VecDeque::with_capacity(DESC_FIFO_DEPTH),
            fridge_sent: 0,
            flow_sent: false,
            used: 0,
            ready: true,
        }
    }

    /// Whether a record is one the stage keeps (an accepted TCP segment).
    pub fn keeps(r: &Record) -> bool {
        r.drop.is_none() && r.fields.protocol == PROTO_TCP
    }

    /// Nothing in flight (every record taken has left both lanes).
    pub fn idle(&self) -> bool {
        self.used == 0
    }

    /// `s_rec_ready` in the coming cycle (a flip-flop: known before the cycle's inputs).
    pub fn rec_ready(&self) -> bool {
        self.ready
    }

    /// One clock cycle: the outputs during the cycle, then the rising edge.
    pub fn step(&mut self, i: &DescInputs) -> DescOutputs {
        let head = self.fifo.front();
        let out = DescOutputs {
            rec_ready: self.ready,
            fridge: head.and_then(|e| e.fridge.get(self.fridge_sent).copied()),
            flow: head.filter(|_| !self.flow_sent).map(|e| e.flow),
        };
        if i.reset {
            *self = Self::new();
            return out;
        }
        let mut pop = false;
        if let Some(e) = head {
            let fridge_sent = self.fridge_sent + (out.fridge.is_some() && i.fridge_ready) as usize;
            let flow_sent = self.flow_sent || (out.flow.is_some() && i.flow_ready);
            pop = fridge_sent == e.fridge.len() && flow_sent;
            (self.fridge_sent, self.flow_sent) = if pop { (0, false) } else { (fridge_sent, flow_sent) };
        }
        if pop {
            self.fifo.pop_front();
        }
        if let Some(e) = self.s1.take() {
            assert!(self.fifo.len() < DESC_FIFO_DEPTH, "the credit rule keeps an entry for every record taken");
            self.fifo.push_back(e);
        }
        self.s1 = self.s0.take().map(|r| Entry::of(&r, mode_of(i.syn_mode)).expect("S0 holds TCP records"));
        let taken = i.rec.filter(|r| self.ready && Self::keeps(r));
        self.s0 = taken;
        self.used = self.used + taken.is_some() as usize - pop as usize;
        self.ready = self.used < DESC_FIFO_DEPTH;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::cycle::Fields;
    use crate::parser::flags;

    fn record(flags: u8, payload_len: u16, ts: u64) -> Record {
        let fields = Fields {
            src_addr: 0x0102_0304,
            dst_addr: 0x0506_0708,
            protocol: PROTO_TCP,
            src_port: 80,
            dst_port: 9000,
            seq: 1000,
            ack: 2000,
            tcp_flags: flags,
            payload_len,
            ..Fields::default()
        };
        Record { drop: None, timestamp: ts, fields }
    }

    /// Runs `recs` through the stage with both lanes always ready: (cycle, descriptor) per lane.
    fn run(recs: &[Record]) -> (Vec<(usize, FridgeDescriptor)>, Vec<(usize, FlowDescriptor)>) {
        let mut m = DescCycle::new();
        let (mut fr, mut fl) = (vec![], vec![]);
        let mut next = 0;
        for c in 0..40 {
            let i =
                DescInputs { rec: recs.get(next).copied(), fridge_ready: true, flow_ready: true, ..Default::default() };
            let o = m.step(&i);
            next += (i.rec.is_some() && o.rec_ready) as usize;
            fr.extend(o.fridge.map(|d| (c, d)));
            fl.extend(o.flow.map(|d| (c, d)));
        }
        assert!(m.idle());
        (fr, fl)
    }

    #[test]
    fn latency_order_and_rate() {
        // A data segment that acknowledges (2 fridge descriptors), then a pure ACK (1), taken in cycles 0, 1.
        let (fr, fl) = run(&[record(flags::ACK, 10, 7), record(flags::ACK, 0, 8)]);
        let cyc: Vec<usize> = fr.iter().map(|(c, _)| *c).collect();
        assert_eq!(cyc, [DESC_LATENCY, DESC_LATENCY + 1, DESC_LATENCY + 2]);
        let kinds: Vec<_> = fr.iter().map(|(_, d)| (d.kind, d.timestamp)).collect();
        use crate::fridge::PacketKind::*;
        assert_eq!(kinds, [(Response, 7), (Request, 7), (Response, 8)]);
        // The flow lane takes the first at once, the second once the head moves on (after the request).
        assert_eq!(fl.iter().map(|(c, d)| (*c, d.ts)).collect::<Vec<_>>(), [(3, 7), (5, 8)]);
    }

    #[test]
    fn drops_and_udp_give_nothing_and_back_to_back_records_pass_one_a_cycle() {
        let mut udp = record(0, 0, 1);
        udp.fields.protocol = crate::parser::PROTO_UDP;
        let dropped = Record { drop: Some(crate::parser::Drop::Runt), ..record(flags::ACK, 0, 2) };
        let acks: Vec<Record> = (0..6).map(|t| record(flags::ACK, 0, 10 + t)).collect();
        let mut recs = vec![udp, dropped];
        recs.extend(&acks);
        let (fr, fl) = run(&recs);
        assert_eq!(fr.len(), 6);
        assert_eq!(fl.iter().map(|(c, _)| *c).collect::<Vec<_>>(), (5..11).collect::<Vec<_>>());
    }

    #[test]
    fn credits_hold_the_input_when_a_lane_stalls() {
        let mut m = DescCycle::new();
        let mut taken = 0;
        for _ in 0..30 {
            let i = DescInputs { rec: Some(record(flags::ACK, 0, 1)), fridge_ready: true, ..Default::default() };
            taken += m.step(&i).rec_ready as usize;
        }
        assert_eq!(taken, DESC_FIFO_DEPTH, "the flow lane never takes: the stage holds its depth and no more");
    }
}
