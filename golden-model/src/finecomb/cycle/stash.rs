//! The stash (§III-D; RTL `hdl::finecomb::stash`): per bank the capture pointers and the ring and post
//! memories, written by sampled packets at D2; a capture is opened by an effective marker and closed by
//! its completion or the next marker's cut.

use super::super::StashEntry;
use super::{FinecombCoreConfig, FinecombCycleModel, Regs, EMPTY, FIELD_MASK, MAX_BANKS};

/// One bank's capture registers.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct BankRegs {
    pub(super) ring_ptr: usize,
    pub(super) ring_full: bool,
    pub(super) pre_ptr: usize,
    pub(super) pre_full: bool,
    pub(super) post_fill: usize,
    pub(super) post_len: usize,
    /// Coverage only (no output depends on it): packets written into the ring since the last effective
    /// marker (saturating), and that count as the last effective marker found it.
    pub(super) stashed: usize,
    pub(super) pre_stashed: usize,
}

/// One bank's stash: the ring memory P and the post memory Q, each 2 regions × 2^SA slots, at
/// `region << SA | slot`.
#[derive(Debug, Clone)]
pub struct StashMemory {
    pub ring: Vec<StashEntry>,
    pub post: Vec<StashEntry>,
}

impl StashMemory {
    /// Both memories of a bank of `core`, zero.
    pub fn new(core: &FinecombCoreConfig) -> StashMemory {
        let slots = 2 << core.stash_slot_bits;
        StashMemory { ring: vec![EMPTY; slots], post: vec![EMPTY; slots] }
    }
}

impl FinecombCycleModel {
    /// Stash address of `slot` in `region`.
    pub(super) fn stash_addr(&self, region: usize, slot: usize) -> usize {
        region << self.core.stash_slot_bits | (slot & ((1 << self.core.stash_slot_bits) - 1))
    }

    /// A packet at D2: into every sampled bank's ring region `par`, and its post region while a capture
    /// is filling and has room.
    pub(super) fn stash_writes(
        &mut self,
        cur: &Regs,
        next: &mut Regs,
        entry: StashEntry,
        sampled: &[bool; MAX_BANKS],
        w: &[usize; MAX_BANKS],
    ) {
        for b in (0..self.core.banks()).filter(|&b| sampled[b] && w[b] > 0) {
            let (r, n) = (cur.banks[b], &mut next.banks[b]);
            let ring_addr = self.stash_addr(cur.par, r.ring_ptr);
            self.stash[b].ring[ring_addr] = entry;
            let wraps = r.ring_ptr + 1 == w[b];
            n.ring_ptr = if wraps { 0 } else { (r.ring_ptr + 1) & FIELD_MASK };
            n.ring_full = r.ring_full || wraps;
            n.stashed = r.stashed.saturating_add(1);
            if cur.filling && r.post_fill < w[b] {
                let post_addr = self.stash_addr(cur.par, r.post_fill);
                self.stash[b].post[post_addr] = entry;
                n.post_fill = r.post_fill + 1;
            }
        }
    }

    /// Closes the open capture: job B becomes pending with every bank's post length as filled so far.
    pub(super) fn close_capture(&self, cur: &Regs, next: &mut Regs) {
        next.b_pending = true;
        next.b_region = cur.par;
        for b in 0..self.core.banks() {
            next.banks[b].post_len = cur.banks[b].post_fill;
        }
    }

    /// Opens a capture at an effective marker: the ring written so far becomes its pre region.
    pub(super) fn open_capture(&self, cur: &Regs, next: &mut Regs) {
        for b in 0..self.core.banks() {
            let (r, n) = (cur.banks[b], &mut next.banks[b]);
            (n.pre_ptr, n.pre_full, n.pre_stashed) = (r.ring_ptr, r.ring_full, r.stashed);
            (n.ring_ptr, n.ring_full, n.post_fill, n.stashed) = (0, false, 0, 0);
        }
    }
}
