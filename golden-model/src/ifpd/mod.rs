//! High intra-flow packet delay (IFPD) detection (J. Zhu, K. Zhang, Q. Huang, APNet 2021; the paper in
//! ../shared/papers/003_18e72b345140a561.txt, §3 Algorithms 1 and 2, §4.1, is the specification).
//!
//! The IFPD of a packet is its arrival time minus that of the previous packet of its flow (104-bit 5-tuple);
//! a flow's first packet has none. The core estimates it per packet and reports the packets whose estimate
//! reaches a threshold. Three modes of one core ([`Mode`], CSR `mode`):
//!
//! - **IFPD sketch** (Algorithm 2): `d` rows of `w` buckets `{fp, t}`; per packet its fingerprint and one
//!   bucket per row. Rows are scanned in order and the first row whose bucket either holds `fp` (**case 1**:
//!   `D = t − B.t`, `B.t ← t`) or is empty (**case 2**: `D = 0`, `B ← {fp, t}`) takes the packet; otherwise
//!   (**case 3**) the bucket with the **largest timestamp** of the `d` (ties: lowest row) is replaced,
//!   `D = t − B.t` ([`Case3Rule::Estimate`], the paper's line 16; [`Case3Rule::Zero`] treats the packet as a
//!   first packet instead — switchable because it changes the false positives). Exactly one bucket is written.
//!   The paper's scan tests "holds fp" and "empty" row by row; "first row holding fp, else first empty row"
//!   is the same rule because a bucket never becomes empty again (only a clear of the whole sketch empties).
//! - **CM** (Algorithm 1, the paper's baseline): `d` rows of timestamps; `t_min` = the minimum over the `d`
//!   buckets, every row written with `t`; `D = 0` if `t_min` is empty, else `D = t − t_min`.
//! - **CM-BF**: CM plus a Bloom filter of the flows seen, which decides "first packet" (`D = 0`); an empty
//!   `t_min` still gives `D = 0`. The filter has its own memory ([`bloom`]): `k` partitions of `m` bits,
//!   one index hash each (a partitioned filter, i.e. `k` one-bit rows of the same multi-row shape).
//!
//! ## Encodings (identical in golden and RTL)
//! - **Time unit**: the stored time is `T = ((ts_ns >> ts_shift) − base) mod 2^ts_bits` — the paper's
//!   relative time against an interval base (CSR `time_base`, in units). Default `ts_shift = 10`: a unit of
//!   1.024 µs (the paper's microseconds, a shift instead of a divider), and 32 bits wrap after 2^42 ns ≈
//!   73 min. Every difference is taken modulo `2^ts_bits` (`D = T_now − T_old`), so it is right across the
//!   wrap while the true gap is below 2^32 units; "largest timestamp" is "smallest age `T_now − B.t`", the
//!   wrap-correct order. A new base changes every later `T` by the same amount: rebase together with a clear
//!   (the start of a measurement interval), or the estimates of flows spanning the rebase are off by it.
//! - **Empty**, IFPD mode: `fp == 0`. The paper marks empty as `fp = 0, t = 0`, but a real relative time
//!   can be 0; instead fingerprints are never 0 — the fingerprint is the low `fp_bits` of CRC-32/MPEG-2 of
//!   the flow key, and a value of 0 is replaced by 1 (two of 2^16 values share fingerprint 1). The bucket
//!   stays `fp_bits + ts_bits` = 48 bits, the paper's size.
//! - **Empty**, CM modes: `t == 0` (Algorithm 1's `t_min = 0`). A packet whose stored time would be 0 (the
//!   first unit after the base, or a wrap) stores 1 instead (one unit late, only in the bucket).
//! - **Hashes** (the shared hash units): row `r`'s index is H3/32 with its own matrix
//!   (`HashKind::H3Seeded { seed: 1 + r }`) reduced to `w` buckets by `⌊h·w / 2^32⌋` — for `w = 2^a` (the
//!   RTL's rows) simply the top `a` bits of `h`; the golden model and the experiments take any `w`, so the
//!   memory budgets of the paper are met exactly. Bloom partition `p` uses seed `16 + p` the same way.
//!
//! ## Memory per mode ([`IfpdConfig::memory_bits`])
//! IFPD: `d·w·(fp_bits + ts_bits)`; CM: `d·w·ts_bits`; CM-BF: `d·w·ts_bits + k·m`. The experiments give each
//! method the buckets its own layout affords in the same budget; as run-time modes of one core, CM and CM-BF
//! use only the `t` field of the IFPD rows (`fp` written 0) and the filter RAMs exist only in builds with a
//! filter.
//!
//! Files: [`bucket`] (the bucket word and the per-packet decision shared with a cycle model on the multi-row
//! RMW), [`bloom`] (the CM-BF filter), [`sketch`] (the transaction model), [`cycle`] (the cycle model, stage
//! for stage as the RTL, on the shared multi-row RMW, report FIFO and CSR bank; `cycle_tests` holds it
//! against the transaction model), `reference` (a naive implementation of the paper's pseudo-code for
//! cross-checks).

pub mod bloom;
pub mod bucket;
pub mod cycle;
#[cfg(test)]
mod cycle_tests;
#[cfg(test)]
mod reference;
pub mod sketch;
#[cfg(test)]
mod tests;

use crate::common::config::{check_range, ConfigError};
use crate::common::csr::{CoreIdent, CsrLayout};
use crate::common::hash::{HashBank, HashKind, XorHash, BANK_LANES};
use crate::common::mask128;
use crate::common::sram::RamTiming;
use serde::{Deserialize, Serialize};

pub use bucket::{decide, Bucket, Case, Decision, Packet};
pub use sketch::{IfpdModel, IfpdStats, Outcome};

/// Most rows a core holds.
pub const MAX_ROWS: usize = 8;
/// Bits of a row number in reports.
pub const ROW_BITS: usize = 3;
/// Bits of the case in reports (1, 2 or 3).
pub const CASE_BITS: usize = 2;
/// Width of a flow key: the IPv4 5-tuple `src | dst | sport | dport | proto`.
pub const FLOW_KEY_BITS: usize = 104;
/// Most Bloom-filter partitions (hash functions) of CM-BF.
pub const MAX_BF_HASHES: usize = 8;
/// Seed of row 0's index hash (row r: `ROW_SEED + r`).
pub const ROW_SEED: u64 = 1;
/// Seed of Bloom partition 0's index hash (partition p: `BF_SEED + p`).
pub const BF_SEED: u64 = 16;
/// A report as its port carries it (at most 32 + 3 + 2 + 32 + 32 = 101 bits).
pub type ReportWord = u128;

/// The core's identity registers: `IFPD`, register map 1.0.
pub const IFPD_IDENT: CoreIdent = CoreIdent::new(b"IFPD", 1, 0);

/// The sizes that follow from the generation parameters, as `const fn`s.
pub mod sizes {
    use super::{CASE_BITS, ROW_BITS};
    /// IFPD bucket: t | fp << ts_bits (empty iff fp = 0).
    pub const fn bucket_bits(fp_bits: usize, ts_bits: usize) -> usize {
        fp_bits + ts_bits
    }
    /// CM bucket: t (empty iff t = 0).
    pub const fn cm_bucket_bits(ts_bits: usize) -> usize {
        ts_bits
    }
    /// Report: fp | row | case | D_est | t, low field first.
    pub const fn report_bits(fp_bits: usize, ts_bits: usize) -> usize {
        fp_bits + ROW_BITS + CASE_BITS + 2 * ts_bits
    }
}

/// What the core computes (CSR `mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    /// The IFPD sketch (Algorithm 2).
    Ifpd = 0,
    /// Count-Min of timestamps (Algorithm 1).
    Cm = 1,
    /// CM with a Bloom filter deciding first packets.
    CmBf = 2,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Ifpd, Mode::Cm, Mode::CmBf];
    pub fn name(self) -> &'static str {
        match self {
            Mode::Ifpd => "ifpd",
            Mode::Cm => "cm",
            Mode::CmBf => "cm-bf",
        }
    }
    pub fn by_name(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == s)
    }
    /// The CSR value's mode (2 and 3 are CM-BF).
    pub fn from_csr(v: u32) -> Mode {
        match v & 3 {
            0 => Mode::Ifpd,
            1 => Mode::Cm,
            _ => Mode::CmBf,
        }
    }
}

/// What case 3 (every bucket held by another flow) estimates (CSR `options` bit 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Case3Rule {
    /// `D = t − B.t` of the replaced bucket (Algorithm 2, line 16).
    Estimate,
    /// `D = 0`: the flow is not in the sketch, so treat the packet as its first.
    Zero,
}

impl Case3Rule {
    pub fn name(self) -> &'static str {
        match self {
            Case3Rule::Estimate => "estimate",
            Case3Rule::Zero => "zero",
        }
    }
    pub fn by_name(s: &str) -> Option<Case3Rule> {
        [Case3Rule::Estimate, Case3Rule::Zero].into_iter().find(|r| r.name() == s)
    }
}

/// Generation-time shape of an IFPD core.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IfpdConfig {
    /// Rows `d` (1..=8).
    pub rows: usize,
    /// Buckets per row `w` (4..=2^24; a power of two `2^a` in RTL builds, any value in the golden model).
    pub buckets: usize,
    /// Fingerprint width (1..=32).
    pub fp_bits: usize,
    /// Stored (relative) timestamp width (8..=32).
    pub ts_bits: usize,
    /// Timestamp unit: `2^ts_shift` ns (0..=32).
    pub ts_shift: usize,
    /// CM-BF: Bloom partitions `k` (1..=8), one index hash each.
    pub bf_hashes: usize,
    /// CM-BF: bits per partition `m` (0: no filter in this build; else 64..=2^32).
    pub bf_bits: usize,
    /// log2 of the report FIFO depth (2..=10).
    pub report_fifo_bits: usize,
    /// RTL builds: both RAM groups (rows and filter) on [`RamTiming::Registered`] block RAM (each group its
    /// default bank size, [`RamTiming::registered`]): the pipeline three cycles deeper, for large tables
    /// whose block-RAM outputs and fan-out do not meet the clock on the short timing. Behaviour is
    /// otherwise the same; the transaction model ignores it.
    #[serde(default)]
    pub registered_ram: bool,
}

impl Default for IfpdConfig {
    /// The paper's parameters (d = 4, 16-bit fingerprints, 32-bit timestamps) at 2^12 buckets per row, units
    /// of 1.024 µs, a filter of 4 × 2^16 bits, 16 reports of FIFO.
    fn default() -> Self {
        IfpdConfig {
            rows: 4,
            buckets: 1 << 12,
            fp_bits: 16,
            ts_bits: 32,
            ts_shift: 10,
            bf_hashes: 4,
            bf_bits: 1 << 16,
            report_fifo_bits: 4,
            registered_ram: false,
        }
    }
}

impl IfpdConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        check_range("rows (d)", self.rows, 1, MAX_ROWS)?;
        check_range("buckets per row (w)", self.buckets, 4, 1 << 24)?;
        check_range("fp_bits (fingerprint)", self.fp_bits, 1, 32)?;
        check_range("ts_bits (stored timestamp)", self.ts_bits, 8, 32)?;
        check_range("ts_shift (timestamp unit 2^shift ns)", self.ts_shift, 0, 32)?;
        check_range("bf_hashes (Bloom partitions)", self.bf_hashes, 1, MAX_BF_HASHES)?;
        if self.bf_bits != 0 {
            check_range("bf_bits (bits per Bloom partition)", self.bf_bits, 64, 1 << 32)?;
        }
        check_range("report_fifo_bits", self.report_fifo_bits, 2, 10)?;
        Ok(())
    }
    /// The RAM timing of a group of `2^addr_bits` words of `width` bits in an RTL build
    /// ([`IfpdConfig::registered_ram`]).
    pub fn ram_timing(&self, addr_bits: usize, width: usize) -> RamTiming {
        RamTiming::chosen(self.registered_ram, addr_bits, width)
    }
    /// `log2 w` when `w` is a power of two (the shape an RTL build takes).
    pub fn addr_bits(&self) -> Option<usize> {
        self.buckets.is_power_of_two().then(|| self.buckets.trailing_zeros() as usize)
    }
    /// Largest stored time (and estimate, and threshold).
    #[inline]
    pub fn ts_max(&self) -> u32 {
        ((1u64 << self.ts_bits.min(32)) - 1) as u32
    }
    /// Nanoseconds per stored time unit.
    pub fn ts_unit_ns(&self) -> u64 {
        1 << self.ts_shift
    }
    /// The stored (relative) time of a 48-bit ns timestamp against `base` (units).
    #[inline]
    pub fn stored_time(&self, ts_ns: u64, base: u64) -> u32 {
        ((ts_ns >> self.ts_shift).wrapping_sub(base) & self.ts_max() as u64) as u32
    }
    /// `now − then` in stored units, modulo `2^ts_bits`.
    #[inline]
    pub fn age(&self, now: u32, then: u32) -> u32 {
        now.wrapping_sub(then) & self.ts_max()
    }
    /// Row (or Bloom partition) index of a 32-bit hash: `⌊h·n / 2^32⌋`.
    #[inline]
    pub fn reduce(h: u64, n: usize) -> usize {
        crate::common::hash::reduce32(h, n)
    }
    /// A fingerprint hash value as stored: never 0 (0 is the empty mark), so 0 becomes 1.
    #[inline]
    pub fn fingerprint(h: u64) -> u32 {
        (h as u32).max(1)
    }
    pub fn bucket_bits(&self, mode: Mode) -> usize {
        match mode {
            Mode::Ifpd => sizes::bucket_bits(self.fp_bits, self.ts_bits),
            Mode::Cm | Mode::CmBf => sizes::cm_bucket_bits(self.ts_bits),
        }
    }
    /// Bloom filter bits (0 without a filter).
    pub fn bf_memory_bits(&self) -> usize {
        self.bf_hashes * self.bf_bits
    }
    /// Memory bits of `mode`'s own layout (see the module docs).
    pub fn memory_bits(&self, mode: Mode) -> usize {
        let rows = self.rows * self.buckets * self.bucket_bits(mode);
        rows + if mode == Mode::CmBf { self.bf_memory_bits() } else { 0 }
    }
    pub fn report_bits(&self) -> usize {
        sizes::report_bits(self.fp_bits, self.ts_bits)
    }
    /// Row `r`'s index hash: H3/32 with seed `ROW_SEED + r`.
    pub fn row_hash(&self, r: usize) -> Result<XorHash, ConfigError> {
        XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: ROW_SEED + r as u64 }, FLOW_KEY_BITS)
    }
    /// The fingerprint hash: the low `fp_bits` of CRC-32/MPEG-2 of the flow key (before the 0 → 1 rule).
    pub fn fp_hash(&self) -> Result<XorHash, ConfigError> {
        XorHash::new(HashKind::Crc32Mpeg2, FLOW_KEY_BITS)?.truncated(self.fp_bits)
    }
    /// Bloom partition `p`'s index hash: H3/32 with seed `BF_SEED + p`.
    pub fn bf_hash(&self, p: usize) -> Result<XorHash, ConfigError> {
        XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: BF_SEED + p as u64 }, FLOW_KEY_BITS)
    }
    /// The hash units of a packet evaluated together: rows `0..d`, then the fingerprint at index `d`.
    pub fn hash_bank(&self) -> Result<HashBank, ConfigError> {
        let mut v: Vec<XorHash> = (0..self.rows).map(|r| self.row_hash(r)).collect::<Result<_, _>>()?;
        v.push(self.fp_hash()?);
        HashBank::new(v)
    }
    /// A flow's bucket index in each row (the first `d` entries) and its fingerprint, from [`Self::hash_bank`]
    /// (the row hashes are 32 bits wide: [`HashBank::get32`]).
    #[inline(always)]
    pub fn indices(&self, bank: &HashBank, flow: u128) -> ([usize; MAX_ROWS], u32) {
        bank.eval_with(flow, |v| {
            let mut idx = [0; MAX_ROWS];
            for (r, i) in idx.iter_mut().enumerate().take(self.rows) {
                *i = IfpdConfig::reduce(HashBank::get32(v, r), self.buckets);
            }
            (idx, IfpdConfig::fingerprint(bank.get(v, self.rows)))
        })
    }
    /// [`Self::indices`] for `D` = `self.rows` rows, `D` a constant (the transaction model's form).
    #[inline(always)]
    pub(crate) fn row_indices<const D: usize>(&self, bank: &HashBank, flow: u128) -> ([usize; D], u32) {
        debug_assert_eq!(D, self.rows);
        bank.eval_with(flow, |v| {
            let idx = std::array::from_fn(|r| IfpdConfig::reduce(HashBank::get32(v, r), self.buckets));
            (idx, IfpdConfig::fingerprint(bank.get(v, D)))
        })
    }
    /// CM-BF's hash units evaluated together, one table pass per packet instead of two: the row hashes
    /// (units `0..d`), then the Bloom partitions' (units `d..d + k`), and no fingerprint (CM-BF's decision
    /// does not read it; a report computes it). `None` in a build without a filter, or when the `d + k`
    /// units are more than a bank holds ([`BANK_LANES`] lanes of 64 bits).
    pub fn cm_bf_hash_bank(&self) -> Result<Option<HashBank>, ConfigError> {
        if self.bf_bits == 0 || 32 * (self.rows + self.bf_hashes) > 64 * BANK_LANES {
            return Ok(None);
        }
        let rows = (0..self.rows).map(|r| self.row_hash(r));
        let bf = (0..self.bf_hashes).map(|p| self.bf_hash(p));
        Ok(Some(HashBank::new(rows.chain(bf).collect::<Result<_, _>>()?)?))
    }
    /// A flow's bucket index in each of `D` = `self.rows` rows and its bit in each filter partition (the
    /// first `k` entries) as the position `p · bf_stride + index` of a filter whose partitions lie
    /// `bf_stride` bits apart ([`bloom::BloomFilter::stride`]), from [`Self::cm_bf_hash_bank`].
    #[inline(always)]
    pub(crate) fn row_and_bf_indices<const D: usize>(
        &self,
        bank: &HashBank,
        flow: u128,
        bf_stride: usize,
    ) -> ([usize; D], [usize; MAX_BF_HASHES]) {
        debug_assert_eq!(D, self.rows);
        bank.eval_with(flow, |v| {
            let idx = std::array::from_fn(|r| IfpdConfig::reduce(HashBank::get32(v, r), self.buckets));
            let mut bits = [0; MAX_BF_HASHES];
            for (p, i) in bits.iter_mut().enumerate().take(self.bf_hashes) {
                *i = p * bf_stride + IfpdConfig::reduce(HashBank::get32(v, D + p), self.bf_bits);
            }
            (idx, bits)
        })
    }
    /// The Bloom partitions' index hashes evaluated together.
    pub fn bf_hash_bank(&self) -> Result<HashBank, ConfigError> {
        HashBank::new((0..self.bf_hashes).map(|p| self.bf_hash(p)).collect::<Result<_, _>>()?)
    }

    /// The register map (run-time settings and counters).
    pub fn csr_layout(&self) -> CsrLayout {
        let d = IfpdRuntime::default();
        let config = vec![
            ("mode".to_string(), d.mode as u32),
            ("threshold".to_string(), d.threshold),
            ("time_base".to_string(), d.base as u32),
            ("options".to_string(), d.options_word()),
        ];
        let status =
            ["packets", "case1_match", "case2_insert", "case3_replace", "reports", "report_drops", "report_fifo_level"];
        CsrLayout::new(config, status.map(String::from).to_vec())
            .with_ident(IFPD_IDENT)
            .doc("mode", "0 IFPD sketch (Algorithm 2), 1 CM (Algorithm 1), 2 CM-BF (CM + Bloom filter of seen flows; builds with a filter)")
            .doc("threshold", "report a packet when its estimate D_est >= threshold, in stored units of 2^ts_shift ns (the core reads the low ts_bits bits)")
            .doc("time_base", "interval base in units: stored time = (ts >> ts_shift) - time_base mod 2^ts_bits; change it together with a clear")
            .doc("options", "bit 0: case 3 (no row holds or can take the flow) estimates 0 instead of t - B.t of the replaced bucket")
            .doc("packets", "descriptors accepted")
            .doc("case1_match", "packets whose fingerprint a row held (CM modes: packets with an estimate)")
            .doc("case2_insert", "packets written into an empty bucket (CM modes: packets judged first of their flow, D_est = 0)")
            .doc("case3_replace", "packets that replaced the bucket with the largest timestamp (IFPD mode only)")
            .doc("reports", "reports pushed into the report FIFO (or dropped): packets with D_est >= threshold")
            .doc("report_drops", "reports dropped by a full report FIFO")
            .doc("report_fifo_level", "reports waiting in the report FIFO")
    }
}

/// Run-time settings (CSRs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IfpdRuntime {
    pub mode: Mode,
    /// Report threshold in stored units.
    pub threshold: u32,
    /// Interval base in units (the low `ts_bits` bits matter).
    pub base: u64,
    pub case3: Case3Rule,
}

impl Default for IfpdRuntime {
    /// IFPD mode, threshold 683 594 units (700 ms at the default 1.024 µs unit), base 0, the paper's case 3.
    fn default() -> Self {
        IfpdRuntime { mode: Mode::Ifpd, threshold: 683_594, base: 0, case3: Case3Rule::Estimate }
    }
}

impl IfpdRuntime {
    /// Settings the core of `cfg` can hold.
    pub fn check(&self, cfg: &IfpdConfig) -> Result<(), ConfigError> {
        if self.threshold > cfg.ts_max() {
            return Err(ConfigError(format!(
                "threshold {} units does not fit the {}-bit stored timestamp (at most {})",
                self.threshold,
                cfg.ts_bits,
                cfg.ts_max()
            )));
        }
        if self.mode == Mode::CmBf && cfg.bf_bits == 0 {
            return Err(ConfigError("mode CM-BF needs a build with a Bloom filter (bf_bits > 0)".into()));
        }
        Ok(())
    }
    /// The threshold in units for `ns` nanoseconds, rounded up (an estimate of `⌈ns / unit⌉` units or more
    /// is at least `ns` within one unit).
    pub fn threshold_units(cfg: &IfpdConfig, ns: u64) -> u64 {
        ns.div_ceil(cfg.ts_unit_ns())
    }
    /// CSR `options`.
    pub fn options_word(&self) -> u32 {
        (self.case3 == Case3Rule::Zero) as u32
    }
    /// The settings the config registers `conf` (in [`IfpdConfig::csr_layout`] order) hold, as the core reads
    /// them: the low `ts_bits` of `threshold` and `time_base`, `mode` 2 and 3 as CM-BF, `options` bit 0.
    pub fn from_csr(cfg: &IfpdConfig, conf: &[u32]) -> IfpdRuntime {
        IfpdRuntime {
            mode: Mode::from_csr(conf[0]),
            threshold: conf[1] & cfg.ts_max(),
            base: (conf[2] & cfg.ts_max()) as u64,
            case3: if conf[3] & 1 == 1 { Case3Rule::Zero } else { Case3Rule::Estimate },
        }
    }
    /// The CSR writes `(address, value)` that set these settings (the inverse of [`Self::from_csr`]).
    pub fn csr_writes(&self) -> [(u8, u32); 4] {
        [(0, self.mode as u32), (1, self.threshold), (2, self.base as u32), (3, self.options_word())]
    }
}

/// One packet as the core sees it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Descriptor {
    /// The flow key (104-bit 5-tuple).
    pub flow: u128,
    /// Timestamp, ns (48 bits, wrapping).
    pub ts: u64,
}

/// One record toward the control plane: a packet whose estimate reached the threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Report {
    /// The flow's fingerprint (the control plane's flow handle).
    pub fp: u32,
    /// The row that decided (IFPD: the row written; CM modes: the row holding the minimum).
    pub row: u8,
    pub case: Case,
    /// The estimate, stored units.
    pub d_est: u32,
    /// The packet's stored (relative) time.
    pub t: u32,
}

impl Report {
    /// The report of packet `p` decided as `d`.
    pub fn new(p: Packet, d: &Decision) -> Report {
        Report { fp: p.fp, row: d.row as u8, case: d.case, d_est: d.d_est, t: p.t }
    }
    /// The port word: fp | row | case | D_est | t, low field first.
    pub fn pack(&self, cfg: &IfpdConfig) -> ReportWord {
        let (f, t) = (cfg.fp_bits, cfg.ts_bits);
        (self.fp as u128 & mask128(f))
            | (self.row as u128) << f
            | (self.case.code() as u128) << (f + ROW_BITS)
            | (self.d_est as u128 & mask128(t)) << (f + ROW_BITS + CASE_BITS)
            | (self.t as u128 & mask128(t)) << (f + ROW_BITS + CASE_BITS + t)
    }
    pub fn unpack(cfg: &IfpdConfig, w: ReportWord) -> Result<Report, ConfigError> {
        let (f, t) = (cfg.fp_bits, cfg.ts_bits);
        let field = |at: usize, bits: usize| ((w >> at) & mask128(bits)) as u32;
        let code = field(f + ROW_BITS, CASE_BITS);
        Ok(Report {
            fp: field(0, f),
            row: field(f, ROW_BITS) as u8,
            case: Case::from_code(code).ok_or_else(|| ConfigError(format!("report word with case code {code}")))?,
            d_est: field(f + ROW_BITS + CASE_BITS, t),
            t: field(f + ROW_BITS + CASE_BITS + t, t),
        })
    }
}
