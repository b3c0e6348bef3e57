//! The modify-stage decision of the heavy-hitter core over its `D` forwarded buckets
//! (`golden::heavy_hitters::table::decide`), combinational:
//!
//! - per row: empty (`count = 0`), holds the key, `count < T`, the saturating increment, and the word the
//!   row would get (`{key, inc}`: whichever row is written gets exactly that, so no mux follows the choice);
//! - the first row that takes the packet (d-way: holds the key; PRECISION: empty or holds it);
//! - else the minimum (ties: lowest row, a scan from row 0 that moves only on a strictly smaller count) and
//!   admission iff some row's count is below `T` (`min < T ⟺ ∃ row: count < T`, compared in parallel);
//! - the write mask (one bit or none), the outcome code (0 reject, 1 hit, 2 insert, 3 admit), the row and
//!   the key's count afterwards.

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use super::Mutant;
use crate::declare_block;
use golden::heavy_hitters::admission::THRESHOLD_BITS;
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct HhDecide<const K: usize, const C: usize, const D: usize, const W: usize, const DW: usize>
    fn build(mutant: Mutant) {
        pub old: Signal<In, Bits<DW>>,
        pub key: Signal<In, Bits<K>>,
        pub threshold: Signal<In, Bits<THRESHOLD_BITS>>,
        /// PRECISION (else d-way RAP).
        pub precision: Signal<In, bool>,
        pub write: Signal<Out, Bits<D>>,
        pub new_words: Signal<Out, Bits<DW>>,
        pub outcome: Signal<Out, Bits<2>>,
        pub row: Signal<Out, Bits<2>>,
        pub count: Signal<Out, Bits<C>>,
        old_key: Vec<Slice<DW, K>> = (0..D).map(|i| Slice::new(i * W)).collect(),
        old_count: Vec<Slice<DW, C>> = (0..D).map(|i| Slice::new(i * W + K)).collect(),
        zx_count: Vec<ZeroExt<C, THRESHOLD_BITS>> = (0..D).map(|_| ZeroExt::default()).collect(),
        inc: Vec<Signal<Local, Bits<C>>> = (0..D).map(|_| Default::default()).collect(),
        zx_inc: Vec<ZeroExt<C, W>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_word: Vec<ZeroExt<W, DW>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_key: ZeroExt<K, W>,
        found: Signal<Local, bool>,
        sel_row: Signal<Local, Bits<2>>,
        sel_empty: Signal<Local, bool>,
        sel_inc: Signal<Local, Bits<C>>,
        min_count: Signal<Local, Bits<C>>,
        min_row: Signal<Local, Bits<2>>,
        min_inc: Signal<Local, Bits<C>>,
        admit: Signal<Local, bool>,
        new_bus: Signal<Local, Bits<DW>>,
        write_bus: Signal<Local, Bits<D>>,
        row_ids: Vec<Constant<Bits<2>>> = consts(0..D as u64),
        row_bits: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| 1u64 << i)),
        off_word: Vec<Constant<Bits<16>>> = consts((0..D).map(|i| (i * W) as u64)),
        off_count: Constant<Bits<16>> = constant(K as u64),
        count_max: Constant<Bits<C>> = constant((1u64 << C) - 1),
        zero_c: Constant<Bits<C>> = constant(0),
        one_c: Constant<Bits<C>> = constant(1),
        zero_d: Constant<Bits<D>> = constant(0),
        zero_dw: Constant<Bits<DW>> = Constant::new(Bits::default()),
        code_reject: Constant<Bits<2>> = constant(0),
        code_hit: Constant<Bits<2>> = constant(1),
        code_insert: Constant<Bits<2>> = constant(2),
        code_admit: Constant<Bits<2>> = constant(3),
        /// Test-only mutants (false in every production build, folded away): admission at `count ≤ T`,
        /// minimum ties to the highest row.
        mut_admit_le: Constant<bool> = Constant::new(mutant == Mutant::AdmitLe),
        mut_ties_high: Constant<bool> = Constant::new(mutant == Mutant::TiesHigh),
        /// Reads the tie mutant's flag where one row leaves no ties to break (D = 1), for the lint.
        unused_mutant: Signal<Local, bool>,
        _d: usize = D,
    }
}

impl<const K: usize, const C: usize, const D: usize, const W: usize, const DW: usize> HhDecide<K, C, D, W, DW> {
    pub fn new() -> Result<Self, String> {
        Self::with_mutant(Mutant::None)
    }
    /// Test-only: a deliberately wrong decision (see [`Mutant`]).
    pub fn with_mutant(mutant: Mutant) -> Result<Self, String> {
        if W != K + C || DW != D * W || D == 0 || D > 4 || C > 32 {
            return Err(format!("HhDecide<K={K}, C={C}, D={D}, W={W}, DW={DW}>: needs W = K + C, DW = D·W, D ≤ 4"));
        }
        Ok(Self::build(mutant))
    }
}

impl<const K: usize, const C: usize, const D: usize, const W: usize, const DW: usize> Logic
    for HhDecide<K, C, D, W, DW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.zx_key.din.next = self.key.val();
        self.found.next = false;
        self.sel_row.next = self.row_ids[0].val();
        self.sel_empty.next = false;
        self.sel_inc.next = self.zero_c.val();
        self.admit.next = false;
        self.new_bus.next = self.zero_dw.val();
        for i in 0..self._d {
            self.old_key[i].din.next = self.old.val();
            self.old_count[i].din.next = self.old.val();
            self.zx_count[i].din.next = self.old_count[i].out.val();
            if self.old_count[i].out.val() == self.count_max.val() {
                self.inc[i].next = self.old_count[i].out.val();
            } else {
                self.inc[i].next = self.old_count[i].out.val() + self.one_c.val();
            }
            self.zx_inc[i].din.next = self.inc[i].val();
            self.zx_word[i].din.next = self.zx_key.out.val() | (self.zx_inc[i].out.val() << self.off_count.val());
            self.new_bus.next = self.new_bus.val() | (self.zx_word[i].out.val() << self.off_word[i].val());
            // The first row that takes the packet.
            if !self.found.val()
                && (((self.old_count[i].out.val() != self.zero_c.val())
                    && (self.old_key[i].out.val() == self.key.val()))
                    || (self.precision.val() && (self.old_count[i].out.val() == self.zero_c.val())))
            {
                self.found.next = true;
                self.sel_row.next = self.row_ids[i].val();
                self.sel_empty.next = self.old_count[i].out.val() == self.zero_c.val();
                self.sel_inc.next = self.inc[i].val();
            }
            self.admit.next = self.admit.val()
                || (self.zx_count[i].out.val() < self.threshold.val())
                || (self.mut_admit_le.val() && (self.zx_count[i].out.val() == self.threshold.val()));
        }
        // The minimum, ties to the lowest row.
        self.unused_mutant.next = self.mut_ties_high.val();
        self.min_count.next = self.old_count[0].out.val();
        self.min_row.next = self.row_ids[0].val();
        self.min_inc.next = self.inc[0].val();
        for i in 1..self._d {
            if (self.old_count[i].out.val() < self.min_count.val())
                || (self.mut_ties_high.val() && (self.old_count[i].out.val() == self.min_count.val()))
            {
                self.min_count.next = self.old_count[i].out.val();
                self.min_row.next = self.row_ids[i].val();
                self.min_inc.next = self.inc[i].val();
            }
        }
        self.new_words.next = self.new_bus.val();
        self.write_bus.next = self.zero_d.val();
        if self.found.val() {
            self.row.next = self.sel_row.val();
            self.count.next = self.sel_inc.val();
            if self.sel_empty.val() {
                self.outcome.next = self.code_insert.val();
            } else {
                self.outcome.next = self.code_hit.val();
            }
        } else if self.admit.val() {
            self.row.next = self.min_row.val();
            self.count.next = self.min_inc.val();
            if self.min_count.val() == self.zero_c.val() {
                self.outcome.next = self.code_insert.val();
            } else {
                self.outcome.next = self.code_admit.val();
            }
        } else {
            self.row.next = self.row_ids[0].val();
            self.count.next = self.zero_c.val();
            self.outcome.next = self.code_reject.val();
        }
        for i in 0..self._d {
            if (self.found.val() || self.admit.val()) && (self.row.val() == self.row_ids[i].val()) {
                self.write_bus.next = self.write_bus.val() | self.row_bits[i].val();
            }
        }
        self.write.next = self.write_bus.val();
    }
}
