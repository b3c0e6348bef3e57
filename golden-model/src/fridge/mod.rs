//! Fridge core (Zheng, "Compact Algorithms for Measuring Network Performance", ch. 2): unbiased delay
//! distributions from a hash-indexed request table with survivorship-bias correction.
//!
//! This module holds the packet descriptor and report types shared by the traffic generators, the golden
//! model, the RTL and the estimators.

use serde::{Deserialize, Serialize};

/// Width of a request/response identifier (e.g. a 104-bit 5-tuple plus sequence bits).
pub const ID_BITS: usize = 128;

/// Whether a packet opens (request) or closes (response) a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PacketKind {
    Request,
    Response,
}

/// One packet as the core sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Descriptor {
    pub kind: PacketKind,
    /// Identifier shared by a request and its response.
    pub id: u128,
    /// Arrival time in nanoseconds; only the low 48 bits ([`crate::common::config::TIMESTAMP_BITS`]) reach
    /// the hardware, and they wrap.
    pub timestamp: u64,
}

use crate::common::config::{check_range, ConfigError, TIMESTAMP_BITS};
use crate::common::csr::CsrLayout;
use crate::common::hash::{HashKind, XorHash};
use crate::common::mask128;
use crate::common::prng::{seed_state, xorshift32, PRNG_DEFAULT_SEED};
use crate::common::sram::{RamPorts, RamTiming};

/// Most fridges one core holds.
pub const MAX_FRIDGES: usize = 8;
/// Bits of the fridge index in payloads and reports.
pub const FRIDGE_INDEX_BITS: usize = 3;
/// Hash that chooses the fridge: CRC-16/UMTS of the id. Fridge k owns the hash values
/// `[bound(k), bound(k+1))` of `0..2^16`, `bound(k) = floor(k * 2^16 / N)` (see [`FridgeConfig::bound`]).
pub const SELECT_HASH: HashKind = HashKind::Crc16Umts;
/// Hash that indexes the table: the low `addr_bits` of H3/32 of the id.
pub const INDEX_HASH: HashKind = HashKind::H3 { out_bits: 32 };
/// Hash that gives the signature: the low `sig_bits` of CRC-32/MPEG-2 of the id.
pub const SIGNATURE_HASH: HashKind = HashKind::Crc32Mpeg2;

/// The sizes that follow from a fridge core's independent generation parameters, as `const fn`s: the
/// [`FridgeConfig`] methods and hdl's build declarations (which need them as const generics of
/// `FridgeCore`) both compute them here, so they are written once.
pub mod sizes {
    use super::FRIDGE_INDEX_BITS;
    /// Address bits of the one table RAM that holds fridges of `2^addr_bits[k]` entries.
    pub const fn ram_addr_bits(addr_bits: &[usize]) -> usize {
        let mut total = 0usize;
        let mut k = 0;
        while k < addr_bits.len() {
            total += 1 << addr_bits[k];
            k += 1;
        }
        total.next_power_of_two().trailing_zeros() as usize
    }
    /// Table entry: valid (1) | signature | timestamp | counter snapshot.
    pub const fn entry_bits(sig_bits: usize, ts_bits: usize, counter_bits: usize) -> usize {
        1 + sig_bits + ts_bits + counter_bits
    }
    /// Report word: fridge | delay | survived insertions x.
    pub const fn report_bits(ts_bits: usize, counter_bits: usize) -> usize {
        FRIDGE_INDEX_BITS + ts_bits + counter_bits
    }
    /// Config registers: mode, expiry, prng_seed, one threshold per fridge, tally_bank, tally_dump.
    pub const fn csr_config_regs(fridges: usize) -> usize {
        3 + fridges + 2
    }
    /// Bits of the CSR config window (32 per register).
    pub const fn csr_config_bits(fridges: usize) -> usize {
        32 * csr_config_regs(fridges)
    }
    /// Fridge-number bits of the tally's addresses (`{fridge, …}`).
    pub const fn fridge_bits(fridges: usize) -> usize {
        fridges.next_power_of_two().trailing_zeros() as usize
    }
}

/// Look-ahead levels of the fridge's RMW pipeline: the write decision is taken at the look-ahead stage SL on
/// flip-flop words (the word before the packet ahead, and the writes of the packets one and two ahead) and
/// only picked at the modify stage, so the loop from one packet's write to the next one's is a 2:1 choice
/// (`hdl::fridge`). Two levels: the modify stage at S4 (short RAM), two cycles later than without; on
/// either RAM (the single-port pipeline takes two levels as well, its modify stage stays even).
pub const LOOKAHEAD: usize = 2;

/// The fridge core's identity registers: `FRDG`, register map 1.0.
pub const FRIDGE_IDENT: crate::common::csr::CoreIdent = crate::common::csr::CoreIdent::new(b"FRDG", 1, 0);

/// Generation-time shape of a fridge core.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FridgeConfig {
    /// log2 of each fridge's entry count M_k (2..=16); 1..=8 fridges.
    pub addr_bits: Vec<usize>,
    /// Signature width (1..=32).
    pub sig_bits: usize,
    /// Stored timestamp width (8..=32, compared with the 32-bit expiry CSR): timestamps are stored as
    /// `(ts >> ts_shift) mod 2^ts_bits`.
    pub ts_bits: usize,
    /// Timestamp scaling: one stored unit is `2^ts_shift` ns (`ts_shift + ts_bits` ≤ 48).
    pub ts_shift: usize,
    /// Insertion counter width (8..=32); counters and `x` wrap modulo `2^counter_bits`.
    pub counter_bits: usize,
    /// Dual-port (II = 1) or single-port (II = 2) table RAM.
    pub ports: RamPorts,
    /// log2 of the report FIFO depth.
    pub report_fifo_bits: usize,
    /// In-hardware tally of Σg and Σg² per fridge and delay bin, with ping-pong readout ([`tally`]).
    pub tally: bool,
    /// Resolution of the tally: delay bins per octave, 4, 8 or 16 ([`tally::Bins`]).
    pub tally_bins_per_octave: usize,
    /// RTL builds: the table on [`RamTiming::Registered`] block RAM (its default bank size,
    /// [`RamTiming::registered`]): the pipeline two cycles deeper, for large tables whose block-RAM outputs
    /// and fan-out do not meet the clock on the short timing. Behaviour is otherwise the same; the
    /// transaction model ignores it.
    #[serde(default)]
    pub registered_ram: bool,
}

impl Default for FridgeConfig {
    /// One fridge of 1024 entries, 32-bit signatures, 32-bit timestamps in 16 ns units (68.7 s before a
    /// delay aliases), 32-bit counters, dual-port, 512 reports of FIFO, tally on at four bins per octave.
    fn default() -> Self {
        FridgeConfig {
            addr_bits: vec![10],
            sig_bits: 32,
            ts_bits: 32,
            ts_shift: 4,
            counter_bits: 32,
            ports: RamPorts::Dual,
            report_fifo_bits: 9,
            tally: true,
            tally_bins_per_octave: tally::DEFAULT_BINS_PER_OCTAVE,
            registered_ram: false,
        }
    }
}

impl FridgeConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        check_range("number of fridges", self.addr_bits.len(), 1, MAX_FRIDGES)?;
        for a in &self.addr_bits {
            check_range("fridge address bits (log2 M)", *a, 2, 16)?;
        }
        check_range("sig_bits", self.sig_bits, 1, 32)?;
        check_range("ts_bits", self.ts_bits, 8, 32)?;
        check_range("ts_shift", self.ts_shift, 0, TIMESTAMP_BITS - self.ts_bits)?;
        check_range("counter_bits", self.counter_bits, 8, 32)?;
        check_range("report_fifo_bits", self.report_fifo_bits, 1, 16)?;
        tally::Bins::new(self.tally_bins_per_octave)?;
        if self.payload_bits() > 128 {
            return Err(ConfigError(format!("payload of {} bits exceeds 128", self.payload_bits())));
        }
        Ok(())
    }
    pub fn fridges(&self) -> usize {
        self.addr_bits.len()
    }
    /// The table's RAM timing in an RTL build ([`FridgeConfig::registered_ram`]).
    pub fn ram_timing(&self) -> RamTiming {
        RamTiming::chosen(self.registered_ram, self.ram_addr_bits(), self.entry_bits())
    }
    /// Entries of fridge k.
    pub fn entries(&self, k: usize) -> usize {
        1 << self.addr_bits[k]
    }
    /// Address bits of the one table RAM that holds all fridges.
    pub fn ram_addr_bits(&self) -> usize {
        sizes::ram_addr_bits(&self.addr_bits)
    }
    /// First RAM address of fridge k. Fridges are laid out largest first, so every base is a multiple of
    /// its fridge's size and the RAM address is `base | index` (no adder).
    pub fn base(&self, k: usize) -> usize {
        let mut order: Vec<usize> = (0..self.fridges()).collect();
        order.sort_by_key(|&j| (std::cmp::Reverse(self.addr_bits[j]), j));
        order.iter().take_while(|&&j| j != k).map(|&j| self.entries(j)).sum()
    }
    /// Lower bound of fridge k's share of the 16-bit selection hash (k = N gives 2^16).
    pub fn bound(&self, k: usize) -> u32 {
        ((k as u64 * 65536) / self.fridges() as u64) as u32
    }
    /// The fraction of ids that fridge k sees, exactly.
    pub fn share(&self, k: usize) -> f64 {
        (self.bound(k + 1) - self.bound(k)) as f64 / 65536.0
    }
    /// Fridge that owns selection-hash value `h`.
    pub fn fridge_of(&self, h: u64) -> usize {
        (1..self.fridges()).filter(|&k| h >= self.bound(k) as u64).count()
    }
    /// Table entry: valid (1) | signature | timestamp | counter snapshot, LSB first.
    pub fn entry_bits(&self) -> usize {
        sizes::entry_bits(self.sig_bits, self.ts_bits, self.counter_bits)
    }
    /// Report word: fridge (3) | delay (ts_bits) | survived insertions x (counter_bits), LSB first.
    pub fn report_bits(&self) -> usize {
        sizes::report_bits(self.ts_bits, self.counter_bits)
    }
    /// Payload carried from the front stage to the modify stage: is_request (1) | enters (1) |
    /// fridge (3) | signature | timestamp | counter, LSB first.
    pub fn payload_bits(&self) -> usize {
        2 + FRIDGE_INDEX_BITS + self.sig_bits + self.ts_bits + self.counter_bits
    }
    /// The CSR map of this core.
    pub fn csr_layout(&self) -> CsrLayout {
        let mut config = vec![
            ("mode".to_string(), FridgeMode::Fridge as u32),
            ("expiry".to_string(), u32::MAX),
            ("prng_seed".to_string(), 0),
        ];
        for k in 0..self.fridges() {
            config.push((format!("threshold{k}"), u32::MAX));
        }
        // The tally's registers exist in every build (one map for all); without a tally they read 0 and
        // writing them has no effect.
        config.push(("tally_bank".to_string(), 0));
        config.push(("tally_dump".to_string(), 0));
        let status = [
            "packets",
            "requests",
            "insertions",
            "reports",
            "report_drops",
            "report_fifo_level",
            "tally_busy",
            "tally_drops",
        ];
        let mut map = CsrLayout::new(config, status.map(String::from).to_vec())
            .with_ident(FRIDGE_IDENT)
            .doc("mode", "0 fridge, 1 simple (every request overwrites), 2 expiry (overwrite only an entry older than `expiry`); other values act as 0")
            .doc("expiry", "expiry mode: age in stored timestamp units after which a resident request may be overwritten")
            .doc("prng_seed", "a write seeds the sampling PRNG")
            .doc("tally_bank", "bit 0: the tally bank reports add into (the other is frozen for readout)")
            .doc("tally_dump", "a write starts the readout walk of the frozen tally bank")
            .doc("packets", "descriptors accepted")
            .doc("requests", "requests accepted")
            .doc("insertions", "requests that entered a fridge")
            .doc("reports", "reports produced (pushed into the report FIFO or dropped)")
            .doc("report_drops", "reports dropped because the report FIFO was full")
            .doc("report_fifo_level", "reports waiting in the report FIFO")
            .doc("tally_busy", "1 while a tally readout walk runs (0 without a tally)")
            .doc("tally_drops", "tally records dropped by a full tally FIFO (0 without a tally)");
        for k in 0..self.fridges() {
            map = map.doc(format!("threshold{k}"), format!("fridge {k}: a request enters iff PRNG value <= threshold (p = threshold / (2^32 - 1))"));
        }
        map
    }
    /// Bits of the CSR config window: 32 per config register of [`Self::csr_layout`].
    pub fn csr_config_bits(&self) -> usize {
        sizes::csr_config_bits(self.fridges())
    }
    /// CSR address of `tally_bank` (bit 0: the bank reports add into); `tally_dump` follows it (a write
    /// starts the readout walk of the other bank).
    pub fn csr_tally_bank(&self) -> u8 {
        (cycle::CSR_THRESHOLD0 as usize + self.fridges()) as u8
    }
}

/// What the core does with requests (run-time, CSR `mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum FridgeMode {
    /// The fridge: a request enters with probability p_k and always overwrites.
    Fridge = 0,
    /// Prior-work baseline: every request enters and overwrites (p = 1).
    Simple = 1,
    /// Prior-work baseline: every request enters but overwrites a valid entry only when the resident
    /// request is older than the CSR `expiry` threshold (in stored timestamp units).
    Expiry = 2,
}

impl FridgeMode {
    pub fn from_csr(v: u32) -> FridgeMode {
        match v {
            1 => FridgeMode::Simple,
            2 => FridgeMode::Expiry,
            _ => FridgeMode::Fridge,
        }
    }
}

/// Run-time settings (what software writes into the CSRs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FridgeRuntime {
    pub mode: FridgeMode,
    /// Expiry threshold in stored timestamp units (Expiry mode).
    pub expiry: u32,
    /// PRNG seed (0 loads the default seed).
    pub seed: u32,
    /// Per-fridge entry threshold: a request enters fridge k iff the PRNG value ≤ `thresholds[k]`.
    /// xorshift32 yields every value of 1..=2^32−1 equally often, so p_k = thresholds[k] / (2^32 − 1).
    pub thresholds: Vec<u32>,
}

/// Threshold for entry probability `p` in (0, 1] (see [`FridgeRuntime::thresholds`]).
pub fn threshold_for(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * u32::MAX as f64).round() as u32
}

/// Entry probability of a threshold.
pub fn probability_of(threshold: u32) -> f64 {
    threshold as f64 / u32::MAX as f64
}

/// A delay sample the core reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Report {
    pub fridge: usize,
    /// Delay in stored timestamp units (multiply by 2^ts_shift for ns), modulo 2^ts_bits.
    pub delay: u64,
    /// Insertions into this fridge between the request's insertion and the response, modulo
    /// 2^counter_bits.
    pub survived: u64,
}

impl Report {
    pub fn pack(&self, cfg: &FridgeConfig) -> u128 {
        self.fridge as u128
            | (self.delay as u128) << FRIDGE_INDEX_BITS
            | (self.survived as u128) << (FRIDGE_INDEX_BITS + cfg.ts_bits)
    }
    pub fn unpack(cfg: &FridgeConfig, w: u128) -> Report {
        Report {
            fridge: (w & 0b111) as usize,
            delay: ((w >> FRIDGE_INDEX_BITS) & mask128(cfg.ts_bits)) as u64,
            survived: ((w >> (FRIDGE_INDEX_BITS + cfg.ts_bits)) & mask128(cfg.counter_bits)) as u64,
        }
    }
}

/// A table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Entry {
    pub valid: bool,
    pub sig: u64,
    pub ts: u64,
    pub counter: u64,
}

impl Entry {
    pub fn pack(&self, cfg: &FridgeConfig) -> u128 {
        self.valid as u128
            | (self.sig as u128) << 1
            | (self.ts as u128) << (1 + cfg.sig_bits)
            | (self.counter as u128) << (1 + cfg.sig_bits + cfg.ts_bits)
    }
    pub fn unpack(cfg: &FridgeConfig, w: u128) -> Entry {
        Entry {
            valid: w & 1 == 1,
            sig: ((w >> 1) & mask128(cfg.sig_bits)) as u64,
            ts: ((w >> (1 + cfg.sig_bits)) & mask128(cfg.ts_bits)) as u64,
            counter: ((w >> (1 + cfg.sig_bits + cfg.ts_bits)) & mask128(cfg.counter_bits)) as u64,
        }
    }
}

/// What the front stage hands to the modify stage for one packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payload {
    pub is_request: bool,
    /// Request admitted by the entry probability (always true in the baseline modes).
    pub enters: bool,
    pub fridge: usize,
    pub sig: u64,
    pub ts: u64,
    /// Request: the fridge's insertion counter after this request's own increment (the snapshot it
    /// stores). Response: the fridge's current counter.
    pub counter: u64,
    /// RAM address: base(fridge) | index.
    pub addr: usize,
}

impl Payload {
    pub fn pack(&self, cfg: &FridgeConfig) -> u128 {
        let s = 2 + FRIDGE_INDEX_BITS;
        self.is_request as u128
            | (self.enters as u128) << 1
            | (self.fridge as u128) << 2
            | (self.sig as u128) << s
            | (self.ts as u128) << (s + cfg.sig_bits)
            | (self.counter as u128) << (s + cfg.sig_bits + cfg.ts_bits)
    }
    pub fn unpack(cfg: &FridgeConfig, w: u128, addr: usize) -> Payload {
        let s = 2 + FRIDGE_INDEX_BITS;
        Payload {
            is_request: w & 1 == 1,
            enters: (w >> 1) & 1 == 1,
            fridge: ((w >> 2) & 0b111) as usize,
            sig: ((w >> s) & mask128(cfg.sig_bits)) as u64,
            ts: ((w >> (s + cfg.sig_bits)) & mask128(cfg.ts_bits)) as u64,
            counter: ((w >> (s + cfg.sig_bits + cfg.ts_bits)) & mask128(cfg.counter_bits)) as u64,
            addr,
        }
    }
}

/// The in-order state of the front stage: hashes, PRNG and the per-fridge insertion counters.
#[derive(Debug, Clone)]
pub struct Front {
    pub cfg: FridgeConfig,
    pub select: XorHash,
    pub index: XorHash,
    pub signature: XorHash,
    pub prng: u32,
    /// Insertion counters (requests admitted into each fridge), modulo 2^counter_bits.
    pub counters: Vec<u64>,
    /// `cfg.base(k)`, precomputed.
    bases: Vec<usize>,
}

impl Front {
    pub fn new(cfg: &FridgeConfig) -> Result<Front, ConfigError> {
        cfg.check()?;
        Ok(Front {
            cfg: cfg.clone(),
            select: XorHash::new(SELECT_HASH, ID_BITS)?,
            index: XorHash::new(INDEX_HASH, ID_BITS)?,
            signature: XorHash::new(SIGNATURE_HASH, ID_BITS)?,
            prng: PRNG_DEFAULT_SEED,
            counters: vec![0; cfg.fridges()],
            bases: (0..cfg.fridges()).map(|k| cfg.base(k)).collect(),
        })
    }
    /// Reset: counters to zero, PRNG to its default seed.
    pub fn reset(&mut self) {
        self.prng = PRNG_DEFAULT_SEED;
        self.counters.iter_mut().for_each(|c| *c = 0);
    }
    /// Loads a PRNG seed (a CSR write of `prng_seed`).
    pub fn seed(&mut self, seed: u32) {
        self.prng = seed_state(seed);
    }
    /// Processes one packet in order: chooses fridge and address, draws the entry decision (requests
    /// consume one PRNG value each, in every mode) and counts the insertion.
    pub fn process(&mut self, rt: &FridgeRuntime, d: &Descriptor) -> Payload {
        let cfg = &self.cfg;
        let k = if cfg.fridges() == 1 { 0 } else { cfg.fridge_of(self.select.eval(d.id)) };
        let addr = self.bases[k] | (self.index.eval(d.id) as usize & (cfg.entries(k) - 1));
        let sig = self.signature.eval(d.id) & (mask128(cfg.sig_bits) as u64);
        let ts = ((d.timestamp & (mask128(TIMESTAMP_BITS) as u64)) >> cfg.ts_shift) & mask128(cfg.ts_bits) as u64;
        let is_request = d.kind == PacketKind::Request;
        let cmask = mask128(cfg.counter_bits) as u64;
        let mut enters = false;
        if is_request {
            enters = rt.mode != FridgeMode::Fridge || self.prng <= rt.thresholds[k];
            self.prng = xorshift32(self.prng);
            if enters {
                self.counters[k] = (self.counters[k] + 1) & cmask;
            }
        }
        Payload { is_request, enters, fridge: k, sig, ts, counter: self.counters[k], addr }
    }
}

/// The modify-stage decision for one packet against its table entry: the entry to write (if any) and
/// the report (if any).
/// `mode` and `expiry` are the run-time settings the decision reads (the cycle model: as they were when the
/// packet left the front stage).
pub fn modify(
    cfg: &FridgeConfig,
    mode: FridgeMode,
    expiry: u32,
    p: &Payload,
    old: &Entry,
) -> (Option<Entry>, Option<Report>) {
    let tmask = mask128(cfg.ts_bits) as u64;
    let age = p.ts.wrapping_sub(old.ts) & tmask;
    if p.is_request {
        let overwrite = p.enters
            && match mode {
                FridgeMode::Fridge | FridgeMode::Simple => true,
                FridgeMode::Expiry => !old.valid || age > expiry as u64,
            };
        let new = Entry { valid: true, sig: p.sig, ts: p.ts, counter: p.counter };
        (overwrite.then_some(new), None)
    } else if old.valid && old.sig == p.sig {
        let x = p.counter.wrapping_sub(old.counter) & (mask128(cfg.counter_bits) as u64);
        (Some(Entry::default()), Some(Report { fridge: p.fridge, delay: age, survived: x }))
    } else {
        (None, None)
    }
}

/// Transaction-level golden model: `step(descriptor) -> Option<Report>`, as fast as it gets. The cycle
/// model used by co-simulation ([`cycle::FridgeCycleModel`]) runs the same [`Front::process`] and
/// [`modify`] at the RTL's pipeline stages.
#[derive(Debug, Clone)]
pub struct FridgeModel {
    pub front: Front,
    pub runtime: FridgeRuntime,
    pub table: Vec<Entry>,
    /// The in-hardware tally (when configured); software reads it with [`tally::Tally::swap_and_dump`].
    pub tally: Option<tally::Tally>,
}

impl FridgeModel {
    pub fn new(cfg: &FridgeConfig, runtime: FridgeRuntime) -> Result<Self, ConfigError> {
        if runtime.thresholds.len() != cfg.fridges() {
            return Err(ConfigError(format!("{} thresholds for {} fridges", runtime.thresholds.len(), cfg.fridges())));
        }
        let mut front = Front::new(cfg)?;
        front.seed(runtime.seed);
        let tally = cfg.tally.then(|| tally::Tally::new(cfg));
        Ok(FridgeModel { table: vec![Entry::default(); 1 << cfg.ram_addr_bits()], front, runtime, tally })
    }
    pub fn cfg(&self) -> &FridgeConfig {
        &self.front.cfg
    }
    pub fn step(&mut self, d: &Descriptor) -> Option<Report> {
        let p = self.front.process(&self.runtime, d);
        let rt = &self.runtime;
        let (new, report) = modify(&self.front.cfg, rt.mode, rt.expiry, &p, &self.table[p.addr]);
        if let Some(e) = new {
            self.table[p.addr] = e;
        }
        if let (Some(t), Some(r)) = (&mut self.tally, &report) {
            t.add(r, self.runtime.mode == FridgeMode::Fridge);
        }
        report
    }
}

pub mod cycle;
pub mod tally;

#[cfg(test)]
mod size_tests {
    use super::*;

    /// The const sizes agree with the configuration they summarise, for every fridge count.
    #[test]
    fn const_sizes_match_the_configuration() {
        for n in 1..=MAX_FRIDGES {
            let cfg = FridgeConfig { addr_bits: (0..n).map(|k| 10 - k.min(6)).collect(), ..FridgeConfig::default() };
            assert_eq!(cfg.csr_layout().config.len(), sizes::csr_config_regs(n));
            assert_eq!(cfg.csr_config_bits(), 32 * cfg.csr_layout().config.len());
            let total: usize = (0..n).map(|k| cfg.entries(k)).sum();
            assert_eq!(1 << cfg.ram_addr_bits(), total.next_power_of_two());
        }
    }
}
