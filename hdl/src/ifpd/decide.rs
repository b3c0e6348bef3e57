//! The IFPD core's decision over its `D` buckets (`golden::ifpd::decide`, the specification), spread over
//! the rows' look-ahead stage SL, the modify stage SM and SM+1 so that the loop from one packet's write to
//! the next packet's write-enable is a few LUTs (`golden::common::rmw`, look-ahead stages):
//!
//! - **SL** (the words before the packet directly ahead): per row, holds the fingerprint, is empty
//!   (`fp = 0`), holds `t = 0` (CM's empty), the age `t − B.t` (mod `2^T`); every pairwise age order — and
//!   the same for the *alternative* word, the one the packet directly ahead (now at SM) writes: `{fp, t}`
//!   or, in a CM mode, `max(t, 1)`. Ages are ordered without subtracting first: with `w = B.t > t` (the
//!   stored time lies after the packet's, so its age wrapped), age i < age j iff
//!   `w_i == w_j ? t_i > t_j : !w_i && w_j`, and equal iff `t_i == t_j` — one carry chain per compare.
//!   Row i's early word is one of two flip-flop words (the rows' second look-ahead level): its register
//!   `pre_early`, or — `pre_near2` bit i — the word the packet two ahead wrote (`x2`, the same for every
//!   row it wrote: this block's own register of that packet's new word). Every compare runs on both and
//!   the result is chosen after the carry chain; a pair of rows' order is registered on every candidate
//!   (both early, one or the other the packet two ahead's word, both: equal) and chosen at SM (the
//!   four-way choice after a 32-bit chain was the registered-RAM build's longest path). All registered
//!   into SM.
//! - **SM**: row `i` holds the alternative word iff `near` bit `i` (the rows' `mod_near`: the packet ahead
//!   wrote that row's bucket); every flag and order is a mux of two (or, for a pair, four) registered
//!   candidates. IFPD: the first row that holds the fingerprint or is empty takes the packet (case 1 or
//!   2), else case 3 on the row of the smallest age (ties: lowest row: row i is the pick when its age is
//!   below every earlier row's and at most every later row's); one row written. CM modes: every row
//!   written. `write` and `new_words` answer the RMWs in this cycle. The picks, the threshold compares of
//!   every candidate age and the flags are registered into SM+1.
//! - **SM+1** (`case_code`, `row`, `d_est`, `report`, combinational from SM+1's registers): CM modes: first
//!   packet (`D = 0`, case 2, row 0) if some row holds `t = 0` or `bf_first`, else `D` = the largest age
//!   (ties: lowest row), case 1; IFPD: case 1 `D = age`, case 2 `D = 0`, case 3 `D = age` or 0
//!   (`case3_zero`). `report` iff `D ≥ threshold`, from the candidates' compares (no compare after a mux).
//!
//! The settings (`cm`, `threshold`, `case3_zero`) are the SM packet's (the core reads them at SL and
//! carries them); `cm` at SL is the packet ahead's, which is what its write depends on.
//!
//! Every row's new word is the same (`{fp, t}` or `max(t, 1)`): whichever rows are written get exactly it,
//! so no mux follows the choice.

use super::Mutant;
use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::reg::Reg;
use crate::declare_block;
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct IfpdDecide<const F: usize, const T: usize, const D: usize, const W: usize, const DW: usize>
    fn build(mutant: Mutant) {
        pub clock: Signal<In, Clock>,
        // SL: the packet and its rows' words before the packet ahead (row i at [i·W, (i+1)·W): t | fp << T),
        // each `pre_early` or, where `pre_near2`, the word the packet two ahead wrote.
        pub pre_early: Signal<In, Bits<DW>>,
        pub pre_near2: Signal<In, Bits<D>>,
        pub pre_fp: Signal<In, Bits<F>>,
        pub pre_t: Signal<In, Bits<T>>,
        /// The SL packet's mode is a CM mode (the CSR `mode` read now, as the core registers it for SM).
        pub pre_cm: Signal<In, bool>,
        // SM: the packet, its settings, the rows the packet ahead replaced, the filter's answer.
        pub fp: Signal<In, Bits<F>>,
        pub t: Signal<In, Bits<T>>,
        /// A CM mode (CSR `mode` ≠ 0).
        pub cm: Signal<In, bool>,
        /// Row `i`'s word is the write of the packet directly ahead.
        pub near: Signal<In, Bits<D>>,
        /// CM-BF and the filter found the flow new.
        pub bf_first: Signal<In, bool>,
        /// Case 3 estimates 0 (CSR `options` bit 0).
        pub case3_zero: Signal<In, bool>,
        pub threshold: Signal<In, Bits<T>>,
        pub write: Signal<Out, Bits<D>>,
        pub new_words: Signal<Out, Bits<DW>>,
        // SM+1: the decision of the packet that was at SM in the cycle before.
        /// 1 match, 2 insert, 3 replace.
        pub case_code: Signal<Out, Bits<2>>,
        pub row: Signal<Out, Bits<3>>,
        pub d_est: Signal<Out, Bits<T>>,
        pub report: Signal<Out, bool>,
        // ---- SL
        e_t: Vec<Slice<DW, T>> = (0..D).map(|i| Slice::new(i * W)).collect(),
        e_fp: Vec<Slice<DW, F>> = (0..D).map(|i| Slice::new(i * W + T)).collect(),
        /// The word the packet two ahead wrote (registered at its SM), its fields.
        x2: Reg<Bits<W>>,
        x_t: Slice<W, T> = Slice::new(0),
        x_fp: Slice<W, F> = Slice::new(T),
        /// Row i's early word is `x2`.
        near2: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        /// `w` of each row's `pre_early` word and of `x2`; `x2` against the packet (hit, empty, `t = 0`, age).
        w_e: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        w_x: Signal<Local, bool>,
        hit_x: Signal<Local, bool>,
        empty_x: Signal<Local, bool>,
        tz_x: Signal<Local, bool>,
        age_x: Signal<Local, Bits<T>>,
        /// Per row: age(`pre_early`) < age(`x2`), age(`x2`) < age(`pre_early`), equal times.
        lt_ex: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        lt_xe: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        eq_ex: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        /// The alternative word's time after / equal to `x2`'s.
        alt_after_x: Signal<Local, bool>,
        alt_same_x: Signal<Local, bool>,
        /// Per row (its early word chosen): the stored time lies after the packet's (`w`); the alternative
        /// word's time and `w`.
        wrap: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        /// The time the packet at SM writes (`t`, or CM's `max(t, 1)`), registered at its SL.
        t_alt: Signal<Local, Bits<T>>,
        t_alt_r: Reg<Bits<T>>,
        pre_t_cm: Signal<Local, Bits<T>>,
        wrap_alt: Signal<Local, bool>,
        t_alt_after: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        t_alt_same: Vec<Signal<Local, bool>> = (0..D).map(|_| Default::default()).collect(),
        // SL → SM registers: per row (`_u`) and for the alternative word (`_a`).
        take_u: Reg<Bits<D>>,
        hit_u: Reg<Bits<D>>,
        tz_u: Reg<Bits<D>>,
        age_u: Vec<Reg<Bits<T>>> = (0..D).map(|_| Default::default()).collect(),
        /// The pairwise age orders on both candidates, chosen per pair at SM (the choice of four results
        /// after a carry chain was SL's longest path). `ee_lt[i]` bit j: age i < age j, both `pre_early`
        /// words; `ee_le`: ≤. `xe_lt` bit j: age(`x2`) < age(row j's `pre_early`), `xe_le`: ≤;
        /// `ex_lt`/`ex_le` bit i: age(row i's `pre_early`) < (≤) age(`x2`); `n2`: `pre_near2`.
        ee_lt: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        ee_le: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        xe_lt: Reg<Bits<D>>,
        xe_le: Reg<Bits<D>>,
        ex_lt: Reg<Bits<D>>,
        ex_le: Reg<Bits<D>>,
        n2: Reg<Bits<D>>,
        take_a: Reg<bool>,
        hit_a: Reg<bool>,
        tz_a: Reg<bool>,
        age_a: Reg<Bits<T>>,
        /// Bit j: the alternative word's age < (≤) row j's early age; `lt_ua`/`le_ua` bit i: row i's < (≤) it.
        lt_au: Reg<Bits<D>>,
        le_au: Reg<Bits<D>>,
        lt_ua: Reg<Bits<D>>,
        le_ua: Reg<Bits<D>>,
        // ---- SM
        /// `lt_uu[i]` bit j: age i < age j; `le_uu`: ≤ (the rows' SL words: early or `x2`).
        lt_uu: Vec<Signal<Local, Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        le_uu: Vec<Signal<Local, Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        takers: Signal<Local, Bits<D>>,
        hits: Signal<Local, Bits<D>>,
        tzs: Signal<Local, Bits<D>>,
        lt: Vec<Signal<Local, Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        le: Vec<Signal<Local, Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        found: Signal<Local, bool>,
        take: Signal<Local, Bits<D>>,
        young: Signal<Local, Bits<D>>,
        eld: Signal<Local, Bits<D>>,
        repl: Signal<Local, Bits<D>>,
        before: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| (1u64 << i) - 1)),
        after: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| ((1u64 << D) - 1) & !((1u64 << (i + 1)) - 1))),
        t_cm: Signal<Local, Bits<T>>,
        zx_fp: ZeroExt<F, W>,
        zx_t: ZeroExt<T, W>,
        zx_t_cm: ZeroExt<T, W>,
        word: Signal<Local, Bits<W>>,
        zx_word: ZeroExt<W, DW>,
        new_bus: Signal<Local, Bits<DW>>,
        // SM → SM+1 registers.
        s4_cm: Reg<bool>,
        s4_first: Reg<bool>,
        s4_found: Reg<bool>,
        s4_take_hit: Reg<bool>,
        s4_case3_zero: Reg<bool>,
        s4_thr_zero: Reg<bool>,
        s4_near: Reg<Bits<D>>,
        s4_take: Reg<Bits<D>>,
        s4_repl: Reg<Bits<D>>,
        s4_eld: Reg<Bits<D>>,
        s4_rep_u: Reg<Bits<D>>,
        s4_rep_a: Reg<bool>,
        s4_age_u: Vec<Reg<Bits<T>>> = (0..D).map(|_| Default::default()).collect(),
        s4_age_a: Reg<Bits<T>>,
        // ---- SM+1
        pick: Signal<Local, Bits<D>>,
        zero_est: Signal<Local, bool>,
        est: Signal<Local, Bits<T>>,
        rep_pick: Signal<Local, bool>,
        row_ids: Vec<Constant<Bits<3>>> = consts(0..D as u64),
        row_bits: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| 1u64 << i)),
        off_word: Vec<Constant<Bits<16>>> = consts((0..D).map(|i| (i * W) as u64)),
        off_fp: Constant<Bits<16>> = constant(T as u64),
        all_d: Constant<Bits<D>> = constant(if D >= 64 { u64::MAX } else { (1u64 << D) - 1 }),
        zero_d: Constant<Bits<D>> = constant(0),
        one_d: Constant<Bits<D>> = constant(1),
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
        dff_setup!(
            self, clock, x2, t_alt_r, take_u, hit_u, tz_u, take_a, hit_a, tz_a, age_a, lt_au, le_au, lt_ua, le_ua, xe_lt, xe_le,
            ex_lt, ex_le, n2, s4_cm,
            s4_first, s4_found, s4_take_hit, s4_case3_zero, s4_thr_zero, s4_near, s4_take, s4_repl, s4_eld,
            s4_rep_u, s4_rep_a, s4_age_a
        );
        for i in 0..self._d {
            self.age_u[i].clock.next = self.clock.val();
            self.ee_lt[i].clock.next = self.clock.val();
            self.ee_le[i].clock.next = self.clock.val();
            self.s4_age_u[i].clock.next = self.clock.val();
        }
        // ---- SL. The alternative word: what the packet now at SM writes (CM: `max(t, 1)`, fp 0), its time
        // registered when that packet was at SL (so no logic precedes the compares' carry chains).
        if self.t.val() == self.zero_t.val() {
            self.t_cm.next = self.one_t.val();
        } else {
            self.t_cm.next = self.t.val();
        }
        if self.pre_t.val() == self.zero_t.val() {
            self.pre_t_cm.next = self.one_t.val();
        } else {
            self.pre_t_cm.next = self.pre_t.val();
        }
        if self.pre_cm.val() {
            self.t_alt_r.d.next = self.pre_t_cm.val();
        } else {
            self.t_alt_r.d.next = self.pre_t.val();
        }
        self.t_alt.next = self.t_alt_r.q.val();
        self.wrap_alt.next = self.t_alt.val() > self.pre_t.val();
        // `x2` against the packet and the alternative word.
        self.x_t.din.next = self.x2.q.val();
        self.x_fp.din.next = self.x2.q.val();
        self.w_x.next = self.x_t.out.val() > self.pre_t.val();
        self.hit_x.next = self.x_fp.out.val() == self.pre_fp.val();
        self.empty_x.next = self.x_fp.out.val() == self.zero_f.val();
        self.tz_x.next = self.x_t.out.val() == self.zero_t.val();
        self.age_x.next = self.pre_t.val() - self.x_t.out.val();
        self.alt_after_x.next = self.t_alt.val() > self.x_t.out.val();
        self.alt_same_x.next = self.t_alt.val() == self.x_t.out.val();
        self.take_u.d.next = self.zero_d.val();
        self.hit_u.d.next = self.zero_d.val();
        self.tz_u.d.next = self.zero_d.val();
        for i in 0..self._d {
            self.e_t[i].din.next = self.pre_early.val();
            self.e_fp[i].din.next = self.pre_early.val();
            self.near2[i].next = (self.pre_near2.val() & self.row_bits[i].val()).any();
            self.w_e[i].next = self.e_t[i].out.val() > self.pre_t.val();
            self.eq_ex[i].next = self.e_t[i].out.val() == self.x_t.out.val();
            self.lt_ex[i].next = (self.w_e[i].val() == self.w_x.val() && self.e_t[i].out.val() > self.x_t.out.val())
                || (!self.w_e[i].val() && self.w_x.val());
            self.lt_xe[i].next = (self.w_e[i].val() == self.w_x.val() && self.x_t.out.val() > self.e_t[i].out.val())
                || (!self.w_x.val() && self.w_e[i].val());
            // Each flag, the age and the compares with the alternative word: on both candidates, then chosen.
            if self.near2[i].val() {
                self.wrap[i].next = self.w_x.val();
                self.age_u[i].d.next = self.age_x.val();
                if self.hit_x.val() {
                    self.hit_u.d.next = self.hit_u.d.val() | self.row_bits[i].val();
                }
                if self.hit_x.val() || self.empty_x.val() {
                    self.take_u.d.next = self.take_u.d.val() | self.row_bits[i].val();
                }
                if self.tz_x.val() {
                    self.tz_u.d.next = self.tz_u.d.val() | self.row_bits[i].val();
                }
                self.t_alt_after[i].next = self.alt_after_x.val();
                self.t_alt_same[i].next = self.alt_same_x.val();
            } else {
                self.wrap[i].next = self.w_e[i].val();
                self.age_u[i].d.next = self.pre_t.val() - self.e_t[i].out.val();
                if self.e_fp[i].out.val() == self.pre_fp.val() {
                    self.hit_u.d.next = self.hit_u.d.val() | self.row_bits[i].val();
                    self.take_u.d.next = self.take_u.d.val() | self.row_bits[i].val();
                }
                if self.e_fp[i].out.val() == self.zero_f.val() {
                    self.take_u.d.next = self.take_u.d.val() | self.row_bits[i].val();
                }
                if self.e_t[i].out.val() == self.zero_t.val() {
                    self.tz_u.d.next = self.tz_u.d.val() | self.row_bits[i].val();
                }
                self.t_alt_after[i].next = self.t_alt.val() > self.e_t[i].out.val();
                self.t_alt_same[i].next = self.t_alt.val() == self.e_t[i].out.val();
            }
        }
        // Fingerprints are never 0: a CM word (fp 0) is empty to IFPD and never a hit.
        self.hit_a.d.next = !self.cm.val() && (self.fp.val() == self.pre_fp.val());
        self.take_a.d.next = self.cm.val() || (self.fp.val() == self.pre_fp.val());
        self.tz_a.d.next = !self.cm.val() && (self.t.val() == self.zero_t.val());
        self.age_a.d.next = self.pre_t.val() - self.t_alt.val();
        // Age orders: `w_i == w_j ? t_i > t_j : !w_i && w_j` (smaller age), ties iff equal times.
        self.lt_au.d.next = self.zero_d.val();
        self.le_au.d.next = self.zero_d.val();
        self.lt_ua.d.next = self.zero_d.val();
        self.le_ua.d.next = self.zero_d.val();
        // Both early words per pair; each early word against `x2`; the pair's choice is SM's.
        self.n2.d.next = self.pre_near2.val();
        self.xe_lt.d.next = self.zero_d.val();
        self.xe_le.d.next = self.zero_d.val();
        self.ex_lt.d.next = self.zero_d.val();
        self.ex_le.d.next = self.zero_d.val();
        for i in 0..self._d {
            self.ee_lt[i].d.next = self.zero_d.val();
            self.ee_le[i].d.next = self.zero_d.val();
            for j in 0..self._d {
                if (self.w_e[i].val() == self.w_e[j].val() && self.e_t[i].out.val() > self.e_t[j].out.val())
                        || (!self.w_e[i].val() && self.w_e[j].val())
                {
                    self.ee_lt[i].d.next = self.ee_lt[i].d.val() | self.row_bits[j].val();
                    self.ee_le[i].d.next = self.ee_le[i].d.val() | self.row_bits[j].val();
                }
                if self.e_t[i].out.val() == self.e_t[j].out.val() {
                    self.ee_le[i].d.next = self.ee_le[i].d.val() | self.row_bits[j].val();
                }
            }
            if self.lt_xe[i].val() {
                self.xe_lt.d.next = self.xe_lt.d.val() | self.row_bits[i].val();
            }
            if self.lt_xe[i].val() || self.eq_ex[i].val() {
                self.xe_le.d.next = self.xe_le.d.val() | self.row_bits[i].val();
            }
            if self.lt_ex[i].val() {
                self.ex_lt.d.next = self.ex_lt.d.val() | self.row_bits[i].val();
            }
            if self.lt_ex[i].val() || self.eq_ex[i].val() {
                self.ex_le.d.next = self.ex_le.d.val() | self.row_bits[i].val();
            }
        }
        for i in 0..self._d {
            if (self.wrap_alt.val() == self.wrap[i].val() && self.t_alt_after[i].val())
                || (!self.wrap_alt.val() && self.wrap[i].val())
            {
                self.lt_au.d.next = self.lt_au.d.val() | self.row_bits[i].val();
                self.le_au.d.next = self.le_au.d.val() | self.row_bits[i].val();
            }
            if (self.wrap_alt.val() == self.wrap[i].val() && !self.t_alt_after[i].val() && !self.t_alt_same[i].val())
                || (!self.wrap[i].val() && self.wrap_alt.val())
            {
                self.lt_ua.d.next = self.lt_ua.d.val() | self.row_bits[i].val();
                self.le_ua.d.next = self.le_ua.d.val() | self.row_bits[i].val();
            }
            if self.t_alt_same[i].val() {
                self.le_au.d.next = self.le_au.d.val() | self.row_bits[i].val();
                self.le_ua.d.next = self.le_ua.d.val() | self.row_bits[i].val();
            }
        }
        // ---- SM. The pairs' orders: row i's SL word `x2` → against an early row j `xe_*` bit j, against
        // another `x2` row equal; row i early → `ee_*` against early rows, `ex_*` bit i against `x2` rows.
        for i in 0..self._d {
            if (self.n2.q.val() & self.row_bits[i].val()).any() {
                self.lt_uu[i].next = self.xe_lt.q.val() & !self.n2.q.val();
                self.le_uu[i].next = self.xe_le.q.val() | self.n2.q.val();
            } else {
                self.lt_uu[i].next = self.ee_lt[i].q.val() & !self.n2.q.val();
                self.le_uu[i].next = self.ee_le[i].q.val() & !self.n2.q.val();
                if (self.ex_lt.q.val() & self.row_bits[i].val()).any() {
                    self.lt_uu[i].next = self.lt_uu[i].val() | self.n2.q.val();
                }
                if (self.ex_le.q.val() & self.row_bits[i].val()).any() {
                    self.le_uu[i].next = self.le_uu[i].val() | self.n2.q.val();
                }
            }
        }
        // Row i holds the alternative word iff `near` bit i.
        self.takers.next = self.take_u.q.val() & !self.near.val();
        self.hits.next = self.hit_u.q.val() & !self.near.val();
        self.tzs.next = self.tz_u.q.val() & !self.near.val();
        if self.take_a.q.val() {
            self.takers.next = self.takers.val() | self.near.val();
        }
        if self.hit_a.q.val() {
            self.hits.next = self.hits.val() | self.near.val();
        }
        if self.tz_a.q.val() {
            self.tzs.next = self.tzs.val() | self.near.val();
        }
        self.found.next = self.takers.val().any();
        self.take.next = self.zero_d.val();
        self.young.next = self.zero_d.val();
        self.eld.next = self.zero_d.val();
        for i in 0..self._d {
            // Pair (i, j): both replaced → equal ages; one replaced → the alternative's order; none → early.
            if (self.near.val() & self.row_bits[i].val()).any() {
                self.lt[i].next = self.lt_au.q.val() & !self.near.val();
                self.le[i].next = self.le_au.q.val() | self.near.val();
            } else {
                self.lt[i].next = self.lt_uu[i].val() & !self.near.val();
                self.le[i].next = self.le_uu[i].val() & !self.near.val();
                if (self.lt_ua.q.val() & self.row_bits[i].val()).any() {
                    self.lt[i].next = self.lt[i].val() | self.near.val();
                }
                if (self.le_ua.q.val() & self.row_bits[i].val()).any() {
                    self.le[i].next = self.le[i].val() | self.near.val();
                }
            }
            if (self.takers.val() & self.row_bits[i].val()).any() {
                if self.mut_reverse.val() {
                    if !(self.takers.val() & self.after[i].val()).any() {
                        self.take.next = self.take.val() | self.row_bits[i].val();
                    }
                } else if !(self.takers.val() & self.before[i].val()).any() {
                    self.take.next = self.take.val() | self.row_bits[i].val();
                }
            }
            if ((self.lt[i].val() & self.before[i].val()) == self.before[i].val())
                && ((self.le[i].val() & self.after[i].val()) == self.after[i].val())
            {
                self.young.next = self.young.val() | self.row_bits[i].val();
            }
            if !(self.le[i].val() & self.before[i].val()).any() && !(self.lt[i].val() & self.after[i].val()).any() {
                self.eld.next = self.eld.val() | self.row_bits[i].val();
            }
        }
        if self.mut_smallest.val() {
            self.repl.next = self.eld.val();
        } else {
            self.repl.next = self.young.val();
        }
        if self.cm.val() {
            self.write.next = self.all_d.val();
        } else if self.found.val() {
            self.write.next = self.take.val();
        } else {
            self.write.next = self.repl.val();
        }
        // The new word (the same for every row written).
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
        self.x2.d.next = self.word.val();
        // SM → SM+1: picks, flags, every candidate's threshold compare, the ages.
        self.s4_cm.d.next = self.cm.val();
        self.s4_first.d.next = self.tzs.val().any() || self.bf_first.val();
        self.s4_found.d.next = self.found.val();
        self.s4_take_hit.d.next = (self.take.val() & self.hits.val()).any();
        self.s4_case3_zero.d.next = self.case3_zero.val();
        self.s4_thr_zero.d.next = self.threshold.val() == self.zero_t.val();
        self.s4_near.d.next = self.near.val();
        self.s4_take.d.next = self.take.val();
        self.s4_repl.d.next = self.repl.val();
        self.s4_eld.d.next = self.eld.val();
        self.s4_rep_u.d.next = self.zero_d.val();
        for i in 0..self._d {
            if self.age_u[i].q.val() >= self.threshold.val() {
                self.s4_rep_u.d.next = self.s4_rep_u.d.val() | self.row_bits[i].val();
            }
            self.s4_age_u[i].d.next = self.age_u[i].q.val();
        }
        self.s4_rep_a.d.next = self.age_a.q.val() >= self.threshold.val();
        self.s4_age_a.d.next = self.age_a.q.val();
        // ---- SM+1: case, row, estimate, report.
        if self.s4_cm.q.val() {
            if self.s4_first.q.val() {
                self.pick.next = self.one_d.val();
                self.case_code.next = self.code_insert.val();
                self.zero_est.next = true;
            } else {
                self.pick.next = self.s4_eld.q.val();
                self.case_code.next = self.code_match.val();
                self.zero_est.next = false;
            }
        } else if self.s4_found.q.val() {
            self.pick.next = self.s4_take.q.val();
            if self.s4_take_hit.q.val() {
                self.case_code.next = self.code_match.val();
                self.zero_est.next = false;
            } else {
                self.case_code.next = self.code_insert.val();
                self.zero_est.next = true;
            }
        } else {
            self.pick.next = self.s4_repl.q.val();
            self.case_code.next = self.code_replace.val();
            self.zero_est.next = self.s4_case3_zero.q.val();
        }
        self.row.next = self.row_ids[0].val();
        self.est.next = self.zero_t.val();
        self.rep_pick.next = false;
        for i in 0..self._d {
            if (self.pick.val() & self.row_bits[i].val()).any() {
                self.row.next = self.row_ids[i].val();
                if (self.s4_near.q.val() & self.row_bits[i].val()).any() {
                    self.est.next = self.s4_age_a.q.val();
                    self.rep_pick.next = self.s4_rep_a.q.val();
                } else {
                    self.est.next = self.s4_age_u[i].q.val();
                    self.rep_pick.next = (self.s4_rep_u.q.val() & self.row_bits[i].val()).any();
                }
            }
        }
        if self.zero_est.val() {
            self.d_est.next = self.zero_t.val();
            self.report.next = self.s4_thr_zero.q.val();
        } else {
            self.d_est.next = self.est.val();
            self.report.next = self.rep_pick.val();
        }
    }
}
