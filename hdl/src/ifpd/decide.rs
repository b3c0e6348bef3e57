//! The modify-stage decision of the IFPD core over its `D` forwarded buckets (`golden::ifpd::decide`, the
//! specification), combinational:
//!
//! - per row, in parallel: holds the fingerprint, is empty (`fp = 0`), holds `t = 0` (CM's empty), and the
//!   age `t − B.t` (modulo `2^T`: the wrap-correct order, smallest age = largest timestamp);
//! - IFPD mode: the first row that holds the fingerprint or is empty (a priority pick over the per-row
//!   flags: the two are exclusive, fingerprints are never 0) — case 1 (`D = age`) or case 2 (`D = 0`); else
//!   case 3 on the row of the smallest age (ties: lowest row; every pair of ages compared in parallel, a row
//!   is the pick when it is strictly below every earlier row and at most every later one), `D = age` or 0
//!   (`case3_zero`); one row written with `{fp, t}`;
//! - CM modes: every row written with `max(t, 1)`; first packet (`D = 0`, case 2, row 0) if some row holds
//!   `t = 0` or the filter says new (`bf_first`, gated by the core with the CM-BF mode), else `D` = the
//!   largest age (ties: lowest row), case 1, its row;
//! - `report` iff `D ≥ threshold`.
//!
//! Every row's new word is the same (`{fp, t}` or `max(t, 1)`): whichever rows are written get exactly it,
//! so no mux follows the choice.

use super::Mutant;
use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::declare_block;
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct IfpdDecide<const F: usize, const T: usize, const D: usize, const W: usize, const DW: usize>
    fn build(mutant: Mutant) {
        /// Row `i`'s bucket at `[i·W, (i+1)·W)`: `t | fp << T`.
        pub old: Signal<In, Bits<DW>>,
        pub fp: Signal<In, Bits<F>>,
        pub t: Signal<In, Bits<T>>,
        /// A CM mode (CSR `mode` ≠ 0).
        pub cm: Signal<In, bool>,
        /// CM-BF and the filter found the flow new.
        pub bf_first: Signal<In, bool>,
        /// Case 3 estimates 0 (CSR `options` bit 0).
        pub case3_zero: Signal<In, bool>,
        pub threshold: Signal<In, Bits<T>>,
        pub write: Signal<Out, Bits<D>>,
        pub new_words: Signal<Out, Bits<DW>>,
        /// 1 match, 2 insert, 3 replace.
        pub case_code: Signal<Out, Bits<2>>,
        pub row: Signal<Out, Bits<3>>,
        pub d_est: Signal<Out, Bits<T>>,
        pub report: Signal<Out, bool>,
        old_t: Vec<Slice<DW, T>> = (0..D).map(|i| Slice::new(i * W)).collect(),
        old_fp: Vec<Slice<DW, F>> = (0..D).map(|i| Slice::new(i * W + T)).collect(),
        age: Vec<Signal<Local, Bits<T>>> = (0..D).map(|_| Default::default()).collect(),
        hit: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        empty: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        // The first row that takes the packet (IFPD).
        found: Signal<Local, bool>,
        take_row: Signal<Local, Bits<3>>,
        take_hit: Signal<Local, bool>,
        take_age: Signal<Local, Bits<T>>,
        // Smallest age (IFPD case 3) and largest age (CM), ties to the lowest row: every pair compared in
        // parallel (`lt[i]` bit j: age i < age j; `eq[i]` bit j: equal), each row's "is the extreme" a mask
        // test of those against the rows before and after it, then a one-hot pick.
        lt: Vec<Signal<Local, Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        eq: Vec<Signal<Local, Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        is_young: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        is_eld: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        before: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| (1u64 << i) - 1)),
        after: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| ((1u64 << D) - 1) & !((1u64 << (i + 1)) - 1))),
        /// Row 0's flags (row 0 is the pick when no later row is).
        unused_row0_flags: Signal<Local, bool>,
        young_row: Signal<Local, Bits<3>>,
        young_age: Signal<Local, Bits<T>>,
        eld_row: Signal<Local, Bits<3>>,
        eld_age: Signal<Local, Bits<T>>,
        repl_row: Signal<Local, Bits<3>>,
        repl_age: Signal<Local, Bits<T>>,
        any_t_zero: Signal<Local, bool>,
        t_cm: Signal<Local, Bits<T>>,
        zx_fp: ZeroExt<F, W>,
        zx_t: ZeroExt<T, W>,
        zx_t_cm: ZeroExt<T, W>,
        word: Signal<Local, Bits<W>>,
        zx_word: ZeroExt<W, DW>,
        new_bus: Signal<Local, Bits<DW>>,
        write_bus: Signal<Local, Bits<D>>,
        row_ids: Vec<Constant<Bits<3>>> = consts(0..D as u64),
        row_bits: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| 1u64 << i)),
        off_word: Vec<Constant<Bits<16>>> = consts((0..D).map(|i| (i * W) as u64)),
        off_fp: Constant<Bits<16>> = constant(T as u64),
        all_d: Constant<Bits<D>> = constant(if D >= 64 { u64::MAX } else { (1u64 << D) - 1 }),
        zero_d: Constant<Bits<D>> = constant(0),
        zero_f: Constant<Bits<F>> = constant(0),
        zero_t: Constant<Bits<T>> = constant(0),
        one_t: Constant<Bits<T>> = constant(1),
        zero_dw: Constant<Bits<DW>> = Constant::new(Bits::default()),
        code_match: Constant<Bits<2>> = constant(1),
        code_insert: Constant<Bits<2>> = constant(2),
        code_replace: Constant<Bits<2>> = constant(3),
        /// Test-only mutants (false in every production build, folded away): the last taking row instead of
        /// the first (rows scanned in reverse), case 3 replaces the smallest timestamp (largest age).
        mut_reverse: Constant<bool> = Constant::new(mutant == Mutant::RowsReversed),
        mut_smallest: Constant<bool> = Constant::new(mutant == Mutant::ReplaceSmallest),
        _d: usize = D,
    }
}

impl<const F: usize, const T: usize, const D: usize, const W: usize, const DW: usize> IfpdDecide<F, T, D, W, DW> {
    pub fn new() -> Result<Self, String> {
        Self::with_mutant(Mutant::None)
    }
    /// Test-only: a deliberately wrong decision (see [`Mutant`]).
    pub fn with_mutant(mutant: Mutant) -> Result<Self, String> {
        if W != F + T || DW != D * W || D == 0 || D > 8 || T > 32 || F > 32 {
            return Err(format!("IfpdDecide<F={F}, T={T}, D={D}, W={W}, DW={DW}>: needs W = F + T, DW = D·W, D ≤ 8"));
        }
        Ok(Self::build(mutant))
    }
}

impl<const F: usize, const T: usize, const D: usize, const W: usize, const DW: usize> Logic
    for IfpdDecide<F, T, D, W, DW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Per row, in parallel.
        self.any_t_zero.next = false;
        for i in 0..self._d {
            self.old_t[i].din.next = self.old.val();
            self.old_fp[i].din.next = self.old.val();
            self.age[i].next = self.t.val() - self.old_t[i].out.val();
            self.hit[i].next = self.old_fp[i].out.val() == self.fp.val();
            self.empty[i].next = self.old_fp[i].out.val() == self.zero_f.val();
            self.any_t_zero.next = self.any_t_zero.val() || (self.old_t[i].out.val() == self.zero_t.val());
        }
        // The first row that holds the fingerprint or is empty.
        self.found.next = false;
        self.take_row.next = self.row_ids[0].val();
        self.take_hit.next = false;
        self.take_age.next = self.zero_t.val();
        for i in 0..self._d {
            if (!self.found.val() || self.mut_reverse.val()) && (self.hit[i].val() || self.empty[i].val()) {
                self.found.next = true;
                self.take_row.next = self.row_ids[i].val();
                self.take_hit.next = self.hit[i].val();
                self.take_age.next = self.age[i].val();
            }
        }
        // Smallest and largest age, ties to the lowest row: pairwise compares, then a one-hot pick. Row i is
        // the youngest when its age is below every earlier row's and at most every later row's; the eldest
        // when above every earlier row's and at least every later row's.
        for i in 0..self._d {
            self.lt[i].next = self.zero_d.val();
            self.eq[i].next = self.zero_d.val();
            for j in 0..self._d {
                if self.age[i].val() < self.age[j].val() {
                    self.lt[i].next = self.lt[i].val() | self.row_bits[j].val();
                }
                if self.age[i].val() == self.age[j].val() {
                    self.eq[i].next = self.eq[i].val() | self.row_bits[j].val();
                }
            }
            self.is_young[i].next = ((self.lt[i].val() & self.before[i].val()) == self.before[i].val())
                && (((self.lt[i].val() | self.eq[i].val()) & self.after[i].val()) == self.after[i].val());
            self.is_eld[i].next = !((self.lt[i].val() | self.eq[i].val()) & self.before[i].val()).any()
                && !(self.lt[i].val() & self.after[i].val()).any();
        }
        self.unused_row0_flags.next = self.is_young[0].val() || self.is_eld[0].val();
        self.young_row.next = self.row_ids[0].val();
        self.young_age.next = self.age[0].val();
        self.eld_row.next = self.row_ids[0].val();
        self.eld_age.next = self.age[0].val();
        for i in 1..self._d {
            if self.is_young[i].val() {
                self.young_row.next = self.row_ids[i].val();
                self.young_age.next = self.age[i].val();
            }
            if self.is_eld[i].val() {
                self.eld_row.next = self.row_ids[i].val();
                self.eld_age.next = self.age[i].val();
            }
        }
        if self.mut_smallest.val() {
            self.repl_row.next = self.eld_row.val();
            self.repl_age.next = self.eld_age.val();
        } else {
            self.repl_row.next = self.young_row.val();
            self.repl_age.next = self.young_age.val();
        }
        // The new word (the same for every row written).
        if self.t.val() == self.zero_t.val() {
            self.t_cm.next = self.one_t.val();
        } else {
            self.t_cm.next = self.t.val();
        }
        self.zx_fp.din.next = self.fp.val();
        self.zx_t.din.next = self.t.val();
        self.zx_t_cm.din.next = self.t_cm.val();
        if self.cm.val() {
            self.word.next = self.zx_t_cm.out.val();
        } else {
            self.word.next = self.zx_t.out.val() | (self.zx_fp.out.val() << self.off_fp.val());
        }
        self.zx_word.din.next = self.word.val();
        self.new_bus.next = self.zero_dw.val();
        for i in 0..self._d {
            self.new_bus.next = self.new_bus.val() | (self.zx_word.out.val() << self.off_word[i].val());
        }
        self.new_words.next = self.new_bus.val();
        // Case, row, estimate.
        if self.cm.val() {
            if self.any_t_zero.val() || self.bf_first.val() {
                self.case_code.next = self.code_insert.val();
                self.row.next = self.row_ids[0].val();
                self.d_est.next = self.zero_t.val();
            } else {
                self.case_code.next = self.code_match.val();
                self.row.next = self.eld_row.val();
                self.d_est.next = self.eld_age.val();
            }
        } else if self.found.val() {
            self.row.next = self.take_row.val();
            if self.take_hit.val() {
                self.case_code.next = self.code_match.val();
                self.d_est.next = self.take_age.val();
            } else {
                self.case_code.next = self.code_insert.val();
                self.d_est.next = self.zero_t.val();
            }
        } else {
            self.case_code.next = self.code_replace.val();
            self.row.next = self.repl_row.val();
            if self.case3_zero.val() {
                self.d_est.next = self.zero_t.val();
            } else {
                self.d_est.next = self.repl_age.val();
            }
        }
        self.report.next = self.d_est.val() >= self.threshold.val();
        self.write_bus.next = self.zero_d.val();
        for i in 0..self._d {
            if self.row.val() == self.row_ids[i].val() {
                self.write_bus.next = self.write_bus.val() | self.row_bits[i].val();
            }
        }
        if self.cm.val() {
            self.write.next = self.all_d.val();
        } else {
            self.write.next = self.write_bus.val();
        }
    }
}
