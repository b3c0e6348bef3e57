//! TCP-reordering detection per IP prefix (Zheng, "Compact Algorithms for Measuring Network Performance",
//! §1.1.2.2 and chapter 3 as summarised there; the defense slides from "A reordered packet" to "Hybrid
//! Scheme" are the specification).
//!
//! Packet i of flow f is *out of order* iff its sequence number is below that of the flow's previous
//! packet, `s_i < s_{i−1}` ([`out_of_order`]: serial-number arithmetic modulo 2^32). A prefix g is
//! *out-of-order heavy* if more than ε of its packets are out of order. The data plane samples flows, the
//! control plane tallies per prefix:
//!
//! - [`sampling`]: flow sampling with conditional overwrite — a hash-indexed array indexed by a hash of the
//!   **prefix** (memory allocated per prefix), each bucket one flow `{fingerprint, last seq, o, n, last
//!   timestamp}`; another flow overwrites the resident only if it is stale (`t − t' > T`), seen enough
//!   (`n' > C`) or possibly in a heavily reordered prefix (`o' > R`); the evicted flow is reported
//!   `{prefix, n', o'}`. A flush (ping-pong banks) reports every occupied bucket.
//! - [`hybrid`]: the heavy-hitter core ([`crate::heavy_hitters::HhModel`]) tracks the large flows with a
//!   side table of `{prefix, last seq, n, o}` per heavy-hitter bucket; flow sampling sees only the packets
//!   of flows the heavy-hitter table does not monitor. Both report to the same tally.
//!
//! This module holds what both share: the generation-time shape ([`ReorderConfig`]), the run-time settings
//! ([`ReorderRuntime`]), the packet descriptor ([`Descriptor`]), the report record ([`Report`], packed to
//! 32-bit limbs for the report FIFO port) and the register map ([`ReorderConfig::csr_layout`], identity
//! [`REORD_IDENT`]).

pub mod cycle;
#[cfg(test)]
mod cycle_tests;
pub mod hybrid;
pub mod hybrid_cycle;
pub mod sampling;

use crate::common::config::{check_range, ConfigError};
use crate::common::csr::{CoreIdent, CsrLayout};
use crate::common::hash::{HashKind, XorHash};
use crate::common::mask128;
use serde::{Deserialize, Serialize};

pub use hybrid::HybridModel;
pub use sampling::{Outcome, SamplingModel};

/// TCP sequence numbers: 32 bits, compared modulo 2^32.
pub const SEQ_BITS: usize = 32;
/// Width of a flow key: the IPv4 5-tuple `src | dst | sport | dport | proto` (104 bits).
pub const FLOW_KEY_BITS: usize = 104;
/// Width of a prefix (IPv4 addresses; the prefix is the address with its low `32 − prefix_len` bits zero).
pub const PREFIX_BITS: usize = 32;
/// Bits of the reason field of a report.
pub const REASON_BITS: usize = 1;
/// A report as its port carries it (32 + 32 + 32 + 1 = 97 bits at most).
pub type ReportWord = u128;

/// The core's identity registers: `REOR`, register map 1.0.
pub const REORD_IDENT: CoreIdent = CoreIdent::new(b"REOR", 1, 0);

/// `s` is out of order after `prev` (`s < prev` modulo 2^32): the wrapping difference `s − prev` has its top
/// bit set, i.e. `prev` is 1..=2^31 ahead of `s` in sequence space (RFC 1982 serial-number arithmetic; the
/// distance of exactly 2^31, which RFC 1982 leaves undefined, counts as out of order — in hardware this is
/// bit 31 of one 32-bit subtraction). A repeat of the same number (`s == prev`) is not out of order.
pub const fn out_of_order(s: u32, prev: u32) -> bool {
    s.wrapping_sub(prev) >> 31 == 1
}

/// `now − then` modulo `2^bits` (timestamps stored in `bits` bits wrap; the difference is right as long as
/// the true gap is below `2^bits` units).
pub const fn age(now: u64, then: u64, bits: usize) -> u64 {
    now.wrapping_sub(then) & ((1u64 << bits) - 1)
}

/// Generation-time shape of a reordering core.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReorderConfig {
    /// log2 of the buckets of the flow-sampling array (2..=20).
    pub addr_bits: usize,
    /// Flow fingerprint width (1..=32): CRC-32/MPEG-2 of the flow key, low bits.
    pub fp_bits: usize,
    /// Stored timestamp width (8..=32).
    pub ts_bits: usize,
    /// Timestamp unit: the stored timestamp is `ts_ns >> ts_shift` (0..=32; 20 ≈ 1.05 ms).
    pub ts_shift: usize,
    /// Flow-size counter width n (2..=32); saturates.
    pub n_bits: usize,
    /// Out-of-order counter width o (2..=n_bits; o ≤ n always); saturates.
    pub o_bits: usize,
    /// log2 of the report FIFO depth (2..=10).
    pub report_fifo_bits: usize,
}

impl Default for ReorderConfig {
    /// 1024 buckets, 16-bit fingerprints, 16-bit timestamps in units of 2^16 ns (65.5 µs: the wrap is at
    /// 4.3 s, so T up to a few seconds is safe), 16-bit n and o, 16 reports of FIFO.
    fn default() -> Self {
        ReorderConfig {
            addr_bits: 10,
            fp_bits: 16,
            ts_bits: 16,
            ts_shift: 16,
            n_bits: 16,
            o_bits: 16,
            report_fifo_bits: 4,
        }
    }
}

/// The sizes that follow from the generation parameters, as `const fn`s.
pub mod sizes {
    use super::{PREFIX_BITS, REASON_BITS, SEQ_BITS};
    /// Bucket word: valid | prefix | fingerprint | seq | o | n | timestamp, low field first.
    pub const fn bucket_bits(fp_bits: usize, n_bits: usize, o_bits: usize, ts_bits: usize) -> usize {
        1 + PREFIX_BITS + fp_bits + SEQ_BITS + o_bits + n_bits + ts_bits
    }
    /// Report: prefix | n | o | reason, low field first.
    pub const fn report_bits(n_bits: usize, o_bits: usize) -> usize {
        PREFIX_BITS + n_bits + o_bits + REASON_BITS
    }
    /// What travels with a packet through a bank pipeline: walk | prefix | fingerprint | seq | timestamp |
    /// force (2 bits, the `in_force` code), low field first — the prefix, fingerprint and sequence number
    /// at the bucket's own offsets.
    pub const fn payload_bits(fp_bits: usize, ts_bits: usize) -> usize {
        payload_force(fp_bits, ts_bits) + 2
    }
    /// Bit offset of the payload's force code.
    pub const fn payload_force(fp_bits: usize, ts_bits: usize) -> usize {
        payload_ts(fp_bits) + ts_bits
    }
    /// Bit offsets of the bucket's fields (the valid bit is bit 0).
    pub const BUCKET_PREFIX: usize = 1;
    pub const BUCKET_FP: usize = 1 + PREFIX_BITS;
    pub const fn bucket_seq(fp_bits: usize) -> usize {
        BUCKET_FP + fp_bits
    }
    pub const fn bucket_o(fp_bits: usize) -> usize {
        bucket_seq(fp_bits) + SEQ_BITS
    }
    pub const fn bucket_n(fp_bits: usize, o_bits: usize) -> usize {
        bucket_o(fp_bits) + o_bits
    }
    pub const fn bucket_ts(fp_bits: usize, o_bits: usize, n_bits: usize) -> usize {
        bucket_n(fp_bits, o_bits) + n_bits
    }
    /// Bit offset of the payload's timestamp (its walk bit is bit 0).
    pub const fn payload_ts(fp_bits: usize) -> usize {
        bucket_o(fp_bits)
    }
}

impl ReorderConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        check_range("addr_bits (log2 buckets)", self.addr_bits, 2, 20)?;
        check_range("fp_bits (flow fingerprint)", self.fp_bits, 1, 32)?;
        // At most 32: the timeout T is a 32-bit register.
        check_range("ts_bits (stored timestamp)", self.ts_bits, 8, 32)?;
        check_range("ts_shift (timestamp unit 2^shift ns)", self.ts_shift, 0, 32)?;
        check_range("n_bits (flow-size counter)", self.n_bits, 2, 32)?;
        check_range("o_bits (out-of-order counter, at most n_bits)", self.o_bits, 2, self.n_bits)?;
        check_range("report_fifo_bits", self.report_fifo_bits, 2, 10)?;
        Ok(())
    }
    pub fn buckets(&self) -> usize {
        1 << self.addr_bits
    }
    pub fn n_max(&self) -> u32 {
        ((1u64 << self.n_bits) - 1) as u32
    }
    pub fn o_max(&self) -> u32 {
        ((1u64 << self.o_bits) - 1) as u32
    }
    /// Largest stored timestamp difference (a timeout T must stay below it).
    pub fn ts_max(&self) -> u64 {
        (1u64 << self.ts_bits) - 1
    }
    /// The stored form of a 48-bit ns timestamp.
    pub fn stored_ts(&self, ts_ns: u64) -> u64 {
        (ts_ns >> self.ts_shift) & self.ts_max()
    }
    /// Nanoseconds per stored timestamp unit.
    pub fn ts_unit_ns(&self) -> u64 {
        1 << self.ts_shift
    }
    pub fn bucket_bits(&self) -> usize {
        sizes::bucket_bits(self.fp_bits, self.n_bits, self.o_bits, self.ts_bits)
    }
    pub fn report_bits(&self) -> usize {
        sizes::report_bits(self.n_bits, self.o_bits)
    }
    /// Bits of array memory (two banks).
    pub fn memory_bits(&self) -> usize {
        2 * self.buckets() * self.bucket_bits()
    }
    /// The index hash: H3 with `addr_bits` outputs over a 104-bit input, fed the prefix (zero-extended) or,
    /// in the flow-indexed baseline ([`IndexBy::Flow`]), the flow key — one hash unit, a mux on its input.
    pub fn index_hash(&self) -> Result<XorHash, ConfigError> {
        XorHash::new(HashKind::H3 { out_bits: self.addr_bits }, FLOW_KEY_BITS)
    }
    /// The fingerprint hash: CRC-32/MPEG-2 of the flow key, its low `fp_bits` bits (a different family
    /// from the index's H3, so fingerprint and index are independent).
    pub fn fp_hash(&self) -> Result<XorHash, ConfigError> {
        XorHash::new(HashKind::Crc32Mpeg2, FLOW_KEY_BITS)?.truncated(self.fp_bits)
    }

    /// The register map (run-time settings and counters).
    pub fn csr_layout(&self) -> CsrLayout {
        let d = ReorderRuntime::default();
        let config = vec![
            ("prefix_len".to_string(), d.prefix_len as u32),
            ("timeout".to_string(), d.timeout as u32),
            ("count_c".to_string(), d.count),
            ("reorder_r".to_string(), d.reorder),
            ("conditions".to_string(), d.conditions_word()),
            ("options".to_string(), d.options_word()),
            ("bank".to_string(), 0),
            ("flush".to_string(), 0),
        ];
        let status = [
            "packets",
            "data_packets",
            "hits",
            "inserts",
            "overwrites",
            "misses",
            "out_of_order",
            "reports",
            "report_drops",
            "report_fifo_level",
            "flush_busy",
            "flush_fifo_level",
        ];
        CsrLayout::new(config, status.map(String::from).to_vec())
            .with_ident(REORD_IDENT)
            .doc("prefix_len", "prefix length L (0..=32): the prefix is the destination address with its low 32-L bits zero (the core reads the low 6 bits; 33..=63 mean 32)")
            .doc("timeout", "T in stored timestamp units (2^ts_shift ns): the resident is stale when t - t' > T (the core reads the low ts_bits bits)")
            .doc("count_c", "C: the resident has been seen enough when n' > C (the core reads the low n_bits bits)")
            .doc("reorder_r", "R: the resident may be in a heavily reordered prefix when o' > R (the core reads the low o_bits bits)")
            .doc("conditions", "overwrite conditions enabled: bit 0 stale (T), bit 1 seen enough (C), bit 2 reordered (R)")
            .doc("options", "bit 0: count a newcomer's first packet in n; bit 1: index by the flow key instead of the prefix (flow-level baseline); bit 2 (over bit 1): index from in_index, decision from in_force (the hybrid's side table)")
            .doc("bank", "bit 0: the bank packets update (the other is frozen for readout)")
            .doc("flush", "a write starts the read-and-clear walk of the frozen bank: one report per occupied bucket")
            .doc("packets", "descriptors accepted")
            .doc("data_packets", "descriptors with payload (the only ones that count)")
            .doc("hits", "data packets of the resident flow (bucket updated)")
            .doc("inserts", "data packets written into an empty bucket")
            .doc("overwrites", "data packets of another flow that replaced the resident (an eviction report)")
            .doc("misses", "data packets of another flow that could not overwrite (ignored)")
            .doc("out_of_order", "resident-flow packets found out of order (s < previous s, mod 2^32)")
            .doc("reports", "reports pushed into the eviction or flush FIFO (or dropped): evictions and flushed buckets")
            .doc("report_drops", "eviction reports dropped by a full eviction FIFO")
            .doc("report_fifo_level", "eviction reports waiting (the report port shows these first)")
            .doc("flush_busy", "1 while a readout walk runs")
            .doc("flush_fifo_level", "flushed-bucket reports waiting (the walk waits for room: never dropped)")
    }
}

/// What the index hash is fed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IndexBy {
    /// The prefix (the algorithm: memory allocated per prefix).
    Prefix,
    /// The flow key (the flow-level baseline of the slides: flows compete for memory regardless of their
    /// prefix, so prefixes with many flows take over the array).
    Flow,
    /// No hash: the index comes with the packet (the `in_index` port), and so does the decision
    /// ([`sampling::Force`] on `in_force`) — the hybrid's side table, addressed like the heavy-hitter
    /// bucket the packet's flow holds. The transaction model's [`sampling::SamplingModel::step_at`].
    Port,
}

/// Run-time settings (CSRs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReorderRuntime {
    /// Prefix length L (0..=32).
    pub prefix_len: u8,
    /// T in stored timestamp units: the resident is stale when `t − t' > T`.
    pub timeout: u64,
    /// C: the resident has been seen enough when `n' > C`.
    pub count: u32,
    /// R: the resident may be in a heavily reordered prefix when `o' > R`.
    pub reorder: u32,
    /// Overwrite on staleness (T).
    pub stale_en: bool,
    /// Overwrite on count (C).
    pub count_en: bool,
    /// Overwrite on reordering (R).
    pub reorder_en: bool,
    /// Count a newcomer's first packet in n (it cannot be out of order: it has no predecessor here). On,
    /// n is the flow's packets seen (the problem's denominator, "its packets"); off, n counts only packets
    /// compared with a predecessor, so o/n is not diluted by one uncomparable packet per sample.
    pub count_first: bool,
    pub index: IndexBy,
}

impl Default for ReorderRuntime {
    /// /24, T = 1526 units (100 ms at the default 2^16 ns unit), C = 64, R = 4, every condition on, first
    /// packets counted, prefix-indexed.
    fn default() -> Self {
        ReorderRuntime {
            prefix_len: 24,
            timeout: 1526,
            count: 64,
            reorder: 4,
            stale_en: true,
            count_en: true,
            reorder_en: true,
            count_first: true,
            index: IndexBy::Prefix,
        }
    }
}

impl ReorderRuntime {
    /// Settings the core of `cfg` can hold.
    pub fn check(&self, cfg: &ReorderConfig) -> Result<(), ConfigError> {
        check_range("prefix_len", self.prefix_len as usize, 0, 32)?;
        if self.timeout > cfg.ts_max() {
            return Err(ConfigError(format!(
                "timeout T = {} units does not fit the {}-bit stored timestamp (at most {})",
                self.timeout,
                cfg.ts_bits,
                cfg.ts_max()
            )));
        }
        if self.count > cfg.n_max() {
            return Err(ConfigError(format!("C = {} exceeds the {}-bit flow-size counter", self.count, cfg.n_bits)));
        }
        if self.reorder > cfg.o_max() {
            return Err(ConfigError(format!("R = {} exceeds the {}-bit reorder counter", self.reorder, cfg.o_bits)));
        }
        Ok(())
    }
    /// The prefix of a destination address: its top `prefix_len` bits, the rest zero.
    pub fn prefix(&self, addr: u32) -> u32 {
        prefix_of(addr, self.prefix_len)
    }
    /// CSR `conditions`.
    pub fn conditions_word(&self) -> u32 {
        self.stale_en as u32 | (self.count_en as u32) << 1 | (self.reorder_en as u32) << 2
    }
    /// CSR `options`.
    pub fn options_word(&self) -> u32 {
        self.count_first as u32
            | ((self.index == IndexBy::Flow) as u32) << 1
            | ((self.index == IndexBy::Port) as u32) << 2
    }
}

/// `addr` with its low `32 − len` bits cleared.
pub const fn prefix_of(addr: u32, len: u8) -> u32 {
    if len == 0 {
        0
    } else {
        addr & (u32::MAX << (32 - len as u32))
    }
}

/// One packet as the core sees it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Descriptor {
    /// The address the prefix is taken from (the IPv4 destination; the core keeps its top `prefix_len`
    /// bits, so the prefix length is a run-time setting).
    pub addr: u32,
    /// The flow key (104-bit 5-tuple).
    pub flow: u128,
    /// TCP sequence number.
    pub seq: u32,
    /// Timestamp, ns (48 bits, wrapping).
    pub ts: u64,
    /// The segment carries payload (only data segments count; pure ACKs, bare SYN/FIN/RST are ignored).
    pub data: bool,
}

/// Why a report was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// A newcomer overwrote the bucket.
    Evicted = 0,
    /// The bucket was read out by a flush.
    Flushed = 1,
}

/// One record toward the control plane: a flow's sample `{prefix, n, o}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Report {
    pub prefix: u32,
    pub n: u32,
    pub o: u32,
    pub reason: Reason,
}

impl Report {
    /// The port word: prefix | n | o | reason, low field first.
    pub fn pack(&self, cfg: &ReorderConfig) -> ReportWord {
        let (n, o) = (cfg.n_bits, cfg.o_bits);
        self.prefix as u128
            | (self.n as u128 & mask128(n)) << PREFIX_BITS
            | (self.o as u128 & mask128(o)) << (PREFIX_BITS + n)
            | (self.reason as u128) << (PREFIX_BITS + n + o)
    }
    pub fn unpack(cfg: &ReorderConfig, w: ReportWord) -> Report {
        let (n, o) = (cfg.n_bits, cfg.o_bits);
        let field = |at: usize, bits: usize| ((w >> at) & mask128(bits)) as u32;
        Report {
            prefix: field(0, PREFIX_BITS),
            n: field(PREFIX_BITS, n),
            o: field(PREFIX_BITS + n, o),
            reason: if field(PREFIX_BITS + n + o, REASON_BITS) == 1 { Reason::Flushed } else { Reason::Evicted },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_comparison_wraps_and_has_the_right_direction() {
        assert!(out_of_order(3, 4));
        assert!(!out_of_order(4, 3));
        assert!(!out_of_order(7, 7));
        // Across the wrap: 5 follows 0xFFFF_FFF0, and 0xFFFF_FFF0 after 5 is late.
        assert!(!out_of_order(5, 0xFFFF_FFF0));
        assert!(out_of_order(0xFFFF_FFF0, 5));
        // Half the space: exactly 2^31 behind counts as out of order, 2^31 − 1 ahead does not.
        assert!(out_of_order(0, 1 << 31));
        assert!(!out_of_order((1 << 31) - 1, 0));
        assert_eq!(age(3, 0xFFFE, 16), 5);
    }

    #[test]
    fn config_checks_and_sizes() {
        let c = ReorderConfig::default();
        c.check().unwrap();
        assert_eq!(c.bucket_bits(), 1 + 32 + 16 + 32 + 16 + 16 + 16);
        assert!(ReorderConfig { o_bits: 20, ..c.clone() }.check().unwrap_err().0.contains("o_bits"));
        assert!(ReorderConfig { addr_bits: 1, ..c.clone() }.check().is_err());
        let rt = ReorderRuntime::default();
        rt.check(&c).unwrap();
        assert!(ReorderRuntime { timeout: 1 << 16, ..rt }.check(&c).unwrap_err().0.contains("timeout"));
        assert!(ReorderRuntime { count: 1 << 16, ..rt }.check(&c).is_err());
        assert!(ReorderRuntime { prefix_len: 33, ..rt }.check(&c).is_err());
        assert_eq!(prefix_of(0x7F03_0105, 24), 0x7F03_0100);
        assert_eq!(prefix_of(0x7F03_0105, 0), 0);
        assert_eq!(prefix_of(0x7F03_0105, 32), 0x7F03_0105);
        let l = c.csr_layout();
        l.check().unwrap();
        assert_eq!(l.config_addr("conditions"), Some(4));
        assert_eq!(rt.conditions_word(), 7);
    }

    #[test]
    fn reports_round_trip_through_limbs() {
        let c = ReorderConfig { n_bits: 32, o_bits: 32, ..ReorderConfig::default() };
        for r in [
            Report { prefix: 0xC0A8_0100, n: u32::MAX, o: 12345, reason: Reason::Flushed },
            Report { prefix: 1, n: 0, o: 0, reason: Reason::Evicted },
        ] {
            assert_eq!(Report::unpack(&c, r.pack(&c)), r);
        }
        assert_eq!(c.report_bits(), 97);
    }
}
