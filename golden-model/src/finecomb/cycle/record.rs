//! Records (layout, [`Record::pack`]/[`Record::unpack`]) and the record stage of the core: E1, E2, the
//! record register and the readout FIFO ([`RecordPipe`], [`ReadoutFifo`]; RTL `hdl::finecomb::record`),
//! with a stand-alone model of that stage ([`RecordStageModel`]) for its own co-simulation top.

use super::super::{Bucket, StashEntry, COUNTER_BITS, DIGEST_BITS, TS_SUM_BITS};
use crate::common::fifo::{FifoInputs, FifoModel};

/// Readout FIFO depth (log2) and the most ops between issue and the FIFO push.
pub const FIFO_BITS: usize = 4;
pub const IN_FLIGHT: usize = 4;

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
    /// The record an op becomes at E2: a Pre/Post op takes the stash entry's timestamp and digest, every
    /// other op the bucket words a clear op captured (all 0 when none did); the count is always the
    /// bucket's.
    pub fn at_e2(&self, bucket: Bucket, stash: StashEntry) -> Record {
        let (ts, isd) = match self.kind {
            RecordKind::Pre | RecordKind::Post => (stash.ts, stash.digest),
            _ => (bucket.ts, bucket.isd),
        };
        Record { ts, count: bucket.count, isd, ..*self }
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

/// The record path's registers: ops between issue and E2 and the record register.
/// `RecordPipe::default()` is the state after reset.
#[derive(Debug, Clone, Copy, Default)]
pub struct RecordPipe {
    /// `ops[0]` was issued last cycle, `ops[1]` two cycles ago (at E2 now); the words they carry are
    /// completed at E2 ([`Record::at_e2`]).
    ops: [Option<Record>; 2],
    /// The record register: pushed into the readout FIFO in this cycle.
    out: Option<Record>,
}

impl RecordPipe {
    /// The op at E2.
    pub fn at_e2(&self) -> Option<Record> {
        self.ops[1]
    }
    /// The record pushed into the FIFO in this cycle.
    pub fn pushing(&self) -> Option<Record> {
        self.out
    }
    /// No op in flight and the record register empty.
    pub fn is_empty(&self) -> bool {
        self.ops.iter().all(Option::is_none) && self.out.is_none()
    }
    /// After the edge: `issued` enters E1, the op at E1 moves to E2, `e2` (the E2 op's record) is registered.
    pub fn advance(&self, issued: Option<Record>, e2: Option<Record>) -> RecordPipe {
        RecordPipe { ops: [issued, self.ops[0]], out: e2 }
    }
}

/// The 182-bit readout FIFO (RTL: one `ReportFifo<4, 182, 5>`) as two [`FifoModel`]s driven identically,
/// one for record bits 0..128 and one for bits 128..182.
#[derive(Debug, Clone)]
pub struct ReadoutFifo {
    lo: FifoModel,
    hi: FifoModel,
}

impl ReadoutFifo {
    pub fn new() -> ReadoutFifo {
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
    pub fn step(&mut self, reset: bool, push: Option<[u32; 6]>, out_ready: bool) -> Option<(bool, Option<[u32; 6]>)> {
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

impl Default for ReadoutFifo {
    fn default() -> Self {
        ReadoutFifo::new()
    }
}

/// One cycle's inputs of the record stage on its own (`hdl::finecomb::record::FcRecord`).
#[derive(Debug, Clone, Copy)]
pub struct RecordStageInputs {
    pub reset: bool,
    /// The op issued in this cycle (kind, bank, index; its words are ignored).
    pub issue: Option<Record>,
    /// At E2: the bucket words of a clear op, and the stash word read for the op.
    pub bucket: Bucket,
    pub stash: StashEntry,
    pub rec_ready: bool,
}

/// The record stage's outputs during one cycle (`None`: undefined, before the first reset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordStageOutputs {
    /// The registers hold defined values (a reset has passed).
    pub defined: bool,
    /// The op at E2 (its kind and bank select the stash word).
    pub e2: Option<Record>,
    /// A record is pushed into the FIFO in this cycle.
    pub push: bool,
    pub rec_valid: Option<bool>,
    pub rec_data: Option<[u32; 6]>,
    pub level: usize,
    pub drops: u32,
}

/// E1 → E2 → record register → FIFO, cycle by cycle (the co-simulation reference of `finecomb_record`).
#[derive(Debug, Clone, Default)]
pub struct RecordStageModel {
    pipe: RecordPipe,
    pub fifo: ReadoutFifo,
    started: bool,
}

impl RecordStageModel {
    /// One cycle: the outputs during it, then the edge.
    pub fn step(&mut self, i: &RecordStageInputs) -> RecordStageOutputs {
        let e2 = self.pipe.at_e2();
        let (level, drops) = (self.fifo.level(), self.fifo.drops());
        let fifo = self.fifo.step(i.reset, self.pipe.pushing().map(|r| r.pack()), i.rec_ready);
        let out = RecordStageOutputs {
            defined: self.started,
            e2,
            push: self.pipe.pushing().is_some(),
            rec_valid: fifo.map(|f| f.0),
            rec_data: fifo.and_then(|f| f.1),
            level,
            drops,
        };
        self.pipe = match i.reset {
            true => RecordPipe::default(),
            false => self.pipe.advance(i.issue, e2.map(|r| r.at_e2(i.bucket, i.stash))),
        };
        self.started |= i.reset;
        out
    }
}
