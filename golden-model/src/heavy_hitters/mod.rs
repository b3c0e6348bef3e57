//! Heavy-hitter core: RAP, d-way RAP and PRECISION (Zheng, "Compact Algorithms for Measuring Network
//! Performance", ch. 1 and ch. 4; the defense slides' "Random Admission Policy").
//!
//! A table of buckets `{key, count}` keeps the keys that appear most often in a packet stream. A packet whose
//! key is stored increments its count; a missing key competes for the bucket with the smallest count `m`
//! and takes it with probability `1/(m + 1)` (random admission), as `{key, m + 1}`; otherwise nothing
//! changes. Variants:
//!
//! - **SpaceSaving** ([`reference::SpaceSaving`], golden only): a miss always takes the global minimum.
//! - **RAP** ([`reference::Rap`], golden only): random admission into the *global* minimum of `m` buckets.
//!   Finding a global minimum per packet needs a search over all buckets; a line-rate pipeline cannot do
//!   it, so RAP is the reference the hardware variants approximate.
//! - **d-way RAP** ([`Method::Dway`], hardware): `d` hash-indexed rows, one bucket per row per packet; a key
//!   stored in any of its `d` buckets is a hit; otherwise the minimum of the `d` candidates (ties: lowest
//!   row) stands in for the global minimum.
//! - **PRECISION** ([`Method::Precision`], hardware): the switch pipeline's order of decisions — the rows are
//!   visited in order and the *first* bucket that is empty or holds the key takes the packet (so a key can
//!   be stored twice, once behind an empty bucket of an earlier row, as in PRECISION's P4 program); only if
//!   none does, the minimum of the `d` carries admission. See [`table`] for exactly how this differs from
//!   the switch version (no recirculation).
//!
//! The admission probability comes from the shared PRNG through a threshold computed from the draw alone
//! ([`admission`]): the reciprocal table (≤ 0.098 % above exact) or PRECISION's power of two.
//!
//! Empty bucket: `count = 0` (its key is meaningless). Counts saturate at `2^count_bits − 1`.

pub mod admission;
pub mod cycle;
pub mod reference;
pub mod table;
#[cfg(test)]
mod tests;

use crate::common::config::{check_range, ConfigError, KEY_BITS_MAX};
use crate::common::csr::{CoreIdent, CsrLayout};
use crate::common::hash::{HashKind, XorHash};
use crate::common::{mask128, Word};
use serde::{Deserialize, Serialize};

pub use admission::Admission;
pub use table::{HhModel, Outcome, PacketResult};

/// Most rows a core holds.
pub const MAX_ROWS: usize = 4;
/// Bits of a row number in records.
pub const ROW_BITS: usize = 2;
/// Row indices: bits `[i·A, (i+1)·A)` of one H3 of the key with `rows·A` output bits (independent matrix
/// columns, so the rows' hashes are independent).
pub fn index_hash(cfg: &HhConfig) -> HashKind {
    HashKind::H3 { out_bits: cfg.rows * cfg.addr_bits }
}

/// The core's identity registers: `HHIT`, register map 1.0.
pub const HH_IDENT: CoreIdent = CoreIdent::new(b"HHIT", 1, 0);

/// The sizes that follow from the generation parameters, as `const fn`s (hdl's build declarations need them
/// as const generics).
pub mod sizes {
    use super::ROW_BITS;
    /// Bucket word: key | count << key_bits.
    pub const fn bucket_bits(key_bits: usize, count_bits: usize) -> usize {
        key_bits + count_bits
    }
    /// Readout record: key | count | index | row, low field first.
    pub const fn record_bits(key_bits: usize, count_bits: usize, addr_bits: usize) -> usize {
        key_bits + count_bits + addr_bits + ROW_BITS
    }
    /// Index hash width: one `addr_bits` slice per row.
    pub const fn hash_bits(rows: usize, addr_bits: usize) -> usize {
        rows * addr_bits
    }
}

/// Limbs of a record on the `[u32; N]` port (records are at most 128 + 32 + 14 + 2 = 176 bits).
pub const RECORD_LIMBS: usize = 6;
/// A record as its port carries it.
pub type RecordWord = [u32; RECORD_LIMBS];

/// Generation-time shape of a heavy-hitter core.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HhConfig {
    /// Rows `d` (1..=4).
    pub rows: usize,
    /// log2 of the buckets per row (2..=16).
    pub addr_bits: usize,
    /// Key width (1..=128: a 104-bit 5-tuple, a prefix, ...).
    pub key_bits: usize,
    /// Counter width (4..=32); counts saturate.
    pub count_bits: usize,
    /// log2 of the record FIFO depth (2..=10).
    pub record_fifo_bits: usize,
}

impl Default for HhConfig {
    /// Two rows of 1024 buckets, 104-bit keys (IPv4 5-tuples), 32-bit counts, 16 records of FIFO.
    fn default() -> Self {
        HhConfig { rows: 2, addr_bits: 10, key_bits: 104, count_bits: 32, record_fifo_bits: 4 }
    }
}

impl HhConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        check_range("rows", self.rows, 1, MAX_ROWS)?;
        check_range("addr_bits (log2 buckets per row)", self.addr_bits, 2, 16)?;
        check_range("key_bits", self.key_bits, 1, KEY_BITS_MAX)?;
        check_range("count_bits", self.count_bits, 4, 32)?;
        check_range("record_fifo_bits", self.record_fifo_bits, 2, 10)?;
        Ok(())
    }
    pub fn buckets_per_row(&self) -> usize {
        1 << self.addr_bits
    }
    /// Buckets in one bank (all rows).
    pub fn buckets(&self) -> usize {
        self.rows << self.addr_bits
    }
    pub fn count_max(&self) -> u64 {
        (1u64 << self.count_bits) - 1
    }
    pub fn bucket_bits(&self) -> usize {
        sizes::bucket_bits(self.key_bits, self.count_bits)
    }
    pub fn record_bits(&self) -> usize {
        sizes::record_bits(self.key_bits, self.count_bits, self.addr_bits)
    }
    /// The index hash of the key (all rows' indices).
    pub fn hash(&self) -> Result<XorHash, ConfigError> {
        XorHash::new(index_hash(self), self.key_bits)
    }
    /// Bucket indices of a key, row by row, from its index hash value.
    pub fn indices(&self, hash: u64) -> Vec<usize> {
        (0..self.rows).map(|row| self.index(hash, row)).collect()
    }
    /// Row `row`'s bucket index: its `addr_bits` slice of the hash.
    pub fn index(&self, hash: u64, row: usize) -> usize {
        ((hash >> (row * self.addr_bits)) as usize) & (self.buckets_per_row() - 1)
    }
    /// Bits of table memory in the core (two banks of `rows × 2^addr_bits` buckets).
    pub fn memory_bits(&self) -> usize {
        2 * self.buckets() * self.bucket_bits()
    }

    /// The register map (run-time settings and counters).
    pub fn csr_layout(&self) -> CsrLayout {
        let config = vec![
            ("method".to_string(), Method::Dway as u32),
            ("admission".to_string(), 0),
            ("prng_seed".to_string(), 0),
            ("bank".to_string(), 0),
            ("dump".to_string(), 0),
        ];
        let status = [
            "packets",
            "hits",
            "inserts",
            "admissions",
            "rejections",
            "dump_busy",
            "records",
            "record_drops",
            "record_fifo_level",
        ];
        CsrLayout::new(config, status.map(String::from).to_vec())
            .with_ident(HH_IDENT)
            .doc("method", "bit 0: 0 d-way RAP (a key stored in any row is a hit), 1 PRECISION (the first row that is empty or holds the key takes the packet)")
            .doc("admission", "bit 0: 0 probability 1/(m+1) from the reciprocal table (at most 0.098 % above exact), 1 power of two 2^-ceil(log2(m+1)) as PRECISION")
            .doc("prng_seed", "a write seeds the admission PRNG (0 loads the default seed)")
            .doc("bank", "bit 0: the bank packets update (the other is frozen for readout)")
            .doc("dump", "a write starts the read-and-clear walk of the frozen bank: one record per non-empty bucket, row by row")
            .doc("packets", "descriptors accepted")
            .doc("hits", "packets whose key was stored (count incremented)")
            .doc("inserts", "packets written into an empty bucket")
            .doc("admissions", "misses admitted into the minimum bucket, evicting its key")
            .doc("rejections", "misses not admitted")
            .doc("dump_busy", "1 while a readout walk runs")
            .doc("records", "records pushed into the record FIFO (or dropped)")
            .doc("record_drops", "records dropped by a full record FIFO")
            .doc("record_fifo_level", "records waiting in the record FIFO")
    }
}

/// How the rows are consulted (CSR `method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Method {
    /// d-way RAP: hit in any row; else admission into the minimum of the d.
    Dway = 0,
    /// PRECISION: the first row (in order) that is empty or holds the key; else admission into the minimum.
    Precision = 1,
}

impl Method {
    pub fn from_csr(v: u32) -> Method {
        if v & 1 == 1 {
            Method::Precision
        } else {
            Method::Dway
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Method::Dway => "dway",
            Method::Precision => "precision",
        }
    }
}

/// Run-time settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HhRuntime {
    pub method: Method,
    pub admission: Admission,
    pub seed: u32,
}

impl Default for HhRuntime {
    fn default() -> Self {
        HhRuntime { method: Method::Dway, admission: Admission::Reciprocal, seed: 0 }
    }
}

/// One bucket. Empty iff `count == 0`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bucket {
    pub key: u128,
    pub count: u64,
}

impl Bucket {
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    pub fn holds(&self, key: u128) -> bool {
        self.count != 0 && self.key == key
    }
    /// The RTL word: key | count << key_bits.
    pub fn pack(&self, cfg: &HhConfig) -> (u128, u64) {
        (self.key & mask128(cfg.key_bits), self.count & cfg.count_max())
    }
}

/// The model's RAM word is the bucket itself; the core keeps key and count in range (the RTL word is
/// `key_bits + count_bits` wide), so truncation is the identity.
impl Word for Bucket {
    fn masked(self, _bits: usize) -> Bucket {
        self
    }
}

/// One readout record: a non-empty bucket of the frozen bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Record {
    pub row: usize,
    pub index: usize,
    pub key: u128,
    pub count: u64,
}

impl Record {
    /// The port word: key | count | index | row, low field first.
    pub fn pack(&self, cfg: &HhConfig) -> RecordWord {
        crate::common::word::pack_limbs(&[
            (self.key, cfg.key_bits),
            (self.count as u128, cfg.count_bits),
            (self.index as u128, cfg.addr_bits),
            (self.row as u128, ROW_BITS),
        ])
    }
    pub fn unpack(cfg: &HhConfig, w: &RecordWord) -> Record {
        use crate::common::word::limb_field;
        let (k, c, a) = (cfg.key_bits, cfg.count_bits, cfg.addr_bits);
        Record {
            key: limb_field(w, 0, k),
            count: limb_field(w, k, c) as u64,
            index: limb_field(w, k + c, a) as usize,
            row: limb_field(w, k + c + a, ROW_BITS) as usize,
        }
    }
}
