//! The IFPD core's builds (see [`crate::registry`]): each declared once, its configuration's independent
//! parameters written once — [`ifpd_core!`] builds both the [`IfpdConfig`] and the `IfpdCore` type, the
//! derived generics computed by golden's `const fn`s ([`golden::ifpd::sizes`]).
//!
//! Modes are run-time (CSR `mode`), so every build serves IFPD, CM and CM-BF; the co-simulation draws the
//! mode at every reset and rewrites it mid-traffic.

use super::Mutant;
use crate::custom::{build_source, CoreParams, Custom};
use crate::registry::{Build, MemoryNeed};
use golden::ifpd::IfpdConfig;

/// `(configuration, constructor)` of an IFPD core from its independent parameters (`addr_bits`: log2 of
/// the buckets per row; `bf_addr_bits`: log2 of the bits per Bloom partition).
#[macro_export]
macro_rules! ifpd_core {
    (rows: $d:literal, addr_bits: $a:literal, fp_bits: $f:literal, ts_bits: $t:literal, ts_shift: $s:literal,
     bf_hashes: $k:literal, bf_addr_bits: $ba:literal, report_fifo_bits: $q:literal, registered_ram: $rr:literal) => {
        $crate::ifpd_core!(rows: $d, addr_bits: $a, fp_bits: $f, ts_bits: $t, ts_shift: $s, bf_hashes: $k,
                   bf_addr_bits: $ba, report_fifo_bits: $q, registered_ram: $rr, mutant: $crate::ifpd::Mutant::None)
    };
    (rows: $d:literal, addr_bits: $a:literal, fp_bits: $f:literal, ts_bits: $t:literal, ts_shift: $s:literal,
     bf_hashes: $k:literal, bf_addr_bits: $ba:literal, report_fifo_bits: $q:literal, registered_ram: $rr:literal,
     mutant: $m:expr) => {{
        use $crate::golden::ifpd::{sizes, IfpdConfig};
        let cfg = IfpdConfig {
            rows: $d,
            buckets: 1 << $a,
            fp_bits: $f,
            ts_bits: $t,
            ts_shift: $s,
            bf_hashes: $k,
            bf_bits: 1 << $ba,
            report_fifo_bits: $q,
            registered_ram: $rr,
        };
        let c = cfg.clone();
        let make = move || {
            $crate::ifpd::IfpdCore::<
                $f,
                $t,
                $a,
                $d,
                { sizes::bucket_bits($f, $t) },
                { $d * $a },
                { $d * sizes::bucket_bits($f, $t) },
                { sizes::report_bits($f, $t) },
                $q,
                { $q + 1 },
                $ba,
                $k,
                { $k * $ba },
            >::with_mutant(&c, $m)
        };
        (cfg, make)
    }};
}

/// What a configuration stores: `rows` RAMs of `buckets` words of `fp_bits + ts_bits`, the filter's
/// `bf_hashes` one-bit RAMs of `bf_bits` words, the report FIFO.
pub fn memories(cfg: &IfpdConfig) -> Vec<MemoryNeed> {
    let mut m: Vec<MemoryNeed> = (0..cfg.rows)
        .map(|r| MemoryNeed::new(format!("row{r}"), cfg.buckets as u64, (cfg.fp_bits + cfg.ts_bits) as u64))
        .collect();
    m.extend((0..cfg.bf_hashes).map(|p| MemoryNeed::new(format!("bloom{p}"), cfg.bf_bits as u64, 1)));
    m.push(MemoryNeed::new("report_fifo", 1 << cfg.report_fifo_bits, cfg.report_bits() as u64));
    m
}

/// `netmeas generate ifpd --set name=value` ([`crate::custom`]): the parameters are [`IfpdConfig`]'s, the
/// bucket and filter sizes powers of two.
pub const PARAMS: Custom = Custom::of::<IfpdConfig>();

impl CoreParams for IfpdConfig {
    type Config = IfpdConfig;
    const DOCS: &'static [(&'static str, &'static str)] = &[
        ("rows", "rows d (1..=8)"),
        ("buckets", "buckets per row w (a power of two, 4..=2^24)"),
        ("fp_bits", "fingerprint width (1..=32)"),
        ("ts_bits", "stored timestamp width (8..=32)"),
        ("ts_shift", "timestamp unit: 2^ts_shift ns (0..=32)"),
        ("bf_hashes", "CM-BF: Bloom partitions k (1..=8)"),
        ("bf_bits", "CM-BF: bits per Bloom partition m (a power of two, 64..=2^32)"),
        ("report_fifo_bits", "log2 of the report FIFO depth (2..=10)"),
        ("registered_ram", "registered block-RAM reads: three cycles deeper, for large tables (true or false)"),
    ];
    fn of(config: &IfpdConfig) -> Result<Self, String> {
        Ok(config.clone())
    }
    fn check(&self) -> Result<(), String> {
        IfpdConfig::check(self).map_err(|e| e.to_string())?;
        if self.bf_bits == 0 {
            return Err("bf_bits = 0 (no Bloom filter) is a golden-model configuration; RTL builds have a filter \
                        (bf_bits a power of two, 64..=2^32)"
                .into());
        }
        for (what, v) in [("buckets", self.buckets), ("bf_bits", self.bf_bits)] {
            if !v.is_power_of_two() {
                return Err(format!("{what} = {v} is not a power of two (an RTL build's tables are)"));
            }
        }
        Ok(())
    }
    fn source(&self, name: &str) -> String {
        let (c, log2) = (self, |v: usize| v.trailing_zeros());
        let invocation = format!(
            "ifpd_core!(rows: {}, addr_bits: {}, fp_bits: {}, ts_bits: {}, ts_shift: {}, bf_hashes: {}, \
             bf_addr_bits: {}, report_fifo_bits: {}, registered_ram: {})",
            c.rows,
            log2(c.buckets),
            c.fp_bits,
            c.ts_bits,
            c.ts_shift,
            c.bf_hashes,
            log2(c.bf_bits),
            c.report_fifo_bits,
            c.registered_ram
        );
        build_source("ifpd", &invocation, name)
    }
}

/// A build of `cfg` with its constructor `make` (also the generator crates' of [`crate::custom`]).
pub fn build<U: rust_hdl::prelude::Block>(
    name: &str,
    cfg: &IfpdConfig,
    make: impl Fn() -> Result<U, golden::common::ConfigError> + Send + Sync + 'static,
) -> Build {
    let desc = format!(
        "IFPD sketch core (modes IFPD, CM, CM-BF): {} row(s) of {} buckets, {}-bit fingerprints, {}-bit times \
         in units of 2^{} ns, Bloom filter {} x {} bits",
        cfg.rows, cfg.buckets, cfg.fp_bits, cfg.ts_bits, cfg.ts_shift, cfg.bf_hashes, cfg.bf_bits
    );
    Build::new(name, desc, cfg, make)
        .csr(cfg.csr_layout())
        .resources(true, memories(cfg))
        .latency(golden::ifpd::cycle::latency(cfg))
}

/// The co-simulated builds: `(name, configuration, build)`.
fn declared() -> Vec<(&'static str, IfpdConfig, Build)> {
    let mut out = Vec::new();
    // Four rows of 16 buckets (collisions in every row), the paper's 16-bit fingerprints, 16-bit times of
    // 4 ns (they wrap every 2^18 ns: many wraps per run), a filter of 4 x 64 bits, 8 reports of FIFO.
    let (cfg, make) = ifpd_core!(rows: 4, addr_bits: 4, fp_bits: 16, ts_bits: 16, ts_shift: 2, bf_hashes: 4,
                                 bf_addr_bits: 6, report_fifo_bits: 3, registered_ram: false);
    let synth = memories(&cfg);
    out.push(("ifpd_d4", cfg.clone(), build("ifpd_d4", &cfg, make).synth("d4_a4", true, synth)));
    // One row of 32 buckets, the paper's 32-bit times at the default unit (1.024 us), 2 x 64 filter bits.
    let (cfg, make) = ifpd_core!(rows: 1, addr_bits: 5, fp_bits: 16, ts_bits: 32, ts_shift: 10, bf_hashes: 2,
                                 bf_addr_bits: 6, report_fifo_bits: 4, registered_ram: false);
    out.push(("ifpd_d1", cfg.clone(), build("ifpd_d1", &cfg, make)));
    // Two rows of 16 buckets, 12-bit fingerprints (fingerprint collisions between flows), 24-bit times of
    // 64 ns, 3 x 128 filter bits.
    let (cfg, make) = ifpd_core!(rows: 2, addr_bits: 4, fp_bits: 12, ts_bits: 24, ts_shift: 6, bf_hashes: 3,
                                 bf_addr_bits: 7, report_fifo_bits: 3, registered_ram: false);
    out.push(("ifpd_d2", cfg.clone(), build("ifpd_d2", &cfg, make)));
    // ifpd_d4 on registered RAM (both groups: reads 4 cycles, modify stage 6, forwarding 1–7), as the large
    // synthesis sizes below are built.
    let (cfg, make) = ifpd_core!(rows: 4, addr_bits: 4, fp_bits: 16, ts_bits: 16, ts_shift: 2, bf_hashes: 4,
                                 bf_addr_bits: 6, report_fifo_bits: 3, registered_ram: true);
    out.push(("ifpd_d4_reg", cfg.clone(), build("ifpd_d4_reg", &cfg, make)));
    // The experiment's scale: 4 rows of 2^14 buckets with the paper's widths (16-bit fingerprints, 32-bit
    // times of 1.024 us) = 384 KB, what `--memory-kb 384` gives the sketch (Fig. 5 runs at 400 KB), and a
    // 4 x 2^16-bit filter, on registered RAM as a table of that size is built. Co-simulated for `--engine rtl`
    // at that size (a trace, not the randomized runner: its collisions need small rows); larger than the
    // LFE5U-85F holds (see `builds`).
    let (cfg, make) = ifpd_core!(rows: 4, addr_bits: 14, fp_bits: 16, ts_bits: 32, ts_shift: 10, bf_hashes: 4,
                                 bf_addr_bits: 16, report_fifo_bits: 4, registered_ram: true);
    out.push(("ifpd_d4_a14", cfg.clone(), build("ifpd_d4_a14", &cfg, make)));
    // The mutants, each a test-only copy of ifpd_d4 that the co-simulation must catch.
    for (name, mutant, what) in MUTANTS {
        let (cfg, make) = ifpd_core!(rows: 4, addr_bits: 4, fp_bits: 16, ts_bits: 16, ts_shift: 2, bf_hashes: 4,
                                     bf_addr_bits: 6, report_fifo_bits: 3, registered_ram: false, mutant: mutant);
        let b = Build::new(name, format!("ifpd_d4 with a deliberate mistake (test-only): {what}"), &cfg, make);
        out.push((name, cfg.clone(), b.csr(cfg.csr_layout()).test_only()));
    }
    out
}

/// The test-only mutants of `ifpd_d4`: build name, mistake, what it is.
pub const MUTANTS: [(&str, Mutant, &str); 3] = [
    ("ifpd_d4_mut_order", Mutant::RowsReversed, "rows scanned last to first"),
    ("ifpd_d4_mut_smallest", Mutant::ReplaceSmallest, "case 3 replaces the smallest timestamp"),
    ("ifpd_d4_mut_fwd", Mutant::Row0NoDist2, "row 0 without distance-2 forwarding"),
];

/// The co-simulated builds as `(name, configuration)`.
pub fn configs() -> Vec<(&'static str, IfpdConfig)> {
    declared().into_iter().map(|(n, c, _)| (n, c)).collect()
}

/// Every IFPD build: the co-simulated ones and the synthesis sizes — d = 4 × 2^12 buckets (the issue's
/// target) and d = 4 × 2^13, both on registered RAM (short timing: the filter's block-RAM output to the
/// register after it limits d = 4 × 2^12 to 122.5 MHz), by block-RAM arithmetic the largest with the paper's widths and a 4 × 2^16-bit
/// filter on the LFE5U-85F (208 DP16KD of 18 kbit): rows of 2^13 × 48 bits take 24 blocks each (8K × 2), 96
/// in all, the filter 16 (16K × 1); 4 × 2^14 would take 192 + 16 = 208 before the report FIFO. (With a
/// smaller filter 4 × 2^14 might just fit; not tried.) Both synthesize with the DP16KD output registers
/// (`Build::ecp5_bram`): the rows' block-RAM outputs were d4_a12's critical path without them.
pub fn builds() -> Result<Vec<Build>, String> {
    let mut out: Vec<Build> = declared().into_iter().map(|(_, _, b)| b).collect();
    let (cfg, make) = ifpd_core!(rows: 4, addr_bits: 12, fp_bits: 16, ts_bits: 32, ts_shift: 10, bf_hashes: 4,
                                 bf_addr_bits: 16, report_fifo_bits: 4, registered_ram: true);
    out.push(build("", &cfg, make).synth_only("ifpd", "d4_a12", true, memories(&cfg)).ecp5_bram());
    let (cfg, make) = ifpd_core!(rows: 4, addr_bits: 13, fp_bits: 16, ts_bits: 32, ts_shift: 10, bf_hashes: 4,
                                 bf_addr_bits: 16, report_fifo_bits: 4, registered_ram: true);
    out.push(build("", &cfg, make).synth_only("ifpd", "d4_a13", true, memories(&cfg)).ecp5_bram());
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The testbench reads a build's configuration back from the manifest's parameters.
    #[test]
    fn manifest_parameters_are_the_configuration() {
        crate::registry::check_manifest_configs("ifpd", &super::configs()).unwrap();
    }

    /// Every build constructs (generics match the configuration), and a wrong generic is a clear error.
    #[test]
    fn generics_are_checked_against_the_configuration() {
        for b in super::builds().unwrap() {
            b.generate(false).unwrap_or_else(|e| panic!("{}: {e}", b.name));
        }
        let cfg = golden::ifpd::IfpdConfig { rows: 2, buckets: 16, bf_bits: 64, ..Default::default() };
        let e = crate::ifpd::IfpdCore::<16, 32, 4, 4, 48, 16, 192, 85, 4, 5, 6, 4, 24>::new(&cfg).err().unwrap();
        assert!(e.0.contains("generic D = 4"), "{}", e.0);
    }
}
