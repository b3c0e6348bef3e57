//! In-hardware tally of the fridge core (`FridgeTally<TA, RA, T, C>`): per fridge and log-spaced delay bin
//! (4, 8 or 16 per octave: `FridgeConfig::tally_bins_per_octave`), Σg and Σg² of the correction factor, in
//! two banks (ping-pong) with a read-and-clear walk out of the frozen bank through its own FIFO.
//! Specification, fixed-point formats, ROM quantization and the cycle table: `golden::fridge::tally`
//! ([`golden::fridge::tally::TallyCycleModel`]).
//!
//! Const generics (checked against the [`FridgeConfig`] in [`FridgeTally::new`]): `TA` bank address bits
//! (`{fridge, bin}`: the bins per octave enter through it), `RA` ROM address bits (`{fridge, i}`), `T` delay
//! bits, `C` counter bits.
//!
//! Stages: T0 classify (bin encoder, ROM index: constant shift per fridge and saturation) → registers;
//! T1 issue into one of two [`RmwPipeline`]s (one per bank, so the walk over the frozen bank and the
//! reports into the active one never compete unless software swaps mid-walk) and read the ROM; T2 ROM word
//! registered; T3 the bank's modify stage adds (48- and 70-bit adders) or clears and captures; T4 record
//! → [`ReportFifo`].

use crate::common::bits::{constant, consts, Slice, ZeroExt};
use crate::common::fifo::ReportFifo;
use crate::common::reg::Reg;
use crate::common::rmw::RmwPipeline;
use crate::common::rom::Rom;
use crate::declare_block;
use golden::common::config::ConfigError;
use golden::common::sram::RamPorts;
use golden::fridge::tally::{
    bank_addr_bits, rom_addr_bits, rom_contents, rom_shift, Bins, FIFO_BITS, FRAC_BITS, G2_BITS, G_BITS, IN_FLIGHT,
    RECORD_BITS, ROM_INDEX_BITS, ROM_WORD_BITS, SUM_G2_BITS, SUM_G_BITS, WORD_BITS,
};
use golden::fridge::{FridgeConfig, FRIDGE_INDEX_BITS};
use rust_hdl::prelude::*;

/// Delay → bin (`golden::fridge::tally::Bins::index`), zero-extended to `W` bits: a priority encoder
/// emitted as an if-chain from the top bit down, the `s` bits below the leading one as the sub-bin (2^s
/// bins per octave, a generation parameter).
#[derive(LogicBlock)]
pub struct DelayBin<const T: usize, const W: usize> {
    pub delay: Signal<In, Bits<T>>,
    pub bin: Signal<Out, Bits<W>>,
    _bins: Bins,
}

impl<const T: usize, const W: usize> DelayBin<T, W> {
    pub fn new(bins: Bins) -> Self {
        Self { delay: Default::default(), bin: Default::default(), _bins: bins }
    }
}

impl<const T: usize, const W: usize> Logic for DelayBin<T, W> {
    fn update(&mut self) {
        self.bin.next = Bits::from(self._bins.index(self.delay.val().to_u64()) as u64);
    }
    fn connect(&mut self) {
        self.bin.connect();
    }
    fn hdl(&self) -> Verilog {
        let (s, e_bits) = (self._bins.sub_bits(), self._bins.bits() - self._bins.sub_bits());
        assert!(
            (2..=32).contains(&T) && W >= self._bins.bits(),
            "DelayBin<{T}, {W}>: 2..=32 delay bits and at least {} bin bits",
            self._bins.bits()
        );
        // Below bit s the sub-bin is the delay's bits under the leading one, padded with zeros.
        let sub = |e: usize| match e {
            e if e >= s => format!("delay[{}:{}]", e - 1, e - s),
            e => format!("delay[{}:0], {}'d0", e - 1, s - e),
        };
        let pad = if W > self._bins.bits() { format!("{}'d0, ", W - self._bins.bits()) } else { String::new() };
        let mut v = String::from("always @(*) begin\n   ");
        for e in (1..T).rev() {
            v += &format!("if (delay[{e}]) bin = {{{pad}{e_bits}'d{e}, {}}};\n   else ", sub(e));
        }
        v += &format!("bin = {W}'d0;\nend\n");
        Verilog::Custom(v)
    }
}

declare_block! {
    #[derive(LogicBlock)]
    pub struct FridgeTally<const TA: usize, const RA: usize, const T: usize, const C: usize> fn build(
        cfg: &FridgeConfig,
        n: usize,
        rom: Rom<RA, ROM_WORD_BITS>
    ) {
        pub clock: Signal<In, Clock>,
        pub reset: Signal<In, bool>,
        /// The core's report register.
        pub rep_valid: Signal<In, bool>,
        pub rep_k: Signal<In, Bits<FRIDGE_INDEX_BITS>>,
        pub rep_delay: Signal<In, Bits<T>>,
        pub rep_x: Signal<In, Bits<C>>,
        /// Fridge mode: weights from the ROM (else every sample adds 1).
        pub corrected: Signal<In, bool>,
        /// Bank that reports add into.
        pub active: Signal<In, bool>,
        /// Start the walk over the other bank (ignored while one runs).
        pub dump_start: Signal<In, bool>,
        pub out_valid: Signal<Out, bool>,
        pub out_data: Signal<Out, Bits<RECORD_BITS>>,
        pub out_ready: Signal<In, bool>,
        /// Both banks past their reset sweep (registered: one cycle late).
        pub ready: Signal<Out, bool>,
        /// A walk is running.
        pub busy: Signal<Out, bool>,
        /// Records the FIFO dropped (stays 0: the walk only issues with room).
        pub drops: Signal<Out, Bits<32>>,
        binner: DelayBin<T, TA> = DelayBin::new(Bins::of(cfg)),
        rom: Rom<RA, ROM_WORD_BITS> = rom,
        banks: Vec<RmwPipeline<TA, WORD_BITS, 2>> = (0..2).map(|_| RmwPipeline::new(RamPorts::Dual)).collect(),
        fifo: ReportFifo<FIFO_BITS, RECORD_BITS, { FIFO_BITS + 1 }>,
        // T0: classify.
        zx_x: ZeroExt<C, 64>,
        shifted: Signal<Local, Bits<64>>,
        saturated: Signal<Local, Bits<64>>,
        idx: Slice<64, ROM_INDEX_BITS> = Slice::new(0),
        zx_k_bank: ZeroExt<FRIDGE_INDEX_BITS, TA>,
        zx_idx: ZeroExt<ROM_INDEX_BITS, RA>,
        zx_k_rom: ZeroExt<FRIDGE_INDEX_BITS, RA>,
        c_valid: Reg<bool>,
        c_bank: Reg<bool>,
        c_unit: Reg<bool>,
        c_addr: Reg<Bits<TA>>,
        c_rom: Reg<Bits<RA>>,
        // T1: issue; the walk.
        walk: Signal<Local, bool>,
        ready_q: Reg<bool>,
        dumping: Reg<bool>,
        dump_bank: Reg<bool>,
        dump_addr: Reg<Bits<TA>>,
        // T2/T3: ROM word, modify.
        rom_d: Reg<Bits<ROM_WORD_BITS>>,
        rom_g: Slice<ROM_WORD_BITS, G_BITS> = Slice::new(0),
        rom_g2: Slice<ROM_WORD_BITS, G2_BITS> = Slice::new(G_BITS),
        zx_rom_g: ZeroExt<G_BITS, SUM_G_BITS>,
        zx_rom_g2: ZeroExt<G2_BITS, SUM_G2_BITS>,
        inc_g: Signal<Local, Bits<SUM_G_BITS>>,
        inc_g2: Signal<Local, Bits<SUM_G2_BITS>>,
        old_g: Vec<Slice<WORD_BITS, SUM_G_BITS>> = (0..2).map(|_| Slice::new(0)).collect(),
        old_g2: Vec<Slice<WORD_BITS, SUM_G2_BITS>> = (0..2).map(|_| Slice::new(SUM_G_BITS)).collect(),
        zx_sum_g: Vec<ZeroExt<SUM_G_BITS, WORD_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        zx_sum_g2: Vec<ZeroExt<SUM_G2_BITS, WORD_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        zx_rec_addr: Vec<ZeroExt<TA, RECORD_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        zx_rec_word: Vec<ZeroExt<WORD_BITS, RECORD_BITS>> = (0..2).map(|_| ZeroExt::default()).collect(),
        /// The banks' forward candidates: the adds work on `mod_old`.
        unused_candidates: Signal<Local, bool>,
        // T4: record register.
        out_v: Reg<bool>,
        out_d: Reg<Bits<RECORD_BITS>>,
        // Generation-time constants.
        bank_ids: Vec<Constant<bool>> = vec![Constant::new(false), Constant::new(true)],
        fridge_ids: Vec<Constant<Bits<FRIDGE_INDEX_BITS>>> = consts(0..n as u64),
        shifts: Vec<Constant<Bits<64>>> = consts(cfg.addr_bits.iter().map(|&a| rom_shift(a) as u64)),
        idx_max: Constant<Bits<64>> = constant((1 << ROM_INDEX_BITS) - 1),
        unit_g: Constant<Bits<SUM_G_BITS>> = constant(1 << FRAC_BITS),
        unit_g2: Constant<Bits<SUM_G2_BITS>> = constant(1 << FRAC_BITS),
        zero_word: Constant<Bits<WORD_BITS>> = constant(0),
        payload_add: Constant<Bits<2>> = constant(0),
        payload_clear: Constant<Bits<2>> = constant(1),
        payload_unit: Constant<Bits<2>> = constant(2),
        zero_ta: Constant<Bits<TA>> = constant(0),
        one_ta: Constant<Bits<TA>> = constant(1),
        last_addr: Constant<Bits<TA>> = constant(((n * Bins::of(cfg).count()) - 1) as u64),
        room_level: Constant<Bits<{ FIFO_BITS + 1 }>> = constant(((1 << FIFO_BITS) - IN_FLIGHT) as u64),
        off_k_bank: Constant<Bits<8>> = constant(Bins::of(cfg).bits() as u64),
        off_k_rom: Constant<Bits<8>> = constant(ROM_INDEX_BITS as u64),
        off_g2: Constant<Bits<8>> = constant(SUM_G_BITS as u64),
        off_word: Constant<Bits<8>> = constant((Bins::of(cfg).bits() + FRIDGE_INDEX_BITS) as u64),
        _n: usize = n,
    }
}

impl<const TA: usize, const RA: usize, const T: usize, const C: usize> FridgeTally<TA, RA, T, C> {
    pub fn new(cfg: &FridgeConfig) -> Result<Self, ConfigError> {
        cfg.check()?;
        let expect = [
            ("TA", TA, bank_addr_bits(cfg)),
            ("RA", RA, rom_addr_bits(cfg)),
            ("T", T, cfg.ts_bits),
            ("C", C, cfg.counter_bits),
        ];
        for (name, got, want) in expect {
            if got != want {
                return Err(ConfigError(format!("FridgeTally generic {name} = {got}, the configuration needs {want}")));
            }
        }
        let n = cfg.fridges();
        Ok(Self::build(cfg, n, Rom::new(&rom_contents(cfg)).map_err(ConfigError)?))
    }
}

impl<const TA: usize, const RA: usize, const T: usize, const C: usize> Logic for FridgeTally<TA, RA, T, C> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, c_valid, c_bank, c_unit, c_addr, c_rom, ready_q, dumping, dump_bank, dump_addr, rom_d, out_v,
            out_d
        );
        clock!(self, clock, rom, fifo);
        for b in 0..2 {
            self.banks[b].clock.next = self.clock.val();
            self.banks[b].reset.next = self.reset.val();
        }
        // T0: classify.
        self.binner.delay.next = self.rep_delay.val();
        self.zx_x.din.next = self.rep_x.val();
        self.shifted.next = self.zx_x.out.val();
        for k in 0..self._n {
            if self.rep_k.val() == self.fridge_ids[k].val() {
                self.shifted.next = self.zx_x.out.val() >> self.shifts[k].val();
            }
        }
        if self.shifted.val() > self.idx_max.val() {
            self.saturated.next = self.idx_max.val();
        } else {
            self.saturated.next = self.shifted.val();
        }
        self.idx.din.next = self.saturated.val();
        self.zx_k_bank.din.next = self.rep_k.val();
        self.zx_idx.din.next = self.idx.out.val();
        self.zx_k_rom.din.next = self.rep_k.val();
        self.c_valid.d.next = self.rep_valid.val() && !self.reset.val();
        self.c_bank.d.next = self.active.val();
        self.c_unit.d.next = !self.corrected.val();
        self.c_addr.d.next = self.binner.bin.val() | (self.zx_k_bank.out.val() << self.off_k_bank.val());
        self.c_rom.d.next = self.zx_idx.out.val() | (self.zx_k_rom.out.val() << self.off_k_rom.val());
        // T1: issue a report into its bank, or a walk step into the frozen bank.
        self.rom.addr.next = self.c_rom.q.val();
        // The walk steps when its bank takes no report and the FIFO has room for everything in flight.
        self.walk.next = self.dumping.q.val()
            && self.ready_q.q.val()
            && self.fifo.level.val() <= self.room_level.val()
            && !(self.c_valid.q.val() && (self.c_bank.q.val() == self.dump_bank.q.val()));
        for b in 0..2 {
            if self.c_valid.q.val() && (self.c_bank.q.val() == self.bank_ids[b].val()) {
                self.banks[b].in_valid.next = true;
                self.banks[b].in_index.next = self.c_addr.q.val();
                self.banks[b].in_payload.next = self.payload_add.val();
                if self.c_unit.q.val() {
                    self.banks[b].in_payload.next = self.payload_unit.val();
                }
            } else {
                self.banks[b].in_valid.next = self.walk.val() && (self.dump_bank.q.val() == self.bank_ids[b].val());
                self.banks[b].in_index.next = self.dump_addr.q.val();
                self.banks[b].in_payload.next = self.payload_clear.val();
            }
        }
        if self.reset.val() {
            self.dumping.d.next = false;
            self.dump_addr.d.next = self.zero_ta.val();
        } else if self.dump_start.val() && !self.dumping.q.val() {
            self.dumping.d.next = true;
            self.dump_bank.d.next = !self.active.val();
            self.dump_addr.d.next = self.zero_ta.val();
        } else if self.walk.val() {
            self.dumping.d.next = self.dump_addr.q.val() != self.last_addr.val();
            self.dump_addr.d.next = self.dump_addr.q.val() + self.one_ta.val();
        }
        // T2: ROM word registered; T3: modify.
        self.rom_d.d.next = self.rom.data.val();
        self.rom_g.din.next = self.rom_d.q.val();
        self.rom_g2.din.next = self.rom_d.q.val();
        self.zx_rom_g.din.next = self.rom_g.out.val();
        self.zx_rom_g2.din.next = self.rom_g2.out.val();
        self.inc_g.next = self.zx_rom_g.out.val();
        self.inc_g2.next = self.zx_rom_g2.out.val();
        self.out_v.d.next = false;
        self.unused_candidates.next = false;
        for b in 0..2 {
            if self.banks[b].mod_valid.val() && self.banks[b].mod_payload.val().get_bit(1) {
                self.inc_g.next = self.unit_g.val();
                self.inc_g2.next = self.unit_g2.val();
            }
        }
        for b in 0..2 {
            self.old_g[b].din.next = self.banks[b].mod_old.val();
            self.old_g2[b].din.next = self.banks[b].mod_old.val();
            self.zx_sum_g[b].din.next = self.old_g[b].out.val() + self.inc_g.val();
            self.zx_sum_g2[b].din.next = self.old_g2[b].out.val() + self.inc_g2.val();
            self.zx_rec_addr[b].din.next = self.banks[b].mod_index.val();
            self.zx_rec_word[b].din.next = self.banks[b].mod_old.val();
            self.banks[b].mod_write.next = true;
            self.unused_candidates.next = self.unused_candidates.val()
                || self.banks[b].mod_ram.val().any()
                || self.banks[b].mod_fwd1.val().any()
                || self.banks[b].mod_fwd2.val().any()
                || self.banks[b].mod_fwd3.val().any()
                || self.banks[b].mod_fwd4.val().any()
                || self.banks[b].mod_fwd5.val().any()
                || self.banks[b].pre_valid.val()
                || self.banks[b].pre_payload.val().any()
                || self.banks[b].pre_old.val().any()
                || self.banks[b].pre_early.val().any()
                || self.banks[b].pre_near2.val()
                || self.banks[b].mod_pick.val().any();
            if self.banks[b].mod_payload.val().get_bit(0) {
                self.banks[b].mod_new.next = self.zero_word.val();
                if self.banks[b].mod_valid.val() {
                    self.out_v.d.next = !self.reset.val();
                    self.out_d.d.next =
                        self.zx_rec_addr[b].out.val() | (self.zx_rec_word[b].out.val() << self.off_word.val());
                }
            } else {
                self.banks[b].mod_new.next =
                    self.zx_sum_g[b].out.val() | (self.zx_sum_g2[b].out.val() << self.off_g2.val());
            }
        }
        // T4: record → FIFO.
        self.fifo.reset.next = self.reset.val();
        self.fifo.in_valid.next = self.out_v.q.val();
        self.fifo.in_data.next = self.out_d.q.val();
        self.fifo.out_ready.next = self.out_ready.val();
        self.out_valid.next = self.fifo.out_valid.val();
        self.out_data.next = self.fifo.out_data.val();
        // Readiness, registered: it falls with reset (and stays low through the sweep) one cycle late,
        // which only matters in the reset cycle, where nothing is accepted anyway.
        self.ready_q.d.next = self.banks[0].in_ready.val() && self.banks[1].in_ready.val();
        self.ready.next = self.ready_q.q.val();
        self.busy.next = self.dumping.q.val();
        self.drops.next = self.fifo.drops.val();
    }
}
