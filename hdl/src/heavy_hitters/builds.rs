//! The heavy-hitter core's builds (see [`crate::registry`]): each declared once, its configuration's
//! independent parameters written once — [`hh_core!`] builds both the [`HhConfig`] and the `HhCore` type,
//! the derived generics computed by golden's `const fn`s ([`golden::heavy_hitters::sizes`]).

use super::Mutant;
use crate::custom::{build_source, CoreParams, Custom};
use crate::registry::{Build, MemoryNeed};
use golden::heavy_hitters::HhConfig;

/// `(configuration, constructor)` of a heavy-hitter core from its independent parameters.
#[macro_export]
macro_rules! hh_core {
    (rows: $d:literal, addr_bits: $a:literal, key_bits: $k:literal, count_bits: $c:literal,
     record_fifo_bits: $f:literal) => {
        $crate::hh_core!(rows: $d, addr_bits: $a, key_bits: $k, count_bits: $c, record_fifo_bits: $f,
                 mutant: $crate::heavy_hitters::Mutant::None)
    };
    (rows: $d:literal, addr_bits: $a:literal, key_bits: $k:literal, count_bits: $c:literal,
     record_fifo_bits: $f:literal, mutant: $m:expr) => {{
        use $crate::golden::heavy_hitters::{sizes, HhConfig, ROW_BITS};
        let cfg = HhConfig { rows: $d, addr_bits: $a, key_bits: $k, count_bits: $c, record_fifo_bits: $f };
        let c = cfg.clone();
        let make = move || {
            $crate::heavy_hitters::HhCore::<
                $k,
                $c,
                $a,
                $d,
                { sizes::bucket_bits($k, $c) },
                { sizes::hash_bits($d, $a) },
                { $d * sizes::bucket_bits($k, $c) },
                { $k + 1 + ROW_BITS },
                { sizes::record_bits($k, $c, $a) },
                $f,
                { $f + 1 },
            >::with_mutant(&c, $m)
        };
        (cfg, make)
    }};
}

/// What a configuration stores in RAM: two banks of `rows` separate RAMs of `2^addr_bits` buckets each, the
/// record FIFO (the reciprocal ROM, 2^7 words of 32 bits, is read in LUTs: `threshold.rs`).
pub fn memories(cfg: &HhConfig) -> Vec<MemoryNeed> {
    let per_row = cfg.buckets_per_row() as u64;
    let mut m: Vec<MemoryNeed> = (0..2)
        .flat_map(|b| (0..cfg.rows).map(move |r| (b, r)))
        .map(|(b, r)| MemoryNeed::new(format!("bank{b}_row{r}"), per_row, cfg.bucket_bits() as u64))
        .collect();
    m.push(MemoryNeed::new("record_fifo", 1 << cfg.record_fifo_bits, cfg.record_bits() as u64));
    m
}

/// `netmeas generate heavy_hitters --set name=value` ([`crate::custom`]): the parameters are [`HhConfig`]'s.
pub const PARAMS: Custom = Custom::of::<HhConfig>();

impl CoreParams for HhConfig {
    crate::params_are_the_config!(HhConfig);
    const DOCS: &'static [(&'static str, &'static str)] = &[
        ("rows", "rows d (1..=4): d-way RAP, PRECISION"),
        ("addr_bits", "log2 of the buckets per row (2..=16)"),
        ("key_bits", "key width (1..=128: 104 for an IPv4 5-tuple)"),
        ("count_bits", "counter width (4..=32; counts saturate)"),
        ("record_fifo_bits", "log2 of the record FIFO depth (2..=10)"),
    ];
    fn source(&self, name: &str) -> String {
        let c = self;
        let invocation = format!(
            "hh_core!(rows: {}, addr_bits: {}, key_bits: {}, count_bits: {}, record_fifo_bits: {})",
            c.rows, c.addr_bits, c.key_bits, c.count_bits, c.record_fifo_bits
        );
        build_source("heavy_hitters", &invocation, name)
    }
}

/// A build of `cfg` with its constructor `make` (also the generator crates' of [`crate::custom`]).
pub fn build<U: rust_hdl::prelude::Block>(
    name: &str,
    cfg: &HhConfig,
    make: impl Fn() -> Result<U, golden::common::ConfigError> + Send + Sync + 'static,
) -> Build {
    let desc = format!(
        "heavy-hitter core: {} row(s) of 2^{} buckets, {}-bit keys, {}-bit counts, two banks",
        cfg.rows, cfg.addr_bits, cfg.key_bits, cfg.count_bits
    );
    Build::new(name, desc, cfg, make)
        .csr(cfg.csr_layout())
        .resources(true, memories(cfg))
        .latency(golden::heavy_hitters::cycle::latency(cfg))
}

/// The co-simulated builds: `(name, configuration, build)`.
fn declared() -> Vec<(&'static str, HhConfig, Build)> {
    let mut out = Vec::new();
    // One row (d-way RAP with d = 1 is a direct-mapped table), 64 buckets, IPv4 5-tuples.
    let (cfg, make) = hh_core!(rows: 1, addr_bits: 6, key_bits: 104, count_bits: 32, record_fifo_bits: 4);
    out.push(("hh_d1", cfg.clone(), build("hh_d1", &cfg, make)));
    // Two rows of 32 buckets: PRECISION's Tofino shape at a size with collisions everywhere, and the default
    // of `netmeas run heavy-hitters` (64 buckets in two rows), so that `--engine rtl` runs it as it is.
    let (cfg, make) = hh_core!(rows: 2, addr_bits: 5, key_bits: 104, count_bits: 32, record_fifo_bits: 4);
    let synth = memories(&cfg);
    out.push(("hh_d2", cfg.clone(), build("hh_d2", &cfg, make).synth("d2", true, synth)));
    // Four rows of 32 buckets, the widest keys (128 bits), 6-bit counts (they saturate at 63), the smallest
    // FIFO.
    let (cfg, make) = hh_core!(rows: 4, addr_bits: 5, key_bits: 128, count_bits: 6, record_fifo_bits: 3);
    let synth = memories(&cfg);
    out.push(("hh_d4", cfg.clone(), build("hh_d4", &cfg, make).synth("d4", true, synth)));
    // The mutants, each a test-only copy of hh_d2 that the co-simulation must catch.
    for (name, mutant, what) in MUTANTS {
        let (cfg, make) = hh_core!(rows: 2, addr_bits: 5, key_bits: 104, count_bits: 32, record_fifo_bits: 4,
                                   mutant: mutant);
        let b = Build::new(name, format!("hh_d2 with a deliberate mistake (test-only): {what}"), &cfg, make);
        out.push((name, cfg.clone(), b.csr(cfg.csr_layout()).test_only()));
    }
    out
}

/// The test-only mutants of `hh_d2`: build name, mistake, what it is.
pub const MUTANTS: [(&str, Mutant, &str); 3] = [
    ("hh_d2_mut_admit", Mutant::AdmitLe, "admission at count <= T (probability off by one)"),
    ("hh_d2_mut_ties", Mutant::TiesHigh, "minimum ties to the highest row"),
    ("hh_d2_mut_fwd", Mutant::Row0NoDist2, "row 0 without distance-2 forwarding"),
];

/// The co-simulated builds as `(name, configuration)`.
pub fn configs() -> Vec<(&'static str, HhConfig)> {
    declared().into_iter().map(|(n, c, _)| (n, c)).collect()
}

/// Every heavy-hitter build: the co-simulated ones and the synthesis sizes (d = 2 × 2^12 buckets, the
/// issue's target; d = 4 × 2^11, the most four rows of 136-bit buckets in two banks that fit beside the
/// rest).
pub fn builds() -> Result<Vec<Build>, String> {
    let mut out: Vec<Build> = declared().into_iter().map(|(_, _, b)| b).collect();
    let (cfg, make) = hh_core!(rows: 2, addr_bits: 12, key_bits: 104, count_bits: 32, record_fifo_bits: 4);
    out.push(build("", &cfg, make).synth_only("hh", "d2_a12", true, memories(&cfg)));
    let (cfg, make) = hh_core!(rows: 4, addr_bits: 11, key_bits: 104, count_bits: 32, record_fifo_bits: 4);
    out.push(build("", &cfg, make).synth_only("hh", "d4_a11", true, memories(&cfg)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The testbench reads a build's configuration back from the manifest's parameters.
    #[test]
    fn manifest_parameters_are_the_configuration() {
        crate::registry::check_manifest_configs("heavy_hitters", &super::configs()).unwrap();
    }
}
