//! A randomized AXI4-Lite master and the transaction checks every AXI4-Lite co-simulation uses.
//!
//! The master queues transactions and presents each beat on its channel (AW, W, AR) after a random delay,
//! holding `valid` and the payload until the slave takes it (AXI: a master never drops `valid` before
//! `ready`), independently per channel, so a write's data may come before, with or after its address. It
//! drives `bready`/`rready` at random. Pacing changes every [`PHASE`] cycles between back-to-back, random
//! and slow, on each channel separately.
//!
//! [`AxilMaster::observe`] reads the slave's outputs of the cycle and returns the transactions that
//! completed in it, paired in issue order with their responses: a response with no transaction in flight
//! is reported as an error, and [`AxilMaster::in_flight`] shows what is still missing at the end.

use golden::common::axil::{AxilInputs, AxilOutputs};
use rand::rngs::SmallRng;
use rand::Rng;
use std::collections::VecDeque;

/// Cycles between changes of pacing.
pub const PHASE: u64 = 997;

/// A write as issued: byte address, data, strobes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Write {
    pub addr: u16,
    pub data: u32,
    pub strb: u8,
}

/// What completed in a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Done {
    /// A write and its `bresp`.
    Write(Write, u8),
    /// A read of byte address `addr`: `rdata`, `rresp`.
    Read(u16, u32, u8),
    /// A response no transaction was waiting for (`true`: on B).
    Unexpected(bool),
}

/// Probability of presenting a queued beat / of `ready`, per channel: AW, W, AR, B, R.
type Pacing = [f64; 5];

/// See the [module docs](self).
pub struct AxilMaster {
    aw: VecDeque<u16>,
    w: VecDeque<(u32, u8)>,
    ar: VecDeque<u16>,
    /// Presenting the head beat of the channel now (held until taken).
    on: [bool; 3],
    writes: VecDeque<Write>,
    reads: VecDeque<u16>,
    pacing: Pacing,
    /// This cycle's request (set by [`Self::drive`], read by [`Self::observe`]).
    now: AxilInputs,
}

impl Default for AxilMaster {
    fn default() -> Self {
        AxilMaster {
            aw: VecDeque::new(),
            w: VecDeque::new(),
            ar: VecDeque::new(),
            on: [false; 3],
            writes: VecDeque::new(),
            reads: VecDeque::new(),
            pacing: [1.0; 5],
            now: AxilInputs::default(),
        }
    }
}

impl AxilMaster {
    /// Queues a write (its AW and W beats go out independently).
    pub fn write(&mut self, w: Write) {
        self.aw.push_back(w.addr);
        self.w.push_back((w.data, w.strb));
        self.writes.push_back(w);
    }
    /// Queues a read.
    pub fn read(&mut self, addr: u16) {
        self.ar.push_back(addr);
        self.reads.push_back(addr);
    }
    /// Writes and reads issued and not yet answered.
    pub fn in_flight(&self) -> (usize, usize) {
        (self.writes.len(), self.reads.len())
    }
    /// Forgets everything (a reset: both sides drop what was in flight).
    pub fn reset(&mut self) {
        let pacing = self.pacing;
        *self = AxilMaster { pacing, ..Default::default() };
    }
    /// The master's signals in cycle `cycle` (the CSR-side fields and `reset` are left to the caller).
    pub fn drive(&mut self, cycle: u64, rng: &mut SmallRng) -> AxilInputs {
        if cycle % PHASE == 0 {
            for p in self.pacing.iter_mut() {
                *p = [1.0, 1.0, 0.5, 0.2, 0.05][rng.gen_range(0..5)];
            }
        }
        let queued = [!self.aw.is_empty(), !self.w.is_empty(), !self.ar.is_empty()];
        for c in 0..3 {
            if queued[c] && !self.on[c] && rng.gen_bool(self.pacing[c]) {
                self.on[c] = true;
            }
        }
        let w = self.w.front().copied().unwrap_or((0, 0));
        self.now = AxilInputs {
            awvalid: self.on[0],
            awaddr: self.aw.front().copied().unwrap_or(0),
            wvalid: self.on[1],
            wdata: w.0,
            wstrb: w.1,
            bready: rng.gen_bool(self.pacing[3]),
            arvalid: self.on[2],
            araddr: self.ar.front().copied().unwrap_or(0),
            rready: rng.gen_bool(self.pacing[4]),
            ..Default::default()
        };
        self.now
    }
    /// Handshakes of this cycle, given the slave's outputs during it; the transactions they completed.
    pub fn observe(&mut self, o: &AxilOutputs) -> Vec<Done> {
        let n = self.now;
        if n.awvalid && o.awready {
            self.aw.pop_front();
            self.on[0] = false;
        }
        if n.wvalid && o.wready {
            self.w.pop_front();
            self.on[1] = false;
        }
        if n.arvalid && o.arready {
            self.ar.pop_front();
            self.on[2] = false;
        }
        let mut done = Vec::new();
        if o.bvalid && n.bready {
            done.push(match self.writes.pop_front() {
                Some(w) => Done::Write(w, o.bresp),
                None => Done::Unexpected(true),
            });
        }
        if o.rvalid && n.rready {
            done.push(match self.reads.pop_front() {
                Some(a) => Done::Read(a, o.rdata, o.rresp),
                None => Done::Unexpected(false),
            });
        }
        done
    }
    /// The write the slave answers next (its B response is the next one).
    pub fn next_write(&self) -> Option<Write> {
        self.writes.front().copied()
    }
    /// The byte address of the read the slave answers next.
    pub fn next_read(&self) -> Option<u16> {
        self.reads.front().copied()
    }
}
