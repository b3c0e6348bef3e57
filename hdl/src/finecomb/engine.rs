//! FineComb readout engine (`golden::finecomb::cycle`, "Captures and the readout engine"): starts job A
//! (walk, pre(m), DoneA) or job B (post(m), DoneB) and issues at most one op per cycle while the record
//! FIFO has room for everything in flight.

use crate::common::bits::{constant, consts, Slice};
use crate::common::reg::Reg;
use crate::declare_block;
use golden::finecomb::cycle::{RecordKind, FIFO_BITS, IN_FLIGHT};
use rust_hdl::prelude::*;

/// Engine phases: none, or the kind of record the phase's ops produce, plus one (so the record kind is
/// `phase − 1`).
const PH_NONE: u64 = 0;
const PH_WALK: u64 = RecordKind::Bucket as u64 + 1;
const PH_PRE: u64 = RecordKind::Pre as u64 + 1;
const PH_POST: u64 = RecordKind::Post as u64 + 1;
const PH_DONE_A: u64 = RecordKind::DoneA as u64 + 1;
const PH_DONE_B: u64 = RecordKind::DoneB as u64 + 1;

declare_block! {
    /// The engine of `n` banks (per-bank inputs are vectors of `n`).
    #[derive(LogicBlock)]
    pub struct FcEngine<const IA: usize> fn build(n: usize, has_stash: bool) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// Capture control: queued job A (walk?, flags), pending job B (region), the sets and regions.
        pub a_queued: Signal<In, bool>,
        pub a_walk: Signal<In, bool>,
        pub a_flags: Signal<In, Bits<16>>,
        pub b_pending: Signal<In, bool>,
        pub b_region: Signal<In, bool>,
        pub active: Signal<In, bool>,
        pub par: Signal<In, bool>,
        /// The record FIFO's level.
        pub level: Signal<In, Bits<{ FIFO_BITS + 1 }>>,
        /// Per bank: M_b, w_b, and the stash pointers of the capture being read.
        pub m: Vec<Signal<In, Bits<16>>> = (0..n).map(|_| Default::default()).collect(),
        pub w: Vec<Signal<In, Bits<16>>> = (0..n).map(|_| Default::default()).collect(),
        pub pre_full: Vec<Signal<In, bool>> = (0..n).map(|_| Default::default()).collect(),
        pub pre_ptr: Vec<Signal<In, Bits<16>>> = (0..n).map(|_| Default::default()).collect(),
        pub post_len: Vec<Signal<In, Bits<16>>> = (0..n).map(|_| Default::default()).collect(),
        /// No job running, none queued, none pending.
        pub idle: Signal<Out, bool>,
        /// A phase of job A runs.
        pub job_a: Signal<Out, bool>,
        /// A job starts this cycle (capture control clears its `a_queued` / `b_pending`).
        pub start_a: Signal<Out, bool>,
        pub start_b: Signal<Out, bool>,
        /// An op issues this cycle: its kind, bank, index; a walk op's set and bucket.
        pub issue: Signal<Out, bool>,
        pub walk: Signal<Out, bool>,
        pub op_kind: Signal<Out, Bits<3>>,
        pub op_bank: Signal<Out, Bits<3>>,
        pub op_index: Signal<Out, Bits<16>>,
        pub walk_set: Signal<Out, bool>,
        pub walk_bucket: Signal<Out, Bits<IA>>,
        /// The stash reads: region, Pre slot, Post slot.
        pub rd_region: Signal<Out, bool>,
        pub rd_pre: Signal<Out, Bits<16>>,
        pub rd_post: Signal<Out, Bits<16>>,
        phase: Reg<Bits<3>>,
        job_bank: Reg<Bits<3>>,
        job_addr: Reg<Bits<16>>,
        job_set: Reg<bool>,
        job_region: Reg<bool>,
        /// The slot the next Pre op reads (kept incrementally: no adder in front of the stash RAM address).
        pre_slot: Reg<Bits<16>>,
        /// `job_addr + 1`, kept as a register (the next address is this register: no adder before the compares).
        job_addr_p1: Reg<Bits<16>>,
        /// `job_addr < len` of the current phase and bank, registered (`golden::finecomb::cycle`: evaluated
        /// when phase, bank or address move, held otherwise), so the issue decision reads a flip-flop.
        more: Reg<bool>,
        /// Its next value after an issue: `job_addr + 1 < len` against every candidate length.
        more_inc: Signal<Local, bool>,
        /// Per bank, Pre's `job_addr + 1 < len`, and the current phase's `job_addr + 1 < len` and `len ≠ 0`.
        lt_pre: Vec<Signal<Local, bool>> = (0..n).map(|_| Default::default()).collect(),
        lt_len: Vec<Signal<Local, bool>> = (0..n).map(|_| Default::default()).collect(),
        nz_len: Vec<Signal<Local, bool>> = (0..n).map(|_| Default::default()).collect(),
        /// Its next value at address 0 of a bank: every candidate length is not zero.
        nz_m: Vec<Signal<Local, bool>> = (0..n).map(|_| Default::default()).collect(),
        nz_pre: Vec<Signal<Local, bool>> = (0..n).map(|_| Default::default()).collect(),
        nz_post: Vec<Signal<Local, bool>> = (0..n).map(|_| Default::default()).collect(),
        /// `len ≠ 0` of the current phase at the next bank.
        more_next_bank: Signal<Local, bool>,
        room: Signal<Local, bool>,
        last_bank: Signal<Local, bool>,
        pre_start0: Signal<Local, Bits<16>>,
        pre_start_next: Signal<Local, Bits<16>>,
        next_bank: Signal<Local, Bits<3>>,
        w_cur: Signal<Local, Bits<16>>,
        walk_index: Slice<16, IA> = Slice::new(0),
        has_stash: Constant<bool> = Constant::new(has_stash),
        bank_ids: Vec<Constant<Bits<3>>> = consts(0..n as u64),
        last_bank_id: Constant<Bits<3>> = constant(n as u64 - 1),
        ph_none: Constant<Bits<3>> = constant(PH_NONE),
        ph_walk: Constant<Bits<3>> = constant(PH_WALK),
        ph_pre: Constant<Bits<3>> = constant(PH_PRE),
        ph_post: Constant<Bits<3>> = constant(PH_POST),
        ph_done_a: Constant<Bits<3>> = constant(PH_DONE_A),
        ph_done_b: Constant<Bits<3>> = constant(PH_DONE_B),
        one_3: Constant<Bits<3>> = constant(1),
        zero_3: Constant<Bits<3>> = constant(0),
        zero_16: Constant<Bits<16>> = constant(0),
        one_16: Constant<Bits<16>> = constant(1),
        room_level: Constant<Bits<{ FIFO_BITS + 1 }>> = constant(((1 << FIFO_BITS) - IN_FLIGHT) as u64),
        _n: usize = n,
    }
}

impl<const IA: usize> FcEngine<IA> {
    pub fn new(n: usize, has_stash: bool) -> Self {
        Self::build(n, has_stash)
    }
}

impl<const IA: usize> Logic for FcEngine<IA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, phase, job_bank, job_addr, job_addr_p1, more, job_set, job_region, pre_slot);
        self.idle.next =
            (self.phase.q.val() == self.ph_none.val()) && !self.a_queued.val() && !self.b_pending.val();
        self.job_a.next = (self.phase.q.val() == self.ph_walk.val())
            || (self.phase.q.val() == self.ph_pre.val())
            || (self.phase.q.val() == self.ph_done_a.val());
        self.start_b.next = (self.phase.q.val() == self.ph_none.val()) && self.b_pending.val();
        self.start_a.next =
            (self.phase.q.val() == self.ph_none.val()) && !self.b_pending.val() && self.a_queued.val();

        // Start a job, or issue one op of the current phase.
        self.room.next = self.level.val() <= self.room_level.val();
        // The candidates of `more`'s next value, from registers only: after an issue, `job_addr + 1 < len`;
        // at address 0 of the next bank, `len ≠ 0`.
        self.more_inc.next = false;
        self.more_next_bank.next = true;
        // Pre ops read from `pre_slot`: bank b's oldest entry first (`pre_full_b ? pre_ptr_b : 0`), then on
        // with a wrap at w_b; its start for the next bank is prepared beside the current one.
        self.w_cur.next = self.zero_16.val();
        self.pre_start_next.next = self.zero_16.val();
        self.next_bank.next = self.job_bank.q.val() + self.one_3.val();
        self.pre_start0.next = self.zero_16.val();
        if self.pre_full[0].val() {
            self.pre_start0.next = self.pre_ptr[0].val();
        }
        for b in 0..self._n {
            self.nz_m[b].next = self.m[b].val().any();
            self.nz_post[b].next = self.post_len[b].val().any();
            // Pre's length is `pre_full_b ? w_b : pre_ptr_b`.
            if self.pre_full[b].val() {
                self.lt_pre[b].next = self.job_addr_p1.q.val() < self.w[b].val();
                self.nz_pre[b].next = self.w[b].val().any();
            } else {
                self.lt_pre[b].next = self.job_addr_p1.q.val() < self.pre_ptr[b].val();
                self.nz_pre[b].next = self.pre_ptr[b].val().any();
            }
            // DoneA/DoneB have length 1: `job_addr + 1 < 1` is false, `1 ≠ 0`.
            self.lt_len[b].next = false;
            self.nz_len[b].next = true;
            if self.phase.q.val() == self.ph_walk.val() {
                self.lt_len[b].next = self.job_addr_p1.q.val() < self.m[b].val();
                self.nz_len[b].next = self.nz_m[b].val();
            }
            if self.phase.q.val() == self.ph_pre.val() {
                self.lt_len[b].next = self.lt_pre[b].val();
                self.nz_len[b].next = self.nz_pre[b].val();
            }
            if self.phase.q.val() == self.ph_post.val() {
                self.lt_len[b].next = self.job_addr_p1.q.val() < self.post_len[b].val();
                self.nz_len[b].next = self.nz_post[b].val();
            }
            if self.next_bank.val() == self.bank_ids[b].val() {
                self.more_next_bank.next = self.nz_len[b].val();
                if self.pre_full[b].val() {
                    self.pre_start_next.next = self.pre_ptr[b].val();
                }
            }
            if self.job_bank.q.val() == self.bank_ids[b].val() {
                self.more_inc.next = self.lt_len[b].val();
                self.w_cur.next = self.w[b].val();
            }
        }
        self.last_bank.next = self.job_bank.q.val() == self.last_bank_id.val();
        self.issue.next = (self.phase.q.val() != self.ph_none.val())
            && self.more.q.val()
            && self.room.val()
            && !self.reset.val();
        if self.phase.q.val() == self.ph_done_a.val() {
            self.op_index.next = self.a_flags.val();
        } else {
            self.op_index.next = self.job_addr.q.val();
        }
        if self.phase.q.val() == self.ph_none.val() {
            if self.b_pending.val() {
                self.job_region.d.next = self.b_region.val();
                self.job_bank.d.next = self.zero_3.val();
                self.job_addr.d.next = self.zero_16.val();
                self.job_addr_p1.d.next = self.one_16.val();
                if self.has_stash.val() {
                    self.phase.d.next = self.ph_post.val();
                    self.more.d.next = self.nz_post[0].val();
                } else {
                    self.phase.d.next = self.ph_done_b.val();
                    self.more.d.next = true;
                }
            } else if self.a_queued.val() {
                self.job_set.d.next = !self.active.val();
                self.job_region.d.next = !self.par.val();
                self.job_bank.d.next = self.zero_3.val();
                self.job_addr.d.next = self.zero_16.val();
                self.job_addr_p1.d.next = self.one_16.val();
                self.pre_slot.d.next = self.pre_start0.val();
                if self.a_walk.val() {
                    self.phase.d.next = self.ph_walk.val();
                    self.more.d.next = self.nz_m[0].val();
                } else if self.has_stash.val() {
                    self.phase.d.next = self.ph_pre.val();
                    self.more.d.next = self.nz_pre[0].val();
                } else {
                    self.phase.d.next = self.ph_done_a.val();
                    self.more.d.next = true;
                }
            }
        } else if self.more.q.val() {
            if self.room.val() {
                self.job_addr.d.next = self.job_addr_p1.q.val();
                self.job_addr_p1.d.next = self.job_addr_p1.q.val() + self.one_16.val();
                self.more.d.next = self.more_inc.val();
                if self.phase.q.val() == self.ph_pre.val() {
                    if (self.pre_slot.q.val() + self.one_16.val()) == self.w_cur.val() {
                        self.pre_slot.d.next = self.zero_16.val();
                    } else {
                        self.pre_slot.d.next = self.pre_slot.q.val() + self.one_16.val();
                    }
                }
            }
        } else if (self.phase.q.val() == self.ph_done_a.val()) || (self.phase.q.val() == self.ph_done_b.val()) {
            self.phase.d.next = self.ph_none.val();
        } else {
            self.job_addr.d.next = self.zero_16.val();
            self.job_addr_p1.d.next = self.one_16.val();
            if self.last_bank.val() {
                self.pre_slot.d.next = self.pre_start0.val();
                self.job_bank.d.next = self.zero_3.val();
                self.more.d.next = true;
                if self.phase.q.val() == self.ph_post.val() {
                    self.phase.d.next = self.ph_done_b.val();
                } else if (self.phase.q.val() == self.ph_walk.val()) && self.has_stash.val() {
                    self.phase.d.next = self.ph_pre.val();
                    self.more.d.next = self.nz_pre[0].val();
                } else {
                    self.phase.d.next = self.ph_done_a.val();
                }
            } else {
                self.pre_slot.d.next = self.pre_start_next.val();
                self.job_bank.d.next = self.next_bank.val();
                self.more.d.next = self.more_next_bank.val();
            }
        }
        if self.reset.val() {
            self.phase.d.next = self.ph_none.val();
        }

        // The op: its kind is `phase − 1`.
        self.walk.next = self.issue.val() && (self.phase.q.val() == self.ph_walk.val());
        self.op_kind.next = self.phase.q.val() - self.one_3.val();
        self.op_bank.next = self.job_bank.q.val();
        self.walk_set.next = self.job_set.q.val();
        self.walk_index.din.next = self.job_addr.q.val();
        self.walk_bucket.next = self.walk_index.out.val();
        self.rd_region.next = self.job_region.q.val();
        self.rd_pre.next = self.pre_slot.q.val();
        self.rd_post.next = self.job_addr.q.val();
    }
}
