//! The reordering core's builds (see [`crate::registry`]): each declared once, its configuration's
//! independent parameters written once — [`reorder_core!`] builds both the [`ReorderConfig`] and the
//! `ReorderCore` type, the derived generics computed by golden's `const fn`s ([`golden::reordering::sizes`]).

use super::Mutant;
use crate::custom::{build_source, CoreParams, Custom};
use crate::registry::{Build, MemoryNeed};
use golden::reordering::hybrid_cycle::HybridConfig;
use golden::reordering::{sizes, ReorderConfig};

/// `(configuration, constructor)` of a reordering core from its independent parameters.
#[macro_export]
macro_rules! reorder_core {
    (addr_bits: $a:literal, fp_bits: $f:literal, ts_bits: $t:literal, ts_shift: $s:literal, n_bits: $n:literal,
     o_bits: $o:literal, report_fifo_bits: $q:literal) => {
        $crate::reorder_core!(addr_bits: $a, fp_bits: $f, ts_bits: $t, ts_shift: $s, n_bits: $n, o_bits: $o,
                      report_fifo_bits: $q, mutant: $crate::reordering::Mutant::None)
    };
    (addr_bits: $a:literal, fp_bits: $f:literal, ts_bits: $t:literal, ts_shift: $s:literal, n_bits: $n:literal,
     o_bits: $o:literal, report_fifo_bits: $q:literal, mutant: $m:expr) => {{
        use $crate::golden::reordering::{sizes, ReorderConfig};
        let cfg = ReorderConfig {
            addr_bits: $a,
            fp_bits: $f,
            ts_bits: $t,
            ts_shift: $s,
            n_bits: $n,
            o_bits: $o,
            report_fifo_bits: $q,
        };
        let c = cfg.clone();
        let make = move || {
            $crate::reordering::ReorderCore::<
                $a,
                $f,
                $t,
                $n,
                $o,
                { sizes::bucket_bits($f, $n, $o, $t) },
                { sizes::payload_bits($f, $t) },
                { sizes::report_bits($n, $o) },
                $q,
                { $q + 1 },
            >::with_mutant(&c, $m)
        };
        (cfg, make)
    }};
}

/// `(configuration, constructor)` of a hybrid core: flow sampling's independent parameters, then the
/// heavy-hitter table's (the side table follows: `golden::reordering::hybrid::side_config`).
macro_rules! hybrid_core {
    (addr_bits: $a:literal, fp_bits: $f:literal, ts_bits: $t:literal, ts_shift: $s:literal, n_bits: $n:literal,
     o_bits: $o:literal, report_fifo_bits: $q:literal; rows: $d:literal, addr_bits: $ha:literal,
     count_bits: $c:literal, record_fifo_bits: $hf:literal) => {{
        use golden::heavy_hitters::{sizes as hs, HhConfig, ROW_BITS};
        let sampling = ReorderConfig {
            addr_bits: $a,
            fp_bits: $f,
            ts_bits: $t,
            ts_shift: $s,
            n_bits: $n,
            o_bits: $o,
            report_fifo_bits: $q,
        };
        let hh = HhConfig { rows: $d, addr_bits: $ha, key_bits: 104, count_bits: $c, record_fifo_bits: $hf };
        let cfg = HybridConfig { sampling, hh };
        let c = cfg.clone();
        let make = move || {
            $crate::reordering::hybrid::HybridCore::<
                $c,
                $ha,
                $d,
                { hs::bucket_bits(104, $c) },
                { hs::hash_bits($d, $ha) },
                { $d * hs::bucket_bits(104, $c) },
                { 104 + 1 + ROW_BITS },
                { hs::record_bits(104, $c, $ha) },
                $hf,
                { $hf + 1 },
                $a,
                { $ha + ($d as usize).next_power_of_two().trailing_zeros() as usize },
                $f,
                $t,
                $n,
                $o,
                { sizes::bucket_bits($f, $n, $o, $t) },
                { sizes::payload_bits($f, $t) },
                { sizes::report_bits($n, $o) },
                $q,
                { $q + 1 },
            >::new(&c)
        };
        (cfg, make)
    }};
}

/// What a hybrid configuration stores: the heavy-hitter core's memories, the side table's, flow sampling's.
pub fn hybrid_memories(cfg: &HybridConfig) -> Vec<MemoryNeed> {
    let named = |prefix: &str, m: Vec<MemoryNeed>| {
        m.into_iter()
            .map(move |n| MemoryNeed::new(format!("{prefix}_{}", n.name), n.entries, n.width))
            .collect::<Vec<_>>()
    };
    let mut m = named("hh", crate::heavy_hitters::builds::memories(&cfg.hh));
    m.extend(named("side", memories(&cfg.side())));
    m.extend(named("smp", memories(&cfg.sampling)));
    m
}

fn hybrid_build<U: rust_hdl::prelude::Block>(
    name: &str,
    cfg: &HybridConfig,
    make: impl Fn() -> Result<U, golden::common::ConfigError> + Send + Sync + 'static,
) -> Build {
    let desc = format!(
        "hybrid reordering detector: heavy hitters {} x 2^{} (side table 2^{} buckets) + flow sampling 2^{} \
         buckets, {}/{}-bit n/o",
        cfg.hh.rows,
        cfg.hh.addr_bits,
        cfg.side().addr_bits,
        cfg.sampling.addr_bits,
        cfg.sampling.n_bits,
        cfg.sampling.o_bits
    );
    let latency = golden::reordering::hybrid_cycle::latency(cfg);
    Build::new(name, desc, cfg, make)
        .csr_port("smp_", cfg.sampling.csr_layout())
        .csr_port("side_", cfg.side().csr_layout())
        .csr_port("hh_", cfg.hh.csr_layout())
        .resources(true, hybrid_memories(cfg))
        .latency(latency)
}

/// The co-simulated hybrid builds: `(name, configuration, build)` — `ro_hy4`: ro_a4's narrow widths, a
/// 2 × 4 heavy-hitter table with 6-bit counts (admissions are frequent, counts saturate); `ro_hy`: the
/// experiments' widths, 2 × 32 heavy hitters and 64 sampled buckets (`--memory 128`).
fn hybrid_declared() -> Vec<(&'static str, HybridConfig, Build)> {
    let mut out = Vec::new();
    let (cfg, make) = hybrid_core!(addr_bits: 4, fp_bits: 8, ts_bits: 10, ts_shift: 4, n_bits: 6, o_bits: 4,
                                   report_fifo_bits: 3; rows: 2, addr_bits: 2, count_bits: 6, record_fifo_bits: 3);
    out.push(("ro_hy4", cfg.clone(), hybrid_build("ro_hy4", &cfg, make)));
    let (cfg, make) = hybrid_core!(addr_bits: 6, fp_bits: 16, ts_bits: 16, ts_shift: 16, n_bits: 16, o_bits: 16,
                                   report_fifo_bits: 4; rows: 2, addr_bits: 5, count_bits: 32, record_fifo_bits: 4);
    let synth = hybrid_memories(&cfg);
    out.push(("ro_hy", cfg.clone(), hybrid_build("ro_hy", &cfg, make).synth("hy", true, synth)));
    out
}

/// The co-simulated hybrid builds as `(name, configuration)`.
pub fn hybrid_configs() -> Vec<(&'static str, HybridConfig)> {
    hybrid_declared().into_iter().map(|(n, c, _)| (n, c)).collect()
}

/// What a configuration stores: two banks of `2^addr_bits` buckets, the eviction and flush FIFOs.
pub fn memories(cfg: &ReorderConfig) -> Vec<MemoryNeed> {
    let (buckets, fifo) = (cfg.buckets() as u64, 1u64 << cfg.report_fifo_bits);
    vec![
        MemoryNeed::new("bank0", buckets, cfg.bucket_bits() as u64),
        MemoryNeed::new("bank1", buckets, cfg.bucket_bits() as u64),
        MemoryNeed::new("evict_fifo", fifo, cfg.report_bits() as u64),
        MemoryNeed::new("flush_fifo", fifo, cfg.report_bits() as u64),
    ]
}

/// `netmeas generate reordering --set name=value` ([`crate::custom`]): the parameters are [`ReorderConfig`]'s
/// (the flow-sampling core; the hybrid with heavy hitters is its registered build `ro_hy`).
pub const PARAMS: Custom = Custom::of::<ReorderConfig>();

impl CoreParams for ReorderConfig {
    crate::params_are_the_config!(ReorderConfig);
    const DOCS: &'static [(&'static str, &'static str)] = &[
        ("addr_bits", "log2 of the buckets of the flow-sampling array (2..=20)"),
        ("fp_bits", "flow fingerprint width (1..=32)"),
        ("ts_bits", "stored timestamp width (8..=32)"),
        ("ts_shift", "timestamp unit: 2^ts_shift ns (0..=32)"),
        ("n_bits", "flow-size counter width n (2..=32; saturates)"),
        ("o_bits", "out-of-order counter width o (2..=n_bits; saturates)"),
        ("report_fifo_bits", "log2 of the report FIFO depth (2..=10)"),
    ];
    fn source(&self, name: &str) -> String {
        let c = self;
        let invocation = format!(
            "reorder_core!(addr_bits: {}, fp_bits: {}, ts_bits: {}, ts_shift: {}, n_bits: {}, o_bits: {}, \
             report_fifo_bits: {})",
            c.addr_bits, c.fp_bits, c.ts_bits, c.ts_shift, c.n_bits, c.o_bits, c.report_fifo_bits
        );
        build_source("reordering", &invocation, name)
    }
}

/// A build of `cfg` with its constructor `make` (also the generator crates' of [`crate::custom`]).
pub fn build<U: rust_hdl::prelude::Block>(
    name: &str,
    cfg: &ReorderConfig,
    make: impl Fn() -> Result<U, golden::common::ConfigError> + Send + Sync + 'static,
) -> Build {
    let desc = format!(
        "reordering core (flow sampling): 2^{} buckets, {}-bit fingerprints, {}-bit timestamps of 2^{} ns, \
         {}/{}-bit n/o, two banks",
        cfg.addr_bits, cfg.fp_bits, cfg.ts_bits, cfg.ts_shift, cfg.n_bits, cfg.o_bits
    );
    let latency = golden::reordering::cycle::latency(cfg);
    Build::new(name, desc, cfg, make).csr(cfg.csr_layout()).resources(true, memories(cfg)).latency(latency)
}

/// The co-simulated builds: `(name, configuration, build)`.
fn declared() -> Vec<(&'static str, ReorderConfig, Build)> {
    let mut out = Vec::new();
    // 16 buckets, narrow everything: 8-bit fingerprints (fingerprint collisions happen), 10-bit timestamps
    // of 16 ns (they wrap every 16 µs: staleness across the wrap), 6-bit n and 4-bit o (both saturate),
    // the smallest FIFOs.
    let (cfg, make) = reorder_core!(addr_bits: 4, fp_bits: 8, ts_bits: 10, ts_shift: 4, n_bits: 6, o_bits: 4,
                                    report_fifo_bits: 3);
    out.push(("ro_a4", cfg.clone(), build("ro_a4", &cfg, make)));
    // The experiments' widths (`ReorderConfig::default()`) at 64 buckets: what `--engine rtl` runs.
    let (cfg, make) = reorder_core!(addr_bits: 6, fp_bits: 16, ts_bits: 16, ts_shift: 16, n_bits: 16, o_bits: 16,
                                    report_fifo_bits: 4);
    debug_assert_eq!(cfg, ReorderConfig { addr_bits: 6, ..ReorderConfig::default() });
    let synth = memories(&cfg);
    out.push(("ro_a6", cfg.clone(), build("ro_a6", &cfg, make).synth("a6", true, synth)));
    // The mutants, each a test-only copy of ro_a4 that the co-simulation must catch.
    for (name, mutant, what) in MUTANTS {
        let (cfg, make) = reorder_core!(addr_bits: 4, fp_bits: 8, ts_bits: 10, ts_shift: 4, n_bits: 6, o_bits: 4,
                                        report_fifo_bits: 3, mutant: mutant);
        let b = Build::new(name, format!("ro_a4 with a deliberate mistake (test-only): {what}"), &cfg, make);
        out.push((name, cfg.clone(), b.csr(cfg.csr_layout()).test_only()));
    }
    out
}

/// The test-only mutants of `ro_a4`: build name, mistake, what it is.
pub const MUTANTS: [(&str, Mutant, &str); 2] = [
    ("ro_a4_mut_seq", Mutant::SeqReversed, "sequence comparison reversed (s' - s)"),
    ("ro_a4_mut_cond", Mutant::NoReorderCondition, "the reordering overwrite condition (o' > R) dropped"),
];

/// The co-simulated builds as `(name, configuration)`.
pub fn configs() -> Vec<(&'static str, ReorderConfig)> {
    declared().into_iter().map(|(n, c, _)| (n, c)).collect()
}

/// Every reordering build: the co-simulated ones and the synthesis sizes (2^10 buckets, the experiments'
/// default scale; 2^13, the largest array of 129-bit buckets in two banks that fits the LFE5U-85F's 208
/// DP16KD).
pub fn builds() -> Result<Vec<Build>, String> {
    let mut out: Vec<Build> = declared().into_iter().map(|(_, _, b)| b).collect();
    out.extend(hybrid_declared().into_iter().map(|(_, _, b)| b));
    let (cfg, make) = reorder_core!(addr_bits: 10, fp_bits: 16, ts_bits: 16, ts_shift: 16, n_bits: 16, o_bits: 16,
                                    report_fifo_bits: 4);
    out.push(build("", &cfg, make).synth_only("ro", "a10", true, memories(&cfg)));
    let (cfg, make) = reorder_core!(addr_bits: 13, fp_bits: 16, ts_bits: 16, ts_shift: 16, n_bits: 16, o_bits: 16,
                                    report_fifo_bits: 4);
    out.push(build("", &cfg, make).synth_only("ro", "a13", true, memories(&cfg)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The testbench reads a build's configuration back from the manifest's parameters.
    #[test]
    fn manifest_parameters_are_the_configuration() {
        crate::registry::check_manifest_configs("reordering", &super::configs()).unwrap();
        crate::registry::check_manifest_configs("reordering", &super::hybrid_configs()).unwrap();
    }
}
