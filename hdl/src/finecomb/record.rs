//! FineComb record packer (stages E1, E2 of `golden::finecomb::cycle`): every op reaches the record
//! register two cycles after issue, takes its words there (a bucket's cleared TS|C and ISD words, or a
//! stash entry's timestamp and digest), is packed into the 182-bit record and pushed the next cycle into
//! the readout [`ReportFifo`].

use crate::common::bits::{constant, Slice, ZeroExt};
use crate::common::fifo::ReportFifo;
use crate::common::reg::Reg;
use crate::declare_block;
use golden::common::config::TIMESTAMP_BITS;
use golden::finecomb::cycle::{
    RecordKind, FIFO_BITS, RECORD_BITS, REC_BANK, REC_COUNT, REC_INDEX, REC_ISD, REC_TS, STASH_WORD_BITS,
};
use rust_hdl::prelude::*;

declare_block! {
    /// E1 → E2 → record register → FIFO.
    #[derive(LogicBlock)]
    pub struct FcRecord fn new() {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// The op issued this cycle (kind, bank, index).
        pub issue: Signal<In, bool>,
        pub kind: Signal<In, Bits<3>>,
        pub bank: Signal<In, Bits<3>>,
        pub index: Signal<In, Bits<16>>,
        /// At E2: the bucket words a clear op captured (0 otherwise) and the stash word read for the op.
        pub bucket_ts: Signal<In, Bits<64>>,
        pub bucket_count: Signal<In, Bits<32>>,
        pub bucket_isd: Signal<In, Bits<64>>,
        pub stash_word: Signal<In, Bits<STASH_WORD_BITS>>,
        /// The op at E2 (for the stash word's bank and kind mux).
        pub e2_kind_o: Signal<Out, Bits<3>>,
        pub e2_bank_o: Signal<Out, Bits<3>>,
        /// A record is pushed into the FIFO this cycle.
        pub push: Signal<Out, bool>,
        pub rec_valid: Signal<Out, bool>,
        pub rec_data: Signal<Out, Bits<RECORD_BITS>>,
        pub rec_ready: Signal<In, bool>,
        pub level: Signal<Out, Bits<{ FIFO_BITS + 1 }>>,
        pub drops: Signal<Out, Bits<32>>,
        e1_valid: Reg<bool>,
        e1_kind: Reg<Bits<3>>,
        e1_bank: Reg<Bits<3>>,
        e1_index: Reg<Bits<16>>,
        e2_valid: Reg<bool>,
        e2_kind: Reg<Bits<3>>,
        e2_bank: Reg<Bits<3>>,
        e2_index: Reg<Bits<16>>,
        rec_ts: Signal<Local, Bits<64>>,
        rec_count: Signal<Local, Bits<32>>,
        rec_isd: Signal<Local, Bits<64>>,
        stash_ts: Slice<STASH_WORD_BITS, TIMESTAMP_BITS> = Slice::new(64),
        stash_digest: Slice<STASH_WORD_BITS, 64> = Slice::new(0),
        zx_stash_rec_ts: ZeroExt<TIMESTAMP_BITS, 64>,
        zx_rec_kind: ZeroExt<3, RECORD_BITS>,
        zx_rec_bank: ZeroExt<3, RECORD_BITS>,
        zx_rec_index: ZeroExt<16, RECORD_BITS>,
        zx_rec_ts: ZeroExt<64, RECORD_BITS>,
        zx_rec_count: ZeroExt<32, RECORD_BITS>,
        zx_rec_isd: ZeroExt<64, RECORD_BITS>,
        out_v: Reg<bool>,
        out_d: Reg<Bits<RECORD_BITS>>,
        fifo: ReportFifo<FIFO_BITS, RECORD_BITS, { FIFO_BITS + 1 }>,
        kind_pre: Constant<Bits<3>> = constant(RecordKind::Pre as u64),
        kind_post: Constant<Bits<3>> = constant(RecordKind::Post as u64),
        off_rec_bank: Constant<Bits<8>> = constant(REC_BANK as u64),
        off_rec_index: Constant<Bits<8>> = constant(REC_INDEX as u64),
        off_rec_ts: Constant<Bits<8>> = constant(REC_TS as u64),
        off_rec_count: Constant<Bits<8>> = constant(REC_COUNT as u64),
        off_rec_isd: Constant<Bits<8>> = constant(REC_ISD as u64),
    }
}

impl Logic for FcRecord {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, e1_valid, e1_kind, e1_bank, e1_index, e2_valid, e2_kind, e2_bank, e2_index, out_v, out_d);
        clock!(self, clock, fifo);
        // E1, E2: every op reaches the record register two cycles after issue.
        self.e1_valid.d.next = self.issue.val();
        self.e1_kind.d.next = self.kind.val();
        self.e1_bank.d.next = self.bank.val();
        self.e1_index.d.next = self.index.val();
        self.e2_valid.d.next = self.e1_valid.q.val() && !self.reset.val();
        self.e2_kind.d.next = self.e1_kind.q.val();
        self.e2_bank.d.next = self.e1_bank.q.val();
        self.e2_index.d.next = self.e1_index.q.val();
        self.e2_kind_o.next = self.e2_kind.q.val();
        self.e2_bank_o.next = self.e2_bank.q.val();
        // E2: the record.
        self.rec_ts.next = self.bucket_ts.val();
        self.rec_count.next = self.bucket_count.val();
        self.rec_isd.next = self.bucket_isd.val();
        self.stash_ts.din.next = self.stash_word.val();
        self.stash_digest.din.next = self.stash_word.val();
        self.zx_stash_rec_ts.din.next = self.stash_ts.out.val();
        if (self.e2_kind.q.val() == self.kind_pre.val()) || (self.e2_kind.q.val() == self.kind_post.val()) {
            self.rec_ts.next = self.zx_stash_rec_ts.out.val();
            self.rec_isd.next = self.stash_digest.out.val();
        }
        self.zx_rec_kind.din.next = self.e2_kind.q.val();
        self.zx_rec_bank.din.next = self.e2_bank.q.val();
        self.zx_rec_index.din.next = self.e2_index.q.val();
        self.zx_rec_ts.din.next = self.rec_ts.val();
        self.zx_rec_count.din.next = self.rec_count.val();
        self.zx_rec_isd.din.next = self.rec_isd.val();
        self.out_v.d.next = self.e2_valid.q.val() && !self.reset.val();
        self.out_d.d.next = self.zx_rec_kind.out.val()
            | (self.zx_rec_bank.out.val() << self.off_rec_bank.val())
            | (self.zx_rec_index.out.val() << self.off_rec_index.val())
            | (self.zx_rec_ts.out.val() << self.off_rec_ts.val())
            | (self.zx_rec_count.out.val() << self.off_rec_count.val())
            | (self.zx_rec_isd.out.val() << self.off_rec_isd.val());
        // The record register → FIFO.
        self.push.next = self.out_v.q.val();
        self.fifo.reset.next = self.reset.val();
        self.fifo.in_valid.next = self.out_v.q.val();
        self.fifo.in_data.next = self.out_d.q.val();
        self.fifo.out_ready.next = self.rec_ready.val();
        self.rec_valid.next = self.fifo.out_valid.val();
        self.rec_data.next = self.fifo.out_data.val();
        self.level.next = self.fifo.level.val();
        self.drops.next = self.fifo.drops.val();
    }
}
