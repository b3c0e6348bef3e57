//! The fridge core's builds (see [`crate::registry`]): each declared once, with its configuration's
//! independent parameters written once — [`fridge_core!`] builds both the [`FridgeConfig`] and the
//! `FridgeCore` type from them, its derived generics (table address, entry, report, CSR and tally widths)
//! computed by golden's `const fn`s.

use super::tally::FridgeTally;
use crate::custom::{build_source, CoreParams, Custom};
use crate::registry::{Build, MemoryNeed};
use golden::fridge::{tally, FridgeConfig};

/// `(configuration, constructor)` of a fridge core from its independent parameters: every field of
/// [`FridgeConfig`] once, the eleven generics of `FridgeCore` derived from them. Exported: a configuration
/// `netmeas generate` is asked for is built by this macro in a generator crate ([`crate::custom`]).
#[macro_export]
macro_rules! fridge_core {
    (addr_bits: [$($a:literal),+], sig_bits: $s:literal, ts_bits: $t:literal, ts_shift: $sh:literal,
     counter_bits: $c:literal, ports: $p:ident, report_fifo_bits: $f:literal, tally: $tl:literal,
     tally_bins_per_octave: $tb:literal, registered_ram: $rr:literal) => {{
        const ADDR: &[usize] = &[$($a),+];
        const N: usize = ADDR.len();
        use $crate::golden::fridge::{sizes, tally};
        let cfg = $crate::golden::fridge::FridgeConfig {
            addr_bits: ADDR.to_vec(),
            sig_bits: $s,
            ts_bits: $t,
            ts_shift: $sh,
            counter_bits: $c,
            ports: $crate::golden::common::sram::RamPorts::$p,
            report_fifo_bits: $f,
            tally: $tl,
            tally_bins_per_octave: $tb,
            registered_ram: $rr,
        };
        let c = cfg.clone();
        let make = move || {
            $crate::fridge::FridgeCore::<
                { sizes::ram_addr_bits(ADDR) },
                $s,
                $t,
                $c,
                { sizes::entry_bits($s, $t, $c) },
                { sizes::report_bits($t, $c) },
                $f,
                { $f + 1 },
                { sizes::csr_config_bits(N) },
                { tally::bank_addr_bits_of(N, $tb) },
                { tally::rom_addr_bits_of(N) },
            >::new(&c)
        };
        (cfg, make)
    }};
}

/// Address bits of the largest fridge table that fits the LFE5U-85F next to the rest of the core: one
/// fridge of 2^15 entries of the default 97-bit entry is 176 DP16KD (2048 × 9 tiles); with the report FIFO
/// (2), the tally banks (2 × 4) and ROM (5), 191 of 208. 2^16 entries would need 352.
pub const FRIDGE_SYNTH_LARGE_BITS: usize = 15;

/// What a fridge configuration's algorithm stores: the table (all fridges, `1 + S + T + C` bits per entry),
/// the report FIFO and, with a tally (`golden::fridge::tally`), its two banks of `fridges × bins` words
/// (128, 256 or 512 bins), the weight ROM (`fridges × 1024` words) and the tally FIFO.
pub fn memories(cfg: &FridgeConfig) -> Vec<MemoryNeed> {
    use golden::fridge::tally::{Bins, FIFO_BITS, RECORD_BITS, ROM_INDEX_BITS, ROM_WORD_BITS, WORD_BITS};
    let entries: usize = (0..cfg.fridges()).map(|k| cfg.entries(k)).sum();
    let mut m = vec![
        MemoryNeed::new("table", entries as u64, cfg.entry_bits() as u64),
        MemoryNeed::new("report_fifo", (1usize << cfg.report_fifo_bits) as u64, cfg.report_bits() as u64),
    ];
    if cfg.tally {
        let words = (cfg.fridges() * Bins::of(cfg).count()) as u64;
        m.push(MemoryNeed::new("tally_bank0", words, WORD_BITS as u64));
        m.push(MemoryNeed::new("tally_bank1", words, WORD_BITS as u64));
        let n = cfg.fridges();
        m.push(MemoryNeed::new("tally_rom", (n << ROM_INDEX_BITS) as u64, ROM_WORD_BITS as u64));
        m.push(MemoryNeed::new("tally_fifo", (1usize << FIFO_BITS) as u64, RECORD_BITS as u64));
    }
    m
}

fn description(cfg: &FridgeConfig) -> String {
    format!("fridge core: {} fridge(s), {:?}-port table", cfg.fridges(), cfg.ports)
}

/// A build of `cfg` with its constructor `make` (also the generator crates' of [`crate::custom`]).
pub fn build<U: rust_hdl::prelude::Block>(
    name: &str,
    cfg: &FridgeConfig,
    make: impl Fn() -> Result<U, golden::common::ConfigError> + Send + Sync + 'static,
) -> Build {
    let ii1 = cfg.ports == golden::common::sram::RamPorts::Dual;
    Build::new(name, description(cfg), cfg, make)
        .csr(cfg.csr_layout())
        .resources(ii1, memories(cfg))
        .latency(golden::fridge::cycle::latency(cfg))
}

/// `netmeas generate fridge --set name=value` ([`crate::custom`]): the parameters are [`FridgeConfig`]'s.
pub const PARAMS: Custom = Custom::of::<FridgeConfig>();

impl CoreParams for FridgeConfig {
    crate::params_are_the_config!(FridgeConfig);
    const DOCS: &'static [(&'static str, &'static str)] = &[
        ("addr_bits", "log2 of each fridge's entries, one per fridge (1..=8 fridges of 2..=16 bits), e.g. 13,12,11,11"),
        ("sig_bits", "signature width (1..=32)"),
        ("ts_bits", "stored timestamp width (8..=32)"),
        ("ts_shift", "timestamp unit: 2^ts_shift ns (0..=48 - ts_bits)"),
        ("counter_bits", "insertion counter width (8..=32)"),
        ("ports", "table RAM: Dual (one packet per cycle) or Single (one packet per two cycles)"),
        ("report_fifo_bits", "log2 of the report FIFO depth (1..=16)"),
        ("tally", "the in-hardware tally of the delay distribution (true or false)"),
        ("tally_bins_per_octave", "tally resolution: 4, 8 or 16 delay bins per octave"),
        ("registered_ram", "registered block-RAM reads: two cycles deeper, for large tables (true or false)"),
    ];
    fn source(&self, name: &str) -> String {
        let invocation = format!(
            "fridge_core!(addr_bits: {:?}, sig_bits: {}, ts_bits: {}, ts_shift: {}, counter_bits: {}, ports: {:?}, \
             report_fifo_bits: {}, tally: {}, tally_bins_per_octave: {}, registered_ram: {})",
            self.addr_bits,
            self.sig_bits,
            self.ts_bits,
            self.ts_shift,
            self.counter_bits,
            self.ports,
            self.report_fifo_bits,
            self.tally,
            self.tally_bins_per_octave,
            self.registered_ram,
        );
        build_source("fridge", &invocation, name)
    }
}

/// The co-simulated fridge builds: `(name, configuration)`, with their constructors.
fn declared() -> Vec<(&'static str, FridgeConfig, Build)> {
    let mut out = Vec::new();
    // One fridge of 1024 entries, the defaults of `FridgeConfig` (32-bit signatures, timestamps in 16 ns
    // units, counters), a 512-report FIFO and the tally.
    let (cfg, make) = fridge_core!(addr_bits: [10], sig_bits: 32, ts_bits: 32, ts_shift: 4, counter_bits: 32,
        ports: Dual, report_fifo_bits: 9, tally: true, tally_bins_per_octave: 4, registered_ram: false);
    let b = build("fridge_dp", &cfg, make).synth("dp", true, memories(&cfg));
    out.push(("fridge_dp", cfg, b));
    // fridge_dp on registered block RAM (reads 4 cycles, SL = S5, SM = S6, forwarding 1–7), as the largest
    // synthesis build below is built.
    let (cfg, make) = fridge_core!(addr_bits: [10], sig_bits: 32, ts_bits: 32, ts_shift: 4, counter_bits: 32,
        ports: Dual, report_fifo_bits: 9, tally: true, tally_bins_per_octave: 4, registered_ram: true);
    let b = build("fridge_dp_reg", &cfg, make);
    out.push(("fridge_dp_reg", cfg, b));
    // The single-port build is also the build without a tally.
    let (cfg, make) = fridge_core!(addr_bits: [10], sig_bits: 32, ts_bits: 32, ts_shift: 4, counter_bits: 32,
        ports: Single, report_fifo_bits: 9, tally: false, tally_bins_per_octave: 4, registered_ram: false);
    let b = build("fridge_sp", &cfg, make).synth("sp", false, memories(&cfg));
    out.push(("fridge_sp", cfg, b));
    // Four fridges of different sizes — the multi-fridge layout of 1024 entries (M/2, M/4, M/8, M/8) —
    // narrow fields: 16-bit signatures, 24-bit timestamps in 256 ns units (they wrap every 4.3 s), 20-bit
    // counters, a 16-entry report FIFO that overflows, and a tally of eight bins per octave.
    let (cfg, make) = fridge_core!(addr_bits: [9, 8, 7, 7], sig_bits: 16, ts_bits: 24, ts_shift: 8,
        counter_bits: 20, ports: Dual, report_fifo_bits: 4, tally: true, tally_bins_per_octave: 8,
        registered_ram: false);
    let b = build("fridge4_dp", &cfg, make).synth("fridge4_dp", true, memories(&cfg));
    out.push(("fridge4_dp", cfg, b));
    out
}

/// The co-simulated fridge builds as `(name, configuration)` (what the testbench and the RTL engine of the
/// experiments look up).
pub fn configs() -> Vec<(&'static str, FridgeConfig)> {
    declared().into_iter().map(|(n, c, _)| (n, c)).collect()
}

/// The standalone tally top `fridge_tally`: two fridges of 256 and 8 entries (ROM steps of 4 and of 1
/// insertion), 24-bit delays, 16-bit counters (so x runs past the ROM's last step), sixteen bins per octave
/// (the finest; the cores cover four and eight).
const TALLY_ADDR_BITS: &[usize] = &[8, 3];
const TALLY_TS_BITS: usize = 24;
const TALLY_COUNTER_BITS: usize = 16;
const TALLY_BINS_PER_OCTAVE: usize = 16;

/// Configuration of the standalone tally top `fridge_tally` (the rest as [`FridgeConfig::default`]).
pub fn tally_config() -> FridgeConfig {
    FridgeConfig {
        addr_bits: TALLY_ADDR_BITS.to_vec(),
        ts_bits: TALLY_TS_BITS,
        counter_bits: TALLY_COUNTER_BITS,
        tally_bins_per_octave: TALLY_BINS_PER_OCTAVE,
        ..Default::default()
    }
}

/// Every fridge build: the co-simulated cores, the default single fridge at the largest table that fits
/// ([`FRIDGE_SYNTH_LARGE_BITS`], synthesized only: `fridge_dp_reg`'s RTL at another depth, on registered block
/// RAM as DP16KD tiles with their output registers, `Build::ecp5_bram`), the default single
/// fridge with the finest tally (synthesized only: the tally's generator is co-simulated at 16 bins per
/// octave on its own and at 4 and 8 in the cores) and the tally on its own (co-simulated only).
pub fn builds() -> Result<Vec<Build>, String> {
    let mut out: Vec<Build> = declared().into_iter().map(|(_, _, b)| b).collect();
    const _: () = assert!(FRIDGE_SYNTH_LARGE_BITS == 15, "fridge_core! below spells the large table's bits");
    let (cfg, make) = fridge_core!(addr_bits: [15], sig_bits: 32, ts_bits: 32, ts_shift: 4, counter_bits: 32,
        ports: Dual, report_fifo_bits: 9, tally: true, tally_bins_per_octave: 4, registered_ram: true);
    out.push(
        build("", &cfg, make)
            .with_description(format!(
                "fridge core: one fridge of 2^{FRIDGE_SYNTH_LARGE_BITS} entries, dual-port table, registered block RAM"
            ))
            .synth_only("fridge", format!("dp_a{FRIDGE_SYNTH_LARGE_BITS}"), true, memories(&cfg))
            .ecp5_bram(),
    );
    let (cfg, make) = fridge_core!(addr_bits: [10], sig_bits: 32, ts_bits: 32, ts_shift: 4, counter_bits: 32,
        ports: Dual, report_fifo_bits: 9, tally: true, tally_bins_per_octave: 16, registered_ram: false);
    out.push(
        build("", &cfg, make)
            .with_description("fridge core: the default single fridge with a tally of 16 bins per octave")
            .synth_only("fridge", "dp_b16", true, memories(&cfg)),
    );
    let tc = tally_config();
    let t = tc.clone();
    const TN: usize = TALLY_ADDR_BITS.len();
    out.push(Build::new(
        "fridge_tally",
        "the fridge core's in-hardware tally on its own (two fridges, 24-bit delays, 16-bit counters, 16 bins \
         per octave)",
        &tc,
        move || {
            FridgeTally::<
                { tally::bank_addr_bits_of(TN, TALLY_BINS_PER_OCTAVE) },
                { tally::rom_addr_bits_of(TN) },
                TALLY_TS_BITS,
                TALLY_COUNTER_BITS,
            >::new(&t)
        },
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The testbench reads a build's configuration back from the manifest's parameters.
    #[test]
    fn manifest_parameters_are_the_configuration() {
        let all = [super::configs(), vec![("fridge_tally", super::tally_config())]].concat();
        crate::registry::check_manifest_configs("fridge", &all).unwrap();
    }
}
