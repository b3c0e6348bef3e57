//! The admission threshold `T(r)` of a PRNG draw, beside the bank pipeline (S0 → S3), off the loop-carried
//! path: the modify stage only compares counts with it. Specification and error bound:
//! `golden::heavy_hitters::admission`.
//!
//! | stage | what happens |
//! |---|---|
//! | S0 | the draw `r` (the PRNG's value when the packet enters its bank): leading-one position `p`, the `F` bits `f` below it ([`RecipCell`]); `p`, `f`, `r = 0` and the rule registered |
//! | S1 | ROM word `R[f]` (2^F words in LUTs, [`RomRead::Logic`]: in block RAM the priority encoder fed its address and the shift its output, each the core's longest path in turn) → the mantissa `pow2 ? 2^31 : R[f]` registered with `p`, `r = 0` |
//! | S2 | `T = 2^32` if `r = 0`, else `mantissa >> p` → registered |
//! | S3 | `threshold` (the banks' look-ahead stage SL) |

use crate::common::bits::{constant, ZeroExt};
use crate::common::reg::Reg;
use crate::common::rom::{Rom, RomRead};
use crate::declare_block;
use golden::heavy_hitters::admission::{recip_cell, recip_rom, RECIP_FRAC_BITS, THRESHOLD_BITS};
use rust_hdl::prelude::*;

/// `(p, f)` of a 32-bit draw ([`golden::heavy_hitters::admission::recip_cell`]; `p = f = 0` for `r = 0`): a
/// priority if-chain from the top bit down, each arm taking the `F` bits below its leading one.
#[derive(LogicBlock, Default)]
pub struct RecipCell {
    pub r: Signal<In, Bits<32>>,
    pub p: Signal<Out, Bits<5>>,
    pub f: Signal<Out, Bits<RECIP_FRAC_BITS>>,
}

impl Logic for RecipCell {
    fn update(&mut self) {
        let r = self.r.val().to_u64() as u32;
        let (p, f) = if r == 0 { (0, 0) } else { recip_cell(r) };
        self.p.next = Bits::from(p as u64);
        self.f.next = Bits::from(f as u64);
    }
    fn connect(&mut self) {
        self.p.connect();
        self.f.connect();
    }
    fn hdl(&self) -> Verilog {
        const F: usize = RECIP_FRAC_BITS;
        let mut v = String::from("always @(*) begin\n   ");
        for p in (1..32).rev() {
            let f =
                if p >= F { format!("r[{}:{}]", p - 1, p - F) } else { format!("{{r[{}:0], {}'d0}}", p - 1, F - p) };
            v += &format!("if (r[{p}]) begin p = 5'd{p}; f = {f}; end\n   else ");
        }
        v += &format!("begin p = 5'd0; f = {F}'d0; end\nend\n");
        Verilog::Custom(v)
    }
}

declare_block! {
    /// See the [module docs](self).
    #[derive(LogicBlock)]
    pub struct AdmitThreshold fn build(rom: Rom<RECIP_FRAC_BITS, 32>) {
        pub clock: Signal<In, Clock>,
        /// The draw at S0, and the rule (PRECISION's power of two instead of the reciprocal table).
        pub r: Signal<In, Bits<32>>,
        pub pow2: Signal<In, bool>,
        /// `T(r)` three cycles later.
        pub threshold: Signal<Out, Bits<THRESHOLD_BITS>>,
        leading: RecipCell,
        rom: Rom<RECIP_FRAC_BITS, 32> = rom,
        s1_p: Reg<Bits<5>>,
        s1_f: Reg<Bits<RECIP_FRAC_BITS>>,
        s1_zero: Reg<bool>,
        s1_pow2: Reg<bool>,
        s2_m: Reg<Bits<THRESHOLD_BITS>>,
        s2_p: Reg<Bits<5>>,
        s2_zero: Reg<bool>,
        s3_t: Reg<Bits<THRESHOLD_BITS>>,
        zx_word: ZeroExt<32, THRESHOLD_BITS>,
        zx_p: ZeroExt<5, THRESHOLD_BITS>,
        mantissa: Signal<Local, Bits<THRESHOLD_BITS>>,
        two_31: Constant<Bits<THRESHOLD_BITS>> = constant(1 << 31),
        two_32: Constant<Bits<THRESHOLD_BITS>> = constant(1 << 32),
    }
}

impl AdmitThreshold {
    pub fn new() -> Result<Self, String> {
        let words: Vec<u128> = recip_rom().into_iter().map(u128::from).collect();
        Ok(Self::build(Rom::with_read(&words, RomRead::Logic)?))
    }
}

impl Logic for AdmitThreshold {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s1_p, s1_f, s1_zero, s1_pow2, s2_m, s2_p, s2_zero, s3_t);
        clock!(self, clock, rom);
        // S0.
        self.leading.r.next = self.r.val();
        self.s1_f.d.next = self.leading.f.val();
        self.s1_p.d.next = self.leading.p.val();
        self.s1_zero.d.next = !self.r.val().any();
        self.s1_pow2.d.next = self.pow2.val();
        // S1.
        self.rom.addr.next = self.s1_f.q.val();
        self.zx_word.din.next = self.rom.data.val();
        if self.s1_pow2.q.val() {
            self.mantissa.next = self.two_31.val();
        } else {
            self.mantissa.next = self.zx_word.out.val();
        }
        self.s2_m.d.next = self.mantissa.val();
        self.s2_p.d.next = self.s1_p.q.val();
        self.s2_zero.d.next = self.s1_zero.q.val();
        // S2: the shift amount widened to the mantissa's bits (a 5-bit register), then the shift.
        self.zx_p.din.next = self.s2_p.q.val();
        if self.s2_zero.q.val() {
            self.s3_t.d.next = self.two_32.val();
        } else {
            self.s3_t.d.next = self.s2_m.q.val() >> self.zx_p.out.val();
        }
        self.threshold.next = self.s3_t.q.val();
    }
}
