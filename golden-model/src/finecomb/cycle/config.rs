//! Generation-time shape of a FineComb core ([`FinecombCoreConfig`]) and its CSR map.

use super::super::{FinecombConfig, FinecombRuntime, Role};
use crate::common::config::{check_range, ConfigError};
use crate::common::csr::CsrLayout;

/// Width of the bucket-count and stash-depth CSR fields the hardware uses.
pub const RUNTIME_FIELD_BITS: usize = 16;
/// Most bucket address bits / stash slot bits a core can be generated with.
pub const MAX_BUCKET_ADDR_BITS: usize = 16;
pub const MAX_STASH_SLOT_BITS: usize = 14;

/// The FineComb core's identity registers: `FCMB`, register map 1.0.
pub const FINECOMB_IDENT: crate::common::csr::CoreIdent = crate::common::csr::CoreIdent::new(b"FCMB", 1, 0);

/// Generation-time shape of a FineComb core (the RTL's generics follow from it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FinecombCoreConfig {
    /// Role, LDA mode, number of banks; the banks' `buckets`/`stash_depth` are the CSRs' reset values.
    pub shape: FinecombConfig,
    /// IA: every bucket set of every bank has 2^IA words.
    pub bucket_addr_bits: usize,
    /// SA: every substash region has 2^SA slots (ignored without a stash).
    pub stash_slot_bits: usize,
}

impl FinecombCoreConfig {
    pub fn check(&self) -> Result<(), ConfigError> {
        self.shape.check()?;
        check_range("bucket address bits", self.bucket_addr_bits, 1, MAX_BUCKET_ADDR_BITS)?;
        check_range("stash slot bits", self.stash_slot_bits, 1, MAX_STASH_SLOT_BITS)?;
        self.fits(&self.shape)
    }
    pub fn banks(&self) -> usize {
        self.shape.banks.len()
    }
    /// A receiver with ISDs keeps a stash; a sender or an LDA core does not.
    pub fn has_stash(&self) -> bool {
        self.shape.role == Role::Receiver && self.shape.isd
    }
    /// Whether run-time settings `cfg` (bucket counts and stash depths) can run on this core.
    pub fn fits(&self, cfg: &FinecombConfig) -> Result<(), ConfigError> {
        cfg.check()?;
        if cfg.banks.len() != self.banks() || cfg.isd != self.shape.isd || cfg.role != self.shape.role {
            return Err(ConfigError(format!(
                "the core is a {:?} with {} bank(s) and isd = {}; asked for a {:?} with {} and isd = {}",
                self.shape.role,
                self.banks(),
                self.shape.isd,
                cfg.role,
                cfg.banks.len(),
                cfg.isd
            )));
        }
        for (b, bank) in cfg.banks.iter().enumerate() {
            if bank.buckets > 1 << self.bucket_addr_bits {
                return Err(ConfigError(format!(
                    "bank {b}: {} buckets do not fit the core's 2^{} table",
                    bank.buckets, self.bucket_addr_bits
                )));
            }
            if self.has_stash() && bank.stash_depth > 1 << self.stash_slot_bits {
                return Err(ConfigError(format!(
                    "bank {b}: substash depth {} does not fit the core's 2^{} slots",
                    bank.stash_depth, self.stash_slot_bits
                )));
            }
        }
        Ok(())
    }
    /// The CSR map (module docs).
    pub fn csr_layout(&self) -> CsrLayout {
        let n = self.banks();
        let mut config: Vec<(String, u32)> = (0..n).map(|b| (format!("threshold_{b}"), u32::MAX)).collect();
        config.extend(self.shape.banks.iter().enumerate().map(|(b, k)| (format!("buckets_{b}"), k.buckets as u32)));
        config.extend(
            self.shape.banks.iter().enumerate().map(|(b, k)| (format!("stash_depth_{b}"), k.stash_depth as u32)),
        );
        config.push(("flush".into(), 0));
        let status = ["packets", "markers", "records", "fifo_drops", "fifo_level", "busy"];
        let mut map = CsrLayout::new(config, status.iter().map(|s| s.to_string()).collect())
            .with_ident(FINECOMB_IDENT)
            .doc("flush", "a write closes the last capture after the last marker (acts two cycles later; see the cycle spec)")
            .doc("packets", "descriptors accepted")
            .doc("markers", "effective interval markers (a start or end that changes the counting state)")
            .doc("records", "records produced (pushed into the record FIFO or dropped)")
            .doc("fifo_drops", "records dropped because the record FIFO was full")
            .doc("fifo_level", "records waiting in the record FIFO")
            .doc("busy", "1 while the readout engine runs");
        for b in 0..n {
            map = map
                .doc(format!("threshold_{b}"), format!("bank {b}: a packet is sampled iff D[63:32] <= threshold (p = (threshold + 1) / 2^32)"))
                .doc(format!("buckets_{b}"), format!("bank {b}: buckets M per set (at most 2^IA)"))
                .doc(format!("stash_depth_{b}"), format!("bank {b}: substash depth w (0: no stash; at most 2^SA)"));
        }
        map
    }
    pub fn csr_threshold(&self, b: usize) -> u8 {
        b as u8
    }
    pub fn csr_buckets(&self, b: usize) -> u8 {
        (self.banks() + b) as u8
    }
    pub fn csr_stash_depth(&self, b: usize) -> u8 {
        (2 * self.banks() + b) as u8
    }
    pub fn csr_flush(&self) -> u8 {
        (3 * self.banks()) as u8
    }
    /// The CSR writes `(address, value)` that put run-time settings `cfg` (bucket counts, stash depths)
    /// and `rt` (thresholds) on this core, once checked to fit.
    pub fn csr_writes(&self, cfg: &FinecombConfig, rt: &FinecombRuntime) -> Result<Vec<(u8, u32)>, ConfigError> {
        self.fits(cfg)?;
        if rt.thresholds.len() != self.banks() {
            return Err(ConfigError(format!("{} sampling thresholds for {} banks", rt.thresholds.len(), self.banks())));
        }
        let mut w: Vec<(u8, u32)> =
            rt.thresholds.iter().enumerate().map(|(b, &t)| (self.csr_threshold(b), t)).collect();
        for (b, bank) in cfg.banks.iter().enumerate() {
            w.push((self.csr_buckets(b), bank.buckets as u32));
            w.push((self.csr_stash_depth(b), bank.stash_depth as u32));
        }
        Ok(w)
    }
}
