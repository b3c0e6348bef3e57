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
//! Structure: two shared hash units and a nonlinear finaliser ([`DigestMix`]) make the 64-bit digest (D1,
//! registered); per bank a sampling compare and the bucket index as two 16×16 multiplies (`D[31:16]·M`,
//! `D[15:0]·M`, D1m) and one add (D2); per bank and bucket set one [`RmwPipeline`] for the 96-bit `TS | C` word and, unless LDA, one for the 64-bit ISD
//! (forwarding through the adder for back-to-back packets to one bucket comes from the pipeline); per bank
//! (receiver) a ring memory and a post memory of two regions each ([`Sram`], one write port for packets,
//! one read port for the engine); the engine issues one op per cycle into a two-stage path that ends in
//! a record register and the [`ReportFifo`].

pub mod builds;

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::csr::Csr;
use crate::common::fifo::ReportFifo;
use crate::common::hash::HashUnit;
use crate::common::reg::Reg;
use crate::common::rmw::RmwPipeline;
use crate::common::sram::Sram;
use golden::common::config::{ConfigError, TIMESTAMP_BITS};
use golden::common::sram::RamPorts;
use golden::finecomb::cycle::{
    FinecombCoreConfig, RecordKind, FIFO_BITS, IN_FLIGHT, RECORD_BITS, REC_BANK, REC_COUNT, REC_INDEX, REC_ISD, REC_TS,
    STASH_WORD_BITS, TSC_WORD_BITS,
};
use golden::finecomb::{COUNTER_BITS, DIGEST_BITS, DIGEST_HI_HASH, DIGEST_LO_HASH, KEY_BITS, TS_SUM_BITS};
use rust_hdl::prelude::*;

/// Status registers (6 × 32 bits) of the CSR bank.
pub const STATUS_BITS: usize = 192;
/// RMW payloads: the timestamp (TS|C) or the digest (ISD), and a clear flag above it.
const TSC_PAYLOAD_BITS: usize = TIMESTAMP_BITS + 1;
const ISD_PAYLOAD_BITS: usize = DIGEST_BITS + 1;
/// Engine phases: none, or the kind of record the phase's ops produce, plus one (so the record kind is
/// `phase − 1`).
const PH_NONE: u64 = 0;
const PH_WALK: u64 = RecordKind::Bucket as u64 + 1;
const PH_PRE: u64 = RecordKind::Pre as u64 + 1;
const PH_POST: u64 = RecordKind::Post as u64 + 1;
const PH_DONE_A: u64 = RecordKind::DoneA as u64 + 1;
const PH_DONE_B: u64 = RecordKind::DoneB as u64 + 1;

/// The digest finaliser `golden::finecomb::mix` (S-boxes, diffusion `x ^ rotl(x, 19) ^ rotl(x, 41)`,
/// S-boxes), combinational: generated text from the golden constants, three LUT levels.
#[derive(LogicBlock, Default)]
pub struct DigestMix {
    pub din: Signal<In, Bits<64>>,
    pub out: Signal<Out, Bits<64>>,
}

impl Logic for DigestMix {
    fn update(&mut self) {
        self.out.next = Bits::from(golden::finecomb::mix(self.din.val().to_u64()));
    }
    fn connect(&mut self) {
        self.out.connect();
    }
    fn hdl(&self) -> Verilog {
        use golden::finecomb::{MIX_ROT, MIX_SBOX};
        let mut v = String::from("function [3:0] sbox(input [3:0] x);\n   case (x)\n");
        for (i, o) in MIX_SBOX.iter().enumerate() {
            v += &format!("      4'h{i:x}: sbox = 4'h{o:x};\n");
        }
        v += "      default: sbox = 4'h0;\n   endcase\nendfunction\nwire [63:0] s1;\nwire [63:0] l;\n";
        let rotl = |x: &str, r: u32| format!("{{{x}[{}:0], {x}[63:{}]}}", 63 - r, 64 - r);
        for i in 0..16 {
            v += &format!("assign s1[{}:{}] = sbox(din[{}:{}]);\n", 4 * i + 3, 4 * i, 4 * i + 3, 4 * i);
        }
        v += &format!("assign l = s1 ^ {} ^ {};\nalways @(*) begin\n", rotl("s1", MIX_ROT[0]), rotl("s1", MIX_ROT[1]));
        for i in 0..16 {
            v += &format!("   out[{}:{}] = sbox(l[{}:{}]);\n", 4 * i + 3, 4 * i, 4 * i + 3, 4 * i);
        }
        Verilog::Custom(v + "end\n")
    }
}

#[derive(LogicBlock)]
pub struct FinecombCore<const IA: usize, const SP: usize, const CW: usize> {
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
    pub csr_addr: Signal<In, Bits<8>>,
    pub csr_wr_en: Signal<In, bool>,
    pub csr_wr_data: Signal<In, Bits<32>>,
    pub csr_rd_en: Signal<In, bool>,
    pub csr_rd_valid: Signal<Out, bool>,
    pub csr_rd_data: Signal<Out, Bits<32>>,
    // Shared blocks.
    csr: Csr<CW, STATUS_BITS>,
    h_hi: HashUnit<KEY_BITS, 32>,
    h_lo: HashUnit<KEY_BITS, 32>,
    /// Per bank b and bucket set s: `tsc[2b + s]`, `isd[2b + s]` (no ISD pipelines in LDA mode).
    tsc: Vec<RmwPipeline<IA, TSC_WORD_BITS, TSC_PAYLOAD_BITS>>,
    isd: Vec<RmwPipeline<IA, 64, ISD_PAYLOAD_BITS>>,
    /// Per bank (receiver): ring regions P[0], P[1] and post regions Q[0], Q[1].
    ring: Vec<Sram<SP, STASH_WORD_BITS>>,
    post: Vec<Sram<SP, STASH_WORD_BITS>>,
    fifo: ReportFifo<FIFO_BITS, RECORD_BITS, { FIFO_BITS + 1 }>,
    // Run-time settings.
    cfg_thr: Vec<Slice<CW, 32>>,
    cfg_m: Vec<Slice<CW, 16>>,
    cfg_w_raw: Vec<Slice<CW, 16>>,
    cfg_w: Vec<Signal<Local, Bits<16>>>,
    flush_q: Reg<bool>,
    flush_q2: Reg<bool>,
    // IN: handshake.
    ready_q: Reg<bool>,
    marker_ok: Signal<Local, bool>,
    accept: Signal<Local, bool>,
    // D1.
    d1_valid: Reg<bool>,
    d1_marker: Reg<bool>,
    d1_start: Reg<bool>,
    d1_end: Reg<bool>,
    d1_ts: Reg<Bits<TIMESTAMP_BITS>>,
    d_hi16: Slice<32, 16>,
    d_lo16: Slice<32, 16>,
    zx_dlo: ZeroExt<32, 64>,
    zx_dhi: ZeroExt<32, 64>,
    mix: DigestMix,
    mix_hi: Slice<64, 32>,
    mix_lo: Slice<64, 32>,
    prod_a: Vec<Signal<Local, Bits<32>>>,
    prod_b: Vec<Signal<Local, Bits<32>>>,
    prod_b_hi: Vec<Slice<32, 16>>,
    // D1m: the digest after the finaliser.
    d1m_valid: Reg<bool>,
    d1m_marker: Reg<bool>,
    d1m_start: Reg<bool>,
    d1m_end: Reg<bool>,
    d1m_ts: Reg<Bits<TIMESTAMP_BITS>>,
    d1m_digest: Reg<Bits<64>>,
    // D2.
    d2_valid: Reg<bool>,
    d2_marker: Reg<bool>,
    d2_start: Reg<bool>,
    d2_end: Reg<bool>,
    d2_ts: Reg<Bits<TIMESTAMP_BITS>>,
    d2_digest: Reg<Bits<64>>,
    d2_sampled: Vec<Reg<bool>>,
    d2_pa: Vec<Reg<Bits<32>>>,
    d2_pb: Vec<Reg<Bits<16>>>,
    zx_pb: Vec<ZeroExt<16, 32>>,
    idx_sum: Vec<Signal<Local, Bits<32>>>,
    idx16: Vec<Slice<32, 16>>,
    idx: Vec<Slice<16, IA>>,
    d2_packet: Signal<Local, bool>,
    eff_end: Signal<Local, bool>,
    eff_start: Signal<Local, bool>,
    eff_marker: Signal<Local, bool>,
    zx_ts_payload: ZeroExt<TIMESTAMP_BITS, TSC_PAYLOAD_BITS>,
    zx_digest_payload: ZeroExt<64, ISD_PAYLOAD_BITS>,
    zx_stash_ts: ZeroExt<TIMESTAMP_BITS, STASH_WORD_BITS>,
    zx_stash_digest: ZeroExt<64, STASH_WORD_BITS>,
    stash_word: Signal<Local, Bits<STASH_WORD_BITS>>,
    // Interval and capture state.
    counting: Reg<bool>,
    active: Reg<bool>,
    par: Reg<bool>,
    filling: Reg<bool>,
    cut_req: Reg<bool>,
    b_pending: Reg<bool>,
    b_region: Reg<bool>,
    a_queued: Reg<bool>,
    a_walk: Reg<bool>,
    a_flags: Reg<Bits<16>>,
    ring_ptr: Vec<Reg<Bits<16>>>,
    ring_full: Vec<Reg<bool>>,
    pre_ptr: Vec<Reg<Bits<16>>>,
    pre_full: Vec<Reg<bool>>,
    post_fill: Vec<Reg<Bits<16>>>,
    post_len: Vec<Reg<Bits<16>>>,
    ring_next: Vec<Signal<Local, Bits<16>>>,
    ring_slot: Vec<Slice<16, SP>>,
    post_slot: Vec<Slice<16, SP>>,
    sampled_w: Vec<Signal<Local, bool>>,
    all_full: Signal<Local, bool>,
    job_a: Signal<Local, bool>,
    complete: Signal<Local, bool>,
    close: Signal<Local, bool>,
    // Engine.
    phase: Reg<Bits<3>>,
    job_bank: Reg<Bits<3>>,
    job_addr: Reg<Bits<16>>,
    job_set: Reg<bool>,
    job_region: Reg<bool>,
    idle: Signal<Local, bool>,
    len: Signal<Local, Bits<16>>,
    room: Signal<Local, bool>,
    issue: Signal<Local, bool>,
    last_bank: Signal<Local, bool>,
    op_index: Signal<Local, Bits<16>>,
    /// The slot the next Pre op reads (kept incrementally: no adder in front of the stash RAM address).
    pre_slot: Reg<Bits<16>>,
    pre_start0: Signal<Local, Bits<16>>,
    pre_start_next: Signal<Local, Bits<16>>,
    next_bank: Signal<Local, Bits<3>>,
    w_cur: Signal<Local, Bits<16>>,
    walk_index: Slice<16, IA>,
    rd_slot_pre: Slice<16, SP>,
    rd_slot_post: Slice<16, SP>,
    // E1, E2: the op path.
    e1_valid: Reg<bool>,
    e1_kind: Reg<Bits<3>>,
    e1_bank: Reg<Bits<3>>,
    e1_index: Reg<Bits<16>>,
    e2_valid: Reg<bool>,
    e2_kind: Reg<Bits<3>>,
    e2_bank: Reg<Bits<3>>,
    e2_index: Reg<Bits<16>>,
    /// Every stash memory's read data, registered on its own (the bank/kind mux comes after the register:
    /// block-RAM clock-to-out leaves no time for it in the same cycle).
    e2_ring: Vec<Reg<Bits<STASH_WORD_BITS>>>,
    e2_post: Vec<Reg<Bits<STASH_WORD_BITS>>>,
    e2_stash: Signal<Local, Bits<STASH_WORD_BITS>>,
    // Modify stages.
    tsc_old_ts: Vec<Slice<TSC_WORD_BITS, 64>>,
    tsc_old_c: Vec<Slice<TSC_WORD_BITS, 32>>,
    tsc_pay_ts: Vec<Slice<TSC_PAYLOAD_BITS, TIMESTAMP_BITS>>,
    zx_pay_ts: Vec<ZeroExt<TIMESTAMP_BITS, 64>>,
    zx_new_ts: Vec<ZeroExt<64, TSC_WORD_BITS>>,
    zx_new_c: Vec<ZeroExt<32, TSC_WORD_BITS>>,
    isd_pay: Vec<Slice<ISD_PAYLOAD_BITS, 64>>,
    unused_candidates: Signal<Local, bool>,
    // E2: record.
    rec_ts: Signal<Local, Bits<64>>,
    rec_count: Signal<Local, Bits<32>>,
    rec_isd: Signal<Local, Bits<64>>,
    stash_ts: Slice<STASH_WORD_BITS, TIMESTAMP_BITS>,
    stash_digest: Slice<STASH_WORD_BITS, 64>,
    zx_stash_rec_ts: ZeroExt<TIMESTAMP_BITS, 64>,
    zx_rec_kind: ZeroExt<3, RECORD_BITS>,
    zx_rec_bank: ZeroExt<3, RECORD_BITS>,
    zx_rec_index: ZeroExt<16, RECORD_BITS>,
    zx_rec_ts: ZeroExt<64, RECORD_BITS>,
    zx_rec_count: ZeroExt<32, RECORD_BITS>,
    zx_rec_isd: ZeroExt<64, RECORD_BITS>,
    out_v: Reg<bool>,
    out_d: Reg<Bits<RECORD_BITS>>,
    // Status.
    st_packets: Reg<Bits<32>>,
    st_markers: Reg<Bits<32>>,
    st_records: Reg<Bits<32>>,
    zx_level: ZeroExt<{ FIFO_BITS + 1 }, 32>,
    zx_status: Vec<ZeroExt<32, STATUS_BITS>>,
    st_busy: Signal<Local, Bits<32>>,
    // Generation-time constants.
    has_stash: Constant<bool>,
    bank_ids: Vec<Constant<Bits<3>>>,
    last_bank_id: Constant<Bits<3>>,
    set_ids: Vec<Constant<bool>>,
    pipe_bank: Vec<Constant<Bits<3>>>,
    ph_none: Constant<Bits<3>>,
    ph_walk: Constant<Bits<3>>,
    ph_pre: Constant<Bits<3>>,
    ph_post: Constant<Bits<3>>,
    ph_done_a: Constant<Bits<3>>,
    ph_done_b: Constant<Bits<3>>,
    one_3: Constant<Bits<3>>,
    kind_pre: Constant<Bits<3>>,
    kind_post: Constant<Bits<3>>,
    zero_3: Constant<Bits<3>>,
    zero_16: Constant<Bits<16>>,
    one_16: Constant<Bits<16>>,
    zero_32: Constant<Bits<32>>,
    one_32: Constant<Bits<32>>,
    zero_64: Constant<Bits<64>>,
    flag_end: Constant<Bits<16>>,
    flag_start: Constant<Bits<16>>,
    region_bit: Constant<Bits<SP>>,
    slot_mask: Constant<Bits<SP>>,
    room_level: Constant<Bits<{ FIFO_BITS + 1 }>>,
    csr_flush: Constant<Bits<8>>,
    off_32: Constant<Bits<8>>,
    off_64: Constant<Bits<8>>,
    off_tsc_c: Constant<Bits<8>>,
    off_rec_bank: Constant<Bits<8>>,
    off_rec_index: Constant<Bits<8>>,
    off_rec_ts: Constant<Bits<8>>,
    off_rec_count: Constant<Bits<8>>,
    off_rec_isd: Constant<Bits<8>>,
    off_status: Vec<Constant<Bits<16>>>,
    clear_tsc_payload: Constant<Bits<TSC_PAYLOAD_BITS>>,
    clear_isd_payload: Constant<Bits<ISD_PAYLOAD_BITS>>,
    zero_tsc_word: Constant<Bits<TSC_WORD_BITS>>,
    zero_stash: Constant<Bits<STASH_WORD_BITS>>,
    _n: usize,
    _ni: usize,
    _ns: usize,
}

/// `k` default-constructed parts.
fn v<T: Default>(k: usize) -> Vec<T> {
    (0..k).map(|_| T::default()).collect()
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
        let layout = cfg.csr_layout();
        let ni = if cfg.shape.isd { 2 * n } else { 0 };
        let ns = if cfg.has_stash() { n } else { 0 };
        let sa = cfg.stash_slot_bits;
        Ok(FinecombCore {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_key: Default::default(),
            in_ts: Default::default(),
            in_start: Default::default(),
            in_end: Default::default(),
            in_ready: Default::default(),
            rec_valid: Default::default(),
            rec_data: Default::default(),
            rec_ready: Default::default(),
            csr_addr: Default::default(),
            csr_wr_en: Default::default(),
            csr_wr_data: Default::default(),
            csr_rd_en: Default::default(),
            csr_rd_valid: Default::default(),
            csr_rd_data: Default::default(),
            csr: Csr::new(layout)?,
            h_hi: HashUnit::new(DIGEST_HI_HASH)?,
            h_lo: HashUnit::new(DIGEST_LO_HASH)?,
            tsc: (0..2 * n).map(|_| RmwPipeline::new(RamPorts::Dual)).collect(),
            isd: (0..ni).map(|_| RmwPipeline::new(RamPorts::Dual)).collect(),
            ring: (0..ns).map(|_| Sram::new(RamPorts::Dual, false)).collect(),
            post: (0..ns).map(|_| Sram::new(RamPorts::Dual, false)).collect(),
            fifo: Default::default(),
            cfg_thr: (0..n).map(|b| Slice::new(32 * b)).collect(),
            cfg_m: (0..n).map(|b| Slice::new(32 * (n + b))).collect(),
            cfg_w_raw: (0..n).map(|b| Slice::new(32 * (2 * n + b))).collect(),
            cfg_w: v(n),
            flush_q: Default::default(),
            flush_q2: Default::default(),
            ready_q: Default::default(),
            marker_ok: Default::default(),
            accept: Default::default(),
            d1_valid: Default::default(),
            d1_marker: Default::default(),
            d1_start: Default::default(),
            d1_end: Default::default(),
            d1_ts: Default::default(),
            d_hi16: Slice::new(16),
            d_lo16: Slice::new(0),
            zx_dlo: Default::default(),
            zx_dhi: Default::default(),
            mix: Default::default(),
            mix_hi: Slice::new(32),
            mix_lo: Slice::new(0),
            prod_a: v(n),
            prod_b: v(n),
            prod_b_hi: (0..n).map(|_| Slice::new(16)).collect(),
            d1m_valid: Default::default(),
            d1m_marker: Default::default(),
            d1m_start: Default::default(),
            d1m_end: Default::default(),
            d1m_ts: Default::default(),
            d1m_digest: Default::default(),
            d2_valid: Default::default(),
            d2_marker: Default::default(),
            d2_start: Default::default(),
            d2_end: Default::default(),
            d2_ts: Default::default(),
            d2_digest: Default::default(),
            d2_sampled: v(n),
            d2_pa: v(n),
            d2_pb: v(n),
            zx_pb: v(n),
            idx_sum: v(n),
            idx16: (0..n).map(|_| Slice::new(16)).collect(),
            idx: (0..n).map(|_| Slice::new(0)).collect(),
            d2_packet: Default::default(),
            eff_end: Default::default(),
            eff_start: Default::default(),
            eff_marker: Default::default(),
            zx_ts_payload: Default::default(),
            zx_digest_payload: Default::default(),
            zx_stash_ts: Default::default(),
            zx_stash_digest: Default::default(),
            stash_word: Default::default(),
            counting: Default::default(),
            active: Default::default(),
            par: Default::default(),
            filling: Default::default(),
            cut_req: Default::default(),
            b_pending: Default::default(),
            b_region: Default::default(),
            a_queued: Default::default(),
            a_walk: Default::default(),
            a_flags: Default::default(),
            ring_ptr: v(n),
            ring_full: v(n),
            pre_ptr: v(n),
            pre_full: v(n),
            post_fill: v(n),
            post_len: v(n),
            ring_next: v(n),
            ring_slot: (0..ns).map(|_| Slice::new(0)).collect(),
            post_slot: (0..ns).map(|_| Slice::new(0)).collect(),
            sampled_w: v(n),
            all_full: Default::default(),
            job_a: Default::default(),
            complete: Default::default(),
            close: Default::default(),
            phase: Default::default(),
            job_bank: Default::default(),
            job_addr: Default::default(),
            job_set: Default::default(),
            job_region: Default::default(),
            idle: Default::default(),
            len: Default::default(),
            room: Default::default(),
            issue: Default::default(),
            last_bank: Default::default(),
            op_index: Default::default(),
            pre_slot: Default::default(),
            pre_start0: Default::default(),
            pre_start_next: Default::default(),
            next_bank: Default::default(),
            w_cur: Default::default(),
            walk_index: Slice::new(0),
            rd_slot_pre: Slice::new(0),
            rd_slot_post: Slice::new(0),
            e1_valid: Default::default(),
            e1_kind: Default::default(),
            e1_bank: Default::default(),
            e1_index: Default::default(),
            e2_valid: Default::default(),
            e2_kind: Default::default(),
            e2_bank: Default::default(),
            e2_index: Default::default(),
            e2_ring: v(ns),
            e2_post: v(ns),
            e2_stash: Default::default(),
            tsc_old_ts: (0..2 * n).map(|_| Slice::new(0)).collect(),
            tsc_old_c: (0..2 * n).map(|_| Slice::new(64)).collect(),
            tsc_pay_ts: (0..2 * n).map(|_| Slice::new(0)).collect(),
            zx_pay_ts: v(2 * n),
            zx_new_ts: v(2 * n),
            zx_new_c: v(2 * n),
            isd_pay: (0..ni).map(|_| Slice::new(0)).collect(),
            unused_candidates: Default::default(),
            rec_ts: Default::default(),
            rec_count: Default::default(),
            rec_isd: Default::default(),
            stash_ts: Slice::new(64),
            stash_digest: Slice::new(0),
            zx_stash_rec_ts: Default::default(),
            zx_rec_kind: Default::default(),
            zx_rec_bank: Default::default(),
            zx_rec_index: Default::default(),
            zx_rec_ts: Default::default(),
            zx_rec_count: Default::default(),
            zx_rec_isd: Default::default(),
            out_v: Default::default(),
            out_d: Default::default(),
            st_packets: Default::default(),
            st_markers: Default::default(),
            st_records: Default::default(),
            zx_level: Default::default(),
            zx_status: v(6),
            st_busy: Default::default(),
            has_stash: Constant::new(cfg.has_stash()),
            bank_ids: consts(0..n as u64),
            last_bank_id: constant(n as u64 - 1),
            set_ids: vec![Constant::new(false), Constant::new(true)],
            pipe_bank: consts((0..2 * n as u64).map(|p| p / 2)),
            ph_none: constant(PH_NONE),
            ph_walk: constant(PH_WALK),
            ph_pre: constant(PH_PRE),
            ph_post: constant(PH_POST),
            ph_done_a: constant(PH_DONE_A),
            ph_done_b: constant(PH_DONE_B),
            one_3: constant(1),
            kind_pre: constant(RecordKind::Pre as u64),
            kind_post: constant(RecordKind::Post as u64),
            zero_3: constant(0),
            zero_16: constant(0),
            one_16: constant(1),
            zero_32: constant(0),
            one_32: constant(1),
            zero_64: constant(0),
            flag_end: constant(1),
            flag_start: constant(2),
            region_bit: constant(1 << sa),
            slot_mask: constant((1 << sa) - 1),
            room_level: constant(((1 << FIFO_BITS) - IN_FLIGHT) as u64),
            csr_flush: constant(cfg.csr_flush() as u64),
            off_32: constant(32),
            off_64: constant(64),
            off_tsc_c: constant(64),
            off_rec_bank: constant(REC_BANK as u64),
            off_rec_index: constant(REC_INDEX as u64),
            off_rec_ts: constant(REC_TS as u64),
            off_rec_count: constant(REC_COUNT as u64),
            off_rec_isd: constant(REC_ISD as u64),
            off_status: consts((0..6).map(|k| 32 * k)).split_off(1),
            clear_tsc_payload: constant(1 << TIMESTAMP_BITS),
            clear_isd_payload: Constant::new(Bits::<ISD_PAYLOAD_BITS>::from(1u64) << 64),
            zero_tsc_word: Constant::new(Bits::default()),
            zero_stash: Constant::new(Bits::default()),
            _n: n,
            _ni: ni,
            _ns: ns,
        })
    }
}

impl<const IA: usize, const SP: usize, const CW: usize> Logic for FinecombCore<IA, SP, CW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, flush_q, flush_q2, ready_q, d1_valid, d1_marker, d1_start, d1_end, d1_ts, d1m_valid,
            d1m_marker, d1m_start, d1m_end, d1m_ts, d1m_digest, d2_valid, d2_marker, d2_start, d2_end, d2_ts,
            d2_digest, counting, active, par, filling, cut_req, b_pending, b_region, a_queued, a_walk, a_flags, phase,
            pre_slot, job_bank, job_addr, job_set, job_region, e1_valid, e1_kind, e1_bank, e1_index, e2_valid, e2_kind,
            e2_bank, e2_index, out_v, out_d, st_packets, st_markers, st_records
        );
        clock!(self, clock, csr, h_hi, h_lo, fifo);
        for p in 0..self.tsc.len() {
            self.tsc[p].clock.next = self.clock.val();
            self.tsc[p].reset.next = self.reset.val();
        }
        for p in 0..self._ni {
            self.isd[p].clock.next = self.clock.val();
            self.isd[p].reset.next = self.reset.val();
        }
        for b in 0..self._ns {
            self.ring[b].clock.next = self.clock.val();
            self.ring[b].reset.next = self.reset.val();
            self.post[b].clock.next = self.clock.val();
            self.post[b].reset.next = self.reset.val();
        }
        for b in 0..self._n {
            self.d2_sampled[b].clock.next = self.clock.val();
            self.d2_sampled[b].d.next = self.d2_sampled[b].q.val();
            self.d2_pa[b].clock.next = self.clock.val();
            self.d2_pa[b].d.next = self.d2_pa[b].q.val();
            self.d2_pb[b].clock.next = self.clock.val();
            self.d2_pb[b].d.next = self.d2_pb[b].q.val();
            self.ring_ptr[b].clock.next = self.clock.val();
            self.ring_ptr[b].d.next = self.ring_ptr[b].q.val();
            self.ring_full[b].clock.next = self.clock.val();
            self.ring_full[b].d.next = self.ring_full[b].q.val();
            self.pre_ptr[b].clock.next = self.clock.val();
            self.pre_ptr[b].d.next = self.pre_ptr[b].q.val();
            self.pre_full[b].clock.next = self.clock.val();
            self.pre_full[b].d.next = self.pre_full[b].q.val();
            self.post_fill[b].clock.next = self.clock.val();
            self.post_fill[b].d.next = self.post_fill[b].q.val();
            self.post_len[b].clock.next = self.clock.val();
            self.post_len[b].d.next = self.post_len[b].q.val();
        }
        // CSR bank and run-time settings (a core without a stash reads every w_b as 0).
        self.csr.reset.next = self.reset.val();
        self.csr.addr.next = self.csr_addr.val();
        self.csr.wr_en.next = self.csr_wr_en.val();
        self.csr.wr_data.next = self.csr_wr_data.val();
        self.csr.rd_en.next = self.csr_rd_en.val();
        self.csr_rd_valid.next = self.csr.rd_valid.val();
        self.csr_rd_data.next = self.csr.rd_data.val();
        for b in 0..self._n {
            self.cfg_thr[b].din.next = self.csr.cfg.val();
            self.cfg_m[b].din.next = self.csr.cfg.val();
            self.cfg_w_raw[b].din.next = self.csr.cfg.val();
            self.cfg_w[b].next = self.zero_16.val();
            if self.has_stash.val() {
                self.cfg_w[b].next = self.cfg_w_raw[b].out.val();
            }
        }
        self.flush_q.d.next =
            self.csr_wr_en.val() && (self.csr_addr.val() == self.csr_flush.val()) && !self.reset.val();
        self.flush_q2.d.next = self.flush_q.q.val() && !self.reset.val();

        // Engine state as of this cycle.
        self.idle.next =
            (self.phase.q.val() == self.ph_none.val()) && !self.a_queued.q.val() && !self.b_pending.q.val();
        self.job_a.next = (self.phase.q.val() == self.ph_walk.val())
            || (self.phase.q.val() == self.ph_pre.val())
            || (self.phase.q.val() == self.ph_done_a.val());

        // IN: packets always; a marker only when the engine is idle and no marker is in D1/D1m/D2.
        self.ready_q.d.next = true;
        for p in 0..self.tsc.len() {
            if !self.tsc[p].in_ready.val() {
                self.ready_q.d.next = false;
            }
        }
        for p in 0..self._ni {
            if !self.isd[p].in_ready.val() {
                self.ready_q.d.next = false;
            }
        }
        self.marker_ok.next = self.idle.val()
            && !(self.d1_valid.q.val() && self.d1_marker.q.val())
            && !(self.d1m_valid.q.val() && self.d1m_marker.q.val())
            && !(self.d2_valid.q.val() && self.d2_marker.q.val());
        self.in_ready.next = !self.reset.val()
            && self.ready_q.q.val()
            && !(self.in_valid.val() && (self.in_start.val() || self.in_end.val()) && !self.marker_ok.val());
        self.accept.next = self.in_valid.val() && self.in_ready.val();
        self.h_hi.key.next = self.in_key.val();
        self.h_hi.load.next = self.accept.val();
        self.h_lo.key.next = self.in_key.val();
        self.h_lo.load.next = self.accept.val();
        self.d1_valid.d.next = self.accept.val() && !self.reset.val();
        if self.accept.val() {
            self.d1_marker.d.next = self.in_start.val() || self.in_end.val();
            self.d1_start.d.next = self.in_start.val();
            self.d1_end.d.next = self.in_end.val();
            self.d1_ts.d.next = self.in_ts.val();
        }

        // D1: the digest: hash registers, then the finaliser, registered.
        self.zx_dlo.din.next = self.h_lo.hash.val();
        self.zx_dhi.din.next = self.h_hi.hash.val();
        self.mix.din.next = self.zx_dlo.out.val() | (self.zx_dhi.out.val() << self.off_32.val());
        self.d1m_digest.d.next = self.mix.out.val();
        self.d1m_valid.d.next = self.d1_valid.q.val() && !self.reset.val();
        self.d1m_marker.d.next = self.d1_marker.q.val();
        self.d1m_start.d.next = self.d1_start.q.val();
        self.d1m_end.d.next = self.d1_end.q.val();
        self.d1m_ts.d.next = self.d1_ts.q.val();

        // D1m: sampling compares and the index's partial products, per bank.
        self.mix_hi.din.next = self.d1m_digest.q.val();
        self.mix_lo.din.next = self.d1m_digest.q.val();
        self.d_hi16.din.next = self.mix_lo.out.val();
        self.d_lo16.din.next = self.mix_lo.out.val();
        for b in 0..self._n {
            self.prod_a[b].next = self.d_hi16.out.val() * self.cfg_m[b].out.val();
            self.prod_b[b].next = self.d_lo16.out.val() * self.cfg_m[b].out.val();
            self.prod_b_hi[b].din.next = self.prod_b[b].val();
            self.d2_sampled[b].d.next = self.mix_hi.out.val() <= self.cfg_thr[b].out.val();
            self.d2_pa[b].d.next = self.prod_a[b].val();
            self.d2_pb[b].d.next = self.prod_b_hi[b].out.val();
        }
        self.d2_valid.d.next = self.d1m_valid.q.val() && !self.reset.val();
        self.d2_marker.d.next = self.d1m_marker.q.val();
        self.d2_start.d.next = self.d1m_start.q.val();
        self.d2_end.d.next = self.d1m_end.q.val();
        self.d2_ts.d.next = self.d1m_ts.q.val();
        self.d2_digest.d.next = self.d1m_digest.q.val();

        // D2: bucket index; a packet's updates or a marker's bookkeeping.
        self.d2_packet.next = self.d2_valid.q.val() && !self.d2_marker.q.val() && !self.reset.val();
        self.eff_end.next = self.d2_end.q.val() && self.counting.q.val();
        self.eff_start.next = self.d2_start.q.val() && (!self.counting.q.val() || self.d2_end.q.val());
        self.eff_marker.next = self.d2_valid.q.val()
            && self.d2_marker.q.val()
            && (self.eff_end.val() || self.eff_start.val())
            && !self.reset.val();
        self.zx_ts_payload.din.next = self.d2_ts.q.val();
        self.zx_digest_payload.din.next = self.d2_digest.q.val();
        self.zx_stash_ts.din.next = self.d2_ts.q.val();
        self.zx_stash_digest.din.next = self.d2_digest.q.val();
        self.stash_word.next = self.zx_stash_digest.out.val() | (self.zx_stash_ts.out.val() << self.off_64.val());
        for b in 0..self._n {
            self.zx_pb[b].din.next = self.d2_pb[b].q.val();
            self.idx_sum[b].next = self.d2_pa[b].q.val() + self.zx_pb[b].out.val();
            self.idx16[b].din.next = self.idx_sum[b].val();
            self.idx[b].din.next = self.idx16[b].out.val();
            self.sampled_w[b].next = self.d2_packet.val() && self.d2_sampled[b].q.val() && self.cfg_w[b].val().any();
            if (self.ring_ptr[b].q.val() + self.one_16.val()) == self.cfg_w[b].val() {
                self.ring_next[b].next = self.zero_16.val();
            } else {
                self.ring_next[b].next = self.ring_ptr[b].q.val() + self.one_16.val();
            }
        }
        for b in 0..self._ns {
            self.ring_slot[b].din.next = self.ring_ptr[b].q.val();
            self.post_slot[b].din.next = self.post_fill[b].q.val();
            self.ring[b].we.next = self.sampled_w[b].val();
            self.post[b].we.next =
                self.sampled_w[b].val() && self.filling.q.val() && (self.post_fill[b].q.val() < self.cfg_w[b].val());
            self.ring[b].wdata.next = self.stash_word.val();
            self.post[b].wdata.next = self.stash_word.val();
            if self.par.q.val() {
                self.ring[b].waddr.next = (self.ring_slot[b].out.val() & self.slot_mask.val()) | self.region_bit.val();
                self.post[b].waddr.next = (self.post_slot[b].out.val() & self.slot_mask.val()) | self.region_bit.val();
            } else {
                self.ring[b].waddr.next = self.ring_slot[b].out.val() & self.slot_mask.val();
                self.post[b].waddr.next = self.post_slot[b].out.val() & self.slot_mask.val();
            }
        }

        // Capture completion (the marker below takes precedence), packets' stash pointers.
        self.all_full.next = true;
        for b in 0..self._n {
            if self.post_fill[b].q.val() != self.cfg_w[b].val() {
                self.all_full.next = false;
            }
        }
        self.complete.next = self.filling.q.val()
            && (self.all_full.val() || self.cut_req.q.val())
            && !self.a_queued.q.val()
            && !self.job_a.val();
        // The open capture closes (job B pending with the post lengths so far) when it completes or an
        // effective marker cuts it (no job B starts in such a cycle: b_pending was clear).
        self.close.next = self.complete.val() || (self.eff_marker.val() && self.filling.q.val());
        if self.close.val() {
            self.b_pending.d.next = true;
            self.b_region.d.next = self.par.q.val();
            for b in 0..self._n {
                self.post_len[b].d.next = self.post_fill[b].q.val();
            }
        }
        if self.complete.val() {
            self.filling.d.next = false;
            self.cut_req.d.next = false;
        }
        for b in 0..self._n {
            if self.sampled_w[b].val() {
                self.ring_ptr[b].d.next = self.ring_next[b].val();
                if (self.ring_ptr[b].q.val() + self.one_16.val()) == self.cfg_w[b].val() {
                    self.ring_full[b].d.next = true;
                }
                if self.filling.q.val() && (self.post_fill[b].q.val() < self.cfg_w[b].val()) {
                    self.post_fill[b].d.next = self.post_fill[b].q.val() + self.one_16.val();
                }
            }
        }

        // Readout engine: start a job, or issue one op of the current phase.
        self.room.next = self.fifo.level.val() <= self.room_level.val();
        self.len.next = self.one_16.val();
        // Pre ops read from `pre_slot`: bank b's oldest entry first (`pre_full_b ? pre_ptr_b : 0`), then on
        // with a wrap at w_b; its start for the next bank is prepared beside the current one.
        self.w_cur.next = self.zero_16.val();
        self.pre_start_next.next = self.zero_16.val();
        self.next_bank.next = self.job_bank.q.val() + self.one_3.val();
        self.pre_start0.next = self.zero_16.val();
        if self.pre_full[0].q.val() {
            self.pre_start0.next = self.pre_ptr[0].q.val();
        }
        for b in 0..self._n {
            if (self.next_bank.val() == self.bank_ids[b].val()) && self.pre_full[b].q.val() {
                self.pre_start_next.next = self.pre_ptr[b].q.val();
            }
            if self.job_bank.q.val() == self.bank_ids[b].val() {
                if self.phase.q.val() == self.ph_walk.val() {
                    self.len.next = self.cfg_m[b].out.val();
                }
                if self.phase.q.val() == self.ph_pre.val() {
                    if self.pre_full[b].q.val() {
                        self.len.next = self.cfg_w[b].val();
                    } else {
                        self.len.next = self.pre_ptr[b].q.val();
                    }
                }
                if self.phase.q.val() == self.ph_post.val() {
                    self.len.next = self.post_len[b].q.val();
                }
                self.w_cur.next = self.cfg_w[b].val();
            }
        }
        self.last_bank.next = self.job_bank.q.val() == self.last_bank_id.val();
        self.issue.next = (self.phase.q.val() != self.ph_none.val())
            && (self.job_addr.q.val() < self.len.val())
            && self.room.val()
            && !self.reset.val();
        if self.phase.q.val() == self.ph_done_a.val() {
            self.op_index.next = self.a_flags.q.val();
        } else {
            self.op_index.next = self.job_addr.q.val();
        }
        if self.phase.q.val() == self.ph_none.val() {
            if self.b_pending.q.val() {
                self.b_pending.d.next = false;
                self.job_region.d.next = self.b_region.q.val();
                self.job_bank.d.next = self.zero_3.val();
                self.job_addr.d.next = self.zero_16.val();
                if self.has_stash.val() {
                    self.phase.d.next = self.ph_post.val();
                } else {
                    self.phase.d.next = self.ph_done_b.val();
                }
            } else if self.a_queued.q.val() {
                self.a_queued.d.next = false;
                self.job_set.d.next = !self.active.q.val();
                self.job_region.d.next = !self.par.q.val();
                self.job_bank.d.next = self.zero_3.val();
                self.job_addr.d.next = self.zero_16.val();
                self.pre_slot.d.next = self.pre_start0.val();
                if self.a_walk.q.val() {
                    self.phase.d.next = self.ph_walk.val();
                } else if self.has_stash.val() {
                    self.phase.d.next = self.ph_pre.val();
                } else {
                    self.phase.d.next = self.ph_done_a.val();
                }
            }
        } else if self.job_addr.q.val() < self.len.val() {
            if self.room.val() {
                self.job_addr.d.next = self.job_addr.q.val() + self.one_16.val();
                if self.phase.q.val() == self.ph_pre.val() {
                    if (self.pre_slot.q.val() + self.one_16.val()) == self.w_cur.val() {
                        self.pre_slot.d.next = self.zero_16.val();
                    } else {
                        self.pre_slot.d.next = self.pre_slot.q.val() + self.one_16.val();
                    }
                }
            }
        } else if (self.phase.q.val() == self.ph_done_a.val()) || (self.phase.q.val() == self.ph_done_b.val()) {
            self.phase.d.next = self.ph_none.val();
        } else {
            self.job_addr.d.next = self.zero_16.val();
            if self.last_bank.val() {
                self.pre_slot.d.next = self.pre_start0.val();
                self.job_bank.d.next = self.zero_3.val();
                if self.phase.q.val() == self.ph_post.val() {
                    self.phase.d.next = self.ph_done_b.val();
                } else if (self.phase.q.val() == self.ph_walk.val()) && self.has_stash.val() {
                    self.phase.d.next = self.ph_pre.val();
                } else {
                    self.phase.d.next = self.ph_done_a.val();
                }
            } else {
                self.pre_slot.d.next = self.pre_start_next.val();
                self.job_bank.d.next = self.next_bank.val();
            }
        }

        // A marker (its cut of the open capture is above): open marker m's capture, swap the bucket set, queue
        // job A.
        if self.eff_marker.val() {
            for b in 0..self._n {
                self.pre_ptr[b].d.next = self.ring_ptr[b].q.val();
                self.pre_full[b].d.next = self.ring_full[b].q.val();
                self.ring_ptr[b].d.next = self.zero_16.val();
                self.ring_full[b].d.next = false;
                self.post_fill[b].d.next = self.zero_16.val();
            }
            self.par.d.next = !self.par.q.val();
            self.filling.d.next = true;
            self.cut_req.d.next = false;
            if self.eff_end.val() {
                self.active.d.next = !self.active.q.val();
                self.counting.d.next = false;
            }
            if self.eff_start.val() {
                self.counting.d.next = true;
            }
            self.a_queued.d.next = true;
            self.a_walk.d.next = self.eff_end.val();
            self.a_flags.d.next = self.zero_16.val();
            if self.eff_end.val() && self.eff_start.val() {
                self.a_flags.d.next = self.flag_end.val() | self.flag_start.val();
            } else if self.eff_end.val() {
                self.a_flags.d.next = self.flag_end.val();
            } else if self.eff_start.val() {
                self.a_flags.d.next = self.flag_start.val();
            }
        }
        if self.flush_q2.q.val() {
            self.cut_req.d.next = true;
        }
        if self.reset.val() {
            self.counting.d.next = false;
            self.active.d.next = false;
            self.par.d.next = false;
            self.filling.d.next = false;
            self.cut_req.d.next = false;
            self.b_pending.d.next = false;
            self.a_queued.d.next = false;
            self.phase.d.next = self.ph_none.val();
            for b in 0..self._n {
                self.ring_ptr[b].d.next = self.zero_16.val();
                self.ring_full[b].d.next = false;
                self.post_fill[b].d.next = self.zero_16.val();
            }
        }

        // Bucket pipelines: packets into the active set, the walk's clear ops into the frozen one.
        self.walk_index.din.next = self.job_addr.q.val();
        for p in 0..self.tsc.len() {
            if self.d2_packet.val()
                && self.d2_sampled[p / 2].q.val()
                && self.counting.q.val()
                && (self.active.q.val() == self.set_ids[p % 2].val())
            {
                self.tsc[p].in_valid.next = true;
                self.tsc[p].in_index.next = self.idx[p / 2].out.val();
                self.tsc[p].in_payload.next = self.zx_ts_payload.out.val();
            } else {
                self.tsc[p].in_valid.next = self.issue.val()
                    && (self.phase.q.val() == self.ph_walk.val())
                    && (self.job_bank.q.val() == self.pipe_bank[p].val())
                    && (self.job_set.q.val() == self.set_ids[p % 2].val());
                self.tsc[p].in_index.next = self.walk_index.out.val();
                self.tsc[p].in_payload.next = self.clear_tsc_payload.val();
            }
            // Modify: TS += ts, C += 1; a clear op writes 0 (its old word goes into the record).
            self.tsc_old_ts[p].din.next = self.tsc[p].mod_old.val();
            self.tsc_old_c[p].din.next = self.tsc[p].mod_old.val();
            self.tsc_pay_ts[p].din.next = self.tsc[p].mod_payload.val();
            self.zx_pay_ts[p].din.next = self.tsc_pay_ts[p].out.val();
            self.zx_new_ts[p].din.next = self.tsc_old_ts[p].out.val() + self.zx_pay_ts[p].out.val();
            self.zx_new_c[p].din.next = self.tsc_old_c[p].out.val() + self.one_32.val();
            self.tsc[p].mod_write.next = true;
            if self.tsc[p].mod_payload.val().get_bit(48) {
                self.tsc[p].mod_new.next = self.zero_tsc_word.val();
            } else {
                self.tsc[p].mod_new.next =
                    self.zx_new_ts[p].out.val() | (self.zx_new_c[p].out.val() << self.off_tsc_c.val());
            }
        }
        for p in 0..self._ni {
            self.isd[p].in_valid.next = self.tsc[p].in_valid.val();
            self.isd[p].in_index.next = self.tsc[p].in_index.val();
            if self.tsc[p].in_payload.val().get_bit(48) {
                self.isd[p].in_payload.next = self.clear_isd_payload.val();
            } else {
                self.isd[p].in_payload.next = self.zx_digest_payload.out.val();
            }
            self.isd_pay[p].din.next = self.isd[p].mod_payload.val();
            self.isd[p].mod_write.next = true;
            if self.isd[p].mod_payload.val().get_bit(64) {
                self.isd[p].mod_new.next = self.zero_64.val();
            } else {
                self.isd[p].mod_new.next = self.isd[p].mod_old.val() ^ self.isd_pay[p].out.val();
            }
        }
        // Stash reads: pre(m) oldest first out of the ring region, post(m) in order.
        self.rd_slot_pre.din.next = self.pre_slot.q.val();
        self.rd_slot_post.din.next = self.job_addr.q.val();
        for b in 0..self._ns {
            if self.job_region.q.val() {
                self.ring[b].raddr.next = (self.rd_slot_pre.out.val() & self.slot_mask.val()) | self.region_bit.val();
                self.post[b].raddr.next = (self.rd_slot_post.out.val() & self.slot_mask.val()) | self.region_bit.val();
            } else {
                self.ring[b].raddr.next = self.rd_slot_pre.out.val() & self.slot_mask.val();
                self.post[b].raddr.next = self.rd_slot_post.out.val() & self.slot_mask.val();
            }
        }

        // E1, E2: every op reaches the record register two cycles after issue.
        self.e1_valid.d.next = self.issue.val();
        self.e1_kind.d.next = self.phase.q.val() - self.one_3.val();
        self.e1_bank.d.next = self.job_bank.q.val();
        self.e1_index.d.next = self.op_index.val();
        self.e2_valid.d.next = self.e1_valid.q.val() && !self.reset.val();
        self.e2_kind.d.next = self.e1_kind.q.val();
        self.e2_bank.d.next = self.e1_bank.q.val();
        self.e2_index.d.next = self.e1_index.q.val();
        self.e2_stash.next = self.zero_stash.val();
        for b in 0..self._ns {
            self.e2_ring[b].clock.next = self.clock.val();
            self.e2_ring[b].d.next = self.ring[b].rdata.val();
            self.e2_post[b].clock.next = self.clock.val();
            self.e2_post[b].d.next = self.post[b].rdata.val();
            if self.e2_bank.q.val() == self.bank_ids[b].val() {
                if self.e2_kind.q.val() == self.kind_pre.val() {
                    self.e2_stash.next = self.e2_ring[b].q.val();
                } else {
                    self.e2_stash.next = self.e2_post[b].q.val();
                }
            }
        }
        self.rec_ts.next = self.zero_64.val();
        self.rec_count.next = self.zero_32.val();
        self.rec_isd.next = self.zero_64.val();
        for p in 0..self.tsc.len() {
            if self.tsc[p].mod_valid.val() && self.tsc[p].mod_payload.val().get_bit(48) {
                self.rec_ts.next = self.tsc_old_ts[p].out.val();
                self.rec_count.next = self.tsc_old_c[p].out.val();
            }
        }
        for p in 0..self._ni {
            if self.isd[p].mod_valid.val() && self.isd[p].mod_payload.val().get_bit(64) {
                self.rec_isd.next = self.isd[p].mod_old.val();
            }
        }
        self.stash_ts.din.next = self.e2_stash.val();
        self.stash_digest.din.next = self.e2_stash.val();
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
        self.fifo.reset.next = self.reset.val();
        self.fifo.in_valid.next = self.out_v.q.val();
        self.fifo.in_data.next = self.out_d.q.val();
        self.fifo.out_ready.next = self.rec_ready.val();
        self.rec_valid.next = self.fifo.out_valid.val();
        self.rec_data.next = self.fifo.out_data.val();
        // Parts a build without ISDs or without a stash leaves unread (synthesis removes them).
        self.unused_candidates.next = self.stash_word.val().any()
            || self.zx_digest_payload.out.val().any()
            || self.rd_slot_pre.out.val().any()
            || self.rd_slot_post.out.val().any()
            || (self.slot_mask.val() | self.region_bit.val()).any()
            || self.clear_isd_payload.val().any();
        for b in 0..self._ns {
            self.unused_candidates.next =
                self.unused_candidates.val() || self.ring[b].busy.val() || self.post[b].busy.val();
        }
        for p in 0..self.tsc.len() {
            self.unused_candidates.next = self.unused_candidates.val()
                || self.tsc[p].mod_ram.val().any()
                || self.tsc[p].mod_s3.val().any()
                || self.tsc[p].mod_s4.val().any()
                || self.tsc[p].mod_s5.val().any()
                || self.tsc[p].mod_pick.val().any()
                || self.tsc[p].mod_index.val().any();
        }
        for p in 0..self._ni {
            self.unused_candidates.next = self.unused_candidates.val()
                || self.isd[p].mod_ram.val().any()
                || self.isd[p].mod_s3.val().any()
                || self.isd[p].mod_s4.val().any()
                || self.isd[p].mod_s5.val().any()
                || self.isd[p].mod_pick.val().any()
                || self.isd[p].mod_index.val().any();
        }

        // Status counters.
        if self.d2_packet.val() {
            self.st_packets.d.next = self.st_packets.q.val() + self.one_32.val();
        }
        if self.eff_marker.val() {
            self.st_markers.d.next = self.st_markers.q.val() + self.one_32.val();
        }
        if self.out_v.q.val() {
            self.st_records.d.next = self.st_records.q.val() + self.one_32.val();
        }
        if self.reset.val() {
            self.st_packets.d.next = self.zero_32.val();
            self.st_markers.d.next = self.zero_32.val();
            self.st_records.d.next = self.zero_32.val();
        }
        self.st_busy.next = self.zero_32.val();
        if !self.idle.val() {
            self.st_busy.next = self.one_32.val();
        }
        self.zx_level.din.next = self.fifo.level.val();
        self.zx_status[0].din.next = self.st_packets.q.val();
        self.zx_status[1].din.next = self.st_markers.q.val();
        self.zx_status[2].din.next = self.st_records.q.val();
        self.zx_status[3].din.next = self.fifo.drops.val();
        self.zx_status[4].din.next = self.zx_level.out.val();
        self.zx_status[5].din.next = self.st_busy.val();
        self.csr.status.next = self.zx_status[0].out.val()
            | (self.zx_status[1].out.val() << self.off_status[0].val())
            | (self.zx_status[2].out.val() << self.off_status[1].val())
            | (self.zx_status[3].out.val() << self.off_status[2].val())
            | (self.zx_status[4].out.val() << self.off_status[3].val())
            | (self.zx_status[5].out.val() << self.off_status[4].val());
    }
}
