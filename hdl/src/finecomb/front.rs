//! FineComb front end (stages IN, D1, D1m → D2 of `golden::finecomb::cycle`): the input handshake, the
//! digest (two hash units, the finaliser [`DigestMix`], registered at D1m) and the descriptor registers up
//! to D2 ([`FcFront`], shared by every bank), and per bank the sampling compare and the bucket index as
//! two 16×16 partial products registered at D2 and one add ([`FcSampler`]).

use crate::common::bits::{constant, Slice, ZeroExt};
use crate::common::hash::HashUnit;
use crate::common::reg::Reg;
use crate::declare_block;
use golden::common::config::{ConfigError, TIMESTAMP_BITS};
use golden::finecomb::{DIGEST_HI_HASH, DIGEST_LO_HASH, KEY_BITS};
use rust_hdl::prelude::*;

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

declare_block! {
    /// The shared packet path IN → D1 → D1m → D2: `in_ready` (packets always; a marker only when the
    /// readout engine is idle and no marker is in D1/D1m/D2), the digest, and the D2 descriptor registers
    /// (`d2_*`; the per-bank sampling and index registers are in [`FcSampler`]).
    #[derive(LogicBlock)]
    pub struct FcFront fn build(hi: HashUnit<KEY_BITS, 32>, lo: HashUnit<KEY_BITS, 32>) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub in_valid: Signal<In, bool>,
        pub in_key: Signal<In, Bits<KEY_BITS>>,
        pub in_ts: Signal<In, Bits<TIMESTAMP_BITS>>,
        pub in_start: Signal<In, bool>,
        pub in_end: Signal<In, bool>,
        pub in_ready: Signal<Out, bool>,
        /// Every bucket pipeline's `in_ready` this cycle (registered here as `ready_q`).
        pub pipes_ready: Signal<In, bool>,
        /// The readout engine is idle.
        pub idle: Signal<In, bool>,
        /// The digest at D1m (the samplers' input).
        pub mix_digest: Signal<Out, Bits<64>>,
        /// The descriptor at D2.
        pub d2_valid_o: Signal<Out, bool>,
        pub d2_marker_o: Signal<Out, bool>,
        pub d2_start_o: Signal<Out, bool>,
        pub d2_end_o: Signal<Out, bool>,
        pub d2_ts_o: Signal<Out, Bits<TIMESTAMP_BITS>>,
        pub d2_digest_o: Signal<Out, Bits<64>>,
        h_hi: HashUnit<KEY_BITS, 32> = hi,
        h_lo: HashUnit<KEY_BITS, 32> = lo,
        ready_q: Reg<bool>,
        marker_ok: Signal<Local, bool>,
        accept: Signal<Local, bool>,
        // D1.
        d1_valid: Reg<bool>,
        d1_marker: Reg<bool>,
        d1_start: Reg<bool>,
        d1_end: Reg<bool>,
        d1_ts: Reg<Bits<TIMESTAMP_BITS>>,
        zx_dlo: ZeroExt<32, 64>,
        zx_dhi: ZeroExt<32, 64>,
        mix: DigestMix,
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
        off_32: Constant<Bits<8>> = constant(32),
    }
}

impl FcFront {
    pub fn new() -> Result<Self, ConfigError> {
        Ok(Self::build(HashUnit::new(DIGEST_HI_HASH)?, HashUnit::new(DIGEST_LO_HASH)?))
    }
}

impl Logic for FcFront {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ready_q, d1_valid, d1_marker, d1_start, d1_end, d1_ts, d1m_valid, d1m_marker, d1m_start,
            d1m_end, d1m_ts, d1m_digest, d2_valid, d2_marker, d2_start, d2_end, d2_ts, d2_digest
        );
        clock!(self, clock, h_hi, h_lo);
        // IN: packets always; a marker only when the engine is idle and no marker is in D1/D1m/D2.
        self.ready_q.d.next = self.pipes_ready.val();
        self.marker_ok.next = self.idle.val()
            && !(self.d1_valid.q.val() && self.d1_marker.q.val())
            && !(self.d1m_valid.q.val() && self.d1m_marker.q.val())
            && !(self.d2_valid.q.val() && self.d2_marker.q.val());
        self.in_ready.next = !self.reset.val()
            && self.ready_q.q.val()
            && !(self.in_valid.val() && (self.in_start.val() || self.in_end.val()) && !self.marker_ok.val());
        self.accept.next = self.in_valid.val() && self.in_ready.val();
        // D1 never holds (the path IN → D2 does not stall), so its data registers and the hash registers
        // load every cycle: only `d1_valid` depends on the handshake, and no enable fans out from it. What
        // they hold when `d1_valid` is low is never used (every reader qualifies by its valid).
        self.h_hi.key.next = self.in_key.val();
        self.h_hi.load.next = true;
        self.h_lo.key.next = self.in_key.val();
        self.h_lo.load.next = true;
        self.d1_valid.d.next = self.accept.val() && !self.reset.val();
        self.d1_marker.d.next = self.in_start.val() || self.in_end.val();
        self.d1_start.d.next = self.in_start.val();
        self.d1_end.d.next = self.in_end.val();
        self.d1_ts.d.next = self.in_ts.val();

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

        // D1m → D2 (the samplers take `mix_digest`).
        self.mix_digest.next = self.d1m_digest.q.val();
        self.d2_valid.d.next = self.d1m_valid.q.val() && !self.reset.val();
        self.d2_marker.d.next = self.d1m_marker.q.val();
        self.d2_start.d.next = self.d1m_start.q.val();
        self.d2_end.d.next = self.d1m_end.q.val();
        self.d2_ts.d.next = self.d1m_ts.q.val();
        self.d2_digest.d.next = self.d1m_digest.q.val();
        self.d2_valid_o.next = self.d2_valid.q.val();
        self.d2_marker_o.next = self.d2_marker.q.val();
        self.d2_start_o.next = self.d2_start.q.val();
        self.d2_end_o.next = self.d2_end.q.val();
        self.d2_ts_o.next = self.d2_ts.q.val();
        self.d2_digest_o.next = self.d2_digest.q.val();
    }
}

declare_block! {
    /// One bank's sampling and bucket index: at D1m `sampled = D[63:32] ≤ thr` and the partial products
    /// `D[31:16]·M`, `(D[15:0]·M) >> 16`, registered; at D2 `index = (pa + pb) >> 16` (low IA bits).
    #[derive(LogicBlock)]
    pub struct FcSampler<const IA: usize> fn new() {
        pub clock: Signal<In, Clock>,
        /// The digest at D1m, the bank's threshold and bucket count M (as the CSRs hold them).
        pub digest: Signal<In, Bits<64>>,
        pub thr: Signal<In, Bits<32>>,
        pub m: Signal<In, Bits<16>>,
        /// At D2.
        pub sampled: Signal<Out, bool>,
        pub index: Signal<Out, Bits<IA>>,
        mix_hi: Slice<64, 32> = Slice::new(32),
        mix_lo: Slice<64, 32> = Slice::new(0),
        d_hi16: Slice<32, 16> = Slice::new(16),
        d_lo16: Slice<32, 16> = Slice::new(0),
        prod_a: Signal<Local, Bits<32>>,
        prod_b: Signal<Local, Bits<32>>,
        prod_b_hi: Slice<32, 16> = Slice::new(16),
        d2_sampled: Reg<bool>,
        d2_pa: Reg<Bits<32>>,
        d2_pb: Reg<Bits<16>>,
        zx_pb: ZeroExt<16, 32>,
        idx_sum: Signal<Local, Bits<32>>,
        idx16: Slice<32, 16> = Slice::new(16),
        idx: Slice<16, IA> = Slice::new(0),
    }
}

impl<const IA: usize> Logic for FcSampler<IA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, d2_sampled, d2_pa, d2_pb);
        // D1m: sampling compare and the index's partial products.
        self.mix_hi.din.next = self.digest.val();
        self.mix_lo.din.next = self.digest.val();
        self.d_hi16.din.next = self.mix_lo.out.val();
        self.d_lo16.din.next = self.mix_lo.out.val();
        self.prod_a.next = self.d_hi16.out.val() * self.m.val();
        self.prod_b.next = self.d_lo16.out.val() * self.m.val();
        self.prod_b_hi.din.next = self.prod_b.val();
        self.d2_sampled.d.next = self.mix_hi.out.val() <= self.thr.val();
        self.d2_pa.d.next = self.prod_a.val();
        self.d2_pb.d.next = self.prod_b_hi.out.val();
        // D2: the bucket index.
        self.zx_pb.din.next = self.d2_pb.q.val();
        self.idx_sum.next = self.d2_pa.q.val() + self.zx_pb.out.val();
        self.idx16.din.next = self.idx_sum.val();
        self.idx.din.next = self.idx16.out.val();
        self.sampled.next = self.d2_sampled.q.val();
        self.index.next = self.idx.out.val();
    }
}

declare_block! {
    /// The front end with one bank's sampler, as a co-simulation top of its own (`finecomb_front`,
    /// against `golden::finecomb::cycle::FrontModel`).
    #[derive(LogicBlock)]
    pub struct FcFrontTop<const IA: usize> fn build(front: FcFront) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        pub in_valid: Signal<In, bool>,
        pub in_key: Signal<In, Bits<KEY_BITS>>,
        pub in_ts: Signal<In, Bits<TIMESTAMP_BITS>>,
        pub in_start: Signal<In, bool>,
        pub in_end: Signal<In, bool>,
        pub in_ready: Signal<Out, bool>,
        pub pipes_ready: Signal<In, bool>,
        pub idle: Signal<In, bool>,
        pub thr: Signal<In, Bits<32>>,
        pub m: Signal<In, Bits<16>>,
        pub d1m_digest: Signal<Out, Bits<64>>,
        pub d2_valid: Signal<Out, bool>,
        pub d2_marker: Signal<Out, bool>,
        pub d2_start: Signal<Out, bool>,
        pub d2_end: Signal<Out, bool>,
        pub d2_ts: Signal<Out, Bits<TIMESTAMP_BITS>>,
        pub d2_digest: Signal<Out, Bits<64>>,
        pub sampled: Signal<Out, bool>,
        pub index: Signal<Out, Bits<IA>>,
        front: FcFront = front,
        sampler: FcSampler<IA> = FcSampler::new(),
    }
}

impl<const IA: usize> FcFrontTop<IA> {
    pub fn new() -> Result<Self, ConfigError> {
        Ok(Self::build(FcFront::new()?))
    }
}

impl<const IA: usize> Logic for FcFrontTop<IA> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, front, sampler);
        self.front.reset.next = self.reset.val();
        self.front.in_valid.next = self.in_valid.val();
        self.front.in_key.next = self.in_key.val();
        self.front.in_ts.next = self.in_ts.val();
        self.front.in_start.next = self.in_start.val();
        self.front.in_end.next = self.in_end.val();
        self.front.pipes_ready.next = self.pipes_ready.val();
        self.front.idle.next = self.idle.val();
        self.in_ready.next = self.front.in_ready.val();
        self.sampler.digest.next = self.front.mix_digest.val();
        self.sampler.thr.next = self.thr.val();
        self.sampler.m.next = self.m.val();
        self.d1m_digest.next = self.front.mix_digest.val();
        self.d2_valid.next = self.front.d2_valid_o.val();
        self.d2_marker.next = self.front.d2_marker_o.val();
        self.d2_start.next = self.front.d2_start_o.val();
        self.d2_end.next = self.front.d2_end_o.val();
        self.d2_ts.next = self.front.d2_ts_o.val();
        self.d2_digest.next = self.front.d2_digest_o.val();
        self.sampled.next = self.sampler.sampled.val();
        self.index.next = self.sampler.index.val();
    }
}
