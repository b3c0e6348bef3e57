//! Report FIFO (`ReportFifo<A, W, L>`): 2^A entries of W bits, never stalls the writer.
//!
//! Push side has no ready: a push into a full FIFO (unless the head leaves in the same cycle) is dropped
//! and counted in `drops` (wrapping 32-bit). Pop side is first-word-fall-through valid/ready. Storage is
//! the shared [`Sram`] (dual-port, no sweep: stale words are never shown); its registered read is
//! re-issued every cycle at the next head address, and a write to that very address in the same cycle is
//! caught by a one-word bypass register. `level` (L = A+1 bits) is the number of entries. "Not empty" and
//! "full" are flip-flops kept beside the count (not decoded from it), so the pop and push decisions, and
//! the RAM write enable that fans out to every block or LUT RAM cell, are one LUT from registers.
//! Model: `golden::common::fifo`.

use super::reg::Reg;
use super::sram::Sram;
use golden::common::sram::RamPorts;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ReportFifo<const A: usize, const W: usize, const L: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub in_valid: Signal<In, bool>,
    pub in_data: Signal<In, Bits<W>>,
    pub out_valid: Signal<Out, bool>,
    pub out_data: Signal<Out, Bits<W>>,
    pub out_ready: Signal<In, bool>,
    pub level: Signal<Out, Bits<L>>,
    pub drops: Signal<Out, Bits<32>>,
    ram: Sram<A, W>,
    wr_ptr: Reg<Bits<A>>,
    rd_ptr: Reg<Bits<A>>,
    count: Reg<Bits<L>>,
    drop_count: Reg<Bits<32>>,
    byp_sel: Reg<bool>,
    byp_data: Reg<Bits<W>>,
    /// `count ≠ 0` and `count = 2^A`, registered.
    nonempty: Reg<bool>,
    full: Reg<bool>,
    pop: Signal<Local, bool>,
    accept: Signal<Local, bool>,
    head_next: Signal<Local, Bits<A>>,
    depth_less_one: Constant<Bits<L>>,
    one_a: Constant<Bits<A>>,
    zero_a: Constant<Bits<A>>,
    one_l: Constant<Bits<L>>,
    zero_l: Constant<Bits<L>>,
    zero_32: Constant<Bits<32>>,
    one_32: Constant<Bits<32>>,
}

impl<const A: usize, const W: usize, const L: usize> Default for ReportFifo<A, W, L> {
    fn default() -> Self {
        assert_eq!(L, A + 1, "ReportFifo<A, W, L>: L must be A + 1");
        ReportFifo {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_data: Default::default(),
            out_valid: Default::default(),
            out_data: Default::default(),
            out_ready: Default::default(),
            level: Default::default(),
            drops: Default::default(),
            ram: Sram::new(RamPorts::Dual, false),
            wr_ptr: Default::default(),
            rd_ptr: Default::default(),
            count: Default::default(),
            drop_count: Default::default(),
            byp_sel: Default::default(),
            byp_data: Default::default(),
            nonempty: Default::default(),
            full: Default::default(),
            pop: Default::default(),
            accept: Default::default(),
            head_next: Default::default(),
            depth_less_one: Constant::new(Bits::from((1u64 << A) - 1)),
            one_a: Constant::new(Bits::from(1u64)),
            zero_a: Constant::new(Bits::from(0u64)),
            one_l: Constant::new(Bits::from(1u64)),
            zero_l: Constant::new(Bits::from(0u64)),
            zero_32: Constant::new(Bits::from(0u64)),
            one_32: Constant::new(Bits::from(1u64)),
        }
    }
}

impl<const A: usize, const W: usize, const L: usize> Logic for ReportFifo<A, W, L> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr_ptr, rd_ptr, count, drop_count, byp_sel, byp_data, nonempty, full);
        clock!(self, clock, ram);
        self.ram.reset.next = self.reset.val();
        self.out_valid.next = self.nonempty.q.val();
        self.level.next = self.count.q.val();
        self.drops.next = self.drop_count.q.val();
        self.pop.next = self.out_ready.val() && self.nonempty.q.val();
        self.accept.next = self.in_valid.val() && !self.ram.busy.val() && (!self.full.q.val() || self.pop.val());
        if self.pop.val() {
            self.head_next.next = self.rd_ptr.q.val() + self.one_a.val();
        } else {
            self.head_next.next = self.rd_ptr.q.val();
        }
        self.ram.raddr.next = self.head_next.val();
        self.ram.we.next = self.accept.val();
        self.ram.waddr.next = self.wr_ptr.q.val();
        self.ram.wdata.next = self.in_data.val();
        if self.byp_sel.q.val() {
            self.out_data.next = self.byp_data.q.val();
        } else {
            self.out_data.next = self.ram.rdata.val();
        }
        self.byp_data.d.next = self.in_data.val();
        if self.reset.val() {
            self.wr_ptr.d.next = self.zero_a.val();
            self.rd_ptr.d.next = self.zero_a.val();
            self.count.d.next = self.zero_l.val();
            self.drop_count.d.next = self.zero_32.val();
            self.byp_sel.d.next = false;
            self.nonempty.d.next = false;
            self.full.d.next = false;
        } else {
            self.byp_sel.d.next = self.accept.val() && (self.wr_ptr.q.val() == self.head_next.val());
            self.rd_ptr.d.next = self.head_next.val();
            if self.accept.val() {
                self.wr_ptr.d.next = self.wr_ptr.q.val() + self.one_a.val();
            }
            if self.accept.val() && !self.pop.val() {
                self.count.d.next = self.count.q.val() + self.one_l.val();
                self.nonempty.d.next = true;
                self.full.d.next = self.count.q.val() == self.depth_less_one.val();
            }
            if self.pop.val() && !self.accept.val() {
                self.count.d.next = self.count.q.val() - self.one_l.val();
                self.nonempty.d.next = self.count.q.val() != self.one_l.val();
                self.full.d.next = false;
            }
            if self.in_valid.val() && !self.accept.val() {
                self.drop_count.d.next = self.drop_count.q.val() + self.one_32.val();
            }
        }
    }
}
