//! The fridge core's decision blocks: the expiry interval of a timestamp ([`ExpiryInterval`], at F1), and
//! the write decision spread over the table RMW pipeline's stages SL − 1, SL and SM ([`FridgeDecide`]) — the
//! compares of a candidate entry with a packet ([`EntryCompare`]) and the decision from them
//! ([`WriteChoice`]). See [`super::FridgeCore`].

use crate::common::bits::{Slice, ZeroExt};
use crate::common::reg::Reg;
use crate::declare_block;
use rust_hdl::prelude::*;

declare_block! {
    /// The compares of the write decision ([`WriteChoice`]) between a candidate table entry (its stored
    /// timestamp `old_ts` and signature `old_sig`) and a packet: `newer` = `old_ts > ts`, `up_to_hi` =
    /// `old_ts ≤ hi` (the packet's expiry interval, see [`WriteChoice`]), `sig_eq` = `old_sig == sig`. The
    /// carry chains of the decision are all here, so the core can run them a stage early where both sides
    /// are known then (the words the packets ahead write) and register the three bits.
    #[derive(LogicBlock)]
    pub struct EntryCompare<const S: usize, const T: usize> fn new() {
        pub old_ts: Signal<In, Bits<T>>,
        pub old_sig: Signal<In, Bits<S>>,
        pub ts: Signal<In, Bits<T>>,
        pub hi: Signal<In, Bits<T>>,
        pub sig: Signal<In, Bits<S>>,
        pub newer: Signal<Out, bool>,
        pub up_to_hi: Signal<Out, bool>,
        pub sig_eq: Signal<Out, bool>,
    }
}

impl<const S: usize, const T: usize> Logic for EntryCompare<S, T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.newer.next = self.old_ts.val() > self.ts.val();
        self.up_to_hi.next = self.old_ts.val() <= self.hi.val();
        self.sig_eq.next = self.old_sig.val() == self.sig.val();
    }
}

declare_block! {
    /// The write decision on one candidate table entry `old` (`golden::fridge::modify`), from its valid bit
    /// and its [`EntryCompare`] bits: a request overwrites when it enters and, in expiry mode, the entry is
    /// empty or its age `(ts − old.ts) mod 2^T` exceeds the expiry; a response clears the entry when it is
    /// valid and holds the response's signature (`sig_match`, which is also the report). The core takes it
    /// at its RMW pipeline's look-ahead stage SL for every candidate for the entry (the word before the
    /// packet ahead, the words the packets one and two ahead write) and registers the results; the modify
    /// stage only picks one.
    ///
    /// The age compare takes no subtraction: the ages above the expiry E are the stored timestamps in the
    /// cyclic interval `[ts+1, hi]`, `hi = ts − E − 1 mod 2^T`, prepared at F1 ([`ExpiryInterval`]: `hi`,
    /// whether the interval wraps past zero, whether `ts` is 2^T−1, whether E ≥ 2^T−1 so that `never` an
    /// age exceeds it), so the decision is two compares side by side.
    #[derive(LogicBlock)]
    pub struct WriteChoice fn new() {
        /// The candidate entry's valid bit and its compares with the packet.
        pub valid: Signal<In, bool>,
        pub newer: Signal<In, bool>,
        pub up_to_hi: Signal<In, bool>,
        pub sig_eq: Signal<In, bool>,
        pub is_request: Signal<In, bool>,
        pub enters: Signal<In, bool>,
        pub mode_expiry: Signal<In, bool>,
        pub wrap: Signal<In, bool>,
        pub ts_max: Signal<In, bool>,
        pub never: Signal<In, bool>,
        pub write: Signal<Out, bool>,
        pub sig_match: Signal<Out, bool>,
        expired: Signal<Local, bool>,
    }
}

impl Logic for WriteChoice {
    #[hdl_gen]
    fn update(&mut self) {
        if self.wrap.val() {
            self.expired.next = !self.never.val() && (self.newer.val() || self.up_to_hi.val());
        } else {
            self.expired.next = !self.never.val() && (self.newer.val() || self.ts_max.val()) && self.up_to_hi.val();
        }
        self.sig_match.next = self.valid.val() && self.sig_eq.val();
        if self.is_request.val() {
            self.write.next =
                self.enters.val() && (!self.mode_expiry.val() || !self.valid.val() || self.expired.val());
        } else {
            self.write.next = self.sig_match.val();
        }
    }
}

declare_block! {
    /// The expiry interval of a timestamp (see [`WriteChoice`]): `hi = ts − E − 1 mod 2^T`, whether
    /// `ts ≥ E + 1` (then the interval `[ts+1, hi]` wraps past zero unless ts is 2^T−1) and whether no age
    /// can exceed E (`never`: E ≥ 2^T−1). One adder: `ts + !E` in 34 bits is `ts − E − 1`.
    #[derive(LogicBlock)]
    pub struct ExpiryInterval<const T: usize> fn new() {
        pub ts: Signal<In, Bits<T>>,
        pub expiry: Signal<In, Bits<32>>,
        pub hi: Signal<Out, Bits<T>>,
        pub late: Signal<Out, bool>,
        pub never: Signal<Out, bool>,
        zx_ts: ZeroExt<T, 34>,
        zx_expiry: ZeroExt<32, 34>,
        diff: Signal<Local, Bits<34>>,
        hi_bits: Slice<34, T> = Slice::new(0),
        zx_max: ZeroExt<T, 34>,
        ones: Constant<Bits<T>> = Constant::new(Bits::from((1u64 << T) - 1)),
    }
}

impl<const T: usize> Logic for ExpiryInterval<T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.zx_ts.din.next = self.ts.val();
        self.zx_expiry.din.next = self.expiry.val();
        self.diff.next = self.zx_ts.out.val() + !self.zx_expiry.out.val();
        self.hi_bits.din.next = self.diff.val();
        self.hi.next = self.hi_bits.out.val();
        self.late.next = !self.diff.val().get_bit(33);
        self.zx_max.din.next = self.ones.val();
        self.never.next = self.zx_expiry.out.val() >= self.zx_max.out.val();
    }
}


declare_block! {
    /// The fridge's write decision ([`WriteChoice`]) on the table entry a packet meets at the modify stage SM
    /// of an RMW pipeline with two look-ahead levels (`hdl::common::rmw`), spread so that the loop from one
    /// packet's write to the next one's write-enable is a 2:1 choice between flip-flops:
    ///
    /// - **S2** (SL − 1: S2 on short RAM, S4 on registered RAM): the packet's compares ([`EntryCompare`]) with
    ///   the words the packets two and one ahead (now at SM and SL) write — a request its entry, a response
    ///   (which writes only when it matches) the empty one: only their fields are needed — registered.
    /// - **SL**: the compares with the word before the packet ahead (`pre_early`), then the decision on each
    ///   candidate: that word or — `pre_near2` — the word the packet two ahead wrote (one choice), and the
    ///   word the packet directly ahead writes (now at SM); registered.
    /// - **SM**: `pick1` (the RMW's `mod_pick` bit 1: the packet directly ahead wrote this entry) picks the
    ///   registered answer: `write`, `sig_match`.
    ///
    /// The packet's fields come from the core's stage registers: `s2_*` (S2), `sl_*` (SL, also the packet
    /// one ahead of S2), `sm_*` (SM, the packet two ahead of S2).
    #[derive(LogicBlock)]
    pub struct FridgeDecide<const E: usize, const S: usize, const T: usize> fn new() {
        pub clock: Signal<In, Clock>,
        pub s2_ts: Signal<In, Bits<T>>,
        pub s2_hi: Signal<In, Bits<T>>,
        pub s2_sig: Signal<In, Bits<S>>,
        pub sl_request: Signal<In, bool>,
        pub sl_enters: Signal<In, bool>,
        pub sl_ts: Signal<In, Bits<T>>,
        pub sl_sig: Signal<In, Bits<S>>,
        pub sl_mode_expiry: Signal<In, bool>,
        pub sl_hi: Signal<In, Bits<T>>,
        pub sl_wrap: Signal<In, bool>,
        pub sl_ts_max: Signal<In, bool>,
        pub sl_never: Signal<In, bool>,
        pub sm_request: Signal<In, bool>,
        pub sm_ts: Signal<In, Bits<T>>,
        pub sm_sig: Signal<In, Bits<S>>,
        pub pre_early: Signal<In, Bits<E>>,
        pub pre_near2: Signal<In, bool>,
        pub pick1: Signal<In, bool>,
        pub write: Signal<Out, bool>,
        pub sig_match: Signal<Out, bool>,
        /// `[0]` the word before the packet ahead (at SL), `[1]` the word the packet two ahead writes, `[2]`
        /// the word the packet directly ahead writes (both at S2, registered into `a2_*`, `a1_*`).
        cmp: Vec<EntryCompare<S, T>> = (0..3).map(|_| EntryCompare::new()).collect(),
        pre_ts: Slice<E, T> = Slice::new(1 + S),
        pre_sig: Slice<E, S> = Slice::new(1),
        a2_valid: Reg<bool>,
        a2_newer: Reg<bool>,
        a2_up_to_hi: Reg<bool>,
        a2_sig_eq: Reg<bool>,
        a1_valid: Reg<bool>,
        a1_newer: Reg<bool>,
        a1_up_to_hi: Reg<bool>,
        a1_sig_eq: Reg<bool>,
        /// The decision on each candidate, in `cmp`'s order.
        choice: Vec<WriteChoice> = (0..3).map(|_| WriteChoice::new()).collect(),
        sl_write: Reg<bool>,
        sl_match: Reg<bool>,
        x1_write: Reg<bool>,
        x1_match: Reg<bool>,
    }
}

impl<const E: usize, const S: usize, const T: usize> Logic for FridgeDecide<E, S, T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            a2_valid,
            a2_newer,
            a2_up_to_hi,
            a2_sig_eq,
            a1_valid,
            a1_newer,
            a1_up_to_hi,
            a1_sig_eq,
            sl_write,
            sl_match,
            x1_write,
            x1_match
        );
        // S2: the compares with the words the packets two and one ahead write, registered.
        self.cmp[1].old_ts.next = self.sm_ts.val();
        self.cmp[1].old_sig.next = self.sm_sig.val();
        self.cmp[2].old_ts.next = self.sl_ts.val();
        self.cmp[2].old_sig.next = self.sl_sig.val();
        for j in 1..3 {
            self.cmp[j].ts.next = self.s2_ts.val();
            self.cmp[j].hi.next = self.s2_hi.val();
            self.cmp[j].sig.next = self.s2_sig.val();
        }
        self.a2_valid.d.next = self.sm_request.val();
        self.a2_newer.d.next = self.cmp[1].newer.val();
        self.a2_up_to_hi.d.next = self.cmp[1].up_to_hi.val();
        self.a2_sig_eq.d.next = self.cmp[1].sig_eq.val();
        self.a1_valid.d.next = self.sl_request.val();
        self.a1_newer.d.next = self.cmp[2].newer.val();
        self.a1_up_to_hi.d.next = self.cmp[2].up_to_hi.val();
        self.a1_sig_eq.d.next = self.cmp[2].sig_eq.val();
        // SL: the compares with the word before the packet ahead, then the decision on every candidate.
        self.pre_ts.din.next = self.pre_early.val();
        self.pre_sig.din.next = self.pre_early.val();
        self.cmp[0].old_ts.next = self.pre_ts.out.val();
        self.cmp[0].old_sig.next = self.pre_sig.out.val();
        self.cmp[0].ts.next = self.sl_ts.val();
        self.cmp[0].hi.next = self.sl_hi.val();
        self.cmp[0].sig.next = self.sl_sig.val();
        self.choice[0].valid.next = self.pre_early.val().get_bit(0);
        self.choice[0].newer.next = self.cmp[0].newer.val();
        self.choice[0].up_to_hi.next = self.cmp[0].up_to_hi.val();
        self.choice[0].sig_eq.next = self.cmp[0].sig_eq.val();
        self.choice[1].valid.next = self.a2_valid.q.val();
        self.choice[1].newer.next = self.a2_newer.q.val();
        self.choice[1].up_to_hi.next = self.a2_up_to_hi.q.val();
        self.choice[1].sig_eq.next = self.a2_sig_eq.q.val();
        self.choice[2].valid.next = self.a1_valid.q.val();
        self.choice[2].newer.next = self.a1_newer.q.val();
        self.choice[2].up_to_hi.next = self.a1_up_to_hi.q.val();
        self.choice[2].sig_eq.next = self.a1_sig_eq.q.val();
        for j in 0..3 {
            self.choice[j].is_request.next = self.sl_request.val();
            self.choice[j].enters.next = self.sl_enters.val();
            self.choice[j].mode_expiry.next = self.sl_mode_expiry.val();
            self.choice[j].wrap.next = self.sl_wrap.val();
            self.choice[j].ts_max.next = self.sl_ts_max.val();
            self.choice[j].never.next = self.sl_never.val();
        }
        if self.pre_near2.val() {
            self.sl_write.d.next = self.choice[1].write.val();
            self.sl_match.d.next = self.choice[1].sig_match.val();
        } else {
            self.sl_write.d.next = self.choice[0].write.val();
            self.sl_match.d.next = self.choice[0].sig_match.val();
        }
        self.x1_write.d.next = self.choice[2].write.val();
        self.x1_match.d.next = self.choice[2].sig_match.val();
        // SM: the packet directly ahead's write, or the word before it.
        if self.pick1.val() {
            self.write.next = self.x1_write.q.val();
            self.sig_match.next = self.x1_match.q.val();
        } else {
            self.write.next = self.sl_write.q.val();
            self.sig_match.next = self.sl_match.q.val();
        }
    }
}
