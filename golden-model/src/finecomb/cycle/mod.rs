//! Cycle model of the FineComb core, stage for stage as the RTL (`hdl::finecomb::FinecombCore`), and the
//! record stream it reads out ([`Record`], reassembled into [`super::IntervalReport`]s by [`Assembler`]).
//!
//! # Generation-time shape and run-time settings
//! [`FinecombCoreConfig`]: role, LDA mode (`isd = false`), number of banks B, bucket address bits `IA`
//! (every bank's table has 2^IA words per bucket set) and stash slot bits `SA` (every substash region has
//! 2^SA slots). The per-bank bucket count M_b and stash depth w_b are **run-time** CSRs (so one build serves
//! every experiment): M_b ≤ 2^IA and w_b ≤ 2^SA are checked by software ([`FinecombCoreConfig::fits`]);
//! the hardware does not check them (values past the limits alias: addresses are taken modulo 2^IA and
//! slots modulo 2^SA, identically in this model). A core has a stash iff it is a receiver with ISDs
//! ([`FinecombCoreConfig::has_stash`]); without one, w_b reads as 0 everywhere below.
//!
//! CSR map ([`FinecombCoreConfig::csr_layout`]): config `threshold_b` (b = 0..B, reset `u32::MAX`: sample
//! everything), `buckets_b` (reset: the default shape's M_b; low 16 bits used), `stash_depth_b` (reset: the
//! default shape's w_b; low 16 bits used), `flush` (a write in cycle c sets the sticky cut request at the end
//! of c + 2, as a descriptor accepted in cycle c − 1 reaches D2, see below); status `packets`, `markers` (effective ones), `records` (pushed into the readout
//! FIFO), `fifo_drops` (stays 0), `fifo_level`, `busy` (the readout engine is not idle). All counters wrap
//! at 32 bits and clear at reset.
//!
//! # Packet path (no stalls: a packet is accepted in every cycle the core is ready)
//! | cycle | stage | what happens |
//! |---|---|---|
//! | t   | IN | descriptor accepted (`in_valid && in_ready`) into D1; the two digest hash units load its key |
//! | t+1 | D1 | the hash units' registers → the digest finaliser [`super::mix`] → registered into D1m |
//! | t+2 | D1m | digest D; per bank: `sampled_b = D[63:32] ≤ threshold_b`, the two partial products `pa_b = D[31:16]·M_b`, `pb_b = (D[15:0]·M_b) >> 16` (M_b = low 16 bits of `buckets_b`); registered into D2 |
//! | t+3 | D2 | issue: `index_b = (pa_b + pb_b) >> 16` (= [`super::bucket_index_16x16`]); packet → RMW pipelines, stash writes; marker → interval/capture bookkeeping |
//! | t+5 | S2 | the bank's modify stage: TS += ts, C += 1 (one 96-bit word `TS | C << 64`), ISD ^= D (own 64-bit word) |
//!
//! `in_ready = !reset && ready_q && !(in_valid && (in_start || in_end) && !marker_ok)`, where `ready_q` is
//! the registered AND of every RMW pipeline's `in_ready` (low in the reset cycle's next cycle and through
//! the table sweep of 2^IA cycles; the model: `ready_q` = last cycle's AND of [`crate::common::rmw::RmwModel::ready`], `None`
//! before the first reset) and `marker_ok` = the readout engine is idle (no job running, none queued, no
//! post capture pending) and no marker is in D1, D1m or D2. So packets never wait; a marker waits until the
//! previous interval's readout has drained (only with very short intervals or a stalled reader).
//!
//! ## D2: a packet
//! For every bank b with `sampled_b` (thresholds are read at D1m):
//! - if `counting`: issue into bank b's bucket set `active`: the TS|C pipeline gets `{index_b, add ts}`,
//!   the ISD pipeline (not in LDA mode) `{index_b, xor D}`;
//! - stash (w_b > 0): write `{D, ts}` into ring region `P_b[par]` at slot `ring_ptr_b`, then
//!   `ring_ptr_b = ring_ptr_b + 1 == w_b ? 0 : ring_ptr_b + 1` and `ring_full_b |= ring_ptr_b + 1 == w_b`;
//!   if a capture is `filling` and `post_fill_b < w_b`: write `{D, ts}` into post region `Q_b[par]` at
//!   slot `post_fill_b` and increment it.
//! `packets` counts every packet reaching D2.
//!
//! ## D2: a marker
//! Effective iff `(end && counting) || (start && !counting)`; an ineffective marker does nothing at all.
//! An effective marker, in this order:
//! 1. closes the open capture if it is still `filling` (a *cut*: `b_pending = 1`, `post_len_b =
//!    post_fill_b`, `b_region = par`);
//! 2. opens a new capture: per bank `pre_ptr_b = ring_ptr_b`, `pre_full_b = ring_full_b`, then `ring_ptr_b
//!    = 0`, `ring_full_b = 0`, `post_fill_b = 0`; `par ^= 1`; `filling = 1`; clears the cut request;
//! 3. if `end && counting`: `active ^= 1`, `counting = 0` (the old set is frozen);
//! 4. if `start` and (after 3) `!counting`: `counting = 1`;
//! 5. queues job A: `a_queued = 1`, `a_walk = (end was effective)`, `a_flags = {start effective, end
//!    effective}` (bit 0 end, bit 1 start).
//! `markers` counts effective markers.
//!
//! # Captures and the readout engine
//! Marker m's capture is pre(m) = the ring region written since the previous effective marker (`P_b[par
//! before m]`: its last min(w_b, n) entries, oldest first) and post(m) = the first w_b sampled packets
//! after m (region `Q_b[par after m]`), cut short by the next effective marker or a flush. The engine reads
//! out *jobs*, one operation (op) per cycle at most:
//! - job A (queued by marker m): the walk over the frozen bucket set (if `a_walk`; bank 0 buckets
//!   0..M_0−1, bank 1, …), then pre(m) of every bank (if the core has a stash), then one `DoneA` record;
//! - job B (once capture m is complete): post(m) of every bank (if the core has a stash), then one `DoneB`.
//!
//! The capture completes (`filling = 0`, `b_pending = 1`, `post_len_b = post_fill_b`, `b_region = par`,
//! cut request cleared) in a cycle with `filling && (every bank has post_fill_b == w_b, or the cut request
//! is set) && !a_queued && the engine runs no job-A phase` (all register values at the start of the
//! cycle; the D2 marker's updates of the same cycle take precedence). So B(m) follows A(m), and B(m)
//! precedes A(m+1) (a marker finds the engine idle; a cut makes B pending while A is queued, and a pending
//! B starts first). A core without a stash completes every capture in the first cycle after its job A
//! has ended, and its job B is just `DoneB`.
//!
//! Engine registers: `phase` (None, Walk, Pre, Post, DoneA, DoneB), `bank`, `addr`, `set` (the walk's
//! bucket set), `region` (the stash region read). In a cycle with `phase == None`: if `b_pending`, start
//! job B (`b_pending = 0`, phase Post if the core has a stash else DoneB, `region = b_region`); else if
//! `a_queued`, start job A (`a_queued = 0`, phase Walk if `a_walk`, else Pre if stash, else DoneA; `set =
//! !active`, `region = !par`); `bank = addr = 0`. No op issues in a start cycle. In a cycle with a phase:
//! `len` = M_b (Walk), `pre_full_b ? w_b : pre_ptr_b` (Pre), `post_len_b` (Post), 1 (DoneA/DoneB), and the
//! register `more` = `addr < len`, evaluated in the cycle that set `phase`, `bank` and `addr` (with that
//! cycle's lengths) and held while they hold: so the issue decision reads a flip-flop, not a compare.
//! (The lengths do not change during a phase — a marker, which copies the Pre pointers, or a capture's
//! close, which sets `post_len_b`, cannot happen then — unless software rewrites M_b or w_b; such a
//! rewrite takes effect at the engine's next address step.) If
//! `more`: issue the op if the readout FIFO has room (`level + IN_FLIGHT ≤ 2^FIFO_BITS`, level as
//! registered at the start of the cycle) and then `addr += 1`; otherwise wait. If not `more` (`addr = len`
//! unless software changes M_b or w_b during a stream): a Done phase ends the job (`phase = None`);
//! otherwise `addr = 0` and `bank += 1`, or after the last bank the next phase (Walk → Pre if stash else
//! DoneA; Pre → DoneA; Post → DoneB) with `bank = 0`. An op:
//! - Walk `(b, a)`: into bank b's set `set` pipelines, index a, payload *clear* (write 0; capture the old
//!   words at S2). The frozen set takes no packets (only the active one does), so the walk never competes;
//! - Pre `(b, k)`: stash read of `P_b[region]` at slot `(pre_full_b ? pre_ptr_b : 0) + k`, minus w_b if that
//!   is ≥ w_b; Post `(b, k)`: read of `Q_b[region]` at slot k (registered read: data one cycle later, then
//!   registered again, so every op reaches the record stage two cycles after issue, like the RMW's S2);
//! - DoneA / DoneB: nothing is read.
//! Two cycles after issue (E2) the op's record is formed and registered; the next cycle it is pushed into
//! the readout FIFO ([`FIFO_BITS`], first-word-fall-through `rec_valid`/`rec_data`/`rec_ready`). At most
//! IN_FLIGHT ops are between issue and the FIFO, so the FIFO never drops. `records` counts pushes.
//!
//! Flush: software writes CSR `flush` after the last marker to close the last capture (the transaction
//! model's [`super::FinecombModel::flush`]); then collects records until the `DoneB`. The write acts two
//! cycles later, when every descriptor accepted before it has passed D2, so a flush written in the cycle
//! after the last marker was accepted closes that marker's capture.
//!
//! Reset: every register above clears (`par`, `active`, `counting`, pointers, engine, queued jobs, the cut
//! request); the bucket tables are swept to zero; stash contents are left (never read before written).
//!
//! # Readings of the text above that this model fixes (the RTL must agree)
//! - `marker_ok`'s "engine idle" is `phase == None && !a_queued && !b_pending` (no job running, job A not
//!   queued, job B not pending); `filling` does not count (a marker cuts an open capture, so waiting for
//!   it would deadlock the stream). CSR `busy` is the negation of the same idle.
//! - Same-edge order of the control registers: the engine's job start (clears `a_queued`/`b_pending`),
//!   then the capture completion, then the D2 marker (it takes precedence), then the flush: a pending
//!   flush *sets* the cut request even in a cycle where a marker or a completion clears it (so a flush
//!   written right after the last marker still closes that marker's capture). A completion's `post_len_b`
//!   is `post_fill_b` at the start of the cycle: a packet in D2 in that cycle is written into Q but not
//!   read out (software writes `flush` after the last descriptor was accepted, so this does not arise).
//! - Record fields the text leaves open: a `DoneA` has bank 0 and index = `a_flags`; a `DoneB` has bank
//!   0 and index 0; both have ts = count = isd = 0; `Pre`/`Post` have count 0; a `Bucket` of an LDA core
//!   has isd 0. `ring_ptr_b` wraps at 16 bits if w_b shrinks below it while a stream runs (software must
//!   not change M_b or w_b during a stream).
//! - `in_valid` with no descriptor (`desc: None`) is no descriptor.

mod assembler;
mod bank;
mod config;
mod engine;
mod front;
mod record;
mod stash;

pub use assembler::Assembler;
pub use bank::BankTables;
pub use config::*;
pub use engine::Phase;
pub use front::{Front, FrontInputs, FrontModel, FrontOutputs, StageD1, StageD2};
pub use record::*;
pub use stash::StashMemory;

use super::{Bucket, Descriptor, Digest, StashEntry, MAX_BANKS};
use crate::common::config::ConfigError;
use crate::common::csr::{CsrInputs, CsrModel};
use engine::Engine;
use stash::BankRegs;

/// The 16-bit run-time fields (`buckets_b`, `stash_depth_b`, the stash pointers).
const FIELD_MASK: usize = (1 << RUNTIME_FIELD_BITS) - 1;
const EMPTY: StashEntry = StashEntry { digest: 0, ts: 0 };

/// One cycle's inputs of the core (`hdl::finecomb::FinecombCore`).
#[derive(Debug, Clone, Copy, Default)]
pub struct FinecombInputs {
    pub reset: bool,
    pub in_valid: bool,
    /// The descriptor on the input port (read when `in_valid`).
    pub desc: Option<Descriptor>,
    pub rec_ready: bool,
    pub csr_addr: u8,
    pub csr_wr_en: bool,
    pub csr_wr_data: u32,
    pub csr_rd_en: bool,
}

/// The core's outputs during one cycle; `None` = undefined (before the first reset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinecombOutputs {
    pub in_ready: Option<bool>,
    pub rec_valid: Option<bool>,
    /// The readout FIFO's head ([`Record::pack`]); meaningful only when `rec_valid`.
    pub rec_data: Option<[u32; 6]>,
    pub csr_rd_valid: Option<bool>,
    pub csr_rd_data: Option<u32>,
}

impl FinecombOutputs {
    const UNDEFINED: FinecombOutputs =
        FinecombOutputs { in_ready: None, rec_valid: None, rec_data: None, csr_rd_valid: None, csr_rd_data: None };
}

/// Status counters (CSR status registers `packets`, `markers`, `records`), wrapping 32-bit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FinecombStats {
    /// Packets that reached D2.
    pub packets: u32,
    /// Effective markers.
    pub markers: u32,
    /// Records pushed into the readout FIFO.
    pub records: u32,
}

/// Every register a reset clears: `Regs::default()` is the state after reset.
#[derive(Debug, Clone, Copy, Default)]
struct Regs {
    /// D1, D1m, D2.
    front: Front,
    /// Stash region the ring and post writes go to.
    par: usize,
    /// Bucket set packets go to.
    active: usize,
    counting: bool,
    /// The capture opened by the last effective marker is still taking post entries.
    filling: bool,
    cut_request: bool,
    banks: [BankRegs; MAX_BANKS],
    a_queued: bool,
    a_walk: bool,
    /// Bit 0: the marker was an effective end; bit 1: an effective start.
    a_flags: usize,
    b_pending: bool,
    b_region: usize,
    engine: Engine,
    /// E1, E2 and the record register.
    records: RecordPipe,
    /// A `flush` write happened last cycle / two cycles ago (the cut request is set at the end of the latter).
    flush_pending: [bool; 2],
}

impl Regs {
    /// The readout engine is idle: no job running, none queued, no job B pending.
    fn idle(&self) -> bool {
        self.engine.phase == Phase::Idle && !self.a_queued && !self.b_pending
    }
}

/// Cycle model of the FineComb core (module docs).
#[derive(Debug, Clone)]
pub struct FinecombCycleModel {
    pub core: FinecombCoreConfig,
    digest: Digest,
    /// Per bank.
    pub tables: Vec<BankTables>,
    /// Per bank; empty without a stash.
    pub stash: Vec<StashMemory>,
    pub fifo: ReadoutFifo,
    pub csr: CsrModel,
    pub stats: FinecombStats,
    regs: Regs,
    /// Every RMW pipeline was ready last cycle (`ready_q`; `None` before the first reset).
    ready_q: Option<bool>,
    started: bool,
}

impl FinecombCycleModel {
    pub fn new(core: &FinecombCoreConfig) -> Result<Self, ConfigError> {
        core.check()?;
        let layout = core.csr_layout();
        layout.check()?;
        let tables = (0..core.banks()).map(|_| BankTables::new(core)).collect();
        let stash = match core.has_stash() {
            true => (0..core.banks()).map(|_| StashMemory::new(core)).collect(),
            false => vec![],
        };
        Ok(FinecombCycleModel {
            core: core.clone(),
            digest: Digest::new(),
            tables,
            stash,
            fifo: ReadoutFifo::new(),
            csr: CsrModel::new(layout),
            stats: FinecombStats::default(),
            regs: Regs::default(),
            ready_q: None,
            started: false,
        })
    }

    /// Sampling threshold of bank b (CSR `threshold_b` now).
    pub fn threshold(&self, b: usize) -> u32 {
        self.csr.config()[self.core.csr_threshold(b) as usize]
    }
    /// M_b as the hardware uses it: the low 16 bits of CSR `buckets_b`.
    pub fn buckets(&self, b: usize) -> usize {
        self.csr.config()[self.core.csr_buckets(b) as usize] as usize & FIELD_MASK
    }
    /// w_b as the hardware uses it: the low 16 bits of CSR `stash_depth_b`, 0 without a stash.
    pub fn stash_depth(&self, b: usize) -> usize {
        match self.core.has_stash() {
            true => self.csr.config()[self.core.csr_stash_depth(b) as usize] as usize & FIELD_MASK,
            false => 0,
        }
    }
    /// Coverage of the stash bounds (no output depends on it): the packets bank b wrote into its ring
    /// between the last two effective markers m−1 and m. Against w_b it says whether the ring of pre(m)
    /// wrapped (≥ w_b), and whether post(m−1), if it was still filling, was filled exactly (= w_b) or
    /// overrun (> w_b).
    pub fn pre_stashed(&self, b: usize) -> usize {
        self.regs.banks[b].pre_stashed
    }
    /// The readout engine's phase.
    pub fn phase(&self) -> Phase {
        self.regs.engine.phase
    }
    /// The readout engine is not idle (CSR `busy`).
    pub fn busy(&self) -> bool {
        !self.regs.idle()
    }
    /// Readout FIFO drops (CSR `fifo_drops`; stays 0).
    pub fn fifo_drops(&self) -> u32 {
        self.fifo.drops()
    }
    /// Nothing is left to read out: no descriptor in D1/D1m/D2, no open capture, the engine idle, no op in
    /// flight and the readout FIFO empty.
    pub fn drained(&self) -> bool {
        let r = &self.regs;
        let f = &r.front;
        f.d1.is_none()
            && f.d1m.is_none()
            && f.d2.is_none()
            && !r.filling
            && r.idle()
            && r.records.is_empty()
            && self.fifo.level() == 0
    }

    /// CSR status registers, in [`FinecombCoreConfig::csr_layout`] order.
    fn status(&self) -> Vec<u32> {
        let s = &self.stats;
        vec![s.packets, s.markers, s.records, self.fifo.drops(), self.fifo.level() as u32, self.busy() as u32]
    }

    /// AND of every RMW pipeline's `in_ready` in this cycle.
    fn rmw_ready(&self, reset: bool) -> Option<bool> {
        self.tables.iter().fold(Some(true), |acc, t| acc.zip(t.ready(reset)).map(|(a, b)| a && b))
    }

    /// One cycle: the outputs during it, then the clock edge.
    pub fn step(&mut self, i: &FinecombInputs) -> FinecombOutputs {
        if !i.reset && !self.started {
            return FinecombOutputs::UNDEFINED;
        }
        let nb = self.core.banks();
        let cur = self.regs;
        let mut next = cur;
        let status = self.status();
        let m: [usize; MAX_BANKS] = std::array::from_fn(|b| if b < nb { self.buckets(b) } else { 0 });
        let w: [usize; MAX_BANKS] = std::array::from_fn(|b| if b < nb { self.stash_depth(b) } else { 0 });
        // Thresholds as the CSRs hold them during this cycle (the CSR bank below applies this cycle's write).
        let thresholds: [u32; MAX_BANKS] = std::array::from_fn(|b| if b < nb { self.threshold(b) } else { 0 });

        // Input handshake.
        let desc = i.desc.filter(|_| i.in_valid);
        let in_ready = cur.front.in_ready(i.reset, self.ready_q, cur.idle(), desc);
        let rmw_ready = self.rmw_ready(i.reset);

        // Readout engine (issue, E0).
        let room = self.fifo.level() + IN_FLIGHT <= 1 << FIFO_BITS;
        let issued = if i.reset { None } else { self.engine(&cur, &mut next, &m, &w, room) };

        // D2 packet and walk op into the RMW pipelines; the walk's old words come back at S2 (E2).
        let packet = match cur.front.d2 {
            Some(StageD2::Packet { entry, sampled, index }) if cur.counting && !i.reset => {
                Some((entry, sampled, index))
            }
            _ => None,
        };
        let walk = issued.filter(|r| r.kind == RecordKind::Bucket);
        let cleared = bank::step_all(&mut self.tables, i.reset, (cur.active, packet), (cur.engine.set, walk));
        // E2: the op's record.
        let e2 = cur.records.at_e2().filter(|_| !i.reset).map(|r| {
            if r.kind == RecordKind::Bucket {
                let (b, a, _) = cleared[0].expect("the walk op's TS|C word at E2");
                assert_eq!((b, a), (r.bank, r.index & ((1 << self.core.bucket_addr_bits) - 1)), "walk op out of step");
            }
            let tsc = cleared[0].map_or(0, |c| c.2);
            let bucket = Bucket { ts: tsc as u64, count: (tsc >> 64) as u32, isd: cleared[1].map_or(0, |c| c.2 as u64) };
            r.at_e2(bucket, r.stash_entry())
        });

        let fifo_out = self.fifo.step(i.reset, cur.records.pushing().map(|r| r.pack()), i.rec_ready);
        let csr_out = self.csr.step(&CsrInputs::from_port(i, status));
        let outputs = FinecombOutputs {
            in_ready,
            rec_valid: fifo_out.map(|f| f.0),
            rec_data: fifo_out.and_then(|f| f.1),
            csr_rd_valid: csr_out.as_ref().map(|c| c.rd_valid),
            csr_rd_data: csr_out.map(|c| c.rd_data),
        };
        self.ready_q = rmw_ready;
        if i.reset {
            self.regs = Regs::default();
            self.stats = FinecombStats::default();
            self.started = true;
            return outputs;
        }

        // Edge. D2 packet: stash ring and post writes.
        if let Some(StageD2::Packet { entry, sampled, .. }) = cur.front.d2 {
            self.stats.packets = self.stats.packets.wrapping_add(1);
            self.stash_writes(&cur, &mut next, entry, &sampled, &w);
        }
        // Capture completion (registers at the start of the cycle).
        let all_full = (0..nb).all(|b| cur.banks[b].post_fill == w[b]);
        if cur.filling && (all_full || cur.cut_request) && !cur.a_queued && !cur.engine.phase.of_job_a() {
            self.close_capture(&cur, &mut next);
            next.filling = false;
            next.cut_request = false;
        }
        // D2 marker (takes precedence over the completion).
        if let Some(StageD2::Marker { start, end }) = cur.front.d2 {
            self.marker(&cur, &mut next, start, end);
        }
        // Flush: a registered pulse, then the sticky cut request (set wins over a clear).
        next.cut_request |= cur.flush_pending[1];
        next.flush_pending = [i.csr_wr_en && i.csr_addr == self.core.csr_flush(), cur.flush_pending[0]];
        // D1m → D2 (thresholds and M_b as the CSRs held them at the start of the cycle), D1 → D1m, IN → D1.
        let accepted = desc.filter(|_| in_ready == Some(true));
        next.front = cur.front.advance(&self.digest, accepted, nb, &thresholds, &m);
        // Engine pipeline → record register → FIFO.
        next.records = cur.records.advance(issued, e2);
        self.stats.records = self.stats.records.wrapping_add(cur.records.pushing().is_some() as u32);
        self.regs = next;
        outputs
    }

    /// An effective marker at D2 (an ineffective one does nothing): cuts the open capture, opens the next,
    /// swaps the bucket set on an end, starts counting on a start, queues job A.
    fn marker(&mut self, cur: &Regs, next: &mut Regs, start: bool, end: bool) {
        let end_effective = end && cur.counting;
        let start_effective = start && (end_effective || !cur.counting);
        if !(end_effective || start_effective) {
            return;
        }
        self.stats.markers = self.stats.markers.wrapping_add(1);
        if cur.filling {
            self.close_capture(cur, next);
        }
        self.open_capture(cur, next);
        next.par = cur.par ^ 1;
        next.filling = true;
        next.cut_request = false;
        if end_effective {
            next.active = cur.active ^ 1;
            next.counting = false;
        }
        next.counting |= start_effective;
        next.a_queued = true;
        next.a_walk = end_effective;
        next.a_flags = end_effective as usize | (start_effective as usize) << 1;
    }
}

#[cfg(test)]
mod tests;
