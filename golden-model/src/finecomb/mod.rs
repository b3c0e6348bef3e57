//! FineComb core (Lee, Goldberg, Kompella, Varghese, "FineComb: Measuring Microscopic Latency and Loss in the
//! Presence of Reordering", IEEE/ACM ToN 22(4), 2014): per-interval bucket
//! accumulators (timestamp sum, counter, incremental stream digest) at a sender and a receiver, the
//! receiver's stash of §III-D, B banks of §III-E, and the LDA mode (no ISD) of the baselines.
//!
//! This module holds the configuration types (the RTL is generated from the same ones), the per-packet
//! transaction model [`FinecombModel`] (`step(descriptor) -> Option<IntervalReport>`) and the shared
//! arithmetic ([`Digest`], [`bucket_index`], [`threshold_for`]).
//!
//! ## Per packet (every bank b, sharing one digest)
//! 1. **Digest** (64 bits) of the 128-bit key: two shared hash units, `L = H3/32(key) << 32 |
//!    CRC-32/MPEG-2(key)` ([`DIGEST_HI_HASH`], [`DIGEST_LO_HASH`]; every bit one masked reduction XOR of the
//!    key, 64 XOR trees of depth ⌈log2 128⌉ = 7), then a nonlinear finaliser `D = mix(L)` ([`mix`]): a
//!    layer of 4-bit S-boxes ([`MIX_SBOX`], PRESENT's), the linear diffusion `x ^ rotl(x, 19) ^ rotl(x, 41)`,
//!    and S-boxes again. Why: the paper uses 64 bits of SHA-1, and the ISD check (§III-B-1) needs two
//!    different packet sets to have different XORs of digests. With a linear (affine) hash, `L(a) ^ L(b) ^
//!    L(c) ^ L(a ^ b ^ c) = 0` for *every* a, b, c, so structured keys collide systematically — e.g. a flow's
//!    packets with IP IDs 4, 5 lost and 6, 7 reordered in have equal XORs (4 ^ 5 = 6 ^ 7). The finaliser has
//!    algebraic degree up to 9 and is a bijection on 64 bits (the S-box is a permutation; the diffusion is
//!    invertible since `1 + z^19 + z^41` has an odd number of terms, so it is prime to `(z + 1)^64`), so the
//!    digests stay as uniform, and distinct keys collide as rarely, as with the linear hash. In hardware it
//!    is three LUT levels, no multiplier.
//! 2. **Sampling** (§III-B-3): sampled by bank b iff `D[63:32] ≤ threshold_b` (a run-time 32-bit CSR),
//!    so p_b = (threshold_b + 1) / 2^32 ([`probability_of`]). The decision is a function of the packet's
//!    key alone, so sender and receiver sample exactly the same packets — no PRNG. Banks compare the same
//!    32 bits, so a bank with a smaller threshold samples a subset of a bank with a larger one.
//! 3. **Bucket index** (§III-C step 2, "D mod M"): `i = (D[31:0] · M_b) >> 32` ([`bucket_index`]), the
//!    multiply-high reduction of a uniform 32-bit value to 0..M_b−1. Deviation from the paper's literal
//!    `D mod M`, on purpose: M need not be a power of two (the paper uses e.g. M = 581), a 64-bit modulo by
//!    a non-power-of-two constant is a divider, and the multiply-high gives each index ⌊2^32/M⌋ or
//!    ⌈2^32/M⌉ digest values, exactly as uniform as `mod`. With M < 2^16 it is two 16×16 multiplies and one
//!    add (the widest multiplier rust-hdl offers): with `h = a·2^16 + b`,
//!    `(h·M) >> 32 = (a·M + ((b·M) >> 16)) >> 16` ([`bucket_index_16x16`], tested equal). The index uses the
//!    low half (CRC-32) and the sampling test the high half (H3), two unrelated functions, so which bucket
//!    a packet goes to does not depend on whether it is sampled.
//! 4. **Update** of bucket i of the active bank: `TS[i] += timestamp` (64-bit wrapping accumulator of
//!    48-bit timestamps), `C[i] += 1` (32-bit wrapping), `ISD[i] ^= D` (not in LDA mode).
//!
//! ## Intervals and sync markers
//! Markers travel in the packet stream as descriptors with `end` and/or `start` set (a marker is not a
//! packet: it is neither hashed nor counted). `end` freezes the active bucket set and swaps to the other
//! (ping-pong: the frozen set is read out and cleared while traffic goes on into the other); `start` opens
//! the next interval. A sender's periodic sync message is both (`Descriptor::sync`): the end of interval
//! u and the start of u+1. Between an `end` and the next `start` packets are not counted (they still pass
//! through the stash rings).
//!
//! A marker is *effective* iff `(end && counting) || (start && !counting)` (a sync while counting is an
//! effective end and then an effective start). An ineffective marker — `end` while not counting, `start`
//! while counting — has no effect at all, exactly as in the hardware ([`cycle`]).
//!
//! ## The receiver's stash (§III-D), per bank (each bank samples its own packets)
//! Four substashes of w entries {digest, timestamp} of *sampled* packets:
//! - pre-start: the last w sampled packets before `start` (since the previous effective marker);
//! - post-start: the first w sampled packets after `start`;
//! - pre-end / post-end: likewise around `end`.
//!
//! One ring holds the last w sampled packets since the previous effective marker: every effective marker
//! copies it into the pre-start and/or pre-end substash and the ring restarts empty (in hardware: the
//! ring's write pointer is latched, the ring region swapped and the pointer cleared). So a marker's pre
//! substash holds min(w, n) entries where n is the number of sampled packets since the previous effective
//! marker (or since reset); a sync's capture serves as both the pre-end of u and the pre-start of u+1. The
//! post-end substash fills *after* the interval ended, so a receiver's interval report is complete (and
//! emitted) once every bank's post-end substash is full, or at the next effective marker, or at
//! [`FinecombModel::flush`]. A sender keeps no stash (§III-B-2): its report is emitted at `end`.

use crate::common::config::{check_range, ConfigError, TIMESTAMP_BITS};
use crate::common::hash::{HashKind, XorHash};
use crate::common::mask128;
use serde::{Deserialize, Serialize};

/// Width of the packet key (invariant header fields).
pub const KEY_BITS: usize = 128;
/// Width of the packet digest.
pub const DIGEST_BITS: usize = 64;
/// Width of a bucket's timestamp accumulator (wrapping).
pub const TS_SUM_BITS: usize = 64;
/// Width of a bucket's packet counter (wrapping).
pub const COUNTER_BITS: usize = 32;
/// Hash unit of the digest's high half (the sampling value).
pub const DIGEST_HI_HASH: HashKind = HashKind::H3 { out_bits: 32 };
/// Hash unit of the digest's low half (the bucket-index value).
pub const DIGEST_LO_HASH: HashKind = HashKind::Crc32Mpeg2;
/// Most banks one core holds.
pub const MAX_BANKS: usize = 8;
/// Most buckets per bank (M < 2^16 keeps the index reduction at two 16×16 multiplies).
pub const MAX_BUCKETS: usize = 65535;
/// Deepest substash (w entries per substash; W = 4w per bank).
pub const MAX_STASH_DEPTH: usize = 16384;
/// Banks of the default (§III-E) configuration.
pub const DEFAULT_BANKS: usize = 4;

/// Which end of the measured path a core sits at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    Sender,
    Receiver,
}

/// Generation-time shape of one bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankConfig {
    /// Buckets M (1..=[`MAX_BUCKETS`], any value).
    pub buckets: usize,
    /// Entries w per substash (the bank's stash holds W = 4w); only a receiver instantiates it.
    pub stash_depth: usize,
}

/// Generation-time shape of a FineComb core. Sampling thresholds are run-time ([`FinecombRuntime`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinecombConfig {
    pub role: Role,
    /// 1..=[`MAX_BANKS`] banks, sharing the digest.
    pub banks: Vec<BankConfig>,
    /// Keep incremental stream digests (FineComb). `false` is the LDA mode: timestamp sums and counters
    /// only, and no stash (it could not be used without ISDs).
    pub isd: bool,
}

impl Default for FinecombConfig {
    /// A receiver with [`DEFAULT_BANKS`] banks of 200 buckets and w = 50 (W = 200) each: the §III-E
    /// four-bank layout for a total of 1600 bucket-sized entries.
    fn default() -> Self {
        FinecombConfig {
            role: Role::Receiver,
            banks: vec![BankConfig { buckets: 200, stash_depth: 50 }; DEFAULT_BANKS],
            isd: true,
        }
    }
}

impl FinecombConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        check_range("number of banks", self.banks.len(), 1, MAX_BANKS)?;
        for b in &self.banks {
            check_range("buckets per bank (M)", b.buckets, 1, MAX_BUCKETS)?;
            check_range("stash depth per substash (w)", b.stash_depth, 0, MAX_STASH_DEPTH)?;
            if !self.isd && b.stash_depth > 0 {
                return Err(ConfigError("LDA mode (no ISD) has no stash: stash depth must be 0".into()));
            }
        }
        Ok(())
    }
    /// The same core at the other end of the path.
    pub fn with_role(&self, role: Role) -> FinecombConfig {
        FinecombConfig { role, ..self.clone() }
    }
    /// Substash depth of bank b as instantiated (0 at a sender).
    pub fn stash_depth(&self, b: usize) -> usize {
        match self.role {
            Role::Sender => 0,
            Role::Receiver => self.banks[b].stash_depth,
        }
    }
}

/// Run-time settings (what software writes into the CSRs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FinecombRuntime {
    /// Per-bank sampling threshold: a packet is sampled by bank b iff `D[63:32] ≤ thresholds[b]`.
    pub thresholds: Vec<u32>,
}

impl FinecombRuntime {
    /// Thresholds for per-bank sampling probabilities.
    pub fn with_probabilities(p: &[f64]) -> FinecombRuntime {
        FinecombRuntime { thresholds: p.iter().map(|&p| threshold_for(p)).collect() }
    }
}

/// Threshold for sampling probability `p`: the nearest achievable (p is a multiple of 2^-32, at least
/// 2^-32; p ≥ 1 samples everything).
pub fn threshold_for(p: f64) -> u32 {
    let n = (p.clamp(0.0, 1.0) * 4_294_967_296.0).round();
    (n.max(1.0) - 1.0).min(u32::MAX as f64) as u32
}

/// Sampling probability of a threshold: (threshold + 1) / 2^32.
pub fn probability_of(threshold: u32) -> f64 {
    (threshold as f64 + 1.0) / 4_294_967_296.0
}

/// Bucket index of a digest in a bank of `buckets` buckets: `(D[31:0] · M) >> 32` (module docs).
pub fn bucket_index(digest: u64, buckets: usize) -> usize {
    (((digest & 0xFFFF_FFFF) * buckets as u64) >> 32) as usize
}

/// [`bucket_index`] as the hardware computes it: two 16×16 multiplies and one add (M < 2^16).
pub fn bucket_index_16x16(digest: u64, buckets: usize) -> usize {
    let (a, b, m) = ((digest >> 16) & 0xFFFF, digest & 0xFFFF, buckets as u64 & 0xFFFF);
    ((a * m + ((b * m) >> 16)) >> 16) as usize
}

/// The digest finaliser's 4-bit S-box (PRESENT's; a permutation of 0..16 of algebraic degree 3).
pub const MIX_SBOX: [u8; 16] = [0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD, 0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2];
/// Rotations of the finaliser's diffusion `x ^ rotl(x, MIX_ROT[0]) ^ rotl(x, MIX_ROT[1])`.
pub const MIX_ROT: [u32; 2] = [19, 41];

/// The S-box on each of the 16 nibbles of `x`.
pub fn mix_sboxes(x: u64) -> u64 {
    (0..16).fold(0, |a, i| a | (MIX_SBOX[((x >> (4 * i)) & 0xF) as usize] as u64) << (4 * i))
}

/// The finaliser's linear diffusion.
pub fn mix_diffuse(x: u64) -> u64 {
    x ^ x.rotate_left(MIX_ROT[0]) ^ x.rotate_left(MIX_ROT[1])
}

/// The digest finaliser (module docs): S-boxes, diffusion, S-boxes.
pub fn mix(x: u64) -> u64 {
    mix_sboxes(mix_diffuse(mix_sboxes(x)))
}

/// The digest unit: two shared hash units over the 128-bit key and the nonlinear finaliser [`mix`].
#[derive(Debug, Clone)]
pub struct Digest {
    pub hi: XorHash,
    pub lo: XorHash,
}

impl Digest {
    pub fn new() -> Digest {
        Digest {
            hi: XorHash::new(DIGEST_HI_HASH, KEY_BITS).expect("valid hash width"),
            lo: XorHash::new(DIGEST_LO_HASH, KEY_BITS).expect("valid hash width"),
        }
    }
    /// `mix(H3/32(key) << 32 | CRC-32/MPEG-2(key))`.
    pub fn of(&self, key: u128) -> u64 {
        mix(self.hi.eval(key) << 32 | self.lo.eval(key))
    }
    /// Whether a digest passes a sampling threshold.
    pub fn sampled(digest: u64, threshold: u32) -> bool {
        (digest >> 32) as u32 <= threshold
    }
}

impl Default for Digest {
    fn default() -> Self {
        Digest::new()
    }
}

/// One descriptor: a packet, or a sync marker (`start` and/or `end` set; then key and timestamp are
/// ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Descriptor {
    pub key: u128,
    /// Arrival (receiver) or departure (sender) time in ns; the low [`TIMESTAMP_BITS`] bits reach the core.
    pub timestamp: u64,
    pub start: bool,
    pub end: bool,
}

impl Descriptor {
    pub fn packet(key: u128, timestamp: u64) -> Descriptor {
        Descriptor { key, timestamp, start: false, end: false }
    }
    /// The periodic sync message: end of this interval and start of the next.
    pub fn sync() -> Descriptor {
        Descriptor { key: 0, timestamp: 0, start: true, end: true }
    }
    /// Interval start only (the first interval).
    pub fn start() -> Descriptor {
        Descriptor { key: 0, timestamp: 0, start: true, end: false }
    }
    /// Interval end only (the last interval).
    pub fn end() -> Descriptor {
        Descriptor { key: 0, timestamp: 0, start: false, end: true }
    }
    pub fn is_marker(&self) -> bool {
        self.start || self.end
    }
}

/// One bucket's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Bucket {
    /// Sum of timestamps, modulo 2^64.
    pub ts: u64,
    /// Packets, modulo 2^32.
    pub count: u32,
    /// XOR of the packets' digests (0 in LDA mode).
    pub isd: u64,
}

/// A stash entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StashEntry {
    pub digest: u64,
    /// The packet's timestamp (low [`TIMESTAMP_BITS`] bits).
    pub ts: u64,
}

/// The four substashes of one bank for one interval, each in arrival order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Stash {
    pub pre_start: Vec<StashEntry>,
    pub post_start: Vec<StashEntry>,
    pub pre_end: Vec<StashEntry>,
    pub post_end: Vec<StashEntry>,
}

/// One bank's readout of a finished interval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankReadout {
    pub buckets: Vec<Bucket>,
    /// Empty at a sender.
    pub stash: Stash,
}

/// The readout of one finished interval (every bank).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IntervalReport {
    /// Interval number: the n-th effective `start` opened it (from 0).
    pub interval: u64,
    pub banks: Vec<BankReadout>,
}

/// Cyclic queue of the last `depth` entries since the previous effective marker (the pre-start / pre-end
/// source).
#[derive(Debug, Clone)]
struct Ring {
    buf: Vec<StashEntry>,
    next: usize,
    depth: usize,
}

impl Ring {
    fn new(depth: usize) -> Ring {
        Ring { buf: Vec::with_capacity(depth), next: 0, depth }
    }
    fn push(&mut self, e: StashEntry) {
        if self.depth == 0 {
            return;
        }
        if self.buf.len() < self.depth {
            self.buf.push(e);
        } else {
            self.buf[self.next] = e;
        }
        self.next = (self.next + 1) % self.depth;
    }
    /// Contents, oldest first; the ring restarts empty.
    fn take(&mut self) -> Vec<StashEntry> {
        let out = if self.buf.len() < self.depth {
            std::mem::take(&mut self.buf)
        } else {
            self.buf[self.next..].iter().chain(&self.buf[..self.next]).copied().collect()
        };
        self.buf.clear();
        self.next = 0;
        out
    }
}

/// Per-bank state: two bucket sets (ping-pong), their stashes, the ring.
#[derive(Debug, Clone)]
struct BankState {
    sets: [Vec<Bucket>; 2],
    stashes: [Stash; 2],
    ring: Ring,
}

/// Transaction-level golden model of one FineComb core.
#[derive(Debug, Clone)]
pub struct FinecombModel {
    cfg: FinecombConfig,
    pub runtime: FinecombRuntime,
    digest: Digest,
    banks: Vec<BankState>,
    /// Index of the bucket set packets go to.
    active: usize,
    /// Inside an interval (after `start`, before `end`).
    counting: bool,
    /// Effective starts seen so far.
    starts: u64,
    /// Interval number of the active set.
    active_interval: u64,
    /// The frozen set awaiting readout and its interval number (its post-end substash may still fill).
    frozen: Option<(usize, u64)>,
}

impl FinecombModel {
    pub fn new(cfg: &FinecombConfig, runtime: FinecombRuntime) -> Result<Self, ConfigError> {
        cfg.check()?;
        if runtime.thresholds.len() != cfg.banks.len() {
            return Err(ConfigError(format!(
                "{} sampling thresholds for {} banks",
                runtime.thresholds.len(),
                cfg.banks.len()
            )));
        }
        let banks = (0..cfg.banks.len())
            .map(|b| BankState {
                sets: [vec![Bucket::default(); cfg.banks[b].buckets], vec![Bucket::default(); cfg.banks[b].buckets]],
                stashes: [Stash::default(), Stash::default()],
                ring: Ring::new(cfg.stash_depth(b)),
            })
            .collect();
        Ok(FinecombModel {
            cfg: cfg.clone(),
            runtime,
            digest: Digest::new(),
            banks,
            active: 0,
            counting: false,
            starts: 0,
            active_interval: 0,
            frozen: None,
        })
    }

    pub fn cfg(&self) -> &FinecombConfig {
        &self.cfg
    }

    /// The digest unit (so a caller feeding several cores the same packets can hash once, see
    /// [`FinecombModel::step_digest`]).
    pub fn digest_unit(&self) -> &Digest {
        &self.digest
    }

    /// Processes one descriptor; returns the readout of an interval when one is complete.
    pub fn step(&mut self, d: &Descriptor) -> Option<IntervalReport> {
        if d.is_marker() {
            self.marker(d.start, d.end)
        } else {
            let digest = self.digest.of(d.key);
            self.step_digest(digest, d.timestamp)
        }
    }

    /// A packet whose digest is already known (`digest_unit().of(key)`): the same as [`Self::step`].
    pub fn step_digest(&mut self, digest: u64, timestamp: u64) -> Option<IntervalReport> {
        let ts = timestamp & (mask128(TIMESTAMP_BITS) as u64);
        let entry = StashEntry { digest, ts };
        let (active, counting, isd) = (self.active, self.counting, self.cfg.isd);
        let frozen = self.frozen.map(|f| f.0);
        for (b, bank) in self.banks.iter_mut().enumerate() {
            if !Digest::sampled(digest, self.runtime.thresholds[b]) {
                continue;
            }
            let m = self.cfg.banks[b].buckets;
            if counting {
                let bucket = &mut bank.sets[active][bucket_index(digest, m)];
                bucket.ts = bucket.ts.wrapping_add(ts);
                bucket.count = bucket.count.wrapping_add(1);
                if isd {
                    bucket.isd ^= digest;
                }
            }
            let w = bank.ring.depth;
            if w > 0 {
                bank.ring.push(entry);
                if counting && bank.stashes[active].post_start.len() < w {
                    bank.stashes[active].post_start.push(entry);
                }
                if let Some(f) = frozen {
                    if bank.stashes[f].post_end.len() < w {
                        bank.stashes[f].post_end.push(entry);
                    }
                }
            }
        }
        if frozen.is_some() && self.post_end_full() {
            return self.read_frozen();
        }
        None
    }

    fn post_end_full(&self) -> bool {
        match self.frozen {
            Some((f, _)) => self.banks.iter().all(|bank| bank.stashes[f].post_end.len() >= bank.ring.depth),
            None => false,
        }
    }

    /// Reads out and clears the frozen set.
    fn read_frozen(&mut self) -> Option<IntervalReport> {
        let (f, interval) = self.frozen.take()?;
        let banks = self
            .banks
            .iter_mut()
            .map(|bank| {
                let m = bank.sets[f].len();
                BankReadout {
                    buckets: std::mem::replace(&mut bank.sets[f], vec![Bucket::default(); m]),
                    stash: std::mem::take(&mut bank.stashes[f]),
                }
            })
            .collect();
        Some(IntervalReport { interval, banks })
    }

    fn marker(&mut self, start: bool, end: bool) -> Option<IntervalReport> {
        let end_effective = end && self.counting;
        let start_effective = start && (end_effective || !self.counting);
        if !end_effective && !start_effective {
            return None;
        }
        // A still-pending readout is completed first (its post-end substash stops filling here).
        let mut out = self.read_frozen();
        // The ring's contents become this marker's pre substash (pre-end and/or pre-start); it restarts empty.
        let pre: Vec<Vec<StashEntry>> = self.banks.iter_mut().map(|bank| bank.ring.take()).collect();
        if end_effective {
            let f = self.active;
            for (bank, pre) in self.banks.iter_mut().zip(&pre) {
                bank.stashes[f].pre_end = pre.clone();
            }
            self.frozen = Some((f, self.active_interval));
            self.active = 1 - f;
            self.counting = false;
            if out.is_none() && self.post_end_full() {
                // No post-end substash to wait for (a sender, or w = 0): read out at once.
                out = self.read_frozen();
            }
        }
        if start_effective {
            let a = self.active;
            for (bank, pre) in self.banks.iter_mut().zip(pre) {
                bank.stashes[a].pre_start = pre;
            }
            self.counting = true;
            self.active_interval = self.starts;
            self.starts += 1;
        }
        out
    }

    /// End of the stream: the pending readout, if any (its post-end substash as far as it filled).
    pub fn flush(&mut self) -> Option<IntervalReport> {
        self.read_frozen()
    }
}

pub mod cycle;

/// Sizes that follow from a FineComb core's independent generation parameters, as `const fn`s: hdl's build
/// declarations need them as const generics of `FinecombCore` (see `hdl::finecomb::builds`).
pub mod sizes {
    /// Config registers of a core with `banks` banks: threshold, buckets and stash depth per bank, flush
    /// (the order of [`super::cycle::FinecombCoreConfig::csr_layout`]).
    pub const fn csr_config_regs(banks: usize) -> usize {
        3 * banks + 1
    }
    /// Bits of the CSR config window (32 per register).
    pub const fn csr_config_bits(banks: usize) -> usize {
        32 * csr_config_regs(banks)
    }
    /// Bucket index bits of the front-end stage top `finecomb_front` (bucket counts M up to 2^16 still
    /// exercise the whole multiply; the index keeps its low 8 bits as a core with IA = 8 would).
    pub const FRONT_TOP_INDEX_BITS: usize = 8;
    /// Stash memory address bits `{region, slot}` for `2^stash_slot_bits` slots per region.
    pub const fn stash_addr_bits(stash_slot_bits: usize) -> usize {
        stash_slot_bits + 1
    }

    #[cfg(test)]
    #[test]
    fn csr_config_regs_match_the_layout() {
        use super::cycle::FinecombCoreConfig;
        use super::{BankConfig, FinecombConfig, Role};
        for banks in 1..=4 {
            let cfg = FinecombCoreConfig {
                shape: FinecombConfig { role: Role::Receiver, banks: vec![BankConfig { buckets: 8, stash_depth: 2 }; banks], isd: true },
                bucket_addr_bits: 3,
                stash_slot_bits: 1,
            };
            assert_eq!(cfg.csr_layout().config.len(), csr_config_regs(banks));
        }
    }
}
#[cfg(test)]
mod tests;
