//! The MAPLE core's builds (see [`crate::registry`]): each declared once, its independent parameters written
//! once — [`maple_core!`] builds both the [`MapleHwConfig`] and the `MapleCore` type.

use super::Mutant;
use crate::custom::{build_source, CoreParams, Custom};
use crate::registry::{Build, MemoryNeed};
use golden::maple::cycle::{MapleHwConfig, COUNTER_BITS};
use golden::maple::{MapleConfig, SvbfLayout};

/// `(configuration, constructor)` of a MAPLE core: `hashes` segments of `2^addr_bits` words of `2^word_log2`
/// bits, `centers` held.
#[macro_export]
macro_rules! maple_core {
    (key_bits: $k:literal, hashes: $h:literal, addr_bits: $a:literal, word_log2: $lw:literal, centers: $c:literal,
     sample_fifo_bits: $s:literal, record_fifo_bits: $f:literal, registered_ram: $r:literal,
     mutant: $m:expr) => {{
        use $crate::golden::maple::cycle::sizes;
        let cfg = $crate::maple::builds::MapleParams {
            key_bits: $k,
            hashes: $h,
            addr_bits: $a,
            word_log2: $lw,
            centers: $c,
            sample_fifo_bits: $s,
            record_fifo_bits: $f,
            registered_ram: $r,
        }
        .config();
        let c = cfg.clone();
        let make = move || {
            $crate::maple::MapleCore::<
                $k,
                $h,
                $a,
                $lw,
                { $a + $lw },
                { 1 << $lw },
                { $h * $a },
                { $h << $lw },
                { sizes::payload_bits($h, $lw) },
                { sizes::record_bits($a) },
                $s,
                { $s + 1 },
                $f,
                { $f + 1 },
                { sizes::window_bits($c, $lw) },
                { sizes::center_addr_bits($c) },
            >::with_mutant(&c, $m)
        };
        (cfg, make)
    }};
}

/// The generation parameters of a MAPLE core (`netmeas generate maple --set name=value`, [`crate::custom`]):
/// the independent parameters of [`maple_core!`].
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapleParams {
    pub key_bits: usize,
    pub hashes: usize,
    pub addr_bits: usize,
    pub word_log2: usize,
    pub centers: usize,
    pub sample_fifo_bits: usize,
    pub record_fifo_bits: usize,
    pub registered_ram: bool,
}

impl MapleParams {
    /// The core configuration: `hashes` segments of `2^addr_bits` words of `2^word_log2` bits, partitioned.
    pub fn config(&self) -> MapleHwConfig {
        let (h, a, lw) = (self.hashes, self.addr_bits, self.word_log2);
        MapleHwConfig {
            store: MapleConfig {
                key_bits: self.key_bits,
                hashes: h,
                svbf_bits: h.checked_shl((a + lw) as u32).unwrap_or(0),
                layout: SvbfLayout::Partitioned,
                word_bits: 1usize.checked_shl(lw as u32).unwrap_or(0),
                sample_fifo_bits: self.sample_fifo_bits,
            },
            max_centers: self.centers,
            record_fifo_bits: self.record_fifo_bits,
            registered_ram: self.registered_ram,
        }
    }
}

/// `netmeas generate maple --set name=value`.
pub const PARAMS: Custom = Custom::of::<MapleParams>();

impl CoreParams for MapleParams {
    type Config = MapleHwConfig;
    const DOCS: &'static [(&'static str, &'static str)] = &[
        ("key_bits", "key width (8..=128)"),
        ("hashes", "hash functions h = SVBF segments per bank (1..=16)"),
        ("addr_bits", "log2 of the words per segment (at least 64 bits per segment; 2^addr_bits >= centers)"),
        ("word_log2", "log2 of the word width w of the burst reads (3..=6: 8..=64 bits)"),
        ("centers", "delay centers the core holds (1..=64)"),
        ("sample_fifo_bits", "log2 of the sample FIFO depth (2..=12)"),
        ("record_fifo_bits", "log2 of the flush record FIFO depth (3..=12)"),
        ("registered_ram", "registered block-RAM reads: two cycles deeper, for large tables (true or false)"),
    ];
    fn of(c: &MapleHwConfig) -> Result<Self, String> {
        Ok(MapleParams {
            key_bits: c.store.key_bits,
            hashes: c.store.hashes,
            addr_bits: c.addr_bits(),
            word_log2: c.word_log2(),
            centers: c.max_centers,
            sample_fifo_bits: c.store.sample_fifo_bits,
            record_fifo_bits: c.record_fifo_bits,
            registered_ram: c.registered_ram,
        })
    }
    fn check(&self) -> Result<(), String> {
        golden::common::config::check_range("addr_bits (log2 words per segment)", self.addr_bits, 1, 16)
            .and_then(|_| golden::common::config::check_range("word_log2", self.word_log2, 3, 6))
            // (golden names it `max_centers`: checked here under the parameter's name)
            .and_then(|_| golden::common::config::check_range("centers", self.centers, 1, golden::maple::MAX_CENTERS))
            .and_then(|_| self.config().check())
            .map_err(|e| e.to_string())
    }
    fn source(&self, name: &str) -> String {
        let c = self;
        let invocation = format!(
            "maple_core!(key_bits: {}, hashes: {}, addr_bits: {}, word_log2: {}, centers: {}, sample_fifo_bits: {}, \
             record_fifo_bits: {}, registered_ram: {}, mutant: hdl::maple::Mutant::None)",
            c.key_bits,
            c.hashes,
            c.addr_bits,
            c.word_log2,
            c.centers,
            c.sample_fifo_bits,
            c.record_fifo_bits,
            c.registered_ram
        );
        build_source("maple", &invocation, name)
    }
}

/// What a configuration stores: per bank `h` segment RAMs of `w`-bit words and the counter RAM; the FIFOs.
pub fn memories(cfg: &MapleHwConfig) -> Vec<MemoryNeed> {
    let words = 1u64 << cfg.addr_bits();
    let mut m = Vec::new();
    for b in 0..2 {
        for j in 0..cfg.store.hashes {
            m.push(MemoryNeed::new(format!("bank{b}_segment{j}"), words, cfg.store.word_bits as u64));
        }
        m.push(MemoryNeed::new(format!("bank{b}_counters"), cfg.max_centers as u64, COUNTER_BITS as u64));
    }
    m.push(MemoryNeed::new("sample_fifo", 1 << cfg.store.sample_fifo_bits, 32));
    m.push(MemoryNeed::new("record_fifo", 1 << cfg.record_fifo_bits, cfg.record_bits() as u64));
    m
}

/// A build of `cfg` with its constructor `make` (also the generator crates' of [`crate::custom`]).
pub fn build<U: rust_hdl::prelude::Block>(
    name: &str,
    cfg: &MapleHwConfig,
    make: impl Fn() -> Result<U, golden::common::ConfigError> + Send + Sync + 'static,
) -> Build {
    let desc = format!(
        "MAPLE store (inserts, flush, lookups): h = {} segments of 2^{} {}-bit words, {} centers, {}-bit keys, two \
         banks, {} block RAM",
        cfg.store.hashes,
        cfg.addr_bits(),
        cfg.store.word_bits,
        cfg.max_centers,
        cfg.store.key_bits,
        cfg.ram_timing(cfg.addr_bits(), cfg.store.word_bits).tag()
    );
    Build::new(name, desc, cfg, make)
        .csr(cfg.csr_layout())
        .resources(true, memories(cfg))
        .latency(golden::maple::cycle::latency(cfg))
}

/// The test-only mutants of `maple_k8`: build name, mistake, what it is.
pub const MUTANTS: [(&str, Mutant, &str); 6] = [
    ("maple_k8_mut_offset", Mutant::NoOffset, "the center offset i dropped from (b_j + i) mod m_seg"),
    ("maple_k8_mut_segment", Mutant::WrongSegment, "hash j's bit set in segment j + 1"),
    ("maple_k8_mut_fwd", Mutant::Row0NoDist2, "segment row 0 without distance-2 forwarding"),
    ("maple_k8_mut_ties", Mutant::TiesHigh, "a latency midway between two centers matched to the upper one"),
    ("maple_k8_mut_burst", Mutant::BurstShort, "the lookup's burst one word short (⌈k/w⌉ words)"),
    ("maple_k8_mut_and", Mutant::AndSkip0, "the lookup's AND without segment 0"),
];

fn declared() -> Vec<(&'static str, MapleHwConfig, Build)> {
    let mut out = Vec::new();
    // k ≤ 8, h = 3 segments of 64 32-bit words, 64-bit keys.
    let (cfg, make) = maple_core!(key_bits: 64, hashes: 3, addr_bits: 6, word_log2: 5, centers: 8,
                                  sample_fifo_bits: 3, record_fifo_bits: 3, registered_ram: false,
                                  mutant: Mutant::None);
    // Also synthesized (`maple k8`), beside its AXI flavour (`axi maple_k8`): the wrapper's cost on MAPLE.
    let synth = memories(&cfg);
    out.push(("maple_k8", cfg.clone(), build("maple_k8", &cfg, make).synth("k8", true, synth)));
    // k ≤ 64 (the paper's k = 50), h = 4 segments of 128 words, 128-bit keys.
    let (cfg, make) = maple_core!(key_bits: 128, hashes: 4, addr_bits: 7, word_log2: 5, centers: 64,
                                  sample_fifo_bits: 4, record_fifo_bits: 4, registered_ram: true,
                                  mutant: Mutant::None);
    out.push(("maple_k64", cfg.clone(), build("maple_k64", &cfg, make)));
    for (name, mutant, what) in MUTANTS {
        let (cfg, make) = maple_core!(key_bits: 64, hashes: 3, addr_bits: 6, word_log2: 5, centers: 8,
                                      sample_fifo_bits: 3, record_fifo_bits: 3, registered_ram: false,
                                      mutant: mutant);
        let b = Build::new(name, format!("maple_k8 with a deliberate mistake (test-only): {what}"), &cfg, make);
        out.push((name, cfg.clone(), b.csr(cfg.csr_layout()).test_only()));
    }
    out
}

/// The co-simulated builds as `(name, configuration)`.
pub fn configs() -> Vec<(&'static str, MapleHwConfig)> {
    declared().into_iter().map(|(n, c, _)| (n, c)).collect()
}

/// Every MAPLE build: the co-simulated ones and two synthesis sizes (h = 4 segments of 2^11 words, k ≤ 64
/// and k ≤ 16).
pub fn builds() -> Result<Vec<Build>, String> {
    let mut out: Vec<Build> = declared().into_iter().map(|(_, _, b)| b).collect();
    let (cfg, make) = maple_core!(key_bits: 128, hashes: 4, addr_bits: 11, word_log2: 5, centers: 64,
                                  sample_fifo_bits: 8, record_fifo_bits: 4, registered_ram: true,
                                  mutant: Mutant::None);
    out.push(build("", &cfg, make).synth_only("maple", "h4_a11_k64", true, memories(&cfg)).ecp5_bram());
    // The same store with k ≤ 16 centers: the center match and its registers a quarter of the size.
    let (cfg, make) = maple_core!(key_bits: 128, hashes: 4, addr_bits: 11, word_log2: 5, centers: 16,
                                  sample_fifo_bits: 8, record_fifo_bits: 4, registered_ram: true,
                                  mutant: Mutant::None);
    out.push(build("", &cfg, make).synth_only("maple", "h4_a11_k16", true, memories(&cfg)).ecp5_bram());
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn manifest_parameters_are_the_configuration() {
        crate::registry::check_manifest_configs("maple", &super::configs()).unwrap();
    }
}
