//! FineComb core (`FinecombCore<IA, SP, CW>`): per-interval bucket accumulators (TS, C, ISD) in B banks
//! with ping-pong bucket sets, the receiver's stash of §III-D, and a readout engine that walks the frozen
//! set and the stash captures out through one record FIFO while traffic goes on. Built as sender, receiver
//! or LDA core (no ISD, no stash). Specification, stage table and the engine's rules:
//! `golden::finecomb::cycle` ([`golden::finecomb::cycle::FinecombCycleModel`] is the cycle model).
//!
//! Const generics (checked against the [`FinecombCoreConfig`] in [`FinecombCore::new`]): `IA` bucket
//! address bits (2^IA words per bucket set), `SP = SA + 1` stash memory address bits (`{region, slot}`),
//! `CW = 32·(3B + 1)` CSR config bits.
//!
//! This module is the core's top: its ports, the CSR bank and status counters, and the wiring of its
//! stages, one block (and file) each:
//! - [`front`]: input handshake, digest (D1, D1m) and the D2 descriptor ([`front::FcFront`]); per bank
//!   the sampling compare and the bucket index ([`front::FcSampler`]);
//! - [`bank`]: per bank the bucket accumulator, TS|C and ISD read-modify-write pipelines of both bucket
//!   sets ([`bank::FcBank`]);
//! - [`stash`]: per bank the stash ring, post region and capture pointers ([`stash::FcStash`]);
//! - [`capture`]: interval and capture control shared by the banks ([`capture::FcCapture`]);
//! - [`engine`]: the readout engine ([`engine::FcEngine`]);
//! - [`record`]: E1/E2, record packing and the record FIFO ([`record::FcRecord`]).

pub mod bank;
pub mod builds;
pub mod capture;
pub mod engine;
pub mod front;
pub mod record;
pub mod stash;

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::shell::{cfg_field, CoreShell, StatusSources};
use crate::common::reg::Reg;
use crate::declare_block;
use bank::{FcBank, ISD_PAYLOAD_BITS, TSC_PAYLOAD_BITS};
use capture::FcCapture;
use engine::FcEngine;
pub use front::DigestMix;
use front::{FcFront, FcSampler};
use golden::common::config::{ConfigError, TIMESTAMP_BITS};
use golden::common::csr::CsrLayout;
use golden::finecomb::cycle::FinecombCoreConfig;
use golden::finecomb::cycle::{RecordKind, FIFO_BITS, RECORD_BITS, STASH_WORD_BITS};
use golden::finecomb::{COUNTER_BITS, DIGEST_BITS, KEY_BITS, TS_SUM_BITS};
use record::FcRecord;
use rust_hdl::prelude::*;
use stash::FcStash;

/// Status registers (6 × 32 bits) of the CSR bank.
pub const STATUS_BITS: usize = 192;

/// The status registers in the order the core drives its shell's `status[i]` (placed by the layout).
/// Where the status registers come from (the shell counts the counters).
const STATUS: StatusSources = StatusSources {
    counters: &["packets", "markers", "records"],
    doubled: 0,
    flags: &["busy"],
    words: &["fifo_drops", "fifo_level"],
};

/// Config field `{prefix}{b}` of every bank `b < n`, placed by the register map.
fn fields<const CW: usize, const N: usize>(layout: &CsrLayout, prefix: &str, n: usize) -> Vec<Slice<CW, N>> {
    (0..n).map(|b| cfg_field(layout, &format!("{prefix}{b}")).expect("the core's own register map")).collect()
}

declare_block! {
    #[derive(LogicBlock)]
    pub struct FinecombCore<const IA: usize, const SP: usize, const CW: usize> fn build(
        cfg: &FinecombCoreConfig,
        shell: CoreShell<CW, STATUS_BITS>,
        layout: &CsrLayout,
        front: FcFront,
        n: usize,
        ns: usize
    ) with csr_port {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub in_valid: Signal<In, bool>,
        pub in_key: Signal<In, Bits<KEY_BITS>>,
        pub in_ts: Signal<In, Bits<TIMESTAMP_BITS>>,
        pub in_start: Signal<In, bool>,
        pub in_end: Signal<In, bool>,
        pub in_ready: Signal<Out, bool>,
        pub rec_valid: Signal<Out, bool>,
        pub rec_data: Signal<Out, Bits<RECORD_BITS>>,
        pub rec_ready: Signal<In, bool>,
        // Stages.
        shell: CoreShell<CW, STATUS_BITS> = shell,
        front: FcFront = front,
        sampler: Vec<FcSampler<IA>> = (0..n).map(|_| FcSampler::new()).collect(),
        bank: Vec<FcBank<IA>> = (0..n).map(|_| FcBank::new(cfg.shape.isd)).collect(),
        stash: Vec<FcStash<SP>> = (0..n).map(|_| FcStash::new(ns > 0)).collect(),
        capture: FcCapture = FcCapture::new(),
        engine: FcEngine<IA> = FcEngine::new(n, ns > 0),
        record: FcRecord = FcRecord::new(),
        // Run-time settings (a core without a stash reads every w_b as 0).
        cfg_thr: Vec<Slice<CW, 32>> = fields(layout, "threshold_", n),
        cfg_m: Vec<Slice<CW, 16>> = fields(layout, "buckets_", n),
        cfg_w_raw: Vec<Slice<CW, 16>> = fields(layout, "stash_depth_", n),
        cfg_w: Vec<Signal<Local, Bits<16>>> = (0..n).map(|_| Default::default()).collect(),
        flush_q: Reg<bool>,
        flush_q2: Reg<bool>,
        // D2: what every bank takes from the descriptor.
        zx_ts_payload: ZeroExt<TIMESTAMP_BITS, TSC_PAYLOAD_BITS>,
        zx_digest_payload: ZeroExt<64, ISD_PAYLOAD_BITS>,
        zx_stash_ts: ZeroExt<TIMESTAMP_BITS, STASH_WORD_BITS>,
        zx_stash_digest: ZeroExt<64, STASH_WORD_BITS>,
        stash_word: Signal<Local, Bits<STASH_WORD_BITS>>,
        pipes_ready: Signal<Local, bool>,
        all_full: Signal<Local, bool>,
        // E2: the words of the op at the record stage, from the banks and stashes.
        bucket_ts: Signal<Local, Bits<64>>,
        bucket_count: Signal<Local, Bits<32>>,
        bucket_isd: Signal<Local, Bits<64>>,
        e2_stash: Signal<Local, Bits<STASH_WORD_BITS>>,
        unused_candidates: Signal<Local, bool>,
        // Status.
        zx_level: ZeroExt<{ FIFO_BITS + 1 }, 32>,
        // Generation-time constants.
        has_stash: Constant<bool> = Constant::new(cfg.has_stash()),
        bank_ids: Vec<Constant<Bits<3>>> = consts(0..n as u64),
        kind_pre: Constant<Bits<3>> = constant(RecordKind::Pre as u64),
        zero_16: Constant<Bits<16>> = constant(0),
        zero_32: Constant<Bits<32>> = constant(0),
        zero_64: Constant<Bits<64>> = constant(0),
        off_64: Constant<Bits<8>> = constant(64),
        csr_flush: Constant<Bits<8>> = constant(cfg.csr_flush() as u64),
        zero_stash: Constant<Bits<STASH_WORD_BITS>> = Constant::new(Bits::default()),
        _n: usize = n,
        _ns: usize = ns,
    }
}

impl<const IA: usize, const SP: usize, const CW: usize> FinecombCore<IA, SP, CW> {
    pub fn new(cfg: &FinecombCoreConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        // The update logic spells some widths as literals (rust-hdl's `get_bit` and shift offsets take
        // numbers): the clear flags at bit 48 (above the timestamp) and 64 (above the digest), the count at
        // bit 64 of the TS|C word.
        if (TIMESTAMP_BITS, DIGEST_BITS, TS_SUM_BITS, COUNTER_BITS) != (48, 64, 64, 32) {
            return Err(ConfigError(
                "FinecombCore is written for 48-bit timestamps, 64-bit digests and sums, 32-bit counters".into(),
            ));
        }
        let n = cfg.banks();
        let expect =
            [("IA", IA, cfg.bucket_addr_bits), ("SP", SP, cfg.stash_slot_bits + 1), ("CW", CW, 32 * (3 * n + 1))];
        for (name, got, want) in expect {
            if got != want {
                return Err(ConfigError(format!(
                    "FinecombCore generic {name} = {got}, the configuration needs {want}"
                )));
            }
        }
        let ns = if cfg.has_stash() { n } else { 0 };
        let layout = cfg.csr_layout();
        let shell = CoreShell::new(layout.clone(), &STATUS)?;
        Ok(Self::build(cfg, shell, &layout, FcFront::new()?, n, ns))
    }
}

impl<const IA: usize, const SP: usize, const CW: usize> Logic for FinecombCore<IA, SP, CW> {
    crate::core_update!(cfg()
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, flush_q, flush_q2);
        clock!(self, clock, shell, front, capture, engine, record);
        // The per-bank config fields (a core without a stash reads every w_b as 0; the CSR pins: `core_update!`).
        for b in 0..self._n {
            self.cfg_thr[b].din.next = self.shell.cfg.val();
            self.cfg_m[b].din.next = self.shell.cfg.val();
            self.cfg_w_raw[b].din.next = self.shell.cfg.val();
            self.cfg_w[b].next = self.zero_16.val();
            if self.has_stash.val() {
                self.cfg_w[b].next = self.cfg_w_raw[b].out.val();
            }
        }
        self.flush_q.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_flush.val()) && !self.reset.val();
        self.flush_q2.d.next = self.flush_q.q.val() && !self.reset.val();

        // Front end: IN, D1, D1m; per bank sampling and index to D2.
        self.pipes_ready.next = true;
        for b in 0..self._n {
            if !self.bank[b].ready.val() {
                self.pipes_ready.next = false;
            }
        }
        self.front.reset.next = self.reset.val();
        self.front.in_valid.next = self.in_valid.val();
        self.front.in_key.next = self.in_key.val();
        self.front.in_ts.next = self.in_ts.val();
        self.front.in_start.next = self.in_start.val();
        self.front.in_end.next = self.in_end.val();
        self.front.pipes_ready.next = self.pipes_ready.val();
        self.front.idle.next = self.engine.idle.val();
        self.in_ready.next = self.front.in_ready.val();
        for b in 0..self._n {
            self.sampler[b].clock.next = self.clock.val();
            self.sampler[b].digest.next = self.front.mix_digest.val();
            self.sampler[b].thr.next = self.cfg_thr[b].out.val();
            self.sampler[b].m.next = self.cfg_m[b].out.val();
        }

        // D2: interval and capture control; a packet's words for the banks and stashes.
        self.capture.reset.next = self.reset.val();
        self.capture.d2_valid.next = self.front.d2_valid_o.val();
        self.capture.d2_marker.next = self.front.d2_marker_o.val();
        self.capture.d2_start.next = self.front.d2_start_o.val();
        self.capture.d2_end.next = self.front.d2_end_o.val();
        self.capture.job_a.next = self.engine.job_a.val();
        self.capture.start_a.next = self.engine.start_a.val();
        self.capture.start_b.next = self.engine.start_b.val();
        self.capture.flush.next = self.flush_q2.q.val();
        self.all_full.next = true;
        for b in 0..self._n {
            if !self.stash[b].full.val() {
                self.all_full.next = false;
            }
        }
        self.capture.all_full.next = self.all_full.val();
        self.zx_ts_payload.din.next = self.front.d2_ts_o.val();
        self.zx_digest_payload.din.next = self.front.d2_digest_o.val();
        self.zx_stash_ts.din.next = self.front.d2_ts_o.val();
        self.zx_stash_digest.din.next = self.front.d2_digest_o.val();
        self.stash_word.next = self.zx_stash_digest.out.val() | (self.zx_stash_ts.out.val() << self.off_64.val());

        // Readout engine.
        self.engine.reset.next = self.reset.val();
        self.engine.a_queued.next = self.capture.a_queued_o.val();
        self.engine.a_walk.next = self.capture.a_walk_o.val();
        self.engine.a_flags.next = self.capture.a_flags_o.val();
        self.engine.b_pending.next = self.capture.b_pending_o.val();
        self.engine.b_region.next = self.capture.b_region_o.val();
        self.engine.active.next = self.capture.active_o.val();
        self.engine.par.next = self.capture.par_o.val();
        self.engine.level.next = self.record.level.val();

        // Per bank: the bucket accumulator (packets into the active set, the walk's clear ops into the
        // frozen one) and the stash.
        for b in 0..self._n {
            self.engine.m[b].next = self.cfg_m[b].out.val();
            self.engine.w[b].next = self.cfg_w[b].val();
            self.engine.pre_full[b].next = self.stash[b].pre_full_o.val();
            self.engine.pre_ptr[b].next = self.stash[b].pre_ptr_o.val();
            self.engine.post_len[b].next = self.stash[b].post_len_o.val();
            self.bank[b].clock.next = self.clock.val();
            self.bank[b].reset.next = self.reset.val();
            self.bank[b].packet.next =
                self.capture.packet.val() && self.sampler[b].sampled.val() && self.capture.counting_o.val();
            self.bank[b].active.next = self.capture.active_o.val();
            self.bank[b].index.next = self.sampler[b].index.val();
            self.bank[b].ts_payload.next = self.zx_ts_payload.out.val();
            self.bank[b].isd_payload.next = self.zx_digest_payload.out.val();
            self.bank[b].walk.next = self.engine.walk.val() && (self.engine.op_bank.val() == self.bank_ids[b].val());
            self.bank[b].walk_set.next = self.engine.walk_set.val();
            self.bank[b].walk_index.next = self.engine.walk_bucket.val();
            self.stash[b].clock.next = self.clock.val();
            self.stash[b].reset.next = self.reset.val();
            self.stash[b].w.next = self.cfg_w[b].val();
            self.stash[b].sampled.next = self.capture.packet.val() && self.sampler[b].sampled.val();
            self.stash[b].word.next = self.stash_word.val();
            self.stash[b].par.next = self.capture.par_o.val();
            self.stash[b].filling.next = self.capture.filling_o.val();
            self.stash[b].close.next = self.capture.close.val();
            self.stash[b].marker.next = self.capture.eff_marker.val();
            self.stash[b].rd_region.next = self.engine.rd_region.val();
            self.stash[b].rd_pre.next = self.engine.rd_pre.val();
            self.stash[b].rd_post.next = self.engine.rd_post.val();
        }

        // E2: the record takes a clear op's old words (at most one bank clears at a time) or the stash
        // entry of its bank and kind.
        self.bucket_ts.next = self.zero_64.val();
        self.bucket_count.next = self.zero_32.val();
        self.bucket_isd.next = self.zero_64.val();
        for b in 0..self._n {
            if self.bank[b].tsc_clr.val() {
                self.bucket_ts.next = self.bank[b].clr_ts.val();
                self.bucket_count.next = self.bank[b].clr_count.val();
            }
            if self.bank[b].isd_clr.val() {
                self.bucket_isd.next = self.bank[b].clr_isd.val();
            }
        }
        self.e2_stash.next = self.zero_stash.val();
        for b in 0..self._ns {
            if self.record.e2_bank_o.val() == self.bank_ids[b].val() {
                if self.record.e2_kind_o.val() == self.kind_pre.val() {
                    self.e2_stash.next = self.stash[b].pre_word.val();
                } else {
                    self.e2_stash.next = self.stash[b].post_word.val();
                }
            }
        }
        self.record.reset.next = self.reset.val();
        self.record.issue.next = self.engine.issue.val();
        self.record.kind.next = self.engine.op_kind.val();
        self.record.bank.next = self.engine.op_bank.val();
        self.record.index.next = self.engine.op_index.val();
        self.record.bucket_ts.next = self.bucket_ts.val();
        self.record.bucket_count.next = self.bucket_count.val();
        self.record.bucket_isd.next = self.bucket_isd.val();
        self.record.stash_word.next = self.e2_stash.val();
        self.record.rec_ready.next = self.rec_ready.val();
        self.rec_valid.next = self.record.rec_valid.val();
        self.rec_data.next = self.record.rec_data.val();
        // Parts a build without a stash leaves unread (synthesis removes them).
        self.unused_candidates.next = self.record.e2_kind_o.val().any()
            || self.record.e2_bank_o.val().any()
            || self.kind_pre.val().any();
        for b in 0..self._n {
            self.unused_candidates.next =
                self.unused_candidates.val() || self.stash[b].pre_word.val().any() || self.stash[b].post_word.val().any();
        }

        // Statistics (the shell counts).
        self.shell.count[0].next = self.capture.packet.val();
        self.shell.count[1].next = self.capture.eff_marker.val();
        self.shell.count[2].next = self.record.push.val();
        self.shell.flag[0].next = !self.engine.idle.val();
        self.shell.status[0].next = self.record.drops.val();
        self.zx_level.din.next = self.record.level.val();
        self.shell.status[1].next = self.zx_level.out.val();
    });
}
