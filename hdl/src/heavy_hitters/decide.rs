//! The heavy-hitter core's decision over its `D` forwarded buckets (`golden::heavy_hitters::table::decide`,
//! the specification), spread over the banks' look-ahead stage SL and the modify stage SM so that the loop
//! from one packet's write to the next packet's write-enable is a few LUTs (`golden::common::rmw`,
//! look-ahead stages; the fridge's and IFPD's scheme):
//!
//! - **SL**: every row's bucket is one of two candidates: its *early* word (the bank's `pre_old`: the
//!   bucket as if every packet except the one directly ahead had finished) or the *near* word, the one the
//!   op directly ahead (now at SM in this block) writes if it writes that row. The early word is itself one
//!   of two flip-flop words (the banks' second look-ahead level): the bank's `pre_early`, or — `pre_near2`
//!   bit i — the write of the op two ahead (a packet's `{key, count}`; a walk op's cleared bucket). The key
//!   compare (the widest: up to 128 bits) runs on each bank's `pre_early`, the bank and that choice come
//!   after it; whether the packet's key equals the key of the packet two ahead or directly ahead is known
//!   a cycle earlier (SL − 1, from the key registers beside the banks: `x2_eq`, `n_eq`). The counts are
//!   compared in [`super::counts`]. A packet ahead writes
//!   `{its key, its new count}` into whichever row it takes — its key is this block's SM key register and
//!   its new counts per row are SM's `inc_sm` (a mux of two registers); a walk op ahead clears the bucket
//!   (count 0). Per row and candidate: holds the key (`count ≠ 0` and the key equal), empty (`count = 0`),
//!   `count < T`, the saturating increment; every pairwise count order on every pair of candidates. All
//!   registered into SM.
//! - **SM**: row `i` holds its near word iff `near` bit `i` (the bank's `mod_near`: the op ahead wrote
//!   that row's bucket); every flag is a mux of two registered candidates, a pair's order one of four.
//!   The first row that takes the packet (d-way: holds the key; PRECISION: empty or holds it); else the
//!   minimum — row `i` is the pick when its count is below every earlier row's and at most every later
//!   row's (ties: lowest row) — and admission iff some row's count is below `T` (`min < T ⟺ ∃ row:
//!   count < T`); the write mask (one bit or none) and the outcome code (0 reject, 1 hit, 2 insert, 3
//!   admit). Whichever row is written gets `{key, inc}` of its own candidate, so no mux follows the choice;
//!   the result's row and count are the core's (from the write mask and `new_words`, registered first:
//!   their mux after the pick was d2's longest path, 116 MHz).
//!
//! `precision` is read at SM (CSR `method` at the modify stage, as the cycle model reads it).

use super::counts::HhCounts;
use super::Mutant;
use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::reg::Reg;
use crate::declare_block;
use golden::heavy_hitters::admission::THRESHOLD_BITS;
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct HhDecide<const K: usize, const C: usize, const D: usize, const W: usize, const DW: usize>
    fn build(mutant: Mutant) {
        pub clock: Signal<In, Clock>,
        // SL: the packet's key, its rows' early words, whether the op ahead in its bank is a packet (the one
        // at SM here; else a walk op, or nothing — then no `near` bit follows), the threshold.
        pub key: Signal<In, Bits<K>>,
        /// The key of the packet a stage before SL (it is at SL in the next cycle).
        pub key_next: Signal<In, Bits<K>>,
        /// Both banks' `pre_early` and `pre_near2`, the bank that holds the packet.
        pub early0: Signal<In, Bits<DW>>,
        pub early1: Signal<In, Bits<DW>>,
        pub near2_0: Signal<In, Bits<D>>,
        pub near2_1: Signal<In, Bits<D>>,
        pub bank: Signal<In, bool>,
        /// A cycle before SL: the op at SM in the bank of the packet then at SL − 1 is a packet (it is the
        /// op two ahead of that packet when the packet reaches SL).
        pub x2_packet_next: Signal<In, bool>,
        pub ahead_packet: Signal<In, bool>,
        pub threshold: Signal<In, Bits<THRESHOLD_BITS>>,
        // SM.
        /// Row `i`'s word is the write of the op directly ahead.
        pub near: Signal<In, Bits<D>>,
        /// PRECISION (else d-way RAP).
        pub precision: Signal<In, bool>,
        pub write: Signal<Out, Bits<D>>,
        pub new_words: Signal<Out, Bits<DW>>,
        pub outcome: Signal<Out, Bits<2>>,
        // ---- SL
        k0: Vec<Slice<DW, K>> = (0..D).map(|i| Slice::new(i * W)).collect(),
        k1: Vec<Slice<DW, K>> = (0..D).map(|i| Slice::new(i * W)).collect(),
        c0: Vec<Slice<DW, C>> = (0..D).map(|i| Slice::new(i * W + K)).collect(),
        c1: Vec<Slice<DW, C>> = (0..D).map(|i| Slice::new(i * W + K)).collect(),
        /// The op two ahead (the packet at SM a cycle ago): whether it was a packet in this packet's bank,
        /// whether its key is this packet's (compared at SL − 1 with SM's key: the same for every row that
        /// op wrote); whether the packet directly ahead has this packet's key (compared at SL − 1 with SL's).
        x2_packet: Reg<bool>,
        x2_eq: Reg<bool>,
        n_eq: Reg<bool>,
        x2_hit: Signal<Local, bool>,
        /// Per row, the early candidate holds the key, in each bank.
        hold0: Signal<Local, Bits<D>>,
        hold1: Signal<Local, Bits<D>>,
        /// The op two ahead's count per row (its new count if a packet, else 0).
        x2_count: Vec<Reg<Bits<C>>> = (0..D).map(|_| Default::default()).collect(),
        counts: HhCounts<C, D> = HhCounts::build(mutant),
        // SL → SM registers: the key; per row and candidate the flags, the increment, the orders (`m_xy`
        // as the counts' `rel_xy`, `t_xy[i]` bit j: row j's x below row i's y, the transpose).
        s_key: Reg<Bits<K>>,
        hit_e: Reg<Bits<D>>,
        hit_n: Reg<bool>,
        empty_e: Reg<Bits<D>>,
        empty_n: Reg<bool>,
        lt_e: Reg<Bits<D>>,
        lt_n: Reg<Bits<D>>,
        inc_e: Vec<Reg<Bits<C>>> = (0..D).map(|_| Default::default()).collect(),
        inc_n: Vec<Reg<Bits<C>>> = (0..D).map(|_| Default::default()).collect(),
        m_ee: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        m_en: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        m_ne: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        m_nn: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        t_ee: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        t_en: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        t_ne: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        t_nn: Vec<Reg<Bits<D>>> = (0..D).map(|_| Default::default()).collect(),
        // ---- SM
        /// The count the packet writes into row i if it takes it (its candidate's increment).
        inc_sm: Vec<Signal<Local, Bits<C>>> = (0..D).map(|_| Default::default()).collect(),
        zx_inc: Vec<ZeroExt<C, W>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_word: Vec<ZeroExt<W, DW>> = (0..D).map(|_| ZeroExt::default()).collect(),
        zx_key: ZeroExt<K, W>,
        /// Per `near` pattern s (`scen[s]`): the rows that hold the key, are empty, are below T, take the
        /// packet; the first taker (one-hot), the minimum's row (one-hot); the pick and the outcome.
        hits: Vec<Signal<Local, Bits<D>>> = (0..=D).map(|_| Default::default()).collect(),
        empties: Vec<Signal<Local, Bits<D>>> = (0..=D).map(|_| Default::default()).collect(),
        lts: Vec<Signal<Local, Bits<D>>> = (0..=D).map(|_| Default::default()).collect(),
        takers: Vec<Signal<Local, Bits<D>>> = (0..=D).map(|_| Default::default()).collect(),
        take: Vec<Signal<Local, Bits<D>>> = (0..=D).map(|_| Default::default()).collect(),
        mins: Vec<Signal<Local, Bits<D>>> = (0..=D).map(|_| Default::default()).collect(),
        picks: Vec<Signal<Local, Bits<D>>> = (0..=D).map(|_| Default::default()).collect(),
        outcomes: Vec<Signal<Local, Bits<2>>> = (0..=D).map(|_| Default::default()).collect(),
        /// Row i (of the pattern at hand) below each row (`rel_row` bit j: count i below count j) and each
        /// row below row i (`rel_col` bit j: count j below count i); rewritten per row and pattern.
        rel_row: Signal<Local, Bits<D>>,
        rel_col: Signal<Local, Bits<D>>,
        pick: Signal<Local, Bits<D>>,
        new_bus: Signal<Local, Bits<DW>>,
        row_bits: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| 1u64 << i)),
        scen: Vec<Constant<Bits<D>>> = consts((0..=D).map(|s| if s == 0 { 0 } else { 1u64 << (s - 1) })),
        before: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| (1u64 << i) - 1)),
        after: Vec<Constant<Bits<D>>> = consts((0..D).map(|i| ((1u64 << D) - 1) & !((1u64 << (i + 1)) - 1))),
        off_word: Vec<Constant<Bits<16>>> = consts((0..D).map(|i| (i * W) as u64)),
        off_count: Constant<Bits<16>> = constant(K as u64),
        zero_c: Constant<Bits<C>> = constant(0),
        zero_d: Constant<Bits<D>> = constant(0),
        ones_d: Constant<Bits<D>> = constant((1u64 << D) - 1),
        zero_dw: Constant<Bits<DW>> = Constant::new(Bits::default()),
        code_reject: Constant<Bits<2>> = constant(0),
        code_hit: Constant<Bits<2>> = constant(1),
        code_insert: Constant<Bits<2>> = constant(2),
        code_admit: Constant<Bits<2>> = constant(3),
        _d: usize = D,
        _scen: usize = D + 1,
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
        dff_setup!(self, clock, s_key, hit_e, hit_n, empty_e, empty_n, lt_e, lt_n, x2_packet, x2_eq, n_eq);
        for i in 0..self._d {
            self.inc_e[i].clock.next = self.clock.val();
            self.inc_n[i].clock.next = self.clock.val();
            self.m_ee[i].clock.next = self.clock.val();
            self.m_en[i].clock.next = self.clock.val();
            self.m_ne[i].clock.next = self.clock.val();
            self.m_nn[i].clock.next = self.clock.val();
            self.t_ee[i].clock.next = self.clock.val();
            self.t_en[i].clock.next = self.clock.val();
            self.t_ne[i].clock.next = self.clock.val();
            self.t_nn[i].clock.next = self.clock.val();
        }
        // SM's new counts first (the near words of the packet behind read them at SL).
        for i in 0..self._d {
            if (self.near.val() & self.row_bits[i].val()).any() {
                self.inc_sm[i].next = self.inc_n[i].q.val();
            } else {
                self.inc_sm[i].next = self.inc_e[i].q.val();
            }
        }
        // ---- SL. The near word: the SM packet's key and new count, or the cleared bucket behind a walk op.
        self.s_key.d.next = self.key.val();
        self.n_eq.d.next = self.key_next.val() == self.key.val();
        self.x2_eq.d.next = self.key_next.val() == self.s_key.q.val();
        self.hit_n.d.next = self.ahead_packet.val() && self.n_eq.q.val();
        self.empty_n.d.next = !self.ahead_packet.val();
        // The op two ahead: whether a packet, its new counts (a walk op's: 0), for the rows it wrote.
        self.x2_packet.d.next = self.x2_packet_next.val();
        for i in 0..self._d {
            self.x2_count[i].clock.next = self.clock.val();
            if self.x2_packet_next.val() {
                self.x2_count[i].d.next = self.inc_sm[i].val();
            } else {
                self.x2_count[i].d.next = self.zero_c.val();
            }
        }
        // A packet's write holds its key with a count ≥ 1; a walk op's is empty.
        self.x2_hit.next = self.x2_packet.q.val() && self.x2_eq.q.val();
        self.hold0.next = self.zero_d.val();
        self.hold1.next = self.zero_d.val();
        for i in 0..self._d {
            self.k0[i].din.next = self.early0.val();
            self.k1[i].din.next = self.early1.val();
            self.c0[i].din.next = self.early0.val();
            self.c1[i].din.next = self.early1.val();
            if (self.c0[i].out.val() != self.zero_c.val()) && (self.k0[i].out.val() == self.key.val()) {
                self.hold0.next = self.hold0.val() | self.row_bits[i].val();
            }
            if (self.c1[i].out.val() != self.zero_c.val()) && (self.k1[i].out.val() == self.key.val()) {
                self.hold1.next = self.hold1.val() | self.row_bits[i].val();
            }
        }
        // The early candidate's hit: the bank, then the op two ahead's write (`pre_near2`) or `pre_early`.
        if self.bank.val() {
            self.hit_e.d.next = self.hold1.val() & !self.near2_1.val();
            if self.x2_hit.val() {
                self.hit_e.d.next = self.hit_e.d.val() | self.near2_1.val();
            }
        } else {
            self.hit_e.d.next = self.hold0.val() & !self.near2_0.val();
            if self.x2_hit.val() {
                self.hit_e.d.next = self.hit_e.d.val() | self.near2_0.val();
            }
        }
        // The counts' compares (each row's early count from the packet's bank, a LUT after flip-flops).
        self.counts.n2.next = self.near2_0.val();
        if self.bank.val() {
            self.counts.n2.next = self.near2_1.val();
        }
        for i in 0..self._d {
            if self.bank.val() {
                self.counts.early[i].next = self.c1[i].out.val();
            } else {
                self.counts.early[i].next = self.c0[i].out.val();
            }
            self.counts.x2[i].next = self.x2_count[i].q.val();
            self.counts.n0[i].next = self.inc_e[i].q.val();
            self.counts.n1[i].next = self.inc_n[i].q.val();
            self.inc_e[i].d.next = self.counts.inc_e[i].val();
            self.inc_n[i].d.next = self.counts.inc_n[i].val();
        }
        self.counts.near.next = self.near.val();
        self.counts.ahead.next = self.ahead_packet.val();
        self.counts.threshold.next = self.threshold.val();
        self.empty_e.d.next = self.counts.empty_e.val();
        self.lt_e.d.next = self.counts.lt_e.val();
        self.lt_n.d.next = self.counts.lt_n.val();
        // The pairwise orders, and their transposes.
        for i in 0..self._d {
            self.m_ee[i].d.next = self.counts.rel_ee[i].val();
            self.m_en[i].d.next = self.counts.rel_en[i].val();
            self.m_ne[i].d.next = self.counts.rel_ne[i].val();
            self.m_nn[i].d.next = self.counts.rel_nn[i].val();
            self.t_ee[i].d.next = self.zero_d.val();
            self.t_en[i].d.next = self.zero_d.val();
            self.t_ne[i].d.next = self.zero_d.val();
            self.t_nn[i].d.next = self.zero_d.val();
            for j in 0..self._d {
                if (self.counts.rel_ee[j].val() & self.row_bits[i].val()).any() {
                    self.t_ee[i].d.next = self.t_ee[i].d.val() | self.row_bits[j].val();
                }
                if (self.counts.rel_en[j].val() & self.row_bits[i].val()).any() {
                    self.t_en[i].d.next = self.t_en[i].d.val() | self.row_bits[j].val();
                }
                if (self.counts.rel_ne[j].val() & self.row_bits[i].val()).any() {
                    self.t_ne[i].d.next = self.t_ne[i].d.val() | self.row_bits[j].val();
                }
                if (self.counts.rel_nn[j].val() & self.row_bits[i].val()).any() {
                    self.t_nn[i].d.next = self.t_nn[i].d.val() | self.row_bits[j].val();
                }
            }
        }
        // ---- SM. Row i holds its near word iff `near` bit i. The op ahead wrote one row at most, so `near`
        // is one of D + 1 patterns (`scen`: none, or one row's bit): the pick is worked out for every
        // pattern at once from registers only, and `near` — the bank's forwarding flags, from across the
        // die — chooses last (in front of the pick it was d2's longest path, 116 MHz).
        self.zx_key.din.next = self.s_key.q.val();
        self.new_bus.next = self.zero_dw.val();
        for i in 0..self._d {
            self.zx_inc[i].din.next = self.inc_sm[i].val();
            self.zx_word[i].din.next = self.zx_key.out.val() | (self.zx_inc[i].out.val() << self.off_count.val());
            self.new_bus.next = self.new_bus.val() | (self.zx_word[i].out.val() << self.off_word[i].val());
        }
        self.new_words.next = self.new_bus.val();
        for s in 0..self._scen {
            self.hits[s].next = self.hit_e.q.val() & !self.scen[s].val();
            self.empties[s].next = self.empty_e.q.val() & !self.scen[s].val();
            if self.hit_n.q.val() {
                self.hits[s].next = self.hits[s].val() | self.scen[s].val();
            }
            if self.empty_n.q.val() {
                self.empties[s].next = self.empties[s].val() | self.scen[s].val();
            }
            self.lts[s].next = (self.lt_e.q.val() & !self.scen[s].val()) | (self.lt_n.q.val() & self.scen[s].val());
            self.takers[s].next = self.hits[s].val();
            if self.precision.val() {
                self.takers[s].next = self.hits[s].val() | self.empties[s].val();
            }
            self.take[s].next = self.zero_d.val();
            self.mins[s].next = self.zero_d.val();
            for i in 0..self._d {
                if (self.scen[s].val() & self.row_bits[i].val()).any() {
                    self.rel_row.next =
                        (self.m_nn[i].q.val() & self.scen[s].val()) | (self.m_ne[i].q.val() & !self.scen[s].val());
                    self.rel_col.next =
                        (self.t_nn[i].q.val() & self.scen[s].val()) | (self.t_en[i].q.val() & !self.scen[s].val());
                } else {
                    self.rel_row.next =
                        (self.m_en[i].q.val() & self.scen[s].val()) | (self.m_ee[i].q.val() & !self.scen[s].val());
                    self.rel_col.next =
                        (self.t_ne[i].q.val() & self.scen[s].val()) | (self.t_ee[i].q.val() & !self.scen[s].val());
                }
                // The first row that takes the packet.
                if (self.takers[s].val() & self.row_bits[i].val()).any()
                    && !(self.takers[s].val() & self.before[i].val()).any()
                {
                    self.take[s].next = self.take[s].val() | self.row_bits[i].val();
                }
                // The minimum, ties to the lowest row: below every earlier row, no later row below it.
                if ((self.rel_row.val() | !self.before[i].val()) == self.ones_d.val())
                    && !(self.rel_col.val() & self.after[i].val()).any()
                {
                    self.mins[s].next = self.mins[s].val() | self.row_bits[i].val();
                }
            }
            if self.takers[s].val().any() {
                self.picks[s].next = self.take[s].val();
                if (self.empties[s].val() & self.take[s].val()).any() {
                    self.outcomes[s].next = self.code_insert.val();
                } else {
                    self.outcomes[s].next = self.code_hit.val();
                }
            } else if self.lts[s].val().any() {
                self.picks[s].next = self.mins[s].val();
                if (self.empties[s].val() & self.mins[s].val()).any() {
                    self.outcomes[s].next = self.code_insert.val();
                } else {
                    self.outcomes[s].next = self.code_admit.val();
                }
            } else {
                self.picks[s].next = self.zero_d.val();
                self.outcomes[s].next = self.code_reject.val();
            }
        }
        // The pattern `near` is.
        self.pick.next = self.picks[0].val();
        self.outcome.next = self.outcomes[0].val();
        for i in 0..self._d {
            if (self.near.val() & self.row_bits[i].val()).any() {
                self.pick.next = self.picks[i + 1].val();
                self.outcome.next = self.outcomes[i + 1].val();
            }
        }
        self.write.next = self.pick.val();
    }
}
