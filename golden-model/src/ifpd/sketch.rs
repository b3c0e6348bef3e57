//! The IFPD core as a transaction model: one packet at a time, exactly what the RTL computes.
//!
//! Per descriptor `(flow, ts)`: the stored time `t = ((ts >> ts_shift) − base) mod 2^ts_bits`, the
//! fingerprint (never 0) and one bucket index per row from the hash units; CM-BF also asks the Bloom filter
//! (and sets the flow's bits). [`super::decide`] on the `d` buckets gives the rows written, the estimate and
//! the case; a packet with `D_est ≥ threshold` is reported. The report FIFO's drops depend on when the control
//! plane reads it, so they are a cycle model's business: the transaction model returns every report.
//!
//! ## Speed
//! The experiments push millions of packets through the model, so its per-packet path is kept short without
//! changing a result (the tests hold it against the naive `reference` and [`IfpdModel::run`] against
//! [`IfpdModel::step`]):
//! - the row count `d` is a compile-time constant of the packet's path (`step_rows`, `run_rows`, compiled
//!   for each of 1..=8 and chosen once per packet), so the per-row loops are unrolled, without bounds checks
//!   or heap arrays;
//! - a packet's hashes are one table pass over the flow key ([`HashBank::eval_with`]): the row indices and
//!   the fingerprint, or in CM-BF mode the row indices and the filter's bit indices
//!   ([`IfpdConfig::cm_bf_hash_bank`]; the CM modes' decision does not read the fingerprint, so a CM-BF
//!   report computes it apart);
//! - the hashing turns the indices into the places the packet reads at once (`Hashed`: `r·w + index` in
//!   the rows, `p·stride + index` in the filter's words, [`BloomFilter::positions`]), used both by the
//!   prefetch and by the packet, so the packet's path recomputes no address;
//! - the decision takes no branch per row ([`super::bucket`]);
//! - [`IfpdModel::run`] hashes [`LOOKAHEAD`] packets ahead and prefetches their buckets and filter words:
//!   a packet's `d` (and `k`) random reads into memory larger than the cache then overlap with the work on
//!   the packets before it instead of stalling it;
//! - `run`'s loop is compiled once per mode (the settings cannot change during a run), so CM-BF's path
//!   carries no test of the mode per packet, and the packet's borrows of the rows, the filter and the
//!   counters are apart (a bucket write does not force reloading the model's fields);
//! - on x86_64 with AVX2 (checked at run time) `run`'s loop is compiled for AVX2 as well: a key byte's
//!   table row of a 4-lane bank (CM-BF's 8 hash units) is XORed in with fewer instructions. Only the
//!   instruction selection differs: the values are the same XORs, multiplications and comparisons.
//!
//! Measured on the 1 M-packet segment (`ifpd_speed`, README): CM-BF's packet went from ≈ 518 to ≈ 404
//! instructions (valgrind), CM's to ≈ 262, the sketch's to ≈ 276.

use super::bloom::BloomFilter;
use super::bucket::decide_rows;
use super::{
    Bucket, Case, Decision, Descriptor, IfpdConfig, IfpdRuntime, Mode, Packet, Report, MAX_BF_HASHES, MAX_ROWS,
};
use crate::common::config::ConfigError;
use crate::common::hash::HashBank;

/// Counters (the CSR status registers of the same names).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct IfpdStats {
    pub packets: u64,
    pub case1_match: u64,
    pub case2_insert: u64,
    pub case3_replace: u64,
    pub reports: u64,
}

impl IfpdStats {
    /// One decided packet.
    #[inline]
    pub fn count(&mut self, d: &Decision, reported: bool) {
        self.packets += 1;
        self.outcome(d, reported);
    }
    /// A decided packet's case and report (a cycle model counts `packets` at acceptance). Counted without a
    /// branch on the case (cases 1 and 2 alternate unpredictably).
    #[inline]
    pub fn outcome(&mut self, d: &Decision, reported: bool) {
        self.case1_match += (d.case == Case::Match) as u64;
        self.case2_insert += (d.case == Case::Insert) as u64;
        self.case3_replace += (d.case == Case::Replace) as u64;
        self.reports += reported as u64;
    }
}

/// What one packet did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub decision: Decision,
    pub report: Option<Report>,
}

/// Packets [`IfpdModel::run`] hashes ahead of the one it decides.
pub const LOOKAHEAD: usize = 4;

/// A packet's hash-unit outputs under the current mode, for `D` rows, as the places in the model's memories
/// its decision reads and writes (computed once, by the hashing ahead, for the prefetch and the packet).
#[derive(Debug, Clone, Copy)]
struct Hashed<const D: usize> {
    /// Row r's bucket: `mem[at[r]]` (`r·w` + the row's bucket index).
    at: [usize; D],
    /// The fingerprint; `None` in CM-BF mode (its decision does not need it).
    fp: Option<u32>,
    /// CM-BF: the flow's bit in each filter partition (the first `k` entries) as a position in the filter's
    /// words ([`BloomFilter::positions`]).
    bits: [usize; MAX_BF_HASHES],
}

impl<const D: usize> Default for Hashed<D> {
    fn default() -> Self {
        Hashed { at: [0; D], fp: None, bits: [0; MAX_BF_HASHES] }
    }
}

/// Starts loading the cache line of `slice[i]` (a hint: no value changes; an index out of range is no error,
/// so the caller's index needs no bounds check).
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], i: usize) {
    let at = slice.as_ptr().wrapping_add(i);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing architecturally and never faults, whatever the address; SSE is in
    // every x86_64 target.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(at.cast())
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// The core: `d` rows, the optional Bloom filter, the hash units, the counters.
#[derive(Debug, Clone)]
pub struct IfpdModel {
    pub cfg: IfpdConfig,
    pub rt: IfpdRuntime,
    /// The rows' index hashes and the fingerprint ([`IfpdConfig::hash_bank`]).
    bank: HashBank,
    /// CM-BF's hashes in one bank ([`IfpdConfig::cm_bf_hash_bank`]); `None`: the rows' bank and the
    /// filter's own are evaluated apart.
    cm_bf_bank: Option<HashBank>,
    /// Row r's bucket i at `mem[r * buckets + i]`.
    mem: Vec<Bucket>,
    pub bloom: Option<BloomFilter>,
    pub stats: IfpdStats,
}

impl IfpdModel {
    pub fn new(cfg: &IfpdConfig, rt: IfpdRuntime) -> Result<IfpdModel, ConfigError> {
        cfg.check()?;
        rt.check(cfg)?;
        Ok(IfpdModel {
            bank: cfg.hash_bank()?,
            cm_bf_bank: cfg.cm_bf_hash_bank()?,
            mem: vec![Bucket::default(); cfg.rows * cfg.buckets],
            bloom: if cfg.bf_bits > 0 { Some(BloomFilter::new(cfg)?) } else { None },
            cfg: cfg.clone(),
            rt,
            stats: IfpdStats::default(),
        })
    }

    /// The flow's bucket index in each row (the first `d` entries) and its fingerprint.
    #[inline]
    pub fn hashes(&self, flow: u128) -> ([usize; MAX_ROWS], u32) {
        self.cfg.indices(&self.bank, flow)
    }

    /// The flow's fingerprint alone (for a CM-BF report: rare, kept out of the per-packet path).
    #[cold]
    #[inline(never)]
    fn fingerprint(&self, flow: u128) -> u32 {
        self.hashes(flow).1
    }

    /// Row `r`'s buckets.
    pub fn row(&self, r: usize) -> &[Bucket] {
        &self.mem[r * self.cfg.buckets..][..self.cfg.buckets]
    }

    /// One packet.
    pub fn step(&mut self, d: &Descriptor) -> Outcome {
        // The row count as a constant of the packet's path, chosen once per packet.
        match self.cfg.rows {
            1 => self.step_rows::<1>(d),
            2 => self.step_rows::<2>(d),
            3 => self.step_rows::<3>(d),
            4 => self.step_rows::<4>(d),
            5 => self.step_rows::<5>(d),
            6 => self.step_rows::<6>(d),
            7 => self.step_rows::<7>(d),
            8 => self.step_rows::<8>(d),
            n => unreachable!("{n} rows: the config check allows 1..={MAX_ROWS}"),
        }
    }

    /// Packets in order, `each(i, outcome of packets[i])` after each: the outcomes and the final state of
    /// [`Self::step`] on each packet in turn (the settings `rt` stay as they are: `each` has no access to the
    /// model). Faster: the hash units run [`LOOKAHEAD`] packets ahead of the decision and start loading the
    /// buckets (and filter words) those packets will read, so a packet's `d` random memory reads overlap
    /// with the work on the packets before it instead of stalling it.
    pub fn run(&mut self, packets: &[Descriptor], mut each: impl FnMut(usize, &Outcome)) {
        match self.cfg.rows {
            1 => self.run_rows::<1>(packets, &mut each),
            2 => self.run_rows::<2>(packets, &mut each),
            3 => self.run_rows::<3>(packets, &mut each),
            4 => self.run_rows::<4>(packets, &mut each),
            5 => self.run_rows::<5>(packets, &mut each),
            6 => self.run_rows::<6>(packets, &mut each),
            7 => self.run_rows::<7>(packets, &mut each),
            8 => self.run_rows::<8>(packets, &mut each),
            n => unreachable!("{n} rows: the config check allows 1..={MAX_ROWS}"),
        }
    }

    /// [`Self::step`] with `D` = `cfg.rows` rows: compiled once per row count, so the per-row loops (indices,
    /// reads, the decision, writes) are unrolled and keep their values in registers. A function of its own
    /// per row count (not inlined into `step`): the packet's path stays compact in the instruction cache.
    #[inline(never)]
    fn step_rows<const D: usize>(&mut self, d: &Descriptor) -> Outcome {
        let rt = self.rt;
        let h = self.hash::<D>(rt.mode, d.flow);
        self.apply(&rt, d, &h)
    }

    crate::avx2_twin! {
        /// [`Self::run`] with `D` rows (a function of its own per row count, as `step_rows`). The mode is a
        /// constant of each packet loop too (the settings stay as they are during a run): each mode's path is
        /// compiled apart, without the other modes' branches and loads. Compiled for AVX2 as well: the hash
        /// bank's lanes of a key byte's table row are one 256-bit load and XOR (four lanes, CM-BF's 8 units)
        /// instead of two 128-bit ones.
        fn run_rows / run_rows_avx2<const D: usize>(
            &mut self, packets: &[Descriptor], each: &mut impl FnMut(usize, &Outcome)
        ) {
            self.run_modes::<D>(packets, each)
        }
    }

    /// [`Self::run_rows`]' loop, one per mode.
    #[inline(always)]
    fn run_modes<const D: usize>(&mut self, packets: &[Descriptor], each: &mut impl FnMut(usize, &Outcome)) {
        match self.rt.mode {
            Mode::Ifpd => self.run_mode::<D>(Mode::Ifpd, packets, each),
            Mode::Cm => self.run_mode::<D>(Mode::Cm, packets, each),
            Mode::CmBf => self.run_mode::<D>(Mode::CmBf, packets, each),
        }
    }

    /// [`Self::run_rows`] in `mode` (the current one, as a constant where inlined).
    #[inline(always)]
    fn run_mode<const D: usize>(&mut self, mode: Mode, packets: &[Descriptor], each: &mut impl FnMut(usize, &Outcome)) {
        let rt = IfpdRuntime { mode, ..self.rt };
        // `ahead[i % LOOKAHEAD]` holds packet i's hashes from packet i − LOOKAHEAD on.
        let mut ahead = [Hashed::<D>::default(); LOOKAHEAD];
        for (h, d) in ahead.iter_mut().zip(packets) {
            *h = self.hash(mode, d.flow);
            self.prefetch(mode, h);
        }
        for (i, d) in packets.iter().enumerate() {
            let slot = &mut ahead[i % LOOKAHEAD];
            each(i, &self.apply(&rt, d, slot));
            if let Some(next) = packets.get(i + LOOKAHEAD) {
                *slot = self.hash(mode, next.flow);
                self.prefetch(mode, slot);
            }
        }
    }

    /// What the hash units give for `flow` in `mode`.
    #[inline(always)]
    fn hash<const D: usize>(&self, mode: Mode, flow: u128) -> Hashed<D> {
        let w = self.cfg.buckets;
        let place = |idx: [usize; D]| std::array::from_fn(|r| r * w + idx[r]);
        match (mode, &self.bloom, &self.cm_bf_bank) {
            (Mode::CmBf, Some(bf), Some(bank)) => {
                let (idx, bits) = self.cfg.row_and_bf_indices::<D>(bank, flow, bf.stride());
                Hashed { at: place(idx), fp: None, bits }
            }
            (Mode::CmBf, Some(bf), None) => {
                let (idx, _) = self.cfg.row_indices::<D>(&self.bank, flow);
                Hashed { at: place(idx), fp: None, bits: bf.positions(&bf.indices(flow)) }
            }
            _ => {
                let (idx, fp) = self.cfg.row_indices::<D>(&self.bank, flow);
                Hashed { at: place(idx), fp: Some(fp), bits: [0; MAX_BF_HASHES] }
            }
        }
    }

    /// Starts loading the cache lines the packet of `h` reads in `mode` (a hint: no value changes).
    #[inline(always)]
    fn prefetch<const D: usize>(&self, mode: Mode, h: &Hashed<D>) {
        for &a in &h.at {
            prefetch(&self.mem, a);
        }
        if let (Mode::CmBf, Some(bf)) = (mode, &self.bloom) {
            bf.prefetch(&h.bits);
        }
    }

    /// Packet `d` with its hashes `h` under the settings `rt`: the filter (CM-BF), the decision, its writes,
    /// counters and report.
    #[inline(always)]
    fn apply<const D: usize>(&mut self, rt: &IfpdRuntime, d: &Descriptor, h: &Hashed<D>) -> Outcome {
        // The fields apart: the bucket writes then visibly leave the configuration, the vector headers and
        // the counters unchanged (they are not reloaded after each write).
        let IfpdModel { cfg, mem, bloom, stats, .. } = self;
        let mem = &mut mem[..];
        let bf_first = match (rt.mode, bloom) {
            (Mode::CmBf, Some(bf)) => bf.test_and_set_positions(&h.bits),
            _ => false,
        };
        // Without a fingerprint (CM-BF) 0 stands in: the CM modes' decision does not read it.
        let p = Packet { fp: h.fp.unwrap_or(0), t: cfg.stored_time(d.ts, rt.base) };
        let old: [Bucket; D] = std::array::from_fn(|r| mem[h.at[r]]);
        let dec = decide_rows(cfg, rt, &old, p, bf_first);
        if dec.all_rows {
            for &a in &h.at {
                mem[a] = dec.new;
            }
        } else {
            mem[h.at[dec.row]] = dec.new;
        }
        let reported = dec.reported(rt);
        stats.count(&dec, reported);
        let report = reported.then(|| {
            let fp = h.fp.unwrap_or_else(|| self.fingerprint(d.flow));
            Report::new(Packet { fp, ..p }, &dec)
        });
        Outcome { decision: dec, report }
    }

    /// Empty every row and the filter (the reset sweep), keeping the settings and counters.
    pub fn clear(&mut self) {
        self.mem.iter_mut().for_each(|b| *b = Bucket::default());
        if let Some(bf) = &mut self.bloom {
            bf.clear();
        }
    }

    /// A new measurement interval: clear, then count stored time from `base` (units).
    pub fn start_interval(&mut self, base: u64) {
        self.clear();
        self.rt.base = base;
    }

    /// Non-empty buckets under the current mode's encoding.
    pub fn occupied(&self) -> usize {
        self.mem.iter().filter(|b| !b.is_empty(self.rt.mode)).count()
    }
}
