//! The parser's cycle model (issue 18): the beat-level behaviour the RTL (`hdl::parser`) matches cycle by
//! cycle. It is the transaction model [`parse`] plus timing: the bytes a frame delivers into its header
//! window and its length are collected beat by beat exactly as the RTL collects them, and the frame's
//! record is what [`parse`] says about a frame of that length whose first [`WINDOW`] bytes are the
//! captured ones (it never reads a byte beyond the window, so the rest does not matter).
//!
//! ## Ports
//! - Input: an AXI4-Stream of frames (`s_axis_*`), [`ParserCycle::data_bytes`] bytes a beat, byte 0 of
//!   the frame in `tdata[7:0]` (verilog-ethernet's order); `tkeep` (all set on every beat but the last, a
//!   contiguous run from bit 0 on the last, as verilog-ethernet drives it; a beat counts as
//!   [`keep_bytes`] bytes, the number of its tkeep bits for such a run), `tlast`, and `tuser`, the 64-bit
//!   PTP timestamp, sampled on the frame's first beat.
//! - Output: one [`Record`] per frame (`m_rec_valid`/`m_rec_ready`), accepted or with its [`Drop`] reason,
//!   and the statistics [`Counters`] (read through the CSR map of [`csr_layout`]).
//!
//! ## Architecture and timing
//! 1. **Capture.** Each accepted beat writes its bytes into the header window, a register of [`WINDOW`]
//!    bytes indexed per beat (beat `k` writes bytes `k·D .. (k+1)·D`; beats past the window write nothing),
//!    and adds its `tkeep` count to the frame length (saturating at [`LEN_MAX`]; frames are never that
//!    long, and every decision that uses the length is the same for any length ≥ 65 597 bytes). The first
//!    beat restarts the length and samples the timestamp. The tlast beat puts the frame into the
//!    extraction pipeline: pipeline slot 0 is the capture register itself.
//! 2. **Extraction.** [`SLOTS`] pipeline slots: slot 0 is the capture's finished frame, slot 1 copies the
//!    window (the next frame's first beat overwrites it in that same cycle), later slots pick the header
//!    fields at offsets that depend on the VLAN tags, the IHL and the IPv6 extension headers, and decide the
//!    drop reason; the last slot is the record register. The slots never stall: every frame moves one slot
//!    on every cycle.
//! 3. **Output FIFO.** The record register writes into a first-word-fall-through FIFO of [`FIFO_DEPTH`]
//!    records (the house `ReportFifo`); its head is the output (`m_rec_valid`/`m_rec_ready`). **The record
//!    of a frame whose tlast beat is accepted in cycle `t` is on the output in cycle `t + LATENCY`** when
//!    the FIFO is empty (else behind the records before it).
//! 4. **Credits.** `s_axis_tready` is a flip-flop: high in a cycle iff fewer than [`FIFO_DEPTH`] records
//!    exist then — frames in slots 0 .. [`SLOTS`] − 1 plus records in the FIFO —, counted by one register
//!    that a tlast beat taken increments and a record taken from the output decrements. So every frame taken
//!    has its FIFO entry reserved (nothing is ever dropped), and the pipeline never needs to hold. With
//!    the output always ready at most `SLOTS + 1` records exist, so `tready` stays high: a frame's first
//!    beat is taken in the cycle after the previous tlast (no bubble) and one frame per cycle can enter,
//!    so the parser keeps up with the bus for any frame size: at 8 bytes a beat a 60-byte frame is 8
//!    beats, one frame per 8 cycles (at 156.25 MHz: 19.5 Mframes/s, above 10 GbE's 14.88 M minimum-size
//!    frames/s); at 64 bytes a beat a 60-byte frame is one beat, one frame per cycle. Under backpressure
//!    the parser takes [`FIFO_DEPTH`] frames and then holds `tready` low until records leave.
//! 5. **Reset** (synchronous, active high) empties the pipeline and the FIFO, restarts the frame (the next
//!    beat is a first beat), clears the counters and sets `tready` for the next cycle; a beat offered in a
//!    reset cycle is discarded. A frame cut by a reset mid-stream leaves its remaining beats to be parsed
//!    as a frame of their own — nothing hangs.
//! 6. **Counters** count a frame when its record leaves the record register for the FIFO (from registers
//!    only, a cycle after the record is decided).
//!
//! A record's header fields are defined only when it is accepted (the RTL leaves the fields of a dropped
//! frame as whatever its muxes pick).

use super::{parse, Addrs, Counters, Drop, Headers, ParserConfig, TcpSegment, PROTO_TCP};
use crate::common::csr::{CoreIdent, CsrLayout};
use std::collections::VecDeque;

/// Header window bytes (the hardware's [`ParserConfig::window`]).
pub const WINDOW: usize = 128;
/// Cycles from a frame's tlast beat to its record on the output (the output FIFO empty).
pub const LATENCY: usize = 10;
/// Extraction pipeline slots (0: the capture's finished frame; the last: the record register).
pub const SLOTS: usize = LATENCY - 1;
/// Address bits of the output FIFO: [`FIFO_DEPTH`] records.
pub const FIFO_BITS: usize = 4;
/// Records the output FIFO holds, and the most that exist at once (the credit limit of `tready`).
pub const FIFO_DEPTH: usize = 1 << FIFO_BITS;
/// Bits of the frame length counter; the count saturates at [`LEN_MAX`].
pub const LEN_BITS: usize = 17;
pub const LEN_MAX: usize = (1 << LEN_BITS) - 1;
/// The parser's CSR identity: `PRSR` 1.0.
pub const PARSER_IDENT: CoreIdent = CoreIdent::new(b"PRSR", 1, 0);

/// One cycle's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParserInputs {
    pub reset: bool,
    pub tvalid: bool,
    /// Beat bytes, byte `i` is `tdata[8i+7:8i]` (only the first `data_bytes` are used).
    pub tdata: [u8; 64],
    /// Bit `i`: byte `i` is part of the frame.
    pub tkeep: u64,
    pub tlast: bool,
    pub tuser: u64,
    pub rec_ready: bool,
}

impl Default for ParserInputs {
    fn default() -> Self {
        ParserInputs { reset: false, tvalid: false, tdata: [0; 64], tkeep: 0, tlast: false, tuser: 0, rec_ready: false }
    }
}

/// One frame's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// `None`: accepted (a descriptor follows from the fields); else the reason, counted.
    pub drop: Option<Drop>,
    /// The cores' 48-bit timestamp ([`ParserConfig::core_timestamp`] of the first beat's `tuser`).
    pub timestamp: u64,
    /// The fields (meaningful when accepted).
    pub fields: Fields,
}

/// The header fields a record carries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fields {
    pub is_v6: bool,
    /// IPv4: the address in bits 31:0 (first byte most significant); IPv6: all 128 bits.
    pub src_addr: u128,
    pub dst_addr: u128,
    pub protocol: u8,
    pub src_port: u16,
    pub dst_port: u16,
    /// TCP only (0 for UDP).
    pub seq: u32,
    pub ack: u32,
    pub tcp_flags: u8,
    /// L4 payload bytes by the length fields (16 bits: an IP length field is 16 bits).
    pub payload_len: u16,
    pub ip_id: u16,
    pub short: bool,
    pub l4_header_cut: bool,
}

impl Fields {
    pub fn of(h: &Headers) -> Fields {
        let (is_v6, src_addr, dst_addr) = match h.addrs {
            Addrs::V4 { src, dst } => (false, u32::from_be_bytes(src) as u128, u32::from_be_bytes(dst) as u128),
            Addrs::V6 { src, dst } => (true, u128::from_be_bytes(src), u128::from_be_bytes(dst)),
        };
        let tcp = h.tcp.unwrap_or(super::Tcp { seq: 0, ack: 0, flags: 0, header_len: 0 });
        debug_assert!(h.tcp.is_some() == (h.protocol == PROTO_TCP));
        Fields {
            is_v6,
            src_addr,
            dst_addr,
            protocol: h.protocol,
            src_port: h.src_port,
            dst_port: h.dst_port,
            seq: tcp.seq,
            ack: tcp.ack,
            tcp_flags: tcp.flags,
            payload_len: h.payload_len as u16,
            ip_id: h.ip_id,
            short: h.short,
            l4_header_cut: h.l4_header_cut,
        }
    }
}

impl Fields {
    /// The TCP segment an accepted record describes (`None` for UDP): the inverse of [`Fields::of`] for
    /// TCP, so a record from the hardware gives the same [`TcpSegment`] as [`Headers::tcp_segment`] of the
    /// frame, and with it the same per-core descriptors (`super::descriptors`).
    pub fn tcp_segment(&self) -> Option<TcpSegment> {
        if self.protocol != PROTO_TCP {
            return None;
        }
        let addrs = if self.is_v6 {
            Addrs::V6 { src: self.src_addr.to_be_bytes(), dst: self.dst_addr.to_be_bytes() }
        } else {
            Addrs::V4 { src: (self.src_addr as u32).to_be_bytes(), dst: (self.dst_addr as u32).to_be_bytes() }
        };
        Some(TcpSegment {
            addrs,
            src_port: self.src_port,
            dst_port: self.dst_port,
            seq: self.seq,
            ack: self.ack,
            flags: self.tcp_flags,
            ip_id: self.ip_id,
            payload_len: self.payload_len as u32,
            header_cut: self.l4_header_cut,
        })
    }
}

impl Record {
    /// The record's status code on the RTL port: 0 accepted, else 1 + [`Drop::index`].
    pub fn status(&self) -> u8 {
        self.drop.map_or(0, |d| d.index() as u8 + 1)
    }

    /// Counts the record in `c` as the hardware's statistics count it (frames, accepted, short, header
    /// cut, or its drop reason).
    pub fn count_into(&self, c: &mut Counters) {
        c.frames += 1;
        match self.drop {
            None => {
                c.accepted += 1;
                c.short += self.fields.short as u64;
                c.l4_header_cut += self.fields.l4_header_cut as u64;
            }
            Some(d) => c.drops[d.index()] += 1,
        }
    }
}

/// One cycle's outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParserOutputs {
    pub tready: bool,
    /// The record on the output this cycle, if one is valid.
    pub record: Option<Record>,
}

/// A frame travelling through the extraction pipeline.
#[derive(Debug, Clone)]
struct InFlight {
    window: [u8; WINDOW],
    len: usize,
    tuser: u64,
    /// Set when the frame enters the record register (the last slot).
    record: Option<Record>,
}

/// The cycle model.
#[derive(Debug, Clone)]
pub struct ParserCycle {
    data_bytes: usize,
    /// The capture: window, length so far, timestamp, and whether the next beat is a first beat.
    window: [u8; WINDOW],
    len: usize,
    beat: usize,
    tuser: u64,
    first: bool,
    /// Slots 0..SLOTS (slot 0: the capture's finished frame; the last: the record register).
    slots: Vec<Option<InFlight>>,
    fifo: VecDeque<Record>,
    /// Records that exist (in the slots and the FIFO), and `tready` for this cycle (`used < FIFO_DEPTH`
    /// after the previous edge).
    used: usize,
    tready: bool,
    counters: Counters,
}

impl ParserCycle {
    /// A parser taking `data_bytes` bytes a beat (8 or 64 in hardware; a power of two ≤ 64), after reset.
    pub fn new(data_bytes: usize) -> Self {
        assert!(data_bytes.is_power_of_two() && (1..=64).contains(&data_bytes), "data bytes {data_bytes}");
        ParserCycle {
            data_bytes,
            window: [0; WINDOW],
            len: 0,
            beat: 0,
            tuser: 0,
            first: true,
            slots: vec![None; SLOTS],
            fifo: VecDeque::with_capacity(FIFO_DEPTH),
            used: 0,
            tready: true,
            counters: Counters::default(),
        }
    }

    pub fn data_bytes(&self) -> usize {
        self.data_bytes
    }

    /// The statistics counters as the CSR status registers hold them now.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The status registers of [`csr_layout`], in order (each a wrapping 32-bit count).
    pub fn status_words(&self) -> Vec<u32> {
        let c = &self.counters;
        let mut v = vec![c.frames as u32, c.accepted as u32, c.short as u32, c.l4_header_cut as u32];
        v.extend(c.drops.iter().map(|&d| d as u32));
        v
    }

    /// The record of a finished frame: [`parse`] on a frame of its length whose window is the captured one.
    pub fn record_of(window: &[u8; WINDOW], len: usize, tuser: u64) -> Record {
        let cfg = ParserConfig::HARDWARE;
        let mut frame = vec![0u8; len];
        let n = len.min(WINDOW);
        frame[..n].copy_from_slice(&window[..n]);
        let r = parse(&frame, &cfg);
        Record {
            drop: r.as_ref().err().copied(),
            timestamp: cfg.core_timestamp(tuser) & ((1 << 48) - 1),
            fields: r.as_ref().map(Fields::of).unwrap_or_default(),
        }
    }

    /// One clock cycle: the outputs during the cycle, then the rising edge.
    pub fn step(&mut self, i: &ParserInputs) -> ParserOutputs {
        let out = ParserOutputs { tready: self.tready, record: self.fifo.front().copied() };
        if i.reset {
            self.first = true;
            self.beat = 0;
            self.len = 0;
            self.slots.iter_mut().for_each(|s| *s = None);
            self.fifo.clear();
            self.used = 0;
            self.tready = true;
            self.counters = Counters::default();
            return out;
        }
        let pop = out.record.is_some() && i.rec_ready;
        if pop {
            self.fifo.pop_front();
        }
        // The record register's record enters the FIFO (it has room: credits) and is counted.
        if let Some(f) = self.slots[SLOTS - 1].take() {
            let r = f.record.expect("the record register holds a record");
            r.count_into(&mut self.counters);
            assert!(self.fifo.len() < FIFO_DEPTH, "the credit rule keeps a FIFO entry for every frame taken");
            self.fifo.push_back(r);
        }
        // Every frame goes one slot on; the one entering the record register gets its record.
        self.slots.rotate_right(1);
        if let Some(f) = self.slots[SLOTS - 1].as_mut() {
            f.record = Some(Self::record_of(&f.window, f.len, f.tuser));
        }
        let taken_last = i.tvalid && self.tready && i.tlast;
        if i.tvalid && self.tready {
            self.beat(i);
        }
        self.used = self.used + taken_last as usize - pop as usize;
        self.tready = self.used < FIFO_DEPTH;
        out
    }

    /// An accepted beat: capture, and on tlast hand the frame to slot 0.
    fn beat(&mut self, i: &ParserInputs) {
        let d = self.data_bytes;
        if self.first {
            self.beat = 0;
            self.len = 0;
            self.tuser = i.tuser;
        }
        let base = self.beat * d;
        if base < WINDOW {
            self.window[base..base + d].copy_from_slice(&i.tdata[..d]);
        }
        self.len = (self.len + keep_bytes(i.tkeep, d)).min(LEN_MAX);
        self.beat = (self.beat + 1).min(WINDOW / d);
        self.first = i.tlast;
        if i.tlast {
            self.slots[0] = Some(InFlight { window: self.window, len: self.len, tuser: self.tuser, record: None });
        }
    }
}

/// The parser's register map: a scratch register, the statistics counters in [`Counters`] order; read in
/// two cycles (`CsrLayout::with_registered_read`: the eighteen counters are spread over the die, and the
/// whole read multiplexer was the 64-bit build's critical path).
pub fn csr_layout() -> CsrLayout {
    let mut status: Vec<String> = ["frames", "accepted", "short", "l4_header_cut"].map(String::from).to_vec();
    status.extend(Drop::ALL.iter().map(|d| d.name().to_string()));
    let mut map = CsrLayout::new(vec![("scratch".to_string(), 0)], status)
        .with_ident(PARSER_IDENT)
        .with_registered_read()
        .doc("scratch", "read/write, no effect (a bank needs one config register; software tests the bus on it)")
        .doc("frames", "frames parsed (records produced)")
        .doc("accepted", "frames accepted (records without a drop reason)")
        .doc("short", "accepted frames shorter than their IP length")
        .doc("l4_header_cut", "accepted TCP segments whose options the frame cuts");
    for d in Drop::ALL {
        map = map.doc(d.name(), format!("frames dropped: {:?}", d));
    }
    map
}

/// The bytes a beat of `data_bytes` bytes counts: the binary value of its `tkeep` read as a thermometer
/// code — bit `j` of the count is the parity of the tkeep bits `m·2^j − 1` (`m ≥ 1`), because for a
/// contiguous run of `k` ones from bit 0 that parity is that of `⌊k / 2^j⌋`. For every tkeep an AXI4-Stream
/// source drives (a contiguous run from bit 0) this is the number of bytes; in hardware it is one XOR tree
/// per count bit (3 LUT levels at 64 bytes) where a priority encoder or a population count would chain.
/// Other patterns count as the formula says (they are outside the bus protocol).
pub fn keep_bytes(tkeep: u64, data_bytes: usize) -> usize {
    let keep = if data_bytes == 64 { tkeep } else { tkeep & ((1u64 << data_bytes) - 1) };
    (0..=data_bytes.trailing_zeros()).map(|j| ((keep & keep_mask(j, data_bytes)).count_ones() as usize & 1) << j).sum()
}

/// The tkeep bits whose parity is bit `j` of [`keep_bytes`]: bits `m·2^j − 1` for `m = 1 ..= data_bytes / 2^j`.
pub fn keep_mask(j: u32, data_bytes: usize) -> u64 {
    (1..=data_bytes >> j).fold(0, |m, k| m | 1u64 << ((k << j) - 1))
}

/// Splits a frame into beats of `data_bytes`: `(tdata, tkeep, tlast)` each (a test and testbench helper).
pub fn beats(frame: &[u8], data_bytes: usize) -> Vec<([u8; 64], u64, bool)> {
    let chunks: Vec<&[u8]> = frame.chunks(data_bytes).collect();
    let n = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            let mut d = [0u8; 64];
            d[..c.len()].copy_from_slice(c);
            let keep = if c.len() == 64 { u64::MAX } else { (1u64 << c.len()) - 1 };
            (d, keep, k + 1 == n)
        })
        .collect()
}

#[cfg(test)]
#[path = "cycle_tests.rs"]
mod tests;
