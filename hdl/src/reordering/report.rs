//! A bucket as a report (`golden::reordering::Report::pack`): `prefix | n | o | reason`, low field first,
//! and whether the bucket holds a sample worth reporting (valid, `n > 0`). Combinational; the core has two,
//! one for the evicted resident and one for the flush walk's bucket.

use crate::common::bits::{constant, Slice, ZeroExt};
use crate::declare_block;
use golden::reordering::sizes::{bucket_n, bucket_o, BUCKET_PREFIX};
use golden::reordering::PREFIX_BITS;
use rust_hdl::prelude::*;

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct BucketReport<const F: usize, const N: usize, const O: usize, const W: usize, const R: usize>
    fn build(flushed: bool) {
        pub bucket: Signal<In, Bits<W>>,
        pub occupied: Signal<Out, bool>,
        pub report: Signal<Out, Bits<R>>,
        prefix: Slice<W, PREFIX_BITS> = Slice::new(BUCKET_PREFIX),
        n: Slice<W, N> = Slice::new(bucket_n(F, O)),
        o: Slice<W, O> = Slice::new(bucket_o(F)),
        zx_prefix: ZeroExt<PREFIX_BITS, R>,
        zx_n: ZeroExt<N, R>,
        zx_o: ZeroExt<O, R>,
        off_n: Constant<Bits<16>> = constant(PREFIX_BITS as u64),
        off_o: Constant<Bits<16>> = constant((PREFIX_BITS + N) as u64),
        off_reason: Constant<Bits<16>> = constant((PREFIX_BITS + N + O) as u64),
        /// The reason field: 1 flushed, 0 evicted.
        reason: Constant<Bits<R>> = constant(flushed as u64),
        zero_n: Constant<Bits<N>> = constant(0),
    }
}

impl<const F: usize, const N: usize, const O: usize, const W: usize, const R: usize> BucketReport<F, N, O, W, R> {
    /// `flushed`: the reason this instance reports (a generation-time constant).
    pub fn new(flushed: bool) -> Result<Self, String> {
        if R != golden::reordering::sizes::report_bits(N, O) || W < bucket_n(F, O) + N {
            return Err(format!("BucketReport<F={F}, N={N}, O={O}, W={W}, R={R}>: inconsistent widths"));
        }
        Ok(Self::build(flushed))
    }
}

impl<const F: usize, const N: usize, const O: usize, const W: usize, const R: usize> Logic
    for BucketReport<F, N, O, W, R>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.prefix.din.next = self.bucket.val();
        self.n.din.next = self.bucket.val();
        self.o.din.next = self.bucket.val();
        self.occupied.next = self.bucket.val().get_bit(0) && (self.n.out.val() != self.zero_n.val());
        self.zx_prefix.din.next = self.prefix.out.val();
        self.zx_n.din.next = self.n.out.val();
        self.zx_o.din.next = self.o.out.val();
        self.report.next = self.zx_prefix.out.val()
            | (self.zx_n.out.val() << self.off_n.val())
            | (self.zx_o.out.val() << self.off_o.val())
            | (self.reason.val() << self.off_reason.val());
    }
}
