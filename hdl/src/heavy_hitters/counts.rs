//! The heavy-hitter decision's count compares at the look-ahead stage SL ([`super::decide`] registers them
//! into SM; specification `golden::heavy_hitters::table::decide`): every compare runs between flip-flop
//! words and the candidate is chosen after it. Combinational.
//!
//! Each row's bucket at SL has two candidates ([`super::decide`]'s *early* and *near* words) and each of
//! those has two values:
//!
//! - the early count is the bank's `pre_early` count (`e`, the two banks' registers chosen by a register:
//!   one LUT after flip-flops) or, where the op two ahead wrote the row (`n2` bit i, the bank's
//!   `pre_near2`), that op's count (`x`: a packet's new count, a walk op's 0; [`super::decide`]'s register);
//! - the near count, the one the packet directly ahead (now at SM) writes into the row, is that packet's
//!   increment of its own early (`n0` = its `inc_e`) or near (`n1` = its `inc_n`) candidate — registers —
//!   chosen by SM's `near` bit i in this cycle; 0 when the op ahead is not a packet (`ahead` low).
//!
//! Per row: `count < T` (`lt_e`, `lt_n`; the admission mutant `≤`), the early count empty (`empty_e`), the
//! saturating increment of each candidate (`inc_e`, `inc_n`); per pair of rows the order `<` (the ties
//! mutant `≤`) of every pair of candidates (`rel_xy[i]` bit j: row i's x below row j's y; x, y: e early, n
//! near). With the values chosen before the compares, SM's choice of the near count and the bank's choice of
//! the early count were in front of the 32-bit carry chains (d2: 107 MHz).
//!
//! The op two ahead writes one row at most (a packet's pick, a walk op's row), so no two rows both take `x`:
//! that pair's early/early order is not computed (it would read as `x` of row i against `e` of row j).

use super::Mutant;
use crate::common::bits::{constant, consts, ZeroExt};
use crate::declare_block;
use golden::heavy_hitters::admission::THRESHOLD_BITS;
use rust_hdl::prelude::*;

/// `n` signals of one type.
fn sigs<T: Synth, D: Direction>(n: usize) -> Vec<Signal<D, T>> {
    (0..n).map(|_| Default::default()).collect()
}

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct HhCounts<const C: usize, const D: usize>
    fn build(mutant: Mutant) {
        /// Per row: the early values `e` and `x`, the near values `n0` and `n1`.
        pub early: Vec<Signal<In, Bits<C>>> = sigs(D),
        pub x2: Vec<Signal<In, Bits<C>>> = sigs(D),
        pub n0: Vec<Signal<In, Bits<C>>> = sigs(D),
        pub n1: Vec<Signal<In, Bits<C>>> = sigs(D),
        /// The early count is `x` (bit i); the near count is `n1` (bit i; else `n0`); the op ahead is a packet.
        pub n2: Signal<In, Bits<D>>,
        pub near: Signal<In, Bits<D>>,
        pub ahead: Signal<In, bool>,
        pub threshold: Signal<In, Bits<THRESHOLD_BITS>>,
        pub lt_e: Signal<Out, Bits<D>>,
        pub lt_n: Signal<Out, Bits<D>>,
        pub empty_e: Signal<Out, Bits<D>>,
        pub inc_e: Vec<Signal<Out, Bits<C>>> = sigs(D),
        pub inc_n: Vec<Signal<Out, Bits<C>>> = sigs(D),
        pub rel_ee: Vec<Signal<Out, Bits<D>>> = sigs(D),
        pub rel_en: Vec<Signal<Out, Bits<D>>> = sigs(D),
        pub rel_ne: Vec<Signal<Out, Bits<D>>> = sigs(D),
        pub rel_nn: Vec<Signal<Out, Bits<D>>> = sigs(D),
        zx_e: Vec<ZeroExt<C, THRESHOLD_BITS>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_x: Vec<ZeroExt<C, THRESHOLD_BITS>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_n0: Vec<ZeroExt<C, THRESHOLD_BITS>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_n1: Vec<ZeroExt<C, THRESHOLD_BITS>> = (0..D).map(|_| ZeroExt::default()).collect(),
        /// Per value: below T; the saturating increment.
        lt_ev: Signal<Local, Bits<D>>,
        lt_xv: Signal<Local, Bits<D>>,
        lt_n0: Signal<Local, Bits<D>>,
        lt_n1: Signal<Local, Bits<D>>,
        inc_ev: Vec<Signal<Local, Bits<C>>> = sigs(D),
        inc_xv: Vec<Signal<Local, Bits<C>>> = sigs(D),
        inc_n0: Vec<Signal<Local, Bits<C>>> = sigs(D),
        inc_n1: Vec<Signal<Local, Bits<C>>> = sigs(D),
        /// Per pair of values, `o_ab[i]` bit j: row i's value a below row j's value b.
        o_ee: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_xe: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_ex: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_e0: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_e1: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_x0: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_x1: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_0e: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_1e: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_0x: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_1x: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_00: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_01: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_10: Vec<Signal<Local, Bits<D>>> = sigs(D),
        o_11: Vec<Signal<Local, Bits<D>>> = sigs(D),
        /// The early count not empty, per row (0 below it: the order of a walk op's cleared near word).
        nz_e: Signal<Local, Bits<D>>,
        row_bits: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| 1u64 << i)),
        count_max: Constant<Bits<C>> = constant((1u64 << C) - 1),
        zero_c: Constant<Bits<C>> = constant(0),
        one_c: Constant<Bits<C>> = constant(1),
        zero_d: Constant<Bits<D>> = constant(0),
        zero_t: Constant<Bits<THRESHOLD_BITS>> = constant(0),
        /// Test-only mutants (false in every production build, folded away): admission at `count ≤ T`,
        /// minimum ties to the highest row.
        mut_admit_le: Constant<bool> = Constant::new(mutant == Mutant::AdmitLe),
        mut_ties_high: Constant<bool> = Constant::new(mutant == Mutant::TiesHigh),
        _d: usize = D,
    }
}

impl<const C: usize, const D: usize> Logic for HhCounts<C, D> {
    #[hdl_gen]
    fn update(&mut self) {
        // Per value: below T, the saturating increment.
        self.lt_ev.next = self.zero_d.val();
        self.lt_xv.next = self.zero_d.val();
        self.lt_n0.next = self.zero_d.val();
        self.lt_n1.next = self.zero_d.val();
        self.nz_e.next = self.zero_d.val();
        for i in 0..self._d {
            self.zx_e[i].din.next = self.early[i].val();
            self.zx_x[i].din.next = self.x2[i].val();
            self.zx_n0[i].din.next = self.n0[i].val();
            self.zx_n1[i].din.next = self.n1[i].val();
            if (self.zx_e[i].out.val() < self.threshold.val())
                || (self.mut_admit_le.val() && (self.zx_e[i].out.val() == self.threshold.val()))
            {
                self.lt_ev.next = self.lt_ev.val() | self.row_bits[i].val();
            }
            if (self.zx_x[i].out.val() < self.threshold.val())
                || (self.mut_admit_le.val() && (self.zx_x[i].out.val() == self.threshold.val()))
            {
                self.lt_xv.next = self.lt_xv.val() | self.row_bits[i].val();
            }
            if (self.zx_n0[i].out.val() < self.threshold.val())
                || (self.mut_admit_le.val() && (self.zx_n0[i].out.val() == self.threshold.val()))
            {
                self.lt_n0.next = self.lt_n0.val() | self.row_bits[i].val();
            }
            if (self.zx_n1[i].out.val() < self.threshold.val())
                || (self.mut_admit_le.val() && (self.zx_n1[i].out.val() == self.threshold.val()))
            {
                self.lt_n1.next = self.lt_n1.val() | self.row_bits[i].val();
            }
            if self.early[i].val() != self.zero_c.val() {
                self.nz_e.next = self.nz_e.val() | self.row_bits[i].val();
            }
            if self.early[i].val() == self.count_max.val() {
                self.inc_ev[i].next = self.early[i].val();
            } else {
                self.inc_ev[i].next = self.early[i].val() + self.one_c.val();
            }
            if self.x2[i].val() == self.count_max.val() {
                self.inc_xv[i].next = self.x2[i].val();
            } else {
                self.inc_xv[i].next = self.x2[i].val() + self.one_c.val();
            }
            if self.n0[i].val() == self.count_max.val() {
                self.inc_n0[i].next = self.n0[i].val();
            } else {
                self.inc_n0[i].next = self.n0[i].val() + self.one_c.val();
            }
            if self.n1[i].val() == self.count_max.val() {
                self.inc_n1[i].next = self.n1[i].val();
            } else {
                self.inc_n1[i].next = self.n1[i].val() + self.one_c.val();
            }
        }
        // Per row, the candidates chosen after the compares and adders.
        self.lt_e.next = (self.lt_ev.val() & !self.n2.val()) | (self.lt_xv.val() & self.n2.val());
        self.lt_n.next = (self.lt_n0.val() & !self.near.val()) | (self.lt_n1.val() & self.near.val());
        if !self.ahead.val() {
            // 0 < T.
            if (self.threshold.val() != self.zero_t.val()) || self.mut_admit_le.val() {
                self.lt_n.next = !self.zero_d.val();
            } else {
                self.lt_n.next = self.zero_d.val();
            }
        }
        self.empty_e.next = !self.nz_e.val() & !self.n2.val();
        for i in 0..self._d {
            if (self.n2.val() & self.row_bits[i].val()).any() {
                if self.x2[i].val() == self.zero_c.val() {
                    self.empty_e.next = self.empty_e.val() | self.row_bits[i].val();
                }
                self.inc_e[i].next = self.inc_xv[i].val();
            } else {
                self.inc_e[i].next = self.inc_ev[i].val();
            }
            if !self.ahead.val() {
                self.inc_n[i].next = self.one_c.val();
            } else if (self.near.val() & self.row_bits[i].val()).any() {
                self.inc_n[i].next = self.inc_n1[i].val();
            } else {
                self.inc_n[i].next = self.inc_n0[i].val();
            }
        }
        // The pairwise orders of every pair of values.
        for i in 0..self._d {
            self.o_ee[i].next = self.zero_d.val();
            self.o_xe[i].next = self.zero_d.val();
            self.o_ex[i].next = self.zero_d.val();
            self.o_e0[i].next = self.zero_d.val();
            self.o_e1[i].next = self.zero_d.val();
            self.o_x0[i].next = self.zero_d.val();
            self.o_x1[i].next = self.zero_d.val();
            self.o_0e[i].next = self.zero_d.val();
            self.o_1e[i].next = self.zero_d.val();
            self.o_0x[i].next = self.zero_d.val();
            self.o_1x[i].next = self.zero_d.val();
            self.o_00[i].next = self.zero_d.val();
            self.o_01[i].next = self.zero_d.val();
            self.o_10[i].next = self.zero_d.val();
            self.o_11[i].next = self.zero_d.val();
            for j in 0..self._d {
                if (self.early[i].val() < self.early[j].val())
                    || (self.mut_ties_high.val() && (self.early[i].val() == self.early[j].val()))
                {
                    self.o_ee[i].next = self.o_ee[i].val() | self.row_bits[j].val();
                }
                if (self.x2[i].val() < self.early[j].val())
                    || (self.mut_ties_high.val() && (self.x2[i].val() == self.early[j].val()))
                {
                    self.o_xe[i].next = self.o_xe[i].val() | self.row_bits[j].val();
                }
                if (self.early[i].val() < self.x2[j].val())
                    || (self.mut_ties_high.val() && (self.early[i].val() == self.x2[j].val()))
                {
                    self.o_ex[i].next = self.o_ex[i].val() | self.row_bits[j].val();
                }
                if (self.early[i].val() < self.n0[j].val())
                    || (self.mut_ties_high.val() && (self.early[i].val() == self.n0[j].val()))
                {
                    self.o_e0[i].next = self.o_e0[i].val() | self.row_bits[j].val();
                }
                if (self.early[i].val() < self.n1[j].val())
                    || (self.mut_ties_high.val() && (self.early[i].val() == self.n1[j].val()))
                {
                    self.o_e1[i].next = self.o_e1[i].val() | self.row_bits[j].val();
                }
                if (self.x2[i].val() < self.n0[j].val())
                    || (self.mut_ties_high.val() && (self.x2[i].val() == self.n0[j].val()))
                {
                    self.o_x0[i].next = self.o_x0[i].val() | self.row_bits[j].val();
                }
                if (self.x2[i].val() < self.n1[j].val())
                    || (self.mut_ties_high.val() && (self.x2[i].val() == self.n1[j].val()))
                {
                    self.o_x1[i].next = self.o_x1[i].val() | self.row_bits[j].val();
                }
                if (self.n0[i].val() < self.early[j].val())
                    || (self.mut_ties_high.val() && (self.n0[i].val() == self.early[j].val()))
                {
                    self.o_0e[i].next = self.o_0e[i].val() | self.row_bits[j].val();
                }
                if (self.n1[i].val() < self.early[j].val())
                    || (self.mut_ties_high.val() && (self.n1[i].val() == self.early[j].val()))
                {
                    self.o_1e[i].next = self.o_1e[i].val() | self.row_bits[j].val();
                }
                if (self.n0[i].val() < self.x2[j].val())
                    || (self.mut_ties_high.val() && (self.n0[i].val() == self.x2[j].val()))
                {
                    self.o_0x[i].next = self.o_0x[i].val() | self.row_bits[j].val();
                }
                if (self.n1[i].val() < self.x2[j].val())
                    || (self.mut_ties_high.val() && (self.n1[i].val() == self.x2[j].val()))
                {
                    self.o_1x[i].next = self.o_1x[i].val() | self.row_bits[j].val();
                }
                if (self.n0[i].val() < self.n0[j].val())
                    || (self.mut_ties_high.val() && (self.n0[i].val() == self.n0[j].val()))
                {
                    self.o_00[i].next = self.o_00[i].val() | self.row_bits[j].val();
                }
                if (self.n0[i].val() < self.n1[j].val())
                    || (self.mut_ties_high.val() && (self.n0[i].val() == self.n1[j].val()))
                {
                    self.o_01[i].next = self.o_01[i].val() | self.row_bits[j].val();
                }
                if (self.n1[i].val() < self.n0[j].val())
                    || (self.mut_ties_high.val() && (self.n1[i].val() == self.n0[j].val()))
                {
                    self.o_10[i].next = self.o_10[i].val() | self.row_bits[j].val();
                }
                if (self.n1[i].val() < self.n1[j].val())
                    || (self.mut_ties_high.val() && (self.n1[i].val() == self.n1[j].val()))
                {
                    self.o_11[i].next = self.o_11[i].val() | self.row_bits[j].val();
                }
            }
        }
        // The orders of the chosen values: row i's value by its own select bit, row j's by its.
        for i in 0..self._d {
            if (self.n2.val() & self.row_bits[i].val()).any() {
                self.rel_ee[i].next = self.o_xe[i].val();
                self.rel_en[i].next = (self.o_x0[i].val() & !self.near.val()) | (self.o_x1[i].val() & self.near.val());
            } else {
                self.rel_ee[i].next = (self.o_ee[i].val() & !self.n2.val()) | (self.o_ex[i].val() & self.n2.val());
                self.rel_en[i].next = (self.o_e0[i].val() & !self.near.val()) | (self.o_e1[i].val() & self.near.val());
            }
            if (self.near.val() & self.row_bits[i].val()).any() {
                self.rel_ne[i].next = (self.o_1e[i].val() & !self.n2.val()) | (self.o_1x[i].val() & self.n2.val());
                self.rel_nn[i].next = (self.o_10[i].val() & !self.near.val()) | (self.o_11[i].val() & self.near.val());
            } else {
                self.rel_ne[i].next = (self.o_0e[i].val() & !self.n2.val()) | (self.o_0x[i].val() & self.n2.val());
                self.rel_nn[i].next = (self.o_00[i].val() & !self.near.val()) | (self.o_01[i].val() & self.near.val());
            }
            if !self.ahead.val() {
                // The near word is a walk op's cleared bucket (or nothing): 0 is below every non-empty count,
                // nothing is below 0.
                self.rel_en[i].next = self.zero_d.val();
                self.rel_nn[i].next = self.zero_d.val();
                if self.mut_ties_high.val() {
                    self.rel_ne[i].next = !self.zero_d.val();
                } else {
                    self.rel_ne[i].next = !self.empty_e.val();
                }
            }
        }
    }
}
