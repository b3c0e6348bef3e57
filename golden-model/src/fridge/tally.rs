//! In-hardware tally of the fridge core: per fridge and per log-spaced delay bin, the sums of the
//! correction factor g and of g², so a deployment can read a delay distribution without exporting every
//! sample. Per-sample reports stay available (the tally watches the report register, before the report
//! FIFO, so it sees every report even when the FIFO drops one).
//!
//! ## Bins
//! The resolution is a generation parameter, [`FridgeConfig::tally_bins_per_octave`] = 2^s bins per
//! octave, s ∈ {2, 3, 4} (4, 8 or 16 bins; [`Bins`]). A delay d (stored timestamp units, `ts_bits` wide)
//! falls into bin `2^s·e + m` where `e = floor(log2 d)` and `m` are the s bits after the leading one (d = 0
//! counts as d = 1; below 2^s units the low bins of an octave stay empty): 32 octaves, `32·2^s` bins per
//! fridge (128, 256, 512) for delays up to 2^32 units. Bin b covers `[(2^s+m)·2^e/2^s, (2^s+m+1)·2^e/2^s)`
//! (see [`Bins::lower`]): a relative width of 1/(2^s + m), at most 25 %, 12.5 %, 6.25 %. Software reads a
//! percentile inside a bin by log-uniform interpolation (`sim::fridge::estimate`); the error of a tally
//! percentile is bounded by one bin's width where the distribution is narrower than a bin.
//!
//! Memory: one bank word per bin and fridge, so a single fridge's bank of 128 to 512 words fits the same
//! 512-word DP16KD tiles: 16 bins per octave cost no block RAM over 4 for one fridge (more for several).
//!
//! ## Correction factor from a table
//! The estimator's weight is `w = g(x) / (p_k · s_k)` with `g(x) = (1 − 1/M_k)^−x` (see `sim::fridge::
//! estimate`). p_k and s_k are per-fridge constants, so the hardware accumulates g and g² only, and software
//! scales by `1/(p_k s_k)` and its square at readout. g comes from a ROM indexed by `{fridge, i}` with
//! `i = min(x >> sh_k, 1023)`, `sh_k = max(log2 M_k − 6, 0)`: 64 steps per M_k of insertions, covering
//! x < 16·M_k and g < 2^24 (a request survives that many insertions with probability below e^−16 ≈
//! 1.1·10^−7; beyond, the weight saturates and is underestimated). Each word holds g at the step's
//! midpoint `x = i·2^sh + (2^sh − 1)/2`, so within a step the table is off by at most a factor
//! `(1 − 1/M)^−(2^sh−1)/2` ≤ e^(1/128) (0.78 %), plus rounding to 8 fraction bits (≤ 0.2 % since g ≥ 1):
//! ≤ 1 % over the covered range, proven for every M in [`tests`]. In the baseline modes (simple, expiry)
//! there is no correction: every sample adds g = g² = 1.
//!
//! Fixed point: g is 24.8 ([`G_BITS`]), g² 48.8 ([`G2_BITS`]); the accumulators are Σg 40.8 ([`SUM_G_BITS`])
//! and Σg² 62.8 ([`SUM_G2_BITS`]), wrapping. One RAM word is `Σg | Σg² << 48` (118 bits).
//!
//! ## Records
//! A record is 128 bits ([`RECORD_BITS`]): bin (`5 + s` bits) | fridge (3) | Σg (48) | Σg², the last cut to
//! the `77 − 5 − s` bits left ([`Bins::record_g2_bits`]: 70, 69, 68). The accumulators wrap anyway, so a
//! record's Σg² is the sum modulo 2^(72 − s) — what a narrower accumulator would hold (60.8 fixed point at
//! 16 bins per octave; finer bins also spread the same samples over more words).
//!
//! ## Ping-pong readout
//! Two banks of `fridges × bins` words. Reports add into the *active* bank (CSR `tally_bank`, bit 0). A
//! write of CSR `tally_dump` starts a walk over the other (frozen) bank: every word is read, cleared, and
//! sent as a [`TallyRecord`] through the tally FIFO to the `tally_*` output port, in address order
//! (fridge 0 bins 0.., fridge 1, ...). The walk never stalls traffic: a word is issued only in a cycle
//! in which no report goes to the same bank, and only while the FIFO has room for everything in flight.
//! Software swaps `tally_bank`, then writes `tally_dump`, collects `fridges × bins` records, and may swap
//! again (a swap during a walk makes the walk compete with reports for its bank: it still completes).

use super::{FridgeConfig, Report};
use crate::common::config::ConfigError;
use crate::common::fifo::{FifoInputs, FifoModel};
use crate::common::mask128;
use crate::common::rmw::{RmwInputs, RmwModel};
use crate::common::sram::RamPorts;

/// Octaves a tally covers (as a power of two): delays up to 2^32 stored units, the widest timestamp.
pub const OCTAVE_BITS: usize = 5;
/// The bins per octave a build may have ([`FridgeConfig::tally_bins_per_octave`]).
pub const BINS_PER_OCTAVE: [usize; 3] = [4, 8, 16];
/// The default resolution: four bins per octave.
pub const DEFAULT_BINS_PER_OCTAVE: usize = 4;
/// ROM index width per fridge, and the steps per M_k (as a power of two).
pub const ROM_INDEX_BITS: usize = 10;
pub const ROM_STEPS_PER_M_BITS: usize = 6;
/// Fraction bits of every fixed-point quantity.
pub const FRAC_BITS: usize = 8;
/// g (24.8) and g² (48.8) in a ROM word `g | g² << G_BITS`.
pub const G_BITS: usize = 32;
pub const G2_BITS: usize = 56;
pub const ROM_WORD_BITS: usize = G_BITS + G2_BITS;
/// Accumulators Σg (40.8) and Σg² (62.8) in a RAM word `Σg | Σg² << SUM_G_BITS`.
pub const SUM_G_BITS: usize = 48;
pub const SUM_G2_BITS: usize = 70;
pub const WORD_BITS: usize = SUM_G_BITS + SUM_G2_BITS;
/// Record on the output port: bin | fridge (3) | Σg | Σg² cut to the width left, LSB first ([`Bins`]).
pub const RECORD_BITS: usize = 128;
/// Tally FIFO depth (log2), and the most operations between a walk issue and its FIFO push (the walk
/// issues only while `level ≤ depth − IN_FLIGHT`).
pub const FIFO_BITS: usize = 4;
pub const IN_FLIGHT: usize = 4;
/// The word added in the baseline modes: g = g² = 1.0.
pub const UNIT_INCREMENT: u128 = (1 << FRAC_BITS) | (1 << FRAC_BITS) << G_BITS;

/// The bin geometry of a tally: 2^`sub_bits` bins per octave over 2^[`OCTAVE_BITS`] octaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bins {
    sub_bits: usize,
}

impl Default for Bins {
    fn default() -> Self {
        Bins::of_config(DEFAULT_BINS_PER_OCTAVE)
    }
}

impl Bins {
    /// The geometry of `bins_per_octave` bins (4, 8 or 16; anything else is an error naming them).
    pub fn new(bins_per_octave: usize) -> Result<Bins, ConfigError> {
        if BINS_PER_OCTAVE.contains(&bins_per_octave) {
            Ok(Bins::of_config(bins_per_octave))
        } else {
            Err(ConfigError(format!("tally bins per octave = {bins_per_octave}; allowed: 4, 8 or 16")))
        }
    }
    /// The geometry of a checked configuration's tally.
    pub fn of(cfg: &FridgeConfig) -> Bins {
        Bins::of_config(cfg.tally_bins_per_octave)
    }
    const fn of_config(bins_per_octave: usize) -> Bins {
        Bins { sub_bits: bins_per_octave.trailing_zeros() as usize }
    }
    /// log2 of the bins per octave.
    pub const fn sub_bits(self) -> usize {
        self.sub_bits
    }
    pub const fn per_octave(self) -> usize {
        1 << self.sub_bits
    }
    /// Bin index width.
    pub const fn bits(self) -> usize {
        OCTAVE_BITS + self.sub_bits
    }
    /// Bins per fridge.
    pub const fn count(self) -> usize {
        1 << self.bits()
    }
    /// Width of Σg² in a record: what is left of [`RECORD_BITS`] after the bin, fridge and Σg fields.
    pub const fn record_g2_bits(self) -> usize {
        RECORD_BITS - self.bits() - super::FRIDGE_INDEX_BITS - SUM_G_BITS
    }
    /// Bin of a delay in stored units (delays past the last bin's upper edge go to the last bin).
    pub fn index(self, delay: u64) -> usize {
        let s = self.sub_bits;
        let d = delay.max(1);
        let e = 63 - d.leading_zeros() as usize;
        let m = if e >= s { (d >> (e - s)) as usize } else { (d << (s - e)) as usize };
        ((e << s) | (m & ((1 << s) - 1))).min(self.count() - 1)
    }
    /// Lower edge of bin b in stored units (bin 0 also holds delay 0).
    pub fn lower(self, b: usize) -> f64 {
        let s = self.sub_bits;
        let (e, m) = (b >> s, b & ((1 << s) - 1));
        ((1 << s) + m) as f64 * 2f64.powi(e as i32 - s as i32)
    }
    /// Upper edge of bin b in stored units.
    pub fn upper(self, b: usize) -> f64 {
        self.lower(b) + 2f64.powi((b >> self.sub_bits) as i32 - self.sub_bits as i32)
    }
}

/// ROM step shift of a fridge with 2^`addr_bits` entries.
pub fn rom_shift(addr_bits: usize) -> usize {
    addr_bits.saturating_sub(ROM_STEPS_PER_M_BITS)
}

/// ROM index of a sample that survived `x` insertions in a fridge with 2^`addr_bits` entries.
pub fn rom_index(addr_bits: usize, x: u64) -> usize {
    ((x >> rom_shift(addr_bits)) as usize).min((1 << ROM_INDEX_BITS) - 1)
}

/// g(x) = (1 − 1/M)^−x, exactly (in f64).
pub fn g_exact(addr_bits: usize, x: f64) -> f64 {
    (-x * (1.0 - 1.0 / (1u64 << addr_bits) as f64).ln()).exp()
}

/// ROM word for step `i` of a fridge with 2^`addr_bits` entries: `g | g² << G_BITS` in fixed point.
pub fn rom_word(addr_bits: usize, i: usize) -> u128 {
    let step = (1u64 << rom_shift(addr_bits)) as f64;
    let g = g_exact(addr_bits, i as f64 * step + (step - 1.0) / 2.0);
    let scale = (1u64 << FRAC_BITS) as f64;
    // Saturate in the integer domain (2^56 − 1 is not an f64: a float clamp would round up past it).
    let fixed = |v: f64, bits: usize| {
        let x = (v * scale).round();
        if x >= mask128(bits) as f64 { mask128(bits) } else { x as u128 }
    };
    fixed(g, G_BITS) | fixed(g * g, G2_BITS) << G_BITS
}

/// ROM contents of a core: `fridges.next_power_of_two() × 1024` words, fridge k at `k << 10`.
pub fn rom_contents(cfg: &FridgeConfig) -> Vec<u128> {
    let words = cfg.fridges().next_power_of_two() << ROM_INDEX_BITS;
    (0..words)
        .map(|a| {
            let k = a >> ROM_INDEX_BITS;
            if k < cfg.fridges() {
                rom_word(cfg.addr_bits[k], a & ((1 << ROM_INDEX_BITS) - 1))
            } else {
                0
            }
        })
        .collect()
}

/// Address bits of one tally bank (`{fridge, bin}`).
pub fn bank_addr_bits(cfg: &FridgeConfig) -> usize {
    bank_addr_bits_of(cfg.fridges(), cfg.tally_bins_per_octave)
}

/// [`bank_addr_bits`] for `fridges` fridges and `bins_per_octave` bins (const: a generic of the RTL).
pub const fn bank_addr_bits_of(fridges: usize, bins_per_octave: usize) -> usize {
    super::sizes::fridge_bits(fridges) + Bins::of_config(bins_per_octave).bits()
}

/// Address bits of the weight ROM (`{fridge, i}`).
pub fn rom_addr_bits(cfg: &FridgeConfig) -> usize {
    rom_addr_bits_of(cfg.fridges())
}

/// [`rom_addr_bits`] for `fridges` fridges (const: a generic of the RTL).
pub const fn rom_addr_bits_of(fridges: usize) -> usize {
    super::sizes::fridge_bits(fridges) + ROM_INDEX_BITS
}

/// One tally word read out of the frozen bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TallyRecord {
    pub fridge: usize,
    pub bin: usize,
    /// Σg in 40.8 fixed point.
    pub sum_g: u64,
    /// Σg² in 62.8 fixed point.
    pub sum_g2: u128,
}

impl TallyRecord {
    /// The record of bank word `word` at bank address `addr` (Σg² cut to the record's width).
    pub fn from_word(addr: usize, word: u128, bins: Bins) -> TallyRecord {
        TallyRecord {
            fridge: addr >> bins.bits(),
            bin: addr & (bins.count() - 1),
            sum_g: (word & mask128(SUM_G_BITS)) as u64,
            sum_g2: (word >> SUM_G_BITS) & mask128(bins.record_g2_bits()),
        }
    }
    pub fn pack(&self, bins: Bins) -> u128 {
        let b = bins.bits();
        self.bin as u128
            | (self.fridge as u128) << b
            | (self.sum_g as u128) << (3 + b)
            | self.sum_g2 << (3 + b + SUM_G_BITS)
    }
    pub fn unpack(w: u128, bins: Bins) -> TallyRecord {
        let b = bins.bits();
        TallyRecord {
            fridge: ((w >> b) & 0b111) as usize,
            bin: (w as usize) & (bins.count() - 1),
            sum_g: ((w >> (3 + b)) & mask128(SUM_G_BITS)) as u64,
            sum_g2: w >> (3 + b + SUM_G_BITS),
        }
    }
    /// Σg as a real number.
    pub fn g(&self) -> f64 {
        self.sum_g as f64 / (1u64 << FRAC_BITS) as f64
    }
    /// Σg² as a real number.
    pub fn g2(&self) -> f64 {
        self.sum_g2 as f64 / (1u64 << FRAC_BITS) as f64
    }
}

/// Tally address of a report.
pub fn address(bins: Bins, r: &Report) -> usize {
    r.fridge << bins.bits() | bins.index(r.delay)
}

/// The increment a report adds: the ROM word (fridge mode) or [`UNIT_INCREMENT`].
pub fn increment(cfg: &FridgeConfig, rom: &[u128], r: &Report, corrected: bool) -> u128 {
    if corrected {
        rom[r.fridge << ROM_INDEX_BITS | rom_index(cfg.addr_bits[r.fridge], r.survived)]
    } else {
        UNIT_INCREMENT
    }
}

/// `word + increment`, each accumulator wrapping at its width.
pub fn accumulate(word: u128, inc: u128) -> u128 {
    let g = ((word & mask128(SUM_G_BITS)) + (inc & mask128(G_BITS))) & mask128(SUM_G_BITS);
    let g2 = ((word >> SUM_G_BITS) + (inc >> G_BITS)) & mask128(SUM_G2_BITS);
    g | g2 << SUM_G_BITS
}

/// Transaction-level tally: two banks, `add` per report, `dump` = read and clear the frozen bank.
#[derive(Debug, Clone)]
pub struct Tally {
    pub cfg: FridgeConfig,
    pub rom: Vec<u128>,
    pub banks: [Vec<u128>; 2],
    /// The bank reports add into.
    pub active: usize,
}

impl Tally {
    pub fn new(cfg: &FridgeConfig) -> Tally {
        let words = 1 << bank_addr_bits(cfg);
        Tally { cfg: cfg.clone(), rom: rom_contents(cfg), banks: [vec![0; words], vec![0; words]], active: 0 }
    }
    pub fn add(&mut self, r: &Report, corrected: bool) {
        let inc = increment(&self.cfg, &self.rom, r, corrected);
        let w = &mut self.banks[self.active][address(Bins::of(&self.cfg), r)];
        *w = accumulate(*w, inc);
    }
    /// Reads and clears bank `bank` in walk order.
    pub fn dump(&mut self, bank: usize) -> Vec<TallyRecord> {
        let bins = Bins::of(&self.cfg);
        let n = self.cfg.fridges() << bins.bits();
        self.banks[bank][..n]
            .iter_mut()
            .enumerate()
            .map(|(a, w)| TallyRecord::from_word(a, std::mem::take(w), bins))
            .collect()
    }
    /// Swaps the active bank and reads out the one that was active (what software does at the end of a
    /// measurement interval).
    pub fn swap_and_dump(&mut self) -> Vec<TallyRecord> {
        self.active ^= 1;
        self.dump(self.active ^ 1)
    }
}

/// One cycle's inputs of the tally block (`hdl::fridge::tally::FridgeTally`).
#[derive(Debug, Clone, Copy, Default)]
pub struct TallyInputs {
    pub reset: bool,
    /// The core's report register this cycle.
    pub report: Option<Report>,
    /// Fridge mode (weights from the ROM); otherwise every sample adds 1.
    pub corrected: bool,
    /// Bank that reports add into (CSR `tally_bank` bit 0).
    pub active: bool,
    /// Start a walk over the other bank (ignored while a walk runs).
    pub dump_start: bool,
    pub out_ready: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TallyOutputs {
    pub ready: Option<bool>,
    pub busy: Option<bool>,
    pub out_valid: Option<bool>,
    pub out_data: Option<u128>,
}

/// Cycle model of the tally block, stage for stage as the RTL:
///
/// | cycle | what happens |
/// |---|---|
/// | t   | T0 (classify): the core's report register gives bank (active), address `{fridge, bin}`, ROM index, unit weight (not fridge mode); registered |
/// | t+1 | T1 (issue): the report goes into its bank's RMW pipeline and reads the weight ROM at `{fridge, i}`; the walk issues `{frozen bank, walk address}` with a clear flag if that bank takes no report and the FIFO has room |
/// | t+2 | ROM word out, registered |
/// | t+3 | modify stage of the bank: add the increment, or clear and capture the old word |
/// | t+4 | captured word (a [`TallyRecord`]) → tally FIFO |
#[derive(Debug, Clone)]
pub struct TallyCycleModel {
    pub cfg: FridgeConfig,
    rom: Vec<u128>,
    pub banks: [RmwModel; 2],
    pub fifo: FifoModel,
    /// Both banks were ready last cycle (the registered `ready` output; `None` before the first reset).
    ready_reg: Option<bool>,
    dumping: bool,
    dump_bank: usize,
    dump_addr: usize,
    /// The classify register: (bank, address, increment).
    classified: Option<(usize, usize, u128)>,
    out_reg: Option<u128>,
}

/// RMW payload of a walk operation (reports carry their increment, < 2^88).
const CLEAR: u128 = 1 << 127;

impl TallyCycleModel {
    pub fn new(cfg: &FridgeConfig) -> TallyCycleModel {
        let bank = RmwModel::new(RamPorts::Dual, bank_addr_bits(cfg), WORD_BITS);
        TallyCycleModel {
            cfg: cfg.clone(),
            rom: rom_contents(cfg),
            banks: [bank.clone(), bank],
            fifo: FifoModel::new(FIFO_BITS, RECORD_BITS),
            ready_reg: None,
            dumping: false,
            dump_bank: 0,
            dump_addr: 0,
            classified: None,
            out_reg: None,
        }
    }
    /// Both banks past their reset sweep, as of last cycle (the core holds packets back until then).
    pub fn ready(&self) -> Option<bool> {
        self.ready_reg
    }
    /// A walk is running (CSR status `tally_busy`).
    pub fn busy(&self) -> bool {
        self.dumping
    }
    pub fn step(&mut self, i: &TallyInputs) -> TallyOutputs {
        let ready = self.ready_reg;
        let busy = ready.map(|_| self.dumping);
        let room = self.fifo.level() + IN_FLIGHT <= 1 << FIFO_BITS;
        let banks_ready = self.banks[0].ready(i.reset).zip(self.banks[1].ready(i.reset)).map(|(a, b)| a && b);
        // The walk steps when its bank takes no report, the FIFO has room for everything in flight and the
        // banks were ready last cycle (so they are now, but in a reset cycle, which clears the walk).
        let walk = self.dumping && ready == Some(true) && room && self.classified.is_none_or(|c| c.0 != self.dump_bank);
        let mut captured = None;
        let bins = Bins::of(&self.cfg);
        for b in 0..2 {
            let report_here = self.classified.filter(|c| c.0 == b);
            let dump_here = report_here.is_none() && walk && self.dump_bank == b;
            let input = match report_here {
                Some((_, addr, inc)) => RmwInputs { reset: i.reset, in_valid: true, in_index: addr, in_payload: inc },
                None => RmwInputs { reset: i.reset, in_valid: dump_here, in_index: self.dump_addr, in_payload: CLEAR },
            };
            self.banks[b].step(&input, |st| {
                if st.payload == CLEAR {
                    captured = Some(TallyRecord::from_word(st.index, st.old, bins).pack(bins));
                    Some(0)
                } else {
                    Some(accumulate(st.old, st.payload))
                }
            });
        }
        let f = self.fifo.step(&FifoInputs {
            reset: i.reset,
            in_valid: self.out_reg.is_some(),
            in_data: self.out_reg.unwrap_or(0),
            out_ready: i.out_ready,
        });
        self.ready_reg = banks_ready;
        if i.reset {
            self.dumping = false;
            self.dump_addr = 0;
            self.classified = None;
            self.out_reg = None;
        } else {
            self.classified = i.report.map(|r| {
                (i.active as usize, address(bins, &r), increment(&self.cfg, &self.rom, &r, i.corrected))
            });
            if i.dump_start && !self.dumping {
                self.dumping = true;
                self.dump_bank = !i.active as usize;
                self.dump_addr = 0;
            } else if walk {
                self.dumping = self.dump_addr + 1 < self.cfg.fridges() << bins.bits();
                self.dump_addr += 1;
            }
            self.out_reg = captured;
        }
        TallyOutputs { ready, busy, out_valid: f.map(|o| o.out_valid), out_data: f.and_then(|o| o.out_data) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_contain_their_delays_at_every_resolution() {
        for n in BINS_PER_OCTAVE {
            let bins = Bins::new(n).unwrap();
            assert_eq!(bins.per_octave(), n);
            for d in 0u64..5000 {
                let b = bins.index(d);
                let x = d.max(1) as f64;
                assert!(bins.lower(b) <= x && x < bins.upper(b), "{n} per octave: delay {d} bin {b}");
            }
            for e in 4..32 {
                assert_eq!(bins.index(1 << e), n * e);
                assert_eq!(bins.index((1 << e) + (1 << e) / n as u64), n * e + 1);
                assert_eq!(bins.index((1 << (e + 1)) - 1), n * e + n - 1);
            }
            let last = bins.count() - 1;
            assert_eq!(bins.index(u32::MAX as u64), last);
            assert_eq!(bins.index(u64::MAX), last, "past 2^32 units: the last bin");
            assert!((bins.upper(last) - 2f64.powi(32)).abs() < 1.0);
            // Bins are contiguous and at most 1/n of their lower edge wide (above the first octaves).
            for b in n * 4..last {
                assert_eq!(bins.upper(b), bins.lower(b + 1));
                assert!(bins.upper(b) / bins.lower(b) <= 1.0 + 1.0 / n as f64 + 1e-12);
            }
            assert_eq!(bins.bits() + 3 + SUM_G_BITS + bins.record_g2_bits(), RECORD_BITS);
        }
        assert_eq!(Bins::default(), Bins::new(4).unwrap());
        assert_eq!(Bins::default().count(), 128);
        for bad in [0, 2, 5, 32] {
            let e = Bins::new(bad).unwrap_err().0;
            assert!(e.contains("4, 8 or 16"), "{e}");
        }
    }

    /// The table's g is within 1 % of (1 − 1/M)^−x for every M of the core and every x of the covered range
    /// (x < 16·M and g < 2^24; beyond 200 000 values of x, every 37th).
    #[test]
    fn rom_error_is_within_one_percent() {
        let mut worst: f64 = 0.0;
        for a in 2..=16 {
            let words: Vec<u128> = (0..1 << ROM_INDEX_BITS).map(|i| rom_word(a, i)).collect();
            let limit = 16u64 << a;
            let stride = if limit > 200_000 { 37 } else { 1 };
            for x in (0..limit).step_by(stride) {
                let w = words[rom_index(a, x)];
                let g = (w & mask128(G_BITS)) as f64 / 256.0;
                let g2 = (w >> G_BITS) as f64 / 256.0;
                let exact = g_exact(a, x as f64);
                if exact >= (1u64 << 24) as f64 / 1.01 {
                    break;
                }
                let (e1, e2) = ((g / exact - 1.0).abs(), (g2 / (exact * exact) - 1.0).abs());
                worst = worst.max(e1);
                assert!(e1 <= 0.01, "M = 2^{a}, x = {x}: g {g} vs {exact}");
                assert!(e2 <= 0.02, "M = 2^{a}, x = {x}: g² {g2} vs {}", exact * exact);
            }
        }
        assert!(worst > 0.005, "the bound is tight-ish: worst {worst}");
    }

    /// Past the covered range the words saturate at their field widths (never spill into the next field).
    #[test]
    fn rom_words_saturate_within_their_fields() {
        for a in 2..=16 {
            for i in [0, 511, 1023] {
                let w = rom_word(a, i);
                assert!(w >> ROM_WORD_BITS == 0, "M = 2^{a}, step {i}: {w:#x}");
            }
        }
        assert_eq!(rom_word(3, 1023), mask128(ROM_WORD_BITS));
    }

    #[test]
    fn records_pack_and_accumulators_wrap() {
        for n in BINS_PER_OCTAVE {
            let bins = Bins::new(n).unwrap();
            let g2 = mask128(bins.record_g2_bits());
            let r = TallyRecord { fridge: 5, bin: bins.count() - 3, sum_g: mask128(SUM_G_BITS) as u64, sum_g2: g2 };
            assert_eq!(TallyRecord::unpack(r.pack(bins), bins), r, "{n} per octave");
            // A bank word's Σg² is cut to the record's width: the sum modulo 2^width.
            let word = 7 | mask128(SUM_G2_BITS) << SUM_G_BITS;
            let from = TallyRecord::from_word(3 << bins.bits() | 9, word, bins);
            assert_eq!((from.fridge, from.bin, from.sum_g, from.sum_g2), (3, 9, 7, g2));
        }
        assert_eq!(Bins::default().record_g2_bits(), SUM_G2_BITS, "the default record holds all of Σg²");
        let w = accumulate(mask128(SUM_G_BITS) | mask128(SUM_G2_BITS) << SUM_G_BITS, UNIT_INCREMENT);
        assert_eq!(w, 255 | 255 << SUM_G_BITS);
    }

    #[test]
    fn dump_reads_and_clears_the_frozen_bank() {
        for n in BINS_PER_OCTAVE {
            let cfg = FridgeConfig { addr_bits: vec![8, 6], tally_bins_per_octave: n, ..FridgeConfig::default() };
            let bins = Bins::of(&cfg);
            let mut t = Tally::new(&cfg);
            t.add(&Report { fridge: 1, delay: 1000, survived: 3 }, true);
            t.add(&Report { fridge: 1, delay: 1001, survived: 0 }, false);
            let recs = t.swap_and_dump();
            assert_eq!(recs.len(), 2 * 32 * n);
            let r = recs[bins.count() + bins.index(1000)];
            assert_eq!((r.fridge, r.bin), (1, bins.index(1000)));
            assert!((r.g() - (1.0 + g_exact(6, 3.0))).abs() < 0.01, "{}", r.g());
            assert!(t.swap_and_dump().iter().all(|r| r.sum_g == 0 && r.sum_g2 == 0));
        }
    }
}
