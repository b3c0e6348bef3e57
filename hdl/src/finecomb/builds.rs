//! The FineComb core's builds (see [`crate::registry`]): each declared once by [`finecomb_core!`], which
//! builds the [`FinecombCoreConfig`] and the `FinecombCore` type from the same independent parameters
//! (role, ISD, banks, bucket and stash address bits); the generics (`SP = SA + 1`, `CW = 32·(3B + 1)`)
//! are computed by golden's `const fn`s.
//!
//! Bucket counts and stash depths are run-time CSRs, so the two large builds (2^13 buckets per set and
//! bank, 2^10 stash slots) run every experiment of `netmeas run finecomb --engine rtl`; co-simulation also
//! runs them with small run-time M and w (same-bucket hazards). A receiver with every w_b = 0 behaves as a
//! sender; `finecomb_tx` is the sender build (no stash memories) on its own.

use super::front::FcFrontTop;
use super::record::FcRecord;
use crate::custom::{build_source, CoreParams, Custom};
use crate::registry::{Build, MemoryNeed};
use golden::finecomb::cycle::FinecombCoreConfig;
use golden::finecomb::sizes::FRONT_TOP_INDEX_BITS;
use golden::finecomb::{BankConfig, FinecombConfig, Role};
use serde_json::json;

/// `(configuration, constructor)` of a FineComb core: role, ISD, `banks` copies of `(buckets,
/// stash_depth)` (the CSRs' reset values), IA and SA once; the RTL's generics derived from them. Exported
/// for the generator crates of `netmeas generate` ([`crate::custom`]).
#[macro_export]
macro_rules! finecomb_core {
    (role: $role:ident, isd: $isd:literal, banks: $nb:literal x ($m:literal, $w:literal), ia: $ia:literal, sa: $sa:literal) => {{
        use $crate::golden::finecomb::{sizes, Role};
        let cfg = $crate::finecomb::builds::FinecombParams {
            role: Role::$role,
            isd: $isd,
            banks: $nb,
            buckets: $m,
            stash_depth: $w,
            bucket_addr_bits: $ia,
            stash_slot_bits: $sa,
        }
        .config();
        let c = cfg.clone();
        let make = move || {
            $crate::finecomb::FinecombCore::<$ia, { sizes::stash_addr_bits($sa) }, { sizes::csr_config_bits($nb) }>::new(&c)
        };
        (cfg, make)
    }};
}

/// The generation parameters of a FineComb core (`netmeas generate finecomb --set name=value`,
/// [`crate::custom`]): the independent parameters of [`finecomb_core!`], every bank alike.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinecombParams {
    pub role: Role,
    pub isd: bool,
    pub banks: usize,
    /// The bucket count M and the stash depth w of every bank after reset (both run-time CSRs).
    pub buckets: usize,
    pub stash_depth: usize,
    pub bucket_addr_bits: usize,
    pub stash_slot_bits: usize,
}

impl FinecombParams {
    /// The core configuration of these parameters.
    pub fn config(&self) -> FinecombCoreConfig {
        let bank = BankConfig { buckets: self.buckets, stash_depth: self.stash_depth };
        FinecombCoreConfig {
            shape: FinecombConfig { role: self.role, banks: vec![bank; self.banks], isd: self.isd },
            bucket_addr_bits: self.bucket_addr_bits,
            stash_slot_bits: self.stash_slot_bits,
        }
    }
}

/// `netmeas generate finecomb --set name=value`.
pub const PARAMS: Custom = Custom::of::<FinecombParams>();

impl CoreParams for FinecombParams {
    type Config = FinecombCoreConfig;
    const DOCS: &'static [(&'static str, &'static str)] = &[
        ("role", "Sender or Receiver (a receiver with ISDs keeps a stash)"),
        ("isd", "inter-sample delays (true) or LDA mode (false: no ISD tables, no stash)"),
        ("banks", "banks, each its own sampling probability (1..=8)"),
        ("buckets", "buckets M of every bank after reset (1..=2^bucket_addr_bits; a run-time CSR)"),
        ("stash_depth", "stash depth w of every bank after reset (0..=2^stash_slot_bits; a run-time CSR)"),
        ("bucket_addr_bits", "IA: 2^IA words per bucket set and bank (1..=16)"),
        ("stash_slot_bits", "SA: 2^SA slots per substash region (1..=14; ignored without a stash)"),
    ];
    fn of(c: &FinecombCoreConfig) -> Result<Self, String> {
        let b = c.shape.banks.first().ok_or("a FineComb configuration without banks")?;
        if c.shape.banks.iter().any(|x| x != b) {
            return Err("the base configuration's banks differ; parameters describe banks alike".into());
        }
        Ok(FinecombParams {
            role: c.shape.role,
            isd: c.shape.isd,
            banks: c.banks(),
            buckets: b.buckets,
            stash_depth: b.stash_depth,
            bucket_addr_bits: c.bucket_addr_bits,
            stash_slot_bits: c.stash_slot_bits,
        })
    }
    fn check(&self) -> Result<(), String> {
        let cfg = self.config();
        if self.stash_depth > 0 && !cfg.has_stash() {
            return Err(format!(
                "stash_depth = {} needs a stash, which only a receiver with inter-sample delays keeps (role = \
                 Receiver, isd = true); this configuration has none: leave stash_depth at 0",
                self.stash_depth
            ));
        }
        cfg.check().map_err(|e| e.to_string())
    }
    fn source(&self, name: &str) -> String {
        let (p, b) = (self, self.banks);
        let invocation = format!(
            "finecomb_core!(role: {:?}, isd: {}, banks: {b} x ({}, {}), ia: {}, sa: {})",
            p.role, p.isd, p.buckets, p.stash_depth, p.bucket_addr_bits, p.stash_slot_bits
        );
        build_source("finecomb", &invocation, name)
    }
}

/// What a FineComb core stores: per bank two bucket sets of 2^IA words (a 96-bit `TS | C` table and, unless
/// LDA, a 64-bit ISD table each), with a stash two ring and two post regions of 2^SA entries of 112 bits,
/// and the record FIFO.
pub fn memories(cfg: &FinecombCoreConfig) -> Vec<MemoryNeed> {
    use golden::finecomb::cycle::{FIFO_BITS, RECORD_BITS, STASH_WORD_BITS, TSC_WORD_BITS};
    let words = 1u64 << cfg.bucket_addr_bits;
    let mut m = vec![];
    for b in 0..cfg.banks() {
        for s in 0..2 {
            m.push(MemoryNeed::new(format!("bank{b}_set{s}_tsc"), words, TSC_WORD_BITS as u64));
            if cfg.shape.isd {
                m.push(MemoryNeed::new(format!("bank{b}_set{s}_isd"), words, 64));
            }
        }
        if cfg.has_stash() {
            m.push(MemoryNeed::new(format!("bank{b}_ring"), 2u64 << cfg.stash_slot_bits, STASH_WORD_BITS as u64));
            m.push(MemoryNeed::new(format!("bank{b}_post"), 2u64 << cfg.stash_slot_bits, STASH_WORD_BITS as u64));
        }
    }
    m.push(MemoryNeed::new("record_fifo", 1u64 << FIFO_BITS, RECORD_BITS as u64));
    m
}

/// A build of `cfg` with its constructor `make` (also the generator crates' of [`crate::custom`]).
pub fn build<U: rust_hdl::prelude::Block>(
    name: &str,
    cfg: &FinecombCoreConfig,
    make: impl Fn() -> Result<U, golden::common::ConfigError> + Send + Sync + 'static,
) -> Build {
    Build::new(name, description(cfg), cfg, make).csr(cfg.csr_layout()).resources(true, memories(cfg))
}

fn description(cfg: &FinecombCoreConfig) -> String {
    format!(
        "FineComb core: {:?}, {} bank(s) of up to 2^{} buckets, {}",
        cfg.shape.role,
        cfg.banks(),
        cfg.bucket_addr_bits,
        if !cfg.shape.isd {
            "LDA mode (no ISD)".to_string()
        } else if cfg.has_stash() {
            format!("stash of up to 2^{} entries per substash", cfg.stash_slot_bits)
        } else {
            "no stash".to_string()
        }
    )
}

/// The co-simulated FineComb builds with their constructors.
fn declared() -> Vec<(&'static str, FinecombCoreConfig, Build)> {
    let mut out = Vec::new();
    let mut add = |name: &'static str, cfg: FinecombCoreConfig, b: Build| out.push((name, cfg, b));
    let (cfg, make) = finecomb_core!(role: Sender, isd: true, banks: 1 x (61, 0), ia: 6, sa: 1);
    add("finecomb_tx", cfg.clone(), build("finecomb_tx", &cfg, make).synth("tx", true, memories(&cfg)));
    let (cfg, make) = finecomb_core!(role: Receiver, isd: true, banks: 1 x (61, 5), ia: 6, sa: 3);
    add("finecomb_rx", cfg.clone(), build("finecomb_rx", &cfg, make).synth("rx", true, memories(&cfg)));
    let (cfg, make) = finecomb_core!(role: Receiver, isd: true, banks: 4 x (1000, 50), ia: 13, sa: 10);
    add("finecomb", cfg.clone(), build("finecomb", &cfg, make));
    let (cfg, make) = finecomb_core!(role: Receiver, isd: false, banks: 4 x (1500, 0), ia: 13, sa: 1);
    add("finecomb_lda", cfg.clone(), build("finecomb_lda", &cfg, make));
    out
}

/// The co-simulated FineComb builds as `(name, configuration)`.
pub fn configs() -> Vec<(&'static str, FinecombCoreConfig)> {
    declared().into_iter().map(|(n, c, _)| (n, c)).collect()
}

/// Every FineComb build: the co-simulated ones (the sender and the one-bank receiver also synthesized), and
/// the §III-E four-bank receiver at a size that fits the LFE5U-85F (synthesized only): 2^10 buckets per bank
/// and set, substashes of up to 2^8 entries (the `finecomb` experiment build, 2^13 buckets per bank, needs
/// 10.5 Mbit of tables, three times the device's block RAM).
pub fn builds() -> Result<Vec<Build>, String> {
    let mut out: Vec<Build> = declared().into_iter().map(|(_, _, b)| b).collect();
    let (cfg, make) = finecomb_core!(role: Receiver, isd: true, banks: 4 x (1000, 200), ia: 10, sa: 8);
    // The stages with a co-simulation top of their own.
    out.push(Build::new(
        "finecomb_front",
        "the FineComb core's front end on its own (handshake, digest, one bank's sampler and bucket index)",
        json!({"index_bits": FRONT_TOP_INDEX_BITS}),
        || Ok(FcFrontTop::<FRONT_TOP_INDEX_BITS>::new()?),
    ));
    out.push(Build::new(
        "finecomb_record",
        "the FineComb core's record stage on its own (E1/E2, record packing, record FIFO)",
        json!({"fifo_bits": golden::finecomb::cycle::FIFO_BITS, "record_bits": golden::finecomb::cycle::RECORD_BITS}),
        || Ok(FcRecord::new()),
    ));
    out.push(
        build("", &cfg, make)
            .with_description("FineComb receiver: 4 banks of up to 2^10 buckets, substashes of up to 2^8")
            .synth_only("finecomb", "rx4_a10", true, memories(&cfg)),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The testbench reads a build's configuration back from the manifest's parameters.
    #[test]
    fn manifest_parameters_are_the_configuration() {
        crate::registry::check_manifest_configs("finecomb", &super::configs()).unwrap();
    }
}
