//! The fridge core's S1/S2 decision blocks: the expiry interval of a timestamp ([`ExpiryInterval`]) and
//! the modify stage's write decision on one candidate entry ([`WriteDecision`]). See [`super::FridgeCore`].

use crate::common::bits::{Slice, ZeroExt};
use crate::declare_block;
use rust_hdl::prelude::*;

declare_block! {
    /// The modify stage's write decision for one candidate table entry `old` (`golden::fridge::modify`): a
    /// request overwrites when it enters and, in expiry mode, the entry is empty or its age
    /// `(ts − old.ts) mod 2^T` exceeds the expiry; a response clears the entry when it is valid and holds the
    /// response's signature (`sig_match`, which is also the report). The core instantiates one per forward
    /// candidate of its RMW pipeline.
    ///
    /// The age compare takes no subtraction here: the ages above the expiry E are the stored timestamps in
    /// the cyclic interval `[ts+1, hi]`, `hi = ts − E − 1 mod 2^T`, prepared a stage earlier ([`super::FridgeCore`]'s
    /// S1: `hi`, whether the interval wraps past zero, whether `ts` is 2^T−1, whether E ≥ 2^T−1 so that
    /// `never` an age exceeds it), so the decision is two compares side by side.
    #[derive(LogicBlock)]
    pub struct WriteDecision<const E: usize, const S: usize, const T: usize> fn new() {
        pub old: Signal<In, Bits<E>>,
        pub is_request: Signal<In, bool>,
        pub enters: Signal<In, bool>,
        pub sig: Signal<In, Bits<S>>,
        pub ts: Signal<In, Bits<T>>,
        pub mode_expiry: Signal<In, bool>,
        pub hi: Signal<In, Bits<T>>,
        pub wrap: Signal<In, bool>,
        pub ts_max: Signal<In, bool>,
        pub never: Signal<In, bool>,
        pub write: Signal<Out, bool>,
        pub sig_match: Signal<Out, bool>,
        old_sig: Slice<E, S> = Slice::new(1),
        old_ts: Slice<E, T> = Slice::new(1 + S),
        newer: Signal<Local, bool>,
        up_to_hi: Signal<Local, bool>,
        expired: Signal<Local, bool>,
    }
}

impl<const E: usize, const S: usize, const T: usize> Logic for WriteDecision<E, S, T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.old_sig.din.next = self.old.val();
        self.old_ts.din.next = self.old.val();
        self.newer.next = self.old_ts.out.val() > self.ts.val();
        self.up_to_hi.next = self.old_ts.out.val() <= self.hi.val();
        if self.wrap.val() {
            self.expired.next = !self.never.val() && (self.newer.val() || self.up_to_hi.val());
        } else {
            self.expired.next = !self.never.val() && (self.newer.val() || self.ts_max.val()) && self.up_to_hi.val();
        }
        self.sig_match.next = self.old.val().get_bit(0) && (self.old_sig.out.val() == self.sig.val());
        if self.is_request.val() {
            self.write.next =
                self.enters.val() && (!self.mode_expiry.val() || !self.old.val().get_bit(0) || self.expired.val());
        } else {
            self.write.next = self.sig_match.val();
        }
    }
}

declare_block! {
    /// The expiry interval of a timestamp (see [`WriteDecision`]): `hi = ts − E − 1 mod 2^T`, whether
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

