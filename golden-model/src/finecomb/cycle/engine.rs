//! The readout engine (RTL `hdl::finecomb::engine`): starts job A or job B and issues at most one op
//! per cycle.

use super::super::StashEntry;
use super::{FinecombCycleModel, Record, RecordKind, Regs, EMPTY};

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
    pub(super) fn of_job_a(self) -> bool {
        matches!(self, Phase::Walk | Phase::Pre | Phase::DoneA)
    }
}

/// Readout engine registers.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Engine {
    pub(super) phase: Phase,
    pub(super) bank: usize,
    pub(super) addr: usize,
    /// The bucket set the walk reads.
    pub(super) set: usize,
    /// The stash region Pre/Post read.
    pub(super) region: usize,
    /// `addr < len` of this phase and bank, registered: evaluated (with the lengths of that cycle) in
    /// the cycle that moved `phase`, `bank` or `addr` to their current values, and held while they hold.
    pub(super) more: bool,
}

impl FinecombCycleModel {
    /// The readout engine in one cycle: starts a job or issues at most one op (returned as its record,
    /// stash data read at issue) from the registers `cur`, writing its registers' next values into `next`.
    pub(super) fn engine(&self, cur: &Regs, next: &mut Regs, m: &[usize], w: &[usize], room: bool) -> Option<Record> {
        let record = self.engine_step(cur, next, w, room);
        let (e, n) = (cur.engine, next.engine);
        next.engine.more = if (n.phase, n.bank, n.addr) == (e.phase, e.bank, e.addr) {
            e.more
        } else {
            n.addr < self.len(cur, m, w, n.phase, n.bank)
        };
        record
    }

    /// The number of ops of `phase` at bank `b` (module docs), from this cycle's registers and lengths.
    fn len(&self, cur: &Regs, m: &[usize], w: &[usize], phase: Phase, b: usize) -> usize {
        let regs = &cur.banks[b];
        match phase {
            Phase::Walk => m[b],
            Phase::Pre if regs.pre_full => w[b],
            Phase::Pre => regs.pre_ptr,
            Phase::Post => regs.post_len,
            _ => 1,
        }
    }

    fn engine_step(&self, cur: &Regs, next: &mut Regs, w: &[usize], room: bool) -> Option<Record> {
        let e = cur.engine;
        let stash = self.core.has_stash();
        if e.phase == Phase::Idle {
            if cur.b_pending {
                next.b_pending = false;
                let phase = if stash { Phase::Post } else { Phase::DoneB };
                next.engine = Engine { phase, bank: 0, addr: 0, set: e.set, region: cur.b_region, more: false };
            } else if cur.a_queued {
                next.a_queued = false;
                let phase = match (cur.a_walk, stash) {
                    (true, _) => Phase::Walk,
                    (false, true) => Phase::Pre,
                    (false, false) => Phase::DoneA,
                };
                next.engine = Engine { phase, bank: 0, addr: 0, set: cur.active ^ 1, region: cur.par ^ 1, more: false };
            }
            return None;
        }
        let (b, regs) = (e.bank, &cur.banks[e.bank]);
        if e.more {
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
}
