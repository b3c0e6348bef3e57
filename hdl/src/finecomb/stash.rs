//! FineComb stash ring (§III-D; `golden::finecomb::cycle`, "D2: a packet", "D2: a marker" and the
//! Pre/Post ops): one bank's capture pointers (`ring_ptr`, `ring_full`, `pre_ptr`, `pre_full`,
//! `post_fill`, `post_len`) and, in a receiver, its ring memory and post memory of two regions each
//! ([`Sram`], one write port for packets at D2, one read port for the readout engine, the read data
//! registered on its own at E2).

use crate::common::bits::{constant, Slice};
use crate::common::reg::Reg;
use crate::common::sram::Sram;
use crate::declare_block;
use golden::common::sram::RamPorts;
use golden::finecomb::cycle::STASH_WORD_BITS;
use rust_hdl::prelude::*;

declare_block! {
    /// One bank's stash (the memories only with `mem`; the pointers always, a core without a stash sees
    /// `w = 0`).
    #[derive(LogicBlock)]
    pub struct FcStash<const SP: usize> fn build(mem: usize) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// The bank's stash depth w.
        pub w: Signal<In, Bits<16>>,
        /// A sampled packet at D2 with its stash word, and the write region.
        pub sampled: Signal<In, bool>,
        pub word: Signal<In, Bits<STASH_WORD_BITS>>,
        pub par: Signal<In, bool>,
        /// Capture control: a post capture is filling; it closes; an effective marker opens the next.
        pub filling: Signal<In, bool>,
        pub close: Signal<In, bool>,
        pub marker: Signal<In, bool>,
        /// The readout engine's reads: region, Pre slot, Post slot.
        pub rd_region: Signal<In, bool>,
        pub rd_pre: Signal<In, Bits<16>>,
        pub rd_post: Signal<In, Bits<16>>,
        pub pre_ptr_o: Signal<Out, Bits<16>>,
        pub pre_full_o: Signal<Out, bool>,
        pub post_len_o: Signal<Out, Bits<16>>,
        /// `post_fill == w`.
        pub full: Signal<Out, bool>,
        /// The read data at E2 (0 without memories).
        pub pre_word: Signal<Out, Bits<STASH_WORD_BITS>>,
        pub post_word: Signal<Out, Bits<STASH_WORD_BITS>>,
        ring_ptr: Reg<Bits<16>>,
        ring_full: Reg<bool>,
        pre_ptr: Reg<Bits<16>>,
        pre_full: Reg<bool>,
        post_fill: Reg<Bits<16>>,
        post_len: Reg<Bits<16>>,
        ring_next: Signal<Local, Bits<16>>,
        sampled_w: Signal<Local, bool>,
        /// Ring regions P[0], P[1] and post regions Q[0], Q[1] (none without a stash).
        ring: Vec<Sram<SP, STASH_WORD_BITS>> = (0..mem).map(|_| Sram::new(RamPorts::Dual, false)).collect(),
        post: Vec<Sram<SP, STASH_WORD_BITS>> = (0..mem).map(|_| Sram::new(RamPorts::Dual, false)).collect(),
        ring_slot: Vec<Slice<16, SP>> = (0..mem).map(|_| Slice::new(0)).collect(),
        post_slot: Vec<Slice<16, SP>> = (0..mem).map(|_| Slice::new(0)).collect(),
        rd_slot_pre: Vec<Slice<16, SP>> = (0..mem).map(|_| Slice::new(0)).collect(),
        rd_slot_post: Vec<Slice<16, SP>> = (0..mem).map(|_| Slice::new(0)).collect(),
        /// Each memory's read data, registered on its own (the bank/kind mux comes after the register:
        /// block-RAM clock-to-out leaves no time for it in the same cycle).
        e2_ring: Vec<Reg<Bits<STASH_WORD_BITS>>> = (0..mem).map(|_| Reg::default()).collect(),
        e2_post: Vec<Reg<Bits<STASH_WORD_BITS>>> = (0..mem).map(|_| Reg::default()).collect(),
        unused_candidates: Signal<Local, bool>,
        zero_16: Constant<Bits<16>> = constant(0),
        one_16: Constant<Bits<16>> = constant(1),
        region_bit: Constant<Bits<SP>> = constant(1 << (SP - 1)),
        slot_mask: Constant<Bits<SP>> = constant((1 << (SP - 1)) - 1),
        zero_stash: Constant<Bits<STASH_WORD_BITS>> = Constant::new(Bits::default()),
        _mem: usize = mem,
    }
}

impl<const SP: usize> FcStash<SP> {
    /// A bank's stash, with memories iff `mem`.
    pub fn new(mem: bool) -> Self {
        Self::build(mem as usize)
    }
}

impl<const SP: usize> Logic for FcStash<SP> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ring_ptr, ring_full, pre_ptr, pre_full, post_fill, post_len);
        // D2: a sampled packet's ring slot, its writes.
        self.sampled_w.next = self.sampled.val() && self.w.val().any();
        if (self.ring_ptr.q.val() + self.one_16.val()) == self.w.val() {
            self.ring_next.next = self.zero_16.val();
        } else {
            self.ring_next.next = self.ring_ptr.q.val() + self.one_16.val();
        }
        for k in 0..self._mem {
            self.ring[k].clock.next = self.clock.val();
            self.ring[k].reset.next = self.reset.val();
            self.post[k].clock.next = self.clock.val();
            self.post[k].reset.next = self.reset.val();
            self.ring_slot[k].din.next = self.ring_ptr.q.val();
            self.post_slot[k].din.next = self.post_fill.q.val();
            self.ring[k].we.next = self.sampled_w.val();
            self.post[k].we.next =
                self.sampled_w.val() && self.filling.val() && (self.post_fill.q.val() < self.w.val());
            self.ring[k].wdata.next = self.word.val();
            self.post[k].wdata.next = self.word.val();
            if self.par.val() {
                self.ring[k].waddr.next = (self.ring_slot[k].out.val() & self.slot_mask.val()) | self.region_bit.val();
                self.post[k].waddr.next = (self.post_slot[k].out.val() & self.slot_mask.val()) | self.region_bit.val();
            } else {
                self.ring[k].waddr.next = self.ring_slot[k].out.val() & self.slot_mask.val();
                self.post[k].waddr.next = self.post_slot[k].out.val() & self.slot_mask.val();
            }
        }
        self.full.next = self.post_fill.q.val() == self.w.val();
        // The open capture closes with the post length so far.
        if self.close.val() {
            self.post_len.d.next = self.post_fill.q.val();
        }
        if self.sampled_w.val() {
            self.ring_ptr.d.next = self.ring_next.val();
            if (self.ring_ptr.q.val() + self.one_16.val()) == self.w.val() {
                self.ring_full.d.next = true;
            }
            if self.filling.val() && (self.post_fill.q.val() < self.w.val()) {
                self.post_fill.d.next = self.post_fill.q.val() + self.one_16.val();
            }
        }
        // A marker opens the next capture (the ring so far becomes its pre region).
        if self.marker.val() {
            self.pre_ptr.d.next = self.ring_ptr.q.val();
            self.pre_full.d.next = self.ring_full.q.val();
            self.ring_ptr.d.next = self.zero_16.val();
            self.ring_full.d.next = false;
            self.post_fill.d.next = self.zero_16.val();
        }
        if self.reset.val() {
            self.ring_ptr.d.next = self.zero_16.val();
            self.ring_full.d.next = false;
            self.post_fill.d.next = self.zero_16.val();
        }
        self.pre_ptr_o.next = self.pre_ptr.q.val();
        self.pre_full_o.next = self.pre_full.q.val();
        self.post_len_o.next = self.post_len.q.val();

        // Reads: pre(m) oldest first out of the ring region, post(m) in order; registered at E2.
        self.pre_word.next = self.zero_stash.val();
        self.post_word.next = self.zero_stash.val();
        for k in 0..self._mem {
            self.rd_slot_pre[k].din.next = self.rd_pre.val();
            self.rd_slot_post[k].din.next = self.rd_post.val();
            if self.rd_region.val() {
                self.ring[k].raddr.next =
                    (self.rd_slot_pre[k].out.val() & self.slot_mask.val()) | self.region_bit.val();
                self.post[k].raddr.next =
                    (self.rd_slot_post[k].out.val() & self.slot_mask.val()) | self.region_bit.val();
            } else {
                self.ring[k].raddr.next = self.rd_slot_pre[k].out.val() & self.slot_mask.val();
                self.post[k].raddr.next = self.rd_slot_post[k].out.val() & self.slot_mask.val();
            }
            self.e2_ring[k].clock.next = self.clock.val();
            self.e2_ring[k].d.next = self.ring[k].rdata.val();
            self.e2_post[k].clock.next = self.clock.val();
            self.e2_post[k].d.next = self.post[k].rdata.val();
            self.pre_word.next = self.e2_ring[k].q.val();
            self.post_word.next = self.e2_post[k].q.val();
        }
        // Parts a core without a stash leaves unread (synthesis removes them).
        self.unused_candidates.next = self.word.val().any()
            || self.par.val()
            || self.rd_region.val()
            || self.rd_pre.val().any()
            || self.rd_post.val().any()
            || (self.slot_mask.val() | self.region_bit.val()).any();
        for k in 0..self._mem {
            self.unused_candidates.next = self.unused_candidates.val() || self.ring[k].busy.val() || self.post[k].busy.val();
        }
    }
}
