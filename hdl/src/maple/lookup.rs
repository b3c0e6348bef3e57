//! MAPLE's lookup engine (`MapleLookup`): one lookup at a time on the frozen bank — the key's `h` bases, a
//! burst of `⌈k/w⌉ + 1` read ops into the bank's pipeline (every segment at once), the windows aligned and
//! ANDed into the candidate bitmap, a counter-row scan of the candidates for the count tie-break and the
//! refined latency, and a restoring division. Specification, phase table and latency:
//! `golden::maple::lookup` (the engine there is stepped by the core's cycle model, cycle for cycle).
//!
//! The core issues the engine's op (`want`, `bank`, `op_index`, `op_cidx`) when its bank is free and says
//! so with `grant`; it routes a returning read (`ret`, the segment words, the counter word and its index)
//! back. Every output is a register or the hash units' registered output: no combinational path from an
//! input to an output (a path through this block back into the core's single `always` block would be a
//! Verilator UNOPTFLAT loop), so the core ANDs its own reset into `idle` and `ans_valid`.
//!
//! Generics: `K` key bits, `H` hashes, `A` segment address bits, `LW` log2 of the word width `W`,
//! `MB = A + LW` base bits, `HA = H·A`, `HW = H·W`, `AW` window register bits
//! (`golden::maple::cycle::sizes::window_bits`).

use super::CB;
use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::hash::HashUnit;
use crate::common::reg::Reg;
use crate::declare_block;
use golden::maple::cycle::COUNTER_BITS;
use golden::maple::lookup::{Phase, DIVIDE_CYCLES};
use rust_hdl::prelude::*;

/// A deliberate mistake in the engine, for test-only builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LookupMutant {
    #[default]
    None,
    /// The burst one word short: `⌈k/w⌉` words.
    BurstShort,
    /// Segment 0 left out of the AND.
    AndSkip0,
}

fn ph(p: Phase) -> Constant<Bits<3>> {
    constant(p as u64)
}

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct MapleLookup<
        const K: usize, const H: usize, const A: usize, const LW: usize, const MB: usize, const W: usize,
        const HA: usize, const HW: usize, const AW: usize,
    > fn build(h_base: Vec<HashUnit<K, MB>>, max_centers: usize, mutant: LookupMutant) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// A key offered (taken while `idle`).
        pub lk_valid: Signal<In, bool>,
        pub lk_key: Signal<In, Bits<K>>,
        pub idle: Signal<Out, bool>,
        /// The bank packets update now, and `k` of the other one.
        pub active: Signal<In, bool>,
        pub k_frozen: Signal<In, Bits<CB>>,
        /// CSR `options` bit 0 (read in Classify).
        pub tie_none: Signal<In, bool>,
        /// The read op wanted now: its bank, the segment rows' word addresses, the counter row's index.
        pub want: Signal<Out, bool>,
        pub bank: Signal<Out, bool>,
        pub op_index: Signal<Out, Bits<HA>>,
        pub op_cidx: Signal<Out, Bits<A>>,
        pub grant: Signal<In, bool>,
        /// A read op of this engine at its bank's modify stage, and what it read.
        pub ret: Signal<In, bool>,
        pub ret_words: Signal<In, Bits<HW>>,
        pub ret_counter: Signal<In, Bits<COUNTER_BITS>>,
        pub ret_index: Signal<In, Bits<A>>,
        /// The latency of the center of the word the engine registered in the cycle before (the one in `p_*`
        /// now): the core's two-level mux of its center registers, the first level registered, so it is ready
        /// when `tk` takes that word (`golden::maple::lookup::EngineEdge::centers`).
        pub ret_center: Signal<In, Bits<32>>,
        pub ans_ready: Signal<In, bool>,
        pub ans_valid: Signal<Out, bool>,
        pub ans_kind: Signal<Out, Bits<2>>,
        pub ans_cand: Signal<Out, Bits<64>>,
        pub ans_center_valid: Signal<Out, bool>,
        pub ans_center: Signal<Out, Bits<CB>>,
        pub ans_latency: Signal<Out, Bits<32>>,
        pub ans_refined: Signal<Out, Bits<32>>,
        h_base: Vec<HashUnit<K, MB>> = h_base,
        phase: Reg<Bits<3>>,
        bank_q: Reg<bool>,
        burst_q: Reg<Bits<CB>>,
        kmask_q: Reg<Bits<64>>,
        n_iss: Reg<Bits<CB>>,
        n_ret: Reg<Bits<CB>>,
        boff: Reg<Bits<A>>,
        acc: Vec<Reg<Bits<AW>>> = (0..H).map(|_| Reg::default()).collect(),
        cand: Reg<Bits<64>>,
        scan: Reg<Bits<64>>,
        /// `scan` not empty, kept beside it so `want` (and the core's `grant` back into the enables) starts at a
        /// flip-flop: a 64-bit OR there was the critical path at 117.1 MHz.
        scan_more: Reg<bool>,
        /// The index of `scan`'s lowest candidate (`op_cidx`), loaded with `scan`: the counter row's read
        /// address starts at a flip-flop (the lowest-bit search after `scan` into the core's counter LUT RAM
        /// was the k8 build's critical path at 136.6 MHz).
        low_q: Reg<Bits<A>>,
        have: Reg<bool>,
        best_q: Reg<Bits<CB>>,
        best_cnt: Reg<Bits<32>>,
        /// The best's latency sum: its high half (33 bits: the division's first remainder) and low half.
        best_hi: Reg<Bits<33>>,
        best_lo: Reg<Bits<32>>,
        /// DivStart's tests of the best, computed when its word returns (`p_zero`: `count = 0`, `p_ovf`:
        /// `hi ≥ count`, the quotient overflows) and taken with it: whether the refined latency is not divided
        /// (the center's latency, or the saturated quotient) and that answer. DivStart reads flip-flops, not a
        /// 33-bit compare of `best_*` (seed 1's critical path of the k8 build at 146.6 MHz, into the answer
        /// registers' enables).
        best_sat: Reg<bool>,
        best_satv: Reg<Bits<32>>,
        /// The scan's second step: the previous cycle's returning word beat the best (`tk`), and that word.
        tk: Reg<bool>,
        p_idx: Reg<Bits<CB>>,
        p_cnt: Reg<Bits<32>>,
        p_hi: Reg<Bits<33>>,
        p_lo: Reg<Bits<32>>,
        p_zero: Reg<bool>,
        p_ovf: Reg<bool>,
        /// The best center's latency, taken with its count: DivStart reads a register, not the core's center
        /// mux (the critical path at 132.6 MHz).
        best_cv: Reg<Bits<32>>,
        gt: Signal<Local, bool>,
        /// The division's remainder (< count, kept 33 bits wide so 2·rem + 1 needs no slice).
        rem: Reg<Bits<33>>,
        div: Reg<Bits<32>>,
        steps: Reg<Bits<6>>,
        /// `steps = 1` in Divide (the last step), registered a cycle ahead: the answer registers' enables start
        /// at a flip-flop, not at a 6-bit compare (with DivStart's compares the k8 build's paths at 144.7 MHz).
        div_last: Reg<bool>,
        a_kind: Reg<Bits<2>>,
        a_cv: Reg<bool>,
        a_center: Reg<Bits<CB>>,
        a_lat: Reg<Bits<32>>,
        a_ref: Reg<Bits<32>>,
        /// The returning read op, registered at the input (valid, segment words, counter word and index).
        ret_v: Reg<bool>,
        ret_w: Reg<Bits<HW>>,
        ret_c: Reg<Bits<COUNTER_BITS>>,
        ret_i: Reg<Bits<A>>,
        // Burst: words per segment, the op's addresses, a returning word into its window slot.
        burst: Signal<Local, Bits<CB>>,
        base_addr: Vec<Slice<MB, A>> = (0..H).map(|_| Slice::new(LW)).collect(),
        base_off: Vec<Slice<MB, LW>> = (0..H).map(|_| Slice::new(0)).collect(),
        zx_addr: Vec<ZeroExt<A, HA>> = (0..H).map(|_| ZeroExt::default()).collect(),
        op_bus: Signal<Local, Bits<HA>>,
        word_in: Vec<Slice<HW, W>> = (0..H).map(|j| Slice::new(j * W)).collect(),
        zx_word: Vec<ZeroExt<W, AW>> = (0..H).map(|_| ZeroExt::default()).collect(),
        zx_nret: ZeroExt<CB, 16>,
        slot: Signal<Local, Bits<16>>,
        // Align: the windows, their AND, the k mask.
        win: Vec<Slice<AW, 64>> = (0..H).map(|_| Slice::new(0)).collect(),
        and_all: Signal<Local, Bits<64>>,
        kmask: Signal<Local, Bits<64>>,
        // Classify: "any candidate" and "at least two" as a 4-ary tree over the bitmap's nibbles (no carry
        // chain: `cand & (cand − 1)` over 64 bits was the critical path into the phase register).
        nib: Vec<Slice<64, 4>> = (0..16).map(|g| Slice::new(4 * g)).collect(),
        g_any: Vec<Signal<Local, bool>> = (0..16).map(|_| Default::default()).collect(),
        g_two: Vec<Signal<Local, bool>> = (0..16).map(|_| Default::default()).collect(),
        q_any: Vec<Signal<Local, bool>> = (0..4).map(|_| Default::default()).collect(),
        q_two: Vec<Signal<Local, bool>> = (0..4).map(|_| Default::default()).collect(),
        c_any: Signal<Local, bool>,
        c_two: Signal<Local, bool>,
        one4: Constant<Bits<4>> = constant(1),
        // Scan: the lowest candidate left, a returning counter word.
        /// The candidates left after this one (`scan & (scan − 1)`, only the `max_centers` bits that exist).
        scan_rest: Signal<Local, Bits<64>>,
        /// The lowest candidate (one-hot, then its index) of the bitmap loaded into `scan` at Classify
        /// (`cand`) and of the one loaded at a granted Scan op (`scan_rest`).
        c_low: Signal<Local, Bits<64>>,
        r_low: Signal<Local, Bits<64>>,
        c_low_a: Signal<Local, Bits<A>>,
        r_low_a: Signal<Local, Bits<A>>,
        ret7: Signal<Local, Bits<CB>>,
        r_cnt: Slice<COUNTER_BITS, 32> = Slice::new(0),
        r_lo: Slice<COUNTER_BITS, 32> = Slice::new(32),
        r_hi: Slice<COUNTER_BITS, 32> = Slice::new(64),
        zx_hi: ZeroExt<32, 33>,
        zx_rcnt: ZeroExt<32, 33>,
        // DivStart / Divide.
        zx_cnt: ZeroExt<32, 33>,
        t33: Signal<Local, Bits<33>>,
        div_next: Signal<Local, Bits<32>>,
        rem_next: Signal<Local, Bits<33>>,
        // Constants.
        p_idle: Constant<Bits<3>> = ph(Phase::Idle),
        p_burst: Constant<Bits<3>> = ph(Phase::Burst),
        p_align: Constant<Bits<3>> = ph(Phase::Align),
        p_classify: Constant<Bits<3>> = ph(Phase::Classify),
        p_scan: Constant<Bits<3>> = ph(Phase::Scan),
        p_divstart: Constant<Bits<3>> = ph(Phase::DivStart),
        p_divide: Constant<Bits<3>> = ph(Phase::Divide),
        p_answer: Constant<Bits<3>> = ph(Phase::Answer),
        idx7: Vec<Constant<Bits<CB>>> = consts(0..max_centers as u64),
        idx_a: Vec<Constant<Bits<A>>> = consts(0..max_centers as u64),
        bit64: Vec<Constant<Bits<64>>> = consts((0..max_centers).map(|i| 1u64 << i)),
        off_addr: Vec<Constant<Bits<16>>> = consts((0..H).map(|j| (j * A) as u64)),
        w_minus1: Constant<Bits<CB>> = constant(W as u64 - 1),
        lw7: Constant<Bits<CB>> = constant(LW as u64),
        lw16: Constant<Bits<16>> = constant(LW as u64),
        burst_extra: Constant<Bits<CB>> = constant((mutant != LookupMutant::BurstShort) as u64),
        and_skip: Vec<Constant<Bits<64>>> =
            consts((0..H).map(|j| if j == 0 && mutant == LookupMutant::AndSkip0 { u64::MAX } else { 0 })),
        word_mask: Constant<Bits<AW>> = constant(if W >= 64 { u64::MAX } else { (1u64 << W) - 1 }),
        zero64: Constant<Bits<64>> = constant(0),
        km_bits: Constant<Bits<64>> = constant(if max_centers >= 64 { u64::MAX } else { (1u64 << max_centers) - 1 }),
        one64: Constant<Bits<64>> = constant(1),
        zero_ha: Constant<Bits<HA>> = Constant::new(Bits::default()),
        zero_a: Constant<Bits<A>> = constant(0),
        one_a: Constant<Bits<A>> = constant(1),
        zero7: Constant<Bits<CB>> = constant(0),
        one7: Constant<Bits<CB>> = constant(1),
        zero32: Constant<Bits<32>> = constant(0),
        one32: Constant<Bits<32>> = constant(1),
        max32: Constant<Bits<32>> = constant(u32::MAX as u64),
        one33: Constant<Bits<33>> = constant(1),
        one6: Constant<Bits<6>> = constant(1),
        div_steps: Constant<Bits<6>> = constant(DIVIDE_CYCLES as u64),
        div_steps_is_one: Constant<bool> = Constant::new(DIVIDE_CYCLES == 1),
        two6: Constant<Bits<6>> = constant(2),
        k_match: Constant<Bits<2>> = constant(golden::maple::MatchKind::Match as u64),
        k_multi: Constant<Bits<2>> = constant(golden::maple::MatchKind::MultiMatch as u64),
        k_none: Constant<Bits<2>> = constant(golden::maple::MatchKind::NoMatch as u64),
        _h: usize = H,
        _km: usize = max_centers,
    }
}

/// The engine's impl blocks over its generics, written once.
macro_rules! lookup_impl {
    ($($tr:ident for)? { $($body:tt)* }) => {
        impl<
                const K: usize, const H: usize, const A: usize, const LW: usize, const MB: usize, const W: usize,
                const HA: usize, const HW: usize, const AW: usize,
            > $($tr for)? MapleLookup<K, H, A, LW, MB, W, HA, HW, AW>
        {
            $($body)*
        }
    };
}

lookup_impl!({
    /// The engine over the insert path's base hashes (`h_base[j]`: hash `j`), `max_centers ≤ 64`.
    pub fn new(h_base: Vec<HashUnit<K, MB>>, max_centers: usize, mutant: LookupMutant) -> Result<Self, String> {
        if h_base.len() != H || HA != H * A || HW != H * W || MB != A + LW || W != 1 << LW || max_centers > 64 {
            return Err(format!(
                "MapleLookup<K={K}, H={H}, A={A}, LW={LW}, MB={MB}, W={W}, HA={HA}, HW={HW}>: inconsistent"
            ));
        }
        if AW < 64 || AW < (max_centers.div_ceil(W) + 1) * W || (1usize << A) < max_centers {
            return Err(format!("MapleLookup: AW = {AW} is narrower than the window, or 2^A < {max_centers} centers"));
        }
        Ok(Self::build(h_base, max_centers, mutant))
    }
});

lookup_impl!(Logic for {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, phase, bank_q, burst_q, kmask_q, n_iss, n_ret, boff, cand, scan, scan_more, low_q, have,
            best_q, best_cnt, best_hi, best_lo, rem, div, steps, div_last, a_kind, a_cv, a_center, a_lat, a_ref,
            ret_v, ret_w, ret_c, ret_i, tk, p_idx, p_cnt, p_hi, p_lo, best_cv, best_sat, best_satv, p_zero, p_ovf
        );
        // A returning op is seen one cycle after its bank's modify stage (the bank's forwarding mux and the
        // count compare below would not fit one cycle together).
        self.ret_v.d.next = self.ret.val() && !self.reset.val();
        self.ret_w.d.next = self.ret_words.val();
        self.ret_c.d.next = self.ret_counter.val();
        self.ret_i.d.next = self.ret_index.val();
        for j in 0..self._h {
            self.h_base[j].clock.next = self.clock.val();
            self.h_base[j].key.next = self.lk_key.val();
            self.h_base[j].load.next = self.lk_valid.val() && (self.phase.q.val() == self.p_idle.val());
            self.acc[j].clock.next = self.clock.val();
            self.acc[j].d.next = self.acc[j].q.val();
        }
        // Outputs (registers only).
        self.idle.next = self.phase.q.val() == self.p_idle.val();
        self.ans_valid.next = self.phase.q.val() == self.p_answer.val();
        self.bank.next = self.bank_q.q.val();
        self.ans_kind.next = self.a_kind.q.val();
        self.ans_cand.next = self.cand.q.val();
        self.ans_center_valid.next = self.a_cv.q.val();
        self.ans_center.next = self.a_center.q.val();
        self.ans_latency.next = self.a_lat.q.val();
        self.ans_refined.next = self.a_ref.q.val();
        // B = ⌈k/w⌉ + 1 and the k mask of the frozen bank's k, registered when a key is taken (the bank's k may
        // change under a lookup; the registers keep the burst and the align stage off k's adder and compares).
        self.burst.next = ((self.k_frozen.val() + self.w_minus1.val()) >> self.lw7.val()) + self.burst_extra.val();
        // The k mask one constant compare per bit (bit i: i < k; k ≤ max_centers, so the bits above are 0): `ones
        // >> (64 − k)` was a carry chain and a 64-bit shifter from the banks' k, the critical path at 117.2 MHz.
        self.kmask.next = self.zero64.val();
        for i in 0..self._km {
            if self.idx7[i].val() < self.k_frozen.val() {
                self.kmask.next = self.kmask.val() | self.bit64[i].val();
            }
        }
        self.op_bus.next = self.zero_ha.val();
        for j in 0..self._h {
            self.base_addr[j].din.next = self.h_base[j].hash.val();
            self.base_off[j].din.next = self.h_base[j].hash.val();
            self.zx_addr[j].din.next = self.base_addr[j].out.val() + self.boff.q.val();
            self.op_bus.next = self.op_bus.val() | (self.zx_addr[j].out.val() << self.off_addr[j].val());
        }
        self.op_index.next = self.op_bus.val();
        // The lowest candidate left to scan is `low_q`; the next one is searched in the bitmap `scan` takes.
        self.scan_rest.next = self.scan.q.val() & (self.scan.q.val() - self.one64.val()) & self.km_bits.val();
        self.c_low.next = self.cand.q.val() & (!self.cand.q.val() + self.one64.val());
        self.r_low.next = self.scan_rest.val() & (!self.scan_rest.val() + self.one64.val());
        self.c_low_a.next = self.zero_a.val();
        self.r_low_a.next = self.zero_a.val();
        for i in 0..self._km {
            if (self.c_low.val() & self.bit64[i].val()).any() {
                self.c_low_a.next = self.idx_a[i].val();
            }
            if (self.r_low.val() & self.bit64[i].val()).any() {
                self.r_low_a.next = self.idx_a[i].val();
            }
        }
        self.op_cidx.next = self.low_q.q.val();
        self.want.next = ((self.phase.q.val() == self.p_burst.val()) && (self.n_iss.q.val() < self.burst_q.q.val()))
            || ((self.phase.q.val() == self.p_scan.val()) && self.scan_more.q.val());
        // A returning word goes to slot n_ret of its segment's window register.
        self.zx_nret.din.next = self.n_ret.q.val();
        self.slot.next = self.zx_nret.out.val() << self.lw16.val();
        // Align: the AND of the windows, masked to k.
        self.and_all.next = self.kmask_q.q.val();
        for j in 0..self._h {
            self.word_in[j].din.next = self.ret_w.q.val();
            self.zx_word[j].din.next = self.word_in[j].out.val();
            self.win[j].din.next = self.acc[j].q.val() >> self.base_off[j].out.val();
            self.and_all.next = self.and_all.val() & (self.win[j].out.val() | self.and_skip[j].val());
        }
        // A returning counter word's index.
        self.ret7.next = self.zero7.val();
        for i in 0..self._km {
            if self.ret_i.q.val() == self.idx_a[i].val() {
                self.ret7.next = self.idx7[i].val();
            }
        }
        self.r_cnt.din.next = self.ret_c.q.val();
        self.r_lo.din.next = self.ret_c.q.val();
        self.r_hi.din.next = self.ret_c.q.val();
        self.zx_hi.din.next = self.r_hi.out.val();
        // The division: t = 2·rem + the dividend's top bit; subtract the count when it fits.
        self.zx_cnt.din.next = self.best_cnt.q.val();
        if self.div.q.val().get_bit(31) {
            self.t33.next = (self.rem.q.val() << self.one33.val()) | self.one33.val();
        } else {
            self.t33.next = self.rem.q.val() << self.one33.val();
        }
        if self.t33.val() >= self.zx_cnt.out.val() {
            self.rem_next.next = self.t33.val() - self.zx_cnt.out.val();
            self.div_next.next = (self.div.q.val() << self.one6.val()) | self.one32.val();
        } else {
            self.rem_next.next = self.t33.val();
            self.div_next.next = self.div.q.val() << self.one6.val();
        }
        // Classify's tree: per nibble, then per 16 bits, then the bitmap (two = two children with any, or one
        // child with two).
        for g in 0..16 {
            self.nib[g].din.next = self.cand.q.val();
            self.g_any[g].next = self.nib[g].out.val().any();
            self.g_two[g].next = (self.nib[g].out.val() & (self.nib[g].out.val() - self.one4.val())).any();
        }
        for q in 0..4 {
            self.q_any[q].next = self.g_any[4 * q].val()
                || self.g_any[4 * q + 1].val()
                || self.g_any[4 * q + 2].val()
                || self.g_any[4 * q + 3].val();
            self.q_two[q].next = self.g_two[4 * q].val()
                || self.g_two[4 * q + 1].val()
                || self.g_two[4 * q + 2].val()
                || self.g_two[4 * q + 3].val()
                || (self.g_any[4 * q].val()
                    && (self.g_any[4 * q + 1].val() || self.g_any[4 * q + 2].val() || self.g_any[4 * q + 3].val()))
                || (self.g_any[4 * q + 1].val() && (self.g_any[4 * q + 2].val() || self.g_any[4 * q + 3].val()))
                || (self.g_any[4 * q + 2].val() && self.g_any[4 * q + 3].val());
        }
        self.c_any.next = self.q_any[0].val() || self.q_any[1].val() || self.q_any[2].val() || self.q_any[3].val();
        self.c_two.next = self.q_two[0].val()
            || self.q_two[1].val()
            || self.q_two[2].val()
            || self.q_two[3].val()
            || (self.q_any[0].val() && (self.q_any[1].val() || self.q_any[2].val() || self.q_any[3].val()))
            || (self.q_any[1].val() && (self.q_any[2].val() || self.q_any[3].val()))
            || (self.q_any[2].val() && self.q_any[3].val());
        // Scan, in two steps: a returning counter word is compared with the best so far (the word taken in the
        // cycle before while it is on its way into best_*, else best_*) and kept in p_*; the cycle after, `tk` takes
        // it into best_*. The 32-bit compare then ends in one flip-flop, not in the enables of best_* (the
        // critical path at 132.0 MHz); DivStart, two cycles after the last return, reads best_* as before.
        self.p_idx.d.next = self.ret7.val();
        self.p_cnt.d.next = self.r_cnt.out.val();
        self.p_hi.d.next = self.zx_hi.out.val();
        self.p_lo.d.next = self.r_lo.out.val();
        self.zx_rcnt.din.next = self.r_cnt.out.val();
        self.p_zero.d.next = self.r_cnt.out.val() == self.zero32.val();
        self.p_ovf.d.next = self.zx_hi.out.val() >= self.zx_rcnt.out.val();
        if self.tk.q.val() {
            self.gt.next = self.r_cnt.out.val() > self.p_cnt.q.val();
        } else {
            self.gt.next = !self.have.q.val() || (self.r_cnt.out.val() > self.best_cnt.q.val());
        }
        self.tk.d.next =
            self.ret_v.q.val() && (self.phase.q.val() == self.p_scan.val()) && self.gt.val() && !self.reset.val();
        if self.tk.q.val() {
            self.best_q.d.next = self.p_idx.q.val();
            self.best_cnt.d.next = self.p_cnt.q.val();
            self.best_hi.d.next = self.p_hi.q.val();
            self.best_lo.d.next = self.p_lo.q.val();
            self.best_sat.d.next = self.p_zero.q.val() || self.p_ovf.q.val();
            if self.p_zero.q.val() {
                self.best_satv.d.next = self.ret_center.val();
            } else {
                self.best_satv.d.next = self.max32.val();
            }
            self.best_cv.d.next = self.ret_center.val();
            self.have.d.next = true;
        }
        // Next state.
        if self.reset.val() {
            self.phase.d.next = self.p_idle.val();
        } else if self.phase.q.val() == self.p_idle.val() {
            if self.lk_valid.val() {
                self.bank_q.d.next = !self.active.val();
                self.burst_q.d.next = self.burst.val();
                self.kmask_q.d.next = self.kmask.val();
                self.n_iss.d.next = self.zero7.val();
                self.n_ret.d.next = self.zero7.val();
                self.boff.d.next = self.zero_a.val();
                self.phase.d.next = self.p_burst.val();
            }
        } else if self.phase.q.val() == self.p_burst.val() {
            if self.grant.val() {
                self.n_iss.d.next = self.n_iss.q.val() + self.one7.val();
                self.boff.d.next = self.boff.q.val() + self.one_a.val();
            }
            if self.ret_v.q.val() {
                for j in 0..self._h {
                    self.acc[j].d.next = (self.acc[j].q.val() & !(self.word_mask.val() << self.slot.val()))
                        | (self.zx_word[j].out.val() << self.slot.val());
                }
                self.n_ret.d.next = self.n_ret.q.val() + self.one7.val();
                if (self.n_ret.q.val() + self.one7.val()) == self.burst_q.q.val() {
                    self.phase.d.next = self.p_align.val();
                }
            }
        } else if self.phase.q.val() == self.p_align.val() {
            self.cand.d.next = self.and_all.val();
            self.phase.d.next = self.p_classify.val();
        } else if self.phase.q.val() == self.p_classify.val() {
            self.n_iss.d.next = self.zero7.val();
            self.n_ret.d.next = self.zero7.val();
            self.have.d.next = false;
            self.best_q.d.next = self.zero7.val();
            self.scan.d.next = self.cand.q.val();
            self.scan_more.d.next = self.c_any.val();
            self.low_q.d.next = self.c_low_a.val();
            self.a_cv.d.next = false;
            self.a_center.d.next = self.zero7.val();
            self.a_lat.d.next = self.zero32.val();
            self.a_ref.d.next = self.zero32.val();
            if !self.c_any.val() {
                self.a_kind.d.next = self.k_none.val();
                self.phase.d.next = self.p_answer.val();
            } else if !self.c_two.val() {
                self.a_kind.d.next = self.k_match.val();
                self.phase.d.next = self.p_scan.val();
            } else {
                self.a_kind.d.next = self.k_multi.val();
                if self.tie_none.val() {
                    self.phase.d.next = self.p_answer.val();
                } else {
                    self.phase.d.next = self.p_scan.val();
                }
            }
        } else if self.phase.q.val() == self.p_scan.val() {
            if self.grant.val() {
                self.scan.d.next = self.scan_rest.val();
                self.scan_more.d.next = self.scan_rest.val().any();
                self.low_q.d.next = self.r_low_a.val();
                self.n_iss.d.next = self.n_iss.q.val() + self.one7.val();
            }
            if self.ret_v.q.val() {
                self.n_ret.d.next = self.n_ret.q.val() + self.one7.val();
            }
            if !self.scan_more.q.val() && (self.n_iss.q.val() == self.n_ret.q.val()) {
                self.phase.d.next = self.p_divstart.val();
            }
        } else if self.phase.q.val() == self.p_divstart.val() {
            self.a_cv.d.next = true;
            self.a_center.d.next = self.best_q.q.val();
            self.a_lat.d.next = self.best_cv.q.val();
            if self.best_sat.q.val() {
                self.a_ref.d.next = self.best_satv.q.val();
                self.phase.d.next = self.p_answer.val();
            } else {
                self.rem.d.next = self.best_hi.q.val();
                self.div.d.next = self.best_lo.q.val();
                self.steps.d.next = self.div_steps.val();
                self.div_last.d.next = self.div_steps_is_one.val();
                self.phase.d.next = self.p_divide.val();
            }
        } else if self.phase.q.val() == self.p_divide.val() {
            self.rem.d.next = self.rem_next.val();
            self.div.d.next = self.div_next.val();
            self.steps.d.next = self.steps.q.val() - self.one6.val();
            self.div_last.d.next = self.steps.q.val() == self.two6.val();
            if self.div_last.q.val() {
                self.a_ref.d.next = self.div_next.val();
                self.phase.d.next = self.p_answer.val();
            }
        } else if self.ans_ready.val() {
            self.phase.d.next = self.p_idle.val();
        }
    }
});
