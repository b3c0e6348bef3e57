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
//! the table sweep of 2^IA cycles; the model: `ready_q` = last cycle's AND of [`RmwModel::ready`], `None`
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
//! `len` = M_b (Walk), `pre_full_b ? w_b : pre_ptr_b` (Pre), `post_len_b` (Post), 1 (DoneA/DoneB). If
//! `addr < len`: issue the op if the readout FIFO has room (`level + IN_FLIGHT ≤ 2^FIFO_BITS`, level as
//! registered at the start of the cycle) and then `addr += 1`; otherwise wait. If `addr ≥ len` (only `=`
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

use super::{bucket_index_16x16, BankReadout, Descriptor, Digest, FinecombRuntime, IntervalReport, Stash};
use super::{Bucket, FinecombConfig, Role, StashEntry, COUNTER_BITS, DIGEST_BITS, MAX_BANKS, TS_SUM_BITS};
use crate::common::config::{check_range, ConfigError, TIMESTAMP_BITS};
use crate::common::csr::{CsrInputs, CsrLayout, CsrModel};
use crate::common::fifo::{FifoInputs, FifoModel};
use crate::common::mask128;
use crate::common::rmw::{RmwInputs, RmwModel, RmwStage};
use crate::common::sram::RamPorts;

/// Readout FIFO depth (log2) and the most ops between issue and the FIFO push.
pub const FIFO_BITS: usize = 4;
pub const IN_FLIGHT: usize = 4;
/// Width of the bucket-count and stash-depth CSR fields the hardware uses.
pub const RUNTIME_FIELD_BITS: usize = 16;
/// Most bucket address bits / stash slot bits a core can be generated with.
pub const MAX_BUCKET_ADDR_BITS: usize = 16;
pub const MAX_STASH_SLOT_BITS: usize = 14;

/// Record layout on the readout port, LSB first: kind (3) | bank (3) | index (16) | ts (64) | count (32) |
/// isd (64) = 182 bits.
pub const KIND_BITS: usize = 3;
pub const BANK_BITS: usize = 3;
pub const INDEX_BITS: usize = 16;
pub const RECORD_BITS: usize = KIND_BITS + BANK_BITS + INDEX_BITS + TS_SUM_BITS + COUNTER_BITS + DIGEST_BITS;
/// Bit offsets of the record fields.
pub const REC_BANK: usize = KIND_BITS;
pub const REC_INDEX: usize = REC_BANK + BANK_BITS;
pub const REC_TS: usize = REC_INDEX + INDEX_BITS;
pub const REC_COUNT: usize = REC_TS + TS_SUM_BITS;
pub const REC_ISD: usize = REC_COUNT + COUNTER_BITS;
/// Width of a TS|C table word (`ts | count << 64`) and of a stash word (`digest | ts << 64`).
pub const TSC_WORD_BITS: usize = TS_SUM_BITS + COUNTER_BITS;
pub const STASH_WORD_BITS: usize = DIGEST_BITS + crate::common::config::TIMESTAMP_BITS;

/// What a record carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum RecordKind {
    /// A bucket of the frozen set: index = bucket, ts/count/isd its words (isd 0 in LDA mode).
    Bucket = 0,
    /// A pre(m) stash entry: index = position (oldest first), ts = timestamp, isd = digest, count 0.
    Pre = 1,
    /// A post(m) stash entry, likewise.
    Post = 2,
    /// End of job A: index bit 0 = the marker was an effective end, bit 1 = an effective start.
    DoneA = 3,
    /// End of job B: marker m's capture is complete.
    DoneB = 4,
}

/// One readout record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Record {
    pub kind: RecordKind,
    pub bank: usize,
    pub index: usize,
    pub ts: u64,
    pub count: u32,
    pub isd: u64,
}

impl Record {
    /// The record as the readout port's 182 bits, in six 32-bit words, least significant first.
    pub fn pack(&self) -> [u32; 6] {
        let mut w = [0u32; 6];
        put(&mut w, 0, KIND_BITS, self.kind as u64);
        put(&mut w, REC_BANK, BANK_BITS, self.bank as u64);
        put(&mut w, REC_INDEX, INDEX_BITS, self.index as u64);
        put(&mut w, REC_TS, 64, self.ts);
        put(&mut w, REC_COUNT, 32, self.count as u64);
        put(&mut w, REC_ISD, 64, self.isd);
        w
    }
    /// Inverse of [`Record::pack`]; `None` for an unknown kind.
    pub fn unpack(w: &[u32; 6]) -> Option<Record> {
        let kind = match get(w, 0, KIND_BITS) {
            0 => RecordKind::Bucket,
            1 => RecordKind::Pre,
            2 => RecordKind::Post,
            3 => RecordKind::DoneA,
            4 => RecordKind::DoneB,
            _ => return None,
        };
        Some(Record {
            kind,
            bank: get(w, REC_BANK, BANK_BITS) as usize,
            index: get(w, REC_INDEX, INDEX_BITS) as usize,
            ts: get(w, REC_TS, 64),
            count: get(w, REC_COUNT, 32) as u32,
            isd: get(w, REC_ISD, 64),
        })
    }
    pub fn bucket(&self) -> Bucket {
        Bucket { ts: self.ts, count: self.count, isd: self.isd }
    }
    pub fn stash_entry(&self) -> StashEntry {
        StashEntry { digest: self.isd, ts: self.ts }
    }
}

/// Writes the low `width` bits of `v` at bit `offset` of a little-endian word array.
fn put(w: &mut [u32], offset: usize, width: usize, v: u64) {
    for i in 0..width {
        let bit = (v >> i) & 1;
        let (k, j) = ((offset + i) / 32, (offset + i) % 32);
        w[k] = (w[k] & !(1 << j)) | (bit as u32) << j;
    }
}

/// Reads `width` (≤ 64) bits at bit `offset` of a little-endian word array.
fn get(w: &[u32], offset: usize, width: usize) -> u64 {
    (0..width).fold(0, |a, i| a | (((w[(offset + i) / 32] >> ((offset + i) % 32)) & 1) as u64) << i)
}

/// The FineComb core's identity registers: `FCMB`, register map 1.0.
pub const FINECOMB_IDENT: crate::common::csr::CoreIdent = crate::common::csr::CoreIdent::new(b"FCMB", 1, 0);

/// Generation-time shape of a FineComb core (the RTL's generics follow from it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FinecombCoreConfig {
    /// Role, LDA mode, number of banks; the banks' `buckets`/`stash_depth` are the CSRs' reset values.
    pub shape: FinecombConfig,
    /// IA: every bucket set of every bank has 2^IA words.
    pub bucket_addr_bits: usize,
    /// SA: every substash region has 2^SA slots (ignored without a stash).
    pub stash_slot_bits: usize,
}

impl FinecombCoreConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        self.shape.check()?;
        check_range("bucket address bits", self.bucket_addr_bits, 1, MAX_BUCKET_ADDR_BITS)?;
        check_range("stash slot bits", self.stash_slot_bits, 1, MAX_STASH_SLOT_BITS)?;
        self.fits(&self.shape)
    }
    pub fn banks(&self) -> usize {
        self.shape.banks.len()
    }
    /// A receiver with ISDs keeps a stash; a sender or an LDA core does not.
    pub fn has_stash(&self) -> bool {
        self.shape.role == Role::Receiver && self.shape.isd
    }
    /// Whether run-time settings `cfg` (bucket counts and stash depths) can run on this core.
    pub fn fits(&self, cfg: &FinecombConfig) -> Result<(), ConfigError> {
        cfg.check()?;
        if cfg.banks.len() != self.banks() || cfg.isd != self.shape.isd || cfg.role != self.shape.role {
            return Err(ConfigError(format!(
                "the core is a {:?} with {} bank(s) and isd = {}; asked for a {:?} with {} and isd = {}",
                self.shape.role,
                self.banks(),
                self.shape.isd,
                cfg.role,
                cfg.banks.len(),
                cfg.isd
            )));
        }
        for (b, bank) in cfg.banks.iter().enumerate() {
            if bank.buckets > 1 << self.bucket_addr_bits {
                return Err(ConfigError(format!(
                    "bank {b}: {} buckets do not fit the core's 2^{} table",
                    bank.buckets, self.bucket_addr_bits
                )));
            }
            if self.has_stash() && bank.stash_depth > 1 << self.stash_slot_bits {
                return Err(ConfigError(format!(
                    "bank {b}: substash depth {} does not fit the core's 2^{} slots",
                    bank.stash_depth, self.stash_slot_bits
                )));
            }
        }
        Ok(())
    }
    /// The CSR map (module docs).
    pub fn csr_layout(&self) -> CsrLayout {
        let n = self.banks();
        let mut config: Vec<(String, u32)> = (0..n).map(|b| (format!("threshold_{b}"), u32::MAX)).collect();
        config.extend(self.shape.banks.iter().enumerate().map(|(b, k)| (format!("buckets_{b}"), k.buckets as u32)));
        config.extend(
            self.shape.banks.iter().enumerate().map(|(b, k)| (format!("stash_depth_{b}"), k.stash_depth as u32)),
        );
        config.push(("flush".into(), 0));
        let status = ["packets", "markers", "records", "fifo_drops", "fifo_level", "busy"];
        let mut map = CsrLayout::new(config, status.iter().map(|s| s.to_string()).collect())
            .with_ident(FINECOMB_IDENT)
            .doc("flush", "a write closes the last capture after the last marker (acts two cycles later; see the cycle spec)")
            .doc("packets", "descriptors accepted")
            .doc("markers", "effective interval markers (a start or end that changes the counting state)")
            .doc("records", "records produced (pushed into the record FIFO or dropped)")
            .doc("fifo_drops", "records dropped because the record FIFO was full")
            .doc("fifo_level", "records waiting in the record FIFO")
            .doc("busy", "1 while the readout engine runs");
        for b in 0..n {
            map = map
                .doc(format!("threshold_{b}"), format!("bank {b}: a packet is sampled iff D[63:32] <= threshold (p = (threshold + 1) / 2^32)"))
                .doc(format!("buckets_{b}"), format!("bank {b}: buckets M per set (at most 2^IA)"))
                .doc(format!("stash_depth_{b}"), format!("bank {b}: substash depth w (0: no stash; at most 2^SA)"));
        }
        map
    }
    pub fn csr_threshold(&self, b: usize) -> u8 {
        b as u8
    }
    pub fn csr_buckets(&self, b: usize) -> u8 {
        (self.banks() + b) as u8
    }
    pub fn csr_stash_depth(&self, b: usize) -> u8 {
        (2 * self.banks() + b) as u8
    }
    pub fn csr_flush(&self) -> u8 {
        (3 * self.banks()) as u8
    }
    /// The CSR writes `(address, value)` that put run-time settings `cfg` (bucket counts, stash depths)
    /// and `rt` (thresholds) on this core, once checked to fit.
    pub fn csr_writes(&self, cfg: &FinecombConfig, rt: &FinecombRuntime) -> Result<Vec<(u8, u32)>, ConfigError> {
        self.fits(cfg)?;
        if rt.thresholds.len() != self.banks() {
            return Err(ConfigError(format!("{} sampling thresholds for {} banks", rt.thresholds.len(), self.banks())));
        }
        let mut w: Vec<(u8, u32)> =
            rt.thresholds.iter().enumerate().map(|(b, &t)| (self.csr_threshold(b), t)).collect();
        for (b, bank) in cfg.banks.iter().enumerate() {
            w.push((self.csr_buckets(b), bank.buckets as u32));
            w.push((self.csr_stash_depth(b), bank.stash_depth as u32));
        }
        Ok(w)
    }
}

/// RMW payload of a walk op: write 0 and capture the old word (packet payloads — a 48-bit timestamp, a
/// 64-bit digest — never set bit 127).
const CLEAR: u128 = 1 << 127;
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

/// Readout engine phase (module docs; `Idle` is the text's `None`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Phase {
    #[default]
    Idle,
    Walk,
    Pre,
    Post,
    DoneA,
    DoneB,
}

impl Phase {
    /// A phase of job A: the open capture cannot complete meanwhile.
    fn of_job_a(self) -> bool {
        matches!(self, Phase::Walk | Phase::Pre | Phase::DoneA)
    }
}

/// The descriptor in D1: a packet with its digest (the hash units' output) and 48-bit timestamp, or a
/// marker.
#[derive(Debug, Clone, Copy)]
enum StageD1 {
    Packet { digest: u64, ts: u64 },
    Marker { start: bool, end: bool },
}

/// The descriptor in D2: a packet with, per bank, its sampling decision and bucket index, or a marker.
/// (The RTL registers the two partial products at D1m and adds them at D2; the model registers their sum,
/// [`bucket_index_16x16`] of the M_b read at D1m.)
#[derive(Debug, Clone, Copy)]
enum StageD2 {
    Packet { entry: StashEntry, sampled: [bool; MAX_BANKS], index: [usize; MAX_BANKS] },
    Marker { start: bool, end: bool },
}

/// One bank's capture registers.
#[derive(Debug, Clone, Copy, Default)]
struct BankRegs {
    ring_ptr: usize,
    ring_full: bool,
    pre_ptr: usize,
    pre_full: bool,
    post_fill: usize,
    post_len: usize,
}

/// Readout engine registers.
#[derive(Debug, Clone, Copy, Default)]
struct Engine {
    phase: Phase,
    bank: usize,
    addr: usize,
    /// The bucket set the walk reads.
    set: usize,
    /// The stash region Pre/Post read.
    region: usize,
}

/// Every register a reset clears: `Regs::default()` is the state after reset.
#[derive(Debug, Clone, Copy, Default)]
struct Regs {
    d1: Option<StageD1>,
    /// D1m: the digest registered after the finaliser.
    d1m: Option<StageD1>,
    d2: Option<StageD2>,
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
    /// Ops between issue and E2, as records whose bucket words are filled in at E2: `ops[0]` was issued
    /// last cycle, `ops[1]` two cycles ago (at E2 now).
    ops: [Option<Record>; 2],
    /// The record register: pushed into the readout FIFO in this cycle.
    out: Option<Record>,
    /// A `flush` write happened last cycle / two cycles ago (the cut request is set at the end of the latter).
    flush_pending: [bool; 2],
}

impl Regs {
    /// The readout engine is idle: no job running, none queued, no job B pending.
    fn idle(&self) -> bool {
        self.engine.phase == Phase::Idle && !self.a_queued && !self.b_pending
    }
    /// A marker may enter: the engine is idle and no marker is in D1, D1m or D2.
    fn marker_ok(&self) -> bool {
        self.idle()
            && !matches!(self.d1, Some(StageD1::Marker { .. }))
            && !matches!(self.d1m, Some(StageD1::Marker { .. }))
            && !matches!(self.d2, Some(StageD2::Marker { .. }))
    }
}

/// One bank's bucket tables: per bucket set, the TS|C pipeline and (not in LDA mode) the ISD pipeline.
#[derive(Debug, Clone)]
pub struct BankTables {
    pub tsc: [RmwModel; 2],
    pub isd: Option<[RmwModel; 2]>,
}

/// One bank's stash: the ring memory P and the post memory Q, each 2 regions × 2^SA slots, at
/// `region << SA | slot`.
#[derive(Debug, Clone)]
pub struct StashMemory {
    pub ring: Vec<StashEntry>,
    pub post: Vec<StashEntry>,
}

/// The 182-bit readout FIFO (RTL: one `ReportFifo<4, 182, 5>`) as two [`FifoModel`]s driven identically,
/// one for record bits 0..128 and one for bits 128..182.
#[derive(Debug, Clone)]
pub struct ReadoutFifo {
    lo: FifoModel,
    hi: FifoModel,
}

impl ReadoutFifo {
    fn new() -> ReadoutFifo {
        ReadoutFifo { lo: FifoModel::new(FIFO_BITS, 128), hi: FifoModel::new(FIFO_BITS, RECORD_BITS - 128) }
    }
    /// Entries now.
    pub fn level(&self) -> usize {
        self.lo.level()
    }
    /// Drop counter now.
    pub fn drops(&self) -> u32 {
        self.lo.drops()
    }
    /// `(out_valid, out_data)` during this cycle (`None` before the first reset), then the edge.
    fn step(&mut self, reset: bool, push: Option<[u32; 6]>, out_ready: bool) -> Option<(bool, Option<[u32; 6]>)> {
        let w = push.unwrap_or_default();
        let half = |words: &[u32]| words.iter().rev().fold(0u128, |a, &x| a << 32 | x as u128);
        let input = |in_data| FifoInputs { reset, in_valid: push.is_some(), in_data, out_ready };
        let (lo, hi) = (self.lo.step(&input(half(&w[..4]))), self.hi.step(&input(half(&w[4..]))));
        let (lo, hi) = lo.zip(hi)?;
        let data = lo.out_data.zip(hi.out_data).map(|(l, h)| {
            let mut r = [0u32; 6];
            for (k, x) in r.iter_mut().enumerate() {
                *x = if k < 4 { (l >> (32 * k)) as u32 } else { (h >> (32 * (k - 4))) as u32 };
            }
            r
        });
        Some((lo.out_valid, data))
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
        let sets = |width| {
            let set = RmwModel::new(RamPorts::Dual, core.bucket_addr_bits, width);
            [set.clone(), set]
        };
        let tables = (0..core.banks())
            .map(|_| BankTables { tsc: sets(TSC_WORD_BITS), isd: core.shape.isd.then(|| sets(super::DIGEST_BITS)) })
            .collect();
        let slots = 2 << core.stash_slot_bits;
        let stash = match core.has_stash() {
            true => {
                (0..core.banks()).map(|_| StashMemory { ring: vec![EMPTY; slots], post: vec![EMPTY; slots] }).collect()
            }
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
        r.d1.is_none()
            && r.d1m.is_none()
            && r.d2.is_none()
            && !r.filling
            && r.idle()
            && r.ops.iter().all(Option::is_none)
            && r.out.is_none()
            && self.fifo.level() == 0
    }

    /// CSR status registers, in [`FinecombCoreConfig::csr_layout`] order.
    fn status(&self) -> Vec<u32> {
        let s = &self.stats;
        vec![s.packets, s.markers, s.records, self.fifo.drops(), self.fifo.level() as u32, self.busy() as u32]
    }

    /// AND of every RMW pipeline's `in_ready` in this cycle.
    fn rmw_ready(&self, reset: bool) -> Option<bool> {
        let all = self.tables.iter().flat_map(|t| t.tsc.iter().chain(t.isd.iter().flatten()));
        all.fold(Some(true), |acc, rmw| acc.zip(rmw.ready(reset)).map(|(a, b)| a && b))
    }

    /// Stash address of `slot` in `region`.
    fn stash_addr(&self, region: usize, slot: usize) -> usize {
        region << self.core.stash_slot_bits | (slot & ((1 << self.core.stash_slot_bits) - 1))
    }

    /// The readout engine in one cycle: starts a job or issues at most one op (returned as its record,
    /// stash data read at issue) from the registers `cur`, writing its registers' next values into `next`.
    fn engine(&self, cur: &Regs, next: &mut Regs, m: &[usize], w: &[usize], room: bool) -> Option<Record> {
        let e = cur.engine;
        let stash = self.core.has_stash();
        if e.phase == Phase::Idle {
            if cur.b_pending {
                next.b_pending = false;
                let phase = if stash { Phase::Post } else { Phase::DoneB };
                next.engine = Engine { phase, bank: 0, addr: 0, set: e.set, region: cur.b_region };
            } else if cur.a_queued {
                next.a_queued = false;
                let phase = match (cur.a_walk, stash) {
                    (true, _) => Phase::Walk,
                    (false, true) => Phase::Pre,
                    (false, false) => Phase::DoneA,
                };
                next.engine = Engine { phase, bank: 0, addr: 0, set: cur.active ^ 1, region: cur.par ^ 1 };
            }
            return None;
        }
        let (b, regs) = (e.bank, &cur.banks[e.bank]);
        let len = match e.phase {
            Phase::Walk => m[b],
            Phase::Pre if regs.pre_full => w[b],
            Phase::Pre => regs.pre_ptr,
            Phase::Post => regs.post_len,
            _ => 1,
        };
        if e.addr < len {
            if !room {
                return None;
            }
            next.engine.addr = e.addr + 1;
            let record = |kind, index, entry: StashEntry| Record {
                kind,
                bank: b,
                index,
                ts: entry.ts,
                count: 0,
                isd: entry.digest,
            };
            return Some(match e.phase {
                Phase::Walk => record(RecordKind::Bucket, e.addr, EMPTY),
                Phase::Pre => {
                    let slot = if regs.pre_full { regs.pre_ptr } else { 0 } + e.addr;
                    let slot = if slot >= w[b] { slot - w[b] } else { slot };
                    record(RecordKind::Pre, e.addr, self.stash[b].ring[self.stash_addr(e.region, slot)])
                }
                Phase::Post => record(RecordKind::Post, e.addr, self.stash[b].post[self.stash_addr(e.region, e.addr)]),
                Phase::DoneA => record(RecordKind::DoneA, cur.a_flags, EMPTY),
                Phase::DoneB | Phase::Idle => record(RecordKind::DoneB, 0, EMPTY),
            });
        }
        next.engine.addr = 0;
        if matches!(e.phase, Phase::DoneA | Phase::DoneB) {
            next.engine.phase = Phase::Idle;
        } else if b + 1 < self.core.banks() {
            next.engine.bank = b + 1;
        } else {
            next.engine.bank = 0;
            next.engine.phase = match e.phase {
                Phase::Walk if stash => Phase::Pre,
                Phase::Post => Phase::DoneB,
                _ => Phase::DoneA,
            };
        }
        None
    }

    /// Closes the open capture: job B becomes pending with every bank's post length as filled so far.
    fn close_capture(&self, cur: &Regs, next: &mut Regs) {
        next.b_pending = true;
        next.b_region = cur.par;
        for b in 0..self.core.banks() {
            next.banks[b].post_len = cur.banks[b].post_fill;
        }
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
        let in_ready = match i.reset {
            true => Some(false),
            false => self.ready_q.map(|q| q && (cur.marker_ok() || !desc.is_some_and(|d| d.is_marker()))),
        };
        let rmw_ready = self.rmw_ready(i.reset);

        // Readout engine (issue, E0).
        let room = self.fifo.level() + IN_FLIGHT <= 1 << FIFO_BITS;
        let issued = if i.reset { None } else { self.engine(&cur, &mut next, &m, &w, room) };

        // D2 packet and walk op into the RMW pipelines; the walk's old words come back at S2 (E2).
        let packet = match cur.d2 {
            Some(StageD2::Packet { entry, sampled, index }) if cur.counting && !i.reset => {
                Some((entry, sampled, index))
            }
            _ => None,
        };
        let walk = issued.filter(|r| r.kind == RecordKind::Bucket);
        let mut cleared: [Option<(usize, usize, u128)>; 2] = [None, None];
        for (b, tables) in self.tables.iter_mut().enumerate() {
            for set in 0..2 {
                let to_packet = packet.filter(|p| set == cur.active && p.1[b]);
                let to_walk = walk.filter(|r| r.bank == b && set == cur.engine.set);
                assert!(to_packet.is_none() || to_walk.is_none(), "a walk op competes with a packet: bank {b}");
                let (valid, index, ts, digest) = match (to_packet, to_walk) {
                    (Some((entry, _, index)), _) => (true, index[b], entry.ts as u128, entry.digest as u128),
                    (None, Some(r)) => (true, r.index, CLEAR, CLEAR),
                    (None, None) => (false, 0, 0, 0),
                };
                let input = |in_payload| RmwInputs { reset: i.reset, in_valid: valid, in_index: index, in_payload };
                let [tsc_old, isd_old] = &mut cleared;
                tables.tsc[set].step(&input(ts), |st| modify(st, b, tsc_old, add_timestamp));
                if let Some(isd) = tables.isd.as_mut() {
                    isd[set].step(&input(digest), |st| modify(st, b, isd_old, |old, d| old ^ d));
                }
            }
        }
        // E2: the op's record.
        let e2 = cur.ops[1].filter(|_| !i.reset).map(|mut r| {
            if r.kind == RecordKind::Bucket {
                let (b, a, tsc) = cleared[0].expect("the walk op's TS|C word at E2");
                assert_eq!((b, a), (r.bank, r.index & ((1 << self.core.bucket_addr_bits) - 1)), "walk op out of step");
                (r.ts, r.count) = (tsc as u64, (tsc >> 64) as u32);
                r.isd = cleared[1].map_or(0, |c| c.2 as u64);
            }
            r
        });

        let fifo_out = self.fifo.step(i.reset, cur.out.map(|r| r.pack()), i.rec_ready);
        let csr_out = self.csr.step(&CsrInputs {
            reset: i.reset,
            addr: i.csr_addr,
            wr_en: i.csr_wr_en,
            wr_data: i.csr_wr_data,
            rd_en: i.csr_rd_en,
            status,
        });
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
        if let Some(StageD2::Packet { entry, sampled, .. }) = cur.d2 {
            self.stats.packets = self.stats.packets.wrapping_add(1);
            for b in (0..nb).filter(|&b| sampled[b] && w[b] > 0) {
                let (r, n) = (cur.banks[b], &mut next.banks[b]);
                let ring_addr = self.stash_addr(cur.par, r.ring_ptr);
                self.stash[b].ring[ring_addr] = entry;
                let wraps = r.ring_ptr + 1 == w[b];
                n.ring_ptr = if wraps { 0 } else { (r.ring_ptr + 1) & FIELD_MASK };
                n.ring_full = r.ring_full || wraps;
                if cur.filling && r.post_fill < w[b] {
                    let post_addr = self.stash_addr(cur.par, r.post_fill);
                    self.stash[b].post[post_addr] = entry;
                    n.post_fill = r.post_fill + 1;
                }
            }
        }
        // Capture completion (registers at the start of the cycle).
        let all_full = (0..nb).all(|b| cur.banks[b].post_fill == w[b]);
        if cur.filling && (all_full || cur.cut_request) && !cur.a_queued && !cur.engine.phase.of_job_a() {
            self.close_capture(&cur, &mut next);
            next.filling = false;
            next.cut_request = false;
        }
        // D2 marker (takes precedence over the completion).
        if let Some(StageD2::Marker { start, end }) = cur.d2 {
            let end_effective = end && cur.counting;
            let start_effective = start && (end_effective || !cur.counting);
            if end_effective || start_effective {
                self.stats.markers = self.stats.markers.wrapping_add(1);
                if cur.filling {
                    self.close_capture(&cur, &mut next);
                }
                for b in 0..nb {
                    let (r, n) = (cur.banks[b], &mut next.banks[b]);
                    (n.pre_ptr, n.pre_full) = (r.ring_ptr, r.ring_full);
                    (n.ring_ptr, n.ring_full, n.post_fill) = (0, false, 0);
                }
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
        // Flush: a registered pulse, then the sticky cut request (set wins over a clear).
        next.cut_request |= cur.flush_pending[1];
        next.flush_pending = [i.csr_wr_en && i.csr_addr == self.core.csr_flush(), cur.flush_pending[0]];
        // D1m → D2 (thresholds and M_b as the CSRs held them at the start of the cycle), D1 → D1m, IN → D1.
        next.d2 = cur.d1m.map(|d| match d {
            StageD1::Packet { digest, ts } => StageD2::Packet {
                entry: StashEntry { digest, ts },
                sampled: std::array::from_fn(|b| b < nb && Digest::sampled(digest, thresholds[b])),
                index: std::array::from_fn(|b| bucket_index_16x16(digest, m[b])),
            },
            StageD1::Marker { start, end } => StageD2::Marker { start, end },
        });
        next.d1m = cur.d1;
        next.d1 = desc.filter(|_| in_ready == Some(true)).map(|d| match d.is_marker() {
            true => StageD1::Marker { start: d.start, end: d.end },
            false => {
                StageD1::Packet { digest: self.digest.of(d.key), ts: d.timestamp & mask128(TIMESTAMP_BITS) as u64 }
            }
        });
        // Engine pipeline → record register → FIFO.
        next.ops = [issued, cur.ops[0]];
        next.out = e2;
        self.stats.records = self.stats.records.wrapping_add(cur.out.is_some() as u32);
        self.regs = next;
        outputs
    }
}

/// The modify stage of a bucket pipeline of bank `b`: a walk op clears the word and hands the old one to
/// `cleared` (with its bank and index); a packet's payload is folded in with `update(old, payload)`.
fn modify(
    st: &RmwStage,
    b: usize,
    cleared: &mut Option<(usize, usize, u128)>,
    update: impl Fn(u128, u128) -> u128,
) -> Option<u128> {
    if st.payload == CLEAR {
        *cleared = Some((b, st.index, st.old));
        Some(0)
    } else {
        Some(update(st.old, st.payload))
    }
}

/// A TS|C word plus one packet: TS += ts (wrapping at 64 bits), C += 1 (wrapping at 32 bits).
fn add_timestamp(word: u128, ts: u128) -> u128 {
    let sum = (word as u64).wrapping_add(ts as u64);
    let count = ((word >> 64) as u32).wrapping_add(1);
    sum as u128 | (count as u128) << 64
}

/// One capture's stash entries per bank, in record order.
#[derive(Debug, Clone, Default)]
struct CaptureEntries {
    pre: Vec<Vec<StashEntry>>,
    post: Vec<Vec<StashEntry>>,
}

/// An interval that was opened (by an effective start) and not yet read out.
#[derive(Debug, Clone)]
struct OpenInterval {
    number: u64,
    /// The capture at its start marker (pre-start, post-start), once complete.
    start: CaptureEntries,
}

/// Turns the core's record stream back into the [`IntervalReport`]s of the transaction model
/// [`super::FinecombModel`] (fed the same descriptors, then [`super::FinecombModel::flush`]):
/// - an interval's number is the index of the effective start that opened it (DoneA bit 1);
/// - its buckets are the walk of its end marker's job A;
/// - pre-start/post-start are the Pre/Post records of the capture at its start marker, pre-end/post-end
///   those of the capture at its end marker (for a sync, one capture serves both);
/// - the report is complete at the DoneB of its end marker's capture.
///
/// Feed it every record popped since the last reset (a new `Assembler` after a reset).
#[derive(Debug, Clone)]
pub struct Assembler {
    cfg: FinecombConfig,
    starts: u64,
    /// Bucket records of the walk in progress, per bank.
    buckets: Vec<Vec<Bucket>>,
    /// The capture being read out and its marker's flags (from its DoneA).
    capture: CaptureEntries,
    end: bool,
    start: bool,
    open: Option<OpenInterval>,
    /// The interval the capture being read out ends, with its buckets.
    closing: Option<(OpenInterval, Vec<Vec<Bucket>>)>,
}

impl Assembler {
    /// `cfg`: the run-time settings the core runs with (role, LDA mode, every bank's M_b).
    pub fn new(cfg: &FinecombConfig) -> Assembler {
        let mut a = Assembler {
            cfg: cfg.clone(),
            starts: 0,
            buckets: vec![],
            capture: CaptureEntries::default(),
            end: false,
            start: false,
            open: None,
            closing: None,
        };
        a.buckets = a.empty_buckets();
        a.capture = a.empty_capture();
        a
    }

    fn empty_buckets(&self) -> Vec<Vec<Bucket>> {
        self.cfg.banks.iter().map(|b| vec![Bucket::default(); b.buckets]).collect()
    }

    fn empty_capture(&self) -> CaptureEntries {
        let n = self.cfg.banks.len();
        CaptureEntries { pre: vec![vec![]; n], post: vec![vec![]; n] }
    }

    /// Takes one record; returns an interval's report when its last record arrived. Records with a bank
    /// or bucket index outside the configuration are ignored.
    pub fn push(&mut self, r: &Record) -> Option<IntervalReport> {
        match r.kind {
            RecordKind::Bucket => {
                if let Some(b) = self.buckets.get_mut(r.bank).and_then(|v| v.get_mut(r.index)) {
                    *b = r.bucket();
                }
            }
            RecordKind::Pre => self.capture.pre.get_mut(r.bank).into_iter().for_each(|v| v.push(r.stash_entry())),
            RecordKind::Post => self.capture.post.get_mut(r.bank).into_iter().for_each(|v| v.push(r.stash_entry())),
            RecordKind::DoneA => {
                (self.end, self.start) = (r.index & 1 != 0, r.index & 2 != 0);
                if self.end {
                    let empty = self.empty_buckets();
                    let buckets = std::mem::replace(&mut self.buckets, empty);
                    self.closing = self.open.take().map(|iv| (iv, buckets));
                }
                if self.start {
                    self.open = Some(OpenInterval { number: self.starts, start: self.empty_capture() });
                    self.starts += 1;
                }
            }
            RecordKind::DoneB => {
                let empty = self.empty_capture();
                let capture = std::mem::replace(&mut self.capture, empty);
                if std::mem::take(&mut self.start) {
                    if let Some(iv) = self.open.as_mut() {
                        iv.start = capture.clone();
                    }
                }
                if std::mem::take(&mut self.end) {
                    return self.closing.take().map(|(iv, buckets)| self.report(iv, buckets, capture));
                }
            }
        }
        None
    }

    fn report(&self, iv: OpenInterval, buckets: Vec<Vec<Bucket>>, end: CaptureEntries) -> IntervalReport {
        let CaptureEntries { pre: pre_start, post: post_start } = iv.start;
        let banks = buckets
            .into_iter()
            .zip(pre_start.into_iter().zip(post_start))
            .zip(end.pre.into_iter().zip(end.post))
            .map(|((buckets, (pre_start, post_start)), (pre_end, post_end))| BankReadout {
                buckets,
                stash: Stash { pre_start, post_start, pre_end, post_end },
            })
            .collect();
        IntervalReport { interval: iv.number, banks }
    }
}

#[cfg(test)]
mod tests;
