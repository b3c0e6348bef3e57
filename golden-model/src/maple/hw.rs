//! The MAPLE core's hardware shape and register constants, shared by the cycle model (`super::cycle`, which
//! re-exports all of it), the RTL (`hdl::maple`) and the testbench: the CSR addresses and `options` bits,
//! the counter-row and record widths, the RTL's derived sizes, [`MapleHwConfig`] and the flush [`Record`].

use super::{MapleConfig, SvbfLayout, MAX_CENTERS, MAX_HASHES, SVBF_SEED};
use crate::common::config::{check_range, ConfigError};
use crate::common::csr::CsrLayout;
use crate::common::hash::{HashKind, XorHash};
use crate::common::mask128;
use crate::common::rmw::modify_stage;
use crate::common::sram::RamTiming;
use serde::{Deserialize, Serialize};

/// CSR addresses of the run-time settings, in [`MapleConfig::csr_layout`] order.
pub const CSR_SAMPLE_THRESHOLD: u8 = 0;
pub const CSR_PRNG_SEED: u8 = 1;
pub const CSR_OPTIONS: u8 = 2;
pub const CSR_CENTER_COUNT: u8 = 3;
pub const CSR_CENTER_INDEX: u8 = 4;
pub const CSR_CENTER_VALUE: u8 = 5;
pub const CSR_EPOCH: u8 = 6;
pub const CSR_FLUSH: u8 = 7;
/// The CSR writes that load `centers` as the shadow set (`center_count`, `center_index` 0, then one
/// `center_value` per center: the write pointer advances after each), in order.
pub fn center_load_writes(centers: &[u32]) -> Vec<(u8, u32)> {
    let mut w = vec![(CSR_CENTER_COUNT, centers.len() as u32), (CSR_CENTER_INDEX, 0)];
    w.extend(centers.iter().map(|&v| (CSR_CENTER_VALUE, v)));
    w
}

/// CSR `options` bits: multi-matches answer no center; the flush waits for a `flush` write.
pub const OPT_TIE_NONE: u32 = 1;
pub const OPT_MANUAL_FLUSH: u32 = 2;

/// Bits of a per-center packet count and latency sum in the counter row.
pub const COUNT_BITS: usize = 32;
pub const SUM_BITS: usize = 64;
/// Width of the counter row (and of a record's data field).
pub const COUNTER_BITS: usize = COUNT_BITS + SUM_BITS;
/// Bits of a record's row field.
pub const RECORD_ROW_BITS: usize = 5;
pub use crate::common::walk::WALK_IN_FLIGHT;
/// Cycles from the epoch marker's registered pulse to the flush's start pulse.
pub const FLUSH_START_DELAY: usize = 3;

/// Generation-time derived sizes (the RTL's generics).
pub mod sizes {
    /// Payload through the bank pipeline: latency (32), per hash the bit in its word, walk flag, walk row,
    /// lookup-read flag.
    pub const fn payload_bits(hashes: usize, word_log2: usize) -> usize {
        32 + hashes * word_log2 + 1 + super::RECORD_ROW_BITS + 1
    }
    /// Bits of a segment's lookup window register: `⌈max_centers/w⌉ + 1` words, at least the 64 bits of a
    /// candidate bitmap.
    pub const fn window_bits(max_centers: usize, word_log2: usize) -> usize {
        let b = (max_centers.div_ceil(1 << word_log2) + 1) << word_log2;
        if b < 64 {
            64
        } else {
            b
        }
    }
    /// Address bits of the per-center counter row: `⌈log2 max_centers⌉` (at least 1). The row is `2^CA`
    /// entries deep, not the segments' `2^A`; the flush walks it over the `2^A` addresses of a segment row
    /// like the others, address `a` reading and clearing entry `a mod 2^CA` (its record carries `a`). When the
    /// walk runs on a frozen bank, the entries it reads at `a ≥ 2^CA` were cleared earlier in the same walk,
    /// so those records hold 0 — what a `2^A`-deep row would give; only an epoch marker during a flush (the
    /// walked bank counting again) makes them differ.
    pub const fn center_addr_bits(max_centers: usize) -> usize {
        let b = max_centers.next_power_of_two().trailing_zeros() as usize;
        if b < 1 {
            1
        } else {
            b
        }
    }
    /// A flush record: data, address, row.
    pub const fn record_bits(addr_bits: usize) -> usize {
        super::COUNTER_BITS + addr_bits + super::RECORD_ROW_BITS
    }
}

/// The shape of a MAPLE core in hardware: the store and what only the RTL has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapleHwConfig {
    pub store: MapleConfig,
    /// Centers the core holds (`k ≤ max_centers`; 1..=64).
    pub max_centers: usize,
    /// log2 of the flush record FIFO depth (3..=12).
    pub record_fifo_bits: usize,
    /// Both banks' pipelines (segment rows and counters) on [`RamTiming::Registered`] block RAM: the modify
    /// stage S4 instead of S2, for the large tables whose block-RAM outputs do not meet 150 MHz on the short
    /// timing. Records and lookup reads come back two cycles later, the flush keeps two more ops in flight
    /// ([`MapleHwConfig::walk_in_flight`]); the transaction model ignores it.
    #[serde(default)]
    pub registered_ram: bool,
}

impl MapleHwConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        self.store.check()?;
        check_range("max_centers", self.max_centers, 1, MAX_CENTERS)?;
        check_range("record_fifo_bits", self.record_fifo_bits, 3, 12)?;
        check_range("hashes (h) of an RTL build", self.store.hashes, 1, MAX_HASHES)?;
        let (w, seg) = (self.store.word_bits, self.store.segment_bits());
        if self.store.layout != SvbfLayout::Partitioned || !w.is_power_of_two() {
            return Err(ConfigError("an RTL build is partitioned with a power-of-two word width".into()));
        }
        if !(seg / w).is_power_of_two() || self.store.svbf_bits != self.store.hashes * seg {
            return Err(ConfigError(format!(
                "an RTL build needs h segments of a power-of-two number of words (m = {} for h = {}, w = {})",
                self.store.svbf_bits, self.store.hashes, w
            )));
        }
        if self.store.key_bits > 128 || 1 << self.addr_bits() < self.max_centers {
            return Err(ConfigError("the counter row needs a word per center".into()));
        }
        Ok(())
    }
    /// `A`: log2 of the words per segment.
    pub fn addr_bits(&self) -> usize {
        (self.store.segment_bits() / self.store.word_bits).trailing_zeros() as usize
    }
    /// log2 of the word width.
    pub fn word_log2(&self) -> usize {
        self.store.word_bits.trailing_zeros() as usize
    }
    /// Bits of a base `b_j` (`log2 m_seg`).
    pub fn base_bits(&self) -> usize {
        self.addr_bits() + self.word_log2()
    }
    pub fn record_bits(&self) -> usize {
        sizes::record_bits(self.addr_bits())
    }
    /// Hash `j`'s base unit: the top `log2 m_seg` bits of H3/32 seed `SVBF_SEED + j` (= `reduce32`).
    pub fn base_hash(&self, j: usize) -> Result<XorHash, ConfigError> {
        let b = self.base_bits();
        XorHash::new(HashKind::H3Seeded { out_bits: 32, seed: SVBF_SEED + j as u64 }, self.store.key_bits)?
            .slice(32 - b, b)
    }
    pub fn csr_layout(&self) -> CsrLayout {
        self.store.csr_layout()
    }
    /// The timing of a bank RAM of `2^addr_bits` words of `width` bits ([`MapleHwConfig::registered_ram`]).
    pub fn ram_timing(&self, addr_bits: usize, width: usize) -> RamTiming {
        RamTiming::chosen(self.registered_ram, addr_bits, width)
    }
    /// The banks' modify stage: 2, or 4 on registered RAM (segment rows and counters alike).
    pub fn modify_stage(&self) -> usize {
        modify_stage(self.ram_timing(self.addr_bits(), self.store.word_bits))
    }
    /// Most flush ops between an issue and its record's push into the record FIFO
    /// ([`crate::common::walk::walk_in_flight`] of the banks' timing). The flush issues only while the FIFO
    /// has room for all of them.
    pub fn walk_in_flight(&self) -> usize {
        crate::common::walk::walk_in_flight(self.ram_timing(self.addr_bits(), self.store.word_bits))
    }
}

/// A flush record as the record port carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// `0..h` a segment, `h` the counters.
    pub row: usize,
    pub addr: usize,
    pub data: u128,
}

impl Record {
    pub fn pack(&self, cfg: &MapleHwConfig) -> u128 {
        self.data | (self.addr as u128) << COUNTER_BITS | (self.row as u128) << (COUNTER_BITS + cfg.addr_bits())
    }
    pub fn unpack(cfg: &MapleHwConfig, v: u128) -> Record {
        let a = cfg.addr_bits();
        Record {
            data: v & mask128(COUNTER_BITS),
            addr: (v >> COUNTER_BITS) as usize & ((1 << a) - 1),
            row: (v >> (COUNTER_BITS + a)) as usize & ((1 << RECORD_ROW_BITS) - 1),
        }
    }
}
