//! The flow-sampling core's decision (`golden::reordering::sampling::decide`, the specification), spread over
//! the banks' two look-ahead levels ([`SampleLookahead`]) so that the loop from one packet's write to the next
//! packet's write-enable is a 2:1 choice between flip-flops. [`SampleDecide`] is the decision on one candidate
//! bucket, combinational:
//!
//! - the resident: valid, same prefix and fingerprint — or forced by the packet's `force` code (1: the
//!   resident's, 2: replaces it; `golden::reordering::sampling::Force`); out of order iff bit 31 of
//!   `s − s'` (one 32-bit subtraction: serial-number order modulo 2^32);
//! - the overwrite conditions in parallel: `t − t' > T` (a `TS`-bit wrapping subtraction), `n' > C`,
//!   `o' > R`, each gated by its `conditions` bit;
//! - the word written: the packet's prefix, fingerprint and sequence number (at the same offsets in the
//!   payload as in the bucket: one masked zero-extension), its timestamp, and `n`/`o` — incremented
//!   (saturating) for the resident, `{count_first, 0}` for a newcomer;
//! - the outcome code (0 miss, 1 hit, 2 insert, 3 overwrite), out of order, and whether an overwrite
//!   evicts a sample worth reporting (`n' > 0`).

use super::Mutant;
use crate::common::bits::{constant, Slice, ZeroExt};
use crate::common::reg::Reg;
use crate::declare_block;
use golden::reordering::sizes::{
    bucket_n, bucket_o, bucket_seq, bucket_ts, payload_force, payload_ts, BUCKET_FP, BUCKET_PREFIX,
};
use golden::reordering::PREFIX_BITS;
use rust_hdl::prelude::*;

/// A constant of W bits with bits `lo..hi` set (any width: the bucket words are wider than 64 bits).
pub fn ones<const W: usize>(lo: usize, hi: usize) -> Constant<Bits<W>> {
    let one = num_bigint::BigUint::from(1u8);
    Constant::new(Bits::<W>::from(((&one << hi) - &one) ^ ((&one << lo) - &one)))
}

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct SampleDecide<const F: usize, const TS: usize, const N: usize, const O: usize, const W: usize, const P: usize>
    fn build(mutant: Mutant) {
        pub old: Signal<In, Bits<W>>,
        pub pkt: Signal<In, Bits<P>>,
        pub timeout: Signal<In, Bits<TS>>,
        pub count_c: Signal<In, Bits<N>>,
        pub reorder_r: Signal<In, Bits<O>>,
        /// Bit 0 stale (T), bit 1 seen enough (C), bit 2 reordered (R).
        pub conditions: Signal<In, Bits<3>>,
        pub count_first: Signal<In, bool>,
        pub write: Signal<Out, bool>,
        pub new_word: Signal<Out, Bits<W>>,
        pub outcome: Signal<Out, Bits<2>>,
        pub ooo: Signal<Out, bool>,
        /// An overwrite whose resident counted packets: its sample is reported.
        pub evict: Signal<Out, bool>,
        old_prefix: Slice<W, PREFIX_BITS> = Slice::new(BUCKET_PREFIX),
        old_fp: Slice<W, F> = Slice::new(BUCKET_FP),
        old_seq: Slice<W, 32> = Slice::new(bucket_seq(F)),
        old_o: Slice<W, O> = Slice::new(bucket_o(F)),
        old_n: Slice<W, N> = Slice::new(bucket_n(F, O)),
        old_ts: Slice<W, TS> = Slice::new(bucket_ts(F, O, N)),
        pkt_prefix: Slice<P, PREFIX_BITS> = Slice::new(BUCKET_PREFIX),
        pkt_fp: Slice<P, F> = Slice::new(BUCKET_FP),
        pkt_seq: Slice<P, 32> = Slice::new(bucket_seq(F)),
        pkt_ts: Slice<P, TS> = Slice::new(payload_ts(F)),
        pkt_force: Slice<P, 2> = Slice::new(payload_force(F, TS)),
        forced_resident: Signal<Local, bool>,
        forced_replace: Signal<Local, bool>,
        zx_pkt: ZeroExt<P, W>,
        zx_ts: ZeroExt<TS, W>,
        zx_o: ZeroExt<O, W>,
        zx_n: ZeroExt<N, W>,
        valid: Signal<Local, bool>,
        same: Signal<Local, bool>,
        seq_diff: Signal<Local, Bits<32>>,
        /// Bit 31 of the difference (a slice: the other bits are unused by design).
        seq_sign: Slice<32, 1> = Slice::new(31),
        late: Signal<Local, bool>,
        age: Signal<Local, Bits<TS>>,
        stale: Signal<Local, bool>,
        seen: Signal<Local, bool>,
        reordered: Signal<Local, bool>,
        n_inc: Signal<Local, Bits<N>>,
        o_inc: Signal<Local, Bits<O>>,
        new_n: Signal<Local, Bits<N>>,
        new_o: Signal<Local, Bits<O>>,
        /// The payload bits that are the bucket's prefix, fingerprint and sequence number.
        keep: Constant<Bits<W>> = ones(BUCKET_PREFIX, bucket_o(F)),
        valid_bit: Constant<Bits<W>> = ones(0, 1),
        off_ts: Constant<Bits<16>> = constant(bucket_ts(F, O, N) as u64),
        off_o: Constant<Bits<16>> = constant(bucket_o(F) as u64),
        off_n: Constant<Bits<16>> = constant(bucket_n(F, O) as u64),
        n_max: Constant<Bits<N>> = constant((1u64 << N) - 1),
        o_max: Constant<Bits<O>> = constant((1u64 << O) - 1),
        zero_n: Constant<Bits<N>> = constant(0),
        one_n: Constant<Bits<N>> = constant(1),
        zero_o: Constant<Bits<O>> = constant(0),
        one_o: Constant<Bits<O>> = constant(1),
        code_miss: Constant<Bits<2>> = constant(0),
        code_hit: Constant<Bits<2>> = constant(1),
        code_insert: Constant<Bits<2>> = constant(2),
        code_overwrite: Constant<Bits<2>> = constant(3),
        /// Test-only mutants (false in every production build, folded away): the sequence comparison
        /// reversed (`s' − s`), the reordering condition (R) dropped.
        mut_seq: Constant<bool> = Constant::new(mutant == Mutant::SeqReversed),
        mut_no_r: Constant<bool> = Constant::new(mutant == Mutant::NoReorderCondition),
    }
}

impl<const F: usize, const TS: usize, const N: usize, const O: usize, const W: usize, const P: usize>
    SampleDecide<F, TS, N, O, W, P>
{
    pub fn new(mutant: Mutant) -> Result<Self, String> {
        use golden::reordering::sizes::{bucket_bits, payload_bits};
        if W != bucket_bits(F, N, O, TS) || P != payload_bits(F, TS) || O > N || N > 32 || TS > 32 {
            return Err(format!("SampleDecide<F={F}, TS={TS}, N={N}, O={O}, W={W}, P={P}>: inconsistent widths"));
        }
        Ok(Self::build(mutant))
    }
}

impl<const F: usize, const TS: usize, const N: usize, const O: usize, const W: usize, const P: usize> Logic
    for SampleDecide<F, TS, N, O, W, P>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.old_prefix.din.next = self.old.val();
        self.old_fp.din.next = self.old.val();
        self.old_seq.din.next = self.old.val();
        self.old_o.din.next = self.old.val();
        self.old_n.din.next = self.old.val();
        self.old_ts.din.next = self.old.val();
        self.pkt_prefix.din.next = self.pkt.val();
        self.pkt_fp.din.next = self.pkt.val();
        self.pkt_seq.din.next = self.pkt.val();
        self.pkt_ts.din.next = self.pkt.val();
        self.pkt_force.din.next = self.pkt.val();
        self.forced_resident.next = self.pkt_force.out.val().get_bit(0) && !self.pkt_force.out.val().get_bit(1);
        self.forced_replace.next = self.pkt_force.out.val().get_bit(1) && !self.pkt_force.out.val().get_bit(0);
        self.valid.next = self.old.val().get_bit(0);
        self.same.next = (self.old_prefix.out.val() == self.pkt_prefix.out.val())
            && (self.old_fp.out.val() == self.pkt_fp.out.val());
        // Out of order: s − s' has its top bit set (serial-number arithmetic modulo 2^32).
        if self.mut_seq.val() {
            self.seq_diff.next = self.old_seq.out.val() - self.pkt_seq.out.val();
        } else {
            self.seq_diff.next = self.pkt_seq.out.val() - self.old_seq.out.val();
        }
        self.seq_sign.din.next = self.seq_diff.val();
        self.late.next = self.seq_sign.out.val().any();
        // The overwrite conditions.
        self.age.next = self.pkt_ts.out.val() - self.old_ts.out.val();
        self.stale.next = self.conditions.val().get_bit(0) && (self.age.val() > self.timeout.val());
        self.seen.next = self.conditions.val().get_bit(1) && (self.old_n.out.val() > self.count_c.val());
        self.reordered.next =
            self.conditions.val().get_bit(2) && (self.old_o.out.val() > self.reorder_r.val()) && !self.mut_no_r.val();
        // Saturating counts of the resident.
        if self.old_n.out.val() == self.n_max.val() {
            self.n_inc.next = self.old_n.out.val();
        } else {
            self.n_inc.next = self.old_n.out.val() + self.one_n.val();
        }
        if self.late.val() && (self.old_o.out.val() != self.o_max.val()) {
            self.o_inc.next = self.old_o.out.val() + self.one_o.val();
        } else {
            self.o_inc.next = self.old_o.out.val();
        }
        // Outcome.
        self.write.next = true;
        self.ooo.next = false;
        self.evict.next = false;
        self.new_n.next = self.zero_n.val();
        if self.count_first.val() {
            self.new_n.next = self.one_n.val();
        }
        self.new_o.next = self.zero_o.val();
        if !self.valid.val() {
            self.outcome.next = self.code_insert.val();
        } else if self.forced_resident.val() || (self.same.val() && !self.forced_replace.val()) {
            self.outcome.next = self.code_hit.val();
            self.ooo.next = self.late.val();
            self.new_n.next = self.n_inc.val();
            self.new_o.next = self.o_inc.val();
        } else if self.forced_replace.val() || self.stale.val() || self.seen.val() || self.reordered.val() {
            self.outcome.next = self.code_overwrite.val();
            self.evict.next = self.old_n.out.val() != self.zero_n.val();
        } else {
            self.outcome.next = self.code_miss.val();
            self.write.next = false;
        }
        self.zx_pkt.din.next = self.pkt.val();
        self.zx_ts.din.next = self.pkt_ts.out.val();
        self.zx_o.din.next = self.new_o.val();
        self.zx_n.din.next = self.new_n.val();
        self.new_word.next = (self.zx_pkt.out.val() & self.keep.val())
            | self.valid_bit.val()
            | (self.zx_ts.out.val() << self.off_ts.val())
            | (self.zx_o.out.val() << self.off_o.val())
            | (self.zx_n.out.val() << self.off_n.val());
    }
}

declare_block! {
    /// The decision on the banks' look-ahead stage SL and the modify stage SM (`hdl::common::rmw`, two
    /// look-ahead levels; the fridge's and IFPD's scheme):
    ///
    /// - **SL**: [`SampleDecide`] on every candidate for the packet's bucket: `[0]` the word before the
    ///   packets ahead (the bank's `pre_early`), `[1]` the word the packet two ahead wrote (the bank's
    ///   `mod_fwd1`; it is the bucket iff `pre_near2`), and the word the op directly ahead (now at SM)
    ///   writes: a packet's — its `new_word` of this block, decided for both of its picks, `[2]` its far
    ///   answer and `[3]` its near one (only `n` and `o` differ: the near register's, the other fields the
    ///   far register's), so that candidate's word is a flip-flop's — or `[4]` a walk op's cleared bucket.
    ///   The settings are read here. `[0]` or `[1]` (by `pre_near2`) and `[2]`, `[3]` or `[4]` (by `near`
    ///   and `ahead_packet`) registered, each choice after the decisions. Until stop 50 the SM pick fed the
    ///   op-ahead candidate's `n`/`o`, and through them its outcome, in the same cycle (a6: 118.8 → 121.6
    ///   MHz, 3 seeds). Tried at stop 50 and not kept: `[0]`/`[1]` per bank with the bank chosen after the
    ///   decisions (as the heavy hitters do): 120.0 MHz (118.0–121.5), +633 LUT4 — the path is the
    ///   decision's own (the packet's fields → the compares → `far_evict`, 20 cells).
    /// - **SM**: `near` (the bank's `mod_pick` bit 1: the op directly ahead wrote this bucket) picks the
    ///   registered answer: `write`, `new_word`, `outcome`, `ooo`, `evict`.
    #[derive(LogicBlock)]
    pub struct SampleLookahead<
        const F: usize, const TS: usize, const N: usize, const O: usize, const W: usize, const P: usize,
    >
    fn build(mutant: Mutant) {
        pub clock: Signal<In, Clock>,
        // SL: the packet, its bank's parts of the word, whether the op ahead in that bank is a packet (the
        // one this block holds at SM; else a walk op, or nothing — then no `near` follows), the settings.
        pub pkt: Signal<In, Bits<P>>,
        pub early: Signal<In, Bits<W>>,
        pub near2: Signal<In, bool>,
        pub near2_word: Signal<In, Bits<W>>,
        pub ahead_packet: Signal<In, bool>,
        pub timeout: Signal<In, Bits<TS>>,
        pub count_c: Signal<In, Bits<N>>,
        pub reorder_r: Signal<In, Bits<O>>,
        pub conditions: Signal<In, Bits<3>>,
        pub count_first: Signal<In, bool>,
        // SM.
        /// The bucket is the write of the op directly ahead.
        pub near: Signal<In, bool>,
        pub write: Signal<Out, bool>,
        pub new_word: Signal<Out, Bits<W>>,
        pub outcome: Signal<Out, Bits<2>>,
        pub ooo: Signal<Out, bool>,
        pub evict: Signal<Out, bool>,
        cand: Vec<SampleDecide<F, TS, N, O, W, P>> = (0..5).map(|_| SampleDecide::build(mutant)).collect(),
        /// The bits of `n` and `o` in a bucket.
        counts: Constant<Bits<W>> = ones(bucket_o(F), bucket_ts(F, O, N)),
        /// The far answer (the word before the packet ahead) and the near one, registered SL → SM.
        far_write: Reg<bool>,
        far_word: Reg<Bits<W>>,
        far_outcome: Reg<Bits<2>>,
        far_ooo: Reg<bool>,
        far_evict: Reg<bool>,
        near_write: Reg<bool>,
        near_word: Reg<Bits<W>>,
        near_outcome: Reg<Bits<2>>,
        near_ooo: Reg<bool>,
        near_evict: Reg<bool>,
        zero_w: Constant<Bits<W>> = Constant::new(Bits::default()),
    }
}

impl<const F: usize, const TS: usize, const N: usize, const O: usize, const W: usize, const P: usize>
    SampleLookahead<F, TS, N, O, W, P>
{
    pub fn new(mutant: Mutant) -> Result<Self, String> {
        SampleDecide::<F, TS, N, O, W, P>::new(mutant)?;
        Ok(Self::build(mutant))
    }
}

impl<const F: usize, const TS: usize, const N: usize, const O: usize, const W: usize, const P: usize> Logic
    for SampleLookahead<F, TS, N, O, W, P>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, far_write, far_word, far_outcome, far_ooo, far_evict, near_write, near_word, near_outcome,
            near_ooo, near_evict
        );
        // SM: `near` picks the registered answer.
        if self.near.val() {
            self.write.next = self.near_write.q.val();
            self.new_word.next = self.near_word.q.val();
            self.outcome.next = self.near_outcome.q.val();
            self.ooo.next = self.near_ooo.q.val();
            self.evict.next = self.near_evict.q.val();
        } else {
            self.write.next = self.far_write.q.val();
            self.new_word.next = self.far_word.q.val();
            self.outcome.next = self.far_outcome.q.val();
            self.ooo.next = self.far_ooo.q.val();
            self.evict.next = self.far_evict.q.val();
        }
        // SL: the candidates.
        self.cand[0].old.next = self.early.val();
        self.cand[1].old.next = self.near2_word.val();
        self.cand[2].old.next = self.far_word.q.val();
        self.cand[3].old.next =
            (self.far_word.q.val() & !self.counts.val()) | (self.near_word.q.val() & self.counts.val());
        self.cand[4].old.next = self.zero_w.val();
        for j in 0..5 {
            self.cand[j].pkt.next = self.pkt.val();
            self.cand[j].timeout.next = self.timeout.val();
            self.cand[j].count_c.next = self.count_c.val();
            self.cand[j].reorder_r.next = self.reorder_r.val();
            self.cand[j].conditions.next = self.conditions.val();
            self.cand[j].count_first.next = self.count_first.val();
        }
        if self.near2.val() {
            self.far_write.d.next = self.cand[1].write.val();
            self.far_word.d.next = self.cand[1].new_word.val();
            self.far_outcome.d.next = self.cand[1].outcome.val();
            self.far_ooo.d.next = self.cand[1].ooo.val();
            self.far_evict.d.next = self.cand[1].evict.val();
        } else {
            self.far_write.d.next = self.cand[0].write.val();
            self.far_word.d.next = self.cand[0].new_word.val();
            self.far_outcome.d.next = self.cand[0].outcome.val();
            self.far_ooo.d.next = self.cand[0].ooo.val();
            self.far_evict.d.next = self.cand[0].evict.val();
        }
        if self.ahead_packet.val() {
            if self.near.val() {
                self.near_write.d.next = self.cand[3].write.val();
                self.near_word.d.next = self.cand[3].new_word.val();
                self.near_outcome.d.next = self.cand[3].outcome.val();
                self.near_ooo.d.next = self.cand[3].ooo.val();
                self.near_evict.d.next = self.cand[3].evict.val();
            } else {
                self.near_write.d.next = self.cand[2].write.val();
                self.near_word.d.next = self.cand[2].new_word.val();
                self.near_outcome.d.next = self.cand[2].outcome.val();
                self.near_ooo.d.next = self.cand[2].ooo.val();
                self.near_evict.d.next = self.cand[2].evict.val();
            }
        } else {
            self.near_write.d.next = self.cand[4].write.val();
            self.near_word.d.next = self.cand[4].new_word.val();
            self.near_outcome.d.next = self.cand[4].outcome.val();
            self.near_ooo.d.next = self.cand[4].ooo.val();
            self.near_evict.d.next = self.cand[4].evict.val();
        }
    }
}
