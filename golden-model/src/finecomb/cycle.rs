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
//! of c + 1, see below); status `packets`, `markers` (effective ones), `records` (pushed into the readout
//! FIFO), `fifo_drops` (stays 0), `fifo_level`, `busy` (the readout engine is not idle). All counters wrap
//! at 32 bits and clear at reset.
//!
//! # Packet path (no stalls: a packet is accepted in every cycle the core is ready)
//! | cycle | stage | what happens |
//! |---|---|---|
//! | t   | IN | descriptor accepted (`in_valid && in_ready`) into D1; the two digest hash units load its key |
//! | t+1 | D1 | digest D ready; per bank: `sampled_b = D[63:32] ≤ threshold_b`, the two partial products `pa_b = D[31:16]·M_b`, `pb_b = (D[15:0]·M_b) >> 16` (M_b = low 16 bits of `buckets_b`); registered into D2 |
//! | t+2 | D2 | issue: `index_b = (pa_b + pb_b) >> 16` (= [`super::bucket_index_16x16`]); packet → RMW pipelines, stash writes; marker → interval/capture bookkeeping |
//! | t+4 | S2 | the bank's modify stage: TS += ts, C += 1 (one 96-bit word `TS | C << 64`), ISD ^= D (own 64-bit word) |
//!
//! `in_ready = !reset && ready_q && !(in_valid && (in_start || in_end) && !marker_ok)`, where `ready_q` is
//! the registered AND of every RMW pipeline's `in_ready` (low in the reset cycle's next cycle and through
//! the table sweep of 2^IA cycles; the model: `ready_q` = last cycle's AND of [`RmwModel::ready`], `None`
//! before the first reset) and `marker_ok` = the readout engine is idle (no job running, none queued, no
//! post capture pending) and no marker is in D1 or D2. So packets never wait; a marker waits until the
//! previous interval's readout has drained (only with very short intervals or a stalled reader).
//!
//! ## D2: a packet
//! For every bank b with `sampled_b` (thresholds are read at D1):
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
//! B starts first). A core without a stash completes every capture in the cycle after its marker's D2 —
//! or later if job A is still queued or running — and its job B is just `DoneB`.
//!
//! Engine registers: `phase` (None, Walk, Pre, Post, DoneA, DoneB), `bank`, `addr`, `set` (the walk's
//! bucket set), `region` (the stash region read). In a cycle with `phase == None`: if `b_pending`, start
//! job B (`b_pending = 0`, phase Post if the core has a stash else DoneB, `region = b_region`); else if
//! `a_queued`, start job A (`a_queued = 0`, phase Walk if `a_walk`, else Pre if stash, else DoneA; `set =
//! !active`, `region = !par`); `bank = addr = 0`. No op issues in a start cycle. In a cycle with a phase:
//! `len` = M_b (Walk), `pre_full_b ? w_b : pre_ptr_b` (Pre), `post_len_b` (Post), 1 (DoneA/DoneB). If
//! `addr < len`: issue the op if the readout FIFO has room (`level + IN_FLIGHT ≤ 2^FIFO_BITS`, level as
//! registered at the start of the cycle) and then `addr += 1`; otherwise wait. If `addr == len` (≥ is not
//! reachable): a Done phase ends the job (`phase = None`); otherwise `addr = 0` and `bank += 1`, or after
//! the last bank the next phase (Walk → Pre if stash else DoneA; Pre → DoneA; Post → DoneB) with `bank =
//! 0`. An op:
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
//! model's [`super::FinecombModel::flush`]); then collects records until the `DoneB`.
//!
//! Reset: every register above clears (`par`, `active`, `counting`, pointers, engine, queued jobs, the cut
//! request); the bucket tables are swept to zero; stash contents are left (never read before written).

use super::{Bucket, FinecombConfig, Role, StashEntry};
use crate::common::config::{check_range, ConfigError};
use crate::common::csr::CsrLayout;

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
pub const RECORD_BITS: usize = KIND_BITS + BANK_BITS + INDEX_BITS + 64 + 32 + 64;
/// Bit offsets of the record fields.
pub const REC_BANK: usize = KIND_BITS;
pub const REC_INDEX: usize = REC_BANK + BANK_BITS;
pub const REC_TS: usize = REC_INDEX + INDEX_BITS;
pub const REC_COUNT: usize = REC_TS + 64;
pub const REC_ISD: usize = REC_COUNT + 32;
/// Width of a TS|C table word (`ts | count << 64`) and of a stash word (`digest | ts << 64`).
pub const TSC_WORD_BITS: usize = 96;
pub const STASH_WORD_BITS: usize = 64 + crate::common::config::TIMESTAMP_BITS;

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

/// Generation-time shape of a FineComb core (the RTL's generics follow from it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
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
        CsrLayout { config, status: status.iter().map(|s| s.to_string()).collect() }
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
}
