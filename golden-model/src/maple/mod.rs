//! MAPLE's packet latency store (PLS) (M. Lee, N. Duffield, R. R. Kompella, IMC 2012; the paper in
//! ../shared/papers/004_872ebb1cc954c702.txt, §3–§4, is the specification).
//!
//! Per packet the store keeps only *which of k latency centers* is nearest to the packet's latency, in a
//! shifting-vector Bloom filter (SVBF): a query returns the center (and the mean latency of the packets that
//! matched it) instead of the latency. The centers come from the control plane (clustering on sampled
//! packets, `sim::maple`), two epochs late.
//!
//! ## The core per packet ([`model::MapleModel::step`])
//! - **Descriptor** ([`Descriptor`]): a key of up to 128 bits (the invariant header fields the paper hashes:
//!   addresses, IP ID, ports, a few payload bytes — the caller packs them) and the packet's **latency in ns**
//!   as a `u32` (unit 1 ns, saturating at 2^32 − 1 ns ≈ 4.29 s). [`latency_ns`] derives it wrap-correctly
//!   from two 48-bit ns timestamps (the timestamp unit of Fig. 1).
//! - **Center match** ([`centers::Centers`]): `k ≤ 64` centers, sorted ascending (the control plane sorts;
//!   an unsorted load is refused). The nearest center by |latency − center|; **ties** (equal distance, and
//!   duplicate center values) go to the **lowest index**, i.e. the smaller latency. The RTL compares the
//!   latency against the sorted centers (a comparator tree finds the first center ≥ latency) and picks
//!   between that center and its predecessor.
//! - **Per-center counters**: packets and latency sum (ns) of the epoch, per center — the refined estimate
//!   (sum / count, §3.3) and the tie-break of multi-matches (§3.3.4).
//! - **SVBF insert** ([`svbf::Svbf`]): for each hash `j = 0..h` set bit `(h_j(s) + i) mod m` where `i` is the
//!   center index. One RAM port cannot set `h` bits per cycle, so the hardware store is **partitioned**
//!   ([`SvbfLayout::Partitioned`], the default): `h` segments of `m_seg = ⌊m/h⌋` bits, hash `j` owns segment
//!   `j` and sets bit `(h_j(s) + i) mod m_seg` there (`h_j(s) = ⌊H3_j(s)·m_seg / 2^32⌋`). The paper's single
//!   vector ([`SvbfLayout::Unpartitioned`]) is kept as a switch. Segments are whole `w`-bit words (`m_seg`
//!   rounded down; the few bits left over are unused). **Effect on pcf**: a segment receives
//!   exactly one bit per packet, so a bit is still set with probability `1 − (1 − 1/m_seg)^n ≈ 1 − e^(−nh/m)`
//!   — the same fill as the paper's `(1 − 1/m)^(nh)` to first order — and eq. (3),
//!   `pcf = 1 − (1 − p_fp)^(k−1)` with `p_fp = (1 − e^(−nh/m))^h`, holds unchanged up to `O(h/m)`.
//!   Partitioning removes the paper's footnote-1 caveat (a packet's `h` windows cannot overlap each other,
//!   so its own bits never fake a second center) and makes the `h` bits of a lookup independent, which
//!   eq. (3) assumes; the measured difference is in `sim::maple`'s results (README).
//! - **Sampling** toward the control plane: a xorshift32 PRNG (`common::prng`) advances once per packet; a
//!   packet is sampled when the state is `≤ sample_threshold` (threshold `⌊r·(2^32 − 1)⌋` for rate `r`;
//!   0 samples nothing since the state is never 0, `2^32 − 1` everything). A sample (its latency) is pushed
//!   into the report FIFO (`common::fifo`): a full FIFO drops it and counts the drop, never stalling packets.
//!
//! ## Epochs ([`model::MapleModel::epoch`])
//! Two banks (vector, counters, centers) ping-pong. At an epoch marker the active bank **freezes** (the
//! lookup port and the flush engine read it) and the other bank, already cleared by the previous flush,
//! becomes active with the **shadow centers** loaded through the CSR port during the epoch — so a center
//! load never stalls traffic. A flush ([`model::FlushRecord`]) streams the frozen words out (the paper's
//! flush to DRAM/SSD) with the epoch's centers and counters; software looks packets up in a flushed
//! record with the same answers as the hardware port.
//!
//! ## Lookup ([`store::resolve`])
//! Per hash `j` a burst read of the `w`-bit words holding bits `h_j(s) .. h_j(s) + k − 1` of its segment
//! (at most `⌈k/w⌉ + 1` words; `w` = [`MapleConfig::word_bits`], 32 as in the paper's Table 1), the AND of
//! the `h` bitmaps: one bit set → **Match**; several → **Multi-Match**, the center with the **largest
//! packet count** of the epoch (ties: lowest index; switchable off, [`TieBreak`]); none → **No-Match**
//! (an SVBF never has false negatives for an inserted packet). The answer carries the center, its latency
//! and the refined latency (`⌊sum/count⌋`, the center's own value when its count is 0).
//!
//! ## Baselines (software, same center match and counters: [`baselines`])
//! PBF (one Bloom filter per center, memory split by the counts two epochs back, capacity-stopped inserts),
//! COMB(f, θ) (a single filter, θ-of-f codes, `h` hashes per code bit), and a perfect store (exact center
//! per key: the paper's "Clustering" curve). [`dimension`] holds §3.4's formulas and reproduces Table 1.
//!
//! Files: [`centers`], [`svbf`], [`store`] (the store trait, lookup answers, epoch state), [`baselines`],
//! [`dimension`], [`model`] (the hardware transaction model and its CSR map), `reference` (naive SVBF).

pub mod baselines;
pub mod centers;
pub mod cycle;
#[cfg(test)]
mod cycle_tests;
pub mod dimension;
pub mod hw;
pub mod lookup;
pub mod model;
#[cfg(test)]
mod reference;
pub mod store;
pub mod svbf;
#[cfg(test)]
mod tests;

use crate::common::config::{check_range, ConfigError, TIMESTAMP_BITS};
use crate::common::csr::CoreIdent;
use serde::{Deserialize, Serialize};

pub use centers::Centers;
pub use model::{FlushRecord, MapleModel, MapleRuntime, MapleStats};
pub use store::{resolve, EpochState, Lookup, MatchKind, Store};
pub use svbf::Svbf;

/// Most centers a core holds (`k ≤ 64`: a lookup bitmap is one `u64`).
pub const MAX_CENTERS: usize = 64;
/// Most hash functions `h` of the SVBF.
pub const MAX_HASHES: usize = 16;
/// Seed of SVBF hash 0 (hash j: `SVBF_SEED + j`).
pub const SVBF_SEED: u64 = 64;
/// The core's identity registers: `MAPL`, register map 1.1 (1.1: the lookup port's counters count, the
/// `flush` register and `options` bit 1).
pub const MAPLE_IDENT: CoreIdent = CoreIdent::new(b"MAPL", 1, 1);

/// How the SVBF's bits are laid out (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SvbfLayout {
    /// `h` segments of `⌊m/h⌋` bits, hash `j` in segment `j` (one RAM port per segment: the hardware).
    Partitioned,
    /// The paper's single vector of `m` bits shared by all hashes.
    Unpartitioned,
}

impl SvbfLayout {
    pub fn name(self) -> &'static str {
        match self {
            SvbfLayout::Partitioned => "partitioned",
            SvbfLayout::Unpartitioned => "unpartitioned",
        }
    }
    pub fn by_name(s: &str) -> Option<SvbfLayout> {
        [SvbfLayout::Partitioned, SvbfLayout::Unpartitioned].into_iter().find(|l| l.name() == s)
    }
}

/// What a lookup answers when several centers match (§3.3.4; CSR `options` bit 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TieBreak {
    /// The matching center with the most packets this epoch (ties: lowest index), flagged Multi-Match.
    Count,
    /// No estimate: Multi-Match without a center (the paper's "just not return an answer").
    None,
}

/// Generation-time shape of a MAPLE store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapleConfig {
    /// Key width in bits (8..=128).
    pub key_bits: usize,
    /// Hash functions `h` (1..=16).
    pub hashes: usize,
    /// SVBF bits `m` per bank (partitioned: `h` segments of `⌊m/h⌋`; at least 64 bits per segment).
    pub svbf_bits: usize,
    pub layout: SvbfLayout,
    /// Memory word width `w` of the lookup's burst reads (8..=64).
    pub word_bits: usize,
    /// log2 of the sample FIFO depth (2..=12).
    pub sample_fifo_bits: usize,
}

impl Default for MapleConfig {
    /// The paper's §5.3 store: 5 Mbit (5·2^20 bits), h = 9, 128-bit keys, 32-bit words, partitioned; 256
    /// samples of FIFO.
    fn default() -> Self {
        MapleConfig {
            key_bits: 128,
            hashes: 9,
            svbf_bits: 5 << 20,
            layout: SvbfLayout::Partitioned,
            word_bits: 32,
            sample_fifo_bits: 8,
        }
    }
}

impl MapleConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        check_range("key_bits", self.key_bits, 8, 128)?;
        check_range("hashes (h)", self.hashes, 1, MAX_HASHES)?;
        check_range("word_bits (w)", self.word_bits, 8, 64)?;
        check_range("sample_fifo_bits", self.sample_fifo_bits, 2, 12)?;
        check_range("svbf_bits (m)", self.svbf_bits, 64, 1 << 34)?;
        if self.segment_bits() < MAX_CENTERS {
            return Err(ConfigError(format!(
                "svbf_bits (m) = {}: a segment of {} bits is shorter than the {MAX_CENTERS}-bit center window",
                self.svbf_bits,
                self.segment_bits()
            )));
        }
        if self.segment_bits() > 1 << 32 {
            return Err(ConfigError(format!("a segment of {} bits exceeds 2^32", self.segment_bits())));
        }
        Ok(())
    }
    /// Segments: `h` (partitioned) or 1.
    pub fn segments(&self) -> usize {
        match self.layout {
            SvbfLayout::Partitioned => self.hashes,
            SvbfLayout::Unpartitioned => 1,
        }
    }
    /// Bits per segment: `⌊m/h⌋` (partitioned) or `m`, rounded down to whole `w`-bit words (a segment is a
    /// RAM of `w`-bit words; this is what bounds a burst by `⌈k/w⌉ + 1` words).
    pub fn segment_bits(&self) -> usize {
        self.svbf_bits / self.segments() / self.word_bits * self.word_bits
    }
    /// Bits one bank of the SVBF uses (`h·⌊m/h⌋` partitioned).
    pub fn memory_bits(&self) -> usize {
        self.segments() * self.segment_bits()
    }
    /// `w`-bit words a lookup reads per hash at most with `k` centers: `⌈k/w⌉ + 1`.
    pub fn burst_words(&self, k: usize) -> usize {
        k.div_ceil(self.word_bits) + 1
    }
}

/// One packet as the core sees it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Descriptor {
    /// The packet key (the low `key_bits` bits are hashed).
    pub key: u128,
    /// Latency, ns (saturated to 32 bits).
    pub latency: u32,
}

/// The latency of a packet stamped `ts_in` and `ts_out` (48-bit ns timestamps, wrapping): `ts_out − ts_in`
/// modulo 2^48, saturated to `u32::MAX` ns.
pub fn latency_ns(ts_in: u64, ts_out: u64) -> u32 {
    let d = ts_out.wrapping_sub(ts_in) & ((1u64 << TIMESTAMP_BITS) - 1);
    d.min(u32::MAX as u64) as u32
}
